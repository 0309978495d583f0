//! Fuzz target: the WARC reader (`unchaff_batch::warc::WarcReader`) over
//! any bytes, plain or gzip. Any panic, hang (libFuzzer's timeout), or
//! runaway allocation is a finding; error rows and warnings are fine.
//!
//! Invariants checked on every input:
//! * a body handed out is never larger than the payload limit;
//! * on plain (not gzip) input the reader yields at most one item per
//!   input byte, plus one: it always moves forward.
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use unchaff_batch::warc::WarcReader;

/// The payload limit: small, so that the `too_large` path is reached by
/// inputs of fuzzing size.
const MAX_PAYLOAD: usize = 4096;

/// gzip's magic bytes: gzip input may inflate to far more records than
/// it has bytes, so the progress bound is checked on plain input only.
const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];

fuzz_target!(|data: &[u8]| {
    let plain = !data.starts_with(GZIP_MAGIC);
    let mut items = 0usize;
    for item in WarcReader::new(Cursor::new(data)).with_max_payload(MAX_PAYLOAD) {
        items += 1;
        if let Ok(record) = item {
            if let Ok(body) = &record.body {
                assert!(body.len() <= MAX_PAYLOAD, "body of {} bytes", body.len());
            }
        }
        if plain {
            assert!(items <= data.len() + 1, "{items} items from {} bytes", data.len());
        }
    }
});
