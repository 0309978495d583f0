#!/usr/bin/env python3
"""Runs unchaff in the peer harness's batch protocol (../shared/bench/peers).

    python3 ../shared/bench/peers/peers.py run --peers none \
        --add 'unchaff=python3 scripts/peers_unchaff.py target/release/unchaff {list} {outdir}'

The harness gives a list of pages (`id<TAB>path<TAB>url` a line) and wants
`{outdir}/<id>.txt` for each. This script runs `unchaff batch` once over the
list, single-threaded, and splits its JSON lines into those files. It
also writes `{outdir}/_timings.tsv` (`id<TAB>seconds<TAB>cpu seconds`, each
page's extraction alone, timed inside the process by `unchaff batch
--timings`), so that the harness's speed table compares in-process time
with in-process time, as it does for the peers.
Needs only python3.
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    binary, listing, outdir = sys.argv[1:]
    rows = [line.rstrip("\n").split("\t") for line in open(listing, encoding="utf8") if line.strip()]
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        paths = os.path.join(tmp, "paths.txt")
        with open(paths, "w", encoding="utf8") as f:
            for r in rows:
                f.write(r[1] + "\n")
        out = os.path.join(tmp, "out.jsonl")
        times = os.path.join(tmp, "times.tsv")
        subprocess.run([binary, "batch", "@" + paths, "--out", out, "-j", "1",
                        "--timings", times], check=True, stdout=subprocess.DEVNULL)
        records = [json.loads(line) for line in open(out, encoding="utf8")]
        timings = [line.rstrip("\n").split("\t") for line in open(times, encoding="utf8")]
    if len(records) != len(rows) or len(timings) != len(rows):
        sys.exit(f"unchaff batch wrote {len(records)} records and {len(timings)} timings "
                 f"for {len(rows)} pages")
    errors = {}
    # unchaff batch writes its records in input order.
    for r, rec in zip(rows, records):
        with open(os.path.join(outdir, r[0] + ".txt"), "w", encoding="utf8") as f:
            f.write(rec.get("text") or "")
        if rec.get("error"):
            errors[r[0]] = rec["error"]
    # The timings are in row order too; the harness wants its own ids.
    with open(os.path.join(outdir, "_timings.tsv"), "w", encoding="utf8") as f:
        for r, t in zip(rows, timings):
            f.write("\t".join([r[0]] + t[1:]) + "\n")
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(outdir, "_meta.json"), "w", encoding="utf8") as f:
        json.dump({"version": version, "errors": errors}, f)


if __name__ == "__main__":
    main()
