//! The training runs of `unchaff train` over dataset folders: each reads
//! the pages (in parallel, on the current rayon pool), labels them from
//! their gold, fits, and returns the model with what the run found; the
//! command line writes the model and prints the figures ([`explain_auto`],
//! [`explain_path_clustering`] format the `--explain` listings).
//!
//! Pages that fail to read or prepare are told to the [`Progress`] as
//! messages and left out; a folder's pages keep their manifest order,
//! whatever the threads, so a run is deterministic.

use std::fmt::Write as _;
use std::ops::Range;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use unchaff::algorithms::auto::{AutoModel, context, features};
use unchaff::algorithms::path_clustering::{self as pc, Model as PathModel};
use unchaff::algorithms::template_svm::{FEATURES, Sample};
use unchaff::model::svm::Model as SvmModel;
use unchaff_eval::Progress;
use unchaff_eval::dataset::{Dataset, fold_of};

use crate::{Error, SplitMix, auto, gbdt, path_clustering, svm, template_svm};

/// `auto`'s block stage's early exit, saved with the model (the default
/// of `unchaff train auto --block-exit`).
pub use unchaff::algorithms::auto::BLOCK_EXIT_MARGIN;

/// C values of the SVM's grid search (`unchaff train svm`).
pub const SVM_GRID_C: [f64; 3] = [1.0, 10.0, 100.0];
/// γ values of the grid search: the features lie in [0, 1], so γ from 0.1
/// (nearly linear) to 100 (a few hundredths wide).
pub const SVM_GRID_GAMMA: [f64; 4] = [0.1, 1.0, 10.0, 100.0];
/// Seed of the SVM's undersampling and fold shuffles.
pub const SVM_SEED: u64 = 5;
/// Most samples (balanced) the final SVM is trained on; more gives more
/// support vectors (slower extraction) for little accuracy.
pub const SVM_MAX_SAMPLES: usize = 3000;
/// Most samples (balanced) the SVM's grid search cross-validates on.
pub const SVM_CV_SAMPLES: usize = 1500;
/// Folds of the SVM's cross-validation.
pub const SVM_FOLDS: usize = 10;

/// Seed of `auto`'s row subsampling (the context stage uses seed + 1).
pub const AUTO_SEED: u64 = 7;
/// Trees of `auto`'s block stage.
pub const AUTO_TREES: usize = 80;
/// Depth of the block stage's trees.
pub const AUTO_DEPTH: usize = 6;
/// Shrinkage of each tree's values, both stages.
pub const AUTO_LEARNING_RATE: f32 = 0.2;
/// Folder weighting: each page weighs (its folder's pages)^-P; at 0.5 a
/// folder weighs sqrt(pages) in all, so large folders count more but the
/// small ones (scrapinghub, chinese-wce) do not vanish.
pub const AUTO_FOLDER_WEIGHT: f32 = 0.5;
/// The least total weight (hessian) of blocks a leaf may hold; block
/// weights are scaled to mean 1, so this reads in blocks.
pub const AUTO_MIN_CHILD_WEIGHT: f32 = 1.0;
/// L2 penalty on leaf values, both stages.
pub const AUTO_LAMBDA: f32 = 1.0;
/// Share of blocks each tree is grown on, both stages.
pub const AUTO_SUBSAMPLE: f32 = 0.5;
/// Trees of the context stage.
pub const AUTO_CONTEXT_TREES: usize = 60;
/// Depth of the context stage's trees (3: held out by folder, 5 and 2
/// scored lower).
pub const AUTO_CONTEXT_DEPTH: usize = 3;

