//! The command line's arguments (clap) and the one place where they become
//! the libraries' settings: [`AlgorithmArgs::options`] for
//! [`unchaff::Options`], [`format_parser`] for the core's formats.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use unchaff::{Format, Method, Options, Preset};

/// A value parser for the formats `allowed`: the core's names and
/// aliases, each with its summary in `--help`.
pub fn format_parser(allowed: &'static [Format]) -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(allowed.iter().map(|f| {
        PossibleValue::new(f.name())
            .help(f.summary())
            .aliases(f.aliases().iter().copied())
    }))
    .try_map(|s| s.parse::<Format>())
}

/// The help of `--precision` / `--recall`: what it does, and the
/// threshold it stands for (from the core's constant).
fn preset_help(preset: Preset, what: &str) -> String {
    format!(
        "{what} (auto only; the same as --param threshold={})",
        preset.threshold()
    )
}

impl AlgorithmArgs {
    /// The extractor options these flags ask for: the one conversion of
    /// the algorithm flags, shared by every command. Metadata is left to
    /// JSON and XML output (batch and `extract --with-metadata` turn it
    /// back on).
    pub fn options(&self) -> Result<Options, unchaff::Error> {
        let mut o = Options::new()
            .with_method(self.algorithm)
            .with_preset(Preset::from_flags(self.precision, self.recall)?)
            .with_include_comments(self.include_comments)
            .with_metadata(false)
            .with_comments(self.comments);
        o.params = self.params.clone();
        o.exclude = self.exclude.clone();
        o.include = self.include.clone();
        // Checked now, so that a command fails before it reads any input.
        o.algorithm_params()?;
        Ok(o)
    }
}

/// The arguments of a command whose cargo feature this build lacks: it
/// takes anything and says which feature to build with
/// ([`crate::missing_feature`]).
#[derive(Args, Debug)]
pub struct Disabled {
    /// Ignored: the command is not in this build.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    pub rest: Vec<String>,
}

/// A progress bar on stderr, drawn only on a terminal, for the libraries'
/// runs over dataset folders.
pub struct Bar(std::sync::Mutex<indicatif::ProgressBar>);

