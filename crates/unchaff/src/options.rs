//! What to extract and how: [`Options`] (built into an
//! [`crate::Extractor`] once) and [`Input`] (one page).

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use crate::Method;
use crate::decode;
use crate::error::Error;

/// Output formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Plain text, one block a line.
    #[default]
    Text,
    /// A JSON object (schema in `docs/json-schema.md`): text, markdown,
    /// metadata, and more.
    Json,
    /// Markdown: headings, lists, tables, code blocks, quotes, emphasis.
    Markdown,
    /// A clean, safe HTML fragment: whitelisted tags and attributes only
    /// (see `crate::render::html`).
    Html,
    /// XML in trafilatura's shape: `<doc>` with the metadata as
    /// attributes, `<main>` with the content (`<p>`, `<head rend="h2">`,
    /// `<list>`/`<item>`, `<quote>`, `<code>`, `<table>`/`<row>`/`<cell>`,
    /// `<hi rend="#b">`, `<ref target>`, `<graphic>`, `<lb/>`) and, with
    /// [`Options::comments`], `<comments>` (see `crate::render::xml`).
    Xml,
}

impl Format {
    /// Every format, in the order help texts list them.
    pub const ALL: [Format; 5] = [
        Format::Text,
        Format::Json,
        Format::Markdown,
        Format::Html,
        Format::Xml,
    ];

    /// The format's name: what [`Format::from_str`] reads and
    /// [`fmt::Display`] writes (`text`, `json`, `markdown`, `html`, `xml`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Html => "html",
            Format::Xml => "xml",
        }
    }

    /// Other names [`Format::from_str`] reads for the format: `txt`
    /// (trafilatura's name of plain text) and `md`.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Format::Text => &["txt"],
            Format::Markdown => &["md"],
            _ => &[],
        }
    }

    /// One line saying what the format holds, for help texts.
    pub fn summary(self) -> &'static str {
        match self {
            Format::Text => "Plain text, one block a line.",
            Format::Json => {
                "A JSON object: {\"schema\": 2, \"text\", \"markdown\", \"metadata\", \"title\", \
                 \"url\", \"charset\", …}."
            }
            Format::Markdown => "Markdown: headings, lists, tables, code blocks, quotes, emphasis.",
            Format::Html => "A clean, safe HTML fragment (whitelisted tags and attributes).",
            Format::Xml => {
                "XML in trafilatura's shape: <doc> with the metadata as attributes, <main> with \
                 the content, <comments> with the comments option."
            }
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = Error;

    /// A format by [`Format::name`] or one of its [`Format::aliases`]
    /// (ASCII case ignored); anything else is [`Error::BadOption`] naming
    /// the formats.
    fn from_str(s: &str) -> Result<Format, Error> {
        let s = s.trim();
        Format::ALL
            .into_iter()
            .find(|f| {
                f.name().eq_ignore_ascii_case(s)
                    || f.aliases().iter().any(|a| a.eq_ignore_ascii_case(s))
            })
            .ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                Error::BadOption(format!(
                    "unknown format {s:?} (the formats are: {})",
                    names.join(", ")
                ))
            })
    }
}

/// How sure of a block `auto` must be to keep it: the balance of
/// precision and recall. A preset stands for `auto`'s `threshold`
/// parameter (an explicit `threshold` still wins); other algorithms have
/// no presets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Preset {
    /// The model's own decision
    /// (`auto`'s threshold, a probability of 0.5).
    #[default]
    Balanced,
    /// Keep only the blocks the model is surest of
    /// (`auto`'s threshold raised to 0.65).
    Precision,
    /// Keep borderline blocks too
    /// (`auto`'s threshold lowered to 0.35).
    Recall,
}

impl Preset {
    /// Every preset.
    pub const ALL: [Preset; 3] = [Preset::Balanced, Preset::Precision, Preset::Recall];

