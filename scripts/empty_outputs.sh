#!/usr/bin/env bash
# Counts, per folder, the pages whose saved output is empty (white space
# only) while their gold text is not (issue #23): the outputs of
# `unchaff eval DATA --save SAVED`.
#
#   scripts/empty_outputs.sh SAVED [DATA]      # DATA defaults to ../shared/data
#   EMPTY_LIST=1 scripts/empty_outputs.sh ...  # also list the pages
set -euo pipefail
SAVED=${1:?usage: empty_outputs.sh SAVED [DATA]}
DATA=${2:-$(dirname "$0")/../../shared/data}
total=0
for dir in "$SAVED"/*/; do
  f=$(basename "$dir")
  [ -d "$DATA/$f/gold" ] || continue
  n=0
  for out in "$dir"*.txt; do
    [ -e "$out" ] || continue
    id=$(basename "$out" .txt)
    gold="$DATA/$f/gold/$id.txt"
    if [ -f "$gold" ] && grep -q '[^[:space:]]' "$gold" && ! grep -q '[^[:space:]]' "$out"; then
      n=$((n + 1))
      [ -n "${EMPTY_LIST:-}" ] && echo "  $f/$id"
    fi
  done
  printf '%-20s %4d\n' "$f" "$n"
  total=$((total + n))
done
printf '%-20s %4d\n' total "$total"
