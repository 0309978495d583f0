//! A JSONL page reader: one `{"url", "html", "id"}` object a line.
//!
//! * The id is the row's `id` (a string as it is, a number or other value
//!   as JSON), else its `url`, else `NAME:LINE` (the reader's name, the line
//!   number from 1).
//! * `html` is already Unicode: the page goes to the extractor as UTF-8
//!   whatever its `<meta>` declares (its charset is `utf-8`).
//! * A line that is not such an object is a `json` error page; an `html`
//!   longer than the size limit, or a line longer than twice that plus
//!   [`LINE_SLACK`], a `too_large` one (the line is skipped unread). Blank
//!   lines are skipped.
//! * A read error gives an error page (`read`, id `NAME:LINE`) and then an
//!   [`InputError`], and the stream ends.

use std::io::BufRead;

use serde::Deserialize;

use crate::InputError;
use crate::row::{ErrorKind, Page, PageError};
use crate::warc::read_line;

/// Room on a line for the JSON around the page (the id, the URL, the keys)
/// beyond the escaped HTML.
pub const LINE_SLACK: u64 = 1 << 20;

/// JSON escapes can make a page's line longer than its HTML: a line may be
/// this many times the size limit (plus [`LINE_SLACK`]).
const ESCAPE_FACTOR: u64 = 2;

/// Most bytes of an overlong line skipped before the reader gives up on
/// the stream: no JSONL page line is that long, and a device or FIFO
/// without newlines (`/dev/zero`) must not be read forever.
pub const MAX_SKIPPED_LINE: u64 = 1 << 30;

/// The JSONL rows `{"url", "html", "id"?}`.
#[derive(Deserialize)]
struct JsonlPage {
    url: Option<String>,
    html: Option<String>,
    id: Option<serde_json::Value>,
}

/// Reads the pages of one JSONL stream (already gunzipped: see
/// [`crate::inputs::open`]).
pub struct JsonlReader<R> {
    r: R,
    name: String,
    max: usize,
    limit: u64,
    line: Vec<u8>,
    n: u64,
    done: bool,
    queued: Option<InputError>,
    max_skip: u64,
}

impl<R: BufRead> JsonlReader<R> {
    /// A reader over a JSONL stream. `name` (usually the file's path) makes
    /// the ids of rows that have neither `id` nor `url`: `NAME:LINE`. Pages
    /// over `max` bytes are `too_large` error pages.
    pub fn new(r: R, name: impl Into<String>, max: usize) -> JsonlReader<R> {
        JsonlReader {
            r,
            name: name.into(),
            max,
            limit: line_limit(max),
            line: Vec::new(),
            n: 0,
            done: false,
            queued: None,
            max_skip: MAX_SKIPPED_LINE,
        }
    }

    /// Skips the rest of an overlong line (at most `max_skip` bytes).
    fn skip_line(&mut self, max_skip: u64) -> Result<(), InputError> {
        let mut rest = Vec::new();
        let mut skipped = 0u64;
        loop {
            read_line(&mut self.r, &mut rest, self.limit)
                .map_err(|e| InputError::new(e.to_string()))?;
            if rest.is_empty() || rest.last() == Some(&b'\n') {
                return Ok(());
            }
            skipped += rest.len() as u64;
            if skipped > max_skip {
                return Err(InputError::new(format!(
                    "line {}: no end of line in {skipped} bytes: reading stopped",
                    self.n
                )));
            }
        }
    }

    fn page(&self, line: &[u8], fallback_id: String) -> Page {
        page_of_line(line, fallback_id, self.max)
    }
}

/// The longest line a reader with page limit `max` reads: the escaped
/// HTML (twice `max`: JSON escapes) plus [`LINE_SLACK`].
pub fn line_limit(max: usize) -> u64 {
    (max as u64)
        .saturating_mul(ESCAPE_FACTOR)
        .saturating_add(LINE_SLACK)
}

/// The page of one JSONL line (without its newline), as [`JsonlReader`]
/// reads it: for readers that split lines themselves (a server reading a
/// request body as it arrives). `fallback_id` is the id of a row without
/// `id` and `url`; an `html` over `max` bytes is a `too_large` error page,
/// a line that is not a page object a `json` one.
pub fn page_of_line(line: &[u8], fallback_id: String, max: usize) -> Page {
    {
        let page = match serde_json::from_slice::<JsonlPage>(line) {
            Err(e) => {
                return Page::failed(fallback_id, PageError::new(ErrorKind::Json, e.to_string()));
            }
            Ok(page) => page,
        };
        let id = match page.id {
            Some(serde_json::Value::String(s)) => s,
            Some(v) if !v.is_null() => v.to_string(),
            _ => page.url.clone().unwrap_or(fallback_id),
        };
        let body = match page.html {
            None => Err(PageError::new(
                ErrorKind::Json,
                "row has no \"html\" string",
            )),
            Some(h) if h.len() > max => Err(PageError::too_large(h.len() as u64, max)),
            Some(h) => Ok(h.into_bytes()),
        };
        // The HTML is already Unicode: it is UTF-8 now, whatever it declares.
        Page::from_body(id, body)
            .with_url(page.url)
            .with_charset(Some("utf-8".to_owned()))
    }
}

