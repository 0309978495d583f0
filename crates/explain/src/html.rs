//! The report as one self-contained HTML file: inline CSS and SVG, no
//! script, no fetch (a `Content-Security-Policy` meta tag forbids both),
//! every byte from the page escaped.

use std::fmt::Write;

use crate::{Block, Kept, Report};

/// The policy of the report: nothing loads, nothing runs, only the inline
/// style applies. A second line of defence behind the escaping.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; \
                       form-action 'none'; base-uri 'none'";

/// Width of the overview chart's drawing, in SVG units.
const CHART_W: f32 = 1000.0;
/// Height of each of the overview's two panels.
const PANEL_H: f32 = 90.0;
/// Room for axis labels at the left of the overview.
const AXIS_W: f32 = 46.0;
/// Consecutive dropped blocks folded into one collapsed group: fewer are
/// shown one by one (a run of navigation links is one line until opened).
const MIN_RUN: usize = 3;
/// Characters of a block's text shown in its folded summary.
const SNIPPET_CHARS: usize = 110;
/// Width of a block's contribution chart.
const WHY_W: f32 = 330.0;
/// Height of one row of a block's contribution chart.
const ROW_H: f32 = 15.0;
/// Width of the feature labels in a block's contribution chart.
const LABEL_W: f32 = 170.0;

/// Blocks shown one by one in a report; the rest are summed up in one
/// line. A block is about 2.5 KB of report: a page of 200,000 blocks made
/// a 0.5 GB report (issue 41). The dev data's most is 6,100 blocks; a
/// reader looks at the first few thousand at most, and the extracted text
/// beside them is whole.
pub const MAX_SHOWN_BLOCKS: usize = 3_000;

/// Bars of the overview chart at most (1,000 units wide): past it, each
/// bar stands for a run of consecutive blocks.
const MAX_BARS: usize = 1_000;

