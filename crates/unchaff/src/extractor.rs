//! The pipeline, run once per page: [`Extractor`] holds what is built once
//! (the algorithm with its model, a template library) and runs the stages
//! in order: [`crate::prepare`] (decode, parse, the metadata read
//! before cleaning, clean), site templates and `--exclude`, annotate, the
//! algorithm, render.

use std::time::Duration;

use crate::algorithms::{self, Algorithm, Selection};
use crate::annotate::{self, Page};
use crate::comments::Comment;
use crate::confidence::{self, Signals};
use crate::decode::{CharsetSource, PageBytes};
use crate::dom::{Dom, NodeId};
use crate::limits::{Deadline, Instant, Stage};
use crate::metadata::{self, Metadata};
use crate::pagetype::{self, PageType};
use crate::prepare::{self, Cleaned, Limits};
use crate::{Error, Format, Input, Method, Options, css, parse, render};

/// The version of the JSON output's schema (`docs/json-schema.md`).
pub const JSON_SCHEMA: u32 = 2;

/// The result of extracting one page.
#[derive(Clone, Debug, serde::Serialize)]
#[non_exhaustive]
pub struct Extraction {
    /// The page URL, as given in [`Input::url`].
    pub url: Option<String>,
    /// The page title (`<title>`, as written; [`Metadata::title`] is the
    /// cleaned-up article title).
    pub title: Option<String>,
    /// The main content as plain text, one block a line.
    pub text: String,
    /// The main content as Markdown (for the Markdown and JSON formats).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// The main content as clean HTML (for the HTML format, and JSON with
    /// [`Options::json_html`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// The page's metadata (empty unless [`Options::metadata`] is on or
    /// the format is JSON).
    pub metadata: Metadata,
    /// The algorithm that produced it.
    pub algorithm: Method,
    /// The charset the page was decoded with (WHATWG name).
    pub charset: String,
    /// Why that charset.
    pub charset_source: CharsetSource,
    /// How likely the text is the page's main content, from 0 to 1: an
    /// estimate of its shingle F1 against a person's reading of the page,
    /// calibrated on the dev folders (of pages given about 0.8, the mean
    /// F1 is about 0.8; `crate::confidence` says how it is computed,
    /// `docs/RESULTS.md` how well it holds). Low on pages whose content
    /// the algorithm could not tell: send them to another extractor, a
    /// person, or drop them ([`Options::min_confidence`]).
    pub confidence: f32,
    /// What kind of page it is ([`PageType`]), read from what the page
    /// says of itself and how it is built (`crate::pagetype`); filled
    /// with the metadata ([`Options::metadata`], or the JSON format).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_type: Option<PageType>,
    /// The page's comments, apart from the content, one per comment with
    /// its author where the page marks one ([`Options::comments`];
    /// `auto` only). Comment forms, prompts and formatting help are never
    /// comments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comments: Option<Vec<Comment>>,
    /// The main content as XML in trafilatura's shape
    /// ([`Format::Xml`]).
    #[serde(skip)]
    pub xml: Option<String>,
    /// Why a corpus filter of the options would drop the page
    /// ([`Options::languages`], [`Options::min_confidence`]); `None` when
    /// none would. The page is extracted all the same.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<Skip>,
    /// The signals [`Extraction::confidence`] was computed from (for
    /// evaluation tools).
    #[serde(skip)]
    pub signals: Signals,
    /// The signals [`Extraction::page_type`] was told from, when it was.
    #[serde(skip)]
    pub page_signals: Option<pagetype::Signals>,
    /// The time each stage took on this page.
    #[serde(skip)]
    pub times: StageTimes,
    #[serde(skip)]
    format: Format,
}

impl Extraction {
    /// The format the options asked for ([`Extraction::render`] writes it).
    pub fn format(&self) -> Format {
        self.format
    }

    /// The extraction in the format the options asked for.
    pub fn render(&self) -> String {
        self.rendered().into_owned()
    }

