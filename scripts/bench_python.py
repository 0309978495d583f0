#!/usr/bin/env python3
"""Pages/s from Python: unchaff's binding beside trafilatura and resiliparse,
timed in one process on the same pages, and the binding's overhead against
the Rust in-process `unchaff bench` on one thread.

    pip install trafilatura resiliparse      # the peers (optional: --no-peers)
    python scripts/bench_python.py ../shared/data/scrapinghub --repeat 3

Like `unchaff bench`, pages are read and gunzipped into memory first
(untimed), given without URL, text output, no metadata; each measure is the
best of --repeat passes after one untimed warm-up, and the passes are
interleaved (pass 1 of every measure, then pass 2, ...) so that a change in
the machine's load hits every measure alike.
"""

from __future__ import annotations

import argparse
import gzip
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List


def load(folder: Path) -> List[bytes]:
    pages = []
    for f in sorted((folder / "pages").glob("*.html*")):
        b = f.read_bytes()
        pages.append(gzip.decompress(b) if b[:2] == b"\x1f\x8b" else b)
    return pages


def rust_bench(binary: str, folder: Path) -> float:
    """`unchaff bench FOLDER --threads 1 --repeat 1` (a warm-up and one pass): pages/s."""
    out = subprocess.run(
        [binary, "bench", str(folder), "--threads", "1", "--repeat", "1"],
        capture_output=True, text=True, check=True,
    ).stdout
    m = re.search(r"([0-9.]+) pages/s", out)
    if not m:
        raise RuntimeError(f"no pages/s in: {out}")
    return float(m.group(1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path, help="a dataset folder (pages/*.html[.gz])")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--unchaff-bin", default=os.environ.get("UNCHAFF_BIN", "target/release/unchaff"))
    ap.add_argument("--no-peers", action="store_true", help="leave out trafilatura and resiliparse")
    a = ap.parse_args()

    import unchaff

    pages = load(a.folder)
    mb = sum(map(len, pages)) / 1e6
    ex = unchaff.Extractor()

    def unchaff_loop() -> None:
        for p in pages:
            try:
                unchaff.extract(p)
            except unchaff.UnchaffError:
                pass

    def extractor_loop() -> None:
        for p in pages:
            try:
                ex.extract(p)
            except unchaff.UnchaffError:
                pass

    measures: Dict[str, Callable[[], None]] = {
        "unchaff.extract loop": unchaff_loop,
        "Extractor.extract loop": extractor_loop,
        "Extractor.extract_many threads=1": lambda: ex.extract_many(pages, threads=1, errors="return"),
        "Extractor.extract_many threads=2": lambda: ex.extract_many(pages, threads=2, errors="return"),
    }
    versions = {"unchaff": unchaff.__version__}
    if not a.no_peers:
        import trafilatura
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding
        from resiliparse.parse.html import HTMLTree

        def trafilatura_loop() -> None:
            for p in pages:
                trafilatura.extract(p)

        def resiliparse_loop() -> None:
            for p in pages:
                # Charset detection included, as unchaff's and trafilatura's
                # own decoding is.
                tree = HTMLTree.parse(bytes_to_str(p, detect_encoding(p)))
                extract_plain_text(tree, main_content=True)

        measures["trafilatura.extract loop"] = trafilatura_loop
        measures["resiliparse extract_plain_text(main_content) loop"] = resiliparse_loop
        from importlib.metadata import version

        versions["trafilatura"] = version("trafilatura")
        versions["resiliparse"] = version("resiliparse")

    best: Dict[str, float] = {}
    rust: List[float] = []
    # Per pass: unchaff.extract's rate over the Rust bench's, run back to
    # back; the median of these pairs is steadier than a ratio of bests on
    # a loaded machine.
    paired: List[float] = []
    for rep in range(a.repeat + 1):
        this: Dict[str, float] = {}
        for name, fn in measures.items():
            t = time.perf_counter()
            fn()
            dt = time.perf_counter() - t
            this[name] = dt
            if rep > 0:
                best[name] = min(best.get(name, dt), dt)
        if rep > 0 and Path(a.unchaff_bin).is_file():
            r = rust_bench(a.unchaff_bin, a.folder)
            rust.append(r)
            t = time.perf_counter()
            unchaff_loop()
            paired.append(len(pages) / (time.perf_counter() - t) / r)

    load1 = os.getloadavg()[0]
    print(f"{len(pages)} pages, {mb:.1f} MB, best of {a.repeat} interleaved passes; "
          f"load average {load1:.1f} on {os.cpu_count()} cores; python {sys.version.split()[0]}; "
          + ", ".join(f"{k} {v}" for k, v in versions.items()))
    base = len(pages) / best["unchaff.extract loop"]
    print(f"{'measure':52} {'pages/s':>9} {'x unchaff.extract':>18}")
    for name in measures:
        rate = len(pages) / best[name]
        print(f"{name:52} {rate:9.1f} {rate / base:18.2f}")
    if rust:
        r = max(rust)
        print(f"{'unchaff bench --threads 1 (Rust, in-process)':52} {r:9.1f} {r / base:18.2f}")
        print(f"binding overhead of unchaff.extract vs Rust, best against best: {100 * (1 - base / r):.1f}% "
              f"(Extractor.extract: {100 * (1 - len(pages) / best['Extractor.extract loop'] / r):.1f}%)")
        med = sorted(paired)[len(paired) // 2]
        print(f"binding overhead, median of {len(paired)} back-to-back pairs: {100 * (1 - med):.1f}% "
              f"(pairs: {', '.join(f'{100 * (1 - p):.1f}%' for p in paired)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
