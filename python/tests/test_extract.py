"""The trafilatura-shaped API on the shipped example and on made-up pages."""

from __future__ import annotations

import gzip
import inspect
import json
import pydoc

import pytest

import unchaff

URL = "https://www.example.org/news/2026/03/14/bridge"


def test_txt_is_the_default(example_html):
    text = unchaff.extract(example_html)
    assert isinstance(text, str)
    assert "For ninety years the stone bridge at Elmsford" in text
    assert "Opening day" in text
    assert unchaff.extract(example_html, output_format="txt") == text


def test_markdown(example_html):
    md = unchaff.extract(example_html, URL, output_format="markdown")
    assert "## Counting stones" in md or "# Counting stones" in md
    assert "For ninety years" in md


def test_html(example_html):
    out = unchaff.extract(example_html, URL, output_format="html")
    assert out.startswith("<")
    assert "<p>For ninety years" in out
    assert "<script" not in out and "<nav" not in out


def test_json(example_html):
    out = json.loads(unchaff.extract(example_html, URL, output_format="json"))
    assert out["schema"] == 2
    assert out["url"] == URL
    assert "For ninety years" in out["text"]
    assert out["metadata"]["author"] == "Mara Ellison"
    assert out["algorithm"] == "auto"


def test_python(example_html):
    d = unchaff.extract(example_html, URL, output_format="python")
    assert isinstance(d, dict)
    assert d["text"] == unchaff.extract(example_html, URL)
    assert d["title"] == "How the river town rebuilt its bridge"
    assert d["author"] == "Mara Ellison"
    assert d["date"] == "2026-03-14"
    assert d["language"] == "en"
    assert d["url"] == URL
    assert d["hostname"] == "www.example.org"
    assert d["charset"] == "UTF-8"
    assert isinstance(d["tags"], list)
    assert isinstance(d["categories"], list)
    assert "image" in d and "license" in d


def test_metadata_new_fields():
    page = (
        "<html><head><title>Bees | Garden News</title>"
        '<meta property="og:site_name" content="Garden News">'
        '<meta property="article:section" content="Wildlife">'
        '<meta name="keywords" content="bees, winter">'
        '<meta property="og:image" content="/img/bees.jpg">'
        '<link rel="canonical" href="https://garden.example/bees">'
        '<link rel="license" href="https://creativecommons.org/licenses/by/4.0/">'
        "</head><body><article><h1>Bees</h1><p>Bees sleep in winter, "
        "in a cluster that keeps the queen warm until the spring comes.</p>"
        "</article></body></html>"
    )
    m = unchaff.extract_metadata(page)
    assert m["categories"] == ["Wildlife"]
    assert m["tags"] == ["bees", "winter"]
    assert m["image"] == "https://garden.example/img/bees.jpg"
    assert m["license"] == "CC BY 4.0"
    assert m["sitename"] == "Garden News"
    # No URL given: the canonical URL stands in, as in trafilatura.
    assert m["url"] == "https://garden.example/bees"
    d = unchaff.extract(page, output_format="python")
    assert d["categories"] == ["Wildlife"] and d["license"] == "CC BY 4.0"
    head = unchaff.extract(page, with_metadata=True).partition("---\n")[2]
    assert "categories: Wildlife\n" in head and "tags: bees, winter\n" in head


def test_with_metadata_front_matter(example_html):
    out = unchaff.extract(example_html, URL, with_metadata=True)
    head, sep, body = out.partition("---\n")[2].partition("---\n")
    assert sep, out[:200]
    assert "title: How the river town rebuilt its bridge\n" in head
    assert "author: Mara Ellison\n" in head
    assert "date: 2026-03-14\n" in head
    assert "hostname: www.example.org\n" in head
    assert body == unchaff.extract(example_html, URL)
    md = unchaff.extract(example_html, URL, output_format="markdown", with_metadata=True)
    assert md.startswith("---\ntitle: ")
    doc = unchaff.extract(example_html, URL, output_format="html", with_metadata=True)
    assert doc.startswith("<html><head>") and '<meta name="author" content="Mara Ellison">' in doc


def test_links_and_images_in_markdown():
    page = (
        b"<html><body><article><h1>T</h1><p>A long paragraph of the article that links to "
        b'<a href="/other">another story</a> and goes on for a while, long enough.</p>'
        b'<p><img src="/pic.jpg" alt="A picture"> More text of the article, with enough words.</p>'
        b"</article></body></html>"
    )
    plain = unchaff.extract(page, URL, output_format="markdown")
    assert "](" not in plain
    linked = unchaff.extract(page, URL, output_format="markdown", include_links=True)
    assert "[another story](https://www.example.org/other)" in linked
    pictured = unchaff.extract(page, URL, output_format="markdown", include_images=True)
    assert "![A picture](https://www.example.org/pic.jpg)" in pictured


