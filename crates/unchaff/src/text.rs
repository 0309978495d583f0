//! Text rules the algorithms share: what counts as one CJK character, and
//! white space collapsed. One definition each, so that a page's text is
//! read alike by the algorithms, the metadata and the explanation.
//! (The evaluation's CJK set is the metric's own, without Hangul:
//! ALGORITHMS.md#token-f1.)

/// Whether `c` counts as one CJK character (one token, one unit of
/// length): kana (Hiragana, Katakana and its phonetic extensions,
/// halfwidth Katakana), Han ideographs (the unified blocks, extension A,
/// extensions B–H, compatibility ideographs) and Hangul syllables.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x31F0..=0x31FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF66..=0xFF9F | 0x2_0000..=0x3_134F)
}

/// `s` with every run of white space replaced by one space, and trimmed.
pub fn collapse_whitespace(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for part in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cjk_characters_and_white_space() {
        for c in ['の', 'カ', 'ｶ', '中', '한', '豈', '𠀀'] {
            assert!(is_cjk(c), "{c}");
        }
        for c in ['a', 'é', 'Ж', '。', '１'] {
            assert!(!is_cjk(c), "{c}");
        }
        assert_eq!(collapse_whitespace("  a \n\t b  c "), "a b c");
        assert_eq!(collapse_whitespace(" \n "), "");
    }
}
