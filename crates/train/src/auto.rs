//! Training the default extractor: every block of a page with text, its
//! features, its label from the gold text, and its weight; then the two
//! stages.
//!
//! Labels follow ALGORITHMS.md#labels-from-the-gold-text's rule (a block is content when at least half
//! its tokens lie in 4-grams of the gold text), the same rule paper 5's
//! SVM is trained with (ALGORITHMS.md#labels-from-the-gold-text), but for the headline, which is noise whatever the
//! gold says ([`unchaff::algorithms::auto::headline`]). Weights make every page count the same, whatever
//! its number of blocks: a block weighs its share of the page's tokens, as
//! a token-level F1 weighs it.
//!
//! The context stage must learn from block-stage probabilities like the
//! ones it will see on new pages, not from a model's verdicts on its own
//! training pages (far too confident). So the pages are split in two
//! halves; each half's block-stage probabilities come from a model trained
//! on the other half (out-of-fold stacking), and the context stage trains
//! on those. The block stage that ships is then trained on all pages.

use unchaff::Error;
use unchaff::algorithms::auto::features::{self, Blocks};
use unchaff::algorithms::auto::vocab::Vocabulary;
use unchaff::algorithms::auto::{AutoModel, MODEL_VERSION, block_probabilities, context};
use unchaff::algorithms::template_svm::{GoldGrams, tokens};
use unchaff::annotate::Page;
use unchaff::model::gbdt::{self, Forest};

use crate::gbdt::{TrainParams, train as train_gbdt};

/// The labelled blocks of one page.
#[derive(Clone, Debug, Default)]
pub struct PageSamples {
    /// Every block of the page with its features.
    pub blocks: Blocks,
    /// Each block's label: content (true), noise, or none (no tokens).
    pub labels: Vec<Option<bool>>,
    /// Each block's share of the page's tokens (they sum to 1).
    pub weights: Vec<f32>,
}

impl PageSamples {
    /// Whether any block has a label.
    pub fn is_empty(&self) -> bool {
        self.labels.iter().all(Option::is_none)
    }
}

/// The labelled blocks of an annotated page.
pub fn page_samples(page: &Page<'_>, vocab: &Vocabulary, gold: &str) -> PageSamples {
    let blocks = features::blocks(page, vocab);
    let mut own: Vec<Vec<u64>> = vec![Vec::new(); blocks.nodes.len()];
    for (t, k) in page.texts.iter().zip(blocks.text_block.iter()) {
        if let Some(s) = page.dom.text_of(t.node) {
            tokens(s, &mut own[k as usize]);
        }
    }
    let grams = GoldGrams::new(gold);
    let mut labels: Vec<Option<bool>> = own.iter().map(|t| grams.label(t)).collect();
    headline_is_noise(page, &blocks, &mut labels);
    let total: usize = own.iter().map(Vec::len).sum();
    let weights = own
        .iter()
        .map(|t| t.len() as f32 / total.max(1) as f32)
        .collect();
    PageSamples {
        blocks,
        labels,
        weights,
    }
}

/// Relabels the headline as noise: the gold texts of some folders keep
/// it, of others not, and `auto` leaves it to the metadata
/// ([`unchaff::algorithms::auto::headline`]). The block [`unchaff::algorithms::auto::headline::drop_headline`]
/// would drop from the gold's own blocks is the headline. Held out
/// (2-fold, RESULTS.md) this lifted scrapinghub from 0.954 to 0.961 over
/// keeping the gold's labels.
fn headline_is_noise(page: &Page<'_>, blocks: &Blocks, labels: &mut [Option<bool>]) {
    let mut keep: Vec<bool> = labels.iter().map(|l| *l == Some(true)).collect();
    let gold = keep.clone();
    use unchaff::algorithms::auto::headline::{Titles, drop_headline};
    if drop_headline(page, blocks, &Titles::new(page.dom), &mut keep) {
        for (l, (g, k)) in labels.iter_mut().zip(gold.iter().zip(&keep)) {
            if *g && !*k {
                *l = Some(false);
            }
        }
    }
}

/// The labelled blocks of a page given as bytes (decode, parse, clean,
/// annotate as extraction does, without templates).
pub fn samples_from_bytes(bytes: &[u8], gold: &str) -> Result<PageSamples, Error> {
    let prepared = unchaff::Prepared::new(bytes)?;
    Ok(page_samples(&prepared.page(), &Vocabulary::new(), gold))
}

/// A training page: its samples, how much the page weighs, and which half
/// of the out-of-fold split it is in (0 or 1).
#[derive(Clone, Debug)]
pub struct TrainPage {
    /// The page's blocks and labels.
    pub samples: PageSamples,
    /// The page's weight (its blocks' weights are multiplied by it).
    pub weight: f32,
    /// Its half for the out-of-fold block-stage probabilities.
    pub half: u32,
}

/// A row-major training matrix.
#[derive(Default)]
struct Rows {
    x: Vec<f32>,
    y: Vec<bool>,
    w: Vec<f32>,
}

impl Rows {
    fn push(&mut self, f: &[f32], label: bool, w: f32) {
        self.x.extend_from_slice(f);
        self.y.push(label);
        self.w.push(w);
    }

    /// Scales the weights to mean 1, so that `min_child_weight` reads in
    /// blocks.
    fn normalise(&mut self) {
        let total: f32 = self.w.iter().sum();
        let scale = self.y.len() as f32 / total.max(1e-9);
        self.w.iter_mut().for_each(|v| *v *= scale);
    }
}

fn block_rows<'a>(pages: impl Iterator<Item = &'a TrainPage>) -> Rows {
    let mut r = Rows::default();
    for p in pages {
        let s = &p.samples;
        for ((f, l), w) in s.blocks.features.iter().zip(&s.labels).zip(&s.weights) {
            if let Some(l) = l {
                r.push(f, *l, w * p.weight);
            }
        }
    }
    r.normalise();
    r
}

fn train_rows(r: &Rows, names: &[&str], p: &TrainParams) -> Result<gbdt::Model, Error> {
    train_gbdt(&r.x, &r.y, &r.w, names, p)
}

/// Trains both stages on `pages` (see the module documentation).
/// `block_exit` is the block stage's early exit (see
/// [`unchaff::algorithms::auto::BLOCK_EXIT_MARGIN`]).
pub fn train(
    pages: &[TrainPage],
    block_params: &TrainParams,
    context_params: &TrainParams,
    block_exit: f32,
) -> Result<AutoModel, Error> {
    // Out-of-fold block-stage models, one per half.
    let halves: Vec<Forest> = (0..2)
        .map(|h| {
            let rows = block_rows(pages.iter().filter(|p| p.half != h));
            train_rows(&rows, features::NAMES, block_params).map(|m| Forest::new(&m))
        })
        .collect::<Result<_, _>>()?;
    let mut ctx = Rows::default();
    for p in pages {
        let s = &p.samples;
        let forest = &halves[(p.half as usize).min(1)];
        let prob = block_probabilities(forest, &s.blocks, block_exit);
        let cf = context::context_features(&s.blocks, &prob);
        for ((f, l), w) in cf.iter().zip(&s.labels).zip(&s.weights) {
            if let Some(l) = l {
                ctx.push(f, *l, w * p.weight);
            }
        }
    }
    ctx.normalise();
    let context = train_rows(&ctx, context::NAMES, context_params)?;
    let blocks = train_rows(&block_rows(pages.iter()), features::NAMES, block_params)?;
    Ok(AutoModel {
        version: MODEL_VERSION,
        blocks,
        context,
        block_exit,
    })
}
