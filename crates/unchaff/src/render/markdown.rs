//! The Markdown writer: the selection with its structure — headings,
//! paragraphs, (nested) lists, GFM tables, fenced code blocks, block
//! quotes, emphasis, and optionally links and images.
//!
//! Driven by the shared [`walk`](super::walk), like the text writer: text
//! is written only inside a selected node (nested selections count, so
//! every text comes out once), while the page's structure is followed
//! everywhere. Every marker (`# `, `- `, `**`, a fence) is *pending* until
//! the first character after it is written, so an element with no selected
//! text leaves no stray marker, and separately selected text nodes still
//! get the heading or list item they sit in.
//!
//! A selection that carries its own text ([`Selection::text`], CETR) has no
//! structure: it renders as that text, escaped.

use url::Url;

use super::{Cx, Element, Kind, Sink, code_language, resolve_url, table, walk};
use crate::algorithms::Selection;
use crate::dom::{Dom, Flow, NodeId, Tag};

/// Deepest quote or list level whose prefix (`> `, an item's indent) is
/// written on each line. Deeper levels run on at this depth: a page of
/// 100,000 nested `<blockquote>`s would otherwise repeat a prefix of
/// hundreds of bytes on every line (an output hundreds of times the
/// input); real pages nest lists and quotes a handful of levels.
pub const MAX_PREFIX_LEVELS: usize = 16;

/// What renders besides the text.
#[derive(Clone, Copy, Debug, Default)]
pub struct MarkdownOptions {
    /// Links as `[text](href)` (else just their text).
    pub links: bool,
    /// Images as `![alt](src)` (else nothing).
    pub images: bool,
}

/// A break pending before the next character.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Break {
    None,
    /// A hard line break (`<br>`): `\` then a new line.
    Hard,
    /// A new line (list items, table rows).
    Line,
    /// A blank line (paragraphs).
    Para,
}

/// One level of line prefix: a block quote or a list item's indentation.
struct Seg {
    quote: bool,
    width: usize,
    /// The list marker still to be written on the item's first line.
    marker: Option<String>,
    /// Whether a line inside it was written (a blank line before a quote's
    /// first line is outside the quote).
    started: bool,
}

/// An inline wrapper (emphasis, code, link) whose opener is written
/// lazily: at the first character inside it, and again at the first
/// character of each block after a block boundary inside it (a span
/// never runs across a paragraph break: Markdown would leave its opener
/// as text, and the code span's text unescaped after it).
struct Wrap {
    open: String,
    /// What closes it; for links `](url)`.
    close: String,
    emitted: bool,
    /// A code span: its delimiters are checked against what was written
    /// inside when it closes.
    code: bool,
    /// Where its content starts in the output (once emitted).
    at: usize,
}

#[derive(Default)]
struct Writer {
    out: String,
    segs: Vec<Seg>,
    /// Where the last lead (a heading's `#`, a fence) was written.
    lead_at: usize,
    wraps: Vec<Wrap>,
    brk: Option<Break>,
    /// Raw text written right after the line prefix (heading hashes,
    /// table pipes, fences), before the next character.
    lead: String,
    line_has_text: bool,
    pending_space: bool,
    /// Only digits written since the line began (a `.` or `)` after them
    /// would make a list marker).
    line_digits: bool,
    /// A table cell's writer: every break is a single new line (the cell's
    /// lines are joined with `<br>`, see [`Writer::cell_text`]).
    single_lines: bool,
    /// In a code block, the line written so far is empty.
    code_line_empty: bool,
}

impl Writer {
    /// The writer of one table cell's content.
    fn cell() -> Writer {
        Writer {
            single_lines: true,
            ..Writer::default()
        }
    }

