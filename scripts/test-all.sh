#!/usr/bin/env bash
# The one test command (README "Tests"): the Rust workspace, then the
# Python package built into a virtual environment this script creates
# (.venv-test) and tested with pytest, Spark tests included, then the
# JavaScript package (scripts/js-test.sh: its WebAssembly build, Node and
# headless-Chromium tests; skipped, with the reason, without Node or the
# wasm toolchain).
#
#   bash scripts/test-all.sh            # everything
#   UNCHAFF_SKIP_CARGO_TESTS=1 ...      # the Python part only (cargo tests ran already)
#
# Installs what it needs: maturin and pytest from PyPI; for the Spark tests
# pyspark + pyarrow from PyPI and, when `java` is missing, a JRE from the
# distribution (apt-get, as root). When one of those cannot be installed the
# Spark tests are reported SKIPPED with the reason (pytest -rs), never passed.
# Dev data: ../shared/data or $UNCHAFF_DATA (the data tests skip, visibly,
# without it). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}

# Spark 3.5 (the newest line with a Java 8-17 runtime and numpy 1 support);
# pyarrow below 18 works with the numpy 1.x that pyspark 3.5 installs.
PYSPARK_REQ=("pyspark[sql]==3.5.5" "pyarrow>=14,<18")

if [ -z "${UNCHAFF_SKIP_CARGO_TESTS:-}" ]; then
  # --all-features: every command of the CLI (server, train, templates,
  # fetch, parquet) is built and tested; the default build is extraction
  # only (README, Install).
  echo "== cargo test --release --workspace --all-features"
  cargo test --release --workspace --all-features --locked
fi
# The CLI the Spark test compares against (`unchaff batch`).
cargo build --release --locked -p unchaff-cli --features full
export UNCHAFF_BIN=$CARGO_TARGET_DIR/release/unchaff

echo "== Python: build the package into .venv-test"
PY=${PYTHON:-python3}
VENV=$ROOT/.venv-test
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
VPY=$VENV/bin/python
"$VPY" -m pip install -q --disable-pip-version-check "maturin>=1.5,<2" "pytest>=7"
WHEELS=$CARGO_TARGET_DIR/wheels-test
rm -rf "$WHEELS"
# Not --locked: python/Cargo.lock is the package's own lock, and it takes
# in (without upgrading anything else) what the workspace crates add.
(cd python && "$VENV/bin/maturin" build --release --interpreter "$VPY" --out "$WHEELS")
"$VPY" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$WHEELS"/unchaff-*.whl

echo "== Spark prerequisites"
skip=""
if ! "$VPY" -m pip install -q --disable-pip-version-check "${PYSPARK_REQ[@]}"; then
  skip="pip could not install ${PYSPARK_REQ[*]}"
fi
if ! command -v java >/dev/null 2>&1 && [ -z "${JAVA_HOME:-}" ]; then
  apt=()
  if [ "$(id -u)" = 0 ]; then apt=(apt-get); elif sudo -n true 2>/dev/null; then apt=(sudo -n apt-get); fi
  if [ ${#apt[@]} -eq 0 ]; then
    skip="${skip:+$skip; }no Java runtime and no root to apt-get install openjdk-17-jre-headless"
  elif ! { "${apt[@]}" update -qq && DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq openjdk-17-jre-headless; } >/dev/null; then
    skip="${skip:+$skip; }no Java runtime: apt-get install openjdk-17-jre-headless failed"
  fi
fi
export UNCHAFF_SPARK_SKIP="$skip"
[ -n "$skip" ] && echo "Spark tests will be skipped: $skip"

echo "== datatrove prerequisites (.venv-datatrove)"
# unchaff.datatrove's integration test runs a real datatrove pipeline, in
# an environment of its own: datatrove needs numpy 2, pyspark 3.5 numpy 1.
# It is skipped, with the reason, when datatrove cannot be installed.
DVENV=$ROOT/.venv-datatrove
dt_skip=""
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  dt_skip="datatrove needs Python 3.10+"
else
  [ -x "$DVENV/bin/python" ] || "$PY" -m venv "$DVENV"
  if ! "$DVENV/bin/python" -m pip install -q --disable-pip-version-check "pytest>=7" "datatrove[io]>=0.4"; then
    dt_skip="pip could not install datatrove[io]"
  else
    "$DVENV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$WHEELS"/unchaff-*.whl
  fi
fi
[ -n "$dt_skip" ] && echo "datatrove tests will be skipped: $dt_skip"

echo "== pytest"
# The pytest script, not `python -m pytest`: the current directory must not
# be on sys.path, so that `import unchaff` is the installed wheel.
"$VENV/bin/pytest" -rs -p no:cacheprovider --ignore python/tests/test_datatrove.py python/tests
echo "== pytest: datatrove"
if [ -z "$dt_skip" ]; then
  "$DVENV/bin/pytest" -rs -p no:cacheprovider python/tests/test_datatrove.py
else
  UNCHAFF_DATATROVE_SKIP="$dt_skip" "$VENV/bin/pytest" -rs -p no:cacheprovider python/tests/test_datatrove.py
fi

echo "== JavaScript: scripts/js-test.sh"
bash scripts/js-test.sh
