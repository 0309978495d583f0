//! Scoring a Markdown output against a page's structure gold, and summing
//! pages into one row per tool.
//!
//! The figures are counts summed over pages (each table cell, code block or
//! formula weighs the same, whatever its page), except the text's shingle
//! F1, which is the benchmark's per-page aggregation
//! ([`metrics::shingle_summary`]).
//!
//! * **headings**: F1 of (level, text) pairs; **lists**: F1 of (depth,
//!   text) items. These texts are compared exactly (whitespace runs as one
//!   space): a permalink mark left in a heading (`¶`, `§`) is a miss.
//! * **tables**: cell F1 on the span-expanded grid. Each gold table is
//!   paired with the output table sharing the most cells (greedy, best
//!   pair first); two tables share a cell when its text key is the same in
//!   the same column of rows that an alignment pairs (the rows are aligned
//!   in order, allowing rows missing on either side). Empty cells do not
//!   count. Where the gold is complete, an output table paired with no
//!   gold table counts all its cells against precision (a layout table
//!   written as a table, a line-number gutter).
//! * **layout**: the share of pages with a layout table whose output has
//!   no table at all.
//! * **code**: gold blocks paired with output blocks by similarity
//!   (greedy); exact = the same [`code_key`]; similarity = 1 − normalised
//!   Levenshtein distance (0 for a block not found); language = the
//!   paired block names the gold's language.
//! * **math**: a gold formula is found when an output formula of the same
//!   kind (`$…$` inline, `$$…$$` display) has the same [`math_key`].
//! * **figures**: the image's address (or one of its alternatives) among
//!   the output's images, resolved against the page's URL; a caption is
//!   found when its words appear in the output's text.
//! * **quotes**: the quote's words inside one output block quote;
//!   **definitions**: the term as a block of its own followed by a block
//!   holding the definition, or one block starting with the term and
//!   holding the definition; **sub/sup**: the occurrence in the output
//!   with its tags (`H<sub>2</sub>O`).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::markdown::{self, Parsed, WellFormed};
use super::{Construct, Gold, code_key, exact_key, math_key, text_key};
use crate::EvalError;
use crate::dataset::Dataset;
use crate::metrics::{self, ShinglePage};

/// Most cell comparisons the table row alignment makes (row pairs times
/// the width); past it rows are paired by position only. 40 million is a
/// 2,000-row table of ten columns against another, a fraction of a
/// second; data tables in articles are far smaller.
pub const MAX_ALIGN_CELLS: usize = 40_000_000;

/// Most character pairs a code similarity computes by characters (about
/// a 6,000-character block against another); past it the distance is
/// taken over lines instead, which is as telling for long blocks and
/// bounded.
pub const MAX_CHAR_PAIRS: usize = 40_000_000;

/// Matched, gold and output counts of one construct.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// Gold instances found in the output.
    pub matched: usize,
    /// Gold instances.
    pub gold: usize,
    /// Output instances (for precision).
    pub output: usize,
}

impl Tally {
    /// Adds `other`.
    pub fn add(&mut self, other: Tally) {
        self.matched += other.matched;
        self.gold += other.gold;
        self.output += other.output;
    }

    /// Matched / gold, or `None` without gold instances.
    pub fn recall(&self) -> Option<f64> {
        (self.gold > 0).then(|| self.matched as f64 / self.gold as f64)
    }

    /// F1 of matched / output and matched / gold, or `None` without gold
    /// instances.
    pub fn f1(&self) -> Option<f64> {
        let r = self.recall()?;
        let p = if self.output == 0 {
            0.0
        } else {
            self.matched as f64 / self.output as f64
        };
        Some(metrics::f1(p, r))
    }
}

/// The counts of one page, or summed over pages.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Counts {
    /// Pages scored.
    pub pages: usize,
    /// Heading (level, text) pairs.
    pub headings: Tally,
    /// List (depth, text) items.
    pub lists: Tally,
    /// Table cells.
    pub table_cells: Tally,
    /// Pages with a layout table (gold) and those without any table in
    /// the output (matched).
    pub layout: Tally,
    /// Code blocks matched exactly.
    pub code_exact: Tally,
    /// Sum of the code blocks' similarities (matched: hundredths).
    pub code_similarity: f64,
    /// Code blocks with a language whose paired block names it.
    pub code_lang: Tally,
    /// Inline formulas.
    pub math_inline: Tally,
    /// Display formulas.
    pub math_display: Tally,
    /// Images found by address.
    pub figure_src: Tally,
    /// Captions found.
    pub captions: Tally,
    /// Quotes found inside a quote.
    pub quotes: Tally,
    /// Definitions found.
    pub definitions: Tally,
    /// Sub/sup occurrences found.
    pub subsup: Tally,
    /// Tables and fences of the output, and the malformed ones.
    #[serde(skip)]
    pub well_formed: WellFormed,
    /// Per-page shingle counts of the text against the gold text.
    #[serde(skip)]
    pub text: Vec<ShinglePage>,
    /// The same counts by the markup the gold records for each instance
    /// (`code:prism` → exact blocks, `math:katex` → formulas found,
    /// `table:spans` → cells, `table:layout-…` → pages without a table,
    /// `figure:…` → image addresses, `heading:…` → headings found).
    pub by_markup: BTreeMap<String, Tally>,
}

