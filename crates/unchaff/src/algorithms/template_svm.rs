//! **Template-SVM** — block features classified by an RBF-kernel SVM,
//! after an optional site-template deletion (paper 5, ALGORITHMS.md#template-svm).
//!
//! * **Blocks** (ALGORITHMS.md#block-features-and-the-svm): the content root (`body`) and every `section`
//!   and `div` — and, as ALGORITHMS.md#block-features-and-the-svm allows, `article`, `main`, `aside`,
//!   `header`, `footer` and `nav`, the HTML5 sectioning elements that
//!   pages now use where paper 5's pages (ALGORITHMS.md#template-svm) used `div`. A block owns the text
//!   nodes whose nearest block ancestor it is; its counts exclude every
//!   block nested in it. They are computed in one pass over the elements
//!   in document order: own(b) = subtree(b) − Σ subtree(c) over the
//!   blocks c whose nearest enclosing block is b.
//! * **Features**: R1 = innerLen / (outerLen + 1), R2 = innerLinkLen /
//!   (outerLinkLen + 1), R3 = innerLinkNum / (outerLinkNum + 1),
//!   R4 = innerPicNum / (outerPicNum + 1), R5 = innerLinkLen /
//!   (innerLen + 1) (paper 5 §3.2 (ALGORITHMS.md#block-features-and-the-svm)); "inner" is the block's own count,
//!   "outer" the page's (the root's, after template deletion). Lengths are
//!   ALGORITHMS.md#pipeline characters. All five lie in [0, 1], so no scaling is needed.
//! * **Classification**: a block with own text is content when the SVM's
//!   decision value is positive. Blocks without own text have nothing to
//!   output and are not classified (nor used in training).
//! * **Output**: the own text nodes of the content blocks, in document
//!   order.
//! * **Training labels** (ALGORITHMS.md#labels-from-the-gold-text; in the `unchaff-train` crate): a token of a
//!   block's own text counts when some window of 4 consecutive block
//!   tokens containing it is a 4-gram of the gold text; a block of fewer
//!   than 4 tokens counts whole when it occurs contiguously in the gold.
//!   The block is content when at least half its tokens count.
//!
//! Cost: O(n) for the features plus O(blocks × support vectors) for the
//! classification.

use rustc_hash::{FxHashSet, FxHasher};
use std::hash::Hasher;

use super::{Algorithm, Param, Params, Selection};
use crate::Error;
use crate::annotate::Page;
use crate::text::is_cjk;
use crate::dom::{NodeId, Tag};
use crate::model::svm;

/// Number of block features (R1–R5).
pub const FEATURES: usize = 5;

/// n = 4: the length of the gold n-grams that label a token (ALGORITHMS.md#labels-from-the-gold-text).
pub const LABEL_NGRAM: usize = 4;

/// The default model, trained on wcxb-dev (`unchaff train svm
/// ../shared/data/wcxb-dev --out crates/unchaff/models/svm.json`; see
/// docs/RESULTS.md).
pub const DEFAULT_MODEL_JSON: &str = include_str!("../../models/svm.json");

/// One training sample: a block's features and whether it is content.
pub type Sample = ([f64; FEATURES], bool);

/// Whether elements with `tag` are blocks (ALGORITHMS.md#block-features-and-the-svm and its extension).
pub fn is_block(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::BODY
            | Tag::SECTION
            | Tag::DIV
            | Tag::ARTICLE
            | Tag::MAIN
            | Tag::ASIDE
            | Tag::HEADER
            | Tag::FOOTER
            | Tag::NAV
    )
}

/// Own counts of one block (its content minus nested blocks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OwnCounts {
    /// Characters (ALGORITHMS.md#pipeline).
    pub chars: u32,
    /// Characters inside links.
    pub link_chars: u32,
    /// `<a>` elements.
    pub links: u32,
    /// `<img>` elements.
    pub images: u32,
}

/// The blocks of a page, their own counts and features.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Blocks {
    /// Block elements in document order; the content root is first.
    pub nodes: Vec<NodeId>,
    /// Own counts of each block.
    pub own: Vec<OwnCounts>,
    /// R1–R5 of each block.
    pub features: Vec<[f64; FEATURES]>,
    /// For each counted text node (index into [`Page::texts`]), the index
    /// of the block that owns it.
    pub text_block: Vec<u32>,
}

