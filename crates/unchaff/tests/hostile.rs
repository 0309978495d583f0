//! Input built to hurt (issue 19): each case is generated here, never
//! stored, and each test asserts the outcome — a result or the documented
//! error — and sizes, never wall time. Time and peak memory are measured
//! by `scripts/hostile_bench.sh` (docs/ROBUSTNESS.md). Run with
//! `--release`: the inputs are real-sized.

use std::time::Duration;

use unchaff::limits::{Deadline, Stage, element_budget, memory_budget, synthesized_budget};
use unchaff::parse::{self, MAX_ATTRIBUTES, MAX_DEPTH, MAX_OPEN_FORMATTING};
use unchaff::{Error, Extractor, Format, Method, Options, extract};

/// `n` distinct `<b>` start tags, left open.
fn open_bs(n: usize) -> String {
    (0..n).map(|i| format!("<b id={i}>")).collect()
}

/// Elements of the tree named `name`.
fn count(dom: &unchaff::dom::Dom, name: &str) -> usize {
    dom.descendants(unchaff::dom::DOCUMENT)
        .filter(|&n| dom.tag(n).is_some_and(|t| dom.tag_name(t) == name))
        .count()
}

/// All the text of the tree, back to back.
fn tree_text(dom: &unchaff::dom::Dom) -> String {
    dom.descendants(unchaff::dom::DOCUMENT)
        .filter_map(|n| dom.text_of(n))
        .collect()
}

#[test]
fn formatting_elements_left_open_are_capped() {
    // 500 distinct <b> left open in a <div>: the tree builder would
    // rebuild all of them in each of the 2,000 blocks after it.
    let html = format!(
        "<html><body><div>{}</div>{}",
        open_bs(500),
        "<div>x</div>".repeat(2000)
    );
    let filtered = parse::prefilter(&html);
    assert_eq!(filtered.matches("<b ").count(), MAX_OPEN_FORMATTING);
    let dom = parse::parse(&html);
    // At most the cap rebuilt per block, plus the originals.
    assert!(
        count(&dom, "b") <= MAX_OPEN_FORMATTING * 2001,
        "{}",
        count(&dom, "b")
    );
    // Text is kept, in the tree and (most of it: the algorithm chooses) in
    // the extraction.
    assert_eq!(tree_text(&dom).matches('x').count(), 2000);
    // Even capped, that is 128,000 elements made up for 2,000 blocks: over
    // what the page's start tags allow by default...
    match extract(&html, &Options::default()) {
        Err(Error::TooManyElements { limit }) => {
            assert_eq!(
                limit,
                synthesized_budget(start_tags(&parse::prefilter(&html)))
            )
        }
        other => panic!("{:?}", other.map(|e| e.text.len())),
    }
    // ...and a budget set by the caller is the whole budget.
    let roomy = Options::new().with_max_elements(1_000_000);
    let out = extract(&html, &roomy).unwrap();
    assert!(out.text.matches('x').count() > 1900, "{}", out.text.len());
}

/// Start tags as the parser counts them for [`synthesized_budget`]: `<`
/// and a letter.
fn start_tags(html: &str) -> usize {
    html.as_bytes()
        .windows(2)
        .filter(|w| w[0] == b'<' && w[1].is_ascii_alphabetic())
        .count()
}

#[test]
fn formatting_amplification_is_an_error_not_gigabytes() {
    // Issue 19's case, full size (605 KB): 500 open, 50,000 blocks. Even
    // capped, 64 rebuilt elements a block is 3.2 million elements: the
    // parse stops at what the page's 50,000 start tags allow (about
    // 85,000 elements, under the 275,000 of its size's budget).
    let html = format!(
        "<html><body><div>{}</div>{}",
        open_bs(500),
        "<div>x</div>".repeat(50_000)
    );
    let budget = synthesized_budget(start_tags(&parse::prefilter(&html)));
    assert!(budget < element_budget(html.len()) / 3, "{budget}");
    match extract(&html, &Options::default()) {
        Err(Error::TooManyElements { limit }) => assert_eq!(limit, budget),
        other => panic!("{:?}", other.map(|e| e.text.len())),
    }
}

#[test]
fn formatting_elements_hidden_from_the_pre_pass_hit_the_element_budget() {
    // `</b>` across a table boundary leaves the <b> open (it is not in
    // scope), which the pre-pass's simulation does not see: the list grows
    // past the cap, and the element budget is what holds.
    let hidden: String = (0..500)
        .map(|i| format!("<b id={i}><table></b></table>"))
        .collect();
    let html = format!(
        "<html><body><div>{hidden}</div>{}",
        "<div>x</div>".repeat(50_000)
    );
    let budget = element_budget(html.len());
    match parse::parse_limited(&html, budget, &Deadline::NONE) {
        Err(Error::TooManyElements { limit }) => assert_eq!(limit, budget),
        other => panic!("{:?}", other.map(|d| d.len())),
    }
    // Within a budget, the tree stays within it.
    let small = format!(
        "<html><body><div>{hidden}</div>{}",
        "<div>x</div>".repeat(20)
    );
    let dom = parse::parse_limited(&small, 20_000, &Deadline::NONE).unwrap();
    assert!(dom.len() <= 20_000 + 21 * 2 + 100, "{}", dom.len());
}