impl Counts {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Counts) {
        self.pages += other.pages;
        for (a, b) in [
            (&mut self.headings, other.headings),
            (&mut self.lists, other.lists),
            (&mut self.table_cells, other.table_cells),
            (&mut self.layout, other.layout),
            (&mut self.code_exact, other.code_exact),
            (&mut self.code_lang, other.code_lang),
            (&mut self.math_inline, other.math_inline),
            (&mut self.math_display, other.math_display),
            (&mut self.figure_src, other.figure_src),
            (&mut self.captions, other.captions),
            (&mut self.quotes, other.quotes),
            (&mut self.definitions, other.definitions),
            (&mut self.subsup, other.subsup),
        ] {
            a.add(b);
        }
        self.code_similarity += other.code_similarity;
        self.well_formed.add(&other.well_formed);
        self.text.extend_from_slice(&other.text);
        for (k, v) in &other.by_markup {
            self.by_markup.entry(k.clone()).or_default().add(*v);
        }
    }

    /// Counts `matched` of `gold` instances under markup `m` (nothing
    /// without a markup).
    fn markup(&mut self, m: Option<&String>, matched: usize, gold: usize) {
        if let Some(m) = m {
            self.by_markup.entry(m.clone()).or_default().add(Tally {
                matched,
                gold,
                output: gold,
            });
        }
    }

    /// Mean code similarity over the gold blocks, or `None` without any.
    pub fn code_similarity_mean(&self) -> Option<f64> {
        (self.code_exact.gold > 0).then(|| self.code_similarity / self.code_exact.gold as f64)
    }

    /// Math found over all formulas.
    pub fn math_all(&self) -> Tally {
        let mut t = self.math_inline;
        t.add(self.math_display);
        t
    }

    /// The text's shingle F1 (the benchmark's aggregation), or `None`
    /// without gold texts.
    pub fn text_f1(&self) -> Option<f64> {
        (!self.text.is_empty()).then(|| metrics::shingle_summary(&self.text).f1)
    }
}

/// Scores one page's Markdown `md` against its structure `gold` and its
/// gold text (for the shingle F1, when given); `page_url` resolves the
/// output's image addresses.
pub fn score_page(
    gold: &Gold,
    gold_text: Option<&str>,
    md: &str,
    page_url: Option<&str>,
) -> Counts {
    let out = markdown::parse(md);
    let mut c = Counts {
        pages: 1,
        well_formed: WellFormed::of(&out),
        ..Counts::default()
    };
    if let Some(g) = gold_text {
        c.text.push(metrics::shingle_page(g, &out.text));
    }
    if gold.covers(Construct::Headings) {
        let (t, found) = multiset_tally(
            gold.headings
                .iter()
                .map(|h| (h.level as usize, exact_key(&h.text))),
            out.headings
                .iter()
                .map(|h| (h.level as usize, exact_key(&h.text))),
        );
        c.headings = t;
        for (i, f) in found.into_iter().enumerate() {
            c.markup(gold.markups.headings.get(i), usize::from(f), 1);
        }
    }
    if gold.covers(Construct::Lists) {
        c.lists = multiset_tally(
            gold.lists.iter().map(|i| (i.depth, exact_key(&i.text))),
            out.lists.iter().map(|i| (i.depth, exact_key(&i.text))),
        )
        .0;
    }
    if gold.covers(Construct::Tables) {
        let (t, per_table) = score_tables(gold, &out);
        c.table_cells = t;
        for (i, (m, g)) in per_table.into_iter().enumerate() {
            c.markup(gold.markups.tables.get(i), m, g);
        }
    }
    if gold.covers(Construct::Layout) && gold.layout_tables > 0 {
        let clean = usize::from(out.tables.is_empty());
        c.layout = Tally {
            matched: clean,
            gold: 1,
            output: 1,
        };
        c.markup(gold.markups.layout.as_ref(), clean, 1);
    }
    if gold.covers(Construct::Code) {
        score_code(gold, &out, &mut c);
    }
    if gold.covers(Construct::Math) {
        score_math(gold, &out, &mut c);
    }
    if gold.covers(Construct::Figures) {
        score_figures(gold, &out, page_url, &mut c);
    }
    if gold.covers(Construct::Quotes) {
        let quotes: Vec<String> = out.quotes.iter().map(|q| padded_key(q)).collect();
        c.quotes = found_tally(gold.quotes.iter().map(|q| {
            let k = padded_key(q);
            quotes.iter().any(|o| o.contains(&k))
        }));
    }
    if gold.covers(Construct::Definitions) {
        let blocks: Vec<String> = out.blocks.iter().map(|b| text_key(b)).collect();
        c.definitions =
            found_tally(gold.definitions.iter().map(|d| {
                definition_found(&blocks, &text_key(&d.term), &padded_key(&d.definition))
            }));
    }
    if gold.covers(Construct::Subsup) {
        let marked = out.marked_text.to_ascii_lowercase();
        c.subsup = found_tally(gold.subsup.iter().map(|s| {
            marked.contains(
                &s.split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .to_ascii_lowercase(),
            )
        }));
    }
    c
}

