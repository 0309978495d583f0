"""Shared helpers: the dev data, the CLI binary, a small WARC writer."""

from __future__ import annotations

import gzip
import json
import os
import uuid
from pathlib import Path
from typing import List, Optional, Tuple

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "article.html"


def data_dir() -> Optional[Path]:
    """$UNCHAFF_DATA, else ../shared/data beside the repository."""
    env = os.environ.get("UNCHAFF_DATA")
    p = Path(env) if env else REPO.parent / "shared" / "data"
    return p if p.is_dir() else None


def load_dev_pages(per_folder: int) -> List[Tuple[str, bytes, Optional[str]]]:
    """The first `per_folder` pages (by id) of every dev folder: (id, raw
    bytes as stored, gzip and all, manifest url)."""
    root = data_dir()
    if root is None:
        pytest.skip(
            "dev data absent: set UNCHAFF_DATA or put the data at ../shared/data "
            f"(looked in {REPO.parent / 'shared' / 'data'})"
        )
    pages = []
    for folder in sorted(p for p in root.iterdir() if (p / "manifest.jsonl").is_file()):
        urls = {}
        with open(folder / "manifest.jsonl", encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                urls[row["id"]] = row.get("url")
        files = sorted((folder / "pages").glob("*.html*"))[:per_folder]
        for f in files:
            pid = f.name.split(".html")[0]
            pages.append((f"{folder.name}/{pid}", f.read_bytes(), urls.get(pid)))
    if not pages:
        pytest.skip(f"no dev pages under {root}")
    return pages


@pytest.fixture(scope="session")
def dev_pages() -> List[Tuple[str, bytes, Optional[str]]]:
    """About 25 pages from each of the 12 dev folders (>= 200 in all)."""
    pages = load_dev_pages(25)
    assert len(pages) >= 200, f"only {len(pages)} dev pages"
    return pages


@pytest.fixture(scope="session")
def example_html() -> bytes:
    return EXAMPLE.read_bytes()


def unchaff_bin() -> Path:
    """The CLI built by cargo ($UNCHAFF_BIN, else target/release/unchaff)."""
    env = os.environ.get("UNCHAFF_BIN")
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    p = Path(env) if env else target / "release" / "unchaff"
    if not p.is_file():
        pytest.skip(f"the unchaff CLI is not built ({p}): run `cargo build --release -p unchaff-cli`")
    return p


def http_response(body: bytes, content_type: str = "text/html", status: int = 200, extra: str = "") -> bytes:
    head = f"HTTP/1.1 {status} OK\r\nContent-Type: {content_type}\r\n{extra}Content-Length: {len(body)}\r\n\r\n"
    return head.encode("latin-1") + body


def warc_record(rtype: str, uri: str, payload: bytes, rid: Optional[str] = None, date: str = "2024-05-01T12:00:00Z") -> bytes:
    rid = rid or str(uuid.uuid4())
    ctype = "application/http; msgtype=response" if rtype in ("response", "request") else "application/warc-fields"
    head = (
        f"WARC/1.0\r\nWARC-Type: {rtype}\r\nWARC-Record-ID: <urn:uuid:{rid}>\r\n"
        f"WARC-Date: {date}\r\nWARC-Target-URI: {uri}\r\nContent-Type: {ctype}\r\n"
        f"Content-Length: {len(payload)}\r\n\r\n"
    )
    return head.encode("latin-1") + payload + b"\r\n\r\n"


def write_warc(path: Path, records: List[bytes]) -> Path:
    """Writes records to `path`: one gzip member each for .warc.gz."""
    with open(path, "wb") as f:
        for r in records:
            f.write(gzip.compress(r) if path.name.endswith(".gz") else r)
    return path


def gunzip_if_needed(b: bytes) -> bytes:
    return gzip.decompress(b) if b[:2] == b"\x1f\x8b" else b


def pytest_report_header(config):
    import unchaff

    return [f"unchaff {unchaff.__version__} from {Path(unchaff.__file__).parent}"]
