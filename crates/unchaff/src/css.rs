//! CSS selectors over the arena [`Dom`]: what [`crate::Options::exclude`]
//! and [`crate::Options::include`] match.
//!
//! **Unstable:** public only with the `unstable` feature, for the tools
//! of the unchaff workspace; may change in any release. See the crate
//! docs' *Stability* (what the root re-exports from here is stable).
//!
//! Matching is Servo's engine (the `selectors` crate, parsing by
//! `cssparser`); this module only adapts the tree to its
//! [`selectors::Element`] trait. What browsers' `querySelectorAll`
//! understands works: type, class, id and attribute selectors (with
//! every operator and the `i` flag), the combinators, the structural
//! pseudo-classes (`:first-child`, `:nth-child(2n+1 of .x)`, `:empty`,
//! `:root`, …), `:not()`, `:is()`, `:where()` and `:has()`. Pseudo-classes
//! of state (`:hover`, `:visited`) and pseudo-elements mean nothing in a
//! page without a browser and are refused when parsed.

use std::borrow::Borrow;
use std::fmt;

use cssparser::ToCss;
use precomputed_hash::PrecomputedHash;
use selectors::attr::{AttrSelectorOperation, CaseSensitivity, NamespaceConstraint};
use selectors::bloom::BloomFilter;
use selectors::matching::{
    ElementSelectorFlags, MatchingContext, MatchingForInvalidation, MatchingMode,
    NeedsSelectorFlags, QuirksMode, SelectorCaches,
};
use selectors::parser::{ParseRelative, SelectorParseErrorKind};
use selectors::{OpaqueElement, SelectorList};

use crate::Error;
use crate::dom::{Dom, Edge, NodeId, NodeKind, Ns};
use crate::limits::{Deadline, Stage};

/// The namespace URL of HTML elements.
const HTML_NS: &str = "http://www.w3.org/1999/xhtml";
/// The namespace URL of SVG elements.
const SVG_NS: &str = "http://www.w3.org/2000/svg";
/// The namespace URL of MathML elements.
const MATHML_NS: &str = "http://www.w3.org/1998/Math/MathML";

/// Elements matched between two looks at the clock: matching a selector
/// is microseconds, and `:has()` over a deep page can take longer.
const DEADLINE_EVERY: usize = 1024;

/// A string of a selector (an identifier, an attribute value, a name).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CssString(String);

impl From<&str> for CssString {
    fn from(s: &str) -> CssString {
        CssString(s.to_owned())
    }
}

impl AsRef<str> for CssString {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for CssString {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl ToCss for CssString {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        cssparser::serialize_identifier(&self.0, dest)
    }
}

impl PrecomputedHash for CssString {
    /// Only read by the bloom filter, which this module does not use:
    /// any stable hash of the string does.
    fn precomputed_hash(&self) -> u32 {
        self.0.bytes().fold(0x811c_9dc5u32, |h, b| {
            (h ^ b as u32).wrapping_mul(0x0100_0193)
        })
    }
}

/// Neither a pseudo-class of state nor a pseudo-element can be written
/// (the parser refuses them): a type without values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Never {}

impl ToCss for Never {
    fn to_css<W: fmt::Write>(&self, _: &mut W) -> fmt::Result {
        match *self {}
    }
}

impl selectors::parser::NonTSPseudoClass for Never {
    fn is_active_or_hover(&self) -> bool {
        match *self {}
    }
    fn is_user_action_state(&self) -> bool {
        match *self {}
    }
}

impl selectors::parser::PseudoElement for Never {}

/// The selector dialect: strings for every name, nothing of state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Css;

impl selectors::SelectorImpl for Css {
    type ExtraMatchingData<'a> = ();
    type AttrValue = CssString;
    type Identifier = CssString;
    type LocalName = CssString;
    type NamespaceUrl = CssString;
    type NamespacePrefix = CssString;
    type BorrowedNamespaceUrl = str;
    type BorrowedLocalName = str;
    type NonTSPseudoClass = Never;
    type PseudoElement = Never;
}

/// The parser's settings: `:is()`, `:where()`, `:has()` and
/// `:nth-child(… of S)` on.
struct CssParser;

impl<'i> selectors::parser::Parser<'i> for CssParser {
    type Impl = Css;
    type Error = SelectorParseErrorKind;

    fn parse_is_and_where(&self) -> bool {
        true
    }

    fn parse_has(&self) -> bool {
        true
    }

