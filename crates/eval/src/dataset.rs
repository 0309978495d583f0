//! Reading the development datasets.
//!
//! A dataset is a folder holding `manifest.jsonl` (one JSON object a page,
//! with at least an `id`), `pages/<id>.html.gz` (the page's raw bytes,
//! gzip-compressed) and `gold/<id>.txt` (the gold main content, UTF-8).

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::EvalError;

/// Name of the environment variable that points at the data root.
pub const DATA_ENV: &str = "UNCHAFF_DATA";

/// The data root: `$UNCHAFF_DATA` when set and not empty, else
/// `<workspace_root>/../shared/data`.
pub fn default_data_root(workspace_root: &Path) -> PathBuf {
    match std::env::var_os(DATA_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => workspace_root.join("..").join("shared").join("data"),
    }
}

/// The dataset folders under `root`: its subdirectories that contain a
/// `manifest.jsonl`, sorted by path.
pub fn list_folders(root: &Path) -> Result<Vec<PathBuf>, EvalError> {
    let entries = std::fs::read_dir(root).map_err(|e| EvalError::io(root, e))?;
    let mut folders = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| EvalError::io(root, e))?.path();
        if path.is_dir() && path.join("manifest.jsonl").is_file() {
            folders.push(path);
        }
    }
    folders.sort();
    Ok(folders)
}

/// One page of a dataset, as described by its manifest line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageEntry {
    /// The page id: the stem of `pages/<id>.html.gz` and `gold/<id>.txt`.
    pub id: String,
    /// The page's address, where known.
    pub url: Option<String>,
    /// Language code (`en`, `zh`, …), where known.
    pub lang: Option<String>,
    /// Page type (`article`, `forum`, …), where the dataset has one.
    pub page_type: Option<String>,
    /// Every other field of the manifest line.
    pub extra: Map<String, Value>,
}

impl PageEntry {
    /// Builds an entry from one manifest object. The `id` must be a
    /// non-empty string usable as a file name (no path separators, not `.`
    /// or `..`). `url`, `lang` and `page_type` are taken when they are
    /// strings; any other field goes to `extra`.
    pub fn from_json(mut object: Map<String, Value>) -> Result<PageEntry, String> {
        let id = match object.remove("id") {
            Some(Value::String(id)) => id,
            Some(other) => return Err(format!("`id` is not a string: {other}")),
            None => return Err("no `id` field".to_string()),
        };
        if id.is_empty() || id == "." || id == ".." || id.contains(['/', '\\', '\0']) {
            return Err(format!("`id` {id:?} is not a valid file name"));
        }
        let mut take = |key: &str| match object.remove(key) {
            Some(Value::String(s)) => Some(s),
            Some(Value::Null) | None => None,
            Some(other) => {
                object.insert(key.to_string(), other);
                None
            }
        };
        let url = take("url");
        let lang = take("lang");
        let page_type = take("page_type");
        Ok(PageEntry {
            id,
            url,
            lang,
            page_type,
            extra: object,
        })
    }

    /// The value of manifest field `key` as text: strings as they are, other
    /// JSON values in their JSON spelling (`12`, `true`). `None` when the
    /// field is missing or null.
    pub fn field(&self, key: &str) -> Option<String> {
        let typed = match key {
            "id" => return Some(self.id.clone()),
            "url" => &self.url,
            "lang" => &self.lang,
            "page_type" => &self.page_type,
            _ => &None,
        };
        if typed.is_some() {
            return typed.clone();
        }
        match self.extra.get(key)? {
            Value::Null => None,
            Value::String(s) => Some(s.clone()),
            other => Some(other.to_string()),
        }
    }

    /// Whether this page passes the filter expression `key=value` (see
    /// [`Filter`]). A malformed expression matches nothing.
    pub fn matches(&self, expr: &str) -> bool {
        expr.parse::<Filter>().is_ok_and(|f| f.matches(self))
    }
}

