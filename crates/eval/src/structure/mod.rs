//! The structure benchmark: whether an extractor's Markdown keeps the
//! document's structure — headings, lists, tables, code, math, figures,
//! quotes, definition lists, sub/sup — measured per construct, for any
//! tool's Markdown (issue #34).
//!
//! * [`generate`] writes pages whose structure is known, in the layout of
//!   the dev datasets (`<folder>/pages/<id>.html.gz`, `gold/<id>.txt`,
//!   `manifest.jsonl`) plus the structure gold, `structure/<id>.json` (a
//!   [`Gold`]).
//! * [`survey`] finds the constructs in the real dev pages (those whose
//!   text is in the page's gold), counts them per folder, and writes a
//!   source-derived [`Gold`] for the ones where deriving it is sound.
//! * [`markdown`] reads a Markdown output with a CommonMark + GFM parser
//!   (pulldown-cmark) into the same shapes; it also checks that every table
//!   is rectangular and every code fence closed.
//! * [`score`] compares the two, page by page, and sums the counts over a
//!   set of pages into one row per tool ([`score::Row`]).
//!
//! # Conventions of the gold
//!
//! * **Tables** are span-expanded rectangular grids: a cell with `rowspan`
//!   or `colspan` has its text *repeated in every slot it covers*. A cell
//!   holding line breaks or a list has its lines joined by one space. Cells
//!   are compared by their [`text_key`] (the `\w+` words joined by one
//!   space), so Markdown escapes, `<br>` and list markers do not matter,
//!   the words and their column do.
//! * **Code** text is exact: indentation and tabs kept, no line-number
//!   gutter, no trailing newline ([`code_key`] says what is ignored).
//! * **Math** is TeX, compared after [`math_key`]'s normalisation only.
//! * **Sub/sup** occurrences are written as the Markdown should hold them:
//!   inline HTML, `H<sub>2</sub>O`.
//! * Texts of headings and list items are compared exactly ([`exact_key`]:
//!   whitespace runs as one space); quotes, captions and definitions by
//!   their [`text_key`].

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::EvalError;

pub mod generate;
pub mod html;
pub mod markdown;
pub mod score;
pub mod survey;

/// The name of the folder, beside `pages/` and `gold/`, that holds the
/// structure gold of a dataset folder (`<id>.json`).
pub const STRUCTURE_DIR: &str = "structure";

/// The structure of one page's main content: what a Markdown rendering of
/// it should hold. Every field defaults to empty, so a gold that covers
/// only some constructs (a real page's) leaves the others out, and
/// [`Gold::scope`] says which ones it covers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Gold {
    /// The constructs this gold covers, by [`Construct::name`]; the scorer
    /// counts nothing else on the page. Generated pages cover all of them.
    pub scope: Vec<String>,
    /// Whether the gold lists *every* instance of the constructs in scope
    /// (generated pages): then an output table, code block or formula that
    /// matches nothing counts against precision. A real page's gold holds
    /// only what could be derived soundly, so unmatched outputs are not
    /// counted there.
    pub complete: bool,
    /// Headings in document order (the page's title is the level-1 one).
    pub headings: Vec<Heading>,
    /// List items in document order, each with its nesting depth.
    pub lists: Vec<ListItem>,
    /// Data tables in document order.
    pub tables: Vec<Table>,
    /// How many layout tables the main content sits in (tables that must
    /// not come out as data tables; their blocks are in the other fields).
    pub layout_tables: usize,
    /// Code blocks in document order.
    pub code: Vec<Code>,
    /// Formulas in document order.
    pub math: Vec<Math>,
    /// Images and figures in document order.
    pub figures: Vec<Figure>,
    /// Block quotes' texts.
    pub quotes: Vec<String>,
    /// Definition list entries.
    pub definitions: Vec<Definition>,
    /// Sub/sup occurrences as Markdown should hold them, with the word
    /// characters touching them: `H<sub>2</sub>O`, `mc<sup>2</sup>`.
    pub subsup: Vec<String>,
    /// The markup each instance is written in, where known (generated
    /// pages): for the per-markup breakdown.
    #[serde(skip_serializing_if = "Markups::is_empty")]
    pub markups: Markups,
}

/// The markup of each instance of a [`Gold`], by index into its lists
/// (`code:prism`, `math:katex`, …).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Markups {
    /// One per heading.
    pub headings: Vec<String>,
    /// One per data table.
    pub tables: Vec<String>,
    /// The layout table's, if the content sits in one.
    pub layout: Option<String>,
    /// One per code block.
    pub code: Vec<String>,
    /// One per formula.
    pub math: Vec<String>,
    /// One per image.
    pub figures: Vec<String>,
}

impl Markups {
    /// Whether no markup is recorded.
    pub fn is_empty(&self) -> bool {
        *self == Markups::default()
    }
}

/// A heading.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heading {
    /// 1 to 6.
    pub level: u8,
    /// The heading's text, without permalink marks.
    pub text: String,
}

