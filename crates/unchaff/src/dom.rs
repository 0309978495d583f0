//! The compact document tree every later stage reads.
//!
//! **Unstable:** public only with the `unstable` feature, for the tools
//! of the unchaff workspace (evaluation, training, explanation); may
//! change in any release. See the crate docs' *Stability*.
//!
//! Nodes live in one `Vec` and refer to each other by [`NodeId`] (a `u32`
//! index), so a page of a million nodes is a handful of allocations and no
//! walk over it needs recursion. Text is stored in one `String` and elements'
//! attributes in one `Vec`; nodes hold ranges into them.
//!
//! Tag names are interned to [`Tag`] ids. The HTML tags that algorithms test
//! for have fixed ids (the constants on [`Tag`]), the same in every document;
//! any other name gets the next free id in its document.
//!
//! The parser behind this type is html5ever (see [`crate::parse`]), but
//! nothing outside `parse` knows that: a faster tree builder can replace it
//! without touching any algorithm.

use html5ever::{LocalName, Namespace, QualName, local_name, ns};
use rustc_hash::FxHashMap;

use crate::atoms::NameTable;

/// Index of a node in a [`Dom`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, serde::Serialize)]
#[serde(transparent)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The "no node" value used for absent links (no parent, no sibling).
    pub const NONE: NodeId = NodeId(u32::MAX);

    /// The index into node-indexed vectors.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether this is [`NodeId::NONE`].
    #[inline]
    pub fn is_none(self) -> bool {
        self == Self::NONE
    }

    /// `Some(self)` unless this is [`NodeId::NONE`].
    #[inline]
    pub fn some(self) -> Option<NodeId> {
        if self.is_none() { None } else { Some(self) }
    }
}

/// An interned element name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Tag(pub u16);

macro_rules! known_tags_stable {
    ($($konst:ident = $name:tt,)*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[repr(u16)]
        enum KnownTag { $($konst,)* }
        impl Tag {
            $(
                #[doc = concat!("`<", $name, ">`")]
                pub const $konst: Tag = Tag(KnownTag::$konst as u16);
            )*
        }
        /// Names of the tags with fixed ids, in id order.
        const KNOWN_TAGS: &[&str] = &[$($name,)*];
        /// Their atoms, in id order (as `LocalName::from` makes them).
        static KNOWN_ATOMS: [LocalName; KNOWN_TAGS.len()] = [$(local_name!($name),)*];
        /// Their table, by name.
        static KNOWN_TABLE: NameTable<KNOWN_SLOTS> = NameTable::new(KNOWN_TAGS);
    };
}

known_tags_stable! {
    HTML = "html", HEAD = "head", BODY = "body", TITLE = "title", META = "meta",
    SCRIPT = "script", STYLE = "style", NOSCRIPT = "noscript", TEMPLATE = "template",
    IFRAME = "iframe", SVG = "svg", MATH = "math", LINK = "link", BASE = "base",
    A = "a", P = "p", DIV = "div", SPAN = "span", BR = "br", HR = "hr", IMG = "img",
    PICTURE = "picture", FIGURE = "figure", FIGCAPTION = "figcaption",
    H1 = "h1", H2 = "h2", H3 = "h3", H4 = "h4", H5 = "h5", H6 = "h6", HGROUP = "hgroup",
    UL = "ul", OL = "ol", LI = "li", DL = "dl", DT = "dt", DD = "dd", MENU = "menu",
    TABLE = "table", THEAD = "thead", TBODY = "tbody", TFOOT = "tfoot", TR = "tr",
    TD = "td", TH = "th", CAPTION = "caption", COLGROUP = "colgroup", COL = "col",
    ARTICLE = "article", SECTION = "section", MAIN = "main", ASIDE = "aside",
    NAV = "nav", HEADER = "header", FOOTER = "footer", ADDRESS = "address",
    BLOCKQUOTE = "blockquote", PRE = "pre", CODE = "code", CENTER = "center",
    DETAILS = "details", SUMMARY = "summary", DIALOG = "dialog",
    FORM = "form", FIELDSET = "fieldset", LEGEND = "legend", LABEL = "label",
    INPUT = "input", BUTTON = "button", SELECT = "select", OPTION = "option",
    OPTGROUP = "optgroup", DATALIST = "datalist", TEXTAREA = "textarea",
    OUTPUT = "output", OBJECT = "object", EMBED = "embed", VIDEO = "video",
    AUDIO = "audio", SOURCE = "source", TRACK = "track", CANVAS = "canvas", MAP = "map",
    AREA = "area", FRAMESET = "frameset", FRAME = "frame", NOFRAMES = "noframes",
    B = "b", I = "i", EM = "em", STRONG = "strong", U = "u", S = "s", SMALL = "small",
    BIG = "big", SUB = "sub", SUP = "sup", FONT = "font", ABBR = "abbr", CITE = "cite",
    Q = "q", DFN = "dfn", KBD = "kbd", SAMP = "samp", VAR = "var", TIME = "time",
    MARK = "mark", DEL = "del", INS = "ins", BDI = "bdi", BDO = "bdo", DATA = "data",
    WBR = "wbr", NOBR = "nobr", STRIKE = "strike", TT = "tt", RUBY = "ruby", RT = "rt",
    RP = "rp", XMP = "xmp", LISTING = "listing", PLAINTEXT = "plaintext",
    SELECTEDCONTENT = "selectedcontent",
}

impl Tag {
    /// Number of tags with fixed ids.
    pub const KNOWN: usize = KNOWN_TAGS.len();

    /// The atom of a tag with a fixed id (the same in every document);
    /// `None` for the others.
    pub(crate) fn known_atom(self) -> Option<&'static LocalName> {
        KNOWN_ATOMS.get(self.0 as usize)
    }
}

/// Slots of the fixed-id tags' [`NameTable`]: a power of two, at least
/// twice their number.
const KNOWN_SLOTS: usize = 256;

/// The fixed id of a tag name (lower case, as the tokenizer gives it),
/// found without hashing or an atom; `None` for a name without one.
#[inline]
pub(crate) fn known_tag(name: &str) -> Option<Tag> {
    KNOWN_TABLE.get(name).map(|i| Tag(i as u16))
}

impl Tag {

    /// `h1` … `h6`.
    pub const fn is_heading(self) -> bool {
        self.0 >= Tag::H1.0 && self.0 <= Tag::H6.0
    }