/// Finds the blocks of `page` and computes their features, in O(n).
pub fn blocks(page: &Page<'_>) -> Blocks {
    let dom = page.dom;
    let mut of_node = vec![u32::MAX; dom.len()];
    let mut b = Blocks::default();
    let mut parent_block: Vec<u32> = Vec::new();
    for &e in &page.elements {
        let parent = dom.node(e).parent;
        let up = if e == page.root || parent.is_none() {
            u32::MAX
        } else {
            of_node[parent.index()]
        };
        let block = e == page.root || dom.tag(e).is_some_and(is_block);
        if block {
            let s = page.stats(e);
            of_node[e.index()] = b.nodes.len() as u32;
            b.nodes.push(e);
            b.own.push(OwnCounts {
                chars: s.chars,
                link_chars: s.link_chars,
                links: s.links,
                images: s.images,
            });
            parent_block.push(up);
        } else {
            of_node[e.index()] = up;
        }
    }
    // Subtract each block from its enclosing block.
    for (&up, &node) in parent_block.iter().zip(&b.nodes).skip(1) {
        if up == u32::MAX {
            continue;
        }
        let s = page.stats(node);
        let o = &mut b.own[up as usize];
        o.chars = o.chars.saturating_sub(s.chars);
        o.link_chars = o.link_chars.saturating_sub(s.link_chars);
        o.links = o.links.saturating_sub(s.links);
        o.images = o.images.saturating_sub(s.images);
    }
    let outer = page.stats(page.root);
    b.features = b
        .own
        .iter()
        .map(|o| {
            let r = |a: u32, z: u32| a as f64 / (z as f64 + 1.0);
            [
                r(o.chars, outer.chars),
                r(o.link_chars, outer.link_chars),
                r(o.links, outer.links),
                r(o.images, outer.images),
                r(o.link_chars, o.chars),
            ]
        })
        .collect();
    b.text_block = page
        .texts
        .iter()
        .map(|t| {
            let p = dom.node(t.node).parent;
            if p.is_none() {
                0
            } else {
                of_node[p.index()].min(u32::MAX - 1)
            }
        })
        .map(|k| if k as usize >= b.nodes.len() { 0 } else { k })
        .collect();
    b
}


/// Appends the tokens of `text` as hashes: maximal runs of letters and
/// digits (lower-cased), each CJK character alone.
pub fn tokens(text: &str, out: &mut Vec<u64>) {
    let mut h: Option<FxHasher> = None;
    for c in text.chars() {
        // ASCII, most of most pages: the same hashes as the general path
        // below (no CJK, one lower-case letter each), without its range
        // checks and case-mapping iterator.
        if c.is_ascii() {
            if c.is_ascii_alphanumeric() {
                let t = h.get_or_insert_with(FxHasher::default);
                t.write_u32(c.to_ascii_lowercase() as u32);
            } else if let Some(t) = h.take() {
                out.push(t.finish());
            }
            continue;
        }
        if is_cjk(c) {
            if let Some(t) = h.take() {
                out.push(t.finish());
            }
            let mut t = FxHasher::default();
            t.write_u32(c as u32);
            out.push(t.finish());
        } else if c.is_alphanumeric() {
            let t = h.get_or_insert_with(FxHasher::default);
            for l in c.to_lowercase() {
                t.write_u32(l as u32);
            }
        } else if let Some(t) = h.take() {
            out.push(t.finish());
        }
    }
    if let Some(t) = h.take() {
        out.push(t.finish());
    }
}

fn gram_hash(g: &[u64]) -> u64 {
    let mut h = FxHasher::default();
    for &t in g {
        h.write_u64(t);
    }
    h.write_usize(g.len());
    h.finish()
}

/// The gold text's token n-grams (n = 1 … [`LABEL_NGRAM`]), which label a
/// piece of page text by ALGORITHMS.md#labels-from-the-gold-text's rule ([`GoldGrams::label`]).
pub struct GoldGrams(FxHashSet<u64>);

impl GoldGrams {
    /// Collects the n-grams of `gold`.
    pub fn new(gold: &str) -> GoldGrams {
        let mut gold_tokens = Vec::new();
        tokens(gold, &mut gold_tokens);
        let mut grams = FxHashSet::default();
        for n in 1..=LABEL_NGRAM {
            for w in gold_tokens.windows(n) {
                grams.insert(gram_hash(w));
            }
        }
        GoldGrams(grams)
    }

