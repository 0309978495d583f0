//! **CC** — content correlativity with smoothing (paper 2, ALGORITHMS.md#cc),
//! built for Uyghur news and forum pages.
//!
//! For every element i of the content root's subtree:
//!
//! * TA(i) = characters of non-link text in the subtree (`chars −
//!   link_chars`), LA(i) = `<a>` elements in the subtree;
//! * CC(i) = TA(i) / max(LA(i), 1); i is a content node when CC(i) > C.
//!
//! **Output.** Every text node t has an owner: its nearest ancestor element
//! that is not inline ([`is_inline`]); t is output exactly when its owner is
//! a content node. So a parent and a child that are both content give their
//! text once, and `body`'s own high CC selects only the text `body` itself
//! owns.
//!
//! **Smoothing** (simultaneous: both rules read the unsmoothed
//! classification, their changes are applied together):
//!
//! * promotion — a noise node with CS(i) > S and TD(i) > D becomes content,
//!   where TD(i) = max(TA(parent), 1) / max(LA(i), 1) and CS(i) = the share
//!   of i's same-tag siblings (i included) that are content. Short forum
//!   replies with a link or an image among long ones survive this way.
//! * demotion — let G be the lowest common ancestor of the owners of the
//!   content text; each element child of G roots a branch; the branch with
//!   the most content text is the main branch. An owner of content text is
//!   demoted when it is the only content owner in its branch, the branch is
//!   not the main one, and the share of G's children with the branch root's
//!   tag that hold content is ≤ S. (The paper's copyright block.)
//!
//! Unresolved points and how they were settled:
//!
//! * "the only content node in its branch" counts the *owners of content
//!   text* in the branch, not every element with CC > C: a footer `div`
//!   wrapping a long copyright `p` has two elements with CC > C (the `div`
//!   and the `p`) but one text block, and counting elements would never
//!   demote it.
//! * The content root (`body`) is not smoothed: it has no siblings, and its
//!   parent lies outside the subtree the algorithms see.
//! * The LCA of the owners is found in linear time: the owners are
//!   ancestors of their texts, so G is the LCA of the first and last content
//!   text in document order, or the shallowest owner that is an ancestor of
//!   that node.
//!
//! Cost: one pass over the elements (owners, CC), one over each node's
//! children (sibling groups by tag, with a per-tag counter array reset
//! through a touched list), one over the text nodes — O(n).

use std::collections::HashMap;

use super::{Algorithm, Param, Params, Selection};
use crate::Error;
use crate::annotate::Page;
use crate::dom::{NodeId, Tag};

/// C = 29: the CC threshold between content (CC > C) and noise, paper 2 §3.2 (ALGORITHMS.md#cc).
pub const C: f64 = 29.0;
/// S = 0.57: the content-scale threshold of promotion and demotion,
/// paper 2 §3.3 (ALGORITHMS.md#smoothing).
pub const S: f64 = 0.57;
/// D = 63: the context-text-density threshold of promotion, paper 2 §3.3 (ALGORITHMS.md#smoothing).
pub const D: f64 = 63.0;

/// The tags that do not own text (ALGORITHMS.md#cc's inline list): text inside
/// them belongs to their nearest non-inline ancestor.
pub const INLINE: &[Tag] = &[
    Tag::A,
    Tag::ABBR,
    Tag::B,
    Tag::BDI,
    Tag::BDO,
    Tag::BIG,
    Tag::CITE,
    Tag::CODE,
    Tag::DATA,
    Tag::DEL,
    Tag::DFN,
    Tag::EM,
    Tag::FONT,
    Tag::I,
    Tag::INS,
    Tag::KBD,
    Tag::LABEL,
    Tag::MARK,
    Tag::NOBR,
    Tag::Q,
    Tag::S,
    Tag::SAMP,
    Tag::SMALL,
    Tag::SPAN,
    Tag::STRIKE,
    Tag::STRONG,
    Tag::SUB,
    Tag::SUP,
    Tag::TIME,
    Tag::TT,
    Tag::U,
    Tag::VAR,
    Tag::WBR,
    Tag::BR,
    Tag::IMG,
    // A formula (its TeX, from the cleaner) is phrasing, like `<sub>`.
    Tag::MATH,
];

