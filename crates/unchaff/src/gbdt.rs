//! Gradient-boosted decision trees for binary classification: the model
//! behind the default extractor (`auto`).
//!
//! Logistic loss, second-order (Newton) leaf values, depth-wise trees over
//! histogram-binned features, row subsampling per tree; the classic recipe
//! of Friedman (2001) with the regularised gain of XGBoost (Chen & Guestrin,
//! KDD 2016). Written here, like the SVM of [`crate::svm`], because the
//! model must be embedded in the binary as a small versioned file, predict
//! without allocating, and train deterministically from one command; the
//! trainer is ~250 lines.
//!
//! Prediction reads raw feature values (`x <= threshold` goes left), so a
//! saved model needs no binning tables.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::svm::SplitMix;

/// Version of the saved model format; a file with another version is
/// refused rather than misread.
pub const MODEL_VERSION: u32 = 1;

/// Feature index of a leaf node.
const LEAF: u16 = u16::MAX;

/// Most histogram bins per feature (bin numbers fit a `u8`).
pub const MAX_BINS: usize = 256;

/// Deepest tree trained: 2^13 nodes at most, so that every child offset
/// fits the 16 bits of a [`Forest`] node.
pub const MAX_DEPTH: usize = 12;

/// Values sampled per feature to place the bin edges: enough for stable
/// quantiles, far fewer than the rows of a full training set.
const EDGE_SAMPLE: usize = 100_000;

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
        let json = std::fs::read_to_string(path)
            .map_err(|e| Error::Model(format!("{}: {e}", path.display())))?;
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

fn json<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Training parameters.
#[derive(Clone, Debug)]
pub struct TrainParams {
    /// Number of trees.
    pub trees: usize,
    /// Depth of each tree (leaves = 2^depth at most).
    pub depth: usize,
    /// Shrinkage of each tree's values.
    pub learning_rate: f32,
    /// L2 penalty on leaf values (XGBoost's λ).
    pub lambda: f32,
    /// Least total hessian (weighted p(1-p)) a child may have.
    pub min_child_weight: f32,
    /// Share of rows each tree is grown on.
    pub subsample: f32,
    /// Seed of the row subsampling.
    pub seed: u64,
}

impl Default for TrainParams {
    fn default() -> Self {
        TrainParams {
            trees: 200,
            depth: 6,
            learning_rate: 0.1,
            lambda: 1.0,
            min_child_weight: 1.0,
            subsample: 0.5,
            seed: 1,
        }
    }
}

/// Bin edges of one feature: bin `b` holds values in
/// `(edges[b-1], edges[b]]`, the last bin everything above.
fn bin_edges(values: &mut Vec<f32>) -> Vec<f32> {
    values.retain(|v| v.is_finite());
    values.sort_by(f32::total_cmp);
    values.dedup();
    if values.len() <= MAX_BINS {
        // Few distinct values: one bin each (the last bin is open).
        let n = values.len().saturating_sub(1);
        return values[..n].to_vec();
    }
    let mut edges: Vec<f32> = (1..MAX_BINS)
        .map(|k| values[k * values.len() / MAX_BINS])
        .collect();
    edges.dedup();
    edges
}

fn bin_of(edges: &[f32], v: f32) -> u8 {
    edges.partition_point(|&e| e < v) as u8
}

