//! The real pages' constructs: which pages of a dataset folder hold data
//! tables, `<pre>` code, line-numbered code tables, math (in any of the
//! markups the generator writes, and WordPress' TeX images), figures and
//! sub/sup *in their main content* — the construct's text appears in the
//! page's gold text — and, where that is sound, the construct's gold
//! derived from the page source:
//!
//! * a data table (at least [`MIN_TABLE_CELLS`] filled cells, no table
//!   inside, short cells, [`TABLE_CELLS_IN_GOLD`] of its cells in the
//!   gold) → its span-expanded grid;
//! * a `<pre>` whose text is in the gold → that code block, exactly;
//! * a line-numbered code table (Pygments, rouge, GitHub, highlight.js
//!   line numbers) or a `<pre>` with Pygments' inline numbers → the code
//!   without the numbers;
//! * a formula whose TeX is in the markup (a TeX annotation, a MathJax
//!   source script, the encyclopedia's `alttext`, a TeX image's `alt`,
//!   raw `\(…\)`/`\[…\]`/`$$…$$` text) in a block whose text is in the
//!   gold → its TeX; MathML without TeX and MathJax 3 output are counted,
//!   not derived;
//! * a `<figure>` with an image and a caption in the gold → the image's
//!   address and the caption;
//! * a short `<sub>`/`<sup>` (no link inside: not a footnote mark) whose
//!   plain text is in the gold → the occurrence with its tags.
//!
//! A real page's gold lists only what was derived ([`Gold::complete`] is
//! false), so the scorer counts no unmatched output against it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use unchaff::dom::{DOCUMENT, Dom, NodeId, Tag};

use super::{Code, Construct, Figure, Gold, Math, html, text_key};
use crate::EvalError;
use crate::dataset::Dataset;

/// Fewest filled cells of a data table: a 2 × 2 table.
pub const MIN_TABLE_CELLS: usize = 4;

/// Share of a data table's filled cells whose text must be in the gold
/// for the table to count as main content: nine in ten, so that a cell
/// the gold lost (a header written as an image, a cell with a link the
/// annotator left out) does not hide the table, while a navigation table
/// whose few words also occur in the article does not pass.
pub const TABLE_CELLS_IN_GOLD: f64 = 0.9;

/// Longest cell text of a data table, in characters: a cell holding more
/// is a layout cell (a whole column of the page).
pub const MAX_DATA_CELL_CHARS: usize = 400;

/// Most characters of a `<sub>`/`<sup>` that counts as a sub/sup
/// occurrence (an index, an exponent, a chemical count); longer ones are
/// small print.
pub const MAX_SUBSUP_CHARS: usize = 12;

/// Words of context a formula's block must share with the gold, in a row,
/// for the formula to count as main content.
pub const CONTEXT_WORDS: usize = 5;

/// Ancestors climbed from a formula to find a block with
/// [`CONTEXT_WORDS`] words of context.
const CONTEXT_CLIMB: usize = 6;

/// What one page holds.
#[derive(Clone, Debug, Default)]
pub struct PageSurvey {
    /// The derived gold (scope: the constructs derived).
    pub gold: Gold,
    /// Data tables in the main content.
    pub tables: usize,
    /// `<pre>` blocks in the main content (line-numbered ones not counted).
    pub pre: usize,
    /// Line-numbered code (tables or inline numbers) in the main content.
    pub numbered_code: usize,
    /// Formulas in the main content, by markup.
    pub math: BTreeMap<&'static str, usize>,
    /// Figures in the main content.
    pub figures: usize,
    /// Sub/sup occurrences in the main content.
    pub subsup: usize,
}

impl PageSurvey {
    /// Whether the page holds any construct.
    pub fn any(&self) -> bool {
        self.tables + self.pre + self.numbered_code + self.figures + self.subsup > 0
            || !self.math.is_empty()
    }

    /// Formulas of every markup.
    pub fn math_total(&self) -> usize {
        self.math.values().sum()
    }
}

/// The gold text as a key with a space on each side, for whole-word
/// `contains` checks.
struct GoldKey(String);

impl GoldKey {
    fn new(gold: &str) -> GoldKey {
        GoldKey(format!(" {} ", text_key(gold)))
    }

    /// Whether `text`'s words (at least one) appear in a row in the gold.
    fn holds(&self, text: &str) -> bool {
        let k = text_key(text);
        !k.is_empty() && self.0.contains(&format!(" {k} "))
    }

