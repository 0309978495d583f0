//! `unchaff._unchaff`: the native half of the `unchaff` Python package.
//!
//! One class, [`Extractor`], holds an [`unchaff::Extractor`] built once
//! from trafilatura-shaped keyword options; `extract` runs one page,
//! `extract_many` a list of pages on a rayon pool with the GIL released.
//! The Python half (`unchaff/__init__.py`) adds the module-level
//! `extract` / `extract_metadata` (cached extractors) and the docs;
//! `unchaff/_unchaff.pyi` types this module.
//!
//! Pages cross the boundary without a copy: `bytes` and `str` arguments
//! are held as [`PyBackedBytes`] / [`PyBackedStr`] (the Python object stays
//! alive, Rust reads its buffer) while the GIL is released.

use std::sync::{Arc, Mutex};

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use rayon::prelude::*;
use unchaff::dedup::{DEFAULT_MAX_REPEATS, SegmentCache, Segmentation};
use unchaff::{Extraction, Format, Input, Method, Options, Preset};

mod warc;

create_exception!(
    unchaff,
    UnchaffError,
    PyValueError,
    "Base class of unchaff's errors (a ValueError); `kind` names the error as `unchaff batch` rows do."
);
create_exception!(
    unchaff,
    EmptyInputError,
    UnchaffError,
    "The page is empty (zero bytes, after gunzip)."
);
create_exception!(
    unchaff,
    BinaryInputError,
    UnchaffError,
    "The input is binary data (an image, an archive), not an HTML page."
);
create_exception!(
    unchaff,
    GzipError,
    UnchaffError,
    "A gzip-compressed page whose stream is corrupt or cut short."
);
create_exception!(
    unchaff,
    UnknownCharsetError,
    UnchaffError,
    "The `charset` argument is a label no browser knows."
);
create_exception!(
    unchaff,
    InputTooLargeError,
    UnchaffError,
    "The page is over the extractor's `max_input_bytes` limit."
);
create_exception!(
    unchaff,
    UnknownAlgorithmError,
    UnchaffError,
    "The `algorithm` is not one of `unchaff.ALGORITHMS`."
);
create_exception!(
    unchaff,
    BadOptionError,
    UnchaffError,
    "An option or algorithm parameter that is unknown, malformed, or conflicts with another."
);
create_exception!(
    unchaff,
    ExtractionTimeoutError,
    UnchaffError,
    "The page took longer than the extractor's `timeout` (stopped there, inside the stage that was running)."
);
create_exception!(
    unchaff,
    WarcError,
    UnchaffError,
    "A WARC file that is not WARC, or is cut between records."
);

/// What `output_format` asks for: one of the core's formats (by its
/// name or alias: `"txt"` is trafilatura's name of text), or `"python"`,
/// a dict of the text and the metadata.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OutFormat {
    Core(Format),
    Python,
}

impl OutFormat {
    fn parse(s: &str) -> PyResult<OutFormat> {
        if s == "python" {
            return Ok(OutFormat::Python);
        }
        s.parse::<Format>().map(OutFormat::Core).map_err(|_| {
            let names: Vec<String> = Format::ALL
                .iter()
                .map(|&f| format!("{:?}", name(f)))
                .collect();
            BadOptionError::new_err(format!(
                "unknown output_format {s:?} (unchaff offers {} and \"python\"; trafilatura's \
                 \"csv\" and \"xmltei\" are not supported)",
                names.join(", ")
            ))
        })
    }

    fn name(self) -> &'static str {
        match self {
            OutFormat::Core(f) => name(f),
            OutFormat::Python => "python",
        }
    }

    /// The core's format: the one whose outputs this format needs.
    fn core(self) -> Format {
        match self {
            OutFormat::Core(f) => f,
            OutFormat::Python => Format::Text,
        }
    }
}

/// A core format's name as trafilatura gives it: `"txt"` for text, else
/// the core's name.
fn name(f: Format) -> &'static str {
    match f {
        Format::Text => "txt",
        f => f.name(),
    }
}

