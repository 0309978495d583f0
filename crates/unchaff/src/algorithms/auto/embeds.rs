//! Embedded social posts are not the page's text.
//!
//! A news story quotes a post from X (Twitter), Instagram or TikTok by
//! pasting the network's embed code: a `blockquote` of the network's
//! class holding the post's text, its author and date, which the
//! network's script turns into a card. The gold of most labelled folders
//! leaves those posts out (they are someone else's words, shown beside
//! the story), and the model, reading a blockquote of short prose inside
//! the article, keeps them. Held out, leaving them out moved 21 pages up
//! and 4 down (msv-chaos's stories over a politician's or a company's
//! posts, cleanportaleval's and htmltotext-bench's news; dragnet T45 and
//! R98, whose gold keeps them, down): docs/history/results-auto.md.
//!
//! This phase, after the model, unkeeps the blocks inside such a
//! blockquote ([`EMBED_CLASSES`]). A quotation the page writes itself,
//! in a plain `blockquote`, stays.

use super::features::Blocks;
use crate::annotate::Page;
use crate::dom::{Dom, NodeId, Tag};

/// Class tokens of the social networks' embed blockquotes (compared
/// without regard to case).
pub const EMBED_CLASSES: &[&str] = &[
    "twitter-tweet",
    "twitter-video",
    "instagram-media",
    "tiktok-embed",
];

/// Elements looked at from a block up for the embed's blockquote: the
/// post's paragraph, its link, the blockquote itself.
pub const EMBED_DEPTH: usize = 4;

/// Whether `id` is a social network's embed blockquote.
pub fn is_embed(dom: &Dom, id: NodeId) -> bool {
    dom.is(id, Tag::BLOCKQUOTE)
        && dom.attr(id, "class").is_some_and(|c| {
            c.split_ascii_whitespace()
                .any(|t| EMBED_CLASSES.iter().any(|e| t.eq_ignore_ascii_case(e)))
        })
}

/// Unkeeps the kept blocks inside an embedded social post (see the
/// module documentation); returns whether it dropped any.
pub fn drop_embeds(page: &Page<'_>, b: &Blocks, keep: &mut [bool]) -> bool {
    let dom = page.dom;
    let mut dropped = false;
    for (k, kept) in keep.iter_mut().enumerate() {
        let Some(&node) = b.nodes.get(k).filter(|_| *kept) else {
            continue;
        };
        let mut at = node;
        for _ in 0..EMBED_DEPTH {
            if is_embed(dom, at) {
                *kept = false;
                dropped = true;
                break;
            }
            match dom.node(at).parent.some() {
                Some(up) => at = up,
                None => break,
            }
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::left_by_phase;
    use crate::dom::NodeId;

    fn left(body: &str) -> Vec<String> {
        left_by_phase(body, drop_embeds)
    }

    #[test]
    fn an_embedded_post_goes_and_a_quotation_stays() {
        let out = left(
            "<div class=story><p>The minister answered the critics within the hour, \
             in a post that was shared widely.</p>\
             <blockquote class=\"twitter-tweet\" data-lang=en><p lang=en dir=ltr>\
             We will rebuild the harbour wall before the winter. \
             <a href=\"https://t.co/x\">pic.twitter.com/x</a></p>&mdash; The Minister \
             (@minister) <a href=\"https://twitter.com/minister/status/1\">March 5, 2024</a>\
             </blockquote>\
             <blockquote class=\"instagram-media\"><div><p>A photo of the quay</p></div></blockquote>\
             <blockquote><p>The wall has stood for a hundred years, the mayor wrote.</p></blockquote>\
             <p>The council meets again on Monday.</p></div>",
        );
        assert!(out.iter().any(|t| t.contains("answered the critics")), "{out:?}");
        assert!(out.iter().any(|t| t.contains("the mayor wrote")), "{out:?}");
        assert!(out.iter().any(|t| t.contains("meets again")), "{out:?}");
        assert!(
            !out.iter().any(|t| t.contains("rebuild the harbour") || t.contains("The Minister")),
            "{out:?}"
        );
        assert!(!out.iter().any(|t| t.contains("photo of the quay")), "{out:?}");
    }

    #[test]
    fn only_the_networks_classes_are_embeds() {
        let dom = crate::parse::parse(
            "<blockquote class=\"Twitter-Tweet\">a</blockquote><blockquote class=tweetable>b</blockquote>\
             <div class=twitter-tweet>c</div>",
        );
        let quotes: Vec<bool> = (0..dom.len() as u32)
            .map(NodeId)
            .filter(|&n| dom.tag(n).is_some())
            .filter(|&n| dom.is(n, Tag::BLOCKQUOTE) || dom.is(n, Tag::DIV))
            .map(|n| is_embed(&dom, n))
            .collect();
        assert_eq!(quotes, [true, false, false]);
    }
}