/// Whether `tag` is in [`INLINE`].
pub fn is_inline(tag: Tag) -> bool {
    INLINE.contains(&tag)
}

/// The CC algorithm.
#[derive(Clone, Debug)]
pub struct Cc {
    /// C, the CC threshold.
    pub c: f64,
    /// S, the content-scale threshold.
    pub s: f64,
    /// D, the context-text-density threshold.
    pub d: f64,
    /// Whether noise nodes are promoted.
    pub promote: bool,
    /// Whether isolated content nodes are demoted.
    pub demote: bool,
}

impl Default for Cc {
    fn default() -> Self {
        Cc {
            c: C,
            s: S,
            d: D,
            promote: true,
            demote: true,
        }
    }
}

/// The parameters (`unchaff algorithms --params`).
pub const PARAMS: &[Param] = &[
    Param {
        name: "c",
        default: "29",
        range: "any number",
        meaning: "content-correlativity threshold between content and noise",
    },
    Param {
        name: "s",
        default: "0.57",
        range: "0 to 1",
        meaning: "content-scale threshold of promotion and demotion",
    },
    Param {
        name: "d",
        default: "63",
        range: "any number",
        meaning: "context text density above which a short block is promoted",
    },
    Param {
        name: "promote",
        default: "1",
        range: "0 or 1",
        meaning: "1 promotes short blocks between content blocks",
    },
    Param {
        name: "demote",
        default: "1",
        range: "0 or 1",
        meaning: "1 demotes content-looking blocks among noise",
    },
];

pub(super) fn build(p: &mut Params) -> Result<Box<dyn Algorithm>, Error> {
    Ok(Box::new(Cc {
        c: p.f64("c", C)?,
        s: p.f64("s", S)?,
        d: p.f64("d", D)?,
        promote: p.switch("promote", true)?,
        demote: p.switch("demote", true)?,
    }))
}

/// The classification of a page's elements, by node index.
#[derive(Clone, Debug, Default)]
pub struct Classified {
    /// CC(i) by node index (0 outside the content root's elements).
    pub cc: Vec<f64>,
    /// Content by CC > C alone.
    pub raw: Vec<bool>,
    /// Content after smoothing.
    pub content: Vec<bool>,
    /// The owner of each counted text node, by index into [`Page::texts`].
    pub owners: Vec<NodeId>,
}

#[inline]
fn ta(page: &Page<'_>, id: NodeId) -> f64 {
    let s = page.stats(id);
    f64::from(s.chars - s.link_chars)
}

#[inline]
fn la(page: &Page<'_>, id: NodeId) -> f64 {
    f64::from(page.stats(id).links.max(1))
}

impl Cc {
    /// Classifies every element (CC, smoothing) and finds text owners.
    pub fn classify(&self, page: &Page<'_>) -> Classified {
        let n = page.dom.len();
        let dom = page.dom;
        let mut cc = vec![0f64; n];
        let mut raw = vec![false; n];
        // owner_of[e]: the node that owns text placed directly in e.
        let mut owner_of = vec![page.root; n];
        for &e in &page.elements {
            let v = ta(page, e) / la(page, e);
            cc[e.index()] = v;
            raw[e.index()] = v > self.c;
            let inline = dom.tag(e).is_some_and(is_inline);
            owner_of[e.index()] = if e != page.root && inline {
                owner_of[dom.node(e).parent.index()]
            } else {
                e
            };
        }
        let owners: Vec<NodeId> = page
            .texts
            .iter()
            .map(|t| owner_of[dom.node(t.node).parent.index()])
            .collect();
        let mut content = raw.clone();
        // At the deadline, stop between phases (the extractor reports it).
        let expired = || page.deadline.expired();
        if self.promote && !expired() {
            for i in self.promotions(page, &raw) {
                content[i.index()] = true;
            }
        }
        if self.demote && !expired() {
            for i in self.demotions(page, &raw, &owners) {
                content[i.index()] = false;
            }
        }
        Classified {
            cc,
            raw,
            content,
            owners,
        }
    }

