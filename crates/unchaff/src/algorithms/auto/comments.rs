//! Comments under an article are not its content.
//!
//! The first stage knows a comment by its container's name (`comment`,
//! `reply`, `discussion`…), but the context stage sees a long thread as a
//! large region of prose whose blocks repeat as records, which is what
//! content looks like: held out, dragnet's articles with long threads
//! came out with the whole thread (precision under 0.1). This phase
//! settles it after the model: when the page has an article (kept text
//! outside comment containers), the blocks inside comment containers go.
//!
//! A forum thread looks the same from outside: its first post outside a
//! `reply` container, the replies inside. What tells them apart is that
//! the replies of a thread are written like its first post (the same
//! post container: XenForo's `bbWrapper`, phpBB's `postbody`), while an
//! article's body and its comments are not. So comment blocks are kept
//! when their post container's tag and class attribute are those of a
//! kept post outside the comments. The class attribute is compared
//! whole: a blog theme may write its article body as `format_text
//! entry-content` and each comment as `format_text`, and by the first
//! class name alone the comments of such a blog were posts (dragnet,
//! John D. Cook's blog: precision 0.06). `include-comments` keeps them
//! all.

use super::features::{self, Blocks};
use crate::annotate::Page;
use crate::dom::Tag;

/// Characters kept outside comment containers that make the page an
/// article with comments: a couple of paragraphs (a forum's or a
/// gallery's short opening line is less).
pub const ARTICLE_MIN_CHARS: u32 = 300;

/// A kept block outside the comments is a post whose container can mark
/// the replies as posts when it has at least this many characters (a
/// paragraph, not a caption or a button).
pub const POST_MIN_CHARS: u32 = 100;

/// Ancestors looked at for a block's post container: posts nest a few
/// levels deep; a page nested deeper has no post container near its
/// text.
const POST_LOOKUP: usize = 64;

/// A block's post container: the nearest ancestor (or the block itself)
/// that can be a record (`div`, `article`, `li`…) and has a class, as its
/// tag and class attribute (trimmed; see the module documentation).
fn post_of<'a>(page: &Page<'a>, b: &Blocks, k: usize) -> Option<(Tag, &'a str)> {
    let dom = page.dom;
    let mut h = *b.held.block.get(k)? as usize;
    for _ in 0..POST_LOOKUP {
        let e = *b.held.held.get(h)? as usize;
        let n = *page.elements.get(e)?;
        if let Some(t) = dom.tag(n)
            && features::record_tag(t)
            && let Some(class) = dom.attr(n, "class").map(str::trim)
            && !class.is_empty()
        {
            return Some((t, class));
        }
        match b.held.parent.get(h) {
            Some(&up) if (up as usize) < h => h = up as usize,
            _ => return None,
        }
    }
    None
}

/// Unkeeps the blocks inside comment containers when the kept blocks
/// outside them hold [`ARTICLE_MIN_CHARS`] or more, but for those written
/// like a kept post (see the module documentation). Returns whether any
/// block was dropped.
pub fn drop_comments(page: &Page<'_>, b: &Blocks, keep: &mut [bool]) -> bool {
    let n = keep.len().min(b.comment.len()).min(b.chars.len());
    let article: u32 = (0..n)
        .filter(|&k| keep[k] && !b.comment[k])
        .map(|k| b.chars[k])
        .sum();
    if article < ARTICLE_MIN_CHARS || !(0..n).any(|k| keep[k] && b.comment[k]) {
        return false;
    }
    let mut posts: Vec<(Tag, &str)> = Vec::new();
    for (k, _) in keep.iter().enumerate().take(n).filter(|(_, kept)| **kept) {
        if !b.comment[k]
            && b.chars[k] >= POST_MIN_CHARS
            && let Some(p) = post_of(page, b, k)
            && !posts.contains(&p)
        {
            posts.push(p);
        }
    }
    let mut dropped = false;
    for (k, kept) in keep.iter_mut().enumerate().take(n) {
        if *kept && b.comment[k] && !post_of(page, b, k).is_some_and(|p| posts.contains(&p)) {
            *kept = false;
            dropped = true;
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::testutil::after_phase;

    const PROSE: &str = "The council agreed to repair the old sea wall before the winter storms, and the engineers expect the work to take four months at a lower cost than planned.";

    /// The blocks `drop_comments` leaves kept when every block was kept.
    fn kept(html: &str) -> Vec<String> {
        after_phase(
            html,
            |_| true,
            |page, b, keep| {
                drop_comments(page, b, keep);
            },
        )
    }

    #[test]
    fn an_articles_comments_go() {
        let html = format!(
            "<body><div class=entry-content><p>Article one. {PROSE}</p><p>Article two. {PROSE}</p></div>\
             <div id=comments><div class=comment-body><p>Comment one {PROSE}</p></div>\
             <div class=comment-body><p>Comment two {PROSE}</p></div></div></body>"
        );
        assert_eq!(kept(&html), ["Article one.", "Article two."]);
    }

    #[test]
    fn a_threads_replies_stay() {
        // The opening post and the replies share their post container.
        let post = |who: &str| {
            format!(
                "<article class=\"message is-unread\"><div class=bbWrapper>{who} {PROSE}</div></article>"
            )
        };
        let html = format!(
            "<body><div class=thread>{}</div><div class=js-replyContainer>{}{}</div></body>",
            post("Opening"),
            post("Reply one"),
            post("Reply two")
        );
        assert_eq!(
            kept(&html),
            ["Opening The ", "Reply one Th", "Reply two Th"]
        );
    }

    #[test]
    fn comments_sharing_only_a_class_name_with_the_article_go() {
        // A blog theme's article body and comment bodies share their first
        // class name; the article's container says more.
        let html = format!(
            "<body><div class=\"format_text entry-content\"><p>Article one. {PROSE}</p>\
             <p>Article two. {PROSE}</p></div>\
             <div id=comments><dl><dt class=comment>Peter</dt>\
             <dd class=comment><div class=format_text><p>Comment one {PROSE}</p></div></dd>\
             <dt class=comment>Dave</dt>\
             <dd class=comment><div class=format_text><p>Comment two {PROSE}</p></div></dd>\
             </dl></div></body>"
        );
        assert_eq!(kept(&html), ["Article one.", "Article two."]);
    }

    #[test]
    fn comments_stay_without_an_article() {
        // A short line outside the comments is no article.
        let html =
            format!("<body><p>Gallery</p><div id=comments><p>Comment one {PROSE}</p></div></body>");
        assert_eq!(kept(&html), ["Gallery", "Comment one "]);
    }
}
