//! `unchaff explain`: a page's report of why each block was kept or
//! dropped (`unchaff-explain`).

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use unchaff::Input;

use crate::CliResult;
use crate::args::AlgorithmArgs;

#[derive(Args)]
pub struct ExplainArgs {
    /// The page: an .html or .html.gz file, an http(s) URL (fetched), or "-" (standard input).
    #[arg(default_value = "-")]
    input: String,
    /// Where to write the report (one self-contained HTML file); "-" writes it to standard
    /// output.
    #[arg(long, short = 'o', value_name = "FILE", default_value = "-")]
    out: PathBuf,
    /// The page's URL, for a file or standard input (resolves links; names the site).
    #[arg(long)]
    url: Option<String>,
    /// The page's charset, as an HTTP header would give it.
    #[arg(long)]
    charset: Option<String>,
    /// The largest page accepted (bytes, after decompression).
    #[arg(long, value_name = "BYTES", default_value_t = unchaff::DEFAULT_MAX_INPUT)]
    max_bytes: usize,
    /// Give up on the page after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = crate::args::parse_seconds)]
    timeout: Option<f64>,
    /// Leave data tables out, as `extract --no-tables`.
    #[arg(long)]
    no_tables: bool,
    #[command(flatten)]
    alg: AlgorithmArgs,
}

impl ExplainArgs {
    /// Whether the report goes to standard output (`--out -`).
    pub fn writes_to_stdout(&self) -> bool {
        self.out.as_os_str() == "-"
    }
}

/// Runs `unchaff explain`.
pub fn run(a: ExplainArgs) -> CliResult {
    let mut opts = a
        .alg
        .options()?
        .with_tables(!a.no_tables)
        .with_max_input_bytes(a.max_bytes);
    opts.timeout = a.timeout.map(Duration::from_secs_f64);
    let page = crate::fetch::read_input(
        &a.input,
        a.url.as_deref(),
        a.charset.as_deref(),
        a.max_bytes,
    )?;
    let input = Input::new(&page.bytes)
        .with_url(page.url.as_deref())
        .with_charset(page.charset.as_deref());
    let report = unchaff_explain::explain(input, &opts)?;
    let html = unchaff_explain::render_html(&report);
    if a.out.as_os_str() == "-" {
        use std::io::Write;
        std::io::stdout().lock().write_all(html.as_bytes())?;
    } else {
        std::fs::write(&a.out, html).map_err(|e| format!("{}: {e}", a.out.display()))?;
        eprintln!(
            "unchaff: {} blocks, {} kept: {}",
            report.blocks.len(),
            report.kept_count(),
            a.out.display()
        );
    }
    Ok(())
}