    /// The preset's name (`balanced`, `precision`, `recall`).
    pub fn name(self) -> &'static str {
        match self {
            Preset::Balanced => "balanced",
            Preset::Precision => "precision",
            Preset::Recall => "recall",
        }
    }

    /// `auto`'s decision threshold under this preset.
    pub fn threshold(self) -> f32 {
        use crate::algorithms::auto::{PRECISION_THRESHOLD, RECALL_THRESHOLD, THRESHOLD};
        match self {
            Preset::Balanced => THRESHOLD,
            Preset::Precision => PRECISION_THRESHOLD,
            Preset::Recall => RECALL_THRESHOLD,
        }
    }

    /// The preset of two yes/no switches, "favour precision" and "favour
    /// recall", as front ends take them (`--precision` / `--recall`,
    /// `favor_precision` / `favor_recall`): both at once is
    /// [`Error::BadOption`], since they pull the threshold opposite ways.
    pub fn from_flags(precision: bool, recall: bool) -> Result<Preset, Error> {
        match (precision, recall) {
            (true, true) => Err(Error::BadOption(
                "the precision and recall presets exclude each other: choose one".to_owned(),
            )),
            (true, false) => Ok(Preset::Precision),
            (false, true) => Ok(Preset::Recall),
            (false, false) => Ok(Preset::Balanced),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = Error;

    /// A preset by [`Preset::name`] (ASCII case ignored).
    fn from_str(s: &str) -> Result<Preset, Error> {
        let s = s.trim();
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                Error::BadOption(format!(
                    "unknown preset {s:?} (the presets are: balanced, precision, recall)"
                ))
            })
    }
}

