//! Scoring a dataset folder, formatting the results, comparing runs.

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::str::FromStr;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::EvalError;
use crate::dataset::Dataset;
use crate::metrics::{self, Prf, ShinglePage, Summary};

/// The metrics, for choosing which one to compare pages by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// Shingle F1 (the benchmark's per-page figure).
    Shingle,
    /// CJK-aware token F1.
    Token,
    /// Token LCS F1.
    Lcs,
    /// Character LCS F1.
    CharLcs,
}

impl Metric {
    /// All metrics, in report order.
    pub const ALL: [Metric; 4] = [Metric::Shingle, Metric::Token, Metric::Lcs, Metric::CharLcs];

    /// The metric's name: `shingle`, `token`, `lcs`, `char-lcs`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Shingle => "shingle",
            Metric::Token => "token",
            Metric::Lcs => "lcs",
            Metric::CharLcs => "char-lcs",
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Metric {
    type Err = EvalError;

    /// Parses a name given by [`Metric::name`] (`char_lcs` is accepted too).
    fn from_str(s: &str) -> Result<Metric, EvalError> {
        match s {
            "shingle" => Ok(Metric::Shingle),
            "token" => Ok(Metric::Token),
            "lcs" => Ok(Metric::Lcs),
            "char-lcs" | "char_lcs" => Ok(Metric::CharLcs),
            _ => Err(EvalError::Metric(s.to_string())),
        }
    }
}

/// One page's F1 under each metric.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PageScore {
    /// The page id.
    pub id: String,
    /// Shingle F1 of the page (as the benchmark's per-page figure).
    pub shingle_f1: f64,
    /// CJK-aware token F1.
    pub token_f1: f64,
    /// Token LCS F1.
    pub lcs_f1: f64,
    /// Character LCS F1.
    pub char_lcs_f1: f64,
}

impl PageScore {
    /// The page's F1 under `metric`.
    pub fn get(&self, metric: Metric) -> f64 {
        match metric {
            Metric::Shingle => self.shingle_f1,
            Metric::Token => self.token_f1,
            Metric::Lcs => self.lcs_f1,
            Metric::CharLcs => self.char_lcs_f1,
        }
    }
}

/// The scores of one dataset folder.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FolderScores {
    /// The folder's name.
    pub folder: String,
    /// Pages scored (pages of the manifest that have a gold file).
    pub pages: usize,
    /// Pages of the manifest skipped because their gold file is missing.
    pub skipped_no_gold: usize,
    /// Scored pages that had no entry in the predictions (scored as empty).
    pub missing_output: usize,
    /// Shingle P/R/F1, aggregated as the benchmark does.
    pub shingle: Summary,
    /// CJK-aware token P/R/F1, means over pages.
    pub token: Summary,
    /// Token P/R/F1 over the pages with `lang == "zh"` only; `None` when the
    /// folder has none.
    pub token_zh: Option<Summary>,
    /// Token LCS P/R/F1, means over pages.
    pub lcs: Summary,
    /// Character LCS P/R/F1, means over pages.
    pub char_lcs: Summary,
    /// Per-page F1s, in manifest order (empty in a [`mean_row`]).
    pub page_scores: Vec<PageScore>,
}

impl FolderScores {
    /// The summary of `metric`.
    pub fn summary(&self, metric: Metric) -> &Summary {
        match metric {
            Metric::Shingle => &self.shingle,
            Metric::Token => &self.token,
            Metric::Lcs => &self.lcs,
            Metric::CharLcs => &self.char_lcs,
        }
    }
}

/// All metrics of one page.
struct PageDetail {
    zh: bool,
    shingle: ShinglePage,
    token: Prf,
    lcs: Prf,
    char_lcs: Prf,
}

fn score_page(gold: &str, pred: &str, zh: bool) -> PageDetail {
    PageDetail {
        zh,
        shingle: metrics::shingle_page(gold, pred),
        token: metrics::token_prf(gold, pred),
        lcs: metrics::lcs_prf(gold, pred),
        char_lcs: metrics::char_lcs_prf(gold, pred),
    }
}

