//! Formulas, read as TeX. Pages write math in many ways, and most of them
//! leave no text a reader's copy would keep: MathML's token elements hold
//! single letters, MathJax 2 keeps the source in a `<script type="math/tex">`
//! the cleaner drops, KaTeX and MathJax 3 pair a MathML copy for screen
//! readers with spans of glyphs that are `aria-hidden`, an encyclopedia
//! hides its MathML with `display: none` and shows an image whose `alt`
//! holds the TeX, and pages typeset on the client keep `\(…\)` in their
//! text (or `$…$`, on pages that write display math as `$$…$$`). Before anything is removed, `rewrite` turns each formula, in
//! whichever of these forms, into one element
//!
//! ```text
//! <math display="inline|block">TeX</math>
//! ```
//!
//! in the formula's place: the writers print the TeX (between `$` or `$$`
//! in Markdown), and the HTML writer the page's MathML where there was
//! one (`Dom::math_sources`).
//!
//! The TeX is the formula's own where the page has it (a TeX annotation,
//! the MathJax source, the fallback image's `alt`, the `alttext`), else a
//! conversion of the MathML (`mathml_to_tex`) element by element.

use memchr::memmem;
use std::sync::OnceLock;

use super::next_preorder;
use crate::dom::{Dom, ElementData, NodeId, NodeKind, Ns, Tag};

/// Longest TeX kept for one formula; longer ones are cut at a character
/// boundary. Real formulas are well under a kilobyte (a page-long
/// `align` a few); the cap bounds what a hostile `<math>` can make.
pub const MAX_TEX_BYTES: usize = 16 * 1024;

/// Most formulas read on one page; past it, the rest stay as the page has
/// them (and the cleaner empties them as before). Long mathematical
/// articles hold a few thousand.
pub const MAX_FORMULAS: usize = 20_000;

/// Longest formula read from raw `\(…\)`, `\[…\]` or `$$…$$` text: a
/// pair of delimiters farther apart is prose that happens to contain them.
pub const MAX_RAW_TEX: usize = 2_000;

/// Attribute values that say a page has math in one of the forms read
/// here (class names, script types, image classes): without any of them,
/// and without a `<math>` element or raw delimiters in the text, the page
/// is not walked at all.
const MARKERS: &[&str] = &["katex", "MathJax", "mwe-math", "math/tex", "latex", "mjx-"];

/// Raw delimiters of client-side typesetting, searched in the page's text.
const RAW_OPENERS: &[&str] = &["\\(", "\\[", "$$"];

/// Searchers for `needles`, built once: a SIMD substring search a needle
/// is many times cheaper over a page's attributes than one automaton of
/// them all (whose prefilter fires on every "mat" and "lat").
fn finders(needles: &'static [&'static str]) -> Vec<memmem::Finder<'static>> {
    needles
        .iter()
        .map(|n| memmem::Finder::new(n.as_bytes()))
        .collect()
}

fn markers() -> &'static [memmem::Finder<'static>] {
    static M: OnceLock<Vec<memmem::Finder<'static>>> = OnceLock::new();
    M.get_or_init(|| finders(MARKERS))
}

fn raw_openers() -> &'static [memmem::Finder<'static>] {
    static M: OnceLock<Vec<memmem::Finder<'static>>> = OnceLock::new();
    M.get_or_init(|| finders(RAW_OPENERS))
}

