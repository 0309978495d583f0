//! Stage 3, **clean** (ALGORITHMS.md#cleaning): removes what no reader sees and no
//! algorithm should score — scripts, styles, embedded frames, form
//! controls, SVG internals, headings' permalinks, and anything hidden by
//! markup, after reading every formula as TeX ([`math`]); and
//! puts the blocks a server streamed after the page (React's
//! `<div hidden id="S:…">`) where its script would have put them.
//!
//! **Unstable:** public only with the `unstable` feature, for the tools
//! of the unchaff workspace (evaluation, training, explanation); may
//! change in any release. See the crate docs' *Stability*.
//!
//! Removal unlinks the subtree from the tree; the nodes stay in the arena
//! (ids remain valid) but no walk reaches them. Comments and template
//! contents never entered the tree (see [`crate::parse`]).

use crate::dom::{Dom, NodeId, Tag};
use html5ever::local_name;
use rustc_hash::{FxHashMap, FxHashSet};

pub mod math;
pub use math::{MAX_FORMULAS, MAX_RAW_TEX, MAX_TEX_BYTES};

/// Elements dropped with everything inside them.
///
/// The form controls are here because their text is not content: a
/// `<select>` with 200 `<option>`s otherwise wins CETD-TPC on 15% of
/// Chinese news pages (ALGORITHMS.md#cleaning).
pub const DROPPED: &[Tag] = &[
    Tag::SCRIPT,
    Tag::STYLE,
    Tag::NOSCRIPT,
    Tag::TEMPLATE,
    Tag::IFRAME,
    Tag::SELECT,
    Tag::OPTION,
    Tag::OPTGROUP,
    Tag::DATALIST,
    Tag::TEXTAREA,
    Tag::BUTTON,
    Tag::INPUT,
    Tag::HEAD,
    // A `<title>` in the body (pages pasted into other pages, archives'
    // wrappers): browsers never display one.
    Tag::TITLE,
    Tag::LINK,
    Tag::META,
    Tag::BASE,
    Tag::OBJECT,
    Tag::EMBED,
    Tag::CANVAS,
    Tag::FRAMESET,
    Tag::NOFRAMES,
];

/// [`DROPPED`] as a table indexed by tag id: [`clean`] asks for every
/// element of the page, and a table is one load where the list is twenty
/// comparisons.
static DROPPED_TABLE: [bool; Tag::KNOWN] = {
    let mut t = [false; Tag::KNOWN];
    let mut i = 0;
    while i < DROPPED.len() {
        t[DROPPED[i].0 as usize] = true;
        i += 1;
    }
    t
};

/// Whether `tag` is one of [`DROPPED`].
#[inline]
fn is_dropped(tag: Tag) -> bool {
    DROPPED_TABLE.get(tag.0 as usize).copied().unwrap_or(false)
}

/// Elements kept as an (empty) box whose children are dropped: the box
/// still marks a picture in the layout, its internals are drawing
/// instructions, not text. (Formulas are read as TeX first: the math
/// step leaves every `<math>` holding its TeX, or empty.)
pub const EMPTIED: &[Tag] = &[Tag::SVG];

/// What [`clean`] removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CleanReport {
    /// Subtrees removed for their tag.
    pub dropped: u32,
    /// Subtrees removed because markup hides them.
    pub hidden: u32,
    /// Streamed blocks moved to their placeholders (React's
    /// `<div hidden id="S:…">`, see [`MAX_STREAMED`]).
    pub streamed: u32,
    /// Formulas read as TeX (MathML, MathJax, KaTeX, TeX images, raw
    /// delimiters; see [`MAX_FORMULAS`]).
    pub formulas: u32,
    /// Permalinks removed from headings (see [`PERMALINK_MARKS`]).
    pub permalinks: u32,
    /// Comment counters removed: a link or span holding only a number
    /// (at most [`COUNTER_MAX_DIGITS`] digits) whose class or id names
    /// comments.
    pub counters: u32,
}

