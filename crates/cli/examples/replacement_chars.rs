//! Counts, per dataset folder, the pages whose extracted-from text (the
//! cleaned `<body>`, what every algorithm reads) contains U+FFFD — a sign
//! that the page was decoded with the wrong charset or carries broken
//! bytes — and the pages that still hold an Arabic presentation form
//! (U+FB50–U+FDFF, U+FE70–U+FEFF) after parsing. `--list` names the
//! pages with U+FFFD on standard error, with the charset used and why.
//!
//! ```text
//! cargo run --release -p unchaff-cli --example replacement_chars -- ../shared/data
//! cargo run --release -p unchaff-cli --example replacement_chars -- ../shared/data --list
//! ```

use std::path::PathBuf;

use unchaff::{annotate, clean, decode, parse};
use unchaff_eval::dataset::{Dataset, list_folders};

fn is_presentation_form(c: char) -> bool {
    matches!(c, '\u{FB50}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list = args.iter().any(|a| a == "--list");
    let arg = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_else(|| "../shared/data".into());
    let root = PathBuf::from(arg);
    let folders = if root.join("manifest.jsonl").is_file() {
        vec![root]
    } else {
        list_folders(&root)?
    };
    let (mut all_pages, mut all_bad, mut all_forms) = (0usize, 0usize, 0usize);
    println!("folder                pages  with U+FFFD  with presentation forms");
    for dir in folders {
        let ds = Dataset::open(&dir)?;
        let (mut bad, mut forms) = (0usize, 0usize);
        for p in &ds.pages {
            let raw = ds.read_page_html_gunzipped(p)?;
            let Ok(decoded) = decode::decode(&raw, None) else {
                continue;
            };
            let mut dom = parse::parse(&decoded.text);
            let root = dom.content_root();
            clean::clean(&mut dom, root);
            let page = annotate::annotate(&dom, &decoded.text, root);
            let mut has_bad = false;
            let mut has_form = false;
            for t in &page.texts {
                let s = dom.text_of(t.node).unwrap_or("");
                has_bad |= s.contains('\u{FFFD}');
                has_form |= s.chars().any(is_presentation_form);
            }
            if list && has_bad {
                eprintln!(
                    "{}/{}: {} ({:?})",
                    ds.name,
                    p.id,
                    decoded.encoding.name(),
                    decoded.source
                );
            }
            bad += usize::from(has_bad);
            forms += usize::from(has_form);
        }
        println!(
            "{:20} {:6}  {:10}  {:10}",
            ds.name,
            ds.pages.len(),
            bad,
            forms
        );
        all_pages += ds.pages.len();
        all_bad += bad;
        all_forms += forms;
    }
    println!("{:20} {all_pages:6}  {all_bad:10}  {all_forms:10}", "all");
    Ok(())
}
