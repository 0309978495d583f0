//! The evaluation loop of `unchaff eval`: an extractor run over dataset
//! folders, each page's output scored against its gold, with the extras
//! the command offers (saved outputs, a comparison with a saved run,
//! leaf-level figures, per-page records, segment deduplication). It
//! returns the figures; the caller prints them ([`format_leaf_table`],
//! [`crate::report::format_table`], [`crate::report::format_comparison`]).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use unchaff::{Extraction, Extractor, Input};

use crate::dataset::{Dataset, Filter, fold_of};
use crate::leaves::{LeafCounts, inspection_counts};
use crate::report::{self, Comparison, FolderScores, Metric};
use crate::{EvalError, Progress};

/// Default of `eval --min-delta`: one point of shingle F1. Smaller moves are
/// mostly a few shingles at a block boundary, not a page gained or lost.
pub const DEFAULT_MIN_DELTA: f64 = 0.01;

/// What an evaluation run does beyond scoring every page.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct EvalConfig {
    /// Only pages every filter matches.
    pub filters: Vec<Filter>,
    /// Only the pages of cross-validation fold `k` of `n` ([`fold_of`]).
    pub fold: Option<(u32, u32)>,
    /// Write each page's output to `DIR/<folder>/<id>.txt`.
    pub save: Option<PathBuf>,
    /// Leaf-level precision, recall and F1 of each page with gold.
    pub leaf: bool,
    /// Compare with the outputs saved under this directory (by `save`).
    pub compare: Option<PathBuf>,
    /// A page's shingle F1 must move by more than this to be listed in a
    /// comparison ([`DEFAULT_MIN_DELTA`] by default).
    pub min_delta: f64,
    /// One record a page ([`EvalRun::pages`]): its F1, confidence and
    /// page type with their signals. The extractor must compute metadata.
    pub page_records: bool,
    /// Drop repeated segments as `batch --dedup N` does, each folder's
    /// pages taken in manifest order.
    pub dedup: Option<u32>,
}

impl EvalConfig {
    /// The defaults: every page, nothing beyond the scores.
    pub fn new() -> EvalConfig {
        EvalConfig {
            min_delta: DEFAULT_MIN_DELTA,
            ..EvalConfig::default()
        }
    }
}

/// A folder's name and its pages' leaf (precision, recall, F1).
pub type LeafRow = (String, Vec<(f64, f64, f64)>);

/// What an evaluation run found.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct EvalRun {
    /// The scores of each folder with pages, in the order given.
    pub rows: Vec<FolderScores>,
    /// With [`EvalConfig::leaf`]: each folder's pages' leaf figures.
    pub leaf_rows: Vec<LeafRow>,
    /// With [`EvalConfig::compare`]: each compared folder's moved pages.
    pub comparisons: Vec<Comparison>,
    /// With [`EvalConfig::page_records`]: one JSON object a page.
    pub pages: Vec<serde_json::Value>,
    /// Pages that failed to extract (scored as empty output).
    pub errors: usize,
}

/// Runs `extractor` over the dataset folders `dirs` and scores it. Pages
/// run in parallel on the current rayon pool; the results do not depend
/// on it. Page errors, folders without saved outputs and what `dedup`
/// dropped are told to `progress` as messages.
pub fn evaluate(
    extractor: &Extractor,
    dirs: &[PathBuf],
    config: &EvalConfig,
    progress: &dyn Progress,
) -> Result<EvalRun, EvalError> {
    let mut run = EvalRun::default();
    for dir in dirs {
        let mut ds = Dataset::open(dir)?;
        ds.pages
            .retain(|p| config.filters.iter().all(|f| f.matches(p)));
        if let Some((k, n)) = config.fold {
            ds.pages.retain(|p| fold_of(&p.id, n) == k);
        }
        if ds.pages.is_empty() {
            continue;
        }
        evaluate_folder(extractor, &ds, config, progress, &mut run)?;
    }
    Ok(run)
}

/// One page's output: its text, leaf counts (with gold and `leaf`), and
/// its record's extra fields.
type PageResult = Result<(String, Option<LeafCounts>, serde_json::Value), String>;

