//! How much to trust an extraction: [`crate::Extraction::confidence`].
//!
//! **Unstable** ([`Signals`] and the weights): public for the tools of
//! the unchaff workspace.
//!
//! The confidence is an estimate of the page's shingle F1 against what a
//! person would call its main content (the measure of ALGORITHMS.md#shingle-f1, 0 to 1): a
//! logistic function of a few page-level signals of the selection,
//! fitted to the F1 the extractions really had on the twelve dev folders.
//! It is *calibrated*: of the pages given about 0.8, the mean F1 is
//! about 0.8. `docs/RESULTS.md` has the reliability table, measured
//! honestly: `auto`'s signals come from models that never saw the page's
//! folder (leave-one-folder-out), and the weights of each folder's
//! figures were fitted on the other eleven folders
//! (`scripts/fit_confidence.py`, from `unchaff eval --pages`).
//!
//! * For `auto` ([`AutoSignals`]): how sure the model was of what it kept
//!   and of what it dropped, how much of the page was borderline, how
//!   much text it kept and whether it had to fall back.
//! * For every other algorithm, and for `--include` selections
//!   ([`GenericSignals`]): the selection's size, its share of the page's
//!   text and its share of link text. These weights were fitted on
//!   `cetd-tpc`'s extractions; for the other algorithms the number is the
//!   same heuristic, not calibrated for them.

use serde::Serialize;

/// `auto`'s page-level signals (`AUTO_NAMES` order).
pub type AutoSignals = [f32; AUTO_N];

/// The signals of any selection (`GENERIC_NAMES` order).
pub type GenericSignals = [f32; GENERIC_N];

/// Number of [`AutoSignals`].
pub const AUTO_N: usize = AUTO_NAMES.len();

/// Number of [`GenericSignals`].
pub const GENERIC_N: usize = GENERIC_NAMES.len();

/// What each of [`AutoSignals`] is.
pub const AUTO_NAMES: [&str; 7] = [
    // Mean probability of the kept blocks, weighted by their characters.
    "kept_p",
    // Mean probability of the dropped blocks, weighted alike.
    "dropped_p",
    // Share of the page's characters in blocks the model was unsure of
    // (probability between BORDER_LOW and BORDER_HIGH).
    "borderline",
    // ln(1 + characters kept).
    "log_kept",
    // Share of the page's characters kept.
    "kept_share",
    // 1 when the relaxed selection was taken (the model kept little).
    "relaxed",
    // 1 when CETD-TPC's block was taken (the last resort).
    "last_resort",
];

/// What each of [`GenericSignals`] is.
pub const GENERIC_NAMES: [&str; 3] = [
    // ln(1 + characters of the text).
    "log_kept",
    // The text's share of the page's characters.
    "kept_share",
    // Share of the selection's characters in links.
    "link_share",
];

/// A block's probability above this and below [`BORDER_HIGH`] is one the
/// model was unsure of: the middle fifth of the scale around the
/// threshold's usual 0.5, where held out a block is as often right as
/// wrong.
pub const BORDER_LOW: f32 = 0.3;

/// See [`BORDER_LOW`].
pub const BORDER_HIGH: f32 = 0.7;

/// The page-level signals an extraction's confidence came from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(tag = "kind", content = "values", rename_all = "lowercase")]
pub enum Signals {
    /// No confidence was computed (never the case of a finished
    /// extraction).
    #[default]
    None,
    /// `auto`'s.
    Auto(AutoSignals),
    /// Any other selection's.
    Generic(GenericSignals),
}

/// Terms the auto weights apply to: the signals, then the curves of
/// [`expand_auto`].
pub const AUTO_TERMS: usize = AUTO_N + 6;

/// Terms the generic weights apply to ([`expand_generic`]).
pub const GENERIC_TERMS: usize = GENERIC_N + 4;

/// The logistic weights of [`expand_auto`]'s terms, then the intercept;
/// fitted by `scripts/fit_confidence.py` on the held-out (LOFO)
/// extractions of the twelve dev folders (5,900 pages, each folder
/// weighing the same).
pub const AUTO_WEIGHTS: [f32; AUTO_TERMS + 1] = [
    0.0982, -1.6613, -1.8806, 0.1848, 1.0529, 0.4783, 0.9725, 3.3401, -0.2595, 0.3276, 2.0336,
    -1.9564, 2.1636, -2.0273,
];

/// The logistic weights of [`expand_generic`]'s terms, then the
/// intercept; fitted by `scripts/fit_confidence.py` on `cetd-tpc`'s
/// extractions of the twelve dev folders.
pub const GENERIC_WEIGHTS: [f32; GENERIC_TERMS + 1] = [
    0.9920, 4.9129, -6.8138, -2.2251, 1.5463, 2.5458, -3.6612, -2.6866,
];

