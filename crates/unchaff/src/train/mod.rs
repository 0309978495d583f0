//! Training: fitting the models that the algorithms load at inference
//! (cargo feature `train`, which the `unchaff` command line turns on).
//!
//! **Unstable:** public only with the `unstable` feature, for the tools
//! of the unchaff workspace (evaluation, training, explanation); may
//! change in any release. See the crate docs' *Stability*.
//!
//! * [`gbdt`] — gradient-boosted trees for `auto`;
//! * [`svm`] — the SMO solver and cross-validation for `template-svm`;
//! * the algorithms' own trainers, beside them: `algorithms::auto::train`,
//!   `algorithms::path_clustering::train` (k-means by linfa),
//!   `algorithms::template_svm::samples`.
//!
//! Everything here is deterministic: the same data and seed give the same
//! model, byte for byte.

pub mod gbdt;
pub mod svm;

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
