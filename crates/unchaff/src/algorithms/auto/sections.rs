//! A page of sections: the sections beside the kept one are content too.
//!
//! A company's service page, a product's landing page or a course page is
//! built of sections, one after the other in the page's main column: a
//! hero paragraph, features, "how it works", testimonials, a FAQ. Each
//! section is a container of its own (a page builder's row), and the
//! model, which learnt from articles, keeps the one section that reads
//! like an article's body and drops the others at p 0.05–0.2 (held out,
//! wcxb-dev's service pages: precision 0.81, recall 0.71, where the
//! best peer, which takes the main column whole, has 0.79 and 0.84).
//! Their blocks say "not content" mostly because they lie outside
//! Readability's top candidate, the one section.
//!
//! The phase widens the kept region to the sections beside it, when the
//! kept prose is itself laid out in sections ([`MIN_HEADINGS`] headings
//! `h2`–`h6` in the element holding it) and the page's title names no
//! story holding it ([`STORY_SHARE`]): from that element it climbs while
//! the element above holds little page chrome ([`MAX_CHROME_SHARE`]:
//! navigation, a footer, a sidebar, a comment thread, link lists), and
//! when that column holds other prose the model left out — as much as
//! [`MIN_NEW_SHARE`] of the kept prose and at least [`MIN_NEW_CHARS`] —
//! its text that is not chrome is kept. An article's body is a run of
//! paragraphs with no headings of sections, and the frame round it
//! (menus, related stories, comments) is chrome, so the phase leaves it.
//!
//! Held out (`LOFO_SKIP_TRAIN=1 scripts/lofo.sh`, the seed-7 models,
//! against `-p sections=0`): wcxb-dev 0.8276 → 0.8304 (33 pages up, 15
//! down by more than 0.005; service pages' recall 0.713 → 0.747), every
//! other folder's outputs unchanged but one page of cleanportaleval;
//! LOFO mean 0.9216 → 0.9219 (docs/history/results-auto.md). Screened
//! and left out: no heading test (wcxb-dev +0.0035 for dragnet −0.0029,
//! scrapinghub −0.0023, l3s-gn1 −0.0016: old pages' sidebars and
//! footers, whose frame no element names), the column bounded by `main`
//! (wcxb-dev +0.0016 only), a chrome share of 0.2 or 0.3 (dragnet
//! −0.0002, −0.0005; scrapinghub −0.0013 at 0.3).

use super::features::{self, Blocks};
use super::story::Story;

/// A block of this many characters or more is prose (a paragraph, not a
/// heading, a button or a caption; as [`super::siblings::SIBLING_MIN_CHARS`]).
pub const PROSE_MIN_CHARS: u32 = 100;

/// A block whose link text is this share of its characters or more is a
/// link (a menu item, a button, a teaser's title): chrome here.
pub const MAX_LINK_RATIO: f32 = 0.5;

/// The kept prose the phase starts from: less is a short selection the
/// fallback judges.
pub const MIN_KEPT_CHARS: u32 = 300;

/// The column climbs to an element only while chrome (links, navigation,
/// footers, sidebars, comments, forms) is less than this share of its
/// characters: the page's frame is left out. Held out (seed-7 models),
/// 0.1, 0.2 and 0.3 gave wcxb-dev +0.0029, +0.0029 and +0.0026, dragnet
/// 0.0000, −0.0002 and −0.0005 (old pages' frames are tables of links
/// and prose, which a wider share lets in).
pub const MAX_CHROME_SHARE: f32 = 0.1;

/// The column's prose the model left out must be at least this share of
/// the kept prose …
pub const MIN_NEW_SHARE: f32 = 0.3;

/// … and at least this many characters (a section's worth, not a byline
/// or a caption). Held out, a share of 0.1 gave wcxb-dev +0.0006 more for
/// scrapinghub −0.0005, dragnet and daniel-dev −0.0001 each and
/// cleaneval-en-final +0.0002; 0.6 halved the gain.
pub const MIN_NEW_CHARS: u32 = 400;

/// The kept prose's region must hold at least this many headings of
/// level 2 to 6 (not links, not chrome): a page built of sections, each
/// under its heading, where an article's body is a run of paragraphs.
/// Held out, 1 gave wcxb-dev +0.0032 for dragnet −0.0003 and daniel-dev
/// −0.0001; 3 the same as 2.
pub const MIN_HEADINGS: usize = 2;

/// Headings of this level and below count ([`MIN_HEADINGS`]): the
/// page's title (`h1`) is not a section's.
const MIN_HEADING_LEVEL: f32 = 2.0;

