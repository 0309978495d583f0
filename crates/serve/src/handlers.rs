//! The endpoints: routing, reading bodies within the limits, handing
//! pages to the pool, and turning results and refusals into responses.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{RawQuery, Request, State as AxState};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use http_body_util::BodyExt;
use tokio::sync::{OwnedSemaphorePermit, mpsc, oneshot};
use unchaff::Input;
use unchaff_batch::{ErrorKind, Page, PageError, RowFormat, TextFormat};

use crate::State;
use crate::conn::{ConnStats, RATE_GRACE};
use crate::metrics::Gauges;
use crate::request::{self, BadRequest, JsonPage, RequestOptions, format_content_type};

type St = AxState<Arc<State>>;

/// The routes, with the metrics layer around them.
pub(crate) fn router(state: Arc<State>) -> Router {
    Router::new()
        .route("/extract", post(extract))
        .route("/batch", post(batch))
        .route("/explain", get(explain_form).post(explain))
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(Arc::clone(&state), record))
        .with_state(state)
}

/// The endpoint label of a path: the routes, else `other` (labels stay
/// few whatever clients ask for).
fn endpoint(path: &str) -> &'static str {
    match path {
        "/extract" => "/extract",
        "/batch" => "/batch",
        "/explain" => "/explain",
        "/healthz" => "/healthz",
        "/metrics" => "/metrics",
        _ => "other",
    }
}

/// The connection a request came on (none when the router is used
/// without the server's accept loop, as in tests).
type Conn = Option<axum::Extension<Arc<ConnStats>>>;

/// Counts every response by endpoint and status, with its latency (to
/// the response head: a streamed `/batch` counts until its first byte),
/// sets the headers every response carries, and tells the connection's
/// stats when a request starts and ends.
async fn record(AxState(st): St, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let ep = endpoint(req.uri().path());
    let conn = req.extensions().get::<Arc<ConnStats>>().cloned();
    if let Some(c) = &conn {
        c.request_started();
    }
    let mut resp = next.run(req).await;
    if let Some(c) = &conn {
        c.request_done();
    }
    st.metrics
        .request(ep, resp.status().as_u16(), start.elapsed());
    let h = resp.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'"),
        );
    }
    resp
}

/// A refused or failed request: its status, kind (metrics and body) and
/// message.
struct Fail {
    status: StatusCode,
    kind: &'static str,
    message: String,
}

impl Fail {
    fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> Fail {
        Fail {
            status,
            kind,
            message: message.into(),
        }
    }

    fn response(self, st: &State) -> Response {
        st.metrics.error(self.kind);
        let body = serde_json::json!({"error": {"kind": self.kind, "message": self.message}});
        let mut r = (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            format!("{body}\n"),
        )
            .into_response();
        let h = r.headers_mut();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            h.insert(
                header::RETRY_AFTER,
                HeaderValue::from(st.config.retry_after),
            );
        }
        // The rest of a body that was refused or cut off is not read:
        // the connection cannot carry another request.
        if matches!(
            self.status,
            StatusCode::PAYLOAD_TOO_LARGE | StatusCode::REQUEST_TIMEOUT
        ) {
            h.insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        r
    }
}

impl From<BadRequest> for Fail {
    fn from(e: BadRequest) -> Fail {
        Fail::new(StatusCode::BAD_REQUEST, "bad_request", e.0)
    }
}

/// The status and kind of a core error.
fn core_fail(e: &unchaff::Error) -> Fail {
    use unchaff::Error as E;
    let (status, kind) = match e {
        E::Timeout { .. } => (StatusCode::GATEWAY_TIMEOUT, "timeout"),
        E::TooLarge { .. } => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
        E::UnknownAlgorithm(_) | E::BadParam { .. } | E::BadOption(_) | E::BadSelector { .. } => {
            (StatusCode::BAD_REQUEST, "bad_request")
        }
        E::EmptyInput
        | E::Binary { .. }
        | E::Gzip(_)
        | E::UnknownCharset(_)
        | E::TooManyElements { .. }
        | E::TooDense { .. } => (
            StatusCode::UNPROCESSABLE_ENTITY,
            unchaff_batch::error_kind(e).as_str(),
        ),
        _ => (StatusCode::INTERNAL_SERVER_ERROR, "extract"),
    };
    Fail::new(status, kind, e.to_string())
}

