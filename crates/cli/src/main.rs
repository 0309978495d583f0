//! The `unchaff` command-line tool. All the work is in the `unchaff` and
//! `unchaff-eval` libraries; this file parses arguments and prints.

mod batch;
mod fetch;
mod serve;
mod structure;

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};
use rayon::prelude::*;
use unchaff::{Extractor, Format, Input, Method, Options, StageTimes};
use unchaff_eval::dataset::{Dataset, Filter, list_folders};
use unchaff_eval::leaves::{LeafCounts, inspection_counts};
use unchaff_eval::report::{self, FolderScores};

#[derive(Parser)]
#[command(
    name = "unchaff",
    version,
    about = "Pull the main content out of web pages and drop the chaff.",
    long_about = "Pull the main content out of web pages (the article, the post, the documentation \
                  text) and drop the chaff: navigation, ads, related links, footers, banners.\n\n\
                  Examples:\n  unchaff extract examples/article.html\n  \
                  unchaff extract page.html.gz --format json --url https://example.org/a\n  \
                  unchaff eval ../shared/data/scrapinghub\n  \
                  unchaff bench ../shared/data/scrapinghub --threads 1\n  \
                  unchaff batch crawl.warc.gz --out pages.jsonl"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Extract the main content of one page (a file, .gz included, or stdin).
    Extract(ExtractArgs),
    /// Run an algorithm over dataset folders and score it against their gold text.
    Eval(EvalArgs),
    /// Score saved outputs (a directory of <id>.txt, or the benchmark's JSON) against a folder's gold.
    Score(ScoreArgs),
    /// Measure extraction speed in-process: pages/s, MB/s and time per stage.
    Bench(BenchArgs),
    /// List the algorithms, one line each; with --params (or a name), their parameters.
    Algorithms(AlgorithmsArgs),
    /// Train an algorithm's model on dataset folders and save it (JSON).
    Train(TrainArgs),
    /// Extract many pages (directories, @lists, WARC, JSONL) in parallel into one JSONL or Parquet file.
    Batch(batch::BatchArgs),
    /// Learn and inspect site templates: text that recurs across a site's pages (SQLite).
    #[command(subcommand)]
    Templates(TemplatesCommand),
    /// Serve extraction over HTTP: /extract, /batch, /explain, /healthz, /metrics.
    Serve(serve::ServeArgs),
    /// Write an HTML report of why each block of a page was kept or dropped.
    Explain(serve::ExplainArgs),
    /// The structure benchmark: generate pages of known structure, survey real ones, score Markdown per construct.
    #[command(subcommand)]
    Structure(structure::StructureCommand),
}

#[derive(Args)]
struct AlgorithmsArgs {
    /// Show the parameters of this algorithm only (default, range, meaning).
    name: Option<String>,
    /// Show every algorithm's parameters (`-p KEY=VALUE`).
    #[arg(long)]
    params: bool,
}

#[derive(Subcommand)]
enum TemplatesCommand {
    /// Learn site templates from pages, in batches of 10 pages per site (a partial batch stays pending).
    Learn(TemplatesLearnArgs),
    /// List the sites of a library, or one site's entries.
    Show(TemplatesShowArgs),
}

#[derive(Args)]
struct TemplatesLearnArgs {
    /// The library file (created if missing).
    #[arg(long, value_name = "FILE")]
    db: PathBuf,
    /// Dataset folders (site: each page's manifest url host, else its site field), or HTML files (need --site).
    #[arg(required = true)]
    input: Vec<PathBuf>,
    /// The site of the HTML files given (a host or any site id).
    #[arg(long)]
    site: Option<String>,
}

#[derive(Args)]
struct TemplatesShowArgs {
    /// The library file.
    #[arg(long, value_name = "FILE")]
    db: PathBuf,
    /// Show this site's entries.
    #[arg(long)]
    site: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum FormatArg {
    /// Plain text, one block a line.
    Text,
    /// A JSON object: {"schema": 2, "text", "markdown", "metadata", "title", "url", "charset", …}.
    Json,
    /// Markdown: headings, lists, tables, code blocks, quotes, emphasis.
    Markdown,
    /// A clean, safe HTML fragment (whitelisted tags and attributes).
    Html,
    /// XML in trafilatura's shape: <doc> with the metadata as attributes, <main> with the
    /// content, <comments> with --comments.
    Xml,
}

impl FormatArg {
    fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Text => Format::Text,
            FormatArg::Json => Format::Json,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Html => Format::Html,
            FormatArg::Xml => Format::Xml,
        }
    }
}

#[derive(Args, Clone)]
struct AlgorithmArgs {
    /// Algorithm to run (`unchaff algorithms` lists them); "auto" is the default one.
    #[arg(long, short = 'a', default_value = "auto", value_parser = parse_method)]
    algorithm: Method,
    /// An algorithm parameter, KEY=VALUE (repeatable), e.g. --param lambda=0.3.
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE", value_parser = parse_key_value)]
    params: Vec<(String, String)>,
    /// Keep comment sections (auto only; the same as --param include-comments=1).
    #[arg(long)]
    include_comments: bool,
    /// Favour precision: keep only the blocks the model is surest of (auto only; the same as --param threshold=0.65).
    #[arg(long, conflicts_with = "recall")]
    precision: bool,
    /// Favour recall: keep borderline blocks too (auto only; the same as --param threshold=0.35).
    #[arg(long)]
    recall: bool,
    /// Remove what this CSS selector matches before extracting (repeatable; as trafilatura's
    /// prune_xpath): it is never content. E.g. --exclude '.related, aside'.
    #[arg(long, value_name = "SELECTOR")]
    exclude: Vec<String>,
    /// The content is exactly what this CSS selector matches, in document order (repeatable);
    /// the algorithm does not run. A page where nothing matches has an empty text.
    #[arg(long, value_name = "SELECTOR")]
    include: Vec<String>,
    /// The page's comments apart from its content (auto only): "comments" in JSON and batch
    /// rows, one per comment with its author. --include-comments merges them into the text.
    #[arg(long)]
    comments: bool,
}

/// Default of `extract --timeout`, in seconds: `batch --page-timeout`'s.
/// The slowest dev page takes well under a second; a page still running
/// after a minute is built to hurt (issue 41: pages that took minutes of
/// CPU ran with no deadline at all).
const DEFAULT_TIMEOUT: &str = "60";

