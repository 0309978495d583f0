#!/usr/bin/env bash
# Fuzzes unchaff with libFuzzer on the stable toolchain: coverage
# instrumentation through stable -C flags, libFuzzer itself compiled by the
# libfuzzer-sys crate (needs a C++ compiler). No cargo-fuzz needed (it works
# too: `cargo fuzz run extract`, on nightly).
#
# Usage: scripts/fuzz.sh [TARGET] [SECONDS] [extra libFuzzer flags...]
#   TARGET:  extract | markdown | warc | warc_damage | jsonl | all   (default all)
#     extract  unchaff's extract, every algorithm and output format
#              (fuzz/fuzz_targets/extract.rs)
#     markdown the Markdown writer: no raw HTML from the page reachable
#              through a CommonMark renderer
#     warc     the batch crate's WARC reader, plain and gzip
#     warc_damage  the WARC reader over good records, plain or a gzip member
#              each, damaged as the input says (cut, bits flipped, junk, bad
#              Content-Length): every intact record whole, one item a damage
#     jsonl    the batch crate's JSONL page reader
#   SECONDS: how long to fuzz each target (default 60).
# Example: scripts/fuzz.sh warc 600 -jobs=2 -workers=2
#
# The seed corpora are generated here from the repository's own example
# page and hand-written fragments (never third-party pages). Findings
# (crash-*, oom-*, timeout-*) land in fuzz/artifacts/TARGET/ and make the
# script exit non-zero. FUZZ_BUILD_ONLY=1 builds the targets and stops.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET=${1:-all}
SECS=${2:-60}
shift 2 2>/dev/null || shift $# 
case "$TARGET" in
  extract|markdown|warc|warc_damage|jsonl) TARGETS=("$TARGET") ;;
  all) TARGETS=(extract markdown warc warc_damage jsonl) ;;
  *) echo "fuzz.sh: unknown target '$TARGET' (extract, markdown, warc, warc_damage, jsonl or all)" >&2; exit 2 ;;
esac
case "$SECS" in
  ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, not '$SECS'" >&2; exit 2 ;;
esac

export RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module \
  -Cllvm-args=-sanitizer-coverage-level=4 \
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
  -Cllvm-args=-sanitizer-coverage-pc-table \
  -Cllvm-args=-sanitizer-coverage-trace-compares \
  -Cdebug-assertions -Coverflow-checks"
# A target folder of its own: these flags would rebuild the main one. An
# explicit --target keeps the flags off build scripts and proc macros.
export CARGO_TARGET_DIR=fuzz/target
HOST=$(rustc -vV | sed -n 's/^host: //p')
BINS=()
for t in "${TARGETS[@]}"; do BINS+=(--bin "$t"); done
cargo build --release --locked --manifest-path fuzz/Cargo.toml --target "$HOST" "${BINS[@]}"
[ -n "${FUZZ_BUILD_ONLY:-}" ] && exit 0

# Seeds. extract: <algorithm byte><options byte><page>; warc: WARC files,
# plain and gzip per record, with the record kinds that once broke the
# reader; jsonl: page lines, good and bad.
python3 - examples/article.html "${TARGETS[@]}" <<'PY'
import gzip, os, sys
example, targets = sys.argv[1], sys.argv[2:]
pages = [open(example, "rb").read()] if os.path.exists(example) else []
pages += [s.encode() for s in [
    "<title>T</title><article><h1>Head</h1><p>Some <b>main</b> text, <a href=/x>a link</a>.</p>"
    "<blockquote><p>quoted</p></blockquote><ul><li>one<li>two</ul><pre>code</pre></article>",
    "<table><tr><td><font color=red><b>cell</td><td>two</table><p>after",
    "<div>" * 40 + "deep" + "</div>" * 40,
    "".join(f"<b id={i}>" for i in range(80)) + "<div>x</div>" * 20,
    "<p" + "".join(f" a{i}=1" for i in range(600)) + ">attrs</p>",
    "<svg><path d='M0 0'/></svg><math><mi>x</mi></math><template><p>t</p></template>",
    "<head><meta charset=windows-1252><link rel=canonical href=javascript:x>"
    "<script type=application/ld+json>{\"@type\":\"Article\",\"author\":{\"name\":\"A\"}}</script>"
    "</head><body><p>caf\xe9</p>",
    "<b>1<p>2</b>3</p><i><div>4</i>5</div><a href=a><a href=b>6</a>",
    "<!-- c --><noscript><p>n</p></noscript><style>p{}</style><script>if(a<b)x()</script><p>t",
]]
pages.append(gzip.compress(b"<p>hello</p>", mtime=0))

def seeds(name):
    d = os.path.join("fuzz/corpus", name)
    os.makedirs(d, exist_ok=True)
    return d

