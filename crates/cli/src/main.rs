//! The `unchaff` command-line tool: clap's arguments ([`args`]), turned
//! into the libraries' settings in one place ([`args::AlgorithmArgs::options`]),
//! then library calls (`unchaff`, `unchaff-eval`, `unchaff-batch`,
//! `unchaff-train`, `unchaff-serve`, `unchaff-explain`) whose results
//! this file prints.
//!
//! The server, training and the SQLite template library are cargo
//! features (`server`, `train`, `templates`; `full` is all of them), so
//! that a plain build compiles only what extraction needs; a command whose
//! feature is off says which one to build with ([`missing_feature`]).

/// `println!` that returns the write error (`?`) instead of panicking: a
/// reader that goes away (`unchaff … | head`) ends the command quietly
/// ([`is_broken_pipe`]).
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout(), $($t)*)?
    }};
}

/// `print!` as [`outln!`].
#[allow(unused_macros)]
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout(), $($t)*)?
    }};
}

mod args;
mod batch;
mod explain;
mod fetch;
#[cfg(feature = "server")]
mod serve;
mod structure;
#[cfg(feature = "templates")]
mod templates;
#[cfg(feature = "train")]
mod train;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[cfg(not(all(feature = "train", feature = "templates", feature = "server")))]
use args::Disabled;
use args::{AlgorithmsArgs, Bar, BenchArgs, parse_method, threads_error, with_threads};
use clap::{Parser, Subcommand};
use unchaff::{Extractor, Format, Method};
use unchaff_eval::dataset::{Dataset, Filter};
use unchaff_eval::report;
use unchaff_eval::run::EvalConfig;

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
    Extract(args::ExtractArgs),
    /// Run an algorithm over dataset folders and score it against their gold text.
    Eval(args::EvalArgs),
    /// Score saved outputs (a directory of <id>.txt, or the benchmark's JSON) against a folder's gold.
    Score(args::ScoreArgs),
    /// Measure extraction speed in-process: pages/s, MB/s and time per stage.
    Bench(BenchArgs),
    /// List the algorithms, one line each; with --params (or a name), their parameters.
    Algorithms(AlgorithmsArgs),
    /// Train an algorithm's model on dataset folders and save it (JSON).
    #[cfg(feature = "train")]
    Train(train::TrainArgs),
    /// Train an algorithm's model (needs the `train` cargo feature).
    #[cfg(not(feature = "train"))]
    Train(Disabled),
    /// Extract many pages (directories, @lists, WARC, JSONL) in parallel into one JSONL or Parquet file.
    Batch(batch::BatchArgs),
    /// Learn and inspect site templates: text that recurs across a site's pages (SQLite).
    #[cfg(feature = "templates")]
    #[command(subcommand)]
    Templates(templates::TemplatesCommand),
    /// Learn and inspect site templates (needs the `templates` cargo feature).
    #[cfg(not(feature = "templates"))]
    Templates(Disabled),
    /// Serve extraction over HTTP: /extract, /batch, /explain, /healthz, /metrics.
    #[cfg(feature = "server")]
    Serve(serve::ServeArgs),
    /// Serve extraction over HTTP (needs the `server` cargo feature).
    #[cfg(not(feature = "server"))]
    Serve(Disabled),
    /// Write an HTML report of why each block of a page was kept or dropped.
    Explain(explain::ExplainArgs),
    /// The structure benchmark: generate pages of known structure, survey real ones, score Markdown per construct.
    #[command(subcommand)]
    Structure(structure::StructureCommand),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if writes_to_stdout(&cli.command) && !stdout_is_open() {
        eprintln!(
            "unchaff: standard output is closed: nowhere to write the results \
             (/dev/null opened read-write, as Python's subprocess.DEVNULL does, looks the same \
             to a program; open it write-only, or pass --out where the command has it)"
        );
        return ExitCode::FAILURE;
    }
    let result = match cli.command {
        Command::Extract(a) => cmd_extract(a),
        Command::Eval(a) => cmd_eval(a),
        Command::Score(a) => cmd_score(a),
        Command::Bench(a) => cmd_bench(a),
        Command::Algorithms(a) => cmd_algorithms(a),
        #[cfg(feature = "train")]
        Command::Train(a) => train::run(a),
        #[cfg(not(feature = "train"))]
        Command::Train(_) => missing_feature("train", "train"),
        Command::Batch(a) => batch::run(a),
        #[cfg(feature = "templates")]
        Command::Templates(c) => templates::run(c),
        #[cfg(not(feature = "templates"))]
        Command::Templates(_) => missing_feature("templates", "templates"),
        #[cfg(feature = "server")]
        Command::Serve(a) => serve::run_serve(a),
        #[cfg(not(feature = "server"))]
        Command::Serve(_) => missing_feature("serve", "server"),
        Command::Explain(a) => explain::run(a),
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

/// The error of a command (or option) this build leaves out: the cargo
/// feature that has it, and how to build with it.
fn missing_feature(what: &str, feature: &str) -> CliResult {
    Err(format!(
        "{what} is not in this build: it needs the `{feature}` cargo feature \
         (cargo install --path crates/cli --features {feature}, or cargo run --release \
         -p unchaff-cli --features {feature} -- …; --features full has every command)"
    )
    .into())
}

/// Whether a command's results go to standard output.
fn writes_to_stdout(c: &Command) -> bool {
    match c {
        Command::Batch(a) => a.writes_to_stdout(),
        Command::Explain(a) => a.writes_to_stdout(),
        #[cfg(feature = "templates")]
        Command::Templates(templates::TemplatesCommand::Learn(_)) => false,
        Command::Serve(_) | Command::Train(_) => false,
        _ => true,
    }
}

type CliResult = Result<(), Box<dyn std::error::Error>>;

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

/// The error of `--templates FILE` in a build without the template
/// library (checked before any input is read).
fn check_templates(templates: &Option<PathBuf>) -> CliResult {
    match templates {
        Some(_) if !cfg!(feature = "templates") => missing_feature("--templates", "templates"),
        _ => Ok(()),
    }
}

fn cmd_extract(a: args::ExtractArgs) -> CliResult {
    warn_unused_flags(&a);
    check_templates(&a.templates)?;
    let mut opts = a
        .alg
        .options()?
        .with_format(a.format)
        .with_links(a.links)
        .with_images(a.images)
        .with_json_html(a.html)
        .with_tables(!a.no_tables)
        .with_markdown_title(!a.no_title)
        .with_metadata(a.with_metadata)
        .with_max_input_bytes(a.max_bytes)
        .with_timeout(Duration::from_secs_f64(a.timeout));
    opts.templates = a.templates.clone();
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
        let page =
            match fetch::read_input(name, a.url.as_deref(), a.charset.as_deref(), a.max_bytes) {
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
        if several && a.format != Format::Json {
            writeln!(stdout, "==> {name} <==")?;
        }
        // The output is written as it is, not copied to add the newline
        // (a text-heavy page's output is about its size).
        match a.with_metadata {
            true => stdout.write_all(out.render_with_metadata().as_bytes())?,
            false => stdout.write_all(out.rendered().as_bytes())?,
        }
        stdout.write_all(b"\n")?;
    }
    if failed > 0 {
        return Err(format!("{failed} of {} inputs failed (see above)", inputs.len()).into());
    }
    Ok(())
}

/// Says so on stderr when a flag has no effect with the chosen format.
fn warn_unused_flags(a: &args::ExtractArgs) {
    let md = matches!(a.format, Format::Markdown | Format::Json);
    let unused = [
        ("--links", a.links && !md, "Markdown (-f markdown or json)"),
        (
            "--images",
            a.images && a.format == Format::Text,
            "Markdown and HTML (-f markdown, html or json)",
        ),
        (
            "--no-title",
            a.no_title && a.format != Format::Markdown,
            "-f markdown",
        ),
        ("--html", a.html && a.format != Format::Json, "-f json"),
        (
            "--with-metadata",
            a.with_metadata && matches!(a.format, Format::Json | Format::Xml),
            "text, Markdown and HTML (JSON and XML always carry the metadata)",
        ),
    ];
    for (flag, _, with) in unused.iter().filter(|u| u.1) {
        eprintln!(
            "unchaff: warning: {flag} has no effect with -f {}; it applies to {with}",
            a.format
        );
    }
}

/// Expands arguments into dataset folders (see
/// [`unchaff_eval::run::dataset_dirs`]).
fn dataset_dirs(args: &[PathBuf]) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    Ok(unchaff_eval::run::dataset_dirs(args)?)
}

