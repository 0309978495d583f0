//! Chrome lines inside the content (issue #38, class 3).
//!
//! Some lines of page furniture sit inside the article's own container,
//! written as paragraphs of their own, and the model keeps them with the
//! prose around them: an advertisement's label, "Click to expand", a
//! gallery's "Image 2 of 5", a blog post's meta line ("Posted by Ann |
//! 09:41 PM | Comments (3)", "Tuesday, May 2 | permalink"), a post's or
//! a comment's "Reply", "Quote" or "Share" button; a forum post's own
//! furniture (its author's "Offline", the "Top" link under it, a code
//! box's "Code: Select all", a question-and-answer site's "answered Nov
//! 2, 2012 at 9:41"). Each is dropped when it is a kept block's whole
//! text. The gold text of the dev
//! folders leaves them out (held-out outputs of the 12 folders, lines
//! that are such a block, against lines of the gold: advertisement labels
//! 236 out of the gold, 6 in; "Click to …" 60 and 0; "Image N of M" 6 and
//! 0; "Posted by …" with a `|` 148 and 0; permalink lines 44 and 0;
//! "Reply", "Quote", "Reply with quote" and "Share" 170 and 2; a post's
//! furniture: "Offline"/"Online" 62 and 0, "Top" 207 and 0, "Code:
//! Select all" 7 and 0, answered/asked/edited stamps 36 and 0).
//!
//! Not dropped: bylines alone ("By Jane Doe"), which the gold keeps (104
//! lines in, 14 out); "Posted by Ann on May 2, 9:41 AM" without a `|`, a
//! forum post's header that htmltotext-bench's gold keeps (with it, that
//! folder lost 0.001 held out); a member card's counters ("Posts: 722",
//! "Joined: Wed Jan 21, 2015"), which htmltotext-bench's and
//! cleaneval's gold keep (held out, −0.0001); a post's number ("#12"),
//! a chart's rank as often; image credits ("Photo: …", "(Credit:
//! …)"), kept by the gold about one time in three.

use super::features::Blocks;
use super::nothing::short_kept_texts;
use crate::annotate::Page;

/// A chrome line is short: a block of more characters than this is prose
/// that happens to start alike ("Posted by the editors, this guide …").
pub const LINE_MAX_CHARS: u32 = 160;

/// The labels, prompts and counters below are at most this many bytes
/// (with their punctuation); a longer line without a `|` is none of them
/// and is not lower-cased.
const SHORT_LINE_BYTES: usize = 48;

/// Advertisement labels, lower-cased, as a whole line (English, German,
/// French, Italian, Polish, Russian, Greek, Chinese: the dev folders'
/// languages and their neighbours).
const ADVERT_LABELS: &[&str] = &[
    "advertisement",
    "advertising",
    "sponsored",
    "anzeige",
    "werbung",
    "publicité",
    "pubblicità",
    "reklama",
    "реклама",
    "διαφήμιση",
    "广告",
];

/// "Click to …" prompts of a collapsed box or a zoomable image, as a
/// whole line (but for punctuation after them).
const CLICK_PROMPTS: &[&str] = &[
    "click to expand",
    "click to shrink",
    "click to collapse",
    "click to enlarge",
    "click to zoom",
    "click image to enlarge",
    "click here to enlarge",
];

/// A post's or a comment's buttons, lower-cased, as a whole line
/// (English, German, French, Russian, Polish, Chinese).
const POST_BUTTONS: &[&str] = &[
    "reply",
    "quote",
    "reply with quote",
    "log in to reply",
    "share",
    "antworten",
    "zitieren",
    "répondre",
    "ответить",
    "цитировать",
    "odpowiedz",
    "cytuj",
    "回复",
];

/// A forum post's own furniture, lower-cased and bare, as a whole line:
/// its author's presence, the "Top" link under each post, a code box's
/// label.
const POST_FURNITURE: &[&str] = &[
    "offline",
    "online",
    "top",
    "back to top",
    "go to top",
    "code: select all",
];

