//! Stage 5, **score** and **select**: the extraction algorithms.
//!
//! **Unstable:** public only with the `unstable` feature, for the tools
//! of the unchaff workspace (evaluation, training, explanation); may
//! change in any release. See the crate docs' *Stability*.
//!
//! Each algorithm is one module implementing [`Algorithm`]: it reads the
//! shared per-node statistics of an annotated [`Page`] and returns a
//! [`Selection`] — the chosen nodes and, for the explain view, a score per
//! node. Adding an algorithm is one file here plus one line in [`REGISTRY`].

use crate::Error;
use crate::annotate::Page;

pub mod auto;
pub mod cc;
pub mod cepr;
pub mod cetd;
pub mod cetd_tpc;
pub mod cetr;
pub mod path_clustering;
pub mod template_svm;
pub mod text_distribution;

mod explanation;
mod selection;

pub use explanation::{Explanation, Reason};
pub use selection::Selection;

/// A content-extraction algorithm over an annotated page.
pub trait Algorithm: Send + Sync {
    /// The name users pass to `--algorithm`.
    fn name(&self) -> &'static str;
    /// Scores the page and selects its content.
    fn run(&self, page: &Page<'_>) -> Selection;
    /// A site template library the extractor should apply before this
    /// algorithm runs (`templates=FILE`: ALGORITHMS.md#site-templates); none by default.
    fn templates(&self) -> Option<&std::path::Path> {
        None
    }
    /// Whether [`Page::source`] is read. An extractor handed the page's
    /// bytes ([`crate::Extractor::extract_owned`]) frees the decoded page
    /// before annotating when it is not, and passes an empty source. Yes
    /// unless an algorithm says otherwise.
    fn reads_source(&self) -> bool {
        true
    }
    /// Why it kept or dropped each block of `page`, for the explanation
    /// report: scores and the features behind them, at most `reasons` per
    /// block and model stage. A separate walk for the tools
    /// ([`crate::Inspection::explain`]); [`Algorithm::run`] never computes
    /// it. None by default (only `auto` explains itself).
    fn explain(&self, page: &Page<'_>, reasons: usize) -> Option<Explanation> {
        let _ = (page, reasons);
        None
    }
}

/// The algorithms unchaff ships, by name: `Method::from_str("cetd-tpc")`
/// or [`Method::ALL`]; [`Method::Auto`] is the default. Each variant's
/// parameters are given as `key=value` strings ([`crate::Options::params`])
/// and checked when the extractor is built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Method {
    /// `auto`: The default: a two-stage boosted-tree block classifier over the seed signals and structural cues.
    #[default]
    Auto,
    /// `cetd-tpc`: Text block density × tag path coverage (CETD-TPC).
    CetdTpc,
    /// `cetd-tpc-pagewide`: CETD-TPC with the page-wide reading of path coverage (for comparison).
    CetdTpcPagewide,
    /// `path-clustering`: Tag-path clustering with trained thresholds and site templates.
    PathClustering,
    /// `text-distribution`: Gaussian-smoothed sentence and node weights.
    TextDistribution,
    /// `template-svm`: Per-site template library plus an RBF-kernel SVM over block features.
    TemplateSvm,
    /// `cc`: Content correlativity with neighbour smoothing (news and forums).
    Cc,
    /// `cetd`: Composite text density with DensitySum (reference).
    Cetd,
    /// `cetd-td`: CETD with simple text density (reference).
    CetdTd,
    /// `cepr`: Tag path ratios with path-aware smoothing (reference).
    Cepr,
    /// `cepr-tpr`: CEPR with plain text-to-tag-path ratios (reference).
    CeprTpr,
    /// `cetr`: Text-to-tag ratios of source lines, 2-D k-means (reference).
    Cetr,
    /// `cetr-km`: CETR with 1-D k-means (reference).
    CetrKm,
    /// `cetr-tm`: CETR with a threshold on the smoothed ratios (reference).
    CetrTm,
}

impl Method {
    /// Every algorithm, the default first (the order of `unchaff algorithms`).
    pub const ALL: &'static [Method] = &[
        Method::Auto,
        Method::CetdTpc,
        Method::CetdTpcPagewide,
        Method::PathClustering,
        Method::TextDistribution,
        Method::TemplateSvm,
        Method::Cc,
        Method::Cetd,
        Method::CetdTd,
        Method::Cepr,
        Method::CeprTpr,
        Method::Cetr,
        Method::CetrKm,
        Method::CetrTm,
    ];

    /// The name users pass to `--algorithm`.
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// One line: what it is and where it comes from.
    pub fn summary(self) -> &'static str {
        self.entry().summary
    }

    /// Its parameters (`Options::params` keys), documented.
    pub fn params(self) -> &'static [Param] {
        (self.entry().params)()
    }

    /// Every algorithm's name, the default first.
    pub fn names() -> Vec<&'static str> {
        Method::ALL.iter().map(|m| m.name()).collect()
    }

    fn entry(self) -> &'static Entry {
        REGISTRY
            .iter()
            .find(|e| e.method == self)
            .unwrap_or(&REGISTRY[0])
    }
}

