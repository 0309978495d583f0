//! Stage 6, **render**: the selected nodes as plain text ([`text`]),
//! Markdown ([`markdown`]) or a clean HTML fragment ([`html`]).
//!
//! All three share one walk over the selection (`walk`): one
//! [`Dom::traverse`] of the content root that counts how many selected
//! nodes it is inside (nested selections count, so every text comes out
//! once), follows the page's structure everywhere — headings, lists with
//! their numbering, list items, quotes, tables, `<pre>` and `<code>` — and
//! hands each step to a `Sink`: an element entered or left (with its
//! `Kind`), a selected text, the end of a selection. The writers differ
//! only in how they write those steps:
//!
//! * [`text`]: block-level elements end a line, cells are separated by a
//!   space, `<br>` breaks the line, white space collapses as in a browser.
//! * [`markdown`]: headings, paragraphs, nested lists, GFM tables, fenced
//!   code, quotes, emphasis, optionally links and images. Markers are
//!   *pending* until the first selected character after them.
//! * [`html`]: a whitelisted, well-nested fragment; the page's lists,
//!   tables, figures, quotes, code blocks and headings around selected
//!   text are written lazily, like Markdown's markers, so a selection of
//!   separate `<li>`s or `<td>`s still comes out as a list or table.
//!
//! Text is written only inside a selected node; structure outside it is
//! followed but leaves nothing unless selected text is written inside it.
//! A selection that carries its own text ([`Selection::text`], CETR) has no
//! structure: each format renders that text its own way.

mod html;
mod markdown;
mod text;

use url::Url;

pub use html::{ALLOWED, html};
pub use markdown::{MarkdownOptions, markdown};
pub use text::{text, title};

use crate::algorithms::Selection;
use crate::dom::{Dom, Edge, Flow, NodeId, NodeKind, Tag};

/// What an element is to the writers: the structure they render, or just
/// its [`Flow`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `h1` … `h6`, with the level (1 … 6).
    Heading(u8),
    /// `ul`, `ol` (ordered) or `menu`.
    List {
        /// `ol`.
        ordered: bool,
    },
    /// `li`, with its number in an ordered list (when entered).
    Item {
        /// The item's number, in an `ol` only.
        number: Option<u32>,
    },
    /// `blockquote`.
    Quote,
    /// `table`.
    Table,
    /// `tr`.
    Row,
    /// `td` or `th`.
    Cell,
    /// `pre`.
    Pre,
    /// `code`.
    Code,
    /// `em` or `i`.
    Emphasis,
    /// `strong` or `b`.
    Strong,
    /// `a`.
    Link,
    /// `img`.
    Image,
    /// `br`.
    Break,
    /// A formula: `math`, holding its TeX (the cleaner's math step), on
    /// its own line when `display` (set by the walk).
    Math {
        /// `display="block"`.
        display: bool,
    },
    /// `sub`.
    Sub,
    /// `sup`.
    Sup,
    /// Any other element; its [`Flow`] says how it breaks the text.
    Other(Flow),
}

impl Kind {
    /// The kind of a tag (looked up: the text writer asks for every
    /// element); `Item`'s number is filled in by the walk.
    #[inline]
    fn of(tag: Tag) -> Kind {
        match KINDS.get(tag.0 as usize) {
            Some(&k) => k,
            None => Kind::Other(Flow::Inline),
        }
    }

    /// The kind of a tag, computed.
    const fn compute(tag: Tag) -> Kind {
        match tag {
            Tag::UL | Tag::MENU => Kind::List { ordered: false },
            Tag::OL => Kind::List { ordered: true },
            Tag::LI => Kind::Item { number: None },
            Tag::BLOCKQUOTE => Kind::Quote,
            Tag::TABLE => Kind::Table,
            Tag::TR => Kind::Row,
            Tag::TD | Tag::TH => Kind::Cell,
            Tag::PRE => Kind::Pre,
            Tag::CODE => Kind::Code,
            Tag::EM | Tag::I => Kind::Emphasis,
            Tag::STRONG | Tag::B => Kind::Strong,
            Tag::A => Kind::Link,
            Tag::IMG => Kind::Image,
            Tag::BR => Kind::Break,
            Tag::MATH => Kind::Math { display: false },
            Tag::SUB => Kind::Sub,
            Tag::SUP => Kind::Sup,
            _ if tag.is_heading() => Kind::Heading((tag.0 - Tag::H1.0 + 1) as u8),
            _ => Kind::Other(tag.flow()),
        }
    }