    /// A cell's content on one line: its lines trimmed, the empty ones
    /// dropped, the rest joined with `<br>` (GFM cells are one line).
    fn cell_text(self) -> String {
        let out = self.finish();
        let mut s = String::with_capacity(out.len());
        for line in out.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if !s.is_empty() {
                s.push_str("<br>");
            }
            s.push_str(line);
        }
        s
    }

    fn block(&mut self, b: Break) {
        let b = match self.single_lines {
            true => b.min(Break::Line),
            false => b,
        };
        if self.out.is_empty() {
            self.brk = Some(Break::None);
        } else {
            self.brk = Some(self.brk.map_or(b, |o| o.max(b)));
        }
        self.lead.clear();
        // Spans open in this block close here and open again in the next.
        for w in self.wraps.iter_mut().rev() {
            if w.emitted {
                close_wrap(&mut self.out, w);
                w.emitted = false;
            }
        }
        self.line_has_text = false;
        self.pending_space = false;
    }

    fn prefix(&mut self, first_line: bool) {
        for s in self.segs.iter_mut().take(MAX_PREFIX_LEVELS) {
            s.started = true;
            if s.quote {
                self.out.push_str("> ");
            } else if let (true, Some(m)) = (first_line, s.marker.take()) {
                self.out.push_str(&m);
                for _ in m.len()..s.width {
                    self.out.push(' ');
                }
            } else {
                for _ in 0..s.width {
                    self.out.push(' ');
                }
            }
        }
    }

    /// Writes whatever is pending (break, prefix, lead, openers).
    fn flush(&mut self) {
        if let Some(b) = self.brk.take() {
            match b {
                Break::None => {}
                Break::Hard => self.out.push_str("\\\n"),
                Break::Line => self.out.push('\n'),
                Break::Para => {
                    self.out.push('\n');
                    // A quote's blank line stays inside the quote.
                    for s in self.segs.iter().take(MAX_PREFIX_LEVELS) {
                        if s.quote && s.started {
                            self.out.push('>');
                        }
                    }
                    self.out.push('\n');
                }
            }
            self.prefix(b != Break::Hard);
            let lead = std::mem::take(&mut self.lead);
            self.lead_at = self.out.len();
            self.raw(&lead);
        } else if self.pending_space {
            self.out.push(' ');
        }
        self.pending_space = false;
        for w in &mut self.wraps {
            if !w.emitted {
                // A code span right after another's closing backquotes
                // would join the two runs into one (`` `` `` + `` ` ``):
                // the first span's closer is gone, and what follows is
                // read as markup. A space keeps them apart.
                if w.code && self.out.ends_with('`') {
                    self.out.push(' ');
                }
                self.out.push_str(&w.open);
                w.emitted = true;
                w.at = self.out.len();
            }
        }
    }

    /// Raw text; a new line inside it repeats the prefix.
    fn raw(&mut self, s: &str) {
        for (i, part) in s.split('\n').enumerate() {
            if i > 0 {
                self.out.push('\n');
                self.prefix(false);
            }
            self.out.push_str(part);
        }
    }

    fn space(&mut self) {
        if self.line_has_text {
            self.pending_space = true;
        }
    }

    fn push_text(&mut self, s: &str, escape: Escape) {
        let mut prev = self.out.chars().next_back().unwrap_or(' ');
        for (i, c) in s.char_indices() {
            if c.is_whitespace() {
                self.space();
                prev = ' ';
                continue;
            }
            let line_start = !self.line_has_text;
            if line_start {
                self.line_digits = true;
            }
            self.flush();
            self.line_has_text = true;
            let esc = match escape {
                Escape::Code { table } => c == '|' && table,
                Escape::Math { table } => {
                    if c == '<'
                        && s[i + 1..]
                            .starts_with(|n: char| n.is_ascii_alphabetic() || "/!?".contains(n))
                    {
                        self.out.push_str("< ");
                        prev = ' ';
                        continue;
                    }
                    c == '|' && table
                }
                Escape::Text { table } => match c {
                    '\\' | '*' | '`' | '[' | ']' | '<' | '~' => true,
                    // An entity (`&amp;`) would be read as its character.
                    '&' => looks_like_entity(&s[i + 1..]),
                    '_' => !prev.is_alphanumeric(),
                    '|' => table,
                    '#' | '>' | '+' | '-' | '=' => line_start,
                    // `1.` or `2)` opening a line would start a list.
                    '.' | ')' => self.line_digits && prev.is_ascii_digit(),
                    _ => false,
                },
            };
            self.line_digits &= c.is_ascii_digit();
            if esc {
                self.out.push('\\');
            }
            self.out.push(c);
            prev = c;
        }
    }

    /// Code text: every character kept; new lines repeat the prefix.
    fn code_text(&mut self, s: &str) {
        // Code keeps its own white space and no other: not the space a
        // selection boundary leaves between pieces of prose.
        self.pending_space = false;
        for c in s.chars() {
            match c {
                '\r' => {}
                '\n' => {
                    self.flush();
                    self.out.push('\n');
                    self.prefix(false);
                    self.line_has_text = true;
                    self.code_line_empty = true;
                }
                c => {
                    self.flush();
                    self.line_has_text = true;
                    self.code_line_empty = false;
                    self.out.push(c);
                }
            }
        }
    }

    /// An inline atom (an image) written as is.
    fn atom(&mut self, s: &str) {
        self.flush();
        self.line_has_text = true;
        self.out.push_str(s);
    }

    fn open(&mut self, open: impl Into<String>, close: impl Into<String>) {
        self.wraps.push(Wrap {
            open: open.into(),
            close: close.into(),
            emitted: false,
            code: false,
            at: 0,
        });
    }

    /// Opens a code span with the delimiters of [`code_span_delimiters`].
    fn open_code(&mut self, (open, close): (String, String)) {
        self.open(open, close);
        if let Some(w) = self.wraps.last_mut() {
            w.code = true;
        }
    }

    fn close(&mut self) {
        if let Some(mut w) = self.wraps.pop()
            && w.emitted
        {
            close_wrap(&mut self.out, &mut w);
        }
    }

    fn finish(mut self) -> String {
        while self.out.ends_with([' ', '\n']) {
            self.out.pop();
        }
        self.out
    }
}

/// Writes what closes `w` (emitted) at the end of `out`. A code span's
/// delimiters are first checked against what was written inside: it may
/// differ from the element's text (a selection that skips some of it
/// joins backquote runs, or starts the span with one), and the opening
/// delimiter is rewritten (longer, padded) where it would not hold.
fn close_wrap(out: &mut String, w: &mut Wrap) {
    if w.code {
        let (longest, starts, ends) = runs_of(out[w.at..].chars(), '`');
        let ticks = w.open.trim_end().len();
        let padded = w.open.ends_with(' ');
        if longest >= ticks || ((starts || ends) && !padded) {
            let (open, close) = span_delimiters(longest, starts, ends);
            out.replace_range(w.at - w.open.len()..w.at, &open);
            w.at = w.at - w.open.len() + open.len();
            w.open = open;
            w.close = close;
        }
    }
    out.push_str(&w.close);
}

/// How text is escaped.
#[derive(Clone, Copy)]
enum Escape {
    /// Inside a code span: nothing but a table's `|` (GFM splits cells
    /// on it even there).
    Code { table: bool },
    /// Prose: every character Markdown would read as markup.
    Text { table: bool },
    /// TeX between `$` delimiters: as written, but a table's `|`, and a
    /// `<` that could open a tag in a renderer without math (`a<b` stays,
    /// `a<b>` becomes `a< b>`: the same formula).
    Math { table: bool },
}

/// The bytes of a URL written as they are in a Markdown link: the
/// characters of RFC 3986 (unreserved, reserved, `%`). Everything else —
/// spaces, line breaks, `<>"` and backquotes, brackets and parentheses
/// that would end the link, `\`, non-ASCII — is percent-encoded, so no
/// URL written as the page had it can end the link or carry markup.
const URL_KEPT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'#')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=')
    .remove(b'%');

/// Longest entity name HTML defines (`&CounterClockwiseContourIntegral;`).
const MAX_ENTITY_NAME: usize = 32;