/// Cleans the subtree of `root` in place, after folding Arabic
/// presentation forms in the whole tree's text (ALGORITHMS.md#normalisation; the
/// `normalize` module).
pub fn clean(dom: &mut Dom, root: NodeId) -> CleanReport {
    clean_with(dom, root, false)
}

/// [`clean`], but elements hidden by markup stay (controls, scripts and
/// the rest of [`DROPPED`] still go): for a page whose visible text is
/// (nearly) nothing, as when a script was to reveal a wrapper hidden with
/// `visibility:hidden`, or to move the `hidden` blocks a server streamed
/// into place.
pub fn clean_keeping_hidden(dom: &mut Dom, root: NodeId) -> CleanReport {
    clean_with(dom, root, true)
}

fn clean_with(dom: &mut Dom, root: NodeId, keep_hidden: bool) -> CleanReport {
    crate::normalize::fold_presentation_forms(dom);
    // Before anything is dropped: a formula's TeX may sit in a script, in
    // MathML hidden from sight, or in an image hidden from screen readers.
    let formulas = math::rewrite(dom, root);
    let mut c = Collected {
        keep_hidden,
        disclosed: disclosed_panels(dom),
        ..Collected::default()
    };
    c.report.formulas = formulas as u32;
    collect(dom, root, true, &mut c);
    // Streamed boundaries: each revealed block is cleaned in turn (it may
    // hold further boundaries, as React nests them).
    while let Some(moved) = reveal_streamed(dom, &mut c) {
        for m in moved {
            collect(dom, m, false, &mut c);
        }
    }
    // Blocks streamed without a place to go: hidden as they are, but for
    // a rescue that keeps what is hidden.
    for s in std::mem::take(&mut c.streamed) {
        if keep_hidden && !s.placed {
            collect(dom, s.node, true, &mut c);
        }
    }
    dom.detach_all(&c.doomed);
    for id in c.emptied {
        while let Some(ch) = dom.node(id).first_child.some() {
            dom.detach(ch);
        }
    }
    c.report
}

/// Most streamed boundaries read on one page: React writes one for each
/// `Suspense` that resolved late, a handful to a few dozen on real pages;
/// past this, a page's further boundaries stay as the markup has them.
pub const MAX_STREAMED: usize = 1024;

/// A block a server streamed after the page (`<div hidden id="S:…">`).
struct Streamed {
    node: NodeId,
    /// Whether its content went to its placeholder.
    placed: bool,
}

/// What the walks of [`clean`] collect before anything is cut.
#[derive(Default)]
struct Collected {
    keep_hidden: bool,
    /// The ids of the panels a disclosure button controls
    /// ([`disclosed_panels`]).
    disclosed: FxHashSet<Box<str>>,
    report: CleanReport,
    doomed: Vec<NodeId>,
    emptied: Vec<NodeId>,
    /// Blocks streamed out of order, and the placeholders
    /// (`<template id="B:…">` or `"P:…"`) they belong in; at most
    /// [`MAX_STREAMED`] of each.
    streamed: Vec<Streamed>,
    /// The placeholders not yet filled, by key, in document order.
    placeholders: FxHashMap<Box<str>, Vec<NodeId>>,
    /// Placeholders read (filled or not).
    placeholders_read: usize,
}

