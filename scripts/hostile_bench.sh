#!/usr/bin/env bash
# The hostile-input table of docs/ROBUSTNESS.md: writes each hostile input
# (and a plain page of the same size, the yardstick for time) to a scratch
# folder, runs each binary on it under `/usr/bin/time -v`, and prints a
# Markdown table: input, size, time, peak RSS, outcome.
#
# Usage: scripts/hostile_bench.sh [BINARY...]
#   default binaries: target/release/unchaff (build it first with
#   `cargo build --release -p unchaff-cli`).
# Environment: HOSTILE_DIR (scratch folder, default /tmp/unchaff-hostile),
#   HOSTILE_TIMEOUT (seconds per run, default 300),
#   HOSTILE_VMEM_KB (virtual memory cap per run, default 6000000: a binary
#   that reads /dev/zero whole fails there instead of exhausting the machine).
set -euo pipefail
cd "$(dirname "$0")/.."

DIR=${HOSTILE_DIR:-/tmp/unchaff-hostile}
LIMIT=${HOSTILE_TIMEOUT:-300}
BINS=("$@")
[ ${#BINS[@]} -eq 0 ] && BINS=(target/release/unchaff)
mkdir -p "$DIR"

# The inputs, generated (never stored in the repository). Sizes follow
# issue 19.
python3 - "$DIR" <<'EOF'
import sys, os
d = sys.argv[1]
def write(name, s):
    with open(os.path.join(d, name), "w") as f:
        f.write(s)
    return len(s.encode())
def plain(n):
    # An ordinary article page of about n bytes: paragraphs with links.
    para = ("<p>The committee met on Tuesday to discuss the budget for the "
            "coming year, and <a href=\"/news/budget\">the proposal</a> was "
            "accepted after a long debate about schools and roads.</p>\n")
    head = "<html><head><title>Plain</title></head><body><article>\n"
    k = max(1, (n - len(head)) // len(para))
    return head + para * k + "</article></body></html>\n"
sizes = {}
# 1. Formatting amplification: 500 distinct <b> left open in a <div>,
#    then 50,000 blocks, in each of which the tree builder rebuilds them.
sizes["formatting"] = write("formatting.html",
    "<html><body><div>" + "".join(f"<b id={i}>" for i in range(500)) +
    "</div>" + "<div>x</div>" * 50_000)
# 2. Attribute flood: one element with 400,000 distinct attribute names.
sizes["attributes"] = write("attributes.html",
    "<html><body><div" + "".join(f" a{i}=1" for i in range(400_000)) +
    ">text</div></body></html>")
# 3. Deep nesting: 100,000 nested <div>s.
sizes["nesting"] = write("nesting.html",
    "<html><body>" + "<div>" * 100_000 + "deep" + "</div>" * 100_000)
# 4. Nested blockquotes, then many paragraphs at the deepest level:
#    1.6 MB, the output amplification case (rendered with --format markdown).
sizes["blockquotes"] = write("blockquotes.html",
    "<html><body>" + "<blockquote>" * 100_000 +
    "<p>quoted text</p>" * 25_000)
for name, n in sizes.items():
    write(f"plain-{name}.html", plain(n))
EOF

# Every run under a memory cap, so that a binary that reads /dev/zero to
# the end fails at the cap instead of taking the machine down.
VMEM_KB=${HOSTILE_VMEM_KB:-6000000}
run() { # label binary shell-command (with $BIN for the binary)
  local label=$1 bin=$2 cmd=$3
  local out=$DIR/out.txt err=$DIR/err.txt
  local rc=0
  BIN=$bin timeout "$LIMIT" /usr/bin/time -v bash -c "ulimit -v $VMEM_KB; $cmd" >"$out" 2>"$err" || rc=$?
  # /usr/bin/time writes its report at the end of stderr.
  local wall rss outcome
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$err")
  rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f MB", $2/1024}' "$err")
  if [ "$rc" -eq 124 ]; then
    outcome="killed at ${LIMIT} s"
  elif [ "$rc" -eq 0 ]; then
    outcome="ok, $(wc -c <"$out" | tr -d ' ') bytes out"
  else
    outcome="exit $rc: $(grep -v -E '^\s|Command (being timed|exited)' "$err" | head -1 | cut -c1-100)"
  fi
  echo "| $label | $(basename "$bin") | ${wall:-?} | ${rss:-?} | $outcome |"
}

size() { ls -l "$1" | awk '{printf "%.0f KB", $5/1024}'; }

echo "| input | binary | time (m:ss) | peak RSS | outcome |"
echo "|---|---|---|---|---|"
for bin in "${BINS[@]}"; do
  for name in formatting attributes nesting; do
    run "$name ($(size "$DIR/$name.html"))" "$bin" "exec \"\$BIN\" extract $DIR/$name.html"
    run "plain page, same size" "$bin" "exec \"\$BIN\" extract $DIR/plain-$name.html"
  done
  run "blockquotes ($(size "$DIR/blockquotes.html")), markdown" "$bin" \
    "exec \"\$BIN\" extract -f markdown $DIR/blockquotes.html"
  run "plain page, same size, markdown" "$bin" \
    "exec \"\$BIN\" extract -f markdown $DIR/plain-blockquotes.html"
  run "extract /dev/zero" "$bin" "exec \"\$BIN\" extract /dev/zero"
  run "cat /dev/zero \\| extract -" "$bin" "cat /dev/zero | \"\$BIN\" extract -"
  run "extract -p model=/dev/zero" "$bin" \
    "exec \"\$BIN\" extract -p model=/dev/zero $DIR/plain-formatting.html"
done
