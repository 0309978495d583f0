//! Inputs: paths to [`Source`]s ([`expand`]), and sources to a stream of
//! [`Page`]s ([`Pages`]), read one at a time.
//!
//! * A directory gives its page files (`.html`, `.htm`, `.html.gz`,
//!   recursively), sorted by path.
//! * `@LIST` gives the inputs its lines name, one a line, in order (blank
//!   lines skipped; relative paths from the current directory).
//! * `.warc` / `.warc.gz` files are read by [`WarcReader`], `.jsonl` /
//!   `.jsonl.gz` files by [`JsonlReader`]; any other file is one page.
//!   Gzip is recognised by its magic bytes.
//! * A page file's id is its name without `.html.gz`, `.html`, `.htm` or
//!   `.gz` ([`file_id`]); a WARC record's is its `WARC-Record-ID`, else
//!   `FILE#RECORD`; a JSONL row's, see [`crate::jsonl`].

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use flate2::read::MultiGzDecoder;

use crate::jsonl::JsonlReader;
use crate::row::{ErrorKind, Page, PageError};
use crate::sink::Resume;
use crate::warc::WarcReader;
use crate::{Error, InputError, Progress};

/// Read buffer of a file and of its gunzipped stream: large enough that a
/// WARC is read in a few system calls per record.
const STREAM_BUFFER: usize = 256 * 1024;

/// The gzip magic bytes.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// One input file, by kind.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Source {
    /// A page file (HTML, possibly gzipped).
    Html(PathBuf),
    /// A WARC file (possibly gzipped, a member per record or one for all).
    Warc(PathBuf),
    /// A JSONL file of `{"url", "html", "id"}` rows (possibly gzipped).
    Jsonl(PathBuf),
}

impl Source {
    /// A file, by its name: `.warc`/`.warc.gz` is WARC, `.jsonl`/`.jsonl.gz`
    /// is JSONL, anything else one page.
    pub fn classify(path: PathBuf) -> Source {
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

    /// The file.
    pub fn path(&self) -> &Path {
        match self {
            Source::Html(p) | Source::Warc(p) | Source::Jsonl(p) => p,
        }
    }
}

/// The bytes on disk of all the sources that can be looked at (for a
/// progress bar's total).
pub fn total_len(sources: &[Source]) -> u64 {
    sources
        .iter()
        .filter_map(|s| std::fs::metadata(s.path()).ok())
        .map(|m| m.len())
        .sum()
}

/// Whether a file in a directory is a page file.
fn is_page_file(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.ends_with(".html") || n.ends_with(".htm") || n.ends_with(".html.gz")
}

/// Expands inputs (paths, directories, `@LIST`s) into input files, in
/// order: each directory's page files sorted by path, each list's lines in
/// their order. What [`expand_with_warnings`] refuses or cannot find is
/// left out without a word.
pub fn expand(args: &[String]) -> Result<Vec<Source>, Error> {
    expand_with_warnings(args).map(|(sources, _)| sources)
}

/// [`expand`], and a warning for each input that cannot be had and each
/// file a directory walk refused. A missing path (an argument, a line of
/// a list, a list itself) or an unreadable directory is a warning, not the
/// end of the run: a stale line in a crawl's list cost every other page
/// (issue 41). A FIFO, a device or a symlink to one is read only when
/// named on its own (as an argument or a list line), never found in a
/// directory, where it could be a trap (a link to `/dev/zero`); a symlink
/// to a directory found in a walk is not followed (it could loop), and
/// says so.
pub fn expand_with_warnings(args: &[String]) -> Result<(Vec<Source>, Vec<InputError>), Error> {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for a in args {
        if let Some(list) = a.strip_prefix('@') {
            let text = match read_list(Path::new(list)) {
                Ok(t) => t,
                Err(e) => {
                    warnings.push(InputError {
                        path: Some(list.into()),
                        message: format!("cannot read the list: {e}"),
                    });
                    continue;
                }
            };
            for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                expand_path(PathBuf::from(line), &mut out, &mut warnings);
            }
        } else {
            expand_path(PathBuf::from(a), &mut out, &mut warnings);
        }
    }
    Ok((out, warnings))
}