fn queue_full() -> Fail {
    Fail::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "queue_full",
        "every worker is busy and the queue is full; retry later",
    )
}

fn worker_lost() -> Fail {
    Fail::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "the extraction failed unexpectedly",
    )
}

/// A body read within the limits, and its share of the memory for
/// bodies in flight (released when it is dropped: keep it with the bytes).
struct Read {
    bytes: Vec<u8>,
    permit: Option<OwnedSemaphorePermit>,
}

/// A 503 for a body that does not fit in the memory for bodies in flight.
fn no_memory() -> Fail {
    Fail::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "body_memory",
        "too many request bodies in flight; retry later",
    )
}

/// A 408 for a body slower than the minimum rate.
fn too_slow(st: &State) -> Fail {
    Fail::new(
        StatusCode::REQUEST_TIMEOUT,
        "slow_body",
        format!(
            "the body came slower than {} bytes/s",
            st.config.min_body_rate
        ),
    )
}

/// Takes `n` more bytes of the memory for bodies in flight into `held`,
/// without waiting; false when they are not there.
fn take_memory(st: &State, held: &mut Option<OwnedSemaphorePermit>, n: usize) -> bool {
    if n == 0 {
        return true;
    }
    let Ok(n) = u32::try_from(n) else {
        return false;
    };
    match Arc::clone(&st.bodies).try_acquire_many_owned(n) {
        Ok(p) => {
            match held {
                Some(h) => h.merge(p),
                None => *held = Some(p),
            }
            true
        }
        Err(_) => false,
    }
}

/// Takes `n` more bytes of the memory for bodies in flight into `held`,
/// waiting for them up to the body timeout; false when they did not come.
async fn wait_memory(st: &State, held: &mut Option<OwnedSemaphorePermit>, n: usize) -> bool {
    let Ok(n) = u32::try_from(n) else {
        return false;
    };
    let wait = Arc::clone(&st.bodies).acquire_many_owned(n);
    match tokio::time::timeout(st.config.body_timeout, wait).await {
        Ok(Ok(p)) => {
            match held {
                Some(h) => h.merge(p),
                None => *held = Some(p),
            }
            true
        }
        _ => false,
    }
}

/// When a body that has `bytes` after `since` falls below the minimum
/// rate: not before [`RATE_GRACE`].
fn rate_deadline(st: &State, since: tokio::time::Instant, bytes: usize) -> tokio::time::Instant {
    let rate = st.config.min_body_rate.max(1) as f64;
    let earned = std::time::Duration::from_secs_f64(bytes as f64 / rate);
    since + earned.max(RATE_GRACE)
}

/// Reads a whole body: at most `max_body` bytes (413), within
/// `body_timeout` (408) and at `min_body_rate` or faster after a grace
/// (408), within the memory for bodies in flight (503). The buffer grows
/// as bytes come (a declared length is not reserved up front).
async fn read_body(st: &State, conn: &Conn, headers: &HeaderMap, body: Body) -> Result<Read, Fail> {
    let max = st.config.max_body;
    let too_large = || {
        Fail::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body_too_large",
            format!("the body is over the limit of {max} bytes"),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return Err(too_large());
    }
    let start = tokio::time::Instant::now();
    let deadline = start + st.config.body_timeout;
    let mut body = body;
    let mut buf = Vec::new();
    let mut permit = None;
    loop {
        let slow = rate_deadline(st, start, buf.len());
        match tokio::time::timeout_at(deadline.min(slow), body.frame()).await {
            Err(_) if slow < deadline => return Err(too_slow(st)),
            Err(_) => {
                return Err(Fail::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "read_timeout",
                    format!(
                        "the body did not arrive within {:.1} s",
                        st.config.body_timeout.as_secs_f64()
                    ),
                ));
            }
            Ok(None) => break,
            Ok(Some(Err(e))) => {
                return Err(Fail::new(StatusCode::BAD_REQUEST, "read", e.to_string()));
            }
            Ok(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    if buf.len() + data.len() > max {
                        return Err(too_large());
                    }
                    if !take_memory(st, &mut permit, data.len()) {
                        return Err(no_memory());
                    }
                    if let Some(c) = conn {
                        c.received(data.len());
                    }
                    buf.extend_from_slice(&data);
                }
            }
        }
    }
    if let Some(c) = conn {
        c.body_done();
    }
    Ok(Read { bytes: buf, permit })
}

