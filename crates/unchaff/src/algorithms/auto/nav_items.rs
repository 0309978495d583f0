//! Navigation the fallback's relaxed pass must not take.
//!
//! On a short post (a blog's one-paragraph entry, an image post, a
//! Slashdot-like story of 500 characters) the selection at the threshold
//! is short, and the fallback's relaxed pass takes every block the model
//! gave 0.4 × the threshold: held out on dragnet, mostly the page's
//! navigation — menus ("Join", "Login", "Ask Slashdot"), tag clouds
//! ("Motorcycle Camping", "Food and Drink"), blogrolls, archive lists,
//! "RSS Feed or, Subscribe via Email". Each such entry is one short link
//! on its own: a *navigation item*.
//!
//! This phase, first in the relaxed pass, drops the navigation items the
//! model scored below the threshold: blocks whose text is mostly link
//! text ([`NAV_ITEM_LINK_SHARE`]) and short ([`NAV_ITEM_MAX_CHARS`]).
//! Two kinds of short links are content and stay:
//!
//! * **A listing's cards.** A shop's product card or a listing's entry
//!   holds its title beside its price, model number or rating, several
//!   blocks in one record of a record group (a menu entry or a tag is the
//!   one link of its record). Held out, wcxb-dev's collection pages
//!   whose grid is all links (a robotic mower's card: its model, title
//!   and price, each a link) lost 0.85 → 0.48 without this exception.
//! * **The post's own links.** A list of places or links inside the post
//!   ("Here are the places we'll visit: Bahrain, Sri Lanka, …"): the
//!   blocks inside the element above the one holding the prose the model
//!   kept at the threshold ([`POST_PROSE_CHARS`],
//!   [`POST_PROSE_LINK_RATIO`]).
//!
//! When the navigation items are all the relaxed pass kept and the page's
//! title names a story, they stay: the story phase replaces such a
//! selection with the story's text, and only while there is one (a
//! blog's two-line post under its blogroll). Held out that leaves one
//! page as on main (a wcxb-dev forum thread, 0.00, which dropping gave
//! 0.21 through the last resort). Otherwise, running first, before the
//! relaxed pass measures what it kept, the
//! phase also lets the last resort (CETD-TPC's block) take a page whose
//! relaxed selection was navigation only (wcxb-dev's projector listing,
//! 0.00 → 0.52).

use super::features::{self, Blocks};
use crate::annotate::Page;

/// A navigation item is shorter than this many characters (its whole
/// subtree): a menu entry, a tag, a blogroll's or an archive's entry
/// ("Motorcycle Touring: Scandinavia", 31, is a tag cloud's longest).
/// Held out, the links under 30 characters the relaxed pass took on
/// dragnet were the gold's in 33 blocks of 666 (353 characters against
/// 7,306); links of 30–60 characters are as often a related story's
/// headline as a list in the post (40 or 60: the same held-out mean).
pub const NAV_ITEM_MAX_CHARS: u32 = 30;

/// … and more than this share of its characters are link text: a link
/// alone, or with a count after it ("aha lessons (140)" when the count is
/// in the link). Held out, 0.6 scored as 0.8.
pub const NAV_ITEM_LINK_SHARE: f32 = 0.8;

/// The prose the model kept at the threshold marks the post: blocks of
/// this many characters (a paragraph, as
/// [`super::siblings::SIBLING_MIN_CHARS`]) …
pub const POST_PROSE_CHARS: u32 = 100;

/// … under this share of links (a paragraph, not a list of links).
pub const POST_PROSE_LINK_RATIO: f32 = 0.5;

const LINK_RATIO: usize = features::index("link_ratio");

