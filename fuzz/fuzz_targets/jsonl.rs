//! Fuzz target: the JSONL page reader (`unchaff_batch::jsonl::JsonlReader`)
//! over any bytes. Any panic, hang or runaway allocation is a finding;
//! error pages (`json`, `too_large`) and warnings are fine.
//!
//! Invariants checked on every input:
//! * a page body handed out is never larger than the size limit;
//! * the reader yields at most one item per input line, plus one (it
//!   always moves forward).
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use unchaff_batch::jsonl::JsonlReader;

/// The page size limit: small, so that the `too_large` and overlong-line
/// paths are reached by inputs of fuzzing size.
const MAX_PAGE: usize = 1024;

fuzz_target!(|data: &[u8]| {
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    let mut items = 0usize;
    for item in JsonlReader::new(Cursor::new(data), "fuzz", MAX_PAGE) {
        items += 1;
        if let Ok(page) = item {
            if let Ok(body) = &page.body {
                assert!(body.len() <= MAX_PAGE, "page of {} bytes", body.len());
            }
        }
        assert!(items <= lines + 1, "{items} items from {lines} lines");
    }
});
