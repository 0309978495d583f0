//! Stage 4, **annotate**: ONE pass over the cleaned tree that fills the
//! per-node statistics every algorithm reads (ALGORITHMS.md#annotation).
//!
//! **Unstable:** public only with the `unstable` feature, for the tools
//! of the unchaff workspace (evaluation, training, explanation); may
//! change in any release. See the crate docs' *Stability*.
//!
//! The walk enters and leaves every node of the content root's subtree
//! (see [`Dom::traverse`]: no recursion, no stack); on the way down it
//! assigns tag paths and link depth, on the way up it sums a node's counts
//! into its parent. Algorithms never walk subtrees again: a subtree's text
//! nodes are a contiguous range of [`Page::texts`], so "how many of X lie
//! inside v" is a prefix-sum difference.

use rustc_hash::FxHashMap;

use crate::Error;
use crate::dom::{Dom, Edge, NodeId, NodeKind, Tag};
use crate::limits::{Deadline, Stage};

/// Interned tag path (`html/body/div/p`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct PathId(pub u32);

/// Statistics of one node's subtree. For a text node the "subtree" is the
/// node itself. Nodes outside the content root stay all-zero.
///
/// [`Page`] stores them for elements only (a text node's follow from its
/// [`TextInfo`] and its parent's): on element-dense pages half the nodes
/// are text, and 36 bytes a node was a third of the memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeStats {
    /// Characters of counted text (white space collapsed, trimmed), ALGORITHMS.md#counted-text-and-length.
    pub chars: u32,
    /// Of those, characters inside an `<a>`.
    pub link_chars: u32,
    /// Elements in the subtree, the node itself included (0 for text).
    pub elements: u32,
    /// `<a>` elements in the subtree, the node itself included.
    pub links: u32,
    /// Counted text nodes in the subtree (white-space-only ones excluded).
    pub text_nodes: u32,
    /// `<img>` elements in the subtree.
    pub images: u32,
    /// Index into [`Page::texts`] of the subtree's first counted text node;
    /// the subtree's text nodes are `text_begin .. text_begin + text_nodes`.
    pub text_begin: u32,
    /// Tag path of the element (for text nodes: of their parent element).
    pub path: PathId,
    /// Depth below the content root (the root is 0).
    pub depth: u32,
}

impl NodeStats {
    /// Adds a child's subtree counts to this node's (characters, link
    /// characters, elements, links, text nodes, images).
    fn add_subtree(&mut self, c: &NodeStats) {
        self.chars += c.chars;
        self.link_chars += c.link_chars;
        self.elements += c.elements;
        self.links += c.links;
        self.text_nodes += c.text_nodes;
        self.images += c.images;
    }
}

/// Links or images of an element at or above this are kept in
/// [`ElementTable`]'s side table (the 16-bit field then holds this value
/// as a marker): a subtree with 65,535 links is rare, and 16-bit counts
/// keep an element's record at 28 bytes.
const LARGE_COUNT: u16 = u16::MAX;

/// An element's statistics as [`Page`] stores them: [`NodeStats`] less
/// `depth` (its tag path's length less the content root's) and with
/// `links` and `images` in 16 bits each (see [`LARGE_COUNT`]): 28 bytes
/// instead of 36, on element-dense pages a saving of 8 bytes a node pair.
#[derive(Clone, Copy, Debug, Default)]
struct PackedStats {
    chars: u32,
    link_chars: u32,
    elements: u32,
    text_nodes: u32,
    text_begin: u32,
    path: PathId,
    links: u16,
    images: u16,
}

/// The statistics of a page's elements: one [`PackedStats`] an element,
/// and the links and images of the few whose counts reach
/// [`LARGE_COUNT`].
#[derive(Clone, Debug, Default)]
struct ElementTable {
    packed: Vec<PackedStats>,
    /// (links, images) by element index, for the elements whose packed
    /// `links` is [`LARGE_COUNT`].
    large: FxHashMap<u32, (u32, u32)>,
}

impl ElementTable {
    fn with_capacity(n: usize) -> Self {
        ElementTable {
            packed: Vec::with_capacity(n),
            large: FxHashMap::default(),
        }
    }

    fn len(&self) -> usize {
        self.packed.len()
    }

    /// Element `i`'s statistics, its depth given.
    #[inline(always)]
    fn get(&self, i: usize, depth: u32) -> NodeStats {
        let p = &self.packed[i];
        let (links, images) = if p.links == LARGE_COUNT {
            self.large.get(&(i as u32)).copied().unwrap_or_default()
        } else {
            (u32::from(p.links), u32::from(p.images))
        };
        NodeStats {
            chars: p.chars,
            link_chars: p.link_chars,
            elements: p.elements,
            links,
            text_nodes: p.text_nodes,
            images,
            text_begin: p.text_begin,
            path: p.path,
            depth,
        }
    }