    /// The noise elements that promotion turns into content.
    fn promotions(&self, page: &Page<'_>, raw: &[bool]) -> Vec<NodeId> {
        let dom = page.dom;
        let mut out = Vec::new();
        // Per-tag (content, total) counters for one sibling group, reset
        // through the list of tags touched.
        let mut counts: Vec<(u32, u32)> = Vec::new();
        let mut touched: Vec<u16> = Vec::new();
        for &p in &page.elements {
            let ta_parent = ta(page, p).max(1.0);
            for c in dom.children(p) {
                if let Some(tag) = dom.tag(c) {
                    let k = tag.0 as usize;
                    if counts.len() <= k {
                        counts.resize(k + 1, (0, 0));
                    }
                    if counts[k].1 == 0 {
                        touched.push(tag.0);
                    }
                    counts[k].0 += u32::from(raw[c.index()]);
                    counts[k].1 += 1;
                }
            }
            for c in dom.children(p) {
                let Some(tag) = dom.tag(c) else { continue };
                if raw[c.index()] {
                    continue;
                }
                let (content, total) = counts[tag.0 as usize];
                let cs = f64::from(content) / f64::from(total);
                let td = ta_parent / la(page, c);
                if cs > self.s && td > self.d {
                    out.push(c);
                }
            }
            for t in touched.drain(..) {
                counts[t as usize] = (0, 0);
            }
        }
        out
    }

    /// The isolated owners of content text that demotion turns into noise.
    fn demotions(&self, page: &Page<'_>, raw: &[bool], owners: &[NodeId]) -> Vec<NodeId> {
        let dom = page.dom;
        let content_texts: Vec<usize> = (0..page.texts.len())
            .filter(|&i| raw[owners[i].index()])
            .collect();
        let (Some(&first), Some(&last)) = (content_texts.first(), content_texts.last()) else {
            return Vec::new();
        };
        let g = self.lowest_common_owner(page, owners, &content_texts, first, last);
        // branch[e] for the elements of G's subtree (a contiguous range of
        // page.elements): the child of G above e.
        let Some(g_slot) = page.elements.iter().position(|&e| e == g) else {
            return Vec::new();
        };
        let g_elems = page.stats(g).elements as usize;
        let mut branch = vec![NodeId::NONE; dom.len()];
        for &e in &page.elements[g_slot + 1..(g_slot + g_elems).min(page.elements.len())] {
            let parent = dom.node(e).parent;
            branch[e.index()] = if parent == g {
                e
            } else {
                branch[parent.index()]
            };
        }
        // Per branch root: distinct content owners, their first owner, and
        // the content text it holds.
        let mut owner_count = vec![0u32; dom.len()];
        let mut first_owner = vec![NodeId::NONE; dom.len()];
        let mut text_chars = vec![0u64; dom.len()];
        let mut seen = vec![false; dom.len()];
        for &i in &content_texts {
            let o = owners[i];
            let b = if o == g {
                NodeId::NONE
            } else {
                branch[o.index()]
            };
            if b.is_none() {
                continue;
            }
            text_chars[b.index()] += u64::from(page.texts[i].chars);
            if !seen[o.index()] {
                seen[o.index()] = true;
                owner_count[b.index()] += 1;
                if first_owner[b.index()].is_none() {
                    first_owner[b.index()] = o;
                }
            }
        }
        let children: Vec<NodeId> = dom.children(g).filter(|&c| dom.tag(c).is_some()).collect();
        // Ties (rare) go to the last branch: `max_by_key` keeps the last
        // of equal maxima; either choice keeps one of them.
        let main = children
            .iter()
            .copied()
            .filter(|c| owner_count[c.index()] > 0)
            .max_by_key(|c| text_chars[c.index()]);
        // Per tag among G's children: (children holding content, children),
        // counted once (a count per child would be quadratic in G's
        // children, and a page can give G hundreds of thousands).
        let mut by_tag: HashMap<Tag, (u32, u32)> = HashMap::new();
        for &c in &children {
            if let Some(tag) = dom.tag(c) {
                let e = by_tag.entry(tag).or_default();
                e.0 += u32::from(owner_count[c.index()] > 0);
                e.1 += 1;
            }
        }
        let mut out = Vec::new();
        for &b in &children {
            if owner_count[b.index()] != 1 || Some(b) == main {
                continue;
            }
            let Some(&(holding, total)) = dom.tag(b).and_then(|t| by_tag.get(&t)) else {
                continue;
            };
            if f64::from(holding) / f64::from(total) <= self.s {
                out.push(first_owner[b.index()]);
            }
        }
        out
    }

