#!/usr/bin/env node
// `npm run build`: the WebAssembly module of the package, from nothing but
// cargo and this package's npm dependencies.
//
//   1. the wasm32-unknown-unknown target (rustup target add, when missing);
//   2. wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in
//      crate/Cargo.lock (cargo install from crates.io into a tools folder,
//      once: $UNCHAFF_TOOLS, default ~/.cache/unchaff-tools);
//   3. cargo build --release --target wasm32-unknown-unknown (crate/);
//   4. wasm-bindgen --target web into dist/;
//   5. with WASM_OPT=/path/to/wasm-opt only: wasm-opt -O3. Not by default:
//      binaryen's -O3 left the gzipped module larger and the speed the same
//      (docs/BENCHMARKS.md, "JavaScript").
//
// Prints the module's size, raw and gzipped. The cargo target folder is
// $CARGO_TARGET_DIR, else the repository's target/. `--tools` stops after
// steps 1 and 2 (scripts/js-test.sh: a toolchain that cannot be had is a
// skip, a build that fails is a failure).

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const TARGET = "wasm32-unknown-unknown";
const PKG = dirname(dirname(fileURLToPath(import.meta.url)));
const CRATE = join(PKG, "crate");
const REPO = dirname(PKG);
const DIST = join(PKG, "dist");
const TARGET_DIR = process.env.CARGO_TARGET_DIR || join(REPO, "target");
const TOOLS = process.env.UNCHAFF_TOOLS || join(homedir(), ".cache", "unchaff-tools");
/** gzip level of the size report: what a server or CDN sends at best. */
const GZIP_LEVEL = 9;

function say(msg) {
  console.log(`build: ${msg}`);
}

function run(cmd, args, opts = {}) {
  say(`${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} exited with ${r.status}`);
}

function output(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    return null;
  }
}

/** The version of `name` in crate/Cargo.lock. */
function lockedVersion(name) {
  const lock = readFileSync(join(CRATE, "Cargo.lock"), "utf8");
  for (const block of lock.split("[[package]]")) {
    if (new RegExp(`^name = "${name}"$`, "m").test(block)) {
      const m = block.match(/^version = "([^"]+)"$/m);
      if (m) return m[1];
    }
  }
  throw new Error(`${name} is not in ${join(CRATE, "Cargo.lock")}`);
}

function ensureTarget() {
  const installed = output("rustup", ["target", "list", "--installed"]);
  if (installed === null) {
    say(`no rustup: assuming the toolchain has the ${TARGET} target`);
  } else if (!installed.split("\n").includes(TARGET)) {
    run("rustup", ["target", "add", TARGET]);
  }
}

/** A wasm-bindgen of exactly `version`: $WASM_BINDGEN, one on PATH, or installed into TOOLS. */
function wasmBindgen(version) {
  const want = `wasm-bindgen ${version}`;
  const candidates = [process.env.WASM_BINDGEN, "wasm-bindgen"].filter(Boolean);
  const root = join(TOOLS, `wasm-bindgen-cli-${version}`);
  const tool = join(root, "bin", "wasm-bindgen");
  candidates.push(tool);
  for (const c of candidates) {
    if (output(c, ["--version"])?.trim() === want) return c;
  }
  mkdirSync(root, { recursive: true });
  // --locked first (the CLI's own lock file); its pins can name a release the
  // registry no longer serves, and then the newest compatible ones do.
  const args = ["install", "wasm-bindgen-cli", "--version", `=${version}`, "--root", root];
  try {
    run("cargo", [...args, "--locked"]);
  } catch {
    say("cargo install --locked failed: installing without the CLI's lock file");
    run("cargo", args);
  }
  if (output(tool, ["--version"])?.trim() !== want) throw new Error(`${tool} is not ${want}`);
  return tool;
}

/** A wasm-opt the caller named (WASM_OPT), or none. */
function wasmOpt() {
  const bin = process.env.WASM_OPT;
  if (!bin) return null;
  if (!existsSync(bin)) throw new Error(`WASM_OPT=${bin}: no such file`);
  return bin;
}

function sizes(file) {
  const raw = readFileSync(file);
  const gz = gzipSync(raw, { level: GZIP_LEVEL }).length;
  return `${(raw.length / 1e6).toFixed(3)} MB, gzip -${GZIP_LEVEL} ${(gz / 1e6).toFixed(3)} MB`;
}

function main() {
  const version = lockedVersion("wasm-bindgen");
  ensureTarget();
  const bindgen = wasmBindgen(version);
  if (process.argv.includes("--tools")) {
    say(`toolchain ready: ${TARGET}, ${bindgen}`);
    return;
  }
  run("cargo", ["build", "--release", "--target", TARGET, "--manifest-path", join(CRATE, "Cargo.toml")], {
    env: { ...process.env, CARGO_TARGET_DIR: TARGET_DIR },
  });
  const wasm = join(TARGET_DIR, TARGET, "release", "unchaff_wasm.wasm");
  say(`cargo's module: ${sizes(wasm)}`);
  rmSync(DIST, { recursive: true, force: true });
  run(bindgen, [
    "--target",
    "web",
    "--no-typescript",
    "--remove-name-section",
    "--remove-producers-section",
    "--out-dir",
    DIST,
    "--out-name",
    "unchaff_wasm",
    wasm,
  ]);
  const out = join(DIST, "unchaff_wasm_bg.wasm");
  say(`wasm-bindgen's module: ${sizes(out)}`);
  const opt = wasmOpt();
  if (opt) {
    // The features rustc's wasm32 target turns on by default (Rust 1.82+).
    run(opt, [
      "-O3",
      "--enable-bulk-memory",
      "--enable-nontrapping-float-to-int",
      "--enable-sign-ext",
      "--enable-mutable-globals",
      "--enable-reference-types",
      "--enable-multivalue",
      out,
      "-o",
      out,
    ]);
    say(`wasm-opt -O3: ${sizes(out)}`);
  }
  say(`done: ${DIST} (${statSync(out).size} bytes of WebAssembly)`);
}

try {
  main();
} catch (e) {
  console.error(`build: ${e.message}`);
  process.exit(1);
}
