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
//!
//! Three cases widen what counts, each seen held out on forum threads
//! and listings (docs/history/results-auto.md, round 2 session 7):
//!
//! - **The opening post as a sibling.** Thread software marks the first
//!   post with a class of its own (`message--firstPost`,
//!   `topic-owner-post`), so it does not group with the replies. A
//!   sibling of a group's records with their tag and one of their class
//!   names lends its roles as a record of that group.
//! - **Posts written alike.** Where the opening post sits in another
//!   container altogether, its body is still written like every reply's
//!   (XenForo's `article.message-body > div.bbWrapper`): a kept paragraph
//!   whose element and parent carry classes lends that pair, class for
//!   class, to the blocks of records written the same way. A classless
//!   paragraph lends nothing this way: a blog writes its article and its
//!   comments alike, and only the comments sit in records.
//! - **Listings.** A group whose kept roles are only short ones repeated
//!   across records (a listing's titles or prices) and never a post's
//!   prose is a listing: its records are its content whole (the name, the
//!   price, the rating and the specs), so their blocks are kept unless
//!   the model is sure they are noise.
//! - **Records within records.** A shop's product card holds its spec
//!   rows, a group of their own in every card, and the model keeps one
//!   spec ("68 liters") of each card at best: one kept block in each of
//!   many groups, a template in none. A kept block its nearest records
//!   make no template of counts in the records around them too
//!   ([`RECORD_LEVELS`]), so that the cards' group is a listing, its
//!   cards kept whole; one they do (a widget's list items, a post's
//!   paragraph) is settled there.

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

/// A listing's records are kept whole for their blocks whose probability
/// reaches this: above [`FILL_MIN_PROBABILITY`], because a whole record
/// also holds its buttons and badges, which the model rates lowest.
pub const LISTING_MIN_PROBABILITY: f32 = 0.1;

/// Records a kept block speaks for, from its nearest one outwards: a
/// shop's product card holds its spec rows, themselves three or more
/// siblings of one class and so a group of their own, one group a card.
/// A spec kept in every card is then one kept block in each of many
/// groups, a template nowhere, unless the cards' group hears of it too.
/// Two levels: the card around the rows (held out, wcxb-dev's
/// collection pages; `record-levels`).
pub const RECORD_LEVELS: usize = 2;

/// Ancestors looked at between a block and its record: a record's body
/// nests a few levels deep; past this the block is not in a record.
const RECORD_LOOKUP: usize = 32;

/// The nearest record at or above each held element (an index in
/// [`Blocks::held`]) within [`RECORD_LOOKUP`] steps, as (its held index,
/// its group), or [`NO_RECORD`]: one pass over the held tree, parents
/// before their children, instead of a walk up from every block.
struct Records(Vec<(u32, u32)>);

/// No record within reach.
const NO_RECORD: (u32, u32) = (u32::MAX, u32::MAX);

impl Records {
    fn new(b: &Blocks) -> Records {
        let held = &b.held.held;
        let mut near = vec![NO_RECORD; held.len()];
        // Steps from each held element up to its nearest record.
        let mut steps = vec![0u8; held.len()];
        let mut members = b.element_group.iter().peekable();
        for (h, &e) in held.iter().enumerate() {
            while members.next_if(|&&(pos, _)| pos < e).is_some() {}
            if let Some(&&(pos, g)) = members.peek()
                && pos == e
            {
                near[h] = (h as u32, g);
                continue;
            }
            let up = b.held.parent.get(h).copied().unwrap_or(u32::MAX) as usize;
            if up < h && near[up] != NO_RECORD && (steps[up] as usize) + 1 < RECORD_LOOKUP {
                near[h] = near[up];
                steps[h] = steps[up] + 1;
            }
        }
        Records(near)
    }