/// Scores `predictions` (page id → extracted text) against the gold of
/// `dataset`, under every metric.
///
/// Pages of the manifest without a gold file are skipped and counted in
/// `skipped_no_gold`; a page missing from `predictions` is scored as an empty
/// output (and counted in `missing_output`); predictions for ids not in the
/// manifest are ignored. Pages are scored in parallel (rayon), and the
/// result is deterministic: per-page records keep manifest order and the
/// aggregation runs in that order.
pub fn score_folder(
    dataset: &Dataset,
    predictions: &HashMap<String, String>,
) -> Result<FolderScores, EvalError> {
    let mut skipped_no_gold = 0;
    let mut missing_output = 0;
    let mut items = Vec::with_capacity(dataset.pages.len());
    for entry in &dataset.pages {
        let Some(gold) = dataset.read_gold(entry)? else {
            skipped_no_gold += 1;
            continue;
        };
        let pred = match predictions.get(&entry.id) {
            Some(p) => p.as_str(),
            None => {
                missing_output += 1;
                ""
            }
        };
        items.push((entry, gold, pred));
    }

    // Longest pages first would balance better, but `par_iter` over an
    // indexed slice already splits work adaptively; keep the order.
    let details: Vec<PageDetail> = items
        .par_iter()
        .map(|(entry, gold, pred)| score_page(gold, pred, entry.lang.as_deref() == Some("zh")))
        .collect();

    let shingles: Vec<ShinglePage> = details.iter().map(|d| d.shingle).collect();
    let tokens: Vec<Prf> = details.iter().map(|d| d.token).collect();
    let tokens_zh: Vec<Prf> = details.iter().filter(|d| d.zh).map(|d| d.token).collect();
    let lcs: Vec<Prf> = details.iter().map(|d| d.lcs).collect();
    let char_lcs: Vec<Prf> = details.iter().map(|d| d.char_lcs).collect();

    let page_scores = items
        .iter()
        .zip(&details)
        .map(|((entry, _, _), d)| PageScore {
            id: entry.id.clone(),
            shingle_f1: d.shingle.f1(),
            token_f1: d.token.f1,
            lcs_f1: d.lcs.f1,
            char_lcs_f1: d.char_lcs.f1,
        })
        .collect();

    Ok(FolderScores {
        folder: dataset.name.clone(),
        pages: details.len(),
        skipped_no_gold,
        missing_output,
        shingle: metrics::shingle_summary(&shingles),
        token: metrics::mean_summary(&tokens),
        token_zh: (!tokens_zh.is_empty()).then(|| metrics::mean_summary(&tokens_zh)),
        lcs: metrics::mean_summary(&lcs),
        char_lcs: metrics::mean_summary(&char_lcs),
        page_scores,
    })
}

/// Unweighted mean over summaries; `pages` is their total.
fn mean_of(summaries: &[&Summary]) -> Summary {
    let n = summaries.len().max(1) as f64;
    Summary {
        precision: summaries.iter().map(|s| s.precision).sum::<f64>() / n,
        recall: summaries.iter().map(|s| s.recall).sum::<f64>() / n,
        f1: summaries.iter().map(|s| s.f1).sum::<f64>() / n,
        pages: summaries.iter().map(|s| s.pages).sum(),
    }
}

/// The "mean" row: every figure is the unweighted mean over `rows` of that
/// figure (folders, not pages, count equally); page counts are totals.
/// `token_zh` is the mean over the folders that have one. `page_scores` is
/// empty. No rows give all zeros.
pub fn mean_row(rows: &[FolderScores]) -> FolderScores {
    let of = |metric: Metric| mean_of(&rows.iter().map(|r| r.summary(metric)).collect::<Vec<_>>());
    let zh: Vec<&Summary> = rows.iter().filter_map(|r| r.token_zh.as_ref()).collect();
    FolderScores {
        folder: "mean".to_string(),
        pages: rows.iter().map(|r| r.pages).sum(),
        skipped_no_gold: rows.iter().map(|r| r.skipped_no_gold).sum(),
        missing_output: rows.iter().map(|r| r.missing_output).sum(),
        shingle: of(Metric::Shingle),
        token: of(Metric::Token),
        token_zh: (!zh.is_empty()).then(|| mean_of(&zh)),
        lcs: of(Metric::Lcs),
        char_lcs: of(Metric::CharLcs),
        page_scores: Vec::new(),
    }
}

