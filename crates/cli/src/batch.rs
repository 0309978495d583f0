//! `unchaff batch`: the command-line shell over the `unchaff-batch` library
//! (readers, the ordered parallel driver, writers; see docs/BATCH.md):
//! arguments in, a progress bar, a summary line and an exit status out.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use unchaff::Extractor;
use unchaff_batch::driver::{Driver, Stats};
use unchaff_batch::sink;
use unchaff_batch::{Progress, inputs};

use crate::{AlgorithmArgs, CliResult};

/// Output formats of `batch`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BatchFormat {
    /// One JSON object a line.
    Jsonl,
    /// Apache Parquet (needs the `parquet` cargo feature).
    Parquet,
}

/// Arguments of `unchaff batch`.
#[derive(Args)]
pub struct BatchArgs {
    /// Inputs: directories (searched for .html, .htm, .html.gz), page files,
    /// .warc / .warc.gz files, .jsonl files of {"url", "html", "id"} rows, or
    /// @LIST (a file naming one input a line).
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// The output file; written as FILE.tmp and renamed when the run ends.
    #[arg(long, short = 'o', value_name = "FILE")]
    out: PathBuf,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value = "jsonl")]
    format: BatchFormat,
    #[command(flatten)]
    alg: AlgorithmArgs,
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long, short = 'j')]
    threads: Option<usize>,
    /// Keep the rows of a previous run's FILE.tmp (or FILE), skip their pages, append the rest.
    #[arg(long)]
    resume: bool,
    /// Pages larger than this (bytes, after decompression) become error rows.
    #[arg(long, default_value_t = 50_000_000)]
    max_bytes: usize,
    /// A page whose extraction took longer than this (seconds) becomes an
    /// error row. Measured after the fact: a running extraction is not stopped.
    #[arg(long, default_value_t = 60.0)]
    page_timeout: f64,
    /// No progress bar and no summary (warnings about unreadable input still show).
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Runs `unchaff batch`.
pub fn run(a: BatchArgs) -> CliResult {
    let start = Instant::now();
    if a.format == BatchFormat::Parquet && !cfg!(feature = "parquet") {
        return Err(
            "--format parquet needs unchaff built with the `parquet` feature \
                    (cargo install --path crates/cli --features parquet)"
                .into(),
        );
    }
    if a.format == BatchFormat::Parquet && a.resume {
        return Err(
            "--resume works with --format jsonl only (a Parquet file cannot be appended to)".into(),
        );
    }
    let timeout = Duration::try_from_secs_f64(a.page_timeout)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or("--page-timeout must be a positive number of seconds")?;
    // Rows carry no metadata: it is not computed (the title is the page's
    // `<title>`, read by the renderer).
    let opts = crate::options(&a.alg).with_max_input_bytes(a.max_bytes);
    let extractor = Extractor::new(&opts)?;
    let sources = inputs::expand(&a.inputs)?;
    let bar = progress_bar(a.quiet, inputs::total_len(&sources));
    let tmp = sink::tmp_path(&a.out);
    let resume = match a.resume {
        true => sink::resume_jsonl(&a.out, &tmp)?,
        false => sink::Resume::default(),
    };
    let format = match a.format {
        BatchFormat::Jsonl => sink::Format::Jsonl,
        BatchFormat::Parquet => sink::Format::Parquet,
    };
    let mut out = sink::open(format, &tmp, a.resume)?;
    let progress = Arc::new(Progress::default());
    let pages = inputs::Pages::new(sources, a.max_bytes)
        .with_progress(Arc::clone(&progress))
        .skipping(resume);
    let mut driver = Driver::new(&extractor)
        .page_timeout(Some(timeout))
        .progress(progress);
    if let Some(n) = a.threads {
        driver = driver.threads(n);
    }
    let stats = driver.run(pages, out.as_mut(), |p| {
        bar.set_position(p.bytes_read());
        let rate = p.rows_written() as f64 / start.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!("{} pages, {rate:.0} pages/s", p.rows_written()));
    });
    bar.finish_and_clear();
    let in_tmp = |e: &dyn std::fmt::Display| format!("{}: {e}", tmp.display());
    let stats = stats.map_err(|e| match e {
        unchaff_batch::Error::Sink(e) => in_tmp(&e),
        e => e.to_string(),
    })?;
    out.finish().map_err(|e| in_tmp(&e))?;
    sink::commit(&tmp, &a.out)?;

    // Input that could not be read is reported even with --quiet.
    for w in &stats.warnings {
        eprintln!("unchaff batch: {w}");
    }
    if !a.quiet {
        eprintln!("unchaff batch: {}", summary(&stats, start.elapsed()));
    }
    if stats.read_ok == 0 && stats.already_there == 0 {
        let why = match stats.warnings.first() {
            Some(w) => w.to_string(),
            None if stats.rows == 0 => "no pages in the inputs".into(),
            None => "every page was unreadable".into(),
        };
        return Err(format!("nothing could be read ({why})").into());
    }
    Ok(())
}

/// The progress bar (bytes of input read), on a terminal only.
fn progress_bar(quiet: bool, total_bytes: u64) -> indicatif::ProgressBar {
    if quiet || !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total_bytes);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {bytes}/{total_bytes} read  {msg}  ETA {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// The summary line: pages, errors by kind, pages already there, speed.
fn summary(stats: &Stats, took: Duration) -> String {
    let secs = took.as_secs_f64().max(1e-9);
    let kinds: Vec<String> = stats
        .errors
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    let kinds = match kinds.is_empty() {
        true => String::new(),
        false => format!(": {}", kinds.join(", ")),
    };
    let resumed = match stats.already_there {
        0 => String::new(),
        n => format!(", {n} already there (resume)"),
    };
    let mb = stats.bytes_read as f64 / 1e6;
    format!(
        "{} pages written ({} errors{kinds}){resumed} in {secs:.1} s: {:.1} pages/s, {:.1} MB/s of input ({mb:.1} MB in all)",
        stats.rows,
        stats.error_rows(),
        stats.rows as f64 / secs,
        mb / secs,
    )
}
