//! A linear pre-pass over the markup before tokenizing. It does three jobs:
//!
//! **Empties `<script>`, `<style>` and `<noscript>` elements** (not JSON-LD
//! scripts: they are metadata; nor MathJax's `math/tex` ones: formulas). Their bodies are raw text the cleaner throws away anyway, yet they are
//! over half the bytes of a modern page (54% of scrapinghub's HTML) and the
//! tokenizer walks them character by character. Removing them first makes
//! the same tree, minus text nodes that [`crate::clean`] would drop.
//!
//! The scan follows the HTML tokenizer's states closely enough never to
//! cut anything else: it skips comments, doctypes and CDATA, reads start
//! tags with quoted attribute values, steps over RCDATA/RAWTEXT elements
//! (`title`, `textarea`, `xmp`, `iframe`, …) without touching them, stops at
//! `<plaintext>`, and leaves alone any script whose body contains `<!--`
//! (the tokenizer's escaped states, where `</script>` may not end it).
//! Whatever it is unsure of, it keeps.
//!
//! **Cuts attributes no stage reads** ([`is_unread_attr`]: `data-*`, event
//! handlers, `srcset`, ARIA labels). After the bodies are gone, start tags
//! are 70% of scrapinghub's bytes and `data-*` alone 11%; the tokenizer
//! copies every value and interns every unknown name. Cutting them made
//! `unchaff bench` 7% faster with every algorithm's output unchanged on the
//! 12 dev folders. The tree is the same but for those attributes; callers
//! who need them parse with [`crate::parse::parse_unfiltered`].
//!
//! **Caps nesting depth at [`MAX_DEPTH`].** The HTML5 tree builder looks
//! through the stack of open elements for every block start tag, so
//! 100,000 nested `<div>`s cost it 5·10⁹ steps (128 s measured). Like
//! Blink's parser, which attaches elements nested deeper than 512 to the
//! 512th ancestor, the pre-pass tracks a simulated stack of open elements
//! and removes start tags (and their end tags) below a depth — 128, a
//! quarter of Blink's: even capped, every `<p>` under 512 non-scoping
//! ancestors has the tree builder walk all of them, and 25,000 paragraphs
//! under 512 nested blockquotes took 3.4× the instructions of a plain page
//! of their size (1.75× at 128) — their text stays, in the deepest kept
//! element. Elements whose end tags are optional
//! or implied (`p`, `li`, `td`, …) and void elements are not counted, so
//! sloppy markup does not make the simulated stack drift upward.
//!
//! **Caps the open formatting elements at [`MAX_OPEN_FORMATTING`].** The
//! tree builder keeps a list of the formatting elements (`<b>`, `<font>`,
//! `<a>`, …) left open, and *reconstructs* every one of them, as new
//! elements, in each block where text follows: 500 distinct `<b id=N>`
//! left open in a `<div>`, then 50,000 `<div>x</div>`, made 25 million
//! elements (4.2 GB) of 605 KB. The standard bounds only identical entries
//! (three, its "Noah's Ark" clause); the pre-pass simulates the list —
//! formatting start tags add, their end tags remove, table cells and
//! captions set markers that their end clears — and drops formatting start
//! tags (and as many end tags of the same name) that would put more than
//! [`MAX_OPEN_FORMATTING`] entries in it; their text stays. The simulation
//! errs on counting too many, never on the page's side; what it cannot
//! see, the element budget of [`crate::parse::parse_limited`] bounds.
//!
//! **Caps attributes per element at [`MAX_ATTRIBUTES`].** The tokenizer
//! compares each attribute's name with all the earlier ones of its tag, so
//! one element with 400,000 attributes took 56 s. Attributes past the cap
//! are cut (the tag keeps its `/>`).
//!
//! **Most pages skip this pass**: the fast tokenizer makes the same edits
//! as it reads the page ([`Inline`]), and only pages it cannot follow are
//! pre-filtered first (8% of the dev pages).
//!
//! **Honours `/>` on pages serialized as XML** ([`Serialization`]). HTML
//! parsing ignores the slash of `<div/>`, so on a page saved as XHTML
//! (`<div/>`, `<a name="x"/>`, `<script src="…"/>`, `<iframe …/>`) the
//! element stays open: a `<div/>` nests the rest of the page, a
//! `<script/>` or `<iframe/>` swallows it as raw text, and whole forum
//! threads came out empty (issue #23). On a page that says it is XML (an
//! XML declaration first, or the XHTML namespace on `<html>`), or that
//! self-closes several non-void elements or any raw-text one (which no
//! page meant for HTML parsing does), the pre-pass rewrites each
//! self-closed non-void element `<x …/>` as `<x …></x>`: the tree an XML
//! parser (and lxml) builds. Other pages are not touched: they parse as
//! browsers parse them.

use memchr::{memchr, memmem};

use crate::Error;
use crate::limits::{Deadline, Stage};

/// Deepest nesting of elements kept; deeper start tags are dropped.
/// A quarter of Blink's `kMaximumHTMLParserDOMTreeDepth` (512): the
/// deepest dev page is 68 elements deep (nearly twice that is kept), and
/// the tree builder's scope checks cost a step per open element for each
/// block start tag.
pub const MAX_DEPTH: usize = 128;

/// Most entries in the simulated list of active formatting elements
/// (module doc); formatting start tags past it are dropped. Real pages
/// keep a handful open (the 5,900 dev pages: at most 13, a page of
/// unclosed `<font>`s); each entry can cost the tree builder one element
/// per block.
pub const MAX_OPEN_FORMATTING: usize = 64;

/// Most attributes kept on one start tag; the rest are cut. The dev data's
/// busiest tag keeps 198 (after the unread ones are cut); 512 holds the
/// tokenizer's duplicate check (quadratic in the count) to 131,000
/// comparisons a tag.
pub const MAX_ATTRIBUTES: usize = 512;

/// How many identical entries (same name, same attributes) the list of
/// active formatting elements holds: the standard's Noah's Ark clause.
const NOAHS_ARK: usize = 3;

/// Tags between deadline checks in the pre-pass: a clock read every 1,024
/// tags costs nothing measurable and is well under a millisecond apart.
const TAGS_PER_DEADLINE_CHECK: u32 = 1024;

/// The formatting elements: the tree builder's list holds these.
const FORMATTING: &[&[u8]] = &[
    b"a", b"b", b"big", b"code", b"em", b"font", b"i", b"nobr", b"s", b"small", b"strike",
    b"strong", b"tt", b"u",
];

/// Elements that put a marker in the list (cells and captions only inside
/// a table: elsewhere the tree builder ignores them).
const MARKERS: &[&[u8]] = &[b"applet", b"marquee", b"object", b"template"];

/// Table cells and captions: markers inside a table.
const CELLS: &[&[u8]] = &[b"td", b"th", b"caption"];

/// Table parts whose start or end tag closes an open cell of their table.
const CLOSE_CELL: &[&[u8]] = &[b"tr", b"tbody", b"thead", b"tfoot"];

/// Elements never pushed on the simulated stack: void elements, and those
/// whose end tags are optional or implied by their siblings.
const NOT_STACKED: &[&[u8]] = &[
    b"area",
    b"base",
    b"br",
    b"col",
    b"embed",
    b"hr",
    b"img",
    b"input",
    b"link",
    b"meta",
    b"param",
    b"source",
    b"track",
    b"wbr",
    b"keygen",
    b"frame",
    b"p",
    b"li",
    b"dt",
    b"dd",
    b"option",
    b"optgroup",
    b"tr",
    b"td",
    b"th",
    b"tbody",
    b"thead",
    b"tfoot",
    b"colgroup",
    b"caption",
    b"rb",
    b"rt",
    b"rtc",
    b"rp",
    b"html",
    b"head",
    b"body",
    b"image",
];

/// The void elements (and those the tree builder treats as void): `/>`
/// on them means nothing in either serialization.
const VOID: &[&[u8]] = &[
    b"area",
    b"base",
    b"basefont",
    b"bgsound",
    b"br",
    b"col",
    b"embed",
    b"frame",
    b"hr",
    b"image",
    b"img",
    b"input",
    b"keygen",
    b"link",
    b"meta",
    b"param",
    b"source",
    b"track",
    b"wbr",
];

