//! Fuzz target: the WARC reader over a WARC of good records with damage
//! done to it (issue 41). The input is not the WARC: it says how to build
//! and damage one. Its first byte picks plain or a gzip member a record;
//! every three bytes after it are one damage (kind, record, amount): cut
//! the record (or its member) short, flip bits in it, put junk before it,
//! or give it a wrong or unparseable `Content-Length`.
//!
//! Invariants, on every input:
//! * every record no damage touched comes out once, whole, in order;
//! * each damaged record, and each stretch of junk, makes at most one
//!   report (an error row or a warning), and at most one row read as good
//!   whose bytes the damage altered (a flipped byte in a plain body cannot
//!   be seen); a damaged record's own row, whole, is neither;
//! * no body is over the payload limit.
//!
//! `WARC_DAMAGE_DEBUG=1` prints the rows and warnings of a run;
//! `WARC_DAMAGE_DUMP=FILE` writes the WARC it built.
#![no_main]

use std::io::{Cursor, Write};

use libfuzzer_sys::fuzz_target;
use unchaff_batch::warc::WarcReader;

/// Records in every WARC built.
const RECORDS: usize = 8;

/// The payload limit, as in the `warc` target.
const MAX_PAYLOAD: usize = 4096;

/// Damages at most (the rest of a long input is ignored).
const MAX_DAMAGES: usize = 4;

/// One HTML response record, `WARC-Record-ID` `<urn:uuid:r{i}>`, its body
/// a paragraph whose length varies with `i`.
fn record(i: usize, length: Option<&str>) -> Vec<u8> {
    let body = format!(
        "<html><body><p>page {i} {}</p></body></html>",
        "words of the page ".repeat(1 + i * 5)
    );
    let block = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{body}");
    let length = length.map_or_else(|| block.len().to_string(), str::to_owned);
    format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:r{i}>\r\n\
         WARC-Target-URI: https://example.org/{i}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n\
         Content-Length: {length}\r\n\r\n{block}\r\n\r\n"
    )
    .into_bytes()
}

/// The body record `i` has when read whole.
fn body(i: usize) -> Vec<u8> {
    format!(
        "<html><body><p>page {i} {}</p></body></html>",
        "words of the page ".repeat(1 + i * 5)
    )
    .into_bytes()
}

fn gzip(b: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(b).unwrap();
    e.finish().unwrap()
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, ops)) = data.split_first() else {
        return;
    };
    let gz = mode & 1 == 1;
    let mut pieces: Vec<Vec<u8>> = Vec::new();
    let mut junk: Vec<Vec<u8>> = vec![Vec::new(); RECORDS];
    let mut damaged = [false; RECORDS];
    let mut lengths: [Option<String>; RECORDS] = Default::default();
    let damages: Vec<&[u8]> = ops.chunks_exact(3).take(MAX_DAMAGES).collect();
    // Content-Length damages first: they change the record's bytes.
    for d in &damages {
        let i = d[1] as usize % RECORDS;
        if d[0] % 4 == 3 {
            damaged[i] = true;
            lengths[i] = Some(match d[2] % 6 {
                0 => "-5".to_owned(),
                1 => "0x10".to_owned(),
                2 => "100000000000000000000000".to_owned(),
                3 => "100000000000".to_owned(),
                4 => String::new(),
                _ => (d[2] as usize).to_string(),
            });
        }
    }
    for i in 0..RECORDS {
        let r = record(i, lengths[i].as_deref());
        pieces.push(if gz { gzip(&r) } else { r });
    }
    for d in &damages {
        let i = d[1] as usize % RECORDS;
        let p = &mut pieces[i];
        let amount = d[2] as usize;
        match d[0] % 4 {
            0 => {
                // Cut short, by 1 to 256 bytes or to a fraction.
                let cut = if amount >= 200 {
                    p.len() * (amount - 199) / 57
                } else {
                    amount + 1
                };
                let keep = p.len().saturating_sub(cut.max(1));
                p.truncate(keep);
                damaged[i] = true;
            }
            1 => {
                // Bits flipped at a place in it.
                if !p.is_empty() {
                    let at = (amount * 7919) % p.len();
                    p[at] ^= 0x55 | (amount as u8 & 0x0f);
                    damaged[i] = true;
                }
            }
            2 => {
                // Junk right before it (with or without a newline).
                junk[i].extend_from_slice(b"junk ");
                junk[i].extend(std::iter::repeat_n(amount as u8, amount % 17));
                if amount % 2 == 0 {
                    junk[i].extend_from_slice(b"\r\n");
                }
                damaged[i] = true;
            }
            _ => {}
        }
    }
    let mut warc = Vec::new();
    for i in 0..RECORDS {
        warc.extend_from_slice(&junk[i]);
        warc.extend_from_slice(&pieces[i]);
    }
    let mut whole: Vec<usize> = Vec::new();
    // Error rows and warnings; rows read as good whose bytes were damaged
    // (undetectable: a flipped byte inside a plain body).
    let mut reports = 0usize;
    let mut altered = 0usize;
    let debug = std::env::var_os("WARC_DAMAGE_DEBUG").is_some();
    if let Some(path) = std::env::var_os("WARC_DAMAGE_DUMP") {
        // The WARC built, to read a finding again with `unchaff batch`.
        std::fs::write(path, &warc).expect("WARC_DAMAGE_DUMP: a writable path");
    }
    for item in WarcReader::new(Cursor::new(&warc)).with_max_payload(MAX_PAYLOAD) {
        if debug {
            match &item {
                Ok(r) => eprintln!("row {:?} {:?}", r.head.record_id, r.body.as_ref().err()),
                Err(e) => eprintln!("warning {}", e.message),
            }
        }
        match item {
            Ok(r) => {
                if let Ok(b) = &r.body {
                    assert!(b.len() <= MAX_PAYLOAD, "body of {} bytes", b.len());
                }
                let id = r.head.record_id.as_deref().unwrap_or("");
                let i = id
                    .strip_prefix("urn:uuid:r")
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|&i| i < RECORDS);
                match (i, &r.body) {
                    (Some(i), Ok(b)) if *b == body(i) => whole.push(i),
                    (_, Ok(_)) => altered += 1,
                    (_, Err(_)) => reports += 1,
                }
            }
            Err(_) => reports += 1,
        }
    }
    let intact: Vec<usize> = (0..RECORDS).filter(|&i| !damaged[i]).collect();
    let kept: Vec<usize> = whole.iter().copied().filter(|&i| !damaged[i]).collect();
    assert_eq!(kept, intact, "every intact record, once, in order");
    // Junk before a record is a broken stretch of its own; whatever else
    // is done to one record is one damaged record.
    let hurt =
        damaged.iter().filter(|&&d| d).count() + junk.iter().filter(|j| !j.is_empty()).count();
    assert!(
        reports <= hurt,
        "{reports} error rows and warnings for {hurt} damaged stretches"
    );
    assert!(
        altered <= hurt,
        "{altered} altered rows for {hurt} damaged stretches"
    );
    let mut seen = whole.clone();
    seen.dedup();
    assert_eq!(seen.len(), whole.len(), "a record twice: {whole:?}");
});
