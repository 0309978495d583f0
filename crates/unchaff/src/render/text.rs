//! The plain-text writer: selected nodes → text that keeps the paragraph
//! structure (ALGORITHMS.md#rendering).
//!
//! Block-level elements end a line, table cells are separated by a space,
//! `<br>` breaks the line, inline elements run on; white space is collapsed
//! as a browser collapses it (except inside `<pre>`). Nested selections
//! produce their text once: the walk counts how many selected nodes it is
//! inside, not which.

use super::{Cx, Element, Sink, walk};
use crate::algorithms::Selection;
use crate::dom::{Dom, Flow, NodeId, Ns, Tag};

/// Builds text line by line, collapsing white space.
#[derive(Default)]
struct Writer {
    out: String,
    line_has_text: bool,
    pending_space: bool,
    pending_newline: bool,
}

impl Writer {
    /// Writes `s` with its white space collapsed: each run of characters
    /// that are not white space (and single spaces inside it) is written
    /// as [`Writer::char`] writes its characters one by one (the pending
    /// break or space first), in one copy. Only the four UTF-8 lead bytes that can begin a non-ASCII
    /// white-space character (`C2`, `E1`, `E2`, `E3`) are decoded to
    /// tell ([`crate::annotate::collapsed_len`] reads text the same way).
    fn push_text(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            // The run of characters that are not white space from here.
            let start = i;
            while let Some(&b) = bytes.get(i) {
                let width = match b {
                    // One space between two characters that are not
                    // white space is written as it stands: the run goes
                    // on over it.
                    b' ' if i > start
                        && bytes
                            .get(i + 1)
                            .is_some_and(|&n| !matches!(n, 0x09..=0x0d | b' ' | 0xC2 | 0xE1..=0xE3)) =>
                    {
                        1
                    }
                    b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ' => break,
                    0xC2 | 0xE1 | 0xE2 | 0xE3 => {
                        match s.get(i..).and_then(|t| t.chars().next()) {
                            Some(c) if !c.is_whitespace() => c.len_utf8(),
                            _ => break,
                        }
                    }
                    _ => 1,
                };
                i += width;
            }
            match s.get(start..i) {
                Some(run) if !run.is_empty() => self.run(run),
                _ => {}
            }
            // The white-space character that ended it, if any.
            if let Some(c) = s.get(i..).and_then(|t| t.chars().next()) {
                i += c.len_utf8();
                if c.is_whitespace() {
                    if self.line_has_text {
                        self.pending_space = true;
                    }
                } else {
                    self.char(c);
                }
            } else {
                break;
            }
        }
    }

    /// Writes `run`, characters none of which is white space but single
    /// spaces between two of them, as [`Writer::char`] and
    /// [`Writer::push_text`] would one by one: after the first character
    /// the line has text, so each such space is written before the next.
    fn run(&mut self, run: &str) {
        self.pending();
        self.out.push_str(run);
        self.line_has_text = true;
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
        self.pending();
        self.out.push(c);
        self.line_has_text = true;
    }

    /// Writes the pending line break or space before a character.
    #[inline]
    fn pending(&mut self) {
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
    let mut w = Writer::default();
    walk(dom, root, selection, &mut w);
    w.finish()
}

impl Sink for Writer {
    #[inline]
    fn enter(&mut self, _: &Cx<'_>, el: Element) {
        // Outside a selection too: separately selected pieces (text nodes)
        // keep the page's line breaks.
        match el.kind.flow() {
            Flow::Block | Flow::Break => self.newline(),
            Flow::Cell => self.space(),
            Flow::Inline => {}
        }
    }

    #[inline]
    fn leave(&mut self, _: &Cx<'_>, el: Element) {
        if el.kind.flow() == Flow::Block {
            self.newline();
        }
    }

    #[inline]
    fn text(&mut self, cx: &Cx<'_>, s: &str) {
        if cx.pre > 0 {
            self.pre_text(s)
        } else {
            self.push_text(s)
        }
    }

    #[inline]
    fn selection_end(&mut self, _: &Cx<'_>) {
        // Separately selected pieces never run together into one word.
        self.space();
    }
}

/// The page title: the first HTML `<title>` with text, anywhere in the
/// tree (a wrapper element can put it in the body), white space
/// collapsed.
pub fn title(dom: &Dom) -> Option<String> {
    dom.descendants(crate::dom::DOCUMENT)
        .filter(|&n| {
            dom.element(n)
                .is_some_and(|e| e.tag == Tag::TITLE && e.ns == Ns::Html)
        })
        .find_map(|t| {
            let mut w = Writer::default();
            for c in dom.children(t) {
                if let Some(s) = dom.text_of(c) {
                    w.push_text(s);
                }
            }
            let s = w.finish();
            (!s.is_empty()).then_some(s)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    /// [`Writer::push_text`] as it was, a `char` at a time: the reference.
    fn push_text_by_char(w: &mut Writer, s: &str) {
        for c in s.chars() {
            if c.is_whitespace() {
                if w.line_has_text {
                    w.pending_space = true;
                }
            } else {
                w.char(c);
            }
        }
    }

    #[test]
    fn push_text_writes_runs_as_it_wrote_characters() {
        // Every white-space character Rust knows, characters that share
        // their lead byte with one (U+00A9, U+1681, U+2010, U+3001), other
        // scripts and controls, strung together by a fixed LCG; each text
        // written after a line break, a space or nothing pending.
        let alphabet: Vec<char> = " \t\n\r\x0b\x0c\x01\x1f\x7faZ9.\u{85}\u{a0}\u{a9}\u{1680}\u{1681}\u{2000}\u{200a}\u{2010}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}\u{3001}\u{200b}é中文\u{1f600}"
            .chars()
            .collect();
        let mut x: u64 = 7;
        for len in 0..600 {
            let mut s = String::new();
            for _ in 0..len % 37 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push(alphabet[(x >> 33) as usize % alphabet.len()]);
            }
            let start = |w: &mut Writer| {
                w.out.push('x');
                w.line_has_text = len % 2 == 0;
                w.pending_newline = len % 3 == 0;
                w.pending_space = len % 5 == 0;
            };
            let (mut fast, mut slow) = (Writer::default(), Writer::default());
            start(&mut fast);
            start(&mut slow);
            fast.push_text(&s);
            push_text_by_char(&mut slow, &s);
            let state = |w: &Writer| {
                (
                    w.out.clone(),
                    w.line_has_text,
                    w.pending_space,
                    w.pending_newline,
                )
            };
            assert_eq!(state(&fast), state(&slow), "{s:?}");
        }
    }

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
                ..Selection::default()
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
            ..Selection::default()
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
            ..Selection::default()
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
            ..Selection::default()
        };
        assert_eq!(text(&dom, body, &sel), "line text");
    }

    #[test]
    fn title_is_collapsed() {
        let dom = parse("<title>  A \n title </title><svg><title>no</title></svg>");
        assert_eq!(title(&dom).as_deref(), Some("A title"));
    }
}
