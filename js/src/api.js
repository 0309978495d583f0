// The package's API over the WebAssembly module (dist/unchaff_wasm.js, made
// by `npm run build`). The entry points (node.js, browser.js) instantiate
// the module and re-export this file; nothing here calls into the module
// while the modules load, only when the API is called (after the import).

import * as wasm from "../dist/unchaff_wasm.js";

/** Base class of unchaff's errors; `kind` names the error as `unchaff batch` rows do. */
export class UnchaffError extends Error {
  /**
   * @param {string} message
   * @param {string} [kind] the library's error kind ("extract" when none is more precise)
   */
  constructor(message, kind = "extract") {
    super(message);
    this.kind = kind;
  }
}

// One subclass per kind a caller may want to tell apart; `kind` is fixed.
function subclass(name, kind) {
  const C = class extends UnchaffError {
    constructor(message) {
      super(message, kind);
    }
  };
  Object.defineProperty(C, "name", { value: name });
  Object.defineProperty(C.prototype, "name", { value: name, writable: true, configurable: true });
  return C;
}
Object.defineProperty(UnchaffError.prototype, "name", {
  value: "UnchaffError",
  writable: true,
  configurable: true,
});

/** The input is empty (after gunzip). */
export const EmptyInputError = subclass("EmptyInputError", "empty");
/** The input is binary data, not an HTML page. */
export const BinaryInputError = subclass("BinaryInputError", "binary");
/** The input is larger than `maxInputBytes` (after gunzip). */
export const InputTooLargeError = subclass("InputTooLargeError", "too_large");
/** The page builds more elements than its budget (markup built to multiply them). */
export const TooManyElementsError = subclass("TooManyElementsError", "too_many_elements");
/** The page took longer than `timeout`. */
export const TimeoutError = subclass("TimeoutError", "timeout");
/** Gzip input that is corrupt or cut short. */
export const GzipError = subclass("GzipError", "gzip");
/** A `charset` label no browser knows. */
export const UnknownCharsetError = subclass("UnknownCharsetError", "charset");
/** An `algorithm` that is not one of `algorithms`. */
export const UnknownAlgorithmError = subclass("UnknownAlgorithmError", "algorithm");
/** A bad option or algorithm parameter. */
export const BadOptionError = subclass("BadOptionError", "option");

const BY_KIND = new Map(
  [
    EmptyInputError,
    BinaryInputError,
    InputTooLargeError,
    TooManyElementsError,
    TimeoutError,
    GzipError,
    UnknownCharsetError,
    UnknownAlgorithmError,
    BadOptionError,
  ].map((C) => [new C("").kind, C]),
);

/** Runs `f`; a failure of the module becomes the error class of its kind. */
function call(f) {
  try {
    return f();
  } catch (e) {
    if (e instanceof wasm.Failure) {
      const kind = e.kind;
      const message = e.message;
      e.free();
      const C = BY_KIND.get(kind);
      throw C ? new C(message) : new UnchaffError(message, kind);
    }
    throw e;
  }
}

/** The page as the module takes it: bytes, or a string. */
function page(html) {
  if (typeof html === "string") return { text: html };
  if (ArrayBuffer.isView(html)) {
    return { bytes: new Uint8Array(html.buffer, html.byteOffset, html.byteLength) };
  }
  if (Object.prototype.toString.call(html) === "[object ArrayBuffer]") {
    return { bytes: new Uint8Array(html) };
  }
  throw new TypeError(
    `html must be a string or a Uint8Array (or another view of bytes, or an ArrayBuffer), got ${
      html === null ? "null" : typeof html
    }`,
  );
}

/** `options` as an object (undefined and null are none). */
function optionsObject(options, what) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new BadOptionError(`${what} must be an object, got ${Array.isArray(options) ? "an array" : typeof options}`);
  }
  return options;
}

/** A per-page string option (`url`, `charset`): a string, or none. */
function pageString(value, name) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    throw new BadOptionError(`${name} must be a string, got ${typeof value}`);
  }
  return value;
}

/** Runs one page through a module extractor; `format` says how to return it. */
function run(raw, format, html, url, charset) {
  const p = page(html);
  url = pageString(url, "url");
  charset = pageString(charset, "charset");
  let out;
  if (p.text !== undefined) {
    if (charset !== undefined) {
      throw new BadOptionError(
        "charset applies to bytes: a string is decoded already (give the page as a Uint8Array to decode it)",
      );
    }
    out = call(() => raw.extract_string(p.text, url));
  } else {
    out = call(() => raw.extract_bytes(p.bytes, url, charset));
  }
  return format === "json" ? JSON.parse(out) : out;
}

