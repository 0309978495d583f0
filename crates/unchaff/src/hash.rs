//! Content hashes for near-duplicate work downstream
//! ([`crate::Extraction::simhash`]).

use std::hash::Hasher;

use siphasher::sip::SipHasher13;

/// Words in a shingle: three words keep word order in the hash while one
/// edited word moves few shingles.
pub const SHINGLE_WORDS: usize = 3;

/// The 64-bit SimHash of a text (Charikar's: each bit the majority vote
/// of its shingles' hashes). The text's words (runs of letters and
/// digits, lower case) are cut into shingles of `SHINGLE_WORDS`
/// words (a text of fewer words is one shingle), each hashed with
/// SipHash-1-3 under the key 0 (so the value is the same on every
/// machine and in every release). Two texts that share most shingles
/// differ in few bits: count the differing bits
/// (`(a ^ b).count_ones()`), and call pages with 3 or fewer apart near
/// duplicates, as is usual for 64-bit SimHashes. An empty text is 0.
///
/// ```
/// let a = unchaff::hash::simhash("The council agreed to repair the old sea wall before winter.");
/// let b = unchaff::hash::simhash("The council agreed to repair the old sea wall before the winter.");
/// let c = unchaff::hash::simhash("A recipe for bread: flour, water, salt and a long rest.");
/// assert!((a ^ b).count_ones() < (a ^ c).count_ones());
/// ```
pub fn simhash(text: &str) -> u64 {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() {
        return 0;
    }
    let n = SHINGLE_WORDS.min(words.len());
    let mut votes = [0i64; 64];
    for shingle in words.windows(n) {
        let mut h = SipHasher13::new_with_keys(0, 0);
        for w in shingle {
            h.write(w.as_bytes());
            h.write_u8(0);
        }
        let x = h.finish();
        for (bit, v) in votes.iter_mut().enumerate() {
            *v += if x >> bit & 1 == 1 { 1 } else { -1 };
        }
    }
    votes
        .iter()
        .enumerate()
        .filter(|(_, v)| **v > 0)
        .fold(0u64, |acc, (bit, _)| acc | 1 << bit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_and_near_for_near_texts() {
        assert_eq!(simhash(""), 0);
        assert_eq!(simhash("  ,. "), 0);
        // The value is fixed: a change of hash function would show here.
        assert_eq!(
            simhash("one two three four"),
            simhash("One, two; three four!")
        );
        let base = "word ".repeat(0)
            + &(0..200)
                .map(|i| format!("w{i}"))
                .collect::<Vec<_>>()
                .join(" ");
        let edited = base.replacen("w100", "changed", 1);
        let other = (0..200)
            .map(|i| format!("x{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        let d = |a: &str, b: &str| (simhash(a) ^ simhash(b)).count_ones();
        assert!(d(&base, &edited) <= 6, "{}", d(&base, &edited));
        assert!(d(&base, &other) >= 16, "{}", d(&base, &other));
    }
}
