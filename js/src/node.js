// The entry point for Node (18 or later) and runtimes with its `node:fs`
// (Deno, Bun): the module is read from the package and instantiated
// synchronously, before the importer runs.

import { readFileSync } from "node:fs";
import { initSync } from "../dist/unchaff_wasm.js";

initSync({ module: readFileSync(new URL("../dist/unchaff_wasm_bg.wasm", import.meta.url)) });

export * from "./api.js";
