//! **CETD** — content extraction via text density (Sun, Song, Liao,
//! SIGIR 2011), a reference algorithm of paper 1's Table 1 (ALGORITHMS.md#reference-algorithms)
//! (ALGORITHMS.md#reference-algorithms, "CETD").
//!
//! Per element i of `<body>`'s subtree: C (characters), T (descendant
//! elements, i itself excluded), LC (link characters) and LT (link tags,
//! with the rule that a non-link child whose text is all link text and
//! whose LT = T ≠ 0 counts as one link tag, so `<li><a>…</a></li>` is a
//! link tag of its `ul`). From them:
//!
//! * ρ = LC_body / C_body;
//! * CTD_i = (C/T) · ln(C·T / (LC·LT)) / ln ln(C·LC/nLC + ρ·C + e), with
//!   nLC = C − LC taken first and then T, LC, LT, nLC replaced by 1 where 0;
//! * DensitySum_i = Σ children's CTD + Σ over the runs of text directly in
//!   i of L·ln L / ln ln(ρ·L + e) (a childless element: its own CTD);
//! * τ = the least CTD on the path from the element of largest DensitySum
//!   up to `<body>`; then from `<body>` down, every element x with
//!   CTD(x) ≥ τ contributes the largest-DensitySum element of its subtree
//!   as content (its ancestors become containers), and only such x are
//!   descended into;
//! * the output is the content subtrees plus the text directly inside
//!   containers.
//!
//! The simple-TD variant ([`Density::Simple`], `cetd-td`) uses
//! TD = C′/T (C′: non-link characters) and DensitySum = Σ children's TD +
//! the positive part of (C′ − Σ children's C′), with the same threshold and
//! marking.
//!
//! Cost: every element reads its children once, bottom-up in reverse
//! document order, and the marking visits every element at most once: O(n).
//! CETD has no tuned constants.

use super::{Algorithm, Param, Params, Selection};
use crate::Error;
use crate::annotate::Page;
use crate::dom::{NodeId, NodeKind, Tag};

/// Which density CETD ranks elements by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Density {
    /// Composite text density (CTD) and its DensitySum (`cetd`).
    Composite,
    /// Simple text density C′/T (`cetd-td`).
    Simple,
}

/// The CETD algorithm.
#[derive(Clone, Debug)]
pub struct Cetd {
    /// Which density.
    pub density: Density,
}

/// The parameters (`unchaff algorithms --params`).
pub const PARAMS: &[Param] = &[];

pub(super) fn build(_p: &mut Params) -> Result<Box<dyn Algorithm>, Error> {
    Ok(Box::new(Cetd {
        density: Density::Composite,
    }))
}

pub(super) fn build_td(_p: &mut Params) -> Result<Box<dyn Algorithm>, Error> {
    Ok(Box::new(Cetd {
        density: Density::Simple,
    }))
}

/// Link elements of CETD: their characters and tags are all link
/// characters and link tags. (The cleaner drops `button` and `select`
/// already; the rule is kept so that CETD stays CETD on any tree.)
pub const LINK_TAGS: &[Tag] = &[Tag::A, Tag::BUTTON, Tag::SELECT];

/// CETD's per-element counts, indexed by node index (zero outside the
/// root's subtree and for text nodes).
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// C: characters.
    pub c: Vec<f64>,
    /// T: descendant elements, the element itself excluded.
    pub t: Vec<f64>,
    /// LC: link characters.
    pub lc: Vec<f64>,
    /// LT: link tags.
    pub lt: Vec<f64>,
    /// ρ = LC_body / C_body (0 on a page without text).
    pub rho: f64,
}

/// Computes C, T, LC, LT of every element and ρ, children before parents.
pub fn counts(page: &Page<'_>) -> Counts {
    let n = page.dom.len();
    let mut k = Counts {
        c: vec![0.0; n],
        t: vec![0.0; n],
        lc: vec![0.0; n],
        lt: vec![0.0; n],
        rho: 0.0,
    };
    let dom = page.dom;
    for &v in page.elements.iter().rev() {
        let i = v.index();
        let s = page.stats(v);
        k.c[i] = f64::from(s.chars);
        k.t[i] = f64::from(s.elements.saturating_sub(1));
        let is_link = dom.tag(v).is_some_and(|t| LINK_TAGS.contains(&t));
        if is_link {
            k.lc[i] = k.c[i];
            k.lt[i] = k.t[i];
            continue;
        }
        let (mut lc, mut lt) = (0.0, 0.0);
        for ch in dom.children(v) {
            let Some(tag) = dom.tag(ch) else { continue };
            let j = ch.index();
            lc += k.lc[j];
            lt += k.lt[j];
            let child_is_link = LINK_TAGS.contains(&tag);
            // A non-link child made only of links counts as one link tag.
            // "All link text" holds vacuously for a child without text
            // (`<li><a><img></a></li>`).
            let all_link = k.lc[j] == k.c[j] && k.lt[j] == k.t[j] && k.t[j] != 0.0;
            if child_is_link || all_link {
                lt += 1.0;
            }
        }
        k.lc[i] = lc;
        k.lt[i] = lt;
    }
    let r = page.root.index();
    if k.c[r] > 0.0 {
        k.rho = k.lc[r] / k.c[r];
    }
    k
}

