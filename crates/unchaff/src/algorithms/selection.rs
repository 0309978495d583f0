//! [`Selection`]: what an algorithm chose, the one thing every algorithm
//! returns and the renderers read.

use crate::dom::NodeId;

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
    /// The page's comment prose that is not content, as `nodes` are, in
    /// document order (`auto`; empty for the others): what
    /// [`crate::Extraction::comments`] is made of.
    pub comments: Vec<NodeId>,
    /// The page-level signals of the extraction's confidence
    /// ([`crate::confidence`]), for an algorithm that has its own
    /// (`auto`); `None`: the extractor reads the selection's
    /// ([`crate::confidence::generic_signals`]).
    pub confidence: Option<crate::confidence::AutoSignals>,
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