#[test]
fn element_budget_is_an_option() {
    let html = "<p>a</p>".repeat(100);
    let opts = Options::new().with_max_elements(50);
    assert!(matches!(
        extract(&html, &opts),
        Err(Error::TooManyElements { limit: 50 })
    ));
    assert!(extract(&html, &Options::new().with_max_elements(1000)).is_ok());
    // A dense page of real elements within the default budgets: not
    // refused, and its list comes out (whether the model keeps an edge
    // item of one-letter blocks is the model's call: the model of issue
    // #23's record groups drops one of the 100,000). 100,000 items, as
    // before the memory budget, cost 63 MB for a 1 MB page (issue 41):
    // over 10× the page and 50 MB, so now refused.
    let dense = "<li>x</li>".repeat(60_000);
    assert!(60_000 < element_budget(dense.len()));
    let lines = extract(&dense, &Options::default())
        .unwrap()
        .text
        .lines()
        .count();
    assert!((59_990..=60_000).contains(&lines), "{lines}");
}

/// Issue 41, defect 7: a page of tiny blocks within the element budget
/// (`<p>x</p>` repeated: 48 MB cost 3.2 GB, 67× the page) is refused at
/// its memory budget, during the parse; a gzip of one is judged by its
/// inflated size; a caller's element budget replaces the memory budget;
/// and ordinary markup of the same size is not refused.
#[test]
fn element_dense_pages_are_refused_at_the_memory_budget() {
    let dense = format!("<html><body>{}", "<p>x</p>".repeat(1_000_000));
    let elements = 1_000_000 + 3;
    assert!(
        elements < element_budget(dense.len()),
        "within the element budget"
    );
    let limit = memory_budget(dense.len());
    for shape in [
        dense.clone(),
        dense.replace("<p>", "<b>").replace("</p>", "</b>"),
    ] {
        match extract(&shape, &Options::default()) {
            Err(Error::TooDense { limit: l }) => assert_eq!(l, limit),
            other => panic!("{:?}", other.map(|x| x.text.len())),
        }
    }
    let gz = {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(dense.as_bytes()).unwrap();
        e.finish().unwrap()
    };
    assert!(gz.len() * 100 < dense.len());
    match extract(&gz, &Options::default()) {
        Err(Error::TooDense { limit: l }) => assert_eq!(l, limit),
        other => panic!("{:?}", other.map(|x| x.text.len())),
    }
    let opts = Options::new().with_max_elements(2_100_000);
    assert!(extract(&dense, &opts).is_ok());
    // Paragraphs of ordinary length, the same size: not refused.
    let para = format!("<p>{}</p>", "word ".repeat(40));
    let plain = format!("<html><body>{}", para.repeat(dense.len() / para.len()));
    let out = extract(&plain, &Options::default()).unwrap();
    assert!(out.text.len() > plain.len() / 2);
}

#[test]
fn attribute_flood_is_capped() {
    // One element with 400,000 distinct attribute names (3.9 MB).
    let attrs: String = (0..400_000).map(|i| format!(" a{i}=1")).collect();
    // The paragraph after it is prose, so that keeping it is not left to
    // the model's call on a one-word block.
    let after = "After the flood comes a paragraph of ordinary prose, which any extractor keeps as the content of this page.";
    let html = format!("<html><body><div{attrs}>text</div><p>{after}</p></body></html>");
    let dom = parse::parse(&html);
    let div = dom
        .descendants(unchaff::dom::DOCUMENT)
        .find(|&n| dom.tag(n).is_some_and(|t| dom.tag_name(t) == "div"))
        .unwrap();
    assert_eq!(dom.attrs_of(div).len(), MAX_ATTRIBUTES);
    assert_eq!(dom.attr(div, "a0"), Some("1"));
    assert_eq!(tree_text(&dom), format!("text{after}"));
    let out = extract(&html, &Options::default()).unwrap();
    assert!(out.text.contains(after), "{}", out.text);
    // Self-closing survives the cut: inside <math> it closes the element.
    let math = format!(
        "<math><mi{}/><mn>t</mn></math>",
        (0..1000)
            .map(|i| format!(" b{i}=\"v\""))
            .collect::<String>()
    );
    let f = parse::prefilter(&math);
    assert!(
        f.contains("\"/><mn>"),
        "{}",
        &f[f.len().saturating_sub(40)..]
    );
}

#[test]
fn deep_nesting_is_capped() {
    let n = 100_000;
    let html = format!(
        "<html><body>{}deep{}",
        "<div>".repeat(n),
        "</div>".repeat(n)
    );
    let dom = parse::parse(&html);
    assert!(count(&dom, "div") <= MAX_DEPTH);
    let out = extract(&html, &Options::default()).unwrap();
    assert_eq!(out.text, "deep");
}