/// Column titles of the metric groups, in report order.
const GROUPS: [(Metric, &str); 4] = [
    (Metric::Shingle, "shingle"),
    (Metric::Token, "token"),
    (Metric::Lcs, "lcs"),
    (Metric::CharLcs, "char lcs"),
];

fn zh_cell(row: &FolderScores) -> String {
    row.token_zh
        .map_or_else(|| "-".to_string(), |s| format!("{:.3}", s.f1))
}

/// A fixed-width text table: one row per folder with P, R and F1 of each
/// metric (shingle first, then token, LCS, char LCS), the token F1 of the
/// `zh` pages, and a final "mean" row (see [`mean_row`]).
pub fn format_table(rows: &[FolderScores]) -> String {
    let name_width = rows
        .iter()
        .map(|r| r.folder.chars().count())
        .chain([6])
        .max()
        .unwrap_or(6);
    let mut out = String::new();
    // First header line: the metric groups.
    let _ = write!(out, "{:name_width$} {:>6}", "", "");
    for (_, title) in GROUPS {
        let _ = write!(out, " | {title:<17}");
    }
    let _ = writeln!(out, " | zh token");
    let _ = write!(out, "{:name_width$} {:>6}", "folder", "pages");
    for _ in GROUPS {
        let _ = write!(out, " | {:>5} {:>5} {:>5}", "P", "R", "F1");
    }
    let _ = writeln!(out, " | {:>8}", "F1");
    let width = out.lines().last().map_or(0, |l| l.chars().count());
    let rule = "-".repeat(width);
    let _ = writeln!(out, "{rule}");
    let mean = mean_row(rows);
    for (i, row) in rows.iter().chain([&mean]).enumerate() {
        if i == rows.len() {
            let _ = writeln!(out, "{rule}");
        }
        let _ = write!(out, "{:name_width$} {:>6}", row.folder, row.pages);
        for (metric, _) in GROUPS {
            let s = row.summary(metric);
            let _ = write!(
                out,
                " | {:>5.3} {:>5.3} {:>5.3}",
                s.precision, s.recall, s.f1
            );
        }
        let _ = writeln!(out, " | {:>8}", zh_cell(row));
    }
    out
}

/// A markdown table with the same content as [`format_table`].
pub fn format_markdown(rows: &[FolderScores]) -> String {
    let mut out = String::from("| folder | pages |");
    for (_, title) in GROUPS {
        let _ = write!(out, " {title} P | {title} R | {title} F1 |");
    }
    out.push_str(" zh token F1 |\n|---|---:|");
    for _ in GROUPS {
        out.push_str("---:|---:|---:|");
    }
    out.push_str("---:|\n");
    let mean = mean_row(rows);
    for (i, row) in rows.iter().chain([&mean]).enumerate() {
        let name = if i == rows.len() {
            "**mean**".to_string()
        } else {
            row.folder.replace('|', "\\|")
        };
        let _ = write!(out, "| {name} | {} |", row.pages);
        for (metric, _) in GROUPS {
            let s = row.summary(metric);
            let _ = write!(out, " {:.3} | {:.3} | {:.3} |", s.precision, s.recall, s.f1);
        }
        let _ = writeln!(out, " {} |", zh_cell(row));
    }
    out
}

/// One page's change between two runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PageDelta {
    /// The page id.
    pub id: String,
    /// The page's figure in the baseline run.
    pub baseline: f64,
    /// The page's figure in the current run.
    pub current: f64,
    /// `current - baseline`.
    pub delta: f64,
}

