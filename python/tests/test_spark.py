"""unchaff.spark and examples/spark_warc.py in Spark's local mode.

Skipped, with the reason in pytest's summary, when pyspark/pyarrow or a
Java runtime is missing (scripts/test-all.sh installs them and passes the
reason of a failed install in UNCHAFF_SPARK_SKIP).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import unchaff
from conftest import REPO, gunzip_if_needed, http_response, load_dev_pages, unchaff_bin, warc_record, write_warc


def _skip_reason():
    reason = os.environ.get("UNCHAFF_SPARK_SKIP")
    if reason:
        return reason
    try:
        import pyarrow  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError as e:
        return f"pyspark/pyarrow not installed ({e}); scripts/test-all.sh installs them"
    java_home = os.environ.get("JAVA_HOME")
    if shutil.which("java") is None and not (java_home and Path(java_home, "bin", "java").exists()):
        return "no Java runtime (java not on PATH, no JAVA_HOME); scripts/test-all.sh installs openjdk-17-jre-headless"
    return None


REASON = _skip_reason()
pytestmark = pytest.mark.skipif(REASON is not None, reason=f"Spark tests skipped: {REASON}")

#: Dev pages per folder for the Spark tests (12 folders: >= 100 pages).
PER_FOLDER = 10
#: Small Arrow batches, so that every task sees several.
ARROW_BATCH = 16


@pytest.fixture(scope="module")
def spark():
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    s = (
        SparkSession.builder.master("local[2]")
        .appName("unchaff-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(ARROW_BATCH))
        .getOrCreate()
    )
    yield s
    s.stop()


@pytest.fixture(scope="module")
def spark_pages():
    pages = load_dev_pages(PER_FOLDER)
    assert len(pages) >= 100, len(pages)
    return pages


def test_extract_columns_equals_extract(spark, spark_pages):
    from unchaff.spark import extract_columns

    rows = [(pid, gunzip_if_needed(html), url) for pid, html, url in spark_pages]
    rows.append(("empty-page", b"", None))
    df = spark.createDataFrame(rows, "id string, html binary, url string").repartition(3)
    out = extract_columns(df, html="html", url="url").drop("html").collect()
    assert len(out) == len(rows)
    ex = unchaff.Extractor(output_format="python")
    by_id = {r["id"]: r for r in out}
    for pid, html, url in rows:
        r = by_id[pid]
        try:
            d = ex.extract(html, url)
        except unchaff.UnchaffError as e:
            assert r["text"] is None and r["error"] == f"{e.kind}: {e}", pid
            continue
        assert r["error"] is None, (pid, r["error"])
        assert (r["text"], r["title"], r["date"], r["language"]) == (d["text"], d["title"], d["date"], d["language"]), pid
    assert by_id["empty-page"]["error"].startswith("empty: ")


def test_extract_columns_checks_its_options(spark):
    from unchaff.spark import extract_columns

    df = spark.createDataFrame([("<p>x</p>",)], "html string")
    with pytest.raises(unchaff.UnknownAlgorithmError):
        extract_columns(df, algorithm="nope")
    with pytest.raises(unchaff.BadOptionError, match="prefix"):
        extract_columns(df.withColumnRenamed("html", "text"), html="text")
    out = extract_columns(df, prefix="u_").collect()[0]
    assert out["u_text"] == "x" and out["u_error"] is None


def test_spark_warc_example_matches_unchaff_batch(tmp_path, spark_pages):
    """examples/spark_warc.py over a WARC of >= 100 dev pages: row by row
    the text `unchaff batch` writes for the same WARC."""
    import pyarrow.parquet as pq

    cli = unchaff_bin()
    records = [warc_record("warcinfo", "", b"software: unchaff tests\r\n")]
    for i, (pid, html, url) in enumerate(spark_pages):
        body = gunzip_if_needed(html)
        url = url or f"https://example.invalid/{pid}"
        records.append(warc_record("request", url, b"GET / HTTP/1.1\r\n\r\n"))
        # Every seventh page says its charset in the HTTP header, as servers do.
        ctype = "text/html; charset=UTF-8" if i % 7 == 3 else "text/html"
        records.append(warc_record("response", url, http_response(body, ctype), rid=f"page-{i:04d}"))
    records.append(warc_record("response", "https://example.invalid/pic", http_response(b"\x89PNG...", "image/png")))
    records.append(warc_record("response", "https://example.invalid/empty", http_response(b""), rid="page-empty"))
    # A 404 page is not the page: batch skips it, and so must the example.
    records.append(warc_record("response", "https://example.invalid/gone", http_response(b"<p>Not found</p>", status=404), rid="page-404"))
    warc = write_warc(tmp_path / "pages.warc.gz", records)

    out = tmp_path / "pages.parquet"
    # As a user runs it: the virtual environment not activated, no
    # PYSPARK_PYTHON (the example sets the executors' Python itself).
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "VIRTUAL_ENV")}
    run = subprocess.run(
        [sys.executable, str(REPO / "examples" / "spark_warc.py"), "--master", "local[2]", "--out", str(out), str(warc)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-4000:]
    table = pq.read_table(out).to_pylist()

    jsonl = tmp_path / "batch.jsonl"
    b = subprocess.run([str(cli), "batch", str(warc), "--out", str(jsonl), "--quiet"], capture_output=True, text=True, timeout=600)
    assert b.returncode == 0, b.stderr[-4000:]
    batch = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]

    assert len(table) == len(batch) == len(spark_pages) + 1
    assert "urn:uuid:page-404" not in {r["record_id"] for r in table}
    spark_by_id = {r["record_id"]: r for r in table}
    assert len(spark_by_id) == len(table)
    for row in batch:
        r = spark_by_id[row["id"]]
        assert r["url"] == row["url"], row["id"]
        assert r["text"] == row["text"], row["id"]
        if row["error"] is None:
            assert r["error"] is None, (row["id"], r["error"])
        else:
            assert r["error"].startswith(row["error"]["kind"] + ": "), (row["id"], r["error"], row["error"])
