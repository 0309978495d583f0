//! The markups the generated pages write each construct in, as the tools
//! that produce them write it (from their documented output shapes): code
//! highlighters, math renderers, tables, figures, heading permalinks.

use rand::Rng;

use super::content::{Formula, Sample, leaves};
use crate::structure::{Figure, Table};

/// Escapes text for an HTML text node or attribute value.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            _ => o.push(c),
        }
    }
    o
}

// ---------------------------------------------------------------- code

/// How a code block is marked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CodeMarkup {
    /// Prism: `pre.language-x > code.language-x`, `span.token` spans.
    Prism,
    /// Prism's line-numbers plugin: an aria-hidden `span.line-numbers-rows`
    /// of empty spans at the end of the code.
    PrismLineNumbers,
    /// highlight.js: `pre > code.hljs.language-x`, `span.hljs-*`.
    Hljs,
    /// highlightjs-line-numbers: `table.hljs-ln` inside the code, a
    /// `td.hljs-ln-numbers` (number in an attribute) and a
    /// `td.hljs-ln-code` per line.
    HljsLineNumbers,
    /// Pygments: `div.highlight > pre`, short classes (`k`, `s2`, …).
    Pygments,
    /// Sphinx: `div.highlight-x.notranslate > div.highlight > pre`.
    Sphinx,
    /// Pygments' table (MkDocs, Sphinx `linenos`): `table.highlighttable`,
    /// a `td.linenos` gutter `<pre>` of numbers and a `td.code`.
    PygmentsTable,
    /// Pygments' inline line numbers: a `span.linenos` opening each line.
    PygmentsInlineLinenos,
    /// GitHub's rendered Markdown: `div.highlight.highlight-source-x > pre`
    /// and a copy button holding the code in an attribute.
    GithubMarkdown,
    /// GitHub's file view: a table of `td.blob-num[data-line-number]` and
    /// `td.blob-code` rows.
    GithubFile,
    /// GitLab: `pre.code.highlight.language-x > code > span.line` per line.
    Gitlab,
    /// rouge (Jekyll): `div.highlighter-rouge > div.highlight > pre.highlight > code`.
    Rouge,
    /// rouge's table: `table.rouge-table`, `td.gutter > pre.lineno` and `td.code > pre`.
    RougeTable,
    /// pandoc: `div.sourceCode > pre.sourceCode.x > code.sourceCode.x`,
    /// each line a `span` opened by an empty anchor.
    Pandoc,
    /// SyntaxHighlighter, before its script runs: `pre.brush: x`.
    SyntaxHighlighter,
    /// Google prettify as Q&A sites use it: `pre.lang-x.prettyprint`.
    LangClass,
    /// Shiki (Astro): `pre.astro-code > code > span.line`, lines joined by
    /// newlines, colours inline.
    ShikiLines,
    /// Docusaurus: `span.token-line` per line, each ended by a `<br>`, no
    /// newline characters.
    TokenLinesBr,
    /// `pre > code`, no language.
    Plain,
}

impl CodeMarkup {
    /// Every code markup.
    pub const ALL: [CodeMarkup; 19] = [
        CodeMarkup::Prism,
        CodeMarkup::PrismLineNumbers,
        CodeMarkup::Hljs,
        CodeMarkup::HljsLineNumbers,
        CodeMarkup::Pygments,
        CodeMarkup::Sphinx,
        CodeMarkup::PygmentsTable,
        CodeMarkup::PygmentsInlineLinenos,
        CodeMarkup::GithubMarkdown,
        CodeMarkup::GithubFile,
        CodeMarkup::Gitlab,
        CodeMarkup::Rouge,
        CodeMarkup::RougeTable,
        CodeMarkup::Pandoc,
        CodeMarkup::SyntaxHighlighter,
        CodeMarkup::LangClass,
        CodeMarkup::ShikiLines,
        CodeMarkup::TokenLinesBr,
        CodeMarkup::Plain,
    ];

    /// The name in the manifest (`code:<name>`).
    pub fn name(self) -> &'static str {
        match self {
            CodeMarkup::Prism => "prism",
            CodeMarkup::PrismLineNumbers => "prism-line-numbers",
            CodeMarkup::Hljs => "hljs",
            CodeMarkup::HljsLineNumbers => "hljs-ln",
            CodeMarkup::Pygments => "pygments",
            CodeMarkup::Sphinx => "sphinx",
            CodeMarkup::PygmentsTable => "pygments-table",
            CodeMarkup::PygmentsInlineLinenos => "pygments-inline-linenos",
            CodeMarkup::GithubMarkdown => "github-markdown",
            CodeMarkup::GithubFile => "github-file",
            CodeMarkup::Gitlab => "gitlab",
            CodeMarkup::Rouge => "rouge",
            CodeMarkup::RougeTable => "rouge-table",
            CodeMarkup::Pandoc => "pandoc",
            CodeMarkup::SyntaxHighlighter => "syntaxhighlighter",
            CodeMarkup::LangClass => "lang-class",
            CodeMarkup::ShikiLines => "shiki-lines",
            CodeMarkup::TokenLinesBr => "token-lines-br",
            CodeMarkup::Plain => "plain",
        }
    }

    /// Whether the markup names the language in a form a converter is
    /// expected to read (`language-x`, `lang-x`, `highlight-x`,
    /// `highlight-source-x`, `sourceCode x`, `brush: x`): the gold's
    /// language is set only then.
    pub fn names_language(self) -> bool {
        !matches!(
            self,
            CodeMarkup::Pygments
                | CodeMarkup::PygmentsInlineLinenos
                | CodeMarkup::GithubFile
                | CodeMarkup::ShikiLines
                | CodeMarkup::Plain
        )
    }
}

/// A token's kind, for the highlighters' classes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Keyword,
    Str,
    Number,
    Comment,
    Name,
    Punct,
    Space,
}

