//! Tiny in-memory WARC records and pages for the unit tests.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;

/// One WARC record (uncompressed).
pub fn warc_record(kind: &str, id: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: {uri}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n\
         Content-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// An HTTP response: status line, headers, blank line, body.
pub fn http(status: &str, headers: &str, body: &[u8]) -> Vec<u8> {
    let mut r = format!("HTTP/1.1 {status}\r\n{headers}\r\n").into_bytes();
    r.extend_from_slice(body);
    r
}

/// An HTML response record.
pub fn html_record(id: &str, body: &str) -> Vec<u8> {
    warc_record(
        "response",
        id,
        &format!("https://example.org/{id}"),
        &http("200 OK", "Content-Type: text/html\r\n", body.as_bytes()),
    )
}

/// Gzip of some bytes (one member).
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// A small article page: `words` fills its paragraphs.
pub fn article(title: &str, words: &str) -> String {
    let para = format!("<p>{words} {words} {words} {words}.</p>");
    format!(
        "<html><head><title>{title}</title></head><body>\
         <nav><a href=/>Home</a> <a href=/news>News</a></nav>\
         <article><h1>{title}</h1>{para}{para}{para}</article></body></html>"
    )
}
