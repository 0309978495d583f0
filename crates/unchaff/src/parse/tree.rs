//! Our own tree builder for the common, well-nested page, fed by the fast
//! tokenizer (`parse/fast.rs`) with borrowed tokens and writing straight
//! into the [`Dom`] arena: no `StrTendril` a text run or attribute value,
//! no `Vec<Attribute>` a tag, no handles to clone.
//!
//! It follows the HTML standard's tree construction exactly as html5ever
//! implements it (html5ever's tree is the reference: where the two
//! differ, html5ever's choice is taken) for the insertion modes and
//! tokens real pages use: initial, before html, before head, in head,
//! after head, in body, text, in table, in caption, in column group, in
//! table body, in row, in cell, in template, after body and after after
//! body; template contents (unlinked fragments, as the sink makes them);
//! SVG and MathML content; implied end tags, the list of active formatting
//! elements with its reconstruction and the Noah's Ark clause, the
//! adoption agency, whitespace in table context, the quirks mode of the
//! common doctypes. At the first token it is not certain about — foster
//! parenting, a declarative shadow root, frames, a tag breaking out of
//! foreign content, ruby base containers (`rb`, `rtc`), `<table>` in a
//! paragraph under a doctype whose quirks mode it does not work out, a
//! stack deeper than [`MAX_OPEN`] or a list of formatting elements
//! longer than [`MAX_FORMATTING`] — it gives up, and the page is parsed
//! again from the start by html5ever's tree builder. Only the way the tokens take
//! changes, never the tree: the differential test `data_parse`
//! (crates/cli/tests) checks on every dev page that wherever it answers
//! the tree is html5ever's, and the unit tests here do the same for each
//! rule on hand-written and generated markup.
//!
//! The element budget and the memory budget are those of the sink
//! html5ever's tree builder writes through (`parse/mod.rs`): the first
//! element past either ends the parse with the same error.

use html5ever::LocalName;
use html5ever::tokenizer::states::RawKind;

use super::fast::{Builder, GiveUp, Next, Step, TagRef};
use super::{Budget, MAX_ATTRIBUTES, MAX_DEPTH, MAX_OPEN_FORMATTING};
use crate::dom::{Attr, DOCUMENT, Dom, Flow, NodeId, NodeKind, Ns, Tag, known_tag};
use crate::limits::{BLOCK_MEMORY, ELEMENT_MEMORY, synthesized_budget};
use crate::{Error, atoms};

/// Elements the tree builder adds on top of the page's nesting, which the
/// pre-pass caps at [`MAX_DEPTH`]: `html`, `body`, and a table's implied
/// `tbody` and `tr` a level, with room to spare.
const IMPLIED_DEPTH: usize = 16;

/// The deepest stack of open elements followed; deeper, it gives up (the
/// pre-pass's cap and what the tree builder adds: a page as given,
/// without the pre-pass, stays bounded too).
pub(super) const MAX_OPEN: usize = MAX_DEPTH + IMPLIED_DEPTH;

/// The longest list of active formatting elements followed: the
/// pre-pass keeps [`MAX_OPEN_FORMATTING`] open, and markers (one an open
/// cell or object) are bounded by the stack.
pub(super) const MAX_FORMATTING: usize = MAX_OPEN_FORMATTING + MAX_OPEN;

/// The Noah's Ark clause: at most this many identical formatting elements
/// (same name and attributes) after the last marker.
const NOAHS_ARK: usize = 3;

/// The adoption agency's outer loop runs at most this many times (the
/// standard's bound).
const ADOPTION_OUTER_LOOPS: usize = 8;

/// Past this many nodes between the furthest block and the formatting
/// element, the adoption agency drops them instead of copying them (the
/// standard's bound).
const ADOPTION_INNER_LOOPS: usize = 3;

/// The classification of a name with no fixed id and no rules of its
/// own: an ordinary element.
const OTHER: Tag = Tag(u16::MAX);

// Keys for the names with tree-construction rules of their own but no
// fixed [`Tag`] id: values no interned id takes (ids stop below
// `u16::MAX`, and a page reaching these gives up, see `Own::create`).
/// `<applet>`, `<marquee>`: as `<object>`.
const K_APPLET: Tag = Tag(u16::MAX - 1);
/// `<basefont>`, `<bgsound>`: void, in the head's rules.
const K_BASEFONT: Tag = Tag(u16::MAX - 2);
/// `<param>`: void.
const K_PARAM: Tag = Tag(u16::MAX - 3);
/// `<keygen>`: void, after reconstructing the formatting elements.
const K_KEYGEN: Tag = Tag(u16::MAX - 4);
/// `<image>`: an `<img>`.
const K_IMAGE: Tag = Tag(u16::MAX - 5);
/// `<search>`, `<dir>`: blocks.
const K_BLOCK: Tag = Tag(u16::MAX - 6);
/// `<noembed>`: raw text.
const K_NOEMBED: Tag = Tag(u16::MAX - 7);
/// `<rb>`, `<rtc>`: not followed (they take part in implied end tags).
const K_RB: Tag = Tag(u16::MAX - 8);
/// The lowest key: interned ids at or above it give up.
const FIRST_KEY: u16 = u16::MAX - 8;

/// The key of a name with no fixed id.
fn rare_key(name: &str) -> Tag {
    match name {
        "applet" | "marquee" => K_APPLET,
        "basefont" | "bgsound" => K_BASEFONT,
        "param" => K_PARAM,
        "keygen" => K_KEYGEN,
        "image" => K_IMAGE,
        "search" | "dir" => K_BLOCK,
        "noembed" => K_NOEMBED,
        "rb" | "rtc" => K_RB,
        _ => OTHER,
    }
}

/// The flags of an HTML element interned as `tag`, named `name`.
fn html_flags(tag: Tag, name: &str) -> u8 {
    if (tag.0 as usize) < Tag::KNOWN {
        let bound = matches!(
            tag,
            Tag::CAPTION
                | Tag::HTML
                | Tag::TABLE
                | Tag::TD
                | Tag::TH
                | Tag::OBJECT
                | Tag::SELECT
                | Tag::TEMPLATE
        );
        return if is_special(tag) { SPECIAL } else { 0 } | if bound { BOUND } else { 0 };
    }
    match name {
        "applet" | "marquee" => SPECIAL | BOUND,
        "basefont" | "bgsound" | "dir" | "isindex" | "noembed" | "param" => SPECIAL,
        _ => 0,
    }
}

/// The flags of a foreign element named `name` (adjusted).
fn foreign_flags(svg: bool, name: &str) -> u8 {
    if svg {
        SVG | match name {
            "foreignObject" | "desc" | "title" => INTEGRATION | BOUND,
            _ => 0,
        }
    } else {
        MATHML
            | match name {
                "mi" | "mo" | "mn" | "ms" | "mtext" => INTEGRATION | BOUND,
                _ => 0,
            }
    }
}

/// An SVG element's name as html5ever adjusts it (the tokenizer lowers it).
fn svg_name(name: &str) -> &str {
    match name {
        "altglyph" => "altGlyph",
        "altglyphdef" => "altGlyphDef",
        "altglyphitem" => "altGlyphItem",
        "animatecolor" => "animateColor",
        "animatemotion" => "animateMotion",
        "animatetransform" => "animateTransform",
        "clippath" => "clipPath",
        "feblend" => "feBlend",
        "fecolormatrix" => "feColorMatrix",
        "fecomponenttransfer" => "feComponentTransfer",
        "fecomposite" => "feComposite",
        "feconvolvematrix" => "feConvolveMatrix",
        "fediffuselighting" => "feDiffuseLighting",
        "fedisplacementmap" => "feDisplacementMap",
        "fedistantlight" => "feDistantLight",
        "fedropshadow" => "feDropShadow",
        "feflood" => "feFlood",
        "fefunca" => "feFuncA",
        "fefuncb" => "feFuncB",
        "fefuncg" => "feFuncG",
        "fefuncr" => "feFuncR",
        "fegaussianblur" => "feGaussianBlur",
        "feimage" => "feImage",
        "femerge" => "feMerge",
        "femergenode" => "feMergeNode",
        "femorphology" => "feMorphology",
        "feoffset" => "feOffset",
        "fepointlight" => "fePointLight",
        "fespecularlighting" => "feSpecularLighting",
        "fespotlight" => "feSpotLight",
        "fetile" => "feTile",
        "feturbulence" => "feTurbulence",
        "foreignobject" => "foreignObject",
        "glyphref" => "glyphRef",
        "lineargradient" => "linearGradient",
        "radialgradient" => "radialGradient",
        "textpath" => "textPath",
        _ => name,
    }
}

/// An attribute's local name on a foreign element, as html5ever adjusts
/// it (the sink keeps the local name only: `xlink:href` is `href`).
fn foreign_attr(svg: bool, name: &str) -> &str {
    let adjusted = if svg {
        match name {
            "attributename" => "attributeName",
            "attributetype" => "attributeType",
            "basefrequency" => "baseFrequency",
            "baseprofile" => "baseProfile",
            "calcmode" => "calcMode",
            "clippathunits" => "clipPathUnits",
            "diffuseconstant" => "diffuseConstant",
            "edgemode" => "edgeMode",
            "filterunits" => "filterUnits",
            "glyphref" => "glyphRef",
            "gradienttransform" => "gradientTransform",
            "gradientunits" => "gradientUnits",
            "kernelmatrix" => "kernelMatrix",
            "kernelunitlength" => "kernelUnitLength",
            "keypoints" => "keyPoints",
            "keysplines" => "keySplines",
            "keytimes" => "keyTimes",
            "lengthadjust" => "lengthAdjust",
            "limitingconeangle" => "limitingConeAngle",
            "markerheight" => "markerHeight",
            "markerunits" => "markerUnits",
            "markerwidth" => "markerWidth",
            "maskcontentunits" => "maskContentUnits",
            "maskunits" => "maskUnits",
            "numoctaves" => "numOctaves",
            "pathlength" => "pathLength",
            "patterncontentunits" => "patternContentUnits",
            "patterntransform" => "patternTransform",
            "patternunits" => "patternUnits",
            "pointsatx" => "pointsAtX",
            "pointsaty" => "pointsAtY",
            "pointsatz" => "pointsAtZ",
            "preservealpha" => "preserveAlpha",
            "preserveaspectratio" => "preserveAspectRatio",
            "primitiveunits" => "primitiveUnits",
            "refx" => "refX",
            "refy" => "refY",
            "repeatcount" => "repeatCount",
            "repeatdur" => "repeatDur",
            "requiredextensions" => "requiredExtensions",
            "requiredfeatures" => "requiredFeatures",
            "specularconstant" => "specularConstant",
            "specularexponent" => "specularExponent",
            "spreadmethod" => "spreadMethod",
            "startoffset" => "startOffset",
            "stddeviation" => "stdDeviation",
            "stitchtiles" => "stitchTiles",
            "surfacescale" => "surfaceScale",
            "systemlanguage" => "systemLanguage",
            "tablevalues" => "tableValues",
            "targetx" => "targetX",
            "targety" => "targetY",
            "textlength" => "textLength",
            "viewbox" => "viewBox",
            "viewtarget" => "viewTarget",
            "xchannelselector" => "xChannelSelector",
            "ychannelselector" => "yChannelSelector",
            "zoomandpan" => "zoomAndPan",
            _ => name,
        }
    } else if name == "definitionurl" {
        "definitionURL"
    } else {
        name
    };
    match adjusted {
        "xlink:actuate" => "actuate",
        "xlink:arcrole" => "arcrole",
        "xlink:href" => "href",
        "xlink:role" => "role",
        "xlink:show" => "show",
        "xlink:title" => "title",
        "xlink:type" => "type",
        "xml:lang" => "lang",
        "xml:space" => "space",
        "xmlns:xlink" => "xlink",
        other => other,
    }
}

/// The insertion modes followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    AfterHead,
    InBody,
    Text,
    InTable,
    InTableBody,
    InRow,
    InCell,
    InCaption,
    InColumnGroup,
    InTemplate,
    AfterBody,
    AfterAfterBody,
}