/**
 * An extractor built once from options (the algorithm and its model are
 * read once), for many pages.
 */
export class Extractor {
  #raw;
  #format;

  /** @param {object} [options] the options of `extract`, without `url` and `charset` */
  constructor(options) {
    const o = optionsObject(options, "options");
    if (o.url !== undefined || o.charset !== undefined) {
      throw new BadOptionError("url and charset are a page's: give them to extractor.extract(html, { url, charset })");
    }
    this.#raw = call(() => new wasm.Extractor(JSON.stringify(o)));
    this.#format = o.format ?? "text";
  }

  /**
   * Extracts one page.
   * @param {string | Uint8Array} html the page: a string, or its bytes as fetched (any charset, gzip or not)
   * @param {{url?: string, charset?: string}} [page] its URL, and for bytes the charset of an HTTP header
   */
  extract(html, pageInfo) {
    if (this.#raw === undefined) throw new UnchaffError("this Extractor was freed");
    const { url, charset, ...rest } = optionsObject(pageInfo, "the page's options");
    const extra = Object.keys(rest);
    if (extra.length > 0) {
      throw new BadOptionError(
        `extractor.extract takes only url and charset (got ${extra.join(", ")}): the other options are the Extractor's`,
      );
    }
    return run(this.#raw, this.#format, html, url, charset);
  }

  /** Frees the module's memory for this extractor now (else the garbage collector does). */
  free() {
    this.#raw?.free();
    this.#raw = undefined;
  }
}

// `using ex = new Extractor()` where the runtime has explicit resource management.
if (typeof Symbol.dispose === "symbol") {
  Object.defineProperty(Extractor.prototype, Symbol.dispose, {
    value() {
      this.free();
    },
    writable: true,
    configurable: true,
  });
}

/**
 * Extractors of `extract`, by their options: building one parses the
 * algorithm's model (35-115 ms in a fresh process on the benchmark
 * machine, docs/BENCHMARKS.md "Start-up"), so a caller that uses a few
 * option sets in turn pays it once each. Eight covers the combinations a
 * program plausibly alternates between; the oldest goes first.
 */
const CACHED_EXTRACTORS = 8;
const cache = new Map();

function cachedExtractor(options) {
  const key = JSON.stringify(options);
  let ex = cache.get(key);
  if (ex === undefined) {
    ex = new Extractor(options);
    if (cache.size >= CACHED_EXTRACTORS) {
      const [oldest, old] = cache.entries().next().value;
      cache.delete(oldest);
      old.free();
    }
    cache.set(key, ex);
  }
  return ex;
}

/**
 * Extracts the main content of one page.
 * @param {string | Uint8Array} html the page: a string, or its bytes as fetched (any charset, gzip or not)
 * @param {object} [options] see index.d.ts
 * @returns {string | object} the text, Markdown or HTML; for format "json", the object of `unchaff extract -f json`
 */
export function extract(html, options) {
  const { url, charset, ...rest } = optionsObject(options, "options");
  return cachedExtractor(rest).extract(html, { url, charset });
}

/**
 * The metadata of one page: the `metadata` object of the JSON output.
 * @param {string | Uint8Array} html
 * @param {{url?: string, charset?: string}} [options]
 */
export function extractMetadata(html, options) {
  const { url, charset, ...rest } = optionsObject(options, "options");
  const extra = Object.keys(rest);
  if (extra.length > 0) {
    throw new BadOptionError(`extractMetadata takes only url and charset (got ${extra.join(", ")})`);
  }
  const p = page(html);
  const u = pageString(url, "url");
  const c = pageString(charset, "charset");
  if (p.text !== undefined && c !== undefined) {
    throw new BadOptionError("charset applies to bytes: a string is decoded already");
  }
  return JSON.parse(call(() => wasm.extract_metadata(p.bytes, p.text, u, c)));
}

/** The algorithms' names, the default ("auto") first. */
export function algorithms() {
  return wasm.algorithms().split(",");
}

/** The version of the unchaff library inside. */
export function version() {
  return wasm.version();
}