/// Longest `@LIST` file read: a list names files, a line each; 1 GiB of
/// names is tens of millions of inputs. A list past it (a device, a
/// mistake) is a warning.
pub const MAX_LIST_BYTES: usize = 1 << 30;

/// A list's text, read within [`MAX_LIST_BYTES`].
fn read_list(p: &Path) -> io::Result<String> {
    let bytes = unchaff::read_file_limited(p, MAX_LIST_BYTES).map_err(|e| match e {
        unchaff::ReadError::Io(e) => e,
        other => io::Error::other(other.to_string()),
    })?;
    String::from_utf8(bytes).map_err(|_| io::Error::other("not UTF-8 text"))
}

/// A warning about `path`.
fn warning(path: &Path, message: impl Into<String>) -> InputError {
    InputError {
        path: Some(path.to_path_buf()),
        message: message.into(),
    }
}

fn expand_path(p: PathBuf, out: &mut Vec<Source>, warnings: &mut Vec<InputError>) {
    let meta = match std::fs::metadata(&p) {
        Ok(m) => m,
        Err(e) => {
            warnings.push(warning(&p, e.to_string()));
            return;
        }
    };
    if !meta.is_dir() {
        out.push(Source::classify(p));
        return;
    }
    // An explicit stack, not recursion: directory trees can be deep.
    let mut files = Vec::new();
    let mut stack = vec![p];
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                warnings.push(warning(&dir, e.to_string()));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    warnings.push(warning(&dir, e.to_string()));
                    continue;
                }
            };
            let path = entry.path();
            let ft = match entry.file_type() {
                Ok(t) => t,
                Err(e) => {
                    warnings.push(warning(&path, e.to_string()));
                    continue;
                }
            };
            if ft.is_dir() {
                stack.push(path);
            } else if ft.is_symlink() && std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
                warnings.push(warning(
                    &path,
                    "a symlink to a directory: not followed (it could loop); name it on its \
                     own to read it",
                ));
            } else if is_page_file(&entry.file_name().to_string_lossy()) {
                // Follows a symlink: what counts is what would be read.
                match std::fs::metadata(&path) {
                    Ok(m) if m.is_file() => files.push(path),
                    Ok(_) => warnings.push(InputError {
                        path: Some(path),
                        message: "not a regular file (a FIFO, a device or a link to one): \
                                  skipped; name it on its own to read it"
                            .to_owned(),
                    }),
                    Err(e) => warnings.push(InputError {
                        path: Some(path),
                        message: e.to_string(),
                    }),
                }
            }
        }
    }
    files.sort();
    out.extend(files.into_iter().map(Source::Html));
}

/// A page file's id: its name without `.html.gz`, `.html`, `.htm` or `.gz`.
pub fn file_id(p: &Path) -> String {
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
    progress: Arc<Progress>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.add_bytes(n as u64);
        Ok(n)
    }
}

/// Opens a file for streaming, gunzipping (all members) if it starts with
/// the gzip magic bytes.
pub fn open(path: &Path) -> io::Result<Box<dyn BufRead + Send>> {
    open_counted(path, &Arc::new(Progress::default()))
}

/// Opens a file as stored (no gunzipping), counting its bytes.
fn open_raw_counted(path: &Path, progress: &Arc<Progress>) -> io::Result<Box<dyn BufRead + Send>> {
    let f = File::open(path)?;
    Ok(Box::new(BufReader::with_capacity(
        STREAM_BUFFER,
        Counting {
            inner: f,
            progress: Arc::clone(progress),
        },
    )))
}

/// Opens a file, gunzipping it if it starts with the gzip magic bytes
/// (looked at in the read buffer, so a FIFO works too).
fn open_counted(path: &Path, progress: &Arc<Progress>) -> io::Result<Box<dyn BufRead + Send>> {
    let mut raw = open_raw_counted(path, progress)?;
    if raw.fill_buf()?.starts_with(&GZIP_MAGIC) {
        Ok(Box::new(BufReader::with_capacity(
            STREAM_BUFFER,
            MultiGzDecoder::new(raw),
        )))
    } else {
        Ok(Box::new(raw))
    }
}