/// Collects what to cut in the subtree of `top` (a pre-order walk that
/// skips doomed subtrees); `top` itself is exempt when `top_exempt`.
fn collect(dom: &Dom, top: NodeId, top_exempt: bool, c: &mut Collected) {
    let mut next = top.some();
    while let Some(id) = next {
        let mut skip_children = false;
        if let Some(tag) = dom.tag(id) {
            let exempt = top_exempt && id == top;
            if !exempt
                && tag == Tag::DIV
                && c.streamed.len() < MAX_STREAMED
                && streamed_key(dom, id, "S:").is_some()
            {
                // Read when placed (its placeholder may come later).
                c.streamed.push(Streamed {
                    node: id,
                    placed: false,
                });
                if !c.keep_hidden {
                    c.report.hidden += 1;
                    c.doomed.push(id);
                }
                skip_children = true;
            } else if !exempt && is_dropped(tag) {
                if tag == Tag::TEMPLATE
                    && c.placeholders_read < MAX_STREAMED
                    && let Some(key) =
                        streamed_key(dom, id, "B:").or_else(|| streamed_key(dom, id, "P:"))
                {
                    c.placeholders_read += 1;
                    c.placeholders.entry(key.into()).or_default().push(id);
                }
                c.report.dropped += 1;
                c.doomed.push(id);
                skip_children = true;
            } else if !exempt
                && !c.keep_hidden
                && is_hidden(dom, id)
                && !is_tab_panel(dom, id)
                && !is_disclosed(dom, id, tag, &c.disclosed)
            {
                c.report.hidden += 1;
                c.doomed.push(id);
                skip_children = true;
            } else if !exempt && (tag == Tag::A || tag == Tag::SPAN) && is_comment_counter(dom, id) {
                c.report.counters += 1;
                c.doomed.push(id);
                skip_children = true;
            } else if EMPTIED.contains(&tag) {
                c.emptied.push(id);
                skip_children = true;
            } else if tag.is_heading() {
                let before = c.doomed.len();
                c.doomed.extend(permalinks(dom, id));
                c.report.permalinks += (c.doomed.len() - before) as u32;
            }
        }
        next = next_preorder(dom, top, id, skip_children);
    }
}

/// Characters a heading's permalink shows (documentation generators',
/// wikis' and code hosts' marks), besides white space and invisible
/// formatting characters.
pub const PERMALINK_MARKS: &[char] = &['¶', '§', '#', '🔗', '⚓', '∞', '¤', '↩', '⁋'];

/// The permalinks of heading `h`: links to a fragment (`href="#…"`) whose
/// text is only [`PERMALINK_MARKS`] or nothing (Sphinx's and MkDocs'
/// `headerlink` "¶", rustdoc's "§", a code host's "#"), and wikis' edit
/// links ([`EDIT_LINK_CLASSES`]). A link holding the heading's words stays.
fn permalinks(dom: &Dom, h: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    dom.descendants(h).filter(move |&a| {
        is_edit_link(dom, a)
            || dom.is(a, Tag::A)
                && dom
                    .attr(a, "href")
                    .is_some_and(|r| r.trim_start().starts_with('#'))
                && dom.descendants(a).filter_map(|n| dom.text_of(n)).all(|t| {
                    t.chars().all(|c| {
                        c.is_whitespace()
                            || PERMALINK_MARKS.contains(&c)
                            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}' | '\u{feff}')
                    })
                })
    })
}

/// Digits a comment counter shows at most ("0", "12", "1534").
pub const COUNTER_MAX_DIGITS: usize = 6;

/// Whether `id` is a comment counter: a link or a span whose only child
/// is a number ([`COUNTER_MAX_DIGITS`] digits at most) and whose class or
/// id names comments (`comments_count`, `comment-count`,
/// `commentCount`). News sites put one beside each paragraph a reader
/// may comment on ("0На счету россиянина…": the count glued to the
/// paragraph's first word) or beside the headline; it is never the
/// text. A number in a link named otherwise (a page of a pagination, a
/// footnote) stays.
fn is_comment_counter(dom: &Dom, id: NodeId) -> bool {
    let mut children = dom.children(id);
    let (Some(only), None) = (children.next(), children.next()) else {
        return false;
    };
    let number = dom.text_of(only).is_some_and(|t| {
        let t = t.trim();
        !t.is_empty() && t.len() <= COUNTER_MAX_DIGITS && t.bytes().all(|b| b.is_ascii_digit())
    });
    number
        && ["class", "id"].iter().any(|a| {
            dom.attr(id, a)
                .is_some_and(|v| v.to_ascii_lowercase().contains("comment"))
        })
}

/// Class names of a heading's "\[edit\]" link to its section's editor
/// (MediaWiki's, which the encyclopedias and most wikis run).
pub const EDIT_LINK_CLASSES: &[&str] = &["mw-editsection", "editsection"];