/// 1 where `x` is 0 (CETD's convention for zero counts and denominators).
#[inline]
fn one_if_zero(x: f64) -> f64 {
    if x == 0.0 { 1.0 } else { x }
}

/// CTD of element `i` (ALGORITHMS.md#reference-algorithms): 0 without text, may be
/// negative for link-heavy elements (not clamped).
pub fn ctd(k: &Counts, i: usize) -> f64 {
    let c = k.c[i];
    if c == 0.0 {
        return 0.0;
    }
    let nlc = one_if_zero(c - k.lc[i]);
    let (t, lc, lt) = (
        one_if_zero(k.t[i]),
        one_if_zero(k.lc[i]),
        one_if_zero(k.lt[i]),
    );
    let num = (c / t) * ((c * t) / (lc * lt)).ln();
    let den = one_if_zero((c * lc / nlc + k.rho * c + std::f64::consts::E).ln().ln());
    num / den
}

/// The weight of a run of L characters of text directly inside an element:
/// L · ln L / ln ln(ρ·L + e) (1 for a zero denominator).
pub fn text_run_weight(l: f64, rho: f64) -> f64 {
    if l <= 0.0 {
        return 0.0;
    }
    let den = one_if_zero((rho * l + std::f64::consts::E).ln().ln());
    l * l.ln() / den
}

/// Per-element density and DensitySum, indexed by node index.
pub struct Densities {
    /// CTD (or TD for the simple variant).
    pub density: Vec<f64>,
    /// DensitySum.
    pub sum: Vec<f64>,
}

impl Cetd {
    /// The density and DensitySum of every element.
    pub fn densities(&self, page: &Page<'_>) -> Densities {
        let k = counts(page);
        let n = page.dom.len();
        let dom = page.dom;
        let mut density = vec![0.0; n];
        let mut sum = vec![0.0; n];
        // C′ = non-link characters (simple variant).
        let c_prime = |i: usize| (k.c[i] - k.lc[i]).max(0.0);
        for &v in page.elements.iter().rev() {
            let i = v.index();
            density[i] = match self.density {
                Density::Composite => ctd(&k, i),
                Density::Simple => c_prime(i) / one_if_zero(k.t[i]),
            };
            match self.density {
                Density::Composite => {
                    let mut has_element_child = false;
                    let mut s = 0.0;
                    let mut run = 0.0;
                    for ch in dom.children(v) {
                        match dom.node(ch).kind {
                            NodeKind::Element(_) => {
                                has_element_child = true;
                                s += density[ch.index()];
                                s += text_run_weight(run, k.rho);
                                run = 0.0;
                            }
                            NodeKind::Text { .. } => run += f64::from(page.stats(ch).chars),
                            _ => {}
                        }
                    }
                    s += text_run_weight(run, k.rho);
                    sum[i] = if has_element_child { s } else { density[i] };
                }
                Density::Simple => {
                    let mut s = 0.0;
                    let mut child_c = 0.0;
                    for ch in dom.children(v) {
                        if dom.tag(ch).is_some() {
                            s += density[ch.index()];
                            child_c += c_prime(ch.index());
                        }
                    }
                    sum[i] = s + (c_prime(i) - child_c).max(0.0);
                }
            }
        }
        Densities { density, sum }
    }
}

impl Algorithm for Cetd {
    fn reads_source(&self) -> bool {
        false
    }