    /// How the element affects the text flow: block-level elements end a
    /// line, table cells are separated by a space, `<br>` breaks the line,
    /// everything else runs on. The renderers and the default extractor's
    /// blocks both use it.
    pub const fn flow(self) -> Flow {
        match self {
            Tag::BR => Flow::Break,
            Tag::TD | Tag::TH => Flow::Cell,
            Tag::P
            | Tag::DIV
            | Tag::LI
            | Tag::UL
            | Tag::OL
            | Tag::DL
            | Tag::DT
            | Tag::DD
            | Tag::MENU
            | Tag::H1
            | Tag::H2
            | Tag::H3
            | Tag::H4
            | Tag::H5
            | Tag::H6
            | Tag::HGROUP
            | Tag::TR
            | Tag::TABLE
            | Tag::THEAD
            | Tag::TBODY
            | Tag::TFOOT
            | Tag::CAPTION
            | Tag::BLOCKQUOTE
            | Tag::PRE
            | Tag::ARTICLE
            | Tag::SECTION
            | Tag::MAIN
            | Tag::ASIDE
            | Tag::NAV
            | Tag::HEADER
            | Tag::FOOTER
            | Tag::ADDRESS
            | Tag::FIGURE
            | Tag::FIGCAPTION
            | Tag::HR
            | Tag::CENTER
            | Tag::DETAILS
            | Tag::SUMMARY
            | Tag::DIALOG
            | Tag::FORM
            | Tag::FIELDSET
            | Tag::LEGEND
            | Tag::BODY
            | Tag::HTML
            | Tag::TITLE
            | Tag::XMP
            | Tag::LISTING
            | Tag::PLAINTEXT
            | Tag::VIDEO
            | Tag::AUDIO
            | Tag::PICTURE
            | Tag::FRAME
            | Tag::FRAMESET
            | Tag::NOFRAMES => Flow::Block,
            _ => Flow::Inline,
        }
    }
}

/// How an element affects the text flow ([`Tag::flow`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Starts and ends a line.
    Block,
    /// A table cell: separated from its neighbours by a space.
    Cell,
    /// `<br>`: a line break.
    Break,
    /// Runs on with its neighbours.
    Inline,
}

/// What a node is.
#[derive(Clone, Copy, Debug)]
pub enum NodeKind {
    /// The document root.
    Document,
    /// An element.
    Element(ElementData),
    /// A run of text; `start..end` is a byte range of [`Dom::text`].
    Text {
        /// First byte in the text buffer.
        start: u32,
        /// One past the last byte.
        end: u32,
    },
    /// Anything else the parser creates (comments, processing instructions,
    /// template contents); never linked into the tree.
    Other,
}

/// An element's name and attributes: 12 bytes, and [`NodeKind`] keeps
/// its variant in the spare values of [`Ns`], so a [`Node`] is 24 bytes
/// (element-dense pages are a node every 7 bytes of markup). The full
/// name is [`Dom::element_name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementData {
    /// The interned local name ([`Dom::tag_name`]).
    pub tag: Tag,
    /// The element's namespace.
    pub ns: Ns,
    /// First attribute in [`Dom::attrs`].
    pub attrs_start: u32,
    /// Number of attributes.
    pub attrs_len: u32,
}

/// An element's namespace, in one byte: the HTML tree builder makes
/// elements in these three only. Any other namespace (a tree built by
/// other means) is [`Ns::Other`], its name kept beside the tree
/// ([`Dom::element_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Ns {
    /// `http://www.w3.org/1999/xhtml`.
    Html,
    /// `http://www.w3.org/2000/svg`.
    Svg,
    /// `http://www.w3.org/1998/Math/MathML`.
    MathMl,
    /// Any other namespace.
    Other,
}

impl Ns {
    /// The one-byte form of a parser namespace.
    pub fn of(ns: &Namespace) -> Ns {
        if *ns == ns!(html) {
            Ns::Html
        } else if *ns == ns!(svg) {
            Ns::Svg
        } else if *ns == ns!(mathml) {
            Ns::MathMl
        } else {
            Ns::Other
        }
    }
}

/// One attribute; the value is a byte range of [`Dom::attr_text`].
#[derive(Clone, Debug)]
pub struct Attr {
    /// Local name (lower case, as the tokenizer gives it).
    pub name: LocalName,
    /// First byte of the value.
    pub start: u32,
    /// One past the last byte of the value.
    pub end: u32,
}

/// A node and its links to its neighbours: 24 bytes. The previous
/// sibling and the last child are kept beside the tree only while it is
/// built ([`Dom::prev_sibling`], [`Dom::last_child`]).
#[derive(Clone, Debug)]
pub struct Node {
    /// Parent, or [`NodeId::NONE`].
    pub parent: NodeId,
    /// First child, or [`NodeId::NONE`].
    pub first_child: NodeId,
    /// Next sibling, or [`NodeId::NONE`].
    pub next_sibling: NodeId,
    /// What the node is.
    pub kind: NodeKind,
}

impl Node {
    fn new(kind: NodeKind) -> Node {
        Node {
            parent: NodeId::NONE,
            first_child: NodeId::NONE,
            next_sibling: NodeId::NONE,
            kind,
        }
    }
}

/// The links of a node kept only while the parser builds the tree: they
/// make appending and inserting constant-time, and the tree is read far
/// longer than it is built (8 bytes a node is a third of [`Node`]).
#[derive(Clone, Copy, Debug)]
struct BuildLinks {
    /// Last child, or [`NodeId::NONE`].
    last_child: NodeId,
    /// Previous sibling, or [`NodeId::NONE`].
    prev_sibling: NodeId,
}

impl BuildLinks {
    const NONE: BuildLinks = BuildLinks {
        last_child: NodeId::NONE,
        prev_sibling: NodeId::NONE,
    };
}

/// A parsed page.
#[derive(Clone, Debug)]
pub struct Dom {
    /// All nodes; `nodes[0]` is the document.
    pub nodes: Vec<Node>,
    /// Text of all text nodes, back to back.
    pub text: String,
    /// Attributes of all elements.
    pub attrs: Vec<Attr>,
    /// Attribute values, back to back.
    pub attr_text: String,
    tag_names: Vec<LocalName>,
    tag_ids: FxHashMap<LocalName, Tag>,
    /// The full name of the rare elements that [`ElementData`] does not
    /// name: a namespace outside [`Ns`]'s three, or a local name past the
    /// 65,535 distinct ones [`Dom::intern_tag`] tells apart.
    unusual_names: FxHashMap<NodeId, (Namespace, LocalName)>,
    /// Each node's last child and previous sibling while the parser
    /// builds the tree; emptied by [`Dom::done_building`], after which
    /// [`Dom::last_child`] and [`Dom::prev_sibling`] walk the children.
    build_links: Vec<BuildLinks>,
    /// Elements and text nodes created (attached or not): capacities for
    /// the vectors that annotating fills, so that they are allocated
    /// once instead of doubling (each doubling left the old buffer's
    /// pages in the heap: about 15 MB on a 10 MB element-dense page).
    elements_made: u32,
    /// See [`Dom::elements_made`].
    texts_made: u32,
    /// The formulas the cleaner rewrote as TeX (`crate::clean`'s math
    /// step): each new `<math>` element and the page's MathML it was read
    /// from (unlinked, kept for the HTML output), in creation order.
    pub(crate) math_sources: Vec<(NodeId, NodeId)>,
}