    /// [`Extraction::render`] without copying: the text, Markdown or HTML
    /// borrowed from the extraction (only JSON is built). A caller that
    /// writes the output somewhere holds one copy of it, not two.
    pub fn rendered(&self) -> std::borrow::Cow<'_, str> {
        use std::borrow::Cow;
        match self.format {
            Format::Text => Cow::Borrowed(&self.text),
            Format::Markdown => Cow::Borrowed(self.markdown.as_deref().unwrap_or_default()),
            Format::Html => Cow::Borrowed(self.html.as_deref().unwrap_or_default()),
            Format::Xml => Cow::Borrowed(self.xml.as_deref().unwrap_or_default()),
            Format::Json => Cow::Owned(self.to_json()),
        }
    }

    /// The extraction as the versioned JSON object of
    /// `docs/json-schema.md` (`{"schema": 2, "url", "title", "text", …}`).
    pub fn to_json(&self) -> String {
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

impl Extraction {
    /// A 64-bit SimHash of the text ([`crate::hash::simhash`]): pages
    /// whose texts differ by a few words differ in a few bits, for
    /// near-duplicate detection downstream (trafilatura's `fingerprint`).
    pub fn simhash(&self) -> u64 {
        crate::hash::simhash(&self.text)
    }

    /// The comments as text: each comment's author on a line of its own
    /// (`Name:`) before its text, a blank line between comments; `None`
    /// without [`Options::comments`] (`crate::comments::as_text`).
    pub fn comments_text(&self) -> Option<String> {
        self.comments.as_deref().map(crate::comments::as_text)
    }

    /// The comments as Markdown (`crate::comments::as_markdown`).
    pub fn comments_markdown(&self) -> Option<String> {
        self.comments.as_deref().map(crate::comments::as_markdown)
    }
}

/// Why a corpus filter would drop a page ([`Extraction::skipped`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Skip {
    /// The page's language is not one of [`Options::languages`].
    Language {
        /// The language found (ISO 639-1 where one exists).
        found: String,
    },
    /// The confidence is below [`Options::min_confidence`].
    Confidence {
        /// The page's confidence.
        confidence: f32,
    },
}

impl Skip {
    /// A short name of the reason: `language` or `confidence`.
    pub fn reason(&self) -> &'static str {
        match self {
            Skip::Language { .. } => "language",
            Skip::Confidence { .. } => "confidence",
        }
    }
}

/// Time spent in each stage, for one page ([`Extraction::times`]) or
/// summed over many ([`StageTimes::add`]). The stages are consecutive:
/// their sum is the extraction's time, less the inspection hook's.
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct StageTimes {
    /// Size limit, gunzip, binary check, charset detection and decoding.
    pub decode: Duration,
    /// The pre-pass and the HTML5 tree builder.
    pub parse: Duration,
    /// What is read before cleaning: the metadata, the page type's
    /// signals, the declared language, the base URL and the title.
    pub metadata: Duration,
    /// Cleaning, the `<noscript>` rescue, site templates and the
    /// [`Options::exclude`] selectors.
    pub clean: Duration,
    /// The statistics pass (per-node counts and tag paths).
    pub annotate: Duration,
    /// The algorithm (or the [`Options::include`] selectors).
    pub algorithm: Duration,
    /// Rendering the outputs, the comments, the language, the confidence
    /// and the corpus filters.
    pub render: Duration,
}