fn evaluate_folder(
    extractor: &Extractor,
    ds: &Dataset,
    config: &EvalConfig,
    progress: &dyn Progress,
    run: &mut EvalRun,
) -> Result<(), EvalError> {
    progress.start(&ds.name, ds.pages.len());
    let outputs: Vec<(String, PageResult)> = ds
        .pages
        .par_iter()
        .map(|p| {
            let r = extract_page(extractor, ds, p, config);
            progress.advance();
            (p.id.clone(), r)
        })
        .collect();
    progress.finish();
    let mut preds = HashMap::with_capacity(outputs.len());
    let mut leaf_pages = Vec::new();
    let mut infos = HashMap::new();
    for (id, r) in outputs {
        match r {
            Ok((t, leaves, info)) => {
                preds.insert(id.clone(), t);
                leaf_pages.extend(leaves.map(|c| c.prf()));
                infos.insert(id, info);
            }
            Err(e) => {
                run.errors += 1;
                progress.message(&format!("{}/{id}: {e}", ds.name));
                preds.insert(id, String::new());
            }
        }
    }
    // Read the baseline before `save` can overwrite it (same DIR).
    let baseline = match &config.compare {
        Some(base) => {
            let dir = base.join(&ds.name);
            if dir.is_dir() {
                Some(crate::outputs::load_text_dir(&dir)?)
            } else {
                progress.message(&format!(
                    "{}: no saved outputs, not compared",
                    dir.display()
                ));
                None
            }
        }
        None => None,
    };
    if let Some(save) = &config.save {
        crate::outputs::write_text_dir(&save.join(&ds.name), &preds)?;
    }
    if config.leaf {
        run.leaf_rows.push((ds.name.clone(), leaf_pages));
    }
    if let Some(n) = config.dedup {
        dedup_folder(ds, n, &mut preds, progress);
    }
    let row = report::score_folder(ds, &preds)?;
    if config.page_records {
        for ps in &row.page_scores {
            let label = ds
                .pages
                .iter()
                .find(|p| p.id == ps.id)
                .and_then(|p| p.field("page_type"));
            let mut v = serde_json::json!({
                "folder": ds.name,
                "id": ps.id,
                "f1": ps.shingle_f1,
                "label": label,
            });
            if let (Some(o), Some(serde_json::Value::Object(i))) =
                (v.as_object_mut(), infos.remove(&ps.id))
            {
                o.extend(i);
            }
            run.pages.push(v);
        }
    }
    if let Some(old) = baseline {
        // Only the pages the baseline saved: a page it lacks is not a 0.
        let mut base_ds = ds.clone();
        base_ds.pages.retain(|p| old.contains_key(&p.id));
        let base = report::score_folder(&base_ds, &old)?;
        run.comparisons.push(report::compare_folder(
            &ds.name,
            &base.page_scores,
            &row.page_scores,
            Metric::Shingle,
            config.min_delta,
        ));
    }
    run.rows.push(row);
    Ok(())
}

/// Extracts one page of `ds`, with its leaf counts when `config.leaf`
/// asks and the page has gold.
fn extract_page(
    extractor: &Extractor,
    ds: &Dataset,
    p: &crate::PageEntry,
    config: &EvalConfig,
) -> PageResult {
    let b = ds.read_page_bytes(p).map_err(|e| e.to_string())?;
    // The page's URL, else its site id (as training and template learning
    // key sites): site-aware algorithms and template libraries need it.
    let site = p.url.clone().or_else(|| p.field("site"));
    let gold = match config.leaf {
        true => ds.read_gold(p).map_err(|e| e.to_string())?,
        false => None,
    };
    let input = Input::new(&b).with_url(site.as_deref());
    let info = |x: &Extraction| match config.page_records {
        true => serde_json::json!({
            "confidence": x.confidence,
            "signals": x.signals,
            "page_type": x.page_type,
            "page_signals": x.page_signals,
        }),
        false => serde_json::Value::Null,
    };
    match gold {
        Some(g) => extractor
            .extract_with(input, |i| inspection_counts(i, &g))
            .map(|(x, c)| (info(&x), x.text, Some(c))),
        None => extractor.extract(input).map(|x| (info(&x), x.text, None)),
    }
    .map(|(i, t, c)| (t, c, i))
    .map_err(|e| e.to_string())
}

