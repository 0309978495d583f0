//! Integration tests that run the `unchaff` binary as a user would.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn unchaff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_unchaff"))
}

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/article.html")
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("run unchaff")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn extract_the_shipped_example() {
    let o = run(unchaff().arg("extract").arg(example()));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Counting stones"), "{text}");
    assert!(text.contains("The river kept our bridge for us"));
    for chaff in [
        "Most read",
        "We use cookies",
        "All rights reserved",
        "Related stories",
        "Subscribe",
    ] {
        assert!(!text.contains(chaff), "chaff {chaff:?} in output:\n{text}");
    }
}

#[test]
fn extract_json() {
    let o = run(unchaff()
        .args([
            "extract",
            "--format",
            "json",
            "--url",
            "https://example.org/bridge",
        ])
        .arg(example()));
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["url"], "https://example.org/bridge");
    assert_eq!(
        v["title"],
        "How the river town rebuilt its bridge | The Lowland Courier"
    );
    assert_eq!(v["algorithm"], "auto");
    assert_eq!(v["charset"], "UTF-8");
    assert!(v["text"].as_str().unwrap().contains("Opening day"));
}

#[test]
fn extract_markdown_html_and_json_metadata() {
    let o = run(unchaff()
        .args(["extract", "-f", "markdown", "--links"])
        .args(["--url", "https://example.org/news/bridge"])
        .arg(example()));
    assert!(o.status.success(), "{}", stderr(&o));
    let md = stdout(&o);
    // The document opens with the article's title (metadata), and the
    // headline is not repeated from the body …
    assert!(
        md.starts_with("# How the river town rebuilt its bridge\n\nBy Mara Ellison"),
        "{md}"
    );
    assert!(md.contains("\n## Counting stones\n"), "{md}");
    // … unless asked for.
    let o = run(unchaff()
        .args(["extract", "-f", "markdown", "-p", "keep-title=1"])
        .arg(example()));
    let md = stdout(&o);
    assert!(
        md.starts_with("# How the river town rebuilt its bridge\n\nBy Mara"),
        "{md}"
    );
    // Without the title heading, the body as selected.
    let o = run(unchaff()
        .args(["extract", "-f", "markdown", "--no-title"])
        .arg(example()));
    assert!(stdout(&o).starts_with("By Mara Ellison"), "{}", stdout(&o));
    let o = run(unchaff().args(["extract", "-f", "html"]).arg(example()));
    let html = stdout(&o);
    assert!(html.starts_with("<p>By Mara Ellison"), "{html}");
    assert!(html.contains("<h2>Counting stones</h2>"), "{html}");
    assert!(
        !html.contains("<script") && !html.contains("<div"),
        "{html}"
    );
    let o = run(unchaff()
        .args(["extract", "-f", "json", "--html"])
        .arg(example()));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["schema"], 2);
    assert!(v["markdown"].as_str().unwrap().contains("## Opening day"));
    assert!(v["html"].as_str().unwrap().contains("<h2>Opening day</h2>"));
    let m = &v["metadata"];
    assert_eq!(m["title"], "How the river town rebuilt its bridge");
    assert_eq!(m["author"], "Mara Ellison");
    assert_eq!(m["language"], "en");
}

