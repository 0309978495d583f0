//! A photo gallery kept after the article (issue #38, class 1).
//!
//! News sites append a gallery of the day's photos to their stories —
//! "World news in pictures", "Gadgets and tech news in pictures" — tens
//! of slides, each a counter ("1/31", "2/31 17 October 2017"), a caption
//! and a photographer's credit. Their captions read as prose and the
//! model keeps them: held out, a 2,200-character story came out with
//! 7,000 characters of captions (precision 0.2). Where the kept text
//! after the article holds such a run of counters — one total, many
//! slides of it — or of one button each slide shows ("Fullscreen"), the
//! smallest container that holds the run goes. The model drops most of
//! a gallery's counters (short lines) while it keeps the captions: once
//! it kept one, the dropped ones count too ([`drop_gallery_with`]).
//!
//! What is not a gallery here: a product's carousel ("1/5" over five
//! feature slides, which the gold of shop pages keeps) has a handful of
//! slides; a slideshow article whose slides are the story carries prose
//! on each slide, not a caption; a recipe's "1/2 cup" lines share no
//! total and do not count up.

use super::features::Blocks;
use super::nothing::short_kept_texts;
use crate::annotate::Page;

/// A counter's block is short: the counter, perhaps the photo's date.
pub const COUNTER_MAX_CHARS: u32 = 40;

/// Slides a gallery shows at least (distinct counters of one total
/// kept): a carousel of a product's features or a how-to's steps has a
/// handful, a news gallery tens.
pub const MIN_SLIDES: usize = 10;

/// Kept characters before the gallery that make it one *after* an
/// article; a page that opens with the gallery is the gallery's page.
pub const MIN_ARTICLE_CHARS: u32 = 300;

/// Kept characters per slide at most, on average over the gallery's
/// container: a caption and a credit line (held out, a news site's
/// "Business news in pictures", a photo title and a two-sentence caption
/// a slide, 340). A slideshow article's slides carry paragraphs of their
/// own and are the story.
pub const MAX_CHARS_PER_SLIDE: u32 = 400;

/// Containers above the first counter looked at for the one that holds
/// the whole run.
const MAX_LEVELS: usize = 12;

/// A slide counter: `k/n` (or `k / n`), then nothing or a short tail
/// such as the photo's date; `None` for anything else. `k` must not
/// exceed `n`.
pub fn counter(text: &str) -> Option<(u32, u32)> {
    let (k, rest) = leading_number(text.trim())?;
    let rest = rest.trim_start().strip_prefix('/')?.trim_start();
    let (n, tail) = leading_number(rest)?;
    let tail_ok = tail.is_empty() || tail.starts_with(char::is_whitespace);
    (tail_ok && k >= 1 && k <= n).then_some((k, n))
}

