// `npm test`: the package in Node, against the native `unchaff extract`
// built from the same tree (UNCHAFF_BIN, else ../target/release/unchaff),
// on the repository's example and on 100 pages of the dev data
// (UNCHAFF_DATA, else ../../shared/data beside the repository). Without the
// binary or the data those tests are reported skipped, with the reason.

import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

import * as unchaff from "../src/node.js";

const {
  extract,
  extractMetadata,
  Extractor,
  UnchaffError,
  EmptyInputError,
  BinaryInputError,
  InputTooLargeError,
  TimeoutError,
  GzipError,
  UnknownCharsetError,
  UnknownAlgorithmError,
  BadOptionError,
} = unchaff;

const PKG = dirname(dirname(fileURLToPath(import.meta.url)));
const REPO = dirname(PKG);
const EXAMPLE = join(REPO, "examples", "article.html");
const BIN = process.env.UNCHAFF_BIN || join(REPO, "target", "release", "unchaff");
const DATA = process.env.UNCHAFF_DATA || join(REPO, "..", "shared", "data");
/** Dev pages compared with the native binary: spread over every folder. */
const DEV_PAGES = 100;
/** Native processes run at once (each is one page in one format). */
const NATIVE_JOBS = 4;

const noBinary = existsSync(BIN)
  ? false
  : `no native binary at ${BIN} (cargo build --release -p unchaff-cli, or set UNCHAFF_BIN)`;

