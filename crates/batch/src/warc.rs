//! A streaming WARC reader: the HTML `response` records of a WARC stream,
//! one at a time, framed by their headers and resynchronised after a bad
//! record.
//!
//! A WARC record is a header block plus `Content-Length` bytes and a blank
//! line; a `.warc.gz` is gzip members one after another (usually one a
//! record). The reader takes the raw stream, recognises gzip by its magic
//! bytes and inflates it member by member. It reads a record's WARC
//! headers, then, for `response` records of an `http(s)` URI only, the
//! HTTP headers within its block, and skips everything else by its
//! `Content-Length` without buffering it and without touching the HTTP
//! parser. The `warc` crate's record iterator reads a record's whole block
//! into memory before the caller sees its headers, so an oversized record
//! would be loaded before it could be refused, and it was measured at about
//! a third of plain gunzip speed (65 against 180 MB/s); this one costs
//! what gunzip costs.
//!
//! Two levels of use: the [`Iterator`] gives [`WarcRecord`]s (head and
//! body); [`WarcReader::next_head`] and [`WarcReader::read_body`] let a
//! caller look at a record's head first and leave its body unread (it is
//! then skipped, not buffered).
//!
//! What gives a record: `WARC-Type: response`, a `WARC-Target-URI` of
//! `http:` or `https:`, and an HTTP `Content-Type` of `text/html` or
//! `application/xhtml+xml`. Everything else (`request`, `warcinfo`,
//! `metadata`, `revisit` — counted, see [`WarcReader::revisits`] — `dns:`
//! and other schemes, images, responses without a Content-Type) is skipped
//! unread.
//!
//! # Broken records
//!
//! Every problem costs at most the record it is in:
//!
//! * An HTTP head over [`MAX_HTTP_HEADERS`], or with a line over
//!   [`MAX_HEADER_LINE`], gives the record's head with a `too_large` body
//!   (one error row); the rest of its block is skipped by its
//!   `Content-Length`.
//! * A block that does not end where its `Content-Length` says (the next
//!   non-blank line is not a `WARC/` line), or that the stream ends inside,
//!   gives a `framing` (wrong length) or `truncated` (cut) body for an HTML
//!   record, an [`InputError`] warning either way, and the reader
//!   resynchronises: on the next line that starts with `WARC/1.` from the
//!   start of the bad record's block (at most [`RESYNC_KEEP`] bytes of a
//!   skipped block are kept for that), and on the next gzip member when a
//!   member is corrupt or ends inside a record. Records read after it are
//!   unaffected.
//! * A stream that is not WARC is one warning; no more than
//!   [`RESYNC_SCAN_LIMIT`] bytes are scanned for a record before the reader
//!   gives up, so a device or a FIFO of junk is not read forever.
//!
//! After a problem, further problems are not warned about until a record
//! header reads well again (one warning per broken stretch).

use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use flate2::bufread::GzDecoder;

use crate::InputError;
use crate::extract::known_charset;
use crate::row::{ErrorKind, PageError};

/// Longest WARC or HTTP header line read; a longer one means the input is
/// not what it claims to be.
pub const MAX_HEADER_LINE: u64 = 64 * 1024;

/// Largest HTTP header block read from a WARC response record.
pub const MAX_HTTP_HEADERS: u64 = 256 * 1024;

/// Largest WARC header block read: real ones are under 2 KiB; a longer one
/// is junk that happens to start with `WARC/`.
pub const MAX_WARC_HEADERS: u64 = 256 * 1024;

/// Most bytes scanned for the next record (a `WARC/1.` line, a gzip
/// member) after a bad one before the reader gives up on the stream: far
/// more than any real damaged stretch, and it bounds the time spent on a
/// device or a FIFO of junk (a second or so at memory speed).
pub const RESYNC_SCAN_LIMIT: u64 = 1 << 30;

/// Most bytes of a skipped block kept, from its first line that starts
/// with `WARC/1.`, in case its `Content-Length` turns out wrong and the
/// reader must resynchronise inside it. Nothing is kept for blocks without
/// such a line (nearly all).
pub const RESYNC_KEEP: usize = 64 << 20;

/// Blank lines accepted between records (the standard has exactly two:
/// `\r\n\r\n`); more, or any other line, means the block before did not
/// end where its `Content-Length` said.
const MAX_BLANK_LINES: usize = 8;

/// Read buffer of a gzip member's inflated stream (one is allocated per
/// member: below glibc's 128 KiB mmap threshold, so that is a cheap
/// malloc, not an mmap and its page faults).
const INFLATE_BUFFER: usize = 64 * 1024;

/// What a record line starts with, for resynchronising.
const WARC_MAGIC: &[u8] = b"WARC/1.";

/// [`WARC_MAGIC`] at a line start.
const LINE_MAGIC: &[u8] = b"\nWARC/1.";

/// The blank lines that end every record (the standard's CRLF CRLF after
/// the block): a block followed by them ended where its `Content-Length`
/// said, whatever comes next.
const TRAILER_LINES: usize = 2;

/// A gzip member header: magic bytes and the deflate method.
const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b, 0x08];

/// What the headers of an HTML response record say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RecordHead {
    /// The record's number in the stream, counting every record from 1.
    pub index: u64,
    /// `WARC-Record-ID`, without the `<>`.
    pub record_id: Option<String>,
    /// `WARC-Target-URI`, without any `<>`.
    pub url: Option<String>,
    /// `WARC-Date`.
    pub date: Option<String>,
    /// The HTTP status code (None when the status line has none).
    pub http_status: Option<u16>,
    /// The HTTP `Content-Type`'s MIME type, lower case.
    pub content_type: Option<String>,
    /// The `charset=` of the HTTP `Content-Type`, when a browser knows the
    /// label (an unknown one is dropped: the page's own evidence decides).
    pub charset: Option<String>,
    /// Whether the HTTP body is chunked (`Transfer-Encoding: chunked`).
    pub chunked: bool,
    /// The bytes of the HTTP body (as stored, before de-chunking).
    pub payload_len: u64,
}

/// One HTML response record.
#[derive(Clone, Debug)]
pub struct WarcRecord {
    /// Its headers.
    pub head: RecordHead,
    /// Its HTTP body, de-chunked; an error when the record is broken
    /// (`truncated`, `framing`) or over a size limit (`too_large`).
    pub body: Result<Vec<u8>, PageError>,
}

/// Where the reader is between [`WarcReader::next_head`] and
/// [`WarcReader::read_body`].
enum Body {
    /// No head handed out (or its body already read).
    None,
    /// A head handed out; its payload is next in the stream.
    Pending {
        len: u64,
        chunked: bool,
        capture: Capture,
    },
    /// A head handed out whose body is an error; then the rest of its
    /// block to skip (None: a resynchronisation takes over).
    Failed {
        error: PageError,
        then: Option<(u64, Capture)>,
    },
    /// Bytes of a block to skip before the next record.
    Skip { len: u64, capture: Capture },
}

