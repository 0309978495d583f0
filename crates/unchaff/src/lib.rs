//! unchaff pulls the main content out of web pages — the article, the post,
//! the documentation text — and drops the chaff around it: navigation,
//! ads, related links, footers, cookie banners, share bars.
//!
//! ```
//! let html = b"<html><body><nav><a href=/>Home</a></nav>\
//!     <article><p>The main text of the page, long enough to win.</p></article></body></html>";
//! let out = unchaff::extract(html, &unchaff::Options::default()).unwrap();
//! assert!(out.text.contains("main text"));
//! ```
//!
//! For many pages, build an [`Extractor`] once (it is `Send + Sync`) and
//! give it each page as an [`Input`] — its bytes, and its URL and HTTP
//! charset where known:
//!
//! ```
//! use unchaff::{Extractor, Format, Input, Method, Options};
//! let ex = Extractor::new(&Options::new().with_method(Method::Auto).with_format(Format::Json))?;
//! let page = b"<title>T</title><article><p>Some main text of the page.</p></article>";
//! let out = ex.extract(Input::new(page).with_url("https://example.org/story"))?;
//! assert!(out.render().starts_with(r#"{"schema":2,"#));
//! # Ok::<(), unchaff::Error>(())
//! ```
//!
//! # The pipeline
//!
//! Each stage is one module, in this order:
//!
//! ```text
//! bytes ─decode─▶ UTF-8 ─parse─▶ Dom ─clean─▶ Dom        (prepare)
//!       ─annotate─▶ Page ─score/select (one algorithm)─▶ Selection
//!       ─render─▶ text / Markdown / HTML
//! ```
//!
//! `decode` (gzip, binary sniffing, charset), `parse` (html5ever into
//! the arena of `dom`), `clean` (and the `<noscript>` rescue), `annotate`
//! (the shared per-node statistics), `algorithms` (one module per
//! algorithm, all behind one trait, reading the statistics; their trained
//! models in `model`), `render`, and the metadata (read before
//! cleaning). `docs/ARCHITECTURE.md` in the repository draws the whole
//! map.
//!
//! # Stability
//!
//! The stable API is what the crate root exports — [`extract`],
//! [`Extractor`], [`Options`], [`Input`], [`Method`], [`Format`],
//! [`Extraction`], [`Metadata`], [`Error`] and the types they name — and
//! the [`dedup`] module. The stage modules are private; the cargo feature
//! `unstable` makes them public at the same paths (`unchaff::dom`,
//! `unchaff::algorithms::auto`, …) for the tools of this workspace
//! (evaluation, training, explanation). What only that feature shows may
//! change in any release.
//!
//! # Cargo features
//!
//! * `templates` — paper 5's per-site (ALGORITHMS.md#site-templates) template library, kept in SQLite
//!   (`rusqlite` with a bundled SQLite: needs a C compiler).
//! * `unstable` — the stage modules, public (see *Stability*): the
//!   workspace's own tools use them (the `unchaff-train` crate fits the
//!   models from them).
//!
//! All are off by default: the extraction library itself is pure Rust.
//!
//! # WebAssembly
//!
//! Without features the crate builds for `wasm32-unknown-unknown` (the
//! `js/` package of the repository is that build): one page needs no
//! thread, and the clock of [`Options::timeout`] is the host's
//! `performance.now()` there. What reads files — an algorithm's
//! `model=FILE` parameter — fails there with an error.

#![deny(missing_docs)]

