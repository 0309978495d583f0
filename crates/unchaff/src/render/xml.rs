//! XML in trafilatura's shape ([`crate::Format::Xml`]).
//!
//! ```xml
//! <doc sitename="…" title="…" author="…" date="…" url="…" hostname="…"
//!      description="…" tags="a;b" fingerprint="…" pagetype="article">
//!   <main>
//!     <head rend="h2">A heading</head>
//!     <p>A paragraph with <hi rend="#b">bold</hi>, <hi rend="#i">italics</hi>
//!        and <ref target="https://…">a link</ref>.<lb/>A new line.</p>
//!     <list rend="ul"><item>One</item><item>Two</item></list>
//!     <quote><p>Quoted.</p></quote>
//!     <code>fn main() {}</code>
//!     <table><row><cell role="head">City</cell></row><row><cell>Oslo</cell></row></table>
//!     <graphic src="https://…" alt="…"/>
//!   </main>
//!   <comments><p rend="author">Ann</p><p>A comment.</p></comments>
//! </doc>
//! ```
//!
//! The content is the clean HTML fragment ([`super::html`]) read again
//! and written with trafilatura's element names: `h1`–`h6` are `<head
//! rend="hN">`, lists `<list rend="ul|ol|dl">` of `<item>`s, `blockquote`
//! is `<quote>`, `pre` is `<code>` (inline code too), emphasis `<hi
//! rend="#i">`, strong `<hi rend="#b">`, sub- and superscripts `<hi
//! rend="#sub">` / `<hi rend="#sup">`, links `<ref target>`, images
//! `<graphic>`, line breaks `<lb/>`, tables `<table>`/`<row>`/`<cell>`
//! (`role="head"` for header cells), a figure's caption `<p
//! rend="caption">`. Attributes are left out where the page has no
//! value. Characters XML 1.0 does not allow are dropped, so the document
//! always parses.

use crate::dom::{Dom, Edge, NodeId, NodeKind, Tag};

/// A `<doc>` attribute: its name and value.
pub type Attribute<'a> = (&'static str, &'a str);

/// The XML document of a content fragment (`html`, as
/// [`super::html`] writes it), the `<doc>` attributes (those with a
/// value; in the order given) and the comments section (`comments`:
/// (author, text) of each comment; `None`: no `<comments>` element).
pub fn xml(
    html: &str,
    attributes: &[Attribute<'_>],
    comments: Option<&[(Option<&str>, &str)]>,
) -> String {
    let mut out = String::with_capacity(html.len() + 256);
    out.push_str("<doc");
    for (k, v) in attributes {
        out.push(' ');
        out.push_str(k);
        out.push_str("=\"");
        escape(&mut out, v, true);
        out.push('"');
    }
    out.push_str(">\n<main>");
    let dom = crate::parse::parse(&format!("<body>{html}</body>"));
    let body = dom.content_root();
    write_tree(&dom, body, &mut out);
    out.push_str("</main>\n");
    if let Some(cs) = comments {
        out.push_str("<comments>");
        for (author, text) in cs {
            if let Some(a) = author {
                out.push_str("<p rend=\"author\">");
                escape(&mut out, a, false);
                out.push_str("</p>");
            }
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                out.push_str("<p>");
                escape(&mut out, line, false);
                out.push_str("</p>");
            }
        }
        out.push_str("</comments>\n");
    }
    out.push_str("</doc>");
    out
}

/// The XML element an HTML element becomes: its name and attributes, or
/// `None` when only its content is written.
fn element(dom: &Dom, id: NodeId, tag: Tag) -> Option<(&'static str, Vec<(&'static str, String)>)> {
    let rend = |r: &str| vec![("rend", r.to_owned())];
    let attr = |n: &str| dom.attr(id, n).map(str::to_owned);
    Some(match tag {
        Tag::P => ("p", Vec::new()),
        Tag::H1 => ("head", rend("h1")),
        Tag::H2 => ("head", rend("h2")),
        Tag::H3 => ("head", rend("h3")),
        Tag::H4 => ("head", rend("h4")),
        Tag::H5 => ("head", rend("h5")),
        Tag::H6 => ("head", rend("h6")),
        Tag::UL => ("list", rend("ul")),
        Tag::OL => ("list", rend("ol")),
        Tag::DL => ("list", rend("dl")),
        Tag::LI | Tag::DT | Tag::DD => ("item", Vec::new()),
        Tag::BLOCKQUOTE => ("quote", Vec::new()),
        Tag::PRE => ("code", Vec::new()),
        Tag::CODE if !inside(dom, id, Tag::PRE) => ("code", Vec::new()),
        Tag::EM | Tag::I => ("hi", rend("#i")),
        Tag::STRONG | Tag::B => ("hi", rend("#b")),
        Tag::SUB => ("hi", rend("#sub")),
        Tag::SUP => ("hi", rend("#sup")),
        Tag::A => (
            "ref",
            attr("href")
                .map(|h| vec![("target", h)])
                .unwrap_or_default(),
        ),
        Tag::TABLE => ("table", Vec::new()),
        Tag::TR => ("row", Vec::new()),
        Tag::TH => ("cell", vec![("role", "head".to_owned())]),
        Tag::TD => ("cell", Vec::new()),
        Tag::CAPTION => ("head", Vec::new()),
        Tag::FIGCAPTION => ("p", rend("caption")),
        Tag::BR => ("lb", Vec::new()),
        Tag::IMG => (
            "graphic",
            [
                ("src", attr("src")),
                ("alt", attr("alt")),
                ("title", attr("title")),
            ]
            .into_iter()
            .filter_map(|(k, v)| v.filter(|v| !v.is_empty()).map(|v| (k, v)))
            .collect(),
        ),
        _ => return None,
    })
}

