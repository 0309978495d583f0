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

use super::features::Blocks;
use crate::annotate::Page;
use crate::dom::{Dom, NodeId, NodeKind, Tag};

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

/// The page's titles (`<title>`, `og:title`, `twitter:title`), each as
/// its [`tokens`]: cleaning unlinks them but keeps them in the arena.
pub fn page_titles(dom: &Dom) -> Vec<Vec<u64>> {
    let mut titles = Vec::new();
    for i in 0..dom.len().min(HEAD_NODES) {
        let id = NodeId(i as u32);
        let e = match &dom.node(id).kind {
            NodeKind::Element(e) if e.ns == html5ever::ns!(html) => e,
            _ => continue,
        };
        match e.tag {
            // The head is done; a page whose title is not in it (a page
            // wrapped in another's markup) is read on.
            Tag::BODY if !titles.is_empty() => break,
            Tag::TITLE => {
                let mut t = String::new();
                for c in dom.children(id) {
                    if let Some(s) = dom.text_of(c) {
                        t.push_str(s);
                    }
                    if t.len() > TITLE_CHARS {
                        break;
                    }
                }
                let mut v = Vec::new();
                tokens(&t, &mut v);
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

/// Lower-cased word tokens of `s`, appended to `out` as hashes: runs of
/// letters and digits, and each CJK character on its own (a Chinese title
/// has no spaces). Hashes, not strings: nothing is allocated per token.
pub fn tokens(s: &str, out: &mut Vec<u64>) {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mix = |h: u64, c: char| (h.rotate_left(5) ^ c as u64).wrapping_mul(K);
    let mut cur: Option<u64> = None;
    for c in s.chars() {
        if is_cjk(c) {
            out.extend(cur.take());
            out.push(mix(0, c));
        } else if c.is_alphanumeric() || c == '_' {
            let mut h = cur.unwrap_or(0);
            for l in c.to_lowercase() {
                h = mix(h, l);
            }
            cur = Some(h);
        } else {
            out.extend(cur.take());
        }
    }
    out.extend(cur);
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF     // kana
        | 0x3400..=0x4DBF   // CJK extension A
        | 0x4E00..=0x9FFF   // CJK unified ideographs
        | 0xAC00..=0xD7AF   // Hangul syllables
        | 0xF900..=0xFAFF) // CJK compatibility ideographs
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
pub fn drop_headline(page: &Page<'_>, b: &Blocks, keep: &mut [bool]) -> bool {
    let first: Vec<usize> = (0..keep.len())
        .filter(|&k| keep[k])
        .take(HEADLINE_LOOK)
        .collect();
    let short = |k: usize| b.chars[k] <= HEADLINE_MAX_CHARS;
    if !first.iter().any(|&k| short(k)) {
        return false;
    }
    let titles = page_titles(page.dom);
    if titles.is_empty() {
        return false;
    }
    let mut text = vec![Vec::new(); first.len()];
    for (t, &k) in page.texts.iter().zip(&b.text_block) {
        if let Some(j) = first.iter().position(|&f| f == k as usize && short(f))
            && let Some(s) = page.dom.text_of(t.node)
        {
            tokens(s, &mut text[j]);
        }
    }
    for (j, &k) in first.iter().enumerate() {
        if short(k) && is_headline(&text[j], &titles) {
            keep[k] = false;
            return true;
        }
    }
    false
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
}