impl std::str::FromStr for Method {
    type Err = Error;

    /// The algorithm called `name`; an unknown name is an error that lists
    /// the valid ones.
    fn from_str(name: &str) -> Result<Method, Error> {
        REGISTRY
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.method)
            .ok_or_else(|| Error::UnknownAlgorithm(name.to_owned()))
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Method {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A registered algorithm: its name, one line for `unchaff algorithms`,
/// and how to build it from parameters.
pub struct Entry {
    /// The algorithm this entry builds.
    pub method: Method,
    /// The name users pass to `--algorithm`.
    pub name: &'static str,
    /// One line: what it is and where it comes from.
    pub summary: &'static str,
    /// Builds the algorithm; fails on an unknown or malformed parameter.
    pub build: fn(&mut Params) -> Result<Box<dyn Algorithm>, Error>,
    /// Its parameters, documented (a function: `auto`'s help is written
    /// from its constants on first use).
    pub params: fn() -> &'static [Param],
}

/// One documented algorithm parameter, for `unchaff algorithms --params`.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// The key of `-p KEY=VALUE`.
    pub name: &'static str,
    /// Its default, as written on the command line (or what it is).
    pub default: &'static str,
    /// The values it takes.
    pub range: &'static str,
    /// What it does.
    pub meaning: &'static str,
}

/// Every algorithm unchaff ships, the default first.
pub const REGISTRY: &[Entry] = &[
    Entry {
        method: Method::Auto,
        name: "auto",
        summary: "two-stage boosted-tree block classifier over the seed signals and structural cues",
        build: auto::build,
        params: auto::params,
    },
    Entry {
        method: Method::CetdTpc,
        name: "cetd-tpc",
        summary: "text block density x how widely each tag path covers the page (Wu et al. 2016)",
        build: cetd_tpc::build,
        params: || cetd_tpc::PARAMS,
    },
    Entry {
        method: Method::CetdTpcPagewide,
        name: "cetd-tpc-pagewide",
        summary: "cetd-tpc reading path coverage over the whole page (for comparison)",
        build: cetd_tpc::build_pagewide,
        params: || cetd_tpc::PARAMS,
    },
    Entry {
        method: Method::PathClustering,
        name: "path-clustering",
        summary: "tag-path clustering with trained thresholds and per-site templates",
        build: path_clustering::build,
        params: || path_clustering::PARAMS,
    },
    Entry {
        method: Method::TextDistribution,
        name: "text-distribution",
        summary: "Gaussian-smoothed sentence and node weights; the node of largest weight",
        build: text_distribution::build,
        params: || text_distribution::PARAMS,
    },
    Entry {
        method: Method::TemplateSvm,
        name: "template-svm",
        summary: "per-site template library + an SVM over block features",
        build: template_svm::build,
        params: || template_svm::PARAMS,
    },
    Entry {
        method: Method::Cc,
        name: "cc",
        summary: "content correlativity with neighbour smoothing, for news and forums",
        build: cc::build,
        params: || cc::PARAMS,
    },
    Entry {
        method: Method::Cetd,
        name: "cetd",
        summary: "composite text density + DensitySum (Sun et al. 2011; reference)",
        build: cetd::build,
        params: || cetd::PARAMS,
    },
    Entry {
        method: Method::CetdTd,
        name: "cetd-td",
        summary: "cetd with simple text density (reference)",
        build: cetd::build_td,
        params: || cetd::PARAMS,
    },
    Entry {
        method: Method::Cepr,
        name: "cepr",
        summary: "tag path ratio x dispersion, path-aware smoothing (Wu et al. 2013; reference)",
        build: cepr::build,
        params: || cepr::PARAMS,
    },
    Entry {
        method: Method::CeprTpr,
        name: "cepr-tpr",
        summary: "cepr with plain text-to-tag-path ratios, no smoothing (reference)",
        build: cepr::build_tpr,
        params: || cepr::PARAMS_TPR,
    },
    Entry {
        method: Method::Cetr,
        name: "cetr",
        summary: "text-to-tag ratio of source lines, 2-D k-means (Weninger et al. 2010; reference)",
        build: cetr::build,
        params: || cetr::PARAMS,
    },
    Entry {
        method: Method::CetrKm,
        name: "cetr-km",
        summary: "cetr with 1-D k-means on the smoothed ratios (reference)",
        build: cetr::build_km,
        params: || cetr::PARAMS,
    },
    Entry {
        method: Method::CetrTm,
        name: "cetr-tm",
        summary: "cetr with a threshold of lambda standard deviations (reference)",
        build: cetr::build_tm,
        params: || cetr::PARAMS_TM,
    },
];

/// Builds `method` with `params`; an unknown or malformed parameter is an
/// error.
pub fn build(method: Method, params: &[(String, String)]) -> Result<Box<dyn Algorithm>, Error> {
    let entry = method.entry();
    let mut p = Params::new(params);
    let alg = (entry.build)(&mut p)?;
    p.finish(entry.name)?;
    Ok(alg)
}

/// Algorithm parameters given as `key=value` (`--param lambda=0.3`); each
/// algorithm takes the ones it knows, and any left over is an error.
#[derive(Debug)]
pub struct Params {
    items: Vec<(String, String, bool)>,
    /// Every key the algorithm asked for, with the default it gave for a
    /// number: the parameters it has.
    known: Vec<(String, Option<f64>)>,
}

impl Params {
    /// Wraps `key=value` pairs.
    pub fn new(items: &[(String, String)]) -> Params {
        Params {
            items: items
                .iter()
                .map(|(k, v)| (k.clone(), v.clone(), false))
                .collect(),
            known: Vec::new(),
        }
    }

