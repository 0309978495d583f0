//! A fast tokenizer for the common case, feeding our own tree builder
//! (`parse/tree.rs`) or, where that gives up, html5ever's.
//!
//! html5ever's tokenizer reads its input one character at a time through a
//! queue of buffers and copies every tag name, attribute name and value
//! character by character: about 75 instructions a byte, 45% of `auto`'s
//! instructions on scrapinghub (callgrind; docs/BENCHMARKS.md). This one
//! finds the next `<` or `&` with `memchr`, slices names and values out of
//! the input, and hands the same tokens to a [`Builder`]: html5ever's
//! [`TreeBuilder`] (the tree is html5ever's by construction, as long as
//! the tokens are) or ours, which borrows them. It covers the states real pages use — text, start and end
//! tags with any attributes, character references, comments, the common
//! doctypes, bogus comments, RCDATA, RAWTEXT and script bodies without
//! `<!--` — exactly as the HTML standard's tokenizer does. Anything else
//! (a NUL, `<![CDATA[`, `<plaintext>`, a script body with `<!--`, an
//! unusual doctype, a tag cut off by the end of the input, a legacy
//! character reference without its `;`, a U+FEFF after the first
//! character) makes it give up: [`tokenize`] answers [`GiveUp`], and the
//! page is parsed again from the start by html5ever's tokenizer.
//!
//! The differential test `data_parse` (crates/cli/tests) checks on every
//! dev page that the tree is the same as html5ever's alone, and the unit
//! tests here do the same on generated mis-nested markup.

use std::borrow::Cow;

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};
use html5ever::interface::TreeSink;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{Doctype, Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::tree_builder::TreeBuilder;
use html5ever::{Attribute, LocalName, QualName, ns};
use memchr::{memchr, memchr2, memchr3, memmem};

use super::prefilter::{Body, Inline, Open, is_unread_attr};
use super::tree::Own;
use super::{Budget, Handle, MAX_ATTRIBUTES, PARSE_CHUNK, Sink};
use crate::Error;
use crate::dom::Dom;
use crate::limits::{Deadline, Stage};

/// Why the fast tokenizer stopped (the construct it met): the page needs
/// html5ever's own.
#[derive(Debug)]
pub(super) struct GiveUp(pub(super) &'static str);

/// What a step may end with.
pub(super) type Step<T> = Result<T, GiveUp>;

/// The tokenizer's whitespace (CR is gone by then).
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0C | b' ')
}

/// The bytes that end a name in a tag: white space, `/`, `>`, NUL (which
/// the tokenizer leaves to html5ever's) and, for an attribute's name, `=`.
/// One table lookup a byte instead of six comparisons: names are most of
/// a tag's bytes.
const fn name_ends(attribute: bool) -> [bool; 256] {
    let mut t = [false; 256];
    t[b'\t' as usize] = true;
    t[b'\n' as usize] = true;
    t[0x0C] = true;
    t[b' ' as usize] = true;
    t[b'/' as usize] = true;
    t[b'>' as usize] = true;
    t[0] = true;
    t[b'=' as usize] = attribute;
    t
}

/// Where a tag's name ends ([`name_ends`]).
static TAG_NAME_END: [bool; 256] = name_ends(false);

/// Where an attribute's name ends ([`name_ends`]).
static ATTR_NAME_END: [bool; 256] = name_ends(true);

/// Which tree builder the tokens go to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Builders {
    /// Our own tree builder (`parse/tree.rs`) first; where it gives up,
    /// html5ever's, from the start of the page.
    Own,
    /// Our own tree builder only (for the differential tests).
    OwnOnly,
    /// html5ever's tree builder only.
    Html5ever,
}

/// The page tokenized here and built by our tree builder or html5ever's
/// (`builders`), or `Ok(Err(_))` where the page needs html5ever's
/// tokenizer. Limits as [`super::parse_limited`]: the element budget and
/// the deadline, checked every [`PARSE_CHUNK`] bytes.
pub(super) fn tokenize(
    html: &str,
    budget: Budget,
    deadline: &Deadline,
    builders: Builders,
) -> Result<Result<Dom, GiveUp>, Error> {
    // html5ever drops a U+FEFF at the start of each piece it is fed; only
    // the first is certain.
    let html = html.strip_prefix('\u{FEFF}').unwrap_or(html);
    if feff_where_dropped(html) {
        return Ok(Err(GiveUp("U+FEFF at a piece's start")));
    }
    // Newlines normalised as the tokenizer's input stream does.
    let normalised: Cow<'_, str> = if memchr(b'\r', html.as_bytes()).is_some() {
        Cow::Owned(html.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(html)
    };
    if builders != Builders::Html5ever {
        match run(&normalised, Own::new(budget), deadline)? {
            Ok(dom) => return Ok(Ok(dom)),
            Err(why) if builders == Builders::OwnOnly => return Ok(Err(why)),
            Err(_) => {}
        }
    }
    let tb = Html5everBuilder(TreeBuilder::new(Sink::new(budget), Default::default()));
    run(&normalised, tb, deadline)
}

/// The page as given, tokenized here with the pre-pass's edits made on the
/// way ([`Inline`]: comments, unread attributes and the bodies of
/// scripts, styles and `<svg>`s skipped) and built by our tree builder
/// alone: the tree [`tokenize`] builds from the pre-filtered page. Or
/// `Ok(Err(_))` where either gives up, or the page needs the pre-pass
/// (then it is pre-filtered and tokenized again). Limits as [`tokenize`].
pub(super) fn tokenize_filtering(
    html: &str,
    budget: Budget,
    deadline: &Deadline,
) -> Result<Result<Dom, GiveUp>, Error> {
    let html = html.strip_prefix('\u{FEFF}').unwrap_or(html);
    // Where html5ever drops a U+FEFF depends on where the pre-pass's cuts
    // put it: left to the pre-filtered page.
    if memmem::find(html.as_bytes(), "\u{FEFF}".as_bytes()).is_some() {
        return Ok(Err(GiveUp("U+FEFF")));
    }
    let normalised: Cow<'_, str> = if memchr(b'\r', html.as_bytes()).is_some() {
        // A comment the pre-pass cuts from between a CR and a LF joins
        // them into one line break; read after the newlines are
        // normalised, they are two.
        if memmem::find(html.as_bytes(), b"\r<!--").is_some() {
            return Ok(Err(GiveUp("a comment after a CR")));
        }
        Cow::Owned(html.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(html)
    };
    match run_with(&normalised, Own::new(budget), deadline, Some(Inline::default())) {
        // The two-pass parse decides refusals (see `one_pass_budget`).
        Err(Error::TooManyElements { .. } | Error::TooDense { .. }) => {
            Ok(Err(GiveUp("over a budget")))
        }
        other => other,
    }
}