/// What is known of the document's quirks mode: only `<table>` in a
/// paragraph depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quirks {
    /// No doctype: quirks mode.
    Yes,
    /// `<!DOCTYPE html>` (or with `about:legacy-compat`): no quirks.
    No,
    /// Another doctype: not worked out here.
    Unknown,
}

/// An entry of the stack of open elements.
#[derive(Clone, Copy, Debug)]
struct Open {
    id: NodeId,
    /// The interned name of an HTML element; [`OTHER`] for a foreign one
    /// (so that no test for an HTML name accepts it).
    tag: Tag,
    /// [`SPECIAL`], [`BOUND`], [`SVG`], [`MATHML`], [`INTEGRATION`].
    flags: u8,
}

/// html5ever's "special" category.
const SPECIAL: u8 = 1;
/// Bounds the default scope (and the list item and button scopes).
const BOUND: u8 = 2;
/// An SVG element.
const SVG: u8 = 4;
/// A MathML element.
const MATHML: u8 = 8;
/// An HTML integration point (SVG `foreignObject`, `desc`, `title`) or a
/// MathML text integration point (`mi`, `mo`, `mn`, `ms`, `mtext`).
const INTEGRATION: u8 = 16;

impl Open {
    /// Whether the element is SVG or MathML.
    fn foreign(self) -> bool {
        self.flags & (SVG | MATHML) != 0
    }
}

/// An entry of the list of active formatting elements.
#[derive(Clone, Copy, Debug)]
enum Formatting {
    Marker,
    Element(Open),
}

/// The scopes of the standard's "has an element in scope" checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    Default,
    ListItem,
    Button,
    Table,
}

/// A tag's name: the atom, its interned id if any, and its class ([`OTHER`]
/// for names without a fixed id).
struct Name {
    atom: LocalName,
    id: Option<Tag>,
    key: Tag,
}

/// Where a new element's attributes come from.
#[derive(Clone, Copy)]
enum Attrs<'a, 't> {
    None,
    Token(&'a TagRef<'t>),
    /// Copied from an element (a formatting element reconstructed).
    Element(NodeId),
}

/// The tree builder's state.
pub(super) struct Own {
    dom: Dom,
    limits: Budget,
    elements_left: usize,
    memory_left: usize,
    /// Start tags read (for [`Budget`]'s `per_start_tag`).
    start_tags: usize,
    /// The budget it ran past: `Some(true)` the memory budget,
    /// `Some(false)` the element budget.
    over: Option<bool>,
    mode: Mode,
    /// The mode to return to after [`Mode::Text`].
    orig_mode: Mode,
    stack: Vec<Open>,
    formatting: Vec<Formatting>,
    head: Option<NodeId>,
    form: Option<NodeId>,
    quirks: Quirks,
    /// A newline starting the next token is dropped (after `<pre>`,
    /// `<listing>`, `<textarea>`).
    ignore_lf: bool,
    /// An end tag in table context is processed by the in-body rules
    /// (html5ever's foster parenting flag).
    fostering: bool,
    /// The stack of template insertion modes.
    templates: Vec<Mode>,
}

/// `h1` … `h6`.
fn is_heading(t: Tag) -> bool {
    t.is_heading()
}

/// html5ever's "special" category (the names with a fixed id; the others
/// are in [`html_flags`]).
fn is_special(t: Tag) -> bool {
    matches!(
        t,
        Tag::ADDRESS
            | Tag::AREA
            | Tag::ARTICLE
            | Tag::ASIDE
            | Tag::BASE
            | Tag::BLOCKQUOTE
            | Tag::BODY
            | Tag::BR
            | Tag::BUTTON
            | Tag::CAPTION
            | Tag::CENTER
            | Tag::COL
            | Tag::COLGROUP
            | Tag::DD
            | Tag::DETAILS
            | Tag::DIV
            | Tag::DL
            | Tag::DT
            | Tag::EMBED
            | Tag::FIELDSET
            | Tag::FIGCAPTION
            | Tag::FIGURE
            | Tag::FOOTER
            | Tag::FORM
            | Tag::FRAME
            | Tag::FRAMESET
            | Tag::H1
            | Tag::H2
            | Tag::H3
            | Tag::H4
            | Tag::H5
            | Tag::H6
            | Tag::HEAD
            | Tag::HEADER
            | Tag::HGROUP
            | Tag::HR
            | Tag::HTML
            | Tag::IFRAME
            | Tag::IMG
            | Tag::INPUT
            | Tag::LI
            | Tag::LINK
            | Tag::LISTING
            | Tag::MAIN
            | Tag::MENU
            | Tag::META
            | Tag::NAV
            | Tag::NOFRAMES
            | Tag::NOSCRIPT
            | Tag::OBJECT
            | Tag::OL
            | Tag::P
            | Tag::PLAINTEXT
            | Tag::PRE
            | Tag::SCRIPT
            | Tag::SECTION
            | Tag::SELECT
            | Tag::SOURCE
            | Tag::STYLE
            | Tag::SUMMARY
            | Tag::TABLE
            | Tag::TBODY
            | Tag::TD
            | Tag::TEMPLATE
            | Tag::TEXTAREA
            | Tag::TFOOT
            | Tag::TH
            | Tag::THEAD
            | Tag::TITLE
            | Tag::TR
            | Tag::TRACK
            | Tag::UL
            | Tag::WBR
            | Tag::XMP
    )
}

/// Whether `o` bounds `scope`.
fn bounds(scope: Scope, o: Open) -> bool {
    match scope {
        Scope::Table => matches!(o.tag, Tag::HTML | Tag::TABLE | Tag::TEMPLATE),
        _ => {
            o.flags & BOUND != 0
                || match scope {
                    Scope::ListItem => matches!(o.tag, Tag::OL | Tag::UL),
                    Scope::Button => o.tag == Tag::BUTTON,
                    _ => false,
                }
        }
    }
}

/// The elements "generate implied end tags" closes.
fn implied_end(t: Tag) -> bool {
    matches!(
        t,
        Tag::DD | Tag::DT | Tag::LI | Tag::OPTION | Tag::OPTGROUP | Tag::P | Tag::RP | Tag::RT
    )
}

/// The formatting elements with a fixed id (all of them).
fn is_formatting(t: Tag) -> bool {
    matches!(
        t,
        Tag::A
            | Tag::B
            | Tag::BIG
            | Tag::CODE
            | Tag::EM
            | Tag::FONT
            | Tag::I
            | Tag::NOBR
            | Tag::S
            | Tag::SMALL
            | Tag::STRIKE
            | Tag::STRONG
            | Tag::TT
            | Tag::U
    )
}

/// The quirks mode of a doctype, where it is certain: the standard's
/// rules for the doctypes real pages use (HTML5's, XHTML 1.0 and 1.1,
/// HTML 4.01 and 4.0, 3.2). Limited quirks counts as no quirks (they
/// build the same tree); any other doctype is [`Quirks::Unknown`].
fn quirks_of(name: &str, public: Option<&str>, system: Option<&str>) -> Quirks {
    /// The one system identifier that makes quirks mode on its own.
    const QUIRKY_SYSTEM: &str = "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd";
    if name != "html" {
        return Quirks::Yes;
    }
    let system = system.map(str::to_ascii_lowercase);
    let Some(public) = public.map(str::to_ascii_lowercase) else {
        return match system.as_deref() {
            Some(QUIRKY_SYSTEM) => Quirks::Yes,
            _ => Quirks::No,
        };
    };
    if !system
        .as_deref()
        .is_none_or(|s| s.starts_with("http://www.w3.org/"))
    {
        return Quirks::Unknown;
    }
    let p = public.as_str();
    if p.starts_with("-//w3c//dtd xhtml 1.0 transitional//")
        || p.starts_with("-//w3c//dtd xhtml 1.0 frameset//")
        || matches!(
            p,
            "-//w3c//dtd xhtml 1.0 strict//en" | "-//w3c//dtd xhtml 1.1//en" | "-//w3c//dtd html 4.01//en"
        )
    {
        return Quirks::No;
    }
    if p.starts_with("-//w3c//dtd html 4.01 transitional//")
        || p.starts_with("-//w3c//dtd html 4.01 frameset//")
    {
        return if system.is_some() {
            Quirks::No
        } else {
            Quirks::Yes
        };
    }
    if p.starts_with("-//w3c//dtd html 4.0 transitional//")
        || p.starts_with("-//w3c//dtd html 4.0 frameset//")
        || p.starts_with("-//w3c//dtd html 3.2")
    {
        return Quirks::Yes;
    }
    Quirks::Unknown
}

/// Whether every character of `s` is ASCII whitespace (html5ever's test).
fn all_space(s: &str) -> bool {
    s.bytes().all(|c| c.is_ascii_whitespace())
}

impl Own {
    /// A tree builder within `limits`.
    pub(super) fn new(limits: Budget) -> Own {
        let mut dom = Dom::new();
        dom.reserve(limits.capacity);
        Own {
            dom,
            limits,
            elements_left: limits.elements,
            memory_left: limits.memory,
            start_tags: 0,
            over: None,
            mode: Mode::Initial,
            orig_mode: Mode::InBody,
            stack: Vec::new(),
            formatting: Vec::new(),
            head: None,
            form: None,
            quirks: Quirks::Unknown,
            ignore_lf: false,
            fostering: false,
            templates: Vec::new(),
        }
    }

    // ---- nodes ----

    /// A new element `tag` (its name `atom` when it has no id yet) in
    /// namespace `ns`, within the budgets.
    fn create(
        &mut self,
        tag: Option<Tag>,
        atom: &LocalName,
        attrs: Attrs<'_, '_>,
        ns: Ns,
    ) -> Step<Open> {
        let Some(left) = self.elements_left.checked_sub(1) else {
            self.over = Some(false);
            return Err(GiveUp("over the element budget"));
        };
        if self.limits.per_start_tag
            && self.limits.elements - left > synthesized_budget(self.start_tags)
        {
            self.over = Some(false);
            return Err(GiveUp("over the element budget"));
        }
        let tag = match tag {
            Some(t) => t,
            None => self.dom.intern_tag(atom),
        };
        if tag.0 >= FIRST_KEY {
            return Err(GiveUp("too many distinct names"));
        }
        let block = ns == Ns::Html && matches!(tag.flow(), Flow::Block | Flow::Cell);
        let cost = ELEMENT_MEMORY + if block { BLOCK_MEMORY } else { 0 };
        let Some(memory) = self.memory_left.checked_sub(cost) else {
            self.over = Some(true);
            return Err(GiveUp("over the memory budget"));
        };
        self.elements_left = left;
        self.memory_left = memory;
        let svg = ns == Ns::Svg;
        let dom = &mut self.dom;
        let start = dom.attrs.len();
        match attrs {
            Attrs::None => {}
            Attrs::Token(t) => {
                for (name, value) in t.attrs() {
                    let name = match ns {
                        Ns::Html => name,
                        _ => foreign_attr(svg, name),
                    };
                    let from = to_u32(dom.attr_text.len());
                    dom.attr_text.push_str(value);
                    dom.attrs.push(Attr {
                        name: atoms::attribute(name),
                        start: from,
                        end: to_u32(dom.attr_text.len()),
                    });
                }
            }
            Attrs::Element(id) => {
                let (s, n) = match &dom.nodes[id.index()].kind {
                    NodeKind::Element(e) => (e.attrs_start as usize, e.attrs_len as usize),
                    _ => (0, 0),
                };
                for i in s..s + n {
                    let (name, a, b) = {
                        let at = &dom.attrs[i];
                        (at.name.clone(), at.start as usize, at.end as usize)
                    };
                    let from = to_u32(dom.attr_text.len());
                    dom.attr_text.extend_from_within(a..b);
                    dom.attrs.push(Attr {
                        name,
                        start: from,
                        end: to_u32(dom.attr_text.len()),
                    });
                }
            }
        }
        let len = dom.attrs.len() - start;
        let id = dom.push_element_ns(tag, ns, to_u32(start), to_u32(len));
        Ok(match ns {
            Ns::Html => Open {
                id,
                tag,
                flags: html_flags(tag, atom),
            },
            _ => Open {
                id,
                tag: OTHER,
                flags: foreign_flags(svg, atom),
            },
        })
    }

