//! Quality metrics: shingle F1 (the public article-extraction benchmark's
//! headline figure), CJK-aware token F1, token LCS F1 and character LCS F1.
//!
//! Every metric is computed per page from a gold text and a predicted
//! (extracted) text; the aggregation into a [`Summary`] differs per metric:
//! the shingle F1 follows the benchmark's `evaluate.py` (see
//! [`shingle_summary`]), the other metrics average per-page figures
//! ([`mean_summary`]).

use std::sync::LazyLock;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// Sorted, disjoint ranges of the non-ASCII word characters: general
/// categories L (letters) and N (numbers), as Python's Unicode `\w` (which
/// adds `_`; combining marks are not word characters).
static WORD_RANGES: LazyLock<Vec<(char, char)>> = LazyLock::new(|| {
    use regex_syntax::hir::{Class, HirKind};
    let hir = regex_syntax::Parser::new()
        .parse(r"[\p{L}\p{N}]")
        .expect("static class is valid");
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|r| (r.start(), r.end()))
            .filter(|&(_, end)| !end.is_ascii())
            .collect(),
        _ => Vec::new(),
    }
});

/// Whether `c` is a word character as in Python's Unicode `\w`: a letter
/// (`\p{L}`), a number (`\p{N}`) or `_`.
pub fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    let ranges = &*WORD_RANGES;
    let i = ranges.partition_point(|&(_, end)| end < c);
    ranges.get(i).is_some_and(|&(start, _)| start <= c)
}

/// Whether `c` lies in one of the CJK ranges of [`cjk_tokens`]: Hiragana,
/// Katakana (and its phonetic extensions), CJK Unified Ideographs (extension
/// A, the main block, extensions B–G), CJK Compatibility Ideographs and
/// halfwidth Katakana.
pub fn is_cjk(c: char) -> bool {
    matches!(
        c as u32,
        0x3040..=0x30FF
            | 0x31F0..=0x31FF
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xF900..=0xFAFF
            | 0xFF66..=0xFF9F
            | 0x2_0000..=0x3_134F
    )
}

/// The word tokens of `text`: maximal runs of word characters (see
/// [`is_word_char`]), as Python's `re.findall(r"\w+", text)`.
pub fn words(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (is_word_char(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(&text[s..i]);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// CJK-aware tokens of `text`: every character in a CJK range (see [`is_cjk`])
/// is a token by itself (even one that is not a word character, such as the
/// Katakana middle dot); otherwise a token is a maximal run of word characters
/// that are not CJK.
pub fn cjk_tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let cjk = is_cjk(c);
        let word = !cjk && is_word_char(c);
        if !word && let Some(s) = start.take() {
            out.push(&text[s..i]);
        }
        if cjk {
            out.push(&text[i..i + c.len_utf8()]);
        } else if word && start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// Precision, recall and F1 of one page (or a mean of such figures).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Prf {
    /// Precision.
    pub precision: f64,
    /// Recall.
    pub recall: f64,
    /// F1, the harmonic mean of precision and recall (0 when both are 0).
    pub f1: f64,
}

impl Prf {
    /// Builds a `Prf` from precision and recall, computing F1.
    pub fn new(precision: f64, recall: f64) -> Self {
        Prf {
            precision,
            recall,
            f1: f1(precision, recall),
        }
    }

    /// The figure for a page where both texts are empty (1, 1, 1).
    pub const PERFECT: Prf = Prf {
        precision: 1.0,
        recall: 1.0,
        f1: 1.0,
    };

    /// The figure for a page where exactly one text is empty (0, 0, 0).
    pub const ZERO: Prf = Prf {
        precision: 0.0,
        recall: 0.0,
        f1: 0.0,
    };
}

/// Harmonic mean of `p` and `r`; 0 when both are 0.
pub fn f1(p: f64, r: f64) -> f64 {
    if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    }
}

/// A metric aggregated over the pages of one dataset folder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Aggregated precision.
    pub precision: f64,
    /// Aggregated recall.
    pub recall: f64,
    /// Aggregated F1 (see the aggregating function for how).
    pub f1: f64,
    /// Number of pages aggregated.
    pub pages: usize,
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// Plain means of per-page precision, recall and F1 (token, LCS and char LCS
/// metrics). An empty slice gives all zeros.
pub fn mean_summary(pages: &[Prf]) -> Summary {
    Summary {
        precision: mean(pages.iter().map(|p| p.precision)),
        recall: mean(pages.iter().map(|p| p.recall)),
        f1: mean(pages.iter().map(|p| p.f1)),
        pages: pages.len(),
    }
}

// ------------------------------------------------------------------ shingles

/// Shingle length of the benchmark.
const SHINGLE: usize = 4;
/// Pads shingles of texts shorter than [`SHINGLE`] tokens (never a token id).
const PAD: u32 = u32::MAX;

/// One page's shingle counts, normalised so that `tp + fp + fn_ == 1`
/// (all three are 0 when both texts have no shingle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ShinglePage {
    /// Shingles of the prediction also in the gold (multiset intersection).
    pub tp: f64,
    /// Shingles of the prediction not in the gold.
    pub fp: f64,
    /// Shingles of the gold not in the prediction.
    pub fn_: f64,
}

