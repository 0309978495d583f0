//! Tables: what each one is to the writers, and a data table's cells as a
//! rectangular grid.
//!
//! Pages use `<table>` for three things, and each renders differently:
//!
//! * **data** — rows and columns of values: a table in every format, in
//!   Markdown with its spanned cells expanded ([`grid`]);
//! * **layout** — boxes around the page's blocks (a one-cell table around
//!   the article, a two-column page, nested tables): unwrapped, its cells
//!   written as the blocks they hold;
//! * **code** — a listing with a gutter of line numbers beside it
//!   (Pygments' `highlighttable`, rouge, highlight.js's line-numbers
//!   plugin, Hugo, a code host's file view with a row per line): one code
//!   block, the gutter left out.
//!
//! [`Roles::of`] decides once per table, in one walk of the outermost
//! table's subtree that decides every table nested in it too.

use rustc_hash::FxHashMap;

use crate::dom::{Dom, Edge, NodeId, NodeKind, Tag};

/// What a table is to the writers (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Rows and columns of values.
    Data,
    /// Boxes around blocks.
    Layout,
    /// A code listing with a line-number gutter.
    Code,
}

/// Class names of tables that hold a code listing with line numbers.
const CODE_TABLE_CLASSES: &[&str] = &[
    "highlighttable",
    "rouge-table",
    "hljs-ln",
    "js-file-line-container",
    "lntable",
    "linenotable",
    "code-table",
];

/// Class names (or parts of class names, for the first two) of a
/// line-number gutter: a cell beside the code, or a span before each
/// line inside it.
const GUTTER_CLASSES: &[&str] = &[
    "lineno",
    "line-number",
    "gutter",
    "blob-num",
    "hljs-ln-numbers",
    "hljs-ln-n",
    "lnt",
    "ln-num",
];

/// Class names of the cell that holds the code beside a gutter.
const CODE_CELL_CLASSES: &[&str] = &[
    "code",
    "rouge-code",
    "blob-code",
    "hljs-ln-code",
    "line-content",
];

/// A cell longer than this is prose laid out in a box, not a value.
pub const LAYOUT_CELL_CHARS: usize = 1_000;

/// A table of one row whose cells hold more than this is a layout row
/// (a row of values is short).
pub const LAYOUT_ROW_CHARS: usize = 200;

/// A cell holding this many blocks with text (paragraphs, lists, …) is a
/// box of prose, not a value.
pub const LAYOUT_CELL_BLOCKS: usize = 3;

/// The decided tables, by node.
#[derive(Default)]
pub(crate) struct Roles {
    map: FxHashMap<NodeId, Role>,
}

impl Roles {
    /// The role of `table` (decided with every table inside it on first
    /// asking).
    pub(crate) fn of(&mut self, dom: &Dom, table: NodeId) -> Role {
        if let Some(&r) = self.map.get(&table) {
            return r;
        }
        classify(dom, table, &mut self.map);
        self.map.get(&table).copied().unwrap_or(Role::Data)
    }
}

/// Whether any class token of `id` is one of `classes`, or, with
/// `contains`, contains one.
fn class_matches(dom: &Dom, id: NodeId, classes: &[&str], contains: bool) -> bool {
    dom.attr(id, "class").is_some_and(|c| {
        c.split_ascii_whitespace().any(|t| {
            classes.iter().any(|k| {
                if contains {
                    t.to_ascii_lowercase().contains(k)
                } else {
                    t.eq_ignore_ascii_case(k)
                }
            })
        })
    })
}

/// Whether the text under `id` is only digits and white space (empty
/// included): a gutter's line numbers.
fn digits_only(dom: &Dom, id: NodeId) -> bool {
    dom.descendants(id)
        .filter_map(|n| dom.text_of(n))
        .all(|t| t.chars().all(|c| c.is_ascii_digit() || c.is_whitespace()))
}

/// Whether cell `cell` of a code table is its line-number gutter.
pub(crate) fn is_gutter(dom: &Dom, cell: NodeId) -> bool {
    class_matches(dom, cell, GUTTER_CLASSES, true)
        || (!class_matches(dom, cell, CODE_CELL_CLASSES, false) && digits_only(dom, cell))
}

/// Whether element `id`, inside a code block, is a line's number (a
/// Pygments `span.linenos`, a Hugo `span.lnt`): left out of the code.
pub(crate) fn is_line_number(dom: &Dom, id: NodeId) -> bool {
    class_matches(dom, id, GUTTER_CLASSES, true) && digits_only(dom, id)
}

/// What the walk of [`classify`] counts for one table.
struct TableStats {
    id: NodeId,
    rows: usize,
    cells_in_row: usize,
    max_cells: usize,
    cells: usize,
    longest_cell: usize,
    row_chars: usize,
    most_blocks: usize,
    heading: bool,
    nested: bool,
    /// Rows shaped as (gutter, code), and rows not so shaped.
    code_rows: usize,
    other_rows: usize,
    row_gutter: bool,
    row_code: bool,
}

