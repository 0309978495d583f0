//! `unchaff batch`: extraction over many pages at crawl scale.
//!
//! ```text
//! reader thread ──bounded channel──▶ rayon workers ──channel──▶ writer (reorder buffer)
//! ```
//!
//! One reader thread streams the inputs (directories, `@lists`, WARC,
//! JSONL) one page at a time; the workers extract; the writer puts the rows
//! back in input order and writes them to `FILE.tmp`, renamed to `FILE` at
//! the end. Memory is bounded by [`WINDOW_PER_THREAD`]: the reader may run
//! at most that many pages per thread ahead of the last row written, so the
//! channel and the reorder buffer never hold more pages than that.
//!
//! WARC files are read by a small streaming reader of our own over
//! `flate2`'s `MultiGzDecoder` (gzip members per record are one
//! concatenated stream): the `warc` crate's record iterator buffers each
//! record's whole block before the caller sees its headers, so an oversized
//! record would be loaded before it could be refused, and it was measured at
//! about a third of plain gunzip speed (65 against 180 MB/s). Ours reads a
//! record's headers, skips non-HTML and oversized payloads without
//! buffering them, and otherwise costs what gunzip costs.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use flate2::read::MultiGzDecoder;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use unchaff::Extractor;

use crate::{AlgorithmArgs, CliResult};

/// Pages the reader may run ahead of the writer, per worker thread: enough
/// to keep every worker busy behind one slow page, few enough that the
/// pages in flight stay a few MB per thread for ordinary pages.
pub const WINDOW_PER_THREAD: usize = 16;

/// Longest WARC or HTTP header line read; a longer one means the input is
/// not what it claims to be.
const MAX_HEADER_LINE: u64 = 64 * 1024;

/// Largest HTTP header block read from a WARC response record.
const MAX_HTTP_HEADERS: u64 = 256 * 1024;

/// Rows a Parquet row group holds.
#[cfg(feature = "parquet")]
const PARQUET_ROW_GROUP: usize = 4096;

/// Output formats of `batch`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BatchFormat {
    /// One JSON object a line.
    Jsonl,
    /// Apache Parquet (needs the `parquet` cargo feature).
    Parquet,
}

/// Arguments of `unchaff batch`.
#[derive(Args)]
pub struct BatchArgs {
    /// Inputs: directories (searched for .html, .htm, .html.gz), page files,
    /// .warc / .warc.gz files, .jsonl files of {"url", "html", "id"} rows, or
    /// @LIST (a file naming one input a line).
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// The output file; written as FILE.tmp and renamed when the run ends.
    #[arg(long, short = 'o', value_name = "FILE")]
    out: PathBuf,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value = "jsonl")]
    format: BatchFormat,
    #[command(flatten)]
    alg: AlgorithmArgs,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// Keep the rows of a previous run's FILE.tmp (or FILE), skip their pages, append the rest.
    #[arg(long)]
    resume: bool,
    /// Pages larger than this (bytes, after decompression) become error rows.
    #[arg(long, default_value_t = 50_000_000)]
    max_bytes: usize,
    /// A page whose extraction took longer than this (seconds) becomes an
    /// error row. Measured after the fact: a running extraction is not stopped.
    #[arg(long, default_value_t = 60.0)]
    page_timeout: f64,
    /// No progress bar and no summary (warnings about unreadable input still show).
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Why a page has no text.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct PageError {
    /// A short machine-readable kind: read, truncated, too_large, json,
    /// timeout, empty, binary, gzip, charset, extract.
    kind: String,
    /// What happened.
    message: String,
}

impl PageError {
    fn new(kind: &str, message: impl Into<String>) -> PageError {
        PageError {
            kind: kind.to_owned(),
            message: message.into(),
        }
    }
}

/// One output row.
#[derive(Debug, Serialize, Deserialize)]
struct Row {
    id: String,
    url: Option<String>,
    title: Option<String>,
    text: Option<String>,
    algorithm: String,
    charset: Option<String>,
    error: Option<PageError>,
}

/// One page from the reader.
struct Item {
    seq: u64,
    id: String,
    url: Option<String>,
    charset: Option<String>,
    body: Result<Vec<u8>, PageError>,
}

/// One input file, by kind.
#[derive(Debug)]
enum Source {
    Html(PathBuf),
    Warc(PathBuf),
    Jsonl(PathBuf),
}

impl Source {
    fn path(&self) -> &Path {
        match self {
            Source::Html(p) | Source::Warc(p) | Source::Jsonl(p) => p,
        }
    }
}