fn is_json(headers: &HeaderMap) -> bool {
    content_type(headers).starts_with("application/json")
}

fn content_type(headers: &HeaderMap) -> String {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// `POST /extract`.
async fn extract(
    AxState(st): St,
    conn: Conn,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
    body: Body,
) -> Response {
    match extract_inner(&st, &conn, &headers, q, body).await {
        Ok(r) => r,
        Err(f) => f.response(&st),
    }
}

async fn extract_inner(
    st: &Arc<State>,
    conn: &Conn,
    headers: &HeaderMap,
    q: Option<String>,
    body: Body,
) -> Result<Response, Fail> {
    let Read { bytes, permit } = read_body(st, conn, headers, body).await?;
    let (bytes, url, opts) = if is_json(headers) {
        if q.as_deref().is_some_and(|q| !q.is_empty()) {
            return Err(BadRequest(
                "with a JSON body the options go in its \"options\", not in the query".into(),
            )
            .into());
        }
        serde_json::from_slice::<JsonPage>(&bytes)
            .map_err(|e| BadRequest(format!("JSON body: {e}")))?
            .into_parts()?
    } else {
        let (url, opts) = request::from_query(q.as_deref())?;
        (bytes, url, opts)
    };
    let resolved = opts.resolve(st.config.extract_timeout, st.config.max_body)?;
    let admitted = st.pool.try_admit().ok_or_else(queue_full)?;
    let s = Arc::clone(st);
    let out = resolved.options.format;
    let with_metadata = resolved.options.metadata;
    let rx = st
        .pool
        .submit(admitted, move || {
            // The body's memory is counted until the page is done.
            let _memory = permit;
            let ex = s.extractors.get(&resolved.options)?;
            // Handed over: the extractor frees the page once it is parsed.
            ex.extract_owned(bytes, url.as_deref(), resolved.charset.as_deref())
                .map(|x| match with_metadata {
                    true => x.render_with_metadata(),
                    false => x.render(),
                })
        })
        .map_err(|_| worker_lost())?;
    let result = rx.await.map_err(|_| worker_lost())?;
    st.metrics.page();
    let mut text = result.map_err(|e| core_fail(&e))?;
    // As `unchaff extract` prints it: one line feed after the output.
    text.push('\n');
    Ok(([(header::CONTENT_TYPE, format_content_type(out))], text).into_response())
}

/// Rows a `/batch` stream may have in the pool or waiting to be written,
/// per worker: enough to keep every worker busy behind one slow page.
const BATCH_WINDOW_PER_WORKER: usize = 4;

/// Rows buffered between the batch task and the connection.
const BATCH_OUT_BUFFER: usize = 16;

/// `POST /batch`.
async fn batch(AxState(st): St, conn: Conn, RawQuery(q): RawQuery, body: Body) -> Response {
    match batch_start(&st, conn, q, body).await {
        Ok(r) => r,
        Err(f) => f.response(&st),
    }
}

async fn batch_start(
    st: &Arc<State>,
    conn: Conn,
    q: Option<String>,
    body: Body,
) -> Result<Response, Fail> {
    let (_, mut opts) = request::from_query(q.as_deref())?;
    let text = match opts.format.take() {
        None => TextFormat::Text,
        Some(f) => f
            .parse::<unchaff::Format>()
            .and_then(TextFormat::try_from)
            .map_err(|e| BadRequest(format!("format: {e}")))?,
    };
    let format = RowFormat::default()
        .with_text(text)
        .with_metadata(opts.metadata);
    let resolved = opts.resolve(st.config.extract_timeout, st.config.max_body)?;
    let options = format.apply(resolved.options);
    // The first permit decides whether the stream starts at all; it builds
    // the extractor (a bad parameter is a 400 before any row).
    let permit = st.pool.try_admit().ok_or_else(queue_full)?;
    let s = Arc::clone(st);
    let ex = st
        .pool
        .submit(permit, move || s.extractors.get(&options))
        .map_err(|_| worker_lost())?
        .await
        .map_err(|_| worker_lost())?
        .map_err(|e| core_fail(&e))?;
    let (tx, rx) = mpsc::channel::<Result<Bytes, Infallible>>(BATCH_OUT_BUFFER);
    // The body goes on after the answer's head: the connection reads a
    // body until the stream is done.
    let stream = conn.map(|axum::Extension(c)| Streaming::new(c));
    tokio::spawn(batch_rows(Arc::clone(st), body, ex, format, tx, stream));
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response())
}

