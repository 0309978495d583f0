//! Documents around the content: an extraction's metadata under
//! trafilatura's field names, and the two headers that carry it with the
//! content — YAML front matter above text or Markdown, and an HTML
//! document whose head holds it as `<meta>` tags. One place for the
//! Python binding's `with_metadata`, the CLI's `--with-metadata` and any
//! library user who writes documents out.

use crate::Extraction;
use crate::Format;

/// The metadata fields of [`Extraction::metadata_fields`], in the order
/// they are written.
pub const FIELDS: [&str; 12] = [
    "title",
    "author",
    "url",
    "hostname",
    "description",
    "sitename",
    "date",
    "modified",
    "language",
    "canonical",
    "image",
    "license",
];

/// The list fields of [`Extraction::metadata_lists`], in the order they
/// are written.
pub const LISTS: [&str; 2] = ["categories", "tags"];

/// The host of a URL (`https://news.example/a` → `news.example`).
pub(crate) fn host(url: &str) -> Option<String> {
    url::Url::parse(url).ok()?.host_str().map(str::to_owned)
}

impl Extraction {
    /// The page's host: of the URL given, else of the page's canonical
    /// URL.
    pub fn hostname(&self) -> Option<String> {
        host(self.url.as_deref().or(self.metadata.canonical.as_deref())?)
    }

    /// The title a reader is shown: the article's ([`crate::Metadata::title`],
    /// cleaned of the site name), else the page's `<title>`.
    pub fn display_title(&self) -> Option<&str> {
        self.metadata.title.as_deref().or(self.title.as_deref())
    }

