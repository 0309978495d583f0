//! Everything this crate asks of the core `unchaff` library, in one place:
//! a page to a row, the core's errors to row error kinds, and whether a
//! charset label is one a browser knows.

use std::time::{Duration, Instant};

use unchaff::{Extractor, Input};

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
        algorithm: ex.method().name().to_owned(),
        charset: None,
        error: None,
    };
    match page.body {
        Err(e) => row.error = Some(e),
        Ok(bytes) => {
            let start = Instant::now();
            let r = ex.extract(
                Input::new(&bytes)
                    .with_url(row.url.as_deref())
                    .with_charset(page.charset.as_deref()),
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

/// The default extractor, for tests.
#[cfg(test)]
pub(crate) fn test_extractor() -> Extractor {
    Extractor::new(&unchaff::Options::default()).expect("the default extractor builds")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::article;

    #[test]
    fn rows_of_pages_errors_and_timeouts() {
        let ex = test_extractor();
        let page = Page::new("a", article("A", "apples fall far from trees").into_bytes())
            .with_url(Some("https://a.example/".into()));
        let row = extract_row(&ex, page.clone(), None);
        assert_eq!(row.id, "a");
        assert_eq!(row.url.as_deref(), Some("https://a.example/"));
        assert_eq!(row.title.as_deref(), Some("A"));
        assert!(row.text.as_deref().unwrap().contains("apples fall"));
        assert_eq!(row.algorithm, ex.method().name());
        assert_eq!(row.error, None);

        let row = extract_row(&ex, page, Some(Duration::from_nanos(1)));
        assert_eq!(row.error.unwrap().kind, ErrorKind::Timeout);
        assert_eq!(row.text, None);

        let row = extract_row(&ex, Page::new("e", Vec::new()), None);
        assert_eq!(row.error.unwrap().kind, ErrorKind::Empty);
        let failed = Page::failed("r", PageError::new(ErrorKind::Read, "gone"));
        let row = extract_row(&ex, failed, None);
        assert_eq!(row.error.unwrap().message, "gone");
    }

    #[test]
    fn a_header_charset_beats_the_page() {
        let ex = test_extractor();
        let page = Page::new("c", b"<meta charset=koi8-r><p>\xe0\xe1\xe2".to_vec())
            .with_charset(Some("windows-1251".into()));
        let row = extract_row(&ex, page, None);
        assert_eq!(row.charset.as_deref(), Some("windows-1251"));
    }
}
