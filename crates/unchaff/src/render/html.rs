//! The clean-HTML writer: the selection as a self-contained fragment that
//! is safe to embed.
//!
//! Only the tags in [`ALLOWED`] are written, with only `href` (on `a`),
//! `src` (on `img`), `alt`, `title`, `colspan` and `rowspan`, and on a code
//! block (`pre`, or the `code` in it) `class="language-X"` where the page
//! names the language (`X` only letters, digits and `+-#_.`); every other
//! element is unwrapped (its children kept). Links and images must be
//! http(s) URLs, or relative ones (made absolute when a base URL is known):
//! `javascript:`, `data:` (images included — a choice: they can be
//! megabytes, and an SVG data URL can carry script) and any other scheme
//! are dropped. Text and attribute values are escaped. Scripts, styles,
//! frames, SVG contents and event handlers never get out: the cleaner
//! removed most of them, and the whitelist stops the rest.
//!
//! Inside a selected node every allowed element is written as the walk
//! enters it. Outside one, the page's structure — lists and their items,
//! definition lists, tables and their parts, figures, quotes, code blocks
//! and headings — is *pending*, like Markdown's markers: it is written when
//! the first selected text or element inside it is, and leaves nothing
//! otherwise. So separately selected `<li>`s or `<td>`s come out in their
//! list or table, and separately selected text nodes in their heading.
//!
//! Loose text between blocks (text directly in a `div`) is wrapped in a
//! `<p>`; a table part, list item or definition outside its table or list
//! is unwrapped, so the fragment is always well nested. A selection that
//! carries its own text ([`Selection::text`], CETR) renders as one `<p>`
//! a line.

use url::Url;

use super::{Cx, Element, Kind, Sink, code_language, resolve_url, walk};
use crate::algorithms::Selection;
use crate::dom::{Dom, Flow, NodeId, Tag};

/// The tags kept.
pub const ALLOWED: &[Tag] = &[
    Tag::P,
    Tag::H1,
    Tag::H2,
    Tag::H3,
    Tag::H4,
    Tag::H5,
    Tag::H6,
    Tag::UL,
    Tag::OL,
    Tag::LI,
    Tag::TABLE,
    Tag::THEAD,
    Tag::TBODY,
    Tag::TFOOT,
    Tag::TR,
    Tag::TH,
    Tag::TD,
    Tag::CAPTION,
    Tag::PRE,
    Tag::CODE,
    Tag::BLOCKQUOTE,
    Tag::EM,
    Tag::STRONG,
    Tag::B,
    Tag::I,
    Tag::A,
    Tag::IMG,
    Tag::BR,
    Tag::FIGURE,
    Tag::FIGCAPTION,
    Tag::DL,
    Tag::DT,
    Tag::DD,
    Tag::SUP,
    Tag::SUB,
];

/// Where an open element may hold text directly (else loose text gets a
/// `<p>`).
fn holds_phrasing(tag: Option<Tag>) -> bool {
    !matches!(
        tag,
        None | Some(Tag::BLOCKQUOTE)
            | Some(Tag::UL)
            | Some(Tag::OL)
            | Some(Tag::DL)
            | Some(Tag::TABLE)
            | Some(Tag::THEAD)
            | Some(Tag::TBODY)
            | Some(Tag::TFOOT)
            | Some(Tag::TR)
    )
}

