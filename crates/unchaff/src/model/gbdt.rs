//! Gradient-boosted decision trees for binary classification: the model
//! behind the default extractor (`auto`).
//!
//! Logistic loss, second-order (Newton) leaf values, depth-wise trees over
//! histogram-binned features, row subsampling per tree; the classic recipe
//! of Friedman (2001) with the regularised gain of XGBoost (Chen & Guestrin,
//! KDD 2016). Written here, like the SVM of [`crate::model::svm`], because the
//! model must be embedded in the binary as a small versioned file, predict
//! without allocating, and train deterministically from one command; the
//! trainer is ~250 lines.
//!
//! Prediction reads raw feature values (`x <= threshold` goes left), so a
//! saved model needs no binning tables.

use serde::{Deserialize, Serialize};

use crate::Error;

/// Version of the saved model format; a file with another version is
/// refused rather than misread.
pub const MODEL_VERSION: u32 = 1;

/// Feature index of a leaf node.
pub const LEAF: u16 = u16::MAX;

/// Most histogram bins per feature (bin numbers fit a `u8`).
pub const MAX_BINS: usize = 256;

/// Deepest tree trained: 2^13 nodes at most, so that every child offset
/// fits the 16 bits of a [`Forest`] node.
pub const MAX_DEPTH: usize = 12;

/// One tree node, saved as a JSON array `[feature, threshold, left, value]`.
/// Internal nodes send `x[feature] <= threshold` to `left`, the rest to
/// `left + 1`; leaves have `feature = 65535` and add `value` to the margin.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node(pub u16, pub f32, pub u32, pub f32);

/// A trained model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// Format version ([`MODEL_VERSION`]).
    pub version: u32,
    /// The feature names, in input order: a model only accepts inputs
    /// built with the same list.
    pub features: Vec<String>,
    /// The margin before any tree (log-odds of the weighted base rate).
    pub base: f32,
    /// The trees, each a flat node list, root first.
    pub trees: Vec<Vec<Node>>,
    /// What the model was trained on and with which parameters.
    pub trained_on: String,
}

impl Model {
    /// The margin (log-odds of "content") of one input.
    pub fn margin(&self, x: &[f32]) -> f32 {
        let mut s = self.base;
        for t in &self.trees {
            let mut i = 0usize;
            while let Some(&Node(f, thr, left, value)) = t.get(i) {
                if f == LEAF {
                    s += value;
                    break;
                }
                let v = x.get(f as usize).copied().unwrap_or(0.0);
                i = if v <= thr {
                    left as usize
                } else {
                    left as usize + 1
                };
            }
        }
        s
    }

    /// The probability of "content": the logistic of [`Model::margin`].
    pub fn probability(&self, x: &[f32]) -> f32 {
        1.0 / (1.0 + (-self.margin(x)).exp())
    }

    /// Why the model gives `x` its margin: the margin split into a bias
    /// and one contribution per feature, in the manner of Saabas
    /// ("Interpreting random forests", 2014). Along each tree's decision
    /// path, the change in node value from a node to the child the input
    /// goes to is credited to the node's split feature; the root's value
    /// goes to the bias. Every node holds the Newton value of its training
    /// rows (the trainer stores it for internal nodes too), so the leaf
    /// value is the root's plus the changes, and `bias + Σ contributions`
    /// is [`Model::margin`] (to rounding). For explanation only: the
    /// extraction path uses [`Forest`], which this does not touch.
    pub fn contributions(&self, x: &[f32]) -> Contributions {
        let mut c = Contributions {
            bias: self.base,
            features: vec![0.0; self.features.len()],
        };
        for t in &self.trees {
            let Some(root) = t.first() else { continue };
            c.bias += root.3;
            let mut i = 0usize;
            while let Some(&Node(f, thr, left, value)) = t.get(i) {
                if f == LEAF {
                    break;
                }
                let v = x.get(f as usize).copied().unwrap_or(0.0);
                let next = if v <= thr {
                    left as usize
                } else {
                    left as usize + 1
                };
                let Some(child) = t.get(next) else { break };
                if let Some(slot) = c.features.get_mut(f as usize) {
                    *slot += child.3 - value;
                }
                i = next;
            }
        }
        c
    }

