// `npm run test:browser`: the package loaded as an ES module (its browser
// entry point, src/browser.js, which fetches the .wasm) in headless
// Chromium, driven by playwright-core over a loopback HTTP server. The
// page's results are checked here, and against the same calls in Node.
//
// Chromium is Debian's (`apt-get install chromium`; CHROMIUM names another
// binary); without it, or without playwright-core (`npm ci`), the test is
// reported skipped with the reason.

import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, normalize } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import * as unchaff from "../src/node.js";

const PKG = dirname(dirname(fileURLToPath(import.meta.url)));
const REPO = dirname(PKG);
const EXAMPLE = join(REPO, "examples", "article.html");
const URL_OF_PAGE = "https://news.example.org/2026/03/bridge";
/** How long the page may take to load the module and extract (ms). */
const PAGE_TIMEOUT_MS = 60_000;

const CHROMIUM = [process.env.CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p) => p && existsSync(p),
);

let playwright;
try {
  playwright = await import("playwright-core");
} catch {
  playwright = undefined;
}

const skip = !CHROMIUM
  ? "no Chromium (apt-get install chromium, or set CHROMIUM to its binary)"
  : !playwright
    ? "playwright-core is not installed (npm ci in js/)"
    : false;

// windows-1251 bytes of a Russian article: А..я are 0xC0..0xFF there.
const RU = "Мост через реку построили заново за одно лето, и весь город вышел на открытие.";
function legacyPage() {
  const body = Uint8Array.from([...RU].map((c) => (c.codePointAt(0) < 0x80 ? c.codePointAt(0) : c.codePointAt(0) - 0x410 + 0xc0)));
  assert.equal(new TextDecoder("windows-1251").decode(body), RU);
  const enc = new TextEncoder();
  const parts = [enc.encode("<html><body><article>")];
  for (let i = 0; i < 6; i++) parts.push(enc.encode("<p>"), body, enc.encode("</p>"));
  parts.push(enc.encode("</article></body></html>"));
  return Buffer.concat(parts);
}

/** What the page runs: the package's API on the example and the legacy page. */
const PAGE_SCRIPT = `
import * as u from "/src/browser.js";
const out = {};
try {
  const bytes = new Uint8Array(await (await fetch("/example.html")).arrayBuffer());
  const html = new TextDecoder().decode(bytes);
  out.text = u.extract(html);
  out.markdown = u.extract(bytes, { format: "markdown", url: ${JSON.stringify(URL_OF_PAGE)} });
  out.json = u.extract(bytes, { format: "json", url: ${JSON.stringify(URL_OF_PAGE)} });
  out.metadata = u.extractMetadata(bytes);
  out.legacy = u.extract(new Uint8Array(await (await fetch("/legacy.html")).arrayBuffer()), { format: "json" });
  out.algorithms = u.algorithms();
  for (const [name, f] of [["empty", () => u.extract("")], ["option", () => u.extract(html, { format: "xml" })]]) {
    try {
      f();
      out[name] = "no error";
    } catch (e) {
      out[name] = { name: e.name, kind: e.kind, message: e.message, unchaff: e instanceof u.UnchaffError, error: e instanceof Error };
    }
  }
} catch (e) {
  out.failure = String(e && e.stack || e);
}
window.__unchaff = out;
`;

const TYPES = {
  ".js": "text/javascript",
  ".wasm": "application/wasm",
  ".html": "text/html",
};

/** A loopback server: the package's src/ and dist/, the test page, and the two pages to extract. */
function serve(legacy) {
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://localhost").pathname;
    const send = (status, type, body) => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    if (path === "/") {
      return send(200, "text/html", `<!doctype html><title>unchaff</title><link rel="icon" href="data:,"><script type="module">${PAGE_SCRIPT}</script>`);
    }
    if (path === "/example.html") return send(200, "application/octet-stream", readFileSync(EXAMPLE));
    if (path === "/legacy.html") return send(200, "application/octet-stream", legacy);
    const file = normalize(join(PKG, path));
    if ((file.startsWith(join(PKG, "src")) || file.startsWith(join(PKG, "dist"))) && existsSync(file)) {
      return send(200, TYPES[extname(file)] ?? "application/octet-stream", readFileSync(file));
    }
    send(404, "text/plain", "not found");
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

test("the package in headless Chromium, as an ES module", { skip, timeout: 3 * PAGE_TIMEOUT_MS }, async (t) => {
  const legacy = legacyPage();
  const server = await serve(legacy);
  const profile = mkdtempSync(join(tmpdir(), "unchaff-chromium-"));
  // One hook, in this order: the browser writes to its profile until it is closed.
  let context;
  t.after(async () => {
    try {
      await context?.close();
    } finally {
      server.close();
      rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    }
  });
  context = await playwright.chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  const { port } = server.address();
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => window.__unchaff !== undefined, null, { timeout: PAGE_TIMEOUT_MS });
  const got = await page.evaluate(() => window.__unchaff);
  t.diagnostic(`Chromium ${context.browser()?.version() ?? ""}`);
  assert.equal(got.failure, undefined, got.failure);
  assert.deepEqual(problems, []);

  // What the page got is what Node gets from the same module.
  const bytes = readFileSync(EXAMPLE);
  assert.equal(got.text, unchaff.extract(bytes.toString("utf8")));
  assert.equal(got.markdown, unchaff.extract(bytes, { format: "markdown", url: URL_OF_PAGE }));
  assert.deepEqual(got.json, unchaff.extract(bytes, { format: "json", url: URL_OF_PAGE }));
  assert.deepEqual(got.metadata, unchaff.extractMetadata(bytes));
  assert.deepEqual(got.legacy, unchaff.extract(legacy, { format: "json" }));
  assert.deepEqual(got.algorithms, unchaff.algorithms());
  // And it is the article.
  assert.match(got.text, /the stone bridge at Elmsford carried farm carts/);
  assert.match(got.markdown, /^## Counting stones$/m);
  assert.equal(got.json.url, URL_OF_PAGE);
  assert.equal(got.json.metadata.author, "Mara Ellison");
  assert.equal(got.legacy.charset, "windows-1251");
  assert.ok(got.legacy.text.includes(RU), got.legacy.text);
  assert.deepEqual(
    { ...got.empty, message: undefined },
    { name: "EmptyInputError", kind: "empty", message: undefined, unchaff: true, error: true },
  );
  assert.equal(got.option.name, "BadOptionError");
  assert.equal(got.option.kind, "option");
});
