//! Stage 1, **decode**: raw bytes → UTF-8 text (ALGORITHMS.md#decoding, §3.1).
//!
//! **Unstable:** public only with the `unstable` feature, for the tools
//! of the unchaff workspace (evaluation, training, explanation); may
//! change in any release. See the crate docs' *Stability*.
//!
//! The order of evidence is the browser's, with two extensions measured on
//! real pages:
//!
//! 1. gzip input (magic bytes `1f 8b`) is inflated first, with a size cap;
//! 2. a byte-order mark;
//! 3. the charset the caller gives (an HTTP `Content-Type` header);
//! 4. a `<meta charset>` / `http-equiv` declaration, searched up to
//!    `</head>` or [`META_SCAN_LIMIT`] bytes — not only the standard's first
//!    1024: 27 of 181 scrapinghub pages declare theirs later, one at byte
//!    69,000, and browsers re-decode when they meet a late declaration;
//! 5. valid UTF-8 (the whole document);
//! 6. statistical detection (chardetng), which forgives a CJK page a few
//!    malformed sequences (a character cut in two) that chardetng alone
//!    would send to windows-1252;
//! 7. windows-1252.
//!
//! A declaration is overruled where it is provably wrong: a page declared
//! UTF-8 whose bytes are not UTF-8 goes to detection; a page declared as a
//! single-byte legacy charset whose bytes are valid UTF-8 with multi-byte
//! sequences is UTF-8 (random legacy text is practically never valid
//! multi-byte UTF-8); and a page whose declared multi-byte charset (GBK,
//! Big5, Shift_JIS, EUC-KR, …) fails to decode it is UTF-8 when the bytes
//! are valid UTF-8, else whatever detection finds if that decodes with
//! fewer errors.
//!
//! Decoding never fails: malformed bytes become U+FFFD.

use std::borrow::Cow;
use std::io::Read;

use encoding_rs::{
    BIG5, EUC_JP, EUC_KR, Encoding, GBK, SHIFT_JIS, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252,
};

use crate::Error;

/// How far into a document to look for a `<meta>` charset declaration.
/// 64 KiB: one real page declares its charset at byte 69,000 of its
/// markup, most late ones within the first 20 KiB (measured on the dev data).
pub const META_SCAN_LIMIT: usize = 64 * 1024;

/// The largest input accepted after decompression, by default (bytes).
/// A 100 MB page is real; a 1 GB one is a decompression bomb or a mistake.
pub const DEFAULT_MAX_INPUT: usize = 256 * 1024 * 1024;

/// How much of a document statistical detection reads: a megabyte of
/// text decides any charset; reading 100 MB would only cost time.
pub const DETECT_SAMPLE: usize = 1024 * 1024;

/// Where the charset came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum CharsetSource {
    /// A byte-order mark.
    Bom,
    /// The caller's label (an HTTP header).
    Caller,
    /// A `<meta>` declaration in the document.
    Meta,
    /// The bytes are valid UTF-8.
    Utf8Valid,
    /// Statistical detection.
    Detected,
    /// Nothing else applied: windows-1252.
    Fallback,
}

/// A decoded document.
#[derive(Debug)]
pub struct Decoded<'a> {
    /// The document as UTF-8: the input itself where it was UTF-8 (or
    /// ASCII in an ASCII-compatible charset), else a decoded copy. Not
    /// copying a valid UTF-8 page saves a copy of the whole page in
    /// memory and time.
    pub text: Cow<'a, str>,
    /// The encoding used.
    pub encoding: &'static Encoding,
    /// Why that encoding.
    pub source: CharsetSource,
    /// Whether malformed byte sequences were replaced by U+FFFD.
    pub had_errors: bool,
}

/// Most layers of gzip inflated: a page gzipped twice (a server that
/// compresses an already compressed file) is read; more layers are
/// nothing a server sends.
pub const MAX_GZIP_LAYERS: usize = 3;

/// The gzip magic bytes.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether `bytes` start like a gzip stream.
fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&GZIP_MAGIC)
}

/// Inflates gzip input (`1f 8b` magic); other input is returned as is.
/// Every member is read; bytes after the last member that are not one
/// (padding, junk) are ignored, as `gzip -d` and browsers do. A page that
/// is gzip again inside is inflated again, up to [`MAX_GZIP_LAYERS`].
/// Fails on a corrupt or truncated member, more layers, or a stream that
/// inflates past `max`.
pub fn gunzip_if_needed(bytes: &[u8], max: usize) -> Result<std::borrow::Cow<'_, [u8]>, Error> {
    if !is_gzip(bytes) {
        return Ok(std::borrow::Cow::Borrowed(bytes));
    }
    let mut out = inflate(bytes, max)?;
    for _ in 1..MAX_GZIP_LAYERS {
        if !is_gzip(&out) {
            return Ok(std::borrow::Cow::Owned(out));
        }
        out = inflate(&out, max)?;
    }
    if is_gzip(&out) {
        return Err(Error::Gzip(format!(
            "more than {MAX_GZIP_LAYERS} layers of gzip"
        )));
    }
    Ok(std::borrow::Cow::Owned(out))
}

/// The members of one gzip stream, inflated back to back (at most `max`
/// bytes, else [`Error::TooLarge`]); what follows the last member is
/// ignored.
fn inflate(bytes: &[u8], max: usize) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(bytes.len().saturating_mul(4).min(max));
    let mut rest = bytes;
    while is_gzip(rest) {
        // Saturating: `usize::MAX` (no limit) must not wrap to a limit of 0.
        let left = (max - out.len()) as u64;
        let mut member = flate2::bufread::GzDecoder::new(rest);
        (&mut member)
            .take(left.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| Error::Gzip(e.to_string()))?;
        if out.len() > max {
            return Err(Error::TooLarge { limit: max });
        }
        // The decoder reads its member's bytes and no more.
        rest = member.into_inner();
    }
    Ok(out)
}

