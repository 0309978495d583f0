//! The document's structure through the public API (issue #34): math in
//! each markup, tables with spans and layout tables, line-numbered code,
//! figures and lazy images, sub/sup, permalinks, the title heading. Each
//! page is written here: an article long enough to be the content, with
//! the construct inside it and chrome around it.

use unchaff::{Extractor, Format, Method, Options};

/// A page: navigation, an article holding `body` between two paragraphs
/// of prose, a footer.
fn page(body: &str) -> String {
    format!(
        "<html><head><title>Notes on things | Example Site</title></head><body>\
         <nav><a href=/>Home</a> <a href=/a>About</a> <a href=/b>Blog</a></nav>\
         <main><article><h1>Notes on things</h1>\
         <p>This article explains a few things at length, so that every extractor finds it: \
         the words here are many and the links are few, as in any long piece of writing.</p>\
         {body}\
         <p>The closing paragraph says a little more about the subject, again at some length, \
         so that the article ends with prose and not with the construct under test.</p>\
         </article></main><footer>© Example Site · <a href=/privacy>Privacy</a></footer></body></html>"
    )
}

fn extract(html: &str, format: Format, method: Method, images: bool) -> String {
    let opts = Options::new()
        .with_format(format)
        .with_method(method)
        .with_images(images);
    let ex = Extractor::new(&opts).unwrap();
    let out = ex
        .extract(unchaff::Input::new(html.as_bytes()).with_url("https://example.org/notes/a"))
        .unwrap();
    out.render()
}

fn md(body: &str) -> String {
    extract(&page(body), Format::Markdown, Method::Auto, false)
}

/// The same through every algorithm that selects nodes (CETR's source
/// lines carry no structure).
fn md_all(body: &str) -> Vec<(Method, String)> {
    Method::ALL
        .iter()
        .filter(|m| !m.name().starts_with("cetr"))
        .map(|&m| (m, extract(&page(body), Format::Markdown, m, false)))
        .collect()
}

#[test]
fn math_in_every_markup_becomes_tex() {
    let cases: &[(&str, &str)] = &[
        // MathML with its TeX annotation.
        (
            "<p>Energy is <math><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow>\
             <annotation encoding=\"application/x-tex\">E = mc^2</annotation></semantics></math> here.</p>",
            "$E = mc^2$",
        ),
        // MathML alone: converted.
        (
            "<p>A fraction <math><mfrac><mi>a</mi><msqrt><mi>b</mi></msqrt></mfrac></math> here.</p>",
            "$\\frac{a}{\\sqrt{b}}$",
        ),
        (
            "<math display=\"block\"><munderover><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><mi>k</mi></math>",
            "$$\\sum_{k=1}^{n}k$$",
        ),
        // MathJax 2 source scripts, inline and display, with a rendered copy beside.
        (
            "<p>So <span class=MathJax_Preview>x2</span><span class=MathJax id=MathJax-Element-1-Frame><nobr>x2</nobr></span>\
             <script type=\"math/tex\" id=MathJax-Element-1>x^2</script> is positive.</p>",
            "$x^2$",
        ),
        (
            "<p>Then <script type=\"math/tex; mode=display\">\\int_0^1 f(x)\\,dx</script> follows.</p>",
            "$$\\int_0^1 f(x)\\,dx$$",
        ),
        // MathJax 3 output with its assistive MathML.
        (
            "<p>Here <mjx-container class=MathJax jax=CHTML><mjx-math><mjx-mi>y</mjx-mi></mjx-math>\
             <mjx-assistive-mml><math><msub><mi>y</mi><mi>i</mi></msub></math></mjx-assistive-mml></mjx-container> holds.</p>",
            "$y_{i}$",
        ),
        // KaTeX: the annotation, not the glyph spans.
        (
            "<p>And <span class=katex><span class=katex-mathml><math><semantics><mrow><mi>α</mi></mrow>\
             <annotation encoding=\"application/x-tex\">\\alpha</annotation></semantics></math></span>\
             <span class=katex-html aria-hidden=true><span class=mord>α</span></span></span> too.</p>",
            "$\\alpha$",
        ),
        // The encyclopedia: hidden MathML, fallback image.
        (
            "<p>As <span class=mwe-math-element><span class=\"mwe-math-mathml-inline mwe-math-mathml-a11y\" style=\"display: none;\">\
             <math alttext=\"{\\displaystyle a^{2}+b^{2}}\"><mrow><mi>a</mi></mrow></math></span>\
             <img src=\"/m.svg\" class=\"mwe-math-fallback-image-inline\" aria-hidden=\"true\" alt=\"{\\displaystyle a^{2}+b^{2}}\"></span> shows.</p>",
            "$a^{2}+b^{2}$",
        ),
        // Raw delimiters typeset on the client.
        (
            "<p>Inline \\(x_1 + x_2\\) and display \\[\\frac{1}{2}\\] in text.</p>",
            "$x_1 + x_2$",
        ),
    ];
    for (body, want) in cases {
        for (m, out) in md_all(body) {
            assert!(out.contains(want), "{m:?}: {want} not in\n{out}");
        }
    }
    // In plain text the TeX is the text.
    let text = extract(&page(cases[0].0), Format::Text, Method::Auto, false);
    assert!(text.contains("Energy is E = mc^2 here."), "{text}");
}

