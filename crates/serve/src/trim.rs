//! Giving memory back after a burst. glibc's allocator keeps what a burst
//! freed in its per-thread arenas: after 1,030 connections, or 150 large
//! bodies, or pages extracted for clients that left, the server stayed at
//! 30–50 MB where it idles at 8 (issue 41). Two steps, on glibc only
//! (other allocators return memory on their own; there this does nothing):
//!
//! * [`one_arena`], before the runtime starts: every thread allocates from
//!   the main arena. `malloc_trim` gives back the free top of the main
//!   arena only, and a worker thread's own arena kept 10 MB of free top
//!   after 150 stalled 16 MiB bodies. Small allocations still go through
//!   each thread's cache, without the arena's lock.
//! * `keep_trimming`: when the server has been idle for a moment after
//!   some work, `malloc_trim` returns the free pages to the system.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::State;

/// How often the server looks whether to give memory back: the RSS is
/// back to idle within this long after the last request ends, and a
/// busy server is never trimmed.
pub const TRIM_EVERY: Duration = Duration::from_secs(5);

/// Connections accepted so far: work since the last trim.
#[derive(Debug, Default)]
pub struct Activity(AtomicU64);

impl Activity {
    /// A connection was accepted.
    pub fn seen(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// Every [`TRIM_EVERY`]: when there was work since the last look and now
/// there is none (no job admitted, no body in flight, no connection open
/// but the idle ones), gives freed memory back.
pub(crate) async fn keep_trimming(st: Arc<State>) {
    let mut last = 0u64;
    let mut ticks = tokio::time::interval(TRIM_EVERY);
    loop {
        ticks.tick().await;
        let now = st.activity.0.load(Ordering::Relaxed);
        let idle = st.pool.admitted() == 0 && st.bodies.available_permits() == st.body_permits;
        if now != last && idle {
            last = now;
            let _ = tokio::task::spawn_blocking(release).await;
        }
    }
}

/// Makes every thread allocate from glibc's main arena (call it before
/// any thread starts: arenas made already stay).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn one_arena() {
    // SAFETY: mallopt only sets an allocator parameter; M_ARENA_MAX limits
    // the arenas made from now on.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Elsewhere: nothing to do.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn one_arena() {}

/// Returns the allocator's free memory to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn release() {
    // SAFETY: malloc_trim has no preconditions; it walks glibc's arenas
    // under their own locks and only gives back pages no allocation uses.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn release() {}