    fn parse_nth_child_of(&self) -> bool {
        true
    }
}

/// One element of a page, as the matching engine sees it.
#[derive(Clone, Copy)]
struct El<'a> {
    dom: &'a Dom,
    /// Each node's previous sibling, built once per page (the tree keeps
    /// only forward links once built; walking the siblings for each
    /// `+`, `~` or `:nth-child` would be quadratic in a long list).
    prev: &'a [NodeId],
    id: NodeId,
}

impl fmt::Debug for El<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "El({})", self.id.0)
    }
}

impl<'a> El<'a> {
    fn at(&self, id: NodeId) -> El<'a> {
        El { id, ..*self }
    }

    fn element(&self, id: NodeId) -> Option<El<'a>> {
        id.some()
            .filter(|&n| self.dom.element(n).is_some())
            .map(|n| self.at(n))
    }

    fn ns(&self) -> Ns {
        self.dom.element(self.id).map_or(Ns::Other, |e| e.ns)
    }

    fn attr(&self, name: &str) -> Option<&'a str> {
        self.dom.attr(self.id, name)
    }
}

impl selectors::Element for El<'_> {
    type Impl = Css;

    fn opaque(&self) -> OpaqueElement {
        OpaqueElement::new(&self.dom.nodes[self.id.index()])
    }

    fn parent_element(&self) -> Option<Self> {
        self.element(self.dom.node(self.id).parent)
    }

    fn parent_node_is_shadow_root(&self) -> bool {
        false
    }

    fn containing_shadow_host(&self) -> Option<Self> {
        None
    }

    fn is_pseudo_element(&self) -> bool {
        false
    }

    fn prev_sibling_element(&self) -> Option<Self> {
        let mut n = self.prev.get(self.id.index()).copied()?;
        while let Some(p) = n.some() {
            if self.dom.element(p).is_some() {
                return Some(self.at(p));
            }
            n = self.prev.get(p.index()).copied()?;
        }
        None
    }

    fn next_sibling_element(&self) -> Option<Self> {
        let mut n = self.dom.node(self.id).next_sibling;
        while let Some(s) = n.some() {
            if self.dom.element(s).is_some() {
                return Some(self.at(s));
            }
            n = self.dom.node(s).next_sibling;
        }
        None
    }

    fn first_element_child(&self) -> Option<Self> {
        self.dom
            .children(self.id)
            .find(|&c| self.dom.element(c).is_some())
            .map(|c| self.at(c))
    }

    fn is_html_element_in_html_document(&self) -> bool {
        self.ns() == Ns::Html
    }

    fn has_local_name(&self, name: &str) -> bool {
        self.dom
            .element_name(self.id)
            .is_some_and(|(_, local)| local == name)
    }

    fn has_namespace(&self, ns: &str) -> bool {
        match self.ns() {
            Ns::Html => ns == HTML_NS,
            Ns::Svg => ns == SVG_NS,
            Ns::MathMl => ns == MATHML_NS,
            Ns::Other => self.dom.element_name(self.id).is_some_and(|(n, _)| n == ns),
        }
    }

    fn is_same_type(&self, other: &Self) -> bool {
        self.dom.element_name(self.id) == other.dom.element_name(other.id)
    }

    fn attr_matches(
        &self,
        ns: &NamespaceConstraint<&CssString>,
        local_name: &CssString,
        operation: &AttrSelectorOperation<&CssString>,
    ) -> bool {
        // The tree keeps attributes without namespaces (an HTML page's
        // are in none): `[foo|bar]` with a namespace matches nothing.
        if let NamespaceConstraint::Specific(url) = ns
            && !url.0.is_empty()
        {
            return false;
        }
        self.attr(&local_name.0)
            .is_some_and(|v| operation.eval_str(v))
    }

    fn match_non_ts_pseudo_class(&self, pc: &Never, _: &mut MatchingContext<'_, Css>) -> bool {
        match *pc {}
    }

    fn match_pseudo_element(&self, pe: &Never, _: &mut MatchingContext<'_, Css>) -> bool {
        match *pe {}
    }

    fn apply_selector_flags(&self, _: ElementSelectorFlags) {}

    fn is_link(&self) -> bool {
        self.ns() == Ns::Html
            && self
                .dom
                .element_name(self.id)
                .is_some_and(|(_, n)| matches!(n, "a" | "area" | "link"))
            && self.attr("href").is_some()
    }

    fn is_html_slot_element(&self) -> bool {
        false
    }

    fn has_id(&self, id: &CssString, case: CaseSensitivity) -> bool {
        self.attr("id")
            .is_some_and(|v| case.eq(v.as_bytes(), id.0.as_bytes()))
    }

    fn has_class(&self, name: &CssString, case: CaseSensitivity) -> bool {
        self.attr("class").is_some_and(|v| {
            v.split_ascii_whitespace()
                .any(|c| case.eq(c.as_bytes(), name.0.as_bytes()))
        })
    }

    fn has_custom_state(&self, _: &CssString) -> bool {
        false
    }

    fn imported_part(&self, _: &CssString) -> Option<CssString> {
        None
    }

    fn is_part(&self, _: &CssString) -> bool {
        false
    }

    fn is_empty(&self) -> bool {
        !self
            .dom
            .children(self.id)
            .any(|c| match self.dom.node(c).kind {
                NodeKind::Element(_) => true,
                NodeKind::Text { start, end } => end > start,
                _ => false,
            })
    }

    fn is_root(&self) -> bool {
        let parent = self.dom.node(self.id).parent;
        parent
            .some()
            .is_some_and(|p| matches!(self.dom.node(p).kind, NodeKind::Document))
    }

    fn add_element_unique_hashes(&self, _: &mut BloomFilter) -> bool {
        false
    }
}