fn is_page_file(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.ends_with(".html") || n.ends_with(".htm") || n.ends_with(".html.gz")
}

fn classify(path: PathBuf) -> Source {
    let n = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    if n.ends_with(".warc") || n.ends_with(".warc.gz") {
        Source::Warc(path)
    } else if n.ends_with(".jsonl") || n.ends_with(".jsonl.gz") {
        Source::Jsonl(path)
    } else {
        Source::Html(path)
    }
}

/// Expands the command line into input files, in order: each directory's
/// page files sorted by path, each `@list`'s lines in their order.
fn expand_inputs(args: &[String]) -> Result<Vec<Source>, String> {
    let mut out = Vec::new();
    for a in args {
        if let Some(list) = a.strip_prefix('@') {
            let text = std::fs::read_to_string(list)
                .map_err(|e| format!("cannot read list {list}: {e}"))?;
            for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                expand_path(PathBuf::from(line), &mut out)?;
            }
        } else {
            expand_path(PathBuf::from(a), &mut out)?;
        }
    }
    Ok(out)
}

fn expand_path(p: PathBuf, out: &mut Vec<Source>) -> Result<(), String> {
    let meta = std::fs::metadata(&p).map_err(|e| format!("{}: {e}", p.display()))?;
    if !meta.is_dir() {
        out.push(classify(p));
        return Ok(());
    }
    // An explicit stack, not recursion: directory trees can be deep.
    let mut files = Vec::new();
    let mut stack = vec![p];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
            let path = entry.path();
            let ft = entry
                .file_type()
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if ft.is_dir() {
                stack.push(path);
            } else if is_page_file(&entry.file_name().to_string_lossy()) {
                files.push(path);
            }
        }
    }
    files.sort();
    out.extend(files.into_iter().map(Source::Html));
    Ok(())
}

/// A file page's id: its name without `.html.gz`, `.html` or `.htm`.
fn file_id(p: &Path) -> String {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for ext in [".html.gz", ".html", ".htm", ".gz"] {
        if name.len() > ext.len() && name.to_ascii_lowercase().ends_with(ext) {
            return name[..name.len() - ext.len()].to_owned();
        }
    }
    name
}

/// Counts the bytes read from a file (compressed bytes, for progress and
/// MB/s).
struct Counting<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Opens a file for streaming, gunzipping (all members) if it starts with
/// the gzip magic bytes.
fn open_stream(path: &Path, count: &Arc<AtomicU64>) -> io::Result<Box<dyn BufRead + Send>> {
    let mut f = File::open(path)?;
    let mut magic = [0u8; 2];
    let n = f.read(&mut magic)?;
    f.rewind()?;
    let raw = BufReader::with_capacity(
        256 * 1024,
        Counting {
            inner: f,
            count: Arc::clone(count),
        },
    );
    if n == 2 && magic == [0x1f, 0x8b] {
        Ok(Box::new(BufReader::with_capacity(
            256 * 1024,
            MultiGzDecoder::new(raw),
        )))
    } else {
        Ok(Box::new(raw))
    }
}

/// What the reader hands pages to: skips the ones a resumed run already
/// has, numbers the rest, and waits while the writer is a window behind.
struct Feed {
    skip: HashMap<String, usize>,
    skipped: u64,
    next_seq: u64,
    window: u64,
    written: Arc<(Mutex<u64>, Condvar)>,
    tx: SyncSender<Item>,
}

impl Feed {
    /// Whether a page with this id is to be read (false: a resumed run's
    /// output already has it).
    fn wants(&mut self, id: &str) -> bool {
        match self.skip.get_mut(id) {
            Some(n) if *n > 0 => {
                *n -= 1;
                self.skipped += 1;
                false
            }
            _ => true,
        }
    }

    /// Sends a page on; false when the pipeline has stopped.
    fn send(
        &mut self,
        id: String,
        url: Option<String>,
        charset: Option<String>,
        body: Result<Vec<u8>, PageError>,
    ) -> bool {
        let seq = self.next_seq;
        self.next_seq += 1;
        {
            let (lock, cv) = &*self.written;
            let mut written = lock.lock().unwrap_or_else(|e| e.into_inner());
            while seq >= *written + self.window {
                written = cv.wait(written).unwrap_or_else(|e| e.into_inner());
            }
        }
        self.tx
            .send(Item {
                seq,
                id,
                url,
                charset,
                body,
            })
            .is_ok()
    }
}

