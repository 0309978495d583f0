//! Everything this crate asks of the core `unchaff` library, in one place:
//! a page to a row, the core's errors to row error kinds, and whether a
//! charset label is one a browser knows.

use std::time::{Duration, Instant};

use unchaff::{Extractor, StageTimes};

use crate::row::{ErrorKind, Page, PageError, Row};

/// Extracts one page into its row. A page whose bytes could not be had is
/// an error row; an extraction that took longer than `timeout` (measured
/// after the fact: a running extraction is not stopped) is a `timeout` row.
pub fn extract_row(ex: &Extractor, page: Page, timeout: Option<Duration>) -> Row {
    let mut row = Row {
        id: page.id,
        url: page.url,
        title: None,
        text: None,
        algorithm: ex.algorithm_name().to_owned(),
        charset: None,
        error: None,
    };
    match page.body {
        Err(e) => row.error = Some(e),
        Ok(bytes) => {
            let start = Instant::now();
            let r = ex.extract_page(
                &bytes,
                row.url.as_deref(),
                page.charset.as_deref(),
                &mut StageTimes::default(),
            );
            let took = start.elapsed();
            if let Some(limit) = timeout.filter(|&t| took > t) {
                row.error = Some(PageError::new(
                    ErrorKind::Timeout,
                    format!(
                        "extraction took {:.1} s, over --page-timeout {:.1} s",
                        took.as_secs_f64(),
                        limit.as_secs_f64()
                    ),
                ));
                return row;
            }
            match r {
                Ok(x) => {
                    row.title = x.title;
                    row.text = Some(x.text);
                    row.charset = Some(x.charset);
                }
                Err(e) => row.error = Some(PageError::new(error_kind(&e), e.to_string())),
            }
        }
    }
    row
}

/// The row error kind of a core error.
fn error_kind(e: &unchaff::Error) -> ErrorKind {
    use unchaff::Error as E;
    match e {
        E::EmptyInput => ErrorKind::Empty,
        E::TooLarge { .. } => ErrorKind::TooLarge,
        E::Binary { .. } => ErrorKind::Binary,
        E::Gzip(_) => ErrorKind::Gzip,
        E::UnknownCharset(_) => ErrorKind::Charset,
        _ => ErrorKind::Extract,
    }
}

/// Whether the core decodes a page declared with this charset label (an
/// unknown label is dropped by the readers: the page's own evidence decides).
pub(crate) fn known_charset(label: &str) -> bool {
    unchaff::decode::encoding_for_label(label, false).is_some()
}
