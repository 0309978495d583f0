//! `unchaff batch` end to end: WARC (gzip members per record), directories,
//! JSONL, @lists, order across thread counts, resume, limits.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};

use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::Value;

fn unchaff() -> Command {
    Command::new(env!("CARGO_BIN_EXE_unchaff"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `unchaff batch ARGS --out OUT --quiet` and returns the rows.
fn batch(args: &[&str], out: &Path) -> (Output, Vec<Value>) {
    let o = unchaff()
        .arg("batch")
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .output()
        .expect("run unchaff");
    let rows = std::fs::read_to_string(out)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    (o, rows)
}

/// An article page: `words` fills its paragraphs; nav and footer are chaff.
fn article(title: &str, words: &str) -> String {
    let para = format!("<p>{words} {words} {words} {words}.</p>");
    format!(
        "<html><head><title>{title}</title></head><body>\
         <nav><a href=/>Home</a> <a href=/news>News</a> <a href=/about>About</a></nav>\
         <article><h1>{title}</h1>{para}{para}{para}{para}</article>\
         <footer><a href=/legal>Legal</a> <a href=/privacy>Privacy</a></footer></body></html>"
    )
}

/// One WARC record (uncompressed).
fn warc_record(kind: &str, id: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: {uri}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n\
         Content-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// An HTTP response: status line, headers, blank line, body.
fn http(headers: &str, body: &[u8]) -> Vec<u8> {
    let mut r = format!("HTTP/1.1 200 OK\r\n{headers}\r\n").into_bytes();
    r.extend_from_slice(body);
    r
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// Russian lower-case text in windows-1251: а..я (U+0430..U+044F) are the
/// bytes 0xE0..0xFF, space is 0x20.
fn cp1251(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| match c {
            ' ' => b' ',
            'а'..='я' => 0xE0 + (c as u32 - 'а' as u32) as u8,
            _ => panic!("not in this little table: {c}"),
        })
        .collect()
}

const RUSSIAN: &str = "мы шли вдоль реки и считали камни на старом мосту";

/// A WARC with: warcinfo, an HTML page, a PNG, a request, a windows-1251
/// page whose charset is only in the HTTP header, a chunked page, a page
/// with an unknown charset label, and a truncated last record. Each record
/// is its own gzip member when `gz`.
fn test_warc(gz: bool, truncate_last: bool) -> Vec<u8> {
    let mut records = vec![
        warc_record("warcinfo", "info", "", b"software: test\r\n"),
        warc_record(
            "response",
            "a",
            "https://example.org/a",
            &http(
                "Content-Type: text/html; charset=utf-8\r\n",
                article("Page A", "alpha bridges carry quiet rivers").as_bytes(),
            ),
        ),
        warc_record(
            "response",
            "png",
            "https://example.org/x.png",
            &http(
                "Content-Type: image/png\r\n",
                b"\x89PNG\r\n\x1a\nnot really",
            ),
        ),
        warc_record(
            "request",
            "req",
            "https://example.org/a",
            b"GET /a HTTP/1.1\r\nHost: example.org\r\n\r\n",
        ),
    ];
    let mut ru = b"<html><head><title>ru</title></head><body><article>".to_vec();
    for _ in 0..4 {
        ru.extend_from_slice(b"<p>");
        ru.extend_from_slice(&cp1251(RUSSIAN));
        ru.extend_from_slice(b" ");
        ru.extend_from_slice(&cp1251(RUSSIAN));
        ru.extend_from_slice(b"</p>");
    }
    ru.extend_from_slice(b"</article></body></html>");
    records.push(warc_record(
        "response",
        "ru",
        "https://example.ru/",
        &http("Content-Type: text/html; charset=windows-1251\r\n", &ru),
    ));
    // Detection alone reads the page above right too; this one's wrong
    // <meta> would win over detection, so only the header can decode it.
    let mut ru_meta = b"<meta charset=koi8-r>".to_vec();
    ru_meta.extend_from_slice(&ru);
    records.push(warc_record(
        "response",
        "ru-meta",
        "https://example.ru/m",
        &http(
            "Content-Type: text/html;charset=\"Windows-1251\"\r\n",
            &ru_meta,
        ),
    ));
    let page = article("Chunked", "gamma chunks arrive in pieces");
    let (p1, p2) = page.split_at(page.len() / 2);
    let chunked = format!(
        "{:x}\r\n{p1}\r\n{:x}\r\n{p2}\r\n0\r\n\r\n",
        p1.len(),
        p2.len()
    );
    records.push(warc_record(
        "response",
        "chunked",
        "https://example.org/c",
        &http(
            "Content-Type: text/html\r\nTransfer-Encoding: chunked\r\n",
            chunked.as_bytes(),
        ),
    ));
    records.push(warc_record(
        "response",
        "odd-charset",
        "https://example.org/o",
        &http(
            "Content-Type: text/html; charset=x-no-such-thing\r\n",
            article("Odd", "delta labels nobody knows at all").as_bytes(),
        ),
    ));
    records.push(warc_record(
        "response",
        "cut",
        "https://example.org/cut",
        &http(
            "Content-Type: text/html\r\n",
            article("Cut", "epsilon pages cut short by a crash").as_bytes(),
        ),
    ));
    let mut out = Vec::new();
    let last = records.len() - 1;
    for (i, r) in records.iter().enumerate() {
        let mut bytes = if gz { gzip(r) } else { r.clone() };
        if i == last && truncate_last {
            bytes.truncate(bytes.len() * 2 / 3);
        }
        out.extend_from_slice(&bytes);
    }
    out
}

fn ids(rows: &[Value]) -> Vec<&str> {
    rows.iter().map(|r| r["id"].as_str().unwrap()).collect()
}

#[test]
fn warc_gz_every_html_record_gives_a_row() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("crawl.warc.gz");
    std::fs::write(&warc, test_warc(true, true)).unwrap();
    let out = dir.path().join("out.jsonl");
    let (o, rows) = batch(&[warc.to_str().unwrap()], &out);
    // The cut record is its row's error: the exit status says some input
    // could not be read, and the rows are all there.
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 broken WARC record"),
        "{}",
        stderr(&o)
    );
    // The PNG, the request and the warcinfo give no row; every HTML response does.
    assert_eq!(
        ids(&rows),
        [
            "urn:uuid:a",
            "urn:uuid:ru",
            "urn:uuid:ru-meta",
            "urn:uuid:chunked",
            "urn:uuid:odd-charset",
            "urn:uuid:cut"
        ]
    );
    assert_eq!(rows[0]["url"], "https://example.org/a");
    assert!(rows[0]["text"].as_str().unwrap().contains("alpha bridges"));
    assert_eq!(rows[0]["error"], Value::Null);
    // The charset came from the HTTP header only.
    assert_eq!(rows[1]["charset"], "windows-1251");
    assert!(
        rows[1]["text"].as_str().unwrap().contains(RUSSIAN),
        "{}",
        rows[1]
    );
    // The header also wins over the page's own (wrong) declaration.
    assert_eq!(rows[2]["charset"], "windows-1251");
    assert!(
        rows[2]["text"].as_str().unwrap().contains(RUSSIAN),
        "{}",
        rows[2]
    );
    let rows = &rows[1..];
    // De-chunked: the chunk sizes are gone, the text is whole.
    let chunked = rows[2]["text"].as_str().unwrap();
    assert!(
        chunked.contains("gamma chunks arrive in pieces"),
        "{chunked}"
    );
    assert!(!chunked.contains("\r\n0\r\n"));
    // An unknown label is ignored, not an error.
    assert_eq!(rows[3]["error"], Value::Null, "{}", rows[3]);
    assert_eq!(rows[3]["charset"], "UTF-8");
    // The truncated record is an error row.
    assert_eq!(rows[4]["error"]["kind"], "truncated", "{}", rows[4]);
    assert_eq!(rows[4]["text"], Value::Null);
}

#[test]
fn plain_warc_reads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let warc = dir.path().join("crawl.warc");
    std::fs::write(&warc, test_warc(false, false)).unwrap();
    let out = dir.path().join("out.jsonl");
    let (o, rows) = batch(&[warc.to_str().unwrap()], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r["error"].is_null()), "{rows:?}");
    assert!(rows[5]["text"].as_str().unwrap().contains("epsilon pages"));
}

