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
//! frames well again (one warning per broken stretch): the garbage a
//! corrupt gzip member inflates to may hold copies of record headers.

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

/// Most of a body's declared length reserved before its bytes are read:
/// a page is read into one buffer of its size (no regrowing and copying
/// as it arrives), and a record declaring 100 GB reserves no more than
/// this (past it the buffer grows as bytes arrive). Above nearly every
/// real HTML page (a few MB at most), small beside a worker's memory.
const BODY_RESERVE: u64 = 8 << 20;

/// Read buffer of a gzip member's inflated stream (one is allocated per
/// member: below glibc's 128 KiB mmap threshold, so that is a cheap
/// malloc, not an mmap and its page faults).
const INFLATE_BUFFER: usize = 64 * 1024;

/// What a record line starts with, for resynchronising.
const WARC_MAGIC: &[u8] = b"WARC/1.";

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
    /// The HTTP status code (None when the status line has none, or one
    /// that is not a status code: see [`RecordHead::status_is_success`]).
    pub http_status: Option<u16>,
    /// Whether the status line has something in the place of the status
    /// code that is not one (three digits): such a response is not a
    /// success.
    pub bad_status: bool,
    /// The HTTP `Content-Encoding`, lower case (None when absent or
    /// `identity`); undone by [`WarcReader::read_body`].
    pub content_encoding: Option<String>,
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

impl RecordHead {
    /// Whether the response is a success (2xx), or says nothing of its
    /// status: what `unchaff batch` keeps without `--all-status`. A status
    /// that is not three digits (`99999999999`) is not a success.
    pub fn status_is_success(&self) -> bool {
        !self.bad_status && self.http_status.is_none_or(|s| (200..300).contains(&s))
    }
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
        encoding: Option<String>,
        capture: Capture,
    },
    /// A head handed out whose body is an error; then the rest of its
    /// block to skip (None: a resynchronisation takes over).
    Failed {
        error: PageError,
        then: Option<(u64, Capture)>,
    },
    /// Bytes of a block to skip before the next record (`rowed`: its
    /// record was handed out with an error body already).
    Skip {
        len: u64,
        capture: Capture,
        rowed: bool,
    },
}