/// A list item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListItem {
    /// Nesting depth: 0 for an item of a top-level list.
    pub depth: usize,
    /// Whether the item's list is ordered.
    pub ordered: bool,
    /// The item's own text (without its nested lists).
    pub text: String,
}

/// A data table as a span-expanded rectangular grid.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Table {
    /// The rows, each with the same number of cells.
    pub rows: Vec<Vec<String>>,
    /// How many of the first rows are header rows.
    pub header_rows: usize,
    /// The caption, if any.
    pub caption: Option<String>,
}

/// A code block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Code {
    /// The language the markup names, if any.
    pub lang: Option<String>,
    /// The exact text: indentation and tabs kept, no line numbers.
    pub text: String,
}

/// A formula.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Math {
    /// Its TeX.
    pub tex: String,
    /// Display (a block of its own) rather than inline.
    pub display: bool,
}

/// An image, with its figure caption if it has one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Figure {
    /// The image's address, absolute (resolved against the page's URL; a
    /// lazy image's real address, not its placeholder).
    pub src: String,
    /// Other addresses that are the same image (`srcset` candidates).
    pub alternatives: Vec<String>,
    /// The `alt` text.
    pub alt: String,
    /// The caption (`figcaption`), if any.
    pub caption: Option<String>,
}

/// A definition list entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Definition {
    /// The term (`dt`).
    pub term: String,
    /// Its definition (`dd`).
    pub definition: String,
}

/// The constructs the benchmark scores, one column each (and the scope
/// names of [`Gold::scope`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Construct {
    /// Headings: level-aware F1.
    Headings,
    /// List items: depth-aware F1.
    Lists,
    /// Data tables: cell F1 on the span-expanded grid.
    Tables,
    /// Layout tables: pages where no table came out.
    Layout,
    /// Code blocks: exact match and edit similarity.
    Code,
    /// Formulas: TeX exact match.
    Math,
    /// Images: address found, caption found.
    Figures,
    /// Block quotes: text found inside a quote.
    Quotes,
    /// Definition lists: term and definition found as consecutive blocks.
    Definitions,
    /// Sub/sup: kept as inline HTML (or `~x~`/`^x^`).
    Subsup,
}

impl Construct {
    /// Every construct, in column order.
    pub const ALL: [Construct; 10] = [
        Construct::Headings,
        Construct::Lists,
        Construct::Tables,
        Construct::Layout,
        Construct::Code,
        Construct::Math,
        Construct::Figures,
        Construct::Quotes,
        Construct::Definitions,
        Construct::Subsup,
    ];

    /// The name used in [`Gold::scope`] and the manifest.
    pub fn name(self) -> &'static str {
        match self {
            Construct::Headings => "headings",
            Construct::Lists => "lists",
            Construct::Tables => "tables",
            Construct::Layout => "layout",
            Construct::Code => "code",
            Construct::Math => "math",
            Construct::Figures => "figures",
            Construct::Quotes => "quotes",
            Construct::Definitions => "definitions",
            Construct::Subsup => "subsup",
        }
    }

    /// The scope names of every construct.
    pub fn all_names() -> Vec<String> {
        Construct::ALL
            .iter()
            .map(|c| c.name().to_string())
            .collect()
    }
}

impl Gold {
    /// Whether the gold covers `construct`.
    pub fn covers(&self, construct: Construct) -> bool {
        self.scope.iter().any(|s| s == construct.name())
    }
}

/// The comparison key of a text: its `\w+` words (as the shingle metric
/// reads them) joined by one space. Markup, punctuation, escapes and
/// whitespace do not count; the words and their order do.
pub fn text_key(text: &str) -> String {
    crate::metrics::words(text).join(" ")
}

/// The comparison form of a heading's or list item's text: whitespace runs
/// as one space, trimmed; everything else counts (a `¶` left in a heading
/// makes it another heading).
pub fn exact_key(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The comparison form of a code block's text: line ends normalised to
/// `\n`, trailing whitespace of each line and blank lines at the start and
/// end dropped. Indentation (spaces and tabs) is kept exactly.
pub fn code_key(text: &str) -> String {
    let lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.trim_end_matches(['\r', ' ', '\t']))
        .collect();
    let start = lines
        .iter()
        .position(|l| !l.is_empty())
        .unwrap_or(lines.len());
    let end = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(start, |i| i + 1);
    lines[start..end].join("\n")
}

/// The comparison form of TeX, and nothing more than this: whitespace
/// removed, a `{\displaystyle …}` wrapper (or a bare `\displaystyle`)
/// removed, and braces around a single character after `^` or `_` removed
/// (`x^{2}` = `x^2`).
pub fn math_key(tex: &str) -> String {
    let mut s: String = tex.chars().filter(|c| !c.is_whitespace()).collect();
    if let Some(inner) = s
        .strip_prefix("{\\displaystyle")
        .and_then(|r| r.strip_suffix('}'))
        && braces_balanced(inner)
    {
        s = inner.to_string();
    }
    s = s.replace("\\displaystyle", "");
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        out.push(c);
        let escaped = i > 0 && chars[i - 1] == '\\';
        if (c == '^' || c == '_')
            && !escaped
            && chars.get(i + 1) == Some(&'{')
            && chars.get(i + 3) == Some(&'}')
            && chars
                .get(i + 2)
                .is_some_and(|&x| x != '\\' && x != '{' && x != '}')
        {
            out.push(chars[i + 2]);
            i += 4;
            continue;
        }
        i += 1;
    }
    out
}