/// How to extract: the algorithm, its parameters, the output format and
/// the limits. Built into an [`crate::Extractor`] once, for many pages.
///
/// ```
/// use unchaff::{Format, Method, Options};
/// let opts = Options::new()
///     .with_method(Method::CetdTpc)
///     .with_param("lambda", "0.3")
///     .with_format(Format::Markdown);
/// assert_eq!(opts.method, Method::CetdTpc);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Options {
    /// The algorithm ([`Method::Auto`] by default).
    pub method: Method,
    /// Algorithm parameters, `key=value`, checked when the extractor is
    /// built (an unknown key or a malformed value is an error).
    pub params: Vec<(String, String)>,
    /// `auto`'s balance of precision and recall ([`Preset::Balanced`] by
    /// default); another preset with another algorithm is
    /// [`Error::BadOption`] when the extractor is built. An explicit
    /// `threshold` in [`Options::params`] wins over it.
    pub preset: Preset,
    /// Keep comment sections (reader comments, replies under an article)
    /// in the text (`auto` only: with another algorithm it is
    /// [`Error::BadOption`] when the extractor is built). Independent of
    /// [`Options::comments`], which reports them apart.
    pub include_comments: bool,
    /// The format [`crate::Extraction::render`] produces.
    pub format: Format,
    /// The largest input accepted, after decompression
    /// ([`decode::DEFAULT_MAX_INPUT`] by default).
    pub max_input_bytes: usize,
    /// The most elements a page may build (its own tags and those the
    /// HTML5 tree builder adds); more is [`crate::Error::TooManyElements`].
    /// `None` (the default) is `crate::limits::element_budget` of the
    /// input's size (200,000 plus one per 8 bytes, which bounds memory per
    /// input byte), and no more than `crate::limits::synthesized_budget`
    /// of the page's start tags (its own elements, plus 10,000 and one per 2
    /// start tags made up by the tree builder: what stops formatting
    /// amplification early). Real pages are untouched: the dev data builds
    /// at most 28,000 nodes, and at most 294 elements not in its markup.
    /// The defaults also hold the elements' estimated memory to
    /// `crate::limits::memory_budget` (40 MB plus 6 bytes per input byte;
    /// more is [`crate::Error::TooDense`]).
    /// A number set here is the whole budget (no default applies).
    pub max_elements: Option<usize>,
    /// The most time one page may take, checked inside the stages (the
    /// pre-pass and parse at intervals, the statistics pass, the algorithm,
    /// between renderers): past it the page is [`crate::Error::Timeout`],
    /// at the deadline rather than when the page is done. `None` (the
    /// default): no limit.
    pub timeout: Option<Duration>,
    /// A site template library (cargo feature `templates`): the recurring
    /// leaf tags of the page's site (its [`Input::url`] host) are deleted
    /// before any algorithm runs.
    pub templates: Option<PathBuf>,
    /// Markdown renders links as `[text](href)`.
    pub links: bool,
    /// Markdown renders images as `![alt](src)`.
    pub images: bool,
    /// JSON output carries the clean HTML too.
    pub json_html: bool,
    /// Tables inside the main content are rendered (the default); when
    /// false they are left out of every format. A table that holds the
    /// content itself (a page laid out with tables) is kept. Algorithms
    /// that select source lines rather than nodes (`cetr*`) ignore it.
    pub tables: bool,
    /// [`Format::Markdown`] opens with the page's title as a level-1
    /// heading (`# Title`), unless the content already opens with a
    /// heading of that text (the default). The JSON output's `markdown`
    /// never has it: the title is its own field there.
    pub markdown_title: bool,
    /// Fill [`crate::Extraction::metadata`] (title, author, dates, …) for
    /// every format; when false, only [`Format::Json`] output computes it
    /// (the other formats never show it, and it costs ~5% of the time).
    /// With it, [`crate::Extraction::page_type`] is filled too.
    pub metadata: bool,
    /// CSS selectors (each a selector list) of elements removed before
    /// the algorithm runs, as trafilatura's `prune_xpath`: what they match
    /// is never content (the metadata is read before). See `crate::css`
    /// for what selectors can say; one that does not parse is
    /// [`crate::Error::BadSelector`] when the extractor is built.
    pub exclude: Vec<String>,
    /// CSS selectors of the content itself: when given, the content is
    /// exactly the elements they match (after [`Options::exclude`]), in
    /// document order, and the algorithm does not run. A page where none
    /// matches has an empty text.
    pub include: Vec<String>,
    /// Fill [`crate::Extraction::comments`]: the page's comments apart
    /// from its content, one per comment with its author (`auto` only;
    /// other algorithms tell no comments apart). Independent of
    /// [`Options::include_comments`], which merges comments into the text.
    pub comments: bool,
    /// The languages wanted (ISO 639-1 codes such as `en`, `de`; case
    /// ignored): a page whose text is detected as another language is
    /// marked [`crate::Skip::Language`] in [`crate::Extraction::skipped`].
    /// Empty (the default): no language filter, and no detection cost.
    pub languages: Vec<String>,
    /// Pages whose [`crate::Extraction::confidence`] is below this are
    /// marked [`crate::Skip::Confidence`] in
    /// [`crate::Extraction::skipped`]. `None` (the default): no filter.
    pub min_confidence: Option<f32>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            method: Method::Auto,
            params: Vec::new(),
            preset: Preset::Balanced,
            include_comments: false,
            format: Format::Text,
            max_input_bytes: decode::DEFAULT_MAX_INPUT,
            max_elements: None,
            timeout: None,
            templates: None,
            links: false,
            images: false,
            json_html: false,
            tables: true,
            markdown_title: true,
            metadata: true,
            exclude: Vec::new(),
            include: Vec::new(),
            comments: false,
            languages: Vec::new(),
            min_confidence: None,
        }
    }
}

impl Options {
    /// The defaults: `auto`, plain text, metadata on.
    pub fn new() -> Options {
        Options::default()
    }

    /// Sets [`Options::method`].
    pub fn with_method(mut self, method: Method) -> Options {
        self.method = method;
        self
    }

    /// Adds one algorithm parameter (see [`Options::params`]).
    pub fn with_param(mut self, key: impl Into<String>, value: impl Into<String>) -> Options {
        self.params.push((key.into(), value.into()));
        self
    }

    /// Sets [`Options::preset`].
    pub fn with_preset(mut self, preset: Preset) -> Options {
        self.preset = preset;
        self
    }

