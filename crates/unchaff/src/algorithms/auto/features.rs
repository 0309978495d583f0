//! The default extractor's blocks and their features.
//!
//! A **block** is the nearest block-level element (a [`Flow::Block`] or
//! [`Flow::Cell`] element, see [`Tag::flow`]) above a text node:
//! a paragraph, a list item, a heading, a table cell, a `div` with its own
//! text. A block's *own* text is the text whose nearest block-level element
//! it is; text of nested blocks belongs to them.
//!
//! Every feature is computed in a few linear passes over the annotated
//! page: one top-down pass over the elements (context inherited from the
//! ancestors: semantic tags, class/id vocabulary, nearest
//! positive/negative container), one pass over the text nodes (own counts),
//! and passes over the blocks (neighbours, tag paths, candidates).

use rustc_hash::FxHashMap;

use super::vocab::{FAMILIES, Families, Family, Vocabulary};
use crate::algorithms::cetd_tpc::CetdTpc;
use crate::annotate::Page;
use crate::dom::{Flow, NodeId, Tag};

/// The feature names, in input order (saved with the model, checked on
/// load).
pub const NAMES: &[&str] = &[
    // The block's own text.
    "chars_ln",
    "link_ratio",
    "words_ln",
    "chars_per_word",
    "stops_per_word",
    "commas_per_word",
    "digit_ratio",
    "ends_sentence",
    "text_nodes",
    "link_node_ratio",
    // The block element.
    "heading_level",
    "tag_p",
    "tag_li",
    "tag_cell",
    "tag_div",
    "tag_pre_quote",
    "tag_dt_dd",
    "tag_caption",
    // Semantic elements around it (the element itself included).
    "in_article",
    "in_main",
    "in_nav",
    "in_aside",
    "in_footer",
    "in_header",
    "in_form",
    "in_li",
    "in_table",
    "in_figure",
    "in_blockquote",
    "in_section",
    "in_address",
    "in_a",
    // Class/id vocabulary around it (see vocab.rs).
    "v_positive",
    "v_comment",
    "v_nav",
    "v_sidebar",
    "v_related",
    "v_share",
    "v_footer",
    "v_header",
    "v_ad",
    "v_meta",
    "v_caption",
    "v_overlay",
    "v_hidden",
    "positive_dist",
    "negative_dist",
    "depth",
    // The surrounding containers.
    "parent_chars_ln",
    "parent_link_ratio",
    "grand_chars_ln",
    "grand_link_ratio",
    // The page.
    "page_chars_ln",
    "page_link_ratio",
    "position",
    "share",
    "path_blocks_ln",
    "path_share",
    // The neighbouring blocks.
    "prev_chars_ln",
    "prev_link_ratio",
    "next_chars_ln",
    "next_link_ratio",
    "window_chars_ln",
    "window_link_ratio",
    // Whole-page candidates: CETD-TPC's block, Readability's top candidate.
    "in_cetd_tpc",
    "cetd_tpc_rel",
    "in_top",
    "in_top_parent",
    "top_share",
];

/// Number of features.
pub const N: usize = NAMES.len();

/// Blocks on either side that the window features cover.
const WINDOW: usize = 3;

/// Distance reported when no container of a kind is above the block.
const NO_CONTAINER: f32 = 64.0;

/// Readability's paragraph threshold: shorter blocks add nothing to their
/// containers' scores (Readability.js, `_grabArticle`: 25 characters).
const CANDIDATE_MIN_CHARS: u32 = 25;

/// Readability's length bonus: one point per 100 characters, at most 3.
const CANDIDATE_LENGTH_UNIT: f32 = 100.0;
/// See [`CANDIDATE_LENGTH_UNIT`].
const CANDIDATE_LENGTH_CAP: f32 = 3.0;

/// The blocks of a page and their features.
#[derive(Clone, Debug, Default)]
pub struct Blocks {
    /// The block element of each block, in order of their first text.
    pub nodes: Vec<NodeId>,
    /// Whether no other block lies inside the block element (then the
    /// element can be selected whole, with its inline images and links).
    pub leaf: Vec<bool>,
    /// The block of each counted text node (`page.texts` order).
    pub text_block: Vec<u32>,
    /// Own characters of each block.
    pub chars: Vec<u32>,
    /// Whether the block lies in a comment container (class/id vocabulary).
    pub comment: Vec<bool>,
    /// The features, [`NAMES`] order.
    pub features: Vec<[f32; N]>,
    /// The page's element tree in document order, as each element's
    /// parent position (`u32::MAX` for the root): what the context stage
    /// ([`super::context`]) aggregates over.
    pub element_parent: Vec<u32>,
    /// The position of each block's element in [`Blocks::element_parent`].
    pub block_element: Vec<u32>,
    /// Each block element's tag path.
    pub block_path: Vec<u32>,
    /// The elements in a record group, as (position in
    /// [`Blocks::element_parent`], group), ascending by position: the
    /// siblings that repeat one tag and `class` ([`RECORD_MIN_MEMBERS`] or
    /// more), as the posts of a forum thread, the comments under an
    /// article or the cards of a listing do. Groups are numbered from 0.
    /// Only the members are listed: on element-dense pages a group number
    /// an element was 4 bytes an element at `auto`'s peak.
    pub element_group: Vec<(u32, u32)>,
    /// Number of record groups.
    pub groups: u32,
}

