//! Pages with no main content give an empty result.
//!
//! A navigation page or a shop page whose item did not load has no main
//! content, and `auto` says so with an empty text (trafilatura returns
//! `None` there; Python's `extract` does too, see the package docs).
//! Without this phase the selection on such pages was whatever the
//! fallback found least unlikely: the menu, the footer's legal links, the
//! newsletter box, the copyright line.
//!
//! The test runs after every other phase, and on CETD-TPC's block when
//! the fallback takes it:
//!
//! * **Chrome only.** When every kept block (but for a few characters,
//!   [`CHROME_SHARE`]) is page chrome, the selection is dropped. A block
//!   is chrome when it lies in a navigation, footer, sign-up or
//!   advertising container (the `nav`/`footer` elements or their
//!   class/id families, as the block features read them), or is a legal
//!   line (a copyright notice, "All rights reserved"). Link lists as such
//!   are not chrome: a listing's content is its links.
//! * **Labels and a legal line.** A short selection
//!   ([`SHORT_MAX_CHARS`]) of short labels only (widget headings,
//!   "Powered by …": [`LABEL_WORDS`]) with a legal line among them.
//! * **An error page.** A short selection ([`ERROR_MAX_CHARS`]) on a page
//!   that says it is missing: its title, or a short line among the first
//!   kept ones ([`ERROR_LINE_CHARS`], [`ERROR_LEADING_BLOCKS`]), says a
//!   page (or a `404`) was not found, does not exist or cannot be found
//!   ([`says_missing`]). "The page you requested could not be found" is
//!   no page's main content; a corpus or an index wants nothing there.
//!   The labelled data is split (of cleaneval-en-final's six error pages,
//!   four golds keep the message); issue #38 (class 7) is not.

use super::features::{self, Blocks};
use crate::annotate::Page;

/// Share of the kept characters that may lie outside chrome for the
/// selection still to count as chrome only: a stray word ("Menu", a
/// price) kept beside a footer does not make it content.
pub const CHROME_SHARE: f32 = 0.9;

/// Legal lines are short: a block with more characters than this that
/// mentions a copyright is prose about one (a licence, an article on
/// copyright law).
pub const LEGAL_MAX_CHARS: u32 = 200;

/// Kept characters under which a selection of short lines with a legal
/// line among them is chrome (see the module documentation).
pub const SHORT_MAX_CHARS: u32 = 1000;

/// Kept characters above which a selection is more than an error
/// page's message (an article about broken links, a "not found" page
/// that lists the site's stories): left as it is.
pub const ERROR_MAX_CHARS: u32 = 1000;

/// A kept line that says the page is missing is at most this long: an
/// error page says so in a heading or a sentence or two.
pub const ERROR_LINE_CHARS: u32 = 300;

/// What a missing page is called, lower case: the page, its address or
/// its status, in the languages of the labelled data.
const MISSING_WHAT: &[&str] = &[
    "page", "404", "url", "document", "seite", "página", "pagina", "страниц", "页面", "網頁",
    "网页", "ページ",
];

/// How a page says it is missing, lower case.
const MISSING_HOW: &[&str] = &[
    "not found",
    "cannot be found",
    "can't be found",
    "can’t be found",
    "could not be found",
    "couldn't be found",
    "couldn’t be found",
    "has not been found",
    "does not exist",
    "doesn't exist",
    "doesn’t exist",
    "no longer exists",
    "nicht gefunden",
    "existiert nicht",
    "introuvable",
    "n'existe pas",
    "n’existe pas",
    "no encontrad",
    "no existe",
    "не найден",
    "不存在",
    "找不到",
    "未找到",
    "見つかりません",
];

/// Whether `text` says a page is missing: it names the page (or its
/// `404`) and says it is not found, does not exist or cannot be found
/// ("404 : Page Not Found", "The page you requested cannot be found").
/// "The topic you requested does not exist" names no page: a forum's
/// message, kept.
pub fn says_missing(text: &str) -> bool {
    let lower = text.to_lowercase();
    MISSING_WHAT.iter().any(|w| lower.contains(w)) && MISSING_HOW.iter().any(|h| lower.contains(h))
}