impl StageTimes {
    /// Every stage by name, in pipeline order.
    pub fn stages(&self) -> [(&'static str, Duration); 7] {
        [
            ("decode", self.decode),
            ("parse", self.parse),
            ("metadata", self.metadata),
            ("clean", self.clean),
            ("annotate", self.annotate),
            ("algorithm", self.algorithm),
            ("render", self.render),
        ]
    }

    /// The sum of all stages.
    pub fn total(&self) -> Duration {
        self.stages().iter().map(|(_, d)| *d).sum()
    }

    /// Adds another set of times to this one.
    pub fn add(&mut self, o: &StageTimes) {
        self.decode += o.decode;
        self.parse += o.parse;
        self.metadata += o.metadata;
        self.clean += o.clean;
        self.annotate += o.annotate;
        self.algorithm += o.algorithm;
        self.render += o.render;
    }
}

/// What [`Extractor::extract_with`] shows of a page's run, between the
/// algorithm and the output: for evaluation and explanation tools.
#[non_exhaustive]
pub struct Inspection<'p, 'a> {
    /// The annotated page (its cleaned tree is `page.dom`).
    pub page: &'p Page<'a>,
    /// What the algorithm chose, with its per-node scores.
    pub selection: &'p Selection,
    /// Subtrees a site template deleted before the algorithm ran (still
    /// readable in `page.dom`, detached from the tree).
    pub removed: &'p [NodeId],
    /// The algorithm that ran.
    algorithm: &'p dyn Algorithm,
}

impl Inspection<'_, '_> {
    /// The algorithm's account of each block of the page, with at most
    /// `reasons` features per block and model stage
    /// ([`Algorithm::explain`]; `None` for an algorithm that has none).
    /// Computed on asking, in a walk of its own.
    pub fn explain(&self, reasons: usize) -> Option<algorithms::Explanation> {
        self.algorithm.explain(self.page, reasons)
    }
}

/// Every site's template entries, read once from a library.
#[cfg(feature = "templates")]
type SiteTemplates = std::collections::BTreeMap<String, crate::templates::EntrySet>;

/// An algorithm built once, for many pages; `Send + Sync`, so one
/// extractor serves every thread.
pub struct Extractor {
    algorithm: Box<dyn Algorithm>,
    method: Method,
    options: Options,
    /// [`Options::exclude`], compiled.
    exclude: css::Selectors,
    /// [`Options::include`], compiled.
    include: css::Selectors,
    /// [`Options::languages`], lower case.
    languages: Vec<String>,
    /// Every site's template, read once from the library when one is given.
    #[cfg(feature = "templates")]
    templates: Option<SiteTemplates>,
}

impl std::fmt::Debug for Extractor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Extractor")
            .field("method", &self.method)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Extractor {
    /// Builds the algorithm the options name, checking its parameters.
    /// With a template library (from [`Options::templates`], or an
    /// algorithm's `templates=FILE` parameter) the library is opened once
    /// and every site's entries are read into memory.
    pub fn new(options: &Options) -> Result<Extractor, Error> {
        let algorithm = algorithms::build(options.method, &options.algorithm_params()?)?;
        let path = options
            .templates
            .clone()
            .or_else(|| algorithm.templates().map(std::path::Path::to_path_buf));
        #[cfg(feature = "templates")]
        let templates = match path {
            Some(p) => Some(crate::templates::Library::open(&p)?.all_sites()?),
            None => None,
        };
        #[cfg(not(feature = "templates"))]
        if let Some(p) = path {
            return Err(Error::Templates(format!(
                "{}: this build of unchaff has no template library support \
                 (cargo feature `templates`)",
                p.display()
            )));
        }
        if let Some(m) = options.min_confidence
            && !(0.0..=1.0).contains(&m)
        {
            return Err(Error::BadOption(format!(
                "min_confidence must be between 0 and 1, not {m}"
            )));
        }
        let languages = options
            .languages
            .iter()
            .map(|l| l.trim().to_ascii_lowercase())
            .collect::<Vec<_>>();
        if let Some(bad) = languages
            .iter()
            .find(|l| l.is_empty() || !l.chars().all(|c| c.is_ascii_alphabetic()))
        {
            return Err(Error::BadOption(format!(
                "{bad:?} is not a language code (ISO 639-1, such as en or de)"
            )));
        }
        Ok(Extractor {
            algorithm,
            method: options.method,
            options: options.clone(),
            exclude: css::Selectors::parse(&options.exclude)?,
            include: css::Selectors::parse(&options.include)?,
            languages,
            #[cfg(feature = "templates")]
            templates,
        })
    }

    /// The algorithm.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The options it was built with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Extracts one page.
    pub fn extract<'a>(&self, input: impl Into<Input<'a>>) -> Result<Extraction, Error> {
        self.run(input.into().into(), |_| ()).map(|(x, ())| x)
    }