/// Whether `id` is a heading's edit link ([`EDIT_LINK_CLASSES`]).
fn is_edit_link(dom: &Dom, id: NodeId) -> bool {
    dom.attr(id, "class").is_some_and(|c| {
        c.split_ascii_whitespace()
            .any(|t| EDIT_LINK_CLASSES.contains(&t))
    })
}

/// Longest key read: React's are a few characters (`S:0`, `B:1a`).
const MAX_STREAMED_KEY: usize = 32;

/// The key of a streamed block (`prefix` "S:") or placeholder ("B:" for
/// a boundary, "P:" for a segment): the rest of its `id`. A block must
/// carry `hidden`, as React writes it.
fn streamed_key<'a>(dom: &'a Dom, id: NodeId, prefix: &str) -> Option<&'a str> {
    let key = dom.attr(id, "id")?.strip_prefix(prefix)?;
    if key.is_empty()
        || key.len() > MAX_STREAMED_KEY
        || (prefix == "S:" && dom.attr(id, "hidden").is_none())
    {
        return None;
    }
    Some(key)
}

/// React's streamed rendering (`renderToPipeableStream`, Next.js): a part
/// of the page that was slow to render is sent after the rest, as a
/// hidden `<div id="S:n">` at the end of the body, and a script moves it
/// to its placeholder `<template id="B:n">` (before the loading state
/// shown meanwhile) or `<template id="P:n">` (a segment of another
/// streamed block). No script runs here, so without this step the
/// article of such a page is hidden and its skeleton is all there is.
/// Moves the children of every block whose placeholder is known to just
/// before it; returns the moved nodes, still to be cleaned, or `None`
/// when nothing moved.
fn reveal_streamed(dom: &mut Dom, c: &mut Collected) -> Option<Vec<NodeId>> {
    let mut moves = Vec::new();
    for s in c.streamed.iter_mut().filter(|s| !s.placed) {
        let Some(key) = streamed_key(dom, s.node, "S:") else {
            continue;
        };
        let Some(slots) = c.placeholders.get_mut(key).filter(|v| !v.is_empty()) else {
            continue;
        };
        // The first placeholder of the key in document order.
        let b = slots.remove(0);
        s.placed = true;
        moves.push((s.node, b));
    }
    if moves.is_empty() {
        return None;
    }
    c.report.streamed += moves.len() as u32;
    let mut moved = Vec::new();
    for (block, placeholder) in moves {
        // A placeholder is only ever read outside the blocks still to be
        // placed (their insides are not walked before they move), so it
        // cannot lie inside `block`: the move makes no cycle.
        moved.extend(dom.children(block));
        dom.move_children_before(block, placeholder);
    }
    Some(moved)
}

/// The node after `id` in pre-order within `root`, optionally skipping
/// `id`'s children.
fn next_preorder(dom: &Dom, root: NodeId, id: NodeId, skip_children: bool) -> Option<NodeId> {
    let n = dom.node(id);
    if !skip_children && let Some(c) = n.first_child.some() {
        return Some(c);
    }
    let mut x = id;
    loop {
        if x == root {
            return None;
        }
        let nx = dom.node(x);
        if let Some(s) = nx.next_sibling.some() {
            return Some(s);
        }
        x = nx.parent.some()?;
    }
}

/// Whether markup hides the element: the `hidden` attribute, `type=hidden`,
/// `aria-hidden=true`, or an inline `display:none` / `visibility:hidden`.
pub fn is_hidden(dom: &Dom, id: NodeId) -> bool {
    // Names compared as interned atoms (one integer each), not as
    // strings: most elements have attributes, few of these.
    for a in dom.attrs_of(id) {
        let value = || &dom.attr_text[a.start as usize..a.end as usize];
        let hides = if a.name == local_name!("hidden") {
            true
        } else if a.name == local_name!("type") {
            value().trim().eq_ignore_ascii_case("hidden")
        } else if a.name == local_name!("aria-hidden") {
            value().trim().eq_ignore_ascii_case("true")
        } else if a.name == local_name!("style") {
            style_hides(value())
        } else {
            false
        };
        if hides {
            return true;
        }
    }
    false
}

