//! Paper 5's leaf-level evaluation (ALGORITHMS.md#leaf-level-evaluation): every text
//! leaf of a page labelled from the gold text by the 4-gram rule, and
//! counted as extracted or not. It reads a page's annotated tree and the
//! algorithm's selection through [`unchaff::Extractor::extract_with`].

use unchaff::Inspection;
use unchaff::algorithms::Selection;
use unchaff::algorithms::template_svm::{GoldGrams, tokens};
use unchaff::annotate::Page;

/// Leaf-level counts of one page, paper 5's evaluation
/// (ALGORITHMS.md#leaf-level-evaluation): a leaf is a counted text node with tokens; its gold label is
/// `GoldGrams::label` of its own tokens against the gold text (a leaf
/// thereby inherits what the 4-gram rule gives its text, as a block's own
/// text does); it is extracted when it lies inside a selected node, or —
/// for algorithms that return text rather than nodes (CETR) — when the
/// same rule, read against the output text instead of the gold, calls it
/// content.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeafCounts {
    /// Content leaves extracted.
    pub tp: usize,
    /// Noise leaves extracted.
    pub fp: usize,
    /// Content leaves not extracted.
    pub fn_: usize,
    /// Noise leaves not extracted.
    pub tn: usize,
}

impl LeafCounts {
    /// Precision, recall and F1 of the page: tp / (tp + fp) and tp /
    /// (tp + fn), each 0 when its denominator is; a page with no content
    /// leaf and nothing extracted scores (1, 1, 1).
    pub fn prf(&self) -> (f64, f64, f64) {
        if self.tp + self.fp + self.fn_ == 0 {
            return (1.0, 1.0, 1.0);
        }
        let ratio = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        let p = ratio(self.tp, self.tp + self.fp);
        let r = ratio(self.tp, self.tp + self.fn_);
        let f = if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        };
        (p, r, f)
    }

    /// Counts one leaf.
    pub fn add(&mut self, gold: bool, extracted: bool) {
        match (gold, extracted) {
            (true, true) => self.tp += 1,
            (false, true) => self.fp += 1,
            (true, false) => self.fn_ += 1,
            (false, false) => self.tn += 1,
        }
    }
}

/// The [`LeafCounts`] of `page` for an algorithm's `selection` against
/// `gold`. One pass over the content root's subtree marks the nodes inside
/// a selected node (a parent precedes its children in document order).
pub fn leaf_counts(page: &Page<'_>, selection: &Selection, gold: &str) -> LeafCounts {
    let dom = page.dom;
    let grams = GoldGrams::new(gold);
    let output = selection.text.as_deref().map(GoldGrams::new);
    let marked = selection.marks(dom.len());
    let mut inside = vec![false; dom.len()];
    // The root counts as inside when it or an ancestor is selected.
    let mut a = page.root;
    while !a.is_none() {
        if marked[a.index()] {
            inside[page.root.index()] = true;
            break;
        }
        a = dom.node(a).parent;
    }
    for id in dom.descendants(page.root).skip(1) {
        let parent = dom.node(id).parent;
        inside[id.index()] = marked[id.index()] || inside[parent.index()];
    }
    let mut counts = LeafCounts::default();
    let mut toks = Vec::new();
    for t in &page.texts {
        toks.clear();
        tokens(dom.text_of(t.node).unwrap_or(""), &mut toks);
        let Some(gold_label) = grams.label(&toks) else {
            continue;
        };
        let extracted = match &output {
            Some(o) => o.label(&toks) == Some(true),
            None => inside[t.node.index()],
        };
        counts.add(gold_label, extracted);
    }
    counts
}