/// Whether the element is written, given the open elements.
fn allowed_here(tag: Tag, open: &[Open]) -> bool {
    if !ALLOWED.contains(&tag) {
        return false;
    }
    let parent = open.last().map(|o| o.tag);
    match tag {
        Tag::THEAD | Tag::TBODY | Tag::TFOOT | Tag::CAPTION => parent == Some(Tag::TABLE),
        Tag::TR => matches!(
            parent,
            Some(Tag::TABLE | Tag::THEAD | Tag::TBODY | Tag::TFOOT)
        ),
        Tag::TD | Tag::TH => parent == Some(Tag::TR),
        Tag::LI => matches!(parent, Some(Tag::UL | Tag::OL)),
        Tag::DT | Tag::DD => parent == Some(Tag::DL),
        // Table structure only where a table can hold it.
        _ if matches!(
            parent,
            Some(
                Tag::TABLE
                    | Tag::THEAD
                    | Tag::TBODY
                    | Tag::TFOOT
                    | Tag::TR
                    | Tag::UL
                    | Tag::OL
                    | Tag::DL
            )
        ) =>
        {
            false
        }
        // Headings, paragraphs and lists never inside phrasing.
        Tag::P
        | Tag::UL
        | Tag::OL
        | Tag::DL
        | Tag::TABLE
        | Tag::BLOCKQUOTE
        | Tag::PRE
        | Tag::FIGURE
            if open.iter().any(|o| is_inline(o.tag)) =>
        {
            false
        }
        _ if tag.is_heading() && open.iter().any(|o| is_inline(o.tag) || o.tag.is_heading()) => {
            false
        }
        Tag::P if open.iter().any(|o| o.tag == Tag::P || o.tag.is_heading()) => false,
        // A code block inside one (a code table's cell) is part of it.
        Tag::PRE if open.iter().any(|o| o.tag == Tag::PRE) => false,
        _ => true,
    }
}

fn is_inline(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::EM | Tag::STRONG | Tag::B | Tag::I | Tag::A | Tag::CODE | Tag::SUP | Tag::SUB
    )
}

fn escape_into(out: &mut String, s: &str, attr: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// Whether an element outside the selection is pending structure
/// (written if selected text comes inside it); `code` only in a `pre`.
fn is_structure(tag: Tag, in_pre: bool) -> bool {
    matches!(
        tag,
        Tag::UL
            | Tag::OL
            | Tag::LI
            | Tag::DL
            | Tag::DT
            | Tag::DD
            | Tag::TABLE
            | Tag::THEAD
            | Tag::TBODY
            | Tag::TFOOT
            | Tag::TR
            | Tag::TH
            | Tag::TD
            | Tag::CAPTION
            | Tag::FIGURE
            | Tag::FIGCAPTION
            | Tag::BLOCKQUOTE
            | Tag::PRE
    ) || tag.is_heading()
        || (tag == Tag::CODE && in_pre)
}

/// Whether an element holds only its own parts (list items, rows, cells),
/// neither text nor other blocks.
fn is_container(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::UL | Tag::OL | Tag::DL | Tag::TABLE | Tag::THEAD | Tag::TBODY | Tag::TFOOT | Tag::TR
    )
}

/// An element of the output that is open (or pending).
struct Open {
    /// The page's element; [`NodeId::NONE`] for an implied `<p>`.
    id: NodeId,
    tag: Tag,
}

/// The HTML [`Sink`].
struct Writer<'a> {
    dom: &'a Dom,
    out: String,
    /// Elements written and not yet closed, then the pending ones: the
    /// first `written` are written, the rest wait for selected text.
    open: Vec<Open>,
    written: usize,
    pending_space: bool,
    /// At the start of a block: a space here is not written.
    fresh: bool,
    base: Option<&'a Url>,
    /// The formula the walk is in, and whether it was written (its text,
    /// the TeX, is not written again).
    math: Option<(NodeId, bool)>,
}