/// Whether `id` is a tab panel (`role="tabpanel"`): the content of a tab
/// the reader has not chosen yet, hidden only until a click shows it (a
/// documentation page's macOS, Linux and Windows steps, a product's
/// "Specifications" tab). It stays when markup hides it, as the panel
/// on show does. Held out, wcxb-dev 0.8310 → 0.8317 (12 pages up, 2
/// down; docs/history/results-auto.md); no other folder has a hidden one.
pub fn is_tab_panel(dom: &Dom, id: NodeId) -> bool {
    dom.attr(id, "role")
        .is_some_and(|r| r.trim().eq_ignore_ascii_case("tabpanel"))
}

/// The ids of the panels a control shows (`aria-controls`: WAI-ARIA's
/// disclosure and accordion patterns, `<button aria-expanded="false"
/// aria-controls="faq-2">` over `<div id="faq-2" hidden>`): an FAQ's
/// answers, a guide's collapsed sections, a tab's panel. Read before
/// anything is cut, as the button (a form control) goes and may come
/// after its panel. Whether the control says it is expanded does not
/// matter: held out, requiring `aria-expanded` gave wcxb-dev 0.8344
/// against 0.8349 without.
fn disclosed_panels(dom: &Dom) -> FxHashSet<Box<str>> {
    let mut ids = FxHashSet::default();
    // The page's attributes lie back to back: one pass over them, not a
    // walk of the tree (a walk cost 0.6% of the pipeline's instructions).
    for a in dom.attrs.iter().filter(|a| a.name == local_name!("aria-controls")) {
        let value = &dom.attr_text[a.start as usize..a.end as usize];
        // A button may control a few panels; a long list is no
        // disclosure's.
        for id in value.split_ascii_whitespace().take(MAX_CONTROLLED) {
            ids.insert(id.into());
        }
    }
    ids
}

/// Most panels one disclosure button is read as controlling.
const MAX_CONTROLLED: usize = 8;

/// Roles of a panel that is the page's furniture even when a button
/// discloses it: a menu (a hamburger button's navigation drawer), a
/// dialog (terms, a sign-up or feedback form), a list box, a tooltip.
const FURNITURE_ROLES: &[&str] = &[
    "navigation",
    "menu",
    "menubar",
    "dialog",
    "alertdialog",
    "listbox",
    "tooltip",
];

/// Whether `id` (tag `tag`) is a panel a disclosure button controls (in
/// `disclosed`, [`disclosed_panels`]) and not furniture (a `nav`, a
/// `dialog`, a [`FURNITURE_ROLES`] role): collapsed only until a click
/// opens it, so it stays when markup hides it. Held out (`LOFO_SKIP_TRAIN=1
/// scripts/lofo.sh`), wcxb-dev 0.8317 → 0.8349 (30 pages up, 12 down: FAQ
/// answers, product details and buying guides' sections up; two shop
/// pages whose selection moved from their product cards to their guides
/// down); no other folder moved.
fn is_disclosed(dom: &Dom, id: NodeId, tag: Tag, disclosed: &FxHashSet<Box<str>>) -> bool {
    if disclosed.is_empty() || tag == Tag::NAV || tag == Tag::DIALOG {
        return false;
    }
    dom.attr(id, "id").is_some_and(|i| disclosed.contains(i.trim()))
        && !dom.attr(id, "role").is_some_and(|r| {
            FURNITURE_ROLES.iter().any(|f| r.trim().eq_ignore_ascii_case(f))
        })
}

/// Whether an inline style contains `display:none` or `visibility:hidden`
/// (white space and case ignored).
pub fn style_hides(style: &str) -> bool {
    if style.is_ascii() {
        // ASCII's white space and lower case are bytes: each declaration
        // is read in place, without the lowered copy below.
        return style
            .as_bytes()
            .split(|&b| b == b';')
            .any(|decl| HIDING.iter().any(|t| compact_is(decl, t.as_bytes())));
    }
    style_hides_lowered(style)
}

/// [`style_hides`] by a lower-cased copy without white space: for any
/// style (the ASCII ones are read in place instead, alike).
fn style_hides_lowered(style: &str) -> bool {
    let compact: String = style
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    compact
        .split(';')
        .any(|decl| HIDING.contains(&decl.trim_end_matches("!important")))
}

