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

use html5ever::local_name;
use rustc_hash::FxHashMap;

use super::vocab::{FAMILIES, Families, Family, Vocabulary};
use crate::algorithms::cetd_tpc::CetdTpc;
use crate::annotate::{NodeStats, Page};
use crate::dom::{Flow, NodeId, Tag};

/// Declares a stage's features once, each a name and the expression of its
/// value, so that a name and its value cannot drift apart. It makes:
///
/// * `NAMES`, the names in the order given (saved with a model and checked
///   on load, so the order and the strings are the model's format), its
///   documentation a table of the features and their doc lines;
/// * `N`, their number, and `index`, a name's index in `NAMES` (a const
///   fn: `const LINK_RATIO: usize = index("link_ratio")` fails the build
///   for a name that is not a feature);
/// * the function that fills one block's row, `[f32; N]`, evaluating the
///   expressions in order; they read the block's inputs through the
///   parameter that the `fn` line names.
///
/// Each feature is `/// what it measures` then `"name" => expression,`.
macro_rules! feature_table {
    (
        $(#[$names_attr:meta])*
        const NAMES;
        $(#[$row_attr:meta])*
        fn $row:ident($x:ident: $input:ty);
        $( $(#[doc = $doc:literal])+ $name:literal => $value:expr, )+
    ) => {
        $(#[$names_attr])*
        ///
        /// | Feature | What it measures |
        /// |---|---|
        $(#[doc = concat!("| `", $name, "` |", $($doc),+, " |")])+
        pub const NAMES: &[&str] = &[$($name),+];

        /// Number of features (the length of [`NAMES`]).
        pub const N: usize = NAMES.len();

        /// The index of the feature called `name` in [`NAMES`], at compile
        /// time in a const context (`const I: usize = index(NAME);`: a name
        /// that is not a feature fails the build).
        pub const fn index(name: &str) -> usize {
            let mut i = 0;
            while i < N {
                let (a, b) = (NAMES[i].as_bytes(), name.as_bytes());
                if a.len() == b.len() {
                    let mut j = 0;
                    while j < a.len() && a[j] == b[j] {
                        j += 1;
                    }
                    if j == a.len() {
                        return i;
                    }
                }
                i += 1;
            }
            panic!("no such feature")
        }

        $(#[$row_attr])*
        #[inline(always)]
        fn $row($x: $input) -> [f32; N] {
            [$($value),+]
        }
    };
}
pub(super) use feature_table;

feature_table! {
    /// The feature names, in input order (saved with the model, checked on
    /// load).
    const NAMES;
    /// One block's features from its inputs, [`NAMES`] order.
    fn row(x: &Row);

    // The block's own text.
    /// ln(1 + the block's own characters).
    "chars_ln" => ln1(x.own.chars as f32),
    /// Share of its own characters that are link text.
    "link_ratio" => ratio(x.own.link_chars, x.own.chars),
    /// ln(1 + its own words); a CJK character is a word.
    "words_ln" => ln1(x.own.words as f32),
    /// Characters a word, at most `MAX_CHARS_PER_WORD`.
    "chars_per_word" => (x.own.chars as f32 / x.words()).min(MAX_CHARS_PER_WORD),
    /// Sentence stops (`.`, `!`, `?`, `…` and the CJK ones) a word.
    "stops_per_word" => x.own.stops as f32 / x.words(),
    /// Commas and semicolons (Latin and CJK) a word.
    "commas_per_word" => x.own.commas as f32 / x.words(),
    /// Share of its own characters that are ASCII digits.
    "digit_ratio" => ratio(x.own.digits, x.own.chars),
    /// 1 when its text ends as a sentence does (a stop, a colon or a
    /// closing quote).
    "ends_sentence" => flag(x.own.ends_sentence),
    /// Its own text nodes.
    "text_nodes" => x.own.text_nodes as f32,
    /// Share of its own text nodes that are in links.
    "link_node_ratio" => ratio(x.own.link_nodes, x.own.text_nodes),

    // The block element.
    /// The heading level (1 to 6) of an `h1`–`h6` block, else 0.
    "heading_level" => if x.tag.is_heading() {
        (x.tag.0 - Tag::H1.0 + 1) as f32
    } else {
        0.0
    },
    /// 1 for a `p` block.
    "tag_p" => flag(x.tag == Tag::P),
    /// 1 for an `li` block.
    "tag_li" => flag(x.tag == Tag::LI),
    /// 1 for a table cell (`td`, `th`).
    "tag_cell" => flag(matches!(x.tag, Tag::TD | Tag::TH)),
    /// 1 for a `div` block.
    "tag_div" => flag(x.tag == Tag::DIV),
    /// 1 for a `pre` or `blockquote` block.
    "tag_pre_quote" => flag(matches!(x.tag, Tag::PRE | Tag::BLOCKQUOTE)),
    /// 1 for a `dt` or `dd` block.
    "tag_dt_dd" => flag(matches!(x.tag, Tag::DT | Tag::DD)),
    /// 1 for a `figcaption` or `caption` block.
    "tag_caption" => flag(matches!(x.tag, Tag::FIGCAPTION | Tag::CAPTION)),

    // Semantic elements around it (the element itself included).
    /// 1 inside an `article`.
    "in_article" => x.within(Tag::ARTICLE),
    /// 1 inside a `main`.
    "in_main" => x.within(Tag::MAIN),
    /// 1 inside a `nav` or `menu`.
    "in_nav" => x.within(Tag::NAV),
    /// 1 inside an `aside`.
    "in_aside" => x.within(Tag::ASIDE),
    /// 1 inside a `footer`.
    "in_footer" => x.within(Tag::FOOTER),
    /// 1 inside a `header`.
    "in_header" => x.within(Tag::HEADER),
    /// 1 inside a `form` or `fieldset`.
    "in_form" => x.within(Tag::FORM),
    /// 1 inside an `li`.
    "in_li" => x.within(Tag::LI),
    /// 1 inside a `table`.
    "in_table" => x.within(Tag::TABLE),
    /// 1 inside a `figure`.
    "in_figure" => x.within(Tag::FIGURE),
    /// 1 inside a `blockquote`.
    "in_blockquote" => x.within(Tag::BLOCKQUOTE),
    /// 1 inside a `section`.
    "in_section" => x.within(Tag::SECTION),
    /// 1 inside an `address`.
    "in_address" => x.within(Tag::ADDRESS),
    /// 1 inside a link (`a`).
    "in_a" => x.within(Tag::A),

    // Class/id vocabulary around it (see vocab.rs): 1 when a container's
    // class, id, role or itemprop names the family (and the family does
    // not cover most of the page, `WIDE_SHARE`).
    /// 1 in a container named as content (article, post, entry …).
    "v_positive" => x.family(Family::Positive),
    /// 1 in a container named as comments or replies.
    "v_comment" => x.family(Family::Comment),
    /// 1 in a container named as navigation (menus, breadcrumbs, pagination).
    "v_nav" => x.family(Family::Nav),
    /// 1 in a container named as a sidebar, rail or widget.
    "v_sidebar" => x.family(Family::Sidebar),
    /// 1 in a container named as related or recommended items.
    "v_related" => x.family(Family::Related),
    /// 1 in a container named as share or social tools.
    "v_share" => x.family(Family::Share),
    /// 1 in a container named as a page footer.
    "v_footer" => x.family(Family::Footer),
    /// 1 in a container named as a page header or masthead.
    "v_header" => x.family(Family::Header),
    /// 1 in a container named as advertising.
    "v_ad" => x.family(Family::Ad),
    /// 1 in a container named as metadata (byline, date, tags).
    "v_meta" => x.family(Family::Meta),
    /// 1 in a container named as a caption, credit or gallery.
    "v_caption" => x.family(Family::Caption),
    /// 1 in a container named as an overlay (cookie banner, sign-up, paywall).
    "v_overlay" => x.family(Family::Overlay),
    /// 1 in a container named as visually hidden text.
    "v_hidden" => x.family(Family::Hidden),
    /// Levels from the nearest content-named container down to the block
    /// element (`NO_CONTAINER` without one).
    "positive_dist" => x.dist(x.ctx.positive_depth),
    /// Levels from the nearest noise-named container down to the block
    /// element (`NO_CONTAINER` without one).
    "negative_dist" => x.dist(x.ctx.negative_depth),
    /// The block element's depth in the element tree.
    "depth" => x.stats.depth as f32,

    // The surrounding containers (the block's own counts for the root).
    /// ln(1 + the parent element's characters).
    "parent_chars_ln" => ln1(x.parent.0 as f32),
    /// Share of the parent element's characters that are link text.
    "parent_link_ratio" => ratio(x.parent.1, x.parent.0),
    /// ln(1 + the grandparent element's characters).
    "grand_chars_ln" => ln1(x.grand.0 as f32),
    /// Share of the grandparent element's characters that are link text.
    "grand_link_ratio" => ratio(x.grand.1, x.grand.0),

    // The page.
    /// ln(1 + the page's characters).
    "page_chars_ln" => ln1(x.page.chars as f32),
    /// Share of the page's characters that are link text.
    "page_link_ratio" => ratio(x.page.link_chars, x.page.chars),
    /// Share of the page's characters in the blocks before this one.
    "position" => ratio(x.before, x.page_chars),
    /// Share of the page's characters that are the block's own.
    "share" => ratio(x.own.chars, x.page_chars),
    /// ln(1 + the blocks whose element has the block element's tag path).
    "path_blocks_ln" => ln1(x.path_blocks as f32),
    /// Share of the page's characters in the blocks of its tag path.
    "path_share" => ratio(x.path_chars, x.page_chars),

    // The neighbouring blocks (zero counts at the page's ends).
    /// ln(1 + the previous block's own characters).
    "prev_chars_ln" => ln1(x.prev.chars as f32),
    /// Share of the previous block's own characters that are link text.
    "prev_link_ratio" => ratio(x.prev.link_chars, x.prev.chars),
    /// ln(1 + the next block's own characters).
    "next_chars_ln" => ln1(x.next.chars as f32),
    /// Share of the next block's own characters that are link text.
    "next_link_ratio" => ratio(x.next.link_chars, x.next.chars),
    /// ln(1 + the own characters of the blocks up to `WINDOW` on either
    /// side, the block's included).
    "window_chars_ln" => ln1(x.window.0 as f32),
    /// Share of the window's own characters that are link text.
    "window_link_ratio" => ratio(x.window.1, x.window.0),

    // Whole-page candidates: CETD-TPC's block, Readability's top candidate.
    /// 1 inside the element CETD-TPC selects.
    "in_cetd_tpc" => flag(x.in_cetd_tpc),
    /// The block's CETD-TPC score over the page's largest (0 when none is
    /// positive).
    "cetd_tpc_rel" => if x.cetd_tpc_max > 0.0 {
        x.cetd_tpc / x.cetd_tpc_max
    } else {
        0.0
    },
    /// 1 inside Readability's top candidate.
    "in_top" => flag(x.in_top),
    /// 1 inside the top candidate's parent.
    "in_top_parent" => flag(x.in_top_parent),
    /// Share of the page's characters inside the top candidate (one value
    /// a page).
    "top_share" => x.top_share,
}

/// Blocks on either side that the window features cover.
const WINDOW: usize = 3;

/// Distance reported when no container of a kind is above the block.
const NO_CONTAINER: f32 = 64.0;

/// Readability's paragraph threshold: shorter blocks add nothing to their
/// containers' scores (Readability.js, `_grabArticle`: 25 characters).
const CANDIDATE_MIN_CHARS: u32 = 25;

/// Most characters a word that `chars_per_word` reports: a long
/// unbroken token (a URL, a hash) says no more past this than at it.
const MAX_CHARS_PER_WORD: f32 = 50.0;

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
    pub text_block: TextBlocks,
    /// Own characters of each block.
    pub chars: Vec<u32>,
    /// Own CJK characters of each block (a CJK character says as much as a
    /// few Latin letters: what the fallback's length bounds read).
    pub cjk: Vec<u32>,
    /// Whether the block lies in a comment container (class/id vocabulary).
    pub comment: Vec<bool>,
    /// The features, [`NAMES`] order.
    pub features: Vec<[f32; N]>,
    /// The elements that hold a block, as a tree of their own: what the
    /// context stage ([`super::context`]) aggregates over, Readability's
    /// candidates are scored on and post containers are looked for in.
    /// Not the whole element tree: on element-dense pages an element-sized
    /// vector was 4 bytes a node pair at `auto`'s peak.
    pub held: HeldTree,
    /// The position of each block's element in `page.elements`.
    pub block_element: Vec<u32>,
    /// Each block element's tag path.
    pub block_path: Vec<u32>,
    /// The elements in a record group, as (position in `page.elements`,
    /// group), ascending by position: the
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

/// The block of each counted text node, as runs of consecutive text
/// nodes of one block: a block's text nodes mostly follow each other, so
/// a page has about as many runs as blocks, where a number a text node
/// was 4 bytes a node pair at `auto`'s peak on element-dense pages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TextBlocks {
    /// (first text node, block) of each run, ascending.
    runs: Vec<(u32, u32)>,
    /// Number of text nodes.
    len: u32,
}

impl TextBlocks {
    /// Appends the next text node's block.
    pub fn push(&mut self, block: u32) {
        if self.runs.last().is_none_or(|&(_, b)| b != block) {
            self.runs.push((self.len, block));
        }
        self.len += 1;
    }

    /// Number of text nodes.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is no text node.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The block of each text node, in order.
    pub fn iter(&self) -> TextBlocksIter<'_> {
        TextBlocksIter {
            runs: &self.runs,
            run: 0,
            next: 0,
            len: self.len,
        }
    }
}

/// [`TextBlocks::iter`]: the block of each text node, in order.
pub struct TextBlocksIter<'a> {
    runs: &'a [(u32, u32)],
    /// The run of the text node before `next`.
    run: usize,
    /// The next text node.
    next: u32,
    len: u32,
}

impl Iterator for TextBlocksIter<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.next >= self.len {
            return None;
        }
        while self
            .runs
            .get(self.run + 1)
            .is_some_and(|r| r.0 <= self.next)
        {
            self.run += 1;
        }
        self.next += 1;
        self.runs.get(self.run).map(|r| r.1)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.len - self.next) as usize;
        (n, Some(n))
    }
}

/// The elements that hold a block (the blocks' elements and their
/// ancestors), in document order, as a tree of their own: a parent is
/// held with its child, so each held subtree is a contiguous run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeldTree {
    /// The held elements' positions in `page.elements`, ascending.
    pub held: Vec<u32>,
    /// Each held element's parent's index in `held` (`u32::MAX` for the
    /// root).
    pub parent: Vec<u32>,
    /// Each block's element's index in `held`.
    pub block: Vec<u32>,
}

