//! The ordered parallel driver.
//!
//! ```text
//! reader thread ──bounded channel──▶ rayon workers ──channel──▶ caller's thread (reorder buffer) ──▶ sink
//! ```
//!
//! One reader thread pulls pages from the iterator; a rayon pool extracts
//! them (`par_bridge`); the caller's thread puts the rows back in input
//! order and hands them to the [`RowSink`]. Memory is bounded by
//! [`WINDOW_PER_THREAD`]: the reader may run at most that many pages per
//! thread ahead of the last row written, so the channels and the reorder
//! buffer never hold more pages than that, whatever the input size.
//!
//! With one worker there is no pool and no reorder buffer: the reader runs
//! [`READ_AHEAD`] pages ahead of the caller's thread, which extracts and
//! writes each page in turn.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex};

use rayon::prelude::*;
use unchaff::Extractor;
use unchaff::dedup::{SegmentCache, Segmentation};

use crate::extract::extract_row_with;
use crate::row::{ErrorKind, Page, Row, RowFormat, TextFormat};
use crate::sink::{RowSink, Timing};
use crate::{Error, InputError, Progress};

/// Pages the reader may run ahead of the writer, per worker thread: enough
/// to keep every worker busy behind one slow page, few enough that the
/// pages in flight stay a few MB per thread for ordinary pages.
pub const WINDOW_PER_THREAD: usize = 16;

/// Pages the reader of a one-worker run may hold ready beyond the one
/// being extracted (and the one it is reading). Reading a page costs about
/// a quarter of extracting it, so a few pages keep the worker fed: over
/// the dev WARC 4 ran as fast as 16 (wall ×1.00, five runs each) with a
/// peak RSS of 34 MB instead of 49 MB, and the worst case stays a few
/// pages of `--max-bytes`.
pub const READ_AHEAD: usize = 4;

/// Worker threads per core a run starts at most, whatever is asked:
/// extraction is CPU work, and more threads than cores only add stacks
/// and switches (`--threads 100000` started thousands of threads, load
/// 1,400 on 2 cores, for a WARC of 8 records).
pub const THREADS_PER_CORE: usize = 4;

/// The most worker threads a run starts: the cores times
/// [`THREADS_PER_CORE`].
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_mul(THREADS_PER_CORE)
}

/// What a run did.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Stats {
    /// Rows written.
    pub rows: u64,
    /// Rows of pages whose bytes could be read (all but the `read` and
    /// `truncated` error rows: a page refused by a limit or by the
    /// extractor was read well enough to be judged).
    pub read_ok: u64,
    /// Error rows, by kind.
    pub errors: BTreeMap<ErrorKind, usize>,
    /// Pages skipped because a resumed run's output already had them.
    pub already_there: u64,
    /// Bytes of input read, as stored.
    pub bytes_read: u64,
    /// WARC responses skipped for their HTTP status (not 2xx).
    pub skipped_status: u64,
    /// WARC `revisit` records skipped.
    pub revisits: u64,
    /// Pages extracted but not written because a corpus filter of the
    /// extractor's options dropped them ([`Row::skipped`]), by reason
    /// (`confidence`, `language`).
    pub skipped: BTreeMap<&'static str, u64>,
    /// With [`Driver::dedup`]: segments dropped from the rows' text as
    /// repeats of their site.
    pub dedup_segments: u64,
    /// With [`Driver::dedup`]: characters (white space excluded) of those
    /// segments.
    pub dedup_chars: u64,
    /// Inputs, or stretches of them, that could not be read or framed, in
    /// input order.
    pub warnings: Vec<InputError>,
}

impl Stats {
    /// All error rows.
    pub fn error_rows(&self) -> usize {
        self.errors.values().sum()
    }
}

/// Runs an [`Extractor`] over pages in parallel, rows out in input order.
pub struct Driver<'a> {
    ex: &'a Extractor,
    threads: usize,
    progress: Arc<Progress>,
    format: RowFormat,
    timed: bool,
    dedup: Option<u32>,
}