/// The [`LeafCounts`] of one inspected extraction: [`leaf_counts`] over the
/// page, plus the leaves a site template deleted before the algorithm ran
/// (counted as not extracted).
pub fn inspection_counts(i: &Inspection<'_, '_>, gold: &str) -> LeafCounts {
    let mut c = leaf_counts(i.page, i.selection, gold);
    if !i.removed.is_empty() {
        let dom = i.page.dom;
        let grams = GoldGrams::new(gold);
        let mut toks = Vec::new();
        for &h in i.removed {
            for n in dom.children(h) {
                toks.clear();
                tokens(dom.text_of(n).unwrap_or(""), &mut toks);
                if let Some(l) = grams.label(&toks) {
                    c.add(l, false);
                }
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use unchaff::annotate::annotate;
    use unchaff::dom::{NodeId, Tag};
    use unchaff::parse::parse;

    /// A page of four leaves: a title, a two-leaf paragraph and a nav link.
    const LEAF_PAGE: &str = "<body><h1>A quiet harbour town</h1>\
        <div id=d><p>Boats come in at dawn <b>every single day</b></p></div>\
        <nav><a href=/>Home page link</a></nav></body>";

    /// The gold of [`LEAF_PAGE`]: the title and the paragraph.
    const LEAF_GOLD: &str = "A quiet harbour town\nBoats come in at dawn every single day";

    fn element(dom: &unchaff::dom::Dom, tag: Tag) -> NodeId {
        dom.descendants(dom.content_root())
            .find(|&n| dom.tag(n) == Some(tag))
            .unwrap()
    }

    #[test]
    fn leaf_counts_by_hand() {
        let dom = parse(LEAF_PAGE);
        let root = dom.content_root();
        let page = annotate(&dom, "", root);
        // Leaves: the h1 text, "Boats come in at dawn", "every single
        // day", "Home page link"; gold labels: content, content, content,
        // noise.
        assert_eq!(page.texts.len(), 4);
        // The div selected: the two paragraph leaves inside it are
        // extracted (the <b> one through two levels), the title missed.
        let div = Selection {
            nodes: vec![element(&dom, Tag::DIV)],
            ..Selection::default()
        };
        let c = leaf_counts(&page, &div, LEAF_GOLD);
        assert_eq!((c.tp, c.fp, c.fn_, c.tn), (2, 0, 1, 1));
        let (p, r, f) = c.prf();
        assert_eq!((p, r), (1.0, 2.0 / 3.0));
        assert!((f - 0.8).abs() < 1e-12);
        // The whole body: everything extracted, the nav link is a false
        // positive.
        let all = Selection {
            nodes: vec![root],
            ..Selection::default()
        };
        let c = leaf_counts(&page, &all, LEAF_GOLD);
        assert_eq!((c.tp, c.fp, c.fn_, c.tn), (3, 1, 0, 0));
        // The <html> element, an ancestor of the root, selects all too.
        let html = Selection {
            nodes: vec![dom.node(root).parent],
            ..Selection::default()
        };
        assert_eq!(leaf_counts(&page, &html, LEAF_GOLD), c);
        // Nothing selected: recall 0, precision 0 by convention.
        let c = leaf_counts(&page, &Selection::default(), LEAF_GOLD);
        assert_eq!((c.tp, c.fp, c.fn_, c.tn), (0, 0, 3, 1));
        assert_eq!(c.prf(), (0.0, 0.0, 0.0));
        // A text output (CETR): a leaf is extracted when the 4-gram rule
        // finds it in the text; "every single day" is not there.
        let text = Selection {
            text: Some("A quiet harbour town\nBoats come in at dawn\nHome page link".into()),
            ..Selection::default()
        };
        let c = leaf_counts(&page, &text, LEAF_GOLD);
        assert_eq!((c.tp, c.fp, c.fn_, c.tn), (2, 1, 1, 0));
        // No content leaf and nothing extracted: a perfect page.
        let c = leaf_counts(&page, &Selection::default(), "unrelated words only here");
        assert_eq!((c.tp, c.fp, c.fn_, c.tn), (0, 0, 0, 4));
        assert_eq!(c.prf(), (1.0, 1.0, 1.0));
    }
}
