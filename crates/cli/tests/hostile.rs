//! The `unchaff` binary on input built to hurt (issue 19): endless
//! devices and pipes, absurd flags. Each test asserts the outcome and its
//! message, never wall time (docs/ROBUSTNESS.md has the times).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn unchaff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_unchaff"))
}

fn example() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/article.html")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `/dev/zero`, where the system has it.
fn dev_zero() -> Option<&'static Path> {
    let p = Path::new("/dev/zero");
    p.exists().then_some(p)
}

/// Asserts a run failed with a size-limit message.
fn refused_as_too_large(o: &Output) {
    assert!(!o.status.success());
    let e = stderr(o);
    assert!(e.contains("larger than the limit"), "{e}");
}

#[test]
fn extract_dev_zero_reads_a_bounded_amount() {
    let Some(zero) = dev_zero() else { return };
    let o = unchaff().arg("extract").arg(zero).output().unwrap();
    refused_as_too_large(&o);
    assert!(stderr(&o).contains("/dev/zero"), "{}", stderr(&o));
}

#[test]
fn endless_stdin_reads_a_bounded_amount() {
    let Some(zero) = dev_zero() else { return };
    for args in [&["extract", "-"][..], &["extract"]] {
        let o = unchaff()
            .args(args)
            .stdin(Stdio::from(std::fs::File::open(zero).unwrap()))
            .output()
            .unwrap();
        refused_as_too_large(&o);
        assert!(stderr(&o).contains("standard input"), "{}", stderr(&o));
    }
}

#[test]
fn endless_model_file_is_refused() {
    let Some(_) = dev_zero() else { return };
    for alg in ["auto", "template-svm", "path-clustering"] {
        let o = unchaff()
            .args(["extract", "-a", alg, "-p", "model=/dev/zero"])
            .arg(example())
            .output()
            .unwrap();
        refused_as_too_large(&o);
        assert!(stderr(&o).contains("model"), "{}", stderr(&o));
    }
}

#[test]
fn too_many_threads_names_the_flag() {
    for cmd in ["eval", "bench"] {
        let o = unchaff()
            .args([cmd, "--threads", "100000", "."])
            .output()
            .unwrap();
        assert!(!o.status.success());
        let e = stderr(&o);
        assert!(e.contains("--threads") && e.contains("1 to 1024"), "{e}");
    }
}

#[test]
fn timeout_flag_gives_a_timeout_error() {
    let o = unchaff()
        .args(["extract", "--timeout", "0.000000001"])
        .arg(example())
        .output()
        .unwrap();
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("time limit"), "{e}");
    let o = unchaff()
        .args(["extract", "--timeout", "600"])
        .arg(example())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = unchaff()
        .args(["extract", "--timeout", "-1"])
        .arg(example())
        .output()
        .unwrap();
    assert!(!o.status.success());
}

/// Issue 41: `extract` had no deadline unless asked for one; it has
/// `batch --page-timeout`'s (60 s) by default now.
#[test]
fn extract_has_a_default_deadline() {
    let o = unchaff().args(["extract", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&o.stdout);
    let line = help
        .split("--timeout")
        .nth(1)
        .and_then(|rest| rest.split("\n  -").next())
        .unwrap_or_default()
        .to_owned();
    assert!(line.contains("[default: 60]"), "{help}");
}

/// Issue 41: `unchaff extract … | head` printed "Broken pipe (os error
/// 32)" and exited 1; it stops quietly now, with status 0, as ripgrep
/// does — also for the commands that print tables and lists.
#[test]
fn a_reader_that_goes_away_ends_the_command_quietly() {
    let page = std::env::temp_dir().join(format!("unchaff-pipe-{}.html", std::process::id()));
    let para = "<p>A paragraph of the long page, long enough to be kept as content.</p>\n";
    std::fs::write(&page, format!("<html><body>{}", para.repeat(20_000))).unwrap();
    let runs: [&[&str]; 3] = [
        &["extract", page.to_str().unwrap()],
        &["extract", "-f", "markdown", page.to_str().unwrap()],
        &["algorithms", "--params"],
    ];
    for args in runs {
        let mut child = unchaff()
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before the first byte is written.
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {:?} {}",
            o.status,
            stderr(&o)
        );
        assert_eq!(stderr(&o), "", "{args:?}");
    }
    let _ = std::fs::remove_file(&page);
}

/// Issue 41: started with standard output closed (`>&-`), `extract`
/// exited 0 with its output gone; it is an error now.
#[cfg(unix)]
#[test]
fn closed_standard_output_is_an_error() {
    let o = Command::new("/bin/sh")
        .arg("-c")
        .arg("exec \"$0\" extract \"$1\" >&-")
        .arg(env!("CARGO_BIN_EXE_unchaff"))
        .arg(example())
        .output()
        .unwrap();
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("standard output is closed"),
        "{}",
        stderr(&o)
    );
    // Writing a report to a file needs no standard output.
    let out = std::env::temp_dir().join(format!("unchaff-closed-{}.html", std::process::id()));
    let o = Command::new("/bin/sh")
        .arg("-c")
        .arg("exec \"$0\" explain \"$1\" --out \"$2\" >&-")
        .arg(env!("CARGO_BIN_EXE_unchaff"))
        .arg(example())
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_file(&out);
}
