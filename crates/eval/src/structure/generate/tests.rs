//! The generator's tests: deterministic, every markup dealt, and every
//! gold consistent with its page.

use std::collections::BTreeSet;

use unchaff::dom::{DOCUMENT, Dom, Edge, NodeId, Tag};

use super::content::FORMULAS;
use super::*;
use crate::structure::{html, math_key, text_key};

fn pages() -> Vec<Page> {
    generate(DEFAULT_SEED, 6)
}

#[test]
fn the_same_seed_gives_the_same_pages() {
    let (a, b) = (generate(7, 2), generate(7, 2));
    assert_eq!(a.len(), 10);
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.id, y.id);
        assert_eq!(x.html, y.html);
        assert_eq!(x.gold, y.gold);
        assert_eq!(x.gold_text, y.gold_text);
    }
    let c = generate(8, 2);
    assert!(a.iter().zip(&c).any(|(x, y)| x.html != y.html));
}

#[test]
fn every_markup_is_dealt_at_the_default_size() {
    let pages = generate(DEFAULT_SEED, DEFAULT_PER_FOLDER);
    assert_eq!(pages.len(), 200);
    let all: BTreeSet<&str> = pages
        .iter()
        .flat_map(|p| p.constructs.iter().map(String::as_str))
        .collect();
    for m in CodeMarkup::ALL {
        assert!(
            all.contains(format!("code:{}", m.name()).as_str()),
            "{}",
            m.name()
        );
    }
    for m in MathMarkup::ALL {
        assert!(
            all.contains(format!("math:{}", m.name()).as_str()),
            "{}",
            m.name()
        );
    }
    for m in TableMarkup::ALL {
        assert!(
            all.contains(format!("table:{}", m.name()).as_str()),
            "{}",
            m.name()
        );
    }
    for m in FigureMarkup::ALL {
        assert!(
            all.contains(format!("figure:{}", m.name()).as_str()),
            "{}",
            m.name()
        );
    }
    for m in HeadingMarkup::ALL {
        assert!(
            all.contains(format!("heading:{}", m.name()).as_str()),
            "{}",
            m.name()
        );
    }
    for c in ["subsup", "quote", "definitions", "list:start"] {
        assert!(all.contains(c), "{c}");
    }
    let layout = pages.iter().filter(|p| p.gold.layout_tables > 0).count();
    assert_eq!(layout, 200 * LAYOUT_PERCENT / 100);
    // Each template is a folder of its own.
    for t in Template::ALL {
        assert_eq!(
            pages.iter().filter(|p| p.template == t).count(),
            DEFAULT_PER_FOLDER
        );
    }
}

/// The page's text as a browser would show it, scripts included (the
/// MathJax source is in them), without separators: for substring checks.
fn raw_page_text(dom: &Dom) -> String {
    html::raw_text(dom, DOCUMENT)
}

/// All attribute values of the page, back to back.
fn attribute_text(dom: &Dom) -> String {
    dom.attr_text.clone()
}

#[test]
fn gold_code_lines_are_in_the_page() {
    for p in pages() {
        let dom = html::parse(&p.html);
        let text = raw_page_text(&dom);
        for c in &p.gold.code {
            for line in c.text.lines().filter(|l| !l.trim().is_empty()) {
                assert!(
                    text.contains(line),
                    "{}: code line {line:?} not in the page",
                    p.id
                );
            }
        }
    }
}

#[test]
fn gold_tex_is_in_the_page_where_the_markup_holds_tex() {
    for p in pages() {
        let dom = html::parse(&p.html);
        let text = raw_page_text(&dom) + &attribute_text(&dom);
        let mathml_only =
            p.constructs.contains("math:mathml") || p.constructs.contains("math:mathjax3");
        assert_eq!(p.gold.math.len(), 3, "{}", p.id);
        for m in &p.gold.math {
            if !mathml_only {
                assert!(
                    text.contains(&m.tex),
                    "{}: {:?} not in the page",
                    p.id,
                    m.tex
                );
            }
        }
        // The math elements hold the formulas' MathML, which converts to
        // the gold TeX (checked in `formulas_convert_to_their_tex`).
        if p.constructs.contains("math:mathml") {
            assert!(
                dom.descendants(DOCUMENT)
                    .filter(|&n| dom.is(n, Tag::MATH))
                    .count()
                    == 3,
                "{}",
                p.id
            );
        }
    }
}