/// Drops, from `keep`, the navigation items scored below `threshold` (see
/// the module documentation), unless they are all that is kept and the
/// page has a `story` (or a post) its title names, which then takes their
/// place ([`super::story::take_story`]). Returns whether any block was
/// dropped.
pub fn drop_nav_items(
    page: &Page<'_>,
    b: &Blocks,
    p: &[f32],
    threshold: f32,
    keep: &mut [bool],
    story: bool,
) -> bool {
    let n = keep
        .len()
        .min(p.len())
        .min(b.nodes.len())
        .min(b.held.block.len());
    let candidates: Vec<usize> = (0..n)
        .filter(|&k| {
            if !keep[k] || p[k] >= threshold {
                return false;
            }
            let st = page.stats(b.nodes[k]);
            st.chars > 0
                && st.chars < NAV_ITEM_MAX_CHARS
                && st.link_chars as f32 > NAV_ITEM_LINK_SHARE * st.chars as f32
        })
        .collect();
    if candidates.is_empty() {
        return false;
    }
    // Navigation alone kept on a page whose title names a story: the
    // story phase replaces such a selection with the story's text, and
    // does so only while there is a selection to replace.
    if story && (0..n).filter(|&k| keep[k]).count() == candidates.len() {
        return false;
    }
    let cards = in_cards(b);
    let post = post_elements(b, p, threshold);
    let mut dropped = false;
    for k in candidates {
        let h = b.held.block[k] as usize;
        if cards.get(k).copied().unwrap_or(true) || post.get(h).copied().unwrap_or(true) {
            continue;
        }
        keep[k] = false;
        dropped = true;
    }
    dropped
}

/// Whether each block lies in a card: its nearest record (the block's
/// element or an ancestor that is a member of a record group) holds
/// another block too.
fn in_cards(b: &Blocks) -> Vec<bool> {
    let t = &b.held;
    let nh = t.held.len();
    // The nearest record of each held element (itself included).
    let record: Vec<usize> = (b.nearest_records().iter())
        .map(|r| r.map_or(usize::MAX, |(at, _)| at as usize))
        .collect();
    let of_block = |k: usize| record.get(t.block[k] as usize).copied().unwrap_or(usize::MAX);
    let mut blocks_in = vec![0u32; nh];
    for k in 0..t.block.len() {
        if let Some(c) = blocks_in.get_mut(of_block(k)) {
            *c += 1;
        }
    }
    (0..t.block.len())
        .map(|k| blocks_in.get(of_block(k)).is_some_and(|&c| c >= 2))
        .collect()
}

/// Whether each held element lies in the post: inside the parent of the
/// lowest element holding every block of prose at the `threshold` (see
/// [`POST_PROSE_CHARS`]). All false when there is no such prose.
fn post_elements(b: &Blocks, p: &[f32], threshold: f32) -> Vec<bool> {
    let nh = b.held.held.len();
    let mut post: Option<usize> = None;
    let n = p.len().min(b.chars.len()).min(b.features.len()).min(b.comment.len());
    for (k, &pk) in p.iter().enumerate().take(n) {
        if pk < threshold
            || b.comment[k]
            || b.chars[k] < POST_PROSE_CHARS
            || b.features[k][LINK_RATIO] >= POST_PROSE_LINK_RATIO
        {
            continue;
        }
        let h = b.held.block[k] as usize;
        post = Some(match post {
            None => h,
            Some(c) => match common_ancestor(b, c, h) {
                Some(c) => c,
                None => return vec![false; nh],
            },
        });
    }
    let Some(c) = post else {
        return vec![false; nh];
    };
    // The element above the prose's: a post's list sits beside its
    // paragraphs, not inside one of them.
    let c = b.held.parent_of(c).unwrap_or(c);
    let mut inside = vec![false; nh];
    for h in c..nh {
        inside[h] = h == c || b.held.parent_of(h).is_some_and(|up| inside[up]);
    }
    inside
}

