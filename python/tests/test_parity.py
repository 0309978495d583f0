"""trafilatura parity and the defects of issue 37: each test here failed
before its fix (None HTML in extract_many, read_warc's status, the TypeError
of a wrong html, the positional record_id, None for no content), and the
fields the corpus pipelines read (confidence, page type, fingerprint,
comments), and the selectors and language filter."""

from __future__ import annotations

import pytest

import unchaff
from conftest import http_response, warc_record, write_warc

URL = "https://www.example.org/news/2026/03/14/bridge"
ARTICLE = (
    "<html lang=en><head><title>Apples</title></head><body><nav><a href=/>Home</a></nav>"
    "<article><h1>Apples</h1>"
    + "<p>Apples fall far from the trees in autumn, says everyone who keeps an old orchard.</p>" * 6
    + "<div class=note>A note on pears.</div></article></body></html>"
)
GERMAN = (
    "<html><head><title>Äpfel</title></head><body><article><h1>Äpfel</h1>"
    + "<p>Die Äpfel fallen nicht weit vom Stamm, sagt man bei uns im Dorf seit jeher und immer wieder.</p>" * 6
    + "</article></body></html>"
)


def test_extract_many_none_html_is_one_error_result(example_html):
    ex = unchaff.Extractor()
    pages = [(example_html, URL), (None, "https://gone.example/"), {"html": None}, None, example_html]
    out = ex.extract_many(pages, errors="return")
    assert out[0] == out[4] == ex.extract(example_html, URL)
    for i in (1, 2, 3):
        assert isinstance(out[i], unchaff.EmptyInputError), out[i]
        assert out[i].kind == "empty" and f"pages[{i}]" in str(out[i])
    assert "https://gone.example/" in str(out[1])
    with pytest.raises(unchaff.EmptyInputError, match=r"pages\[1\]"):
        ex.extract_many(pages)
    # Wrong types keep their place too with errors="return".
    out = ex.extract_many([example_html, 42], errors="return")
    assert isinstance(out[1], TypeError) and "pages[1]" in str(out[1])


def test_read_warc_yields_2xx_by_default_as_batch(tmp_path):
    body = b"<html><body><article><p>" + b"Some article text. " * 20 + b"</p></article></body></html>"
    warc = write_warc(
        tmp_path / "c.warc",
        [
            warc_record("response", "https://a.example/", http_response(body), rid="ok"),
            warc_record("response", "https://a.example/gone", http_response(body, status=404), rid="nf"),
            warc_record("response", "https://a.example/moved", http_response(body, status=301), rid="mv"),
        ],
    )
    assert [r.record_id for r in unchaff.read_warc(warc)] == ["urn:uuid:ok"]
    assert [r.status for r in unchaff.read_warc(warc, status="all")] == [200, 404, 301]
    with pytest.raises(unchaff.BadOptionError):
        unchaff.read_warc(warc, status="3xx")


@pytest.mark.parametrize("call", [unchaff.extract, unchaff.Extractor().extract, unchaff.extract_metadata])
@pytest.mark.parametrize("bad", [None, 42, ["<p>x</p>"]])
def test_wrong_html_type_is_a_one_line_type_error(call, bad):
    with pytest.raises(TypeError) as e:
        call(bad)
    msg = str(e.value)
    assert msg == f"html must be str or bytes, not {type(bad).__name__}", msg
    assert "\n" not in msg


def test_trafilatura_positional_call(example_html):
    # trafilatura: extract(filecontent, url=None, record_id=None, ...)
    assert unchaff.extract(example_html, URL, None) == unchaff.extract(example_html, URL)
    d = unchaff.extract(example_html, URL, "rec-7", output_format="python")
    assert d["id"] == "rec-7" and d["url"] == URL