const STYLE: &str = r#"
:root{--kept:#1a7f37;--kept-bg:#e8f5ec;--drop:#8c959f;--drop-bg:#f6f8fa;--part:#bf8700;--part-bg:#fff8e1;--neg:#cf222e;--ink:#1f2328;--mute:#59636e;--line:#d0d7de}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:#fff}
header{padding:18px 28px 10px;border-bottom:1px solid var(--line);background:#f6f8fa}
h1{font-size:20px;margin:0 0 6px}
h2{font-size:15px;margin:0 0 8px}
.meta{color:var(--mute);display:flex;flex-wrap:wrap;gap:4px 18px}
.meta b{color:var(--ink);font-weight:600}
.overview{padding:12px 28px 4px}
.overview svg{width:100%;height:auto;display:block}
.legend{color:var(--mute);font-size:12px;display:flex;gap:16px;margin:2px 0 6px}
.sw{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px;vertical-align:-1px}
.cols{display:grid;grid-template-columns:minmax(0,1.55fr) minmax(0,1fr);gap:20px;padding:8px 28px 28px}
.block{border:1px solid var(--line);border-left:5px solid var(--drop);border-radius:6px;margin:0 0 6px;background:var(--drop-bg)}
.run{border:1px dashed var(--line);border-radius:6px;margin:0 0 6px;padding:0 8px;background:#fbfbfc}
.run>summary{cursor:pointer;padding:6px 2px;color:var(--mute);font-size:12px}
.run[open]>summary{margin-bottom:4px}
summary{list-style-position:inside}
.snippet{color:var(--mute);overflow:hidden;text-overflow:ellipsis;white-space:nowrap;flex:1 1 200px;min-width:0}
details[open]>summary .snippet{display:none}
.block.kept{border-left-color:var(--kept);background:var(--kept-bg)}
.block.partly{border-left-color:var(--part);background:var(--part-bg)}
.head{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 12px;padding:5px 10px;font-size:12px;color:var(--mute);cursor:pointer}
details[open]>.head{border-bottom:1px solid var(--line)}
.idx{font-weight:700;color:var(--ink)}
.badge{font-weight:700;text-transform:uppercase;letter-spacing:.04em;font-size:11px;padding:0 6px;border-radius:8px;color:#fff;background:var(--drop)}
.kept .badge{background:var(--kept)}
.partly .badge{background:var(--part)}
.path{font:11px/1.3 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:var(--mute);overflow-wrap:anywhere}
.body{display:flex;gap:12px;padding:7px 10px}
.text{flex:1;min-width:0;max-height:9.5em;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.dropped .text{color:var(--mute)}
.why{flex:none;width:330px}
.why svg{display:block}
.extracted{position:sticky;top:8px;align-self:start;max-height:calc(100vh - 16px);overflow:auto;border:1px solid var(--line);border-radius:6px;padding:10px 14px;background:#fff}
.out{overflow-wrap:anywhere;font:13px/1.5 Georgia,"DejaVu Serif",serif}
.out p{margin:0 0 .55em;white-space:pre-wrap}
.note{color:var(--mute);font-size:12px}
svg text{font:10px system-ui,"DejaVu Sans",sans-serif;fill:var(--mute)}
svg .lab{fill:var(--ink)}
"#;

/// Escapes text for HTML content and attribute values.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Controls other than tab and newline have no business in a
            // report (and some are not allowed in HTML).
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The colour of a block's fate.
fn colour(k: Kept) -> &'static str {
    match k {
        Kept::Yes => "#1a7f37",
        Kept::Partly => "#bf8700",
        Kept::No => "#afb8c1",
    }
}

/// The scale that maps the report's scores onto 0..1: probabilities as
/// they are, other algorithms' scores between their page minimum and
/// maximum.
fn score_scale(r: &Report) -> impl Fn(f32) -> f32 {
    let bounded = r.threshold.is_some();
    let (lo, hi) = r
        .blocks
        .iter()
        .filter_map(|b| b.score)
        .filter(|s| s.is_finite())
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(a, b), s| {
            (a.min(s), b.max(s))
        });
    move |s: f32| {
        if !s.is_finite() {
            0.0
        } else if bounded {
            s.clamp(0.0, 1.0)
        } else if hi > lo {
            ((s - lo) / (hi - lo)).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }
}

/// The report as one HTML document.
pub fn render_html(r: &Report) -> String {
    let mut o = String::with_capacity(4096 + r.text.len() * 3);
    let title = r.title.as_deref().unwrap_or("(untitled page)");
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <meta name=\"generator\" content=\"unchaff explain\">\
         <title>unchaff explain: {}</title><style>{STYLE}</style></head>\n<body>\n",
        esc(title)
    );
    header(&mut o, r, title);
    overview(&mut o, r);
    o.push_str("<main class=\"cols\"><div class=\"blocks\">\n");
    let scale = score_scale(r);
    let shown = &r.blocks[..r.blocks.len().min(MAX_SHOWN_BLOCKS)];
    let mut k = 0;
    while k < shown.len() {
        let run = shown[k..].iter().take_while(|b| b.kept == Kept::No).count();
        if run >= MIN_RUN {
            let chars: u64 = r.blocks[k..k + run].iter().map(|b| b.chars as u64).sum();
            let _ = writeln!(
                o,
                "<details class=\"run\"><summary>blocks {}–{}: {run} dropped, {chars} characters \
                 (open to see them)</summary>",
                k,
                k + run - 1
            );
            for b in &shown[k..k + run] {
                block(&mut o, r, b, &scale);
            }
            o.push_str("</details>\n");
            k += run;
        } else {
            block(&mut o, r, &shown[k], &scale);
            k += 1;
        }
    }
    let rest = &r.blocks[shown.len()..];
    if !rest.is_empty() {
        let kept = rest.iter().filter(|b| b.kept != Kept::No).count();
        let chars: u64 = rest.iter().map(|b| b.chars as u64).sum();
        let _ = writeln!(
            o,
            "<p class=\"note\">blocks {}–{}: {} more blocks, {kept} of them kept, {chars} \
             characters, not shown one by one (a report shows the first {MAX_SHOWN_BLOCKS}); \
             the extracted text beside is whole.</p>",
            shown.len(),
            r.blocks.len() - 1,
            rest.len()
        );
    }
    if r.blocks.is_empty() {
        o.push_str("<p class=\"note\">The page has no text blocks.</p>");
    }
    let _ = write!(
        o,
        "</div>\n<aside class=\"extracted\"><h2>Extracted text</h2>\
         <p class=\"note\">{} characters, as <code>unchaff extract</code> writes it.</p>\
         <div class=\"out\">",
        r.text.chars().count(),
    );
    for line in r.text.lines() {
        let _ = write!(o, "<p>{}</p>", esc(line));
    }
    o.push_str("</div></aside></main>\n</body></html>\n");
    o
}

fn header(o: &mut String, r: &Report, title: &str) {
    let total: u64 = r.blocks.iter().map(|b| b.chars as u64).sum();
    let kept: u64 = r
        .blocks
        .iter()
        .filter(|b| b.kept != Kept::No)
        .map(|b| b.chars as u64)
        .sum();
    let params = if r.params.is_empty() {
        "defaults".to_owned()
    } else {
        r.params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = write!(
        o,
        "<header><h1>Why these blocks? <span style=\"font-weight:400\">{}</span></h1>\
         <div class=\"meta\"><span>URL <b>{}</b></span><span>algorithm <b>{}</b> ({})</span>",
        esc(title),
        esc(r.url.as_deref().unwrap_or("(none given)")),
        esc(r.algorithm.name()),
        esc(&params)
    );
    if let Some(t) = r.threshold {
        let _ = write!(o, "<span>kept from probability <b>{t:.2}</b></span>");
    }
    let _ = write!(
        o,
        "<span><b>{}</b> of {} blocks kept</span><span><b>{kept}</b> of {total} characters</span>\
         <span>charset <b>{}</b></span></div>",
        r.kept_count(),
        r.blocks.len(),
        esc(&r.charset)
    );
    let why = if r.threshold.is_some() {
        "Each block shows the probability of content the model gave it and the features that \
         moved it most: their contributions to the margin (log-odds), summed along every tree's \
         decision path, for the block stage (its own features) and the context stage (its \
         neighbours' probabilities)."
    } else if r.text_override {
        "This algorithm writes its text from source lines, not from blocks: a block counts as \
         kept when its text is in the extraction."
    } else {
        "Each block shows the algorithm's score of its element (in the algorithm's own unit; \
         the charts scale it between the page's lowest and highest)."
    };
    let _ = writeln!(o, "<p class=\"note\">{why}</p></header>");
}

/// The page-wide chart: score and text density per block, in reading
/// order; every bar links to its block.
fn overview(o: &mut String, r: &Report) {
    let n = r.blocks.len().max(1);
    let scale = score_scale(r);
    let max_density = r
        .blocks
        .iter()
        .map(|b| b.density)
        .fold(0f32, f32::max)
        .max(1.0);
    // One bar a block, or a run of blocks on a long page.
    let per_bar = n.div_ceil(MAX_BARS);
    let w = (CHART_W - AXIS_W) / n.div_ceil(per_bar) as f32;
    let gap = if w > 3.0 { 1.0 } else { 0.0 };
    let h = PANEL_H * 2.0 + 34.0;
    let _ = write!(
        o,
        "<section class=\"overview\"><h2>Along the page</h2>\
         <svg viewBox=\"0 0 {CHART_W} {h}\" role=\"img\" aria-label=\"score and text density of every block\">"
    );
    let top = 4.0;
    let bottom_top = top + PANEL_H + 16.0;
    let score_name = if r.threshold.is_some() {
        "probability"
    } else {
        "score"
    };
    let _ = write!(
        o,
        "<text x=\"0\" y=\"{}\">{score_name}</text><text x=\"0\" y=\"{}\">density</text>\
         <line x1=\"{AXIS_W}\" y1=\"{}\" x2=\"{CHART_W}\" y2=\"{}\" stroke=\"#d0d7de\"/>\
         <line x1=\"{AXIS_W}\" y1=\"{}\" x2=\"{CHART_W}\" y2=\"{}\" stroke=\"#d0d7de\"/>",
        top + 10.0,
        bottom_top + 10.0,
        top + PANEL_H,
        top + PANEL_H,
        bottom_top + PANEL_H,
        bottom_top + PANEL_H
    );
    // A run's bar: the highest score and density of the run; kept when
    // any of it is.
    let bars = r.blocks.chunks(per_bar).map(|run| {
        let first = &run[0];
        let mut bar = first.clone();
        bar.score = run.iter().filter_map(|b| b.score).reduce(f32::max);
        bar.density = run.iter().map(|b| b.density).fold(0f32, f32::max);
        bar.kept = match run.iter().find(|b| b.kept != Kept::No) {
            Some(b) => b.kept,
            None => Kept::No,
        };
        bar
    });
    for (j, b) in bars.enumerate() {
        let i = j * per_bar;
        let x = AXIS_W + j as f32 * w;
        let s = b.score.map_or(0.0, &scale);
        let sh = (s * PANEL_H).max(0.5);
        // Square root: a few dense blocks would flatten the rest.
        let dh = ((b.density / max_density).sqrt() * PANEL_H).max(0.5);
        let _ = write!(
            o,
            "<a href=\"#b{i}\"><title>block {i} ({}): {} {}, density {:.1}</title>\
             <rect x=\"{x:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{sh:.2}\" fill=\"{}\"/>\
             <rect x=\"{x:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{dh:.2}\" fill=\"{}\" opacity=\"0.75\"/></a>",
            b.kept.as_str(),
            score_name,
            b.score.map_or("-".to_owned(), |s| format!("{s:.3}")),
            b.density,
            top + PANEL_H - sh,
            (w - gap).max(0.3),
            colour(b.kept),
            bottom_top + PANEL_H - dh,
            (w - gap).max(0.3),
            colour(b.kept),
        );
    }
    if let Some(t) = r.threshold {
        let y = top + PANEL_H - scale(t) * PANEL_H;
        let _ = write!(
            o,
            "<line x1=\"{AXIS_W}\" y1=\"{y:.2}\" x2=\"{CHART_W}\" y2=\"{y:.2}\" stroke=\"#cf222e\" \
             stroke-dasharray=\"5 4\"/><text x=\"{}\" y=\"{:.2}\" style=\"fill:#cf222e\">{t:.2}</text>",
            AXIS_W - 26.0,
            y + 3.0
        );
    }
    let _ = write!(
        o,
        "<text x=\"{AXIS_W}\" y=\"{}\">block 0</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">block {} (reading order)</text>\
         <text x=\"0\" y=\"{}\">max {:.0}</text></svg>",
        h - 2.0,
        CHART_W,
        h - 2.0,
        n - 1,
        bottom_top + 22.0,
        max_density
    );
    o.push_str(
        "<div class=\"legend\"><span><span class=\"sw\" style=\"background:#1a7f37\"></span>kept</span>\
         <span><span class=\"sw\" style=\"background:#bf8700\"></span>partly kept</span>\
         <span><span class=\"sw\" style=\"background:#afb8c1\"></span>dropped</span>\
         <span>top: the algorithm's score; bottom: text density (characters per tag, square-root scale); \
         click a bar to go to its block</span></div></section>\n",
    );
}

fn block(o: &mut String, r: &Report, b: &Block, scale: &impl Fn(f32) -> f32) {
    let class = match b.kept {
        Kept::Yes => "kept",
        Kept::Partly => "partly",
        Kept::No => "dropped",
    };
    let _ = write!(
        o,
        "<details class=\"block {class}\" id=\"b{i}\" data-block=\"{i}\" data-kept=\"{class}\"{}>\
         <summary class=\"head\"><span class=\"idx\">#{i}</span><span class=\"badge\">{}</span>",
        if b.kept == Kept::No { "" } else { " open" },
        b.kept.as_str(),
        i = b.index
    );
    if let Some(s) = b.score {
        let name = if r.threshold.is_some() { "p" } else { "score" };
        let _ = write!(o, "<span>{name} <b>{s:.3}</b></span>");
    }
    if let Some(p1) = b.block_stage {
        let _ = write!(o, "<span>block stage {p1:.3}</span>");
    }
    let _ = write!(
        o,
        "<span>{} chars · density {:.1}</span><span class=\"path\">{}</span>\
         <span class=\"snippet\">{}</span></summary>\
         <div class=\"body\"><div class=\"text\">{}</div>",
        b.chars,
        b.density,
        esc(&short_path(&b.path)),
        esc(&snippet(&b.text)),
        esc(&b.text)
    );
    o.push_str("<div class=\"why\">");
    why_chart(o, r, b, scale);
    o.push_str("</div></div></details>\n");
}

/// The start of a block's text, for its folded summary.
fn snippet(text: &str) -> String {
    match text.char_indices().nth(SNIPPET_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

/// The last tags of a path: the end says what the block is.
fn short_path(path: &str) -> String {
    const KEEP: usize = 5;
    let parts: Vec<&str> = path.split('/').collect();
    if parts.len() <= KEEP {
        return path.to_owned();
    }
    format!("…/{}", parts[parts.len() - KEEP..].join("/"))
}

/// A block's small chart: its score on a 0..1 gauge (with the threshold),
/// then its reasons as bars to the left (towards noise) or the right
/// (towards content).
fn why_chart(o: &mut String, r: &Report, b: &Block, scale: &impl Fn(f32) -> f32) {
    let rows = b.reasons.len();
    let h = 22.0 + rows as f32 * ROW_H + if rows > 0 { 14.0 } else { 0.0 };
    let _ = write!(
        o,
        "<svg width=\"{WHY_W}\" height=\"{h}\" viewBox=\"0 0 {WHY_W} {h}\">"
    );
    // The gauge.
    let gx = 40.0;
    let gw = WHY_W - gx - 4.0;
    let s = b.score.map_or(0.0, scale);
    let _ = write!(
        o,
        "<text x=\"0\" y=\"12\">{}</text><rect x=\"{gx}\" y=\"4\" width=\"{gw}\" height=\"10\" rx=\"2\" fill=\"#eaeef2\"/>\
         <rect x=\"{gx}\" y=\"4\" width=\"{:.1}\" height=\"10\" rx=\"2\" fill=\"{}\"/>",
        if r.threshold.is_some() { "p" } else { "score" },
        (s * gw).max(0.5),
        colour(b.kept)
    );
    if let Some(t) = r.threshold {
        let x = gx + scale(t) * gw;
        let _ = write!(
            o,
            "<line x1=\"{x:.1}\" y1=\"1\" x2=\"{x:.1}\" y2=\"17\" stroke=\"#cf222e\" stroke-width=\"1.5\"/>"
        );
    }
    if rows > 0 {
        let max = b
            .reasons
            .iter()
            .map(|x| x.contribution.abs())
            .fold(0f32, f32::max)
            .max(1e-6);
        let bx = LABEL_W + 4.0;
        let half = (WHY_W - bx) / 2.0;
        let mid = bx + half;
        let y0 = 30.0;
        let _ = write!(
            o,
            "<text x=\"{bx}\" y=\"{}\">← noise</text><text x=\"{WHY_W}\" y=\"{}\" text-anchor=\"end\">content →</text>",
            y0 - 4.0,
            y0 - 4.0
        );
        for (k, x) in b.reasons.iter().enumerate() {
            let y = y0 + k as f32 * ROW_H;
            let len = x.contribution.abs() / max * (half - 2.0);
            let (rx, fill) = if x.contribution >= 0.0 {
                (mid, "#1a7f37")
            } else {
                (mid - len, "#cf222e")
            };
            let stage = if x.stage == "context" { "ctx " } else { "" };
            let _ = write!(
                o,
                "<text class=\"lab\" x=\"0\" y=\"{:.1}\">{stage}{} = {}</text>\
                 <rect x=\"{rx:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\"><title>{} {}: {:+.3}</title></rect>",
                y + 10.0,
                esc(x.feature),
                fmt_value(x.value),
                y + 2.0,
                len.max(0.5),
                ROW_H - 4.0,
                x.stage,
                esc(x.feature),
                x.contribution
            );
        }
        let _ = write!(
            o,
            "<line x1=\"{mid}\" y1=\"{}\" x2=\"{mid}\" y2=\"{}\" stroke=\"#8c959f\"/>",
            y0,
            y0 + rows as f32 * ROW_H
        );
    }
    o.push_str("</svg>");
}

/// A feature value, short.
fn fmt_value(v: f32) -> String {
    if !v.is_finite() {
        "-".to_owned()
    } else if v == v.trunc() && v.abs() < 1e6 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}
