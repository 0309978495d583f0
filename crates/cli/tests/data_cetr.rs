//! Quality floors of CETR on the real data (skipped without it), and
//! multi-megabyte pages (with and without line breaks) that must run in
//! linear time. Floors sit ~0.01 under the figures in
//! docs/RESULTS.md.

mod common;

use std::time::Instant;

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn cetr_scrapinghub_floor() {
    let root = common::data_root();
    // Measured 0.769; ALGORITHMS.md#reference-figures: a faithful implementation ≈ 0.769.
    common::shingle_floor(&root, "scrapinghub", "cetr", &[], 0.759);
    // Measured 0.797 at our default λ = 1.5.
    common::shingle_floor(&root, "scrapinghub", "cetr-tm", &[], 0.787);
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn cetr_dragnet_floor() {
    let root = common::data_root();
    // Measured 0.655; ALGORITHMS.md#reference-figures: ≈ 0.659.
    common::shingle_floor(&root, "dragnet", "cetr", &[], 0.645);
}

/// A page of `n` article paragraphs, each after a small link menu, with
/// `sep` between source lines: several megabytes for n = 20,000.
fn big_page(n: usize, sep: &str) -> String {
    let mut s = String::from("<html><head><script>var a = '<p>';</script></head><body>");
    for i in 0..n {
        s.push_str(&format!(
            "{sep}<div class=menu><a href=/{i}>link {i}</a> <a href=/x{i}>other</a></div>{sep}\
             <!-- comment {i} --><div class=post><p>Paragraph {i} of the article, long enough to be content text, \
             with a <a href=/in>link</a> inside and a sentence after it.</p></div>"
        ));
    }
    s.push_str("</body></html>\n");
    s
}

#[test]
fn cetr_is_linear_on_a_huge_page() {
    for sep in ["\n", ""] {
        let page = big_page(20_000, sep);
        for alg in ["cetr", "cetr-km", "cetr-tm"] {
            let opts = unchaff::Options::new().with_method(alg.parse().unwrap());
            let t = Instant::now();
            let out = unchaff::extract(page.as_bytes(), &opts).expect("extract");
            eprintln!(
                "{alg}: {} MB page, {} line breaks, in {:?}",
                page.len() / 1_000_000,
                page.matches('\n').count(),
                t.elapsed()
            );
            assert!(out.text.contains("Paragraph 19999 of the article"), "{alg}");
        }
    }
}
