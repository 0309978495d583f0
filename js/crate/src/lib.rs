//! The WebAssembly side of the `unchaff` npm package (`js/`): the core
//! library behind a small wasm-bindgen surface that the package's
//! JavaScript (`js/src/`) wraps into its public API.
//!
//! * [`Extractor`] — built once from the options (as JSON, the package's
//!   option names), then one page at a time: bytes (the core's own
//!   charset detection and gunzip) or a string (UTF-8 whatever its
//!   `<meta>` says: a JavaScript string is already decoded).
//! * [`extract_metadata`] — the metadata of one page.
//! * Errors are a [`Failure`]: the library's error kind (the names
//!   `unchaff batch` writes in its rows: `empty`, `binary`, `too_large`,
//!   …) and its message, which the JavaScript turns into an `Error`
//!   subclass.

use std::cell::OnceCell;
use std::collections::BTreeMap;

use serde::Deserialize;
use unchaff::{Error, Format, Method, Options, Preset};
use wasm_bindgen::prelude::*;

/// Milliseconds in a second, for [`ExtractOptions::timeout`].
const MS_PER_SECOND: f64 = 1000.0;

/// The formats the package offers (XML is the command line's only).
const FORMATS: [Format; 4] = [Format::Text, Format::Markdown, Format::Html, Format::Json];

/// An error of the library, as JavaScript sees it before the package
/// makes it an `Error` subclass.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Failure {
    kind: &'static str,
    message: String,
}

#[wasm_bindgen]
impl Failure {
    /// The error's kind: `empty`, `binary`, `too_large`,
    /// `too_many_elements`, `timeout`, `gzip`, `charset`, `algorithm`,
    /// `option`, `model`, `templates`, `read` or `extract`.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        self.kind.to_owned()
    }

    /// The library's message.
    #[wasm_bindgen(getter)]
    pub fn message(&self) -> String {
        self.message.clone()
    }
}

impl Failure {
    /// A bad option given from JavaScript.
    fn option(message: impl Into<String>) -> Failure {
        Failure {
            kind: "option",
            message: message.into(),
        }
    }
}

impl From<Error> for Failure {
    fn from(e: Error) -> Failure {
        let kind = match &e {
            Error::EmptyInput => "empty",
            Error::TooLarge { .. } => "too_large",
            Error::Binary { .. } => "binary",
            Error::TooManyElements { .. } => "too_many_elements",
            // Over the memory budget for the page's size: the same kind as
            // in batch rows and the service.
            Error::TooDense { .. } => "too_many_elements",
            Error::Timeout { .. } => "timeout",
            Error::Io(_) => "read",
            Error::Gzip(_) => "gzip",
            Error::UnknownCharset(_) => "charset",
            Error::UnknownAlgorithm(_) => "algorithm",
            Error::BadParam { .. } | Error::BadOption(_) => "option",
            Error::Model(_) => "model",
            Error::Templates(_) => "templates",
            _ => "extract",
        };
        Failure {
            kind,
            message: e.to_string(),
        }
    }
}

/// The options of `extract` and `new Extractor()`, with the package's
/// names (the JavaScript drops `url` and `charset`, which are per page,
/// before it sends them).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
struct ExtractOptions {
    /// `text` (default), `markdown`, `html` or `json`.
    format: Option<String>,
    /// Keep comment sections (`auto` only).
    include_comments: bool,
    /// Data tables in the output (default true).
    include_tables: Option<bool>,
    /// Markdown links `[text](url)`.
    include_links: bool,
    /// Markdown images `![alt](src)`.
    include_images: bool,
    /// JSON output carries the clean HTML too.
    include_html: bool,
    /// A preset of `auto`'s threshold: `precision`, `recall` (or
    /// `balanced`, the default).
    favor: Option<String>,
    /// The algorithm (default `auto`).
    algorithm: Option<String>,
    /// Algorithm parameters; numbers and booleans become their text
    /// (`true` is `1`).
    params: BTreeMap<String, serde_json::Value>,
    /// The largest input accepted, in bytes.
    max_input_bytes: Option<f64>,
    /// The most time one page may take, in milliseconds.
    timeout: Option<f64>,
}