    /// The current node.
    fn current(&self) -> Open {
        self.stack.last().copied().unwrap_or(Open {
            id: DOCUMENT,
            tag: OTHER,
            flags: 0,
        })
    }

    /// Pushes `open` onto the stack of open elements.
    fn push(&mut self, open: Open) -> Step<()> {
        if self.stack.len() >= MAX_OPEN {
            return Err(GiveUp("stack deeper than MAX_OPEN"));
        }
        self.stack.push(open);
        Ok(())
    }

    /// The appropriate place for inserting a node (never foster
    /// parenting): the current node, or, where that is a `<template>`,
    /// its contents: an unlinked fragment, a new one each time, as the
    /// sink makes them.
    fn target(&mut self) -> NodeId {
        let cur = self.current();
        if cur.tag == Tag::TEMPLATE {
            self.dom.push(NodeKind::Document)
        } else {
            cur.id
        }
    }

    /// Whether a `<template>` is open.
    fn in_template(&self) -> bool {
        self.stack.iter().any(|o| o.tag == Tag::TEMPLATE)
    }

    /// Inserts an element `tag` (named `atom` if it has no id yet) in
    /// namespace `ns` at the appropriate place, and pushes it (`push`).
    fn insert_at_target(
        &mut self,
        tag: Option<Tag>,
        atom: &LocalName,
        attrs: Attrs<'_, '_>,
        ns: Ns,
        push: bool,
    ) -> Step<Open> {
        let parent = self.target();
        let open = self.create(tag, atom, attrs, ns)?;
        self.dom.append_child(parent, open.id);
        if push {
            self.push(open)?;
        }
        Ok(open)
    }

    /// Inserts an element for the token, and pushes it.
    fn insert(&mut self, n: &Name, t: &TagRef<'_>) -> Step<Open> {
        self.insert_at_target(n.id, &n.atom, Attrs::Token(t), Ns::Html, true)
    }

    /// Inserts an element the tree builder implies (no attributes).
    fn insert_implied(&mut self, tag: Tag) -> Step<Open> {
        let atom = LocalName::from(self.dom.tag_name(tag));
        self.insert_at_target(Some(tag), &atom, Attrs::None, Ns::Html, true)
    }

    /// Inserts a void element for the token (not pushed).
    fn insert_void(&mut self, n: &Name, t: &TagRef<'_>) -> Step<Open> {
        self.insert_at_target(n.id, &n.atom, Attrs::Token(t), Ns::Html, false)
    }

    /// Inserts an element whose content is raw text, and switches to the
    /// text mode.
    fn insert_raw(&mut self, n: &Name, t: &TagRef<'_>, kind: RawKind) -> Step<Next> {
        self.insert(n, t)?;
        self.orig_mode = self.mode;
        self.mode = Mode::Text;
        Ok(Next::Raw(kind))
    }

    /// Appends text at the appropriate place, merged with a text node
    /// before.
    fn append_text(&mut self, text: &str) {
        let parent = self.target();
        self.dom.append_text(parent, text);
    }

    // ---- the stack ----

    /// Whether an element that `pred` accepts is in `scope`.
    fn in_scope(&self, scope: Scope, pred: impl Fn(Open) -> bool) -> bool {
        for &o in self.stack.iter().rev() {
            if pred(o) {
                return true;
            }
            if bounds(scope, o) {
                return false;
            }
        }
        false
    }

    /// Whether an element `tag` is in `scope`.
    fn in_scope_tag(&self, scope: Scope, tag: Tag) -> bool {
        self.in_scope(scope, |o| o.tag == tag)
    }

    /// Pops until an element that `pred` accepts has been popped.
    fn pop_until(&mut self, pred: impl Fn(Tag) -> bool) {
        while let Some(o) = self.stack.pop() {
            if pred(o.tag) {
                break;
            }
        }
    }

    /// Pops until the current node is one `pred` accepts.
    fn clear_to(&mut self, pred: impl Fn(Tag) -> bool) {
        while let Some(o) = self.stack.last() {
            if pred(o.tag) {
                break;
            }
            self.stack.pop();
        }
    }

    /// Generates implied end tags, except for `except`.
    fn implied_ends(&mut self, except: Option<Tag>) {
        while let Some(o) = self.stack.last() {
            if !implied_end(o.tag) || Some(o.tag) == except {
                break;
            }
            self.stack.pop();
        }
    }

    /// Closes a `<p>` in button scope, if there is one.
    fn close_p(&mut self) {
        if self.in_scope_tag(Scope::Button, Tag::P) {
            self.implied_ends(Some(Tag::P));
            self.pop_until(|t| t == Tag::P);
        }
    }

    /// Removes `id` from the stack (wherever it is).
    fn remove_from_stack(&mut self, id: NodeId) {
        if let Some(i) = self.stack.iter().rposition(|o| o.id == id) {
            self.stack.remove(i);
        }
    }

    /// The standard's "reset the insertion mode appropriately".
    fn reset_mode(&self) -> Step<Mode> {
        for (i, o) in self.stack.iter().enumerate().rev() {
            let last = i == 0;
            match o.tag {
                Tag::TD | Tag::TH if !last => return Ok(Mode::InCell),
                Tag::TR => return Ok(Mode::InRow),
                Tag::TBODY | Tag::THEAD | Tag::TFOOT => return Ok(Mode::InTableBody),
                Tag::CAPTION => return Ok(Mode::InCaption),
                Tag::COLGROUP => return Ok(Mode::InColumnGroup),
                Tag::TEMPLATE => {
                    return self
                        .templates
                        .last()
                        .copied()
                        .ok_or(GiveUp("template without a template mode"));
                }
                Tag::FRAMESET => return Err(GiveUp("reset into a mode not followed")),
                Tag::TABLE => return Ok(Mode::InTable),
                Tag::HEAD if !last => return Ok(Mode::InHead),
                Tag::BODY => return Ok(Mode::InBody),
                Tag::HTML => {
                    return Ok(match self.head {
                        None => Mode::BeforeHead,
                        Some(_) => Mode::AfterHead,
                    });
                }
                _ => {}
            }
        }
        Ok(Mode::InBody)
    }

    // ---- active formatting elements ----

    /// Whether `id` is on the stack.
    fn is_open(&self, id: NodeId) -> bool {
        self.stack.iter().rev().any(|o| o.id == id)
    }

    /// The standard's "reconstruct the active formatting elements".
    fn reconstruct(&mut self) -> Step<()> {
        let done = |me: &Own, e: &Formatting| match e {
            Formatting::Marker => true,
            Formatting::Element(o) => me.is_open(o.id),
        };
        let Some(last) = self.formatting.last() else {
            return Ok(());
        };
        if done(self, last) {
            return Ok(());
        }
        let mut i = self.formatting.len() - 1;
        while i > 0 {
            i -= 1;
            if done(self, &self.formatting[i]) {
                i += 1;
                break;
            }
        }
        for j in i..self.formatting.len() {
            let Formatting::Element(old) = self.formatting[j] else {
                return Err(GiveUp("marker in reconstruction"));
            };
            let atom = LocalName::from(self.dom.tag_name(old.tag));
            let new =
                self.insert_at_target(Some(old.tag), &atom, Attrs::Element(old.id), Ns::Html, true)?;
            self.formatting[j] = Formatting::Element(new);
        }
        Ok(())
    }

    /// Whether element `id`'s attributes are the token's, in any order.
    /// Past [`MAX_ATTRIBUTES`] (the pre-pass's cap) it gives up rather than
    /// compare them pair by pair.
    fn same_attrs(&self, id: NodeId, t: &TagRef<'_>) -> Step<bool> {
        let attrs = self.dom.attrs_of(id);
        if attrs.len() != t.attrs_len() {
            return Ok(false);
        }
        if attrs.len() > MAX_ATTRIBUTES {
            return Err(GiveUp("formatting elements with too many attributes"));
        }
        Ok(t.attrs().all(|(name, value)| {
            attrs.iter().any(|a| {
                &*a.name == name && &self.dom.attr_text[a.start as usize..a.end as usize] == value
            })
        }))
    }

    /// Inserts a formatting element for the token and lists it (after the
    /// Noah's Ark clause).
    fn insert_formatting(&mut self, n: &Name, t: &TagRef<'_>) -> Step<()> {
        let mut first = None;
        let mut matches = 0;
        for (i, e) in self.formatting.iter().enumerate().rev() {
            match e {
                Formatting::Marker => break,
                Formatting::Element(o) => {
                    if Some(o.tag) == n.id && self.same_attrs(o.id, t)? {
                        first = Some(i);
                        matches += 1;
                    }
                }
            }
        }
        if matches >= NOAHS_ARK
            && let Some(i) = first
        {
            self.formatting.remove(i);
        }
        let open = self.insert(n, t)?;
        if self.formatting.len() >= MAX_FORMATTING {
            return Err(GiveUp("formatting list longer than MAX_FORMATTING"));
        }
        self.formatting.push(Formatting::Element(open));
        Ok(())
    }

    /// Clears the list of active formatting elements to the last marker.
    fn clear_to_marker(&mut self) {
        while let Some(e) = self.formatting.pop() {
            if matches!(e, Formatting::Marker) {
                break;
            }
        }
    }

    /// The last formatting element `tag` after the last marker.
    fn formatting_after_marker(&self, tag: Tag) -> Option<(usize, Open)> {
        for (i, e) in self.formatting.iter().enumerate().rev() {
            match e {
                Formatting::Marker => return None,
                Formatting::Element(o) if o.tag == tag => return Some((i, *o)),
                Formatting::Element(_) => {}
            }
        }
        None
    }

    /// The position of element `id` in the list of active formatting
    /// elements.
    fn formatting_position(&self, id: NodeId) -> Option<usize> {
        self.formatting
            .iter()
            .position(|e| matches!(e, Formatting::Element(o) if o.id == id))
    }

    /// A copy of formatting element `old` (same name and attributes),
    /// unlinked.
    fn copy_formatting(&mut self, old: Open) -> Step<Open> {
        let atom = LocalName::from(self.dom.tag_name(old.tag));
        self.create(Some(old.tag), &atom, Attrs::Element(old.id), Ns::Html)
    }