    /// Stores `s` (all but its depth) as element `i`'s statistics.
    #[inline(always)]
    fn set(&mut self, i: usize, s: &NodeStats) {
        let small = |v: u32| u16::try_from(v).ok().filter(|&v| v < LARGE_COUNT);
        let (links, images) = match (small(s.links), small(s.images)) {
            (Some(l), Some(m)) => (l, m),
            _ => {
                self.large.insert(i as u32, (s.links, s.images));
                (LARGE_COUNT, 0)
            }
        };
        let p = PackedStats {
            chars: s.chars,
            link_chars: s.link_chars,
            elements: s.elements,
            text_nodes: s.text_nodes,
            text_begin: s.text_begin,
            path: s.path,
            links,
            images,
        };
        if i == self.packed.len() {
            self.packed.push(p);
        } else {
            self.packed[i] = p;
        }
    }

    /// Adds a child's subtree counts to element `i`'s (see
    /// [`NodeStats::add_subtree`]).
    #[inline(always)]
    fn add_subtree(&mut self, i: usize, c: &NodeStats) {
        if c.links != 0 || c.images != 0 {
            let mut s = self.get(i, 0);
            s.add_subtree(c);
            return self.set(i, &s);
        }
        let p = &mut self.packed[i];
        p.chars += c.chars;
        p.link_chars += c.link_chars;
        p.elements += c.elements;
        p.text_nodes += c.text_nodes;
    }
}

/// A counted (not white-space-only) text node, in document order.
///
/// Packed (9 bytes, not 12): element-dense pages have a text node an
/// element. Read its fields by value (`t.chars`), not by reference. Its
/// tag path is its parent's ([`Page::text_path`]), not stored: 4 bytes a
/// node pair on element-dense pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, packed)]
pub struct TextInfo {
    /// The text node.
    pub node: NodeId,
    /// Its characters (white space collapsed, trimmed).
    pub chars: u32,
    /// Whether it lies inside an `<a>`.
    pub in_link: bool,
}

/// The interned tag paths of a page.
#[derive(Clone, Debug, Default)]
pub struct Paths {
    /// (parent path, last tag) of each path; the root paths have parent
    /// `None`.
    entries: Vec<(Option<PathId>, Tag)>,
    /// The number of tags of each path (1 for a root path): an element's
    /// depth is its path's less the content root's, so [`Page`] does not
    /// store depths.
    lens: Vec<u32>,
    index: FxHashMap<(u32, Tag), PathId>,
}

impl Paths {
    /// The path made by appending `tag` to `parent` (`None`: a root path).
    pub fn child(&mut self, parent: Option<PathId>, tag: Tag) -> PathId {
        let key = (parent.map_or(u32::MAX, |p| p.0), tag);
        if let Some(&p) = self.index.get(&key) {
            return p;
        }
        let p = PathId(self.entries.len() as u32);
        let len = parent
            .and_then(|q| self.lens.get(q.0 as usize))
            .map_or(1, |l| l + 1);
        self.entries.push((parent, tag));
        self.lens.push(len);
        self.index.insert(key, p);
        p
    }

    /// Number of distinct paths.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The number of tags of `p` (1 for a root path).
    #[inline]
    fn len_of(&self, p: PathId) -> u32 {
        self.lens.get(p.0 as usize).copied().unwrap_or(0)
    }

    /// Whether no path was interned.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The tags of a path, root first.
    pub fn tags(&self, p: PathId) -> Vec<Tag> {
        let mut out = Vec::new();
        let mut cur = Some(p);
        while let Some(c) = cur {
            let (parent, tag) = self.entries[c.0 as usize];
            out.push(tag);
            cur = parent;
        }
        out.reverse();
        out
    }

    /// The path as text, `html/body/div/p`.
    pub fn to_string(&self, dom: &Dom, p: PathId) -> String {
        self.tags(p)
            .iter()
            .map(|&t| dom.tag_name(t))
            .collect::<Vec<_>>()
            .join("/")
    }
}

