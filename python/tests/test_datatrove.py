"""unchaff.datatrove.Unchaff in a real datatrove pipeline: WarcReader over a
WARC made here from dev pages -> Unchaff -> JsonlWriter, local executor; each
document's text must equal `unchaff batch`'s row for the same record.

Skipped, with the reason, when datatrove (with its WARC reader's
dependencies: ``pip install "./python[datatrove]"``) is not installed;
scripts/test-all.sh installs it and says why when it cannot.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import gunzip_if_needed, http_response, load_dev_pages, unchaff_bin

SKIP = os.environ.get("UNCHAFF_DATATROVE_SKIP")
if SKIP:
    pytest.skip(f"datatrove tests skipped: {SKIP}", allow_module_level=True)
try:
    import cchardet  # noqa: F401  (datatrove's WarcReader needs them)
    import magic  # noqa: F401
    import warcio  # noqa: F401
    from datatrove.executor import LocalPipelineExecutor
    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
except ImportError as e:
    pytest.skip(
        f"datatrove is not installed ({e}): pip install './python[datatrove]'",
        allow_module_level=True,
    )

import unchaff  # noqa: E402
from unchaff.datatrove import Unchaff  # noqa: E402

#: Dev pages per folder in the WARC.
PER_FOLDER = 6


def record(uri: str, rid: str, payload: bytes) -> bytes:
    """A WARC response record whose payload type is declared (datatrove's
    reader otherwise sniffs it)."""
    head = (
        f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{rid}>\r\n"
        f"WARC-Date: 2024-05-01T12:00:00Z\r\nWARC-Target-URI: {uri}\r\n"
        "WARC-Identified-Payload-Type: text/html\r\n"
        f"Content-Type: application/http; msgtype=response\r\nContent-Length: {len(payload)}\r\n\r\n"
    )
    return head.encode("latin-1") + payload + b"\r\n\r\n"


def make_warc(path: Path) -> int:
    """A .warc.gz of UTF-8 dev pages (datatrove's reader decodes the bytes
    itself, falling back to a detector; `batch` decodes them as browsers
    do: on UTF-8 pages the two agree). Returns the number of records."""
    n = 0
    with open(path, "wb") as f:
        for i, (pid, raw, _) in enumerate(load_dev_pages(PER_FOLDER)):
            body = gunzip_if_needed(raw)
            try:
                body.decode("utf-8")
            except UnicodeDecodeError:
                continue
            uri = f"https://dev.example/{pid}"
            payload = http_response(body, "text/html; charset=utf-8")
            f.write(gzip.compress(record(uri, f"00000000-0000-0000-0000-{i:012d}", payload)))
            n += 1
    return n


def test_the_one_line_swap_in_a_datatrove_pipeline(tmp_path):
    warcs = tmp_path / "warcs"
    warcs.mkdir()
    n = make_warc(warcs / "dev.warc.gz")
    assert n >= 40, n
    out = tmp_path / "out"
    LocalPipelineExecutor(
        pipeline=[
            WarcReader(str(warcs)),
            Unchaff(batch_size=16),
            JsonlWriter(str(out), compression=None),
        ],
        tasks=1,
        logging_dir=str(tmp_path / "logs"),
    ).run()
    docs = {}
    for f in out.glob("*.jsonl"):
        for line in f.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            docs[d["metadata"]["url"]] = d
    rows_file = tmp_path / "rows.jsonl"
    subprocess.run(
        [str(unchaff_bin()), "batch", str(warcs / "dev.warc.gz"), "--out", str(rows_file), "--quiet"],
        check=True,
    )
    rows = [json.loads(line) for line in rows_file.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == n
    with_text = {r["url"]: r for r in rows if r["text"]}
    # datatrove drops a document without text; every other is batch's row.
    assert set(docs) == set(with_text)
    assert len(docs) >= n - 2
    for url, d in docs.items():
        assert d["text"] == with_text[url]["text"], url
        assert 0.0 <= d["metadata"]["confidence"] <= 1.0
        assert d["metadata"]["page_type"] in {"article", "forum", "product", "listing", "documentation", "other"}


def test_knobs_and_refusals():
    page = (
        "<html><head><title>Apples</title></head><body><article><h1>Apples</h1>"
        + "<p>Apples fall far from the trees in autumn, says everyone who keeps an old orchard.</p>" * 6
        + "</article></body></html>"
    )
    assert Unchaff().extract(page) == unchaff.extract(page)
    md = Unchaff(output_format="markdown").extract(page)
    assert "\n\n" in md and "\n\n" not in unchaff.extract(page), md
    with pytest.raises(ValueError):
        Unchaff(deduplicate=True, output_format="markdown")
    with pytest.raises(ValueError):
        Unchaff(output_format="xml")
    with pytest.raises(ValueError):
        Unchaff(min_confidence=2)
    with pytest.raises(unchaff.BadOptionError):
        Unchaff(prune_selector="div[")
    # datatrove pickles steps for its workers: the step travels without
    # its native extractor and builds it again.
    import pickle

    again = pickle.loads(pickle.dumps(Unchaff(target_language="en")))
    assert again.extract(page) == unchaff.extract(page)


def test_deduplicate_drops_a_sites_repeated_lines():
    # A site's sign-up paragraph inside every article: kept by the
    # extraction, dropped by the step once seen on two earlier pages of the
    # site, as `unchaff batch --dedup` and unchaff.extract(deduplicate=True).
    from datatrove.data import Document

    signup = (
        "Sign up for the Harbour Courier's morning letter: the day's local news, "
        "weather and events in your inbox before breakfast, free of charge."
    )
    docs = lambda: [  # noqa: E731  (the step rewrites each document's text)
        Document(
            text=(
                f"<html><head><title>Story {i}</title></head><body><article><h1>Story {i}</h1>"
                + f"<p>Story {i} tells of the harbour wall and the storm of the winter before the last, as the town remembers it.</p>" * 4
                + f"<p>{signup}</p></article></body></html>"
            ),
            id=str(i),
            metadata={"url": f"https://courier.example/news/{i}"},
        )
        for i in range(4)
    ]
    kept = [d.text for d in Unchaff(deduplicate=True, batch_size=2).run(iter(docs()))]
    assert [signup in t for t in kept] == [True, True, False, False], kept
    # Off by default: every page keeps it.
    plain = [d.text for d in Unchaff().run(iter(docs()))]
    assert all(signup in t for t in plain), plain