/// The number of one to three ASCII digits `s` starts with, and the rest.
fn leading_number(s: &str) -> Option<(u32, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 || end > 3 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// The buttons a gallery shows on every slide, lower-cased: where a
/// gallery has no counters, the same button under each caption marks
/// its slides ("Fullscreen" on each of a news site's slides).
pub const SLIDE_BUTTONS: &[&str] = &[
    "fullscreen",
    "full screen",
    "view fullscreen",
    "enlarge",
    "enlarge image",
    "enlarge this image",
    "view larger image",
    "expand image",
];

/// The slide markers of a gallery are counters of one total, or one of
/// [`SLIDE_BUTTONS`]: a group of the latter is numbered from this, above
/// any counter's total.
const BUTTON_GROUPS: u32 = 1000;

/// Which of [`SLIDE_BUTTONS`] a block's whole text is.
fn slide_button(text: &str) -> Option<usize> {
    let t = text.trim();
    if t.len() > COUNTER_MAX_CHARS as usize {
        return None;
    }
    let t = t.to_lowercase();
    SLIDE_BUTTONS.iter().position(|s| *s == t)
}

/// [`drop_gallery_with`], the dropped markers counted too.
pub fn drop_gallery(page: &Page<'_>, b: &Blocks, keep: &mut [bool]) -> bool {
    drop_gallery_with(page, b, keep, true)
}

/// (group, slide, block) of every marker among the blocks `among` marks:
/// a counter's group is its total; a button's, [`BUTTON_GROUPS`] and the
/// button, and its slide the button's count so far.
fn slide_markers(page: &Page<'_>, b: &Blocks, among: &[bool]) -> Vec<(u32, u32, usize)> {
    let mut markers = Vec::new();
    let mut pressed = [0u32; SLIDE_BUTTONS.len()];
    short_kept_texts(page, b, among, COUNTER_MAX_CHARS, |k, text| {
        if let Some((slide, total)) = counter(text) {
            markers.push((total, slide, k));
        } else if let Some(i) = slide_button(text) {
            pressed[i] += 1;
            markers.push((BUTTON_GROUPS + i as u32, pressed[i], k));
        }
    });
    markers
}

/// Drops the kept blocks of a photo gallery kept after the article (a
/// run of at least [`MIN_SLIDES`] counters of one total, or as many of
/// one of [`SLIDE_BUTTONS`], after at least [`MIN_ARTICLE_CHARS`] kept
/// characters, whose container keeps at most [`MAX_CHARS_PER_SLIDE`] a
/// slide); returns whether it dropped any. With `dropped`, once a marker
/// is kept, the markers the model dropped count too: it keeps a
/// gallery's captions, which read as prose, and drops most of its
/// counters, short lines (held out, 1 of 50 kept under 42 captions).
/// Only when one is kept, so that the page's short blocks are read again
/// on the few pages that hold a kept marker.
pub fn drop_gallery_with(page: &Page<'_>, b: &Blocks, keep: &mut [bool], dropped: bool) -> bool {
    let n = keep.len().min(b.chars.len()).min(b.block_element.len());
    let mut markers = slide_markers(page, b, keep);
    if dropped && !markers.is_empty() {
        markers = slide_markers(page, b, &vec![true; keep.len()]);
    }
    if markers.len() < MIN_SLIDES {
        return false;
    }
    markers.sort_unstable();
    let mut dropped = false;
    for run in markers.chunk_by(|a, b| a.0 == b.0) {
        let mut slides: Vec<u32> = run.iter().map(|c| c.1).collect();
        slides.dedup();
        let total = run[0].0 as usize;
        if total < MIN_SLIDES || slides.len() < MIN_SLIDES {
            continue;
        }
        let first = run.iter().map(|c| c.2).min().unwrap_or(0);
        let last = run.iter().map(|c| c.2).max().unwrap_or(0);
        let Some(range) = container(page, b, first, last) else {
            continue;
        };
        let range = with_title(page, b, keep, range);
        let inside = |j: usize| range.contains(&b.block_element[j]);
        let before: u32 = (0..n).filter(|&j| keep[j] && !inside(j) && j < first).map(|j| b.chars[j]).sum();
        let held: u32 = (0..n).filter(|&j| keep[j] && inside(j)).map(|j| b.chars[j]).sum();
        if before < MIN_ARTICLE_CHARS || held > MAX_CHARS_PER_SLIDE * slides.len() as u32 {
            continue;
        }
        for (kept, e) in keep.iter_mut().zip(&b.block_element).take(n) {
            if *kept && range.contains(e) {
                *kept = false;
                dropped = true;
            }
        }
    }
    dropped
}

/// The element positions (`page.elements`) of the smallest container,
/// up to [`MAX_LEVELS`] above block `first`'s element and below the
/// body, that holds block `last` too.
fn container(page: &Page<'_>, b: &Blocks, first: usize, last: usize) -> Option<std::ops::Range<u32>> {
    let dom = page.dom;
    let body = dom.body();
    let want = b.block_element[last];
    let mut up = dom.node(b.nodes[first]).parent;
    for _ in 0..MAX_LEVELS {
        if up.is_none() || Some(up) == body || up == page.root {
            return None;
        }
        let i = page.element_index(up)? as u32;
        let r = i..i + page.stats(up).elements;
        if r.contains(&want) {
            return Some(r);
        }
        up = dom.node(up).parent;
    }
    None
}

/// A title kept over the gallery ("World news in pictures") is short.
pub const TITLE_MAX_CHARS: u32 = 60;

/// Kept blocks a gallery's title may be (a heading, and a repeat of it).
const TITLE_MAX_BLOCKS: usize = 2;

/// The gallery's `range` widened to the containers above it whose other
/// kept blocks are only its title: at most [`TITLE_MAX_BLOCKS`] short
/// blocks before it.
fn with_title(
    page: &Page<'_>,
    b: &Blocks,
    keep: &[bool],
    mut range: std::ops::Range<u32>,
) -> std::ops::Range<u32> {
    let dom = page.dom;
    let body = dom.body();
    let n = keep.len().min(b.chars.len()).min(b.block_element.len());
    let Some(start) = page.elements.get(range.start as usize).copied() else {
        return range;
    };
    let mut up = dom.node(start).parent;
    while !up.is_none() && Some(up) != body && up != page.root {
        let Some(i) = page.element_index(up) else {
            break;
        };
        let wider = i as u32..i as u32 + page.stats(up).elements;
        let others: Vec<usize> = (0..n)
            .filter(|&j| keep[j] && wider.contains(&b.block_element[j]) && !range.contains(&b.block_element[j]))
            .collect();
        let title = others.len() <= TITLE_MAX_BLOCKS
            && others
                .iter()
                .all(|&j| b.chars[j] <= TITLE_MAX_CHARS && b.block_element[j] < range.start);
        if !title {
            break;
        }
        range = wider;
        up = dom.node(up).parent;
    }
    range
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::left_by_phase;

    #[test]
    fn counters_and_lines_that_are_not() {
        assert_eq!(counter("1/31"), Some((1, 31)));
        assert_eq!(counter(" 2 / 31 17 October 2017"), Some((2, 31)));
        assert_eq!(counter("12/12"), Some((12, 12)));
        for line in ["1/2cup", "13/12", "0/5", "1/", "/5", "1234/5000", "page 1/31", "24/7 support"] {
            assert_eq!(counter(line), None, "{line}");
        }
    }

    const ARTICLE: &str = "<h1>The harbour wall</h1><p>The council voted on Monday to rebuild \
        the harbour wall, which the storms of last winter had breached in three places.</p>\
        <p>Work starts in spring, and the contractors expect to finish before the \
        first gales of the autumn; the fishermen have asked for a wider quay.</p>\
        <p>The mayor said the town had waited long enough for the money.</p>";

    /// The texts `drop_gallery` leaves of a page whose every block is kept.
    fn left(body: &str) -> Vec<String> {
        left_by_phase(body, drop_gallery)
    }

    fn slides(total: usize, caption: &str) -> String {
        (1..=total)
            .map(|k| {
                format!(
                    "<li><div class=count>{k}/{total}</div><p>{caption} number {k}, taken at dawn.</p>\
                     <div class=credit>Agency/Photographer</div></li>"
                )
            })
            .collect()
    }

    #[test]
    fn a_gallery_after_the_article_goes() {
        let out = left(&format!(
            "<div class=story>{ARTICLE}</div><div class=gallery><h3>World news in pictures</h3>\
             <ul>{}</ul></div><p>Filed under harbours.</p>",
            slides(12, "Boats in the harbour")
        ));
        assert!(out.iter().any(|t| t.contains("mayor")), "{out:?}");
        assert!(
            !out.iter().any(|t| t.contains("Boats") || t.contains("/12") || t.contains("pictures")),
            "{out:?}"
        );
        assert!(out.iter().any(|t| t.contains("Filed under")), "{out:?}");
    }

    #[test]
    fn a_gallery_whose_counters_the_model_dropped_goes() {
        // Each slide a heading of its counter and photo title, then a
        // two-sentence caption (340 characters a slide); the model kept
        // one counter and every caption.
        let caption = "The harbour master said the boats would stay in the inner basin until the \
            wall is repaired, and the ferry will use the north quay for the rest of the winter. \
            The fishermen's association asked the council for a second crane, as the catch has to be \
            landed at one berth now, and for longer opening hours at the market by the quay.";
        let slides: String = (1..=12)
            .map(|k| format!("<li><h2><span>{k}/12</span> Boats at dawn</h2><p>{caption}</p></li>"))
            .collect();
        let html = format!(
            "<html><body><div class=story>{ARTICLE}</div><div class=gallery>\
             <h2>Harbour news in pictures</h2><ul>{slides}</ul></div></body></html>"
        );
        let kept = |t: &str| !t.contains("Boats at dawn") || t.starts_with("3/12");
        let run = |dropped: bool| {
            use crate::algorithms::testutil::{block_texts, page_of};
            let dom = crate::parse::parse(&html);
            let page = page_of(&dom);
            let vocab = crate::algorithms::auto::vocab::Vocabulary::new();
            let b = crate::algorithms::auto::features::blocks(&page, &vocab);
            let text = block_texts(&page, &b);
            let mut keep: Vec<bool> = text.iter().map(|t| kept(t)).collect();
            drop_gallery_with(&page, &b, &mut keep, dropped);
            text.into_iter().zip(keep).filter(|(_, k)| *k).map(|(t, _)| t).collect::<Vec<_>>()
        };
        let out = run(true);
        assert!(out.iter().any(|t| t.contains("mayor")), "{out:?}");
        assert!(!out.iter().any(|t| t.contains("harbour master")), "{out:?}");
        // Counting only the kept counters, there is one slide.
        let out = run(false);
        assert!(out.iter().any(|t| t.contains("harbour master")), "{out:?}");
    }

    #[test]
    fn a_gallery_marked_by_its_buttons_goes() {
        let slides: String = (1..=11)
            .map(|k| {
                format!(
                    "<div class=slide><p>If you like boats, number {k}: a film about the sea.</p>\
                     <div class=btn>Fullscreen</div></div>"
                )
            })
            .collect();
        let out = left(&format!("<div class=story>{ARTICLE}</div><div class=gallery>{slides}</div>"));
        assert!(out.iter().any(|t| t.contains("mayor")), "{out:?}");
        assert!(!out.iter().any(|t| t.contains("boats") || t.contains("Fullscreen")), "{out:?}");
        // Ten buttons of different kinds are no gallery.
        let mixed: String = ["Fullscreen", "Enlarge"]
            .iter()
            .cycle()
            .take(10)
            .map(|b| format!("<div class=slide><p>A film about the sea.</p><div>{b}</div></div>"))
            .collect();
        let out = left(&format!("<div class=story>{ARTICLE}</div><div class=gallery>{mixed}</div>"));
        assert!(out.iter().any(|t| t.contains("film")), "{out:?}");
    }

    #[test]
    fn carousels_slideshows_and_gallery_pages_stay() {
        // A product's carousel: a handful of slides.
        let body = format!("<div>{ARTICLE}<ul>{}</ul></div>", slides(5, "The vacuum's brush"));
        assert!(left(&body).iter().any(|t| t.contains("brush")));
        // A slideshow whose slides are the story: prose on each slide.
        let prose = "The town's oldest boat builder explains, at length and with care, how the \
            planks are steamed, bent and fixed, why the oak must season for a year, and what the \
            storms of last winter did to the yard, the slipway and the sheds beside them. His \
            daughter, who runs the yard now, adds that the orders for new boats have doubled since \
            the wall was breached, because the old moorings are no longer safe in a gale.";
        let body = format!("<div>{ARTICLE}<ul>{}</ul></div>", slides(12, prose));
        assert!(left(&body).iter().any(|t| t.contains("boat builder")));
        // A page that opens with its gallery.
        let body = format!("<ul>{}</ul><div>{ARTICLE}</div>", slides(12, "Boats in the harbour"));
        assert!(left(&body).iter().any(|t| t.contains("Boats")));
    }
}
