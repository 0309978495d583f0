//! Path clustering's model file: the trained thresholds and site
//! templates (ALGORITHMS.md#training-path-clustering). Training it is `train` (cargo feature `train`).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::DEFAULT_MODEL_JSON;
use crate::Error;

/// The model format's version; [`Model::from_json`] refuses any other.
pub const MODEL_VERSION: u32 = 1;

/// The two k-means centres of each feature, in the feature's own units
/// (expm1 of the centres found in log space), low first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Centres {
    /// Length centres.
    pub length: [f64; 2],
    /// Cn centres.
    pub cn: [f64; 2],
}

/// Path clustering's trained thresholds and site templates (JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// Format version, [`MODEL_VERSION`].
    pub version: u32,
    /// Length_Threshold.
    pub length_threshold: f64,
    /// Cn_Threshold.
    pub cn_threshold: f64,
    /// Mean of all observed chunk-key frequencies (0 without templates).
    pub frequency_threshold: f64,
    /// Site (host without `www.`) → chunk key (tag path) → frequency.
    #[serde(default)]
    pub sites: BTreeMap<String, BTreeMap<String, u32>>,
    /// What the model was trained on (folders, page count).
    #[serde(default)]
    pub trained_on: String,
    /// The k-means centres the thresholds came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub centres: Option<Centres>,
}

impl Model {
    /// The model shipped in the binary (trained on the development data).
    pub fn default_model() -> Model {
        // The embedded file is checked by a unit test; the fallback only
        // keeps a broken build from panicking.
        Model::from_json(DEFAULT_MODEL_JSON).unwrap_or(Model {
            version: MODEL_VERSION,
            length_threshold: 60.0,
            cn_threshold: 1.5,
            frequency_threshold: 0.0,
            sites: BTreeMap::new(),
            trained_on: "fallback".to_owned(),
            centres: None,
        })
    }

    /// Reads a model from JSON, checking its version and numbers.
    pub fn from_json(json: &str) -> Result<Model, Error> {
        let m: Model =
            serde_json::from_str(json).map_err(|e| Error::Model(format!("not a model: {e}")))?;
        if m.version != MODEL_VERSION {
            return Err(Error::Model(format!(
                "version {} is not supported (this build reads version {MODEL_VERSION})",
                m.version
            )));
        }
        if ![m.length_threshold, m.cn_threshold, m.frequency_threshold]
            .iter()
            .all(|x| x.is_finite())
        {
            return Err(Error::Model(
                "a threshold is not a finite number".to_owned(),
            ));
        }
        Ok(m)
    }

    /// Reads a model file.
    pub fn load(path: &Path) -> Result<Model, Error> {
        let text = crate::limits::read_model_file(path)?;
        Model::from_json(&text).map_err(|e| match e {
            Error::Model(m) => Error::Model(format!("{}: {m}", path.display())),
            other => other,
        })
    }

    /// The model as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}