impl Blocks {
    /// Each held element's nearest record — itself, or its nearest
    /// ancestor, that is a member of a record group
    /// ([`Blocks::element_group`]) — as the record's index in `held` and
    /// its group; `None` outside every record. One walk in document
    /// order, parents before their children.
    pub fn nearest_records(&self) -> Vec<Option<(u32, u32)>> {
        let t = &self.held;
        let mut record = vec![None; t.held.len()];
        let mut next = 0;
        for (h, &e) in t.held.iter().enumerate() {
            while self.element_group.get(next).is_some_and(|&(x, _)| x < e) {
                next += 1;
            }
            record[h] = match self.element_group.get(next) {
                Some(&(x, g)) if x == e => Some((h as u32, g)),
                _ => t.parent_of(h).and_then(|up| record[up]),
            };
        }
        record
    }
}

impl HeldTree {
    /// The index in `held` of the parent of block `k`'s element (`None`
    /// for the root or a block out of range).
    pub fn block_parent(&self, k: usize) -> Option<usize> {
        let h = *self.block.get(k)? as usize;
        let up = *self.parent.get(h)? as usize;
        (up < self.held.len()).then_some(up)
    }

    /// The index in `held` of held element `h`'s parent (`None` for the
    /// root): parents come before their children.
    pub fn parent_of(&self, h: usize) -> Option<usize> {
        let up = *self.parent.get(h)? as usize;
        (up < h).then_some(up)
    }