/// What to do before reading the next record.
enum Resync {
    /// Put these bytes back and scan for `WARC/1.`, wherever it starts.
    Scan { back: Vec<u8> },
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
    /// The id of the last record handed out.
    last_id: Option<String>,
    /// The id of the record a broken stretch started in.
    broken_id: Option<String>,
    /// Whether a record has framed well yet.
    framed_any: bool,
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
            last_id: None,
            broken_id: None,
            framed_any: false,
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
                Step::Head(h) => {
                    self.last_id.clone_from(&h.record_id);
                    return Some(Ok(h));
                }
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
        let (len, chunked, encoding, mut capture) =
            match std::mem::replace(&mut self.body, Body::None) {
                Body::None | Body::Skip { .. } => {
                    return Err(PageError::new(ErrorKind::Read, "no WARC record to read"));
                }
                Body::Failed { error, then } => {
                    if let Some((len, capture)) = then {
                        self.body = Body::Skip {
                            len,
                            capture,
                            rowed: true,
                        };
                    }
                    return Err(error);
                }
                Body::Pending {
                    len,
                    chunked,
                    encoding,
                    capture,
                } => (len, chunked, encoding, capture),
            };
        if len > self.max_payload as u64 {
            // Left for the next `next_head` to skip.
            self.body = Body::Skip {
                len,
                capture,
                rowed: true,
            };
            return Err(PageError::too_large(len, self.max_payload));
        }
        // Reserved from the declared length only up to a bound (a record
        // declaring 100 GB would abort the process): past it the buffer
        // grows as bytes come.
        let mut body = Vec::with_capacity(len.min(BODY_RESERVE) as usize);
        let read = read_into(&mut self.src, len, &mut body);
        let fault = match read {
            Err(e) => Fault::Io(e),
            Ok(n) if n < len => Fault::Cut(format!("{n} of {len} payload bytes")),
            Ok(_) => match self.block_end(|| memchr::memmem::find(&body, WARC_MAGIC).is_some()) {
                Ok(()) => {
                    // A record that frames well ends a broken stretch.
                    self.quiet = false;
                    self.framed_any = true;
                    let body = match chunked {
                        true => dechunk(&body).unwrap_or(body),
                        false => body,
                    };
                    return decode_content(encoding.as_deref(), body, self.max_payload);
                }
                Err(f) => f,
            },
        };
        capture.feed(&body);
        // The record's row carries the error: no warning besides.
        Err(self.fault(fault, capture, true).0)
    }

    /// Skips the unread body of the last head; a warning when its block
    /// did not end where it should.
    fn skip_body(&mut self) -> Option<InputError> {
        let (len, capture, rowed) = match std::mem::replace(&mut self.body, Body::None) {
            Body::None | Body::Failed { then: None, .. } => return None,
            Body::Skip {
                len,
                capture,
                rowed,
            } => (len, capture, rowed),
            Body::Pending { len, capture, .. }
            | Body::Failed {
                then: Some((len, capture)),
                ..
            } => (len, capture, false),
        };
        self.skip_block(len, capture, rowed)
    }

    /// Skips `len` bytes of a block and checks that the record ends there
    /// (`rowed`: the record has an error row already, see
    /// [`WarcReader::fault`]).
    fn skip_block(&mut self, len: u64, mut capture: Capture, rowed: bool) -> Option<InputError> {
        let fault = match skip(&mut self.src, len, &mut capture) {
            Err(e) => Fault::Io(e),
            Ok(n) if n < len => Fault::Cut(format!("{n} of {len} block bytes")),
            Ok(_) => match self.block_end(|| capture.started) {
                Ok(()) => {
                    // A record that frames well ends a broken stretch.
                    self.quiet = false;
                    self.framed_any = true;
                    return None;
                }
                Err(f) => f,
            },
        };
        self.fault(fault, capture, rowed).1
    }

    /// A block that could not be read to its end: the error for its row,
    /// and what to do before the next record. A record whose row carries
    /// the error (`rowed`) gets no warning besides: each damaged record is
    /// one error row or one warning, never both. Otherwise a warning,
    /// unless in a broken stretch already.
    fn fault(
        &mut self,
        fault: Fault,
        capture: Capture,
        rowed: bool,
    ) -> (PageError, Option<InputError>) {
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
        self.set_resync(resync);
        self.broken_id = match rowed {
            true => self.last_id.clone(),
            false => None,
        };
        if rowed {
            // The row reports it; what follows is its broken stretch.
            self.quiet = true;
            return (error, None);
        }
        let w = self.warn(format!("record {n}: {}", error.message));
        (error, w)
    }

    /// What to do before the next record, after a fault. In a gzip member
    /// that has inflated into the next member's raw bytes (it was cut
    /// short), the rest of its output is garbage — and garbage that copies
    /// the member's earlier text, its own record header included — so the
    /// next record is the next member's, not a `WARC/1.` found in it.
    fn set_resync(&mut self, r: Resync) {
        let swallowed = self.src.inner.swallowed_next_member();
        self.resync = Some(match (r, swallowed) {
            (Resync::Scan { .. }, true) => Resync::Member,
            (r, _) => r,
        });
    }

    /// Whether `head` is the record a broken stretch started in, read
    /// again from the garbage a corrupt gzip member inflates to (which
    /// copies the member's earlier text): part of the stretch, no row.
    fn is_broken_again(&self, head: &RecordHead) -> bool {
        self.quiet && head.record_id.is_some() && head.record_id == self.broken_id
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
    /// (left unread: [`WarcReader::read_head`] warns and resynchronises)
    /// — unless `holds_a_record` says that the block has a `WARC/1.` in
    /// it: then it is a record cut short that ran into the next one, whose
    /// blank lines these are (a framing fault: resynchronised from that
    /// `WARC/1.`).
    fn block_end(&mut self, holds_a_record: impl FnOnce() -> bool) -> Result<(), Fault> {
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
                if blank >= TRAILER_LINES && !holds_a_record() {
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
            Resync::Scan { back } => {
                self.src.unread(&back);
                // Before any record framed, a plain-looking stream may be a
                // gzip one whose first member's header is damaged: the
                // next member counts as much as the next record.
                let gzip_too = !self.framed_any && self.src.inner.is_plain();
                let pats: &[&[u8]] = match gzip_too {
                    true => &[WARC_MAGIC, GZIP_MAGIC],
                    false => &[WARC_MAGIC],
                };
                match scan_to_any(&mut self.src, pats, self.scan_limit) {
                    Ok((Scan::Found, 1, _)) => {
                        let front = self.src.take_front();
                        self.src.inner.start_members(front);
                        return Ok(true);
                    }
                    Ok((Scan::Found, _, _)) => return Ok(true),
                    Ok((Scan::End, _, _)) => self.next_segment(false).map(|(more, _)| more),
                    Ok((Scan::GaveUp, _, n)) => Err(format!(
                        "no WARC record in the next {n} bytes: reading stopped"
                    )),
                    Err(_) => self.next_segment(true).map(|(more, _)| more),
                }
            }
            Resync::Member => self.next_segment(true).map(|(more, _)| more),
        };
        found.map_err(|why| InputError::new(format!("after record {}: {why}", self.records)))
    }

    /// Moves on to the next gzip member (a plain stream has one segment):
    /// whether there is one, and how many bytes before it were skipped.
    fn next_segment(&mut self, broken: bool) -> Result<(bool, u64), String> {
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
                    Ok((true, 0)) => continue,
                    Ok((true, n)) => Step::Warn(self.warn(format!(
                        "after record {}: {n} bytes between gzip members are not gzip: skipped",
                        self.records
                    ))),
                    Ok((false, _)) => Step::End,
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
            // The next record may start inside the line (junk without a
            // newline before it): scan the line again from its second byte.
            let back = self.line[1..].to_vec();
            self.set_resync(Resync::Scan { back });
            return Step::Warn(self.warn(format!("record {n}: not a WARC record header")));
        }
        let mut head = RecordHead {
            index: n,
            ..RecordHead::default()
        };
        let mut raw = Vec::new();
        let mut kind = String::new();
        let len = match self.read_warc_headers(&mut head, &mut kind, &mut raw) {
            Ok(len) => len,
            Err(Fault::Io(e)) => {
                self.resync = Some(Resync::Member);
                return Step::Warn(self.warn(format!("record {n}: {e}")));
            }
            Err(Fault::Frame(_) | Fault::Cut(_)) if self.is_broken_again(&head) => {
                self.set_resync(Resync::Scan { back: raw });
                return Step::Warn(None);
            }
            Err(Fault::Frame(why)) if kind == "response" && is_http(&head) => {
                // Headers that do not frame (no valid Content-Length,
                // over the limit) of a record that may be a page: its
                // row, with the error; reading goes on from its headers.
                self.set_resync(Resync::Scan { back: raw });
                self.quiet = true;
                self.broken_id.clone_from(&head.record_id);
                self.body = Body::Failed {
                    error: PageError::new(ErrorKind::Framing, why),
                    then: None,
                };
                return Step::Head(head);
            }
            Err(Fault::Frame(why) | Fault::Cut(why)) => {
                self.set_resync(Resync::Scan { back: raw });
                return Step::Warn(self.warn(format!("record {n}: {why}")));
            }
        };
        if self.is_broken_again(&head) || (self.quiet && head.record_id.is_none()) {
            // The broken record again, in the garbage a corrupt gzip
            // member inflates to (copies of its earlier text), or a
            // record without the `WARC-Record-ID` every record has, read
            // in a broken stretch (pieces of headers in that garbage that
            // happen to frame): part of the stretch, no second row, and
            // it does not end the stretch.
            self.set_resync(Resync::Scan { back: raw });
            return Step::Warn(None);
        }
        if kind == "revisit" {
            self.revisits += 1;
        }
        if kind != "response" || !is_http(&head) {
            return match self.skip_block(len, Capture::default(), false) {
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
                    encoding: head.content_encoding.clone(),
                    capture,
                };
                Step::Head(head)
            }
            Http::Other(used) => match self.skip_block(len - used, capture, false) {
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
                // We cannot tell whether it was HTML: it gets a head and
                // an error body.
                let (error, _) = self.fault(fault, capture, true);
                self.broken_id.clone_from(&head.record_id);
                self.body = Body::Failed { error, then: None };
                Step::Head(head)
            }
        }
    }

    /// Reads a record's WARC headers into `head` and its `WARC-Type` (lower
    /// case) into `kind` (their bytes after the first line into `raw`, to
    /// resynchronise in them if they are bad); returns its
    /// `Content-Length`. What was read before a fault stays in `head` and
    /// `kind`.
    fn read_warc_headers(
        &mut self,
        head: &mut RecordHead,
        kind: &mut String,
        raw: &mut Vec<u8>,
    ) -> Result<u64, Fault> {
        let mut length = None;
        loop {
            read_line(&mut self.src, &mut self.line, MAX_HEADER_LINE).map_err(Fault::Io)?;
            raw.extend_from_slice(&self.line);
            if self.line.len() as u64 >= MAX_HEADER_LINE && self.line.last() != Some(&b'\n') {
                return Err(Fault::Frame(format!(
                    "a WARC header line over {MAX_HEADER_LINE} bytes"
                )));
            }
            if self.line.is_empty() || self.line.last() != Some(&b'\n') {
                return Err(Fault::Cut("cut short in its headers".to_owned()));
            }
            if memchr::memmem::find(&self.line, WARC_MAGIC).is_some() {
                // The next record starts here: this one was cut short in
                // its headers (reading goes on from there).
                return Err(Fault::Frame(
                    "cut short in its headers (the next record starts there)".to_owned(),
                ));
            }
            if raw.len() as u64 > MAX_WARC_HEADERS {
                return Err(Fault::Frame(format!(
                    "WARC headers over {MAX_WARC_HEADERS} bytes"
                )));
            }
            let Some((name, value)) = header(&self.line) else {
                if self.line.trim_ascii_end().is_empty() {
                    return length
                        .ok_or_else(|| Fault::Frame("no valid Content-Length".to_owned()));
                }
                continue;
            };
            let bracketed = || value.trim_matches(|c| c == '<' || c == '>').to_owned();
            match name.as_str() {
                "warc-type" => *kind = value.to_ascii_lowercase(),
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

/// Whether a record's target is an `http:` or `https:` URI.
fn is_http(head: &RecordHead) -> bool {
    head.url
        .as_deref()
        .is_some_and(|u| has_scheme(u, "http") || has_scheme(u, "https"))
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

/// Appends up to `len` bytes of `r` to `out`, copied straight from the
/// reader's buffer (`Read::read_to_end` through `take` zeroes the spare
/// capacity and copies through a second buffer); returns how many there
/// were. On an error, what was read stays in `out`.
fn read_into<R: BufRead>(r: &mut R, len: u64, out: &mut Vec<u8>) -> io::Result<u64> {
    let mut left = len;
    while left > 0 {
        let buf = match r.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        let n = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        out.extend_from_slice(&buf[..n]);
        r.consume(n);
        left -= n as u64;
    }
    Ok(len - left)
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
            let code = String::from_utf8_lossy(l)
                .split_ascii_whitespace()
                .nth(1)
                .map(str::to_owned);
            head.http_status = code.as_deref().and_then(status_code);
            head.bad_status = code.is_some() && head.http_status.is_none();
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
            "content-encoding" => {
                let v = value.trim().to_ascii_lowercase();
                head.content_encoding = (!v.is_empty() && v != "identity").then_some(v);
            }
            _ => {}
        }
    }
}

/// An HTTP status code: three digits (RFC 9110), 100 to 999.
fn status_code(s: &str) -> Option<u16> {
    let ok = s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit()) && !s.starts_with('0');
    ok.then(|| s.parse().ok()).flatten()
}

/// Undoes a response's `Content-Encoding` (`head.content_encoding`) on
/// its de-chunked body, within `max` bytes. `gzip` is left to the
/// extractor, which inflates gzip by its magic bytes (and so takes a body
/// an archiver stored decoded, header kept); `deflate` is inflated here
/// (zlib-wrapped as the standard says, or raw as some servers send it);
/// a body that is not encoded after all (starts with markup) is taken as
/// it is; anything else is an `encoding` error.
pub fn decode_content(
    encoding: Option<&str>,
    body: Vec<u8>,
    max: usize,
) -> Result<Vec<u8>, PageError> {
    let plain = |b: &[u8]| b.trim_ascii_start().first() == Some(&b'<');
    let unknown = |what: &str| {
        PageError::new(
            ErrorKind::Encoding,
            format!("HTTP Content-Encoding {what} cannot be undone"),
        )
    };
    match encoding {
        None | Some("gzip" | "x-gzip") => Ok(body),
        Some("deflate") => {
            if let Some(out) = inflate(&body, max, true) {
                return out;
            }
            if plain(&body) {
                return Ok(body);
            }
            inflate(&body, max, false)
                .unwrap_or_else(|| Err(unknown("deflate: the stream is corrupt")))
        }
        Some(other) => match plain(&body) {
            true => Ok(body),
            false => Err(unknown(&format!("{other:?}: not supported"))),
        },
    }
}

/// Inflates a zlib (`zlib`) or raw deflate stream whole, within `max`
/// bytes (a `too_large` error past it); None when it is not one.
fn inflate(body: &[u8], max: usize, zlib: bool) -> Option<Result<Vec<u8>, PageError>> {
    let mut out = Vec::with_capacity(body.len().min(max));
    let limit = (max as u64).saturating_add(1);
    let read = match zlib {
        true => flate2::read::ZlibDecoder::new(body)
            .take(limit)
            .read_to_end(&mut out),
        false => flate2::read::DeflateDecoder::new(body)
            .take(limit)
            .read_to_end(&mut out),
    };
    match read {
        Err(_) => None,
        Ok(_) if out.len() > max => Some(Err(PageError::new(
            ErrorKind::TooLarge,
            format!(
                "page of more than {max} bytes (after Content-Encoding) is over --max-bytes {max}"
            ),
        ))),
        Ok(_) => Some(Ok(out)),
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

    /// What was put back and not read yet, taken out.
    fn take_front(&mut self) -> Vec<u8> {
        let front = self.back.split_off(self.pos.min(self.back.len()));
        self.clear();
        front
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
    Gz(Box<Member<R>>),
    /// Nothing more.
    End,
}

/// A gzip member over the raw stream, its raw bytes watched for the next
/// member's magic, inflated into `buf` (the previous member's buffer, or
/// a new one).
fn member<R: BufRead>(raw: Rewind<R>, buf: Option<Box<[u8]>>) -> Seg<R> {
    let tap = Tap {
        inner: raw,
        // The member's own magic, at its first byte, is not the next one.
        next: Capture::new(GZIP_MAGIC, 1),
    };
    Seg::Gz(Box::new(Member {
        dec: GzDecoder::new(tap),
        buf: buf.unwrap_or_else(|| vec![0; INFLATE_BUFFER].into_boxed_slice()),
        pos: 0,
        end: 0,
    }))
}

/// One gzip member's inflated bytes, buffered. The buffer goes from one
/// member to the next ([`Seg::next_member`]): a `.warc.gz` is a member a
/// record, and a new buffer each (a `BufReader`'s, zeroed before its first
/// fill) cost more than the WARC parsing.
struct Member<R> {
    dec: GzDecoder<Tap<Rewind<R>>>,
    buf: Box<[u8]>,
    /// The unread bytes are `buf[pos..end]`.
    pos: usize,
    end: usize,
}

impl<R: BufRead> Read for Member<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl<R: BufRead> BufRead for Member<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.end {
            self.end = self.dec.read(&mut self.buf)?;
            self.pos = 0;
        }
        Ok(&self.buf[self.pos..self.end])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.end);
    }
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
                true => member(raw, None),
                false => Seg::Plain(raw),
            };
        }
        Ok(())
    }

    /// Moves on to the next gzip member, after this one's end. A member
    /// that does not inflate to a good end (`broken`: a read error in it
    /// already) may have swallowed the start of the next one, which is
    /// then looked for from the first gzip magic in its raw bytes (else
    /// from wherever inflating stopped). Returns whether there is a next
    /// member (never for a plain stream) and how many bytes before it
    /// were skipped; an error when no member is found in `limit` bytes or
    /// after junk.
    fn next_member(&mut self, broken: bool, limit: u64) -> Result<(bool, u64), String> {
        let (mut raw, buf) = match std::mem::replace(self, Seg::End) {
            Seg::Gz(member) => {
                let Member { mut dec, buf, .. } = *member;
                let whole = !broken && io::copy(&mut dec, &mut io::sink()).is_ok();
                let tap = dec.into_inner();
                let mut raw = tap.inner;
                if !whole {
                    raw.unread(&tap.next.take());
                }
                (raw, buf)
            }
            _ => return Ok((false, 0)),
        };
        match scan_to(&mut raw, GZIP_MAGIC, limit) {
            Ok((Scan::Found, n)) => {
                *self = member(raw, Some(buf));
                Ok((true, n))
            }
            Ok((Scan::End, 0)) => Ok((false, 0)),
            Ok((Scan::End, _)) if broken => Ok((false, 0)),
            Ok((Scan::End, n)) => Err(format!("{n} bytes after the last gzip member are not gzip")),
            Ok((Scan::GaveUp, n)) => Err(format!(
                "no gzip member in the next {n} bytes: reading stopped"
            )),
            Err(e) => Err(e.to_string()),
        }
    }
}

