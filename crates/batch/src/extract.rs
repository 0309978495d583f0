//! Everything this crate asks of the core `unchaff` library, in one place:
//! a page to a row, the core's errors to row error kinds, and whether a
//! charset label is one a browser knows.

use unchaff::{Extractor, Format, Options};

use crate::row::{ErrorKind, Page, PageError, ROW_SCHEMA, Row, RowFormat, RowMetadata, TextFormat};

impl RowFormat {
    /// The extractor options these rows need: the core renders Markdown or
    /// HTML only for those formats, and computes the metadata only when
    /// [`Options::metadata`] is on.
    pub fn apply(self, options: Options) -> Options {
        options
            .with_format(self.text.into())
            .with_metadata(self.metadata)
    }
}

impl TryFrom<Format> for TextFormat {
    type Error = unchaff::Error;

    /// The text format of one of the core's formats: text, Markdown and
    /// HTML; a row's `text` holds no JSON or XML
    /// ([`unchaff::Error::BadOption`]).
    fn try_from(f: Format) -> Result<TextFormat, unchaff::Error> {
        match f {
            Format::Text => Ok(TextFormat::Text),
            Format::Markdown => Ok(TextFormat::Markdown),
            Format::Html => Ok(TextFormat::Html),
            other => Err(unchaff::Error::BadOption(format!(
                "a row's text is text, markdown or html, not {other}"
            ))),
        }
    }
}

impl From<TextFormat> for Format {
    /// The core's format of a row's text.
    fn from(f: TextFormat) -> Format {
        match f {
            TextFormat::Text => Format::Text,
            TextFormat::Markdown => Format::Markdown,
            TextFormat::Html => Format::Html,
        }
    }
}

/// Extracts one page into its default row ([`extract_row_with`] and the
/// default [`RowFormat`]).
pub fn extract_row(ex: &Extractor, page: Page) -> Row {
    extract_row_with(ex, page, RowFormat::default())
}

/// Extracts one page into its row. A page whose bytes could not be had is
/// an error row, and so is a page the extractor refuses; a page that runs
/// past the extractor's deadline ([`Options::with_timeout`]: checked inside
/// the stages, so a slow page is stopped there) is a `timeout` row. The
/// extractor must have been built with [`RowFormat::apply`]'s options for
/// `format` (else a Markdown or HTML row is an `extract` error row, and the
/// metadata is empty).
pub fn extract_row_with(ex: &Extractor, page: Page, format: RowFormat) -> Row {
    let mut row = Row {
        id: page.id,
        url: page.url,
        algorithm: ex.method().name().to_owned(),
        warc_record_id: page.record_id,
        warc_date: page.date,
        http_status: page.http_status,
        content_type: page.content_type,
        ..Row::default()
    };
    if !format.is_default() {
        row.schema = Some(ROW_SCHEMA);
        row.text_format = Some(format.text);
    }
    match page.body {
        Err(e) => row.error = Some(e),
        Ok(bytes) => {
            // Handed over: the extractor frees the page once it is parsed.
            let r = ex.extract_owned(bytes, row.url.as_deref(), page.charset.as_deref());
            match r {
                Ok(x) => {
                    row.comments = x.comments_text();
                    if format.simhash {
                        row.simhash = Some(format!("{:016x}", x.simhash()));
                    }
                    row.skipped = x.skipped.as_ref().map(unchaff::Skip::reason);
                    let text = match format.text {
                        TextFormat::Text => Some(x.text),
                        TextFormat::Markdown => x.markdown,
                        TextFormat::Html => x.html,
                    };
                    let Some(text) = text else {
                        row.error = Some(PageError::new(
                            ErrorKind::Extract,
                            format!(
                                "the extractor was not built for {:?} output (RowFormat::apply)",
                                format.text
                            ),
                        ));
                        return row;
                    };
                    row.title = x.title;
                    row.text = Some(text);
                    row.charset = Some(x.charset);
                    if format.metadata {
                        row.metadata = Some(row_metadata(x.metadata));
                        row.confidence = Some(x.confidence);
                        row.page_type = x.page_type.map(|t| t.name().to_owned());
                    }
                }
                Err(e) => row.error = Some(PageError::new(error_kind(&e), e.to_string())),
            }
        }
    }
    row
}