/// A directory of page files; returns their expected ids in sorted-path order.
fn page_dir(root: &Path, n: usize) -> Vec<String> {
    std::fs::create_dir_all(root.join("sub")).unwrap();
    let mut ids = Vec::new();
    for i in 0..n {
        // Sizes vary a hundredfold, so the workers finish out of order.
        let words = "word ".repeat(1 + (i * 37) % 300);
        let html = article(&format!("Page {i}"), &format!("page {i} {words}"));
        let name = format!("p{i:04}");
        match i % 3 {
            0 => std::fs::write(root.join(format!("{name}.html")), html).unwrap(),
            1 => {
                std::fs::write(root.join(format!("{name}.html.gz")), gzip(html.as_bytes())).unwrap()
            }
            _ => std::fs::write(root.join("sub").join(format!("{name}.htm")), html).unwrap(),
        }
        ids.push((
            if i % 3 == 2 {
                format!("sub/{name}")
            } else {
                name.clone()
            },
            name,
        ));
    }
    std::fs::write(root.join("notes.txt"), "not a page").unwrap();
    ids.sort();
    ids.into_iter().map(|(_, id)| id).collect()
}

#[test]
fn directory_input_sorted_and_recursive() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    let expected = page_dir(&pages, 6);
    let out = dir.path().join("out.jsonl");
    let (o, rows) = batch(&[pages.to_str().unwrap()], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(ids(&rows), expected);
    assert!(rows.iter().all(|r| r["error"].is_null()));
    assert!(rows[0]["text"].as_str().unwrap().contains("page 0 word"));
}

