//! Stage 6, **render** as clean HTML: the selection as a self-contained
//! fragment that is safe to embed.
//!
//! Only the tags in [`ALLOWED`] are written, with only `href` (on `a`),
//! `src` (on `img`), `alt`, `title`, `colspan` and `rowspan`; every other
//! element is unwrapped (its children kept). Links and images must be
//! http(s) URLs, or relative ones (made absolute when a base URL is known):
//! `javascript:`, `data:` (images included — a choice: they can be
//! megabytes, and an SVG data URL can carry script) and any other scheme
//! are dropped. Text and attribute values are escaped. Scripts, styles,
//! frames, SVG contents and event handlers never get out: the cleaner
//! removed most of them, and the whitelist stops the rest.
//!
//! Loose text between blocks (text directly in a `div`) is wrapped in a
//! `<p>`; a table part, list item or definition outside its table or list
//! is unwrapped, so the fragment is always well nested. A selection that
//! carries its own text ([`Selection::text`], CETR) renders as one `<p>`
//! a line.

use url::Url;

use crate::algorithms::Selection;
use crate::dom::{Dom, Edge, NodeId, NodeKind, Tag};
use crate::markdown::resolve_url;
use crate::render::{Flow, flow};

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
            | Some(Tag::FIGURE)
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
fn allowed_here(tag: Tag, open: &[(NodeId, Tag)]) -> bool {
    if !ALLOWED.contains(&tag) {
        return false;
    }
    let parent = open.last().map(|o| o.1);
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
            if open.iter().any(|o| is_inline(o.1)) =>
        {
            false
        }
        _ if tag.is_heading() && open.iter().any(|o| is_inline(o.1) || o.1.is_heading()) => false,
        Tag::P if open.iter().any(|o| o.1 == Tag::P || o.1.is_heading()) => false,
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

struct Writer<'a> {
    out: String,
    /// Elements written and not yet closed; an implied `<p>` is
    /// `(NodeId::NONE, Tag::P)`.
    open: Vec<(NodeId, Tag)>,
    pending_space: bool,
    /// At the start of a block: a space here is not written.
    fresh: bool,
    base: Option<&'a Url>,
}

impl Writer<'_> {
    fn close_implied(&mut self) {
        if self.open.last().is_some_and(|o| o.0.is_none()) {
            self.open.pop();
            self.out.push_str("</p>");
        }
        self.pending_space = false;
        self.fresh = true;
    }

    fn ensure_phrasing(&mut self) {
        if !holds_phrasing(self.open.last().map(|o| o.1)) {
            self.out.push_str("<p>");
            self.open.push((NodeId::NONE, Tag::P));
            self.fresh = true;
        }
    }

    fn text(&mut self, s: &str, pre: bool) {
        if pre {
            escape_into(&mut self.out, s, false);
            self.fresh = false;
            return;
        }
        for c in s.chars() {
            if c.is_whitespace() {
                self.pending_space = true;
                continue;
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

    fn start(&mut self, dom: &Dom, id: NodeId, tag: Tag) -> bool {
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
            Tag::IMG => match dom.attr(id, "src").and_then(|h| resolve_url(self.base, h)) {
                Some(u) => attr("src", &u),
                None => return false,
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
            _ => {}
        }
        for name in ["alt", "title"] {
            if (name == "title" || tag == Tag::IMG)
                && let Some(v) = dom.attr(id, name)
            {
                attr(name, v);
            }
        }
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
        self.out.push_str(dom.tag_name(tag));
        self.out.push_str(&attrs);
        self.out.push('>');
        !matches!(tag, Tag::IMG | Tag::BR)
    }
}

/// The selection inside `root` as a clean HTML fragment; URLs resolve
/// against `base`.
pub fn html(dom: &Dom, root: NodeId, selection: &Selection, base: Option<&Url>) -> String {
    let mut w = Writer {
        out: String::new(),
        open: Vec::new(),
        pending_space: false,
        fresh: true,
        base,
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
    let marked = selection.marks(dom.len());
    let mut inside: u32 = 0;
    let mut pre: u32 = 0;
    for edge in dom.traverse(root) {
        match edge {
            Edge::Enter(id) => {
                if marked[id.index()] {
                    inside += 1;
                }
                match &dom.node(id).kind {
                    NodeKind::Element(e) => {
                        if e.tag == Tag::PRE {
                            pre += 1;
                        }
                        if inside > 0 && allowed_here(e.tag, &w.open) {
                            if w.start(dom, id, e.tag) {
                                w.open.push((id, e.tag));
                            }
                        } else if flow(e.tag) == Flow::Block {
                            w.close_implied();
                        } else if matches!(flow(e.tag), Flow::Cell | Flow::Break) {
                            w.pending_space = true;
                        }
                    }
                    NodeKind::Text { start, end } if inside > 0 => {
                        w.text(&dom.text[*start as usize..*end as usize], pre > 0);
                    }
                    _ => {}
                }
            }
            Edge::Leave(id) => {
                if let Some(tag) = dom.tag(id) {
                    if tag == Tag::PRE {
                        pre = pre.saturating_sub(1);
                    }
                    if w.open.iter().any(|o| o.0 == id) {
                        while let Some((n, t)) = w.open.pop() {
                            w.out.push_str("</");
                            w.out.push_str(dom.tag_name(t));
                            w.out.push('>');
                            if n == id {
                                break;
                            }
                        }
                        if !is_inline(tag) {
                            w.pending_space = false;
                            w.fresh = true;
                        }
                    } else if flow(tag) == Flow::Block {
                        w.close_implied();
                    }
                }
                if marked[id.index()] {
                    inside -= 1;
                    if inside == 0 {
                        w.close_implied();
                    }
                }
            }
        }
    }
    while let Some((_, t)) = w.open.pop() {
        w.out.push_str("</");
        w.out.push_str(dom.tag_name(t));
        w.out.push('>');
    }
    w.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::base_url;
    use crate::parse::parse;

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
                 <ul><li>a <b>b</b></li></ul><table><tr><td colspan=2 style=x>c</td></tr></table></div>",
                None
            ),
            "<h2>T</h2><p>loose text</p><ul><li>a <b>b</b></li></ul>\
             <table><tbody><tr><td colspan=\"2\">c</td></tr></tbody></table>"
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
        assert_eq!(html(&dom, body, &sel, None), "<p>one</p>");
    }
}