/// Tokenizes `s` (normalised) into `builder`.
fn run<B: Builder>(s: &str, builder: B, deadline: &Deadline) -> Result<Step<Dom>, Error> {
    run_with(s, builder, deadline, None)
}

/// [`run`], making the pre-pass's edits on the way where `inline` is
/// given.
fn run_with<B: Builder>(
    s: &str,
    builder: B,
    deadline: &Deadline,
    inline: Option<Inline>,
) -> Result<Step<Dom>, Error> {
    let mut t = Fast {
        s,
        pos: 0,
        b: builder,
        inline,
        text: String::new(),
        scratch: String::new(),
        attrs: Vec::new(),
        raw_name: String::new(),
        next_check: PARSE_CHUNK,
    };
    match t.run(deadline) {
        Ok(Ok(())) => {}
        Ok(Err(g)) => {
            // A builder that ran past its budget stops at once.
            return match t.b.refusal() {
                Some(e) => Err(e),
                None => Ok(Err(g)),
            };
        }
        Err(e) => return Err(e),
    }
    t.b.finish().map(Ok)
}

/// What the tokenizer does after a start or end tag: the tree builder
/// decides (the standard's tree construction switches the tokenizer to a
/// raw-text state after `<title>`, `<script>`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// The data state.
    Data,
    /// A raw-text state, up to the end tag of the element just opened.
    Raw(RawKind),
    /// The PLAINTEXT state (left to html5ever's tokenizer).
    Plaintext,
}

/// Where the tokens go: a tree builder. Each method may give up (the page
/// is then parsed again by the next builder in line).
pub(super) trait Builder {
    /// Character data (never empty).
    fn text(&mut self, text: &str) -> Step<()>;
    /// A comment's data.
    fn comment(&mut self, data: &str) -> Step<()>;
    /// A doctype: its name (lower case) and ids.
    fn doctype(&mut self, name: &str, public: Option<&str>, system: Option<&str>) -> Step<()>;
    /// A start or end tag.
    fn tag(&mut self, tag: &TagRef<'_>) -> Step<Next>;
    /// The end of the input.
    fn eof(&mut self) -> Step<()>;
    /// The budget this parse ran past, if it did.
    fn refusal(&self) -> Option<Error>;
    /// The tree, or the budget it ran past.
    fn finish(self) -> Result<Dom, Error>;
}

/// Part of a tag: a byte range of the input, or of the tokenizer's
/// scratch buffer (a name lowered, a value with character references
/// resolved).
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    start: usize,
    end: usize,
    scratch: bool,
}

/// A tag as the tokenizer read it, borrowed: names lowered, values with
/// character references resolved, duplicate attributes dropped.
pub(super) struct TagRef<'t> {
    /// `</…>`.
    pub end: bool,
    /// The name, ASCII letters lowered.
    pub name: &'t str,
    /// `<… />`.
    pub self_closing: bool,
    /// Whether an attribute was given twice (the later ones dropped).
    pub had_duplicate_attributes: bool,
    src: &'t str,
    scratch: &'t str,
    attrs: &'t [(Span, Span)],
}

impl<'t> TagRef<'t> {
    fn get(&self, span: Span) -> &'t str {
        let text = if span.scratch { self.scratch } else { self.src };
        &text[span.start..span.end]
    }

    /// The attributes, (name, value), in order.
    pub fn attrs(&self) -> impl ExactSizeIterator<Item = (&'t str, &'t str)> + '_ {
        self.attrs.iter().map(|&(n, v)| (self.get(n), self.get(v)))
    }

    /// The number of attributes.
    pub fn attrs_len(&self) -> usize {
        self.attrs.len()
    }

    /// The value of attribute `name`.
    pub fn attr(&self, name: &str) -> Option<&'t str> {
        self.attrs().find(|(n, _)| *n == name).map(|(_, v)| v)
    }
}

/// html5ever's tree builder, with our sink, as a [`Builder`].
struct Html5everBuilder(TreeBuilder<Handle, Sink>);

impl Html5everBuilder {
    /// Emits a token after which the tokenizer stays in the data state.
    fn plain(&mut self, token: Token) -> Step<()> {
        match self.0.process_token(token, 1) {
            TokenSinkResult::Continue => Ok(()),
            _ => Err(GiveUp("state change after a comment or doctype")),
        }
    }
}

impl Builder for Html5everBuilder {
    fn text(&mut self, text: &str) -> Step<()> {
        // Character tokens never change the tokenizer's state.
        let _ = self
            .0
            .process_token(Token::CharacterTokens(StrTendril::from_slice(text)), 1);
        Ok(())
    }

    fn comment(&mut self, data: &str) -> Step<()> {
        self.plain(Token::CommentToken(StrTendril::from_slice(data)))
    }

    fn doctype(&mut self, name: &str, public: Option<&str>, system: Option<&str>) -> Step<()> {
        self.plain(Token::DoctypeToken(Doctype {
            name: Some(StrTendril::from_slice(name)),
            public_id: public.map(StrTendril::from_slice),
            system_id: system.map(StrTendril::from_slice),
            force_quirks: false,
        }))
    }

    fn tag(&mut self, tag: &TagRef<'_>) -> Step<Next> {
        let attrs = tag
            .attrs()
            .map(|(name, value)| Attribute {
                name: QualName::new(None, ns!(), LocalName::from(name)),
                value: StrTendril::from_slice(value),
            })
            .collect();
        let token = Tag {
            kind: if tag.end {
                TagKind::EndTag
            } else {
                TagKind::StartTag
            },
            name: LocalName::from(tag.name),
            self_closing: tag.self_closing,
            attrs,
            had_duplicate_attributes: tag.had_duplicate_attributes,
        };
        Ok(match self.0.process_token(Token::TagToken(token), 1) {
            TokenSinkResult::Continue | TokenSinkResult::EncodingIndicator(_) => Next::Data,
            // The script is never run: back to the data state.
            TokenSinkResult::Script(_) => Next::Data,
            TokenSinkResult::RawData(kind) => Next::Raw(kind),
            TokenSinkResult::Plaintext => Next::Plaintext,
        })
    }