#[test]
fn gold_tables_match_the_page_tables() {
    for p in pages() {
        let dom = html::parse(&p.html);
        let grids: Vec<crate::structure::Table> = html::elements(&dom)
            .filter(|&n| dom.is(n, Tag::TABLE))
            .filter_map(|n| html::table_grid(&dom, n))
            .collect();
        for t in &p.gold.tables {
            assert!(
                t.rows.iter().all(|r| r.len() == t.rows[0].len()),
                "{}: ragged gold",
                p.id
            );
            assert!(
                grids
                    .iter()
                    .any(|g| g.rows == t.rows && g.header_rows == t.header_rows),
                "{}: gold table {:?} is not a page table",
                p.id,
                t.rows[0]
            );
        }
        if p.gold.layout_tables > 0 {
            assert!(p.gold.tables.is_empty(), "{}", p.id);
        }
    }
}

#[test]
fn gold_text_and_structure_are_in_the_page() {
    for p in pages() {
        let dom = html::parse(&p.html);
        let page_key = text_key(&html::block_text(&dom, DOCUMENT));
        let raw = raw_page_text(&dom);
        for line in p.gold_text.lines() {
            // A line with inline math: the prose around the TeX is in the
            // page text, the TeX in the markup (checked for itself in
            // `gold_tex_is_in_the_page_where_the_markup_holds_tex`).
            let mut parts = vec![line.to_string()];
            for m in &p.gold.math {
                parts = parts
                    .iter()
                    .flat_map(|x| {
                        x.split(m.tex.as_str())
                            .map(str::to_string)
                            .collect::<Vec<_>>()
                    })
                    .collect();
            }
            let whole = parts.len() == 1;
            for part in parts.iter().filter(|x| !text_key(x).is_empty()) {
                // Code may sit in unseparated line cells: look in the raw
                // text for whole lines too.
                assert!(
                    page_key.contains(&text_key(part)) || (whole && raw.contains(line)),
                    "{}: gold text {part:?} not in the page",
                    p.id
                );
            }
        }
        for h in &p.gold.headings {
            assert!(
                page_key.contains(&text_key(&h.text)),
                "{}: {:?}",
                p.id,
                h.text
            );
        }
        for f in &p.gold.figures {
            let path = url::Url::parse(&f.src).unwrap().path().to_string();
            assert!(p.html.contains(&path), "{}: {path}", p.id);
            if let Some(c) = &f.caption {
                assert!(page_key.contains(&text_key(c)), "{}: {c:?}", p.id);
            }
        }
        for s in &p.gold.subsup {
            assert!(p.html.contains(s.as_str()), "{}: {s}", p.id);
        }
        // The gold text opens with the title, which is the level-1 heading.
        assert_eq!(
            p.gold_text.lines().next(),
            Some(p.gold.headings[0].text.as_str())
        );
        assert_eq!(p.gold.headings[0].level, 1);
    }
}

#[test]
fn every_instance_has_its_markup() {
    for p in pages() {
        let (g, m) = (&p.gold, &p.gold.markups);
        assert_eq!(m.headings.len(), g.headings.len(), "{}", p.id);
        assert_eq!(m.tables.len(), g.tables.len(), "{}", p.id);
        assert_eq!(m.code.len(), g.code.len(), "{}", p.id);
        assert_eq!(m.math.len(), g.math.len(), "{}", p.id);
        assert_eq!(m.figures.len(), g.figures.len(), "{}", p.id);
        assert_eq!(m.layout.is_some(), g.layout_tables > 0, "{}", p.id);
        for k in m
            .code
            .iter()
            .chain(&m.math)
            .chain(&m.tables)
            .chain(&m.figures)
        {
            assert!(p.constructs.contains(k), "{}: {k}", p.id);
        }
    }
}

#[test]
fn chrome_is_not_in_the_gold() {
    for p in pages() {
        for chrome in [
            "Advertisement",
            "Leave a Reply",
            "Hot Network Questions",
            "From Examplepedia",
            "Edit this page",
            "edit",
        ] {
            assert!(!p.gold_text.contains(chrome), "{}: {chrome}", p.id);
        }
    }
}

