//! `unchaff batch`: the command-line shell over the `unchaff-batch` library
//! (readers, the ordered parallel driver, writers; see docs/BATCH.md):
//! arguments in, a progress bar, a summary line and an exit status out.

use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use unchaff::dedup::{DEFAULT_MAX_REPEATS, MIN_SEGMENT_CHARS};
use unchaff::{Extractor, Format};
use unchaff_batch::driver::{Driver, Stats};
use unchaff_batch::sink::{self, Target};
use unchaff_batch::{ErrorKind, Progress, RowFormat, TextFormat, inputs};

use crate::CliResult;
use crate::args::{AlgorithmArgs, PAGE_TIMEOUT_SECS, format_parser};

/// The formats a row's `text` can hold.
const TEXT_FORMATS: [Format; 3] = [Format::Text, Format::Markdown, Format::Html];

/// Arguments of `unchaff batch`.
#[derive(Args)]
#[command(
    after_help = "Exit status: 0 when every input was read; 1 when some input could not be \
read or framed (a file that cannot be opened, a refused non-regular file in a directory, a \
stretch of a WARC that is not records: each is a warning on stderr; a broken WARC record: its \
row's error, framing or truncated; the rows of everything else are written), when nothing at \
all could be read, or on a usage error."
)]
pub struct BatchArgs {
    /// Inputs: directories (searched for .html, .htm, .html.gz), page files,
    /// .warc / .warc.gz files, .jsonl files of {"url", "html", "id"} rows, or
    /// @LIST (a file naming one input a line).
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// The output file; written as FILE.tmp and renamed when the run ends.
    /// "-" streams JSONL to standard output (progress and summary go to
    /// stderr); a device, FIFO or symlink is written straight, never replaced.
    #[arg(long, short = 'o', value_name = "FILE")]
    out: PathBuf,
    /// Output format.
    #[arg(long, short = 'f', default_value = "jsonl", value_parser = sink_format_parser())]
    format: sink::Format,
    #[command(flatten)]
    alg: AlgorithmArgs,
    /// Add the page's metadata to each row ("metadata": title, author,
    /// published, modified, description, site_name, language, canonical, tags;
    /// as in `extract -f json`). Rows then carry "schema": 2.
    #[arg(long)]
    with_metadata: bool,
    /// What the rows' "text" field holds. Anything but the default makes rows
    /// carry "schema": 2 and "text_format".
    #[arg(long, value_parser = format_parser(&TEXT_FORMATS), default_value = "text")]
    text_format: Format,
    /// Drop the pages whose confidence (0 to 1: how likely the text is the page's main
    /// content, an estimate of its shingle F1; docs/RESULTS.md) is below X: they give no row
    /// and are counted in the summary.
    #[arg(long, value_name = "X")]
    min_confidence: Option<f32>,
    /// Keep only pages in these languages (ISO 639-1 codes, comma-separated: --lang en,de),
    /// as detected from the text (else as the page declares); the others give no row and are
    /// counted in the summary. A page whose language cannot be told is kept.
    #[arg(long, value_name = "xx[,yy]", value_delimiter = ',')]
    lang: Vec<String>,
    /// Add "simhash" to each row: a 64-bit SimHash of the plain text, 16 hex digits
    /// (near-duplicate texts differ in few bits: 3 or fewer apart is the usual cut).
    #[arg(long)]
    simhash: bool,
    #[arg(long, value_name = "N", num_args = 0..=1, help = dedup_help())]
    dedup: Option<Option<u32>>,
    /// WARC: keep responses of every HTTP status (by default only 2xx
    /// responses give rows; the others are counted in the summary).
    #[arg(long)]
    all_status: bool,
    /// Process only shard I of N (from 0): page files by their number in the
    /// input list, WARC and JSONL pages by record; shards 0/N .. N-1/N of the
    /// same inputs and flags cover every page exactly once.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    shard: Option<inputs::Shard>,
    #[arg(long, short = 'j', help = format!(
        "Worker threads that extract (default: all cores; at most {} per core); a reader \
         thread beside them reads and inflates the input. The output does not depend on it.",
        unchaff_batch::driver::THREADS_PER_CORE
    ))]
    threads: Option<usize>,
    /// Keep the rows of a previous run's FILE.tmp (or FILE), skip their pages, append the rest.
    #[arg(long)]
    resume: bool,
    /// Pages larger than this (bytes, after decompression) become error rows.
    #[arg(long, default_value_t = DEFAULT_MAX_BYTES)]
    max_bytes: usize,
    /// A page still extracting after this many seconds is stopped there (the
    /// deadline is checked inside every stage) and becomes a `timeout` error
    /// row; the batch goes on with the next page.
    #[arg(long, default_value_t = PAGE_TIMEOUT_SECS)]
    page_timeout: f64,
    /// Also write each page's extraction time to FILE, for benchmarks: one
    /// line a row, in row order, `id<TAB>wall seconds<TAB>CPU seconds` (the
    /// extracting thread's CPU time), timed around the extraction alone
    /// (not reading the page or writing its row). The rows do not change;
    /// with --threads 1 nothing reads ahead while a page is timed.
    #[arg(long, value_name = "FILE")]
    timings: Option<PathBuf>,
    /// No progress bar and no summary (warnings about unreadable input still show).
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Default of `batch --max-bytes`: pages larger than this (50 MB, after
/// decompression) become error rows. Far above any real page, and a bound
/// on the memory of one worker.
const DEFAULT_MAX_BYTES: usize = 50_000_000;

/// `--format`: the batch crate's output formats, by their names.
fn sink_format_parser() -> impl TypedValueParser<Value = sink::Format> {
    PossibleValuesParser::new(sink::Format::ALL.map(|f| f.name()))
        .try_map(|s| s.parse::<sink::Format>())
}

/// The help of `--dedup`, from the core's constants.
fn dedup_help() -> String {
    format!(
        "Drop repeated segments: a line of the text (a paragraph of Markdown) of at least \
         {MIN_SEGMENT_CHARS} characters seen on N earlier pages of the same site (URL host) in \
         this run is left out of the later ones, in input order (trafilatura's deduplicate). \
         Default N: {DEFAULT_MAX_REPEATS}."
    )
}

impl BatchArgs {
    /// Whether the rows go to standard output (`--out -`).
    pub fn writes_to_stdout(&self) -> bool {
        self.out.as_os_str() == "-"
    }
}

/// `I/N` with I < N.
fn parse_shard(s: &str) -> Result<inputs::Shard, String> {
    let bad = || format!("expected I/N with 0 <= I < N, got {s:?}");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let index: u64 = i.trim().parse().map_err(|_| bad())?;
    let count: u64 = n.trim().parse().map_err(|_| bad())?;
    if count == 0 || index >= count {
        return Err(bad());
    }
    Ok(inputs::Shard { index, count })
}

/// Runs `unchaff batch`.
pub fn run(a: BatchArgs) -> CliResult {
    let start = Instant::now();
    if a.format == sink::Format::Parquet && !cfg!(feature = "parquet") {
        return Err(
            "--format parquet needs unchaff built with the `parquet` feature \
                    (cargo install --path crates/cli --features parquet)"
                .into(),
        );
    }
    if a.format == sink::Format::Parquet && a.resume {
        return Err(
            "--resume works with --format jsonl only (a Parquet file cannot be appended to)".into(),
        );
    }
    let target = Target::of(&a.out);
    if a.format == sink::Format::Parquet && target == Target::Stdout {
        return Err("--out - (standard output) works with --format jsonl only".into());
    }
    if a.resume && !target.resumable() {
        return Err(format!(
            "--resume needs --out to be a regular file ({} is not)",
            a.out.display()
        )
        .into());
    }
    let timeout = Duration::try_from_secs_f64(a.page_timeout)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or("--page-timeout must be a positive number of seconds")?;
    let text = TextFormat::try_from(a.text_format)?;
    let rows = RowFormat::default()
        .with_metadata(a.with_metadata)
        .with_simhash(a.simhash)
        .with_text(text);
    // Metadata is computed only when rows carry it (`RowFormat::apply`);
    // the default row's title is the page's `<title>`, read by the renderer.
    let mut opts = rows.apply(
        a.alg
            .options()?
            .with_max_input_bytes(a.max_bytes)
            .with_timeout(timeout),
    );
    opts.min_confidence = a.min_confidence;
    opts.languages = a.lang.clone();
    let extractor = Extractor::new(&opts)?;
    let (sources, refused) = inputs::expand_with_warnings(&a.inputs)?;
    let bar = progress_bar(a.quiet, inputs::total_len(&sources));
    let format = a.format;
    // The output's temporary file, locked until the run is committed (a
    // second run with the same --out is refused); with --resume, the rows
    // of a cut run kept and counted.
    let (mut out, resume) = target.open(format, a.resume)?;
    if let Some(path) = &a.timings {
        let f = std::fs::File::create(path)
            .map_err(|e| format!("--timings {}: {e}", path.display()))?;
        out = Box::new(sink::TimedSink::new(out, io::BufWriter::new(f)));
    }
    let progress = Arc::new(Progress::default());
    let pages = inputs::Pages::new(sources, a.max_bytes)
        .with_progress(Arc::clone(&progress))
        .all_status(a.all_status)
        .shard(a.shard)
        .skipping(resume);
    let mut driver = Driver::new(&extractor)
        .row_format(rows)
        .progress(progress)
        .timed(a.timings.is_some())
        .dedup(a.dedup.map(|n| n.unwrap_or(DEFAULT_MAX_REPEATS)));
    if let Some(n) = a.threads {
        driver = driver.threads(n);
    }
    let stats = driver.run(pages, out.as_mut(), |p| {
        bar.set_position(p.bytes_read());
        let rate = p.rows_written() as f64 / start.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!("{} pages, {rate:.0} pages/s", p.rows_written()));
    });
    bar.finish_and_clear();
    let writing = target.writing_to().to_path_buf();
    let in_out = |e: &dyn std::fmt::Display| format!("{}: {e}", writing.display());
    // A reader of standard output that went away (`--out - | head`) ends
    // the run quietly (the binary's main exits 0).
    let sink_error = |e: io::Error| -> Box<dyn std::error::Error> {
        match e.kind() {
            io::ErrorKind::BrokenPipe => Box::new(e),
            _ => in_out(&e).into(),
        }
    };
    let mut stats = stats.map_err(|e| match e {
        unchaff_batch::Error::Sink(e) => sink_error(e),
        e => e.to_string().into(),
    })?;
    out.finish().map_err(sink_error)?;
    target.commit()?;
    stats.warnings.splice(0..0, refused);

    // Input that could not be read is reported even with --quiet.
    for w in &stats.warnings {
        eprintln!("unchaff batch: {w}");
    }
    if !a.quiet {
        eprintln!("unchaff batch: {}", summary(&stats, start.elapsed()));
    }
    if stats.read_ok == 0 && stats.already_there == 0 && stats.skipped.is_empty() {
        let why = match stats.warnings.first() {
            Some(w) => w.to_string(),
            None if stats.rows == 0 => "no pages in the inputs".into(),
            None => "every page was unreadable".into(),
        };
        return Err(format!("nothing could be read ({why})").into());
    }
    // A broken WARC record is one row with its error (framing,
    // truncated), or a warning when it has no row: either way some input
    // could not be read or framed.
    let broken: usize = [ErrorKind::Framing, ErrorKind::Truncated]
        .iter()
        .filter_map(|k| stats.errors.get(k))
        .sum();
    if !stats.warnings.is_empty() || broken > 0 {
        return Err(format!(
            "{} warning(s), {broken} broken WARC record(s): some input could not be read or \
             framed (see above, and the rows' errors); the rows of everything else were written",
            stats.warnings.len()
        )
        .into());
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
            // Decimal units (MB = 10^6 bytes), as in the summary line.
            "{bar:30} {decimal_bytes}/{decimal_total_bytes} read  {msg}  ETA {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// The summary line: pages, errors by kind, pages already there, WARC
/// records skipped, warnings, speed (MB = 10^6 bytes, as on the bar).
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
    let skipped = match (stats.skipped_status, stats.revisits) {
        (0, 0) => String::new(),
        (s, r) => format!(", WARC records skipped: {s} not 2xx, {r} revisit"),
    };
    let dropped: Vec<String> = stats
        .skipped
        .iter()
        .map(|(why, n)| format!("{n} {why}"))
        .collect();
    let dropped = match dropped.is_empty() {
        true => String::new(),
        false => format!(", dropped by filters: {}", dropped.join(", ")),
    };
    let dedup = match stats.dedup_segments {
        0 => String::new(),
        n => format!(
            ", dedup dropped {n} repeated segments ({} characters)",
            stats.dedup_chars
        ),
    };
    let warnings = match stats.warnings.len() {
        0 => String::new(),
        n => format!(", {n} warnings"),
    };
    let mb = stats.bytes_read as f64 / 1e6;
    format!(
        "{} pages written ({} errors{kinds}){resumed}{dropped}{dedup}{skipped}{warnings} in {secs:.1} s: {:.1} pages/s, {:.1} MB/s of input ({mb:.1} MB in all)",
        stats.rows,
        stats.error_rows(),
        stats.rows as f64 / secs,
        mb / secs,
    )
}
