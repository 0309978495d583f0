//! The class/id vocabulary: what an element's `class`, `id`, `role` and
//! `itemprop` say it is.
//!
//! Every good extractor reads these names (Readability's "unlikely
//! candidates" and "positive" patterns, trafilatura's and boilerpipe's
//! lists). Here they only become features: a family bit per element, and
//! the model learns how much each family matters and where. Words are
//! matched as substrings (case-insensitive) so that compounds such as
//! `commentlist`, `sidebarWidget` or `footer-links` count; the few words
//! that are too short to match safely inside others (`ad`, `nav`, `tag`…)
//! must be a whole token of the name.

use aho_corasick::automaton::Automaton;
use aho_corasick::dfa::DFA;
use aho_corasick::{Anchored, MatchKind};

/// A vocabulary family: one bit of [`Families`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Family {
    /// article, content, post, entry, story, body text: the content itself.
    Positive = 0,
    /// comments and replies.
    Comment,
    /// navigation, menus, breadcrumbs, pagination.
    Nav,
    /// sidebars, rails and widgets.
    Sidebar,
    /// related, recommended, popular, "more stories".
    Related,
    /// share and social bars, print/email tools.
    Share,
    /// page footers and legal lines.
    Footer,
    /// page headers, mastheads, banners.
    Header,
    /// advertising and sponsored slots.
    Ad,
    /// bylines, authors, dates, tags and categories.
    Meta,
    /// captions, credits, galleries.
    Caption,
    /// cookie banners, newsletter sign-ups, log-ins, pop-ups, paywalls.
    Overlay,
    /// visually hidden text (screen-reader only).
    Hidden,
}

/// Number of families.
pub const FAMILIES: usize = 13;

/// A set of families, one bit each.
pub type Families = u16;

/// Substrings and their family. Chosen from the class names that
/// Readability.js, trafilatura and boilerpipe single out, plus the ones
/// that cover most of the class names seen on the dev pages' noise.
const SUBSTRINGS: &[(&str, Family)] = &[
    ("article", Family::Positive),
    ("content", Family::Positive),
    ("entry", Family::Positive),
    ("post", Family::Positive),
    ("story", Family::Positive),
    ("blog", Family::Positive),
    ("articlebody", Family::Positive),
    ("main", Family::Positive),
    ("text", Family::Positive),
    ("comment", Family::Comment),
    ("disqus", Family::Comment),
    ("respond", Family::Comment),
    ("reply", Family::Comment),
    ("replies", Family::Comment),
    ("discussion", Family::Comment),
    ("navigation", Family::Nav),
    ("navbar", Family::Nav),
    ("menu", Family::Nav),
    ("breadcrumb", Family::Nav),
    ("pagination", Family::Nav),
    ("pager", Family::Nav),
    ("toolbar", Family::Nav),
    ("skip", Family::Nav),
    ("sidebar", Family::Sidebar),
    ("side-bar", Family::Sidebar),
    ("widget", Family::Sidebar),
    ("rail", Family::Sidebar),
    ("related", Family::Related),
    ("recommend", Family::Related),
    ("trending", Family::Related),
    ("popular", Family::Related),
    ("more-stories", Family::Related),
    ("readmore", Family::Related),
    ("read-more", Family::Related),
    ("outbrain", Family::Related),
    ("taboola", Family::Related),
    ("teaser", Family::Related),
    ("share", Family::Share),
    ("sharing", Family::Share),
    ("social", Family::Share),
    ("facebook", Family::Share),
    ("twitter", Family::Share),
    ("print", Family::Share),
    ("footer", Family::Footer),
    ("copyright", Family::Footer),
    ("legal", Family::Footer),
    ("header", Family::Header),
    ("masthead", Family::Header),
    ("banner", Family::Header),
    ("advert", Family::Ad),
    ("sponsor", Family::Ad),
    ("promo", Family::Ad),
    ("adsense", Family::Ad),
    ("byline", Family::Meta),
    ("author", Family::Meta),
    ("dateline", Family::Meta),
    ("timestamp", Family::Meta),
    ("category", Family::Meta),
    ("caption", Family::Caption),
    ("credit", Family::Caption),
    ("gallery", Family::Caption),
    ("photo", Family::Caption),
    ("cookie", Family::Overlay),
    ("consent", Family::Overlay),
    ("gdpr", Family::Overlay),
    ("newsletter", Family::Overlay),
    ("subscribe", Family::Overlay),
    ("signup", Family::Overlay),
    ("login", Family::Overlay),
    ("modal", Family::Overlay),
    ("popup", Family::Overlay),
    ("paywall", Family::Overlay),
    ("sr-only", Family::Hidden),
    ("screen-reader", Family::Hidden),
    ("visually-hidden", Family::Hidden),
    ("visuallyhidden", Family::Hidden),
    ("offscreen", Family::Hidden),
];

/// Words too short to match inside other words: they count only as a
/// whole token of the name (split at anything not a letter or digit).
const TOKENS: &[(&str, Family)] = &[
    ("nav", Family::Nav),
    ("ad", Family::Ad),
    ("ads", Family::Ad),
    ("tag", Family::Meta),
    ("tags", Family::Meta),
    ("meta", Family::Meta),
    ("date", Family::Meta),
    ("info", Family::Meta),
    ("body", Family::Positive),
    ("top", Family::Header),
    ("bottom", Family::Footer),
    ("aside", Family::Sidebar),
    ("hidden", Family::Hidden),
    ("hide", Family::Hidden),
];

