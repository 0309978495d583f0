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

use super::features::{self, Blocks};

/// The context features, in input order.
pub const NAMES: &[&str] = &[
    "p",
    "p_prev",
    "p_next",
    "p_window3",
    "p_window10",
    "p_parent",
    "p_grand",
    "p_great",
    "mass_parent",
    "mass_grand",
    "mass_great",
    "in_main70",
    "in_main50",
    "main70_purity",
    "main70_share",
    "p_path",
    "mass_path",
    "p_record",
    "p_record_max",
    "record_members_ln",
    // The last COPIED names are first-stage features, copied so that the
    // aggregates can be weighed by what the block is.
    "chars_ln",
    "link_ratio",
    "heading_level",
    "position",
    "tag_li",
    "in_cetd_tpc",
];

/// Number of context features.
pub const N: usize = NAMES.len();

/// How many first-stage features end [`NAMES`] (copied by name).
const COPIED: usize = 6;

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
    let inside = |anc: usize, e: usize| e >= anc && e < anc + size[anc] as usize;
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
    let mut record = vec![u32::MAX; nh];
    for &(_, g) in &b.element_group {
        if let Some(n) = g_n.get_mut(g as usize) {
            *n += 1;
        }
    }
    let mut next = 0;
    for (h, &e) in t.held.iter().enumerate() {
        while b.element_group.get(next).is_some_and(|&(x, _)| x < e) {
            next += 1;
        }
        let g = match b.element_group.get(next) {
            Some(&(x, g)) if x == e => g as usize,
            _ => usize::MAX,
        };
        if g < ng {
            g_mass[g] += mass[h];
            g_tot[g] += tot[h];
            if tot[h] >= RECORD_MIN_CHARS {
                g_max[g] = g_max[g].max(mean(mass[h], tot[h]));
            }
            record[h] = g as u32;
        } else {
            let up = t.parent[h] as usize;
            if up < h {
                record[h] = record[up];
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
    let window = |k: usize, w: usize| {
        let (lo, hi) = (k.saturating_sub(w), (k + w + 1).min(nb));
        mean(pm[hi] - pm[lo], pc[hi] - pc[lo])
    };
    let copied: Vec<usize> = NAMES[N - COPIED..]
        .iter()
        .map(|n| features::NAMES.iter().position(|m| m == n).unwrap_or(0))
        .collect();
    (0..nb)
        .map(|k| {
            let e = block_at[k];
            let up = |x: usize| -> usize {
                match t.parent.get(x) {
                    Some(&u) if (u as usize) < nh => u as usize,
                    _ => x,
                }
            };
            let (a1, a2, a3) = (up(e), up(up(e)), up(up(up(e))));
            let region = |a: usize| (mean(mass[a], tot[a]), mass[a] / total_mass);
            let (p1, m1) = region(a1);
            let (p2, m2) = region(a2);
            let (p3, m3) = region(a3);
            let (path_m, path_c) = path_mass.get(&b.block_path[k]).copied().unwrap_or_default();
            let (p_rec, p_rec_max, rec_n) = match record.get(e).copied().unwrap_or(u32::MAX) {
                u32::MAX => (0.0, 0.0, 0.0),
                g => {
                    let g = g as usize;
                    (mean(g_mass[g], g_tot[g]), g_max[g], (g_n[g] as f32).ln_1p())
                }
            };
            let flag = |x: bool| if x { 1.0 } else { 0.0 };
            let f = &b.features[k];
            let c = |i: usize| f[copied[i]];
            [
                p[k],
                if k > 0 { p[k - 1] } else { 0.0 },
                p.get(k + 1).copied().unwrap_or(0.0),
                window(k, NEAR),
                window(k, FAR),
                p1,
                p2,
                p3,
                m1,
                m2,
                m3,
                flag(inside(main[0], e)),
                flag(inside(main[1], e)),
                mean(mass[main[0]], tot[main[0]]),
                mass[main[0]] / total_mass,
                mean(path_m, path_c),
                path_m / total_mass,
                p_rec,
                p_rec_max,
                rec_n,
                c(0),
                c(1),
                c(2),
                c(3),
                c(4),
                c(5),
            ]
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
        f[k][NAMES.iter().position(|n| *n == name).expect("a feature")]
    }

    #[test]
    fn copied_names_are_first_stage_features() {
        for n in &NAMES[N - COPIED..] {
            assert!(features::NAMES.contains(n), "{n}");
        }
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
