"""read_warc: the batch crate's WARC reader, from Python."""

from __future__ import annotations

import gzip

import pytest

import unchaff
from conftest import http_response, warc_record, write_warc

PAGE = b"<html><head><title>T</title></head><body><article><p>" + b"Some article text. " * 20 + b"</p></article></body></html>"


@pytest.mark.parametrize("name", ["crawl.warc", "crawl.warc.gz"])
def test_html_responses_only_in_order(tmp_path, name):
    chunked = b"10\r\n" + PAGE[:16] + b"\r\n" + format(len(PAGE) - 16, "x").encode() + b"\r\n" + PAGE[16:] + b"\r\n0\r\n\r\n"
    warc = write_warc(
        tmp_path / name,
        [
            warc_record("warcinfo", "", b"software: test\r\n"),
            warc_record("request", "https://a.example/", b"GET / HTTP/1.1\r\n\r\n"),
            warc_record("response", "https://a.example/", http_response(PAGE, "text/html; charset=ISO-8859-1"), rid="one"),
            warc_record("response", "https://a.example/logo.png", http_response(b"\x89PNG", "image/png")),
            warc_record("response", "https://b.example/", http_response(chunked, extra="Transfer-Encoding: chunked\r\n"), rid="two"),
            warc_record("metadata", "https://b.example/", b"fetchTimeMs: 12\r\n"),
        ],
    )
    recs = list(unchaff.read_warc(warc))
    assert [r.url for r in recs] == ["https://a.example/", "https://b.example/"]
    a, b = recs
    assert isinstance(a, unchaff.WarcRecord)
    assert a.record_id == "urn:uuid:one" and a.status == 200 and a.content_type == "text/html"
    assert a.charset == "ISO-8859-1" and a.date == "2024-05-01T12:00:00Z"
    assert a.html == PAGE and a.error is None
    assert b.html == PAGE and b.charset is None  # de-chunked
    text = unchaff.extract(a.html, a.url, charset=a.charset)
    assert text.startswith("Some article text.")


def test_too_large_and_truncated(tmp_path):
    big = write_warc(tmp_path / "big.warc", [warc_record("response", "https://a.example/", http_response(PAGE))])
    (r,) = unchaff.read_warc(big, max_bytes=100)
    assert r.html is None and r.error.startswith("too_large: ")
    whole = warc_record("response", "https://a.example/", http_response(PAGE))
    cut = tmp_path / "cut.warc"
    cut.write_bytes(whole + whole[: len(whole) - 200])
    recs = list(unchaff.read_warc(cut))
    assert recs[0].html == PAGE
    assert recs[1].html is None and recs[1].error.startswith("truncated: ")


def test_not_a_warc_and_missing_files(tmp_path):
    junk = tmp_path / "junk.warc.gz"
    junk.write_bytes(gzip.compress(b"this is not a WARC file\r\n\r\n"))
    with pytest.warns(unchaff.WarcWarning):
        assert list(unchaff.read_warc(junk)) == []
    with pytest.raises(unchaff.WarcError) as e:
        list(unchaff.read_warc(junk, errors="raise"))
    assert isinstance(e.value, ValueError)
    with pytest.raises(FileNotFoundError):
        unchaff.read_warc(tmp_path / "missing.warc")
    with pytest.raises(unchaff.BadOptionError, match="errors must be one of"):
        unchaff.read_warc(junk, errors="skip")


def test_reads_on_past_broken_stretches(tmp_path):
    """Garbage between records, a wrong Content-Length and a record the
    reader does not extract (a Heritrix `dns:` response) cost no later
    record, as in `unchaff batch`: each good record is yielded, the broken
    stretch is one warning, the record with the wrong length one error."""
    good = [warc_record("response", f"https://a.example/{i}", http_response(PAGE), rid=f"g{i}") for i in range(4)]
    body = http_response(PAGE)
    bad_length = warc_record("response", "https://a.example/bad", body)
    # Seven bytes more than the block has: it runs into the next record.
    bad_length = bad_length.replace(f"Content-Length: {len(body)}".encode(), f"Content-Length: {len(body) + 7}".encode(), 1)
    dns = warc_record("response", "dns:a.example", b"20240501120000\na.example. 300 IN A 10.0.0.1\n")
    warc = tmp_path / "broken.warc"
    warc.write_bytes(good[0] + b"\x00\x01 not a record at all\r\n\r\n" + good[1] + bad_length + good[2] + dns + good[3])
    with pytest.warns(unchaff.WarcWarning) as caught:
        recs = list(unchaff.read_warc(warc))
    assert [r.record_id for r in recs if r.error is None] == [f"urn:uuid:g{i}" for i in range(4)]
    broken = [r for r in recs if r.error is not None]
    assert len(broken) == 1 and broken[0].url == "https://a.example/bad", broken
    assert broken[0].error.startswith("framing: "), broken[0].error
    assert len(caught) >= 1
    import warnings as w

    with w.catch_warnings():
        w.simplefilter("error")
        assert len(list(unchaff.read_warc(warc, errors="ignore"))) == len(recs)
    with pytest.raises(unchaff.WarcError):
        list(unchaff.read_warc(warc, errors="raise"))
