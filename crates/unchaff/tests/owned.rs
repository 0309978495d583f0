//! `Extractor::extract_owned` (the bytes handed over, the decoded page
//! freed once parsed where the algorithm does not read it) gives the same
//! extraction as `Extractor::extract`, for every algorithm and every kind
//! of input: UTF-8, a byte-order mark, gzip, a legacy charset, an outside
//! charset, a page rescued from `<noscript>`, and the input errors.

use std::io::Write;

use unchaff::{Error, Extractor, Format, Method, Options};

fn pages() -> Vec<(&'static str, Vec<u8>)> {
    let article = "<html><head><title>T</title></head><body><nav><a href=/>Home</a> \
        <a href=/b>Blog</a></nav><article><h1>Heading</h1><p>First paragraph of \
        the article, long enough to be content, with a comma, and more words.</p>\
        <p>Second paragraph, also long: the quick brown fox jumps over the lazy \
        dog &amp; friends.</p></article><footer>Copyright</footer></body></html>";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(article.as_bytes()).unwrap();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(article.as_bytes());
    let latin1 = b"<meta charset=iso-8859-1><title>caf\xe9</title><p>cr\xe8me br\xfbl\xe9e, \
        a paragraph long enough to be the content of this small page.</p>"
        .to_vec();
    let noscript = "<body><noscript><p>The whole post is here, for clients without \
        JavaScript: a long paragraph with enough text to rescue the page, and more \
        words after that to pass the threshold of two hundred characters of text \
        that the rescue asks for before it takes the second tree.</p></noscript></body>";
    vec![
        ("utf-8", article.as_bytes().to_vec()),
        ("bom", bom),
        ("gzip", gz.finish().unwrap()),
        ("latin-1", latin1),
        ("noscript", noscript.as_bytes().to_vec()),
    ]
}

#[test]
fn owned_bytes_give_the_same_extraction() {
    for &method in Method::ALL {
        let opts = Options::default()
            .with_method(method)
            .with_format(Format::Json)
            .with_json_html(true)
            .with_metadata(true);
        let ex = Extractor::new(&opts).unwrap();
        for (name, page) in pages() {
            for charset in [None, Some("windows-1252")] {
                let lent = ex
                    .extract(
                        unchaff::Input::new(&page)
                            .with_url(Some("https://example.org/a"))
                            .with_charset(charset),
                    )
                    .unwrap();
                let owned = ex
                    .extract_owned(page.clone(), Some("https://example.org/a"), charset)
                    .unwrap();
                assert_eq!(
                    lent.to_json(),
                    owned.to_json(),
                    "{} on {name}, charset {charset:?}",
                    method.name()
                );
                assert_eq!(lent.render(), owned.rendered());
            }
        }
    }
}

#[test]
fn owned_bytes_give_the_same_errors() {
    let ex = Extractor::new(&Options::default().with_max_input_bytes(1000)).unwrap();
    assert!(matches!(
        ex.extract_owned(Vec::new(), None, None),
        Err(Error::EmptyInput)
    ));
    assert!(matches!(
        ex.extract_owned(vec![b'a'; 1001], None, None),
        Err(Error::TooLarge { limit: 1000 })
    ));
    let junk: Vec<u8> = (0u32..900)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let lent = ex.extract(&junk[..]).unwrap_err().to_string();
    let owned = ex.extract_owned(junk, None, None).unwrap_err().to_string();
    assert_eq!(lent, owned);
}