/// A record key not (yet) numbered as a group.
pub const NO_GROUP: u32 = u32::MAX;

/// Siblings of one tag and class that make a record group: three, so that
/// a pair of columns or a header and footer sharing a class is not one.
pub const RECORD_MIN_MEMBERS: u32 = 3;

/// Whether an element of this tag can be a record: the containers that
/// forum posts, comments and cards are written as.
pub(super) fn record_tag(t: Tag) -> bool {
    matches!(
        t,
        Tag::DIV | Tag::ARTICLE | Tag::SECTION | Tag::LI | Tag::TR | Tag::TABLE | Tag::BLOCKQUOTE
    )
}

/// Per-element context inherited from the ancestors.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Context {
    /// Semantic-element bits (index into the `in_*` features).
    tags: u16,
    /// Vocabulary families.
    families: Families,
    /// Depth of the nearest positive / negative container ([`NONE`] when
    /// there is none).
    positive_depth: u32,
    negative_depth: u32,
}

/// No container of the kind above.
const NONE: u32 = u32::MAX;

/// Each element's [`Context`] as a 4-byte number into a table of
/// contexts, instead of the 12-byte context itself: most elements inherit
/// their parent's unchanged, and siblings that change it alike (a list of
/// links) share one entry.
struct Contexts {
    /// The contexts; entry 0 is the empty one.
    table: Vec<Context>,
    /// Each element's entry in `table`.
    of: Vec<u32>,
}

impl Contexts {
    fn with_capacity(elements: usize) -> Contexts {
        Contexts {
            table: vec![Context::default()],
            of: Vec::with_capacity(elements),
        }
    }

    /// The context of element `i` (the empty one past the end).
    #[inline]
    fn get(&self, i: usize) -> Context {
        self.table[self.of.get(i).copied().unwrap_or(0) as usize]
    }

    /// Records the next element's context, `c`, derived from its parent's
    /// (element `parent`, possibly none).
    #[inline]
    fn push(&mut self, parent: usize, c: Context) {
        let from = self.of.get(parent).copied().unwrap_or(0);
        let entry = if self.table[from as usize] == c {
            from
        } else {
            // The last entry made serves the siblings that follow.
            let last = self.table.len() - 1;
            if self.table[last] != c {
                self.table.push(c);
            }
            (self.table.len() - 1) as u32
        };
        self.of.push(entry);
    }
}

/// [`blocks`]' owner table: each element's block owner (its nearest
/// block-level ancestor or itself, as a position in `page.elements`)
/// until pass 2 gives each owner its block index, written in place over
/// the owner's own entry with this bit set. Element positions stay below
/// it: 2³¹ elements need far more than [`crate::decode::DEFAULT_MAX_INPUT`].
const BLOCK_INDEX: u32 = 1 << 31;

impl Default for Context {
    fn default() -> Self {
        Context {
            tags: 0,
            families: 0,
            positive_depth: NONE,
            negative_depth: NONE,
        }
    }
}

/// Record candidates while the elements are read: each candidate
/// element's key (parent, tag, class) as a dense key number, and how many
/// elements share each key. Candidates only, so that an element-dense
/// page of inline elements pays nothing for it (docs/BENCHMARKS.md).
#[derive(Default)]
struct RecordKeys<'a> {
    ids: FxHashMap<(u32, Tag, &'a str), u32>,
    members: Vec<u32>,
    /// Each candidate's (element position, key number), ascending.
    of: Vec<(u32, u32)>,
}