/// A parsed, cleaned and annotated page: what every algorithm reads.
#[derive(Debug)]
pub struct Page<'a> {
    /// The tree.
    pub dom: &'a Dom,
    /// The decoded source (CETR reads lines of it).
    pub source: &'a str,
    /// The root the algorithms see (`<body>`).
    pub root: NodeId,
    /// By node index: for an element, its position in
    /// [`Page::elements`] (and in `element_stats`); for a text node, its
    /// [`NodeStats::text_begin`]; for another node of the subtree (a root
    /// that is the document), its index in `other_stats`; [`NO_SLOT`]
    /// outside the subtree.
    slots: Vec<u32>,
    /// The statistics of [`Page::elements`], in the same order.
    element_stats: ElementTable,
    /// The tag path length of the content root (0 when it is not an
    /// element): an element's depth is its path's length less this.
    root_len: u32,
    /// The statistics of the subtree's nodes that are neither elements nor
    /// text (at most the root).
    other_stats: Vec<NodeStats>,
    /// Counted text nodes in document order.
    pub texts: Vec<TextInfo>,
    /// The elements of the content root's subtree in document order, root
    /// first.
    pub elements: Vec<NodeId>,
    /// The interned tag paths.
    pub paths: Paths,
    /// The page's URL when the caller knows it ([`crate::Input::url`]);
    /// site-aware algorithms key their templates by its host.
    pub url: Option<&'a str>,
    /// When the page's time is up ([`crate::Options::timeout`]): an
    /// algorithm with long loops polls [`Deadline::expired`] and may stop
    /// early with any selection; the extractor then reports
    /// [`crate::Error::Timeout`].
    pub deadline: Deadline,
}

/// [`Page`]'s slot of a node outside the content root's subtree.
const NO_SLOT: u32 = u32::MAX;

/// Where a [`Page`]'s statistics live: the arrays behind
/// [`Page::stats`], shared by [`annotate_until`] while it fills them.
struct Store<'s> {
    dom: &'s Dom,
    slots: &'s [u32],
    element_stats: &'s ElementTable,
    other_stats: &'s [NodeStats],
    texts: &'s [TextInfo],
    paths: &'s Paths,
    root_len: u32,
}

impl Store<'_> {
    /// The statistics of `id` (see [`Page::stats`]).
    #[inline(always)]
    fn stats(&self, id: NodeId) -> NodeStats {
        let slot = self.slots[id.index()];
        let node = self.dom.node(id);
        match node.kind {
            _ if slot == NO_SLOT => NodeStats::default(),
            NodeKind::Element(_) => self.element(slot as usize),
            NodeKind::Text { .. } => self.text_stats(id, node.parent, slot),
            _ => self.other_stats[slot as usize],
        }
    }

    /// The statistics of `page.elements[i]`.
    #[inline(always)]
    fn element(&self, i: usize) -> NodeStats {
        let path = self.element_stats.packed[i].path;
        self.element_stats.get(i, self.depth_of(path))
    }

    /// The depth of an element of tag path `path`.
    #[inline(always)]
    fn depth_of(&self, path: PathId) -> u32 {
        self.paths.len_of(path).saturating_sub(self.root_len)
    }

    /// Whether `id` is a counted text node (one of [`Page::texts`]).
    #[inline(always)]
    fn is_counted_text(&self, id: NodeId) -> bool {
        let slot = self.slots[id.index()];
        self.texts
            .get(slot as usize)
            .is_some_and(|t| { t.node } == id)
    }

    /// The tag path of a text node whose parent is `parent`: the
    /// parent's (the default outside the subtree).
    #[inline(always)]
    fn text_path(&self, parent: NodeId) -> PathId {
        match self.slots.get(parent.index()) {
            Some(&slot) if slot != NO_SLOT => match self.dom.node(parent).kind {
                NodeKind::Element(_) => self.element_stats.packed[slot as usize].path,
                _ => self.other_stats[slot as usize].path,
            },
            _ => PathId::default(),
        }
    }

    /// A text node's statistics: its counts from its [`TextInfo`] (none
    /// for a white-space-only node), its path and depth from its parent.
    #[inline]
    fn text_stats(&self, id: NodeId, parent: NodeId, text_begin: u32) -> NodeStats {
        let (path, depth) = match self.slots.get(parent.index()) {
            Some(&slot) if slot != NO_SLOT => match self.dom.node(parent).kind {
                NodeKind::Element(_) => {
                    let path = self.element_stats.packed[slot as usize].path;
                    (path, self.depth_of(path) + 1)
                }
                _ => {
                    let p = &self.other_stats[slot as usize];
                    (p.path, p.depth + 1)
                }
            },
            _ => (PathId::default(), 0),
        };
        let mut s = NodeStats {
            text_begin,
            path,
            depth,
            ..NodeStats::default()
        };
        if let Some(t) = self.texts.get(text_begin as usize)
            && { t.node } == id
        {
            s.chars = t.chars;
            s.text_nodes = 1;
            if t.in_link {
                s.link_chars = t.chars;
            }
        }
        s
    }
}

