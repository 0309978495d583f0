//! `unchaff structure`: the structure benchmark's commands (issue #34):
//! arguments in, tables out. The work is in `unchaff_eval::structure`.

use std::collections::HashMap;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use unchaff::{Extractor, Format};
use unchaff_eval::structure::generate::{self, DEFAULT_PER_FOLDER, DEFAULT_SEED};
use unchaff_eval::structure::score::{self, GoldFolder, Row};
use unchaff_eval::structure::survey;

use crate::CliResult;
use crate::args::{AlgorithmArgs, parse_key_value, parse_threads, with_threads};

/// The structure benchmark's commands.
#[derive(Subcommand)]
pub enum StructureCommand {
    /// Write the generated pages: one dataset folder per page template (gen-news, gen-docs,
    /// gen-encyclopedia, gen-qa, gen-blog) with gold text and structure gold (structure/<id>.json).
    Generate(GenerateArgs),
    /// Extract every page that has a structure gold as Markdown (as `extract -f markdown --images
    /// --url URL` does) and score it per construct.
    Eval(EvalArgs),
    /// Score saved Markdown of any tools: a peers-harness run (RUN/<folder>/outputs/<tool>/<id>.txt)
    /// or NAME=DIR (DIR/<folder>/<id>.md or .txt, as `structure eval --save DIR` writes): one row
    /// per tool.
    Score(ScoreArgs),
    /// Find tables, <pre> code, line-numbered code, math, figures and sub/sup in real dataset pages
    /// (those whose text is in the page's gold), count them per folder, and with --out write those
    /// pages as dataset folders with a structure gold derived from the source.
    Survey(SurveyArgs),
}

/// `structure generate`.
#[derive(Args)]
pub struct GenerateArgs {
    /// Where to write the dataset folders.
    out: PathBuf,
    /// The generator's seed (the same seed writes the same pages).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// Pages per template.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PER_FOLDER)]
    per_folder: usize,
}

/// `structure eval`.
#[derive(Args)]
pub struct EvalArgs {
    /// Dataset folders with a structure/ directory, or directories holding them.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    #[command(flatten)]
    alg: AlgorithmArgs,
    /// Write each page's Markdown to DIR/<folder>/<id>.md.
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, short = 'j', value_parser = parse_threads)]
    threads: Option<usize>,
    /// Also print the counts by markup (code:prism, math:katex, table:spans, …; generated pages).
    #[arg(long)]
    by_markup: bool,
}

/// `structure score`.
#[derive(Args)]
pub struct ScoreArgs {
    /// Dataset folders with a structure/ directory, or directories holding them.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// A peers-harness run directory: every tool under RUN/<folder>/outputs/ is scored.
    #[arg(long, value_name = "RUN")]
    run: Option<PathBuf>,
    /// A tool's outputs, NAME=DIR with DIR/<folder>/<id>.md or .txt (repeatable).
    #[arg(long, value_name = "NAME=DIR", value_parser = parse_key_value)]
    outputs: Vec<(String, String)>,
    /// Only these tools, in this order (comma list; default: all found, sorted).
    #[arg(long, value_delimiter = ',')]
    tools: Vec<String>,
    /// Also print the counts by markup (code:prism, math:katex, table:spans, …; generated pages).
    #[arg(long)]
    by_markup: bool,
}

/// `structure survey`.
#[derive(Args)]
pub struct SurveyArgs {
    /// Dataset folders, or directories holding them.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Write the pages with a derived gold under DIR/<folder>/ (pages and gold are links to the
    /// source files: keep DIR outside the repository).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, short = 'j', value_parser = parse_threads)]
    threads: Option<usize>,
}

/// Runs a `structure` command.
pub fn run(c: StructureCommand) -> CliResult {
    match c {
        StructureCommand::Generate(a) => {
            let n = generate::write(&a.out, a.seed, a.per_folder)?;
            eprintln!("wrote {n} pages under {}", a.out.display());
            Ok(())
        }
        StructureCommand::Eval(a) => eval(a),
        StructureCommand::Score(a) => score_cmd(a),
        StructureCommand::Survey(a) => survey_cmd(a),
    }
}