/// The lowest element holding both held elements `a` and `b` (itself
/// when one holds the other).
fn common_ancestor(blocks: &Blocks, mut a: usize, mut b: usize) -> Option<usize> {
    while a != b {
        if a > b {
            a = blocks.held.parent_of(a)?;
        } else {
            b = blocks.held.parent_of(b)?;
        }
    }
    Some(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::after_phase;

    /// The blocks left after the phase when `kept(text)` were kept, all
    /// below the threshold but those `sure(text)` names, on a page with
    /// no story.
    fn left(html: &str, kept: impl Fn(&str) -> bool, sure: impl Fn(&str) -> bool) -> Vec<String> {
        left_story(html, kept, sure, false)
    }

    /// [`left`] on a page with a `story` or none.
    fn left_story(
        html: &str,
        kept: impl Fn(&str) -> bool,
        sure: impl Fn(&str) -> bool,
        story: bool,
    ) -> Vec<String> {
        after_phase(html, kept, |page, b, keep| {
            let texts = super::super::nothing::texts_of(page, b, &(0..keep.len()).collect::<Vec<_>>());
            let p: Vec<f32> = texts.iter().map(|t| if sure(t) { 0.9 } else { 0.3 }).collect();
            drop_nav_items(page, b, &p, 0.5, keep, story);
        })
    }

    /// A block's text as `after_phase` lists it: its first 12 characters.
    fn short(t: &str) -> String {
        t.chars().take(12).collect()
    }

    const POST: &str = "The harbour master says the new pontoon will be ready for the spring, and the ferry will use it from April onwards.";

    #[test]
    fn menus_and_tags_go_beside_a_short_post() {
        let html = format!(
            "<html><body><ul class=menu><li><a href=/>Home</a></li><li><a href=/a>About</a></li>\
             <li><a href=/c>Contact</a></li></ul><div class=post><p>{POST}</p></div>\
             <div class=tags><a href=/t1>ferries</a> <a href=/t2>harbour</a></div>\
             <ul class=tags><li><a href=/t3>boats</a></li><li><a href=/t4>Motorcycle Camping</a></li>\
             <li><a href=/t5>weather</a></li></ul></body></html>"
        );
        let left = left(&html, |_| true, |t| t == POST);
        assert_eq!(left, vec![short(POST)]);
    }

    #[test]
    fn a_posts_own_list_of_links_stays() {
        let html = format!(
            "<html><body><ul><li><a href=/>Home</a></li><li><a href=/a>About</a></li>\
             <li><a href=/b>Blog</a></li></ul>\
             <div class=post><p>{POST}</p><ul><li><a href=/x>Bahrain</a></li>\
             <li><a href=/y>Sri Lanka</a></li><li><a href=/z>Hong Kong</a></li></ul></div></body></html>"
        );
        let left = left(&html, |_| true, |t| t == POST);
        assert_eq!(left, vec![short(POST), "Bahrain".into(), "Sri Lanka".into(), "Hong Kong".into()]);
    }

    #[test]
    fn a_listings_cards_stay() {
        // Each card: its model, title and price, all links, in one record.
        let card = |i: u32| {
            format!(
                "<div class=card><h4><a href=/{i}>KR{i}</a></h4><h3><a href=/{i}>Mower {i}</a></h3>\
                 <div><a href=/{i}>$ {i},099</a></div></div>"
            )
        };
        let html = format!("<html><body><div class=grid>{}{}{}</div></body></html>", card(1), card(2), card(3));
        let left = left(&html, |_| true, |_| false);
        assert_eq!(left.len(), 9, "{left:?}");
        assert!(left.contains(&"Mower 2".to_string()), "{left:?}");
    }

    #[test]
    fn navigation_alone_is_left_to_the_story() {
        // Only the menu kept: with a story the title names, the story
        // phase replaces it; without one, it goes.
        let html = "<html><body><ul><li><a href=/>Home</a></li><li><a href=/a>About</a></li></ul>\
            <h1>Paper leaves</h1><p>Two lines of a post.</p></body></html>";
        let menu = |t: &str| t == "Home" || t == "About";
        assert_eq!(left_story(html, menu, |_| false, true).len(), 2);
        assert!(left_story(html, menu, |_| false, false).is_empty());
    }

    #[test]
    fn sure_or_long_links_stay() {
        // Scored at the threshold, or a headline's length: not the
        // phase's to drop.
        let html = "<html><body><ul><li><a href=/>Home</a></li>\
            <li><a href=/s>A long headline of a story that links to it</a></li></ul></body></html>";
        let left = left(html, |_| true, |t| t == "Home");
        assert_eq!(left.len(), 2, "{left:?}");
    }
}