/// Trains a model on `n` rows of `names.len()` features (row-major `x`),
/// labels `y` and row weights `w`.
pub fn train(
    x: &[f32],
    y: &[bool],
    w: &[f32],
    names: &[&str],
    p: &TrainParams,
) -> Result<Model, Error> {
    let d = names.len();
    let n = y.len();
    if n == 0 || d == 0 || x.len() != n * d || w.len() != n {
        return Err(Error::Model(
            "training data: no rows, or inconsistent sizes".into(),
        ));
    }
    if d >= LEAF as usize || p.depth == 0 || p.depth > MAX_DEPTH {
        return Err(Error::Model("training parameters out of range".into()));
    }
    // Bin every feature (column-major bins, one byte a value).
    let mut rng = SplitMix(p.seed);
    let stride = (n / EDGE_SAMPLE).max(1);
    let mut edges = Vec::with_capacity(d);
    let mut bins = vec![0u8; n * d];
    for f in 0..d {
        let mut sample: Vec<f32> = (0..n).step_by(stride).map(|r| x[r * d + f]).collect();
        let e = bin_edges(&mut sample);
        for r in 0..n {
            bins[f * n + r] = bin_of(&e, x[r * d + f]);
        }
        edges.push(e);
    }
    let (sw, sp) = y.iter().zip(w).fold((0.0f64, 0.0f64), |(a, b), (&l, &wi)| {
        (a + wi as f64, b + if l { wi as f64 } else { 0.0 })
    });
    let rate = (sp / sw.max(1e-12)).clamp(1e-6, 1.0 - 1e-6);
    let base = (rate / (1.0 - rate)).ln() as f32;
    let mut margin = vec![base; n];
    let mut g = vec![0f32; n];
    let mut h = vec![0f32; n];
    let mut trees = Vec::with_capacity(p.trees);
    for _ in 0..p.trees {
        for r in 0..n {
            let pr = 1.0 / (1.0 + (-margin[r]).exp());
            let t = if y[r] { 1.0 } else { 0.0 };
            g[r] = w[r] * (pr - t);
            h[r] = w[r] * (pr * (1.0 - pr)).max(1e-6);
        }
        let rows: Vec<u32> = (0..n as u32)
            .filter(|_| rng.next_f64() < p.subsample as f64)
            .collect();
        let tree = grow(&bins, n, d, &edges, &g, &h, rows, p);
        for r in 0..n {
            let mut i = 0usize;
            loop {
                let nd = &tree.nodes[i];
                if nd.feature == LEAF {
                    margin[r] += nd.value;
                    break;
                }
                i = if bins[nd.feature as usize * n + r] <= nd.bin {
                    nd.left as usize
                } else {
                    nd.left as usize + 1
                };
            }
        }
        trees.push(
            tree.nodes
                .iter()
                .map(|t| Node(t.feature, t.threshold, t.left, t.value))
                .collect(),
        );
    }
    Ok(Model {
        version: MODEL_VERSION,
        features: names.iter().map(|s| (*s).to_owned()).collect(),
        base,
        trees,
        trained_on: String::new(),
    })
}

/// A node while growing: split on a bin, or a leaf.
struct GrowNode {
    feature: u16,
    bin: u8,
    threshold: f32,
    left: u32,
    value: f32,
}

struct Grown {
    nodes: Vec<GrowNode>,
}