#[test]
fn spanned_tables_are_rectangular_and_layout_tables_unwrapped() {
    let table = "<table><thead><tr><th>Region</th><th>Q1</th><th>Q2</th></tr></thead>\
                 <tbody><tr><td rowspan=2>North</td><td>1</td><td>2<br>est.</td></tr>\
                 <tr><td>3</td><td><ul><li>a</li><li>b|c</li></ul></td></tr>\
                 <tr><td colspan=3>Total</td></tr></tbody></table>";
    let out = md(table);
    assert!(
        out.contains(
            "| Region | Q1 | Q2 |\n| --- | --- | --- |\n| North | 1 | 2<br>est. |\n\
             | North | 3 | - a<br>- b\\|c |\n| Total | Total | Total |"
        ),
        "{out}"
    );
    // A layout table around the article: its blocks, no table.
    let layout = page(
        "<table width=100%><tr><td><h2>Inside a box</h2><p>A paragraph in the layout table, written \
         as prose of some length so that it is content.</p><p>And another one after it.</p></td>\
         <td><p>Side</p></td></tr></table>",
    );
    let out = extract(&layout, Format::Markdown, Method::Auto, false);
    assert!(
        out.contains("## Inside a box\n\nA paragraph in the layout table"),
        "{out}"
    );
    assert!(!out.contains('|'), "{out}");
}

#[test]
fn line_numbered_code_is_one_block_without_its_gutter() {
    let code = "with open(\"x\") as f:\n    data = f.read()\n\nprint(len(data))";
    let cases = [
        // Pygments' table, inside Sphinx's wrapper naming the language.
        format!(
            "<div class=\"highlight-python notranslate\"><div class=highlight><table class=highlighttable><tr>\
             <td class=linenos><div class=linenodiv><pre>1\n2\n3\n4</pre></div></td>\
             <td class=code><div class=highlight><pre>{}\n</pre></div></td></tr></table></div></div>",
            code.replace('"', "&quot;")
        ),
        // A code host's file view: a row a line, the number in an attribute.
        format!(
            "<table class=\"highlight js-file-line-container\" data-lang=python>{}</table>",
            code.lines()
                .map(|l| format!("<tr><td class=\"blob-num js-line-number\"></td><td class=\"blob-code blob-code-inner\">{l}</td></tr>"))
                .collect::<String>()
        ),
        // rouge's table.
        format!(
            "<div class=\"language-python highlighter-rouge\"><div class=highlight><pre class=highlight><code>\
             <table class=rouge-table><tbody><tr><td class=\"rouge-gutter gl\"><pre class=lineno>1\n2\n3\n4\n</pre></td>\
             <td class=rouge-code><pre>{code}\n</pre></td></tr></tbody></table></code></pre></div></div>"
        ),
        // highlight.js's line-numbers plugin: a table inside the code.
        format!(
            "<pre><code class=\"hljs language-python\"><table class=hljs-ln><tbody>{}</tbody></table></code></pre>",
            code.lines()
                .enumerate()
                .map(|(i, l)| format!(
                    "<tr><td class=\"hljs-ln-line hljs-ln-numbers\"><div class=\"hljs-ln-n\">{}</div></td>\
                     <td class=\"hljs-ln-line hljs-ln-code\">{l}</td></tr>", i + 1))
                .collect::<String>()
        ),
        // Pygments' inline numbers.
        format!(
            "<div class=highlight><pre>{}</pre></div>",
            code.lines()
                .enumerate()
                .map(|(i, l)| format!("<span class=linenos>{}</span>{l}\n", i + 1))
                .collect::<String>()
        ),
    ];
    for (i, body) in cases.iter().enumerate() {
        let out = md(body);
        let block = out
            .split("```")
            .nth(1)
            .unwrap_or_else(|| panic!("case {i}: no code block in\n{out}"));
        let (lang, text) = block.split_once('\n').unwrap();
        assert_eq!(text.trim_end_matches('\n'), code, "case {i}:\n{out}");
        // The code host's file view and Pygments' inline numbers name no language.
        if i != 1 && i != 4 {
            assert_eq!(lang, "python", "case {i}");
        }
    }
}