    /// The adoption agency algorithm, as html5ever runs it. Where the
    /// end tag is in table context (`fostering`) and nodes would move, it
    /// gives up: they would be foster-parented.
    fn adoption_agency(&mut self, tag: Tag) -> Step<()> {
        let cur = self.current();
        if cur.tag == tag && self.formatting_position(cur.id).is_none() {
            self.stack.pop();
            return Ok(());
        }
        for _ in 0..ADOPTION_OUTER_LOOPS {
            let Some((fi, fe)) = self.formatting_after_marker(tag) else {
                self.any_other_end(Some(tag));
                return Ok(());
            };
            let Some(si) = self.stack.iter().rposition(|o| o.id == fe.id) else {
                self.formatting.remove(fi);
                return Ok(());
            };
            if !self.in_scope(Scope::Default, |o| o.id == fe.id) {
                return Ok(());
            }
            let Some(fb) = (si..self.stack.len()).find(|&i| self.stack[i].flags & SPECIAL != 0)
            else {
                self.stack.truncate(si);
                self.formatting.remove(fi);
                return Ok(());
            };
            if self.fostering || si == 0 {
                return Err(GiveUp("adoption agency in table context"));
            }
            let furthest = self.stack[fb];
            let common = self.stack[si - 1];
            // The bookmark: `Ok(id)` replaces `id`'s entry, `Err(id)` goes
            // after `id`'s.
            let mut bookmark: Result<NodeId, NodeId> = Ok(fe.id);
            let mut index = fb;
            let mut last = furthest;
            let mut inner = 0;
            loop {
                inner += 1;
                index -= 1;
                let node = self.stack[index];
                if node.id == fe.id {
                    break;
                }
                let position = self.formatting_position(node.id);
                if inner > ADOPTION_INNER_LOOPS {
                    if let Some(p) = position {
                        self.formatting.remove(p);
                    }
                    self.stack.remove(index);
                    continue;
                }
                let Some(p) = position else {
                    self.stack.remove(index);
                    continue;
                };
                let Formatting::Element(old) = self.formatting[p] else {
                    return Err(GiveUp("marker in the adoption agency"));
                };
                let new = self.copy_formatting(old)?;
                self.stack[index] = new;
                self.formatting[p] = Formatting::Element(new);
                if last.id == furthest.id {
                    bookmark = Err(new.id);
                }
                self.dom.detach(last.id);
                self.dom.append_child(new.id, last.id);
                last = new;
            }
            self.dom.detach(last.id);
            let parent = if common.tag == Tag::TEMPLATE {
                self.dom.push(NodeKind::Document)
            } else {
                common.id
            };
            self.dom.append_child(parent, last.id);
            let new = self.copy_formatting(fe)?;
            let mut child = self.dom.nodes[furthest.id.index()].first_child;
            while let Some(c) = child.some() {
                child = self.dom.nodes[c.index()].next_sibling;
                self.dom.detach(c);
                self.dom.append_child(new.id, c);
            }
            self.dom.append_child(furthest.id, new.id);
            let lost = || GiveUp("bookmark lost in the adoption agency");
            match bookmark {
                Ok(replaced) => {
                    let i = self.formatting_position(replaced).ok_or_else(lost)?;
                    self.formatting[i] = Formatting::Element(new);
                }
                Err(previous) => {
                    let i = self.formatting_position(previous).ok_or_else(lost)?;
                    self.formatting.insert(i + 1, Formatting::Element(new));
                    let old = self.formatting_position(fe.id).ok_or_else(lost)?;
                    self.formatting.remove(old);
                }
            }
            self.remove_from_stack(fe.id);
            let at = self
                .stack
                .iter()
                .position(|o| o.id == furthest.id)
                .ok_or_else(lost)?;
            self.stack.insert(at + 1, new);
        }
        Ok(())
    }

    // ---- tokens ----

    /// The "anything else" step of the modes before the body and after it:
    /// what is implied, and the mode the token is processed again in.
    fn anything_else(&mut self) -> Step<()> {
        match self.mode {
            Mode::Initial => {
                self.quirks = Quirks::Yes;
                self.mode = Mode::BeforeHtml;
            }
            Mode::BeforeHtml => {
                let root = self.create(
                    Some(Tag::HTML),
                    &html5ever::local_name!("html"),
                    Attrs::None,
                    Ns::Html,
                )?;
                self.dom.append_child(DOCUMENT, root.id);
                self.push(root)?;
                self.mode = Mode::BeforeHead;
            }
            Mode::BeforeHead => {
                let head = self.insert_implied(Tag::HEAD)?;
                self.head = Some(head.id);
                self.mode = Mode::InHead;
            }
            Mode::InHead => {
                self.stack.pop();
                self.mode = Mode::AfterHead;
            }
            Mode::AfterHead => {
                self.insert_implied(Tag::BODY)?;
                self.mode = Mode::InBody;
            }
            Mode::AfterBody | Mode::AfterAfterBody => self.mode = Mode::InBody,
            _ => return Err(GiveUp("no anything-else step")),
        }
        Ok(())
    }

    /// The start tags of the in-head rules: `None` for "anything else".
    fn in_head_start(&mut self, t: &TagRef<'_>, n: &Name) -> Step<Option<Next>> {
        Ok(Some(match n.key {
            Tag::HTML => return self.in_body_start(t, n).map(Some),
            Tag::BASE | Tag::LINK | Tag::META | K_BASEFONT => {
                self.insert_void(n, t)?;
                Next::Data
            }
            Tag::TITLE => self.insert_raw(n, t, RawKind::Rcdata)?,
            Tag::NOFRAMES | Tag::STYLE | Tag::NOSCRIPT => {
                self.insert_raw(n, t, RawKind::Rawtext)?
            }
            Tag::SCRIPT => self.insert_raw(n, t, RawKind::ScriptData)?,
            Tag::TEMPLATE => {
                if t.attr("shadowrootmode").is_some() {
                    return Err(GiveUp("declarative shadow root"));
                }
                self.push_marker()?;
                self.mode = Mode::InTemplate;
                self.templates.push(Mode::InTemplate);
                // html5ever looks for the place once to decide on a shadow
                // root, once to insert.
                self.target();
                self.insert(n, t)?;
                Next::Data
            }
            Tag::HEAD => Next::Data,
            _ => return Ok(None),
        }))
    }

    /// A start tag in the in-body rules.
    fn in_body_start(&mut self, t: &TagRef<'_>, n: &Name) -> Step<Next> {
        match n.key {
            Tag::HTML => {
                if let Some(html) = self.stack.first().map(|o| o.id)
                    && !self.in_template()
                {
                    self.add_attrs_if_missing(html, t);
                }
            }
            Tag::BODY => {
                if self.stack.len() > 1 && self.stack[1].tag == Tag::BODY && !self.in_template() {
                    self.add_attrs_if_missing(self.stack[1].id, t);
                }
            }
            Tag::BASE
            | K_BASEFONT
            | Tag::LINK
            | Tag::META
            | Tag::NOFRAMES
            | Tag::SCRIPT
            | Tag::STYLE
            | Tag::TEMPLATE
            | Tag::TITLE => {
                return self
                    .in_head_start(t, n)
                    .map(|next| next.unwrap_or(Next::Data));
            }
            Tag::FRAMESET => return Err(GiveUp("frameset")),
            Tag::ADDRESS
            | Tag::ARTICLE
            | Tag::ASIDE
            | Tag::BLOCKQUOTE
            | Tag::CENTER
            | Tag::DETAILS
            | Tag::DIALOG
            | Tag::DIV
            | Tag::DL
            | Tag::FIELDSET
            | Tag::FIGCAPTION
            | Tag::FIGURE
            | Tag::FOOTER
            | Tag::HEADER
            | Tag::HGROUP
            | Tag::MAIN
            | Tag::NAV
            | Tag::OL
            | Tag::P
            | Tag::SECTION
            | Tag::SUMMARY
            | Tag::UL
            | Tag::MENU
            | K_BLOCK => {
                self.close_p();
                self.insert(n, t)?;
            }
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => {
                self.close_p();
                if is_heading(self.current().tag) {
                    self.stack.pop();
                }
                self.insert(n, t)?;
            }
            Tag::PRE | Tag::LISTING => {
                self.close_p();
                self.insert(n, t)?;
                self.ignore_lf = true;
            }
            Tag::FORM => {
                let template = self.in_template();
                if self.form.is_none() || template {
                    self.close_p();
                    let open = self.insert(n, t)?;
                    if !template {
                        self.form = Some(open.id);
                    }
                }
            }
            Tag::LI | Tag::DD | Tag::DT => {
                let list = n.key == Tag::LI;
                let mut close = None;
                for o in self.stack.iter().rev() {
                    let hit = if list {
                        o.tag == Tag::LI
                    } else {
                        matches!(o.tag, Tag::DD | Tag::DT)
                    };
                    if hit {
                        close = Some(o.tag);
                        break;
                    }
                    if o.flags & SPECIAL != 0 && !matches!(o.tag, Tag::ADDRESS | Tag::DIV | Tag::P) {
                        break;
                    }
                }
                if let Some(tag) = close {
                    self.implied_ends(Some(tag));
                    self.pop_until(|x| x == tag);
                }
                self.close_p();
                self.insert(n, t)?;
            }
            Tag::PLAINTEXT => return Err(GiveUp("plaintext")),
            Tag::BUTTON => {
                if self.in_scope_tag(Scope::Default, Tag::BUTTON) {
                    return Err(GiveUp("nested button"));
                }
                self.reconstruct()?;
                self.insert(n, t)?;
            }
            Tag::A => {
                if let Some((_, a)) = self.formatting_after_marker(Tag::A) {
                    self.adoption_agency(Tag::A)?;
                    if let Some(i) = self
                        .formatting
                        .iter()
                        .position(|e| matches!(e, Formatting::Element(o) if o.id == a.id))
                    {
                        self.formatting.remove(i);
                    }
                    self.remove_from_stack(a.id);
                }
                self.reconstruct()?;
                self.insert_formatting(n, t)?;
            }
            Tag::B
            | Tag::BIG
            | Tag::CODE
            | Tag::EM
            | Tag::FONT
            | Tag::I
            | Tag::S
            | Tag::SMALL
            | Tag::STRIKE
            | Tag::STRONG
            | Tag::TT
            | Tag::U => {
                self.reconstruct()?;
                self.insert_formatting(n, t)?;
            }
            Tag::NOBR => {
                self.reconstruct()?;
                if self.in_scope_tag(Scope::Default, Tag::NOBR) {
                    self.adoption_agency(Tag::NOBR)?;
                    self.reconstruct()?;
                }
                self.insert_formatting(n, t)?;
            }
            Tag::OBJECT | K_APPLET => {
                self.reconstruct()?;
                self.insert(n, t)?;
                self.push_marker()?;
            }
            Tag::TABLE => {
                if self.quirks != Quirks::Yes && self.in_scope_tag(Scope::Button, Tag::P) {
                    if self.quirks == Quirks::Unknown {
                        return Err(GiveUp("<table> in <p> under an unusual doctype"));
                    }
                    self.close_p();
                }
                self.insert(n, t)?;
                self.mode = Mode::InTable;
            }
            Tag::AREA | Tag::BR | Tag::EMBED | Tag::IMG | Tag::WBR | K_KEYGEN => {
                self.reconstruct()?;
                self.insert_void(n, t)?;
            }
            K_IMAGE => {
                // An `<img>`, with the same attributes.
                let img = Name {
                    atom: html5ever::local_name!("img"),
                    id: Some(Tag::IMG),
                    key: Tag::IMG,
                };
                self.reconstruct()?;
                self.insert_void(&img, t)?;
            }
            Tag::INPUT => {
                if self.in_scope_tag(Scope::Default, Tag::SELECT) {
                    self.pop_until(|x| x == Tag::SELECT);
                }
                self.reconstruct()?;
                self.insert_void(n, t)?;
            }
            Tag::SOURCE | Tag::TRACK | K_PARAM => {
                self.insert_void(n, t)?;
            }
            Tag::HR => {
                self.close_p();
                if self.in_scope_tag(Scope::Default, Tag::SELECT) {
                    self.implied_ends(None);
                }
                self.insert_void(n, t)?;
            }
            Tag::TEXTAREA => {
                self.ignore_lf = true;
                return self.insert_raw(n, t, RawKind::Rcdata);
            }
            Tag::XMP => {
                self.close_p();
                self.reconstruct()?;
                return self.insert_raw(n, t, RawKind::Rawtext);
            }
            Tag::IFRAME | Tag::NOSCRIPT | K_NOEMBED => {
                return self.insert_raw(n, t, RawKind::Rawtext);
            }
            Tag::SELECT if self.in_scope_tag(Scope::Default, Tag::SELECT) => {
                self.pop_until(|x| x == Tag::SELECT);
            }
            Tag::SELECT => {
                self.reconstruct()?;
                self.insert(n, t)?;
            }
            Tag::OPTION | Tag::OPTGROUP => {
                if self.in_scope_tag(Scope::Default, Tag::SELECT) {
                    let except = (n.key == Tag::OPTION).then_some(Tag::OPTGROUP);
                    self.implied_ends(except);
                } else if self.current().tag == Tag::OPTION {
                    self.stack.pop();
                }
                self.reconstruct()?;
                self.insert(n, t)?;
            }
            K_RB => return Err(GiveUp("rb or rtc")),
            Tag::RP | Tag::RT => {
                if self.in_scope_tag(Scope::Default, Tag::RUBY) {
                    self.implied_ends(None);
                }
                self.insert(n, t)?;
            }
            Tag::MATH | Tag::SVG => {
                self.reconstruct()?;
                let ns = if n.key == Tag::SVG { Ns::Svg } else { Ns::MathMl };
                self.insert_at_target(n.id, &n.atom, Attrs::Token(t), ns, !t.self_closing)?;
            }
            Tag::CAPTION
            | Tag::COL
            | Tag::COLGROUP
            | Tag::FRAME
            | Tag::HEAD
            | Tag::TBODY
            | Tag::TD
            | Tag::TFOOT
            | Tag::TH
            | Tag::THEAD
            | Tag::TR => {}
            _ => {
                self.reconstruct()?;
                self.insert(n, t)?;
            }
        }
        Ok(Next::Data)
    }

