"""Input and arguments built to hurt (issue 41): each case is generated
here, and each test fails without its fix. Cases that used to kill or hang
the interpreter run in a child process with a time limit, so that they fail
instead of taking the test run down."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap

import pytest

import unchaff
from conftest import http_response, warc_record

#: Seconds a child process gets; the cases finish in a second or two.
CHILD_TIMEOUT = 60


def run_child(code: str) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter (this one's, with this package)."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=CHILD_TIMEOUT,
    )


def test_a_warc_declaring_a_huge_length_reads_without_aborting(tmp_path):
    """A 100 GB Content-Length made the reader reserve 100 GB up front:
    SIGABRT, interpreter gone. The body is read as it comes now: the record
    is cut short (one error), and the record after it is read."""
    page = b"<html><body><p>" + b"A page after the broken one. " * 10 + b"</p></body></html>"
    huge = warc_record("response", "https://a.example/", http_response(b"<p>x"), rid="huge")
    # The WARC header's Content-Length comes first (the HTTP one is in the block).
    huge = re.sub(rb"Content-Length: \d+", b"Content-Length: 100000000000", huge, count=1)
    path = tmp_path / "huge.warc"
    path.write_bytes(huge + warc_record("response", "https://b.example/", http_response(page), rid="after"))
    assert len(huge) < 400
    child = run_child(
        f"""
        import unchaff
        recs = list(unchaff.read_warc({str(path)!r}))
        print([(r.record_id, r.error.split(":")[0] if r.error else None) for r in recs])
        """
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "[('urn:uuid:huge', 'truncated'), ('urn:uuid:after', None)]", child.stdout


def test_a_damaged_record_is_one_error_and_the_next_is_read(tmp_path):
    """A record cut short with the next one appended right after the cut
    cost the next record too."""
    page = b"<html><body><p>" + b"Words of the page. " * 20 + b"</p></body></html>"
    recs = [warc_record("response", f"https://a.example/{i}", http_response(page), rid=f"r{i}") for i in range(4)]
    cut = recs[1][: len(recs[1]) - 60]
    path = tmp_path / "cut.warc"
    path.write_bytes(recs[0] + cut + recs[2] + recs[3])
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = [(r.record_id, r.error is None) for r in unchaff.read_warc(path)]
    assert got == [("urn:uuid:r0", True), ("urn:uuid:r1", False), ("urn:uuid:r2", True), ("urn:uuid:r3", True)]


def test_extractor_timeout():
    """Extractor(timeout=...) stops a slow page inside its stages."""
    ex = unchaff.Extractor(timeout=1e-9)
    page = "<html><body>" + "<p>A paragraph of the page, long enough to be kept.</p>" * 2000
    with pytest.raises(unchaff.ExtractionTimeoutError) as e:
        ex.extract(page)
    assert e.value.kind == "timeout" and isinstance(e.value, unchaff.UnchaffError)
    assert "time limit" in str(e.value)
    assert "A paragraph" in unchaff.Extractor(timeout=60).extract(page)
    assert "A paragraph" in unchaff.extract(page, timeout=60)
    with pytest.raises(unchaff.ExtractionTimeoutError):
        unchaff.extract(page, timeout=1e-9)
    for bad in (0, -1, float("nan")):
        with pytest.raises(unchaff.BadOptionError):
            unchaff.Extractor(timeout=bad)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs os.mkfifo (a FIFO model file)")
def test_reading_a_model_file_releases_the_gil(tmp_path):
    """Extractor(params={"model": FIFO}) held the GIL while it waited for
    the FIFO: no other Python thread ran (here: the one that would write
    to it), and the interpreter hung. The child writes junk into the FIFO
    from its main thread while another thread builds the extractor."""
    fifo = tmp_path / "model.json"
    os.mkfifo(fifo)
    child = run_child(
        f"""
        import threading, unchaff
        out = []
        def build():
            try:
                unchaff.Extractor(params={{"model": {str(fifo)!r}}})
                out.append("built")
            except unchaff.UnchaffError as e:
                out.append(type(e).__name__)
        t = threading.Thread(target=build)
        t.start()
        with open({str(fifo)!r}, "wb") as f:
            f.write(b"this is not a model")
        t.join()
        print(out)
        """
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() in ("['UnchaffError']", "['BadOptionError']"), child.stdout


def test_an_endless_iterable_is_an_error_not_an_abort():
    """extract_many(itertools.repeat(page)) collected pages until memory
    ran out and the process aborted."""
    child = run_child(
        """
        import itertools, unchaff
        try:
            unchaff.Extractor().extract_many(itertools.repeat("<p>x</p>"))
        except unchaff.BadOptionError as e:
            print("refused:", "at most" in str(e))
        """
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "refused: True", child.stdout


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc/self/task (Linux)")
def test_thread_counts_are_capped():
    """threads=10000 started 10,000 threads (and 2**63 could not start);
    the pool is capped at the cores times a few, and at the pages."""
    child = run_child(
        """
        import os, unchaff
        ex = unchaff.Extractor()
        pages = ["<p>page %d</p>" % i for i in range(6)]
        for n in (10_000, 2**63):
            out = ex.extract_many(pages, threads=n)
            assert out == ["page %d" % i for i in range(6)], out
            print(len(os.listdir("/proc/self/task")))
        """
    )
    assert child.returncode == 0, child.stderr
    counts = [int(x) for x in child.stdout.split()]
    assert len(counts) == 2 and all(c <= 6 + 8 for c in counts), counts


def test_front_matter_is_valid_yaml_whatever_the_values():
    """A title with ': ' in it made the front matter invalid YAML."""
    page = (
        "<html><head><title>Breaking: the river # rises</title>"
        '<meta name="author" content="&quot;Quoted&quot; Name \\ Slash">'
        '<meta name="description" content="- a dash first">'
        "</head><body><article><p>" + "The river rose again overnight, the town says. " * 10 + "</p></article></body></html>"
    )
    out = unchaff.extract(page, "https://example.org/a", with_metadata=True)
    head = out.split("---\n")[1]
    assert 'title: "Breaking: the river # rises"\n' in head, head
    assert 'author: "\\"Quoted\\" Name \\\\ Slash"\n' in head, head
    assert 'description: "- a dash first"\n' in head, head
    assert "hostname: example.org\n" in head, head
    try:
        import yaml
    except ImportError:
        return
    meta = yaml.safe_load(head)
    assert meta["title"] == "Breaking: the river # rises"
    assert meta["author"] == '"Quoted" Name \\ Slash'
    assert meta["description"] == "- a dash first"