#[test]
fn nested_blockquotes_finish_with_bounded_output() {
    // 1.6 MB: 100,000 nested <blockquote>s (capped at MAX_DEPTH), then
    // 25,000 paragraphs at the deepest level. Extraction finishes; the text
    // is the paragraphs.
    let html = format!(
        "<html><body>{}{}",
        "<blockquote>".repeat(100_000),
        "<p>quoted text</p>".repeat(25_000)
    );
    let dom = parse::parse(&html);
    assert!(count(&dom, "blockquote") <= MAX_DEPTH);
    assert_eq!(count(&dom, "p"), 25_000);
    let out = extract(&html, &Options::default()).unwrap();
    assert!(out.text.lines().count() > 24_000);
    assert!(out.text.len() <= html.len());
}

#[test]
fn nested_blockquotes_markdown_is_bounded() {
    let html = format!(
        "<html><body>{}{}",
        "<blockquote>".repeat(100_000),
        "<p>quoted text</p>".repeat(25_000)
    );
    let opts = Options::new().with_format(Format::Markdown);
    let out = extract(&html, &opts).unwrap();
    let md = out.render();
    // Markdown may quote, but not multiply the input.
    assert!(
        md.len() <= 4 * html.len(),
        "{} from {}",
        md.len(),
        html.len()
    );
}

#[test]
fn deadline_stops_the_pre_pass_and_the_parse() {
    let html = "<div><p>text <b>bold</b></p></div>".repeat(50_000);
    let past = Deadline::after(Some(Duration::ZERO));
    match parse::parse_limited(&html, usize::MAX, &past) {
        Err(Error::Timeout { stage, limit }) => {
            assert_eq!(stage, Stage::Parse);
            assert_eq!(limit, Duration::ZERO);
        }
        other => panic!("{:?}", other.map(|d| d.len())),
    }
    // The pre-pass alone, too.
    assert!(matches!(
        parse::prefilter_until(&html, &past),
        Err(Error::Timeout { .. })
    ));
}

#[test]
fn deadline_stops_the_statistics_pass() {
    let html = "<div><p>text <b>bold</b></p></div>".repeat(5_000);
    let dom = parse::parse(&html);
    let root = dom.content_root();
    let past = Deadline::after(Some(Duration::ZERO));
    match unchaff::annotate::annotate_until(&dom, &html, root, &past) {
        Err(Error::Timeout { stage, .. }) => assert_eq!(stage, Stage::Annotate),
        other => panic!("{:?}", other.map(|p| p.elements.len())),
    }
}

#[test]
fn timeout_is_an_error_with_every_algorithm() {
    let html = "<div><p>text <b>bold</b></p></div>".repeat(1_000);
    for &m in Method::ALL {
        let opts = Options::new()
            .with_method(m)
            .with_timeout(Duration::from_nanos(1));
        let ex = Extractor::new(&opts).unwrap();
        match ex.extract(&html) {
            Err(e @ Error::Timeout { .. }) => {
                assert!(e.to_string().contains("time limit"), "{e}")
            }
            other => panic!("{m:?}: {:?}", other.map(|e| e.text.len())),
        }
        // A generous limit changes nothing.
        let roomy = Options::new()
            .with_method(m)
            .with_timeout(Duration::from_secs(600));
        let a = extract(&html, &roomy).unwrap();
        let b = extract(&html, &Options::new().with_method(m)).unwrap();
        assert_eq!(a.text, b.text, "{m:?}");
    }
}

#[test]
fn model_file_that_never_ends_is_refused() {
    let zero = std::path::Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    for m in [Method::Auto, Method::TemplateSvm, Method::PathClustering] {
        let opts = Options::new()
            .with_method(m)
            .with_param("model", "/dev/zero");
        match Extractor::new(&opts) {
            Err(Error::Model(msg)) => assert!(msg.contains("larger than the limit"), "{msg}"),
            other => panic!("{m:?}: {other:?}"),
        }
    }
}

#[test]
fn javascript_canonical_is_dropped() {
    let html = "<head><link rel=canonical href=\"javascript:alert(document.cookie)\">\
                </head><body><p>text</p></body>";
    let opts = Options::new().with_format(Format::Json);
    let out = extract(html, &opts).unwrap();
    assert_eq!(out.metadata.canonical, None);
}

/// CC's demotion once compared every child of the content's common
/// ancestor with every other (quadratic: a 20 MB page of 200,000 blocks
/// took 304 s). 300,000 sibling paragraphs must now finish far inside a
/// deadline they ran minutes past before; the deadline only turns the
/// old behaviour into a failure instead of a hang, with a margin of tens.
#[test]
fn cc_is_linear_in_siblings() {
    let para = "<p>a paragraph of plain text without any links</p>";
    let html = format!("<body>{}</body>", para.repeat(300_000));
    // Paragraphs of 51 bytes are denser than the default memory budget
    // allows (it is `auto`'s: 560 bytes a block): a budget of its own.
    let opts = Options::new()
        .with_method(Method::Cc)
        .with_max_elements(1_000_000)
        .with_timeout(Duration::from_secs(60));
    let out = Extractor::new(&opts).unwrap().extract(&html).unwrap();
    assert_eq!(out.text.matches("a paragraph").count(), 300_000);
}