    /// The raw value of `key`, marking it used.
    pub fn take(&mut self, key: &str) -> Option<String> {
        if !self.known.iter().any(|k| k.0 == key) {
            self.known.push((key.to_owned(), None));
        }
        let mut found = None;
        for item in self.items.iter_mut().filter(|i| i.0 == key) {
            item.2 = true;
            found = Some(item.1.clone());
        }
        found
    }

    /// A number parameter, or `default` when absent.
    pub fn f64(&mut self, key: &str, default: f64) -> Result<f64, Error> {
        let taken = self.take(key);
        if let Some(k) = self.known.iter_mut().find(|k| k.0 == key) {
            k.1 = Some(default);
        }
        match taken {
            None => Ok(default),
            Some(v) => v
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| Error::BadParam {
                    name: key.to_owned(),
                    reason: format!("{v:?} is not a number"),
                }),
        }
    }

    /// A switch: a number parameter read as on (any number but 0) or off
    /// (0), or `default` when absent.
    pub fn switch(&mut self, key: &str, default: bool) -> Result<bool, Error> {
        Ok(self.f64(key, if default { 1.0 } else { 0.0 })? != 0.0)
    }

    /// Fails if a parameter was given that no one took.
    pub fn finish(&self, algorithm: &str) -> Result<(), Error> {
        match self.items.iter().find(|i| !i.2) {
            Some((k, _, _)) => Err(Error::BadParam {
                name: k.clone(),
                reason: if self.known.is_empty() {
                    format!("{algorithm} takes no parameters")
                } else {
                    let names: Vec<&str> = self.known.iter().map(|k| k.0.as_str()).collect();
                    format!(
                        "{algorithm} has no such parameter (it takes: {})",
                        names.join(", ")
                    )
                },
            }),
            None => Ok(()),
        }
    }
}

/// Population mean and standard deviation of `xs` (0, 0 when empty).
pub fn mean_std(xs: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let (mut n, mut sum) = (0usize, 0.0);
    for x in xs.clone() {
        n += 1;
        sum += x;
    }
    if n == 0 {
        return (0.0, 0.0);
    }
    let mean = sum / n as f64;
    let var = xs.map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
    (mean, var.sqrt())
}

/// The index of the largest value, the first on ties (document order).
pub fn argmax_first(values: impl Iterator<Item = f64>) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, v) in values.enumerate() {
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|(i, _)| i)
}

/// Helpers for the algorithms' unit tests.
#[cfg(test)]
pub(crate) mod testutil {
    use crate::annotate::{Page, annotate};
    use crate::dom::{Dom, NodeId, Tag};

