//! **Path clustering** — tag-path (XPath) clustering with trained
//! thresholds and per-site extraction templates (paper 3, ALGORITHMS.md#path-clustering).
//!
//! * Leaves are the counted text nodes ([`Page::texts`]), numbered in
//!   document order; leaves with the same tag path form a cluster.
//! * A cluster whose spans (gaps between consecutive leaf numbers) have a
//!   variance σ² > [`VARIANCE_SPLIT`] is cut wherever the ratio θ of two
//!   consecutive spans leaves [[`THETA_LOW`], [`THETA_HIGH`]], at the larger
//!   of the two spans.
//! * Each piece's **segment** is every leaf and element from its first to
//!   its last leaf. Length (characters, above U+00FF counted twice) and
//!   Cn = N_string / (N_link + N_string) × NODE_nohref / (NODE_href + 1)
//!   are computed over the segment from prefix sums: O(1) per cluster.
//! * Clusters are visited by decreasing Length; the first with more than
//!   [`MAXSIZE`] leaves, Length > Length_Threshold, Cn > Cn_Threshold and
//!   mean period ΔT > [`PRESPAN`] is the content; its segment is output.
//! * The segment is cut into chunks at `div`/`table` boundaries (a chunk is
//!   a run of leaves under the same nearest `div`/`table`, keyed by that
//!   container's tag path). With a template for the page's site (a
//!   [`Model`] trained `--per-site`), a chunk is kept when its key's
//!   frequency reaches the site's Frequency_Threshold; without one every
//!   chunk is kept.
//!
//! Cost: O(n log n) for the sort of the clusters, everything else O(n) in
//! the number of nodes.

mod model;

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use super::{Algorithm, Param, Params, Selection};
use crate::Error;
use crate::annotate::{Page, PathId};
use crate::dom::{DOCUMENT, NodeId, Tag};

pub use model::{Centres, MODEL_VERSION, Model};

/// σ² = 4: the span variance above which a cluster is examined for split
/// points. Paper 3 (ALGORITHMS.md#path-clustering) gives no value (ALGORITHMS.md#path-clustering fixes 4).
pub const VARIANCE_SPLIT: f64 = 4.0;

/// θ ∈ [0.85, 2]: the span ratios that do not split (paper 3 §2.3 (ALGORITHMS.md#path-clustering),
/// "实验表明当 θ ∈ [0.85, 2] 时可以得到较好的分割效果").
pub const THETA_LOW: f64 = 0.85;
/// Upper end of the θ range, paper 3 §2.3 (ALGORITHMS.md#path-clustering).
pub const THETA_HIGH: f64 = 2.0;

/// MAXSIZE = 1: a content cluster has more than one leaf. Paper 3 §2.4.1 (ALGORITHMS.md#path-clustering)
/// names MAXSIZE without a value; ALGORITHMS.md#path-clustering fixes 1.
pub const MAXSIZE: usize = 1;

/// PreSpan = 0: the mean period a content cluster must exceed. Paper 3 (ALGORITHMS.md#path-clustering)
/// §2.3 rule (2) names it without a value; ALGORITHMS.md#path-clustering fixes 0.
pub const PRESPAN: f64 = 0.0;

/// The default model, trained on the development data
/// (`unchaff train path-clustering ../shared/data --out
/// crates/unchaff/models/path-clustering.json`).
pub const DEFAULT_MODEL_JSON: &str = include_str!("../../models/path-clustering.json");

/// The path-clustering algorithm with its model.
#[derive(Clone, Debug)]
pub struct PathClustering {
    /// Thresholds and site templates.
    pub model: Model,
}

impl Default for PathClustering {
    fn default() -> Self {
        PathClustering {
            model: Model::default_model(),
        }
    }
}

/// The parameters (`unchaff algorithms --params`).
pub const PARAMS: &[Param] = &[
    Param {
        name: "model",
        default: "the built-in model",
        range: "a file",
        meaning: "thresholds and site templates trained with `unchaff train path-clustering` (JSON)",
    },
    Param {
        name: "length_threshold",
        default: "from the model",
        range: ">= 0",
        meaning: "text length above which a cluster can be content",
    },
    Param {
        name: "cn_threshold",
        default: "from the model",
        range: ">= 0",
        meaning: "number of text nodes above which a cluster can be content",
    },
];

