#!/usr/bin/env node
// A peer of ../shared/bench/peers/peers.py in its batch protocol (its README,
// "Adding unchaff"): one process over a list of pages (`id<TAB>path<TAB>url`
// a line), each page's text to OUTDIR/<id>.txt, each page's time, measured
// in this process around the extraction alone, to OUTDIR/_timings.tsv.
//
//   node js/bench/peer.mjs unchaff LIST OUTDIR            # this package (WebAssembly)
//   node js/bench/peer.mjs readability_jsdom LIST OUTDIR  # Readability.js on jsdom
//   node js/bench/peer.mjs readability_linkedom LIST OUTDIR  # ... on linkedom
//
// PEERS_WARMUP=N runs the first N pages untimed first (default 1, as the
// harness's own Node peer); a number past the list's length warms the
// just-in-time compilers on every page, for steady-state figures.
//
// The harness gives --add commands the page's original bytes. unchaff
// decodes them itself, inside its timing (as the native binary does).
// Readability needs a string: the page is decoded first, untimed, in the
// harness's own order for its built-in peers (a byte-order mark, valid
// UTF-8, the page's <meta> charset, else windows-1252; without the
// harness's statistical step for undeclared CJK pages), with jsdom's
// sniffer and decoder (html-encoding-sniffer, whatwg-encoding). The
// timing is the DOM's parse and Readability's.
// jsdom, linkedom and Readability come from js/bench/node_modules (npm ci
// there).

import { mkdirSync, openSync, readFileSync, writeFileSync, writeSync, closeSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/** Pages run untimed first, as the harness's own Node peer does. */
const WARMUP = Number(process.env.PEERS_WARMUP ?? 1);

async function make(peer) {
  if (peer === "unchaff") {
    const u = await import("../src/node.js");
    const ex = new u.Extractor({ format: "text" });
    return {
      version: `${u.version()} (WebAssembly, node ${process.version})`,
      prepare: (bytes) => bytes,
      extract: (bytes, url) => ex.extract(bytes, { url: url || undefined }),
    };
  }
  if (peer === "readability_jsdom" || peer === "readability_linkedom") {
    const require = createRequire(new URL("./package.json", import.meta.url));
    const { Readability } = require("@mozilla/readability");
    const sniff = require("html-encoding-sniffer");
    const { decode } = require("whatwg-encoding");
    const v = (p) => require(`${p}/package.json`).version;
    const utf8 = new TextDecoder("utf-8", { fatal: true });
    const hasBom = (b) =>
      (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) ||
      (b[0] === 0xfe && b[1] === 0xff) ||
      (b[0] === 0xff && b[1] === 0xfe);
    const prepare = (bytes) => {
      if (!hasBom(bytes)) {
        try {
          return utf8.decode(bytes);
        } catch {
          // not UTF-8: the <meta> charset, else windows-1252
        }
      }
      return decode(bytes, sniff(bytes, { defaultEncoding: "windows-1252" }));
    };
    const text = (document) => new Readability(document).parse()?.textContent ?? "";
    if (peer === "readability_linkedom") {
      const { parseHTML } = require("linkedom");
      return {
        version: `${v("@mozilla/readability")} (linkedom ${v("linkedom")}, node ${process.version})`,
        prepare,
        extract: (html) => text(parseHTML(html).document),
      };
    }
    const { JSDOM } = require("jsdom");
    return {
      version: `${v("@mozilla/readability")} (jsdom ${v("jsdom")}, node ${process.version})`,
      prepare,
      extract: (html, url) => {
        const dom = new JSDOM(html, url ? { url } : {});
        const out = text(dom.window.document);
        dom.window.close();
        return out;
      },
    };
  }
  throw new Error(`unknown peer ${peer} (unchaff, readability_jsdom, readability_linkedom)`);
}

async function main() {
  const [peer, list, outdir] = process.argv.slice(2);
  if (!outdir) {
    console.error("usage: node peer.mjs unchaff|readability_jsdom|readability_linkedom LIST OUTDIR");
    process.exit(2);
  }
  mkdirSync(outdir, { recursive: true });
  const items = readFileSync(list, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => l.split("\t"));
  const p = await make(peer);
  for (const [, path, url] of items.slice(0, WARMUP)) {
    try {
      p.extract(p.prepare(readFileSync(path)), url);
    } catch {
      // a warm-up page's error shows again in the timed run
    }
  }
  const errors = {};
  const timings = openSync(join(outdir, "_timings.tsv"), "w");
  for (const [id, path, url] of items) {
    const input = p.prepare(readFileSync(path));
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    let text = "";
    try {
      text = p.extract(input, url);
    } catch (e) {
      errors[id] = String(e).slice(0, 200);
    }
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpu = process.cpuUsage(c0);
    writeFileSync(join(outdir, `${id}.txt`), text);
    writeSync(timings, `${id}\t${secs.toFixed(6)}\t${((cpu.user + cpu.system) / 1e6).toFixed(6)}\n`);
  }
  closeSync(timings);
  writeFileSync(join(outdir, "_meta.json"), JSON.stringify({ version: p.version, errors }));
}

await main();
