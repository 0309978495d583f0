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

/// Deepest tree that [`Forest`] lays out complete ([`Complete`]): a
/// tree of depth 8 takes 256 leaves (2.3 kB), and the shipped models'
/// trees are of depth 6 (blocks) and 3 (context). Deeper trees keep the
/// node-list layout.
pub const COMPLETE_MAX_DEPTH: u32 = 8;

/// Most features a [`Complete`] layout reads: its split features are
/// bytes, and an input is read from a zero-padded copy of this many
/// values, so that no feature read needs a bounds check.
pub const COMPLETE_MAX_FEATURES: usize = 256;

/// A model laid out for prediction, all trees in one array, so that the
/// trees of a large model stay in cache while a page's blocks go through
/// them. When every tree is at most [`COMPLETE_MAX_DEPTH`] deep and the
/// model reads at most [`COMPLETE_MAX_FEATURES`] features, each tree is
/// laid out complete ([`Complete`]): a fixed number of branch-free steps
/// from the root to a leaf; otherwise as a list of 8-byte nodes.
#[derive(Clone, Debug)]
pub struct Forest {
    base: f32,
    layout: Layout,
}

impl Default for Forest {
    fn default() -> Forest {
        Forest {
            base: 0.0,
            layout: Layout::Nodes {
                nodes: Vec::new(),
                roots: Vec::new(),
            },
        }
    }
}

/// One tree laid out complete, `W` = 2^depth leaves: split `i` (heap
/// order, root 0) sends `x[feature[i]] > threshold[i]` to `2i + 2` and
/// the rest to `2i + 1`, and leaf `j` is node `W - 1 + j`. A leaf of the
/// model shallower than the depth is repeated under splits that then
/// lead to copies of it whichever way they go (feature 0, threshold 0),
/// so the leaf reached and its value are the model's.
#[derive(Clone, Debug)]
pub struct Complete<const W: usize> {
    /// The split feature of each split node (`W - 1` of them; the last
    /// entry is padding).
    feature: [u8; W],
    /// The threshold of each split node.
    threshold: [f32; W],
    /// The leaf values, left to right.
    leaf: [f32; W],
}

impl<const W: usize> Complete<W> {
    /// Lays out tree `t` of a checked model whose depth is at most
    /// log2(`W`); `None` when it is deeper or malformed.
    fn new(t: &[Node]) -> Option<Complete<W>> {
        let mut c = Complete {
            feature: [0; W],
            threshold: [0.0; W],
            leaf: [0.0; W],
        };
        // The model node at each node of the complete tree, parents
        // first (children of heap node i are 2i + 1 and 2i + 2).
        let mut at = vec![0usize; 2 * W - 1];
        for h in 0..2 * W - 1 {
            let Node(f, thr, left, value) = *t.get(at[h])?;
            if h >= W - 1 {
                if f != LEAF {
                    return None;
                }
                c.leaf[h - (W - 1)] = value;
            } else if f == LEAF {
                // A leaf above the last level: both children repeat it.
                at[2 * h + 1] = at[h];
                at[2 * h + 2] = at[h];
            } else {
                c.feature[h] = u8::try_from(f).ok()?;
                c.threshold[h] = thr;
                at[2 * h + 1] = left as usize;
                at[2 * h + 2] = left as usize + 1;
            }
        }
        Some(c)
    }

    /// The value of the leaf `x` reaches: log2(`W`) steps, each one
    /// comparison and no branch (`% W` keeps every index in bounds
    /// without a check: `W` is a power of two).
    #[inline(always)]
    fn leaf(&self, x: &[f32; COMPLETE_MAX_FEATURES]) -> f32 {
        let mut i = 0usize;
        for _ in 0..W.trailing_zeros() {
            let f = self.feature[i % W] as usize;
            i = 2 * i + 1 + usize::from(x[f] > self.threshold[i % W]);
        }
        self.leaf[i.wrapping_sub(W - 1) % W]
    }
}