/// Whether `hay` holds any of the `finders`' needles.
fn holds_any(finders: &[memmem::Finder<'_>], hay: &str) -> bool {
    finders.iter().any(|f| f.find(hay.as_bytes()).is_some())
}

/// Whether `hay` holds a raw opener ([`RAW_OPENERS`]): one pass for the
/// two bytes they begin with, each found one checked for the byte after
/// it, instead of a substring search an opener. Most pages have neither
/// byte in their text, or few.
fn holds_raw_opener(hay: &str) -> bool {
    let b = hay.as_bytes();
    memchr::memchr2_iter(b'\\', b'$', b).any(|i| {
        matches!(
            (b[i], b.get(i + 1)),
            (b'\\', Some(b'(' | b'[')) | (b'$', Some(b'$'))
        )
    })
}

/// The first raw opener in `hay`: its offset and which it is.
fn first_opener(hay: &str) -> Option<(usize, &'static str)> {
    raw_openers()
        .iter()
        .zip(RAW_OPENERS)
        .filter_map(|(f, &o)| f.find(hay.as_bytes()).map(|at| (at, o)))
        .min_by_key(|&(at, _)| at)
}

/// One formula found: the element it replaces, its TeX, how it is shown,
/// and the page's MathML for it.
struct Found {
    wrapper: NodeId,
    tex: String,
    display: bool,
    mathml: Option<NodeId>,
}

/// Rewrites every formula under `root` as a `<math display>` element
/// holding its TeX (module docs); returns how many.
pub(crate) fn rewrite(dom: &mut Dom, root: NodeId) -> usize {
    let has_math_element = dom.nodes.iter().any(|n| match &n.kind {
        NodeKind::Element(e) => e.tag == Tag::MATH,
        _ => false,
    });
    let marked = has_math_element || holds_any(markers(), &dom.attr_text);
    let raw = holds_raw_opener(&dom.text);
    if !marked && !raw {
        return 0;
    }
    let mut found = Vec::new();
    let mut doomed = Vec::new();
    let mut emptied = Vec::new();
    if marked {
        collect(dom, root, &mut found, &mut doomed, &mut emptied);
    }
    let n = found.len();
    for f in found {
        replace(dom, f);
    }
    dom.math_sources.sort_unstable_by_key(|&(m, _)| m);
    dom.detach_all(&doomed);
    // MathML not read (no TeX came of it, or past the cap) is drawing
    // instructions, not text.
    for m in emptied {
        while let Some(c) = dom.node(m).first_child.some() {
            dom.detach(c);
        }
    }
    n + if raw {
        rewrite_raw(dom, root, MAX_FORMULAS - n.min(MAX_FORMULAS))
    } else {
        0
    }
}

/// Whether `id`'s class attribute holds the token `class`.
fn has_class(dom: &Dom, id: NodeId, class: &str) -> bool {
    dom.attr(id, "class")
        .is_some_and(|c| c.split_ascii_whitespace().any(|t| t == class))
}

/// Whether any class token of `id` is one of `classes` (exactly: the
/// renderers' class names have their case, and a page's own `mathjax`
/// class on an abstract is not MathJax's output).
fn has_any_class(dom: &Dom, id: NodeId, classes: &[&str]) -> bool {
    dom.attr(id, "class")
        .is_some_and(|c| c.split_ascii_whitespace().any(|t| classes.contains(&t)))
}

/// The classes of the elements MathJax 2 renders beside its source
/// script (and, without the script, around an assistive MathML copy).
const MATHJAX2_FRAMES: &[&str] = &[
    "MathJax",
    "MathJax_Display",
    "MathJax_SVG",
    "MathJax_SVG_Display",
    "MathJax_CHTML",
    "MathJax_MathML",
    "MJXc-display",
    "mjx-chtml",
];

/// Image classes of formulas drawn as pictures with their TeX in `alt`:
/// the encyclopedia's fallback images, blog engines' LaTeX images.
const TEX_IMAGES: &[&str] = &[
    "mwe-math-fallback-image-inline",
    "mwe-math-fallback-image-display",
    "latex",
    "tex",
    "LaTeX",
];

/// Finds the formulas under `root` (a pre-order walk that does not enter
/// a formula it found), the rendered copies to drop, and the `<math>`
/// elements to empty (read as nothing, or past [`MAX_FORMULAS`]).
fn collect(
    dom: &Dom,
    root: NodeId,
    found: &mut Vec<Found>,
    doomed: &mut Vec<NodeId>,
    emptied: &mut Vec<NodeId>,
) {
    let mut frames = Vec::new();
    let mut previews = Vec::new();
    let mut scripts = false;
    let mut next = root.some();
    while let Some(id) = next {
        let mut skip = false;
        if found.len() >= MAX_FORMULAS {
            if dom.is(id, Tag::MATH) {
                emptied.push(id);
                skip = true;
            }
        } else if let Some(tag) = dom.tag(id) {
            let name = dom.tag_name(tag);
            if tag == Tag::SCRIPT {
                let ty = dom.attr(id, "type").unwrap_or("").to_ascii_lowercase();
                if ty.trim_start().starts_with("math/tex") {
                    scripts = true;
                    let tex = dom
                        .children(id)
                        .filter_map(|c| dom.text_of(c))
                        .collect::<String>();
                    push(found, id, &tex, ty.contains("mode=display"), None);
                }
                skip = true;
            } else if tag == Tag::MATH {
                let display = dom
                    .attr(id, "display")
                    .is_some_and(|d| d.trim().eq_ignore_ascii_case("block"));
                if !push(found, id, &tex_of_mathml(dom, id), display, Some(id)) {
                    emptied.push(id);
                }
                skip = true;
            } else if name == "mjx-container" {
                // MathJax 3: glyphs, and an assistive MathML copy.
                let display = dom.attr(id, "display").is_some_and(|d| d.trim() == "true");
                skip = wrapped(dom, id, display, found);
            } else if has_class(dom, id, "katex-display") {
                skip = wrapped(dom, id, true, found);
            } else if has_class(dom, id, "katex") {
                skip = wrapped(dom, id, false, found);
            } else if has_class(dom, id, "mwe-math-element") {
                let display = dom.descendants(id).any(|d| {
                    has_any_class(
                        dom,
                        d,
                        &["mwe-math-mathml-display", "mwe-math-fallback-image-display"],
                    )
                });
                skip = wrapped(dom, id, display, found);
            } else if has_class(dom, id, "MathJax_Preview") {
                previews.push(id);
                skip = true;
            } else if has_any_class(dom, id, MATHJAX2_FRAMES)
                || dom
                    .attr(id, "id")
                    .is_some_and(|v| v.starts_with("MathJax-Element-"))
            {
                frames.push(id);
                skip = true;
            } else if tag == Tag::IMG
                && has_any_class(dom, id, TEX_IMAGES)
                && let Some(alt) = dom.attr(id, "alt").filter(|a| !a.trim().is_empty())
            {
                let display = dom.attr(id, "class").is_some_and(|c| c.contains("display"));
                push(found, id, alt, display, None);
            }
        }
        next = next_preorder(dom, root, id, skip);
    }
    if scripts {
        // The source scripts are the formulas: their rendered copies go.
        doomed.extend(frames);
        doomed.extend(previews);
    } else {
        // No source: a rendered copy's assistive MathML is the formula;
        // anything else stays as the page has it.
        for f in frames {
            let display = has_any_class(dom, f, &["MathJax_Display", "MJXc-display"])
                || dom
                    .children(f)
                    .any(|c| has_any_class(dom, c, &["MathJax_Display", "MJXc-display"]));
            wrapped(dom, f, display, found);
        }
    }
}

/// A formula wrapped in rendering markup (KaTeX, MathJax 3, the
/// encyclopedia's): its TeX from the MathML inside, else from a TeX image's
/// `alt`. Whether one was found.
fn wrapped(dom: &Dom, wrapper: NodeId, display: bool, found: &mut Vec<Found>) -> bool {
    if let Some(m) = dom.descendants(wrapper).find(|&d| dom.is(d, Tag::MATH))
        && push(found, wrapper, &tex_of_mathml(dom, m), display, Some(m))
    {
        return true;
    }
    let alt = dom
        .descendants(wrapper)
        .filter(|&d| dom.is(d, Tag::IMG))
        .find_map(|d| dom.attr(d, "alt").filter(|a| !a.trim().is_empty()));
    alt.is_some_and(|a| push(found, wrapper, a, display, None))
}

/// Records a formula with TeX `tex` (normalized); whether it had any.
fn push(
    found: &mut Vec<Found>,
    wrapper: NodeId,
    tex: &str,
    display: bool,
    mathml: Option<NodeId>,
) -> bool {
    let tex = normalize_tex(tex);
    let any = !tex.is_empty();
    if any {
        found.push(Found {
            wrapper,
            tex,
            display,
            mathml,
        });
    }
    any
}

/// TeX as the writers print it: white space collapsed, a
/// `{\displaystyle …}` wrapper (the encyclopedia's) removed, `$` escaped
/// (it would end the formula in Markdown), at most [`MAX_TEX_BYTES`].
pub(crate) fn normalize_tex(tex: &str) -> String {
    let mut t: &str = tex.trim();
    for style in ["\\displaystyle", "\\textstyle"] {
        if let Some(inner) = t
            .strip_prefix('{')
            .and_then(|r| r.strip_suffix('}'))
            .and_then(|r| r.trim_start().strip_prefix(style))
            .filter(|r| !r.starts_with(|c: char| c.is_ascii_alphabetic()))
        {
            t = inner.trim();
        } else if let Some(inner) = t
            .strip_prefix(style)
            .filter(|r| !r.starts_with(|c: char| c.is_ascii_alphabetic()))
        {
            t = inner.trim();
        }
    }
    let mut out = String::with_capacity(t.len().min(MAX_TEX_BYTES));
    let mut space = false;
    let mut prev = ' ';
    for c in t.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if out.len() + c.len_utf8() + 2 > MAX_TEX_BYTES {
            break;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        if c == '$' && prev != '\\' {
            out.push('\\');
        }
        out.push(c);
        prev = c;
    }
    out
}

/// The TeX of a MathML `<math>`: its TeX annotation, else its `alttext`,
/// else its conversion.
fn tex_of_mathml(dom: &Dom, math: NodeId) -> String {
    for d in dom.descendants(math) {
        if dom.tag(d).is_some_and(|t| dom.tag_name(t) == "annotation")
            && dom
                .attr(d, "encoding")
                .is_some_and(|e| e.to_ascii_lowercase().contains("tex"))
        {
            let tex: String = dom.children(d).filter_map(|c| dom.text_of(c)).collect();
            if !tex.trim().is_empty() {
                return tex;
            }
        }
    }
    if let Some(alt) = dom.attr(math, "alttext").filter(|a| !a.trim().is_empty()) {
        return alt.to_owned();
    }
    mathml_to_tex(dom, math)
}

/// Puts the `<math display>` element holding `f.tex` in the place of
/// `f.wrapper`: the wrapper node itself becomes it (so nothing moves in
/// its parent's list of children), and the page's MathML, if any, is kept
/// unlinked in [`Dom::math_sources`].
fn replace(dom: &mut Dom, f: Found) {
    let w = f.wrapper;
    let source = match f.mathml {
        Some(m) if m == w => {
            // The wrapper is the MathML itself: a copy of the node takes
            // its children.
            let kind = dom.nodes[w.index()].kind;
            let copy = dom.push(kind);
            let first = dom.nodes[w.index()].first_child;
            dom.nodes[copy.index()].first_child = first;
            let mut c = first;
            while let Some(ch) = c.some() {
                dom.nodes[ch.index()].parent = copy;
                c = dom.nodes[ch.index()].next_sibling;
            }
            Some(copy)
        }
        Some(m) => {
            dom.detach(m);
            Some(m)
        }
        None => None,
    };
    let display = if f.display { "block" } else { "inline" };
    let el = dom.new_element(Tag::MATH, Ns::MathMl, &[("display", display)]);
    let NodeKind::Element(data) = dom.nodes[el.index()].kind else {
        return;
    };
    let text = dom.new_text(&f.tex);
    set_element(dom, w, data);
    dom.nodes[w.index()].first_child = text;
    dom.nodes[text.index()].parent = w;
    if let Some(s) = source {
        dom.math_sources.push((w, s));
    }
}

/// Makes node `id` the element `data` (its children are the caller's).
fn set_element(dom: &mut Dom, id: NodeId, data: ElementData) {
    dom.nodes[id.index()].kind = NodeKind::Element(data);
    dom.forget_unusual_name(id);
}

/// The elements whose text is never raw TeX to typeset.
fn holds_code(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::PRE | Tag::CODE | Tag::SCRIPT | Tag::STYLE | Tag::TEXTAREA | Tag::MATH
    )
}

