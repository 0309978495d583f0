//! Quality floors of CETD and CETD-TD on the real data (skipped without
//! it), and a multi-megabyte page that must run in linear time.
//! Floors sit ~0.01 under the figures in docs/RESULTS.md.

mod common;

use std::time::Instant;

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn cetd_scrapinghub_floor() {
    let root = common::data_root();
    // Measured 0.857; ALGORITHMS.md#reference-figures: a faithful implementation ≈ 0.855.
    common::shingle_floor(&root, "scrapinghub", "cetd", &[], 0.847);
    // Measured 0.878; ALGORITHMS.md#reference-figures: ≈ 0.875.
    common::shingle_floor(&root, "scrapinghub", "cetd-td", &[], 0.868);
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn cetd_dragnet_floor() {
    let root = common::data_root();
    // Measured 0.773; ALGORITHMS.md#reference-figures: ≈ 0.763.
    common::shingle_floor(&root, "dragnet", "cetd", &[], 0.763);
}

/// A page of `n` article paragraphs, each after a small link menu:
/// several megabytes for n = 20,000.
fn big_page(n: usize) -> String {
    let mut s = String::from("<html><body>\n");
    for i in 0..n {
        s.push_str(&format!(
            "<div class=menu><a href=/{i}>link {i}</a> <a href=/x{i}>other</a></div>\n\
             <div class=post><p>Paragraph {i} of the article, long enough to be content text, \
             with a <a href=/in>link</a> inside and a sentence after it.</p></div>\n"
        ));
    }
    s.push_str("</body></html>\n");
    s
}

#[test]
fn cetd_is_linear_on_a_huge_page() {
    let page = big_page(20_000);
    for alg in ["cetd", "cetd-td"] {
        let opts = unchaff::Options::new().with_method(alg.parse().unwrap());
        let t = Instant::now();
        let out = unchaff::extract(page.as_bytes(), &opts).expect("extract");
        eprintln!(
            "{alg}: {} MB page in {:?}",
            page.len() / 1_000_000,
            t.elapsed()
        );
        assert!(out.text.contains("Paragraph 19999 of the article"));
    }
}