    /// The tree of the `blocks`' elements and their ancestors among `ne`
    /// elements in document order, `parent_of(e)` being element `e`'s
    /// parent's position (`u32::MAX` for none). Each element is walked
    /// up from once; a bit an element marks those already held.
    pub fn new(ne: usize, parent_of: impl Fn(usize) -> u32, blocks: &[u32]) -> HeldTree {
        let mut mark = vec![0u64; ne.div_ceil(64)];
        let is_marked = |m: &[u64], e: usize| m[e / 64] & (1 << (e % 64)) != 0;
        let mut n = 0;
        for &e in blocks {
            let mut e = e as usize;
            while e < ne && !is_marked(&mark, e) {
                mark[e / 64] |= 1 << (e % 64);
                n += 1;
                e = parent_of(e) as usize;
            }
        }
        let mut held = Vec::with_capacity(n);
        for (w, &bits) in mark.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                held.push((w * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
        drop(mark);
        // The current path of held elements (element, index), root first.
        let mut path: Vec<(u32, u32)> = Vec::new();
        let mut parent = Vec::with_capacity(held.len());
        for (i, &e) in held.iter().enumerate() {
            let up = parent_of(e as usize);
            while path.last().is_some_and(|&(x, _)| x != up) {
                path.pop();
            }
            parent.push(path.last().map_or(u32::MAX, |&(_, j)| j));
            path.push((e, i as u32));
        }
        let block = (blocks.iter())
            .map(|&e| held.binary_search(&e).map_or(u32::MAX, |h| h as u32))
            .collect();
        HeldTree {
            held,
            parent,
            block,
        }
    }

    /// Number of held elements.
    pub fn len(&self) -> usize {
        self.held.len()
    }

    /// Whether no element is held.
    pub fn is_empty(&self) -> bool {
        self.held.is_empty()
    }

    /// The index in `held` of element `e` (`usize::MAX` if not held).
    pub fn at(&self, e: u32) -> usize {
        self.held.binary_search(&e).unwrap_or(usize::MAX)
    }

    /// The position in `page.elements` of the parent of held element `h`
    /// (`u32::MAX` for none).
    pub fn parent_element(&self, h: usize) -> u32 {
        match self.parent.get(h) {
            Some(&p) => self.held.get(p as usize).copied().unwrap_or(u32::MAX),
            None => u32::MAX,
        }
    }
}

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

/// The contexts of a page's elements, each a 4-byte number into a table
/// of the distinct contexts instead of the 12-byte context itself: most
/// elements inherit their parent's unchanged, and siblings that change it
/// alike (a list of links) share one entry.
struct Contexts {
    /// The contexts; entry 0 is the empty one.
    table: Vec<Context>,
}

impl Contexts {
    fn new() -> Contexts {
        Contexts {
            table: vec![Context::default()],
        }
    }

    /// The context of entry `entry`.
    #[inline]
    fn get(&self, entry: u32) -> Context {
        self.table[entry as usize]
    }

    /// The entry of the next element's context, `c`, derived from its
    /// parent's entry `from` (0 for none).
    #[inline]
    fn entry(&mut self, from: u32, c: Context) -> u32 {
        if self.table[from as usize] == c {
            from
        } else {
            // The last entry made serves the siblings that follow.
            let last = self.table.len() - 1;
            if self.table[last] != c {
                self.table.push(c);
            }
            (self.table.len() - 1) as u32
        }
    }
}

/// An element on the path from the root down to the element being read
/// (pass 1 walks the elements in document order with this path as a
/// stack, instead of element-sized tables of owners and contexts).
#[derive(Clone, Copy)]
struct Open {
    /// Its position in `page.elements`.
    pos: u32,
    /// Its context's entry in [`Contexts`].
    ctx: u32,
    /// Its block owner's index on the path (itself or an ancestor).
    owner: u32,
    /// The block it owns once a text node is read in it ([`NO_BLOCK`]
    /// before).
    block: u32,
    /// Its index in the held tree ([`HeldTree`]) once a block is made in
    /// it or below it ([`NO_BLOCK`] before).
    held: u32,
    /// Whether its parent is the entry below it on the path (false for
    /// the root).
    has_parent: bool,
}

/// No block (yet).
const NO_BLOCK: u32 = u32::MAX;

/// The page's class, id, role and itemprop values read so far: each
/// value's families and its number (in order of first reading).
type Names<'a> = FxHashMap<&'a str, (Families, u32)>;

/// The class number of an element without a (non-empty) class.
const NO_CLASS: u32 = u32::MAX;

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
/// page of inline elements pays nothing for it (docs/BENCHMARKS.md). The
/// class is its [`Names`] number, not the string: equal numbers, equal
/// strings.
#[derive(Default)]
struct RecordKeys {
    ids: FxHashMap<(u32, Tag, u32), u32>,
    members: Vec<u32>,
    /// Each candidate's (element position, key number), ascending.
    of: Vec<(u32, u32)>,
}

impl RecordKeys {
    /// Records element `i`'s key, if it is a candidate.
    fn push(&mut self, i: usize, key: Option<(u32, Tag, u32)>) {
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

/// A yes/no feature: 1 or 0.
pub(super) fn flag(b: bool) -> f32 {
    if b { 1.0 } else { 0.0 }
}

/// Own-text counts of a block.
#[derive(Clone, Copy, Default)]
struct Own {
    chars: u32,
    link_chars: u32,
    words: u32,
    /// CJK characters (each also a word).
    cjk: u32,
    stops: u32,
    commas: u32,
    digits: u32,
    text_nodes: u32,
    link_nodes: u32,
    ends_sentence: bool,
}

/// What one block's features ([`row`]) are read from.
struct Row {
    /// The block's own counts.
    own: Own,
    /// The block element's tag.
    tag: Tag,
    /// The context the block element inherits.
    ctx: Context,
    /// The block element's stats.
    stats: NodeStats,
    /// (Characters, link characters) of the block element's parent and
    /// grandparent: the block's own counts for the root, the parent's for
    /// the root's child.
    parent: (u32, u32),
    /// See `parent`.
    grand: (u32, u32),
    /// The page's (the root's) stats.
    page: NodeStats,
    /// The page's characters, at least 1 (a divisor).
    page_chars: u32,
    /// Own characters of the blocks before this one.
    before: u32,
    /// Blocks, and their own characters, whose element has the block
    /// element's tag path.
    path_blocks: u32,
    /// See `path_blocks`.
    path_chars: u32,
    /// The previous and next blocks' own counts (zero at the page's ends).
    prev: Own,
    /// See `prev`.
    next: Own,
    /// (Own characters, own link characters) of the blocks up to
    /// [`WINDOW`] on either side, the block's included.
    window: (u32, u32),
    /// Whether the block element lies in CETD-TPC's chosen element.
    in_cetd_tpc: bool,
    /// The block's CETD-TPC score and the page's largest.
    cetd_tpc: f32,
    /// See `cetd_tpc`.
    cetd_tpc_max: f32,
    /// Whether the block element lies in Readability's top candidate, and
    /// in its parent.
    in_top: bool,
    /// See `in_top`.
    in_top_parent: bool,
    /// Share of the page's characters inside the top candidate.
    top_share: f32,
}

impl Row {
    /// The block's own words, at least 1 (a divisor).
    #[inline(always)]
    fn words(&self) -> f32 {
        self.own.words.max(1) as f32
    }

    /// 1 when the block element is or lies in a `t` element (one of the
    /// semantic elements [`tag_bit`] numbers; 0 for any other tag).
    #[inline(always)]
    fn within(&self, t: Tag) -> f32 {
        match tag_bit(t) {
            Some(bit) => flag(self.ctx.tags & bit != 0),
            None => 0.0,
        }
    }

    /// 1 when a container of the block element is named as family `f`.
    #[inline(always)]
    fn family(&self, f: Family) -> f32 {
        ((self.ctx.families >> f as u8) & 1) as f32
    }

    /// Levels from a container at depth `d` down to the block element
    /// ([`NO_CONTAINER`] for [`NONE`], no container).
    #[inline(always)]
    fn dist(&self, d: u32) -> f32 {
        match d {
            NONE => NO_CONTAINER,
            d => self.stats.depth.saturating_sub(d) as f32,
        }
    }
}

/// The ASCII bytes [`scan`] counts nothing of but their word: not white
/// space, sentence ends, commas or digits.
const PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        t[b] = !matches!(
            b as u8,
            b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ' | b'.' | b'!' | b'?' | b',' | b';' | b'0'..=b'9'
        );
        b += 1;
    }
    t
};

/// Counts words, sentence ends, commas and digits of one text node. Most
/// text is ASCII: its bytes are read as bytes, without decoding a
/// `char` each, and count as [`scan_char`] counts the same characters.
fn scan(s: &str, o: &mut Own) {
    let bytes = s.as_bytes();
    let mut in_word = false;
    let mut last = ' ';
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b.is_ascii() {
            i += 1;
            match b {
                // ASCII's white space as `char::is_whitespace` has it.
                b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ' => {
                    in_word = false;
                    continue;
                }
                b'.' | b'!' | b'?' => o.stops += 1,
                b',' | b';' => o.commas += 1,
                b'0'..=b'9' => o.digits += 1,
                _ => {
                    // The rest of a run of such bytes (letters, mostly):
                    // nothing to count in it but the word it is part of.
                    let mut end = b;
                    while let Some(&n) = bytes.get(i).filter(|&&n| PLAIN[n as usize]) {
                        end = n;
                        i += 1;
                    }
                    last = char::from(end);
                    if !in_word {
                        o.words += 1;
                        in_word = true;
                    }
                    continue;
                }
            }
            last = char::from(b);
            if !in_word {
                o.words += 1;
                in_word = true;
            }
        } else {
            let Some(c) = s.get(i..).and_then(|t| t.chars().next()) else {
                break;
            };
            i += c.len_utf8();
            scan_char(c, o, &mut in_word, &mut last);
        }
    }
    if last != ' ' {
        o.ends_sentence = matches!(last, '.' | '!' | '?' | '。' | '！' | '？' | ':' | '"' | '”');
    }
}