const KEYWORDS: &[&str] = &[
    "import", "def", "with", "as", "if", "raise", "return", "for", "in", "not", "continue", "use",
    "fn", "let", "mut", "async", "function", "const", "of", "await", "package", "func", "set",
    "do", "then", "fi", "done", "int", "void", "while", "SELECT", "FROM", "WHERE", "AND", "GROUP",
    "BY", "ORDER", "DESC", "AS", "class", "end", "self", "public", "final", "private", "this",
    "type", "export", "true", "false", "null", "new", "print", "include",
];

/// Splits one line of code into tokens (the concatenation is the line).
fn tokens(line: &str) -> Vec<(Kind, &str)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind = if c == b' ' || c == b'\t' {
            while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                i += 1;
            }
            Kind::Space
        } else if c == b'#'
            && (i == 0 || b[i - 1] == b' ')
            && !line.starts_with("#include")
            && !line.starts_with("#!")
        {
            i = b.len();
            Kind::Comment
        } else if c == b'"' || c == b'\'' || c == b'`' {
            i += 1;
            while i < b.len() && b[i] != c {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(b.len());
            Kind::Str
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                i += 1;
            }
            Kind::Number
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'@' || c == b'$' {
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            if KEYWORDS.contains(&&line[start..i]) {
                Kind::Keyword
            } else {
                Kind::Name
            }
        } else {
            // One character (UTF-8 aware).
            i += line[i..].chars().next().map_or(1, char::len_utf8);
            Kind::Punct
        };
        out.push((kind, &line[start..i]));
    }
    out
}

/// A line's tokens as HTML, each in a span of `class(kind)` (none for
/// `None`).
fn highlight(line: &str, class: impl Fn(Kind) -> Option<&'static str>) -> String {
    let mut o = String::new();
    for (k, t) in tokens(line) {
        match class(k) {
            Some(c) => {
                o.push_str("<span class=\"");
                o.push_str(c);
                o.push_str("\">");
                o.push_str(&esc(t));
                o.push_str("</span>");
            }
            None => o.push_str(&esc(t)),
        }
    }
    o
}

fn prism_class(k: Kind) -> Option<&'static str> {
    match k {
        Kind::Keyword => Some("token keyword"),
        Kind::Str => Some("token string"),
        Kind::Number => Some("token number"),
        Kind::Comment => Some("token comment"),
        Kind::Punct => Some("token punctuation"),
        Kind::Name | Kind::Space => None,
    }
}

fn hljs_class(k: Kind) -> Option<&'static str> {
    match k {
        Kind::Keyword => Some("hljs-keyword"),
        Kind::Str => Some("hljs-string"),
        Kind::Number => Some("hljs-number"),
        Kind::Comment => Some("hljs-comment"),
        _ => None,
    }
}

fn pygments_class(k: Kind) -> Option<&'static str> {
    match k {
        Kind::Keyword => Some("k"),
        Kind::Str => Some("s2"),
        Kind::Number => Some("mi"),
        Kind::Comment => Some("c1"),
        Kind::Name => Some("n"),
        Kind::Punct => Some("p"),
        Kind::Space => Some("w"),
    }
}

fn github_class(k: Kind) -> Option<&'static str> {
    match k {
        Kind::Keyword => Some("pl-k"),
        Kind::Str => Some("pl-s"),
        Kind::Number => Some("pl-c1"),
        Kind::Comment => Some("pl-c"),
        _ => None,
    }
}

fn pandoc_class(k: Kind) -> Option<&'static str> {
    match k {
        Kind::Keyword => Some("kw"),
        Kind::Str => Some("st"),
        Kind::Number => Some("dv"),
        Kind::Comment => Some("co"),
        Kind::Punct => Some("op"),
        _ => None,
    }
}

fn prettify_class(k: Kind) -> Option<&'static str> {
    match k {
        Kind::Keyword => Some("kwd"),
        Kind::Str => Some("str"),
        Kind::Number => Some("lit"),
        Kind::Comment => Some("com"),
        Kind::Punct => Some("pun"),
        Kind::Name | Kind::Space => Some("pln"),
    }
}

fn shiki_style(k: Kind) -> Option<&'static str> {
    match k {
        Kind::Keyword => Some("color:#F97583"),
        Kind::Str => Some("color:#9ECBFF"),
        Kind::Number => Some("color:#79B8FF"),
        Kind::Comment => Some("color:#6A737D"),
        _ => Some("color:#E1E4E8"),
    }
}

/// The lines of a sample, without its final newline.
fn lines(text: &str) -> Vec<&str> {
    text.strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .collect()
}

/// The copy button many sites put beside code (chrome: not code).
const COPY_BUTTON: &str = "<button class=\"copy-button\" type=\"button\" aria-label=\"Copy code to clipboard\">Copy</button>";

