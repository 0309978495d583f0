//! Reading HTML for the structure benchmark: texts, classes and data tables
//! of a parsed page (unchaff's own parser, so the tree is a browser's).
//! Used by the survey of the real pages, by the Markdown reader for the
//! raw HTML a Markdown output may hold, and by the generator's tests.
//!
//! Every walk is iterative ([`Dom::descendants`], [`Dom::traverse`]).

use unchaff::dom::{DOCUMENT, Dom, Edge, Flow, NodeId, NodeKind, Tag};

use super::Table;

/// The largest `rowspan` or `colspan` honoured when a table is expanded
/// into its grid; larger values count as this. Browsers allow up to 65534
/// rows and 1000 columns, but a span past the table's own size only pads
/// it, and an unbounded one would let a hostile page ask for a grid of
/// billions of cells.
pub const MAX_SPAN: usize = 100;

/// The most cells an expanded grid may hold; a table past it is read as
/// no data table (data tables in articles are far smaller, and this keeps
/// the memory of one page bounded).
pub const MAX_GRID_CELLS: usize = 100_000;

/// Parses `html` exactly as given: scripts (`<script type="math/tex">`)
/// and every attribute (`data-src`) kept.
pub fn parse(html: &str) -> Dom {
    unchaff::parse::parse_unfiltered(html)
}

/// The local name of element `id`, if it is one.
pub fn name(dom: &Dom, id: NodeId) -> Option<&str> {
    dom.element_name(id).map(|(_, local)| local)
}

/// Whether element `id`'s `class` attribute holds `class`.
pub fn has_class(dom: &Dom, id: NodeId, class: &str) -> bool {
    dom.attr(id, "class")
        .is_some_and(|c| c.split_ascii_whitespace().any(|x| x == class))
}

/// The raw text of the subtree of `id`: its text nodes back to back, and a
/// line break for each `<br>`. This is `<pre>`'s text as a browser shows
/// it (before the tree builder's dropped first newline).
pub fn raw_text(dom: &Dom, id: NodeId) -> String {
    let mut out = String::new();
    for n in dom.descendants(id) {
        if let Some(t) = dom.text_of(n) {
            out.push_str(t);
        } else if dom.is(n, Tag::BR) {
            out.push('\n');
        }
    }
    out
}

/// The text of the subtree of `id` as blocks: a line break around each
/// block element and `<br>`, a space between table cells, whitespace runs
/// collapsed inside lines; `<script>`, `<style>` and `<template>` bodies
/// left out.
pub fn block_text(dom: &Dom, id: NodeId) -> String {
    let mut out = String::new();
    let mut skip_depth = 0usize;
    for edge in dom.traverse(id) {
        match edge {
            Edge::Enter(n) => {
                if skip_depth > 0 || is_hidden_body(dom, n) {
                    skip_depth += 1;
                    continue;
                }
                match &dom.nodes[n.index()].kind {
                    NodeKind::Text { .. } => {
                        push_collapsed(&mut out, dom.text_of(n).unwrap_or(""));
                    }
                    NodeKind::Element(e) => match e.tag.flow() {
                        Flow::Block | Flow::Break => out.push('\n'),
                        Flow::Cell => out.push(' '),
                        Flow::Inline => {}
                    },
                    _ => {}
                }
            }
            Edge::Leave(n) => {
                if skip_depth > 0 {
                    skip_depth -= 1;
                    continue;
                }
                if let Some(e) = dom.element(n)
                    && e.tag.flow() == Flow::Block
                {
                    out.push('\n');
                }
            }
        }
    }
    out.split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `id`'s body is never shown as text.
fn is_hidden_body(dom: &Dom, id: NodeId) -> bool {
    dom.is(id, Tag::SCRIPT) || dom.is(id, Tag::STYLE) || dom.is(id, Tag::TEMPLATE)
}

/// Appends `text` with its whitespace runs collapsed to one space.
fn push_collapsed(out: &mut String, text: &str) {
    for (i, part) in text.split(|c: char| c.is_whitespace()).enumerate() {
        if i > 0 && !out.ends_with([' ', '\n']) && !out.is_empty() {
            out.push(' ');
        }
        out.push_str(part);
    }
}

/// The rows (`<tr>`) of `table` itself, in order: those whose nearest
/// table ancestor is `table` (not the rows of tables nested in its cells).
pub fn table_rows(dom: &Dom, table: NodeId) -> Vec<NodeId> {
    dom.descendants(table)
        .filter(|&n| dom.is(n, Tag::TR) && nearest_table(dom, n) == Some(table))
        .collect()
}

/// The nearest `<table>` ancestor of `id` (not `id` itself).
pub fn nearest_table(dom: &Dom, id: NodeId) -> Option<NodeId> {
    let mut cur = dom.nodes[id.index()].parent;
    while !cur.is_none() {
        if dom.is(cur, Tag::TABLE) {
            return Some(cur);
        }
        cur = dom.nodes[cur.index()].parent;
    }
    None
}

/// The cells (`<td>`, `<th>`) of row `tr`.
pub fn row_cells(dom: &Dom, tr: NodeId) -> Vec<NodeId> {
    dom.children(tr)
        .filter(|&c| dom.is(c, Tag::TD) || dom.is(c, Tag::TH))
        .collect()
}

/// A span attribute's value: a positive integer, 1 when absent or not a
/// number, at most [`MAX_SPAN`].
fn span(dom: &Dom, cell: NodeId, attr: &str) -> usize {
    dom.attr(cell, attr)
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n >= 1)
        .unwrap_or(1)
        .min(MAX_SPAN)
}