/// [`scan`]'s count of one character, `in_word` and `last` (the last
/// character not white space) carried from one to the next.
#[inline]
fn scan_char(c: char, o: &mut Own, in_word: &mut bool, last: &mut char) {
    if c.is_whitespace() {
        *in_word = false;
        return;
    }
    *last = c;
    match c {
        '.' | '!' | '?' | '。' | '！' | '？' | '…' => o.stops += 1,
        ',' | ';' | '，' | '、' | '；' => o.commas += 1,
        '0'..='9' => o.digits += 1,
        _ => {}
    }
    // A CJK character is a word of its own.
    if c >= '\u{3040}' && super::super::text_distribution::is_cjk(c) {
        o.words += 1;
        o.cjk += 1;
        *in_word = false;
    } else if !*in_word {
        o.words += 1;
        *in_word = true;
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

/// Pass 2's results, made during the first reading of pass 1: the blocks
/// in order of their first text node, each block's element and own
/// counts, each text node's block, and the held tree.
#[derive(Default)]
struct Owned {
    nodes: Vec<NodeId>,
    block_element: Vec<u32>,
    own: Vec<Own>,
    text_block: TextBlocks,
    held: HeldTree,
    /// A block was made for element 0 while it was not on the path (a
    /// text node whose parent is no element of the page): the held tree
    /// is then built again from the page.
    rebuild_held: bool,
}

/// Pass 2, read in pass 1's walk ([`inherit`]).
#[derive(Default)]
struct TextPass {
    out: Owned,
    /// The next text node to read.
    next: usize,
    /// Element 0's block: a text node whose parent is no element of the
    /// page goes to it, whether or not it is on the path.
    first_block: u32,
}

impl TextPass {
    /// Reads text nodes up to `end` (exclusive): those before the next
    /// element in document order, so that their parent is on `path` and
    /// what lies below it there is closed.
    #[inline]
    fn read(&mut self, page: &Page<'_>, path: &mut Vec<Open>, end: usize) {
        let dom = page.dom;
        let end = end.min(page.texts.len());
        while self.next < end {
            let t = page.texts[self.next];
            self.next += 1;
            let parent = dom.node(t.node).parent;
            // No parent element of the page: element 0's block.
            let at = match parent.is_none() {
                true => u32::MAX,
                false => page.element_index(parent).map_or(u32::MAX, |i| i as u32),
            };
            while path.last().is_some_and(|o| o.pos > at) {
                path.pop();
            }
            let owner = match path.last() {
                Some(o) if o.pos == at => Some(o.owner as usize),
                _ => None,
            };
            let b_pos = owner.map_or(0, |j| path[j].pos);
            let block = match owner {
                Some(j) if b_pos != 0 => path[j].block,
                _ => self.first_block,
            };
            let k = if block == NO_BLOCK {
                let k = self.out.nodes.len() as u32;
                match owner {
                    Some(j) if b_pos != 0 => path[j].block = k,
                    _ => self.first_block = k,
                }
                self.hold(path, owner.filter(|_| b_pos != 0).or(Some(0)), b_pos);
                self.out.nodes.push(page.elements[b_pos as usize]);
                self.out.block_element.push(b_pos);
                self.out.own.push(Own::default());
                k
            } else {
                block
            };
            self.out.text_block.push(k);
            let o = &mut self.out.own[k as usize];
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
    }

    /// Holds the new block's element (`b_pos`, at `owner` on the path)
    /// and its ancestors: the path's entries up to it not held yet, which
    /// come after every element held before (an element is held with its
    /// ancestors), so the held tree grows in document order.
    fn hold(&mut self, path: &mut [Open], owner: Option<usize>, b_pos: u32) {
        let held = &mut self.out.held;
        let j = match owner {
            Some(j) if path.get(j).is_some_and(|o| o.pos == b_pos) => j,
            _ => {
                // Element 0 off the path.
                self.out.rebuild_held = true;
                held.block.push(NO_BLOCK);
                return;
            }
        };
        let mut from = j + 1;
        while from > 0 && path[from - 1].held == NO_BLOCK {
            from -= 1;
        }
        for x in from..=j {
            let up = match x > 0 && path[x].has_parent {
                true => path[x - 1].held,
                false => u32::MAX,
            };
            path[x].held = held.held.len() as u32;
            held.held.push(path[x].pos);
            held.parent.push(up);
        }
        held.block.push(path[j].held);
    }
}

/// Pass 1's results: the record keys, the text each family's outermost
/// containers hold, the contexts of the block owners, what each element
/// adds to its parent's context, and pass 2's.
struct Inherited {
    ctx: Contexts,
    records: RecordKeys,
    covered: [u32; FAMILIES],
    /// The contexts of the block owners (every block is one), as
    /// (element position, entry), ascending.
    owner_ctx: Vec<(u32, u32)>,
    /// Each element's step, by position ([`Inherited::recontext`]).
    steps: Vec<Step>,
    owned: Owned,
}

/// What pass 1 read of one element to make its context from its
/// parent's: enough to make the contexts again with some families
/// ignored ([`Inherited::recontext`]) without reading the page again.
#[derive(Clone, Copy)]
struct Step {
    /// The position of the parent the context is inherited from
    /// ([`u32::MAX`] for none: the empty context).
    from: u32,
    /// Its semantic-element bit ([`tag_bit`]), or 0.
    tag: u16,
    /// The families its class, id, role and itemprop name.
    families: Families,
    /// Whether it owns its block (then its context is a block owner's).
    owner: bool,
}

impl Inherited {
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

    /// The contexts and the block owners' contexts made again with the
    /// families in `mask` ignored, from the steps pass 1 recorded: the
    /// same contexts, in the same order, as pass 1 makes with `mask`
    /// (the record keys and pass 2 do not depend on it).
    fn recontext(&mut self, page: &Page<'_>, mask: Families) {
        let mut ctx = Contexts::new();
        let mut owner_ctx = Vec::with_capacity(self.owner_ctx.len());
        let mut entry: Vec<u32> = Vec::with_capacity(self.steps.len());
        for (i, s) in self.steps.iter().enumerate() {
            let from = entry.get(s.from as usize).copied().unwrap_or(0);
            let mut c = ctx.get(from);
            c.tags |= s.tag;
            let fam = s.families & !mask;
            if fam != 0 {
                let depth = page.element_stats(i).depth;
                if fam & (1 << Family::Positive as u8) != 0 {
                    c.positive_depth = depth;
                }
                if fam & NEGATIVE != 0 {
                    c.negative_depth = depth;
                }
                c.families |= fam;
            }
            let e = ctx.entry(from, c);
            entry.push(e);
            if s.owner {
                owner_ctx.push((i as u32, e));
            }
        }
        self.ctx = ctx;
        self.owner_ctx = owner_ctx;
    }
}

/// Pass 1, top-down over the elements in document order: the block owner
/// (nearest block-level ancestor or itself) and the context each
/// inherits. The elements are read with the path from the root as a
/// stack ([`Open`]). Pass 2 runs in the same walk: the text nodes before
/// each element in document order are read before it
/// ([`Page::element_text_begin`]), their parent then on the path, and
/// each is given its owner's block.
fn inherit<'a>(
    page: &Page<'a>,
    vocab: &Vocabulary,
    cache: &mut Names<'a>,
) -> Inherited {
    let dom = page.dom;
    let root = page.root;
    let pos = |x: NodeId| page.element_index(x).map_or(u32::MAX, |i| i as u32);
    let mut ctx = Contexts::new();
    // Each record candidate's (parent, tag, class), for the groups.
    let mut records = RecordKeys::default();
    let mut covered = [0u32; FAMILIES];
    // At most one an element: reserved once, not grown.
    let mut owner_ctx: Vec<(u32, u32)> = Vec::with_capacity(page.elements.len());
    let mut p2 = TextPass {
        first_block: NO_BLOCK,
        ..TextPass::default()
    };
    let mut steps: Vec<Step> = Vec::with_capacity(page.elements.len());
    let mut path: Vec<Open> = Vec::new();
    for (i, &e) in page.elements.iter().enumerate() {
        let begin = page.element_text_begin(i).unwrap_or(0) as usize;
        if p2.next < begin {
            p2.read(page, &mut path, begin);
        }
        let up = dom.node(e).parent;
        let parent = if e == root || up.is_none() {
            u32::MAX
        } else {
            pos(up)
        };
        // The path down to the parent: what lies below it is closed.
        if parent == u32::MAX {
            path.clear();
        } else {
            while path.last().is_some_and(|o| o.pos > parent) {
                path.pop();
            }
        }
        let up_open = path.last().filter(|o| o.pos == parent).copied();
        let from = up_open.map_or(0, |o| o.ctx);
        let tag = dom.tag(e).unwrap_or(Tag::DIV);
        let mut c = ctx.get(from);
        let is_block = e == root || matches!(tag.flow(), Flow::Block | Flow::Cell);
        let owner = match up_open {
            Some(o) if !is_block => o.owner,
            _ => path.len() as u32,
        };
        let tag_bits = tag_bit(tag).unwrap_or(0);
        c.tags |= tag_bits;
        let mut fam: Families = 0;
        // The class value's number in `cache` (NO_CLASS: none).
        let mut class = NO_CLASS;
        for a in dom.attrs_of(e) {
            // Names compared as interned atoms (one integer each), not
            // as strings.
            let is_class = a.name == local_name!("class");
            if is_class
                || a.name == local_name!("id")
                || a.name == local_name!("role")
                || a.name == local_name!("itemprop")
            {
                let v = &dom.attr_text[a.start as usize..a.end as usize];
                if v.is_empty() {
                    continue;
                }
                let next = cache.len() as u32;
                let &mut (families, number) =
                    cache.entry(v).or_insert_with(|| (vocab.families(v), next));
                if is_class {
                    // The whole value: grouping by the first class name
                    // alone scored lower held out (RESULTS.md, LOFO).
                    class = number;
                }
                fam |= families;
            }
        }
        // A classless `div` is layout, not a record; classless articles,
        // list items and rows are records by their tag.
        let candidate = parent != u32::MAX
            && record_tag(tag)
            && (class != NO_CLASS || matches!(tag, Tag::ARTICLE | Tag::LI | Tag::TR));
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
        let entry = ctx.entry(from, c);
        let owns = owner == path.len() as u32;
        if owns {
            owner_ctx.push((i as u32, entry));
        }
        steps.push(Step {
            from: up_open.map_or(u32::MAX, |o| o.pos),
            tag: tag_bits,
            families: fam,
            owner: owns,
        });
        path.push(Open {
            pos: i as u32,
            ctx: entry,
            owner,
            block: NO_BLOCK,
            held: NO_BLOCK,
            has_parent: up_open.is_some(),
        });
    }
    p2.read(page, &mut path, page.texts.len());
    Inherited {
        ctx,
        records,
        covered,
        owner_ctx,
        steps,
        owned: p2.out,
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
    let mut cache: Names<'_> = FxHashMap::default();
    // Pass 1, top-down over the elements: block owner, context; pass 2,
    // over the text nodes, in the same walk: blocks in order of their
    // first text, with their own counts. A noise family that wraps most
    // of the page is ignored: the contexts are made again without it
    // (the blocks do not change).
    let mut first = inherit(page, vocab, &mut cache);
    let wide = first.wide(page.stats(root).chars);
    if wide != 0 {
        first.recontext(page, wide);
    }
    let Inherited {
        ctx,
        records,
        owner_ctx,
        owned,
        ..
    } = first;
    records.into_groups(&mut out);
    let Owned {
        nodes,
        block_element,
        own,
        text_block,
        held,
        rebuild_held,
    } = owned;
    out.nodes = nodes;
    out.block_element = block_element;
    out.text_block = text_block;
    let nb = out.nodes.len();
    out.held = match rebuild_held {
        false => held,
        // Element 0 was off the path when its block was made: the tree
        // from the page (each element's parent read from it).
        true => {
            let parent_of = |e: usize| {
                let n = page.elements[e];
                let up = dom.node(n).parent;
                if n == root || up.is_none() {
                    u32::MAX
                } else {
                    pos(up)
                }
            };
            HeldTree::new(ne, parent_of, &out.block_element)
        }
    };
    let held = &out.held;
    // A block is a leaf when no other block lies inside its element: when
    // no held element is its child.
    let mut has_child = vec![false; held.len()];
    for &p in &held.parent {
        if let Some(x) = has_child.get_mut(p as usize) {
            *x = true;
        }
    }
    out.leaf = (held.block.iter())
        .map(|&h| !has_child.get(h as usize).copied().unwrap_or(false))
        .collect();
    drop(has_child);
    let block_ctx: Vec<Context> = out
        .block_element
        .iter()
        .map(|&i| {
            let at = owner_ctx.binary_search_by_key(&i, |&(e, _)| e);
            ctx.get(at.map_or(0, |j| owner_ctx[j].1))
        })
        .collect();
    drop(ctx);
    drop(owner_ctx);
    out.chars = own.iter().map(|o| o.chars).collect();
    out.cjk = own.iter().map(|o| o.cjk).collect();
    out.comment = block_ctx
        .iter()
        .map(|c| c.families & (1 << Family::Comment as u8) != 0)
        .collect();

    // The blocks by element position: CETD-TPC scores the elements in
    // document order, and a cursor over this list finds their blocks.
    let mut by_element: Vec<(u32, u32)> = (out.block_element.iter())
        .enumerate()
        .map(|(k, &e)| (e, k as u32))
        .collect();
    if !by_element.is_sorted() {
        by_element.sort_unstable();
    }
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
    // The scores are summed from a list of (element, points) in the
    // order they are given, sorted stably by element (not an
    // element-sized vector): each element's f32 sum adds the same points
    // in the same order.
    let mut points: Vec<(u32, f32)> = Vec::new();
    for (k, &b_el) in out.nodes.iter().enumerate() {
        let o = &own[k];
        if o.chars < CANDIDATE_MIN_CHARS {
            continue;
        }
        let s = 1.0
            + o.commas as f32
            + (o.chars as f32 / CANDIDATE_LENGTH_UNIT).min(CANDIDATE_LENGTH_CAP);
        let h = held.block.get(k).map_or(usize::MAX, |&h| h as usize);
        let p = held.parent_element(h);
        if p as usize >= ne || b_el == root {
            continue;
        }
        points.push((p, s));
        let g = held.parent_element(held.parent.get(h).map_or(usize::MAX, |&x| x as usize));
        if (g as usize) < ne {
            points.push((g, s / 2.0));
        }
    }
    points.sort_by_key(|&(e, _)| e);
    // The first of the best in document order.
    let mut top: Option<(NodeId, f32)> = None;
    let mut j = 0;
    while j < points.len() {
        let i = points[j].0;
        let mut s = 0f32;
        while points.get(j).is_some_and(|&(x, _)| x == i) {
            s += points[j].1;
            j += 1;
        }
        if s > 0.0 {
            let e = page.elements[i as usize];
            let st = page.stats(e);
            let s = s * (1.0 - ratio(st.link_chars, st.chars));
            if top.is_none_or(|(_, b)| s > b) {
                top = Some((e, s));
            }
        }
    }
    drop(points);
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
    out.block_path.reserve(nb);
    for k in 0..nb {
        let b_el = out.nodes[k];
        let o = own[k];
        let st = page.stats(b_el);
        let parent = dom.node(b_el).parent;
        let (parent_counts, grand_counts) = if parent.is_none() || b_el == root {
            let counts = (o.chars, o.link_chars);
            (counts, counts)
        } else {
            let ps = page.stats(parent);
            let g = dom.node(parent).parent;
            let gs = if g.is_none() || parent == root {
                ps
            } else {
                page.stats(g)
            };
            ((ps.chars, ps.link_chars), (gs.chars, gs.link_chars))
        };
        let (wlo, whi) = (k.saturating_sub(WINDOW), (k + WINDOW + 1).min(nb));
        let window = own[wlo..whi]
            .iter()
            .fold((0, 0), |(a, b), x| (a + x.chars, b + x.link_chars));
        let path = st.path.0 as usize;
        let f = row(&Row {
            own: o,
            tag: dom.tag(b_el).unwrap_or(Tag::DIV),
            ctx: block_ctx[k],
            stats: st,
            parent: parent_counts,
            grand: grand_counts,
            page: page_stats,
            page_chars,
            before,
            path_blocks: path_blocks.get(path).copied().unwrap_or(0),
            path_chars: path_chars.get(path).copied().unwrap_or(0),
            prev: k.checked_sub(1).map(|i| own[i]).unwrap_or_default(),
            next: own.get(k + 1).copied().unwrap_or_default(),
            window,
            in_cetd_tpc: inside(cetd_best, b_el),
            cetd_tpc: cetd_block[k],
            cetd_tpc_max: cetd_max,
            in_top: inside(top, b_el),
            in_top_parent: inside(top_parent, b_el),
            top_share,
        });
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
        b.features[k][index(name)]
    }

    const PAGE: &str = "<body>\
        <nav><a href=/>Home</a> <a href=/n>News</a></nav>\
        <div class=article-body><h2>Title</h2>\
        <p>One, two. Three four. Five six seven eight.</p>\
        <p>Five <a href=x>six</a></p></div>\
        <div id=comments><p>Nice post!</p></div></body>";

    /// [`scan`] as it was, a `char` at a time: the reference.
    fn scan_by_char(s: &str) -> Own {
        let mut o = Own::default();
        let (mut in_word, mut last) = (false, ' ');
        for c in s.chars() {
            scan_char(c, &mut o, &mut in_word, &mut last);
        }
        if last != ' ' {
            o.ends_sentence = matches!(last, '.' | '!' | '?' | '。' | '！' | '？' | ':' | '"' | '”');
        }
        o
    }

    #[test]
    fn scan_counts_ascii_bytes_as_characters() {
        let key = |o: Own| {
            (
                o.words,
                o.stops,
                o.commas,
                o.digits,
                o.ends_sentence,
            )
        };
        let mut cases: Vec<String> = [
            "",
            " ",
            "Hello, world. 42 times!",
            "a\u{0b}b\u{0c}c\u{1c}d\u{85}e\u{a0}f\u{3000}g",
            "日本語の文章です。次、そして",
            "mixed 漢字and text… ok？",
            "tab\tend:",
            "quote \"",
            "“curly”",
            "x\r\n",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every ASCII character between letters and after them, and
        // generated runs of mixed scripts.
        for b in 0u8..128 {
            let c = char::from(b);
            cases.push(format!("ab{c}cd{c}"));
            cases.push(format!("{c}é{c}中{c}"));
        }
        let alphabet = ['a', ' ', '.', ',', '7', 'é', '中', '、', '\u{a0}', '\n', '?', 'ア'];
        for k in 0..500usize {
            let s: String = (0..k % 23)
                .map(|j| alphabet[(k * 7 + j * 13 + j * j) % alphabet.len()])
                .collect();
            cases.push(s);
        }
        for s in &cases {
            let mut fast = Own::default();
            scan(s, &mut fast);
            assert_eq!(key(fast), key(scan_by_char(s)), "{s:?}");
        }
    }

    #[test]
    fn index_finds_every_feature_by_name() {
        for (i, name) in NAMES.iter().enumerate() {
            assert_eq!(index(name), i);
        }
    }

    #[test]
    fn each_in_and_v_feature_reads_one_bit_of_its_own() {
        // The semantic-element and vocabulary features of a block whose
        // context has one bit set: exactly one of them is 1, a different
        // one for each bit (a tag `tag_bit` does not number would read
        // none).
        let row_of = |tags: u16, families: Families| {
            row(&Row {
                own: Own::default(),
                tag: Tag::P,
                ctx: Context {
                    tags,
                    families,
                    ..Context::default()
                },
                stats: NodeStats::default(),
                parent: (0, 0),
                grand: (0, 0),
                page: NodeStats::default(),
                page_chars: 1,
                before: 0,
                path_blocks: 0,
                path_chars: 0,
                prev: Own::default(),
                next: Own::default(),
                window: (0, 0),
                in_cetd_tpc: false,
                cetd_tpc: 0.0,
                cetd_tpc_max: 0.0,
                in_top: false,
                in_top_parent: false,
                top_share: 0.0,
            })
        };
        let set = |f: [f32; N], prefix: &str| -> Vec<usize> {
            (0..N)
                .filter(|&i| NAMES[i].starts_with(prefix) && f[i] == 1.0)
                .collect()
        };
        let mut seen = Vec::new();
        for bit in 0..14 {
            let on = set(row_of(1 << bit, 0), "in_");
            assert_eq!(on.len(), 1, "bit {bit}");
            seen.extend(on);
        }
        for f in 0..FAMILIES {
            let on = set(row_of(0, 1 << f), "v_");
            assert_eq!(on.len(), 1, "family {f}");
            seen.extend(on);
        }
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 14 + FAMILIES);
        assert!(set(row_of(0, 0), "in_").is_empty() && set(row_of(0, 0), "v_").is_empty());
    }

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
        assert_eq!(
            b.text_block.iter().collect::<Vec<_>>(),
            vec![0, 0, 1, 2, 3, 3, 4]
        );
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
        let mut c = Contexts::new();
        let root = c.entry(0, Context::default());
        let n = c.entry(root, nav);
        let in_nav = Context {
            tags: nav.tags | link.tags,
            ..nav
        };
        let links: Vec<u32> = (0..3).map(|_| c.entry(n, in_nav)).collect();
        let span = c.entry(links[0], in_nav);
        assert_eq!((root, n, span), (0, 1, 2));
        assert_eq!(links, vec![2, 2, 2]);
        assert_eq!(c.get(2), in_nav);
        // One entry for the three links and the span that inherits
        // unchanged.
        assert_eq!(c.table.len(), 3);
    }

    #[test]
    fn text_blocks_are_runs() {
        let mut t = TextBlocks::default();
        assert!(t.is_empty());
        assert_eq!(t.iter().count(), 0);
        for k in [0, 0, 1, 0, 0, 0, 2, 2] {
            t.push(k);
        }
        assert_eq!(t.len(), 8);
        assert_eq!(t.runs, vec![(0, 0), (2, 1), (3, 0), (6, 2)]);
        assert_eq!(t.iter().collect::<Vec<_>>(), vec![0, 0, 1, 0, 0, 0, 2, 2]);
    }

    #[test]
    fn held_tree_keeps_the_blocks_and_their_ancestors() {
        // 0 ─┬─ 1 ── 2 (block)
        //    ├─ 3 ── 4
        //    └─ 5 ─┬─ 6
        //          └─ 7 (block)
        let parents = [u32::MAX, 0, 1, 0, 3, 0, 5, 5];
        let t = HeldTree::new(parents.len(), |e| parents[e], &[7, 2]);
        assert_eq!(t.held, vec![0, 1, 2, 5, 7]);
        assert_eq!(t.parent, vec![u32::MAX, 0, 1, 0, 3]);
        assert_eq!((t.at(7), t.at(2), t.at(4)), (4, 2, usize::MAX));
        assert_eq!(t.block, vec![4, 2]);
        assert_eq!((t.parent_element(4), t.parent_element(0)), (5, u32::MAX));
        // More than a word of marks.
        let parents: Vec<u32> = (0..200)
            .map(|e| if e == 0 { u32::MAX } else { e - 1 })
            .collect();
        let t = HeldTree::new(parents.len(), |e| parents[e], &[150, 70]);
        assert_eq!(t.len(), 151);
        assert_eq!(t.parent_element(150), 149);
    }

    #[test]
    fn blocks_the_same_as_the_owner_table_gave() {
        // Texts before, between and after nested blocks, inline elements
        // around blocks, and a text after a closed inline element.
        let dom = parse(
            "<body>a<span>b<div>c<i>d</i>e</div>f</span>g<p>h<b>i<u>j</u>k</b>l</p>\
             <ul><li>m<p>n</p>o</li></ul>p</body>",
        );
        let page = page_of(&dom);
        let b = blocks(&page, &Vocabulary::new());
        let tags: Vec<Tag> = b.nodes.iter().map(|&n| dom.tag(n).unwrap()).collect();
        assert_eq!(tags, vec![Tag::BODY, Tag::DIV, Tag::P, Tag::LI, Tag::P]);
        let letters: Vec<u32> = b.text_block.iter().collect();
        // a b c d e f g h i j k l m n o p
        assert_eq!(
            letters,
            vec![0, 0, 1, 1, 1, 0, 0, 2, 2, 2, 2, 2, 3, 4, 3, 0]
        );
        assert_eq!(b.leaf, vec![false, true, true, false, true]);
        // Held as the page's parents give them.
        let parent_of = |e: usize| {
            let up = dom.node(page.elements[e]).parent;
            page.element_index(up).map_or(u32::MAX, |i| i as u32)
        };
        let want = HeldTree::new(page.elements.len(), parent_of, &b.block_element);
        assert_eq!(b.held, want);
        assert_eq!(b.held.held.len(), 7);
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
        assert_eq!(b.text_block.iter().collect::<Vec<_>>(), vec![0, 1, 0]);
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