/// A key with a space on each side, so that `contains` matches whole words.
fn padded_key(text: &str) -> String {
    format!(" {} ", text_key(text))
}

/// The tally of found flags: matched = found, gold = output = all.
fn found_tally(found: impl Iterator<Item = bool>) -> Tally {
    let mut t = Tally::default();
    for f in found {
        t.gold += 1;
        t.output += 1;
        t.matched += usize::from(f);
    }
    t
}

/// F1 counts of two multisets of keys (empty texts left out), and for
/// each gold key in order whether it was found (an empty one is not).
fn multiset_tally(
    gold: impl Iterator<Item = (usize, String)>,
    out: impl Iterator<Item = (usize, String)>,
) -> (Tally, Vec<bool>) {
    let mut have: HashMap<(usize, String), usize> = HashMap::new();
    let mut t = Tally::default();
    for o in out.filter(|(_, k)| !k.is_empty()) {
        *have.entry(o).or_default() += 1;
        t.output += 1;
    }
    let mut found = Vec::new();
    for g in gold {
        if g.1.is_empty() {
            found.push(false);
            continue;
        }
        t.gold += 1;
        let hit = match have.get_mut(&g) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        };
        t.matched += usize::from(hit);
        found.push(hit);
    }
    (t, found)
}

/// Whether a definition is found: a block that is the term followed by a
/// block holding the definition, or a block starting with the term and
/// holding the definition after it.
fn definition_found(blocks: &[String], term: &str, definition: &str) -> bool {
    if term.is_empty() {
        return false;
    }
    blocks.iter().enumerate().any(|(i, b)| {
        (b == term
            && blocks
                .get(i + 1)
                .is_some_and(|n| format!(" {n} ").contains(definition)))
            || (b.starts_with(term) && format!(" {} ", &b[term.len()..]).contains(definition))
    })
}

/// The cell keys of a grid.
fn grid_keys(rows: &[Vec<String>]) -> Vec<Vec<String>> {
    rows.iter()
        .map(|r| r.iter().map(|c| text_key(c)).collect())
        .collect()
}

/// Non-empty cells of a key grid.
fn filled(rows: &[Vec<String>]) -> usize {
    rows.iter().flatten().filter(|k| !k.is_empty()).count()
}

/// Cells of `a` and `b` with the same key in the same column of the same
/// row pair.
fn row_match(a: &[String], b: &[String]) -> usize {
    a.iter()
        .zip(b)
        .filter(|(x, y)| !x.is_empty() && x == y)
        .count()
}

/// Cells shared by two grids under the best order-keeping row alignment
/// (rows may be missing on either side); by position past
/// [`MAX_ALIGN_CELLS`].
pub fn shared_cells(a: &[Vec<String>], b: &[Vec<String>]) -> usize {
    let width = a.iter().chain(b).map(Vec::len).max().unwrap_or(0);
    if a.len().saturating_mul(b.len()).saturating_mul(width) > MAX_ALIGN_CELLS {
        return a.iter().zip(b).map(|(x, y)| row_match(x, y)).sum();
    }
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    for ra in a {
        for (j, rb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + row_match(ra, rb)).max(prev[j + 1]).max(cur[j]);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Table cell counts of one page, and (shared, filled) cells of each gold
/// table.
fn score_tables(gold: &Gold, out: &Parsed) -> (Tally, Vec<(usize, usize)>) {
    let g: Vec<Vec<Vec<String>>> = gold.tables.iter().map(|t| grid_keys(&t.rows)).collect();
    let o: Vec<Vec<Vec<String>>> = out.tables.iter().map(|t| grid_keys(&t.rows)).collect();
    let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
    for (i, gt) in g.iter().enumerate() {
        for (j, ot) in o.iter().enumerate() {
            let m = shared_cells(gt, ot);
            if m > 0 {
                pairs.push((m, i, j));
            }
        }
    }
    pairs.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    let (mut g_used, mut o_used) = (vec![false; g.len()], vec![false; o.len()]);
    let mut per_table: Vec<(usize, usize)> = g.iter().map(|x| (0, filled(x))).collect();
    let mut t = Tally {
        gold: per_table.iter().map(|p| p.1).sum(),
        ..Tally::default()
    };
    for (m, i, j) in pairs {
        if g_used[i] || o_used[j] {
            continue;
        }
        g_used[i] = true;
        o_used[j] = true;
        t.matched += m;
        t.output += filled(&o[j]);
        per_table[i].0 = m;
    }
    if gold.complete {
        t.output += o
            .iter()
            .zip(&o_used)
            .filter(|(_, used)| !**used)
            .map(|(x, _)| filled(x))
            .sum::<usize>();
    }
    (t, per_table)
}

/// 1 − normalised Levenshtein distance of two code keys: over characters,
/// or over lines past [`MAX_CHAR_PAIRS`].
pub fn code_similarity(a: &str, b: &str) -> f64 {
    let (la, lb) = (a.chars().count(), b.chars().count());
    if la == 0 && lb == 0 {
        return 1.0;
    }
    if la.saturating_mul(lb) <= MAX_CHAR_PAIRS {
        return strsim::normalized_levenshtein(a, b);
    }
    let (x, y): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let d = strsim::generic_levenshtein(&x, &y);
    1.0 - d as f64 / x.len().max(y.len()).max(1) as f64
}

/// Code counts of one page.
fn score_code(gold: &Gold, out: &Parsed, c: &mut Counts) {
    let g: Vec<String> = gold.code.iter().map(|x| code_key(&x.text)).collect();
    let o: Vec<String> = out.code.iter().map(|x| code_key(&x.text)).collect();
    let mut pairs: Vec<(f64, usize, usize)> = Vec::new();
    for (i, gk) in g.iter().enumerate() {
        for (j, ok) in o.iter().enumerate() {
            let s = code_similarity(gk, ok);
            if s > 0.0 {
                pairs.push((s, i, j));
            }
        }
    }
    pairs.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)));
    let mut pair_of: Vec<Option<(usize, f64)>> = vec![None; g.len()];
    let mut o_used = vec![false; o.len()];
    for (s, i, j) in pairs {
        if pair_of[i].is_some() || o_used[j] {
            continue;
        }
        pair_of[i] = Some((j, s));
        o_used[j] = true;
    }
    c.code_exact.gold += g.len();
    c.code_exact.output += o.len();
    for (i, p) in pair_of.iter().enumerate() {
        let exact = p.is_some_and(|(j, _)| g[i] == o[j]);
        c.markup(gold.markups.code.get(i), usize::from(exact), 1);
        let Some((j, s)) = *p else { continue };
        c.code_similarity += s;
        if exact {
            c.code_exact.matched += 1;
        }
        if let Some(lang) = &gold.code[i].lang {
            c.code_lang.gold += 1;
            c.code_lang.output += 1;
            if out.code[j].lang.as_deref() == Some(&lang.to_ascii_lowercase()) {
                c.code_lang.matched += 1;
            }
        }
    }
    // Blocks with a language that found no pair count as missed.
    for (i, p) in pair_of.iter().enumerate() {
        if p.is_none() && gold.code[i].lang.is_some() {
            c.code_lang.gold += 1;
            c.code_lang.output += 1;
        }
    }
}

