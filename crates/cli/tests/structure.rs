//! `unchaff structure` on a small generated set: generate, eval (and
//! --save), score saved outputs of several tools, survey.

use std::path::Path;
use std::process::{Command, Output};

fn unchaff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_unchaff"))
}

fn run(args: &[&str]) -> Output {
    unchaff().args(args).output().expect("run unchaff")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The cells of the table row that starts with `| name |`.
fn row<'a>(table: &'a str, name: &str) -> Vec<&'a str> {
    let line = table
        .lines()
        .find(|l| l.starts_with(&format!("| {name} |")))
        .unwrap_or_else(|| panic!("no row {name:?} in\n{table}"));
    line.trim_matches('|').split('|').map(str::trim).collect()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn generate_eval_score_and_survey() {
    let tmp = tempfile::tempdir().unwrap();
    let gen_dir = tmp.path().join("gen");
    let o = run(&["structure", "generate", s(&gen_dir), "--per-folder", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for t in ["news", "docs", "encyclopedia", "qa", "blog"] {
        let d = gen_dir.join(format!("gen-{t}"));
        assert!(d.join("manifest.jsonl").is_file(), "{t}");
        assert_eq!(std::fs::read_dir(d.join("structure")).unwrap().count(), 2);
    }

    // Eval: one row per folder and the sum; the Markdown saved.
    let saved = tmp.path().join("saved");
    let o = run(&[
        "structure",
        "eval",
        s(&gen_dir),
        "--save",
        s(&saved),
        "-j",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = stdout(&o);
    let header = row(&table, "tool");
    for col in [
        "text F1",
        "headings F1",
        "tables cell F1",
        "code exact",
        "math inline",
        "sub/sup",
    ] {
        assert!(header.contains(&col), "{col} in {header:?}");
    }
    let all = row(&table, "all");
    assert_eq!(all[1], "10");
    assert_eq!(row(&table, "n (gold)")[1], "10");
    assert!(saved.join("gen-news/news-000.md").is_file());

    // Score: the saved outputs score as in eval; an empty tool scores 0.
    let empty = tmp.path().join("empty");
    for t in ["news", "docs", "encyclopedia", "qa", "blog"] {
        std::fs::create_dir_all(empty.join(format!("gen-{t}"))).unwrap();
    }
    let o = run(&[
        "structure",
        "score",
        s(&gen_dir),
        "--outputs",
        &format!("unchaff={}", s(&saved)),
        "--outputs",
        &format!("nothing={}", s(&empty)),
        "--tools",
        "unchaff,nothing",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let scored = stdout(&o);
    assert_eq!(row(&scored, "unchaff")[1..], all[1..], "{scored}\n{table}");
    let nothing = row(&scored, "nothing");
    assert_eq!(nothing[2], "0.000", "text F1 of empty outputs: {scored}");
    assert!(scored.find("| unchaff |") < scored.find("| nothing |"));

    // No outputs named: an error that says what to give.
    let o = run(&["structure", "score", s(&gen_dir)]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--run"), "{}", stderr(&o));

    // Survey: the generated pages hold every construct in their gold.
    let real = tmp.path().join("real");
    let o = run(&[
        "structure",
        "survey",
        s(&gen_dir),
        "--out",
        s(&real),
        "-j",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let survey = stdout(&o);
    let total = row(&survey, "**all**");
    assert_eq!(total[1], "10");
    assert_ne!(total[2], "0 (0)", "data tables found: {survey}");
    assert_ne!(total[3], "0 (0)", "<pre> code found: {survey}");
    let pages = std::fs::read_dir(real.join("gen-docs/pages"))
        .unwrap()
        .count();
    assert!(pages > 0);
    let o = run(&["structure", "eval", s(&real), "-j", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
}
