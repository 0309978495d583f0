//! Text normalisation of paper 2 (ALGORITHMS.md#normalisation), applied to every page before
//! any algorithm reads it: Arabic presentation forms fold to their base
//! letters, so that one letter counts once and compares equal whichever
//! glyph variant (initial, medial, final, isolated) the page used.
//!
//! Only the two presentation-form blocks are touched — U+FB50–U+FDFF
//! (Arabic Presentation Forms-A) and U+FE70–U+FEFF (Forms-B). Each
//! character there is replaced by its Unicode NFKC form (the compatibility
//! mapping is exactly "glyph variant → letter"; ligatures such as U+FEFB
//! lam-alef become two letters). Nothing else is normalised: full-width
//! Latin, ligatures like "ﬁ", superscripts and CJK compatibility characters
//! stay as the page wrote them.
//!
//! U+FEFF (the byte-order mark, as a character the deprecated zero-width
//! no-break space) closes Forms-B but has no compatibility mapping. Inside
//! page text it is almost always a stray BOM of an included file; it is
//! invisible, yet it would count as a character and split words for the
//! metrics. It is removed. (A BOM at the start of the input is consumed by
//! [`crate::decode`] before this.)
//!
//! Character references (`&#1588;`) are decoded by the HTML parser, so this
//! runs on the parsed tree's text buffer and catches presentation forms
//! written either way. Cost: one byte scan of the text buffer on pages
//! without any presentation form (the common case: a UTF-8 presentation
//! form starts `EF AD`–`EF BB`), and a rewrite of the buffer on the others.

use unicode_normalization::UnicodeNormalization;

use crate::dom::{Dom, NodeKind};

/// Whether `c` is an Arabic presentation form (Forms-A or Forms-B).
#[inline]
pub fn is_presentation_form(c: char) -> bool {
    matches!(c, '\u{FB50}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
}

/// Whether `s` may hold a presentation form: a fast byte pre-check (a lead
/// byte `EF` followed by `AD`..=`BB` covers U+FB40–U+FEFF).
pub fn may_have_presentation_forms(s: &str) -> bool {
    // memchr's vectorised search: a byte-at-a-time loop cost 1% of the
    // whole pipeline (the buffer still holds script text at this point).
    let b = s.as_bytes();
    memchr::memchr_iter(0xEF, b).any(|at| b.get(at + 1).is_some_and(|n| (0xAD..=0xBB).contains(n)))
}

/// Appends `s` to `out` with every presentation form folded (see the module
/// documentation).
pub fn fold_into(s: &str, out: &mut String) {
    for c in s.chars() {
        if !is_presentation_form(c) {
            out.push(c);
        } else if c != '\u{FEFF}' {
            out.extend(std::iter::once(c).nfkc());
        }
    }
}

/// Folds presentation forms in `s`; borrows when there is nothing to fold.
#[cfg(test)]
pub fn fold_str(s: &str) -> std::borrow::Cow<'_, str> {
    if !may_have_presentation_forms(s) || !s.chars().any(is_presentation_form) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    fold_into(s, &mut out);
    std::borrow::Cow::Owned(out)
}

/// Folds the presentation forms of every text node of `dom`, rewriting the
/// text buffer and the nodes' ranges. Returns whether anything changed.
pub fn fold_presentation_forms(dom: &mut Dom) -> bool {
    if !may_have_presentation_forms(&dom.text) || !dom.text.chars().any(is_presentation_form) {
        return false;
    }
    let old = std::mem::take(&mut dom.text);
    let mut text = String::with_capacity(old.len());
    for node in &mut dom.nodes {
        if let NodeKind::Text { start, end } = node.kind {
            let s = &old[start as usize..end as usize];
            let new_start = text.len();
            fold_into(s, &mut text);
            node.kind = NodeKind::Text {
                start: u32::try_from(new_start).unwrap_or(u32::MAX),
                end: u32::try_from(text.len()).unwrap_or(u32::MAX),
            };
        }
    }
    dom.text = text;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    #[test]
    fn folds_glyph_variants_to_letters() {
        // ﺷ (U+FEB7, sheen initial) ﻪ (U+FEEA, heh final) → ش ه;
        // ﻻ (U+FEFB, lam-alef isolated ligature) → ل ا;
        // ﭖ (U+FB56, peh isolated) → پ.
        assert_eq!(fold_str("\u{FEB7}\u{FEEA}"), "\u{0634}\u{0647}");
        assert_eq!(fold_str("\u{FEFB}"), "\u{0644}\u{0627}");
        assert_eq!(fold_str("\u{FB56}"), "\u{067E}");
        // Uyghur ۈ (U+06C8) has presentation forms U+FBDB/U+FBDC.
        assert_eq!(fold_str("\u{FBDB}\u{FBDC}"), "\u{06C8}\u{06C8}");
        // The zero-width no-break space is dropped.
        assert_eq!(fold_str("a\u{FEFF}b"), "ab");
    }

    #[test]
    fn nothing_else_is_folded() {
        // Full-width Latin, the "fi" ligature, superscript two, a CJK
        // compatibility ideograph, and base Arabic letters all stay.
        let s = "\u{FF21}\u{FB01}\u{00B2}\u{F900}\u{0634}\u{0647} café";
        assert!(!s.chars().any(is_presentation_form));
        assert!(matches!(fold_str(s), std::borrow::Cow::Borrowed(_)));
        // U+FB01 is EF AC 81: below the pre-check's EF AD.
        assert!(!may_have_presentation_forms("\u{FB01}"));
        assert!(may_have_presentation_forms("x\u{FB50}"));
        assert!(may_have_presentation_forms("x\u{FEFF}"));
    }

    #[test]
    fn folds_the_tree_text_and_keeps_ranges() {
        // Three text nodes; the middle one shrinks (3-byte forms → 2-byte
        // letters) and the last must still read right.
        let mut dom = parse("<p>one</p><p>\u{FEB7}\u{FEEA}</p><p>three</p>");
        assert!(fold_presentation_forms(&mut dom));
        let body = dom.body().unwrap();
        let texts: Vec<&str> = dom
            .descendants(body)
            .filter_map(|n| dom.text_of(n))
            .collect();
        assert_eq!(texts, vec!["one", "\u{0634}\u{0647}", "three"]);
        assert!(!fold_presentation_forms(&mut dom));
    }
}