/// The declarations that hide, compacted and lower-cased.
const HIDING: [&str; 2] = ["display:none", "visibility:hidden"];

/// Whether the ASCII declaration `decl`, without its white space and
/// lower-cased, is `target` followed by any number of `!important`: what
/// [`style_hides`] asks of a declaration once `!important`s are trimmed
/// from its end (`target` does not end with one).
fn compact_is(decl: &[u8], target: &[u8]) -> bool {
    const IMPORTANT: &[u8] = b"!important";
    let mut n = 0;
    for &b in decl {
        if b.is_ascii_whitespace() || b == 0x0b {
            continue;
        }
        let want = match target.get(n) {
            Some(&t) => t,
            None => IMPORTANT[(n - target.len()) % IMPORTANT.len()],
        };
        if b.to_ascii_lowercase() != want {
            return false;
        }
        n += 1;
    }
    n >= target.len() && (n - target.len()).is_multiple_of(IMPORTANT.len())
}

#[cfg(test)]
mod tests {

    #[test]
    fn style_hides_reads_ascii_in_place_as_the_copy_did() {
        let mut cases: Vec<String> = [
            "",
            "display:none",
            "DISPLAY : None ;",
            "color:red; display:\tnone !important",
            "display:none!important!important",
            "display:none!important!",
            "display:none!importan",
            "display:nonee",
            "xdisplay:none",
            "visibility: hidden",
            "visibility:hidden;display:block",
            "display\x0b:\x0cnone",
            "display:\u{a0}none",
            "display:none\u{2003}",
            "\u{130}display:none",
            "display:none;;",
            ";",
            "!important",
            "display:none !IMPORTANT",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Generated declarations from the targets' own pieces.
        let pieces = [
            "display", "visibility", ":", "none", "hidden", " ", "\t", "!important", ";", "X",
            "\u{a0}",
        ];
        let mut x: u64 = 3;
        for len in 0..800 {
            let mut s = String::new();
            for _ in 0..len % 9 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push_str(pieces[(x >> 33) as usize % pieces.len()]);
            }
            cases.push(s);
        }
        for s in &cases {
            assert_eq!(style_hides(s), super::style_hides_lowered(s), "{s:?}");
        }
    }

    #[test]
    fn the_dropped_table_is_the_list() {
        for i in 0..Tag::KNOWN as u16 {
            assert_eq!(is_dropped(Tag(i)), DROPPED.contains(&Tag(i)), "{i}");
        }
        assert!(!is_dropped(Tag(u16::MAX)));
    }

    use super::*;
    use crate::parse::parse;