/// The text of a cell as the gold holds it: its blocks and lines joined by
/// one space.
pub fn cell_text(dom: &Dom, cell: NodeId) -> String {
    block_text(dom, cell).replace('\n', " ")
}

/// `table` as a span-expanded rectangular grid: a spanned cell's text is
/// repeated in every slot it covers, and rows are padded with empty cells
/// to the widest. Header rows: the leading rows inside `<thead>` or made
/// of `<th>` cells only. The caption is the `<caption>`'s text. `None`
/// when the grid would pass [`MAX_GRID_CELLS`].
pub fn table_grid(dom: &Dom, table: NodeId) -> Option<Table> {
    let rows = table_rows(dom, table);
    // Slots filled by row spans from the rows above: (row, col) → text.
    let mut grid: Vec<Vec<Option<String>>> = Vec::with_capacity(rows.len());
    let mut header_rows = 0usize;
    let mut header_done = false;
    let mut cells_total = 0usize;
    for (r, &tr) in rows.iter().enumerate() {
        if grid.len() <= r {
            grid.push(Vec::new());
        }
        let cells = row_cells(dom, tr);
        let in_thead = dom.nodes[tr.index()]
            .parent
            .some()
            .is_some_and(|p| dom.is(p, Tag::THEAD));
        let all_th = !cells.is_empty() && cells.iter().all(|&c| dom.is(c, Tag::TH));
        if !header_done && (in_thead || all_th) {
            header_rows += 1;
        } else {
            header_done = true;
        }
        let mut col = 0usize;
        for cell in cells {
            while grid[r].get(col).is_some_and(Option::is_some) {
                col += 1;
            }
            let text = cell_text(dom, cell);
            let (rs, cs) = (span(dom, cell, "rowspan"), span(dom, cell, "colspan"));
            cells_total += rs * cs;
            if cells_total > MAX_GRID_CELLS {
                return None;
            }
            for dr in 0..rs {
                let rr = r + dr;
                // A row span past the last row is cut there.
                if rr >= rows.len() {
                    break;
                }
                while grid.len() <= rr {
                    grid.push(Vec::new());
                }
                for dc in 0..cs {
                    let cc = col + dc;
                    if grid[rr].len() <= cc {
                        grid[rr].resize(cc + 1, None);
                    }
                    grid[rr][cc] = Some(text.clone());
                }
            }
            col += cs;
        }
    }
    let width = grid.iter().map(Vec::len).max().unwrap_or(0);
    let rows: Vec<Vec<String>> = grid
        .into_iter()
        .map(|row| {
            let mut row: Vec<String> = row.into_iter().map(Option::unwrap_or_default).collect();
            row.resize(width, String::new());
            row
        })
        .filter(|row| row.iter().any(|c| !c.trim().is_empty()))
        .collect();
    let caption = dom
        .children(table)
        .find(|&c| dom.is(c, Tag::CAPTION))
        .map(|c| cell_text(dom, c))
        .filter(|t| !t.is_empty());
    Some(Table {
        header_rows: header_rows.min(rows.len()),
        rows,
        caption,
    })
}