    /// Adds a marker to the list of active formatting elements.
    fn push_marker(&mut self) -> Step<()> {
        if self.formatting.len() >= MAX_FORMATTING {
            return Err(GiveUp("formatting list longer than MAX_FORMATTING"));
        }
        self.formatting.push(Formatting::Marker);
        Ok(())
    }

    /// "Any other end tag" in the in-body rules.
    fn any_other_end(&mut self, tag: Option<Tag>) {
        let Some(tag) = tag else {
            // No element of that name was ever made: nothing to close.
            return;
        };
        for i in (0..self.stack.len()).rev() {
            let o = self.stack[i];
            if o.tag == tag {
                self.implied_ends(Some(tag));
                self.stack.truncate(i);
                return;
            }
            if o.flags & SPECIAL != 0 {
                return;
            }
        }
    }

    /// An end tag in the in-body rules.
    fn in_body_end(&mut self, n: &Name) -> Step<()> {
        match n.key {
            Tag::TEMPLATE => self.template_end()?,
            Tag::BODY => {
                if self.in_scope_tag(Scope::Default, Tag::BODY) {
                    self.mode = Mode::AfterBody;
                }
            }
            Tag::HTML => {
                if self.in_scope_tag(Scope::Default, Tag::BODY) {
                    // After body, `</html>` goes on to after after body.
                    self.mode = Mode::AfterAfterBody;
                }
            }
            Tag::ADDRESS
            | Tag::ARTICLE
            | Tag::ASIDE
            | Tag::BLOCKQUOTE
            | Tag::BUTTON
            | Tag::CENTER
            | Tag::DETAILS
            | Tag::DIALOG
            | Tag::DIV
            | Tag::DL
            | Tag::FIELDSET
            | Tag::FIGCAPTION
            | Tag::FIGURE
            | Tag::FOOTER
            | Tag::HEADER
            | Tag::HGROUP
            | Tag::LISTING
            | Tag::MAIN
            | Tag::MENU
            | Tag::NAV
            | Tag::OL
            | Tag::PRE
            | Tag::SECTION
            | Tag::SELECT
            | Tag::SUMMARY
            | Tag::UL
            | K_BLOCK => {
                // An element never made has no id, and is in no scope.
                if let Some(tag) = n.id
                    && self.in_scope_tag(Scope::Default, tag)
                {
                    self.implied_ends(None);
                    self.pop_until(|x| x == tag);
                }
            }
            Tag::FORM if self.in_template() => {
                if self.in_scope_tag(Scope::Default, Tag::FORM) {
                    self.implied_ends(None);
                    self.pop_until(|x| x == Tag::FORM);
                }
            }
            Tag::FORM => {
                let Some(form) = self.form.take() else {
                    return Ok(());
                };
                if !self.in_scope(Scope::Default, |o| o.id == form) {
                    return Ok(());
                }
                self.implied_ends(None);
                self.remove_from_stack(form);
            }
            Tag::P => {
                if !self.in_scope_tag(Scope::Button, Tag::P) {
                    self.insert_implied(Tag::P)?;
                }
                self.implied_ends(Some(Tag::P));
                self.pop_until(|x| x == Tag::P);
            }
            Tag::LI | Tag::DD | Tag::DT => {
                let tag = n.key;
                let scope = if tag == Tag::LI {
                    Scope::ListItem
                } else {
                    Scope::Default
                };
                if self.in_scope_tag(scope, tag) {
                    self.implied_ends(Some(tag));
                    self.pop_until(|x| x == tag);
                }
            }
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => {
                if self.in_scope(Scope::Default, |o| is_heading(o.tag)) {
                    self.implied_ends(None);
                    self.pop_until(is_heading);
                }
            }
            t if is_formatting(t) => self.adoption_agency(t)?,
            Tag::OBJECT | K_APPLET => {
                if let Some(tag) = n.id
                    && self.in_scope_tag(Scope::Default, tag)
                {
                    self.implied_ends(None);
                    self.pop_until(|x| x == tag);
                    self.clear_to_marker();
                }
            }
            Tag::BR => {
                // As `<br>`, without attributes.
                self.reconstruct()?;
                self.insert_at_target(Some(Tag::BR), &n.atom, Attrs::None, Ns::Html, false)?;
            }
            _ => self.any_other_end(n.id),
        }
        Ok(())
    }

    /// A start tag in the in-table rules: `None` to process it again in
    /// the (new) mode.
    fn in_table_start(&mut self, t: &TagRef<'_>, n: &Name) -> Step<Option<Next>> {
        let table_context = |x| matches!(x, Tag::TABLE | Tag::TEMPLATE | Tag::HTML);
        match n.key {
            Tag::CAPTION => {
                self.clear_to(table_context);
                self.push_marker()?;
                self.insert(n, t)?;
                self.mode = Mode::InCaption;
            }
            Tag::COLGROUP => {
                self.clear_to(table_context);
                self.insert(n, t)?;
                self.mode = Mode::InColumnGroup;
            }
            Tag::COL => {
                self.clear_to(table_context);
                self.insert_implied(Tag::COLGROUP)?;
                self.mode = Mode::InColumnGroup;
                return Ok(None);
            }
            Tag::TABLE => {
                if self.in_scope_tag(Scope::Table, Tag::TABLE) {
                    self.pop_until(|x| x == Tag::TABLE);
                    self.mode = self.reset_mode()?;
                    return Ok(None);
                }
            }
            Tag::FORM => {
                if !self.in_template() && self.form.is_none() {
                    let open = self.insert_void(n, t)?;
                    self.form = Some(open.id);
                }
            }
            Tag::TBODY | Tag::TFOOT | Tag::THEAD => {
                self.clear_to(|x| matches!(x, Tag::TABLE | Tag::TEMPLATE | Tag::HTML));
                self.insert(n, t)?;
                self.mode = Mode::InTableBody;
            }
            Tag::TD | Tag::TH | Tag::TR => {
                self.clear_to(|x| matches!(x, Tag::TABLE | Tag::TEMPLATE | Tag::HTML));
                self.insert_implied(Tag::TBODY)?;
                self.mode = Mode::InTableBody;
                return Ok(None);
            }
            Tag::STYLE | Tag::SCRIPT | Tag::TEMPLATE => return self.in_head_start(t, n),
            Tag::INPUT if t.attr("type").is_some_and(|v| v.eq_ignore_ascii_case("hidden")) => {
                self.insert_void(n, t)?;
            }
            _ => return Err(GiveUp("start tag in table (fostered)")),
        }
        Ok(Some(Next::Data))
    }

    /// An end tag in the in-table rules.
    fn in_table_end(&mut self, n: &Name) -> Step<()> {
        match n.key {
            Tag::TABLE => {
                if self.in_scope_tag(Scope::Table, Tag::TABLE) {
                    self.pop_until(|x| x == Tag::TABLE);
                    self.mode = self.reset_mode()?;
                }
            }
            Tag::BODY
            | Tag::CAPTION
            | Tag::COL
            | Tag::COLGROUP
            | Tag::HTML
            | Tag::TBODY
            | Tag::TD
            | Tag::TFOOT
            | Tag::TH
            | Tag::THEAD
            | Tag::TR => {}
            // They insert an element, which would be foster-parented.
            Tag::P | Tag::BR => return Err(GiveUp("</p> or </br> in table")),
            _ => {
                self.fostering = true;
                let step = self.in_body_end(n);
                self.fostering = false;
                step?;
            }
        }
        Ok(())
    }

    /// A start tag in the in-table-body rules.
    fn in_table_body_start(&mut self, t: &TagRef<'_>, n: &Name) -> Step<Option<Next>> {
        let body_context = |x| matches!(x, Tag::TBODY | Tag::TFOOT | Tag::THEAD | Tag::TEMPLATE | Tag::HTML);
        match n.key {
            Tag::TR => {
                self.clear_to(body_context);
                self.insert(n, t)?;
                self.mode = Mode::InRow;
                Ok(Some(Next::Data))
            }
            Tag::TH | Tag::TD => {
                self.clear_to(body_context);
                self.insert_implied(Tag::TR)?;
                self.mode = Mode::InRow;
                Ok(None)
            }
            Tag::CAPTION | Tag::COL | Tag::COLGROUP | Tag::TBODY | Tag::TFOOT | Tag::THEAD => {
                if self.in_scope(Scope::Table, |o| {
                    matches!(o.tag, Tag::TABLE | Tag::TBODY | Tag::TFOOT)
                }) {
                    self.clear_to(body_context);
                    self.stack.pop();
                    self.mode = Mode::InTable;
                    Ok(None)
                } else {
                    Ok(Some(Next::Data))
                }
            }
            _ => self.in_table_start(t, n),
        }
    }

    /// An end tag in the in-table-body rules: `false` to process it again.
    fn in_table_body_end(&mut self, n: &Name) -> Step<bool> {
        let body_context = |x| matches!(x, Tag::TBODY | Tag::TFOOT | Tag::THEAD | Tag::TEMPLATE | Tag::HTML);
        match n.key {
            Tag::TBODY | Tag::TFOOT | Tag::THEAD => {
                if self.in_scope_tag(Scope::Table, n.key) {
                    self.clear_to(body_context);
                    self.stack.pop();
                    self.mode = Mode::InTable;
                }
            }
            Tag::TABLE => {
                if self.in_scope(Scope::Table, |o| {
                    matches!(o.tag, Tag::TABLE | Tag::TBODY | Tag::TFOOT)
                }) {
                    self.clear_to(body_context);
                    self.stack.pop();
                    self.mode = Mode::InTable;
                    return Ok(false);
                }
            }
            Tag::BODY
            | Tag::CAPTION
            | Tag::COL
            | Tag::COLGROUP
            | Tag::HTML
            | Tag::TD
            | Tag::TH
            | Tag::TR => {}
            _ => self.in_table_end(n)?,
        }
        Ok(true)
    }

    /// Closes the current row, if a `tr` is in table scope; `false` if not.
    fn close_row(&mut self) -> bool {
        if !self.in_scope_tag(Scope::Table, Tag::TR) {
            return false;
        }
        self.clear_to(|x| matches!(x, Tag::TR | Tag::TEMPLATE | Tag::HTML));
        self.stack.pop();
        self.mode = Mode::InTableBody;
        true
    }

    /// A start tag in the in-row rules.
    fn in_row_start(&mut self, t: &TagRef<'_>, n: &Name) -> Step<Option<Next>> {
        match n.key {
            Tag::TH | Tag::TD => {
                self.clear_to(|x| matches!(x, Tag::TR | Tag::TEMPLATE | Tag::HTML));
                self.insert(n, t)?;
                self.mode = Mode::InCell;
                self.push_marker()?;
                Ok(Some(Next::Data))
            }
            Tag::CAPTION
            | Tag::COL
            | Tag::COLGROUP
            | Tag::TBODY
            | Tag::TFOOT
            | Tag::THEAD
            | Tag::TR => Ok(if self.close_row() {
                None
            } else {
                Some(Next::Data)
            }),
            _ => self.in_table_start(t, n),
        }
    }