#[derive(Args)]
struct ExtractArgs {
    /// Pages: .html or .html.gz files, http(s) URLs (fetched), or "-" (standard input, also
    /// the default). With several, -f json writes one JSON line each; the other formats put
    /// a "==> NAME <==" line before each page.
    inputs: Vec<String>,
    /// The page's URL, for a file or standard input (reported in JSON; resolves links; names
    /// the site for site-aware algorithms). A fetched page's URL is its address after redirects.
    #[arg(long)]
    url: Option<String>,
    /// The largest page accepted (bytes, after decompression); larger ones are an error.
    #[arg(long, value_name = "BYTES", default_value_t = unchaff::DEFAULT_MAX_INPUT)]
    max_bytes: usize,
    /// The page's charset, as an HTTP header would give it (overrides the page's own declaration).
    #[arg(long)]
    charset: Option<String>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value = "text")]
    format: FormatArg,
    /// A site template library: the page's site's entries (site = the --url host) are deleted first.
    #[arg(long, value_name = "FILE")]
    templates: Option<PathBuf>,
    /// Give up on the page after this many seconds (an error at the deadline, in whatever stage it
    /// is), as `batch --page-timeout` does.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, default_value = DEFAULT_TIMEOUT)]
    timeout: Duration,
    /// Markdown: write links as [text](url), resolved against --url or the page's <base>.
    #[arg(long)]
    links: bool,
    /// Markdown and HTML: write the content's images (Markdown ![alt](src)) — those in kept
    /// blocks, figures and pictures between them with their captions, and the lead image
    /// above the first; lazy-loaded sources (data-src, srcset) resolved.
    #[arg(long)]
    images: bool,
    /// Markdown: do not open the document with the title as "# Title" (by default it does,
    /// unless the content already starts with that heading; JSON keeps the title apart).
    #[arg(long)]
    no_title: bool,
    /// JSON: include the clean HTML too.
    #[arg(long)]
    html: bool,
    /// Leave data tables out of the output (a table with a header, or without blocks of prose in
    /// its cells); a table that lays the page out is kept.
    #[arg(long)]
    no_tables: bool,
    #[command(flatten)]
    alg: AlgorithmArgs,
}

#[derive(Args)]
struct EvalArgs {
    /// Dataset folders (each with manifest.jsonl, pages/, gold/), or a directory holding such folders.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    #[command(flatten)]
    alg: AlgorithmArgs,
    /// Write each page's output to DIR/<folder>/<id>.txt.
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,
    /// Only pages whose manifest field matches, KEY=VALUE (e.g. page_type=forum; repeatable, all must match).
    #[arg(long, value_name = "KEY=VALUE")]
    filter: Vec<String>,
    /// Print the table as Markdown.
    #[arg(long)]
    markdown: bool,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, short = 'j', value_parser = parse_threads)]
    threads: Option<usize>,
    /// A site template library applied before the algorithm (site: each page's manifest url host, else its site field, as every algorithm sees it).
    #[arg(long, value_name = "FILE")]
    templates: Option<PathBuf>,
    /// Only the pages of cross-validation fold K of N (K/N; folds by a stable hash of the page id), e.g. to score a model trained with `train auto --exclude-fold K/N`.
    #[arg(long, value_name = "K/N", value_parser = parse_fold)]
    fold: Option<(u32, u32)>,
    /// Also print leaf-level precision/recall/F1 (each text node labelled from the gold; mean over pages).
    #[arg(long)]
    leaf: bool,
    /// Compare with a run saved by --save SAVED_DIR: per folder, the pages whose shingle F1 changed, worst first.
    #[arg(long, value_name = "SAVED_DIR")]
    compare: Option<PathBuf>,
    /// --compare: a page's shingle F1 must move by more than this to be listed.
    #[arg(long, value_name = "F1", default_value_t = DEFAULT_MIN_DELTA, requires = "compare")]
    min_delta: f64,
    /// Write one JSON line a page to FILE: folder, id, shingle F1, confidence and its signals,
    /// page type and its signals (for calibrating them: scripts/fit_confidence.py).
    #[arg(long, value_name = "FILE")]
    pages: Option<PathBuf>,
    /// Drop repeated segments as `batch --dedup N` does, each folder's pages taken in manifest
    /// order, a page's site its manifest `site` (else its URL's host); prints what was dropped.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "2")]
    dedup: Option<u32>,
}

/// Default of `eval --min-delta`: one point of shingle F1. Smaller moves are
/// mostly a few shingles at a block boundary, not a page gained or lost.
const DEFAULT_MIN_DELTA: f64 = 0.01;

#[derive(Args)]
struct ScoreArgs {
    /// The dataset folder whose gold to score against.
    data: PathBuf,
    /// The outputs: a directory of <id>.txt files, or a JSON file in the benchmark's format.
    #[arg(long, short = 'o')]
    outputs: PathBuf,
    /// Print the table as Markdown.
    #[arg(long)]
    markdown: bool,
}

#[derive(Args)]
struct BenchArgs {
    /// Dataset folders, or a directory holding them (pages are read into memory first, untimed).
    #[arg(required = true)]
    data: Vec<PathBuf>,
    #[command(flatten)]
    alg: AlgorithmArgs,
    /// Worker threads.
    #[arg(long, short = 'j', default_value_t = 1, value_parser = parse_threads)]
    threads: usize,
    /// Passes over the pages; the fastest is reported.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// The output format rendered (its cost is in the render stage).
    #[arg(long, short = 'f', value_enum, default_value = "text")]
    format: FormatArg,
}

#[derive(Args)]
struct TrainArgs {
    /// The algorithm to train: auto (the default extractor's block classifier), path-clustering, or svm (template-svm's block classifier).
    #[arg(value_parser = ["auto", "path-clustering", "svm"])]
    algorithm: String,
    /// Dataset folders, or a directory holding them.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Also learn each site's extraction template (site: the manifest's url host or site field, else the page's canonical URL).
    #[arg(long)]
    per_site: bool,
    /// Where to write the model (required but with `train auto --lofo`).
    #[arg(long, value_name = "MODEL", required_unless_present = "lofo")]
    out: Option<PathBuf>,
    /// Print the thresholds, the k-means centres and the site templates.
    #[arg(long)]
    explain: bool,
    /// svm: most samples (balanced) the final model is trained on; more gives more support vectors.
    #[arg(long, value_name = "N", default_value_t = 3000)]
    max_samples: usize,
    /// svm: most samples (balanced) the cross-validation grid search uses.
    #[arg(long, value_name = "N", default_value_t = 1500)]
    cv_samples: usize,
    /// svm: cross-validation folds.
    #[arg(long, default_value_t = 10)]
    folds: usize,
    /// auto: trees of the block stage.
    #[arg(long, default_value_t = 80)]
    trees: usize,
    /// auto: depth of each tree.
    #[arg(long, default_value_t = 6)]
    depth: usize,
    /// auto: shrinkage of each tree's values.
    #[arg(long, default_value_t = 0.2)]
    learning_rate: f32,
    /// auto: early exit of the block stage (log-odds), saved with the model.
    #[arg(long, default_value_t = unchaff::algorithms::auto::BLOCK_EXIT_MARGIN)]
    block_exit: f32,
    /// auto: each page weighs (its folder's pages)^-P: 0.5 (default) gives a folder sqrt(pages) in all, 1 makes folders equal, 0 pages equal.
    #[arg(long, value_name = "P", default_value_t = 0.5)]
    folder_weight: f32,
    /// auto: the least total weight (hessian) of blocks a leaf may hold, both stages; block weights are scaled to mean 1, so this reads in blocks.
    #[arg(long, value_name = "W", default_value_t = 1.0)]
    min_child_weight: f32,
    /// auto: L2 penalty on leaf values, both stages.
    #[arg(long, default_value_t = 1.0)]
    lambda: f32,
    /// auto: share of blocks each tree is grown on, both stages.
    #[arg(long, default_value_t = 0.5)]
    subsample: f32,
    /// auto: trees of the context stage.
    #[arg(long, default_value_t = 60)]
    context_trees: usize,
    /// auto: depth of the context stage's trees (3: held out by folder, 5 and 2 scored lower).
    #[arg(long, default_value_t = 3)]
    context_depth: usize,
    /// auto: seed of the row subsampling (the context stage uses SEED + 1). Held out by folder the mean moves by about ±0.001 from seed to seed (docs/RESULTS.md), so compare recipes over a few seeds.
    #[arg(long, default_value_t = AUTO_SEED)]
    seed: u64,
    /// auto: leave out the pages of fold K of N (K/N, folds by page id as in `eval --fold`), to measure on them.
    #[arg(long, value_name = "K/N", value_parser = parse_fold)]
    exclude_fold: Option<(u32, u32)>,
    /// auto: leave out the dataset folder NAME (repeatable), to measure on it (leave-one-folder-out).
    #[arg(long, value_name = "NAME")]
    exclude_folder: Vec<String>,
    /// auto: leave-one-folder-out in one run: read every folder's features once, then for each folder train on the others and write DIR/<folder>.json (the same model as `--exclude-folder <folder>`); `--out` is not written.
    #[arg(long, value_name = "DIR", conflicts_with = "exclude_folder")]
    lofo: Option<PathBuf>,
    /// auto: with --lofo, write only the held-out models of these folders (repeatable; default: every folder), for a quicker look at a few folders.
    #[arg(long, value_name = "NAME", requires = "lofo")]
    lofo_only: Vec<String>,
}

