//! Tells the tests whether the development datasets are there: without
//! them, the data tests are compiled `#[ignore]`d (cfg `unchaff_no_data`),
//! so the test runner's own summary counts them as ignored, with the
//! reason, instead of passing them silently. The CLI crate uses this same
//! script, as a module of its own `build.rs` (`crates/cli/build.rs`).
//!
//! The data root is `$UNCHAFF_DATA`, else `../shared/data` beside the
//! repository; it counts as present when `scrapinghub/manifest.jsonl` is a
//! file there.

use std::path::PathBuf;

pub fn main() {
    println!("cargo::rustc-check-cfg=cfg(unchaff_no_data)");
    println!("cargo::rerun-if-env-changed=UNCHAFF_DATA");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let root = match std::env::var_os("UNCHAFF_DATA") {
        Some(p) => PathBuf::from(p),
        None => manifest.join("../../../shared/data"),
    };
    let probe = root.join("scrapinghub/manifest.jsonl");
    // Re-run when the data appears or goes (a missing path always re-runs).
    println!("cargo::rerun-if-changed={}", probe.display());
    if !probe.is_file() {
        println!("cargo::rustc-cfg=unchaff_no_data");
    }
}
