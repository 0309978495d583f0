//! Stages 1 to 3 together, **prepare**: a page's bytes → its decoded text
//! and its cleaned tree. [`crate::decode`] (size limit, gzip, the binary
//! check, the charset) → [`crate::parse`] (within the element budget and
//! the deadline) → what must be read before cleaning (the extractor's
//! metadata; a caller's closure) → [`crate::clean`] → the `<noscript>`
//! rescue (`rescue_if_empty`).
//!
//! **Unstable:** public only with the `unstable` feature, for the tools of
//! the unchaff workspace; may change in any release.
//!
//! The one place those steps are strung together: extraction
//! ([`crate::Extractor`]) and training ([`Prepared`]) both call [`prepare`].

use std::time::Duration;

use crate::decode::{self, Decoded, PageBytes};
use crate::dom::{Dom, NodeId, Tag};
use crate::limits::{Deadline, Instant, Stage};
use crate::{Error, clean, parse};

/// What one page's preparation may take.
#[derive(Clone, Copy, Debug)]
pub struct Limits<'d> {
    /// The most bytes of input, before and after gzip
    /// ([`Error::TooLarge`]).
    pub max_input: usize,
    /// The element budget of the parse (and of the rescue's second parse);
    /// `None`: the defaults of [`parse::parse_within_defaults`].
    pub max_elements: Option<usize>,
    /// The page's deadline.
    pub deadline: &'d Deadline,
}

/// The time each step of [`prepare`] took.
#[derive(Clone, Copy, Debug, Default)]
pub struct Times {
    /// Size limit, gunzip, binary check, charset, decoding.
    pub decode: Duration,
    /// The pre-pass and the HTML5 tree builder.
    pub parse: Duration,
    /// The caller's reading of the tree before cleaning.
    pub before_clean: Duration,
    /// Cleaning and the `<noscript>` rescue.
    pub clean: Duration,
}

/// A page taken through [`prepare`].
#[derive(Debug)]
pub struct Cleaned<'a> {
    /// The decoded page (its source, its charset and why).
    pub decoded: Decoded<'a>,
    /// The cleaned tree.
    pub dom: Dom,
    /// The content root (`<body>`, or the rescued tree's).
    pub root: NodeId,
    /// What each step took.
    pub times: Times,
}

/// Decodes, parses and cleans one page within `limits`. `before_clean`
/// reads the parsed tree before cleaning removes the head's scripts
/// (JSON-LD) and the hidden markup (the extractor's metadata, page type,
/// title); what it returns comes back beside the page.
pub fn prepare<'a, R>(
    bytes: PageBytes<'a>,
    charset: Option<&str>,
    limits: &Limits<'_>,
    before_clean: impl FnOnce(&Dom) -> R,
) -> Result<(Cleaned<'a>, R), Error> {
    let t0 = Instant::now();
    let decoded = decode::decode_page(bytes, charset, limits.max_input)?;
    limits.deadline.check(Stage::Decode)?;
    let t1 = Instant::now();
    let mut dom = parse_page(&decoded.text, limits)?;
    let t2 = Instant::now();
    let read = before_clean(&dom);
    limits.deadline.check(Stage::Annotate)?;
    let t3 = Instant::now();
    let root = clean_page(&decoded.text, &mut dom, limits)?;
    let t4 = Instant::now();
    let times = Times {
        decode: t1 - t0,
        parse: t2 - t1,
        before_clean: t3 - t2,
        clean: t4 - t3,
    };
    let cleaned = Cleaned {
        decoded,
        dom,
        root,
        times,
    };
    Ok((cleaned, read))
}

/// The parse step: [`parse::parse_limited`] with the caller's budget, else
/// [`parse::parse_within_defaults`].
fn parse_page(text: &str, limits: &Limits<'_>) -> Result<Dom, Error> {
    match limits.max_elements {
        Some(budget) => parse::parse_limited(text, budget, limits.deadline),
        None => parse::parse_within_defaults(text, limits.deadline),
    }
}

/// The clean step: [`clean::clean`] from the content root, then
/// [`rescue_if_empty`] (whether the article's body hides in a
/// `<noscript>` is read first: cleaning removes those). Returns the
/// content root of the tree kept.
fn clean_page(text: &str, dom: &mut Dom, limits: &Limits<'_>) -> Result<NodeId, Error> {
    let mut root = dom.content_root();
    let hidden_body = article_body_in_noscript(text, dom, root);
    clean::clean(dom, root);
    rescue_if_empty(
        text,
        dom,
        &mut root,
        hidden_body,
        limits.max_elements,
        limits.deadline,
    )?;
    Ok(root)
}

/// Below this many characters of text (white space collapsed) after
/// cleaning, a page is (nearly) empty and `rescue_if_empty` parses it
/// again. The dev pages that came out empty while their gold has text
/// (issue #23: Discourse threads whose posts are in `<noscript>`, Next.js
/// pages hidden until a script runs, titles left unclosed) hold less;
/// a real article's page has thousands.
pub const RESCUE_BELOW_CHARS: usize = 200;

/// The characters of text (not white space) in the subtree of `root`,
/// counted up to `cap`.
fn text_chars(dom: &Dom, root: NodeId, cap: usize) -> usize {
    let mut n = 0;
    for id in dom.descendants(root) {
        if let Some(t) = dom.text_of(id) {
            n += t.chars().filter(|c| !c.is_whitespace()).count();
            if n >= cap {
                break;
            }
        }
    }
    n
}