/// The cross-validation fold (0 … n−1) of a page id: a stable hash of the
/// id (FNV-1a, then SplitMix64's finaliser: FNV's low bits alone depend on
/// few of the input's bits, and `% 2` would read only those), so a page is
/// in the same fold on every machine and run.
pub fn fold_of(id: &str, n: u32) -> u32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    h ^= h >> 31;
    (h % n.max(1) as u64) as u32
}

/// A `key=value` condition over manifest fields (`page_type=forum`,
/// `lang=zh`, `site=www.example.com`), `extra` fields included. A page
/// matches when the field, as given by [`PageEntry::field`], equals the value
/// exactly; a missing or null field never matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// The manifest field.
    pub key: String,
    /// The value it must have.
    pub value: String,
}

impl Filter {
    /// Whether `entry` passes this filter.
    pub fn matches(&self, entry: &PageEntry) -> bool {
        entry.field(&self.key).is_some_and(|v| v == self.value)
    }
}

impl FromStr for Filter {
    type Err = EvalError;

    /// Parses `key=value` (split at the first `=`; the key must not be empty).
    fn from_str(expr: &str) -> Result<Filter, EvalError> {
        match expr.split_once('=') {
            Some((key, value)) if !key.trim().is_empty() => Ok(Filter {
                key: key.trim().to_string(),
                value: value.to_string(),
            }),
            _ => Err(EvalError::Filter(expr.to_string())),
        }
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.key, self.value)
    }
}

/// A dataset folder and its manifest.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// The folder's name (`scrapinghub`, `wcxb-dev`, …).
    pub name: String,
    /// The folder.
    pub dir: PathBuf,
    /// The pages, in manifest order.
    pub pages: Vec<PageEntry>,
}