pub(super) fn build(p: &mut Params) -> Result<Box<dyn Algorithm>, Error> {
    let mut model = match p.take("model") {
        Some(path) => Model::load(std::path::Path::new(&path))?,
        None => Model::default_model(),
    };
    model.length_threshold = p.f64("length_threshold", model.length_threshold)?;
    model.cn_threshold = p.f64("cn_threshold", model.cn_threshold)?;
    Ok(Box::new(PathClustering { model }))
}

/// Length of a text (paper 3 §2.2 (ALGORITHMS.md#path-clustering)): characters after white-space
/// collapsing, a character above U+00FF counting twice.
pub fn weighted_len(s: &str) -> u32 {
    let wide = s
        .chars()
        .filter(|&c| c > '\u{ff}' && !c.is_whitespace())
        .count() as u32;
    crate::annotate::collapsed_len(s) + wide
}

/// One cluster (or piece of a split cluster) with its segment statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cluster {
    /// The tag path shared by its leaves.
    pub path: PathId,
    /// Index (into [`Page::texts`]) of its first leaf.
    pub first: u32,
    /// Index of its last leaf.
    pub last: u32,
    /// Number of its leaves.
    pub size: u32,
    /// Mean period ΔT: mean span between consecutive leaves (0 for one).
    pub period: f64,
    /// Length of the segment.
    pub length: f64,
    /// Cn of the segment.
    pub cn: f64,
}

/// A run of segment leaves under the same nearest `div`/`table`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// First leaf index.
    pub first: u32,
    /// Last leaf index.
    pub last: u32,
    /// The container's tag path (the content root's when no `div`/`table`
    /// encloses the leaves).
    pub key: PathId,
}

/// The clusters and chunks of a page.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// The clusters after splitting, by decreasing Length (then document
    /// order).
    pub clusters: Vec<Cluster>,
    /// The page's chunks in document order (they partition the leaves).
    pub chunks: Vec<Chunk>,
}

/// Span ranges `[first, last]` (indices into `leaves`) of the pieces of one
/// path cluster after the split rule.
pub fn split_cluster(leaves: &[u32]) -> Vec<(usize, usize)> {
    let n = leaves.len();
    if n < 3 {
        return vec![(0, n.saturating_sub(1))];
    }
    let spans: Vec<f64> = leaves.windows(2).map(|w| f64::from(w[1] - w[0])).collect();
    let mean = spans.iter().sum::<f64>() / spans.len() as f64;
    let var = spans.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / spans.len() as f64;
    if var <= VARIANCE_SPLIT {
        return vec![(0, n - 1)];
    }
    // cut[j]: cut between leaves j and j + 1 (span j).
    let mut cut = vec![false; spans.len()];
    for j in 0..spans.len() - 1 {
        let theta = spans[j + 1] / spans[j];
        if !(THETA_LOW..=THETA_HIGH).contains(&theta) {
            // The larger of the two gaps is the boundary (first on ties).
            let at = if spans[j + 1] > spans[j] { j + 1 } else { j };
            cut[at] = true;
        }
    }
    let mut out = Vec::new();
    let mut start = 0;
    for (j, &c) in cut.iter().enumerate() {
        if c {
            out.push((start, j));
            start = j + 1;
        }
    }
    out.push((start, n - 1));
    out
}