impl ShinglePage {
    /// The page's precision: 1 if `fp == fn == 0`, 0 if `tp == fp == 0`,
    /// else `tp / (tp + fp)`.
    pub fn precision(&self) -> f64 {
        if self.fp == 0.0 && self.fn_ == 0.0 {
            1.0
        } else if self.tp == 0.0 && self.fp == 0.0 {
            0.0
        } else {
            self.tp / (self.tp + self.fp)
        }
    }

    /// The page's recall: 1 if `fp == fn == 0`, 0 if `tp == fn == 0`,
    /// else `tp / (tp + fn)`.
    pub fn recall(&self) -> f64 {
        if self.fp == 0.0 && self.fn_ == 0.0 {
            1.0
        } else if self.tp == 0.0 && self.fn_ == 0.0 {
            0.0
        } else {
            self.tp / (self.tp + self.fn_)
        }
    }

    /// The page's F1 (the benchmark's per-page figure): harmonic mean of
    /// [`precision`](Self::precision) and [`recall`](Self::recall). A page
    /// where both texts are empty scores 1; a page where one is empty, 0.
    pub fn f1(&self) -> f64 {
        f1(self.precision(), self.recall())
    }

    /// Precision, recall and F1 of this page.
    pub fn prf(&self) -> Prf {
        Prf::new(self.precision(), self.recall())
    }
}

/// Interns strings to dense `u32` ids.
#[derive(Default)]
struct Interner<'a> {
    ids: FxHashMap<&'a str, u32>,
}

impl<'a> Interner<'a> {
    fn id(&mut self, s: &'a str) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(s).or_insert(next)
    }

    fn ids(&mut self, tokens: &[&'a str]) -> Vec<u32> {
        tokens.iter().map(|t| self.id(t)).collect()
    }
}

/// The shingles of a token-id sequence: every window of [`SHINGLE`] tokens;
/// a non-empty sequence shorter than that is one (padded) shingle; an empty
/// one has none.
fn shingles(ids: &[u32]) -> impl Iterator<Item = [u32; SHINGLE]> + '_ {
    let short = (!ids.is_empty() && ids.len() < SHINGLE).then(|| {
        let mut s = [PAD; SHINGLE];
        s[..ids.len()].copy_from_slice(ids);
        s
    });
    ids.windows(SHINGLE)
        .map(|w| [w[0], w[1], w[2], w[3]])
        .chain(short)
}

