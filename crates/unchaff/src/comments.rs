//! The page's comments, apart from its content
//! ([`crate::Options::comments`], [`crate::Extraction::comments`]).
//!
//! The algorithm says which text is comment prose (`auto`: the blocks in
//! comment containers that are not the content, [`Selection::comments`]);
//! this module cuts it into comments, one per comment element, finds
//! each one's author where the page marks one, and tells the chrome of a
//! comment section — the "leave a reply" box, log-in prompts, formatting
//! help, "comments are closed" — from comments ([`is_chrome`]), so that
//! it is never a comment, nor content.
//!
//! A comment element is the nearest element around the prose that is one
//! comment: one marked as a schema.org `Comment`, an `<article>` or
//! `<li>`, or one of a run of siblings written alike (the same tag and
//! class attribute: the records of a comment list).
//!
//! [`Selection::comments`]: crate::algorithms::Selection::comments

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder};
use html5ever::local_name;
use serde::Serialize;

use crate::dom::{Dom, NodeId, Tag};

/// One comment.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Comment {
    /// Its author, where the page marks one (a `comment-author`, `fn`,
    /// `username` element, `itemprop=author`, a `<cite>`).
    pub author: Option<String>,
    /// Its text, one block a line.
    pub text: String,
    /// Its Markdown, for the Markdown and JSON formats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
}

/// Ancestors looked at for a comment's element or a chrome mark: comments
/// nest a few levels deep; a deeper page has none near its text.
pub const LOOKUP: usize = 64;

/// The longest author name taken (a name, not a sentence).
pub const AUTHOR_MAX_CHARS: usize = 80;

/// Words of a class or id that mark the chrome of a comment section:
/// the reply form (WordPress's `respond`, `comment-form`, `reply-title`),
/// the notes and prompts around it (`comment-notes`, `logged-in-as`,
/// `must-log-in`, `form-allowed-tags`), a closed section (`nocomments`).
pub const CHROME_MARKS: &[&str] = &[
    "comment-form",
    "commentform",
    "reply-form",
    "replyform",
    "comment-reply-title",
    "reply-title",
    "comment-notes",
    "logged-in-as",
    "must-log-in",
    "form-allowed-tags",
    "nocomments",
    "comments-closed",
    "comment-policy",
    "comment-subscription",
];

/// Class and id words that mark the chrome only as a whole word, or as
/// the last part of one (`respond`, `comment-respond`): a documentation
/// page's section `respond-to-review-comments` is content.
pub const CHROME_WORDS: &[&str] = &["respond"];

/// How the chrome's own sentences begin (lower case): the prompts of a
/// reply form, log-in requests, formatting help, a closed section.
pub const CHROME_OPENINGS: &[&str] = &[
    "leave a reply",
    "leave a comment",
    "post a comment",
    "add a comment",
    "add comment",
    "write a comment",
    "join the discussion",
    "you must be logged in",
    "you must log in",
    "log in to reply",
    "login to reply",
    "log in to comment",
    "sign in to comment",
    "please log in",
    "please login",
    "your email address will not be published",
    "your email will not be published",
    "required fields are marked",
    "you may use these html tags",
    "allowed html tags",
    "notify me of",
    "comments are closed",
    "cancel reply",
    "click here to cancel reply",
    "save my name, email",
];

/// The first characters of a block's text read by [`is_chrome`]: the
/// openings are shorter.
const OPENING_CHARS: usize = 64;

/// Whether the block at `node` is comment-section chrome: inside an
/// element marked as such ([`CHROME_MARKS`]), or text that opens like it
/// ([`CHROME_OPENINGS`]). (Being in a `<form>` says nothing: forum
/// software wraps whole threads in its moderation form.)
pub fn is_chrome(dom: &Dom, node: NodeId) -> bool {
    let mut n = node;
    for _ in 0..LOOKUP {
        // The first class and the first id (as Dom::attr finds them),
        // names compared as atoms.
        let (mut class, mut id) = (false, false);
        for a in dom.attrs_of(n) {
            let first = if a.name == local_name!("class") {
                !std::mem::replace(&mut class, true)
            } else if a.name == local_name!("id") {
                !std::mem::replace(&mut id, true)
            } else {
                false
            };
            if first && names_chrome(&dom.attr_text[a.start as usize..a.end as usize]) {
                return true;
            }
        }
        match dom.node(n).parent.some() {
            Some(p) => n = p,
            None => break,
        }
    }
    let opening = opening(dom, node);
    CHROME_OPENINGS.iter().any(|o| opening.starts_with(o))
}

