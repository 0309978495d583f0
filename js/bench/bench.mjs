#!/usr/bin/env node
// In-process speed of the package in Node, measured as `unchaff bench`
// measures the native library: every page of the folders read and gunzipped
// first (untimed), one untimed warm-up pass, then --repeat passes of
// `extractor.extract(bytes)` (auto, text, no URL); the fastest pass counts.
//
//   node bench/bench.mjs ../../shared/data/scrapinghub
//   node bench/bench.mjs --repeat 5 --format json DATA...
//   node bench/bench.mjs --wasm /tmp/other.wasm DATA...   # another build of the module
//
// Compare with `unchaff bench DATA -j 1` run in the same minutes
// (docs/BENCHMARKS.md, "JavaScript").

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { gunzipSync } from "node:zlib";

import { initSync } from "../dist/unchaff_wasm.js";

/** Timed passes by default, as `unchaff bench`. */
const DEFAULT_REPEAT = 3;

function usage(msg) {
  console.error(`bench: ${msg}\nusage: node bench/bench.mjs [--repeat N] [--format F] [--wasm FILE] DATA...`);
  process.exit(2);
}

const args = process.argv.slice(2);
let repeat = DEFAULT_REPEAT;
let format = "text";
let wasmFile = new URL("../dist/unchaff_wasm_bg.wasm", import.meta.url);
const data = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === "--repeat") repeat = Number(args[++i]);
  else if (a === "--format") format = args[++i];
  else if (a === "--wasm") wasmFile = args[++i];
  else if (a.startsWith("-")) usage(`unknown option ${a}`);
  else data.push(a);
}
if (!data.length) usage("no data folder");
if (!(repeat >= 1)) usage("--repeat must be at least 1");

initSync({ module: readFileSync(wasmFile) });
const { Extractor, version } = await import("../src/api.js");

/** The page files of a dataset folder, or of every dataset folder under it. */
function pageFiles(dir) {
  const pages = join(dir, "pages");
  if (statSync(pages, { throwIfNoEntry: false })?.isDirectory()) {
    return readdirSync(pages)
      .filter((f) => f.endsWith(".html") || f.endsWith(".html.gz"))
      .sort()
      .map((f) => join(pages, f));
  }
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .flatMap((d) => pageFiles(join(dir, d)));
}

const pages = data
  .flatMap(pageFiles)
  .map((f) => (f.endsWith(".gz") ? gunzipSync(readFileSync(f)) : readFileSync(f)));
if (!pages.length) usage("no pages");
const bytes = pages.reduce((n, p) => n + p.length, 0);
const ex = new Extractor({ format });

// The fastest pass (wall), and each page's fastest time over the passes
// summed (as ../shared/bench/peers sums per-page minima: a pass that the
// scheduler interrupted on a loaded machine still counts its other pages).
let best = Infinity;
let bestCpu = Infinity;
const fastest = new Array(pages.length).fill(Infinity);
let errors = 0;
for (let pass = 0; pass <= repeat; pass++) {
  errors = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < pages.length; i++) {
    const p0 = performance.now();
    try {
      ex.extract(pages[i]);
    } catch {
      errors++;
    }
    if (pass > 0) fastest[i] = Math.min(fastest[i], performance.now() - p0);
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  if (pass > 0) {
    best = Math.min(best, ms);
    bestCpu = Math.min(bestCpu, (cpu.user + cpu.system) / 1e3);
  }
}
const secs = best / 1e3;
const minSecs = fastest.reduce((a, b) => a + b, 0) / 1e3;
console.log(
  `unchaff ${version()} (WebAssembly, node ${process.version})  format ${format}  pages ${pages.length}  HTML ${(bytes / 1e6).toFixed(1)} MB  best of ${repeat} passes`,
);
console.log(
  `wall ${secs.toFixed(3)} s  ${(pages.length / secs).toFixed(1)} pages/s  ${(bytes / 1e6 / secs).toFixed(1)} MB/s  (${((secs * 1e3) / pages.length).toFixed(3)} ms/page)  errors ${errors}`,
);
console.log(
  `CPU of the best pass ${(bestCpu / 1e3).toFixed(3)} s (${(pages.length / (bestCpu / 1e3)).toFixed(1)} pages/s); per-page minima summed ${minSecs.toFixed(3)} s (${(pages.length / minSecs).toFixed(1)} pages/s)`,
);