impl ExtractOptions {
    /// The core's options, checked as the command line checks its flags.
    fn to_core(&self) -> Result<Options, Failure> {
        let format = self.format.as_deref().unwrap_or("text");
        let format = format
            .parse::<Format>()
            .ok()
            .filter(|f| FORMATS.contains(f))
            .ok_or_else(|| {
                let names: Vec<String> =
                    FORMATS.iter().map(|f| format!("{:?}", f.name())).collect();
                Failure::option(format!(
                    "unknown format {format:?} (the formats are {})",
                    names.join(", ")
                ))
            })?;
        let method: Method = self.algorithm.as_deref().unwrap_or("auto").parse()?;
        // Metadata only where it is shown (JSON computes it anyway).
        let mut o = Options::new()
            .with_method(method)
            .with_format(format)
            .with_metadata(false)
            .with_links(self.include_links)
            .with_images(self.include_images)
            .with_json_html(self.include_html)
            .with_tables(self.include_tables.unwrap_or(true));
        let preset = match self.favor.as_deref() {
            None => Preset::Balanced,
            Some(f) => f.parse::<Preset>()?,
        };
        o = o
            .with_preset(preset)
            .with_include_comments(self.include_comments);
        for (k, v) in &self.params {
            let v = match v {
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Bool(b) => if *b { "1" } else { "0" }.to_owned(),
                serde_json::Value::Number(n) => n.to_string(),
                other => {
                    return Err(Failure::option(format!(
                        "params.{k}: {other} is not a string, number or boolean"
                    )));
                }
            };
            o = o.with_param(k.clone(), v);
        }
        if let Some(n) = self.max_input_bytes {
            if !(n.is_finite() && n >= 0.0 && n.fract() == 0.0) {
                return Err(Failure::option(format!(
                    "maxInputBytes must be a whole number of bytes, got {n}"
                )));
            }
            // Saturates at usize::MAX, which on wasm32 is beyond any input.
            o = o.with_max_input_bytes(n as usize);
        }
        if let Some(ms) = self.timeout {
            let limit = std::time::Duration::try_from_secs_f64(ms / MS_PER_SECOND)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or_else(|| {
                    Failure::option(format!(
                        "timeout must be a positive number of milliseconds, got {ms}"
                    ))
                })?;
            o = o.with_timeout(limit);
        }
        // A preset or included comments with another algorithm than auto.
        o.algorithm_params()?;
        Ok(o)
    }
}

/// The options from their JSON text.
fn parse_options(json: &str) -> Result<Options, Failure> {
    let o: ExtractOptions =
        serde_json::from_str(json).map_err(|e| Failure::option(format!("options: {e}")))?;
    o.to_core()
}

/// The charset a string page is decoded with: its bytes are the UTF-8
/// encoding of an already decoded text, whatever its `<meta>` says.
const STRING_CHARSET: &str = "utf-8";

/// An extractor built once from the options, for many pages.
#[wasm_bindgen]
pub struct Extractor {
    inner: unchaff::Extractor,
}

#[wasm_bindgen]
impl Extractor {
    /// Builds the extractor from the options' JSON.
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str) -> Result<Extractor, Failure> {
        let options = parse_options(options_json)?;
        Ok(Extractor {
            inner: unchaff::Extractor::new(&options)?,
        })
    }

    /// Extracts a page given as bytes: `charset` (an HTTP header's) beats
    /// the page's own declaration; without it unchaff detects it. Returns
    /// the output in the options' format (JSON as its text). The bytes are
    /// handed over: a UTF-8 page is decoded in place.
    pub fn extract_bytes(
        &self,
        bytes: Vec<u8>,
        url: Option<String>,
        charset: Option<String>,
    ) -> Result<String, Failure> {
        let x = self
            .inner
            .extract_owned(bytes, url.as_deref(), charset.as_deref())?;
        Ok(x.render())
    }

    /// Extracts a page given as a string (decoded already: UTF-8).
    pub fn extract_string(&self, html: String, url: Option<String>) -> Result<String, Failure> {
        let x =
            self.inner
                .extract_owned(html.into_bytes(), url.as_deref(), Some(STRING_CHARSET))?;
        Ok(x.render())
    }
}

thread_local! {
    /// The extractor of [`extract_metadata`], built on first use (the
    /// module has one thread).
    static METADATA: OnceCell<Result<unchaff::Extractor, String>> = const { OnceCell::new() };
}

/// The metadata of a page (the `metadata` object of the JSON output), as
/// JSON text: the page is `bytes` (with `charset` as in
/// [`Extractor::extract_bytes`]) or, when that is `None`, the string `text`.
#[wasm_bindgen]
pub fn extract_metadata(
    bytes: Option<Vec<u8>>,
    text: Option<String>,
    url: Option<String>,
    charset: Option<String>,
) -> Result<String, Failure> {
    METADATA.with(|cell| {
        let ex = cell
            .get_or_init(|| {
                unchaff::Extractor::new(&Options::new().with_metadata(true))
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|e| Failure {
                kind: "extract",
                message: e.clone(),
            })?;
        let (bytes, charset) = match (bytes, text) {
            (Some(b), _) => (b, charset.as_deref()),
            (None, Some(t)) => (t.into_bytes(), Some(STRING_CHARSET)),
            (None, None) => (Vec::new(), None),
        };
        let x = ex.extract_owned(bytes, url.as_deref(), charset)?;
        serde_json::to_string(&x.metadata).map_err(|e| Failure {
            kind: "extract",
            message: e.to_string(),
        })
    })
}

/// The algorithms' names, the default first, comma-separated.
#[wasm_bindgen]
pub fn algorithms() -> String {
    Method::names().join(",")
}

/// The version of the core library this module was built from.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_owned()
}