    /// [`Extractor::extract`] of a page whose bytes the caller hands over
    /// (`url` and `charset` as [`Input`]'s). The extraction is the same;
    /// the memory is less: a UTF-8 page is decoded in place, and unless
    /// the algorithm reads the source (`Algorithm::reads_source`) the
    /// decoded page is freed once the tree is built, so a text-heavy page
    /// is held about twice (the tree's text, the output), not three times.
    pub fn extract_owned(
        &self,
        bytes: Vec<u8>,
        url: Option<&str>,
        charset: Option<&str>,
    ) -> Result<Extraction, Error> {
        let raw = RawInput {
            bytes: PageBytes::Owned(bytes),
            url,
            charset,
        };
        self.run(raw, |_| ()).map(|(x, ())| x)
    }

    /// Extracts one page and lets `inspect` look at the annotated page and
    /// the algorithm's selection before they are dropped (evaluation and
    /// explanation tools; the extraction is the same as
    /// [`Extractor::extract`]'s).
    pub fn extract_with<'a, R>(
        &self,
        input: impl Into<Input<'a>>,
        inspect: impl FnOnce(&Inspection<'_, '_>) -> R,
    ) -> Result<(Extraction, R), Error> {
        self.run(input.into().into(), inspect)
    }

    fn run<R>(
        &self,
        input: RawInput<'_>,
        inspect: impl FnOnce(&Inspection<'_, '_>) -> R,
    ) -> Result<(Extraction, R), Error> {
        let deadline = Deadline::after(self.options.timeout);
        let owned = matches!(input.bytes, PageBytes::Owned(_));
        let url = input.url;
        let fmt = self.options.format;
        let limits = Limits {
            max_input: self.options.max_input_bytes,
            max_elements: self.options.max_elements,
            deadline: &deadline,
        };
        let (prepared, before) = prepare::prepare(input.bytes, input.charset, &limits, |dom| {
            self.read_before_clean(dom, url)
        })?;
        let Cleaned {
            mut decoded,
            mut dom,
            root,
            times: prepare_times,
        } = prepared;
        let BeforeClean {
            want_meta,
            mut meta,
            mut page_signals,
            declared,
            base,
            title,
        } = before;
        let t_filter = Instant::now();
        let removed = self.apply_templates(&mut dom, root, url);
        if !self.exclude.is_empty() {
            let mut hits = self
                .exclude
                .matching(&dom, root, &deadline, Stage::Annotate)?;
            if hits.first() == Some(&root) {
                // The whole content is excluded: its children go.
                hits = dom.children(root).collect();
            }
            dom.detach_all(&hits);
        }
        if owned && !self.algorithm.reads_source() {
            // Nothing reads the decoded page from here on: free it.
            decoded.text = std::borrow::Cow::Borrowed("");
        }
        deadline.check(Stage::Annotate)?;
        let t_annotate = Instant::now();
        let mut page = annotate::annotate_until(&dom, &decoded.text, root, &deadline)?;
        page.url = url;
        let t3 = Instant::now();
        let selection = match self.include.is_empty() {
            true => self.algorithm.run(&page),
            false => Selection {
                nodes: self
                    .include
                    .matching(&dom, root, &deadline, Stage::Algorithm)?,
                ..Selection::default()
            },
        };
        // An algorithm may stop early at the deadline: its selection is
        // then not to be used.
        deadline.check(Stage::Algorithm)?;
        // What the confidence of a selection without its own signals reads.
        let page_chars = page.stats(page.root).chars;
        let (sel_chars, sel_links) = match selection.confidence {
            Some(_) => (0, 0),
            None => selection.nodes.iter().fold((0, 0), |(c, l), &n| {
                let st = page.stats(n);
                (c + st.chars, l + st.link_chars)
            }),
        };
        // The main content's size and link text, for the page type.
        if let Some(s) = page_signals.as_mut() {
            (s.main_chars, s.main_link_chars) =
                selection.nodes.iter().fold((0, 0), |(c, l), &n| {
                    let st = page.stats(n);
                    (c + st.chars, l + st.link_chars)
                });
        }
        let t_algorithm = Instant::now();
        let seen = inspect(&Inspection {
            page: &page,
            selection: &selection,
            removed: &removed,
            algorithm: self.algorithm.as_ref(),
        });
        // The renderers read the tree, not the annotated page: it goes
        // first (on element-dense pages it is about as large as the tree).
        drop(page);
        // The renderers' time starts here, without the inspection's.
        let t4 = Instant::now();
        let pruned;
        let dom = if self.options.tables {
            &dom
        } else {
            pruned = render::without_data_tables(&dom);
            &pruned
        };
        let mut text = render::text(dom, root, &selection);
        deadline.check(Stage::Render)?;
        // `auto` with nothing to show: the page's own summary, if it has one.
        let page_dom = dom;
        let summary = match self.method == Method::Auto
            && self.include.is_empty()
            && text.trim().is_empty()
        {
            true => description_page(dom, &deadline)?,
            false => None,
        };
        // What the renderers below walk.
        let (dom, root, shown) = match &summary {
            Some((d, r, s)) => {
                text = render::text(d, *r, s);
                (d, *r, s)
            }
            None => (dom, root, &selection),
        };
        // With images asked for, the images beside the selection too
        // (never in the plain text).
        let with_figures;
        let shown = if self.options.images && fmt != Format::Text {
            with_figures = render::with_figures(dom, root, shown);
            &with_figures
        } else {
            shown
        };
        let markdown = if matches!(fmt, Format::Markdown | Format::Json) {
            let o = render::MarkdownOptions {
                links: self.options.links,
                images: self.options.images,
            };
            let mut md = render::markdown(dom, root, shown, base.as_ref(), o);
            // The document opens with its title (JSON keeps it apart).
            if fmt == Format::Markdown
                && self.options.markdown_title
                && let Some(t) = meta.title.as_deref().or(title.as_deref())
            {
                md = render::with_title(md, t);
            }
            deadline.check(Stage::Render)?;
            Some(md)
        } else {
            None
        };
        let mut html = (matches!(fmt, Format::Html | Format::Xml)
            || (fmt == Format::Json && self.options.json_html))
            .then(|| render::html(dom, root, shown, base.as_ref()));
        deadline.check(Stage::Render)?;
        let comments = match self.options.comments {
            true => Some(self.comments(page_dom, &selection, base.as_ref())),
            false => None,
        };
        deadline.check(Stage::Render)?;
        if want_meta {
            metadata::detect_language(&mut meta, &text);
        }
        // The page's summary standing in for an empty selection is read
        // as any selection is. The text's characters are counted only for
        // the generic signals (`auto` gives its own).
        let signals = match (selection.confidence, &summary) {
            (Some(a), None) => Signals::Auto(a),
            _ => {
                let text_chars = text.chars().filter(|c| !c.is_whitespace()).count() as u32;
                confidence::generic_signals(text_chars, page_chars, sel_chars, sel_links)
            }
        };
        let confidence = confidence::confidence(&signals);
        let page_type = page_signals.as_ref().map(pagetype::classify);
        let mut skipped = None;
        if !self.languages.is_empty()
            && let Some(found) = content_language(&text, declared.as_deref())
            && !self.languages.contains(&found)
        {
            skipped = Some(Skip::Language { found });
        }
        if skipped.is_none()
            && let Some(min) = self.options.min_confidence
            && confidence < min
        {
            skipped = Some(Skip::Confidence { confidence });
        }
        let xml = match fmt {
            Format::Xml => Some(xml_document(
                html.take().as_deref().unwrap_or(""),
                &meta,
                title.as_deref(),
                url,
                &text,
                page_type,
                comments.as_deref(),
            )),
            _ => None,
        };
        let t5 = Instant::now();
        let times = StageTimes {
            decode: prepare_times.decode,
            parse: prepare_times.parse,
            metadata: prepare_times.before_clean,
            clean: prepare_times.clean + (t_annotate - t_filter),
            annotate: t3 - t_annotate,
            algorithm: t_algorithm - t3,
            render: t5 - t4,
        };
        let extraction = Extraction {
            url: url.map(str::to_owned),
            title,
            text,
            markdown,
            html,
            metadata: meta,
            algorithm: self.method,
            charset: decoded.encoding.name().to_owned(),
            charset_source: decoded.source,
            confidence,
            page_type,
            comments,
            xml,
            skipped,
            signals,
            page_signals,
            times,
            format: fmt,
        };
        Ok((extraction, seen))
    }

    /// What is read of the tree before cleaning, where the head and the
    /// body's scripts are still linked: the metadata (also for
    /// Markdown's title heading: the article's title, not `<title>` with
    /// the site's name), the page type's signals, the declared language
    /// (for the language filter), the base URL, and the first `<title>`
    /// anywhere, as `document.title` (cleaning drops one that a wrapper
    /// element put in the body).
    fn read_before_clean(&self, dom: &Dom, url: Option<&str>) -> BeforeClean {
        let fmt = self.options.format;
        let want_meta = self.options.metadata
            || matches!(fmt, Format::Json | Format::Xml)
            || (fmt == Format::Markdown && self.options.markdown_title);
        let meta = if want_meta {
            read_metadata(dom, url)
        } else {
            Metadata::default()
        };
        // The page type comes with the metadata (not with Markdown's title).
        let page_signals = (self.options.metadata || matches!(fmt, Format::Json | Format::Xml))
            .then(|| pagetype::signals(dom, url));
        let declared = match self.languages.is_empty() {
            true => None,
            false => declared_language(dom),
        };
        let base = match fmt {
            Format::Text => None,
            _ => render::base_url(dom, url),
        };
        BeforeClean {
            want_meta,
            meta,
            page_signals,
            declared,
            base,
            title: render::title(dom),
        }
    }

    /// The comments of a selection ([`Selection::comments`]), one per
    /// comment element with its author, as text and (for Markdown and
    /// JSON) Markdown.
    fn comments(&self, dom: &Dom, selection: &Selection, base: Option<&url::Url>) -> Vec<Comment> {
        let markdown = matches!(self.options.format, Format::Markdown | Format::Json);
        crate::comments::group(dom, &selection.comments)
            .into_iter()
            .filter_map(|(item, nodes)| {
                let sel = Selection {
                    nodes,
                    ..Selection::default()
                };
                let text = render::text(dom, item, &sel);
                if text.trim().is_empty() {
                    return None;
                }
                let md = markdown.then(|| {
                    let o = render::MarkdownOptions {
                        links: self.options.links,
                        images: false,
                    };
                    render::markdown(dom, item, &sel, base, o)
                });
                Some(Comment {
                    author: crate::comments::author(dom, item),
                    text,
                    markdown: md,
                })
            })
            .collect()
    }

    /// Deletes the leaf tags of the page's site template (when a library
    /// was given and knows the site); returns the deleted subtrees.
    #[cfg(feature = "templates")]
    fn apply_templates(&self, dom: &mut Dom, root: NodeId, url: Option<&str>) -> Vec<NodeId> {
        let Some(site) = self
            .templates
            .as_ref()
            .zip(url)
            .and_then(|(t, u)| t.get(&crate::templates::site_key(u)))
        else {
            return Vec::new();
        };
        let hits = site.matches(dom, root);
        dom.detach_all(&hits);
        hits
    }

    #[cfg(not(feature = "templates"))]
    fn apply_templates(&self, _: &mut Dom, _: NodeId, _: Option<&str>) -> Vec<NodeId> {
        Vec::new()
    }
}