/** The native CLI's output for `file` with `args` (its trailing newline removed). */
function native(file, args) {
  return new Promise((resolve, reject) => {
    execFile(BIN, ["extract", file, ...args], { maxBuffer: 256 << 20, encoding: "utf8" }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${BIN} extract ${file} ${args.join(" ")}: ${stderr || err.message}`));
      else resolve(stdout.endsWith("\n") ? stdout.slice(0, -1) : stdout);
    });
  });
}

/** Runs `jobs` (functions returning promises) at most `n` at a time, in order of results. */
async function pool(jobs, n) {
  const out = new Array(jobs.length);
  let next = 0;
  async function worker() {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await jobs[i]();
    }
  }
  await Promise.all(Array.from({ length: Math.min(n, jobs.length) }, worker));
  return out;
}

/** The same page through the package and the binary: text, Markdown and JSON. */
async function compare(file, url, extraJs = {}, extraCli = []) {
  const bytes = readFileSync(file);
  const urlArgs = url ? ["--url", url] : [];
  const [text, markdown, json] = await Promise.all([
    native(file, ["-f", "text", ...urlArgs, ...extraCli]),
    native(file, ["-f", "markdown", ...urlArgs, ...extraCli]),
    native(file, ["-f", "json", ...urlArgs, ...extraCli]),
  ]);
  const opts = { url, ...extraJs };
  assert.equal(extract(bytes, { ...opts, format: "text" }), text, `${file}: text`);
  assert.equal(extract(bytes, { ...opts, format: "markdown" }), markdown, `${file}: markdown`);
  assert.deepEqual(extract(bytes, { ...opts, format: "json" }), JSON.parse(json), `${file}: json`);
}

test("the example equals the native binary (text, markdown, json)", { skip: noBinary }, async () => {
  await compare(EXAMPLE, undefined);
  await compare(EXAMPLE, "https://news.example.org/2026/03/bridge");
});

test("the options do what the command line's flags do", { skip: noBinary }, async () => {
  const url = "https://news.example.org/2026/03/bridge";
  await compare(
    EXAMPLE,
    url,
    { includeLinks: true, includeImages: true, includeTables: false, includeHtml: true },
    ["--links", "--images", "--no-tables", "--html"],
  );
  await compare(EXAMPLE, url, { includeComments: true, favor: "precision" }, ["--include-comments", "--precision"]);
  await compare(EXAMPLE, url, { favor: "recall" }, ["--recall"]);
  await compare(EXAMPLE, url, { algorithm: "cetd-tpc", params: { lambda: 0.3 } }, ["-a", "cetd-tpc", "-p", "lambda=0.3"]);
  const bytes = readFileSync(EXAMPLE);
  assert.equal(extract(bytes, { format: "html", url }), await native(EXAMPLE, ["-f", "html", "--url", url]));
});

/** DEV_PAGES pages spread evenly over every folder's sorted pages, with their URLs. */
function devPages() {
  const folders = readdirSync(DATA, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(DATA, d.name, "pages")))
    .map((d) => d.name)
    .sort();
  const per = Math.ceil(DEV_PAGES / folders.length);
  const picked = [];
  for (const f of folders) {
    const urls = new Map();
    const manifest = join(DATA, f, "manifest.jsonl");
    if (existsSync(manifest)) {
      for (const line of readFileSync(manifest, "utf8").split("\n")) {
        if (!line.trim()) continue;
        const r = JSON.parse(line);
        if (typeof r.url === "string" && /^https?:\/\/[^/\s]/.test(r.url)) urls.set(String(r.id), r.url);
      }
    }
    const pages = readdirSync(join(DATA, f, "pages"))
      .filter((p) => p.endsWith(".html") || p.endsWith(".html.gz"))
      .sort();
    for (let k = 0; k < per && k < pages.length; k++) {
      const p = pages[Math.floor((k * pages.length) / per)];
      const id = p.replace(/\.html(\.gz)?$/, "");
      picked.push({ file: join(DATA, f, "pages", p), url: urls.get(id) });
    }
  }
  return picked.slice(0, DEV_PAGES);
}

const noData = existsSync(DATA) ? false : `no dev data at ${DATA} (set UNCHAFF_DATA)`;

test(`${DEV_PAGES} dev pages equal the native binary (text, markdown, json)`, { skip: noBinary || noData }, async () => {
  const pages = devPages();
  assert.equal(pages.length, DEV_PAGES, `only ${pages.length} pages under ${DATA}`);
  // The pages are the dataset's gzip files, as the binary reads them: the
  // package gunzips them too.
  await pool(
    pages.map(({ file, url }) => () => compare(file, url)),
    NATIVE_JOBS,
  );
});

test("the package resolves by its name to the Node entry point", async () => {
  const byName = await import("unchaff");
  assert.equal(byName.extract, extract);
  assert.deepEqual(Object.keys(byName).sort(), Object.keys(unchaff).sort());
  assert.equal(byName.algorithms()[0], "auto");
  const pkg = JSON.parse(readFileSync(join(PKG, "package.json"), "utf8"));
  assert.equal(byName.version(), pkg.version, "the npm package's version is the library's");
});

const TSC = join(PKG, "node_modules", "typescript", "bin", "tsc");
test(
  "TypeScript types: test/types.ts compiles against src/index.d.ts (strict)",
  { skip: existsSync(TSC) ? false : "typescript is not installed (npm ci in js/)" },
  () => {
    try {
      execFileSync(process.execPath, [TSC, "-p", join(PKG, "test", "tsconfig.json")], { encoding: "utf8" });
    } catch (e) {
      assert.fail(`tsc: ${e.stdout || e.message}`);
    }
  },
);

test("a string and its UTF-8 bytes give the same extraction", () => {
  const bytes = readFileSync(EXAMPLE);
  const text = bytes.toString("utf8");
  assert.equal(extract(text), extract(bytes));
  assert.equal(extract(text, { format: "markdown" }), extract(bytes, { format: "markdown" }));
  const viaString = extract(text, { format: "json" });
  assert.equal(viaString.charset, "UTF-8");
  assert.equal(viaString.charset_source, "caller");
  // Other views of the bytes, and the bytes gzipped.
  assert.equal(extract(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)), extract(bytes));
  assert.equal(extract(new DataView(bytes.buffer, bytes.byteOffset, bytes.length)), extract(bytes));
  assert.equal(extract(gzipSync(bytes)), extract(bytes));
});

test("an Extractor gives what extract gives; extractMetadata is the JSON's metadata", () => {
  const bytes = readFileSync(EXAMPLE);
  const url = "https://news.example.org/a";
  const ex = new Extractor({ format: "json", includeLinks: true });
  const linked = ex.extract(
    "<article><p>The bridge was rebuilt from its own stones, as the <a href=/archive/1934>drawings of 1934</a> showed.</p></article>",
    { url },
  );
  assert.match(linked.markdown, /\[drawings of 1934\]\(https:\/\/news\.example\.org\/archive\/1934\)/);
  const a = ex.extract(bytes, { url });
  assert.deepEqual(a, extract(bytes, { format: "json", includeLinks: true, url }));
  assert.equal(a.url, url);
  assert.deepEqual(extractMetadata(bytes, { url }), a.metadata);
  assert.equal(a.metadata.title, "How the river town rebuilt its bridge");
  ex.free();
  assert.throws(() => ex.extract(bytes), UnchaffError);
  assert.throws(() => new Extractor({ url }), BadOptionError);
  assert.throws(() => new Extractor().extract(bytes, { format: "json" }), BadOptionError);
});

/** The error `f` throws, checked to be of class `C` with `kind`. */
function throwsKind(f, C, kind) {
  let caught;
  try {
    f();
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof C, `expected ${C.name}, got ${caught}`);
  assert.ok(caught instanceof UnchaffError && caught instanceof Error);
  assert.equal(caught.kind, kind);
  assert.equal(caught.name, C.name);
  assert.ok(caught.message.length > 0);
  assert.match(String(caught.stack), new RegExp(C.name));
  return caught;
}

test("empty and binary input are errors of their kind", () => {
  throwsKind(() => extract(""), EmptyInputError, "empty");
  throwsKind(() => extract(new Uint8Array(0)), EmptyInputError, "empty");
  throwsKind(() => extract(gzipSync(new Uint8Array(0))), EmptyInputError, "empty");
  throwsKind(() => extractMetadata(""), EmptyInputError, "empty");
  // Random-looking bytes: a linear congruential generator (no seed to vary).
  const noise = new Uint8Array(16 * 1024);
  let x = 12345;
  for (let i = 0; i < noise.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    noise[i] = x >>> 24;
  }
  const e = throwsKind(() => extract(noise), BinaryInputError, "binary");
  assert.match(e.message, /binary/);
  // A PNG signature and header, then zeros.
  const png = new Uint8Array(4096);
  png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  throwsKind(() => extract(png), BinaryInputError, "binary");
  // The module is still usable after errors.
  assert.match(extract("<p>still here, a paragraph of text after the errors</p>"), /still here/);
});

test("other errors carry their kind", () => {
  const page = readFileSync(EXAMPLE);
  const corrupt = Uint8Array.from([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  throwsKind(() => extract(corrupt), GzipError, "gzip");
  throwsKind(() => extract(page, { charset: "no-such-charset" }), UnknownCharsetError, "charset");
  throwsKind(() => extract(page, { algorithm: "nope" }), UnknownAlgorithmError, "algorithm");
  throwsKind(() => extract(page, { maxInputBytes: 100 }), InputTooLargeError, "too_large");
  throwsKind(() => extract(page, { timeout: 1e-6 }), TimeoutError, "timeout");
  throwsKind(() => extract(page, { format: "xml" }), BadOptionError, "option");
  throwsKind(() => extract(page, { favor: "speed" }), BadOptionError, "option");
  throwsKind(() => extract(page, { favor: "recall", algorithm: "cetd" }), BadOptionError, "option");
  throwsKind(() => extract(page, { includeComments: true, algorithm: "cetd" }), BadOptionError, "option");
  throwsKind(() => extract(page, { includeComment: true }), BadOptionError, "option");
  throwsKind(() => extract(page, { includeTables: "no" }), BadOptionError, "option");
  throwsKind(() => extract(page, { params: { lambda: "x" }, algorithm: "cetd-tpc" }), BadOptionError, "option");
  throwsKind(() => extract(page, { url: 3 }), BadOptionError, "option");
  throwsKind(() => extract("<p>x</p>", { charset: "utf-8" }), BadOptionError, "option");
  throwsKind(() => extract(page, "json"), BadOptionError, "option");
  assert.throws(() => extract(42), TypeError);
  assert.throws(() => extract(null), TypeError);
  // A generous timeout is no error: the clock works in WebAssembly.
  assert.equal(extract(page, { timeout: 60_000 }), extract(page));
});

// Legacy charsets: an encoder for each is made here by inverting Node's own
// decoder (TextDecoder, ICU's tables) over every one- and two-byte sequence.

/** Every one- and two-byte sequence of `label` that decodes to one character, by character. */
function encoder(label) {
  const dec = new TextDecoder(label, { fatal: true });
  const table = new Map();
  const add = (bytes) => {
    let s;
    try {
      s = dec.decode(Uint8Array.from(bytes));
    } catch {
      return;
    }
    if ([...s].length === 1 && !table.has(s)) table.set(s, bytes);
  };
  for (let b = 0; b < 0x100; b++) add([b]);
  for (let lead = 0x81; lead <= 0xfe; lead++) {
    for (let trail = 0x40; trail <= 0xfe; trail++) add([lead, trail]);
  }
  return (text) => {
    const out = [];
    for (const c of text) {
      const bytes = table.get(c);
      if (!bytes) throw new Error(`no ${label} bytes for ${c}`);
      out.push(...bytes);
    }
    const u8 = Uint8Array.from(out);
    assert.equal(new TextDecoder(label).decode(u8), text);
    return u8;
  };
}

const cp1251 = encoder("windows-1251");
const shiftJis = encoder("shift_jis");
const gbk = encoder("gbk");

function concat(...parts) {
  const enc = new TextEncoder();
  const bufs = parts.map((p) => (typeof p === "string" ? enc.encode(p) : p));
  const out = new Uint8Array(bufs.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of bufs) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

test("bytes in legacy charsets are decoded by unchaff's detection", () => {
  const ru = "Мост через реку построили заново за одно лето, и весь город вышел на открытие.";
  const ruBytes = cp1251(ru);
  // Declared in <meta>.
  const declared = concat('<html><head><meta charset="windows-1251"><title>t</title></head><body><article><p>', ruBytes, "</p></article></body></html>");
  let out = extract(declared, { format: "json" });
  assert.equal(out.charset, "windows-1251");
  assert.equal(out.charset_source, "meta");
  assert.match(out.text, new RegExp(ru.slice(0, 20)));
  // Undeclared: detected.
  const undeclared = concat("<html><body><article>", ...Array(6).fill(concat("<p>", ruBytes, "</p>")), "</article></body></html>");
  out = extract(undeclared, { format: "json" });
  assert.equal(out.charset, "windows-1251");
  assert.equal(out.charset_source, "detected");
  assert.match(out.text, new RegExp(ru.slice(0, 20)));

  const ja = "昨日の夜、川のそばの道を歩いていると、小さな猫がずっと後ろからついて来ました。";
  const jaBytes = shiftJis(ja);
  out = extract(concat("<html><body><article>", ...Array(6).fill(concat("<p>", jaBytes, "</p>")), "</article></body></html>"), { format: "json" });
  assert.equal(out.charset, "Shift_JIS");
  assert.equal(out.charset_source, "detected");
  assert.ok(out.text.includes(ja), out.text.slice(0, 200));

  // GBK: declared as gb2312 (browsers read it as GBK), and undeclared.
  const zh = "这座石桥在河上站了九十年，春天的洪水冲走了中间的桥拱以后，全镇的人一起把它重新修好了。";
  const zhBytes = gbk(zh);
  out = extract(concat('<meta charset="gb2312"><p>', zhBytes, "</p>"), { format: "json" });
  assert.equal(out.charset, "GBK");
  assert.equal(out.charset_source, "meta");
  assert.ok(out.text.includes(zh), out.text);
  out = extract(concat("<html><body><article>", ...Array(4).fill(concat("<p>", zhBytes, "</p>")), "</article></body></html>"), { format: "json" });
  assert.equal(out.charset, "GBK");
  assert.equal(out.charset_source, "detected");
  assert.ok(out.text.includes(zh), out.text.slice(0, 200));

  // The caller's charset (an HTTP header's) beats detection: 0xE9 is é in
  // windows-1252, й in windows-1251.
  const cafe = concat("<p>caf", Uint8Array.from([0xe9]), " au lait</p>");
  assert.match(extract(cafe), /café/);
  assert.match(extract(cafe, { charset: "windows-1251" }), /cafй/);
  // A string is decoded already, whatever its <meta> says.
  assert.match(extract(`<meta charset="windows-1251"><p>${ru}</p>`), new RegExp(ru.slice(0, 20)));
});

test("legacy-charset bytes equal the native binary", { skip: noBinary }, async (t) => {
  const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = mkdtempSync(join(tmpdir(), "unchaff-js-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const ru = cp1251("Старый мост стоял девяносто лет, пока весенний паводок не унёс его середину.");
  const ja = shiftJis("橋が流された後、町の人々はみんなでお金を集めて、古い石を一つずつ川から拾い上げました。");
  const zh = gbk("志愿者们在浅水里找回了八百多块原来的石头，按照一九三四年的图纸一块一块地编号。");
  const pages = {
    "ru.html": concat("<html><body><article>", ...Array(5).fill(concat("<p>", ru, "</p>")), "</article></body></html>"),
    "ja.html": concat("<title>", shiftJis("橋"), "</title><body>", ...Array(5).fill(concat("<p>", ja, "</p>")), "</body>"),
    "zh.html": concat('<meta http-equiv="Content-Type" content="text/html; charset=gb2312"><body><div>', zh, "</div><div>", zh, "</div></body>"),
  };
  for (const [name, bytes] of Object.entries(pages)) {
    const file = join(dir, name);
    writeFileSync(file, bytes);
    await compare(file, undefined);
  }
});