/// Whether the text after an `&` would make it an entity reference
/// (`amp;`, `#39;`, `#x27;`): then the `&` is escaped, so that the page's
/// text is not read as the character it names.
fn looks_like_entity(rest: &str) -> bool {
    let name = rest.strip_prefix('#').unwrap_or(rest);
    let len = name
        .bytes()
        .take(MAX_ENTITY_NAME + 1)
        .take_while(u8::is_ascii_alphanumeric)
        .count();
    (1..=MAX_ENTITY_NAME).contains(&len) && name.as_bytes().get(len) == Some(&b';')
}

/// A URL for a Markdown link or image destination ([`URL_KEPT`]).
fn md_url(u: &str) -> String {
    percent_encoding::utf8_percent_encode(u, URL_KEPT).to_string()
}

/// An image's alt text for `![alt](src)`: white space collapsed and
/// escaped as prose is.
fn md_alt(a: &str, table: bool) -> String {
    let mut w = Writer::default();
    w.push_text(a, Escape::Text { table });
    w.out
}

/// `s` as Markdown prose: white space collapsed, every character that
/// Markdown would read as markup escaped (a comment's author's name).
pub fn escape_markdown(s: &str) -> String {
    md_alt(s, false)
}

/// The longest run of `c` in the text of `id`'s subtree, and whether the
/// text's first and last non-blank characters are `c`: what a code span's
/// or a fence's delimiters must exceed (CommonMark: a span or fence ends
/// at a run of exactly its own length).
fn longest_run(dom: &Dom, id: NodeId, c: char) -> (usize, bool, bool) {
    runs_of(
        dom.descendants(id)
            .flat_map(|n| dom.text_of(n).unwrap_or("").chars()),
        c,
    )
}

/// [`longest_run`] over any characters.
fn runs_of(chars: impl Iterator<Item = char>, c: char) -> (usize, bool, bool) {
    let (mut longest, mut run) = (0, 0);
    let (mut first, mut last) = (None, None);
    for ch in chars {
        if ch == c {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
        if !ch.is_whitespace() {
            first.get_or_insert(ch);
            last = Some(ch);
        }
    }
    (longest, first == Some(c), last == Some(c))
}

/// The delimiters of an inline code span around the text of `id`: one
/// backquote more than the longest run inside, padded with a space when
/// the text starts or ends with one.
fn code_span_delimiters(dom: &Dom, id: NodeId) -> (String, String) {
    let (longest, starts, ends) = longest_run(dom, id, '`');
    span_delimiters(longest, starts, ends)
}

/// A code span's delimiters around text whose longest backquote run is
/// `longest`, starting or ending with one as said.
fn span_delimiters(longest: usize, starts: bool, ends: bool) -> (String, String) {
    let ticks = "`".repeat(longest + 1);
    let pad = if starts || ends { " " } else { "" };
    (format!("{ticks}{pad}"), format!("{pad}{ticks}"))
}

/// Shortest code fence CommonMark allows.
const MIN_FENCE: usize = 3;

/// The fence of a code block holding the text of `id`: longer than any
/// run of backquotes inside, so no line of the code can close it.
fn code_fence(dom: &Dom, id: NodeId) -> String {
    let (longest, _, _) = longest_run(dom, id, '`');
    "`".repeat((longest + 1).max(MIN_FENCE))
}

/// The elements that write Markdown structure of their own (markers,
/// prefixes, a table's rows): inside a code block they are lines of it.
fn is_structure(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Heading(_)
            | Kind::List { .. }
            | Kind::Item { .. }
            | Kind::Quote
            | Kind::Table
            | Kind::Row
    )
}

/// `md` opening with `title` as a level-1 heading (`# Title`), unless it
/// is empty or already opens with a heading of that text (any level,
/// compared by letters and digits, case ignored).
pub fn with_title(md: String, title: &str) -> String {
    let key = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let t = key(title);
    if md.is_empty() || t.is_empty() {
        return md;
    }
    let first = md.lines().next().unwrap_or("");
    if first.starts_with('#') && key(first.trim_start_matches('#')) == t {
        return md;
    }
    let mut w = Writer::default();
    w.block(Break::Para);
    w.lead = "# ".to_owned();
    w.push_text(title, Escape::Text { table: false });
    let mut out = w.finish();
    out.push_str("\n\n");
    out.push_str(&md);
    out
}

/// The outermost data table being read: its rows of cells, which rows
/// are header rows, its caption. (Tables inside its cells are written
/// into those cells, their rows as lines.)
#[derive(Default)]
struct TableBuf {
    rows: Vec<Vec<table::Cell>>,
    /// Per row: in a `thead`, or all of its cells `th`.
    header: Vec<bool>,
    caption: String,
    in_head: bool,
    /// All cells of the current row so far are `th`.
    all_th: bool,
    /// The cell being read: its spans.
    span: (usize, usize),
}

/// The Markdown of the selection inside `root`; links and images resolve
/// against `base`.
pub fn markdown(
    dom: &Dom,
    root: NodeId,
    selection: &Selection,
    base: Option<&Url>,
    opts: MarkdownOptions,
) -> String {
    if let Some(t) = &selection.text {
        // No structure to render: the text, escaped, line by line.
        let mut w = Writer::default();
        for line in t.lines() {
            w.block(Break::Para);
            w.push_text(line, Escape::Text { table: false });
        }
        return w.finish();
    }
    if selection.nodes.is_empty() {
        return String::new();
    }
    let mut md = Md {
        w: Writer::default(),
        opts,
        base,
        flat: 0,
        fence: String::new(),
        outside_fence: Vec::new(),
        table: None,
        outer: None,
        code_row: 0,
    };
    walk(dom, root, selection, &mut md);
    md.w.finish()
}

/// The Markdown [`Sink`]: the line writer and the layout state only
/// Markdown needs.
struct Md<'a> {
    w: Writer,
    opts: MarkdownOptions,
    base: Option<&'a Url>,
    /// Inside a heading: blocks become spaces.
    flat: u32,
    /// The fence of the open code block ([`code_fence`]); empty when none
    /// is open.
    fence: String,
    /// The spans open around the open code block, set aside until it
    /// ends.
    outside_fence: Vec<Wrap>,
    /// The outermost data table being read.
    table: Option<TableBuf>,
    /// While one of its cells (or its caption) is read into a writer of
    /// its own: the writer of everything around the table.
    outer: Option<Writer>,
    /// Where the current row of a code table began in the output.
    code_row: usize,
}

