//! Loading (and writing) extractor outputs to score.
//!
//! Two forms are read: a directory of `<id>.txt` files, and the public
//! benchmark's JSON (`{"version": …, "output": {"<id>": {"articleBody": "…"}}}`,
//! or the bare `{"<id>": {"articleBody": "…"}}`). Both give a map from page id
//! to extracted text; a page absent from the map scores as an empty output.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use crate::EvalError;

/// Loads outputs from `path`: a directory is read with [`load_text_dir`],
/// a file with [`load_json`].
pub fn load(path: &Path) -> Result<HashMap<String, String>, EvalError> {
    if path.is_dir() {
        load_text_dir(path)
    } else {
        load_json(path)
    }
}

/// Reads every `<id>.txt` file of `dir` (not recursively) into a map from id
/// to text. Invalid UTF-8 is replaced (U+FFFD) and a leading byte-order mark
/// is dropped. Pages without a file are simply absent, which scores as an
/// empty output.
pub fn load_text_dir(dir: &Path) -> Result<HashMap<String, String>, EvalError> {
    let entries = std::fs::read_dir(dir).map_err(|e| EvalError::io(dir, e))?;
    let mut outputs = HashMap::new();
    for entry in entries {
        let path = entry.map_err(|e| EvalError::io(dir, e))?.path();
        if path.extension().is_none_or(|ext| ext != "txt") || !path.is_file() {
            continue;
        }
        let Some(id) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let bytes = std::fs::read(&path).map_err(|e| EvalError::io(&path, e))?;
        outputs.insert(id.to_string(), crate::decode_text(&bytes));
    }
    Ok(outputs)
}

/// Writes `outputs` as `dir/<id>.txt` files, creating `dir` if needed.
/// Ids that are not usable as file names (empty, `.`, `..`, or containing a
/// path separator) are an error.
pub fn write_text_dir(dir: &Path, outputs: &HashMap<String, String>) -> Result<(), EvalError> {
    std::fs::create_dir_all(dir).map_err(|e| EvalError::io(dir, e))?;
    for (id, text) in outputs {
        if id.is_empty() || id == "." || id == ".." || id.contains(['/', '\\', '\0']) {
            return Err(EvalError::Outputs {
                path: dir.to_path_buf(),
                message: format!("id {id:?} is not a valid file name"),
            });
        }
        let path = dir.join(format!("{id}.txt"));
        std::fs::write(&path, text).map_err(|e| EvalError::io(&path, e))?;
    }
    Ok(())
}

/// Reads the benchmark's JSON output file at `path` (see [`parse_json`]).
pub fn load_json(path: &Path) -> Result<HashMap<String, String>, EvalError> {
    let text = std::fs::read_to_string(path).map_err(|e| EvalError::io(path, e))?;
    parse_json(&text).map_err(|message| EvalError::Outputs {
        path: path.to_path_buf(),
        message,
    })
}

/// Parses the benchmark's JSON output format. The page map is the top-level
/// `"output"` object when there is one, else the top-level object itself.
/// Each page's value is an object whose `"articleBody"` is the text (a
/// missing or null `articleBody`, or a null page, is an empty text); a bare
/// string is accepted as the text too.
pub fn parse_json(text: &str) -> Result<HashMap<String, String>, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let Value::Object(mut top) = value else {
        return Err("the top level is not a JSON object".to_string());
    };
    let pages = match top.remove("output") {
        Some(Value::Object(pages)) => pages,
        Some(_) => return Err("\"output\" is not a JSON object".to_string()),
        None => top,
    };
    let mut outputs = HashMap::with_capacity(pages.len());
    for (id, page) in pages {
        let text = match page {
            Value::Null => String::new(),
            Value::String(s) => s,
            Value::Object(mut o) => match o.remove("articleBody") {
                None | Some(Value::Null) => String::new(),
                Some(Value::String(s)) => s,
                Some(other) => {
                    return Err(format!("page {id:?}: articleBody is not a string: {other}"));
                }
            },
            other => return Err(format!("page {id:?}: not an object: {other}")),
        };
        outputs.insert(id, text);
    }
    Ok(outputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_forms() {
        let wrapped =
            parse_json(r#"{"version":"1","output":{"a":{"articleBody":"x y"},"b":{"articleBody":null},"c":null}}"#)
                .unwrap();
        assert_eq!(wrapped.len(), 3);
        assert_eq!(wrapped["a"], "x y");
        assert_eq!(wrapped["b"], "");
        assert_eq!(wrapped["c"], "");
        let bare = parse_json(r#"{"a":{"articleBody":"t","headline":"h"},"b":"s"}"#).unwrap();
        assert_eq!(bare["a"], "t");
        assert_eq!(bare["b"], "s");
        assert!(parse_json("[1]").is_err());
        assert!(parse_json(r#"{"a":{"articleBody":3}}"#).is_err());
        assert!(parse_json(r#"{"output":[]}"#).is_err());
        assert!(parse_json("not json").is_err());
    }
}