    /// How the element breaks the text (the same as [`Tag::flow`]).
    #[inline]
    pub(crate) fn flow(self) -> Flow {
        match self {
            Kind::Heading(_)
            | Kind::List { .. }
            | Kind::Item { .. }
            | Kind::Quote
            | Kind::Table
            | Kind::Row
            | Kind::Pre
            | Kind::Math { display: true } => Flow::Block,
            Kind::Cell => Flow::Cell,
            Kind::Break => Flow::Break,
            Kind::Code
            | Kind::Emphasis
            | Kind::Strong
            | Kind::Link
            | Kind::Image
            | Kind::Math { display: false }
            | Kind::Sub
            | Kind::Sup => Flow::Inline,
            Kind::Other(f) => f,
        }
    }
}

/// [`Kind::compute`] of every tag with a fixed id (any other tag is an
/// inline element).
const KINDS: [Kind; Tag::KNOWN] = {
    let mut kinds = [Kind::Other(Flow::Inline); Tag::KNOWN];
    let mut i = 0;
    while i < Tag::KNOWN {
        kinds[i] = Kind::compute(Tag(i as u16));
        i += 1;
    }
    kinds
};

/// An element the walk enters or leaves.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Element {
    /// The node.
    pub id: NodeId,
    /// Its tag.
    pub tag: Tag,
    /// What it is to the writers.
    pub kind: Kind,
}

/// One open list: whether it is ordered and its next item's number.
#[derive(Clone, Copy, Debug)]
pub(crate) struct List {
    ordered: bool,
    next: u32,
}

/// Where the walk is. While an element is entered or left, the depths
/// describe its *surroundings* (the element itself not counted), except
/// [`Cx::inside`], which counts the element when it is selected.
pub(crate) struct Cx<'a> {
    /// The page.
    pub dom: &'a Dom,
    /// How many selected nodes the walk is inside.
    pub inside: u32,
    /// How many `pre` elements the walk is inside.
    pub pre: u32,
    /// How many `code` elements outside any `pre` the walk is inside.
    pub code: u32,
    /// How many tables the walk is inside.
    pub tables: u32,
    /// How many formulas the walk is inside (their text is TeX).
    pub math: u32,
    /// The lists the walk is inside, innermost last.
    pub lists: Vec<List>,
}

impl Cx<'_> {
    /// Counts `el` in as the walk goes into it.
    #[inline]
    fn open(&mut self, el: &Element) {
        match el.kind {
            Kind::Pre => self.pre += 1,
            Kind::Code if self.pre == 0 => self.code += 1,
            Kind::Table => self.tables += 1,
            Kind::Math { .. } => self.math += 1,
            Kind::List { ordered } => {
                let next = match ordered {
                    true => self
                        .dom
                        .attr(el.id, "start")
                        .and_then(|s| s.trim().parse::<u32>().ok())
                        .unwrap_or(1),
                    false => 1,
                };
                self.lists.push(List { ordered, next });
            }
            _ => {}
        }
    }

    /// Counts `el` out as the walk leaves it.
    #[inline]
    fn close(&mut self, el: &Element) {
        match el.kind {
            Kind::Pre => self.pre = self.pre.saturating_sub(1),
            Kind::Code if self.pre == 0 => self.code = self.code.saturating_sub(1),
            Kind::Table => self.tables = self.tables.saturating_sub(1),
            Kind::Math { .. } => self.math = self.math.saturating_sub(1),
            Kind::List { .. } => {
                self.lists.pop();
            }
            _ => {}
        }
    }

    /// The number of the next item of the innermost list, if ordered.
    #[inline]
    fn next_item(&mut self) -> Option<u32> {
        match self.lists.last_mut() {
            Some(l) if l.ordered => {
                let n = l.next;
                l.next = n.wrapping_add(1);
                Some(n)
            }
            _ => None,
        }
    }
}