/// `sample` in `markup`; `n` numbers the block on its page (ids).
pub fn code_html(markup: CodeMarkup, sample: &Sample, n: usize) -> String {
    let lang = sample.lang;
    let ls = lines(sample.text);
    let joined = |class: fn(Kind) -> Option<&'static str>| -> String {
        ls.iter()
            .map(|l| highlight(l, class))
            .collect::<Vec<_>>()
            .join("\n")
    };
    match markup {
        CodeMarkup::Prism => format!(
            "<pre class=\"language-{lang}\" tabindex=\"0\"><code class=\"language-{lang}\">{}</code></pre>",
            joined(prism_class)
        ),
        CodeMarkup::PrismLineNumbers => {
            let rows: String = ls.iter().map(|_| "<span></span>").collect();
            format!(
                "<pre class=\"language-{lang} line-numbers\" tabindex=\"0\" style=\"counter-reset: linenumber;\"><code class=\"language-{lang}\">{}\n<span aria-hidden=\"true\" class=\"line-numbers-rows\">{rows}</span></code></pre>",
                joined(prism_class)
            )
        }
        CodeMarkup::Hljs => format!(
            "<pre><code class=\"hljs language-{lang}\">{}</code></pre>",
            joined(hljs_class)
        ),
        CodeMarkup::HljsLineNumbers => {
            let rows: String = ls
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let k = i + 1;
                    format!(
                        "<tr><td class=\"hljs-ln-line hljs-ln-numbers\" data-line-number=\"{k}\"><div class=\"hljs-ln-n\" data-line-number=\"{k}\"></div></td><td class=\"hljs-ln-line hljs-ln-code\" data-line-number=\"{k}\">{}</td></tr>",
                        highlight(l, hljs_class)
                    )
                })
                .collect();
            format!(
                "<pre><code class=\"hljs language-{lang}\"><table class=\"hljs-ln\"><tbody>{rows}</tbody></table></code></pre>"
            )
        }
        CodeMarkup::Pygments => format!(
            "<div class=\"highlight\"><pre><span></span>{}\n</pre></div>",
            joined(pygments_class)
        ),
        CodeMarkup::Sphinx => format!(
            "<div class=\"highlight-{lang} notranslate\"><div class=\"highlight\"><pre><span></span>{}\n</pre></div>\n</div>",
            joined(pygments_class)
        ),
        CodeMarkup::PygmentsTable => {
            let nums: Vec<String> = (1..=ls.len())
                .map(|k| format!("<span class=\"normal\">{k}</span>"))
                .collect();
            format!(
                "<div class=\"language-{lang} highlight\"><table class=\"highlighttable\"><tbody><tr><td class=\"linenos\"><div class=\"linenodiv\"><pre><span></span>{}</pre></div></td><td class=\"code\"><div><pre><span></span><code>{}\n</code></pre></div></td></tr></tbody></table></div>",
                nums.join("\n"),
                joined(pygments_class)
            )
        }
        CodeMarkup::PygmentsInlineLinenos => {
            let width = ls.len().to_string().len();
            let body: Vec<String> = ls
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    format!(
                        "<span class=\"linenos\">{:>width$}</span>{}",
                        i + 1,
                        highlight(l, pygments_class)
                    )
                })
                .collect();
            format!(
                "<div class=\"highlight\"><pre><span></span>{}\n</pre></div>",
                body.join("\n")
            )
        }
        CodeMarkup::GithubMarkdown => format!(
            "<div class=\"highlight highlight-source-{lang} notranslate position-relative overflow-auto\" dir=\"auto\"><pre>{}</pre><div class=\"zeroclipboard-container position-absolute right-0 top-0\"><clipboard-copy aria-label=\"Copy\" class=\"ClipboardButton btn js-clipboard-copy m-2 p-0\" data-copy-feedback=\"Copied!\" value=\"{}\" tabindex=\"0\" role=\"button\"><svg aria-hidden=\"true\" height=\"16\" viewBox=\"0 0 16 16\" width=\"16\" class=\"octicon octicon-copy\"><path d=\"M0 6.75C0 5.784.784 5 1.75 5h1.5a.75.75 0 0 1 0 1.5h-1.5a.25.25 0 0 0-.25.25v7.5c0 .138.112.25.25.25h7.5a.25.25 0 0 0 .25-.25v-1.5a.75.75 0 0 1 1.5 0v1.5A1.75 1.75 0 0 1 9.25 16h-7.5A1.75 1.75 0 0 1 0 14.25Z\"></path></svg></clipboard-copy></div></div>",
            joined(github_class),
            esc(sample.text)
        ),
        CodeMarkup::GithubFile => {
            let rows: String = ls
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let k = i + 1;
                    format!(
                        "<tr><td id=\"L{k}\" class=\"blob-num js-line-number js-blob-rnum\" data-line-number=\"{k}\"></td><td id=\"LC{k}\" class=\"blob-code blob-code-inner js-file-line\">{}</td></tr>",
                        highlight(l, github_class)
                    )
                })
                .collect();
            format!(
                "<div class=\"blob-wrapper data type-{lang}\"><table class=\"highlight tab-size js-file-line-container\" data-tab-size=\"8\" data-tagsearch-lang=\"{lang}\"><tbody>{rows}</tbody></table></div>"
            )
        }
        CodeMarkup::Gitlab => {
            let body: Vec<String> = ls
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    format!(
                        "<span id=\"LC{}\" class=\"line\" lang=\"{lang}\">{}</span>",
                        i + 1,
                        highlight(l, pygments_class)
                    )
                })
                .collect();
            format!(
                "<div class=\"gl-relative markdown-code-block js-markdown-code\"><pre class=\"code highlight js-syntax-highlight language-{lang}\" lang=\"{lang}\" v-pre=\"true\"><code>{}</code></pre><copy-code></copy-code></div>",
                body.join("\n")
            )
        }
        CodeMarkup::Rouge => format!(
            "<div class=\"language-{lang} highlighter-rouge\"><div class=\"highlight\"><pre class=\"highlight\"><code>{}\n</code></pre></div></div>",
            joined(pygments_class)
        ),
        CodeMarkup::RougeTable => {
            let nums: String = (1..=ls.len()).map(|k| format!("{k}\n")).collect();
            format!(
                "<figure class=\"highlight\"><pre><code class=\"language-{lang}\" data-lang=\"{lang}\"><table class=\"rouge-table\"><tbody><tr><td class=\"gutter gl\"><pre class=\"lineno\">{nums}</pre></td><td class=\"code\"><pre>{}\n</pre></td></tr></tbody></table></code></pre></figure>",
                joined(pygments_class)
            )
        }
        CodeMarkup::Pandoc => {
            let body: Vec<String> = ls
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let id = format!("cb{n}-{}", i + 1);
                    format!(
                        "<span id=\"{id}\"><a href=\"#{id}\" aria-hidden=\"true\" tabindex=\"-1\"></a>{}</span>",
                        highlight(l, pandoc_class)
                    )
                })
                .collect();
            format!(
                "<div class=\"sourceCode\" id=\"cb{n}\"><pre class=\"sourceCode {lang}\"><code class=\"sourceCode {lang}\">{}</code></pre></div>",
                body.join("\n")
            )
        }
        CodeMarkup::SyntaxHighlighter => format!(
            "<pre class=\"brush: {lang}; gutter: true; first-line: 1\">{}</pre>",
            esc(sample.text)
        ),
        CodeMarkup::LangClass => format!(
            "<pre class=\"lang-{lang} prettyprint prettyprinted\"><code>{}</code></pre>",
            joined(prettify_class)
        ),
        CodeMarkup::ShikiLines => {
            let body: Vec<String> = ls
                .iter()
                .map(|l| {
                    let mut o = String::from("<span class=\"line\">");
                    for (k, t) in tokens(l) {
                        o.push_str(&format!(
                            "<span style=\"{}\">{}</span>",
                            shiki_style(k).unwrap_or(""),
                            esc(t)
                        ));
                    }
                    o.push_str("</span>");
                    o
                })
                .collect();
            format!(
                "<pre class=\"astro-code github-dark\" style=\"background-color:#24292e;color:#e1e4e8; overflow-x: auto;\" tabindex=\"0\" data-language=\"{lang}\"><code>{}</code></pre>",
                body.join("\n")
            )
        }
        CodeMarkup::TokenLinesBr => {
            let body: String = ls
                .iter()
                .map(|l| {
                    let inner = if l.is_empty() {
                        "<span class=\"token plain\" style=\"display:inline-block\"></span>"
                            .to_string()
                    } else {
                        highlight(l, prism_class)
                    };
                    format!("<span class=\"token-line\" style=\"color:#393A34\">{inner}<br></span>")
                })
                .collect();
            format!(
                "<div class=\"language-{lang} codeBlockContainer_Ckt0 theme-code-block\"><div class=\"codeBlockContent_biex\"><pre tabindex=\"0\" class=\"prism-code language-{lang} codeBlock_bY9V thin-scrollbar\"><code class=\"codeBlockLines_e6Vv\">{body}</code></pre><div class=\"buttonGroup__atx\">{COPY_BUTTON}</div></div></div>"
            )
        }
        CodeMarkup::Plain => format!("<pre><code>{}</code></pre>", esc(sample.text)),
    }
}