impl<R: BufRead> Seg<R> {
    /// Whether the stream is read as plain WARC.
    fn is_plain(&self) -> bool {
        matches!(self, Seg::Plain(_))
    }

    /// A plain stream turns out to be gzip members from here on: `front`
    /// (bytes put back in front of it, starting with a member's magic)
    /// and the rest of the raw stream are read as members.
    fn start_members(&mut self, front: Vec<u8>) {
        if let Seg::Plain(mut raw) = std::mem::replace(self, Seg::End) {
            raw.unread(&front);
            *self = member(raw, None);
        }
    }
}

impl<R> Seg<R> {
    /// Whether this gzip member has read the magic of another member in
    /// its raw bytes: it was cut short and went on inflating the next one.
    fn swallowed_next_member(&self) -> bool {
        match self {
            Seg::Gz(member) => member.dec.get_ref().next.started,
            _ => false,
        }
    }
}

/// A raw stream whose consumed bytes a [`Capture`] sees.
struct Tap<R> {
    inner: R,
    next: Capture,
}

impl<R: BufRead> Read for Tap<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        read_buffered(self, buf)
    }
}

impl<R: BufRead> BufRead for Tap<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        // The bytes consumed are the front of the buffer just filled (no
        // read happens here: the buffer is there).
        if let Ok(buf) = self.inner.fill_buf() {
            let n = n.min(buf.len());
            self.next.feed(&buf[..n]);
        }
        self.inner.consume(n);
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

