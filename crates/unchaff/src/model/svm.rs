//! A support vector machine with a Gaussian (RBF) kernel, at inference:
//! paper 5's block (ALGORITHMS.md#template-svm) classifier (ALGORITHMS.md#block-features-and-the-svm). f(x) = Σ coefᵢ K(svᵢ, x) − ρ
//! with K(x, z) = exp(−γ ‖x − z‖²). Training (SMO) is in `train::svm`
//! (feature `train`).
//!
//! The trained [`Model`] keeps only the support vectors and their
//! coefficients yᵢαᵢ; it is serde-serialisable with a format version.

use serde::{Deserialize, Serialize};

use crate::Error;

/// Format version of a serialised [`Model`].
pub const MODEL_VERSION: u32 = 1;

/// A trained classifier: f(x) = Σ coefᵢ K(svᵢ, x) − ρ; class 1 when
/// f(x) > 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// Format version, [`MODEL_VERSION`].
    pub version: u32,
    /// Kernel width γ.
    pub gamma: f64,
    /// The C it was trained with (informative).
    pub c: f64,
    /// The offset ρ.
    pub rho: f64,
    /// Number of features.
    pub dim: usize,
    /// Support vectors, `dim` numbers each, concatenated.
    pub support: Vec<f64>,
    /// yᵢαᵢ of each support vector.
    pub coef: Vec<f64>,
    /// What it was trained on (free text).
    #[serde(default)]
    pub trained_on: String,
}

/// The RBF kernel exp(−γ ‖a − b‖²) (training evaluates it too).
pub fn rbf(gamma: f64, a: &[f64], b: &[f64]) -> f64 {
    let mut d = 0.0;
    for (x, y) in a.iter().zip(b) {
        let t = x - y;
        d += t * t;
    }
    (-gamma * d).exp()
}

impl Model {
    /// Number of support vectors.
    pub fn support_count(&self) -> usize {
        self.coef.len()
    }

    /// The decision value f(x); class 1 when positive. `x` shorter or
    /// longer than [`Model::dim`] is compared on the common prefix.
    pub fn decision(&self, x: &[f64]) -> f64 {
        let mut s = 0.0;
        if self.dim == 0 {
            return -self.rho;
        }
        for (sv, &c) in self.support.chunks_exact(self.dim).zip(&self.coef) {
            s += c * rbf(self.gamma, sv, x);
        }
        s - self.rho
    }

    /// The class of `x`: true for class 1.
    pub fn predict(&self, x: &[f64]) -> bool {
        self.decision(x) > 0.0
    }

    /// Reads a model from JSON, checking its version and shape.
    pub fn from_json(json: &str) -> Result<Model, Error> {
        let m: Model = serde_json::from_str(json)
            .map_err(|e| Error::Model(format!("not an SVM model: {e}")))?;
        if m.version != MODEL_VERSION {
            return Err(Error::Model(format!(
                "SVM model version {} is not supported (this build reads version {MODEL_VERSION})",
                m.version
            )));
        }
        if m.support.len() != m.dim * m.coef.len() || !m.gamma.is_finite() || !m.rho.is_finite() {
            return Err(Error::Model("SVM model is malformed".to_owned()));
        }
        Ok(m)
    }

    /// Loads a model from a JSON file.
    pub fn load(path: &std::path::Path) -> Result<Model, Error> {
        let s = crate::limits::read_model_file(path)?;
        Model::from_json(&s).map_err(|e| match e {
            Error::Model(m) => Error::Model(format!("{}: {m}", path.display())),
            other => other,
        })
    }

    /// The model as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}