/// Whether a class or id value `v` names the chrome, ASCII case
/// ignored: it holds one of [`CHROME_MARKS`], or one of its words (split
/// at ASCII white space) is or ends with `-`/`_` and one of
/// [`CHROME_WORDS`]. Read in place: the marks are one automaton built
/// once, the words compared byte by byte.
fn names_chrome(v: &str) -> bool {
    static MARKS: OnceLock<Option<AhoCorasick>> = OnceLock::new();
    let marks = MARKS.get_or_init(|| {
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .build(CHROME_MARKS)
            .ok()
    });
    let marked = match marks {
        Some(m) => m.is_match(v),
        // The fixed list always builds; the plain search otherwise.
        None => {
            let v = v.to_ascii_lowercase();
            CHROME_MARKS.iter().any(|m| v.contains(m))
        }
    };
    let word = |t: &str| {
        let t = t.as_bytes();
        CHROME_WORDS.iter().any(|w| {
            t.len() >= w.len() && {
                let (rest, end) = t.split_at(t.len() - w.len());
                end.eq_ignore_ascii_case(w.as_bytes())
                    && (rest.is_empty() || rest.ends_with(b"-") || rest.ends_with(b"_"))
            }
        })
    };
    marked || v.split_ascii_whitespace().any(word)
}

/// The first [`OPENING_CHARS`] characters of the text under `node`, lower
/// case, white space collapsed.
fn opening(dom: &Dom, node: NodeId) -> String {
    let mut s = String::new();
    for d in dom.descendants(node) {
        if let Some(t) = dom.text_of(d) {
            for w in t.split_whitespace() {
                if !s.is_empty() {
                    s.push(' ');
                }
                s.push_str(&w.to_lowercase());
                if s.len() >= OPENING_CHARS {
                    return s;
                }
            }
        }
    }
    s
}

/// The comment nodes of a selection grouped by their comment element,
/// in document order: (element, its nodes). `nodes` are in document
/// order.
pub fn group(dom: &Dom, nodes: &[NodeId]) -> Vec<(NodeId, Vec<NodeId>)> {
    let mut out: Vec<(NodeId, Vec<NodeId>)> = Vec::new();
    let mut repeated = RepeatCache::default();
    for &n in nodes {
        let item = comment_element(dom, n, &mut repeated);
        match out.last_mut() {
            Some((e, v)) if *e == item => v.push(n),
            _ => out.push((item, vec![n])),
        }
    }
    out
}

/// The parents whose children were counted, and the children that repeat
/// (the same tag and class as a sibling).
#[derive(Default)]
struct RepeatCache {
    parents: rustc_hash::FxHashSet<NodeId>,
    repeated: rustc_hash::FxHashSet<NodeId>,
}

impl RepeatCache {
    fn is_repeated(&mut self, dom: &Dom, n: NodeId) -> bool {
        let Some(p) = dom.node(n).parent.some() else {
            return false;
        };
        if self.parents.insert(p) {
            let mut seen: rustc_hash::FxHashMap<(Tag, &str), NodeId> = Default::default();
            for c in dom.children(p) {
                let (Some(t), Some(class)) = (dom.tag(c), dom.attr(c, "class")) else {
                    continue;
                };
                if class.trim().is_empty() {
                    continue;
                }
                if let Some(first) = seen.insert((t, class), c) {
                    self.repeated.insert(first);
                    self.repeated.insert(c);
                }
            }
        }
        self.repeated.contains(&n)
    }
}

