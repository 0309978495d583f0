//! Pages in, rows out: the types that cross the crate's boundary.

use serde::{Deserialize, Serialize};

/// Why a page has no text: a short machine-readable kind. Declared in
/// alphabetical order, so a `BTreeMap` keyed by kind lists them by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is binary data, not an HTML page.
    Binary,
    /// The caller's charset label is unknown.
    Charset,
    /// The page is empty.
    Empty,
    /// A WARC response whose HTTP `Content-Encoding` cannot be undone (not
    /// supported, or a corrupt stream).
    Encoding,
    /// Any other extraction failure.
    Extract,
    /// A WARC record whose `Content-Length` does not match its content
    /// (the reader resynchronised on the next record).
    Framing,
    /// A gzip page that does not inflate.
    Gzip,
    /// A JSONL line that is not a page object.
    Json,
    /// The page could not be read (I/O error).
    Read,
    /// The extraction ran past the page's deadline (stopped there, inside
    /// the stage that was running).
    Timeout,
    /// The page is over the size limit.
    TooLarge,
    /// The page builds more elements than its budget (markup that makes
    /// the HTML5 tree builder multiply elements), or elements that would
    /// take more memory than its size allows (`unchaff::Error::TooDense`).
    TooManyElements,
    /// A WARC record cut short (truncated file, corrupt gzip member).
    Truncated,
}

impl ErrorKind {
    /// The kind as written in rows (`too_large`, `read`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Binary => "binary",
            ErrorKind::Charset => "charset",
            ErrorKind::Empty => "empty",
            ErrorKind::Encoding => "encoding",
            ErrorKind::Extract => "extract",
            ErrorKind::Framing => "framing",
            ErrorKind::Gzip => "gzip",
            ErrorKind::Json => "json",
            ErrorKind::Read => "read",
            ErrorKind::Timeout => "timeout",
            ErrorKind::TooLarge => "too_large",
            ErrorKind::TooManyElements => "too_many_elements",
            ErrorKind::Truncated => "truncated",
        }
    }

    /// Whether the input could not be read at all (as opposed to read and
    /// refused by a limit or by the extractor): what makes a run that read
    /// nothing a failure.
    pub fn is_unreadable(self) -> bool {
        matches!(
            self,
            ErrorKind::Framing | ErrorKind::Read | ErrorKind::Truncated
        )
    }
}

impl std::fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a page has no text: its kind and a message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageError {
    /// The kind.
    pub kind: ErrorKind,
    /// What happened.
    pub message: String,
}

impl PageError {
    /// An error of this kind.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> PageError {
        PageError {
            kind,
            message: message.into(),
        }
    }

    /// A page over the size limit.
    pub(crate) fn too_large(len: u64, max: usize) -> PageError {
        PageError::new(
            ErrorKind::TooLarge,
            format!("page of {len} bytes is over --max-bytes {max}"),
        )
    }
}

/// One page to extract, or the reason it could not be read.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Page {
    /// Its id in the output: a file's name without the page extensions, a
    /// WARC record's `WARC-Record-ID`, a JSONL row's `id` or `url`.
    pub id: String,
    /// Its URL, when the input gives one.
    pub url: Option<String>,
    /// A charset label from outside the page (an HTTP header); it beats the
    /// page's own declaration.
    pub charset: Option<String>,
    /// Its bytes (possibly gzipped), or why they could not be had.
    pub body: Result<Vec<u8>, PageError>,
    /// The WARC record's `WARC-Date`, for WARC pages.
    pub date: Option<String>,
    /// The HTTP status code, for WARC pages.
    pub http_status: Option<u16>,
    /// The HTTP `Content-Type` (MIME type, lower case), for WARC pages.
    pub content_type: Option<String>,
    /// The WARC record's `WARC-Record-ID` (without `<>`), for WARC pages.
    pub record_id: Option<String>,
}

impl Page {
    /// A page of these bytes.
    pub fn new(id: impl Into<String>, bytes: Vec<u8>) -> Page {
        Page::from_body(id, Ok(bytes))
    }

    /// A page whose bytes could not be had: it becomes an error row.
    pub fn failed(id: impl Into<String>, error: PageError) -> Page {
        Page::from_body(id, Err(error))
    }

