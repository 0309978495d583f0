"""Metadata exact-match rates (title, author, publish date) against gold: unchaff vs trafilatura.

usage: python3 scripts/meta_eval.py DATA_DIR UNCHAFF_BIN [--trafilatura] [--details FILE]

DATA_DIR is a dataset folder whose snippets/<id>.json carry the gold `title`,
`author` and `publish_date` (../shared/data/wcxb-dev). Every page with a
snippet runs through `UNCHAFF_BIN extract PAGE -f json --url URL`; the
fields read are metadata.title, .author and .published. With --trafilatura
(needs `pip install trafilatura`), trafilatura.extract_metadata runs on the
same page, decoded with the charset unchaff reported, with the manifest URL
as default_url. Values are compared after NFKC, curly quotes made straight,
white space collapsed and case folded; dates on their first 10 characters.
A field's rate is over the pages whose gold has it. --details writes one
JSON row per page (gold, both values, hit or miss) for error analysis.
"""
import codecs, gzip, json, os, subprocess, sys, unicodedata
from concurrent.futures import ThreadPoolExecutor

data, binary = sys.argv[1], sys.argv[2]
with_traf = "--trafilatura" in sys.argv
details = sys.argv[sys.argv.index("--details") + 1] if "--details" in sys.argv else None
FIELDS = [("title", "title", "title"), ("author", "author", "author"), ("publish_date", "published", "date")]

def norm(s):
    if s is None:
        return ""
    s = unicodedata.normalize("NFKC", str(s))
    for a, b in (("\u2019", "'"), ("\u2018", "'"), ("\u201c", '"'), ("\u201d", '"')):
        s = s.replace(a, b)
    return " ".join(s.split()).casefold()

def norm_date(s):
    return norm(s)[:10]

def unchaff(p):
    page = os.path.join(data, "pages", p["id"] + ".html.gz")
    args = [binary, "extract", page, "-f", "json"] + (["--url", p["url"]] if p.get("url") else [])
    r = subprocess.run(args, capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {}

def trafilatura_meta(p, charset):
    from trafilatura import extract_metadata
    raw = gzip.open(os.path.join(data, "pages", p["id"] + ".html.gz")).read()
    try:
        html = raw.decode(codecs.lookup(charset or "utf-8").name, errors="replace")
    except LookupError:
        html = raw.decode("utf-8", errors="replace")
    try:
        m = extract_metadata(html, default_url=p.get("url"))
    except Exception:
        m = None
    return m.as_dict() if m is not None else {}

manifest = [json.loads(l) for l in open(os.path.join(data, "manifest.jsonl"))]
pages = [p for p in manifest if os.path.exists(os.path.join(data, "snippets", p["id"] + ".json"))]
with ThreadPoolExecutor(2) as ex:
    outs = list(ex.map(unchaff, pages))
hits = {(t, f[0]): 0 for t in ("unchaff", "trafilatura") for f in FIELDS}
den = {f[0]: 0 for f in FIELDS}
rows = []
for p, o in zip(pages, outs):
    gold = json.load(open(os.path.join(data, "snippets", p["id"] + ".json")))
    ours = o.get("metadata") or {}
    theirs = trafilatura_meta(p, o.get("charset")) if with_traf else {}
    row = {"id": p["id"], "url": p.get("url")}
    for gk, ok, tk in FIELDS:
        g = gold.get(gk)
        if not g:
            continue
        den[gk] += 1
        cmp = norm_date if gk == "publish_date" else norm
        u, t = cmp(ours.get(ok)) == cmp(g), cmp(theirs.get(tk)) == cmp(g)
        hits[("unchaff", gk)] += u
        hits[("trafilatura", gk)] += t
        row[gk] = {"gold": g, "unchaff": ours.get(ok), "trafilatura": theirs.get(tk), "u": u, "t": t}
    rows.append(row)
if details:
    with open(details, "w") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
print("| field | pages with gold | unchaff | trafilatura 2.3.1 |")
print("|---|---:|---:|---:|")
for gk, _, _ in FIELDS:
    d = den[gk]
    t = f"{hits[('trafilatura', gk)] / d:.3f} ({hits[('trafilatura', gk)]})" if with_traf else "-"
    print(f"| {gk} | {d} | {hits[('unchaff', gk)] / d:.3f} ({hits[('unchaff', gk)]}) | {t} |")