/// Grows one tree depth-first over `rows`.
#[allow(clippy::too_many_arguments)]
fn grow(
    bins: &[u8],
    n: usize,
    d: usize,
    edges: &[Vec<f32>],
    g: &[f32],
    h: &[f32],
    rows: Vec<u32>,
    p: &TrainParams,
) -> Grown {
    let mut nodes = vec![GrowNode {
        feature: LEAF,
        bin: 0,
        threshold: 0.0,
        left: 0,
        value: 0.0,
    }];
    // (node index, rows, depth)
    let mut work = vec![(0usize, rows, 0usize)];
    while let Some((at, rows, depth)) = work.pop() {
        let (gs, hs) = rows.iter().fold((0f64, 0f64), |(a, b), &r| {
            (a + g[r as usize] as f64, b + h[r as usize] as f64)
        });
        let lambda = p.lambda as f64;
        nodes[at].value = (-gs / (hs + lambda)) as f32 * p.learning_rate;
        if depth >= p.depth || rows.len() < 2 {
            continue;
        }
        let parent_score = gs * gs / (hs + lambda);
        let min_child = p.min_child_weight as f64;
        // Each feature's best split, features in parallel; ties go to the
        // lower feature and bin, so the tree never depends on scheduling.
        let best = (0..d)
            .into_par_iter()
            .filter_map(|f| {
                let nb = edges[f].len() + 1;
                if nb < 2 {
                    return None;
                }
                let mut hist = [(0f64, 0f64); MAX_BINS];
                let col = &bins[f * n..(f + 1) * n];
                for &r in &rows {
                    let b = &mut hist[col[r as usize] as usize];
                    b.0 += g[r as usize] as f64;
                    b.1 += h[r as usize] as f64;
                }
                let (mut gl, mut hl) = (0f64, 0f64);
                let mut best: Option<(f64, usize, usize)> = None;
                for (b, &(gb, hb)) in hist[..nb - 1].iter().enumerate() {
                    gl += gb;
                    hl += hb;
                    let (gr, hr) = (gs - gl, hs - hl);
                    if hl < min_child || hr < min_child {
                        continue;
                    }
                    let gain = gl * gl / (hl + lambda) + gr * gr / (hr + lambda) - parent_score;
                    if gain > 1e-9 && best.is_none_or(|(bg, _, _)| gain > bg) {
                        best = Some((gain, f, b));
                    }
                }
                best
            })
            .reduce_with(|a, b| {
                if b.0 > a.0 || (b.0 == a.0 && (b.1, b.2) < (a.1, a.2)) {
                    b
                } else {
                    a
                }
            });
        let Some((_, f, b)) = best else { continue };
        let col = &bins[f * n..(f + 1) * n];
        let (lrows, rrows): (Vec<u32>, Vec<u32>) =
            rows.iter().partition(|&&r| col[r as usize] as usize <= b);
        let left = nodes.len();
        for _ in 0..2 {
            nodes.push(GrowNode {
                feature: LEAF,
                bin: 0,
                threshold: 0.0,
                left: 0,
                value: 0.0,
            });
        }
        let node = &mut nodes[at];
        node.feature = f as u16;
        node.bin = b as u8;
        node.threshold = edges[f][b];
        node.left = left as u32;
        work.push((left + 1, rrows, depth + 1));
        work.push((left, lrows, depth + 1));
    }
    Grown { nodes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_split_by_hand() {
        // Four rows, one feature; y = x > 1.5. Unit weights, base rate 0.5
        // → base margin 0, p = 0.5, g = ±0.5, h = 0.25 each. One tree of
        // depth 1, λ = 0, η = 1: the split at x ≤ 1 (bins {1}, {2}) has
        // G_L = 1, H_L = 0.5 → leaf −2; G_R = −1 → leaf +2.
        let x = [1.0, 1.0, 2.0, 2.0];
        let y = [false, false, true, true];
        let w = [1.0; 4];
        let p = TrainParams {
            trees: 1,
            depth: 1,
            learning_rate: 1.0,
            lambda: 0.0,
            min_child_weight: 0.0,
            subsample: 1.0,
            seed: 1,
        };
        let m = train(&x, &y, &w, &["x"], &p).unwrap();
        assert_eq!(m.base, 0.0);
        assert_eq!(m.trees[0][0], Node(0, 1.0, 1, 0.0));
        assert!((m.margin(&[1.0]) + 2.0).abs() < 1e-6);
        assert!((m.margin(&[2.0]) - 2.0).abs() < 1e-6);
        // Other values go by the threshold: x ≤ 1 left, above right.
        assert!(m.margin(&[0.5]) < 0.0 && m.margin(&[1.4]) > 0.0);
    }

    #[test]
    fn learns_a_non_linear_boundary_and_round_trips() {
        // XOR of two features: no single split separates it, depth 2 does.
        let mut rng = SplitMix(3);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for _ in 0..2000 {
            let (a, b) = (rng.next_f64() as f32, rng.next_f64() as f32);
            x.extend([a, b]);
            y.push((a > 0.5) != (b > 0.5));
        }
        let w = vec![1.0; y.len()];
        let p = TrainParams {
            trees: 30,
            depth: 2,
            ..TrainParams::default()
        };
        let m = train(&x, &y, &w, &["a", "b"], &p).unwrap();
        let right = (0..y.len())
            .filter(|&i| (m.probability(&x[2 * i..2 * i + 2]) > 0.5) == y[i])
            .count();
        assert!(right as f64 / y.len() as f64 > 0.97, "{right}");
        let back = Model::from_json(&m.to_json()).unwrap();
        assert_eq!(back, m);
        let forest = Forest::new(&m);
        for i in 0..y.len() {
            let xi = &x[2 * i..2 * i + 2];
            assert_eq!(forest.margin(xi), m.margin(xi));
        }
    }

    #[test]
    fn rejects_bad_models_and_data() {
        assert!(Model::from_json("{}").is_err());
        let bad = r#"{"version":1,"features":["a"],"base":0,"trained_on":"",
            "trees":[[[3,0.5,1,0],[65535,0,0,1],[65535,0,0,-1]]]}"#;
        assert!(Model::from_json(bad).is_err(), "feature 3 of 1");
        let p = TrainParams::default();
        assert!(train(&[], &[], &[], &["a"], &p).is_err());
        assert!(train(&[1.0], &[true, false], &[1.0, 1.0], &["a"], &p).is_err());
    }
}
