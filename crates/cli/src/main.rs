//! The `unchaff` command-line tool. All the work is in the `unchaff` and
//! `unchaff-eval` libraries; this file parses arguments and prints.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};
use rayon::prelude::*;
use unchaff::{Extractor, Format, Options, StageTimes};
use unchaff_eval::dataset::{Dataset, Filter, list_folders};
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
                  unchaff bench ../shared/data/scrapinghub --threads 1"
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
    /// List the algorithms, one line each.
    Algorithms,
    /// Train an algorithm's model on dataset folders and save it (JSON).
    Train(TrainArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    /// Plain text, one block a line.
    Text,
    /// A JSON object: text, markdown, metadata, … (schema: docs/json-schema.md).
    Json,
    /// Markdown: headings, lists, tables, code blocks, quotes, emphasis.
    Markdown,
    /// A clean, safe HTML fragment (whitelisted tags and attributes).
    Html,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Text => Format::Text,
            FormatArg::Json => Format::Json,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Html => Format::Html,
        }
    }
}

#[derive(Args, Clone)]
struct AlgorithmArgs {
    /// Algorithm to run (`unchaff algorithms` lists them); "auto" is the default one.
    #[arg(long, short = 'a', default_value = "auto")]
    algorithm: String,
    /// An algorithm parameter, KEY=VALUE (repeatable), e.g. --param lambda=0.3.
    #[arg(long = "param", short = 'p', value_name = "KEY=VALUE", value_parser = parse_key_value)]
    params: Vec<(String, String)>,
}

#[derive(Args)]
struct ExtractArgs {
    /// The page: an .html or .html.gz file; "-" or nothing reads standard input.
    file: Option<PathBuf>,
    /// The page's URL (reported in JSON; used by site-aware algorithms).
    #[arg(long)]
    url: Option<String>,
    /// The page's charset, as an HTTP header would give it (overrides the page's own declaration).
    #[arg(long)]
    charset: Option<String>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value = "text")]
    format: FormatArg,
    /// Markdown: write links as [text](url), resolved against --url or the page's <base>.
    #[arg(long)]
    links: bool,
    /// Markdown: write images as ![alt](src).
    #[arg(long)]
    images: bool,
    /// JSON: include the clean HTML too.
    #[arg(long)]
    html: bool,
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
    #[arg(long, short = 'j')]
    threads: Option<usize>,
}

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
    #[arg(long, short = 'j', default_value_t = 1)]
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
    /// The algorithm to train: path-clustering.
    #[arg(value_parser = ["path-clustering"])]
    algorithm: String,
    /// Dataset folders, or a directory holding them.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Also learn each site's extraction template (site: the manifest's url host or site field, else the page's canonical URL).
    #[arg(long)]
    per_site: bool,
    /// Where to write the model.
    #[arg(long, value_name = "MODEL")]
    out: PathBuf,
    /// Print the thresholds, the k-means centres and the site templates.
    #[arg(long)]
    explain: bool,
}

fn parse_key_value(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_owned(), v.trim().to_owned())),
        _ => Err(format!("expected KEY=VALUE, got {s:?}")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Extract(a) => cmd_extract(a),
        Command::Eval(a) => cmd_eval(a),
        Command::Score(a) => cmd_score(a),
        Command::Bench(a) => cmd_bench(a),
        Command::Algorithms => cmd_algorithms(),
        Command::Train(a) => cmd_train(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("unchaff: {e}");
            ExitCode::FAILURE
        }
    }
}

type CliResult = Result<(), Box<dyn std::error::Error>>;

fn options(alg: &AlgorithmArgs) -> Options {
    Options {
        algorithm: alg.algorithm.clone(),
        params: alg.params.clone(),
        ..Options::default()
    }
}

fn cmd_extract(a: ExtractArgs) -> CliResult {
    let bytes = match a.file.as_deref() {
        None => read_stdin()?,
        Some(p) if p == Path::new("-") => read_stdin()?,
        Some(p) => std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?,
    };
    let opts = Options {
        url: a.url,
        charset: a.charset,
        format: a.format.into(),
        links: a.links,
        images: a.images,
        json_html: a.html,
        ..options(&a.alg)
    };
    let out = unchaff::extract(&bytes, &opts)?;
    let mut stdout = std::io::stdout().lock();
    let mut rendered = out.render();
    rendered.push('\n');
    stdout.write_all(rendered.as_bytes())?;
    Ok(())
}

fn read_stdin() -> Result<Vec<u8>, std::io::Error> {
    let mut buf = Vec::new();
    std::io::stdin().lock().read_to_end(&mut buf)?;
    Ok(buf)
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
                .build()?;
            Ok(pool.install(f))
        }
    }
}