impl<'a> Driver<'a> {
    /// A driver for this extractor: as many threads as cores, counters of
    /// its own. A page timeout is the extractor's
    /// ([`unchaff::Options::with_timeout`]).
    pub fn new(ex: &'a Extractor) -> Driver<'a> {
        Driver {
            ex,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            progress: Arc::new(Progress::default()),
            format: RowFormat::default(),
            timed: false,
            dedup: None,
        }
    }

    /// Drop repeated segments from the rows' text: a segment (a line of
    /// text, a paragraph of Markdown) seen on `max_repeats` earlier pages
    /// of the same site (the URL's host; pages without a URL share one
    /// site) in this run ([`unchaff::dedup::SegmentCache`]). Applied in
    /// input order, so the rows do not depend on the threads. `None` (the
    /// default): off. HTML rows are left as they are.
    pub fn dedup(mut self, max_repeats: Option<u32>) -> Driver<'a> {
        self.dedup = max_repeats;
        self
    }

    /// Time each page's extraction (wall clock and the thread's CPU time)
    /// and hand the times to the sink ([`RowSink::write_timed`]); off by
    /// default, when every [`Timing`] is zero. With one worker, a timed run
    /// reads each page between extractions instead of ahead of them, so
    /// that no reader runs beside the page being timed (beside it, the
    /// reader slowed the extraction by 1–7% in the peer harness).
    pub fn timed(mut self, on: bool) -> Driver<'a> {
        self.timed = on;
        self
    }

    /// What the rows carry (build the extractor with
    /// [`RowFormat::apply`]'s options).
    pub fn row_format(mut self, format: RowFormat) -> Driver<'a> {
        self.format = format;
        self
    }

    /// Worker threads: at least one, at most [`max_threads`] (and no more
    /// than the pages, when the input says how many). The output does not
    /// depend on it.
    pub fn threads(mut self, n: usize) -> Driver<'a> {
        self.threads = n.clamp(1, max_threads());
        self
    }

    /// The worker threads a run will start (before the cap by pages).
    pub fn thread_count(&self) -> usize {
        self.threads
    }

    /// Counters to report into: share them with the reader
    /// ([`crate::inputs::Pages::with_progress`]) to see bytes read and pages
    /// skipped.
    pub fn progress(mut self, progress: Arc<Progress>) -> Driver<'a> {
        self.progress = progress;
        self
    }

    /// Extracts every page and writes one row per page to `sink`, in the
    /// order of `pages`; `on_rows` is called on the caller's thread each
    /// time rows were written. [`InputError`] items are collected as
    /// warnings. Does not call [`RowSink::finish`]. An error only when the
    /// threads cannot start or the sink fails (then the reader stops and
    /// the rows written so far are a prefix of the output).
    pub fn run<I>(
        &self,
        pages: I,
        sink: &mut dyn RowSink,
        mut on_rows: impl FnMut(&Progress),
    ) -> Result<Stats, Error>
    where
        I: IntoIterator<Item = Result<Page, InputError>>,
        I::IntoIter: Send,
    {
        let pages = pages.into_iter();
        let threads = match pages.size_hint().1 {
            Some(n) => self.threads.min(n.max(1)),
            None => self.threads,
        };
        if threads == 1 {
            if self.timed {
                // Nothing runs beside a page being timed.
                return self.run_inline(pages, sink, on_rows);
            }
            return self.run_read_ahead(pages, sink, on_rows);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let window = (WINDOW_PER_THREAD * threads) as u64;
        let (tx, rx) = sync_channel::<(u64, Page)>(window as usize);
        let (rtx, rrx) = sync_channel::<(u64, Row, Timing)>(window as usize);
        let gate = Gate::default();
        let mut stats = Stats::default();
        let mut cache = self.dedup.map(SegmentCache::new);
        let (warnings, written) = std::thread::scope(|s| {
            let gate = &gate;
            let reader = s.spawn(move || feed(pages, tx, gate, window));
            let (pool, ex, format, timed) = (&pool, self.ex, self.format, self.timed);
            s.spawn(move || work(pool, rx, rtx, ex, format, timed));
            let mut out = Out {
                sink,
                stats: &mut stats,
                cache: cache.as_mut(),
                format: self.format,
            };
            let r = write_in_order(rrx, &mut out, gate, &self.progress, &mut on_rows);
            if r.is_err() {
                gate.stop();
            }
            let w = reader
                .join()
                .unwrap_or_else(|_| vec![InputError::new("reader thread panicked")]);
            (w, r)
        });
        written.map_err(Error::Sink)?;
        stats.warnings = warnings;
        stats.already_there = self.progress.already_there();
        stats.bytes_read = self.progress.bytes_read();
        stats.skipped_status = self.progress.skipped_status();
        stats.revisits = self.progress.revisits();
        Ok(stats)
    }
}

