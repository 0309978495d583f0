//! The generated pages of the structure benchmark: documents whose
//! structure is known, written in the markups real tools produce, inside
//! realistic page templates, deterministically from a seed.
//!
//! Each template is one dataset folder (`gen-news`, `gen-docs`,
//! `gen-encyclopedia`, `gen-qa`, `gen-blog`) in the dev datasets' layout:
//! `pages/<id>.html.gz`, `gold/<id>.txt` (the main content's plain text,
//! one block a line: the title, then the content; math as its TeX),
//! `manifest.jsonl` (`id`, `url`, `lang`, `source`, `template`,
//! `constructs`: the markups the page holds, e.g. `code:prism`,
//! `math:katex`, `table:spans`) and `structure/<id>.json` (a
//! [`Gold`]).
//!
//! Every page holds a title and section headings (in one permalink
//! style), paragraphs, a list (nested on half the pages), one or two code
//! blocks, inline and display formulas in one math markup, a data table or
//! a layout table around the content, an image, and on some pages a
//! quote, a definition list and sub/sup. The markups are dealt so that
//! each appears about equally often over the whole set (layout tables on
//! [`LAYOUT_PERCENT`] of the pages).

mod content;
mod markup;
mod templates;

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::Path;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub use markup::{CodeMarkup, FigureMarkup, HeadingMarkup, MathMarkup, TableMarkup};
pub use templates::Template;

use self::content::{
    DEFINITIONS, FORMULAS, Formula, Prose, QUOTES, SAMPLES, SUBSUP, SUBSUP_SENTENCES,
};
use self::markup::esc;
use super::{Code, Construct, Definition, Gold, Heading, ListItem, Math};
use crate::EvalError;

/// The default seed (the number).
pub const DEFAULT_SEED: u64 = 34;

/// The default number of pages per template: 5 × 40 = 200 pages, about
/// ten of each code markup (14 with the second blocks), 25 of each math
/// markup, 28 of each data table markup and 10 of each layout table.
pub const DEFAULT_PER_FOLDER: usize = 40;

/// Percent of the pages whose content sits in a layout table. Layout
/// tables are a minority of today's pages, and every construct of such a
/// page is read through the table, so at a ninth of the set each (a third
/// in all) they would weigh on every column; at 15% there are ten pages of
/// each kind.
pub const LAYOUT_PERCENT: usize = 15;

/// One generated page.
#[derive(Clone, Debug)]
pub struct Page {
    /// Its id (the file name).
    pub id: String,
    /// Its address.
    pub url: String,
    /// Its template.
    pub template: Template,
    /// The markups it holds (`code:prism`, …).
    pub constructs: BTreeSet<String>,
    /// The whole page.
    pub html: String,
    /// The gold text, one block a line.
    pub gold_text: String,
    /// The structure gold.
    pub gold: Gold,
}

/// Deals `n` markups over `total` pages: each index appears
/// `total / n` or one more times, in a seeded order.
fn deal(rng: &mut impl Rng, n: usize, total: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..total).map(|i| i % n).collect();
    v.shuffle(rng);
    v
}

/// Deals the table markups: [`LAYOUT_PERCENT`] of the pages get a layout
/// table (the kinds in turn), the others a data table (likewise), in a
/// seeded order.
fn deal_tables(rng: &mut impl Rng, total: usize) -> Vec<usize> {
    let data: Vec<usize> = (0..TableMarkup::ALL.len())
        .filter(|&i| !TableMarkup::ALL[i].is_layout())
        .collect();
    let layout: Vec<usize> = (0..TableMarkup::ALL.len())
        .filter(|&i| TableMarkup::ALL[i].is_layout())
        .collect();
    let n_layout = total * LAYOUT_PERCENT / 100;
    let mut v: Vec<usize> = (0..total)
        .map(|i| {
            if i < n_layout {
                layout[i % layout.len()]
            } else {
                data[(i - n_layout) % data.len()]
            }
        })
        .collect();
    v.shuffle(rng);
    v
}

/// What one page is made of.
struct Plan {
    template: Template,
    index: usize,
    code: CodeMarkup,
    second_code: Option<CodeMarkup>,
    math: MathMarkup,
    table: TableMarkup,
    figure: FigureMarkup,
    heading: HeadingMarkup,
}

