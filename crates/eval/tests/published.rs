//! Checks the shingle F1 against the public benchmark's published outputs,
//! and that outputs written to a folder score as they did in memory.
//!
//! Needs the development data: `$UNCHAFF_DATA`, or `../shared/data` beside
//! the repository. Without it the tests print a note and pass.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use unchaff_eval::dataset::Dataset;
use unchaff_eval::{outputs, report};

/// The data root; the tests that need it are ignored when the build script
/// found no data (cfg `unchaff_no_data`, `build.rs`).
fn data_root() -> PathBuf {
    let root = match std::env::var_os("UNCHAFF_DATA") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")),
    };
    assert!(
        root.join("scrapinghub").join("manifest.jsonl").is_file(),
        "{} not found (set UNCHAFF_DATA)",
        root.display()
    );
    root
}

fn published(root: &std::path::Path, file: &str) -> Option<HashMap<String, String>> {
    let path = root.join("..").join("bench").join("published").join(file);
    if !path.is_file() {
        eprintln!("skipping: {} not found", path.display());
        return None;
    }
    Some(outputs::load_json(&path).expect("published file parses"))
}

fn thousandths(x: f64) -> f64 {
    (x * 1000.0).round()
}

fn check(file: &str, f1: f64, precision: f64, recall: f64) {
    let root = data_root();
    let Some(predictions) = published(&root, file) else {
        return;
    };
    let dataset = Dataset::open(&root.join("scrapinghub")).expect("dataset opens");
    let start = Instant::now();
    let scores = report::score_folder(&dataset, &predictions).expect("scores");
    eprintln!(
        "{file}: shingle F1 {:.4} P {:.4} R {:.4} over {} pages ({} missing outputs); \
         token F1 {:.4}, LCS F1 {:.4}, char LCS F1 {:.4}; scored in {:.2?}",
        scores.shingle.f1,
        scores.shingle.precision,
        scores.shingle.recall,
        scores.pages,
        scores.missing_output,
        scores.token.f1,
        scores.lcs.f1,
        scores.char_lcs.f1,
        start.elapsed()
    );
    assert_eq!(scores.pages, 181);
    assert_eq!(scores.skipped_no_gold, 0);
    assert_eq!(thousandths(scores.shingle.f1), f1);
    assert_eq!(thousandths(scores.shingle.precision), precision);
    assert_eq!(thousandths(scores.shingle.recall), recall);
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn trafilatura_published_score() {
    check("scrapinghub-trafilatura-2.0.0.json", 958.0, 938.0, 978.0);
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn readability_js_published_score() {
    check("scrapinghub-readability_js-0.6.0.json", 947.0, 914.0, 982.0);
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn text_dir_round_trip_scores_identically() {
    let root = data_root();
    let Some(mut predictions) = published(&root, "scrapinghub-trafilatura-2.0.0.json") else {
        return;
    };
    let dataset = Dataset::open(&root.join("scrapinghub")).expect("dataset opens");
    // Drop one page: a missing file must score as an empty output in both.
    let dropped = dataset.pages[0].id.clone();
    predictions.remove(&dropped);

    let dir = std::env::temp_dir().join(format!(
        "unchaff-eval-roundtrip-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    ));
    outputs::write_text_dir(&dir, &predictions).expect("writes outputs");
    let reloaded = outputs::load(&dir).expect("reloads outputs");
    std::fs::remove_dir_all(&dir).ok();

    assert_eq!(reloaded, predictions);
    let a = report::score_folder(&dataset, &predictions).expect("scores");
    let b = report::score_folder(&dataset, &reloaded).expect("scores");
    assert_eq!(a, b);
    assert_eq!(a.missing_output, 1);
    let first = &a.page_scores[0];
    assert_eq!(first.id, dropped);
    assert_eq!(first.shingle_f1, 0.0);
}