impl<'a> RecordKeys<'a> {
    /// Records element `i`'s key, if it is a candidate.
    fn push(&mut self, i: usize, key: Option<(u32, Tag, &'a str)>) {
        if let Some(k) = key {
            let next = self.members.len() as u32;
            let id = *self.ids.entry(k).or_insert(next);
            if id == next {
                self.members.push(0);
            }
            self.members[id as usize] += 1;
            self.of.push((i as u32, id));
        }
    }

    /// Numbers the record groups (the keys at least
    /// [`RECORD_MIN_MEMBERS`] elements share) and lists their members into
    /// `out`.
    fn into_groups(self, out: &mut Blocks) {
        let mut group_of_key = vec![NO_GROUP; self.members.len()];
        let mut groups = 0u32;
        for &(i, k) in &self.of {
            let key = k as usize;
            if self.members[key] < RECORD_MIN_MEMBERS {
                continue;
            }
            if group_of_key[key] == NO_GROUP {
                group_of_key[key] = groups;
                groups += 1;
            }
            out.element_group.push((i, group_of_key[key]));
        }
        out.groups = groups;
    }
}

/// The `in_*` bit of a semantic element.
fn tag_bit(t: Tag) -> Option<u16> {
    let i = match t {
        Tag::ARTICLE => 0,
        Tag::MAIN => 1,
        Tag::NAV | Tag::MENU => 2,
        Tag::ASIDE => 3,
        Tag::FOOTER => 4,
        Tag::HEADER => 5,
        Tag::FORM | Tag::FIELDSET => 6,
        Tag::LI => 7,
        Tag::TABLE => 8,
        Tag::FIGURE => 9,
        Tag::BLOCKQUOTE => 10,
        Tag::SECTION => 11,
        Tag::ADDRESS => 12,
        Tag::A => 13,
        _ => return None,
    };
    Some(1 << i)
}

/// Families that mark noise containers (for `negative_dist`).
const NEGATIVE: Families = (1 << Family::Comment as u8)
    | (1 << Family::Nav as u8)
    | (1 << Family::Sidebar as u8)
    | (1 << Family::Related as u8)
    | (1 << Family::Share as u8)
    | (1 << Family::Footer as u8)
    | (1 << Family::Ad as u8)
    | (1 << Family::Overlay as u8)
    | (1 << Family::Hidden as u8);

fn ln1(x: f32) -> f32 {
    (1.0 + x).ln()
}

fn ratio(a: u32, b: u32) -> f32 {
    if b == 0 { 0.0 } else { a as f32 / b as f32 }
}

/// Own-text counts of a block.
#[derive(Clone, Copy, Default)]
struct Own {
    chars: u32,
    link_chars: u32,
    words: u32,
    stops: u32,
    commas: u32,
    digits: u32,
    text_nodes: u32,
    link_nodes: u32,
    ends_sentence: bool,
}

/// Counts words, sentence ends, commas and digits of one text node.
fn scan(s: &str, o: &mut Own) {
    let mut in_word = false;
    let mut last = ' ';
    for c in s.chars() {
        if c.is_whitespace() {
            in_word = false;
            continue;
        }
        last = c;
        match c {
            '.' | '!' | '?' | '。' | '！' | '？' | '…' => o.stops += 1,
            ',' | ';' | '，' | '、' | '；' => o.commas += 1,
            '0'..='9' => o.digits += 1,
            _ => {}
        }
        // A CJK character is a word of its own.
        if c >= '\u{3040}' && super::super::text_distribution::is_cjk(c) {
            o.words += 1;
            in_word = false;
        } else if !in_word {
            o.words += 1;
            in_word = true;
        }
    }
    if last != ' ' {
        o.ends_sentence = matches!(last, '.' | '!' | '?' | '。' | '！' | '？' | ':' | '"' | '”');
    }
}

/// Share of the page's text that the containers of one noise family may
/// hold before the family says nothing: a page is not mostly sidebar or
/// menu, so a name on (nearly) everything is the site's layout (a page
/// builder's `elementor-widget` wrapping every paragraph, a `has-sidebar`
/// on the body), not a verdict on the text inside.
pub const WIDE_SHARE: f32 = 0.5;

/// The families [`WIDE_SHARE`] applies to: the noise families but
/// comments, which can rightly outweigh the article they follow.
const WIDE_FAMILIES: Families = NEGATIVE & !(1 << Family::Comment as u8);

/// Pass 1's results: each element's parent position, block owner and
/// inherited context, the record keys, the text each family's outermost
/// containers hold, and the block owners' contexts.
struct Inherited<'a> {
    parent: Vec<u32>,
    owner: Vec<u32>,
    ctx: Contexts,
    records: RecordKeys<'a>,
    covered: [u32; FAMILIES],
    owner_ctx: Vec<(u32, u32)>,
}

