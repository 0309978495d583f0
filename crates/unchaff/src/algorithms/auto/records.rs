//! Records are written alike: what is content in one is content in all.
//!
//! The model judges each block on its own evidence, and on a page of
//! repeated records (the posts of a forum thread, the items of a listing,
//! the cards of a collection) that evidence differs from record to
//! record: the opening post sits in an `article`, a long reply reads as
//! prose, a short one as chrome. Held out, threads came out as their
//! first post and one reply in three, listings as one item in five.
//!
//! This phase, after the model, treats the records of a group as copies
//! of one template. A block's place in its record is its *role*: the tag
//! and first class name of each element from the record down to the
//! block. When a block of some role is kept and holds a paragraph's worth
//! of text, or blocks of that role are kept in three records (a listing's
//! titles), the blocks of the same role in the group's other records are
//! kept too, unless the model is sure they are noise. Roles that no
//! record fills with kept prose (user cards, "Reply" buttons, prices
//! nobody kept) stay as the model left them.

use super::features::Blocks;
use crate::annotate::Page;

/// A kept block lends its role to the other records when it has at least
/// this many characters: a sentence of a post or an item's description,
/// not a user name, a date or a button that the model let through.
pub const SOURCE_MIN_CHARS: u32 = 100;

/// A role kept in this many records lends itself whatever the length of
/// its blocks: a listing's short titles, kept in three of its items, are
/// its template's content, where one kept user name is a slip.
pub const SOURCE_MIN_RECORDS: usize = 3;

/// A block of a lent role is kept when its probability reaches this: the
/// model may be unsure of it, not sure it is noise.
pub const FILL_MIN_PROBABILITY: f32 = 0.05;

/// Ancestors looked at between a block and its record: a record's body
/// nests a few levels deep; past this the block is not in a record.
const RECORD_LOOKUP: usize = 32;

/// The nearest record at or above held element `h` (an index in
/// [`Blocks::held`]) within [`RECORD_LOOKUP`] steps, as (its held index,
/// its group); the walk gives up once it is above element position
/// `lowest` (parents come before their children, so no record lies
/// further up).
fn record_of(b: &Blocks, mut h: usize, lowest: usize) -> Option<(usize, u32)> {
    for _ in 0..RECORD_LOOKUP {
        let e = *b.held.held.get(h)? as usize;
        if e < lowest {
            return None;
        }
        if let Ok(i) = b
            .element_group
            .binary_search_by_key(&(e as u32), |&(pos, _)| pos)
        {
            return Some((h, b.element_group[i].1));
        }
        match b.held.parent.get(h) {
            Some(&up) if (up as usize) < h => h = up as usize,
            _ => return None,
        }
    }
    None
}

/// The role of held element `h` in its record `record` (a held ancestor
/// of `h`): the tags and first class names from `h` up to the record's
/// child.
fn role_of(page: &Page<'_>, b: &Blocks, mut h: usize, record: usize) -> u64 {
    let dom = page.dom;
    let mut role = ROLE_SEED;
    while h != record {
        let Some(&n) = b
            .held
            .held
            .get(h)
            .and_then(|&e| page.elements.get(e as usize))
        else {
            break;
        };
        let tag = dom.tag(n).map_or(0, |t| t.0);
        let class = dom
            .attr(n, "class")
            .and_then(|c| c.split_ascii_whitespace().next())
            .unwrap_or("");
        role = mix(role, tag as u64);
        for byte in class.bytes() {
            role = mix(role, byte as u64);
        }
        role = mix(role, ROLE_STEP);
        match b.held.parent.get(h) {
            Some(&up) if (up as usize) < h => h = up as usize,
            _ => break,
        }
    }
    role
}

/// The empty role (a block that is a record itself).
const ROLE_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// Separates one element's tag and class from the next in a role.
const ROLE_STEP: u64 = 0x100;

/// One step of FNV-1a over 64-bit values: roles are compared by this
/// hash, so `div.body > p` and `div.sig > p` differ.
fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0000_0100_0000_01b3)
}

/// How [`fill_records`] lends roles.
#[derive(Clone, Copy, Debug)]
pub struct Fill {
    /// See [`SOURCE_MIN_CHARS`].
    pub source_min_chars: u32,
    /// See [`SOURCE_MIN_RECORDS`].
    pub source_min_records: usize,
    /// See [`FILL_MIN_PROBABILITY`].
    pub min_probability: f32,
}

impl Default for Fill {
    fn default() -> Fill {
        Fill {
            source_min_chars: SOURCE_MIN_CHARS,
            source_min_records: SOURCE_MIN_RECORDS,
            min_probability: FILL_MIN_PROBABILITY,
        }
    }
}