    /// The annotated page of a parsed document's body.
    pub fn page_of(dom: &Dom) -> Page<'_> {
        annotate(dom, "", dom.body().expect("a body"))
    }

    /// `auto`'s blocks of `html` that a phase after the model leaves kept,
    /// as their first 12 characters: the blocks `kept_before` says yes to
    /// are kept, then `phase` runs over them.
    pub fn after_phase(
        html: &str,
        kept_before: impl Fn(&str) -> bool,
        phase: impl FnOnce(&Page<'_>, &crate::algorithms::auto::features::Blocks, &mut [bool]),
    ) -> Vec<String> {
        let dom = crate::parse::parse(html);
        let page = page_of(&dom);
        let vocab = crate::algorithms::auto::vocab::Vocabulary::new();
        let b = crate::algorithms::auto::features::blocks(&page, &vocab);
        let text = block_texts(&page, &b);
        let mut keep: Vec<bool> = text.iter().map(|t| kept_before(t)).collect();
        phase(&page, &b, &mut keep);
        text.into_iter()
            .zip(keep)
            .filter(|(_, k)| *k)
            .map(|(t, _)| t.chars().take(12).collect())
            .collect()
    }

    /// The texts of `auto`'s blocks of a page with this `body` that
    /// `phase` leaves kept when every block was kept before it.
    pub fn left_by_phase(
        body: &str,
        phase: impl FnOnce(&Page<'_>, &crate::algorithms::auto::features::Blocks, &mut [bool]) -> bool,
    ) -> Vec<String> {
        let dom = crate::parse::parse(&format!("<html><body>{body}</body></html>"));
        let page = page_of(&dom);
        let vocab = crate::algorithms::auto::vocab::Vocabulary::new();
        let b = crate::algorithms::auto::features::blocks(&page, &vocab);
        let mut keep = vec![true; b.nodes.len()];
        phase(&page, &b, &mut keep);
        block_texts(&page, &b)
            .into_iter()
            .zip(keep)
            .filter(|(_, k)| *k)
            .map(|(t, _)| t)
            .collect()
    }

    /// Each of `auto`'s blocks' own text, by block.
    pub fn block_texts(
        page: &Page<'_>,
        b: &crate::algorithms::auto::features::Blocks,
    ) -> Vec<String> {
        let mut text = vec![String::new(); b.nodes.len()];
        for (t, k) in page.texts.iter().zip(b.text_block.iter()) {
            text[k as usize].push_str(page.dom.text_of(t.node).unwrap_or(""));
        }
        text
    }

    /// The `nth` element with `tag` under the body, in document order.
    pub fn find(dom: &Dom, tag: Tag, nth: usize) -> NodeId {
        dom.descendants(dom.body().expect("a body"))
            .filter(|&n| dom.is(n, tag))
            .nth(nth)
            .expect("such an element")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn params_are_checked() {
        let given = vec![("lambda".to_owned(), "0.5".to_owned())];
        assert!(build(Method::CetdTpc, &given).is_ok());
        let bad = vec![("lambda".to_owned(), "x".to_owned())];
        assert!(matches!(
            build(Method::CetdTpc, &bad),
            Err(Error::BadParam { .. })
        ));
        let unknown = vec![("nope".to_owned(), "1".to_owned())];
        assert!(matches!(
            build(Method::CetdTpc, &unknown),
            Err(Error::BadParam { .. })
        ));
        let Err(e) = build(Method::CetdTpc, &unknown) else {
            panic!("an unknown parameter builds")
        };
        assert!(e.to_string().contains("it takes: lambda"), "{e}");
        assert_eq!(build(Method::default(), &[]).unwrap().name(), "auto");
    }

    #[test]
    fn documented_parameters_are_the_ones_taken() {
        for e in REGISTRY {
            let mut p = Params::new(&[]);
            (e.build)(&mut p).unwrap();
            let mut taken: Vec<&str> = p.known.iter().map(|k| k.0.as_str()).collect();
            let mut documented: Vec<&str> = (e.params)().iter().map(|d| d.name).collect();
            taken.sort_unstable();
            documented.sort_unstable();
            assert_eq!(taken, documented, "{}", e.name);
            // A number's documented default is the one the build uses
            // (model-dependent ones say so in words).
            for (k, default) in &p.known {
                let doc = (e.params)().iter().find(|d| d.name == k).unwrap();
                if let (Some(d), Ok(written)) = (default, doc.default.parse::<f64>()) {
                    // f32 defaults read back as f64 are off by up to
                    // ~1e-8 relative (0.1f32 is 0.10000000149).
                    assert!(
                        (d - written).abs() < 1e-6 * written.abs().max(1.0),
                        "{} {k}: {d} vs {written}",
                        e.name
                    );
                }
            }
        }
    }

    #[test]
    fn methods_by_name() {
        use std::str::FromStr;
        assert_eq!(Method::ALL.len(), REGISTRY.len());
        for (m, e) in Method::ALL.iter().zip(REGISTRY) {
            assert_eq!(m.name(), e.name);
            assert_eq!(Method::from_str(e.name).unwrap(), *m);
            assert_eq!(build(*m, &[]).unwrap().name(), e.name);
        }
        let e = Method::from_str("nope").unwrap_err();
        assert!(matches!(e, Error::UnknownAlgorithm(_)));
        assert!(e.to_string().contains("auto, cetd-tpc,"), "{e}");
    }

    #[test]
    fn stats_helpers() {
        let (m, s) = mean_std([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0].into_iter());
        assert_eq!((m, s), (5.0, 2.0));
        assert_eq!(argmax_first([1.0, 3.0, 3.0, 2.0].into_iter()), Some(1));
        assert_eq!(argmax_first(std::iter::empty()), None);
    }
}