impl Inherited<'_> {
    /// The [`WIDE_FAMILIES`] whose containers hold at least
    /// [`WIDE_SHARE`] of the page's `total` characters.
    fn wide(&self, total: u32) -> Families {
        let mut wide = 0;
        for (f, &c) in self.covered.iter().enumerate() {
            let bit = 1 << f;
            if WIDE_FAMILIES & bit != 0 && total > 0 && c as f32 >= WIDE_SHARE * total as f32 {
                wide |= bit;
            }
        }
        wide
    }
}

/// Pass 1, top-down over the elements (indexed by their position in
/// document order): block owner and the context each inherits, with the
/// families in `mask` ignored.
fn inherit<'a>(
    page: &Page<'a>,
    vocab: &Vocabulary,
    cache: &mut FxHashMap<&'a str, Families>,
    mask: Families,
) -> Inherited<'a> {
    let dom = page.dom;
    let root = page.root;
    let ne = page.elements.len();
    let pos = |x: NodeId| page.element_index(x).map_or(u32::MAX, |i| i as u32);
    let mut parents = Vec::with_capacity(ne);
    let mut owner = vec![0u32; ne];
    let mut ctx = Contexts::with_capacity(ne);
    // Each record candidate's (parent, tag, class), for the groups.
    let mut records = RecordKeys::default();
    let mut covered = [0u32; FAMILIES];
    // The contexts of the block owners (every block is one), as (element
    // position, entry), ascending: the element-sized `ctx.of` is freed
    // before pass 2 (on element-dense pages few elements own a block).
    let mut owner_ctx: Vec<(u32, u32)> = Vec::new();
    for (i, &e) in page.elements.iter().enumerate() {
        let up = dom.node(e).parent;
        let parent = if e == root || up.is_none() {
            u32::MAX
        } else {
            pos(up)
        };
        parents.push(parent);
        let tag = dom.tag(e).unwrap_or(Tag::DIV);
        let mut c = ctx.get(parent as usize);
        let is_block = e == root || matches!(tag.flow(), Flow::Block | Flow::Cell);
        owner[i] = match owner.get(parent as usize) {
            Some(&o) if !is_block => o,
            _ => i as u32,
        };
        if let Some(b) = tag_bit(tag) {
            c.tags |= b;
        }
        let mut fam: Families = 0;
        let mut class = "";
        for a in dom.attrs_of(e) {
            if matches!(&*a.name, "class" | "id" | "role" | "itemprop") {
                let v = &dom.attr_text[a.start as usize..a.end as usize];
                if v.is_empty() {
                    continue;
                }
                if &*a.name == "class" {
                    // The whole value: grouping by the first class name
                    // alone scored lower held out (RESULTS.md, LOFO).
                    class = v;
                }
                fam |= *cache.entry(v).or_insert_with(|| vocab.families(v));
            }
        }
        fam &= !mask;
        // A classless `div` is layout, not a record; classless articles,
        // list items and rows are records by their tag.
        let candidate = parent != u32::MAX
            && record_tag(tag)
            && (!class.is_empty() || matches!(tag, Tag::ARTICLE | Tag::LI | Tag::TR));
        records.push(i, candidate.then_some((parent, tag, class)));
        if fam != 0 {
            let stats = page.element_stats(i);
            // The outermost container of each family: its text counts
            // once.
            let outermost = fam & !c.families;
            if outermost != 0 {
                for (f, cov) in covered.iter_mut().enumerate() {
                    if outermost & (1 << f) != 0 {
                        *cov += stats.chars;
                    }
                }
            }
            let depth = stats.depth;
            if fam & (1 << Family::Positive as u8) != 0 {
                c.positive_depth = depth;
            }
            if fam & NEGATIVE != 0 {
                c.negative_depth = depth;
            }
            c.families |= fam;
        }
        ctx.push(parent as usize, c);
        if owner[i] == i as u32 {
            owner_ctx.push((i as u32, ctx.of[i]));
        }
    }
    Inherited {
        parent: parents,
        owner,
        ctx,
        records,
        covered,
        owner_ctx,
    }
}