fn parse_fold(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected K/N with 0 <= K < N, got {s:?}");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n) = (
        k.trim().parse::<u32>().map_err(|_| bad())?,
        n.trim().parse::<u32>().map_err(|_| bad())?,
    );
    if n == 0 || k >= n {
        return Err(bad());
    }
    Ok((k, n))
}

fn parse_key_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
        _ => Err(format!("expected KEY=VALUE, got {s:?}")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if writes_to_stdout(&cli.command) && !stdout_is_open() {
        eprintln!("unchaff: standard output is closed: nowhere to write the results");
        return ExitCode::FAILURE;
    }
    let result = match cli.command {
        Command::Extract(a) => cmd_extract(a),
        Command::Eval(a) => cmd_eval(a),
        Command::Score(a) => cmd_score(a),
        Command::Bench(a) => cmd_bench(a),
        Command::Algorithms(a) => cmd_algorithms(a),
        Command::Train(a) => cmd_train(a),
        Command::Batch(a) => batch::run(a),
        Command::Templates(TemplatesCommand::Learn(a)) => cmd_templates_learn(a),
        Command::Templates(TemplatesCommand::Show(a)) => cmd_templates_show(a),
        Command::Serve(a) => serve::run_serve(a),
        Command::Explain(a) => serve::run_explain(a),
        Command::Structure(c) => structure::run(c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(e.as_ref()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("unchaff: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Whether a command's results go to standard output.
fn writes_to_stdout(c: &Command) -> bool {
    match c {
        Command::Batch(a) => a.writes_to_stdout(),
        Command::Explain(a) => a.writes_to_stdout(),
        Command::Serve(_) | Command::Train(_) | Command::Templates(TemplatesCommand::Learn(_)) => {
            false
        }
        _ => true,
    }
}

type CliResult = Result<(), Box<dyn std::error::Error>>;

/// `println!` that returns the write error (`?`) instead of panicking: a
/// reader that goes away (`unchaff … | head`) ends the command quietly
/// ([`is_broken_pipe`]).
macro_rules! outln {
    ($($t:tt)*) => {
        writeln!(std::io::stdout(), $($t)*)?
    };
}

/// `print!` as [`outln!`].
#[allow(unused_macros)]
macro_rules! out {
    ($($t:tt)*) => {
        write!(std::io::stdout(), $($t)*)?
    };
}

/// Whether an error is a write to a pipe whose reader has gone (`unchaff
/// extract … | head`): the command stops there and exits 0 without a
/// word, as ripgrep does.
fn is_broken_pipe(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur = Some(e);
    while let Some(e) = cur {
        if let Some(io) = e.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::BrokenPipe
        {
            return true;
        }
        cur = e.source();
    }
    false
}

/// Whether standard output is open. Started with it closed (`unchaff
/// extract page >&-`), the Rust runtime opens `/dev/null` in its place
/// (read-write), so the output is lost and the command exits 0. A
/// descriptor 1 that is `/dev/null` opened read-write is taken for that;
/// a shell's `>/dev/null` opens it write-only and is honoured.
fn stdout_is_open() -> bool {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        use std::os::unix::fs::{FileTypeExt, MetadataExt};
        let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
            return false;
        };
        let read_write = rustix::fs::fcntl_getfl(&fd)
            .is_ok_and(|f| f & rustix::fs::OFlags::RWMODE == rustix::fs::OFlags::RDWR);
        if !read_write {
            return true;
        }
        let null = std::fs::metadata("/dev/null");
        match (std::fs::File::from(fd).metadata(), null) {
            (Ok(out), Ok(null)) => !(out.file_type().is_char_device() && out.rdev() == null.rdev()),
            _ => true,
        }
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// The options of an algorithm choice. Metadata is left to JSON output
/// (batch turns it back on): text, Markdown and HTML never print it.
fn options(alg: &AlgorithmArgs) -> Result<Options, String> {
    use unchaff::algorithms::auto::{PRECISION_THRESHOLD, RECALL_THRESHOLD};
    let mut params = Vec::new();
    let preset = match (alg.precision, alg.recall) {
        (true, _) => Some(("--precision", PRECISION_THRESHOLD)),
        (_, true) => Some(("--recall", RECALL_THRESHOLD)),
        _ => None,
    };
    if let Some((flag, threshold)) = preset {
        if alg.algorithm != Method::Auto {
            return Err(format!(
                "{flag} is a preset of auto; with {} set its parameters with -p (`unchaff algorithms {}` lists them)",
                alg.algorithm, alg.algorithm
            ));
        }
        // Given first: an explicit -p threshold=… still wins.
        params.push(("threshold".to_owned(), threshold.to_string()));
    }
    if alg.include_comments {
        params.push(("include-comments".to_owned(), "1".to_owned()));
    }
    params.extend(alg.params.iter().cloned());
    let mut o = Options::new()
        .with_method(alg.algorithm)
        .with_metadata(false)
        .with_comments(alg.comments);
    o.params = params;
    o.exclude = alg.exclude.clone();
    o.include = alg.include.clone();
    Ok(o)
}

/// A progress bar over `len` pages on stderr, drawn only on a terminal.
fn progress(len: usize, what: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} pages  ETA {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_message(what.to_owned());
    bar
}

fn parse_method(s: &str) -> Result<Method, String> {
    s.parse::<Method>().map_err(|e| e.to_string())
}

fn cmd_extract(a: ExtractArgs) -> CliResult {
    warn_unused_flags(&a);
    let mut opts = options(&a.alg)?
        .with_format(a.format.into())
        .with_links(a.links)
        .with_images(a.images)
        .with_json_html(a.html)
        .with_tables(!a.no_tables)
        .with_markdown_title(!a.no_title)
        .with_max_input_bytes(a.max_bytes);
    opts.templates = a.templates.clone();
    opts.timeout = Some(a.timeout);
    let extractor = Extractor::new(&opts)?;
    let inputs = if a.inputs.is_empty() {
        vec!["-".to_owned()]
    } else {
        a.inputs.clone()
    };
    let several = inputs.len() > 1;
    let mut stdout = std::io::stdout().lock();
    let mut failed = 0usize;
    for name in &inputs {
        let page = match read_input(name, a.url.as_deref(), a.charset.as_deref(), a.max_bytes) {
            Ok(p) => p,
            Err(e) if several => {
                eprintln!("unchaff: {e}");
                failed += 1;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        // The bytes are handed over: the extractor frees the page once it
        // is parsed (docs/BENCHMARKS.md, peak memory).
        let out =
            match extractor.extract_owned(page.bytes, page.url.as_deref(), page.charset.as_deref())
            {
                Ok(out) => out,
                Err(e) if several => {
                    eprintln!("unchaff: {name}: {e}");
                    failed += 1;
                    continue;
                }
                Err(e) => return Err(e.into()),
            };
        if several && a.format != FormatArg::Json {
            writeln!(stdout, "==> {name} <==")?;
        }
        // The output is written as it is, not copied to add the newline
        // (a text-heavy page's output is about its size).
        stdout.write_all(out.rendered().as_bytes())?;
        stdout.write_all(b"\n")?;
    }
    if failed > 0 {
        return Err(format!("{failed} of {} inputs failed (see above)", inputs.len()).into());
    }
    Ok(())
}

/// One page's bytes and what is known of it from outside.
struct Page {
    bytes: Vec<u8>,
    url: Option<String>,
    charset: Option<String>,
}

/// Reads a file, standard input ("-") or a URL; `url` and `charset` are
/// what the caller knows of a file's page (a fetched page's own win,
/// except that `charset`, as a header would give it, beats the server's).
fn read_input(
    name: &str,
    url: Option<&str>,
    charset: Option<&str>,
    max_bytes: usize,
) -> Result<Page, String> {
    if fetch::is_url(name) {
        let f = fetch::fetch(name, max_bytes)?;
        return Ok(Page {
            bytes: f.bytes,
            url: Some(f.url),
            charset: charset.map(str::to_owned).or(f.charset),
        });
    }
    // Read no more than the limit (and one byte to know it is over): a
    // device or an endless pipe costs at most that.
    let bytes = if name == "-" {
        read_stdin(max_bytes)?
    } else {
        unchaff::limits::read_file_limited(Path::new(name), max_bytes)
            .map_err(|e| format!("cannot read {name}: {e}"))?
    };
    Ok(Page {
        bytes,
        url: url.map(str::to_owned),
        charset: charset.map(str::to_owned),
    })
}

/// Says so on stderr when a flag has no effect with the chosen format.
fn warn_unused_flags(a: &ExtractArgs) {
    let md = matches!(a.format, FormatArg::Markdown | FormatArg::Json);
    let unused = [
        ("--links", a.links && !md, "Markdown (-f markdown or json)"),
        (
            "--images",
            a.images && a.format == FormatArg::Text,
            "Markdown and HTML (-f markdown, html or json)",
        ),
        (
            "--no-title",
            a.no_title && a.format != FormatArg::Markdown,
            "-f markdown",
        ),
        ("--html", a.html && a.format != FormatArg::Json, "-f json"),
    ];
    for (flag, _, with) in unused.iter().filter(|u| u.1) {
        eprintln!(
            "unchaff: warning: {flag} has no effect with -f {}; it applies to {with}",
            a.format.name()
        );
    }
}

fn read_stdin(limit: usize) -> Result<Vec<u8>, String> {
    unchaff::limits::read_limited(std::io::stdin().lock(), limit)
        .map_err(|e| format!("cannot read standard input: {e}"))
}

/// A positive number of seconds (`--timeout`).
fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 => Duration::try_from_secs_f64(x).map_err(|e| e.to_string()),
        _ => Err(format!("expected a positive number of seconds, got {s:?}")),
    }
}

/// Expands arguments into dataset folders: a folder with a manifest is
/// itself; any other directory stands for the dataset folders inside it.
fn dataset_dirs(args: &[PathBuf]) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    for a in args {
        if a.join("manifest.jsonl").is_file() {
            out.push(a.clone());
        } else if a.is_dir() {
            let inner = list_folders(a)?;
            if inner.is_empty() {
                return Err(format!(
                    "{}: no manifest.jsonl here or in its subfolders",
                    a.display()
                )
                .into());
            }
            out.extend(inner);
        } else {
            return Err(format!("{}: not a dataset folder", a.display()).into());
        }
    }
    Ok(out)
}

fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> Result<T, Box<dyn std::error::Error>> {
    match threads {
        None => Ok(f()),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n.max(1))
                .build()
                .map_err(|e| threads_error(n, e))?;
            Ok(pool.install(f))
        }
    }
}

/// Most worker threads `--threads` accepts: far above any core count this
/// runs on (more threads only add stacks), and below the system's limit on
/// threads, where starting the pool would fail with a bare "os error 11".
const MAX_THREADS: usize = 1024;

/// `--threads`: 1 to [`MAX_THREADS`].
fn parse_threads(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!("expected 1 to {MAX_THREADS} threads, got {s:?}")),
    }
}

