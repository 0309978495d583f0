//! The speed benchmark of `unchaff bench`: an extractor run over pages
//! held in memory, an untimed warm-up pass then timed passes, the fastest
//! kept, with the time of each stage summed over threads.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use unchaff::{Extractor, StageTimes};

use crate::EvalError;
use crate::dataset::Dataset;

/// Every page of the dataset folders `dirs`, read and gunzipped: reading
/// data is not extraction, so it happens before the clock starts.
pub fn load_pages(dirs: &[PathBuf]) -> Result<Vec<Vec<u8>>, EvalError> {
    let mut pages = Vec::new();
    for dir in dirs {
        let ds = Dataset::open(dir)?;
        for p in &ds.pages {
            pages.push(ds.read_page_html_gunzipped(p)?);
        }
    }
    Ok(pages)
}

/// The fastest timed pass of a benchmark.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct BenchResult {
    /// The algorithm's name.
    pub algorithm: String,
    /// Worker threads.
    pub threads: usize,
    /// Pages per pass.
    pub pages: usize,
    /// Their HTML, in bytes.
    pub bytes: usize,
    /// Timed passes.
    pub passes: usize,
    /// The fastest pass's wall time.
    pub wall: Duration,
    /// Its stages' times, summed over threads.
    pub times: StageTimes,
    /// Pages that gave an error in it.
    pub errors: usize,
}

/// Runs `extractor` over `pages` once untimed, then `repeat` (at least 1)
/// timed passes on `pool`; the fastest pass counts. `None` without pages.
pub fn run(
    extractor: &Extractor,
    pages: &[Vec<u8>],
    pool: &rayon::ThreadPool,
    repeat: usize,
) -> Option<BenchResult> {
    if pages.is_empty() {
        return None;
    }
    let passes = repeat.max(1);
    let mut best: Option<(Duration, StageTimes, usize)> = None;
    for pass in 0..=passes {
        let start = Instant::now();
        let (times, errors) = pool.install(|| {
            pages
                .par_iter()
                .map(|b| match extractor.extract(b) {
                    Ok(x) => (x.times, 0),
                    Err(_) => (StageTimes::default(), 1),
                })
                .reduce(
                    || (StageTimes::default(), 0),
                    |(mut a, ea), (b, eb)| {
                        a.add(&b);
                        (a, ea + eb)
                    },
                )
        });
        let wall = start.elapsed();
        if pass > 0 && best.as_ref().is_none_or(|b| wall < b.0) {
            best = Some((wall, times, errors));
        }
    }
    let (wall, times, errors) = best?;
    Some(BenchResult {
        algorithm: extractor.method().to_string(),
        threads: pool.current_num_threads(),
        pages: pages.len(),
        bytes: pages.iter().map(Vec::len).sum(),
        passes,
        wall,
        times,
        errors,
    })
}

/// The report `unchaff bench` prints: pages/s, MB/s, and each stage's
/// time and share.
pub fn format(r: &BenchResult) -> String {
    let mut o = String::new();
    let secs = r.wall.as_secs_f64();
    let mb = r.bytes as f64 / 1e6;
    let _ = writeln!(
        o,
        "algorithm {}  threads {}  pages {}  HTML {:.1} MB  best of {} passes",
        r.algorithm, r.threads, r.pages, mb, r.passes
    );
    let _ = writeln!(
        o,
        "wall {:.3} s  {:.1} pages/s  {:.1} MB/s  ({:.3} ms/page)",
        secs,
        r.pages as f64 / secs,
        mb / secs,
        secs * 1e3 / r.pages as f64
    );
    let total = r.times.total().as_secs_f64().max(1e-12);
    o.push_str("stage       time (s, summed over threads)   share\n");
    for (name, d) in r.times.stages() {
        let _ = writeln!(
            o,
            "{name:10}  {:>10.3}                      {:>5.1}%",
            d.as_secs_f64(),
            100.0 * d.as_secs_f64() / total
        );
    }
    if r.errors > 0 {
        let _ = writeln!(o, "{} pages gave an error", r.errors);
    }
    o
}