    /// The metadata as (field, value) pairs in trafilatura's names where
    /// they overlap ([`FIELDS`]: `date` is the publication date,
    /// `sitename` the site, `url` the URL given, else the page's canonical
    /// URL, as trafilatura falls back to it). A field the page does not
    /// give is `None`. Metadata is read with [`crate::Options::metadata`]
    /// (or the JSON format); without it only `title`, `url` and
    /// `hostname` can be set.
    pub fn metadata_fields(&self) -> [(&'static str, Option<String>); 12] {
        let m = &self.metadata;
        let values = [
            self.display_title().map(str::to_owned),
            m.author.clone(),
            self.url.clone().or_else(|| m.canonical.clone()),
            self.hostname(),
            m.description.clone(),
            m.site_name.clone(),
            m.published.clone(),
            m.modified.clone(),
            m.language.clone(),
            m.canonical.clone(),
            m.image.clone(),
            m.license.clone(),
        ];
        let mut i = 0;
        values.map(|v| {
            i += 1;
            (FIELDS[i - 1], v)
        })
    }

    /// The metadata's list fields ([`LISTS`]: the categories and tags).
    pub fn metadata_lists(&self) -> [(&'static str, &[String]); 2] {
        [
            (LISTS[0], &self.metadata.categories),
            (LISTS[1], &self.metadata.tags),
        ]
    }

    /// The metadata as YAML front matter between `---` lines, for text
    /// and Markdown (trafilatura's `with_metadata` header; absent fields
    /// left out, lists joined with `, `). Every value is on one line, plain
    /// where YAML reads it back as the same string, else double-quoted: the
    /// page's text can never end the header or add a key.
    pub fn front_matter(&self) -> String {
        let mut s = String::from("---\n");
        let mut line = |k: &str, v: &str| {
            s.push_str(k);
            s.push_str(": ");
            s.push_str(&yaml_scalar(&v.replace('\n', " ")));
            s.push('\n');
        };
        for (k, v) in self.metadata_fields() {
            if let Some(v) = v {
                line(k, &v);
            }
        }
        for (k, v) in self.metadata_lists() {
            if !v.is_empty() {
                line(k, &v.join(", "));
            }
        }
        s.push_str("---\n");
        s
    }

    /// The clean HTML fragment in a whole document whose head carries the
    /// title and the metadata as `<meta name=… content=…>` tags, every
    /// value escaped. The body is [`Extraction::html`] (empty unless the
    /// format was HTML or [`crate::Options::json_html`] was on).
    pub fn html_document(&self) -> String {
        let mut s = String::from("<html><head><meta charset=\"utf-8\">");
        if let Some(t) = self.display_title() {
            s.push_str("<title>");
            s.push_str(&escape_html(t));
            s.push_str("</title>");
        }
        let mut meta = |k: &str, v: &str| {
            s.push_str("<meta name=\"");
            s.push_str(k);
            s.push_str("\" content=\"");
            s.push_str(&escape_html(v));
            s.push_str("\">");
        };
        for (k, v) in self.metadata_fields() {
            if let Some(v) = v.filter(|_| k != "title") {
                meta(k, &v);
            }
        }
        for (k, v) in self.metadata_lists() {
            if !v.is_empty() {
                meta(k, &v.join(", "));
            }
        }
        s.push_str("</head><body>");
        s.push_str(self.html.as_deref().unwrap_or(""));
        s.push_str("</body></html>");
        s
    }

    /// The output of the options' format with its metadata: text and
    /// Markdown after [`Extraction::front_matter`], HTML as
    /// [`Extraction::html_document`]; JSON and XML as
    /// [`Extraction::render`] (they carry the metadata already).
    pub fn render_with_metadata(&self) -> String {
        match self.format() {
            Format::Text | Format::Markdown => {
                let mut s = self.front_matter();
                s.push_str(&self.rendered());
                s
            }
            Format::Html => self.html_document(),
            Format::Json | Format::Xml => self.render(),
        }
    }
}

/// A string as a YAML scalar on one line: plain where that reads back as
/// the same string (`How the town rebuilt it`, `2026-03-14`), else double
/// quoted with escapes. A page's title with `: ` in it made the front
/// matter invalid YAML (issue 41).
fn yaml_scalar(v: &str) -> String {
    /// Characters that, first on a line, make YAML read something other
    /// than a plain string (YAML 1.2, "c-indicator").
    const INDICATORS: &str = "-?:,[]{}#&*!|>'\"%@`";
    let first = v.chars().next();
    let plain = !v.is_empty()
        && !first.is_some_and(|c| INDICATORS.contains(c) || c.is_whitespace())
        && !v.ends_with(|c: char| c.is_whitespace() || c == ':')
        && !v.contains(": ")
        && !v.contains(" #")
        && !v.chars().any(|c| c.is_control() || c == '\u{feff}')
        && !matches!(
            v.to_ascii_lowercase().as_str(),
            "~" | "null" | "true" | "false" | "yes" | "no" | "on" | "off"
        );
    if plain {
        return v.to_owned();
    }
    let mut q = String::with_capacity(v.len() + 2);
    q.push('"');
    for c in v.chars() {
        match c {
            '"' => q.push_str("\\\""),
            '\\' => q.push_str("\\\\"),
            c if c.is_control() || c == '\u{feff}' => q.push_str(&format!("\\u{:04x}", c as u32)),
            c => q.push(c),
        }
    }
    q.push('"');
    q
}

/// Text as HTML attribute or element content (`&`, `<`, `>` and `"`
/// escaped).
fn escape_html(s: &str) -> std::borrow::Cow<'_, str> {
    html_escape::encode_double_quoted_attribute(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Input, Options, extract};

    const PAGE: &str = r#"<html lang="en"><head><title>Rebuilding: the town | Daily</title>
        <meta name="author" content="Ana Ruiz">
        <meta name="description" content="How the town
        rebuilt its bridge.">
        <meta property="article:tag" content="bridges">
        <meta property="article:tag" content="towns">
        </head><body><article><h1>Rebuilding: the town</h1>
        <p>The bridge reopened on Monday after two years of work by the people of the town,
        who paid for most of it themselves through a levy on the market.</p></article></body></html>"#;

    fn extraction(format: Format) -> Extraction {
        let opts = Options::new().with_format(format).with_metadata(true);
        extract(
            Input::new(PAGE.as_bytes()).with_url("https://news.example/town"),
            &opts,
        )
        .unwrap()
    }

    #[test]
    fn fields_are_named_as_trafilatura_names_them() {
        let x = extraction(Format::Text);
        let f: std::collections::HashMap<_, _> = x.metadata_fields().into_iter().collect();
        assert_eq!(f["hostname"].as_deref(), Some("news.example"));
        assert_eq!(f["url"].as_deref(), Some("https://news.example/town"));
        assert_eq!(f["author"].as_deref(), Some("Ana Ruiz"));
        assert!(
            f["title"]
                .as_deref()
                .unwrap()
                .starts_with("Rebuilding: the town")
        );
        assert_eq!(x.metadata_lists()[1].1, ["bridges", "towns"]);
    }

    #[test]
    fn front_matter_is_yaml_that_the_page_cannot_break() {
        let x = extraction(Format::Markdown);
        let s = x.render_with_metadata();
        let (head, body) = s
            .strip_prefix("---\n")
            .unwrap()
            .split_once("---\n")
            .unwrap();
        // The title holds ": ", so it is quoted; the description's line
        // break is a space; every line is one key.
        assert!(head.contains("title: \"Rebuilding: the town"), "{head}");
        assert!(head.contains("description: How the town"), "{head}");
        assert!(head.contains("tags: bridges, towns\n"), "{head}");
        for l in head.lines() {
            let key = l.split(": ").next().unwrap();
            assert!(FIELDS.contains(&key) || LISTS.contains(&key), "{l}");
        }
        assert!(body.contains("The bridge reopened"), "{body}");
    }

    #[test]
    fn yaml_scalars_read_back_as_the_string() {
        assert_eq!(yaml_scalar("2026-03-14"), "2026-03-14");
        assert_eq!(yaml_scalar("How it works"), "How it works");
        assert_eq!(yaml_scalar("a: b"), "\"a: b\"");
        assert_eq!(yaml_scalar("- item"), "\"- item\"");
        assert_eq!(yaml_scalar("yes"), "\"yes\"");
        assert_eq!(yaml_scalar("x #y"), "\"x #y\"");
        assert_eq!(yaml_scalar("say \"hi\"\u{1}"), "\"say \\\"hi\\\"\\u0001\"");
        assert_eq!(yaml_scalar(""), "\"\"");
    }

    #[test]
    fn html_document_escapes_the_metadata() {
        let page = r#"<title>a "quoted" <b>title</b></title><meta name="description" content="Tips &amp; &quot;tricks&quot;">
            <p>Some text long enough to be the content of this small page, in a paragraph.</p>"#;
        let opts = Options::new().with_format(Format::Html).with_metadata(true);
        let x = extract(Input::new(page.as_bytes()), &opts).unwrap();
        let d = x.render_with_metadata();
        assert!(
            d.starts_with("<html><head><meta charset=\"utf-8\"><title>"),
            "{d}"
        );
        assert!(
            d.contains("&quot;quoted&quot; &lt;b&gt;title&lt;/b&gt;"),
            "{d}"
        );
        assert!(
            d.contains("<meta name=\"description\" content=\"Tips &amp; &quot;tricks&quot;\">"),
            "{d}"
        );
        assert!(d.contains("<body><p>Some text"), "{d}");
        assert!(d.ends_with("</body></html>"), "{d}");
    }

    #[test]
    fn json_and_xml_already_carry_it() {
        for f in [Format::Json, Format::Xml] {
            let x = extraction(f);
            assert_eq!(x.render_with_metadata(), x.render());
        }
    }
}
