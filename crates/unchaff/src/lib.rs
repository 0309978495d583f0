//! unchaff pulls the main content out of web pages — the article, the post,
//! the documentation text — and drops the chaff around it.
//!
//! The pipeline is the architecture; each stage is one module:
//!
//! ```text
//! bytes ─decode─▶ UTF-8 ─parse─▶ Dom ─clean─▶ Dom ─annotate─▶ Page
//!       ─score/select (one algorithm)─▶ Selection ─render─▶ text / JSON
//! ```
//!
//! [`extract`] runs it all; [`Extractor`] keeps a built algorithm for many
//! pages and can time each stage. The stages are public for tools that need
//! one of them alone.
//!
//! ```
//! let html = b"<html><body><nav><a href=/>Home</a></nav>\
//!     <article><p>The main text of the page, long enough to win.</p></article></body></html>";
//! let out = unchaff::extract(html, &unchaff::Options::default()).unwrap();
//! assert!(out.text.contains("main text"));
//! ```

#![warn(missing_docs)]

pub mod algorithms;
pub mod annotate;
pub mod clean;
pub mod decode;
pub mod dom;
pub mod gbdt;
pub mod metadata;
pub mod normalize;
pub mod parse;
pub mod render;
pub mod svm;
pub mod templates;

use std::time::{Duration, Instant};

pub use algorithms::{Algorithm, Selection};
pub use decode::CharsetSource;
pub use dom::NodeId;
pub use metadata::Metadata;

/// Everything that can go wrong. Extraction itself never fails on odd
/// HTML; errors are about input that is not a page at all, or options
/// that make no sense.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Zero bytes (after decompression).
    #[error("input is empty")]
    EmptyInput,
    /// Input larger than [`Options::max_input_bytes`].
    #[error("input is larger than the limit of {limit} bytes")]
    TooLarge {
        /// The limit in force.
        limit: usize,
    },
    /// Input that is binary data, not text.
    #[error("input is binary data, not an HTML page ({percent}% control bytes in its first 8 KiB)")]
    Binary {
        /// Share of control bytes seen.
        percent: u32,
    },
    /// A gzip stream that is corrupt or cut short.
    #[error("gzip input is corrupt or truncated: {0}")]
    Gzip(String),
    /// A charset label no browser knows.
    #[error("unknown charset {0:?}")]
    UnknownCharset(String),
    /// An algorithm name not in the registry.
    #[error("unknown algorithm {0:?} (`unchaff algorithms` lists them)")]
    UnknownAlgorithm(String),
    /// A malformed or unknown algorithm parameter.
    #[error("bad parameter {name:?}: {reason}")]
    BadParam {
        /// The parameter's name.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A trained model that cannot be read, or training that cannot run.
    #[error("model: {0}")]
    Model(String),
    /// The template library (SQLite) cannot be opened, read or written.
    #[error("template library: {0}")]
    Templates(String),
}

/// Output formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Plain text, one block a line.
    #[default]
    Text,
    /// A JSON object (schema in `docs/json-schema.md`): text, markdown,
    /// metadata, and more.
    Json,
    /// Markdown: headings, lists, tables, code blocks, quotes, emphasis.
    Markdown,
    /// A clean, safe HTML fragment (see [`render::html`]).
    Html,
}

/// The version of the JSON output's schema (`docs/json-schema.md`).
pub const JSON_SCHEMA: u32 = 1;

/// How to extract.
#[derive(Clone, Debug)]
pub struct Options {
    /// The page's URL, if known (reported; used by site-aware algorithms).
    pub url: Option<String>,
    /// A charset from outside the page (an HTTP `Content-Type` header).
    pub charset: Option<String>,
    /// The algorithm's name (see [`algorithms::REGISTRY`]); `"auto"` is the
    /// default algorithm.
    pub algorithm: String,
    /// Algorithm parameters, `key=value`.
    pub params: Vec<(String, String)>,
    /// The format [`Extraction::render`] produces.
    pub format: Format,
    /// The largest input accepted, after decompression.
    pub max_input_bytes: usize,
    /// A site template library ([`templates`], SPEC §6.1): the leaf tags
    /// of the page's site (its [`Options::url`] host) are deleted before
    /// any algorithm runs.
    pub templates: Option<std::path::PathBuf>,
    /// Markdown renders links as `[text](href)`.
    pub links: bool,
    /// Markdown renders images as `![alt](src)`.
    pub images: bool,
    /// JSON output carries the clean HTML too.
    pub json_html: bool,
    /// Fill [`Extraction::metadata`] (title, author, dates, …) for every
    /// format; when false, only [`Format::Json`] output computes it (the
    /// other formats never show it, and it costs ~5% of the time).
    pub metadata: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            url: None,
            charset: None,
            algorithm: "auto".to_owned(),
            params: Vec::new(),
            format: Format::Text,
            max_input_bytes: decode::DEFAULT_MAX_INPUT,
            templates: None,
            links: false,
            images: false,
            json_html: false,
            metadata: true,
        }
    }
}