/// The verbs of a question-and-answer site's post stamp ("answered Nov
/// 2, 2012 at 9:41", "edited 3 years ago"). Not "posted" with a date: a
/// news story's dateline ("Posted January 2, 2008 10:34"), which the
/// gold keeps (l3s-gn1: 3 pages lost 0.01–0.08 when it went); "posted 3
/// years ago" is a stamp all the same.
const STAMP_VERBS: &[&str] = &["answered", "asked", "edited", "commented", "replied"];

/// Units of a stamp's "… ago" (singular: a plural's `s` is cut).
const TIME_UNITS: &[&str] = &[
    "second", "minute", "min", "hour", "hr", "day", "week", "month", "year",
];

/// Month and weekday names (English, any case once lower-cased), by the
/// first three letters: what a member card's dates are written with.
const DATE_WORDS: &[&str] = &[
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "mon",
    "tue", "wed", "thu", "fri", "sat", "sun",
];

/// The words of a gallery's counter ("Image 2 of 5").
const GALLERY_WORDS: &[&str] = &["image", "photo", "picture", "slide"];

/// Whether `text`, a block's whole text, is a chrome line (see the module
/// documentation).
pub fn is_chrome_line(text: &str) -> bool {
    let text = text.trim();
    if text.len() > SHORT_LINE_BYTES && !text.contains('|') {
        return false;
    }
    let lower = text.to_lowercase();
    let bare = lower.trim_matches(|c: char| !c.is_alphanumeric());
    if ADVERT_LABELS.contains(&bare) || POST_BUTTONS.contains(&bare) {
        return true;
    }
    if CLICK_PROMPTS
        .iter()
        .any(|p| bare.starts_with(p) && !bare[p.len()..].chars().any(char::is_alphanumeric))
    {
        return true;
    }
    if gallery_counter(bare) {
        return true;
    }
    if POST_FURNITURE.contains(&bare) || post_stamp(bare) {
        return true;
    }
    if lower.starts_with("posted by") && lower.contains('|') {
        return true;
    }
    lower.contains("| permalink") || lower.contains("permalink |")
}

/// Whether `value` is nothing but numbers and dates: "2012-03-04",
/// "wed jun 05, 2019 6:01 am", "nov 2, 2012 9:41" (lower-cased).
fn numbers_and_dates(value: &str) -> bool {
    value.split_whitespace().all(|w| {
        let w = w.trim_end_matches([',', '.']);
        w.bytes().all(|b| b.is_ascii_digit() || b",.:/-".contains(&b))
            || matches!(w, "am" | "pm")
            || (w.len() >= 3
                && w.bytes().all(|b| b.is_ascii_alphabetic())
                && DATE_WORDS.contains(&&w[..3]))
    })
}

/// "answered nov 2, 2012 at 9:41", "posted 3 years ago": a verb of
/// [`STAMP_VERBS`] (or "posted") and a number, a unit and "ago", or a
/// verb of [`STAMP_VERBS`] and a date (with "at" before its time), and
/// nothing else (bare).
fn post_stamp(bare: &str) -> bool {
    let Some((verb, rest)) = bare.split_once(' ') else {
        return false;
    };
    let stamp = STAMP_VERBS.contains(&verb);
    if !stamp && verb != "posted" {
        return false;
    }
    let words: Vec<&str> = rest.split_whitespace().collect();
    match words.as_slice() {
        [n, unit, "ago"] => {
            n.bytes().all(|b| b.is_ascii_digit())
                && TIME_UNITS.contains(&unit.trim_end_matches('s'))
        }
        _ => stamp && words.len() >= 2 && numbers_and_dates(&rest.replacen(" at ", " ", 1)),
    }
}