/// Math counts of one page.
fn score_math(gold: &Gold, out: &Parsed, c: &mut Counts) {
    let mut available: Vec<(bool, String)> = out
        .math
        .iter()
        .map(|m| (m.display, math_key(&m.tex)))
        .collect();
    for (k, m) in gold.math.iter().enumerate() {
        let key = (m.display, math_key(&m.tex));
        let found = match available.iter().position(|a| *a == key) {
            Some(i) => {
                available.swap_remove(i);
                true
            }
            None => false,
        };
        let t = if m.display {
            &mut c.math_display
        } else {
            &mut c.math_inline
        };
        t.gold += 1;
        t.output += 1;
        t.matched += usize::from(found);
        c.markup(gold.markups.math.get(k), usize::from(found), 1);
    }
}

/// `src` resolved against `base` (as written when it cannot be).
fn resolve(base: Option<&url::Url>, src: &str) -> String {
    let src = src.trim();
    match base {
        Some(b) => b
            .join(src)
            .map(|u| u.to_string())
            .unwrap_or_else(|_| src.to_string()),
        None => url::Url::parse(src)
            .map(|u| u.to_string())
            .unwrap_or_else(|_| src.to_string()),
    }
}

/// Figure counts of one page.
fn score_figures(gold: &Gold, out: &Parsed, page_url: Option<&str>, c: &mut Counts) {
    let base = page_url.and_then(|u| url::Url::parse(u).ok());
    let images: Vec<String> = out
        .images
        .iter()
        .map(|s| resolve(base.as_ref(), s))
        .collect();
    let text = padded_key(&out.text);
    for (k, f) in gold.figures.iter().enumerate() {
        let wanted: Vec<String> = std::iter::once(&f.src)
            .chain(&f.alternatives)
            .map(|s| resolve(base.as_ref(), s))
            .collect();
        let found = images.iter().any(|i| wanted.contains(i));
        c.figure_src.gold += 1;
        c.figure_src.output += 1;
        c.figure_src.matched += usize::from(found);
        c.markup(gold.markups.figures.get(k), usize::from(found), 1);
        if let Some(cap) = &f.caption {
            c.captions.gold += 1;
            c.captions.output += 1;
            if text.contains(&padded_key(cap)) {
                c.captions.matched += 1;
            }
        }
    }
}

/// A dataset folder's structure gold, gold texts and page URLs.
#[derive(Clone, Debug)]
pub struct GoldFolder {
    /// The folder's name.
    pub name: String,
    /// The folder.
    pub dir: PathBuf,
    /// Structure gold by page id (pages without one are not scored).
    pub golds: BTreeMap<String, Gold>,
    /// Gold texts by page id.
    pub texts: HashMap<String, String>,
    /// Page URLs by page id (absolute http(s) ones only).
    pub urls: HashMap<String, String>,
}

