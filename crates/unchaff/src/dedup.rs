//! Repeated segments across the pages of one run: what `--dedup`
//! (`unchaff batch`) and `deduplicate=True` (Python) drop.
//!
//! A site's boilerplate that the extractor kept — a disclaimer under
//! every post, a sign-up paragraph, a shop's delivery terms — is the same
//! text on many pages of the site. [`SegmentCache`] remembers, per site,
//! on how many pages of the run each segment (a block of the text: a line
//! of plain text, a paragraph of Markdown) of at least
//! [`MIN_SEGMENT_CHARS`] characters was seen; once a segment was seen on
//! [`DEFAULT_MAX_REPEATS`] pages of its site, it is dropped from every
//! later page of that site. This is trafilatura's segment cache
//! (`deduplicate=True`, `max_repetitions`, `min_duplcheck_size`), kept
//! per site rather than for the whole run.
//!
//! The cache is applied to the pages in input order, one at a time: the
//! same input (and shard) gives the same output whatever the number of
//! threads. Its memory is bounded: it holds at most [`CAPACITY`]
//! segments and forgets the oldest first.
//!
//! It is no option of an [`crate::Extractor`] (which extracts pages in
//! any order, on any thread): the front end that has the pages in order
//! holds the cache.

use std::collections::{HashMap, VecDeque};
use std::hash::Hasher;

use siphasher::sip::SipHasher13;

/// Segments shorter than this (characters, white space excluded) are
/// never dropped: short lines ("Share", a date, "Read more") repeat by
/// nature and say nothing of the site's boilerplate. trafilatura's
/// `min_duplcheck_size` is 100 characters with spaces, about 85 without.
pub const MIN_SEGMENT_CHARS: usize = 85;

/// Pages of a site a segment may appear on before it is dropped from the
/// next ones (trafilatura's `max_repetitions`, 2).
pub const DEFAULT_MAX_REPEATS: u32 = 2;

/// Segments remembered at most (about 40 bytes each: 40 MB): far more
/// than one site's boilerplate, so a crawl of many sites keeps the recent
/// ones.
pub const CAPACITY: usize = 1_000_000;

/// What [`SegmentCache::filter`] did to one text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Filtered {
    /// The text without its repeated segments.
    pub text: String,
    /// Segments dropped.
    pub segments: usize,
    /// Characters dropped (white space excluded).
    pub chars: usize,
}

/// How a text is cut into segments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Segmentation {
    /// A segment a line (plain text).
    #[default]
    Lines,
    /// A segment a paragraph: blocks between blank lines (Markdown). A
    /// fenced code block is one segment whatever its blank lines.
    Paragraphs,
}

/// The segments seen in a run (see the module documentation).
#[derive(Clone, Debug)]
pub struct SegmentCache {
    max_repeats: u32,
    min_chars: usize,
    /// Pages each (site, segment) was seen on.
    seen: HashMap<u64, u32>,
    /// The keys in the order they came, for forgetting the oldest.
    order: VecDeque<u64>,
    capacity: usize,
}

impl Default for SegmentCache {
    fn default() -> SegmentCache {
        SegmentCache::new(DEFAULT_MAX_REPEATS)
    }
}

impl SegmentCache {
    /// A cache that drops a segment once it was seen on `max_repeats`
    /// pages of its site (at least 1).
    pub fn new(max_repeats: u32) -> SegmentCache {
        SegmentCache {
            max_repeats: max_repeats.max(1),
            min_chars: MIN_SEGMENT_CHARS,
            seen: HashMap::new(),
            order: VecDeque::new(),
            capacity: CAPACITY,
        }
    }

    /// The same cache holding at most `capacity` segments (for tests).
    pub fn with_capacity(mut self, capacity: usize) -> SegmentCache {
        self.capacity = capacity.max(1);
        self
    }

    /// The text of the next page of `site` (a URL's host; pages without
    /// one share the site `""`), without the segments seen on
    /// `max_repeats` earlier pages of the site; the page's segments are
    /// counted in.
    pub fn filter(&mut self, site: &str, text: &str, how: Segmentation) -> Filtered {
        let mut out = Filtered::default();
        let segments = split(text, how);
        let mut this_page: Vec<u64> = Vec::with_capacity(segments.len());
        let mut kept: Vec<&str> = Vec::with_capacity(segments.len());
        for seg in segments {
            let chars = seg.chars().filter(|c| !c.is_whitespace()).count();
            if chars < self.min_chars {
                kept.push(seg);
                continue;
            }
            let key = key(site, seg);
            let before = self.seen.get(&key).copied().unwrap_or(0);
            if !this_page.contains(&key) {
                this_page.push(key);
            }
            if before >= self.max_repeats {
                out.segments += 1;
                out.chars += chars;
            } else {
                kept.push(seg);
            }
        }
        for k in this_page {
            match self.seen.get_mut(&k) {
                Some(n) => *n = n.saturating_add(1),
                None => {
                    if self.seen.len() >= self.capacity
                        && let Some(old) = self.order.pop_front()
                    {
                        self.seen.remove(&old);
                    }
                    self.seen.insert(k, 1);
                    self.order.push_back(k);
                }
            }
        }
        out.text = kept.join(match how {
            Segmentation::Lines => "\n",
            Segmentation::Paragraphs => "\n\n",
        });
        out
    }
}

