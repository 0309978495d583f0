//! `unchaff serve` end to end, on loopback: the binary is started on a
//! free port and spoken to over plain sockets (no HTTP client crate).
//! Every test is bounded: timeouts are set small by flag, waits poll
//! with a cap, and nothing asserts on how long anything took.

#![cfg(feature = "server")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn unchaff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_unchaff"))
}

/// Longest any single wait in these tests may take before the test
/// fails: far above what each step needs, so that a loaded machine does
/// not fail them, and a hang still ends.
const CAP: Duration = Duration::from_secs(60);

/// A running server, killed when dropped (if still running).
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(args: &[&str]) -> Server {
        let mut child = unchaff()
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("start unchaff serve");
        let mut err = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        err.read_line(&mut line)
            .expect("the server says where it listens");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        // Keep draining stderr so the server never blocks on it.
        std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
        Server { child, addr }
    }

    fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(self.addr).expect("connect");
        s.set_read_timeout(Some(CAP)).unwrap();
        s.set_write_timeout(Some(CAP)).unwrap();
        s
    }

    /// Sends one request (Connection: close) and reads the response.
    fn request(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Resp {
        request_to(self.addr, method, path, headers, body)
    }

    fn post(&self, path: &str, body: &[u8]) -> Resp {
        self.request("POST", path, &[], body)
    }

    fn get(&self, path: &str) -> Resp {
        self.request("GET", path, &[], b"")
    }

    /// The value of one metric line (`NAME{labels}` as written), 0 if absent.
    fn metric(&self, name: &str) -> f64 {
        let r = self.get("/metrics");
        r.text()
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or(0.0)
    }

    /// Waits (polling, capped) until `f` holds.
    fn wait_until(&self, what: &str, f: impl Fn(&Server) -> bool) {
        let start = Instant::now();
        while !f(self) {
            assert!(start.elapsed() < CAP, "gave up waiting for {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn terminate(&self) {
        let ok = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(ok.success());
    }
}

/// Sends one request (Connection: close) to `addr` and reads the response.
fn request_to(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Resp {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(CAP)).unwrap();
    s.set_write_timeout(Some(CAP)).unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        head += &format!("{k}: {v}\r\n");
    }
    head += "\r\n";
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    read_response(&mut s)
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug)]
struct Resp {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Resp {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Reads a response to the end of the connection; undoes chunking.
fn read_response(s: &mut TcpStream) -> Resp {
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    parse_response(&raw)
        .unwrap_or_else(|| panic!("not a response: {:?}", String::from_utf8_lossy(&raw)))
}

fn parse_response(raw: &[u8]) -> Option<Resp> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    if chunked {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let nl = rest.windows(2).position(|w| w == b"\r\n")?;
            let size =
                usize::from_str_radix(std::str::from_utf8(&rest[..nl]).ok()?.trim(), 16).ok()?;
            if size == 0 {
                break;
            }
            out.extend_from_slice(rest.get(nl + 2..nl + 2 + size)?);
            rest = &rest[nl + 4 + size..];
        }
        body = out;
    }
    Some(Resp {
        status,
        headers,
        body,
    })
}