/// The blocks of `page` with their features. `vocab` is the compiled
/// class/id vocabulary (built once per extractor).
pub fn blocks(page: &Page<'_>, vocab: &Vocabulary) -> Blocks {
    let dom = page.dom;
    let root = page.root;
    let mut out = Blocks::default();
    if page.elements.is_empty() {
        return out;
    }
    let ne = page.elements.len();
    let pos = |x: NodeId| page.element_index(x).map_or(u32::MAX, |i| i as u32);
    let mut cache: FxHashMap<&str, Families> = FxHashMap::default();
    // Pass 1, top-down over the elements: block owner, context. A noise
    // family that wraps most of the page is read again without it.
    let mut first = inherit(page, vocab, &mut cache, 0);
    let wide = first.wide(page.stats(root).chars);
    if wide != 0 {
        // The first reading goes before the second is made: both are
        // sized by the elements.
        drop(first);
        first = inherit(page, vocab, &mut cache, wide);
    }
    let Inherited {
        parent: element_parent,
        mut owner,
        mut ctx,
        records,
        owner_ctx,
        ..
    } = first;
    out.element_parent = element_parent;
    records.into_groups(&mut out);
    ctx.of = Vec::new();
    // Pass 2, over the text nodes: blocks in order of their first text,
    // with their own counts.
    // From here on `owner` turns into the block index of each owner
    // (BLOCK_INDEX): `index_of` reads it.
    let mut own: Vec<Own> = Vec::new();
    out.text_block.reserve(page.texts.len());
    for t in &page.texts {
        let parent = dom.node(t.node).parent;
        let at = if parent.is_none() { 0 } else { pos(parent) } as usize;
        let b_pos = match owner.get(at) {
            // An owner already numbered owns itself.
            Some(&o) if o & BLOCK_INDEX != 0 => at,
            Some(&o) => o as usize,
            None => 0,
        };
        let mut k = owner[b_pos];
        if k & BLOCK_INDEX != 0 {
            k &= !BLOCK_INDEX;
        } else {
            k = out.nodes.len() as u32;
            owner[b_pos] = k | BLOCK_INDEX;
            out.nodes.push(page.elements[b_pos]);
            out.block_element.push(b_pos as u32);
            own.push(Own::default());
        }
        out.text_block.push(k);
        let o = &mut own[k as usize];
        o.chars += t.chars;
        o.text_nodes += 1;
        if t.in_link {
            o.link_chars += t.chars;
            o.link_nodes += 1;
        }
        if let Some(s) = dom.text_of(t.node) {
            scan(s, o);
        }
    }
    let nb = out.nodes.len();
    // What is sized by the elements is freed as soon as it is read for
    // the last time, or kept for the blocks only: on element-dense pages
    // these vectors are a large part of the memory.
    // The block of each element that is one.
    let index_of = |i: usize| {
        let k = owner[i];
        (k & BLOCK_INDEX != 0).then_some((k & !BLOCK_INDEX) as usize)
    };
    // Pass 3, bottom-up over the elements: which blocks contain others.
    let mut below = vec![false; ne];
    for i in (1..ne).rev() {
        let up = out.element_parent[i] as usize;
        if up < i && (below[i] || index_of(i).is_some()) {
            below[up] = true;
        }
    }
    out.leaf = out
        .block_element
        .iter()
        .map(|&i| !below[i as usize])
        .collect();
    drop(below);
    let block_ctx: Vec<Context> = out
        .block_element
        .iter()
        .map(|&i| {
            let at = owner_ctx.binary_search_by_key(&i, |&(e, _)| e);
            ctx.table[at.map_or(0, |j| owner_ctx[j].1) as usize]
        })
        .collect();
    drop(ctx);
    drop(owner_ctx);
    out.chars = own.iter().map(|o| o.chars).collect();
    out.comment = block_ctx
        .iter()
        .map(|c| c.families & (1 << Family::Comment as u8) != 0)
        .collect();

    // The blocks by element position, so that `owner` (4 bytes an
    // element) is freed before CETD-TPC runs: CETD-TPC scores the elements
    // in document order, and a cursor over this list finds their blocks.
    let mut by_element: Vec<(u32, u32)> = (out.block_element.iter())
        .enumerate()
        .map(|(k, &e)| (e, k as u32))
        .collect();
    if !by_element.is_sorted() {
        by_element.sort_unstable();
    }
    drop(owner);
    let mut next = 0;
    let index_of = |i: usize| {
        while by_element.get(next).is_some_and(|&(e, _)| (e as usize) < i) {
            next += 1;
        }
        match by_element.get(next) {
            Some(&(e, k)) if e as usize == i => Some(k as usize),
            _ => None,
        }
    };
    // Whole-page candidates. CETD-TPC's chosen block, its largest score
    // and each block's score (not a node-sized vector of them):
    let (cetd_best, cetd_max, cetd_block) =
        CetdTpc::default().best_max_and_some(page, nb, index_of);
    drop(by_element);
    // Readability's top candidate: each block of enough text scores
    // 1 + commas + length bonus for its parent and half for its
    // grandparent; a candidate's score is scaled by 1 − its link density.
    let mut cand = vec![0f32; ne];
    for (k, &b_el) in out.nodes.iter().enumerate() {
        let o = &own[k];
        if o.chars < CANDIDATE_MIN_CHARS {
            continue;
        }
        let s = 1.0
            + o.commas as f32
            + (o.chars as f32 / CANDIDATE_LENGTH_UNIT).min(CANDIDATE_LENGTH_CAP);
        let p = out.element_parent[out.block_element[k] as usize] as usize;
        if p >= ne || b_el == root {
            continue;
        }
        cand[p] += s;
        if let Some(&g) = out.element_parent.get(p)
            && (g as usize) < ne
        {
            cand[g as usize] += s / 2.0;
        }
    }
    // The first of the best in document order.
    let mut top: Option<(NodeId, f32)> = None;
    for (i, &e) in page.elements.iter().enumerate() {
        let s = cand[i];
        if s > 0.0 {
            let st = page.stats(e);
            let s = s * (1.0 - ratio(st.link_chars, st.chars));
            if top.is_none_or(|(_, b)| s > b) {
                top = Some((e, s));
            }
        }
    }
    drop(cand);
    let top = top.map(|(e, _)| e);
    let top_parent = top.map(|t| dom.node(t).parent).filter(|p| !p.is_none());
    let inside = |x: Option<NodeId>, e: NodeId| {
        x.is_some_and(|x| {
            let (px, pe) = (pos(x), pos(e));
            pe >= px && pe < px + page.stats(x).elements
        })
    };

    // Tag-path totals.
    let mut path_blocks = vec![0u32; page.paths.len()];
    let mut path_chars = vec![0u32; page.paths.len()];
    for (k, &b_el) in out.nodes.iter().enumerate() {
        let p = page.stats(b_el).path.0 as usize;
        if let (Some(n), Some(c)) = (path_blocks.get_mut(p), path_chars.get_mut(p)) {
            *n += 1;
            *c += own[k].chars;
        }
    }

    let page_stats = page.stats(root);
    let page_chars = page_stats.chars.max(1);
    let top_share = top.map_or(0.0, |t| ratio(page.stats(t).chars, page_chars));
    let mut before = 0u32;
    out.features.reserve(nb);
    for k in 0..nb {
        let b_el = out.nodes[k];
        let o = own[k];
        let tag = dom.tag(b_el).unwrap_or(Tag::DIV);
        let c = block_ctx[k];
        let st = page.stats(b_el);
        let parent = dom.node(b_el).parent;
        let (pc, pl, gc, gl) = if parent.is_none() || b_el == root {
            (o.chars, o.link_chars, o.chars, o.link_chars)
        } else {
            let ps = page.stats(parent);
            let g = dom.node(parent).parent;
            let gs = if g.is_none() || parent == root {
                ps
            } else {
                page.stats(g)
            };
            (ps.chars, ps.link_chars, gs.chars, gs.link_chars)
        };
        let words = o.words.max(1) as f32;
        let heading = if tag.is_heading() {
            (tag.0 - Tag::H1.0 + 1) as f32
        } else {
            0.0
        };
        let dist = |d: u32| match d {
            NONE => NO_CONTAINER,
            d => st.depth.saturating_sub(d) as f32,
        };
        let (wlo, whi) = (k.saturating_sub(WINDOW), (k + WINDOW + 1).min(nb));
        let (wc, wl) = own[wlo..whi]
            .iter()
            .fold((0, 0), |(a, b), x| (a + x.chars, b + x.link_chars));
        let prev = k.checked_sub(1).map(|i| own[i]).unwrap_or_default();
        let next = own.get(k + 1).copied().unwrap_or_default();
        let path = st.path.0 as usize;
        let bit = |i: u16| ((c.tags >> i) & 1) as f32;
        let fam = |f: Family| ((c.families >> f as u8) & 1) as f32;
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        let f: [f32; N] = [
            ln1(o.chars as f32),
            ratio(o.link_chars, o.chars),
            ln1(o.words as f32),
            (o.chars as f32 / words).min(50.0),
            o.stops as f32 / words,
            o.commas as f32 / words,
            ratio(o.digits, o.chars),
            flag(o.ends_sentence),
            o.text_nodes as f32,
            ratio(o.link_nodes, o.text_nodes),
            heading,
            flag(tag == Tag::P),
            flag(tag == Tag::LI),
            flag(matches!(tag, Tag::TD | Tag::TH)),
            flag(tag == Tag::DIV),
            flag(matches!(tag, Tag::PRE | Tag::BLOCKQUOTE)),
            flag(matches!(tag, Tag::DT | Tag::DD)),
            flag(matches!(tag, Tag::FIGCAPTION | Tag::CAPTION)),
            bit(0),
            bit(1),
            bit(2),
            bit(3),
            bit(4),
            bit(5),
            bit(6),
            bit(7),
            bit(8),
            bit(9),
            bit(10),
            bit(11),
            bit(12),
            bit(13),
            fam(Family::Positive),
            fam(Family::Comment),
            fam(Family::Nav),
            fam(Family::Sidebar),
            fam(Family::Related),
            fam(Family::Share),
            fam(Family::Footer),
            fam(Family::Header),
            fam(Family::Ad),
            fam(Family::Meta),
            fam(Family::Caption),
            fam(Family::Overlay),
            fam(Family::Hidden),
            dist(c.positive_depth),
            dist(c.negative_depth),
            st.depth as f32,
            ln1(pc as f32),
            ratio(pl, pc),
            ln1(gc as f32),
            ratio(gl, gc),
            ln1(page_stats.chars as f32),
            ratio(page_stats.link_chars, page_stats.chars),
            ratio(before, page_chars),
            ratio(o.chars, page_chars),
            ln1(path_blocks.get(path).copied().unwrap_or(0) as f32),
            ratio(path_chars.get(path).copied().unwrap_or(0), page_chars),
            ln1(prev.chars as f32),
            ratio(prev.link_chars, prev.chars),
            ln1(next.chars as f32),
            ratio(next.link_chars, next.chars),
            ln1(wc as f32),
            ratio(wl, wc),
            flag(inside(cetd_best, b_el)),
            if cetd_max > 0.0 {
                cetd_block[k] / cetd_max
            } else {
                0.0
            },
            flag(inside(top, b_el)),
            flag(inside(top_parent, b_el)),
            top_share,
        ];
        out.features.push(f);
        out.block_path.push(st.path.0);
        before += o.chars;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::{find, page_of};
    use crate::parse::parse;

    fn get(b: &Blocks, k: usize, name: &str) -> f32 {
        let i = NAMES.iter().position(|n| *n == name).expect("a feature");
        b.features[k][i]
    }

    const PAGE: &str = "<body>\
        <nav><a href=/>Home</a> <a href=/n>News</a></nav>\
        <div class=article-body><h2>Title</h2>\
        <p>One, two. Three four. Five six seven eight.</p>\
        <p>Five <a href=x>six</a></p></div>\
        <div id=comments><p>Nice post!</p></div></body>";

    #[test]
    fn a_family_on_most_of_the_page_says_nothing() {
        // A page builder names every paragraph's wrapper a "widget"; the
        // real sidebar is a small part of the page.
        let widget = |t: &str| {
            format!(
                "<div class=elementor-widget><div class=elementor-widget-container><p>{t}</p></div></div>"
            )
        };
        let article: String = (0..4)
            .map(|i| {
                widget(&format!(
                    "Paragraph {i} of the article, long enough to matter."
                ))
            })
            .collect();
        let html = format!(
            "<body><div class=wrap>{article}</div><div id=sidebar><p>Links</p></div></body>"
        );
        let dom = parse(&html);
        let page = page_of(&dom);
        let b = blocks(&page, &Vocabulary::new());
        assert_eq!(b.nodes.len(), 5);
        // The widgets hold ~96% of the text: not a sidebar, so neither
        // the family nor the nearest noise container counts.
        assert_eq!(get(&b, 0, "v_sidebar"), 0.0);
        assert_eq!(get(&b, 0, "negative_dist"), NO_CONTAINER);
        // … but the sidebar block itself is still in one: the text under
        // `sidebar` names is the wide family's too, and is masked with
        // it — the rule is per family, not per name.
        assert_eq!(get(&b, 4, "v_sidebar"), 0.0);
        // Without the widgets the sidebar is one.
        let dom = parse(&format!(
            "<body><div class=wrap><p>{}</p></div><div id=sidebar><p>Links</p></div></body>",
            "Paragraph of the article, long enough to matter. ".repeat(4)
        ));
        let page = page_of(&dom);
        let b = blocks(&page, &Vocabulary::new());
        assert_eq!(get(&b, 1, "v_sidebar"), 1.0);
        assert_eq!(get(&b, 0, "v_sidebar"), 0.0);
    }

    #[test]
    fn blocks_and_their_own_text() {
        let dom = parse(PAGE);
        let page = page_of(&dom);
        let b = blocks(&page, &Vocabulary::new());
        // nav (its links are its own text), h2, p, p, the comment's p.
        assert_eq!(b.nodes.len(), 5);
        assert_eq!(b.nodes[0], find(&dom, Tag::NAV, 0));
        assert_eq!(b.nodes[1], find(&dom, Tag::H2, 0));
        assert_eq!(b.text_block, vec![0, 0, 1, 2, 3, 3, 4]);
        // "Home" + " " collapsed away + "News": 4 + 4 characters, all links.
        // Text nodes count trimmed: the first paragraph is 43, "Five " 4
        // plus the link's "six" 3.
        assert_eq!(b.chars, vec![8, 5, 43, 7, 10]);
        assert_eq!(get(&b, 0, "link_ratio"), 1.0);
        assert_eq!(get(&b, 0, "in_nav"), 1.0);
        assert_eq!(get(&b, 3, "link_ratio"), 3.0 / 7.0);
        assert_eq!(get(&b, 1, "heading_level"), 2.0);
        assert_eq!(get(&b, 2, "tag_p"), 1.0);
        // 8 words, 3 stops, 1 comma; ends with a stop.
        assert_eq!(get(&b, 2, "words_ln"), 9f32.ln());
        assert_eq!(get(&b, 2, "stops_per_word"), 3.0 / 8.0);
        assert_eq!(get(&b, 2, "commas_per_word"), 1.0 / 8.0);
        assert_eq!(get(&b, 2, "ends_sentence"), 1.0);
        // Vocabulary: the article body is positive, the comments negative.
        assert_eq!(get(&b, 2, "v_positive"), 1.0);
        assert_eq!(get(&b, 2, "v_comment"), 0.0);
        assert_eq!(get(&b, 4, "v_comment"), 1.0);
        assert_eq!(b.comment, vec![false, false, false, false, true]);
        // The comment's p is one level below its negative container.
        assert_eq!(get(&b, 4, "negative_dist"), 1.0);
        assert_eq!(get(&b, 2, "negative_dist"), NO_CONTAINER);
        // Every block is a leaf here.
        assert!(b.leaf.iter().all(|&l| l));
        // Position: the characters before the first paragraph are the
        // nav's 8 and the heading's 5, of 73 on the page.
        assert_eq!(get(&b, 2, "position"), 13.0 / 73.0);
        // Readability's top candidate is the article div (the parent of
        // the one paragraph of 25 characters or more).
        assert_eq!(get(&b, 2, "in_top"), 1.0);
        assert_eq!(get(&b, 0, "in_top"), 0.0);
    }

    #[test]
    fn contexts_are_shared_by_number() {
        let link = Context {
            tags: 1 << 13,
            ..Context::default()
        };
        let nav = Context {
            tags: 1 << 2,
            negative_depth: 1,
            ..Context::default()
        };
        // root (empty), nav, three links in it, a span under the first.
        let mut c = Contexts::with_capacity(6);
        c.push(usize::MAX, Context::default());
        c.push(0, nav);
        let in_nav = Context {
            tags: nav.tags | link.tags,
            ..nav
        };
        for _ in 0..3 {
            c.push(1, in_nav);
        }
        c.push(2, in_nav);
        let want = [Context::default(), nav, in_nav, in_nav, in_nav, in_nav];
        for (i, w) in want.iter().enumerate() {
            assert_eq!(c.get(i), *w, "element {i}");
        }
        // The empty context past the end; one entry for the three links
        // and the span that inherits unchanged.
        assert_eq!(c.get(6), Context::default());
        assert_eq!(c.table.len(), 3);
        assert_eq!(c.of, vec![0, 1, 2, 2, 2, 2]);
    }

    #[test]
    fn a_div_with_text_and_nested_blocks_is_not_a_leaf() {
        let dom = parse("<body><div>intro <p>para</p> outro</div></body>");
        let page = page_of(&dom);
        let b = blocks(&page, &Vocabulary::new());
        assert_eq!(
            b.nodes,
            vec![find(&dom, Tag::DIV, 0), find(&dom, Tag::P, 0)]
        );
        assert_eq!(b.leaf, vec![false, true]);
        assert_eq!(b.text_block, vec![0, 1, 0]);
    }

    #[test]
    fn empty_and_deep_pages() {
        let dom = parse("<body></body>");
        let b = blocks(&page_of(&dom), &Vocabulary::new());
        assert!(b.nodes.is_empty());
        let deep = format!(
            "<body>{}x{}</body>",
            "<div>".repeat(5000),
            "</div>".repeat(5000)
        );
        let dom = parse(&deep);
        let b = blocks(&page_of(&dom), &Vocabulary::new());
        assert_eq!(b.nodes.len(), 1);
    }
}