/// The error of a worker pool that could not start: it names the flag
/// (the system's own message alone, "Resource temporarily unavailable
/// (os error 11)", does not say what to change).
fn threads_error(n: usize, e: rayon::ThreadPoolBuildError) -> String {
    format!("--threads {n}: cannot start {n} worker threads ({e}); ask for fewer")
}

fn cmd_eval(a: EvalArgs) -> CliResult {
    let mut opts = options(&a.alg)?;
    opts.templates = a.templates.clone();
    // The page type comes with the metadata.
    opts.metadata = a.pages.is_some();
    let extractor = Extractor::new(&opts)?;
    let mut pages_out = match &a.pages {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("--pages {}: {e}", p.display()))?,
        )),
        None => None,
    };
    let filters: Vec<Filter> = a
        .filter
        .iter()
        .map(|f| {
            f.parse::<Filter>()
                .map_err(|e| format!("--filter {f:?}: {e}"))
        })
        .collect::<Result<_, _>>()?;
    if !(a.min_delta.is_finite() && a.min_delta >= 0.0) {
        return Err(format!("--min-delta {}: expected a number >= 0", a.min_delta).into());
    }
    let mut rows: Vec<FolderScores> = Vec::new();
    let mut leaf_rows: Vec<LeafRow> = Vec::new();
    let mut comparisons: Vec<report::Comparison> = Vec::new();
    let mut errors_total = 0usize;
    for dir in dataset_dirs(&a.data)? {
        let mut ds = Dataset::open(&dir)?;
        ds.pages.retain(|p| filters.iter().all(|f| f.matches(p)));
        if let Some((k, n)) = a.fold {
            ds.pages
                .retain(|p| unchaff_eval::dataset::fold_of(&p.id, n) == k);
        }
        if ds.pages.is_empty() {
            continue;
        }
        type PageResult = Result<(String, Option<LeafCounts>, serde_json::Value), String>;
        let bar = progress(ds.pages.len(), &ds.name);
        let pages_wanted = pages_out.is_some();
        let outputs: Vec<(String, PageResult)> = with_threads(a.threads, || {
            ds.pages
                .par_iter()
                .inspect(|_| bar.inc(1))
                .map(|p| {
                    let r = ds
                        .read_page_bytes(p)
                        .map_err(|e| e.to_string())
                        .and_then(|b| {
                            // The page's URL, else its site id (as `train`
                            // and `templates learn` key sites): site-aware
                            // algorithms and template libraries need it.
                            let site = p.url.clone().or_else(|| p.field("site"));
                            let gold = match a.leaf {
                                true => ds.read_gold(p).map_err(|e| e.to_string())?,
                                false => None,
                            };
                            let input = Input::new(&b).with_url(site.as_deref());
                            let info = |x: &unchaff::Extraction| match pages_wanted {
                                true => serde_json::json!({
                                    "confidence": x.confidence,
                                    "signals": x.signals,
                                    "page_type": x.page_type,
                                    "page_signals": x.page_signals,
                                }),
                                false => serde_json::Value::Null,
                            };
                            match gold {
                                Some(g) => extractor
                                    .extract_with(input, |i| inspection_counts(i, &g))
                                    .map(|(x, c)| (info(&x), x.text, Some(c))),
                                None => extractor.extract(input).map(|x| (info(&x), x.text, None)),
                            }
                            .map(|(i, t, c)| (t, c, i))
                            .map_err(|e| e.to_string())
                        });
                    (p.id.clone(), r)
                })
                .collect()
        })?;
        bar.finish_and_clear();
        let mut preds = HashMap::with_capacity(outputs.len());
        let mut leaf_pages = Vec::new();
        let mut infos = HashMap::new();
        for (id, r) in outputs {
            match r {
                Ok((t, leaves, info)) => {
                    preds.insert(id.clone(), t);
                    leaf_pages.extend(leaves.map(|c| c.prf()));
                    infos.insert(id, info);
                }
                Err(e) => {
                    errors_total += 1;
                    eprintln!("{}/{id}: {e}", ds.name);
                    preds.insert(id, String::new());
                }
            }
        }
        // Read the baseline before --save can overwrite it (same DIR).
        let baseline = match &a.compare {
            Some(base) => {
                let dir = base.join(&ds.name);
                if dir.is_dir() {
                    Some(unchaff_eval::outputs::load_text_dir(&dir)?)
                } else {
                    eprintln!("{}: no saved outputs, not compared", dir.display());
                    None
                }
            }
            None => None,
        };
        if let Some(save) = &a.save {
            let dir = save.join(&ds.name);
            unchaff_eval::outputs::write_text_dir(&dir, &preds)?;
        }
        if a.leaf {
            leaf_rows.push((ds.name.clone(), leaf_pages));
        }
        if let Some(n) = a.dedup {
            let mut cache = unchaff::dedup::SegmentCache::new(n);
            let (mut segs, mut chars, mut total) = (0usize, 0usize, 0usize);
            for p in &ds.pages {
                let Some(text) = preds.get_mut(&p.id) else {
                    continue;
                };
                let site = p
                    .field("site")
                    .or_else(|| {
                        p.url
                            .as_deref()
                            .and_then(|u| url::Url::parse(u).ok())
                            .and_then(|u| u.host_str().map(str::to_owned))
                    })
                    .unwrap_or_default();
                total += text.chars().filter(|c| !c.is_whitespace()).count();
                let f = cache.filter(&site, text, unchaff::dedup::Segmentation::Lines);
                segs += f.segments;
                chars += f.chars;
                *text = f.text;
            }
            eprintln!(
                "{}: --dedup {n} dropped {segs} segments, {chars} of {total} characters ({:.2}%)",
                ds.name,
                100.0 * chars as f64 / total.max(1) as f64
            );
        }
        let row = with_threads(a.threads, || report::score_folder(&ds, &preds))??;
        if let Some(out) = pages_out.as_mut() {
            for ps in &row.page_scores {
                let label = ds
                    .pages
                    .iter()
                    .find(|p| p.id == ps.id)
                    .and_then(|p| p.field("page_type"));
                let mut v = serde_json::json!({
                    "folder": ds.name,
                    "id": ps.id,
                    "f1": ps.shingle_f1,
                    "label": label,
                });
                if let (Some(o), Some(serde_json::Value::Object(i))) =
                    (v.as_object_mut(), infos.remove(&ps.id))
                {
                    o.extend(i);
                }
                writeln!(out, "{v}")?;
            }
        }
        if let Some(old) = baseline {
            // Only the pages the baseline saved: a page it lacks is not a 0.
            let mut base_ds = ds.clone();
            base_ds.pages.retain(|p| old.contains_key(&p.id));
            let base = with_threads(a.threads, || report::score_folder(&base_ds, &old))??;
            comparisons.push(report::compare_folder(
                &ds.name,
                &base.page_scores,
                &row.page_scores,
                report::Metric::Shingle,
                a.min_delta,
            ));
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err("no pages to evaluate (check the folders and --filter)".into());
    }
    if let Some(mut out) = pages_out {
        out.flush()?;
    }
    outln!("algorithm: {}", extractor.method());
    print_table(&rows, a.markdown)?;
    if a.leaf {
        print_leaf_table(&leaf_rows, a.markdown)?;
    }
    if let Some(base) = &a.compare {
        outln!("\ncompared with {}:", base.display());
        for c in &comparisons {
            out!("{}", report::format_comparison(c));
        }
    }
    if errors_total > 0 {
        eprintln!("{errors_total} pages failed to extract (scored as empty output)");
    }
    Ok(())
}