    pub(crate) fn from_body(id: impl Into<String>, body: Result<Vec<u8>, PageError>) -> Page {
        Page {
            id: id.into(),
            url: None,
            charset: None,
            body,
            date: None,
            http_status: None,
            content_type: None,
            record_id: None,
        }
    }

    /// The page with its URL.
    pub fn with_url(mut self, url: Option<String>) -> Page {
        self.url = url;
        self
    }

    /// The page with an outside charset label.
    pub fn with_charset(mut self, charset: Option<String>) -> Page {
        self.charset = charset;
        self
    }
}

/// The version of the row schema (`docs/json-schema.md`), written as the
/// row's `schema` field when a [`RowFormat`] asks for more than the
/// default row (the default row is written without it, byte for byte as
/// before the field existed).
pub const ROW_SCHEMA: u32 = 2;

/// What the `text` field of a row holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum TextFormat {
    /// Plain text, one block a line.
    #[default]
    Text,
    /// Markdown.
    Markdown,
    /// A clean HTML fragment.
    Html,
}

/// What rows carry beyond the default fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct RowFormat {
    /// Add the page's metadata (`metadata`: title, author, dates, …).
    pub metadata: bool,
    /// Add `simhash`, a 64-bit SimHash of the plain text
    /// (`unchaff::simhash`), for near-duplicate work downstream.
    pub simhash: bool,
    /// What `text` holds.
    pub text: TextFormat,
}

impl RowFormat {
    /// Rows with metadata.
    pub fn with_metadata(mut self, on: bool) -> RowFormat {
        self.metadata = on;
        self
    }

    /// Rows with `simhash`.
    pub fn with_simhash(mut self, on: bool) -> RowFormat {
        self.simhash = on;
        self
    }

    /// Rows whose `text` is in this format.
    pub fn with_text(mut self, text: TextFormat) -> RowFormat {
        self.text = text;
        self
    }

    /// Whether rows are the default ones (no `schema` field written).
    pub fn is_default(self) -> bool {
        self == RowFormat::default()
    }
}

/// A page's metadata in a row: the fields and names of the `metadata`
/// object of `unchaff extract -f json` (see `unchaff::Metadata`).
/// A copy rather than `unchaff::Metadata` itself because rows are read
/// back (`--resume`), and the core's type only serializes (its
/// `language_source` is a `&'static str`); keep the two field lists alike.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RowMetadata {
    /// The article's title (cleaned of the site name).
    pub title: Option<String>,
    /// Author name(s), `; ` between several.
    pub author: Option<String>,
    /// Publication date, ISO 8601.
    pub published: Option<String>,
    /// Last modification date, ISO 8601.
    pub modified: Option<String>,
    /// The page's own summary.
    pub description: Option<String>,
    /// The site's name.
    pub site_name: Option<String>,
    /// Language tag.
    pub language: Option<String>,
    /// `declared` or `detected`.
    pub language_source: Option<String>,
    /// The canonical URL.
    pub canonical: Option<String>,
    /// The sections the site files the page under (absent in rows
    /// written before the field: read as empty).
    #[serde(default)]
    pub categories: Vec<String>,
    /// The page's keywords and tags.
    pub tags: Vec<String>,
    /// The page's preview image.
    #[serde(default)]
    pub image: Option<String>,
    /// The licence of the page's content.
    #[serde(default)]
    pub license: Option<String>,
}

