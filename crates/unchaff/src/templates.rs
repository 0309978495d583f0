//! The site template library of paper 5 (ALGORITHMS.md#site-templates): leaf tags that recur
//! across a site's pages (navigation labels, copyright lines, "Share")
//! are learnt into a persistent SQLite database and deleted from that
//! site's pages before any algorithm scores them.
//!
//! **Unstable:** public only with the `unstable` feature, for the tools
//! of the unchaff workspace (evaluation, training, explanation); may
//! change in any release. See the crate docs' *Stability*.
//!
//! * A **leaf tag** is an element with counted text and no element
//!   children; its text is its text children's, white space collapsed.
//! * **Similar** texts: with m = min(len a, len b) in characters, equal
//!   when m ≤ [`EXACT_MAX`]; otherwise Levenshtein distance ≤ ⌊m / 8⌋
//!   ([`SIMILARITY_DIVISOR`]). Candidates are looked up by (tag, length):
//!   a distance ≤ ⌊m / 8⌋ needs lengths within that bound, so only
//!   entries of length ⌈8ℓ/9⌉ … ℓ + ⌊ℓ/8⌋ are compared.
//! * **Learning** runs in batches of [`N1`] = 10 pages per site: each
//!   distinct leaf (per page, so a "Share" repeated on one page counts
//!   once) increments a similar cached entry or adds one; when a batch
//!   completes, entries with frequency ≥ [`N2`] = 3 join the site's
//!   template and the cache is cleared. A trailing partial batch is the
//!   site's **pending state**, stored in the database and completed by the
//!   next learning run of the same site.
//! * **Storage**: WAL journal (readers never block the writer), a busy
//!   timeout of [`BUSY_TIMEOUT_MS`], and each batch step one `BEGIN
//!   IMMEDIATE` transaction that reads, updates and writes the site's
//!   pending state, so concurrent learners into one file serialise
//!   instead of losing updates.

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::{Connection, TransactionBehavior, params};

use crate::Error;
use crate::dom::{Dom, NodeId, NodeKind};

/// N1 = 10: pages per learning batch (paper 5 §3.1 (ALGORITHMS.md#site-templates)).
pub const N1: usize = 10;
/// N2 = 3: the frequency within a batch that makes an entry a template
/// entry (paper 5 §3.1 (ALGORITHMS.md#site-templates)).
pub const N2: u32 = 3;
/// Texts of at most 8 characters must be equal to be similar (ALGORITHMS.md#site-templates).
pub const EXACT_MAX: usize = 8;
/// Longer texts are similar within edit distance ⌊m / 8⌋ (ALGORITHMS.md#site-templates).
pub const SIMILARITY_DIVISOR: usize = 8;
/// How long a writer waits for another's lock before failing (ms); a
/// batch transaction takes milliseconds, so 30 s is generous.
pub const BUSY_TIMEOUT_MS: u64 = 30_000;

/// A page's leaf tags as (tag name, text), the unit of learning.
pub type PageLeaves = Vec<(String, String)>;

fn db_err(e: rusqlite::Error) -> Error {
    Error::Templates(e.to_string())
}

/// The library key of a site given as a URL, a host or a site id: the
/// URL's host (lower-cased, without `www.`), else the id as given. Learning
/// and extraction both key sites through this.
pub fn site_key(site: &str) -> String {
    crate::algorithms::path_clustering::host_of(site).unwrap_or_else(|| site.trim().to_owned())
}

/// Whether two texts are similar (ALGORITHMS.md#site-templates).
pub fn similar(a: &str, b: &str) -> bool {
    let (la, lb) = (a.chars().count(), b.chars().count());
    let m = la.min(lb);
    if m <= EXACT_MAX {
        return a == b;
    }
    let bound = m / SIMILARITY_DIVISOR;
    if la.abs_diff(lb) > bound {
        return false;
    }
    a == b || strsim::levenshtein(a, b) <= bound
}

