//! Stage 2, **parse**: UTF-8 text → [`Dom`], the tree html5ever's HTML5
//! tree builder makes (real pages are mis-nested; the tree must be the
//! one a browser builds): built by our own tokenizer and tree builder on
//! the common page (`fast.rs`, `tree.rs`), by html5ever's tree builder
//! where ours gives up, and by html5ever's tokenizer too where ours does.
//!
//! **Unstable:** public only with the `unstable` feature, for the tools
//! of the unchaff workspace (evaluation, training, explanation); may
//! change in any release. See the crate docs' *Stability*.
//!
//! The sink writes straight into the arena: no reference-counted nodes, no
//! per-node `String`. Comments, processing instructions and doctypes are
//! never linked into the tree; template contents go to an unlinked
//! fragment node, so they vanish without a cleaning step.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{
    Attribute, ExpandedName, LocalName, Namespace, QualName, local_name, ns, parse_document,
};

use crate::Error;
use crate::dom::Flow;
use crate::dom::{Attr, Capacity, DOCUMENT, Dom, NodeId, NodeKind};
use crate::limits::{
    BLOCK_MEMORY, Deadline, ELEMENT_MEMORY, Stage, element_budget, memory_budget,
    synthesized_budget,
};

mod fast;
mod prefilter;
mod tree;

pub(crate) use prefilter::is_unread_attr;
pub use prefilter::{
    MAX_ATTRIBUTES, MAX_DEPTH, MAX_OPEN_FORMATTING, prefilter, prefilter_rescue, prefilter_until,
};

/// How much markup [`parse_limited`] gives the tree builder at a time,
/// checking the deadline and the element budget in between. Past the
/// budget the rest of the chunk still runs through the tree builder (its
/// elements are phantoms, but it does the work), so the chunk is small: 8
/// KiB of markup that rebuilds 64 formatting elements in every 12-byte
/// block is 44,000 phantoms at most, where 64 KiB was 350,000 (most of the
/// time of the page). Feeding a page in 8 KiB pieces instead of 64 costs
/// nothing measurable.
pub const PARSE_CHUNK: usize = 8 * 1024;

/// Parses a whole document, after the [`prefilter`] (script, style and
/// noscript bodies skipped, unread attributes such as `data-*` cut, nesting
/// capped at [`MAX_DEPTH`], open formatting elements at
/// [`MAX_OPEN_FORMATTING`], attributes at [`MAX_ATTRIBUTES`]), with no
/// element budget and no deadline.
pub fn parse(html: &str) -> Dom {
    parse_unfiltered(&prefilter(html))
}

/// [`parse`] within limits: at most `max_elements` elements built (the
/// page's and those the tree builder adds), else
/// [`Error::TooManyElements`]; `deadline` checked in the pre-pass and
/// between chunks of [`PARSE_CHUNK`] bytes, else [`Error::Timeout`]. The
/// tree is the same as [`parse`]'s when no limit is hit.
///
/// Past the budget, the tree builder's elements are *phantoms*: handles
/// with no node behind them, whose children and text go nowhere; the
/// error comes at the end of the chunk. Memory stays bounded by the budget
/// even where the pre-pass's caps are fooled.
///
/// Most pages are read in one pass, the tokenizer making the pre-pass's
/// edits itself (`prefilter::Inline`; the same tree); a page it cannot
/// follow, or one past a bound of our tree builder or the budget, is
/// pre-filtered and tokenized again (docs/ROBUSTNESS.md).
pub fn parse_limited(html: &str, max_elements: usize, deadline: &Deadline) -> Result<Dom, Error> {
    let budget = Budget::elements(max_elements);
    if let Ok(dom) = fast::tokenize_filtering(html, budget, deadline)? {
        return Ok(dom);
    }
    let filtered = prefilter_until(html, deadline)?;
    parse_filtered(&filtered, budget, deadline)
}

/// [`parse_limited`] with the default budget: [`element_budget`] of the
/// input's size, and no more than [`synthesized_budget`] of its start
/// tags, so that markup making the tree builder multiply elements is
/// refused after a bounded amount of work; and no more elements than fit
/// [`memory_budget`] of the input's size, else [`Error::TooDense`].
pub fn parse_within_defaults(html: &str, deadline: &Deadline) -> Result<Dom, Error> {
    if let Ok(dom) = fast::tokenize_filtering(html, one_pass_budget(html), deadline)? {
        return Ok(dom);
    }
    let filtered = prefilter_until(html, deadline)?;
    let budget = default_budget(html, &filtered);
    parse_filtered(&filtered, budget, deadline)
}