/// The file being streamed.
enum Current {
    Warc(PathBuf, Box<WarcReader<Box<dyn BufRead + Send>>>),
    Jsonl(PathBuf, JsonlReader<Box<dyn BufRead + Send>>),
}

/// Which part of the inputs a run takes: shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u64,
    /// How many shards there are (at least 1).
    pub count: u64,
}

impl Shard {
    /// Whether the page of this unit number is this shard's.
    fn takes(self, unit: u64) -> bool {
        unit % self.count.max(1) == self.index
    }
}

/// The pages of a list of sources, read one at a time, in order: an
/// iterator of pages (a page whose bytes could not be had carries its
/// error, and becomes an error row) and of [`InputError`] warnings (an
/// input that could not be read, or a stretch of one that could not be
/// framed: reading goes on with the next record or input).
pub struct Pages {
    sources: std::vec::IntoIter<Source>,
    current: Option<Current>,
    max: usize,
    skip: HashMap<String, usize>,
    progress: Arc<Progress>,
    all_status: bool,
    shard: Option<Shard>,
    /// The number of the source being read, from 0.
    file: u64,
    /// Pages of the streamed source so far.
    ordinal: u64,
}

impl Pages {
    /// The pages of these sources. Pages larger than `max_bytes` (a file,
    /// a WARC payload, a JSONL `html`) are `too_large` error pages, not
    /// read further than `max_bytes + 1` bytes. WARC responses whose HTTP
    /// status is not 2xx are skipped (counted in
    /// [`Progress::skipped_status`]; see [`Pages::all_status`]).
    pub fn new(sources: Vec<Source>, max_bytes: usize) -> Pages {
        Pages {
            sources: sources.into_iter(),
            current: None,
            max: max_bytes,
            skip: HashMap::new(),
            progress: Arc::new(Progress::default()),
            all_status: false,
            shard: None,
            file: 0,
            ordinal: 0,
        }
    }

    /// Counts the bytes read and the pages skipped into `progress` (share
    /// it with the [`crate::driver::Driver`]).
    pub fn with_progress(mut self, progress: Arc<Progress>) -> Pages {
        self.progress = progress;
        self
    }

    /// Keeps WARC responses of every HTTP status (redirects, errors), not
    /// only 2xx.
    pub fn all_status(mut self, on: bool) -> Pages {
        self.all_status = on;
        self
    }

    /// Takes only one shard of the pages: a page file is shard
    /// `file % count`, the n-th page (from 0) of a WARC or JSONL file
    /// shard `(file + n) % count`, where `file` is the source's number
    /// in the list (from 0). Every page is in exactly one shard, whatever
    /// the inputs, as long as every shard gets the same inputs and flags.
    pub fn shard(mut self, shard: Option<Shard>) -> Pages {
        self.shard = shard;
        self
    }

    /// Skips the pages a resumed run's output already has: as many
    /// occurrences of each id as it has rows (so repeated ids stay right).
    /// Skipped pages are not read when that can be avoided (a file, a WARC
    /// payload), and are counted in [`Progress::already_there`].
    pub fn skipping(mut self, resume: Resume) -> Pages {
        self.skip = resume.into_ids();
        self
    }

    /// The counters this reader adds to.
    pub fn progress(&self) -> &Arc<Progress> {
        &self.progress
    }

    /// Reads one page file, at most `max + 1` bytes of it; None when it is
    /// skipped.
    fn read_html_file(&mut self, p: &Path) -> Option<Page> {
        let id = file_id(p);
        let mine = self.shard.is_none_or(|s| s.takes(self.file));
        if !mine || !wants(&mut self.skip, &self.progress, &id) {
            if let Ok(m) = std::fs::metadata(p) {
                self.progress.add_bytes(m.len());
            }
            return None;
        }
        let body = read_bounded(p, self.max, &self.progress);
        Some(Page::from_body(id, body))
    }

