//! The page's headline is its title, not its body.
//!
//! `auto` returns the article's body: the headline that opens it is the
//! page's title, which the metadata reports (`title` in JSON output). This
//! is the public article-extraction benchmark's convention (its gold
//! `articleBody` has no headline: 2 of the 181 `scrapinghub` gold texts
//! open with the page title) and trafilatura's and Readability's. The dev
//! folders disagree on it (dragnet, l3s-gn1, msv-chaos and daniel-dev keep
//! the headline in their gold; scrapinghub, wcxb-dev, readability-tests
//! and most of cleaneval drop it), so the model, trained on all of them,
//! keeps a headline about half the time. This phase settles it: among the
//! first kept blocks, the one whose text is the page's title (`<title>`,
//! `og:title` or `twitter:title`) is dropped. `keep-title=1` keeps it.
//! What it does per folder: docs/RESULTS.md.

use std::cell::OnceCell;

use super::features::Blocks;
use crate::algorithms::template_svm::tokens;
use crate::annotate::Page;
use crate::dom::{Dom, NodeId, NodeKind, Ns, Tag};

/// How many of the first kept blocks may be the headline: the headline
/// can follow a kicker or a category line ("Tags", "Opinion").
pub const HEADLINE_LOOK: usize = 3;

/// A headline has at most this many tokens; a longer block is prose that
/// happens to repeat the title.
pub const HEADLINE_MAX_TOKENS: usize = 40;

/// … and at most this many characters (read before its text is: most
/// first blocks are paragraphs, not worth tokenising).
pub const HEADLINE_MAX_CHARS: u32 = 400;

/// Share of the block's tokens that must be in the title: the headline
/// may drop the site's name the title carries, but adds almost nothing.
pub const HEADLINE_IN_TITLE: f32 = 0.8;

/// … and share of the title's tokens the block must hold, so that a
/// short block ("News", the site's name) inside a long title is not the
/// headline. 0.6 leaves room for a site name the title appends.
pub const HEADLINE_COVER: f32 = 0.6;

/// Titles are looked for in the first this many nodes: the head is near
/// the top (and a mis-nested page may put it in the body, where cleaning
/// removes it), and a huge page is not read twice.
const HEAD_NODES: usize = 20_000;

/// Only the title's first characters are read.
const TITLE_CHARS: usize = 1000;

/// The text of `<title>` element `id` (its first [`TITLE_CHARS`] or so).
fn title_text(dom: &Dom, id: NodeId) -> String {
    let mut t = String::new();
    for c in dom.children(id) {
        if let Some(s) = dom.text_of(c) {
            t.push_str(s);
        }
        if t.len() > TITLE_CHARS {
            break;
        }
    }
    t
}

/// The text of the page's first `<title>`, looked for where
/// [`page_titles`] looks.
pub fn first_title(dom: &Dom) -> Option<String> {
    (0..dom.len().min(HEAD_NODES)).find_map(|i| {
        let id = NodeId(i as u32);
        matches!(&dom.node(id).kind, NodeKind::Element(e) if e.ns == Ns::Html && e.tag == Tag::TITLE)
            .then(|| title_text(dom, id))
    })
}

/// The page's titles (`<title>`, `og:title`, `twitter:title`), each as
/// its [`tokens`] (the tokens training labels blocks with: runs of letters
/// and digits, lower-cased, and each CJK character alone, as hashes):
/// cleaning unlinks them but keeps them in the arena.
pub fn page_titles(dom: &Dom) -> Vec<Vec<u64>> {
    let mut titles = Vec::new();
    for i in 0..dom.len().min(HEAD_NODES) {
        let id = NodeId(i as u32);
        let e = match &dom.node(id).kind {
            NodeKind::Element(e) if e.ns == Ns::Html => e,
            _ => continue,
        };
        match e.tag {
            // The head is done; a page whose title is not in it (a page
            // wrapped in another's markup) is read on.
            Tag::BODY if !titles.is_empty() => break,
            Tag::TITLE => {
                let mut v = Vec::new();
                tokens(&title_text(dom, id), &mut v);
                titles.push(v);
            }
            Tag::META => {
                let key = dom.attr(id, "property").or_else(|| dom.attr(id, "name"));
                let title = key.is_some_and(|k| {
                    k.eq_ignore_ascii_case("og:title") || k.eq_ignore_ascii_case("twitter:title")
                });
                if title && let Some(c) = dom.attr(id, "content") {
                    let mut v = Vec::new();
                    tokens(c, &mut v);
                    titles.push(v);
                }
            }
            _ => {}
        }
    }
    titles.retain(|t| !t.is_empty());
    titles
}

