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
