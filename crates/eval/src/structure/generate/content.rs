//! What the generated pages say: prose drawn from word lists, code
//! samples, formulas as (TeX, MathML) pairs, and table data. All written
//! for this benchmark.

use rand::Rng;
use rand::seq::SliceRandom;

/// Draws prose: sentences from subject, verb, object and ending lists.
pub struct Prose;

const SUBJECTS: &[&str] = &[
    "The parser",
    "Our build script",
    "This release",
    "The new scheduler",
    "Each worker thread",
    "The cache layer",
    "The migration tool",
    "A small benchmark",
    "The test harness",
    "The storage engine",
    "Her prototype",
    "The command-line client",
    "The nightly job",
    "The compiler front end",
    "Our reference implementation",
    "The import step",
    "The web dashboard",
    "The indexing service",
    "The legacy module",
    "The field team",
];

const VERBS: &[&str] = &[
    "reads",
    "rewrites",
    "rebuilds",
    "checks",
    "skips",
    "measures",
    "caches",
    "streams",
    "validates",
    "compresses",
    "splits",
    "merges",
    "sorts",
    "loads",
    "replays",
    "archives",
];

const OBJECTS: &[&str] = &[
    "the configuration file",
    "every incoming request",
    "the index on disk",
    "the list of pending jobs",
    "each record of the log",
    "the largest tables first",
    "the user's settings",
    "the nightly snapshots",
    "a batch of ten thousand rows",
    "the compressed archive",
    "the dependency graph",
    "the sensor readings",
    "the translated strings",
    "the raw survey answers",
    "the older file format",
    "the temporary buffers",
];

const ENDINGS: &[&str] = &[
    "before the first request arrives",
    "in under a second on a laptop",
    "without touching the network",
    "when the queue is empty",
    "once per hour",
    "while the old version keeps serving",
    "so that a crash loses nothing",
    "and reports what it changed",
    "in the order the files were written",
    "unless the cache is still warm",
    "with a fixed amount of memory",
    "for every region separately",
    "after the checksums agree",
    "at a tenth of the former cost",
    "as the documentation describes",
    "and then waits for the next signal",
];

const OPENERS: &[&str] = &[
    "In practice,",
    "As a result,",
    "By default,",
    "On most systems,",
    "In our measurements,",
    "Since version two,",
    "For this reason,",
    "In the second stage,",
    "Unlike the old design,",
    "During the last test run,",
];

const TOPICS: &[&str] = &[
    "Reading files",
    "Installing the tools",
    "Configuration",
    "Known limitations",
    "How the cache works",
    "Measuring the results",
    "Background",
    "Error handling",
    "Upgrading from older versions",
    "A worked example",
    "Performance notes",
    "Design goals",
    "Data model",
    "Running the tests",
    "Security considerations",
    "Further reading",
    "Deployment",
    "Troubleshooting",
    "The algorithm",
    "Results and discussion",
];

const TITLE_NOUNS: &[&str] = &[
    "streaming parsers",
    "incremental builds",
    "sparse matrices",
    "log compaction",
    "regular expressions",
    "distributed queues",
    "numerical integration",
    "graph colouring",
    "image pipelines",
    "sensor calibration",
    "content hashing",
    "schema migrations",
];

const TITLE_FORMS: &[&str] = &[
    "A practical guide to {}",
    "What we learned about {}",
    "Notes on {}",
    "How to speed up {}",
    "{}: a short introduction",
    "Why {} fail in production",
    "Understanding {} step by step",
    "Testing {} at scale",
];

const NAMES: &[&str] = &[
    "Ana Lima",
    "Tomasz Nowak",
    "Priya Raman",
    "Jonas Berg",
    "Mei Chen",
    "Oluwaseun Ade",
    "Clara Vidal",
    "Sam Okafor",
    "Ingrid Holm",
    "Rafael Costa",
];

impl Prose {
    /// One sentence.
    pub fn sentence(rng: &mut impl Rng) -> String {
        let mut s = String::new();
        if rng.gen_bool(0.3) {
            s.push_str(pick(rng, OPENERS));
            s.push(' ');
            let subj = pick(rng, SUBJECTS);
            s.push_str(&subj[..1].to_lowercase());
            s.push_str(&subj[1..]);
        } else {
            s.push_str(pick(rng, SUBJECTS));
        }
        s.push(' ');
        s.push_str(pick(rng, VERBS));
        s.push(' ');
        s.push_str(pick(rng, OBJECTS));
        s.push(' ');
        s.push_str(pick(rng, ENDINGS));
        s.push('.');
        s
    }

