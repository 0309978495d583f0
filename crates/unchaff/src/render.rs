//! Stage 6, **render**: selected nodes → plain text that keeps the
//! paragraph structure (SPEC §1).
//!
//! Block-level elements end a line, table cells are separated by a space,
//! `<br>` breaks the line, inline elements run on; white space is collapsed
//! as a browser collapses it (except inside `<pre>`). Nested selections
//! produce their text once: the walk counts how many selected nodes it is
//! inside, not which.

use crate::algorithms::Selection;
use crate::dom::{Dom, Edge, NodeId, NodeKind, Tag};

/// How an element affects the text flow.
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

/// The text flow of a tag.
pub fn flow(tag: Tag) -> Flow {
    match tag {
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

/// Builds text line by line, collapsing white space.
#[derive(Default)]
struct Writer {
    out: String,
    line_has_text: bool,
    pending_space: bool,
    pending_newline: bool,
}

impl Writer {
    fn text(&mut self, s: &str) {
        for c in s.chars() {
            if c.is_whitespace() {
                if self.line_has_text {
                    self.pending_space = true;
                }
            } else {
                self.char(c);
            }
        }
    }

    fn pre_text(&mut self, s: &str) {
        for c in s.chars() {
            match c {
                '\n' => self.newline(),
                '\r' => {}
                // Indentation matters in code: keep every space.
                c if c.is_whitespace() => self.char(' '),
                c => self.char(c),
            }
        }
    }

    #[inline]
    fn char(&mut self, c: char) {
        if self.pending_newline {
            if !self.out.is_empty() {
                self.out.push('\n');
            }
            self.pending_newline = false;
            self.pending_space = false;
        }
        if self.pending_space {
            self.out.push(' ');
            self.pending_space = false;
        }
        self.out.push(c);
        self.line_has_text = true;
    }

    fn newline(&mut self) {
        if self.line_has_text {
            // Only <pre> writes spaces eagerly; none may end a line.
            while self.out.ends_with(' ') {
                self.out.pop();
            }
            if !self.out.is_empty() && !self.out.ends_with('\n') {
                self.pending_newline = true;
            }
        }
        self.line_has_text = false;
        self.pending_space = false;
    }

    fn space(&mut self) {
        if self.line_has_text {
            self.pending_space = true;
        }
    }

    fn finish(mut self) -> String {
        // Trailing spaces on lines come only from <pre>; trim the end.
        let len = self.out.trim_end().len();
        self.out.truncate(len);
        self.out
    }
}

/// The plain text of the selection inside `root`; a selection that carries
/// its own text ([`Selection::text`]) renders as that text.
pub fn text(dom: &Dom, root: NodeId, selection: &Selection) -> String {
    if let Some(t) = &selection.text {
        return t.clone();
    }
    if selection.nodes.is_empty() {
        return String::new();
    }
    let marked = selection.marks(dom.len());
    let mut w = Writer::default();
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
                        // Outside a selection too: separately selected
                        // pieces (text nodes) keep the page's line breaks.
                        match flow(e.tag) {
                            Flow::Block | Flow::Break => w.newline(),
                            Flow::Cell => w.space(),
                            Flow::Inline => {}
                        }
                    }
                    NodeKind::Text { start, end } if inside > 0 => {
                        let s = &dom.text[*start as usize..*end as usize];
                        if pre > 0 { w.pre_text(s) } else { w.text(s) }
                    }
                    _ => {}
                }
            }
            Edge::Leave(id) => {
                if let Some(tag) = dom.tag(id) {
                    if flow(tag) == Flow::Block {
                        w.newline();
                    }
                    if tag == Tag::PRE {
                        pre = pre.saturating_sub(1);
                    }
                }
                if marked[id.index()] {
                    inside -= 1;
                    if inside == 0 {
                        // Separately selected pieces never run together
                        // into one word.
                        w.space();
                    }
                }
            }
        }
    }
    w.finish()
}