impl Bar {
    /// A bar (hidden until a run starts).
    pub fn new() -> Bar {
        Bar(std::sync::Mutex::new(indicatif::ProgressBar::hidden()))
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, indicatif::ProgressBar> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl unchaff_eval::Progress for Bar {
    fn start(&self, what: &str, pages: usize) {
        use std::io::IsTerminal;
        if !std::io::stderr().is_terminal() {
            return;
        }
        let bar = indicatif::ProgressBar::new(pages as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{msg} {bar:30} {pos}/{len} pages  ETA {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message(what.to_owned());
        *self.bar() = bar;
    }

    fn advance(&self) {
        self.bar().inc(1);
    }

    fn finish(&self) {
        self.bar().finish_and_clear();
    }

    fn message(&self, line: &str) {
        let bar = self.bar();
        bar.suspend(|| eprintln!("{line}"));
    }
}

#[derive(Args)]
pub struct AlgorithmsArgs {
    /// Show the parameters of this algorithm only (default, range, meaning).
    pub name: Option<String>,
    /// Show every algorithm's parameters (`-p KEY=VALUE`).
    #[arg(long)]
    pub params: bool,
}

#[derive(Args, Clone)]
pub struct AlgorithmArgs {
    /// Algorithm to run (`unchaff algorithms` lists them); "auto" is the default one.
    #[arg(long, short = 'a', default_value = "auto", value_parser = parse_method)]
    pub algorithm: Method,
    /// An algorithm parameter, KEY=VALUE (repeatable), e.g. --param lambda=0.3.
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE", value_parser = parse_key_value)]
    pub params: Vec<(String, String)>,
    /// Keep comment sections (auto only; the same as --param include-comments=1).
    #[arg(long)]
    pub include_comments: bool,
    #[arg(long, help = preset_help(Preset::Precision, "Favour precision: keep only the blocks the model is surest of"))]
    pub precision: bool,
    #[arg(long, help = preset_help(Preset::Recall, "Favour recall: keep borderline blocks too"))]
    pub recall: bool,
    /// Remove what this CSS selector matches before extracting (repeatable; as trafilatura's
    /// prune_xpath): it is never content. E.g. --exclude '.related, aside'.
    #[arg(long, value_name = "SELECTOR")]
    pub exclude: Vec<String>,
    /// The content is exactly what this CSS selector matches, in document order (repeatable);
    /// the algorithm does not run. A page where nothing matches has an empty text.
    #[arg(long, value_name = "SELECTOR")]
    pub include: Vec<String>,
    /// The page's comments apart from its content (auto only): "comments" in JSON and batch
    /// rows, one per comment with its author. --include-comments merges them into the text.
    #[arg(long)]
    pub comments: bool,
}

/// Default of `extract --timeout` and `batch --page-timeout`, in seconds.
/// The slowest dev page takes well under a second; a page still running
/// after a minute is built to hurt (issue 41: pages that took minutes of
/// CPU ran with no deadline at all).
pub const PAGE_TIMEOUT_SECS: f64 = 60.0;

#[derive(Args)]
pub struct ExtractArgs {
    /// Pages: .html or .html.gz files, http(s) URLs (fetched), or "-" (standard input, also
    /// the default). With several, -f json writes one JSON line each; the other formats put
    /// a "==> NAME <==" line before each page.
    pub inputs: Vec<String>,
    /// The page's URL, for a file or standard input (reported in JSON; resolves links; names
    /// the site for site-aware algorithms). A fetched page's URL is its address after redirects.
    #[arg(long)]
    pub url: Option<String>,
    /// The largest page accepted (bytes, after decompression); larger ones are an error.
    #[arg(long, value_name = "BYTES", default_value_t = unchaff::DEFAULT_MAX_INPUT)]
    pub max_bytes: usize,
    /// The page's charset, as an HTTP header would give it (overrides the page's own declaration).
    #[arg(long)]
    pub charset: Option<String>,
    /// Output format.
    #[arg(long, short = 'f', value_parser = format_parser(&Format::ALL), default_value = "text")]
    pub format: Format,
    /// A site template library: the page's site's entries (site = the --url host) are deleted first.
    #[arg(long, value_name = "FILE")]
    pub templates: Option<PathBuf>,
    /// Give up on the page after this many seconds (an error at the deadline, in whatever stage it
    /// is), as `batch --page-timeout` does.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, default_value_t = PAGE_TIMEOUT_SECS)]
    pub timeout: f64,
    /// Markdown: write links as [text](url), resolved against --url or the page's <base>.
    #[arg(long)]
    pub links: bool,
    /// Markdown and HTML: write the content's images (Markdown ![alt](src)) — those in kept
    /// blocks, figures and pictures between them with their captions, and the lead image
    /// above the first; lazy-loaded sources (data-src, srcset) resolved.
    #[arg(long)]
    pub images: bool,
    /// Markdown: do not open the document with the title as "# Title" (by default it does,
    /// unless the content already starts with that heading; JSON keeps the title apart).
    #[arg(long)]
    pub no_title: bool,
    /// JSON: include the clean HTML too.
    #[arg(long)]
    pub html: bool,
    /// Text and Markdown: open the output with the page's metadata as YAML front matter
    /// (title, author, url, hostname, date, tags, …); HTML: a whole document with the
    /// metadata as <meta> tags in its head. JSON and XML always carry the metadata.
    #[arg(long)]
    pub with_metadata: bool,
    /// Leave data tables out of the output (a table with a header, or without blocks of prose in
    /// its cells); a table that lays the page out is kept.
    #[arg(long)]
    pub no_tables: bool,
    #[command(flatten)]
    pub alg: AlgorithmArgs,
}

#[derive(Args)]
pub struct EvalArgs {
    /// Dataset folders (each with manifest.jsonl, pages/, gold/), or a directory holding such folders.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    #[command(flatten)]
    pub alg: AlgorithmArgs,
    /// Write each page's output to DIR/<folder>/<id>.txt.
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
    /// Only pages whose manifest field matches, KEY=VALUE (e.g. page_type=forum; repeatable, all must match).
    #[arg(long, value_name = "KEY=VALUE")]
    pub filter: Vec<String>,
    /// Print the table as Markdown.
    #[arg(long)]
    pub markdown: bool,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, short = 'j', value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// A site template library applied before the algorithm (site: each page's manifest url host, else its site field, as every algorithm sees it).
    #[arg(long, value_name = "FILE")]
    pub templates: Option<PathBuf>,
    /// Only the pages of cross-validation fold K of N (K/N; folds by a stable hash of the page id), e.g. to score a model trained with `train auto --exclude-fold K/N`.
    #[arg(long, value_name = "K/N", value_parser = parse_fold)]
    pub fold: Option<(u32, u32)>,
    /// Also print leaf-level precision/recall/F1 (each text node labelled from the gold; mean over pages).
    #[arg(long)]
    pub leaf: bool,
    /// Compare with a run saved by --save SAVED_DIR: per folder, the pages whose shingle F1 changed, worst first.
    #[arg(long, value_name = "SAVED_DIR")]
    pub compare: Option<PathBuf>,
    /// --compare: a page's shingle F1 must move by more than this to be listed.
    #[arg(long, value_name = "F1", default_value_t = unchaff_eval::run::DEFAULT_MIN_DELTA, requires = "compare")]
    pub min_delta: f64,
    /// Write one JSON line a page to FILE: folder, id, shingle F1, confidence and its signals,
    /// page type and its signals (for calibrating them: scripts/fit_confidence.py).
    #[arg(long, value_name = "FILE")]
    pub pages: Option<PathBuf>,
    /// Drop repeated segments as `batch --dedup N` does, each folder's pages taken in manifest
    /// order, a page's site its manifest `site` (else its URL's host); prints what was dropped.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "2")]
    pub dedup: Option<u32>,
}

#[derive(Args)]
pub struct ScoreArgs {
    /// The dataset folder whose gold to score against.
    pub data: PathBuf,
    /// The outputs: a directory of <id>.txt files, or a JSON file in the benchmark's format.
    #[arg(long, short = 'o')]
    pub outputs: PathBuf,
    /// Print the table as Markdown.
    #[arg(long)]
    pub markdown: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Dataset folders, or a directory holding them (pages are read into memory first, untimed).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    #[command(flatten)]
    pub alg: AlgorithmArgs,
    /// Worker threads.
    #[arg(long, short = 'j', default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,
    /// Passes over the pages; the fastest is reported.
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    /// The output format rendered (its cost is in the render stage).
    #[arg(long, short = 'f', value_parser = format_parser(&Format::ALL), default_value = "text")]
    pub format: Format,
}

/// `K/N` with K < N.
pub fn parse_fold(s: &str) -> Result<(u32, u32), String> {
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

/// `KEY=VALUE`.
pub fn parse_key_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
        _ => Err(format!("expected KEY=VALUE, got {s:?}")),
    }
}

/// An algorithm name.
pub fn parse_method(s: &str) -> Result<Method, String> {
    s.parse::<Method>().map_err(|e| e.to_string())
}

/// A positive number of seconds (`--timeout`), as a [`Duration`] can
/// hold it.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && Duration::try_from_secs_f64(x).is_ok() => Ok(x),
        Ok(x) if x > 0.0 => Err(format!("{s:?} seconds is too long")),
        _ => Err(format!("expected a positive number of seconds, got {s:?}")),
    }
}

/// Runs `f` on a pool of `threads` workers (`None`: rayon's global pool).
pub fn with_threads<T: Send>(
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
pub fn parse_threads(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_THREADS).contains(&n) => Ok(n),
        _ => Err(format!("expected 1 to {MAX_THREADS} threads, got {s:?}")),
    }
}

/// The error of a worker pool that could not start: it names the flag
/// (the system's own message alone, "Resource temporarily unavailable
/// (os error 11)", does not say what to change).
pub fn threads_error(n: usize, e: rayon::ThreadPoolBuildError) -> String {
    format!("--threads {n}: cannot start {n} worker threads ({e}); ask for fewer")
}
