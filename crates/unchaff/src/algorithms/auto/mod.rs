//! `auto`, the default extractor: every block of the page classified by
//! gradient-boosted trees over the seed methods' signals and the structural
//! cues good extractors use.
//!
//! The phases, each a function:
//!
//! 1. [`features::blocks`] segments the page into blocks (the nearest
//!    block-level element of each text) and computes their features:
//!    own-text statistics, semantic elements and class/id vocabulary
//!    around the block, the neighbouring blocks, tag-path totals, and two
//!    whole-page candidates (CETD-TPC's block, paper 1; Readability's top
//!    candidate).
//! 2. [`Auto::classify`] scores each block with the embedded model
//!    (`models/auto.json`, trained by `unchaff train auto` on the dev data:
//!    labels from the gold text with SPEC §6.2's 4-gram rule).
//! 3. [`Auto::select`] keeps the blocks whose probability reaches the
//!    threshold, and falls back to CETD-TPC's block when what is left is
//!    clearly not an article (almost nothing of a page that has text).
//!
//! Comment sections are noise unless the extractor is built with
//! `include-comments=1` (`--include-comments`): then blocks in a
//! comment container are classified as if the container had no such name.

pub mod features;
pub mod train;
pub mod vocab;

use super::{Algorithm, Params, Selection};
use crate::Error;
use crate::annotate::Page;
use crate::gbdt;
use features::Blocks;

/// The model trained on the dev data, embedded in the binary.
pub const DEFAULT_MODEL_JSON: &str = include_str!("../../../models/auto.json");

/// Probability from which a block is content. 0.5 is the Bayes decision
/// for the training loss; TODO sweep reported in RESULTS.md.
pub const THRESHOLD: f32 = 0.5;

/// Early exit: a block whose margin (log-odds) is further than this from
/// the threshold's after a group of trees is decided without the rest
/// (see [`gbdt::Forest::margin_early`]). TODO measured in RESULTS.md.
pub const EXIT_MARGIN: f32 = 4.0;

/// Fallback: when the kept blocks hold fewer characters than this share of
/// the page's text …
pub const FALLBACK_SHARE: f32 = 0.05;

/// … and fewer than this many characters, the selection is clearly not the
/// page's content and CETD-TPC's block is taken instead.
pub const FALLBACK_CHARS: u32 = 200;

/// Index of the `v_comment` feature (cleared for `include-comments`).
fn comment_feature() -> usize {
    features::NAMES
        .iter()
        .position(|n| *n == "v_comment")
        .unwrap_or(usize::MAX)
}

/// The default extractor.
pub struct Auto {
    /// The block classifier.
    pub model: gbdt::Model,
    /// The same, laid out for prediction.
    forest: gbdt::Forest,
    /// The compiled class/id vocabulary.
    vocab: vocab::Vocabulary,
    /// Probability from which a block is content.
    pub threshold: f32,
    /// Keep comment sections.
    pub include_comments: bool,
    /// Whether the fallback runs.
    pub fallback: bool,
    /// See [`EXIT_MARGIN`].
    pub exit_margin: f32,
}

impl Auto {
    /// The default extractor with the embedded model.
    pub fn new() -> Result<Auto, Error> {
        Auto::with_model(gbdt::Model::from_json(DEFAULT_MODEL_JSON)?)
    }

    /// The extractor with another model (`unchaff train auto`).
    pub fn with_model(model: gbdt::Model) -> Result<Auto, Error> {
        if model.features != features::NAMES {
            return Err(Error::Model(format!(
                "auto needs a model over the {} features of this build; this one has {} \
                 (retrain it with `unchaff train auto`)",
                features::N,
                model.features.len()
            )));
        }
        Ok(Auto {
            forest: gbdt::Forest::new(&model),
            model,
            vocab: vocab::Vocabulary::new(),
            threshold: THRESHOLD,
            include_comments: false,
            fallback: true,
            exit_margin: EXIT_MARGIN,
        })
    }

    /// The probability of "content" of every block.
    pub fn classify(&self, b: &Blocks) -> Vec<f32> {
        let cf = comment_feature();
        let t = self.threshold.clamp(1e-6, 1.0 - 1e-6);
        let cut = (t / (1.0 - t)).ln();
        let prob = |x: &[f32]| {
            let m = self.forest.margin_early(x, cut, self.exit_margin);
            1.0 / (1.0 + (-m).exp())
        };
        b.features
            .iter()
            .zip(&b.comment)
            .map(|(f, &in_comment)| {
                if self.include_comments && in_comment {
                    let mut g = *f;
                    if let Some(x) = g.get_mut(cf) {
                        *x = 0.0;
                    }
                    prob(&g)
                } else {
                    prob(f)
                }
            })
            .collect()
    }

    /// The selected blocks: those at or above the threshold, or CETD-TPC's
    /// block when they are clearly not the content.
    pub fn select(&self, page: &Page<'_>, b: &Blocks, p: &[f32]) -> Selection {
        let keep: Vec<bool> = p.iter().map(|&x| x >= self.threshold).collect();
        let kept: u32 = b
            .chars
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(c, _)| *c)
            .sum();
        let total = page.stats(page.root).chars;
        if self.fallback
            && total > 0
            && kept < FALLBACK_CHARS
            && (kept as f32) < FALLBACK_SHARE * total as f32
        {
            return super::cetd_tpc::CetdTpc::default().run(page);
        }
        let mut scores = vec![0f32; page.dom.len()];
        let mut nodes = Vec::new();
        for (k, &n) in b.nodes.iter().enumerate() {
            scores[n.index()] = p[k];
            if keep[k] && b.leaf[k] {
                nodes.push(n);
            }
        }
        // Blocks with blocks inside: their own text nodes only.
        for (t, &k) in page.texts.iter().zip(&b.text_block) {
            let k = k as usize;
            if keep[k] && !b.leaf[k] {
                nodes.push(t.node);
            }
        }
        Selection {
            nodes,
            scores,
            text: None,
        }
    }
}

pub(super) fn build(p: &mut Params) -> Result<Box<dyn Algorithm>, Error> {
    let mut a = match p.take("model") {
        Some(path) => Auto::with_model(gbdt::Model::load(std::path::Path::new(&path))?)?,
        None => Auto::new()?,
    };
    a.threshold = p.f64("threshold", THRESHOLD as f64)? as f32;
    a.include_comments = p.f64("include-comments", 0.0)? != 0.0;
    a.fallback = p.f64("fallback", 1.0)? != 0.0;
    a.exit_margin = p.f64("exit-margin", EXIT_MARGIN as f64)? as f32;
    Ok(Box::new(a))
}

impl Algorithm for Auto {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn run(&self, page: &Page<'_>) -> Selection {
        let b = features::blocks(page, &self.vocab);
        let p = self.classify(&b);
        self.select(page, &b, &p)
    }
}