/// Clusters, splits and measures a page's leaves; `lengths` are the leaves'
/// Lengths ([`leaf_lengths`]).
pub fn analyze(page: &Page<'_>, lengths: &[u32]) -> Analysis {
    let n = page.texts.len();
    if n == 0 {
        return Analysis::default();
    }
    // Prefix sums over leaves: Length, non-link and link characters.
    let mut len_pre = vec![0u64; n + 1];
    let mut str_pre = vec![0u64; n + 1];
    let mut link_pre = vec![0u64; n + 1];
    for (i, t) in page.texts.iter().enumerate() {
        len_pre[i + 1] = len_pre[i] + u64::from(lengths[i]);
        let (s, l) = if t.in_link {
            (0, t.chars)
        } else {
            (t.chars, 0)
        };
        str_pre[i + 1] = str_pre[i] + u64::from(s);
        link_pre[i + 1] = link_pre[i] + u64::from(l);
    }
    // Elements by the position of their first leaf (`text_begin`): an
    // element lies in the segment [a, b] when a ≤ text_begin ≤ b. Prefix
    // sums over positions 0..=n of elements with / without `href`.
    let mut href_pre = vec![0u64; n + 2];
    let mut nohref_pre = vec![0u64; n + 2];
    for &e in &page.elements {
        let pos = (page.stats(e).text_begin as usize).min(n);
        if page.dom.attr(e, "href").is_some() {
            href_pre[pos + 1] += 1;
        } else {
            nohref_pre[pos + 1] += 1;
        }
    }
    for i in 1..n + 2 {
        href_pre[i] += href_pre[i - 1];
        nohref_pre[i] += nohref_pre[i - 1];
    }
    let seg = |a: usize, b: usize| -> (f64, f64) {
        let length = (len_pre[b + 1] - len_pre[a]) as f64;
        let s = (str_pre[b + 1] - str_pre[a]) as f64;
        let l = (link_pre[b + 1] - link_pre[a]) as f64;
        let href = (href_pre[b + 1] - href_pre[a]) as f64;
        let nohref = (nohref_pre[b + 1] - nohref_pre[a]) as f64;
        let text_share = if s + l > 0.0 { s / (s + l) } else { 0.0 };
        (length, text_share * nohref / (href + 1.0))
    };

    // Group leaves by path, in document order.
    let mut by_path: FxHashMap<PathId, Vec<u32>> = FxHashMap::default();
    let mut order: Vec<PathId> = Vec::new();
    for (i, &t) in page.texts.iter().enumerate() {
        let path = page.text_path(t);
        by_path
            .entry(path)
            .or_insert_with(|| {
                order.push(path);
                Vec::new()
            })
            .push(i as u32);
    }
    let mut clusters = Vec::new();
    for path in order {
        let leaves = &by_path[&path];
        for (s, e) in split_cluster(leaves) {
            let (first, last) = (leaves[s], leaves[e]);
            let size = (e - s + 1) as u32;
            let period = if size > 1 {
                f64::from(last - first) / f64::from(size - 1)
            } else {
                0.0
            };
            let (length, cn) = seg(first as usize, last as usize);
            clusters.push(Cluster {
                path,
                first,
                last,
                size,
                period,
                length,
                cn,
            });
        }
    }
    clusters.sort_by(|a, b| b.length.total_cmp(&a.length).then(a.first.cmp(&b.first)));
    Analysis {
        clusters,
        chunks: chunks(page),
    }
}

/// The Length of every leaf, once.
pub fn leaf_lengths(page: &Page<'_>) -> Vec<u32> {
    page.texts
        .iter()
        .map(|t| page.dom.text_of(t.node).map_or(t.chars, weighted_len))
        .collect()
}

/// The page's chunks: runs of leaves with the same nearest `div`/`table`
/// ancestor (one pass over the elements, parents before children).
pub fn chunks(page: &Page<'_>) -> Vec<Chunk> {
    let dom = page.dom;
    let root_path = page.stats(page.root).path;
    // Nearest div/table ancestor-or-self of each element, by node index.
    let mut container = vec![NodeId::NONE; dom.len()];
    for &e in &page.elements {
        let tag = dom.tag(e);
        container[e.index()] = if matches!(tag, Some(Tag::DIV) | Some(Tag::TABLE)) {
            e
        } else if e == page.root {
            NodeId::NONE
        } else {
            container[dom.node(e).parent.index()]
        };
    }
    let mut out: Vec<Chunk> = Vec::new();
    let mut last_container = None;
    for (i, t) in page.texts.iter().enumerate() {
        let parent = dom.node(t.node).parent;
        let c = if parent.is_none() {
            NodeId::NONE
        } else {
            container[parent.index()]
        };
        let key = if c.is_none() {
            root_path
        } else {
            page.stats(c).path
        };
        match out.last_mut() {
            Some(ch) if last_container == Some(c) => ch.last = i as u32,
            _ => out.push(Chunk {
                first: i as u32,
                last: i as u32,
                key,
            }),
        }
        last_container = Some(c);
    }
    out
}