impl Md<'_> {
    /// The break a paragraph-like block gets: a new line inside a list,
    /// else a blank line.
    fn block_break(cx: &Cx<'_>) -> Break {
        if cx.lists.is_empty() {
            Break::Para
        } else {
            Break::Line
        }
    }

    /// Any other block-level element starts or ends.
    fn other_block(&mut self, cx: &Cx<'_>) {
        if cx.pre > 0 && self.in_fence() {
            // A block inside code (a line's `div`) is a line of it.
            if self.w.brk.is_none() && !self.w.code_line_empty {
                self.w.code_text("\n");
            }
        } else if self.flat > 0 {
            self.w.space();
        } else {
            let b = Self::block_break(cx);
            self.w.block(b);
        }
    }

    /// Whether a fenced code block is open: its text is written as is.
    fn in_fence(&self) -> bool {
        !self.fence.is_empty()
    }

    /// Whether a cell (or caption) is being read into its own writer.
    fn in_cell(&self) -> bool {
        self.outer.is_some()
    }

    /// Starts reading a cell or caption of the outermost table.
    fn start_cell(&mut self) {
        let outer = std::mem::replace(&mut self.w, Writer::cell());
        self.outer = Some(outer);
    }

    /// Ends reading one: its content, on one line.
    fn end_cell(&mut self) -> String {
        match self.outer.take() {
            Some(outer) => std::mem::replace(&mut self.w, outer).cell_text(),
            None => String::new(),
        }
    }

    /// Writes the table read: a GFM table of its grid ([`table::grid`]),
    /// its caption as a paragraph before it. Rows and columns with no text
    /// are left out; the first header row (`thead` or all `th`), else the
    /// first row, is the table's header.
    fn write_table(&mut self, t: TableBuf, cx: &Cx<'_>) {
        let header_row = t.header.iter().position(|&h| h).unwrap_or(0);
        let mut rows = table::grid(&t.rows);
        if header_row > 0 && header_row < rows.len() {
            let h = rows.remove(header_row);
            rows.insert(0, h);
        }
        rows.retain(|r| r.iter().any(|c| !c.is_empty()));
        let width = rows.first().map_or(0, Vec::len);
        let kept: Vec<usize> = (0..width)
            .filter(|&c| rows.iter().any(|r| !r[c].is_empty()))
            .collect();
        let w = &mut self.w;
        if !t.caption.is_empty() {
            w.block(Self::block_break(cx));
            w.atom(&t.caption);
        }
        if kept.is_empty() {
            return;
        }
        if let [only] = kept[..] {
            // One column left of what was selected (the labels of an
            // infobox whose values went): no table, its cells as lines.
            for row in rows.iter().filter(|r| !r[only].is_empty()) {
                w.block(Self::block_break(cx));
                w.atom(&row[only]);
            }
            w.block(Self::block_break(cx));
            return;
        }
        // Blank lines around it, in a list item too: a line right after a
        // table would be read as one more row of it.
        w.block(Break::Para);
        w.flush();
        let mut lines = String::new();
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                lines.push('\n');
            }
            lines.push('|');
            for &c in &kept {
                if row[c].is_empty() {
                    lines.push_str(" |");
                } else {
                    lines.push(' ');
                    lines.push_str(&row[c]);
                    lines.push_str(" |");
                }
            }
            if i == 0 {
                lines.push_str("\n|");
                for _ in &kept {
                    lines.push_str(" --- |");
                }
            }
        }
        w.raw(&lines);
        w.line_has_text = true;
        w.block(Break::Para);
    }
}

