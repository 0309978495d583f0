//! Counters for `GET /metrics`, in the Prometheus text format (0.0.4):
//! requests by endpoint and status, a latency histogram, pages and pages
//! per second, errors by kind, and the pool's gauges.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Upper bounds of the latency histogram's buckets, in seconds: from a
/// small page (a few ms) to the default extraction deadline and beyond.
pub const LATENCY_BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// Seconds over which `unchaff_pages_per_second` is averaged.
pub const RATE_WINDOW_SECS: u64 = 10;

/// Slots of the per-second page ring: the window plus the current second.
const RING: usize = RATE_WINDOW_SECS as usize + 1;

/// The server's counters. Cheap to update from any thread.
#[derive(Debug)]
pub struct Metrics {
    start: Instant,
    requests: Mutex<BTreeMap<(&'static str, u16), u64>>,
    errors: Mutex<BTreeMap<String, u64>>,
    buckets: [AtomicU64; LATENCY_BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
    pages: AtomicU64,
    /// Pages done in each second (by second since start, modulo the ring),
    /// with the second they count.
    ring: Mutex<[(u64, u64); RING]>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            start: Instant::now(),
            requests: Mutex::default(),
            errors: Mutex::default(),
            buckets: Default::default(),
            count: AtomicU64::new(0),
            sum_micros: AtomicU64::new(0),
            pages: AtomicU64::new(0),
            ring: Mutex::new([(u64::MAX, 0); RING]),
        }
    }
}

/// The gauges read from the pool when the metrics are written.
#[derive(Clone, Copy, Debug, Default)]
pub struct Gauges {
    /// Worker threads.
    pub workers: usize,
    /// Jobs running.
    pub busy: usize,
    /// Jobs waiting.
    pub queued: usize,
    /// Open connections.
    pub connections: usize,
    /// Jobs not run because their client had gone.
    pub cancelled: u64,
    /// Bytes of request bodies in flight.
    pub body_bytes: usize,
}

