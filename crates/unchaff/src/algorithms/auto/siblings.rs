//! A paragraph beside the article's paragraphs is the article's.
//!
//! The context stage reads a block through its surroundings, and that
//! mostly helps: a well-written paragraph in a comment thread or a
//! sidebar goes. But it also drops, now and then, one paragraph of an
//! article whose siblings it keeps: held out, the last paragraph of a
//! short article that repeats an earlier one (readability-tests), or a
//! paragraph after an embedded figure. Which paragraph goes changes with
//! the training seed, so these losses are the model's noise rather than
//! a judgement.
//!
//! This phase, after the model, keeps such a paragraph again: a block
//! that the block stage on its own takes for content
//! ([`SIBLING_MIN_BLOCK_P`]), that is prose ([`SIBLING_MIN_CHARS`]) and
//! not in a comment container, and whose parent element holds a kept
//! block of prose. Both stages have then said "content" of something in
//! that element, and the block stage of this block too.
//!
//! Held out, with the LOFO models of five training seeds, it adds
//! 0.0002 to 0.0005 to the mean, every seed up (docs/RESULTS.md).

use super::features::Blocks;

/// A block counts as prose, both the one kept again and the kept sibling
/// that vouches for it, from this many characters: a paragraph, not a
/// caption, a date or a button (as [`super::comments::POST_MIN_CHARS`]).
pub const SIBLING_MIN_CHARS: u32 = 100;

/// The block stage's probability from which a dropped block can be kept
/// again: the block stage, reading the block's own features, calls it
/// content (the threshold's default). Held out, 0.3 to 0.7 scored alike.
pub const SIBLING_MIN_BLOCK_P: f32 = 0.5;

/// Keeps the dropped prose blocks that the block stage calls content
/// (`block_stage`, by block) and whose parent element holds a kept block
/// of prose (see the module documentation). Returns whether any block
/// was kept again.
pub fn keep_siblings(b: &Blocks, block_stage: &[f32], keep: &mut [bool]) -> bool {
    let held = &b.held;
    let n = keep
        .len()
        .min(block_stage.len())
        .min(b.chars.len())
        .min(b.comment.len())
        .min(held.block.len());
    let parent = |k: usize| held.block_parent(k);
    // The elements that hold a kept block of prose.
    let mut hosts = vec![false; held.held.len()];
    for k in (0..n).filter(|&k| keep[k] && b.chars[k] >= SIBLING_MIN_CHARS) {
        if let Some(up) = parent(k) {
            hosts[up] = true;
        }
    }
    let mut kept = false;
    for k in 0..n {
        if !keep[k]
            && !b.comment[k]
            && b.chars[k] >= SIBLING_MIN_CHARS
            && block_stage[k] >= SIBLING_MIN_BLOCK_P
            && parent(k).is_some_and(|up| hosts[up])
        {
            keep[k] = true;
            kept = true;
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::after_phase;

    const PROSE: &str = "The council agreed to repair the old sea wall before the winter storms, and the engineers expect the work to take four months at a lower cost than planned.";

    /// The blocks left kept when the blocks starting with one of `kept`
    /// were kept and the block stage gave `block_p` to every block.
    fn run(html: &str, kept: &[&str], block_p: f32) -> Vec<String> {
        after_phase(
            html,
            |t| kept.iter().any(|k| t.starts_with(k)),
            |_, b, keep| {
                let p1 = vec![block_p; keep.len()];
                keep_siblings(b, &p1, keep);
            },
        )
    }

    fn article() -> String {
        format!(
            "<body><div class=side><p>Side one. {PROSE}</p></div>\
             <article><p>First. {PROSE}</p><p>Second. {PROSE}</p><p>Short one.</p>\
             <p>Third. {PROSE}</p><p class=comment-body>Reader. {PROSE}</p></article></body>"
        )
    }

    #[test]
    fn a_dropped_paragraph_between_kept_ones_comes_back() {
        let got = run(&article(), &["First", "Second"], 0.9);
        assert_eq!(got, ["First. The c", "Second. The ", "Third. The c"]);
    }

    #[test]
    fn only_what_the_block_stage_calls_content_comes_back() {
        let got = run(&article(), &["First", "Second"], 0.3);
        assert_eq!(got, ["First. The c", "Second. The "]);
    }

    #[test]
    fn other_elements_short_blocks_and_comments_stay_out() {
        // The sidebar's paragraph has another parent, the short one is no
        // prose, the reader's is a comment: none comes back.
        let got = run(&article(), &["First", "Second", "Third"], 0.9);
        assert_eq!(got, ["First. The c", "Second. The ", "Third. The c"]);
        // A short kept block vouches for nothing.
        let got = run(&article(), &["Short"], 0.9);
        assert_eq!(got, ["Short one."]);
    }
}
