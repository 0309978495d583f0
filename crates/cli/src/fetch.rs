//! Reading a command's page: a file, standard input, or (`unchaff extract
//! URL`, cargo feature `fetch`) one page fetched over HTTP(S) with `ureq`
//! (rustls): a whole-request timeout, a size limit read as it streams,
//! redirects followed, gzip undone, and the charset of the
//! `Content-Type` header handed to the extractor as browsers use it.

#[cfg(feature = "fetch")]
use std::time::Duration;

/// How long one fetch may take, connecting and reading included.
#[cfg(feature = "fetch")]
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// Redirects followed before giving up (browsers allow about 20; real
/// pages need two or three).
#[cfg(feature = "fetch")]
pub const MAX_REDIRECTS: u32 = 10;

/// Identifies the tool to the sites it fetches from.
#[cfg(feature = "fetch")]
pub const USER_AGENT: &str = concat!(
    "unchaff/",
    env!("CARGO_PKG_VERSION"),
    " (main-content extraction; +https://example.invalid/unchaff)"
);

/// A fetched page.
#[cfg_attr(not(feature = "fetch"), allow(dead_code))]
pub struct Fetched {
    /// The body, decompressed.
    pub bytes: Vec<u8>,
    /// The URL after redirects: the page's address for links and sites.
    pub url: String,
    /// A charset label from the `Content-Type` header, when a browser knows it.
    pub charset: Option<String>,
}

/// Whether an argument names a URL rather than a file.
pub fn is_url(arg: &str) -> bool {
    let lower = arg.get(..8).unwrap_or(arg).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Fetches `url` (a build without the `fetch` feature: an error naming
/// it).
#[cfg(not(feature = "fetch"))]
pub fn fetch(url: &str, _max_bytes: usize) -> Result<Fetched, String> {
    Err(format!(
        "{url}: fetching a URL is not in this build: it needs the `fetch` cargo feature \
         (cargo install --path crates/cli --features fetch; --features full has every command)"
    ))
}

/// Fetches `url`, reading at most `max_bytes` of body (decompressed).
#[cfg(feature = "fetch")]
pub fn fetch(url: &str, max_bytes: usize) -> Result<Fetched, String> {
    use ureq::ResponseExt;
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(TIMEOUT))
        .max_redirects(MAX_REDIRECTS)
        .user_agent(USER_AGENT)
        .http_status_as_error(false)
        .build()
        .into();
    let mut resp = agent
        .get(url)
        .header("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
        .call()
        .map_err(|e| format!("{url}: {e}"))?;
    let status = resp.status();
    if !status.is_success() {
        return Err(format!("{url}: the server answered HTTP {status}"));
    }
    let final_url = resp.get_uri().to_string();
    let charset = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| unchaff_batch::warc::parse_content_type(v).1);
    let bytes = resp
        .body_mut()
        .with_config()
        .limit(max_bytes as u64)
        .read_to_vec()
        .map_err(|e| match e {
            ureq::Error::BodyExceedsLimit(_) => {
                format!("{url}: the page is larger than the limit of {max_bytes} bytes")
            }
            e => format!("{url}: {e}"),
        })?;
    Ok(Fetched {
        bytes,
        url: final_url,
        charset,
    })
}

/// One page's bytes and what is known of it from outside.
pub struct Page {
    /// The bytes as read.
    pub bytes: Vec<u8>,
    /// Its URL.
    pub url: Option<String>,
    /// Its charset from outside (a header, `--charset`).
    pub charset: Option<String>,
}

/// Reads a file, standard input ("-") or a URL; `url` and `charset` are
/// what the caller knows of a file's page (a fetched page's own win,
/// except that `charset`, as a header would give it, beats the server's).
pub fn read_input(
    name: &str,
    url: Option<&str>,
    charset: Option<&str>,
    max_bytes: usize,
) -> Result<Page, String> {
    if is_url(name) {
        let f = fetch(name, max_bytes)?;
        return Ok(Page {
            bytes: f.bytes,
            url: Some(f.url),
            charset: charset.map(str::to_owned).or(f.charset),
        });
    }
    // Read no more than the limit (and one byte to know it is over): a
    // device or an endless pipe costs at most that.
    let bytes = if name == "-" {
        unchaff::read_limited(std::io::stdin().lock(), max_bytes)
            .map_err(|e| format!("cannot read standard input: {e}"))?
    } else {
        unchaff::read_file_limited(std::path::Path::new(name), max_bytes)
            .map_err(|e| format!("cannot read {name}: {e}"))?
    };
    Ok(Page {
        bytes,
        url: url.map(str::to_owned),
        charset: charset.map(str::to_owned),
    })
}
