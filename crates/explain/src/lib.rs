//! Why unchaff kept or dropped each block of a page: the data of an
//! explanation ([`explain`] → [`Report`]) and its rendering as one
//! self-contained HTML file ([`render_html`]).
//!
//! ```text
//! Input ─Extractor::extract_with─▶ Inspection (page, selection)
//!        ├─ blocks: the page segmented as `auto` segments it (the nearest
//!        │  block-level element of each text), in reading order
//!        ├─ kept / dropped: whether the selection holds each block's text
//!        ├─ score: the algorithm's per-node score of the block element
//!        │  (`auto`: the final probability)
//!        └─ reasons (`auto`): per-feature contributions of both model
//!           stages, summed over the trees' decision paths (Saabas)
//! ```
//!
//! Any algorithm can be explained: the blocks, kept flags and scores come
//! from the [`unchaff::Inspection`] hook; only `auto` has reasons. The
//! report runs no script and loads nothing: every byte of the page is
//! escaped, and a `Content-Security-Policy` meta tag forbids scripts and
//! any fetch, so the file is safe to open even if an escape were missed.

#![deny(missing_docs)]

mod html;

use unchaff::algorithms::auto::{features, vocab::Vocabulary};
use unchaff::algorithms::{Explanation, Selection};
use unchaff::annotate::Page;
use unchaff::dom::Edge;
use unchaff::{Extractor, Input, Method, Options};

pub use html::{CSP, MAX_SHOWN_BLOCKS, render_html};

/// Reasons listed per block and model stage: the features that moved its
/// margin most (more are rarely more than noise, and a row each).
pub const TOP_REASONS: usize = 4;

/// What can stop an explanation.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The extractor could not be built or the page not extracted.
    #[error(transparent)]
    Extract(#[from] unchaff::Error),
}

/// Whether a block's text is in the extraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kept {
    /// All of it.
    Yes,
    /// Some of its text nodes (an algorithm that selected an inline
    /// element, or a block with nested blocks).
    Partly,
    /// None of it.
    No,
}

impl Kept {
    /// `kept`, `partly` or `dropped`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kept::Yes => "kept",
            Kept::Partly => "partly",
            Kept::No => "dropped",
        }
    }
}

/// One feature's push on a block's margin.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Reason {
    /// `block` (the first model, over the block's own features) or
    /// `context` (the second, over its neighbours' probabilities).
    pub stage: &'static str,
    /// The feature's name.
    pub feature: &'static str,
    /// The block's value of the feature.
    pub value: f32,
    /// What the feature added to the margin (log-odds; > 0 towards content).
    pub contribution: f32,
}

/// One block of the page.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Block {
    /// Its position in reading order, from 0.
    pub index: usize,
    /// The block element's tag name.
    pub tag: String,
    /// The block element's tag path (`html/body/div/p`).
    pub path: String,
    /// Its own text (white space collapsed; nested blocks' text is theirs).
    pub text: String,
    /// The part of [`Block::text`] that the extraction holds.
    pub kept_text: String,
    /// Whether the extraction holds it.
    pub kept: Kept,
    /// The algorithm's score of the block element (`auto`: the
    /// probability of content), when the algorithm scores nodes.
    pub score: Option<f32>,
    /// Its own characters.
    pub chars: u32,
    /// Text density in the sense of CETD (paper 1 (ALGORITHMS.md#cetd-tpc)): the block element's
    /// characters per tag (its subtree's).
    pub density: f32,
    /// For `auto`: the features that pushed its margin most, both stages
    /// ([`TOP_REASONS`] of each, largest first).
    pub reasons: Vec<Reason>,
    /// For `auto`: the block stage's probability.
    pub block_stage: Option<f32>,
}

/// The explanation of one page.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Report {
    /// The page's URL, as given.
    pub url: Option<String>,
    /// The page's `<title>`.
    pub title: Option<String>,
    /// The algorithm.
    pub algorithm: Method,
    /// Its parameters, as given.
    pub params: Vec<(String, String)>,
    /// The score from which a block is kept, when the algorithm has one
    /// (`auto`'s threshold).
    pub threshold: Option<f32>,
    /// The blocks in reading order.
    pub blocks: Vec<Block>,
    /// The extracted text (`unchaff extract`'s).
    pub text: String,
    /// The charset the page was decoded with.
    pub charset: String,
    /// Whether the algorithm produced its text directly rather than by
    /// selecting nodes (the `cetr` family): kept flags are then a text
    /// match.
    pub text_override: bool,
}

impl Report {
    /// Blocks kept in whole or in part.
    pub fn kept_count(&self) -> usize {
        self.blocks.iter().filter(|b| b.kept != Kept::No).count()
    }
}

