//! Stage 5, **score** and **select**: the extraction algorithms.
//!
//! Each algorithm is one module implementing [`Algorithm`]: it reads the
//! shared per-node statistics of an annotated [`Page`] and returns a
//! [`Selection`] — the chosen nodes and, for the explain view, a score per
//! node. Adding an algorithm is one file here plus one line in [`REGISTRY`].

use crate::Error;
use crate::annotate::Page;
use crate::dom::NodeId;

pub mod auto;
pub mod cc;
pub mod cepr;
pub mod cetd;
pub mod cetd_tpc;
pub mod cetr;
pub mod path_clustering;
pub mod template_svm;
pub mod text_distribution;

/// What an algorithm chose.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selection {
    /// The selected nodes; each stands for its whole subtree. Render
    /// outputs their union in document order, every text once.
    pub nodes: Vec<NodeId>,
    /// A score per node index (`scores[id.index()]`), in the algorithm's
    /// own unit; empty when the algorithm has no per-node score.
    pub scores: Vec<f32>,
    /// The extracted text itself, overriding `nodes`: algorithms that work
    /// on source lines (CETR) produce their text directly, since a source
    /// line does not map onto DOM nodes. `None` for tree algorithms.
    pub text: Option<String>,
}

impl Selection {
    /// A flag per node index (`len` = the DOM's node count): whether the
    /// node is selected itself. Renderers walk the tree once and count how
    /// many marked nodes they are inside.
    pub fn marks(&self, len: usize) -> Vec<bool> {
        let mut marked = vec![false; len];
        for n in &self.nodes {
            if let Some(m) = marked.get_mut(n.index()) {
                *m = true;
            }
        }
        marked
    }
}

/// A content-extraction algorithm over an annotated page.
pub trait Algorithm: Send + Sync {
    /// The name users pass to `--algorithm`.
    fn name(&self) -> &'static str;
    /// Scores the page and selects its content.
    fn run(&self, page: &Page<'_>) -> Selection;
    /// A site template library the extractor should apply before this
    /// algorithm runs (paper 5's `templates=FILE`); none by default.
    fn templates(&self) -> Option<&std::path::Path> {
        None
    }
}

/// A registered algorithm: its name, one line for `unchaff algorithms`,
/// and how to build it from parameters.
pub struct Entry {
    /// The name users pass to `--algorithm`.
    pub name: &'static str,
    /// One line: what it is and where it comes from.
    pub summary: &'static str,
    /// Builds the algorithm; fails on an unknown or malformed parameter.
    pub build: fn(&mut Params) -> Result<Box<dyn Algorithm>, Error>,
}

/// Every algorithm unchaff ships, the default first.
pub const REGISTRY: &[Entry] = &[
    Entry {
        name: "auto",
        summary: "two-stage boosted-tree block classifier over the seed signals and structural cues",
        build: auto::build,
    },
    Entry {
        name: "cetd-tpc",
        summary: "text block density x tag path coverage (paper 1, SPEC §2)",
        build: cetd_tpc::build,
    },
    Entry {
        name: "cetd-tpc-pagewide",
        summary: "cetd-tpc with paper 1's page-wide reading of path coverage (for comparison)",
        build: cetd_tpc::build_pagewide,
    },
    Entry {
        name: "path-clustering",
        summary: "tag-path clustering, trained thresholds, site templates (paper 3, SPEC §4)",
        build: path_clustering::build,
    },
    Entry {
        name: "text-distribution",
        summary: "Gaussian-smoothed sentence and node weights, largest self weight (paper 4, SPEC §5)",
        build: text_distribution::build,
    },
    Entry {
        name: "template-svm",
        summary: "site templates + RBF-kernel SVM over block features R1-R5 (paper 5, SPEC §6)",
        build: template_svm::build,
    },
    Entry {
        name: "cc",
        summary: "content correlativity with promotion/demotion smoothing (paper 2, SPEC §3)",
        build: cc::build,
    },
    Entry {
        name: "cetd",
        summary: "composite text density + DensitySum (Sun et al., SIGIR 2011; reference)",
        build: cetd::build,
    },
    Entry {
        name: "cetd-td",
        summary: "cetd with simple text density C'/T (reference)",
        build: cetd::build_td,
    },
    Entry {
        name: "cepr",
        summary: "tag path ratio x dispersion, path-aware Gaussian smoothing (Wu et al., CIKM 2013; reference)",
        build: cepr::build,
    },
    Entry {
        name: "cepr-tpr",
        summary: "cepr with plain text-to-tag-path ratios, no smoothing (reference)",
        build: cepr::build_tpr,
    },
    Entry {
        name: "cetr",
        summary: "text-to-tag ratio of source lines, 2-D k-means (Weninger et al., WWW 2010; reference)",
        build: cetr::build,
    },
    Entry {
        name: "cetr-km",
        summary: "cetr with 1-D k-means on the smoothed ratios (reference)",
        build: cetr::build_km,
    },
    Entry {
        name: "cetr-tm",
        summary: "cetr with the threshold T' > lambda * sigma (reference)",
        build: cetr::build_tm,
    },
];

/// The algorithm used when none is named.
pub const DEFAULT: &str = "auto";

/// Builds the algorithm called `name` ("auto" is the default) with `params`.
pub fn build(name: &str, params: &[(String, String)]) -> Result<Box<dyn Algorithm>, Error> {
    let entry = REGISTRY
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| Error::UnknownAlgorithm(name.to_owned()))?;
    let mut p = Params::new(params);
    let alg = (entry.build)(&mut p)?;
    p.finish(name)?;
    Ok(alg)
}

