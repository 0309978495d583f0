//! The Markdown unchaff writes over the 12 dev folders is well formed
//! (issue #34): every table rectangular (each row has the header's number
//! of cells, GFM splitting on unescaped `|`), every code fence closed.
//! Read with the structure benchmark's Markdown reader
//! (`unchaff_eval::structure::markdown`); skipped without the data.

mod common;

use rayon::prelude::*;
use unchaff::{Extractor, Format, Options};
use unchaff_eval::dataset::Dataset;
use unchaff_eval::structure::markdown::{self, WellFormed};

/// Pages listed in a failure message, at most.
const LISTED: usize = 20;

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn markdown_tables_are_rectangular_and_fences_closed() {
    let root = common::data_root();
    let opts = Options::new().with_format(Format::Markdown);
    let ex = Extractor::new(&opts).expect("the default extractor");
    let mut total = WellFormed::default();
    let mut bad: Vec<String> = Vec::new();
    for folder in common::DEV_FOLDERS {
        let ds = Dataset::open(&root.join(folder)).expect("open dataset");
        let pages: Vec<(String, WellFormed)> = ds
            .pages
            .par_iter()
            .map(|p| {
                let bytes = ds.read_page_bytes(p).expect("read page");
                let input = unchaff::Input::new(&bytes).with_url(p.url.as_deref());
                let md = ex.extract(input).map(|x| x.render()).unwrap_or_default();
                (p.id.clone(), WellFormed::of(&markdown::parse(&md)))
            })
            .collect();
        let mut f = WellFormed::default();
        for (id, w) in &pages {
            f.add(w);
            if w.ragged_tables > 0 || w.open_fences > 0 {
                bad.push(format!(
                    "{folder}/{id}: {} of {} tables ragged, {} of {} fences open",
                    w.ragged_tables, w.tables, w.open_fences, w.fences
                ));
            }
        }
        eprintln!(
            "{folder}: {} of {} tables ragged, {} of {} fences open",
            f.ragged_tables, f.tables, f.open_fences, f.fences
        );
        total.add(&f);
    }
    eprintln!(
        "all: {} of {} tables ragged, {} of {} fences open",
        total.ragged_tables, total.tables, total.open_fences, total.fences
    );
    assert!(
        bad.is_empty(),
        "{} pages with ragged tables or open fences ({} of {} tables, {} of {} fences), first {LISTED}:\n{}",
        bad.len(),
        total.ragged_tables,
        total.tables,
        total.open_fences,
        total.fences,
        bad.iter()
            .take(LISTED)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
