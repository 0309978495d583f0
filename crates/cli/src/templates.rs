//! `unchaff templates` (cargo feature `templates`): learning a site
//! template library (`unchaff-train`) and listing one (the core's
//! `templates` module).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::CliResult;
use crate::args::Bar;

#[derive(Subcommand)]
pub enum TemplatesCommand {
    /// Learn site templates from pages, in batches of 10 pages per site (a partial batch stays pending).
    Learn(TemplatesLearnArgs),
    /// List the sites of a library, or one site's entries.
    Show(TemplatesShowArgs),
}

#[derive(Args)]
pub struct TemplatesLearnArgs {
    /// The library file (created if missing).
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// Dataset folders (site: each page's manifest url host, else its site field), or HTML files (need --site).
    #[arg(required = true)]
    pub input: Vec<PathBuf>,
    /// The site of the HTML files given (a host or any site id).
    #[arg(long)]
    pub site: Option<String>,
}

#[derive(Args)]
pub struct TemplatesShowArgs {
    /// The library file.
    #[arg(long, value_name = "FILE")]
    pub db: PathBuf,
    /// Show this site's entries.
    #[arg(long)]
    pub site: Option<String>,
}

/// Runs a `templates` command.
pub fn run(c: TemplatesCommand) -> CliResult {
    match c {
        TemplatesCommand::Learn(a) => {
            let learned =
                unchaff_train::templates::learn(&a.db, &a.input, a.site.as_deref(), &Bar::new())?;
            for s in learned {
                outln!(
                    "{}: {} pages, {} batches, {} entries added, {} pages pending",
                    s.site,
                    s.pages,
                    s.report.batches,
                    s.report.added,
                    s.report.pending_pages
                );
            }
        }
        TemplatesCommand::Show(a) => {
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
        }
    }
    Ok(())
}
