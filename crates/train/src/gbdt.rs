//! Training of the gradient-boosted trees of [`unchaff::model::gbdt`]:
//! logistic loss, Newton leaf values, depth-wise trees over
//! histogram-binned features, row subsampling per tree.

use rayon::prelude::*;

use unchaff::Error;
use unchaff::model::gbdt::*;

use crate::SplitMix;

/// Values sampled per feature to place the bin edges: enough for stable
/// quantiles, far fewer than the rows of a full training set.
const EDGE_SAMPLE: usize = 100_000;

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
    let finite_positive = |v: f32| v.is_finite() && v > 0.0;
    let finite_non_negative = |v: f32| v.is_finite() && v >= 0.0;
    if d >= LEAF as usize
        || p.depth == 0
        || p.depth > MAX_DEPTH
        || !(finite_positive(p.subsample) && p.subsample <= 1.0)
        || !finite_positive(p.learning_rate)
        || !finite_non_negative(p.lambda)
        || !finite_non_negative(p.min_child_weight)
    {
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

/// The gradient and hessian sums of one node's rows in every bin of every
/// feature: feature `f`'s bins are `[f * MAX_BINS, (f + 1) * MAX_BINS)`.
type Histograms = Vec<(f64, f64)>;

/// Builds the histograms of `rows`, features in parallel. The rows'
/// gradients and hessians are gathered once into one contiguous array, so
/// that each feature's pass reads them in order (with `g` and `h` read by
/// row number for each of ~70 features, the gathers dominated training).
fn histograms(bins: &[u8], n: usize, d: usize, g: &[f32], h: &[f32], rows: &[u32]) -> Histograms {
    let gh: Vec<(f32, f32)> = rows
        .iter()
        .map(|&r| (g[r as usize], h[r as usize]))
        .collect();
    let mut hist = vec![(0f64, 0f64); d * MAX_BINS];
    hist.par_chunks_mut(MAX_BINS)
        .enumerate()
        .for_each(|(f, hist)| {
            let col = &bins[f * n..(f + 1) * n];
            for (&r, &(gr, hr)) in rows.iter().zip(&gh) {
                let b = &mut hist[col[r as usize] as usize];
                b.0 += gr as f64;
                b.1 += hr as f64;
            }
        });
    hist
}

/// Grows one tree depth-first over `rows`. Each split builds the
/// histograms of its smaller child only and takes the larger child's as
/// the parent's minus the smaller's (histogram subtraction): the rows read
/// per level are at most half the node's, which halves the training time.
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
    let root = (p.depth > 0 && rows.len() >= 2).then(|| histograms(bins, n, d, g, h, &rows));
    // (node index, rows, depth, the rows' histograms when it may split)
    let mut work = vec![(0usize, rows, 0usize, root)];
    while let Some((at, rows, depth, hist)) = work.pop() {
        let (gs, hs) = rows.iter().fold((0f64, 0f64), |(a, b), &r| {
            (a + g[r as usize] as f64, b + h[r as usize] as f64)
        });
        let lambda = p.lambda as f64;
        nodes[at].value = (-gs / (hs + lambda)) as f32 * p.learning_rate;
        let Some(hist) = hist else { continue };
        let parent_score = gs * gs / (hs + lambda);
        let min_child = p.min_child_weight as f64;
        // Each feature's best split; ties go to the lower feature and bin,
        // so the tree never depends on the order of evaluation.
        let mut best: Option<(f64, usize, usize)> = None;
        for (f, e) in edges.iter().enumerate() {
            let nb = e.len() + 1;
            if nb < 2 {
                continue;
            }
            let (mut gl, mut hl) = (0f64, 0f64);
            for (b, &(gb, hb)) in hist[f * MAX_BINS..f * MAX_BINS + nb - 1].iter().enumerate() {
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
        }
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
        // The children's histograms, when they may split in turn.
        let (lh, rh) = if depth + 1 < p.depth {
            let small_is_left = lrows.len() <= rrows.len();
            let small = histograms(
                bins,
                n,
                d,
                g,
                h,
                if small_is_left { &lrows } else { &rrows },
            );
            let mut large = hist;
            for (l, s) in large.iter_mut().zip(&small) {
                l.0 -= s.0;
                l.1 -= s.1;
            }
            #[cfg(test)]
            {
                // The subtraction equals the larger child's own histograms,
                // but for rounding.
                let own = histograms(
                    bins,
                    n,
                    d,
                    g,
                    h,
                    if small_is_left { &rrows } else { &lrows },
                );
                for (a, b) in large.iter().zip(&own) {
                    assert!(
                        (a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6,
                        "{a:?} {b:?}"
                    );
                }
            }
            match small_is_left {
                true => (Some(small), Some(large)),
                false => (Some(large), Some(small)),
            }
        } else {
            (None, None)
        };
        let rh = rh.filter(|_| rrows.len() >= 2);
        let lh = lh.filter(|_| lrows.len() >= 2);
        work.push((left + 1, rrows, depth + 1, rh));
        work.push((left, lrows, depth + 1, lh));
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
    fn deep_trees_on_noisy_data() {
        // Depth 5 on many features: every split below the root takes its
        // larger child's histograms by subtraction (checked against the
        // child's own histograms inside `grow` in tests).
        let mut rng = SplitMix(11);
        let (mut x, mut y, mut w) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..3000 {
            let v: Vec<f32> = (0..6).map(|_| rng.next_f64() as f32).collect();
            let noise = rng.next_f64() < 0.1;
            y.push((v[0] + v[1] * v[2] > 0.6) != noise);
            w.push(0.5 + rng.next_f64() as f32);
            x.extend(v);
        }
        let p = TrainParams {
            trees: 20,
            depth: 5,
            ..TrainParams::default()
        };
        let m = train(&x, &y, &w, &["a", "b", "c", "d", "e", "f"], &p).unwrap();
        assert!(m.trees.iter().any(|t| t.len() > 15), "deep trees grew");
        let right = (0..y.len())
            .filter(|&i| (m.probability(&x[6 * i..6 * i + 6]) > 0.5) == y[i])
            .count();
        assert!(right as f64 / y.len() as f64 > 0.85, "{right}");
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
        let one = |q: TrainParams| train(&[1.0], &[true], &[1.0], &["a"], &q).is_err();
        assert!(!one(p.clone()));
        assert!(one(TrainParams {
            subsample: 0.0,
            ..p.clone()
        }));
        assert!(one(TrainParams {
            subsample: 1.5,
            ..p.clone()
        }));
        assert!(one(TrainParams {
            lambda: -1.0,
            ..p.clone()
        }));
        assert!(one(TrainParams {
            min_child_weight: f32::NAN,
            ..p.clone()
        }));
        assert!(one(TrainParams {
            learning_rate: 0.0,
            ..p
        }));
    }
}