// ---------------------------------------------------------------- math

/// How a formula is marked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathMarkup {
    /// MathML with a `<annotation encoding="application/x-tex">`.
    MathmlTex,
    /// MathML alone.
    Mathml,
    /// MathJax 2 after typesetting: an empty preview, the rendered
    /// `span.MathJax` (glyph spans and assistive MathML), and the source
    /// `<script type="math/tex">` (`; mode=display`).
    MathJax2,
    /// MathJax 3 CHTML output: `mjx-container[jax=CHTML]` with `mjx-math`
    /// glyph elements and `mjx-assistive-mml > math` (no TeX).
    MathJax3,
    /// KaTeX: `span.katex > span.katex-mathml > math > semantics >
    /// annotation` and the aria-hidden `span.katex-html`;
    /// `span.katex-display` for display.
    Katex,
    /// The encyclopedia pattern: hidden MathML with `alttext="{\displaystyle
    /// …}"` and a fallback `<img>` whose `alt` is the same TeX.
    Encyclopedia,
    /// Raw `\(…\)` inline and `\[…\]` display in the text.
    RawParens,
    /// Raw `\(…\)` inline and `$$…$$` display in the text.
    RawDollars,
}

impl MathMarkup {
    /// Every math markup.
    pub const ALL: [MathMarkup; 8] = [
        MathMarkup::MathmlTex,
        MathMarkup::Mathml,
        MathMarkup::MathJax2,
        MathMarkup::MathJax3,
        MathMarkup::Katex,
        MathMarkup::Encyclopedia,
        MathMarkup::RawParens,
        MathMarkup::RawDollars,
    ];

    /// The name in the manifest (`math:<name>`).
    pub fn name(self) -> &'static str {
        match self {
            MathMarkup::MathmlTex => "mathml-tex",
            MathMarkup::Mathml => "mathml",
            MathMarkup::MathJax2 => "mathjax2",
            MathMarkup::MathJax3 => "mathjax3",
            MathMarkup::Katex => "katex",
            MathMarkup::Encyclopedia => "encyclopedia",
            MathMarkup::RawParens => "raw-parens",
            MathMarkup::RawDollars => "raw-dollars",
        }
    }
}

const MATHML_NS: &str = "http://www.w3.org/1998/Math/MathML";

/// A glyph's MathJax 3 character class (`mjx-c1D465` for an italic x).
fn mjx_char_class(c: char) -> String {
    let cp = c as u32;
    let cp = if c.is_ascii_lowercase() {
        0x1D44E + (cp - 'a' as u32)
    } else if c.is_ascii_uppercase() {
        0x1D434 + (cp - 'A' as u32)
    } else {
        cp
    };
    format!("mjx-c{cp:X}")
}

/// The leaf kinds of a formula's MathML, paired with their texts.
fn leaf_kinds(mathml: &str) -> Vec<(&'static str, String)> {
    leaves(mathml)
        .into_iter()
        .map(|t| {
            let kind = if t.chars().all(|c| c.is_ascii_digit() || c == '.') {
                "mn"
            } else if t.chars().all(char::is_alphabetic) {
                "mi"
            } else {
                "mo"
            };
            (kind, t)
        })
        .collect()
}

