//! The fast tokenizer (`unchaff::parse::parse_fast`, feeding html5ever's
//! tree builder) against html5ever alone, on every page of the 12 dev
//! folders (skipped without them): wherever the fast tokenizer does not
//! give up, the tree must be the same, node for node, attribute for
//! attribute; both as the pipeline parses (after the pre-pass) and on the
//! page exactly as given. It must also not give up often, or it buys
//! nothing. The same for our own tree builder (`parse_own_or_why`, fed
//! by the fast tokenizer) against html5ever alone.

mod common;

use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Mutex;
use unchaff::decode::{DEFAULT_MAX_INPUT, decode, gunzip_if_needed};

use unchaff::parse::{parse_fast_or_why, parse_html5ever, parse_own_or_why, prefilter};
use unchaff_eval::dataset::{Dataset, list_folders};

/// Whether the fast tokenizer took `html`; panics if its tree differs.
fn check(id: &str, html: &str, why: &Mutex<BTreeMap<&'static str, usize>>) -> bool {
    match parse_fast_or_why(html) {
        Ok(dom) => {
            let fast = dom.outline();
            let reference = parse_html5ever(html).outline();
            if fast != reference {
                let line = fast
                    .lines()
                    .zip(reference.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                panic!(
                    "{id}: the fast tokenizer's tree differs from html5ever's at line {line}:\n{:?}\n{:?}",
                    fast.lines().nth(line),
                    reference.lines().nth(line)
                );
            }
            true
        }
        Err(reason) => {
            *why.lock().unwrap().entry(reason).or_default() += 1;
            false
        }
    }
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn fast_tokenizer_builds_html5evers_tree_on_every_dev_page() {
    let root = common::data_root();
    let folders = list_folders(&root).expect("list the dev folders");
    assert_eq!(folders.len(), 12, "the 12 dev folders");
    let (mut pages, mut taken_filtered, mut taken_raw) = (0, 0, 0);
    let why = Mutex::new(BTreeMap::new());
    for dir in folders {
        let ds = Dataset::open(&dir).expect("open dataset");
        let taken: Vec<(bool, bool)> = ds
            .pages
            .par_iter()
            .map(|p| {
                let raw = ds.read_page_bytes(p).expect("read page");
                let bytes = gunzip_if_needed(&raw, DEFAULT_MAX_INPUT).expect("gunzip");
                let text = decode(&bytes, None).expect("decode").text;
                (
                    check(&p.id, &prefilter(&text), &why),
                    check(&format!("{} (as given)", p.id), &text, &why),
                )
            })
            .collect();
        let f = taken.iter().filter(|t| t.0).count();
        let r = taken.iter().filter(|t| t.1).count();
        eprintln!(
            "{}: fast tokenizer on {f} of {} pages after the pre-pass, {r} as given",
            dir.file_name().unwrap_or_default().to_string_lossy(),
            taken.len()
        );
        pages += taken.len();
        taken_filtered += f;
        taken_raw += r;
    }
    eprintln!("gave up at: {:?}", why.lock().unwrap());
    assert!(pages > 5000, "{pages} pages");
    // Measured: see docs/BENCHMARKS.md. It must take most pages.
    assert!(
        taken_filtered * 100 >= pages * 90,
        "the fast tokenizer took {taken_filtered} of {pages} pages"
    );
    assert!(taken_raw > 0);
}

/// Whether our own tree builder took `html`; panics if its tree differs
/// from html5ever's alone.
fn check_own(id: &str, html: &str, why: &Mutex<BTreeMap<&'static str, usize>>) -> bool {
    match parse_own_or_why(html) {
        Ok(dom) => {
            let own = dom.outline();
            let reference = parse_html5ever(html).outline();
            if own != reference {
                let line = own
                    .lines()
                    .zip(reference.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                panic!(
                    "{id}: our tree builder's tree differs from html5ever's at line {line}:\n{:?}\n{:?}",
                    own.lines().nth(line),
                    reference.lines().nth(line)
                );
            }
            true
        }
        Err(reason) => {
            *why.lock().unwrap().entry(reason).or_default() += 1;
            false
        }
    }
}

/// Our own tree builder (`parse/tree.rs`, fed by the fast tokenizer)
/// against html5ever alone on every dev page: wherever it does not give
/// up, the tree is the same; and it takes enough pages to pay.
#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn own_tree_builder_builds_html5evers_tree_on_every_dev_page() {
    let root = common::data_root();
    let folders = list_folders(&root).expect("list the dev folders");
    assert_eq!(folders.len(), 12, "the 12 dev folders");
    let (mut pages, mut taken_filtered, mut taken_raw) = (0, 0, 0);
    let why = Mutex::new(BTreeMap::new());
    for dir in folders {
        let ds = Dataset::open(&dir).expect("open dataset");
        let taken: Vec<(bool, bool)> = ds
            .pages
            .par_iter()
            .map(|p| {
                let raw = ds.read_page_bytes(p).expect("read page");
                let bytes = gunzip_if_needed(&raw, DEFAULT_MAX_INPUT).expect("gunzip");
                let text = decode(&bytes, None).expect("decode").text;
                (
                    check_own(&p.id, &prefilter(&text), &why),
                    check_own(&format!("{} (as given)", p.id), &text, &why),
                )
            })
            .collect();
        let f = taken.iter().filter(|t| t.0).count();
        let r = taken.iter().filter(|t| t.1).count();
        eprintln!(
            "{}: our tree builder on {f} of {} pages after the pre-pass, {r} as given",
            dir.file_name().unwrap_or_default().to_string_lossy(),
            taken.len()
        );
        pages += taken.len();
        taken_filtered += f;
        taken_raw += r;
    }
    let mut why: Vec<_> = why.into_inner().unwrap().into_iter().collect();
    why.sort_by_key(|w| std::cmp::Reverse(w.1));
    eprintln!("gave up at: {why:?}");
    eprintln!(
        "our tree builder: taken on {taken_filtered} of {pages} pages after the pre-pass, {taken_raw} as given"
    );
    assert!(pages > 5000, "{pages} pages");
    // Measured: see docs/BENCHMARKS.md. It must take enough pages to pay.
    assert!(
        taken_filtered * 100 >= pages * MIN_OWN_TAKE_PERCENT,
        "our tree builder took {taken_filtered} of {pages} pages"
    );
    assert!(taken_raw > 0);
}

/// The share of dev pages (after the pre-pass) our tree builder must take.
const MIN_OWN_TAKE_PERCENT: usize = 95;