/// Reads every page of `dirs` with gold through `read` in parallel, each
/// folder in turn, telling `progress`; a page's error becomes a message.
/// Returns each folder's name and its pages' results in manifest order.
fn read_folders<T: Send>(
    dirs: &[PathBuf],
    progress: &dyn Progress,
    mut keep: impl FnMut(&mut Dataset) -> bool,
    read: impl Fn(&Dataset, &unchaff_eval::PageEntry) -> Result<Option<T>, String> + Sync,
) -> Result<Vec<(String, usize, Vec<T>)>, Error> {
    let mut out = Vec::new();
    for dir in dirs {
        let mut ds = Dataset::open(dir)?;
        if !keep(&mut ds) {
            continue;
        }
        progress.start(&ds.name, ds.pages.len());
        let done: Vec<Result<Option<T>, String>> = ds
            .pages
            .par_iter()
            .map(|p| {
                let r = read(&ds, p);
                progress.advance();
                r
            })
            .collect();
        progress.finish();
        let mut items = Vec::new();
        for r in done {
            match r {
                Ok(Some(x)) => items.push(x),
                Ok(None) => {}
                Err(e) => progress.message(&e),
            }
        }
        out.push((ds.name, ds.pages.len(), items));
    }
    Ok(out)
}

/// The settings of `unchaff train svm`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SvmConfig {
    /// See [`SVM_MAX_SAMPLES`].
    pub max_samples: usize,
    /// See [`SVM_CV_SAMPLES`].
    pub cv_samples: usize,
    /// See [`SVM_FOLDS`].
    pub folds: usize,
}

impl Default for SvmConfig {
    fn default() -> SvmConfig {
        SvmConfig {
            max_samples: SVM_MAX_SAMPLES,
            cv_samples: SVM_CV_SAMPLES,
            folds: SVM_FOLDS,
        }
    }
}

/// One point of the grid search and its cross-validated score.
#[derive(Clone, Copy, Debug)]
pub struct GridPoint {
    /// The box constraint.
    pub c: f64,
    /// The kernel width.
    pub gamma: f64,
    /// Its score.
    pub score: svm::CvScore,
}

/// What `train svm` found.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SvmRun {
    /// The balanced samples the grid search used.
    pub cv_samples: usize,
    /// Every grid point, C-major.
    pub grid: Vec<GridPoint>,
    /// The point of the best accuracy (the first of equals).
    pub chosen: GridPoint,
    /// The final model.
    pub model: SvmModel,
    /// The samples it was trained on.
    pub samples: usize,
    /// Its solver's statistics.
    pub stats: svm::TrainStats,
    /// How long the final fit took.
    pub fit_time: Duration,
}

/// Takes up to `n` samples, half from each class where possible, in a
/// seeded random order.
fn balanced_sample(
    pos: &[[f64; FEATURES]],
    neg: &[[f64; FEATURES]],
    n: usize,
    seed: u64,
) -> (Vec<f64>, Vec<bool>) {
    let mut rng = SplitMix(seed);
    let half = pos.len().min(neg.len()).min(n / 2);
    let (mut p, mut q): (Vec<usize>, Vec<usize>) =
        ((0..pos.len()).collect(), (0..neg.len()).collect());
    rng.shuffle(&mut p);
    rng.shuffle(&mut q);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for k in 0..half {
        x.extend_from_slice(&pos[p[k]]);
        y.push(true);
        x.extend_from_slice(&neg[q[k]]);
        y.push(false);
    }
    (x, y)
}