    /// Whether some [`CONTEXT_WORDS`] words of `text` in a row appear in
    /// the gold (all of them when it has fewer).
    fn holds_context(&self, text: &str) -> bool {
        let words = crate::metrics::words(text);
        if words.len() <= CONTEXT_WORDS {
            return self.holds(text);
        }
        words
            .windows(CONTEXT_WORDS)
            .any(|w| self.0.contains(&format!(" {} ", w.join(" "))))
    }
}

/// Classes of tables that are line-numbered code.
const CODE_TABLE_CLASSES: &[&str] = &[
    "highlighttable",
    "rouge-table",
    "hljs-ln",
    "js-file-line-container",
    "lntable",
];

/// Classes of gutter cells of line-numbered code.
const GUTTER_CLASSES: &[&str] = &[
    "linenos",
    "gutter",
    "blob-num",
    "hljs-ln-numbers",
    "lnt",
    "line-numbers",
];

/// Classes of code cells of line-numbered code.
const CODE_CELL_CLASSES: &[&str] = &["code", "blob-code", "hljs-ln-code", "lntd"];

fn has_any_class(dom: &Dom, id: NodeId, classes: &[&str]) -> bool {
    classes.iter().any(|c| html::has_class(dom, id, c))
}

/// Whether `table` is line-numbered code.
fn is_code_table(dom: &Dom, table: NodeId) -> bool {
    has_any_class(dom, table, CODE_TABLE_CLASSES)
        || dom.descendants(table).any(|n| {
            (dom.is(n, Tag::TD) || dom.is(n, Tag::TH)) && has_any_class(dom, n, GUTTER_CLASSES)
        })
}

/// The code of a line-numbered code table: the code cell's `<pre>` (one
/// cell for the whole block), or the code cells of the rows joined by
/// line breaks (a cell per line).
fn code_table_text(dom: &Dom, table: NodeId) -> Option<String> {
    let cells: Vec<NodeId> = html::table_rows(dom, table)
        .into_iter()
        .flat_map(|tr| html::row_cells(dom, tr))
        .filter(|&c| has_any_class(dom, c, CODE_CELL_CLASSES))
        .collect();
    match cells.as_slice() {
        [] => None,
        [one] => {
            let pre = dom
                .descendants(*one)
                .find(|&n| dom.is(n, Tag::PRE))
                .unwrap_or(*one);
            Some(trim_code(&html::raw_text(dom, pre)))
        }
        many => Some(trim_code(
            &many
                .iter()
                .map(|&c| html::raw_text(dom, c).trim_end_matches('\n').to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        )),
    }
}

/// A code text without its final line breaks.
fn trim_code(s: &str) -> String {
    s.trim_end_matches(['\n', '\r']).to_string()
}

/// The raw text of `pre` without the `span.linenos` numbers.
fn pre_text_without_numbers(dom: &Dom, pre: NodeId) -> String {
    let mut out = String::new();
    let mut skip_until: Option<NodeId> = None;
    for edge in dom.traverse(pre) {
        match edge {
            unchaff::dom::Edge::Enter(n) => {
                if skip_until.is_some() {
                    continue;
                }
                if html::has_class(dom, n, "linenos")
                    || html::has_class(dom, n, "line-numbers-rows")
                {
                    skip_until = Some(n);
                } else if let Some(t) = dom.text_of(n) {
                    out.push_str(t);
                } else if dom.is(n, Tag::BR) {
                    out.push('\n');
                }
            }
            unchaff::dom::Edge::Leave(n) => {
                if skip_until == Some(n) {
                    skip_until = None;
                }
            }
        }
    }
    out
}

/// The language a code element's classes name (on the element, a child
/// `<code>`, or an ancestor within three levels): `language-x`, `lang-x`,
/// `highlight-x`, `highlight-source-x`, `sourceCode x`, `brush: x`.
fn code_lang(dom: &Dom, pre: NodeId) -> Option<String> {
    let mut cands: Vec<NodeId> = dom
        .children(pre)
        .filter(|&c| dom.is(c, Tag::CODE))
        .collect();
    let mut cur = pre;
    for _ in 0..4 {
        if cur.is_none() {
            break;
        }
        cands.push(cur);
        cur = dom.nodes[cur.index()].parent;
    }
    for n in cands {
        let Some(class) = dom.attr(n, "class") else {
            continue;
        };
        if let Some(rest) = class.split("brush:").nth(1) {
            let l = rest.trim().split([';', ' ']).next().unwrap_or("");
            if !l.is_empty() {
                return Some(l.to_ascii_lowercase());
            }
        }
        let words: Vec<&str> = class.split_ascii_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            for p in ["language-", "lang-", "highlight-source-", "highlight-"] {
                if let Some(l) = w.strip_prefix(p)
                    && !l.is_empty()
                    && l != "none"
                {
                    return Some(l.to_ascii_lowercase());
                }
            }
            if *w == "sourceCode"
                && let Some(l) = words.get(i + 1)
            {
                return Some(l.to_ascii_lowercase());
            }
        }
    }
    None
}

