//! Images beside the selection. Algorithms select text: an image alone in
//! its paragraph, a `<figure>` between two kept paragraphs or the lead
//! picture above the first one holds no text, so no algorithm keeps it,
//! and `--images` would write only the images that happen to sit inside a
//! kept block. [`with_figures`] adds them to the selection the Markdown
//! and HTML writers walk (never to the plain text's), by rules that hold
//! for any algorithm:
//!
//! * the image lies inside the container of the selection (the nearest
//!   element holding every selected node) — or, for the lead image, of its
//!   parent — and between the first and the last selected text, or before
//!   the first with little unselected text in between
//!   ([`LEAD_GAP_CHARS`]);
//! * it is not chrome: not in a `nav`, `header`, `footer`, `aside`, `form`
//!   or an element whose class or id names chrome ([`CHROME_WORDS`]), not
//!   a link to another page, not a tracking pixel or icon
//!   ([`MIN_SIDE`]);
//! * the block around it is not a teaser: it holds at most
//!   [`TEASER_CHARS`] of unselected text besides a caption.
//!
//! What is added is the `<figure>` or `<picture>` around the image when
//! there is one (so its caption comes with it), else the image itself.
//! Where an image's `src` is a lazy-loading placeholder, [`image_src`]
//! finds the real one.

use crate::algorithms::Selection;
use crate::dom::{Dom, Edge, NodeId, NodeKind, Tag};

/// Most unselected text characters between a lead image and the first
/// selected text: a headline, a byline and a date fit, a teaser list does
/// not.
pub const LEAD_GAP_CHARS: usize = 400;

/// Most unselected text characters in the block around an image (its
/// caption aside) for it to count as the content's: a teaser card's title
/// and summary are more.
pub const TEASER_CHARS: usize = 150;

/// An image whose `width` or `height` attribute is below this (pixels) is
/// an icon, a spacer or a tracking pixel.
pub const MIN_SIDE: u32 = 48;

/// Words in a class or id that mark chrome around images: sharing and
/// social widgets, authors' avatars, logos and icons, ads, promotions and
/// related or recommended items, comments, sidebars.
pub const CHROME_WORDS: &[&str] = &[
    "share",
    "social",
    "avatar",
    "author",
    "logo",
    "icon",
    "advert",
    "ads",
    "sponsor",
    "promo",
    "related",
    "recommend",
    "comment",
    "sidebar",
    "widget",
    "banner",
    "badge",
    "emoji",
    "gravatar",
    "profile",
    "teaser",
];

/// Image file name parts that mark a lazy-loading placeholder `src`.
const PLACEHOLDER_WORDS: &[&str] = &[
    "blank",
    "spacer",
    "placeholder",
    "pixel",
    "transparent",
    "lazy",
    "loading",
    "1x1",
    "grey.gif",
];

/// Attributes lazy-loading scripts keep the real image in, in order.
const LAZY_SRC: &[&str] = &[
    "data-src",
    "data-lazy-src",
    "data-original",
    "data-srcset",
    "data-lazy-srcset",
];

/// The URL an image shows: its `src`, unless that is missing or a
/// placeholder (a `data:` URL, a spacer), then the lazy-loading attributes
/// ([`LAZY_SRC`]), then the widest candidate of its `srcset` or of a
/// `<source>` of its `<picture>`.
pub(crate) fn image_src(dom: &Dom, img: NodeId) -> Option<&str> {
    let src = dom
        .attr(img, "src")
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let placeholder = src.is_none_or(|s| {
        let l = s.to_ascii_lowercase();
        l.starts_with("data:") || PLACEHOLDER_WORDS.iter().any(|w| l.contains(w))
    });
    if !placeholder {
        return src;
    }
    for name in LAZY_SRC {
        if let Some(v) = dom.attr(img, name).map(str::trim).filter(|v| !v.is_empty()) {
            return Some(if name.ends_with("srcset") {
                widest(v)
            } else {
                v
            });
        }
    }
    if let Some(set) = dom.attr(img, "srcset").filter(|s| !s.trim().is_empty()) {
        return Some(widest(set));
    }
    let parent = dom.node(img).parent;
    if dom.is(parent, Tag::PICTURE) {
        for s in dom.children(parent) {
            if dom.tag(s).is_some_and(|t| dom.tag_name(t) == "source")
                && let Some(set) = dom.attr(s, "srcset").filter(|s| !s.trim().is_empty())
            {
                return Some(widest(set));
            }
        }
    }
    src.filter(|s| !s.starts_with("data:"))
}