/// `f` in `markup`, inline or display; `n` numbers the formula on its
/// page (ids). Display formulas are whole blocks.
pub fn math_html(markup: MathMarkup, f: &Formula, display: bool, n: usize) -> String {
    let tex = f.tex;
    let mml = f.mathml;
    let block_attr = if display { " display=\"block\"" } else { "" };
    match markup {
        MathMarkup::MathmlTex => {
            let m = format!(
                "<math xmlns=\"{MATHML_NS}\"{block_attr}><semantics><mrow>{mml}</mrow><annotation encoding=\"application/x-tex\">{}</annotation></semantics></math>",
                esc(tex)
            );
            if display { format!("<p>{m}</p>") } else { m }
        }
        MathMarkup::Mathml => {
            let m = format!("<math xmlns=\"{MATHML_NS}\"{block_attr}>{mml}</math>");
            if display {
                format!("<div class=\"equation\">{m}</div>")
            } else {
                m
            }
        }
        MathMarkup::MathJax2 => {
            let glyphs: String = leaf_kinds(mml)
                .iter()
                .enumerate()
                .map(|(i, (k, t))| {
                    format!(
                        "<span class=\"{k}\" id=\"MathJax-Span-{}\">{}</span>",
                        n * 100 + i + 3,
                        esc(t)
                    )
                })
                .collect();
            let frame = format!(
                "<span class=\"MathJax\" id=\"MathJax-Element-{n}-Frame\" tabindex=\"0\" style=\"position: relative;\" role=\"presentation\"><nobr aria-hidden=\"true\"><span class=\"math\" id=\"MathJax-Span-{}\" style=\"width: 4.2em; display: inline-block;\"><span style=\"display: inline-block; position: relative; width: 3.5em; height: 0px; font-size: 120%;\"><span style=\"position: absolute; clip: rect(1.3em, 1003.4em, 2.5em, -999.997em); top: -2.2em; left: 0em;\"><span class=\"mrow\" id=\"MathJax-Span-{}\">{glyphs}</span></span></span></span></nobr><span class=\"MJX_Assistive_MathML\" role=\"presentation\"><math xmlns=\"{MATHML_NS}\"{block_attr}>{mml}</math></span></span>",
                n * 100 + 1,
                n * 100 + 2
            );
            let preview =
                "<span class=\"MathJax_Preview\" style=\"color: inherit; display: none;\"></span>";
            if display {
                format!(
                    "<div class=\"equation\">{preview}<div class=\"MathJax_Display\" style=\"text-align: center;\">{frame}</div><script type=\"math/tex; mode=display\" id=\"MathJax-Element-{n}\">{tex}</script></div>"
                )
            } else {
                format!(
                    "{preview}{frame}<script type=\"math/tex\" id=\"MathJax-Element-{n}\">{tex}</script>"
                )
            }
        }
        MathMarkup::MathJax3 => {
            let glyphs: String = leaf_kinds(mml)
                .iter()
                .map(|(k, t)| {
                    let cs: String = t
                        .chars()
                        .map(|c| format!("<mjx-c class=\"{}\"></mjx-c>", mjx_char_class(c)))
                        .collect();
                    let class = if *k == "mi" { " class=\"mjx-i\"" } else { "" };
                    format!("<mjx-{k}{class}>{cs}</mjx-{k}>")
                })
                .collect();
            let (disp, style, mdisplay) = if display {
                (
                    " display=\"true\"",
                    " style=\"font-size: 119.5%; position: relative;\"",
                    "block",
                )
            } else {
                (
                    "",
                    " style=\"font-size: 119.5%; position: relative;\"",
                    "inline",
                )
            };
            let c = format!(
                "<mjx-container class=\"MathJax CtxtMenu_Attached_0\" jax=\"CHTML\"{disp}{style} tabindex=\"0\" ctxtmenu_counter=\"{n}\"><mjx-math class=\"MJX-TEX\" aria-hidden=\"true\">{glyphs}</mjx-math><mjx-assistive-mml unselectable=\"on\" display=\"{mdisplay}\"><math xmlns=\"{MATHML_NS}\"{block_attr}>{mml}</math></mjx-assistive-mml></mjx-container>"
            );
            if display { format!("<p>{c}</p>") } else { c }
        }
        MathMarkup::Katex => {
            let glyphs: String = leaf_kinds(mml)
                .iter()
                .map(|(k, t)| {
                    let class = match *k {
                        "mi" => "mord mathnormal",
                        "mn" => "mord",
                        _ => "mbin",
                    };
                    format!("<span class=\"{class}\">{}</span>", esc(t))
                })
                .collect();
            let k = format!(
                "<span class=\"katex\"><span class=\"katex-mathml\"><math xmlns=\"{MATHML_NS}\"{block_attr}><semantics><mrow>{mml}</mrow><annotation encoding=\"application/x-tex\">{}</annotation></semantics></math></span><span class=\"katex-html\" aria-hidden=\"true\"><span class=\"base\"><span class=\"strut\" style=\"height:0.8641em;\"></span>{glyphs}</span></span></span>",
                esc(tex)
            );
            if display {
                format!("<p><span class=\"katex-display\">{k}</span></p>")
            } else {
                k
            }
        }
        MathMarkup::Encyclopedia => {
            let alt = esc(&format!("{{\\displaystyle {tex}}}"));
            let hash: u64 = tex.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            });
            let kind = if display { "display" } else { "inline" };
            let element = if display {
                "mwe-math-element mwe-math-element-block"
            } else {
                "mwe-math-element"
            };
            let m = format!(
                "<span class=\"{element}\"><span class=\"mwe-math-mathml-{kind} mwe-math-mathml-a11y\" style=\"display: none;\"><math xmlns=\"{MATHML_NS}\"{block_attr} alttext=\"{alt}\"><semantics><mrow class=\"MJX-TeXAtom-ORD\"><mstyle displaystyle=\"true\" scriptlevel=\"0\">{mml}</mstyle></mrow><annotation encoding=\"application/x-tex\">{alt}</annotation></semantics></math></span><img src=\"https://wikimedia.example.org/api/rest_v1/media/math/render/svg/{hash:016x}\" class=\"mwe-math-fallback-image-{kind} mw-invert skin-invert\" aria-hidden=\"true\" style=\"vertical-align: -0.838ex; width:14.2ex; height:2.843ex;\" alt=\"{alt}\"></span>"
            );
            if display {
                format!("<dl><dd>{m}</dd></dl>")
            } else {
                m
            }
        }
        MathMarkup::RawParens => {
            if display {
                format!("<p>\\[{}\\]</p>", esc(tex))
            } else {
                format!("\\({}\\)", esc(tex))
            }
        }
        MathMarkup::RawDollars => {
            if display {
                format!("<p>$${}$$</p>", esc(tex))
            } else {
                format!("\\({}\\)", esc(tex))
            }
        }
    }
}

