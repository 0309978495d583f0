#!/usr/bin/env python3
"""Peak memory of `unchaff extract` on generated pages (docs/BENCHMARKS.md).

    python3 scripts/rss_pages.py target/release/unchaff [SIZES_MB ...]

Writes two kinds of page of each size (default 10, 50, 100 MB) to a
temporary directory, extracts each once with `/usr/bin/time -f %M`, and
prints a Markdown table of peak RSS and its ratio to the page size:

* text-heavy: an article of long paragraphs (`<p>` of ~600 words of text,
  a heading every 20 paragraphs), ~99% text;
* element-dense: `<span>w</span>` repeated (one element and one text node
  every 14 bytes), the densest markup real pages come near.

The pages are generated, never stored. Needs python3 and GNU time.
"""
import os
import subprocess
import sys
import tempfile

WORDS = ("the quick brown fox jumps over a lazy dog while seven wise men "
         "read old letters about distant rivers and quiet mountain towns").split()


def text_heavy(size):
    para = " ".join(WORDS[(i * 7) % len(WORDS)] for i in range(600))
    head = "<html><head><title>Long article</title></head><body><article>"
    parts, n, i = [head], len(head), 0
    while n < size:
        chunk = (f"<h2>Section {i}</h2>" if i % 20 == 0 else "") + f"<p>{para} {i}.</p>\n"
        parts.append(chunk)
        n += len(chunk)
        i += 1
    parts.append("</article></body></html>")
    return "".join(parts).encode()


def element_dense(size):
    head = b"<html><head><title>Dense</title></head><body><div>"
    unit = b"<span>w</span>"
    return head + unit * ((size - len(head)) // len(unit)) + b"</div></body></html>"


def peak_rss_kb(binary, path):
    # /dev/null opened write-only: subprocess.DEVNULL opens it read-write,
    # which unchaff cannot tell from a closed standard output (refused).
    with tempfile.NamedTemporaryFile("r") as t, open(os.devnull, "w") as null:
        r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", t.name, binary, "extract", path],
                           stdout=null, stderr=subprocess.PIPE, text=True)
        kb = int(t.read().split()[-1])
    return kb, r.returncode, r.stderr.strip()[-200:]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    sizes = [int(s) for s in sys.argv[2:]] or [10, 50, 100]
    print("| page | size (MB) | peak RSS (MB) | RSS / page | exit |")
    print("|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for kind, gen in (("text-heavy", text_heavy), ("element-dense", element_dense)):
            for mb in sizes:
                page = gen(mb * 1_000_000)
                path = os.path.join(tmp, f"{kind}-{mb}.html")
                with open(path, "wb") as f:
                    f.write(page)
                del page
                kb, rc, err = peak_rss_kb(binary, path)
                size = os.path.getsize(path)
                note = "ok" if rc == 0 else f"exit {rc}: {err}"
                print(f"| {kind} | {size / 1e6:.0f} | {kb / 1024:.0f} | {kb * 1024 / size:.1f} | {note} |",
                      flush=True)
                os.remove(path)


if __name__ == "__main__":
    main()