    fn eof(&mut self) -> Step<()> {
        match self.0.process_token(Token::EOFToken, 1) {
            TokenSinkResult::Continue => Ok(()),
            _ => Err(GiveUp("end of input")),
        }
    }

    fn refusal(&self) -> Option<Error> {
        self.0.sink.refusal()
    }

    fn finish(self) -> Result<Dom, Error> {
        self.0.end();
        self.0.sink.finish()
    }
}

/// Whether `html` (its first U+FEFF gone) has a U+FEFF where html5ever
/// would drop it: it drops one at the start of each piece of input it is
/// fed, so at the start of each [`PARSE_CHUNK`] piece of
/// [`super::parse_limited`], and right after a `</script>` (where it
/// stops to run the script and is fed again). Elsewhere U+FEFF is a
/// character like any other.
fn feff_where_dropped(html: &str) -> bool {
    /// How far back from a U+FEFF after a `>` the `<` of its tag is looked for.
    const FEFF_LOOKBACK: usize = 1024;
    const FEFF: &[u8] = "\u{FEFF}".as_bytes();
    let b = html.as_bytes();
    let mut found = memmem::find_iter(b, FEFF).peekable();
    if found.peek().is_none() {
        return false;
    }
    // The pieces' starts, as parse_limited cuts them (from the original
    // start: a U+FEFF stripped before `html` moves a cut by at most its own
    // three bytes, so any U+FEFF within three bytes of a cut counts).
    let mut cuts = Vec::new();
    let mut cut = 0;
    while cut < b.len() {
        let mut next = (cut + PARSE_CHUNK).min(b.len());
        while !html.is_char_boundary(next) {
            next += 1;
        }
        cuts.push(next);
        cut = next;
    }
    let near_cut = |at: usize| -> bool {
        let i = cuts.partition_point(|&c| c + 3 < at);
        cuts.get(i).is_some_and(|&c| c <= at + 3)
    };
    found.any(|at| {
        near_cut(at) || {
            let before = &b[..at];
            // Only the last KiB is read (a page of `>` and U+FEFF must
            // not be read back to its start each time); a tag longer than
            // that counts as a `</script>`.
            before.ends_with(b">") && {
                let window = &before[before.len().saturating_sub(FEFF_LOOKBACK)..];
                match memchr::memrchr(b'<', window) {
                    Some(lt) => {
                        window.len() > lt + 8
                            && window[lt + 1..lt + 8].eq_ignore_ascii_case(b"/script")
                    }
                    None => true,
                }
            }
        }
    })
}

/// The tokenizer's state: the input, where it is, the tree builder, and
/// buffers reused from token to token.
struct Fast<'a, B> {
    s: &'a str,
    pos: usize,
    b: B,
    /// Character data not yet handed to the tree builder.
    text: String,
    /// The current tag's names lowered and values with character
    /// references resolved.
    scratch: String,
    /// The current tag's attributes.
    attrs: Vec<(Span, Span)>,
    /// The name of the element whose raw text is read.
    raw_name: String,
    /// Input offset of the next limits check.
    next_check: usize,
    /// The pre-pass's edits, made on the way (a page as given), or none
    /// (a page pre-filtered, or read exactly as given).
    inline: Option<Inline>,
}