/// The core's metadata as a row's.
fn row_metadata(m: unchaff::Metadata) -> RowMetadata {
    RowMetadata {
        title: m.title,
        author: m.author,
        published: m.published,
        modified: m.modified,
        description: m.description,
        site_name: m.site_name,
        language: m.language,
        language_source: m.language_source.map(str::to_owned),
        canonical: m.canonical,
        categories: m.categories,
        tags: m.tags,
        image: m.image,
        license: m.license,
    }
}

/// The row error kind of a core error (an extraction stopped at
/// [`unchaff::Options::timeout`] is a `timeout` row).
pub fn error_kind(e: &unchaff::Error) -> ErrorKind {
    use unchaff::Error as E;
    match e {
        E::EmptyInput => ErrorKind::Empty,
        E::TooLarge { .. } => ErrorKind::TooLarge,
        E::Binary { .. } => ErrorKind::Binary,
        E::Gzip(_) => ErrorKind::Gzip,
        E::UnknownCharset(_) => ErrorKind::Charset,
        E::TooManyElements { .. } | E::TooDense { .. } => ErrorKind::TooManyElements,
        E::Timeout { .. } => ErrorKind::Timeout,
        E::Io(_) => ErrorKind::Read,
        _ => ErrorKind::Extract,
    }
}

/// Whether the core decodes a page declared with this charset label (an
/// unknown label is dropped by the readers: the page's own evidence decides).
pub(crate) fn known_charset(label: &str) -> bool {
    unchaff::is_known_charset(label)
}