impl Writer<'_> {
    /// Closes the implied `<p>` if it is the innermost written element
    /// (pending elements may wait above it: see [`Writer::flush_for_text`]).
    fn close_implied(&mut self) {
        if self.written > 0 && self.open[self.written - 1].id.is_none() {
            self.open.remove(self.written - 1);
            self.written -= 1;
            self.out.push_str("</p>");
        }
        self.pending_space = false;
        self.fresh = true;
    }

    /// Opens an implied `<p>` unless the innermost written element holds
    /// text; it goes below any pending elements.
    fn ensure_phrasing(&mut self) {
        let top = self.written.checked_sub(1).map(|i| self.open[i].tag);
        if !holds_phrasing(top) {
            self.out.push_str("<p>");
            self.open.insert(
                self.written,
                Open {
                    id: NodeId::NONE,
                    tag: Tag::P,
                },
            );
            self.written += 1;
            self.fresh = true;
        }
    }

    /// Drops the pending lists and table parts that cannot hold `tag`
    /// where it comes, innermost first, so that it is written in place
    /// and not unwrapped (an `<i>` directly in a list). Written elements
    /// stay: as before, what does not fit them is unwrapped; so do pending
    /// headings (a `<p>` in an `<h2>` unwraps, the heading stays).
    fn fit(&mut self, tag: Tag) {
        if !ALLOWED.contains(&tag) {
            return;
        }
        while self.open.len() > self.written
            && self.open.last().is_some_and(|o| is_container(o.tag))
            && !allowed_here(tag, &self.open)
        {
            self.open.pop();
        }
    }

    /// Writes the pending structure that can hold text: all of it, but
    /// for the innermost lists and table parts (text directly in a list
    /// goes before it, in a `<p>`, and the list stays pending for its
    /// items).
    #[inline]
    fn flush_for_text(&mut self) {
        let mut k = self.open.len();
        while k > self.written && is_container(self.open[k - 1].tag) {
            k -= 1;
        }
        while self.written < k {
            self.flush_one();
        }
    }

    /// Writes the pending structure, outermost first.
    #[inline]
    fn flush(&mut self) {
        while self.written < self.open.len() {
            self.flush_one();
        }
    }

    /// Writes the outermost pending element.
    fn flush_one(&mut self) {
        let Open { id, tag } = self.open[self.written];
        // Pending elements are never void and always have their
        // attributes.
        if let Some(attrs) = self.attrs(id, tag) {
            self.start(tag, &attrs);
        }
        self.written += 1;
    }

    fn push_text(&mut self, s: &str, pre: bool) {
        if pre {
            if self.written < self.open.len() {
                if s.trim().is_empty() {
                    // Nothing to open pending structure for.
                    return;
                }
                self.flush();
            }
            escape_into(&mut self.out, s, false);
            self.fresh = false;
            return;
        }
        for c in s.chars() {
            if c.is_whitespace() {
                self.pending_space = true;
                continue;
            }
            if self.written < self.open.len() {
                self.flush_for_text();
            }
            self.ensure_phrasing();
            if self.pending_space && !self.fresh {
                self.out.push(' ');
            }
            self.pending_space = false;
            self.fresh = false;
            escape_into(&mut self.out, c.encode_utf8(&mut [0; 4]), false);
        }
    }

    /// The attributes written for an element, or `None` when it is not
    /// written at all (an image without a usable `src`).
    fn attrs(&self, id: NodeId, tag: Tag) -> Option<String> {
        let dom = self.dom;
        let mut attrs = String::new();
        let mut attr = |name: &str, value: &str| {
            attrs.push(' ');
            attrs.push_str(name);
            attrs.push_str("=\"");
            escape_into(&mut attrs, value, true);
            attrs.push('"');
        };
        match tag {
            Tag::A => {
                if let Some(u) = dom.attr(id, "href").and_then(|h| resolve_url(self.base, h)) {
                    attr("href", &u);
                }
            }
            Tag::IMG if super::is_chrome_image(dom, id) => return None,
            Tag::IMG => match super::image_src(dom, id).and_then(|h| resolve_url(self.base, h)) {
                Some(u) => attr("src", &u),
                None => return None,
            },
            Tag::TD | Tag::TH => {
                for name in ["colspan", "rowspan"] {
                    if let Some(v) = dom.attr(id, name).map(str::trim).filter(|v| {
                        !v.is_empty() && v.len() < 5 && v.bytes().all(|b| b.is_ascii_digit())
                    }) {
                        attr(name, v);
                    }
                }
            }
            // The language goes on the `code` in the block, else on the
            // `pre` (validated by `code_language`, escaped anyway).
            Tag::PRE if dom.child_element(id, Tag::CODE).is_none() => {
                if let Some(l) = code_language(dom, id) {
                    attr("class", &format!("language-{l}"));
                }
            }
            Tag::CODE => {
                let pre = dom.node(id).parent;
                if dom.is(pre, Tag::PRE)
                    && dom.child_element(pre, Tag::CODE) == Some(id)
                    && let Some(l) = code_language(dom, pre)
                {
                    attr("class", &format!("language-{l}"));
                }
            }
            _ => {}
        }
        for name in ["alt", "title"] {
            if (name == "title" || tag == Tag::IMG)
                && let Some(v) = dom.attr(id, name)
            {
                attr(name, v);
            }
        }
        Some(attrs)
    }

    /// Writes a start tag; whether the element stays open (not void).
    fn start(&mut self, tag: Tag, attrs: &str) -> bool {
        let inline = is_inline(tag) || matches!(tag, Tag::IMG | Tag::BR);
        if inline {
            self.ensure_phrasing();
            if self.pending_space && !self.fresh && tag != Tag::BR {
                self.out.push(' ');
            }
            self.fresh = tag == Tag::BR;
        } else {
            self.close_implied();
            self.fresh = true;
        }
        self.pending_space = false;
        self.out.push('<');
        self.out.push_str(self.dom.tag_name(tag));
        self.out.push_str(attrs);
        self.out.push('>');
        !matches!(tag, Tag::IMG | Tag::BR)
    }

    /// Writes the formula `id` (a `<math>` holding TeX, from the
    /// cleaner) where text would go: the page's MathML, sanitized, when
    /// the formula came from MathML ([`write_mathml`]), else MathML that
    /// shows the TeX and carries it as an annotation.
    fn formula(&mut self, id: NodeId) {
        if self.written < self.open.len() {
            self.flush_for_text();
        }
        self.ensure_phrasing();
        if self.pending_space && !self.fresh {
            self.out.push(' ');
        }
        self.pending_space = false;
        self.fresh = false;
        let dom = self.dom;
        let tex: String = dom.children(id).filter_map(|c| dom.text_of(c)).collect();
        let display = dom.attr(id, "display") == Some("block");
        let source = dom
            .math_sources
            .binary_search_by_key(&id, |&(m, _)| m)
            .ok()
            .map(|i| dom.math_sources[i].1);
        match source {
            Some(src) => write_mathml(&mut self.out, dom, src, display, &tex),
            None => {
                self.out.push_str(if display {
                    "<math display=\"block\">"
                } else {
                    "<math>"
                });
                self.out.push_str("<semantics><mtext>");
                escape_into(&mut self.out, &tex, false);
                self.out
                    .push_str("</mtext><annotation encoding=\"application/x-tex\">");
                escape_into(&mut self.out, &tex, false);
                self.out.push_str("</annotation></semantics></math>");
            }
        }
    }

    /// A block inside a written code block (a line's `div`, a code
    /// table's row) ends a line of it.
    fn pre_line(&mut self) {
        let in_written_pre = self.open[..self.written].iter().any(|o| o.tag == Tag::PRE);
        if in_written_pre && !self.out.ends_with('\n') && !self.out.ends_with('>') {
            self.out.push('\n');
        }
    }

    /// An element that is not written: it still breaks the text.
    fn unwritten(&mut self, flow: Flow, in_pre: bool) {
        match flow {
            Flow::Block if in_pre => self.pre_line(),
            Flow::Block => self.close_implied(),
            Flow::Cell | Flow::Break => self.pending_space = true,
            Flow::Inline => {}
        }
    }
}