def test_bytes_and_str_give_the_same_text(example_html):
    s = example_html.decode("utf-8")
    for fmt in ("txt", "markdown", "html"):
        assert unchaff.extract(s, URL, output_format=fmt) == unchaff.extract(example_html, URL, output_format=fmt)


def test_str_is_unicode_whatever_its_meta_says():
    # The bytes of a windows-1252 page, and the same page as a str: the str
    # is already decoded, so its <meta charset> must not decode it again.
    page = "<html><head><meta charset=windows-1252></head><body><p>Un café crème, s’il vous plaît, au comptoir du bistrot.</p></body></html>"
    as_bytes = unchaff.extract(page.encode("cp1252"))
    as_str = unchaff.extract(page)
    assert as_str == as_bytes
    assert "café crème, s’il vous plaît" in as_str


def test_charset_argument_beats_the_meta():
    page = b"<html><head><meta charset=utf-8></head><body><p>caf\xe9 au lait, a long enough sentence.</p></body></html>"
    assert "caf\u0439" in unchaff.extract(page, charset="windows-1251")
    assert "caf\u00e9" in unchaff.extract(page, charset="windows-1252")


def test_gzip_bytes(example_html):
    assert unchaff.extract(gzip.compress(example_html)) == unchaff.extract(example_html)


