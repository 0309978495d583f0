//! What a request asks for: the page and the extraction options, from the
//! query string (a raw HTML body) or a JSON body, turned into
//! [`unchaff::Options`] as `unchaff extract` turns its flags; and the
//! cache of extractors built for those options.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine;
use serde::Deserialize;
use unchaff::{Extractor, Format, Method, Options, Preset};

/// A request that cannot be served as asked (400).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadRequest(pub String);

fn bad(s: impl Into<String>) -> BadRequest {
    BadRequest(s.into())
}

/// The options of one request, as `unchaff extract` takes them (the query
/// parameter or JSON key is the flag's name, `-` or `_` alike).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct RequestOptions {
    /// A format name (`json` by default; see [`unchaff::Format`]).
    pub format: Option<String>,
    /// An algorithm name (`auto` by default).
    pub algorithm: Option<String>,
    /// Algorithm parameters, `KEY=VALUE` each (query: `param=KEY=VALUE`,
    /// repeatable; JSON: `{"params": {"KEY": VALUE}}`).
    #[serde(deserialize_with = "params_of_json")]
    pub params: Vec<(String, String)>,
    /// Markdown: links as `[text](url)`.
    pub links: bool,
    /// Markdown: images as `![alt](src)`.
    pub images: bool,
    /// JSON: the clean HTML too.
    pub html: bool,
    /// Leave data tables out.
    #[serde(alias = "no-tables")]
    pub no_tables: bool,
    /// `auto`: keep comment sections.
    #[serde(alias = "include-comments")]
    pub include_comments: bool,
    /// `auto`: the precision preset.
    pub precision: bool,
    /// `auto`: the recall preset.
    pub recall: bool,
    /// The page's metadata: in each `/batch` row; in `/extract`, YAML
    /// front matter above text and Markdown and a document head around
    /// HTML (as `unchaff extract --with-metadata`).
    pub metadata: bool,
    /// The page's charset, as an HTTP header would give it.
    pub charset: Option<String>,
    /// A shorter extraction deadline than the server's, in seconds.
    pub timeout: Option<f64>,
    /// CSS selectors of what is removed before extracting (`--exclude`;
    /// query: `exclude=SELECTOR`, repeatable; JSON: a list).
    pub exclude: Vec<String>,
    /// CSS selectors of the content itself (`--include`; as `exclude`).
    pub include: Vec<String>,
    /// `auto`: the comments apart from the content (`--comments`).
    pub comments: bool,
}

/// `{"KEY": VALUE}` with string, number or boolean values, or
/// `["KEY=VALUE", …]`.
fn params_of_json<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Vec<(String, String)>, D::Error> {
    use serde::de::Error;
    let v = serde_json::Value::deserialize(d)?;
    let scalar = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => Ok(s.clone()),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        serde_json::Value::Bool(b) => Ok(u8::from(*b).to_string()),
        _ => Err(D::Error::custom(
            "a parameter value is a string or a number",
        )),
    };
    match v {
        serde_json::Value::Object(m) => {
            m.iter().map(|(k, v)| Ok((k.clone(), scalar(v)?))).collect()
        }
        serde_json::Value::Array(items) => items
            .iter()
            .map(|i| {
                let s = scalar(i)?;
                key_value(&s).map_err(|e| D::Error::custom(e.0))
            })
            .collect(),
        serde_json::Value::Null => Ok(Vec::new()),
        _ => Err(D::Error::custom("params is an object {KEY: VALUE}")),
    }
}

fn key_value(s: &str) -> Result<(String, String), BadRequest> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
        _ => Err(bad(format!("param: expected KEY=VALUE, got {s:?}"))),
    }
}

fn flag(key: &str, v: &str) -> Result<bool, BadRequest> {
    match v {
        "" | "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(bad(format!("{key}: expected true or false, got {v:?}"))),
    }
}

/// The page's URL and options from a query string.
pub fn from_query(query: Option<&str>) -> Result<(Option<String>, RequestOptions), BadRequest> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or(""))
        .map_err(|e| bad(format!("query string: {e}")))?;
    let mut url = None;
    let mut o = RequestOptions::default();
    for (k, v) in pairs {
        match k.replace('-', "_").as_str() {
            "url" => url = Some(v),
            "format" | "f" | "text_format" => o.format = Some(v),
            "algorithm" | "a" => o.algorithm = Some(v),
            "param" | "p" => o.params.push(key_value(&v)?),
            "links" => o.links = flag(&k, &v)?,
            "images" => o.images = flag(&k, &v)?,
            "html" => o.html = flag(&k, &v)?,
            "no_tables" => o.no_tables = flag(&k, &v)?,
            "include_comments" => o.include_comments = flag(&k, &v)?,
            "precision" => o.precision = flag(&k, &v)?,
            "recall" => o.recall = flag(&k, &v)?,
            "metadata" | "with_metadata" => o.metadata = flag(&k, &v)?,
            "charset" => o.charset = Some(v),
            "exclude" => o.exclude.push(v),
            "include" => o.include.push(v),
            "comments" => o.comments = flag(&k, &v)?,
            "timeout" => {
                o.timeout = Some(
                    v.parse()
                        .map_err(|_| bad(format!("timeout: not a number: {v:?}")))?,
                )
            }
            _ => return Err(bad(format!("unknown query parameter {k:?}"))),
        }
    }
    Ok((url, o))
}

