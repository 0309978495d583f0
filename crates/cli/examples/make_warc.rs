//! Builds a gzipped WARC (one gzip member per record, as crawlers write
//! them) from page files, for benchmarking `unchaff batch`:
//!
//! ```text
//! cargo run --release -p unchaff-cli --example make_warc -- OUT.warc.gz ../shared/data
//! ```
//!
//! Every `.html` / `.html.gz` under the given directories becomes a
//! `request` and a `response` record (`Content-Type: text/html`, no
//! charset: the page's own evidence decides).

use std::io::{Read, Write};
use std::path::PathBuf;

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;

fn record(kind: &str, n: usize, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{kind}-{n:08}>\r\n\
         WARC-Target-URI: {uri}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n\
         Content-Type: application/http; msgtype={kind}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((out, dirs)) = args.split_first() else {
        return Err("usage: make_warc OUT.warc.gz DIR...".into());
    };
    let mut files = Vec::new();
    let mut stack: Vec<PathBuf> = dirs.iter().map(PathBuf::from).collect();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)? {
            let p = e?.path();
            let name = p.to_string_lossy().to_string();
            if p.is_dir() {
                stack.push(p);
            } else if name.ends_with(".html") || name.ends_with(".html.gz") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut w = std::io::BufWriter::new(std::fs::File::create(out)?);
    let mut html_bytes = 0usize;
    for (n, p) in files.iter().enumerate() {
        let raw = std::fs::read(p)?;
        let mut html = Vec::new();
        if raw.starts_with(&[0x1f, 0x8b]) {
            MultiGzDecoder::new(&raw[..]).read_to_end(&mut html)?;
        } else {
            html = raw;
        }
        html_bytes += html.len();
        let uri = format!("https://example.invalid/{}", p.display());
        let request = format!("GET /{n} HTTP/1.1\r\nHost: example.invalid\r\n\r\n");
        let mut response = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
            html.len()
        )
        .into_bytes();
        response.extend_from_slice(&html);
        for (kind, block) in [("request", request.as_bytes()), ("response", &response[..])] {
            let mut gz = GzEncoder::new(Vec::new(), Compression::default());
            gz.write_all(&record(kind, n, &uri, block))?;
            w.write_all(&gz.finish()?)?;
        }
    }
    w.flush()?;
    eprintln!(
        "{} pages, {:.1} MB of HTML -> {out}",
        files.len(),
        html_bytes as f64 / 1e6
    );
    Ok(())
}