/// Elements whose self-closing is never rewritten: the document's
/// skeleton (an empty `<body/>` would move the page after it), and the
/// foreign roots, whose `/>` HTML parsing already honours.
const NEVER_REWRITTEN: &[&[u8]] = &[b"html", b"head", b"body", b"svg", b"math"];

/// Raw-text and RCDATA elements: one of them self-closed swallows the page
/// up to its end tag, so even one says the page was written as XML.
const RAW_TEXT: &[&[u8]] = &[
    b"script",
    b"style",
    b"noscript",
    b"title",
    b"textarea",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
];

/// Self-closed non-void elements (outside SVG and MathML) from which a page
/// with no XML declaration or namespace is taken as XML-serialized. One or
/// two are the slips of hand-written HTML (`<a name="top"/>`), which
/// browsers parse as open elements; three or more are a serializer's habit.
const SELF_CLOSED_XML_MIN: u32 = 3;

/// The namespace an XHTML page declares on `<html>`.
const XHTML_NAMESPACE: &[u8] = b"http://www.w3.org/1999/xhtml";

/// How a page is serialized, as far as the pre-pass cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Serialization {
    /// HTML: `/>` on a non-void element is ignored, as browsers do.
    Html,
    /// XML (XHTML, or a DOM saved by a tool that writes XML): `/>` closes
    /// every element.
    Xml,
}

/// The elements whose bodies are removed.
const EMPTIED: &[&[u8]] = &[b"script", b"style", b"noscript"];

/// Elements whose bodies are text up to their end tag, kept as they are.
const RAW_KEPT: &[&[u8]] = &[
    b"title",
    b"textarea",
    b"xmp",
    b"iframe",
    b"noembed",
    b"noframes",
];

/// A tag name folded for comparison: ASCII lower case, at most 16 bytes
/// (longer names share a key with their prefix: harmless for depth). A name
/// of 15 bytes or fewer has a key of its own, so one integer comparison
/// tells it from each of the short names listed above.
const fn name_key(name: &[u8]) -> u128 {
    let mut k: u128 = 0;
    let mut i = 0;
    while i < name.len() && i < 16 {
        k = (k << 8) | name[i].to_ascii_lowercase() as u128;
        i += 1;
    }
    let len = if name.len() < 255 { name.len() } else { 255 };
    k ^ (len as u128) << 120
}

/// The keys of a list of names.
const fn keys<const N: usize>(names: &[&[u8]]) -> [u128; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = name_key(names[i]);
        i += 1;
    }
    out
}

const NOT_STACKED_KEYS: [u128; NOT_STACKED.len()] = keys(NOT_STACKED);
const EMPTIED_KEYS: [u128; EMPTIED.len()] = keys(EMPTIED);
const RAW_KEPT_KEYS: [u128; RAW_KEPT.len()] = keys(RAW_KEPT);
const FORMATTING_KEYS: [u128; FORMATTING.len()] = keys(FORMATTING);
const MARKER_KEYS: [u128; MARKERS.len()] = keys(MARKERS);
const CELL_KEYS: [u128; CELLS.len()] = keys(CELLS);
const CLOSE_CELL_KEYS: [u128; CLOSE_CELL.len()] = keys(CLOSE_CELL);
const TABLE: u128 = name_key(b"table");
const A: u128 = name_key(b"a");
const NOBR: u128 = name_key(b"nobr");
const SVG: u128 = name_key(b"svg");
const MATH: u128 = name_key(b"math");
const SCRIPT: u128 = name_key(b"script");
const PLAINTEXT: u128 = name_key(b"plaintext");
const HTML: u128 = name_key(b"html");
const NOSCRIPT: u128 = name_key(b"noscript");
const VOID_KEYS: [u128; VOID.len()] = keys(VOID);
const NEVER_REWRITTEN_KEYS: [u128; NEVER_REWRITTEN.len()] = keys(NEVER_REWRITTEN);
const RAW_TEXT_KEYS: [u128; RAW_TEXT.len()] = keys(RAW_TEXT);

/// One entry of the simulated list of active formatting elements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// A marker: a table cell or caption (`cell`) of the table at nesting
    /// `tables`, or an `applet`, `marquee`, `object` or `template`.
    Marker { cell: bool, tables: u32 },
    /// A formatting element: its name's key and a hash of its attributes.
    Formatting { key: u128, attrs: u64 },
}

/// The simulated list of active formatting elements (see the module doc).
#[derive(Default)]
struct FormattingList {
    list: Vec<Entry>,
    /// Formatting entries in `list` (markers not counted).
    open: usize,
    /// Tables open (start tags seen, end tags not yet).
    tables: u32,
}

impl FormattingList {
    /// Where the entries after the last marker begin.
    fn after_marker(&self) -> usize {
        self.list
            .iter()
            .rposition(|e| matches!(e, Entry::Marker { .. }))
            .map_or(0, |p| p + 1)
    }

    /// Removes entry `at` (a formatting element).
    fn remove(&mut self, at: usize) {
        self.list.remove(at);
        self.open -= 1;
    }

    /// Removes the last formatting entry named `key` after the last marker.
    fn remove_last(&mut self, key: u128) {
        let from = self.after_marker();
        if let Some(p) = self.list[from..]
            .iter()
            .rposition(|e| matches!(e, Entry::Formatting { key: k, .. } if *k == key))
        {
            self.remove(from + p);
        }
    }

    /// Clears the list back to (and including) the last marker.
    fn clear_to_marker(&mut self) {
        while let Some(e) = self.list.pop() {
            match e {
                Entry::Marker { .. } => break,
                Entry::Formatting { .. } => self.open -= 1,
            }
        }
    }

    /// Closes the open cell (or caption) of the innermost table, if any.
    fn close_cell(&mut self) {
        let open_cell = self.list.iter().rev().find_map(|e| match e {
            Entry::Marker { cell, tables } => Some(*cell && *tables == self.tables),
            Entry::Formatting { .. } => None,
        });
        if open_cell == Some(true) {
            self.clear_to_marker();
        }
    }

    /// A start tag the pre-pass keeps, with its attribute bytes; returns
    /// whether to drop it instead (a formatting element past the cap).
    fn start(&mut self, key: u128, attrs: &[u8]) -> bool {
        if FORMATTING_KEYS.contains(&key) {
            let from = self.after_marker();
            let entry = Entry::Formatting {
                key,
                attrs: attr_hash(attrs),
            };
            let same = self.list[from..].iter().filter(|&&e| e == entry).count();
            // A second <a> (or <nobr>) closes the first.
            let replaces = (key == A || key == NOBR)
                && self.list[from..]
                    .iter()
                    .any(|e| matches!(e, Entry::Formatting { key: k, .. } if *k == key));
            // Decide before changing the list: a dropped tag changes nothing.
            if !replaces && same < NOAHS_ARK && self.open >= MAX_OPEN_FORMATTING {
                return true;
            }
            if replaces {
                self.remove_last(key);
            }
            if let Some(p) = (same >= NOAHS_ARK)
                .then(|| self.list[from..].iter().position(|&e| e == entry))
                .flatten()
            {
                // The earliest identical entry goes.
                self.remove(from + p);
            }
            self.list.push(entry);
            self.open += 1;
        } else if key == TABLE {
            self.tables += 1;
        } else if CELL_KEYS.contains(&key) {
            if self.tables > 0 {
                self.close_cell();
                self.list.push(Entry::Marker {
                    cell: true,
                    tables: self.tables,
                });
            }
        } else if CLOSE_CELL_KEYS.contains(&key) {
            self.close_cell();
        } else if MARKER_KEYS.contains(&key) {
            self.list.push(Entry::Marker {
                cell: false,
                tables: self.tables,
            });
        }
        false
    }

    /// An end tag (not one the pre-pass drops).
    fn end(&mut self, key: u128) {
        if FORMATTING_KEYS.contains(&key) {
            self.remove_last(key);
        } else if key == TABLE {
            if self.tables > 0 {
                self.close_cell();
                self.tables -= 1;
            }
        } else if CELL_KEYS.contains(&key) || MARKER_KEYS.contains(&key) {
            if self.list.iter().any(|e| matches!(e, Entry::Marker { .. })) {
                self.clear_to_marker();
            }
        } else if CLOSE_CELL_KEYS.contains(&key) {
            self.close_cell();
        }
    }
}