/// Every element of the document, in order.
pub fn elements(dom: &Dom) -> impl Iterator<Item = NodeId> + '_ {
    dom.descendants(DOCUMENT)
        .filter(|&n| dom.element(n).is_some())
}

/// The nearest ancestor of `id` (or `id` itself) for which `pred` holds.
pub fn ancestor_or_self(dom: &Dom, id: NodeId, pred: impl Fn(NodeId) -> bool) -> Option<NodeId> {
    let mut cur = id;
    while !cur.is_none() {
        if pred(cur) {
            return Some(cur);
        }
        cur = dom.nodes[cur.index()].parent;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(dom: &Dom, tag: Tag) -> NodeId {
        dom.descendants(DOCUMENT).find(|&n| dom.is(n, tag)).unwrap()
    }

    #[test]
    fn spans_are_expanded_by_repeating_the_text() {
        let dom = parse(
            "<table><caption>Speeds</caption><thead><tr><th rowspan=2>Tool</th><th colspan=2>Speed</th></tr>\
             <tr><th>pages/s</th><th>MB/s</th></tr></thead>\
             <tbody><tr><td>a</td><td rowspan=2>10</td><td>1<br>2</td></tr><tr><td>b</td><td>3</td></tr></tbody></table>",
        );
        let t = table_grid(&dom, first(&dom, Tag::TABLE)).unwrap();
        assert_eq!(t.header_rows, 2);
        assert_eq!(t.caption.as_deref(), Some("Speeds"));
        assert_eq!(
            t.rows,
            vec![
                vec!["Tool", "Speed", "Speed"],
                vec!["Tool", "pages/s", "MB/s"],
                vec!["a", "10", "1 2"],
                vec!["b", "10", "3"],
            ]
        );
    }

    #[test]
    fn nested_tables_keep_their_rows() {
        let dom =
            parse("<table><tr><td><table><tr><td>x</td></tr></table></td><td>y</td></tr></table>");
        let t = table_grid(&dom, first(&dom, Tag::TABLE)).unwrap();
        assert_eq!(t.rows.len(), 1);
        assert_eq!(t.rows[0], vec!["x", "y"]);
        assert_eq!(t.header_rows, 0);
    }

    #[test]
    fn huge_spans_are_capped() {
        let dom = parse(
            "<table><tr><td colspan=100000 rowspan=100000>x</td></tr><tr><td>y</td></tr></table>",
        );
        let t = table_grid(&dom, first(&dom, Tag::TABLE)).unwrap();
        // The span is cut at the last row; `y` takes the first free slot.
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0].len(), MAX_SPAN + 1);
        assert_eq!(t.rows[1][0], "x");
        assert_eq!(t.rows[1][MAX_SPAN - 1], "x");
        assert_eq!(t.rows[1][MAX_SPAN], "y");
    }

    #[test]
    fn block_text_separates_blocks_and_skips_scripts() {
        let dom =
            parse("<div><p>a  b</p><p>c<br>d</p><script>x=1</script><ul><li>e</li></ul></div>");
        assert_eq!(block_text(&dom, first(&dom, Tag::DIV)), "a b\nc\nd\ne");
        let dom = parse("<pre>  x\n\ty<br>z</pre>");
        assert_eq!(raw_text(&dom, first(&dom, Tag::PRE)), "  x\n\ty\nz");
    }
}