impl Dataset {
    /// Opens the dataset folder `dir` and reads its `manifest.jsonl`. Blank
    /// lines are skipped; a line that is not a JSON object with a valid `id`,
    /// or a repeated id, is an error.
    pub fn open(dir: &Path) -> Result<Dataset, EvalError> {
        let manifest = dir.join("manifest.jsonl");
        let text = std::fs::read_to_string(&manifest).map_err(|e| EvalError::io(&manifest, e))?;
        let mut pages = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let err = |message: String| EvalError::Manifest {
                path: manifest.clone(),
                line: n + 1,
                message,
            };
            let object = match serde_json::from_str::<Value>(line) {
                Ok(Value::Object(object)) => object,
                Ok(_) => return Err(err("not a JSON object".to_string())),
                Err(e) => return Err(err(e.to_string())),
            };
            let entry = PageEntry::from_json(object).map_err(err)?;
            if !seen.insert(entry.id.clone()) {
                return Err(err(format!("repeated id {:?}", entry.id)));
            }
            pages.push(entry);
        }
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| dir.to_string_lossy().into_owned());
        Ok(Dataset {
            name,
            dir: dir.to_path_buf(),
            pages,
        })
    }

    /// The pages that pass `filter`.
    pub fn filtered(&self, filter: &Filter) -> Vec<&PageEntry> {
        self.pages.iter().filter(|p| filter.matches(p)).collect()
    }

    /// Path of the page's compressed HTML: `<dir>/pages/<id>.html.gz`.
    pub fn page_path(&self, entry: &PageEntry) -> PathBuf {
        self.dir.join("pages").join(format!("{}.html.gz", entry.id))
    }

    /// Path of the page's gold text: `<dir>/gold/<id>.txt`.
    pub fn gold_path(&self, entry: &PageEntry) -> PathBuf {
        self.dir.join("gold").join(format!("{}.txt", entry.id))
    }

    /// The raw bytes of the page file, still gzip-compressed.
    pub fn read_page_bytes(&self, entry: &PageEntry) -> Result<Vec<u8>, EvalError> {
        let path = self.page_path(entry);
        std::fs::read(&path).map_err(|e| EvalError::io(&path, e))
    }

    /// The page's HTML bytes, gunzipped (in the page's own encoding).
    pub fn read_page_html_gunzipped(&self, entry: &PageEntry) -> Result<Vec<u8>, EvalError> {
        let path = self.page_path(entry);
        let raw = std::fs::read(&path).map_err(|e| EvalError::io(&path, e))?;
        let mut html = Vec::with_capacity(raw.len() * 4);
        flate2::read::MultiGzDecoder::new(raw.as_slice())
            .read_to_end(&mut html)
            .map_err(|e| EvalError::io(&path, e))?;
        Ok(html)
    }

    /// The page's gold text; `Ok(None)` when the gold file does not exist.
    /// Invalid UTF-8 is replaced (U+FFFD) and a leading byte-order mark is
    /// dropped.
    pub fn read_gold(&self, entry: &PageEntry) -> Result<Option<String>, EvalError> {
        let path = self.gold_path(entry);
        match std::fs::read(&path) {
            Ok(bytes) => Ok(Some(crate::decode_text(&bytes))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(EvalError::io(&path, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fold_of;

    #[test]
    fn folds_are_balanced_and_independent_of_a_suffix() {
        // 1,000 ids split about evenly in two, and adding the same suffix
        // to every id gives a different split (training's stacking halves
        // rely on it), not the same one or its mirror.
        let ids: Vec<String> = (0..1000).map(|i| format!("page-{i}")).collect();
        let a: Vec<u32> = ids.iter().map(|i| fold_of(i, 2)).collect();
        let b: Vec<u32> = ids
            .iter()
            .map(|i| fold_of(&format!("{i}#half"), 2))
            .collect();
        let ones = a.iter().filter(|&&x| x == 1).count();
        assert!((450..550).contains(&ones), "{ones}");
        let same = a.iter().zip(&b).filter(|(x, y)| x == y).count();
        assert!((400..600).contains(&same), "{same}");
        assert!(ids.iter().all(|i| fold_of(i, 5) < 5));
        assert_eq!(fold_of("x", 0), 0);
    }

    use super::*;

    fn entry(line: &str) -> Result<PageEntry, String> {
        match serde_json::from_str(line).unwrap() {
            Value::Object(o) => PageEntry::from_json(o),
            _ => unreachable!(),
        }
    }

    #[test]
    fn manifest_fields() {
        let e = entry(
            r#"{"id":"a1","url":null,"lang":"zh","page_type":"forum","gold_chars":12,"site":"x.cn","ok":true}"#,
        )
        .unwrap();
        assert_eq!(e.id, "a1");
        assert_eq!(e.url, None);
        assert_eq!(e.lang.as_deref(), Some("zh"));
        assert_eq!(e.extra.len(), 3);
        assert!(e.matches("page_type=forum"));
        assert!(!e.matches("page_type=article"));
        assert!(e.matches("site=x.cn"));
        assert!(e.matches("gold_chars=12"));
        assert!(e.matches("ok=true"));
        assert!(!e.matches("url=null"));
        assert!(!e.matches("missing=x"));
        assert!(!e.matches("no equals sign"));
        assert!("=x".parse::<Filter>().is_err());
        assert_eq!(
            "a=b=c".parse::<Filter>().unwrap().to_string(),
            "a=b=c".to_string()
        );
    }

    #[test]
    fn bad_ids_are_rejected() {
        assert!(entry(r#"{"id":"../etc"}"#).is_err());
        assert!(entry(r#"{"id":".."}"#).is_err());
        assert!(entry(r#"{"id":""}"#).is_err());
        assert!(entry(r#"{"id":3}"#).is_err());
        assert!(entry(r#"{"url":"x"}"#).is_err());
        // A non-string lang is kept in `extra`, not lost.
        let e = entry(r#"{"id":"x","lang":5}"#).unwrap();
        assert_eq!(e.lang, None);
        assert_eq!(e.field("lang").as_deref(), Some("5"));
    }

    #[test]
    fn data_root_default() {
        // Only checks the fallback shape; the env var may be set by the user.
        if std::env::var_os(DATA_ENV).is_none_or(|v| v.is_empty()) {
            assert_eq!(
                default_data_root(Path::new("/w/main")),
                Path::new("/w/main/../shared/data")
            );
        }
    }
}