impl<B: Builder> Fast<'_, B> {
    /// The data state, to the end of the input.
    fn run(&mut self, deadline: &Deadline) -> Result<Step<()>, Error> {
        let b = self.s.as_bytes();
        while self.pos < b.len() {
            if self.pos >= self.next_check {
                self.next_check = self.pos + PARSE_CHUNK;
                if let Some(e) = self.b.refusal() {
                    return Err(e);
                }
                deadline.check(Stage::Parse)?;
            }
            let Some(off) = memchr3(b'<', b'&', 0, &b[self.pos..]) else {
                self.text.push_str(&self.s[self.pos..]);
                self.pos = b.len();
                break;
            };
            let at = self.pos + off;
            self.text.push_str(&self.s[self.pos..at]);
            self.pos = at;
            let step = match b[at] {
                b'<' => self.tag_open(),
                b'&' => {
                    let used = char_ref(self.s, at, b.len(), false, &mut self.text);
                    used.map(|n| self.pos += n)
                }
                _ => Err(GiveUp("NUL")),
            };
            if let Err(g) = step {
                return Ok(Err(g));
            }
        }
        if let Err(g) = self.flush_text() {
            return Ok(Err(g));
        }
        // The end of the input: what the tokenizer's data state emits.
        Ok(self.b.eof())
    }

    /// Hands the pending character data to the tree builder.
    fn flush_text(&mut self) -> Step<()> {
        if self.text.is_empty() {
            return Ok(());
        }
        let step = self.b.text(&self.text);
        self.text.clear();
        step
    }

    /// At a `<` in the data state.
    fn tag_open(&mut self) -> Step<()> {
        let b = self.s.as_bytes();
        let at = self.pos;
        match b.get(at + 1) {
            // `<` at the end: a character.
            None => {
                self.text.push('<');
                self.pos = at + 1;
                Ok(())
            }
            Some(c) if c.is_ascii_alphabetic() => self.tag(TagKind::StartTag, at + 1),
            Some(b'/') => match b.get(at + 2) {
                Some(c) if c.is_ascii_alphabetic() => self.tag(TagKind::EndTag, at + 2),
                // `</>`: nothing.
                Some(b'>') => {
                    self.pos = at + 3;
                    Ok(())
                }
                None => {
                    self.text.push_str("</");
                    self.pos = at + 2;
                    Ok(())
                }
                Some(_) => self.bogus_comment(at + 2),
            },
            Some(b'!') => self.markup_declaration(at + 2),
            Some(b'?') => {
                if let Some(inline) = &mut self.inline {
                    inline.declaration(b, at);
                }
                self.bogus_comment(at + 1)
            }
            // Not a tag: the `<` is a character.
            Some(_) => {
                self.text.push('<');
                self.pos = at + 1;
                Ok(())
            }
        }
    }

    /// A bogus comment: from `from` to the next `>`.
    fn bogus_comment(&mut self, from: usize) -> Step<()> {
        let b = self.s.as_bytes();
        let end = memchr(b'>', &b[from..]).map_or(b.len(), |o| from + o);
        if memchr(0, &b[from..end]).is_some() {
            return Err(GiveUp("NUL"));
        }
        self.pos = (end + 1).min(b.len());
        self.comment(from, end)
    }

    /// Emits the comment whose data is `from..to`.
    fn comment(&mut self, from: usize, to: usize) -> Step<()> {
        self.flush_text()?;
        self.b.comment(&self.s[from..to])
    }

    /// After `<!`: a comment, a doctype, or a bogus comment.
    fn markup_declaration(&mut self, from: usize) -> Step<()> {
        let b = self.s.as_bytes();
        let rest = &b[from..];
        if rest.starts_with(b"--") {
            let body = from + 2;
            // `<!-->` and `<!--->` end at once (abruptly): rare, leave them.
            if b[body..].starts_with(b">") || b[body..].starts_with(b"->") {
                return Err(GiveUp("abrupt comment"));
            }
            let Some(off) = memmem::find(&b[body..], b"-->") else {
                return Err(GiveUp("unclosed comment"));
            };
            let data = &b[body..body + off];
            // `--!>` ends a comment too; a NUL is replaced.
            if memmem::find(data, b"--!").is_some() || memchr(0, data).is_some() {
                return Err(GiveUp("comment with --! or NUL"));
            }
            self.pos = body + off + 3;
            if self.inline.is_some() {
                // The pre-pass cuts comments: the text on both sides joins.
                return Ok(());
            }
            return self.comment(body, body + off);
        }
        if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            return self.doctype(from + 7);
        }
        if rest.starts_with(b"[CDATA[") {
            // Depends on the tree builder's current node.
            return Err(GiveUp("CDATA"));
        }
        self.bogus_comment(from)
    }

    /// After `<!DOCTYPE`: `html`, with a public and/or system id in quotes,
    /// separated by whitespace, and nothing else; other forms give up.
    fn doctype(&mut self, from: usize) -> Step<()> {
        let b = self.s.as_bytes();
        let mut i = from;
        let skip_space = |mut i: usize| {
            while i < b.len() && is_space(b[i]) {
                i += 1;
            }
            i
        };
        let j = skip_space(i);
        if j == i {
            return Err(GiveUp("unusual doctype"));
        }
        i = j;
        let name_start = i;
        while i < b.len() && !is_space(b[i]) && b[i] != b'>' {
            if b[i] == 0 {
                return Err(GiveUp("unusual doctype"));
            }
            i += 1;
        }
        if i == name_start {
            return Err(GiveUp("unusual doctype"));
        }
        let name = self.s[name_start..i].to_ascii_lowercase();
        let (mut public_id, mut system_id) = (None, None);
        let s = self.s;
        // A quoted id after whitespace.
        let quoted = |i: usize| -> Option<(&str, usize)> {
            let q = *b.get(i)?;
            if q != b'"' && q != b'\'' {
                return None;
            }
            let end = i + 1 + memchr2(q, b'>', &b[i + 1..])?;
            if b[end] != q || memchr(0, &b[i + 1..end]).is_some() {
                return None;
            }
            Some((&s[i + 1..end], end + 1))
        };
        let j = skip_space(i);
        if j < b.len() && b[j] != b'>' {
            if j == i || j + 6 > b.len() {
                return Err(GiveUp("unusual doctype"));
            }
            let keyword = &b[j..j + 6];
            let public = keyword.eq_ignore_ascii_case(b"public");
            if !public && !keyword.eq_ignore_ascii_case(b"system") {
                return Err(GiveUp("unusual doctype"));
            }
            let k = skip_space(j + 6);
            if k == j + 6 {
                return Err(GiveUp("unusual doctype"));
            }
            let (first, after) = quoted(k).ok_or(GiveUp("unusual doctype"))?;
            i = after;
            if public {
                public_id = Some(first);
                let k = skip_space(i);
                if k < b.len() && b[k] != b'>' {
                    if k == i {
                        return Err(GiveUp("unusual doctype"));
                    }
                    let (system, after) = quoted(k).ok_or(GiveUp("unusual doctype"))?;
                    system_id = Some(system);
                    i = after;
                }
            } else {
                system_id = Some(first);
            }
        }
        let j = skip_space(i);
        if b.get(j) != Some(&b'>') {
            return Err(GiveUp("unusual doctype"));
        }
        self.pos = j + 1;
        self.flush_text()?;
        self.b.doctype(&name, public_id, system_id)
    }

    /// A start or end tag whose name starts at `name_start`.
    fn tag(&mut self, kind: TagKind, name_start: usize) -> Step<()> {
        let b = self.s.as_bytes();
        let mut i = name_start;
        while i < b.len() && !TAG_NAME_END[usize::from(b[i])] {
            i += 1;
        }
        if b.get(i) == Some(&0) {
            return Err(GiveUp("NUL"));
        }
        let name_end = i;
        if kind == TagKind::EndTag
            && let Some(inline) = &mut self.inline
        {
            inline.end(&b[name_start..name_end]);
        }
        self.scratch.clear();
        self.attrs.clear();
        let name = self.local(name_start, i);
        let mut had_duplicate_attributes = false;
        let mut self_closing = false;
        // Where the white space (and `/`s) before the next attribute
        // began, and the attributes kept so far: the pre-pass cuts an
        // unread attribute only after white space.
        let mut sep = i;
        let mut kept = 0;
        // Whether the last attribute kept has an unquoted value (which a
        // `/` after a cut would join).
        let mut unquoted = false;
        loop {
            let Some(&c) = b.get(i) else {
                // The end of the input inside a tag: the tag is dropped.
                return Err(GiveUp("end of input in a tag"));
            };
            match c {
                _ if is_space(c) => i += 1,
                b'/' => {
                    if b.get(i + 1) == Some(&b'>') {
                        self_closing = true;
                        i += 2;
                        break;
                    }
                    i += 1;
                }
                b'>' => {
                    i += 1;
                    break;
                }
                0 => return Err(GiveUp("NUL")),
                _ => {
                    // An attribute name: its first character may be `=`.
                    let start = i;
                    i += 1;
                    while i < b.len() && !ATTR_NAME_END[usize::from(b[i])] {
                        i += 1;
                    }
                    if b.get(i) == Some(&0) {
                        return Err(GiveUp("NUL"));
                    }
                    let name_end = i;
                    let mut k = i;
                    while k < b.len() && is_space(b[k]) {
                        k += 1;
                    }
                    // The value's bytes, character references unresolved.
                    let mut raw_value = None;
                    let has_value = b.get(k) == Some(&b'=');
                    if has_value {
                        k += 1;
                        while k < b.len() && is_space(b[k]) {
                            k += 1;
                        }
                        match b.get(k) {
                            None => return Err(GiveUp("end of input in a tag")),
                            Some(&q @ (b'"' | b'\'')) => {
                                let end = k
                                    + 1
                                    + memchr(q, &b[k + 1..])
                                        .ok_or(GiveUp("end of input in a tag"))?;
                                raw_value = Some((k + 1, end));
                                i = end + 1;
                            }
                            // `=>`: an empty value; the `>` ends the tag.
                            Some(b'>') => i = k,
                            Some(_) => {
                                let mut end = k;
                                while end < b.len() && !is_space(b[end]) && b[end] != b'>' {
                                    end += 1;
                                }
                                raw_value = Some((k, end));
                                i = end;
                            }
                        }
                    } else {
                        // No value; what follows the name is read next.
                        i = k;
                    }
                    let before = sep;
                    // The white space after a name without a value
                    // separates it from the next attribute.
                    sep = if has_value { i } else { name_end };
                    if self.inline.is_some() {
                        if kept >= MAX_ATTRIBUTES {
                            // The pre-pass cuts the rest of the tag.
                            return Err(GiveUp("the pre-pass's caps"));
                        }
                        if start > before
                            && is_space(b[start - 1])
                            && memchr(b'/', &b[before..start]).is_none()
                            && is_unread_attr(&b[start..name_end])
                        {
                            // The pre-pass's cut joins what precedes it to
                            // what follows: only white space or `>` after
                            // it leaves the tag's tokens as they were.
                            let joins = match b.get(sep) {
                                Some(&c) if is_space(c) || c == b'>' => false,
                                Some(b'/') => unquoted,
                                _ => true,
                            };
                            if joins {
                                return Err(GiveUp("an attribute cut joining its neighbours"));
                            }
                            continue;
                        }
                        kept += 1;
                        unquoted = raw_value.is_some_and(|(from, _)| {
                            !matches!(b[from - 1], b'"' | b'\'')
                        });
                    }
                    let attr_name = self.local(start, name_end);
                    let value = match raw_value {
                        Some((from, to)) => self.attr_value(from, to)?,
                        None => Span {
                            start: 0,
                            end: 0,
                            scratch: false,
                        },
                    };
                    let new = self.span(attr_name);
                    if self.attrs.iter().any(|&(n, _)| self.span(n) == new) {
                        had_duplicate_attributes = true;
                    } else {
                        self.attrs.push((attr_name, value));
                    }
                }
            }
        }
        self.pos = i;
        self.flush_text()?;
        let open = match &mut self.inline {
            Some(inline) if kind == TagKind::StartTag => Some(
                inline
                    .open(b, name_start - 1, name_end - name_start, i)
                    .map_err(GiveUp)?,
            ),
            _ => None,
        };
        let rewritten = open == Some(Open::SelfClosed);
        let tag = TagRef {
            end: kind == TagKind::EndTag,
            name: if name.scratch {
                &self.scratch[name.start..name.end]
            } else {
                &self.s[name.start..name.end]
            },
            self_closing: self_closing && !rewritten,
            had_duplicate_attributes,
            src: self.s,
            scratch: &self.scratch,
            attrs: &self.attrs,
        };
        let next = self.b.tag(&tag)?;
        if rewritten {
            // `<x …/>` on an XML page: `<x …></x>`, as the pre-pass writes
            // it (an empty element: no raw text to read).
            if next == Next::Plaintext {
                return Err(GiveUp("plaintext"));
            }
            let end = TagRef {
                end: true,
                self_closing: false,
                had_duplicate_attributes: false,
                attrs: &[],
                ..tag
            };
            self.b.tag(&end)?;
            return Ok(());
        }
        let body = match (&mut self.inline, open) {
            (Some(inline), Some(Open::Element(key))) => inline
                .body(
                    b,
                    name_start - 1,
                    name_end - name_start,
                    i,
                    key,
                    matches!(next, Next::Raw(_)),
                )
                .map_err(GiveUp)?,
            _ => Body::Keep,
        };
        match (next, body) {
            // (A kept script body follows only a raw-text state.)
            (Next::Data, Body::Keep | Body::KeepUntil(_)) => Ok(()),
            (Next::Data, Body::Skip(to)) => {
                // An `<svg>`'s drawing: its `</svg>` is read next.
                self.pos = to;
                Ok(())
            }
            (Next::Raw(_), Body::Skip(to)) => {
                // A body the pre-pass empties, then its end tag.
                self.pos = to;
                if to < b.len() {
                    self.tag(TagKind::EndTag, to + 2)
                } else {
                    Ok(())
                }
            }
            (Next::Raw(_), Body::KeepUntil(close))
                if script_end(b, self.pos) != Some(close) =>
            {
                // The pre-pass went on after the first `</script`, which
                // ends no escaped script.
                Err(GiveUp("a script the pre-pass ends elsewhere"))
            }
            (Next::Raw(kind), Body::Keep | Body::KeepUntil(_)) => {
                let mut raw_name = std::mem::take(&mut self.raw_name);
                raw_name.clear();
                raw_name.push_str(tag.name);
                let step = self.raw(kind, &raw_name);
                self.raw_name = raw_name;
                step
            }
            (Next::Plaintext, _) => Err(GiveUp("plaintext")),
        }
    }

    /// The text of a span of the current tag.
    fn span(&self, span: Span) -> &str {
        let text = if span.scratch { &self.scratch } else { self.s };
        &text[span.start..span.end]
    }

    /// The name in `from..to`, ASCII letters lowered.
    fn local(&mut self, from: usize, to: usize) -> Span {
        let raw = &self.s[from..to];
        if raw.bytes().any(|c| c.is_ascii_uppercase()) {
            let start = self.scratch.len();
            self.scratch.push_str(raw);
            self.scratch[start..].make_ascii_lowercase();
            Span {
                start,
                end: self.scratch.len(),
                scratch: true,
            }
        } else {
            Span {
                start: from,
                end: to,
                scratch: false,
            }
        }
    }

    /// An attribute value in `from..to`, character references resolved.
    fn attr_value(&mut self, from: usize, to: usize) -> Step<Span> {
        let b = self.s.as_bytes();
        let raw = &b[from..to];
        if memchr(0, raw).is_some() {
            return Err(GiveUp("NUL"));
        }
        if memchr(b'&', raw).is_none() {
            return Ok(Span {
                start: from,
                end: to,
                scratch: false,
            });
        }
        let start = self.scratch.len();
        let mut i = from;
        while let Some(off) = memchr(b'&', &b[i..to]) {
            self.scratch.push_str(&self.s[i..i + off]);
            i += off;
            i += char_ref(self.s, i, to, true, &mut self.scratch)?;
        }
        self.scratch.push_str(&self.s[i..to]);
        Ok(Span {
            start,
            end: self.scratch.len(),
            scratch: true,
        })
    }

    /// After a start tag that put the tokenizer in a raw-text state: the
    /// text up to the tag's end tag (`</name` then whitespace, `/` or
    /// `>`), then that end tag.
    fn raw(&mut self, kind: RawKind, name: &str) -> Step<()> {
        let b = self.s.as_bytes();
        if kind == RawKind::ScriptData {
            return self.script(b);
        }
        let name = name.as_bytes();
        let mut i = self.pos;
        let end = loop {
            let Some(off) = memmem::find(&b[i..], b"</") else {
                break None;
            };
            let at = i + off;
            let n = at + 2;
            if b.len() >= n + name.len()
                && b[n..n + name.len()].eq_ignore_ascii_case(name)
                && b.get(n + name.len())
                    .is_some_and(|&c| is_space(c) || c == b'/' || c == b'>')
            {
                break Some(at);
            }
            i = at + 2;
        };
        let text_end = end.unwrap_or(b.len());
        let body = &b[self.pos..text_end];
        if memchr(0, body).is_some() {
            return Err(GiveUp("NUL"));
        }
        match kind {
            RawKind::Rcdata => {
                let mut i = self.pos;
                while let Some(off) = memchr(b'&', &b[i..text_end]) {
                    self.text.push_str(&self.s[i..i + off]);
                    i += off;
                    i += char_ref(self.s, i, text_end, false, &mut self.text)?;
                }
                self.text.push_str(&self.s[i..text_end]);
            }
            RawKind::Rawtext => self.text.push_str(&self.s[self.pos..text_end]),
            _ => return Err(GiveUp("raw text state")),
        }
        self.pos = text_end;
        match end {
            Some(at) => self.tag(TagKind::EndTag, at + 2),
            None => Ok(()),
        }
    }
}

