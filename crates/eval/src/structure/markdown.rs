//! Reading a Markdown output into the benchmark's shapes, with a CommonMark
//! and GFM parser (pulldown-cmark: tables, `$…$`/`$$…$$` math, definition
//! lists, `~sub~`/`^sup^`), and the two checks of a well-formed output:
//! every table rectangular, every code fence closed.
//!
//! Raw HTML blocks in the Markdown are read too (an extractor may keep a
//! table as HTML): their tables, images and text count like Markdown's.

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use super::{Heading, ListItem, Math, html};
use unchaff::text::collapse_whitespace as collapse;

/// A Markdown output, read.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    /// Headings in order.
    pub headings: Vec<Heading>,
    /// List items in document order.
    pub lists: Vec<ListItem>,
    /// Tables in order.
    pub tables: Vec<OutTable>,
    /// Code blocks (fenced or indented) in order.
    pub code: Vec<OutCode>,
    /// `$…$` (inline) and `$$…$$` (display) formulas in order.
    pub math: Vec<Math>,
    /// Image addresses as written (`![alt](src)`, or `<img src>` in raw HTML).
    pub images: Vec<String>,
    /// The text of each block quote (outermost), in order.
    pub quotes: Vec<String>,
    /// The text of every leaf block (paragraph, heading, item text, cell,
    /// definition term or definition) in order.
    pub blocks: Vec<String>,
    /// The text with `<sub>`/`<sup>` tags kept (from inline HTML or from
    /// `~x~`/`^x^`), whitespace runs as one space: where sub/sup
    /// occurrences are looked for.
    pub marked_text: String,
    /// The plain text, one block a line (the Markdown stripped).
    pub text: String,
}

/// A table of the output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutTable {
    /// The cells' texts as a renderer shows them, header row first.
    pub rows: Vec<Vec<String>>,
    /// How many cells each row of the source has (GFM splitting on
    /// unescaped `|`), header row first; empty for an HTML table.
    pub source_cells: Vec<usize>,
}

impl OutTable {
    /// Whether every row of the source has the header's number of cells.
    pub fn is_rectangular(&self) -> bool {
        self.source_cells.windows(2).all(|w| w[0] == w[1])
    }
}

/// A code block of the output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutCode {
    /// The info string's first word, if any.
    pub lang: Option<String>,
    /// The block's text.
    pub text: String,
    /// Whether the block is fenced (not indented).
    pub fenced: bool,
    /// False for a fenced block that no closing fence ends (it runs to the
    /// end of its container, swallowing what follows).
    pub closed: bool,
}

/// The parser options: GFM tables, strikethrough, math, definition lists,
/// sub/superscript.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_MATH
        | Options::ENABLE_DEFINITION_LIST
        | Options::ENABLE_SUPERSCRIPT
        | Options::ENABLE_SUBSCRIPT
}

/// What the walk is inside of.
#[derive(Default)]
struct State {
    out: Parsed,
    /// Open leaf blocks' texts (nested: a paragraph in a definition).
    captures: Vec<String>,
    /// Open list items: index into `out.lists`, and the text so far.
    items: Vec<(usize, String)>,
    /// Open lists: ordered or not.
    lists: Vec<bool>,
    /// Depth of block quotes, and the outermost one's text.
    quote_depth: usize,
    quote: String,
    /// The open table, its open row and cell.
    table: Option<OutTable>,
    row: Vec<String>,
    cell: Option<String>,
    /// The open code block.
    code: Option<OutCode>,
    /// Inside an image's alt text (not content text).
    image_depth: usize,
    /// The open HTML block's source.
    html_block: Option<String>,
}

impl State {
    /// Content text: to every open container.
    fn push_text(&mut self, s: &str) {
        if self.image_depth > 0 {
            return;
        }
        if let Some(code) = &mut self.code {
            code.text.push_str(s);
            self.out.text.push_str(s);
            return;
        }
        if let Some(c) = self.captures.last_mut() {
            c.push_str(s);
        }
        if let Some((_, t)) = self.items.last_mut() {
            t.push_str(s);
        }
        if self.quote_depth > 0 {
            self.quote.push_str(s);
        }
        if let Some(cell) = &mut self.cell {
            cell.push_str(s);
        }
        self.out.marked_text.push_str(s);
        self.out.text.push_str(s);
    }