    /// An end tag in the in-row rules: `false` to process it again.
    fn in_row_end(&mut self, n: &Name) -> Step<bool> {
        match n.key {
            Tag::TR => {
                self.close_row();
            }
            Tag::TABLE => return Ok(!self.close_row()),
            Tag::TBODY | Tag::TFOOT | Tag::THEAD => {
                if self.in_scope_tag(Scope::Table, n.key) {
                    return Ok(!self.close_row());
                }
            }
            Tag::BODY | Tag::CAPTION | Tag::COL | Tag::COLGROUP | Tag::HTML | Tag::TD | Tag::TH => {}
            _ => self.in_table_end(n)?,
        }
        Ok(true)
    }

    /// Closes the current cell.
    fn close_cell(&mut self) {
        self.implied_ends(None);
        self.pop_until(|x| matches!(x, Tag::TD | Tag::TH));
        self.clear_to_marker();
        self.mode = Mode::InRow;
    }

    /// A start tag in the in-cell rules.
    fn in_cell_start(&mut self, t: &TagRef<'_>, n: &Name) -> Step<Option<Next>> {
        match n.key {
            Tag::CAPTION
            | Tag::COL
            | Tag::COLGROUP
            | Tag::TBODY
            | Tag::TD
            | Tag::TFOOT
            | Tag::TH
            | Tag::THEAD
            | Tag::TR => {
                if self.in_scope(Scope::Table, |o| matches!(o.tag, Tag::TD | Tag::TH)) {
                    self.close_cell();
                    Ok(None)
                } else {
                    Ok(Some(Next::Data))
                }
            }
            _ => self.in_body_start(t, n).map(Some),
        }
    }

    /// An end tag in the in-cell rules: `false` to process it again.
    fn in_cell_end(&mut self, n: &Name) -> Step<bool> {
        match n.key {
            Tag::TD | Tag::TH => {
                let tag = n.key;
                if self.in_scope_tag(Scope::Table, tag) {
                    self.implied_ends(None);
                    self.pop_until(|x| x == tag);
                    self.clear_to_marker();
                    self.mode = Mode::InRow;
                }
            }
            Tag::BODY | Tag::CAPTION | Tag::COL | Tag::COLGROUP | Tag::HTML => {}
            Tag::TABLE | Tag::TBODY | Tag::TFOOT | Tag::THEAD | Tag::TR => {
                if self.in_scope_tag(Scope::Table, n.key) {
                    self.close_cell();
                    return Ok(false);
                }
            }
            _ => self.in_body_end(n)?,
        }
        Ok(true)
    }

    /// `</template>` in the in-head rules.
    fn template_end(&mut self) -> Step<()> {
        if !self.in_template() {
            return Ok(());
        }
        while let Some(o) = self.stack.last() {
            let thorough = implied_end(o.tag)
                || matches!(
                    o.tag,
                    Tag::CAPTION
                        | Tag::COLGROUP
                        | Tag::TBODY
                        | Tag::TD
                        | Tag::TFOOT
                        | Tag::TH
                        | Tag::THEAD
                        | Tag::TR
                );
            if !thorough {
                break;
            }
            self.stack.pop();
        }
        self.pop_until(|x| x == Tag::TEMPLATE);
        self.clear_to_marker();
        self.templates.pop();
        self.mode = self.reset_mode()?;
        Ok(())
    }

    /// Closes the caption, if one is in table scope; `false` if not.
    fn close_caption(&mut self) -> bool {
        if !self.in_scope_tag(Scope::Table, Tag::CAPTION) {
            return false;
        }
        self.implied_ends(None);
        self.pop_until(|x| x == Tag::CAPTION);
        self.clear_to_marker();
        self.mode = Mode::InTable;
        true
    }

    /// A start tag in the in-caption rules.
    fn in_caption_start(&mut self, t: &TagRef<'_>, n: &Name) -> Step<Option<Next>> {
        match n.key {
            Tag::CAPTION
            | Tag::COL
            | Tag::COLGROUP
            | Tag::TBODY
            | Tag::TD
            | Tag::TFOOT
            | Tag::TH
            | Tag::THEAD
            | Tag::TR => Ok(if self.close_caption() {
                None
            } else {
                Some(Next::Data)
            }),
            _ => self.in_body_start(t, n).map(Some),
        }
    }

    /// An end tag in the in-caption rules: `false` to process it again.
    fn in_caption_end(&mut self, n: &Name) -> Step<bool> {
        match n.key {
            Tag::CAPTION => {
                self.close_caption();
            }
            Tag::TABLE => return Ok(!self.close_caption()),
            Tag::BODY
            | Tag::COL
            | Tag::COLGROUP
            | Tag::HTML
            | Tag::TBODY
            | Tag::TD
            | Tag::TFOOT
            | Tag::TH
            | Tag::THEAD
            | Tag::TR => {}
            _ => self.in_body_end(n)?,
        }
        Ok(true)
    }

    /// The "anything else" step of the in-column-group rules: the
    /// `colgroup` closed, the token processed again in table.
    fn colgroup_else(&mut self) -> Step<()> {
        if self.current().tag != Tag::COLGROUP {
            return Err(GiveUp("column group mode without a colgroup"));
        }
        self.stack.pop();
        self.mode = Mode::InTable;
        Ok(())
    }

    /// A start tag in the in-column-group rules.
    fn in_column_group_start(&mut self, t: &TagRef<'_>, n: &Name) -> Step<Option<Next>> {
        match n.key {
            Tag::HTML => self.in_body_start(t, n).map(Some),
            Tag::COL => {
                self.insert_void(n, t)?;
                Ok(Some(Next::Data))
            }
            Tag::TEMPLATE => self.in_head_start(t, n),
            _ => {
                self.colgroup_else()?;
                Ok(None)
            }
        }
    }

    /// An end tag in the in-column-group rules: `false` to process it again.
    fn in_column_group_end(&mut self, n: &Name) -> Step<bool> {
        match n.key {
            Tag::COLGROUP => {
                if self.current().tag == Tag::COLGROUP {
                    self.stack.pop();
                    self.mode = Mode::InTable;
                }
                Ok(true)
            }
            Tag::COL => Ok(true),
            Tag::TEMPLATE => self.template_end().map(|()| true),
            _ => {
                self.colgroup_else()?;
                Ok(false)
            }
        }
    }

    /// Adds to element `id` the token's attributes it does not have, as
    /// the sink does: its attributes copied to the end, the new ones
    /// after them.
    fn add_attrs_if_missing(&mut self, id: NodeId, t: &TagRef<'_>) {
        let dom = &mut self.dom;
        if t.attrs().all(|(name, _)| dom.attr(id, name).is_some()) {
            return;
        }
        let (old_start, old_len) = match &dom.nodes[id.index()].kind {
            NodeKind::Element(e) => (e.attrs_start as usize, e.attrs_len as usize),
            _ => return,
        };
        let missing: Vec<(&str, &str)> = t
            .attrs()
            .filter(|(name, _)| dom.attr(id, name).is_none())
            .collect();
        let new_start = dom.attrs.len();
        dom.attrs.extend_from_within(old_start..old_start + old_len);
        for (name, value) in missing {
            let from = to_u32(dom.attr_text.len());
            dom.attr_text.push_str(value);
            dom.attrs.push(Attr {
                name: LocalName::from(name),
                start: from,
                end: to_u32(dom.attr_text.len()),
            });
        }
        let new_len = dom.attrs.len() - new_start;
        if let NodeKind::Element(e) = &mut dom.nodes[id.index()].kind {
            e.attrs_start = to_u32(new_start);
            e.attrs_len = to_u32(new_len);
        }
    }

    /// A tag in foreign content (the current node SVG or MathML, not an
    /// integration point taking it).
    fn foreign_tag(&mut self, t: &TagRef<'_>, n: &Name) -> Step<Next> {
        let cur = self.current();
        let svg = cur.flags & SVG != 0;
        if !t.end {
            let breakout = matches!(
                n.key,
                Tag::B
                    | Tag::BIG
                    | Tag::BLOCKQUOTE
                    | Tag::BODY
                    | Tag::BR
                    | Tag::CENTER
                    | Tag::CODE
                    | Tag::DD
                    | Tag::DIV
                    | Tag::DL
                    | Tag::DT
                    | Tag::EM
                    | Tag::EMBED
                    | Tag::H1
                    | Tag::H2
                    | Tag::H3
                    | Tag::H4
                    | Tag::H5
                    | Tag::H6
                    | Tag::HEAD
                    | Tag::HR
                    | Tag::I
                    | Tag::IMG
                    | Tag::LI
                    | Tag::LISTING
                    | Tag::MENU
                    | Tag::META
                    | Tag::NOBR
                    | Tag::OL
                    | Tag::P
                    | Tag::PRE
                    | Tag::RUBY
                    | Tag::S
                    | Tag::SMALL
                    | Tag::SPAN
                    | Tag::STRONG
                    | Tag::STRIKE
                    | Tag::SUB
                    | Tag::SUP
                    | Tag::TABLE
                    | Tag::TT
                    | Tag::U
                    | Tag::UL
                    | Tag::VAR
            ) || (n.key == Tag::FONT
                && t.attrs()
                    .any(|(a, _)| matches!(a, "color" | "face" | "size")))
                // `<svg>` in MathML: at `annotation-xml`, an integration point.
                || (n.key == Tag::SVG && !svg);
            if breakout {
                return Err(GiveUp("HTML start tag in foreign content"));
            }
            let ns = if svg { Ns::Svg } else { Ns::MathMl };
            let adjusted = if svg { svg_name(t.name) } else { t.name };
            let open = if adjusted == t.name {
                self.create(n.id, &n.atom, Attrs::Token(t), ns)?
            } else {
                let atom = LocalName::from(adjusted);
                let id = self.dom.tag_id(&atom);
                self.create(id, &atom, Attrs::Token(t), ns)?
            };
            self.dom.append_child(cur.id, open.id);
            if !t.self_closing {
                self.push(open)?;
            }
            return Ok(Next::Data);
        }
        if matches!(n.key, Tag::BR | Tag::P) {
            return Err(GiveUp("</br> or </p> in foreign content"));
        }
        let mut i = self.stack.len().saturating_sub(1);
        let mut first = true;
        while i > 0 {
            let o = self.stack[i];
            if !first && !o.foreign() {
                self.end_tag(n)?;
                return Ok(Next::Data);
            }
            let name = self.dom.tag(o.id).map_or("", |tag| self.dom.tag_name(tag));
            if name.eq_ignore_ascii_case(t.name) {
                self.stack.truncate(i);
                return Ok(Next::Data);
            }
            first = false;
            i -= 1;
        }
        Ok(Next::Data)
    }

