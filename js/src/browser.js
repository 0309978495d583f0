// The entry point for browsers (and any runtime with `fetch`): the module
// is fetched beside this file and instantiated (streaming where the
// server sends `application/wasm`) before the importer runs. Bundlers
// that understand `new URL(..., import.meta.url)` copy the .wasm along.

import init from "../dist/unchaff_wasm.js";

await init({ module_or_path: new URL("../dist/unchaff_wasm_bg.wasm", import.meta.url) });

export * from "./api.js";