impl Driver<'_> {
    /// [`Driver::run`] with one worker: a reader thread reads (a WARC's
    /// gzip members inflated, its records framed) up to [`READ_AHEAD`]
    /// pages ahead, and the caller's thread extracts and writes each page
    /// in turn. One hand-off a page, into a buffer the reader keeps full
    /// (reading is about a quarter of the cost of extracting), so the
    /// extracting thread does not wait on the scheduler; reading runs
    /// beside the extraction instead of between pages (it was 18% of a
    /// one-thread run over a WARC: docs/BENCHMARKS.md). The same rows as
    /// the worker pool, in the same order.
    fn run_read_ahead<I>(
        &self,
        pages: I,
        sink: &mut dyn RowSink,
        on_rows: impl FnMut(&Progress),
    ) -> Result<Stats, Error>
    where
        I: IntoIterator<Item = Result<Page, InputError>>,
        I::IntoIter: Send,
    {
        let pages = pages.into_iter();
        let (tx, rx) = sync_channel::<Result<Page, InputError>>(READ_AHEAD);
        std::thread::scope(|s| {
            let reader = s.spawn(move || {
                for item in pages {
                    // A send fails only when the writer has stopped (a
                    // sink error): stop reading too.
                    if tx.send(item).is_err() {
                        break;
                    }
                }
            });
            // `rx` moves into the loop and is dropped when it ends, so a
            // reader blocked on a full buffer wakes to a failed send.
            let run = self.run_inline(rx, sink, on_rows);
            let panicked = reader.join().is_err();
            let mut stats = run?;
            if panicked {
                stats
                    .warnings
                    .push(InputError::new("reader thread panicked"));
            }
            Ok(stats)
        })
    }

    /// Reads, extracts and writes each page in turn on the caller's
    /// thread (a timed run with one worker: [`Driver::timed`]).
    fn run_inline<I>(
        &self,
        pages: I,
        sink: &mut dyn RowSink,
        mut on_rows: impl FnMut(&Progress),
    ) -> Result<Stats, Error>
    where
        I: IntoIterator<Item = Result<Page, InputError>>,
    {
        let mut stats = Stats::default();
        let mut cache = self.dedup.map(SegmentCache::new);
        let mut out = Out {
            sink,
            stats: &mut stats,
            cache: cache.as_mut(),
            format: self.format,
        };
        for item in pages {
            let page = match item {
                Ok(p) => p,
                Err(e) => {
                    out.stats.warnings.push(e);
                    continue;
                }
            };
            let (row, timing) = extract_timed(self.ex, page, self.format, self.timed);
            out.deliver(row, timing).map_err(Error::Sink)?;
            self.progress.set_rows_written(out.stats.rows);
            on_rows(&self.progress);
        }
        stats.already_there = self.progress.already_there();
        stats.bytes_read = self.progress.bytes_read();
        stats.skipped_status = self.progress.skipped_status();
        stats.revisits = self.progress.revisits();
        Ok(stats)
    }
}

/// Extracts one page into its row, timed when `timed` (else a zero
/// [`Timing`]).
fn extract_timed(ex: &Extractor, page: Page, format: RowFormat, timed: bool) -> (Row, Timing) {
    if !timed {
        return (extract_row_with(ex, page, format), Timing::default());
    }
    let cpu = cpu_time::ThreadTime::try_now().ok();
    let wall = std::time::Instant::now();
    let row = extract_row_with(ex, page, format);
    let timing = Timing {
        wall: wall.elapsed(),
        cpu: cpu.and_then(|t| t.try_elapsed().ok()),
    };
    (row, timing)
}

/// Where rows go, in input order: the sink, the run's counts, and the
/// segment cache of [`Driver::dedup`].
struct Out<'s, 'c> {
    sink: &'s mut dyn RowSink,
    stats: &'s mut Stats,
    cache: Option<&'c mut SegmentCache>,
    format: RowFormat,
}