/// Selectors compiled once (when the extractor is built) and matched
/// against every page.
#[derive(Clone)]
pub struct Selectors {
    lists: Vec<SelectorList<Css>>,
}

impl fmt::Debug for Selectors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Selectors({} lists)", self.lists.len())
    }
}

impl Selectors {
    /// Parses each of `sources` (each a selector list, `a, b` allowed);
    /// one that does not parse is [`Error::BadSelector`].
    pub fn parse<S: AsRef<str>>(sources: &[S]) -> Result<Selectors, Error> {
        let mut lists = Vec::with_capacity(sources.len());
        for s in sources {
            let s = s.as_ref();
            let mut parser = cssparser::Parser::new(s);
            let list = parser
                .parse_entirely(|p| SelectorList::parse(&CssParser, p, ParseRelative::No))
                .map_err(|e| Error::BadSelector {
                    selector: s.to_owned(),
                    reason: describe(&e.kind),
                })?;
            let mut cut = CutAttributes(None);
            for sel in list.slice() {
                sel.visit(&mut cut);
            }
            if let Some(name) = cut.0 {
                return Err(Error::BadSelector {
                    selector: s.to_owned(),
                    reason: format!(
                        "the attribute {name:?} is not kept: unchaff's parser drops data-*, \
                         aria-* (but aria-hidden), on* and sizes attributes, which no stage \
                         reads (select by tag, class, id or another attribute)"
                    ),
                });
            }
            lists.push(list);
        }
        Ok(Selectors { lists })
    }

    /// Whether there are no selectors.
    pub fn is_empty(&self) -> bool {
        self.lists.is_empty()
    }

    /// The elements of `root`'s subtree (itself included) that match any
    /// of the selectors, in document order; an element inside a matched
    /// one is not listed again (its ancestor stands for it). Stops with
    /// [`Error::Timeout`] at the deadline.
    pub fn matching(
        &self,
        dom: &Dom,
        root: NodeId,
        deadline: &Deadline,
        stage: Stage,
    ) -> Result<Vec<NodeId>, Error> {
        let mut found = Vec::new();
        if self.lists.is_empty() {
            return Ok(found);
        }
        let prev = previous_siblings(dom);
        let mut caches = SelectorCaches::default();
        let mut cx = MatchingContext::new(
            MatchingMode::Normal,
            None,
            &mut caches,
            QuirksMode::NoQuirks,
            NeedsSelectorFlags::No,
            MatchingForInvalidation::No,
        );
        let mut seen = 0usize;
        // The match whose subtree the walk is in: its elements are not
        // looked at.
        let mut skipping: Option<NodeId> = None;
        for edge in dom.traverse(root) {
            let id = match edge {
                Edge::Leave(id) => {
                    if skipping == Some(id) {
                        skipping = None;
                    }
                    continue;
                }
                Edge::Enter(_) if skipping.is_some() => continue,
                Edge::Enter(id) => id,
            };
            if dom.element(id).is_none() {
                continue;
            }
            seen += 1;
            if seen.is_multiple_of(DEADLINE_EVERY) {
                deadline.check(stage)?;
            }
            let el = El {
                dom,
                prev: &prev,
                id,
            };
            if self
                .lists
                .iter()
                .any(|l| selectors::matching::matches_selector_list(l, &el, &mut cx))
            {
                found.push(id);
                skipping = Some(id);
            }
        }
        Ok(found)
    }
}

/// Finds an attribute selector on an attribute the parser does not keep
/// ([`crate::parse::is_unread_attr`]): it could never match.
struct CutAttributes(Option<String>);

impl selectors::visitor::SelectorVisitor for CutAttributes {
    type Impl = Css;