/// Algorithm parameters given as `key=value` (`--param lambda=0.3`); each
/// algorithm takes the ones it knows, and any left over is an error.
#[derive(Debug)]
pub struct Params {
    items: Vec<(String, String, bool)>,
}

impl Params {
    /// Wraps `key=value` pairs.
    pub fn new(items: &[(String, String)]) -> Params {
        Params {
            items: items
                .iter()
                .map(|(k, v)| (k.clone(), v.clone(), false))
                .collect(),
        }
    }

    /// The raw value of `key`, marking it used.
    pub fn take(&mut self, key: &str) -> Option<String> {
        let mut found = None;
        for item in self.items.iter_mut().filter(|i| i.0 == key) {
            item.2 = true;
            found = Some(item.1.clone());
        }
        found
    }

    /// A number parameter, or `default` when absent.
    pub fn f64(&mut self, key: &str, default: f64) -> Result<f64, Error> {
        match self.take(key) {
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

    /// Fails if a parameter was given that no one took.
    pub fn finish(&self, algorithm: &str) -> Result<(), Error> {
        match self.items.iter().find(|i| !i.2) {
            Some((k, _, _)) => Err(Error::BadParam {
                name: k.clone(),
                reason: format!("{algorithm} has no such parameter"),
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
        assert!(build("cetd-tpc", &given).is_ok());
        let bad = vec![("lambda".to_owned(), "x".to_owned())];
        assert!(matches!(
            build("cetd-tpc", &bad),
            Err(Error::BadParam { .. })
        ));
        let unknown = vec![("nope".to_owned(), "1".to_owned())];
        assert!(matches!(
            build("cetd-tpc", &unknown),
            Err(Error::BadParam { .. })
        ));
        assert!(matches!(
            build("nope", &[]),
            Err(Error::UnknownAlgorithm(_))
        ));
        assert_eq!(build("auto", &[]).unwrap().name(), DEFAULT);
    }

    #[test]
    fn stats_helpers() {
        let (m, s) = mean_std([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0].into_iter());
        assert_eq!((m, s), (5.0, 2.0));
        assert_eq!(argmax_first([1.0, 3.0, 3.0, 2.0].into_iter()), Some(1));
        assert_eq!(argmax_first(std::iter::empty()), None);
    }
}