/// Consumes `r` up to the next `pat` (left unread), wherever it starts.
/// Returns how the scan ended and how many bytes it skipped.
fn scan_to<S: BufRead>(r: &mut Rewind<S>, pat: &[u8], limit: u64) -> io::Result<(Scan, u64)> {
    scan_to_any(r, &[pat], limit).map(|(scan, _, n)| (scan, n))
}

/// Consumes `r` up to the first place one of `pats` starts (left unread).
/// Returns how the scan ended, which pattern it found (its index), and
/// how many bytes it skipped.
fn scan_to_any<S: BufRead>(
    r: &mut Rewind<S>,
    pats: &[&[u8]],
    limit: u64,
) -> io::Result<(Scan, usize, u64)> {
    let longest = pats.iter().map(|p| p.len()).max().unwrap_or(1);
    // The last bytes of the previous buffer (consumed), where a pattern
    // may have started.
    let mut carry: Vec<u8> = Vec::new();
    let mut scanned = 0u64;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok((Scan::End, 0, scanned + carry.len() as u64));
        }
        if !carry.is_empty() {
            // A match that starts in the carried bytes and ends here.
            let mut joined = carry.clone();
            joined.extend_from_slice(&buf[..buf.len().min(longest)]);
            let hit = earliest(&joined, pats).filter(|&(at, _)| at < carry.len());
            if let Some((at, k)) = hit {
                let back = carry[at..].to_vec();
                r.unread(&back);
                return Ok((Scan::Found, k, scanned + at as u64));
            }
            if joined.len() > carry.len() + longest - 1 || buf.len() >= longest {
                // The carried bytes start no match: skipped.
                scanned += carry.len() as u64;
                carry.clear();
            } else {
                // A short buffer: carry it too.
                let more = buf.to_vec();
                r.consume(more.len());
                carry.extend_from_slice(&more);
                let cut = carry.len().saturating_sub(longest - 1);
                scanned += cut as u64;
                carry.drain(..cut);
                if scanned > limit {
                    return Ok((Scan::GaveUp, 0, scanned));
                }
                continue;
            }
        }
        let buf = r.fill_buf()?;
        let len = buf.len();
        if let Some((at, k)) = earliest(buf, pats) {
            r.consume(at);
            return Ok((Scan::Found, k, scanned + at as u64));
        }
        // No whole match: keep the tail, where one may start.
        let keep = len.min(longest - 1);
        carry = buf[len - keep..].to_vec();
        scanned += (len - keep) as u64;
        r.consume(len);
        if scanned > limit {
            return Ok((Scan::GaveUp, 0, scanned));
        }
    }
}