/// TeX of a MathML element by the canonical element-by-element rules the
/// formulas' TeX is written to (issue #34), walked without recursion: on
/// leaving an element its children's TeX (pushed as they closed) is
/// combined.
fn mathml_to_tex(dom: &Dom, math: NodeId) -> String {
    fn symbol(s: &str) -> String {
        match s {
            "α" => "\\alpha",
            "β" => "\\beta",
            "π" => "\\pi",
            "θ" => "\\theta",
            "λ" => "\\lambda",
            "σ" => "\\sigma",
            "μ" => "\\mu",
            "∑" => "\\sum",
            "∫" => "\\int",
            "≤" => "\\leq",
            "≥" => "\\geq",
            "∞" => "\\infty",
            "×" => "\\times",
            "→" => "\\to",
            "±" => "\\pm",
            "{" => "\\{",
            "}" => "\\}",
            "sin" => "\\sin",
            "cos" => "\\cos",
            "log" => "\\log",
            other => other,
        }
        .to_string()
    }
    let mut stack: Vec<Vec<String>> = vec![Vec::new()];
    for edge in dom.traverse(math) {
        match edge {
            Edge::Enter(n) => {
                if dom.element(n).is_some() {
                    stack.push(Vec::new());
                } else if let Some(t) = dom.text_of(n) {
                    stack.last_mut().unwrap().push(t.to_string());
                }
            }
            Edge::Leave(n) => {
                let Some(name) = html::name(dom, n) else {
                    continue;
                };
                let c = stack.pop().unwrap();
                let g = |i: usize| c.get(i).cloned().unwrap_or_default();
                let tex = match name {
                    "mi" | "mn" | "mo" => symbol(c.concat().trim()),
                    "mtext" => format!("\\text{{{}}}", c.concat()),
                    "msub" => format!("{}_{{{}}}", g(0), g(1)),
                    "msup" => format!("{}^{{{}}}", g(0), g(1)),
                    "msubsup" | "munderover" => format!("{}_{{{}}}^{{{}}}", g(0), g(1), g(2)),
                    "mfrac" => format!("\\frac{{{}}}{{{}}}", g(0), g(1)),
                    "msqrt" => format!("\\sqrt{{{}}}", c.concat()),
                    "mroot" => format!("\\sqrt[{}]{{{}}}", g(1), g(0)),
                    "mtd" => c.concat(),
                    "mtr" => c.join("&"),
                    "mtable" => format!("\\begin{{matrix}}{}\\end{{matrix}}", c.join("\\\\")),
                    "annotation" => String::new(),
                    _ => c.concat(),
                };
                stack.last_mut().unwrap().push(tex);
            }
        }
    }
    stack.pop().unwrap_or_default().concat()
}

#[test]
fn formulas_convert_to_their_tex() {
    for f in FORMULAS {
        let dom = html::parse(&format!("<p><math>{}</math></p>", f.mathml));
        let math = dom
            .descendants(DOCUMENT)
            .find(|&n| dom.is(n, Tag::MATH))
            .unwrap();
        let tex = mathml_to_tex(&dom, math);
        assert_eq!(math_key(&tex), math_key(f.tex), "{}", f.tex);
    }
}

#[test]
fn written_folders_have_the_dataset_layout() {
    let dir = crate::structure::tests::tempdir();
    let n = write(&dir, 3, 2).unwrap();
    assert_eq!(n, 10);
    for t in Template::ALL {
        let ds = crate::dataset::Dataset::open(&dir.join(t.folder())).unwrap();
        assert_eq!(ds.pages.len(), 2);
        for p in &ds.pages {
            let html = ds.read_page_html_gunzipped(p).unwrap();
            assert!(html.starts_with(b"<!DOCTYPE html>"));
            assert!(ds.read_gold(p).unwrap().is_some());
            assert_eq!(p.field("template").as_deref(), Some(t.name()));
            assert!(p.url.as_deref().unwrap().starts_with("https://"));
        }
        let golds = crate::structure::load_gold_dir(&dir.join(t.folder())).unwrap();
        assert_eq!(golds.len(), 2);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
