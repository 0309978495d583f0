//! A related-content section kept after the article (issue #38, class 1).
//!
//! Below an article, many sites show other stories under a label of their
//! own — "Also on HuffPost:", "Related Posts", "You may also like",
//! "More from DRaysBay", "Most read in News" — a list of teasers, or a slideshow whose
//! captions read as prose, and the model keeps them with the article
//! (held out, dragnet: a 2,184-character story with 29,083 characters of
//! a slideshow after it). Where a block is such a label and the kept
//! article's text comes before it, the label's section goes: the smallest
//! container the label opens (its first block is the label) that holds
//! a list, or, when the label stands among the article's paragraphs, the
//! label and the element right after it if that holds a list. The label
//! itself need not be kept: the model often drops the short heading and
//! keeps the teasers under it, each with a paragraph of its story (held
//! out, msv-chaos's Atlantic pages: a "Most Popular" list of 10,000
//! characters after a 3,000-character story, F1 0.37 → 0.98).
//!
//! The labels are whole lines naming *other* content; "Related" alone,
//! "Related topics" or "Related literature:" are not labels here (the
//! gold of cleaneval's pages keeps what follows them), nor "More on …"
//! (a section of the article as often).

use super::features::Blocks;
use super::nothing::short_kept_texts;
use crate::annotate::Page;
use crate::dom::NodeId;

/// A label is a short line: a block of more characters is prose.
pub const LABEL_MAX_CHARS: u32 = 60;

/// Kept characters before the label that make it one *after* an
/// article: a page that starts with such a label is a listing of them.
pub const MIN_ARTICLE_CHARS: u32 = 300;

/// Labels looked at on one page: a page of many is a hub of teasers,
/// which the other phases judge.
const MAX_LABELS: usize = 4;

/// Blocks a section holds at least (the label's container with the
/// label, or the element after a label among the paragraphs): a list or
/// a gallery has several, the article's next paragraph one. The
/// smallest container the label opens that holds them is the section,
/// not the largest (held out, a Polish story's "Zobacz także" box, whose
/// unclosed wrapper holds the rest of the story).
const SECTION_MIN_BLOCKS: usize = 2;

/// Containers above the label looked at for the one it opens.
const MAX_LEVELS: usize = 8;

/// The labels, lower-cased: a line is one when it is one of these, or
/// one of these and a space and more (a site's or a section's name:
/// "also on huffpost", "latest in personal tech"). English, German,
/// French, Spanish, Italian, Polish, Russian, Greek, Chinese: the dev
/// folders' languages and their neighbours.
const LABEL_STARTS: &[&str] = &[
    "also on ",
    "related on ",
    "more from ",
    "more in ",
    "latest in ",
    "latest from ",
    "related posts",
    "related stories",
    "related articles",
    "related content",
    "related coverage",
    "related news",
    "related videos",
    "related links",
    "you may also like",
    "you might also like",
    "you may also be interested",
    "you might also be interested",
    "you may have missed",
    "recommended for you",
    "recommended stories",
    "recommended articles",
    "read next",
    "more stories",
    "other stories",
    "other articles",
    "similar articles",
    "similar posts",
    "most read",
    "most popular",
    "most viewed",
    "most shared",
    "most commented",
    "meistgelesen",
    "les plus lus",
    "lo más leído",
    "i più letti",
    "najczęściej czytane",
    "самое читаемое",
    "最热文章",
    "热门文章",
    "lesen sie auch",
    "mehr zum thema",
    "weitere artikel",
    "à lire aussi",
    "a lire aussi",
    "sur le même sujet",
    "articles similaires",
    "te puede interesar",
    "noticias relacionadas",
    "artículos relacionados",
    "leggi anche",
    "articoli correlati",
    "przeczytaj też",
    "zobacz także",
    "читайте также",
    "похожие статьи",
    "διαβάστε επίσης",
    "相关阅读",
    "相关文章",
    "相关新闻",
    "推荐阅读",
];

/// Whether a block's whole text is a label of related content.
pub fn is_label(text: &str) -> bool {
    let line = text.trim().trim_end_matches([':', '…', '.', '»', '>', '›', ' ', '：']);
    // Most short lines start with no label's letter: no lower-cased copy.
    let Some(first) = line.chars().next().and_then(|c| c.to_lowercase().next()) else {
        return false;
    };
    if !LABEL_STARTS.iter().any(|s| s.starts_with(first))
        || line.chars().count() > LABEL_MAX_CHARS as usize
        || line.contains(',')
    {
        return false;
    }
    let line: String = line.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    LABEL_STARTS.iter().any(|s| {
        let s = s.trim_end();
        line.strip_prefix(s).is_some_and(|rest| {
            rest.is_empty()
                || rest.starts_with(' ') && rest.split_whitespace().count() <= MAX_NAME_WORDS
        })
    })
}

/// Words a label may name after its start ("Also on *HuffPost*", "Latest
/// in *Personal Tech*"): more make it a sentence that happens to start
/// alike ("Also on the agenda was the wall").
const MAX_NAME_WORDS: usize = 3;