/// The comment element of a comment node (see the module documentation);
/// the node itself when none is near.
fn comment_element(dom: &Dom, node: NodeId, repeated: &mut RepeatCache) -> NodeId {
    let mut n = node;
    for _ in 0..LOOKUP {
        if dom.tag(n).is_some() {
            let marked = dom
                .attr(n, "itemtype")
                .is_some_and(|t| t.to_ascii_lowercase().contains("comment"));
            if marked
                || dom.is(n, Tag::ARTICLE)
                || dom.is(n, Tag::LI)
                || repeated.is_repeated(dom, n)
            {
                return n;
            }
        }
        match dom.node(n).parent.some() {
            Some(p) => n = p,
            None => break,
        }
    }
    node
}

/// Words of a class, id or itemprop that mark a comment's author.
pub const AUTHOR_MARKS: &[&str] = &[
    "author",
    "username",
    "user-name",
    "nickname",
    "commenter",
    "poster",
    "creator",
];

/// The author of a comment element: the text of its first element marked
/// as one ([`AUTHOR_MARKS`], the `fn` of an hCard, a `<cite>`), without a
/// trailing "says:", when it is a name (1 to [`AUTHOR_MAX_CHARS`]
/// characters).
pub fn author(dom: &Dom, item: NodeId) -> Option<String> {
    for d in dom.descendants(item).skip(1) {
        if dom.tag(d).is_none() {
            continue;
        }
        let marked = dom.is(d, Tag::CITE)
            || ["class", "id", "itemprop", "rel"].iter().any(|a| {
                dom.attr(d, a).is_some_and(|v| {
                    let v = v.to_ascii_lowercase();
                    AUTHOR_MARKS.iter().any(|m| v.contains(m))
                        || v.split_ascii_whitespace().any(|t| t == "fn")
                })
            });
        if !marked {
            continue;
        }
        let mut name = String::new();
        for t in dom.descendants(d).filter_map(|x| dom.text_of(x)) {
            for w in t.split_whitespace() {
                if !name.is_empty() {
                    name.push(' ');
                }
                name.push_str(w);
            }
            if name.len() > 4 * AUTHOR_MAX_CHARS {
                break;
            }
        }
        let name = name
            .trim_end_matches(':')
            .trim_end()
            .trim_end_matches(" says")
            .trim_end_matches(" said")
            .trim()
            .to_owned();
        let len = name.chars().count();
        if (1..=AUTHOR_MAX_CHARS).contains(&len) {
            return Some(name);
        }
        // A marked element with a sentence in it (a whole comment header):
        // look further in.
    }
    None
}

/// Comments as plain text: each comment's author on a line of its own
/// (`Name:`) before its text, a blank line between comments.
pub fn as_text(comments: &[Comment]) -> String {
    join(comments, |c| &c.text, |a| format!("{a}:"), "\n\n")
}

/// Comments as Markdown: each comment's author in bold on a line of its
/// own before its text, a thematic break between comments.
pub fn as_markdown(comments: &[Comment]) -> String {
    join(
        comments,
        |c| c.markdown.as_deref().unwrap_or(&c.text),
        |a| format!("**{}**", crate::render::escape_markdown(a)),
        "\n\n---\n\n",
    )
}