/// "image 2 of 5", "photo 3/12": a gallery word, a number, "of" or "/",
/// a number, and nothing else.
fn gallery_counter(s: &str) -> bool {
    let words: Vec<&str> = s
        .split(|c: char| c.is_whitespace() || c == '/')
        .filter(|w| !w.is_empty())
        .collect();
    let number = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    match words.as_slice() {
        [g, a, b] => GALLERY_WORDS.contains(g) && number(a) && number(b) && s.contains('/'),
        [g, a, of, b] => GALLERY_WORDS.contains(g) && number(a) && *of == "of" && number(b),
        _ => false,
    }
}

/// Unkeeps the kept blocks that are chrome lines ([`is_chrome_line`])
/// of at most [`LINE_MAX_CHARS`]; returns how many.
pub fn drop_chrome_lines(page: &Page<'_>, b: &Blocks, keep: &mut [bool]) -> usize {
    let mut chrome = Vec::new();
    short_kept_texts(page, b, keep, LINE_MAX_CHARS, |k, text| {
        if is_chrome_line(text) {
            chrome.push(k);
        }
    });
    for &k in &chrome {
        keep[k] = false;
    }
    chrome.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::auto::features;
    use crate::algorithms::auto::vocab::Vocabulary;
    use crate::algorithms::testutil::{block_texts, page_of};
    use crate::parse::parse;

    #[test]
    fn chrome_lines_and_lines_that_are_not() {
        for line in [
            "Advertisement",
            " - ADVERTISEMENT - ",
            "Anzeige",
            "Click to expand...",
            "Click to shrink...",
            "Click to enlarge",
            "Image 2 of 5",
            "Photo 3/12",
            "Reply",
            "Reply with quote",
            "Quote",
            "Posted by: Peter | Mar 22, 2007",
            "posted by SDH | 8:26 PM |",
            "Tuesday December 26, 2006 | permalink | comments (0)",
            "Offline",
            "Top",
            "^ Top",
            "Back to top",
            "Code: Select all",
            "answered Nov 2, 2012 at 9:41",
            "edited Mar 3 at 14:02",
            "posted 3 years ago",
        ] {
            assert!(is_chrome_line(line), "{line}");
        }
        for line in [
            "By Jane Doe",
            "Posted by",
            "Posted by the harbour master",
            // A forum post's header: the gold keeps it.
            "Posted by Pillowapnts on Aug 10, 2014, 9:47:11 AM",
            "Advertisement revenue fell by a third last year.",
            "Click to expand the menu, then choose Settings.",
            "Image 2 of the series shows the harbour at night.",
            "Reply to the council by Friday.",
            "The meeting starts at 9:30 in the town hall.",
            // A news story's dateline: the gold keeps it.
            "Posted January 2, 2008 10:34:00",
            "Posted Jan. 5, 2008",
            "Top stories",
            "Online safety for children",
            "answered the council's letter on May 2",
            "asked 3 questions ago",
        ] {
            assert!(!is_chrome_line(line), "{line}");
        }
    }

    #[test]
    fn a_kept_chrome_line_goes_and_the_prose_stays() {
        let html = "<html><body><article>\
             <p>The harbour wall was rebuilt stone by stone over the winter months.</p>\
             <div class=ad-label>Advertisement</div>\
             <p>Posted by Ann at 09:41 PM | Comments (3)</p>\
             <p>Posted by the harbour master, the notice asks walkers to keep out.</p>\
             </article></body></html>";
        let dom = parse(html);
        let page = page_of(&dom);
        let b = features::blocks(&page, &Vocabulary::new());
        let text = block_texts(&page, &b);
        let mut keep = vec![true; text.len()];
        assert_eq!(drop_chrome_lines(&page, &b, &mut keep), 2);
        let left: Vec<&String> = text.iter().zip(&keep).filter(|(_, k)| **k).map(|(t, _)| t).collect();
        assert!(left.iter().any(|t| t.contains("stone by stone")), "{left:?}");
        assert!(left.iter().any(|t| t.contains("harbour master")), "{left:?}");
        assert!(!left.iter().any(|t| t.contains("Advertisement") || t.contains("09:41")), "{left:?}");
    }
}