/// Trains `template-svm`'s classifier on the pages of `dirs`: the block
/// samples of every page with gold, a grid search over
/// [`SVM_GRID_C`] × [`SVM_GRID_GAMMA`] by cross-validation on a balanced
/// sample, then the final fit at the best point.
pub fn train_svm(
    dirs: &[PathBuf],
    config: &SvmConfig,
    progress: &dyn Progress,
) -> Result<SvmRun, Error> {
    let read = |ds: &Dataset, p: &unchaff_eval::PageEntry| {
        let gold = match ds.read_gold(p).map_err(|e| e.to_string())? {
            Some(g) => g,
            None => return Ok(Some(Vec::new())),
        };
        let bytes = ds.read_page_bytes(p).map_err(|e| e.to_string())?;
        template_svm::samples_from_bytes(&bytes, &gold)
            .map(Some)
            .map_err(|e| format!("{}/{}: {e}", ds.name, p.id))
    };
    let folders = read_folders(dirs, progress, |_| true, read)?;
    let (mut pos, mut neg, mut names, mut pages) = (Vec::new(), Vec::new(), Vec::new(), 0usize);
    for (name, _, samples) in folders {
        for s in samples {
            pages += 1;
            for (f, l) in s as Vec<Sample> {
                if l { pos.push(f) } else { neg.push(f) }
            }
        }
        names.push(name);
    }
    let total = pos.len() + neg.len();
    progress.message(&format!(
        "{pages} pages, {total} blocks with text: {} content ({:.1}%), {} noise",
        pos.len(),
        100.0 * pos.len() as f64 / total.max(1) as f64,
        neg.len()
    ));
    let (cx, cy) = balanced_sample(&pos, &neg, config.cv_samples, SVM_SEED);
    let mut grid = Vec::new();
    let mut best: Option<GridPoint> = None;
    for &c in &SVM_GRID_C {
        for &gamma in &SVM_GRID_GAMMA {
            let p = svm::TrainParams {
                c,
                gamma,
                ..svm::TrainParams::default()
            };
            let score = svm::cross_validate(&cx, FEATURES, &cy, &p, config.folds, SVM_SEED)?;
            let point = GridPoint { c, gamma, score };
            grid.push(point);
            if best.is_none_or(|b| score.accuracy > b.score.accuracy) {
                best = Some(point);
            }
        }
    }
    let chosen = best.ok_or_else(|| Error::Settings("empty grid".to_owned()))?;
    let (x, y) = balanced_sample(&pos, &neg, config.max_samples, SVM_SEED + 1);
    let p = svm::TrainParams {
        c: chosen.c,
        gamma: chosen.gamma,
        ..svm::TrainParams::default()
    };
    let t = Instant::now();
    let (mut model, stats) = svm::train(&x, FEATURES, &y, &p)?;
    model.trained_on = format!(
        "{} ({pages} pages; {} balanced samples of {total} blocks)",
        names.join(", "),
        y.len()
    );
    Ok(SvmRun {
        cv_samples: cy.len(),
        grid,
        chosen,
        model,
        samples: y.len(),
        stats,
        fit_time: t.elapsed(),
    })
}

/// The settings of `unchaff train auto`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct AutoConfig {
    /// See [`AUTO_TREES`].
    pub trees: usize,
    /// See [`AUTO_DEPTH`].
    pub depth: usize,
    /// See [`AUTO_LEARNING_RATE`].
    pub learning_rate: f32,
    /// See [`BLOCK_EXIT_MARGIN`].
    pub block_exit: f32,
    /// See [`AUTO_FOLDER_WEIGHT`].
    pub folder_weight: f32,
    /// See [`AUTO_MIN_CHILD_WEIGHT`].
    pub min_child_weight: f32,
    /// See [`AUTO_LAMBDA`].
    pub lambda: f32,
    /// See [`AUTO_SUBSAMPLE`].
    pub subsample: f32,
    /// See [`AUTO_CONTEXT_TREES`].
    pub context_trees: usize,
    /// See [`AUTO_CONTEXT_DEPTH`].
    pub context_depth: usize,
    /// See [`AUTO_SEED`].
    pub seed: u64,
    /// Leave out the pages of fold `k` of `n` (by page id, as `eval
    /// --fold`).
    pub exclude_fold: Option<(u32, u32)>,
    /// Leave out these dataset folders (by name).
    pub exclude_folders: Vec<String>,
}

impl Default for AutoConfig {
    fn default() -> AutoConfig {
        AutoConfig {
            trees: AUTO_TREES,
            depth: AUTO_DEPTH,
            learning_rate: AUTO_LEARNING_RATE,
            block_exit: BLOCK_EXIT_MARGIN,
            folder_weight: AUTO_FOLDER_WEIGHT,
            min_child_weight: AUTO_MIN_CHILD_WEIGHT,
            lambda: AUTO_LAMBDA,
            subsample: AUTO_SUBSAMPLE,
            context_trees: AUTO_CONTEXT_TREES,
            context_depth: AUTO_CONTEXT_DEPTH,
            seed: AUTO_SEED,
            exclude_fold: None,
            exclude_folders: Vec::new(),
        }
    }
}

/// `auto`'s training pages, read once for one model or for each left-out
/// folder.
#[derive(Debug, Default)]
pub struct AutoPages {
    /// Every labelled page, folder after folder.
    pub pages: Vec<auto::TrainPage>,
    /// Each folder's name and its pages' range in `pages`.
    pub folders: Vec<(String, Range<usize>)>,
}