#[test]
fn jsonl_input_ids_urls_and_bad_lines() {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("pages.jsonl");
    // The second page declares windows-1251 but the JSON string is Unicode.
    let declared = format!(
        "<meta charset=windows-1251>{}",
        article("Ru", "мы шли вдоль реки и считали камни")
    );
    let lines = [
        serde_json::json!({"id": "one", "url": "https://a.example/1", "html": article("One", "first page words here")}).to_string(),
        serde_json::json!({"url": "https://a.example/2", "html": declared}).to_string(),
        "{not json".to_owned(),
        serde_json::json!({"id": 7, "url": null, "html": ""}).to_string(),
    ];
    std::fs::write(&jsonl, lines.join("\n") + "\n").unwrap();
    let out = dir.path().join("out.jsonl");
    let (o, rows) = batch(&[jsonl.to_str().unwrap()], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert_eq!(rows[0]["id"], "one");
    assert_eq!(rows[0]["url"], "https://a.example/1");
    assert!(
        rows[0]["text"]
            .as_str()
            .unwrap()
            .contains("first page words")
    );
    // No id: the URL stands for it; the text is the Unicode of the JSON.
    assert_eq!(rows[1]["id"], "https://a.example/2");
    assert!(
        rows[1]["text"].as_str().unwrap().contains("считали камни"),
        "{}",
        rows[1]
    );
    assert_eq!(rows[2]["error"]["kind"], "json");
    assert!(rows[2]["id"].as_str().unwrap().ends_with("pages.jsonl:3"));
    assert_eq!(rows[3]["id"], "7");
    assert_eq!(rows[3]["error"]["kind"], "empty");
}

#[test]
fn list_input_keeps_the_list_order() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.html");
    let b = dir.path().join("b.html.gz");
    std::fs::write(&a, article("A", "apples fall far from trees")).unwrap();
    std::fs::write(
        &b,
        gzip(article("B", "bees make honey all summer").as_bytes()),
    )
    .unwrap();
    let list = dir.path().join("list.txt");
    std::fs::write(&list, format!("{}\n\n{}\n", b.display(), a.display())).unwrap();
    let out = dir.path().join("out.jsonl");
    let (o, rows) = batch(&[&format!("@{}", list.display())], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(ids(&rows), ["b", "a"]);
    assert!(
        rows[0]["text"]
            .as_str()
            .unwrap()
            .contains("bees make honey")
    );
}

#[test]
fn output_does_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    let expected = page_dir(&pages, 300);
    let warc = dir.path().join("c.warc.gz");
    std::fs::write(&warc, test_warc(true, false)).unwrap();
    let (o1, out1) = (dir.path().join("t1.jsonl"), dir.path().join("t2.jsonl"));
    let args = |t: &'static str| {
        [
            pages.to_str().unwrap().to_owned(),
            warc.to_str().unwrap().to_owned(),
            "--threads".into(),
            t.into(),
        ]
    };
    let a1 = args("1");
    let a2 = args("2");
    let (r1, rows) = batch(&a1.iter().map(String::as_str).collect::<Vec<_>>(), &o1);
    let (r2, _) = batch(&a2.iter().map(String::as_str).collect::<Vec<_>>(), &out1);
    assert!(r1.status.success() && r2.status.success());
    assert_eq!(rows.len(), 306);
    assert_eq!(&ids(&rows)[..300], expected);
    let (b1, b2) = (std::fs::read(&o1).unwrap(), std::fs::read(&out1).unwrap());
    assert!(b1 == b2, "--threads 1 and --threads 2 outputs differ");
}

#[test]
fn resume_after_a_crash_gives_one_row_per_page() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    page_dir(&pages, 40);
    let p = pages.to_str().unwrap();
    let full = dir.path().join("full.jsonl");
    let (o, rows) = batch(&[p], &full);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows.len(), 40);
    let full_bytes = std::fs::read(&full).unwrap();

    // A crash: 15 whole rows and half of the 16th in the .tmp, no final file.
    let out = dir.path().join("out.jsonl");
    let tmp = dir.path().join("out.jsonl.tmp");
    let text = String::from_utf8(full_bytes.clone()).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut partial: String = lines[..15].concat();
    partial.push_str(&lines[15][..lines[15].len() / 2]);
    std::fs::write(&tmp, partial).unwrap();
    let (o, rows) = batch(&[p, "--resume", "--threads", "2"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!tmp.exists(), "the .tmp is renamed at the end");
    assert_eq!(rows.len(), 40);
    assert!(
        std::fs::read(&out).unwrap() == full_bytes,
        "resumed output differs"
    );

    // Resuming a finished run changes nothing.
    let (o, _) = batch(&[p, "--resume"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&out).unwrap() == full_bytes);

    // Without --resume the run starts over and overwrites.
    std::fs::write(&tmp, "{\"id\": \"junk\"}\n").unwrap();
    let (o, rows) = batch(&[p], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows.len(), 40);
}

#[test]
fn limits_become_error_rows() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.html");
    let big = dir.path().join("big.html");
    std::fs::write(&small, article("S", "short page")).unwrap();
    std::fs::write(&big, article("B", &"many words ".repeat(500))).unwrap();
    let out = dir.path().join("out.jsonl");
    let (o, rows) = batch(
        &[
            big.to_str().unwrap(),
            small.to_str().unwrap(),
            "--max-bytes",
            "2000",
        ],
        &out,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows[0]["error"]["kind"], "too_large");
    assert_eq!(rows[1]["error"], Value::Null);
    // Every extraction takes longer than a nanosecond.
    let (o, rows) = batch(&[small.to_str().unwrap(), "--page-timeout", "1e-9"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows[0]["error"]["kind"], "timeout");
    // Stopped at the deadline inside a stage, not measured once done.
    let message = rows[0]["error"]["message"].as_str().unwrap();
    assert!(message.contains("stopped in the"), "{message}");

    // A page that makes the tree builder multiply elements (500 distinct
    // formatting elements left open in a block, rebuilt in each of the
    // 50,000 blocks after it): its own kind.
    let amplifier = dir.path().join("amplifier.html");
    let bs: String = (0..500).map(|i| format!("<b id={i}>")).collect();
    let page = format!("<div>{bs}</div>{}", "<div>x</div>".repeat(50_000));
    std::fs::write(&amplifier, page).unwrap();
    let (o, rows) = batch(
        &[amplifier.to_str().unwrap(), small.to_str().unwrap()],
        &out,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        rows[0]["error"]["kind"], "too_many_elements",
        "{:?}",
        rows[0]
    );
    assert_eq!(rows[1]["error"], Value::Null);
}