    /// A block boundary in the plain and marked texts.
    fn end_line(&mut self) {
        if !self.out.text.is_empty() && !self.out.text.ends_with('\n') {
            self.out.text.push('\n');
        }
        self.out.marked_text.push(' ');
        if self.quote_depth > 0 {
            self.quote.push(' ');
        }
    }

    fn open_capture(&mut self) {
        self.captures.push(String::new());
    }

    fn close_capture(&mut self) -> String {
        let text = self.captures.pop().unwrap_or_default();
        let text = collapse(&text);
        if !text.is_empty() {
            self.out.blocks.push(text.clone());
        }
        self.end_line();
        text
    }

    /// A raw HTML fragment inline: `<br>` breaks, `<sub>`/`<sup>` marks,
    /// `<img>` an image; other tags are dropped.
    fn inline_html(&mut self, tag: &str) {
        let lower = tag.trim().to_ascii_lowercase();
        let name: String = lower
            .trim_start_matches('<')
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        match name.as_str() {
            "br" => self.push_text(" "),
            "sub" | "sup" => {
                self.out.marked_text.push_str(&lower);
                if let Some(cell) = &mut self.cell {
                    cell.push(' ');
                }
            }
            "img" => {
                let dom = html::parse(tag);
                for n in html::elements(&dom) {
                    if dom.is(n, unchaff::dom::Tag::IMG)
                        && let Some(src) = dom.attr(n, "src")
                    {
                        self.out.images.push(src.to_string());
                    }
                }
            }
            _ => {}
        }
    }

    /// A closed HTML block: its tables, images and text.
    fn html_block(&mut self, source: &str) {
        let dom = html::parse(source);
        for n in html::elements(&dom) {
            if dom.is(n, unchaff::dom::Tag::TABLE) {
                if let Some(t) = html::table_grid(&dom, n) {
                    self.out.tables.push(OutTable {
                        rows: t.rows,
                        source_cells: Vec::new(),
                    });
                }
            } else if dom.is(n, unchaff::dom::Tag::IMG)
                && let Some(src) = dom.attr(n, "src")
            {
                self.out.images.push(src.to_string());
            }
        }
        let text = html::block_text(&dom, dom.content_root());
        for line in text.lines() {
            self.out.blocks.push(line.to_string());
        }
        if !text.is_empty() {
            self.end_line();
            self.out.text.push_str(&text);
            self.out.marked_text.push_str(&text.replace('\n', " "));
            self.end_line();
        }
    }
}