impl Sink for Writer<'_> {
    fn enter(&mut self, cx: &Cx<'_>, el: Element) {
        let tag = el.tag;
        if let Kind::Math { .. } = el.kind {
            if self.math.is_none() {
                let write = cx.inside > 0;
                if write {
                    self.formula(el.id);
                }
                self.math = Some((el.id, write));
            }
            return;
        }
        if cx.inside > 0 {
            if self.written < self.open.len() {
                self.fit(tag);
            }
            if allowed_here(tag, &self.open) {
                // An image without a usable source is not written at all.
                if let Some(attrs) = self.attrs(el.id, tag) {
                    self.flush();
                    if self.start(tag, &attrs) {
                        self.open.push(Open { id: el.id, tag });
                        self.written += 1;
                    }
                }
                return;
            }
        } else if is_structure(tag, cx.pre > 0) && allowed_here(tag, &self.open) {
            self.unwritten(el.kind.flow(), cx.pre > 0);
            self.open.push(Open { id: el.id, tag });
            return;
        }
        self.unwritten(el.kind.flow(), cx.pre > 0);
    }

    fn leave(&mut self, cx: &Cx<'_>, el: Element) {
        if let Some((m, _)) = self.math {
            if m == el.id {
                self.math = None;
            }
            return;
        }
        let Some(pos) = self.open.iter().rposition(|o| o.id == el.id) else {
            self.unwritten(el.kind.flow(), cx.pre > 0);
            return;
        };
        if pos >= self.written {
            // Pending, never written.
            self.open.truncate(pos);
            self.unwritten(el.kind.flow(), cx.pre > 0);
            return;
        }
        self.open.truncate(self.written);
        while let Some(o) = self.open.pop() {
            self.out.push_str("</");
            self.out.push_str(self.dom.tag_name(o.tag));
            self.out.push('>');
            if self.open.len() == pos {
                break;
            }
        }
        self.written = pos;
        if !is_inline(el.tag) {
            self.pending_space = false;
            self.fresh = true;
        }
    }

    fn text(&mut self, cx: &Cx<'_>, s: &str) {
        if let Some((m, written)) = self.math {
            // The TeX: the formula instead, once.
            if !written {
                self.formula(m);
                self.math = Some((m, true));
            }
            return;
        }
        self.push_text(s, cx.pre > 0);
    }

    fn selection_end(&mut self, _: &Cx<'_>) {
        self.close_implied();
    }
}