/// The result of extracting one page.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Extraction {
    /// The page URL, as given in [`Options::url`].
    pub url: Option<String>,
    /// The page title (`<title>`, as written; [`Metadata::title`] is the
    /// cleaned-up article title).
    pub title: Option<String>,
    /// The main content as plain text.
    pub text: String,
    /// The main content as Markdown (for the Markdown and JSON formats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// The main content as clean HTML (for the HTML format, and JSON with
    /// [`Options::json_html`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// The page's metadata.
    pub metadata: Metadata,
    /// The algorithm that produced it.
    pub algorithm: String,
    /// The charset the page was decoded with (WHATWG name).
    pub charset: String,
    /// Why that charset.
    pub charset_source: CharsetSource,
    /// The selected nodes (each stands for its subtree).
    #[serde(skip)]
    pub selected: Vec<NodeId>,
    #[serde(skip)]
    format: Format,
}

impl Extraction {
    /// The extraction in the format the options asked for.
    pub fn render(&self) -> String {
        match self.format {
            Format::Text => self.text.clone(),
            Format::Markdown => self.markdown.clone().unwrap_or_default(),
            Format::Html => self.html.clone().unwrap_or_default(),
            Format::Json => {
                #[derive(serde::Serialize)]
                struct Versioned<'a> {
                    schema: u32,
                    #[serde(flatten)]
                    e: &'a Extraction,
                }
                serde_json::to_string(&Versioned {
                    schema: JSON_SCHEMA,
                    e: self,
                })
                .unwrap_or_default()
            }
        }
    }
}

/// Time spent in each stage (summed over the pages an [`Extractor`] ran).
#[derive(Clone, Copy, Debug, Default)]
pub struct StageTimes {
    /// gunzip + charset detection + decoding.
    pub decode: Duration,
    /// HTML5 tree building.
    pub parse: Duration,
    /// Cleaning + the statistics pass.
    pub annotate: Duration,
    /// The algorithm.
    pub algorithm: Duration,
    /// Rendering text.
    pub render: Duration,
}

impl StageTimes {
    /// The sum of all stages.
    pub fn total(&self) -> Duration {
        self.decode + self.parse + self.annotate + self.algorithm + self.render
    }

    /// Adds another set of times to this one.
    pub fn add(&mut self, o: &StageTimes) {
        self.decode += o.decode;
        self.parse += o.parse;
        self.annotate += o.annotate;
        self.algorithm += o.algorithm;
        self.render += o.render;
    }
}

/// An algorithm built once, for many pages.
pub struct Extractor {
    algorithm: Box<dyn Algorithm>,
    options: Options,
    /// Every site's template, read once from the library when one is given.
    templates: Option<std::collections::BTreeMap<String, templates::EntrySet>>,
}

/// Share of control bytes in the first [`BINARY_SNIFF_BYTES`] above which
/// input is called binary: real HTML has none, stray ones come in ones and
/// twos; random bytes have ~10%, images and archives far more.
pub const BINARY_CONTROL_PERCENT: u32 = 2;

/// How much of the input the binary check reads.
pub const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// Fewest control bytes that make input binary: a short text with a few
/// stray control characters is still text.
pub const BINARY_MIN_CONTROLS: usize = 32;

impl Extractor {
    /// Builds the algorithm the options name.
    /// With a template library (from [`Options::templates`], or an
    /// algorithm's `templates=FILE` parameter) the library is opened once
    /// and every site's entries are read into memory.
    pub fn new(options: &Options) -> Result<Extractor, Error> {
        let algorithm = algorithms::build(&options.algorithm, &options.params)?;
        let path = options
            .templates
            .clone()
            .or_else(|| algorithm.templates().map(std::path::Path::to_path_buf));
        let templates = match path {
            Some(p) => Some(templates::Library::open(&p)?.all_sites()?),
            None => None,
        };
        Ok(Extractor {
            algorithm,
            options: options.clone(),
            templates,
        })
    }