impl Default for Dom {
    fn default() -> Self {
        Dom::new()
    }
}

/// The document node's id.
pub const DOCUMENT: NodeId = NodeId(0);

/// Nodes reserved per hundred start tags of the markup: a page has
/// about 2.2 nodes a start tag (its elements, their text, the implied
/// ones; median of the scrapinghub, wcxb-dev, dragnet and
/// cleaneval-en-final pages, 2.4 at the third quartile), so most trees
/// are built without the node vectors growing (each growth copied them).
const NODES_PER_100_START_TAGS: usize = 250;

/// Attributes reserved per hundred start tags: 1.4 a start tag at the
/// median of the same pages, 1.6 at the third quartile.
const ATTRS_PER_100_START_TAGS: usize = 150;

/// Bytes of markup per node and per attribute reserved at most, whatever
/// the start tags: the reservation stays within a fixed share of the
/// input (a node and its build links are 32 bytes, an attribute 16: at
/// most 2 and 1 bytes a byte of markup), where markup made of `<a` runs
/// could ask for a node every two bytes. The densest dev page has a node
/// every 14 bytes.
const MARKUP_BYTES_PER_RESERVED: usize = 16;

/// Text and attribute values reserved, as a share of the markup: the
/// text is 0.28 of the pre-filtered markup at the median (0.41 at the
/// third quartile), attribute values 0.43 (0.51).
const TEXT_SHARE_DIV: usize = 2;

/// What a page's tree is expected to hold, read from its pre-filtered
/// markup before parsing: [`Dom::reserve`] sizes the arena's vectors to
/// it, so that they do not grow (copying themselves) while the tree is
/// built. Never more than a fixed share of the markup's size (see
/// [`MARKUP_BYTES_PER_RESERVED`], [`TEXT_SHARE_DIV`]): at most 4 bytes a
/// byte of markup, most of which the tree fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Capacity {
    nodes: usize,
    attrs: usize,
    text: usize,
    attr_text: usize,
}

impl Capacity {
    /// Nothing reserved.
    pub(crate) const NONE: Capacity = Capacity {
        nodes: 0,
        attrs: 0,
        text: 0,
        attr_text: 0,
    };

    /// The expected size of the tree of `markup_len` bytes of markup with
    /// `start_tags` start tags.
    pub(crate) fn of_markup(markup_len: usize, start_tags: usize) -> Capacity {
        let most = markup_len / MARKUP_BYTES_PER_RESERVED;
        Capacity {
            nodes: (start_tags.saturating_mul(NODES_PER_100_START_TAGS) / 100).min(most),
            attrs: (start_tags.saturating_mul(ATTRS_PER_100_START_TAGS) / 100).min(most),
            text: markup_len / TEXT_SHARE_DIV,
            attr_text: markup_len / TEXT_SHARE_DIV,
        }
    }
}

/// Room for the names a page uses beyond the tags with fixed ids, in the
/// interned names' vector and map from the start: a page uses a handful
/// (custom elements, SVG's), and the map is built once instead of
/// growing through its sizes while the fixed names go in.
const ROOM_FOR_PAGE_TAGS: usize = 16;

impl Dom {
    /// An empty document (just the document node).
    pub fn new() -> Dom {
        let mut dom = Dom {
            nodes: vec![Node::new(NodeKind::Document)],
            text: String::new(),
            attrs: Vec::new(),
            attr_text: String::new(),
            tag_names: Vec::with_capacity(KNOWN_TAGS.len() + ROOM_FOR_PAGE_TAGS),
            tag_ids: FxHashMap::with_capacity_and_hasher(
                KNOWN_TAGS.len() + ROOM_FOR_PAGE_TAGS,
                Default::default(),
            ),
            unusual_names: FxHashMap::default(),
            build_links: vec![BuildLinks::NONE],
            elements_made: 0,
            texts_made: 0,
            math_sources: Vec::new(),
        };
        for atom in &KNOWN_ATOMS {
            dom.intern_tag(atom);
        }
        dom
    }

    /// Reserves room for `capacity` in the arena (on top of what it
    /// holds).
    pub(crate) fn reserve(&mut self, capacity: Capacity) {
        self.nodes.reserve(capacity.nodes);
        self.build_links.reserve(capacity.nodes);
        self.attrs.reserve(capacity.attrs);
        self.text.reserve(capacity.text);
        self.attr_text.reserve(capacity.attr_text);
    }

    /// Number of nodes (the length of node-indexed vectors).
    #[inline]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Number of elements created, attached to the tree or not: at least
    /// as many as any subtree holds.
    pub fn elements_made(&self) -> usize {
        self.elements_made as usize
    }

    /// Number of text nodes created, attached to the tree or not.
    pub fn texts_made(&self) -> usize {
        self.texts_made as usize
    }

    /// Whether the document has only its root node.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The node with this id.
    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// The id interned for a local name, adding it if new.
    pub fn intern_tag(&mut self, name: &LocalName) -> Tag {
        if let Some(tag) = self.tag_ids.get(name) {
            return *tag;
        }
        // More than 65,535 distinct tag names on one page is an attack or
        // junk; fold the rest into the last id rather than fail.
        let tag = Tag(self.tag_names.len().min(u16::MAX as usize) as u16);
        if (tag.0 as usize) == self.tag_names.len() {
            self.tag_names.push(name.clone());
        }
        self.tag_ids.insert(name.clone(), tag);
        tag
    }

    /// The id interned for a local name, if it was interned (nothing is
    /// added).
    pub(crate) fn tag_id(&self, name: &LocalName) -> Option<Tag> {
        self.tag_ids.get(name).copied()
    }

