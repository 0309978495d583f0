#!/usr/bin/env python3
"""Fit and measure the confidence of extractions (unchaff::confidence).

The confidence is a logistic function of a few page-level signals, fitted
to the shingle F1 the extractions had (cross-entropy with the F1 as a soft
target, equal weight for each dev folder, a little L2). This script reads
the per-page lines of `unchaff eval --pages FILE` and

* fits the weights on every folder and prints them as the Rust constant
  to paste into crates/unchaff/src/confidence.rs;
* measures them honestly: each folder's pages are scored with weights
  fitted on the *other* folders (leave one folder out), and the pages are
  binned by that confidence: the reliability table (mean confidence and
  mean F1 per bin; calibrated when they agree and F1 rises bin by bin).

For `auto`, run the eval of each folder with the model that did not see
it (`scripts/lofo.sh`'s models): then neither the signals nor the weights
of a page come from its own folder.

    # auto, held out:
    for f in DATA/*/; do n=$(basename $f);
      unchaff eval $f -p model=LOFO/models/$n.json --pages out/$n.jsonl; done
    scripts/fit_confidence.py --kind auto out/*.jsonl
    # any other algorithm (cetd-tpc's extractions fit GENERIC_WEIGHTS):
    unchaff eval DATA -a cetd-tpc --pages cetd.jsonl
    scripts/fit_confidence.py --kind generic cetd.jsonl

No dependencies beyond the standard library.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict

#: L2 penalty on the weights (not the intercept): enough to keep the
#: fit stable where two signals move together, too small to bias it.
L2 = 1e-3
#: Newton steps: the loss is convex; 50 is far past convergence.
STEPS = 50
#: Thresholds whose effect as `batch --min-confidence` is printed.
MIN_CONFIDENCE = [0.3, 0.5, 0.7, 0.8]
#: Confidence bins of the reliability table.
BINS = [0.0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0001]


def expand(kind, x):
    """The terms the weights apply to: the signals and a few curves of
    them (as `expand_auto` / `expand_generic` in confidence.rs: keep the
    two alike)."""
    if kind == "auto":
        kp, dp, bl, lk, ks, rel, lr = x
        return x + [kp * kp, ks * ks, 1.0 if lk == 0 else 0.0, rel * ks, rel * lk / 7.0, rel * kp]
    lk, ks, ls = x
    return x + [ks * ks, 1.0 if lk == 0 else 0.0, ls * ls, lk * lk / 50.0]


def read(paths, kind):
    rows = []
    for p in paths:
        with open(p) as f:
            for line in f:
                r = json.loads(line)
                s = r.get("signals") or {}
                if s.get("kind") != kind:
                    continue
                rows.append((r["folder"], r["id"], expand(kind, s["values"]), float(r["f1"])))
    return rows


def sigmoid(m):
    if m >= 0:
        return 1.0 / (1.0 + math.exp(-m))
    e = math.exp(m)
    return e / (1.0 + e)


def solve(a, b):
    """Solves a x = b (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def fit(rows):
    """Weights (then the intercept) minimising the folder-weighted
    cross-entropy of sigmoid(w.x + b) against the F1s (Newton's method)."""
    per_folder = defaultdict(int)
    for folder, *_ in rows:
        per_folder[folder] += 1
    data = [(x + [1.0], y, 1.0 / per_folder[f]) for f, _, x, y in rows]
    n = len(data[0][0])
    w = [0.0] * n
    for _ in range(STEPS):
        g = [0.0] * n
        h = [[0.0] * n for _ in range(n)]
        for x, y, wt in data:
            p = sigmoid(sum(a * b for a, b in zip(w, x)))
            d = wt * (p - y)
            v = wt * p * (1 - p)
            for i in range(n):
                g[i] += d * x[i]
                for j in range(n):
                    h[i][j] += v * x[i] * x[j]
        for i in range(n - 1):
            g[i] += L2 * w[i]
            h[i][i] += L2
        step = solve(h, g)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def predict(w, x):
    return sigmoid(sum(a * b for a, b in zip(w, x + [1.0])))


def table(scored):
    """Reliability rows: (bin, pages, mean confidence, mean F1)."""
    out = []
    for lo, hi in zip(BINS, BINS[1:]):
        inb = [(c, y) for c, y in scored if lo <= c < hi]
        if inb:
            out.append(
                (
                    f"{lo:.2f}-{min(hi, 1.0):.2f}",
                    len(inb),
                    sum(c for c, _ in inb) / len(inb),
                    sum(y for _, y in inb) / len(inb),
                )
            )
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", nargs="+", help="files of `unchaff eval --pages`")
    ap.add_argument("--kind", choices=["auto", "generic"], required=True)
    a = ap.parse_args()
    rows = read(a.pages, a.kind)
    if not rows:
        sys.exit(f"no pages with {a.kind} signals in {a.pages}")
    folders = sorted({r[0] for r in rows})
    w = fit(rows)
    name = "AUTO_WEIGHTS" if a.kind == "auto" else "GENERIC_WEIGHTS"
    print(f"{name} (fitted on {len(rows)} pages of {len(folders)} folders):")
    print("[" + ", ".join(f"{v:.4f}" for v in w) + "]")
    # Held out: each folder's pages scored with weights fitted on the others.
    scored = []
    per_folder = {}
    for f in folders:
        wf = fit([r for r in rows if r[0] != f])
        mine = [(predict(wf, x), y) for g, _, x, y in rows if g == f]
        scored.extend(mine)
        per_folder[f] = mine
    print("\nreliability, leave one folder out (pages of all folders, binned by confidence):")
    print(f"{'confidence':<12} {'pages':>6} {'mean conf':>10} {'mean F1':>8}")
    for b, n, c, y in table(scored):
        print(f"{b:<12} {n:>6} {c:>10.3f} {y:>8.3f}")
    err = sum(abs(c - y) for c, y in scored) / len(scored)
    ece = sum(n * abs(c - y) for _, n, c, y in table(scored)) / len(scored)
    print(f"\nmean |confidence - F1| per page {err:.3f}; expected calibration error {ece:.3f}")
    print("\n--min-confidence X (held out): pages dropped, mean F1 of the pages kept / dropped")
    for t in MIN_CONFIDENCE:
        kept = [y for c, y in scored if c >= t]
        gone = [y for c, y in scored if c < t]
        mk = sum(kept) / len(kept) if kept else float("nan")
        mg = sum(gone) / len(gone) if gone else float("nan")
        print(f"{t:<5} {len(gone):>6} ({len(gone) / len(scored):6.1%})   {mk:.3f} / {mg:.3f}")
    print("\nper folder (held out): pages, mean confidence, mean F1, F1 of the lowest/highest confidence third")
    for f in folders:
        m = sorted(per_folder[f])
        k = max(1, len(m) // 3)
        lo = sum(y for _, y in m[:k]) / k
        hi = sum(y for _, y in m[-k:]) / k
        mc = sum(c for c, _ in m) / len(m)
        my = sum(y for _, y in m) / len(m)
        print(f"{f:<20} {len(m):>5} {mc:>6.3f} {my:>6.3f}   {lo:.3f} / {hi:.3f}")


if __name__ == "__main__":
    main()
