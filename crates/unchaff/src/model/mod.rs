//! The trained models the algorithms run at inference: gradient-boosted
//! trees ([`gbdt`], behind `auto`) and an RBF-kernel SVM ([`svm`], behind
//! `template-svm`). Reading a saved model and predicting needs nothing
//! else; fitting them lives in `train` (cargo feature `train`).
//!
//! **Unstable:** public only with the `unstable` feature, for the tools
//! of the unchaff workspace (evaluation, training, explanation); may
//! change in any release. See the crate docs' *Stability*.

pub mod gbdt;
pub mod svm;