    /// How many splits use each feature, over all trees (a rough
    /// importance), by feature index.
    pub fn split_counts(&self) -> Vec<usize> {
        let mut c = vec![0; self.features.len()];
        for t in &self.trees {
            for n in t {
                if n.0 != LEAF
                    && let Some(x) = c.get_mut(n.0 as usize)
                {
                    *x += 1;
                }
            }
        }
        c
    }

    /// Parses a saved model, checking its version and structure.
    pub fn from_json(json: &str) -> Result<Model, Error> {
        let m: Model =
            serde_json::from_str(json).map_err(|e| Error::Model(format!("not a model: {e}")))?;
        m.check()?;
        Ok(m)
    }

    /// Checks the version and that every node is well-formed (features
    /// in range, children after their parent and inside the tree).
    pub fn check(&self) -> Result<(), Error> {
        if self.version != MODEL_VERSION {
            return Err(Error::Model(format!(
                "model format version {} (this build reads {MODEL_VERSION})",
                self.version
            )));
        }
        for t in &self.trees {
            if t.len() >= u16::MAX as usize {
                return Err(Error::Model("tree too large".into()));
            }
            for (i, n) in t.iter().enumerate() {
                let bad_feature = n.0 != LEAF && n.0 as usize >= self.features.len();
                let bad_child = n.0 != LEAF && n.2 as usize + 1 >= t.len();
                // Prediction walks forward only (see Forest).
                let backwards = n.0 != LEAF && (n.2 as usize) <= i;
                if bad_feature || bad_child || backwards || !n.1.is_finite() || !n.3.is_finite() {
                    return Err(Error::Model("malformed tree node".into()));
                }
            }
        }
        Ok(())
    }

    /// Reads a saved model from a file.
    pub fn load(path: &std::path::Path) -> Result<Model, Error> {
        let json = crate::limits::read_model_file(path)?;
        Model::from_json(&json)
    }

    /// The model as JSON, one tree a line.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\n");
        let head = |k: &str, v: String| format!("  \"{k}\": {v},\n");
        out += &head("version", self.version.to_string());
        out += &head("features", json(&self.features));
        out += &head("base", json(&self.base));
        out += &head("trained_on", json(&self.trained_on));
        out += "  \"trees\": [\n";
        for (i, t) in self.trees.iter().enumerate() {
            out += "    ";
            out += &json(t);
            out += if i + 1 < self.trees.len() {
                ",\n"
            } else {
                "\n"
            };
        }
        out += "  ]\n}";
        out
    }
}

/// A margin split into a bias and per-feature contributions
/// ([`Model::contributions`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Contributions {
    /// The base margin plus every tree's root value: the margin of an
    /// input about which no split said anything.
    pub bias: f32,
    /// What each feature (by index) moved the margin by, summed over the
    /// trees' decision paths; positive pushes towards "content".
    pub features: Vec<f32>,
}

impl Contributions {
    /// The margin they add up to.
    pub fn margin(&self) -> f32 {
        self.bias + self.features.iter().sum::<f32>()
    }

    /// The feature indices by how much they moved the margin (largest
    /// absolute contribution first), at most `n` of them, zeros left out.
    pub fn top(&self, n: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.features.len())
            .filter(|&i| self.features[i] != 0.0)
            .collect();
        order.sort_by(|&a, &b| {
            self.features[b]
                .abs()
                .total_cmp(&self.features[a].abs())
                .then(a.cmp(&b))
        });
        order.truncate(n);
        order
    }
}

/// Trees summed between two early-exit checks ([`Forest::margin_early`]).
pub const CHECK_EVERY: usize = 10;

