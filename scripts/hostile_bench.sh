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
#   that reads /dev/zero whole fails there instead of exhausting the machine),
#   HOSTILE_SET (issue19: the first rounds' inputs; issue41: the third
#   round's, element-dense and foreign-content pages of 6-256 MB and the
#   batch inputs; all, the default), HOSTILE_ONLY (an extended regular
#   expression: only the rows whose label matches).
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
if os.environ.get("HOSTILE_SET", "all") in ("all", "issue41"):
    import gzip
    # Issue 41. Element-dense: 48 MB of <p>x</p> (under batch's 50 MB).
    write("dense.html", "<html><body>" + "<p>x</p>" * 6_000_000)
    # The densest shapes the memory budget takes: 94-byte paragraphs,
    # 19-byte <b> runs.
    write("dense-p94.html", "<html><body>" + ("<p>" + "x" * 87 + "</p>") * (48_000_000 // 94))
    write("dense-b19.html", "<html><body>" + ("<b>" + "x" * 12 + "</b>") * (48_000_000 // 19))
    write("plain-dense.html", plain(48_000_000))
    # A gzip of a 256 MiB dense page (under the input limit): ~300 KB.
    big = b"<html><body>" + b"<p>x</p>" * ((256 * 1024 * 1024 - 16) // 8)
    with open(os.path.join(d, "dense-256m.html.gz"), "wb") as f:
        f.write(gzip.compress(big, 9))
    del big
    # Foreign content that made the pre-pass quadratic: 160,000 repeats.
    sizes["foreign"] = write("foreign.html",
        "<html><body>" + "<table><tr><td><svg><foreignObject><svg>" * 160_000)
    write("mathml.html", "<html><body>" + "<table><tr><td><math><mi><math>" * 160_000)
    # The same without the table (no block-level elements: within the
    # memory budget, so the parse itself is what is measured).
    write("svg.html", "<html><body>" + "<svg><foreignObject><svg>" * 256_000)
    write("plain-foreign.html", plain(sizes["foreign"]))
    # Batch: a 231-byte WARC record declaring 100 GB, then a good one.
    rec = lambda rid, length, block: (
        f"WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{rid}>\r\n"
        f"WARC-Target-URI: https://e.org/\r\nContent-Length: {length}\r\n\r\n").encode() + block + b"\r\n\r\n"
    page = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>" + b"A page. " * 40 + b"</p>"
    head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
    with open(os.path.join(d, "huge-length.warc"), "wb") as f:
        f.write(rec("huge", 100_000_000_000, head) + rec("after", len(page), page))
    # And a WARC of 8 records, for --threads 100000.
    with open(os.path.join(d, "eight.warc"), "wb") as f:
        for i in range(8):
            f.write(rec(f"r{i}", len(page), page))
    # A cut run's output whose last line is 1 GB of garbage (sparse zeros).
    row = b'{"id":"p","algorithm":"auto","text":"t"}\n'
    with open(os.path.join(d, "resume.jsonl.tmp"), "wb") as f:
        f.write(row)
        f.truncate(len(row) + (1 << 30))
EOF

# Every run under a memory cap, so that a binary that reads /dev/zero to
# the end fails at the cap instead of taking the machine down.
VMEM_KB=${HOSTILE_VMEM_KB:-6000000}
run() { # label binary shell-command (with $BIN for the binary)
  local label=$1 bin=$2 cmd=$3
  if [ -n "${HOSTILE_ONLY:-}" ] && ! grep -qE "$HOSTILE_ONLY" <<<"$label"; then return; fi
  local out=$DIR/out.txt err=$DIR/err.txt
  local rc=0
  BIN=$bin timeout "$LIMIT" /usr/bin/time -v bash -c "ulimit -v $VMEM_KB; $cmd" >"$out" 2>"$err" || rc=$?
  # /usr/bin/time writes its report at the end of stderr.
  local wall rss outcome cpu
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$err")
  cpu=$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {printf "%.2f", u+s}' "$err")
  rss=$(awk -F': ' '/Maximum resident/ {printf "%.0f MB", $2/1024}' "$err")
  if [ "$rc" -eq 124 ]; then
    outcome="killed at ${LIMIT} s"
  elif [ "$rc" -eq 0 ]; then
    outcome="ok, $(wc -c <"$out" | tr -d ' ') bytes out"
  else
    outcome="exit $rc: $(grep -v -E '^\s|Command (being timed|exited)' "$err" | head -1 | cut -c1-100)"
  fi
  echo "| $label | $(basename "$bin") | ${wall:-?} | ${cpu:-?} | ${rss:-?} | $outcome |"
}

size() { ls -l "$1" | awk '{printf "%.0f KB", $5/1024}'; }

SET=${HOSTILE_SET:-all}
echo "| input | binary | time (m:ss) | CPU (s) | peak RSS | outcome |"
echo "|---|---|---|---|---|---|"
for bin in "${BINS[@]}"; do
  if [ "$SET" = all ] || [ "$SET" = issue41 ]; then
    run "dense: <p>x</p> ($(size "$DIR/dense.html"))" "$bin" "exec \"\$BIN\" extract $DIR/dense.html"
    run "dense, 94-byte paragraphs ($(size "$DIR/dense-p94.html"))" "$bin" \
      "exec \"\$BIN\" extract $DIR/dense-p94.html"
    run "dense, 19-byte <b> runs ($(size "$DIR/dense-b19.html"))" "$bin" \
      "exec \"\$BIN\" extract $DIR/dense-b19.html"
    run "plain page, 48 MB" "$bin" "exec \"\$BIN\" extract $DIR/plain-dense.html"
    run "gzip ($(size "$DIR/dense-256m.html.gz")) of a 256 MiB dense page" "$bin" \
      "exec \"\$BIN\" extract $DIR/dense-256m.html.gz"
    run "foreign content ($(size "$DIR/foreign.html"))" "$bin" "exec \"\$BIN\" extract $DIR/foreign.html"
    run "MathML, same shape ($(size "$DIR/mathml.html"))" "$bin" "exec \"\$BIN\" extract $DIR/mathml.html"
    run "foreign content without the table ($(size "$DIR/svg.html"))" "$bin" "exec \"\$BIN\" extract $DIR/svg.html"
    run "plain page, same size" "$bin" "exec \"\$BIN\" extract $DIR/plain-foreign.html"
    run "batch: WARC record declaring 100 GB, --max-bytes 10^12" "$bin" \
      "exec \"\$BIN\" batch -q --max-bytes 1000000000000 $DIR/huge-length.warc --out $DIR/huge.jsonl"
    run "batch --threads 100000, a WARC of 8 records" "$bin" \
      "exec \"\$BIN\" batch -q --threads 100000 $DIR/eight.warc --out $DIR/eight.jsonl"
    run "batch --resume, a 1 GB garbage last line" "$bin" \
      "cp --sparse=always $DIR/resume.jsonl.tmp $DIR/r.jsonl.tmp && exec \"\$BIN\" batch -q --resume \
       $DIR/plain-foreign.html --out $DIR/r.jsonl"
  fi
  [ "$SET" = issue41 ] && continue
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
