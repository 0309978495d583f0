#!/usr/bin/env bash
# Load test of `unchaff serve` on loopback, beside the in-process figure.
#
#   scripts/load_test.sh [SECONDS] [CONNECTIONS] [WORKERS]    (defaults: 60 64 2)
#
# Decompresses the scrapinghub pages into a temporary directory, starts
# `unchaff serve` on a free loopback port with WORKERS workers and a queue
# deep enough for CONNECTIONS (so that every 503 would be a defect; run
# with QUEUE=N to see the designed 503s), drives it with wrk for SECONDS
# at CONNECTIONS connections (scripts/load_test.lua: POST /extract, the
# pages in turn), and prints: responses by status, socket errors, p50 /
# p90 / p99 latency, requests/s, the server's peak RSS, its metrics, its
# exit status after SIGTERM; and, before and after (interleaved: the
# machine's load moves), `unchaff bench scrapinghub --threads WORKERS -f
# json` for the in-process pages/s of the same work. Needs wrk (Debian package `wrk`;
# installed with apt-get when missing and run as root).
#
# Environment: UNCHAFF_DATA (default ../shared/data), UNCHAFF_BIN (default
# target/release/unchaff), WRK_THREADS (default 1: the client's own CPU
# comes out of the same cores), QUEUE.
set -euo pipefail

secs=${1:-60}
conns=${2:-64}
workers=${3:-2}
data=${UNCHAFF_DATA:-../shared/data}
bin=${UNCHAFF_BIN:-target/release/unchaff}
here=$(cd "$(dirname "$0")" && pwd)
queue=${QUEUE:-$conns}

if ! command -v wrk >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y wrk >/dev/null || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }
  else
    echo "load_test: needs wrk (apt-get install wrk)" >&2
    exit 2
  fi
fi
[ -x "$bin" ] || { echo "load_test: build first: cargo build --release -p unchaff-cli --features server" >&2; exit 2; }
[ -d "$data/scrapinghub/pages" ] || { echo "load_test: no $data/scrapinghub/pages (set UNCHAFF_DATA)" >&2; exit 2; }

tmp=$(mktemp -d)
server=
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -TERM "$server"; wait "$server" || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

mkdir "$tmp/pages"
for f in "$data"/scrapinghub/pages/*.html.gz; do
  gunzip -c "$f" > "$tmp/pages/$(basename "$f" .gz)"
done
echo "pages: $(ls "$tmp/pages" | wc -l), $(du -sh "$tmp/pages" | cut -f1) decompressed"

echo "--- in-process, before: unchaff bench scrapinghub --threads $workers -f json"
"$bin" bench "$data/scrapinghub" --threads "$workers" -f json | sed -n 2p

"$bin" serve --listen 127.0.0.1:0 --workers "$workers" --queue "$queue" 2> "$tmp/server.log" &
server=$!
for _ in $(seq 100); do grep -q 'listening on' "$tmp/server.log" && break; sleep 0.1; done
addr=$(grep -o 'http://[0-9.:]*' "$tmp/server.log" | head -1)
[ -n "$addr" ] || { cat "$tmp/server.log"; exit 1; }
echo "server: $addr, $workers workers, queue $queue (pid $server)"
echo "load: $(uptime)"

wrk -t "${WRK_THREADS:-1}" -c "$conns" -d "${secs}s" --timeout 30s \
  -s "$here/load_test.lua" "$addr/extract" -- "$tmp/pages"

echo "server peak RSS: $(grep VmHWM /proc/$server/status | awk '{print $2, $3}')"
curl -s "$addr/metrics" | grep -E '^unchaff_(requests_total|errors_total|pages_total)' || true
kill -TERM "$server"
status=0; wait "$server" || status=$?
server=
echo "server exit status after SIGTERM: $status"
echo "load: $(uptime)"
echo "--- in-process, after: unchaff bench scrapinghub --threads $workers -f json"
"$bin" bench "$data/scrapinghub" --threads "$workers" -f json | sed -n 2p