    /// `n` sentences.
    pub fn sentences(rng: &mut impl Rng, n: usize) -> String {
        (0..n)
            .map(|_| Prose::sentence(rng))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A short phrase (a list item, a cell, a link text).
    pub fn phrase(rng: &mut impl Rng) -> String {
        let v = pick(rng, VERBS);
        let mut s = String::with_capacity(40);
        s.push_str(&v[..1].to_uppercase());
        s.push_str(&v[1..]);
        s.push(' ');
        s.push_str(pick(rng, OBJECTS));
        s
    }

    /// A section heading.
    pub fn topic(rng: &mut impl Rng) -> String {
        pick(rng, TOPICS).to_string()
    }

    /// `n` distinct section headings.
    pub fn topics(rng: &mut impl Rng, n: usize) -> Vec<String> {
        let mut all: Vec<&str> = TOPICS.to_vec();
        all.shuffle(rng);
        all.into_iter().take(n).map(str::to_string).collect()
    }

    /// A page title.
    pub fn title(rng: &mut impl Rng) -> String {
        let form = pick(rng, TITLE_FORMS);
        let noun = pick(rng, TITLE_NOUNS);
        let t = form.replace("{}", noun);
        let mut c = t.chars();
        match c.next() {
            Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
            None => t,
        }
    }

    /// A person's name.
    pub fn name(rng: &mut impl Rng) -> String {
        pick(rng, NAMES).to_string()
    }

    /// A URL slug of `text`.
    pub fn slug(text: &str) -> String {
        let mut s = String::new();
        for c in text.chars() {
            if c.is_ascii_alphanumeric() {
                s.push(c.to_ascii_lowercase());
            } else if !s.ends_with('-') && !s.is_empty() {
                s.push('-');
            }
        }
        s.trim_end_matches('-').to_string()
    }
}

/// One element of `list`.
pub fn pick<T: Copy>(rng: &mut impl Rng, list: &[T]) -> T {
    list[rng.gen_range(0..list.len())]
}

/// A code sample: its language (as highlighters name it) and text.
pub struct Sample {
    /// The language's name in class attributes (`language-python`).
    pub lang: &'static str,
    /// The exact text.
    pub text: &'static str,
}

/// Code samples: indentation, blank lines, tabs (Go, Makefile),
/// backticks (shell, JavaScript), and `<`, `&`, `"` that the HTML must
/// escape.
pub const SAMPLES: &[Sample] = &[
    Sample {
        lang: "python",
        text: "import json\n\n\ndef load(path):\n    \"\"\"Read one settings file.\"\"\"\n    with open(path, encoding=\"utf-8\") as f:\n        data = json.load(f)\n    if data.get(\"version\", 0) < 2:\n        raise ValueError(\"too old\")\n    return data\n",
    },
    Sample {
        lang: "python",
        text: "for i, row in enumerate(rows):\n    if not row:\n        continue\n    total += row[\"count\"] * weights[i]\n\nprint(f\"total = {total:.2f}\")\n",
    },
    Sample {
        lang: "rust",
        text: "use std::collections::HashMap;\n\nfn count_words(text: &str) -> HashMap<&str, usize> {\n    let mut counts = HashMap::new();\n    for word in text.split_whitespace() {\n        *counts.entry(word).or_insert(0) += 1;\n    }\n    counts\n}\n",
    },
    Sample {
        lang: "javascript",
        text: "async function fetchAll(urls) {\n  const results = [];\n  for (const url of urls) {\n    const res = await fetch(url);\n    if (res.status >= 400 && res.status < 500) {\n      console.warn(`skipping ${url}`);\n      continue;\n    }\n    results.push(await res.json());\n  }\n  return results;\n}\n",
    },
    Sample {
        lang: "go",
        text: "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println(\"tick\", i)\n\t}\n}\n",
    },
    Sample {
        lang: "bash",
        text: "#!/bin/sh\nset -eu\nfor f in *.log; do\n  size=`wc -c < \"$f\"`\n  if [ \"$size\" -gt 1048576 ]; then\n    gzip \"$f\" && echo \"compressed $f\"\n  fi\ndone\n",
    },
    Sample {
        lang: "c",
        text: "#include <stdio.h>\n\nint main(void) {\n    int n = 0;\n    while (n < 10 && getchar() != EOF) {\n        n++;\n    }\n    printf(\"%d\\n\", n);\n    return 0;\n}\n",
    },
    Sample {
        lang: "sql",
        text: "SELECT region, COUNT(*) AS orders\nFROM sales\nWHERE created_at >= '2024-01-01'\n  AND amount > 0\nGROUP BY region\nORDER BY orders DESC;\n",
    },
    Sample {
        lang: "yaml",
        text: "server:\n  port: 8080\n  workers: 4\n\ncache:\n  enabled: true\n  paths:\n    - /var/cache/app\n    - /tmp/app\n",
    },
    Sample {
        lang: "json",
        text: "{\n  \"name\": \"demo\",\n  \"version\": \"1.2.0\",\n  \"scripts\": {\n    \"test\": \"node test.js && echo ok\"\n  }\n}\n",
    },
    Sample {
        lang: "makefile",
        text: "CFLAGS = -O2 -Wall\n\nall: app\n\napp: main.o util.o\n\t$(CC) $(CFLAGS) -o $@ $^\n\nclean:\n\trm -f *.o app\n",
    },
    Sample {
        lang: "ruby",
        text: "class Stack\n  def initialize\n    @items = []\n  end\n\n  def push(x)\n    @items << x\n    self\n  end\nend\n",
    },
    Sample {
        lang: "java",
        text: "public final class Point {\n    private final int x;\n    private final int y;\n\n    public Point(int x, int y) {\n        this.x = x;\n        this.y = y;\n    }\n}\n",
    },
    Sample {
        lang: "typescript",
        text: "type Result<T> = { ok: true; value: T } | { ok: false; error: string };\n\nexport function parse(s: string): Result<number> {\n  const n = Number(s);\n  return Number.isNaN(n) ? { ok: false, error: `bad: ${s}` } : { ok: true, value: n };\n}\n",
    },
];

/// A formula: its TeX, and the MathML elements it is (the content of a
/// `<math>` element, without `<semantics>`), written by hand as pairs. The
/// TeX is the canonical conversion of the MathML element by element (the
/// rules in issue #34: mi/mn/mo text as is, Greek letters and operators as
/// TeX commands, function names as `\sin`…, msub → `base_{sub}`, msup →
/// `base^{sup}`, msubsup/munderover → `base_{a}^{b}`, mfrac → `\frac{}{}`,
/// msqrt → `\sqrt{}`, mroot → `\sqrt[n]{}`, mtext → `\text{}`, mtable →
/// `\begin{matrix}…\end{matrix}`, mrow → concatenation), so the two agree
/// after [`math_key`](crate::structure::math_key). The minus sign is the
/// ASCII `-` in both.
pub struct Formula {
    /// The TeX.
    pub tex: &'static str,
    /// The MathML children of `<math>`.
    pub mathml: &'static str,
}

/// The formulas. Symbols used: α β π θ λ σ μ (Greek letters), ∑ ∫ (big
/// operators), ≤ ≥ ± × → ∞ and the fences `(` `)` `{` `}`.
pub const FORMULAS: &[Formula] = &[
    Formula {
        tex: "E = mc^{2}",
        mathml: "<mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup>",
    },
    Formula {
        tex: "a^{2} + b^{2} = c^{2}",
        mathml: "<msup><mi>a</mi><mn>2</mn></msup><mo>+</mo><msup><mi>b</mi><mn>2</mn></msup><mo>=</mo><msup><mi>c</mi><mn>2</mn></msup>",
    },
    Formula {
        tex: "x = \\frac{-b \\pm \\sqrt{b^{2} - 4ac}}{2a}",
        mathml: "<mi>x</mi><mo>=</mo><mfrac><mrow><mo>-</mo><mi>b</mi><mo>±</mo><msqrt><msup><mi>b</mi><mn>2</mn></msup><mo>-</mo><mn>4</mn><mi>a</mi><mi>c</mi></msqrt></mrow><mrow><mn>2</mn><mi>a</mi></mrow></mfrac>",
    },
    Formula {
        tex: "\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}",
        mathml: "<munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><mi>i</mi><mo>=</mo><mfrac><mrow><mi>n</mi><mo>(</mo><mi>n</mi><mo>+</mo><mn>1</mn><mo>)</mo></mrow><mn>2</mn></mfrac>",
    },
    Formula {
        tex: "\\int_{0}^{1} x^{2} dx = \\frac{1}{3}",
        mathml: "<msubsup><mo>∫</mo><mn>0</mn><mn>1</mn></msubsup><msup><mi>x</mi><mn>2</mn></msup><mi>d</mi><mi>x</mi><mo>=</mo><mfrac><mn>1</mn><mn>3</mn></mfrac>",
    },
    Formula {
        tex: "\\alpha + \\beta = \\pi",
        mathml: "<mi>α</mi><mo>+</mo><mi>β</mi><mo>=</mo><mi>π</mi>",
    },
    Formula {
        tex: "y = \\sqrt[3]{x + 1}",
        mathml: "<mi>y</mi><mo>=</mo><mroot><mrow><mi>x</mi><mo>+</mo><mn>1</mn></mrow><mn>3</mn></mroot>",
    },
    Formula {
        tex: "f(x) = \\sin x + \\cos x",
        mathml: "<mi>f</mi><mo>(</mo><mi>x</mi><mo>)</mo><mo>=</mo><mi>sin</mi><mi>x</mi><mo>+</mo><mi>cos</mi><mi>x</mi>",
    },
    Formula {
        tex: "0 \\leq p \\leq 1",
        mathml: "<mn>0</mn><mo>≤</mo><mi>p</mi><mo>≤</mo><mn>1</mn>",
    },
    Formula {
        tex: "n \\to \\infty",
        mathml: "<mi>n</mi><mo>→</mo><mi>∞</mi>",
    },
    Formula {
        tex: "A = (\\begin{matrix} a & b \\\\ c & d \\end{matrix})",
        mathml: "<mi>A</mi><mo>=</mo><mrow><mo>(</mo><mtable><mtr><mtd><mi>a</mi></mtd><mtd><mi>b</mi></mtd></mtr><mtr><mtd><mi>c</mi></mtd><mtd><mi>d</mi></mtd></mtr></mtable><mo>)</mo></mrow>",
    },
    Formula {
        tex: "\\sigma^{2} = \\frac{1}{n} \\sum_{i=1}^{n} (x_{i} - \\mu)^{2}",
        mathml: "<msup><mi>σ</mi><mn>2</mn></msup><mo>=</mo><mfrac><mn>1</mn><mi>n</mi></mfrac><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msup><mrow><mo>(</mo><msub><mi>x</mi><mi>i</mi></msub><mo>-</mo><mi>μ</mi><mo>)</mo></mrow><mn>2</mn></msup>",
    },
    Formula {
        tex: "e^{i\\pi} + 1 = 0",
        mathml: "<msup><mi>e</mi><mrow><mi>i</mi><mi>π</mi></mrow></msup><mo>+</mo><mn>1</mn><mo>=</mo><mn>0</mn>",
    },
    Formula {
        tex: "\\log_{2} n",
        mathml: "<msub><mi>log</mi><mn>2</mn></msub><mi>n</mi>",
    },
    Formula {
        tex: "2 \\times 3 = 6",
        mathml: "<mn>2</mn><mo>×</mo><mn>3</mn><mo>=</mo><mn>6</mn>",
    },
    Formula {
        tex: "S = \\{1, 2, 3\\}",
        mathml: "<mi>S</mi><mo>=</mo><mo>{</mo><mn>1</mn><mo>,</mo><mn>2</mn><mo>,</mo><mn>3</mn><mo>}</mo>",
    },
    Formula {
        tex: "F(x) = 1 \\text{ if } x > 0",
        mathml: "<mi>F</mi><mo>(</mo><mi>x</mi><mo>)</mo><mo>=</mo><mn>1</mn><mtext> if </mtext><mi>x</mi><mo>&gt;</mo><mn>0</mn>",
    },
    Formula {
        tex: "\\theta_{k+1} = \\theta_{k} - \\lambda g_{k}",
        mathml: "<msub><mi>θ</mi><mrow><mi>k</mi><mo>+</mo><mn>1</mn></mrow></msub><mo>=</mo><msub><mi>θ</mi><mi>k</mi></msub><mo>-</mo><mi>λ</mi><msub><mi>g</mi><mi>k</mi></msub>",
    },
    Formula {
        tex: "p \\geq 0.5",
        mathml: "<mi>p</mi><mo>≥</mo><mn>0.5</mn>",
    },
];

/// The visible characters of a formula's MathML (the leaves' texts, in
/// order): what the visual renderings (KaTeX's HTML, MathJax's glyphs)
/// show.
pub fn leaves(mathml: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = mathml;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('>') else { break };
        let tag = &after[..close];
        rest = &after[close + 1..];
        let name = tag.split_whitespace().next().unwrap_or("");
        if matches!(name, "mi" | "mn" | "mo" | "mtext")
            && let Some(end) = rest.find('<')
        {
            let text = rest[..end]
                .replace("&gt;", ">")
                .replace("&lt;", "<")
                .replace("&amp;", "&");
            if !text.trim().is_empty() {
                out.push(text);
            }
        }
    }
    out
}