/// Per-page changes of `metric` from `baseline` to `current`, for the pages
/// present in both, sorted by delta ascending (the worst regressions first;
/// ties by id).
pub fn compare(baseline: &[PageScore], current: &[PageScore], metric: Metric) -> Vec<PageDelta> {
    let base: HashMap<&str, f64> = baseline
        .iter()
        .map(|p| (p.id.as_str(), p.get(metric)))
        .collect();
    let mut deltas: Vec<PageDelta> = current
        .iter()
        .filter_map(|p| {
            let b = *base.get(p.id.as_str())?;
            let c = p.get(metric);
            Some(PageDelta {
                id: p.id.clone(),
                baseline: b,
                current: c,
                delta: c - b,
            })
        })
        .collect();
    deltas.sort_by(|x, y| x.delta.total_cmp(&y.delta).then_with(|| x.id.cmp(&y.id)));
    deltas
}

/// How one folder's pages moved from a baseline run to the current one
/// (see [`compare_folder`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The folder's name.
    pub folder: String,
    /// The metric compared.
    pub metric: Metric,
    /// Changes of at most this much count as unchanged.
    pub min_delta: f64,
    /// Pages scored in both runs.
    pub pages: usize,
    /// Pages whose figure rose by more than `min_delta`.
    pub up: usize,
    /// Pages whose figure fell by more than `min_delta`.
    pub down: usize,
    /// Pages that moved by `min_delta` or less.
    pub unchanged: usize,
    /// Mean of the pages' figures in the baseline run.
    pub mean_baseline: f64,
    /// Mean of the pages' figures in the current run.
    pub mean_current: f64,
    /// The pages that moved by more than `min_delta`, the worst regressions
    /// first (the order of [`compare`]).
    pub changed: Vec<PageDelta>,
}

/// Compares the per-page `metric` of two runs over one folder: the pages
/// present in both are counted up, down or unchanged (a change of at most
/// `min_delta`, in absolute value, is no change), and the changed ones are
/// kept, sorted by delta ascending.
pub fn compare_folder(
    folder: &str,
    baseline: &[PageScore],
    current: &[PageScore],
    metric: Metric,
    min_delta: f64,
) -> Comparison {
    let deltas = compare(baseline, current, metric);
    let n = deltas.len();
    let mean = |f: fn(&PageDelta) -> f64| deltas.iter().map(f).sum::<f64>() / n.max(1) as f64;
    let (mean_baseline, mean_current) = (mean(|d| d.baseline), mean(|d| d.current));
    let up = deltas.iter().filter(|d| d.delta > min_delta).count();
    let down = deltas.iter().filter(|d| d.delta < -min_delta).count();
    let changed: Vec<PageDelta> = deltas
        .into_iter()
        .filter(|d| d.delta.abs() > min_delta)
        .collect();
    Comparison {
        folder: folder.to_string(),
        metric,
        min_delta,
        pages: n,
        up,
        down,
        unchanged: n - up - down,
        mean_baseline,
        mean_current,
        changed,
    }
}