    fn name(&self) -> &'static str {
        match self.density {
            Density::Composite => "cetd",
            Density::Simple => "cetd-td",
        }
    }

    fn run(&self, page: &Page<'_>) -> Selection {
        if page.elements.is_empty() {
            return Selection::default();
        }
        let dom = page.dom;
        let root = page.root;
        let d = self.densities(page);
        // At the deadline, stop between phases (the extractor reports it).
        if page.deadline.expired() {
            return Selection::default();
        }
        let n = dom.len();

        // The element of largest DensitySum in each subtree, first in
        // document order on ties: the element itself, then its children's
        // winners in child order.
        let mut best_in: Vec<NodeId> = vec![NodeId::NONE; n];
        for &v in page.elements.iter().rev() {
            let mut best = v;
            for ch in dom.children(v) {
                if dom.tag(ch).is_some() {
                    let b = best_in[ch.index()];
                    if d.sum[b.index()] > d.sum[best.index()] {
                        best = b;
                    }
                }
            }
            best_in[v.index()] = best;
        }

        // τ: the least density on the path from the global winner to body.
        let top = best_in[root.index()];
        let mut tau = f64::INFINITY;
        let mut cur = top;
        loop {
            tau = tau.min(d.density[cur.index()]);
            if cur == root {
                break;
            }
            cur = dom.node(cur).parent;
            if cur.is_none() {
                break;
            }
        }

        const NONE: u8 = 0;
        const CONTAINER: u8 = 1;
        const CONTENT: u8 = 2;
        let mut mark = vec![NONE; n];
        let mark_content = |b: NodeId, mark: &mut Vec<u8>| {
            mark[b.index()] = CONTENT;
            // Ancestors become containers; stop at the first that already
            // is one (its own ancestors are), so the total work is O(n).
            let mut a = b;
            while a != root {
                a = dom.node(a).parent;
                if a.is_none() || mark[a.index()] == CONTAINER {
                    break;
                }
                if mark[a.index()] == NONE {
                    mark[a.index()] = CONTAINER;
                }
            }
        };
        mark_content(top, &mut mark);
        let mut stack = vec![root];
        while let Some(x) = stack.pop() {
            if mark[x.index()] == CONTENT || d.density[x.index()] < tau {
                continue;
            }
            mark_content(best_in[x.index()], &mut mark);
            if mark[x.index()] == CONTENT {
                continue;
            }
            let before = stack.len();
            stack.extend(dom.children(x).filter(|&c| dom.tag(c).is_some()));
            stack[before..].reverse();
        }

        // Output: content subtrees whole; the direct text of containers.
        let mut nodes = Vec::new();
        let mut stack = vec![root];
        while let Some(x) = stack.pop() {
            match mark[x.index()] {
                CONTENT => nodes.push(x),
                CONTAINER => {
                    let before = stack.len();
                    for c in dom.children(x) {
                        match dom.node(c).kind {
                            NodeKind::Element(_) => stack.push(c),
                            NodeKind::Text { .. } if page.stats(c).text_nodes > 0 => nodes.push(c),
                            _ => {}
                        }
                    }
                    stack[before..].reverse();
                }
                _ => {}
            }
        }
        let scores = d.density.iter().map(|&x| x as f32).collect();
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
    use crate::algorithms::testutil::{find, page_of};
    use crate::parse::parse;
    use crate::render;

    #[test]
    fn counts_and_ctd_by_hand() {
        // body( p("aaaaaaaaaa" a("bbbbb")) ul( li(a("cc")) li(a("dd")) ) )
        let dom = parse(
            "<body><p>aaaaaaaaaa<a>bbbbb</a></p><ul><li><a>cc</a></li><li><a>dd</a></li></ul></body>",
        );
        let page = page_of(&dom);
        let k = counts(&page);
        let (p, ul, li) = (
            find(&dom, Tag::P, 0),
            find(&dom, Tag::UL, 0),
            find(&dom, Tag::LI, 0),
        );
        let body = page.root;
        // p: C = 15, T = 1 (the a), LC = 5, LT = 1 (a link child).
        assert_eq!((k.c[p.index()], k.t[p.index()]), (15.0, 1.0));
        assert_eq!((k.lc[p.index()], k.lt[p.index()]), (5.0, 1.0));
        // li: C = 2, T = 1, LC = 2, LT = 1. ul: C = 4, T = 4, LC = 4,
        // LT = 1 + 1 (children's LT) + 2 (each li is all links, LT = T = 1).
        assert_eq!(k.lt[li.index()], 1.0);
        assert_eq!(
            (k.t[ul.index()], k.lc[ul.index()], k.lt[ul.index()]),
            (4.0, 4.0, 4.0)
        );
        // body: C = 19, T = 7, LC = 9, LT = 1 + 4 (children's) + 1 (ul is
        // all links, LT = T = 4) = 6; p is not all links.
        assert_eq!(k.lt[body.index()], 6.0);
        assert!((k.rho - 9.0 / 19.0).abs() < 1e-12);
        // CTD(p) = (15/1)·ln(15·1/(5·1)) / ln ln(15·5/10 + ρ·15 + e)
        //        = 15·ln 3 / ln ln(7.5 + 7.10526… + 2.71828…)
        //        = 16.4792 / ln ln 17.32354… = 16.4792 / ln 2.85207… = 16.4792 / 1.04804…
        //        ≈ 15.7238
        let want = 15.0 * 3f64.ln() / (7.5 + 15.0 * 9.0 / 19.0 + std::f64::consts::E).ln().ln();
        assert!((ctd(&k, p.index()) - want).abs() < 1e-9);
        assert!((ctd(&k, p.index()) - 15.7238).abs() < 1e-3);
        // CTD(ul): nLC = 0 → 1; (4/4)·ln(16/16) = 0.
        assert_eq!(ctd(&k, ul.index()), 0.0);
    }

    #[test]
    fn density_sum_by_hand() {
        // div: text "hello world" (11) then p("abc") then text "xy" (2).
        // No links: ρ = 0, every ln ln(0·L + e) = 0 → denominator 1.
        let dom = parse("<body><div>hello world<p>abc</p>xy</div></body>");
        let page = page_of(&dom);
        let d = Cetd {
            density: Density::Composite,
        }
        .densities(&page);
        let (div, p) = (find(&dom, Tag::DIV, 0), find(&dom, Tag::P, 0));
        // CTD(p): C = 3, T = 0→1, LC = LT = 0→1, nLC = 3:
        // (3/1)·ln(3) / ln ln(3·1/3 + 0 + e) = 3 ln 3 / ln ln(1 + e)
        //   = 3.29584 / ln 1.31326 = 3.29584 / 0.27251 ≈ 12.094
        let ctd_p = 3.0 * 3f64.ln() / (1.0 + std::f64::consts::E).ln().ln();
        assert!((d.density[p.index()] - ctd_p).abs() < 1e-9);
        assert!((ctd_p - 12.094).abs() < 1e-3);
        // DensitySum(div) = CTD(p) + 11·ln 11 + 2·ln 2 = 12.094 + 26.377 + 1.386 ≈ 39.857
        let want = ctd_p + 11.0 * 11f64.ln() + 2.0 * 2f64.ln();
        assert!((d.sum[div.index()] - want).abs() < 1e-9);
        // A childless element's DensitySum is its CTD.
        assert_eq!(d.sum[p.index()], d.density[p.index()]);
    }

    #[test]
    fn simple_td_by_hand() {
        // div: "abcdef" (6) + p("xyz" + a("ab")); C′(div) = 9, T(div) = 2.
        let dom = parse("<body><div>abcdef<p>xyz<a>ab</a></p></div></body>");
        let page = page_of(&dom);
        let d = Cetd {
            density: Density::Simple,
        }
        .densities(&page);
        let (div, p) = (find(&dom, Tag::DIV, 0), find(&dom, Tag::P, 0));
        // TD(p) = 3/1 = 3; TD(div) = 9/2 = 4.5.
        assert_eq!(d.density[p.index()], 3.0);
        assert_eq!(d.density[div.index()], 4.5);
        // DensitySum(div) = TD(p) + (9 − 3) = 9.
        assert_eq!(d.sum[div.index()], 9.0);
    }

    #[test]
    fn extracts_the_article_and_container_text() {
        let para = "This is a long sentence of article text that goes on. ".repeat(4);
        let html = format!(
            "<body><div id=nav><ul><li><a>Home</a></li><li><a>News</a></li><li><a>Sport</a></li></ul></div>\
             <div id=main><h1>Title</h1><p>{para}</p><p>{para}</p><p>{para}</p></div>\
             <div id=foot><a>About</a> <a>Contact</a></div></body>"
        );
        let dom = parse(&html);
        let page = page_of(&dom);
        for density in [Density::Composite, Density::Simple] {
            let sel = Cetd { density }.run(&page);
            let text = render::text(&dom, page.root, &sel);
            assert!(text.contains("article text"), "{density:?}: {text}");
            assert!(!text.contains("Sport"), "{density:?}: {text}");
            assert!(!text.contains("Contact"), "{density:?}: {text}");
        }
    }

    #[test]
    fn empty_body() {
        let dom = parse("<body></body>");
        let page = page_of(&dom);
        let sel = Cetd {
            density: Density::Composite,
        }
        .run(&page);
        assert_eq!(sel.nodes, vec![page.root]);
    }
}