impl<B: Builder> Fast<'_, B> {
    /// A script body: text up to where [`script_end`] ends it, then
    /// that end tag.
    fn script(&mut self, b: &[u8]) -> Step<()> {
        let end = script_end(b, self.pos);
        let text_end = end.unwrap_or(b.len());
        if memchr(0, &b[self.pos..text_end]).is_some() {
            return Err(GiveUp("NUL"));
        }
        self.text.push_str(&self.s[self.pos..text_end]);
        self.pos = text_end;
        match end {
            Some(at) => self.tag(TagKind::EndTag, at + 2),
            None => Ok(()),
        }
    }
}

/// Where the script body starting at `from` ends: the `<` of the
/// `</script` (then whitespace, `/` or `>`) that ends it, which inside
/// `<!--` … `-->` is not one that follows a `<script` there (the
/// standard's escaped and double-escaped script states); `None` at the
/// end of the input.
fn script_end(b: &[u8], from: usize) -> Option<usize> {
    /// The script states that matter for finding the end.
    #[derive(PartialEq)]
    enum S {
        Data,
        Escaped,
        DoubleEscaped,
    }
    let tag_at = |i: usize, end: bool| -> bool {
        let n = i + 1 + usize::from(end);
        b.len() > n + 6
            && (!end || b[i + 1] == b'/')
            && b[n..n + 6].eq_ignore_ascii_case(b"script")
            && (is_space(b[n + 6]) || b[n + 6] == b'/' || b[n + 6] == b'>')
    };
    let mut state = S::Data;
    // Dashes just before, in the escaped states (`--` then `>` leaves).
    let mut dashes = 0;
    let mut i = from;
    loop {
        if state == S::Data {
            let Some(off) = memchr(b'<', &b[i..]) else {
                break None;
            };
            i += off;
            if tag_at(i, true) {
                break Some(i);
            }
            if b[i + 1..].starts_with(b"!--") {
                state = S::Escaped;
                dashes = 2;
                i += 4;
            } else {
                i += 1;
            }
            continue;
        }
        let Some(&c) = b.get(i) else {
            break None;
        };
        match c {
            b'-' => dashes += 1,
            b'>' if dashes >= 2 => {
                state = S::Data;
                dashes = 0;
            }
            b'<' if state == S::Escaped && tag_at(i, true) => break Some(i),
            b'<' if state == S::Escaped && tag_at(i, false) => {
                state = S::DoubleEscaped;
                dashes = 0;
                i += 8;
                continue;
            }
            b'<' if state == S::DoubleEscaped && tag_at(i, true) => {
                state = S::Escaped;
                dashes = 0;
                i += 9;
                continue;
            }
            _ => dashes = 0,
        }
        i += 1;
    }
}