/// Shingle counts of one page, exactly as the benchmark's `evaluate.py`:
/// tokens are [`words`], shingles are 4-grams of consecutive tokens (a text
/// of 1–3 tokens is one shingle, an empty text none), compared as multisets;
/// tp/fp/fn are normalised to sum to 1.
pub fn shingle_page(gold: &str, pred: &str) -> ShinglePage {
    let mut interner = Interner::default();
    let g = interner.ids(&words(gold));
    let p = interner.ids(&words(pred));

    let mut gold_counts: FxHashMap<[u32; SHINGLE], u32> = FxHashMap::default();
    let mut n_gold = 0u64;
    for s in shingles(&g) {
        *gold_counts.entry(s).or_insert(0) += 1;
        n_gold += 1;
    }
    let (mut tp, mut n_pred) = (0u64, 0u64);
    for s in shingles(&p) {
        n_pred += 1;
        if let Some(c) = gold_counts.get_mut(&s)
            && *c > 0
        {
            *c -= 1;
            tp += 1;
        }
    }
    let fp = n_pred - tp;
    let fn_ = n_gold - tp;
    let sum = (tp + fp + fn_) as f64;
    if sum == 0.0 {
        return ShinglePage::default();
    }
    ShinglePage {
        tp: tp as f64 / sum,
        fp: fp as f64 / sum,
        fn_: fn_ as f64 / sum,
    }
}

/// The benchmark's aggregation: precision is the mean of page precisions over
/// pages with `tp + fp > 0` (so an empty prediction does not count against
/// precision), recall the mean of page recalls over pages with `tp + fn > 0`,
/// and F1 the harmonic mean of those two means. `pages` is the number of
/// pages given.
pub fn shingle_summary(pages: &[ShinglePage]) -> Summary {
    let precision = mean(
        pages
            .iter()
            .filter(|p| p.tp + p.fp > 0.0)
            .map(ShinglePage::precision),
    );
    let recall = mean(
        pages
            .iter()
            .filter(|p| p.tp + p.fn_ > 0.0)
            .map(ShinglePage::recall),
    );
    Summary {
        precision,
        recall,
        f1: f1(precision, recall),
        pages: pages.len(),
    }
}

// ------------------------------------------------------------------ token F1

/// CJK-aware bag-of-tokens precision/recall/F1 of one page (tokens are
/// [`cjk_tokens`], compared as multisets). Both texts without tokens: 1, 1, 1;
/// only one without tokens: 0, 0, 0.
pub fn token_prf(gold: &str, pred: &str) -> Prf {
    let g = cjk_tokens(gold);
    let p = cjk_tokens(pred);
    match (g.is_empty(), p.is_empty()) {
        (true, true) => return Prf::PERFECT,
        (true, false) | (false, true) => return Prf::ZERO,
        _ => {}
    }
    let mut counts: FxHashMap<&str, u32> = FxHashMap::default();
    for t in &g {
        *counts.entry(t).or_insert(0) += 1;
    }
    let mut tp = 0usize;
    for t in &p {
        if let Some(c) = counts.get_mut(t)
            && *c > 0
        {
            *c -= 1;
            tp += 1;
        }
    }
    Prf::new(tp as f64 / p.len() as f64, tp as f64 / g.len() as f64)
}

// ------------------------------------------------------------------ LCS

/// Length of the longest common subsequence of `a` and `b`.
///
/// Bit-parallel (Allison–Dix / Hyyrö): the shorter sequence is held as bit
/// vectors, one per distinct symbol, and each symbol of the longer sequence
/// updates a column vector in `O(len(shorter) / 64)` word operations, so the
/// whole run is `O(len(a) · len(b) / 64)`. A common prefix and suffix are
/// stripped first. Symbols of the longer sequence that do not occur in the
/// shorter one are skipped.
pub fn lcs_len(a: &[u32], b: &[u32]) -> usize {
    // Strip the common prefix and suffix: they belong to every LCS.
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    let common = prefix + suffix;

    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if short.is_empty() {
        return common;
    }
    let m = short.len();
    let words = m.div_ceil(64);

    // Per distinct symbol of `short`: its match bit vector (bit i set when
    // short[i] is that symbol), flattened into one table.
    let mut rows: FxHashMap<u32, usize> = FxHashMap::default();
    let mut table: Vec<u64> = Vec::new();
    for (i, &s) in short.iter().enumerate() {
        let row = *rows.entry(s).or_insert_with(|| {
            table.resize(table.len() + words, 0);
            table.len() / words - 1
        });
        table[row * words + i / 64] |= 1u64 << (i % 64);
    }

    let mut v = vec![u64::MAX; words];
    for s in long {
        let Some(&row) = rows.get(s) else { continue };
        let pm = &table[row * words..(row + 1) * words];
        let mut carry = 0u64;
        for (vk, &mk) in v.iter_mut().zip(pm) {
            // V' = (V + (V & M)) | (V & !M), with the carry across words.
            let x = *vk;
            let sum = u128::from(x) + u128::from(x & mk) + u128::from(carry);
            carry = (sum >> 64) as u64;
            *vk = (sum as u64) | (x & !mk);
        }
    }

    // The LCS length is the number of zero bits among the low `m` bits.
    let mut zeros = 0usize;
    for (k, &vk) in v.iter().enumerate() {
        let bits = if k + 1 == words && m % 64 != 0 {
            m % 64
        } else {
            64
        };
        let mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        zeros += (!vk & mask).count_ones() as usize;
    }
    common + zeros
}