    /// Sets [`Options::include_comments`].
    pub fn with_include_comments(mut self, on: bool) -> Options {
        self.include_comments = on;
        self
    }

    /// The algorithm's parameters: what [`Options::preset`] and
    /// [`Options::include_comments`] stand for (`auto`'s `threshold` and
    /// `include-comments`), then [`Options::params`], so that an explicit
    /// parameter wins. A preset or included comments with an algorithm
    /// other than `auto` is [`Error::BadOption`].
    pub fn algorithm_params(&self) -> Result<Vec<(String, String)>, Error> {
        let auto_only = |what: String| {
            Error::BadOption(format!(
                "{what} is an option of the auto algorithm; {m} has none (`unchaff algorithms {m}` \
                 lists its parameters)",
                m = self.method
            ))
        };
        let mut params = Vec::with_capacity(self.params.len() + 2);
        if self.preset != Preset::Balanced {
            if self.method != Method::Auto {
                return Err(auto_only(format!("the {} preset", self.preset)));
            }
            params.push(("threshold".to_owned(), self.preset.threshold().to_string()));
        }
        if self.include_comments {
            if self.method != Method::Auto {
                return Err(auto_only("including comments".to_owned()));
            }
            params.push(("include-comments".to_owned(), "1".to_owned()));
        }
        params.extend(self.params.iter().cloned());
        Ok(params)
    }

    /// Sets [`Options::format`].
    pub fn with_format(mut self, format: Format) -> Options {
        self.format = format;
        self
    }

    /// Sets [`Options::max_input_bytes`].
    pub fn with_max_input_bytes(mut self, limit: usize) -> Options {
        self.max_input_bytes = limit;
        self
    }

    /// Sets [`Options::max_elements`].
    pub fn with_max_elements(mut self, limit: usize) -> Options {
        self.max_elements = Some(limit);
        self
    }

    /// Sets [`Options::timeout`].
    pub fn with_timeout(mut self, limit: Duration) -> Options {
        self.timeout = Some(limit);
        self
    }

    /// Sets [`Options::templates`].
    pub fn with_templates(mut self, library: impl Into<PathBuf>) -> Options {
        self.templates = Some(library.into());
        self
    }

    /// Sets [`Options::links`].
    pub fn with_links(mut self, on: bool) -> Options {
        self.links = on;
        self
    }

    /// Sets [`Options::images`].
    pub fn with_images(mut self, on: bool) -> Options {
        self.images = on;
        self
    }

    /// Sets [`Options::json_html`].
    pub fn with_json_html(mut self, on: bool) -> Options {
        self.json_html = on;
        self
    }

    /// Sets [`Options::tables`].
    pub fn with_tables(mut self, on: bool) -> Options {
        self.tables = on;
        self
    }

    /// Sets [`Options::markdown_title`].
    pub fn with_markdown_title(mut self, on: bool) -> Options {
        self.markdown_title = on;
        self
    }

    /// Sets [`Options::metadata`].
    pub fn with_metadata(mut self, on: bool) -> Options {
        self.metadata = on;
        self
    }

    /// Adds a selector to [`Options::exclude`].
    pub fn with_exclude(mut self, selector: impl Into<String>) -> Options {
        self.exclude.push(selector.into());
        self
    }

    /// Adds a selector to [`Options::include`].
    pub fn with_include(mut self, selector: impl Into<String>) -> Options {
        self.include.push(selector.into());
        self
    }

    /// Sets [`Options::comments`].
    pub fn with_comments(mut self, on: bool) -> Options {
        self.comments = on;
        self
    }

    /// Adds a language to [`Options::languages`].
    pub fn with_language(mut self, code: impl Into<String>) -> Options {
        self.languages.push(code.into());
        self
    }

    /// Sets [`Options::min_confidence`].
    pub fn with_min_confidence(mut self, min: f32) -> Options {
        self.min_confidence = Some(min);
        self
    }
}