/// The content cluster: the first (by decreasing Length) that passes every
/// test; `None` when none does.
pub fn select_cluster(
    clusters: &[Cluster],
    length_threshold: f64,
    cn_threshold: f64,
) -> Option<&Cluster> {
    clusters.iter().find(|c| {
        c.size as usize > MAXSIZE
            && c.length > length_threshold
            && c.cn > cn_threshold
            && c.period > PRESPAN
    })
}

/// The chunks of `analysis` that overlap the segment `[first, last]`, cut
/// to it.
pub fn segment_chunks(analysis: &Analysis, first: u32, last: u32) -> Vec<Chunk> {
    let start = analysis.chunks.partition_point(|c| c.last < first);
    analysis.chunks[start..]
        .iter()
        .take_while(|c| c.first <= last)
        .map(|c| Chunk {
            first: c.first.max(first),
            last: c.last.min(last),
            key: c.key,
        })
        .collect()
}

/// The site of a page: the host of [`Page::url`], else of the page's
/// `<link rel=canonical>` or `<meta property=og:url>`; lower-cased, a
/// leading `www.` dropped.
pub fn page_site(page: &Page<'_>) -> Option<String> {
    if let Some(h) = page.url.and_then(host_of) {
        return Some(h);
    }
    let dom = page.dom;
    let html = dom.child_element(DOCUMENT, Tag::HTML)?;
    let head = dom.child_element(html, Tag::HEAD)?;
    for c in dom.children(head) {
        let url = match dom.tag(c) {
            Some(Tag::LINK)
                if dom
                    .attr(c, "rel")
                    .is_some_and(|r| r.eq_ignore_ascii_case("canonical")) =>
            {
                dom.attr(c, "href")
            }
            Some(Tag::META) if dom.attr(c, "property") == Some("og:url") => dom.attr(c, "content"),
            _ => None,
        };
        if let Some(h) = url.and_then(host_of) {
            return Some(h);
        }
    }
    None
}

/// The normalised host of an absolute URL (`https://www.Example.org/a` →
/// `example.org`); a bare host (`www.example.org`) is taken as it is.
pub fn host_of(url: &str) -> Option<String> {
    let rest = url.trim();
    let rest = match rest.find("://") {
        Some(i) => &rest[i + 3..],
        None if rest.starts_with("//") => &rest[2..],
        None if !rest.contains('/') && rest.contains('.') => rest,
        None => return None,
    };
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit('@').next()?;
    let host = host.split(':').next()?.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_owned();
    if host.is_empty() { None } else { Some(host) }
}

/// The tag path of a chunk key as text (`html/body/div`).
pub fn key_name(page: &Page<'_>, key: PathId) -> String {
    page.paths.to_string(page.dom, key)
}

impl PathClustering {
    /// The selected leaves' indices (into [`Page::texts`]).
    pub fn selected_leaves(&self, page: &Page<'_>) -> Vec<usize> {
        let lengths = leaf_lengths(page);
        let analysis = analyze(page, &lengths);
        let Some(c) = select_cluster(
            &analysis.clusters,
            self.model.length_threshold,
            self.model.cn_threshold,
        ) else {
            return Vec::new();
        };
        let chunks = segment_chunks(&analysis, c.first, c.last);
        let template = page_site(page).and_then(|s| self.model.sites.get(&s));
        let kept: Vec<&Chunk> = match template {
            None => chunks.iter().collect(),
            Some(freqs) => {
                let threshold = site_threshold(freqs);
                let mut names: BTreeMap<PathId, String> = BTreeMap::new();
                let kept: Vec<&Chunk> = chunks
                    .iter()
                    .filter(|ch| {
                        let name = names
                            .entry(ch.key)
                            .or_insert_with(|| key_name(page, ch.key));
                        freqs
                            .get(name.as_str())
                            .is_some_and(|&f| f64::from(f) >= threshold)
                    })
                    .collect();
                // A template that matches nothing of this page is stale
                // (the site changed its layout): keep the whole segment.
                if kept.is_empty() {
                    chunks.iter().collect()
                } else {
                    kept
                }
            }
        };
        kept.iter()
            .flat_map(|ch| ch.first as usize..=ch.last as usize)
            .collect()
    }
}

/// A site's Frequency_Threshold: the arithmetic mean of its chunk-key
/// frequencies (paper 3 §2.5 (ALGORITHMS.md#training-path-clustering): "frequency … 本文用算数平均值求解").
pub fn site_threshold(freqs: &BTreeMap<String, u32>) -> f64 {
    if freqs.is_empty() {
        return 0.0;
    }
    freqs.values().map(|&f| f64::from(f)).sum::<f64>() / freqs.len() as f64
}