/// [`parse_limited`] after [`prefilter_rescue`] instead of the
/// [`prefilter`]: for a page whose ordinary parse left (nearly) no text,
/// `<noscript>` bodies become markup and unclosed titles end at their
/// first tag. `max_elements`: the budget, or `None` for the defaults of
/// [`parse_within_defaults`].
pub fn parse_rescue(
    html: &str,
    max_elements: Option<usize>,
    deadline: &Deadline,
) -> Result<Dom, Error> {
    let filtered = prefilter_rescue(html, deadline)?;
    let budget = match max_elements {
        Some(n) => Budget::elements(n),
        None => default_budget(html, &filtered),
    };
    parse_filtered(&filtered, budget, deadline)
}

/// What one parse may build.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// Elements, the page's and those the tree builder makes up
    /// ([`Error::TooManyElements`]).
    elements: usize,
    /// The memory the elements may take through the pipeline, by the
    /// estimate of [`ELEMENT_MEMORY`] an element and [`BLOCK_MEMORY`] more
    /// a block-level one ([`Error::TooDense`]).
    memory: usize,
    /// Whether the elements made so far may also not pass
    /// [`synthesized_budget`] of the start tags read so far: for the
    /// one-pass parse, which cannot count the page's start tags first.
    per_start_tag: bool,
    /// The tree the markup is expected to make, reserved up front (none
    /// where the budget is not made from the markup).
    capacity: Capacity,
}

impl Budget {
    /// A caller's budget: `max_elements` elements, and no memory budget.
    fn elements(max_elements: usize) -> Budget {
        Budget {
            elements: max_elements,
            memory: usize::MAX,
            per_start_tag: false,
            capacity: Capacity::NONE,
        }
    }

    /// No limit (trees built for tests and tools).
    const NONE: Budget = Budget {
        elements: usize::MAX,
        memory: usize::MAX,
        per_start_tag: false,
        capacity: Capacity::NONE,
    };
}

/// The default budget of `html`, pre-filtered as `filtered`.
fn default_budget(html: &str, filtered: &str) -> Budget {
    let start_tags = start_tags(filtered);
    Budget {
        elements: element_budget(html.len()).min(synthesized_budget(start_tags)),
        memory: memory_budget(html.len()),
        per_start_tag: false,
        capacity: Capacity::of_markup(filtered.len(), start_tags),
    }
}

/// The default budget for the one-pass parse of `html`: [`default_budget`]
/// with the start tags counted as they are read. The elements made at any
/// point stay within [`synthesized_budget`] of the start tags read by then,
/// so at the end within that of all of them (no more than the pre-filtered
/// page has): a page the one-pass parse takes, the two-pass parse takes
/// too, and one it refuses goes to the two-pass parse, which decides.
fn one_pass_budget(html: &str) -> Budget {
    Budget {
        elements: element_budget(html.len()),
        memory: memory_budget(html.len()),
        per_start_tag: true,
        // The start tags are not counted first: estimated from the size.
        capacity: Capacity::of_markup(html.len(), html.len() / RAW_BYTES_PER_START_TAG),
    }
}

/// Bytes of a page as given per start tag after the pre-pass, for the
/// one-pass parse's reservation: about the median of the dev pages (106;
/// a quarter of them under 83, a quarter over 146). A page with more
/// script reserves more than it fills, within [`Capacity`]'s bound.
const RAW_BYTES_PER_START_TAG: usize = 100;

/// The tree builder over pre-filtered markup, within the budget and the
/// deadline.
fn parse_filtered(filtered: &str, budget: Budget, deadline: &Deadline) -> Result<Dom, Error> {
    if let Ok(dom) = fast::tokenize(filtered, budget, deadline, fast::Builders::Own)? {
        return Ok(dom);
    }
    let mut parser = parse_document(Sink::new(budget), Default::default());
    let mut rest: &str = filtered;
    while !rest.is_empty() {
        let mut cut = rest.len().min(PARSE_CHUNK);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (chunk, tail) = rest.split_at(cut);
        parser.process(StrTendril::from_slice(chunk));
        rest = tail;
        if let Some(e) = parser.tokenizer.sink.sink.refusal() {
            return Err(e);
        }
        deadline.check(Stage::Parse)?;
    }
    // The end of input closes what is open, and may make a few elements.
    parser.finish()
}

/// The start tags of `html` (`<` and a letter), as the tokenizer will
/// see them, give or take a `<` and letter in raw text (counted, so the
/// budget it sets only grows).
fn start_tags(html: &str) -> usize {
    let b = html.as_bytes();
    memchr::memchr_iter(b'<', b)
        .filter(|&i| b.get(i + 1).is_some_and(u8::is_ascii_alphabetic))
        .count()
}

/// Parses a whole document exactly as given.
pub fn parse_unfiltered(html: &str) -> Dom {
    match fast::tokenize(html, Budget::NONE, &Deadline::NONE, fast::Builders::Own) {
        Ok(Ok(dom)) => dom,
        _ => parse_html5ever(html),
    }
}

