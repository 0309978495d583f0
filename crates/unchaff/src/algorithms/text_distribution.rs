//! **Text distribution** — Gaussian-smoothed node weights (paper 4, ALGORITHMS.md#text-distribution), a
//! patent; ALGORITHMS.md#text-distribution).
//!
//! * Tree: the elements and text nodes of the content root's subtree
//!   after clean, numbered from 1 in document order *before* pruning
//!   ([`Numbering`]: white-space-only text nodes take a number too, as the
//!   patent's parser makes a text node of whatever lies between two tags);
//!   then every node without a text descendant
//!   (`NodeStats::text_nodes == 0`) is left out. ID(node) in the sibling
//!   sum is this number.
//! * Sentences: a text node's text is cut at `. ! ? 。 ！ ？ ; ； …`
//!   ([`sentence_lengths`]); a sentence's length counts CJK characters,
//!   words and numbers. W(s) = +length, or −length for link text and text
//!   inside a user-interaction element ([`INTERACTIVE`]).
//! * G(d; σ) = exp(−d²/2σ²) / (σ√(2π)), σ = 1 ([`SIGMA_POSITIVE`]) when
//!   the influencing sentence or node weighs > 0, 0.5 ([`SIGMA_NEGATIVE`])
//!   when it weighs < 0.
//! * Text node self weight = Σ_s ( W(s) + Σ_{l≠s} G(ID(s) − ID(l); σ₁)·W(l) ),
//!   ID = the sentence's index in the node.
//! * Container self weight = Σ over its children c of W(c), the child's
//!   *full* weight: W = self + additional, additional =
//!   α Σ_{n ∈ siblings} G(ID(i) − ID(n); σ₂)·self(n) (α = [`ALPHA`]),
//!   clamped to |additional| ≤ |self| with its sign kept.
//! * The content is the node with the largest **self** weight (first in
//!   document order on ties); `html` and `body` are not candidates. Text
//!   nodes compete too (the "node" of ALGORITHMS.md#text-distribution); letting only elements compete
//!   moved l3s-gn1 from 0.887 to 0.891 and the other folders by < 0.001
//!   (docs/RESULTS.md), so we kept the the reading in ALGORITHMS.md#text-distribution.
//!
//! Cost: both Gaussian sums are cut off where the kernel is negligible
//! (|d| > 8σ, [`CUTOFF_SIGMAS`]; G(8σ; σ)/G(0; σ) = e⁻³² ≈ 1.3·10⁻¹⁴), so a
//! sentence sees at most 16 neighbours and a node at most 16 siblings
//! (ids of distinct siblings differ by at least 1). One pass over the text
//! nodes, one walk numbering the tree, one over the elements in reverse
//! document order (children before parents) reading each child once:
//! O(n + text bytes).

use super::{Algorithm, Param, Params, Selection};
use crate::Error;
use crate::annotate::Page;
use crate::dom::{Edge, NodeId, NodeKind, Tag};
pub use crate::text::is_cjk;

/// σ₁ = σ₂ = 1 for an influencing sentence or node of positive weight
/// (paper 4, ALGORITHMS.md#text-distribution), step 2: "对于非链接文字以及权值为正的节点, σ取经验值1").
pub const SIGMA_POSITIVE: f64 = 1.0;

/// σ₁ = σ₂ = 0.5 for link text, text in user-interaction elements and
/// nodes of negative weight (paper 4, ALGORITHMS.md#text-distribution), step 2: "σ取经验值0.5").
pub const SIGMA_NEGATIVE: f64 = 0.5;

/// α = 10, the scale of the siblings' influence, the "additional weight"
/// (paper 4, ALGORITHMS.md#text-distribution), formulas (1) and (2): "α为比例因子, 取经验值10").
pub const ALPHA: f64 = 10.0;

/// Both Gaussian sums ignore distances beyond 8σ (not in the paper; an
/// implementation bound that keeps the sums linear). G(8σ; σ)/G(0; σ) =
/// e⁻³² ≈ 1.3·10⁻¹⁴: no weight changes in its first 12 digits.
pub const CUTOFF_SIGMAS: f64 = 8.0;

