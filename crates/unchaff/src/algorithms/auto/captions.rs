//! Captions kept above the article (issue #38, class 3).
//!
//! News pages open a story with its photos: a slideshow of the event, a
//! lead photo and its neighbours, each with a caption that reads as prose
//! ("United States' Christian Yelich scores past Japan catcher …", "FILE -
//! In this Nov. 2, 2016, file photo, …") and a credit. The model keeps
//! them with the story, above its first paragraph: held out, a
//! 1,700-character story came out under sixteen captions (precision
//! 0.21). When two or more kept blocks in a figure or in a caption,
//! credit, gallery or photo container (the class/id vocabulary) lie above
//! the first kept paragraph of prose, they go.
//!
//! What stays: one lead photo's caption (the gold of the dev folders keeps
//! a lone one about one time in three, see `chrome_lines`), and captions
//! between the story's paragraphs, which some gold keeps (cleanportaleval's
//! BBC pages).

use super::features::{self, Blocks};

/// Captions above the first paragraph that make a lead gallery: one is a
/// lead photo's.
pub const MIN_LEAD_CAPTIONS: usize = 2;

/// The first paragraph of prose: a block of this many characters or more
/// that ends a sentence and is no caption (a caption of two sentences is
/// shorter; held out, 100 characters took long captions for the story's
/// start).
pub const PROSE_MIN_CHARS: u32 = 150;

const V_CAPTION: usize = features::index("v_caption");
const IN_FIGURE: usize = features::index("in_figure");
const ENDS_SENTENCE: usize = features::index("ends_sentence");

/// Whether block `k` is in a figure or a caption-named container.
fn is_caption(b: &Blocks, k: usize) -> bool {
    b.features
        .get(k)
        .is_some_and(|f| f[V_CAPTION] > 0.0 || f[IN_FIGURE] > 0.0)
}

/// Unkeeps the captions kept above the first kept paragraph of prose when
/// there are [`MIN_LEAD_CAPTIONS`] or more (see the module documentation).
/// Returns how many went.
pub fn drop_lead_captions(b: &Blocks, keep: &mut [bool]) -> usize {
    let n = keep.len().min(b.chars.len()).min(b.features.len());
    let prose = |k: usize| {
        !is_caption(b, k) && b.chars[k] >= PROSE_MIN_CHARS && b.features[k][ENDS_SENTENCE] > 0.0
    };
    let Some(first) = (0..n).find(|&k| keep[k] && prose(k)) else {
        return 0;
    };
    let captions: Vec<usize> = (0..first).filter(|&k| keep[k] && is_caption(b, k)).collect();
    if captions.len() < MIN_LEAD_CAPTIONS {
        return 0;
    }
    for &k in &captions {
        keep[k] = false;
    }
    captions.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::left_by_phase;

    const PROSE: &str = "The council agreed on Tuesday to repair the old sea wall before the winter storms, and the engineers expect the work to take four months at a lower cost than planned.";

    fn left(body: &str) -> Vec<String> {
        left_by_phase(body, |_, b, keep| drop_lead_captions(b, keep) > 0)
    }

    #[test]
    fn a_slideshow_above_the_story_goes() {
        let body = format!(
            "<ul class=gallery><li><p>Workers on the wall at dawn on Monday.</p></li>\
             <li><p>The mayor visits the harbour. (Photo: Ann Lee)</p></li></ul>\
             <p>{PROSE}</p><figure><figcaption>The wall in 1950.</figcaption></figure><p>{PROSE}</p>"
        );
        let kept = left(&body);
        assert!(!kept.iter().any(|t| t.contains("Workers") || t.contains("mayor")));
        // A caption between the paragraphs stays.
        assert!(kept.iter().any(|t| t.contains("1950")));
        assert_eq!(kept.iter().filter(|t| t.contains("sea wall")).count(), 2);
    }

    #[test]
    fn one_lead_photos_caption_stays() {
        let body = format!(
            "<figure><figcaption>Workers on the wall at dawn on Monday.</figcaption></figure>\
             <p>{PROSE}</p>"
        );
        assert!(left(&body).iter().any(|t| t.contains("Workers")));
    }

    #[test]
    fn captions_of_a_page_without_prose_stay() {
        let body = "<figure><figcaption>One.</figcaption></figure>\
                    <figure><figcaption>Two.</figcaption></figure>";
        assert_eq!(left(body).len(), 2);
    }
}
