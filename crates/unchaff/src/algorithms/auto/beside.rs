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
        // `k - last - 1` blocks dropped in between.
        let gap = k - last > GAP_BLOCKS;
        last = k;
        gap
    }) else {
        return false;
    };
    let mean_p = |blocks: &mut dyn Iterator<Item = usize>| {
        let (mut sum, mut chars) = (0.0, 0.0);
        for k in blocks.filter(|&k| kept(k)) {
            sum += p[k] * b.chars[k] as f32;
            chars += b.chars[k] as f32;
        }
        if chars > 0.0 { sum / chars } else { 0.0 }
    };
    if mean_p(&mut (cut..n)) >= mean_p(&mut st.text_blocks(b)) + SURER_MARGIN {
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
    for (k, kept) in keep.iter_mut().enumerate().take(n).skip(cut) {
        if *kept && !(comments_kept && b.comment[k]) {
            *kept = false;
            dropped = true;
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::auto::features;
    use crate::algorithms::auto::story::story_after;
    use crate::algorithms::auto::vocab::Vocabulary;
    use crate::algorithms::testutil::{block_texts, page_of};
    use crate::parse::parse;

    const STORY: &str = "<div class=post><h1>Mending a herring net</h1>\
        <div class=body><p>Every spring the nets come down from the loft, and every spring \
        they are worse than we remembered this year.</p>\
        <p>Mending is slow work: you cut back to sound mesh, square the hole and knit the \
        new mesh in, one knot at a time.</p>\
        <p>By Friday the drift net was whole again, tarred and hung to dry for the boats.</p>\
        </div></div>";

    /// Six lines of chrome: tags, share links, the post navigation.
    const CHROME: &str = "<div class=meta><p>Nets</p><p>Herring</p><p>Facebook</p>\
        <p>Twitter</p><p>Older post</p><p>Newer post</p></div>";

    const BESIDE: &str = "<div class=col><p>I fish out of a small harbour with my brother, \
        and in the winter I repair gear for the other boats.</p>\
        <p>Write to me with a question about nets: I answer every letter.</p></div>";

    /// The texts `drop_beside` leaves of `body`, whose blocks are kept
    /// but for the chrome lines, at probability `p_story` in the story
    /// and `p_after` after it; the story opens at the first `h1`.
    fn left(body: &str, p_story: f32, p_after: f32) -> Vec<String> {
        let dom = parse(&format!("<html><body>{body}</body></html>"));
        let page = page_of(&dom);
        let b = features::blocks(&page, &Vocabulary::new());
        let texts = block_texts(&page, &b);
        let headline = texts.iter().position(|t| t.starts_with("Mending a")).unwrap();
        let st = story_after(&b, headline).expect("a story");
        let chrome = ["Nets", "Herring", "Facebook", "Twitter", "Older post", "Newer post"];
        let mut keep: Vec<bool> = texts.iter().map(|t| !chrome.contains(&t.as_str())).collect();
        let p: Vec<f32> = (0..keep.len())
            .map(|k| if k < st.container.end { p_story } else { p_after })
            .collect();
        drop_beside(&page, &b, &p, &mut keep, &st, false);
        texts.into_iter().zip(keep).filter(|(_, k)| *k).map(|(t, _)| t).collect()
    }

    fn has(out: &[String], s: &str) -> bool {
        out.iter().any(|t| t.contains(s))
    }

    #[test]
    fn text_past_a_dropped_stretch_after_the_story_goes() {
        let out = left(&format!("{STORY}{CHROME}{BESIDE}"), 0.9, 0.9);
        assert!(has(&out, "drift net was whole"), "{out:?}");
        assert!(!has(&out, "small harbour") && !has(&out, "every letter"), "{out:?}");
    }

    #[test]
    fn text_right_after_the_story_stays() {
        // Fewer dropped blocks than a sidebar's: a byline, a date.
        let short = "<div class=meta><p>Nets</p><p>Herring</p></div>";
        let out = left(&format!("{STORY}{short}{BESIDE}"), 0.9, 0.9);
        assert!(has(&out, "small harbour"), "{out:?}");
    }

    #[test]
    fn text_the_model_is_surer_of_than_the_story_stays() {
        // The story's container was a header with a lead; the body the
        // model is sure of follows.
        let out = left(&format!("{STORY}{CHROME}{BESIDE}"), 0.55, 0.95);
        assert!(has(&out, "small harbour"), "{out:?}");
    }

    #[test]
    fn a_story_that_is_a_sliver_of_the_selection_cuts_nothing() {
        let long: String = (0..30).map(|_| BESIDE).collect();
        let out = left(&format!("{STORY}{CHROME}{long}"), 0.9, 0.9);
        assert!(has(&out, "small harbour"), "{out:?}");
    }

    #[test]
    fn replies_written_like_the_opening_post_stay() {
        let post = |text: &str| {
            format!("<div class=message><p>{text} The tide was low and the light was good.</p></div>")
        };
        let thread = format!(
            "<div class=thread><h1>Mending a herring net</h1>{}</div>{CHROME}{}{}",
            post(
                "Every spring the nets come down from the loft, worse than we remembered: \
                 this year the drift net has a tear the length of a rowing boat, where a seal \
                 went through it in October. How would you mend it?"
            ),
            post("Cut back to sound mesh first, then square the hole before you knit."),
            post("A wooden gauge keeps the mesh even; mine is cut from an old oar blade."),
        );
        let out = left(&thread, 0.9, 0.9);
        assert!(has(&out, "wooden gauge"), "{out:?}");
    }
}