/// Builds the main content of one page: its HTML in chunks of blocks, its
/// gold text and structure.
struct Builder<'a, R: Rng> {
    rng: &'a mut R,
    base: url::Url,
    encyclopedia: bool,
    heading: HeadingMarkup,
    /// Blocks of the chunk being written.
    blocks: Vec<String>,
    /// Finished chunks (a Q&A page's posts), each a list of blocks.
    chunks: Vec<Vec<String>>,
    text: Vec<String>,
    gold: Gold,
    constructs: BTreeSet<String>,
    /// Counters for ids.
    code_n: usize,
    math_n: usize,
    image_n: usize,
}

impl<R: Rng> Builder<'_, R> {
    fn mark(&mut self, what: String) {
        self.constructs.insert(what);
    }

    fn cut(&mut self) {
        let b = std::mem::take(&mut self.blocks);
        self.chunks.push(b);
    }

    fn heading(&mut self, level: u8, text: &str) {
        self.blocks.push(markup::heading_html(
            self.heading,
            level,
            text,
            self.encyclopedia,
        ));
        self.gold.headings.push(Heading {
            level,
            text: text.to_string(),
        });
        let m = if self.encyclopedia {
            "encyclopedia"
        } else {
            self.heading.name()
        };
        self.gold.markups.headings.push(format!("heading:{m}"));
        self.text.push(text.to_string());
    }

    /// A paragraph of prose, with an inline formula, a sub/sup occurrence
    /// and a link where asked.
    fn paragraph(&mut self, math: Option<(MathMarkup, &Formula)>, subsup: bool) {
        let mut html = String::from("<p>");
        let mut text = String::new();
        let mut add = |h: &str, t: &str| {
            if !text.is_empty() {
                html.push(' ');
                text.push(' ');
            }
            html.push_str(h);
            text.push_str(t);
        };
        let n = self.rng.gen_range(2..=4);
        let first = Prose::sentences(self.rng, n);
        add(&esc(&first), &first);
        if let Some((m, f)) = math {
            self.math_n += 1;
            let mh = markup::math_html(m, f, false, self.math_n);
            add(
                &format!("The relation {mh} holds for every input we tried."),
                &format!("The relation {} holds for every input we tried.", f.tex),
            );
            self.gold.math.push(Math {
                tex: f.tex.to_string(),
                display: false,
            });
            self.gold.markups.math.push(format!("math:{}", m.name()));
        }
        if subsup {
            let (before, tag, inner, after) = content::pick(self.rng, SUBSUP);
            let sentence = content::pick(self.rng, SUBSUP_SENTENCES);
            let occ = format!("{before}<{tag}>{}</{tag}>{after}", esc(inner));
            let (h, t) = sentence.split_once("{}").unwrap_or((sentence, ""));
            add(
                &format!("{}{occ}{}", esc(h), esc(t)),
                &format!("{h}{before}{inner}{after}{t}"),
            );
            self.gold
                .subsup
                .push(format!("{before}<{tag}>{inner}</{tag}>{after}"));
            self.mark("subsup".into());
        }
        if self.rng.gen_bool(0.4) {
            let s = Prose::sentence(self.rng);
            let (a, b) = s.split_at(s.find(' ').unwrap_or(0));
            add(
                &format!(
                    "<em>{}</em>{} See <a href=\"/reference/{}\">the reference page</a> for details.",
                    esc(a),
                    esc(b),
                    self.rng.gen_range(1..99)
                ),
                &format!("{a}{b} See the reference page for details."),
            );
        }
        html.push_str("</p>");
        self.blocks.push(html);
        self.text.push(text);
    }

    fn list(&mut self) {
        let ordered = self.rng.gen_bool(0.35);
        let start = if ordered && self.rng.gen_bool(0.5) {
            Some(self.rng.gen_range(2..6))
        } else {
            None
        };
        let nested = self.rng.gen_bool(0.5);
        let n = self.rng.gen_range(3..=5);
        let tag = if ordered { "ol" } else { "ul" };
        let start_attr = start.map_or(String::new(), |s| format!(" start=\"{s}\""));
        let mut html = format!("<{tag}{start_attr}>");
        for i in 0..n {
            let item = Prose::phrase(self.rng);
            html.push_str(&format!("<li>{}", esc(&item)));
            self.gold.lists.push(ListItem {
                depth: 0,
                ordered,
                text: item.clone(),
            });
            self.text.push(item);
            if nested && i == 1 {
                let sub_ordered = !ordered && self.rng.gen_bool(0.3);
                let st = if sub_ordered { "ol" } else { "ul" };
                html.push_str(&format!("<{st}>"));
                for _ in 0..2 {
                    let s = Prose::phrase(self.rng);
                    html.push_str(&format!("<li>{}</li>", esc(&s)));
                    self.gold.lists.push(ListItem {
                        depth: 1,
                        ordered: sub_ordered,
                        text: s.clone(),
                    });
                    self.text.push(s);
                }
                html.push_str(&format!("</{st}>"));
            }
            html.push_str("</li>");
        }
        html.push_str(&format!("</{tag}>"));
        self.mark(format!(
            "list:{}{}",
            if ordered { "ordered" } else { "unordered" },
            if nested { "-nested" } else { "" }
        ));
        if start.is_some() {
            self.mark("list:start".into());
        }
        self.blocks.push(html);
    }

    fn code(&mut self, m: CodeMarkup) {
        self.code_n += 1;
        let sample = &SAMPLES[self.rng.gen_range(0..SAMPLES.len())];
        self.blocks.push(markup::code_html(m, sample, self.code_n));
        let text = sample.text.strip_suffix('\n').unwrap_or(sample.text);
        self.gold.code.push(Code {
            lang: m.names_language().then(|| sample.lang.to_string()),
            text: text.to_string(),
        });
        self.gold.markups.code.push(format!("code:{}", m.name()));
        self.text.extend(
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(str::to_string),
        );
        self.mark(format!("code:{}", m.name()));
    }

    fn display_math(&mut self, m: MathMarkup, f: &Formula) {
        self.math_n += 1;
        self.blocks.push(markup::math_html(m, f, true, self.math_n));
        self.gold.math.push(Math {
            tex: f.tex.to_string(),
            display: true,
        });
        self.gold.markups.math.push(format!("math:{}", m.name()));
        self.text.push(f.tex.to_string());
    }

    fn table(&mut self, m: TableMarkup) {
        let (html, table, lines) = markup::data_table(m, self.rng);
        self.blocks.push(html);
        self.gold.tables.push(table);
        self.gold.markups.tables.push(format!("table:{}", m.name()));
        self.text.extend(lines);
        self.mark(format!("table:{}", m.name()));
    }

    fn figure(&mut self, m: FigureMarkup) {
        self.image_n += 1;
        let stem = format!("{}-{}", Prose::slug(&Prose::topic(self.rng)), self.image_n);
        let alt = format!("Diagram of {}", Prose::phrase(self.rng).to_lowercase());
        let caption = format!("Figure {}: {}", self.image_n, Prose::sentence(self.rng));
        let (html, fig) = markup::figure_html(m, &self.base, &stem, &alt, &caption);
        self.blocks.push(html);
        if let Some(c) = &fig.caption {
            self.text.push(c.clone());
        }
        self.gold.figures.push(fig);
        self.gold
            .markups
            .figures
            .push(format!("figure:{}", m.name()));
        self.mark(format!("figure:{}", m.name()));
    }

    fn quote(&mut self) {
        let q = content::pick(self.rng, QUOTES);
        self.blocks
            .push(format!("<blockquote><p>{}</p></blockquote>", esc(q)));
        self.gold.quotes.push(q.to_string());
        self.text.push(q.to_string());
        self.mark("quote".into());
    }

    fn definitions(&mut self) {
        let mut all: Vec<&(&str, &str)> = DEFINITIONS.iter().collect();
        all.shuffle(self.rng);
        let n = self.rng.gen_range(2..=3);
        let mut html = String::from("<dl>");
        for (term, def) in all.into_iter().take(n) {
            html.push_str(&format!("<dt>{}</dt><dd>{}</dd>", esc(term), esc(def)));
            self.gold.definitions.push(Definition {
                term: term.to_string(),
                definition: def.to_string(),
            });
            self.text.push(term.to_string());
            self.text.push(def.to_string());
        }
        html.push_str("</dl>");
        self.blocks.push(html);
        self.mark("definitions".into());
    }
}

