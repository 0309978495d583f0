"""unchaff as a datatrove extractor step.

datatrove pipelines (``WarcReader → Trafilatura → filters → writer``, the
FineWeb recipe) swap their extractor in one line::

    from unchaff.datatrove import Unchaff

    pipeline = [
        WarcReader("s3://commoncrawl/...", glob_pattern="*/warc/*"),
        Unchaff(favour_precision=True),          # was: Trafilatura(favour_precision=True)
        LanguageFilter(),
        JsonlWriter("out/"),
    ]

Install with the extra: ``pip install "./python[datatrove]"``.

Each document's ``text`` (its HTML, as the reader gives it) becomes the
extracted text, exactly what ``unchaff batch`` writes for the same record
when the page is UTF-8 (datatrove's reader decodes the bytes itself).
Documents whose extraction fails, times out, or gives no text are dropped
and counted in the step's stats, as datatrove's ``Trafilatura`` does; so
are documents below ``min_confidence`` or outside ``target_language``.
Each document kept gets ``metadata["confidence"]`` (0 to 1, an estimate of
its shingle F1: docs/RESULTS.md) and ``metadata["page_type"]``.

Unlike datatrove's ``Trafilatura``, which extracts one document at a time in
a sandbox process to enforce its timeout, this step extracts ``batch_size``
documents at a time on ``threads`` cores with the GIL released
(:meth:`unchaff.Extractor.extract_many`); the timeout is enforced inside
the extraction itself (a page past it is stopped there and dropped).
"""

from __future__ import annotations

import json
from typing import Any, Iterable, List, Optional, Union

from datatrove.data import Document, DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.utils.typeshelper import StatHints

from . import Extractor

__all__ = ["Unchaff"]

#: Documents extracted together: enough to keep every core busy behind a
#: slow page, few enough that a batch's pages stay a few MB.
DEFAULT_BATCH_SIZE = 64

#: The formats the step writes into ``text``.
_FORMATS = ("txt", "markdown")


