//! Fuzz target: `unchaff::extract` with every algorithm and every output
//! format. The input's first byte picks the algorithm, the second the
//! format and switches (links, images, JSON with HTML, metadata); the rest
//! is the page. Any panic, overflow, stack overflow or runaway allocation
//! is a finding; errors (empty, binary, too many elements) are fine.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use unchaff::{Extractor, Format, Method, Options};

/// The algorithms.
const METHODS: usize = Method::ALL.len();
/// The option sets the second byte picks (its low six bits).
const VARIANTS: usize = 64;

/// The extractors, each built the first time it is picked (the `auto`
/// model alone takes milliseconds to read).
static EXTRACTORS: [OnceLock<Extractor>; METHODS * VARIANTS] =
    [const { OnceLock::new() }; METHODS * VARIANTS];

fn extractor(alg: u8, fmt: u8) -> &'static Extractor {
    let (a, v) = (alg as usize % METHODS, fmt as usize % VARIANTS);
    EXTRACTORS[a * VARIANTS + v].get_or_init(|| build(a, v as u8))
}

/// The extractor for algorithm `alg` and option set `fmt`.
fn build(alg: usize, fmt: u8) -> Extractor {
    let method = Method::ALL[alg];
    let format = [Format::Text, Format::Json, Format::Markdown, Format::Html][fmt as usize % 4];
    let opts = Options::new()
        .with_method(method)
        .with_format(format)
        .with_links(fmt & 0x04 != 0)
        .with_images(fmt & 0x08 != 0)
        .with_json_html(fmt & 0x10 != 0)
        .with_metadata(fmt & 0x20 != 0);
    Extractor::new(&opts).expect("every algorithm builds with its defaults")
}

fuzz_target!(|data: &[u8]| {
    let (&alg, rest) = data.split_first().unwrap_or((&0, &[]));
    let (&fmt, page) = rest.split_first().unwrap_or((&0, &[]));
    let ex = extractor(alg, fmt);
    let url = (fmt & 0x40 != 0).then_some("https://example.org/a/b.html");
    if let Ok(out) = ex.extract(unchaff::Input::new(page).with_url(url)) {
        let rendered = out.render();
        // JSON output is always valid JSON.
        if format_is_json(fmt) {
            assert!(rendered.starts_with('{'), "{rendered}");
        }
    }
});

fn format_is_json(fmt: u8) -> bool {
    fmt % 4 == 1
}