/// Resolves the character reference at `at` (a `&`) in `s`, reading no
/// further than `end`, as the tokenizer does in text (`in_attr` false)
/// or in an attribute value, and appends the result (or the `&` itself)
/// to `out`. Returns the bytes consumed.
fn char_ref(s: &str, at: usize, end: usize, in_attr: bool, out: &mut String) -> Step<usize> {
    let b = &s.as_bytes()[..end];
    match b.get(at + 1) {
        Some(b'#') => Ok(numeric(b, at, out)),
        Some(c) if c.is_ascii_alphanumeric() => {
            // The longest name in the table, as html5ever walks it: every
            // prefix of a name is a key, so the walk stops at the first
            // key missing.
            let mut full: Option<(usize, (u32, u32))> = None;
            let mut k = at + 1;
            while k < b.len() && (b[k].is_ascii_alphanumeric() || b[k] == b';') {
                match NAMED_ENTITIES.get(&s[at + 1..=k]) {
                    None => break,
                    Some(&m) => {
                        if m.0 != 0 {
                            full = Some((k + 1, m));
                        }
                        if b[k] == b';' {
                            break;
                        }
                    }
                }
                k += 1;
            }
            let Some((name_end, (c1, c2))) = full else {
                // No reference: the `&` is a character.
                out.push('&');
                return Ok(1);
            };
            if b[name_end - 1] != b';' {
                let next = b.get(name_end).copied();
                if in_attr && next.is_some_and(|c| c == b'=' || c.is_ascii_alphanumeric()) {
                    // Left as written, for historical reasons.
                    out.push('&');
                    return Ok(1);
                }
            }
            out.extend(char::from_u32(c1));
            if c2 != 0 {
                out.extend(char::from_u32(c2));
            }
            Ok(name_end - at)
        }
        _ => {
            out.push('&');
            Ok(1)
        }
    }
}