    /// The algorithm's name.
    pub fn algorithm_name(&self) -> &'static str {
        self.algorithm.name()
    }

    /// Extracts one page.
    pub fn extract(&self, bytes: &[u8]) -> Result<Extraction, Error> {
        self.extract_timed(bytes, &mut StageTimes::default())
    }

    /// Extracts one page, adding each stage's time to `times`.
    pub fn extract_timed(&self, bytes: &[u8], times: &mut StageTimes) -> Result<Extraction, Error> {
        let (url, charset) = (self.options.url.as_deref(), self.options.charset.as_deref());
        self.extract_page(bytes, url, charset, times)
    }

    /// Extracts one page whose URL (or site id) is `url`, overriding
    /// [`Options::url`] (for batches of pages from several sites).
    pub fn extract_url(&self, bytes: &[u8], url: Option<&str>) -> Result<Extraction, Error> {
        let charset = self.options.charset.as_deref();
        self.extract_page(bytes, url, charset, &mut StageTimes::default())
    }

    /// Extracts one page whose URL and outside charset are its own rather
    /// than the options' (a batch of pages from many sites, one algorithm
    /// built once), adding each stage's time to `times`.
    pub fn extract_page(
        &self,
        bytes: &[u8],
        url: Option<&str>,
        charset: Option<&str>,
        times: &mut StageTimes,
    ) -> Result<Extraction, Error> {
        self.extract_inner(bytes, url, charset, times, None)
            .map(|(x, _)| x)
    }

    /// Extracts one page as [`Extractor::extract_url`] does and also
    /// scores it leaf by leaf against `gold` (paper 5's evaluation,
    /// [`algorithms::template_svm::leaf_counts`]). Leaves that the site
    /// template deletes count as not extracted.
    pub fn extract_leaves(
        &self,
        bytes: &[u8],
        url: Option<&str>,
        gold: &str,
    ) -> Result<(Extraction, algorithms::template_svm::LeafCounts), Error> {
        let charset = self.options.charset.as_deref();
        let (x, counts) =
            self.extract_inner(bytes, url, charset, &mut StageTimes::default(), Some(gold))?;
        Ok((x, counts.unwrap_or_default()))
    }

    fn extract_inner(
        &self,
        bytes: &[u8],
        url: Option<&str>,
        charset: Option<&str>,
        times: &mut StageTimes,
        gold: Option<&str>,
    ) -> Result<(Extraction, Option<algorithms::template_svm::LeafCounts>), Error> {
        use algorithms::template_svm as ts;
        let t0 = Instant::now();
        let max = self.options.max_input_bytes;
        if bytes.len() > max {
            return Err(Error::TooLarge { limit: max });
        }
        let raw = decode::gunzip_if_needed(bytes, max)?;
        if raw.is_empty() {
            return Err(Error::EmptyInput);
        }
        let decoded = decode::decode(&raw, charset)?;
        if !matches!(decoded.encoding.name(), "UTF-16LE" | "UTF-16BE") {
            check_not_binary(&raw)?;
        }
        drop(raw);
        let t1 = Instant::now();
        let mut dom = parse::parse(&decoded.text);
        let t2 = Instant::now();
        let root = dom.content_root();
        // The page's own URL (a batch gives each page its own).
        let page_url = url.and_then(|u| url::Url::parse(u).ok());
        // Before cleaning: the head and the body's scripts are still linked.
        let want_meta = self.options.metadata || self.options.format == Format::Json;
        let mut meta = if want_meta {
            metadata::metadata(&dom, page_url.as_ref(), "")
        } else {
            Metadata::default()
        };
        let base = match self.options.format {
            Format::Text => None,
            _ => render::base_url(&dom, url),
        };
        clean::clean(&mut dom, root);
        let mut removed = ts::LeafCounts::default();
        if let Some(site) = self
            .templates
            .as_ref()
            .zip(url)
            .and_then(|(t, u)| t.get(&templates::site_key(u)))
        {
            let hits = site.matches(&dom, root);
            if let Some(gold) = gold {
                // Deleted leaves are leaves not extracted.
                let grams = ts::GoldGrams::new(gold);
                let mut toks = Vec::new();
                for &h in &hits {
                    for c in dom.children(h) {
                        toks.clear();
                        ts::tokens(dom.text_of(c).unwrap_or(""), &mut toks);
                        if let Some(l) = grams.label(&toks) {
                            removed.add(l, false);
                        }
                    }
                }
            }
            for h in hits {
                dom.detach(h);
            }
        }
        let mut page = annotate::annotate(&dom, &decoded.text, root);
        page.url = url;
        let t3 = Instant::now();
        let selection = self.algorithm.run(&page);
        let leaves = gold.map(|g| {
            let mut c = ts::leaf_counts(&page, &selection, g);
            c.tp += removed.tp;
            c.fp += removed.fp;
            c.fn_ += removed.fn_;
            c.tn += removed.tn;
            c
        });
        let t4 = Instant::now();
        let text = render::text(&dom, root, &selection);
        let title = render::title(&dom);
        let fmt = self.options.format;
        let markdown = matches!(fmt, Format::Markdown | Format::Json).then(|| {
            let o = render::MarkdownOptions {
                links: self.options.links,
                images: self.options.images,
            };
            render::markdown(&dom, root, &selection, base.as_ref(), o)
        });
        let html = (fmt == Format::Html || (fmt == Format::Json && self.options.json_html))
            .then(|| render::html(&dom, root, &selection, base.as_ref()));
        if want_meta {
            metadata::detect_language(&mut meta, &text);
        }
        let t5 = Instant::now();
        times.decode += t1 - t0;
        times.parse += t2 - t1;
        times.annotate += t3 - t2;
        times.algorithm += t4 - t3;
        times.render += t5 - t4;
        let extraction = Extraction {
            url: url.map(str::to_owned),
            title,
            text,
            markdown,
            html,
            metadata: meta,
            algorithm: self.algorithm.name().to_owned(),
            charset: decoded.encoding.name().to_owned(),
            charset_source: decoded.source,
            selected: selection.nodes,
            format: self.options.format,
        };
        Ok((extraction, leaves))
    }
}

