#!/usr/bin/env python3
"""WARC files in, a Parquet table of extracted pages out: the shape of a
Common Crawl extraction job, on Spark with unchaff.

Locally (Spark's local mode, two cores)::

    python examples/spark_warc.py --master 'local[2]' --out pages.parquet a.warc.gz b.warc.gz

On a cluster (unchaff and pyarrow installed on every node; see the README)::

    spark-submit --master yarn --num-executors 50 examples/spark_warc.py \\
        --out s3a://bucket/pages.parquet --partitions 5000 @warc-paths.txt

Each WARC file is read by one task with ``unchaff.read_warc`` (the reader of
``unchaff batch``: HTML ``response`` records, HTTP headers stripped, chunked
bodies undone); the pages go through ``unchaff.spark.extract_columns`` (one
extractor per Python worker, Arrow batches); the table has one row per HTML
record: ``warc``, ``record_id``, ``url``, ``date`` (WARC-Date), ``status``,
``content_type``, ``charset`` (HTTP), and the extraction's ``text``,
``title``, ``published``, ``language`` and ``error``. As ``unchaff batch``,
only 2xx responses give rows (``--all-status``: every status). In local
mode the executors run this script's Python (``PYSPARK_PYTHON``, set here). The HTML itself is
not kept (``--keep-html`` keeps it).

Input paths must be files the executors' Python can open (local disk, NFS,
a FUSE mount of object storage); the output may be anywhere Spark writes.
``@FILE`` reads one path a line.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from typing import Iterator, List


def expand(paths: List[str]) -> List[str]:
    out: List[str] = []
    for p in paths:
        if p.startswith("@"):
            with open(p[1:], encoding="utf-8") as f:
                out.extend(line.strip() for line in f if line.strip())
        else:
            out.append(p)
    return out


def read_records(path: str, status: str = "2xx") -> Iterator[tuple]:
    """One WARC file's HTML records as rows (runs on the executors)."""
    import unchaff

    try:
        # As `unchaff batch`: 2xx responses only unless status="all".
        for r in unchaff.read_warc(path, status=status):
            yield (path, r.record_id, r.url, r.date, r.status, r.content_type, r.charset, r.html, r.error)
    except (OSError, unchaff.WarcError) as e:
        # The file as a whole could not be read (or stopped being WARC):
        # one row says so, the records before it are kept.
        yield (path, None, None, None, None, None, None, None, f"read: {e}")


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("warc", nargs="+", help="WARC files (.warc, .warc.gz), or @FILE listing them")
    ap.add_argument("--out", required=True, help="the Parquet table to write (a directory)")
    ap.add_argument("--master", default=None, help="Spark master (default: spark-submit's, else local[*])")
    ap.add_argument("--partitions", type=int, default=None, help="tasks reading WARCs (default: one per file)")
    ap.add_argument("--algorithm", default="auto")
    ap.add_argument("--include-comments", action="store_true")
    ap.add_argument("--keep-html", action="store_true", help="keep the html column in the output")
    ap.add_argument("--all-status", action="store_true", help="rows for every HTTP status (default: 2xx, as unchaff batch)")
    a = ap.parse_args(argv)

    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from pyspark.sql.types import BinaryType, IntegerType, StringType, StructField, StructType

    from unchaff.spark import extract_columns

    builder = SparkSession.builder.appName("unchaff-warc")
    master = a.master
    if not master and "SPARK_HOME" not in os.environ and "PYSPARK_SUBMIT_ARGS" not in os.environ:
        master = "local[*]"
    if master:
        builder = builder.master(master)
    if master and master.startswith("local"):
        # The executors are this machine's: they run this Python (with
        # unchaff installed), not whichever `python3` is first on PATH.
        python = os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        builder = builder.config("spark.pyspark.python", python)
    spark = builder.config("spark.sql.execution.arrow.maxRecordsPerBatch", "256").getOrCreate()

    paths = [os.path.abspath(p) if "://" not in p else p for p in expand(a.warc)]
    schema = StructType(
        [
            StructField("warc", StringType()),
            StructField("record_id", StringType()),
            StructField("url", StringType()),
            StructField("date", StringType()),
            StructField("status", IntegerType()),
            StructField("content_type", StringType()),
            StructField("charset", StringType()),
            StructField("html", BinaryType()),
            StructField("read_error", StringType()),
        ]
    )
    rdd = spark.sparkContext.parallelize(paths, a.partitions or len(paths)).flatMap(
        functools.partial(read_records, status="all" if a.all_status else "2xx")
    )
    pages = spark.createDataFrame(rdd, schema)
    out = extract_columns(
        pages,
        html="html",
        url="url",
        charset="charset",
        prefix="x_",
        algorithm=a.algorithm,
        include_comments=a.include_comments,
    )
    out = out.select(
        "warc",
        "record_id",
        "url",
        "date",
        "status",
        "content_type",
        "charset",
        *(["html"] if a.keep_html else []),
        F.col("x_text").alias("text"),
        F.col("x_title").alias("title"),
        F.col("x_date").alias("published"),
        F.col("x_language").alias("language"),
        # A record the reader could not give whole is its error, not "empty".
        F.coalesce(F.col("read_error"), F.col("x_error")).alias("error"),
    )
    out.write.mode("overwrite").parquet(a.out)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
