//! Learning a site template library (paper 5, ALGORITHMS.md#site-templates): text that recurs across a
//! site's pages) from dataset folders and page files: the driver of
//! `unchaff templates learn` over `unchaff::templates` (cargo feature
//! `templates`: SQLite).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use unchaff::templates::{LearnReport, Library, PageLeaves, page_leaves, site_key};
use unchaff_eval::Progress;
use unchaff_eval::dataset::Dataset;

use crate::Error;

/// What learning did for one site.
#[derive(Clone, Debug)]
pub struct SiteLearned {
    /// The site's key.
    pub site: String,
    /// Its pages read.
    pub pages: usize,
    /// What the library made of them.
    pub report: LearnReport,
}

/// Learns the templates of the pages of `inputs` into the library `db`
/// (created if missing): dataset folders (or directories of them), each
/// page's site its manifest URL's host, else its `site` field, else
/// `site`; or HTML files, all of the site `site` (required then). Pages
/// that cannot be read are told to `progress` and left out.
pub fn learn(
    db: &Path,
    inputs: &[PathBuf],
    site: Option<&str>,
    progress: &dyn Progress,
) -> Result<Vec<SiteLearned>, Error> {
    let mut by_site: BTreeMap<String, Vec<PageLeaves>> = BTreeMap::new();
    for input in inputs {
        if input.is_file() {
            let site = site.ok_or_else(|| {
                Error::Settings(format!("{}: an HTML file needs --site", input.display()))
            })?;
            let bytes = std::fs::read(input).map_err(|e| Error::Io {
                path: input.display().to_string(),
                source: e,
            })?;
            by_site
                .entry(site_key(site))
                .or_default()
                .push(page_leaves(&bytes)?);
            continue;
        }
        for dir in unchaff_eval::run::dataset_dirs(std::slice::from_ref(input))? {
            let ds = Dataset::open(&dir)?;
            let done: Vec<Result<(String, PageLeaves), String>> = ds
                .pages
                .par_iter()
                .filter_map(|p| {
                    let site = p
                        .url
                        .clone()
                        .or_else(|| p.field("site"))
                        .or_else(|| site.map(str::to_owned))
                        .map(|s| site_key(&s))?;
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
                    Err(e) => progress.message(&e),
                }
            }
        }
    }
    let mut lib = Library::open(db)?;
    let mut out = Vec::new();
    for (site, pages) in &by_site {
        let report = lib.learn(site, pages)?;
        out.push(SiteLearned {
            site: site.clone(),
            pages: pages.len(),
            report,
        });
    }
    Ok(out)
}