/// LCS-based P/R/F1 given the LCS length and the two lengths:
/// P = lcs / |pred|, R = lcs / |gold|; both empty: 1; one empty: 0.
fn lcs_prf_from(lcs: usize, gold_len: usize, pred_len: usize) -> Prf {
    match (gold_len == 0, pred_len == 0) {
        (true, true) => Prf::PERFECT,
        (true, false) | (false, true) => Prf::ZERO,
        _ => Prf::new(lcs as f64 / pred_len as f64, lcs as f64 / gold_len as f64),
    }
}

/// Token LCS precision/recall/F1 of one page (CleanEval's and CETR's measure):
/// the longest common subsequence of the two [`words`] sequences;
/// P = lcs / |pred|, R = lcs / |gold|. Both without tokens: 1; one: 0.
pub fn lcs_prf(gold: &str, pred: &str) -> Prf {
    let mut interner = Interner::default();
    let g = interner.ids(&words(gold));
    let p = interner.ids(&words(pred));
    lcs_prf_from(lcs_len(&g, &p), g.len(), p.len())
}

/// `text` with every run of whitespace replaced by one space, and trimmed
/// (the core's rule, as the algorithms read text).
pub use unchaff::text::collapse_whitespace;

/// Character LCS precision/recall/F1 of one page (paper 2's measure (ALGORITHMS.md#character-lcs-f1)): the
/// longest common subsequence of the Unicode scalar values of the two texts
/// after [`collapse_whitespace`]; P = lcs / chars(pred), R = lcs / chars(gold).
/// Both empty: 1; one empty: 0.
pub fn char_lcs_prf(gold: &str, pred: &str) -> Prf {
    let g: Vec<u32> = collapse_whitespace(gold).chars().map(u32::from).collect();
    let p: Vec<u32> = collapse_whitespace(pred).chars().map(u32::from).collect();
    lcs_prf_from(lcs_len(&g, &p), g.len(), p.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn words_follow_python_w() {
        assert_eq!(
            words("Hello, world_1! naïve café ½ x²"),
            vec!["Hello", "world_1", "naïve", "café", "½", "x²"]
        );
        // A combining mark is not a word character in Python: "e\u{301}" splits.
        assert_eq!(words("cafe\u{301}s"), vec!["cafe", "s"]);
        // Devanagari vowel signs (Mc/Mn) split words too.
        assert_eq!(words("हिन्दी"), vec!["ह", "न", "द"]);
        assert!(words("  ... — !").is_empty());
        assert_eq!(words("中文文本"), vec!["中文文本"]);
        assert!(is_word_char('_') && is_word_char('é') && is_word_char('٣'));
        assert!(!is_word_char('\u{301}') && !is_word_char('-') && !is_word_char('\u{a0}'));
    }

    #[test]
    fn cjk_tokenisation() {
        assert_eq!(
            cjk_tokens("中文abc文本 x_1"),
            vec!["中", "文", "abc", "文", "本", "x_1"]
        );
        // Kana are single tokens; the Katakana middle dot (not \w) too;
        // CJK punctuation (U+3000–U+303F) is not a token.
        assert_eq!(
            cjk_tokens("ひらがな・カナ。"),
            vec!["ひ", "ら", "が", "な", "・", "カ", "ナ"]
        );
        // Hangul is not in the CJK ranges: runs of it stay one token.
        assert_eq!(cjk_tokens("한국어 문장"), vec!["한국어", "문장"]);
        assert_eq!(cjk_tokens("𠀀b"), vec!["𠀀", "b"]);
        assert!(is_cjk('中') && !is_cjk('a') && !is_cjk('한'));
    }

    #[test]
    fn shingle_hand_computed() {
        // gold: a b c d e          -> shingles abcd, bcde            (2)
        // pred: a b c d e f        -> shingles abcd, bcde, cdef      (3)
        // tp = 2, fp = 1, fn = 0; normalised 2/3, 1/3, 0.
        let page = shingle_page("a b c d e", "a b c d e f");
        assert!(close(page.tp, 2.0 / 3.0));
        assert!(close(page.fp, 1.0 / 3.0));
        assert!(close(page.fn_, 0.0));
        assert!(close(page.precision(), 2.0 / 3.0));
        assert!(close(page.recall(), 1.0));
        assert!(close(page.f1(), 0.8));
    }

    #[test]
    fn shingle_multiset_counts() {
        // gold: x y z w x y z w -> xyzw, yzwx, zwxy, wxyz, xyzw (xyzw twice)
        // pred: x y z w         -> xyzw once
        // tp = 1, fp = 0, fn = 4.
        let page = shingle_page("x y z w x y z w", "x y z w");
        assert!(close(page.tp, 0.2));
        assert!(close(page.fp, 0.0));
        assert!(close(page.fn_, 0.8));
        assert!(close(page.precision(), 1.0));
        assert!(close(page.recall(), 0.2));
    }

    #[test]
    fn shingle_short_texts_are_one_shingle() {
        // Fewer than 4 tokens: the whole token list is one shingle.
        let same = shingle_page("one two three", "one, two; three!");
        assert_eq!((same.tp, same.fp, same.fn_), (1.0, 0.0, 0.0));
        assert!(close(same.f1(), 1.0));
        // "one two" vs "one two three": different single shingles.
        let diff = shingle_page("one two three", "one two");
        assert_eq!((diff.tp, diff.fp, diff.fn_), (0.0, 0.5, 0.5));
        assert!(close(diff.f1(), 0.0));
        // The short shingle never equals a 4-gram: pred "a b c" vs gold "a b c d".
        let pad = shingle_page("a b c d", "a b c");
        assert_eq!((pad.tp, pad.fp, pad.fn_), (0.0, 0.5, 0.5));
        // Exactly 4 tokens: one ordinary shingle.
        let four = shingle_page("a b c d", "a b c d");
        assert_eq!((four.tp, four.fp, four.fn_), (1.0, 0.0, 0.0));
    }

    #[test]
    fn shingle_empty_output_counts_only_in_recall() {
        let empty = shingle_page("a b c d e", "");
        assert_eq!((empty.tp, empty.fp, empty.fn_), (0.0, 0.0, 1.0));
        assert_eq!(empty.f1(), 0.0);
        let both_empty = shingle_page("", "   ");
        assert_eq!(both_empty, ShinglePage::default());
        assert_eq!(both_empty.f1(), 1.0);

        let perfect = shingle_page("a b c d e", "a b c d e");
        let half = shingle_page("a b c d e", "a b c d e f"); // P 2/3, R 1
        let s = shingle_summary(&[perfect, half, empty, both_empty]);
        // Precision over pages with tp + fp > 0: perfect and half only.
        assert!(close(s.precision, (1.0 + 2.0 / 3.0) / 2.0));
        // Recall over pages with tp + fn > 0: perfect, half and empty.
        assert!(close(s.recall, (1.0 + 1.0 + 0.0) / 3.0));
        assert!(close(s.f1, f1(5.0 / 6.0, 2.0 / 3.0)));
        assert_eq!(s.pages, 4);
        assert_eq!(shingle_summary(&[]), Summary::default());
    }

    #[test]
    fn token_prf_bag_of_tokens() {
        // gold 中 文 b b (4), pred 中 b b b x (5): tp = 中 + b + b = 3.
        let p = token_prf("中文 b b", "中 b b b x");
        assert!(close(p.precision, 3.0 / 5.0));
        assert!(close(p.recall, 3.0 / 4.0));
        assert!(close(p.f1, f1(0.6, 0.75)));
        assert_eq!(token_prf("", "..."), Prf::PERFECT);
        assert_eq!(token_prf("a", ""), Prf::ZERO);
        assert_eq!(token_prf("", "a"), Prf::ZERO);
        let s = mean_summary(&[Prf::PERFECT, Prf::ZERO]);
        assert!(close(s.precision, 0.5) && close(s.recall, 0.5) && close(s.f1, 0.5));
    }

    #[test]
    fn lcs_hand_computed() {
        // gold a b c d e (5), pred a x c e y z (6): LCS a c e = 3.
        let p = lcs_prf("a b c d e", "a x c e y z");
        assert!(close(p.precision, 3.0 / 6.0));
        assert!(close(p.recall, 3.0 / 5.0));
        assert_eq!(lcs_prf("", ""), Prf::PERFECT);
        assert_eq!(lcs_prf("a", ""), Prf::ZERO);
        // Characters: "ab  c" -> "ab c" (4), "abxc" (4): LCS "abc" = 3.
        let c = char_lcs_prf("ab  c\n", "abxc");
        assert!(close(c.precision, 0.75) && close(c.recall, 0.75));
        assert_eq!(char_lcs_prf(" \n", ""), Prf::PERFECT);
        assert_eq!(collapse_whitespace("  a \t b\n\nc  "), "a b c");
    }

    fn lcs_dp(a: &[u32], b: &[u32]) -> usize {
        let mut prev = vec![0usize; b.len() + 1];
        for &x in a {
            let mut cur = vec![0usize; b.len() + 1];
            for (j, &y) in b.iter().enumerate() {
                cur[j + 1] = if x == y {
                    prev[j] + 1
                } else {
                    cur[j].max(prev[j + 1])
                };
            }
            prev = cur;
        }
        prev[b.len()]
    }

    /// A small deterministic generator (xorshift64*), to avoid a dependency.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn bit_parallel_lcs_matches_dp() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for round in 0..3000 {
            // Lengths straddle the 64-bit word boundaries.
            let max_len = if round % 10 == 0 { 300 } else { 80 };
            let alphabet = 1 + rng.below(if round % 3 == 0 { 3 } else { 20 });
            let la = rng.below(max_len) as usize;
            let lb = rng.below(max_len) as usize;
            let a: Vec<u32> = (0..la).map(|_| rng.below(alphabet) as u32).collect();
            let b: Vec<u32> = (0..lb).map(|_| rng.below(alphabet) as u32).collect();
            assert_eq!(lcs_len(&a, &b), lcs_dp(&a, &b), "a={a:?} b={b:?}");
            assert_eq!(lcs_len(&b, &a), lcs_dp(&a, &b));
        }
        assert_eq!(lcs_len(&[], &[1, 2]), 0);
        assert_eq!(lcs_len(&[1, 2, 3], &[1, 2, 3]), 3);
        assert_eq!(lcs_len(&[u32::MAX, 0], &[0, u32::MAX]), 1);
    }

    #[test]
    fn lcs_long_sequences() {
        // 20,000 × 20,000 symbols (~6M word operations, milliseconds): b is
        // a with 2,000 substitutions, so the LCS keeps at least 18,000.
        let mut rng = Rng(42);
        let a: Vec<u32> = (0..20_000).map(|_| rng.below(500) as u32).collect();
        let mut b = a.clone();
        for _ in 0..2000 {
            let i = rng.below(b.len() as u64) as usize;
            b[i] = rng.below(500) as u32;
        }
        let l = lcs_len(&a, &b);
        assert!((18_000..=20_000).contains(&l));
        // Same as the DP on a prefix of both.
        assert_eq!(lcs_len(&a[..700], &b[..900]), lcs_dp(&a[..700], &b[..900]));
    }
}