/// `&#…` at `at`: decimal or hexadecimal, `;` optional, out-of-range
/// values replaced as the standard says.
fn numeric(b: &[u8], at: usize, out: &mut String) -> usize {
    let mut i = at + 2;
    let hex = matches!(b.get(i), Some(b'x' | b'X'));
    if hex {
        i += 1;
    }
    let digits_start = i;
    let mut num: u32 = 0;
    let mut too_big = false;
    while let Some(d) = b
        .get(i)
        .and_then(|&c| (c as char).to_digit(if hex { 16 } else { 10 }))
    {
        num = num.wrapping_mul(if hex { 16 } else { 10 });
        if num > 0x10FFFF {
            too_big = true;
        }
        num = num.wrapping_add(d);
        i += 1;
    }
    if i == digits_start {
        // No digits: `&#` (or `&#x`) stays as written.
        out.push('&');
        return 1;
    }
    if b.get(i) == Some(&b';') {
        i += 1;
    }
    let c = match num {
        n if n > 0x10FFFF || too_big => '\u{FFFD}',
        0 | 0xD800..=0xDFFF => '\u{FFFD}',
        0x80..=0x9F => C1_REPLACEMENTS[(num - 0x80) as usize]
            .unwrap_or_else(|| char::from_u32(num).unwrap_or('\u{FFFD}')),
        n => char::from_u32(n).unwrap_or('\u{FFFD}'),
    };
    out.push(c);
    i - at
}

#[cfg(test)]
mod tests {
    use crate::parse::{parse_fast, parse_html5ever, parse_one_pass_or_why, prefilter};

    /// The fast tokenizer's tree is html5ever's, or it gave up.
    fn same(html: &str) -> bool {
        match parse_fast(html) {
            Some(dom) => {
                assert_eq!(
                    dom.outline(),
                    parse_html5ever(html).outline(),
                    "tree differs for {html:?}"
                );
                true
            }
            None => false,
        }
    }

    #[test]
    fn hand_written_pages_build_html5evers_tree() {
        let pages = [
            "<!DOCTYPE html><html><head><title>T &amp; U</title></head><body><p>x</p></body></html>",
            "<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" 'http://www.w3.org/TR/html4/loose.dtd'><p>quirks?",
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\"><table><p>x</table>",
            "<p>a<p>b<div>c</p>d</div><li>e<li>f",
            "<b>1<p>2</b>3</p><i><u>4</i>5</u>",
            "<table>a<tr><td>b</td></tr>c</table><table><td>x<caption>y",
            "<a href=\"/x?a=1&b=2&copy=3&amp;c&lt\">x &notit; &not &#x41;&#65&#0;&#x110000;&#128;&#;&# &x</a>",
            "<div CLASS=A id='b' title=c/d data=\"e\" class=dup>x</div><br/><img src=a.png alt>",
            "<input value=a&gt=b disabled><textarea>\n&lt;b&gt; </textarea><pre>\n\nx</pre>",
            "<title>a</titlex></title><style>p{}</STYLE ><script>if(a<b)x()</script><xmp><b></xmp>",
            "<iframe><p></iframe ><noscript><p>n</noscript><noembed>e</noembed>",
            "<?xml version=\"1.0\"?><!-- c --><!--a--->x<!--b--c-->y<!x>z</ >w</3>v<3 a< b",
            "<svg><circle/><foreignObject><p>x</p></foreignObject></svg><math><mi>x</math>",
            "<select><option>a<option>b</select><frameset><frame></frameset>",
            "<body a=1><p>x<body b=2 a=3><html lang=en>",
            "a\r\nb\rc<p title='x\r\ny'>d</p>",
            "<template><p>t</template><head><meta charset=utf-8><base href=/></head>",
            "x<",
            "x</",
            "<p>x</p/><p/ class=a>y<p class=b/>",
            "<a name=x<y>z</a><a =b>c</a><a\"q=1>d</a>",
            "<table><tbody><tr><td><table><tr><td>n</td></tr></table></td></tr></tbody></table>",
            "<ul><li><b>a<li>b</b></ul><dl><dt>t<dd>d</dl><h1><h2>x</h1>",
            "<form><form><input></form><button><button>",
            "<nobr>a<nobr>b<a><a>c</a>",
            "  \n<html>\n<head>\n</head>\n<body>\n</body>\n</html>\n  x",
            "<p>&copy2024 &notit &amp &ampx &lt;3</p><a title='&copy2024'>x</a>",
            "<script><!--x</script>--></script>y",
            "<script><!-- a <script>b</script> c --></script>d</script>e",
            "<script><!-- a <SCRIPT >b</script > c </script>d",
            "<script><!--></script>x<script><!---->y</script>z",
            "<script><!-- <script>x</script>--></script>w",
            "<script>a</scriptx></script/>b<script>",
            "x\u{FEFF}y<p title='\u{FEFF}'>z",
        ];
        let taken = pages.iter().filter(|p| same(p)).count();
        assert!(
            taken >= pages.len() - 2,
            "fast path taken on {taken} of {}",
            pages.len()
        );
    }

    /// The one-pass parse's tree is the pre-filtered page's (as html5ever
    /// builds it), or it gave up (the page then takes two passes).
    fn same_in_one_pass(html: &str) -> bool {
        match parse_one_pass_or_why(html) {
            Ok(dom) => {
                assert_eq!(
                    dom.outline(),
                    parse_html5ever(&prefilter(html)).outline(),
                    "one-pass tree differs for {html:?}"
                );
                true
            }
            Err(_) => false,
        }
    }