    /// The nearest record of held element `h` whose element lies at or
    /// after element position `lowest`.
    fn of(&self, b: &Blocks, h: usize, lowest: usize) -> Option<(usize, u32)> {
        let &(r, g) = self.0.get(h)?;
        let e = *b.held.held.get(r as usize)? as usize;
        (r != u32::MAX && e >= lowest).then_some((r as usize, g))
    }

    /// The nearest record strictly above record `record` (a held index),
    /// as [`Records::of`] gives it.
    fn outer(&self, b: &Blocks, record: usize, lowest: usize) -> Option<(usize, u32)> {
        let up = *b.held.parent.get(record)? as usize;
        (up < record).then(|| self.of(b, up, lowest)).flatten()
    }
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
        role = mix_element(dom, n, role, false);
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

/// Tag and class words of element `n`, mixed into `h`: the whole class
/// attribute when `whole`, else its first name.
fn mix_element(dom: &crate::dom::Dom, n: crate::dom::NodeId, h: u64, whole: bool) -> u64 {
    let mut h = mix(h, dom.tag(n).map_or(0, |t| t.0) as u64);
    let class = dom.attr(n, "class").unwrap_or("");
    for (i, word) in class.split_ascii_whitespace().enumerate() {
        if i > 0 && !whole {
            break;
        }
        for byte in word.bytes() {
            h = mix(h, byte as u64);
        }
        h = mix(h, ROLE_STEP);
    }
    mix(h, ROLE_STEP)
}

/// How a block is written: its element's tag and whole class attribute,
/// and its parent's; `None` when either has no class (a bare `p`, or a
/// `td` in a bare `tr`, is written alike all over a page).
fn written_as(page: &Page<'_>, b: &Blocks, h: usize) -> Option<u64> {
    let dom = page.dom;
    let classless = |n| {
        dom.attr(n, "class")
            .is_none_or(|c: &str| c.trim_ascii().is_empty())
    };
    let n = *page.elements.get(*b.held.held.get(h)? as usize)?;
    let up = *b.held.parent.get(h)? as usize;
    if up >= h {
        return None;
    }
    let parent = *page.elements.get(*b.held.held.get(up)? as usize)?;
    if classless(n) || classless(parent) {
        return None;
    }
    Some(mix_element(
        dom,
        parent,
        mix_element(dom, n, ROLE_SEED, true),
        true,
    ))
}

/// The record groups' members as siblings: (held index of a member's
/// parent, member tag, group) for each member that holds a block, sorted,
/// with each group's first member's class attribute by group number.
struct Siblings<'a> {
    parents: Vec<(u32, u16, u32)>,
    class: Vec<&'a str>,
}