@pytest.mark.parametrize(
    "html, kwargs, exc, kind",
    [
        (b"", {}, unchaff.EmptyInputError, "empty"),
        ("", {}, unchaff.EmptyInputError, "empty"),
        (bytes((i * 2654435761 >> 13) & 0xFF for i in range(20000)), {}, unchaff.BinaryInputError, "binary"),
        (b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage", {}, unchaff.GzipError, "gzip"),
        (b"<p>text</p>", {"charset": "no-such-charset"}, unchaff.UnknownCharsetError, "charset"),
    ],
)
def test_errors_raise_the_documented_exceptions(html, kwargs, exc, kind):
    with pytest.raises(exc) as e:
        unchaff.extract(html, errors="raise", **kwargs)
    assert isinstance(e.value, unchaff.UnchaffError)
    assert isinstance(e.value, ValueError)
    assert e.value.kind == kind
    assert str(e.value)  # the library's message


def test_too_large():
    ex = unchaff.Extractor(max_input_bytes=10)
    with pytest.raises(unchaff.InputTooLargeError, match="larger than the limit of 10 bytes"):
        ex.extract(b"<p>more than ten bytes</p>")


@pytest.mark.parametrize(
    "kwargs, exc",
    [
        ({"output_format": "xmltei"}, unchaff.BadOptionError),
        ({"algorithm": "nope"}, unchaff.UnknownAlgorithmError),
        ({"favor_precision": True, "favor_recall": True}, unchaff.BadOptionError),
        ({"favor_precision": True, "algorithm": "cetd-tpc"}, unchaff.BadOptionError),
        ({"include_comments": True, "algorithm": "cetd-tpc"}, unchaff.BadOptionError),
    ],
)
def test_bad_options(example_html, kwargs, exc):
    with pytest.raises(exc):
        unchaff.extract(example_html, **kwargs)
    with pytest.raises(exc):
        unchaff.Extractor(**kwargs)


def test_include_tables_false_drops_data_tables():
    prose = "A sentence of the article that is long enough to be content here. " * 2
    page = (
        f"<html><body><nav><a href=/>Home</a></nav><article><p>{prose}</p>"
        "<table><tr><th>City</th><th>People</th></tr><tr><td>Oslo</td><td>700000</td></tr></table>"
        f"<p>{prose}</p></article></body></html>"
    )
    with_tables = unchaff.extract(page, algorithm="cetd-tpc")
    without = unchaff.extract(page, algorithm="cetd-tpc", include_tables=False)
    assert "Oslo" in with_tables
    assert "Oslo" not in without and "City" not in without
    assert without.count("long enough") == 4


def test_bad_params():
    with pytest.raises(unchaff.BadOptionError, match="bad parameter"):
        unchaff.Extractor(params={"no-such-param": 1})
    ex = unchaff.Extractor(params={"threshold": 0.5, "keep-title": True})
    assert ex.algorithm == "auto"


def test_every_algorithm_runs(example_html):
    assert unchaff.ALGORITHMS[0] == "auto"
    for name in unchaff.ALGORITHMS:
        if name in ("template-svm",):  # needs a template library
            continue
        out = unchaff.extract(example_html, algorithm=name)
        assert isinstance(out, str), name


def test_favor_precision_and_recall_move_the_threshold():
    # A page with one sure block and a few doubtful ones: recall keeps at
    # least what the default keeps, precision at most.
    page = (
        b"<html><body><div class=sidebar><p>Related: other stories you may like to read today</p></div>"
        b"<article><p>" + b"The main text of the article goes on at length. " * 20 + b"</p>"
        b"<p>Share this article with your friends and family, please.</p></article>"
        b"<footer><p>Copyright 2026 The Example Times, all rights reserved.</p></footer></body></html>"
    )
    default = unchaff.extract(page)
    precise = unchaff.extract(page, favor_precision=True)
    recall = unchaff.extract(page, favor_recall=True)
    assert len(precise) <= len(default) <= len(recall)
    assert "The main text" in precise


def test_include_comments_keeps_comment_prose():
    article = b"<article><p>" + b"The article itself, a long paragraph of real content. " * 15 + b"</p></article>"
    comments = (
        b'<section id="comments" class="comments"><div class="comment"><span class=author>bob</span>'
        b"<p>I really disagree with the second point made in this article, here is why.</p></div></section>"
    )
    page = b"<html><body>" + article + comments + b"</body></html>"
    without = unchaff.extract(page)
    with_comments = unchaff.extract(page, include_comments=True)
    assert "I really disagree" not in without
    assert "I really disagree" in with_comments


def test_extract_metadata(example_html):
    m = unchaff.extract_metadata(example_html, URL)
    assert m["title"] == "How the river town rebuilt its bridge"
    assert m["author"] == "Mara Ellison"
    assert m["date"] == "2026-03-14"
    assert m["hostname"] == "www.example.org"
    assert m["page_title"].startswith("How the river town")
    assert "text" not in m
    with pytest.raises(unchaff.EmptyInputError):
        unchaff.extract_metadata(b"")


def test_extractor_and_its_page_shapes(example_html):
    ex = unchaff.Extractor(output_format="python")
    one = ex.extract(example_html, URL)
    many = ex.extract_many(
        [
            (example_html, URL),
            {"html": example_html, "url": URL},
            {"html": example_html.decode(), "url": URL, "charset": None},
            (example_html, URL, "utf-8"),
        ]
    )
    assert many == [one] * 4
    plain = unchaff.Extractor().extract_many([example_html, example_html.decode()])
    assert plain[0] == plain[1] == unchaff.extract(example_html)
    assert ex.extract_many([]) == []
    assert ex.extract_many(iter([example_html]), threads=1)[0]["text"] == one["text"]


def test_extract_many_errors(example_html):
    ex = unchaff.Extractor()
    with pytest.raises(unchaff.EmptyInputError):
        ex.extract_many([example_html, b""])
    out = ex.extract_many([example_html, b"", example_html], errors="return")
    assert out[0] == out[2] == ex.extract(example_html)
    assert isinstance(out[1], unchaff.EmptyInputError) and out[1].kind == "empty"
    with pytest.raises(TypeError, match=r"pages\[1\]"):
        ex.extract_many([example_html, 42])
    with pytest.raises(unchaff.BadOptionError):
        ex.extract_many([example_html], threads=0)
    with pytest.raises(unchaff.BadOptionError):
        ex.extract_many([example_html], errors="ignore")


def test_help_explains_every_argument():
    doc = pydoc.render_doc(unchaff.extract)
    for name in inspect.signature(unchaff.extract).parameters:
        assert f"\n    {name}\n" in unchaff.extract.__doc__, name
        assert name in doc
    assert unchaff.Extractor.__doc__ and unchaff.Extractor.extract_many.__doc__
    assert unchaff.read_warc.__doc__ and unchaff.extract_metadata.__doc__


def test_repr_and_attributes():
    ex = unchaff.Extractor(output_format="markdown", algorithm="cetd-tpc")
    assert ex.output_format == "markdown" and ex.algorithm == "cetd-tpc"
    assert repr(ex).startswith('Extractor(output_format="markdown", algorithm="cetd-tpc"')


def test_py_typed_and_stubs_ship():
    from pathlib import Path

    pkg = Path(unchaff.__file__).parent
    assert (pkg / "py.typed").is_file()
    assert (pkg / "_unchaff.pyi").is_file()


def test_extract_many_releases_the_gil(example_html):
    """A Python thread keeps running while extract_many works: the GIL is
    released for the extraction (it would be held the whole call otherwise,
    and the counter would not move)."""
    import threading

    ex = unchaff.Extractor()
    stop = threading.Event()
    count = [0]

    def spin():
        while not stop.is_set():
            count[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        pages = [example_html] * 400
        ex.extract_many(pages[:10], threads=1)  # warm
        before = count[0]
        out = ex.extract_many(pages, threads=1)
        during = count[0] - before
    finally:
        stop.set()
        t.join()
    assert len(out) == 400
    assert during > 1000, during