    /// A new, unlinked element in namespace `ns` (HTML, SVG or MathML)
    /// interned as `tag`, which must name one local name only (`tag.0 <
    /// u16::MAX`: below the ids that [`Dom::intern_tag`] folds), with the
    /// attributes `attrs_start .. attrs_start + attrs_len` of
    /// [`Dom::attrs`]: what [`Dom::push_element_tagged`] makes of such a
    /// name, without the name.
    pub(crate) fn push_element_ns(
        &mut self,
        tag: Tag,
        ns: Ns,
        attrs_start: u32,
        attrs_len: u32,
    ) -> NodeId {
        debug_assert!(tag.0 < u16::MAX && ns != Ns::Other);
        self.push(NodeKind::Element(ElementData {
            tag,
            ns,
            attrs_start,
            attrs_len,
        }))
    }

    /// The local name of an interned tag.
    pub fn tag_name(&self, tag: Tag) -> &str {
        self.tag_names
            .get(tag.0 as usize)
            .map(|n| &**n)
            .unwrap_or("")
    }

    /// A new, unlinked element named `name` whose attributes are
    /// `attrs_start .. attrs_start + attrs_len` of [`Dom::attrs`].
    #[cfg(test)]
    pub(crate) fn push_element(
        &mut self,
        name: &QualName,
        attrs_start: u32,
        attrs_len: u32,
    ) -> NodeId {
        let tag = self.intern_tag(&name.local);
        self.push_element_tagged(name, tag, attrs_start, attrs_len)
    }

    /// A new, unlinked element named `name`, interned already as `tag`
    /// (`self.intern_tag(&name.local)`: the tree builder's sink interns it
    /// first to weigh the element against its budget, and a second lookup
    /// was 0.3% of `unchaff bench`'s instructions), whose attributes are
    /// `attrs_start .. attrs_start + attrs_len` of [`Dom::attrs`].
    pub(crate) fn push_element_tagged(
        &mut self,
        name: &QualName,
        tag: Tag,
        attrs_start: u32,
        attrs_len: u32,
    ) -> NodeId {
        debug_assert_eq!(self.tag_ids.get(&name.local), Some(&tag));
        let ns = Ns::of(&name.ns);
        let id = self.push(NodeKind::Element(ElementData {
            tag,
            ns,
            attrs_start,
            attrs_len,
        }));
        if ns == Ns::Other || self.tag_names[tag.0 as usize] != name.local {
            self.unusual_names
                .insert(id, (name.ns.clone(), name.local.clone()));
        }
        id
    }

    /// The namespace URL and local name of element `id` (`None` for other
    /// nodes).
    pub fn element_name(&self, id: NodeId) -> Option<(&str, &str)> {
        let e = self.element(id)?;
        if let Some((ns, local)) = self.unusual_names.get(&id) {
            return Some((&**ns, &**local));
        }
        let ns: &str = match e.ns {
            Ns::Html => "http://www.w3.org/1999/xhtml",
            Ns::Svg => "http://www.w3.org/2000/svg",
            Ns::MathMl => "http://www.w3.org/1998/Math/MathML",
            // Always in the side table.
            Ns::Other => "",
        };
        Some((ns, self.tag_name(e.tag)))
    }

    /// The element data of `id`, if it is an element.
    #[inline]
    pub fn element(&self, id: NodeId) -> Option<&ElementData> {
        match &self.nodes[id.index()].kind {
            NodeKind::Element(e) => Some(e),
            _ => None,
        }
    }

    /// The tag of `id`, if it is an element.
    #[inline]
    pub fn tag(&self, id: NodeId) -> Option<Tag> {
        self.element(id).map(|e| e.tag)
    }

    /// Whether `id` is an HTML element with this tag.
    #[inline]
    pub fn is(&self, id: NodeId, tag: Tag) -> bool {
        self.tag(id) == Some(tag)
    }

    /// The raw (un-collapsed) text of a text node, or `None`.
    #[inline]
    pub fn text_of(&self, id: NodeId) -> Option<&str> {
        match self.nodes[id.index()].kind {
            NodeKind::Text { start, end } => Some(&self.text[start as usize..end as usize]),
            _ => None,
        }
    }

    /// The attributes of an element (empty for other nodes).
    pub fn attrs_of(&self, id: NodeId) -> &[Attr] {
        match self.element(id) {
            Some(e) => {
                let s = e.attrs_start as usize;
                &self.attrs[s..s + e.attrs_len as usize]
            }
            None => &[],
        }
    }

    /// The value of attribute `name` on element `id`.
    pub fn attr(&self, id: NodeId, name: &str) -> Option<&str> {
        self.attrs_of(id)
            .iter()
            .find(|a| &*a.name == name)
            .map(|a| &self.attr_text[a.start as usize..a.end as usize])
    }