/// Whether `label` names a charset the decoder knows (a WHATWG label, as
/// an HTTP header's `charset=` gives it; case and white space ignored).
/// [`crate::Input::with_charset`] with an unknown label fails the page
/// with [`crate::Error::UnknownCharset`].
pub fn is_known_charset(label: &str) -> bool {
    encoding_for_label(label, false).is_some()
}

/// The encoding for a label, the way browsers map labels: latin1 →
/// windows-1252, gb2312 → GBK, and a declared UTF-16 in a `<meta>` means
/// UTF-8 (the bytes were readable as ASCII to find it).
pub fn encoding_for_label(label: &str, from_meta: bool) -> Option<&'static Encoding> {
    let enc = Encoding::for_label(label.trim().as_bytes())?;
    if from_meta && (enc == UTF_16LE || enc == UTF_16BE) {
        return Some(UTF_8);
    }
    if enc == encoding_rs::X_USER_DEFINED {
        return Some(WINDOWS_1252);
    }
    if enc == encoding_rs::REPLACEMENT {
        // Labels like "iso-2022-kr" map to the replacement encoding, which
        // would turn the whole page into one U+FFFD: detect instead.
        return None;
    }
    Some(enc)
}

/// Decodes `bytes` (already inflated). `caller` is a charset label from
/// outside the document (an HTTP header); an unknown label is an error.
pub fn decode<'a>(bytes: &'a [u8], caller: Option<&str>) -> Result<Decoded<'a>, Error> {
    // 1. Byte-order mark.
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        return Ok(finish(&bytes[bom_len..], enc, CharsetSource::Bom));
    }
    // 2. The caller's label.
    if let Some(label) = caller {
        let enc = encoding_for_label(label, false)
            .ok_or_else(|| Error::UnknownCharset(label.to_owned()))?;
        return Ok(decode_declared(bytes, enc, CharsetSource::Caller));
    }
    // UTF-16 without a BOM cannot carry a readable <meta>; sniff it first.
    if let Some(enc) = sniff_utf16(bytes) {
        return Ok(finish(bytes, enc, CharsetSource::Detected));
    }
    // 3. A <meta> declaration.
    if let Some(enc) = prescan_meta(bytes) {
        return Ok(decode_declared(bytes, enc, CharsetSource::Meta));
    }
    // 4. Valid UTF-8.
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        return Ok(valid_utf8(text, CharsetSource::Utf8Valid));
    }
    // 5. Detection; 6. windows-1252 is chardetng's own last resort.
    Ok(detect(bytes))
}

/// [`decode`] for bytes the caller hands over (inflated gzip input): the
/// text takes them over without a copy when they are valid UTF-8.
pub fn decode_owned(bytes: Vec<u8>, caller: Option<&str>) -> Result<Decoded<'static>, Error> {
    let d = decode(&bytes, caller)?;
    let whole = matches!(&d.text, Cow::Borrowed(t) if t.len() == bytes.len());
    let (encoding, source, had_errors) = (d.encoding, d.source, d.had_errors);
    let text = if whole {
        drop(d);
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    } else {
        d.text.into_owned()
    };
    Ok(Decoded {
        text: Cow::Owned(text),
        encoding,
        source,
        had_errors,
    })
}

/// Decodes with a declared encoding unless the bytes prove it wrong.
fn decode_declared<'a>(
    bytes: &'a [u8],
    enc: &'static Encoding,
    source: CharsetSource,
) -> Decoded<'a> {
    if enc == UTF_8 {
        if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
            return valid_utf8(text, source);
        }
        return detect(bytes);
    }
    let utf8 = if bytes.is_ascii() {
        None
    } else {
        simdutf8::basic::from_utf8(bytes).ok()
    };
    if let Some(text) = utf8.filter(|_| enc.is_single_byte()) {
        return valid_utf8(text, CharsetSource::Utf8Valid);
    }
    let declared = finish(bytes, enc, source);
    if !declared.had_errors {
        return declared;
    }
    // A multi-byte declaration the bytes break (GBK or Big5 declared,
    // UTF-8 sent): 3 of the 34 dev pages with U+FFFD in their text. Valid
    // UTF-8 wins outright. Otherwise detection's guess is taken only when it
    // is another multi-byte encoding that decodes with fewer replacement
    // characters: a page in the declared charset with one cut character
    // disqualifies that charset in the detector, whose fallback is then a
    // single-byte encoding that "decodes" everything into mojibake.
    if let Some(text) = utf8 {
        return valid_utf8(text, CharsetSource::Utf8Valid);
    }
    let detected = detect(bytes);
    if detected.encoding != enc
        && !detected.encoding.is_single_byte()
        && replacements(&detected.text) < replacements(&declared.text)
    {
        return detected;
    }
    declared
}

/// Number of U+FFFD in `s`.
fn replacements(s: &str) -> usize {
    s.matches('\u{FFFD}').count()
}