/// The language of a page's text for [`Options::languages`]: detected
/// from the text where the detector is sure ([`metadata::detect_language`],
/// ISO 639-1), else the page's declared one (its primary subtag), else
/// unknown (`None`: such a page passes the filter, as trafilatura's).
fn content_language(text: &str, declared: Option<&str>) -> Option<String> {
    let mut m = Metadata::default();
    metadata::detect_language(&mut m, text);
    m.language.or_else(|| {
        declared
            .and_then(|d| d.split(['-', '_']).next())
            .map(|d| d.trim().to_ascii_lowercase())
            .filter(|d| !d.is_empty())
    })
}

/// The `lang` of the page's `<html>` element.
fn declared_language(dom: &Dom) -> Option<String> {
    use crate::dom::Tag;
    dom.children(NodeId(0))
        .find(|&n| dom.is(n, Tag::HTML))
        .and_then(|n| dom.attr(n, "lang"))
        .map(str::to_owned)
}

/// [`Format::Xml`]'s document: the content fragment with the metadata
/// as `<doc>` attributes, in trafilatura's names.
fn xml_document(
    html: &str,
    meta: &Metadata,
    page_title: Option<&str>,
    url: Option<&str>,
    text: &str,
    page_type: Option<PageType>,
    comments: Option<&[Comment]>,
) -> String {
    let host = url.and_then(crate::document::host);
    let tags = meta.tags.join(";");
    let fingerprint = format!("{:016x}", crate::hash::simhash(text));
    let fields: [(&'static str, Option<&str>); 11] = [
        ("sitename", meta.site_name.as_deref()),
        ("title", meta.title.as_deref().or(page_title)),
        ("author", meta.author.as_deref()),
        ("date", meta.published.as_deref()),
        ("url", url.or(meta.canonical.as_deref())),
        ("hostname", host.as_deref()),
        ("description", meta.description.as_deref()),
        ("tags", Some(tags.as_str()).filter(|t| !t.is_empty())),
        ("fingerprint", Some(fingerprint.as_str())),
        ("language", meta.language.as_deref()),
        ("pagetype", page_type.map(PageType::name)),
    ];
    let attrs: Vec<render::xml::Attribute<'_>> = fields
        .iter()
        .filter_map(|&(k, v)| v.map(|v| (k, v)))
        .collect();
    let cs: Option<Vec<(Option<&str>, &str)>> = comments.map(|cs| {
        cs.iter()
            .map(|c| (c.author.as_deref(), c.text.as_str()))
            .collect()
    });
    render::xml::xml(html, &attrs, cs.as_deref())
}

/// Words a page's meta description needs to stand in for an empty
/// extraction: a sentence or two. Forum software that renders its threads
/// with JavaScript puts the first post's opening lines there (five
/// wcxb-dev threads, 24–27 words each); a bare site slogan is shorter.
pub const SUMMARY_MIN_WORDS: usize = 12;

/// `auto`'s last resort when it selected nothing (issue #23's class 4,
/// "return the little main text there is"): a page holding the meta
/// description ([`metadata::meta_description`]) as one paragraph, when it
/// has at least [`SUMMARY_MIN_WORDS`] words, with its root and a selection
/// of it, rendered by the same walk as any page.
fn description_page(
    dom: &Dom,
    deadline: &Deadline,
) -> Result<Option<(Dom, NodeId, Selection)>, Error> {
    let Some(d) = metadata::meta_description(dom) else {
        return Ok(None);
    };
    if d.split_whitespace().count() < SUMMARY_MIN_WORDS {
        return Ok(None);
    }
    let mut html = String::with_capacity(d.len() + 16);
    html.push_str("<p>");
    for c in d.chars() {
        match c {
            '<' => html.push_str("&lt;"),
            '&' => html.push_str("&amp;"),
            c => html.push(c),
        }
    }
    html.push_str("</p>");
    let page = parse::parse_within_defaults(&html, deadline)?;
    let root = page.content_root();
    let selection = Selection {
        nodes: vec![root],
        ..Selection::default()
    };
    Ok(Some((page, root, selection)))
}

/// What [`Extractor::read_before_clean`] read of the tree.
struct BeforeClean {
    /// Whether the metadata was read (and the language is to be detected).
    want_meta: bool,
    meta: Metadata,
    page_signals: Option<pagetype::Signals>,
    /// The `lang` of `<html>`, when the language filter is on.
    declared: Option<String>,
    base: Option<url::Url>,
    title: Option<String>,
}

/// What [`Extractor::run`] reads: [`Input`], with bytes maybe owned.
struct RawInput<'a> {
    bytes: PageBytes<'a>,
    url: Option<&'a str>,
    charset: Option<&'a str>,
}

impl<'a> From<Input<'a>> for RawInput<'a> {
    fn from(input: Input<'a>) -> RawInput<'a> {
        RawInput {
            bytes: PageBytes::Borrowed(input.bytes),
            url: input.url,
            charset: input.charset,
        }
    }
}

/// The page's metadata, read before cleaning removes the head's scripts
/// (JSON-LD) from the tree.
fn read_metadata(dom: &Dom, url: Option<&str>) -> Metadata {
    let page_url = url.and_then(|u| url::Url::parse(u).ok());
    metadata::metadata(dom, page_url.as_ref(), "")
}