    /// A start tag, in the current mode.
    fn start_tag(&mut self, t: &TagRef<'_>, n: &Name) -> Step<Next> {
        loop {
            let done = match self.mode {
                Mode::Initial => None,
                Mode::BeforeHtml if n.key == Tag::HTML => {
                    let root = self.create(n.id, &n.atom, Attrs::Token(t), Ns::Html)?;
                    self.dom.append_child(DOCUMENT, root.id);
                    self.push(root)?;
                    self.mode = Mode::BeforeHead;
                    Some(Next::Data)
                }
                Mode::BeforeHtml => None,
                Mode::BeforeHead => match n.key {
                    Tag::HTML => Some(self.in_body_start(t, n)?),
                    Tag::HEAD => {
                        let head = self.insert(n, t)?;
                        self.head = Some(head.id);
                        self.mode = Mode::InHead;
                        Some(Next::Data)
                    }
                    _ => None,
                },
                Mode::InHead => self.in_head_start(t, n)?,
                Mode::AfterHead => match n.key {
                    Tag::HTML => Some(self.in_body_start(t, n)?),
                    Tag::BODY => {
                        self.insert(n, t)?;
                        self.mode = Mode::InBody;
                        Some(Next::Data)
                    }
                    Tag::FRAMESET => return Err(GiveUp("frameset")),
                    Tag::BASE
                    | K_BASEFONT
                    | Tag::LINK
                    | Tag::META
                    | Tag::NOFRAMES
                    | Tag::SCRIPT
                    | Tag::STYLE
                    | Tag::TEMPLATE
                    | Tag::TITLE => {
                        let Some(head) = self.head else {
                            return Err(GiveUp("no head element"));
                        };
                        self.push(Open {
                            id: head,
                            tag: Tag::HEAD,
                            flags: SPECIAL,
                        })?;
                        let next = self.in_head_start(t, n)?;
                        self.remove_from_stack(head);
                        next
                    }
                    Tag::HEAD => Some(Next::Data),
                    _ => None,
                },
                Mode::InBody => Some(self.in_body_start(t, n)?),
                Mode::InTemplate => {
                    let mode = match n.key {
                        Tag::BASE
                        | K_BASEFONT
                        | Tag::LINK
                        | Tag::META
                        | Tag::NOFRAMES
                        | Tag::SCRIPT
                        | Tag::STYLE
                        | Tag::TEMPLATE
                        | Tag::TITLE => {
                            return self.in_head_start(t, n).map(|next| next.unwrap_or(Next::Data));
                        }
                        Tag::CAPTION | Tag::COLGROUP | Tag::TBODY | Tag::TFOOT | Tag::THEAD => {
                            Mode::InTable
                        }
                        Tag::COL => Mode::InColumnGroup,
                        Tag::TR => Mode::InTableBody,
                        Tag::TD | Tag::TH => Mode::InRow,
                        _ => Mode::InBody,
                    };
                    self.templates.pop();
                    self.templates.push(mode);
                    self.mode = mode;
                    continue;
                }
                Mode::Text => return Err(GiveUp("start tag in text mode")),
                Mode::InTable => match self.in_table_start(t, n)? {
                    Some(next) => return Ok(next),
                    None => continue,
                },
                Mode::InTableBody => match self.in_table_body_start(t, n)? {
                    Some(next) => return Ok(next),
                    None => continue,
                },
                Mode::InRow => match self.in_row_start(t, n)? {
                    Some(next) => return Ok(next),
                    None => continue,
                },
                Mode::InCell => match self.in_cell_start(t, n)? {
                    Some(next) => return Ok(next),
                    None => continue,
                },
                Mode::InCaption => match self.in_caption_start(t, n)? {
                    Some(next) => return Ok(next),
                    None => continue,
                },
                Mode::InColumnGroup => match self.in_column_group_start(t, n)? {
                    Some(next) => return Ok(next),
                    None => continue,
                },
                Mode::AfterBody | Mode::AfterAfterBody if n.key == Tag::HTML => {
                    Some(self.in_body_start(t, n)?)
                }
                Mode::AfterBody | Mode::AfterAfterBody => None,
            };
            match done {
                Some(next) => return Ok(next),
                None => self.anything_else()?,
            }
        }
    }

    /// An end tag, in the current mode.
    fn end_tag(&mut self, n: &Name) -> Step<()> {
        loop {
            let before_body_end = matches!(n.key, Tag::HEAD | Tag::BODY | Tag::HTML | Tag::BR);
            match self.mode {
                Mode::Initial => {}
                Mode::BeforeHtml | Mode::BeforeHead if before_body_end => {}
                Mode::BeforeHtml | Mode::BeforeHead => return Ok(()),
                Mode::InHead => match n.key {
                    Tag::HEAD => {
                        self.stack.pop();
                        self.mode = Mode::AfterHead;
                        return Ok(());
                    }
                    Tag::BODY | Tag::HTML | Tag::BR => {}
                    Tag::TEMPLATE => return self.template_end(),
                    _ => return Ok(()),
                },
                Mode::AfterHead => match n.key {
                    Tag::BODY | Tag::HTML | Tag::BR => {}
                    Tag::TEMPLATE => return self.template_end(),
                    _ => return Ok(()),
                },
                Mode::InTemplate => {
                    if n.key == Tag::TEMPLATE {
                        self.template_end()?;
                    }
                    return Ok(());
                }
                Mode::InBody => return self.in_body_end(n),
                Mode::Text => {
                    self.stack.pop();
                    self.mode = self.orig_mode;
                    return Ok(());
                }
                Mode::InTable => return self.in_table_end(n),
                Mode::InTableBody => {
                    if self.in_table_body_end(n)? {
                        return Ok(());
                    }
                    continue;
                }
                Mode::InRow => {
                    if self.in_row_end(n)? {
                        return Ok(());
                    }
                    continue;
                }
                Mode::InCell => {
                    if self.in_cell_end(n)? {
                        return Ok(());
                    }
                    continue;
                }
                Mode::InCaption => {
                    if self.in_caption_end(n)? {
                        return Ok(());
                    }
                    continue;
                }
                Mode::InColumnGroup => {
                    if self.in_column_group_end(n)? {
                        return Ok(());
                    }
                    continue;
                }
                Mode::AfterBody if n.key == Tag::HTML => {
                    self.mode = Mode::AfterAfterBody;
                    return Ok(());
                }
                Mode::AfterBody | Mode::AfterAfterBody => {}
            }
            self.anything_else()?;
        }
    }
}