/// Reads and labels the pages of `dirs` for `auto`, weighting each by its
/// folder's size (see [`AUTO_FOLDER_WEIGHT`]) and leaving out what
/// `config` excludes. Every folder `named` (those to exclude or to hold
/// out) must be among `dirs`.
pub fn read_auto_pages(
    dirs: &[PathBuf],
    config: &AutoConfig,
    named: &[String],
    progress: &dyn Progress,
) -> Result<AutoPages, Error> {
    for x in config.exclude_folders.iter().chain(named) {
        if !dirs
            .iter()
            .any(|d| d.file_name().is_some_and(|n| n == x.as_str()))
        {
            return Err(Error::Settings(format!("{x:?}: no such dataset folder")));
        }
    }
    let keep = |ds: &mut Dataset| {
        if config.exclude_folders.contains(&ds.name) {
            return false;
        }
        if let Some((k, n)) = config.exclude_fold {
            ds.pages.retain(|p| fold_of(&p.id, n) != k);
        }
        true
    };
    let read = |ds: &Dataset, p: &unchaff_eval::PageEntry| {
        let gold = match ds.read_gold(p).map_err(|e| e.to_string())? {
            Some(g) => g,
            None => return Ok(None),
        };
        let bytes = ds.read_page_bytes(p).map_err(|e| e.to_string())?;
        let samples = auto::samples_from_bytes(&bytes, &gold)
            .map_err(|e| format!("{}/{}: {e}", ds.name, p.id))?;
        Ok((!samples.is_empty()).then(|| (p.id.clone(), samples)))
    };
    let mut out = AutoPages::default();
    for (name, count, samples) in read_folders(dirs, progress, keep, read)? {
        // Every page of a folder weighs pages^-p, so the folder weighs
        // pages^(1-p) in all.
        let n = count.max(1) as f32;
        // 1/sqrt exactly at the default: the shipped model was trained so,
        // and boosting turns an ulp's difference in a weight into other
        // trees (`powf(-0.5)` rounds differently).
        let weight = if config.folder_weight == 0.5 {
            1.0 / n.sqrt()
        } else {
            n.powf(-config.folder_weight)
        };
        let first = out.pages.len();
        for (id, samples) in samples {
            out.pages.push(auto::TrainPage {
                samples,
                weight,
                // The stacking halves: a hash of the id other than the one
                // `exclude_fold` splits by.
                half: fold_of(&format!("{id}#half"), 2),
            });
        }
        out.folders.push((name, first..out.pages.len()));
    }
    Ok(out)
}

/// Trains `auto` on `pages` (from the folders `names`) with `config`'s
/// parameters; the model says what it was trained on.
pub fn fit_auto(
    pages: &[auto::TrainPage],
    names: &[&str],
    config: &AutoConfig,
    progress: &dyn Progress,
) -> Result<AutoModel, Error> {
    let (blocks, content) = pages.iter().fold((0usize, 0usize), |(n, c), p| {
        let l = &p.samples.labels;
        (
            n + l.iter().filter(|x| x.is_some()).count(),
            c + l.iter().filter(|x| **x == Some(true)).count(),
        )
    });
    progress.message(&format!(
        "{} pages, {blocks} blocks with text: {content} content ({:.1}%)",
        pages.len(),
        100.0 * content as f64 / blocks.max(1) as f64,
    ));
    let p1 = gbdt::TrainParams {
        trees: config.trees,
        depth: config.depth,
        learning_rate: config.learning_rate,
        lambda: config.lambda,
        min_child_weight: config.min_child_weight,
        subsample: config.subsample,
        seed: config.seed,
    };
    let p2 = gbdt::TrainParams {
        trees: config.context_trees,
        depth: config.context_depth,
        seed: config.seed.wrapping_add(1),
        ..p1.clone()
    };
    let mut model = auto::train(pages, &p1, &p2, config.block_exit)?;
    let fold = config
        .exclude_fold
        .map_or(String::new(), |(k, n)| format!(", fold {k}/{n} left out"));
    let what = format!(
        "{} ({} pages, {blocks} blocks{fold})",
        names.join(", "),
        pages.len()
    );
    for (m, p) in [(&mut model.blocks, &p1), (&mut model.context, &p2)] {
        m.trained_on = format!(
            "{what}; {} trees of depth {}, learning rate {}, subsample {}, min child weight {}, lambda {}, seed {}",
            p.trees, p.depth, p.learning_rate, p.subsample, p.min_child_weight, p.lambda, p.seed
        );
    }
    Ok(model)
}