#[test]
fn nothing_readable_is_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = dir.path().join("out.jsonl");
    let (o, _) = batch(&[empty.to_str().unwrap()], &out);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("nothing could be read"),
        "{}",
        stderr(&o)
    );
    // Pages refused by a limit or failing to extract are rows, and the run succeeds.
    let bad = dir.path().join("bad.html");
    std::fs::write(&bad, "").unwrap();
    let (o, rows) = batch(&[bad.to_str().unwrap()], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows[0]["error"]["kind"], "empty");
    std::fs::write(&bad, "<p>too long for the limit</p>").unwrap();
    let (o, rows) = batch(&[bad.to_str().unwrap(), "--max-bytes", "5"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows[0]["error"]["kind"], "too_large");
    // A WARC that is all garbage: nothing read, a warning, a failure.
    let junk = dir.path().join("junk.warc");
    std::fs::write(&junk, "this is not a WARC file\n").unwrap();
    let (o, rows) = batch(&[junk.to_str().unwrap()], &out);
    assert!(!o.status.success());
    assert!(rows.is_empty());
    assert!(
        stderr(&o).contains("not a WARC record header"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn summary_on_stderr_unless_quiet() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.html");
    std::fs::write(&a, article("A", "apples fall far from trees")).unwrap();
    let o = unchaff()
        .args(["batch", a.to_str().unwrap(), "--out"])
        .arg(dir.path().join("o.jsonl"))
        .output()
        .unwrap();
    assert!(o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("1 pages written (0 errors)") && e.contains("pages/s"),
        "{e}"
    );
}

#[cfg(not(feature = "parquet"))]
#[test]
fn parquet_needs_the_feature() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o.parquet");
    let (o, _) = batch(&[dir.path().to_str().unwrap(), "--format", "parquet"], &out);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("`parquet` feature"), "{}", stderr(&o));
}

