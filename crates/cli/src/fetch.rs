//! `unchaff extract URL`: fetching one page over HTTP(S) with `ureq`
//! (rustls): a whole-request timeout, a size limit read as it streams,
//! redirects followed, gzip undone, and the charset of the
//! `Content-Type` header handed to the extractor as browsers use it.

use std::time::Duration;

use ureq::ResponseExt;

/// How long one fetch may take, connecting and reading included.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// Redirects followed before giving up (browsers allow about 20; real
/// pages need two or three).
pub const MAX_REDIRECTS: u32 = 10;

/// Identifies the tool to the sites it fetches from.
pub const USER_AGENT: &str = concat!(
    "unchaff/",
    env!("CARGO_PKG_VERSION"),
    " (main-content extraction; +https://example.invalid/unchaff)"
);

/// A fetched page.
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

/// Fetches `url`, reading at most `max_bytes` of body (decompressed).
pub fn fetch(url: &str, max_bytes: usize) -> Result<Fetched, String> {
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