def test_none_where_trafilatura_gives_none(example_html):
    empty_page = "<html><head><title>T</title></head><body></body></html>"
    for fmt in ("txt", "markdown", "json", "python"):
        assert unchaff.extract(empty_page, output_format=fmt) is None, fmt
    assert unchaff.extract(empty_page, errors="raise") == ""
    for not_a_page in (b"", b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage"):
        assert unchaff.extract(not_a_page) is None
        with pytest.raises(unchaff.UnchaffError):
            unchaff.extract(not_a_page, errors="raise")
    # A page of menus, a section index and a footer has no main content:
    # None, as trafilatura's, not the footer's links (it gave them).
    nav = "".join(f"<li><a href=/s{i}>Section {i}</a></li>" for i in range(12))
    navigation_only = (
        "<html><head><title>Sections | The Courier</title></head><body>"
        f"<header><nav class=main-nav><ul>{nav}</ul></nav></header>"
        "<footer class=site-footer><ul><li><a href=/about>About us</a></li>"
        "<li><a href=/privacy>Privacy policy</a></li><li><a href=/terms>Terms of use</a></li></ul>"
        "<div class=newsletter><h3>Stay informed</h3><p>Sign up for our morning briefing.</p></div>"
        "<p class=copyright>&copy; 2026 The Courier Ltd. All rights reserved.</p></footer></body></html>"
    )
    assert unchaff.extract(navigation_only) is None
    # Option errors are raised whatever errors says.
    with pytest.raises(unchaff.UnknownAlgorithmError):
        unchaff.extract(example_html, algorithm="nope")
    with pytest.raises(unchaff.BadOptionError):
        unchaff.extract(example_html, errors="ignore")


def test_python_dict_fields(example_html):
    d = unchaff.extract(example_html, URL, output_format="python")
    assert 0.0 <= d["confidence"] <= 1.0
    assert d["page_type"] in {"article", "forum", "product", "listing", "documentation", "other"}
    assert d["pagetype"] == d["page_type"]
    assert len(d["fingerprint"]) == 16 and int(d["fingerprint"], 16) >= 0
    assert "comments" in d
    # The fingerprint is the text's: the same page, the same value; another text, another.
    other = unchaff.extract(ARTICLE, output_format="python")
    assert unchaff.extract(example_html, URL, output_format="python")["fingerprint"] == d["fingerprint"]
    assert other["fingerprint"] != d["fingerprint"]


def test_comments_apart_in_the_python_dict():
    page = (
        "<html><body><article><h1>Apples</h1>"
        + "<p>Apples fall far from the trees in autumn, says everyone who keeps an old orchard.</p>" * 6
        + "</article><section id=comments class=comments><h2>Comments</h2>"
        "<div class=comment><span class=comment-author>Ann</span><p>I grow the red ones in my garden, they keep well.</p></div>"
        "<div class=comment><span class=comment-author>Bob</span><p>Green ones are better for baking pies in the winter.</p></div>"
        "<form id=respond><textarea></textarea><button>Post comment</button></form>"
        "</section></body></html>"
    )
    d = unchaff.extract(page, output_format="python")
    assert "Green ones" not in d["text"]
    assert d["comments"] is not None
    assert "Ann:" in d["comments"] and "Bob:" in d["comments"], d["comments"]
    assert "Green ones are better" in d["comments"]
    assert "Post comment" not in d["comments"]


def test_selectors_and_target_language():
    assert unchaff.extract(ARTICLE, target_selector=".note") == "A note on pears."
    pruned = unchaff.extract(ARTICLE, prune_selector=["article p", ".note"], errors="raise")
    assert "Apples fall" not in pruned and "pears" not in pruned
    assert "Apples fall" in unchaff.extract(ARTICLE)
    with pytest.raises(unchaff.BadOptionError, match="selector"):
        unchaff.extract(ARTICLE, prune_selector="div[")
    assert unchaff.extract(GERMAN, target_language="en") is None
    assert "Äpfel fallen" in unchaff.extract(GERMAN, target_language=["en", "de"])
    ex = unchaff.Extractor(target_language="de")
    assert ex.extract_many([ARTICLE, GERMAN])[0] is None


def test_xml_output_in_trafilaturas_shape(example_html):
    import xml.etree.ElementTree as ET

    out = unchaff.extract(example_html, URL, output_format="xml")
    doc = ET.fromstring(out)
    assert doc.tag == "doc"
    assert doc.get("url") == URL and doc.get("hostname") == "www.example.org"
    assert doc.get("title") == "How the river town rebuilt its bridge"
    main = doc.find("main")
    assert main is not None
    assert "For ninety years" in "".join(main.itertext())
    assert doc.get("fingerprint")


def _site_page(n: int) -> str:
    boiler = (
        "Subscribe to the Valley Courier for the news of the valley, every morning in your inbox, "
        "free of charge, with the weather and the markets."
    )
    story = f"Story number {n} tells of the river and the town, of the bridge and of the people who crossed it. " * 3
    return f"<html><body><article><h1>Story {n}</h1><p>{story}</p><p>{boiler}</p></article></body></html>"


def test_deduplicate_drops_a_sites_repeated_segments_in_order():
    """trafilatura's deduplicate: a segment seen on two earlier pages of the site goes."""
    boiler = "Subscribe to the Valley Courier"
    pages = [(_site_page(i), f"https://courier.example/{i}") for i in range(4)]
    pages.append((_site_page(9), "https://other.example/9"))
    plain = unchaff.Extractor().extract_many(pages)
    assert all(boiler in t for t in plain)
    for threads in (1, None):
        ex = unchaff.Extractor(deduplicate=True)
        out = ex.extract_many(pages, threads=threads)
        assert [boiler in t for t in out] == [True, True, False, False, True], out
        assert all("Story number" in t for t in out)
    # The python dict's text, and Markdown's paragraphs, likewise.
    ex = unchaff.Extractor(output_format="python", deduplicate=True)
    texts = [d["text"] for d in ex.extract_many(pages)]
    assert [boiler in t for t in texts] == [True, True, False, False, True]
    ex = unchaff.Extractor(output_format="markdown", deduplicate=True)
    md = ex.extract_many(pages)
    assert [boiler in t for t in md] == [True, True, False, False, True]
    assert "deduplicate=True" in repr(ex)
    with pytest.raises(unchaff.BadOptionError, match="deduplicate"):
        unchaff.Extractor(output_format="json", deduplicate=True)


def test_extract_deduplicate_remembers_across_calls():
    boiler = "Subscribe to the Valley Courier"
    # A site of its own, so other tests' calls do not count.
    got = [
        boiler in unchaff.extract(_site_page(i), f"https://dedup-calls.example/{i}", deduplicate=True)
        for i in range(3)
    ]
    assert got == [True, True, False]