// ---------------------------------------------------------------- tables

/// How a data table (or a layout table) is marked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableMarkup {
    /// `thead` of `th`, `tbody` of `td`.
    Simple,
    /// No header: `td` only.
    NoHeader,
    /// Two header rows (a `colspan` group) and `rowspan` in the body.
    Spans,
    /// Cells with `<br>` and with a `<ul>`.
    CellBlocks,
    /// A `<caption>`, a first row of `th` without `thead`.
    Caption,
    /// Twelve columns.
    Wide,
    /// A layout table of one cell wrapping the article.
    LayoutOneCell,
    /// A layout table of one column, a block per row.
    LayoutOneColumn,
    /// A two-column layout table: navigation in one cell, the article in
    /// the other.
    LayoutTwoColumns,
}

impl TableMarkup {
    /// Every table markup.
    pub const ALL: [TableMarkup; 9] = [
        TableMarkup::Simple,
        TableMarkup::NoHeader,
        TableMarkup::Spans,
        TableMarkup::CellBlocks,
        TableMarkup::Caption,
        TableMarkup::Wide,
        TableMarkup::LayoutOneCell,
        TableMarkup::LayoutOneColumn,
        TableMarkup::LayoutTwoColumns,
    ];

    /// The name in the manifest (`table:<name>`).
    pub fn name(self) -> &'static str {
        match self {
            TableMarkup::Simple => "simple",
            TableMarkup::NoHeader => "no-header",
            TableMarkup::Spans => "spans",
            TableMarkup::CellBlocks => "cell-blocks",
            TableMarkup::Caption => "caption",
            TableMarkup::Wide => "wide",
            TableMarkup::LayoutOneCell => "layout-one-cell",
            TableMarkup::LayoutOneColumn => "layout-one-column",
            TableMarkup::LayoutTwoColumns => "layout-two-columns",
        }
    }

    /// Whether this is a layout table (wraps the article, gold: no table).
    pub fn is_layout(self) -> bool {
        matches!(
            self,
            TableMarkup::LayoutOneCell
                | TableMarkup::LayoutOneColumn
                | TableMarkup::LayoutTwoColumns
        )
    }
}

/// A data table in `markup` (not a layout one): its HTML, its gold grid,
/// and its text lines (one row a line).
pub fn data_table(markup: TableMarkup, rng: &mut impl Rng) -> (String, Table, Vec<String>) {
    use super::content::{Prose, table_data};
    let row = |cells: &[String], tag: &str| -> String {
        let inner: String = cells
            .iter()
            .map(|c| format!("<{tag}>{}</{tag}>", esc(c)))
            .collect();
        format!("<tr>{inner}</tr>")
    };
    let lines_of =
        |rows: &[Vec<String>]| -> Vec<String> { rows.iter().map(|r| r.join(" ")).collect() };
    match markup {
        TableMarkup::Simple | TableMarkup::NoHeader | TableMarkup::Caption | TableMarkup::Wide => {
            let cols = match markup {
                TableMarkup::Wide => 12,
                _ => rng.gen_range(3..=5),
            };
            let n_rows = rng.gen_range(3..=6);
            let d = table_data(rng, cols, n_rows);
            let body: String = d.rows.iter().map(|r| row(r, "td")).collect();
            let mut rows = Vec::new();
            let (html, header_rows, caption) = match markup {
                TableMarkup::NoHeader => {
                    rows.extend(d.rows.iter().cloned());
                    (
                        format!("<table class=\"data\"><tbody>{body}</tbody></table>"),
                        0,
                        None,
                    )
                }
                TableMarkup::Caption => {
                    let cap = format!("Table {}: {}", rng.gen_range(1..9), Prose::phrase(rng));
                    rows.push(d.header.clone());
                    rows.extend(d.rows.iter().cloned());
                    (
                        format!(
                            "<table border=\"1\"><caption>{}</caption><tr>{}</tr>{body}</table>",
                            esc(&cap),
                            d.header
                                .iter()
                                .map(|h| format!("<th>{}</th>", esc(h)))
                                .collect::<String>()
                        ),
                        1,
                        Some(cap),
                    )
                }
                _ => {
                    rows.push(d.header.clone());
                    rows.extend(d.rows.iter().cloned());
                    let wrap = if markup == TableMarkup::Wide {
                        (
                            "<div class=\"table-scroll\" style=\"overflow-x:auto\">",
                            "</div>",
                        )
                    } else {
                        ("", "")
                    };
                    (
                        format!(
                            "{}<table class=\"table table-striped\"><thead>{}</thead><tbody>{body}</tbody></table>{}",
                            wrap.0,
                            row(&d.header, "th"),
                            wrap.1
                        ),
                        1,
                        None,
                    )
                }
            };
            let mut lines = Vec::new();
            if let Some(c) = &caption {
                lines.push(c.clone());
            }
            lines.extend(lines_of(&rows));
            (
                html,
                Table {
                    rows,
                    header_rows,
                    caption,
                },
                lines,
            )
        }
        TableMarkup::Spans => {
            // Header: Name (rowspan 2) | Speed (colspan 2) | Quality (colspan 2)
            //         pages/s | MB/s | F1 | recall
            // Body: the group column spans two rows.
            let groups = ["Group A", "Group B"];
            let mut body_rows: Vec<Vec<String>> = Vec::new();
            let mut html_rows = String::new();
            for (gi, g) in groups.iter().enumerate() {
                for k in 0..2 {
                    let name = format!("tool-{}{}", gi + 1, (b'a' + k as u8) as char);
                    let vals = [
                        format!("{}", rng.gen_range(50..900)),
                        format!("{}.{}", rng.gen_range(1..40), rng.gen_range(0..10)),
                        format!("0.{}", rng.gen_range(700..990)),
                        format!("0.{}", rng.gen_range(600..990)),
                    ];
                    let mut cells = vec![g.to_string(), name.clone()];
                    cells.extend(vals.iter().cloned());
                    body_rows.push(cells);
                    let first = if k == 0 {
                        format!("<td rowspan=\"2\">{g}</td>")
                    } else {
                        String::new()
                    };
                    html_rows.push_str(&format!(
                        "<tr>{first}<td>{name}</td>{}</tr>",
                        vals.iter()
                            .map(|v| format!("<td>{v}</td>"))
                            .collect::<String>()
                    ));
                }
            }
            let html = format!(
                "<table class=\"wikitable\"><thead><tr><th rowspan=\"2\">Group</th><th rowspan=\"2\">Tool</th><th colspan=\"2\">Speed</th><th colspan=\"2\">Quality</th></tr><tr><th>pages/s</th><th>MB/s</th><th>F1</th><th>recall</th></tr></thead><tbody>{html_rows}</tbody></table>"
            );
            let mut rows = vec![
                ["Group", "Tool", "Speed", "Speed", "Quality", "Quality"]
                    .map(String::from)
                    .to_vec(),
                ["Group", "Tool", "pages/s", "MB/s", "F1", "recall"]
                    .map(String::from)
                    .to_vec(),
            ];
            rows.extend(body_rows);
            let lines = vec![
                "Group Tool Speed Quality".to_string(),
                "pages/s MB/s F1 recall".to_string(),
            ]
            .into_iter()
            .chain(rows[2..].iter().enumerate().map(|(i, r)| {
                // The spanned group cell is written once, in its first row.
                if i % 2 == 0 {
                    r.join(" ")
                } else {
                    r[1..].join(" ")
                }
            }))
            .collect();
            (
                html,
                Table {
                    rows,
                    header_rows: 2,
                    caption: None,
                },
                lines,
            )
        }
        TableMarkup::CellBlocks => {
            let header = ["Step", "What it does", "Checks"]
                .map(String::from)
                .to_vec();
            let mut rows = vec![header.clone()];
            let mut html_rows = String::new();
            let mut lines = vec![header.join(" ")];
            for k in 0..3 {
                let step = format!("Step {}", k + 1);
                let (a, b) = (Prose::phrase(rng), Prose::phrase(rng));
                let (c, d) = (Prose::phrase(rng), Prose::phrase(rng));
                html_rows.push_str(&format!(
                    "<tr><td>{step}</td><td>{}<br>{}</td><td><ul><li>{}</li><li>{}</li></ul></td></tr>",
                    esc(&a),
                    esc(&b),
                    esc(&c),
                    esc(&d)
                ));
                rows.push(vec![step.clone(), format!("{a} {b}"), format!("{c} {d}")]);
                lines.push(step);
                lines.extend([a, b, c, d]);
            }
            let html = format!(
                "<table class=\"steps\"><thead>{}</thead><tbody>{html_rows}</tbody></table>",
                row(&header, "th")
            );
            (
                html,
                Table {
                    rows,
                    header_rows: 1,
                    caption: None,
                },
                lines,
            )
        }
        _ => unreachable!("layout tables are written by the page builder"),
    }
}