#[cfg(feature = "parquet")]
#[test]
fn parquet_file_is_written() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::RowAccessor;

    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    let expected = page_dir(&pages, 10);
    let bad = pages.join("zz-empty.html");
    std::fs::write(&bad, "").unwrap();
    let out = dir.path().join("o.parquet");
    let o = unchaff()
        .args([
            "batch",
            pages.to_str().unwrap(),
            "--format",
            "parquet",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let reader = SerializedFileReader::new(std::fs::File::open(&out).unwrap()).unwrap();
    let rows: Vec<_> = reader
        .get_row_iter(None)
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(rows.len(), 11);
    // Columns: id url title text algorithm charset error_kind error_message.
    let got: Vec<&str> = rows
        .iter()
        .map(|r| r.get_string(0).unwrap().as_str())
        .collect();
    let mut want: Vec<&str> = expected.iter().map(String::as_str).collect();
    want.insert(10, "zz-empty");
    assert_eq!(got, want);
    assert!(rows[0].get_string(3).unwrap().contains("page 0 word"));
    assert_eq!(rows[10].get_string(6).unwrap(), "empty");
    assert!(rows[0].get_string(6).is_err(), "no error on a good page");
}

/// A WARC record with this block, ids and URI.
fn html_response(id: &str, status: &str, words: &str) -> Vec<u8> {
    let body = article(id, words);
    let mut block = format!("HTTP/1.1 {status}\r\nContent-Type: text/html\r\n\r\n").into_bytes();
    block.extend_from_slice(body.as_bytes());
    warc_record("response", id, &format!("https://example.org/{id}"), &block)
}

/// Sets a record's Content-Length `delta` bytes off.
fn misframe(record: &[u8], delta: i64) -> Vec<u8> {
    let text = String::from_utf8(record.to_vec()).unwrap();
    let at = text.find("Content-Length: ").unwrap() + 16;
    let end = at + text[at..].find('\r').unwrap();
    let n: i64 = text[at..end].parse().unwrap();
    format!("{}{}{}", &text[..at], n + delta, &text[end..]).into_bytes()
}

/// A crawl as Heritrix or wget write it, with broken records: a dns:
/// record, a 404, a 301, a revisit, an HTTP head of 300 KB, one of a 70 KB
/// line, and a record whose Content-Length is `delta` off, among twenty
/// good HTML responses `g00`..`g19`.
fn hostile_warc(gz: bool, delta: i64) -> Vec<u8> {
    let mut records = Vec::new();
    for i in 0..20 {
        let id = format!("g{i:02}");
        records.push(html_response(
            &id,
            "200 OK",
            &format!("good page {i} words"),
        ));
        match i {
            2 => records.push(warc_record(
                "response",
                "dns",
                "dns:example.org",
                b"20260101000000\nexample.org.\t300\tIN\tA\t192.0.2.1\n",
            )),
            4 => records.push(html_response("nf", "404 Not Found", "missing page")),
            5 => records.push(html_response("mv", "301 Moved Permanently", "moved")),
            6 => records.push(warc_record("revisit", "rv", "https://example.org/g06", b"")),
            8 => {
                let many: String = (0..12_000)
                    .map(|i| format!("X-H{i}: vvvvvvvvvvvvvvvvvvvv\r\n"))
                    .collect();
                let mut block = format!("HTTP/1.1 200 OK\r\n{many}Content-Type: text/html\r\n\r\n")
                    .into_bytes();
                block.extend_from_slice(b"<p>hidden");
                records.push(warc_record(
                    "response",
                    "bighead",
                    "https://example.org/b",
                    &block,
                ));
            }
            10 => {
                let long = format!("X-Long: {}\r\n", "y".repeat(70 * 1024));
                let block = http(&format!("{long}Content-Type: text/html\r\n"), b"<p>hidden");
                records.push(warc_record(
                    "response",
                    "longline",
                    "https://example.org/l",
                    &block,
                ));
            }
            12 => records.push(misframe(
                &html_response("bad", "200 OK", "badly framed page"),
                delta,
            )),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for r in records {
        out.extend(if gz { gzip(&r) } else { r });
    }
    out
}

/// Issue 19, defects 3 and 4; issue 20, item 3.
#[test]
fn broken_warc_records_cost_one_row_each() {
    let dir = tempfile::tempdir().unwrap();
    for gz in [false, true] {
        for delta in [-7, 40, 900] {
            let name = if gz { "c.warc.gz" } else { "c.warc" };
            let warc = dir.path().join(name);
            std::fs::write(&warc, hostile_warc(gz, delta)).unwrap();
            let out = dir.path().join("o.jsonl");
            let o = unchaff()
                .args(["batch", warc.to_str().unwrap(), "--out"])
                .arg(&out)
                .output()
                .unwrap();
            let rows: Vec<Value> = std::fs::read_to_string(&out)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
            let case = format!("gz {gz} delta {delta}: {}", stderr(&o));
            let mut want: Vec<String> = (0..20).map(|i| format!("urn:uuid:g{i:02}")).collect();
            want.insert(9, "urn:uuid:bighead".into());
            want.insert(12, "urn:uuid:longline".into());
            want.insert(15, "urn:uuid:bad".into());
            assert_eq!(ids(&rows), want, "{case}");
            for (i, r) in rows.iter().enumerate() {
                let bad = [9, 12, 15].contains(&i);
                assert_eq!(r["error"].is_null(), !bad, "{case}: {r}");
            }
            assert_eq!(rows[9]["error"]["kind"], "too_large", "{case}");
            assert_eq!(rows[12]["error"]["kind"], "too_large", "{case}");
            assert!(
                ["framing", "truncated"].contains(&rows[15]["error"]["kind"].as_str().unwrap()),
                "{case}"
            );
            // WARC rows carry the record's fields.
            assert_eq!(rows[0]["warc_record_id"], "urn:uuid:g00");
            assert_eq!(rows[0]["warc_date"], "2026-01-01T00:00:00Z");
            assert_eq!(rows[0]["http_status"], 200);
            assert_eq!(rows[0]["content_type"], "text/html");
            // The bad framing is its row's error, counted, and the exit
            // status says so; no warning besides.
            assert!(!o.status.success(), "{case}");
            let e = stderr(&o);
            assert!(e.contains("1 broken WARC record"), "{case}");
            assert!(!e.contains("warnings"), "{case}");
            assert!(
                e.contains("WARC records skipped: 2 not 2xx, 1 revisit"),
                "{case}"
            );
        }
    }
    // --all-status keeps the 404 and the 301.
    let warc = dir.path().join("c.warc");
    std::fs::write(&warc, hostile_warc(false, 0)).unwrap();
    let out = dir.path().join("o.jsonl");
    let (o, rows) = batch(&[warc.to_str().unwrap(), "--all-status"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let got = ids(&rows);
    assert!(
        got.contains(&"urn:uuid:nf") && got.contains(&"urn:uuid:mv"),
        "{got:?}"
    );
    let nf = rows.iter().find(|r| r["id"] == "urn:uuid:nf").unwrap();
    assert_eq!(nf["http_status"], 404);
}

/// Issue 20, item 3: shards 0/3, 1/3, 2/3 cover every page exactly once.
#[test]
fn shards_cover_every_page_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    page_dir(&pages, 10);
    let warc = dir.path().join("c.warc.gz");
    std::fs::write(&warc, hostile_warc(true, 0)).unwrap();
    let jsonl = dir.path().join("p.jsonl");
    let lines: Vec<String> = (0..7)
        .map(|i| {
            serde_json::json!({"id": format!("j{i}"), "html": article("J", "jsonl page words")})
                .to_string()
        })
        .collect();
    std::fs::write(&jsonl, lines.join("\n")).unwrap();
    let inputs = [
        pages.to_str().unwrap(),
        warc.to_str().unwrap(),
        jsonl.to_str().unwrap(),
    ];
    let out = dir.path().join("all.jsonl");
    let (o, all) = batch(&inputs, &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let all_lines = std::fs::read_to_string(&out).unwrap();
    let mut union: Vec<String> = Vec::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        let mut args = inputs.to_vec();
        args.extend(["--shard", &shard]);
        let out = dir.path().join(format!("s{i}.jsonl"));
        let (o, rows) = batch(&args, &out);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(rows.len() < all.len() && !rows.is_empty());
        union.extend(
            std::fs::read_to_string(&out)
                .unwrap()
                .lines()
                .map(str::to_owned),
        );
    }
    let mut want: Vec<String> = all_lines.lines().map(str::to_owned).collect();
    want.sort();
    union.sort();
    assert_eq!(union.len(), want.len());
    assert!(union == want, "the shards' rows are not the whole run's");
    let (o, _) = batch(&[inputs[0], "--shard", "3/3"], &out);
    assert!(!o.status.success());
}

/// Issue 20, item 2: `--out -` streams JSONL to standard output.
#[test]
fn out_dash_streams_rows_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    page_dir(&pages, 12);
    let file = dir.path().join("o.jsonl");
    let (o, _) = batch(&[pages.to_str().unwrap()], &file);
    assert!(o.status.success());
    let o = unchaff()
        .args([
            "batch",
            pages.to_str().unwrap(),
            "--out",
            "-",
            "--threads",
            "2",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        o.stdout == std::fs::read(&file).unwrap(),
        "stdout differs from the file"
    );
    assert!(stderr(&o).contains("12 pages written"), "{}", stderr(&o));
    assert!(!dir.path().join("-").exists() && !dir.path().join("-.tmp").exists());
    let o = unchaff()
        .args(["batch", pages.to_str().unwrap(), "--out", "-", "--resume"])
        .output()
        .unwrap();
    assert!(!o.status.success());
}

/// Issue 20, item 2: a FIFO (or a device) is written through, never
/// renamed over.
#[cfg(unix)]
#[test]
fn out_to_a_fifo_writes_through() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    page_dir(&pages, 8);
    let file = dir.path().join("o.jsonl");
    let (o, _) = batch(&[pages.to_str().unwrap()], &file);
    assert!(o.status.success());
    let fifo = dir.path().join("rows.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(&fifo).unwrap())
    };
    let o = unchaff()
        .args(["batch", pages.to_str().unwrap(), "--quiet", "--out"])
        .arg(&fifo)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let got = reader.join().unwrap();
    assert!(
        got == std::fs::read(&file).unwrap(),
        "the FIFO got other rows"
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo()
    );
    assert!(!dir.path().join("rows.fifo.tmp").exists());
    // A symlink to a device stays a symlink.
    let link = dir.path().join("null.jsonl");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let (o, _) = batch(&[pages.to_str().unwrap()], &link);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// Issue 19, defect 5: a directory walk refuses what is not a regular
/// file; one named on its own is read, bounded.
#[cfg(unix)]
#[test]
fn devices_are_refused_in_walks_and_bounded_when_named() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    page_dir(&pages, 3);
    let zero = pages.join("zero.html");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let out = dir.path().join("o.jsonl");
    let (o, rows) = batch(&[pages.to_str().unwrap()], &out);
    assert_eq!(rows.len(), 3);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("not a regular file"), "{}", stderr(&o));
    let (o, rows) = batch(&[zero.to_str().unwrap(), "--max-bytes", "100000"], &out);
    // Refused by the limit after max + 1 bytes: a row, and no failure.
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows[0]["error"]["kind"], "too_large");
}

/// Issue 20, item 1: metadata and the text format, in a versioned row.
#[test]
fn rows_with_metadata_and_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("m.html");
    std::fs::write(
        &page,
        "<html lang=de><head><title>Birnen | Hof</title>\
         <meta name=author content='Bea Berg'><meta property=og:site_name content=Hof>\
         <meta property=article:published_time content=2026-03-04T05:06:07Z>\
         <meta property=article:tag content=obst><meta property=article:section content=Garten>\
         <meta property=og:image content=https://hof.example/birne.jpg>\
         <link rel=license href=https://creativecommons.org/licenses/by/4.0/>\
         </head><body><article><h1>Birnen</h1>\
         <p>Birnen fallen <b>weit</b> vom Stamm, sagen alle, die einen Hof und ein langes \
         Gedächtnis haben, und sie sagen es gern.</p></article></body></html>",
    )
    .unwrap();
    let out = dir.path().join("o.jsonl");
    let (o, rows) = batch(&[page.to_str().unwrap()], &out);
    assert!(o.status.success());
    assert!(rows[0].get("schema").is_none() && rows[0].get("metadata").is_none());
    let (o, rows) = batch(
        &[
            page.to_str().unwrap(),
            "--with-metadata",
            "--text-format",
            "markdown",
        ],
        &out,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let r = &rows[0];
    assert_eq!(r["schema"], 2);
    assert_eq!(r["text_format"], "markdown");
    assert!(r["text"].as_str().unwrap().contains("**weit**"), "{r}");
    let m = &r["metadata"];
    assert_eq!(m["title"], "Birnen");
    assert_eq!(m["author"], "Bea Berg");
    assert_eq!(m["site_name"], "Hof");
    assert_eq!(m["language"], "de");
    assert_eq!(m["published"], "2026-03-04T05:06:07Z");
    assert_eq!(m["tags"][0], "obst");
    assert_eq!(m["categories"][0], "Garten");
    assert_eq!(m["image"], "https://hof.example/birne.jpg");
    assert_eq!(m["license"], "CC BY 4.0");
    let (o, rows) = batch(&[page.to_str().unwrap(), "--text-format", "html"], &out);
    assert!(o.status.success());
    assert!(rows[0]["text"].as_str().unwrap().contains("<b>weit</b>"));
    assert!(rows[0].get("metadata").is_none());
}

#[test]
fn help_says_what_the_exit_status_means() {
    let o = unchaff().args(["batch", "--help"]).output().unwrap();
    let h = String::from_utf8_lossy(&o.stdout);
    for s in [
        "Exit status",
        "--shard",
        "--all-status",
        "--with-metadata",
        "--text-format",
        "deadline",
    ] {
        assert!(h.contains(s), "{s} missing from:\n{h}");
    }
}

#[test]
fn timings_file_has_one_line_a_row_and_leaves_the_rows_alone() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    std::fs::create_dir(&pages).unwrap();
    for i in 0..5 {
        let html = article(&format!("Page {i}"), &format!("words of page {i}"));
        std::fs::write(pages.join(format!("p{i}.html")), html).unwrap();
    }
    let pages = pages.display().to_string();
    let plain = dir.path().join("plain.jsonl");
    let timed = dir.path().join("timed.jsonl");
    let times = dir.path().join("times.tsv");
    for j in ["1", "2"] {
        let (o, want) = batch(&[&pages, "-j", j], &plain);
        assert!(o.status.success(), "{}", stderr(&o));
        let times_arg = times.display().to_string();
        let (o, got) = batch(&[&pages, "-j", j, "--timings", &times_arg], &timed);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            std::fs::read(&plain).unwrap(),
            std::fs::read(&timed).unwrap()
        );
        assert_eq!(want, got);
        let tsv = std::fs::read_to_string(&times).unwrap();
        let lines: Vec<Vec<&str>> = tsv.lines().map(|l| l.split('\t').collect()).collect();
        assert_eq!(lines.len(), got.len(), "{tsv}");
        for (l, row) in lines.iter().zip(&got) {
            assert_eq!(l.len(), 3, "{tsv}");
            assert_eq!(l[0], row["id"].as_str().unwrap());
            let wall: f64 = l[1].parse().unwrap();
            let cpu: f64 = l[2].parse().unwrap();
            // Every page was extracted, so each took some time, and none
            // took anything like a minute.
            assert!(wall > 0.0 && wall < 60.0, "{tsv}");
            assert!((0.0..60.0).contains(&cpu), "{tsv}");
        }
    }
    let o = unchaff()
        .args(["batch", &pages, "--quiet", "--out"])
        .arg(&plain)
        .arg("--timings")
        .arg(dir.path().join("no/such/dir/t.tsv"))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(stderr(&o).contains("--timings"), "{}", stderr(&o));
}