/// The Python exception for a core error, with the core's message.
fn to_pyerr(e: unchaff::Error) -> PyErr {
    let msg = e.to_string();
    match e {
        unchaff::Error::EmptyInput => EmptyInputError::new_err(msg),
        unchaff::Error::TooLarge { .. } => InputTooLargeError::new_err(msg),
        unchaff::Error::Binary { .. } => BinaryInputError::new_err(msg),
        unchaff::Error::Gzip(_) => GzipError::new_err(msg),
        unchaff::Error::UnknownCharset(_) => UnknownCharsetError::new_err(msg),
        unchaff::Error::UnknownAlgorithm(_) => UnknownAlgorithmError::new_err(msg),
        unchaff::Error::BadParam { .. } => BadOptionError::new_err(msg),
        unchaff::Error::Timeout { .. } => ExtractionTimeoutError::new_err(msg),
        _ => UnchaffError::new_err(msg),
    }
}

/// A page's HTML as Python gave it, read in place.
#[derive(FromPyObject)]
enum Html {
    Bytes(PyBackedBytes),
    Str(PyBackedStr),
}

/// The name of a Python object's type, for error messages.
fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default()
}

impl Html {
    /// The `html` argument, or a one-line `TypeError` naming what it got
    /// (not pyo3's account of every variant it tried).
    fn from_arg(v: &Bound<'_, PyAny>) -> PyResult<Html> {
        v.extract::<Html>().map_err(|_| {
            PyTypeError::new_err(format!("html must be str or bytes, not {}", type_name(v)))
        })
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Html::Bytes(b) => b,
            Html::Str(s) => s.as_bytes(),
        }
    }

    /// The charset to decode with: a `str` is UTF-8 whatever its `<meta>`
    /// says (its bytes are Python's own encoding of it); bytes take the
    /// caller's charset, else the page's evidence.
    fn charset<'a>(&self, given: Option<&'a str>) -> Option<&'a str> {
        match self {
            Html::Bytes(_) => given,
            Html::Str(_) => Some("utf-8"),
        }
    }
}

/// One page of `extract_many`.
struct Page {
    html: Html,
    url: Option<String>,
    charset: Option<String>,
}

/// What `extract_many` makes of one item of its list: a page, or the
/// error that item gets in its place (a page without HTML, as a
/// `read_warc` record whose body could not be read, is an
/// `EmptyInputError`; an item of the wrong shape a `TypeError`).
fn page_of(item: &Bound<'_, PyAny>, index: usize) -> Result<Page, PyErr> {
    let none_html = |url: Option<String>| {
        EmptyInputError::new_err(format!(
            "pages[{index}]: the page has no HTML (html is None{})",
            url.map(|u| format!("; url {u}")).unwrap_or_default()
        ))
    };
    let html_of = |v: Bound<'_, PyAny>| -> PyResult<Option<Html>> {
        if v.is_none() {
            return Ok(None);
        }
        v.extract::<Html>().map(Some).map_err(|_| {
            PyTypeError::new_err(format!(
                "pages[{index}]: html is not str or bytes (got {})",
                type_name(&v)
            ))
        })
    };
    if item.is_none() {
        return Err(none_html(None));
    }
    let p = Page::from_py(item, index, html_of)?;
    match p {
        (Some(html), url, charset) => Ok(Page { html, url, charset }),
        (None, url, _) => Err(none_html(url)),
    }
}

/// A page's parts: its HTML (`None` when the item says `None`), URL and
/// charset.
type Parts = (Option<Html>, Option<String>, Option<String>);

