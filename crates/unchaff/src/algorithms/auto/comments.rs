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
//!
//! The model may keep the thread and not the article: a short post it
//! was unsure of above a long thread it took for prose. Then the kept
//! text outside the comments is no article, and nothing is dropped here;
//! [`article_missed`] tells the selection pass to count the thread as
//! nothing, so that the fallback's relaxed selection (which takes the
//! post, and then drops the thread) runs.

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
pub(super) fn post_of<'a>(page: &Page<'a>, b: &Blocks, k: usize) -> Option<(Tag, &'a str)> {
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
/// outside them hold `min_article` characters or more
/// ([`ARTICLE_MIN_CHARS`]; less under a counted comment section,
/// [`counted_thread_after`]), but for those written like a kept post
/// (see the module documentation). Returns whether any block was
/// dropped.
pub fn drop_comments(page: &Page<'_>, b: &Blocks, keep: &mut [bool], min_article: u32) -> bool {
    let n = keep.len().min(b.comment.len()).min(b.chars.len());
    let article: u32 = (0..n)
        .filter(|&k| keep[k] && !b.comment[k])
        .map(|k| b.chars[k])
        .sum();
    if article < min_article || !(0..n).any(|k| keep[k] && b.comment[k]) {
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

/// Whether the kept comment blocks of `keep` are a forum thread's posts:
/// the first of them follows the page's title headline (`headline`,
/// [`super::story::title_headline`]) with less than
/// [`ARTICLE_MIN_CHARS`] kept outside comment containers between them.
/// XenForo and Invision write every post of a thread, the first one too,
/// in a container named for replies or comments (XenForo's
/// `js-replyNewMessageContainer`, Invision's `elComment_…` and
/// `comment-…_wrap`); the text kept outside it elsewhere (a forum's
/// notice above the title, an install-the-app prompt, the forum's blurb
/// in the footer) is no article, and [`drop_comments`] took it for one
/// and dropped the thread (held out, wcxb-dev's forum pages 0523, 0544
/// and 2797 from 0.00 to 0.59–0.85). An article has its body between
/// its headline and its comments.
pub fn posts_follow_title(b: &Blocks, keep: &[bool], headline: Option<usize>) -> bool {
    let Some(h) = headline else {
        return false;
    };
    let n = keep.len().min(b.comment.len()).min(b.chars.len());
    let Some(first) = (h + 1..n).find(|&k| keep[k] && b.comment[k]) else {
        return false;
    };
    if (0..h).any(|k| keep[k] && b.comment[k]) {
        return false;
    }
    let between: u32 = (h + 1..first)
        .filter(|&k| keep[k] && !b.comment[k])
        .map(|k| b.chars[k])
        .sum();
    between < ARTICLE_MIN_CHARS
}

/// A block is text, not links, below this share of its characters in
/// links.
const TEXT_MAX_LINK_RATIO: f32 = 0.5;

/// Kept blocks in comment containers that make a comment thread: a few
/// comments. Fewer are one container misnamed (held out, a Russian news
/// story of three paragraphs in a `comment` box: F1 0.74 → 0.00 without
/// this bound).
pub const THREAD_MIN_BLOCKS: usize = 4;

/// Whether the selection `keep` is an article's comments without the
/// article: the kept blocks outside comment containers hold less than
/// [`ARTICLE_MIN_CHARS`], while the text blocks before the first kept
/// comment block, outside comment containers, that reach `relaxed` (the
/// relaxed selection's threshold) of the probabilities `p` hold that
/// much. A comment thread under a post the model was unsure of is then no
/// content however long, and the selection is short for the fallback.
/// A forum thread whose posts all lie in reply containers has no such
/// text before them, only its title and chrome.
pub fn article_missed(b: &Blocks, p: &[f32], keep: &[bool], relaxed: f32) -> bool {
    const LINK_RATIO: usize = features::index("link_ratio");
    let n = keep.len().min(b.comment.len()).min(b.chars.len()).min(p.len());
    let Some(first) = (0..n).find(|&k| keep[k] && b.comment[k]) else {
        return false;
    };
    if !thread_without_article(b, &keep[..n]) {
        return false;
    }
    let above: u32 = (0..first)
        .filter(|&k| {
            !b.comment[k] && p[k] >= relaxed && b.features[k][LINK_RATIO] < TEXT_MAX_LINK_RATIO
        })
        .map(|k| b.chars[k])
        .sum();
    above >= ARTICLE_MIN_CHARS
}

/// A comment section's count heading is short ("119 Comments", "92
/// Responses to “Depth Compositing”", "7 thoughts on …"): a longer line
/// is a comment that starts with a number.
pub const COUNT_HEADING_MAX_CHARS: u32 = 160;

/// Blocks looked at for a count heading around the end of a story: the
/// story's last block (a theme may write the heading above the comment
/// container) and the first few after it (the heading may follow a
/// "Leave a comment" link or a subscribe box).
const COUNT_HEADING_LOOKAROUND: usize = 3;

/// What a blog's comment section is called after its count, lower case
/// (WordPress's "N Comments", "N Responses to …", "N thoughts on …", and
/// the dev folders' languages). Not "N Replies": that is a forum's word
/// for the posts after its first (held out, wcxb-dev's bbPress thread
/// 4318, "76 Replies" over the replies: F1 0.95 → 0.03 with it).
const COUNTED: &[&str] = &[
    "comment",
    "comments",
    "response",
    "responses",
    "thought",
    "thoughts",
    "kommentar",
    "kommentare",
    "commentaire",
    "commentaires",
    "comentario",
    "comentarios",
    "commento",
    "commenti",
    "komentarz",
    "komentarze",
    "komentarzy",
    "комментарий",
    "комментария",
    "комментариев",
    "σχόλιο",
    "σχόλια",
    "条评论",
];

/// Whether `text` is a comment section's count heading: a count (digits,
/// or "one" / "no") and a word for comments (`COUNTED`) first, what
/// follows them free ("… to “Title”", "{ 17 comments… read them below or
/// add one }").
pub fn is_count_heading(text: &str) -> bool {
    let line = text.trim_matches(|c: char| !c.is_alphanumeric());
    if line.is_empty() || line.len() > 4 * COUNT_HEADING_MAX_CHARS as usize {
        return false;
    }
    let lower = line.to_lowercase();
    let rest = match lower.find(|c: char| !c.is_ascii_digit()) {
        Some(0) => ["one ", "no "]
            .iter()
            .find_map(|w| lower.strip_prefix(w))
            .unwrap_or(""),
        Some(i) => &lower[i..],
        None => "",
    };
    let mut words = rest.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    COUNTED.contains(&first.trim_end_matches([':', '.', '…', ',']))
}

/// Whether a counted comment section follows the headline block
/// `headline` ([`super::story::title_headline`]): a short block around
/// the first comment block after it is a count heading
/// ([`is_count_heading`]). That is a blog's post and the thread under
/// it, not a forum's first post and its replies (whose counts stand in
/// the thread's header, not above the replies).
pub fn counted_thread_after(page: &Page<'_>, b: &Blocks, headline: usize) -> bool {
    let n = b.chars.len().min(b.comment.len());
    let Some(end) = (headline + 1..n).find(|&k| b.comment[k]) else {
        return false;
    };
    let mut around = vec![false; n];
    let first = end.saturating_sub(1);
    let last = (end + COUNT_HEADING_LOOKAROUND).min(n);
    for (k, a) in around.iter_mut().enumerate().take(last).skip(first) {
        *a = b.chars[k] > 0;
    }
    let mut counted = false;
    super::nothing::short_kept_texts(page, b, &around, COUNT_HEADING_MAX_CHARS, |_, t| {
        counted |= is_count_heading(t);
    });
    counted
}

/// The characters kept between the headline block `headline` and the
/// first comment block after it, outside comment containers: the post a
/// comment section follows, as far as the selection holds it.
pub fn kept_before_thread(b: &Blocks, keep: &[bool], headline: usize) -> u32 {
    let n = keep.len().min(b.comment.len()).min(b.chars.len());
    (headline + 1..n)
        .take_while(|&k| !b.comment[k])
        .filter(|&k| keep[k])
        .map(|k| b.chars[k])
        .sum()
}

/// Whether the selection `keep` is the counted comment thread under a
/// story the model missed (`counted`: [`counted_thread_after`] holds for
/// its headline): the story holds text ([`super::story::STORY_MIN_CHARS`]) of
/// which nothing is kept, while the kept blocks are a thread
/// ([`THREAD_MIN_BLOCKS`] or more in comment containers) with less than
/// [`ARTICLE_MIN_CHARS`] outside them. A photo post's two lines above a
/// hundred comments: the selection is then short for the fallback, whose
/// relaxed pass gives way to the story.
pub fn story_missed(b: &Blocks, keep: &[bool], st: &super::story::Story, counted: bool) -> bool {
    let n = keep.len().min(b.comment.len()).min(b.chars.len());
    if !counted || st.blocks.clone().any(|k| k < n && keep[k]) {
        return false;
    }
    let text: u32 = st.text_blocks(b).filter(|&k| k < n).map(|k| b.chars[k]).sum();
    text >= super::story::STORY_MIN_CHARS && thread_without_article(b, &keep[..n])
}

/// Whether the kept blocks of `keep` (no longer than `b`'s) are a comment
/// thread without an article: [`THREAD_MIN_BLOCKS`] or more in comment
/// containers, under [`ARTICLE_MIN_CHARS`] outside them.
fn thread_without_article(b: &Blocks, keep: &[bool]) -> bool {
    let (mut outside, mut thread) = (0u32, 0usize);
    for (k, _) in keep.iter().enumerate().filter(|(_, kept)| **kept) {
        if b.comment[k] {
            thread += 1;
        } else {
            outside += b.chars[k];
        }
    }
    outside < ARTICLE_MIN_CHARS && thread >= THREAD_MIN_BLOCKS
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
                drop_comments(page, b, keep, ARTICLE_MIN_CHARS);
            },
        )
    }

    #[test]
    fn count_headings() {
        for yes in [
            "119 Comments",
            "92 Responses to \u{201c}Depth Compositing\u{201d}",
            "7 thoughts on \u{201c}My New Project\u{201d}",
            "One comment",
            "1 Comment:",
            "12 Kommentare zu \u{201e}Titel\u{201c}",
            "3 commentaires sur \u{ab} Titre \u{bb}",
            "15 комментариев",
            "24条评论",
            "{ 17 comments\u{2026} read them below or add one }",
        ] {
            assert!(is_count_heading(yes), "{yes}");
        }
        for no in [
            "Comments",
            "76 Replies",
            "2012 was a good year",
            "Leave a comment",
            "100",
            "",
        ] {
            assert!(!is_count_heading(no), "{no}");
        }
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

    /// [`article_missed`] on `html`, each block's probability given by
    /// the first of `rows` its text contains (else 0), kept at 0.5.
    fn missed(html: &str, rows: &[(&str, f32)]) -> bool {
        use crate::algorithms::auto::vocab::Vocabulary;
        use crate::algorithms::testutil::{block_texts, page_of};
        let dom = crate::parse::parse(html);
        let page = page_of(&dom);
        let b = features::blocks(&page, &Vocabulary::new());
        let p: Vec<f32> = (block_texts(&page, &b).iter())
            .map(|t| rows.iter().find(|r| t.contains(r.0)).map_or(0.0, |r| r.1))
            .collect();
        let keep: Vec<bool> = p.iter().map(|&x| x >= 0.5).collect();
        article_missed(&b, &p, &keep, 0.2)
    }

    /// A post of two paragraphs and a thread of `comments` comments under
    /// it.
    fn post(comments: usize) -> String {
        let thread: String = (0..comments)
            .map(|i| format!("<li class=comment><p>Comment {i} {PROSE}</p></li>"))
            .collect();
        format!(
            "<body><div class=post><h2>Sea wall</h2><p>Article one. {PROSE}</p>\
             <p>Article two. {PROSE}</p></div><ol id=comments>{thread}</ol></body>"
        )
    }

    #[test]
    fn a_thread_kept_without_its_post_is_no_content() {
        // The model unsure of the post (0.25), sure enough of the thread.
        let rows = [("Article", 0.25), ("Comment", 0.6)];
        assert!(missed(&post(6), &rows));
        // The post kept: the comments phase drops the thread as ever.
        assert!(!missed(&post(6), &[("Article", 0.9), ("Comment", 0.6)]));
        // Nothing like an article above the comments (the post well below
        // the relaxed threshold, or a forum thread whose posts are all in
        // reply containers under its title): the thread stands.
        assert!(!missed(&post(6), &[("Article", 0.1), ("Comment", 0.6)]));
        // Three blocks are one misnamed container, not a thread.
        assert!(!missed(&post(3), &rows));
    }

    #[test]
    fn posts_under_the_title_are_a_thread() {
        use crate::algorithms::auto::vocab::Vocabulary;
        use crate::algorithms::testutil::{block_texts, page_of};
        // Every block kept; `headline` is the `h1`'s block.
        let follows = |html: &str| {
            let dom = crate::parse::parse(html);
            let page = page_of(&dom);
            let b = features::blocks(&page, &Vocabulary::new());
            let h = block_texts(&page, &b).iter().position(|t| t.starts_with("Sea wall"));
            posts_follow_title(&b, &vec![true; b.chars.len()], h)
        };
        let notice = format!("<div class=notice><p>About this forum. {PROSE}</p></div>");
        let thread = format!(
            "<div class=js-replyContainer><article><p>Opening {PROSE}</p></article>             <article><p>Reply {PROSE}</p></article></div>"
        );
        // A forum's notice above the title, the posts right under it.
        assert!(follows(&format!("<body>{notice}<h1>Sea wall</h1>{thread}</body>")));
        // An article between the title and the comments.
        assert!(!follows(&format!(
            "<body><h1>Sea wall</h1><p>Article one. {PROSE}</p><p>Article two. {PROSE}</p>{thread}</body>"
        )));
        // No title headline, or comments above it.
        assert!(!follows(&format!("<body>{notice}<h1>Other</h1>{thread}</body>")));
        assert!(!follows(&format!("<body>{thread}<h1>Sea wall</h1>{thread}</body>")));
    }

    #[test]
    fn comments_stay_without_an_article() {
        // A short line outside the comments is no article.
        let html =
            format!("<body><p>Gallery</p><div id=comments><p>Comment one {PROSE}</p></div></body>");
        assert_eq!(kept(&html), ["Gallery", "Comment one "]);
    }
}