/// How a [`Forest`] holds its trees.
#[derive(Clone, Debug)]
enum Layout {
    /// Any trees: (feature or [`LEAF`], left child as an offset from the
    /// node, threshold or leaf value), and each tree's root.
    Nodes {
        nodes: Vec<(u16, u16, f32)>,
        roots: Vec<u32>,
    },
    /// Complete trees of depth 1 to [`COMPLETE_MAX_DEPTH`].
    D1(Vec<Complete<2>>),
    /// See [`Layout::D1`].
    D2(Vec<Complete<4>>),
    /// See [`Layout::D1`].
    D3(Vec<Complete<8>>),
    /// See [`Layout::D1`].
    D4(Vec<Complete<16>>),
    /// See [`Layout::D1`].
    D5(Vec<Complete<32>>),
    /// See [`Layout::D1`].
    D6(Vec<Complete<64>>),
    /// See [`Layout::D1`].
    D7(Vec<Complete<128>>),
    /// See [`Layout::D1`].
    D8(Vec<Complete<256>>),
}

/// Every tree of `m` laid out complete with `W` leaves, or `None`.
fn complete<const W: usize>(m: &Model) -> Option<Vec<Complete<W>>> {
    m.trees.iter().map(|t| Complete::new(t)).collect()
}

/// The depth of tree `t` (0 for a lone leaf), reading children after
/// their parents as [`Model::check`] guarantees; `None` otherwise.
fn depth(t: &[Node]) -> Option<u32> {
    let mut d = vec![0u32; t.len()];
    let mut deepest = 0;
    for (i, &Node(f, _, left, _)) in t.iter().enumerate() {
        deepest = deepest.max(d[i]);
        if f != LEAF {
            let l = left as usize;
            if l <= i || l + 1 >= t.len() {
                return None;
            }
            d[l] = d[i] + 1;
            d[l + 1] = d[i] + 1;
        }
    }
    Some(deepest)
}

/// The sum of the leaves `x` reaches in `trees`, added to `s` tree by
/// tree in order, in groups of [`CHECK_EVERY`] with the early exit of
/// [`Forest::margin_early`] between groups.
#[inline(always)]
fn sum_complete<const W: usize>(
    trees: &[Complete<W>],
    x: &[f32; COMPLETE_MAX_FEATURES],
    mut s: f32,
    cut: f32,
    exit: f32,
) -> f32 {
    for (g, group) in trees.chunks(CHECK_EVERY).enumerate() {
        if g > 0 && (s - cut).abs() > exit {
            break;
        }
        for t in group {
            s += t.leaf(x);
        }
    }
    s
}

/// `x` padded with zeros (or cut) to [`COMPLETE_MAX_FEATURES`] values:
/// a feature missing from `x` reads as 0, as in the node layout.
#[inline(always)]
fn padded(x: &[f32]) -> [f32; COMPLETE_MAX_FEATURES] {
    let mut p = [0f32; COMPLETE_MAX_FEATURES];
    let n = x.len().min(COMPLETE_MAX_FEATURES);
    p[..n].copy_from_slice(&x[..n]);
    p
}