/// `auto`'s signals and the curves the fit found them to need: how sure
/// of the kept blocks squared (a page the model is sure of throughout
/// is surer than the mean says), the kept share squared, whether nothing
/// was kept, and the relaxed selection's kept share, size and certainty
/// (a relaxed selection that still took much of the page, surely, is
/// mostly right). `scripts/fit_confidence.py` computes the same terms.
pub fn expand_auto(x: &AutoSignals) -> [f32; AUTO_TERMS] {
    let [kp, _dp, _bl, lk, ks, rel, _lr] = *x;
    let mut t = [0.0; AUTO_TERMS];
    t[..AUTO_N].copy_from_slice(x);
    t[AUTO_N..].copy_from_slice(&[
        kp * kp,
        ks * ks,
        if lk == 0.0 { 1.0 } else { 0.0 },
        rel * ks,
        rel * lk / 7.0,
        rel * kp,
    ]);
    t
}

/// The generic signals and their curves: the text's share squared,
/// whether the text is empty, the link share squared and the size
/// squared (scaled).
pub fn expand_generic(x: &GenericSignals) -> [f32; GENERIC_TERMS] {
    let [lk, ks, ls] = *x;
    [
        lk,
        ks,
        ls,
        ks * ks,
        if lk == 0.0 { 1.0 } else { 0.0 },
        ls * ls,
        lk * lk / 50.0,
    ]
}

/// The confidence of signals: a number from 0 to 1 (0 for
/// [`Signals::None`]).
pub fn confidence(s: &Signals) -> f32 {
    match s {
        Signals::None => 0.0,
        Signals::Auto(x) => logistic(&expand_auto(x), &AUTO_WEIGHTS),
        Signals::Generic(x) => logistic(&expand_generic(x), &GENERIC_WEIGHTS),
    }
}

/// Decimals the confidence is rounded to: far finer than it can be
/// trusted, and coarse enough that the platform's `exp` and `ln` (the
/// WebAssembly build's are not the native ones, a last bit apart) give
/// the same number everywhere.
pub const DECIMALS: i32 = 4;

fn logistic(x: &[f32], w: &[f32]) -> f32 {
    let (bias, w) = w.split_last().expect("weights end with the intercept");
    let m: f64 = x
        .iter()
        .zip(w)
        .map(|(a, b)| f64::from(*a) * f64::from(*b))
        .sum::<f64>()
        + f64::from(*bias);
    let p = 1.0 / (1.0 + (-m).exp());
    let scale = 10f64.powi(DECIMALS);
    match p.is_finite() {
        true => ((p * scale).round() / scale) as f32,
        false => 0.0,
    }
}

/// The signals of any selection: the rendered text's characters
/// (`text_chars`, white space excluded), the page's, and the selection's
/// characters and link characters (as [`crate::annotate::NodeStats`]
/// counts them).
pub fn generic_signals(
    text_chars: u32,
    page_chars: u32,
    sel_chars: u32,
    sel_link_chars: u32,
) -> Signals {
    let share = |a: u32, b: u32| {
        if b == 0 {
            0.0
        } else {
            (a as f32 / b as f32).min(1.0)
        }
    };
    Signals::Generic([
        (1.0 + text_chars as f32).ln(),
        share(text_chars, page_chars),
        share(sel_link_chars, sel_chars),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_and_surer_text_is_trusted_more() {
        let sure = Signals::Auto([0.95, 0.02, 0.01, 8.0, 0.6, 0.0, 0.0]);
        let unsure = Signals::Auto([0.6, 0.2, 0.4, 8.0, 0.6, 0.0, 0.0]);
        // Nothing kept, the model sure the page held nothing.
        let empty = Signals::Auto([0.0, 0.1, 0.0, 0.0, 0.0, 0.0, 0.0]);
        let (a, b, c) = (confidence(&sure), confidence(&unsure), confidence(&empty));
        assert!(a > b && a > c, "{a} {b} {c}");
        for v in [a, b, c] {
            assert!((0.0..=1.0).contains(&v));
        }
        let long = generic_signals(3000, 5000, 3000, 100);
        let links = generic_signals(3000, 5000, 3000, 2500);
        let none = generic_signals(0, 5000, 0, 0);
        assert!(confidence(&long) > confidence(&links));
        assert!(confidence(&long) > confidence(&none));
        assert_eq!(confidence(&Signals::None), 0.0);
        // Rounded, so that every platform writes the same number.
        let v = f64::from(confidence(&long)) * 10f64.powi(DECIMALS);
        assert!((v - v.round()).abs() < 1e-3, "{v}");
    }
}