/// Reads a Markdown document.
pub fn parse(md: &str) -> Parsed {
    let mut st = State::default();
    for (event, range) in Parser::new_ext(md, options()).into_offset_iter() {
        match event {
            Event::Start(tag) => match tag {
                Tag::Paragraph
                | Tag::Heading { .. }
                | Tag::DefinitionListTitle
                | Tag::DefinitionListDefinition => st.open_capture(),
                Tag::BlockQuote(_) => {
                    st.end_line();
                    st.quote_depth += 1;
                }
                Tag::List(start) => {
                    st.end_line();
                    st.lists.push(start.is_some());
                }
                Tag::Item => {
                    let depth = st.lists.len().saturating_sub(1);
                    let ordered = st.lists.last().copied().unwrap_or(false);
                    st.out.lists.push(ListItem {
                        depth,
                        ordered,
                        text: String::new(),
                    });
                    st.items.push((st.out.lists.len() - 1, String::new()));
                }
                Tag::Table(_) => {
                    st.end_line();
                    st.table = Some(OutTable::default());
                }
                Tag::TableHead | Tag::TableRow => {
                    st.row.clear();
                    if let Some(t) = &mut st.table {
                        t.source_cells.push(count_row_cells(&md[range.clone()]));
                    }
                }
                Tag::TableCell => st.cell = Some(String::new()),
                Tag::CodeBlock(kind) => {
                    st.end_line();
                    let (lang, fenced, closed) = match kind {
                        CodeBlockKind::Indented => (None, false, true),
                        CodeBlockKind::Fenced(info) => (
                            info.split_whitespace()
                                .next()
                                .map(|l| l.to_ascii_lowercase()),
                            true,
                            fence_closed(&md[range.clone()]),
                        ),
                    };
                    st.code = Some(OutCode {
                        lang,
                        text: String::new(),
                        fenced,
                        closed,
                    });
                }
                Tag::HtmlBlock => st.html_block = Some(String::new()),
                Tag::Image { dest_url, .. } => {
                    st.out.images.push(dest_url.to_string());
                    st.image_depth += 1;
                }
                Tag::Subscript => st.out.marked_text.push_str("<sub>"),
                Tag::Superscript => st.out.marked_text.push_str("<sup>"),
                _ => {}
            },
            Event::End(end) => match end {
                TagEnd::Paragraph
                | TagEnd::DefinitionListTitle
                | TagEnd::DefinitionListDefinition => {
                    st.close_capture();
                }
                TagEnd::Heading(level) => {
                    let text = st.close_capture();
                    st.out.headings.push(Heading {
                        level: level as u8,
                        text,
                    });
                }
                TagEnd::BlockQuote(_) => {
                    st.quote_depth = st.quote_depth.saturating_sub(1);
                    if st.quote_depth == 0 {
                        let q = collapse(&std::mem::take(&mut st.quote));
                        if !q.is_empty() {
                            st.out.quotes.push(q);
                        }
                    }
                    st.end_line();
                }
                TagEnd::List(_) => {
                    st.lists.pop();
                    st.end_line();
                }
                TagEnd::Item => {
                    if let Some((i, text)) = st.items.pop() {
                        let text = collapse(&text);
                        if !text.is_empty() {
                            st.out.blocks.push(text.clone());
                        }
                        st.out.lists[i].text = text;
                    }
                    st.end_line();
                }
                TagEnd::TableCell => {
                    let cell = st.cell.take().unwrap_or_default();
                    st.row.push(collapse(&cell));
                    st.out.text.push(' ');
                    st.out.marked_text.push(' ');
                }
                TagEnd::TableHead | TagEnd::TableRow => {
                    let row = std::mem::take(&mut st.row);
                    for c in &row {
                        if !c.is_empty() {
                            st.out.blocks.push(c.clone());
                        }
                    }
                    if let Some(t) = &mut st.table {
                        t.rows.push(row);
                    }
                    st.end_line();
                }
                TagEnd::Table => {
                    if let Some(t) = st.table.take() {
                        st.out.tables.push(t);
                    }
                    st.end_line();
                }
                TagEnd::CodeBlock => {
                    if let Some(code) = st.code.take() {
                        st.out.code.push(code);
                    }
                    st.end_line();
                }
                TagEnd::HtmlBlock => {
                    if let Some(src) = st.html_block.take() {
                        st.html_block(&src);
                    }
                }
                TagEnd::Image => st.image_depth = st.image_depth.saturating_sub(1),
                TagEnd::Subscript => st.out.marked_text.push_str("</sub>"),
                TagEnd::Superscript => st.out.marked_text.push_str("</sup>"),
                _ => {}
            },
            Event::Text(s) | Event::Code(s) => st.push_text(&s),
            Event::InlineMath(s) => {
                st.out.math.push(Math {
                    tex: s.to_string(),
                    display: false,
                });
                st.push_text(&s);
            }
            Event::DisplayMath(s) => {
                st.out.math.push(Math {
                    tex: s.to_string(),
                    display: true,
                });
                st.push_text(&s);
            }
            Event::Html(s) => {
                if let Some(b) = &mut st.html_block {
                    b.push_str(&s);
                }
            }
            Event::InlineHtml(s) => st.inline_html(&s),
            Event::SoftBreak => st.push_text(" "),
            Event::HardBreak => {
                st.push_text(" ");
                if st.cell.is_none() {
                    st.out.text.push('\n');
                }
            }
            _ => {}
        }
    }
    st.out.marked_text = collapse(&st.out.marked_text);
    st.out
}