/// The page title: the first HTML `<title>`'s text, white space collapsed.
pub fn title(dom: &Dom) -> Option<String> {
    let t = dom.descendants(crate::dom::DOCUMENT).find(|&n| {
        dom.element(n)
            .is_some_and(|e| e.tag == Tag::TITLE && e.ns == html5ever::ns!(html))
    })?;
    let mut w = Writer::default();
    for c in dom.children(t) {
        if let Some(s) = dom.text_of(c) {
            w.text(s);
        }
    }
    let s = w.finish();
    if s.is_empty() { None } else { Some(s) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn render_all(html: &str) -> String {
        let dom = parse(html);
        let body = dom.body().unwrap();
        text(
            &dom,
            body,
            &Selection {
                nodes: vec![body],
                scores: vec![],
                text: None,
            },
        )
    }

    #[test]
    fn separately_selected_texts_keep_line_breaks() {
        // Texts "a", "b" (same <p>, inline <b> between) and "c" (next <p>)
        // selected one by one: a block boundary between pieces breaks the
        // line, an inline one gives a space; nothing before the first.
        let dom = parse("<div><p>a<b>b</b></p><p>skip</p><p>c</p></div>");
        let body = dom.body().unwrap();
        let texts: Vec<NodeId> = dom
            .descendants(body)
            .filter(|&n| dom.text_of(n).is_some_and(|t| t != "skip"))
            .collect();
        let sel = Selection {
            nodes: texts,
            ..Selection::default()
        };
        assert_eq!(text(&dom, body, &sel), "a b\nc");
    }

    #[test]
    fn blocks_end_lines_inline_runs_on() {
        assert_eq!(
            render_all(
                "<h1>Title</h1><p>Hello <b>bold</b>  world.</p><ul><li>one</li><li>two</li></ul>"
            ),
            "Title\nHello bold world.\none\ntwo"
        );
    }

    #[test]
    fn breaks_cells_and_pre() {
        assert_eq!(render_all("a<br>b<br><br>c"), "a\nb\nc");
        assert_eq!(
            render_all("<table><tr><td>1</td><td>2</td></tr><tr><td>3</td></tr></table>"),
            "1 2\n3"
        );
        assert_eq!(render_all("<pre>x = 1\n  y = 2</pre>"), "x = 1\n  y = 2");
    }

    #[test]
    fn nested_selection_renders_once() {
        let dom = parse("<div><p>one</p><p>two</p></div><p>three</p>");
        let body = dom.body().unwrap();
        let div = dom.children(body).next().unwrap();
        let p1 = dom.children(div).next().unwrap();
        let third = dom.children(body).nth(1).unwrap();
        let sel = Selection {
            nodes: vec![p1, div, third],
            scores: vec![],
            text: None,
        };
        assert_eq!(text(&dom, body, &sel), "one\ntwo\nthree");
    }

    #[test]
    fn selected_text_nodes_keep_spacing() {
        let dom = parse("<p>alpha <a>beta</a> gamma</p>");
        let body = dom.body().unwrap();
        let texts: Vec<NodeId> = dom
            .descendants(body)
            .filter(|&n| dom.text_of(n).is_some())
            .collect();
        let sel = Selection {
            nodes: vec![texts[0], texts[2]],
            scores: vec![],
            text: None,
        };
        assert_eq!(text(&dom, body, &sel), "alpha gamma");
    }

    #[test]
    fn text_override_wins() {
        let dom = parse("<p>tree text</p>");
        let body = dom.body().unwrap();
        let sel = Selection {
            nodes: vec![body],
            scores: vec![],
            text: Some("line text".into()),
        };
        assert_eq!(text(&dom, body, &sel), "line text");
    }

    #[test]
    fn title_is_collapsed() {
        let dom = parse("<title>  A \n title </title><svg><title>no</title></svg>");
        assert_eq!(title(&dom).as_deref(), Some("A title"));
    }
}