/// The leaf tags under `root`: (element, tag name, collapsed text), in
/// document order.
pub fn leaves(dom: &Dom, root: NodeId) -> Vec<(NodeId, String, String)> {
    let mut out = Vec::new();
    for id in dom.descendants(root) {
        let Some(e) = dom.element(id) else { continue };
        let mut text = String::new();
        let mut leaf = true;
        for c in dom.children(id) {
            match dom.node(c).kind {
                NodeKind::Element(_) => {
                    leaf = false;
                    break;
                }
                NodeKind::Text { .. } => {
                    for w in dom.text_of(c).unwrap_or("").split_whitespace() {
                        if !text.is_empty() {
                            text.push(' ');
                        }
                        text.push_str(w);
                    }
                }
                _ => {}
            }
        }
        if leaf && !text.is_empty() {
            out.push((id, dom.tag_name(e.tag).to_owned(), text));
        }
    }
    out
}

/// Entries of one tag, indexed by length for the similarity look-up.
#[derive(Clone, Debug, Default)]
pub struct EntrySet {
    by_len: BTreeMap<(String, usize), Vec<usize>>,
    /// (tag, text, frequency) of each entry.
    pub entries: Vec<(String, String, u32)>,
}

impl EntrySet {
    /// Index of an entry similar to (`tag`, `text`).
    pub fn find(&self, tag: &str, text: &str) -> Option<usize> {
        let l = text.chars().count();
        let lo = if l <= EXACT_MAX {
            l
        } else {
            (8 * l).div_ceil(9)
        };
        let hi = if l <= EXACT_MAX {
            l
        } else {
            l + l / SIMILARITY_DIVISOR
        };
        let range = (tag.to_owned(), lo)..=(tag.to_owned(), hi);
        self.by_len
            .range(range)
            .flat_map(|(_, v)| v)
            .copied()
            .find(|&k| similar(&self.entries[k].1, text))
    }

    /// Adds an entry.
    pub fn push(&mut self, tag: &str, text: &str, freq: u32) {
        let k = self.entries.len();
        self.entries.push((tag.to_owned(), text.to_owned(), freq));
        self.by_len
            .entry((tag.to_owned(), text.chars().count()))
            .or_default()
            .push(k);
    }

    /// The leaf tags under `root` similar to an entry, in document order.
    pub fn matches(&self, dom: &Dom, root: NodeId) -> Vec<NodeId> {
        if self.entries.is_empty() {
            return Vec::new();
        }
        leaves(dom, root)
            .into_iter()
            .filter(|(_, tag, text)| self.find(tag, text).is_some())
            .map(|(id, _, _)| id)
            .collect()
    }

    /// Deletes from `dom` every leaf tag under `root` similar to an entry;
    /// returns how many.
    pub fn remove_from(&self, dom: &mut Dom, root: NodeId) -> usize {
        let hits = self.matches(dom, root);
        dom.detach_all(&hits);
        hits.len()
    }
}

/// A template library file.
pub struct Library {
    conn: Connection,
}

/// What one learning run did for a site.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LearnReport {
    /// Batches completed.
    pub batches: usize,
    /// Template entries added.
    pub added: usize,
    /// Pages left pending (a partial batch).
    pub pending_pages: usize,
}