/// Reads every source into the feed; returns warnings about input that
/// could not be read (a file that cannot be opened, a WARC cut short
/// between records).
fn read_sources(
    sources: &[Source],
    feed: &mut Feed,
    max: usize,
    count: &Arc<AtomicU64>,
) -> Vec<String> {
    let mut warnings = Vec::new();
    for src in sources {
        let r = match src {
            Source::Html(p) => read_html_file(p, feed, max, count),
            Source::Warc(p) => read_warc(p, feed, max, count),
            Source::Jsonl(p) => read_jsonl(p, feed, max, count),
        };
        match r {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => warnings.push(format!("{}: {e}", src.path().display())),
        }
    }
    warnings
}

/// Ok(false): the pipeline stopped. Err: a file-level problem (no page lost).
type ReadResult = Result<bool, String>;

fn read_html_file(p: &Path, feed: &mut Feed, max: usize, count: &Arc<AtomicU64>) -> ReadResult {
    let id = file_id(p);
    if !feed.wants(&id) {
        if let Ok(m) = std::fs::metadata(p) {
            count.fetch_add(m.len(), Ordering::Relaxed);
        }
        return Ok(true);
    }
    let body = match std::fs::metadata(p) {
        Err(e) => Err(PageError::new("read", e.to_string())),
        Ok(m) if m.len() > max as u64 => {
            count.fetch_add(m.len(), Ordering::Relaxed);
            Err(too_large(m.len(), max))
        }
        Ok(_) => match std::fs::read(p) {
            Ok(b) => {
                count.fetch_add(b.len() as u64, Ordering::Relaxed);
                Ok(b)
            }
            Err(e) => Err(PageError::new("read", e.to_string())),
        },
    };
    Ok(feed.send(id, None, None, body))
}

fn too_large(len: u64, max: usize) -> PageError {
    PageError::new(
        "too_large",
        format!("page of {len} bytes is over --max-bytes {max}"),
    )
}

/// Reads one line of at most `limit` bytes (the newline included); an empty
/// buffer means end of input.
fn read_line(r: &mut dyn BufRead, buf: &mut Vec<u8>, limit: u64) -> io::Result<()> {
    buf.clear();
    r.take(limit).read_until(b'\n', buf)?;
    Ok(())
}

fn trim_line(b: &[u8]) -> &[u8] {
    b.trim_ascii_end()
}

/// The JSONL rows `{"url", "html", "id"?}`.
#[derive(Deserialize)]
struct JsonlPage {
    url: Option<String>,
    html: Option<String>,
    id: Option<serde_json::Value>,
}

fn read_jsonl(p: &Path, feed: &mut Feed, max: usize, count: &Arc<AtomicU64>) -> ReadResult {
    let mut r = open_stream(p, count).map_err(|e| e.to_string())?;
    // JSON escapes can make a page's line longer than its HTML.
    let limit = (max as u64).saturating_mul(2).saturating_add(1 << 20);
    let mut line = Vec::new();
    let mut n = 0u64;
    loop {
        n += 1;
        let fallback_id = format!("{}:{n}", p.display());
        if let Err(e) = read_line(&mut r, &mut line, limit) {
            return if feed.send(
                fallback_id,
                None,
                None,
                Err(PageError::new("read", e.to_string())),
            ) {
                Err(format!("line {n}: {e}"))
            } else {
                Ok(false)
            };
        }
        if line.is_empty() {
            return Ok(true);
        }
        if line.last() != Some(&b'\n') && line.len() as u64 >= limit {
            // Skip the rest of an overlong line.
            let mut rest = Vec::new();
            loop {
                read_line(&mut r, &mut rest, limit).map_err(|e| e.to_string())?;
                if rest.is_empty() || rest.last() == Some(&b'\n') {
                    break;
                }
            }
            if feed.wants(&fallback_id) {
                let err = PageError::new("too_large", format!("line over {limit} bytes"));
                if !feed.send(fallback_id, None, None, Err(err)) {
                    return Ok(false);
                }
            }
            continue;
        }
        if trim_line(&line).is_empty() {
            continue;
        }
        let (id, url, body) = match serde_json::from_slice::<JsonlPage>(trim_line(&line)) {
            Err(e) => (
                fallback_id,
                None,
                Err(PageError::new("json", e.to_string())),
            ),
            Ok(page) => {
                let id = match page.id {
                    Some(serde_json::Value::String(s)) => s,
                    Some(v) if !v.is_null() => v.to_string(),
                    _ => page.url.clone().unwrap_or(fallback_id),
                };
                let body = match page.html {
                    None => Err(PageError::new("json", "row has no \"html\" string")),
                    Some(h) if h.len() > max => Err(too_large(h.len() as u64, max)),
                    Some(h) => Ok(h.into_bytes()),
                };
                (id, page.url, body)
            }
        };
        if !feed.wants(&id) {
            continue;
        }
        // The HTML is already Unicode: it is UTF-8 now, whatever it declares.
        if !feed.send(id, url, Some("utf-8".to_owned()), body) {
            return Ok(false);
        }
    }
}