/// Where the first of `pats` starts in `hay`, and which one.
fn earliest(hay: &[u8], pats: &[&[u8]]) -> Option<(usize, usize)> {
    pats.iter()
        .enumerate()
        .filter_map(|(k, p)| memchr::memmem::find(hay, p).map(|at| (at, k)))
        .min()
}

/// The bytes of a stretch of the stream from the first place a pattern
/// starts in it on (at most [`RESYNC_KEEP`]): where to resynchronise if
/// the stretch turns out bad. A block's capture looks for `WARC/1.` (the
/// next record, wherever it starts: a record cut mid-line runs into the
/// next one's first line); a gzip member's raw bytes for the gzip magic
/// after the member's own (a member cut short swallows the start of the
/// next one while it inflates).
struct Capture {
    /// What to look for.
    magic: &'static [u8],
    /// Matches that start before this many bytes fed are not taken.
    skip_before: u64,
    /// Bytes fed so far.
    fed: u64,
    /// Kept bytes (from the first match on).
    bytes: Vec<u8>,
    /// Whether a match was seen.
    started: bool,
    /// Over [`RESYNC_KEEP`]: nothing kept.
    full: bool,
    /// The last bytes seen (fewer than the magic's length), for a match
    /// cut between two reads.
    window: Vec<u8>,
}

impl Default for Capture {
    /// A block's capture: `WARC/1.` from the block's first byte on.
    fn default() -> Capture {
        Capture::new(WARC_MAGIC, 0)
    }
}

impl Capture {
    fn new(magic: &'static [u8], skip_before: u64) -> Capture {
        Capture {
            magic,
            skip_before,
            fed: 0,
            bytes: Vec::new(),
            started: false,
            full: false,
            window: Vec::new(),
        }
    }

    /// Shows the next bytes of the stretch.
    fn feed(&mut self, chunk: &[u8]) {
        if self.full || chunk.is_empty() {
            return;
        }
        let base = self.fed;
        self.fed += chunk.len() as u64;
        if self.started {
            self.keep(chunk);
            return;
        }
        // A match that starts in the window and ends in this chunk.
        let k = chunk.len().min(self.magic.len() - 1);
        let mut edge = std::mem::take(&mut self.window);
        let w = edge.len();
        edge.extend_from_slice(&chunk[..k]);
        let edge_base = base - w as u64;
        if let Some(i) = self.first_match(&edge, edge_base).filter(|&i| i < w) {
            self.started = true;
            self.keep(&edge[i..]);
            self.keep(&chunk[k..]);
            return;
        }
        if let Some(i) = self.first_match(chunk, base) {
            self.started = true;
            self.keep(&chunk[i..]);
            return;
        }
        let keep = self.magic.len() - 1;
        edge.truncate(w);
        edge.extend_from_slice(&chunk[chunk.len().saturating_sub(keep)..]);
        let cut = edge.len().saturating_sub(keep);
        edge.drain(..cut);
        self.window = edge;
    }

    /// Where the magic first starts in `hay` (fed from byte `base` of the
    /// stretch), not before `skip_before`.
    fn first_match(&self, hay: &[u8], base: u64) -> Option<usize> {
        let mut from = 0;
        while let Some(i) = memchr::memmem::find(&hay[from..], self.magic) {
            let at = from + i;
            if base + at as u64 >= self.skip_before {
                return Some(at);
            }
            from = at + 1;
        }
        None
    }

    fn keep(&mut self, bytes: &[u8]) {
        if self.bytes.len() + bytes.len() > RESYNC_KEEP {
            self.full = true;
            self.bytes = Vec::new();
        } else {
            self.bytes.extend_from_slice(bytes);
        }
    }

    /// What to read again: the kept bytes from the first match on, else
    /// the last bytes (a match may start in them and go on after the
    /// stretch), or nothing when over [`RESYNC_KEEP`].
    fn take(self) -> Vec<u8> {
        match (self.started, self.full) {
            (true, false) => self.bytes,
            (true, true) => Vec::new(),
            (false, _) => self.window,
        }
    }