    /// The next item of the file being streamed (None at its end), with
    /// the pages to skip skipped.
    fn next_streamed(&mut self) -> Option<Result<Page, InputError>> {
        let (path, item) = match self.current.as_mut()? {
            Current::Jsonl(path, r) => loop {
                match r.next() {
                    Some(Ok(page)) => {
                        let unit = self.file + self.ordinal;
                        self.ordinal += 1;
                        if !self.shard.is_none_or(|s| s.takes(unit))
                            || !wants(&mut self.skip, &self.progress, &page.id)
                        {
                            continue;
                        }
                        break (path, Some(Ok(page)));
                    }
                    item => break (path, item),
                }
            },
            Current::Warc(path, r) => loop {
                let head = match r.next_head() {
                    None => {
                        self.progress.add_revisits(r.revisits());
                        break (path, None);
                    }
                    Some(Err(e)) => break (path, Some(Err(e))),
                    Some(Ok(h)) => h,
                };
                if !self.all_status && !head.status_is_success() {
                    // Its body is skipped, unread, by the next `next_head`.
                    self.progress.add_skipped_status();
                    continue;
                }
                let unit = self.file + self.ordinal;
                self.ordinal += 1;
                if !self.shard.is_none_or(|s| s.takes(unit)) {
                    continue;
                }
                let id = head
                    .record_id
                    .clone()
                    .unwrap_or_else(|| format!("{}#{}", path.display(), head.index));
                if !wants(&mut self.skip, &self.progress, &id) {
                    continue;
                }
                let mut page = Page::from_body(id, r.read_body())
                    .with_url(head.url)
                    .with_charset(head.charset);
                page.record_id = head.record_id;
                page.date = head.date;
                page.http_status = head.http_status;
                page.content_type = head.content_type;
                break (path, Some(Ok(page)));
            },
        };
        Some(item?.map_err(|mut e| {
            e.path = Some(path.clone());
            e
        }))
    }
}

/// The bytes of a page file, reading no more than `max + 1` of them
/// (a FIFO or a device named on the command line included).
fn read_bounded(p: &Path, max: usize, progress: &Progress) -> Result<Vec<u8>, PageError> {
    let read_error = |e: io::Error| PageError::new(ErrorKind::Read, e.to_string());
    let f = File::open(p).map_err(read_error)?;
    let meta = f.metadata().map_err(read_error)?;
    if meta.is_file() && meta.len() > max as u64 {
        progress.add_bytes(meta.len());
        return Err(PageError::too_large(meta.len(), max));
    }
    let mut buf = Vec::with_capacity(if meta.is_file() {
        meta.len() as usize
    } else {
        0
    });
    let n = f
        .take(max as u64 + 1)
        .read_to_end(&mut buf)
        .map_err(read_error)?;
    progress.add_bytes(n as u64);
    if n > max {
        return Err(PageError::new(
            ErrorKind::TooLarge,
            format!("page of more than {max} bytes is over --max-bytes {max}"),
        ));
    }
    Ok(buf)
}

/// Whether a page with this id is to be read (false: a resumed run's
/// output already has it, and it is counted as already there).
fn wants(skip: &mut HashMap<String, usize>, progress: &Progress, id: &str) -> bool {
    match skip.get_mut(id) {
        Some(n) if *n > 0 => {
            *n -= 1;
            progress.add_already_there();
            false
        }
        _ => true,
    }
}