/// A data table's content: header cells and body rows.
pub struct TableData {
    /// The header row.
    pub header: Vec<String>,
    /// The body rows.
    pub rows: Vec<Vec<String>>,
}

const TOOLS: &[&str] = &[
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
];
const REGIONS: &[&str] = &[
    "North", "South", "East", "West", "Central", "Coastal", "Highland", "Island",
];

/// A table of `cols` columns (2 to 12) and `rows` body rows of mixed
/// words and numbers, each cell distinct in its column.
pub fn table_data(rng: &mut impl Rng, cols: usize, rows: usize) -> TableData {
    const HEADERS: &[&str] = &[
        "Name",
        "Region",
        "Version",
        "Pages per second",
        "Memory (MB)",
        "Errors",
        "Released",
        "Licence",
        "Median latency",
        "Owner",
        "Status",
        "Notes",
    ];
    let cols = cols.clamp(2, HEADERS.len());
    let header: Vec<String> = HEADERS[..cols].iter().map(|s| s.to_string()).collect();
    let mut names: Vec<&str> = TOOLS.to_vec();
    names.shuffle(rng);
    let body = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| match c {
                    0 => format!("{}-{}", names[r % names.len()], r + 1),
                    1 => REGIONS[(r + rng.gen_range(0..REGIONS.len())) % REGIONS.len()].to_string(),
                    2 => format!("{}.{}.{}", rng.gen_range(0..4), rng.gen_range(0..20), r),
                    3 => format!("{}", rng.gen_range(50..5000)),
                    4 => format!("{}.{}", rng.gen_range(5..900), rng.gen_range(0..10)),
                    5 => format!("{}", rng.gen_range(0..40)),
                    6 => format!(
                        "20{:02}-{:02}-{:02}",
                        rng.gen_range(10..25),
                        rng.gen_range(1..13),
                        rng.gen_range(1..29)
                    ),
                    7 => pick(
                        rng,
                        &["MIT", "Apache-2.0", "GPL-3.0", "BSD-3-Clause", "MPL-2.0"],
                    )
                    .to_string(),
                    8 => format!("{} ms", rng.gen_range(1..300)),
                    9 => pick(rng, NAMES).to_string(),
                    10 => pick(rng, &["stable", "beta", "deprecated", "planned"]).to_string(),
                    _ => Prose::phrase(rng),
                })
                .collect()
        })
        .collect();
    TableData { header, rows: body }
}