/// The nearest ancestor of `id` (climbing at most [`CONTEXT_CLIMB`]
/// levels) whose block text has [`CONTEXT_WORDS`] words, and whether its
/// words are in the gold.
fn context_in_gold(dom: &Dom, id: NodeId, gold: &GoldKey) -> bool {
    let mut cur = dom.nodes[id.index()].parent;
    for _ in 0..CONTEXT_CLIMB {
        if cur.is_none() {
            return false;
        }
        let t = html::block_text(dom, cur);
        if crate::metrics::words(&t).len() >= CONTEXT_WORDS {
            return gold.holds_context(&t);
        }
        cur = dom.nodes[cur.index()].parent;
    }
    false
}

/// Whether `id` is inside an element for which `pred` holds (not `id`).
fn inside(dom: &Dom, id: NodeId, pred: impl Fn(NodeId) -> bool) -> bool {
    let p = dom.nodes[id.index()].parent;
    !p.is_none() && html::ancestor_or_self(dom, p, pred).is_some()
}

/// The TeX of a MathML element from its TeX annotation, if it has one.
fn annotation_tex(dom: &Dom, math: NodeId) -> Option<String> {
    dom.descendants(math)
        .find(|&n| {
            html::name(dom, n) == Some("annotation")
                && dom
                    .attr(n, "encoding")
                    .is_some_and(|e| e.eq_ignore_ascii_case("application/x-tex"))
        })
        .map(|n| html::raw_text(dom, n).trim().to_string())
        .filter(|t| !t.is_empty())
}

/// Raw TeX delimiters in text, with whether each is display.
const RAW_DELIMITERS: &[(&str, &str, bool)] = &[
    ("\\(", "\\)", false),
    ("\\[", "\\]", true),
    ("$$", "$$", true),
];