/// What it counts for one cell.
struct CellStats {
    id: NodeId,
    chars: usize,
    blocks: usize,
    /// Holds a `pre`; holds blocks of prose (paragraphs, lists, headings,
    /// tables); names code in its class.
    pre: bool,
    prose: bool,
    code_class: bool,
}

impl CellStats {
    /// Whether the cell holds a code listing and nothing else.
    fn is_code(&self) -> bool {
        self.code_class || (self.pre && !self.prose)
    }
}

/// Decides `top` and every table inside it: one walk with a stack of
/// open tables and cells (no recursion).
fn classify(dom: &Dom, top: NodeId, map: &mut FxHashMap<NodeId, Role>) {
    let mut tables: Vec<TableStats> = Vec::new();
    let mut cells: Vec<(usize, CellStats)> = Vec::new();
    for edge in dom.traverse(top) {
        match edge {
            Edge::Enter(id) => match &dom.node(id).kind {
                NodeKind::Element(e) => match e.tag {
                    Tag::TABLE => {
                        if let Some(t) = tables.last_mut() {
                            t.nested = true;
                        }
                        if let Some((_, c)) = cells.last_mut() {
                            c.prose = true;
                        }
                        tables.push(TableStats {
                            id,
                            rows: 0,
                            cells_in_row: 0,
                            max_cells: 0,
                            cells: 0,
                            longest_cell: 0,
                            row_chars: 0,
                            most_blocks: 0,
                            heading: false,
                            nested: false,
                            code_rows: 0,
                            other_rows: 0,
                            row_gutter: false,
                            row_code: false,
                        });
                    }
                    Tag::TR => {
                        if let Some(t) = tables.last_mut() {
                            t.rows += 1;
                            t.cells_in_row = 0;
                            t.row_chars = 0;
                            t.row_gutter = false;
                            t.row_code = false;
                        }
                    }
                    Tag::TD | Tag::TH => {
                        if let Some(t) = tables.last_mut() {
                            t.cells += 1;
                            t.cells_in_row += 1;
                            t.max_cells = t.max_cells.max(t.cells_in_row);
                            cells.push((
                                tables.len(),
                                CellStats {
                                    id,
                                    chars: 0,
                                    blocks: 0,
                                    pre: false,
                                    prose: false,
                                    code_class: class_matches(dom, id, CODE_CELL_CLASSES, false),
                                },
                            ));
                        }
                    }
                    tag => {
                        if let Some((depth, c)) = cells.last_mut()
                            && *depth == tables.len()
                        {
                            if tag.is_heading()
                                && let Some(t) = tables.last_mut()
                            {
                                t.heading = true;
                            }
                            c.pre |= tag == Tag::PRE;
                            c.prose |= tag.is_heading()
                                || matches!(
                                    tag,
                                    Tag::P | Tag::UL | Tag::OL | Tag::BLOCKQUOTE | Tag::DL
                                );
                            if matches!(
                                tag,
                                Tag::P | Tag::UL | Tag::OL | Tag::BLOCKQUOTE | Tag::PRE | Tag::DL
                            ) {
                                c.blocks += 1;
                            }
                        }
                    }
                },
                NodeKind::Text { start, end } => {
                    let n = dom.text[*start as usize..*end as usize]
                        .trim()
                        .chars()
                        .count();
                    for (_, c) in &mut cells {
                        c.chars += n;
                    }
                }
                _ => {}
            },
            Edge::Leave(id) => match dom.tag(id) {
                Some(Tag::TD | Tag::TH) => {
                    if let Some((depth, c)) = cells.pop()
                        && let Some(t) = tables.get_mut(depth - 1)
                    {
                        t.longest_cell = t.longest_cell.max(c.chars);
                        t.row_chars += c.chars;
                        t.most_blocks = t.most_blocks.max(c.blocks);
                        if t.cells_in_row <= 2 && is_gutter(dom, c.id) {
                            t.row_gutter = true;
                        } else if c.is_code() {
                            t.row_code = true;
                        }
                    }
                }
                Some(Tag::TR) => {
                    if let Some(t) = tables.last_mut() {
                        if t.row_code
                            && t.cells_in_row <= 2
                            && (t.row_gutter || t.cells_in_row == 1)
                        {
                            t.code_rows += 1;
                        } else {
                            t.other_rows += 1;
                        }
                    }
                }
                Some(Tag::TABLE) => {
                    if let Some(t) = tables.pop() {
                        map.insert(t.id, decide(dom, &t));
                    }
                }
                _ => {}
            },
        }
    }
}