/// A connection's body streaming after the answer's head (`/batch`):
/// its stats say so until this is dropped.
struct Streaming(Arc<ConnStats>);

impl Streaming {
    fn new(c: Arc<ConnStats>) -> Streaming {
        c.stream_started();
        Streaming(c)
    }
}

impl Drop for Streaming {
    fn drop(&mut self) {
        self.0.stream_done();
    }
}

/// A row on its way: written already, or still on a worker.
enum Pending {
    Ready(String),
    Running(oneshot::Receiver<String>),
}

/// Reads the JSONL body as it arrives, one page a line, extracts the pages
/// on the pool (a window of them at a time) and writes their rows in
/// order. Stops when the body ends, stalls past the body timeout, or the
/// client goes away.
async fn batch_rows(
    st: Arc<State>,
    mut body: Body,
    ex: Arc<unchaff::Extractor>,
    format: RowFormat,
    tx: mpsc::Sender<Result<Bytes, Infallible>>,
    stream: Option<Streaming>,
) {
    let max = st.config.max_body;
    let limit = unchaff_batch::jsonl::line_limit(max) as usize;
    let window = BATCH_WINDOW_PER_WORKER * st.pool.workers();
    let mut pending: VecDeque<Pending> = VecDeque::new();
    let mut line: Vec<u8> = Vec::new();
    // The line's share of the memory for bodies in flight.
    let mut line_memory: Option<OwnedSemaphorePermit> = None;
    let mut skipping = false;
    let mut n = 0u64;
    let mut ended = false;
    // The whole stream must come at the minimum rate (a piece every body
    // timeout is not enough: one byte every 20 s held a connection).
    let start = tokio::time::Instant::now();
    let mut received = 0usize;
    'body: while !ended {
        let piece = tokio::time::Instant::now() + st.config.body_timeout;
        let slow = rate_deadline(&st, start, received);
        let data = match tokio::time::timeout_at(piece.min(slow), body.frame()).await {
            Err(_) if slow < piece => {
                st.metrics.error("slow_body");
                break;
            }
            Err(_) => {
                st.metrics.error("read_timeout");
                break;
            }
            Ok(None) => {
                ended = true;
                Bytes::new()
            }
            Ok(Some(Err(_))) => {
                st.metrics.error("read");
                break;
            }
            Ok(Some(Ok(frame))) => frame.into_data().unwrap_or_default(),
        };
        received += data.len();
        if let Some(s) = &stream {
            s.0.received(data.len());
        }
        let mut rest: &[u8] = &data;
        loop {
            let (piece, complete) = match memchr(b'\n', rest) {
                Some(i) => (&rest[..i], true),
                None if ended => (rest, true),
                None => (rest, false),
            };
            if !skipping {
                // The line's bytes count against the memory for bodies in
                // flight; a stream already answering waits for room.
                if !take_memory(&st, &mut line_memory, piece.len())
                    && !wait_memory(&st, &mut line_memory, piece.len()).await
                {
                    st.metrics.error("body_memory");
                    break 'body;
                }
                line.extend_from_slice(piece);
            }
            rest = if complete && piece.len() < rest.len() {
                &rest[piece.len() + 1..]
            } else {
                &[]
            };
            if !complete {
                if line.len() > limit {
                    // Too long to be a page: its row now, the rest unread.
                    n += 1;
                    let page = Page::failed(
                        format!("request:{n}"),
                        PageError::new(ErrorKind::TooLarge, format!("line over {limit} bytes")),
                    );
                    pending.push_back(Pending::Ready(row_line(&st, &ex, page, format)));
                    line.clear();
                    line_memory = None;
                    skipping = true;
                }
                break;
            }
            if skipping {
                skipping = false;
            } else {
                let trimmed = line.trim_ascii();
                if !trimmed.is_empty() {
                    n += 1;
                    let page =
                        unchaff_batch::jsonl::page_of_line(trimmed, format!("request:{n}"), max);
                    let Ok(permit) = st.pool.admit().await else {
                        return;
                    };
                    let (s, e) = (Arc::clone(&st), Arc::clone(&ex));
                    // The page's memory is counted until its row is made.
                    let memory = line_memory.take();
                    match st.pool.submit(permit, move || {
                        let _memory = memory;
                        row_line(&s, &e, page, format)
                    }) {
                        Ok(rx) => pending.push_back(Pending::Running(rx)),
                        Err(_) => return,
                    }
                }
                line.clear();
                line_memory = None;
            }
            if !flush(&mut pending, &tx, window).await {
                return;
            }
            if rest.is_empty() {
                break;
            }
        }
        if !flush(&mut pending, &tx, window).await {
            return;
        }
    }
    // The body is done (or stopped): write what is left, in order.
    flush(&mut pending, &tx, 0).await;
}