/// What to do before reading the next record.
enum Resync {
    /// Put these bytes back and scan for a `WARC/1.` line.
    Scan { back: Vec<u8>, line_start: bool },
    /// The gzip member is corrupt: go on with the next one.
    Member,
}

/// Why a block could not be read to its end.
enum Fault {
    /// The bytes are there but do not frame as a record.
    Frame(String),
    /// The stream ended inside the record.
    Cut(String),
    /// A read error (a corrupt gzip member, a disk error).
    Io(io::Error),
}

/// Reads the HTML response records of one WARC stream, plain or gzip.
pub struct WarcReader<R> {
    src: Rewind<Seg<R>>,
    line: Vec<u8>,
    records: u64,
    body: Body,
    resync: Option<Resync>,
    queued: Option<InputError>,
    /// In a broken stretch: further problems are not warned about.
    quiet: bool,
    done: bool,
    max_payload: usize,
    scan_limit: u64,
    revisits: u64,
}

impl WarcReader<BufReader<std::fs::File>> {
    /// Opens a `.warc` or `.warc.gz` file (gzip is recognised by its magic
    /// bytes).
    pub fn open(path: &Path) -> io::Result<Self> {
        let f = std::fs::File::open(path)?;
        Ok(WarcReader::new(BufReader::with_capacity(INFLATE_BUFFER, f)))
    }
}

impl<R: BufRead> WarcReader<R> {
    /// A reader over a WARC stream as stored: plain, or gzip (one member
    /// per record or one for all; recognised by its magic bytes). No size
    /// limit.
    pub fn new(r: R) -> WarcReader<R> {
        WarcReader {
            src: Rewind::new(Seg::Start(Rewind::new(r))),
            line: Vec::new(),
            records: 0,
            body: Body::None,
            resync: None,
            queued: None,
            quiet: false,
            done: false,
            max_payload: usize::MAX,
            scan_limit: RESYNC_SCAN_LIMIT,
            revisits: 0,
        }
    }

    /// Payloads larger than `max` bytes are skipped unread and their body
    /// is a `too_large` error.
    pub fn with_max_payload(mut self, max: usize) -> WarcReader<R> {
        self.max_payload = max;
        self
    }

    /// Scans at most `limit` bytes for the next record (tests).
    #[cfg(test)]
    fn with_scan_limit(mut self, limit: u64) -> WarcReader<R> {
        self.scan_limit = limit;
        self
    }

    /// `revisit` records seen so far (skipped: they have no payload of
    /// their own).
    pub fn revisits(&self) -> u64 {
        self.revisits
    }

    /// The headers of the next HTML response record, skipping the other
    /// records and whatever of the previous record's body was not read.
    /// None at the end of the stream; an [`InputError`] item for each
    /// broken stretch (reading goes on after it, see the module doc).
    pub fn next_head(&mut self) -> Option<Result<RecordHead, InputError>> {
        if let Some(w) = self.queued.take() {
            return Some(Err(w));
        }
        if self.done {
            return None;
        }
        if let Some(w) = self.skip_body() {
            return Some(Err(w));
        }
        loop {
            match self.read_head() {
                Step::Head(h) => return Some(Ok(h)),
                Step::Warn(w) => match w {
                    Some(w) => return Some(Err(w)),
                    None => continue,
                },
                Step::End => {
                    self.done = true;
                    return self.queued.take().map(Err);
                }
            }
        }
    }

    /// The body of the record whose head [`WarcReader::next_head`] gave
    /// last: its HTTP body, de-chunked when it is chunked (a body that does
    /// not parse as chunks is kept as it is: some archivers store it
    /// de-chunked and keep the header). Call it at most once a head.
    pub fn read_body(&mut self) -> Result<Vec<u8>, PageError> {
        let (len, chunked, mut capture) = match std::mem::replace(&mut self.body, Body::None) {
            Body::None | Body::Skip { .. } => {
                return Err(PageError::new(ErrorKind::Read, "no WARC record to read"));
            }
            Body::Failed { error, then } => {
                if let Some((len, capture)) = then {
                    self.body = Body::Skip { len, capture };
                }
                return Err(error);
            }
            Body::Pending {
                len,
                chunked,
                capture,
            } => (len, chunked, capture),
        };
        if len > self.max_payload as u64 {
            // Left for the next `next_head` to skip.
            self.body = Body::Skip { len, capture };
            return Err(PageError::too_large(len, self.max_payload));
        }
        let mut body = Vec::with_capacity(len as usize);
        let read = (&mut self.src).take(len).read_to_end(&mut body);
        let fault = match read {
            Err(e) => Fault::Io(e),
            Ok(n) if (n as u64) < len => Fault::Cut(format!("{n} of {len} payload bytes")),
            Ok(_) => match self.block_end() {
                Ok(()) if chunked => return Ok(dechunk(&body).unwrap_or(body)),
                Ok(()) => return Ok(body),
                Err(f) => f,
            },
        };
        capture.feed(&body);
        let e = self.fault(fault, capture);
        self.queued = self.queued.take().or(e.1);
        Err(e.0)
    }

    /// Skips the unread body of the last head; a warning when its block
    /// did not end where it should.
    fn skip_body(&mut self) -> Option<InputError> {
        let (len, capture) = match std::mem::replace(&mut self.body, Body::None) {
            Body::None | Body::Failed { then: None, .. } => return None,
            Body::Pending { len, capture, .. }
            | Body::Skip { len, capture }
            | Body::Failed {
                then: Some((len, capture)),
                ..
            } => (len, capture),
        };
        self.skip_block(len, capture)
    }

    /// Skips `len` bytes of a block and checks that the record ends there.
    fn skip_block(&mut self, len: u64, mut capture: Capture) -> Option<InputError> {
        let fault = match skip(&mut self.src, len, &mut capture) {
            Err(e) => Fault::Io(e),
            Ok(n) if n < len => Fault::Cut(format!("{n} of {len} block bytes")),
            Ok(_) => match self.block_end() {
                Ok(()) => return None,
                Err(f) => f,
            },
        };
        self.fault(fault, capture).1
    }

