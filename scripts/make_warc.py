#!/usr/bin/env python3
"""Builds a crawl-like WARC.gz from the dev pages, for end-to-end speed runs
(`scripts/warc_bench.py`, docs/BENCHMARKS.md, *End to end on WARC*).

    python3 scripts/make_warc.py ../shared/data /tmp/dev.warc.gz
    python3 scripts/make_warc.py ../shared/data /tmp/sh.warc.gz --folders scrapinghub
    python3 scripts/make_warc.py ../shared/data /tmp/half0.warc.gz --part 0/2   # every other page

`--part I/N` keeps the pages whose number (from 0, over the whole sorted
list) is I modulo N, with the records around them: parts 0/N to N-1/N hold
every page exactly once, as the N files of a crawl that N processes read.

Needs only python3. The output is deterministic: the same pages and flags
give the same bytes (fixed dates, record ids derived from the page ids,
gzip members without a timestamp, pseudo-random payloads from a fixed seed).

Each record is its own gzip member, as crawlers write them. The stream is
laid out as a crawl's is:

* one `warcinfo` record first;
* for every page (folders in the order given, pages sorted by id): a
  `request` record (the GET and its headers), a `response` record (an HTTP
  head, `200 OK`, `Content-Type: text/html` without a charset, then the
  page's raw bytes as published) and a `metadata` record (fetch time,
  outlinks count);
* between pages, the other things a crawl fetches, each with its request
  record: every IMAGE_EVERY-th page an `image/jpeg` response, every
  PDF_EVERY-th an `application/pdf`, every REDIRECT_EVERY-th a `301` to the
  page (a small `text/html` body, as servers send), every NOT_FOUND_EVERY-th
  a `404` with an HTML error page, every ROBOTS_EVERY-th a `robots.txt`
  (`text/plain`), every REVISIT_EVERY-th a `revisit` record of the
  previous page.

The HTTP head carries no charset: the page's own `<meta>` decides, exactly
as in `unchaff bench` over the same folders, so that both see the same
input. A page whose manifest has no URL gets
`https://<folder>.pages.invalid/<id>`.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import random
import sys
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Iterator, List, Tuple

# One of each non-HTML kind per this many pages: about the mix of a
# general crawl's responses (most HTML, some media and documents, a few
# redirects and errors).
IMAGE_EVERY = 3
PDF_EVERY = 11
REDIRECT_EVERY = 7
NOT_FOUND_EVERY = 13
ROBOTS_EVERY = 29
REVISIT_EVERY = 17

# Sizes of the generated media payloads: typical of a crawl's images and
# small PDFs (a few tens of KB), enough that skipping them costs something.
IMAGE_BYTES = (8_000, 60_000)
PDF_BYTES = (20_000, 120_000)

# Compression level of each gzip member: zlib's default, what crawlers use.
GZIP_LEVEL = 6

# The crawl's first fetch time; each record is one second after the last.
START = datetime(2026, 11, 1, tzinfo=timezone.utc)

# Seed of the pseudo-random payloads.
SEED = 40

NAMESPACE = uuid.UUID("6f1c2a52-40e0-4c3b-9d1e-2f7d3c4b5a60")

USER_AGENT = b"unchaff-bench-crawler/1.0 (+https://example.invalid/bot)"


def digest(b: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(b).digest()).decode()


class Writer:
    def __init__(self, out) -> None:
        self.out = out
        self.n = 0
        self.html = 0
        self.records = 0

    def date(self) -> str:
        self.n += 1
        return (START + timedelta(seconds=self.n)).strftime("%Y-%m-%dT%H:%M:%SZ")

    def record(self, kind: str, key: str, headers: List[Tuple[str, str]], block: bytes) -> str:
        rid = f"<urn:uuid:{uuid.uuid5(NAMESPACE, kind + ':' + key)}>"
        head = [("WARC-Type", kind), ("WARC-Date", self.date()), ("WARC-Record-ID", rid)]
        head += headers
        head += [("WARC-Block-Digest", digest(block)), ("Content-Length", str(len(block)))]
        text = "WARC/1.0\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head) + "\r\n"
        raw = text.encode() + block + b"\r\n\r\n"
        self.out.write(gzip.compress(raw, compresslevel=GZIP_LEVEL, mtime=0))
        self.records += 1
        return rid

    def request(self, url: str, key: str) -> str:
        host = url.split("/")[2]
        path = "/" + url.split("/", 3)[3] if url.count("/") >= 3 else "/"
        block = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\n".encode()
            + b"User-Agent: " + USER_AGENT + b"\r\n"
            b"Accept: text/html,application/xhtml+xml,*/*;q=0.8\r\n"
            b"Accept-Encoding: identity\r\n\r\n"
        )
        return self.record("request", key, [("WARC-Target-URI", url),
                                            ("Content-Type", "application/http; msgtype=request")], block)

    def response(self, url: str, key: str, status: str, headers: List[Tuple[str, str]], body: bytes,
                 concurrent: str) -> str:
        head = f"HTTP/1.1 {status}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
        head += f"Content-Length: {len(body)}\r\n\r\n"
        return self.record("response", key, [
            ("WARC-Target-URI", url),
            ("WARC-Concurrent-To", concurrent),
            ("Content-Type", "application/http; msgtype=response"),
            ("WARC-Payload-Digest", digest(body)),
        ], head.encode("utf-8") + body)

    def fetch(self, url: str, key: str, status: str, headers: List[Tuple[str, str]], body: bytes) -> str:
        req = self.request(url, key)
        return self.response(url, key, status, headers, body, req)


def pages(root: Path, folders: List[str]) -> Iterator[Tuple[str, str, bytes]]:
    for folder in folders:
        d = root / folder
        urls = {}
        manifest = d / "manifest.jsonl"
        if manifest.exists():
            for line in manifest.open(encoding="utf8"):
                if line.strip():
                    row = json.loads(line)
                    urls[row["id"]] = row.get("url") or ""
        for f in sorted((d / "pages").glob("*.html*")):
            pid = f.name.split(".html")[0]
            raw = f.read_bytes()
            if raw[:2] == b"\x1f\x8b":
                raw = gzip.decompress(raw)
            url = urls.get(pid, "")
            if not url.startswith(("http://", "https://")):
                url = f"https://{folder}.pages.invalid/{pid}"
            yield folder, url, raw


def build(root: Path, folders: List[str], out, part: Tuple[int, int] = (0, 1)) -> Writer:
    rng = random.Random(SEED)
    w = Writer(out)
    info = (f"software: unchaff scripts/make_warc.py\r\nformat: WARC File Format 1.0\r\n"
            f"description: dev pages of {', '.join(folders)}\r\n").encode()
    w.record("warcinfo", "info", [("Content-Type", "application/warc-fields")], info)
    server = [("Server", "nginx"), ("Date", "Sun, 01 Nov 2026 00:00:00 GMT")]
    prev = None
    for i, (folder, url, html) in enumerate(pages(root, folders)):
        if i % part[1] != part[0]:
            continue
        key = f"{folder}/{i}"
        base = url.split("/", 3)
        origin = "/".join(base[:3])
        if i % IMAGE_EVERY == 0:
            body = b"\xff\xd8\xff\xe0" + rng.randbytes(rng.randint(*IMAGE_BYTES))
            w.fetch(f"{origin}/img/{i}.jpg", key + "/img", "200 OK",
                    server + [("Content-Type", "image/jpeg")], body)
        if i % PDF_EVERY == 0:
            body = b"%PDF-1.7\n" + rng.randbytes(rng.randint(*PDF_BYTES)) + b"\n%%EOF\n"
            w.fetch(f"{origin}/doc/{i}.pdf", key + "/pdf", "200 OK",
                    server + [("Content-Type", "application/pdf")], body)
        if i % REDIRECT_EVERY == 0:
            body = f'<html><body><a href="{url}">Moved</a></body></html>'.encode()
            w.fetch(url.replace("https://", "http://", 1), key + "/301", "301 Moved Permanently",
                    server + [("Location", url), ("Content-Type", "text/html")], body)
        if i % NOT_FOUND_EVERY == 0:
            body = b"<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>"
            w.fetch(f"{origin}/missing/{i}", key + "/404", "404 Not Found",
                    server + [("Content-Type", "text/html; charset=utf-8")], body)
        if i % ROBOTS_EVERY == 0:
            w.fetch(f"{origin}/robots.txt", key + "/robots", "200 OK",
                    server + [("Content-Type", "text/plain")], b"User-agent: *\nDisallow: /admin/\n")
        if i % REVISIT_EVERY == 0 and prev is not None:
            w.record("revisit", key + "/revisit", [
                ("WARC-Target-URI", prev[0]), ("WARC-Refers-To", prev[1]),
                ("WARC-Profile", "http://netpreserve.org/warc/1.0/revisit/identical-payload-digest"),
                ("Content-Type", "application/http; msgtype=response")],
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")
        rid = w.fetch(url, key, "200 OK", server + [("Content-Type", "text/html")], html)
        w.html += 1
        meta = f"fetchTimeMs: {rng.randint(40, 900)}\r\noutlinks: {html.count(b'href=')}\r\n".encode()
        w.record("metadata", key + "/meta", [("WARC-Target-URI", url), ("WARC-Concurrent-To", rid),
                                             ("Content-Type", "application/warc-fields")], meta)
        prev = (url, rid)
    return w


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", type=Path, help="the folder holding the dataset folders (../shared/data)")
    ap.add_argument("out", type=Path, help="the .warc.gz to write")
    ap.add_argument("--folders", default="", help="comma-separated dataset folders (default: all, sorted)")
    ap.add_argument("--part", default="0/1", help="I/N: only the pages numbered I modulo N (default: all)")
    a = ap.parse_args()
    i, n = (int(x) for x in a.part.split("/"))
    if not 0 <= i < n:
        ap.error("--part I/N needs 0 <= I < N")
    folders = [f for f in a.folders.split(",") if f] or sorted(
        p.name for p in a.data.iterdir() if (p / "pages").is_dir())
    with a.out.open("wb") as out:
        w = build(a.data, folders, out, (i, n))
    print(f"{a.out}: {w.records} records, {w.html} HTML pages (200, text/html) from "
          f"{len(folders)} folders, {a.out.stat().st_size / 1e6:.1f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
