//! Text kept beside the story, after a stretch the model dropped
//! (issue #38: precision on blogs and news pages).
//!
//! Where the page's title names a story ([`story::find_story`], or a
//! blog's post under a lower heading, [`story::find_post`]) and the model
//! kept it, what it kept after the story's container *and after a
//! stretch of blocks it dropped* is seldom more of the story: it is a
//! blog's sidebar (an about-me blurb, a blogroll, a category list), a
//! column of "latest news" teasers, an unmarked comment thread under its
//! share bar and reply form, or the site's footer. Held out, such text
//! made most of the extra text of dragnet's blog posts (P 0.1–0.3 on
//! pages whose post the model had whole).
//!
//! The rest of a story split from its headline's container (a news
//! site's `header` with the headline and the standfirst, the body in the
//! element after it) follows with nothing or little dropped in between:
//! a byline, a date, a share bar. So the cut is at the first kept block
//! after the container with [`GAP_BLOCKS`] dropped blocks or more before
//! it, and it is made only when the story holds a fair share of the kept
//! text ([`STORY_MIN_SHARE`]: a standfirst above a long body it is not),
//! and not on a thread whose replies are written like its opening post
//! (a forum's posts are the content).
//!
//! [`story::find_story`]: super::story::find_story
//! [`story::find_post`]: super::story::find_post

use super::comments;
use super::features::Blocks;
use super::story::Story;
use crate::annotate::Page;

/// Characters of the story's text that must be kept: the model found the
/// story (the story phase's own bound, [`super::story::KEPT_STORY_CHARS`]).
pub const STORY_MIN_CHARS: u32 = super::story::KEPT_STORY_CHARS;

/// Share of the kept characters that the story's kept text must hold:
/// below it the "story" is a headline's wrapper with a standfirst and the
/// body lies after it (held out, wcxb-dev's guides and a Russian news
/// site: 1–3% of the kept text).
pub const STORY_MIN_SHARE: f32 = 0.1;

/// Dropped blocks between the last kept block and the next one that make
/// the next one lie beside the story, not in it: a byline, a date and a
/// share bar are fewer; a sidebar's widgets, a comment form, a tag list
/// and a footer's menus are more. Held out, 3 cut a product page's
/// description after its gallery, 12 left most blogs' sidebars (6: the
/// same pages up, 13 pages down on wcxb-dev against 40).
pub const GAP_BLOCKS: usize = 6;

/// The text after the cut is more of the story, not beside it, when the
/// model is surer of it than of the story's kept text by this much
/// (character-weighted mean probabilities): a news site's body below its
/// lead (held out, a Russian story: lead 0.52, body 0.95), a product's
/// description below its gallery's caption. A sidebar or a teaser column
/// the model kept is no surer than the story.
pub const SURER_MARGIN: f32 = 0.2;

/// Drops the kept blocks after the story `st`'s container from the first
/// one that follows [`GAP_BLOCKS`] dropped blocks (see the module
/// documentation; `p`: the blocks' probabilities); comment blocks stay
/// when `comments_kept` (`include-comments`). Returns whether it dropped
/// any.
pub fn drop_beside(
    page: &Page<'_>,
    b: &Blocks,
    p: &[f32],
    keep: &mut [bool],
    st: &Story,
    comments_kept: bool,
) -> bool {
    let n = keep.len().min(b.chars.len()).min(b.comment.len()).min(p.len());
    let kept = |k: usize| k < n && keep[k];
    let story: u32 = st.text_blocks(b).filter(|&k| kept(k)).map(|k| b.chars[k]).sum();
    let total: u32 = (0..n).filter(|&k| kept(k)).map(|k| b.chars[k]).sum();
    if story < STORY_MIN_CHARS || (story as f32) < STORY_MIN_SHARE * total as f32 {
        return false;
    }
    let end = st.container.end.min(n);
    let Some(mut last) = (0..end).rev().find(|&k| kept(k)) else {
        return false;
    };
    let Some(cut) = (end..n).filter(|&k| kept(k)).find(|&k| {
        let gap = k - last - 1 >= GAP_BLOCKS;
        last = k;
        gap
    }) else {
        return false;
    };
    let surer = |blocks: &mut dyn Iterator<Item = usize>| {
        let (mut sum, mut chars) = (0.0, 0.0);
        for k in blocks.filter(|&k| kept(k)) {
            sum += p[k] * b.chars[k] as f32;
            chars += b.chars[k] as f32;
        }
        if chars > 0.0 { sum / chars } else { 0.0 }
    };
    if surer(&mut (cut..n)) >= surer(&mut st.text_blocks(b)) + SURER_MARGIN {
        return false;
    }
    // A thread: replies written like the opening post are posts.
    let posts: Vec<_> = st
        .text_blocks(b)
        .filter(|&k| kept(k))
        .filter_map(|k| comments::post_of(page, b, k))
        .collect();
    if (cut..n).any(|k| kept(k) && comments::post_of(page, b, k).is_some_and(|p| posts.contains(&p)))
    {
        return false;
    }
    let mut dropped = false;
    for k in cut..n {
        if keep[k] && !(comments_kept && b.comment[k]) {
            keep[k] = false;
            dropped = true;
        }
    }
    dropped
}