/// Splits the text nodes under `root` holding raw `\(…\)`, `\[…\]` or
/// `$$…$$` into text and formulas (at most `budget` of them); how many.
/// A page that wrote display formulas as `$$…$$` and none inline as
/// `\(…\)` writes its inline ones as `$…$` (the convention of TeX, and of
/// the Markdown a client-side renderer reads): those are read next
/// ([`split_dollar`]).
fn rewrite_raw(dom: &mut Dom, root: NodeId, budget: usize) -> usize {
    let (made, dollars, parens) = split_texts(dom, root, budget, |t| {
        holds_raw_opener(t).then(|| split_raw(t))
    });
    if dollars == 0 || parens > 0 || made >= budget {
        return made;
    }
    made + split_texts(dom, root, budget - made, |t| {
        t.contains('$').then(|| split_dollar(t))
    })
    .0
}

/// Replaces each text node under `root` (outside code) that `split` cuts
/// into parts by those parts, at most `budget` formulas in all; returns
/// how many formulas, how many of them `$$…$$` and how many `\(…\)`.
fn split_texts(
    dom: &mut Dom,
    root: NodeId,
    budget: usize,
    split: impl Fn(&str) -> Option<Vec<Part<'_>>>,
) -> (usize, usize, usize) {
    let candidates: Vec<NodeId> = dom
        .descendants(root)
        .filter(|&n| {
            dom.text_of(n)
                .is_some_and(|t| split(t).is_some_and(|p| !p.is_empty()))
        })
        .filter(|&n| {
            let mut p = dom.node(n).parent;
            while let Some(a) = p.some() {
                if dom.tag(a).is_some_and(holds_code) {
                    return false;
                }
                p = dom.node(a).parent;
            }
            true
        })
        .collect();
    let (mut made, mut dollars, mut parens) = (0, 0, 0);
    for t in candidates {
        if made >= budget {
            break;
        }
        let text = dom.text_of(t).unwrap_or("").to_owned();
        let parts = split(&text).unwrap_or_default();
        // The first part stays in the node; the rest follow it.
        let mut at = t;
        for (i, part) in parts.into_iter().enumerate() {
            let (tex, display) = match part {
                Part::Text(s) if i == 0 => {
                    dom.set_text(t, s);
                    continue;
                }
                Part::Text(s) => {
                    let node = dom.new_text(s);
                    dom.insert_after(at, node);
                    at = node;
                    continue;
                }
                Part::Tex(tex, display) => {
                    parens += usize::from(!display);
                    (tex, display)
                }
                Part::Dollars(tex) => {
                    dollars += 1;
                    (tex, true)
                }
                Part::Dollar(tex) => (tex, false),
            };
            made += 1;
            let d = if display { "block" } else { "inline" };
            let node = dom.new_element(Tag::MATH, Ns::MathMl, &[("display", d)]);
            let tx = dom.new_text(&normalize_tex(tex));
            dom.append_child(node, tx);
            if i == 0 {
                // The text began with a formula: the node is emptied.
                dom.set_text(t, "");
            }
            dom.insert_after(at, node);
            at = node;
        }
    }
    (made, dollars, parens)
}

