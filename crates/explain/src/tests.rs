use super::*;
use unchaff::{Format, Options};

/// A news page with chaff around the article, and hostile markup in
/// every place a report could let it through.
fn page() -> String {
    let mut s = String::from(
        "<html><head><title>Apples &lt;script&gt;alert(1)&lt;/script&gt;</title>\
         <script>alert('head')</script></head><body>\
         <nav><a href=/>Home</a> <a href=/news>News</a> <a href=/sport>Sport</a></nav>\
         <article><h1>Apples</h1>",
    );
    for i in 0..6 {
        s += &format!(
            "<p>Paragraph {i} of the story: apples fall far from the trees in autumn, \
             says everyone who has an orchard, and the &lt;img src=x onerror=alert({i})&gt; \
             crowd agrees \"quoted\" &amp; 'single'.</p>"
        );
    }
    s += "</article><aside><ul><li><a href=/a>Another story</a></li>\
          <li><a href=/b>Yet another</a></li></ul></aside>\
          <footer>All rights reserved &lt;/div&gt;&lt;script&gt;x()&lt;/script&gt;</footer>\
          <img src=x onerror=alert(9)></body></html>";
    s
}

fn tokens(s: &str) -> Vec<&str> {
    s.split_whitespace().collect()
}

#[test]
fn every_block_once_and_kept_text_is_the_extraction() {
    for method in [Method::Auto, Method::CetdTpc, Method::Cepr, Method::Cetr] {
        let html = page();
        let opts = Options::new().with_method(method);
        let r = explain(
            Input::new(html.as_bytes()).with_url("https://o.example/a"),
            &opts,
        )
        .unwrap();
        assert!(r.blocks.len() >= 8, "{method}: {} blocks", r.blocks.len());
        let extracted = unchaff::extract(
            Input::new(html.as_bytes()).with_url("https://o.example/a"),
            &opts,
        )
        .unwrap();
        assert_eq!(r.text, extracted.text, "{method}");
        if !r.text_override {
            let kept: Vec<&str> = r.blocks.iter().map(|b| b.kept_text.as_str()).collect();
            assert_eq!(tokens(&kept.join(" ")), tokens(&r.text), "{method}");
        }
        let doc = render_html(&r);
        for b in &r.blocks {
            let id = format!("data-block=\"{}\"", b.index);
            assert_eq!(doc.matches(&id).count(), 1, "{method}: block {}", b.index);
        }
        assert_eq!(
            doc.matches("<details class=\"block ").count(),
            r.blocks.len()
        );
        assert_eq!(
            doc.matches("data-kept=\"kept\"").count() + doc.matches("data-kept=\"partly\"").count(),
            r.kept_count()
        );
        assert_safe(&doc);
    }
}

#[test]
fn auto_blocks_have_reasons_and_probabilities() {
    let html = page();
    let r = explain(Input::new(html.as_bytes()), &Options::new()).unwrap();
    assert_eq!(r.threshold, Some(unchaff::algorithms::auto::THRESHOLD));
    let story: Vec<&Block> = r
        .blocks
        .iter()
        .filter(|b| b.text.starts_with("Paragraph"))
        .collect();
    assert_eq!(story.len(), 6);
    for b in &story {
        assert_eq!(b.kept, Kept::Yes, "{b:?}");
        assert!(b.score.unwrap() >= 0.5);
        assert_eq!(b.reasons.len(), 2 * TOP_REASONS);
        // Largest push first, within each stage.
        let block: Vec<f32> = b
            .reasons
            .iter()
            .filter(|x| x.stage == "block")
            .map(|x| x.contribution.abs())
            .collect();
        assert!(block.windows(2).all(|w| w[0] >= w[1]), "{block:?}");
    }
    let nav = r.blocks.iter().find(|b| b.text.contains("Home")).unwrap();
    assert_eq!(nav.kept, Kept::No);
    assert!(nav.score.unwrap() < 0.5);
}

