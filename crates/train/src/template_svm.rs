//! Training `template-svm`'s block classifier: each block of a page
//! labelled from the gold text (ALGORITHMS.md#labels-from-the-gold-text) with its features
//! ([`unchaff::algorithms::template_svm::blocks`]); the SVM itself is fitted
//! by [`crate::svm`].
//!
//! A token of a block's own text counts when some window of 4 consecutive
//! block tokens containing it is a 4-gram of the gold text; a block of
//! fewer than 4 tokens counts whole when it occurs contiguously in the
//! gold. The block is content when at least half its tokens count.

use unchaff::Error;
use unchaff::algorithms::template_svm::{Blocks, GoldGrams, Sample, blocks, tokens};
use unchaff::annotate::Page;

/// Labels each block from the gold text (ALGORITHMS.md#labels-from-the-gold-text): `Some(true)` content,
/// `Some(false)` noise, `None` for a block without own tokens.
pub fn label_blocks(page: &Page<'_>, b: &Blocks, gold: &str) -> Vec<Option<bool>> {
    let grams = GoldGrams::new(gold);
    let mut own: Vec<Vec<u64>> = vec![Vec::new(); b.nodes.len()];
    for (t, &k) in page.texts.iter().zip(&b.text_block) {
        if let Some(s) = page.dom.text_of(t.node) {
            tokens(s, &mut own[k as usize]);
        }
    }
    own.iter().map(|toks| grams.label(toks)).collect()
}

/// Training samples of one page: the features and label of every block
/// with own text.
pub fn page_samples(page: &Page<'_>, gold: &str) -> Vec<Sample> {
    let b = blocks(page);
    let labels = label_blocks(page, &b, gold);
    b.features
        .iter()
        .zip(labels)
        .filter_map(|(f, l)| l.map(|l| (*f, l)))
        .collect()
}

/// Decodes, parses, cleans and annotates a page and returns its training
/// samples against `gold` (see [`page_samples`]).
pub fn samples_from_bytes(bytes: &[u8], gold: &str) -> Result<Vec<Sample>, Error> {
    let prepared = unchaff::Prepared::new(bytes)?;
    Ok(page_samples(&prepared.page(), gold))
}

#[cfg(test)]
mod tests {
    use super::*;
    use unchaff::annotate::annotate;
    use unchaff::parse::parse;

    #[test]
    fn labels_follow_the_four_gram_rule() {
        let dom = parse(
            "<body><div>alpha beta gamma delta epsilon zeta eta theta</div>\
             <div>alpha beta gamma omega psi chi phi rho</div>\
             <div>Home News</div><div>News Home</div></body>",
        );
        let page = annotate(&dom, "", dom.content_root());
        let b = blocks(&page);
        let gold = "Alpha beta gamma delta, epsilon. Something home news else";
        let l = label_blocks(&page, &b, gold);
        // body has no own text; block 1: its first 5 tokens lie in gold
        // 4-grams (alpha…delta, beta…epsilon), 5 of 8 ≥ half → content.
        // Block 2: "alpha beta gamma omega" is no gold 4-gram; no window
        // matches → 0 of 8 → noise. Block 3: 2 tokens, "home news" occurs
        // contiguously → content; block 4: "news home" does not → noise.
        assert_eq!(
            l,
            vec![None, Some(true), Some(false), Some(true), Some(false)]
        );
    }
}