/// A hash of a start tag's attribute bytes, for the Noah's Ark clause
/// (identical markup: stricter than the standard's same-attributes test,
/// so it never merges entries the tree builder keeps apart).
fn attr_hash(attrs: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    attrs.hash(&mut h);
    h.finish()
}

/// The simulated stack of open elements and list of formatting elements
/// (see the module doc).
#[derive(Default)]
struct DepthLimit {
    stack: Vec<u128>,
    /// Dropped start tags whose end tags are still to come, by name.
    dropped: rustc_hash::FxHashMap<u128, u32>,
    /// Inside `<svg>`/`<math>`, where `/>` really closes an element.
    foreign: u32,
    /// The list of active formatting elements.
    formatting: FormattingList,
    /// Where each open table cell (or caption) began on the simulated
    /// stack: a cell's end, written or implied by the next cell or row,
    /// closes whatever was left open in it, as in the tree builder. Without
    /// this, a `<font>` left open in each of 200 cells would count as 200
    /// levels of nesting.
    cells: Vec<usize>,
}

impl DepthLimit {
    /// A start tag with its attribute bytes; returns whether to drop it.
    fn open(&mut self, key: u128, self_closing: bool, attrs: &[u8]) -> bool {
        let cell = CELL_KEYS.contains(&key);
        if cell || CLOSE_CELL_KEYS.contains(&key) {
            self.end_cell();
        }
        if NOT_STACKED_KEYS.contains(&key) {
            // Table parts (tr, tbody, …) close cells; the rest are no
            // formatting elements or markers.
            self.formatting.start(key, attrs);
            if cell {
                self.cells.push(self.stack.len());
            }
            return false;
        }
        // In foreign content `/>` closes an element, and on the `<svg/>`
        // or `<math/>` that would open it too.
        if self_closing && (self.foreign > 0 || key == SVG || key == MATH) {
            return false;
        }
        if self.stack.len() >= MAX_DEPTH || self.formatting.start(key, attrs) {
            *self.dropped.entry(key).or_insert(0) += 1;
            return true;
        }
        if key == SVG || key == MATH {
            self.foreign += 1;
        }
        self.stack.push(key);
        false
    }

    /// An end tag; returns whether to drop it.
    fn close(&mut self, name: &[u8]) -> bool {
        let key = name_key(name);
        // (Nothing dropped on nearly every page: no lookup then.)
        if !self.dropped.is_empty()
            && let Some(n) = self.dropped.get_mut(&key).filter(|n| **n > 0)
        {
            *n -= 1;
            return true;
        }
        self.formatting.end(key);
        if CELL_KEYS.contains(&key) || CLOSE_CELL_KEYS.contains(&key) {
            self.end_cell();
        }
        // Close up to the nearest open element of that name, if any (the
        // stack is at most MAX_DEPTH deep, so this search is bounded).
        if let Some(pos) = self.stack.iter().rposition(|&k| k == key) {
            self.truncate(pos);
        }
        false
    }

    /// Ends the innermost open cell, unless a table opened inside it (the
    /// cell tag or row then belongs to that table).
    fn end_cell(&mut self) {
        if let Some(&base) = self.cells.last()
            && !self.stack[base.min(self.stack.len())..].contains(&TABLE)
        {
            self.cells.pop();
            self.truncate(base);
        }
    }

    /// Pops the simulated stack down to `len` elements, and forgets the
    /// cells that began above it.
    fn truncate(&mut self, len: usize) {
        if len < self.stack.len() {
            for k in self.stack.drain(len..) {
                if k == SVG || k == MATH {
                    self.foreign = self.foreign.saturating_sub(1);
                }
            }
        }
        while self.cells.last().is_some_and(|&b| b > self.stack.len()) {
            self.cells.pop();
        }
    }
}

/// Whether a `<script …>` start tag's body is read by a later stage, so
/// kept: JSON-LD (`ld+json`, page metadata for [`crate::metadata`]) and
/// MathJax's TeX sources (`math/tex`, read as formulas by
/// [`crate::clean`]), in any case.
fn is_read_script(tag: &[u8]) -> bool {
    tag.windows(7).any(|w| match w[0] | 0x20 {
        b'l' => w.eq_ignore_ascii_case(b"ld+json"),
        b'm' => w.eq_ignore_ascii_case(b"math/te"),
        _ => false,
    })
}

/// `html` without the bodies of script, style and noscript elements (but
/// JSON-LD and TeX scripts), without unread attributes and those past
/// [`MAX_ATTRIBUTES`], and without the tags nested deeper than
/// [`MAX_DEPTH`] or opening formatting elements past
/// [`MAX_OPEN_FORMATTING`]; the input itself (borrowed) when there is
/// nothing to remove.
pub fn prefilter(html: &str) -> std::borrow::Cow<'_, str> {
    // Without a deadline the pre-pass cannot fail.
    prefilter_until(html, &Deadline::NONE).unwrap_or(std::borrow::Cow::Borrowed(html))
}

/// [`prefilter`], checking `deadline` every 1,024
/// tags: [`Error::Timeout`] when it passes.
pub fn prefilter_until<'h>(
    html: &'h str,
    deadline: &Deadline,
) -> Result<std::borrow::Cow<'h, str>, Error> {
    filter(html, deadline, false)
}

/// [`prefilter_until`] for a page that came out (nearly) empty, whose
/// text may lie where a browser running scripts shows nothing: the
/// bodies of `<noscript>` elements are kept as markup and their tags cut
/// (forum software renders its posts there for clients without
/// JavaScript), and a `<title>`, `<textarea>`, `<iframe>` … with no end
/// tag ends at its first `<` instead of swallowing the rest of the page
/// (a crawler's cut left such titles). Only for rescuing such pages
/// ([`crate::parse::parse_rescue`]): ordinary pages must parse as in a
/// browser.
pub fn prefilter_rescue<'h>(
    html: &'h str,
    deadline: &Deadline,
) -> Result<std::borrow::Cow<'h, str>, Error> {
    filter(html, deadline, true)
}

/// The pre-pass; `rescue`: see [`prefilter_rescue`].
fn filter<'h>(
    html: &'h str,
    deadline: &Deadline,
    rescue: bool,
) -> Result<std::borrow::Cow<'h, str>, Error> {
    let mut edits = scan(html.as_bytes(), deadline, Serialization::Html, rescue)?;
    if edits.serialization == Serialization::Html && edits.looks_xml() {
        // Rare (pages that self-close non-void elements without saying
        // they are XML): a second pass, rewriting them.
        edits = scan(html.as_bytes(), deadline, Serialization::Xml, rescue)?;
    }
    let Edits { cuts, closes, .. } = edits;
    if cuts.is_empty() && closes.is_empty() {
        return Ok(std::borrow::Cow::Borrowed(html));
    }
    let removed: usize = cuts.iter().map(|(s, e)| e - s).sum();
    let added: usize = closes.iter().map(|c| c.name.len() + 3).sum();
    let mut out = String::with_capacity(html.len() - removed + added);
    let mut from = 0;
    let mut closes = closes.iter().peekable();
    // Cuts start at '<' or after '>' and end at '<' or after '>', and end
    // tags go in after a '>': always on char boundaries.
    let mut close_before = |out: &mut String, from: &mut usize, upto: usize| {
        while let Some(c) = closes.next_if(|c| c.at <= upto) {
            if c.at >= *from {
                out.push_str(&html[*from..c.at]);
                *from = c.at;
            }
            out.push_str("</");
            out.push_str(&html[c.name.clone()]);
            out.push('>');
        }
    };
    for (s, e) in cuts {
        close_before(&mut out, &mut from, s);
        out.push_str(&html[from..s]);
        from = e;
    }
    close_before(&mut out, &mut from, html.len());
    out.push_str(&html[from..]);
    Ok(std::borrow::Cow::Owned(out))
}

/// An end tag the pre-pass writes: at byte `at`, the name at `name`.
struct Close {
    at: usize,
    name: std::ops::Range<usize>,
}