/// Writes one page's main content into `b` following `plan`.
fn compose<R: Rng>(b: &mut Builder<'_, R>, plan: &Plan) {
    let mut order: Vec<usize> = (0..FORMULAS.len()).collect();
    order.shuffle(b.rng);
    let formulas: Vec<&Formula> = order[..3].iter().map(|&i| &FORMULAS[i]).collect();
    let topics = Prose::topics(b.rng, 4);
    let qa = plan.template == Template::Qa;
    b.mark(format!("math:{}", plan.math.name()));
    if !b.encyclopedia {
        b.mark(format!("heading:{}", plan.heading.name()));
    }
    if plan.template == Template::News {
        b.figure(plan.figure);
    }
    let sub_intro = b.rng.gen_bool(0.35);
    b.paragraph(None, sub_intro);
    if plan.template != Template::News {
        b.figure(plan.figure);
    }
    if !qa {
        b.heading(2, &topics[0]);
        b.paragraph(None, false);
    }
    b.code(plan.code);
    b.paragraph(Some((plan.math, formulas[0])), false);
    if qa {
        b.cut();
        b.paragraph(None, false);
    }
    b.heading(2, &topics[1]);
    b.paragraph(None, false);
    b.list();
    b.heading(3, &topics[2]);
    b.paragraph(None, false);
    b.display_math(plan.math, formulas[1]);
    let sub_later = !sub_intro && b.rng.gen_bool(0.3);
    b.paragraph(Some((plan.math, formulas[2])), sub_later);
    if !plan.table.is_layout() {
        b.table(plan.table);
        b.paragraph(None, false);
    }
    if qa {
        b.cut();
        b.paragraph(None, false);
    }
    let last_level = if b.rng.gen_bool(0.5) { 2 } else { 4 };
    b.heading(last_level, &topics[3]);
    b.paragraph(None, false);
    if b.rng.gen_bool(0.4) {
        b.quote();
    }
    if b.rng.gen_bool(0.35) {
        b.definitions();
    }
    if let Some(m) = plan.second_code {
        b.code(m);
    }
    b.paragraph(None, false);
    b.cut();
}