/// The widest candidate of a `srcset` (`url 480w, url2 800w` or `url 2x`):
/// the largest width or density, else the last.
fn widest(set: &str) -> &str {
    let mut best = ("", -1.0f64);
    for cand in set.split(',') {
        let mut parts = cand.split_ascii_whitespace();
        let Some(url) = parts.next() else { continue };
        let size = parts
            .next()
            .and_then(|d| d.trim_end_matches(['w', 'x']).parse::<f64>().ok())
            .unwrap_or(0.0);
        if size >= best.1 {
            best = (url, size);
        }
    }
    best.0
}

/// Whether an image link goes to the image itself (a full-size view) or to
/// another page.
fn links_elsewhere(dom: &Dom, a: NodeId, src: &str) -> bool {
    let Some(href) = dom.attr(a, "href").map(str::trim) else {
        return false;
    };
    let path = href
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let image = [".jpg", ".jpeg", ".png", ".gif", ".webp", ".avif", ".svg"]
        .iter()
        .any(|e| path.ends_with(e));
    !(href.is_empty() || href.starts_with('#') || image || href == src)
}

/// Whether a class or id names chrome ([`CHROME_WORDS`]), by its words
/// (split at `-`, `_`, spaces and case changes are not split: `adsense`
/// is not `ads`).
fn names_chrome(dom: &Dom, id: NodeId) -> bool {
    ["class", "id"].iter().any(|a| {
        dom.attr(id, a).is_some_and(|v| {
            v.to_ascii_lowercase()
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| CHROME_WORDS.contains(&w))
        })
    })
}

/// How many ancestors of an image inside the selection [`is_chrome_image`]
/// reads: the widget around it (a share bar's list, an author box), not
/// the page's layout far above.
const CHROME_LEVELS: usize = 3;

/// Whether an image inside a selected block is chrome all the same: an
/// icon or pixel ([`MIN_SIDE`]), or in a `nav`/`header`/`footer`/`aside`
/// or an element naming chrome ([`CHROME_WORDS`]) among its nearest
/// [`CHROME_LEVELS`] ancestors, itself included.
pub(crate) fn is_chrome_image(dom: &Dom, img: NodeId) -> bool {
    if is_tiny(dom, img) {
        return true;
    }
    let mut p = Some(img);
    for _ in 0..=CHROME_LEVELS {
        let Some(a) = p else { break };
        if names_chrome(dom, a)
            || matches!(
                dom.tag(a),
                Some(Tag::NAV | Tag::HEADER | Tag::FOOTER | Tag::ASIDE)
            )
        {
            return true;
        }
        p = dom.node(a).parent.some();
    }
    false
}

/// Whether an image is too small to be content by its own attributes.
fn is_tiny(dom: &Dom, img: NodeId) -> bool {
    ["width", "height"].iter().any(|a| {
        dom.attr(img, a)
            .and_then(|v| v.trim().trim_end_matches("px").parse::<u32>().ok())
            .is_some_and(|n| n < MIN_SIDE)
    })
}

/// Per node: its place in document order and the text it holds.
struct Order {
    /// Position of the node's start and end (pre-order enter and leave).
    enter: Vec<u32>,
    leave: Vec<u32>,
    /// Text characters before each position (index: position).
    text_before: Vec<u32>,
    /// Text characters inside each node, and those of them not selected.
    text: Vec<u32>,
    unselected: Vec<u32>,
}