impl<R: BufRead> Iterator for JsonlReader<R> {
    type Item = Result<Page, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.queued.take() {
            return Some(Err(e));
        }
        if self.done {
            return None;
        }
        loop {
            self.n += 1;
            let n = self.n;
            let fallback_id = format!("{}:{n}", self.name);
            if let Err(e) = read_line(&mut self.r, &mut self.line, self.limit) {
                self.done = true;
                self.queued = Some(InputError::new(format!("line {n}: {e}")));
                let err = PageError::new(ErrorKind::Read, e.to_string());
                return Some(Ok(Page::failed(fallback_id, err)));
            }
            if self.line.is_empty() {
                self.done = true;
                return None;
            }
            if self.line.last() != Some(&b'\n') && self.line.len() as u64 >= self.limit {
                if let Err(e) = self.skip_line(self.max_skip) {
                    self.done = true;
                    return Some(Err(e));
                }
                let err = PageError::new(
                    ErrorKind::TooLarge,
                    format!("line over {} bytes", self.limit),
                );
                return Some(Ok(Page::failed(fallback_id, err)));
            }
            let line = std::mem::take(&mut self.line);
            let trimmed = line.trim_ascii_end();
            if trimmed.is_empty() {
                self.line = line;
                continue;
            }
            let page = self.page(trimmed, fallback_id);
            self.line = line;
            return Some(Ok(page));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, max: usize) -> Vec<Result<Page, InputError>> {
        JsonlReader::new(text.as_bytes(), "f.jsonl", max).collect()
    }

    #[test]
    fn ids_from_id_then_url_then_line() {
        let pages = read(
            "{\"id\":\"one\",\"url\":\"u1\",\"html\":\"<p>a\"}\n\
             \n\
             {\"url\":\"u2\",\"html\":\"<p>b\"}\n\
             {\"id\":7,\"html\":\"\"}\n\
             {\"id\":null,\"html\":\"x\"}\n\
             {not json\n\
             {\"id\":\"nohtml\"}",
            100,
        );
        let pages: Vec<Page> = pages.into_iter().map(Result::unwrap).collect();
        let ids: Vec<&str> = pages.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["one", "u2", "7", "f.jsonl:5", "f.jsonl:6", "nohtml"]);
        assert_eq!(pages[0].url.as_deref(), Some("u1"));
        assert_eq!(pages[0].charset.as_deref(), Some("utf-8"));
        assert_eq!(pages[0].body.as_deref().unwrap(), b"<p>a");
        assert_eq!(pages[4].body.as_ref().unwrap_err().kind, ErrorKind::Json);
        assert_eq!(pages[5].body.as_ref().unwrap_err().kind, ErrorKind::Json);
    }

    #[test]
    fn too_large_html_and_overlong_lines() {
        let long = "x".repeat(40);
        let text =
            format!("{{\"id\":\"a\",\"html\":\"{long}\"}}\n{{\"id\":\"b\",\"html\":\"ok\"}}\n");
        let pages = read(&text, 10);
        assert_eq!(pages.len(), 2);
        let a = pages[0].as_ref().unwrap();
        assert_eq!(a.id, "a");
        assert_eq!(a.body.as_ref().unwrap_err().kind, ErrorKind::TooLarge);
        assert!(pages[1].as_ref().unwrap().body.is_ok());

        // A line over the limit is skipped unread: its id is the line's.
        let mut r = JsonlReader::new(text.as_bytes(), "f", 10);
        r.limit = 30;
        let pages: Vec<Page> = r.map(Result::unwrap).collect();
        assert_eq!(pages[0].id, "f:1");
        assert_eq!(
            pages[0].body.as_ref().unwrap_err().message,
            "line over 30 bytes"
        );
        assert_eq!(pages[1].id, "b");

        // A stream without newlines (a device) ends, it is not read forever.
        let zeros = std::io::BufReader::new(std::io::Read::take(std::io::repeat(0), 1 << 24));
        let mut r = JsonlReader::new(zeros, "z", 10);
        r.limit = 1000;
        r.max_skip = 1 << 20;
        let got: Vec<_> = r.collect();
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0]
                .as_ref()
                .unwrap_err()
                .message
                .contains("reading stopped")
        );
    }
}