    /// A block that could not be read to its end: the error for its row,
    /// the warning (unless in a broken stretch already), and what to do
    /// before the next record.
    fn fault(&mut self, fault: Fault, capture: Capture) -> (PageError, Option<InputError>) {
        let n = self.records;
        let (error, resync) = match fault {
            Fault::Frame(why) => (PageError::new(ErrorKind::Framing, why), capture.resync()),
            Fault::Cut(why) => (
                PageError::new(ErrorKind::Truncated, format!("record cut short: {why}")),
                capture.resync(),
            ),
            Fault::Io(e) => (
                PageError::new(ErrorKind::Truncated, format!("record cut short: {e}")),
                Resync::Member,
            ),
        };
        self.resync = Some(resync);
        let w = self.warn(format!("record {n}: {}", error.message));
        (error, w)
    }

    /// A warning, unless one was given for this broken stretch already.
    fn warn(&mut self, message: String) -> Option<InputError> {
        if std::mem::replace(&mut self.quiet, true) {
            return None;
        }
        Some(InputError::new(message))
    }

    /// After a block: blank lines, then the next record's `WARC/` line
    /// (left unread) or the end of the stream.
    ///
    /// A block followed by its two blank lines (the standard's CRLF CRLF)
    /// and then something other than a record ended where it said: the
    /// record is good, and what follows is a broken stretch of its own
    /// (left unread: [`WarcReader::read_head`] warns and resynchronises).
    fn block_end(&mut self) -> Result<(), Fault> {
        let mut seen = Vec::new();
        // Every line before this one was blank.
        for blank in 0..=MAX_BLANK_LINES {
            read_line(&mut self.src, &mut self.line, MAX_HEADER_LINE).map_err(Fault::Io)?;
            seen.extend_from_slice(&self.line);
            if self.line.is_empty() {
                return Ok(());
            }
            if self.line.starts_with(b"WARC/") {
                self.src.unread(&self.line);
                return Ok(());
            }
            if !self.line.trim_ascii_end().is_empty() {
                if blank >= TRAILER_LINES {
                    self.src.unread(&self.line);
                    return Ok(());
                }
                break;
            }
        }
        self.src.unread(&seen);
        Err(Fault::Frame(
            "its Content-Length does not end at a record boundary".to_owned(),
        ))
    }

    /// Puts bytes back and finds the next `WARC/1.` line, or the next
    /// segment. False at the end of the stream.
    fn do_resync(&mut self, r: Resync) -> Result<bool, InputError> {
        let found = match r {
            Resync::Scan { back, line_start } => {
                self.src.unread(&back);
                match scan_to(&mut self.src, WARC_MAGIC, true, line_start, self.scan_limit) {
                    Ok((Scan::Found, _)) => return Ok(true),
                    Ok((Scan::End, _)) => self.next_segment(false),
                    Ok((Scan::GaveUp, n)) => Err(format!(
                        "no WARC record in the next {n} bytes: reading stopped"
                    )),
                    Err(_) => self.next_segment(true),
                }
            }
            Resync::Member => self.next_segment(true),
        };
        found.map_err(|why| InputError::new(format!("after record {}: {why}", self.records)))
    }

    /// Moves on to the next gzip member (a plain stream has one segment).
    fn next_segment(&mut self, broken: bool) -> Result<bool, String> {
        self.src.clear();
        self.src.inner.next_member(broken, self.scan_limit)
    }

    /// Reads records up to the next HTML response's head.
    fn read_head(&mut self) -> Step {
        if let Some(r) = self.resync.take() {
            match self.do_resync(r) {
                Ok(true) => {}
                Ok(false) => return Step::End,
                Err(e) => {
                    self.done = true;
                    return Step::Warn(Some(e));
                }
            }
        }
        // Records are separated by blank lines.
        let mut blank = 0u64;
        loop {
            if let Err(e) = read_line(&mut self.src, &mut self.line, MAX_HEADER_LINE) {
                self.resync = Some(Resync::Member);
                return Step::Warn(self.warn(format!("after record {}: {e}", self.records)));
            }
            if self.line.is_empty() {
                return match self.next_segment(false) {
                    Ok(true) => continue,
                    Ok(false) => Step::End,
                    Err(why) => {
                        self.done = true;
                        let e = format!("after record {}: {why}", self.records);
                        Step::Warn(Some(InputError::new(e)))
                    }
                };
            }
            if !self.line.trim_ascii_end().is_empty() {
                break;
            }
            blank += self.line.len() as u64;
            if blank > RESYNC_SCAN_LIMIT {
                self.done = true;
                return Step::Warn(Some(InputError::new("only blank lines: reading stopped")));
            }
        }
        self.records += 1;
        let n = self.records;
        if !self.line.starts_with(b"WARC/") {
            self.resync = Some(Resync::Scan {
                back: Vec::new(),
                line_start: self.line.ends_with(b"\n"),
            });
            return Step::Warn(self.warn(format!("record {n}: not a WARC record header")));
        }
        let mut head = RecordHead {
            index: n,
            ..RecordHead::default()
        };
        let mut raw = Vec::new();
        let (kind, len) = match self.read_warc_headers(&mut head, &mut raw) {
            Ok(x) => x,
            Err(Fault::Io(e)) => {
                self.resync = Some(Resync::Member);
                return Step::Warn(self.warn(format!("record {n}: {e}")));
            }
            Err(Fault::Frame(why) | Fault::Cut(why)) => {
                self.resync = Some(Resync::Scan {
                    back: raw,
                    line_start: true,
                });
                return Step::Warn(self.warn(format!("record {n}: {why}")));
            }
        };
        // A record header read well ends a broken stretch.
        self.quiet = false;
        if kind == "revisit" {
            self.revisits += 1;
        }
        let http = head
            .url
            .as_deref()
            .is_some_and(|u| has_scheme(u, "http") || has_scheme(u, "https"));
        if kind != "response" || !http {
            return match self.skip_block(len, Capture::default()) {
                None => Step::Warn(None),
                w => Step::Warn(w),
            };
        }
        let mut capture = Capture::default();
        let http = read_http_headers(&mut self.src, len, &mut head, &mut capture);
        match http {
            Http::Html(used) => {
                head.payload_len = len - used;
                self.body = Body::Pending {
                    len: len - used,
                    chunked: head.chunked,
                    capture,
                };
                Step::Head(head)
            }
            Http::Other(used) => match self.skip_block(len - used, capture) {
                None => Step::Warn(None),
                w => Step::Warn(w),
            },
            Http::TooLarge(used, why) => {
                self.body = Body::Failed {
                    error: PageError::new(ErrorKind::TooLarge, why),
                    then: Some((len - used, capture)),
                };
                Step::Head(head)
            }
            Http::Broken(fault) => {
                // We cannot tell whether it was HTML: it gets a head, an
                // error body, and a warning.
                let (error, w) = self.fault(fault, capture);
                self.queued = w;
                self.body = Body::Failed { error, then: None };
                Step::Head(head)
            }
        }
    }