/// Drops the kept blocks of each related-content section whose label
/// (kept or not) comes after at least [`MIN_ARTICLE_CHARS`] kept
/// characters; returns whether it dropped any.
pub fn drop_related(page: &Page<'_>, b: &Blocks, keep: &mut [bool]) -> bool {
    let n = keep.len().min(b.chars.len()).min(b.block_element.len());
    // Every block is read for labels, kept or not (the model often drops
    // the label, a short heading, and keeps the teasers under it), from
    // where the kept text before it reaches the article's length to the
    // last kept block: a label elsewhere opens nothing kept after an
    // article.
    let Some(last_kept) = (0..n).rev().find(|&k| keep[k]) else {
        return false;
    };
    let mut read = vec![false; n];
    let mut before = 0u32;
    for k in 0..=last_kept {
        read[k] = before >= MIN_ARTICLE_CHARS;
        before += if keep[k] { b.chars[k] } else { 0 };
    }
    let mut labels = Vec::new();
    short_kept_texts(page, b, &read, LABEL_MAX_CHARS, |k, text| {
        if is_label(text) {
            labels.push(k);
        }
    });
    labels.sort_unstable();
    labels.truncate(MAX_LABELS);
    let mut dropped = false;
    for k in labels {
        for range in section(page, b, keep, k) {
            for (kept, e) in keep.iter_mut().zip(&b.block_element).take(n) {
                if *kept && range.contains(e) {
                    *kept = false;
                    dropped = true;
                }
            }
        }
    }
    dropped
}