impl Out<'_, '_> {
    /// Writes a row (its repeated segments dropped) and counts it, or
    /// counts it as skipped when a corpus filter dropped its page
    /// ([`Row::skipped`]).
    fn deliver(&mut self, mut row: Row, timing: Timing) -> std::io::Result<()> {
        if let Some(reason) = row.skipped {
            *self.stats.skipped.entry(reason).or_insert(0) += 1;
            return Ok(());
        }
        let how = match self.format.text {
            TextFormat::Text => Some(Segmentation::Lines),
            TextFormat::Markdown => Some(Segmentation::Paragraphs),
            _ => None,
        };
        if let (Some(cache), Some(how), Some(text)) = (self.cache.as_mut(), how, row.text.as_ref())
        {
            let site = row
                .url
                .as_deref()
                .and_then(|u| url::Url::parse(u).ok())
                .and_then(|u| u.host_str().map(str::to_owned))
                .unwrap_or_default();
            let f = cache.filter(&site, text, how);
            self.stats.dedup_segments += f.segments as u64;
            self.stats.dedup_chars += f.chars as u64;
            row.text = Some(f.text);
        }
        self.sink.write_timed(&row, timing)?;
        count(self.stats, &row);
        Ok(())
    }
}

/// Counts a written row in the run's statistics.
fn count(stats: &mut Stats, row: &Row) {
    stats.rows += 1;
    match &row.error {
        Some(e) => {
            stats.read_ok += u64::from(!e.kind.is_unreadable());
            *stats.errors.entry(e.kind).or_insert(0) += 1;
        }
        None => stats.read_ok += 1,
    }
}

/// How far the writer has got, for the reader to wait on; and whether the
/// run has stopped.
#[derive(Default)]
struct Gate {
    written: Mutex<u64>,
    moved: Condvar,
    stopped: AtomicBool,
}

impl Gate {
    fn set_written(&self, n: u64) {
        *self.written.lock().unwrap_or_else(|e| e.into_inner()) = n;
        self.moved.notify_all();
    }

    /// Waits until page `seq` is within `window` of the last row written;
    /// false when the run has stopped.
    fn wait_for(&self, seq: u64, window: u64) -> bool {
        let mut written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        while seq >= *written + window && !self.stopped.load(Ordering::Relaxed) {
            written = self.moved.wait(written).unwrap_or_else(|e| e.into_inner());
        }
        !self.stopped.load(Ordering::Relaxed)
    }

    fn stop(&self) {
        let _guard = self.written.lock().unwrap_or_else(|e| e.into_inner());
        self.stopped.store(true, Ordering::Relaxed);
        self.moved.notify_all();
    }
}

/// The reader: numbers the pages and sends them on, a window ahead of the
/// writer at most; returns the input errors.
fn feed(
    pages: impl Iterator<Item = Result<Page, InputError>>,
    tx: SyncSender<(u64, Page)>,
    gate: &Gate,
    window: u64,
) -> Vec<InputError> {
    let mut warnings = Vec::new();
    let mut seq = 0u64;
    for item in pages {
        let page = match item {
            Ok(p) => p,
            Err(e) => {
                warnings.push(e);
                continue;
            }
        };
        if !gate.wait_for(seq, window) || tx.send((seq, page)).is_err() {
            break;
        }
        seq += 1;
    }
    warnings
}

/// The workers: pages from the reader, rows to the writer.
fn work(
    pool: &rayon::ThreadPool,
    rx: Receiver<(u64, Page)>,
    rtx: SyncSender<(u64, Row, Timing)>,
    ex: &Extractor,
    format: RowFormat,
    timed: bool,
) {
    pool.install(|| {
        rx.into_iter()
            .par_bridge()
            .for_each_with(rtx, |rtx, (seq, page)| {
                // A send fails only when the writer has given up.
                let (row, timing) = extract_timed(ex, page, format, timed);
                let _ = rtx.send((seq, row, timing));
            })
    });
}

