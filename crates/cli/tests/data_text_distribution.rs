//! Quality floors of text-distribution (paper 4 (ALGORITHMS.md#text-distribution)) on the real data (skipped
//! without it). Floors sit about 0.01 under the figures in
//! docs/RESULTS.md.

mod common;

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn text_distribution_scrapinghub_floor() {
    let root = common::data_root();
    let (ds, preds) = common::run_folder(&root, "scrapinghub", "text-distribution", &[]);
    let s = common::shingle(&ds, &preds);
    // Measured 0.864 (docs/RESULTS.md); ALGORITHMS.md#text-distribution: 0.855.
    common::assert_floor("text-distribution scrapinghub shingle F1", s.f1, 0.854);
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn text_distribution_chinese_floor() {
    let root = common::data_root();
    let (ds, preds) = common::run_folder(&root, "chinese-wce", "text-distribution", &[]);
    // Measured 0.882 token F1 (ALGORITHMS.md#text-distribution: 0.882).
    common::assert_floor(
        "text-distribution chinese-wce zh token F1",
        common::token_f1_zh(&ds, &preds),
        0.872,
    );
}
