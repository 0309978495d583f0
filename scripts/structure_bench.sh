#!/usr/bin/env bash
# The structure benchmark (issue #34) in one run: unchaff's Markdown and the
# peers' Markdown variants on the same pages, scored per construct by
# `unchaff structure score` (rows = tools, columns = constructs).
#
#   scripts/structure_bench.sh [WORK]     # WORK defaults to /tmp/unchaff-structure
#
# 1. `unchaff structure generate WORK/gen` writes the generated pages
#    (5 templates x 40 pages, seed 34);
# 2. `unchaff structure survey DATA --out WORK/real` finds the real dev
#    pages whose main content holds tables, code, math, figures or sub/sup
#    and writes them (links to ../shared/data) with a gold derived from the
#    source;
# 3. the shared peers harness runs unchaff and trafilatura_md,
#    rs_trafilatura_md, dom_smoothie_md over both, one extractor at a time
#    (-j 1), and `unchaff structure score` prints the two tables.
#
# Environment: DATA (default ../shared/data, or $UNCHAFF_DATA), PEERS (the
# harness, default ../shared/bench/peers/peers.py), UNCHAFF (the binary,
# default target/release/unchaff), PEER_LIST (default the three Markdown
# peers), SKIP_REAL=1 (generated pages only), JOBS (harness -j, default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
WORK=${1:-/tmp/unchaff-structure}
DATA=${DATA:-${UNCHAFF_DATA:-../shared/data}}
PEERS=${PEERS:-../shared/bench/peers/peers.py}
UNCHAFF=${UNCHAFF:-target/release/unchaff}
PEER_LIST=${PEER_LIST:-trafilatura_md,rs_trafilatura_md,dom_smoothie_md}
JOBS=${JOBS:-1}
[ -x "$UNCHAFF" ] || { echo "build first: cargo build --release -p unchaff-cli" >&2; exit 1; }
[ -f "$PEERS" ] || { echo "peers harness not found: $PEERS" >&2; exit 1; }
# Outside the repository: the real pages are third-party data.
case "$(realpath -m "$WORK")" in
  "$(pwd)"/*) echo "WORK must be outside the repository" >&2; exit 1 ;;
esac
mkdir -p "$WORK"
UNCHAFF_ABS=$(realpath "$UNCHAFF")
ADD="unchaff_md=$UNCHAFF_ABS extract {path} -f markdown --images --url {url}"

folders() { (cd "$1" && ls -d */ 2>/dev/null | tr -d / | paste -sd, -); }

run_set() {
  local name=$1 dir=$2
  python3 "$PEERS" run --data "$dir" --folders "$(folders "$dir")" --peers "$PEER_LIST" \
    --add "$ADD" -j "$JOBS" --out "$WORK/run-$name" >"$WORK/run-$name.log" 2>&1 \
    || { tail -20 "$WORK/run-$name.log" >&2; exit 1; }
  echo
  echo "## $name pages ($(date -u +%F), $(git rev-parse --short HEAD))"
  echo
  echo "    $UNCHAFF structure score $dir --run $WORK/run-$name --tools unchaff_md,${PEER_LIST}"
  echo
  "$UNCHAFF" structure score "$dir" --run "$WORK/run-$name" --tools "unchaff_md,$PEER_LIST"
}

rm -rf "$WORK/gen"
"$UNCHAFF" structure generate "$WORK/gen"
run_set generated "$WORK/gen"

if [ -z "${SKIP_REAL:-}" ]; then
  rm -rf "$WORK/real"
  echo
  echo "## real dev pages: constructs in the main content, per folder"
  echo
  "$UNCHAFF" structure survey "$DATA" --out "$WORK/real"
  run_set real "$WORK/real"
fi