/// Whether the selection is an error page's message (see the module
/// documentation): at most [`ERROR_MAX_CHARS`] kept, and the title or a
/// short line among the first kept ones ([`ERROR_LEADING_BLOCKS`])
/// [`says_missing`].
fn error_page(page: &Page<'_>, b: &Blocks, keep: &[bool], kept: u32) -> bool {
    if kept > ERROR_MAX_CHARS {
        return false;
    }
    let title = super::headline::first_title(page.dom);
    if title.is_some_and(|t| t.len() <= ERROR_LINE_CHARS as usize && says_missing(&t)) {
        return true;
    }
    // The message leads the page: a sentence that says so further down a
    // short story ("the agency's web page could not be found") does not
    // make it an error page.
    let mut leading = vec![false; keep.len()];
    for k in (0..keep.len().min(b.chars.len()))
        .filter(|&k| keep[k])
        .take(ERROR_LEADING_BLOCKS)
    {
        leading[k] = true;
    }
    let mut missing = false;
    short_kept_texts(page, b, &leading, ERROR_LINE_CHARS, |_, t| {
        missing = missing || says_missing(t);
    });
    missing
}

/// The kept blocks an error page's message is looked for in, from the
/// first: a heading ("Oops"), the message, or a stray "Home" before them.
pub const ERROR_LEADING_BLOCKS: usize = 3;

/// A block of a chrome container is chrome when at least this share of
/// its text is links (a menu, the footer's link columns) …
pub const CHROME_LINK_RATIO: f32 = 0.5;

/// … or when it is shorter than this (a heading such as "Follow us", an
/// address line): a paragraph of prose there is the page's own text.
pub const CHROME_LINE_CHARS: u32 = 100;

const LINK_RATIO: usize = features::index("link_ratio");
const IN_NAV: usize = features::index("in_nav");
const IN_FOOTER: usize = features::index("in_footer");
const V_NAV: usize = features::index("v_nav");
const V_FOOTER: usize = features::index("v_footer");
const V_OVERLAY: usize = features::index("v_overlay");
const V_AD: usize = features::index("v_ad");
const V_SHARE: usize = features::index("v_share");
const V_POSITIVE: usize = features::index("v_positive");
const IN_ARTICLE: usize = features::index("in_article");
const IN_MAIN: usize = features::index("in_main");

/// Whether block `k` is chrome by its place: a link or a short line
/// ([`CHROME_LINE_CHARS`]) in a chrome container (see the module
/// documentation), and not in the page's article or main element or a
/// content-named one (a `footer` inside an article is the article's).
/// Prose in a container named `footer` is not chrome: a shop writes its
/// collection's description there.
fn in_chrome(b: &Blocks, k: usize) -> bool {
    let Some(f) = b.features.get(k) else {
        return false;
    };
    let line = f[LINK_RATIO] >= CHROME_LINK_RATIO || b.chars[k] < CHROME_LINE_CHARS;
    let content = f[IN_ARTICLE] > 0.0 || f[IN_MAIN] > 0.0 || f[V_POSITIVE] > 0.0;
    let chrome = [IN_NAV, IN_FOOTER, V_NAV, V_FOOTER, V_OVERLAY, V_AD, V_SHARE]
        .iter()
        .any(|&i| f[i] > 0.0);
    line && chrome && !content
}

/// Whether `text` is a legal line: a copyright notice or a rights
/// reservation (see [`LEGAL_MAX_CHARS`]).
pub fn is_legal_line(text: &str) -> bool {
    if text.contains('©') {
        return true;
    }
    let lower = text.to_lowercase();
    ["copyright", "all rights reserved", "(c) 1", "(c) 2"]
        .iter()
        .any(|w| lower.contains(w))
}

/// The blocks whose element lies inside one of `nodes` (a selection of
/// elements, as CETD-TPC's), as a keep mask.
pub fn blocks_in(page: &Page<'_>, b: &Blocks, nodes: &[crate::dom::NodeId]) -> Vec<bool> {
    let mut spans: Vec<(u32, u32)> = nodes
        .iter()
        .filter_map(|&n| {
            let at = page.element_index(n)? as u32;
            Some((at, at + page.stats(n).elements))
        })
        .collect();
    spans.sort_unstable();
    b.block_element
        .iter()
        .map(|&e| {
            let i = spans.partition_point(|&(start, _)| start <= e);
            spans[..i].iter().rev().any(|&(_, end)| e < end)
        })
        .collect()
}

/// Unkeeps every block when the selection is no main content (see the
/// module documentation); returns whether it did.
pub fn drop_if_nothing(page: &Page<'_>, b: &Blocks, keep: &mut [bool]) -> bool {
    let n = keep.len().min(b.chars.len());
    let kept: u32 = (0..n).filter(|&k| keep[k]).map(|k| b.chars[k]).sum();
    if kept == 0 {
        return false;
    }
    let nothing = (kept <= SHORT_MAX_CHARS && short_lines_with_legal(page, b, keep))
        || error_page(page, b, keep, kept);
    if !nothing && !chrome_only(page, b, keep, kept) {
        return false;
    }
    keep.iter_mut().for_each(|k| *k = false);
    true
}