fn write_temp(dir: &tempfile::TempDir, name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// What `unchaff extract ARGS FILE` prints.
fn cli_extract(args: &[&str], file: &std::path::Path) -> Vec<u8> {
    let o = unchaff()
        .arg("extract")
        .args(args)
        .arg(file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o.stdout
}

fn article(title: &str, words: &str) -> String {
    let para = format!("<p>{words}, and then {words} again, as the story goes on.</p>");
    format!(
        "<html><head><title>{title}</title><meta name=author content='Ann'></head><body>\
         <nav><a href=/>Home</a> <a href=/about>About</a></nav>\
         <article><h1>{title}</h1>{para}{para}{para}\
         <table><tr><th>a</th></tr><tr><td>1</td></tr></table>\
         <p>See <a href='/more'>more</a> and <img src=/i.png alt=pic>.</p></article>\
         <footer>Copyright</footer></body></html>"
    )
}

#[test]
fn extract_over_http_equals_the_cli_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&["--workers", "2"]);
    let pages = [
        (
            "a.html",
            article("Apples", "apples fall far from the trees"),
        ),
        (
            "b.html",
            article("Pears «unicode» ü", "pears ripen slowly in the shade"),
        ),
        (
            "c.html",
            "<meta charset=windows-1252><p>caf\u{e9} au lait".to_owned(),
        ),
    ];
    let cases: [(&str, &[&str]); 7] = [
        (
            "url=https%3A%2F%2Fo.example%2Fa",
            &["-f", "json", "--url", "https://o.example/a"],
        ),
        (
            "format=markdown&with-metadata=1&url=https%3A%2F%2Fo.example%2Fa",
            &[
                "-f",
                "markdown",
                "--with-metadata",
                "--url",
                "https://o.example/a",
            ],
        ),
        ("format=html&metadata=1", &["-f", "html", "--with-metadata"]),
        (
            "format=markdown&links=1&images=1",
            &["-f", "markdown", "--links", "--images"],
        ),
        (
            "format=text&algorithm=cetd-tpc&no-tables=1",
            &["-f", "text", "-a", "cetd-tpc", "--no-tables"],
        ),
        (
            "format=json&html=1&precision=1",
            &["-f", "json", "--html", "--precision"],
        ),
        (
            "format=json&exclude=h1&exclude=nav&comments=1",
            &[
                "-f",
                "json",
                "--exclude",
                "h1",
                "--exclude",
                "nav",
                "--comments",
            ],
        ),
    ];
    for (name, html) in &pages {
        let file = write_temp(&dir, name, html.as_bytes());
        for (query, args) in cases {
            let r = server.post(&format!("/extract?{query}"), html.as_bytes());
            assert_eq!(r.status, 200, "{name} {query}: {}", r.text());
            assert_eq!(
                r.text(),
                String::from_utf8_lossy(&cli_extract(args, &file)),
                "{name} {query}"
            );
        }
    }
    // A JSON body with the page in base64 is the same page.
    let (name, html) = &pages[0];
    let file = write_temp(&dir, name, html.as_bytes());
    let b64 = base64_encode(html.as_bytes());
    let body = format!(
        r#"{{"html_base64":"{b64}","url":"https://o.example/a","options":{{"format":"json"}}}}"#
    );
    let r = server.request(
        "POST",
        "/extract",
        &[("Content-Type", "application/json")],
        body.as_bytes(),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(
        r.body,
        cli_extract(&["-f", "json", "--url", "https://o.example/a"], &file)
    );
    // Schema 2: the metadata's categories, image and licence are there.
    let v: serde_json::Value = serde_json::from_slice(&r.body).expect("JSON");
    assert_eq!(v["schema"], 2);
    for key in ["categories", "tags", "image", "license", "site_name"] {
        assert!(v["metadata"].get(key).is_some(), "{key}: {v}");
    }
    // Every JSON extraction says how far to trust it and what page it is.
    let c = v["confidence"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&c), "{v}");
    assert!(v["page_type"].is_string(), "{v}");
    // A selector that does not parse is the client's mistake.
    let r = server.post("/extract?exclude=div%5B", html.as_bytes());
    assert_eq!(r.status, 400, "{}", r.text());
}

