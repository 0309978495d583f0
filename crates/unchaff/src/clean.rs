//! Stage 3, **clean** (SPEC §1): removes what no reader sees and no
//! algorithm should score — scripts, styles, embedded frames, form
//! controls, SVG/MathML internals, and anything hidden by markup.
//!
//! **Unstable:** public for the tools of the unchaff workspace (evaluation,
//! training, explanation); may change in any release. See the crate
//! docs' *Stability*.
//!
//! Removal unlinks the subtree from the tree; the nodes stay in the arena
//! (ids remain valid) but no walk reaches them. Comments and template
//! contents never entered the tree (see [`crate::parse`]).

use crate::dom::{Dom, NodeId, Tag};

/// Elements dropped with everything inside them.
///
/// The form controls are here because their text is not content: a
/// `<select>` with 200 `<option>`s otherwise wins CETD-TPC on 15% of
/// Chinese news pages (SPEC §1).
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
/// still marks a picture or formula in the layout, its internals are
/// drawing instructions, not text.
pub const EMPTIED: &[Tag] = &[Tag::SVG, Tag::MATH];

/// What [`clean`] removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CleanReport {
    /// Subtrees removed for their tag.
    pub dropped: u32,
    /// Subtrees removed because markup hides them.
    pub hidden: u32,
}

/// Cleans the subtree of `root` in place, after folding Arabic
/// presentation forms in the whole tree's text (SPEC §3.1; the
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
    let mut report = CleanReport::default();
    let mut doomed = Vec::new();
    let mut emptied = Vec::new();
    // Collect first (a pre-order walk skipping doomed subtrees), then cut.
    let mut next = root.some();
    while let Some(id) = next {
        let mut skip_children = false;
        if let Some(tag) = dom.tag(id) {
            if id != root && is_dropped(tag) {
                report.dropped += 1;
                doomed.push(id);
                skip_children = true;
            } else if id != root && !keep_hidden && is_hidden(dom, id) {
                report.hidden += 1;
                doomed.push(id);
                skip_children = true;
            } else if EMPTIED.contains(&tag) {
                emptied.push(id);
                skip_children = true;
            }
        }
        next = next_preorder(dom, root, id, skip_children);
    }
    dom.detach_all(&doomed);
    for id in emptied {
        while let Some(c) = dom.node(id).first_child.some() {
            dom.detach(c);
        }
    }
    report
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
    for a in dom.attrs_of(id) {
        let value = || &dom.attr_text[a.start as usize..a.end as usize];
        match &*a.name {
            "hidden" => return true,
            "type" if value().trim().eq_ignore_ascii_case("hidden") => return true,
            "aria-hidden" if value().trim().eq_ignore_ascii_case("true") => return true,
            "style" if style_hides(value()) => return true,
            _ => {}
        }
    }
    false
}

/// Whether an inline style contains `display:none` or `visibility:hidden`
/// (white space and case ignored).
pub fn style_hides(style: &str) -> bool {
    let compact: String = style
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    compact.split(';').any(|decl| {
        let decl = decl.trim_end_matches("!important");
        decl == "display:none" || decl == "visibility:hidden"
    })
}

#[cfg(test)]
mod tests {
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