fn join<'a>(
    comments: &'a [Comment],
    body: impl Fn(&'a Comment) -> &'a str,
    head: impl Fn(&str) -> String,
    between: &str,
) -> String {
    let mut s = String::new();
    for c in comments {
        if !s.is_empty() {
            s.push_str(between);
        }
        if let Some(a) = &c.author {
            s.push_str(&head(a));
            s.push('\n');
            if between.contains("---") {
                s.push('\n');
            }
        }
        s.push_str(body(c));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    /// [`names_chrome`] as [`is_chrome`] read a value before: lower-cased
    /// copy, each mark searched, each word stripped.
    fn names_chrome_by_copy(v: &str) -> bool {
        let v = v.to_ascii_lowercase();
        let word = |t: &str| {
            CHROME_WORDS.iter().any(|w| {
                t.strip_suffix(w)
                    .is_some_and(|rest| rest.is_empty() || rest.ends_with(['-', '_']))
            })
        };
        CHROME_MARKS.iter().any(|m| v.contains(m)) || v.split_ascii_whitespace().any(word)
    }

    #[test]
    fn chrome_names_are_read_in_place_as_from_a_copy() {
        let mut cases: Vec<String> = [
            "",
            "comment-respond",
            "Comment-RESPOND x",
            "respond-to-review-comments",
            "xrespond",
            "a_respond",
            "COMMENT-FORM",
            "wrap commentForm",
            "é-respond",
            "respondé",
            "nocomments",
            "logged-in-as\tx",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let pieces = [
            "respond", "comment", "-", "_", "form", "Reply", "title", " ", "x", "É", "\u{a0}",
        ];
        let mut x: u64 = 9;
        for len in 0..800 {
            let mut s = String::new();
            for _ in 0..len % 8 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push_str(pieces[(x >> 33) as usize % pieces.len()]);
            }
            cases.push(s);
        }
        for v in &cases {
            assert_eq!(names_chrome(v), names_chrome_by_copy(v), "{v:?}");
        }
    }

    fn node_with(dom: &Dom, text: &str) -> NodeId {
        (0..dom.len() as u32)
            .map(NodeId)
            .find(|&n| dom.text_of(n).is_some_and(|t| t.contains(text)))
            .and_then(|n| dom.node(n).parent.some())
            .unwrap()
    }

    const WP: &str = "<ol class=commentlist>\
        <li class='comment even'><article class=comment-body><footer><div class='comment-author vcard'>\
        <b class=fn>Ann Smith</b> <span class=says>says:</span></div></footer>\
        <div class=comment-content><p>First comment here.</p><p>Its second paragraph.</p></div></article>\
        <ol class=children><li class='comment odd'><article class=comment-body><footer>\
        <div class='comment-author vcard'><b class=fn>Bob</b></div></footer>\
        <div class=comment-content><p>A reply to Ann.</p></div></article></li></ol></li>\
        <li class='comment odd'><div><p>No author marked.</p></div></li></ol>\
        <div id=respond><h3 id=reply-title>Leave a Reply</h3><p class=must-log-in>You must be logged in.</p></div>\
        <div class=comment-respond><p>Your name here, please.</p></div>\
        <div><p>Comments are closed.</p></div>\
        <section id=respond-to-review-comments><p>Respond to those comments politely.</p></section>";

    #[test]
    fn comments_are_grouped_with_their_authors() {
        let dom = parse(WP);
        let nodes: Vec<NodeId> = ["First comment", "Its second", "A reply", "No author"]
            .iter()
            .map(|t| node_with(&dom, t))
            .collect();
        let groups = group(&dom, &nodes);
        assert_eq!(groups.len(), 3);
        assert_eq!(groups[0].1.len(), 2);
        let authors: Vec<Option<String>> = groups.iter().map(|(e, _)| author(&dom, *e)).collect();
        assert_eq!(
            authors,
            [Some("Ann Smith".into()), Some("Bob".into()), None]
        );
    }

    #[test]
    fn chrome_is_told_apart() {
        let dom = parse(WP);
        for t in [
            "Leave a Reply",
            "You must be logged in",
            "Comments are closed",
        ] {
            assert!(is_chrome(&dom, node_with(&dom, t)), "{t}");
        }
        for t in ["First comment", "A reply", "No author", "Respond to those"] {
            assert!(!is_chrome(&dom, node_with(&dom, t)), "{t}");
        }
    }

    #[test]
    fn rendered_with_authors() {
        let c = [
            Comment {
                author: Some("Ann".into()),
                text: "Hello.".into(),
                markdown: Some("Hello.".into()),
            },
            Comment {
                author: None,
                text: "Hi *there*.".into(),
                markdown: Some("Hi \\*there\\*.".into()),
            },
        ];
        assert_eq!(as_text(&c), "Ann:\nHello.\n\nHi *there*.");
        assert_eq!(
            as_markdown(&c),
            "**Ann**\n\nHello.\n\n---\n\nHi \\*there\\*."
        );
    }
}