/// Keeps, in every record group, the blocks whose role a kept block of
/// [`Fill::source_min_chars`] or more has (or [`Fill::source_min_records`]
/// kept blocks have), when their probability `p` reaches
/// [`Fill::min_probability`]. Returns how many blocks it added.
///
/// Cost: the walks up to a record start only from the kept paragraphs
/// and from the blocks placed after the first record of a group that
/// lends, and stop above it; a page without records or without kept
/// paragraphs in them costs one pass over the blocks.
pub fn fill_records(
    page: &Page<'_>,
    b: &Blocks,
    p: &[f32],
    keep: &mut [bool],
    fill: Fill,
) -> usize {
    let n = keep
        .len()
        .min(p.len())
        .min(b.chars.len())
        .min(b.held.block.len());
    let Some(&(first, _)) = b.element_group.first() else {
        return 0;
    };
    let first = first as usize;
    // The roles lent: (group, role) of each kept paragraph in a record.
    // Every kept block in a record: (group, role, long enough to lend).
    let mut kept_roles: Vec<(u32, u64, bool)> = Vec::new();
    for ((&kept, &chars), &h) in keep.iter().zip(&b.chars).zip(&b.held.block).take(n) {
        if kept && let Some((record, group)) = record_of(b, h as usize, first) {
            let role = role_of(page, b, h as usize, record);
            kept_roles.push((group, role, chars >= fill.source_min_chars));
        }
    }
    kept_roles.sort_unstable();
    // The roles lent: those of a long block, or kept in enough records.
    let mut lent: Vec<(u32, u64)> = Vec::new();
    for same in kept_roles.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
        if same.iter().any(|x| x.2) || same.len() >= fill.source_min_records {
            lent.push((same[0].0, same[0].1));
        }
    }
    if lent.is_empty() {
        return 0;
    }
    // No record of a lending group starts before this position.
    let lowest = b
        .element_group
        .iter()
        .find(|(_, g)| lent.iter().any(|(l, _)| l == g))
        .map_or(usize::MAX, |&(pos, _)| pos as usize);
    let mut added = 0;
    for ((kept, &pk), &h) in keep.iter_mut().zip(p).zip(&b.held.block).take(n) {
        if *kept || pk < fill.min_probability {
            continue;
        }
        let h = h as usize;
        if b.held.held.get(h).is_none_or(|&e| (e as usize) < lowest) {
            continue;
        }
        if let Some((record, group)) = record_of(b, h, lowest)
            && lent.iter().any(|&(g, _)| g == group)
            && lent
                .binary_search(&(group, role_of(page, b, h, record)))
                .is_ok()
        {
            *kept = true;
            added += 1;
        }
    }
    added
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::after_phase;

    const PROSE: &str = "I planed the board twice before the glue dried, and the joint still opened a little at the far end, so next time I will clamp it overnight.";

    /// The blocks `fill_records` leaves kept when the blocks starting
    /// with one of `kept` were kept and every block had probability `p`.
    fn filled(html: &str, kept: &[&str], p: f32) -> Vec<String> {
        let before = |t: &str| kept.iter().any(|k| t.starts_with(k));
        after_phase(html, before, |page, b, keep| {
            let probability = vec![p; keep.len()];
            fill_records(page, b, &probability, keep, Fill::default());
        })
    }

    /// A thread of three posts, each a user card and a body.
    fn thread() -> String {
        let post = |who: &str, n: &str| {
            format!(
                "<div class=post><div class=user-card>{who} joined 2017</div>\
                 <div class=post-body><p>{n} {PROSE}</p></div></div>"
            )
        };
        format!(
            "<body><div class=thread>{}{}{}</div></body>",
            post("Ann", "First."),
            post("Bob", "Second."),
            post("Cy", "Third.")
        )
    }

    #[test]
    fn a_kept_post_body_brings_the_other_posts_bodies() {
        assert_eq!(
            filled(&thread(), &["First."], 0.3),
            ["First. I pla", "Second. I pl", "Third. I pla"]
        );
    }

    #[test]
    fn roles_no_record_fills_with_prose_stay_out() {
        // The user card is short: kept in one post, it lends nothing.
        assert_eq!(filled(&thread(), &["Ann joined"], 0.3), ["Ann joined 2"]);
    }

    #[test]
    fn a_short_role_kept_in_three_records_lends_itself() {
        let item = |t: &str| {
            format!(
                "<div class=item><h3 class=title>{t} stew</h3><span class=price>$4</span></div>"
            )
        };
        let html = format!(
            "<body><div class=list>{}{}{}{}{}</div></body>",
            item("Bean"),
            item("Lentil"),
            item("Fish"),
            item("Pork"),
            item("Corn")
        );
        assert_eq!(
            filled(&html, &["Bean", "Lentil", "Fish"], 0.3),
            [
                "Bean stew",
                "Lentil stew",
                "Fish stew",
                "Pork stew",
                "Corn stew"
            ]
        );
        // Kept in two records, a short role is no template.
        assert_eq!(
            filled(&html, &["Bean", "Lentil"], 0.3),
            ["Bean stew", "Lentil stew"]
        );
    }

    #[test]
    fn blocks_the_model_is_sure_of_stay_out() {
        assert_eq!(filled(&thread(), &["First."], 0.01), ["First. I pla"]);
    }

    #[test]
    fn blocks_outside_records_lend_nothing() {
        let html = format!(
            "<body><div class=article><p>Body. {PROSE}</p></div>\
             <ul class=related><li class=teaser>One {PROSE}</li><li class=teaser>Two {PROSE}</li>\
             <li class=teaser>Three {PROSE}</li></ul></body>"
        );
        assert_eq!(filled(&html, &["Body."], 0.3), ["Body. I plan"]);
    }
}