fn detect(bytes: &[u8]) -> Decoded<'_> {
    if let Some(enc) = sniff_utf16(bytes) {
        return finish(bytes, enc, CharsetSource::Detected);
    }
    let sample = &bytes[..bytes.len().min(DETECT_SAMPLE)];
    let mut enc = guess(
        sample,
        sample.len() == bytes.len(),
        chardetng::Utf8Detection::Allow,
    );
    if enc.is_single_byte()
        && let Some(cjk) = cjk_despite_a_few_errors(sample)
    {
        enc = cjk;
    }
    let source = if enc == WINDOWS_1252 {
        CharsetSource::Fallback
    } else {
        CharsetSource::Detected
    };
    finish(bytes, enc, source)
}

/// The multi-byte CJK encodings [`cjk_despite_a_few_errors`] tries, in
/// chardetng's order of precedence.
const CJK_ENCODINGS: [&Encoding; 5] = [GBK, BIG5, SHIFT_JIS, EUC_KR, EUC_JP];

/// At most one malformed sequence per this many non-ASCII characters is
/// forgiven: a page cut mid-character here and there, not a page in
/// another encoding (which breaks on every few characters).
const FORGIVEN_ERRORS_PER: usize = 100;

/// A CJK encoding that chardetng ruled out for a handful of malformed
/// sequences only: chardetng disqualifies an encoding at the first byte
/// sequence it cannot decode, so one truncated character (a forum title cut
/// at a byte limit) sends a GBK page to windows-1252 and its text to
/// mojibake (one of chinese-wce's 69 pages). For each candidate that decodes
/// the sample with a few errors but not none, the errors are removed and
/// chardetng judges the repaired bytes again; the candidate is taken only
/// if chardetng then picks it. Its language statistics, not this rule, tell
/// Chinese from Latin text that happens to decode.
fn cjk_despite_a_few_errors(sample: &[u8]) -> Option<&'static Encoding> {
    if sample.is_ascii() {
        return None;
    }
    CJK_ENCODINGS.into_iter().find(|&enc| {
        let (text, had_errors) = enc.decode_without_bom_handling(sample);
        if !had_errors {
            return false;
        }
        let errors = replacements(&text);
        let non_ascii = text.chars().filter(|c| !c.is_ascii()).count();
        if errors * FORGIVEN_ERRORS_PER > non_ascii {
            return false;
        }
        let repaired = text.replace('\u{FFFD}', "");
        let (bytes, _, unmappable) = enc.encode(&repaired);
        if unmappable {
            return false;
        }
        guess(&bytes, true, chardetng::Utf8Detection::Deny) == enc
    })
}

/// ASCII bytes fed to detection on each side of a run of non-ASCII bytes;
/// the ASCII between two such windows is skipped. chardetng scores only
/// pairs of bytes with a non-ASCII one in them, and every state it keeps
/// (the previous byte's class, the case of the current word, the length
/// of a word of non-ASCII letters, a multi-byte sequence in progress) is
/// set again by the last two or three ASCII bytes, so after a few ASCII
/// bytes its state no longer depends on what came before them: skipping
/// the middle of a long ASCII run changes no score. 16 is several times
/// what the state needs; feeding the whole document instead made
/// detection 40–56% of the time on folders of undeclared legacy pages,
/// whose bytes are mostly ASCII markup (docs/BENCHMARKS.md). The data test
/// `data_charset` checks that every dev page gets the same guess both ways.
pub const DETECT_ASCII_CONTEXT: usize = 16;

/// Non-ASCII bytes after which detection stops reading: 8 KiB of
/// non-ASCII text (some 2,700 CJK characters, or thousands of accented
/// letters) settle chardetng's guess; a Chinese page is mostly non-ASCII,
/// and reading all of it made detection 45 million instructions a page on
/// chinese-wce. The data test `data_charset` checks that every dev page
/// gets the same guess as from its whole sample.
pub const DETECT_NON_ASCII_ENOUGH: usize = 8 * 1024;

/// chardetng's guess for `sample` (`last`: it is the whole document),
/// feeding it the non-ASCII runs with [`DETECT_ASCII_CONTEXT`] ASCII bytes
/// on either side and the document's last bytes, not the long ASCII
/// stretches between them, and no more than [`DETECT_NON_ASCII_ENOUGH`]
/// non-ASCII bytes (then the document's end is not read).
pub fn guess(sample: &[u8], last: bool, utf8: chardetng::Utf8Detection) -> &'static Encoding {
    const W: usize = DETECT_ASCII_CONTEXT;
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    // The bytes from `seg` to `at` are still to be fed, as one stretch;
    // `at` is the end of a non-ASCII run (or 0).
    let mut seg = 0;
    let mut at = 0;
    let mut non_ascii = 0;
    loop {
        if non_ascii >= DETECT_NON_ASCII_ENOUGH {
            // With the ASCII that follows (a GBK or Big5 trail byte).
            det.feed(&sample[seg..(at + W).min(sample.len())], false);
            return det.guess(None, utf8);
        }
        let run_start = at + Encoding::ascii_valid_up_to(&sample[at..]);
        if run_start == sample.len() {
            break;
        }
        let run_end = sample[run_start..]
            .iter()
            .position(u8::is_ascii)
            .map_or(sample.len(), |p| run_start + p);
        non_ascii += run_end - run_start;
        let context_start = run_start.saturating_sub(W);
        // Before the first run, chardetng itself keeps only two bytes.
        let skip_from = if at == 0 { 0 } else { at + W };
        if context_start > skip_from {
            det.feed(&sample[seg..skip_from], false);
            seg = context_start;
        }
        at = run_end;
    }
    // The ASCII after the last run, and the document's last bytes as they
    // are (a cut character at the very end matters to the guess).
    if sample.len() - at > 2 * W {
        det.feed(&sample[seg..at + W], false);
        seg = sample.len() - W;
    }
    det.feed(&sample[seg..], last);
    det.guess(None, utf8)
}

