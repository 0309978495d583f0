//! unchaff as an HTTP service (`unchaff serve`): hyper and axum on tokio
//! for the connections, a fixed pool of worker threads for the
//! extraction, and limits that hold under abuse.
//!
//! | endpoint | what |
//! |---|---|
//! | `POST /extract` | one page: a raw HTML body with `url`, `format` and the options as query parameters, or a JSON body `{"html" or "html_base64", "url", "options"}`; answers `unchaff extract -f json`'s bytes (or the text, Markdown or HTML asked for) |
//! | `POST /batch` | JSONL pages in (`{"id", "url", "html"}` a line, as `unchaff batch` reads), JSONL rows out (`unchaff batch`'s schema), in order, streamed both ways |
//! | `GET /explain`, `POST /explain` | a form to paste a page; the report of [`unchaff_explain`] |
//! | `GET /healthz` | `ok` |
//! | `GET /metrics` | Prometheus text: requests by endpoint and status, latency histogram, pages and pages/s, errors by kind, pool gauges |
//!
//! ```text
//! accept ─(connection cap: the most idle or slowest connection makes room, conn.rs)
//!    ─▶ hyper http1 (header read timeout) ─▶ axum router
//!    /extract: body (size limit 413; whole-body deadline and minimum rate 408;
//!              memory for bodies in flight 503) ─▶ pool.try_admit (503 + Retry-After)
//!              ─▶ worker thread (not run if the client has gone): Extractor with the
//!                 deadline (504) ─▶ response
//! idle after work: freed memory given back (trim.rs)
//! SIGTERM/SIGINT: stop accepting, finish every request in flight, exit
//! ```
//!
//! Every limit is a field of [`Config`] with a documented default.

#![deny(missing_docs)]

pub mod conn;
mod handlers;
pub mod metrics;
pub mod pool;
pub mod request;
pub mod trim;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

use crate::conn::Registry;
use crate::metrics::Metrics;
use crate::pool::Pool;
use crate::request::Extractors;

/// Default address: loopback only; serving other hosts is a choice.
pub const DEFAULT_LISTEN: &str = "127.0.0.1:8080";

/// Default body limit: 16 MiB. The largest page of the dev data is under
/// 5 MB; real pages above 16 MB are machine-made dumps. The library's own
/// input limit ([`unchaff::DEFAULT_MAX_INPUT`], 256 MiB) is the
/// ceiling [`Config::check`] enforces.
pub const DEFAULT_MAX_BODY: usize = 16 << 20;

/// Default wait for a request's headers: 10 s. A client on a slow mobile
/// link sends its headers in well under a second; one that takes longer
/// holds a connection for nothing (slowloris).
pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// Default wait for a request's body: 30 s, enough for 16 MiB at ~4 Mbit/s.
/// For `/batch`, the longest wait for the next piece of the stream.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);

/// Default slowest body accepted: 1 KiB/s on average, judged after
/// [`conn::RATE_GRACE`]. A phone on a bad link sends tens of KB/s; one
/// byte every 20 s held a `/batch` connection for as long as the client
/// liked (the body timeout is per piece of a stream).
pub const DEFAULT_MIN_BODY_RATE: u64 = 1024;

/// Default memory for request bodies in flight, all requests together:
/// 128 MiB (eight bodies at the 16 MiB limit, thousands of ordinary
/// pages). Past it, 503: 150 stalled 16 MiB uploads took 2.75 GB before.
pub const DEFAULT_BODY_MEMORY: usize = 128 << 20;

/// Default extraction deadline per page: 10 s. The slowest dev page takes
/// ~0.2 s; a page past 10 s is an attack or a dump (504).
pub const DEFAULT_EXTRACT_TIMEOUT: Duration = Duration::from_secs(10);

/// Default jobs waiting for a worker, per worker: 16. At a few ms per
/// page that is under 0.1 s of waiting; more would only add latency
/// before the 504s start.
pub const DEFAULT_QUEUE_PER_WORKER: usize = 16;

/// Default cap on open connections: 1024 (each costs a task and buffers;
/// the file descriptor limit is usually 1024 or more).
pub const DEFAULT_MAX_CONNECTIONS: usize = 1024;

/// Default time given to requests in flight at shutdown: 30 s (three
/// default deadlines).
pub const DEFAULT_SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(30);

/// Default `Retry-After` of a 503, in seconds.
pub const DEFAULT_RETRY_AFTER: u32 = 1;