impl Iterator for Pages {
    type Item = Result<Page, InputError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.current.is_some() {
                match self.next_streamed() {
                    Some(item) => return Some(item),
                    None => {
                        self.current = None;
                        self.file += 1;
                    }
                }
            }
            let src = self.sources.next()?;
            let path = src.path().to_path_buf();
            let max = self.max;
            self.ordinal = 0;
            let opened = match src {
                Source::Html(p) => {
                    let page = self.read_html_file(&p);
                    self.file += 1;
                    match page {
                        Some(page) => return Some(Ok(page)),
                        None => continue,
                    }
                }
                Source::Warc(p) => open_raw_counted(&p, &self.progress)
                    .map(|s| Current::Warc(p, Box::new(WarcReader::new(s).with_max_payload(max)))),
                Source::Jsonl(p) => open_counted(&p, &self.progress).map(|s| {
                    let name = p.display().to_string();
                    Current::Jsonl(p, JsonlReader::new(s, name, max))
                }),
            };
            match opened {
                Ok(c) => self.current = Some(c),
                Err(e) => {
                    self.file += 1;
                    return Some(Err(InputError {
                        path: Some(path),
                        message: e.to_string(),
                    }));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{gzip, html_record};

    fn ids(pages: &mut Pages) -> Vec<String> {
        pages.map(|p| p.unwrap().id).collect()
    }

    #[test]
    fn directories_sorted_recursive_lists_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("pages");
        std::fs::create_dir_all(root.join("b/deep")).unwrap();
        for name in [
            "z.html",
            "a.HTM",
            "b/deep/m.html.gz",
            "b/c.html",
            "notes.txt",
            "x.warc",
        ] {
            std::fs::write(root.join(name), "<p>x").unwrap();
        }
        let list = dir.path().join("list");
        let one = root.join("z.html");
        std::fs::write(
            &list,
            format!("{}\n\n  {}\n", one.display(), root.display()),
        )
        .unwrap();
        let got = expand(&[format!("@{}", list.display()), one.display().to_string()]).unwrap();
        let names: Vec<String> = got
            .iter()
            .map(|s| s.path().strip_prefix(&root).unwrap().display().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "z.html",
                "a.HTM",
                "b/c.html",
                "b/deep/m.html.gz",
                "z.html",
                "z.html"
            ]
        );
        assert!(got.iter().all(|s| matches!(s, Source::Html(_))));
        assert!(matches!(
            Source::classify("a/c.WARC.gz".into()),
            Source::Warc(_)
        ));
        assert!(matches!(
            Source::classify("a/c.jsonl.gz".into()),
            Source::Jsonl(_)
        ));
    }

    /// Issue 41, defect 6: one missing path (an argument, a stale line of
    /// a list, a list itself) ended the whole run before a row was
    /// written; each is one warning now, and every other input is read.
    /// A symlink to a directory found in a walk was skipped without a word.
    #[test]
    fn missing_paths_and_linked_directories_are_warnings() {
        let dir = tempfile::tempdir().unwrap();
        let page = dir.path().join("a.html");
        std::fs::write(&page, "<p>a").unwrap();
        let list = dir.path().join("list");
        std::fs::write(
            &list,
            format!(
                "{}\n/no/such/line.html\n{}\n",
                page.display(),
                page.display()
            ),
        )
        .unwrap();
        let args = [
            page.display().to_string(),
            "/no/such/input.html".to_owned(),
            format!("@{}", list.display()),
            "@/no/such/list".to_owned(),
        ];
        let (sources, warnings) = expand_with_warnings(&args).unwrap();
        assert_eq!(sources, vec![Source::Html(page.clone()); 3]);
        let named: Vec<String> = warnings
            .iter()
            .map(|w| w.path.as_ref().unwrap().display().to_string())
            .collect();
        assert_eq!(
            named,
            ["/no/such/input.html", "/no/such/line.html", "/no/such/list"]
        );
        assert!(
            warnings[2].message.contains("cannot read the list"),
            "{warnings:?}"
        );
        #[cfg(unix)]
        {
            let tree = dir.path().join("tree");
            std::fs::create_dir_all(tree.join("real")).unwrap();
            std::fs::write(tree.join("real/b.html"), "<p>b").unwrap();
            std::os::unix::fs::symlink(tree.join("real"), tree.join("linked")).unwrap();
            let (sources, warnings) = expand_with_warnings(&[tree.display().to_string()]).unwrap();
            assert_eq!(sources, [Source::Html(tree.join("real/b.html"))]);
            assert_eq!(warnings.len(), 1, "{warnings:?}");
            assert_eq!(
                warnings[0].path.as_deref(),
                Some(tree.join("linked").as_path())
            );
            assert!(warnings[0].message.contains("symlink to a directory"));
        }
    }

