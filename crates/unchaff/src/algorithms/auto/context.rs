//! The context stage: every block's first-stage probability seen next to
//! its neighbours', its containers' and its tag path's.
//!
//! The first stage classifies each block from its own features and a few
//! neighbours'. Content, though, comes in regions: a paragraph in the
//! middle of an article whose every other paragraph is content is content,
//! and a lone "article-like" block inside a sidebar is not. This stage
//! feeds a second, smaller model with aggregates of the first stage's
//! probabilities — the classic stacked ("two-pass") block classifier — in
//! linear passes over the blocks and the element tree.

use super::features::{self, Blocks, flag};

features::feature_table! {
    /// The context features, in input order (saved with the model,
    /// checked on load).
    const NAMES;
    /// One block's context features from its inputs, [`NAMES`] order.
    fn row(x: &Row<'_>);

    // The block and its neighbours.
    /// The block's first-stage probability.
    "p" => x.p[x.k],
    /// The previous block's first-stage probability (0 for the first).
    "p_prev" => if x.k > 0 { x.p[x.k - 1] } else { 0.0 },
    /// The next block's first-stage probability (0 for the last).
    "p_next" => x.p.get(x.k + 1).copied().unwrap_or(0.0),
    /// Mean probability, weighed by characters, of the blocks up to
    /// `NEAR` on either side, the block's included.
    "p_window3" => x.window(NEAR),
    /// Mean probability, weighed by characters, of the blocks up to `FAR`
    /// on either side, the block's included.
    "p_window10" => x.window(FAR),

    // The containers (held elements: the block's element and its
    // ancestors; the root stands for those above it).
    /// Mean probability, weighed by characters, of the blocks in the
    /// block element's parent.
    "p_parent" => x.purity(x.up[0]),
    /// Mean probability, weighed by characters, in its grandparent.
    "p_grand" => x.purity(x.up[1]),
    /// Mean probability, weighed by characters, in its great-grandparent.
    "p_great" => x.purity(x.up[2]),
    /// Share of the page's content mass (probability × characters) in the
    /// parent.
    "mass_parent" => x.share(x.up[0]),
    /// Share of the page's content mass in the grandparent.
    "mass_grand" => x.share(x.up[1]),
    /// Share of the page's content mass in the great-grandparent.
    "mass_great" => x.share(x.up[2]),

    // The main regions (`MAIN_SHARES`).
    /// 1 inside the deepest element holding 70% of the content mass.
    "in_main70" => flag(x.inside(x.a.main[0])),
    /// 1 inside the deepest element holding 50% of it.
    "in_main50" => flag(x.inside(x.a.main[1])),
    /// Mean probability in the 70% region (one value a page).
    "main70_purity" => x.purity(x.a.main[0]),
    /// Share of the content mass in the 70% region (one value a page).
    "main70_share" => x.share(x.a.main[0]),

    // The block element's tag path.
    /// Mean probability of the blocks with the block element's tag path.
    "p_path" => mean(x.path.0, x.path.1),
    /// Share of the content mass in those blocks.
    "mass_path" => x.path.0 / x.a.total_mass,

    // The nearest record (`Blocks::element_group`) holding the block:
    // all 0 outside one.
    /// Mean probability in the record's group.
    "p_record" => x.group().map_or(0.0, |g| mean(x.a.g_mass[g], x.a.g_tot[g])),
    /// The best mean probability of a record of `RECORD_MIN_CHARS` or more
    /// in the group.
    "p_record_max" => x.group().map_or(0.0, |g| x.a.g_max[g]),
    /// ln(1 + the records in the group).
    "record_members_ln" => x.group().map_or(0.0, |g| (x.a.g_n[g] as f32).ln_1p()),

    // First-stage features, copied so that the aggregates can be weighed
    // by what the block is.
    /// The first stage's `chars_ln`.
    "chars_ln" => x.first[const { features::index("chars_ln") }],
    /// The first stage's `link_ratio`.
    "link_ratio" => x.first[const { features::index("link_ratio") }],
    /// The first stage's `heading_level`.
    "heading_level" => x.first[const { features::index("heading_level") }],
    /// The first stage's `position`.
    "position" => x.first[const { features::index("position") }],
    /// The first stage's `tag_li`.
    "tag_li" => x.first[const { features::index("tag_li") }],
    /// The first stage's `in_cetd_tpc`.
    "in_cetd_tpc" => x.first[const { features::index("in_cetd_tpc") }],
}

/// Blocks on either side in the near and far probability windows.
const NEAR: usize = 3;
/// See [`NEAR`].
const FAR: usize = 10;

/// Characters a record needs for its mean probability to count towards
/// its group's best (`p_record_max`): a post, not a "quote" button.
const RECORD_MIN_CHARS: f32 = 100.0;

/// Shares of the page's content mass (Σ probability × characters) that
/// define the main regions: the deepest element holding at least this
/// share.
const MAIN_SHARES: [f32; 2] = [0.7, 0.5];

fn mean(mass: f32, chars: f32) -> f32 {
    if chars > 0.0 { mass / chars } else { 0.0 }
}

/// The page's aggregates that the context features ([`row`]) read.
struct Aggregates {
    /// Content mass (Σ probability × characters) under each held element.
    mass: Vec<f32>,
    /// Characters under each held element.
    tot: Vec<f32>,
    /// Each held element's subtree size, in held elements (the subtree is
    /// the run of this many from it).
    size: Vec<u32>,
    /// The page's content mass (kept from 0: a divisor).
    total_mass: f32,
    /// The held elements of the main regions, [`MAIN_SHARES`] order.
    main: [usize; 2],
    /// Prefix sums of the blocks' mass and characters (for the windows).
    pm: Vec<f32>,
    /// See `pm`.
    pc: Vec<f32>,
    /// Each record group's mass.
    g_mass: Vec<f32>,
    /// Each record group's characters.
    g_tot: Vec<f32>,
    /// The best mean probability of a record of [`RECORD_MIN_CHARS`] or
    /// more in each group.
    g_max: Vec<f32>,
    /// Each group's records.
    g_n: Vec<u32>,
    /// Each held element's nearest record's group, itself or an
    /// ancestor's (`u32::MAX` for none).
    record: Vec<u32>,
}

/// What one block's context features ([`row`]) are read from.
struct Row<'a> {
    /// The page's aggregates.
    a: &'a Aggregates,
    /// The first stage's probability of every block.
    p: &'a [f32],
    /// The block.
    k: usize,
    /// The block's element, in the held tree.
    e: usize,
    /// Its parent, grandparent and great-grandparent (the root stands for
    /// those above it).
    up: [usize; 3],
    /// (Mass, characters) of the blocks with the block element's tag path.
    path: (f32, f32),
    /// The block's first-stage features.
    first: &'a [f32; features::N],
}

