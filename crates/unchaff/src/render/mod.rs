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
//! * [`xml`] (trafilatura's XML) is the clean HTML fragment read again
//!   and renamed, not a writer of the walk.
//! * [`html`]: a whitelisted, well-nested fragment; the page's lists,
//!   tables, figures, quotes, code blocks and headings around selected
//!   text are written lazily, like Markdown's markers, so a selection of
//!   separate `<li>`s or `<td>`s still comes out as a list or table.
//!
//! Text is written only inside a selected node; structure outside it is
//! followed but leaves nothing unless selected text is written inside it.
//! A selection that carries its own text ([`Selection::text`], CETR) has no
//! structure: each format renders that text its own way.

mod figures;
mod html;
mod markdown;
mod table;
mod text;
pub mod xml;

use url::Url;

pub use html::{ALLOWED, html};
pub use markdown::{MarkdownOptions, escape_markdown, markdown, with_title};
pub use text::{text, title};

pub use figures::{CHROME_WORDS, LEAD_GAP_CHARS, MIN_SIDE, TEASER_CHARS};
pub(crate) use figures::{image_src, is_chrome_image, with_figures};
pub use table::{
    LAYOUT_CELL_BLOCKS, LAYOUT_CELL_CHARS, LAYOUT_ROW_CHARS, MAX_GRID_SLOTS, MAX_SPAN,
    without_data_tables,
};

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
    /// A row of a code table (a listing with a line-number gutter,
    /// [`table::Role::Code`]): one line or more of the code.
    CodeLine,
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
            | Kind::CodeLine
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
///
/// Tables are given the kinds of what they are ([`table::Role`]): a data
/// table keeps its table kinds; a layout table's parts are blocks (`div`s
/// to the writers); a code table is a `pre` whose rows are
/// [`Kind::CodeLine`]s and whose gutter cells, like a line number's span
/// inside a code block, are not walked at all.
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
    let mut roles = table::Roles::default();
    // The elements entered and not yet left, as the sink saw them (with
    // whether a formula was taken in with the text beside it, and how many
    // selected texts had been written when it was entered), and the roles
    // of the tables among them, innermost last.
    let mut open: Vec<(Element, bool, usize)> = Vec::new();
    let mut table_roles: Vec<table::Role> = Vec::new();
    // A subtree left out (a gutter), by its root.
    let mut skipping: Option<NodeId> = None;
    // The node the last step left, if the last step left one (an element
    // entered next is then its next sibling), and whether it had selected
    // text; the selected texts written so far.
    let mut just_left: Option<(NodeId, bool)> = None;
    let mut texts_written = 0usize;
    for edge in dom.traverse(root) {
        let left_before = just_left.take();
        match edge {
            Edge::Enter(id) => {
                if skipping.is_some() {
                    continue;
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
                        if e.tag == Tag::TABLE {
                            let role = roles.of(dom, id);
                            table_roles.push(role);
                            as_role(&mut el, role, true);
                        } else if let Some(&role) = table_roles.last()
                            && is_table_part(e.tag)
                        {
                            if role == table::Role::Code
                                && is_cell(e.tag)
                                && table::is_gutter(dom, id)
                            {
                                skipping = Some(id);
                                continue;
                            }
                            as_role(&mut el, role, false);
                        } else if cx.pre > 0 && e.tag == Tag::SPAN && table::is_line_number(dom, id)
                        {
                            skipping = Some(id);
                            continue;
                        }
                        // A formula is part of the sentence around it: with
                        // a selected text beside it, it is selected too
                        // (algorithms that keep text nodes pass it over).
                        let join = matches!(el.kind, Kind::Math { .. })
                            && cx.inside == 0
                            && !marked[id.index()]
                            && (left_before.is_some_and(|(p, had_text)| {
                                had_text && dom.node(p).parent == dom.node(id).parent
                            }) || dom
                                .node(id)
                                .next_sibling
                                .some()
                                .is_some_and(|n| marked[n.index()]));
                        if marked[id.index()] || join {
                            cx.inside += 1;
                        }
                        sink.enter(&cx, el);
                        cx.open(&el);
                        open.push((el, join, texts_written));
                    }
                    kind => {
                        if marked[id.index()] {
                            cx.inside += 1;
                        }
                        if let NodeKind::Text { start, end } = kind
                            && cx.inside > 0
                        {
                            texts_written += 1;
                            sink.text(&cx, &dom.text[*start as usize..*end as usize]);
                        }
                    }
                }
            }
            Edge::Leave(id) => {
                if let Some(s) = skipping {
                    if s == id {
                        skipping = None;
                    }
                    continue;
                }
                let mut was_joined = false;
                let mut had_text = marked[id.index()];
                if dom.tag(id).is_some()
                    && let Some((el, join, at)) = open.pop()
                {
                    was_joined = join;
                    had_text |= texts_written > at;
                    if dom.is(id, Tag::TABLE) {
                        table_roles.pop();
                    }
                    cx.close(&el);
                    sink.leave(&cx, el);
                }
                just_left = Some((id, had_text));
                if marked[id.index()] || was_joined {
                    cx.inside -= 1;
                    if cx.inside == 0 {
                        sink.selection_end(&cx);
                    }
                }
            }
        }
    }
}