/// Whether the kept blocks are labels only (under [`LABEL_WORDS`] words:
/// widget headings, "Powered by …"; or chrome) with a legal line among
/// them. A sentence of the page's own ("Thirty-minute dinners for busy
/// evenings") makes it content, however short.
fn short_lines_with_legal(page: &Page<'_>, b: &Blocks, keep: &[bool]) -> bool {
    let n = keep.len().min(b.chars.len());
    let read: Vec<usize> = (0..n).filter(|&k| keep[k]).collect();
    if read.iter().any(|&k| b.chars[k] >= CHROME_LINE_CHARS) {
        return false;
    }
    let text = texts_of(page, b, &read);
    let legal = |t: &String| is_legal_line(t);
    let label = |(&k, t): (&usize, &String)| {
        legal(t) || in_chrome(b, k) || t.split_whitespace().count() < LABEL_WORDS
    };
    text.iter().any(legal) && read.iter().zip(&text).all(label)
}

/// Words under which a short kept line is a label (a widget heading,
/// "Powered by WordPress"), not a sentence of content.
pub const LABEL_WORDS: usize = 6;

/// Calls `f` with each kept block of at most `max_chars` characters and
/// its text, the blocks without blocks inside in order, then the others
/// in order: a leaf block's text is read from its own subtree, the few
/// short blocks with blocks inside (a comment's "Reply" link beside its
/// text's block) by one walk over the page's text nodes.
pub(super) fn short_kept_texts(
    page: &Page<'_>,
    b: &Blocks,
    keep: &[bool],
    max_chars: u32,
    mut f: impl FnMut(usize, &str),
) {
    let n = keep.len().min(b.chars.len()).min(b.leaf.len());
    let mut text = String::new();
    let mut inner = Vec::new();
    for k in (0..n).filter(|&k| keep[k] && b.chars[k] <= max_chars) {
        if !b.leaf[k] {
            inner.push(k);
            continue;
        }
        text.clear();
        for d in page.dom.descendants(b.nodes[k]) {
            if let Some(s) = page.dom.text_of(d) {
                text.push_str(s);
            }
        }
        f(k, &text);
    }
    if !inner.is_empty() {
        for (&k, text) in inner.iter().zip(texts_of(page, b, &inner)) {
            f(k, &text);
        }
    }
}

/// The text of each of `blocks` (block indices, ascending), in order.
pub(super) fn texts_of(page: &Page<'_>, b: &Blocks, blocks: &[usize]) -> Vec<String> {
    let mut text = vec![String::new(); blocks.len()];
    for (t, k) in page.texts.iter().zip(b.text_block.iter()) {
        if let Ok(j) = blocks.binary_search(&(k as usize))
            && let Some(s) = page.dom.text_of(t.node)
        {
            text[j].push_str(s);
        }
    }
    text
}

