//! What each open connection is doing, so that at the connection cap the
//! least useful one makes room for a new client instead of the new client
//! being refused.
//!
//! ```text
//! accept ─ at the cap? ─ no ─▶ serve it
//!                       └ yes ─▶ the registry's most idle or slowest connection
//!                                (idle past IDLE_GRACE, or a body slower than the
//!                                minimum rate past RATE_GRACE) is closed; none: refused
//! ```
//!
//! Without it, 1,030 clients each sending a `/batch` body one byte every
//! 20 s, or a request's head one byte at a time, held the cap (1,024): no
//! other client got in (issue 41: 0 of 90 probes answered in 90 s). All on
//! one address (a per-client share cannot tell an attacker on 127.0.0.1
//! from a proxy's clients), so the rule is by behaviour: a connection that
//! sends nothing, or sends a body slower than [`crate::Config::min_body_rate`],
//! is the first to go when the server is full. A connection whose request
//! is being worked on or answered is never closed for room.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::task::AbortHandle;

/// A connection without a request may be closed for room after this long
/// (a client sends its request within milliseconds of connecting; an idle
/// keep-alive connection costs the client one reconnect).
pub const IDLE_GRACE: Duration = Duration::from_secs(1);

/// A body is judged by its rate after this long (a new upload's first
/// second says little).
pub const RATE_GRACE: Duration = Duration::from_secs(2);

/// No request: waiting for one's head (a new or keep-alive connection).
const IDLE: u8 = 0;
/// Reading a request's body.
const BODY: u8 = 1;
/// A request in the work or being answered.
const BUSY: u8 = 2;

/// One connection's state, shared between its requests and the registry.
#[derive(Debug)]
pub struct ConnStats {
    state: AtomicU8,
    /// When the state was entered, in ms since the registry's start.
    since: AtomicU64,
    /// Body bytes received since the state was entered.
    bytes: AtomicU64,
    /// Bodies streaming now (`/batch` reads its body after the answer's
    /// head is out).
    streams: AtomicU32,
    epoch: Instant,
}

impl ConnStats {
    fn new(epoch: Instant) -> ConnStats {
        let c = ConnStats {
            state: AtomicU8::new(IDLE),
            since: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
            streams: AtomicU32::new(0),
            epoch,
        };
        c.set(IDLE);
        c
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn set(&self, state: u8) {
        self.bytes.store(0, Ordering::Relaxed);
        self.since.store(self.now_ms(), Ordering::Relaxed);
        self.state.store(state, Ordering::Relaxed);
    }

    /// A request's head is in: its body is next.
    pub fn request_started(&self) {
        self.set(BODY);
    }

    /// The request's body is in: it is being worked on.
    pub fn body_done(&self) {
        if self.streams.load(Ordering::Relaxed) == 0 {
            self.set(BUSY);
        }
    }

    /// The request's answer is out (its head, for a stream): the
    /// connection waits for the next request, unless a body still streams.
    pub fn request_done(&self) {
        if self.streams.load(Ordering::Relaxed) == 0 {
            self.set(IDLE);
        }
    }

    /// A body that goes on after the answer's head (`/batch`) starts.
    pub fn stream_started(&self) {
        self.streams.fetch_add(1, Ordering::Relaxed);
        self.set(BODY);
    }

    /// That body is done.
    pub fn stream_done(&self) {
        if self.streams.fetch_sub(1, Ordering::Relaxed) == 1 {
            self.set(IDLE);
        }
    }

    /// Body bytes received.
    pub fn received(&self, n: usize) {
        self.bytes.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// How much room closing this connection is worth, when it may be
    /// closed: the longer idle or the slower, the more. None for a
    /// connection that is working or within its grace.
    fn reclaimable(&self, min_rate: u64) -> Option<f64> {
        let elapsed = self
            .now_ms()
            .saturating_sub(self.since.load(Ordering::Relaxed));
        let secs = elapsed as f64 / 1000.0;
        match self.state.load(Ordering::Relaxed) {
            IDLE if elapsed >= IDLE_GRACE.as_millis() as u64 => Some(1e9 + secs),
            BODY if elapsed >= RATE_GRACE.as_millis() as u64 => {
                let rate = self.bytes.load(Ordering::Relaxed) as f64 / secs;
                (rate < min_rate as f64).then_some(min_rate as f64 - rate)
            }
            _ => None,
        }
    }
}

/// The open connections by id: their stats, and their task once spawned.
type Open = HashMap<u64, (Arc<ConnStats>, Option<AbortHandle>)>;

/// The open connections.
pub struct Registry {
    epoch: Instant,
    next: AtomicU64,
    open: Mutex<Open>,
}

impl Default for Registry {
    fn default() -> Self {
        Registry {
            epoch: Instant::now(),
            next: AtomicU64::new(0),
            open: Mutex::new(HashMap::new()),
        }
    }
}

/// A connection's place in the registry; leaving it (the connection's
/// task ends, or is aborted) removes it.
pub struct Entry<'a> {
    registry: &'a Registry,
    id: u64,
}

impl Drop for Entry<'_> {
    fn drop(&mut self) {
        self.registry.lock().remove(&self.id);
    }
}

