//! Charset detection reads only the non-ASCII parts of a page
//! (`unchaff::decode::guess`: the ASCII between non-ASCII runs is skipped,
//! a little of it kept on either side). This checks, on every page of the
//! 12 dev folders (skipped without them), that chardetng guesses the same
//! charset from those parts as from the whole sample, so every decoded
//! text is the same as when detection was fed everything.

mod common;

use rayon::prelude::*;
use unchaff::decode::{DEFAULT_MAX_INPUT, DETECT_SAMPLE, guess, gunzip_if_needed};
use unchaff_eval::dataset::{Dataset, list_folders};

/// One page's check: its size, whether it has non-ASCII bytes, and the
/// guesses that differ (whole sample, non-ASCII parts).
fn check(bytes: &[u8]) -> (usize, bool, Option<String>) {
    let sample = &bytes[..bytes.len().min(DETECT_SAMPLE)];
    let last = sample.len() == bytes.len();
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(sample, last);
    let differ = [
        chardetng::Utf8Detection::Allow,
        chardetng::Utf8Detection::Deny,
    ]
    .into_iter()
    .map(|m| (det.guess(None, m), guess(sample, last, m)))
    .find(|(whole, parts)| whole != parts)
    .map(|(whole, parts)| format!("{} vs {}", whole.name(), parts.name()));
    (bytes.len(), !bytes.is_ascii(), differ)
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn detection_on_the_non_ascii_parts_guesses_as_on_the_whole_page() {
    let root = common::data_root();
    let folders = list_folders(&root).expect("list the dev folders");
    assert_eq!(folders.len(), 12, "the 12 dev folders");
    let (mut pages, mut total_bytes, mut non_ascii) = (0, 0, 0);
    for dir in folders {
        let ds = Dataset::open(&dir).expect("open dataset");
        let checked: Vec<(usize, bool, Option<String>)> = ds
            .pages
            .par_iter()
            .map(|p| {
                let raw = ds.read_page_bytes(p).expect("read page");
                let bytes = gunzip_if_needed(&raw, DEFAULT_MAX_INPUT).expect("gunzip");
                let (len, na, differ) = check(&bytes);
                (len, na, differ.map(|d| format!("{}: {d}", p.id)))
            })
            .collect();
        let differ: Vec<&String> = checked.iter().filter_map(|c| c.2.as_ref()).collect();
        assert!(
            differ.is_empty(),
            "{}: guesses differ: {differ:?}",
            dir.display()
        );
        pages += checked.len();
        total_bytes += checked.iter().map(|c| c.0).sum::<usize>();
        non_ascii += checked.iter().filter(|c| c.1).count();
    }
    // Every page read in full, not an empty sample.
    assert!(pages > 5000, "{pages} pages");
    assert!(total_bytes > 500_000_000, "{total_bytes} bytes");
    assert!(non_ascii > 4000, "{non_ascii} pages with non-ASCII bytes");
}