    /// The label of a text given as its tokens: `None` without tokens;
    /// fewer than [`LABEL_NGRAM`] tokens are content when they occur
    /// contiguously in the gold; otherwise content when at least half the
    /// tokens lie in some window of [`LABEL_NGRAM`] tokens that is a gold
    /// n-gram.
    pub fn label(&self, toks: &[u64]) -> Option<bool> {
        let n = toks.len();
        if n == 0 {
            return None;
        }
        if n < LABEL_NGRAM {
            return Some(self.0.contains(&gram_hash(toks)));
        }
        let mut counted = vec![false; n];
        for s in 0..=n - LABEL_NGRAM {
            if self.0.contains(&gram_hash(&toks[s..s + LABEL_NGRAM])) {
                counted[s..s + LABEL_NGRAM].fill(true);
            }
        }
        let c = counted.iter().filter(|&&x| x).count();
        Some(2 * c >= n)
    }
}

/// The template-SVM algorithm with its model.
#[derive(Clone, Debug)]
pub struct TemplateSvm {
    /// The block classifier.
    pub model: svm::Model,
    /// The site template library the extractor applies first, if any.
    pub templates: Option<std::path::PathBuf>,
}

impl TemplateSvm {
    /// The algorithm with the default model.
    pub fn default_model() -> Result<TemplateSvm, Error> {
        Ok(TemplateSvm {
            model: svm::Model::from_json(DEFAULT_MODEL_JSON)?,
            templates: None,
        })
    }
}

/// The parameters (`unchaff algorithms --params`).
pub const PARAMS: &[Param] = &[
    Param {
        name: "model",
        default: "the built-in model",
        range: "a file",
        meaning: "an SVM trained with `unchaff train svm` (JSON)",
    },
    Param {
        name: "templates",
        default: "none",
        range: "a file",
        meaning: "a site template library made by `unchaff templates learn` (SQLite)",
    },
];

pub(super) fn build(p: &mut Params) -> Result<Box<dyn Algorithm>, Error> {
    let model = match p.take("model") {
        Some(path) => svm::Model::load(std::path::Path::new(&path))?,
        None => svm::Model::from_json(DEFAULT_MODEL_JSON)?,
    };
    if model.dim != FEATURES {
        return Err(Error::Model(format!(
            "template-svm needs a model over {FEATURES} features, this one has {}",
            model.dim
        )));
    }
    let templates = p.take("templates").map(std::path::PathBuf::from);
    Ok(Box::new(TemplateSvm { model, templates }))
}

impl Algorithm for TemplateSvm {
    fn reads_source(&self) -> bool {
        false
    }