/// Parses a whole document exactly as given with html5ever's tokenizer
/// and tree builder, as [`parse_unfiltered`] does where the fast tokenizer
/// gives up: the reference the differential tests compare with.
pub fn parse_html5ever(html: &str) -> Dom {
    let parser = parse_document(Sink::new(Budget::NONE), Default::default());
    // Without a budget nothing is refused.
    parser
        .one(StrTendril::from_slice(html))
        .unwrap_or_else(|_| Dom::new())
}

/// Parses a whole document exactly as given with the fast tokenizer
/// feeding html5ever's tree builder (`parse/fast.rs`), or `None` where
/// the page needs html5ever's own tokenizer (rare constructs: a NUL, CDATA,
/// `<plaintext>`, …). Where it answers, the tree is [`parse_html5ever`]'s.
pub fn parse_fast(html: &str) -> Option<Dom> {
    parse_fast_or_why(html).ok()
}

/// [`parse_fast`], or the construct the fast tokenizer gave up at (for
/// the differential tests' statistics).
pub fn parse_fast_or_why(html: &str) -> Result<Dom, &'static str> {
    match fast::tokenize(html, Budget::NONE, &Deadline::NONE, fast::Builders::Html5ever) {
        Ok(Ok(dom)) => Ok(dom),
        Ok(Err(fast::GiveUp(why))) => Err(why),
        Err(_) => Err("a limit"),
    }
}

/// Parses a whole document as the pipeline does, in one pass: the fast
/// tokenizer making the [`prefilter`]'s edits on the way, feeding our own
/// tree builder; or why it needs the pre-pass first (for the differential
/// tests: where it answers, the tree is that of [`parse_own_or_why`] of
/// the pre-filtered page).
pub fn parse_one_pass_or_why(html: &str) -> Result<Dom, &'static str> {
    match fast::tokenize_filtering(html, Budget::NONE, &Deadline::NONE) {
        Ok(Ok(dom)) => Ok(dom),
        Ok(Err(fast::GiveUp(why))) => Err(why),
        Err(_) => Err("a limit"),
    }
}

/// Parses a whole document exactly as given with the fast tokenizer
/// feeding our own tree builder (`parse/tree.rs`) alone, or the construct
/// either gave up at (for the differential tests: where it answers, the
/// tree is [`parse_html5ever`]'s).
pub fn parse_own_or_why(html: &str) -> Result<Dom, &'static str> {
    match fast::tokenize(html, Budget::NONE, &Deadline::NONE, fast::Builders::OwnOnly) {
        Ok(Ok(dom)) => Ok(dom),
        Ok(Err(fast::GiveUp(why))) => Err(why),
        Err(_) => Err("a limit"),
    }
}

/// The tree builder's handle on a node: its arena id and, for elements,
/// its name. html5ever asks for an element's name for every entry of the
/// stack of open elements at every scope check; carrying the name in the
/// handle lets [`TreeSink::elem_name`] lend it without touching the arena,
/// which sits behind a `RefCell` and so could only hand out clones
/// (cloning and dropping them was 3% of `unchaff bench`).
///
/// A *phantom* (`phantom > 0`, made past the element budget) has no node:
/// the sink ignores whatever is done to it.
#[derive(Clone, Debug)]
struct Handle {
    id: NodeId,
    ns: Namespace,
    local: LocalName,
    /// 0 for a real node; else this phantom's serial number.
    phantom: u32,
}

impl Handle {
    /// A node that is not an element (the tree builder never asks its name).
    fn other(id: NodeId) -> Handle {
        Handle {
            id,
            ns: ns!(),
            local: local_name!(""),
            phantom: 0,
        }
    }

    /// Whether the handle has no node behind it.
    fn is_phantom(&self) -> bool {
        self.phantom > 0
    }
}

struct Sink {
    dom: RefCell<Dom>,
    /// The budget it started with.
    limits: Budget,
    /// Elements still to be stored; past them, elements are phantoms.
    budget: Cell<usize>,
    /// Memory (estimated) still to be taken; past it, elements are
    /// phantoms.
    memory: Cell<usize>,
    /// Phantoms made so far.
    phantoms: Cell<u32>,
    /// Whether the first phantom was made past the memory budget.
    over_memory: Cell<bool>,
}

impl Sink {
    fn new(limits: Budget) -> Sink {
        let mut dom = Dom::new();
        dom.reserve(limits.capacity);
        Sink {
            dom: RefCell::new(dom),
            limits,
            budget: Cell::new(limits.elements),
            memory: Cell::new(limits.memory),
            phantoms: Cell::new(0),
            over_memory: Cell::new(false),
        }
    }