    #[test]
    fn file_ids_drop_the_page_extensions() {
        assert_eq!(file_id(Path::new("a/b/abc.html.gz")), "abc");
        assert_eq!(file_id(Path::new("x.HTM")), "x");
        assert_eq!(file_id(Path::new("y.gz")), "y");
        assert_eq!(file_id(Path::new(".html")), ".html");
    }

    /// A directory of three pages, a WARC of three records without ids in
    /// one of them, a JSONL of two rows.
    fn mixed(dir: &Path) -> Vec<Source> {
        for (name, body) in [
            ("p1.html", "<p>1"),
            ("p2.html.gz", "<p>2"),
            ("p3.htm", "<p>3"),
        ] {
            let bytes = match name.ends_with(".gz") {
                true => gzip(body.as_bytes()),
                false => body.as_bytes().to_vec(),
            };
            std::fs::write(dir.join(name), bytes).unwrap();
        }
        let mut warc = Vec::new();
        for id in ["w1", "w2"] {
            warc.extend(gzip(&html_record(id, "<p>w")));
        }
        let anonymous = String::from_utf8(html_record("w3", "<p>w"))
            .unwrap()
            .replace("WARC-Record-ID: <urn:uuid:w3>\r\n", "");
        warc.extend(gzip(anonymous.as_bytes()));
        std::fs::write(dir.join("c.warc.gz"), warc).unwrap();
        std::fs::write(
            dir.join("d.jsonl"),
            "{\"id\":\"j1\",\"html\":\"<p>j\"}\n{\"id\":\"j2\",\"html\":\"<p>j\"}\n",
        )
        .unwrap();
        let mut sources = expand(&[dir.display().to_string()]).unwrap();
        sources.push(Source::classify(dir.join("c.warc.gz")));
        sources.push(Source::classify(dir.join("d.jsonl")));
        sources
    }

