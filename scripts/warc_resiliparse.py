#!/usr/bin/env python3
"""The Python path a corpus builder takes through a WARC file: FastWARC's
`ArchiveIterator` and resiliparse's `extract_plain_text(main_content=True)`,
one JSON row a page on standard output, as `unchaff batch FILE --out -`
writes. The baseline of `scripts/warc_bench.py`.

    pip install fastwarc resiliparse
    python3 scripts/warc_resiliparse.py /tmp/dev.warc.gz > rows.jsonl

What it keeps is what `unchaff batch` keeps by default: `response` records
of an http(s) URI whose HTTP `Content-Type` is `text/html` or
`application/xhtml+xml` and whose status is 2xx. The body arrives as raw
bytes, so it is decoded as resiliparse's users do: the HTTP charset when
there is one, else `detect_encoding` (resiliparse's own detector, which
reads `<meta>` and the bytes), then `bytes_to_str`.
"""

import json
import sys

from fastwarc.warc import ArchiveIterator, WarcRecordType
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import bytes_to_str, detect_encoding

HTML_TYPES = ("text/html", "application/xhtml+xml")


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.stdout
    rows = 0
    with open(sys.argv[1], "rb") as f:
        for rec in ArchiveIterator(f, record_types=WarcRecordType.response, parse_http=True):
            url = rec.headers.get("WARC-Target-URI", "")
            if not url.startswith(("http://", "https://")):
                continue
            http = rec.http_headers
            if http is None or not 200 <= (http.status_code or 0) < 300:
                continue
            ctype = (rec.http_content_type or "").lower()
            if ctype not in HTML_TYPES:
                continue
            body = rec.reader.read()
            charset = rec.http_charset or detect_encoding(body)
            text = extract_plain_text(bytes_to_str(body, charset), main_content=True)
            out.write(json.dumps({"id": rec.record_id, "url": url, "text": text}, ensure_ascii=False))
            out.write("\n")
            rows += 1
    print(f"{rows} pages", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