/// [`finish`] for bytes already checked to be UTF-8 (no second pass).
fn valid_utf8(text: &str, source: CharsetSource) -> Decoded<'_> {
    Decoded {
        text: Cow::Borrowed(text),
        encoding: UTF_8,
        source,
        had_errors: false,
    }
}

fn finish<'a>(bytes: &'a [u8], enc: &'static Encoding, source: CharsetSource) -> Decoded<'a> {
    let (text, had_errors) = enc.decode_without_bom_handling(bytes);
    Decoded {
        text,
        encoding: enc,
        source,
        had_errors,
    }
}

/// UTF-16 without a byte-order mark: markup is mostly ASCII, so one byte of
/// each pair is zero. Looks at the first 1024 bytes: at least 40% of the
/// high bytes zero and under 5% of the low bytes.
pub fn sniff_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(1024) & !1];
    if head.len() < 16 {
        return None;
    }
    let pairs = head.len() / 2;
    let even_zero = head.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd_zero = head.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    if odd_zero * 10 >= pairs * 4 && even_zero * 20 < pairs {
        Some(UTF_16LE)
    } else if even_zero * 10 >= pairs * 4 && odd_zero * 20 < pairs {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// Finds a `<meta charset=…>` or `<meta http-equiv=content-type
/// content="…charset=…">` before `</head>`, `<body` or [`META_SCAN_LIMIT`].
pub fn prescan_meta(bytes: &[u8]) -> Option<&'static Encoding> {
    let hay = &bytes[..bytes.len().min(META_SCAN_LIMIT)];
    let mut i = 0;
    while let Some(off) = memchr_lt(&hay[i..]) {
        let at = i + off;
        let rest = &hay[at + 1..];
        if starts_with_ci(rest, b"meta") && rest.len() > 4 && is_attr_sep(rest[4]) {
            let end = tag_end(rest);
            if let Some(enc) = charset_from_meta(&rest[4..end]) {
                return Some(enc);
            }
            i = at + 1 + end;
            continue;
        }
        if starts_with_ci(rest, b"/head")
            || (starts_with_ci(rest, b"body") && rest.len() > 4 && is_attr_sep(rest[4]))
        {
            return None;
        }
        if rest.starts_with(b"!--") {
            // Skip comments: a commented-out declaration does not count.
            match find(&rest[3..], b"-->") {
                Some(e) => {
                    i = at + 1 + 3 + e + 3;
                    continue;
                }
                None => return None,
            }
        }
        i = at + 1;
    }
    None
}