/// At most this many elements marked as an article's body are looked
/// into: a page has one (a few with teasers); walking the subtree of
/// each of thousands of nested ones would take quadratic time.
const ARTICLE_BODIES_CHECKED: usize = 4;

/// Whether `n` is marked as an article's body (schema.org's
/// `itemprop="articleBody"`).
fn is_article_body(dom: &Dom, n: NodeId) -> bool {
    dom.attr(n, "itemprop")
        .is_some_and(|v| v.split_ascii_whitespace().any(|t| t == "articleBody"))
}

/// The most characters of text (up to `cap`) in an element of the tree
/// marked as the article's body ([`is_article_body`]).
fn article_body_chars(dom: &Dom, root: NodeId, cap: usize) -> usize {
    dom.descendants(root)
        .filter(|&n| is_article_body(dom, n))
        .take(ARTICLE_BODIES_CHECKED)
        .map(|n| text_chars(dom, n, cap))
        .max()
        .unwrap_or(0)
}

/// Whether the page marks an element as its article's body
/// ([`is_article_body`]) that holds (nearly) no text but a `<noscript>`:
/// the article is written there for clients without scripts, and by a
/// script for the others (Blogger's templates put the post in a
/// `<script type="text/template">` and again in a `<noscript>`). Read
/// before cleaning, which removes the (emptied) `<noscript>` elements.
/// `html`, the page's markup, is searched for the attribute's value
/// first: most pages lack it, and a substring search costs less than a
/// walk reading every element's attributes.
fn article_body_in_noscript(html: &str, dom: &Dom, root: NodeId) -> bool {
    if memchr::memmem::find(html.as_bytes(), b"articleBody").is_none() {
        return false;
    }
    dom.descendants(root)
        .filter(|&n| is_article_body(dom, n))
        .take(ARTICLE_BODIES_CHECKED)
        .any(|n| {
            dom.descendants(n)
                .any(|d| dom.tag(d) == Some(Tag::NOSCRIPT))
                && text_chars(dom, n, RESCUE_BELOW_CHARS) < RESCUE_BELOW_CHARS
        })
}

/// Parses the page again the way a browser without scripts would show
/// it, and takes that tree when it shows what was missing:
///
/// * when the cleaned page holds (nearly) no text: if the new tree holds
///   at least [`RESCUE_BELOW_CHARS`] more (a "please enable JavaScript"
///   line is no rescue);
/// * when the article's body is in a `<noscript>` (`hidden_body`,
///   [`article_body_in_noscript`]): if the new tree's article body holds
///   at least [`RESCUE_BELOW_CHARS`].
///
/// The new tree has `<noscript>` bodies as markup, unclosed titles ended
/// at their first tag ([`parse::parse_rescue`]), and elements hidden by
/// markup kept ([`clean::clean_keeping_hidden`]). Other pages are not
/// touched (the count stops at [`RESCUE_BELOW_CHARS`]). A rescue over the
/// element budget keeps the first tree.
fn rescue_if_empty(
    text: &str,
    dom: &mut Dom,
    root: &mut NodeId,
    hidden_body: bool,
    budget: Option<usize>,
    deadline: &Deadline,
) -> Result<(), Error> {
    let before = text_chars(dom, *root, RESCUE_BELOW_CHARS);
    if before >= RESCUE_BELOW_CHARS && !hidden_body {
        return Ok(());
    }
    let mut again = match parse::parse_rescue(text, budget, deadline) {
        Ok(d) => d,
        Err(Error::TooManyElements { .. } | Error::TooDense { .. }) => return Ok(()),
        Err(e) => return Err(e),
    };
    let r = again.content_root();
    clean::clean_keeping_hidden(&mut again, r);
    let shows_more = if before < RESCUE_BELOW_CHARS {
        text_chars(&again, r, before + RESCUE_BELOW_CHARS) >= before + RESCUE_BELOW_CHARS
    } else {
        article_body_chars(&again, r, RESCUE_BELOW_CHARS) >= RESCUE_BELOW_CHARS
    };
    if shows_more {
        *dom = again;
        *root = r;
    }
    Ok(())
}

/// A page taken through [`prepare`], owned and ready to annotate: what
/// training and template learning need from the pipeline (no templates,
/// no metadata).
#[cfg(any(feature = "unstable", feature = "templates"))]
pub struct Prepared {
    /// The decoded source.
    pub text: String,
    /// The cleaned tree.
    pub dom: Dom,
    /// The content root (`<body>`).
    pub root: NodeId,
}

#[cfg(any(feature = "unstable", feature = "templates"))]
impl Prepared {
    /// Decodes (gzip, charset), parses and cleans `bytes` ([`prepare`],
    /// with no element budget and no deadline).
    pub fn new(bytes: &[u8]) -> Result<Prepared, Error> {
        let limits = Limits {
            max_input: decode::DEFAULT_MAX_INPUT,
            max_elements: Some(usize::MAX),
            deadline: &Deadline::NONE,
        };
        let (page, ()) = prepare(PageBytes::Borrowed(bytes), None, &limits, |_| ())?;
        Ok(Prepared {
            text: page.decoded.text.into_owned(),
            dom: page.dom,
            root: page.root,
        })
    }

    /// The annotated page.
    pub fn page(&self) -> crate::annotate::Page<'_> {
        crate::annotate::annotate(&self.dom, &self.text, self.root)
    }
}
