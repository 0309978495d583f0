//! The pipeline, run once per page: [`Extractor`] holds what is built once
//! (the algorithm with its model, a template library) and runs the stages
//! in order, each a named step below.

use std::time::Duration;

use crate::algorithms::{self, Algorithm, Selection};
use crate::annotate::{self, Page};
use crate::comments::Comment;
use crate::confidence::{self, Signals};
use crate::decode::{self, CharsetSource};
use crate::dom::{Dom, NodeId};
use crate::limits::{Deadline, Instant, Stage};
use crate::metadata::{self, Metadata};
use crate::pagetype::{self, PageType};
use crate::{Error, Format, Input, Method, Options, clean, css, parse, render};

/// The version of the JSON output's schema (`docs/json-schema.md`).
pub const JSON_SCHEMA: u32 = 2;

/// Share of control bytes in the first [`BINARY_SNIFF_BYTES`] above which
/// input is called binary: real HTML has none, stray ones come in ones and
/// twos; random bytes have ~10%, images and archives far more.
pub const BINARY_CONTROL_PERCENT: u32 = 2;

/// How much of the input the binary check reads.
pub const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// Fewest control bytes that make input binary: a short text with a few
/// stray control characters is still text.
pub const BINARY_MIN_CONTROLS: usize = 32;

