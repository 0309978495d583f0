#!/usr/bin/env bash
# Leave-one-folder-out (LOFO) figures for `auto` (issue #23): for each dev
# folder, train on the other folders and score the held-out one, then print
# every folder's shingle F1 and their mean. Pages from one folder never sit
# on both sides, so this is what to expect on pages from a new source.
#
#   scripts/lofo.sh [DATA] [-- TRAIN_ARGS...]
#
#   DATA         the folder holding the dataset folders (default ../shared/data)
#   TRAIN_ARGS   passed to `unchaff train auto` (e.g. --depth 5)
#
# Environment:
#   UNCHAFF      the binary (default target/release/unchaff)
#   LOFO_DIR     where the models and outputs go (default target/lofo); the
#                held-out outputs are saved under $LOFO_DIR/out/<folder>
#   LOFO_SEPARATE=1  twelve separate `train auto --exclude-folder F` runs
#                instead of one `train auto --lofo` run (which reads the
#                features once and writes the same models, byte for byte)
#   LOFO_EVAL    extra `unchaff eval` arguments (e.g. "-p threshold=0.6")
#   LOFO_FOLDERS space-separated folders to score (default: all); only
#                their held-out models are trained (a quicker look; the
#                mean is then over those folders only)
#   LOFO_SKIP_TRAIN=1  score with the models already in $LOFO_DIR/models
#                (e.g. another filter or other eval parameters)
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=../shared/data
if [ $# -gt 0 ] && [ "$1" != "--" ]; then DATA=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" = "--" ]; then shift; fi
UNCHAFF=${UNCHAFF:-target/release/unchaff}
DIR=${LOFO_DIR:-target/lofo}
mkdir -p "$DIR/models" "$DIR/out"
folders=()
for f in "$DATA"/*/; do
  [ -f "$f/manifest.jsonl" ] && folders+=("$(basename "$f")")
done
[ ${#folders[@]} -gt 0 ] || { echo "no dataset folders in $DATA" >&2; exit 1; }

if [ "${LOFO_SKIP_TRAIN:-}" = 1 ]; then
  :
elif [ "${LOFO_SEPARATE:-}" = 1 ]; then
  for f in ${LOFO_FOLDERS:-${folders[@]}}; do
    "$UNCHAFF" train auto "$DATA" --exclude-folder "$f" --out "$DIR/models/$f.json" "$@" >&2
  done
else
  only=()
  for f in ${LOFO_FOLDERS:-}; do only+=(--lofo-only "$f"); done
  "$UNCHAFF" train auto "$DATA" --lofo "$DIR/models" "${only[@]}" "$@" >&2
fi

score=()
read -r -a eval_args <<<"${LOFO_EVAL:-}"
printf '%-20s %8s\n' folder 'LOFO F1'
for f in ${LOFO_FOLDERS:-${folders[@]}}; do
  # The held-out folder's row: "NAME  PAGES | P R F1 | ...".
  row=$("$UNCHAFF" eval "$DATA/$f" -p model="$DIR/models/$f.json" --save "$DIR/out" \
    "${eval_args[@]}" 2>/dev/null | awk -v f="$f" '$1 == f { print $6 }')
  printf '%-20s %8s\n' "$f" "$row"
  score+=("$row")
done
printf '%s\n' "${score[@]}" | awk '{ s += $1; n++ } END { printf "%-20s %8.4f  (%d folders)\n", "mean", s / n, n }'