fn cmd_eval(a: EvalArgs) -> CliResult {
    let extractor = Extractor::new(&options(&a.alg))?;
    let filters: Vec<Filter> = a
        .filter
        .iter()
        .map(|f| {
            f.parse::<Filter>()
                .map_err(|e| format!("--filter {f:?}: {e}"))
        })
        .collect::<Result<_, _>>()?;
    let mut rows: Vec<FolderScores> = Vec::new();
    let mut errors_total = 0usize;
    for dir in dataset_dirs(&a.data)? {
        let mut ds = Dataset::open(&dir)?;
        ds.pages.retain(|p| filters.iter().all(|f| f.matches(p)));
        if ds.pages.is_empty() {
            continue;
        }
        let outputs: Vec<(String, Result<String, String>)> = with_threads(a.threads, || {
            ds.pages
                .par_iter()
                .map(|p| {
                    let r = ds
                        .read_page_bytes(p)
                        .map_err(|e| e.to_string())
                        .and_then(|b| {
                            extractor
                                .extract(&b)
                                .map(|x| x.text)
                                .map_err(|e| e.to_string())
                        });
                    (p.id.clone(), r)
                })
                .collect()
        })?;
        let mut preds = HashMap::with_capacity(outputs.len());
        for (id, r) in outputs {
            match r {
                Ok(t) => {
                    preds.insert(id, t);
                }
                Err(e) => {
                    errors_total += 1;
                    eprintln!("{}/{id}: {e}", ds.name);
                    preds.insert(id, String::new());
                }
            }
        }
        if let Some(save) = &a.save {
            let dir = save.join(&ds.name);
            unchaff_eval::outputs::write_text_dir(&dir, &preds)?;
        }
        rows.push(with_threads(a.threads, || {
            report::score_folder(&ds, &preds)
        })??);
    }
    if rows.is_empty() {
        return Err("no pages to evaluate (check the folders and --filter)".into());
    }
    println!("algorithm: {}", extractor.algorithm_name());
    print_table(&rows, a.markdown);
    if errors_total > 0 {
        eprintln!("{errors_total} pages failed to extract (scored as empty output)");
    }
    Ok(())
}

fn print_table(rows: &[FolderScores], markdown: bool) {
    // Both formats end with the mean over folders.
    if markdown {
        print!("{}", report::format_markdown(rows));
    } else {
        print!("{}", report::format_table(rows));
    }
}

fn cmd_score(a: ScoreArgs) -> CliResult {
    let ds = Dataset::open(&a.data)?;
    let preds = unchaff_eval::outputs::load(&a.outputs)?;
    let row = report::score_folder(&ds, &preds)?;
    print_table(&[row], a.markdown);
    Ok(())
}

fn cmd_algorithms() -> CliResult {
    let width = unchaff::algorithms::REGISTRY
        .iter()
        .map(|e| e.name.len())
        .max()
        .unwrap_or(0);
    for e in unchaff::algorithms::REGISTRY {
        let default = if e.name == unchaff::algorithms::DEFAULT {
            " [default]"
        } else {
            ""
        };
        println!("{:width$}  {}{default}", e.name, e.summary);
    }
    Ok(())
}

fn cmd_bench(a: BenchArgs) -> CliResult {
    let extractor = Extractor::new(&Options {
        format: a.format.into(),
        ..options(&a.alg)
    })?;
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
        .build()?;
    // One untimed warm-up pass, then the timed passes; the fastest counts.
    let mut best: Option<(Duration, StageTimes, usize)> = None;
    for pass in 0..=a.repeat.max(1) {
        let start = Instant::now();
        let (times, errors) = pool.install(|| {
            pages
                .par_iter()
                .map(|b| {
                    let mut t = StageTimes::default();
                    let err = extractor.extract_timed(b, &mut t).is_err() as usize;
                    (t, err)
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
    println!(
        "algorithm {}  threads {}  pages {}  HTML {:.1} MB  best of {} passes",
        extractor.algorithm_name(),
        a.threads.max(1),
        pages.len(),
        mb,
        a.repeat.max(1)
    );
    println!(
        "wall {:.3} s  {:.1} pages/s  {:.1} MB/s  ({:.3} ms/page)",
        secs,
        pages.len() as f64 / secs,
        mb / secs,
        secs * 1e3 / pages.len() as f64
    );
    let total = times.total().as_secs_f64().max(1e-12);
    println!("stage       time (s, summed over threads)   share");
    for (name, d) in [
        ("decode", times.decode),
        ("parse", times.parse),
        ("annotate", times.annotate),
        ("algorithm", times.algorithm),
        ("render", times.render),
    ] {
        println!(
            "{name:10}  {:>10.3}                      {:>5.1}%",
            d.as_secs_f64(),
            100.0 * d.as_secs_f64() / total
        );
    }
    if errors > 0 {
        println!("{errors} pages gave an error");
    }
    Ok(())
}

fn cmd_train(a: TrainArgs) -> CliResult {
    use unchaff::algorithms::path_clustering as pc;
    let start = Instant::now();
    let (mut summaries, mut names) = (Vec::new(), Vec::new());
    for dir in dataset_dirs(&a.data)? {
        let ds = Dataset::open(&dir)?;
        let done: Vec<Result<pc::PageSummary, String>> = ds
            .pages
            .par_iter()
            .map(|p| {
                let site = p.url.clone().or_else(|| p.field("site"));
                let bytes = ds.read_page_bytes(p).map_err(|e| e.to_string())?;
                pc::summarize(&bytes, site.as_deref())
                    .map_err(|e| format!("{}/{}: {e}", ds.name, p.id))
            })
            .collect();
        for r in done {
            r.map_or_else(|e| eprintln!("{e}"), |s| summaries.push(s));
        }
        names.push(ds.name);
    }
    let what = format!("{} ({} pages)", names.join(", "), summaries.len());
    let model = pc::train(&summaries, a.per_site, &what)?;
    std::fs::write(&a.out, model.to_json() + "\n")?;
    eprintln!(
        "trained on {what} in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    if a.explain {
        let c = model.centres.clone().unwrap_or_default();
        println!(
            "Length_Threshold    {:10.3}  (k-means centres {:.3} and {:.3})",
            model.length_threshold, c.length[0], c.length[1]
        );
        println!(
            "Cn_Threshold        {:10.3}  (k-means centres {:.3} and {:.3})",
            model.cn_threshold, c.cn[0], c.cn[1]
        );
        println!(
            "Frequency_Threshold {:10.3}  (mean over all sites; each site uses its own mean)",
            model.frequency_threshold
        );
        for (site, keys) in &model.sites {
            println!("site {site}  (threshold {:.2})", pc::site_threshold(keys));
            for (k, f) in keys {
                println!("  {f:4}  {k}");
            }
        }
    }
    Ok(())
}
