//! A line of the post between two kept lines of it is the post's.
//!
//! The model reads a short line of an article with suspicion: a
//! one-line paragraph, a paragraph that is mostly a link ("Read more
//! at …", "Write to … at …@…"), a small heading inside the post. Held out
//! on dragnet's blogs and news pages, such a line scored just under the
//! threshold is left out while the paragraphs on either side of it, its
//! siblings in the same element, are kept: the post reads with a hole.
//!
//! This phase, after the model, keeps such a line again: a dropped block
//! not in a comment container, whose probability reaches
//! [`BETWEEN_THRESHOLD_SHARE`] of the pass's threshold, when the blocks
//! just before and just after it in reading order are kept and all
//! three have the same parent element. Lines of page furniture that it
//! brings back (an advertisement's label, "Posted by … |") go again in
//! the chrome-lines phase, which runs later.

use super::features::Blocks;
use crate::annotate::Page;

/// The share of the pass's threshold from which a dropped block between
/// two kept siblings is kept again: 0.8 (0.4 at the default threshold).
/// Held out on dragnet, the lines sandwiched so at 0.4–0.5 are the
/// gold's in 90 of 148 (4,062 characters against 2,254), at 0.3–0.4 in
/// 36 of 55, below 0.3 mostly not (captions, bylines, share lines).
pub const BETWEEN_THRESHOLD_SHARE: f32 = 0.8;

/// The largest share of a block's text in links for it to be kept
/// again: a teaser that is a link ("Also read: …", a related story's
/// headline, a news list's item) between two paragraphs is not the
/// post's; a line that only links its source ("Read more here:
/// http://…", 0.5–0.6) is.
pub const BETWEEN_MAX_LINK_RATIO: f32 = 0.7;

/// Keeps the dropped blocks at `p` ≥ [`BETWEEN_THRESHOLD_SHARE`] ×
/// `threshold` whose neighbours in reading order are both kept and share
/// their parent element (see the module documentation). Returns whether
/// any block was kept again.
pub fn keep_between(page: &Page<'_>, b: &Blocks, p: &[f32], threshold: f32, keep: &mut [bool]) -> bool {
    let held = &b.held;
    let n = keep
        .len()
        .min(p.len())
        .min(b.comment.len())
        .min(b.features.len())
        .min(held.block.len());
    let parent = |k: usize| held.block_parent(k);
    const LINK_RATIO: usize = super::features::index("link_ratio");
    let floor = threshold * BETWEEN_THRESHOLD_SHARE;
    let mut back = Vec::new();
    for k in 1..n.saturating_sub(1) {
        if keep[k]
            || !keep[k - 1]
            || !keep[k + 1]
            || b.comment[k]
            || p[k] < floor
            || b.features[k][LINK_RATIO] > BETWEEN_MAX_LINK_RATIO
        {
            continue;
        }
        let Some(up) = parent(k) else { continue };
        if parent(k - 1) == Some(up) && parent(k + 1) == Some(up) {
            back.push(k);
        }
    }
    if back.is_empty() {
        return false;
    }
    let mut kept = false;
    for (&k, text) in back.iter().zip(super::nothing::texts_of(page, b, &back)) {
        if !has_clock_time(&text) {
            keep[k] = true;
            kept = true;
        }
    }
    kept
}

/// Whether `text` holds a clock time ("9:41", "13:13", "4:33:46 AM"):
/// a line with one between two paragraphs is a stamp (a comment's
/// "Posted by: … at Nov 24, 2004 4:33:46 AM", a byline's date, a "last
/// updated" line), which most folders' gold leaves out.
fn has_clock_time(text: &str) -> bool {
    let b = text.as_bytes();
    (1..b.len().saturating_sub(2)).any(|i| {
        b[i] == b':'
            && b[i - 1].is_ascii_digit()
            && b[i + 1].is_ascii_digit()
            && b[i + 2].is_ascii_digit()
            && b.get(i + 3).is_none_or(|c| !c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::after_phase;

    const PROSE: &str = "The council agreed to repair the old sea wall before the winter storms, and the engineers expect the work to take four months.";

    /// The blocks left kept when the blocks starting with one of `kept`
    /// were kept and every block scored `p`.
    fn run(html: &str, kept: &[&str], p: f32) -> Vec<String> {
        after_phase(
            html,
            |t| kept.iter().any(|k| t.starts_with(k)),
            |page, b, keep| {
                let p = vec![p; keep.len()];
                keep_between(page, b, &p, 0.5, keep);
            },
        )
    }

    fn post() -> String {
        format!(
            "<body><article><p>First. {PROSE}</p><p>Yesterday we launched a small thing.</p>\
             <p>Second. {PROSE}</p><p>Posted by Tim at Nov 24, 2004 4:33 AM</p><p>Fifth. {PROSE}</p><div><p>Boxed line.</p></div><p>Third. {PROSE}</p>\
             <p class=comment-body>Reader line.</p><p>Fourth. {PROSE}</p></article></body>"
        )
    }

    #[test]
    fn a_line_between_kept_paragraphs_comes_back() {
        let got = run(&post(), &["First", "Second"], 0.45);
        assert_eq!(got, ["First. The c", "Yesterday we", "Second. The "]);
    }

    #[test]
    fn only_near_the_threshold() {
        let got = run(&post(), &["First", "Second"], 0.3);
        assert_eq!(got, ["First. The c", "Second. The "]);
    }

    #[test]
    fn a_stamp_stays_out() {
        let got = run(&post(), &["Second", "Fifth"], 0.45);
        assert_eq!(got, ["Second. The ", "Fifth. The c"]);
        assert!(has_clock_time("at 9:41"));
        assert!(has_clock_time("13:13"));
        assert!(!has_clock_time("Read it at Phys.org: 2012"));
        assert!(!has_clock_time("Ratio 1:1000"));
    }

    #[test]
    fn another_parent_or_a_comment_stays_out() {
        // "Boxed line." has another parent; the reader's line is a
        // comment; the ends of the page have one neighbour only.
        let got = run(&post(), &["First", "Second", "Third", "Fourth"], 0.45);
        assert_eq!(
            got,
            ["First. The c", "Yesterday we", "Second. The ", "Third. The c", "Fourth. The "]
        );
    }
}