    #[test]
    fn pages_of_every_kind_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let sources = mixed(dir.path());
        let w3 = format!("{}#3", dir.path().join("c.warc.gz").display());
        let mut pages = Pages::new(sources.clone(), 1000);
        assert_eq!(
            ids(&mut pages),
            [
                "p1",
                "p2",
                "p3",
                "urn:uuid:w1",
                "urn:uuid:w2",
                &w3,
                "j1",
                "j2"
            ]
        );
        assert_eq!(pages.progress().bytes_read(), total_len(&sources));
        let first: Vec<Page> = Pages::new(sources, 1000).map(Result::unwrap).collect();
        // A page file's bytes are as stored (the extractor gunzips).
        assert_eq!(first[1].body.as_deref().unwrap(), gzip(b"<p>2"));
        assert_eq!(first[3].body.as_deref().unwrap(), b"<p>w");
        assert_eq!(first[3].http_status, Some(200));
        assert_eq!(first[6].charset.as_deref(), Some("utf-8"));
    }

    #[test]
    fn resume_skips_as_many_of_each_id_as_are_there() {
        let dir = tempfile::tempdir().unwrap();
        let mut sources = mixed(dir.path());
        // p1 twice: one of them is there already.
        sources.push(Source::classify(dir.path().join("p1.html")));
        let resume: Resume = ["p1", "p3", "urn:uuid:w2", "j1", "nowhere"]
            .into_iter()
            .map(String::from)
            .collect();
        let mut pages = Pages::new(sources, 1000).skipping(resume);
        let got = ids(&mut pages);
        let w3 = format!("{}#3", dir.path().join("c.warc.gz").display());
        assert_eq!(got, ["p2", "urn:uuid:w1", &w3, "j2", "p1"]);
        assert_eq!(pages.progress().already_there(), 4);
    }

    #[cfg(unix)]
    #[test]
    fn directory_walks_refuse_fifos_and_devices_named_ones_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.html"), "<p>a").unwrap();
        let zero = dir.path().join("z.html");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let fifo = dir.path().join("f.html");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        let (sources, warnings) =
            expand_with_warnings(&[dir.path().display().to_string()]).unwrap();
        assert_eq!(sources, [Source::Html(dir.path().join("a.html"))]);
        let mut refused: Vec<&Path> = warnings.iter().filter_map(|w| w.path.as_deref()).collect();
        refused.sort();
        let mut want = vec![zero.as_path()];
        if made.is_ok_and(|s| s.success()) {
            want.insert(0, fifo.as_path());
        }
        assert_eq!(refused, want);
        // Named on its own, a device is read, at most max + 1 bytes of it.
        let got: Vec<_> = Pages::new(vec![Source::Html(zero)], 1000).collect();
        let e = got[0].as_ref().unwrap().body.as_ref().unwrap_err();
        assert_eq!(e.kind, ErrorKind::TooLarge);
        assert_eq!(
            e.message,
            "page of more than 1000 bytes is over --max-bytes 1000"
        );
    }

    #[test]
    fn shards_cover_every_page_once() {
        let dir = tempfile::tempdir().unwrap();
        let sources = mixed(dir.path());
        let all = ids(&mut Pages::new(sources.clone(), 1000));
        let mut seen = Vec::new();
        for index in 0..3 {
            let shard = Some(Shard { index, count: 3 });
            let got = ids(&mut Pages::new(sources.clone(), 1000).shard(shard));
            assert!(!got.is_empty() && got.len() < all.len(), "{got:?}");
            seen.extend(got);
        }
        seen.sort();
        let mut all = all;
        all.sort();
        assert_eq!(seen, all);
    }

    #[test]
    fn non_2xx_responses_are_skipped_and_counted() {
        use crate::testutil::{http, warc_record};
        let dir = tempfile::tempdir().unwrap();
        let mut w = Vec::new();
        for (id, status) in [
            ("ok", "200 OK"),
            ("nf", "404 Not Found"),
            ("mv", "301 Moved"),
        ] {
            w.extend(warc_record(
                "response",
                id,
                "https://example.org/",
                &http(status, "Content-Type: text/html\r\n", b"<p>x"),
            ));
        }
        w.extend(warc_record("revisit", "rv", "https://example.org/", b""));
        let path = dir.path().join("c.warc");
        std::fs::write(&path, w).unwrap();
        let mut pages = Pages::new(vec![Source::Warc(path.clone())], 1000);
        assert_eq!(ids(&mut pages), ["urn:uuid:ok"]);
        assert_eq!(pages.progress().skipped_status(), 2);
        assert_eq!(pages.progress().revisits(), 1);
        let mut pages = Pages::new(vec![Source::Warc(path)], 1000).all_status(true);
        assert_eq!(
            ids(&mut pages),
            ["urn:uuid:ok", "urn:uuid:nf", "urn:uuid:mv"]
        );
    }

    #[test]
    fn limits_and_unreadable_inputs() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.html");
        std::fs::write(&big, "x".repeat(20)).unwrap();
        let junk = dir.path().join("junk.warc");
        std::fs::write(&junk, "not a warc\n").unwrap();
        let sources = vec![
            Source::Html(big),
            Source::Warc(dir.path().join("missing.warc")),
            Source::Warc(junk.clone()),
            Source::Html(dir.path().join("gone.html")),
        ];
        let got: Vec<_> = Pages::new(sources, 10).collect();
        assert_eq!(got.len(), 4);
        let big = got[0].as_ref().unwrap();
        assert_eq!(big.body.as_ref().unwrap_err().kind, ErrorKind::TooLarge);
        let e = got[1].as_ref().unwrap_err();
        assert!(e.path.as_ref().unwrap().ends_with("missing.warc"));
        let e = got[2].as_ref().unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: record 1: not a WARC record header", junk.display())
        );
        let gone = got[3].as_ref().unwrap();
        assert_eq!(gone.id, "gone");
        assert_eq!(gone.body.as_ref().unwrap_err().kind, ErrorKind::Read);
    }
}