// ---------------------------------------------------------------- figures

/// How an image is marked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FigureMarkup {
    /// `figure > img + figcaption`.
    Figure,
    /// `figure > picture > source[srcset] + img`, and a caption.
    Picture,
    /// A lazy image: a placeholder `src` (a data: URI) and the real one in
    /// `data-src`, in a figure with a caption.
    LazyDataSrc,
    /// A lazy image: a placeholder file in `src`, the real ones in
    /// `srcset` and `data-srcset`, in a figure with a caption.
    LazySrcset,
    /// An image alone in a paragraph, no caption.
    Plain,
}

impl FigureMarkup {
    /// Every figure markup.
    pub const ALL: [FigureMarkup; 5] = [
        FigureMarkup::Figure,
        FigureMarkup::Picture,
        FigureMarkup::LazyDataSrc,
        FigureMarkup::LazySrcset,
        FigureMarkup::Plain,
    ];

    /// The name in the manifest (`figure:<name>`).
    pub fn name(self) -> &'static str {
        match self {
            FigureMarkup::Figure => "figure",
            FigureMarkup::Picture => "picture",
            FigureMarkup::LazyDataSrc => "lazy-data-src",
            FigureMarkup::LazySrcset => "lazy-srcset",
            FigureMarkup::Plain => "plain-img",
        }
    }
}

/// A 1×1 transparent GIF, the usual lazy-loading placeholder.
const PLACEHOLDER_GIF: &str =
    "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==";