impl Algorithm for PathClustering {
    fn reads_source(&self) -> bool {
        false
    }

    fn name(&self) -> &'static str {
        "path-clustering"
    }

    fn run(&self, page: &Page<'_>) -> Selection {
        let leaves = self.selected_leaves(page);
        let mut scores = vec![0f32; page.dom.len()];
        let nodes = leaves
            .into_iter()
            .map(|i| {
                let node = page.texts[i].node;
                scores[node.index()] = 1.0;
                node
            })
            .collect();
        Selection {
            nodes,
            scores,
            text: None,
            ..Selection::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::page_of;
    use crate::dom::Dom;
    use crate::parse::parse;

    fn with_thresholds(length: f64, cn: f64) -> PathClustering {
        let mut model = Model::default_model();
        model.length_threshold = length;
        model.cn_threshold = cn;
        PathClustering { model }
    }

    fn texts(dom: &Dom, sel: &Selection) -> Vec<String> {
        sel.nodes
            .iter()
            .map(|&n| dom.text_of(n).unwrap().to_owned())
            .collect()
    }

    #[test]
    fn regular_spacing_is_not_split() {
        // Spans 3, 3, 3, 3: σ² = 0 ≤ 4.
        assert_eq!(split_cluster(&[0, 3, 6, 9, 12]), vec![(0, 4)]);
        // Spans 2, 4, 8, 16: mean 7.5, σ² = (30.25 + 12.25 + 0.25 + 72.25)/4
        // = 28.75 > 4, but every θ = 2 lies in [0.85, 2]: no cut.
        assert_eq!(split_cluster(&[0, 2, 6, 14, 30]), vec![(0, 4)]);
        assert_eq!(split_cluster(&[5]), vec![(0, 0)]);
        assert_eq!(split_cluster(&[5, 90]), vec![(0, 1)]);
    }

    #[test]
    fn a_gap_is_split_exactly_there() {
        // Spans 2, 2, 2, 24, 2, 2: mean 34/6 = 5.67, σ² = (5·3.67² +
        // 18.33²)/6 = 67.2 > 4. θ = 24/2 = 12 and 2/24 = 0.083 are out of
        // range; both pairs share the larger gap, span 3 (leaves 6 → 30).
        assert_eq!(
            split_cluster(&[0, 2, 4, 6, 30, 32, 34]),
            vec![(0, 3), (4, 6)]
        );
    }

    #[test]
    fn cn_of_links_and_of_paragraphs() {
        let dom = parse(
            "<ul><li><a href=/a>aaaa</a></li><li><a href=/b>bbbb</a></li><li><a href=/c>cccc</a></li></ul>\
             <div><p>xxxxxxxxxx</p><p>yyyyyyyyyy</p><p>zzzzzzzzzz</p></div>",
        );
        let page = page_of(&dom);
        let a = analyze(&page, &leaf_lengths(&page));
        let links = a.clusters.iter().find(|c| c.first == 0).unwrap();
        let paras = a.clusters.iter().find(|c| c.first == 3).unwrap();
        // Link list, leaves 0..=2: N_string = 0, so Cn = 0; Length 12.
        // (Its segment's elements: body ul li a li a li a — 3 with href.)
        assert_eq!((links.size, links.length, links.cn), (3, 12.0, 0.0));
        // Paragraphs, leaves 3..=5: N_string = 30, N_link = 0; elements
        // div p p p, none with href: Cn = 30/30 × 4/(0 + 1) = 4.
        assert_eq!((paras.size, paras.length, paras.cn), (3, 30.0, 4.0));
        assert_eq!(paras.period, 1.0);
        // Sorted by Length: the paragraphs first.
        assert_eq!(a.clusters[0], *paras);
    }

    #[test]
    fn selection_prefers_the_article_over_the_navigation() {
        // Navigation: 10 links of 20 characters (Length 200, Cn 0);
        // article: 3 paragraphs of 50 (Length 150, Cn = 1 × 4/1 = 4).
        let nav: String = (0..10)
            .map(|i| format!("<li><a href=/{i}>{}</a></li>", "n".repeat(20)))
            .collect();
        let para = "w".repeat(50);
        let html = format!(
            "<ul>{nav}</ul><div><p>{para}</p><p>{para}</p><p>{para}</p></div><p>footer</p>"
        );
        let dom = parse(&html);
        let page = page_of(&dom);
        let a = analyze(&page, &leaf_lengths(&page));
        assert_eq!(a.clusters[0].length, 200.0); // the navigation comes first
        let sel = with_thresholds(100.0, 1.0).run(&page);
        assert_eq!(texts(&dom, &sel), vec![para.clone(), para.clone(), para]);
        // A Length threshold above 150 leaves no content cluster.
        assert!(with_thresholds(160.0, 1.0).run(&page).nodes.is_empty());
    }

    #[test]
    fn lengths_count_wide_characters_twice() {
        assert_eq!(weighted_len(" ab  中文 "), 2 + 1 + 2 * 2);
        assert_eq!(weighted_len("é"), 1);
    }

    #[test]
    fn site_templates_keep_frequent_chunks() {
        // The p cluster (leaves 0, 3, 4; spans 3, 1: σ² = 1) spans the
        // segment 0..=4, cut into chunks by the div boundaries: [0] under
        // html/body/div, [1, 2] under html/body/div/div, [3, 4] under
        // html/body/div again. Segment Cn = 1 × 8/(0 + 1) = 8 (body div p
        // div span span p p, no href).
        let p = "q".repeat(40);
        let html = format!(
            "<head><link rel=canonical href='https://www.Example.org/x'></head><body>\
             <div><p>{p}</p><div><span>x</span><span>y</span></div><p>{p}</p><p>{p}</p></div>"
        );
        let dom = parse(&html);
        let page = page_of(&dom);
        assert_eq!(page_site(&page).as_deref(), Some("example.org"));
        let mut pc = with_thresholds(10.0, 0.5);
        assert_eq!(pc.run(&page).nodes.len(), 5); // no template: all chunks
        let mut t = BTreeMap::new();
        t.insert("html/body/div".to_owned(), 3);
        t.insert("html/body/div/div".to_owned(), 1); // mean 2: dropped
        pc.model.sites.insert("example.org".to_owned(), t);
        assert_eq!(texts(&dom, &pc.run(&page)), vec![p.clone(), p.clone(), p]);
    }

    #[test]
    fn hosts() {
        assert_eq!(
            host_of("https://www.BBC.co.uk:443/news?x").as_deref(),
            Some("bbc.co.uk")
        );
        assert_eq!(host_of("www.express.gr").as_deref(), Some("express.gr"));
        assert_eq!(host_of("/relative/path"), None);
    }

    #[test]
    fn models_load_or_fail_clearly() {
        let m = Model::from_json(DEFAULT_MODEL_JSON).unwrap();
        assert!(m.length_threshold > 0.0 && m.cn_threshold > 0.0);
        assert!(matches!(Model::from_json("{"), Err(Error::Model(_))));
        let v2 = m.to_json().replace("\"version\": 1", "\"version\": 2");
        assert!(matches!(Model::from_json(&v2), Err(Error::Model(_))));
        assert_eq!(Model::from_json(&m.to_json()).unwrap(), m);
        let missing = vec![("model".to_owned(), "/nonexistent/model.json".to_owned())];
        let err = crate::algorithms::build("path-clustering".parse().unwrap(), &missing)
            .err()
            .unwrap();
        assert!(matches!(err, Error::Model(_)), "{err}");
    }

    #[test]
    fn large_page_is_linear() {
        // 20,000 paragraphs and 2,000 links (~1 MB): must run in well
        // under a second in release.
        let mut html = String::from("<div>");
        for i in 0..20_000 {
            html.push_str(&format!(
                "<p>Paragraph {i} with some words of text in it.</p>"
            ));
            if i % 10 == 0 {
                html.push_str(&format!("<a href=/{i}>l{i}</a>"));
            }
        }
        html.push_str("</div>");
        let dom = parse(&html);
        let page = page_of(&dom);
        let t = std::time::Instant::now();
        let sel = PathClustering::default().run(&page);
        eprintln!("20,000 paragraphs: {:?}", t.elapsed());
        assert!(sel.nodes.len() >= 20_000);
    }
}