    /// G: the lowest common ancestor of the owners of the content texts
    /// `content_texts` (indices into `page.texts`; `first`/`last` are the
    /// first and last of them).
    fn lowest_common_owner(
        &self,
        page: &Page<'_>,
        owners: &[NodeId],
        content_texts: &[usize],
        first: usize,
        last: usize,
    ) -> NodeId {
        let dom = page.dom;
        if first == last {
            return owners[first];
        }
        // LCA of the first and last content text: every content text lies
        // below it.
        let (mut a, mut b) = (page.texts[first].node, page.texts[last].node);
        let depth = |x: NodeId| page.stats(x).depth;
        while depth(a) > depth(b) {
            a = dom.node(a).parent;
        }
        while depth(b) > depth(a) {
            b = dom.node(b).parent;
        }
        while a != b {
            a = dom.node(a).parent;
            b = dom.node(b).parent;
        }
        // An owner no deeper than that node is on its path to the root (it
        // is an ancestor of a text below it): G is the shallowest owner
        // when it is that high, else the node itself.
        let mut g = a;
        for &i in content_texts {
            if depth(owners[i]) < depth(g) {
                g = owners[i];
            }
        }
        g
    }
}

impl Algorithm for Cc {
    fn reads_source(&self) -> bool {
        false
    }