impl Page<'_> {
    fn store(&self) -> Store<'_> {
        Store {
            dom: self.dom,
            slots: &self.slots,
            element_stats: &self.element_stats,
            other_stats: &self.other_stats,
            texts: &self.texts,
            paths: &self.paths,
            root_len: self.root_len,
        }
    }

    /// The statistics of a node (all zero outside the content root's
    /// subtree).
    #[inline(always)]
    pub fn stats(&self, id: NodeId) -> NodeStats {
        self.store().stats(id)
    }

    /// The position of element `id` in [`Page::elements`] (`None` for
    /// other nodes and outside the subtree).
    #[inline]
    pub fn element_index(&self, id: NodeId) -> Option<usize> {
        let slot = self.slots[id.index()];
        (slot != NO_SLOT && matches!(self.dom.node(id).kind, NodeKind::Element(_)))
            .then_some(slot as usize)
    }

    /// The statistics of `page.elements[i]`.
    #[inline]
    pub fn element_stats(&self, i: usize) -> NodeStats {
        self.store().element(i)
    }

    /// [`NodeStats::text_begin`] of `page.elements[i]` (`None` past the
    /// end): the number of counted text nodes before the element in
    /// document order, so the texts before it are `texts[..begin]`. Read
    /// alone, without the rest of its statistics.
    #[inline]
    pub fn element_text_begin(&self, i: usize) -> Option<u32> {
        self.element_stats.packed.get(i).map(|p| p.text_begin)
    }

    /// The tag path of counted text node `t` (its parent element's).
    #[inline]
    pub fn text_path(&self, t: TextInfo) -> PathId {
        self.store().text_path(self.dom.node(t.node).parent)
    }

    /// The counted text nodes inside `id`'s subtree.
    #[inline]
    pub fn texts_in(&self, id: NodeId) -> &[TextInfo] {
        let s = self.stats(id);
        let b = s.text_begin as usize;
        &self.texts[b..b + s.text_nodes as usize]
    }

    /// The children of `id` that count as blocks: elements and text nodes
    /// that are not white-space-only (ALGORITHMS.md#annotation).
    pub fn block_children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.dom
            .children(id)
            .filter(move |&c| match self.dom.node(c).kind {
                NodeKind::Element(_) => true,
                NodeKind::Text { .. } => self.store().is_counted_text(c),
                _ => false,
            })
    }
}

/// Characters of `s` after collapsing white-space runs to one space and
/// trimming: the "length" of ALGORITHMS.md#counted-text-and-length.
///
/// Runs of ASCII letters are counted in an inner loop of their own, and
/// only the four UTF-8 lead bytes that can begin a non-ASCII white-space
/// character (`C2`: U+0085, U+00A0; `E1`: U+1680; `E2`: U+2000–U+205F;
/// `E3`: U+3000) are decoded; the others are one character each. The
/// plain char-by-char loop was 2.7% of `unchaff bench`'s instructions
/// (docs/history/benchmarks-rounds-1-3.md, round 2 session 7). Eight
/// bytes of ASCII are read as one word (`ascii_chunk`).
pub fn collapsed_len(s: &str) -> u32 {
    let bytes = s.as_bytes();
    let len = bytes.len();
    // ASCII white space (tab, line feed, vertical tab, form feed,
    // carriage return, space) as one mask test.
    const SPACES: u64 = (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12) | (1 << 13) | (1 << 32);
    let ascii_space = |b: u8| b <= b' ' && SPACES & (1u64 << b) != 0;
    let mut n: u32 = 0;
    // A character was counted; white space was read since the last one.
    let (mut seen, mut gap) = (false, false);
    let mut i = 0;
    while i < len {
        if let Some(chunk) = bytes.get(i..i + CHUNK) {
            let mut w = [0u8; CHUNK];
            w.copy_from_slice(chunk);
            let w = u64::from_le_bytes(w);
            if w & HIGH_BITS == 0 {
                n += ascii_chunk(w, &mut seen, &mut gap);
                i += CHUNK;
                continue;
            }
        }
        let b = bytes[i];
        let (space, width) = if b < 0x80 {
            if !ascii_space(b) {
                // The run of printable ASCII from here.
                let start = i;
                i += 1;
                // Printable ASCII ('!' to '~') in one compare; a control
                // character ends the run and starts the next one.
                while i < len && bytes[i].wrapping_sub(b'!') <= b'~' - b'!' {
                    i += 1;
                }
                n += (i - start) as u32 + u32::from(gap && seen);
                (seen, gap) = (true, false);
                continue;
            }
            // The run of ASCII white space from here.
            i += 1;
            while i < len && ascii_space(bytes[i]) {
                i += 1;
            }
            gap = true;
            continue;
        } else if matches!(b, 0xC2 | 0xE1 | 0xE2 | 0xE3) {
            let c = s.get(i..).and_then(|t| t.chars().next()).unwrap_or(' ');
            (c.is_whitespace(), c.len_utf8())
        } else {
            (false, utf8_width(b))
        };
        if space {
            gap = true;
        } else {
            n += 1 + u32::from(gap && seen);
            (seen, gap) = (true, false);
        }
        i += width;
    }
    n
}