/// Whether the braces of `s` (unescaped) balance and never close more
/// than they opened.
fn braces_balanced(s: &str) -> bool {
    let mut depth = 0i64;
    let mut escaped = false;
    for c in s.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// Reads the structure gold of every page of a dataset folder that has one
/// (`<dir>/structure/<id>.json`), keyed by id. A folder without a
/// `structure/` directory has none (an empty map).
pub fn load_gold_dir(dir: &Path) -> Result<BTreeMap<String, Gold>, EvalError> {
    let sdir = dir.join(STRUCTURE_DIR);
    let mut out = BTreeMap::new();
    if !sdir.is_dir() {
        return Ok(out);
    }
    let entries = std::fs::read_dir(&sdir).map_err(|e| EvalError::io(&sdir, e))?;
    for entry in entries {
        let path = entry.map_err(|e| EvalError::io(&sdir, e))?.path();
        let Some(id) = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".json"))
        else {
            continue;
        };
        let text = std::fs::read_to_string(&path).map_err(|e| EvalError::io(&path, e))?;
        let gold: Gold = serde_json::from_str(&text).map_err(|e| EvalError::Outputs {
            path: path.clone(),
            message: format!("not a structure gold: {e}"),
        })?;
        out.insert(id.to_string(), gold);
    }
    Ok(out)
}

/// Writes `gold` as `<dir>/structure/<id>.json` (pretty JSON).
pub fn write_gold(dir: &Path, id: &str, gold: &Gold) -> Result<(), EvalError> {
    let sdir = dir.join(STRUCTURE_DIR);
    std::fs::create_dir_all(&sdir).map_err(|e| EvalError::io(&sdir, e))?;
    let path = sdir.join(format!("{id}.json"));
    let text = serde_json::to_string_pretty(gold).map_err(|e| EvalError::Outputs {
        path: path.clone(),
        message: e.to_string(),
    })?;
    std::fs::write(&path, text + "\n").map_err(|e| EvalError::io(&path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_key_normalises_only_what_it_says() {
        assert_eq!(math_key("x^{2} + y_{i}"), "x^2+y_i");
        assert_eq!(math_key("{\\displaystyle E=mc^{2}}"), "E=mc^2");
        assert_eq!(math_key("\\displaystyle \\frac{a}{b}"), "\\frac{a}{b}");
        // Braces around more than one character stay; so do other braces.
        assert_eq!(math_key("x^{10}"), "x^{10}");
        assert_eq!(math_key("e^{i\\pi}"), "e^{i\\pi}");
        assert_eq!(math_key("\\frac{1}{2}"), "\\frac{1}{2}");
        // A wrapper that is not one (two groups) is kept.
        assert_eq!(math_key("{\\displaystyle a}{b}"), "{a}{b}");
        // An escaped brace is not a group: `\_{x}` keeps its braces.
        assert_eq!(math_key("a\\_{x}"), "a\\_{x}");
        assert_ne!(math_key("x^2"), math_key("x_2"));
    }

    #[test]
    fn code_key_keeps_indentation_and_tabs() {
        assert_eq!(code_key("\n  a\n\tb  \n\n"), "  a\n\tb");
        assert_eq!(code_key("a\r\nb\r\n"), "a\nb");
        assert_ne!(code_key("  a"), code_key("a"));
        assert_ne!(code_key("\ta"), code_key("    a"));
        assert_eq!(code_key("a\n\n\nb"), "a\n\n\nb");
    }

    #[test]
    fn text_key_is_the_words() {
        assert_eq!(text_key("  **Hello**,  world\\! "), "Hello world");
        assert_eq!(text_key("line one<br>line two"), "line one br line two");
    }

    #[test]
    fn gold_round_trips_through_a_folder() {
        let dir = tempdir();
        let gold = Gold {
            scope: vec!["code".into()],
            complete: true,
            code: vec![Code {
                lang: Some("rust".into()),
                text: "fn main() {}".into(),
            }],
            ..Gold::default()
        };
        write_gold(&dir, "p1", &gold).unwrap();
        let back = load_gold_dir(&dir).unwrap();
        assert_eq!(back.len(), 1);
        assert_eq!(back["p1"], gold);
        assert!(back["p1"].covers(Construct::Code));
        assert!(!back["p1"].covers(Construct::Math));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A fresh directory under the system's temporary folder.
    pub(crate) fn tempdir() -> std::path::PathBuf {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "unchaff-structure-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
