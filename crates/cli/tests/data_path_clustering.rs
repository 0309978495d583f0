//! Quality floors of path clustering on the real data (skipped without
//! it), and the per-site experiment of docs/RESULTS.md:
//! `cargo test --release -p unchaff-cli --test data_path_clustering -- --ignored --nocapture`.

mod common;

use std::collections::HashMap;

use rayon::prelude::*;
use unchaff::algorithms::path_clustering as pc;
use unchaff::{Extractor, Input, Method, Options};
use unchaff_eval::dataset::Dataset;
use unchaff_train::path_clustering::{self as pct, summarize};

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn path_clustering_scrapinghub_floor() {
    let root = common::data_root();
    // Measured 0.841 (docs/RESULTS.md); ALGORITHMS.md#reference-figures: 0.813.
    common::shingle_floor(&root, "scrapinghub", "path-clustering", &[], 0.830);
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn path_clustering_chinese_floor() {
    let root = common::data_root();
    let (ds, preds) = common::run_folder(&root, "chinese-wce", "path-clustering", &[]);
    // Measured 0.894 zh token F1; ALGORITHMS.md#reference-figures: 0.861.
    common::assert_floor(
        "path-clustering chinese-wce zh token F1",
        common::token_f1_zh(&ds, &preds),
        0.884,
    );
}

/// Per-site templates against generic thresholds: in each folder, pages
/// are grouped by site (manifest url host, else manifest `site`, else the
/// page's canonical URL); within a site, pages at even positions (manifest
/// order) train, pages at odd positions test. Both models share the
/// thresholds trained on the training half; the per-site one adds the
/// templates. Prints shingle F1 on the test half.
#[test]
#[ignore = "slow experiment; run with --ignored"]
fn path_clustering_per_site_half_split() {
    let root = common::data_root();
    let tmp = tempfile::tempdir().unwrap();
    println!(
        "| folder | sites | test pages | generic F1 | per-site F1 |\n|---|---:|---:|---:|---:|"
    );
    for folder in ["cleanportaleval", "msv-chaos", "dragnet", "daniel-dev"] {
        let mut ds = Dataset::open(&root.join(folder)).expect("open dataset");
        let sums: Vec<pct::PageSummary> = ds
            .pages
            .par_iter()
            .map(|p| {
                let site = p.url.clone().or_else(|| p.field("site"));
                let bytes = ds.read_page_bytes(p).expect("read page");
                summarize(&bytes, site.as_deref()).unwrap_or_default()
            })
            .collect();
        let mut seen: HashMap<String, usize> = HashMap::new();
        let (mut train, mut test) = (Vec::new(), Vec::new());
        for (i, s) in sums.iter().enumerate() {
            let Some(site) = &s.site else { continue };
            let k = seen.entry(site.clone()).or_default();
            if (*k).is_multiple_of(2) {
                train.push(s.clone());
            } else {
                test.push((i, site.clone()));
            }
            *k += 1;
        }
        let per_site = pct::train(&train, true, folder).expect("train");
        let generic = pc::Model {
            sites: Default::default(),
            ..per_site.clone()
        };
        let mut f1 = Vec::new();
        for (name, model) in [("generic", &generic), ("per-site", &per_site)] {
            let path = tmp.path().join(format!("{folder}-{name}.json"));
            std::fs::write(&path, model.to_json()).unwrap();
            let path = path.to_string_lossy().into_owned();
            let preds: HashMap<String, String> = test
                .par_iter()
                .map(|(i, site)| {
                    let p = &ds.pages[*i];
                    let opts = Options::new()
                        .with_method(Method::PathClustering)
                        .with_param("model", path.clone());
                    let ex = Extractor::new(&opts).expect("build");
                    let bytes = ds.read_page_bytes(p).expect("read page");
                    let url = format!("http://{site}/");
                    let text = ex
                        .extract(Input::new(&bytes).with_url(url.as_str()))
                        .map(|e| e.text)
                        .unwrap_or_default();
                    (p.id.clone(), text)
                })
                .collect();
            let mut test_ds = ds.clone();
            test_ds.pages.retain(|p| preds.contains_key(&p.id));
            f1.push(common::shingle(&test_ds, &preds).f1);
        }
        println!(
            "| {folder} | {} | {} | {:.3} | {:.3} |",
            per_site.sites.len(),
            test.len(),
            f1[0],
            f1[1]
        );
        ds.pages.clear();
    }
}