/// [`BINARY_MIN_CONTROLS`] for what came out of gzip: a compressed page is
/// a page, and 200 random bytes gzipped (about 21 control bytes) came out
/// as garbage text with no error (issue 41).
pub const BINARY_MIN_CONTROLS_GZIP: usize = 4;

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
    /// F1 is about 0.8; [`crate::confidence`] says how it is computed,
    /// `docs/RESULTS.md` how well it holds). Low on pages whose content
    /// the algorithm could not tell: send them to another extractor, a
    /// person, or drop them ([`Options::min_confidence`]).
    pub confidence: f32,
    /// What kind of page it is ([`PageType`]), read from what the page
    /// says of itself and how it is built ([`crate::pagetype`]); filled
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
    /// without [`Options::comments`] ([`crate::comments::as_text`]).
    pub fn comments_text(&self) -> Option<String> {
        self.comments.as_deref().map(crate::comments::as_text)
    }

    /// The comments as Markdown ([`crate::comments::as_markdown`]).
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
/// summed over many ([`StageTimes::add`]).
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct StageTimes {
    /// gunzip + charset detection + decoding.
    pub decode: Duration,
    /// HTML5 tree building.
    pub parse: Duration,
    /// Metadata, cleaning, templates and the statistics pass.
    pub annotate: Duration,
    /// The algorithm.
    pub algorithm: Duration,
    /// Rendering the outputs.
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
    /// the algorithm reads the source ([`Algorithm::reads_source`]) the
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
        let mut times = StageTimes::default();
        let t0 = Instant::now();
        let deadline = Deadline::after(self.options.timeout);
        let owned = matches!(input.bytes, PageBytes::Owned(_));
        let url = input.url;
        let mut decoded = decode_input(input.bytes, input.charset, self.options.max_input_bytes)?;
        deadline.check(Stage::Decode)?;
        let t1 = Instant::now();
        let mut dom = match self.options.max_elements {
            Some(budget) => parse::parse_limited(&decoded.text, budget, &deadline)?,
            None => parse::parse_within_defaults(&decoded.text, &deadline)?,
        };
        let t2 = Instant::now();
        let root = dom.content_root();
        let fmt = self.options.format;
        // Before cleaning: the head and the body's scripts are still linked.
        // Markdown's title heading is the article's title, not `<title>`
        // with the site's name.
        let want_meta = self.options.metadata
            || matches!(fmt, Format::Json | Format::Xml)
            || (fmt == Format::Markdown && self.options.markdown_title);
        let mut meta = if want_meta {
            read_metadata(&dom, url)
        } else {
            Metadata::default()
        };
        // The page type comes with the metadata (not with Markdown's title).
        let mut page_signals = (self.options.metadata || matches!(fmt, Format::Json | Format::Xml))
            .then(|| pagetype::signals(&dom, url));
        // The declared language, for the language filter (before cleaning).
        let declared = match self.languages.is_empty() {
            true => None,
            false => declared_language(&dom),
        };
        let base = match fmt {
            Format::Text => None,
            _ => render::base_url(&dom, url),
        };
        // The first `<title>` anywhere, as `document.title`: before
        // cleaning, which drops one that a wrapper element put in the body.
        let title = render::title(&dom);
        deadline.check(Stage::Annotate)?;
        let hidden_body = article_body_in_noscript(&decoded.text, &dom, root);
        clean::clean(&mut dom, root);
        let mut root = root;
        rescue_if_empty(
            &decoded.text,
            &mut dom,
            &mut root,
            hidden_body,
            self.options.max_elements,
            &deadline,
        )?;
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
            pruned = without_tables(&dom);
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
        let text_chars = text.chars().filter(|c| !c.is_whitespace()).count() as u32;
        // The page's summary standing in for an empty selection is read
        // as any selection is.
        let signals = match (selection.confidence, &summary) {
            (Some(a), None) => Signals::Auto(a),
            _ => confidence::generic_signals(text_chars, page_chars, sel_chars, sel_links),
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
        times.decode = t1 - t0;
        times.parse = t2 - t1;
        times.annotate = t3 - t2;
        times.algorithm = t_algorithm - t3;
        times.render = t5 - t4;
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
    let host = url
        .and_then(|u| url::Url::parse(u).ok())
        .and_then(|u| u.host_str().map(str::to_owned));
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

/// A copy of the tree without its data tables ([`Options::tables`] off).
/// A table is data unless it lays the page out: a layout table holds
/// another table, or blocks of prose (paragraphs, divisions, lists,
/// headings) in its cells — unless it has a header (`th`, `thead`,
/// `caption`), which only data tables have.
fn without_tables(dom: &Dom) -> Dom {
    use crate::dom::Tag;
    let mut copy = dom.clone();
    let mut data_tables = Vec::new();
    for i in 0..dom.len() {
        let table = NodeId(i as u32);
        if !dom.is(table, Tag::TABLE) {
            continue;
        }
        let (mut header, mut layout) = (false, false);
        // Stops at the first nested table: each node is looked at by few tables.
        for n in dom.descendants(table).skip(1) {
            match dom.tag(n) {
                Some(Tag::TABLE) => {
                    layout = true;
                    break;
                }
                Some(Tag::TH | Tag::THEAD | Tag::CAPTION) => header = true,
                Some(tag) if LAYOUT_BLOCKS.contains(&tag) => layout = true,
                _ => {}
            }
        }
        if header || !layout {
            data_tables.push(table);
        }
    }
    copy.detach_all(&data_tables);
    copy
}

/// Blocks of prose that mark a table cell as page layout rather than data.
const LAYOUT_BLOCKS: &[crate::dom::Tag] = {
    use crate::dom::Tag;
    &[
        Tag::P,
        Tag::DIV,
        Tag::UL,
        Tag::OL,
        Tag::H1,
        Tag::H2,
        Tag::H3,
        Tag::H4,
        Tag::H5,
        Tag::H6,
        Tag::BLOCKQUOTE,
        Tag::ARTICLE,
        Tag::SECTION,
        Tag::FORM,
    ]
};

/// Below this many characters of text (white space collapsed) after
/// cleaning, a page is (nearly) empty and [`rescue_if_empty`] parses it
/// again. The dev pages that came out empty while their gold has text
/// (issue #23: Discourse threads whose posts are in `<noscript>`, Next.js
/// pages hidden until a script runs, titles left unclosed) hold less;
/// a real article's page has thousands.
pub const RESCUE_BELOW_CHARS: usize = 200;

/// The characters of text (not white space) in the subtree of `root`,
/// counted up to `cap`.
fn text_chars(dom: &Dom, root: NodeId, cap: usize) -> usize {
    let mut n = 0;
    for id in dom.descendants(root) {
        if let Some(t) = dom.text_of(id) {
            n += t.chars().filter(|c| !c.is_whitespace()).count();
            if n >= cap {
                break;
            }
        }
    }
    n
}

/// At most this many elements marked as an article's body are looked
/// into: a page has one (a few with teasers); walking the subtree of
/// each of thousands of nested ones would take quadratic time.
const ARTICLE_BODIES_CHECKED: usize = 4;

/// Whether `n` is marked as an article's body (schema.org's
/// `itemprop="articleBody"`).
fn is_article_body(dom: &Dom, n: NodeId) -> bool {
    dom.attr(n, "itemprop")
        .is_some_and(|v| v.split_ascii_whitespace().any(|t| t == "articleBody"))
}

/// The most characters of text (up to `cap`) in an element of the tree
/// marked as the article's body ([`is_article_body`]).
fn article_body_chars(dom: &Dom, root: NodeId, cap: usize) -> usize {
    dom.descendants(root)
        .filter(|&n| is_article_body(dom, n))
        .take(ARTICLE_BODIES_CHECKED)
        .map(|n| text_chars(dom, n, cap))
        .max()
        .unwrap_or(0)
}

/// Whether the page marks an element as its article's body
/// ([`is_article_body`]) that holds (nearly) no text but a `<noscript>`:
/// the article is written there for clients without scripts, and by a
/// script for the others (Blogger's templates put the post in a
/// `<script type="text/template">` and again in a `<noscript>`). Read
/// before cleaning, which removes the (emptied) `<noscript>` elements.
/// `html`, the page's markup, is searched for the attribute's value
/// first: most pages lack it, and a substring search costs less than a
/// walk reading every element's attributes.
fn article_body_in_noscript(html: &str, dom: &Dom, root: NodeId) -> bool {
    if memchr::memmem::find(html.as_bytes(), b"articleBody").is_none() {
        return false;
    }
    dom.descendants(root)
        .filter(|&n| is_article_body(dom, n))
        .take(ARTICLE_BODIES_CHECKED)
        .any(|n| {
            dom.descendants(n)
                .any(|d| dom.tag(d) == Some(crate::dom::Tag::NOSCRIPT))
                && text_chars(dom, n, RESCUE_BELOW_CHARS) < RESCUE_BELOW_CHARS
        })
}

/// Parses the page again the way a browser without scripts would show
/// it, and takes that tree when it shows what was missing:
///
/// * when the cleaned page holds (nearly) no text: if the new tree holds
///   at least [`RESCUE_BELOW_CHARS`] more (a "please enable JavaScript"
///   line is no rescue);
/// * when the article's body is in a `<noscript>` (`hidden_body`,
///   [`article_body_in_noscript`]): if the new tree's article body holds
///   at least [`RESCUE_BELOW_CHARS`].
///
/// The new tree has `<noscript>` bodies as markup, unclosed titles ended
/// at their first tag ([`parse::parse_rescue`]), and elements hidden by
/// markup kept ([`clean::clean_keeping_hidden`]). Other pages are not
/// touched (the count stops at [`RESCUE_BELOW_CHARS`]). A rescue over the
/// element budget keeps the first tree.
fn rescue_if_empty(
    text: &str,
    dom: &mut Dom,
    root: &mut NodeId,
    hidden_body: bool,
    budget: Option<usize>,
    deadline: &Deadline,
) -> Result<(), Error> {
    let before = text_chars(dom, *root, RESCUE_BELOW_CHARS);
    if before >= RESCUE_BELOW_CHARS && !hidden_body {
        return Ok(());
    }
    let mut again = match parse::parse_rescue(text, budget, deadline) {
        Ok(d) => d,
        Err(Error::TooManyElements { .. } | Error::TooDense { .. }) => return Ok(()),
        Err(e) => return Err(e),
    };
    let r = again.content_root();
    clean::clean_keeping_hidden(&mut again, r);
    let shows_more = if before < RESCUE_BELOW_CHARS {
        text_chars(&again, r, before + RESCUE_BELOW_CHARS) >= before + RESCUE_BELOW_CHARS
    } else {
        article_body_chars(&again, r, RESCUE_BELOW_CHARS) >= RESCUE_BELOW_CHARS
    };
    if shows_more {
        *dom = again;
        *root = r;
    }
    Ok(())
}

/// Stage 1: size limit, gunzip, charset, decoding, and the binary check.
/// The text borrows the input where the input is UTF-8, and owns the
/// inflated bytes of gzip input (no copy of the page either way).
fn decode_input<'a>(
    bytes: PageBytes<'a>,
    charset: Option<&str>,
    max: usize,
) -> Result<decode::Decoded<'a>, Error> {
    if bytes.len() > max {
        return Err(Error::TooLarge { limit: max });
    }
    let (raw, gzipped) = match bytes {
        PageBytes::Borrowed(b) => {
            let raw = decode::gunzip_if_needed(b, max)?;
            let gzipped = matches!(raw, std::borrow::Cow::Owned(_));
            (raw, gzipped)
        }
        PageBytes::Owned(b) => {
            let inflated = match decode::gunzip_if_needed(&b, max)? {
                std::borrow::Cow::Owned(inflated) => Some(inflated),
                std::borrow::Cow::Borrowed(_) => None,
            };
            let gzipped = inflated.is_some();
            (std::borrow::Cow::Owned(inflated.unwrap_or(b)), gzipped)
        }
    };
    if raw.is_empty() {
        return Err(Error::EmptyInput);
    }
    // What came out of gzip was compressed on purpose: a page, not a few
    // stray control bytes in a short text.
    let min_controls = match gzipped {
        true => BINARY_MIN_CONTROLS_GZIP,
        false => BINARY_MIN_CONTROLS,
    };
    let is_utf16 = |d: &decode::Decoded<'_>| matches!(d.encoding.name(), "UTF-16LE" | "UTF-16BE");
    match raw {
        std::borrow::Cow::Borrowed(raw) => {
            let decoded = decode::decode(raw, charset)?;
            if !is_utf16(&decoded) {
                check_not_binary(raw, min_controls)?;
            }
            Ok(decoded)
        }
        std::borrow::Cow::Owned(raw) => {
            let binary = check_not_binary(&raw, min_controls);
            let decoded = decode::decode_owned(raw, charset)?;
            if !is_utf16(&decoded) {
                binary?;
            }
            Ok(decoded)
        }
    }
}