/// A piece of a text holding raw TeX.
#[derive(Debug, PartialEq)]
enum Part<'a> {
    Text(&'a str),
    /// `\(…\)` (inline) or `\[…\]` (display).
    Tex(&'a str, bool),
    /// `$$…$$`: display.
    Dollars(&'a str),
    /// `$…$`: inline, on pages that write display math as `$$…$$`.
    Dollar(&'a str),
}

/// Whether the TeX between `$$` looks like math rather than prose that
/// happens to hold two `$$` (prices, templating): a command, a script or
/// a group.
fn looks_like_tex(s: &str) -> bool {
    s.contains(['\\', '^', '_', '{', '='])
}

/// `text` cut into text and formulas at raw delimiters: `\(…\)` inline,
/// `\[…\]` and `$$…$$` display (the latter only when [`looks_like_tex`]);
/// a formula is at most [`MAX_RAW_TEX`] bytes and not empty.
fn split_raw(text: &str) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while let Some((at, opener)) = first_opener(&text[i..]) {
        let open = i + at;
        let body = open + opener.len();
        let (close, display) = match opener {
            "\\(" => ("\\)", false),
            "\\[" => ("\\]", true),
            _ => ("$$", true),
        };
        let end = text[body..]
            .find(close)
            .map(|p| body + p)
            .filter(|&e| e - body <= MAX_RAW_TEX);
        match end {
            Some(e)
                if !text[body..e].trim().is_empty()
                    && (close != "$$" || looks_like_tex(&text[body..e])) =>
            {
                if open > start {
                    parts.push(Part::Text(&text[start..open]));
                }
                parts.push(match opener {
                    "$$" => Part::Dollars(&text[body..e]),
                    _ => Part::Tex(&text[body..e], display),
                });
                start = e + 2;
                i = start;
            }
            _ => i = body,
        }
    }
    if start < text.len() && !parts.is_empty() {
        parts.push(Part::Text(&text[start..]));
    }
    parts
}

/// `text` cut into text and `$…$` formulas by TeX's rule for a lone
/// dollar (as pandoc reads it): the opening `$` is followed by a
/// character that is not white space, the closing one preceded by one and
/// not followed by a digit, and the closing one is the next dollar that is
/// neither escaped (`\$`) nor doubled — so "$5 and $10" stays text; a
/// formula is at most [`MAX_RAW_TEX`] bytes.
fn split_dollar(text: &str) -> Vec<Part<'_>> {
    let b = text.as_bytes();
    let lone = |i: usize| {
        b[i] == b'$'
            && (i == 0 || (b[i - 1] != b'\\' && b[i - 1] != b'$'))
            && b.get(i + 1) != Some(&b'$')
    };
    let mut parts = Vec::new();
    let (mut start, mut i) = (0, 0);
    while let Some(p) = memchr::memchr(b'$', &b[i..]) {
        let open = i + p;
        i = open + 1;
        if !lone(open) || b.get(open + 1).is_none_or(|c| c.is_ascii_whitespace()) {
            continue;
        }
        let mut close = None;
        let mut j = open + 1;
        while let Some(q) = memchr::memchr(b'$', &b[j..]) {
            let c = j + q;
            if c - open > MAX_RAW_TEX {
                break;
            }
            if lone(c) {
                // The next lone dollar closes, or nothing does.
                let closes = !b[c - 1].is_ascii_whitespace()
                    && !b.get(c + 1).is_some_and(u8::is_ascii_digit);
                close = closes.then_some(c);
                break;
            }
            j = c + 1;
        }
        let Some(c) = close else { continue };
        if open > start {
            parts.push(Part::Text(&text[start..open]));
        }
        parts.push(Part::Dollar(&text[open + 1..c]));
        start = c + 1;
        i = start;
    }
    if start < text.len() && !parts.is_empty() {
        parts.push(Part::Text(&text[start..]));
    }
    parts
}

// ---- MathML → TeX ----

/// TeX commands for the characters of MathML tokens that have one.
fn tex_symbol(c: char) -> Option<&'static str> {
    Some(match c {
        'α' => "\\alpha",
        'β' => "\\beta",
        'γ' => "\\gamma",
        'δ' => "\\delta",
        'ϵ' => "\\epsilon",
        'ε' => "\\varepsilon",
        'ζ' => "\\zeta",
        'η' => "\\eta",
        'θ' => "\\theta",
        'ϑ' => "\\vartheta",
        'ι' => "\\iota",
        'κ' => "\\kappa",
        'λ' => "\\lambda",
        'μ' => "\\mu",
        'ν' => "\\nu",
        'ξ' => "\\xi",
        'π' => "\\pi",
        'ρ' => "\\rho",
        'σ' => "\\sigma",
        'ς' => "\\varsigma",
        'τ' => "\\tau",
        'υ' => "\\upsilon",
        'ϕ' => "\\phi",
        'φ' => "\\varphi",
        'χ' => "\\chi",
        'ψ' => "\\psi",
        'ω' => "\\omega",
        'Γ' => "\\Gamma",
        'Δ' => "\\Delta",
        'Θ' => "\\Theta",
        'Λ' => "\\Lambda",
        'Ξ' => "\\Xi",
        'Π' => "\\Pi",
        'Σ' => "\\Sigma",
        'Υ' => "\\Upsilon",
        'Φ' => "\\Phi",
        'Ψ' => "\\Psi",
        'Ω' => "\\Omega",
        '∑' => "\\sum",
        '∏' => "\\prod",
        '∫' => "\\int",
        '∮' => "\\oint",
        '∂' => "\\partial",
        '∇' => "\\nabla",
        '∞' => "\\infty",
        '≤' => "\\leq",
        '≥' => "\\geq",
        '≠' => "\\neq",
        '≈' => "\\approx",
        '≡' => "\\equiv",
        '∼' => "\\sim",
        '≅' => "\\cong",
        '∝' => "\\propto",
        '×' => "\\times",
        '÷' => "\\div",
        '·' | '⋅' => "\\cdot",
        '±' => "\\pm",
        '∓' => "\\mp",
        '∘' => "\\circ",
        '⊕' => "\\oplus",
        '⊗' => "\\otimes",
        '→' => "\\to",
        '←' => "\\leftarrow",
        '↔' => "\\leftrightarrow",
        '⇒' => "\\Rightarrow",
        '⇐' => "\\Leftarrow",
        '⇔' => "\\Leftrightarrow",
        '↦' => "\\mapsto",
        '∈' => "\\in",
        '∉' => "\\notin",
        '∋' => "\\ni",
        '⊂' => "\\subset",
        '⊆' => "\\subseteq",
        '⊃' => "\\supset",
        '⊇' => "\\supseteq",
        '∪' => "\\cup",
        '∩' => "\\cap",
        '∖' => "\\setminus",
        '∅' => "\\emptyset",
        '∀' => "\\forall",
        '∃' => "\\exists",
        '¬' => "\\neg",
        '∧' => "\\wedge",
        '∨' => "\\vee",
        '⟨' => "\\langle",
        '⟩' => "\\rangle",
        '⌊' => "\\lfloor",
        '⌋' => "\\rfloor",
        '⌈' => "\\lceil",
        '⌉' => "\\rceil",
        '…' => "\\ldots",
        '⋯' => "\\cdots",
        '⋮' => "\\vdots",
        '⋱' => "\\ddots",
        'ℏ' => "\\hbar",
        'ℓ' => "\\ell",
        'ℝ' => "\\mathbb{R}",
        'ℕ' => "\\mathbb{N}",
        'ℤ' => "\\mathbb{Z}",
        'ℚ' => "\\mathbb{Q}",
        'ℂ' => "\\mathbb{C}",
        '′' => "'",
        '″' => "''",
        '−' => "-",
        '{' => "\\{",
        '}' => "\\}",
        '%' => "\\%",
        '#' => "\\#",
        '&' => "\\&",
        // Invisible operators: function application, times, separator, plus.
        '\u{2061}' | '\u{2062}' | '\u{2063}' | '\u{2064}' => "",
        _ => return None,
    })
}

