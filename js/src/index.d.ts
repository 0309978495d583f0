// Types of the `unchaff` package (the same for its Node and browser entry points).

/** A page: a string (decoded already), or its bytes as fetched, in any charset, gzip or not. */
export type Html = string | Uint8Array | ArrayBufferView | ArrayBuffer;

/** What is known of one page from outside. */
export interface PageOptions {
  /** The page's URL: reported in JSON, resolves relative links, names the site. */
  url?: string;
  /** For bytes only: the charset of an HTTP `Content-Type` header (it beats the page's `<meta>`). */
  charset?: string;
}

/** How to extract. */
export interface ExtractorOptions {
  /** The output: plain text (default), Markdown, a clean HTML fragment, or the JSON object. */
  format?: "text" | "markdown" | "html" | "json";
  /** Keep comment sections (the "auto" algorithm's `include-comments`). Default false. */
  includeComments?: boolean;
  /** Keep data tables inside the main content. Default true. */
  includeTables?: boolean;
  /** Markdown: write links as `[text](url)`. Default false. */
  includeLinks?: boolean;
  /** Markdown: write images as `![alt](src)`. Default false. */
  includeImages?: boolean;
  /** JSON: carry the clean HTML too (`html`). Default false. */
  includeHtml?: boolean;
  /** "auto"'s presets: keep only the surest blocks, or borderline ones too. */
  favor?: "precision" | "recall";
  /** The algorithm (`algorithms()` lists them). Default "auto". */
  algorithm?: string;
  /** Algorithm parameters, as `unchaff algorithms NAME` lists them; `true` is 1. */
  params?: Record<string, string | number | boolean>;
  /** The largest input accepted, in bytes after gunzip. Default 256 MiB. */
  maxInputBytes?: number;
  /** The most time one page may take, in milliseconds; past it a `TimeoutError`. Default none. */
  timeout?: number;
}

/** The options of `extract`: how to extract, and the page's URL and charset. */
export interface ExtractOptions extends ExtractorOptions, PageOptions {}

/** The page's metadata (the JSON output's `metadata`). */
export interface Metadata {
  title: string | null;
  author: string | null;
  /** ISO 8601: `YYYY-MM-DD[THH:MM[:SS][zone]]`. */
  published: string | null;
  modified: string | null;
  description: string | null;
  site_name: string | null;
  /** `en`, `pt-br`, or an ISO 639-3 code when detected and no two-letter code is known. */
  language: string | null;
  language_source: "declared" | "detected" | null;
  canonical: string | null;
  tags: string[];
  [field: string]: unknown;
}

/** The JSON output: the object `unchaff extract -f json` prints (docs/json-schema.md). */
export interface Extraction {
  schema: number;
  url: string | null;
  /** The page's `<title>` as written. */
  title: string | null;
  text: string;
  markdown?: string;
  /** With `includeHtml`. */
  html?: string;
  metadata: Metadata;
  algorithm: string;
  /** The charset the page was decoded with (WHATWG name). */
  charset: string;
  /** Why that charset: "bom", "caller", "meta", "utf8-valid", "detected" or "fallback". */
  charset_source: string;
  [field: string]: unknown;
}

/** Extracts the main content of one page, as JSON. */
export function extract(html: Html, options: ExtractOptions & { format: "json" }): Extraction;
/** Extracts the main content of one page: its text, Markdown or clean HTML. */
export function extract(
  html: Html,
  options?: ExtractOptions & { format?: "text" | "markdown" | "html" },
): string;
export function extract(html: Html, options?: ExtractOptions): string | Extraction;

/** The metadata of one page. */
export function extractMetadata(html: Html, options?: PageOptions): Metadata;

/** An extractor built once (the algorithm and its model read once), for many pages. */
export class Extractor {
  constructor(options?: ExtractorOptions);
  extract(html: Html, page?: PageOptions): string | Extraction;
  /** Frees its memory in the WebAssembly module now (else the garbage collector does; `using` calls it where the runtime has `Symbol.dispose`). */
  free(): void;
}

/** The algorithms' names, the default ("auto") first. */
export function algorithms(): string[];

/** The version of the unchaff library inside. */
export function version(): string;

/** The kinds of error, as `unchaff batch` writes them in its rows. */
export type ErrorKind =
  | "empty"
  | "binary"
  | "too_large"
  | "too_many_elements"
  | "timeout"
  | "gzip"
  | "charset"
  | "algorithm"
  | "option"
  | "model"
  | "templates"
  | "read"
  | "extract";

/** Base class of unchaff's errors. */
export class UnchaffError extends Error {
  constructor(message: string, kind?: ErrorKind);
  readonly kind: ErrorKind;
}
/** The input is empty (after gunzip). */
export class EmptyInputError extends UnchaffError {
  constructor(message: string);
  readonly kind: "empty";
}
/** The input is binary data, not an HTML page. */
export class BinaryInputError extends UnchaffError {
  constructor(message: string);
  readonly kind: "binary";
}
/** The input is larger than `maxInputBytes`. */
export class InputTooLargeError extends UnchaffError {
  constructor(message: string);
  readonly kind: "too_large";
}
/** The page builds more elements than its budget. */
export class TooManyElementsError extends UnchaffError {
  constructor(message: string);
  readonly kind: "too_many_elements";
}
/** The page took longer than `timeout`. */
export class TimeoutError extends UnchaffError {
  constructor(message: string);
  readonly kind: "timeout";
}
/** Gzip input that is corrupt or cut short. */
export class GzipError extends UnchaffError {
  constructor(message: string);
  readonly kind: "gzip";
}
/** A `charset` label no browser knows. */
export class UnknownCharsetError extends UnchaffError {
  constructor(message: string);
  readonly kind: "charset";
}
/** An `algorithm` that is not one of `algorithms()`. */
export class UnknownAlgorithmError extends UnchaffError {
  constructor(message: string);
  readonly kind: "algorithm";
}
/** A bad option or algorithm parameter. */
export class BadOptionError extends UnchaffError {
  constructor(message: string);
  readonly kind: "option";
}