    fn name(&self) -> &'static str {
        "template-svm"
    }

    fn templates(&self) -> Option<&std::path::Path> {
        self.templates.as_deref()
    }

    fn run(&self, page: &Page<'_>) -> Selection {
        let b = blocks(page);
        let mut scores = vec![0.0f32; page.dom.len()];
        let content: Vec<bool> = b
            .features
            .iter()
            .zip(&b.own)
            .zip(&b.nodes)
            .map(|((f, o), &n)| {
                if o.chars == 0 {
                    return false;
                }
                let d = self.model.decision(f);
                scores[n.index()] = d as f32;
                d > 0.0
            })
            .collect();
        let nodes = page
            .texts
            .iter()
            .zip(&b.text_block)
            .filter(|&(_, &k)| content[k as usize])
            .map(|(t, _)| t.node)
            .collect();
        Selection {
            nodes,
            scores,
            text: None,
            ..Selection::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::annotate;
    use crate::parse::parse;

    const PAGE: &str = "<body>Top <div><a href=/>Home</a> <a href=/n>News</a><img>\
        <div><p>one two three four five six</p><img></div></div>\
        <nav><a>x</a></nav></body>";

    #[test]
    fn own_counts_and_features_by_hand() {
        let dom = parse(PAGE);
        let root = dom.content_root();
        let page = annotate(&dom, "", root);
        let b = blocks(&page);
        // Blocks: body, div (outer), div (inner), nav.
        assert_eq!(b.nodes.len(), 4);
        // Page: "Top" 3 + "Home" 4 + "News" 4 + 27 ("one … six": 22
        // letters, 5 spaces) + "x" 1 = 39 chars; link chars 4 + 4 + 1 = 9;
        // links 3; images 2.
        let outer = page.stats(root);
        assert_eq!(
            (outer.chars, outer.link_chars, outer.links, outer.images),
            (39, 9, 3, 2)
        );
        // body owns "Top" only; the outer div owns Home, News and one img.
        let own: Vec<_> = b
            .own
            .iter()
            .map(|o| (o.chars, o.link_chars, o.links, o.images))
            .collect();
        assert_eq!(
            own,
            vec![(3, 0, 0, 0), (8, 8, 2, 1), (27, 0, 0, 1), (1, 1, 1, 0)]
        );
        // Outer div: R1 = 8/40, R2 = 8/10, R3 = 2/4, R4 = 1/3, R5 = 8/9.
        let f = b.features[1];
        let want = [0.2, 0.8, 0.5, 1.0 / 3.0, 8.0 / 9.0];
        for (g, w) in f.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{f:?}");
        }
        // Text owners: Top → body, Home/News → div, the paragraph → inner div, x → nav.
        assert_eq!(b.text_block, vec![0, 1, 1, 2, 3]);
    }

    #[test]
    fn tokens_split_words_and_cjk() {
        let mut t = Vec::new();
        tokens("Hello, 世界 World2x", &mut t);
        assert_eq!(t.len(), 4);
        let mut u = Vec::new();
        tokens("hello 世 界 world2X", &mut u);
        assert_eq!(t, u);
    }

    #[test]
    fn the_ascii_path_hashes_as_the_general_one() {
        // The general path alone (every character through `is_cjk`,
        // `is_alphanumeric` and `to_lowercase`).
        fn general(text: &str) -> Vec<u64> {
            let mut out = Vec::new();
            let mut h: Option<FxHasher> = None;
            for c in text.chars() {
                if is_cjk(c) {
                    if let Some(t) = h.take() {
                        out.push(t.finish());
                    }
                    let mut t = FxHasher::default();
                    t.write_u32(c as u32);
                    out.push(t.finish());
                } else if c.is_alphanumeric() {
                    let t = h.get_or_insert_with(FxHasher::default);
                    for l in c.to_lowercase() {
                        t.write_u32(l as u32);
                    }
                } else if let Some(t) = h.take() {
                    out.push(t.finish());
                }
            }
            if let Some(t) = h.take() {
                out.push(t.finish());
            }
            out
        }
        let all_ascii: String = (0u8..128).map(char::from).collect();
        for text in [
            all_ascii.as_str(),
            "Hello, World2x -- it's 10:30_am!",
            "Straße ÉCOLE naïve café-au-lait",
            "北京news 2019, İstanbul ǅemal",
            "",
        ] {
            let mut t = Vec::new();
            tokens(text, &mut t);
            assert_eq!(t, general(text), "{text:?}");
        }
    }

    #[test]
    fn run_selects_own_text_of_content_blocks() {
        // A model that calls content every block whose R5 (link share) is
        // low: one support vector at R5 = 0 with a positive coefficient,
        // γ = 10, ρ = 0.5: f = e^{-10 d²} − 0.5 > 0 iff d² < ln 2 / 10.
        let model = svm::Model {
            version: svm::MODEL_VERSION,
            gamma: 10.0,
            c: 1.0,
            rho: 0.5,
            dim: 5,
            support: vec![0.3, 0.0, 0.0, 0.0, 0.0],
            coef: vec![1.0],
            trained_on: String::new(),
        };
        let alg = TemplateSvm {
            model,
            templates: None,
        };
        let dom = parse(PAGE);
        let page = annotate(&dom, "", dom.content_root());
        let sel = alg.run(&page);
        // ln 2 / 10 = 0.0693. Inner div: R1 = 27/40 = 0.675, d² ≥ 0.375²
        // = 0.141: no. body: R1 = 3/40 = 0.075, d² = 0.0506 < 0.0693: yes.
        // The outer div (R5 = 0.89) and nav (R5 = 0.5) are noise.
        let texts: Vec<&str> = sel
            .nodes
            .iter()
            .map(|&n| dom.text_of(n).unwrap().trim())
            .collect();
        assert_eq!(texts, vec!["Top"]);
    }

    #[test]
    fn deep_and_large_pages_run() {
        let mut html = String::from("<body>");
        for i in 0..20_000 {
            html.push_str(&format!(
                "<div><p>paragraph {i} with some words</p><a href=#>l</a></div>"
            ));
        }
        html.push_str(&"<div>".repeat(5_000));
        let dom = parse(&html);
        let page = annotate(&dom, "", dom.content_root());
        let alg = TemplateSvm::default_model().unwrap();
        let sel = alg.run(&page);
        assert_eq!(sel.scores.len(), dom.len());
    }
}
