//! Titles on every page of the 12 dev folders (skipped without them): a
//! page with a non-empty HTML `<title>` anywhere in its tree (what a
//! browser's `document.title` reads, wherever a wrapper element put it)
//! gets a title, both the page's (`Extraction::title`) and the article's
//! (`Metadata::title`). Before titles were read outside `<head>`, 40 of
//! chinese-wce's 69 pages came out without one.

mod common;

use rayon::prelude::*;
use unchaff::dom::{Dom, Ns, Tag};
use unchaff::{Extractor, Input, Options};
use unchaff_eval::dataset::{Dataset, list_folders};

/// Whether the tree has an HTML `<title>` with text other than white
/// space: the walk is this test's own, apart from the extractor's.
fn has_title(dom: &Dom) -> bool {
    dom.descendants(unchaff::dom::DOCUMENT).any(|n| {
        dom.element(n)
            .is_some_and(|e| e.tag == Tag::TITLE && e.ns == Ns::Html)
            && dom
                .descendants(n)
                .filter_map(|d| dom.text_of(d))
                .any(|t| !t.trim().is_empty())
    })
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn every_page_with_a_title_element_gets_a_title() {
    let root = common::data_root();
    let folders = list_folders(&root).expect("list the dev folders");
    assert_eq!(folders.len(), 12, "the 12 dev folders");
    let ex = Extractor::new(&Options::new().with_metadata(true)).expect("extractor");
    let (mut checked, mut titled) = (0, 0);
    for dir in folders {
        let ds = Dataset::open(&dir).expect("open dataset");
        let results: Vec<(bool, Option<String>)> = ds
            .pages
            .par_iter()
            .map(|p| {
                let raw = ds.read_page_bytes(p).expect("read page");
                let bytes =
                    unchaff::decode::gunzip_if_needed(&raw, unchaff::decode::DEFAULT_MAX_INPUT)
                        .expect("gunzip");
                let Ok(decoded) = unchaff::decode::decode(&bytes, None) else {
                    return (false, None);
                };
                if !has_title(&unchaff::parse::parse(&decoded.text)) {
                    return (false, None);
                }
                let missing = match ex.extract(Input::new(&raw).with_url(p.url.as_deref())) {
                    Ok(x) if x.title.is_some() && x.metadata.title.is_some() => None,
                    Ok(x) => Some(format!(
                        "{}: page title {:?}, article title {:?}",
                        p.id, x.title, x.metadata.title
                    )),
                    Err(e) => Some(format!("{}: {e}", p.id)),
                };
                (true, missing)
            })
            .collect();
        let missing: Vec<&String> = results.iter().filter_map(|r| r.1.as_ref()).collect();
        assert!(
            missing.is_empty(),
            "{}: {} pages with a <title> got none: {missing:?}",
            dir.display(),
            missing.len()
        );
        checked += results.len();
        titled += results.iter().filter(|r| r.0).count();
    }
    // The check ran on the pages, not on an empty list.
    assert!(checked > 5000, "{checked} pages");
    assert!(titled > 4000, "{titled} pages with a <title>");
}
