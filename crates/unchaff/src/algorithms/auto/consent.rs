//! A cookie-consent dialog is never the page's content.
//!
//! Consent managers (OneTrust, Cookiebot, Didomi, Usercentrics, TrustArc
//! and the sites' own banners) put a dialog of several paragraphs of
//! well-formed prose into every page: what cookies are, the purposes,
//! the partners. The class/id vocabulary marks it (`v_overlay`), but a
//! model trained on pages whose banners were short learns only a lean
//! against it; held out, on listing and forum pages with little prose
//! of their own, the dialog's paragraphs were the longest text on the
//! page and came out as the content (wcxb-dev: eight pages at F1 0).
//!
//! This phase, after the model, unkeeps the blocks inside a consent
//! container: an element below `body` whose id or class names a consent
//! manager or a cookie banner ([`CONSENT_NAMES`], or [`COOKIE_WORDS`] beside [`DIALOG_WORDS`]), unless it lies in
//! `main` or `article` (a cookie policy's page is its own content; the
//! consent managers put their dialogs straight under `body`). The
//! vocabulary's `v_overlay` is no guide here: where the dialog holds most
//! of a page's text, the overlay family is page-wide and ignored.

use super::features::Blocks;
use crate::annotate::Page;
use crate::dom::{NodeId, Tag};

/// Substrings of an id or class token that name a consent dialog on
/// their own: the consent managers' names and the word itself.
pub const CONSENT_NAMES: &[&str] = &[
    "onetrust",
    "cookiebot",
    "didomi",
    "usercentrics",
    "trustarc",
    "truste-",
    "consent",
];

/// Substrings that name a consent dialog only beside one of
/// [`DIALOG_WORDS`] in the same token: a section on cookies in a
/// framework's documentation (`id="cookies"`) or a recipe blog's post
/// tagged `tag-cookie-recipes` is not a dialog; `cookie-banner` is.
pub const COOKIE_WORDS: &[&str] = &["cookie", "gdpr"];

/// See [`COOKIE_WORDS`].
pub const DIALOG_WORDS: &[&str] = &[
    "banner",
    "bar",
    "notice",
    "popup",
    "modal",
    "dialog",
    "overlay",
    "law",
    "message",
    "notification",
    "accept",
    "alert",
    "wrapper",
    "container",
    "box",
    "settings",
];

/// Token prefixes of the taxonomy classes content management systems put
/// on a post (WordPress: `tag-cookies`, `category-gdpr`): the post's
/// topics, not a dialog.
const TAXONOMY_PREFIXES: &[&str] = &["tag-", "category-", "term-", "post-"];

/// Whether an id or class value names a consent dialog: one of its
/// whitespace-separated tokens holds one of [`CONSENT_NAMES`], or one of
/// [`COOKIE_WORDS`] with one of [`DIALOG_WORDS`] (ASCII case ignored),
/// and is not a taxonomy class ([`TAXONOMY_PREFIXES`]).
fn names_consent(value: &str) -> bool {
    value.split_ascii_whitespace().any(|token| {
        let has = |w: &str| {
            token
                .as_bytes()
                .windows(w.len())
                .any(|x| x.eq_ignore_ascii_case(w.as_bytes()))
        };
        let taxonomy = TAXONOMY_PREFIXES.iter().any(|p| {
            token
                .get(..p.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(p))
        });
        !taxonomy
            && (CONSENT_NAMES.iter().any(|w| has(w))
                || (COOKIE_WORDS.iter().any(|w| has(w)) && DIALOG_WORDS.iter().any(|w| has(w))))
    })
}

/// Ancestors looked at above a node by [`node_in_consent`]: a dialog
/// nests its text a few levels deep.
pub const NODE_LOOKUP: usize = 64;

/// Whether node `n` lies in a consent dialog (not in `main` or
/// `article`), looking at most [`NODE_LOOKUP`] ancestors up: for the few
/// nodes a fallback selects, where no block walk has been made.
pub fn node_in_consent(page: &Page<'_>, n: NodeId) -> bool {
    let dom = page.dom;
    let mut chain = Vec::new();
    let mut cur = n;
    for _ in 0..NODE_LOOKUP {
        if cur.is_none() || cur.index() >= dom.len() {
            break;
        }
        chain.push(cur);
        cur = dom.node(cur).parent;
    }
    let mut state = PLAIN;
    for &x in chain.iter().rev() {
        state = own_state(page, x, state);
    }
    state == CONSENT
}

/// What an element is, as far as this phase is concerned, from its own
/// names and its ancestors': one byte an element, zero while not looked
/// at (so the table is zeroed memory, of which the pages no walk reaches
/// are never touched).
type State = u8;