/// A writer driven by [`walk`].
pub(crate) trait Sink {
    /// The walk enters an element (selected or not).
    fn enter(&mut self, cx: &Cx<'_>, el: Element);
    /// The walk leaves an element.
    fn leave(&mut self, cx: &Cx<'_>, el: Element);
    /// A text node inside a selected node.
    fn text(&mut self, cx: &Cx<'_>, s: &str);
    /// The walk left the outermost of nested selected nodes.
    fn selection_end(&mut self, cx: &Cx<'_>);
}

/// The one walk over the selection inside `root`: drives `sink` through
/// every element (entered and left), every text inside a selected node,
/// and every end of a selection. No recursion: one [`Dom::traverse`].
pub(crate) fn walk<S: Sink>(dom: &Dom, root: NodeId, selection: &Selection, sink: &mut S) {
    let marked = selection.marks(dom.len());
    let mut cx = Cx {
        dom,
        inside: 0,
        pre: 0,
        code: 0,
        tables: 0,
        math: 0,
        lists: Vec::new(),
    };
    for edge in dom.traverse(root) {
        match edge {
            Edge::Enter(id) => {
                if marked[id.index()] {
                    cx.inside += 1;
                }
                match &dom.node(id).kind {
                    NodeKind::Element(e) => {
                        let mut el = Element {
                            id,
                            tag: e.tag,
                            kind: Kind::of(e.tag),
                        };
                        match &mut el.kind {
                            Kind::Item { number } => *number = cx.next_item(),
                            Kind::Math { display } => *display = is_display_math(dom, id),
                            _ => {}
                        }
                        sink.enter(&cx, el);
                        cx.open(&el);
                    }
                    NodeKind::Text { start, end } if cx.inside > 0 => {
                        sink.text(&cx, &dom.text[*start as usize..*end as usize]);
                    }
                    _ => {}
                }
            }
            Edge::Leave(id) => {
                if let Some(tag) = dom.tag(id) {
                    let mut el = Element {
                        id,
                        tag,
                        kind: Kind::of(tag),
                    };
                    if let Kind::Math { display } = &mut el.kind {
                        *display = is_display_math(dom, id);
                    }
                    cx.close(&el);
                    sink.leave(&cx, el);
                }
                if marked[id.index()] {
                    cx.inside -= 1;
                    if cx.inside == 0 {
                        sink.selection_end(&cx);
                    }
                }
            }
        }
    }
}

/// Whether a formula is shown on its own line (`display="block"`).
fn is_display_math(dom: &Dom, id: NodeId) -> bool {
    dom.attr(id, "display") == Some("block")
}

/// Resolves a link or image URL against `base`: `Some` only for http(s)
/// URLs, and for relative ones when no base is known (kept as written).
pub fn resolve_url(base: Option<&Url>, href: &str) -> Option<String> {
    let href = href.trim();
    if href.is_empty() {
        return None;
    }
    match Url::parse(href) {
        Ok(u) => matches!(u.scheme(), "http" | "https").then(|| u.to_string()),
        Err(url::ParseError::RelativeUrlWithoutBase) => match base {
            Some(b) => {
                let u = b.join(href).ok()?;
                matches!(u.scheme(), "http" | "https").then(|| u.to_string())
            }
            None => Some(href.to_owned()),
        },
        Err(_) => None,
    }
}

/// The base URL of the page: `<base href>` resolved against `page_url`,
/// else `page_url`.
pub fn base_url(dom: &Dom, page_url: Option<&str>) -> Option<Url> {
    let page = page_url.and_then(|u| Url::parse(u).ok());
    let base_el = (0..dom.len() as u32)
        .map(NodeId)
        .find(|&n| dom.is(n, Tag::BASE) && dom.attr(n, "href").is_some());
    if let Some(href) = base_el.and_then(|n| dom.attr(n, "href")) {
        let joined = match &page {
            Some(p) => p.join(href.trim()).ok(),
            None => Url::parse(href.trim()).ok(),
        };
        if let Some(u) = joined.filter(|u| matches!(u.scheme(), "http" | "https")) {
            return Some(u);
        }
    }
    page
}

/// The code language of a `<pre>`: `language-x` / `lang-x` in its class
/// or its `<code>` child's. Only letters, digits and `+-#_.` are accepted,
/// so the name is safe to write back into a class attribute.
pub(crate) fn code_language(dom: &Dom, pre: NodeId) -> Option<String> {
    let code = dom.child_element(pre, Tag::CODE);
    for n in [Some(pre), code].into_iter().flatten() {
        if let Some(class) = dom.attr(n, "class") {
            for c in class.split_ascii_whitespace() {
                let l = c
                    .strip_prefix("language-")
                    .or_else(|| c.strip_prefix("lang-"));
                if let Some(l) = l.filter(|l| {
                    !l.is_empty()
                        && l.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "+-#_.".contains(c))
                }) {
                    return Some(l.to_owned());
                }
            }
        }
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::parse::parse;

    /// The tags the Markdown writer itself writes as inline HTML (never
    /// the page's): line breaks in table cells, sub- and superscripts.
    pub(crate) const OWN_HTML: &[&str] = &["<br>", "<sub>", "</sub>", "<sup>", "</sup>"];

    /// What a CommonMark (GFM) renderer reads in `md` as raw HTML, other
    /// than [`OWN_HTML`], and any link or image whose destination is not
    /// http(s) or relative: what would reach a browser as markup.
    pub(crate) fn raw_html_in(md: &str) -> Vec<String> {
        use pulldown_cmark::{Event, Options, Parser, Tag as MdTag};
        let mut found = Vec::new();
        for ev in Parser::new_ext(md, Options::all()) {
            match ev {
                Event::Html(h) | Event::InlineHtml(h) if !OWN_HTML.contains(&h.trim()) => {
                    found.push(h.to_string())
                }
                Event::Start(MdTag::Link { dest_url, .. } | MdTag::Image { dest_url, .. }) => {
                    let d = dest_url.trim().to_ascii_lowercase();
                    let scheme = d.split_once(':').map(|(s, _)| s).filter(|s| {
                        s.chars()
                            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                    });
                    if scheme.is_some_and(|s| s != "http" && s != "https") {
                        found.push(format!("link to {d}"));
                    }
                }
                _ => {}
            }
        }
        found
    }

    #[test]
    fn kinds_keep_the_tags_flow() {
        let dom = parse("<p>x</p>");
        for t in 0..Tag::KNOWN as u16 {
            let tag = Tag(t);
            assert_eq!(Kind::of(tag).flow(), tag.flow(), "{}", dom.tag_name(tag));
            assert_eq!(Kind::of(tag), Kind::compute(tag));
        }
        // Tags without a fixed id (custom elements) run on.
        let mut dom = dom;
        let custom = dom.intern_tag(&html5ever::LocalName::from("my-widget"));
        assert_eq!(Kind::of(custom), Kind::Other(Flow::Inline));
        assert_eq!(custom.flow(), Flow::Inline);
    }

    /// Records the walk's steps.
    #[derive(Default)]
    struct Log(Vec<String>);

    impl Sink for Log {
        fn enter(&mut self, cx: &Cx<'_>, el: Element) {
            self.0.push(format!("+{:?}@{}", el.kind, cx.lists.len()));
        }
        fn leave(&mut self, cx: &Cx<'_>, el: Element) {
            self.0.push(format!("-{:?}@{}", el.kind, cx.lists.len()));
        }
        fn text(&mut self, cx: &Cx<'_>, s: &str) {
            self.0.push(format!("{s}:{}", cx.inside));
        }
        fn selection_end(&mut self, _: &Cx<'_>) {
            self.0.push("end".into());
        }
    }

    #[test]
    fn walk_numbers_items_and_reports_selected_text_only() {
        let dom = parse("<ol start=3><li>a</li><li>b</li></ol>");
        let body = dom.body().unwrap();
        let b = dom
            .descendants(body)
            .find(|&n| dom.text_of(n) == Some("b"))
            .unwrap();
        let sel = Selection {
            nodes: vec![b],
            ..Selection::default()
        };
        let mut log = Log::default();
        walk(&dom, body, &sel, &mut log);
        assert_eq!(
            log.0.join(" "),
            "+Other(Block)@0 +List { ordered: true }@0 +Item { number: Some(3) }@1 \
             -Item { number: None }@1 +Item { number: Some(4) }@1 b:1 end \
             -Item { number: None }@1 -List { ordered: true }@0 -Other(Block)@0"
        );
    }
}