impl Row<'_> {
    /// Mean probability, weighed by characters, of the blocks up to `w` on
    /// either side, the block's included.
    #[inline(always)]
    fn window(&self, w: usize) -> f32 {
        let (lo, hi) = (self.k.saturating_sub(w), (self.k + w + 1).min(self.p.len()));
        mean(self.a.pm[hi] - self.a.pm[lo], self.a.pc[hi] - self.a.pc[lo])
    }

    /// Mean probability, weighed by characters, under held element `h`.
    #[inline(always)]
    fn purity(&self, h: usize) -> f32 {
        mean(self.a.mass[h], self.a.tot[h])
    }

    /// Share of the page's content mass under held element `h`.
    #[inline(always)]
    fn share(&self, h: usize) -> f32 {
        self.a.mass[h] / self.a.total_mass
    }

    /// Whether the block's element lies in held element `h`'s subtree.
    #[inline(always)]
    fn inside(&self, h: usize) -> bool {
        self.e >= h && self.e < h + self.a.size[h] as usize
    }

    /// The record group of the block's nearest record, if any.
    #[inline(always)]
    fn group(&self) -> Option<usize> {
        match self.a.record.get(self.e).copied().unwrap_or(u32::MAX) {
            u32::MAX => None,
            g => Some(g as usize),
        }
    }
}