impl Page {
    /// A page from `html`, `(html, url)`, `(html, url, charset)` or a dict
    /// with `html` and optional `url` / `charset`; `html_of` reads the
    /// HTML item.
    fn from_py<'py>(
        item: &Bound<'py, PyAny>,
        index: usize,
        html_of: impl Fn(Bound<'py, PyAny>) -> PyResult<Option<Html>>,
    ) -> PyResult<Parts> {
        let bad = |what: &str| {
            PyTypeError::new_err(format!(
                "pages[{index}]: {what} (a page is str or bytes HTML, an (html, url) or \
                 (html, url, charset) tuple, or a dict with \"html\" and optional \"url\" \
                 and \"charset\")"
            ))
        };
        if let Ok(html) = item.extract::<Html>() {
            return Ok((Some(html), None, None));
        }
        if let Ok(t) = item.downcast::<PyTuple>() {
            if !(1..=3).contains(&t.len()) {
                return Err(bad(&format!("a tuple of {} items", t.len())));
            }
            let html = html_of(t.get_item(0)?)?;
            let opt = |i: usize| -> PyResult<Option<String>> {
                match t.get_item(i) {
                    Ok(v) => v
                        .extract::<Option<String>>()
                        .map_err(|_| bad("url and charset must be str or None")),
                    Err(_) => Ok(None),
                }
            };
            return Ok((html, opt(1)?, opt(2)?));
        }
        if let Ok(d) = item.downcast::<PyDict>() {
            let html = html_of(
                d.get_item("html")?
                    .ok_or_else(|| bad("a dict without \"html\""))?,
            )?;
            let opt = |k: &str| -> PyResult<Option<String>> {
                match d.get_item(k)? {
                    Some(v) => v
                        .extract::<Option<String>>()
                        .map_err(|_| bad("url and charset must be str or None")),
                    None => Ok(None),
                }
            };
            return Ok((html, opt("url")?, opt("charset")?));
        }
        Err(bad(&format!("got {}", type_name(item))))
    }
}

/// What one page gives, computed without the GIL.
enum Done {
    Str(String),
    /// Text or Markdown, `head` (front matter) before `body`; `site` is
    /// the page's host, for `deduplicate`.
    Text {
        head: String,
        body: String,
        site: String,
    },
    Dict(Box<Extraction>),
    /// A page in a language `target_language` does not want: `None`, as
    /// trafilatura's.
    Nothing,
}

/// An extractor built once from trafilatura-shaped options, for many
/// pages; safe to share between threads.
///
/// Every keyword means what it means for `unchaff.extract` (see
/// `help(unchaff.extract)`); `params` passes algorithm parameters
/// (`{"threshold": 0.6}`), `max_input_bytes` the size limit (default
/// 256 MiB, after gunzip), `timeout` a deadline per page in seconds
/// (checked inside every stage; `ExtractionTimeoutError` past it).
#[pyclass(frozen, module = "unchaff")]
struct Extractor {
    inner: unchaff::Extractor,
    format: OutFormat,
    with_metadata: bool,
    /// `repr()`: the options as given.
    described: String,
    /// The last pool built for an explicit `threads` count.
    pool: Mutex<Option<(usize, Arc<rayon::ThreadPool>)>>,
    /// `deduplicate=True`: the segments seen so far, per site, applied to
    /// results in the order they are returned.
    dedup: Option<Mutex<SegmentCache>>,
}