    /// The error for the budget this parse ran past, if it did.
    fn refusal(&self) -> Option<Error> {
        if self.phantoms.get() == 0 {
            return None;
        }
        Some(match self.over_memory.get() {
            true => Error::TooDense {
                limit: self.limits.memory,
            },
            false => Error::TooManyElements {
                limit: self.limits.elements,
            },
        })
    }

    /// A handle with no node behind it (past a budget).
    fn phantom(&self, name: QualName) -> Handle {
        let serial = self.phantoms.get().saturating_add(1);
        self.phantoms.set(serial);
        Handle {
            id: DOCUMENT,
            ns: name.ns,
            local: name.local,
            phantom: serial,
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
    type Handle = Handle;
    /// The tree, or the budget it ran past.
    type Output = Result<Dom, Error>;
    type ElemName<'a> = ExpandedName<'a>;

    fn finish(self) -> Result<Dom, Error> {
        if let Some(e) = self.refusal() {
            return Err(e);
        }
        let mut dom = self.dom.into_inner();
        dom.done_building();
        Ok(dom)
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> Handle {
        Handle::other(DOCUMENT)
    }

    fn elem_name<'a>(&'a self, target: &'a Handle) -> ExpandedName<'a> {
        ExpandedName {
            ns: &target.ns,
            local: &target.local,
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, _: ElementFlags) -> Handle {
        let Some(left) = self.budget.get().checked_sub(1) else {
            return self.phantom(name);
        };
        let mut dom = self.dom.borrow_mut();
        let tag = dom.intern_tag(&name.local);
        let block = name.ns == ns!(html) && matches!(tag.flow(), Flow::Block | Flow::Cell);
        let cost = ELEMENT_MEMORY + if block { BLOCK_MEMORY } else { 0 };
        let Some(memory) = self.memory.get().checked_sub(cost) else {
            drop(dom);
            if self.phantoms.get() == 0 {
                self.over_memory.set(true);
            }
            return self.phantom(name);
        };
        self.memory.set(memory);
        self.budget.set(left);
        let attrs_start = u32::try_from(dom.attrs.len()).unwrap_or(u32::MAX);
        Sink::push_attrs(&mut dom, &attrs);
        let id = dom.push_element_tagged(&name, tag, attrs_start, attrs.len() as u32);
        Handle {
            id,
            ns: name.ns,
            local: name.local,
            phantom: 0,
        }
    }

    fn create_comment(&self, _text: StrTendril) -> Handle {
        Handle::other(self.dom.borrow_mut().push(NodeKind::Other))
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        Handle::other(self.dom.borrow_mut().push(NodeKind::Other))
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        if parent.is_phantom() {
            return;
        }
        let mut dom = self.dom.borrow_mut();
        match child {
            NodeOrText::AppendNode(c) => {
                if !c.is_phantom() && Sink::is_linkable(&dom, c.id) {
                    dom.append_child(parent.id, c.id);
                }
            }
            NodeOrText::AppendText(t) => dom.append_text(parent.id, &t),
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        prev_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        let has_parent =
            !element.is_phantom() && !self.dom.borrow().nodes[element.id.index()].parent.is_none();
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, target: &Handle) -> Handle {
        if target.is_phantom() {
            return target.clone();
        }
        // An unlinked fragment: whatever goes in it never reaches the page.
        Handle::other(self.dom.borrow_mut().push(NodeKind::Document))
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x.id == y.id && x.phantom == y.phantom
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Handle, new_node: NodeOrText<Handle>) {
        if sibling.is_phantom() {
            return;
        }
        let mut dom = self.dom.borrow_mut();
        let sibling = sibling.id;
        match new_node {
            NodeOrText::AppendNode(c) => {
                if c.is_phantom() || !Sink::is_linkable(&dom, c.id) {
                    return;
                }
                dom.detach(c.id);
                dom.insert_before(sibling, c.id);
            }
            NodeOrText::AppendText(t) => {
                let prev = dom.prev_sibling(sibling);
                if !prev.is_none() && matches!(dom.nodes[prev.index()].kind, NodeKind::Text { .. })
                {
                    dom.extend_text(prev, &t);
                } else {
                    let n = dom.new_text(&t);
                    dom.insert_before(sibling, n);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &Handle, attrs: Vec<Attribute>) {
        if target.is_phantom() {
            return;
        }
        let mut dom = self.dom.borrow_mut();
        let target = &target.id;
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

    fn remove_from_parent(&self, target: &Handle) {
        if !target.is_phantom() {
            self.dom.borrow_mut().detach(target.id);
        }
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        if node.is_phantom() {
            return;
        }
        let mut dom = self.dom.borrow_mut();
        let mut child = dom.nodes[node.id.index()].first_child;
        while let Some(c) = child.some() {
            child = dom.nodes[c.index()].next_sibling;
            dom.detach(c);
            // Into a phantom: gone.
            if !new_parent.is_phantom() {
                dom.append_child(new_parent.id, c);
            }
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