/// One walk under `root`: positions, text before each, text per node.
fn order(dom: &Dom, root: NodeId, marked: &[bool]) -> Order {
    let n = dom.len();
    let mut o = Order {
        enter: vec![u32::MAX; n],
        leave: vec![u32::MAX; n],
        text_before: Vec::new(),
        text: vec![0; n],
        unselected: vec![0; n],
    };
    let mut chars = 0u32;
    let mut inside = 0u32;
    let mut stack: Vec<NodeId> = Vec::new();
    for (pos, edge) in dom.traverse(root).enumerate() {
        let pos = pos as u32;
        o.text_before.push(chars);
        match edge {
            Edge::Enter(id) => {
                o.enter[id.index()] = pos;
                if marked[id.index()] {
                    inside += 1;
                }
                if let NodeKind::Text { start, end } = dom.node(id).kind {
                    let len = dom.text[start as usize..end as usize]
                        .trim()
                        .chars()
                        .count() as u32;
                    chars += len;
                    for &a in &stack {
                        o.text[a.index()] += len;
                        if inside == 0 {
                            o.unselected[a.index()] += len;
                        }
                    }
                    if marked[id.index()] {
                        inside -= 1;
                    }
                } else {
                    stack.push(id);
                }
            }
            Edge::Leave(id) => {
                o.leave[id.index()] = pos;
                if !matches!(dom.node(id).kind, NodeKind::Text { .. }) {
                    stack.pop();
                    if marked[id.index()] {
                        inside -= 1;
                    }
                }
            }
        }
    }
    o
}

/// The nearest element holding every node of `nodes`.
fn container(dom: &Dom, nodes: &[NodeId]) -> Option<NodeId> {
    let chain = |n: NodeId| {
        let mut v = vec![n];
        let mut p = dom.node(n).parent;
        while let Some(a) = p.some() {
            v.push(a);
            p = dom.node(a).parent;
        }
        v.reverse();
        v
    };
    let mut common = chain(*nodes.first()?);
    for &n in &nodes[1..] {
        let c = chain(n);
        let same = common.iter().zip(&c).take_while(|(a, b)| a == b).count();
        common.truncate(same);
    }
    common.pop()
}