/// The cells of one table row's source line, split as GFM does: on `|`
/// not escaped by a backslash (inside code spans too), a leading and a
/// trailing pipe not counting. Container markers before the row (`>` of
/// a quote) are skipped.
pub fn count_row_cells(source: &str) -> usize {
    let line = source.lines().next().unwrap_or("");
    let line = line.trim_start_matches(|c: char| c.is_whitespace() || c == '>');
    let line = line.trim_end();
    let mut pipes = Vec::new();
    let mut backslashes = 0usize;
    for (i, c) in line.char_indices() {
        match c {
            '\\' => backslashes += 1,
            '|' => {
                if backslashes.is_multiple_of(2) {
                    pipes.push(i);
                }
                backslashes = 0;
            }
            _ => backslashes = 0,
        }
    }
    let mut cells = pipes.len() + 1;
    if pipes.first() == Some(&0) {
        cells -= 1;
    }
    if !line.is_empty() && pipes.last() == Some(&(line.len() - 1)) && line.len() > 1 {
        cells -= 1;
    }
    cells
}

/// Whether a fenced code block's source ends with a closing fence: a line
/// of the opening fence's character, at least as long, and nothing else.
fn fence_closed(source: &str) -> bool {
    let strip = |l: &str| -> String {
        l.trim_start_matches(|c: char| c.is_whitespace() || c == '>')
            .trim_end()
            .to_string()
    };
    let mut lines = source.lines().map(strip).filter(|l| !l.is_empty());
    let Some(open) = lines.next() else {
        return false;
    };
    let Some(ch) = open.chars().next().filter(|c| *c == '`' || *c == '~') else {
        return false;
    };
    let width = open.chars().take_while(|&c| c == ch).count();
    match lines.next_back() {
        Some(close) => close.chars().all(|c| c == ch) && close.chars().count() >= width,
        None => false,
    }
}

/// Problems of a Markdown output that break its rendering: tables whose
/// rows have different numbers of cells, and code fences never closed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WellFormed {
    /// Markdown tables (HTML ones are not counted).
    pub tables: usize,
    /// Those that are not rectangular.
    pub ragged_tables: usize,
    /// Fenced code blocks.
    pub fences: usize,
    /// Those without a closing fence.
    pub open_fences: usize,
}

