#!/usr/bin/env python3
"""End to end on WARC, whole process: `unchaff batch FILE.warc.gz --out -`
at 1 and 2 threads beside the Python path corpus builders take (FastWARC +
resiliparse, `scripts/warc_resiliparse.py`) over the same records, and
beside `unchaff bench`'s in-process pages/s over the same pages; ratios
within each round. docs/BENCHMARKS.md, *End to end on WARC*.

    python3 scripts/make_warc.py ../shared/data /tmp/dev.warc.gz
    python3 scripts/make_warc.py ../shared/data /tmp/dev-0.warc.gz --part 0/2
    python3 scripts/make_warc.py ../shared/data /tmp/dev-1.warc.gz --part 1/2
    python3 scripts/warc_bench.py /tmp/dev.warc.gz /tmp/dev-0.warc.gz /tmp/dev-1.warc.gz \\
        --data ../shared/data --python ~/.cache/unchaff-peers/venv/bin/python --rounds 3

Every measure is a whole process (start-up, reading and gunzipping the
WARC, extraction, writing JSON rows to /dev/null), timed by wall clock and
by CPU (user + system of the process and its children). The Python path
on two cores is two processes, one on each half of the crawl (the two
`--part` files), as a corpus builder runs one process a file; on one core,
one process on the whole file. `unchaff bench` loads the same pages
(untimed), and its pages/s is that of its fastest timed pass, in-process;
its CPU a pass is the difference between a run of three passes and a run
of one (loading and warm-up cancel out), so that CPU ratios (pages per CPU
second) hold on a loaded machine, where wall-clock ones do not. The
measures of a round run one after another, and the ratios are taken within
a round, so that the machine's load moving between rounds hits every
measure alike; quote the median round.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple

HERE = Path(__file__).resolve().parent

# Timed passes of `unchaff bench` (its in-process figure is the fastest).
BENCH_PASSES = 3


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmds: List[List[str]]) -> Tuple[float, float, List[str]]:
    """Runs the commands side by side; wall seconds until the last ends,
    their CPU seconds, and each one's standard error."""
    # /dev/null opened write-only: `unchaff` takes a read-write /dev/null
    # (subprocess.DEVNULL) for a closed standard output and refuses it.
    with open(os.devnull, "wb") as null:
        c0, t0 = cpu_children(), time.perf_counter()
        procs = [subprocess.Popen(c, stdout=null, stderr=subprocess.PIPE, text=True) for c in cmds]
        errs = [p.communicate()[1] for p in procs]
    wall = time.perf_counter() - t0
    for c, p, e in zip(cmds, procs, errs):
        if p.returncode != 0:
            sys.exit(f"{' '.join(c)} failed ({p.returncode}): {e}")
    return wall, cpu_children() - c0, errs


def pages_of(err: str, pattern: str) -> int:
    m = re.search(pattern, err)
    if not m:
        sys.exit(f"no page count in: {err}")
    return int(m.group(1))