#[pymethods]
impl Extractor {
    #[new]
    #[pyo3(signature = (
        *,
        output_format = "txt",
        include_comments = false,
        include_tables = true,
        include_links = false,
        include_images = false,
        favor_precision = false,
        favor_recall = false,
        with_metadata = false,
        algorithm = "auto",
        params = None,
        max_input_bytes = None,
        prune_selector = None,
        target_selector = None,
        target_language = None,
        timeout = None,
        deduplicate = false,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        output_format: &str,
        include_comments: bool,
        include_tables: bool,
        include_links: bool,
        include_images: bool,
        favor_precision: bool,
        favor_recall: bool,
        with_metadata: bool,
        algorithm: &str,
        params: Option<&Bound<'_, PyDict>>,
        max_input_bytes: Option<usize>,
        prune_selector: Option<&Bound<'_, PyAny>>,
        target_selector: Option<&Bound<'_, PyAny>>,
        target_language: Option<&Bound<'_, PyAny>>,
        timeout: Option<f64>,
        deduplicate: bool,
    ) -> PyResult<Extractor> {
        let format = OutFormat::parse(output_format)?;
        if deduplicate
            && !matches!(
                format,
                OutFormat::Core(Format::Text | Format::Markdown) | OutFormat::Python
            )
        {
            return Err(BadOptionError::new_err(format!(
                "deduplicate applies to the text: output_format \"txt\", \"markdown\" or \"python\", not {output_format:?}"
            )));
        }
        // favor_precision / favor_recall are the command line's --precision /
        // --recall: the core's presets, measured in docs/RESULTS.md.
        let preset = Preset::from_flags(favor_precision, favor_recall)
            .map_err(|e| BadOptionError::new_err(e.to_string()))?;
        let method: Method = algorithm.parse().map_err(to_pyerr)?;
        let mut opts = Options::new()
            .with_method(method)
            .with_format(format.core())
            .with_links(include_links)
            .with_images(include_images)
            .with_tables(include_tables)
            .with_metadata(with_metadata || format == OutFormat::Python)
            .with_comments(format == OutFormat::Python && method == Method::Auto)
            .with_preset(preset)
            .with_include_comments(include_comments);
        opts.exclude = strings(prune_selector, "prune_selector")?;
        opts.include = strings(target_selector, "target_selector")?;
        opts.languages = strings(target_language, "target_language")?;
        if let Some(t) = timeout {
            let t = std::time::Duration::try_from_secs_f64(t)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or_else(|| {
                    BadOptionError::new_err(format!(
                        "timeout must be a positive number of seconds, not {t}"
                    ))
                })?;
            opts = opts.with_timeout(t);
        }
        if let Some(limit) = max_input_bytes {
            opts = opts.with_max_input_bytes(limit);
        }
        if let Some(p) = params {
            for (k, v) in p.iter() {
                let k: String = k.extract()?;
                let v = if let Ok(b) = v.extract::<bool>() {
                    if b { "1".to_owned() } else { "0".to_owned() }
                } else {
                    v.str()?.to_string()
                };
                opts = opts.with_param(k, v);
            }
        }
        // Building reads the model files (`params={"model": PATH}`): the
        // GIL is released meanwhile, so that a slow or endless file (a
        // FIFO) holds this thread, not the interpreter.
        let built = py.allow_threads(|| unchaff::Extractor::new(&opts));
        let inner = built.map_err(|e| match e {
            unchaff::Error::BadSelector { .. } | unchaff::Error::BadOption(_) => {
                BadOptionError::new_err(e.to_string())
            }
            e => to_pyerr(e),
        })?;
        let described = format!(
            "Extractor(output_format={:?}, algorithm={:?}, include_comments={}, \
             include_links={}, include_images={}, favor_precision={}, favor_recall={}, \
             with_metadata={}{}{})",
            format.name(),
            method.name(),
            py_bool(include_comments),
            py_bool(include_links),
            py_bool(include_images),
            py_bool(favor_precision),
            py_bool(favor_recall),
            py_bool(with_metadata),
            timeout
                .map(|t| format!(", timeout={t}"))
                .unwrap_or_default(),
            if deduplicate {
                ", deduplicate=True"
            } else {
                ""
            },
        );
        Ok(Extractor {
            inner,
            format,
            with_metadata,
            described,
            pool: Mutex::new(None),
            dedup: deduplicate.then(|| Mutex::new(SegmentCache::new(DEFAULT_MAX_REPEATS))),
        })
    }

    /// Extracts one page: `html` is `str` or `bytes` (bytes go through
    /// unchaff's charset detection and gunzip), `url` resolves links and
    /// is reported, `charset` is an HTTP header's charset (it beats the
    /// page's own `<meta>`). Returns what `output_format` says; raises an
    /// `UnchaffError` subclass when the input is not a page.
    #[pyo3(signature = (html, url = None, charset = None))]
    fn extract(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<String>,
        charset: Option<String>,
    ) -> PyResult<PyObject> {
        let html = Html::from_arg(html)?;
        let done = py.allow_threads(|| {
            self.run(
                html.bytes(),
                url.as_deref(),
                html.charset(charset.as_deref()),
            )
        });
        self.to_py(py, done.map_err(to_pyerr)?)
    }

    /// Extracts many pages in parallel, with the GIL released; returns a
    /// list of what `extract` returns, in the order of `pages`.
    ///
    /// A page is `str` or `bytes`, an `(html, url)` or `(html, url,
    /// charset)` tuple, or a dict with `"html"` and optional `"url"` and
    /// `"charset"`. `threads`: `None` uses every core (rayon's global
    /// pool), `1` runs in the calling thread. `errors="raise"` raises the
    /// first page's error (after all pages ran); `errors="return"` puts
    /// the exception object in that page's place instead.
    #[pyo3(signature = (pages, threads = None, errors = "raise"))]
    fn extract_many(
        &self,
        py: Python<'_>,
        pages: &Bound<'_, PyAny>,
        threads: Option<usize>,
        errors: &str,
    ) -> PyResult<Py<PyList>> {
        let raise = match errors {
            "raise" => true,
            "return" => false,
            other => {
                return Err(BadOptionError::new_err(format!(
                    "errors must be \"raise\" or \"return\", not {other:?}"
                )));
            }
        };
        if threads == Some(0) {
            return Err(BadOptionError::new_err("threads must be at least 1"));
        }
        // Items that are not pages keep their place: their error is their
        // result (or, with errors="raise", the first one is raised).
        let mut items: Vec<Result<Page, PyErr>> = Vec::new();
        for (i, item) in pages.try_iter()?.enumerate() {
            if i == MAX_PAGES_PER_CALL {
                return Err(BadOptionError::new_err(format!(
                    "extract_many takes at most {MAX_PAGES_PER_CALL} pages a call (an endless \
                     iterable?); pass them in parts"
                )));
            }
            // Room for one more, or MemoryError (not an abort).
            items
                .try_reserve(1)
                .map_err(|_| pyo3::exceptions::PyMemoryError::new_err("no memory for the pages"))?;
            items.push(page_of(&item?, i));
        }
        if raise
            && let Some(at) = items.iter().position(Result::is_err)
            && let Err(e) = items.swap_remove(at)
        {
            return Err(e);
        }
        let mut bad: Vec<(usize, PyErr)> = Vec::new();
        let mut pages: Vec<Page> = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            match item {
                Ok(p) => pages.push(p),
                Err(e) => bad.push((i, e)),
            }
        }
        // More threads than the cores (a few times over) or the pages only
        // cost stacks: 10,000 asked for started 10,000 threads.
        let threads = threads.map(|n| n.min(max_threads(pages.len())));
        let pool = match threads {
            Some(n) if n > 1 => Some(self.pool(n)?),
            _ => None,
        };
        let one = |p: &Page| {
            let charset = p.html.charset(p.charset.as_deref());
            self.run(p.html.bytes(), p.url.as_deref(), charset)
        };
        let done: Vec<Result<Done, unchaff::Error>> = py.allow_threads(|| match (threads, pool) {
            (Some(1), _) => pages.iter().map(one).collect(),
            (_, Some(pool)) => pool.install(|| pages.par_iter().map(one).collect()),
            _ => pages.par_iter().map(one).collect(),
        });
        drop(pages);
        let out = PyList::empty(py);
        let mut bad = bad.into_iter().peekable();
        let mut done = done.into_iter();
        loop {
            if let Some((_, e)) = bad.next_if(|(i, _)| *i == out.len()) {
                out.append(e.into_value(py))?;
                continue;
            }
            match done.next() {
                Some(Ok(d)) => out.append(self.to_py(py, d)?)?,
                Some(Err(e)) if raise => return Err(to_pyerr(e)),
                Some(Err(e)) => out.append(to_pyerr(e).into_value(py))?,
                None => break,
            }
        }
        Ok(out.unbind())
    }

    /// The output format (`"txt"`, `"markdown"`, `"html"`, `"json"` or
    /// `"python"`).
    #[getter]
    fn output_format(&self) -> &'static str {
        self.format.name()
    }

    /// The algorithm's name.
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.inner.method().name()
    }

    fn __repr__(&self) -> String {
        self.described.clone()
    }
}