fn cmd_eval(a: args::EvalArgs) -> CliResult {
    check_templates(&a.templates)?;
    let mut opts = a.alg.options()?;
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
    let mut config = EvalConfig::new();
    config.filters = a
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
    config.fold = a.fold;
    config.save = a.save.clone();
    config.leaf = a.leaf;
    config.compare = a.compare.clone();
    config.min_delta = a.min_delta;
    config.page_records = a.pages.is_some();
    config.dedup = a.dedup;
    let dirs = dataset_dirs(&a.data)?;
    let bar = Bar::new();
    let run = with_threads(a.threads, || {
        unchaff_eval::run::evaluate(&extractor, &dirs, &config, &bar)
    })??;
    if run.rows.is_empty() {
        return Err("no pages to evaluate (check the folders and --filter)".into());
    }
    if let Some(mut out) = pages_out.take() {
        for v in &run.pages {
            writeln!(out, "{v}")?;
        }
        out.flush()?;
    }
    outln!("algorithm: {}", extractor.method());
    print_table(&run.rows, a.markdown)?;
    if a.leaf {
        out!(
            "{}",
            unchaff_eval::run::format_leaf_table(&run.leaf_rows, a.markdown)
        );
    }
    if let Some(base) = &a.compare {
        outln!("\ncompared with {}:", base.display());
        for c in &run.comparisons {
            out!("{}", report::format_comparison(c));
        }
    }
    if run.errors > 0 {
        eprintln!(
            "{} pages failed to extract (scored as empty output)",
            run.errors
        );
    }
    Ok(())
}

fn print_table(rows: &[report::FolderScores], markdown: bool) -> CliResult {
    // Both formats end with the mean over folders.
    if markdown {
        out!("{}", report::format_markdown(rows));
    } else {
        out!("{}", report::format_table(rows));
    }
    Ok(())
}

fn cmd_score(a: args::ScoreArgs) -> CliResult {
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
    let extractor = Extractor::new(&a.alg.options()?.with_format(a.format))?;
    let pages = unchaff_eval::bench::load_pages(&dataset_dirs(&a.data)?)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.max(1))
        .build()
        .map_err(|e| threads_error(a.threads, e))?;
    let r = unchaff_eval::bench::run(&extractor, &pages, &pool, a.repeat)
        .ok_or("no pages to benchmark")?;
    out!("{}", unchaff_eval::bench::format(&r));
    Ok(())
}
