"""Print what a page's source says about its categories, tags, image, site
name and licence, for writing the metadata gold (crates/eval/meta-gold/) by
reading.

usage: python3 scripts/meta_gold_view.py DATA_DIR FOLDER/ID [FOLDER/ID ...]
       python3 scripts/meta_gold_view.py DATA_DIR --sample SEED FOLDER=N [...]

It lists, from the raw page (decoded with the charset `<meta charset>` or
the HTTP-equiv declares, else the manifest's `declared_encoding`, else
UTF-8, else GB18030, else windows-1252): every <title>;
the <meta> tags whose name or property is about the site, the section,
keywords, images, licence or copyright; <link> and <a> elements whose rel
is canonical, license, tag, category, image_src; JSON-LD objects' types,
names, publisher, articleSection, keywords, image, licence and
breadcrumb items; microdata itemprops of the same kinds; links to
creativecommons.org; and the link texts inside elements whose class or id
says tag, categor, breadcrumb or topic (first few of each). It prints
nothing it judges: the values of the gold are chosen by the person
reading (see crates/eval/meta-gold/README.md). --sample prints the ids a
seeded random draw takes from each folder (N of them), for choosing pages
without looking at them first.
"""
import gzip, html.parser, json, os, random, re, sys

META_KEYS = re.compile(
    r"^(og:(site_name|image|image:url|image:secure_url|url|type)|twitter:(image|image:src|site|title)"
    r"|article:(section|tag|publisher)|keywords|news_keywords|application-name|apple-mobile-web-app-title"
    r"|section|category|categories|subject|topic|dc\.(subject|rights|publisher)|dcterms\.(subject|rights|license)"
    r"|copyright|license|licence|rights|image|thumbnail|parsely-section|parsely-tags|sailthru\.tags|cxenseparse:.*)$",
    re.I,
)
REL_KEYS = {"canonical", "license", "tag", "category", "image_src", "cc:license"}
BOX = re.compile(r"\b(tags?|[a-z-]*categor[a-z-]*|[a-z-]*breadcrumbs?[a-z-]*|post-tags|tag-?list|topics?)\b", re.I)
VOID = {"meta", "link", "img", "br", "hr", "input", "source", "area", "base", "col", "embed", "param", "track", "wbr"}


def charset_of(raw):
    m = re.search(rb'<meta[^>]+charset\s*=\s*["\']?([A-Za-z0-9_\-]+)', raw[:20000], re.I)
    if m:
        return m.group(1).decode("ascii", "replace")
    return None


def decode(raw, declared=None):
    for cs in (charset_of(raw), declared, "utf-8", "gb18030"):
        if not cs:
            continue
        try:
            return raw.decode(cs)
        except (LookupError, UnicodeDecodeError):
            pass
    return raw.decode("windows-1252", "replace")


def short(s, n=160):
    s = " ".join((s or "").split())
    return s if len(s) <= n else s[: n - 1] + "…"