/// A page's bytes: lent by the caller, or handed over
/// ([`Extractor::extract_owned`]).
enum PageBytes<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

impl PageBytes<'_> {
    fn len(&self) -> usize {
        match self {
            PageBytes::Borrowed(b) => b.len(),
            PageBytes::Owned(b) => b.len(),
        }
    }
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

/// Fails on input whose first bytes hold more than
/// [`BINARY_CONTROL_PERCENT`] control characters, and at least
/// `min_controls` of them.
fn check_not_binary(bytes: &[u8], min_controls: usize) -> Result<(), Error> {
    let head = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b))
        .count();
    let percent = (controls * 100 / head.len().max(1)) as u32;
    if controls >= min_controls && controls * 100 > head.len() * BINARY_CONTROL_PERCENT as usize {
        return Err(Error::Binary { percent });
    }
    Ok(())
}

/// A page taken through decode, parse and clean, ready to annotate: what
/// training and template learning need from the pipeline (no templates,
/// no metadata).
#[cfg(any(feature = "unstable", feature = "templates"))]
pub struct Prepared {
    /// The decoded source.
    pub text: String,
    /// The cleaned tree.
    pub dom: Dom,
    /// The content root (`<body>`).
    pub root: NodeId,
}

#[cfg(any(feature = "unstable", feature = "templates"))]
impl Prepared {
    /// Decodes (gzip, charset), parses and cleans `bytes`.
    pub fn new(bytes: &[u8]) -> Result<Prepared, Error> {
        let raw = decode::gunzip_if_needed(bytes, decode::DEFAULT_MAX_INPUT)?;
        if raw.is_empty() {
            return Err(Error::EmptyInput);
        }
        let text = decode::decode(&raw, None)?.text.into_owned();
        drop(raw);
        let mut dom = parse::parse(&text);
        let mut root = dom.content_root();
        let hidden_body = article_body_in_noscript(&text, &dom, root);
        clean::clean(&mut dom, root);
        rescue_if_empty(
            &text,
            &mut dom,
            &mut root,
            hidden_body,
            Some(usize::MAX),
            &Deadline::NONE,
        )?;
        Ok(Prepared { text, dom, root })
    }

    /// The annotated page.
    pub fn page(&self) -> Page<'_> {
        annotate::annotate(&self.dom, &self.text, self.root)
    }
}