/// Function names MathML writes as a multi-letter `<mi>`, written as
/// TeX's operator commands.
const FUNCTIONS: &[&str] = &[
    "sin", "cos", "tan", "cot", "sec", "csc", "sinh", "cosh", "tanh", "coth", "arcsin", "arccos",
    "arctan", "log", "ln", "lg", "exp", "lim", "liminf", "limsup", "max", "min", "sup", "inf",
    "det", "dim", "ker", "deg", "gcd", "arg", "hom", "Pr",
];

/// Accents `<mover>` puts over its base, as TeX's accent commands.
fn accent(over: &str) -> Option<&'static str> {
    Some(match over {
        "¯" | "‾" | "―" | "-" | "\\overline" => "\\overline",
        "^" | "ˆ" | "\\hat" => "\\hat",
        "~" | "˜" | "\\sim" => "\\tilde",
        "\\to" | "⃗" => "\\vec",
        "˙" | "." | "\\cdot" => "\\dot",
        "¨" | ".." => "\\ddot",
        "⏞" => "\\overbrace",
        _ => return None,
    })
}

/// The TeX of a token's text: each character that has a command as the
/// command, the rest as written; a multi-letter identifier as a function
/// name or upright text.
fn token_tex(name: &str, text: &str) -> String {
    let text = text.trim();
    match name {
        "mtext" | "ms" => {
            if text.is_empty() {
                return String::new();
            }
            let mut s = String::from("\\text{");
            for c in text.chars() {
                if matches!(c, '{' | '}' | '\\') {
                    s.push('\\');
                }
                s.push(c);
            }
            s.push('}');
            s
        }
        "mi" if text.chars().count() > 1 && text.chars().all(|c| c.is_ascii_alphabetic()) => {
            if FUNCTIONS.contains(&text) {
                format!("\\{text}")
            } else {
                format!("\\mathrm{{{text}}}")
            }
        }
        _ => {
            let mut s = String::new();
            for c in text.chars() {
                match tex_symbol(c) {
                    Some(cmd) => join(&mut s, cmd),
                    None => join(&mut s, c.encode_utf8(&mut [0; 4])),
                }
            }
            s
        }
    }
}

