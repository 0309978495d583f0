"""The document's structure through the Python package: Markdown with math,
spanned tables, line-numbered code and the title; images and figures with
include_images=True (issue #34)."""

from __future__ import annotations

import unchaff

URL = "https://www.example.org/notes/a"


def page(body: str) -> bytes:
    return (
        "<html><head><title>Notes on things | Example</title></head><body>"
        "<nav><a href=/>Home</a> <a href=/a>About</a></nav><main><article>"
        "<h1>Notes on things</h1>"
        "<p>This article explains a few things at length, so that the extractor finds it: "
        "the words here are many and the links are few, as in any long piece of writing.</p>"
        f"{body}"
        "<p>The closing paragraph says a little more about the subject, again at some length, "
        "so that the article ends with prose and not with the construct under test.</p>"
        "</article></main><footer>© Example</footer></body></html>"
    ).encode()


def test_markdown_keeps_math_tables_and_code():
    body = (
        '<p>Energy is <span class="katex"><span class="katex-mathml"><math><semantics>'
        '<mrow><mi>E</mi></mrow><annotation encoding="application/x-tex">E=mc^2</annotation>'
        '</semantics></math></span><span class="katex-html" aria-hidden="true">E=mc2</span></span>, '
        "and water is H<sub>2</sub>O.</p>"
        "<table><tr><th>Region</th><th>Q1</th></tr><tr><td rowspan=2>North</td><td>1</td></tr>"
        "<tr><td>2</td></tr></table>"
        '<table class="highlighttable"><tr><td class="linenos"><pre>41\n42</pre></td>'
        '<td class="code"><div class="highlight"><pre>x = 1\nprint(x)\n</pre></div></td></tr></table>'
    )
    md = unchaff.extract(page(body), URL, output_format="markdown")
    assert md.startswith("# Notes on things\n\n"), md
    assert "Energy is $E=mc^2$, and water is H<sub>2</sub>O." in md, md
    assert "| Region | Q1 |\n| --- | --- |\n| North | 1 |\n| North | 2 |" in md, md
    assert "```\nx = 1\nprint(x)\n```" in md, md
    text = unchaff.extract(page(body), URL)
    assert "Energy is E=mc^2, and water is H2O." in text, text
    # The gutter's numbers (a listing numbered from 41) are not code.
    assert "41" not in text and "42" not in text, text
    assert "x = 1\nprint(x)" in text, text


def test_include_images_writes_figures_beside_the_text():
    body = (
        '<figure><img src="/img/bridge.jpg" alt="The bridge" width="800">'
        "<figcaption>The new bridge at dawn.</figcaption></figure>"
        "<p>A middle paragraph of the article, long enough to be part of it, between two "
        "pictures that the algorithm itself never selects.</p>"
        '<p><img src="data:image/gif;base64,R0lGOD" data-src="/img/lazy.jpg" alt="Lazy"></p>'
    )
    without = unchaff.extract(page(body), URL, output_format="markdown")
    assert "![" not in without
    md = unchaff.extract(page(body), URL, output_format="markdown", include_images=True)
    assert "![The bridge](https://www.example.org/img/bridge.jpg)" in md, md
    assert "The new bridge at dawn." in md, md
    assert "![Lazy](https://www.example.org/img/lazy.jpg)" in md, md
    html = unchaff.extract(page(body), URL, output_format="html", include_images=True)
    assert '<figure><img src="https://www.example.org/img/bridge.jpg"' in html, html