    fn visit_attribute_selector(
        &mut self,
        _: &NamespaceConstraint<&CssString>,
        name: &CssString,
        _: &CssString,
    ) -> bool {
        if crate::parse::is_unread_attr(name.0.as_bytes()) {
            self.0 = Some(name.0.clone());
            return false;
        }
        true
    }

    fn visit_relative_selector_list(
        &mut self,
        list: &[selectors::parser::RelativeSelector<Css>],
    ) -> bool {
        list.iter().all(|r| r.selector.visit(self))
    }
}

/// Every node's previous sibling ([`NodeId::NONE`] for a first child or
/// an unlinked node), in one pass over the tree's links.
fn previous_siblings(dom: &Dom) -> Vec<NodeId> {
    let mut prev = vec![NodeId::NONE; dom.len()];
    for i in 0..dom.len() {
        let mut last = NodeId::NONE;
        let mut c = dom.nodes[i].first_child;
        while let Some(n) = c.some() {
            prev[n.index()] = last;
            last = n;
            c = dom.node(n).next_sibling;
        }
    }
    prev
}

/// A parse error's kind in words.
fn describe<E: fmt::Debug>(kind: &cssparser::ParseErrorKind<E>) -> String {
    match kind {
        cssparser::ParseErrorKind::Basic(b) => format!("{b}"),
        cssparser::ParseErrorKind::Custom(c) => format!("{c:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn texts(html: &str, css: &str) -> Vec<String> {
        let dom = parse(html);
        let s = Selectors::parse(&[css]).unwrap();
        s.matching(&dom, NodeId(0), &Deadline::NONE, Stage::Annotate)
            .unwrap()
            .iter()
            .map(|&n| {
                dom.descendants(n)
                    .filter_map(|d| dom.text_of(d))
                    .collect::<String>()
            })
            .collect()
    }

    const PAGE: &str = "<html><body><div id=main class='post body'><p>One</p><p class=ad>Ad</p>\
        <p title='a b'>Two</p></div><ul><li>i1</li><li>i2</li><li>i3</li></ul>\
        <p></p></body></html>";

    #[test]
    fn simple_selectors_and_combinators() {
        assert_eq!(texts(PAGE, "#main"), ["OneAdTwo"]);
        assert_eq!(texts(PAGE, ".post.body > p:not(.ad)"), ["One", "Two"]);
        assert_eq!(texts(PAGE, "p + p"), ["Ad", "Two"]);
        assert_eq!(texts(PAGE, ".ad ~ p"), ["Two"]);
        assert_eq!(texts(PAGE, "[title~=b]"), ["Two"]);
        assert_eq!(texts(PAGE, "[title^='A' i]"), ["Two"]);
        assert_eq!(texts(PAGE, "li:nth-child(2n+1)"), ["i1", "i3"]);
        assert_eq!(texts(PAGE, "li:last-child, li:first-child"), ["i1", "i3"]);
        assert_eq!(texts(PAGE, "div:has(> .ad)"), ["OneAdTwo"]);
        assert_eq!(
            texts(PAGE, ":is(ul, div) :where(li, p):first-child"),
            ["One", "i1"]
        );
        assert_eq!(texts(PAGE, "body > p:empty"), [""]);
        assert_eq!(
            texts(PAGE, "DIV#main P.AD").len(),
            0,
            "classes are case-sensitive"
        );
        assert_eq!(texts(PAGE, "DIV#main P.ad"), ["Ad"], "tag names are not");
    }

    #[test]
    fn a_match_inside_a_match_is_listed_once() {
        assert_eq!(texts(PAGE, "div, p"), ["OneAdTwo", ""]);
    }

    #[test]
    fn bad_and_stateful_selectors_are_errors() {
        let cut = [
            "[data-testid=ad]",
            "div:has(> [onclick])",
            "p:not([aria-label])",
        ];
        for bad in ["p[", "a:hover", "p::before", "", "div >", "<p>"]
            .into_iter()
            .chain(cut)
        {
            let e = Selectors::parse(&[bad]).unwrap_err();
            assert!(
                matches!(&e, Error::BadSelector { selector, .. } if selector == bad),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn long_sibling_lists_are_linear() {
        // 20,000 siblings matched with `~` and :nth-last-child: with the
        // sibling table this is instant; walking siblings per node would
        // be 2e8 steps.
        let html = format!("<ul>{}</ul>", "<li class=x>a</li>".repeat(20_000));
        let dom = parse(&html);
        let s = Selectors::parse(&["li.x ~ li:nth-last-child(3)"]).unwrap();
        let found = s
            .matching(&dom, NodeId(0), &Deadline::NONE, Stage::Annotate)
            .unwrap();
        assert_eq!(found.len(), 1);
    }
}