    /// The children of `id`, first to last.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            dom: self,
            next: self.nodes[id.index()].first_child,
        }
    }

    /// The first child element of `id` with this tag.
    pub fn child_element(&self, id: NodeId, tag: Tag) -> Option<NodeId> {
        self.children(id).find(|&c| self.is(c, tag))
    }

    /// `html`'s `body` child, if there is one.
    pub fn body(&self) -> Option<NodeId> {
        let html = self.child_element(DOCUMENT, Tag::HTML)?;
        self.child_element(html, Tag::BODY)
    }

    /// The root of the content the algorithms look at: `<body>`, else the
    /// `<html>` element (a frameset page), else the document.
    pub fn content_root(&self) -> NodeId {
        self.body()
            .or_else(|| self.child_element(DOCUMENT, Tag::HTML))
            .unwrap_or(DOCUMENT)
    }

    /// The nodes of the subtree of `root` in document order (pre-order),
    /// `root` first. Iterative: safe on any depth.
    pub fn descendants(&self, root: NodeId) -> Descendants<'_> {
        Descendants {
            dom: self,
            root,
            next: root,
        }
    }

    /// A walk over the subtree of `root` that reports both entering and
    /// leaving every node, without recursion or a stack.
    pub fn traverse(&self, root: NodeId) -> Traverse<'_> {
        Traverse {
            dom: self,
            root,
            next: Some(Edge::Enter(root)),
        }
    }

    // ---- tree surgery (used by the parser and the cleaner) ----

    /// The tree linked under the document as text, one node a line,
    /// indented by depth: elements with their namespace, name and
    /// attributes in order, text escaped. Two trees with the same outline
    /// are the same to every stage; the parser's differential tests compare
    /// outlines.
    pub fn outline(&self) -> String {
        let mut out = String::new();
        let mut depth = 0usize;
        for edge in self.traverse(DOCUMENT) {
            match edge {
                Edge::Enter(id) => {
                    out.extend(std::iter::repeat_n(' ', depth));
                    match &self.nodes[id.index()].kind {
                        NodeKind::Document => out.push_str("#document"),
                        NodeKind::Element(_) => {
                            let (ns, local) = self.element_name(id).unwrap_or_default();
                            out.push('<');
                            out.push_str(ns);
                            out.push(' ');
                            out.push_str(local);
                            for a in self.attrs_of(id) {
                                let v = &self.attr_text[a.start as usize..a.end as usize];
                                out.push_str(&format!(" {}={v:?}", &*a.name));
                            }
                            out.push('>');
                        }
                        NodeKind::Text { .. } => {
                            out.push_str(&format!("{:?}", self.text_of(id).unwrap_or("")));
                        }
                        NodeKind::Other => out.push_str("#other"),
                    }
                    out.push('\n');
                    depth += 1;
                }
                Edge::Leave(_) => depth -= 1,
            }
        }
        out
    }

    pub(crate) fn push(&mut self, kind: NodeKind) -> NodeId {
        let id = NodeId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX - 1));
        match kind {
            NodeKind::Element(_) => self.elements_made += 1,
            NodeKind::Text { .. } => self.texts_made += 1,
            _ => {}
        }
        self.nodes.push(Node::new(kind));
        // While building (the table is never empty then: the document).
        if !self.build_links.is_empty() {
            self.build_links.push(BuildLinks::NONE);
        }
        id
    }

    /// Ends building: the table of last children and previous siblings
    /// is freed (see [`Dom::last_child`], [`Dom::prev_sibling`]).
    pub(crate) fn done_building(&mut self) {
        self.build_links = Vec::new();
    }

    /// The last child of `id`, or [`NodeId::NONE`]: kept while the tree
    /// is built, found by walking the children after.
    pub fn last_child(&self, id: NodeId) -> NodeId {
        if let Some(links) = self.build_links.get(id.index()) {
            return links.last_child;
        }
        self.children(id).last().unwrap_or(NodeId::NONE)
    }

    /// The previous sibling of `id`, or [`NodeId::NONE`]: kept while the
    /// tree is built, found by walking the parent's children after.
    pub fn prev_sibling(&self, id: NodeId) -> NodeId {
        if let Some(links) = self.build_links.get(id.index()) {
            return links.prev_sibling;
        }
        let parent = self.nodes[id.index()].parent;
        if parent.is_none() {
            return NodeId::NONE;
        }
        let mut prev = NodeId::NONE;
        for c in self.children(parent) {
            if c == id {
                return prev;
            }
            prev = c;
        }
        NodeId::NONE
    }

    /// Unlinks `id` from its parent and siblings (the subtree stays
    /// intact). Once the tree is built this walks the siblings before
    /// `id`; [`Dom::detach_all`] unlinks many nodes in one pass.
    pub fn detach(&mut self, id: NodeId) {
        let (parent, next) = {
            let n = &self.nodes[id.index()];
            (n.parent, n.next_sibling)
        };
        if parent.is_none() {
            return;
        }
        let prev = if self.nodes[parent.index()].first_child == id {
            NodeId::NONE
        } else {
            self.prev_sibling(id)
        };
        if prev.is_none() {
            self.nodes[parent.index()].first_child = next;
        } else {
            self.nodes[prev.index()].next_sibling = next;
        }
        if next.is_none() {
            if let Some(links) = self.build_links.get_mut(parent.index()) {
                links.last_child = prev;
            }
        } else if let Some(links) = self.build_links.get_mut(next.index()) {
            links.prev_sibling = prev;
        }
        let n = &mut self.nodes[id.index()];
        n.parent = NodeId::NONE;
        n.next_sibling = NodeId::NONE;
        if let Some(links) = self.build_links.get_mut(id.index()) {
            links.prev_sibling = NodeId::NONE;
        }
    }

    /// [`Dom::detach`] of every node of `ids`, in one pass over their
    /// parents' children (detaching them one by one would walk the
    /// siblings before each: quadratic in a long list of children).
    pub fn detach_all(&mut self, ids: &[NodeId]) {
        if ids.is_empty() {
            return;
        }
        // Per node: whether it is to be detached, whether its children
        // were relinked.
        const DOOMED: u8 = 1;
        const RELINKED: u8 = 2;
        let mut mark = vec![0u8; self.nodes.len()];
        for &id in ids {
            mark[id.index()] |= DOOMED;
        }
        for &id in ids {
            let parent = self.nodes[id.index()].parent;
            if parent.is_none() || mark[parent.index()] & RELINKED != 0 {
                continue;
            }
            mark[parent.index()] |= RELINKED;
            // Relink the children that stay, in order.
            let mut prev = NodeId::NONE;
            let mut cur = self.nodes[parent.index()].first_child;
            while let Some(c) = cur.some() {
                cur = self.nodes[c.index()].next_sibling;
                if mark[c.index()] & DOOMED != 0 {
                    let n = &mut self.nodes[c.index()];
                    n.parent = NodeId::NONE;
                    n.next_sibling = NodeId::NONE;
                    if let Some(links) = self.build_links.get_mut(c.index()) {
                        links.prev_sibling = NodeId::NONE;
                    }
                    continue;
                }
                match prev.some() {
                    None => self.nodes[parent.index()].first_child = c,
                    Some(p) => self.nodes[p.index()].next_sibling = c,
                }
                if let Some(links) = self.build_links.get_mut(c.index()) {
                    links.prev_sibling = prev;
                }
                prev = c;
            }
            match prev.some() {
                None => self.nodes[parent.index()].first_child = NodeId::NONE,
                Some(p) => self.nodes[p.index()].next_sibling = NodeId::NONE,
            }
            if let Some(links) = self.build_links.get_mut(parent.index()) {
                links.last_child = prev;
            }
        }
    }

    /// Links the detached node `child` as the last child of `parent`.
    pub(crate) fn append_child(&mut self, parent: NodeId, child: NodeId) {
        let last = self.last_child(parent);
        {
            let c = &mut self.nodes[child.index()];
            c.parent = parent;
            c.next_sibling = NodeId::NONE;
        }
        if let Some(links) = self.build_links.get_mut(child.index()) {
            links.prev_sibling = last;
        }
        if last.is_none() {
            self.nodes[parent.index()].first_child = child;
        } else {
            self.nodes[last.index()].next_sibling = child;
        }
        if let Some(links) = self.build_links.get_mut(parent.index()) {
            links.last_child = child;
        }
    }

    /// Links the detached node `child` just before `sibling`.
    pub(crate) fn insert_before(&mut self, sibling: NodeId, child: NodeId) {
        let parent = self.nodes[sibling.index()].parent;
        let prev = self.prev_sibling(sibling);
        {
            let c = &mut self.nodes[child.index()];
            c.parent = parent;
            c.next_sibling = sibling;
        }
        if let Some(links) = self.build_links.get_mut(child.index()) {
            links.prev_sibling = prev;
        }
        if let Some(links) = self.build_links.get_mut(sibling.index()) {
            links.prev_sibling = child;
        }
        if prev.is_none() {
            if !parent.is_none() {
                self.nodes[parent.index()].first_child = child;
            }
        } else {
            self.nodes[prev.index()].next_sibling = child;
        }
    }

    /// Moves all children of `from`, in order, to just before `sibling`
    /// (which must not lie inside `from`): one walk to find `sibling`'s
    /// previous sibling and one over the moved children, however many
    /// there are (moving them one by one would walk `sibling`'s growing
    /// list of previous siblings once each).
    pub(crate) fn move_children_before(&mut self, from: NodeId, sibling: NodeId) {
        let first = self.nodes[from.index()].first_child;
        if first.is_none() || from == sibling {
            return;
        }
        let parent = self.nodes[sibling.index()].parent;
        let prev = self.prev_sibling(sibling);
        let mut last = first;
        let mut c = first;
        while !c.is_none() {
            self.nodes[c.index()].parent = parent;
            last = c;
            c = self.nodes[c.index()].next_sibling;
        }
        self.nodes[from.index()].first_child = NodeId::NONE;
        self.nodes[last.index()].next_sibling = sibling;
        if prev.is_none() {
            if !parent.is_none() {
                self.nodes[parent.index()].first_child = first;
            }
        } else {
            self.nodes[prev.index()].next_sibling = first;
        }
        if !self.build_links.is_empty() {
            self.build_links[from.index()].last_child = NodeId::NONE;
            self.build_links[first.index()].prev_sibling = prev;
            self.build_links[sibling.index()].prev_sibling = last;
        }
    }

    /// Appends `s` to text node `id`, keeping its bytes contiguous.
    pub(crate) fn extend_text(&mut self, id: NodeId, s: &str) {
        if let NodeKind::Text { start, end } = self.nodes[id.index()].kind {
            if end as usize == self.text.len() {
                self.text.push_str(s);
                let end = to_u32(self.text.len());
                self.nodes[id.index()].kind = NodeKind::Text { start, end };
            } else {
                // Not the last text written: move it to the end first.
                let new_start = to_u32(self.text.len());
                self.text.extend_from_within(start as usize..end as usize);
                self.text.push_str(s);
                let new_end = to_u32(self.text.len());
                self.nodes[id.index()].kind = NodeKind::Text {
                    start: new_start,
                    end: new_end,
                };
            }
        }
    }

    /// A new, unlinked element `tag` in namespace `ns` with the
    /// attributes `attrs` (name, value), for the stages that rewrite the
    /// tree (the cleaner's formulas).
    pub(crate) fn new_element(&mut self, tag: Tag, ns: Ns, attrs: &[(&str, &str)]) -> NodeId {
        let attrs_start = to_u32(self.attrs.len());
        for (name, value) in attrs {
            let start = to_u32(self.attr_text.len());
            self.attr_text.push_str(value);
            let end = to_u32(self.attr_text.len());
            self.attrs.push(Attr {
                name: LocalName::from(*name),
                start,
                end,
            });
        }
        self.push(NodeKind::Element(ElementData {
            tag,
            ns,
            attrs_start,
            attrs_len: to_u32(attrs.len()),
        }))
    }

    /// Links the detached node `new` just after `node`, in constant time.
    pub(crate) fn insert_after(&mut self, node: NodeId, new: NodeId) {
        let (parent, next) = {
            let n = &self.nodes[node.index()];
            (n.parent, n.next_sibling)
        };
        {
            let c = &mut self.nodes[new.index()];
            c.parent = parent;
            c.next_sibling = next;
        }
        self.nodes[node.index()].next_sibling = new;
        if let Some(links) = self.build_links.get_mut(new.index()) {
            links.prev_sibling = node;
        }
        match next.some() {
            Some(n) => {
                if let Some(links) = self.build_links.get_mut(n.index()) {
                    links.prev_sibling = new;
                }
            }
            None => {
                if let Some(links) = self.build_links.get_mut(parent.index()) {
                    links.last_child = new;
                }
            }
        }
    }

    /// Makes text node `id` hold `s` (other nodes are left alone).
    pub(crate) fn set_text(&mut self, id: NodeId, s: &str) {
        if let NodeKind::Text { .. } = self.nodes[id.index()].kind {
            let start = to_u32(self.text.len());
            self.text.push_str(s);
            let end = to_u32(self.text.len());
            self.nodes[id.index()].kind = NodeKind::Text { start, end };
        }
    }

    /// Drops the full name kept for element `id` (see
    /// [`Dom::element_name`]), once the node is made another element.
    pub(crate) fn forget_unusual_name(&mut self, id: NodeId) {
        self.unusual_names.remove(&id);
    }

    /// Appends `s` as the last text of `parent`: merged into its last
    /// child when that is a text node (as the HTML tree builders insert
    /// text), else as a new text node.
    pub(crate) fn append_text(&mut self, parent: NodeId, s: &str) {
        let last = self.last_child(parent);
        if !last.is_none() && matches!(self.nodes[last.index()].kind, NodeKind::Text { .. }) {
            self.extend_text(last, s);
        } else {
            let t = self.new_text(s);
            self.append_child(parent, t);
        }
    }

    /// A new, unlinked text node holding `s`.
    pub(crate) fn new_text(&mut self, s: &str) -> NodeId {
        let start = to_u32(self.text.len());
        self.text.push_str(s);
        let end = to_u32(self.text.len());
        self.push(NodeKind::Text { start, end })
    }
}