def write(d, name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

if "extract" in targets:
    d = seeds("extract")
    for i, page in enumerate(pages):
        for alg in range(16):
            write(d, f"seed-{i:02}-{alg:02}", bytes([alg, (alg * 7 + i) % 128]) + page)

if "markdown" in targets:
    d = seeds("markdown")
    md_pages = pages + [s.encode() for s in [
        "<pre>```\n&lt;img src=x onerror=alert(1)&gt;</pre><p><code>a`&lt;b&gt;</code></p>",
        "<p><a href='x\n\n<img src=y>'>t</a><img src='p q' alt='&lt;i&gt;]('></p>",
        "<table><tr><td rowspan=2>a|b<br>c</td><td><ul><li>x</li></ul></td></tr><tr><td>`y</td></tr></table>",
        "<p>H<sub>2</sub>O <math><mfrac><mi>a</mi><mi>b</mi></mfrac></math> \\(x^2\\)</p>",
    ]]
    for i, page in enumerate(md_pages):
        for alg in range(4):
            write(d, f"seed-{i:02}-{alg:02}", bytes([alg * 5]) + page)

def record(kind, uri, block, length=None, extra=""):
    head = (f"WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{abs(hash((kind, uri, block))) % 10**12}>\r\n"
            f"WARC-Date: 2026-11-24T00:00:00Z\r\nWARC-Target-URI: {uri}\r\n{extra}"
            f"Content-Length: {len(block) if length is None else length}\r\n\r\n")
    return head.encode() + block + b"\r\n\r\n"

def http(body, status="200 OK", ctype="text/html; charset=utf-8", chunked=False, extra=""):
    if chunked:
        body = b"%x\r\n" % len(body) + body + b"\r\n0\r\n\r\n"
    te = "Transfer-Encoding: chunked\r\n" if chunked else ""
    return f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\n{te}{extra}\r\n".encode() + body

if "warc" in targets:
    d = seeds("warc")
    short = pages[1][:400]
    good = record("response", "http://example.org/a", http(short))
    files = {
        "plain": record("warcinfo", "", b"software: seed\r\n") + good
                 + record("request", "http://example.org/a", b"GET /a HTTP/1.1\r\n\r\n"),
        "chunked": record("response", "https://example.org/c", http(short, chunked=True)),
        "statuses": record("response", "http://example.org/404", http(b"<p>gone</p>", "404 Not Found"))
                    + record("response", "http://example.org/img", http(b"\x89PNG", ctype="image/png"))
                    + good,
        "revisit": record("revisit", "http://example.org/a", http(b""), extra="WARC-Profile: x\r\n") + good,
        "dns": record("response", "dns:example.org", b"20261124000000\nexample.org. 300 IN A 1.2.3.4\n") + good,
        "bad-length": record("response", "http://example.org/b", http(short), length=len(short) * 3) + good + good,
        "cut": good + good[: len(good) // 2],
        "garbage-between": good + b"\x00junk\r\nnot a record\r\n" + good,
        "no-length": b"WARC/1.1\r\nWARC-Type: response\r\n\r\n" + good,
        "http-only-headers": record("response", "http://example.org/h", b"HTTP/1.1 200 OK\r\nX: " + b"y" * 300),
        "latin1": record("response", "http://example.org/l", http("<p>caf\xe9</p>".encode("latin-1"), ctype="text/html; charset=iso-8859-1")),
    }
    for name, data in files.items():
        write(d, name, data)
    write(d, "gzip-members", b"".join(gzip.compress(r, mtime=0) for r in [good, files["dns"], good]))
    write(d, "gzip-whole", gzip.compress(files["plain"] + files["statuses"], mtime=0))
    write(d, "gzip-corrupt-member", gzip.compress(good, mtime=0)[:40] + gzip.compress(good, mtime=0))

if "warc_damage" in targets:
    # <mode: bit 0 gzip> then (kind, record, amount) triples.
    d = seeds("warc_damage")
    for mode in (0, 1):
        write(d, f"none-{mode}", bytes([mode]))
        for kind in range(4):
            for amount in (0, 7, 20, 100, 230):
                write(d, f"one-{mode}-{kind}-{amount}", bytes([mode, kind, 3, amount]))
        write(d, f"many-{mode}", bytes([mode, 0, 1, 8, 1, 4, 50, 2, 6, 3, 3, 7, 2]))
if "jsonl" in targets:
    import json
    d = seeds("jsonl")
    lines = [
        json.dumps({"url": "https://example.org/a", "html": pages[1].decode()}),
        json.dumps({"id": 7, "html": "<p>n</p>"}),
        json.dumps({"id": "s", "url": None, "html": "<p>caf\u00e9 \u4e2d</p>"}),
        '{"html": 3}', "not json", "", "[1,2]", '{"url": "u"}',
        json.dumps({"html": "x" * 2000}),
    ]
    write(d, "mixed", ("\n".join(lines) + "\n").encode())
    write(d, "crlf", "\r\n".join(lines[:3]).encode())
    write(d, "one-no-newline", lines[0].encode())
PY

STATUS=0
for t in "${TARGETS[@]}"; do
  ART=fuzz/artifacts/$t
  mkdir -p "$ART"
  echo "== fuzz $t for ${SECS}s"
  # -rss_limit_mb: a page's memory is bounded (docs/ROBUSTNESS.md); 2 GB
  # means a leak or an amplification. -timeout: seconds for one input.
  "fuzz/target/$HOST/release/$t" "fuzz/corpus/$t" -artifact_prefix="$ART/" \
    -max_total_time="$SECS" -max_len=262144 -rss_limit_mb=2048 -timeout=20 \
    -print_final_stats=1 "$@" || STATUS=1
done
exit $STATUS