/// Surveys one page: `html` its decoded source, `gold_text` its gold,
/// `url` its address (resolves figure images).
pub fn survey_page(html_src: &str, gold_text: &str, url: Option<&str>) -> PageSurvey {
    let dom = html::parse(html_src);
    let gold = GoldKey::new(gold_text);
    let base = url.and_then(|u| url::Url::parse(u).ok());
    let mut s = PageSurvey::default();
    let mut g = Gold::default();
    let mut math_seen: Vec<NodeId> = Vec::new();
    for n in html::elements(&dom) {
        let Some(name) = html::name(&dom, n) else {
            continue;
        };
        match name {
            "table" => {
                if is_code_table(&dom, n) {
                    if let Some(code) = code_table_text(&dom, n)
                        && gold.holds(&code)
                    {
                        s.numbered_code += 1;
                        g.code.push(Code {
                            lang: code_lang(&dom, n),
                            text: code,
                        });
                    }
                    continue;
                }
                if dom.descendants(n).skip(1).any(|d| dom.is(d, Tag::TABLE)) {
                    continue;
                }
                let Some(t) = html::table_grid(&dom, n) else {
                    continue;
                };
                let cells: Vec<&String> = t
                    .rows
                    .iter()
                    .flatten()
                    .filter(|c| !text_key(c).is_empty())
                    .collect();
                let width = t.rows.first().map_or(0, Vec::len);
                if t.rows.len() < 2 || width < 2 || cells.len() < MIN_TABLE_CELLS {
                    continue;
                }
                if cells
                    .iter()
                    .any(|c| c.chars().count() > MAX_DATA_CELL_CHARS)
                {
                    continue;
                }
                let found = cells.iter().filter(|c| gold.holds(c)).count();
                if found as f64 >= TABLE_CELLS_IN_GOLD * cells.len() as f64 {
                    s.tables += 1;
                    g.tables.push(t);
                }
            }
            "pre" => {
                if inside(&dom, n, |a| dom.is(a, Tag::PRE))
                    || inside(&dom, n, |a| dom.is(a, Tag::TABLE) && is_code_table(&dom, a))
                {
                    continue;
                }
                let numbered = dom.descendants(n).any(|d| {
                    html::has_class(&dom, d, "linenos")
                        || html::has_class(&dom, d, "line-numbers-rows")
                });
                let text = trim_code(&pre_text_without_numbers(&dom, n));
                if text.trim().is_empty() || !gold.holds(&text) {
                    continue;
                }
                if numbered {
                    s.numbered_code += 1;
                } else {
                    s.pre += 1;
                }
                g.code.push(Code {
                    lang: code_lang(&dom, n),
                    text,
                });
            }
            "math" => {
                if inside(&dom, n, |a| math_seen.contains(&a)) {
                    continue;
                }
                // Inside KaTeX, MathJax or the encyclopedia pattern: counted there.
                if inside(&dom, n, |a| {
                    html::has_class(&dom, a, "katex")
                        || html::has_class(&dom, a, "mwe-math-element")
                        || html::has_class(&dom, a, "MathJax")
                        || html::name(&dom, a) == Some("mjx-container")
                }) {
                    continue;
                }
                if !context_in_gold(&dom, n, &gold) {
                    continue;
                }
                let display = dom.attr(n, "display") == Some("block");
                match annotation_tex(&dom, n) {
                    Some(tex) => {
                        *s.math.entry("mathml-tex").or_default() += 1;
                        g.math.push(Math { tex, display });
                    }
                    None => *s.math.entry("mathml").or_default() += 1,
                }
            }
            "script" => {
                let Some(ty) = dom.attr(n, "type") else {
                    continue;
                };
                if !ty.starts_with("math/tex") || !context_in_gold(&dom, n, &gold) {
                    continue;
                }
                let tex = html::raw_text(&dom, n).trim().to_string();
                if tex.is_empty() {
                    continue;
                }
                *s.math.entry("mathjax2").or_default() += 1;
                g.math.push(Math {
                    tex,
                    display: ty.contains("mode=display"),
                });
            }
            "mjx-container" if context_in_gold(&dom, n, &gold) => {
                *s.math.entry("mathjax3").or_default() += 1;
                math_seen.push(n);
            }
            "span" if html::has_class(&dom, n, "katex") => {
                math_seen.push(n);
                if !context_in_gold(&dom, n, &gold) {
                    continue;
                }
                *s.math.entry("katex").or_default() += 1;
                let display = inside(&dom, n, |a| html::has_class(&dom, a, "katex-display"));
                if let Some(tex) = dom
                    .descendants(n)
                    .find(|&d| dom.is(d, Tag::MATH))
                    .and_then(|m| annotation_tex(&dom, m))
                {
                    g.math.push(Math { tex, display });
                }
            }
            "span" if html::has_class(&dom, n, "mwe-math-element") => {
                math_seen.push(n);
                if !context_in_gold(&dom, n, &gold) {
                    continue;
                }
                *s.math.entry("encyclopedia").or_default() += 1;
                let display = html::has_class(&dom, n, "mwe-math-element-block")
                    || dom
                        .descendants(n)
                        .any(|d| html::has_class(&dom, d, "mwe-math-mathml-display"));
                let tex = dom
                    .descendants(n)
                    .find_map(|d| {
                        (dom.is(d, Tag::MATH) || dom.is(d, Tag::IMG))
                            .then(|| dom.attr(d, "alttext").or_else(|| dom.attr(d, "alt")))
                            .flatten()
                    })
                    .map(str::to_string);
                if let Some(tex) = tex.filter(|t| !t.trim().is_empty()) {
                    g.math.push(Math { tex, display });
                }
            }
            "img" => {
                let tex_image =
                    html::has_class(&dom, n, "latex") || html::has_class(&dom, n, "tex");
                if tex_image
                    && let Some(alt) = dom.attr(n, "alt").filter(|a| !a.trim().is_empty())
                    && context_in_gold(&dom, n, &gold)
                {
                    *s.math.entry("tex-image").or_default() += 1;
                    g.math.push(Math {
                        tex: alt.to_string(),
                        display: false,
                    });
                }
            }
            "figure" => {
                let Some(img) = dom.descendants(n).find(|&d| dom.is(d, Tag::IMG)) else {
                    continue;
                };
                let Some(cap) = dom.descendants(n).find(|&d| dom.is(d, Tag::FIGCAPTION)) else {
                    continue;
                };
                let caption = html::block_text(&dom, cap).replace('\n', " ");
                if !gold.holds(&caption) {
                    continue;
                }
                let Some(fig) = figure_of(&dom, img, &caption, base.as_ref()) else {
                    continue;
                };
                s.figures += 1;
                g.figures.push(fig);
            }
            "sub" | "sup" => {
                if let Some(occ) = subsup_occurrence(&dom, n, gold_text) {
                    s.subsup += 1;
                    g.subsup.push(occ);
                }
            }
            _ => {}
        }
    }
    raw_math(&dom, &gold, &mut s, &mut g);
    let mut scope = Vec::new();
    for (c, has) in [
        (Construct::Tables, !g.tables.is_empty()),
        (Construct::Code, !g.code.is_empty()),
        (Construct::Math, !g.math.is_empty()),
        (Construct::Figures, !g.figures.is_empty()),
        (Construct::Subsup, !g.subsup.is_empty()),
    ] {
        if has {
            scope.push(c.name().to_string());
        }
    }
    g.scope = scope;
    g.complete = false;
    s.gold = g;
    s
}