/// User-interaction elements whose text weighs negative (ALGORITHMS.md#text-distribution; not
/// `form`, which often wraps a whole page). Clean drops all but `label`
/// already; the rest are listed for pages cleaned differently.
pub const INTERACTIVE: &[Tag] = &[
    Tag::INPUT,
    Tag::BUTTON,
    Tag::SELECT,
    Tag::TEXTAREA,
    Tag::LABEL,
    Tag::OPTION,
];

/// Which text nodes take a document-order number (the ID of the sibling
/// sum; elements always do). The patent numbers every text node its
/// parser creates and says nothing of white space. Chosen by measurement
/// (shingle F1, 2026-11-22): `All` / `Counted` = scrapinghub 0.864 / 0.859,
/// dragnet 0.766 / 0.760, l3s-gn1 0.887 / 0.885, wcxb-dev 0.779 / 0.777,
/// chinese-wce (zh token F1) 0.882 / 0.883.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbering {
    /// Every text node, white-space-only ones included (the default;
    /// `--param numbering=all`): two `<p>` separated by a line break are 3
    /// apart (p, its text, the line break).
    All,
    /// Only counted (not white-space-only) text nodes
    /// (`--param numbering=counted`): the same two `<p>` are 2 apart.
    Counted,
}

/// The text-distribution algorithm.
#[derive(Clone, Debug)]
pub struct TextDistribution {
    /// σ for influences of positive weight.
    pub sigma_positive: f64,
    /// σ for influences of negative weight.
    pub sigma_negative: f64,
    /// α, the scale of the siblings' influence.
    pub alpha: f64,
    /// Which text nodes take a number.
    pub numbering: Numbering,
}

impl Default for TextDistribution {
    fn default() -> Self {
        TextDistribution {
            sigma_positive: SIGMA_POSITIVE,
            sigma_negative: SIGMA_NEGATIVE,
            alpha: ALPHA,
            numbering: Numbering::All,
        }
    }
}

/// The parameters (`unchaff algorithms --params`).
pub const PARAMS: &[Param] = &[
    Param {
        name: "sigma_pos",
        default: "1",
        range: "(0, 1000]",
        meaning: "width of the Gaussian influence of plain text and positive-weight nodes",
    },
    Param {
        name: "sigma_neg",
        default: "0.5",
        range: "(0, 1000]",
        meaning: "width of the Gaussian influence of link text and negative-weight nodes",
    },
    Param {
        name: "alpha",
        default: "10",
        range: "any number",
        meaning: "scale of the siblings\' influence on a node\'s weight",
    },
    Param {
        name: "numbering",
        default: "all",
        range: "all or counted",
        meaning: "which nodes the sentence positions count: all text nodes, or only counted ones",
    },
];

pub(super) fn build(p: &mut Params) -> Result<Box<dyn Algorithm>, Error> {
    let positive_sigma = |p: &mut Params, key: &str, default: f64| -> Result<f64, Error> {
        let v = p.f64(key, default)?;
        // A σ beyond 1000 would make the cut-off window quadratic in
        // practice; it is no longer a local smoothing either.
        if v > 0.0 && v <= 1000.0 {
            Ok(v)
        } else {
            Err(Error::BadParam {
                name: key.to_owned(),
                reason: format!("{v} is not in (0, 1000]"),
            })
        }
    };
    Ok(Box::new(TextDistribution {
        sigma_positive: positive_sigma(p, "sigma_pos", SIGMA_POSITIVE)?,
        sigma_negative: positive_sigma(p, "sigma_neg", SIGMA_NEGATIVE)?,
        alpha: p.f64("alpha", ALPHA)?,
        numbering: match p.take("numbering").as_deref().map(str::trim) {
            None | Some("all") => Numbering::All,
            Some("counted") => Numbering::Counted,
            Some(other) => {
                return Err(Error::BadParam {
                    name: "numbering".to_owned(),
                    reason: format!("{other:?} is not \"all\" or \"counted\""),
                });
            }
        },
    }))
}