/// A table's role from its counts (module docs).
fn decide(dom: &Dom, t: &TableStats) -> Role {
    let code_class = class_matches(dom, t.id, CODE_TABLE_CLASSES, false);
    if t.code_rows > 0 && (t.other_rows == 0 || code_class) && !t.nested && !t.heading {
        return Role::Code;
    }
    let presentation = dom
        .attr(t.id, "role")
        .is_some_and(|r| matches!(r.trim(), "presentation" | "none"));
    let one_row_of_prose = t.rows <= 1 && t.row_chars > LAYOUT_ROW_CHARS;
    if presentation
        || t.nested
        || t.heading
        || t.max_cells <= 1
        || one_row_of_prose
        || t.longest_cell > LAYOUT_CELL_CHARS
        || t.most_blocks >= LAYOUT_CELL_BLOCKS
    {
        Role::Layout
    } else {
        Role::Data
    }
}

/// One cell of a data table as the writer read it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cell {
    /// Its content, written.
    pub text: String,
    /// `colspan` (at least 1, at most [`MAX_SPAN`]).
    pub cols: usize,
    /// `rowspan` (at least 1, at most [`MAX_SPAN`]).
    pub rows: usize,
}

/// Most columns or rows one cell spans: HTML allows 1,000 columns, but a
/// span past the table's edge adds nothing, and real tables span a few.
pub const MAX_SPAN: usize = 256;

/// Most slots a table's grid may have; past it, spans are not expanded
/// (each cell takes one slot): a hostile `colspan`/`rowspan` pair cannot
/// make a grid quadratic in the page.
pub const MAX_GRID_SLOTS: usize = 1 << 20;

/// The span of cell `id`'s attribute `name` (`colspan`, `rowspan`),
/// clamped to `1..=MAX_SPAN`.
pub(crate) fn span(dom: &Dom, id: NodeId, name: &str) -> usize {
    dom.attr(id, name)
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(1)
        .clamp(1, MAX_SPAN)
}

/// The rows of cells as a rectangular grid: each cell fills the slots it
/// spans (its text repeated in each, so every row reads on its own), the
/// next cell of a row takes the first slot no cell above spans into, and
/// short rows are padded with empty cells. Spanned copies are left empty
/// when repeating them would make the grid more than four times the
/// cells' text (a long cell spanning many slots).
pub(crate) fn grid(rows: &[Vec<Cell>]) -> Vec<Vec<String>> {
    let text: usize = rows.iter().flatten().map(|c| c.text.len()).sum();
    let expand = {
        let slots: usize = rows
            .iter()
            .map(|r| r.iter().map(|c| c.cols).sum::<usize>())
            .sum();
        slots <= MAX_GRID_SLOTS
    };
    let budget = 4 * text + 4096;
    let mut used = text;
    let mut out: Vec<Vec<Option<String>>> = vec![Vec::new(); rows.len()];
    for (r, row) in rows.iter().enumerate() {
        let mut col = 0;
        for cell in row {
            while out[r].get(col).is_some_and(Option::is_some) {
                col += 1;
            }
            let (cols, nrows) = if expand {
                (cell.cols, cell.rows.min(rows.len() - r))
            } else {
                (1, 1)
            };
            for dr in 0..nrows {
                for dc in 0..cols {
                    let slot = &mut out[r + dr];
                    if slot.len() <= col + dc {
                        slot.resize(col + dc + 1, None);
                    }
                    let copy = dr > 0 || dc > 0;
                    let t = if copy && used + cell.text.len() > budget {
                        String::new()
                    } else {
                        if copy {
                            used += cell.text.len();
                        }
                        cell.text.clone()
                    };
                    // A slot an earlier cell spans into keeps that cell.
                    if slot[col + dc].is_none() {
                        slot[col + dc] = Some(t);
                    }
                }
            }
            col += cols;
        }
    }
    let width = out.iter().map(Vec::len).max().unwrap_or(0);
    out.into_iter()
        .map(|r| {
            let mut r: Vec<String> = r.into_iter().map(Option::unwrap_or_default).collect();
            r.resize(width, String::new());
            r
        })
        .collect()
}

/// A copy of the tree without its data tables ([`crate::Options::tables`]
/// off), for the writers to walk.
/// A table is data unless it lays the page out: a layout table holds
/// another table, or blocks of prose (paragraphs, divisions, lists,
/// headings) in its cells — unless it has a header (`th`, `thead`,
/// `caption`), which only data tables have.
pub fn without_data_tables(dom: &Dom) -> Dom {
    let mut copy = dom.clone();
    let mut data_tables = Vec::new();
    for i in 0..dom.len() {
        let table = NodeId(i as u32);
        if !dom.is(table, Tag::TABLE) {
            continue;
        }
        let (mut header, mut layout) = (false, false);
        // Stops at the first nested table: each node is looked at by few tables.
        for n in dom.descendants(table).skip(1) {
            match dom.tag(n) {
                Some(Tag::TABLE) => {
                    layout = true;
                    break;
                }
                Some(Tag::TH | Tag::THEAD | Tag::CAPTION) => header = true,
                Some(tag) if LAYOUT_BLOCKS.contains(&tag) => layout = true,
                _ => {}
            }
        }
        if header || !layout {
            data_tables.push(table);
        }
    }
    copy.detach_all(&data_tables);
    copy
}