fn memchr_lt(s: &[u8]) -> Option<usize> {
    s.iter().position(|&b| b == b'<')
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn starts_with_ci(s: &[u8], prefix: &[u8]) -> bool {
    s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(prefix)
}

fn is_attr_sep(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>')
}

/// Index of the `>` that closes a tag (quotes respected), or the end.
fn tag_end(s: &[u8]) -> usize {
    let mut quote = 0u8;
    for (i, &b) in s.iter().enumerate() {
        if quote != 0 {
            if b == quote {
                quote = 0;
            }
        } else if b == b'"' || b == b'\'' {
            quote = b;
        } else if b == b'>' {
            return i;
        }
    }
    s.len()
}

/// Reads a `<meta>` tag's attributes (the bytes between `meta` and `>`).
fn charset_from_meta(attrs: &[u8]) -> Option<&'static Encoding> {
    let mut charset: Option<&[u8]> = None;
    let mut content: Option<&[u8]> = None;
    let mut http_equiv_ct = false;
    let mut i = 0;
    while i < attrs.len() {
        while i < attrs.len() && (attrs[i].is_ascii_whitespace() || attrs[i] == b'/') {
            i += 1;
        }
        let name_start = i;
        while i < attrs.len()
            && !attrs[i].is_ascii_whitespace()
            && attrs[i] != b'='
            && attrs[i] != b'/'
        {
            i += 1;
        }
        let name = &attrs[name_start..i];
        while i < attrs.len() && attrs[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value: &[u8] = b"";
        if i < attrs.len() && attrs[i] == b'=' {
            i += 1;
            while i < attrs.len() && attrs[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < attrs.len() && (attrs[i] == b'"' || attrs[i] == b'\'') {
                let q = attrs[i];
                let vs = i + 1;
                let ve = attrs[vs..]
                    .iter()
                    .position(|&b| b == q)
                    .map_or(attrs.len(), |p| vs + p);
                value = &attrs[vs..ve];
                i = (ve + 1).min(attrs.len());
            } else {
                let vs = i;
                while i < attrs.len() && !attrs[i].is_ascii_whitespace() {
                    i += 1;
                }
                value = &attrs[vs..i];
            }
        }
        if name.is_empty() {
            i += 1;
            continue;
        }
        if name.eq_ignore_ascii_case(b"charset") && charset.is_none() {
            charset = Some(value);
        } else if name.eq_ignore_ascii_case(b"content") && content.is_none() {
            content = Some(value);
        } else if name.eq_ignore_ascii_case(b"http-equiv")
            && value.trim_ascii().eq_ignore_ascii_case(b"content-type")
        {
            http_equiv_ct = true;
        }
    }
    if let Some(enc) = charset
        .and_then(|cs| std::str::from_utf8(cs).ok())
        .and_then(|l| encoding_for_label(l, true))
    {
        return Some(enc);
    }
    // Like browsers, read content="…charset=…" only with
    // http-equiv="content-type".
    if !http_equiv_ct {
        return None;
    }
    content
        .and_then(charset_in_content)
        .and_then(|label| std::str::from_utf8(label).ok())
        .and_then(|l| encoding_for_label(l, true))
}

/// The value after `charset=` in a `content` attribute.
fn charset_in_content(content: &[u8]) -> Option<&[u8]> {
    let lower: Vec<u8> = content.to_ascii_lowercase();
    let pos = find(&lower, b"charset")?;
    let mut i = pos + 7;
    while i < content.len() && content[i].is_ascii_whitespace() {
        i += 1;
    }
    if i >= content.len() || content[i] != b'=' {
        return None;
    }
    i += 1;
    while i < content.len() && content[i].is_ascii_whitespace() {
        i += 1;
    }
    let (start, end_pred): (usize, fn(u8) -> bool) = match content.get(i) {
        Some(b'"') => (i + 1, |b| b == b'"'),
        Some(b'\'') => (i + 1, |b| b == b'\''),
        _ => (i, |b: u8| b.is_ascii_whitespace() || b == b';'),
    };
    let end = content[start..]
        .iter()
        .position(|&b| end_pred(b))
        .map_or(content.len(), |p| start + p);
    if end > start {
        Some(&content[start..end])
    } else {
        None
    }
}

/// Share of control bytes in the first [`BINARY_SNIFF_BYTES`] above which
/// input is called binary: real HTML has none, stray ones come in ones and
/// twos; random bytes have ~10%, images and archives far more.
pub const BINARY_CONTROL_PERCENT: u32 = 2;

/// How much of the input the binary check reads.
pub const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// Fewest control bytes that make input binary: a short text with a few
/// stray control characters is still text.
pub const BINARY_MIN_CONTROLS: usize = 32;

/// [`BINARY_MIN_CONTROLS`] for what came out of gzip: a compressed page is
/// a page, and 200 random bytes gzipped (about 21 control bytes) came out
/// as garbage text with no error (issue 41).
pub const BINARY_MIN_CONTROLS_GZIP: usize = 4;

/// The whole stage for one page: the size limit, gunzip, the binary
/// check ([`check_not_binary`]), the charset and decoding. The text borrows the input where the input is UTF-8, and owns the
/// inflated bytes of gzip input (no copy of the page either way).
pub fn decode_page<'a>(
    bytes: PageBytes<'a>,
    charset: Option<&str>,
    max: usize,
) -> Result<Decoded<'a>, Error> {
    if bytes.len() > max {
        return Err(Error::TooLarge { limit: max });
    }
    let (raw, gzipped) = match bytes {
        PageBytes::Borrowed(b) => {
            let raw = gunzip_if_needed(b, max)?;
            let gzipped = matches!(raw, std::borrow::Cow::Owned(_));
            (raw, gzipped)
        }
        PageBytes::Owned(b) => {
            let inflated = match gunzip_if_needed(&b, max)? {
                std::borrow::Cow::Owned(inflated) => Some(inflated),
                std::borrow::Cow::Borrowed(_) => None,
            };
            let gzipped = inflated.is_some();
            (std::borrow::Cow::Owned(inflated.unwrap_or(b)), gzipped)
        }
    };
    if raw.is_empty() {
        return Err(Error::EmptyInput);
    }
    // What came out of gzip was compressed on purpose: a page, not a few
    // stray control bytes in a short text.
    let min_controls = match gzipped {
        true => BINARY_MIN_CONTROLS_GZIP,
        false => BINARY_MIN_CONTROLS,
    };
    let is_utf16 = |d: &Decoded<'_>| matches!(d.encoding.name(), "UTF-16LE" | "UTF-16BE");
    match raw {
        std::borrow::Cow::Borrowed(raw) => {
            let decoded = decode(raw, charset)?;
            if !is_utf16(&decoded) {
                check_not_binary(raw, min_controls)?;
            }
            Ok(decoded)
        }
        std::borrow::Cow::Owned(raw) => {
            let binary = check_not_binary(&raw, min_controls);
            let decoded = decode_owned(raw, charset)?;
            if !is_utf16(&decoded) {
                binary?;
            }
            Ok(decoded)
        }
    }
}

/// A page's bytes: lent by the caller, or handed over
/// ([`crate::Extractor::extract_owned`]).
#[derive(Debug)]
pub enum PageBytes<'a> {
    /// Lent: the decoded text borrows them where they are UTF-8.
    Borrowed(&'a [u8]),
    /// Handed over: a UTF-8 page is decoded in place.
    Owned(Vec<u8>),
}

