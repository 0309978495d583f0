//! Batch extraction for unchaff: pages in, rows out, at crawl scale.
//!
//! ```text
//! inputs (directories, @lists, WARC, JSONL, files)
//!   └─ Pages: an iterator of Result<Page, InputError>, one page at a time
//!        └─ Driver: reader thread ──bounded channel──▶ rayon workers ──▶ reorder buffer
//!                   (one worker: reader thread ──▶ the caller's thread, no pool)
//!             └─ RowSink (JsonlSink, ParquetSink, Vec<Row>), rows in input order
//! ```
//!
//! * [`inputs`] turns paths into [`inputs::Source`]s and streams them as
//!   [`Page`]s ([`inputs::Pages`]); [`warc::WarcReader`] and
//!   [`jsonl::JsonlReader`] read one WARC or JSONL stream on their own.
//! * [`driver::Driver`] extracts pages in parallel with one
//!   [`unchaff::Extractor`] and hands the rows to a [`sink::RowSink`] in
//!   input order, whatever the number of threads. Memory is bounded: the
//!   reader runs at most a window of pages ahead of the last row written.
//! * [`sink`] holds the writers and the output-file protocol (`FILE.tmp`,
//!   renamed when done, locked against a second run; [`sink::Target::open`]
//!   with `resume` for resuming a cut run).
//!
//! The library never prints: file-level problems come back as
//! [`InputError`] warnings in [`driver::Stats`], progress through
//! [`Progress`] and a callback.
//!
//! # Example
//!
//! ```no_run
//! use std::sync::Arc;
//! use unchaff_batch::{Progress, driver::Driver, inputs, sink};
//!
//! fn run(extractor: &unchaff::Extractor) -> Result<(), Box<dyn std::error::Error>> {
//!     let sources = inputs::expand(&["crawl.warc.gz".to_owned()])?;
//!     let progress = Arc::new(Progress::default());
//!     let pages = inputs::Pages::new(sources, 50_000_000).with_progress(Arc::clone(&progress));
//!     let mut out = sink::open_jsonl("pages.jsonl".as_ref(), false)?;
//!     let stats = Driver::new(extractor)
//!         .threads(4)
//!         .progress(progress)
//!         .run(pages, &mut out, |p| eprint!("\r{} rows", p.rows_written()))?;
//!     sink::RowSink::finish(&mut out)?;
//!     eprintln!("{} rows, {} warnings", stats.rows, stats.warnings.len());
//!     Ok(())
//! }
//! ```

#![deny(missing_docs)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

pub mod driver;
mod extract;
pub mod inputs;
pub mod jsonl;
mod row;
pub mod sink;
pub mod warc;

pub use extract::{error_kind, extract_row, extract_row_with};
pub use row::{ErrorKind, Page, PageError, Row, RowFormat, RowMetadata, TextFormat};

/// What can stop a batch run (page-level problems are rows, file-level
/// problems are [`InputError`] warnings; neither is an `Error`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An `@list` file could not be read.
    #[error("cannot read list {path}: {source}")]
    List {
        /// The list file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file or directory could not be read, or an output file written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The worker threads could not be started.
    #[error(transparent)]
    ThreadPool(#[from] rayon::ThreadPoolBuildError),
    /// Parquet output was asked for in a build without the `parquet` feature.
    #[error("Parquet output needs the `parquet` feature")]
    NoParquet,
    /// A row could not be written to the sink.
    #[error(transparent)]
    Sink(std::io::Error),
    /// Another run is writing the same output: its temporary file is
    /// locked.
    #[error(
        "another run is writing {} ({} is locked): wait for it, or choose another --out",
        out.display(),
        tmp.display()
    )]
    Locked {
        /// The output.
        out: PathBuf,
        /// Its temporary file.
        tmp: PathBuf,
    },
}

impl Error {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }
}

/// A problem with an input, not with one page: a file that cannot be
/// opened, a file a directory walk refused (not a regular file), a WARC
/// that is not one, a stretch of a WARC that could not be framed (the
/// reader resynchronises on the next record: see [`warc`]), a read error
/// in a JSONL file. Pages already read keep their rows; reading goes on
/// after it where it can, else with the next input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", path.as_ref().map(|p| format!("{}: ", p.display())).unwrap_or_default())]
pub struct InputError {
    /// The input it concerns (None from a reader used on its own).
    pub path: Option<PathBuf>,
    /// What happened.
    pub message: String,
}

impl InputError {
    /// A problem with no path (yet).
    pub fn new(message: impl Into<String>) -> InputError {
        InputError {
            path: None,
            message: message.into(),
        }
    }
}

/// Counters shared by the reader and the driver while a run goes on
/// (read them from any thread, e.g. for a progress bar).
#[derive(Debug, Default)]
pub struct Progress {
    bytes_read: AtomicU64,
    already_there: AtomicU64,
    rows_written: AtomicU64,
    skipped_status: AtomicU64,
    revisits: AtomicU64,
}

impl Progress {
    /// Bytes of input read so far, as stored (compressed bytes for gzip
    /// files), counting the files of pages skipped on resume.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read.load(Ordering::Relaxed)
    }

    /// Pages skipped because a resumed run's output already has them.
    pub fn already_there(&self) -> u64 {
        self.already_there.load(Ordering::Relaxed)
    }

    /// Rows handed to the sink so far.
    pub fn rows_written(&self) -> u64 {
        self.rows_written.load(Ordering::Relaxed)
    }

    /// WARC responses skipped for their HTTP status (not 2xx).
    pub fn skipped_status(&self) -> u64 {
        self.skipped_status.load(Ordering::Relaxed)
    }

    /// WARC `revisit` records skipped (counted when a WARC file is done).
    pub fn revisits(&self) -> u64 {
        self.revisits.load(Ordering::Relaxed)
    }

    pub(crate) fn add_skipped_status(&self) {
        self.skipped_status.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn add_revisits(&self, n: u64) {
        self.revisits.fetch_add(n, Ordering::Relaxed);
    }

    pub(crate) fn add_bytes(&self, n: u64) {
        self.bytes_read.fetch_add(n, Ordering::Relaxed);
    }

    pub(crate) fn add_already_there(&self) {
        self.already_there.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn set_rows_written(&self, n: u64) {
        self.rows_written.store(n, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod testutil;