/// A JSON `/extract` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JsonPage {
    /// The page as a string.
    pub html: Option<String>,
    /// The page's bytes in base64 (any charset, gzip allowed).
    pub html_base64: Option<String>,
    /// The page's URL.
    pub url: Option<String>,
    /// The options.
    #[serde(default)]
    pub options: RequestOptions,
}

impl JsonPage {
    /// The page's bytes, and the charset they come in when given as a
    /// string (UTF-8 then: a JSON string is Unicode, whatever the page's
    /// `<meta>` says).
    pub fn into_parts(self) -> Result<(Vec<u8>, Option<String>, RequestOptions), BadRequest> {
        let mut o = self.options;
        let bytes = match (self.html, self.html_base64) {
            (Some(h), None) => {
                o.charset.get_or_insert_with(|| "utf-8".to_owned());
                h.into_bytes()
            }
            (None, Some(b)) => base64::engine::general_purpose::STANDARD
                .decode(b.trim())
                .map_err(|e| bad(format!("html_base64: {e}")))?,
            _ => return Err(bad("give exactly one of \"html\" and \"html_base64\"")),
        };
        Ok((bytes, self.url, o))
    }
}

/// The response's `Content-Type` for an output format.
pub fn format_content_type(format: Format) -> &'static str {
    match format {
        Format::Json => "application/json",
        Format::Markdown => "text/markdown; charset=utf-8",
        Format::Html => "text/html; charset=utf-8",
        Format::Xml => "application/xml; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    }
}

/// The options a request resolves to: the extractor's, and the output.
#[derive(Clone, Debug)]
pub struct Resolved {
    /// For [`Extractors::get`]; its format is the response's.
    pub options: Options,
    /// The page's charset label, if given.
    pub charset: Option<String>,
}

impl RequestOptions {
    /// The extractor options, as `unchaff extract` builds them from the
    /// same flags; `deadline` is the server's extraction deadline (a
    /// request may only shorten it) and `max_input` its input limit.
    pub fn resolve(&self, deadline: Duration, max_input: usize) -> Result<Resolved, BadRequest> {
        let format: Format = self
            .format
            .as_deref()
            .unwrap_or("json")
            .parse()
            .map_err(|e: unchaff::Error| bad(format!("format: {e}")))?;
        let method: Method = self
            .algorithm
            .as_deref()
            .unwrap_or("auto")
            .parse()
            .map_err(|e: unchaff::Error| bad(e.to_string()))?;
        let preset = Preset::from_flags(self.precision, self.recall)
            .map_err(|e: unchaff::Error| bad(e.to_string()))?;
        // No file paths from a client: a model or template library is the
        // server's business.
        if let Some((k, _)) = self
            .params
            .iter()
            .find(|(k, _)| k == "model" || k == "templates")
        {
            return Err(bad(format!(
                "param {k}: files cannot be named over HTTP; start the server with them"
            )));
        }
        let deadline = match self.timeout {
            None => deadline,
            Some(t) if t > 0.0 && t.is_finite() => {
                Duration::from_secs_f64(t.min(deadline.as_secs_f64()))
            }
            Some(t) => return Err(bad(format!("timeout: {t} is not a positive number"))),
        };
        let mut options = Options::new()
            .with_method(method)
            .with_metadata(self.metadata)
            .with_format(format)
            .with_links(self.links)
            .with_images(self.images)
            .with_json_html(self.html)
            .with_tables(!self.no_tables)
            .with_max_input_bytes(max_input)
            .with_timeout(deadline)
            .with_comments(self.comments)
            .with_preset(preset)
            .with_include_comments(self.include_comments);
        options.params = self.params.clone();
        options.exclude = self.exclude.clone();
        options.include = self.include.clone();
        // A preset or included comments with another algorithm than auto.
        options
            .algorithm_params()
            .map_err(|e: unchaff::Error| bad(e.to_string()))?;
        Ok(Resolved {
            options,
            charset: self.charset.clone(),
        })
    }
}

/// Most extractors kept: one per distinct option set a client asked for;
/// past it the cache starts over (building one costs a model parse).
pub const MAX_CACHED_EXTRACTORS: usize = 64;