/// Clamps a buffer offset to `u32` (buffers are capped far below 4 GiB by
/// the input size limit, so this never actually clamps).
#[inline]
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Iterator over a node's children.
pub struct Children<'a> {
    dom: &'a Dom,
    next: NodeId,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    #[inline]
    fn next(&mut self) -> Option<NodeId> {
        let cur = self.next.some()?;
        self.next = self.dom.nodes[cur.index()].next_sibling;
        Some(cur)
    }
}

/// Pre-order iterator over a subtree.
pub struct Descendants<'a> {
    dom: &'a Dom,
    root: NodeId,
    next: NodeId,
}

impl Iterator for Descendants<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let cur = self.next.some()?;
        let nodes = &self.dom.nodes;
        let n = &nodes[cur.index()];
        self.next = if !n.first_child.is_none() {
            n.first_child
        } else {
            // Climb until a node with a next sibling, stopping at the root.
            let mut x = cur;
            loop {
                if x == self.root {
                    break NodeId::NONE;
                }
                let nx = &nodes[x.index()];
                if !nx.next_sibling.is_none() {
                    break nx.next_sibling;
                }
                x = nx.parent;
                if x.is_none() {
                    break NodeId::NONE;
                }
            }
        };
        Some(cur)
    }
}

/// One step of a [`Traverse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// The walk arrives at a node (before its children).
    Enter(NodeId),
    /// The walk leaves a node (after its children).
    Leave(NodeId),
}