/// Table parts: what a table's role remaps.
fn is_table_part(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::THEAD | Tag::TBODY | Tag::TFOOT | Tag::TR | Tag::TD | Tag::TH | Tag::CAPTION
    )
}

fn is_cell(tag: Tag) -> bool {
    matches!(tag, Tag::TD | Tag::TH)
}

/// Gives a table (`table`) or one of its parts the kind and tag its role
/// makes it: data tables stay as they are; layout tables and their parts
/// become `div`s; a code table becomes a `pre`, its rows
/// [`Kind::CodeLine`]s and its other parts inline `span`s.
fn as_role(el: &mut Element, role: table::Role, table: bool) {
    match role {
        table::Role::Data => {}
        table::Role::Layout => {
            el.tag = Tag::DIV;
            el.kind = Kind::Other(Flow::Block);
        }
        table::Role::Code if table => {
            el.tag = Tag::PRE;
            el.kind = Kind::Pre;
        }
        table::Role::Code if el.tag == Tag::TR => {
            el.tag = Tag::SPAN;
            el.kind = Kind::CodeLine;
        }
        table::Role::Code => {
            el.tag = Tag::SPAN;
            el.kind = Kind::Other(Flow::Inline);
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

/// The code language of a code block (a `<pre>`, or a code table): named
/// in the classes of the block, of the first few code elements inside it,
/// or of its nearest ancestors (documentation generators put it on a
/// wrapper: Sphinx's `highlight-python`, rouge's `language-ruby`), in any
/// of the common forms — `language-x`, `lang-x`, `highlight-x`,
/// `highlight-source-x`, `sourceCode x`, `brush: x`. Only letters, digits
/// and `+-#_.` are accepted, so the name is safe to write back into a
/// class attribute or a fence.
pub(crate) fn code_language(dom: &Dom, block: NodeId) -> Option<String> {
    let inside = dom
        .descendants(block)
        .skip(1)
        .filter(|&n| matches!(dom.tag(n), Some(Tag::CODE | Tag::PRE)))
        .take(LANGUAGE_SEARCH);
    let mut up = Vec::with_capacity(LANGUAGE_SEARCH);
    let mut p = dom.node(block).parent;
    while let Some(a) = p.some().filter(|_| up.len() < LANGUAGE_SEARCH) {
        up.push(a);
        p = dom.node(a).parent;
    }
    std::iter::once(block)
        .chain(inside)
        .chain(up)
        .find_map(|n| dom.attr(n, "class").and_then(language_in_class))
}

/// How many code elements inside a block, and how many of its
/// ancestors, [`code_language`] reads.
const LANGUAGE_SEARCH: usize = 3;

/// Class words that name no language.
const NOT_LANGUAGES: &[&str] = &["default", "none", "nohighlight", "notranslate", "plain"];

/// The language a class attribute names (see [`code_language`]).
fn language_in_class(class: &str) -> Option<String> {
    let valid = |l: &str| {
        !l.is_empty()
            && l.len() <= 32
            && !NOT_LANGUAGES.contains(&l)
            && l.chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-#_.".contains(c))
    };
    if let Some(rest) = class.split("brush:").nth(1) {
        let l = rest.split(';').next().unwrap_or("").trim();
        if valid(l) {
            return Some(l.to_owned());
        }
    }
    let words: Vec<&str> = class.split_ascii_whitespace().collect();
    for w in &words {
        let l = w
            .strip_prefix("language-")
            .or_else(|| w.strip_prefix("lang-"))
            .or_else(|| w.strip_prefix("highlight-source-"))
            .or_else(|| w.strip_prefix("highlight-"));
        if let Some(l) = l.filter(|l| valid(l)) {
            return Some(l.to_owned());
        }
    }
    if words.contains(&"sourceCode") {
        return words
            .iter()
            .find(|w| !matches!(**w, "sourceCode" | "numberSource" | "numberLines") && valid(w))
            .map(|w| (*w).to_owned());
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
             -Item { number: Some(3) }@1 +Item { number: Some(4) }@1 b:1 end \
             -Item { number: Some(4) }@1 -List { ordered: true }@0 -Other(Block)@0"
        );
    }
}
