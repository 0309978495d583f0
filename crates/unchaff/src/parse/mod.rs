//! Stage 2, **parse**: UTF-8 text → [`Dom`], with html5ever's HTML5 tree
//! builder (real pages are mis-nested; the tree must be the one a browser
//! builds).
//!
//! The sink writes straight into the arena: no reference-counted nodes, no
//! per-node `String`. Comments, processing instructions and doctypes are
//! never linked into the tree; template contents go to an unlinked
//! fragment node, so they vanish without a cleaning step.

use std::borrow::Cow;
use std::cell::RefCell;

use html5ever::interface::{ElemName, ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{Attribute, LocalName, Namespace, QualName, ns, parse_document};

use crate::dom::{Attr, DOCUMENT, Dom, ElementData, NodeId, NodeKind};

mod prefilter;

pub use prefilter::{MAX_DEPTH, prefilter};

/// Parses a whole document, after the [`prefilter`] (script, style and
/// noscript bodies skipped, nesting capped at [`MAX_DEPTH`]).
pub fn parse(html: &str) -> Dom {
    parse_unfiltered(&prefilter(html))
}

/// Parses a whole document exactly as given.
pub fn parse_unfiltered(html: &str) -> Dom {
    let sink = Sink {
        dom: RefCell::new(Dom::new()),
    };
    let parser = parse_document(sink, Default::default());
    parser.one(StrTendril::from_slice(html))
}

/// An element's full name, handed to the tree builder by value (the arena
/// sits behind a `RefCell`, so no reference into it can be returned).
#[derive(Debug)]
pub struct OwnedName {
    ns: Namespace,
    local: LocalName,
}

impl ElemName for OwnedName {
    fn ns(&self) -> &Namespace {
        &self.ns
    }
    fn local_name(&self) -> &LocalName {
        &self.local
    }
}

struct Sink {
    dom: RefCell<Dom>,
}

impl Sink {
    fn add_text(dom: &mut Dom, parent: NodeId, text: &str) {
        let last = dom.nodes[parent.index()].last_child;
        if !last.is_none() && matches!(dom.nodes[last.index()].kind, NodeKind::Text { .. }) {
            dom.extend_text(last, text);
        } else {
            let t = dom.new_text(text);
            dom.append_child(parent, t);
        }
    }

    fn is_linkable(dom: &Dom, id: NodeId) -> bool {
        !matches!(dom.nodes[id.index()].kind, NodeKind::Other)
    }

    fn push_attrs(dom: &mut Dom, attrs: &[Attribute]) {
        for a in attrs {
            let start = u32::try_from(dom.attr_text.len()).unwrap_or(u32::MAX);
            dom.attr_text.push_str(&a.value);
            let end = u32::try_from(dom.attr_text.len()).unwrap_or(u32::MAX);
            dom.attrs.push(Attr {
                name: a.name.local.clone(),
                start,
                end,
            });
        }
    }
}

impl TreeSink for Sink {
    type Handle = NodeId;
    type Output = Dom;
    type ElemName<'a> = OwnedName;

    fn finish(self) -> Dom {
        self.dom.into_inner()
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> NodeId {
        DOCUMENT
    }

    fn elem_name<'a>(&'a self, target: &'a NodeId) -> OwnedName {
        match &self.dom.borrow().nodes[target.index()].kind {
            NodeKind::Element(e) => OwnedName {
                ns: e.ns.clone(),
                local: e.name.clone(),
            },
            // The tree builder only asks for elements' names.
            _ => OwnedName {
                ns: ns!(),
                local: LocalName::from(""),
            },
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, _: ElementFlags) -> NodeId {
        let mut dom = self.dom.borrow_mut();
        let tag = dom.intern_tag(&name.local);
        let attrs_start = u32::try_from(dom.attrs.len()).unwrap_or(u32::MAX);
        Sink::push_attrs(&mut dom, &attrs);
        dom.push(NodeKind::Element(ElementData {
            tag,
            name: name.local,
            ns: name.ns,
            attrs_start,
            attrs_len: attrs.len() as u32,
        }))
    }

    fn create_comment(&self, _text: StrTendril) -> NodeId {
        self.dom.borrow_mut().push(NodeKind::Other)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> NodeId {
        self.dom.borrow_mut().push(NodeKind::Other)
    }

    fn append(&self, parent: &NodeId, child: NodeOrText<NodeId>) {
        let mut dom = self.dom.borrow_mut();
        match child {
            NodeOrText::AppendNode(c) => {
                if Sink::is_linkable(&dom, c) {
                    dom.append_child(*parent, c);
                }
            }
            NodeOrText::AppendText(t) => Sink::add_text(&mut dom, *parent, &t),
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &NodeId,
        prev_element: &NodeId,
        child: NodeOrText<NodeId>,
    ) {
        let has_parent = !self.dom.borrow().nodes[element.index()].parent.is_none();
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, _target: &NodeId) -> NodeId {
        // An unlinked fragment: whatever goes in it never reaches the page.
        self.dom.borrow_mut().push(NodeKind::Document)
    }

    fn same_node(&self, x: &NodeId, y: &NodeId) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &NodeId, new_node: NodeOrText<NodeId>) {
        let mut dom = self.dom.borrow_mut();
        match new_node {
            NodeOrText::AppendNode(c) => {
                if !Sink::is_linkable(&dom, c) {
                    return;
                }
                dom.detach(c);
                dom.insert_before(*sibling, c);
            }
            NodeOrText::AppendText(t) => {
                let prev = dom.nodes[sibling.index()].prev_sibling;
                if !prev.is_none() && matches!(dom.nodes[prev.index()].kind, NodeKind::Text { .. })
                {
                    dom.extend_text(prev, &t);
                } else {
                    let n = dom.new_text(&t);
                    dom.insert_before(*sibling, n);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &NodeId, attrs: Vec<Attribute>) {
        let mut dom = self.dom.borrow_mut();
        let missing: Vec<Attribute> = attrs
            .into_iter()
            .filter(|a| dom.attr(*target, &a.name.local).is_none())
            .collect();
        if missing.is_empty() {
            return;
        }
        let (old_start, old_len) = match &dom.nodes[target.index()].kind {
            NodeKind::Element(e) => (e.attrs_start as usize, e.attrs_len as usize),
            _ => return,
        };
        // Copy the old attributes to the end, then add the new ones, so the
        // element's attributes stay one contiguous range.
        let new_start = dom.attrs.len();
        dom.attrs.extend_from_within(old_start..old_start + old_len);
        Sink::push_attrs(&mut dom, &missing);
        let new_len = dom.attrs.len() - new_start;
        if let NodeKind::Element(e) = &mut dom.nodes[target.index()].kind {
            e.attrs_start = new_start as u32;
            e.attrs_len = new_len as u32;
        }
    }

    fn remove_from_parent(&self, target: &NodeId) {
        self.dom.borrow_mut().detach(*target);
    }

    fn reparent_children(&self, node: &NodeId, new_parent: &NodeId) {
        let mut dom = self.dom.borrow_mut();
        let mut child = dom.nodes[node.index()].first_child;
        while let Some(c) = child.some() {
            child = dom.nodes[c.index()].next_sibling;
            dom.detach(c);
            dom.append_child(*new_parent, c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::Tag;

    fn texts(dom: &Dom) -> Vec<String> {
        dom.descendants(DOCUMENT)
            .filter_map(|n| dom.text_of(n).map(str::to_owned))
            .collect()
    }

    #[test]
    fn builds_html_head_body() {
        let dom = parse("<title>T</title><p>Hello <b>world</b></p>");
        let body = dom.body().expect("body");
        let p = dom.children(body).next().unwrap();
        assert!(dom.is(p, Tag::P));
        assert_eq!(texts(&dom), vec!["T", "Hello ", "world"]);
    }

    #[test]
    fn misnested_tags_follow_html5() {
        // The adoption agency algorithm: <b> is split around the <p>.
        let dom = parse("<b>1<p>2</b>3</p>");
        let body = dom.body().unwrap();
        let names: Vec<&str> = dom
            .descendants(body)
            .filter_map(|n| dom.tag(n).map(|t| dom.tag_name(t)))
            .collect();
        assert_eq!(names, vec!["body", "b", "p", "b"]);
        assert_eq!(texts(&dom), vec!["1", "2", "3"]);
    }

    #[test]
    fn comments_and_templates_are_not_linked() {
        let dom = parse("<body><!-- c --><template><p>hidden</p></template><p>x</p>");
        let body = dom.body().unwrap();
        let visible: Vec<String> = dom
            .descendants(body)
            .filter_map(|n| dom.text_of(n).map(str::to_owned))
            .collect();
        assert_eq!(visible, vec!["x"]);
    }

    #[test]
    fn attributes_are_kept() {
        let dom = parse(r#"<div id="main" class="post content">x</div>"#);
        let div = dom.children(dom.body().unwrap()).next().unwrap();
        assert_eq!(dom.attr(div, "id"), Some("main"));
        assert_eq!(dom.attr(div, "class"), Some("post content"));
        assert_eq!(dom.attr(div, "style"), None);
    }

    #[test]
    fn body_attrs_merge() {
        let dom = parse(r#"<body class="a"><p>x</p><body id="b" class="z">"#);
        let body = dom.body().unwrap();
        assert_eq!(dom.attr(body, "class"), Some("a"));
        assert_eq!(dom.attr(body, "id"), Some("b"));
    }

    #[test]
    fn foster_parented_text_merges() {
        let dom = parse("<table>a<tr><td>b</td></tr>c</table>");
        assert_eq!(texts(&dom), vec!["ac", "b"]);
    }
}
