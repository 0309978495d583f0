//! Stage 4, **annotate**: ONE pass over the cleaned tree that fills the
//! per-node statistics every algorithm reads (SPEC §1).
//!
//! **Unstable:** public for the tools of the unchaff workspace (evaluation,
//! training, explanation); may change in any release. See the crate
//! docs' *Stability*.
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeStats {
    /// Characters of counted text (white space collapsed, trimmed), SPEC §1.
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

/// A counted (not white-space-only) text node, in document order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextInfo {
    /// The text node.
    pub node: NodeId,
    /// Its characters (white space collapsed, trimmed).
    pub chars: u32,
    /// Tag path of its parent element.
    pub path: PathId,
    /// Whether it lies inside an `<a>`.
    pub in_link: bool,
}

/// The interned tag paths of a page.
#[derive(Clone, Debug, Default)]
pub struct Paths {
    /// (parent path, last tag) of each path; the root paths have parent
    /// `None`.
    entries: Vec<(Option<PathId>, Tag)>,
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
        self.entries.push((parent, tag));
        self.index.insert(key, p);
        p
    }

    /// Number of distinct paths.
    pub fn len(&self) -> usize {
        self.entries.len()
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
    /// Statistics by node index (`stats[id.index()]`).
    pub stats: Vec<NodeStats>,
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

impl Page<'_> {
    /// The statistics of a node.
    #[inline]
    pub fn stats(&self, id: NodeId) -> &NodeStats {
        &self.stats[id.index()]
    }

    /// The counted text nodes inside `id`'s subtree.
    #[inline]
    pub fn texts_in(&self, id: NodeId) -> &[TextInfo] {
        let s = &self.stats[id.index()];
        let b = s.text_begin as usize;
        &self.texts[b..b + s.text_nodes as usize]
    }

    /// The children of `id` that count as blocks: elements and text nodes
    /// that are not white-space-only (SPEC §1).
    pub fn block_children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.dom
            .children(id)
            .filter(move |&c| match self.dom.node(c).kind {
                NodeKind::Element(_) => true,
                NodeKind::Text { .. } => self.stats[c.index()].text_nodes > 0,
                _ => false,
            })
    }
}

/// Characters of `s` after collapsing white-space runs to one space and
/// trimming: the "length" of SPEC §1.
pub fn collapsed_len(s: &str) -> u32 {
    let mut n: u32 = 0;
    let mut in_space = true; // leading white space is trimmed
    let mut pending_space = false;
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (is_ws, width) = if b < 0x80 {
            (
                matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'\x0b'),
                1,
            )
        } else {
            let c = s[i..].chars().next().unwrap_or(' ');
            (c.is_whitespace(), c.len_utf8())
        };
        if is_ws {
            if !in_space {
                pending_space = true;
                in_space = true;
            }
        } else {
            if pending_space {
                n += 1;
                pending_space = false;
            }
            n += 1;
            in_space = false;
        }
        i += width;
    }
    n
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
    let mut stats = vec![NodeStats::default(); dom.len()];
    let mut texts = Vec::new();
    let mut elements = Vec::new();
    let mut paths = Paths::default();

    // The root's own path: the tags of its ancestors, then its own.
    let mut chain = Vec::new();
    let mut cur = root.some();
    while let Some(c) = cur {
        if let Some(t) = dom.tag(c) {
            chain.push(t);
        }
        cur = dom.node(c).parent.some();
    }
    let mut root_parent_path: Option<PathId> = None;
    for (i, &t) in chain.iter().rev().enumerate() {
        if i + 1 == chain.len() {
            break;
        }
        root_parent_path = Some(paths.child(root_parent_path, t));
    }

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
                    let ps = &stats[parent.index()];
                    (Some(ps.path), ps.depth + 1)
                };
                let s = &mut stats[id.index()];
                s.depth = depth;
                s.text_begin = texts.len() as u32;
                match &dom.node(id).kind {
                    NodeKind::Element(e) => {
                        s.path = paths.child(parent_path, e.tag);
                        s.elements = 1;
                        if e.tag == Tag::A {
                            s.links = 1;
                            link_depth += 1;
                        } else if e.tag == Tag::IMG {
                            s.images = 1;
                        }
                        elements.push(id);
                    }
                    NodeKind::Text { start, end } => {
                        s.path = parent_path.unwrap_or_default();
                        let chars = collapsed_len(&dom.text[*start as usize..*end as usize]);
                        if chars > 0 {
                            s.chars = chars;
                            s.text_nodes = 1;
                            if link_depth > 0 {
                                s.link_chars = chars;
                            }
                            texts.push(TextInfo {
                                node: id,
                                chars,
                                path: s.path,
                                in_link: link_depth > 0,
                            });
                        }
                    }
                    _ => {}
                }
            }
            Edge::Leave(id) => {
                if dom.is(id, Tag::A) {
                    link_depth = link_depth.saturating_sub(1);
                }
                if id != root {
                    let parent = dom.node(id).parent;
                    let c = stats[id.index()];
                    let p = &mut stats[parent.index()];
                    p.chars += c.chars;
                    p.link_chars += c.link_chars;
                    p.elements += c.elements;
                    p.links += c.links;
                    p.text_nodes += c.text_nodes;
                    p.images += c.images;
                }
            }
        }
    }
    Ok(Page {
        dom,
        source,
        root,
        stats,
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
    fn collapsed_lengths() {
        assert_eq!(collapsed_len("  a  b \n c "), 5);
        assert_eq!(collapsed_len("\u{a0}é\u{2003}ü"), 3);
        assert_eq!(collapsed_len(" \n\t "), 0);
        assert_eq!(collapsed_len(""), 0);
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
            .map(|t| page.paths.to_string(&dom, t.path))
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