/// Whether an ancestor of `id` is a `tag`.
fn inside(dom: &Dom, id: NodeId, tag: Tag) -> bool {
    let mut n = dom.node(id).parent;
    while let Some(p) = n.some() {
        if dom.is(p, tag) {
            return true;
        }
        n = dom.node(p).parent;
    }
    false
}

/// Writes the content under `root` (one walk, no recursion).
fn write_tree(dom: &Dom, root: NodeId, out: &mut String) {
    // The XML name each open element was written as, if any.
    let mut open: Vec<Option<&'static str>> = Vec::new();
    for edge in dom.traverse(root) {
        match edge {
            Edge::Enter(id) if id == root => {}
            Edge::Leave(id) if id == root => {}
            Edge::Enter(id) => match dom.node(id).kind {
                NodeKind::Text { start, end } => {
                    escape(out, &dom.text[start as usize..end as usize], false)
                }
                NodeKind::Element(e) => {
                    let written = element(dom, id, e.tag).map(|(name, attrs)| {
                        out.push('<');
                        out.push_str(name);
                        for (k, v) in attrs {
                            out.push(' ');
                            out.push_str(k);
                            out.push_str("=\"");
                            escape(out, &v, true);
                            out.push('"');
                        }
                        if matches!(name, "lb" | "graphic") {
                            out.push('/');
                        }
                        out.push('>');
                        name
                    });
                    let void = matches!(written, Some("lb" | "graphic"));
                    open.push(if void { None } else { written });
                }
                _ => {}
            },
            Edge::Leave(id) => {
                if dom.tag(id).is_some()
                    && let Some(Some(name)) = open.pop()
                {
                    out.push_str("</");
                    out.push_str(name);
                    out.push('>');
                }
            }
        }
    }
}

/// Appends `s` escaped for XML (and for an attribute value when `attr`),
/// without the characters XML 1.0 does not allow.
fn escape(out: &mut String, s: &str, attr: bool) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attr => out.push_str("&quot;"),
            '\n' | '\t' | '\r' if attr => out.push(' '),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 => {}
            '\u{FFFE}' | '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_becomes_trafilatura_xml() {
        let html = "<h2>Title &amp; more</h2><p>A <b>bold</b> and <em>it</em> \
            <a href=\"https://e.org/?a=1&amp;b=2\">link</a><br>next</p>\
            <ul><li>one</li><li>two</li></ul><blockquote><p>q</p></blockquote>\
            <pre><code>x &lt; y</code></pre><table><thead><tr><th>City</th></tr></thead>\
            <tbody><tr><td>Oslo</td></tr></tbody></table><img src=\"https://e.org/i.png\" alt=\"A\">";
        let x = xml(
            html,
            &[("title", "T \"q\""), ("pagetype", "article")],
            Some(&[(Some("Ann"), "Nice.\nReally."), (None, "Bad\u{1}char")]),
        );
        assert_eq!(
            x,
            "<doc title=\"T &quot;q&quot;\" pagetype=\"article\">\n<main>\
             <head rend=\"h2\">Title &amp; more</head><p>A <hi rend=\"#b\">bold</hi> and \
             <hi rend=\"#i\">it</hi> <ref target=\"https://e.org/?a=1&amp;b=2\">link</ref><lb/>next</p>\
             <list rend=\"ul\"><item>one</item><item>two</item></list><quote><p>q</p></quote>\
             <code>x &lt; y</code><table><row><cell role=\"head\">City</cell></row>\
             <row><cell>Oslo</cell></row></table><graphic src=\"https://e.org/i.png\" alt=\"A\"/></main>\n\
             <comments><p rend=\"author\">Ann</p><p>Nice.</p><p>Really.</p><p>Badchar</p></comments>\n</doc>"
        );
    }
}
