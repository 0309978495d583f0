//! The extraction workers: a fixed set of OS threads fed through a queue
//! whose length is bounded by admission permits, so that extraction never
//! runs on the async executor and a flood of requests is refused (503)
//! instead of piling up.
//!
//! ```text
//! handler ─try_admit()─▶ Permit ─submit(job)─▶ channel ─▶ worker thread ─▶ oneshot ─▶ handler
//!            └─ none left: 503 + Retry-After
//! ```
//!
//! A permit stands for one job, queued or running: there are
//! `workers + queue` of them. It is released when its job is done (or
//! dropped unrun), whatever the handler did meanwhile (a client that went
//! away does not free a worker that is still busy with its page). A job
//! whose handler has gone (its client disconnected, so the handler's
//! future was dropped) by the time a worker takes it is not run: 34
//! requests whose clients had left kept the service busy for 128 s
//! (issue 41). A job already running finishes at its deadline.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};

/// One unit of work for a worker.
type Job = Box<dyn FnOnce() + Send + 'static>;

/// The worker pool.
pub struct Pool {
    tx: Mutex<Option<Sender<(Job, OwnedSemaphorePermit)>>>,
    permits: Arc<Semaphore>,
    capacity: usize,
    workers: usize,
    busy: Arc<AtomicUsize>,
    cancelled: Arc<AtomicU64>,
    handles: Mutex<Vec<JoinHandle<()>>>,
}

/// The right to queue one job ([`Pool::try_admit`], [`Pool::admit`]).
pub struct Permit(OwnedSemaphorePermit);

/// The pool was shut down.
#[derive(Debug, thiserror::Error)]
#[error("the worker pool is shut down")]
pub struct Closed;

impl Pool {
    /// Starts `workers` threads (at least one) behind a queue of `queue`
    /// waiting jobs. `delay` is a test hook: each job waits that long on
    /// its worker before it runs (0 in service).
    pub fn new(workers: usize, queue: usize, delay: Duration) -> std::io::Result<Pool> {
        let workers = workers.max(1);
        let (tx, rx) = channel::<(Job, OwnedSemaphorePermit)>();
        let rx = Arc::new(Mutex::new(rx));
        let busy = Arc::new(AtomicUsize::new(0));
        let mut handles = Vec::with_capacity(workers);
        for i in 0..workers {
            let rx = Arc::clone(&rx);
            let busy = Arc::clone(&busy);
            handles.push(
                std::thread::Builder::new()
                    .name(format!("unchaff-worker-{i}"))
                    .spawn(move || work(&rx, &busy, delay))?,
            );
        }
        let capacity = workers + queue;
        Ok(Pool {
            tx: Mutex::new(Some(tx)),
            permits: Arc::new(Semaphore::new(capacity)),
            capacity,
            workers,
            busy,
            cancelled: Arc::new(AtomicU64::new(0)),
            handles: Mutex::new(handles),
        })
    }

    /// A permit if a worker or a queue slot is free, else `None` (the
    /// caller answers 503).
    pub fn try_admit(&self) -> Option<Permit> {
        Arc::clone(&self.permits)
            .try_acquire_owned()
            .ok()
            .map(Permit)
    }

    /// A permit, waiting for one (a batch stream's later pages wait their
    /// turn rather than fail).
    pub async fn admit(&self) -> Result<Permit, Closed> {
        Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .map(Permit)
            .map_err(|_| Closed)
    }

    /// Runs `f` on a worker; its result comes back through the receiver.
    pub fn submit<T: Send + 'static>(
        &self,
        permit: Permit,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<oneshot::Receiver<T>, Closed> {
        let (tx, rx) = oneshot::channel();
        let cancelled = Arc::clone(&self.cancelled);
        let job: Job = Box::new(move || {
            // Nobody waits for it any more (the client left): not run.
            if tx.is_closed() {
                cancelled.fetch_add(1, Ordering::Relaxed);
                return;
            }
            let _ = tx.send(f());
        });
        let guard = self.tx.lock().map_err(|_| Closed)?;
        guard
            .as_ref()
            .ok_or(Closed)?
            .send((job, permit.0))
            .map_err(|_| Closed)?;
        Ok(rx)
    }