#[test]
fn extract_with_metadata_writes_front_matter_and_a_document_head() {
    let o = run(unchaff()
        .args(["extract", "-f", "markdown", "--with-metadata"])
        .args(["--url", "https://example.org/news/bridge"])
        .arg(example()));
    assert!(o.status.success(), "{}", stderr(&o));
    let md = stdout(&o);
    let (head, body) = md
        .strip_prefix("---\n")
        .and_then(|m| m.split_once("\n---\n"))
        .unwrap_or_else(|| panic!("no front matter: {md}"));
    for line in [
        "title: How the river town rebuilt its bridge",
        "author: Mara Ellison",
        "url: https://example.org/news/bridge",
        "hostname: example.org",
        "language: en",
    ] {
        assert!(head.lines().any(|l| l == line), "{line} missing in {head}");
    }
    assert!(
        body.starts_with("# How the river town rebuilt its bridge\n"),
        "{body}"
    );
    // Plain text takes the same header; HTML a document around the fragment.
    let o = run(unchaff()
        .args(["extract", "--with-metadata"])
        .arg(example()));
    assert!(stdout(&o).starts_with("---\ntitle: "), "{}", stdout(&o));
    let o = run(unchaff()
        .args(["extract", "-f", "html", "--with-metadata"])
        .arg(example()));
    let html = stdout(&o);
    assert!(
        html.starts_with("<html><head><meta charset=\"utf-8\"><title>How the river"),
        "{html}"
    );
    assert!(
        html.contains("<meta name=\"author\" content=\"Mara Ellison\">"),
        "{html}"
    );
    assert!(html.contains("<body><p>By Mara Ellison"), "{html}");
    // JSON carries it anyway: the flag says it has no effect there.
    let o = run(unchaff()
        .args(["extract", "-f", "json", "--with-metadata"])
        .arg(example()));
    assert!(o.status.success());
    assert!(
        stderr(&o).contains("--with-metadata has no effect"),
        "{}",
        stderr(&o)
    );
    // Without the flag, no header.
    let o = run(unchaff().args(["extract", "-f", "markdown"]).arg(example()));
    assert!(!stdout(&o).starts_with("---"), "{}", stdout(&o));
}

#[test]
fn extract_from_stdin_and_gzip() {
    let html = std::fs::read(example()).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&html).unwrap();
    let gz = gz.finish().unwrap();
    for (args, input) in [(vec!["extract"], &html), (vec!["extract", "-"], &gz)] {
        let mut child = unchaff()
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success());
        assert!(stdout(&o).contains("Counting stones"));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("page.html.gz");
    std::fs::write(&path, &gz).unwrap();
    let o = run(unchaff().arg("extract").arg(&path));
    assert!(stdout(&o).contains("Counting stones"));
}

#[test]
fn a_title_after_body_content_is_the_title() {
    // `<title>` after a `<div>` lands in the body; a browser's
    // `document.title` still reads it, and so do both titles here.
    let mut child = unchaff()
        .args(["extract", "-f", "json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"<div>intro</div><title>Late title</title><p>Body</p>")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["title"], "Late title");
    assert_eq!(v["metadata"]["title"], "Late title");
    for field in ["categories", "tags"] {
        assert!(v["metadata"][field].is_array(), "{field}");
    }
    for field in ["image", "license"] {
        assert!(v["metadata"][field].is_null(), "{field}");
    }
}

#[test]
fn extract_with_a_charset_override() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("latin1.html");
    std::fs::write(&path, b"<p>Cr\xe8me br\xfbl\xe9e for everyone</p>").unwrap();
    let o = run(unchaff()
        .args(["extract", "--charset", "iso-8859-1"])
        .arg(&path));
    assert_eq!(stdout(&o).trim(), "Crème brûlée for everyone");
}

#[test]
fn errors_are_clear_and_exit_non_zero() {
    let ex = example();
    let ex = ex.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["extract", "/no/such/file.html"],
            "cannot read /no/such/file.html",
        ),
        (
            vec!["extract", "--algorithm", "nope", ex],
            "unknown algorithm \"nope\"",
        ),
        (
            vec!["extract", "-p", "lambda=abc", ex],
            "bad parameter \"lambda\"",
        ),
        (
            vec!["extract", "-p", "colour=red", ex],
            "has no such parameter",
        ),
        (
            vec!["extract", "--charset", "klingon", ex],
            "unknown charset",
        ),
        (vec!["eval", "/no/such/dir"], "not a dataset folder"),
    ];
    for (args, want) in cases {
        let o = run(unchaff().args(&args).stdin(Stdio::null()));
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(
            stderr(&o).contains(want),
            "{args:?}: stderr {:?} lacks {want:?}",
            stderr(&o)
        );
    }
    // Empty input.
    let o = run(unchaff().arg("extract").stdin(Stdio::null()));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("input is empty"));
}