/// The element positions (`page.elements`) of block `k`'s section: the
/// smallest container, up to [`MAX_LEVELS`] above the label's element
/// and below the body, whose first block is the label and that holds
/// [`SECTION_MIN_BLOCKS`] — and, when it holds no more than that, a kept
/// block besides the label (a header of the label and a dropped
/// sponsor's line, "Presented by", is not yet the section); else the
/// label's element and the element after it when that holds as many;
/// else none.
fn section(page: &Page<'_>, b: &Blocks, keep: &[bool], k: usize) -> Vec<std::ops::Range<u32>> {
    let dom = page.dom;
    let span = |e: NodeId| {
        page.element_index(e).map(|i| {
            let i = i as u32;
            i..i + page.stats(e).elements
        })
    };
    let label = b.nodes[k];
    let Some(own) = span(label) else {
        return Vec::new();
    };
    let first_is_label = |r: &std::ops::Range<u32>| {
        !(0..k).any(|j| r.contains(&b.block_element[j]))
    };
    let holds_list = |r: &std::ops::Range<u32>| {
        let inside = || (0..b.block_element.len()).filter(|&j| r.contains(&b.block_element[j]));
        inside().nth(SECTION_MIN_BLOCKS - 1).is_some()
            && (inside().nth(SECTION_MIN_BLOCKS).is_some()
                || inside().any(|j| j != k && keep.get(j).copied().unwrap_or(false)))
    };
    let body = dom.body();
    let mut up = dom.node(label).parent;
    for _ in 0..MAX_LEVELS {
        if up.is_none() || Some(up) == body || up == page.root {
            break;
        }
        match span(up) {
            Some(r) if first_is_label(&r) && holds_list(&r) => return vec![r],
            Some(r) if first_is_label(&r) => {}
            _ => break,
        }
        up = dom.node(up).parent;
    }
    let mut next = dom.node(label).next_sibling;
    while !next.is_none() && dom.tag(next).is_none() {
        next = dom.node(next).next_sibling;
    }
    match (!next.is_none()).then(|| span(next)).flatten() {
        // A list or a gallery, not the article's next paragraph.
        Some(r) if holds_list(&r) => vec![own, r],
        // A label alone ("Leggi anche" over one link set among the
        // paragraphs, which scrapinghub's gold keeps) is left.
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::left_by_phase;

    #[test]
    fn labels_and_lines_that_are_not() {
        for line in [
            "Also on HuffPost:",
            "Related Posts",
            "Related posts:",
            "RELATED STORIES",
            "You may also like…",
            "More from DRaysBay",
            "Latest in Personal Tech",
            "Lesen Sie auch:",
            "相关阅读",
            "MOST READ IN NEWS",
            "Most popular",
            "MORE IN THE COURIER",
        ] {
            assert!(is_label(line), "{line}");
        }
        for line in [
            "Related",
            "Related topics",
            "Related literature:",
            "More on the \"New\" Shakespeare",
            "Also on the agenda was the harbour wall, which the council rebuilt.",
            "Relatedness of the two samples was measured first.",
            "Also on Monday, the council met.",
            "More in the evening, as the tide turned.",
            "More in sorrow than in anger",
            "",
        ] {
            assert!(!is_label(line), "{line}");
        }
    }

    const ARTICLE: &str = "<p>The council voted on Monday to rebuild the harbour wall, \
        which the storms of last winter had breached in three places.</p>\
        <p>Work starts in spring, and the contractors expect to finish before the \
        first gales of the autumn; the fishermen have asked for a wider quay.</p>\
        <p>The mayor said the town had waited long enough for the money.</p>";

    /// The texts `drop_related` leaves of a page whose every block is kept.
    fn left(body: &str) -> Vec<String> {
        left_by_phase(body, drop_related)
    }

    #[test]
    fn a_label_among_the_paragraphs_takes_the_element_after_it() {
        let out = left(&format!(
            "<div class=entry>{ARTICLE}<p>Also on HuffPost:</p>\
             <div class=promo><ul><li><h4>Gallery one</h4><p>A caption that reads as prose, \
             long enough to be one.</p></li><li><h4>Gallery two</h4></li></ul></div>\
             <p>Filed under harbours.</p></div>"
        ));
        assert!(out.iter().any(|t| t.contains("mayor")), "{out:?}");
        assert!(!out.iter().any(|t| t.contains("Also on") || t.contains("Gallery")), "{out:?}");
        // What follows the section stays.
        assert!(out.iter().any(|t| t.contains("Filed under")), "{out:?}");
        // A label with no list after it is left, with what follows it.
        let out = left(&format!("<div class=entry>{ARTICLE}<p>Related Posts</p></div>"));
        assert_eq!(out.len(), 4, "{out:?}");
        let out = left(&format!(
            "<div class=entry>{ARTICLE}<p>Related stories:</p>\
             <p>The quay opens in May, the mayor added.</p></div>"
        ));
        assert_eq!(out.len(), 5, "{out:?}");
    }

    #[test]
    fn a_label_that_opens_its_container_takes_the_container() {
        let out = left(&format!(
            "<div class=entry>{ARTICLE}</div>\
             <div class=more><div class=head><h3>Related Posts</h3></div>\
             <ul><li><a href=/a>Another story</a> about boats</li><li>A third story</li></ul></div>"
        ));
        assert!(out.iter().any(|t| t.contains("mayor")), "{out:?}");
        assert!(!out.iter().any(|t| t.contains("Related") || t.contains("third")), "{out:?}");
        // The smallest such container: a box whose wrapper also holds the
        // rest of the story takes only the box.
        let out = left(&format!(
            "<div class=entry>{ARTICLE}<div class=island><div class=box><h3>Zobacz także</h3>\
             <ul><li>Another story about boats</li><li>A third story</li></ul></div>\
             <p>The story goes on after the box, as the mayor explained.</p></div></div>"
        ));
        assert!(out.iter().any(|t| t.contains("goes on")), "{out:?}");
        assert!(!out.iter().any(|t| t.contains("third")), "{out:?}");
    }

    /// The texts `drop_related` leaves of a page whose every block but
    /// those holding one of `dropped` is kept.
    fn left_with_dropped(body: &str, dropped: &[&str]) -> Vec<String> {
        left_by_phase(body, |page, b, keep| {
            let texts = crate::algorithms::testutil::block_texts(page, b);
            for (k, t) in texts.iter().enumerate() {
                keep[k] &= !dropped.iter().any(|d| t.contains(d));
            }
            drop_related(page, b, keep)
        })
    }

    #[test]
    fn a_dropped_label_still_takes_its_kept_section() {
        // The model dropped the short heading but kept the teasers under
        // it, each with a paragraph of its story; a header of the label
        // and a sponsor's line is not yet the section.
        let teaser = |i: usize| {
            format!(
                "<li><h3><a href=/s{i}>Other story {i}</a></h3><p>A paragraph of that other story, \
                 long enough to read as prose, number {i}.</p><a href=/s{i}>Continue Reading</a></li>"
            )
        };
        let body = format!(
            "<article>{ARTICLE}</article><div id=most-popular><div class=head><h2>Most Popular</h2>\
             <div class=sponsor>Presented by</div></div><ul>{}{}</ul></div><footer>Contact</footer>",
            teaser(1),
            teaser(2)
        );
        let out = left_with_dropped(&body, &["Most Popular", "Presented by"]);
        assert!(out.iter().any(|t| t.contains("mayor")), "{out:?}");
        assert!(!out.iter().any(|t| t.contains("other story")), "{out:?}");
        assert!(out.iter().any(|t| t.contains("Contact")), "{out:?}");
        // A box of links the model dropped whole stays the section: the
        // story's paragraph after it, in an unclosed wrapper, is left.
        let out = left_with_dropped(
            &format!(
                "<div class=entry>{ARTICLE}<div class=island><div class=box><h3>Zobacz także</h3>\
                 <ul><li>Another story about boats</li><li>A third story</li></ul></div>\
                 <p>The story goes on after the box, as the mayor explained.</p></div></div>"
            ),
            &["Zobacz", "story about boats", "third story"],
        );
        assert!(out.iter().any(|t| t.contains("goes on")), "{out:?}");
    }

    #[test]
    fn a_label_before_the_article_is_left_alone() {
        // A page that opens with the label is a listing of such stories.
        let body = format!(
            "<div><h3>Related Posts</h3><ul><li>Another story about boats</li></ul></div>\
             <div class=entry>{ARTICLE}</div>"
        );
        let out = left(&body);
        assert!(out.iter().any(|t| t.contains("Related Posts")), "{out:?}");
    }
}