impl Registry {
    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Open connections.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no connection is open.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// A new connection's stats and id (its task's abort handle follows,
    /// [`Registry::started`]).
    pub fn add(&self) -> (u64, Arc<ConnStats>) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let stats = Arc::new(ConnStats::new(self.epoch));
        self.lock().insert(id, (Arc::clone(&stats), None));
        (id, stats)
    }

    /// The entry that removes connection `id` when dropped (held by its
    /// task).
    pub fn entry(&self, id: u64) -> Entry<'_> {
        Entry { registry: self, id }
    }

    /// Connection `id`'s task, to close it for room.
    pub fn started(&self, id: u64, task: AbortHandle) {
        if let Some(e) = self.lock().get_mut(&id) {
            e.1 = Some(task);
        }
    }

    /// Closes the connection most worth closing (see [`ConnStats`]), if
    /// one may be closed; whether one was.
    pub fn reclaim(&self, min_rate: u64) -> bool {
        let mut open = self.lock();
        let victim = open
            .iter()
            .filter(|(_, (_, task))| task.is_some())
            .filter_map(|(id, (stats, _))| stats.reclaimable(min_rate).map(|v| (*id, v)))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        let Some((id, _)) = victim else {
            return false;
        };
        if let Some((_, Some(task))) = open.remove(&id) {
            task.abort();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_and_slow_connections_are_reclaimable_working_ones_not() {
        let epoch = Instant::now() - Duration::from_secs(100);
        let c = ConnStats::new(epoch);
        // Fresh: within the grace.
        assert_eq!(c.reclaimable(1024), None);
        c.since.store(c.now_ms() - 5_000, Ordering::Relaxed);
        assert!(c.reclaimable(1024).is_some(), "idle for 5 s");
        c.request_started();
        c.since.store(c.now_ms() - 5_000, Ordering::Relaxed);
        c.received(10);
        assert!(c.reclaimable(1024).is_some(), "2 bytes/s");
        c.received(1_000_000);
        assert_eq!(c.reclaimable(1024), None, "a fast body");
        c.body_done();
        c.since.store(c.now_ms() - 60_000, Ordering::Relaxed);
        assert_eq!(c.reclaimable(1024), None, "working");
        // An idle connection goes before a slow one.
        let slow = ConnStats::new(epoch);
        slow.request_started();
        slow.since.store(slow.now_ms() - 5_000, Ordering::Relaxed);
        let idle = ConnStats::new(epoch);
        idle.since.store(idle.now_ms() - 2_000, Ordering::Relaxed);
        assert!(idle.reclaimable(1024) > slow.reclaimable(1024));
        // A stream keeps its body state after the answer's head is out.
        let s = ConnStats::new(epoch);
        s.request_started();
        s.stream_started();
        s.request_done();
        assert_eq!(s.state.load(Ordering::Relaxed), BODY);
        s.stream_done();
        assert_eq!(s.state.load(Ordering::Relaxed), IDLE);
    }
}