/// The headers of a WARC record that matter here.
#[derive(Default)]
struct WarcHeaders {
    kind: String,
    uri: Option<String>,
    id: Option<String>,
    length: Option<u64>,
}

fn read_warc(p: &Path, feed: &mut Feed, max: usize, count: &Arc<AtomicU64>) -> ReadResult {
    let mut r = open_stream(p, count).map_err(|e| e.to_string())?;
    let mut line = Vec::new();
    let mut record = 0u64;
    loop {
        // Records are separated by blank lines.
        loop {
            read_line(&mut r, &mut line, MAX_HEADER_LINE).map_err(|e| e.to_string())?;
            if line.is_empty() {
                return Ok(true);
            }
            if !trim_line(&line).is_empty() {
                break;
            }
        }
        record += 1;
        if !line.starts_with(b"WARC/") {
            return Err(format!("record {record}: not a WARC record header"));
        }
        let mut h = WarcHeaders::default();
        loop {
            read_line(&mut r, &mut line, MAX_HEADER_LINE)
                .map_err(|e| format!("record {record}: {e}"))?;
            if line.is_empty() {
                return Err(format!("record {record}: cut short in its headers"));
            }
            let l = trim_line(&line);
            if l.is_empty() {
                break;
            }
            let Some(colon) = l.iter().position(|&b| b == b':') else {
                continue;
            };
            let name = String::from_utf8_lossy(&l[..colon]);
            let value = String::from_utf8_lossy(&l[colon + 1..]).trim().to_owned();
            match name.trim().to_ascii_lowercase().as_str() {
                "warc-type" => h.kind = value.to_ascii_lowercase(),
                "warc-target-uri" => {
                    h.uri = Some(value.trim_matches(|c| c == '<' || c == '>').to_owned())
                }
                "warc-record-id" => {
                    h.id = Some(value.trim_matches(|c| c == '<' || c == '>').to_owned())
                }
                "content-length" => h.length = value.parse().ok(),
                _ => {}
            }
        }
        let Some(len) = h.length else {
            return Err(format!("record {record}: no valid Content-Length"));
        };
        let mut block = (&mut r).take(len);
        if h.kind != "response" {
            skip(&mut block, len).map_err(|e| format!("record {record}: {e}"))?;
            continue;
        }
        let id =
            h.id.clone()
                .unwrap_or_else(|| format!("{}#{record}", p.display()));
        let http = match read_http_headers(&mut block) {
            Ok(x) => x,
            Err(e) => {
                // Cut short inside the HTTP headers: we cannot tell whether
                // it was HTML, so it gets a row.
                let err = PageError::new("truncated", format!("record cut short: {e}"));
                if feed.wants(&id) {
                    feed.send(id, h.uri, None, Err(err));
                }
                return Ok(true);
            }
        };
        if !http.html {
            let left = block.limit();
            skip(&mut block, left).map_err(|e| format!("record {record}: {e}"))?;
            continue;
        }
        if !feed.wants(&id) {
            let left = block.limit();
            skip(&mut block, left).map_err(|e| format!("record {record}: {e}"))?;
            continue;
        }
        let remaining = block.limit();
        if remaining > max as u64 {
            let err = too_large(remaining, max);
            let sent = feed.send(id, h.uri, http.charset, Err(err));
            skip(&mut block, remaining).map_err(|e| format!("record {record}: {e}"))?;
            if !sent {
                return Ok(false);
            }
            continue;
        }
        let mut body = Vec::with_capacity(remaining as usize);
        let got = block.read_to_end(&mut body);
        let body = match got {
            Err(e) => Err(PageError::new(
                "truncated",
                format!("record cut short: {e}"),
            )),
            Ok(n) if (n as u64) < remaining => Err(PageError::new(
                "truncated",
                format!("record cut short: {n} of {remaining} payload bytes"),
            )),
            Ok(_) if http.chunked => Ok(dechunk(&body).unwrap_or(body)),
            Ok(_) => Ok(body),
        };
        let truncated = body.is_err();
        if !feed.send(id, h.uri, http.charset, body) {
            return Ok(false);
        }
        if truncated {
            // Nothing after a cut can be trusted.
            return Ok(true);
        }
    }
}