/// Blocks of prose that mark a table cell as page layout rather than data.
const LAYOUT_BLOCKS: &[Tag] = &[
        Tag::P,
        Tag::DIV,
        Tag::UL,
        Tag::OL,
        Tag::H1,
        Tag::H2,
        Tag::H3,
        Tag::H4,
        Tag::H5,
        Tag::H6,
        Tag::BLOCKQUOTE,
        Tag::ARTICLE,
        Tag::SECTION,
        Tag::FORM,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn roles(html: &str) -> Vec<Role> {
        let dom = parse(html);
        let mut roles = Roles::default();
        let tables: Vec<NodeId> = dom
            .descendants(dom.body().unwrap())
            .filter(|&n| dom.is(n, Tag::TABLE))
            .collect();
        tables.into_iter().map(|t| roles.of(&dom, t)).collect()
    }

    #[test]
    fn tables_are_data_layout_or_code() {
        let data = "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>";
        assert_eq!(roles(data), [Role::Data]);
        let prose = "x".repeat(LAYOUT_CELL_CHARS + 1);
        for layout in [
            "<table><tr><td><h2>Title</h2><p>a</p></td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>".to_owned(),
            format!("<table><tr><td>{prose}</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>"),
            "<table><tr><td>one column</td></tr><tr><td>two</td></tr></table>".to_owned(),
            "<table role=presentation><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>".to_owned(),
            "<table><tr><td><p>a</p><p>b</p><ul><li>c</li></ul></td><td>d</td></tr><tr><td>e</td><td>f</td></tr></table>".to_owned(),
        ] {
            assert_eq!(roles(&layout), [Role::Layout], "{layout}");
        }
        // Nested: the outer box is layout, the inner table data.
        assert_eq!(
            roles(&format!(
                "<table><tr><td>{data}</td><td>x</td></tr></table>"
            )),
            [Role::Layout, Role::Data]
        );
        for code in [
            "<table class=highlighttable><tr><td class=linenos><div class=linenodiv><pre>1\n2</pre></div></td>\
             <td class=code><div class=highlight><pre>a\nb</pre></div></td></tr></table>",
            "<table class=\"highlight js-file-line-container\"><tr><td class=\"blob-num js-line-number\"></td>\
             <td class=\"blob-code blob-code-inner js-file-line\">a = 1</td></tr>\
             <tr><td class=blob-num></td><td class=blob-code>b = 2</td></tr></table>",
            "<table class=rouge-table><tbody><tr><td class=\"rouge-gutter gl\"><pre class=lineno>1\n</pre></td>\
             <td class=rouge-code><pre>puts 1\n</pre></td></tr></tbody></table>",
        ] {
            assert_eq!(roles(code), [Role::Code], "{code}");
        }
        // A layout of a spacer cell beside the article, which holds some
        // code among its prose, is no code listing.
        assert_eq!(
            roles(
                "<table><tr><td width=40><img src=s.gif></td><td><h1>T</h1><p>prose</p>\
                   <pre>code</pre><p>more</p></td></tr></table>"
            ),
            [Role::Layout]
        );
        // A first column of numbers beside values is data.
        assert_eq!(
            roles(
                "<table><tr><td>1</td><td>Alice</td></tr><tr><td>2</td><td>Bob</td></tr></table>"
            ),
            [Role::Data]
        );
    }

    fn cell(text: &str, cols: usize, rows: usize) -> Cell {
        Cell {
            text: text.into(),
            cols,
            rows,
        }
    }

    #[test]
    fn spans_expand_into_a_rectangle() {
        let rows = vec![
            vec![cell("a", 1, 2), cell("b", 2, 1)],
            vec![cell("c", 1, 1), cell("d", 1, 1)],
            vec![cell("e", 1, 1)],
        ];
        assert_eq!(
            grid(&rows),
            [["a", "b", "b"], ["a", "c", "d"], ["e", "", ""]]
        );
        // A rowspan past the last row stops there; huge spans stay bounded.
        let rows = vec![vec![cell(&"x".repeat(100), MAX_SPAN, MAX_SPAN)]];
        let g = grid(&rows);
        assert_eq!((g.len(), g[0].len()), (1, MAX_SPAN));
        let filled = g[0].iter().filter(|s| !s.is_empty()).count();
        assert!(filled < 50, "{filled}");
    }
}