/// A comparison as text: a summary line, then one row per changed page
/// (id, old, new, delta), worst regressions first.
pub fn format_comparison(c: &Comparison) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {} F1 of {} pages: {} up, {} down, {} unchanged (|delta| <= {}); mean {:.3} -> {:.3} ({:+.3})",
        c.folder,
        c.metric,
        c.pages,
        c.up,
        c.down,
        c.unchanged,
        c.min_delta,
        c.mean_baseline,
        c.mean_current,
        c.mean_current - c.mean_baseline
    );
    if c.changed.is_empty() {
        return out;
    }
    let width = c
        .changed
        .iter()
        .map(|d| d.id.chars().count())
        .chain([4])
        .max()
        .unwrap_or(4);
    let _ = writeln!(
        out,
        "  {:width$}  {:>6}  {:>6}  {:>7}",
        "page", "old", "new", "delta"
    );
    for d in &c.changed {
        let _ = writeln!(
            out,
            "  {:width$}  {:>6.3}  {:>6.3}  {:>+7.3}",
            d.id, d.baseline, d.current, d.delta
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(f: f64) -> Summary {
        Summary {
            precision: f,
            recall: f,
            f1: f,
            pages: 2,
        }
    }

    fn row(name: &str, f: f64, zh: Option<f64>) -> FolderScores {
        FolderScores {
            folder: name.to_string(),
            pages: 2,
            shingle: summary(f),
            token: summary(f),
            token_zh: zh.map(summary),
            lcs: summary(f),
            char_lcs: summary(f),
            ..FolderScores::default()
        }
    }

    #[test]
    fn mean_row_is_unweighted() {
        let rows = [row("a", 0.5, None), row("b", 1.0, Some(0.25))];
        let m = mean_row(&rows);
        assert_eq!(m.shingle.f1, 0.75);
        assert_eq!(m.pages, 4);
        assert_eq!(m.token_zh.map(|s| s.f1), Some(0.25));
        let table = format_table(&rows);
        assert!(
            table
                .lines()
                .any(|l| l.starts_with("mean") && l.contains("0.750"))
        );
        let md = format_markdown(&rows);
        assert!(md.contains("| **mean** | 4 | 0.750 |"));
        assert_eq!(md.lines().count(), 2 + 3);
        assert_eq!(mean_row(&[]).shingle, Summary::default());
    }

    #[test]
    fn compare_sorts_by_delta() {
        let p = |id: &str, f: f64| PageScore {
            id: id.to_string(),
            shingle_f1: f,
            token_f1: 1.0 - f,
            lcs_f1: f,
            char_lcs_f1: f,
        };
        let base = [p("a", 0.5), p("b", 0.5), p("c", 0.9), p("gone", 1.0)];
        let cur = [p("a", 0.7), p("b", 0.5), p("c", 0.1), p("new", 1.0)];
        let d = compare(&base, &cur, Metric::Shingle);
        let ids: Vec<&str> = d.iter().map(|x| x.id.as_str()).collect();
        assert_eq!(ids, ["c", "b", "a"]);
        assert!((d[0].delta + 0.8).abs() < 1e-12);
        let t = compare(&base, &cur, Metric::Token);
        assert_eq!(t[0].id, "a");
        assert_eq!("char-lcs".parse::<Metric>().unwrap(), Metric::CharLcs);
        assert!("nope".parse::<Metric>().is_err());
    }

    #[test]
    fn compare_folder_counts_and_formats() {
        let p = |id: &str, f: f64| PageScore {
            id: id.to_string(),
            shingle_f1: f,
            token_f1: f,
            lcs_f1: f,
            char_lcs_f1: f,
        };
        let base = [p("a", 0.5), p("b", 0.5), p("c", 0.9), p("dd", 0.3)];
        let cur = [p("a", 0.7), p("b", 0.505), p("c", 0.1), p("dd", 0.3)];
        let c = compare_folder("f", &base, &cur, Metric::Shingle, 0.01);
        assert_eq!((c.pages, c.up, c.down, c.unchanged), (4, 1, 1, 2));
        let ids: Vec<&str> = c.changed.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["c", "a"]);
        assert!((c.mean_baseline - 0.55).abs() < 1e-12);
        assert!((c.mean_current - 0.40125).abs() < 1e-12);
        let text = format_comparison(&c);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "f: shingle F1 of 4 pages: 1 up, 1 down, 2 unchanged (|delta| <= 0.01); mean 0.550 -> 0.401 (-0.149)"
        );
        assert_eq!(lines[1], "  page     old     new    delta");
        assert_eq!(lines[2], "  c      0.900   0.100   -0.800");
        assert_eq!(lines[3], "  a      0.500   0.700   +0.200");
        assert_eq!(lines.len(), 4);
        // A larger threshold hides the small move and keeps the big ones.
        let c = compare_folder("f", &base, &cur, Metric::Shingle, 0.5);
        assert_eq!((c.up, c.down, c.unchanged), (0, 1, 3));
        assert_eq!(format_comparison(&c).lines().count(), 3);
    }
}
