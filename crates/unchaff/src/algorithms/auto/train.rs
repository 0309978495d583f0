//! Training data for the default extractor: every block of a page with
//! text, its features, its label from the gold text, and its weight.
//!
//! Labels follow SPEC §6.2's rule (a block is content when at least half
//! its tokens lie in 4-grams of the gold text), the same rule paper 5's
//! SVM is trained with. Weights make every page count the same, whatever
//! its number of blocks: a block weighs its share of the page's tokens, as
//! a token-level F1 weighs it.

use super::features::{self, N};
use super::vocab::Vocabulary;
use crate::Error;
use crate::algorithms::template_svm::{GoldGrams, tokens};
use crate::annotate::Page;

/// The labelled blocks of one page.
#[derive(Clone, Debug, Default)]
pub struct PageSamples {
    /// Features, [`features::NAMES`] order.
    pub features: Vec<[f32; N]>,
    /// Content (true) or noise.
    pub labels: Vec<bool>,
    /// Each block's share of the page's tokens (they sum to 1).
    pub weights: Vec<f32>,
}

/// The labelled blocks of an annotated page.
pub fn page_samples(page: &Page<'_>, vocab: &Vocabulary, gold: &str) -> PageSamples {
    let b = features::blocks(page, vocab);
    let mut own: Vec<Vec<u64>> = vec![Vec::new(); b.nodes.len()];
    for (t, &k) in page.texts.iter().zip(&b.text_block) {
        if let Some(s) = page.dom.text_of(t.node) {
            tokens(s, &mut own[k as usize]);
        }
    }
    let grams = GoldGrams::new(gold);
    let labels: Vec<Option<bool>> = own.iter().map(|t| grams.label(t)).collect();
    let total: usize = own.iter().map(Vec::len).sum();
    let mut out = PageSamples::default();
    for ((f, l), toks) in b.features.iter().zip(labels).zip(&own) {
        if let Some(l) = l {
            out.features.push(*f);
            out.labels.push(l);
            out.weights.push(toks.len() as f32 / total.max(1) as f32);
        }
    }
    out
}

/// The labelled blocks of a page given as bytes (decode, parse, clean,
/// annotate as extraction does, without templates).
pub fn samples_from_bytes(bytes: &[u8], gold: &str) -> Result<PageSamples, Error> {
    let prepared = crate::Prepared::new(bytes)?;
    Ok(page_samples(&prepared.page(), &Vocabulary::new(), gold))
}