/// G(d; σ) = exp(−d²/2σ²) / (σ√(2π)), the normal density of paper 4 (ALGORITHMS.md#text-distribution).
pub fn gaussian(d: f64, sigma: f64) -> f64 {
    (-(d * d) / (2.0 * sigma * sigma)).exp() / (sigma * (2.0 * std::f64::consts::PI).sqrt())
}

/// Whether `c` ends a sentence (ALGORITHMS.md#text-distribution).
fn is_sentence_end(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '。' | '！' | '？' | ';' | '；' | '…')
}

/// Appends to `out` the length of every non-empty sentence of `text`, in
/// order.
///
/// Sentences end at `. ! ? 。 ！ ？ ; ； …`, except a `.` between two
/// digits (a decimal point: "3.14" is one number, not two sentences).
/// A sentence's length is the number of
/// * CJK characters ([`is_cjk`]), each counting 1;
/// * words: maximal runs of other alphanumeric characters
///   (`char::is_alphanumeric`) that contain a letter ("don't" is two
///   words, "mp3" one);
/// * numbers: maximal runs of such characters made of digits only
///   ("2024", "3.14").
///
/// Punctuation, symbols and white space count nothing; a sentence of
/// length 0 (a run of delimiters, "—", "|") is left out and takes no
/// index.
pub fn sentence_lengths(text: &str, out: &mut Vec<u32>) {
    let mut len: u32 = 0;
    let mut in_token = false;
    let mut prev: char = ' ';
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if is_cjk(c) {
            len += 1;
            in_token = false;
        } else if c.is_alphanumeric() {
            if !in_token {
                len += 1;
                in_token = true;
            }
        } else if c == '.'
            && in_token
            && prev.is_ascii_digit()
            && chars.peek().is_some_and(|n| n.is_ascii_digit())
        {
            // A decimal point: the number goes on.
        } else {
            in_token = false;
            if is_sentence_end(c) && len > 0 {
                out.push(len);
                len = 0;
            }
        }
        prev = c;
    }
    if len > 0 {
        out.push(len);
    }
}

/// G(d; σ) for d = 0, 1, …, `cutoff`, and their running sums
/// Σ_{1 ≤ e ≤ d} G(e; σ).
struct Kernel {
    g: Vec<f64>,
    cum: Vec<f64>,
}

impl Kernel {
    fn new(sigma: f64, cutoff: usize) -> Kernel {
        let g: Vec<f64> = (0..=cutoff).map(|d| gaussian(d as f64, sigma)).collect();
        let mut cum = vec![0.0; cutoff + 1];
        for d in 1..=cutoff {
            cum[d] = cum[d - 1] + g[d];
        }
        Kernel { g, cum }
    }
}

/// The kernels of one run: σ for positive and for negative influences.
struct Kernels {
    positive: Kernel,
    negative: Kernel,
    cutoff: usize,
}

impl Kernels {
    fn new(alg: &TextDistribution) -> Kernels {
        let sigma = alg.sigma_positive.max(alg.sigma_negative);
        let cutoff = (CUTOFF_SIGMAS * sigma).ceil().max(1.0) as usize;
        Kernels {
            positive: Kernel::new(alg.sigma_positive, cutoff),
            negative: Kernel::new(alg.sigma_negative, cutoff),
            cutoff,
        }
    }

    /// The kernel for an influence of weight `w`.
    fn of(&self, w: f64) -> &Kernel {
        if w < 0.0 {
            &self.negative
        } else {
            &self.positive
        }
    }
}

/// A text node's self weight from its sentence lengths, all weighing
/// negative (`negative`) or all positive.
///
/// Σ_s ( W(s) + Σ_{l≠s} G(s − l; σ_l)·W(l) ) regroups by the influencing
/// sentence l as Σ_l W(l)·(1 + Σ_{s≠l} G(s − l; σ_l)); the inner sum is
/// two running sums of the kernel (the sentences left of l and right of
/// l, each cut off at 8σ): O(1) per sentence.
fn text_self_weight(lengths: &[u32], negative: bool, k: &Kernels) -> f64 {
    let n = lengths.len();
    let sign = if negative { -1.0 } else { 1.0 };
    let kernel = if negative { &k.negative } else { &k.positive };
    lengths
        .iter()
        .enumerate()
        .map(|(l, &len)| {
            let w = sign * f64::from(len);
            let left = l.min(k.cutoff);
            let right = (n - 1 - l).min(k.cutoff);
            w * (1.0 + kernel.cum[left] + kernel.cum[right])
        })
        .sum()
}