/// Extractors by options, built on first use (on a worker thread).
#[derive(Default)]
pub struct Extractors {
    cache: Mutex<HashMap<String, Arc<Extractor>>>,
}

impl Extractors {
    /// The extractor for `options`, built once.
    pub fn get(&self, options: &Options) -> Result<Arc<Extractor>, unchaff::Error> {
        let key = format!("{options:?}");
        if let Some(e) = self.cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return Ok(e);
        }
        let e = Arc::new(Extractor::new(options)?);
        if let Ok(mut c) = self.cache.lock() {
            if c.len() >= MAX_CACHED_EXTRACTORS {
                c.clear();
            }
            c.insert(key, Arc::clone(&e));
        }
        Ok(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_options_as_the_cli_flags() {
        let (url, o) = from_query(Some(
            "url=https%3A%2F%2Fa.example%2F&format=markdown&algorithm=cetd-tpc&param=lambda%3D0.3&no-tables=1&links",
        ))
        .unwrap();
        assert_eq!(url.as_deref(), Some("https://a.example/"));
        assert_eq!(o.format.as_deref(), Some("markdown"));
        assert_eq!(o.params, vec![("lambda".into(), "0.3".into())]);
        assert!(o.no_tables && o.links && !o.images);
        let r = o.resolve(Duration::from_secs(5), 100).unwrap();
        assert_eq!(r.options.format, Format::Markdown);
        assert_eq!(r.options.method, Method::CetdTpc);
        assert!(!r.options.tables);
        assert_eq!(r.options.timeout, Some(Duration::from_secs(5)));
        assert!(from_query(Some("nope=1")).is_err());
        let (_, o) = from_query(Some("exclude=.ad&exclude=aside&include=main&comments=1")).unwrap();
        let r = o.resolve(Duration::from_secs(5), 100).unwrap();
        assert_eq!(r.options.exclude, [".ad", "aside"]);
        assert_eq!(r.options.include, ["main"]);
        assert!(r.options.comments);
        assert!(from_query(Some("links=maybe")).is_err());
    }

    #[test]
    fn presets_timeouts_and_refusals() {
        let o = RequestOptions {
            precision: true,
            timeout: Some(60.0),
            ..RequestOptions::default()
        };
        let r = o.resolve(Duration::from_secs(2), 100).unwrap();
        assert_eq!(r.options.preset, Preset::Precision);
        assert_eq!(
            r.options.algorithm_params().unwrap()[0],
            ("threshold".into(), "0.65".into())
        );
        assert_eq!(r.options.timeout, Some(Duration::from_secs(2)));
        let o = RequestOptions {
            params: vec![("model".into(), "/etc/passwd".into())],
            ..RequestOptions::default()
        };
        assert!(o.resolve(Duration::from_secs(2), 100).is_err());
        let o = RequestOptions {
            algorithm: Some("cepr".into()),
            recall: true,
            ..RequestOptions::default()
        };
        assert!(o.resolve(Duration::from_secs(2), 100).is_err());
        let o = RequestOptions {
            algorithm: Some("cepr".into()),
            include_comments: true,
            ..RequestOptions::default()
        };
        assert!(o.resolve(Duration::from_secs(2), 100).is_err());
        let o = RequestOptions {
            precision: true,
            recall: true,
            ..RequestOptions::default()
        };
        let e = o.resolve(Duration::from_secs(2), 100).unwrap_err();
        assert!(e.0.contains("exclude each other"), "{e}");
        let o = RequestOptions {
            format: Some("yaml".into()),
            ..RequestOptions::default()
        };
        let e = o.resolve(Duration::from_secs(2), 100).unwrap_err();
        assert!(e.0.contains("the formats are: text, json"), "{e}");
    }

    #[test]
    fn json_bodies() {
        let p: JsonPage = serde_json::from_str(
            r#"{"html":"<p>x</p>","url":"u","options":{"format":"text","params":{"threshold":0.4}}}"#,
        )
        .unwrap();
        let (bytes, url, o) = p.into_parts().unwrap();
        assert_eq!(bytes, b"<p>x</p>");
        assert_eq!(url.as_deref(), Some("u"));
        assert_eq!(o.charset.as_deref(), Some("utf-8"));
        assert_eq!(o.params, vec![("threshold".into(), "0.4".into())]);
        let p: JsonPage = serde_json::from_str(r#"{"html_base64":"PHA+eDwvcD4="}"#).unwrap();
        assert_eq!(p.into_parts().unwrap().0, b"<p>x</p>");
        let p: JsonPage = serde_json::from_str(r#"{"url":"u"}"#).unwrap();
        assert!(p.into_parts().is_err());
        assert!(serde_json::from_str::<JsonPage>(r#"{"htm":"x"}"#).is_err());
    }
}
