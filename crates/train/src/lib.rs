//! Training unchaff's models: fitting (gradient-boosted trees, the SVM,
//! path clustering's k-means), labelling blocks from gold text, and the
//! drivers of `unchaff train` and `unchaff templates learn` over dataset
//! folders (folder weighting, seeds, the SVM's grid search, leave one
//! folder out).
//!
//! * [`gbdt`] — gradient-boosted trees (`auto`'s two stages);
//! * [`svm`] — the SMO solver and cross-validation (`template-svm`);
//! * [`auto`], [`path_clustering`], [`template_svm`] — each algorithm's
//!   samples and trainer;
//! * [`drivers`] — the runs over dataset folders that the command line
//!   starts (it prints what they return);
//! * `templates` (cargo feature `templates`) — learning a site template
//!   library from dataset folders.
//!
//! Everything here is deterministic: the same data and seed give the same
//! model, byte for byte. The models are read back by the `unchaff` core,
//! whose internals this crate reaches through its `unstable` feature.

#![deny(missing_docs)]

pub mod auto;
pub mod drivers;
pub mod gbdt;
pub mod path_clustering;
pub mod svm;
pub mod template_svm;
#[cfg(feature = "templates")]
pub mod templates;

/// Errors of a training run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Reading a dataset folder failed.
    #[error(transparent)]
    Data(#[from] unchaff_eval::EvalError),
    /// Preparing a page, fitting or a template library failed.
    #[error(transparent)]
    Core(#[from] unchaff::Error),
    /// Reading a page file or writing a model failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Settings that cannot train (an unknown folder to leave out, …).
    #[error("{0}")]
    Settings(String),
}

/// SplitMix64: a small deterministic generator for shuffles and tests.
#[derive(Clone, Debug)]
pub struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Shuffles `v` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}