/// Enter/leave walk over a subtree; see [`Dom::traverse`].
pub struct Traverse<'a> {
    dom: &'a Dom,
    root: NodeId,
    next: Option<Edge>,
}

impl Iterator for Traverse<'_> {
    type Item = Edge;
    fn next(&mut self) -> Option<Edge> {
        let cur = self.next?;
        let nodes = &self.dom.nodes;
        self.next = match cur {
            Edge::Enter(id) => {
                let fc = nodes[id.index()].first_child;
                if fc.is_none() {
                    Some(Edge::Leave(id))
                } else {
                    Some(Edge::Enter(fc))
                }
            }
            Edge::Leave(id) => {
                if id == self.root {
                    None
                } else {
                    let n = &nodes[id.index()];
                    if !n.next_sibling.is_none() {
                        Some(Edge::Enter(n.next_sibling))
                    } else if !n.parent.is_none() {
                        Some(Edge::Leave(n.parent))
                    } else {
                        None
                    }
                }
            }
        };
        Some(cur)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new, unattached `div` element.
    fn new_div(dom: &mut Dom) -> NodeId {
        let div = dom.intern_tag(&LocalName::from("div"));
        dom.push(NodeKind::Element(ElementData {
            tag: div,
            ns: Ns::Html,
            attrs_start: 0,
            attrs_len: 0,
        }))
    }

    #[test]
    fn known_tags_have_fixed_ids() {
        let dom = Dom::new();
        assert_eq!(dom.tag_name(Tag::A), "a");
        assert_eq!(dom.tag_name(Tag::BODY), "body");
        assert_eq!(dom.tag_name(Tag::SELECTEDCONTENT), "selectedcontent");
        assert!(Tag::H3.is_heading());
        assert!(!Tag::P.is_heading());
    }

    #[test]
    fn known_tags_are_found_by_name_with_their_atoms() {
        let dom = Dom::new();
        for (i, name) in KNOWN_TAGS.iter().enumerate() {
            let tag = known_tag(name).expect("known");
            assert_eq!(tag, Tag(i as u16));
            assert_eq!(dom.tag_id(&LocalName::from(*name)), Some(tag), "{name}");
            assert_eq!(tag.known_atom(), Some(&LocalName::from(*name)), "{name}");
        }
        for name in ["", "DIV", "dive", "di", "custom-element", "image", "foreignObject"] {
            assert_eq!(known_tag(name), None, "{name}");
        }
        assert_eq!(Tag(Tag::KNOWN as u16).known_atom(), None);
    }

    #[test]
    fn arena_reserved_within_a_share_of_the_markup() {
        // A start tag every 2 bytes (`<a<a<a…`): nodes and attributes
        // capped by the markup's size.
        let c = Capacity::of_markup(1 << 20, 1 << 19);
        let node_bytes = std::mem::size_of::<Node>() + std::mem::size_of::<BuildLinks>();
        let reserved = c.nodes * node_bytes
            + c.attrs * std::mem::size_of::<Attr>()
            + c.text
            + c.attr_text;
        assert!(reserved <= 4 << 20, "{reserved} bytes for 1 MiB of markup");
        // An ordinary page: 2.5 nodes and 1.5 attributes a start tag.
        let c = Capacity::of_markup(100_000, 1_000);
        assert_eq!((c.nodes, c.attrs), (2_500, 1_500));
        let mut dom = Dom::new();
        dom.reserve(c);
        assert!(dom.nodes.capacity() >= 2_501 && dom.text.capacity() >= 50_000);
        assert_eq!(dom.len(), 1);
    }

    #[test]
    fn nodes_are_24_bytes() {
        // Three links (12 bytes; the last child and the previous sibling
        // are kept beside the tree only while it is built) and a 12-byte
        // kind whose variant lives in the spare values of `Ns`:
        // element-dense pages make a node every 7 bytes of markup, so
        // this is most of their memory.
        assert_eq!(std::mem::size_of::<ElementData>(), 12);
        assert_eq!(std::mem::size_of::<NodeKind>(), 12);
        assert!(std::mem::size_of::<Node>() <= 24);
    }

    #[test]
    fn element_names_without_atoms() {
        let qual = |ns: Namespace, local: &str| QualName::new(None, ns, LocalName::from(local));
        let mut dom = Dom::new();
        let p = dom.push_element(&qual(ns!(html), "p"), 0, 0);
        let svg = dom.push_element(&qual(ns!(svg), "foreignObject"), 0, 0);
        let odd = dom.push_element(&qual(Namespace::from("urn:x"), "thing"), 0, 0);
        assert_eq!(
            dom.element(p).map(|e| (e.tag, e.ns)),
            Some((Tag::P, Ns::Html))
        );
        assert_eq!(
            dom.element_name(svg),
            Some(("http://www.w3.org/2000/svg", "foreignObject"))
        );
        assert_eq!(dom.element(odd).map(|e| e.ns), Some(Ns::Other));
        assert_eq!(dom.element_name(odd), Some(("urn:x", "thing")));
        assert_eq!(dom.element_name(DOCUMENT), None);
        // Past the 65,535 distinct names a tag id tells apart, the name
        // is still the element's own.
        let mut last = DOCUMENT;
        let named = dom.tag_names.len();
        for i in 0..=u16::MAX as usize {
            last = dom.push_element(&qual(ns!(html), &format!("x-{i}")), 0, 0);
        }
        let folded = dom.element(last).map(|e| e.tag);
        assert_eq!(folded, Some(Tag(u16::MAX)));
        assert_eq!(
            dom.element_name(last),
            Some(("http://www.w3.org/1999/xhtml", "x-65535"))
        );
        // Only the foreign namespace and the folded names (as many as the
        // names interned before the loop) are kept aside.
        assert_eq!(dom.unusual_names.len(), 1 + named);
    }

    #[test]
    fn last_children_while_building_and_after() {
        let mut dom = Dom::new();
        let mk = new_div;
        let (p, x, y) = (mk(&mut dom), mk(&mut dom), mk(&mut dom));
        dom.append_child(DOCUMENT, p);
        dom.append_child(p, x);
        dom.append_child(p, y);
        assert_eq!(dom.last_child(p), y);
        dom.detach(y);
        assert_eq!(dom.last_child(p), x);
        dom.append_child(p, y);
        dom.done_building();
        // Found by walking now.
        assert_eq!(dom.last_child(p), y);
        assert_eq!(dom.last_child(x), NodeId::NONE);
        dom.detach(y);
        assert_eq!(dom.last_child(p), x);
        let z = mk(&mut dom);
        dom.append_child(p, z);
        assert_eq!(dom.children(p).collect::<Vec<_>>(), vec![x, z]);
        assert_eq!(dom.last_child(p), z);
    }

    #[test]
    fn prev_siblings_while_building_and_after() {
        let mut dom = Dom::new();
        let mk = new_div;
        let (p, x, y, z) = (mk(&mut dom), mk(&mut dom), mk(&mut dom), mk(&mut dom));
        dom.append_child(DOCUMENT, p);
        dom.append_child(p, x);
        dom.append_child(p, z);
        dom.insert_before(z, y);
        assert_eq!([x, y, z].map(|n| dom.prev_sibling(n)), [NodeId::NONE, x, y]);
        dom.detach(y);
        assert_eq!(dom.prev_sibling(z), x);
        dom.insert_before(z, y);
        dom.done_building();
        // Found by walking now.
        assert_eq!(
            [x, y, z, p].map(|n| dom.prev_sibling(n)),
            [NodeId::NONE, x, y, NodeId::NONE]
        );
        dom.detach(y);
        assert_eq!(dom.prev_sibling(z), x);
        assert_eq!(dom.prev_sibling(y), NodeId::NONE);
        assert_eq!(dom.children(p).collect::<Vec<_>>(), vec![x, z]);
    }

    #[test]
    fn move_children_before_while_building_and_after() {
        for done in [false, true] {
            let mut dom = Dom::new();
            let mk = new_div;
            let (p, a, s, from, c1, c2) = (
                mk(&mut dom),
                mk(&mut dom),
                mk(&mut dom),
                mk(&mut dom),
                mk(&mut dom),
                mk(&mut dom),
            );
            dom.append_child(DOCUMENT, p);
            dom.append_child(p, a);
            dom.append_child(p, s);
            dom.append_child(p, from);
            dom.append_child(from, c1);
            dom.append_child(from, c2);
            if done {
                dom.done_building();
            }
            dom.move_children_before(from, s);
            assert_eq!(
                dom.children(p).collect::<Vec<_>>(),
                vec![a, c1, c2, s, from]
            );
            assert_eq!(dom.children(from).count(), 0);
            assert_eq!(dom.node(c2).parent, p);
            assert_eq!([c1, c2, s].map(|n| dom.prev_sibling(n)), [a, c1, c2]);
            assert_eq!(dom.last_child(p), from);
            assert_eq!(dom.last_child(from), NodeId::NONE);
            // To the front of a list.
            dom.detach(c1);
            dom.append_child(from, c1);
            dom.detach(a);
            dom.move_children_before(from, c2);
            assert_eq!(dom.children(p).collect::<Vec<_>>(), vec![c1, c2, s, from]);
        }
    }

    /// Every node's parent, first child and next sibling.
    fn links(dom: &Dom) -> Vec<(NodeId, NodeId, NodeId)> {
        dom.nodes
            .iter()
            .map(|n| (n.parent, n.first_child, n.next_sibling))
            .collect()
    }

    #[test]
    fn detach_all_is_detach_one_by_one() {
        // A parent of twelve children, the even ones each with two
        // children of their own.
        let build = || {
            let mut dom = Dom::new();
            let root = new_div(&mut dom);
            dom.append_child(DOCUMENT, root);
            let mut kids = Vec::new();
            for i in 0..12 {
                let c = new_div(&mut dom);
                dom.append_child(root, c);
                kids.push(c);
                if i % 2 == 0 {
                    for _ in 0..2 {
                        let g = new_div(&mut dom);
                        dom.append_child(c, g);
                        kids.push(g);
                    }
                }
            }
            (dom, kids)
        };
        let picks: [&[usize]; 6] = [
            &[],
            &[0],
            &[0, 1, 2, 3],
            &[5, 16, 17, 4],
            &[1, 2, 4, 7, 9, 11, 14, 20, 23],
            &[0, 3, 6, 9, 12, 15, 18, 21, 3, 0],
        ];
        for building in [true, false] {
            for pick in picks {
                let (mut one, kids) = build();
                let (mut all, _) = build();
                if !building {
                    one.done_building();
                    all.done_building();
                }
                let ids: Vec<NodeId> = pick.iter().map(|&i| kids[i]).collect();
                for &id in &ids {
                    one.detach(id);
                }
                all.detach_all(&ids);
                assert_eq!(links(&one), links(&all), "{pick:?}");
                for i in 0..one.len() {
                    let n = NodeId(i as u32);
                    assert_eq!(one.prev_sibling(n), all.prev_sibling(n), "{pick:?} {i}");
                    assert_eq!(one.last_child(n), all.last_child(n), "{pick:?} {i}");
                }
            }
        }
    }

    #[test]
    fn surgery_and_walks() {
        let mut dom = Dom::new();
        let mk = new_div;
        let a = mk(&mut dom);
        let b = mk(&mut dom);
        let c = mk(&mut dom);
        dom.append_child(DOCUMENT, a);
        dom.append_child(a, c);
        dom.insert_before(c, b);
        let t = dom.new_text("x");
        dom.append_child(b, t);
        dom.extend_text(t, "y");
        assert_eq!(dom.text_of(t), Some("xy"));
        let order: Vec<_> = dom.descendants(DOCUMENT).collect();
        assert_eq!(order, vec![DOCUMENT, a, b, t, c]);
        let edges: Vec<_> = dom.traverse(a).collect();
        assert_eq!(
            edges,
            vec![
                Edge::Enter(a),
                Edge::Enter(b),
                Edge::Enter(t),
                Edge::Leave(t),
                Edge::Leave(b),
                Edge::Enter(c),
                Edge::Leave(c),
                Edge::Leave(a)
            ]
        );
        dom.detach(b);
        assert_eq!(dom.children(a).collect::<Vec<_>>(), vec![c]);
        // A text node moved after other text was written stays contiguous.
        let u = dom.new_text("q");
        dom.extend_text(t, "z");
        assert_eq!(dom.text_of(t), Some("xyz"));
        assert_eq!(dom.text_of(u), Some("q"));
    }
}