/// Appends `part` to `s`, with a space where a command name would
/// otherwise run into a letter (`\alpha x`, not `\alphax`).
fn join(s: &mut String, part: &str) {
    if part.is_empty() {
        return;
    }
    let ends_in_command = {
        let word = s.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        word.len() < s.len() && word.ends_with('\\')
    };
    if ends_in_command && part.starts_with(|c: char| c.is_ascii_alphabetic()) {
        s.push(' ');
    }
    s.push_str(part);
}

/// `{…}` around a script or argument.
fn group(s: &str) -> String {
    format!("{{{s}}}")
}

/// The TeX of a MathML subtree, converted element by element (module
/// docs) with an explicit stack: one frame per open element holding its
/// children's TeX, combined when the element ends. Tokens (`mi`, `mn`,
/// `mo`, `mtext`) keep their text; layout elements ignore theirs (white
/// space between tags).
pub(crate) fn mathml_to_tex(dom: &Dom, math: NodeId) -> String {
    use crate::dom::Edge;
    struct Frame<'a> {
        name: &'a str,
        id: NodeId,
        parts: Vec<String>,
        text: String,
    }
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut out = String::new();
    for edge in dom.traverse(math) {
        match edge {
            Edge::Enter(id) => match &dom.node(id).kind {
                NodeKind::Element(e) => stack.push(Frame {
                    name: dom.tag_name(e.tag),
                    id,
                    parts: Vec::new(),
                    text: String::new(),
                }),
                NodeKind::Text { .. } => {
                    if let Some(top) = stack.last_mut()
                        && is_token(top.name)
                        && top.text.len() < MAX_TEX_BYTES
                    {
                        top.text.push_str(dom.text_of(id).unwrap_or(""));
                    }
                }
                _ => {}
            },
            Edge::Leave(id) => {
                if !matches!(dom.node(id).kind, NodeKind::Element(_)) {
                    continue;
                }
                let Some(f) = stack.pop() else { break };
                let tex = combine(dom, f.name, f.id, f.parts, &f.text);
                match stack.last_mut() {
                    Some(parent) => {
                        if parent.parts.iter().map(String::len).sum::<usize>() < MAX_TEX_BYTES {
                            parent.parts.push(tex);
                        }
                    }
                    None => out = tex,
                }
            }
        }
    }
    out
}

fn is_token(name: &str) -> bool {
    matches!(name, "mi" | "mn" | "mo" | "mtext" | "ms")
}

/// The TeX of one MathML element from its children's.
fn combine(dom: &Dom, name: &str, id: NodeId, parts: Vec<String>, text: &str) -> String {
    let arg = |i: usize| parts.get(i).map(String::as_str).unwrap_or("");
    match name {
        n if is_token(n) => token_tex(n, text),
        "msub" => format!("{}_{}", arg(0), group(arg(1))),
        "msup" => format!("{}^{}", arg(0), group(arg(1))),
        "msubsup" => format!("{}_{}^{}", arg(0), group(arg(1)), group(arg(2))),
        "munder" => format!("{}_{}", arg(0), group(arg(1))),
        "mover" => match accent(arg(1)) {
            Some(cmd) => format!("{cmd}{}", group(arg(0))),
            None => format!("{}^{}", arg(0), group(arg(1))),
        },
        "munderover" => format!("{}_{}^{}", arg(0), group(arg(1)), group(arg(2))),
        "mfrac" => format!("\\frac{}{}", group(arg(0)), group(arg(1))),
        "msqrt" => format!("\\sqrt{}", group(&concat(&parts))),
        "mroot" => format!("\\sqrt[{}]{}", arg(1), group(arg(0))),
        "mfenced" => {
            let open = dom.attr(id, "open").unwrap_or("(");
            let close = dom.attr(id, "close").unwrap_or(")");
            let sep = dom
                .attr(id, "separators")
                .and_then(|s| s.trim().chars().next())
                .unwrap_or(',');
            let fence = |f: &str| token_tex("mo", f);
            format!(
                "{}{}{}",
                fence(open),
                parts.join(&sep.to_string()),
                fence(close)
            )
        }
        "mtable" => format!("\\begin{{matrix}} {} \\end{{matrix}}", parts.join(" \\\\ ")),
        "mtr" => parts.join(" & "),
        // A labelled row's first cell is its equation number.
        "mlabeledtr" => parts[1.min(parts.len())..].join(" & "),
        "mphantom" | "annotation" | "annotation-xml" | "none" | "mprescripts" => String::new(),
        // Only the presentation, not the annotations.
        "semantics" => parts.into_iter().next().unwrap_or_default(),
        "mmultiscripts" => {
            let mut s = arg(0).to_owned();
            for pair in parts.get(1..).unwrap_or(&[]).chunks(2) {
                if let [sub, sup] = pair {
                    s.push_str(&format!("_{}^{}", group(sub), group(sup)));
                }
            }
            s
        }
        _ => concat(&parts),
    }
}