const HEADING_LEVEL: usize = features::index("heading_level");

/// The held elements inside held element `root` (itself included): the
/// run after it whose parents lie inside it.
fn subtree(held: &features::HeldTree, root: usize) -> Vec<bool> {
    let nh = held.held.len();
    let mut inside = vec![false; nh];
    if root >= nh {
        return inside;
    }
    inside[root] = true;
    for i in root + 1..nh {
        let up = held.parent[i] as usize;
        if up >= i || !inside[up] {
            break;
        }
        inside[i] = true;
    }
    inside
}

/// The share of the kept prose inside the story the page's title names
/// from which the page is an article and the phase leaves it: an
/// infinite-scroll page's next stories below, each with its headings,
/// are the story phase's to cut (in-sample, msv-chaos lost four such
/// pages without this test, 0.948 → 0.944; held out it costs wcxb-dev
/// 0.0001).
pub const STORY_SHARE: f32 = 0.5;

/// Whether block `k` is page chrome: in navigation, a header or footer, a
/// sidebar, a form, a comment thread, a share bar, an advertisement or an
/// overlay (by element, or by class/id for the families whose names are
/// specific), or a link.
fn chrome(b: &Blocks, k: usize) -> bool {
    const FLAGS: [usize; 13] = [
        features::index("in_nav"),
        features::index("in_aside"),
        features::index("in_footer"),
        features::index("in_header"),
        features::index("in_form"),
        features::index("v_comment"),
        features::index("v_nav"),
        features::index("v_sidebar"),
        features::index("v_related"),
        features::index("v_share"),
        features::index("v_ad"),
        features::index("v_overlay"),
        features::index("in_a"),
    ];
    const LINK_RATIO: usize = features::index("link_ratio");
    let x = &b.features[k];
    b.comment[k] || x[LINK_RATIO] >= MAX_LINK_RATIO || FLAGS.iter().any(|&f| x[f] > 0.0)
}