class Viewer(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self.stack = []  # (tag, box label or None)
        self.title = None
        self.script = None
        self.anchor = None
        self.boxes = {}  # label -> [link texts]
        self.cc = []

    def box(self):
        for _, b in reversed(self.stack):
            if b:
                return b
        return None

    def handle_starttag(self, tag, attrs):
        a = {k.lower(): (v or "") for k, v in attrs}
        if tag == "title":
            self.title = []
        elif tag == "meta":
            key = a.get("property") or a.get("name") or a.get("itemprop") or a.get("http-equiv") or ""
            if META_KEYS.match(key.strip()) and a.get("content", "").strip():
                full = 10**6 if "image" in key.lower() else 160
                self.out.append(f"meta {key.strip()} = {short(a['content'], full)}")
        elif tag == "link":
            rels = set(a.get("rel", "").lower().split())
            if rels & REL_KEYS:
                self.out.append(f"link rel={a.get('rel')} href={short(a.get('href'), 10**6)}")
            if a.get("itemprop", "").lower() in ("image", "thumbnailurl", "license"):
                self.out.append(f"link itemprop={a['itemprop']} href={short(a.get('href'), 200)}")
        elif tag == "script" and "ld+json" in a.get("type", "").lower():
            self.script = []
        elif tag == "a":
            rels = set(a.get("rel", "").lower().split())
            href = a.get("href", "")
            self.anchor = {"rel": " ".join(sorted(rels & REL_KEYS)), "href": href, "text": [],
                           "cc": "creativecommons.org" in href.lower(), "box": self.box()}
        if tag in ("img",) and a.get("itemprop", "").lower() == "image":
            self.out.append(f"img itemprop=image src={short(a.get('src'), 200)}")
        if a.get("itemprop", "").lower() in ("articlesection", "keywords", "genre") and a.get("content"):
            self.out.append(f"itemprop {a['itemprop']} = {short(a['content'])}")
        if "breadcrumblist" in a.get("itemtype", "").lower():
            self.crumbs = []
            self.crumb_depth = len(self.stack)
        if getattr(self, "crumbs", None) is not None and a.get("itemprop", "").lower() == "name":
            if a.get("content"):
                self.crumbs.append(a["content"])
            else:
                self.crumb_text = []
                self.crumb_tag = tag
        if tag in VOID:
            return
        label = None
        cls = (a.get("class", "") + " " + a.get("id", "")).strip()
        if BOX.search(cls) and tag not in ("html", "body", "article") and "menu-item" not in cls:
            label = f"<{tag} {short(cls, 60)}>"
        self.stack.append((tag, label))

    def handle_endtag(self, tag):
        if getattr(self, "crumb_text", None) is not None and tag == self.crumb_tag:
            self.crumbs.append(short("".join(self.crumb_text), 60))
            self.crumb_text = None
        if tag == "title" and self.title is not None:
            self.out.append(f"title = {short(''.join(self.title), 200)}")
            self.title = None
        elif tag == "script" and self.script is not None:
            ld(short("".join(self.script), 10**9), self.out)
            self.script = None
        elif tag == "a" and self.anchor is not None:
            x, self.anchor = self.anchor, None
            text = short("".join(x["text"]), 80)
            if x["rel"]:
                self.out.append(f"a rel={x['rel']} [{text}] {short(x['href'], 120)}")
            if x["cc"]:
                self.cc.append(f"cc link [{text}] {x['href']}")
            if x["box"] and text:
                self.boxes.setdefault(x["box"], []).append(text)
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        if getattr(self, "crumbs", None) is not None and len(self.stack) <= self.crumb_depth:
            self.out.append("microdata BreadcrumbList: " + " > ".join(self.crumbs))
            self.crumbs = None

    def handle_data(self, data):
        if self.title is not None:
            self.title.append(data)
        if self.script is not None:
            self.script.append(data)
        if self.anchor is not None:
            self.anchor["text"].append(data)
        if getattr(self, "crumb_text", None) is not None:
            self.crumb_text.append(data)


def ld(text, out):
    try:
        v = json.loads(text.strip().rstrip(";"), strict=False)
    except ValueError:
        out.append(f"json-ld (unparsed) {short(text, 200)}")
        return
    stack = [v]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(reversed(v[:64]))
            continue
        if not isinstance(v, dict):
            continue
        for k in ("@graph", "mainEntity", "mainEntityOfPage"):
            if isinstance(v.get(k), (list, dict)):
                stack.append(v[k])
        t = v.get("@type")
        parts = []
        if t == "BreadcrumbList" or (isinstance(t, list) and "BreadcrumbList" in t):
            items = v.get("itemListElement") or []
            names = []
            for it in items if isinstance(items, list) else []:
                if isinstance(it, dict):
                    n = it.get("name") or (it.get("item") or {}).get("name") if isinstance(it.get("item"), dict) else it.get("name")
                    names.append(str(n))
            out.append(f"json-ld BreadcrumbList: {' > '.join(names)}")
            continue
        for k in ("name", "headline", "articleSection", "keywords", "genre", "image", "thumbnailUrl", "license", "publisher", "isPartOf"):
            if k in v:
                val = v[k]
                if isinstance(val, dict):
                    val = val.get("name") or val.get("url") or val.get("@id")
                elif isinstance(val, list):
                    val = [x.get("url") or x.get("name") or x.get("@id") if isinstance(x, dict) else x for x in val[:6]]
                full = 10**6 if k in ("image", "thumbnailUrl") else 160
                parts.append(f"{k}={short(json.dumps(val, ensure_ascii=False), full)}")
        if parts:
            out.append(f"json-ld {t}: " + "; ".join(parts))


def view(data, ref):
    folder, pid = ref.split("/", 1)
    man = {}
    for line in open(os.path.join(data, folder, "manifest.jsonl")):
        p = json.loads(line)
        if p["id"] == pid:
            man = p
    raw = gzip.open(os.path.join(data, folder, "pages", pid + ".html.gz")).read()
    v = Viewer()
    try:
        v.feed(decode(raw, man.get("declared_encoding")))
        v.close()
    except Exception as e:  # a viewer: show what was read
        v.out.append(f"(parse stopped: {e})")
    print(f"=== {ref}  url={man.get('url')}  lang={man.get('lang')}")
    seen = set()
    for line in v.out + v.cc:
        if line not in seen:
            seen.add(line)
            print("  " + line)
    for label, texts in list(v.boxes.items())[:6]:
        print(f"  box {label}: {short(' | '.join(texts[:12]), 300)}")


def main():
    data = sys.argv[1]
    if sys.argv[2] == "--sample":
        rnd = random.Random(int(sys.argv[3]))
        for spec in sys.argv[4:]:
            folder, n = spec.split("=")
            ids = sorted(json.loads(l)["id"] for l in open(os.path.join(data, folder, "manifest.jsonl")))
            for pid in rnd.sample(ids, int(n)):
                print(f"{folder}/{pid}")
        return
    for ref in sys.argv[2:]:
        view(data, ref)


main()
