//! `unchaff serve` (cargo feature `server`): arguments to
//! `unchaff-serve`'s [`Config`]; the server is in that crate.

use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;
use unchaff_serve::Config;

use crate::CliResult;

#[derive(Args)]
#[command(after_long_help = SERVE_HELP)]
pub struct ServeArgs {
    /// Address to listen on, HOST:PORT. Loopback by default; 0.0.0.0:8080 serves every
    /// interface (put a TLS proxy in front: the server speaks plain HTTP/1.1). Port 0 picks a
    /// free port (printed on stderr).
    #[arg(long, default_value = unchaff_serve::DEFAULT_LISTEN)]
    listen: SocketAddr,
    /// Extraction worker threads (OS threads; extraction never runs on the async side).
    /// Default: the number of cores.
    #[arg(long, value_name = "N", value_parser = crate::args::parse_threads)]
    workers: Option<usize>,
    #[arg(long, value_name = "N", help = format!(
        "Requests that may wait for a busy worker; one more gets 503 with Retry-After. \
         Default: {} per worker.", unchaff_serve::DEFAULT_QUEUE_PER_WORKER
    ))]
    queue: Option<usize>,
    #[arg(long, value_name = "BYTES", default_value_t = unchaff_serve::DEFAULT_MAX_BODY, help = format!(
        "Largest request body in bytes (for /batch: largest line); a larger one gets 413. \
         At most {} (the library's input limit).", unchaff::DEFAULT_MAX_INPUT
    ))]
    max_body: usize,
    /// Seconds a client has to send a request's headers; a slower one is disconnected
    /// (slowloris). It also bounds how long an idle keep-alive connection stays open.
    #[arg(long, value_name = "SECONDS", default_value_t = unchaff_serve::DEFAULT_HEADER_TIMEOUT.as_secs_f64())]
    header_timeout: f64,
    /// Seconds a client has to send a whole request body (for /batch: each piece of the
    /// stream); past it, 408 and the connection is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = unchaff_serve::DEFAULT_BODY_TIMEOUT.as_secs_f64())]
    body_timeout: f64,
    #[arg(long, value_name = "BYTES", default_value_t = unchaff_serve::DEFAULT_MIN_BODY_RATE, help = format!(
        "Slowest request body accepted, bytes per second on average (judged after {} s); a \
         slower one is cut off (408; /batch: the stream ends), and when the connection cap is \
         reached its connection is the first closed to make room.",
        unchaff_serve::conn::RATE_GRACE.as_secs_f64()
    ))]
    min_body_rate: u64,
    /// Memory for request bodies in flight, all requests together, in bytes; a body that
    /// does not fit gets 503 with Retry-After (/batch waits for room, within the body timeout).
    #[arg(long, value_name = "BYTES", default_value_t = unchaff_serve::DEFAULT_BODY_MEMORY)]
    body_memory: usize,
    /// Seconds one page's extraction may take, checked inside every stage; past it, 504
    /// (/batch: a "timeout" row). A request's `timeout` parameter may only shorten it.
    #[arg(long, value_name = "SECONDS", default_value_t = unchaff_serve::DEFAULT_EXTRACT_TIMEOUT.as_secs_f64())]
    extract_timeout: f64,
    #[arg(long, value_name = "N", default_value_t = unchaff_serve::DEFAULT_MAX_CONNECTIONS, help = format!(
        "Most open client connections. At the cap, the connection idle longest ({} s or more) \
         or with the slowest body (under --min-body-rate) is closed to make room; when every \
         one is working, the new one is closed at once.",
        unchaff_serve::conn::IDLE_GRACE.as_secs_f64()
    ))]
    max_connections: usize,
    /// On SIGTERM or SIGINT the server stops accepting and finishes the requests in
    /// flight; this many seconds at most, then it exits anyway (status 1).
    #[arg(long, value_name = "SECONDS", default_value_t = unchaff_serve::DEFAULT_SHUTDOWN_TIMEOUT.as_secs_f64())]
    shutdown_timeout: f64,
    /// The Retry-After header of a 503, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = unchaff_serve::DEFAULT_RETRY_AFTER)]
    retry_after: u32,
    /// Test hook: every job waits this many seconds on its worker before it runs.
    #[arg(long, value_name = "SECONDS", hide = true)]
    test_worker_delay: Option<f64>,
}

const SERVE_HELP: &str = "\
Endpoints:
  POST /extract   one page. A raw HTML body, with the page's url and the options as query
                  parameters (format=json|text|markdown|html, algorithm, param=KEY=VALUE,
                  links, images, html, no-tables, include-comments, precision, recall,
                  charset, timeout), or a JSON body {\"html\" or \"html_base64\", \"url\",
                  \"options\": {...}}. Answers what `unchaff extract -f json` prints.
  POST /batch     JSONL pages in ({\"id\", \"url\", \"html\"} a line), JSONL rows out in
                  order (`unchaff batch`'s rows), streamed both ways; text-format=markdown|html,
                  with-metadata=1 and the /extract options as query parameters.
  GET  /explain   a form to paste a page; POST /explain answers its report.
  GET  /healthz   \"ok\".
  GET  /metrics   Prometheus text: requests, latency, pages/s, errors by kind.

Examples:
  unchaff serve --listen 127.0.0.1:8080
  curl --data-binary @page.html 'http://127.0.0.1:8080/extract?url=https://example.org/a'
  curl -H 'Content-Type: application/json' -d '{\"html\": \"<p>Hello</p>\"}' \\
       http://127.0.0.1:8080/extract
  curl --data-binary @pages.jsonl 'http://127.0.0.1:8080/batch?format=markdown'";

fn secs(flag: &str, s: f64) -> Result<Duration, String> {
    if s > 0.0 {
        Duration::try_from_secs_f64(s).map_err(|e| format!("--{flag}: {e}"))
    } else {
        Err(format!("--{flag}: expected a positive number of seconds"))
    }
}

pub fn run_serve(a: ServeArgs) -> CliResult {
    let mut c = Config::default();
    c.listen = a.listen;
    if let Some(w) = a.workers {
        c.workers = w;
        c.queue = unchaff_serve::DEFAULT_QUEUE_PER_WORKER * w;
    }
    if let Some(q) = a.queue {
        c.queue = q;
    }
    c.max_body = a.max_body;
    c.header_timeout = secs("header-timeout", a.header_timeout)?;
    c.body_timeout = secs("body-timeout", a.body_timeout)?;
    c.extract_timeout = secs("extract-timeout", a.extract_timeout)?;
    c.min_body_rate = a.min_body_rate;
    c.body_memory = a.body_memory;
    c.max_connections = a.max_connections;
    c.shutdown_timeout = secs("shutdown-timeout", a.shutdown_timeout)?;
    c.retry_after = a.retry_after;
    if let Some(d) = a.test_worker_delay {
        c.worker_delay = secs("test-worker-delay", d)?;
    }
    let (workers, queue) = (c.workers, c.queue);
    let drained = unchaff_serve::run(c, |addr| {
        eprintln!(
            "unchaff: listening on http://{addr} ({workers} workers, queue {queue}); \
             SIGTERM or Ctrl-C stops it"
        );
    })?;
    if !drained {
        return Err("shut down with requests still in flight (--shutdown-timeout)".into());
    }
    eprintln!("unchaff: stopped");
    Ok(())
}