/// The gold of a figure's image: its address (a lazy image's `data-src`
/// over a `data:` placeholder), `srcset` candidates as alternatives.
fn figure_of(dom: &Dom, img: NodeId, caption: &str, base: Option<&url::Url>) -> Option<Figure> {
    let resolve = |s: &str| match base {
        Some(b) => b.join(s.trim()).map(|u| u.to_string()).ok(),
        None => url::Url::parse(s.trim()).map(|u| u.to_string()).ok(),
    };
    let src = dom
        .attr(img, "src")
        .filter(|s| !s.trim().is_empty() && !s.starts_with("data:"));
    let lazy = dom
        .attr(img, "data-src")
        .or_else(|| dom.attr(img, "data-lazy-src"));
    let main = lazy.or(src)?;
    let mut alternatives = Vec::new();
    for attr in ["srcset", "data-srcset"] {
        if let Some(set) = dom.attr(img, attr) {
            alternatives.extend(
                set.split(',')
                    .filter_map(|c| c.split_whitespace().next())
                    .filter_map(resolve),
            );
        }
    }
    if let Some(s) = src.filter(|_| lazy.is_some()).and_then(resolve) {
        alternatives.push(s);
    }
    Some(Figure {
        src: resolve(main)?,
        alternatives,
        alt: dom.attr(img, "alt").unwrap_or("").to_string(),
        caption: Some(caption.to_string()),
    })
}