/// Reads and discards `len` bytes; an error if fewer were there.
fn skip(r: &mut dyn Read, len: u64) -> io::Result<()> {
    let n = io::copy(&mut r.take(len), &mut io::sink())?;
    if n < len {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("cut short: {n} of {len} bytes"),
        ));
    }
    Ok(())
}

/// What the HTTP headers of a response record say.
struct HttpInfo {
    html: bool,
    charset: Option<String>,
    chunked: bool,
}

fn read_http_headers<R: BufRead>(block: &mut io::Take<R>) -> io::Result<HttpInfo> {
    let mut info = HttpInfo {
        html: false,
        charset: None,
        chunked: false,
    };
    let mut line = Vec::new();
    let mut seen = 0u64;
    let mut first = true;
    loop {
        line.clear();
        block.take(MAX_HEADER_LINE).read_until(b'\n', &mut line)?;
        seen += line.len() as u64;
        if line.is_empty() || line.last() != Some(&b'\n') || seen > MAX_HTTP_HEADERS {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "no end to the HTTP headers",
            ));
        }
        let l = trim_line(&line);
        if l.is_empty() {
            return Ok(info);
        }
        if std::mem::take(&mut first) {
            continue; // the status line
        }
        let Some(colon) = l.iter().position(|&b| b == b':') else {
            continue;
        };
        let name = String::from_utf8_lossy(&l[..colon])
            .trim()
            .to_ascii_lowercase();
        let value = String::from_utf8_lossy(&l[colon + 1..]).trim().to_owned();
        match name.as_str() {
            "content-type" => {
                let (mime, charset) = parse_content_type(&value);
                info.html = matches!(mime.as_str(), "text/html" | "application/xhtml+xml");
                info.charset = charset;
            }
            "transfer-encoding" => info.chunked = value.to_ascii_lowercase().contains("chunked"),
            _ => {}
        }
    }
}

/// The MIME type (lower case) and a charset label a browser knows (an
/// unknown label is dropped: the page's own evidence decides instead).
fn parse_content_type(value: &str) -> (String, Option<String>) {
    let mut parts = value.split(';');
    let mime = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let charset = parts.find_map(|p| {
        let (k, v) = p.split_once('=')?;
        if !k.trim().eq_ignore_ascii_case("charset") {
            return None;
        }
        let v = v.trim().trim_matches(|c| c == '"' || c == '\'').trim();
        unchaff::decode::encoding_for_label(v, false).map(|_| v.to_owned())
    });
    (mime, charset)
}

/// Undoes HTTP chunked transfer-encoding; None when the body is not
/// validly chunked (some archivers store it de-chunked but keep the header).
fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
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

/// Extracts one page into a row.
fn process(ex: &Extractor, item: Item, timeout: Duration, algorithm: &str) -> (u64, Row, bool) {
    // Only input that could not be read counts against the run; a page
    // refused by a limit was read well enough to be judged.
    let read_ok = !matches!(&item.body, Err(e) if e.kind == "read" || e.kind == "truncated");
    let mut row = Row {
        id: item.id,
        url: item.url,
        title: None,
        text: None,
        algorithm: algorithm.to_owned(),
        charset: None,
        error: None,
    };
    match item.body {
        Err(e) => row.error = Some(e),
        Ok(bytes) => {
            let start = Instant::now();
            let r = ex.extract(
                unchaff::Input::new(&bytes)
                    .with_url(row.url.as_deref())
                    .with_charset(item.charset.as_deref()),
            );
            let took = start.elapsed();
            match r {
                _ if took > timeout => {
                    row.error = Some(PageError::new(
                        "timeout",
                        format!(
                            "extraction took {:.1} s, over --page-timeout {:.1} s",
                            took.as_secs_f64(),
                            timeout.as_secs_f64()
                        ),
                    ))
                }
                Ok(x) => {
                    row.title = x.title;
                    row.text = Some(x.text);
                    row.charset = Some(x.charset);
                }
                Err(e) => row.error = Some(PageError::new(error_kind(&e), e.to_string())),
            }
        }
    }
    (item.seq, row, read_ok)
}

fn error_kind(e: &unchaff::Error) -> &'static str {
    use unchaff::Error as E;
    match e {
        E::EmptyInput => "empty",
        E::TooLarge { .. } => "too_large",
        E::Binary { .. } => "binary",
        E::Gzip(_) => "gzip",
        E::UnknownCharset(_) => "charset",
        _ => "extract",
    }
}

