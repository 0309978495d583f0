"""extract_many against extract, page by page, on the dev data."""

from __future__ import annotations

import pytest

import unchaff


def _one_by_one(ex, pages):
    out = []
    for _, html, url in pages:
        try:
            out.append(ex.extract(html, url))
        except unchaff.UnchaffError as e:
            out.append(("error", type(e).__name__, str(e)))
    return out


def _normalise(results):
    return [("error", type(r).__name__, str(r)) if isinstance(r, BaseException) else r for r in results]


@pytest.mark.parametrize("output_format", ["txt", "python"])
@pytest.mark.parametrize("threads", [None, 1, 2])
def test_extract_many_equals_extract(dev_pages, output_format, threads):
    assert len(dev_pages) >= 200
    ex = unchaff.Extractor(output_format=output_format)
    expected = _one_by_one(ex, dev_pages)
    got = ex.extract_many([(html, url) for _, html, url in dev_pages], threads=threads, errors="return")
    assert len(got) == len(expected)
    for (pid, _, _), g, e in zip(dev_pages, _normalise(got), expected):
        assert g == e, pid


def test_module_extract_equals_extractor(dev_pages):
    ex = unchaff.Extractor(output_format="markdown", include_links=True)
    for pid, html, url in dev_pages[::10]:
        try:
            want = ex.extract(html, url)
        except unchaff.UnchaffError:
            continue
        assert unchaff.extract(html, url, output_format="markdown", include_links=True) == want, pid


def test_utf8_pages_as_str_match_bytes(dev_pages):
    from conftest import gunzip_if_needed

    ex = unchaff.Extractor(output_format="python")
    checked = 0
    for pid, html, url in dev_pages:
        raw = gunzip_if_needed(html)
        try:
            d = ex.extract(raw, url)
        except unchaff.UnchaffError:
            continue
        if d["charset"] != "UTF-8":
            continue
        try:
            s = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        assert ex.extract(s, url)["text"] == d["text"], pid
        checked += 1
    assert checked >= 100, checked
