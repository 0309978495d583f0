#!/usr/bin/env bash
# Fuzzes unchaff's extract target (fuzz/fuzz_targets/extract.rs) with
# libFuzzer, on the stable toolchain: coverage instrumentation through
# stable -C flags, libFuzzer itself compiled by the libfuzzer-sys crate
# (needs a C++ compiler). No cargo-fuzz needed (it works too:
# `cargo fuzz run extract`, on nightly).
#
# Usage: scripts/fuzz.sh [SECONDS] [extra libFuzzer flags...]
#   SECONDS: how long to fuzz (default 60; CI uses the default).
# The seed corpus is generated here from the repository's own example page
# and hand-written hostile fragments (never third-party pages); findings
# (crash-*, oom-*, timeout-*) land in fuzz/artifacts/extract/.
set -euo pipefail
cd "$(dirname "$0")/.."

SECS=${1:-60}
shift || true
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
cargo build --release --manifest-path fuzz/Cargo.toml --target "$HOST" --bin extract

CORPUS=fuzz/corpus/extract
ART=fuzz/artifacts/extract
mkdir -p "$CORPUS" "$ART"
# Seeds: each is <algorithm byte><options byte><page>.
python3 - "$CORPUS" examples/article.html <<'PY'
import sys, os
out, example = sys.argv[1], sys.argv[2]
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
pages.append(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03\xb3)\xb0\xcbH\xcd\xc9\xc9\xb7\xd1/\xb0\x03\x00\x0b\x8a\x9b\x0e\x0e\x00\x00\x00")
n = 0
for i, page in enumerate(pages):
    for alg in range(16):
        opts = (alg * 7 + i) % 128
        with open(os.path.join(out, f"seed-{i:02}-{alg:02}"), "wb") as f:
            f.write(bytes([alg, opts]) + page)
        n += 1
print(f"{n} seeds", file=sys.stderr)
PY

# -rss_limit_mb: a page's memory is bounded (docs/ROBUSTNESS.md); 2 GB
# means a leak or an amplification. -timeout: seconds for one input.
exec "fuzz/target/$HOST/release/extract" "$CORPUS" -artifact_prefix="$ART/" \
  -max_total_time="$SECS" -max_len=262144 -rss_limit_mb=2048 -timeout=20 \
  -print_final_stats=1 "$@"