#[test]
fn algorithms_are_listed() {
    let o = run(unchaff().arg("algorithms"));
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.starts_with("auto ") && l.contains("[default]")),
        "{out}"
    );
    for entry in unchaff::algorithms::REGISTRY {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().next() == Some(entry.name))
        );
    }
}

#[test]
fn help_explains() {
    let o = run(unchaff().arg("--help"));
    let out = stdout(&o);
    for cmd in ["extract", "eval", "score", "bench", "algorithms"] {
        assert!(out.contains(cmd), "--help lacks {cmd}");
    }
    let o = run(unchaff().args(["extract", "--help"]));
    assert!(stdout(&o).contains("--charset"));
}

/// Writes a dataset folder in the shared layout: for each page, its id,
/// HTML (gzipped into `pages/`), gold text and manifest line.
fn write_dataset(dir: &Path, pages: &[(String, String, String, String)]) {
    std::fs::create_dir_all(dir.join("pages")).unwrap();
    std::fs::create_dir_all(dir.join("gold")).unwrap();
    let mut manifest = String::new();
    for (id, html, gold, line) in pages {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(html.as_bytes()).unwrap();
        std::fs::write(
            dir.join(format!("pages/{id}.html.gz")),
            gz.finish().unwrap(),
        )
        .unwrap();
        std::fs::write(dir.join(format!("gold/{id}.txt")), gold).unwrap();
        manifest.push_str(line);
        manifest.push('\n');
    }
    std::fs::write(dir.join("manifest.jsonl"), manifest).unwrap();
}

/// A small dataset in the shared layout, written by the test.
fn fixture_dataset(root: &Path) -> PathBuf {
    let dir = root.join("tiny");
    let body = "Rivers carry stones a long way downstream when the spring floods come early.";
    let mut pages = Vec::new();
    for (i, lang) in ["en", "en", "zh"].iter().enumerate() {
        let id = format!("p{i}");
        let text = if *lang == "zh" {
            "这是一个测试页面的正文内容，用来检查中文的评分是否正确。".to_owned()
        } else {
            format!("{body} Page {i}.")
        };
        let html = format!(
            "<html><body><ul><li><a href=/>Home</a></li><li><a href=/x>Menu</a></li></ul>\
             <div class=story><p>{text}</p><p>{text}</p></div><footer>© site</footer></body></html>"
        );
        let line = format!(
            "{{\"id\": \"{id}\", \"url\": \"https://example.org/{id}\", \"lang\": \"{lang}\"}}"
        );
        pages.push((id, html, format!("{text}\n{text}\n"), line));
    }
    write_dataset(&dir, &pages);
    dir
}

#[test]
#[cfg(feature = "train")]
fn train_auto_seed_is_an_option() {
    let tmp = tempfile::tempdir().unwrap();
    let data = fixture_dataset(tmp.path());
    let train = |seed: &str, out: &str| {
        let path = tmp.path().join(out);
        let o = run(unchaff()
            .args(["train", "auto"])
            .arg(&data)
            .args([
                "--trees",
                "4",
                "--context-trees",
                "2",
                "--seed",
                seed,
                "--out",
            ])
            .arg(&path));
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read_to_string(path).unwrap()
    };
    let a = train("1", "a.json");
    assert!(a.contains("seed 1\"") && a.contains("seed 2\""), "{a}");
    assert_eq!(a, train("1", "b.json"), "one seed, one model");
    // Another seed draws other rows: other trees, not just another label.
    let trees = |json: &str| {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        v["blocks"]["trees"].clone()
    };
    assert_ne!(trees(&a), trees(&train("5", "c.json")));
}

