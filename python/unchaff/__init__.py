"""unchaff: the main content of web pages, without the chaff.

A Rust extractor (navigation, ads, related links, footers, cookie banners and
share bars dropped; the article, post or documentation text kept) behind a
trafilatura-shaped API, so that switching is a one-line change::

    import unchaff
    text = unchaff.extract(html)                       # str or bytes
    md = unchaff.extract(html, url, output_format="markdown", include_links=True)
    meta = unchaff.extract_metadata(html, url)         # dict

For many pages build an :class:`Extractor` once; ``extract_many`` runs a list
of pages on all cores with the GIL released::

    ex = unchaff.Extractor(output_format="python")
    rows = ex.extract_many([(html, url) for html, url in pages])

``read_warc(path)`` streams the HTML responses of a WARC file;
``unchaff.spark`` adds extraction columns to a Spark DataFrame.

Errors are ``ValueError`` subclasses (:class:`UnchaffError` and one class per
kind). As trafilatura's, :func:`extract` returns ``None`` when the page has no
main content or is not a page (empty, binary, corrupt gzip); with
``errors="raise"`` it raises instead (and returns ``""`` for a page without
main content). :class:`Extractor` always raises.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any, Iterator, NamedTuple, Optional, Union

from ._unchaff import (
    ALGORITHMS,
    BadOptionError,
    BinaryInputError,
    EmptyInputError,
    ExtractionTimeoutError,
    Extractor,
    GzipError,
    InputTooLargeError,
    UnchaffError,
    UnknownAlgorithmError,
    UnknownCharsetError,
    WarcError,
    WarcReader,
    __version__,
    _metadata,
)

__all__ = [
    "ALGORITHMS",
    "BadOptionError",
    "BinaryInputError",
    "EmptyInputError",
    "ExtractionTimeoutError",
    "Extractor",
    "GzipError",
    "InputTooLargeError",
    "UnchaffError",
    "UnknownAlgorithmError",
    "UnknownCharsetError",
    "WarcError",
    "WarcWarning",
    "WarcRecord",
    "__version__",
    "extract",
    "extract_metadata",
    "read_warc",
]

#: How many differently-configured extractors ``extract`` keeps built.
_CACHED_EXTRACTORS = 32


@functools.lru_cache(maxsize=_CACHED_EXTRACTORS)
def _extractor(
    output_format: str,
    include_comments: bool,
    include_tables: bool,
    include_links: bool,
    include_images: bool,
    favor_precision: bool,
    favor_recall: bool,
    with_metadata: bool,
    algorithm: str,
    prune_selector: Optional[tuple],
    target_selector: Optional[tuple],
    target_language: Optional[tuple],
    timeout: Optional[float],
    deduplicate: bool,
) -> Extractor:
    return Extractor(
        output_format=output_format,
        include_comments=include_comments,
        include_tables=include_tables,
        include_links=include_links,
        include_images=include_images,
        favor_precision=favor_precision,
        favor_recall=favor_recall,
        with_metadata=with_metadata,
        algorithm=algorithm,
        prune_selector=list(prune_selector) if prune_selector else None,
        target_selector=list(target_selector) if target_selector else None,
        target_language=list(target_language) if target_language else None,
        timeout=timeout,
        deduplicate=deduplicate,
    )


def _strings(v: Any, what: str) -> Optional[tuple]:
    """A ``str`` or a list of them as a hashable tuple (``None``: none)."""
    if v is None:
        return None
    if isinstance(v, str):
        return (v,)
    if isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
        return tuple(v)
    raise TypeError(f"{what} must be a str or a list of str, not {type(v).__name__}")


#: The errors of a page that is not one (``errors="none"`` turns them into
#: ``None``); option errors always raise.
_PAGE_ERRORS = (EmptyInputError, BinaryInputError, GzipError, InputTooLargeError, UnknownCharsetError)

#: What ``extract`` does about a page that is not one.
_EXTRACT_ERROR_POLICIES = ("none", "raise")


def extract(
    html: Union[str, bytes],
    url: Optional[str] = None,
    record_id: Optional[str] = None,
    *,
    output_format: str = "txt",
    include_comments: bool = False,
    include_tables: bool = True,
    include_links: bool = False,
    include_images: bool = False,
    favor_precision: bool = False,
    favor_recall: bool = False,
    with_metadata: bool = False,
    algorithm: str = "auto",
    charset: Optional[str] = None,
    prune_selector: Union[str, list, None] = None,
    target_selector: Union[str, list, None] = None,
    target_language: Union[str, list, None] = None,
    errors: str = "none",
    timeout: Optional[float] = None,
    deduplicate: bool = False,
) -> Any:
    """Extract the main content of one web page.

    Arguments (trafilatura's names and meanings where they overlap):

    html
        The page, ``str`` or ``bytes``. Bytes are decoded the way a browser
        would (HTTP ``charset``, BOM, ``<meta>``, then detection) and may be
        gzip-compressed; a ``str`` is used as it is.
    url
        The page's URL: reported in the output, used to resolve relative
        links and images, and to tell the site to site-aware algorithms.
    record_id
        An id of the page (trafilatura's third positional argument): the
        ``"id"`` of an ``output_format="python"`` dict.
    output_format
        ``"txt"`` (plain text, one block a line; the default), ``"markdown"``
        (headings, lists, tables, code, quotes, emphasis), ``"html"`` (a
        clean HTML fragment: whitelisted tags and attributes only),
        ``"json"`` (unchaff's JSON object, schema 1: text, markdown,
        metadata, charset, confidence, page_type, ...) or ``"python"`` (a
        ``dict`` of the text and the metadata, with ``confidence``,
        ``page_type`` (also as trafilatura's ``pagetype``), ``fingerprint``
        (a SimHash of the text, 16 hex digits), ``comments`` (the comment
        section apart from the text, each comment's author on its own line,
        or ``None``) and ``id``), or ``"xml"`` (trafilatura's XML shape:
        ``<doc>`` with the metadata as attributes, ``<main>`` with the
        content; docs/json-schema.md). trafilatura's ``"csv"`` and
        ``"xmltei"`` raise :class:`BadOptionError`.
    include_comments
        Keep the prose of comment sections (off by default, unlike
        trafilatura, whose default is on). ``algorithm="auto"`` only.
    include_tables
        ``True`` (the default) keeps tables that belong to the main content;
        ``False`` leaves out data tables (a table with a header, or without
        blocks of prose in its cells), while a table that lays the page out
        is kept. The ``cetr*`` algorithms, which select source lines, ignore it.
    include_links
        Markdown: write links as ``[text](href)``, resolved against ``url``
        or the page's ``<base>``. (Clean HTML always keeps its links; plain
        text never has them.)
    include_images
        Markdown: write images as ``![alt](src)``.
    favor_precision
        Keep fewer, surer blocks: the ``auto`` classifier's decision
        threshold goes from 0.5 to 0.65. ``algorithm="auto"`` only.
    favor_recall
        Keep more, less sure blocks: the threshold goes to 0.35.
        ``algorithm="auto"`` only; not together with ``favor_precision``.
    with_metadata
        Put the page's metadata (title, author, url, hostname, description,
        sitename, date, modified, language, canonical, image, license,
        categories, tags) in the output:
        YAML-style front matter between ``---`` lines before text and
        Markdown, ``<meta>`` tags in an HTML document's head. ``"json"`` and
        ``"python"`` always carry it.
    algorithm
        The extraction algorithm, one of :data:`ALGORITHMS`; ``"auto"`` (a
        boosted-tree block classifier) is the default and the best.
    charset
        The charset from the HTTP ``Content-Type`` header, when known: it
        beats the page's own declaration, as in browsers (bytes only).
    prune_selector
        A CSS selector (or a list of them) of elements removed before
        extracting, as trafilatura's ``prune_xpath``: never content.
    target_selector
        A CSS selector (or a list): the content is exactly what it matches,
        in document order; the algorithm does not run.
    target_language
        An ISO 639-1 code (or a list): a page whose text is detected as
        another language gives ``None``, as trafilatura's.
    errors
        ``"none"`` (the default, trafilatura's behaviour): ``None`` when the
        page has no main content or is not a page. ``"raise"``: an empty
        string when it has no main content, and the errors below raised.
    timeout
        Give up on the page after this many seconds: the deadline is
        checked inside every stage, and a page past it raises
        :class:`ExtractionTimeoutError`. ``None`` (the default): no
        deadline; set one for pages you do not trust.
    deduplicate
        Drop from the text the segments (lines of text, paragraphs of
        Markdown, of 85 characters or more) already seen on two earlier
        pages of the same site in this process, as trafilatura's
        ``deduplicate``: a site's boilerplate that the extraction kept. The
        memory is the cached extractor's, shared by every call with the
        same options (in :meth:`Extractor.extract_many`, pages are filtered
        in the order given, so the result does not depend on ``threads``).
        Text, Markdown and ``"python"``'s ``text`` only.

    Returns a ``str`` (``dict`` for ``"python"``), or ``None`` as ``errors``
    says. With ``errors="raise"``, raises :class:`EmptyInputError`,
    :class:`BinaryInputError`, :class:`GzipError`,
    :class:`UnknownCharsetError` or :class:`InputTooLargeError` (all
    :class:`UnchaffError`, a ``ValueError``) for input that is not a page.
    Whatever ``errors`` says, :class:`BadOptionError` /
    :class:`UnknownAlgorithmError` for bad options, and ``TypeError`` when
    ``html`` is not ``str`` or ``bytes``.

    Extractors are built once per combination of options and cached; for
    many pages, :meth:`Extractor.extract_many` runs them in parallel.
    """
    if errors not in _EXTRACT_ERROR_POLICIES:
        raise BadOptionError(f"errors must be one of {', '.join(_EXTRACT_ERROR_POLICIES)}, not {errors!r}")
    if not isinstance(html, (str, bytes, bytearray, memoryview)):
        raise TypeError(f"html must be str or bytes, not {type(html).__name__}")
    ex = _extractor(
        output_format,
        include_comments,
        include_tables,
        include_links,
        include_images,
        favor_precision,
        favor_recall,
        with_metadata,
        algorithm,
        _strings(prune_selector, "prune_selector"),
        _strings(target_selector, "target_selector"),
        _strings(target_language, "target_language"),
        timeout,
        deduplicate,
    )
    if isinstance(html, (bytearray, memoryview)):
        html = bytes(html)
    try:
        out = ex.extract(html, url, charset)
    except _PAGE_ERRORS:
        if errors == "raise":
            raise
        return None
    if isinstance(out, dict):
        out["id"] = record_id
        empty = not out["text"].strip()
    else:
        empty = out is not None and not _content(out, output_format)
    if empty and errors == "none":
        return None
    return out


def _content(out: str, output_format: str) -> bool:
    """Whether an output holds any main content (JSON: its text)."""
    if output_format == "json":
        import json

        return bool(json.loads(out).get("text", "").strip())
    return bool(out.strip())


def extract_metadata(
    html: Union[str, bytes],
    url: Optional[str] = None,
    *,
    charset: Optional[str] = None,
) -> dict:
    """The metadata of one web page, as a ``dict``.

    Keys: ``title`` (the article's title), ``author`` (``"; "`` between
    several), ``url`` (the one given, else the page's canonical URL),
    ``hostname``, ``description``, ``sitename`` (the page's own name for
    its site, else its host), ``date`` (publication, ISO 8601),
    ``modified``, ``language``, ``canonical``, ``image`` (the preview
    image's URL), ``license`` (``"CC BY-SA 4.0"``, or a licence link's
    text), ``categories`` and ``tags`` (lists), ``page_title`` (the
    ``<title>`` as written) and ``charset`` (the one the page was decoded
    with); absent
    values are ``None``. ``html``, ``url`` and ``charset`` are as for
    :func:`extract`, and so are the errors. (trafilatura returns a
    ``Document`` object; its ``as_dict()`` has the same names for the fields
    both have.)
    """
    return _metadata(html, url, charset)


class WarcRecord(NamedTuple):
    """One HTML response record of a WARC file (see :func:`read_warc`)."""

    #: ``WARC-Target-URI``.
    url: Optional[str]
    #: ``WARC-Date``.
    date: Optional[str]
    #: The HTTP status code.
    status: Optional[int]
    #: The HTTP ``Content-Type``'s MIME type, lower case.
    content_type: Optional[str]
    #: The page's bytes (the HTTP body, de-chunked); ``None`` when ``error``.
    html: Optional[bytes]
    #: The ``charset=`` of the HTTP ``Content-Type``, when a browser knows it.
    charset: Optional[str]
    #: ``WARC-Record-ID``, without ``<>``.
    record_id: Optional[str]
    #: ``None``, or why there is no body: ``"truncated: ..."`` (the record
    #: was cut short), ``"framing: ..."`` (its ``Content-Length`` does not
    #: match its content; reading resumed at the next record) or
    #: ``"too_large: ..."``.
    error: Optional[str]


class WarcWarning(UserWarning):
    """A stretch of a WARC file that is not a record (garbage between
    records, a corrupt gzip member, a file that is not WARC at all), issued
    by :func:`read_warc` with ``errors="warn"`` before it reads on."""


#: What ``read_warc`` does about a stretch of the file that is not a record.
_WARC_ERROR_POLICIES = ("warn", "raise", "ignore")


#: ``read_warc``'s ``status`` values.
_WARC_STATUS = ("2xx", "all")


def read_warc(
    path: Any, *, max_bytes: Optional[int] = None, errors: str = "warn", status: str = "2xx"
) -> Iterator[WarcRecord]:
    """Stream the HTML response records of a ``.warc`` or ``.warc.gz`` file.

    Yields :class:`WarcRecord` tuples ``(url, date, status, content_type,
    html, charset, record_id, error)`` in file order, one record in memory
    at a time: ``response`` records whose HTTP ``Content-Type`` is
    ``text/html`` or ``application/xhtml+xml``; other records are skipped
    unread. This is the reader of ``unchaff batch`` (the ``unchaff-batch``
    crate). Pass ``html`` and ``charset`` to :func:`extract` to get what
    ``unchaff batch`` gets.

    ``max_bytes``: records with a larger HTTP body are skipped unread and
    yielded with ``html=None`` and a ``too_large`` error. A record whose
    body is broken (cut short, wrong ``Content-Length``) is yielded with
    ``html=None`` and its error, and reading goes on with the next record.

    ``errors``: what to do about a stretch of the file that is not a record
    (garbage between records, a corrupt gzip member, a file that is not
    WARC at all): ``"warn"`` (default) issues a :class:`WarcWarning` and
    reads on from the next record, as ``unchaff batch`` does (it counts
    them as warnings); ``"raise"`` raises :class:`WarcError` there;
    ``"ignore"`` reads on silently. A file that cannot be opened raises
    ``OSError`` whatever ``errors`` says.

    ``status``: ``"2xx"`` (default) yields only responses whose HTTP status
    is 2xx, as ``unchaff batch`` does (a 404 page is not the page);
    ``"all"`` yields every status, as ``unchaff batch --all-status``.
    """
    if errors not in _WARC_ERROR_POLICIES:
        raise BadOptionError(f"errors must be one of {', '.join(_WARC_ERROR_POLICIES)}, not {errors!r}")
    if status not in _WARC_STATUS:
        raise BadOptionError(f"status must be one of {', '.join(_WARC_STATUS)}, not {status!r}")
    return _records(WarcReader(path, max_bytes), path, errors, status == "2xx")


def _records(reader: WarcReader, path: Any, errors: str, only_2xx: bool) -> Iterator[WarcRecord]:
    """The records of ``reader``, broken stretches handled as ``errors`` says."""
    while True:
        try:
            t = next(reader)
        except StopIteration:
            return
        except WarcError as e:
            # The reader has moved past the broken stretch: reading on
            # resumes at the next record.
            if errors == "raise":
                raise
            if errors == "warn":
                warnings.warn(f"{path}: {e}", WarcWarning, stacklevel=2)
            continue
        r = WarcRecord(*t)
        # As the batch reader: a record without a status line is kept.
        if only_2xx and r.status is not None and not 200 <= r.status < 300:
            continue
        yield r
