// Compiled by the "TypeScript types" test (tsc --noEmit --strict): the
// package's declarations (src/index.d.ts) against the ways it is used.
// Lines marked @ts-expect-error must stay errors.

import {
  extract,
  extractMetadata,
  Extractor,
  algorithms,
  version,
  UnchaffError,
  EmptyInputError,
  type Extraction,
  type Metadata,
  type ErrorKind,
} from "unchaff";

const bytes: Uint8Array = new TextEncoder().encode("<p>x</p>");
const text: string = extract("<p>x</p>");
const md: string = extract(bytes, { format: "markdown", url: "https://example.org/", includeLinks: true });
const json: Extraction = extract(bytes, { format: "json", favor: "precision", includeComments: true });
const title: string | null = json.metadata.title;
const meta: Metadata = extractMetadata(bytes, { url: "https://example.org/", charset: "windows-1252" });
const ex = new Extractor({ format: "html", includeTables: false, params: { threshold: 0.6 }, timeout: 1000 });
const out: string | Extraction = ex.extract(bytes, { url: "https://example.org/" });
ex.free();
const names: string[] = algorithms();
const v: string = version();
try {
  extract("");
} catch (e) {
  if (e instanceof EmptyInputError) {
    const k: "empty" = e.kind;
  } else if (e instanceof UnchaffError) {
    const k: ErrorKind = e.kind;
  }
}
// @ts-expect-error: not a format
extract(bytes, { format: "xml" });
// @ts-expect-error: favor is precision or recall
extract(bytes, { favor: "speed" });
// @ts-expect-error: a number is not a page
extract(42);
// @ts-expect-error: json output is not a string
const wrong: string = extract(bytes, { format: "json" });

export { text, md, title, meta, out, names, v, wrong };