/// Where rows go.
trait RowSink {
    fn write(&mut self, row: &Row) -> io::Result<()>;
    fn finish(self: Box<Self>) -> io::Result<()>;
}

struct JsonlSink(BufWriter<File>);

impl RowSink for JsonlSink {
    fn write(&mut self, row: &Row) -> io::Result<()> {
        serde_json::to_writer(&mut self.0, row)?;
        self.0.write_all(b"\n")
    }
    fn finish(mut self: Box<Self>) -> io::Result<()> {
        self.0.flush()?;
        self.0.get_ref().sync_all()
    }
}

/// The temporary file beside the output.
fn tmp_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    out.with_file_name(name)
}

/// For `--resume`: moves a finished output back to `.tmp` if there is no
/// `.tmp`, cuts a torn last line, and counts the ids already there.
fn resume_jsonl(out: &Path, tmp: &Path) -> Result<HashMap<String, usize>, String> {
    if !tmp.exists() {
        if out.exists() {
            std::fs::rename(out, tmp).map_err(|e| format!("{}: {e}", out.display()))?;
        } else {
            return Ok(HashMap::new());
        }
    }
    let f = File::open(tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let mut r = BufReader::new(f);
    let mut ids = HashMap::new();
    let mut line = Vec::new();
    let mut good = 0u64;
    loop {
        line.clear();
        let n = r
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("{}: {e}", tmp.display()))?;
        if n == 0 || line.last() != Some(&b'\n') {
            break;
        }
        match serde_json::from_slice::<Row>(&line) {
            Ok(row) => *ids.entry(row.id).or_insert(0) += 1,
            Err(_) => break,
        }
        good += n as u64;
    }
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(tmp)
        .map_err(|e| format!("{}: {e}", tmp.display()))?;
    f.set_len(good)
        .map_err(|e| format!("{}: {e}", tmp.display()))?;
    Ok(ids)
}

/// Runs `unchaff batch`.
pub fn run(a: BatchArgs) -> CliResult {
    let start = Instant::now();
    if a.format == BatchFormat::Parquet && !cfg!(feature = "parquet") {
        return Err(
            "--format parquet needs unchaff built with the `parquet` feature \
                    (cargo install --path crates/cli --features parquet)"
                .into(),
        );
    }
    if a.format == BatchFormat::Parquet && a.resume {
        return Err(
            "--resume works with --format jsonl only (a Parquet file cannot be appended to)".into(),
        );
    }
    let timeout = Duration::try_from_secs_f64(a.page_timeout)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or("--page-timeout must be a positive number of seconds")?;
    // Every record carries the page's metadata.
    let opts = crate::options(&a.alg)
        .with_max_input_bytes(a.max_bytes)
        .with_metadata(true);
    let extractor = Extractor::new(&opts)?;
    let algorithm = extractor.method().name();
    let sources = expand_inputs(&a.inputs)?;
    let total_bytes: u64 = sources
        .iter()
        .filter_map(|s| std::fs::metadata(s.path()).ok())
        .map(|m| m.len())
        .sum();
    let tmp = tmp_path(&a.out);
    let skip = if a.resume {
        resume_jsonl(&a.out, &tmp)?
    } else {
        HashMap::new()
    };
    let mut sink: Box<dyn RowSink> = match a.format {
        BatchFormat::Jsonl => {
            let f = std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .append(a.resume)
                .truncate(!a.resume)
                .open(&tmp)
                .map_err(|e| format!("{}: {e}", tmp.display()))?;
            Box::new(JsonlSink(BufWriter::with_capacity(1 << 20, f)))
        }
        BatchFormat::Parquet => parquet_sink(&tmp)?,
    };

    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let window = (WINDOW_PER_THREAD * threads) as u64;
    let (tx, rx) = sync_channel::<Item>(window as usize);
    let (rtx, rrx) = sync_channel::<(u64, Row, bool)>(window as usize);
    let written = Arc::new((Mutex::new(0u64), Condvar::new()));
    let consumed = Arc::new(AtomicU64::new(0));

    let bar = if !a.quiet && io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(total_bytes);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:30} {bytes}/{total_bytes} read  {msg}  ETA {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };

    let mut stats = Stats::default();
    let (warnings, skipped, write_result) = std::thread::scope(|s| {
        let reader = {
            let written = Arc::clone(&written);
            let consumed = Arc::clone(&consumed);
            let sources = &sources;
            let max = a.max_bytes;
            s.spawn(move || {
                let mut feed = Feed {
                    skip,
                    skipped: 0,
                    next_seq: 0,
                    window,
                    written,
                    tx,
                };
                let w = read_sources(sources, &mut feed, max, &consumed);
                (w, feed.skipped)
            })
        };
        let extractor = &extractor;
        s.spawn(move || work(&pool, rx, rtx, extractor, timeout, algorithm));
        let r = write_in_order(
            &rrx,
            sink.as_mut(),
            &written,
            &mut stats,
            &bar,
            &consumed,
            start,
        );
        if r.is_err() {
            // Let the reader and workers run dry: drop the receiving end.
            drop(rrx);
            let (lock, cv) = &*written;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = u64::MAX / 2;
            cv.notify_all();
        }
        let (w, skipped) = reader
            .join()
            .unwrap_or_else(|_| (vec!["reader thread panicked".into()], 0));
        (w, skipped, r)
    });
    bar.finish_and_clear();
    write_result.map_err(|e| format!("{}: {e}", tmp.display()))?;
    sink.finish()
        .map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;

    let secs = start.elapsed().as_secs_f64().max(1e-9);
    // Input that could not be read is reported even with --quiet.
    for w in &warnings {
        eprintln!("unchaff batch: {w}");
    }
    if !a.quiet {
        let errors: usize = stats.errors.values().sum();
        let kinds: Vec<String> = stats
            .errors
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        eprintln!(
            "unchaff batch: {} pages written ({} errors{}){} in {:.1} s: {:.1} pages/s, {:.1} MB/s of input ({:.1} MB in all)",
            stats.rows,
            errors,
            if kinds.is_empty() {
                String::new()
            } else {
                format!(": {}", kinds.join(", "))
            },
            if skipped > 0 {
                format!(", {skipped} already there (resume)")
            } else {
                String::new()
            },
            secs,
            stats.rows as f64 / secs,
            consumed.load(Ordering::Relaxed) as f64 / 1e6 / secs,
            consumed.load(Ordering::Relaxed) as f64 / 1e6,
        );
    }
    if stats.read_ok == 0 && skipped == 0 {
        let why = warnings.first().cloned().unwrap_or_else(|| {
            if stats.rows == 0 {
                "no pages in the inputs".into()
            } else {
                "every page was unreadable".into()
            }
        });
        return Err(format!("nothing could be read ({why})").into());
    }
    Ok(())
}