/// The server's settings.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// Address to listen on ([`DEFAULT_LISTEN`]).
    pub listen: SocketAddr,
    /// Extraction worker threads (default: the cores).
    pub workers: usize,
    /// Jobs that may wait for a worker; past it, 503 (default
    /// [`DEFAULT_QUEUE_PER_WORKER`] × workers).
    pub queue: usize,
    /// Largest request body (and, for `/batch`, line) in bytes; past it,
    /// 413 ([`DEFAULT_MAX_BODY`]).
    pub max_body: usize,
    /// Longest wait for a request's headers, and so for the next request
    /// on an idle keep-alive connection ([`DEFAULT_HEADER_TIMEOUT`]).
    pub header_timeout: Duration,
    /// Longest wait for a whole body, or for `/batch` for its next piece;
    /// past it, 408 ([`DEFAULT_BODY_TIMEOUT`]).
    pub body_timeout: Duration,
    /// Slowest body accepted, bytes per second on average after
    /// [`conn::RATE_GRACE`]; a slower one is cut off (408), and at the
    /// connection cap its connection is the first closed for room
    /// ([`DEFAULT_MIN_BODY_RATE`]).
    pub min_body_rate: u64,
    /// Memory for request bodies in flight, all requests together; a
    /// body that would go past it gets 503 (`/batch` waits, within the
    /// body timeout) ([`DEFAULT_BODY_MEMORY`]).
    pub body_memory: usize,
    /// Extraction deadline per page, checked inside the stages; past it,
    /// 504 ([`DEFAULT_EXTRACT_TIMEOUT`]).
    pub extract_timeout: Duration,
    /// Most open connections; more are closed at once
    /// ([`DEFAULT_MAX_CONNECTIONS`]).
    pub max_connections: usize,
    /// Longest wait for requests in flight at shutdown
    /// ([`DEFAULT_SHUTDOWN_TIMEOUT`]).
    pub shutdown_timeout: Duration,
    /// `Retry-After` of a 503, in seconds ([`DEFAULT_RETRY_AFTER`]).
    pub retry_after: u32,
    /// Test hook: each job waits this long on its worker before it runs
    /// (zero in service).
    pub worker_delay: Duration,
}

impl Default for Config {
    fn default() -> Self {
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config {
            listen: DEFAULT_LISTEN
                .parse()
                .unwrap_or(SocketAddr::from(([127, 0, 0, 1], 8080))),
            workers,
            queue: DEFAULT_QUEUE_PER_WORKER * workers,
            max_body: DEFAULT_MAX_BODY,
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            min_body_rate: DEFAULT_MIN_BODY_RATE,
            body_memory: DEFAULT_BODY_MEMORY,
            extract_timeout: DEFAULT_EXTRACT_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            shutdown_timeout: DEFAULT_SHUTDOWN_TIMEOUT,
            retry_after: DEFAULT_RETRY_AFTER,
            worker_delay: Duration::ZERO,
        }
    }
}