/// Bytes [`collapsed_len`] reads as one word.
const CHUNK: usize = 8;

/// The high bit of each byte of a word.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// 1 in each byte of a word.
const BYTE_ONES: u64 = 0x0101_0101_0101_0101;

/// The characters [`collapsed_len`] counts in eight ASCII bytes (`w`,
/// little-endian: the first byte lowest), after `seen` (a character was
/// counted) and `gap` (the byte before was white space), which it
/// updates: each byte that is not white space, and one space before each
/// that follows white space and a counted character. White space is
/// found for all eight bytes at once: a byte `b` below 0x80 is at least
/// `k` (below 0x80) exactly when `(0x80 | b) - k` keeps its high bit, and
/// no byte borrows from the next.
#[inline]
fn ascii_chunk(w: u64, seen: &mut bool, gap: &mut bool) -> u32 {
    let at_least = |k: u8| ((w | HIGH_BITS) - BYTE_ONES * u64::from(k)) & HIGH_BITS;
    // Tab, line feed, vertical tab, form feed, carriage return; space.
    let space = (at_least(9) & !at_least(14)) | (at_least(b' ') & !at_least(b' ' + 1));
    let chars = !space & HIGH_BITS;
    // Characters right after white space (the first byte's: `gap`).
    let after_space = chars & (space << 8 | if *gap { 0x80 } else { 0 });
    let mut n = high_bits_set(chars) + high_bits_set(after_space);
    if !*seen && after_space & chars & chars.wrapping_neg() != 0 {
        // The text's first character: leading white space is trimmed.
        n -= 1;
    }
    *seen |= chars != 0;
    *gap = space >> 63 != 0;
    n
}

/// How many bytes of `mask` (only high bits set) have theirs: each
/// byte's bit moved to its lowest place, all eight summed into the top
/// byte by one multiplication (a portable popcount is a dozen steps).
#[inline]
fn high_bits_set(mask: u64) -> u32 {
    ((mask >> 7).wrapping_mul(BYTE_ONES) >> 56) as u32
}

/// Bytes of the UTF-8 character whose lead byte is `b` (≥ 0x80).
#[inline]
fn utf8_width(b: u8) -> usize {
    match b {
        0xF0.. => 4,
        0xE0.. => 3,
        _ => 2,
    }
}

/// The tags of `node` and of its ancestors, `node`'s first (the root's
/// own tag path, read backwards).
fn tags_up_from(dom: &Dom, node: NodeId) -> Vec<Tag> {
    let mut chain = Vec::new();
    let mut cur = node.some();
    while let Some(c) = cur {
        if let Some(t) = dom.tag(c) {
            chain.push(t);
        }
        cur = dom.node(c).parent.some();
    }
    chain
}

/// Builds the [`Page`] for the subtree of `root`.
pub fn annotate<'a>(dom: &'a Dom, source: &'a str, root: NodeId) -> Page<'a> {
    // Without a deadline the pass cannot fail.
    match annotate_until(dom, source, root, &Deadline::NONE) {
        Ok(page) => page,
        Err(_) => unreachable!("no deadline, no error"),
    }
}

/// Nodes between deadline checks in [`annotate_until`]: a clock read per
/// 4,096 nodes is nothing next to their statistics.
const NODES_PER_DEADLINE_CHECK: u32 = 4096;

