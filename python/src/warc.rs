//! `unchaff.read_warc`: the HTML response records of a WARC file, read by
//! the batch crate's reader (`unchaff_batch::warc::WarcReader`, the one
//! `unchaff batch` uses), one record at a time with the GIL released.

use std::path::PathBuf;
use std::sync::Mutex;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use unchaff_batch::warc;

use crate::WarcError;

type Reader = warc::WarcReader<std::io::BufReader<std::fs::File>>;

/// Iterates over the HTML response records of a `.warc` or `.warc.gz`
/// file as tuples `(url, date, status, content_type, html, charset,
/// record_id, error)`; `unchaff.read_warc` wraps them in `WarcRecord`s.
#[pyclass(module = "unchaff")]
pub struct WarcReader {
    /// The reader.
    reader: Mutex<Reader>,
}

/// One record as Python sees it.
type Record = (
    Option<String>,
    Option<String>,
    Option<u16>,
    Option<String>,
    Option<Py<PyBytes>>,
    Option<String>,
    Option<String>,
    Option<String>,
);

#[pymethods]
impl WarcReader {
    /// Opens `path` (gzip recognised by its magic bytes); `max_bytes`
    /// skips larger HTTP bodies (their records come with a `too_large`
    /// error and no html).
    #[new]
    #[pyo3(signature = (path, max_bytes = None))]
    fn new(path: PathBuf, max_bytes: Option<usize>) -> PyResult<WarcReader> {
        let mut r = warc::WarcReader::open(&path)?;
        if let Some(m) = max_bytes {
            r = r.with_max_payload(m);
        }
        Ok(WarcReader {
            reader: Mutex::new(r),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Record>> {
        // A broken record comes with its error, not with a warning
        // besides (the reader reports each damage once).
        let next =
            py.allow_threads(|| self.reader.lock().unwrap_or_else(|e| e.into_inner()).next());
        match next {
            None => Ok(None),
            Some(Err(e)) => Err(WarcError::new_err(e.to_string())),
            Some(Ok(rec)) => {
                let h = rec.head;
                let (html, error) = match rec.body {
                    Ok(b) => (Some(PyBytes::new(py, &b).unbind()), None),
                    Err(e) => (None, Some(format!("{}: {}", e.kind, e.message))),
                };
                Ok(Some((
                    h.url,
                    h.date,
                    h.http_status,
                    h.content_type,
                    html,
                    h.charset,
                    h.record_id,
                    error,
                )))
            }
        }
    }
}