/// Sub/sup occurrences: (before, tag, inner, after) — the word characters
/// touching the element are part of the occurrence.
pub const SUBSUP: &[(&str, &str, &str, &str)] = &[
    ("H", "sub", "2", "O"),
    ("CO", "sub", "2", ""),
    ("mc", "sup", "2", ""),
    ("x", "sup", "n", ""),
    ("2", "sup", "10", ""),
    ("O", "sub", "3", ""),
    ("10", "sup", "-6", ""),
    ("a", "sub", "i", ""),
];

/// Phrases a sub/sup occurrence sits in: `{}` is the occurrence.
pub const SUBSUP_SENTENCES: &[&str] = &[
    "The second sample was mostly {} by weight.",
    "We wrote the quantity as {} in every table.",
    "Only {} appears in the final report.",
    "The notebook records {} next to each reading.",
];

/// Quotes (block quotes' texts).
pub const QUOTES: &[&str] = &[
    "Make it work, make it right, then make it fast, and measure each step.",
    "A benchmark that nobody can rerun is an anecdote with a chart.",
    "The cheapest code to maintain is the code that was never written.",
    "Every cache is a promise that the data will not change too soon.",
    "When the logs disagree with the dashboard, trust the logs first.",
];

/// Definition list entries.
pub const DEFINITIONS: &[(&str, &str)] = &[
    (
        "Latency",
        "The time from a request's arrival to the first byte of its answer.",
    ),
    (
        "Throughput",
        "How many requests are completed per second under load.",
    ),
    (
        "Shard",
        "One part of a data set that a single node stores and serves.",
    ),
    (
        "Checkpoint",
        "A saved state from which a long job can resume after a failure.",
    ),
    (
        "Backpressure",
        "A signal that tells a producer to slow down until the consumer catches up.",
    ),
    (
        "Idempotent",
        "An operation that has the same effect whether it runs once or many times.",
    ),
];
