"""Authors that are not names: counted by kind, for one or more builds in
the same run.

usage: python3 scripts/meta_authors.py DATA_DIR BIN [BIN ...] [--folders a,b] [--list]

Every page of each folder (default: wcxb-dev and chinese-wce) runs through
`BIN extract PAGE -f json [--url URL]`, and metadata.author is checked
against the kinds of non-names below (checks written here, apart from
unchaff's own clean-up, so that they can disagree with it). --list prints
each failing author with its page and kind.

kinds:
  credit    only credit or interface words: "By", "Author", "Written By",
            "The Author", "Topic Author", "View more posts", "Name *"
  date      a weekday or month name alone ("Sat", "Sun", "December")
  heading   a section sign ("§ Authoring applications")
  email     an e-mail address
  url       a web address ("https://…", "www.…")
  punct     starts with punctuation (", USA TODAY", "--reset-author", "/ Name")
  id        digits, or hexadecimal digits and dashes ("262588213843476")
  template  a template placeholder ("{{…}}", "page.head.extra.author")
  prefix    a credit left before a name ("By Jane", "Written By: Jane",
            "Author: Jane", "Text by Jane", "Post by jane")
  suffix    forum or page words after a name ("jane »", "jane says:",
            "J Offline jane wrote", "Jane Last Updated:")
  account   a default account ("admin", "webmaster", "undefined", "null")
"""
import json, os, re, subprocess, sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

CREDIT = {"by", "author", "authors", "written", "posted", "post", "the", "topic", "article",
          "name", "view", "more", "posts", "sign", "in", "follow", "read", "about", "*", "by:",
          "text", "recipe", "guide", "reviewed", "this", "review", "is", "full", "bio"}
DATES = {"mon", "tue", "wed", "thu", "fri", "sat", "sun", "monday", "tuesday", "wednesday",
         "thursday", "friday", "saturday", "sunday", "jan", "feb", "mar", "apr", "may", "jun",
         "jul", "aug", "sep", "sept", "oct", "nov", "dec", "january", "february", "march",
         "april", "june", "july", "august", "september", "october", "november", "december"}
ACCOUNTS = {"admin", "administrator", "webmaster", "undefined", "null", "none", "unknown"}


def kinds(a):
    out = []
    words = [w.strip(".,:;").lower() for w in a.split()]
    low = a.lower()
    if words and all(w in CREDIT or not w for w in words):
        out.append("credit")
    if len(words) == 1 and words[0] in DATES:
        out.append("date")
    if "§" in a:
        out.append("heading")
    if re.search(r"[\w.+-]+@[\w-]+\.[\w.]+", a):
        out.append("email")
    if re.search(r"https?://|www\.", low):
        out.append("url")
    if re.match(r"[^\w\"'“(]", a.strip()):
        out.append("punct")
    if re.fullmatch(r"[0-9a-fA-F-]*[0-9][0-9a-fA-F-]*", a.strip()):
        out.append("id")
    if "{{" in a or "${" in a or re.search(r"\w+\.\w+\.\w*author", low):
        out.append("template")
    if re.match(r"(by|written by|author|authored by|text by|post(ed)? by|recipe by|guide by)\b[: ]", low) and "credit" not in out:
        out.append("prefix")
    if re.search(r"(»|\|)\s*$|\bsays:?$|\bwrote$|\boffline\b|last updated:?$", low):
        out.append("suffix")
    if low.strip() in ACCOUNTS:
        out.append("account")
    return out


def run(binary, data, folder, page):
    path = os.path.join(data, folder, "pages", page["id"] + ".html.gz")
    args = [binary, "extract", path, "-f", "json"] + (["--url", page["url"]] if page.get("url") else [])
    r = subprocess.run(args, capture_output=True, text=True)
    try:
        return (json.loads(r.stdout).get("metadata") or {}).get("author")
    except ValueError:
        return None


def main():
    args = [a for a in sys.argv[1:]]
    listing = "--list" in args
    folders = ["wcxb-dev", "chinese-wce"]
    if "--folders" in args:
        i = args.index("--folders")
        folders = args[i + 1].split(",")
        del args[i:i + 2]
    args = [a for a in args if a != "--list"]
    data, binaries = args[0], args[1:]
    all_kinds = ["credit", "date", "heading", "email", "url", "punct", "id", "template", "prefix", "suffix", "account"]
    print("| build | folder | authors | not names | " + " | ".join(all_kinds) + " |")
    print("|---|---|---:|---:|" + "---:|" * len(all_kinds))
    for binary in binaries:
        for folder in folders:
            pages = [json.loads(l) for l in open(os.path.join(data, folder, "manifest.jsonl"))]
            with ThreadPoolExecutor(2) as ex:
                authors = list(ex.map(lambda p: run(binary, data, folder, p), pages))
            counts, bad = Counter(), []
            n = 0
            for p, a in zip(pages, authors):
                if not a:
                    continue
                n += 1
                ks = kinds(a)
                counts.update(ks)
                if ks:
                    bad.append((p["id"], a, ks))
            cells = " | ".join(str(counts[k]) for k in all_kinds)
            print(f"| {binary} | {folder} | {n} | {len(bad)} | {cells} |")
            if listing:
                for pid, a, ks in bad:
                    print(f"    {folder}/{pid}: {a!r} {','.join(ks)}")


main()