#[test]
fn eval_save_and_score_agree() {
    let tmp = tempfile::tempdir().unwrap();
    let data = fixture_dataset(tmp.path());
    let saved = tmp.path().join("out");
    let o = run(unchaff()
        .arg("eval")
        .arg(&data)
        .arg("--save")
        .arg(&saved)
        .args(["-j", "1"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let eval_out = stdout(&o);
    let row = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("tiny"))
            .map(str::to_owned)
            .expect("tiny row")
    };
    let eval_row = row(&eval_out);
    assert!(saved.join("tiny/p0.txt").is_file());
    let o = run(unchaff()
        .arg("score")
        .arg(&data)
        .arg("--outputs")
        .arg(saved.join("tiny")));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        row(&stdout(&o)),
        eval_row,
        "rescoring saved outputs changed the figures"
    );
    // All three pages were scored, with full recall (the content is there).
    assert!(eval_row.starts_with("tiny        3 |"), "{eval_row}");
    assert!(eval_row.contains(" 1.000 "), "{eval_row}");
    // Thread count does not change results.
    let o2 = run(unchaff().arg("eval").arg(&data).args(["-j", "2"]));
    assert_eq!(row(&stdout(&o2)), eval_row);
    // --filter keeps only matching pages.
    let o3 = run(unchaff()
        .arg("eval")
        .arg(&data)
        .args(["--filter", "lang=zh"]));
    assert!(row(&stdout(&o3)).contains(" 1 |"), "{}", stdout(&o3));
}

/// Two pages whose text-distribution and cepr outputs differ: p1 has a
/// header line and a sidebar around one long paragraph (the gold).
fn compare_dataset(root: &Path) -> PathBuf {
    let dir = root.join("two");
    let body = "Rivers carry stones a long way downstream when the spring floods come early.";
    let long: Vec<String> = (0..8)
        .map(|i| {
            format!(
                "Sentence {i} about the harvest season and the long days of work in the valley."
            )
        })
        .collect();
    let long = long.join(" ");
    let pages = [
        (
            "p0",
            format!(
                "<html><body><ul><li><a href=/>Home</a></li><li><a href=/x>Menu</a></li></ul>\
                 <div class=story><p>{body}</p><p>{body} Again.</p></div><footer>© site</footer></body></html>"
            ),
            format!("{body}\n{body} Again.\n"),
        ),
        (
            "p1",
            format!(
                "<html><body><div><p>Short intro line of the site header with words.</p></div>\
                 <div><p>{long}</p></div><div><p>Sidebar: more stories about farms and weather in \
                 other places nearby.</p><p>Another sidebar line about weather and farms far away.</p>\
                 </div></body></html>"
            ),
            format!("{long}\n"),
        ),
    ];
    let pages: Vec<_> = pages
        .into_iter()
        .map(|(id, html, gold)| {
            let line = format!("{{\"id\": \"{id}\", \"lang\": \"en\"}}");
            (id.to_string(), html, gold, line)
        })
        .collect();
    write_dataset(&dir, &pages);
    dir
}

/// The shingle F1 of a saved output against the gold, as `eval` prints it.
fn saved_f1(data: &Path, saved: &Path, id: &str) -> String {
    let gold = std::fs::read_to_string(data.join(format!("gold/{id}.txt"))).unwrap();
    let pred = std::fs::read_to_string(saved.join(format!("{id}.txt"))).unwrap_or_default();
    format!(
        "{:.3}",
        unchaff_eval::metrics::shingle_page(&gold, &pred).f1()
    )
}