/// Declares the workspace-internal modules: `pub` with the `unstable`
/// feature, private to the crate without it (same paths either way). Items
/// that only the workspace's tools use are dead code without the feature.
macro_rules! internal {
    ($($(#[$attr:meta])* mod $name:ident;)*) => {$(
        $(#[$attr])*
        #[cfg(feature = "unstable")]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "unstable"))]
        #[allow(dead_code, unused_imports)]
        mod $name;
    )*};
}

internal! {
    mod algorithms;
    mod annotate;
    mod clean;
    mod comments;
    mod confidence;
    mod css;
    mod decode;
    mod dom;
    mod hash;
    mod limits;
    mod metadata;
    mod model;
    mod pagetype;
    mod parse;
    mod prepare;
    mod render;
    mod text;
    #[cfg(feature = "templates")]
    mod templates;
}
mod atoms;
pub mod dedup;
mod document;
mod error;
mod extractor;
mod normalize;
mod options;

pub use algorithms::auto::{PRECISION_THRESHOLD, RECALL_THRESHOLD};
pub use algorithms::{Method, Param};
pub use comments::Comment;
pub use confidence::{AutoSignals, GenericSignals, Signals as ConfidenceSignals};
pub use decode::{CharsetSource, DEFAULT_MAX_INPUT, is_known_charset};
pub use document::{FIELDS as METADATA_FIELDS, LISTS as METADATA_LISTS};
pub use error::Error;
#[cfg(feature = "unstable")]
pub use extractor::Inspection;
pub use extractor::{Extraction, Extractor, JSON_SCHEMA, Skip, StageTimes};
pub use hash::simhash;
pub use limits::{ReadError, Stage, read_file_limited, read_limited};
pub use metadata::Metadata;
pub use options::{Format, Input, Options, Preset};
pub use pagetype::{PageType, Signals as PageTypeSignals};
#[cfg(feature = "unstable")]
pub use prepare::Prepared;

/// Extracts the main content of one page with `options`: the one-line
/// entry. (It builds the algorithm each time; for many pages build an
/// [`Extractor`] once.)
pub fn extract<'a>(input: impl Into<Input<'a>>, options: &Options) -> Result<Extraction, Error> {
    Extractor::new(options)?.extract(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_the_fields() {
        let opts = Options::new().with_format(Format::Json);
        let page =
            Input::new(b"<title>T</title><p>Hello there</p>").with_url("https://example.org/a");
        let e = extract(page, &opts).unwrap();
        let v: serde_json::Value = serde_json::from_str(&e.render()).unwrap();
        for k in ["url", "title", "text", "algorithm", "charset"] {
            assert!(v.get(k).is_some(), "missing {k}");
        }
        assert_eq!(v["title"], "T");
        assert_eq!(v["algorithm"], "auto");
        assert_eq!(v["charset"], "UTF-8");
    }

    #[test]
    fn extract_page_uses_the_pages_own_url_and_charset() {
        let ex = Extractor::new(&Options::default()).unwrap();
        // 0xE9 is "é" in windows-1252 and "й" in windows-1251 (а = 0xE0, й the tenth letter).
        let page = b"<title>T</title><p>caf\xE9 au lait</p>";
        let a = ex
            .extract(
                Input::new(page)
                    .with_url("https://a.example/")
                    .with_charset("windows-1251"),
            )
            .unwrap();
        assert_eq!(a.url.as_deref(), Some("https://a.example/"));
        assert_eq!(a.charset, "windows-1251");
        assert!(a.text.contains("cafй"), "{}", a.text);
        // The next page on the same extractor keeps none of it.
        let b = ex.extract(page).unwrap();
        assert_eq!(b.url, None);
        assert!(b.text.contains("café"), "{}", b.text);
    }

    #[test]
    fn windows_1252_page_with_uyghur_references_comes_out_as_base_letters() {
        // "ئۇيغۇرچە" (Uyghur), three ways on one windows-1252 page: as
        // decimal references to the base letters, as hex references to
        // presentation forms (ﺋ U+FE8B yeh-hamza initial, ﯘ U+FBD8 u final,
        // ﻳ U+FEF3 yeh initial, ﻐ U+FED0 ghain medial, ﯗ U+FBD7 u
        // isolated, ﺭ U+FEAD reh isolated, ﭼ U+FB7C tcheh initial, then ە
        // U+06D5, which has no presentation form), and with a named
        // reference and a raw windows-1252 byte around it (é = 0xE9).
        let base = "&#1574;&#1735;&#1610;&#1594;&#1735;&#1585;&#1670;&#1749;";
        let forms = "&#xFE8B;&#xFBD8;&#xFEF3;&#xFED0;&#xFBD7;&#xFEAD;&#xFB7C;&#x6D5;";
        let mut page = b"<html><head><meta charset=windows-1252></head><body><p>".to_vec();
        page.extend_from_slice(format!("{base} {forms} &amp; caf").as_bytes());
        page.push(0xE9);
        page.extend_from_slice(b"</p></body></html>");
        let e = extract(&page, &Options::default()).unwrap();
        assert_eq!(e.charset, "windows-1252");
        let word = "\u{0626}\u{06C7}\u{064A}\u{063A}\u{06C7}\u{0631}\u{0686}\u{06D5}";
        assert_eq!(e.text, format!("{word} {word} & café"));
    }

    #[test]
    fn mislabelled_page_decodes_right() {
        // Declares UTF-8, is GBK.
        let text = "这是一个用于测试的中文句子，内容足够长以便统计检测能够判断编码。".repeat(3);
        let (gbk, _, _) = encoding_rs::GBK.encode(&text);
        let mut page = b"<html><head><meta charset=utf-8></head><body><p>".to_vec();
        page.extend_from_slice(&gbk);
        page.extend_from_slice(b"</p></body></html>");
        let e = extract(&page, &Options::default()).unwrap();
        assert_eq!(e.charset, "GBK");
        assert_eq!(e.text, text);
    }

    #[test]
    fn tables_off_drops_data_tables_and_keeps_layout_tables() {
        let prose = "A sentence of the article that is long enough to be content here. ";
        let page = format!(
            "<html><body><nav><a href=/>Home</a></nav><article><p>{p}{p}</p>\
             <table><tr><th>City</th><th>People</th></tr><tr><td>Oslo</td><td>700000</td></tr></table>\
             <p>{p}{p}</p></article></body></html>",
            p = prose
        );
        let on = extract(&page, &Options::new().with_method(Method::CetdTpc)).unwrap();
        assert!(on.text.contains("Oslo"), "{}", on.text);
        let off_opts = Options::new()
            .with_method(Method::CetdTpc)
            .with_tables(false)
            .with_format(Format::Markdown);
        let off = extract(&page, &off_opts).unwrap();
        assert!(
            !off.text.contains("Oslo") && !off.text.contains("City"),
            "{}",
            off.text
        );
        assert!(!off.render().contains('|'), "{}", off.render());
        assert_eq!(off.text.matches("long enough").count(), 4, "{}", off.text);
        // A page laid out with a table keeps its content.
        let layout = format!(
            "<html><body><table><tr><td><a href=/>Home</a></td><td><p>{p}{p}{p}</p><p>{p}</p></td></tr></table></body></html>",
            p = prose
        );
        let off = extract(&layout, &Options::new().with_tables(false)).unwrap();
        assert!(off.text.contains("long enough"), "{}", off.text);
    }

    #[test]
    fn bad_inputs_give_clear_errors() {
        let o = Options::default();
        assert!(matches!(extract(b"", &o), Err(Error::EmptyInput)));
        let junk: Vec<u8> = (0..20_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        assert!(matches!(extract(&junk, &o), Err(Error::Binary { .. })));
        let small = Options::new().with_max_input_bytes(10);
        assert!(matches!(
            extract(b"<p>more than ten bytes</p>", &small),
            Err(Error::TooLarge { .. })
        ));
    }
}

/// The repository's README, whose Rust example is compiled as a doctest
/// (its other code blocks are shell, TOML, Python and JavaScript, which
/// rustdoc does not compile), so that the example stays true to the API.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