/// The folders of `data` that have a structure gold.
fn gold_folders(data: &[PathBuf]) -> Result<Vec<GoldFolder>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    for dir in crate::dataset_dirs(data)? {
        let f = GoldFolder::open(&dir)?;
        if !f.golds.is_empty() {
            out.push(f);
        }
    }
    if out.is_empty() {
        return Err("no structure gold (structure/<id>.json) in the folders given".into());
    }
    Ok(out)
}

fn eval(a: EvalArgs) -> CliResult {
    let opts = a
        .alg
        .options()?
        .with_format(Format::Markdown)
        .with_images(true);
    let ex = Extractor::new(&opts)?;
    let folders = gold_folders(&a.data)?;
    let mut rows = Vec::new();
    let mut all = score::Counts::default();
    for f in &folders {
        let (outputs, failed) = with_threads(a.threads, || score::extract_folder(f, &ex))??;
        if failed > 0 {
            eprintln!(
                "unchaff: {}: {failed} pages failed (scored as empty)",
                f.name
            );
        }
        if let Some(dir) = &a.save {
            let d = dir.join(&f.name);
            std::fs::create_dir_all(&d)?;
            for (id, md) in &outputs {
                std::fs::write(d.join(format!("{id}.md")), md)?;
            }
        }
        let c = f.score(&outputs);
        all.add(&c);
        rows.push(Row {
            tool: f.name.clone(),
            counts: c,
        });
    }
    if rows.len() > 1 {
        rows.push(Row {
            tool: "all".into(),
            counts: all.clone(),
        });
    }
    print!("{}", score::format_table(&rows, &all));
    if a.by_markup {
        println!();
        print!(
            "{}",
            score::format_markup_table(&[Row {
                tool: "unchaff".into(),
                counts: all
            }])
        );
    }
    Ok(())
}

fn score_cmd(a: ScoreArgs) -> CliResult {
    let folders = gold_folders(&a.data)?;
    // tool → folder → outputs directory.
    let mut tools: HashMap<String, HashMap<String, PathBuf>> = HashMap::new();
    if let Some(run) = &a.run {
        for f in &folders {
            let dir = run.join(&f.name).join("outputs");
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in entries.flatten() {
                if e.path().is_dir() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    tools
                        .entry(name)
                        .or_default()
                        .insert(f.name.clone(), e.path());
                }
            }
        }
    }
    for (name, dir) in &a.outputs {
        let by_folder = tools.entry(name.clone()).or_default();
        for f in &folders {
            by_folder.insert(f.name.clone(), PathBuf::from(dir).join(&f.name));
        }
    }
    let mut names: Vec<String> = if a.tools.is_empty() {
        let mut n: Vec<String> = tools.keys().cloned().collect();
        n.sort();
        n
    } else {
        a.tools.clone()
    };
    names.retain(|n| tools.contains_key(n));
    if names.is_empty() {
        return Err("no tool outputs found (--run RUN or --outputs NAME=DIR)".into());
    }
    let mut rows = Vec::new();
    for name in names {
        let mut counts = score::Counts::default();
        for f in &folders {
            let outputs = match tools[&name].get(&f.name) {
                Some(dir) if dir.is_dir() => score::load_outputs(dir)?,
                _ => HashMap::new(),
            };
            counts.add(&f.score(&outputs));
        }
        rows.push(Row { tool: name, counts });
    }
    print!("{}", score::format_table(&rows, &rows[0].counts));
    if a.by_markup {
        println!();
        print!("{}", score::format_markup_table(&rows));
    }
    Ok(())
}

fn survey_cmd(a: SurveyArgs) -> CliResult {
    let dirs = crate::dataset_dirs(&a.data)?;
    let mut surveys = Vec::new();
    for dir in &dirs {
        let s = with_threads(a.threads, || survey::survey_folder(dir))??;
        if let Some(out) = &a.out {
            let n = survey::write_subset(dir, &s, out)?;
            eprintln!("{}: {n} pages with a derived gold written", s.name);
        }
        surveys.push(s);
    }
    print!("{}", survey::format_survey(&surveys));
    Ok(())
}
