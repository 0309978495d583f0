#!/usr/bin/env bash
# The JavaScript package (js/, README "JavaScript"): build the WebAssembly
# module, lint its crate, then `npm test` (Node, against the native binary
# built here) and `npm run test:browser` (headless Chromium).
#
#   bash scripts/js-test.sh
#
# Installs what it needs: the wasm32-unknown-unknown target (rustup),
# wasm-bindgen-cli at the version js/crate/Cargo.lock pins (cargo install,
# once, into ~/.cache/unchaff-tools or $UNCHAFF_TOOLS), the npm
# dependencies (npm ci) and, for the browser test, Debian's chromium
# (apt-get, as root). What cannot be had is reported SKIPPED with the
# reason, never passed: without node 18+ and npm or the wasm toolchain the
# whole part; without Chromium the browser test (node's runner prints it).
# Dev data: ../shared/data or $UNCHAFF_DATA (the data test skips, visibly,
# without it). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}

skip_all() {
  echo "JavaScript package: SKIPPED: $1"
  exit 0
}

echo "== JavaScript: toolchain"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  skip_all "no node and npm on PATH (the package needs Node 18 or later)"
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 18 ]; then
  skip_all "node $(node --version) is older than 18"
fi
# The wasm32 target and wasm-bindgen-cli (a cargo install the first time).
if ! node js/scripts/build.mjs --tools; then
  skip_all "the wasm toolchain could not be installed (rustup target add wasm32-unknown-unknown, cargo install wasm-bindgen-cli: see above)"
fi

echo "== JavaScript: npm ci"
(cd js && npm ci --no-audit --no-fund)

echo "== JavaScript: npm run build"
(cd js && npm run build)

echo "== JavaScript: the wasm crate's fmt and clippy (outside the workspace)"
cargo fmt --manifest-path js/crate/Cargo.toml -- --check
cargo clippy --manifest-path js/crate/Cargo.toml --release --target wasm32-unknown-unknown -- -D warnings

echo "== JavaScript: npm test (against the native binary of this tree)"
cargo build --release --locked -p unchaff-cli --features full
export UNCHAFF_BIN=$CARGO_TARGET_DIR/release/unchaff
(cd js && npm test)

echo "== JavaScript: the browser test"
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  apt=()
  if [ "$(id -u)" = 0 ]; then apt=(apt-get); elif sudo -n true 2>/dev/null; then apt=(sudo -n apt-get); fi
  if [ ${#apt[@]} -eq 0 ]; then
    echo "no Chromium and no root to apt-get install it: the browser test will say SKIP"
  elif ! { "${apt[@]}" update -qq && DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq chromium; } >/dev/null; then
    echo "apt-get install chromium failed: the browser test will say SKIP"
  fi
fi
(cd js && npm run test:browser)
