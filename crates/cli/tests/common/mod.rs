//! Helpers shared by the data tests: locate `../shared/data`, run an
//! algorithm in-process over a folder, and score it.
//!
//! The real pages are not in the repository. When the data directory is
//! absent (a user's fresh clone), the data tests are compiled as ignored
//! (`crates/eval/build.rs`) and the test summary counts them so; CI has
//! the data and runs them. `UNCHAFF_DATA` points
//! the tests at another directory with the same layout.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::PathBuf;

use rayon::prelude::*;
use unchaff::{Extractor, Options};
use unchaff_eval::dataset::Dataset;
use unchaff_eval::metrics::{self, Summary};

/// The 12 dev folders; means are over folders, never pooled pages.
pub const DEV_FOLDERS: [&str; 12] = [
    "scrapinghub",
    "wcxb-dev",
    "cleaneval-en-dev",
    "cleaneval-en-final",
    "cleanportaleval",
    "dragnet",
    "l3s-gn1",
    "readability-tests",
    "msv-chaos",
    "chinese-wce",
    "htmltotext-bench",
    "daniel-dev",
];

/// The data root. Tests that call it are `#[ignore]`d when the build
/// script found no data (cfg `unchaff_no_data`), so this only fails when
/// the data went away after the build.
pub fn data_root() -> PathBuf {
    let root = match std::env::var_os("UNCHAFF_DATA") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"),
    };
    assert!(
        root.join("scrapinghub/manifest.jsonl").is_file(),
        "dataset directory {} not found (set UNCHAFF_DATA)",
        root.display()
    );
    root
}

/// Extracts every page of `folder` with `algorithm` and `params`.
pub fn run_folder(
    root: &std::path::Path,
    folder: &str,
    algorithm: &str,
    params: &[(&str, &str)],
) -> (Dataset, HashMap<String, String>) {
    let ds = Dataset::open(&root.join(folder)).expect("open dataset");
    let mut opts = Options::new().with_method(algorithm.parse().expect("an algorithm"));
    for (k, v) in params {
        opts = opts.with_param(*k, *v);
    }
    let ex = Extractor::new(&opts).expect("build algorithm");
    let preds: HashMap<String, String> = ds
        .pages
        .par_iter()
        .map(|p| {
            let bytes = ds.read_page_bytes(p).expect("read page");
            let text = ex.extract(&bytes).map(|e| e.text).unwrap_or_default();
            (p.id.clone(), text)
        })
        .collect();
    (ds, preds)
}

/// Shingle P/R/F1 of `preds` against the folder's gold (the benchmark's
/// aggregation).
pub fn shingle(ds: &Dataset, preds: &HashMap<String, String>) -> Summary {
    let pages: Vec<_> = ds
        .pages
        .iter()
        .filter_map(|p| {
            let gold = ds.read_gold(p).ok()??;
            Some(metrics::shingle_page(
                &gold,
                preds.get(&p.id).map_or("", String::as_str),
            ))
        })
        .collect();
    metrics::shingle_summary(&pages)
}

/// Mean CJK-aware token F1 over the folder's pages with `lang == zh`.
pub fn token_f1_zh(ds: &Dataset, preds: &HashMap<String, String>) -> f64 {
    let f1s: Vec<f64> = ds
        .pages
        .iter()
        .filter(|p| p.lang.as_deref() == Some("zh"))
        .filter_map(|p| {
            let gold = ds.read_gold(p).ok()??;
            Some(metrics::token_prf(&gold, preds.get(&p.id).map_or("", String::as_str)).f1)
        })
        .collect();
    f1s.iter().sum::<f64>() / f1s.len().max(1) as f64
}

/// Runs `algorithm` with `params` over `folder` and asserts its shingle F1
/// is at least `floor`.
pub fn shingle_floor(
    root: &std::path::Path,
    folder: &str,
    algorithm: &str,
    params: &[(&str, &str)],
    floor: f64,
) {
    let (ds, preds) = run_folder(root, folder, algorithm, params);
    let with: String = params.iter().map(|(k, v)| format!(" {k}={v}")).collect();
    assert_floor(
        &format!("{algorithm}{with} {folder} shingle F1"),
        shingle(&ds, &preds).f1,
        floor,
    );
}

/// Asserts `value >= floor`, naming what was measured.
pub fn assert_floor(what: &str, value: f64, floor: f64) {
    eprintln!("{what}: {value:.4} (floor {floor:.3})");
    assert!(
        value >= floor,
        "{what} fell to {value:.4}, below its floor {floor:.3}"
    );
}