/// Drops the segments repeated on `n` earlier pages of a site from the
/// outputs of `ds`'s pages, in manifest order (a page's site: its
/// manifest `site`, else its URL's host), and tells `progress` how much.
fn dedup_folder(
    ds: &Dataset,
    n: u32,
    preds: &mut HashMap<String, String>,
    progress: &dyn Progress,
) {
    let mut cache = unchaff::dedup::SegmentCache::new(n);
    let (mut segs, mut chars, mut total) = (0usize, 0usize, 0usize);
    for p in &ds.pages {
        let Some(text) = preds.get_mut(&p.id) else {
            continue;
        };
        let site = p
            .field("site")
            .or_else(|| {
                p.url
                    .as_deref()
                    .and_then(|u| url::Url::parse(u).ok())
                    .and_then(|u| u.host_str().map(str::to_owned))
            })
            .unwrap_or_default();
        total += text.chars().filter(|c| !c.is_whitespace()).count();
        let f = cache.filter(&site, text, unchaff::dedup::Segmentation::Lines);
        segs += f.segments;
        chars += f.chars;
        *text = f.text;
    }
    progress.message(&format!(
        "{}: --dedup {n} dropped {segs} segments, {chars} of {total} characters ({:.2}%)",
        ds.name,
        100.0 * chars as f64 / total.max(1) as f64
    ));
}

/// Paper 5's leaf-level figures (ALGORITHMS.md#leaf-level-evaluation) as a table: per folder the mean over its
/// pages with gold of each page's leaf precision, recall and F1, then the
/// mean over folders (a page that failed to extract has no figure). Plain
/// columns, or a Markdown table with `markdown`; it starts with an empty
/// line.
pub fn format_leaf_table(rows: &[LeafRow], markdown: bool) -> String {
    let mean = |v: &mut dyn Iterator<Item = f64>| {
        let (s, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
        if n == 0 { 0.0 } else { s / n as f64 }
    };
    let mut lines: Vec<(String, usize, [f64; 3])> = rows
        .iter()
        .map(|(name, pages)| {
            let m = [
                mean(&mut pages.iter().map(|p| p.0)),
                mean(&mut pages.iter().map(|p| p.1)),
                mean(&mut pages.iter().map(|p| p.2)),
            ];
            (name.clone(), pages.len(), m)
        })
        .collect();
    let total = lines.iter().map(|l| l.1).sum();
    let overall = [0, 1, 2].map(|k| mean(&mut lines.iter().map(|l| l.2[k])));
    lines.push(("mean".to_owned(), total, overall));
    let mut o = String::from("\n");
    if markdown {
        o.push_str("| folder | pages | leaf P | leaf R | leaf F1 |\n");
        o.push_str("|---|---:|---:|---:|---:|\n");
        for (name, n, [p, r, f]) in &lines {
            let name = match name.as_str() {
                "mean" => "**mean**".to_owned(),
                _ => name.clone(),
            };
            let _ = writeln!(o, "| {name} | {n} | {p:.3} | {r:.3} | {f:.3} |");
        }
    } else {
        let w = lines.iter().map(|l| l.0.len()).max().unwrap_or(6).max(6);
        let _ = writeln!(
            o,
            "{:w$}  {:>5}  {:>6}  {:>6}  {:>7}",
            "folder", "pages", "leaf P", "leaf R", "leaf F1"
        );
        for (name, n, [p, r, f]) in &lines {
            let _ = writeln!(o, "{name:w$}  {n:>5}  {p:>6.3}  {r:>6.3}  {f:>7.3}");
        }
    }
    o
}

/// Expands arguments into dataset folders: a folder with a manifest is
/// itself; any other directory stands for the dataset folders inside it.
pub fn dataset_dirs(args: &[PathBuf]) -> Result<Vec<PathBuf>, EvalError> {
    let mut out = Vec::new();
    for a in args {
        if a.join("manifest.jsonl").is_file() {
            out.push(a.clone());
        } else if a.is_dir() {
            let inner = crate::dataset::list_folders(a)?;
            if inner.is_empty() {
                return Err(not_a_folder(
                    a,
                    "no manifest.jsonl here or in its subfolders",
                ));
            }
            out.extend(inner);
        } else {
            return Err(not_a_folder(a, "not a dataset folder"));
        }
    }
    Ok(out)
}

fn not_a_folder(path: &Path, message: &str) -> EvalError {
    EvalError::Folder {
        path: path.to_path_buf(),
        message: message.to_owned(),
    }
}