    /// Reads a record's WARC headers into `head` (their bytes after the
    /// first line into `raw`, to resynchronise in them if they are bad);
    /// returns its `WARC-Type` (lower case) and `Content-Length`.
    fn read_warc_headers(
        &mut self,
        head: &mut RecordHead,
        raw: &mut Vec<u8>,
    ) -> Result<(String, u64), Fault> {
        let mut kind = String::new();
        let mut length = None;
        loop {
            read_line(&mut self.src, &mut self.line, MAX_HEADER_LINE).map_err(Fault::Io)?;
            raw.extend_from_slice(&self.line);
            if self.line.is_empty() || self.line.last() != Some(&b'\n') {
                return Err(Fault::Cut("cut short in its headers".to_owned()));
            }
            if raw.len() as u64 > MAX_WARC_HEADERS {
                return Err(Fault::Frame(format!(
                    "WARC headers over {MAX_WARC_HEADERS} bytes"
                )));
            }
            let Some((name, value)) = header(&self.line) else {
                if self.line.trim_ascii_end().is_empty() {
                    let len =
                        length.ok_or_else(|| Fault::Frame("no valid Content-Length".to_owned()))?;
                    return Ok((kind, len));
                }
                continue;
            };
            let bracketed = || value.trim_matches(|c| c == '<' || c == '>').to_owned();
            match name.as_str() {
                "warc-type" => kind = value.to_ascii_lowercase(),
                "warc-target-uri" => head.url = Some(bracketed()),
                "warc-record-id" => head.record_id = Some(bracketed()),
                "warc-date" => head.date = Some(value.clone()),
                "content-length" => length = value.parse().ok(),
                _ => {}
            }
        }
    }
}

/// What [`WarcReader::read_head`] found.
enum Step {
    /// An HTML response's head.
    Head(RecordHead),
    /// A record skipped (None) or a problem (a warning).
    Warn(Option<InputError>),
    /// The end of the stream.
    End,
}

impl<R: BufRead> Iterator for WarcReader<R> {
    type Item = Result<WarcRecord, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        let head = match self.next_head()? {
            Ok(h) => h,
            Err(e) => return Some(Err(e)),
        };
        let body = self.read_body();
        Some(Ok(WarcRecord { head, body }))
    }
}

/// Whether a URI has this scheme (`http:`, case-insensitive).
fn has_scheme(uri: &str, scheme: &str) -> bool {
    uri.len() > scheme.len()
        && uri.as_bytes()[scheme.len()] == b':'
        && uri[..scheme.len()].eq_ignore_ascii_case(scheme)
}

/// A header line's name (trimmed, lower case) and value (trimmed); None
/// for a line without a colon (a blank line ends a header block).
fn header(line: &[u8]) -> Option<(String, String)> {
    let l = line.trim_ascii_end();
    let colon = l.iter().position(|&b| b == b':')?;
    let name = String::from_utf8_lossy(&l[..colon])
        .trim()
        .to_ascii_lowercase();
    let value = String::from_utf8_lossy(&l[colon + 1..]).trim().to_owned();
    Some((name, value))
}

/// Reads one line of at most `limit` bytes (the newline included); an empty
/// buffer means end of input.
pub(crate) fn read_line<R: BufRead + ?Sized>(
    r: &mut R,
    buf: &mut Vec<u8>,
    limit: u64,
) -> io::Result<()> {
    buf.clear();
    r.take(limit).read_until(b'\n', buf)?;
    Ok(())
}

/// Reads and discards up to `len` bytes, showing them to `capture`;
/// returns how many there were.
fn skip<R: BufRead>(r: &mut R, len: u64, capture: &mut Capture) -> io::Result<u64> {
    let mut left = len;
    while left > 0 {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let n = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        capture.feed(&buf[..n]);
        r.consume(n);
        left -= n as u64;
    }
    Ok(len - left)
}

/// What the HTTP head of a response record is.
enum Http {
    /// An HTML response; its head took this many bytes of the block.
    Html(u64),
    /// Anything else (not HTML, not HTTP); its head took this many bytes.
    Other(u64),
    /// A head over the limits, after this many bytes: why.
    TooLarge(u64, String),
    /// The block or the stream ended inside the head.
    Broken(Fault),
}

/// Reads the HTTP head of a response record's block of `len` bytes into
/// `head`, showing its bytes to `capture`.
fn read_http_headers<R: BufRead>(
    r: &mut R,
    len: u64,
    head: &mut RecordHead,
    capture: &mut Capture,
) -> Http {
    let mut block = r.take(len);
    let mut line = Vec::new();
    let mut first = true;
    let mut html = false;
    loop {
        if let Err(e) = read_line(&mut block, &mut line, MAX_HEADER_LINE) {
            return Http::Broken(Fault::Io(e));
        }
        capture.feed(&line);
        let used = len - block.limit();
        if line.last() != Some(&b'\n') {
            if line.len() as u64 >= MAX_HEADER_LINE {
                return Http::TooLarge(
                    used,
                    format!("an HTTP header line over {MAX_HEADER_LINE} bytes"),
                );
            }
            if first && line.is_empty() && block.limit() == 0 {
                // An empty block: nothing to extract.
                return Http::Other(used);
            }
            if block.limit() == 0 {
                return Http::Broken(Fault::Frame(format!(
                    "its Content-Length {len} ends inside the HTTP headers"
                )));
            }
            return Http::Broken(Fault::Cut("inside the HTTP headers".to_owned()));
        }
        if used > MAX_HTTP_HEADERS {
            return Http::TooLarge(used, format!("HTTP headers over {MAX_HTTP_HEADERS} bytes"));
        }
        let l = line.trim_ascii_end();
        if l.is_empty() {
            return match html {
                true => Http::Html(used),
                false => Http::Other(used),
            };
        }
        if std::mem::take(&mut first) {
            if !l.starts_with(b"HTTP/") {
                // Not an HTTP response: not ours to parse.
                return Http::Other(used);
            }
            // The status line: `HTTP/1.1 200 OK`.
            head.http_status = String::from_utf8_lossy(l)
                .split_ascii_whitespace()
                .nth(1)
                .and_then(|s| s.parse().ok());
            continue;
        }
        let Some((name, value)) = header(l) else {
            continue;
        };
        match name.as_str() {
            "content-type" => {
                let (mime, charset) = parse_content_type(&value);
                html = matches!(mime.as_str(), "text/html" | "application/xhtml+xml");
                head.content_type = Some(mime);
                head.charset = charset;
            }
            "transfer-encoding" => head.chunked = value.to_ascii_lowercase().contains("chunked"),
            _ => {}
        }
    }
}

/// A reader with bytes put back in front of it.
struct Rewind<R> {
    back: Vec<u8>,
    pos: usize,
    inner: R,
}