impl Library {
    /// Opens (creating if needed) the library at `path`.
    pub fn open(path: &Path) -> Result<Library, Error> {
        let conn = Connection::open(path).map_err(db_err)?;
        conn.busy_timeout(std::time::Duration::from_millis(BUSY_TIMEOUT_MS))
            .map_err(db_err)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(db_err)?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS template (
                 site TEXT NOT NULL, tag TEXT NOT NULL, text TEXT NOT NULL,
                 UNIQUE (site, tag, text));
             CREATE TABLE IF NOT EXISTS pending_page (
                 site TEXT PRIMARY KEY, pages INTEGER NOT NULL);
             CREATE TABLE IF NOT EXISTS pending_entry (
                 site TEXT NOT NULL, tag TEXT NOT NULL, text TEXT NOT NULL,
                 freq INTEGER NOT NULL);
             CREATE INDEX IF NOT EXISTS pending_entry_site ON pending_entry (site);",
        )
        .map_err(db_err)?;
        Ok(Library { conn })
    }

    /// Learns from the leaf tags of `pages` of `site` (each page's
    /// (tag, text) leaves), continuing the site's pending batch.
    pub fn learn(&mut self, site: &str, pages: &[PageLeaves]) -> Result<LearnReport, Error> {
        let site = site_key(site);
        let site = site.as_str();
        let mut report = LearnReport::default();
        let mut rest = pages;
        loop {
            let tx = self
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(db_err)?;
            let mut done: usize = tx
                .query_row(
                    "SELECT pages FROM pending_page WHERE site = ?1",
                    params![site],
                    |r| r.get::<_, i64>(0),
                )
                .map(|n| n.max(0) as usize)
                .or_else(|e| match e {
                    rusqlite::Error::QueryReturnedNoRows => Ok(0),
                    e => Err(db_err(e)),
                })?;
            let mut cache = EntrySet::default();
            {
                let mut st = tx
                    .prepare("SELECT tag, text, freq FROM pending_entry WHERE site = ?1")
                    .map_err(db_err)?;
                let rows = st
                    .query_map(params![site], |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, i64>(2)?,
                        ))
                    })
                    .map_err(db_err)?;
                for row in rows {
                    let (tag, text, f) = row.map_err(db_err)?;
                    cache.push(&tag, &text, f.max(0) as u32);
                }
            }
            let take = (N1 - done.min(N1 - 1)).min(rest.len());
            for page in &rest[..take] {
                let mut seen = vec![false; cache.entries.len()];
                for (tag, text) in page {
                    match cache.find(tag, text) {
                        Some(k) => {
                            if !seen[k] {
                                seen[k] = true;
                                cache.entries[k].2 += 1;
                            }
                        }
                        None => {
                            cache.push(tag, text, 1);
                            seen.push(true);
                        }
                    }
                }
                done += 1;
            }
            rest = &rest[take..];
            tx.execute("DELETE FROM pending_entry WHERE site = ?1", params![site])
                .map_err(db_err)?;
            if done >= N1 {
                report.batches += 1;
                for (tag, text, f) in &cache.entries {
                    if *f >= N2 {
                        report.added += tx
                            .execute(
                                "INSERT OR IGNORE INTO template (site, tag, text) VALUES (?1, ?2, ?3)",
                                params![site, tag, text],
                            )
                            .map_err(db_err)?;
                    }
                }
                tx.execute("DELETE FROM pending_page WHERE site = ?1", params![site])
                    .map_err(db_err)?;
                report.pending_pages = 0;
            } else {
                {
                    let mut ins = tx
                        .prepare(
                            "INSERT INTO pending_entry (site, tag, text, freq) VALUES (?1, ?2, ?3, ?4)",
                        )
                        .map_err(db_err)?;
                    for (tag, text, f) in &cache.entries {
                        ins.execute(params![site, tag, text, *f as i64])
                            .map_err(db_err)?;
                    }
                }
                tx.execute(
                    "INSERT OR REPLACE INTO pending_page (site, pages) VALUES (?1, ?2)",
                    params![site, done as i64],
                )
                .map_err(db_err)?;
                report.pending_pages = done;
            }
            tx.commit().map_err(db_err)?;
            if rest.is_empty() {
                return Ok(report);
            }
        }
    }

    /// The template entries of `site`.
    pub fn site(&self, site: &str) -> Result<EntrySet, Error> {
        let site = site_key(site);
        let mut set = EntrySet::default();
        let mut st = self
            .conn
            .prepare("SELECT tag, text FROM template WHERE site = ?1 ORDER BY rowid")
            .map_err(db_err)?;
        let rows = st
            .query_map(params![site], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })
            .map_err(db_err)?;
        for row in rows {
            let (tag, text) = row.map_err(db_err)?;
            set.push(&tag, &text, 0);
        }
        Ok(set)
    }

    /// Every site's template, read in one transaction.
    pub fn all_sites(&self) -> Result<BTreeMap<String, EntrySet>, Error> {
        let mut out: BTreeMap<String, EntrySet> = BTreeMap::new();
        let mut st = self
            .conn
            .prepare("SELECT site, tag, text FROM template ORDER BY rowid")
            .map_err(db_err)?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .map_err(db_err)?;
        for row in rows {
            let (site, tag, text) = row.map_err(db_err)?;
            out.entry(site).or_default().push(&tag, &text, 0);
        }
        Ok(out)
    }

    /// Sites with their template size and pending pages.
    pub fn sites(&self) -> Result<Vec<(String, usize, usize)>, Error> {
        let mut st = self
            .conn
            .prepare(
                "SELECT s.site,
                        (SELECT COUNT(*) FROM template t WHERE t.site = s.site),
                        COALESCE((SELECT pages FROM pending_page p WHERE p.site = s.site), 0)
                 FROM (SELECT site FROM template UNION SELECT site FROM pending_page) s
                 ORDER BY s.site",
            )
            .map_err(db_err)?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                ))
            })
            .map_err(db_err)?;
        rows.map(|r| {
            r.map(|(s, a, b)| (s, a.max(0) as usize, b.max(0) as usize))
                .map_err(db_err)
        })
        .collect()
    }
}