/// A sub/sup occurrence with the word characters touching it, if the
/// element is short, holds no link, and its plain form is in the gold.
fn subsup_occurrence(dom: &Dom, n: NodeId, gold_text: &str) -> Option<String> {
    let tag = html::name(dom, n)?;
    if dom
        .descendants(n)
        .any(|d| dom.is(d, Tag::A) || dom.element(d).is_some() && d != n)
    {
        return None;
    }
    let inner = html::raw_text(dom, n);
    let inner = inner.trim();
    if inner.is_empty() || inner.chars().count() > MAX_SUBSUP_CHARS {
        return None;
    }
    let prev = dom.prev_sibling(n);
    let next = dom.nodes[n.index()].next_sibling;
    let before: String = prev
        .some()
        .and_then(|p| dom.text_of(p))
        .map(|t| {
            let w: Vec<char> = t
                .chars()
                .rev()
                .take_while(|c| c.is_alphanumeric())
                .collect();
            w.into_iter().rev().collect()
        })
        .unwrap_or_default();
    let after: String = next
        .some()
        .and_then(|x| dom.text_of(x))
        .map(|t| t.chars().take_while(|c| c.is_alphanumeric()).collect())
        .unwrap_or_default();
    if before.is_empty() && after.is_empty() {
        return None;
    }
    let plain = format!("{before}{inner}{after}");
    let gold = gold_text.split_whitespace().collect::<Vec<_>>().join(" ");
    // The plain form as a word of the gold (not inside a longer word).
    let found = gold.match_indices(&plain).any(|(i, _)| {
        let pre_ok = gold[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let post_ok = gold[i + plain.len()..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric());
        pre_ok && post_ok
    });
    found.then(|| format!("{before}<{tag}>{inner}</{tag}>{after}"))
}

/// Raw `\(…\)`, `\[…\]` and `$$…$$` TeX in text nodes whose block is in
/// the gold.
fn raw_math(dom: &Dom, gold: &GoldKey, s: &mut PageSurvey, g: &mut Gold) {
    for n in dom.descendants(DOCUMENT) {
        let Some(t) = dom.text_of(n) else { continue };
        if !t.contains("\\(") && !t.contains("\\[") && !t.contains("$$") {
            continue;
        }
        if inside(dom, n, |a| {
            dom.is(a, Tag::SCRIPT)
                || dom.is(a, Tag::STYLE)
                || dom.is(a, Tag::PRE)
                || dom.is(a, Tag::CODE)
        }) {
            continue;
        }
        let mut found = Vec::new();
        for &(open, close, display) in RAW_DELIMITERS {
            let mut rest = t;
            while let Some(i) = rest.find(open) {
                let after = &rest[i + open.len()..];
                let Some(j) = after.find(close) else { break };
                let tex = after[..j].trim();
                if looks_like_tex(tex) {
                    found.push(Math {
                        tex: tex.to_string(),
                        display,
                    });
                }
                rest = &after[j + close.len()..];
            }
        }
        if found.is_empty() || !context_in_gold(dom, n, gold) {
            continue;
        }
        *s.math.entry("raw-tex").or_default() += found.len();
        g.math.extend(found);
    }
}

/// Whether text between raw math delimiters reads as TeX: a letter or a
/// digit, and a TeX command, script, brace or relation — so that prices
/// (`$$`, `$$-$$$`) and stray delimiters are not taken for formulas.
fn looks_like_tex(s: &str) -> bool {
    !s.is_empty()
        && !s.contains('$')
        && s.chars().any(|c| c.is_ascii_alphanumeric())
        && s.contains(['\\', '^', '_', '{', '=', '+', '<', '>'])
}

/// One folder's survey.
#[derive(Clone, Debug, Default)]
pub struct FolderSurvey {
    /// The folder's name.
    pub name: String,
    /// Pages surveyed (those with a non-empty gold).
    pub pages: usize,
    /// Pages holding each construct: tables, pre, numbered code, math,
    /// figures, sub/sup.
    pub pages_with: [usize; 6],
    /// Instances of each construct, in the same order.
    pub instances: [usize; 6],
    /// Formulas by markup.
    pub math: BTreeMap<&'static str, usize>,
    /// Pages with a derived gold, and what was derived: tables, code
    /// blocks, formulas, figures, sub/sup.
    pub derived_pages: usize,
    /// Derived instances: tables, code, math, figures, sub/sup.
    pub derived: [usize; 5],
    /// The pages' surveys, by id (only pages holding a construct).
    pub surveys: BTreeMap<String, PageSurvey>,
}

/// Surveys every page of a dataset folder.
pub fn survey_folder(dir: &Path) -> Result<FolderSurvey, EvalError> {
    use rayon::prelude::*;
    let ds = Dataset::open(dir)?;
    let results: Vec<Result<Option<(String, PageSurvey)>, EvalError>> = ds
        .pages
        .par_iter()
        .map(|p| {
            let Some(gold) = ds.read_gold(p)? else {
                return Ok(None);
            };
            if gold.trim().is_empty() {
                return Ok(None);
            }
            let bytes = ds.read_page_html_gunzipped(p)?;
            let text = match unchaff::decode::decode(&bytes, None) {
                Ok(d) => d.text.into_owned(),
                Err(_) => String::from_utf8_lossy(&bytes).into_owned(),
            };
            Ok(Some((
                p.id.clone(),
                survey_page(&text, &gold, p.url.as_deref()),
            )))
        })
        .collect();
    let mut f = FolderSurvey {
        name: ds.name.clone(),
        ..FolderSurvey::default()
    };
    for r in results {
        let Some((id, s)) = r? else { continue };
        f.pages += 1;
        let counts = [
            s.tables,
            s.pre,
            s.numbered_code,
            s.math_total(),
            s.figures,
            s.subsup,
        ];
        for (i, c) in counts.iter().enumerate() {
            f.instances[i] += c;
            f.pages_with[i] += usize::from(*c > 0);
        }
        for (k, v) in &s.math {
            *f.math.entry(k).or_default() += v;
        }
        if !s.gold.scope.is_empty() {
            f.derived_pages += 1;
            let g = &s.gold;
            for (i, c) in [
                g.tables.len(),
                g.code.len(),
                g.math.len(),
                g.figures.len(),
                g.subsup.len(),
            ]
            .iter()
            .enumerate()
            {
                f.derived[i] += c;
            }
        }
        if s.any() {
            f.surveys.insert(id, s);
        }
    }
    Ok(f)
}

/// The surveys as a Markdown table: per folder, pages holding each
/// construct (and instances in brackets), then the pages with a derived
/// gold; a formula markup breakdown below.
pub fn format_survey(folders: &[FolderSurvey]) -> String {
    let mut s = String::from(
        "| folder | pages | data tables | `<pre>` code | numbered code | math | figures | sub/sup | pages with derived gold |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let mut total = FolderSurvey {
        name: "all".into(),
        ..FolderSurvey::default()
    };
    for f in folders {
        let _ = write!(s, "| {} | {} |", f.name, f.pages);
        for i in 0..6 {
            let _ = write!(s, " {} ({}) |", f.pages_with[i], f.instances[i]);
            total.pages_with[i] += f.pages_with[i];
            total.instances[i] += f.instances[i];
        }
        let _ = writeln!(s, " {} |", f.derived_pages);
        total.pages += f.pages;
        total.derived_pages += f.derived_pages;
        for (k, v) in &f.math {
            *total.math.entry(k).or_default() += v;
        }
    }
    let _ = write!(s, "| **all** | {} |", total.pages);
    for i in 0..6 {
        let _ = write!(s, " {} ({}) |", total.pages_with[i], total.instances[i]);
    }
    let _ = writeln!(s, " {} |", total.derived_pages);
    if !total.math.is_empty() {
        s.push_str("\nFormulas by markup: ");
        let parts: Vec<String> = total.math.iter().map(|(k, v)| format!("{k} {v}")).collect();
        s.push_str(&parts.join(", "));
        s.push('\n');
    }
    s
}

/// Writes the pages with a derived gold as dataset folders under `out`:
/// `out/<folder>/pages/<id>.html.gz` and `gold/<id>.txt` link to the
/// source folder's files (copies where links are not available), the
/// manifest keeps their lines, and `structure/<id>.json` holds the derived
/// gold. Returns the pages written; a folder without any is not written.
/// The pages stay third-party data: `out` belongs outside the repository.
pub fn write_subset(source: &Path, survey: &FolderSurvey, out: &Path) -> Result<usize, EvalError> {
    if survey.derived_pages == 0 {
        return Ok(0);
    }
    let dir = out.join(&survey.name);
    for sub in ["pages", "gold"] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).map_err(|e| EvalError::io(&d, e))?;
    }
    let manifest_src = source.join("manifest.jsonl");
    let text =
        std::fs::read_to_string(&manifest_src).map_err(|e| EvalError::io(&manifest_src, e))?;
    let mut manifest = String::new();
    let mut n = 0;
    for line in text.lines() {
        let Ok(serde_json::Value::Object(mut obj)) =
            serde_json::from_str::<serde_json::Value>(line)
        else {
            continue;
        };
        let id = match obj.get("id") {
            Some(serde_json::Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => continue,
        };
        let Some(s) = survey.surveys.get(&id).filter(|s| !s.gold.scope.is_empty()) else {
            continue;
        };
        obj.insert("structure".into(), serde_json::json!(s.gold.scope));
        manifest.push_str(&serde_json::Value::Object(obj).to_string());
        manifest.push('\n');
        for (sub, file) in [
            ("pages", format!("{id}.html.gz")),
            ("gold", format!("{id}.txt")),
        ] {
            link_or_copy(&source.join(sub).join(&file), &dir.join(sub).join(&file))?;
        }
        super::write_gold(&dir, &id, &s.gold)?;
        n += 1;
    }
    let m = dir.join("manifest.jsonl");
    std::fs::write(&m, manifest).map_err(|e| EvalError::io(&m, e))?;
    Ok(n)
}