/// `selection` with the images beside it added (module docs); the same
/// selection when it has none, or carries its own text.
pub(crate) fn with_figures(dom: &Dom, root: NodeId, selection: &Selection) -> Selection {
    let mut out = selection.clone();
    if selection.text.is_some() || selection.nodes.is_empty() {
        return out;
    }
    let marked = selection.marks(dom.len());
    let o = order(dom, root, &marked);
    let reached: Vec<NodeId> = selection
        .nodes
        .iter()
        .copied()
        .filter(|n| o.enter[n.index()] != u32::MAX)
        .collect();
    let Some(first) = reached.iter().map(|n| o.enter[n.index()]).min() else {
        return out;
    };
    let last = reached
        .iter()
        .map(|n| o.leave[n.index()])
        .max()
        .unwrap_or(first);
    let Some(inner) = container(dom, &reached) else {
        return out;
    };
    // Lead images may sit beside the container (a figure before the body).
    let outer = dom.node(inner).parent.some().unwrap_or(inner);
    let within = |n: NodeId, top: NodeId| {
        let mut p = Some(n);
        while let Some(a) = p {
            if a == top {
                return true;
            }
            p = dom.node(a).parent.some();
        }
        false
    };
    for img in dom.descendants(outer).filter(|&n| dom.is(n, Tag::IMG)) {
        let at = o.enter[img.index()];
        if at == u32::MAX || is_tiny(dom, img) {
            continue;
        }
        let Some(src) = image_src(dom, img) else {
            continue;
        };
        // Its unit: the figure or picture around it, else itself; and the
        // path up to the container, which must be free of chrome.
        let mut unit = img;
        let mut chrome = false;
        let mut selected = false;
        let mut p = Some(img);
        while let Some(a) = p.filter(|&a| a != outer) {
            selected |= marked[a.index()];
            match dom.tag(a) {
                Some(Tag::FIGURE | Tag::PICTURE) if unit == img || dom.is(unit, Tag::PICTURE) => {
                    unit = a
                }
                Some(Tag::NAV | Tag::HEADER | Tag::FOOTER | Tag::ASIDE | Tag::FORM) => {
                    chrome = true
                }
                Some(Tag::A) if links_elsewhere(dom, a, src) => chrome = true,
                _ => {}
            }
            chrome |= names_chrome(dom, a);
            p = dom.node(a).parent.some();
        }
        if chrome || selected {
            continue;
        }
        let between = at > first && at < last && within(img, inner);
        // (A figure whose caption is the first selected text ends after
        // it: no text between them.)
        let lead = at < first
            && o.text_before[first as usize]
                .saturating_sub(o.text_before[o.leave[unit.index()] as usize])
                <= LEAD_GAP_CHARS as u32;
        if !(between || lead) {
            continue;
        }
        // The block around it holds no teaser text.
        let block = {
            let mut b = dom.node(unit).parent;
            while let Some(a) = b.some().filter(|&a| a != outer) {
                if dom
                    .tag(a)
                    .is_some_and(|t| t.flow() == crate::dom::Flow::Block)
                {
                    break;
                }
                b = dom.node(a).parent;
            }
            b
        };
        let caption = match dom.is(unit, Tag::FIGURE) {
            true => o.text[unit.index()],
            false => 0,
        };
        // (A figure right in the selection's container has no block of
        // its own to be a teaser in.)
        let loose = match block.some() {
            Some(b) if b != outer && !within(inner, b) => {
                o.unselected[b.index()].saturating_sub(caption)
            }
            _ => 0,
        };
        if loose as usize <= TEASER_CHARS {
            out.nodes.push(unit);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The images `with_figures` adds when the blocks whose text starts
    /// with one of `kept` are selected.
    fn added(html: &str, kept: &[&str]) -> Vec<String> {
        let dom = crate::parse::parse(html);
        let body = dom.body().unwrap();
        let nodes: Vec<NodeId> = dom
            .descendants(body)
            .filter(|&n| {
                dom.text_of(n)
                    .is_some_and(|t| kept.iter().any(|k| t.starts_with(k)))
            })
            .collect();
        let sel = Selection {
            nodes,
            ..Selection::default()
        };
        let out = with_figures(&dom, body, &sel);
        out.nodes[sel.nodes.len()..]
            .iter()
            .flat_map(|&u| dom.descendants(u))
            .filter(|&n| dom.is(n, Tag::IMG))
            .filter_map(|n| dom.attr(n, "src").map(str::to_owned))
            .collect()
    }

    #[test]
    fn figures_beside_the_selection_come_with_it() {
        let html = "<article><h1>T</h1><figure><img src=lead.jpg><figcaption>Caption of the lead \
                    picture.</figcaption></figure><p>First paragraph.</p><p><img src=mid.jpg></p>\
                    <p>Second paragraph.</p><div class=share><img src=x.png></div>\
                    <div class=card><img src=teaser.jpg><p>Another story: a teaser with a title \
                    and a summary that goes on for a while, long enough to be more than a caption \
                    of the picture beside it, which a card of related stories has.</p></div>\
                    <p>Last paragraph.</p></article><aside><img src=side.jpg></aside>";
        assert_eq!(
            added(html, &["First", "Second", "Last"]),
            ["lead.jpg", "mid.jpg"]
        );
        // The lead figure whose caption is the first selected text.
        assert_eq!(
            added(html, &["Caption", "First", "Second", "Last"]),
            ["lead.jpg", "mid.jpg"]
        );
    }

    #[test]
    fn lazy_images_find_their_source() {
        let dom = crate::parse::parse_unfiltered(
            "<img id=a src=\"data:image/gif;base64,R0l\" data-src=\"/real.jpg\">\
             <img id=b src=\"/img/blank.gif\" srcset=\"/s.jpg 480w, /l.jpg 1200w, /m.jpg 800w\">\
             <picture><source srcset=\"/p.webp 1x, /p2.webp 2x\"><img id=c></picture>\
             <img id=d src=\"/plain.png\" data-src=\"/other.png\">",
        );
        let by_id = |v: &str| {
            dom.descendants(crate::dom::DOCUMENT)
                .find(|&n| dom.attr(n, "id") == Some(v))
                .unwrap()
        };
        assert_eq!(image_src(&dom, by_id("a")), Some("/real.jpg"));
        assert_eq!(image_src(&dom, by_id("b")), Some("/l.jpg"));
        assert_eq!(image_src(&dom, by_id("c")), Some("/p2.webp"));
        assert_eq!(image_src(&dom, by_id("d")), Some("/plain.png"));
    }
}