/// A keyword that takes a `str` or a list of them (`None`: none).
fn strings(v: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Vec<String>> {
    let Some(v) = v.filter(|v| !v.is_none()) else {
        return Ok(Vec::new());
    };
    if let Ok(s) = v.extract::<String>() {
        return Ok(vec![s]);
    }
    v.extract::<Vec<String>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be a str or a list of str, not {}",
            type_name(v)
        ))
    })
}

/// Most pages one `extract_many` call takes: far more than a call needs
/// (the results are held in one list), and an endless iterable is an
/// error after it instead of an abort when memory runs out.
const MAX_PAGES_PER_CALL: usize = 10_000_000;

/// Threads per core `extract_many` starts at most: extraction is CPU
/// work, more threads than cores only add stacks and switches.
const THREADS_PER_CORE: usize = 4;

/// The most worker threads worth starting for `pages` pages: the cores
/// times [`THREADS_PER_CORE`], and no more than the pages.
fn max_threads(pages: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_mul(THREADS_PER_CORE).min(pages).max(1)
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

impl Extractor {
    /// A rayon pool of `n` threads, kept for the next call with the same `n`.
    fn pool(&self, n: usize) -> PyResult<Arc<rayon::ThreadPool>> {
        let mut slot = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, p)) = slot.as_ref()
            && *k == n
        {
            return Ok(Arc::clone(p));
        }
        let p = Arc::new(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .thread_name(|i| format!("unchaff-{i}"))
                .build()
                .map_err(|e| UnchaffError::new_err(format!("cannot start threads: {e}")))?,
        );
        *slot = Some((n, Arc::clone(&p)));
        Ok(p)
    }

    /// One page, no GIL needed.
    fn run(
        &self,
        bytes: &[u8],
        url: Option<&str>,
        charset: Option<&str>,
    ) -> Result<Done, unchaff::Error> {
        let x = self
            .inner
            .extract(Input::new(bytes).with_url(url).with_charset(charset))?;
        if matches!(x.skipped, Some(unchaff::Skip::Language { .. })) {
            return Ok(Done::Nothing);
        }
        Ok(match self.format {
            OutFormat::Python => Done::Dict(Box::new(x)),
            OutFormat::Core(Format::Json) => Done::Str(x.to_json()),
            OutFormat::Core(Format::Text | Format::Markdown) => Done::Text {
                head: if self.with_metadata {
                    x.front_matter()
                } else {
                    String::new()
                },
                body: x.render(),
                site: x.hostname().unwrap_or_default(),
            },
            OutFormat::Core(Format::Html) if self.with_metadata => Done::Str(x.html_document()),
            _ => Done::Str(x.render()),
        })
    }

    /// `text` without the segments seen on earlier pages of `site`, with
    /// `deduplicate=True`; else `text`.
    fn deduplicated(&self, site: &str, text: String, how: Segmentation) -> String {
        match &self.dedup {
            Some(cache) => {
                cache
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .filter(site, &text, how)
                    .text
            }
            None => text,
        }
    }

    fn to_py(&self, py: Python<'_>, d: Done) -> PyResult<PyObject> {
        match d {
            Done::Str(s) => Ok(PyString::new(py, &s).into_any().unbind()),
            Done::Text {
                mut head,
                body,
                site,
            } => {
                let how = match self.format {
                    OutFormat::Core(Format::Markdown) => Segmentation::Paragraphs,
                    _ => Segmentation::Lines,
                };
                head.push_str(&self.deduplicated(&site, body, how));
                Ok(PyString::new(py, &head).into_any().unbind())
            }
            Done::Dict(mut x) => {
                let site = x.hostname().unwrap_or_default();
                let text = std::mem::take(&mut x.text);
                x.text = self.deduplicated(&site, text, Segmentation::Lines);
                Ok(as_dict(py, &x)?.into_any().unbind())
            }
            Done::Nothing => Ok(py.None()),
        }
    }
}