/// Keeps the text of the sections beside the kept prose (see the module
/// documentation). Returns whether it kept any block.
pub fn keep_sections(b: &Blocks, story: Option<&Story>, keep: &mut [bool]) -> bool {
    let held = &b.held;
    let nh = held.held.len();
    let n = keep
        .len()
        .min(b.chars.len())
        .min(b.features.len())
        .min(b.comment.len())
        .min(held.block.len());
    // A cheap look first: most pages' kept prose is an article's, with
    // no headings of sections among it, or too short.
    let prose = |k: usize| b.chars[k] >= PROSE_MIN_CHARS;
    let kept_prose: u32 = (0..n).filter(|&k| keep[k] && prose(k)).map(|k| b.chars[k]).sum();
    if nh == 0 || kept_prose < MIN_KEPT_CHARS {
        return false;
    }
    // The story the page's title names holds the kept prose: an article
    // (its next story appended below is the story phase's to cut).
    if let Some(st) = story {
        let inside: u32 = (st.blocks.clone())
            .filter(|&k| k < n && keep[k] && prose(k))
            .map(|k| b.chars[k])
            .sum();
        if inside as f32 >= STORY_SHARE * kept_prose as f32 {
            return false;
        }
    }
    // Per held element: all characters, chrome characters, kept prose,
    // prose left out, headings (all but chrome).
    let (mut tot, mut junk) = (vec![0u32; nh], vec![0u32; nh]);
    let (mut kept, mut new) = (vec![0u32; nh], vec![0u32; nh]);
    let mut heads = vec![0u32; nh];
    let mut is_chrome = vec![false; n];
    for k in 0..n {
        let h = held.block[k] as usize;
        if h >= nh {
            continue;
        }
        let c = b.chars[k];
        is_chrome[k] = chrome(b, k);
        tot[h] += c;
        if is_chrome[k] {
            junk[h] += c;
            continue;
        }
        if b.features[k][HEADING_LEVEL] >= MIN_HEADING_LEVEL {
            heads[h] += 1;
        }
        if prose(k) {
            if keep[k] {
                kept[h] += c;
            } else {
                new[h] += c;
            }
        }
    }
    // Children come after their parents: sums flow up in reverse.
    for i in (1..nh).rev() {
        let up = held.parent[i] as usize;
        if up < i {
            tot[up] += tot[i];
            junk[up] += junk[i];
            kept[up] += kept[i];
            new[up] += new[i];
            heads[up] += heads[i];
        }
    }
    let all_kept = (0..n)
        .filter(|&k| keep[k] && !is_chrome[k] && prose(k))
        .map(|k| b.chars[k])
        .sum::<u32>();
    if all_kept < MIN_KEPT_CHARS {
        return false;
    }
    // The deepest element holding all the kept prose (those holding it
    // form a chain from the root: the last in document order), which
    // must itself be laid out in sections.
    let Some(mut column) = (0..nh).rev().find(|&i| kept[i] == all_kept) else {
        return false;
    };
    if (heads[column] as usize) < MIN_HEADINGS {
        return false;
    }
    loop {
        let up = held.parent[column] as usize;
        if up >= column || junk[up] as f32 >= MAX_CHROME_SHARE * tot[up] as f32 {
            break;
        }
        column = up;
    }
    if new[column] < MIN_NEW_CHARS || (new[column] as f32) < MIN_NEW_SHARE * all_kept as f32 {
        return false;
    }
    let inside = subtree(held, column);
    let mut any = false;
    for k in 0..n {
        let h = held.block[k] as usize;
        if !keep[k] && !is_chrome[k] && h < nh && inside[h] {
            keep[k] = true;
            any = true;
        }
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::after_phase;

    /// A paragraph of a section: about 200 characters of prose.
    fn para(first: &str) -> String {
        format!(
            "<p>{first} lorem ipsum: every machine is copied once an hour, and only the \
             changed blocks travel. A lost file comes back in two clicks, from any hour \
             of the last month, to any of your machines.</p>"
        )
    }

    /// A page-builder row: a heading and two paragraphs.
    fn row(heading: &str, a: &str, b: &str) -> String {
        format!(
            "<div class=vc_row><h2>{heading}</h2>{}{}</div>",
            para(a),
            para(b)
        )
    }

    /// A service page: a menu, four rows in the main column (the second
    /// one sectioned by two headings of its own), a footer of links.
    fn service_page() -> String {
        format!(
            "<body><nav><ul><li><a href=/a>Pricing</a></li><li><a href=/b>About us</a></li>\
             </ul></nav><div class=wrap><div class=rows>{}<div class=vc_row><h2>Features</h2>\
             {}<h3>Backups</h3>{}<h3>Restores</h3>{}</div>{}{}</div></div>\
             <footer><a href=/c>Terms of use</a> <a href=/d>Privacy policy</a></footer></body>",
            row("Hero", "Intro", "Promise"),
            para("Kept1"),
            para("Kept2"),
            para("Kept3"),
            row("How it works", "Steps", "Onboard"),
            row("Questions", "Answer1", "Answer2"),
        )
    }

    fn kept_after(html: &str, kept_before: &[&str]) -> Vec<String> {
        after_phase(
            html,
            |t| kept_before.iter().any(|w| t.starts_with(w)),
            |_, b, keep| {
                keep_sections(b, None, keep);
            },
        )
    }

    #[test]
    fn the_rows_beside_the_kept_one_are_kept() {
        let kept = kept_after(&service_page(), &["Kept", "Backups", "Restores"]);
        for w in ["Hero", "Intro", "Promise", "How it works", "Steps", "Answer2"] {
            assert!(kept.iter().any(|t| t.starts_with(w)), "{w} missing: {kept:?}");
        }
        // The menu and the footer's links are not.
        for w in ["Pricing", "About us", "Terms", "Privacy"] {
            assert!(!kept.iter().any(|t| t.starts_with(w)), "{w} kept: {kept:?}");
        }
    }

    #[test]
    fn an_article_and_its_sidebar_stand() {
        // The kept prose is a run of paragraphs with no headings of
        // sections: an article. The author's note and a sidebar's blurb
        // beside it stay out.
        let html = format!(
            "<body><div class=col><h1>Title</h1><div class=body>{}{}{}</div>\
             <div class=bio><h2>About the author</h2>{}</div>\
             <div class=more><h2>Elsewhere</h2>{}{}</div></div></body>",
            para("Story1"),
            para("Story2"),
            para("Story3"),
            para("Bio"),
            para("Blurb1"),
            para("Blurb2"),
        );
        let kept = kept_after(&html, &["Story"]);
        assert_eq!(kept.len(), 3, "{kept:?}");
        // A sectioned selection that left out little of its column (one
        // paragraph, under MIN_NEW_CHARS) stands too.
        let all = ["Kept", "Backups", "Restores", "Hero", "Intro", "Promise", "How"];
        let all = [&all[..], &["Steps", "Onboard", "Questions", "Answer1"]].concat();
        let kept = kept_after(&service_page(), &all);
        assert!(!kept.iter().any(|t| t.starts_with("Answer2")), "{kept:?}");
    }
}