    /// Worker threads.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Jobs not run because nobody waited for them any more.
    pub fn cancelled(&self) -> u64 {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Jobs running now.
    pub fn busy(&self) -> usize {
        self.busy.load(Ordering::Relaxed)
    }

    /// Jobs admitted and not done (running or waiting).
    pub fn admitted(&self) -> usize {
        self.capacity
            .saturating_sub(self.permits.available_permits())
    }

    /// Jobs waiting for a worker.
    pub fn queued(&self) -> usize {
        self.admitted().saturating_sub(self.busy())
    }

    /// Stops taking jobs, lets the workers finish the queued ones, and
    /// waits for them.
    pub fn shutdown(&self) {
        self.permits.close();
        if let Ok(mut tx) = self.tx.lock() {
            tx.take();
        }
        let handles = self
            .handles
            .lock()
            .map(|mut h| std::mem::take(&mut *h))
            .unwrap_or_default();
        for h in handles {
            let _ = h.join();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A worker: takes jobs until the channel closes.
fn work(rx: &Mutex<Receiver<(Job, OwnedSemaphorePermit)>>, busy: &AtomicUsize, delay: Duration) {
    loop {
        // The lock is held only while waiting for the next job.
        let next = match rx.lock() {
            Ok(r) => r.recv(),
            Err(_) => return,
        };
        let Ok((job, permit)) = next else { return };
        busy.fetch_add(1, Ordering::Relaxed);
        if !delay.is_zero() {
            std::thread::sleep(delay);
        }
        // A panicking page must not take the worker with it; the job's
        // sender is dropped, which the handler reports as a 500.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
        busy.fetch_sub(1, Ordering::Relaxed);
        drop(permit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn admits_workers_plus_queue_then_refuses() {
        let pool = Pool::new(1, 1, Duration::ZERO).unwrap();
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let a = pool.try_admit().unwrap();
        let first = pool
            .submit(a, move || {
                gate_rx.recv().ok();
                1
            })
            .unwrap();
        let b = pool.try_admit().unwrap();
        let second = pool.submit(b, || 2).unwrap();
        assert!(pool.try_admit().is_none(), "worker and queue are full");
        gate_tx.send(()).unwrap();
        assert_eq!(first.await.unwrap(), 1);
        assert_eq!(second.await.unwrap(), 2);
        // Both permits come back once the jobs are done (a worker drops
        // its permit just after sending the result: wait for them).
        let p1 = pool.admit().await.unwrap();
        let p2 = pool.admit().await.unwrap();
        assert!(pool.try_admit().is_none());
        drop((p1, p2));
        assert!(pool.try_admit().is_some());
    }

    /// Issue 41, defect 9c: queued jobs whose handler had gone were run
    /// all the same.
    #[tokio::test]
    async fn a_queued_job_nobody_waits_for_is_not_run() {
        let pool = Pool::new(1, 4, Duration::ZERO).unwrap();
        let (gate_tx, gate_rx) = std::sync::mpsc::channel::<()>();
        let first = pool
            .submit(pool.try_admit().unwrap(), move || {
                gate_rx.recv().ok();
            })
            .unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        for _ in 0..3 {
            let r = Arc::clone(&ran);
            let rx = pool
                .submit(pool.try_admit().unwrap(), move || {
                    r.fetch_add(1, Ordering::Relaxed);
                })
                .unwrap();
            // The handler goes away before a worker takes the job.
            drop(rx);
        }
        gate_tx.send(()).unwrap();
        first.await.unwrap();
        // Every permit back: the three were taken off the queue unrun.
        let all: Vec<_> = futures_util::future::join_all((0..5).map(|_| pool.admit())).await;
        assert!(all.iter().all(|p| p.is_ok()));
        assert_eq!(ran.load(Ordering::Relaxed), 0);
        assert_eq!(pool.cancelled(), 3);
    }

    #[tokio::test]
    async fn a_panicking_job_leaves_the_worker_alive() {
        let pool = Pool::new(1, 0, Duration::ZERO).unwrap();
        let rx = pool
            .submit(pool.try_admit().unwrap(), || -> u32 { panic!("boom") })
            .unwrap();
        assert!(rx.await.is_err());
        let rx = pool.submit(pool.admit().await.unwrap(), || 5).unwrap();
        assert_eq!(rx.await.unwrap(), 5);
    }
}