#[test]
fn figures_and_lazy_images_come_with_images_on() {
    let body = "<figure><img src=\"/img/bridge.jpg\" alt=\"The bridge\" width=800>\
                <figcaption>The new bridge at dawn.</figcaption></figure>\
                <p>A middle paragraph of the article, long enough to be part of it, between two pictures \
                that the algorithm itself never selects.</p>\
                <p><img src=\"data:image/gif;base64,R0lGOD\" data-src=\"/img/lazy.jpg\" alt=\"Lazy\"></p>\
                <div class=share><img src=\"/icons/twitter.png\" alt=\"Share\"></div>";
    for m in [Method::Auto, Method::CetdTpc, Method::Cc] {
        let out = extract(&page(body), Format::Markdown, m, true);
        assert!(
            out.contains("![The bridge](https://example.org/img/bridge.jpg)"),
            "{m:?}:\n{out}"
        );
        assert!(out.contains("The new bridge at dawn."), "{m:?}:\n{out}");
        assert!(
            out.contains("![Lazy](https://example.org/img/lazy.jpg)"),
            "{m:?}:\n{out}"
        );
        assert!(!out.contains("twitter.png"), "{m:?}:\n{out}");
        let html = extract(&page(body), Format::Html, m, true);
        assert!(
            html.contains("<figure><img src=\"https://example.org/img/bridge.jpg\""),
            "{m:?}:\n{html}"
        );
    }
    // Without --images, no image and the text unchanged.
    let plain = extract(&page(body), Format::Markdown, Method::Auto, false);
    assert!(!plain.contains("!["), "{plain}");
}

#[test]
fn sub_sup_permalinks_and_the_title_heading() {
    let body = "<h2 id=use>Usage<a class=headerlink href=\"#use\" title=\"Permalink\">¶</a></h2>\
                <p>Water is H<sub>2</sub>O and energy mc<sup>2</sup>, as the textbooks say at length.</p>\
                <h3><a href=\"#x\" class=anchor>§</a>Details</h3><p>More prose about details here.</p>\
                <h2>History<span class=mw-editsection><span>[</span><a href=\"/w?action=edit\">edit</a><span>]</span></span></h2>\
                <p>The history of the subject is long, and this paragraph tells some of it.</p>";
    let out = md(body);
    assert!(out.starts_with("# Notes on things\n\n"), "{out}");
    assert_eq!(out.matches("# Notes on things").count(), 1, "{out}");
    assert!(out.contains("## Usage\n"), "{out}");
    assert!(out.contains("### Details\n"), "{out}");
    assert!(
        out.contains("H<sub>2</sub>O and energy mc<sup>2</sup>"),
        "{out}"
    );
    assert!(out.contains("## History\n"), "{out}");
    let text = extract(&page(body), Format::Text, Method::Auto, false);
    assert!(text.contains("Usage\n") && !text.contains('¶'), "{text}");
    // The heading comes from the title when the content has none.
    let no_h1 = page(body).replace("<h1>Notes on things</h1>", "");
    let out = extract(&no_h1, Format::Markdown, Method::Auto, false);
    assert!(out.starts_with("# Notes on things\n\n"), "{out}");
    let off = Extractor::new(
        &Options::new()
            .with_format(Format::Markdown)
            .with_markdown_title(false),
    )
    .unwrap()
    .extract(no_h1.as_bytes())
    .unwrap()
    .render();
    assert!(!off.starts_with('#'), "{off}");
}