/// Children's TeX side by side.
fn concat(parts: &[String]) -> String {
    let mut s = String::new();
    for p in parts {
        join(&mut s, p);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn raw_openers_are_found_in_one_pass_as_by_each_search() {
        let pieces = ["\\", "(", "[", "$", "a", " ", "é", ")", "\n"];
        let mut x: u64 = 5;
        for len in 0..600 {
            let mut s = String::new();
            for _ in 0..len % 11 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push_str(pieces[(x >> 33) as usize % pieces.len()]);
            }
            assert_eq!(
                holds_raw_opener(&s),
                holds_any(raw_openers(), &s),
                "{s:?}"
            );
        }
    }

    /// The `<math>` elements under the body after [`rewrite`]: (display, TeX).
    fn formulas(html: &str) -> Vec<(String, String)> {
        let mut dom = parse(html);
        let body = dom.body().unwrap();
        rewrite(&mut dom, body);
        dom.descendants(body)
            .filter(|&n| dom.is(n, Tag::MATH))
            .map(|n| {
                let d = dom.attr(n, "display").unwrap_or("").to_owned();
                let t: String = dom.children(n).filter_map(|c| dom.text_of(c)).collect();
                (d, t)
            })
            .collect()
    }

    fn one(html: &str) -> (String, String) {
        let f = formulas(html);
        assert_eq!(f.len(), 1, "{html}: {f:?}");
        f.into_iter().next().unwrap()
    }

    #[test]
    fn mathml_converts_element_by_element() {
        let m = |inner: &str| one(&format!("<p>x <math>{inner}</math> y</p>")).1;
        assert_eq!(m("<msup><mi>x</mi><mn>2</mn></msup>"), "x^{2}");
        assert_eq!(
            m("<mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mi>c</mi></mfrac>"),
            "\\frac{a+b}{c}"
        );
        assert_eq!(
            m("<msqrt><msup><mi>x</mi><mn>2</mn></msup><mo>+</mo><mn>1</mn></msqrt>"),
            "\\sqrt{x^{2}+1}"
        );
        assert_eq!(m("<mroot><mi>x</mi><mn>3</mn></mroot>"), "\\sqrt[3]{x}");
        assert_eq!(
            m(
                "<munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>a</mi><mi>i</mi></msub>"
            ),
            "\\sum_{i=1}^{n}a_{i}"
        );
        assert_eq!(
            m("<mi>sin</mi><mo>\u{2061}</mo><mi>θ</mi><mo>≤</mo><mi>α</mi><mi>x</mi>"),
            "\\sin\\theta\\leq\\alpha x"
        );
        assert_eq!(m("<mover><mi>x</mi><mo>¯</mo></mover>"), "\\overline{x}");
        assert_eq!(
            m(
                "<mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn></mtd><mtd><mn>1</mn></mtd></mtr></mtable>"
            ),
            "\\begin{matrix} 1 & 0 \\\\ 0 & 1 \\end{matrix}"
        );
        assert_eq!(m("<mtext>if </mtext><mi>x</mi>"), "\\text{if}x");
        // White space between tags is not text.
        assert_eq!(m("<msub>\n  <mi>x</mi>\n  <mn>0</mn>\n</msub>"), "x_{0}");
    }

    #[test]
    fn the_pages_tex_wins_over_conversion() {
        let ann = "<math display=block><semantics><mrow><mi>E</mi></mrow>\
                   <annotation encoding=\"application/x-tex\">E = mc^2</annotation></semantics></math>";
        assert_eq!(one(ann), ("block".into(), "E = mc^2".into()));
        // KaTeX: the MathML's annotation; the glyphs (aria-hidden) go with it.
        let katex = "<p>So <span class=katex><span class=katex-mathml><math><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow>\
                     <annotation encoding=\"application/x-tex\">x^2</annotation></semantics></math></span>\
                     <span class=katex-html aria-hidden=true><span class=base>x2</span></span></span> holds.</p>";
        assert_eq!(one(katex), ("inline".into(), "x^2".into()));
        let display = format!("<p class=katex-display>{}</p>", &katex[5..katex.len() - 4]);
        assert_eq!(one(&display).0, "block");
        // MathJax 2: the source script; its preview and rendered frame go.
        let mj2 = "<p>A <span class=MathJax_Preview>x2</span><span class=MathJax id=MathJax-Element-1-Frame>\
                   <span class=math>x2</span><span class=MJX_Assistive_MathML><math><mi>q</mi></math></span></span>\
                   <script type=\"math/tex\" id=MathJax-Element-1>x^2</script> and \
                   <script type=\"math/tex; mode=display\">\\int_0^1 f</script></p>";
        assert_eq!(
            formulas(mj2),
            [
                ("inline".into(), "x^2".into()),
                ("block".into(), "\\int_0^1 f".into())
            ]
        );
        // MathJax 3: the assistive MathML, converted.
        let mj3 = "<mjx-container class=MathJax jax=CHTML display=true><mjx-math><mjx-mi>y</mjx-mi></mjx-math>\
                   <mjx-assistive-mml><math display=block><msub><mi>y</mi><mn>1</mn></msub></math></mjx-assistive-mml></mjx-container>";
        assert_eq!(one(mj3), ("block".into(), "y_{1}".into()));
        // The encyclopedia: hidden MathML with alttext, and a fallback image.
        let wiki = "<p>Then <span class=mwe-math-element><span class=\"mwe-math-mathml-inline mwe-math-mathml-a11y\" style=\"display: none;\">\
                    <math alttext=\"{\\displaystyle E=mc^{2}}\"><semantics><mrow><mi>E</mi></mrow>\
                    <annotation encoding=\"application/x-tex\">{\\displaystyle E=mc^{2}}</annotation></semantics></math></span>\
                    <img src=e.svg class=\"mwe-math-fallback-image-inline\" aria-hidden=true alt=\"{\\displaystyle E=mc^{2}}\"></span>.</p>";
        assert_eq!(one(wiki), ("inline".into(), "E=mc^{2}".into()));
        let img_only = "<p><img class=latex src=l.png alt=\"a^2+b^2\"></p>";
        assert_eq!(one(img_only), ("inline".into(), "a^2+b^2".into()));
    }

    #[test]
    fn a_pages_own_mathjax_class_is_not_mathjax_output() {
        // arXiv marks its abstract `mathjax` (for the typesetter to find):
        // it is the content, not a rendered copy.
        let html = "<blockquote class=\"abstract mathjax\">Abstract: merging models \
                    with $x$ in it.</blockquote><div class=MathJax>rendered, no source</div>";
        let mut dom = parse(html);
        let body = dom.body().unwrap();
        rewrite(&mut dom, body);
        let text: String = dom
            .descendants(body)
            .filter_map(|n| dom.text_of(n))
            .collect();
        assert!(text.contains("Abstract: merging models"), "{text}");
        assert!(text.contains("rendered, no source"), "{text}");
    }

    #[test]
    fn raw_delimiters_in_text() {
        assert_eq!(
            split_raw("If \\(x>0\\) then \\[y = x^2\\] and $$\\sum a$$ costs $$5 or $$6."),
            [
                Part::Text("If "),
                Part::Tex("x>0", false),
                Part::Text(" then "),
                Part::Tex("y = x^2", true),
                Part::Text(" and "),
                Part::Dollars("\\sum a"),
                Part::Text(" costs $$5 or $$6."),
            ]
        );
        assert_eq!(split_raw("no math \\( here"), []);
        let f = formulas("<p>Let \\(a_1\\) be.</p><pre>\\(not\\)</pre><p>\\[b\\]</p>");
        assert_eq!(
            f,
            [
                ("inline".into(), "a_1".into()),
                ("block".into(), "b".into())
            ]
        );
    }

    #[test]
    fn lone_dollars_are_math_where_the_page_writes_tex() {
        assert_eq!(
            split_dollar("Let $x$ be in $A \\cup B$; it costs $5 and $10, or \\$3 and $ 4$."),
            [
                Part::Text("Let "),
                Part::Dollar("x"),
                Part::Text(" be in "),
                Part::Dollar("A \\cup B"),
                Part::Text("; it costs $5 and $10, or \\$3 and $ 4$."),
            ]
        );
        assert_eq!(split_dollar("from $5 to $10 a day"), []);
        // A page with `$$…$$` display math: its lone dollars too.
        let f =
            formulas("<p>So $$a^2 + b^2$$ holds for $x$ in $A$.</p><p>It costs $5, not $10.</p>");
        assert_eq!(
            f,
            [
                ("block".into(), "a^2 + b^2".into()),
                ("inline".into(), "x".into()),
                ("inline".into(), "A".into())
            ]
        );
        // Without display math written so, or with inline math written
        // as `\(…\)`, a dollar is a dollar.
        assert_eq!(formulas("<p>Pick $x$ and $y$ here.</p>"), []);
        let f = formulas("<p>\\(a\\) and $$b^2$$ cost $x$ here.</p>");
        assert_eq!(
            f,
            [
                ("inline".into(), "a".into()),
                ("block".into(), "b^2".into())
            ]
        );
    }

    #[test]
    fn tex_is_normalized_and_bounded() {
        assert_eq!(normalize_tex("  {\\displaystyle  a \n + b } "), "a + b");
        assert_eq!(normalize_tex("\\displaystyle x"), "x");
        assert_eq!(normalize_tex("{\\displaystyles}"), "{\\displaystyles}");
        assert_eq!(normalize_tex("a$b\\$c"), "a\\$b\\$c");
        let long = "x".repeat(MAX_TEX_BYTES * 2);
        assert!(normalize_tex(&long).len() <= MAX_TEX_BYTES);
        // A formula nested a hundred levels deep converts without recursion.
        let deep = format!(
            "{}<mi>x</mi>{}",
            "<mrow>".repeat(100),
            "</mrow>".repeat(100)
        );
        assert_eq!(one(&format!("<math>{deep}</math>")).1, "x");
    }
}