impl<'a> Siblings<'a> {
    fn new(page: &Page<'a>, b: &Blocks) -> Siblings<'a> {
        let dom = page.dom;
        let mut class = vec![""; b.groups as usize];
        let mut seen = vec![false; b.groups as usize];
        let mut parents = Vec::new();
        for &(e, g) in &b.element_group {
            let Some(&n) = page.elements.get(e as usize) else {
                continue;
            };
            if let Some(s) = seen.get_mut(g as usize)
                && !*s
            {
                *s = true;
                class[g as usize] = dom.attr(n, "class").unwrap_or("");
            }
            if let Ok(h) = b.held.held.binary_search(&e)
                && let Some(&up) = b.held.parent.get(h)
            {
                parents.push((up, dom.tag(n).map_or(0, |t| t.0), g));
            }
        }
        parents.sort_unstable();
        parents.dedup();
        Siblings { parents, class }
    }

    /// The group whose records held element `h` sits beside: a sibling of
    /// its members with their tag and a class name of its first member.
    fn group_beside(&self, page: &Page<'_>, b: &Blocks, h: usize) -> Option<u32> {
        let dom = page.dom;
        let up = *b.held.parent.get(h)?;
        if up as usize >= h {
            return None;
        }
        let n = *page.elements.get(*b.held.held.get(h)? as usize)?;
        let tag = dom.tag(n).map_or(0, |t| t.0);
        let from = self.parents.partition_point(|x| (x.0, x.1) < (up, tag));
        let beside = self.parents.get(from)?;
        if (beside.0, beside.1) != (up, tag) {
            return None;
        }
        let mine = dom.attr(n, "class").unwrap_or("");
        self.parents[from..]
            .iter()
            .take_while(|x| (x.0, x.1) == (up, tag))
            .find(|x| {
                let theirs = self.class.get(x.2 as usize).copied().unwrap_or("");
                mine.split_ascii_whitespace()
                    .any(|w| theirs.split_ascii_whitespace().any(|v| v == w))
            })
            .map(|x| x.2)
    }

    /// The nearest ancestor of held element `h` (or `h` itself) beside a
    /// group's records, as (its held index, the group).
    fn record_beside(&self, page: &Page<'_>, b: &Blocks, mut h: usize) -> Option<(usize, u32)> {
        for _ in 0..RECORD_LOOKUP {
            if let Some(g) = self.group_beside(page, b, h) {
                return Some((h, g));
            }
            match b.held.parent.get(h) {
                Some(&up) if (up as usize) < h => h = up as usize,
                _ => return None,
            }
        }
        None
    }
}

/// The roles lent and the listings of the kept blocks' `roles` (group,
/// role, long; sorted): a role of a long block or kept `min_records`
/// times is lent; a group with a role kept that often and no long kept
/// block is a listing. Both sorted.
fn lend(roles: &[(u32, u64, bool)], min_records: usize) -> (Vec<(u32, u64)>, Vec<u32>) {
    let mut lent: Vec<(u32, u64)> = Vec::new();
    let mut listings: Vec<u32> = Vec::new();
    for same in roles.chunk_by(|x, y| x.0 == y.0) {
        let group = same[0].0;
        let prose = same.iter().any(|x| x.2);
        let mut repeated = false;
        for role in same.chunk_by(|x, y| x.1 == y.1) {
            let enough = role.len() >= min_records;
            repeated |= enough;
            if enough || role.iter().any(|x| x.2) {
                lent.push((group, role[0].1));
            }
        }
        if repeated && !prose {
            listings.push(group);
        }
    }
    (lent, listings)
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
    /// See [`LISTING_MIN_PROBABILITY`].
    pub listing_min_probability: f32,
    /// How many records, from the nearest outwards, a block's role is
    /// counted and filled in: [`RECORD_LEVELS`]; 1 only the nearest
    /// (`record-levels=1`).
    pub levels: usize,
}

impl Default for Fill {
    fn default() -> Fill {
        Fill {
            source_min_chars: SOURCE_MIN_CHARS,
            source_min_records: SOURCE_MIN_RECORDS,
            min_probability: FILL_MIN_PROBABILITY,
            listing_min_probability: LISTING_MIN_PROBABILITY,
            levels: RECORD_LEVELS,
        }
    }
}

/// Keeps, in every record group, the blocks whose role a kept block of
/// [`Fill::source_min_chars`] or more has (or [`Fill::source_min_records`]
/// kept blocks have), when their probability `p` reaches
/// [`Fill::min_probability`]; the blocks of records written like a kept
/// block of that length (see the module documentation), likewise; and
/// the blocks of a listing's records that reach
/// [`Fill::listing_min_probability`]. Returns how many blocks it added.
///
/// Cost: the walks up to a record start only from the kept blocks and
/// from the blocks placed after the first record of a group that lends,
/// and stop above it; a page without records or without kept blocks in
/// them costs one pass over the blocks.
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
    let records = Records::new(b);
    // Made when a kept block is first found outside every record.
    let mut siblings: Option<Siblings<'_>> = None;
    // Every kept block in its nearest record: (group, role, long enough
    // to lend), with the block and its record (held indices); and how
    // each long kept block is written.
    let mut nearest: Vec<(u32, u64, bool, (usize, usize))> = Vec::new();
    let mut written: Vec<u64> = Vec::new();
    for ((&kept, &chars), &h) in keep.iter().zip(&b.chars).zip(&b.held.block).take(n) {
        if !kept {
            continue;
        }
        let h = h as usize;
        let long = chars >= fill.source_min_chars;
        let record = records.of(b, h, 0).or_else(|| {
            siblings
                .get_or_insert_with(|| Siblings::new(page, b))
                .record_beside(page, b, h)
        });
        if let Some((record, group)) = record {
            nearest.push((group, role_of(page, b, h, record), long, (h, record)));
        }
        if long && let Some(w) = written_as(page, b, h) {
            written.push(w);
        }
    }
    written.sort_unstable();
    written.dedup();
    // (group, role, long) of each kept block's records.
    let mut kept_roles: Vec<(u32, u64, bool)> = nearest.iter().map(|x| (x.0, x.1, x.2)).collect();
    kept_roles.sort_unstable();
    let (mut lent, mut listings) = lend(&kept_roles, fill.source_min_records);
    // A kept block whose nearest records make no template of it (a spec
    // kept in one row of each product card's rows) asks the records
    // around them ([`RECORD_LEVELS`]); one they do make a template of (a
    // widget's list items, and any long block, which lends alone) is
    // settled there: the outer rows of nested layout tables round an
    // article's paragraph are not posts.
    if fill.levels > 1 {
        let before = kept_roles.len();
        for &(group, role, long, (h, record)) in &nearest {
            if lent.binary_search(&(group, role)).is_ok() {
                continue;
            }
            let mut level = records.outer(b, record, 0);
            for _ in 1..fill.levels {
                let Some((record, group)) = level else { break };
                kept_roles.push((group, role_of(page, b, h, record), long));
                level = records.outer(b, record, 0);
            }
        }
        if kept_roles.len() > before {
            kept_roles.sort_unstable();
            (lent, listings) = lend(&kept_roles, fill.source_min_records);
        }
    }
    if lent.is_empty() && written.is_empty() {
        return 0;
    }
    // No record of a lending group starts before this position (any
    // group's first record, when kept blocks lend how they are written).
    let lowest = if written.is_empty() {
        b.element_group
            .iter()
            .find(|(_, g)| lent.iter().any(|(l, _)| l == g))
            .map_or(usize::MAX, |&(pos, _)| pos as usize)
    } else {
        first
    };
    let mut added = 0;
    for ((kept, &pk), &h) in keep.iter_mut().zip(p).zip(&b.held.block).take(n) {
        if *kept || pk < fill.min_probability {
            continue;
        }
        let h = h as usize;
        if b.held.held.get(h).is_none_or(|&e| (e as usize) < lowest) {
            continue;
        }
        let Some(nearest) = records.of(b, h, lowest) else {
            continue;
        };
        let mut fills = !written.is_empty()
            && written_as(page, b, h).is_some_and(|w| written.binary_search(&w).is_ok());
        let mut level = Some(nearest);
        for _ in 0..fill.levels {
            let Some((record, group)) = level else { break };
            fills = fills
                || (pk >= fill.listing_min_probability && listings.contains(&group))
                || (lent.iter().any(|&(g, _)| g == group)
                    && lent
                        .binary_search(&(group, role_of(page, b, h, record)))
                        .is_ok());
            if fills {
                break;
            }
            level = records.outer(b, record, lowest);
        }
        if fills {
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
        // Kept in three records, the titles make the group a listing:
        // its items are kept whole, prices too.
        assert_eq!(
            filled(&html, &["Bean", "Lentil", "Fish"], 0.3),
            [
                "Bean stew",
                "$4",
                "Lentil stew",
                "$4",
                "Fish stew",
                "$4",
                "Pork stew",
                "$4",
                "Corn stew",
                "$4"
            ]
        );
        // Below the listing's bar, only the lent role (the titles) fills.
        assert_eq!(
            filled(&html, &["Bean", "Lentil", "Fish"], 0.07),
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
    fn a_threads_records_are_not_kept_whole() {
        // User names kept in three posts repeat like a listing's titles,
        // but the posts' prose makes the group a thread: the signatures
        // nobody kept stay out.
        let post = |who: &str, n: &str| {
            format!(
                "<div class=post><div class=user-card>{who}</div>\
                 <div class=post-body><p>{n} {PROSE}</p></div><div class=sig>Motto of {who}</div></div>"
            )
        };
        let html = format!(
            "<body><div class=thread>{}{}{}</div></body>",
            post("Ann", "First."),
            post("Bob", "Second."),
            post("Cy", "Third.")
        );
        assert_eq!(
            filled(&html, &["First.", "Ann", "Bob", "Cy"], 0.3),
            [
                "Ann",
                "First. I pla",
                "Bob",
                "Second. I pl",
                "Cy",
                "Third. I pla"
            ]
        );
    }

    /// The four posts' bodies of the two tests below, as kept.
    const FOUR_POSTS: [&str; 4] = [
        "First. I pla",
        "Second. I pl",
        "Third. I pla",
        "Fourth. I pl",
    ];

    #[test]
    fn an_opening_post_beside_the_replies_lends_its_roles() {
        // The first post carries a class of its own, so it is no member
        // of the replies' group; it shares their tag and a class name.
        let post = |class: &str, n: &str| {
            format!(
                "<li class=\"{class}\"><div class=user-card>Ann joined 2017</div>\
                 <div class=content><p>{n} {PROSE}</p></div></li>"
            )
        };
        let html = format!(
            "<body><ul class=posts>{}{}{}{}</ul></body>",
            post("post first", "First."),
            post("post", "Second."),
            post("post", "Third."),
            post("post", "Fourth.")
        );
        assert_eq!(filled(&html, &["First."], 0.3), FOUR_POSTS);
        // A sibling sharing no class name with the records is no record:
        // an article beside a column of boxes lends them nothing.
        let html = format!(
            "<body><div class=main><div class=content><p>Body. {PROSE}</p></div></div>\
             <div class=box><div class=content><p>One {PROSE}</p></div></div>\
             <div class=box><div class=content><p>Two {PROSE}</p></div></div>\
             <div class=box><div class=content><p>Three {PROSE}</p></div></div></body>"
        );
        assert_eq!(filled(&html, &["Body."], 0.3), ["Body. I plan"]);
    }

    #[test]
    fn replies_written_like_the_opening_post_are_kept() {
        // The opening post sits in a container of its own; its body is
        // written like every reply's (XenForo's message-body > bbWrapper).
        let body = |n: &str| {
            format!(
                "<article class=\"message-body js-quote\"><div class=bbWrapper>{n} {PROSE}</div></article>"
            )
        };
        let reply = |n: &str| {
            format!(
                "<article class=\"message reply\"><div class=user>Bob joined 2019</div>{}</article>",
                body(n)
            )
        };
        let html = format!(
            "<body><div class=opening>{}</div><div class=replies>{}{}{}</div></body>",
            body("First."),
            reply("Second."),
            reply("Third."),
            reply("Fourth.")
        );
        assert_eq!(filled(&html, &["First."], 0.3), FOUR_POSTS);
    }

    #[test]
    fn comments_written_like_a_classless_article_stay_out() {
        // A blog writes its article and its comments alike (`div.item >
        // p`); a bare paragraph tells nothing, so the comments stay out.
        let item = |n: &str| format!("<div class=item><p>{n} {PROSE}</p></div>");
        let html = format!(
            "<body>{}<div id=comments>{}{}{}</div></body>",
            item("Article."),
            item("One."),
            item("Two."),
            item("Three.")
        );
        assert_eq!(filled(&html, &["Article."], 0.3), ["Article. I p"]);
    }

    /// A shop's grid of five product cards, each a name, a price and
    /// three spec rows (`div.spec`: a group of their own in every card);
    /// each card's specs differ.
    const CARDS: [(&str, &str, &str, &str); 5] = [
        ("Ridge", "68 liters", "3.5 lbs", "5 nights"),
        ("Trail", "60 liters", "3.6 lbs", "4 nights"),
        ("Crest", "65 liters", "3.7 lbs", "3 nights"),
        ("Scout", "55 liters", "2.8 lbs", "2 nights"),
        ("Summit", "50 liters", "2.9 lbs", "1 night"),
    ];

    fn product_grid() -> String {
        let spec = |label: &str, value: &str| {
            format!("<div class=spec><div class=label>{label}</div><div class=value>{value}</div></div>")
        };
        let cards: String = CARDS
            .iter()
            .map(|(name, litres, lbs, nights)| {
                format!(
                    "<li class=card><h3 class=name>{name} pack</h3><div class=price>$99</div>\
                     <div class=specs>{}{}{}</div></li>",
                    spec("Capacity:", litres),
                    spec("Weight:", lbs),
                    spec("Trip:", nights)
                )
            })
            .collect();
        format!("<body><ul class=grid>{cards}</ul></body>")
    }

    #[test]
    fn a_spec_kept_in_every_card_makes_the_cards_a_listing() {
        // The model kept one spec value of three cards: one block in each
        // card's own group of spec rows, a template of none of them. The
        // cards' group hears of it, and its cards are kept whole.
        let kept = ["68 liters", "60 liters", "65 liters"];
        let got = filled(&product_grid(), &kept, 0.3);
        let want: Vec<String> = CARDS
            .iter()
            .flat_map(|&(name, litres, lbs, nights)| {
                [
                    format!("{name} pack"),
                    "$99".into(),
                    "Capacity:".into(),
                    litres.into(),
                    "Weight:".into(),
                    lbs.into(),
                    "Trip:".into(),
                    nights.into(),
                ]
            })
            .map(|t| t.chars().take(12).collect())
            .collect();
        assert_eq!(got, want);
        // With the nearest records only (`record-levels=1`), the specs
        // stay as the model left them.
        let got = after_phase(
            &product_grid(),
            |t| kept.iter().any(|k| t.starts_with(k)),
            |page, b, keep| {
                let probability = vec![0.3; keep.len()];
                let fill = Fill {
                    levels: 1,
                    ..Fill::default()
                };
                fill_records(page, b, &probability, keep, fill);
            },
        );
        assert_eq!(got, kept);
    }

    #[test]
    fn a_role_its_nearest_records_lend_asks_no_further() {
        // Three cards keep their three spec values: in each of them the
        // spec rows are a listing, kept whole there; the cards' group
        // hears nothing, and the names, prices and other cards stay out.
        let kept = [
            "68 liters", "3.5 lbs", "5 nights", "60 liters", "3.6 lbs", "4 nights", "65 liters",
            "3.7 lbs", "3 nights",
        ];
        let got = filled(&product_grid(), &kept, 0.3);
        let want: Vec<&str> = CARDS[..3]
            .iter()
            .flat_map(|&(_, litres, lbs, nights)| {
                ["Capacity:", litres, "Weight:", lbs, "Trip:", nights]
            })
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn a_long_block_is_settled_in_its_nearest_records() {
        // A layout of nested tables: the article's paragraph sits in a row
        // of an inner table, inside a row of the page's outer table. It
        // lends its role to the inner rows, and asks the outer rows'
        // boxes nothing.
        let row = |t: &str| format!("<tr><td>{t}</td></tr>");
        let html = format!(
            "<body><table>{}<tr><td><table>{}{}{}</table></td></tr>{}{}</table></body>",
            row("Menu home news sport"),
            row(&format!("Body. {PROSE}")),
            row("Photo caption here"),
            row("Filed under: city"),
            row("Win tickets to the show"),
            row("Copyright the paper")
        );
        let got = filled(&html, &["Body."], 0.3);
        assert_eq!(got, ["Body. I plan", "Photo captio", "Filed under:"]);
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