impl<R> Rewind<R> {
    fn new(inner: R) -> Rewind<R> {
        Rewind {
            back: Vec::new(),
            pos: 0,
            inner,
        }
    }

    /// Puts bytes back: they are read next, before what was put back
    /// earlier and not read yet.
    fn unread(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let mut v = Vec::with_capacity(bytes.len() + self.back.len() - self.pos);
        v.extend_from_slice(bytes);
        v.extend_from_slice(&self.back[self.pos..]);
        self.back = v;
        self.pos = 0;
    }

    /// Drops what was put back.
    fn clear(&mut self) {
        self.back.clear();
        self.pos = 0;
    }
}

/// `Read::read` for a reader whose `BufRead` side does the work: copies
/// what the buffer holds (filling it first) into `buf`.
fn read_buffered(r: &mut impl BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let avail = r.fill_buf()?;
    let n = avail.len().min(buf.len());
    buf[..n].copy_from_slice(&avail[..n]);
    r.consume(n);
    Ok(n)
}

impl<R: BufRead> Read for Rewind<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl<R: BufRead> BufRead for Rewind<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos < self.back.len() {
            return Ok(&self.back[self.pos..]);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        if self.pos < self.back.len() {
            self.pos += n;
            if self.pos >= self.back.len() {
                self.clear();
            }
        } else {
            self.inner.consume(n);
        }
    }
}

/// The stream, one segment at a time: a plain stream is one segment, a
/// gzip stream one segment a member (reading a segment ends at its end).
enum Seg<R> {
    /// Not looked at yet.
    Start(Rewind<R>),
    /// Plain WARC.
    Plain(Rewind<R>),
    /// A gzip member, inflated.
    Gz(BufReader<GzDecoder<Rewind<R>>>),
    /// Nothing more.
    End,
}

impl<R: BufRead> Seg<R> {
    /// Recognises gzip by its magic bytes.
    fn start(&mut self) -> io::Result<()> {
        if !matches!(self, Seg::Start(_)) {
            return Ok(());
        }
        if let Seg::Start(mut raw) = std::mem::replace(self, Seg::End) {
            let gz = raw.fill_buf()?.starts_with(&GZIP_MAGIC[..2]);
            *self = match gz {
                true => Seg::Gz(BufReader::with_capacity(
                    INFLATE_BUFFER,
                    GzDecoder::new(raw),
                )),
                false => Seg::Plain(raw),
            };
        }
        Ok(())
    }

    /// Moves on to the next gzip member, after this one's end (`broken`:
    /// after a read error in it, so from wherever reading stopped). False
    /// at the end of the stream (and always for a plain stream); an error
    /// when no member is found in `limit` bytes or after junk.
    fn next_member(&mut self, broken: bool, limit: u64) -> Result<bool, String> {
        let mut raw = match std::mem::replace(self, Seg::End) {
            Seg::Gz(member) => {
                // A corrupt member is left wherever inflating stopped: its
                // header is behind, so the next magic starts the next one.
                let mut dec = member.into_inner();
                if !broken {
                    let _ = io::copy(&mut dec, &mut io::sink());
                }
                dec.into_inner()
            }
            _ => return Ok(false),
        };
        match scan_to(&mut raw, GZIP_MAGIC, false, false, limit) {
            Ok((Scan::Found, _)) => {
                *self = Seg::Gz(BufReader::with_capacity(
                    INFLATE_BUFFER,
                    GzDecoder::new(raw),
                ));
                Ok(true)
            }
            Ok((Scan::End, 0)) => Ok(false),
            Ok((Scan::End, _)) if broken => Ok(false),
            Ok((Scan::End, n)) => Err(format!("{n} bytes after the last gzip member are not gzip")),
            Ok((Scan::GaveUp, n)) => Err(format!(
                "no gzip member in the next {n} bytes: reading stopped"
            )),
            Err(e) => Err(e.to_string()),
        }
    }
}

impl<R: BufRead> Read for Seg<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl<R: BufRead> BufRead for Seg<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.start()?;
        match self {
            Seg::Plain(r) => r.fill_buf(),
            Seg::Gz(r) => r.fill_buf(),
            Seg::Start(_) | Seg::End => Ok(&[]),
        }
    }

    fn consume(&mut self, n: usize) {
        match self {
            Seg::Plain(r) => r.consume(n),
            Seg::Gz(r) => r.consume(n),
            Seg::Start(_) | Seg::End => {}
        }
    }
}

/// How a scan ended.
enum Scan {
    /// The pattern is next in the stream.
    Found,
    /// The end of the stream (or segment).
    End,
    /// Not found within the limit.
    GaveUp,
}

/// Consumes `r` up to the next `pat` (left unread), at a line start only
/// when `need_nl` (`prev_nl`: whether the scan starts at one). Returns how
/// the scan ended and how many bytes it skipped.
fn scan_to<S: BufRead>(
    r: &mut Rewind<S>,
    pat: &[u8],
    need_nl: bool,
    mut prev_nl: bool,
    limit: u64,
) -> io::Result<(Scan, u64)> {
    // Bytes of `pat` matched (and consumed) at the end of the last buffer.
    let mut partial = 0usize;
    let mut scanned = 0u64;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok((Scan::End, scanned + partial as u64));
        }
        if partial > 0 {
            let n = (pat.len() - partial).min(buf.len());
            if buf[..n] == pat[partial..partial + n] {
                r.consume(n);
                partial += n;
                if partial == pat.len() {
                    r.unread(pat);
                    return Ok((Scan::Found, scanned));
                }
                continue;
            }
            scanned += partial as u64;
            partial = 0;
            // The byte before is the pattern's last matched one, never a
            // newline.
            prev_nl = false;
        }
        let len = buf.len();
        let mut hit = None;
        let mut from = 0;
        while let Some(k) = buf[from..].iter().position(|&b| b == pat[0]) {
            let j = from + k;
            let nl_ok = !need_nl || if j == 0 { prev_nl } else { buf[j - 1] == b'\n' };
            let avail = (len - j).min(pat.len());
            if nl_ok && buf[j..j + avail] == pat[..avail] {
                hit = Some((j, avail == pat.len()));
                break;
            }
            from = j + 1;
        }
        let last_nl = buf[len - 1] == b'\n';
        match hit {
            Some((j, true)) => {
                r.consume(j);
                return Ok((Scan::Found, scanned + j as u64));
            }
            Some((j, false)) => {
                partial = len - j;
                scanned += j as u64;
            }
            None => {
                prev_nl = last_nl;
                scanned += len as u64;
            }
        }
        r.consume(len);
        if scanned > limit {
            return Ok((Scan::GaveUp, scanned));
        }
    }
}