/// Writes rows in sequence order through a reorder buffer (bounded by the
/// reader's window), telling the reader how far it has got.
fn write_in_order(
    rrx: Receiver<(u64, Row, Timing)>,
    out: &mut Out<'_, '_>,
    gate: &Gate,
    progress: &Progress,
    on_rows: &mut dyn FnMut(&Progress),
) -> std::io::Result<()> {
    let mut pending: BTreeMap<u64, (Row, Timing)> = BTreeMap::new();
    let mut next = 0u64;
    for (seq, row, timing) in rrx.iter() {
        pending.insert(seq, (row, timing));
        let before = next;
        while let Some((row, timing)) = pending.remove(&next) {
            out.deliver(row, timing)?;
            next += 1;
        }
        if next != before {
            gate.set_written(next);
            progress.set_rows_written(next);
            on_rows(progress);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::test_extractor;
    use crate::row::PageError;
    use crate::testutil::article;

    /// Pages whose sizes vary a hundredfold, so workers finish out of order.
    fn pages(n: usize) -> Vec<Result<Page, InputError>> {
        (0..n)
            .map(|i| {
                let words = "word ".repeat(1 + (i * 37) % 300);
                let html = article(&format!("Page {i}"), &format!("page {i} {words}"));
                Ok(Page::new(format!("p{i}"), html.into_bytes()))
            })
            .collect()
    }

    #[test]
    fn rows_in_input_order_whatever_the_threads() {
        let ex = test_extractor();
        let mut one = Vec::new();
        let stats = Driver::new(&ex)
            .threads(1)
            .run(pages(120), &mut one, |_| {})
            .unwrap();
        assert_eq!(stats.rows, 120);
        assert_eq!(stats.read_ok, 120);
        let mut four = Vec::new();
        let progress = Arc::new(Progress::default());
        let mut calls = 0;
        Driver::new(&ex)
            .threads(4)
            .progress(Arc::clone(&progress))
            .run(pages(120), &mut four, |_| calls += 1)
            .unwrap();
        assert_eq!(one, four);
        let ids: Vec<String> = one.iter().map(|r| r.id.clone()).collect();
        let want: Vec<String> = (0..120).map(|i| format!("p{i}")).collect();
        assert_eq!(ids, want);
        assert!(one[7].text.as_deref().unwrap().contains("page 7 word"));
        assert_eq!(progress.rows_written(), 120);
        assert!(calls >= 1);
    }

    /// Issue 41, defect 10: `--threads 100000` started thousands of
    /// threads. The driver starts at most [`max_threads`], and no more
    /// than the pages when it knows how many; the rows are the same.
    #[test]
    fn thread_counts_are_capped() {
        let ex = test_extractor();
        for asked in [100_000, usize::MAX] {
            let d = Driver::new(&ex).threads(asked);
            assert!(d.thread_count() <= max_threads(), "{}", d.thread_count());
            let mut rows = Vec::new();
            d.run(pages(8), &mut rows, |_| {}).unwrap();
            assert_eq!(rows.len(), 8);
        }
        assert_eq!(Driver::new(&ex).threads(0).thread_count(), 1);
    }

    /// Rows with their timings, as the driver hands them over.
    #[derive(Default)]
    struct Timed(Vec<(Row, Timing)>);

    impl RowSink for Timed {
        fn write_row(&mut self, row: &Row) -> std::io::Result<()> {
            self.write_timed(row, Timing::default())
        }
        fn write_timed(&mut self, row: &Row, t: Timing) -> std::io::Result<()> {
            self.0.push((row.clone(), t));
            Ok(())
        }
        fn finish(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn timed_runs_time_every_page_and_write_the_same_rows() {
        let ex = test_extractor();
        let mut plain = Vec::new();
        Driver::new(&ex)
            .threads(2)
            .run(pages(40), &mut plain, |_| {})
            .unwrap();
        for threads in [1, 2] {
            let mut timed = Timed::default();
            Driver::new(&ex)
                .threads(threads)
                .timed(true)
                .run(pages(40), &mut timed, |_| {})
                .unwrap();
            let rows: Vec<Row> = timed.0.iter().map(|(r, _)| r.clone()).collect();
            assert_eq!(rows, plain);
            assert!(timed.0.iter().all(|(_, t)| !t.wall.is_zero()));
            #[cfg(unix)]
            assert!(timed.0.iter().all(|(_, t)| t.cpu.is_some()));
            // Untimed: every timing is zero.
            let mut untimed = Timed::default();
            Driver::new(&ex)
                .threads(threads)
                .run(pages(3), &mut untimed, |_| {})
                .unwrap();
            assert!(untimed.0.iter().all(|(_, t)| *t == Timing::default()));
        }
    }

    #[test]
    fn errors_by_kind_warnings_and_read_failures() {
        let ex = test_extractor();
        let items = vec![
            Ok(Page::failed("r", PageError::new(ErrorKind::Read, "gone"))),
            Err(InputError::new("a file could not be read")),
            Ok(Page::new("e", Vec::new())),
            Ok(Page::failed(
                "t",
                PageError::new(ErrorKind::Truncated, "cut"),
            )),
            Ok(Page::new(
                "ok",
                article("A", "apples fall far").into_bytes(),
            )),
        ];
        // The same on one thread (read, extract and write inline) as on
        // two (the pipeline).
        let mut rows = Vec::new();
        let one = Driver::new(&ex)
            .threads(1)
            .run(items.clone(), &mut rows, |_| {})
            .unwrap();
        rows.clear();
        let stats = Driver::new(&ex)
            .threads(2)
            .run(items, &mut rows, |_| {})
            .unwrap();
        assert_eq!(format!("{one:?}"), format!("{stats:?}"));
        assert_eq!(rows.len(), 4);
        assert_eq!(stats.rows, 4);
        // The read and truncated rows do not count as read.
        assert_eq!(stats.read_ok, 2);
        assert_eq!(
            stats.errors.into_iter().collect::<Vec<_>>(),
            [
                (ErrorKind::Empty, 1),
                (ErrorKind::Read, 1),
                (ErrorKind::Truncated, 1)
            ]
        );
        assert_eq!(
            stats.warnings,
            [InputError::new("a file could not be read")]
        );
    }

    #[test]
    fn pages_a_corpus_filter_drops_are_counted_not_written() {
        let ex = Extractor::new(&unchaff::Options::new().with_min_confidence(0.5)).unwrap();
        let nav = "<html><body><div><a href=/a>Home</a> <a href=/b>About</a></div><p>Copyright 2024</p></body></html>";
        let good = article(
            "A",
            &"apples fall far from the trees in the orchard in autumn ".repeat(10),
        );
        let items = vec![
            Ok(Page::new("nav", nav.as_bytes().to_vec())),
            Ok(Page::new("good", good.into_bytes())),
            Ok(Page::new("nav2", nav.as_bytes().to_vec())),
        ];
        for threads in [1, 2] {
            let mut rows = Vec::new();
            let stats = Driver::new(&ex)
                .threads(threads)
                .run(items.clone(), &mut rows, |_| {})
                .unwrap();
            let ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
            assert_eq!(ids, ["good"], "{threads} threads");
            assert_eq!(stats.rows, 1);
            assert_eq!(
                stats.skipped.into_iter().collect::<Vec<_>>(),
                [("confidence", 2)]
            );
        }
    }

    #[test]
    fn dedup_drops_a_sites_repeated_segments_in_input_order() {
        let ex = test_extractor();
        let notice = "Every article on this site is written by our staff and checked twice by two of our editors before it goes out to the readers";
        let items: Vec<Result<Page, InputError>> = (0..6)
            .map(|i| {
                let host = if i % 2 == 0 { "a.example" } else { "b.example" };
                let html = format!(
                    "<html><body><article><h1>Story {i}</h1><p>{}</p><p>{notice}</p></article></body></html>",
                    format!("story {i} tells of the orchard and its trees in the autumn ").repeat(4)
                );
                Ok(Page::new(format!("p{i}"), html.into_bytes())
                    .with_url(Some(format!("https://{host}/{i}"))))
            })
            .collect();
        let mut runs = Vec::new();
        for threads in [1, 3] {
            let mut rows = Vec::new();
            let stats = Driver::new(&ex)
                .threads(threads)
                .dedup(Some(2))
                .run(items.clone(), &mut rows, |_| {})
                .unwrap();
            let has: Vec<bool> = rows
                .iter()
                .map(|r| r.text.as_deref().unwrap().contains("checked twice"))
                .collect();
            // Pages 0 and 2 of a.example, 1 and 3 of b.example keep it;
            // the third page of each site loses it.
            assert_eq!(has, [true, true, true, true, false, false], "{threads}");
            assert!(rows[4].text.as_deref().unwrap().contains("story 4 tells"));
            assert_eq!(stats.dedup_segments, 2);
            runs.push(rows);
        }
        assert_eq!(runs[0], runs[1]);
        // Off by default.
        let mut rows = Vec::new();
        let stats = Driver::new(&ex).run(items, &mut rows, |_| {}).unwrap();
        assert!(
            rows.iter()
                .all(|r| r.text.as_deref().unwrap().contains("checked twice"))
        );
        assert_eq!(stats.dedup_segments, 0);
    }

    /// A sink that fails after some rows.
    struct Failing(usize);

    impl RowSink for Failing {
        fn write_row(&mut self, _: &Row) -> std::io::Result<()> {
            match self.0 {
                0 => Err(std::io::Error::other("disk full")),
                _ => {
                    self.0 -= 1;
                    Ok(())
                }
            }
        }
        fn finish(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failing_sink_stops_the_run() {
        let ex = test_extractor();
        // More pages than the window: the reader must not wait forever.
        let n = WINDOW_PER_THREAD * 2 * 4;
        let e = Driver::new(&ex)
            .threads(2)
            .run(pages(n), &mut Failing(5), |_| {})
            .unwrap_err();
        assert_eq!(e.to_string(), "disk full");
    }

    /// One worker reads ahead on a thread of its own, unless the pages are
    /// timed: then each is read on the caller's thread, between
    /// extractions.
    #[test]
    fn one_worker_reads_ahead_unless_timed() {
        let ex = test_extractor();
        let caller = std::thread::current().id();
        for timed in [false, true] {
            let readers = Mutex::new(Vec::new());
            let pages = pages(4).into_iter().inspect(|_| {
                readers.lock().unwrap().push(std::thread::current().id());
            });
            let mut rows = Vec::new();
            Driver::new(&ex)
                .threads(1)
                .timed(timed)
                .run(pages, &mut rows, |_| {})
                .unwrap();
            assert_eq!(rows.len(), 4);
            let readers = readers.into_inner().unwrap();
            assert!(!readers.is_empty());
            assert_eq!(
                readers.iter().all(|&t| t == caller),
                timed,
                "timed: {timed}"
            );
        }
    }

    /// One worker: the reader thread stops when the writer does, though
    /// its input never ends and its buffer is full.
    #[test]
    fn a_failing_sink_stops_the_reader_of_one_worker() {
        let ex = test_extractor();
        let endless = (0..).map(|i| {
            let html = article(&format!("Page {i}"), "a few words of text");
            Ok(Page::new(format!("p{i}"), html.into_bytes()))
        });
        let e = Driver::new(&ex)
            .threads(1)
            .run(endless, &mut Failing(5), |_| {})
            .unwrap_err();
        assert_eq!(e.to_string(), "disk full");
    }

    #[test]
    fn resume_then_the_rest_equals_one_run() {
        // What the CLI does: a cut run's rows are a prefix; the resumed run
        // skips them and appends the rest.
        let dir = tempfile::tempdir().unwrap();
        for i in 0..30 {
            let html = article(&format!("P{i}"), &format!("page {i} words here"));
            std::fs::write(dir.path().join(format!("p{i:02}.html")), html).unwrap();
        }
        let sources = crate::inputs::expand(&[dir.path().display().to_string()]).unwrap();
        let ex = test_extractor();
        let run = |resume: crate::sink::Resume, rows: &mut Vec<Row>| {
            let progress = Arc::new(Progress::default());
            let pages = crate::inputs::Pages::new(sources.clone(), 1 << 20)
                .with_progress(Arc::clone(&progress))
                .skipping(resume);
            Driver::new(&ex)
                .threads(3)
                .progress(progress)
                .run(pages, rows, |_| {})
                .unwrap()
        };
        let mut full = Vec::new();
        run(Default::default(), &mut full);
        let mut resumed = full[..11].to_vec();
        let there = resumed.iter().map(|r| r.id.clone()).collect();
        let stats = run(there, &mut resumed);
        assert_eq!(stats.already_there, 11);
        assert_eq!(stats.rows, 19);
        assert_eq!(resumed, full);
    }
}