/// Writes the rows at the front that are done, and waits for the front
/// until at most `keep` rows are pending. False when the client is gone.
async fn flush(
    pending: &mut VecDeque<Pending>,
    tx: &mpsc::Sender<Result<Bytes, Infallible>>,
    keep: usize,
) -> bool {
    loop {
        let must_wait = pending.len() > keep;
        let Some(front) = pending.front_mut() else {
            break;
        };
        let ready = match front {
            Pending::Ready(s) => Some(std::mem::take(s)),
            Pending::Running(rx) => {
                if must_wait {
                    rx.await.ok()
                } else {
                    match rx.try_recv() {
                        Ok(s) => Some(s),
                        Err(oneshot::error::TryRecvError::Empty) => return true,
                        Err(oneshot::error::TryRecvError::Closed) => None,
                    }
                }
            }
        };
        pending.pop_front();
        if let Some(s) = ready
            && tx.send(Ok(Bytes::from(s))).await.is_err()
        {
            return false;
        }
    }
    true
}

/// One row as a JSONL line, counted in the metrics.
fn row_line(st: &State, ex: &unchaff::Extractor, page: Page, format: RowFormat) -> String {
    let row = unchaff_batch::extract_row_with(ex, page, format);
    st.metrics.page();
    if let Some(e) = &row.error {
        st.metrics.error(e.kind.as_str());
    }
    let mut s = serde_json::to_string(&row).unwrap_or_default();
    s.push('\n');
    s
}

fn memchr(b: u8, s: &[u8]) -> Option<usize> {
    s.iter().position(|&c| c == b)
}

/// The explain form: paste a page, get its report.
const FORM: &str = include_str!("form.html");

/// `GET /explain`.
async fn explain_form() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (
                header::CONTENT_SECURITY_POLICY,
                unchaff_explain::CSP
                    .replace("form-action 'none'", "form-action 'self'")
                    .as_str(),
            ),
        ],
        FORM,
    )
        .into_response()
}

/// The fields of the explain form.
#[derive(serde::Deserialize)]
struct ExplainForm {
    html: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    algorithm: String,
}

