//! The library's error type.

/// Everything that can go wrong. Extraction itself never fails on odd
/// HTML; errors are about input that is not a page at all, or options
/// that make no sense.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Zero bytes (after decompression).
    #[error("input is empty")]
    EmptyInput,
    /// Input larger than [`crate::Options::max_input_bytes`].
    #[error("input is larger than the limit of {limit} bytes")]
    TooLarge {
        /// The limit in force.
        limit: usize,
    },
    /// Input that is binary data, not text.
    #[error("input is binary data, not an HTML page ({percent}% control bytes in its first 8 KiB)")]
    Binary {
        /// Share of control bytes seen.
        percent: u32,
    },
    /// The page would build more elements than its budget
    /// ([`crate::Options::max_elements`]): markup that makes the HTML5
    /// tree builder multiply elements (see `crate::limits`).
    #[error("page builds more than {limit} elements (the element budget)")]
    TooManyElements {
        /// The budget in force.
        limit: usize,
    },
    /// The page's elements would take more memory through the pipeline
    /// than its size allows (`crate::limits::memory_budget`): markup of
    /// tiny elements (`<p>x</p>` repeated), whose blocks and features cost
    /// tens of times their bytes.
    #[error(
        "page is too element-dense: its elements would take more than {limit} bytes of memory \
         (the memory budget for its size)"
    )]
    TooDense {
        /// The budget in force, in bytes.
        limit: usize,
    },
    /// The page took longer than [`crate::Options::timeout`]; stopped at
    /// the deadline, in `stage`.
    #[error("page took longer than the time limit of {limit:?} (stopped in the {stage} stage)")]
    Timeout {
        /// The limit in force.
        limit: std::time::Duration,
        /// The stage that was running.
        stage: crate::limits::Stage,
    },
    /// Reading the input failed.
    #[error("cannot read the input: {0}")]
    Io(#[from] std::io::Error),
    /// A gzip stream that is corrupt or cut short.
    #[error("gzip input is corrupt or truncated: {0}")]
    Gzip(String),
    /// A charset label no browser knows.
    #[error("unknown charset {0:?}")]
    UnknownCharset(String),
    /// An algorithm name that is not one of [`crate::Method::ALL`].
    #[error("unknown algorithm {0:?} (the algorithms are: {names})", names = crate::Method::names().join(", "))]
    UnknownAlgorithm(String),
    /// A malformed or unknown algorithm parameter.
    #[error("bad parameter {name:?}: {reason}")]
    BadParam {
        /// The parameter's name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A trained model that cannot be read, or training that cannot run.
    #[error("model: {0}")]
    Model(String),
    /// The template library (SQLite) cannot be opened, read or written,
    /// or this build has no template support (cargo feature `templates`).
    #[error("template library: {0}")]
    Templates(String),
    /// An option of [`crate::Options`] that makes no sense.
    #[error("bad option: {0}")]
    BadOption(String),
    /// A CSS selector of [`crate::Options::exclude`] or
    /// [`crate::Options::include`] that does not parse.
    #[error("bad CSS selector {selector:?}: {reason}")]
    BadSelector {
        /// The selector as given.
        selector: String,
        /// What is wrong with it.
        reason: String,
    },
}