impl Metrics {
    /// One request answered: its endpoint (a fixed label), status and time.
    pub fn request(&self, endpoint: &'static str, status: u16, took: Duration) {
        if let Ok(mut m) = self.requests.lock() {
            *m.entry((endpoint, status)).or_default() += 1;
        }
        let secs = took.as_secs_f64();
        for (b, &le) in self.buckets.iter().zip(&LATENCY_BUCKETS) {
            if secs <= le {
                b.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros
            .fetch_add(took.as_micros() as u64, Ordering::Relaxed);
    }

    /// One page extracted (whatever the result).
    pub fn page(&self) {
        self.pages.fetch_add(1, Ordering::Relaxed);
        let sec = self.start.elapsed().as_secs();
        if let Ok(mut ring) = self.ring.lock() {
            let slot = &mut ring[(sec % RING as u64) as usize];
            if slot.0 != sec {
                *slot = (sec, 0);
            }
            slot.1 += 1;
        }
    }

    /// One error of this kind (`timeout`, `too_large`, `queue_full`, …).
    pub fn error(&self, kind: &str) {
        if let Ok(mut m) = self.errors.lock() {
            *m.entry(kind.to_owned()).or_default() += 1;
        }
    }

    /// Pages per second over the last [`RATE_WINDOW_SECS`] whole seconds
    /// (fewer right after start).
    pub fn pages_per_second(&self) -> f64 {
        let now = self.start.elapsed().as_secs();
        let window = RATE_WINDOW_SECS.min(now).max(1);
        let Ok(ring) = self.ring.lock() else {
            return 0.0;
        };
        let done: u64 = ring
            .iter()
            .filter(|(s, _)| *s != u64::MAX && *s < now && now - *s <= window)
            .map(|(_, n)| n)
            .sum();
        done as f64 / window as f64
    }

    /// The metrics in the Prometheus text format.
    pub fn render(&self, g: Gauges) -> String {
        let mut o = String::with_capacity(2048);
        o.push_str(
            "# HELP unchaff_requests_total HTTP requests answered, by endpoint and status.\n\
             # TYPE unchaff_requests_total counter\n",
        );
        if let Ok(m) = self.requests.lock() {
            for ((e, s), n) in m.iter() {
                let _ = writeln!(
                    o,
                    "unchaff_requests_total{{endpoint=\"{e}\",status=\"{s}\"}} {n}"
                );
            }
        }
        o.push_str(
            "# HELP unchaff_request_duration_seconds Time from request to response head.\n\
             # TYPE unchaff_request_duration_seconds histogram\n",
        );
        for (b, le) in self.buckets.iter().zip(LATENCY_BUCKETS) {
            let _ = writeln!(
                o,
                "unchaff_request_duration_seconds_bucket{{le=\"{le}\"}} {}",
                b.load(Ordering::Relaxed)
            );
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(
            o,
            "unchaff_request_duration_seconds_bucket{{le=\"+Inf\"}} {count}\n\
             unchaff_request_duration_seconds_sum {}\n\
             unchaff_request_duration_seconds_count {count}",
            self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6
        );
        let _ = writeln!(
            o,
            "# HELP unchaff_pages_total Pages extracted (any result).\n\
             # TYPE unchaff_pages_total counter\n\
             unchaff_pages_total {}\n\
             # HELP unchaff_pages_per_second Pages extracted per second over the last {RATE_WINDOW_SECS} s.\n\
             # TYPE unchaff_pages_per_second gauge\n\
             unchaff_pages_per_second {:.3}",
            self.pages.load(Ordering::Relaxed),
            self.pages_per_second()
        );
        o.push_str(
            "# HELP unchaff_errors_total Errors by kind (page errors and refused requests).\n\
             # TYPE unchaff_errors_total counter\n",
        );
        if let Ok(m) = self.errors.lock() {
            for (k, n) in m.iter() {
                let _ = writeln!(o, "unchaff_errors_total{{kind=\"{k}\"}} {n}");
            }
        }
        let _ = write!(
            o,
            "# HELP unchaff_workers Extraction worker threads.\n# TYPE unchaff_workers gauge\nunchaff_workers {}\n\
             # HELP unchaff_jobs_running Extractions running now.\n# TYPE unchaff_jobs_running gauge\nunchaff_jobs_running {}\n\
             # HELP unchaff_queue_depth Extractions waiting for a worker.\n# TYPE unchaff_queue_depth gauge\nunchaff_queue_depth {}\n\
             # HELP unchaff_connections Open client connections.\n# TYPE unchaff_connections gauge\nunchaff_connections {}\n\
             # HELP unchaff_jobs_cancelled_total Extractions not run: their client had gone.\n# TYPE unchaff_jobs_cancelled_total counter\nunchaff_jobs_cancelled_total {}\n\
             # HELP unchaff_body_bytes Bytes of request bodies in flight.\n# TYPE unchaff_body_bytes gauge\nunchaff_body_bytes {}\n\
             # HELP unchaff_uptime_seconds Seconds since the server started.\n# TYPE unchaff_uptime_seconds gauge\nunchaff_uptime_seconds {:.0}\n",
            g.workers,
            g.busy,
            g.queued,
            g.connections,
            g.cancelled,
            g.body_bytes,
            self.start.elapsed().as_secs_f64()
        );
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counters_histogram_and_gauges() {
        let m = Metrics::default();
        m.request("/extract", 200, Duration::from_millis(3));
        m.request("/extract", 200, Duration::from_millis(30));
        m.request("/extract", 503, Duration::from_micros(100));
        m.page();
        m.error("queue_full");
        let t = m.render(Gauges {
            workers: 2,
            ..Gauges::default()
        });
        assert!(t.contains("unchaff_requests_total{endpoint=\"/extract\",status=\"200\"} 2"));
        assert!(t.contains("unchaff_requests_total{endpoint=\"/extract\",status=\"503\"} 1"));
        assert!(t.contains("unchaff_request_duration_seconds_bucket{le=\"0.005\"} 2"));
        assert!(t.contains("unchaff_request_duration_seconds_bucket{le=\"+Inf\"} 3"));
        assert!(t.contains("unchaff_request_duration_seconds_count 3"));
        assert!(t.contains("unchaff_pages_total 1"));
        assert!(t.contains("unchaff_errors_total{kind=\"queue_full\"} 1"));
        assert!(t.contains("unchaff_workers 2"));
        // Every sample line is NAME{labels} VALUE or NAME VALUE.
        for line in t.lines().filter(|l| !l.starts_with('#')) {
            let value = line.rsplit(' ').next().unwrap();
            assert!(value.parse::<f64>().is_ok(), "{line}");
        }
    }
}