impl GoldFolder {
    /// Reads a dataset folder that has a `structure/` directory.
    pub fn open(dir: &Path) -> Result<GoldFolder, EvalError> {
        let ds = Dataset::open(dir)?;
        let golds = super::load_gold_dir(dir)?;
        let mut texts = HashMap::new();
        let mut urls = HashMap::new();
        for p in &ds.pages {
            if !golds.contains_key(&p.id) {
                continue;
            }
            if let Some(t) = ds.read_gold(p)? {
                texts.insert(p.id.clone(), t);
            }
            if let Some(u) = p
                .url
                .as_deref()
                .filter(|u| u.starts_with("http://") || u.starts_with("https://"))
            {
                urls.insert(p.id.clone(), u.to_string());
            }
        }
        Ok(GoldFolder {
            name: ds.name,
            dir: dir.to_path_buf(),
            golds,
            texts,
            urls,
        })
    }

    /// Scores `outputs` (Markdown by page id; a page without one scores as
    /// an empty output) and sums the pages.
    pub fn score(&self, outputs: &HashMap<String, String>) -> Counts {
        let mut total = Counts::default();
        for (id, gold) in &self.golds {
            let md = outputs.get(id).map_or("", String::as_str);
            let page = score_page(
                gold,
                self.texts.get(id).map(String::as_str),
                md,
                self.urls.get(id).map(String::as_str),
            );
            total.add(&page);
        }
        total
    }
}

/// Extracts every page of `folder` that has a structure gold with
/// `extractor` (whose options ask for the format to score: Markdown, with
/// images), in parallel, each with its manifest URL. A page the extractor
/// fails on gives an empty output; the second value counts them.
pub fn extract_folder(
    folder: &GoldFolder,
    extractor: &unchaff::Extractor,
) -> Result<(HashMap<String, String>, usize), EvalError> {
    use rayon::prelude::*;
    let results: Vec<Result<(String, Option<String>), EvalError>> = folder
        .golds
        .par_iter()
        .map(|(id, _)| {
            let path = folder.dir.join("pages").join(format!("{id}.html.gz"));
            let bytes = std::fs::read(&path).map_err(|e| EvalError::io(&path, e))?;
            let input =
                unchaff::Input::new(&bytes).with_url(folder.urls.get(id).map(String::as_str));
            let out = extractor
                .extract(input)
                .ok()
                .map(|x| x.rendered().into_owned());
            Ok((id.clone(), out))
        })
        .collect();
    let mut outputs = HashMap::new();
    let mut failed = 0;
    for r in results {
        let (id, out) = r?;
        match out {
            Some(o) => {
                outputs.insert(id, o);
            }
            None => failed += 1,
        }
    }
    Ok((outputs, failed))
}

/// Reads a tool's outputs from `dir`: `<id>.md` or `<id>.txt` files (an
/// `.md` wins when both exist).
pub fn load_outputs(dir: &Path) -> Result<HashMap<String, String>, EvalError> {
    let mut out = HashMap::new();
    let entries = std::fs::read_dir(dir).map_err(|e| EvalError::io(dir, e))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    // `.txt` before `.md`, so that `.md` overwrites.
    paths.sort_by_key(|p| p.extension().is_some_and(|e| e == "md"));
    for path in paths {
        let (Some(stem), Some(ext)) = (
            path.file_stem().and_then(|s| s.to_str()),
            path.extension().and_then(|s| s.to_str()),
        ) else {
            continue;
        };
        if ext != "md" && ext != "txt" || stem.starts_with('_') {
            continue;
        }
        let bytes = std::fs::read(&path).map_err(|e| EvalError::io(&path, e))?;
        out.insert(stem.to_string(), crate::decode_text(&bytes));
    }
    Ok(out)
}

/// One tool's summed counts.
#[derive(Clone, Debug)]
pub struct Row {
    /// The tool's name.
    pub tool: String,
    /// Its counts over the pages scored.
    pub counts: Counts,
}

