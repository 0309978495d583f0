//! A code listing or a definition list inside the article is the
//! article's.
//!
//! The model reads prose: a block's words, links and punctuation. A code
//! listing has few words, many symbols and no sentences, and a definition
//! list's terms and definitions are short lines, so the model drops them
//! — from a tutorial, a documentation page, an answer — even where every
//! paragraph around them is kept; and the Markdown of such a page (issue
//! #34) loses what its readers came for.
//!
//! This phase, after the model, keeps such a listing again: a dropped
//! block that is in a code block (`pre`) or a definition list (`dl`), not
//! in a comment container, with a kept block of prose
//! ([`CODE_HOST_MIN_CHARS`]) under the same element among the nearest
//! [`CODE_HOST_LEVELS`] ancestors of the listing — documentation
//! generators wrap a listing in two or three elements of their own
//! (Sphinx's `div.highlight-python > div.highlight > pre`) beside the
//! section's paragraphs.

use super::features::Blocks;
use crate::annotate::Page;
use crate::dom::Tag;

/// A kept block vouches for the listings beside it from this many
/// characters: a paragraph, not a caption or a button (as
/// [`super::siblings::SIBLING_MIN_CHARS`]).
pub const CODE_HOST_MIN_CHARS: u32 = 100;

/// How many elements above a listing the element holding the kept prose
/// may be: the listing's own wrappers (a highlighter's two, a
/// documentation generator's third).
pub const CODE_HOST_LEVELS: usize = 4;

/// How far above a block its code block may start: a highlighter's
/// line-numbered listing nests the code's own `pre` in a table inside the
/// outer `pre` (rouge: `pre > code > table > tbody > tr > td > pre`).
pub const MAX_CODE_NESTING: usize = 12;

/// How many levels above block `k` its outermost enclosing `pre` or `dl`
/// is (0: the block is that element), or `None` when the block is in
/// neither.
fn listing_depth(page: &Page<'_>, b: &Blocks, k: usize) -> Option<usize> {
    let dom = page.dom;
    let mut found = None;
    let mut n = b.nodes[k].some();
    for depth in 0..=MAX_CODE_NESTING {
        let Some(e) = n else { break };
        if dom.is(e, Tag::BODY) {
            break;
        }
        if dom.is(e, Tag::PRE) || dom.is(e, Tag::DL) {
            found = Some(depth);
        }
        n = dom.node(e).parent.some();
    }
    found
}

/// Keeps the dropped blocks of listings with kept prose beside them
/// (module docs): within [`CODE_HOST_LEVELS`] elements above the listing's
/// outermost `pre` ([`MAX_CODE_NESTING`]). Returns whether any block was kept again.
pub fn keep_listings(page: &Page<'_>, b: &Blocks, keep: &mut [bool]) -> bool {
    let held = &b.held;
    let n = keep
        .len()
        .min(b.chars.len())
        .min(b.comment.len())
        .min(held.block.len())
        .min(b.nodes.len());
    let up = |h: u32| -> Option<u32> {
        let p = *held.parent.get(h as usize)?;
        ((p as usize) < held.held.len()).then_some(p)
    };
    // The elements that directly hold a kept block of prose.
    let mut hosts = vec![false; held.held.len()];
    for k in (0..n).filter(|&k| keep[k] && b.chars[k] >= CODE_HOST_MIN_CHARS) {
        if let Some(p) = up(held.block[k]) {
            hosts[p as usize] = true;
        }
    }
    let mut kept = false;
    for (k, keep_k) in keep.iter_mut().enumerate().take(n) {
        if *keep_k || b.comment[k] {
            continue;
        }
        let Some(depth) = listing_depth(page, b, k) else {
            continue;
        };
        // The held tree's parents are the elements' own: up to the
        // listing's outer `pre`, then its wrappers.
        let mut h = up(held.block[k]);
        for _ in 0..depth + CODE_HOST_LEVELS {
            let Some(e) = h else { break };
            if hosts[e as usize] {
                *keep_k = true;
                kept = true;
                break;
            }
            h = up(e);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::after_phase;

    const PROSE: &str = "To read a file, open it and call read on it: this is how most scripts get at their data, and it works well for small files.";

    fn run(html: &str, kept: &[&str]) -> Vec<String> {
        after_phase(
            html,
            |t| kept.iter().any(|k| t.starts_with(k)),
            |page, b, keep| {
                keep_listings(page, b, keep);
            },
        )
    }

    #[test]
    fn a_listing_among_kept_paragraphs_comes_back() {
        let html = format!(
            "<body><div class=section><p>First. {PROSE}</p>\
             <div class=highlight-python><div class=highlight><pre>data = open(\"x\").read()\nprint(data)</pre></div></div>\
             <p>Second. {PROSE}</p></div>\
             <aside><pre>embed code</pre><p>Side. {PROSE}</p></aside>\
             <div class=comments><p>Reader. {PROSE}</p><pre>reader's code</pre></div></body>"
        );
        let got = run(&html, &["First", "Second"]);
        assert_eq!(got, ["First. To re", "data = open(", "Second. To r"]);
        // A listing whose code sits in a table inside the outer `pre`.
        let nested = format!(
            "<body><article><p>First. {PROSE}</p><figure class=highlight><pre><code>\
             <table class=rouge-table><tbody><tr><td class=gutter><pre>1\n2</pre></td>\
             <td class=code><pre>x = 1\ny = 2</pre></td></tr></tbody></table></code></pre></figure>\
             <p>Second. {PROSE}</p></article></body>"
        );
        let got = run(&nested, &["First", "Second"]);
        assert!(got.contains(&"x = 1\ny = 2".to_owned()), "{got:?}");
        // A definition list's short terms and definitions likewise.
        let dl = format!(
            "<body><article><p>First. {PROSE}</p><dl><dt>Shard</dt><dd>One part of a data set.</dd></dl>\
             <p>Second. {PROSE}</p></article></body>"
        );
        let got = run(&dl, &["First", "Second"]);
        assert_eq!(
            got,
            ["First. To re", "Shard", "One part of ", "Second. To r"]
        );
        // Without kept prose beside it, a listing stays out.
        let got = run(&html, &["Side"]);
        assert_eq!(got, ["embed code", "Side. To rea"]);
        let got = run(&html, &["Reader"]);
        assert_eq!(got, ["Reader. To r"]);
    }
}