/// MathML elements written in the HTML output (Presentation MathML, its
/// `semantics` and a TeX `annotation`); any other element inside a
/// formula is unwrapped, and `annotation-xml` (which may hold HTML) is
/// left out with its content.
pub const MATHML_ALLOWED: &[&str] = &[
    "math",
    "semantics",
    "annotation",
    "mrow",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "msub",
    "msup",
    "msubsup",
    "munder",
    "mover",
    "munderover",
    "mfrac",
    "msqrt",
    "mroot",
    "mtable",
    "mtr",
    "mtd",
    "mlabeledtr",
    "mfenced",
    "menclose",
    "mpadded",
    "mphantom",
    "mstyle",
    "mmultiscripts",
    "mprescripts",
    "none",
    "merror",
];

/// Attributes kept on MathML elements: layout only (no `href`, no
/// styles, no event handlers).
pub const MATHML_ATTRIBUTES: &[&str] = &[
    "mathvariant",
    "stretchy",
    "fence",
    "separator",
    "accent",
    "accentunder",
    "linethickness",
    "columnalign",
    "rowalign",
    "notation",
    "open",
    "close",
    "separators",
    "encoding",
    "lspace",
    "rspace",
    "form",
    "largeop",
    "movablelimits",
    "scriptlevel",
    "displaystyle",
    "columnspan",
    "rowspan",
];

/// The page's MathML `src`, sanitized ([`MATHML_ALLOWED`],
/// [`MATHML_ATTRIBUTES`], text escaped), as one `<math>` element (with
/// `display="block"` when `display`) whose TeX `tex` is its annotation.
/// One walk, no recursion.
fn write_mathml(out: &mut String, dom: &Dom, src: NodeId, display: bool, tex: &str) {
    use crate::dom::{Edge, NodeKind};
    out.push_str(if display {
        "<math display=\"block\">"
    } else {
        "<math>"
    });
    out.push_str("<semantics><mrow>");
    // Elements whose tags were written, and a subtree being skipped.
    let mut skip: Option<NodeId> = None;
    for edge in dom.traverse(src) {
        match edge {
            Edge::Enter(id) if skip.is_none() && id != src => match &dom.node(id).kind {
                NodeKind::Element(e) => {
                    let name = dom.tag_name(e.tag);
                    if matches!(name, "annotation" | "annotation-xml" | "math") {
                        skip = Some(id);
                    } else if MATHML_ALLOWED.contains(&name) {
                        out.push('<');
                        out.push_str(name);
                        for a in dom.attrs_of(id) {
                            if MATHML_ATTRIBUTES.contains(&&*a.name) {
                                out.push(' ');
                                out.push_str(&a.name);
                                out.push_str("=\"");
                                escape_into(
                                    out,
                                    &dom.attr_text[a.start as usize..a.end as usize],
                                    true,
                                );
                                out.push('"');
                            }
                        }
                        out.push('>');
                    }
                }
                NodeKind::Text { start, end } => {
                    escape_into(out, &dom.text[*start as usize..*end as usize], false)
                }
                _ => {}
            },
            Edge::Leave(id) if id != src => {
                if skip == Some(id) {
                    skip = None;
                } else if skip.is_none()
                    && let Some(tag) = dom.tag(id)
                    && MATHML_ALLOWED.contains(&dom.tag_name(tag))
                {
                    out.push_str("</");
                    out.push_str(dom.tag_name(tag));
                    out.push('>');
                }
            }
            _ => {}
        }
    }
    out.push_str("</mrow><annotation encoding=\"application/x-tex\">");
    escape_into(out, tex, false);
    out.push_str("</annotation></semantics></math>");
}