#[derive(Default)]
struct Stats {
    rows: u64,
    read_ok: u64,
    errors: BTreeMap<String, usize>,
}

/// The workers: pages from the reader, rows to the writer.
fn work(
    pool: &rayon::ThreadPool,
    rx: Receiver<Item>,
    rtx: SyncSender<(u64, Row, bool)>,
    ex: &Extractor,
    timeout: Duration,
    algorithm: &str,
) {
    pool.install(|| {
        rx.into_iter().par_bridge().for_each_with(rtx, |rtx, item| {
            // A send fails only when the writer has given up.
            let _ = rtx.send(process(ex, item, timeout, algorithm));
        })
    });
}

/// Writes rows in sequence order through a reorder buffer (bounded by the
/// reader's window), telling the reader how far it has got.
fn write_in_order(
    rrx: &Receiver<(u64, Row, bool)>,
    sink: &mut dyn RowSink,
    written: &Arc<(Mutex<u64>, Condvar)>,
    stats: &mut Stats,
    bar: &indicatif::ProgressBar,
    consumed: &AtomicU64,
    start: Instant,
) -> io::Result<()> {
    let mut pending: BTreeMap<u64, (Row, bool)> = BTreeMap::new();
    let mut next = 0u64;
    for (seq, row, read_ok) in rrx.iter() {
        pending.insert(seq, (row, read_ok));
        let before = next;
        while let Some((row, read_ok)) = pending.remove(&next) {
            sink.write(&row)?;
            stats.rows += 1;
            stats.read_ok += read_ok as u64;
            if let Some(e) = &row.error {
                *stats.errors.entry(e.kind.clone()).or_insert(0) += 1;
            }
            next += 1;
        }
        if next != before {
            let (lock, cv) = &**written;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = next;
            cv.notify_all();
            bar.set_position(consumed.load(Ordering::Relaxed));
            bar.set_message(format!(
                "{} pages, {:.0} pages/s",
                stats.rows,
                stats.rows as f64 / start.elapsed().as_secs_f64().max(1e-9)
            ));
        }
    }
    Ok(())
}

#[cfg(not(feature = "parquet"))]
fn parquet_sink(_tmp: &Path) -> Result<Box<dyn RowSink>, String> {
    Err("--format parquet needs the `parquet` feature".into())
}