/// Tags the report itself writes; any other is the page's, let through.
const REPORT_TAGS: &[&str] = &[
    "!doctype", "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "p",
    "span", "b", "code", "div", "section", "details", "summary", "main", "aside", "svg", "text",
    "line", "rect", "a",
];

/// The report never carries live markup from the page: every tag is one
/// the report writes, no attribute is an event handler or a source, and
/// the page's hostile text is there, escaped.
pub(crate) fn assert_safe(doc: &str) {
    let lower = doc.to_ascii_lowercase();
    for (at, _) in lower.match_indices('<') {
        let rest = lower[at + 1..].trim_start_matches('/');
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '!')
            .collect();
        assert!(REPORT_TAGS.contains(&name.as_str()), "tag <{name}> at {at}");
        let tag = &rest[..rest.find('>').expect("tags close")];
        for attr in tag.split_whitespace().skip(1) {
            let key = attr.split('=').next().unwrap_or("");
            assert!(!key.starts_with("on"), "event handler {attr}");
            assert!(key != "src" && key != "srcset", "source {attr}");
            assert!(!attr.contains("href=\"http"), "outside link {attr}");
        }
    }
    assert!(!lower.contains("url("), "a CSS url()");
    assert!(lower.contains("content-security-policy"));
    assert!(doc.contains("&lt;img src=x onerror=alert(0)&gt;"));
}

#[test]
fn hostile_pages_are_escaped_everywhere() {
    let html = page();
    let r = explain(
        Input::new(html.as_bytes()).with_url("https://o.example/a\"><script>alert(2)</script>"),
        &Options::new().with_format(Format::Json),
    )
    .unwrap();
    let doc = render_html(&r);
    assert!(doc.contains("&lt;script&gt;alert(2)&lt;/script&gt;"));
    assert!(!doc.to_ascii_lowercase().contains("<script"));
    assert!(doc.contains("Apples &amp;lt;script") || doc.contains("Apples &lt;script&gt;"));
}

#[test]
fn escaping() {
    assert_eq!(
        html::esc("<a href='x'>&\"\u{1}"),
        "&lt;a href=&#39;x&#39;&gt;&amp;&quot;\u{fffd}"
    );
}

#[test]
fn empty_pages_and_bad_parameters() {
    let r = explain(Input::new(b"<html><body></body></html>"), &Options::new()).unwrap();
    assert!(r.blocks.is_empty());
    assert!(render_html(&r).contains("no text blocks"));
    let bad = Options::new().with_param("nope", "1");
    assert!(explain(Input::new(b"<p>x</p>"), &bad).is_err());
}

/// Issue 41, defect 9d: a report had ~2.5 KB a block, and an element-dense
/// page made one of 0.5-1.5 GB. Past [`crate::MAX_SHOWN_BLOCKS`] blocks the
/// rest are summed up in one line, and the overview has at most a bar a
/// few blocks: the report's size stops growing with the blocks.
#[test]
fn long_pages_make_bounded_reports() {
    let size = |blocks: usize| {
        let html = format!(
            "<html><body>{}",
            (0..blocks)
                .map(|i| format!("<p>paragraph {i} of a long page, a sentence or so.</p>"))
                .collect::<String>()
        );
        let opts = unchaff::Options::new().with_max_elements(10_000_000);
        let r = crate::explain(unchaff::Input::new(html.as_bytes()), &opts).unwrap();
        assert_eq!(r.blocks.len(), blocks);
        let doc = crate::render_html(&r);
        (doc.len(), doc)
    };
    let (small, _) = size(crate::MAX_SHOWN_BLOCKS);
    let (large, doc) = size(crate::MAX_SHOWN_BLOCKS * 10);
    assert!(
        doc.contains("not shown one by one"),
        "the rest is summed up"
    );
    // The extracted text grows with the page (a line a block); the
    // blocks' part does not.
    let text_growth = (crate::MAX_SHOWN_BLOCKS * 9) * 80;
    assert!(large < small + text_growth, "{small} -> {large}");
}