def bench(binary: str, folders: List[Path], threads: int, repeat: int) -> Tuple[float, float]:
    """`unchaff bench`: its in-process pages/s (the fastest timed pass) and
    the CPU seconds of the whole process."""
    c0 = cpu_children()
    out = subprocess.run([binary, "bench", *map(str, folders), "--threads", str(threads), "--repeat", str(repeat)],
                         capture_output=True, text=True, check=True).stdout
    cpu = cpu_children() - c0
    m = re.search(r"([0-9.]+) pages/s", out)
    if not m:
        sys.exit(f"no pages/s in: {out}")
    return float(m.group(1)), cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("warc", help="the whole crawl (make_warc.py)")
    ap.add_argument("half0", help="its part 0/2")
    ap.add_argument("half1", help="its part 1/2")
    ap.add_argument("--data", type=Path, required=True, help="the folder of dataset folders the WARC was built from")
    ap.add_argument("--folders", default="", help="the dataset folders it was built from (default: all)")
    ap.add_argument("--unchaff", default=os.environ.get("UNCHAFF_BIN", "target/release/unchaff"))
    ap.add_argument("--python", default=sys.executable,
                    help="a python with fastwarc and resiliparse; 'none' leaves the Python path out "
                         "(a machine without them: only the batch / bench ratios)")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    folders = [a.data / f for f in a.folders.split(",") if f] or sorted(
        p for p in a.data.iterdir() if (p / "pages").is_dir())
    with_python = a.python != "none"
    loop = [a.python, str(HERE / "warc_resiliparse.py")]
    batch = [a.unchaff, "batch", "--out", "-"]
    py_pages = r"(\d+) pages"
    un_pages = r"(\d+) pages written"

    rounds: List[Dict[str, float]] = []
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    for r in range(a.rounds):
        m: Dict[str, float] = {}
        load0 = os.getloadavg()[0]
        n = None
        if with_python:
            w, c, e = timed([loop + [a.warc]])
            n = pages_of(e[0], py_pages)
            m["python 1 process"], m["python 1 process cpu"] = n / w, n / c
            w, c, e = timed([loop + [a.half0], loop + [a.half1]])
            n2 = sum(pages_of(x, py_pages) for x in e)
            if n2 != n:
                sys.exit(f"the halves hold {n2} pages, the whole {n}")
            m["python 2 processes"], m["python 2 processes cpu"] = n / w, n / c
        for j in (1, 2):
            w, c, e = timed([batch + ["-j", str(j), a.warc]])
            written = pages_of(e[0], un_pages)
            if n is None:
                n = written
            if written != n:
                sys.exit(f"unchaff batch wrote {written} pages, expected {n}")
            m[f"batch -j {j}"], m[f"batch -j {j} cpu"] = n / w, n / c
        for j in (1, 2):
            # In-process pages/s: the fastest of BENCH_PASSES timed passes.
            # CPU a pass: the CPU of a run with BENCH_PASSES passes less that
            # of a run with one, over the passes between (loading the pages
            # and the warm-up cancel out), so that the machine's load does
            # not enter it.
            rate, cpu_many = bench(a.unchaff, folders, j, BENCH_PASSES)
            _, cpu_one = bench(a.unchaff, folders, j, 1)
            m[f"bench -j {j}"] = rate
            m[f"bench -j {j} cpu"] = n * (BENCH_PASSES - 1) / max(cpu_many - cpu_one, 1e-9)
        m["load"] = (load0 + os.getloadavg()[0]) / 2
        rounds.append(m)
        print(f"round {r + 1} ({n} pages, load {m['load']:.2f}): "
              + ", ".join(f"{k} {v:.1f}" for k, v in m.items() if k != "load"), flush=True)

    def ratio(a_: str, b_: str) -> List[float]:
        return [x[a_] / x[b_] for x in rounds if a_ in x and b_ in x]

    rows = [
        ("batch -j 1 / python, wall", ratio("batch -j 1", "python 1 process")),
        ("batch -j 1 / python, cpu", ratio("batch -j 1 cpu", "python 1 process cpu")),
        ("batch -j 2 / python x2, wall", ratio("batch -j 2", "python 2 processes")),
        ("batch -j 2 / python x2, cpu", ratio("batch -j 2 cpu", "python 2 processes cpu")),
        ("batch -j 1 / bench -j 1, wall", ratio("batch -j 1", "bench -j 1")),
        ("batch -j 1 / bench -j 1, cpu", ratio("batch -j 1 cpu", "bench -j 1 cpu")),
        ("batch -j 2 / bench -j 2, wall", ratio("batch -j 2", "bench -j 2")),
        ("batch -j 2 / bench -j 2, cpu", ratio("batch -j 2 cpu", "bench -j 2 cpu")),
    ]
    rows = [(k, v) for k, v in rows if v]
    print("\nratio                           median   min–max (per round)")
    for name, v in rows:
        print(f"{name:30}  {statistics.median(v):6.2f}   {min(v):.2f}–{max(v):.2f}")
    print("\npages/s (median round)")
    for k in rounds[0]:
        print(f"{k:28} {statistics.median(x[k] for x in rounds):8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