    /// What the pre-pass edits, made in one pass: comments (text joined
    /// across them), unread attributes, script, style, noscript and
    /// `<svg>` bodies, a page that says it is XML.
    #[test]
    fn one_pass_makes_the_pre_passs_edits() {
        let taken = [
            "<p>a<!-- c -->b</p><div data-x=1 class=k onclick='f()' aria-label=l>x</div>",
            "<p id=a data-b>c</p><p data-b title=t>d</p><a href=x data-y=\"1\" />e",
            "<script>if(a<b)x()</script><style>p{}</style><noscript><p>n</noscript>z",
            "<script type=application/ld+json>{\"a\":1}</script><script>x</script>y",
            "<script><!-- a --></script>b",
            "<svg><path d=M0/><g><rect/></g></svg><p>after</p><svg/><math><mi>x</mi></math>",
            "<svg><desc><svg><circle/></svg></desc></svg>x",
            "<?xml version=\"1.0\"?><html><body><div/><a name=n/>x<p>y</p></body></html>",
            "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><span/>t<br/></body></html>",
            "<p>one/</p><div/>x",
            "a\r\n<!-- c -->\r\nb\rc",
            "<style>unclosed",
            "<script>unclosed",
        ];
        for html in taken {
            assert!(same_in_one_pass(html), "left to two passes: {html:?}");
        }
        for html in [
            // A cut that would join its neighbours.
            "<a href=x onclick=\"f()\"/>y",
            "<a onclick=\"f()\"class=c>y</a>",
            // A script the pre-pass ends at its first `</script`.
            "<script><!-- c <script>d</script> --></script>e",
            // Three self-closed elements: the pre-pass starts again as XML.
            "<div/><span/><p/>x",
            "<script src=\"a.js\"/>x",
            // Where a CR and a LF meet across a comment.
            "a\r<!-- c -->\nb",
            // Nested past our tree builder's bounds: the pre-pass caps it.
            &"<div>".repeat(super::super::MAX_DEPTH + 100),
        ] {
            assert!(!same_in_one_pass(html), "taken in one pass: {html:?}");
        }
    }

    #[test]
    fn it_gives_up_where_it_must() {
        for html in [
            "a\0b",
            "<![CDATA[x]]>",
            "<plaintext><p>",
            "<!DOCTYPE>",
            "<!DOCTYPEhtml>",
            "<p class=\"x",
            "<script>x</script>\u{FEFF}y",
            "<!-->",
        ] {
            assert!(parse_fast(html).is_none(), "{html:?}");
        }
        // A leading U+FEFF is dropped, as html5ever drops it.
        assert!(same("\u{FEFF}<p>x"));
        // One at the start of a piece parse_limited feeds: html5ever drops
        // it there, so the fast tokenizer leaves the page to html5ever.
        let mut at_cut = "a".repeat(super::PARSE_CHUNK);
        at_cut.push_str("\u{FEFF}b");
        assert!(parse_fast(&at_cut).is_none());
        // Many after `>` with no `<` in the look-back: left to html5ever,
        // without reading back to the start for each.
        let many = ">\u{FEFF}".repeat(20_000);
        assert!(parse_fast(&format!("<p>{many}")).is_none());
        assert!(same("<p>>\u{FEFF}x</p>"));
    }

    /// Tag soup from a fixed seed: formatting, block, table, list, raw
    /// text and foreign elements opened and closed at random, text with
    /// character references, attributes with and without quotes.
    #[test]
    fn generated_misnested_markup_builds_html5evers_tree() {
        const PIECES: &[&str] = &[
            "<b>",
            "</b>",
            "<i>",
            "</i>",
            "<a href=x>",
            "</a>",
            "<font color=red>",
            "</font>",
            "<p>",
            "</p>",
            "<div>",
            "</div>",
            "<span class='s'>",
            "</span>",
            "<table>",
            "</table>",
            "<tr>",
            "</tr>",
            "<td>",
            "</td>",
            "<th>",
            "<tbody>",
            "<caption>",
            "<ul>",
            "</ul>",
            "<li>",
            "</li>",
            "<h2>",
            "</h2>",
            "<br>",
            "<hr/>",
            "<img src=a>",
            "<form>",
            "</form>",
            "<select>",
            "<option>",
            "</select>",
            "<title>t</title>",
            "<textarea>x</textarea>",
            "<style>s</style>",
            "<script>a<b</script>",
            "<svg><path/></svg>",
            "<math>m</math>",
            "<head>",
            "<body id=b>",
            "</body>",
            "<script><!--",
            "<script>",
            "</script>",
            "-->",
            "&copy2",
            "<b title='&amp1'>",
            "<html>",
            "</html>",
            "<nobr>",
            "<button>",
            "</button>",
            "<pre>\nx",
            "</pre>",
            "<em>",
            "</em>",
            "<u>",
            "<s>",
            "</s>",
            "<center>",
            "<dl><dt>",
            "<dd>",
            "<frame>",
            "text ",
            " ",
            "\n",
            "&amp;",
            "&lt;p&gt;",
            "&#233;",
            "a&b",
            "<!-- c -->",
            "</x>",
            "<colgroup><col>",
            "<iframe>i</iframe>",
            "<noscript>n</noscript>",
            "<object>",
            "<applet>",
            "<marquee>",
            "</marquee>",
            "<area>",
            "<input type=hidden>",
        ];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut taken, mut one_pass) = (0, 0);
        for _ in 0..600 {
            let len = 5 + (next() % 60) as usize;
            let mut html = String::new();
            for _ in 0..len {
                html.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
            }
            if same(&html) {
                taken += 1;
            }
            one_pass += usize::from(same_in_one_pass(&html));
            // With what the pre-pass cuts between the pieces.
            let edited = html.replace("<b>", "<b data-x=1 onclick='f()'>").replace(
                "<div>",
                "<div><!-- c --><svg><g/></svg><script>s</script>",
            );
            one_pass += usize::from(same_in_one_pass(&edited));
        }
        assert!(taken > 500, "fast path taken on {taken} of 600");
        assert!(one_pass > 800, "one pass on {one_pass} of 1,200");
    }
}