/// The table's columns: header and how a row's value is read.
type Column = (&'static str, fn(&Counts) -> Option<f64>);

/// The columns of [`format_table`].
const COLUMNS: [Column; 16] = [
    ("text F1", |c| c.text_f1()),
    ("headings F1", |c| c.headings.f1()),
    ("lists F1", |c| c.lists.f1()),
    ("tables cell F1", |c| c.table_cells.f1()),
    ("layout ok", |c| c.layout.recall()),
    ("code exact", |c| c.code_exact.recall()),
    ("code sim", |c| c.code_similarity_mean()),
    ("code lang", |c| c.code_lang.recall()),
    ("math inline", |c| c.math_inline.recall()),
    ("math display", |c| c.math_display.recall()),
    ("math all", |c| c.math_all().recall()),
    ("image src", |c| c.figure_src.recall()),
    ("captions", |c| c.captions.recall()),
    ("quotes", |c| c.quotes.recall()),
    ("definitions", |c| c.definitions.recall()),
    ("sub/sup", |c| c.subsup.recall()),
];

/// The gold instances behind each column (for the `n` row).
fn column_gold(c: &Counts) -> [usize; 16] {
    [
        c.text.len(),
        c.headings.gold,
        c.lists.gold,
        c.table_cells.gold,
        c.layout.gold,
        c.code_exact.gold,
        c.code_exact.gold,
        c.code_lang.gold,
        c.math_inline.gold,
        c.math_display.gold,
        c.math_all().gold,
        c.figure_src.gold,
        c.captions.gold,
        c.quotes.gold,
        c.definitions.gold,
        c.subsup.gold,
    ]
}

/// The rows as a Markdown table: one row per tool (or folder), one column
/// per construct, then the output's malformed tables and fences; a last
/// row `n (gold)` gives the gold instances behind each column (pages for
/// the text) as counted in `gold` (the rows' common gold, or their sum).
/// Columns without gold instances there are left out.
pub fn format_table(rows: &[Row], gold: &Counts) -> String {
    let n = column_gold(gold);
    let shown: Vec<usize> = (0..COLUMNS.len()).filter(|&i| n[i] > 0).collect();
    let mut s = String::from("| tool | pages |");
    for &i in &shown {
        let _ = write!(s, " {} |", COLUMNS[i].0);
    }
    s.push_str(" ragged tables | open fences |\n|---|---:|");
    for _ in &shown {
        s.push_str("---:|");
    }
    s.push_str("---:|---:|\n");
    for r in rows {
        let _ = write!(s, "| {} | {} |", r.tool, r.counts.pages);
        for &i in &shown {
            match (COLUMNS[i].1)(&r.counts) {
                Some(v) => {
                    let _ = write!(s, " {v:.3} |");
                }
                None => s.push_str(" – |"),
            }
        }
        let w = &r.counts.well_formed;
        let _ = writeln!(
            s,
            " {} of {} | {} of {} |",
            w.ragged_tables, w.tables, w.open_fences, w.fences
        );
    }
    let _ = write!(s, "| n (gold) | {} |", gold.pages);
    for &i in &shown {
        let _ = write!(s, " {} |", n[i]);
    }
    s.push_str(" | |\n");
    s
}

/// The per-markup breakdown of the rows ([`Counts::by_markup`]) as a
/// Markdown table: one row per markup, its gold instances, and the share
/// each tool got right — code: exact blocks; math: formulas; tables:
/// cells; layout tables: pages without any table; figures: image
/// addresses; headings: headings (level and text).
pub fn format_markup_table(rows: &[Row]) -> String {
    let mut keys: Vec<&String> = rows
        .iter()
        .flat_map(|r| r.counts.by_markup.keys())
        .collect();
    keys.sort();
    keys.dedup();
    if keys.is_empty() {
        return String::new();
    }
    let mut s = String::from("| markup | n |");
    for r in rows {
        let _ = write!(s, " {} |", r.tool);
    }
    s.push_str("\n|---|---:|");
    for _ in rows {
        s.push_str("---:|");
    }
    s.push('\n');
    for k in keys {
        let n = rows
            .iter()
            .filter_map(|r| r.counts.by_markup.get(k))
            .map(|t| t.gold)
            .max()
            .unwrap_or(0);
        let _ = write!(s, "| {k} | {n} |");
        for r in rows {
            match r.counts.by_markup.get(k).and_then(Tally::recall) {
                Some(v) => {
                    let _ = write!(s, " {v:.2} |");
                }
                None => s.push_str(" – |"),
            }
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structure::{Code, Definition, Figure, Heading, ListItem, Math, Table};

    fn gold() -> Gold {
        Gold {
            scope: Construct::all_names(),
            complete: true,
            headings: vec![
                Heading {
                    level: 1,
                    text: "Title".into(),
                },
                Heading {
                    level: 2,
                    text: "Reading files".into(),
                },
            ],
            lists: vec![
                ListItem {
                    depth: 0,
                    ordered: false,
                    text: "one".into(),
                },
                ListItem {
                    depth: 1,
                    ordered: false,
                    text: "two".into(),
                },
            ],
            tables: vec![Table {
                rows: vec![
                    vec!["Tool".into(), "Speed".into(), "Speed".into()],
                    vec!["a".into(), "1".into(), "2".into()],
                ],
                header_rows: 1,
                caption: None,
            }],
            layout_tables: 0,
            code: vec![
                Code {
                    lang: Some("python".into()),
                    text: "def f():\n    return 1\n".into(),
                },
                Code {
                    lang: None,
                    text: "ls -l".into(),
                },
            ],
            math: vec![
                Math {
                    tex: "x^{2}".into(),
                    display: false,
                },
                Math {
                    tex: "{\\displaystyle \\frac{a}{b}}".into(),
                    display: true,
                },
                Math {
                    tex: "y".into(),
                    display: false,
                },
            ],
            figures: vec![Figure {
                src: "https://ex.org/img/a.png".into(),
                alternatives: vec![],
                alt: "".into(),
                caption: Some("A small cat".into()),
            }],
            quotes: vec!["To be or not".into()],
            definitions: vec![Definition {
                term: "Term".into(),
                definition: "Its meaning.".into(),
            }],
            subsup: vec!["H<sub>2</sub>O".into(), "mc<sup>2</sup>".into()],
            markups: Default::default(),
        }
    }

    const PERFECT: &str = "# Title\n\n## Reading files\n\n- one\n  - two\n\n\
        | Tool | Speed | Speed |\n|---|---|---|\n| a | 1 | 2 |\n\n\
        ```python\ndef f():\n    return 1\n```\n\n```\nls -l\n```\n\n\
        Text $x^2$ and $y$.\n\n$$\\frac{a}{b}$$\n\n![](/img/a.png)\n\nA small cat\n\n\
        > To be or not\n\nTerm\n: Its meaning.\n\nH<sub>2</sub>O and mc<sup>2</sup>.\n";

    #[test]
    fn a_perfect_output_scores_one_everywhere() {
        let c = score_page(&gold(), None, PERFECT, Some("https://ex.org/a/page.html"));
        assert_eq!(c.headings.f1(), Some(1.0));
        assert_eq!(c.lists.f1(), Some(1.0));
        assert_eq!(c.table_cells.f1(), Some(1.0));
        assert_eq!(c.code_exact.recall(), Some(1.0));
        assert_eq!(c.code_similarity_mean(), Some(1.0));
        assert_eq!(c.code_lang.recall(), Some(1.0));
        assert_eq!(c.math_all().recall(), Some(1.0));
        assert_eq!(c.figure_src.recall(), Some(1.0));
        assert_eq!(c.captions.recall(), Some(1.0));
        assert_eq!(c.quotes.recall(), Some(1.0));
        assert_eq!(c.definitions.recall(), Some(1.0));
        assert_eq!(c.subsup.recall(), Some(1.0));
        assert_eq!(c.layout.recall(), None);
    }

    #[test]
    fn known_losses_give_known_scores() {
        // Headings: the h2 keeps its permalink mark (wrong text), so 1 of 2
        // match, 1 of 2 output: F1 0.5. Lists: the nested item comes out at
        // depth 0: 1 of 2. Table: one column lost (the colspan not
        // expanded: 4 gold cells, "Speed" once) and a spurious 2-cell
        // table: matched 4 of 6 gold, 4 of 4+2 output → P 4/6, R 4/6.
        // Code: tabs instead of spaces in the first block (not exact), the
        // second block missing. Math: inline x^2 written as text, display
        // right, y right. Sub/sup flattened. Image relative to the page.
        let md = "# Title\n\n## Reading files¶\n\n- one\n- two\n\n\
            | Tool | Speed |\n|---|---|\n| a | 1 |\n\n| x | y |\n|---|---|\n\n\
            ```python\ndef f():\n\treturn 1\n```\n\n\
            Text x^2 and $y$.\n\n$$\\frac{a}{b}$$\n\n![](img/a.png)\n\n\
            > To be or not\n\nTerm: Its meaning.\n\nH2O and mc2.\n";
        let c = score_page(&gold(), None, md, Some("https://ex.org/page.html"));
        assert_eq!(
            c.headings,
            Tally {
                matched: 1,
                gold: 2,
                output: 2
            }
        );
        assert_eq!(
            c.lists,
            Tally {
                matched: 1,
                gold: 2,
                output: 2
            }
        );
        assert_eq!(
            c.table_cells,
            Tally {
                matched: 4,
                gold: 6,
                output: 6
            }
        );
        assert!((c.table_cells.f1().unwrap() - 4.0 / 6.0).abs() < 1e-9);
        assert_eq!(
            c.code_exact,
            Tally {
                matched: 0,
                gold: 2,
                output: 1
            }
        );
        let sim = code_similarity("def f():\n    return 1", "def f():\n\treturn 1");
        assert!((c.code_similarity_mean().unwrap() - sim / 2.0).abs() < 1e-9);
        assert!(sim > 0.7 && sim < 1.0);
        assert_eq!(
            c.code_lang,
            Tally {
                matched: 1,
                gold: 1,
                output: 1
            }
        );
        assert_eq!(
            c.math_inline,
            Tally {
                matched: 1,
                gold: 2,
                output: 2
            }
        );
        assert_eq!(
            c.math_display,
            Tally {
                matched: 1,
                gold: 1,
                output: 1
            }
        );
        assert_eq!(c.subsup.matched, 0);
        assert_eq!(c.definitions.matched, 1);
        assert_eq!(c.figure_src.matched, 1);
        assert_eq!(c.captions.matched, 0);
    }

    #[test]
    fn markups_break_the_counts_down() {
        let mut g = gold();
        g.markups = crate::structure::Markups {
            headings: vec!["heading:title".into(), "heading:headerlink".into()],
            tables: vec!["table:spans".into()],
            layout: None,
            code: vec!["code:prism".into(), "code:plain".into()],
            math: vec!["math:katex".into(), "math:katex".into(), "math:raw".into()],
            figures: vec!["figure:figure".into()],
        };
        // The first code block exact, the second missing; the inline x^2
        // written as text; the ¶ heading a miss.
        let md = "# Title\n\n## Reading files¶\n\n| Tool | Speed | Speed |\n|---|---|---|\n| a | 1 | 2 |\n\n\
            ```python\ndef f():\n    return 1\n```\n\nText x^2 and $y$.\n\n$$\\frac{a}{b}$$\n";
        let c = score_page(&g, None, md, None);
        let m = |k: &str| c.by_markup[k];
        assert_eq!(
            m("code:prism"),
            Tally {
                matched: 1,
                gold: 1,
                output: 1
            }
        );
        assert_eq!(
            m("code:plain"),
            Tally {
                matched: 0,
                gold: 1,
                output: 1
            }
        );
        assert_eq!(
            m("math:katex"),
            Tally {
                matched: 1,
                gold: 2,
                output: 2
            }
        );
        assert_eq!(m("math:raw").matched, 1);
        assert_eq!(
            m("table:spans"),
            Tally {
                matched: 6,
                gold: 6,
                output: 6
            }
        );
        assert_eq!(m("heading:title").matched, 1);
        assert_eq!(m("heading:headerlink").matched, 0);
        assert_eq!(m("figure:figure").matched, 0);
        let t = format_markup_table(&[Row {
            tool: "x".into(),
            counts: c,
        }]);
        assert!(t.contains("| code:plain | 1 | 0.00 |"), "{t}");
        assert!(t.contains("| math:katex | 2 | 0.50 |"), "{t}");
    }

    #[test]
    fn layout_pages_count_any_table_against() {
        let g = Gold {
            scope: Construct::all_names(),
            complete: true,
            layout_tables: 1,
            ..Gold::default()
        };
        let c = score_page(&g, None, "| a | b |\n|---|---|\n| c | d |\n", None);
        assert_eq!(
            c.layout,
            Tally {
                matched: 0,
                gold: 1,
                output: 1
            }
        );
        assert_eq!(
            c.table_cells,
            Tally {
                matched: 0,
                gold: 0,
                output: 4
            }
        );
        let c = score_page(&g, None, "a\n\nb\n", None);
        assert_eq!(c.layout.matched, 1);
        // Not complete: an unmatched table is not counted.
        let g = Gold {
            complete: false,
            ..g
        };
        let c = score_page(&g, None, "| a | b |\n|---|---|\n| c | d |\n", None);
        assert_eq!(c.table_cells.output, 0);
    }

    #[test]
    fn rows_are_aligned_around_missing_ones() {
        let k = |rows: &[&[&str]]| -> Vec<Vec<String>> {
            rows.iter()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect()
        };
        let gold = k(&[&["h", "i"], &["a", "b"], &["c", "d"]]);
        // The header row lost and an extra row inserted: 4 cells still pair.
        let out = k(&[&["x", "y"], &["a", "b"], &["c", "d"]]);
        assert_eq!(shared_cells(&gold, &out), 4);
        // A shifted column shares nothing.
        let out = k(&[&["", "h", "i"], &["", "a", "b"]]);
        assert_eq!(shared_cells(&gold, &out), 0);
        // Past the work bound, rows pair by position: the lost header row
        // then shifts every row.
        let wide: Vec<Vec<String>> = (0..3000).map(|i| vec![format!("r{i}"); 10]).collect();
        let shifted: Vec<Vec<String>> = wide[1..].to_vec();
        assert!(wide.len() * shifted.len() * 10 > MAX_ALIGN_CELLS);
        assert_eq!(shared_cells(&wide, &shifted), 0);
        assert_eq!(shared_cells(&wide, &wide[..5]), 50);
    }

    #[test]
    fn scope_limits_what_is_counted() {
        let g = Gold {
            scope: vec!["code".into()],
            complete: false,
            code: vec![Code {
                lang: None,
                text: "x = 1".into(),
            }],
            ..Gold::default()
        };
        let c = score_page(&g, None, "# A heading\n\n    x = 1\n", None);
        assert_eq!(
            c.code_exact,
            Tally {
                matched: 1,
                gold: 1,
                output: 1
            }
        );
        assert_eq!(c.headings, Tally::default());
        assert_eq!(c.headings.f1(), None);
    }

    #[test]
    fn outputs_load_md_over_txt() {
        let dir = crate::structure::tests::tempdir();
        std::fs::write(dir.join("a.txt"), "text").unwrap();
        std::fs::write(dir.join("a.md"), "markdown").unwrap();
        std::fs::write(dir.join("b.txt"), "b").unwrap();
        std::fs::write(dir.join("_timings.tsv"), "x").unwrap();
        let o = load_outputs(&dir).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o["a"], "markdown");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn table_has_a_row_per_tool_and_the_gold_counts() {
        let c = score_page(&gold(), None, PERFECT, Some("https://ex.org/a/page.html"));
        let t = format_table(
            &[Row {
                tool: "x".into(),
                counts: c.clone(),
            }],
            &c,
        );
        assert!(t.starts_with("| tool | pages | headings F1 |"), "{t}");
        assert!(t.contains("| x | 1 | 1.000 |"), "{t}");
        assert!(t.contains("| n (gold) | 1 | 2 |"), "{t}");
        assert!(!t.contains("layout ok"));
    }
}
