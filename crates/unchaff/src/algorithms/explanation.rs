//! [`Explanation`]: an algorithm's account of each block of a page
//! ([`super::Algorithm::explain`]), for the explanation report.

use super::auto::features::Blocks;

/// Why an algorithm kept or dropped each block of a page.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Explanation {
    /// The score from which a block is kept, when the algorithm has one.
    pub threshold: Option<f32>,
    /// The page's blocks as the algorithm segmented them (`auto`'s
    /// blocks, with their features), in reading order.
    pub blocks: Blocks,
    /// Each block's score: what the threshold is applied to.
    pub score: Vec<f32>,
    /// Each block's score after the first of two stages (`auto`'s block
    /// stage); empty for a one-stage algorithm.
    pub first_stage: Vec<f32>,
    /// Each block's reasons: stage by stage, the features that moved its
    /// score most (as many as asked), the largest move first (ties in
    /// feature order).
    pub reasons: Vec<Vec<Reason>>,
}

/// One feature's push on a block's score.
#[derive(Clone, Debug, PartialEq)]
pub struct Reason {
    /// The stage of the model (`auto`: `block`, the first model over the
    /// block's own features, or `context`, the second over its
    /// neighbours' probabilities).
    pub stage: &'static str,
    /// The feature's name.
    pub feature: &'static str,
    /// The block's value of the feature.
    pub value: f32,
    /// What the feature added to the margin (log-odds; > 0 towards
    /// content).
    pub contribution: f32,
}