/// Whether the kept blocks are chrome but for at most 1 − [`CHROME_SHARE`]
/// of their `kept` characters.
fn chrome_only(page: &Page<'_>, b: &Blocks, keep: &[bool], kept: u32) -> bool {
    let allowed = ((1.0 - CHROME_SHARE) * kept as f32) as u32;
    let n = keep.len().min(b.chars.len());
    // The blocks outside chrome containers, and which of them are short
    // enough to be legal lines.
    let (mut other, mut short) = (0u32, 0u32);
    let mut legal_candidates = Vec::new();
    for k in (0..n).filter(|&k| keep[k] && !in_chrome(b, k)) {
        if b.chars[k] <= LEGAL_MAX_CHARS {
            legal_candidates.push(k);
            short += b.chars[k];
        }
        other += b.chars[k];
    }
    if other <= allowed {
        return true;
    }
    // Even if every short block were a legal line, too much is left (an
    // article's paragraphs): no text need be read.
    if other - short > allowed {
        return false;
    }
    // The short blocks outside chrome containers: legal lines are chrome.
    let text = texts_of(page, b, &legal_candidates);
    for (j, &k) in legal_candidates.iter().enumerate() {
        if is_legal_line(&text[j]) {
            other -= b.chars[k];
        }
    }
    other <= allowed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::after_phase;

    /// The blocks `drop_if_nothing` leaves when `kept_before` were kept.
    fn left(html: &str, kept_before: impl Fn(&str) -> bool) -> Vec<String> {
        after_phase(html, kept_before, |page, b, keep| {
            drop_if_nothing(page, b, keep);
        })
    }

    const PAGE: &str = "<html><head><title>Harbour news</title></head><body>\
        <nav class=menu><ul><li><a href=/a>Harbour</a></li><li><a href=/b>Town</a></li></ul></nav>\
        <div class=main><p>The council agreed to repair the old sea wall before the winter storms, and the work will take four months.</p></div>\
        <div class=newsletter><p>Sign up for our weekly letter of harbour news.</p></div>\
        <div class=bottom><p>© 2026 The Courier. All rights reserved.</p></div>\
        <footer><ul><li><a href=/p>Privacy</a></li><li><a href=/t>Terms</a></li></ul></footer>\
        </body></html>";

    #[test]
    fn menus_footers_and_sign_ups_alone_are_nothing() {
        let chrome = |t: &str| !t.contains("council");
        assert!(left(PAGE, chrome).is_empty());
        // With the article kept, everything stays.
        assert_eq!(left(PAGE, |_| true).len(), 7);
        // The copyright line alone, in no chrome container, is nothing.
        assert!(left(PAGE, |t| t.contains('©')).is_empty());
    }

    #[test]
    fn an_error_page_is_nothing() {
        // What the page says is that it is not there: no main content.
        let body = "<nav><a href=/>Home</a></nav><div class=main><h1>Oops</h1>\
            <p>We are sorry, but the page you requested could not be found on this server.</p></div>";
        let titled = |title: &str| {
            format!("<html><head><title>{title}</title></head><body>{body}</body></html>")
        };
        // Said by a kept line, by the title, or both.
        assert!(left(&titled("Harbour news"), |t| !t.contains("Home")).is_empty());
        let heading_only = "<html><head><title>Harbour news</title></head><body>\
            <h1>404 : Page Not Found</h1></body></html>";
        assert!(left(heading_only, |_| true).is_empty());
        let by_title = "<html><head><title>Harbour news: Page Not Found</title></head><body>\
            <p>Try the search box or the index of stories.</p></body></html>";
        assert!(left(by_title, |_| true).is_empty());
        // A forum's "topic does not exist" names no page: kept.
        let topic = "<html><head><title>Forum</title></head><body>\
            <p>The topic or post you requested does not exist</p></body></html>";
        assert_eq!(left(topic, |_| true).len(), 1);
        // A short story that says so further down is no error page.
        let story = "<html><head><title>Agency site</title></head><body>\
            <h1>The agency's site went dark</h1><p>Readers found nothing on Monday.</p>\
            <p>The council said it would look into it.</p>\
            <p>By noon the agency's web page could not be found at all.</p></body></html>";
        assert_eq!(left(story, |_| true).len(), 4);
        // An article about broken links is longer than any error message.
        let sentence = "<p>A page not found error tells a reader that a link is broken, and editors should mend it.</p>";
        let article = format!("<html><head><title>Links</title></head><body>{}</body></html>", sentence.repeat(12));
        assert_eq!(left(&article, |_| true).len(), 12);
    }

    #[test]
    fn says_missing_reads_the_languages_of_the_data() {
        assert!(says_missing("404 : Page Not Found"));
        assert!(says_missing("Die Seite wurde nicht gefunden"));
        assert!(says_missing("您访问的页面不存在"));
        assert!(says_missing("The DCMS web page or document you are looking for has not been found."));
        assert!(!says_missing("Sorry the itinerary could not be found."));
        assert!(!says_missing("Page one of the report"));
    }

    #[test]
    fn short_lines_with_a_legal_line_are_nothing() {
        // Widget headings and a "Powered by" line over the copyright.
        let html = "<html><body><div><h3>What's Hot</h3><h3>Most Popular</h3>\
            <p>powered by WordPress</p><p>©2006 The Parenting Site. All rights reserved.</p>\
            </div></body></html>";
        assert!(left(html, |_| true).is_empty());
        // Without the legal line: short lines such as a product's specs.
        assert_eq!(left(html, |t| !t.contains('©')).len(), 3);
    }

    #[test]
    fn a_short_sentence_beside_a_legal_line_is_content() {
        // A listing's one line of prose, a card's title and the footer's
        // copyright: short, but the page's own sentence.
        let html = "<html><body><main><h1>Weeknight dinners</h1>\
            <p>Thirty-minute dinners for busy evenings, tested in our kitchen.</p>\
            <h3>Baked gnocchi with tomatoes</h3></main>\
            <footer><p>© 2026 Pan &amp; Pot. All rights reserved.</p></footer></body></html>";
        assert_eq!(left(html, |t| !t.contains("Weeknight")).len(), 3);
    }

    #[test]
    fn a_listing_of_links_is_content() {
        // Links outside chrome containers: a listing's items.
        let html = "<html><body><ul class=results>\
            <li><a href=/1>Trail pack number one</a></li><li><a href=/2>Trail pack number two</a></li>\
            <li><a href=/3>Trail pack number three</a></li></ul></body></html>";
        assert_eq!(left(html, |_| true).len(), 3);
    }
}