/// Leave-one-folder-out: for each folder of `data` (or only those in
/// `only`, when not empty), trains on the other folders and hands the
/// model to `done` with the folder's name. Each model is the one
/// `exclude_folders = [folder]` would train, byte for byte: the held-out
/// pages are taken out and put back in place, so the others keep their
/// order.
pub fn lofo(
    data: &mut AutoPages,
    config: &AutoConfig,
    only: &[String],
    progress: &dyn Progress,
    mut done: impl FnMut(&str, AutoModel) -> Result<(), Error>,
) -> Result<(), Error> {
    for (i, (name, range)) in data.folders.iter().enumerate() {
        if !only.is_empty() && !only.contains(name) {
            continue;
        }
        let held: Vec<auto::TrainPage> = data.pages.drain(range.clone()).collect();
        let names: Vec<&str> = data
            .folders
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, f)| f.0.as_str())
            .collect();
        let r = fit_auto(&data.pages, &names, config, progress);
        data.pages.splice(range.start..range.start, held);
        done(name, r?)?;
    }
    Ok(())
}

/// `train auto --explain`: each stage's features by the number of splits
/// on them, most first.
pub fn explain_auto(model: &AutoModel) -> String {
    let mut o = String::new();
    for (stage, m, names) in [
        ("block", &model.blocks, features::NAMES),
        ("context", &model.context, context::NAMES),
    ] {
        let counts = m.split_counts();
        let mut order: Vec<usize> = (0..counts.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(counts[i]));
        let _ = writeln!(o, "{stage} stage, splits per feature:");
        for i in order {
            let _ = writeln!(o, "  {:6}  {}", counts[i], names[i]);
        }
    }
    o
}

/// Trains `path-clustering` on the pages of `dirs` (`per_site`: each
/// site's template too). Returns the model and what it was trained on.
pub fn train_path_clustering(
    dirs: &[PathBuf],
    per_site: bool,
    progress: &dyn Progress,
) -> Result<(PathModel, String), Error> {
    let read = |ds: &Dataset, p: &unchaff_eval::PageEntry| {
        let site = p.url.clone().or_else(|| p.field("site"));
        let bytes = ds.read_page_bytes(p).map_err(|e| e.to_string())?;
        path_clustering::summarize(&bytes, site.as_deref())
            .map(Some)
            .map_err(|e| format!("{}/{}: {e}", ds.name, p.id))
    };
    let (mut summaries, mut names) = (Vec::new(), Vec::new());
    for (name, _, s) in read_folders(dirs, progress, |_| true, read)? {
        summaries.extend(s);
        names.push(name);
    }
    let what = format!("{} ({} pages)", names.join(", "), summaries.len());
    let model = path_clustering::train(&summaries, per_site, &what)?;
    Ok((model, what))
}

/// `train path-clustering --explain`: the thresholds with the k-means
/// centres, and each site's template.
pub fn explain_path_clustering(model: &PathModel) -> String {
    let mut o = String::new();
    let c = model.centres.clone().unwrap_or_default();
    let _ = writeln!(
        o,
        "Length_Threshold    {:10.3}  (k-means centres {:.3} and {:.3})",
        model.length_threshold, c.length[0], c.length[1]
    );
    let _ = writeln!(
        o,
        "Cn_Threshold        {:10.3}  (k-means centres {:.3} and {:.3})",
        model.cn_threshold, c.cn[0], c.cn[1]
    );
    let _ = writeln!(
        o,
        "Frequency_Threshold {:10.3}  (mean over all sites; each site uses its own mean)",
        model.frequency_threshold
    );
    for (site, keys) in &model.sites {
        let _ = writeln!(
            o,
            "site {site}  (threshold {:.2})",
            pc::site_threshold(keys)
        );
        for (k, f) in keys {
            let _ = writeln!(o, "  {f:4}  {k}");
        }
    }
    o
}
