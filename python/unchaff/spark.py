"""unchaff on Spark: extraction columns for a DataFrame of HTML pages.

::

    from unchaff.spark import extract_columns
    pages = spark.read.parquet("pages.parquet")          # html (binary or string), url
    out = extract_columns(pages, html="html", url="url")
    out.select("url", "title", "date", "language", "text", "error").write.parquet("text.parquet")

The columns are added with ``DataFrame.mapInArrow`` (Spark >= 3.3): each
Python worker builds one :class:`unchaff.Extractor` per set of options (kept
for the worker's life: Spark reuses its Python workers), and extracts each
Arrow batch with :meth:`unchaff.Extractor.extract_many`, GIL released. Spark
already runs one task per executor core, so each batch runs on one thread
unless ``threads`` says otherwise.

Needs ``pyspark`` and ``pyarrow`` (``pip install "unchaff[spark]"``) on the
driver and the executors, and ``unchaff`` installed on the executors (a wheel
on every node, or ``--py-files`` will not do: the package has a native
module; see the README's Spark section).
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple

import unchaff

#: The columns ``extract_columns`` adds, in order: the main text, the
#: article's title, its publication date (ISO 8601), its language, and the
#: error (``"kind: message"``, kinds as in ``unchaff batch``; null when the
#: page was extracted).
COLUMNS = ("text", "title", "date", "language", "error")

# One extractor per set of options, per Python worker process.
_EXTRACTORS: Dict[Tuple[Tuple[str, Any], ...], "unchaff.Extractor"] = {}


def _worker_extractor(key: Tuple[Tuple[str, Any], ...]) -> "unchaff.Extractor":
    ex = _EXTRACTORS.get(key)
    if ex is None:
        ex = unchaff.Extractor(output_format="python", **dict(key))
        _EXTRACTORS[key] = ex
    return ex


def _error_text(e: BaseException) -> str:
    return f"{getattr(e, 'kind', 'extract')}: {e}"


def extract_batches(
    batches: Iterator[Any],
    html: str,
    url: Optional[str],
    charset: Optional[str],
    options: Tuple[Tuple[str, Any], ...],
    threads: Optional[int],
    names: List[str],
) -> Iterator[Any]:
    """The ``mapInArrow`` function: each ``pyarrow.RecordBatch`` with the
    extraction columns (named ``names``) appended."""
    import pyarrow as pa

    ex = _worker_extractor(options)
    for batch in batches:
        htmls = batch.column(html).to_pylist()
        n = len(htmls)
        urls = batch.column(url).to_pylist() if url else [None] * n
        charsets = batch.column(charset).to_pylist() if charset else [None] * n
        pages = [(h if h is not None else b"", u, c) for h, u, c in zip(htmls, urls, charsets)]
        results = ex.extract_many(pages, threads=threads, errors="return")
        cols: List[List[Optional[str]]] = [[] for _ in COLUMNS]
        for r in results:
            if isinstance(r, BaseException):
                row = (None, None, None, None, _error_text(r))
            else:
                row = (r["text"], r["title"], r["date"], r["language"], None)
            for c, v in zip(cols, row):
                c.append(v)
        arrays = list(batch.columns) + [pa.array(c, type=pa.string()) for c in cols]
        yield pa.RecordBatch.from_arrays(arrays, names=list(batch.schema.names) + names)


def extract_columns(
    df: Any,
    html: str = "html",
    url: Optional[str] = None,
    charset: Optional[str] = None,
    *,
    prefix: str = "",
    threads: Optional[int] = 1,
    **options: Any,
) -> Any:
    """``df`` with the extraction columns ``text``, ``title``, ``date``,
    ``language`` and ``error`` added (strings; ``prefix`` is put before
    each name).

    ``html``: the column holding the pages (``binary`` for bytes as
    fetched, decoded by unchaff's charset detection, or ``string``).
    ``url``: an optional column of page URLs; ``charset``: an optional
    column of HTTP charsets (a WARC response's ``Content-Type``), which beat
    the pages' own declarations. ``options`` are :class:`unchaff.Extractor`'s
    keywords but ``output_format`` (``algorithm``, ``include_comments``,
    ``favor_precision``, ...); they are checked here, on the driver.
    ``threads``: threads per Spark task (1: Spark's own parallelism).

    A page that cannot be extracted gets null text and its ``error``;
    the job does not fail.
    """
    from pyspark.sql.types import StringType, StructField, StructType

    if "output_format" in options:
        raise unchaff.BadOptionError("extract_columns sets its own output_format")
    key = tuple(sorted(options.items()))
    _worker_extractor(key)  # fail early, on the driver, on bad options
    names = [prefix + c for c in COLUMNS]
    clash = [n for n in names if n in df.columns]
    if clash:
        raise unchaff.BadOptionError(
            f"the DataFrame already has column(s) {clash}: pass prefix= to name the new ones"
        )
    schema = StructType(list(df.schema.fields) + [StructField(n, StringType(), True) for n in names])

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        return extract_batches(batches, html, url, charset, key, threads, names)

    return df.mapInArrow(run, schema)