/// `POST /explain`: the form's fields, or a raw HTML body with the
/// `/extract` query parameters.
async fn explain(
    AxState(st): St,
    conn: Conn,
    headers: HeaderMap,
    RawQuery(q): RawQuery,
    body: Body,
) -> Response {
    match explain_inner(&st, &conn, &headers, q, body).await {
        Ok(r) => r,
        Err(f) => f.response(&st),
    }
}

/// The form's fields, when the body is the explain form's: form-encoded
/// with an `html` field. `curl --data-binary @page.html` sends a raw page
/// labelled form-encoded too (it answered 400, issue 41): that is a page.
fn form_fields(headers: &HeaderMap, bytes: &[u8]) -> Option<ExplainForm> {
    if !content_type(headers).starts_with("application/x-www-form-urlencoded") {
        return None;
    }
    serde_urlencoded::from_bytes::<ExplainForm>(bytes).ok()
}

async fn explain_inner(
    st: &Arc<State>,
    conn: &Conn,
    headers: &HeaderMap,
    q: Option<String>,
    body: Body,
) -> Result<Response, Fail> {
    let Read { bytes, permit } = read_body(st, conn, headers, body).await?;
    let (bytes, url, opts) = match form_fields(headers, &bytes) {
        Some(f) => {
            let opts = RequestOptions {
                algorithm: Some(f.algorithm).filter(|a| !a.is_empty()),
                // A pasted page is text: UTF-8 now, whatever it declares.
                charset: Some("utf-8".to_owned()),
                ..RequestOptions::default()
            };
            let url = Some(f.url.trim().to_owned()).filter(|u| !u.is_empty());
            (f.html.into_bytes(), url, opts)
        }
        None => {
            let (url, opts) = request::from_query(q.as_deref())?;
            (bytes, url, opts)
        }
    };
    let resolved = opts.resolve(st.config.extract_timeout, st.config.max_body)?;
    let admitted = st.pool.try_admit().ok_or_else(queue_full)?;
    let rx = st
        .pool
        .submit(admitted, move || {
            let _memory = permit;
            let started = Instant::now();
            let input = Input::new(&bytes)
                .with_url(url.as_deref())
                .with_charset(resolved.charset.as_deref());
            let report = unchaff_explain::explain(input, &resolved.options)?;
            // The report is written within the page's deadline too (its
            // size is bounded: unchaff_explain::MAX_SHOWN_BLOCKS).
            if let Some(limit) = resolved.options.timeout
                && started.elapsed() >= limit
            {
                let stage = unchaff::Stage::Render;
                return Err(unchaff_explain::Error::Extract(unchaff::Error::Timeout {
                    limit,
                    stage,
                }));
            }
            Ok(unchaff_explain::render_html(&report))
        })
        .map_err(|_| worker_lost())?;
    let result = rx.await.map_err(|_| worker_lost())?;
    st.metrics.page();
    let html = result.map_err(|e| match e {
        unchaff_explain::Error::Extract(e) => core_fail(&e),
        e => Fail::new(StatusCode::INTERNAL_SERVER_ERROR, "extract", e.to_string()),
    })?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                format_content_type(unchaff::Format::Html),
            ),
            (header::CONTENT_SECURITY_POLICY, unchaff_explain::CSP),
        ],
        html,
    )
        .into_response())
}

/// `GET /healthz`.
async fn healthz() -> &'static str {
    "ok\n"
}

/// `GET /metrics`.
async fn metrics(AxState(st): St) -> Response {
    let g = Gauges {
        workers: st.pool.workers(),
        busy: st.pool.busy(),
        queued: st.pool.queued(),
        connections: st.connections.len(),
        cancelled: st.pool.cancelled(),
        body_bytes: st
            .body_permits
            .saturating_sub(st.bodies.available_permits()),
    };
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        st.metrics.render(g),
    )
        .into_response()
}

async fn not_found(AxState(st): St) -> Response {
    Fail::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "endpoints: POST /extract, POST /batch, GET|POST /explain, GET /healthz, GET /metrics",
    )
    .response(&st)
}