/// [`sum_complete`] over the node layout.
#[inline(always)]
fn sum_nodes(
    nodes: &[(u16, u16, f32)],
    roots: &[u32],
    x: &[f32],
    mut s: f32,
    cut: f32,
    exit: f32,
) -> f32 {
    for (t, &r) in roots.iter().enumerate() {
        if t > 0 && t % CHECK_EVERY == 0 && (s - cut).abs() > exit {
            break;
        }
        let mut i = r as usize;
        while let Some(&(feat, off, v)) = nodes.get(i) {
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

impl Forest {
    /// Lays `m` out for prediction.
    pub fn new(m: &Model) -> Forest {
        let layout = Forest::complete_layout(m).unwrap_or_else(|| Forest::node_layout(m));
        Forest {
            base: m.base,
            layout,
        }
    }

    /// The complete layout of `m`, when its trees and features allow.
    fn complete_layout(m: &Model) -> Option<Layout> {
        if m.features.len() > COMPLETE_MAX_FEATURES {
            return None;
        }
        let mut deepest = 0;
        for t in &m.trees {
            deepest = deepest.max(depth(t)?);
        }
        Some(match deepest {
            1 => Layout::D1(complete(m)?),
            2 => Layout::D2(complete(m)?),
            3 => Layout::D3(complete(m)?),
            4 => Layout::D4(complete(m)?),
            5 => Layout::D5(complete(m)?),
            6 => Layout::D6(complete(m)?),
            7 => Layout::D7(complete(m)?),
            8 => Layout::D8(complete(m)?),
            _ => return None,
        })
    }

    /// The node-list layout of `m`.
    fn node_layout(m: &Model) -> Layout {
        let mut nodes = Vec::new();
        let mut roots = Vec::new();
        for t in &m.trees {
            let root = nodes.len();
            roots.push(root as u32);
            for (i, &Node(feat, thr, left, value)) in t.iter().enumerate() {
                if feat == LEAF {
                    nodes.push((LEAF, 0, value));
                } else {
                    // Children follow their parent (train and from_json
                    // guarantee left > i within the tree's bounds).
                    let off = (left as usize).saturating_sub(i).min(u16::MAX as usize - 1);
                    nodes.push((feat, off as u16, thr));
                }
            }
        }
        Layout::Nodes { nodes, roots }
    }

    /// Whether the trees are laid out complete (branch-free steps).
    pub fn is_complete(&self) -> bool {
        !matches!(self.layout, Layout::Nodes { .. })
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
    /// `exit` = ∞ this is the full margin. A feature missing from `x`
    /// reads as 0. Whatever the layout, the same leaves are added in the
    /// same order, so the margin is the same to the bit.
    pub fn margin_early(&self, x: &[f32], cut: f32, exit: f32) -> f32 {
        match &self.layout {
            Layout::Nodes { nodes, roots } => sum_nodes(nodes, roots, x, self.base, cut, exit),
            _ => self.sum_padded(&padded(x), cut, exit),
        }
    }

    /// [`Forest::margin_early`] of each row, in order. A complete layout
    /// reads the rows from one zero-padded buffer that each row
    /// overwrites (only what the previous row set beyond it is cleared
    /// again), not a fresh padded copy a row.
    pub fn margins_early<R: AsRef<[f32]>>(&self, rows: &[R], cut: f32, exit: f32) -> Vec<f32> {
        if !self.is_complete() {
            return (rows.iter())
                .map(|r| self.margin_early(r.as_ref(), cut, exit))
                .collect();
        }
        let mut padded = [0f32; COMPLETE_MAX_FEATURES];
        let mut set = 0;
        (rows.iter())
            .map(|r| {
                let x = r.as_ref();
                let n = x.len().min(COMPLETE_MAX_FEATURES);
                padded[..n].copy_from_slice(&x[..n]);
                if let Some(stale) = padded.get_mut(n..set) {
                    stale.fill(0.0);
                }
                set = n;
                self.sum_padded(&padded, cut, exit)
            })
            .collect()
    }

    /// The early-exit margin of a padded input ([`padded`]) over a
    /// complete layout (the base for the node layout, which
    /// [`Forest::margin_early`] reads instead).
    #[inline]
    fn sum_padded(&self, x: &[f32; COMPLETE_MAX_FEATURES], cut: f32, exit: f32) -> f32 {
        let s = self.base;
        match &self.layout {
            Layout::Nodes { .. } => s,
            Layout::D1(t) => sum_complete(t, x, s, cut, exit),
            Layout::D2(t) => sum_complete(t, x, s, cut, exit),
            Layout::D3(t) => sum_complete(t, x, s, cut, exit),
            Layout::D4(t) => sum_complete(t, x, s, cut, exit),
            Layout::D5(t) => sum_complete(t, x, s, cut, exit),
            Layout::D6(t) => sum_complete(t, x, s, cut, exit),
            Layout::D7(t) => sum_complete(t, x, s, cut, exit),
            Layout::D8(t) => sum_complete(t, x, s, cut, exit),
        }
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

    /// A deterministic tree of `depth` whose leaves stop early on some
    /// branches (so the complete layout pads them), over `nf` features.
    fn ragged_tree(depth: u32, nf: u16, seed: u32) -> Vec<Node> {
        // Breadth-first: each entry (node index, its depth).
        let mut t = vec![Node(LEAF, 0.0, 0, 0.0)];
        let mut open = vec![(0usize, 0u32)];
        let mut k = seed;
        let mut next = || {
            k = k.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            k >> 8
        };
        while !open.is_empty() {
            let mut below = Vec::new();
            for (i, d) in open {
                let r = next();
                // The root always splits; a node at depth 1 or more
                // splits three times in four, down to `depth`.
                if d < depth && (d == 0 || r % 4 != 0) {
                    let left = t.len() as u32;
                    t[i] = Node((r % nf as u32) as u16, (r % 7) as f32 - 3.0, left, 0.0);
                    t.push(Node(LEAF, 0.0, 0, 0.0));
                    t.push(Node(LEAF, 0.0, 0, 0.0));
                    below.push((left as usize, d + 1));
                    below.push((left as usize + 1, d + 1));
                } else {
                    t[i] = Node(LEAF, 0.0, 0, (r % 1000) as f32 / 997.0 - 0.5);
                }
            }
            open = below;
        }
        t
    }

    #[test]
    fn the_complete_layout_adds_the_same_leaves_to_the_bit() {
        for depth in 1..=COMPLETE_MAX_DEPTH + 1 {
            let nf = 5;
            let m = Model {
                version: MODEL_VERSION,
                features: (0..nf).map(|i| format!("f{i}")).collect(),
                base: 0.125,
                trees: (0..23).map(|t| ragged_tree(depth, nf, t * 31 + depth)).collect(),
                trained_on: String::new(),
            };
            m.check().unwrap();
            let complete = Forest::new(&m);
            let nodes = Forest {
                base: m.base,
                layout: Forest::node_layout(&m),
            };
            assert_eq!(complete.is_complete(), depth <= COMPLETE_MAX_DEPTH);
            for k in 0..200u32 {
                let mut x: Vec<f32> = (0..nf as u32)
                    .map(|i| ((i * 5 + k * 3) % 9) as f32 - 4.0)
                    .collect();
                // Missing features read as 0; NaN goes left in both.
                match k % 5 {
                    0 => x.truncate(2),
                    1 => x[1] = f32::NAN,
                    _ => {}
                }
                for (cut, exit) in [(0.0, f32::INFINITY), (0.0, 0.3), (0.4, 0.1)] {
                    let a = complete.margin_early(&x, cut, exit);
                    let b = nodes.margin_early(&x, cut, exit);
                    assert_eq!(a.to_bits(), b.to_bits(), "depth {depth}, input {k}");
                }
                if k % 5 != 1 {
                    assert_eq!(complete.margin(&x).to_bits(), m.margin(&x).to_bits());
                }
            }
        }
    }

    #[test]
    fn margins_of_many_rows_are_each_rows_margin() {
        let m = Model {
            version: MODEL_VERSION,
            features: (0..6).map(|i| format!("f{i}")).collect(),
            base: -0.25,
            trees: (0..17).map(|t| ragged_tree(3, 6, t * 7 + 1)).collect(),
            trained_on: String::new(),
        };
        // Rows of varying length: a short row after a long one reads the
        // long one's values as zeros.
        let rows: Vec<Vec<f32>> = (0..40usize)
            .map(|k| {
                (0..k % 7)
                    .map(|i| ((i * 5 + k * 3) % 9) as f32 - 4.0)
                    .collect()
            })
            .collect();
        let nodes = Forest {
            base: m.base,
            layout: Forest::node_layout(&m),
        };
        for f in [Forest::new(&m), nodes] {
            let all = f.margins_early(&rows, 0.1, 0.5);
            let each: Vec<f32> = rows.iter().map(|r| f.margin_early(r, 0.1, 0.5)).collect();
            assert_eq!(
                all.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                each.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn the_shipped_models_are_laid_out_complete() {
        let auto = crate::algorithms::auto::AutoModel::from_json(
            crate::algorithms::auto::DEFAULT_MODEL_JSON,
        )
        .unwrap();
        for m in [&auto.blocks, &auto.context] {
            let f = Forest::new(m);
            assert!(f.is_complete());
            let nodes = Forest {
                base: m.base,
                layout: Forest::node_layout(m),
            };
            for k in 0..50u32 {
                let x: Vec<f32> = (0..m.features.len() as u32)
                    .map(|i| ((i * 7 + k * 13) % 17) as f32 / 4.0)
                    .collect();
                let (a, b) = (f.margin_early(&x, 0.0, 2.0), nodes.margin_early(&x, 0.0, 2.0));
                assert_eq!(a.to_bits(), b.to_bits());
            }
        }
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
