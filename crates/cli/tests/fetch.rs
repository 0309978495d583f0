//! `unchaff extract URL` against a small HTTP server on the loopback
//! address, started by the test and stopped by itself: redirects, gzip,
//! the charset of the Content-Type header, HTTP errors and the size limit;
//! and several inputs in one run.

#![cfg(feature = "fetch")]

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The server stops after this long whatever happens.
const SERVER_LIFETIME: Duration = Duration::from_secs(60);

fn unchaff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_unchaff"))
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// An article in windows-1251: "Привет" is C7 F0 E8 E2 E5 F2 there. The
/// navigation is three links: a nav of one lone link on a two-block page
/// is a toss-up for the model (the model retrained for issue #23 keeps it
/// at p = 0.86; three links it drops).
fn cyrillic_article() -> Vec<u8> {
    let mut page = b"<html><head><title>T</title></head><body>\
        <nav><a href=/>Home</a> <a href=/news>News</a> <a href=/about>About</a></nav>\
        <article><p>"
        .to_vec();
    for _ in 0..20 {
        page.extend_from_slice(
            b"\xcf\xf0\xe8\xe2\xe5\xf2 \xec\xe8\xf0, a long sentence of the story. ",
        );
    }
    page.extend_from_slice(b"</p></article></body></html>");
    page
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn respond(mut s: TcpStream) {
    s.set_read_timeout(Some(Duration::from_secs(5))).ok();
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut line = String::new();
    if r.read_line(&mut line).is_err() {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_owned();
    let mut gzip_ok = false;
    loop {
        let mut h = String::new();
        if r.read_line(&mut h).unwrap_or(0) == 0 || h == "\r\n" {
            break;
        }
        let h = h.to_ascii_lowercase();
        if h.starts_with("accept-encoding:") && h.contains("gzip") {
            gzip_ok = true;
        }
        if h.starts_with("user-agent:") {
            assert!(h.contains("unchaff/"), "{h}");
        }
    }
    let (status, headers, body): (&str, String, Vec<u8>) = match path.as_str() {
        "/moved" => (
            "301 Moved Permanently",
            "Location: /page\r\n".into(),
            Vec::new(),
        ),
        "/page" if gzip_ok => (
            "200 OK",
            "Content-Type: text/html; charset=windows-1251\r\nContent-Encoding: gzip\r\n".into(),
            gzip(&cyrillic_article()),
        ),
        "/page" => (
            "200 OK",
            "Content-Type: text/html; charset=windows-1251\r\n".into(),
            cyrillic_article(),
        ),
        "/big" => (
            "200 OK",
            "Content-Type: text/html\r\n".into(),
            vec![b'x'; 100_000],
        ),
        _ => (
            "404 Not Found",
            "Content-Type: text/html\r\n".into(),
            b"<p>no</p>".to_vec(),
        ),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = s.write_all(head.as_bytes());
    let _ = s.write_all(&body);
}

/// Starts the server; returns its base URL.
fn serve() -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap();
    l.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let end = Instant::now() + SERVER_LIFETIME;
        while Instant::now() < end {
            match l.accept() {
                Ok((s, _)) => {
                    s.set_nonblocking(false).ok();
                    respond(s);
                }
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        }
    });
    format!("http://{addr}")
}

#[test]
fn extract_fetches_a_url() {
    let base = serve();
    // Redirected, gzipped, charset from the header (the page declares none).
    let o = unchaff()
        .args(["extract", "-f", "json"])
        .arg(format!("{base}/moved"))
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["charset"], "windows-1251");
    assert_eq!(v["url"], format!("{base}/page"));
    assert!(v["text"].as_str().unwrap().contains("Привет мир"), "{out}");
    assert!(!v["text"].as_str().unwrap().contains("Home"));

    // An HTTP error and a page over the limit are clear errors.
    let o = unchaff()
        .arg("extract")
        .arg(format!("{base}/gone"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(text(&o).1.contains("HTTP 404"), "{}", text(&o).1);
    let o = unchaff()
        .args(["extract", "--max-bytes", "50000"])
        .arg(format!("{base}/big"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        text(&o).1.contains("larger than the limit of 50000 bytes"),
        "{}",
        text(&o).1
    );
}

#[test]
fn extract_takes_several_inputs() {
    let base = serve();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.html");
    std::fs::write(
        &file,
        "<article><p>The first page, with a sentence of its own.</p></article>",
    )
    .unwrap();
    // JSON: one line per page, in order.
    let o = unchaff()
        .args(["extract", "-f", "json"])
        .arg(&file)
        .arg(format!("{base}/page"))
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].contains("The first page"));
    assert!(lines[1].contains("Привет"));
    // Text: a header line before each page; a failing input is reported,
    // the others still come out, and the exit status says so.
    let o = unchaff()
        .arg("extract")
        .arg(&file)
        .arg(dir.path().join("missing.html"))
        .arg(format!("{base}/page"))
        .output()
        .unwrap();
    let (out, err) = text(&o);
    assert!(!o.status.success());
    assert!(
        out.starts_with(&format!("==> {} <==\nThe first page", file.display())),
        "{out}"
    );
    assert!(out.contains(&format!("==> {base}/page <==\n")), "{out}");
    assert!(
        err.contains("missing.html") && err.contains("1 of 3 inputs failed"),
        "{err}"
    );
}