/// The key of a segment of a site: SipHash-1-3 of both, white space
/// collapsed in the segment.
fn key(site: &str, seg: &str) -> u64 {
    let mut h = SipHasher13::new_with_keys(0, 0);
    h.write(site.as_bytes());
    h.write_u8(0xff);
    for w in seg.split_whitespace() {
        h.write(w.as_bytes());
        h.write_u8(b' ');
    }
    h.finish()
}

/// The segments of a text.
fn split(text: &str, how: Segmentation) -> Vec<&str> {
    match how {
        Segmentation::Lines => text.split('\n').collect(),
        Segmentation::Paragraphs => {
            let mut out = Vec::new();
            let mut start = 0;
            let mut fenced = false;
            let mut pos = 0;
            let mut blank_from: Option<usize> = None;
            for line in text.split_inclusive('\n') {
                let t = line.trim();
                if t.starts_with("```") || t.starts_with("~~~") {
                    fenced = !fenced;
                }
                if t.is_empty() && !fenced {
                    if blank_from.is_none() {
                        blank_from = Some(pos);
                    }
                } else if let Some(b) = blank_from.take() {
                    out.push(text[start..b].trim_end_matches('\n'));
                    start = pos;
                }
                pos += line.len();
            }
            let end = blank_from.unwrap_or(text.len());
            if start < end {
                out.push(text[start..end].trim_end_matches('\n'));
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOILER: &str = "Subscribe to our newsletter to get the latest stories from the harbour, \
                          delivered to your inbox every week.";

    fn page(i: usize) -> String {
        format!(
            "Story {i} about the harbour wall, its stones and the people who rebuilt it over many years.\n{BOILER}\nShare"
        )
    }

    #[test]
    fn a_segment_goes_after_max_repeats_pages_of_its_site() {
        let mut c = SegmentCache::default();
        let a = c.filter("a.example", &page(1), Segmentation::Lines);
        let b = c.filter("a.example", &page(2), Segmentation::Lines);
        // Another site's pages are not counted with these.
        let other = c.filter("b.example", &page(3), Segmentation::Lines);
        let d = c.filter("a.example", &page(4), Segmentation::Lines);
        for f in [&a, &b, &other] {
            assert!(f.text.contains("Subscribe"), "{f:?}");
            assert_eq!(f.segments, 0);
        }
        assert!(!d.text.contains("Subscribe"), "{d:?}");
        assert!(
            d.text.contains("Story 4") && d.text.ends_with("Share"),
            "{d:?}"
        );
        assert_eq!(d.segments, 1);
        assert_eq!(
            d.chars,
            BOILER.chars().filter(|c| !c.is_whitespace()).count()
        );
    }

    #[test]
    fn repeats_within_a_page_count_once_and_short_lines_stay() {
        let mut c = SegmentCache::new(1);
        let twice = format!("{BOILER}\n{BOILER}");
        assert_eq!(c.filter("s", &twice, Segmentation::Lines).segments, 0);
        let f = c.filter("s", &format!("{BOILER}\nShare"), Segmentation::Lines);
        assert_eq!((f.segments, f.text.as_str()), (1, "Share"));
        // "Share" is short: never dropped however often.
        for _ in 0..5 {
            assert_eq!(c.filter("s", "Share", Segmentation::Lines).text, "Share");
        }
    }

    #[test]
    fn paragraphs_and_fences() {
        let md = format!("# Title\n\n{BOILER}\n\n```\ncode\n\nmore\n```\n\nEnd");
        assert_eq!(
            split(&md, Segmentation::Paragraphs),
            ["# Title", BOILER, "```\ncode\n\nmore\n```", "End"]
        );
        let mut c = SegmentCache::new(1);
        c.filter("s", &md, Segmentation::Paragraphs);
        let f = c.filter("s", &md, Segmentation::Paragraphs);
        assert_eq!(f.text, "# Title\n\n```\ncode\n\nmore\n```\n\nEnd");
    }

    #[test]
    fn memory_is_bounded_and_the_oldest_go() {
        let mut c = SegmentCache::new(1).with_capacity(2);
        let seg = |i: usize| format!("{BOILER} number {i}");
        for i in 0..3 {
            c.filter("s", &seg(i), Segmentation::Lines);
        }
        assert_eq!(c.seen.len(), 2);
        // The first was forgotten: it is new again.
        assert_eq!(c.filter("s", &seg(0), Segmentation::Lines).segments, 0);
        assert_eq!(c.filter("s", &seg(2), Segmentation::Lines).segments, 1);
    }
}