    /// Where to resynchronise after a bad block.
    fn resync(self) -> Resync {
        Resync::Scan { back: self.take() }
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
            want(&["urn:uuid:a!framing", "urn:uuid:b"])
        );
    }

    /// A damaged record is one error row (or, when it has none, one
    /// warning): never both.
    #[test]
    fn a_cut_record_is_one_error_row() {
        let mut w = html_record("a", "<p>a");
        let b = html_record("b", "<p>bbbbbbbbbbbbbbbbbbbbbbbb");
        w.extend_from_slice(&b[..b.len() - 20]);
        let got = records(&w);
        assert_eq!(outline(&got), want(&["urn:uuid:a", "urn:uuid:b!truncated"]));
        let e = got[1].as_ref().unwrap().body.as_ref().unwrap_err();
        assert!(e.message.contains("payload bytes"), "{e:?}");

        // Cut inside the HTTP headers: a head, a truncated body, a warning.
        let mut w = html_record("a", "<p>a");
        let b = html_record("b", "<p>b");
        let at = b.windows(4).position(|x| x == b"HTTP").unwrap() + 10;
        w.extend_from_slice(&b[..at]);
        let got = records(&w);
        assert_eq!(outline(&got), want(&["urn:uuid:a", "urn:uuid:b!truncated"]));
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
                assert_eq!(
                    o.len(),
                    10,
                    "no warning besides: gz {gz} delta {delta}: {o:?}"
                );
            }
        }
    }

    /// Issue 41, defect 4: flipped bits anywhere in a gzip member cost
    /// its record only: every other record whole, once, in order; at most
    /// one item (an error row or a warning) for the damage, and at most
    /// one more row (the damaged record's, whatever its id became).
    #[test]
    fn a_corrupt_gzip_member_costs_its_record_only() {
        let set = damage_set();
        for damaged in [0, 4, 9] {
            let len = gzip(&set[damaged]).len();
            // The header too: the first member's magic damaged makes the
            // stream look plain (the next member is found all the same).
            for pos in 0..len - 8 {
                for mask in [0x01u8, 0x55, 0xff] {
                    let mut w = Vec::new();
                    for (i, r) in set.iter().enumerate() {
                        let mut g = gzip(r);
                        if i == damaged {
                            g[pos] ^= mask;
                        }
                        w.extend(g);
                    }
                    let got = outline(&records(&w));
                    let others: Vec<String> = (0..10)
                        .filter(|&i| i != damaged)
                        .map(|i| format!("urn:uuid:d{i}"))
                        .collect();
                    let kept: Vec<String> =
                        got.iter().filter(|o| others.contains(o)).cloned().collect();
                    let what = format!("d{damaged} byte {pos} ^ {mask:#x}: {got:?}");
                    assert_eq!(kept, others, "{what}");
                    // One report at most (none where the flip does no
                    // harm: a header's flag or time).
                    let reports = got
                        .iter()
                        .filter(|o| o.contains('!') || *o == "warning")
                        .count();
                    assert!(reports <= 1, "{what}");
                    assert!(got.len() <= 11, "{what}");
                }
            }
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

    /// Reads of a byte or a few at a time (a pipe, a slow source) are
    /// scanned within the limit too.
    #[test]
    fn junk_in_tiny_reads_is_scanned_a_bounded_length() {
        let zeros = std::io::BufReader::with_capacity(3, std::io::repeat(0).take(3 << 20));
        let got: Vec<_> = WarcReader::new(zeros).with_scan_limit(1 << 20).collect();
        let last = got.last().unwrap().as_ref().unwrap_err();
        assert!(last.message.contains("reading stopped"), "{got:?}");
    }

    /// The scan finds either pattern wherever it starts, whatever the
    /// size of the reads, and says which and how far it went.
    #[test]
    fn scan_finds_the_first_pattern_across_reads() {
        for cap in 1..=10 {
            for junk in 0..12 {
                for (k, pat) in [WARC_MAGIC, GZIP_MAGIC].iter().enumerate() {
                    let mut bytes = b"WARC/1 WAR \x1f".repeat(2)[..junk].to_vec();
                    bytes.extend_from_slice(pat);
                    bytes.extend_from_slice(b"tail");
                    let inner = std::io::BufReader::with_capacity(cap, &bytes[..]);
                    let mut r = Rewind::new(inner);
                    let (scan, which, n) =
                        scan_to_any(&mut r, &[WARC_MAGIC, GZIP_MAGIC], 1 << 20).unwrap();
                    assert!(matches!(scan, Scan::Found), "cap {cap} junk {junk}");
                    assert_eq!((which, n), (k, junk as u64), "cap {cap} junk {junk}");
                    let mut rest = Vec::new();
                    r.read_to_end(&mut rest).unwrap();
                    assert_eq!(&rest[..pat.len()], *pat, "cap {cap} junk {junk}");
                }
            }
        }
    }

    #[test]
    fn capture_finds_the_magic_across_reads_wherever_it_starts() {
        // Mid-line too: a record cut mid-line runs into the next one.
        let block = b"abc\nxyz WARC/1.0 no\nWARC/1.1\r\nmore";
        for cut in 0..block.len() {
            for cut2 in cut..block.len() {
                let mut c = Capture::default();
                c.feed(&block[..cut]);
                c.feed(&block[cut..cut2]);
                c.feed(&block[cut2..]);
                assert_eq!(
                    c.take(),
                    b"WARC/1.0 no\nWARC/1.1\r\nmore",
                    "cut at {cut} {cut2}"
                );
            }
        }
        let mut c = Capture::default();
        c.feed(b"WARC/1.0\r\n");
        assert!(c.started, "from the block's first byte");
        // A gzip member's own magic is not the next member's.
        let raw = b"\x1f\x8b\x08abc\x1f\x8b\x08def";
        for cut in 0..raw.len() {
            let mut c = Capture::new(GZIP_MAGIC, 1);
            c.feed(&raw[..cut]);
            c.feed(&raw[cut..]);
            assert_eq!(c.take(), b"\x1f\x8b\x08def", "cut at {cut}");
        }
        // No match: the last bytes, in case one starts there.
        let mut c = Capture::default();
        c.feed(b"xxxxxxxxxxWARC/");
        assert_eq!(c.take(), b"xWARC/");
    }

    /// Ten HTML records `d0`..`d9` of different sizes, as a gzip member
    /// each or plain.
    fn damage_set() -> Vec<Vec<u8>> {
        (0..10)
            .map(|i| {
                let words = "words and more words ".repeat(1 + i * 7);
                html_record(&format!("d{i}"), &format!("<p>page {i} {words}"))
            })
            .collect()
    }

    /// Asserts that in what `bytes` gave, every record but `damaged` came
    /// whole, once, in order, and the damage made exactly one item: the
    /// damaged record's error row, or one warning (then its record may
    /// still have come whole: a member cut only in its checksum).
    fn only_the_damaged_one(bytes: &[u8], damaged: usize, what: &str) {
        let got = outline(&records(bytes));
        let own = format!("urn:uuid:d{damaged}");
        let whole: Vec<String> = got
            .iter()
            .filter(|o| !o.contains('!') && *o != "warning" && **o != own)
            .cloned()
            .collect();
        let want: Vec<String> = (0..10)
            .filter(|&i| i != damaged)
            .map(|i| format!("urn:uuid:d{i}"))
            .collect();
        assert_eq!(whole, want, "{what}: {got:?}");
        let errors = got.iter().filter(|o| o.contains('!')).count();
        let warnings = got.iter().filter(|o| *o == "warning").count();
        assert_eq!(
            errors + warnings,
            1,
            "{what}: one item for the damage: {got:?}"
        );
        assert!(
            got.iter()
                .all(|o| !o.contains('!') || o.starts_with(&format!("{own}!"))),
            "{what}: {got:?}"
        );
        assert!(
            got.iter().filter(|o| o.starts_with(&own)).count() <= 1,
            "{what}: {got:?}"
        );
    }

    /// Issue 41, defect 4: a gzip member cut short (by 8, 20 or 100
    /// bytes, or halved) made the reader lose the next member too: the
    /// cut member had inflated into the next one's start, and the scan for
    /// the next member began after it.
    #[test]
    fn a_cut_gzip_member_costs_its_record_only() {
        let set = damage_set();
        for damaged in [0, 4, 8, 9] {
            let len = gzip(&set[damaged]).len();
            // Every cut, from the checksum to the member's header.
            let cuts = (1..len - 10).chain([len / 2, 8, 20, 100]);
            for cut in cuts.filter(|&c| c < len - 10) {
                let mut w = Vec::new();
                for (i, r) in set.iter().enumerate() {
                    let mut g = gzip(r);
                    if i == damaged {
                        g.truncate(len - cut);
                    }
                    w.extend(g);
                }
                only_the_damaged_one(&w, damaged, &format!("member {damaged} cut by {cut}"));
            }
        }
    }

    /// Issue 41, defect 4: a plain record cut anywhere, the next record
    /// appended right after the cut (mid-line), cost the next record too.
    #[test]
    fn a_record_cut_mid_line_costs_itself_only() {
        let set = damage_set();
        for damaged in [0, 4, 9] {
            let r = &set[damaged];
            // Every cut from inside the headers to the block's last byte
            // (a record cut in its trailing blank lines is whole).
            for keep in 12..r.len() - 4 {
                let mut w = Vec::new();
                for (i, r) in set.iter().enumerate() {
                    match i == damaged {
                        true => w.extend_from_slice(&r[..keep]),
                        false => w.extend_from_slice(r),
                    }
                }
                only_the_damaged_one(&w, damaged, &format!("record {damaged} cut at {keep}"));
            }
        }
    }

    /// Issue 41, defect 4: junk not ending in a newline right before a
    /// record hid that record; junk between gzip members gave no warning.
    #[test]
    fn junk_before_a_record_is_one_warning() {
        let set = damage_set();
        for gz in [false, true] {
            for junk in [
                &b"junk without a newline"[..],
                b"junk line\r\n",
                b"\0\x1f\x8bW",
            ] {
                let mut w = Vec::new();
                for (i, r) in set.iter().enumerate() {
                    if i == 5 {
                        w.extend_from_slice(junk);
                    }
                    match gz {
                        true => w.extend(gzip(r)),
                        false => w.extend_from_slice(r),
                    }
                }
                let got = outline(&records(&w));
                let want: Vec<String> = (0..10).map(|i| format!("urn:uuid:d{i}")).collect();
                let rows: Vec<String> = got.iter().filter(|o| *o != "warning").cloned().collect();
                assert_eq!(rows, want, "gz {gz} junk {junk:?}: {got:?}");
                assert_eq!(got.len(), 11, "one warning: gz {gz} junk {junk:?}: {got:?}");
            }
        }
    }

    /// Sets record `i`'s `Content-Length` to `value`.
    fn with_length(record: &[u8], value: &str) -> Vec<u8> {
        let text = String::from_utf8(record.to_vec()).unwrap();
        let at = text.find("Content-Length: ").unwrap() + 16;
        let end = at + text[at..].find('\r').unwrap();
        format!("{}{value}{}", &text[..at], &text[end..]).into_bytes()
    }

    /// A damage done to a record's bytes.
    type Damage<'a> = Box<dyn Fn(&[u8]) -> Vec<u8> + 'a>;

    /// What a record's body should come out as.
    type Want<'a> = Result<&'a [u8], ErrorKind>;

    /// Issue 41, defect 4: a Content-Length that does not parse, or WARC
    /// headers over the limit, gave no row; an HTML response gets one
    /// error row now, any other record one warning.
    #[test]
    fn unframed_headers_are_one_error_row() {
        let set = damage_set();
        let long = format!("X-Pad: {}\r\n", "p".repeat(70 * 1024));
        let many = (0..30_000)
            .map(|i| format!("X-H{i}: v\r\n"))
            .collect::<String>();
        let damages: Vec<(&str, Damage<'_>)> = vec![
            ("-5", Box::new(|r| with_length(r, "-5"))),
            ("0x10", Box::new(|r| with_length(r, "0x10"))),
            (
                "1e23",
                Box::new(|r| with_length(r, "100000000000000000000000")),
            ),
            ("empty", Box::new(|r| with_length(r, ""))),
            (
                "long line",
                Box::new(|r| {
                    String::from_utf8(r.to_vec())
                        .unwrap()
                        .replacen("WARC-Date:", &format!("{long}WARC-Date:"), 1)
                        .into_bytes()
                }),
            ),
            (
                "many lines",
                Box::new(|r| {
                    String::from_utf8(r.to_vec())
                        .unwrap()
                        .replacen("WARC-Date:", &format!("{many}WARC-Date:"), 1)
                        .into_bytes()
                }),
            ),
        ];
        for (name, damage) in &damages {
            for gz in [false, true] {
                let mut w = Vec::new();
                for (i, r) in set.iter().enumerate() {
                    let r = if i == 3 { damage(r) } else { r.clone() };
                    match gz {
                        true => w.extend(gzip(&r)),
                        false => w.extend(r),
                    }
                }
                let got = outline(&records(&w));
                let mut want: Vec<String> = (0..10).map(|i| format!("urn:uuid:d{i}")).collect();
                want[3] = "urn:uuid:d3!framing".to_owned();
                assert_eq!(got, want, "{name} gz {gz}");
            }
            // Not a response: one warning, no row.
            let mut w = warc_record(
                "request",
                "rq",
                "https://example.org/",
                b"GET / HTTP/1.1\r\n\r\n",
            );
            w = damage(&w);
            w.extend_from_slice(&set[0]);
            assert_eq!(
                outline(&records(&w)),
                want(&["warning", "urn:uuid:d0"]),
                "{name}"
            );
        }
    }

    /// Issue 41, defect 3: a record declaring 100 GB made the reader
    /// reserve that much up front (the process aborted). Without a limit
    /// the body grows as bytes come (it is cut short: one row), with one it
    /// is `too_large`; the records after it are read either way.
    #[test]
    fn a_huge_declared_length_allocates_nothing_up_front() {
        let set = damage_set();
        let mut w = with_length(&set[0], "100000000000");
        for r in &set[1..] {
            w.extend_from_slice(r);
        }
        let got = outline(&WarcReader::new(&w[..]).collect::<Vec<_>>());
        let mut want: Vec<String> = (0..10).map(|i| format!("urn:uuid:d{i}")).collect();
        want[0] = "urn:uuid:d0!truncated".to_owned();
        assert_eq!(got, want);
        let got = outline(
            &WarcReader::new(&w[..])
                .with_max_payload(1 << 20)
                .collect::<Vec<_>>(),
        );
        want[0] = "urn:uuid:d0!too_large".to_owned();
        assert_eq!(got, want);
    }

    /// A fuzzing finding (`warc_damage`): a gzip member with two bits
    /// flipped inflates into garbage that copies its record's header, and
    /// a piece of it without a `WARC-Record-ID` happened to frame; that
    /// ended the broken stretch, and the garbage after it made a second
    /// warning for the one damaged member. Built as the fuzz target builds
    /// its WARCs (eight records, a member each, two bit flips in the last).
    #[test]
    fn a_corrupt_members_garbage_is_one_warning() {
        use std::io::Write;
        let record = |i: usize| {
            let body = format!(
                "<html><body><p>page {i} {}</p></body></html>",
                "words of the page ".repeat(1 + i * 5)
            );
            let block = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{body}");
            let r = format!(
                "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:r{i}>\r\n\
                 WARC-Target-URI: https://example.org/{i}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n\
                 Content-Length: {}\r\n\r\n{block}\r\n\r\n",
                block.len()
            );
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(r.as_bytes()).unwrap();
            e.finish().unwrap()
        };
        let mut warc = Vec::new();
        for i in 0..8 {
            let mut m = record(i);
            if i == 7 {
                for amount in [245usize, 109] {
                    let at = (amount * 7919) % m.len();
                    m[at] ^= 0x55 | (amount as u8 & 0x0f);
                }
            }
            warc.extend_from_slice(&m);
        }
        let got = outline(&records(&warc));
        let mut want: Vec<String> = (0..7).map(|i| format!("urn:uuid:r{i}")).collect();
        want.push("warning".to_owned());
        assert_eq!(got, want);
    }

    /// Issue 41, defect 4: a `Content-Encoding: deflate` payload came out
    /// as compressed bytes; it is inflated now (zlib-wrapped or raw), and
    /// what cannot be undone is an `encoding` error row.
    #[test]
    fn content_encodings_are_undone_or_an_error_row() {
        use std::io::Write;
        let page = b"<html><body><p>deflated page</p></body></html>";
        let zlib = {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(page).unwrap();
            e.finish().unwrap()
        };
        let raw = {
            let mut e =
                flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(page).unwrap();
            e.finish().unwrap()
        };
        let junk = b"\x05\xff\x00\x13 not a stream".to_vec();
        let cases: [(&str, &str, Vec<u8>, Want<'_>); 7] = [
            ("zlib", "deflate", zlib, Ok(page)),
            ("raw", "Deflate", raw, Ok(page)),
            ("stored decoded", "deflate", page.to_vec(), Ok(page)),
            ("corrupt", "deflate", junk.clone(), Err(ErrorKind::Encoding)),
            ("brotli", "br", junk, Err(ErrorKind::Encoding)),
            ("brotli stored decoded", "br", page.to_vec(), Ok(page)),
            ("identity", "identity", page.to_vec(), Ok(page)),
        ];
        for (name, enc, body, want) in cases {
            let headers = format!("Content-Type: text/html\r\nContent-Encoding: {enc}\r\n");
            let w = warc_record(
                "response",
                "e",
                "https://example.org/",
                &http("200 OK", &headers, &body),
            );
            let got = records(&w);
            let r = got[0].as_ref().unwrap();
            match want {
                Ok(p) => assert_eq!(r.body.as_deref().unwrap(), p, "{name}"),
                Err(k) => assert_eq!(r.body.as_ref().unwrap_err().kind, k, "{name}"),
            }
        }
        // Inflating stays within the payload limit.
        let big = {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(&[b'a'; 10_000]).unwrap();
            e.finish().unwrap()
        };
        let headers = "Content-Type: text/html\r\nContent-Encoding: deflate\r\n";
        let w = warc_record(
            "response",
            "e",
            "https://example.org/",
            &http("200 OK", headers, &big),
        );
        let got: Vec<_> = WarcReader::new(&w[..]).with_max_payload(5_000).collect();
        let r = got[0].as_ref().unwrap();
        assert_eq!(r.body.as_ref().unwrap_err().kind, ErrorKind::TooLarge);
    }

    /// Issue 41, defect 4: an HTTP status of `99999999999` did not parse,
    /// counted as no status, and passed the 2xx filter.
    #[test]
    fn a_status_that_is_no_status_code_is_not_a_success() {
        for (status, code, success) in [
            ("200 OK", Some(200), true),
            ("204", Some(204), true),
            ("404 Not Found", Some(404), false),
            ("99999999999 OK", None, false),
            ("2000 OK", None, false),
            ("20x OK", None, false),
            ("-200 OK", None, false),
            ("099 OK", None, false),
        ] {
            let w = warc_record(
                "response",
                "s",
                "https://example.org/",
                &http(status, "Content-Type: text/html\r\n", b"<p>x"),
            );
            let got = records(&w);
            let h = &got[0].as_ref().unwrap().head;
            assert_eq!(h.http_status, code, "{status}");
            assert_eq!(h.status_is_success(), success, "{status}");
        }
        // No status code at all says nothing against the page.
        let w = warc_record(
            "response",
            "s",
            "https://example.org/",
            b"HTTP/1.1\r\nContent-Type: text/html\r\n\r\n<p>x",
        );
        let got = records(&w);
        assert!(got[0].as_ref().unwrap().head.status_is_success());
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
