//! `unchaff.read_warc`: placeholder until the batch crate's WARC reader is
//! on main.

use pyo3::exceptions::PyNotImplementedError;
use pyo3::prelude::*;

/// Iterates over the HTML response records of a WARC file.
#[pyclass(module = "unchaff")]
pub struct WarcReader;

#[pymethods]
impl WarcReader {
    #[new]
    fn new(_path: std::path::PathBuf) -> PyResult<WarcReader> {
        Err(PyNotImplementedError::new_err("read_warc is not built yet"))
    }
}
