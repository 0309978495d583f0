//! Quality floors of CC (paper 2 (ALGORITHMS.md#cc)) on the real data (skipped without it),
//! and a large synthetic page that must run in linear time.
//! Floors sit ~0.01 under the figures in docs/RESULTS.md.

mod common;

use std::time::Instant;

use unchaff::{Extractor, Method, Options};

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn cc_scrapinghub_floor() {
    let root = common::data_root();
    let (ds, preds) = common::run_folder(&root, "scrapinghub", "cc", &[]);
    let s = common::shingle(&ds, &preds);
    // Measured 0.849 (docs/RESULTS.md); ALGORITHMS.md#reference-figures: a faithful implementation ≈ 0.847.
    common::assert_floor("cc scrapinghub shingle F1", s.f1, 0.839);
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn cc_chinese_floor() {
    let root = common::data_root();
    let (ds, preds) = common::run_folder(&root, "chinese-wce", "cc", &[]);
    // Measured 0.851 token F1 (ALGORITHMS.md#reference-figures: 0.851).
    common::assert_floor(
        "cc chinese-wce zh token F1",
        common::token_f1_zh(&ds, &preds),
        0.841,
    );
}

/// 20,000 forum posts (long ones, and short ones with a link that
/// promotion must keep) beside a text 2,000 levels deep: 1.5 MB, one
/// sibling group of 20,000. A quadratic step would take minutes here.
#[test]
fn cc_large_page_is_linear() {
    let mut html = String::from("<html><body>");
    // A first text 2,000 levels deep: the walks must not recurse, and the
    // LCA search climbs from here. (Kept beside the thread, not around it:
    // the HTML5 tree builder checks scopes along the stack of open
    // elements, which costs depth × elements in html5ever itself.)
    html.push_str(&"<div>".repeat(2_000));
    html.push_str("A deep first paragraph, long enough to be content on its own.");
    html.push_str(&"</div>".repeat(2_000));
    html.push_str("<div id=thread>");
    for i in 0..20_000 {
        if i % 4 == 3 {
            html.push_str("<div class=post>Agreed, see <a href=#>this</a></div>");
        } else {
            html.push_str(
                "<div class=post>This is a longer forum reply with enough words to be content.</div>",
            );
        }
    }
    html.push_str("</div>");
    html.push_str(
        "<div id=footer>Copyright notice of the site, long enough to count as content here.</div>",
    );
    html.push_str("</body></html>");
    let ex = Extractor::new(&Options::new().with_method(Method::Cc)).unwrap();
    let t = Instant::now();
    let out = ex.extract(&html).unwrap();
    let times = out.times;
    eprintln!(
        "cc on a {:.1} MB page with 20,000 posts: {:.3} s (parse {:.3} s, annotate {:.3} s, cc {:.3} s, render {:.3} s)",
        html.len() as f64 / 1e6,
        t.elapsed().as_secs_f64(),
        times.parse.as_secs_f64(),
        times.annotate.as_secs_f64(),
        times.algorithm.as_secs_f64(),
        times.render.as_secs_f64(),
    );
    // Every post survives (the short ones by promotion), each once.
    assert_eq!(out.text.matches("longer forum reply").count(), 15_000);
    assert_eq!(out.text.matches("Agreed, see this").count(), 5_000);
    assert!(out.text.starts_with("A deep first paragraph"));
}