/// The main content's chunks as HTML. With a layout table, the content
/// sits in it: all of it (one chunk), or on a Q&A page the question.
fn wrap_layout(plan: &Plan, chunks: &[Vec<String>], rng: &mut impl Rng) -> Vec<String> {
    if !plan.table.is_layout() {
        return chunks.iter().map(|b| b.concat()).collect();
    }
    if plan.template == Template::Qa {
        return chunks
            .iter()
            .enumerate()
            .map(|(i, b)| {
                if i == 0 {
                    layout_table(plan.table, b, rng)
                } else {
                    b.concat()
                }
            })
            .collect();
    }
    let all: Vec<String> = chunks.iter().flatten().cloned().collect();
    vec![layout_table(plan.table, &all, rng)]
}

/// `blocks` inside a layout table of kind `m`.
fn layout_table(m: TableMarkup, blocks: &[String], rng: &mut impl Rng) -> String {
    match m {
        TableMarkup::LayoutOneCell => format!(
            "<table width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\"><tr><td class=\"content\" valign=\"top\">{}</td></tr></table>",
            blocks.concat()
        ),
        TableMarkup::LayoutOneColumn => {
            let rows: String = blocks
                .iter()
                .map(|b| format!("<tr><td>{b}</td></tr>"))
                .collect();
            format!("<table width=\"100%\" class=\"layout\" border=\"0\">{rows}</table>")
        }
        _ => {
            let links: String = (0..6)
                .map(|_| {
                    let t = Prose::topic(rng);
                    format!("<a href=\"/{}\">{}</a><br>", Prose::slug(&t), esc(&t))
                })
                .collect();
            format!(
                "<table width=\"100%\" border=\"0\"><tr><td width=\"180\" valign=\"top\" class=\"leftnav\"><b>Sections</b><br>{links}</td><td valign=\"top\">{}</td></tr></table>",
                blocks.concat()
            )
        }
    }
}

