//! Fuzz target: the Markdown writer never lets the page's text through as
//! markup. Every Markdown `unchaff::extract` writes (links and images on,
//! with and without a base URL) is read by a CommonMark + GFM parser
//! (pulldown-cmark); any raw HTML it finds other than the writer's own
//! tags, or a link or image to a scheme other than http(s), is a finding
//! — as are panics and runaway allocations.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pulldown_cmark::{Event, Options as MdOptions, Parser, Tag};
use unchaff::{Extractor, Format, Method, Options};

/// The inline HTML the writer itself writes: line breaks in table cells,
/// sub- and superscripts.
const OWN_HTML: &[&str] = &["<br>", "<sub>", "</sub>", "<sup>", "</sup>"];

/// One extractor per algorithm, Markdown with links and images.
static EXTRACTORS: [OnceLock<Extractor>; Method::ALL.len()] =
    [const { OnceLock::new() }; Method::ALL.len()];

fn extractor(alg: u8) -> &'static Extractor {
    let a = alg as usize % Method::ALL.len();
    EXTRACTORS[a].get_or_init(|| {
        let opts = Options::new()
            .with_method(Method::ALL[a])
            .with_format(Format::Markdown)
            .with_links(true)
            .with_images(true);
        Extractor::new(&opts).expect("every algorithm builds with its defaults")
    })
}

/// Panics on anything in `md` a browser would get as the page's markup.
fn assert_inert(md: &str, page: &[u8]) {
    for ev in Parser::new_ext(md, MdOptions::all()) {
        match ev {
            Event::Html(h) | Event::InlineHtml(h) => {
                assert!(OWN_HTML.contains(&h.trim()), "raw HTML {h:?} in {md:?} from {page:?}")
            }
            Event::Start(Tag::Link { dest_url: d, .. } | Tag::Image { dest_url: d, .. }) => {
                let d = d.trim().to_ascii_lowercase();
                // A scheme starts with a letter (RFC 3986, WHATWG URL):
                // `7:77` is a relative path, as a browser reads it.
                if let Some((scheme, _)) = d.split_once(':')
                    && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                    && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                {
                    assert!(scheme == "http" || scheme == "https", "link to {d:?} in {md:?}");
                }
            }
            _ => {}
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let (&alg, page) = data.split_first().unwrap_or((&0, &[]));
    let ex = extractor(alg);
    for url in [None, Some("https://example.org/a/b.html")] {
        if let Ok(out) = ex.extract(unchaff::Input::new(page).with_url(url)) {
            assert_inert(out.markdown.as_deref().unwrap_or(""), page);
        }
    }
});
