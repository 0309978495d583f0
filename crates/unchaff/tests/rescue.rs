//! Pages whose ordinary parse leaves (nearly) no text are parsed again the
//! way a browser without scripts would show them (issue #23); pages with
//! text are not.

use unchaff::{Options, extract};

/// Three paragraphs of prose, enough for any algorithm to keep.
const PROSE: &str = "<p>The committee met on Tuesday to review the harbour plans, and after a long discussion it agreed to repair the old sea wall before the winter storms arrive.</p>\
<p>Engineers estimate that the work will take four months and cost less than the earlier proposal, because most of the original stone can be used again.</p>\
<p>Residents who attended the meeting asked for the footpath along the wall to stay open during the repairs, and the council promised a temporary route.</p>";

fn text(html: &str) -> String {
    extract(html.as_bytes(), &Options::default()).unwrap().text
}

#[test]
fn content_hidden_until_a_script_runs_is_rescued() {
    let page = format!(
        "<html><body><div id=\"__next\" style=\"visibility:hidden\"><article>{PROSE}</article></div></body></html>"
    );
    assert!(text(&page).contains("repair the old sea wall"));
}

#[test]
fn an_unclosed_title_does_not_swallow_the_page() {
    let page = format!(
        "<html><head><title>Harbour news</titlex></head><body><article>{PROSE}</article></body></html>"
    );
    assert!(text(&page).contains("repair the old sea wall"));
}

#[test]
fn pages_with_text_keep_hiding_and_noscript_as_browsers_do() {
    let page = format!(
        "<html><body><article>{PROSE}</article><div hidden><p>A hidden paragraph that a browser never shows to the reader of this page at all.</p></div>\
         <noscript><p>Text for readers without JavaScript, which a browser running scripts does not show.</p></noscript></body></html>"
    );
    let t = text(&page);
    assert!(t.contains("repair the old sea wall"));
    assert!(
        !t.contains("hidden paragraph") && !t.contains("without JavaScript"),
        "{t}"
    );
}

#[test]
fn a_please_enable_javascript_line_is_no_rescue() {
    let page = "<html><body><div id=\"app\"></div><noscript><p>Please enable JavaScript to use this site.</p></noscript></body></html>";
    assert_eq!(text(page), "");
}

/// A thread that scripts render: the body holds only an empty mount point
/// and a "loading" line; the head's description holds the opening post.
fn script_rendered(description: &str) -> String {
    format!(
        "<html><head><title>Best first telescope? - Forum</title>\
         <meta name=\"description\" content=\"{description}\">\
         <meta property=\"og:title\" content=\"Best first telescope?\"></head>\
         <body><div id=\"app\"></div><script>render()</script></body></html>"
    )
}

#[test]
fn auto_shows_the_description_of_a_page_scripts_render() {
    let opening = "Hello everyone, I am new to astronomy &amp; would love advice on choosing \
                   my first telescope for planets and deep-sky objects &lt;on a budget&gt;.";
    let page = script_rendered(opening);
    let t = text(&page);
    assert_eq!(
        t,
        "Hello everyone, I am new to astronomy & would love advice on choosing my first \
         telescope for planets and deep-sky objects <on a budget>."
    );
    // The same through the Markdown and HTML writers.
    let md = extract(
        page.as_bytes(),
        &Options::default().with_format(unchaff::Format::Markdown),
    )
    .unwrap();
    assert!(md.markdown.unwrap().contains("choosing my first telescope"));
    let html = extract(
        page.as_bytes(),
        &Options::default().with_format(unchaff::Format::Html),
    )
    .unwrap();
    assert!(
        html.html
            .unwrap()
            .contains("<p>Hello everyone, I am new to astronomy &amp; would"),
    );
    // A slogan is no summary of the page.
    assert_eq!(
        text(&script_rendered("The best forum for amateur astronomers")),
        ""
    );
    // The published algorithms stay as specified: nothing.
    let cc = extract(
        page.as_bytes(),
        &Options::default().with_method(unchaff::Method::Cc),
    );
    assert_eq!(cc.unwrap().text, "");
    // A page with text of its own never shows its description.
    let own = format!(
        "<html><head><meta name=\"description\" content=\"{opening}\"></head>\
         <body><article>{PROSE}</article></body></html>"
    );
    assert!(!text(&own).contains("telescope"));
}

/// A page rendered by React's streaming server (Next.js): header and
/// footer first, the article late as a hidden block at the end, which a
/// script moves to its placeholder. The page has text (a menu, a footer),
/// so no rescue runs: the clean stage itself puts the article in place.
#[test]
fn an_article_streamed_after_the_page_is_put_in_its_place() {
    let menu: String = (0..12)
        .map(|i| format!("<li><a href=\"/s{i}\">Section number {i}</a></li>"))
        .collect();
    let page = format!(
        "<html><body><header><nav><ul>{menu}</ul></nav></header>\
         <template id=\"B:0\"></template><div class=\"skeleton\">Loading…</div>\
         <footer><p>© 2026 Harbour News. All rights reserved. Terms of use and privacy policy.</p></footer>\
         <div hidden id=\"S:0\"><main><article><h1>Sea wall</h1>{PROSE}</article></main></div>\
         <script>$RC(\"B:0\",\"S:0\")</script></body></html>"
    );
    let t = text(&page);
    assert!(t.contains("repair the old sea wall"), "{t}");
    assert!(!t.contains("Section number"), "{t}");
}

/// A blog post page as Blogger's templates write it: a sidebar of labels
/// (enough visible text that the page is not empty), and the article's
/// body, marked `itemprop="articleBody"`, holding the post only in a
/// script template and again in a `<noscript>`.
fn post_in_noscript(body: &str) -> String {
    let labels: String = (0..40)
        .map(|i| format!("<li><a href=\"/label/{i}\">Label number {i}</a></li>"))
        .collect();
    format!(
        "<html><body><div class=\"sidebar\"><h2>Labels</h2><ul>{labels}</ul></div>\
         <div class=\"post\"><h2 class=\"title\">Harbour works</h2>\
         <div class=\"post-body\" itemprop=\"articleBody\">\
         <script type=\"text/template\">{body}</script><noscript>{body}</noscript></div></div>\
         </body></html>"
    )
}

#[test]
fn an_article_body_written_only_in_noscript_is_rescued() {
    let t = text(&post_in_noscript(PROSE));
    assert!(t.contains("repair the old sea wall"), "{t}");
    assert!(t.contains("temporary route"), "{t}");
    assert!(!t.contains("Label number 7"), "{t}");
}

#[test]
fn an_article_body_with_text_keeps_its_noscript_hidden() {
    // The body has its text; its noscript (an image's fallback here) is
    // not shown, as in a browser.
    let page = format!(
        "<html><body><div itemprop=\"articleBody\">{PROSE}\
         <noscript><p>A caption written for readers without JavaScript, which a browser running scripts does not show to anyone.</p></noscript></div></body></html>"
    );
    let t = text(&page);
    assert!(t.contains("repair the old sea wall"), "{t}");
    assert!(!t.contains("without JavaScript"), "{t}");
}

#[test]
fn an_article_body_whose_noscript_asks_for_javascript_is_no_rescue() {
    let t = text(&post_in_noscript("<p>Please enable JavaScript.</p>"));
    assert!(!t.contains("enable JavaScript"), "{t}");
}