/// Generates the pages: `per_folder` of each template, from `seed`.
pub fn generate(seed: u64, per_folder: usize) -> Vec<Page> {
    let total = per_folder * Template::ALL.len();
    let mut deal_rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let code = deal(&mut deal_rng, CodeMarkup::ALL.len(), total);
    let second = deal(&mut deal_rng, CodeMarkup::ALL.len(), total);
    let math = deal(&mut deal_rng, MathMarkup::ALL.len(), total);
    let table = deal_tables(&mut deal_rng, total);
    let figure = deal(&mut deal_rng, FigureMarkup::ALL.len(), total);
    let heading = deal(&mut deal_rng, HeadingMarkup::ALL.len(), total);
    let mut pages = Vec::with_capacity(total);
    for (t, &template) in Template::ALL.iter().enumerate() {
        for index in 0..per_folder {
            let g = t * per_folder + index;
            let plan = Plan {
                template,
                index,
                code: CodeMarkup::ALL[code[g]],
                // A second code block on a third of the pages.
                second_code: g.is_multiple_of(3).then(|| CodeMarkup::ALL[second[g]]),
                math: MathMarkup::ALL[math[g]],
                table: TableMarkup::ALL[table[g]],
                figure: FigureMarkup::ALL[figure[g]],
                heading: HeadingMarkup::ALL[heading[g]],
            };
            // Each page's own stream: the same page whatever the others.
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(
                seed ^ (g as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            );
            pages.push(build_page(&plan, &mut rng));
        }
    }
    pages
}

/// One page from its plan.
fn build_page(plan: &Plan, rng: &mut Xoshiro256PlusPlus) -> Page {
    let title = Prose::title(rng);
    let author = Prose::name(rng);
    let url = plan.template.url(plan.index, &title);
    let base = url::Url::parse(&url).expect("the templates' addresses are absolute");
    let mut b = Builder {
        rng,
        base,
        encyclopedia: plan.template == Template::Encyclopedia,
        heading: plan.heading,
        blocks: Vec::new(),
        chunks: Vec::new(),
        text: vec![title.clone()],
        gold: Gold {
            scope: Construct::all_names(),
            complete: true,
            headings: vec![Heading {
                level: 1,
                text: title.clone(),
            }],
            markups: super::Markups {
                headings: vec!["heading:title".to_string()],
                ..super::Markups::default()
            },
            ..Gold::default()
        },
        constructs: BTreeSet::new(),
        code_n: 0,
        math_n: 0,
        image_n: 0,
    };
    compose(&mut b, plan);
    if plan.table.is_layout() {
        b.gold.layout_tables = 1;
        b.gold.markups.layout = Some(format!("table:{}", plan.table.name()));
        b.mark(format!("table:{}", plan.table.name()));
    }
    let Builder {
        rng,
        chunks,
        text,
        gold,
        constructs,
        ..
    } = b;
    let html_chunks = wrap_layout(plan, &chunks, rng);
    let meta = templates::Meta {
        title: &title,
        url: &url,
        author: &author,
    };
    let html = templates::page(plan.template, &meta, &html_chunks, rng);
    Page {
        id: format!("{}-{:03}", plan.template.name(), plan.index),
        url,
        template: plan.template,
        constructs,
        html,
        gold_text: text.join("\n") + "\n",
        gold,
    }
}

/// Writes the generated pages under `out` (one folder per template, the
/// dev datasets' layout); returns how many pages were written.
pub fn write(out: &Path, seed: u64, per_folder: usize) -> Result<usize, EvalError> {
    let pages = generate(seed, per_folder);
    for template in Template::ALL {
        let dir = out.join(template.folder());
        for sub in ["pages", "gold", super::STRUCTURE_DIR] {
            let d = dir.join(sub);
            std::fs::create_dir_all(&d).map_err(|e| EvalError::io(&d, e))?;
        }
        let mut manifest = String::new();
        for p in pages.iter().filter(|p| p.template == template) {
            let path = dir.join("pages").join(format!("{}.html.gz", p.id));
            let file = std::fs::File::create(&path).map_err(|e| EvalError::io(&path, e))?;
            let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
            gz.write_all(p.html.as_bytes())
                .and_then(|()| gz.finish().map(drop))
                .map_err(|e| EvalError::io(&path, e))?;
            let gold = dir.join("gold").join(format!("{}.txt", p.id));
            std::fs::write(&gold, &p.gold_text).map_err(|e| EvalError::io(&gold, e))?;
            super::write_gold(&dir, &p.id, &p.gold)?;
            let line = serde_json::json!({
                "id": p.id,
                "url": p.url,
                "lang": "en",
                "source": format!("unchaff structure generator, seed {seed}"),
                "template": template.name(),
                "constructs": p.constructs.iter().collect::<Vec<_>>(),
            });
            manifest.push_str(&line.to_string());
            manifest.push('\n');
        }
        let m = dir.join("manifest.jsonl");
        std::fs::write(&m, manifest).map_err(|e| EvalError::io(&m, e))?;
        let readme = dir.join("SOURCE.md");
        std::fs::write(
            &readme,
            format!(
                "# {}\n\nGenerated by `unchaff structure generate` (seed {seed}, {per_folder} pages per template): \
                 pages written for the structure benchmark, with their gold text (`gold/`) and structure gold \
                 (`structure/`). See crates/eval/src/structure/generate/.\n",
                template.folder()
            ),
        )
        .map_err(|e| EvalError::io(&readme, e))?;
    }
    Ok(pages.len())
}

#[cfg(test)]
mod tests;