/// [`annotate`], checking `deadline` every 4,096
/// nodes ([`Error::Timeout`] when it passes); the page carries the
/// deadline on to the algorithm.
pub fn annotate_until<'a>(
    dom: &'a Dom,
    source: &'a str,
    root: NodeId,
    deadline: &Deadline,
) -> Result<Page<'a>, Error> {
    let mut seen: u32 = 0;
    let mut slots = vec![NO_SLOT; dom.len()];
    // Allocated once (Dom::elements_made).
    let mut element_stats = ElementTable::with_capacity(dom.elements_made());
    let mut other_stats: Vec<NodeStats> = Vec::new();
    let mut texts = Vec::with_capacity(dom.texts_made());
    let mut elements = Vec::with_capacity(dom.elements_made());
    let mut paths = Paths::default();

    // The root's own path: the tags of its ancestors, then its own.
    let chain = tags_up_from(dom, root);
    let mut root_parent_path: Option<PathId> = None;
    for (i, &t) in chain.iter().rev().enumerate() {
        if i + 1 == chain.len() {
            break;
        }
        root_parent_path = Some(paths.child(root_parent_path, t));
    }
    let root_len = match dom.tag(root) {
        Some(_) => root_parent_path.map_or(0, |p| paths.len_of(p)) + 1,
        None => 0,
    };

    let mut link_depth: u32 = 0;
    for edge in dom.traverse(root) {
        match edge {
            Edge::Enter(id) => {
                seen = seen.wrapping_add(1);
                if seen.is_multiple_of(NODES_PER_DEADLINE_CHECK) {
                    deadline.check(Stage::Annotate)?;
                }
                let parent = dom.node(id).parent;
                let (parent_path, depth) = if id == root {
                    (root_parent_path, 0)
                } else {
                    let slot = slots[parent.index()] as usize;
                    match dom.node(parent).kind {
                        NodeKind::Element(_) => {
                            let path = element_stats.packed[slot].path;
                            (Some(path), paths.len_of(path) - root_len + 1)
                        }
                        _ => (Some(other_stats[slot].path), other_stats[slot].depth + 1),
                    }
                };
                let text_begin = texts.len() as u32;
                let mut s = NodeStats {
                    depth,
                    text_begin,
                    ..NodeStats::default()
                };
                match &dom.node(id).kind {
                    NodeKind::Element(e) => {
                        s.path = paths.child(parent_path, e.tag);
                        debug_assert_eq!(paths.len_of(s.path) - root_len, depth);
                        s.elements = 1;
                        if e.tag == Tag::A {
                            s.links = 1;
                            link_depth += 1;
                        } else if e.tag == Tag::IMG {
                            s.images = 1;
                        }
                        slots[id.index()] = element_stats.len() as u32;
                        element_stats.set(element_stats.len(), &s);
                        elements.push(id);
                    }
                    NodeKind::Text { .. } => {
                        slots[id.index()] = text_begin;
                        let text = dom.text_of(id).unwrap_or_default();
                        let chars = collapsed_len(text);
                        if chars > 0 {
                            texts.push(TextInfo {
                                node: id,
                                chars,
                                in_link: link_depth > 0,
                            });
                            // A leaf: its counts go to its parent now (a
                            // root is never text).
                            if id != root {
                                let link_chars = if link_depth > 0 { chars } else { 0 };
                                let slot = slots[parent.index()] as usize;
                                match dom.node(parent).kind {
                                    NodeKind::Element(_) => {
                                        let p = &mut element_stats.packed[slot];
                                        p.chars += chars;
                                        p.text_nodes += 1;
                                        p.link_chars += link_chars;
                                    }
                                    _ => {
                                        let p = &mut other_stats[slot];
                                        p.chars += chars;
                                        p.text_nodes += 1;
                                        p.link_chars += link_chars;
                                    }
                                }
                            }
                        }
                    }
                    _ => {
                        slots[id.index()] = other_stats.len() as u32;
                        other_stats.push(s);
                    }
                }
            }
            Edge::Leave(id) => {
                if dom.is(id, Tag::A) {
                    link_depth = link_depth.saturating_sub(1);
                }
                // Text nodes gave their counts on entering; depths are not
                // summed.
                let c = match dom.node(id).kind {
                    _ if id == root => continue,
                    NodeKind::Element(_) => element_stats.get(slots[id.index()] as usize, 0),
                    NodeKind::Text { .. } => continue,
                    _ => other_stats[slots[id.index()] as usize],
                };
                let parent = dom.node(id).parent;
                let slot = slots[parent.index()] as usize;
                match dom.node(parent).kind {
                    NodeKind::Element(_) => element_stats.add_subtree(slot, &c),
                    _ => other_stats[slot].add_subtree(&c),
                }
            }
        }
    }
    Ok(Page {
        dom,
        source,
        root,
        slots,
        element_stats,
        root_len,
        other_stats,
        texts,
        elements,
        paths,
        url: None,
        deadline: *deadline,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn a_texts_path_is_its_parents() {
        let dom = parse("<body>a<p>b<b>c</b></p><ul><li>d<a>e</a></li></ul></body>");
        let page = annotate(&dom, "", dom.body().unwrap());
        assert_eq!(page.texts.len(), 5);
        for &t in &page.texts {
            let parent = dom.node(t.node).parent;
            assert_eq!(page.text_path(t), page.stats(parent).path);
            assert_eq!(page.text_path(t), page.stats(t.node).path);
        }
        let names: Vec<String> = (page.texts.iter())
            .map(|&t| page.paths.to_string(&dom, page.text_path(t)))
            .collect();
        assert_eq!(names[4], "html/body/ul/li/a");
    }

    #[test]
    fn element_text_begin_is_the_stats_text_begin() {
        let dom = parse("<body><p>a<b>b</b></p> <div><i></i>c</div><span>d</span></body>");
        let page = annotate(&dom, "", dom.body().unwrap());
        for i in 0..page.elements.len() {
            let want = page.element_stats(i).text_begin;
            assert_eq!(page.element_text_begin(i), Some(want), "element {i}");
        }
        // body 0, p 0, b 1, div 2, i 2, span 3.
        let begins: Vec<u32> = (0..page.elements.len())
            .filter_map(|i| page.element_text_begin(i))
            .collect();
        assert_eq!(begins, vec![0, 0, 1, 2, 2, 3]);
        assert_eq!(page.element_text_begin(page.elements.len()), None);
    }

    #[test]
    fn collapsed_lengths() {
        assert_eq!(collapsed_len("  a  b \n c "), 5);
        assert_eq!(collapsed_len("\u{a0}é\u{2003}ü"), 3);
        assert_eq!(collapsed_len(" \n\t "), 0);
        assert_eq!(collapsed_len(""), 0);
    }

    /// ALGORITHMS.md#counted-text-and-length's length the plain way: collapse, trim, count characters.
    fn plain_collapsed_len(s: &str) -> u32 {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .count() as u32
    }

    #[test]
    fn collapsed_length_matches_the_plain_count_on_mixed_text() {
        // Every white-space character Rust knows, ASCII, Latin, CJK,
        // four-byte characters and look-alikes that are not white space
        // (U+200B, U+2060, U+00AD), strung together by a fixed LCG.
        let alphabet: Vec<char> = " \t\n\r\x0b\x0c\x01\x1f\x7faZ9.\u{85}\u{a0}\u{1680}\u{2000}\u{200a}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}\u{200b}\u{2060}\u{ad}é中文\u{1f600}\u{e000}"
            .chars()
            .collect();
        let mut x: u64 = 1;
        for len in 0..400 {
            let mut s = String::new();
            for _ in 0..len % 40 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push(alphabet[(x >> 33) as usize % alphabet.len()]);
            }
            assert_eq!(collapsed_len(&s), plain_collapsed_len(&s), "{s:?}");
        }
    }

    #[test]
    fn collapsed_length_matches_the_plain_count_on_long_ascii() {
        // Long runs of ASCII (read eight bytes at a time), white space of
        // every kind at every offset of a word, control characters, and
        // a non-ASCII character now and then.
        let alphabet: Vec<char> = "aaaaZ9.  \t\n\r\x0b\x0c\x01\x1f\x7f\x08\x0e\x1f!~ \u{a0}\u{3000}\u{e9}"
            .chars()
            .collect();
        let mut x: u64 = 7;
        for len in 0..600 {
            let mut s = String::new();
            for _ in 0..len % 97 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // Mostly ASCII: the non-ASCII characters (the last three)
                // one time in 64.
                let k = (x >> 33) as usize;
                let pick = match k.is_multiple_of(64) {
                    true => alphabet.len() - 1 - k / 64 % 3,
                    false => k % (alphabet.len() - 3),
                };
                s.push(alphabet[pick]);
            }
            assert_eq!(collapsed_len(&s), plain_collapsed_len(&s), "{s:?}");
        }
        for s in ["        x", "x        ", "  ab  cd  ef  gh  ", "abcdefghijklmnop", "\t\t\t\t\t\t\t\ta"] {
            assert_eq!(collapsed_len(s), plain_collapsed_len(s), "{s:?}");
        }
    }

    /// Every node's statistics the plain way: one full-size record a node.
    fn reference_stats(dom: &Dom, root: NodeId) -> Vec<NodeStats> {
        let mut stats = vec![NodeStats::default(); dom.len()];
        let mut paths = Paths::default();
        let chain = tags_up_from(dom, root);
        let mut root_parent_path = None;
        for (i, &t) in chain.iter().rev().enumerate() {
            if i + 1 < chain.len() {
                root_parent_path = Some(paths.child(root_parent_path, t));
            }
        }
        let (mut texts, mut in_link) = (0u32, 0u32);
        for edge in dom.traverse(root) {
            match edge {
                Edge::Enter(id) => {
                    let (pp, depth) = if id == root {
                        (root_parent_path, 0)
                    } else {
                        let ps = stats[dom.node(id).parent.index()];
                        (Some(ps.path), ps.depth + 1)
                    };
                    let s = &mut stats[id.index()];
                    s.depth = depth;
                    s.text_begin = texts;
                    match dom.node(id).kind {
                        NodeKind::Element(e) => {
                            s.path = paths.child(pp, e.tag);
                            s.elements = 1;
                            s.links = u32::from(e.tag == Tag::A);
                            s.images = u32::from(e.tag == Tag::IMG);
                            in_link += s.links;
                        }
                        NodeKind::Text { .. } => {
                            s.path = pp.unwrap_or_default();
                            s.chars = collapsed_len(dom.text_of(id).unwrap());
                            if s.chars > 0 {
                                s.text_nodes = 1;
                                texts += 1;
                                if in_link > 0 {
                                    s.link_chars = s.chars;
                                }
                            }
                        }
                        _ => {}
                    }
                }
                Edge::Leave(id) => {
                    in_link -= u32::from(dom.is(id, Tag::A));
                    if id != root {
                        let c = stats[id.index()];
                        stats[dom.node(id).parent.index()].add_subtree(&c);
                    }
                }
            }
        }
        stats
    }

    #[test]
    fn stats_kept_for_elements_only_are_every_nodes() {
        let pages = [
            "<body><div><p>Hello  world <a href=#>link <b>bold</b> </a></p>\n\
             <ul><li><a>x</a></li> <li>y<img></li></ul></div>  <img>tail</body>",
            "<title>T</title><table><tr><td>a</td><td> </td></tr></table>\
             <a><a>nested</a> after</a><svg><title>s</title></svg>",
            "plain text, no markup",
        ];
        for html in pages {
            let dom = parse(html);
            for root in [dom.content_root(), crate::dom::DOCUMENT] {
                let page = annotate(&dom, "", root);
                let want = reference_stats(&dom, root);
                for (i, w) in want.iter().enumerate() {
                    let id = NodeId(i as u32);
                    assert_eq!(page.stats(id), *w, "node {i} of {html:?}");
                    if let Some(k) = page.element_index(id) {
                        assert_eq!(page.elements[k], id);
                        assert_eq!(page.element_stats(k), *w);
                    }
                }
                assert_eq!(page.element_stats.len(), page.elements.len());
            }
        }
    }

    #[test]
    fn records_are_packed() {
        assert_eq!(std::mem::size_of::<PackedStats>(), 28);
        assert_eq!(std::mem::size_of::<TextInfo>(), 9);
    }

    #[test]
    fn large_link_and_image_counts_round_trip() {
        let mut t = ElementTable::default();
        let big = u32::from(LARGE_COUNT);
        let cases = [
            (0, 0),
            (big - 1, big - 1),
            (big, 0),
            (3, big),
            (big + 9, 2 * big),
            (1, 2),
        ];
        for (i, &(links, images)) in cases.iter().enumerate() {
            let s = NodeStats {
                chars: 7,
                links,
                images,
                path: PathId(i as u32),
                ..NodeStats::default()
            };
            t.set(i, &s);
            assert_eq!(t.get(i, 5), NodeStats { depth: 5, ..s }, "case {i}");
        }
        // Counts grow while the tree is summed: a record becomes large.
        let grown = NodeStats {
            links: big + 1,
            ..t.get(0, 0)
        };
        t.set(0, &grown);
        assert_eq!(t.get(0, 0), grown);
        assert_eq!(t.len(), cases.len());
    }

    #[test]
    fn pages_with_65535_links_or_more() {
        let n = usize::from(LARGE_COUNT) + 2;
        let html = format!(
            "<body><div>{}</div><p>{}</p></body>",
            "<a>x</a>".repeat(n),
            "<img>".repeat(n)
        );
        let dom = parse(&html);
        let root = dom.content_root();
        let page = annotate(&dom, "", root);
        let want = reference_stats(&dom, root);
        for (i, w) in want.iter().enumerate() {
            assert_eq!(page.stats(NodeId(i as u32)), *w, "node {i}");
        }
        let body = page.stats(root);
        assert_eq!((body.links, body.images), (n as u32, n as u32));
    }

    #[test]
    fn counts_by_hand() {
        // body: div( p("Hello world" a("link")) ul(li(a("x")) li("y")) ) img
        let dom = parse(
            "<body><div><p>Hello  world <a href=#>link</a></p>\n<ul><li><a>x</a></li><li>y</li></ul></div><img></body>",
        );
        let body = dom.body().unwrap();
        let page = annotate(&dom, "", body);
        let b = page.stats(body);
        // Text: "Hello world " (11 chars collapsed & trimmed), "link" 4, "x" 1, "y" 1.
        assert_eq!(b.chars, 11 + 4 + 1 + 1);
        assert_eq!(b.link_chars, 4 + 1);
        // Elements: body div p a ul li a li img = 9.
        assert_eq!(b.elements, 9);
        assert_eq!(b.links, 2);
        assert_eq!(b.images, 1);
        assert_eq!(b.text_nodes, 4);
        let div = dom.children(body).next().unwrap();
        assert_eq!(page.stats(div).elements, 7);
        assert_eq!(page.texts_in(div).len(), 4);
        // The "\n" between </p> and <ul> is not a block.
        assert_eq!(page.block_children(div).count(), 2);
        let names: Vec<String> = page
            .texts
            .iter()
            .map(|&t| page.paths.to_string(&dom, page.text_path(t)))
            .collect();
        assert_eq!(
            names,
            vec![
                "html/body/div/p",
                "html/body/div/p/a",
                "html/body/div/ul/li/a",
                "html/body/div/ul/li"
            ]
        );
        assert_eq!(
            page.texts.iter().map(|t| t.in_link).collect::<Vec<_>>(),
            vec![false, true, true, false]
        );
    }
}