/// Where `WARC/1.` starts a line in `hay` (`nl`: whether `hay` starts a
/// line). SIMD search: it runs over every skipped byte.
fn find_magic(hay: &[u8], nl: bool) -> Option<usize> {
    if nl && hay.starts_with(WARC_MAGIC) {
        return Some(0);
    }
    memchr::memmem::find(hay, LINE_MAGIC).map(|i| i + 1)
}

/// The bytes of a block from its first line that starts with `WARC/1.` on
/// (at most [`RESYNC_KEEP`]): where to resynchronise if the block turns
/// out not to end where its `Content-Length` says.
#[derive(Default)]
struct Capture {
    /// Kept bytes (from the first `WARC/1.` line on).
    bytes: Vec<u8>,
    /// Whether a `WARC/1.` line was seen.
    started: bool,
    /// Over [`RESYNC_KEEP`]: nothing kept.
    full: bool,
    /// The last bytes seen (fewer than the magic's length), for a magic cut
    /// between two reads.
    window: Vec<u8>,
    /// Whether the byte before `window` is not a newline (false at the
    /// block's start: a block starts a line).
    mid_line: bool,
}

impl Capture {
    /// Shows the next bytes of the block.
    fn feed(&mut self, chunk: &[u8]) {
        if self.full || chunk.is_empty() {
            return;
        }
        if self.started {
            self.keep(chunk);
            return;
        }
        let k = chunk.len().min(WARC_MAGIC.len() - 1);
        let mut edge = self.window.clone();
        edge.extend_from_slice(&chunk[..k]);
        if let Some(i) = find_magic(&edge, !self.mid_line).filter(|&i| i < self.window.len()) {
            self.started = true;
            self.keep(&edge[i..]);
            self.keep(&chunk[k..]);
            return;
        }
        let nl = match self.window.last() {
            Some(&b) => b == b'\n',
            None => !self.mid_line,
        };
        if let Some(i) = find_magic(chunk, nl) {
            self.started = true;
            self.keep(&chunk[i..]);
            return;
        }
        let keep = WARC_MAGIC.len() - 1;
        let mut w = std::mem::take(&mut self.window);
        w.extend_from_slice(&chunk[chunk.len().saturating_sub(keep + 1)..]);
        if w.len() > keep {
            let cut = w.len() - keep;
            self.mid_line = w[cut - 1] != b'\n';
            w.drain(..cut);
        }
        self.window = w;
    }

    fn keep(&mut self, bytes: &[u8]) {
        if self.bytes.len() + bytes.len() > RESYNC_KEEP {
            self.full = true;
            self.bytes = Vec::new();
        } else {
            self.bytes.extend_from_slice(bytes);
        }
    }

    /// Where to resynchronise: from the first `WARC/1.` line of the block,
    /// else from its last bytes (a record line may start in them and go on
    /// after the block), else from where reading is.
    fn resync(self) -> Resync {
        match (self.started, self.full) {
            (true, false) => Resync::Scan {
                back: self.bytes,
                line_start: true,
            },
            (true, true) => Resync::Scan {
                back: Vec::new(),
                line_start: false,
            },
            (false, _) => Resync::Scan {
                back: self.window,
                line_start: !self.mid_line,
            },
        }
    }
}

/// The MIME type (lower case) and a charset label a browser knows (an
/// unknown label is dropped: the page's own evidence decides instead).
pub fn parse_content_type(value: &str) -> (String, Option<String>) {
    let mut parts = value.split(';');
    let mime = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let charset = parts.find_map(|p| {
        let (k, v) = p.split_once('=')?;
        if !k.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let v = v.trim().trim_matches(|c| c == '"' || c == '\'').trim();
        known_charset(v).then(|| v.to_owned())
    });
    (mime, charset)
}

