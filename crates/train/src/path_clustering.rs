//! Training path clustering's thresholds and site templates, and the
//! model file that holds them (ALGORITHMS.md#training-path-clustering, "Training").
//!
//! * Length_Threshold and Cn_Threshold: 1-D k-means (k = 2, `linfa`'s
//!   k-means, fixed seed [`KMEANS_SEED`]) over log(1 + x) of the Length /
//!   Cn of every cluster of every training page; the threshold is expm1 of
//!   the midpoint of the two centres (paper 3 §2.5 (ALGORITHMS.md#training-path-clustering) clusters the raw values;
//!   both are heavy-tailed, so ALGORITHMS.md#training-path-clustering clusters their logarithms).
//! * Per-site templates (`per_site`): for every training page with a site,
//!   the chunk keys of its selected segment; a key's frequency is the number
//!   of the site's pages whose segment has it.
//! * Frequency_Threshold: the arithmetic mean of the observed frequencies
//!   (paper 3 §2.5 (ALGORITHMS.md#training-path-clustering)). The model stores the mean over all sites for reading;
//!   extraction applies each site's own mean
//!   ([`unchaff::algorithms::path_clustering::site_threshold`]), so a site trained on few pages is not
//!   judged by the counts of a site trained on many.

use std::collections::BTreeMap;

use linfa::DatasetBase;
use linfa::traits::Fit;
use linfa_clustering::KMeans;
use ndarray::Array2;
use rand_xoshiro::Xoshiro256Plus;
use rand_xoshiro::rand_core::SeedableRng;

use unchaff::Error;
use unchaff::algorithms::path_clustering::{
    Analysis, Centres, MODEL_VERSION, Model, analyze, host_of, key_name, leaf_lengths, page_site,
    segment_chunks, select_cluster,
};
use unchaff::annotate::PathId;
/// The k-means seed: training is deterministic.
pub const KMEANS_SEED: u64 = 42;

/// k-means restarts (the best of them is kept); 1-D data with two
/// clusters converges to the same centres from any k-means++ start on the
/// dev data, 4 runs are a margin.
pub const KMEANS_RUNS: usize = 4;

/// What training needs of one page: its site, clusters and chunks, with
/// the chunk keys' names.
#[derive(Clone, Debug, Default)]
pub struct PageSummary {
    /// The page's site ([`host_of`] its URL, else [`page_site`]).
    pub site: Option<String>,
    /// Clusters and chunks.
    pub analysis: Analysis,
    /// Tag path of each chunk key.
    pub key_names: BTreeMap<PathId, String>,
}

/// Decodes, parses, cleans and annotates a page and summarises it for
/// training. `url` (from a manifest) names its site; without it the page's
/// canonical URL does. A manifest's bare site name (`www.example.org`) is
/// accepted too.
pub fn summarize(bytes: &[u8], url: Option<&str>) -> Result<PageSummary, Error> {
    let prepared = unchaff::Prepared::new(bytes)?;
    let page = prepared.page();
    let lengths = leaf_lengths(&page);
    let analysis = analyze(&page, &lengths);
    let key_names = analysis
        .chunks
        .iter()
        .map(|c| (c.key, key_name(&page, c.key)))
        .collect();
    Ok(PageSummary {
        site: url.and_then(host_of).or_else(|| page_site(&page)),
        analysis,
        key_names,
    })
}

/// Two-means of 1-D values: the centres, low first.
fn kmeans2(values: &[f64]) -> Result<[f64; 2], Error> {
    let distinct = values.iter().any(|&v| v != values[0]);
    if values.len() < 2 || !distinct {
        return Err(Error::Model(
            "too few distinct clusters to train on (need pages with text)".to_owned(),
        ));
    }
    let data = Array2::from_shape_vec((values.len(), 1), values.to_vec())
        .map_err(|e| Error::Model(e.to_string()))?;
    let ds = DatasetBase::from(data);
    let model = KMeans::params_with_rng(2, Xoshiro256Plus::seed_from_u64(KMEANS_SEED))
        .n_runs(KMEANS_RUNS)
        .max_n_iterations(300)
        .tolerance(1e-6)
        .fit(&ds)
        .map_err(|e| Error::Model(format!("k-means: {e}")))?;
    let c = model.centroids();
    let (a, b) = (c[[0, 0]], c[[1, 0]]);
    Ok(if a <= b { [a, b] } else { [b, a] })
}

/// Trains a model on page summaries; `per_site` also learns each site's
/// chunk template.
pub fn train(pages: &[PageSummary], per_site: bool, trained_on: &str) -> Result<Model, Error> {
    let clusters = pages.iter().flat_map(|p| &p.analysis.clusters);
    let lengths: Vec<f64> = clusters.clone().map(|c| c.length.ln_1p()).collect();
    let cns: Vec<f64> = clusters.map(|c| c.cn.ln_1p()).collect();
    let lc = kmeans2(&lengths)?;
    let cc = kmeans2(&cns)?;
    let length_threshold = ((lc[0] + lc[1]) / 2.0).exp_m1();
    let cn_threshold = ((cc[0] + cc[1]) / 2.0).exp_m1();
    let mut sites: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    if per_site {
        for p in pages {
            let Some(site) = &p.site else { continue };
            let Some(c) = select_cluster(&p.analysis.clusters, length_threshold, cn_threshold)
            else {
                continue;
            };
            let mut keys: Vec<&str> = segment_chunks(&p.analysis, c.first, c.last)
                .iter()
                .filter_map(|ch| p.key_names.get(&ch.key).map(String::as_str))
                .collect();
            keys.sort_unstable();
            keys.dedup();
            let table = sites.entry(site.clone()).or_default();
            for k in keys {
                *table.entry(k.to_owned()).or_default() += 1;
            }
        }
    }
    let all: Vec<f64> = sites
        .values()
        .flat_map(|t| t.values().map(|&f| f64::from(f)))
        .collect();
    let frequency_threshold = if all.is_empty() {
        0.0
    } else {
        all.iter().sum::<f64>() / all.len() as f64
    };
    Ok(Model {
        version: MODEL_VERSION,
        length_threshold,
        cn_threshold,
        frequency_threshold,
        sites,
        trained_on: trained_on.to_owned(),
        centres: Some(Centres {
            length: [lc[0].exp_m1(), lc[1].exp_m1()],
            cn: [cc[0].exp_m1(), cc[1].exp_m1()],
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn training_is_deterministic_and_sane() {
        let page = |i: usize| {
            let nav: String = (0..8)
                .map(|j| format!("<li><a href=/{j}>link {j}</a></li>"))
                .collect();
            let body: String = (0..5)
                .map(|j| format!("<p>{}</p>", "word ".repeat(10 + i + j)))
                .collect();
            format!("<ul>{nav}</ul><div class=post>{body}</div>")
        };
        let sums: Vec<PageSummary> = (0..6)
            .map(|i| summarize(page(i).as_bytes(), Some("https://site.example/a")).unwrap())
            .collect();
        let m1 = train(&sums, true, "test").unwrap();
        let m2 = train(&sums, true, "test").unwrap();
        assert_eq!(m1, m2);
        // Every page's segment is the div's paragraphs: one key, 6 pages.
        let site = &m1.sites["site.example"];
        assert_eq!(site.get("html/body/div"), Some(&6));
        assert!(train(&[], false, "none").is_err());
    }
}