    fn name(&self) -> &'static str {
        "cc"
    }

    fn run(&self, page: &Page<'_>) -> Selection {
        let cl = self.classify(page);
        let nodes = page
            .texts
            .iter()
            .zip(&cl.owners)
            .filter(|(_, o)| cl.content[o.index()])
            .map(|(t, _)| t.node)
            .collect();
        let scores = cl.cc.iter().map(|&v| v as f32).collect();
        Selection {
            nodes,
            scores,
            text: None,
            ..Selection::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::page_of;
    use crate::dom::Dom;
    use crate::parse::parse;
    use crate::render;

    fn extract(html: &str, cc: &Cc) -> String {
        let dom = parse(html);
        let page = page_of(&dom);
        let sel = cc.run(&page);
        render::text(&dom, page.root, &sel)
    }

    fn by_id(dom: &Dom, id: &str) -> NodeId {
        dom.descendants(dom.body().unwrap())
            .find(|&n| dom.attr(n, "id") == Some(id))
            .unwrap()
    }

    /// "word word … word": 20 words, 99 characters once trimmed.
    fn long() -> String {
        "word ".repeat(20)
    }

    #[test]
    fn cc_by_hand() {
        // div: "hello world" (11 non-link chars) + a("link") + a("x"):
        // TA = 11, LA = 2 → CC = 5.5. p: "hello world" TA = 11, LA = 0 →
        // CC = 11 / max(0, 1) = 11.
        let dom = parse("<div id=d><p id=p>hello world</p><a>link</a><a>x</a></div>");
        let page = page_of(&dom);
        let cl = Cc::default().classify(&page);
        assert_eq!(cl.cc[by_id(&dom, "d").index()], 5.5);
        assert_eq!(cl.cc[by_id(&dom, "p").index()], 11.0);
        assert!(!cl.raw[by_id(&dom, "p").index()]);
    }

    #[test]
    fn owners_skip_inline_elements() {
        // The text inside <b> and <a> belongs to the <p>; the text of the
        // <li> to the <li>.
        let dom =
            parse("<p id=p>a <b>bold <a>link</a></b></p><ul><li id=li><span>x</span></li></ul>");
        let page = page_of(&dom);
        let cl = Cc::default().classify(&page);
        let (p, li) = (by_id(&dom, "p"), by_id(&dom, "li"));
        assert_eq!(cl.owners, vec![p, p, p, li]);
    }

    #[test]
    fn forum_replies_with_a_link_or_an_image_survive() {
        let long = long();
        let html = format!(
            "<div id=thread>\
               <div class=post>{long}</div>\
               <div class=post id=r1>Agreed! <a href=#>source</a></div>\
               <div class=post>{long}</div>\
               <div class=post id=r2>Nice photo <img src=p.jpg></div>\
               <div class=post>{long}</div>\
             </div>\
             <div id=nav><a>Home</a> <a>Forum</a> <a>Help</a></div>"
        );
        // Long posts: TA = 99, LA = 0 → CC = 99 > 29, content.
        // r1: TA = 7 ("Agreed!"), LA = 1 → CC = 7, noise.
        // r2: TA = 10 ("Nice photo"), LA = 0 → CC = 10, noise.
        // Promotion: CS = 3 content / 5 posts = 0.6 > 0.57 and
        // TD = TA(thread) / max(LA, 1) = (3·99 + 7 + 10) / 1 = 314 > 63.
        // nav: TA = 0 → noise; CS among body's divs = 1/2 ≤ 0.57, stays.
        let dom = parse(&html);
        let page = page_of(&dom);
        let cl = Cc::default().classify(&page);
        for id in ["r1", "r2"] {
            let r = by_id(&dom, id);
            assert!(!cl.raw[r.index()] && cl.content[r.index()], "{id}");
        }
        let out = extract(&html, &Cc::default());
        assert_eq!(
            out,
            format!("{0}\nAgreed! source\n{0}\nNice photo\n{0}", long.trim_end())
        );
        // Without promotion the short replies are lost.
        let plain = extract(
            &html,
            &Cc {
                promote: false,
                ..Cc::default()
            },
        );
        assert!(!plain.contains("Agreed") && !plain.contains("Nice photo"));
        assert!(!out.contains("Home"));
    }

    #[test]
    fn isolated_copyright_block_is_dropped() {
        let long = long();
        let copyright = "Copyright 2024 Example News Ltd. All rights reserved. \
                         No part of this site may be reproduced without permission.";
        let html = format!(
            "<div id=header><a>Home</a><a>News</a><a>About</a></div>\
             <div id=nav><ul><li><a>World</a></li><li><a>Sport</a></li></ul></div>\
             <div id=content><p>{long}</p><p>{long}</p><p>{long}</p></div>\
             <div id=footer><p id=c>{copyright}</p></div>"
        );
        // The copyright p: 54 + 58 = 112 characters, no link → CC = 112,
        // content.
        // G = body (the LCA of the content p's and the copyright p); its
        // branches: header (0 content owners), nav (0), content (3, the
        // main branch: 297 characters), footer (1, not main). Divs of body
        // holding content: 2 of 4 = 0.5 ≤ 0.57 → the copyright p is demoted.
        let dom = parse(&html);
        let page = page_of(&dom);
        let cl = Cc::default().classify(&page);
        let c = by_id(&dom, "c");
        assert_eq!(cl.cc[c.index()], 112.0);
        assert!(cl.raw[c.index()] && !cl.content[c.index()]);
        let out = extract(&html, &Cc::default());
        assert_eq!(out, [long.trim_end(); 3].join("\n"));
        let kept = extract(
            &html,
            &Cc {
                demote: false,
                ..Cc::default()
            },
        );
        assert!(kept.ends_with(copyright));
    }

    #[test]
    fn parent_and_child_both_content_give_text_once() {
        let long = long();
        let html = format!("<div id=d>{long}<p id=p>second {long}</p></div>");
        // div: TA = 99 + 106 = 205, CC = 205 > 29; p: TA = 106 > 29. The
        // div owns the first text, the p the second: each is output once.
        let out = extract(&html, &Cc::default());
        assert_eq!(
            out,
            format!("{}\nsecond {}", long.trim_end(), long.trim_end())
        );
    }

    #[test]
    fn empty_and_textless_pages() {
        for html in ["<body></body>", "<div><a>x</a></div>", "<p>short</p>"] {
            let dom = parse(html);
            let sel = Cc::default().run(&page_of(&dom));
            assert!(sel.nodes.is_empty(), "{html}");
        }
    }

    #[test]
    fn params_are_read() {
        let p = |k: &str, v: &str| vec![(k.to_owned(), v.to_owned())];
        assert!(super::super::build("cc".parse().unwrap(), &p("demote", "0")).is_ok());
        assert!(super::super::build("cc".parse().unwrap(), &p("c", "40")).is_ok());
        assert!(super::super::build("cc".parse().unwrap(), &p("lambda", "1")).is_err());
    }
}