/// The compiled vocabulary.
pub struct Vocabulary {
    /// Every word, substrings then tokens, as one automaton (a DFA
    /// without a prefilter: the names are short, and the scan below is a
    /// table look-up a byte). `None` only if it could not be built, which
    /// the fixed word list rules out; then nothing matches.
    matcher: Option<DFA>,
}

impl Vocabulary {
    /// Compiles the word lists.
    pub fn new() -> Vocabulary {
        let matcher = DFA::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .prefilter(false)
            .build(SUBSTRINGS.iter().chain(TOKENS).map(|(w, _)| *w))
            .ok();
        Vocabulary { matcher }
    }

    /// The families named in `s` (an element's class, id, role and
    /// itemprop values joined by spaces): every occurrence of every word
    /// (overlapping ones too), tokens only where they are whole.
    ///
    /// The automaton is walked a byte at a time through its public
    /// low-level interface: at each position where words end, each word
    /// ending there is looked at, which is what an overlapping search
    /// reports (in another order, which an OR of bits does not see),
    /// without the search's per-match state.
    pub fn families(&self, s: &str) -> Families {
        let Some(dfa) = &self.matcher else {
            return 0;
        };
        let Ok(mut sid) = dfa.start_state(Anchored::No) else {
            return 0;
        };
        let bytes = s.as_bytes();
        let word = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_alphanumeric);
        let mut f: Families = 0;
        for (at, &b) in bytes.iter().enumerate() {
            sid = dfa.next_state(Anchored::No, sid, b);
            if !dfa.is_special(sid) {
                continue;
            }
            if dfa.is_dead(sid) {
                break;
            }
            if !dfa.is_match(sid) {
                continue;
            }
            let end = at + 1;
            for i in 0..dfa.match_len(sid) {
                let k = dfa.match_pattern(sid, i).as_usize();
                let fam = match SUBSTRINGS.get(k) {
                    Some(&(_, fam)) => fam,
                    // A short word: only as a whole token.
                    None => {
                        let start = end - dfa.pattern_len(dfa.match_pattern(sid, i));
                        let whole = (start == 0 || !word(start - 1)) && !word(end);
                        match TOKENS.get(k - SUBSTRINGS.len()) {
                            Some(&(_, fam)) if whole => fam,
                            _ => continue,
                        }
                    }
                };
                f |= 1 << fam as u8;
            }
        }
        f
    }
}

impl Default for Vocabulary {
    fn default() -> Self {
        Vocabulary::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(f: Families, fam: Family) -> bool {
        f & (1 << fam as u8) != 0
    }

    #[test]
    fn substrings_and_whole_tokens() {
        let v = Vocabulary::new();
        let f = v.families("commentList sidebarWidget");
        assert!(has(f, Family::Comment) && has(f, Family::Sidebar));
        // "ad" only as a whole token: "header" and "read" are not ads.
        assert!(!has(v.families("header read shadow"), Family::Ad));
        assert!(has(v.families("header"), Family::Header));
        assert!(has(v.families("top-ad slot"), Family::Ad));
        assert!(has(v.families("main-nav"), Family::Nav));
        assert!(!has(v.families("canvas"), Family::Nav));
        assert_eq!(v.families(""), 0);
        assert!(has(v.families("ARTICLE-BODY"), Family::Positive));
    }

    /// The families as an overlapping search of the crate's high-level
    /// interface reports them (how they were found before the walk of
    /// the automaton).
    fn families_by_search(s: &str) -> Families {
        let m = aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(SUBSTRINGS.iter().chain(TOKENS).map(|(w, _)| *w))
            .expect("builds");
        let bytes = s.as_bytes();
        let word = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_alphanumeric);
        let mut f: Families = 0;
        for hit in m.find_overlapping_iter(s) {
            let k = hit.pattern().as_usize();
            let fam = match SUBSTRINGS.get(k) {
                Some(&(_, fam)) => fam,
                None => {
                    let whole = (hit.start() == 0 || !word(hit.start() - 1)) && !word(hit.end());
                    match TOKENS.get(k - SUBSTRINGS.len()) {
                        Some(&(_, fam)) if whole => fam,
                        _ => continue,
                    }
                }
            };
            f |= 1 << fam as u8;
        }
        f
    }

    #[test]
    fn the_walk_finds_what_an_overlapping_search_finds() {
        let v = Vocabulary::new();
        let words: Vec<&str> = SUBSTRINGS.iter().chain(TOKENS).map(|(w, _)| *w).collect();
        let glue = ["", " ", "-", "_", "x", "1", "\u{e9}", "A"];
        let mut names: Vec<String> = Vec::new();
        // Every word alone, upper-cased, and every pair with every glue:
        // overlaps ("adsense" holds "ad", "ads", "adsense"), tokens at
        // both ends and inside, case folded.
        for (i, a) in words.iter().enumerate() {
            names.push(a.to_string());
            names.push(a.to_ascii_uppercase());
            for (j, b) in words.iter().enumerate().filter(|(j, _)| (i * 7 + j) % 5 == 0) {
                let g = glue[(i + j) % glue.len()];
                names.push(format!("{a}{g}{b}"));
                names.push(format!("{g}{a}{b}{g}"));
            }
        }
        names.extend(
            ["", " ", "header read shadow", "canvas", "top-ad slot", "navad", "ad-nav-tags"]
                .map(String::from),
        );
        for name in &names {
            assert_eq!(v.families(name), families_by_search(name), "{name:?}");
        }
        assert!(names.len() > 3_000);
    }
}