/// One page to extract: its bytes as fetched (any charset, gzip or not),
/// and what is known of it from outside — its URL and a charset from an
/// HTTP `Content-Type` header.
///
/// Plain bytes or strings convert into an input without either:
///
/// ```
/// let ex = unchaff::Extractor::new(&unchaff::Options::default()).unwrap();
/// let page = b"<article><p>Some main text of the page.</p></article>";
/// let a = ex.extract(page).unwrap();
/// let b = ex.extract(unchaff::Input::new(page).with_url("https://example.org/a")).unwrap();
/// assert_eq!(a.text, b.text);
/// assert_eq!(b.url.as_deref(), Some("https://example.org/a"));
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Input<'a> {
    /// The page's bytes.
    pub bytes: &'a [u8],
    /// The page's URL: reported, resolves relative links, and names the
    /// site for site-aware algorithms and template libraries.
    pub url: Option<&'a str>,
    /// A charset from outside the page (an HTTP `Content-Type` header):
    /// it beats the page's own `<meta>` declaration, as in browsers.
    pub charset: Option<&'a str>,
}

impl<'a> Input<'a> {
    /// A page with no URL and no outside charset.
    pub fn new(bytes: &'a [u8]) -> Input<'a> {
        Input {
            bytes,
            url: None,
            charset: None,
        }
    }

    /// Sets [`Input::url`] (`None` clears it).
    pub fn with_url(mut self, url: impl Into<Option<&'a str>>) -> Input<'a> {
        self.url = url.into();
        self
    }

    /// Sets [`Input::charset`] (`None` clears it).
    pub fn with_charset(mut self, charset: impl Into<Option<&'a str>>) -> Input<'a> {
        self.charset = charset.into();
        self
    }
}

impl<'a> From<&'a [u8]> for Input<'a> {
    fn from(bytes: &'a [u8]) -> Input<'a> {
        Input::new(bytes)
    }
}

impl<'a, const N: usize> From<&'a [u8; N]> for Input<'a> {
    fn from(bytes: &'a [u8; N]) -> Input<'a> {
        Input::new(bytes)
    }
}

impl<'a> From<&'a Vec<u8>> for Input<'a> {
    fn from(bytes: &'a Vec<u8>) -> Input<'a> {
        Input::new(bytes)
    }
}

impl<'a> From<&'a str> for Input<'a> {
    fn from(html: &'a str) -> Input<'a> {
        Input::new(html.as_bytes())
    }
}

impl<'a> From<&'a String> for Input<'a> {
    fn from(html: &'a String) -> Input<'a> {
        Input::new(html.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_read_their_names_and_aliases() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>().unwrap(), f);
            assert_eq!(f.to_string(), f.name());
        }
        assert_eq!("txt".parse::<Format>().unwrap(), Format::Text);
        assert_eq!("MD".parse::<Format>().unwrap(), Format::Markdown);
        let e = "yaml".parse::<Format>().unwrap_err().to_string();
        assert!(
            e.contains("the formats are: text, json, markdown, html, xml"),
            "{e}"
        );
    }

    #[test]
    fn presets_are_auto_thresholds_given_first() {
        assert!(Preset::from_flags(true, true).is_err());
        assert_eq!(Preset::from_flags(false, true).unwrap(), Preset::Recall);
        assert_eq!("precision".parse::<Preset>().unwrap(), Preset::Precision);
        let o = Options::new()
            .with_preset(Preset::Precision)
            .with_include_comments(true)
            .with_param("threshold", "0.4");
        let p = o.algorithm_params().unwrap();
        let expected: Vec<(String, String)> = [
            ("threshold", "0.65"),
            ("include-comments", "1"),
            ("threshold", "0.4"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(p, expected);
        assert!(Options::new().algorithm_params().unwrap().is_empty());
        let other = Options::new().with_method(Method::Cetd);
        assert!(
            other
                .clone()
                .with_preset(Preset::Recall)
                .algorithm_params()
                .is_err()
        );
        assert!(
            other
                .with_include_comments(true)
                .algorithm_params()
                .is_err()
        );
    }
}