/// What one pass of the pre-pass decided.
struct Edits {
    /// Byte ranges to cut, in order.
    cuts: Vec<(usize, usize)>,
    /// End tags to write (self-closed elements of an XML page), in order.
    closes: Vec<Close>,
    /// The serialization the pass ended in (a pass over HTML switches to
    /// XML at an XML declaration or the XHTML namespace).
    serialization: Serialization,
    /// Self-closed non-void elements seen (outside SVG and MathML).
    self_closed: u32,
    /// Whether one of them was a raw-text element.
    raw_self_closed: bool,
}

impl Edits {
    /// Whether an HTML pass saw what only XML serializers write.
    fn looks_xml(&self) -> bool {
        self.raw_self_closed || self.self_closed >= SELF_CLOSED_XML_MIN
    }
}

/// Whether `<?…` at `lt` is an XML declaration at the top of the document
/// (after a byte-order mark and white space at most).
fn is_xml_declaration(b: &[u8], lt: usize) -> bool {
    let before = &b[..lt];
    let before = before.strip_prefix("\u{feff}".as_bytes()).unwrap_or(before);
    before.iter().all(u8::is_ascii_whitespace)
        && b[lt..].starts_with(b"<?xml")
        && b.get(lt + 5).is_some_and(u8::is_ascii_whitespace)
}

/// One pass of the pre-pass over `b` (see [`prefilter_until`]).
fn scan(
    b: &[u8],
    deadline: &Deadline,
    mut mode: Serialization,
    rescue: bool,
) -> Result<Edits, Error> {
    let mut tags: u32 = 0;
    let mut edits = Edits {
        cuts: Vec::new(),
        closes: Vec::new(),
        serialization: mode,
        self_closed: 0,
        raw_self_closed: false,
    };
    let cuts = &mut edits.cuts;
    let mut seen_html = false;
    let mut depth = DepthLimit::default();
    // The current start tag's unread attributes, cut only if the tag stays.
    let mut attr_cuts: Vec<(usize, usize)> = Vec::new();
    let mut found = Remembered::default();
    let mut i = 0;
    while let Some(off) = memchr(b'<', &b[i..]) {
        let lt = i + off;
        tags = tags.wrapping_add(1);
        if tags.is_multiple_of(TAGS_PER_DEADLINE_CHECK) {
            deadline.check(Stage::Parse)?;
        }
        let rest = &b[lt + 1..];
        if rest.starts_with(b"!--") {
            // Comments never reach the tree (see crate::parse): cut them.
            i = comment_end(b, lt + 4);
            cuts.push((lt, i));
            continue;
        }
        if rest.starts_with(b"![CDATA[") {
            i = memmem::find(&b[lt..], b"]]>").map_or(b.len(), |p| lt + p + 3);
            continue;
        }
        if rest.first() == Some(&b'?') && is_xml_declaration(b, lt) {
            mode = Serialization::Xml;
        }
        if rest.first() == Some(&b'!') || rest.first() == Some(&b'?') {
            i = memchr(b'>', &b[lt..]).map_or(b.len(), |p| lt + p + 1);
            continue;
        }
        if rest.first() == Some(&b'/') {
            let end = tag_end(b, lt + 2);
            let name_len = rest[1..]
                .iter()
                .take_while(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>'))
                .count();
            let name = &rest[1..1 + name_len];
            if name_len > 0
                && rest[1].is_ascii_alphabetic()
                && (depth.close(name) || rescue && name_key(name) == NOSCRIPT)
            {
                cuts.push((lt, end));
            }
            i = end;
            continue;
        }
        let name_len = rest
            .iter()
            .take_while(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>'))
            .count();
        if name_len == 0 || !rest[0].is_ascii_alphabetic() {
            i = lt + 1;
            continue;
        }
        let name = &rest[..name_len];
        attr_cuts.clear();
        let open_end = start_tag_end(b, lt + 1 + name_len, &mut attr_cuts);
        i = open_end;
        let key = name_key(name);
        if key == PLAINTEXT {
            break;
        }
        let self_closing = open_end >= 2 && b[open_end - 2] == b'/';
        if key == HTML && !seen_html {
            seen_html = true;
            if memmem::find(&b[lt..open_end], XHTML_NAMESPACE).is_some() {
                mode = Serialization::Xml;
            }
        }
        // `<x …/>` on a non-void element outside foreign content: the
        // slash right after the name, a quoted value or white space (after
        // an unquoted value it belongs to the value).
        if self_closing
            && depth.foreign == 0
            && (open_end - 2 == lt + 1 + name_len
                || matches!(
                    b[open_end - 3],
                    b'"' | b'\'' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'
                ))
            && !VOID_KEYS.contains(&key)
            && !NEVER_REWRITTEN_KEYS.contains(&key)
        {
            match mode {
                Serialization::Html => {
                    edits.self_closed += 1;
                    edits.raw_self_closed |= RAW_TEXT_KEYS.contains(&key);
                    if edits.raw_self_closed || edits.self_closed >= SELF_CLOSED_XML_MIN {
                        // The caller starts again in XML mode.
                        break;
                    }
                }
                Serialization::Xml => {
                    // An empty element: nothing opens, nothing to empty.
                    if depth.stack.len() >= MAX_DEPTH {
                        cuts.push((lt, open_end));
                    } else {
                        cuts.extend_from_slice(&attr_cuts);
                        cuts.push((open_end - 2, open_end - 1));
                        edits.closes.push(Close {
                            at: open_end,
                            name: lt + 1..lt + 1 + name_len,
                        });
                    }
                    continue;
                }
            }
        }
        if depth.open(key, self_closing, &b[lt + 1 + name_len..open_end]) {
            cuts.push((lt, open_end));
            continue;
        }
        if rescue && key == NOSCRIPT {
            // Its body is parsed as markup, in its parent's place.
            cuts.push((lt, open_end));
            continue;
        }
        cuts.extend_from_slice(&attr_cuts);
        if key == SVG && !self_closing {
            // The cleaner keeps an <svg> as an empty box (crate::clean):
            // its drawing instructions, often 4% of a page, are cut here
            // unless another <svg> nests inside (then the first </svg>
            // would not be this one's).
            if let Some(close) = found.find(SVG, open_end, |from| find_end_tag(b, from, name)) {
                let nested = found
                    .find(SVG_START, open_end, |from| find_svg_start(b, from))
                    .is_some_and(|p| p < close);
                if !nested {
                    if close > open_end {
                        cuts.push((open_end, close));
                    }
                    i = close;
                }
            }
            continue;
        }
        let emptied = EMPTIED_KEYS.contains(&key);
        let kept = RAW_KEPT_KEYS.contains(&key);
        if !emptied && !kept {
            continue;
        }
        let Some(close) = found.find(key, open_end, |from| find_end_tag(b, from, name)) else {
            if rescue
                && kept
                && let Some(p) = memchr(b'<', &b[open_end..])
            {
                // Ends at its first tag rather than at the end of the page.
                edits.closes.push(Close {
                    at: open_end + p,
                    name: lt + 1..lt + 1 + name_len,
                });
                i = open_end + p;
                continue;
            }
            // Unclosed: the element runs to the end of the document.
            if emptied && key != SCRIPT {
                cuts.push((open_end, b.len()));
            }
            break;
        };
        if emptied {
            let body = &b[open_end..close];
            let is_script = key == SCRIPT;
            let escaped = is_script && memmem::find(body, b"<!--").is_some();
            let read = is_script && is_read_script(&b[lt..open_end]);
            if !escaped && !read && !body.is_empty() {
                cuts.push((open_end, close));
            }
        }
        i = close;
    }
    edits.serialization = mode;
    Ok(edits)
}

/// The pre-pass's edits made inline, by the fast tokenizer reading a page
/// as given (`parse/fast.rs`), so that the common page is scanned once
/// instead of twice (the pre-pass was 16% of extraction): the tokenizer
/// drops comments and [`is_unread_attr`] attributes itself, and asks
/// this, tag by tag, what the pre-pass would have done with the tag and
/// its body. Where the pre-pass would have changed the page in a way the
/// tokens cannot follow (a page serialized as XML without saying so, a
/// raw-text element read as markup, a script it ends elsewhere), it
/// answers why, and the page is parsed in two passes: [`prefilter_until`],
/// then the tokenizer.
///
/// The caps ([`MAX_DEPTH`], [`MAX_OPEN_FORMATTING`]) are not simulated
/// here: our tree builder gives up past its own bounds on the stack of
/// open elements and the list of formatting elements (a little above the
/// caps), and such a page too is parsed in two passes, capped. Searches
/// for end tags are [`Remembered`], as in the pre-pass.
#[derive(Default)]
pub(super) struct Inline {
    /// `<svg>` and `<math>` elements open (start tags less end tags): a
    /// `/>` inside them is not the mark of an XML page.
    foreign: u32,
    found: Remembered,
    /// Whether the first `<html>` tag was seen.
    seen_html: bool,
    /// Whether the page said it is XML (the pre-pass then rewrites
    /// self-closed elements, which the tokenizer does not).
    xml: bool,
    /// Self-closed non-void elements seen (outside SVG and MathML).
    self_closed: u32,
}

/// What the pre-pass makes of a start tag (see [`Inline::open`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Open {
    /// An element as written; its name's key, for [`Inline::body`].
    Element(Key),
    /// A self-closed element of a page serialized as XML, which the
    /// pre-pass rewrites as a start tag (not self-closing) and its end tag.
    SelfClosed,
}

/// A tag name's key (opaque outside the pre-pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Key(u128);

/// What the tokenizer does after a start tag (see [`Inline::body`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Body {
    /// Reads on, as the tree builder said.
    Keep,
    /// Reads a script body on, which must end at `.0`, the first
    /// `</script` after it, where the pre-pass went on (a script whose
    /// body has `<!--`).
    KeepUntil(usize),
    /// Skips to `to`: the `<` of the end tag that ends the body (the
    /// pre-pass cut what lies between), or the end of the input.
    Skip(usize),
}