/// A node's additional weight from its siblings (`kids[at]` among `kids`,
/// each `(id, self weight)`, ids increasing), clamped to its self weight.
fn additional(kids: &[(u32, f64)], at: usize, alpha: f64, k: &Kernels) -> f64 {
    let (id, own) = kids[at];
    let mut sum = 0.0;
    for &(nid, w) in kids[..at].iter().rev() {
        let d = (id - nid) as usize;
        if d > k.cutoff {
            break;
        }
        sum += k.of(w).g[d] * w;
    }
    for &(nid, w) in &kids[at + 1..] {
        let d = (nid - id) as usize;
        if d > k.cutoff {
            break;
        }
        sum += k.of(w).g[d] * w;
    }
    let add = alpha * sum;
    if add.abs() > own.abs() {
        own.abs().copysign(add)
    } else {
        add
    }
}

/// Self weights by node index (0 for nodes without text and outside the
/// content root), and the chosen node.
pub struct Weights {
    /// Self weight by node index.
    pub self_weight: Vec<f64>,
    /// The node with the largest self weight (not `html` or `body`).
    pub best: Option<NodeId>,
}

impl TextDistribution {
    /// Self weights of every node with text, and the best candidate.
    pub fn weights(&self, page: &Page<'_>) -> Weights {
        let dom = page.dom;
        let k = Kernels::new(self);
        let mut self_weight = vec![0f64; dom.len()];

        // Inside a user-interaction element: one pass down the elements in
        // document order (parents first), O(elements).
        let mut interactive = vec![false; dom.len()];
        for &v in &page.elements {
            let parent = dom.node(v).parent;
            let inherited = v != page.root && !parent.is_none() && interactive[parent.index()];
            interactive[v.index()] =
                inherited || dom.tag(v).is_some_and(|t| INTERACTIVE.contains(&t));
        }

        // Text nodes: sentences computed once each.
        let mut lengths = Vec::new();
        for t in &page.texts {
            lengths.clear();
            sentence_lengths(dom.text_of(t.node).unwrap_or(""), &mut lengths);
            let parent = dom.node(t.node).parent;
            let negative = t.in_link || (!parent.is_none() && interactive[parent.index()]);
            self_weight[t.node.index()] = text_self_weight(&lengths, negative, &k);
        }

        // Document-order numbers, root = 1 (only differences matter).
        let mut ids = vec![0u32; dom.len()];
        let mut next_id = 0u32;
        for edge in dom.traverse(page.root) {
            let Edge::Enter(x) = edge else { continue };
            let numbered = match dom.node(x).kind {
                NodeKind::Element(_) => true,
                NodeKind::Text { .. } => {
                    self.numbering == Numbering::All || page.stats(x).text_nodes > 0
                }
                _ => false,
            };
            if numbered {
                next_id += 1;
                ids[x.index()] = next_id;
            }
        }

        // Containers, children before parents.
        let mut best: Option<(f64, u32, NodeId)> = None;
        let mut kids: Vec<(u32, f64)> = Vec::new();
        let mut kid_nodes: Vec<NodeId> = Vec::new();
        for &v in page.elements.iter().rev() {
            if page.stats(v).text_nodes == 0 {
                continue; // pruned
            }
            kids.clear();
            kid_nodes.clear();
            for c in dom.children(v) {
                if page.stats(c).text_nodes > 0 {
                    kids.push((ids[c.index()], self_weight[c.index()]));
                    kid_nodes.push(c);
                }
            }
            let mut total = 0.0;
            for (at, &c) in kid_nodes.iter().enumerate() {
                let (cid, own) = kids[at];
                total += own + additional(&kids, at, self.alpha, &k);
                let candidate = match &dom.node(c).kind {
                    NodeKind::Element(e) => e.tag != Tag::HTML && e.tag != Tag::BODY,
                    _ => true,
                };
                let better = match best {
                    None => true,
                    Some((bw, bid, _)) => own > bw || (own == bw && cid < bid),
                };
                if candidate && better {
                    best = Some((own, cid, c));
                }
            }
            self_weight[v.index()] = total;
        }
        Weights {
            self_weight,
            best: best.map(|(_, _, n)| n),
        }
    }
}