/// The selection inside `root` as a clean HTML fragment; URLs resolve
/// against `base`.
pub fn html(dom: &Dom, root: NodeId, selection: &Selection, base: Option<&Url>) -> String {
    let mut w = Writer {
        dom,
        out: String::new(),
        open: Vec::new(),
        written: 0,
        pending_space: false,
        fresh: true,
        base,
        math: None,
    };
    if let Some(t) = &selection.text {
        for line in t.lines().filter(|l| !l.trim().is_empty()) {
            w.out.push_str("<p>");
            escape_into(&mut w.out, line.trim(), false);
            w.out.push_str("</p>");
        }
        return w.out;
    }
    if selection.nodes.is_empty() {
        return String::new();
    }
    walk(dom, root, selection, &mut w);
    w.open.truncate(w.written);
    while let Some(o) = w.open.pop() {
        w.out.push_str("</");
        w.out.push_str(dom.tag_name(o.tag));
        w.out.push('>');
    }
    w.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;
    use crate::render::base_url;

    fn clean_html(html: &str, base: Option<&str>) -> String {
        let mut dom = parse(html);
        let body = dom.body().unwrap();
        let base = base_url(&dom, base);
        crate::clean::clean(&mut dom, body);
        super::html(
            &dom,
            body,
            &Selection {
                nodes: vec![body],
                ..Selection::default()
            },
            base.as_ref(),
        )
    }

    #[test]
    fn keeps_structure_unwraps_the_rest() {
        assert_eq!(
            clean_html(
                "<div class=x><h2 id=h>T</h2><div>loose <span>text</span></div>\
                 <ul><li>a <b>b</b></li></ul><table><tr><td colspan=2 style=x>c</td></tr>\
                 <tr><td>d</td><td>e</td></tr></table></div>",
                None
            ),
            "<h2>T</h2><p>loose text</p><ul><li>a <b>b</b></li></ul>\
             <table><tbody><tr><td colspan=\"2\">c</td></tr><tr><td>d</td><td>e</td></tr></tbody></table>"
        );
        // A table of one cell is a box around its content.
        assert_eq!(
            clean_html("<table><tr><td><p>c</p></td></tr></table>", None),
            "<p>c</p>"
        );
    }

    #[test]
    fn nothing_unsafe_survives() {
        let page = "<article><p onclick=\"evil()\" style=\"color:red\">Hi <script>alert(1)</script>\
            <img src=x onerror=\"alert(2)\"><a href=\"javascript:alert(3)\">j</a>\
            <a href=\"JaVaScRiPt&#58;alert(4)\">k</a><a href=\" java\tscript:alert(5)\">l</a>\
            <img src=\"data:image/svg+xml;base64,PHN2Zz4=\"></p><iframe src=\"https://evil.example/\"></iframe>\
            <svg onload=\"alert(6)\"><script>alert(7)</script></svg><style>p{}</style>\
            <p>&lt;script&gt;text&lt;/script&gt; <a href=\"/ok\" onmouseover=\"x()\">ok</a></p></article>";
        let out = clean_html(page, Some("https://example.org/a/b"));
        let lower = out.to_ascii_lowercase();
        for bad in [
            "<script",
            "onerror",
            "onclick",
            "onload",
            "onmouseover",
            "javascript:",
            "<iframe",
            "style",
            "<svg",
            "data:",
            "alert(",
        ] {
            assert!(!lower.contains(bad), "{bad} survived in {out}");
        }
        assert!(
            out.contains("<img src=\"https://example.org/a/x\">"),
            "{out}"
        );
        assert!(out.contains("&lt;script&gt;text&lt;/script&gt;"), "{out}");
        assert!(
            out.contains("<a href=\"https://example.org/ok\">ok</a>"),
            "{out}"
        );
    }

    #[test]
    fn attribute_values_are_escaped() {
        let out = clean_html("<p><img src=\"/a.png\" alt='say \"hi\" & <bye>'></p>", None);
        assert_eq!(
            out,
            "<p><img src=\"/a.png\" alt=\"say &quot;hi&quot; &amp; &lt;bye&gt;\"></p>"
        );
    }

    #[test]
    fn pre_keeps_white_space_and_misplaced_parts_unwrap() {
        assert_eq!(
            clean_html("<pre><code>a  <b>b</b>\n c</code></pre>", None),
            "<pre><code>a  <b>b</b>\n c</code></pre>"
        );
        let dom = parse("<ul><li>one</li><li>two</li></ul>");
        let body = dom.body().unwrap();
        let li = dom.descendants(body).find(|&n| dom.is(n, Tag::LI)).unwrap();
        let sel = Selection {
            nodes: vec![li],
            ..Selection::default()
        };
        // A list item selected alone keeps its list (pending structure).
        assert_eq!(html(&dom, body, &sel, None), "<ul><li>one</li></ul>");
        // A list inside a link cannot be written: its parts unwrap.
        assert_eq!(
            clean_html("<a href=\"/x\"><ul><li>one</li></ul></a>", None),
            "<p><a href=\"/x\">one</a></p>"
        );
    }

    /// The HTML of the elements with one of `tags` (each selected alone)
    /// and the text nodes equal to one of `texts`.
    fn pieces(html_in: &str, tags: &[Tag], texts: &[&str]) -> (String, String) {
        let dom = parse(html_in);
        let body = dom.body().unwrap();
        let nodes: Vec<NodeId> = dom
            .descendants(body)
            .filter(|&n| {
                dom.tag(n).is_some_and(|t| tags.contains(&t))
                    || dom.text_of(n).is_some_and(|t| texts.contains(&t))
            })
            .collect();
        let sel = Selection {
            nodes,
            ..Selection::default()
        };
        let md = crate::render::markdown(
            &dom,
            body,
            &sel,
            None,
            crate::render::MarkdownOptions::default(),
        );
        (html(&dom, body, &sel, None), md)
    }

    #[test]
    fn separately_selected_items_keep_their_nested_lists() {
        let page = "<div><ul><li>one<ol><li>one.a</li><li>skip</li><li>one.c</li></ol></li>\
                    <li>skip</li><li>two</li></ul><p>skip</p></div>";
        let (h, md) = pieces(page, &[], &["one", "one.a", "one.c", "two"]);
        assert_eq!(
            h,
            "<ul><li>one<ol><li>one.a</li><li>one.c</li></ol></li><li>two</li></ul>"
        );
        assert_eq!(md, "- one\n  1. one.a\n  3. one.c\n- two");
        // Items selected as elements: the same.
        let (h, _) = pieces("<ul><li>a</li><li>b</li></ul>", &[Tag::LI], &[]);
        assert_eq!(h, "<ul><li>a</li><li>b</li></ul>");
    }

    #[test]
    fn separately_selected_cells_keep_their_table() {
        let page = "<table><thead><tr><th>Name</th><th>Value</th></tr></thead>\
                    <tbody><tr><td colspan=2 rowspan=x>wide</td></tr><tr><td>a</td><td>1</td></tr>\
                    <tr><td>nav</td></tr></tbody></table>";
        let (h, md) = pieces(page, &[Tag::TH], &["wide", "a", "1"]);
        assert_eq!(
            h,
            "<table><thead><tr><th>Name</th><th>Value</th></tr></thead>\
             <tbody><tr><td colspan=\"2\">wide</td></tr><tr><td>a</td><td>1</td></tr></tbody></table>"
        );
        // The spanned cell fills both columns of its row.
        assert_eq!(
            md,
            "| Name | Value |\n| --- | --- |\n| wide | wide |\n| a | 1 |"
        );
        // Cells selected as elements: the same rows.
        let (h, _) = pieces(page, &[Tag::TH, Tag::TD], &[]);
        assert!(h.ends_with("<tr><td>nav</td></tr></tbody></table>"), "{h}");
    }

    #[test]
    fn definition_lists_figures_and_quotes_keep_their_structure() {
        let (h, _) = pieces(
            "<dl><dt>term</dt><dd>meaning</dd><dt>skip</dt><dd>skip</dd></dl>",
            &[Tag::DT, Tag::DD],
            &[],
        );
        assert_eq!(
            h,
            "<dl><dt>term</dt><dd>meaning</dd><dt>skip</dt><dd>skip</dd></dl>"
        );
        let (h, _) = pieces(
            "<dl><dt>term</dt><dd>meaning</dd><dt>x</dt><dd>y</dd></dl>",
            &[],
            &["term", "meaning"],
        );
        assert_eq!(h, "<dl><dt>term</dt><dd>meaning</dd></dl>");
        let (h, _) = pieces(
            "<figure><img src=\"/a.png\" alt=\"A\"><figcaption>The caption</figcaption></figure>",
            &[Tag::IMG, Tag::FIGCAPTION],
            &[],
        );
        assert_eq!(
            h,
            "<figure><img src=\"/a.png\" alt=\"A\"><figcaption>The caption</figcaption></figure>"
        );
        let (h, md) = pieces(
            "<blockquote><p>one</p><p>skip</p><p>two</p></blockquote>",
            &[],
            &["one", "two"],
        );
        assert_eq!(h, "<blockquote><p>one</p><p>two</p></blockquote>");
        assert_eq!(md, "> one\n>\n> two");
    }

    #[test]
    fn code_blocks_keep_their_language() {
        let (h, md) = pieces(
            "<pre><code class=\"language-rust hljs\">fn main() {}\n</code></pre>",
            &[],
            &["fn main() {}\n"],
        );
        assert_eq!(
            h,
            "<pre><code class=\"language-rust\">fn main() {}\n</code></pre>"
        );
        assert_eq!(md, "```rust\nfn main() {}\n```");
        assert_eq!(
            clean_html("<pre class=\"lang-c++\">x++;</pre>", None),
            "<pre class=\"language-c++\">x++;</pre>"
        );
        // A name with anything else in it is not written.
        assert_eq!(
            clean_html("<pre class='language-\"x'>y</pre>", None),
            "<pre>y</pre>"
        );
    }

    #[test]
    fn selected_text_gets_its_heading_and_unselected_structure_leaves_nothing() {
        let (h, md) = pieces(
            "<h2>Title</h2><ul><li>skip</li></ul><table><tr><td>skip</td></tr></table><p>body</p>",
            &[],
            &["Title", "body"],
        );
        assert_eq!(h, "<h2>Title</h2><p>body</p>");
        assert_eq!(md, "## Title\n\nbody");
    }

    #[test]
    fn content_that_does_not_fit_a_pending_list_is_written_outside_it() {
        // An <i> or text directly in a list: the list is not opened for it.
        let (h, _) = pieces("<ul><i>x</i><li>y</li></ul>", &[Tag::I], &["y"]);
        // (Its item then has no list to go in: unwrapped, as before.)
        assert_eq!(h, "<p><i>x</i></p><p>y</p>");
        let (h, _) = pieces("<ul>loose<li>item</li></ul>", &[], &["loose", "item"]);
        assert_eq!(h, "<p>loose</p><ul><li>item</li></ul>");
    }

    #[test]
    fn markdown_and_html_agree_on_structure() {
        // Items and cells selected one by one, as block-level algorithms
        // select them: the same items and rows in both formats.
        let page = "<div><h3>Steps</h3><ol><li>first</li><li>second</li><li>third</li></ol>\
                    <table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr>\
                    <tr><td>b</td><td>2</td></tr></table></div>";
        let (h, md) = pieces(page, &[Tag::H3, Tag::LI, Tag::TH, Tag::TD], &[]);
        assert_eq!(h.matches("<li>").count(), 3);
        assert_eq!(
            md.lines()
                .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
                .count(),
            3
        );
        assert_eq!(h.matches("<tr>").count(), 3);
        assert_eq!(
            md.lines()
                .filter(|l| l.starts_with('|') && !l.contains("---"))
                .count(),
            3
        );
        assert!(h.starts_with("<h3>Steps</h3><ol>"), "{h}");
        assert!(md.starts_with("### Steps\n\n1. first"), "{md}");
    }
}