/// One output row. In JSONL: `{"id", "url", "title", "text", "algorithm",
/// "charset", "error"}`; `error` is null or `{"kind", "message"}`, and then
/// `text` is null. The other fields are written only when present: `schema`,
/// `text_format` and `metadata` with a non-default [`RowFormat`], the
/// `warc_*`, `http_status` and `content_type` fields for WARC pages.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The row schema version (2, docs/json-schema.md), with a non-default
    /// [`RowFormat`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<u32>,
    /// The page's id.
    pub id: String,
    /// The page's URL.
    pub url: Option<String>,
    /// The page's `<title>`.
    pub title: Option<String>,
    /// The main content, as text (or as [`Row::text_format`] says).
    pub text: Option<String>,
    /// The algorithm that extracted it.
    pub algorithm: String,
    /// The charset the page was decoded with.
    pub charset: Option<String>,
    /// Why there is no text.
    pub error: Option<PageError>,
    /// What `text` holds, with a non-default [`RowFormat`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_format: Option<TextFormat>,
    /// The page's metadata, with [`RowFormat::metadata`] (null on an error
    /// row).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<RowMetadata>,
    /// How likely `text` is the page's main content, 0 to 1
    /// (`unchaff::Extraction::confidence`: an estimate of its shingle F1,
    /// calibrated on the dev folders), with [`RowFormat::metadata`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f32>,
    /// What kind of page it is (`article`, `forum`, `product`, `listing`,
    /// `documentation`, `other`: `unchaff::PageType`), with
    /// [`RowFormat::metadata`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_type: Option<String>,
    /// The page's comments apart from its content, when the extractor
    /// was built with `unchaff::Options::comments` (`--comments`): each
    /// comment's author on a line of its own (`Name:`) before its text, a
    /// blank line between comments (`unchaff::Extraction::comments_text`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// A 64-bit SimHash of the plain text, 16 hex digits
    /// (`unchaff::simhash`: near-duplicate texts differ in few
    /// bits), with [`RowFormat::simhash`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub simhash: Option<String>,
    /// Why a corpus filter of the extractor's options (`--min-confidence`,
    /// `--lang`) drops the page (`confidence`, `language`): such a row is
    /// not written; [`crate::driver::Stats::skipped`] counts it.
    #[serde(skip)]
    pub skipped: Option<&'static str>,
    /// The WARC record's `WARC-Record-ID`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warc_record_id: Option<String>,
    /// The WARC record's `WARC-Date`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warc_date: Option<String>,
    /// The HTTP status of a WARC response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_status: Option<u16>,
    /// The HTTP `Content-Type` (MIME type) of a WARC response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_sort_by_name_and_serialize_as_written() {
        let all = [
            ErrorKind::Binary,
            ErrorKind::Charset,
            ErrorKind::Empty,
            ErrorKind::Extract,
            ErrorKind::Framing,
            ErrorKind::Gzip,
            ErrorKind::Json,
            ErrorKind::Read,
            ErrorKind::Timeout,
            ErrorKind::TooLarge,
            ErrorKind::Truncated,
        ];
        for w in all.windows(2) {
            assert!(w[0] < w[1] && w[0].as_str() < w[1].as_str(), "{w:?}");
        }
        for k in all {
            assert_eq!(
                serde_json::to_string(&k).unwrap(),
                format!("\"{}\"", k.as_str())
            );
        }
    }

    #[test]
    fn rows_written_before_the_new_metadata_fields_read_back() {
        let old = r#"{"title":"T","author":null,"published":null,"modified":null,"description":null,"site_name":null,"language":null,"language_source":null,"canonical":null,"tags":["a"]}"#;
        let m: RowMetadata = serde_json::from_str(old).unwrap();
        assert_eq!(m.tags, vec!["a"]);
        assert!(m.categories.is_empty() && m.image.is_none() && m.license.is_none());
        let json = serde_json::to_string(&m).unwrap();
        assert!(
            json.ends_with(
                r#""canonical":null,"categories":[],"tags":["a"],"image":null,"license":null}"#
            ),
            "{json}"
        );
    }

    #[test]
    fn row_json_field_order() {
        let mut row = Row {
            id: "a".into(),
            algorithm: "x".into(),
            error: Some(PageError::new(ErrorKind::TooLarge, "m")),
            ..Row::default()
        };
        // The default row: byte for byte as before the optional fields.
        assert_eq!(
            serde_json::to_string(&row).unwrap(),
            r#"{"id":"a","url":null,"title":null,"text":null,"algorithm":"x","charset":null,"error":{"kind":"too_large","message":"m"}}"#
        );
        row.schema = Some(ROW_SCHEMA);
        row.text_format = Some(TextFormat::Markdown);
        row.warc_record_id = Some("urn:uuid:a".into());
        row.http_status = Some(200);
        let json = serde_json::to_string(&row).unwrap();
        assert!(json.starts_with(r#"{"schema":2,"id":"a","#), "{json}");
        assert!(
            json.ends_with(
                r#""text_format":"markdown","warc_record_id":"urn:uuid:a","http_status":200}"#
            ),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Row>(&json).unwrap(), row);
    }
}