impl PageBytes<'_> {
    /// How many bytes.
    pub fn len(&self) -> usize {
        match self {
            PageBytes::Borrowed(b) => b.len(),
            PageBytes::Owned(b) => b.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Fails on input whose first bytes hold more than
/// [`BINARY_CONTROL_PERCENT`] control characters, and at least
/// `min_controls` of them.
pub fn check_not_binary(bytes: &[u8], min_controls: usize) -> Result<(), Error> {
    let head = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b))
        .count();
    let percent = (controls * 100 / head.len().max(1)) as u32;
    if controls >= min_controls && controls * 100 > head.len() * BINARY_CONTROL_PERCENT as usize {
        return Err(Error::Binary { percent });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_wins() {
        let mut b = vec![0xEF, 0xBB, 0xBF];
        b.extend_from_slice("<meta charset=windows-1252>é".as_bytes());
        let d = decode(&b, None).unwrap();
        assert_eq!(d.encoding, UTF_8);
        assert_eq!(d.source, CharsetSource::Bom);
        assert!(d.text.ends_with('é'));
    }

    #[test]
    fn utf16_bom() {
        let mut b = vec![0xFF, 0xFE];
        for u in "<p>hé</p>".encode_utf16() {
            b.extend_from_slice(&u.to_le_bytes());
        }
        let d = decode(&b, None).unwrap();
        assert_eq!(d.text, "<p>hé</p>");
    }

    #[test]
    fn utf16_without_bom() {
        for (enc, big) in [(UTF_16LE, false), (UTF_16BE, true)] {
            let mut b = Vec::new();
            for u in "<html><body><p>Grüße aus Köln</p></body></html>".encode_utf16() {
                b.extend_from_slice(&if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                });
            }
            let d = decode(&b, None).unwrap();
            assert_eq!(d.encoding, enc);
            assert!(d.text.contains("Grüße aus Köln"));
        }
    }

    #[test]
    fn caller_charset_and_unknown_label() {
        let d = decode(b"caf\xe9", Some("iso-8859-1")).unwrap();
        assert_eq!(d.text, "café");
        assert_eq!(d.source, CharsetSource::Caller);
        assert!(matches!(
            decode(b"x", Some("no-such-charset")),
            Err(Error::UnknownCharset(_))
        ));
    }

    #[test]
    fn meta_charset_forms() {
        assert_eq!(
            prescan_meta(b"<head><meta charset=\"gbk\">"),
            Some(encoding_rs::GBK)
        );
        assert_eq!(
            prescan_meta(b"<META CHARSET=gb2312 />"),
            Some(encoding_rs::GBK)
        );
        assert_eq!(
            prescan_meta(
                b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">"
            ),
            Some(encoding_rs::WINDOWS_1251)
        );
        assert_eq!(
            prescan_meta(b"<meta content='text/html;charset=koi8-r' http-equiv='content-type'>"),
            Some(encoding_rs::KOI8_R)
        );
        // A declared UTF-16 in a meta tag means UTF-8.
        assert_eq!(prescan_meta(b"<meta charset=utf-16>"), Some(UTF_8));
        // After </head>, in a comment, or without http-equiv: not a declaration.
        assert_eq!(prescan_meta(b"<head></head><meta charset=gbk>"), None);
        assert_eq!(prescan_meta(b"<!-- <meta charset=gbk> -->"), None);
        assert_eq!(prescan_meta(b"<meta content=\"charset=gbk\">"), None);
    }

    #[test]
    fn late_meta_is_honoured() {
        let mut page = b"<html><head>".to_vec();
        page.extend(std::iter::repeat_n(b' ', 5000));
        page.extend_from_slice(b"<meta charset=windows-1251></head><body>\xcf\xf0\xe8\xe2\xe5\xf2");
        let d = decode(&page, None).unwrap();
        assert_eq!(d.encoding, encoding_rs::WINDOWS_1251);
        assert!(d.text.ends_with("Привет"));
    }

    #[test]
    fn declared_utf8_but_not_utf8_is_detected() {
        let text = "这是一个用于测试的中文句子，内容足够长以便统计检测能够判断编码。".repeat(4);
        let (gbk, _, _) = encoding_rs::GBK.encode(&text);
        let mut page = b"<meta charset=utf-8><p>".to_vec();
        page.extend_from_slice(&gbk);
        let d = decode(&page, None).unwrap();
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert!(d.text.contains("中文句子"));
    }

    #[test]
    fn declared_latin1_but_utf8_is_utf8() {
        let page = "<meta charset=iso-8859-1><p>naïve café</p>".as_bytes();
        let d = decode(page, None).unwrap();
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.contains("naïve café"));
    }

    #[test]
    fn undeclared_legacy_falls_back() {
        let d = decode(b"<p>caf\xe9 cr\xe8me br\xfbl\xe9e</p>", None).unwrap();
        assert!(d.text.contains("café crème brûlée"), "{}", d.text);
        assert!(!d.had_errors);
    }

    #[test]
    fn invalid_bytes_become_replacement() {
        // A Shift_JIS page with one cut character (lead byte 0x82, then
        // `<`): detection agrees it is Shift_JIS, so the declaration stands
        // and the broken byte becomes U+FFFD.
        let text = LEGACY.iter().find(|l| l.0 == "shift_jis").unwrap().1;
        let mut page = b"<meta charset=shift_jis><p>".to_vec();
        page.extend(encode("shift_jis", text));
        page.extend_from_slice(b"\x82</p><p>");
        page.extend(encode("shift_jis", text));
        let d = decode(&page, None).unwrap();
        assert_eq!(d.encoding, encoding_rs::SHIFT_JIS);
        assert!(d.text.contains('\u{FFFD}'));
        assert!(d.text.contains(text));
    }

    /// Text in each legacy encoding the issue lists: a few sentences
    /// written for the test, in a language the encoding serves.
    const LEGACY: &[(&str, &str)] = &[
        (
            "windows-1256",
            "هذا نص عربي مكتوب للاختبار، وفيه كلمات فارسية مثل پدر و چشم و گل. نقرأ الأخبار كل يوم في الصباح.",
        ),
        (
            "windows-1252",
            "Les élèves étaient déjà là, à côté du théâtre; Straße, Größe, smørrebrød — «naïve» façade.",
        ),
        (
            "iso-8859-2",
            "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy. Árvíztűrő tükörfúrógép.",
        ),
        (
            "iso-8859-5",
            "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний.",
        ),
        (
            "iso-8859-7",
            "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Η γρήγορη καφέ αλεπού πηδά πάνω από τον τεμπέλη σκύλο.",
        ),
        (
            "gb18030",
            "这是一个用于测试的中文句子，内容足够长以便统计检测能够判断编码。我们每天早上读新闻，晚上写日记。",
        ),
        (
            "gbk",
            "今天天气很好，我们一起去公园散步，看到了很多美丽的花朵和高大的树木，心情非常愉快。",
        ),
        (
            "big5",
            "這是一個用於測試的繁體中文句子，內容足夠長以便統計檢測能夠判斷編碼。我們每天早上讀新聞。",
        ),
        (
            "shift_jis",
            "これはテスト用の日本語の文章です。毎朝ニュースを読み、夜には日記を書きます。東京は晴れです。",
        ),
        (
            "euc-kr",
            "이것은 시험을 위한 한국어 문장입니다. 우리는 매일 아침 뉴스를 읽고 저녁에는 일기를 씁니다.",
        ),
        (
            "koi8-r",
            "Съешь же ещё этих мягких французских булок, да выпей чаю. В чащах юга жил бы цитрус.",
        ),
    ];

    fn encode(label: &str, text: &str) -> Vec<u8> {
        let enc = Encoding::for_label(label.as_bytes()).unwrap();
        let (bytes, _, unmappable) = enc.encode(text);
        assert!(!unmappable, "{label} cannot encode the test text");
        bytes.into_owned()
    }

    #[test]
    fn every_legacy_encoding_decodes_when_declared() {
        for &(label, text) in LEGACY {
            let mut page =
                format!("<html><head><meta charset={label}></head><body><p>").into_bytes();
            page.extend(encode(label, text));
            let d = decode(&page, None).unwrap();
            assert!(!d.had_errors, "{label}");
            assert!(d.text.contains(text), "{label}: {}", d.text);
            // And given by the caller, as an HTTP header would.
            let bytes = encode(label, text);
            let d = decode(&bytes, Some(label)).unwrap();
            assert_eq!(d.text, text, "{label}");
        }
    }

    #[test]
    fn every_legacy_encoding_is_detected_undeclared() {
        for &(label, text) in LEGACY {
            let mut page = b"<html><body><p>".to_vec();
            page.extend(encode(label, &text.repeat(3)));
            let d = decode(&page, None).unwrap();
            assert!(
                d.text.contains(text),
                "{label} → {}: {}",
                d.encoding.name(),
                d.text
            );
        }
    }

    /// chardetng's guess over the whole sample, as detection was before
    /// [`guess`] skipped long ASCII stretches.
    fn guess_whole(sample: &[u8], last: bool, utf8: chardetng::Utf8Detection) -> &'static Encoding {
        let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
        det.feed(sample, last);
        det.guess(None, utf8)
    }

    #[test]
    fn skipping_ascii_stretches_keeps_every_guess() {
        // Each legacy text cut into pieces between long runs of markup,
        // words and letters next to the non-ASCII bytes, a cut character at
        // the end; near ties (a few non-ASCII bytes) included.
        let fillers: [&[u8]; 4] = [
            b"<div class=\"nav item\"><a href=\"/x/y\">Home</a></div>\n",
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz ",
            b"N\xba1 3\xaa M\xaa ",
            b"x",
        ];
        let mut checked = 0;
        for &(label, text) in LEGACY {
            let bytes = encode(label, text);
            for filler in fillers {
                for reps in [0usize, 1, 3, 20] {
                    for piece in [1usize, 2, 7, 40, bytes.len()] {
                        let mut page = Vec::new();
                        for chunk in bytes.chunks(piece) {
                            page.extend(std::iter::repeat_n(filler, reps).flatten());
                            page.extend_from_slice(chunk);
                        }
                        for end in [&b""[..], b"\x81", b"</p>\xe9"] {
                            let mut p = page.clone();
                            p.extend_from_slice(end);
                            for last in [true, false] {
                                for utf8 in [
                                    chardetng::Utf8Detection::Allow,
                                    chardetng::Utf8Detection::Deny,
                                ] {
                                    assert_eq!(
                                        guess(&p, last, utf8),
                                        guess_whole(&p, last, utf8),
                                        "{label} piece {piece} reps {reps}"
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 1000);
        // Pure ASCII, and UTF-8 between long ASCII runs.
        let ascii = b"<p>plain</p>".repeat(50);
        assert_eq!(
            guess(&ascii, true, chardetng::Utf8Detection::Allow),
            guess_whole(&ascii, true, chardetng::Utf8Detection::Allow)
        );
        let utf8 = format!("{}é{}", "a".repeat(100), "b".repeat(100));
        assert_eq!(
            guess(utf8.as_bytes(), true, chardetng::Utf8Detection::Allow),
            UTF_8
        );
    }

    #[test]
    fn owned_utf8_is_taken_over_not_copied() {
        let pages: [&[u8]; 4] = [
            "<p>naïve café</p>".as_bytes(),
            b"\xef\xbb\xbf<p>bom</p>",
            b"<p>caf\xe9</p>",
            b"<meta charset=windows-1251><p>\xcf\xf0",
        ];
        for page in pages {
            let borrowed = decode(page, None).unwrap();
            let owned = decode_owned(page.to_vec(), None).unwrap();
            assert_eq!(owned.text, borrowed.text);
            assert_eq!(owned.encoding, borrowed.encoding);
            assert_eq!(owned.source, borrowed.source);
        }
        // Valid UTF-8: the text is the input, borrowed or taken over.
        let page = "<p>naïve café</p>".as_bytes();
        assert!(matches!(decode(page, None).unwrap().text, Cow::Borrowed(_)));
        let bytes = page.to_vec();
        let at = bytes.as_ptr();
        assert_eq!(decode_owned(bytes, None).unwrap().text.as_ptr(), at);
    }

    #[test]
    fn declared_gbk_but_utf8_is_utf8() {
        let text = "这是一个用于测试的中文句子，内容足够长以便统计检测能够判断编码。";
        let page = format!("<meta charset=gbk><p>{text}");
        let d = decode(page.as_bytes(), None).unwrap();
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.contains(text));
    }

    #[test]
    fn declared_euc_kr_but_gbk_is_detected() {
        // GBK bytes break EUC-KR (trail bytes 0x40, 0x5B–0x60, 0x7B–0x7E);
        // detection finds GBK, which decodes them cleanly. (Big5 declared
        // as GBK cannot be caught this way: Big5 bytes are valid GBK.)
        let text = LEGACY.iter().find(|l| l.0 == "gbk").unwrap().1.repeat(3);
        let mut page = b"<meta charset=euc-kr><p>".to_vec();
        page.extend(encode("gbk", &text));
        let d = decode(&page, None).unwrap();
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert!(d.text.contains(&text));
    }

    #[test]
    fn undeclared_cjk_with_a_cut_character_is_still_detected() {
        // Each CJK page with one character cut in two (its lead byte, then
        // `<`), undeclared: chardetng alone rules the encoding out and falls
        // back to a single-byte one.
        // (chardetng forgives EUC-KR such a byte by itself.)
        for label in ["gbk", "big5", "shift_jis"] {
            let text = LEGACY.iter().find(|l| l.0 == label).unwrap().1.repeat(3);
            let mut page = b"<html><body><p>".to_vec();
            page.extend(encode(label, &text));
            page.extend_from_slice(b"\x81</p><p>");
            page.extend(encode(label, &text));
            let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            det.feed(&page, true);
            let alone = det.guess(None, chardetng::Utf8Detection::Allow);
            let d = decode(&page, None).unwrap();
            assert!(d.text.contains(&text), "{label} → {}", d.encoding.name());
            assert_eq!(d.source, CharsetSource::Detected, "{label}");
            assert!(d.had_errors);
            assert!(
                alone.is_single_byte(),
                "{label}: chardetng found {}",
                alone.name()
            );
        }
        // Latin text with a stray byte stays Latin: it decodes as GBK
        // with errors on most accents, and is not Chinese to chardetng.
        let latin = LEGACY.iter().find(|l| l.0 == "windows-1252").unwrap().1;
        let mut page = b"<p>".to_vec();
        page.extend(encode("windows-1252", &latin.repeat(3)));
        page.extend_from_slice(b"\x81<");
        let d = decode(&page, None).unwrap();
        assert!(d.encoding.is_single_byte(), "{}", d.encoding.name());
        assert!(d.text.contains(latin));
    }

    /// Issue 41: a gzip stream followed by junk was refused; a page
    /// gzipped twice came out as compressed bytes.
    #[test]
    fn gzip_followed_by_junk_and_gzip_in_gzip() {
        use std::io::Write;
        let gz = |b: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(b).unwrap();
            e.finish().unwrap()
        };
        let page: &[u8] = b"<p>zipped</p>";
        for junk in [&b"junk after the member\n"[..], b"\0\0\0\0", b"\x1f"] {
            let mut bytes = gz(page);
            bytes.extend_from_slice(junk);
            assert_eq!(
                &*gunzip_if_needed(&bytes, 1 << 20).unwrap(),
                page,
                "{junk:?}"
            );
        }
        // Two members, then junk: both members.
        let mut two = gz(b"<p>one</p>");
        two.extend(gz(b"<p>two</p>"));
        two.extend_from_slice(b"tail");
        assert_eq!(
            &*gunzip_if_needed(&two, 1 << 20).unwrap(),
            b"<p>one</p><p>two</p>"
        );
        // Gzip inside gzip, up to three layers; more is an error.
        let mut layered = page.to_vec();
        for layers in 1..=MAX_GZIP_LAYERS + 1 {
            layered = gz(&layered);
            let got = gunzip_if_needed(&layered, 1 << 20);
            match layers <= MAX_GZIP_LAYERS {
                true => assert_eq!(&*got.unwrap(), page, "{layers} layers"),
                false => assert!(matches!(got, Err(Error::Gzip(_))), "{layers} layers"),
            }
        }
        // The limit holds over the members and the layers.
        let mut big = gz(&[b'a'; 600]);
        big.extend(gz(&[b'b'; 600]));
        assert!(matches!(
            gunzip_if_needed(&big, 1000),
            Err(Error::TooLarge { limit: 1000 })
        ));
        assert!(matches!(
            gunzip_if_needed(&gz(&gz(&[b'a'; 2000])), 1000),
            Err(Error::TooLarge { limit: 1000 })
        ));
    }

    #[test]
    fn gzip_in_and_truncated() {
        use std::io::Write;
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(b"<p>zipped</p>").unwrap();
        let gz = enc.finish().unwrap();
        assert_eq!(&*gunzip_if_needed(&gz, 1 << 20).unwrap(), b"<p>zipped</p>");
        assert!(matches!(
            gunzip_if_needed(&gz[..gz.len() - 6], 1 << 20),
            Err(Error::Gzip(_))
        ));
        assert!(matches!(
            gunzip_if_needed(&gz, 4),
            Err(Error::TooLarge { .. })
        ));
        assert_eq!(&*gunzip_if_needed(b"plain", 10).unwrap(), b"plain");
        // No limit at all: everything, not nothing.
        assert_eq!(
            &*gunzip_if_needed(&gz, usize::MAX).unwrap(),
            b"<p>zipped</p>"
        );
    }
}