impl Inline {
    /// A start tag of `b` at `lt` (its `<`), whose name is `name_len`
    /// bytes and which ends just before `end` (past its `>`), before the
    /// tree builder has it: as written or rewritten, or why the page needs
    /// the pre-pass.
    pub(super) fn open(
        &mut self,
        b: &[u8],
        lt: usize,
        name_len: usize,
        end: usize,
    ) -> Result<Open, &'static str> {
        let key = name_key(&b[lt + 1..lt + 1 + name_len]);
        // As the pre-pass reads it: the byte before `>` (an unquoted
        // value's `/` included).
        let self_closing = end >= 2 && b[end - 2] == b'/';
        if key == HTML && !self.seen_html {
            self.seen_html = true;
            self.xml |= memmem::find(&b[lt..end], XHTML_NAMESPACE).is_some();
        }
        if self_closing
            && self.foreign == 0
            && (end - 2 == lt + 1 + name_len
                || matches!(b[end - 3], b'"' | b'\'' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'))
            && !VOID_KEYS.contains(&key)
            && !NEVER_REWRITTEN_KEYS.contains(&key)
        {
            if self.xml {
                return Ok(Open::SelfClosed);
            }
            self.self_closed += 1;
            if RAW_TEXT_KEYS.contains(&key) || self.self_closed >= SELF_CLOSED_XML_MIN {
                // The pre-pass starts again, rewriting the ones before.
                return Err("a page serialized as XML without saying so");
            }
        }
        if (key == SVG || key == MATH) && !self_closing {
            self.foreign += 1;
        }
        Ok(Open::Element(Key(key)))
    }

    /// After the tree builder took the start tag [`Inline::open`] read as
    /// `Open::Element(key)`; `raw`: the tree builder put the tokenizer in a
    /// raw-text state. What to do with the element's body, or why the
    /// page needs the pre-pass.
    pub(super) fn body(
        &mut self,
        b: &[u8],
        lt: usize,
        name_len: usize,
        end: usize,
        Key(key): Key,
        raw: bool,
    ) -> Result<Body, &'static str> {
        let name = &b[lt + 1..lt + 1 + name_len];
        let self_closing = end >= 2 && b[end - 2] == b'/';
        if key == SVG && !self_closing {
            if let Some(close) = self.found.find(SVG, end, |from| find_end_tag(b, from, name)) {
                let nested = self
                    .found
                    .find(SVG_START, end, |from| find_svg_start(b, from))
                    .is_some_and(|p| p < close);
                if !nested {
                    return Ok(Body::Skip(close));
                }
            }
            return Ok(Body::Keep);
        }
        let emptied = EMPTIED_KEYS.contains(&key);
        if !emptied && !RAW_KEPT_KEYS.contains(&key) {
            return Ok(Body::Keep);
        }
        if !raw {
            // The pre-pass steps over its body; the tree builder reads it
            // as markup (in SVG, say).
            return Err("a raw-text element read as markup");
        }
        if !emptied {
            // The tokenizer's raw-text state ends where the pre-pass's
            // search does.
            return Ok(Body::Keep);
        }
        Ok(
            match self.found.find(key, end, |from| find_end_tag(b, from, name)) {
                // An unclosed script runs to the end as it is; the others
                // are emptied to the end.
                None if key == SCRIPT => Body::Keep,
                None => Body::Skip(b.len()),
                Some(close) => {
                    let body = &b[end..close];
                    let kept = key == SCRIPT
                        && (memmem::find(body, b"<!--").is_some() || is_read_script(&b[lt..end]));
                    if kept { Body::KeepUntil(close) } else { Body::Skip(close) }
                }
            },
        )
    }

    /// An end tag named `name` (as written), or why the page needs the
    /// pre-pass.
    pub(super) fn end(&mut self, name: &[u8]) {
        if matches!(name.len(), 3 | 4) && matches!(name_key(name), SVG | MATH) {
            self.foreign = self.foreign.saturating_sub(1);
        }
    }

    /// `<?` at `lt`: an XML declaration at the top switches the pre-pass
    /// to XML.
    pub(super) fn declaration(&mut self, b: &[u8], lt: usize) {
        self.xml |= is_xml_declaration(b, lt);
    }
}

/// The index after the comment starting at `from` (just past `<!--`),
/// including the tokenizer's abrupt forms `<!-->` and `<!--->`.
fn comment_end(b: &[u8], from: usize) -> usize {
    if b[from..].starts_with(b">") {
        return from + 1;
    }
    if b[from..].starts_with(b"->") {
        return from + 2;
    }
    memmem::find(&b[from..], b"-->").map_or(b.len(), |p| from + p + 3)
}

/// The index after the `>` that ends the tag whose attributes start at
/// `from`; a quote opens a value only after `=`, as in the tokenizer.
fn tag_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    let mut after_eq = false;
    while i < b.len() {
        match b[i] {
            b'>' => return i + 1,
            b'=' => after_eq = true,
            b'"' | b'\'' if after_eq => {
                let q = b[i];
                i = memchr(q, &b[i + 1..]).map_or(b.len(), |p| i + 1 + p);
                after_eq = false;
            }
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => {}
            _ => after_eq = false,
        }
        i += 1;
    }
    b.len()
}

/// Whether no stage reads an attribute of this name (any case), so the
/// pre-pass may cut it: `data-*` (11% of scrapinghub's bytes after the
/// bodies are cut, and mostly names the tokenizer must intern one by one),
/// `on*` event handlers, `sizes`, and ARIA's labels and states but
/// `aria-hidden` and `aria-controls` (read by [`crate::clean`]: what
/// hides an element, what a button shows); but the attributes an image's
/// source may be in ([`IMAGE_SOURCES`]).
/// None of them changes how the tree is built.
pub(crate) fn is_unread_attr(name: &[u8]) -> bool {
    let starts = |p: &[u8]| name.len() >= p.len() && name[..p.len()].eq_ignore_ascii_case(p);
    (starts(b"data-") || starts(b"on") || starts(b"aria-"))
        && !name.eq_ignore_ascii_case(b"aria-hidden")
        && !name.eq_ignore_ascii_case(b"aria-controls")
        && !is_image_source(name)
        || name.eq_ignore_ascii_case(b"sizes")
}

