//! `unchaff train` (cargo feature `train`): arguments to the settings of
//! `unchaff-train`'s runs, and their results printed. The training itself
//! is in that crate.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use unchaff_train::drivers::{self as d, AutoConfig, SvmConfig};

use crate::args::Bar;
use crate::{CliResult, dataset_dirs};

#[derive(Args)]
pub struct TrainArgs {
    /// The algorithm to train: auto (the default extractor's block classifier), path-clustering, or svm (template-svm's block classifier).
    #[arg(value_parser = ["auto", "path-clustering", "svm"])]
    pub algorithm: String,
    /// Dataset folders, or a directory holding them.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Also learn each site's extraction template (site: the manifest's url host or site field, else the page's canonical URL).
    #[arg(long)]
    pub per_site: bool,
    /// Where to write the model (required but with `train auto --lofo`).
    #[arg(long, value_name = "MODEL", required_unless_present = "lofo")]
    pub out: Option<PathBuf>,
    /// Print the thresholds, the k-means centres and the site templates.
    #[arg(long)]
    pub explain: bool,
    /// svm: most samples (balanced) the final model is trained on; more gives more support vectors.
    #[arg(long, value_name = "N", default_value_t = d::SVM_MAX_SAMPLES)]
    pub max_samples: usize,
    /// svm: most samples (balanced) the cross-validation grid search uses.
    #[arg(long, value_name = "N", default_value_t = d::SVM_CV_SAMPLES)]
    pub cv_samples: usize,
    /// svm: cross-validation folds.
    #[arg(long, default_value_t = d::SVM_FOLDS)]
    pub folds: usize,
    /// auto: trees of the block stage.
    #[arg(long, default_value_t = d::AUTO_TREES)]
    pub trees: usize,
    /// auto: depth of each tree.
    #[arg(long, default_value_t = d::AUTO_DEPTH)]
    pub depth: usize,
    /// auto: shrinkage of each tree's values.
    #[arg(long, default_value_t = d::AUTO_LEARNING_RATE)]
    pub learning_rate: f32,
    /// auto: early exit of the block stage (log-odds), saved with the model.
    #[arg(long, default_value_t = d::BLOCK_EXIT_MARGIN)]
    pub block_exit: f32,
    /// auto: each page weighs (its folder's pages)^-P: 0.5 gives a folder sqrt(pages) in all, 1 makes folders equal, 0 pages equal.
    #[arg(long, value_name = "P", default_value_t = d::AUTO_FOLDER_WEIGHT)]
    pub folder_weight: f32,
    /// auto: the least total weight (hessian) of blocks a leaf may hold, both stages; block weights are scaled to mean 1, so this reads in blocks.
    #[arg(long, value_name = "W", default_value_t = d::AUTO_MIN_CHILD_WEIGHT)]
    pub min_child_weight: f32,
    /// auto: L2 penalty on leaf values, both stages.
    #[arg(long, default_value_t = d::AUTO_LAMBDA)]
    pub lambda: f32,
    /// auto: share of blocks each tree is grown on, both stages.
    #[arg(long, default_value_t = d::AUTO_SUBSAMPLE)]
    pub subsample: f32,
    /// auto: trees of the context stage.
    #[arg(long, default_value_t = d::AUTO_CONTEXT_TREES)]
    pub context_trees: usize,
    /// auto: depth of the context stage's trees (the default held out by folder; 5 and 2 scored lower).
    #[arg(long, default_value_t = d::AUTO_CONTEXT_DEPTH)]
    pub context_depth: usize,
    /// auto: seed of the row subsampling (the context stage uses SEED + 1). Held out by folder the mean moves by about ±0.001 from seed to seed (docs/RESULTS.md), so compare recipes over a few seeds.
    #[arg(long, default_value_t = d::AUTO_SEED)]
    pub seed: u64,
    /// auto: leave out the pages of fold K of N (K/N, folds by page id as in `eval --fold`), to measure on them.
    #[arg(long, value_name = "K/N", value_parser = crate::args::parse_fold)]
    pub exclude_fold: Option<(u32, u32)>,
    /// auto: leave out the dataset folder NAME (repeatable), to measure on it (leave-one-folder-out).
    #[arg(long, value_name = "NAME")]
    pub exclude_folder: Vec<String>,
    /// auto: leave-one-folder-out in one run: read every folder's features once, then for each folder train on the others and write DIR/<folder>.json (the same model as `--exclude-folder <folder>`); `--out` is not written.
    #[arg(long, value_name = "DIR", conflicts_with = "exclude_folder")]
    pub lofo: Option<PathBuf>,
    /// auto: with --lofo, write only the held-out models of these folders (repeatable; default: every folder), for a quicker look at a few folders.
    #[arg(long, value_name = "NAME", requires = "lofo")]
    pub lofo_only: Vec<String>,
}