impl Algorithm for TextDistribution {
    fn reads_source(&self) -> bool {
        false
    }

    fn name(&self) -> &'static str {
        "text-distribution"
    }

    fn run(&self, page: &Page<'_>) -> Selection {
        if page.elements.is_empty() {
            return Selection::default();
        }
        let w = self.weights(page);
        let scores = w.self_weight.iter().map(|&x| x as f32).collect();
        Selection {
            // No node with text: the (empty) root, as CETD-TPC does.
            nodes: vec![w.best.unwrap_or(page.root)],
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
    use crate::dom::Dom;
    use crate::parse::parse;

    fn first_text(dom: &Dom, v: NodeId) -> NodeId {
        dom.descendants(v)
            .find(|&n| matches!(dom.node(n).kind, NodeKind::Text { .. }))
            .unwrap()
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    // G(1; 1) = 0.2419707245, G(2; 1) = 0.0539909665,
    // G(1; 0.5) = e⁻² / (0.5·√(2π)) = 0.1079819330, G(2; 0.5) = 0.0002676605.
    const G1: f64 = 0.241_970_724_519_143_37;
    const G2: f64 = 0.053_990_966_513_188_06;

    #[test]
    fn gaussian_values() {
        assert!(close(gaussian(1.0, 1.0), G1));
        assert!(close(gaussian(2.0, 1.0), G2));
        assert!(close(gaussian(1.0, 0.5), 0.107_981_933_026_376_13));
    }

    #[test]
    fn sentence_lengths_by_hand() {
        let mut out = Vec::new();
        // "One two" 2 words, "Three four five" 3, "Six" 1; "..." is empty.
        sentence_lengths("One two. Three four five!... Six?", &mut out);
        assert_eq!(out, vec![2, 3, 1]);
        out.clear();
        // 价 格 是 (3 CJK) + "3.5" (one number, no split) + 元 = 5; 好 = 1;
        // "mp3 don't" = mp3 + don + t = 3.
        sentence_lengths("价格是3.5元。好！mp3 don't", &mut out);
        assert_eq!(out, vec![5, 1, 3]);
        out.clear();
        sentence_lengths(" — | ; ", &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn three_sentence_text_node() {
        let dom = parse("<p>One two. Three four five! Six?</p>");
        let page = page_of(&dom);
        let w = TextDistribution::default().weights(&page);
        // Lengths 2, 3, 1, all positive (σ₁ = 1). Grouped by the influencing
        // sentence l: W(l)·(1 + Σ_{s≠l} G(s − l)):
        //   l=0: 2·(1 + G1 + G2), l=1: 3·(1 + 2·G1), l=2: 1·(1 + G1 + G2)
        //   = 6 + 9·G1 + 3·G2 = 8.3397094202.
        let expected = 6.0 + 9.0 * G1 + 3.0 * G2;
        assert!(close(expected, 8.339_709_420_211_854));
        let text = first_text(&dom, find(&dom, Tag::P, 0));
        assert!(close(w.self_weight[text.index()], expected));
        // The p's self weight is its only child's full weight (no siblings:
        // no additional weight).
        let p = find(&dom, Tag::P, 0);
        assert!(close(w.self_weight[p.index()], expected));
        // The p and its text tie; the p comes first in document order.
        assert_eq!(w.best, Some(p));
    }

    #[test]
    fn text_and_link_children() {
        let dom = parse("<div>Alpha beta gamma<a>x y</a></div>");
        let page = page_of(&dom);
        let w = TextDistribution::default().weights(&page);
        let div = find(&dom, Tag::DIV, 0);
        let a = find(&dom, Tag::A, 0);
        // Ids: div d, text d+1, a d+2, a's text d+3.
        // self(text) = 3; self(a) = full(a's text) = −2 (link text).
        assert!(close(w.self_weight[first_text(&dom, div).index()], 3.0));
        assert!(close(w.self_weight[a.index()], -2.0));
        // additional(text) = 10·G(1; 0.5)·(−2) = −2.1596386605 (|·| ≤ 3, kept):
        // full(text) = 0.8403613395.
        // additional(a) = 10·G(1; 1)·3 = 7.259 > |−2|: clamped to +2, full(a) = 0.
        // self(div) = 0.8403613395 + 0.
        assert!(close(w.self_weight[div.index()], 0.840_361_339_472_477_4));
        // The text node (3) beats the div (0.84) and the a (−2).
        assert_eq!(w.best, Some(first_text(&dom, div)));
    }

    #[test]
    fn additional_weight_is_clamped() {
        let dom = parse("<div><p>a b c d</p><p>x</p></div>");
        let page = page_of(&dom);
        let w = TextDistribution::default().weights(&page);
        // Ids: div d, p d+1, text d+2, p d+3, text d+4; the p's are 2 apart.
        // additional(p1) = 10·G(2; 1)·1 = 0.5399 ≤ 4: full(p1) = 4.5399096651.
        // additional(p2) = 10·G(2; 1)·4 = 2.1596 > 1: clamped to 1, full(p2) = 2.
        let div = find(&dom, Tag::DIV, 0);
        assert!(close(w.self_weight[div.index()], 4.0 + 10.0 * G2 + 2.0));
        // Self weights are not smoothed: p1 = 4, p2 = 1.
        assert!(close(w.self_weight[find(&dom, Tag::P, 1).index()], 1.0));
    }

    #[test]
    fn label_text_weighs_negative() {
        let dom = parse("<div><label>Your name</label></div>");
        let page = page_of(&dom);
        let w = TextDistribution::default().weights(&page);
        let div = find(&dom, Tag::DIV, 0);
        assert!(close(w.self_weight[div.index()], -2.0));
    }

    #[test]
    fn content_around_an_ad_block() {
        let para = "Alpha beta gamma delta. Alpha beta gamma delta. Alpha beta gamma delta.";
        let html = format!(
            "<div id=nav><a>Home</a> <a>News</a></div>\
             <div id=main><p>{para}</p><div id=ad><a>Buy now</a> <a>Cheap</a></div><p>{para}</p></div>\
             <div id=foot><a>About us</a></div>"
        );
        let dom = parse(&html);
        let page = page_of(&dom);
        let w = TextDistribution::default().weights(&page);
        let main = find(&dom, Tag::DIV, 1);
        assert_eq!(dom.attr(main, "id"), Some("main"));
        // Ids in main (m): p1 m+1 (text m+2), ad m+3 (a m+4, text m+5,
        // the space m+6, a m+7, text m+8), p2 m+9.
        // self(p) = three sentences of 4: 12 + 16·G1 + 8·G2 = 16.3034593244.
        // ad: a's at distance 3, both negative (σ 0.5, G(3; .5) = 1.215e-8):
        //   full(a1) = −2 + 10·G(3; .5)·(−1), full(a2) = −1 + 10·G(3; .5)·(−2),
        //   self(ad) = −3 − 30·G(3; .5) = −3.0000003646.
        // full(p1) = 16.3035 + 10·(G(2; .5)·(−3.0) + G(8; 1)·16.3) = 16.2954295099.
        // full(ad): 10·(G(2; 1) + G(6; 1))·16.3 = 8.80 > 3.0: clamped, = 0.
        // full(p2) = 16.3034593244 (ad 6 away at σ .5, p1 8 away: ≈ 0).
        // self(main) = 32.5988888343 > self(p) = 16.3: main wins, the
        // smallest node holding both parts.
        let p = find(&dom, Tag::P, 0);
        assert!((w.self_weight[p.index()] - 16.303_459_324_411_797).abs() < 1e-9);
        let ad = find(&dom, Tag::DIV, 2);
        assert!((w.self_weight[ad.index()] + 3.000_000_364_552_971).abs() < 1e-9);
        assert!((w.self_weight[main.index()] - 32.598_888_834_303_58).abs() < 1e-9);
        assert_eq!(w.best, Some(main));
        let sel = TextDistribution::default().run(&page);
        assert_eq!(sel.nodes, vec![main]);
        assert!((f64::from(sel.scores[main.index()]) - 32.598_889).abs() < 1e-4);
    }

    #[test]
    fn white_space_takes_a_number() {
        let dom = parse("<div><p>a b c d</p>\n<p>x</p></div>");
        let page = page_of(&dom);
        let div = find(&dom, Tag::DIV, 0);
        // All: p1 d+1, text d+2, "\n" d+3, p2 d+4: the p's are 3 apart.
        // full(p1) = 4 + 10·G(3; 1)·1 = 4.0443184841,
        // full(p2) = 1 + 10·G(3; 1)·4 = 1.1772739365 (under the clamp).
        let all = TextDistribution::default().weights(&page);
        assert!(close(all.self_weight[div.index()], 5.221_592_420_596_9));
        // Counted: the "\n" has no number, the p's are 2 apart: as in
        // `additional_weight_is_clamped`, 4 + 10·G(2; 1) + 2.
        let counted = TextDistribution {
            numbering: Numbering::Counted,
            ..Default::default()
        }
        .weights(&page);
        assert!(close(counted.self_weight[div.index()], 6.0 + 10.0 * G2));
    }

    #[test]
    fn body_is_no_candidate() {
        let dom = parse("<body>Only text. Here.</body>");
        let page = page_of(&dom);
        let sel = TextDistribution::default().run(&page);
        assert_eq!(sel.nodes, vec![first_text(&dom, dom.body().unwrap())]);
        let empty = parse("<body><img></body>");
        let page = page_of(&empty);
        let sel = TextDistribution::default().run(&page);
        assert_eq!(sel.nodes, vec![empty.body().unwrap()]);
    }

    #[test]
    fn bad_params() {
        let sigma0 = vec![("sigma_pos".to_owned(), "0".to_owned())];
        assert!(matches!(
            super::super::build("text-distribution".parse().unwrap(), &sigma0),
            Err(Error::BadParam { .. })
        ));
        let alpha = vec![("alpha".to_owned(), "5".to_owned())];
        assert!(super::super::build("text-distribution".parse().unwrap(), &alpha).is_ok());
        let numbering = vec![("numbering".to_owned(), "some".to_owned())];
        assert!(matches!(
            super::super::build("text-distribution".parse().unwrap(), &numbering),
            Err(Error::BadParam { .. })
        ));
    }

    /// A multi-megabyte page: 20,000 paragraphs (one wide div), one text
    /// node of 100,000 sentences and a deep chain of 5,000 divs (2.5 MB).
    /// Measured 33 ms for the weights in release (parse takes ~1 s).
    #[test]
    fn large_page_is_linear() {
        let mut html = String::from("<body><div id=wide>");
        for i in 0..20_000 {
            html.push_str(&format!(
                "<p>Paragraph {i} has some words. And a <a href=#>link</a> too!</p>\n"
            ));
        }
        html.push_str("</div><p>");
        for _ in 0..100_000 {
            html.push_str("Short one. ");
        }
        html.push_str("</p>");
        for _ in 0..5_000 {
            html.push_str("<div>x");
        }
        html.push_str("</body>");
        assert!(html.len() > 2_000_000);
        let dom = parse(&html);
        let page = page_of(&dom);
        let start = std::time::Instant::now();
        let sel = TextDistribution::default().run(&page);
        let took = start.elapsed();
        eprintln!("text-distribution on {} bytes: {took:?}", html.len());
        // The 100,000-sentence paragraph (≈ 2·10⁵·(1 + 2·Σ_{d≥1} G(d; 1))
        // = 2·10⁵·1.60) outweighs the wide div (20,000 paragraphs of ≈ 8).
        assert_eq!(sel.nodes.len(), 1);
        assert!(dom.is(sel.nodes[0], Tag::P));
    }
}
