//! A page the model is unsure of throughout: the threshold comes down.
//!
//! On an article the blocks the model keeps are ones it is sure of (their
//! probabilities, weighted by their characters, average 0.9 and more) and
//! the threshold cuts between those and the chrome. On a page unlike the
//! articles it learnt from (a service or product landing page, a shop's
//! collection, a documentation index) it hesitates over the whole main
//! column: its sections come out at 0.3–0.6, the threshold keeps the few
//! that happen to pass 0.5 and drops the rest of the same column (held
//! out, wcxb-dev's service pages: precision 0.96, recall 0.28, each
//! section's heading and half its paragraphs left out). The kept blocks'
//! own mean probability tells the two apart: when it lies less than
//! [`KEPT_MARGIN`] above the threshold, the model's decision boundary is
//! no better than a guess on this page, and the selection starts again
//! from a lower threshold ([`LOWER`] × the threshold) before the other
//! phases run. A short selection ([`MIN_KEPT_CHARS`]) stands: a short
//! story is the fallback's to judge.
//!
//! Held out by folder (`LOFO_SKIP_TRAIN=1 scripts/lofo.sh`, main's
//! seed-7 models): the LOFO mean 0.9190 → 0.9207, wcxb-dev 0.820 → 0.825,
//! htmltotext-bench 0.903 → 0.913, dragnet 0.900 → 0.902, no folder down
//! by more than 0.0015 (docs/history/results-auto.md).

use super::features::Blocks;

/// The kept blocks' mean probability (weighted by their characters) must
/// lie at least this far above the threshold for the selection to stand:
/// 0.75 at the default threshold. Screened held out (before
/// [`MIN_KEPT_CHARS`]) at 0.7, 0.75, 0.8 and 0.85 (LOFO mean 0.9204, 0.9209, 0.9210, 0.9209 with [`LOWER`] at
/// 0.6; 0.9 with 0.7: 0.9194): from 0.8 on, daniel-dev's and
/// cleaneval-en-dev's short articles lose 0.002 (their sure blocks sit
/// near 0.8), at 0.75 no folder loses more than 0.0015.
pub const KEPT_MARGIN: f32 = 0.25;

/// A selection of fewer characters than this stands: a short news story
/// (a Chinese one of 100–500 characters, a caption and two paragraphs)
/// whose one unsure line pulls the mean down would take the page's
/// contact lines and teasers with it (in-sample, daniel-dev's Chinese
/// pages: zh token F1 0.946 → 0.943 without this bound, back to 0.946 with
/// it; held out 0.9209 → 0.9207). A selection this short is the
/// fallback's to judge ([`super::RELAX_CHARS`], the same 600).
pub const MIN_KEPT_CHARS: u64 = 600;

/// The lower threshold, as a share of the threshold: 0.3 at the default.
/// Screened (before [`MIN_KEPT_CHARS`]) with [`KEPT_MARGIN`] at 0.3: 0.5 (0.25), 0.6 (0.3) and 0.8
/// (0.4) gave a held-out mean of 0.9211, 0.9210 and 0.9195; the recall
/// preset's 0.7 (0.35) 0.9202. 0.6 keeps the most of the column for the
/// least chrome.
pub const LOWER: f32 = 0.6;

/// The kept blocks `keep` (those at or above `threshold` of the final
/// probabilities `p`) are re-chosen at [`LOWER`] × `threshold` when their
/// mean probability, weighted by their characters, lies less than
/// [`KEPT_MARGIN`] above `threshold` and they hold at least
/// [`MIN_KEPT_CHARS`]. Returns whether it did.
pub fn lower_threshold(b: &Blocks, p: &[f32], threshold: f32, keep: &mut [bool]) -> bool {
    let (mut sum, mut chars) = (0.0f64, 0u64);
    for ((&c, &x), &k) in b.chars.iter().zip(p).zip(keep.iter()) {
        if k {
            sum += c as f64 * x as f64;
            chars += c as u64;
        }
    }
    if chars < MIN_KEPT_CHARS || (sum / chars as f64) as f32 >= threshold + KEPT_MARGIN {
        return false;
    }
    let lower = threshold * LOWER;
    for (k, &x) in keep.iter_mut().zip(p) {
        *k = x >= lower;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::auto::features;
    use crate::algorithms::auto::vocab::Vocabulary;
    use crate::algorithms::testutil::{block_texts, page_of};
    use crate::parse::parse;

    /// A section's paragraph: five sentences, about 360 characters.
    const SECTION: &str = "what the service does for a team of any size. \
        Every machine is copied once an hour, and only the changed blocks travel. \
        A lost file comes back in two clicks, from any hour of the last month. \
        The copies are encrypted with keys that never leave your own machines. \
        Support answers within the hour, day and night.";

    /// The texts kept after the phase, the blocks' probabilities given
    /// by the first word of their text.
    fn kept(probabilities: &[(&str, f32)]) -> Vec<String> {
        let body: String = probabilities
            .iter()
            .map(|(w, _)| format!("<p>{w} section: {SECTION}</p>"))
            .collect();
        let dom = parse(&format!("<body><main>{body}</main></body>"));
        let page = page_of(&dom);
        let b = features::blocks(&page, &Vocabulary::new());
        let text = block_texts(&page, &b);
        let p: Vec<f32> = (text.iter())
            .map(|t| {
                (probabilities.iter())
                    .find(|(w, _)| t.starts_with(w))
                    .map_or(0.0, |r| r.1)
            })
            .collect();
        let mut keep: Vec<bool> = p.iter().map(|&x| x >= 0.5).collect();
        lower_threshold(&b, &p, 0.5, &mut keep);
        (text.iter().zip(keep))
            .filter(|(_, k)| *k)
            .map(|(t, _)| t.split(' ').next().unwrap_or("").to_owned())
            .collect()
    }

    #[test]
    fn a_column_the_model_hesitates_over_is_kept_whole() {
        // Two sections pass 0.5 by a hair, three just miss it, a footer
        // line is far below: the column is kept, the footer not.
        let left = kept(&[
            ("Hosting", 0.55),
            ("Backups", 0.42),
            ("Support", 0.6),
            ("Pricing", 0.35),
            ("Security", 0.31),
            ("Footer", 0.1),
        ]);
        assert_eq!(left, ["Hosting", "Backups", "Support", "Pricing", "Security"]);
    }

    #[test]
    fn a_selection_the_model_is_sure_of_stands() {
        // An article's paragraphs at 0.9 and a teaser at 0.4 beside them.
        let left = kept(&[("Story", 0.92), ("More", 0.95), ("Teaser", 0.4), ("Footer", 0.1)]);
        assert_eq!(left, ["Story", "More"]);
        // Nothing kept: nothing to judge.
        assert!(kept(&[("Teaser", 0.4), ("Footer", 0.1)]).is_empty());
        // A short selection the model is unsure of (one paragraph, under
        // MIN_KEPT_CHARS) is the fallback's to judge.
        let left = kept(&[("Story", 0.6), ("Contact", 0.4), ("Footer", 0.1)]);
        assert_eq!(left, ["Story"]);
    }
}