/// A model laid out for prediction: every node in 8 bytes, all trees in
/// one array, so that the trees of a large model stay in cache while a
/// page's blocks go through them.
#[derive(Clone, Debug, Default)]
pub struct Forest {
    base: f32,
    /// (feature or [`LEAF`], left child as an offset from the node,
    /// threshold or leaf value).
    nodes: Vec<(u16, u16, f32)>,
    roots: Vec<u32>,
}

impl Forest {
    /// Lays `m` out for prediction.
    pub fn new(m: &Model) -> Forest {
        let mut f = Forest {
            base: m.base,
            ..Forest::default()
        };
        for t in &m.trees {
            let root = f.nodes.len();
            f.roots.push(root as u32);
            for (i, &Node(feat, thr, left, value)) in t.iter().enumerate() {
                if feat == LEAF {
                    f.nodes.push((LEAF, 0, value));
                } else {
                    // Children follow their parent (train and from_json
                    // guarantee left > i within the tree's bounds).
                    let off = (left as usize).saturating_sub(i).min(u16::MAX as usize - 1);
                    f.nodes.push((feat, off as u16, thr));
                }
            }
        }
        f
    }

    /// The margin of one input, as [`Model::margin`].
    #[inline]
    pub fn margin(&self, x: &[f32]) -> f32 {
        self.margin_early(x, 0.0, f32::INFINITY)
    }

    /// The margin of one input, summing the trees in groups of
    /// [`CHECK_EVERY`] and stopping after a group when the margin lies
    /// more than `exit` from `cut`: later trees only refine a decision
    /// that is already clear (boosting's trees shrink as they go). With
    /// `exit` = ∞ this is the full margin.
    #[inline]
    pub fn margin_early(&self, x: &[f32], cut: f32, exit: f32) -> f32 {
        let mut s = self.base;
        for (t, &r) in self.roots.iter().enumerate() {
            if t > 0 && t % CHECK_EVERY == 0 && (s - cut).abs() > exit {
                break;
            }
            let mut i = r as usize;
            while let Some(&(feat, off, v)) = self.nodes.get(i) {
                if feat == LEAF {
                    s += v;
                    break;
                }
                let xv = x.get(feat as usize).copied().unwrap_or(0.0);
                i += off as usize + usize::from(xv > v);
            }
        }
        s
    }

    /// The probability of "content" of one input.
    #[inline]
    pub fn probability(&self, x: &[f32]) -> f32 {
        1.0 / (1.0 + (-self.margin(x)).exp())
    }
}

pub(crate) fn json<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contributions_split_a_hand_made_tree() {
        let m = Model {
            version: MODEL_VERSION,
            features: vec!["a".into(), "b".into()],
            base: 0.25,
            trees: vec![vec![
                Node(1, 0.5, 1, 0.1),
                Node(LEAF, 0.0, 0, -0.3),
                Node(LEAF, 0.0, 0, 0.5),
            ]],
            trained_on: String::new(),
        };
        let c = m.contributions(&[0.0, 1.0]);
        assert_eq!(c.bias, 0.25 + 0.1);
        assert_eq!(c.features, vec![0.0, 0.5 - 0.1]);
        assert!((c.margin() - m.margin(&[0.0, 1.0])).abs() < 1e-6);
        assert_eq!(c.top(5), vec![1]);
    }

    #[test]
    fn contributions_add_up_to_the_margin_of_the_shipped_model() {
        let auto = crate::algorithms::auto::AutoModel::from_json(
            crate::algorithms::auto::DEFAULT_MODEL_JSON,
        )
        .unwrap();
        let m = &auto.blocks;
        // A few deterministic inputs spread over typical feature ranges.
        for k in 0..20u32 {
            let x: Vec<f32> = (0..m.features.len())
                .map(|i| ((i as u32 * 7 + k * 13) % 17) as f32 / 4.0)
                .collect();
            let c = m.contributions(&x);
            assert!(
                (c.margin() - m.margin(&x)).abs() < 1e-3,
                "{} vs {}",
                c.margin(),
                m.margin(&x)
            );
            // The explanation path is the prediction path.
            assert!((Forest::new(m).margin(&x) - m.margin(&x)).abs() < 1e-4);
        }
    }
}