/// An image of `stem` (a relative path without extension) in `markup`,
/// with `alt` and `caption`: its HTML and its gold (addresses resolved
/// against `base`).
pub fn figure_html(
    markup: FigureMarkup,
    base: &url::Url,
    stem: &str,
    alt: &str,
    caption: &str,
) -> (String, Figure) {
    let abs = |p: &str| {
        base.join(p)
            .map(|u| u.to_string())
            .unwrap_or_else(|_| p.to_string())
    };
    let (alt_e, cap_e) = (esc(alt), esc(caption));
    match markup {
        FigureMarkup::Figure => {
            let src = format!("/media/{stem}.jpg");
            (
                format!(
                    "<figure class=\"wp-block-image\"><img src=\"{src}\" alt=\"{alt_e}\" width=\"800\" height=\"450\"><figcaption>{cap_e}</figcaption></figure>"
                ),
                Figure {
                    src: abs(&src),
                    alternatives: vec![],
                    alt: alt.into(),
                    caption: Some(caption.into()),
                },
            )
        }
        FigureMarkup::Picture => {
            let (webp, jpg) = (format!("/media/{stem}.webp"), format!("/media/{stem}.jpg"));
            (
                format!(
                    "<figure><picture><source srcset=\"{webp} 1x, /media/{stem}@2x.webp 2x\" type=\"image/webp\"><img src=\"{jpg}\" alt=\"{alt_e}\" loading=\"lazy\"></picture><figcaption class=\"caption\">{cap_e}</figcaption></figure>"
                ),
                Figure {
                    src: abs(&jpg),
                    alternatives: vec![abs(&webp), abs(&format!("/media/{stem}@2x.webp"))],
                    alt: alt.into(),
                    caption: Some(caption.into()),
                },
            )
        }
        FigureMarkup::LazyDataSrc => {
            let real = format!("/media/{stem}.png");
            (
                format!(
                    "<figure class=\"image\"><img class=\"lazyload\" src=\"{PLACEHOLDER_GIF}\" data-src=\"{real}\" alt=\"{alt_e}\"><noscript><img src=\"{real}\" alt=\"{alt_e}\"></noscript><figcaption>{cap_e}</figcaption></figure>"
                ),
                Figure {
                    src: abs(&real),
                    alternatives: vec![],
                    alt: alt.into(),
                    caption: Some(caption.into()),
                },
            )
        }
        FigureMarkup::LazySrcset => {
            let (small, large) = (
                format!("/media/{stem}-480.jpg"),
                format!("/media/{stem}-960.jpg"),
            );
            (
                format!(
                    "<figure><img src=\"/static/placeholder.svg\" data-srcset=\"{small} 480w, {large} 960w\" srcset=\"{small} 480w, {large} 960w\" sizes=\"(max-width: 600px) 480px, 960px\" alt=\"{alt_e}\"><figcaption><span class=\"caption-text\">{cap_e}</span> <span class=\"credit\">Photo: Example Agency</span></figcaption></figure>"
                ),
                Figure {
                    src: abs(&large),
                    alternatives: vec![abs(&small)],
                    alt: alt.into(),
                    caption: Some(caption.into()),
                },
            )
        }
        FigureMarkup::Plain => {
            let src = format!("/media/{stem}.gif");
            (
                format!("<p><img src=\"{src}\" alt=\"{alt_e}\"></p>"),
                Figure {
                    src: abs(&src),
                    alternatives: vec![],
                    alt: alt.into(),
                    caption: None,
                },
            )
        }
    }
}

// ---------------------------------------------------------------- headings

/// How a heading carries its permalink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeadingMarkup {
    /// No permalink.
    Plain,
    /// Sphinx / MkDocs: `a.headerlink` "¶" after the text.
    Headerlink,
    /// rustdoc: `a.anchor` "§" before the text.
    RustdocAnchor,
    /// GitHub: an `a.anchor` holding an icon (no text) before the text.
    GithubAnchor,
    /// A `#` link after the text (static site generators).
    HashLink,
}

impl HeadingMarkup {
    /// Every heading markup (the encyclopedia template has its own).
    pub const ALL: [HeadingMarkup; 5] = [
        HeadingMarkup::Plain,
        HeadingMarkup::Headerlink,
        HeadingMarkup::RustdocAnchor,
        HeadingMarkup::GithubAnchor,
        HeadingMarkup::HashLink,
    ];

    /// The name in the manifest (`heading:<name>`).
    pub fn name(self) -> &'static str {
        match self {
            HeadingMarkup::Plain => "plain",
            HeadingMarkup::Headerlink => "headerlink",
            HeadingMarkup::RustdocAnchor => "rustdoc-anchor",
            HeadingMarkup::GithubAnchor => "github-anchor",
            HeadingMarkup::HashLink => "hash-link",
        }
    }
}

/// A heading of `level` with `text` in `markup`; `encyclopedia` writes the
/// encyclopedia's instead: the text in `span.mw-headline` and an `[edit]`
/// link inside the heading.
pub fn heading_html(markup: HeadingMarkup, level: u8, text: &str, encyclopedia: bool) -> String {
    let id = super::content::Prose::slug(text);
    let t = esc(text);
    if encyclopedia {
        return format!(
            "<h{level}><span class=\"mw-headline\" id=\"{id}\">{t}</span><span class=\"mw-editsection\"><span class=\"mw-editsection-bracket\">[</span><a href=\"/w/index.php?action=edit&amp;section=1\" title=\"Edit section: {t}\"><span>edit</span></a><span class=\"mw-editsection-bracket\">]</span></span></h{level}>"
        );
    }
    match markup {
        HeadingMarkup::Plain => format!("<h{level} id=\"{id}\">{t}</h{level}>"),
        HeadingMarkup::Headerlink => format!(
            "<h{level} id=\"{id}\">{t}<a class=\"headerlink\" href=\"#{id}\" title=\"Link to this heading\">¶</a></h{level}>"
        ),
        HeadingMarkup::RustdocAnchor => format!(
            "<h{level} id=\"{id}\" class=\"section-header\"><a href=\"#{id}\" class=\"anchor\">§</a>{t}</h{level}>"
        ),
        HeadingMarkup::GithubAnchor => format!(
            "<h{level} tabindex=\"-1\" class=\"heading-element\" dir=\"auto\"><a id=\"user-content-{id}\" class=\"anchor\" aria-hidden=\"true\" href=\"#{id}\"><svg class=\"octicon octicon-link\" viewBox=\"0 0 16 16\" version=\"1.1\" width=\"16\" height=\"16\" aria-hidden=\"true\"><path d=\"m7.775 3.275 1.25-1.25a3.5 3.5 0 1 1 4.95 4.95l-2.5 2.5a3.5 3.5 0 0 1-4.95 0\"></path></svg></a>{t}</h{level}>"
        ),
        HeadingMarkup::HashLink => format!(
            "<h{level} id=\"{id}\">{t} <a class=\"hash-link\" href=\"#{id}\" aria-label=\"Direct link to {t}\">#</a></h{level}>"
        ),
    }
}