/// Fails on input whose first bytes are mostly control characters.
fn check_not_binary(bytes: &[u8]) -> Result<(), Error> {
    let head = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b))
        .count();
    let percent = (controls * 100 / head.len().max(1)) as u32;
    if controls >= BINARY_MIN_CONTROLS
        && controls * 100 > head.len() * BINARY_CONTROL_PERCENT as usize
    {
        return Err(Error::Binary { percent });
    }
    Ok(())
}

/// A page taken through decode, parse and clean, ready to annotate: what
/// training code needs from the pipeline (no templates, no metadata).
pub struct Prepared {
    /// The decoded source.
    pub text: String,
    /// The cleaned tree.
    pub dom: dom::Dom,
    /// The content root (`<body>`).
    pub root: NodeId,
}

impl Prepared {
    /// Decodes (gzip, charset), parses and cleans `bytes`.
    pub fn new(bytes: &[u8]) -> Result<Prepared, Error> {
        let raw = decode::gunzip_if_needed(bytes, decode::DEFAULT_MAX_INPUT)?;
        if raw.is_empty() {
            return Err(Error::EmptyInput);
        }
        let text = decode::decode(&raw, None)?.text;
        drop(raw);
        let mut dom = parse::parse(&text);
        let root = dom.content_root();
        clean::clean(&mut dom, root);
        Ok(Prepared { text, dom, root })
    }

    /// The annotated page.
    pub fn page(&self) -> annotate::Page<'_> {
        annotate::annotate(&self.dom, &self.text, self.root)
    }
}

/// Extracts the main content of one page with `options`.
pub fn extract(bytes: &[u8], options: &Options) -> Result<Extraction, Error> {
    Extractor::new(options)?.extract(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_has_the_fields() {
        let opts = Options {
            url: Some("https://example.org/a".into()),
            format: Format::Json,
            ..Options::default()
        };
        let e = extract(b"<title>T</title><p>Hello there</p>", &opts).unwrap();
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
        let mut t = StageTimes::default();
        let a = ex
            .extract_page(
                page,
                Some("https://a.example/"),
                Some("windows-1251"),
                &mut t,
            )
            .unwrap();
        assert_eq!(a.url.as_deref(), Some("https://a.example/"));
        assert_eq!(a.charset, "windows-1251");
        assert!(a.text.contains("cafй"), "{}", a.text);
        // The next page on the same extractor keeps none of it.
        let b = ex.extract_page(page, None, None, &mut t).unwrap();
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
    fn bad_inputs_give_clear_errors() {
        let o = Options::default();
        assert!(matches!(extract(b"", &o), Err(Error::EmptyInput)));
        let junk: Vec<u8> = (0..20_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        assert!(matches!(extract(&junk, &o), Err(Error::Binary { .. })));
        let small = Options {
            max_input_bytes: 10,
            ..Options::default()
        };
        assert!(matches!(
            extract(b"<p>more than ten bytes</p>", &small),
            Err(Error::TooLarge { .. })
        ));
    }
}