/// The (tag, text) leaves of a page given as bytes, after decoding,
/// parsing and cleaning, for [`Library::learn`].
pub fn page_leaves(bytes: &[u8]) -> Result<PageLeaves, Error> {
    let p = crate::prepare::Prepared::new(bytes)?;
    Ok(leaves(&p.dom, p.root)
        .into_iter()
        .map(|(_, tag, text)| (tag, text))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` pseudo-random letters for page `i`: two pages' strings differ
    /// in most positions, so page texts are never similar.
    fn letters(i: usize, n: usize, salt: usize) -> String {
        // SplitMix64 steps, seeded per page.
        let mut s = (i * 1000 + salt) as u64;
        (0..n)
            .map(|_| {
                s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = s;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                (b'a' + ((z ^ (z >> 31)) % 26) as u8) as char
            })
            .collect()
    }

    fn site_page(i: usize) -> String {
        format!(
            "<body><nav><a href=/>Home</a><a href=/news>News</a><a href=/about>About us</a></nav>\
             <div><h1>Story {}</h1><p>Body {}</p></div>\
             <footer><p>Copyright 2024 Example Media Group. All rights reserved.</p></footer></body>",
            letters(i, 12, 1),
            letters(i, 60, 2)
        )
    }

    #[test]
    fn eight_character_boundary() {
        // m = 8: must be equal. "abcdefgh" vs "abcdefgx" differ → no.
        assert!(similar("abcdefgh", "abcdefgh"));
        assert!(!similar("abcdefgh", "abcdefgx"));
        // m = 9: ⌊9/8⌋ = 1 edit allowed.
        assert!(similar("abcdefghi", "abcdefghx"));
        assert!(!similar("abcdefghi", "abcdefgxy"));
        // m = 16: 2 edits allowed, 3 not.
        assert!(similar("abcdefghijklmnop", "abcdefghijklmnXY"));
        assert!(!similar("abcdefghijklmnop", "abcdefghijklmXYZ"));
        // Length difference counts: 9 vs 10 characters, 1 insertion → yes.
        assert!(similar("abcdefghi", "abcdefghij"));
        // Characters, not bytes: 9 CJK characters, one changed.
        assert!(similar("一二三四五六七八九", "一二三四五六七八十"));
    }

    #[test]
    fn learns_nav_and_copyright_and_removes_them() {
        let dir = tempfile_dir();
        let db = dir.join("t.sqlite");
        let mut lib = Library::open(&db).unwrap();
        let pages: Vec<Vec<(String, String)>> = (0..12)
            .map(|i| page_leaves(site_page(i).as_bytes()).unwrap())
            .collect();
        let r = lib.learn("example.org", &pages).unwrap();
        // 12 pages: one full batch of 10, two pages pending.
        assert_eq!((r.batches, r.pending_pages), (1, 2));
        let set = lib.site("example.org").unwrap();
        let texts: Vec<&str> = set.entries.iter().map(|e| e.1.as_str()).collect();
        // Home, News, About us, the copyright; not the story texts.
        assert_eq!(
            texts,
            vec![
                "Home",
                "News",
                "About us",
                "Copyright 2024 Example Media Group. All rights reserved."
            ]
        );
        // The 13th page: the copyright line with a different year is
        // still similar (1 edit of ⌊56/8⌋ = 7 allowed).
        let p13 = site_page(13).replace("2024", "2025");
        let mut dom = crate::parse::parse(&p13);
        let root = dom.content_root();
        assert_eq!(set.remove_from(&mut dom, root), 4);
        let left: Vec<String> = leaves(&dom, root).into_iter().map(|l| l.2).collect();
        assert_eq!(left.len(), 2);
        assert!(left[0].starts_with("Story ") && left[1].starts_with("Body "));
        // Through the extractor: the site is the URL's host.
        let opts = crate::Options::new()
            .with_method(crate::Method::TemplateSvm)
            .with_templates(db.clone());
        let input = crate::Input::new(p13.as_bytes()).with_url("https://www.example.org/story/13");
        let ex = crate::Extractor::new(&opts).unwrap();
        let page = ex.extract(input).unwrap();
        let mut without = opts.clone();
        without.templates = None;
        let all = crate::Extractor::new(&without)
            .unwrap()
            .extract(input)
            .unwrap();
        assert!(all.text.contains("Copyright"), "{}", all.text);
        assert!(!page.text.contains("Copyright") && !page.text.contains("About us"));
        // The pending pages complete with 8 more in a later run.
        let more: Vec<_> = (20..28)
            .map(|i| page_leaves(site_page(i).as_bytes()).unwrap())
            .collect();
        let mut lib = Library::open(&db).unwrap();
        let r = lib.learn("example.org", &more).unwrap();
        assert_eq!((r.batches, r.added, r.pending_pages), (1, 0, 0));
        assert_eq!(lib.sites().unwrap(), vec![("example.org".to_owned(), 4, 0)]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn repeated_leaf_counts_once_per_page() {
        // "Share" three times on each of 2 pages: frequency 2 < N2 = 3, so
        // after a batch of 10 pages (8 without it) it is not a template.
        let dir = tempfile_dir();
        let mut lib = Library::open(&dir.join("t.sqlite")).unwrap();
        let share = vec![("a".to_owned(), "Share".to_owned()); 3];
        let mut pages = vec![share.clone(), share];
        pages.extend((0..8).map(|i| vec![("p".to_owned(), format!("text {i}"))]));
        let r = lib.learn("s", &pages).unwrap();
        assert_eq!((r.batches, r.added), (1, 0));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn two_concurrent_learners_into_one_file() {
        let dir = tempfile_dir();
        let db = dir.join("t.sqlite");
        Library::open(&db).unwrap();
        let handles: Vec<_> = (0..2)
            .map(|t| {
                let db = db.clone();
                std::thread::spawn(move || {
                    let mut lib = Library::open(&db).unwrap();
                    for k in 0..15 {
                        let page = page_leaves(site_page(100 * t + k).as_bytes()).unwrap();
                        lib.learn("example.org", &[page]).unwrap();
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        // 30 pages in all, one at a time from two threads: exactly three
        // batches, none lost; the template holds the 4 shared leaves.
        let lib = Library::open(&db).unwrap();
        assert_eq!(lib.sites().unwrap(), vec![("example.org".to_owned(), 4, 0)]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn tempfile_dir() -> std::path::PathBuf {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let d = std::env::temp_dir().join(format!(
            "unchaff-templates-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