/// The context features of every block, from the first stage's
/// probabilities `p`.
pub fn context_features(b: &Blocks, p: &[f32]) -> Vec<[f32; N]> {
    let nb = b.nodes.len();
    if nb == 0 || p.len() != nb || b.block_element.len() != nb {
        return Vec::new();
    }
    let chars: Vec<f32> = b.chars.iter().map(|&c| c.max(1) as f32).collect();
    // The aggregates over the element tree are taken over its held
    // elements only (features::HeldTree): an element without a block
    // beneath adds zeros, which leave an f32 sum as it was, and on
    // element-dense pages most elements are such.
    let t = &b.held;
    let nh = t.held.len();
    let block_at: Vec<usize> = (0..nb)
        .map(|k| t.block.get(k).map_or(usize::MAX, |&h| h as usize))
        .collect();
    // Content mass and characters per subtree, and subtree sizes (in held
    // elements): parents precede children, so one backward pass sums them.
    let mut mass = vec![0f32; nh];
    let mut size = vec![1u32; nh];
    let mut tot = vec![0f32; nh];
    for k in 0..nb {
        let e = block_at[k];
        if e < nh {
            mass[e] += p[k] * chars[k];
            tot[e] += chars[k];
        }
    }
    for i in (1..nh).rev() {
        let up = t.parent[i] as usize;
        if up < i {
            mass[up] += mass[i];
            tot[up] += tot[i];
            size[up] += size[i];
        }
    }
    // The root's (element 0's) mass.
    let root_mass = if t.held.first() == Some(&0) {
        mass[0]
    } else {
        0.0
    };
    let total_mass = root_mass.max(1e-6);
    // The main regions: the deepest (last in document order) element
    // holding the share; those elements form a chain from the root.
    let main = MAIN_SHARES.map(|s| {
        (0..nh)
            .rev()
            .find(|&i| mass[i] >= s * total_mass)
            .unwrap_or(0)
    });
    // Record groups (features::Blocks::element_group): each group's mass
    // and characters, its best record's mean probability and its size;
    // and each element's nearest record, itself or an ancestor. A forum
    // thread's replies are records of the group whose first record, the
    // opening post, the first stage is sure of; an article's comments
    // are records of a group of their own.
    let ng = b.groups as usize;
    let mut g_mass = vec![0f32; ng];
    let mut g_tot = vec![0f32; ng];
    let mut g_max = vec![0f32; ng];
    let mut g_n = vec![0u32; ng];
    // Each held element's nearest record's group.
    for &(_, g) in &b.element_group {
        if let Some(n) = g_n.get_mut(g as usize) {
            *n += 1;
        }
    }
    let nearest = b.nearest_records();
    let mut record = vec![u32::MAX; nh];
    for (h, r) in nearest.iter().enumerate().take(nh) {
        let Some((at, g)) = *r else {
            continue;
        };
        record[h] = g;
        let g = g as usize;
        if at as usize == h && g < ng {
            g_mass[g] += mass[h];
            g_tot[g] += tot[h];
            if tot[h] >= RECORD_MIN_CHARS {
                g_max[g] = g_max[g].max(mean(mass[h], tot[h]));
            }
        }
    }
    // Tag-path aggregates.
    let mut path_mass: rustc_hash::FxHashMap<u32, (f32, f32)> = Default::default();
    for k in 0..nb {
        let e = path_mass.entry(b.block_path[k]).or_default();
        e.0 += p[k] * chars[k];
        e.1 += chars[k];
    }
    // Prefix sums for the windows.
    let mut pm = vec![0f32; nb + 1];
    let mut pc = vec![0f32; nb + 1];
    for k in 0..nb {
        pm[k + 1] = pm[k] + p[k] * chars[k];
        pc[k + 1] = pc[k] + chars[k];
    }
    let a = Aggregates {
        mass,
        tot,
        size,
        total_mass,
        main,
        pm,
        pc,
        g_mass,
        g_tot,
        g_max,
        g_n,
        record,
    };
    // A held element's parent (the root's is itself).
    let up = |x: usize| -> usize {
        match t.parent.get(x) {
            Some(&u) if (u as usize) < nh => u as usize,
            _ => x,
        }
    };
    (0..nb)
        .map(|k| {
            let e = block_at[k];
            let a1 = up(e);
            let a2 = up(a1);
            row(&Row {
                a: &a,
                p,
                k,
                e,
                up: [a1, a2, up(a2)],
                path: path_mass.get(&b.block_path[k]).copied().unwrap_or_default(),
                first: &b.features[k],
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::auto::vocab::Vocabulary;
    use crate::algorithms::testutil::page_of;
    use crate::parse::parse;

    fn get(f: &[[f32; N]], k: usize, name: &str) -> f32 {
        f[k][index(name)]
    }

    #[test]
    fn copied_features_are_the_first_stages() {
        let dom = parse(
            "<body><nav><a href=/>Home</a></nav><h1>Title</h1>\
             <ul><li>one</li><li>two</li></ul><p>A paragraph, with words.</p></body>",
        );
        let page = page_of(&dom);
        let b = features::blocks(&page, &Vocabulary::new());
        // nav, h1, two list items, the paragraph.
        let p: Vec<f32> = (0..b.nodes.len()).map(|k| k as f32 / 5.0).collect();
        let f = context_features(&b, &p);
        assert_eq!(f.len(), 5);
        let mut copied = 0;
        for (i, name) in NAMES.iter().enumerate() {
            if features::NAMES.contains(name) {
                copied += 1;
                for (fk, first) in f.iter().zip(&b.features) {
                    assert_eq!(fk[i], first[features::index(name)], "{name}");
                }
            }
        }
        assert_eq!(copied, 6);
    }

    #[test]
    fn aggregates_by_hand() {
        // Blocks: nav (8 chars), p "aaaa" (4), p "bbbbbbbb" (8), aside p
        // "cccc" (4). First-stage p: 0, 1, 0.5, 0.
        let dom = parse(
            "<body><nav>Home New</nav><div><p>aaaa</p><p>bbbbbbbb</p></div>\
             <aside><p>cccc</p></aside></body>",
        );
        let page = page_of(&dom);
        let b = features::blocks(&page, &Vocabulary::new());
        assert_eq!(b.chars, vec![8, 4, 8, 4]);
        let f = context_features(&b, &[0.0, 1.0, 0.5, 0.0]);
        // Mass: 0·8 + 1·4 + 0.5·8 + 0·4 = 8, all of it in the div.
        // The div's mean p: 8 / 12; it holds the whole mass, so it is the
        // main region at 70% and 50%.
        assert!((get(&f, 1, "p_parent") - 8.0 / 12.0).abs() < 1e-6);
        assert_eq!(get(&f, 1, "mass_parent"), 1.0);
        assert_eq!(get(&f, 1, "in_main70"), 1.0);
        assert_eq!(get(&f, 0, "in_main70"), 0.0);
        assert_eq!(get(&f, 3, "in_main50"), 0.0);
        assert!((get(&f, 3, "main70_purity") - 8.0 / 12.0).abs() < 1e-6);
        // Neighbours and windows (±3 covers the whole page: 8 / 24).
        assert_eq!(get(&f, 2, "p_prev"), 1.0);
        assert_eq!(get(&f, 3, "p_next"), 0.0);
        assert!((get(&f, 0, "p_window3") - 8.0 / 24.0).abs() < 1e-6);
        // The two div paragraphs share a path (mean 8 / 12, mass 1); the
        // aside's paragraph has its own (html/body/aside/p).
        assert!((get(&f, 1, "p_path") - 8.0 / 12.0).abs() < 1e-6);
        assert_eq!(get(&f, 3, "p_path"), 0.0);
        assert_eq!(context_features(&b, &[0.5]), Vec::<[f32; N]>::new());
        // No element repeats: no record features.
        assert_eq!(b.groups, 0);
        assert_eq!(get(&f, 1, "p_record"), 0.0);
        assert_eq!(get(&f, 1, "record_members_ln"), 0.0);
    }

    #[test]
    fn records_by_hand() {
        // A thread: three posts (class "post"), each a paragraph; a
        // sidebar list of three items; two `div class=col` (too few to be
        // a group).
        let post = |t: &str| format!("<div class=post><p>{t}</p></div>");
        let long = "a".repeat(120);
        let html = format!(
            "<body><div class=col>x</div><div class=col>y</div><main>{}{}{}</main>             <ul><li>one</li><li>two</li><li>six</li></ul></body>",
            post(&long),
            post(&"b".repeat(100)),
            post(&"c".repeat(40)),
        );
        let dom = parse(&html);
        let page = page_of(&dom);
        let b = features::blocks(&page, &Vocabulary::new());
        assert_eq!(b.groups, 2);
        assert_eq!(b.chars, vec![1, 1, 120, 100, 40, 3, 3, 3]);
        let p = [0.0, 0.0, 1.0, 0.5, 0.0, 0.0, 0.0, 0.3];
        let f = context_features(&b, &p);
        // The posts' group: mass 120 + 50 = 170 over 260 characters; its
        // best record of at least 100 characters is the first (p = 1);
        // the third is too short to count.
        for k in 2..5 {
            assert!((get(&f, k, "p_record") - 170.0 / 260.0).abs() < 1e-6);
            assert_eq!(get(&f, k, "p_record_max"), 1.0);
            assert!((get(&f, k, "record_members_ln") - 4f32.ln()).abs() < 1e-6);
        }
        // The list items: a group of their own, no record long enough.
        assert!((get(&f, 7, "p_record") - 0.1).abs() < 1e-6);
        assert_eq!(get(&f, 7, "p_record_max"), 0.0);
        // The two columns are no group.
        assert_eq!(get(&f, 0, "record_members_ln"), 0.0);
    }
}
