"""Categories, tags, image, site name and licence against the hand-written
gold of crates/eval/meta-gold/ (its README says how it was made and what
each field holds): unchaff and, with --trafilatura, trafilatura in the same run.

usage: python3 scripts/meta_gold_eval.py DATA_DIR UNCHAFF_BIN [--trafilatura] [--details FILE]

Every gold page runs through `UNCHAFF_BIN extract PAGE -f json [--url URL]`
(the manifest's URL when it has one) and metadata.categories, .tags,
.image, .site_name and .license are read. trafilatura.extract_metadata runs
on the same page decoded with the charset unchaff reported, with the
manifest URL as default_url; its `sitename` is the site name, and each of
its tag and category entries is split at commas (it returns a keywords
meta as one comma-joined entry). Values are compared after NFKC, curly
quotes made straight, white space collapsed and case folded. image,
site_name, license: exact match, nulls included; categories, tags: the
mean over pages of the F1 of the two sets (both empty counts 1). Each
field is also given over the pages whose gold has a value.
"""
import codecs, gzip, json, os, subprocess, sys, unicodedata
from concurrent.futures import ThreadPoolExecutor

data, binary = sys.argv[1], sys.argv[2]
with_traf = "--trafilatura" in sys.argv
details = sys.argv[sys.argv.index("--details") + 1] if "--details" in sys.argv else None
GOLD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "eval", "meta-gold", "gold.jsonl")
LISTS = ("categories", "tags")
SCALARS = ("image", "site_name", "license")
TRAF = {"categories": "categories", "tags": "tags", "image": "image", "site_name": "sitename", "license": "license"}


def norm(s):
    if s is None:
        return ""
    s = unicodedata.normalize("NFKC", str(s))
    for a, b in (("\u2019", "'"), ("\u2018", "'"), ("\u201c", '"'), ("\u201d", '"')):
        s = s.replace(a, b)
    return " ".join(s.split()).casefold()


def as_set(v, split=False):
    items = v or []
    if split:
        items = [p for x in items for p in str(x).split(",")]
    return {norm(x) for x in items if norm(x)}


def f1(gold, pred):
    if not gold and not pred:
        return 1.0
    hit = len(gold & pred)
    if hit == 0:
        return 0.0
    p, r = hit / len(pred), hit / len(gold)
    return 2 * p * r / (p + r)


manifests = {}


def url_of(g):
    if g["folder"] not in manifests:
        rows = (json.loads(l) for l in open(os.path.join(data, g["folder"], "manifest.jsonl")))
        manifests[g["folder"]] = {r["id"]: r for r in rows}
    return manifests[g["folder"]][g["id"]].get("url")


def page(g):
    return os.path.join(data, g["folder"], "pages", g["id"] + ".html.gz")


def unchaff(g):
    url = url_of(g)
    args = [binary, "extract", page(g), "-f", "json"] + (["--url", url] if url else [])
    r = subprocess.run(args, capture_output=True, text=True)
    try:
        return json.loads(r.stdout)
    except ValueError:
        return {}


def trafilatura_meta(g, charset):
    from trafilatura import extract_metadata
    raw = gzip.open(page(g)).read()
    try:
        html = raw.decode(codecs.lookup(charset or "utf-8").name, errors="replace")
    except LookupError:
        html = raw.decode("utf-8", errors="replace")
    try:
        m = extract_metadata(html, default_url=url_of(g))
    except Exception:
        m = None
    return m.as_dict() if m is not None else {}


gold = [json.loads(l) for l in open(GOLD)]
with ThreadPoolExecutor(2) as ex:
    outs = list(ex.map(unchaff, gold))
tools = ("unchaff", "trafilatura") if with_traf else ("unchaff",)
score = {(t, f): [] for t in tools for f in LISTS + SCALARS}
with_value = {(t, f): [] for t in tools for f in LISTS + SCALARS}
rows = []
for g, o in zip(gold, outs):
    got = {"unchaff": o.get("metadata") or {}}
    if with_traf:
        d = trafilatura_meta(g, o.get("charset"))
        got["trafilatura"] = {f: d.get(TRAF[f]) for f in LISTS + SCALARS}
    row = {"folder": g["folder"], "id": g["id"]}
    for f in LISTS + SCALARS:
        row[f] = {"gold": g[f]}
        for t in tools:
            v = got[t].get(f)
            if f in LISTS:
                s = f1(as_set(g[f]), as_set(v, split=(t == "trafilatura")))
            else:
                s = float(norm(g[f]) == norm(v))
            score[(t, f)].append(s)
            if g[f]:
                with_value[(t, f)].append(s)
            row[f][t] = v
            row[f][t + "_score"] = round(s, 3)
    rows.append(row)
if details:
    with open(details, "w") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
head = " | ".join(f"{t} all | {t} with gold" for t in tools)
print(f"| field | pages with gold | {head} |")
print("|---|---:|" + "---:|" * (2 * len(tools)))
for f in LISTS + SCALARS:
    n = len(with_value[(tools[0], f)])
    cells = []
    for t in tools:
        a, w = score[(t, f)], with_value[(t, f)]
        cells.append(f"{sum(a) / len(a):.3f}")
        cells.append(f"{sum(w) / len(w):.3f}" if w else "-")
    print(f"| {f} | {n} of {len(gold)} | " + " | ".join(cells) + " |")