class Unchaff(BaseExtractor):
    """The unchaff extractor as a datatrove pipeline step.

    Args:
        favour_precision: keep only the blocks the model is surest of
            (``favor_precision`` of :func:`unchaff.extract`). Default off,
            unchaff's best F1; datatrove's ``Trafilatura`` defaults it on.
        favour_recall: keep borderline blocks too.
        include_tables: keep the tables of the main content (default on).
        include_comments: merge comment sections into the text.
        include_links: Markdown output: links as ``[text](href)``.
        include_images: Markdown output: images as ``![alt](src)``.
        output_format: ``"txt"`` (plain text, the default) or ``"markdown"``.
        timeout: seconds a page may take; past it the extraction is stopped
            inside the page and the document dropped (stat ``timeout``).
        deduplicate: trafilatura's segment deduplication: a line of at least
            85 characters already seen twice on earlier pages of the same
            site is dropped from the text (as ``unchaff batch --dedup``).
            The cache belongs to the step's extractor, so it spans the
            documents of one task (one shard), in their order. Plain text
            only (``output_format="txt"``).
        min_confidence: drop documents whose confidence is below this
            (stat ``low_confidence``).
        target_language: ISO 639-1 code(s): drop documents detected as
            another language (stat ``language``).
        prune_selector: CSS selector(s) removed before extracting.
        target_selector: CSS selector(s) of the content itself.
        algorithm: one of :data:`unchaff.ALGORITHMS` (``"auto"``).
        batch_size: documents extracted together.
        threads: cores used (``None``: all; ``1``: the calling thread).
    """

    name = "🌾 unchaff"
    _requires_dependencies: List[Any] = []

    def __init__(
        self,
        favour_precision: bool = False,
        favour_recall: bool = False,
        include_tables: bool = True,
        include_comments: bool = False,
        include_links: bool = False,
        include_images: bool = False,
        output_format: str = "txt",
        timeout: float = 10.0,
        deduplicate: bool = False,
        min_confidence: Optional[float] = None,
        target_language: Union[str, List[str], None] = None,
        prune_selector: Union[str, List[str], None] = None,
        target_selector: Union[str, List[str], None] = None,
        algorithm: str = "auto",
        batch_size: int = DEFAULT_BATCH_SIZE,
        threads: Optional[int] = None,
    ):
        super().__init__(timeout)
        if output_format not in _FORMATS:
            raise ValueError(f"output_format must be one of {', '.join(_FORMATS)}, not {output_format!r}")
        if deduplicate and output_format != "txt":
            raise ValueError('deduplicate=True works on plain text: use output_format="txt"')
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        if min_confidence is not None and not 0.0 <= min_confidence <= 1.0:
            raise ValueError(f"min_confidence must be between 0 and 1, not {min_confidence}")
        self.output_format = output_format
        self.min_confidence = min_confidence
        self.batch_size = batch_size
        self.threads = threads
        self._options = dict(
            # The dict keeps the confidence and page type beside the text,
            # and is the form whose text deduplicate filters.
            output_format="python" if deduplicate else "json",
            deduplicate=deduplicate,
            favor_precision=favour_precision,
            favor_recall=favour_recall,
            include_tables=include_tables,
            include_comments=include_comments,
            include_links=include_links,
            include_images=include_images,
            algorithm=algorithm,
            prune_selector=prune_selector,
            target_selector=target_selector,
            target_language=target_language,
            timeout=timeout,
        )
        # Built now, so that bad options fail when the pipeline is made.
        self._extractor: Optional[Extractor] = Extractor(**self._options)

    def __getstate__(self):
        # datatrove pickles steps to its workers; the native extractor is
        # built again there.
        state = self.__dict__.copy()
        state["_extractor"] = None
        return state

    def _ex(self) -> Extractor:
        if self._extractor is None:
            self._extractor = Extractor(**self._options)
        return self._extractor

    def extract(self, text: str) -> str:
        """One page's HTML to its text (``""`` when it has none)."""
        out = self._ex().extract(text)
        if out is None:
            return ""
        return _field(_parsed(out), self.output_format)

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        """Extracts the documents ``batch_size`` at a time, in order."""
        batch: List[Document] = []
        for doc in data:
            self.stat_update(StatHints.total)
            batch.append(doc)
            if len(batch) >= self.batch_size:
                yield from self._batch(batch)
                batch = []
        if batch:
            yield from self._batch(batch)

    def _batch(self, docs: List[Document]) -> Iterable[Document]:
        pages = [(d.text, d.metadata.get("url")) for d in docs]
        with self.track_time(unit="batch"):
            outs = self._ex().extract_many(pages, threads=self.threads, errors="return")
        for doc, out in zip(docs, outs):
            if isinstance(out, Exception):
                kind = getattr(out, "kind", "")
                self.stat_update("timeout" if "time limit" in str(out) else "clean_error")
                if not self._warned_error:
                    from datatrove.utils.logging import logger

                    logger.warning(f'❌ unchaff: "{out}" ({kind}); skipping the document. Shown once.')
                    self._warned_error = True
                continue
            if out is None:
                self.stat_update("language")
                continue
            x = _parsed(out)
            if self.min_confidence is not None and x["confidence"] < self.min_confidence:
                self.stat_update("low_confidence")
                continue
            doc.text = _field(x, self.output_format)
            if not doc.text:
                self.stat_update(StatHints.dropped)
                continue
            doc.metadata["confidence"] = x["confidence"]
            doc.metadata["page_type"] = x.get("page_type")
            self.stat_update("extracted", StatHints.forwarded)
            self.update_doc_stats(doc)
            yield doc


def _parsed(out: Union[str, dict]) -> dict:
    """An extraction as a dict: the JSON object, or the Python dict as is."""
    return out if isinstance(out, dict) else json.loads(out)


def _field(x: dict, output_format: str) -> str:
    """The text or Markdown of an extraction's JSON object."""
    if output_format == "markdown":
        return x.get("markdown") or ""
    return x.get("text") or ""