/// A folder's name and its pages' leaf (precision, recall, F1).
type LeafRow = (String, Vec<(f64, f64, f64)>);

/// Prints paper 5's leaf-level figures: per folder the mean over its
/// pages with gold of each page's leaf precision, recall and F1, then the
/// mean over folders. A page that failed to extract has no figure.
fn print_leaf_table(rows: &[LeafRow], markdown: bool) -> CliResult {
    let mean = |v: &mut dyn Iterator<Item = f64>| {
        let (s, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
        if n == 0 { 0.0 } else { s / n as f64 }
    };
    let mut lines: Vec<(String, usize, [f64; 3])> = rows
        .iter()
        .map(|(name, pages)| {
            let m = [
                mean(&mut pages.iter().map(|p| p.0)),
                mean(&mut pages.iter().map(|p| p.1)),
                mean(&mut pages.iter().map(|p| p.2)),
            ];
            (name.clone(), pages.len(), m)
        })
        .collect();
    let total = lines.iter().map(|l| l.1).sum();
    let overall = [0, 1, 2].map(|k| mean(&mut lines.iter().map(|l| l.2[k])));
    lines.push(("mean".to_owned(), total, overall));
    outln!();
    if markdown {
        outln!("| folder | pages | leaf P | leaf R | leaf F1 |");
        outln!("|---|---:|---:|---:|---:|");
        for (name, n, [p, r, f]) in &lines {
            let name = match name.as_str() {
                "mean" => "**mean**".to_owned(),
                _ => name.clone(),
            };
            outln!("| {name} | {n} | {p:.3} | {r:.3} | {f:.3} |");
        }
    } else {
        let w = lines.iter().map(|l| l.0.len()).max().unwrap_or(6).max(6);
        outln!(
            "{:w$}  {:>5}  {:>6}  {:>6}  {:>7}",
            "folder",
            "pages",
            "leaf P",
            "leaf R",
            "leaf F1"
        );
        for (name, n, [p, r, f]) in &lines {
            outln!("{name:w$}  {n:>5}  {p:>6.3}  {r:>6.3}  {f:>7.3}");
        }
    }
    Ok(())
}

fn print_table(rows: &[FolderScores], markdown: bool) -> CliResult {
    // Both formats end with the mean over folders.
    if markdown {
        out!("{}", report::format_markdown(rows));
    } else {
        out!("{}", report::format_table(rows));
    }
    Ok(())
}

fn cmd_score(a: ScoreArgs) -> CliResult {
    let ds = Dataset::open(&a.data)?;
    let preds = unchaff_eval::outputs::load(&a.outputs)?;
    let row = report::score_folder(&ds, &preds)?;
    print_table(&[row], a.markdown)?;
    Ok(())
}

fn cmd_algorithms(a: AlgorithmsArgs) -> CliResult {
    let chosen: Vec<Method> = match &a.name {
        Some(n) => vec![parse_method(n)?],
        None => Method::ALL.to_vec(),
    };
    let width = Method::ALL
        .iter()
        .map(|m| m.name().len())
        .max()
        .unwrap_or(0);
    for &m in &chosen {
        let default = if m == Method::default() {
            " [default]"
        } else {
            ""
        };
        outln!("{:width$}  {}{default}", m.name(), m.summary());
        if a.params || a.name.is_some() {
            print_params(m)?;
        }
    }
    Ok(())
}

/// One line per parameter of `m`: `-p name=default  (range)  meaning`.
fn print_params(m: Method) -> CliResult {
    let params = m.params();
    if params.is_empty() {
        outln!("    (no parameters)");
        return Ok(());
    }
    let width = params.iter().map(|p| p.name.len()).max().unwrap_or(0);
    for p in params {
        outln!(
            "    -p {:width$}  default {}; {}",
            p.name,
            p.default,
            p.range
        );
        outln!("        {}", p.meaning);
    }
    Ok(())
}

fn cmd_bench(a: BenchArgs) -> CliResult {
    let extractor = Extractor::new(&options(&a.alg)?.with_format(a.format.into()))?;
    // Load and gunzip every page first: reading data is not extraction.
    let mut pages: Vec<Vec<u8>> = Vec::new();
    for dir in dataset_dirs(&a.data)? {
        let ds = Dataset::open(&dir)?;
        for p in &ds.pages {
            pages.push(ds.read_page_html_gunzipped(p)?);
        }
    }
    let bytes: usize = pages.iter().map(Vec::len).sum();
    if pages.is_empty() {
        return Err("no pages to benchmark".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.max(1))
        .build()
        .map_err(|e| threads_error(a.threads, e))?;
    // One untimed warm-up pass, then the timed passes; the fastest counts.
    let mut best: Option<(Duration, StageTimes, usize)> = None;
    for pass in 0..=a.repeat.max(1) {
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
    let (wall, times, errors) = best.expect("at least one timed pass");
    let secs = wall.as_secs_f64();
    let mb = bytes as f64 / 1e6;
    outln!(
        "algorithm {}  threads {}  pages {}  HTML {:.1} MB  best of {} passes",
        extractor.method(),
        a.threads.max(1),
        pages.len(),
        mb,
        a.repeat.max(1)
    );
    outln!(
        "wall {:.3} s  {:.1} pages/s  {:.1} MB/s  ({:.3} ms/page)",
        secs,
        pages.len() as f64 / secs,
        mb / secs,
        secs * 1e3 / pages.len() as f64
    );
    let total = times.total().as_secs_f64().max(1e-12);
    outln!("stage       time (s, summed over threads)   share");
    for (name, d) in times.stages() {
        outln!(
            "{name:10}  {:>10.3}                      {:>5.1}%",
            d.as_secs_f64(),
            100.0 * d.as_secs_f64() / total
        );
    }
    if errors > 0 {
        outln!("{errors} pages gave an error");
    }
    Ok(())
}

fn cmd_train(a: TrainArgs) -> CliResult {
    if a.algorithm == "svm" {
        return cmd_train_svm(a);
    }
    if a.algorithm == "auto" {
        return cmd_train_auto(a);
    }
    use unchaff::algorithms::path_clustering as pc;
    let start = Instant::now();
    let (mut summaries, mut names) = (Vec::new(), Vec::new());
    for dir in dataset_dirs(&a.data)? {
        let ds = Dataset::open(&dir)?;
        let bar = progress(ds.pages.len(), &ds.name);
        let done: Vec<Result<pc::PageSummary, String>> = ds
            .pages
            .par_iter()
            .inspect(|_| bar.inc(1))
            .map(|p| {
                let site = p.url.clone().or_else(|| p.field("site"));
                let bytes = ds.read_page_bytes(p).map_err(|e| e.to_string())?;
                pc::summarize(&bytes, site.as_deref())
                    .map_err(|e| format!("{}/{}: {e}", ds.name, p.id))
            })
            .collect();
        bar.finish_and_clear();
        for r in done {
            r.map_or_else(|e| eprintln!("{e}"), |s| summaries.push(s));
        }
        names.push(ds.name);
    }
    let what = format!("{} ({} pages)", names.join(", "), summaries.len());
    let model = pc::train(&summaries, a.per_site, &what)?;
    std::fs::write(out_path(&a)?, model.to_json() + "\n")?;
    eprintln!(
        "trained on {what} in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    if a.explain {
        let c = model.centres.clone().unwrap_or_default();
        outln!(
            "Length_Threshold    {:10.3}  (k-means centres {:.3} and {:.3})",
            model.length_threshold,
            c.length[0],
            c.length[1]
        );
        outln!(
            "Cn_Threshold        {:10.3}  (k-means centres {:.3} and {:.3})",
            model.cn_threshold,
            c.cn[0],
            c.cn[1]
        );
        outln!(
            "Frequency_Threshold {:10.3}  (mean over all sites; each site uses its own mean)",
            model.frequency_threshold
        );
        for (site, keys) in &model.sites {
            outln!("site {site}  (threshold {:.2})", pc::site_threshold(keys));
            for (k, f) in keys {
                outln!("  {f:4}  {k}");
            }
        }
    }
    Ok(())
}

/// C values of the grid search (`unchaff train svm`).
const SVM_GRID_C: [f64; 3] = [1.0, 10.0, 100.0];
/// γ values of the grid search: the features lie in [0, 1], so γ from 0.1
/// (nearly linear) to 100 (a few hundredths wide).
const SVM_GRID_GAMMA: [f64; 4] = [0.1, 1.0, 10.0, 100.0];
/// Seed of the undersampling and fold shuffles.
const SVM_SEED: u64 = 5;

/// Takes up to `n` samples, half from each class where possible, in a
/// seeded random order.
fn balanced_sample(
    pos: &[[f64; 5]],
    neg: &[[f64; 5]],
    n: usize,
    seed: u64,
) -> (Vec<f64>, Vec<bool>) {
    use unchaff::train::SplitMix;
    let mut rng = SplitMix(seed);
    let half = pos.len().min(neg.len()).min(n / 2);
    let (mut p, mut q): (Vec<usize>, Vec<usize>) =
        ((0..pos.len()).collect(), (0..neg.len()).collect());
    rng.shuffle(&mut p);
    rng.shuffle(&mut q);
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for k in 0..half {
        x.extend_from_slice(&pos[p[k]]);
        y.push(true);
        x.extend_from_slice(&neg[q[k]]);
        y.push(false);
    }
    (x, y)
}

fn cmd_train_svm(a: TrainArgs) -> CliResult {
    use unchaff::algorithms::template_svm as ts;
    use unchaff::train::svm;
    let start = Instant::now();
    let (mut pos, mut neg, mut names, mut pages) = (Vec::new(), Vec::new(), Vec::new(), 0usize);
    for dir in dataset_dirs(&a.data)? {
        let ds = Dataset::open(&dir)?;
        let bar = progress(ds.pages.len(), &ds.name);
        let done: Vec<Result<Vec<ts::Sample>, String>> = ds
            .pages
            .par_iter()
            .inspect(|_| bar.inc(1))
            .map(|p| {
                let gold = match ds.read_gold(p).map_err(|e| e.to_string())? {
                    Some(g) => g,
                    None => return Ok(Vec::new()),
                };
                let bytes = ds.read_page_bytes(p).map_err(|e| e.to_string())?;
                ts::samples_from_bytes(&bytes, &gold)
                    .map_err(|e| format!("{}/{}: {e}", ds.name, p.id))
            })
            .collect();
        bar.finish_and_clear();
        for r in done {
            match r {
                Ok(s) => {
                    pages += 1;
                    for (f, l) in s {
                        if l { pos.push(f) } else { neg.push(f) }
                    }
                }
                Err(e) => eprintln!("{e}"),
            }
        }
        names.push(ds.name);
    }
    let total = pos.len() + neg.len();
    eprintln!(
        "{pages} pages, {total} blocks with text: {} content ({:.1}%), {} noise",
        pos.len(),
        100.0 * pos.len() as f64 / total.max(1) as f64,
        neg.len()
    );
    let (cx, cy) = balanced_sample(&pos, &neg, a.cv_samples, SVM_SEED);
    outln!(
        "{}-fold cross-validation on {} balanced samples",
        a.folds,
        cy.len()
    );
    outln!("| C | gamma | accuracy | F1 (content) |");
    outln!("|---|---|---|---|");
    let mut best: Option<(f64, f64, svm::CvScore)> = None;
    for &c in &SVM_GRID_C {
        for &gamma in &SVM_GRID_GAMMA {
            let p = svm::TrainParams {
                c,
                gamma,
                ..svm::TrainParams::default()
            };
            let s = svm::cross_validate(&cx, ts::FEATURES, &cy, &p, a.folds, SVM_SEED)?;
            outln!("| {c} | {gamma} | {:.4} | {:.4} |", s.accuracy, s.f1);
            if best.is_none_or(|(_, _, b)| s.accuracy > b.accuracy) {
                best = Some((c, gamma, s));
            }
        }
    }
    let (c, gamma, s) = best.ok_or("empty grid")?;
    outln!(
        "chosen: C = {c}, gamma = {gamma} (CV accuracy {:.4})",
        s.accuracy
    );
    let (x, y) = balanced_sample(&pos, &neg, a.max_samples, SVM_SEED + 1);
    let p = svm::TrainParams {
        c,
        gamma,
        ..svm::TrainParams::default()
    };
    let t = Instant::now();
    let (mut model, st) = svm::train(&x, ts::FEATURES, &y, &p)?;
    model.trained_on = format!(
        "{} ({pages} pages; {} balanced samples of {total} blocks)",
        names.join(", "),
        y.len()
    );
    std::fs::write(out_path(&a)?, model.to_json() + "\n")?;
    outln!(
        "final model: {} samples, {} support vectors, {} SMO iterations, {:.2} s",
        y.len(),
        model.support_count(),
        st.iterations,
        t.elapsed().as_secs_f64()
    );
    eprintln!("trained in {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// Seed of `unchaff train auto`'s row subsampling (`--seed`'s default).
const AUTO_SEED: u64 = 7;

/// The model file `train` writes.
fn out_path(a: &TrainArgs) -> Result<&Path, Box<dyn std::error::Error>> {
    a.out.as_deref().ok_or_else(|| "--out is required".into())
}

fn cmd_train_auto(a: TrainArgs) -> CliResult {
    use unchaff::algorithms::auto::train;
    use unchaff_eval::dataset::fold_of;
    let start = Instant::now();
    let mut pages: Vec<train::TrainPage> = Vec::new();
    // Each folder's name and its pages' range in `pages`.
    let mut folders: Vec<(String, std::ops::Range<usize>)> = Vec::new();
    let dirs = dataset_dirs(&a.data)?;
    for x in a.exclude_folder.iter().chain(&a.lofo_only) {
        if !dirs
            .iter()
            .any(|d| d.file_name().is_some_and(|n| n == x.as_str()))
        {
            return Err(format!("{x:?}: no such dataset folder").into());
        }
    }
    for dir in dirs {
        let mut ds = Dataset::open(&dir)?;
        if a.exclude_folder.contains(&ds.name) {
            continue;
        }
        if let Some((k, n)) = a.exclude_fold {
            ds.pages.retain(|p| fold_of(&p.id, n) != k);
        }
        let bar = progress(ds.pages.len(), &ds.name);
        let done: Vec<Result<(String, train::PageSamples), String>> = ds
            .pages
            .par_iter()
            .inspect(|_| bar.inc(1))
            .map(|p| {
                let gold = match ds.read_gold(p).map_err(|e| e.to_string())? {
                    Some(g) => g,
                    None => return Ok((p.id.clone(), train::PageSamples::default())),
                };
                let bytes = ds.read_page_bytes(p).map_err(|e| e.to_string())?;
                train::samples_from_bytes(&bytes, &gold)
                    .map(|s| (p.id.clone(), s))
                    .map_err(|e| format!("{}/{}: {e}", ds.name, p.id))
            })
            .collect();
        bar.finish_and_clear();
        // Every page of a folder weighs pages^-p, so the folder weighs
        // pages^(1-p) in all: at the default p = 0.5, large folders count
        // more, but not so much that the small ones (scrapinghub,
        // chinese-wce) vanish.
        let n = ds.pages.len().max(1) as f32;
        // 1/sqrt exactly at the default: the shipped model was trained so,
        // and boosting turns an ulp's difference in a weight into other
        // trees (`powf(-0.5)` rounds differently).
        let weight = if a.folder_weight == 0.5 {
            1.0 / n.sqrt()
        } else {
            n.powf(-a.folder_weight)
        };
        let first = pages.len();
        for r in done {
            match r {
                Ok((id, samples)) if !samples.is_empty() => pages.push(train::TrainPage {
                    samples,
                    weight,
                    // The stacking halves: a hash of the id other than
                    // the one `--exclude-fold` splits by.
                    half: fold_of(&format!("{id}#half"), 2),
                }),
                Ok(_) => {}
                Err(e) => eprintln!("{e}"),
            }
        }
        folders.push((ds.name, first..pages.len()));
    }
    eprintln!(
        "{} pages; features read in {:.1} s",
        pages.len(),
        start.elapsed().as_secs_f64()
    );
    let Some(dir) = &a.lofo else {
        let names: Vec<&str> = folders.iter().map(|f| f.0.as_str()).collect();
        train_auto_and_write(&a, &pages, &names, out_path(&a)?)?;
        eprintln!("trained in {:.1} s", start.elapsed().as_secs_f64());
        return Ok(());
    };
    // Leave each folder out in turn. Its pages are taken out of the list
    // and put back in place, so every model sees the other folders' pages
    // in the same order as `--exclude-folder` would give them, and comes
    // out byte for byte the same.
    std::fs::create_dir_all(dir)?;
    for (i, (name, range)) in folders.iter().enumerate() {
        if !a.lofo_only.is_empty() && !a.lofo_only.contains(name) {
            continue;
        }
        let held: Vec<train::TrainPage> = pages.drain(range.clone()).collect();
        let names: Vec<&str> = folders
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, f)| f.0.as_str())
            .collect();
        let out = dir.join(format!("{name}.json"));
        let r = train_auto_and_write(&a, &pages, &names, &out);
        pages.splice(range.start..range.start, held);
        r?;
        eprintln!(
            "{name} left out: {} ({:.1} s)",
            out.display(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Trains `auto` on `pages` (from the folders `names`) with `a`'s
/// parameters and writes the model to `out`.
fn train_auto_and_write(
    a: &TrainArgs,
    pages: &[unchaff::algorithms::auto::train::TrainPage],
    names: &[&str],
    out: &Path,
) -> CliResult {
    use unchaff::algorithms::auto::{context, features, train};
    use unchaff::train::gbdt;
    let (blocks, content) = pages.iter().fold((0usize, 0usize), |(n, c), p| {
        let l = &p.samples.labels;
        (
            n + l.iter().filter(|x| x.is_some()).count(),
            c + l.iter().filter(|x| **x == Some(true)).count(),
        )
    });
    eprintln!(
        "{} pages, {blocks} blocks with text: {content} content ({:.1}%)",
        pages.len(),
        100.0 * content as f64 / blocks.max(1) as f64,
    );
    let p1 = gbdt::TrainParams {
        trees: a.trees,
        depth: a.depth,
        learning_rate: a.learning_rate,
        lambda: a.lambda,
        min_child_weight: a.min_child_weight,
        subsample: a.subsample,
        seed: a.seed,
    };
    let p2 = gbdt::TrainParams {
        trees: a.context_trees,
        depth: a.context_depth,
        seed: a.seed.wrapping_add(1),
        ..p1.clone()
    };
    let mut model = train::train(pages, &p1, &p2, a.block_exit)?;
    let fold = a
        .exclude_fold
        .map_or(String::new(), |(k, n)| format!(", fold {k}/{n} left out"));
    let what = format!(
        "{} ({} pages, {blocks} blocks{fold})",
        names.join(", "),
        pages.len()
    );
    for (m, p) in [(&mut model.blocks, &p1), (&mut model.context, &p2)] {
        m.trained_on = format!(
            "{what}; {} trees of depth {}, learning rate {}, subsample {}, min child weight {}, lambda {}, seed {}",
            p.trees, p.depth, p.learning_rate, p.subsample, p.min_child_weight, p.lambda, p.seed
        );
    }
    std::fs::write(out, model.to_json() + "\n")?;
    if a.explain {
        for (stage, m, names) in [
            ("block", &model.blocks, features::NAMES),
            ("context", &model.context, context::NAMES),
        ] {
            let counts = m.split_counts();
            let mut order: Vec<usize> = (0..counts.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(counts[i]));
            outln!("{stage} stage, splits per feature:");
            for i in order {
                outln!("  {:6}  {}", counts[i], names[i]);
            }
        }
    }
    Ok(())
}

fn cmd_templates_learn(a: TemplatesLearnArgs) -> CliResult {
    use std::collections::BTreeMap;
    use unchaff::templates::{Library, PageLeaves, page_leaves};
    let mut by_site: BTreeMap<String, Vec<PageLeaves>> = BTreeMap::new();
    for input in &a.input {
        if input.is_file() {
            let site = a
                .site
                .clone()
                .ok_or_else(|| format!("{}: an HTML file needs --site", input.display()))?;
            let bytes = std::fs::read(input)?;
            by_site
                .entry(unchaff::templates::site_key(&site))
                .or_default()
                .push(page_leaves(&bytes)?);
            continue;
        }
        for dir in dataset_dirs(std::slice::from_ref(input))? {
            let ds = Dataset::open(&dir)?;
            let done: Vec<Result<(String, PageLeaves), String>> = ds
                .pages
                .par_iter()
                .filter_map(|p| {
                    let site = p
                        .url
                        .clone()
                        .or_else(|| p.field("site"))
                        .or_else(|| a.site.clone())
                        .map(|s| unchaff::templates::site_key(&s))?;
                    Some(
                        ds.read_page_bytes(p)
                            .map_err(|e| e.to_string())
                            .and_then(|b| page_leaves(&b).map_err(|e| e.to_string()))
                            .map(|l| (site, l))
                            .map_err(|e| format!("{}/{}: {e}", ds.name, p.id)),
                    )
                })
                .collect();
            for r in done {
                match r {
                    Ok((site, leaves)) => by_site.entry(site).or_default().push(leaves),
                    Err(e) => eprintln!("{e}"),
                }
            }
        }
    }
    let mut lib = Library::open(&a.db)?;
    for (site, pages) in &by_site {
        let r = lib.learn(site, pages)?;
        outln!(
            "{site}: {} pages, {} batches, {} entries added, {} pages pending",
            pages.len(),
            r.batches,
            r.added,
            r.pending_pages
        );
    }
    Ok(())
}

fn cmd_templates_show(a: TemplatesShowArgs) -> CliResult {
    let lib = unchaff::templates::Library::open(&a.db)?;
    match a.site {
        Some(site) => {
            for (tag, text, _) in lib.site(&site)?.entries {
                outln!("{tag}\t{text}");
            }
        }
        None => {
            outln!("site\tentries\tpending pages");
            for (site, n, pending) in lib.sites()? {
                outln!("{site}\t{n}\t{pending}");
            }
        }
    }
    Ok(())
}