impl Sink for Md<'_> {
    fn enter(&mut self, cx: &Cx<'_>, el: Element) {
        let (pre, code, flat) = (cx.pre, cx.code, self.flat);
        let in_cell = self.in_cell();
        let fenced = self.in_fence();
        if fenced && is_structure(el.kind) {
            // A heading, list, quote or table inside a code block is lines
            // of the code: its markers would end the fence (a heading's
            // lead replaced it) and leave the code's text unescaped.
            self.other_block(cx);
            return;
        }
        // The outermost data table's parts.
        if cx.tables == 1
            && let Some(t) = self.table.as_mut()
        {
            match el.kind {
                Kind::Row => {
                    t.rows.push(Vec::new());
                    t.header.push(t.in_head);
                    t.all_th = true;
                    return;
                }
                Kind::Cell if !in_cell => {
                    t.span = (
                        table::span(cx.dom, el.id, "colspan"),
                        table::span(cx.dom, el.id, "rowspan"),
                    );
                    t.all_th &= el.tag == Tag::TH;
                    self.start_cell();
                    return;
                }
                _ if el.tag == Tag::THEAD => {
                    t.in_head = true;
                    return;
                }
                _ if el.tag == Tag::CAPTION && !in_cell => {
                    self.start_cell();
                    return;
                }
                _ => {}
            }
        }
        let w = &mut self.w;
        match el.kind {
            Kind::Heading(_) if in_cell => self.other_block(cx),
            Kind::Heading(level) if flat == 0 => {
                w.block(Break::Para);
                w.lead = format!("{} ", "#".repeat(level as usize));
                self.flat += 1;
            }
            Kind::Pre if in_cell && pre == 0 => {
                // Code in a cell: a code span a line.
                w.block(Break::Line);
                w.open_code(code_span_delimiters(cx.dom, el.id));
            }
            Kind::Pre if flat == 0 && pre == 0 => {
                w.block(Break::Para);
                let lang = code_language(cx.dom, el.id).unwrap_or_default();
                self.fence = code_fence(cx.dom, el.id);
                w.lead = format!("{}{lang}\n", self.fence);
                // The spans around the block (`**`, a link) wait outside
                // it: written inside, they would follow the closing fence
                // on its line and keep the block open.
                self.outside_fence = std::mem::take(&mut w.wraps);
                w.code_line_empty = true;
            }
            Kind::Pre => {}
            Kind::CodeLine => self.code_row = w.out.len(),
            Kind::List { .. } if flat == 0 => {
                let b = Self::block_break(cx);
                self.w.block(b);
            }
            Kind::Item { number } if in_cell => {
                w.block(Break::Line);
                w.lead = match number {
                    Some(n) => format!("{n}. "),
                    None => "- ".to_owned(),
                };
            }
            Kind::Item { number } if flat == 0 => {
                w.block(Break::Line);
                let marker = match number {
                    Some(n) => format!("{n}. "),
                    None => "- ".to_owned(),
                };
                w.segs.push(Seg {
                    quote: false,
                    width: marker.len(),
                    marker: Some(marker),
                    started: false,
                });
            }
            Kind::Quote if in_cell => w.block(Break::Line),
            Kind::Quote if flat == 0 => {
                w.block(Break::Para);
                w.segs.push(Seg {
                    quote: true,
                    width: 2,
                    marker: None,
                    started: false,
                });
            }
            Kind::Table if cx.tables == 0 && flat == 0 && !in_cell => {
                self.table = Some(TableBuf::default());
            }
            // A table inside a cell or a heading: its rows are lines, its
            // cells run on.
            Kind::Table | Kind::Row => self.other_block(cx),
            Kind::Cell => w.space(),
            Kind::Code if pre == 0 && code == 0 => w.open_code(code_span_delimiters(cx.dom, el.id)),
            Kind::Math { display } if pre == 0 && code == 0 && cx.math == 0 => {
                // Display math is a paragraph of its own, `$$TeX$$`.
                let display = display && flat == 0 && !in_cell;
                if display {
                    let b = Self::block_break(cx);
                    w.block(b);
                }
                let d = if display { "$$" } else { "$" };
                w.open(d, d);
            }
            Kind::Sub if pre == 0 && code == 0 => w.open("<sub>", "</sub>"),
            Kind::Sup if pre == 0 && code == 0 => w.open("<sup>", "</sup>"),
            Kind::Emphasis if pre == 0 && code == 0 => w.open("*", "*"),
            Kind::Strong if pre == 0 && code == 0 => w.open("**", "**"),
            Kind::Link if self.opts.links && pre == 0 && code == 0 => {
                match cx
                    .dom
                    .attr(el.id, "href")
                    .and_then(|h| resolve_url(self.base, h))
                {
                    Some(u) => w.open("[", format!("]({})", md_url(&u))),
                    None => w.open("", ""),
                }
            }
            Kind::Image
                if self.opts.images && cx.inside > 0 && !super::is_chrome_image(cx.dom, el.id) =>
            {
                if let Some(src) =
                    super::image_src(cx.dom, el.id).and_then(|s| resolve_url(self.base, s))
                {
                    let alt = md_alt(cx.dom.attr(el.id, "alt").unwrap_or(""), cx.tables > 0);
                    w.atom(&format!("![{alt}]({})", md_url(&src)));
                }
            }
            k => match k.flow() {
                Flow::Block => self.other_block(cx),
                Flow::Break if pre > 0 && fenced => w.code_text("\n"),
                Flow::Break if flat > 0 => w.space(),
                Flow::Break if in_cell => w.block(Break::Line),
                Flow::Break => {
                    if w.line_has_text {
                        w.brk = Some(Break::Hard);
                        w.line_has_text = false;
                        w.pending_space = false;
                    }
                }
                Flow::Cell => w.space(),
                Flow::Inline => {}
            },
        }
    }

    fn leave(&mut self, cx: &Cx<'_>, el: Element) {
        let (pre, code, flat) = (cx.pre, cx.code, self.flat);
        if self.in_fence() && is_structure(el.kind) {
            self.other_block(cx);
            return;
        }
        if cx.tables == 1 && self.table.is_some() {
            match el.kind {
                Kind::Row => {
                    if let Some(t) = self.table.as_mut()
                        && let (Some(row), Some(h)) = (t.rows.last(), t.header.last_mut())
                    {
                        *h |= t.all_th && !row.is_empty();
                    }
                    return;
                }
                Kind::Cell if self.in_cell() => {
                    let text = self.end_cell();
                    if let Some(t) = self.table.as_mut() {
                        if t.rows.is_empty() {
                            t.rows.push(Vec::new());
                            t.header.push(t.in_head);
                        }
                        let (cols, rows) = t.span;
                        if let Some(r) = t.rows.last_mut() {
                            r.push(table::Cell { text, cols, rows });
                        }
                    }
                    return;
                }
                _ if el.tag == Tag::THEAD => {
                    if let Some(t) = self.table.as_mut() {
                        t.in_head = false;
                    }
                    return;
                }
                _ if el.tag == Tag::CAPTION && self.in_cell() => {
                    let text = self.end_cell();
                    if let Some(t) = self.table.as_mut() {
                        t.caption = text;
                    }
                    return;
                }
                _ => {}
            }
        }
        if el.kind == Kind::Table
            && cx.tables == 0
            && let Some(t) = self.table.take()
        {
            self.write_table(t, cx);
            return;
        }
        let in_cell = self.in_cell();
        let w = &mut self.w;
        match el.kind {
            Kind::Heading(_) if in_cell => self.other_block(cx),
            Kind::Heading(_) if flat == 1 => {
                self.flat -= 1;
                w.block(Break::Para);
            }
            Kind::Heading(_) => {}
            Kind::Pre if in_cell && pre == 0 => {
                w.close();
                w.block(Break::Line);
            }
            Kind::Pre => {
                if pre == 0 && flat == 0 {
                    if w.brk.is_none() {
                        // The block was written: close the fence, longer
                        // than any run of backquotes written inside (a
                        // selection that skips some of the text joins
                        // runs the element's text does not have).
                        let body = w.lead_at + self.fence.len();
                        if w.out.get(w.lead_at..body) == Some(self.fence.as_str()) {
                            let (longest, _, _) = runs_of(w.out[body..].chars(), '`');
                            if longest >= self.fence.len() {
                                let longer = "`".repeat(longest + 1);
                                w.out.replace_range(w.lead_at..body, &longer);
                                self.fence = longer;
                            }
                        }
                        if !w.out.ends_with('\n') {
                            w.out.push('\n');
                            w.prefix(false);
                        }
                        w.out.push_str(&self.fence);
                    }
                    w.block(Break::Para);
                    self.fence.clear();
                    w.wraps = std::mem::take(&mut self.outside_fence);
                }
            }
            Kind::CodeLine => {
                // A row is a line, an empty row an empty line.
                if w.brk.is_none() && (w.out.len() == self.code_row || !w.code_line_empty) {
                    w.code_text("\n");
                }
            }
            Kind::List { .. } if flat == 0 => {
                let b = Self::block_break(cx);
                self.w.block(b);
            }
            Kind::Item { .. } if in_cell => w.block(Break::Line),
            Kind::Item { .. } if flat == 0 => {
                w.segs.pop();
                w.block(Break::Line);
            }
            Kind::Quote if in_cell => w.block(Break::Line),
            Kind::Quote if flat == 0 => {
                w.segs.pop();
                w.block(Break::Para);
            }
            Kind::Table | Kind::Row => self.other_block(cx),
            Kind::Code if pre == 0 && code == 0 => w.close(),
            Kind::Math { display } if pre == 0 && code == 0 && cx.math == 0 => {
                w.close();
                if display && flat == 0 && !in_cell {
                    let b = Self::block_break(cx);
                    self.w.block(b);
                }
            }
            Kind::Sub | Kind::Sup if pre == 0 && code == 0 => w.close(),
            Kind::Emphasis | Kind::Strong if pre == 0 && code == 0 => w.close(),
            Kind::Link if self.opts.links && pre == 0 && code == 0 => w.close(),
            k => {
                if k.flow() == Flow::Block {
                    self.other_block(cx);
                }
            }
        }
    }

    fn text(&mut self, cx: &Cx<'_>, s: &str) {
        let table = cx.tables > 0;
        if cx.pre > 0 && self.in_cell() {
            // Code in a cell: each line its own span.
            for (i, line) in s.split('\n').enumerate() {
                if i > 0 {
                    self.w.block(Break::Line);
                }
                self.w.push_text(line, Escape::Code { table });
            }
        } else if cx.pre > 0 && self.in_fence() {
            self.w.code_text(s);
        } else if cx.pre > 0 {
            // Preformatted text where no fence could open (in a heading):
            // escaped as any text.
            self.w.push_text(s, Escape::Text { table });
        } else if cx.math > 0 {
            self.w.push_text(s, Escape::Math { table });
        } else if cx.code > 0 {
            self.w.push_text(s, Escape::Code { table });
        } else {
            self.w.push_text(s, Escape::Text { table });
        }
    }

    fn selection_end(&mut self, _: &Cx<'_>) {
        self.w.space();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;
    use crate::render::base_url;

    fn md_with(html: &str, opts: MarkdownOptions, base: Option<&str>) -> String {
        let dom = parse(html);
        let body = dom.body().unwrap();
        let base = base_url(&dom, base);
        markdown(
            &dom,
            body,
            &Selection {
                nodes: vec![body],
                ..Selection::default()
            },
            base.as_ref(),
            opts,
        )
    }

    fn md(html: &str) -> String {
        md_with(html, MarkdownOptions::default(), None)
    }

    #[test]
    fn headings_paragraphs_emphasis() {
        assert_eq!(
            md(
                "<h1>Title</h1><p>Hello <b>bold</b> and <em> it </em>.</p><h3>Sub<br>head</h3><div>x</div>"
            ),
            "# Title\n\nHello **bold** and *it* .\n\n### Sub head\n\nx"
        );
        // Empty emphasis leaves nothing.
        assert_eq!(md("<p>a<b> </b>b<i></i></p>"), "a b");
    }

    #[test]
    fn nested_lists_are_indented() {
        assert_eq!(
            md(
                "<ul><li>one<ul><li>one.a</li><li>one.b</li></ul></li><li>two</li></ul>\
                <ol start=3><li>three</li><li>four<ol><li>x</li></ol></li></ol><p>after</p>"
            ),
            "- one\n  - one.a\n  - one.b\n- two\n\n3. three\n4. four\n   1. x\n\nafter"
        );
    }

    #[test]
    fn table_with_header_and_pipes() {
        assert_eq!(
            md("<table><thead><tr><th>Name</th><th>Value</th></tr></thead>\
                <tbody><tr><td>a|b</td><td><p>1</p><p>2</p></td></tr><tr><td>c</td><td></td></tr></tbody></table>"),
            "| Name | Value |\n| --- | --- |\n| a\\|b | 1<br>2 |\n| c | |"
        );
        // No <th>: the first row is the header.
        assert_eq!(
            md("<table><tr><td>x</td><td>y</td></tr><tr><td>1</td><td>2</td></tr></table>"),
            "| x | y |\n| --- | --- |\n| 1 | 2 |"
        );
    }

    #[test]
    fn a_table_left_with_one_column_is_its_cells() {
        let dom = parse(
            "<table><tr><th>Field</th><td>Biology</td></tr><tr><th>Born</th><td>1900</td></tr></table>",
        );
        let body = dom.body().unwrap();
        let th: Vec<NodeId> = dom
            .descendants(body)
            .filter(|&n| dom.is(n, crate::dom::Tag::TH))
            .collect();
        let sel = Selection {
            nodes: th,
            ..Selection::default()
        };
        assert_eq!(
            markdown(&dom, body, &sel, None, MarkdownOptions::default()),
            "Field\n\nBorn"
        );
    }

    #[test]
    fn a_table_in_a_list_item_ends_with_a_blank_line() {
        // A line right after a table would be one more (ragged) row of it.
        assert_eq!(
            md(
                "<ul><li>An item:<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr>\
                </table>and after.</li></ul>"
            ),
            "- An item:\n\n  | a | b |\n  | --- | --- |\n  | 1 | 2 |\n\n  and after."
        );
    }

    #[test]
    fn code_blocks_keep_text_and_language() {
        assert_eq!(
            md(
                "<p>Run <code>a*b</code>:</p><pre><code class=\"language-rust\">fn main() {\n    x *= 2;\n\n}</code></pre><p>done</p>"
            ),
            "Run `a*b`:\n\n```rust\nfn main() {\n    x *= 2;\n\n}\n```\n\ndone"
        );
        assert_eq!(md("<pre class=lang-py>x = 1\n</pre>"), "```py\nx = 1\n```");
    }

    #[test]
    fn block_quotes_prefix_every_line() {
        assert_eq!(
            md("<blockquote><p>one</p><p>two</p></blockquote><p>out</p>"),
            "> one\n>\n> two\n\nout"
        );
    }

    #[test]
    fn links_and_images_resolve_when_asked() {
        let html = "<p>See <a href=\"/docs/a b\">the docs</a> and \
                    <a href=\"javascript:alert(1)\">this</a>.<img src=\"img/x.png\" alt=\"An [x]\"></p>";
        assert_eq!(md(html), "See the docs and this.");
        let both = MarkdownOptions {
            links: true,
            images: true,
        };
        assert_eq!(
            md_with(html, both, Some("https://example.org/blog/post")),
            "See [the docs](https://example.org/docs/a%20b) and this.\
             ![An \\[x\\]](https://example.org/blog/img/x.png)"
        );
        // <base href> wins over the page URL.
        assert_eq!(
            md_with(
                "<head><base href=\"https://cdn.example.net/root/\"></head><p><a href=\"p\">t</a></p>",
                both,
                Some("https://example.org/x")
            ),
            "[t](https://cdn.example.net/root/p)"
        );
    }

    /// Payloads that reached a browser as live HTML through a CommonMark
    /// renderer (issue #41): a fence or a code span closed by the page's
    /// own backquotes, a code span across a block, a relative URL with
    /// line breaks and a tag, an image's alt text.
    const PAYLOADS: &[&str] = &[
        "<pre>```\n&lt;img src=x onerror=alert(1)&gt;\n````\n&lt;script&gt;alert(2)&lt;/script&gt;</pre>",
        "<p>Use <code>a`&lt;img src=x onerror=alert(1)&gt;</code> and <code>``&lt;b&gt;``</code>.</p>",
        "<p><code>x<div>&lt;script&gt;alert(1)&lt;/script&gt;</div>y</code></p>",
        "<p><a href=\"x\n\n&lt;img src=y onerror=alert(1)&gt;\">t</a> <a href='a)&lt;b&gt;'>u</a></p>",
        "<p><img src=\"p q\n\n<img src=z onerror=alert(1)>\" alt=\"&lt;script&gt;alert(1)&lt;/script&gt; ]( x\"></p>",
        "<table><tr><td>a</td><td><code>|&lt;i&gt;</code></td></tr><tr><td>`&lt;u&gt;</td><td>b</td></tr></table>",
        "<ul><li><pre>``` \n&lt;svg onload=alert(1)&gt;</pre></li></ul><blockquote><code>`&lt;x&gt;</code></blockquote>",
        "<p>&amp;lt;img src=x onerror=alert(1)&amp;gt; &lt;!-- x --&gt; &lt;?php ?&gt;</p>",
        // Structure inside a code block, a code block inside a heading
        // (found by fuzz/fuzz_targets/markdown.rs): the heading's lead
        // replaced the fence, the code's text went out unescaped.
        "<pre><h2>x</h2>&lt;img src=x onerror=alert(1)&gt;</pre>",
        "<pre><blockquote>&lt;img src=x onerror=alert(1)&gt;</blockquote></pre>",
        "<pre><ul><li>&lt;img src=x onerror=alert(1)&gt;</li></ul><table><tr><td>&lt;b&gt;</td></tr></table></pre>",
        "<h2><pre>&lt;img src=x onerror=alert(1)&gt;<br>&lt;i&gt;</pre></h2>",
        "<pre><h2>Head</h2><blockquote><p>quoted</p><p><code>a`&lt;b&gt;</code></p></blockquote></pre>",
    ];

    /// A selection that skips part of a code span's or a code block's
    /// text writes backquote runs and ends the element's text does not
    /// have (found by fuzz/fuzz_targets/markdown.rs, `<code>&<r>`&lti>`
    /// with `cepr-tpr`: ```` ```<i>`` ````): delimiters and fences follow
    /// what was written.
    #[test]
    fn partly_selected_code_keeps_its_delimiters_closed() {
        let both = MarkdownOptions {
            links: true,
            images: true,
        };
        for html in [
            "<p><code><span>x</span>`&lt;i&gt;</code></p>",
            "<p><code>`<span>x</span>``&lt;b&gt;</code></p>",
            "<code><span>l</span><p>`&lt;b&gt;</p></code>",
            // Spans around a code block, reopened inside it (`auto`).
            "<b><div><pre>m</div><pre>&lt;m&gt;</pre></b>",
            "<pre>``<span>x</span>`\n&lt;img src=x onerror=alert(1)&gt;</pre>",
            "<pre>``<span>x</span>``\n&lt;img src=x onerror=alert(1)&gt;</pre>",
        ] {
            let dom = parse(html);
            let body = dom.body().unwrap();
            // Every text node but those of the spans.
            let nodes: Vec<NodeId> = dom
                .descendants(body)
                .filter(|&n| {
                    dom.text_of(n).is_some()
                        && dom.tag(dom.nodes[n.index()].parent) != Some(crate::dom::Tag::SPAN)
                })
                .collect();
            let out = markdown(
                &dom,
                body,
                &Selection {
                    nodes,
                    ..Selection::default()
                },
                None,
                both,
            );
            let found = crate::render::tests::raw_html_in(&out);
            assert!(found.is_empty(), "{html:?} gave {out:?}: {found:?}");
        }
    }

    #[test]
    fn page_text_never_becomes_markup() {
        let both = MarkdownOptions {
            links: true,
            images: true,
        };
        for p in PAYLOADS {
            for base in [None, Some("https://example.org/a/")] {
                let out = md_with(p, both, base);
                let found = crate::render::tests::raw_html_in(&out);
                assert!(found.is_empty(), "{p:?} gave {out:?}: {found:?}");
            }
        }
        // The code keeps its text whole, between longer delimiters.
        assert_eq!(md("<pre>```\nx</pre>"), "````\n```\nx\n````");
        assert_eq!(md("<p><code>a`b</code></p>"), "``a`b``");
        assert_eq!(md("<p><code>`x</code></p>"), "`` `x ``");
        // A span across blocks closes and opens again in each.
        assert_eq!(md("<p><code>x<div>y</div></code></p>"), "`x`\n\n`y`");
        // Two spans side by side: the closer of one and the opener of the
        // next stay two runs (a fuzzing finding: the `<img>` ran as HTML).
        let side = "<p><code>a`b</code><code>c<img src=x onerror=alert(1)></code></p>";
        assert_eq!(md(side), "``a`b`` `c`");
        let payload = "<p><code>a`b</code><code>&lt;img src=x onerror=alert(1)&gt;</code></p>";
        let out = md(payload);
        assert!(crate::render::tests::raw_html_in(&out).is_empty(), "{out:?}");
        // URLs: every character that could end the link is encoded.
        assert_eq!(
            md_with("<a href=\"a b)\n<i>\">t</a>", both, None),
            "[t](a%20b%29%0A%3Ci%3E)"
        );
    }

    #[test]
    fn metacharacters_are_escaped() {
        assert_eq!(
            md("<p># not a heading, *not* [a link] snake_case _x_</p><p>- not a list</p>"),
            "\\# not a heading, \\*not\\* \\[a link\\] snake_case \\_x_\n\n\\- not a list"
        );
        assert_eq!(
            md("<p>1. not a list</p><p>2) nor this, 3. but AT&amp;T &amp;amp; ~x~</p>"),
            "1\\. not a list\n\n2\\) nor this, 3. but AT&T \\&amp; \\~x\\~"
        );
    }

    #[test]
    fn unselected_structure_leaves_no_markers() {
        let dom = parse("<h2>skip</h2><ul><li>a</li><li>keep</li></ul>");
        let body = dom.body().unwrap();
        let keep: Vec<NodeId> = dom
            .descendants(body)
            .filter(|&n| dom.text_of(n) == Some("keep"))
            .collect();
        let sel = Selection {
            nodes: keep,
            ..Selection::default()
        };
        assert_eq!(
            markdown(&dom, body, &sel, None, MarkdownOptions::default()),
            "- keep"
        );
    }

    #[test]
    fn large_page_renders_in_linear_time() {
        // 20,000 paragraphs with emphasis and links, 2,000 list items and
        // a 2,000-row table (~3 MB): Markdown, HTML and metadata once
        // each. Measured 0.20 s for all three in release (parse included).
        let mut html = String::from("<title>Big</title><div>");
        for i in 0..20_000 {
            html.push_str(&format!(
                "<p>Paragraph {i} with <em>some</em> <a href=\"/p{i}\">words</a> in it.</p>"
            ));
        }
        html.push_str("<ul>");
        for i in 0..2_000 {
            html.push_str(&format!("<li>item {i}<ol><li>sub</li></ol></li>"));
        }
        html.push_str("</ul><table>");
        for i in 0..2_000 {
            html.push_str(&format!("<tr><td>{i}</td><td>x</td></tr>"));
        }
        html.push_str("</table></div>");
        let dom = parse(&html);
        let body = dom.body().unwrap();
        let sel = Selection {
            nodes: vec![body],
            ..Selection::default()
        };
        let opts = MarkdownOptions {
            links: true,
            images: true,
        };
        let md = markdown(&dom, body, &sel, None, opts);
        assert!(md.contains("Paragraph 19999 with *some* [words](/p19999) in it."));
        assert!(md.contains("- item 1999\n  1. sub"));
        assert!(md.contains("| 1999 | x |"));
        let h = crate::render::html(&dom, body, &sel, None);
        assert!(h.ends_with("<td>1999</td><td>x</td></tr></tbody></table>"));
        let m = crate::metadata::metadata(&dom, None, &md);
        assert_eq!(m.title.as_deref(), Some("Big"));
    }

    #[test]
    fn text_override_is_escaped_paragraphs() {
        let dom = parse("<p>x</p>");
        let body = dom.body().unwrap();
        let sel = Selection {
            nodes: vec![body],
            text: Some("a *b*\nc".into()),
            ..Selection::default()
        };
        assert_eq!(
            markdown(&dom, body, &sel, None, MarkdownOptions::default()),
            "a \\*b\\*\n\nc"
        );
    }

    #[test]
    fn deep_quotes_keep_the_output_bounded() {
        // 400 nested quotes (under the parser's depth cap), a line of text
        // in each: without the cap every line carries a 2-byte prefix per level.
        let mut html = String::new();
        for i in 0..400 {
            html.push_str(&format!("<blockquote><p>line {i}</p>"));
        }
        let dom = crate::parse::parse(&html);
        let body = dom.body().unwrap();
        let sel = Selection {
            nodes: vec![body],
            ..Selection::default()
        };
        let md = markdown(&dom, body, &sel, None, MarkdownOptions::default());
        assert!(md.contains("line 399"));
        let longest = md.lines().map(str::len).max().unwrap();
        assert!(
            longest <= 2 * MAX_PREFIX_LEVELS + 20,
            "a line of {longest} bytes"
        );
        assert!(
            md.len() < 40 * html.len(),
            "{} bytes from {}",
            md.len(),
            html.len()
        );
    }
}