/// Standard base64 (the test has no base64 crate).
fn base64_encode(b: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in b.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

#[test]
#[cfg_attr(
    unchaff_no_data,
    ignore = "needs the dev datasets (../shared/data or $UNCHAFF_DATA): absent when built"
)]
fn extract_over_http_equals_the_cli_on_dev_pages() {
    let root = std::env::var_os("UNCHAFF_DATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
        });
    let server = Server::start(&[]);
    let mut checked = 0;
    // A few pages of a few folders: different languages and charsets.
    for folder in [
        "scrapinghub",
        "chinese-wce",
        "cleaneval-en-dev",
        "msv-chaos",
    ] {
        let Ok(dir) = std::fs::read_dir(root.join(folder).join("pages")) else {
            eprintln!("{folder}: not in the data, skipped");
            continue;
        };
        let mut files: Vec<_> = dir.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for file in files.iter().take(3) {
            let bytes = std::fs::read(file).unwrap();
            let r = server.post("/extract?format=json", &bytes);
            assert_eq!(r.status, 200, "{}: {}", file.display(), r.text());
            assert_eq!(
                r.body,
                cli_extract(&["-f", "json"], file),
                "{}",
                file.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 3, "only {checked} dev pages found");
}

#[test]
fn oversized_bodies_get_413() {
    let server = Server::start(&["--max-body", "1000"]);
    let big = vec![b'x'; 5000];
    let r = server.post("/extract", &big);
    assert_eq!(r.status, 413, "{}", r.text());
    assert!(r.text().contains("body_too_large"));
    // Without a Content-Length (chunked), cut off while reading.
    let mut s = server.connect();
    s.write_all(b"POST /extract HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
        .unwrap();
    for _ in 0..5 {
        if s.write_all(b"3e8\r\n").is_err() || s.write_all(&[b'y'; 1000]).is_err() {
            break;
        }
        let _ = s.write_all(b"\r\n");
    }
    let _ = s.write_all(b"0\r\n\r\n");
    let r = read_response(&mut s);
    assert_eq!(r.status, 413);
    // The server is still there.
    assert_eq!(server.get("/healthz").text(), "ok\n");
    assert!(server.metric("unchaff_errors_total{kind=\"body_too_large\"}") >= 2.0);
}

#[test]
fn a_client_sending_a_byte_a_second_is_cut_off() {
    let server = Server::start(&["--header-timeout", "1", "--body-timeout", "1"]);
    // The body, a byte a second: 408 once the body timeout passes.
    let mut s = server.connect();
    s.write_all(b"POST /extract HTTP/1.1\r\nHost: t\r\nContent-Length: 60\r\n\r\n")
        .unwrap();
    let mut sent = 0;
    for _ in 0..60 {
        if s.write_all(b"x").is_err() {
            break;
        }
        sent += 1;
        std::thread::sleep(Duration::from_secs(1));
        if peer_spoke(&s) {
            break;
        }
    }
    let r = read_response(&mut s);
    assert_eq!(r.status, 408, "{}", r.text());
    assert!(sent < 60, "the whole body went through");
    // The headers, a byte a second: the connection is closed.
    let mut s = server.connect();
    let head = b"GET /healthz HTTP/1.1\r\nHost: a-rather-long-host-name.example\r\nX: y\r\n\r\n";
    let mut closed = false;
    for b in head.iter().take(head.len() - 1) {
        if s.write_all(&[*b]).is_err() || peer_spoke(&s) {
            closed = true;
            break;
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    assert!(closed, "the headers trickled in to the end");
    assert!(server.metric("unchaff_errors_total{kind=\"read_timeout\"}") >= 1.0);
}

/// Whether the server has written something or closed the connection
/// (a read that does not block).
fn peer_spoke(s: &TcpStream) -> bool {
    s.set_nonblocking(true).unwrap();
    let mut b = [0u8; 1];
    let r = s.peek(&mut b);
    s.set_nonblocking(false).unwrap();
    match r {
        Ok(_) => true,
        Err(e) => e.kind() != std::io::ErrorKind::WouldBlock,
    }
}

#[test]
fn a_full_queue_gives_503_with_retry_after() {
    // One worker, one queue slot, each job held 3 s on its worker.
    let server = Server::start(&[
        "--workers",
        "1",
        "--queue",
        "1",
        "--test-worker-delay",
        "3",
        "--retry-after",
        "7",
    ]);
    let page = article("Apples", "apples fall far from the trees");
    let busy: Vec<_> = (0..2)
        .map(|_| {
            let (addr, page) = (server.addr, page.clone());
            std::thread::spawn(move || {
                request_to(addr, "POST", "/extract", &[], page.as_bytes()).status
            })
        })
        .collect();
    server.wait_until("one running and one queued", |s| {
        s.metric("unchaff_jobs_running") == 1.0 && s.metric("unchaff_queue_depth") == 1.0
    });
    let r = server.post("/extract", page.as_bytes());
    assert_eq!(r.status, 503, "{}", r.text());
    assert_eq!(r.header("retry-after"), Some("7"));
    assert!(r.text().contains("queue_full"));
    for t in busy {
        assert_eq!(t.join().unwrap(), 200);
    }
    assert_eq!(
        server.metric("unchaff_requests_total{endpoint=\"/extract\",status=\"503\"}"),
        1.0
    );
}

#[test]
fn sigterm_finishes_the_request_in_flight_then_exits_0() {
    let mut server = Server::start(&["--workers", "1", "--test-worker-delay", "2"]);
    let dir = tempfile::tempdir().unwrap();
    let page = article("Apples", "apples fall far from the trees");
    let file = write_temp(&dir, "a.html", page.as_bytes());
    let addr = server.addr;
    let body = page.clone();
    let in_flight = std::thread::spawn(move || {
        let mut s = TcpStream::connect(addr).unwrap();
        s.set_read_timeout(Some(CAP)).unwrap();
        let head = format!(
            "POST /extract?format=json HTTP/1.1\r\nHost: t\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body.as_bytes()).unwrap();
        read_response(&mut s)
    });
    server.wait_until("the request on its worker", |s| {
        s.metric("unchaff_jobs_running") == 1.0
    });
    server.terminate();
    let r = in_flight.join().unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.body, cli_extract(&["-f", "json"], &file));
    let start = Instant::now();
    let status = loop {
        if let Some(st) = server.child.try_wait().unwrap() {
            break st;
        }
        assert!(start.elapsed() < CAP, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    assert!(TcpStream::connect(addr).is_err(), "still accepting");
}

#[test]
fn batch_streams_the_rows_of_unchaff_batch() {
    let dir = tempfile::tempdir().unwrap();
    let mut jsonl = String::new();
    for i in 0..12 {
        let row = serde_json::json!({
            "id": format!("p{i}"),
            "url": format!("https://o.example/{i}"),
            "html": article(&format!("Story {i}"), &format!("story {i} words go here")),
        });
        jsonl += &format!("{row}\n");
    }
    jsonl += "{\"id\":\"empty\",\"html\":\"\"}\nnot json\n";
    let input = write_temp(&dir, "in.jsonl", jsonl.as_bytes());
    let out = dir.path().join("out.jsonl");
    let o = unchaff()
        .args([
            "batch",
            "--quiet",
            "--text-format",
            "markdown",
            "--with-metadata",
            "--out",
        ])
        .arg(&out)
        .arg(&input)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let expected = std::fs::read_to_string(&out).unwrap();
    let server = Server::start(&["--workers", "2"]);
    let r = server.post(
        "/batch?text-format=markdown&with-metadata=1",
        jsonl.as_bytes(),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("content-type"), Some("application/x-ndjson"));
    // The ids of rows without one name the request's lines, not a file.
    let got = r.text().replace("\"request:14\"", "\"in.jsonl:14\"");
    let expected = expected.replace(&format!("\"{}:14\"", input.display()), "\"in.jsonl:14\"");
    assert_eq!(got, expected);
    let first: serde_json::Value = serde_json::from_str(got.lines().next().unwrap()).unwrap();
    assert!(first["confidence"].as_f64().is_some(), "{first}");
    assert!(first["page_type"].is_string(), "{first}");
}

#[test]
fn explain_form_report_and_404() {
    let server = Server::start(&[]);
    let form = server.get("/explain");
    assert_eq!(form.status, 200);
    assert!(
        form.text()
            .contains("<form method=\"post\" action=\"/explain\"")
    );
    let page = article(
        "Apples <script>alert(1)</script>",
        "apples fall far from the trees",
    );
    let body = format!(
        "html={}&url=https%3A%2F%2Fo.example%2Fa&algorithm=auto",
        url_encode(&page)
    );
    let r = server.request(
        "POST",
        "/explain",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        body.as_bytes(),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert!(
        r.header("content-security-policy")
            .unwrap()
            .contains("default-src 'none'")
    );
    let doc = r.text();
    assert!(doc.contains("data-block=\"0\""));
    assert!(!doc.to_ascii_lowercase().contains("<script"));
    assert!(doc.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let r = server.get("/nope");
    assert_eq!(r.status, 404);
}

fn url_encode(s: &str) -> String {
    let mut o = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            o.push(b as char);
        } else {
            o += &format!("%{b:02X}");
        }
    }
    o
}

#[test]
fn explain_writes_a_report_file() {
    let dir = tempfile::tempdir().unwrap();
    let page = article("Apples", "apples fall far from the trees");
    let file = write_temp(&dir, "a.html", page.as_bytes());
    let out = dir.path().join("report.html");
    let o = unchaff()
        .args(["explain", "-a", "cetd-tpc", "-o"])
        .arg(&out)
        .arg(&file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let doc = std::fs::read_to_string(&out).unwrap();
    assert!(doc.starts_with("<!DOCTYPE html>"));
    assert!(doc.contains("algorithm <b>cetd-tpc</b>"));
    let text = String::from_utf8(cli_extract(&["-a", "cetd-tpc"], &file)).unwrap();
    // The extracted text is in the report, escaped as HTML escapes it.
    let first = text.lines().next().unwrap();
    assert!(doc.contains(first), "{first}");
}

#[test]
fn the_extraction_deadline_gives_504() {
    // A microsecond: the core's deadline passes in the first stage.
    let server = Server::start(&["--extract-timeout", "0.000001"]);
    let page = article("Apples", "apples fall far from the trees");
    let r = server.post("/extract", page.as_bytes());
    assert_eq!(r.status, 504, "{}", r.text());
    assert!(r.text().contains("\"kind\":\"timeout\""));
    // In a batch it is the row's error, and the stream goes on.
    let line = serde_json::json!({"id": "a", "html": page});
    let r = server.post("/batch", format!("{line}\n{line}\n").as_bytes());
    assert_eq!(r.status, 200);
    assert_eq!(r.text().matches("\"kind\":\"timeout\"").count(), 2);
}

/// Issue 41, defect 9a: a `/batch` body trickling in one byte at a time
/// held its connection for as long as the client liked (the body timeout
/// was per piece). Slower than the minimum rate past its grace, the
/// stream is ended; `/extract` answers 408.
#[test]
fn a_body_slower_than_the_minimum_rate_is_cut_off() {
    let server = Server::start(&["--min-body-rate", "1000"]);
    for path in ["/batch", "/extract"] {
        let mut s = server.connect();
        s.write_all(
            format!("POST {path} HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n").as_bytes(),
        )
        .unwrap();
        if path == "/batch" {
            // The stream's head comes at once; its end is what counts.
            let mut head = Vec::new();
            let mut b = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") {
                s.read_exact(&mut b).unwrap();
                head.push(b[0]);
            }
            assert!(head.starts_with(b"HTTP/1.1 200"));
        }
        // A byte every 0.2 s: 5 bytes/s, within the 30 s body timeout's
        // pieces but far under 1,000 bytes/s.
        let start = Instant::now();
        let mut cut = false;
        while start.elapsed() < Duration::from_secs(20) {
            if s.write_all(b"{").is_err() || peer_spoke(&s) {
                cut = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        assert!(cut, "{path}: still reading after 20 s");
    }
    server.wait_until("the slow bodies counted", |s| {
        s.metric("unchaff_errors_total{kind=\"slow_body\"}") >= 2.0
    });
}

/// Issue 41, defect 9a: connections that send nothing (or a body far
/// too slowly) held the connection cap, and every new client was refused.
/// At the cap, the most idle one makes room now.
#[test]
fn at_the_connection_cap_an_idle_connection_makes_room() {
    let server = Server::start(&["--max-connections", "8"]);
    let idle: Vec<TcpStream> = (0..8).map(|_| server.connect()).collect();
    server.wait_until("the idle connections are open", |_| true);
    // Past the idle grace (1 s).
    std::thread::sleep(Duration::from_millis(1500));
    let page = article("Apples", "apples fall far from the trees");
    for _ in 0..3 {
        let r = server.post("/extract", page.as_bytes());
        assert_eq!(r.status, 200, "{}", r.text());
    }
    assert!(server.metric("unchaff_errors_total{kind=\"connection_reclaimed\"}") >= 1.0);
    assert!(server.metric("unchaff_errors_total{kind=\"connection_limit\"}") == 0.0);
    drop(idle);
}

/// Issue 41, defect 9b: bodies were read whole before admission, with no
/// cap on them all: 150 stalled 16 MiB uploads took 2.75 GB. The bodies
/// in flight share a memory budget now; past it, 503.
#[test]
fn bodies_in_flight_share_a_memory_budget() {
    let server = Server::start(&["--max-body", "1000000", "--body-memory", "1000000"]);
    // A stalled upload that has sent 900 KB of its 1 MB.
    let mut stalled = server.connect();
    stalled
        .write_all(b"POST /extract HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000\r\n\r\n")
        .unwrap();
    stalled.write_all(&vec![b'x'; 900_000]).unwrap();
    server.wait_until("the stalled body is counted", |s| {
        s.metric("unchaff_body_bytes") >= 890_000.0
    });
    let page = article("Apples", "apples fall far from the trees").repeat(200);
    assert!(page.len() > 100_000);
    let r = server.post("/extract", page.as_bytes());
    assert_eq!(r.status, 503, "{}", r.text());
    assert!(r.text().contains("body_memory"), "{}", r.text());
    assert!(r.header("retry-after").is_some());
    // Once the stalled client goes, its memory is free again.
    drop(stalled);
    server.wait_until("the stalled body is gone", |s| {
        s.metric("unchaff_body_bytes") == 0.0
    });
    let r = server.post("/extract", page.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
}

/// Issue 41: `POST /explain` with a raw HTML body answered 400 (curl
/// labels a --data-binary body form-encoded); it takes one as `/extract`
/// does.
#[test]
fn explain_takes_a_raw_html_body() {
    let server = Server::start(&[]);
    let page = article("Pears", "pears ripen from the inside out");
    for headers in [
        &[("Content-Type", "application/x-www-form-urlencoded")][..],
        &[("Content-Type", "text/html")],
        &[],
    ] {
        let r = server.request(
            "POST",
            "/explain?url=https://o.example/p",
            headers,
            page.as_bytes(),
        );
        assert_eq!(r.status, 200, "{headers:?}: {}", r.text());
        assert!(r.text().contains("pears ripen"), "{headers:?}");
    }
}