#[cfg(feature = "parquet")]
fn parquet_sink(tmp: &Path) -> Result<Box<dyn RowSink>, String> {
    let f = File::create(tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    pq::ParquetSink::new(f)
        .map(|s| Box::new(s) as Box<dyn RowSink>)
        .map_err(|e| format!("{}: {e}", tmp.display()))
}

/// Parquet output over the `parquet` crate's column writers (no Arrow):
/// one flat schema, the error as two columns `error_kind`, `error_message`.
#[cfg(feature = "parquet")]
mod pq {
    use std::fs::File;
    use std::io;
    use std::sync::Arc;

    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;

    use super::{PARQUET_ROW_GROUP, Row, RowSink};

    const SCHEMA: &str = "message page {
        required binary id (UTF8);
        optional binary url (UTF8);
        optional binary title (UTF8);
        optional binary text (UTF8);
        required binary algorithm (UTF8);
        optional binary charset (UTF8);
        optional binary error_kind (UTF8);
        optional binary error_message (UTF8);
    }";

    /// Buffers a row group's columns, then writes them.
    pub struct ParquetSink {
        writer: SerializedFileWriter<File>,
        columns: [Vec<Option<String>>; 8],
    }

    fn err(e: parquet::errors::ParquetError) -> io::Error {
        io::Error::other(e.to_string())
    }

    impl ParquetSink {
        pub fn new(f: File) -> io::Result<ParquetSink> {
            let schema = Arc::new(parse_message_type(SCHEMA).map_err(err)?);
            let props = Arc::new(WriterProperties::builder().build());
            Ok(ParquetSink {
                writer: SerializedFileWriter::new(f, schema, props).map_err(err)?,
                columns: Default::default(),
            })
        }

        fn flush_group(&mut self) -> io::Result<()> {
            if self.columns[0].is_empty() {
                return Ok(());
            }
            let mut group = self.writer.next_row_group().map_err(err)?;
            let mut i = 0;
            while let Some(mut col) = group.next_column().map_err(err)? {
                let values = std::mem::take(&mut self.columns[i]);
                let defs: Vec<i16> = values.iter().map(|v| v.is_some() as i16).collect();
                let data: Vec<ByteArray> = values
                    .into_iter()
                    .flatten()
                    .map(|s| ByteArray::from(s.into_bytes()))
                    .collect();
                let required = i == 0 || i == 4;
                col.typed::<ByteArrayType>()
                    .write_batch(&data, (!required).then_some(&defs[..]), None)
                    .map_err(err)?;
                col.close().map_err(err)?;
                i += 1;
            }
            group.close().map_err(err)?;
            Ok(())
        }
    }

    impl RowSink for ParquetSink {
        fn write(&mut self, row: &Row) -> io::Result<()> {
            let values = [
                Some(row.id.clone()),
                row.url.clone(),
                row.title.clone(),
                row.text.clone(),
                Some(row.algorithm.clone()),
                row.charset.clone(),
                row.error.as_ref().map(|e| e.kind.clone()),
                row.error.as_ref().map(|e| e.message.clone()),
            ];
            for (c, v) in self.columns.iter_mut().zip(values) {
                c.push(v);
            }
            if self.columns[0].len() >= PARQUET_ROW_GROUP {
                self.flush_group()?;
            }
            Ok(())
        }

        fn finish(mut self: Box<Self>) -> io::Result<()> {
            self.flush_group()?;
            self.writer.close().map_err(err)?;
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_type_charset_known_or_dropped() {
        let (m, c) = parse_content_type("Text/HTML; charset=\"windows-1251\"");
        assert_eq!(m, "text/html");
        assert_eq!(c.as_deref(), Some("windows-1251"));
        let (_, c) = parse_content_type("text/html; charset=no-such-charset");
        assert_eq!(c, None);
    }

    #[test]
    fn dechunk_two_chunks() {
        // "4\r\nWiki\r\n" + "5\r\npedia\r\n" + "0\r\n\r\n" = "Wikipedia".
        let body = b"4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\n\r\n";
        assert_eq!(dechunk(body).as_deref(), Some(&b"Wikipedia"[..]));
        // Not chunked at all: None, and the caller keeps the body.
        assert_eq!(dechunk(b"<html>"), None);
    }

    #[test]
    fn file_ids_drop_the_page_extensions() {
        assert_eq!(file_id(Path::new("a/b/abc.html.gz")), "abc");
        assert_eq!(file_id(Path::new("x.HTM")), "x");
    }
}