/// `output_format="python"`: a dict of the text and the metadata.
fn as_dict<'py>(py: Python<'py>, x: &Extraction) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in x.metadata_fields() {
        d.set_item(k, v)?;
    }
    for (k, v) in x.metadata_lists() {
        d.set_item(k, v)?;
    }
    d.set_item("text", &x.text)?;
    d.set_item("page_title", &x.title)?;
    d.set_item("charset", &x.charset)?;
    d.set_item("algorithm", x.algorithm.name())?;
    d.set_item("confidence", x.confidence)?;
    let page_type = x.page_type.map(|t| t.name());
    d.set_item("page_type", page_type)?;
    // trafilatura's names of the same: its `pagetype` and `fingerprint`
    // (here the SimHash of the text, 16 hex digits).
    d.set_item("pagetype", page_type)?;
    d.set_item("fingerprint", format!("{:016x}", x.simhash()))?;
    d.set_item("comments", x.comments_text())?;
    Ok(d)
}

/// The metadata of one page as a dict (`extract_metadata`): the same
/// fields as `output_format="python"` without the text.
#[pyfunction]
#[pyo3(signature = (html, url = None, charset = None))]
fn _metadata(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    charset: Option<String>,
) -> PyResult<Py<PyDict>> {
    let html = Html::from_arg(html)?;
    static EXTRACTOR: std::sync::OnceLock<Result<unchaff::Extractor, String>> =
        std::sync::OnceLock::new();
    let ex = EXTRACTOR
        .get_or_init(|| {
            unchaff::Extractor::new(&Options::new().with_metadata(true)).map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| UnchaffError::new_err(e.clone()))?;
    let x = py
        .allow_threads(|| {
            ex.extract(
                Input::new(html.bytes())
                    .with_url(url.as_deref())
                    .with_charset(html.charset(charset.as_deref())),
            )
        })
        .map_err(to_pyerr)?;
    let d = PyDict::new(py);
    for (k, v) in x.metadata_fields() {
        d.set_item(k, v)?;
    }
    for (k, v) in x.metadata_lists() {
        d.set_item(k, v)?;
    }
    d.set_item("page_title", &x.title)?;
    d.set_item("charset", &x.charset)?;
    Ok(d.unbind())
}

/// The native module.
#[pymodule]
fn _unchaff(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Extractor>()?;
    m.add_class::<warc::WarcReader>()?;
    m.add_function(wrap_pyfunction!(_metadata, m)?)?;
    m.add("ALGORITHMS", PyTuple::new(py, Method::names())?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let kinds: [(&str, Bound<'_, pyo3::types::PyType>); 10] = [
        ("UnchaffError", py.get_type::<UnchaffError>()),
        ("EmptyInputError", py.get_type::<EmptyInputError>()),
        ("BinaryInputError", py.get_type::<BinaryInputError>()),
        ("GzipError", py.get_type::<GzipError>()),
        ("UnknownCharsetError", py.get_type::<UnknownCharsetError>()),
        ("InputTooLargeError", py.get_type::<InputTooLargeError>()),
        (
            "UnknownAlgorithmError",
            py.get_type::<UnknownAlgorithmError>(),
        ),
        ("BadOptionError", py.get_type::<BadOptionError>()),
        ("WarcError", py.get_type::<WarcError>()),
        (
            "ExtractionTimeoutError",
            py.get_type::<ExtractionTimeoutError>(),
        ),
    ];
    // The kinds `unchaff batch` writes in its rows' `error.kind`.
    let kind_names = [
        "extract",
        "empty",
        "binary",
        "gzip",
        "charset",
        "too_large",
        "algorithm",
        "option",
        "warc",
        "timeout",
    ];
    for ((name, ty), kind) in kinds.into_iter().zip(kind_names) {
        ty.setattr("kind", kind)?;
        m.add(name, ty)?;
    }
    Ok(())
}