/// Links `to` to `from` (absolute), replacing an old `to`; copies where
/// symbolic links are not available.
fn link_or_copy(from: &Path, to: &Path) -> Result<(), EvalError> {
    let from: PathBuf = std::fs::canonicalize(from).map_err(|e| EvalError::io(from, e))?;
    if to.symlink_metadata().is_ok() {
        std::fs::remove_file(to).map_err(|e| EvalError::io(to, e))?;
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&from, to).map_err(|e| EvalError::io(to, e))
    }
    #[cfg(not(unix))]
    {
        std::fs::copy(&from, to)
            .map(drop)
            .map_err(|e| EvalError::io(to, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = r##"<html><body>
        <nav><table><tr><td>Home</td><td>News</td></tr><tr><td>Sport</td><td>Weather</td></tr></table></nav>
        <article><p>The results of the new tool are in the table below, along with the code.</p>
        <table><thead><tr><th>Tool</th><th colspan="2">Speed</th></tr></thead>
        <tbody><tr><td>alpha</td><td>10</td><td>20</td></tr></tbody></table>
        <div class="highlight-python notranslate"><div class="highlight"><pre><span></span>def f():
    return 1
</pre></div></div>
        <table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1
2</pre></div></td><td class="code"><div class="highlight"><pre>x = 1
y = 2
</pre></div></td></tr></table>
        <p>Water is H<sub>2</sub>O and the footnote<sup><a href="#n1">1</a></sup> is a link.</p>
        <p>The famous relation <span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>E</mi></mrow><annotation encoding="application/x-tex">E=mc^2</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">E=mc2</span></span> is known to every student of physics.</p>
        <p>Also in text form \(a+b\) the sum appears in this same article paragraph.</p>
        <figure><img class="lazy" src="data:image/gif;base64,R0l" data-src="/img/cat.jpg" alt="cat"><figcaption>A cat asleep on the keyboard</figcaption></figure>
        </article><footer><pre>not in gold at all here</pre></footer></body></html>"##;

    const GOLD: &str = "The results of the new tool are in the table below, along with the code.\n\
        Tool Speed\nalpha 10 20\ndef f():\nreturn 1\nx = 1\ny = 2\n\
        Water is H2O and the footnote1 is a link.\n\
        The famous relation E=mc^2 is known to every student of physics.\n\
        Also in text form a+b the sum appears in this same article paragraph.\n\
        A cat asleep on the keyboard\n";

    #[test]
    fn finds_and_derives_the_main_contents_constructs() {
        let s = survey_page(PAGE, GOLD, Some("https://ex.org/a/b.html"));
        assert_eq!(s.tables, 1, "the navigation table is not in the gold");
        assert_eq!(
            s.gold.tables[0].rows,
            vec![vec!["Tool", "Speed", "Speed"], vec!["alpha", "10", "20"]]
        );
        assert_eq!(s.gold.tables[0].header_rows, 1);
        assert_eq!(s.pre, 1, "the footer's pre is not in the gold");
        assert_eq!(s.numbered_code, 1);
        assert_eq!(s.gold.code.len(), 2);
        assert_eq!(s.gold.code[0].lang.as_deref(), Some("python"));
        assert_eq!(s.gold.code[0].text, "def f():\n    return 1");
        assert_eq!(s.gold.code[1].text, "x = 1\ny = 2");
        assert_eq!(s.subsup, 1, "the footnote mark is a link");
        assert_eq!(s.gold.subsup, vec!["H<sub>2</sub>O"]);
        assert_eq!(s.math.get("katex"), Some(&1));
        assert_eq!(s.math.get("raw-tex"), Some(&1));
        let tex: Vec<&str> = s.gold.math.iter().map(|m| m.tex.as_str()).collect();
        assert_eq!(tex, vec!["E=mc^2", "a+b"]);
        assert_eq!(s.figures, 1);
        assert_eq!(s.gold.figures[0].src, "https://ex.org/img/cat.jpg");
        assert!(!s.gold.complete);
        assert_eq!(
            s.gold.scope,
            vec!["tables", "code", "math", "figures", "subsup"]
        );
    }

    #[test]
    fn prices_are_not_formulas() {
        let page = "<p>Price range: $$-$$$ for the cheapest seats in the whole house tonight.</p>\
                    <p>Fares are marked $, $$, or $$$ for the cheapest seats in the whole house.</p>";
        let gold = "Price range: $$-$$$ for the cheapest seats in the whole house tonight.\n\
                    Fares are marked $, $$, or $$$ for the cheapest seats in the whole house.\n";
        let s = survey_page(page, gold, None);
        assert!(s.math.is_empty(), "{:?}", s.gold.math);
        assert!(looks_like_tex("x^2 + 1"));
        assert!(!looks_like_tex(", or"));
        assert!(!looks_like_tex("-"));
    }

    #[test]
    fn a_page_without_constructs_in_its_gold_has_none() {
        let s = survey_page(PAGE, "Something else entirely.\n", None);
        assert!(!s.any());
        assert!(s.gold.scope.is_empty());
    }
}