/// The default extractor, for tests.
#[cfg(test)]
pub(crate) fn test_extractor() -> Extractor {
    Extractor::new(&unchaff::Options::default()).expect("the default extractor builds")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::article;

    #[test]
    fn rows_of_pages_errors_and_timeouts() {
        let ex = test_extractor();
        let page = Page::new("a", article("A", "apples fall far from trees").into_bytes())
            .with_url(Some("https://a.example/".into()));
        let row = extract_row(&ex, page.clone());
        assert_eq!(row.id, "a");
        assert_eq!(row.url.as_deref(), Some("https://a.example/"));
        assert_eq!(row.title.as_deref(), Some("A"));
        assert!(row.text.as_deref().unwrap().contains("apples fall"));
        assert_eq!(row.algorithm, ex.method().name());
        assert_eq!(row.error, None);

        let row = extract_row(&ex, Page::new("e", Vec::new()));
        assert_eq!(row.error.unwrap().kind, ErrorKind::Empty);
        let failed = Page::failed("r", PageError::new(ErrorKind::Read, "gone"));
        let row = extract_row(&ex, failed);
        assert_eq!(row.error.unwrap().message, "gone");
    }

    #[test]
    fn row_formats_markdown_html_and_metadata() {
        let html = "<html lang=en><head><title>Apples | Orchard</title>\
            <meta name=author content='Ann Smith'>\
            <meta property=og:site_name content=Orchard>\
            <link rel=canonical href=https://o.example/apples></head><body>\
            <article><h1>Apples</h1><p>Apples fall <b>far</b> from the trees in autumn, \
            says everyone who has an orchard and a long memory.</p>\
            <ul><li>red apples of the old kind</li><li>green apples of the new kind</li></ul>\
            </article></body></html>";
        let page = || Page::new("a", html.as_bytes().to_vec());
        let md = RowFormat::default().with_text(TextFormat::Markdown);
        let ex = Extractor::new(&md.apply(Options::new().with_metadata(false))).unwrap();
        let row = extract_row_with(&ex, page(), md);
        assert_eq!(row.schema, Some(ROW_SCHEMA));
        assert_eq!(row.text_format, Some(TextFormat::Markdown));
        assert!(row.text.as_deref().unwrap().contains("**far**"), "{row:?}");
        assert_eq!(row.metadata, None);

        let h = RowFormat::default()
            .with_text(TextFormat::Html)
            .with_metadata(true);
        let ex = Extractor::new(&h.apply(Options::new())).unwrap();
        let row = extract_row_with(&ex, page(), h);
        assert!(
            row.text.as_deref().unwrap().contains("<b>far</b>"),
            "{row:?}"
        );
        let m = row.metadata.unwrap();
        assert_eq!(m.title.as_deref(), Some("Apples"));
        assert_eq!(m.author.as_deref(), Some("Ann Smith"));
        assert_eq!(m.site_name.as_deref(), Some("Orchard"));
        assert_eq!(m.language.as_deref(), Some("en"));
        assert_eq!(m.canonical.as_deref(), Some("https://o.example/apples"));
        assert!(row.page_type.is_some(), "{:?}", row.page_type);
        let c = row.confidence.unwrap();
        assert!((0.0..=1.0).contains(&c), "{c}");
        assert_eq!(row.skipped, None);
        // Without metadata, neither (the default row stays as it was).
        assert_eq!(row_md_conf(&md, page()), None);

        // An extractor not built for the format: an error row, not text.
        let row = extract_row_with(&test_extractor(), page(), md);
        assert_eq!(row.error.unwrap().kind, ErrorKind::Extract);
        // The default row has none of it.
        let row = extract_row(&test_extractor(), page());
        assert_eq!((row.schema, row.text_format), (None, None));
    }

    /// The confidence of a row made with `format` (no metadata asked).
    fn row_md_conf(format: &RowFormat, page: Page) -> Option<f32> {
        let ex = Extractor::new(&format.apply(Options::new())).unwrap();
        extract_row_with(&ex, page, *format).confidence
    }

    #[test]
    fn a_page_below_the_minimum_confidence_is_marked_skipped() {
        let nav = "<html><body><div><a href=/a>Home</a> <a href=/b>About</a></div><p>Copyright 2024</p></body></html>";
        let good = article(
            "Apples",
            &"Apples fall far from the trees in autumn, says everyone who keeps an orchard. "
                .repeat(12),
        );
        let f = RowFormat::default().with_metadata(true);
        let ex = Extractor::new(&f.apply(Options::new().with_min_confidence(0.5))).unwrap();
        let weak = extract_row_with(&ex, Page::new("n", nav.as_bytes().to_vec()), f);
        assert_eq!(weak.skipped, Some("confidence"), "{weak:?}");
        assert!(weak.confidence.unwrap() < 0.5, "{weak:?}");
        let strong = extract_row_with(&ex, Page::new("g", good.into_bytes()), f);
        assert_eq!(strong.skipped, None, "{strong:?}");
        assert!(strong.confidence.unwrap() >= 0.5, "{strong:?}");
    }

    #[test]
    fn limits_of_the_core_are_row_errors_of_their_own_kind() {
        // A page past its deadline: stopped inside the stages (the
        // pre-pass polls the clock every 1,024 tags), a `timeout` row.
        let slow = "<p>word</p>".repeat(200_000);
        let ex = Extractor::new(&Options::new().with_timeout(std::time::Duration::from_nanos(1)))
            .unwrap();
        let row = extract_row(&ex, Page::new("t", slow.into_bytes()));
        let e = row.error.unwrap();
        assert_eq!(e.kind, ErrorKind::Timeout, "{e:?}");
        assert!(e.message.contains("time limit"), "{e:?}");
        assert_eq!(row.text, None);
        // A page over its element budget: `too_many_elements`, not `extract`.
        let ex = Extractor::new(&Options::new().with_max_elements(100)).unwrap();
        let dense = "<span>w</span>".repeat(1_000);
        let row = extract_row(&ex, Page::new("e", dense.into_bytes()));
        assert_eq!(row.error.unwrap().kind, ErrorKind::TooManyElements);
        assert_eq!(
            error_kind(&unchaff::Error::Io(std::io::Error::other("disk"))),
            ErrorKind::Read
        );
    }

    #[test]
    fn a_header_charset_beats_the_page() {
        let ex = test_extractor();
        let page = Page::new("c", b"<meta charset=koi8-r><p>\xe0\xe1\xe2".to_vec())
            .with_charset(Some("windows-1251".into()));
        let row = extract_row(&ex, page);
        assert_eq!(row.charset.as_deref(), Some("windows-1251"));
    }
}