/// Undoes HTTP chunked transfer-encoding; None when the body is not
/// validly chunked (some archivers store it de-chunked but keep the header).
pub fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    let mut rest = body;
    loop {
        let eol = rest.iter().position(|&b| b == b'\n')?;
        let size_line = std::str::from_utf8(&rest[..eol]).ok()?;
        let size_hex = size_line.split(';').next()?.trim();
        let size = usize::from_str_radix(size_hex, 16).ok()?;
        rest = &rest[eol + 1..];
        if size == 0 {
            return Some(out);
        }
        if rest.len() < size {
            return None;
        }
        out.extend_from_slice(&rest[..size]);
        rest = &rest[size..];
        rest = rest
            .strip_prefix(b"\r\n")
            .or_else(|| rest.strip_prefix(b"\n"))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{gzip, html_record, http, warc_record};

    fn records(bytes: &[u8]) -> Vec<Result<WarcRecord, InputError>> {
        WarcReader::new(bytes).collect()
    }

    /// The ids of the rows (records) and the warnings, in order.
    fn outline(got: &[Result<WarcRecord, InputError>]) -> Vec<String> {
        got.iter()
            .map(|r| match r {
                Ok(r) => match &r.body {
                    Ok(_) => r.head.record_id.clone().unwrap_or_default(),
                    Err(e) => format!(
                        "{}!{}",
                        r.head.record_id.clone().unwrap_or_default(),
                        e.kind
                    ),
                },
                Err(_) => "warning".to_owned(),
            })
            .collect()
    }

    /// Ten HTML records `h0`..`h9`.
    fn ten() -> Vec<Vec<u8>> {
        (0..10)
            .map(|i| html_record(&format!("h{i}"), &format!("<p>page {i}")))
            .collect()
    }

    fn want(ids: &[&str]) -> Vec<String> {
        ids.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn html_responses_only_with_their_fields() {
        let mut w = warc_record("warcinfo", "info", "", b"software: test\r\n");
        w.extend(warc_record(
            "request",
            "req",
            "https://example.org/a",
            b"GET /a HTTP/1.1\r\n\r\n",
        ));
        w.extend(warc_record(
            "response",
            "a",
            "<https://example.org/a>",
            &http(
                "404 Not Found",
                "Content-Type: Text/HTML; charset=\"Windows-1251\"\r\n",
                b"<p>a",
            ),
        ));
        w.extend(warc_record(
            "response",
            "png",
            "https://example.org/x.png",
            &http("200 OK", "Content-Type: image/png\r\n", b"\x89PNG"),
        ));
        w.extend(warc_record(
            "response",
            "none",
            "https://example.org/n",
            &http("200 OK", "", b"<p>no content type"),
        ));
        w.extend(warc_record(
            "response",
            "x",
            "HTTP://example.org/x",
            &http(
                "200 OK",
                "Content-Type: application/xhtml+xml; charset=no-such-label\r\n",
                b"<p>x",
            ),
        ));
        let got = records(&w);
        assert_eq!(got.len(), 2, "{got:?}");
        let a = got[0].as_ref().unwrap();
        assert_eq!(a.head.index, 3);
        assert_eq!(a.head.record_id.as_deref(), Some("urn:uuid:a"));
        assert_eq!(a.head.url.as_deref(), Some("https://example.org/a"));
        assert_eq!(a.head.date.as_deref(), Some("2026-01-01T00:00:00Z"));
        assert_eq!(a.head.http_status, Some(404));
        assert_eq!(a.head.content_type.as_deref(), Some("text/html"));
        // The charset of the Content-Type, as written.
        assert_eq!(a.head.charset.as_deref(), Some("Windows-1251"));
        assert_eq!(a.body.as_deref().unwrap(), b"<p>a");
        let x = got[1].as_ref().unwrap();
        assert_eq!(x.head.index, 6);
        // An unknown label is dropped, not an error.
        assert_eq!(x.head.charset, None);
        assert_eq!(x.body.as_deref().unwrap(), b"<p>x");
    }

    #[test]
    fn chunked_bodies_are_dechunked_unless_they_are_not_chunks() {
        let chunked = b"4\r\n<p>W\r\n5;ext=1\r\niki!!\r\n0\r\n\r\n";
        let te = "Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n";
        let u = "http://example.org/";
        let mut w = warc_record("response", "c", u, &http("200 OK", te, chunked));
        w.extend(warc_record(
            "response",
            "d",
            u,
            &http("200 OK", te, b"<p>stored de-chunked"),
        ));
        let got = records(&w);
        assert_eq!(
            got[0].as_ref().unwrap().body.as_deref().unwrap(),
            b"<p>Wiki!!"
        );
        assert_eq!(
            got[1].as_ref().unwrap().body.as_deref().unwrap(),
            b"<p>stored de-chunked"
        );
        assert_eq!(dechunk(b"<html>"), None);
    }

    #[test]
    fn gzip_member_per_record_reads_as_one_stream() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.warc.gz");
        let mut bytes = Vec::new();
        for id in ["a", "b", "c"] {
            bytes.extend(gzip(&html_record(id, &format!("<p>{id}"))));
        }
        std::fs::write(&path, &bytes).unwrap();
        let ids: Vec<String> = WarcReader::open(&path)
            .unwrap()
            .map(|r| r.unwrap().head.record_id.unwrap())
            .collect();
        assert_eq!(ids, ["urn:uuid:a", "urn:uuid:b", "urn:uuid:c"]);
        // One member for all reads the same.
        let mut all = Vec::new();
        for id in ["a", "b", "c"] {
            all.extend(html_record(id, &format!("<p>{id}")));
        }
        let got = records(&gzip(&all));
        assert_eq!(
            outline(&got),
            want(&["urn:uuid:a", "urn:uuid:b", "urn:uuid:c"])
        );
    }

    #[test]
    fn garbage_after_a_whole_record_costs_it_nothing() {
        // The record before the garbage ends with its CRLF CRLF where its
        // Content-Length says: it is read whole; the garbage is one
        // warning; reading goes on with the next record.
        let mut w = html_record("a", "<p>a");
        w.extend_from_slice(b"\x00\x01 not a record at all\r\n\r\n");
        w.extend(html_record("b", "<p>b"));
        assert_eq!(
            outline(&records(&w)),
            want(&["urn:uuid:a", "warning", "urn:uuid:b"])
        );
        // Without its trailer, the record's length is what is wrong: a
        // framing error, and still the next record.
        let mut w = html_record("a", "<p>a");
        w.truncate(w.len() - 4);
        w.extend_from_slice(b"tail of a longer block\r\n\r\n");
        w.extend(html_record("b", "<p>b"));
        assert_eq!(
            outline(&records(&w)),
            want(&["urn:uuid:a!framing", "warning", "urn:uuid:b"])
        );
    }

    #[test]
    fn a_cut_record_is_one_error_body_and_a_warning() {
        let mut w = html_record("a", "<p>a");
        let b = html_record("b", "<p>bbbbbbbbbbbbbbbbbbbbbbbb");
        w.extend_from_slice(&b[..b.len() - 20]);
        let got = records(&w);
        assert_eq!(
            outline(&got),
            want(&["urn:uuid:a", "urn:uuid:b!truncated", "warning"])
        );
        let e = got[1].as_ref().unwrap().body.as_ref().unwrap_err();
        assert!(e.message.contains("payload bytes"), "{e:?}");

        // Cut inside the HTTP headers: a head, a truncated body, a warning.
        let mut w = html_record("a", "<p>a");
        let b = html_record("b", "<p>b");
        let at = b.windows(4).position(|x| x == b"HTTP").unwrap() + 10;
        w.extend_from_slice(&b[..at]);
        let got = records(&w);
        assert_eq!(
            outline(&got),
            want(&["urn:uuid:a", "urn:uuid:b!truncated", "warning"])
        );
    }

    #[test]
    fn oversized_payloads_are_skipped_and_reading_goes_on() {
        let mut w = html_record("big", &"x".repeat(100));
        w.extend(html_record("small", "<p>s"));
        let got: Vec<_> = WarcReader::new(&w[..]).with_max_payload(50).collect();
        let big = got[0].as_ref().unwrap();
        assert_eq!(big.body.as_ref().unwrap_err().kind, ErrorKind::TooLarge);
        assert_eq!(got[1].as_ref().unwrap().body.as_deref().unwrap(), b"<p>s");
    }

    #[test]
    fn heads_alone_skip_unread_bodies() {
        let mut w = html_record("a", "<p>a");
        w.extend(html_record("b", "<p>b"));
        let mut r = WarcReader::new(&w[..]);
        assert_eq!(r.next_head().unwrap().unwrap().payload_len, 4);
        let b = r.next_head().unwrap().unwrap();
        assert_eq!(b.record_id.as_deref(), Some("urn:uuid:b"));
        assert_eq!(r.read_body().unwrap(), b"<p>b");
        assert!(r.read_body().is_err(), "one body a head");
        assert!(r.next_head().is_none());
    }

    #[test]
    fn not_warc_and_bad_framing_are_warnings() {
        let got = records(b"\r\nthis is not a WARC file\n");
        assert_eq!(got.len(), 1);
        assert_eq!(
            got[0].as_ref().unwrap_err().message,
            "record 1: not a WARC record header"
        );
        let mut w = html_record("a", "<p>a");
        w.extend_from_slice(b"WARC/1.1\r\nWARC-Type: response\r\n\r\n");
        let got = records(&w);
        assert!(got[0].is_ok());
        assert_eq!(
            got[1].as_ref().unwrap_err().message,
            "record 2: no valid Content-Length"
        );
        assert_eq!(got.len(), 2);
        // Cut between records: the skipped request's block is short.
        let mut w = html_record("a", "<p>a");
        let req = warc_record("request", "r", "http://x/", &[b'x'; 100]);
        w.extend_from_slice(&req[..req.len() - 50]);
        let got = records(&w);
        assert_eq!(got.len(), 2);
        assert!(
            got[1]
                .as_ref()
                .unwrap_err()
                .message
                .starts_with("record 2: record cut short"),
            "{got:?}"
        );
    }

    /// Issue 19, defect 3: records the reader does not extract are skipped
    /// by their Content-Length, never parsed as HTTP.
    #[test]
    fn dns_and_other_schemes_are_skipped_by_length() {
        let mut w = Vec::new();
        for (i, r) in ten().into_iter().enumerate() {
            if i == 3 {
                // As Heritrix writes it: a response with a dns: URI.
                w.extend(warc_record(
                    "response",
                    "dns",
                    "dns:example.org",
                    b"20260101000000\nexample.org.\t300\tIN\tA\t192.0.2.1\n",
                ));
                w.extend(warc_record(
                    "response",
                    "ftp",
                    "ftp://example.org/f",
                    &http("200 OK", "Content-Type: text/html\r\n", b"<p>ftp"),
                ));
                w.extend(warc_record("revisit", "rv", "https://example.org/", b""));
                w.extend(warc_record(
                    "metadata",
                    "m",
                    "https://example.org/",
                    b"\n\n\n",
                ));
            }
            w.extend(r);
        }
        let mut r = WarcReader::new(&w[..]);
        let got: Vec<_> = r.by_ref().collect();
        let all: Vec<String> = (0..10).map(|i| format!("urn:uuid:h{i}")).collect();
        assert_eq!(outline(&got), all);
        assert_eq!(r.revisits(), 1);
    }

    /// Issue 19, defect 3: an HTTP head too large is one error row, and
    /// reading goes on.
    #[test]
    fn an_http_head_too_large_is_one_error_row() {
        let many: String = (0..12_000)
            .map(|i| format!("X-H{i}: {}\r\n", "v".repeat(20)))
            .collect();
        let long = format!("X-Long: {}\r\n", "y".repeat(70 * 1024));
        for (name, headers) in [("many", many), ("long", long)] {
            let mut w = Vec::new();
            for (i, r) in ten().into_iter().enumerate() {
                if i == 5 {
                    w.extend(warc_record(
                        "response",
                        name,
                        "https://example.org/big",
                        &http("200 OK", &headers, b"<p>hidden"),
                    ));
                }
                w.extend(r);
            }
            let got = records(&w);
            let mut ids: Vec<String> = (0..10).map(|i| format!("urn:uuid:h{i}")).collect();
            ids.insert(5, format!("urn:uuid:{name}!too_large"));
            assert_eq!(outline(&got), ids, "{name}");
        }
    }

    /// A WARC of ten HTML records whose fifth has a Content-Length `delta`
    /// bytes off, plain or a gzip member a record.
    fn wrong_length(delta: i64, gz: bool) -> Vec<u8> {
        let mut w = Vec::new();
        for (i, r) in ten().into_iter().enumerate() {
            let mut r = r;
            if i == 4 {
                let text = String::from_utf8(r).unwrap();
                let at = text.find("Content-Length: ").unwrap() + 16;
                let end = at + text[at..].find('\r').unwrap();
                let n: i64 = text[at..end].parse().unwrap();
                r = format!("{}{}{}", &text[..at], n + delta, &text[end..]).into_bytes();
            }
            w.extend(if gz { gzip(&r) } else { r });
        }
        w
    }

    /// Issue 19, defect 4: a wrong Content-Length costs its record only.
    #[test]
    fn a_wrong_content_length_costs_one_record() {
        for gz in [false, true] {
            for delta in [-3, 5, 300, 5000] {
                let got = records(&wrong_length(delta, gz));
                let o = outline(&got);
                let rows: Vec<&String> = o.iter().filter(|s| *s != "warning").collect();
                assert_eq!(rows.len(), 10, "gz {gz} delta {delta}: {o:?}");
                assert!(
                    rows[4].starts_with("urn:uuid:h4!"),
                    "gz {gz} delta {delta}: {o:?}"
                );
                for (i, id) in rows.iter().enumerate().filter(|&(i, _)| i != 4) {
                    assert_eq!(
                        **id,
                        format!("urn:uuid:h{i}"),
                        "gz {gz} delta {delta}: {o:?}"
                    );
                }
                assert_eq!(o.len(), 11, "one warning: gz {gz} delta {delta}: {o:?}");
            }
        }
    }

    #[test]
    fn a_corrupt_gzip_member_costs_its_record_only() {
        let mut w = Vec::new();
        for (i, r) in ten().into_iter().enumerate() {
            let mut g = gzip(&r);
            if i == 6 {
                let mid = g.len() / 2;
                for b in &mut g[mid..mid + 4] {
                    *b ^= 0x55;
                }
            }
            w.extend(g);
        }
        let got = records(&w);
        let o = outline(&got);
        let rows: Vec<&String> = o.iter().filter(|s| *s != "warning").collect();
        assert!(o.contains(&"warning".to_owned()), "{o:?}");
        for i in (0..10).filter(|&i| i != 6) {
            assert!(rows.contains(&&format!("urn:uuid:h{i}")), "h{i}: {o:?}");
        }
    }

    #[test]
    fn junk_is_scanned_a_bounded_length() {
        let zeros = std::io::BufReader::new(std::io::repeat(0).take(10 << 20));
        let got: Vec<_> = WarcReader::new(zeros).with_scan_limit(1 << 20).collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(
            got[1]
                .as_ref()
                .unwrap_err()
                .message
                .contains("reading stopped"),
            "{got:?}"
        );
    }

    #[test]
    fn capture_finds_a_record_line_across_reads() {
        let block = b"abc\nxyz WARC/1.0 no\nWARC/1.1\r\nmore";
        for cut in 0..block.len() {
            let mut c = Capture::default();
            c.feed(&block[..cut]);
            c.feed(&block[cut..]);
            assert_eq!(c.bytes, b"WARC/1.1\r\nmore", "cut at {cut}");
        }
        let mut c = Capture::default();
        c.feed(b"WARC/1.0\r\n");
        assert!(c.started, "a block's start is a line start");
    }

    #[test]
    fn content_type_charset_known_or_dropped() {
        let (m, c) = parse_content_type("Text/HTML; charset=\"windows-1251\"");
        assert_eq!(m, "text/html");
        assert_eq!(c.as_deref(), Some("windows-1251"));
        let (_, c) = parse_content_type("text/html; charset=no-such-charset");
        assert_eq!(c, None);
    }
}