#[test]
fn eval_compare_lists_changed_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let data = compare_dataset(tmp.path());
    let (old, new) = (tmp.path().join("old"), tmp.path().join("new"));
    let o = run(unchaff()
        .arg("eval")
        .arg(&data)
        .args(["-a", "text-distribution", "--save"])
        .arg(&old));
    assert!(o.status.success(), "{}", stderr(&o));
    // The baseline lost p0's output: that page must show as a gain.
    std::fs::write(old.join("two/p0.txt"), "").unwrap();
    let o = run(unchaff()
        .arg("eval")
        .arg(&data)
        .args(["-a", "cepr", "--save"])
        .arg(&new)
        .arg("--compare")
        .arg(&old));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let f1 = |dir: &Path, id: &str| saved_f1(&data, &dir.join("two"), id);
    let (p0_old, p0_new) = (f1(&old, "p0"), f1(&new, "p0"));
    let (p1_old, p1_new) = (f1(&old, "p1"), f1(&new, "p1"));
    // The two algorithms differ on p1 (cepr keeps the header and sidebar).
    assert_eq!(p0_old, "0.000");
    assert_eq!(p1_old, "1.000");
    assert!(p1_new.parse::<f64>().unwrap() < 0.99, "cepr's p1: {p1_new}");
    let section: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("compared with"))
        .collect();
    assert!(section.len() == 5, "{out}");
    assert!(
        section[1].starts_with(
            "two: shingle F1 of 2 pages: 1 up, 1 down, 0 unchanged (|delta| <= 0.01); mean "
        ),
        "{out}"
    );
    assert_eq!(
        section[2].split_whitespace().collect::<Vec<_>>(),
        ["page", "old", "new", "delta"]
    );
    let row = |l: &str| l.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
    let delta = |a: &str, b: &str| {
        format!(
            "{:+.3}",
            b.parse::<f64>().unwrap() - a.parse::<f64>().unwrap()
        )
    };
    // Worst regression first: p1 (down), then p0 (up).
    assert_eq!(
        row(section[3])[..3],
        ["p1", p1_old.as_str(), p1_new.as_str()],
        "{out}"
    );
    assert_eq!(
        row(section[4])[..3],
        ["p0", p0_old.as_str(), p0_new.as_str()],
        "{out}"
    );
    assert!(row(section[3])[3].starts_with('-') && row(section[4])[3].starts_with('+'));
    // Deltas are printed from the unrounded figures; the rounded ones may
    // differ by one in the last place.
    for (l, a, b) in [
        (section[3], &p1_old, &p1_new),
        (section[4], &p0_old, &p0_new),
    ] {
        let printed: f64 = row(l)[3].parse().unwrap();
        let expect: f64 = delta(a, b).parse().unwrap();
        assert!((printed - expect).abs() <= 0.0011, "{l} vs {expect}");
    }
    // A threshold above p1's drop leaves only p0 listed.
    let o = run(unchaff()
        .arg("eval")
        .arg(&data)
        .args(["-a", "cepr", "--min-delta", "0.5", "--compare"])
        .arg(&old));
    let out = stdout(&o);
    assert!(
        out.contains("two: shingle F1 of 2 pages: 1 up, 0 down, 1 unchanged (|delta| <= 0.5)"),
        "{out}"
    );
    assert!(
        out.lines().any(|l| l.trim_start().starts_with("p0 ")),
        "{out}"
    );
    assert!(
        !out.lines().any(|l| l.trim_start().starts_with("p1 ")),
        "{out}"
    );
    // Comparing a run with itself changes nothing.
    let o = run(unchaff()
        .arg("eval")
        .arg(&data)
        .args(["-a", "cepr", "--compare"])
        .arg(&new));
    assert!(
        stdout(&o).contains("0 up, 0 down, 2 unchanged"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn bench_reports_stages() {
    let tmp = tempfile::tempdir().unwrap();
    let data = fixture_dataset(tmp.path());
    let o = run(unchaff().arg("bench").arg(&data).args(["--repeat", "1"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "pages/s",
        "MB/s",
        "decode",
        "parse",
        "annotate",
        "algorithm",
        "render",
    ] {
        assert!(out.contains(want), "bench output lacks {want}:\n{out}");
    }
}

#[test]
#[cfg(feature = "templates")]
fn templates_learn_show_and_extract() {
    // 10 pages of one site share a nav bar and a copyright line; their
    // own texts ("Story N", ≤ 8 characters) must be equal to be similar,
    // so they never are.
    let dir = tempfile::tempdir().unwrap();
    let page = |i: usize| {
        format!(
            "<body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
             <article><h1>Story {i}</h1><p>Text {i}</p></article>\
             <footer><p>Copyright Example Media Group 2024</p></footer></body>"
        )
    };
    let mut files = Vec::new();
    for i in 0..10 {
        let f = dir.path().join(format!("p{i}.html"));
        std::fs::write(&f, page(i)).unwrap();
        files.push(f);
    }
    let db = dir.path().join("t.sqlite");
    let o = run(unchaff()
        .args(["templates", "learn", "--db"])
        .arg(&db)
        .args(["--site", "www.example.org"])
        .args(&files));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("example.org: 10 pages, 1 batches, 3 entries added"),
        "{}",
        stdout(&o)
    );
    let o = run(unchaff()
        .args(["templates", "show", "--db"])
        .arg(&db)
        .args(["--site", "example.org"]));
    assert_eq!(
        stdout(&o),
        "a\tHome\na\tNews\np\tCopyright Example Media Group 2024\n"
    );
    // eval passes each page's manifest url: template-svm's own
    // `templates=FILE` parameter (no --templates) finds the page's site.
    let data = dir.path().join("site");
    std::fs::create_dir_all(data.join("pages")).unwrap();
    std::fs::create_dir_all(data.join("gold")).unwrap();
    std::fs::write(data.join("pages/p11.html.gz"), page(11)).unwrap();
    std::fs::write(data.join("gold/p11.txt"), "Story 11\nText 11\n").unwrap();
    std::fs::write(
        data.join("manifest.jsonl"),
        "{\"id\": \"p11\", \"url\": \"https://example.org/11\"}\n",
    )
    .unwrap();
    let saved = dir.path().join("out");
    let o = run(unchaff()
        .arg("eval")
        .arg(&data)
        .args(["-a", "template-svm", "-p"])
        .arg(format!("templates={}", db.display()))
        .arg("--save")
        .arg(&saved));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(saved.join("site/p11.txt")).unwrap();
    assert!(text.contains("Text 11"), "{text}");
    assert!(
        !text.contains("Copyright") && !text.contains("Home"),
        "eval did not give the page its URL: {text}"
    );
    let p11 = dir.path().join("p11.html");
    std::fs::write(&p11, page(11)).unwrap();
    let o = run(unchaff()
        .arg("extract")
        .arg(&p11)
        .args([
            "-a",
            "template-svm",
            "--url",
            "https://example.org/11",
            "--templates",
        ])
        .arg(&db));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        !text.contains("Copyright") && !text.contains("Home"),
        "{text}"
    );
}

/// Pages per learner in `two_learner_processes_share_one_library`: 100
/// pages are 10 batches, i.e. 10 write transactions per process, so the
/// two processes' transactions interleave.
#[cfg(feature = "templates")]
const CONCURRENT_PAGES: usize = 100;

#[test]
#[cfg(feature = "templates")]
fn two_learner_processes_share_one_library() {
    // Two processes learn two sites into one file at the same time; each
    // site's pages share a nav bar and a copyright line of their own.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let mut children = Vec::new();
    for site in ["alpha", "beta"] {
        let pages = dir.path().join(site);
        std::fs::create_dir(&pages).unwrap();
        let mut files = Vec::new();
        for i in 0..CONCURRENT_PAGES {
            let f = pages.join(format!("p{i}.html"));
            std::fs::write(
                &f,
                format!(
                    "<body><nav><a href=/>Home {site}</a> <a href=/n>News {site}</a></nav>\
                     <article><h1>Story {i}</h1><p>Body {i}</p></article>\
                     <footer><p>Copyright {site} Media Group 2024</p></footer></body>"
                ),
            )
            .unwrap();
            files.push(f);
        }
        let child = unchaff()
            .args(["templates", "learn", "--db"])
            .arg(&db)
            .args(["--site", &format!("{site}.example")])
            .args(&files)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn unchaff");
        children.push((site, child));
    }
    for (site, child) in children {
        let o = child.wait_with_output().expect("wait for unchaff");
        assert!(o.status.success(), "{site}: {}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!(
                "{site}.example: {CONCURRENT_PAGES} pages, 10 batches"
            )),
            "{site}: {}",
            stdout(&o)
        );
    }
    let conn = rusqlite::Connection::open(&db).unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok");
    drop(conn);
    let o = run(unchaff().args(["templates", "show", "--db"]).arg(&db));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "site\tentries\tpending pages\nalpha.example\t3\t0\nbeta.example\t3\t0\n"
    );
    for site in ["alpha", "beta"] {
        let o = run(unchaff()
            .args(["templates", "show", "--db"])
            .arg(&db)
            .args(["--site", &format!("{site}.example")]));
        assert_eq!(
            stdout(&o),
            format!("a\tHome {site}\na\tNews {site}\np\tCopyright {site} Media Group 2024\n")
        );
    }
}