impl TrainArgs {
    /// `auto`'s settings from the flags.
    fn auto_config(&self) -> AutoConfig {
        let mut c = AutoConfig::default();
        c.trees = self.trees;
        c.depth = self.depth;
        c.learning_rate = self.learning_rate;
        c.block_exit = self.block_exit;
        c.folder_weight = self.folder_weight;
        c.min_child_weight = self.min_child_weight;
        c.lambda = self.lambda;
        c.subsample = self.subsample;
        c.context_trees = self.context_trees;
        c.context_depth = self.context_depth;
        c.seed = self.seed;
        c.exclude_fold = self.exclude_fold;
        c.exclude_folders = self.exclude_folder.clone();
        c
    }

    /// The model file (required but with `auto --lofo`).
    fn out(&self) -> Result<&Path, Box<dyn std::error::Error>> {
        self.out
            .as_deref()
            .ok_or_else(|| "--out is required".into())
    }
}

/// Writes a model file: its JSON and a newline.
fn write_model(path: &Path, json: String) -> CliResult {
    std::fs::write(path, json + "\n").map_err(|e| format!("{}: {e}", path.display()).into())
}

/// Runs `unchaff train`.
pub fn run(a: TrainArgs) -> CliResult {
    let start = Instant::now();
    let dirs = dataset_dirs(&a.data)?;
    let bar = Bar::new();
    match a.algorithm.as_str() {
        "svm" => {
            let mut c = SvmConfig::default();
            c.max_samples = a.max_samples;
            c.cv_samples = a.cv_samples;
            c.folds = a.folds;
            let r = d::train_svm(&dirs, &c, &bar)?;
            outln!(
                "{}-fold cross-validation on {} balanced samples",
                c.folds,
                r.cv_samples
            );
            outln!("| C | gamma | accuracy | F1 (content) |");
            outln!("|---|---|---|---|");
            for p in &r.grid {
                outln!(
                    "| {} | {} | {:.4} | {:.4} |",
                    p.c,
                    p.gamma,
                    p.score.accuracy,
                    p.score.f1
                );
            }
            let ch = r.chosen;
            outln!(
                "chosen: C = {}, gamma = {} (CV accuracy {:.4})",
                ch.c,
                ch.gamma,
                ch.score.accuracy
            );
            write_model(a.out()?, r.model.to_json())?;
            outln!(
                "final model: {} samples, {} support vectors, {} SMO iterations, {:.2} s",
                r.samples,
                r.model.support_count(),
                r.stats.iterations,
                r.fit_time.as_secs_f64()
            );
            eprintln!("trained in {:.1} s", start.elapsed().as_secs_f64());
        }
        "auto" => {
            let c = a.auto_config();
            let mut data = d::read_auto_pages(&dirs, &c, &a.lofo_only, &bar)?;
            eprintln!(
                "{} pages; features read in {:.1} s",
                data.pages.len(),
                start.elapsed().as_secs_f64()
            );
            let Some(dir) = &a.lofo else {
                let names: Vec<&str> = data.folders.iter().map(|f| f.0.as_str()).collect();
                let model = d::fit_auto(&data.pages, &names, &c, &bar)?;
                write_model(a.out()?, model.to_json())?;
                if a.explain {
                    out!("{}", d::explain_auto(&model));
                }
                eprintln!("trained in {:.1} s", start.elapsed().as_secs_f64());
                return Ok(());
            };
            std::fs::create_dir_all(dir)?;
            d::lofo(&mut data, &c, &a.lofo_only, &bar, |name, model| {
                let out = dir.join(format!("{name}.json"));
                let written = write_model(&out, model.to_json()).and_then(|()| {
                    if a.explain {
                        out!("{}", d::explain_auto(&model));
                    }
                    Ok(())
                });
                written.map_err(|e| unchaff_train::Error::Settings(e.to_string()))?;
                eprintln!(
                    "{name} left out: {} ({:.1} s)",
                    out.display(),
                    start.elapsed().as_secs_f64()
                );
                Ok(())
            })?;
        }
        _ => {
            let (model, what) = d::train_path_clustering(&dirs, a.per_site, &bar)?;
            write_model(a.out()?, model.to_json())?;
            eprintln!(
                "trained on {what} in {:.1} s",
                start.elapsed().as_secs_f64()
            );
            if a.explain {
                out!("{}", d::explain_path_clustering(&model));
            }
        }
    }
    Ok(())
}
