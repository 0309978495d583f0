//! Quality floors of template-svm (paper 5, ALGORITHMS.md#template-svm) with the default
//! model on the real data (skipped without it). Floors sit about 0.01
//! under the figures in docs/RESULTS.md.

mod common;

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn template_svm_scrapinghub_floor() {
    let root = common::data_root();
    let (ds, preds) = common::run_folder(&root, "scrapinghub", "template-svm", &[]);
    let s = common::shingle(&ds, &preds);
    // Measured 0.815 (docs/RESULTS.md); ALGORITHMS.md#reference-figures: 0.774.
    common::assert_floor("template-svm scrapinghub shingle F1", s.f1, 0.805);
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn template_svm_chinese_floor() {
    let root = common::data_root();
    let (ds, preds) = common::run_folder(&root, "chinese-wce", "template-svm", &[]);
    // Measured 0.835 zh token F1 (ALGORITHMS.md#reference-figures: 0.829).
    common::assert_floor(
        "template-svm chinese-wce zh token F1",
        common::token_f1_zh(&ds, &preds),
        0.825,
    );
}
