#!/usr/bin/env node
// What a fresh process pays before its first page: importing the package
// (reading and instantiating the module), building the first extractor
// (parsing auto's model) and the first extraction (the repository's
// example), then a second extraction of the same page.
//
//   node js/bench/startup.mjs

import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const t0 = performance.now();
const u = await import("../src/node.js");
const t1 = performance.now();
const page = readFileSync(new URL("../../examples/article.html", import.meta.url));
const ex = new u.Extractor();
const t2 = performance.now();
ex.extract(page);
const t3 = performance.now();
ex.extract(page);
const t4 = performance.now();
const ms = (a, b) => `${(b - a).toFixed(1)} ms`;
console.log(
  `import ${ms(t0, t1)}, new Extractor ${ms(t1, t2)}, first page ${ms(t2, t3)}, second page ${ms(t3, t4)}`,
);