/// Explains how the extractor that `options` describe handles `input`:
/// the same extraction as [`Extractor::extract`], plus every block's fate.
pub fn explain(input: Input<'_>, options: &Options) -> Result<Report, Error> {
    let extractor = Extractor::new(options)?;
    let (x, mut report) = extractor.extract_with(input, |i| {
        inspect(i.page, i.selection, i.explain(TOP_REASONS))
    })?;
    report.url = x.url;
    report.title = x.title;
    report.algorithm = x.algorithm;
    report.params = options.algorithm_params()?;
    report.charset = x.charset;
    if report.text_override {
        for b in &mut report.blocks {
            let found = !b.text.is_empty() && collapse(&x.text).contains(&b.text);
            b.kept = if found { Kept::Yes } else { Kept::No };
            b.kept_text = if found { b.text.clone() } else { String::new() };
        }
    }
    report.text = x.text;
    Ok(report)
}

/// Collapses runs of white space to one space and trims (the core's rule).
pub use unchaff::text::collapse_whitespace as collapse;

/// The blocks of an inspected page, with the algorithm's explanation
/// where it has one (else the blocks as `auto` segments them).
fn inspect(page: &Page<'_>, sel: &Selection, explained: Option<Explanation>) -> Report {
    let dom = page.dom;
    let blocks = match &explained {
        Some(e) => e.blocks.clone(),
        None => features::blocks(page, &Vocabulary::new()),
    };
    // Which nodes lie inside a selected node: one enter/leave walk.
    let marks = sel.marks(dom.len());
    let mut inside = vec![false; dom.len()];
    let mut depth = 0u32;
    for edge in dom.traverse(page.root) {
        match edge {
            Edge::Enter(n) => {
                if marks[n.index()] {
                    depth += 1;
                }
                inside[n.index()] = depth > 0;
            }
            Edge::Leave(n) => {
                if marks[n.index()] {
                    depth -= 1;
                }
            }
        }
    }
    let n = blocks.nodes.len();
    let mut text: Vec<Vec<&str>> = vec![Vec::new(); n];
    let mut kept_text: Vec<Vec<&str>> = vec![Vec::new(); n];
    for (t, k) in page.texts.iter().zip(blocks.text_block.iter()) {
        let Some(s) = dom.text_of(t.node) else {
            continue;
        };
        let k = k as usize;
        if k >= n {
            continue;
        }
        text[k].push(s);
        if inside[t.node.index()] {
            kept_text[k].push(s);
        }
    }
    let mut out = Vec::with_capacity(n);
    for (k, &node) in blocks.nodes.iter().enumerate() {
        let own = collapse(&text[k].concat());
        let kept_own = collapse(&kept_text[k].concat());
        let kept = if kept_own.is_empty() {
            Kept::No
        } else if kept_own == own {
            Kept::Yes
        } else {
            Kept::Partly
        };
        let stats = page.stats(node);
        let score = match &explained {
            Some(e) => e.score.get(k).copied(),
            None => sel.scores.get(node.index()).copied(),
        };
        let reasons = explained
            .as_ref()
            .map(|e| reasons_of(e, k))
            .unwrap_or_default();
        out.push(Block {
            index: k,
            tag: dom
                .tag(node)
                .map(|t| dom.tag_name(t).to_owned())
                .unwrap_or_default(),
            path: page.paths.to_string(dom, stats.path),
            text: own,
            kept_text: kept_own,
            kept,
            score,
            chars: blocks.chars.get(k).copied().unwrap_or(0),
            density: stats.chars as f32 / stats.elements.max(1) as f32,
            reasons,
            block_stage: explained
                .as_ref()
                .and_then(|e| e.first_stage.get(k).copied()),
        });
    }
    Report {
        url: None,
        title: None,
        algorithm: Method::Auto,
        params: Vec::new(),
        threshold: explained.as_ref().and_then(|e| e.threshold),
        blocks: out,
        text: String::new(),
        charset: String::new(),
        text_override: sel.text.is_some(),
    }
}

/// The reasons of block `k` ([`TOP_REASONS`] per stage, asked of the
/// algorithm), in the explanation's order.
fn reasons_of(e: &Explanation, k: usize) -> Vec<Reason> {
    let reasons = e.reasons.get(k).map(Vec::as_slice).unwrap_or_default();
    reasons
        .iter()
        .map(|r| Reason {
            stage: r.stage,
            feature: r.feature,
            value: r.value,
            contribution: r.contribution,
        })
        .collect()
}

#[cfg(test)]
mod tests;