    fn body_text(html: &str) -> String {
        let mut dom = parse(html);
        let body = dom.body().unwrap();
        clean(&mut dom, body);
        dom.descendants(body)
            .filter_map(|n| dom.text_of(n))
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn drops_scripts_controls_and_hidden() {
        let html = r#"<p>a</p><script>var x</script><style>p{}</style>
            <select><option>one</option></select><button>Go</button>
            <div hidden>h1</div><div aria-hidden="true">h2</div>
            <div style="color:red; DISPLAY : None">h3</div><span style="visibility:hidden">h4</span>
            <input type="hidden" value="v"><noscript>ns</noscript><p>b</p>"#;
        let t = body_text(html);
        let kept: Vec<&str> = t
            .split('|')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        assert_eq!(kept, vec!["a", "b"]);
    }

    #[test]
    fn comment_counters_go() {
        let html = "<html><body><article>\
            <p><a class=\"article-commented-link comments_count\" title=\"Comment\">0</a>The council met.</p>\
            <p><span id=\"commentCount-12\"> 14 </span>Rain is due.</p>\
            <p>See page <a class=\"page-numbers\" href=\"/2\">2</a> and <a class=\"comments\" href=\"#c\">all comments</a>.</p>\
            </article></body></html>";
        assert_eq!(
            body_text(html),
            "The council met.|Rain is due.|See page |2| and |all comments|."
        );
    }

    #[test]
    fn hidden_tab_panels_stay() {
        // The tab on show and the one a click would show are both the
        // page's content; a hidden menu beside them is not.
        let html = r#"<div role="tablist"><a>macOS</a><a>Linux</a></div>
            <section role="tabpanel">brew install tool</section>
            <section role="tabpanel" aria-hidden="true" hidden>apt install tool</section>
            <div role="TabPanel " style="display: none">dnf install tool</div>
            <nav hidden>menu</nav>"#;
        assert_eq!(
            kept(html),
            vec!["macOS", "Linux", "brew install tool", "apt install tool", "dnf install tool"]
        );
    }

    #[test]
    fn disclosed_panels_stay_but_menus_and_dialogs() {
        // An FAQ's answers hidden until their button opens them (the
        // button after one of them) are content; a hamburger's menu and a
        // terms dialog that buttons open too are not; nor is a hidden
        // panel no button controls.
        let html = r#"<h3><a aria-expanded="false" aria-controls="a1">Why?</a></h3>
            <div id="a1" hidden>Because it is.</div>
            <div id="a2" aria-hidden="true">Since always.</div>
            <h3><span aria-controls="a2" aria-expanded="false">Since when?</span></h3>
            <a aria-expanded="false" aria-controls="m x">Menu</a>
            <div id="m" role="Navigation" hidden>Home About</div>
            <dialog id="x" aria-hidden="true">Terms</dialog>
            <div id="y" hidden>Stale</div>"#;
        assert_eq!(
            kept(html),
            vec!["Why?", "Because it is.", "Since always.", "Since when?", "Menu"]
        );
    }

    fn kept(html: &str) -> Vec<String> {
        body_text(html)
            .split('|')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    }

    #[test]
    fn streamed_blocks_go_to_their_placeholders() {
        // React's streamed rendering: the article arrives last, hidden,
        // and goes before its placeholder's loading state; its own
        // boundary (B:1) and a segment (P:2) are filled in turn.
        let html = r#"<header>site</header><template id="B:0"></template><div>Loading…</div>
            <footer>foot</footer>
            <div hidden id="S:0"><h1>Title</h1><template id="B:1"></template><p>body</p><script>x</script></div>
            <div hidden id="S:1"><p>late</p><template id="P:2"></template></div>
            <div hidden id="S:2"><p>segment</p></div>
            <div hidden id="S:9"><p>no place</p></div>"#;
        assert_eq!(
            kept(html),
            [
                "site",
                "Title",
                "late",
                "segment",
                "body",
                "Loading…",
                "foot"
            ]
        );
        let mut dom = parse(html);
        let body = dom.body().unwrap();
        assert_eq!(clean(&mut dom, body).streamed, 3);
        // Without its placeholder a hidden block stays hidden, and an
        // ordinary hidden div named like one is no boundary.
        assert_eq!(
            kept(r#"<p>a</p><div id="S:0">shown</div><template id="B:0"></template>"#),
            ["a", "shown"]
        );
    }

    #[test]
    fn streamed_blocks_never_make_a_cycle() {
        // A block whose placeholder is inside it, and two blocks of one
        // key: each placeholder takes one block, and the walk ends.
        let html = r#"<p>a</p><template id="B:0"></template>
            <div hidden id="S:0"><p>one</p><template id="B:0"></template></div>
            <div hidden id="S:0"><p>two</p></div>"#;
        assert_eq!(kept(html), ["a", "one", "two"]);
    }

    #[test]
    fn svg_internals_go_but_box_stays() {
        let mut dom = parse("<p>x<svg><text>label</text></svg>y</p>");
        let body = dom.body().unwrap();
        clean(&mut dom, body);
        let svg = dom
            .descendants(body)
            .find(|&n| dom.is(n, Tag::SVG))
            .expect("svg kept");
        assert!(dom.node(svg).first_child.is_none());
    }

    #[test]
    fn style_parsing() {
        assert!(style_hides("display:none"));
        assert!(style_hides("display: none !important"));
        assert!(!style_hides("display:block"));
        assert!(!style_hides("display:none-ish"));
    }
}