impl Config {
    /// Checks the settings: a body limit within the library's input
    /// limit, positive timeouts, at least one worker and connection.
    pub fn check(&self) -> Result<(), Error> {
        let max = unchaff::DEFAULT_MAX_INPUT;
        if self.max_body == 0 || self.max_body > max {
            return Err(Error::Config(format!(
                "the body limit must be 1 to {max} bytes (the library's input limit), not {}",
                self.max_body
            )));
        }
        for (name, d) in [
            ("header timeout", self.header_timeout),
            ("body timeout", self.body_timeout),
            ("extraction timeout", self.extract_timeout),
        ] {
            if d.is_zero() {
                return Err(Error::Config(format!("the {name} must be above zero")));
            }
        }
        if self.body_memory < self.max_body {
            return Err(Error::Config(format!(
                "the memory for bodies in flight ({}) must hold one body at the limit ({})",
                self.body_memory, self.max_body
            )));
        }
        if self.workers == 0 || self.max_connections == 0 {
            return Err(Error::Config(
                "workers and connections must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// What can stop the server.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A setting is out of range.
    #[error("{0}")]
    Config(String),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The runtime or the worker threads could not start, or accepting
    /// connections failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// What the handlers share.
pub(crate) struct State {
    pub config: Config,
    pub pool: Pool,
    pub metrics: Metrics,
    pub extractors: Extractors,
    /// The open connections.
    pub connections: Registry,
    /// Memory for bodies in flight, in bytes ([`Config::body_memory`]).
    pub bodies: Arc<tokio::sync::Semaphore>,
    /// Its permits when no body is in flight.
    pub body_permits: usize,
    /// Work seen, for giving memory back when idle ([`trim`]).
    pub activity: trim::Activity,
}

/// A bound server, not yet serving (so that the caller can learn the
/// address, e.g. with port 0).
pub struct Server {
    listener: TcpListener,
    state: Arc<State>,
}

impl Server {
    /// Binds the address and starts the workers. Call inside a tokio
    /// runtime.
    pub async fn bind(config: Config) -> Result<Server, Error> {
        config.check()?;
        let listener = TcpListener::bind(config.listen)
            .await
            .map_err(|source| Error::Bind {
                addr: config.listen,
                source,
            })?;
        let pool = Pool::new(config.workers, config.queue, config.worker_delay)?;
        let body_permits = config.body_memory.min(tokio::sync::Semaphore::MAX_PERMITS);
        let bodies = Arc::new(tokio::sync::Semaphore::new(body_permits));
        Ok(Server {
            listener,
            state: Arc::new(State {
                config,
                pool,
                metrics: Metrics::default(),
                extractors: Extractors::default(),
                connections: Registry::default(),
                bodies,
                body_permits,
                activity: trim::Activity::default(),
            }),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> Result<SocketAddr, Error> {
        Ok(self.listener.local_addr()?)
    }

    /// Serves until `shutdown` completes, then stops accepting, lets the
    /// requests in flight finish (up to [`Config::shutdown_timeout`]) and
    /// returns whether they all did.
    pub async fn serve(self, shutdown: impl Future<Output = ()>) -> Result<bool, Error> {
        let Server { listener, state } = self;
        let router = handlers::router(Arc::clone(&state));
        let graceful = GracefulShutdown::new();
        let mut shutdown = std::pin::pin!(shutdown);
        let trimming = tokio::spawn(trim::keep_trimming(Arc::clone(&state)));
        loop {
            let (stream, _) = tokio::select! {
                r = listener.accept() => match r {
                    Ok(c) => c,
                    // Out of descriptors and the like: wait, go on.
                    Err(_) => {
                        tokio::time::sleep(ACCEPT_BACKOFF).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            if state.connections.len() >= state.config.max_connections {
                // Full: the most idle or slowest connection makes room
                // (conn.rs); when every one is working, the new one goes.
                if state.connections.reclaim(state.config.min_body_rate) {
                    state.metrics.error("connection_reclaimed");
                } else {
                    state.metrics.error("connection_limit");
                    drop(stream);
                    continue;
                }
            }
            let _ = stream.set_nodelay(true);
            state.activity.seen();
            let (id, stats) = state.connections.add();
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(state.config.header_timeout)
                .keep_alive(true);
            let service = router.clone().layer(axum::Extension(stats));
            let conn =
                http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
            let conn = graceful.watch(conn);
            let st = Arc::clone(&state);
            let task = tokio::spawn(async move {
                // Leaves the registry however the task ends (aborted too).
                let _entry = st.connections.entry(id);
                // An error here is the client's (reset, timeout): nothing to do.
                let _ = conn.await;
            });
            state.connections.started(id, task.abort_handle());
        }
        drop(listener);
        trimming.abort();
        let drained = tokio::time::timeout(state.config.shutdown_timeout, graceful.shutdown())
            .await
            .is_ok();
        Ok(drained)
    }
}

/// Pause after a failed `accept` (e.g. out of file descriptors) before
/// trying again, so the loop does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Runs a server on its own tokio runtime until SIGTERM or SIGINT, then
/// drains it. `ready` is called with the bound address once it listens.
/// Returns whether every request in flight finished.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<bool, Error> {
    // Before the runtime's threads start (trim.rs).
    trim::one_arena();
    // The async side only moves bytes: two threads are plenty whatever
    // the worker count (extraction runs on the pool's own threads).
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(ASYNC_THREADS)
        .thread_name("unchaff-io")
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let server = Server::bind(config).await?;
        ready(server.local_addr()?);
        server.serve(shutdown_signal()).await
    })
}

/// Threads of the async runtime (connections, parsing, timers).
pub const ASYNC_THREADS: usize = 2;

/// Completes on SIGTERM or SIGINT (Ctrl-C).
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            (Ok(mut term), Ok(mut int)) => {
                tokio::select! {
                    _ = term.recv() => {},
                    _ = int.recv() => {},
                }
            }
            // No signal handling: serve until killed.
            _ => std::future::pending::<()>().await,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_checked() {
        let ok = Config::default();
        assert!(ok.check().is_ok());
        assert!(ok.max_body <= unchaff::DEFAULT_MAX_INPUT);
        let mut c = ok.clone();
        c.max_body = unchaff::DEFAULT_MAX_INPUT + 1;
        assert!(c.check().unwrap_err().to_string().contains("input limit"));
        let mut c = ok.clone();
        c.extract_timeout = Duration::ZERO;
        assert!(c.check().is_err());
        let mut c = ok;
        c.workers = 0;
        assert!(c.check().is_err());
    }
}