/// Clamps a buffer offset to `u32`, as the sink does (buffers are capped
/// far below 4 GiB by the input size limit).
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Builder for Own {
    fn text(&mut self, text: &str) -> Step<()> {
        let mut text = text;
        if std::mem::take(&mut self.ignore_lf) {
            text = text.strip_prefix('\n').unwrap_or(text);
        }
        let cur = self.current();
        if cur.foreign() && cur.flags & INTEGRATION == 0 && !text.is_empty() {
            self.append_text(text);
            return Ok(());
        }
        while !text.is_empty() {
            match self.mode {
                Mode::InColumnGroup => {
                    let ws = text
                        .bytes()
                        .position(|c| !c.is_ascii_whitespace())
                        .unwrap_or(text.len());
                    let (space, rest) = text.split_at(ws);
                    if !space.is_empty() {
                        self.append_text(space);
                    }
                    text = rest;
                    if !text.is_empty() {
                        self.colgroup_else()?;
                    }
                }
                Mode::Initial
                | Mode::BeforeHtml
                | Mode::BeforeHead
                | Mode::InHead
                | Mode::AfterHead
                | Mode::AfterBody
                | Mode::AfterAfterBody => {
                    let ws = text
                        .bytes()
                        .position(|c| !c.is_ascii_whitespace())
                        .unwrap_or(text.len());
                    let (space, rest) = text.split_at(ws);
                    if !space.is_empty() {
                        match self.mode {
                            Mode::InHead | Mode::AfterHead => self.append_text(space),
                            Mode::AfterBody | Mode::AfterAfterBody => {
                                self.reconstruct()?;
                                self.append_text(space);
                            }
                            _ => {}
                        }
                    }
                    text = rest;
                    if !text.is_empty() {
                        self.anything_else()?;
                    }
                }
                Mode::InBody | Mode::InCell | Mode::InCaption | Mode::InTemplate => {
                    self.reconstruct()?;
                    self.append_text(text);
                    return Ok(());
                }
                Mode::Text => {
                    self.append_text(text);
                    return Ok(());
                }
                Mode::InTable | Mode::InTableBody | Mode::InRow => {
                    let table_node = matches!(
                        self.current().tag,
                        Tag::TABLE | Tag::TBODY | Tag::TFOOT | Tag::THEAD | Tag::TR
                    );
                    if !table_node || !all_space(text) {
                        return Err(GiveUp("text in table (fostered)"));
                    }
                    self.append_text(text);
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    fn comment(&mut self, _data: &str) -> Step<()> {
        self.ignore_lf = false;
        // Made, as the sink makes it, and never linked (but in a
        // template's contents, a fragment is made for it).
        self.dom.push(NodeKind::Other);
        if !matches!(
            self.mode,
            Mode::Initial | Mode::BeforeHtml | Mode::AfterBody | Mode::AfterAfterBody
        ) {
            self.target();
        }
        Ok(())
    }

    fn doctype(&mut self, name: &str, public: Option<&str>, system: Option<&str>) -> Step<()> {
        self.ignore_lf = false;
        if self.mode == Mode::Initial {
            self.quirks = quirks_of(name, public, system);
            self.mode = Mode::BeforeHtml;
        }
        Ok(())
    }

    fn tag(&mut self, t: &TagRef<'_>) -> Step<Next> {
        self.ignore_lf = false;
        self.start_tags += usize::from(!t.end);
        // A name with a fixed id has its atom without hashing.
        let (atom, id) = match known_tag(t.name).and_then(|k| Some((k.known_atom()?, k))) {
            Some((atom, k)) => (atom.clone(), Some(k)),
            None => {
                let atom = LocalName::from(t.name);
                let id = self.dom.tag_id(&atom);
                (atom, id)
            }
        };
        let key = match id {
            Some(k) if (k.0 as usize) < Tag::KNOWN => k,
            _ => rare_key(t.name),
        };
        let n = Name { atom, id, key };
        let cur = self.current();
        if cur.foreign() {
            // html5ever's "is foreign": start tags at an integration point
            // take the HTML rules (but MathML's `mglyph`, `malignmark`).
            let html_start = !t.end
                && cur.flags & INTEGRATION != 0
                && !(cur.flags & MATHML != 0 && matches!(t.name, "mglyph" | "malignmark"));
            if !html_start {
                return self.foreign_tag(t, &n);
            }
        }
        if t.end {
            self.end_tag(&n)?;
            Ok(Next::Data)
        } else {
            self.start_tag(t, &n)
        }
    }

    fn eof(&mut self) -> Step<()> {
        self.ignore_lf = false;
        loop {
            match self.mode {
                Mode::Initial
                | Mode::BeforeHtml
                | Mode::BeforeHead
                | Mode::InHead
                | Mode::AfterHead => self.anything_else()?,
                Mode::Text => {
                    self.stack.pop();
                    self.mode = self.orig_mode;
                }
                Mode::AfterBody | Mode::AfterAfterBody => return Ok(()),
                // In body, table, caption, column group, template: open
                // templates are closed, and the end processed again.
                _ => {
                    if self.templates.is_empty() || !self.in_template() {
                        return Ok(());
                    }
                    self.pop_until(|x| x == Tag::TEMPLATE);
                    self.clear_to_marker();
                    self.templates.pop();
                    self.mode = self.reset_mode()?;
                }
            }
        }
    }

    fn refusal(&self) -> Option<Error> {
        self.over.map(|memory| match memory {
            true => Error::TooDense {
                limit: self.limits.memory,
            },
            false => Error::TooManyElements {
                limit: self.limits.elements,
            },
        })
    }

    fn finish(self) -> Result<Dom, Error> {
        if let Some(e) = self.refusal() {
            return Err(e);
        }
        let mut dom = self.dom;
        dom.done_building();
        Ok(dom)
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::{parse_html5ever, parse_own_or_why};

    /// Our tree builder's tree is html5ever's, or it gave up.
    fn same(html: &str) -> bool {
        match parse_own_or_why(html) {
            Ok(dom) => {
                assert_eq!(
                    dom.outline(),
                    parse_html5ever(html).outline(),
                    "tree differs for {html:?}"
                );
                true
            }
            Err(_) => false,
        }
    }

    /// Takes `html` and builds html5ever's tree.
    fn takes(html: &str) {
        assert!(same(html), "gave up on {html:?}: {:?}", parse_own_or_why(html).err());
    }

    /// Gives up on `html` (and html5ever's tree is what the parse makes).
    fn gives_up(html: &str) {
        assert!(parse_own_or_why(html).is_err(), "took {html:?}");
        assert_eq!(
            crate::parse::parse_unfiltered(html).outline(),
            parse_html5ever(html).outline()
        );
    }

    #[test]
    fn document_structure_is_implied() {
        for html in [
            "",
            "x",
            "  ",
            "<!DOCTYPE html>",
            "<!DOCTYPE html><html><head><title>T</title></head><body><p>x</p></body></html>",
            "<!-- c --> <html> <!-- d --> <head> <meta charset=utf-8> </head> <body>x",
            "<html lang=en><head><link rel=x></head>\n<script>a()</script><body class=b>y",
            "</head></body></html>x",
            "<head></head> <!-- c --> <style>p{}</style> x",
            "<title>a &amp; b</title><noscript><p>n</noscript>z",
            "<p>x</p></body> \n<!-- after --> </html>\n <p>y",
            "<p>x</body><p>y",
            "<meta name=a>\n<title>t</title>\n\n<div>x</div>\n</body>\n</html>\n\n",
            "<html><body></body></html><!-- z -->",
            "<pre>\nx</pre><pre>\n\ny</pre><listing>\nz</listing><textarea>\nt</textarea>",
            "<pre><!---->\nx</pre>",
        ] {
            takes(html);
        }
    }

    #[test]
    fn implied_end_tags_follow_html5ever() {
        for html in [
            "<p>a<p>b<div>c</p>d</div><li>e<li>f",
            "<p>a<h1>b<h2>c</h1>d",
            "<ul><li>a<li>b<ul><li>c</ul></ul><ol><li><p>x<li>y</ol>",
            "<dl><dt>a<dd>b<dt>c<dd><div>d<dt>e</dl>",
            "</p><p></p></p>",
            "<div><p>a</div>b</p>c",
            "<li><div>a<li>b",
            "<p><form>x</form><form>y</form></p>",
            "<form><div></form>x</div>",
            "<h3>a</h4>b<h5><h6>c",
            "<br></br><hr><img src=a><input type=text><p>x<hr>y",
            "<span>a<div>b</span>c</div>d</foo>e",
            "<option>a<option>b<optgroup>c",
            "<ruby>a<rt>b<rp>c</ruby>",
            "<object><b>x</object>y",
            "<button>a</button><address><p>b</address>",
            "<xmp><b></xmp><iframe><p></iframe>",
            "<main><section><article><p>x</article></section></main>",
        ] {
            takes(html);
        }
    }

    #[test]
    fn formatting_elements_follow_html5ever() {
        for html in [
            "<b>a<i>b</i>c</b>d",
            "<p><b>a</p><p>b</p>",
            "<p><b><i>a</p>b<p>c",
            "<b><b><b><b>x</b></b></b></b>",
            "<p><b>1</p><p><b>2</p><p><b>3</p><p><b>4</p>x",
            "<p><b class=a>1</p><p><b class=b>2</p><p><b class=a>3</p><p><b class=a>4</p><p><b class=a>5</p>x",
            "<a href=1>x</a><a href=2>y</a>",
            "<i>a</b>c</i>",
            "<b>x</i></b>",
            "<div><b>a</div>b",
            "<td><b>x</td>y",
            "<table><tr><td><b>a</td><td>b</td></tr></table>c",
            "<em><strong>a</em>b</strong>",
            "<nobr>a</nobr><nobr>b",
            "<font color=red>a<font>b</font></font>",
            // The adoption agency moving nodes.
            "<b>1<p>2</b>3</p>",
            "<a>1<div>2</a>3",
            "<a href=x>1<div><a href=y>2",
            "<b class=x><i><u><s><em><div>1</b>2</div>3",
            "<p><b><i>1<div>2<p>3</b>4</i>5",
            "<a><b><div><i>x</a>y</i>z</b>",
            "<b>1<table><tr><td>2</b>3</td></tr></table>4</b>",
            "<table><tr><td>x</td></tr></div></span></form></b></table>y",
        ] {
            takes(html);
        }
    }

    #[test]
    fn select_foreign_and_rare_elements_follow_html5ever() {
        for html in [
            "<select><option>a<option>b<optgroup><option>c</select>x",
            "<select><select>x",
            "<p><select><input>y<hr>z",
            "<svg viewbox='0 0 1 1' xlink:href=x><clippath><path d=M0/></clippath><title>t</title><lineargradient/></svg>x",
            "<svg><foreignobject><div>a</div></foreignobject><g></G></svg>",
            "<p><svg><a href=x>1</a><text>2</svg></p>",
            "<div><svg><g><path></div>after",
            "<math definitionurl=x><mi>x</mi><mo>+</mo><mglyph/></math>",
            "<svg><image href=a /><script>x<y</script><style>p</style></svg>",
            "<svg><svg><circle/></svg></svg>",
            "<math><mi><svg><path/></svg></mi></math>",
            "<body><p>x<body class=a id=b>",
            "<html><p>x<html lang=en class=c>",
            "<marquee><b>x</marquee>y",
            "<applet>a</applet><object><param name=a><embed></object>",
            "<image src=a alt=b>",
            "<search><p>x</search><dir><li>y</dir>",
            "<noembed><p></noembed><keygen><basefont><bgsound>",
            "<a href=x>1<a href=y>2",
            "<nobr>a<nobr>b",
            "<table><caption>c<b>d</caption><tr><td>x</table>",
            "<table><caption>c<td>d</table>",
            "<table><colgroup><col span=2><col></colgroup><tr><td>x</table>",
            "<table><col><tr><td>x</table>",
            "<table> <colgroup> <col> </colgroup> </table>",
            "<table><form><tr><td>x</table>",
            "<table><tr><td>a<table><tr><td>b</table></table>",
            "<table><table><tr><td>x</table>",
        ] {
            takes(html);
        }
    }

    #[test]
    fn table_in_paragraph_follows_the_doctypes_quirks() {
        for doctype in [
            "",
            "<!DOCTYPE html>",
            "<!DOCTYPE html SYSTEM \"about:legacy-compat\">",
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">",
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">",
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.1//EN\" \"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd\">",
            "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \"http://www.w3.org/TR/html4/loose.dtd\">",
            "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">",
            "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">",
            "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.0 Transitional//EN\">",
            "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 3.2 Final//EN\">",
            "<!DOCTYPE html SYSTEM \"http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd\">",
            "<!DOCTYPE svg>",
        ] {
            takes(&format!("{doctype}<p>a<table><tr><td>b</table>c"));
        }
    }

    #[test]
    fn templates_follow_html5ever() {
        for html in [
            "<template><p>t</template><p>x",
            "<head><template><meta a=b></template></head><body>y",
            "<template>a<!-- c -->b<div>c</div>d</template>",
            "<div><template><tr><td>a</td></tr></template></div>",
            "<template><td>a<td>b</template>x",
            "<template><col><col></template>",
            "<template><caption>c</caption></template>",
            "<table><template><tr><td>t</template><tr><td>x</table>",
            "<template><template><b>x</template>y</template>z",
            "<template><form><input></form></template><form>f</form>",
            "<template><html lang=x><body class=y>",
            "<template><p>unclosed",
            "<template><table><tr><td>x",
            "<b><template><i>x</b>y</template>z",
            "<table><caption><template></template></caption></table>",
        ] {
            takes(html);
        }
    }

    #[test]
    fn tables_follow_html5ever() {
        for html in [
            "<table><tr><td>a<td>b<tr><td>c</table>",
            "<table>\n <tbody>\n <tr>\n <td>a</td>\n </tr>\n </tbody>\n</table>",
            "<table><thead><tr><th>h<tbody><tr><td>x<tfoot><tr><td>f</table>",
            "<table><td>a</td></tr></table>x",
            "<table><tr><td><table><tr><td>n</table>m</td></tr></table>",
            "<p>x<table><tr><td>y</table>",
            "<!DOCTYPE html><p>x<table><tr><td>y</table>",
            "<table><tr><td>a</tbody></table>",
            "<table><tbody><tr><td>a</td></tr></tbody><tbody><tr><td>b</table>",
            "<table><script>x</script><style>y</style><tr><td>z</table>",
            "<table><input type=hidden><tr><td>x</table>",
            "<table></tr></td></tbody></body></html></table>x",
            "<table><tr><td>a</tr><tr><td>b</table>",
            "<table><tr><td><p>a<td>b</table>",
            "<div><table><tr><td>a</div></table>",
            "<table><tr><th>a</th></tr><!-- c --></table>",
        ] {
            takes(html);
        }
    }

    #[test]
    fn it_gives_up_where_it_is_not_certain() {
        for html in [
            // Foster parenting.
            "<table><tr><td>a</td></tr></p></table>",
            "<table></br></table>",
            "<table>a<tr><td>b</td></tr>c</table>",
            "<table><div>x</div></table>",
            "<table><tr><p>x</table>",
            "<table><select><option>a</select></table>",
            // Modes not followed.
            "<frameset><frame></frameset>",
            "<template shadowrootmode=open><p>t</template>",
            // Breaking out of foreign content.
            "<svg><p>x</svg>",
            "<math><annotation-xml><svg></svg></annotation-xml></math>",
            "<svg></p></svg>",
            "<svg><font color=red>x</font></svg>",
            // Ruby base containers (part of implied end tags).
            "<ruby><rb>a<rtc>b</ruby>",
            // <table> in <p> under an unusual doctype.
            "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 2.0//EN\"><p><table></table>",
            "<button><button>",
        ] {
            gives_up(html);
        }
    }

    #[test]
    fn it_gives_up_past_the_depth_cap() {
        let deep = "<div>".repeat(super::MAX_OPEN + 5);
        gives_up(&deep);
        let shallow = "<div>".repeat(super::MAX_DEPTH);
        takes(&shallow);
        // Formatting elements past the list's bound, as given (the
        // pre-pass would have capped them).
        let many: String = (0..=super::MAX_FORMATTING)
            .map(|i| format!("<p><i id={i}>"))
            .collect();
        gives_up(&many);
        // Identical formatting elements with more attributes than the
        // pre-pass keeps: not compared pair by pair.
        let attrs: String = (0..super::MAX_ATTRIBUTES + 1)
            .map(|i| format!(" a{i}=v"))
            .collect();
        gives_up(&format!("<b{attrs}>x<p><b{attrs}>y"));
    }

    #[test]
    fn budgets_refuse_as_the_sink_does() {
        use crate::Error;
        use crate::limits::Deadline;
        let html = "<p>x</p>".repeat(100);
        // html, head, body and 100 paragraphs: 103 elements.
        assert!(crate::parse::parse_limited(&html, 103, &Deadline::NONE).is_ok());
        assert!(matches!(
            crate::parse::parse_limited(&html, 102, &Deadline::NONE),
            Err(Error::TooManyElements { limit: 102 })
        ));
    }

    /// Tag soup from a fixed seed, mostly well nested: where our tree
    /// builder takes a page, the tree is html5ever's.
    #[test]
    fn generated_markup_builds_html5evers_tree() {
        const PIECES: &[&str] = &[
            "<b>", "</b>", "<i>", "</i>", "<a href=x>", "</a>", "<em class=e>", "</em>", "<p>",
            "</p>", "<div>", "</div>", "<span>", "</span>", "<table>", "</table>", "<tr>",
            "</tr>", "<td>", "</td>", "<th>", "<tbody>", "</tbody>", "<ul>", "</ul>", "<li>",
            "</li>", "<h2>", "</h2>", "<br>", "<hr/>", "<img src=a>", "<form>", "</form>",
            "<title>t</title>", "<textarea>\nx</textarea>", "<style>s</style>",
            "<script>a<b</script>", "<head>", "<body>", "</body>", "<html>", "</html>",
            "<pre>\nx", "</pre>", "<dl><dt>", "<dd>", "</dl>", "text ", " ", "\n", "&amp;",
            "<!-- c -->", "</x>", "<nobr>", "</nobr>", "<option>", "<object>", "</object>",
            "<section>", "</section>", "<strong>", "</strong>", "<font>", "</font>",
        ];
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut taken = 0;
        let pages = 2000;
        for _ in 0..pages {
            let len = 3 + (next() % 30) as usize;
            let mut html = String::new();
            for _ in 0..len {
                html.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
            }
            if same(&html) {
                taken += 1;
            }
        }
        assert!(taken > pages / 10, "taken on {taken} of {pages}");
        eprintln!("our tree builder took {taken} of {pages} generated pages");
    }
}