/// The attributes an image's real source may be in (`srcset`, and those
/// of lazy-loading scripts): read by the renderers' image resolution.
const IMAGE_SOURCES: &[&[u8]] = &[
    b"srcset",
    b"data-src",
    b"data-srcset",
    b"data-lazy-src",
    b"data-lazy-srcset",
    b"data-original",
];

fn is_image_source(name: &[u8]) -> bool {
    IMAGE_SOURCES.iter().any(|a| name.eq_ignore_ascii_case(a))
}

/// Like [`tag_end`] for a start tag, following the tokenizer's attribute
/// states, and pushing onto `cuts` the byte range of each attribute that
/// [`is_unread_attr`] names, from the white space before it to the end of
/// its value. Attributes not preceded by white space (after `/` or a
/// closing quote) are left alone: cutting them could turn a `/` into a
/// self-closing `/>`. Attributes past [`MAX_ATTRIBUTES`] kept ones are cut
/// in one range, up to the tag's `/>` or `>`.
fn start_tag_end(b: &[u8], from: usize, cuts: &mut Vec<(usize, usize)>) -> usize {
    let ws = |c: u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c');
    let mut i = from;
    // Attributes kept so far; where the cut of those past the cap starts;
    // whether the last kept one has an unquoted value (which a `/` right
    // after it would join).
    let mut kept = 0;
    let mut tail: Option<usize> = None;
    let mut unquoted = false;
    loop {
        // Before an attribute name: white space and '/' separate.
        let sep = i;
        while i < b.len() && (ws(b[i]) || b[i] == b'/') {
            i += 1;
        }
        match (b.get(i), tail) {
            (None, None) => return b.len(),
            (Some(b'>'), None) => return i + 1,
            (None, Some(t)) => {
                cuts.push((t, b.len()));
                return b.len();
            }
            (Some(b'>'), Some(t)) => {
                // Keep a `/` that makes the tag self-closing, after white
                // space when the last kept value is unquoted.
                let end = if b[i - 1] == b'/' { i - 1 } else { i };
                let start = if end < i && unquoted { t + 1 } else { t };
                if start < end {
                    cuts.push((start, end));
                }
                return i + 1;
            }
            _ => {}
        }
        if tail.is_none() && kept >= MAX_ATTRIBUTES {
            tail = Some(sep);
        }
        let cut_from = (i > sep && ws(b[i - 1]) && !b[sep..i].contains(&b'/')).then_some(sep);
        // The name: its first character may be '='; it ends at white space,
        // '/', '>' or '='.
        let name_start = i;
        i += 1;
        while i < b.len() && !ws(b[i]) && !matches!(b[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        let name = &b[name_start..i];
        let mut end = i;
        // After the name: white space, then '=' and a value, or not.
        let mut j = i;
        while j < b.len() && ws(b[j]) {
            j += 1;
        }
        let mut value_unquoted = false;
        if b.get(j) == Some(&b'=') {
            j += 1;
            while j < b.len() && ws(b[j]) {
                j += 1;
            }
            match b.get(j) {
                None => {
                    if let Some(t) = tail {
                        cuts.push((t, b.len()));
                    }
                    return b.len();
                }
                Some(&q @ (b'"' | b'\'')) => match memchr(q, &b[j + 1..]) {
                    Some(p) => j += p + 2,
                    None => {
                        if let Some(t) = tail {
                            cuts.push((t, b.len()));
                        }
                        return b.len();
                    }
                },
                // A missing value: the tag ends here.
                Some(b'>') => {}
                Some(_) => {
                    value_unquoted = true;
                    while j < b.len() && !ws(b[j]) && b[j] != b'>' {
                        j += 1;
                    }
                }
            }
            end = j;
            i = j;
        }
        if tail.is_some() {
            continue;
        }
        if let Some(start) = cut_from.filter(|_| is_unread_attr(name)) {
            cuts.push((start, end));
        } else {
            kept += 1;
            unquoted = value_unquoted;
        }
    }
}

/// The key [`Remembered`] files searches for `<svg` under (not a tag
/// name: no name starts with `<`).
const SVG_START: u128 = name_key(b"<svg");

/// Searches that the pre-pass remembers, by what they look for: the
/// first `</name` at or after a position, the first `<svg`. The pass only
/// moves forward, so a search from `from` finds what an earlier search
/// from before `from` found, as long as `from` has not passed it (and
/// nothing, once an earlier search found nothing). Each new search then
/// reads bytes that no earlier one read, and the pass stays linear
/// whatever a page repeats: 40,000 `<svg>`s without a `</svg>` had each
/// searched to the end of the page (issue 41: 48.6 s at 160,000).
#[derive(Default)]
struct Remembered {
    /// Per key: where the last search started, and what it found.
    last: Vec<(u128, usize, Option<usize>)>,
}

impl Remembered {
    /// The result of `search(from)`, from memory when an earlier search
    /// under `key` settles it.
    fn find(
        &mut self,
        key: u128,
        from: usize,
        search: impl FnOnce(usize) -> Option<usize>,
    ) -> Option<usize> {
        let slot = match self.last.iter().position(|e| e.0 == key) {
            Some(k) => k,
            None => {
                self.last.push((key, usize::MAX, None));
                self.last.len() - 1
            }
        };
        let (_, start, hit) = self.last[slot];
        if from >= start && hit.is_none_or(|h| from <= h) {
            return hit;
        }
        let hit = search(from);
        self.last[slot] = (key, from, hit);
        hit
    }
}

/// The index of the first `<svg` (any case) at or after `from`.
fn find_svg_start(b: &[u8], from: usize) -> Option<usize> {
    let hit = svg_start(b, from);
    #[cfg(test)]
    tests::searched(b, from, hit);
    hit
}

fn svg_start(b: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(p) = memchr(b'<', &b[i..]) {
        let at = i + p;
        if b.len() >= at + 4 && b[at + 1..at + 4].eq_ignore_ascii_case(b"svg") {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

/// The index of the `<` of the first `</name` (any case) after `from` that
/// is followed by white space, `/` or `>` — the only end of raw text.
fn find_end_tag(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let hit = end_tag(b, from, name);
    #[cfg(test)]
    tests::searched(b, from, hit);
    hit
}

fn end_tag(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut i = from;
    while let Some(p) = memmem::find(&b[i..], b"</") {
        let at = i + p;
        let after = at + 2;
        if b.len() >= after + name.len()
            && b[after..after + name.len()].eq_ignore_ascii_case(name)
            && matches!(
                b.get(after + name.len()),
                Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>')
            )
        {
            return Some(at);
        }
        i = at + 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// Bytes the raw-text and `<svg` searches were asked to search
        /// (from where each starts to the end of the page).
        static SEARCHED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    /// Counts the bytes a search read: from `from` to what it found, or
    /// to the end of the page.
    pub(super) fn searched(b: &[u8], from: usize, hit: Option<usize>) {
        SEARCHED.with(|n| n.set(n.get() + hit.unwrap_or(b.len()) - from));
    }

    /// Issue 41, defect 8: `<table><tr><td><svg><foreignObject><svg>`
    /// repeated made every `<svg>` search the rest of the page for its
    /// `</svg>` (48.6 s at 160,000 repeats). The searches are remembered
    /// now: the bytes searched stay a small multiple of the page, whatever
    /// the repeats, with `<svg>` alone, nested, closed late, and raw-text
    /// elements left open in the rescue pass.
    #[test]
    fn searches_stay_linear_in_the_page() {
        let shapes = [
            ("<table><tr><td><svg><foreignObject><svg>", ""),
            ("<svg><desc><svg>", "</svg>"),
            ("<svg>", "</svg>"),
            ("<title>x", ""),
            ("<textarea>x", ""),
        ];
        for (unit, tail) in shapes {
            let html = format!("<html><body>{}{tail}", unit.repeat(20_000));
            for rescue in [false, true] {
                SEARCHED.with(|n| n.set(0));
                scan(
                    html.as_bytes(),
                    &Deadline::NONE,
                    Serialization::Html,
                    rescue,
                )
                .unwrap();
                let searched = SEARCHED.with(|n| n.get());
                assert!(
                    searched <= 4 * html.len(),
                    "{unit:?} (rescue {rescue}): {searched} bytes searched on a page of {}",
                    html.len()
                );
            }
        }
    }

    fn s(html: &str) -> String {
        prefilter(html).into_owned()
    }

    /// Asserts the pre-pass leaves each of `pages` as it is.
    fn unchanged(pages: &[&str]) {
        for html in pages {
            assert_eq!(s(html), *html, "changed: {html}");
        }
    }

    #[test]
    fn empties_script_style_noscript() {
        assert_eq!(
            s(
                "<p>a</p><script type=\"x\">var a = '<p>no</p>';</script><style>p{}</style><noscript>n</noscript><p>b</p>"
            ),
            "<p>a</p><script type=\"x\"></script><style></style><noscript></noscript><p>b</p>"
        );
    }

    #[test]
    fn end_tag_needs_a_delimiter() {
        assert_eq!(s("<script>a</scripts>b</SCRIPT >c"), "<script></SCRIPT >c");
        let ld = "<script type=\"application/LD+json\">{\"a\":1}</script>";
        assert_eq!(s(ld), ld);
    }

    #[test]
    fn quotes_in_attributes() {
        assert_eq!(
            s("<script title=\"a>b\">x</script>y"),
            "<script title=\"a>b\"></script>y"
        );
        // A quote not after '=' is part of a name, not a value.
        assert_eq!(s("<script a\"b>x</script>y"), "<script a\"b></script>y");
    }

    #[test]
    fn comments_rcdata_and_escapes_are_respected() {
        // Comments are cut, and what looks like a tag inside them is not
        // read as one.
        assert_eq!(
            s("<!-- <script> --><p>kept</p><!-- </script> -->"),
            "<p>kept</p>"
        );
        assert_eq!(s("<!--><script-->"), "<script-->");
        unchanged(&[
            "<title><script>x</script></title>",
            "<textarea><style>x</style></textarea>",
            "<script><!-- document.write('<script>x</script>') --></script><p>t</p>",
            "<plaintext><script>x</script>",
        ]);
        assert!(matches!(
            prefilter("<p>plain</p>"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn comments_and_svg_drawings_are_cut() {
        assert_eq!(s("a<!-- x <p> -->b<!-->c"), "abc");
        assert_eq!(
            s("<p>x<svg viewBox=\"0 0 1 1\"><path d=\"M0 0\"/></svg>y</p>"),
            "<p>x<svg viewBox=\"0 0 1 1\"></svg>y</p>"
        );
        // An <svg> with another inside is kept (its first </svg> is the
        // inner one's); the inner one is cut as usual.
        assert_eq!(
            s("<svg><svg><text>t</text></svg><path/></svg>"),
            "<svg><svg></svg><path/></svg>"
        );
        assert_eq!(s("<svg/><p>a</p>"), "<svg/><p>a</p>");
    }

    #[test]
    fn xml_pages_close_self_closed_elements() {
        // Declared by an XML declaration or the XHTML namespace.
        assert_eq!(
            s("<?xml version=\"1.0\"?><html><body><div class=\"c\"/><p>a</p></body></html>"),
            "<?xml version=\"1.0\"?><html><body><div class=\"c\"></div><p>a</p></body></html>"
        );
        assert_eq!(
            s(
                "<html xmlns=\"http://www.w3.org/1999/xhtml\"><a name=\"x\" /><br/><img src=\"i\"/>t"
            ),
            "<html xmlns=\"http://www.w3.org/1999/xhtml\"><a name=\"x\" ></a><br/><img src=\"i\"/>t"
        );
        // A self-closed script would swallow the page as raw text.
        assert_eq!(
            s("\u{feff}<?xml version='1.0'?><script src=\"a.js\"/><p>post</p><iframe src=\"x\"/>"),
            "\u{feff}<?xml version='1.0'?><script src=\"a.js\"></script><p>post</p><iframe src=\"x\"></iframe>"
        );
        // Undeclared: several self-closed non-void elements, or one raw-text
        // element, are a serializer's; the unread attribute is still cut.
        assert_eq!(
            s("<div/><span data-x=\"1\"/><a href=\"/\"/>t"),
            "<div></div><span></span><a href=\"/\"></a>t"
        );
        assert_eq!(
            s("<textarea name=\"q\"/><p>t</p>"),
            "<textarea name=\"q\"></textarea><p>t</p>"
        );
    }

    #[test]
    fn html_pages_keep_self_closed_elements_open() {
        unchanged(&[
            // One or two slips, as browsers parse them: open elements.
            "<html><a name=\"top\"/><div class=\"clear\"/><p>t</p></html>",
            // Void elements, SVG and an unquoted value's slash.
            "<br/><img src=a/><hr/><math><mi/><mo/><mn/></math><a href=x/>t",
            // The XHTML namespace elsewhere than on <html>, a late
            // declaration.
            "<html><p xmlns=\"http://www.w3.org/1999/xhtml\"><a/></p></html>",
            "<p>a</p><?xml version=\"1.0\"?><a/>",
        ]);
        // The skeleton and foreign roots are never rewritten.
        assert_eq!(
            s("<?xml version=\"1.0\"?><html><head/><body/><svg/><math/><i/>"),
            "<?xml version=\"1.0\"?><html><head/><body/><svg/><math/><i></i>"
        );
    }

    #[test]
    fn rescue_keeps_noscript_markup_and_ends_unclosed_titles() {
        let r = |html: &str| {
            prefilter_rescue(html, &Deadline::NONE)
                .unwrap()
                .into_owned()
        };
        // The noscript tags go (an unread attribute with them), the body
        // stays as markup.
        assert_eq!(
            r(
                "<head><noscript data-x=\"1\"><style>s</style></noscript></head><body><div id=app></div><noscript data-path=\"/t/1\"><p>post</p></noscript>"
            ),
            "<head><style></style></head><body><div id=app></div><p>post</p>"
        );
        // An unclosed title ends at its first tag; a closed one is kept.
        assert_eq!(
            r("<title>T</titlevalue><body><p>a</p>"),
            "<title>T</title></titlevalue><body><p>a</p>"
        );
        assert_eq!(r("<title>T</title><p>a</p>"), "<title>T</title><p>a</p>");
        // The ordinary pre-pass empties noscript, and lets the title run.
        assert_eq!(
            s("<noscript><p>post</p></noscript><title>T</titlevalue><p>a</p>"),
            "<noscript></noscript><title>T</titlevalue><p>a</p>"
        );
    }

    #[test]
    fn short_names_have_keys_of_their_own() {
        assert_eq!(name_key(b"SVG"), SVG);
        assert_eq!(name_key(b"PlainText"), PLAINTEXT);
        for other in [
            &b"svgx"[..],
            b"sv",
            b"xsvg",
            b"mathematics-and-svg-too",
            b"plaintextplaintext",
        ] {
            let k = name_key(other);
            assert!(k != SVG && k != MATH && k != PLAINTEXT, "{other:?}");
            assert!(!NOT_STACKED_KEYS.contains(&k) && !EMPTIED_KEYS.contains(&k));
        }
        // A 16-byte name fills every byte of the key: never a short one's.
        assert!(!RAW_KEPT_KEYS.contains(&name_key(b"titletitletitlet")));
    }

    #[test]
    fn unread_attributes_are_cut() {
        assert_eq!(
            s("<div class=a data-x='{\"y\":1}' onclick=go() id=b DATA-Q aria-label=\"L\">t</div>"),
            "<div class=a id=b>t</div>"
        );
        // An image's sources stay (srcset, lazy loaders' data-src), sizes go.
        assert_eq!(
            s("<img src=a.png srcset=\"a 1x, b 2x\" sizes=50vw data-src=c.png data-w=3 alt=x>"),
            "<img src=a.png srcset=\"a 1x, b 2x\" data-src=c.png alt=x>"
        );
        // What is read stays: aria-hidden, a button's aria-controls, and
        // data- as a value, not a name.
        unchanged(&[
            "<p aria-hidden=true>x</p>",
            "<a aria-controls=faq-1>Q</a>",
            "<p title= data-x=1>x</p>",
            "<p title=\"a data-x=1\">x</p>",
            "<a href=x data>y</a>",
        ]);
        // Only after white space: a cut after '/' or a quote could make a
        // self-closing tag, or glue two names.
        let kept = ["<svg/data-x=1><path/></svg>", "<p a=\"1\"data-x=2>z</p>"];
        for html in kept {
            assert!(s(html).contains("data-x"), "cut: {html}");
        }
        assert_eq!(s("<br data-x/>"), "<br/>");
        // An unterminated value runs to the end: nothing is cut.
        assert_eq!(s("<p data-x=\"open>t"), "<p data-x=\"open>t");
        // The same attributes as the tokenizer reads, minus the cut ones.
        let html = "<div x = 'q' data-a=\"1\" /y onmouseover=f z>t</div>";
        let attrs = |d: &crate::dom::Dom| -> Vec<String> {
            d.descendants(crate::dom::DOCUMENT)
                .filter(|&n| d.tag(n).is_some_and(|t| d.tag_name(t) == "div"))
                .flat_map(|n| d.attrs_of(n).iter().map(|a| a.name.to_string()))
                .collect()
        };
        assert_eq!(attrs(&crate::parse::parse(html)), ["x", "y", "z"]);
        assert_eq!(
            attrs(&crate::parse::parse_unfiltered(html)),
            ["x", "data-a", "y", "onmouseover", "z"]
        );
    }

    #[test]
    fn unclosed_and_multibyte() {
        assert_eq!(s("<style>é…"), "<style>");
        assert_eq!(s("<script>é…"), "<script>é…");
        assert_eq!(s("é<script>ü</script>ß"), "é<script></script>ß");
    }

    #[test]
    fn deep_nesting_is_capped_text_kept() {
        let n = 2000;
        let html = format!(
            "{}deep{}<p>after</p>",
            "<div>".repeat(n),
            "</div>".repeat(n)
        );
        let out = prefilter(&html);
        assert_eq!(out.matches("<div>").count(), MAX_DEPTH);
        assert_eq!(out.matches("</div>").count(), MAX_DEPTH);
        assert!(out.contains("deep") && out.ends_with("<p>after</p>"));
        // Optional-end-tag and void elements never count.
        let flat = format!("{}x", "<p><li><br><img>".repeat(3000));
        assert_eq!(prefilter(&flat), flat);
        // Self-closing only counts as closed inside svg (an svg whose
        // drawing is not cut: it holds another svg).
        let svg = format!("<svg>{}<svg></svg></svg>", "<path/>".repeat(3000));
        assert_eq!(prefilter(&svg), svg);
        // What a cell leaves open ends with the cell (written, or implied
        // by the next cell or row): 1,000 cells with an unclosed <span>
        // are not 1,000 levels.
        let cells = "<td><span>c<td><div><span>d</td><tr><th><span>e".repeat(1000);
        let table = format!("<table><tr>{cells}</table><div><div>x</div></div>");
        assert_eq!(prefilter(&table), table);
        // A cell of a table inside a cell ends only its own table's cell:
        // the outer cell's 100 open spans stay open around the inner
        // tables, so of 40 divs after them only those up to the cap stay.
        let nested = format!(
            "<table><tr><td>{}{}x",
            "<span><table><tr><td><span>in</table>".repeat(100),
            "<div>".repeat(40)
        );
        assert_eq!(prefilter(&nested).matches("<div>").count(), MAX_DEPTH - 101);
    }

    #[test]
    fn open_formatting_elements_are_capped() {
        let n = MAX_OPEN_FORMATTING + 10;
        let open: String = (0..n).map(|i| format!("<b id={i}>")).collect();
        let close = "</b>".repeat(n);
        let out = s(&format!("{open}x{close}<b>y</b>"));
        // The first MAX_OPEN_FORMATTING kept; as many end tags as dropped
        // start tags go (the first ones), the rest close the kept ones.
        assert_eq!(out.matches("<b ").count(), MAX_OPEN_FORMATTING);
        assert_eq!(out.matches("</b>").count(), MAX_OPEN_FORMATTING + 1);
        assert!(out.contains('x') && out.ends_with("<b>y</b>"));
        // Closed ones never count: any number in a row.
        let closed = "<b id=1>a</b><i id=2>b</i>".repeat(1000);
        unchanged(&[&closed]);
        // Identical ones count three times at most (Noah's Ark clause).
        let same = format!("{}x", "<font size=2>".repeat(MAX_DEPTH - 10));
        unchanged(&[&same]);
        // A table cell's end clears what was opened inside it.
        let cells = "<table><tr><td><font color=1><b id=x><i>t</td></tr></table>".repeat(100);
        unchanged(&[&cells]);
        // So does the next cell, when the end tag is left out.
        let open_cells = format!(
            "<table><tr>{}</table>",
            (0..200)
                .map(|i| format!("<td><b id={i}>c"))
                .collect::<String>()
        );
        unchanged(&[&open_cells]);
        // A dropped <a> closes no earlier <a>: the list stays at the cap.
        let links = format!(
            "{}{}",
            (0..n).map(|i| format!("<b id={i}>")).collect::<String>(),
            "<a href=x>l".repeat(100)
        );
        assert_eq!(s(&links).matches("<a ").count(), 0);
        // A cell outside a table is no marker: the tree builder ignores it.
        let fake = (0..n)
            .map(|i| format!("<td><b id={i}></td>"))
            .collect::<String>();
        assert_eq!(s(&fake).matches("<b ").count(), MAX_OPEN_FORMATTING);
    }

    #[test]
    fn attributes_past_the_cap_are_cut() {
        let attrs = |n: usize, f: &dyn Fn(usize) -> String| (0..n).map(f).collect::<String>();
        let n = MAX_ATTRIBUTES;
        // Up to the cap: untouched.
        let ok = format!("<p{}>t</p>", attrs(n, &|i| format!(" a{i}=1")));
        unchanged(&[&ok]);
        // Past it: the rest cut, whatever their form, the tag still whole.
        for extra in [
            attrs(5, &|i| format!(" z{i}=1")),
            attrs(5, &|i| format!(" z{i}=\"q\"")),
            format!(" {}", attrs(5, &|i| format!("/z{i}"))),
            " z data-y=1 'q'=\"3\"".to_owned(),
        ] {
            let html = format!("<p{}{extra}>t</p>", attrs(n, &|i| format!(" a{i}=1")));
            assert_eq!(s(&html), ok, "{extra}");
        }
        // Unread attributes do not count against the cap.
        let unread = format!(
            "<p{}{}>t</p>",
            attrs(n, &|i| format!(" data-{i}=1")),
            attrs(n, &|i| format!(" a{i}=1"))
        );
        assert_eq!(s(&unread), ok);
        // `/>` stays, with a space after an unquoted value.
        let sc = format!("<br{} z=2 />", attrs(n, &|i| format!(" a{i}=1")));
        assert!(s(&sc).ends_with(&format!("a{}=1 />", n - 1)), "{}", s(&sc));
        let sc = format!("<br{} z=2/>", attrs(n, &|i| format!(" a{i}=\"1\"")));
        assert!(
            s(&sc).ends_with(&format!("a{}=\"1\"/>", n - 1)),
            "{}",
            s(&sc)
        );
        // An unterminated tag: cut to the end.
        let open = format!("<p{} z=1 y=2", attrs(n, &|i| format!(" a{i}=1")));
        assert_eq!(s(&open), format!("<p{}", attrs(n, &|i| format!(" a{i}=1"))));
    }

    #[test]
    fn same_tree_as_without() {
        use crate::parse::parse_unfiltered;
        let html = "<html><head><title>T</title><script>if (a < b) { x = '</div>'; }</script>\
                    <style>.a > .b {}</style></head><body><div>one<script>y()</script> two</div>\
                    <noscript><img src=x></noscript><p>three</body>";
        let a = crate::parse::parse(html);
        let b = parse_unfiltered(html);
        let tags = |d: &crate::dom::Dom| -> Vec<String> {
            d.descendants(crate::dom::DOCUMENT)
                .filter_map(|n| d.tag(n).map(|t| d.tag_name(t).to_owned()))
                .collect()
        };
        assert_eq!(tags(&a), tags(&b));
    }
}