/// Not looked at yet.
const UNKNOWN: State = 0;
/// Neither in content nor in a consent dialog.
const PLAIN: State = 1;
/// In `main` or `article`: a cookie policy's own text, never dropped.
const CONTENT: State = 2;
/// In a consent dialog.
const CONSENT: State = 3;

/// The state of element `n` given its parent's.
fn own_state(page: &Page<'_>, n: NodeId, above: State) -> State {
    if above == CONTENT || above == CONSENT {
        return above;
    }
    let dom = page.dom;
    match dom.tag(n) {
        Some(Tag::MAIN) | Some(Tag::ARTICLE) => CONTENT,
        Some(Tag::HTML) | Some(Tag::BODY) | None => PLAIN,
        Some(_) => {
            let named = ["id", "class"]
                .iter()
                .any(|a| dom.attr(n, a).is_some_and(names_consent));
            if named { CONSENT } else { PLAIN }
        }
    }
}

/// Unkeeps the kept blocks that lie in a consent dialog (see the module
/// documentation). Each element is looked at once: the states of a kept
/// block's ancestors are kept for the next block's walk, so the cost is
/// at most one step an element however deep the page. Returns whether any
/// block was dropped.
pub fn drop_consent(page: &Page<'_>, b: &Blocks, keep: &mut [bool]) -> bool {
    if !keep.iter().any(|k| *k) {
        return false;
    }
    // One state a held element (the blocks' elements and their ancestors).
    let mut state = vec![UNKNOWN; b.held.held.len()];
    let mut path: Vec<usize> = Vec::new();
    let mut dropped = false;
    for (k, kept) in keep.iter_mut().enumerate() {
        if !*kept {
            continue;
        }
        let Some(&start) = b.held.block.get(k) else {
            continue;
        };
        let mut cur = start as usize;
        let mut above = PLAIN;
        path.clear();
        while let Some(&s) = state.get(cur) {
            if s != UNKNOWN {
                above = s;
                break;
            }
            path.push(cur);
            match b.held.parent.get(cur) {
                Some(&up) if (up as usize) < cur => cur = up as usize,
                _ => break,
            }
        }
        for &h in path.iter().rev() {
            if let Some(&n) = b
                .held
                .held
                .get(h)
                .and_then(|&e| page.elements.get(e as usize))
            {
                above = own_state(page, n, above);
            }
            state[h] = above;
        }
        if above == CONSENT {
            *kept = false;
            dropped = true;
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::{after_phase, page_of};
    use crate::parse::parse;

    const PROSE: &str = "We and our partners store and access information on your device to measure the audience of our pages and to show you personalised advertising.";

    /// The blocks `drop_consent` leaves kept when every block was kept.
    fn kept(html: &str) -> Vec<String> {
        after_phase(
            html,
            |_| true,
            |page, b, keep| {
                drop_consent(page, b, keep);
            },
        )
    }

    #[test]
    fn a_consent_managers_dialog_goes() {
        let html = format!(
            "<body><div class=listing><p>Dinner recipes</p></div>\
             <div id=onetrust-consent-sdk><div class=ot-pc><h3>Your Privacy</h3><p>Dialog. {PROSE}</p></div></div></body>"
        );
        assert_eq!(kept(&html), ["Dinner recip"]);
    }

    #[test]
    fn a_sites_own_cookie_banner_goes() {
        let html = format!(
            "<body><p>Story.</p><section class=\"gdpr-banner page-notice\"><p>Banner. {PROSE}</p></section></body>"
        );
        assert_eq!(kept(&html), ["Story."]);
    }

    #[test]
    fn pages_about_cookies_stay() {
        // A documentation section on cookies, a recipe post tagged with
        // cookies, a cookie policy in `main`: none is a dialog.
        let html = format!(
            "<body><div class=\"post tag-cookie-recipes category-baking\"><p>Recipe. {PROSE}</p></div>\
             <section id=cookies><p>Docs. {PROSE}</p></section>\
             <main><div class=cookie-notice-text><p>Policy. {PROSE}</p></div></main></body>"
        );
        assert_eq!(
            kept(&html),
            ["Recipe. We a", "Docs. We and", "Policy. We a"]
        );
    }

    #[test]
    fn node_in_consent_reads_the_ancestors() {
        let dom = parse("<body><div class=cookie-banner><p>x</p></div><p>y</p></body>");
        let page = page_of(&dom);
        let texts: Vec<NodeId> = page.texts.iter().map(|t| t.node).collect();
        assert!(node_in_consent(&page, texts[0]));
        assert!(!node_in_consent(&page, texts[1]));
    }
}