impl WellFormed {
    /// The counts of `parsed`.
    pub fn of(parsed: &Parsed) -> WellFormed {
        let md_tables = parsed.tables.iter().filter(|t| !t.source_cells.is_empty());
        WellFormed {
            tables: md_tables.clone().count(),
            ragged_tables: md_tables.filter(|t| !t.is_rectangular()).count(),
            fences: parsed.code.iter().filter(|c| c.fenced).count(),
            open_fences: parsed.code.iter().filter(|c| !c.closed).count(),
        }
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &WellFormed) {
        self.tables += other.tables;
        self.ragged_tables += other.ragged_tables;
        self.fences += other.fences;
        self.open_fences += other.open_fences;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "# Title\n\nSome *text* with $x^2$ and H<sub>2</sub>O.\n\n\
        ## Part one\n\n- a\n  - b\n1. c\n\n\
        | h1 | h2 |\n|---|---|\n| x | y<br>z |\n| p \\| q | r |\n\n\
        ```python\ndef f():\n\treturn 1\n```\n\n\
        $$\n\\frac{1}{2}\n$$\n\n> quoted words\n\n![alt](/img/a.png)\n\nTerm\n: Its definition.\n";

    #[test]
    fn reads_every_construct() {
        let p = parse(DOC);
        assert_eq!(
            p.headings,
            vec![
                Heading {
                    level: 1,
                    text: "Title".into()
                },
                Heading {
                    level: 2,
                    text: "Part one".into()
                },
            ]
        );
        let items: Vec<(usize, bool, &str)> = p
            .lists
            .iter()
            .map(|i| (i.depth, i.ordered, i.text.as_str()))
            .collect();
        assert_eq!(
            items,
            vec![(0, false, "a"), (1, false, "b"), (0, true, "c")]
        );
        assert_eq!(p.tables.len(), 1);
        assert_eq!(
            p.tables[0].rows,
            vec![vec!["h1", "h2"], vec!["x", "y z"], vec!["p | q", "r"]]
        );
        assert!(p.tables[0].is_rectangular());
        assert_eq!(p.code.len(), 1);
        assert_eq!(p.code[0].lang.as_deref(), Some("python"));
        assert_eq!(p.code[0].text, "def f():\n\treturn 1\n");
        assert!(p.code[0].closed);
        assert_eq!(
            p.math,
            vec![
                Math {
                    tex: "x^2".into(),
                    display: false
                },
                Math {
                    tex: "\n\\frac{1}{2}\n".into(),
                    display: true
                },
            ]
        );
        assert!(
            p.marked_text.contains("H<sub>2</sub>O"),
            "{}",
            p.marked_text
        );
        assert_eq!(p.quotes, vec!["quoted words"]);
        assert_eq!(p.images, vec!["/img/a.png"]);
        assert!(
            p.blocks
                .windows(2)
                .any(|w| w[0] == "Term" && w[1] == "Its definition.")
        );
        assert!(p.text.contains("Some text with x^2 and H2O."), "{}", p.text);
        assert!(!p.text.contains("alt"));
        assert_eq!(
            WellFormed::of(&p),
            WellFormed {
                tables: 1,
                ragged_tables: 0,
                fences: 1,
                open_fences: 0
            }
        );
    }

    #[test]
    fn a_ragged_table_is_found() {
        let p = parse("| a | b |\n|---|---|\n| 1 | 2 | 3 |\n| 4 |\n");
        assert_eq!(p.tables.len(), 1);
        assert_eq!(p.tables[0].source_cells, vec![2, 3, 1]);
        assert!(!p.tables[0].is_rectangular());
        assert_eq!(WellFormed::of(&p).ragged_tables, 1);
        // A cell with a raw newline ends the row: the rest is a new row.
        let p = parse("| a | b |\n|---|---|\n| 1\n2 | 3 |\n");
        assert_eq!(WellFormed::of(&p).ragged_tables, 1);
    }

    #[test]
    fn an_unclosed_fence_is_found() {
        let p = parse("text\n\n```rust\nfn main() {}\n\nmore text\n");
        assert_eq!(p.code.len(), 1);
        assert!(!p.code[0].closed);
        assert_eq!(WellFormed::of(&p).open_fences, 1);
        // A shorter fence does not close a longer one.
        let p = parse("````\ncode\n```\n");
        assert!(!p.code[0].closed);
        let p = parse("> ```\n> code\n> ```\n\nafter\n");
        assert!(p.code[0].closed);
        let p = parse("~~~ js\nx\n~~~~\n");
        assert!(p.code[0].closed);
        assert_eq!(p.code[0].lang.as_deref(), Some("js"));
    }

    #[test]
    fn row_cells_split_on_unescaped_pipes() {
        assert_eq!(count_row_cells("| a | b |"), 2);
        assert_eq!(count_row_cells("a | b"), 2);
        assert_eq!(count_row_cells("| a \\| b |"), 1);
        assert_eq!(count_row_cells("| a \\\\| b |"), 2);
        assert_eq!(count_row_cells("| `a|b` |"), 2);
        assert_eq!(count_row_cells("> | a | b | c |"), 3);
        assert_eq!(count_row_cells("|"), 1);
    }

    #[test]
    fn html_tables_and_images_are_read() {
        let p = parse(
            "<table><tr><th>a</th><th colspan=\"2\">b</th></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>\n\n\
             after <img src=\"/x.png\" alt=\"\"> it\n",
        );
        assert_eq!(p.tables.len(), 1);
        assert_eq!(
            p.tables[0].rows,
            vec![vec!["a", "b", "b"], vec!["1", "2", "3"]]
        );
        assert_eq!(p.images, vec!["/x.png"]);
        assert_eq!(WellFormed::of(&p).tables, 0);
        assert!(p.text.contains("after"));
    }

    #[test]
    fn pandoc_sub_and_sup_are_marked() {
        // pulldown-cmark reads `~`/`^` as delimiter runs (not inside a
        // word, unlike pandoc).
        let p = parse("a ~low~ and ^high^ b\n");
        assert!(
            p.marked_text
                .contains("a <sub>low</sub> and <sup>high</sup> b"),
            "{}",
            p.marked_text
        );
    }
}
