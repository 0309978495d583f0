"""Types of unchaff's native module (``unchaff._unchaff``)."""

from os import PathLike
from typing import Any, Dict, Iterable, Iterator, List, Literal, Mapping, Optional, Tuple, Union

Html = Union[str, bytes]
#: What ``Extractor.extract_many`` takes as a page.
PageSpec = Union[
    Html,
    Tuple[Html],
    Tuple[Html, Optional[str]],
    Tuple[Html, Optional[str], Optional[str]],
    Mapping[str, Any],
    None,
]
OutputFormat = Literal["txt", "text", "markdown", "md", "html", "json", "python", "xml"]

ALGORITHMS: Tuple[str, ...]
__version__: str

class UnchaffError(ValueError):
    """Base class of unchaff's errors; ``kind`` names the error as ``unchaff batch`` rows do."""

    kind: str

class EmptyInputError(UnchaffError): ...
class BinaryInputError(UnchaffError): ...
class GzipError(UnchaffError): ...
class UnknownCharsetError(UnchaffError): ...
class InputTooLargeError(UnchaffError): ...
class UnknownAlgorithmError(UnchaffError): ...
class BadOptionError(UnchaffError): ...
class WarcError(UnchaffError): ...
class ExtractionTimeoutError(UnchaffError): ...

class Extractor:
    """An extractor built once from trafilatura-shaped options, for many pages."""

    def __init__(
        self,
        *,
        output_format: OutputFormat = "txt",
        include_comments: bool = False,
        include_tables: bool = True,
        include_links: bool = False,
        include_images: bool = False,
        favor_precision: bool = False,
        favor_recall: bool = False,
        with_metadata: bool = False,
        algorithm: str = "auto",
        params: Optional[Mapping[str, Union[str, int, float, bool]]] = None,
        max_input_bytes: Optional[int] = None,
        prune_selector: Union[str, List[str], None] = None,
        target_selector: Union[str, List[str], None] = None,
        target_language: Union[str, List[str], None] = None,
        timeout: Optional[float] = None,
        deduplicate: bool = False,
    ) -> None: ...
    @property
    def output_format(self) -> str: ...
    @property
    def algorithm(self) -> str: ...
    def extract(
        self, html: Html, url: Optional[str] = None, charset: Optional[str] = None
    ) -> Any:
        """One page: ``str`` for every format but ``"python"`` (a ``dict``); ``None``
        for a page in a language ``target_language`` does not want."""
    def extract_many(
        self,
        pages: Iterable[PageSpec],
        threads: Optional[int] = None,
        errors: Literal["raise", "return"] = "raise",
    ) -> List[Any]:
        """Many pages in parallel, GIL released; results in input order."""

class WarcReader(Iterator[Tuple[Any, ...]]):
    def __init__(self, path: Union[str, "PathLike[str]"], max_bytes: Optional[int] = None) -> None: ...
    def __iter__(self) -> "WarcReader": ...
    def __next__(self) -> Tuple[
        Optional[str],
        Optional[str],
        Optional[int],
        Optional[str],
        Optional[bytes],
        Optional[str],
        Optional[str],
        Optional[str],
    ]: ...

def _metadata(
    html: Html, url: Optional[str] = None, charset: Optional[str] = None
) -> Dict[str, Any]: ...