#[test]
fn corpus_filters_drop_and_count_pages() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("in");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(
        root.join("a.html"),
        article(
            "Apples",
            "apples fall far from the trees in the old orchard",
        ),
    )
    .unwrap();
    // Two links and a copyright line: nothing there is main content.
    std::fs::write(
        root.join("b.html"),
        "<html><body><div><a href=/a>Home</a> <a href=/b>About</a></div><p>Copyright 2024</p></body></html>",
    )
    .unwrap();
    std::fs::write(
        root.join("c.html"),
        article(
            "Äpfel",
            "die Äpfel fallen nicht weit vom Stamm, sagt man bei uns im Dorf seit jeher",
        ),
    )
    .unwrap();
    let out = dir.path().join("o.jsonl");
    let input = root.to_str().unwrap();
    let (o, rows) = batch(&[input, "--with-metadata"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(ids(&rows), ["a", "b", "c"]);
    let conf = |r: &Value| r["confidence"].as_f64().unwrap();
    assert!(conf(&rows[0]) > 0.5 && conf(&rows[1]) < 0.5, "{rows:?}");
    assert!(rows[0]["page_type"].is_string(), "{rows:?}");

    let (o, rows) = batch(&[input, "--min-confidence", "0.5"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(ids(&rows), ["a", "c"]);
    // Without --with-metadata the rows stay as they were.
    assert!(rows[0].get("confidence").is_none(), "{:?}", rows[0]);
    let (o, rows) = batch(&[input, "--lang", "de"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(ids(&rows), ["b", "c"]);
    let (o, rows) = batch(&[input, "--lang", "en,fr", "--min-confidence", "0.5"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(ids(&rows), ["a"]);

    // The summary counts what the filters dropped.
    let o = unchaff()
        .args([
            "batch",
            input,
            "--lang",
            "en",
            "--min-confidence",
            "0.5",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    let e = stderr(&o);
    assert!(
        e.contains("1 pages written") && e.contains("dropped by filters: 1 confidence, 1 language"),
        "{e}"
    );
    // Every page dropped is no failure: they were read.
    let (o, rows) = batch(&[input, "--min-confidence", "1"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(rows.is_empty());
    let (o, _) = batch(&[input, "--min-confidence", "2"], &out);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("between 0 and 1"), "{}", stderr(&o));
}

#[test]
fn exclude_include_and_comments_in_rows() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("p.html");
    std::fs::write(
        &page,
        article(
            "Apples",
            "apples fall far from the trees in the old orchard",
        )
        .replace("<h1>", "<div class=note>A note on pears.</div><h1>"),
    )
    .unwrap();
    let out = dir.path().join("o.jsonl");
    let p = page.to_str().unwrap();
    let (o, rows) = batch(&[p, "--include", ".note"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(rows[0]["text"], "A note on pears.");
    let (_, rows) = batch(&[p, "--exclude", "article p"], &out);
    assert!(
        !rows[0]["text"].as_str().unwrap().contains("apples fall"),
        "{rows:?}"
    );
    let (o, _) = batch(&[p, "--include", "p:hover"], &out);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("selector"), "{}", stderr(&o));
}

#[test]
fn dedup_drops_segments_repeated_on_a_sites_pages() {
    let dir = tempfile::tempdir().unwrap();
    let notice = "Every story on this site is written by our own staff and read twice by two of our editors before it reaches you and your friends";
    let mut jsonl = String::new();
    for i in 0..4 {
        let html = format!(
            "<html><body><article><h1>Story {i}</h1><p>{}</p><p>{notice}</p></article></body></html>",
            format!("story {i} tells of the orchard and its old trees in autumn ").repeat(4)
        );
        let row = serde_json::json!({"id": format!("p{i}"), "url": format!("https://a.example/{i}"), "html": html});
        jsonl += &format!("{row}\n");
    }
    let input = dir.path().join("in.jsonl");
    std::fs::write(&input, jsonl).unwrap();
    let out = dir.path().join("o.jsonl");
    let i = input.to_str().unwrap();
    let (_, rows) = batch(&[i], &out);
    assert!(
        rows.iter()
            .all(|r| r["text"].as_str().unwrap().contains("read twice"))
    );
    let (_, hashed) = batch(&[i, "--simhash"], &out);
    let h: Vec<u64> = hashed
        .iter()
        .map(|r| u64::from_str_radix(r["simhash"].as_str().unwrap(), 16).unwrap())
        .collect();
    assert_eq!(h[0], unchaff_simhash(rows[0]["text"].as_str().unwrap()));
    assert!((h[0] ^ h[1]).count_ones() < 32, "{h:x?}");
    assert!(rows[0].get("simhash").is_none());
    let (o, rows) = batch(&[i, "--dedup", "-j", "2"], &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let kept: Vec<bool> = rows
        .iter()
        .map(|r| r["text"].as_str().unwrap().contains("read twice"))
        .collect();
    assert_eq!(kept, [true, true, false, false]);
    let (_, rows) = batch(&[i, "--dedup", "3"], &out);
    let kept: Vec<bool> = rows
        .iter()
        .map(|r| r["text"].as_str().unwrap().contains("read twice"))
        .collect();
    assert_eq!(kept, [true, true, true, false]);
}

/// The library's SimHash (what `--simhash` must write).
fn unchaff_simhash(text: &str) -> u64 {
    unchaff::hash::simhash(text)
}

/// Issue 41, defect 6: `unchaff batch a.html /nonexistent.html` exited
/// before writing anything; a stale line of an @LIST killed a crawl. Each
/// is a warning now: counted, exit status 1, every other row written.
#[test]
fn missing_paths_are_warnings_and_every_other_row_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let page = |i: usize| {
        let p = dir.path().join(format!("p{i}.html"));
        std::fs::write(&p, article(&format!("Page {i}"), "words of a page")).unwrap();
        p
    };
    let (p0, p1, p2) = (page(0), page(1), page(2));
    let list = dir.path().join("list");
    std::fs::write(
        &list,
        format!(
            "{}\n{}\n{}\n",
            p0.display(),
            dir.path().join("stale.html").display(),
            p1.display()
        ),
    )
    .unwrap();
    let out = dir.path().join("out.jsonl");
    let o = unchaff()
        .args(["batch", "--out"])
        .arg(&out)
        .arg(&p2)
        .arg("/nonexistent.html")
        .arg(format!("@{}", list.display()))
        .output()
        .unwrap();
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("/nonexistent.html: "), "{e}");
    assert!(e.contains("stale.html: "), "{e}");
    assert!(e.contains("2 warnings"), "{e}");
    let rows = std::fs::read_to_string(&out).unwrap();
    assert_eq!(rows.lines().count(), 3, "{rows}");
}

/// Issue 41, defect 5: two runs with the same --out lost rows (the one
/// that exited 0 was left with the other's; two --resume runs wrote 350
/// rows for 200 pages). While one run writes, a second is refused with a
/// clear error, and the first one's output is its own.
#[cfg(unix)]
#[test]
fn a_second_run_on_the_same_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    page_dir(&pages, 4);
    // The first run reads a FIFO, so it is still writing while the
    // second starts.
    let fifo = dir.path().join("slow.html");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let out = dir.path().join("out.jsonl");
    let first = unchaff()
        .args(["batch", "--quiet", "--out"])
        .arg(&out)
        .arg(&pages)
        .arg(&fifo)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first run to take the output (it blocks on the FIFO after).
    let tmp = dir.path().join("out.jsonl.tmp");
    for _ in 0..600 {
        if tmp.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(tmp.exists(), "the first run did not start");
    let other = dir.path().join("other.html");
    std::fs::write(&other, article("Other", "a page of the second run")).unwrap();
    for resume in [false, true] {
        let mut c = unchaff();
        c.args(["batch", "--quiet", "--out"]).arg(&out).arg(&other);
        if resume {
            c.arg("--resume");
        }
        let o = c.output().unwrap();
        assert!(!o.status.success(), "resume {resume}");
        assert!(
            stderr(&o).contains("another run is writing"),
            "resume {resume}: {}",
            stderr(&o)
        );
    }
    std::fs::write(&fifo, article("Slow", "the page read through a FIFO")).unwrap();
    let o = first.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| r["id"] != "other"), "{rows:?}");
}

/// Issue 41, defect 2: a symlink planted at OUT.tmp had the run truncate
/// and overwrite its target.
#[cfg(unix)]
#[test]
fn a_symlink_planted_at_the_temporary_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("pages");
    page_dir(&pages, 2);
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let out = dir.path().join("out.jsonl");
    std::os::unix::fs::symlink(&victim, dir.path().join("out.jsonl.tmp")).unwrap();
    let (o, _) = batch(&[pages.to_str().unwrap()], &out);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("symlink"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}
