//! Quality measurement for unchaff: the metrics of ALGORITHMS.md#metrics (shingle F1,
//! CJK-aware token F1, token LCS F1, character LCS F1), reading the
//! development datasets, loading extractor outputs, per-folder reports, and
//! the structure benchmark ([`structure`]: does the Markdown keep tables,
//! code, math, figures, headings and lists).
//!
//! A typical run:
//!
//! ```no_run
//! use std::path::Path;
//! use unchaff_eval::{dataset::Dataset, outputs, report};
//!
//! let dataset = Dataset::open(Path::new("../shared/data/scrapinghub"))?;
//! let predictions = outputs::load(Path::new("out/scrapinghub"))?;
//! let scores = report::score_folder(&dataset, &predictions)?;
//! print!("{}", report::format_table(&[scores]));
//! # Ok::<(), unchaff_eval::EvalError>(())
//! ```

#![deny(missing_docs)]

use std::path::{Path, PathBuf};

pub mod bench;
pub mod dataset;
pub mod leaves;
pub mod metrics;
pub mod outputs;
pub mod report;
pub mod run;
pub mod structure;

pub use dataset::{Dataset, Filter, PageEntry};
pub use metrics::{Prf, ShinglePage, Summary};
pub use report::{Comparison, FolderScores, Metric, PageDelta, PageScore};

/// Errors of this crate.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A manifest line is malformed.
    #[error("{}:{line}: {message}", path.display())]
    Manifest {
        /// The manifest file.
        path: PathBuf,
        /// The 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// An outputs file or folder is malformed.
    #[error("{}: {message}", path.display())]
    Outputs {
        /// The file or folder.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A path given as a dataset folder that is not one.
    #[error("{}: {message}", path.display())]
    Folder {
        /// The path given.
        path: PathBuf,
        /// What it is instead.
        message: String,
    },
    /// A filter expression is not `key=value`.
    #[error("invalid filter {0:?}: expected key=value")]
    Filter(String),
    /// An unknown metric name.
    #[error("unknown metric {0:?}: expected shingle, token, lcs or char-lcs")]
    Metric(String),
}

/// What a long run over dataset folders tells as it goes: a folder's
/// pages started and done (for a progress bar), and messages for the
/// user (a page that failed, …). Every method does nothing by default.
pub trait Progress: Sync {
    /// A folder (or other unit of work) of `pages` pages starts.
    fn start(&self, _what: &str, _pages: usize) {}
    /// One more page is done (called from worker threads).
    fn advance(&self) {}
    /// The folder started last is done.
    fn finish(&self) {}
    /// A line for the user, as it happens.
    fn message(&self, _line: &str) {}
}

/// A [`Progress`] that tells nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Progress for Silent {}

impl EvalError {
    fn io(path: &Path, source: std::io::Error) -> Self {
        EvalError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Decodes a text file's bytes: UTF-8 with invalid sequences replaced, and a
/// leading byte-order mark dropped.
fn decode_text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    String::from_utf8_lossy(bytes).into_owned()
}