#[test]
fn eval_leaf_adds_a_table_and_keeps_the_default_one() {
    let tmp = tempfile::tempdir().unwrap();
    let data = fixture_dataset(tmp.path());
    let plain = run(unchaff().arg("eval").arg(&data).args(["-j", "1"]));
    assert!(plain.status.success(), "{}", stderr(&plain));
    assert!(!stdout(&plain).contains("leaf"), "{}", stdout(&plain));
    let o = run(unchaff().arg("eval").arg(&data).args(["-j", "1", "--leaf"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // The default table comes first, unchanged; then the leaf table.
    assert!(out.starts_with(&stdout(&plain)), "{out}");
    let leaf: Vec<&str> = out[stdout(&plain).len()..].lines().collect();
    assert_eq!(leaf[0], "");
    assert!(
        leaf[1].contains("leaf P") && leaf[1].contains("leaf F1"),
        "{out}"
    );
    // Each page's two paragraph leaves are content and extracted; the
    // menu and footer leaves are noise.
    let row: Vec<&str> = leaf[2].split_whitespace().collect();
    assert_eq!(row[..2], ["tiny", "3"], "{out}");
    assert_eq!(row[3], "1.000", "leaf recall: {out}");
}

#[test]
fn algorithms_lists_every_parameter() {
    let o = run(unchaff().args(["algorithms", "auto"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for p in [
        "threshold",
        "include-comments",
        "keep-title",
        "fallback",
        "consent",
        "records",
        "record-source-chars",
        "record-min-p",
        "listing-min-p",
        "context",
        "model",
    ] {
        assert!(out.contains(&format!("-p {p} ")), "{p} missing:\n{out}");
    }
    assert!(out.contains("default 0.5; 0 to 1"), "{out}");
    let all = stdout(&run(unchaff().args(["algorithms", "--params"])));
    assert!(
        all.contains("-p lambda") && all.contains("(no parameters)"),
        "{all}"
    );
    let o = run(unchaff().args(["algorithms", "nope"]));
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("the algorithms are: auto, cetd-tpc"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn presets_set_the_threshold_and_belong_to_auto() {
    // --precision keeps no more than the default, --recall no less.
    let len = |flag: Option<&str>| {
        let mut c = unchaff();
        c.arg("extract").arg(example());
        c.args(flag);
        let o = run(&mut c);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o).len()
    };
    let (p, d, r) = (len(Some("--precision")), len(None), len(Some("--recall")));
    assert!(p <= d && d <= r, "precision {p}, default {d}, recall {r}");
    // The same as the parameter they stand for.
    let by_param = run(unchaff()
        .arg("extract")
        .arg(example())
        .args(["-p", "threshold=0.65"]));
    assert_eq!(stdout(&by_param).len(), p);
    let o = run(unchaff()
        .arg("extract")
        .arg(example())
        .args(["-a", "cetd-tpc", "--recall"]));
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("the recall preset is an option of the auto algorithm"),
        "{}",
        stderr(&o)
    );
    let o = run(unchaff()
        .arg("extract")
        .arg(example())
        .args(["--precision", "--recall"]));
    assert!(!o.status.success(), "the presets conflict");
    // Rejected by the core, as the server and Python reject them.
    assert!(
        stderr(&o).contains("the precision and recall presets exclude each other"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn flags_without_effect_are_warned_about() {
    let o = run(unchaff()
        .arg("extract")
        .arg(example())
        .args(["--links", "--html"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("--links has no effect with -f text"), "{err}");
    assert!(err.contains("--html has no effect with -f text"), "{err}");
    let o = run(unchaff()
        .arg("extract")
        .arg(example())
        .args(["-f", "markdown", "--links"]));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}

#[test]
fn no_tables_leaves_data_tables_out() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("t.html");
    let prose = "A sentence of the article that is long enough to be content here. ".repeat(2);
    std::fs::write(
        &page,
        format!(
            "<article><p>{prose}</p><table><tr><th>City</th></tr><tr><td>Oslo</td></tr></table>\
             <p>{prose}</p></article>"
        ),
    )
    .unwrap();
    let with = stdout(&run(unchaff()
        .args(["extract", "-a", "cetd-tpc"])
        .arg(&page)));
    assert!(with.contains("Oslo"), "{with}");
    let o = run(unchaff()
        .args(["extract", "-a", "cetd-tpc", "--no-tables", "-f", "html"])
        .arg(&page));
    assert!(o.status.success(), "{}", stderr(&o));
    let without = stdout(&o);
    assert!(
        !without.contains("Oslo") && !without.contains("<table"),
        "{without}"
    );
    assert!(without.contains("long enough"), "{without}");
}

#[test]
fn html_and_markdown_keep_lists_and_tables() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("s.html");
    let prose = "A sentence of the article that is long enough to be content here. ".repeat(3);
    std::fs::write(
        &page,
        format!(
            "<html><body><nav><a href=/>Home</a> <a href=/b>B</a></nav><article><p>{prose}</p>\
             <ul><li>First point of the list, long enough to keep.<ul><li>A nested point of it.</li>\
             </ul></li><li>Second point of the list, long enough too.</li></ul>\
             <table><tr><th>City</th><th>People</th></tr><tr><td colspan=2>Oslo, a whole row</td></tr></table>\
             <p>{prose}</p></article></body></html>"
        ),
    )
    .unwrap();
    for alg in ["auto", "cetd-tpc"] {
        let html = stdout(&run(unchaff()
            .args(["extract", "-a", alg, "-f", "html"])
            .arg(&page)));
        let md = stdout(&run(unchaff()
            .args(["extract", "-a", alg, "-f", "markdown"])
            .arg(&page)));
        assert_eq!(html.matches("<li>").count(), 3, "{alg}: {html}");
        assert_eq!(html.matches("<ul>").count(), 2, "{alg}: {html}");
        assert!(
            html.contains("<th>City</th>") && html.contains("<td colspan=\"2\">"),
            "{alg}: {html}"
        );
        assert_eq!(html.matches("<tr>").count(), 2, "{alg}: {html}");
        // Markdown has the same structure: three items (one nested), two table rows.
        assert_eq!(
            md.lines()
                .filter(|l| l.trim_start().starts_with("- "))
                .count(),
            3,
            "{alg}: {md}"
        );
        assert!(
            md.lines().any(|l| l.starts_with("  - A nested point")),
            "{alg}: {md}"
        );
        assert_eq!(
            md.lines()
                .filter(|l| l.starts_with("| ") && !l.starts_with("| -"))
                .count(),
            2,
            "{alg}: {md}"
        );
    }
}

/// Each command or option of a cargo feature left out of the build says
/// which feature to build with (the other builds test the command itself).
#[test]
fn commands_of_features_left_out_name_their_feature() {
    let mut cases: Vec<(Vec<&str>, &str)> = Vec::new();
    if !cfg!(feature = "server") {
        cases.push((vec!["serve", "--listen", "127.0.0.1:0"], "server"));
    }
    if !cfg!(feature = "train") {
        cases.push((vec!["train", "auto", ".", "--out", "m.json"], "train"));
    }
    if !cfg!(feature = "templates") {
        cases.push((vec!["templates", "show", "--db", "t.db"], "templates"));
        cases.push((vec!["eval", ".", "--templates", "t.db"], "templates"));
    }
    if !cfg!(feature = "fetch") {
        cases.push((vec!["extract", "https://example.invalid/"], "fetch"));
    }
    for (args, feature) in cases {
        let o = run(unchaff().args(&args));
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!("the `{feature}` cargo feature"))
                && err.contains(&format!("--features {feature}")),
            "{args:?}: {err}"
        );
    }
}