/// The page's titles ([`page_titles`]), read when first asked for and
/// then kept: the story phase and the headline phase of one selection
/// both compare blocks with them.
pub struct Titles<'a> {
    dom: &'a Dom,
    read: OnceCell<Vec<Vec<u64>>>,
}

impl<'a> Titles<'a> {
    /// The titles of `dom`, not read yet.
    pub fn new(dom: &'a Dom) -> Titles<'a> {
        Titles {
            dom,
            read: OnceCell::new(),
        }
    }

    /// The titles, read the first time.
    pub fn get(&self) -> &[Vec<u64>] {
        self.read.get_or_init(|| page_titles(self.dom))
    }
}

/// Whether a block with these tokens is the headline for one of `titles`.
pub fn is_headline(block: &[u64], titles: &[Vec<u64>]) -> bool {
    if block.is_empty() || block.len() > HEADLINE_MAX_TOKENS {
        return false;
    }
    titles.iter().any(|title| {
        let inside = block.iter().filter(|t| title.contains(t)).count() as f32;
        inside >= HEADLINE_IN_TITLE * block.len() as f32
            && inside >= HEADLINE_COVER * title.len() as f32
    })
}

/// Unmarks the headline among the first [`HEADLINE_LOOK`] blocks of `keep`
/// (blocks in document order); returns whether there was one.
pub fn drop_headline(page: &Page<'_>, b: &Blocks, titles: &Titles<'_>, keep: &mut [bool]) -> bool {
    let first: Vec<usize> = (0..keep.len())
        .filter(|&k| keep[k])
        .take(HEADLINE_LOOK)
        .collect();
    match find_headline(page, b, titles, &first) {
        Some(k) => {
            keep[k] = false;
            true
        }
        None => false,
    }
}

/// How many blocks before the body `keep-title=1` looks back for a
/// headline the model left out (bylines, dates and share bars may stand
/// between them).
pub const HEADLINE_LOOK_BACK: usize = 10;

/// `keep-title=1`: the model is trained to leave the headline out (it is
/// labelled noise), so keeping it takes more than not dropping it. When
/// none of the first [`HEADLINE_LOOK`] kept blocks is the headline, the
/// nearest of the [`HEADLINE_LOOK_BACK`] blocks before the first kept one
/// that is gets kept. Returns whether the body now has its headline.
pub fn keep_headline(page: &Page<'_>, b: &Blocks, titles: &Titles<'_>, keep: &mut [bool]) -> bool {
    let Some(body) = keep.iter().position(|&k| k) else {
        return false;
    };
    // The first kept blocks, then the leaf blocks before them, nearest
    // first: one pass reads the titles and tokenises them all.
    let candidates: Vec<usize> = (body..keep.len())
        .filter(|&k| keep[k])
        .take(HEADLINE_LOOK)
        .chain(
            (body.saturating_sub(HEADLINE_LOOK_BACK)..body)
                .rev()
                .filter(|&k| b.leaf[k]),
        )
        .collect();
    match find_headline(page, b, titles, &candidates) {
        Some(k) => {
            keep[k] = true;
            true
        }
        None => false,
    }
}

/// The first of `candidates` (block indices) that is the page's headline.
fn find_headline(
    page: &Page<'_>,
    b: &Blocks,
    titles: &Titles<'_>,
    candidates: &[usize],
) -> Option<usize> {
    let short = |k: usize| b.chars[k] > 0 && b.chars[k] <= HEADLINE_MAX_CHARS;
    if !candidates.iter().any(|&k| short(k)) {
        return None;
    }
    let titles = titles.get();
    if titles.is_empty() {
        return None;
    }
    let mut text = vec![Vec::new(); candidates.len()];
    // Most of the page's texts lie in other blocks: one comparison each
    // passes them over.
    let lo = candidates.iter().copied().min().unwrap_or(0);
    let hi = candidates.iter().copied().max().unwrap_or(0);
    for (t, k) in page.texts.iter().zip(b.text_block.iter()) {
        let k = k as usize;
        if k < lo || k > hi {
            continue;
        }
        if let Some(j) = candidates.iter().position(|&f| f == k && short(f))
            && let Some(s) = page.dom.text_of(t.node)
        {
            tokens(s, &mut text[j]);
        }
    }
    candidates
        .iter()
        .enumerate()
        .find(|&(j, &k)| short(k) && is_headline(&text[j], titles))
        .map(|(_, &k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn t(s: &str) -> Vec<u64> {
        let mut v = Vec::new();
        tokens(s, &mut v);
        v
    }

    #[test]
    fn tokens_are_words_and_cjk_characters() {
        let (hong, kong) = (t("hong")[0], t("kong")[0]);
        assert_eq!(t("Hong KONG: chaos!"), [hong, kong, t("chaos")[0]]);
        assert_eq!(t("北京news 2019").len(), 4);
        assert_eq!(t("北京"), [t("北")[0], t("京")[0]]);
        assert_ne!(hong, kong);
        assert!(t(" - ").is_empty());
    }

    #[test]
    fn the_headline_matches_the_title_without_the_site_name() {
        let titles = vec![t(
            "Cat found in New Mexico after going missing - The Courier",
        )];
        // 3 of 7 tokens in the title: 0.43 < 0.8.
        assert!(!is_headline(
            &t("Cat found in a cupboard, owner says"),
            &titles
        ));
        // 8 of the title's 10 tokens: 0.8 ≥ 0.6.
        assert!(is_headline(
            &t("Cat found in New Mexico after going missing"),
            &titles
        ));
        // All in the title, but 1 of its 10 tokens: the site's name.
        assert!(!is_headline(&t("Courier"), &titles));
        assert!(is_headline(&t("The Courier"), &[t("The Courier")]));
        assert!(!is_headline(&[], &titles));
    }

    #[test]
    fn titles_come_from_the_head() {
        let dom = parse(
            "<html><head><title>A &amp; B - Site</title>\
             <meta property=og:title content='A and B'>\
             <meta name=description content='not a title'></head>\
             <body><p>x</p><title>In the body</title></body></html>",
        );
        assert_eq!(page_titles(&dom), vec![t("A & B - Site"), t("A and B")]);
        // A page without a head title: the body's is read.
        let dom = parse("<text><title>Wrapped</title><p>x</p></text>");
        assert_eq!(page_titles(&dom), vec![t("Wrapped")]);
    }

    #[test]
    fn the_headline_is_dropped_or_put_back() {
        use crate::algorithms::auto::{features, vocab::Vocabulary};
        let dom = parse(
            "<html><head><title>Bridge rebuilt - Courier</title></head><body>\
             <p>Menu</p><h1>Bridge rebuilt</h1><p>By A. Writer</p>\
             <p>The first paragraph of the story.</p><p>The second one.</p></body></html>",
        );
        let page = crate::annotate::annotate(&dom, "", dom.body().unwrap());
        let b = features::blocks(&page, &Vocabulary::new());
        let text = |k: usize| -> String {
            let own = page.texts.iter().zip(b.text_block.iter());
            own.filter(|&(_, tb)| tb as usize == k)
                .filter_map(|(t, _)| page.dom.text_of(t.node))
                .collect::<String>()
                .trim()
                .to_owned()
        };
        let h1 = (0..b.nodes.len())
            .find(|&k| text(k) == "Bridge rebuilt")
            .unwrap();
        let story = |keep: &[bool]| (0..keep.len()).filter(|&k| keep[k]).collect::<Vec<_>>();
        // The model kept the headline: dropped, and kept with keep-title.
        let mut keep: Vec<bool> = (0..b.nodes.len()).map(|k| k >= h1).collect();
        let all = keep.clone();
        assert!(keep_headline(&page, &b, &Titles::new(&dom), &mut keep));
        assert_eq!(keep, all);
        assert!(drop_headline(&page, &b, &Titles::new(&dom), &mut keep));
        assert!(!keep[h1] && keep[h1 + 1]);
        // The model left it out: keep-title puts it back, not "Menu".
        assert!(keep_headline(&page, &b, &Titles::new(&dom), &mut keep));
        assert_eq!(story(&keep), story(&all));
        // No title, nothing to find.
        let dom = parse("<p>Bridge rebuilt</p><p>The story.</p>");
        let page = crate::annotate::annotate(&dom, "", dom.body().unwrap());
        let b = features::blocks(&page, &Vocabulary::new());
        let mut keep = vec![true; b.nodes.len()];
        assert!(!drop_headline(&page, &b, &Titles::new(&dom), &mut keep));
        assert!(keep.iter().all(|&k| k));
    }
}
