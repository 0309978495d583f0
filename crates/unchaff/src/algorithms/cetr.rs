//! **CETR** — content extraction via tag ratios (Weninger, Hsu, Han,
//! WWW 2010), a reference algorithm of paper 1's Table 1 (ALGORITHMS.md#reference-algorithms)
//! (ALGORITHMS.md#reference-algorithms, "CETR").
//!
//! CETR reads the lines of the decoded HTML source ([`Page::source`]), not
//! the tree:
//!
//! 1. `<script>`, `<style>` and comments are cut out by a linear scanner
//!    ([`strip_source`]);
//! 2. a source with few line breaks — mean non-empty line longer than
//!    [`REWRAP_MEAN`] characters — is re-wrapped: a break goes after the
//!    first `>` that comes [`REWRAP_WIDTH`] or more characters after the
//!    previous break ([`rewrap`]);
//! 3. TR_l = text characters / tags on line l ([`line_ratios`]; a line
//!    without a tag counts 1 tag). Text characters are the non-white-space
//!    characters outside tags, so indentation is not text. A tag is `<`
//!    followed by a letter, `/`, `!` or `?`, up to the next `>` (quotes are
//!    not tracked); a tag open across a line break continues on the next
//!    line and counts on the line it opens on;
//! 4. T′ = TR smoothed by a normalised Gaussian kernel, σ = [`SMOOTH_SIGMA`],
//!    radius [`SMOOTH_RADIUS`] (weights renormalised at the ends);
//! 5. G_l = |mean(T′_{l+1} … T′_{l+α}) − T′_l|, α = [`ALPHA`] (fewer lines
//!    near the end; 0 on the last line), smoothed like TR into G′;
//! 6. `cetr`: k-means with k = 3 on (T′, G′), one centroid pinned at the
//!    origin, the free ones started at the point of largest norm and at the
//!    mean; lines outside the origin's cluster are content. `cetr-km`: the
//!    same on T′ alone. `cetr-tm`: content when T′ > λ·σ(T′).
//!
//! The output is the tag-stripped text of the content lines, one line
//! each, with character references decoded ([`decode_entities`]: numeric
//! ones and the common named ones) and white space collapsed. Source lines
//! do not map onto DOM nodes, so the [`Selection`] carries this text
//! ([`Selection::text`]) and no nodes.
//!
//! Cost: every stage is one pass over the source or the lines; k-means runs
//! at most [`KMEANS_ROUNDS`] rounds of O(lines).

use super::{Algorithm, Param, Params, Selection, mean_std};
use crate::Error;
use crate::annotate::Page;
use crate::text::collapse_whitespace as collapse;

/// Re-wrap when the mean non-empty line is longer than 200 characters
/// (ALGORITHMS.md#reference-algorithms's example rule).
pub const REWRAP_MEAN: f64 = 200.0;
/// Re-wrap at the first `>` at least 65 characters after the last break
/// (ALGORITHMS.md#reference-algorithms: "about every 65 characters, at the next `>`").
pub const REWRAP_WIDTH: usize = 65;
/// Gaussian smoothing σ = 1 (CETR paper's choice, ALGORITHMS.md#reference-algorithms).
pub const SMOOTH_SIGMA: f64 = 1.0;
/// Smoothing radius 3 = 3σ: the kernel's weight beyond it is < 1.2%.
pub const SMOOTH_RADIUS: usize = 3;
/// α = 3, the derivative's look-ahead (CETR paper, ALGORITHMS.md#reference-algorithms).
pub const ALPHA: usize = 3;
/// k = 3 clusters, one pinned at the origin (CETR paper).
pub const K: usize = 3;
/// k-means stops after this many rounds if it has not converged (it
/// converges in < 20 on every dev page we looked at).
pub const KMEANS_ROUNDS: usize = 100;
/// λ = 1.5 for `cetr-tm`, chosen on the dev data (docs/RESULTS.md,
/// "CETR-TM λ"): mean shingle F1 over scrapinghub,
/// dragnet and l3s-gn1 0.715 / 0.764 / 0.787 at λ = 0.5 / 1.0 / 1.5; over
/// all 12 folders 0.788 at 1.0 and 0.793 at 1.5.
pub const LAMBDA_TM: f64 = 1.5;

/// How CETR decides which lines are content.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Method {
    /// 2-D k-means on (T′, G′) (`cetr`).
    KMeans2d,
    /// 1-D k-means on T′ (`cetr-km`).
    KMeans1d,
    /// T′ > λ·σ(T′) (`cetr-tm`).
    Threshold(f64),
}

/// The CETR algorithm.
#[derive(Clone, Debug)]
pub struct Cetr {
    /// Which decision.
    pub method: Method,
}

/// The parameters (`unchaff algorithms --params`).
pub const PARAMS: &[Param] = &[];

/// The parameters of the second variant (`unchaff algorithms --params`).
pub const PARAMS_TM: &[Param] = &[Param {
    name: "lambda",
    default: "1.5",
    range: "> 0",
    meaning: "threshold factor: a line is content when its smoothed ratio exceeds lambda times the standard deviation",
}];

pub(super) fn build(_p: &mut Params) -> Result<Box<dyn Algorithm>, Error> {
    Ok(Box::new(Cetr {
        method: Method::KMeans2d,
    }))
}

pub(super) fn build_km(_p: &mut Params) -> Result<Box<dyn Algorithm>, Error> {
    Ok(Box::new(Cetr {
        method: Method::KMeans1d,
    }))
}

pub(super) fn build_tm(p: &mut Params) -> Result<Box<dyn Algorithm>, Error> {
    Ok(Box::new(Cetr {
        method: Method::Threshold(p.f64("lambda", LAMBDA_TM)?),
    }))
}

/// Finds `needle` (ASCII, lower case) in `b` from `from`, ASCII
/// case-insensitively.
fn find_ci(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let first = needle[0];
    let mut i = from;
    while i + needle.len() <= b.len() {
        if b[i].eq_ignore_ascii_case(&first) && b[i..i + needle.len()].eq_ignore_ascii_case(needle)
        {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The source without `<script>…</script>`, `<style>…</style>` and
/// `<!-- … -->` (an unclosed one runs to the end). One forward pass.
pub fn strip_source(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let (mut i, mut keep) = (0, 0);
    while i < b.len() {
        if b[i] != b'<' {
            i += 1;
            continue;
        }
        let cut_end = if b[i..].starts_with(b"<!--") {
            Some(find_ci(b, i + 4, b"-->").map_or(b.len(), |e| e + 3))
        } else {
            let mut end = None;
            for name in [&b"script"[..], &b"style"[..]] {
                let after = i + 1 + name.len();
                let opens = after <= b.len()
                    && b[i + 1..after].eq_ignore_ascii_case(name)
                    && b.get(after)
                        .is_none_or(|&c| c == b'>' || c == b'/' || c.is_ascii_whitespace());
                if opens {
                    let mut close = vec![b'<', b'/'];
                    close.extend_from_slice(name);
                    end = Some(match find_ci(b, after, &close) {
                        Some(c) => b[c..]
                            .iter()
                            .position(|&x| x == b'>')
                            .map_or(b.len(), |p| c + p + 1),
                        None => b.len(),
                    });
                    break;
                }
            }
            end
        };
        match cut_end {
            Some(end) => {
                out.push_str(&src[keep..i]);
                i = end;
                keep = end;
            }
            None => i += 1,
        }
    }
    out.push_str(&src[keep..]);
    out
}

/// The source's lines (`\n`, `\r\n` or `\r` end a line), re-wrapped when
/// the mean non-empty line is longer than [`REWRAP_MEAN`] characters: then
/// a break is also put after the first `>` that comes [`REWRAP_WIDTH`] or
/// more characters after the previous break.
pub fn rewrap(src: &str) -> Vec<&str> {
    let b = src.as_bytes();
    let mut merged: Vec<&str> = Vec::new();
    let (mut i, mut start) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'\n' => {
                merged.push(&src[start..i]);
                start = i + 1;
            }
            b'\r' => {
                merged.push(&src[start..i]);
                if b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    merged.push(&src[start..]);
    let (mut n, mut total) = (0usize, 0usize);
    for l in &merged {
        if !l.trim().is_empty() {
            n += 1;
            total += l.chars().count();
        }
    }
    if n == 0 || (total as f64 / n as f64) <= REWRAP_MEAN {
        return merged;
    }
    let mut out = Vec::new();
    for l in merged {
        let mut start = 0;
        let mut count = 0;
        for (pos, c) in l.char_indices() {
            count += 1;
            if c == '>' && count >= REWRAP_WIDTH {
                out.push(&l[start..pos + 1]);
                start = pos + 1;
                count = 0;
            }
        }
        out.push(&l[start..]);
    }
    out
}

/// Inline tags, across which text runs on without a space when a line's
/// text is taken out; every other tag separates words.
const INLINE: &[&str] = &[
    "a", "b", "i", "u", "s", "em", "strong", "span", "font", "small", "big", "sub", "sup", "abbr",
    "code", "tt", "mark", "cite", "q", "strike", "del", "ins", "kbd", "var", "samp", "dfn", "nobr",
];

/// One source line: its TR inputs and its text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Line {
    /// Non-white-space characters outside tags.
    pub text_chars: usize,
    /// Tags opened on the line.
    pub tags: usize,
    /// The text outside tags (entities not yet decoded), a space where a
    /// non-inline tag stood.
    pub text: String,
}

impl Line {
    /// TR = text characters / tags (a line without a tag counts 1).
    pub fn ratio(&self) -> f64 {
        self.text_chars as f64 / self.tags.max(1) as f64
    }
}

/// Counts text and tags per line; the in-tag state carries across lines.
pub fn line_ratios(lines: &[&str]) -> Vec<Line> {
    let mut out = Vec::with_capacity(lines.len());
    let mut in_tag = false;
    let mut tag_name = String::new();
    let mut reading_name = false;
    for l in lines {
        let mut line = Line::default();
        let mut chars = l.char_indices().peekable();
        while let Some((_, c)) = chars.next() {
            if in_tag {
                if c == '>' {
                    in_tag = false;
                    let inline = INLINE.contains(&tag_name.as_str());
                    if !inline {
                        line.text.push(' ');
                    }
                } else if reading_name {
                    if c.is_ascii_alphanumeric() {
                        tag_name.push(c.to_ascii_lowercase());
                    } else if !(c == '/' && tag_name.is_empty()) {
                        reading_name = false;
                    }
                }
                continue;
            }
            if c == '<'
                && chars
                    .peek()
                    .is_some_and(|&(_, n)| n.is_ascii_alphabetic() || matches!(n, '/' | '!' | '?'))
            {
                in_tag = true;
                reading_name = true;
                tag_name.clear();
                line.tags += 1;
                continue;
            }
            if !c.is_whitespace() {
                line.text_chars += 1;
            }
            line.text.push(c);
        }
        out.push(line);
    }
    out
}

/// `xs` smoothed by a Gaussian kernel of width `sigma` and `radius`,
/// normalised over the part of the window inside the sequence.
pub fn gaussian_smooth(xs: &[f64], sigma: f64, radius: usize) -> Vec<f64> {
    let g: Vec<f64> = (0..=radius)
        .map(|j| (-((j * j) as f64) / (2.0 * sigma * sigma)).exp())
        .collect();
    let n = xs.len();
    (0..n)
        .map(|i| {
            let lo = i.saturating_sub(radius);
            let hi = (i + radius).min(n - 1);
            let (mut num, mut den) = (0.0, 0.0);
            for (k, &x) in xs.iter().enumerate().take(hi + 1).skip(lo) {
                let w = g[k.abs_diff(i)];
                num += w * x;
                den += w;
            }
            num / den
        })
        .collect()
}

/// `G_l = |mean(xs[l+1 ..= l+alpha]) − xs[l]|` (fewer terms near the end,
/// 0 on the last element). O(n) with a sliding sum.
pub fn derivative(xs: &[f64], alpha: usize) -> Vec<f64> {
    let n = xs.len();
    let mut prefix = Vec::with_capacity(n + 1);
    prefix.push(0.0);
    for &x in xs {
        prefix.push(prefix.last().copied().unwrap_or(0.0) + x);
    }
    (0..n)
        .map(|l| {
            let hi = (l + alpha).min(n - 1);
            if hi == l {
                return 0.0;
            }
            let mean = (prefix[hi + 1] - prefix[l + 1]) / (hi - l) as f64;
            (mean - xs[l]).abs()
        })
        .collect()
}

/// k-means on 2-D points with centroid 0 pinned at the origin and the
/// `k − 1` free ones started at the point of largest norm (first on ties)
/// and at the mean (then at evenly spaced points between them, for k > 3).
/// Returns each point's cluster (0: the origin's; ties go to the lower
/// cluster).
pub fn kmeans_pinned(points: &[[f64; 2]], k: usize) -> Vec<usize> {
    let n = points.len();
    if n == 0 || k < 2 {
        return vec![0; n];
    }
    let norm = |p: &[f64; 2]| p[0] * p[0] + p[1] * p[1];
    let mut far = points[0];
    for p in points {
        if norm(p) > norm(&far) {
            far = *p;
        }
    }
    let mean = [
        points.iter().map(|p| p[0]).sum::<f64>() / n as f64,
        points.iter().map(|p| p[1]).sum::<f64>() / n as f64,
    ];
    let mut centroids = vec![[0.0, 0.0]; k];
    for (c, centroid) in centroids.iter_mut().enumerate().skip(1) {
        // c = 1: the farthest point; c = k − 1: the mean.
        let t = if k == 2 {
            0.0
        } else {
            (c - 1) as f64 / (k - 2) as f64
        };
        *centroid = [
            far[0] + t * (mean[0] - far[0]),
            far[1] + t * (mean[1] - far[1]),
        ];
    }
    let mut assign = vec![usize::MAX; n];
    for _ in 0..KMEANS_ROUNDS {
        let mut changed = false;
        for (p, a) in points.iter().zip(assign.iter_mut()) {
            let mut best = 0;
            let mut best_d = f64::INFINITY;
            for (c, m) in centroids.iter().enumerate() {
                let d = (p[0] - m[0]).powi(2) + (p[1] - m[1]).powi(2);
                if d < best_d {
                    best = c;
                    best_d = d;
                }
            }
            if *a != best {
                *a = best;
                changed = true;
            }
        }
        if !changed {
            break;
        }
        let mut sums = vec![[0.0, 0.0, 0.0]; k];
        for (p, &a) in points.iter().zip(&assign) {
            sums[a][0] += p[0];
            sums[a][1] += p[1];
            sums[a][2] += 1.0;
        }
        for c in 1..k {
            if sums[c][2] > 0.0 {
                centroids[c] = [sums[c][0] / sums[c][2], sums[c][1] / sums[c][2]];
            }
        }
    }
    assign
}

/// Decodes numeric character references and the common named ones; an
/// unknown or malformed reference stays as written.
pub fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        match entity_at(rest) {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The character `s` (starting with `&`) refers to and the reference's
/// length in bytes.
fn entity_at(s: &str) -> Option<(char, usize)> {
    let b = s.as_bytes();
    if b.get(1) == Some(&b'#') {
        let (radix, start) = if matches!(b.get(2), Some(b'x' | b'X')) {
            (16, 3)
        } else {
            (10, 2)
        };
        let digits = b[start..]
            .iter()
            .take(8)
            .take_while(|c| c.is_ascii_hexdigit() && (radix == 16 || c.is_ascii_digit()))
            .count();
        if digits == 0 {
            return None;
        }
        let v = u32::from_str_radix(&s[start..start + digits], radix).ok()?;
        let c = match v {
            0x80..=0x9f => windows_1252(v),
            _ => char::from_u32(v)
                .filter(|&c| c != '\0')
                .unwrap_or('\u{fffd}'),
        };
        let end = start + digits;
        let len = if b.get(end) == Some(&b';') {
            end + 1
        } else {
            end
        };
        return Some((c, len));
    }
    let name_len = b[1..]
        .iter()
        .take(10)
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    if b.get(1 + name_len) != Some(&b';') {
        return None;
    }
    let c = named_entity(&s[1..1 + name_len])?;
    Some((c, name_len + 2))
}

/// Numeric references 0x80–0x9F mean Windows-1252 characters (HTML5).
fn windows_1252(v: u32) -> char {
    const MAP: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    MAP[(v - 0x80) as usize]
}

/// The common named character references (the ones that occur in text).
fn named_entity(name: &str) -> Option<char> {
    Some(match name {
        "amp" | "AMP" => '&',
        "lt" | "LT" => '<',
        "gt" | "GT" => '>',
        "quot" | "QUOT" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        "ensp" => '\u{2002}',
        "emsp" => '\u{2003}',
        "thinsp" => '\u{2009}',
        "shy" => '\u{ad}',
        "zwnj" => '\u{200c}',
        "zwj" => '\u{200d}',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "deg" => '°',
        "plusmn" => '±',
        "times" => '×',
        "divide" => '÷',
        "micro" => 'µ',
        "para" => '¶',
        "sect" => '§',
        "middot" => '·',
        "bull" => '•',
        "hellip" => '…',
        "ndash" => '–',
        "mdash" => '—',
        "lsquo" => '‘',
        "rsquo" => '’',
        "sbquo" => '‚',
        "ldquo" => '“',
        "rdquo" => '”',
        "bdquo" => '„',
        "laquo" => '«',
        "raquo" => '»',
        "lsaquo" => '‹',
        "rsaquo" => '›',
        "prime" => '′',
        "Prime" => '″',
        "euro" => '€',
        "pound" => '£',
        "yen" => '¥',
        "cent" => '¢',
        "curren" => '¤',
        "iexcl" => '¡',
        "iquest" => '¿',
        "ordf" => 'ª',
        "ordm" => 'º',
        "sup1" => '¹',
        "sup2" => '²',
        "sup3" => '³',
        "frac14" => '¼',
        "frac12" => '½',
        "frac34" => '¾',
        "larr" => '←',
        "rarr" => '→',
        "uarr" => '↑',
        "darr" => '↓',
        "agrave" => 'à',
        "aacute" => 'á',
        "acirc" => 'â',
        "atilde" => 'ã',
        "auml" => 'ä',
        "aring" => 'å',
        "aelig" => 'æ',
        "ccedil" => 'ç',
        "egrave" => 'è',
        "eacute" => 'é',
        "ecirc" => 'ê',
        "euml" => 'ë',
        "igrave" => 'ì',
        "iacute" => 'í',
        "icirc" => 'î',
        "iuml" => 'ï',
        "ntilde" => 'ñ',
        "ograve" => 'ò',
        "oacute" => 'ó',
        "ocirc" => 'ô',
        "otilde" => 'õ',
        "ouml" => 'ö',
        "oslash" => 'ø',
        "ugrave" => 'ù',
        "uacute" => 'ú',
        "ucirc" => 'û',
        "uuml" => 'ü',
        "yacute" => 'ý',
        "yuml" => 'ÿ',
        "szlig" => 'ß',
        "Agrave" => 'À',
        "Aacute" => 'Á',
        "Acirc" => 'Â',
        "Auml" => 'Ä',
        "Aring" => 'Å',
        "AElig" => 'Æ',
        "Ccedil" => 'Ç',
        "Egrave" => 'È',
        "Eacute" => 'É',
        "Ecirc" => 'Ê',
        "Iacute" => 'Í',
        "Ntilde" => 'Ñ',
        "Oacute" => 'Ó',
        "Ouml" => 'Ö',
        "Oslash" => 'Ø',
        "Uacute" => 'Ú',
        "Uuml" => 'Ü',
        _ => return None,
    })
}


impl Cetr {
    /// Which lines of `lines` are content, from the lines' TR.
    pub fn content_lines(&self, lines: &[Line]) -> Vec<bool> {
        if lines.is_empty() {
            return Vec::new();
        }
        let tr: Vec<f64> = lines.iter().map(Line::ratio).collect();
        let ts = gaussian_smooth(&tr, SMOOTH_SIGMA, SMOOTH_RADIUS);
        match self.method {
            Method::Threshold(lambda) => {
                let (_, sd) = mean_std(ts.iter().copied());
                ts.iter().map(|&t| t > lambda * sd).collect()
            }
            Method::KMeans1d => {
                let pts: Vec<[f64; 2]> = ts.iter().map(|&t| [t, 0.0]).collect();
                kmeans_pinned(&pts, K).into_iter().map(|c| c != 0).collect()
            }
            Method::KMeans2d => {
                let g = gaussian_smooth(&derivative(&ts, ALPHA), SMOOTH_SIGMA, SMOOTH_RADIUS);
                let pts: Vec<[f64; 2]> = ts.iter().zip(&g).map(|(&t, &d)| [t, d]).collect();
                kmeans_pinned(&pts, K).into_iter().map(|c| c != 0).collect()
            }
        }
    }

    /// The extracted text of an HTML source.
    pub fn extract_source(&self, source: &str) -> String {
        let stripped = strip_source(source);
        let lines = line_ratios(&rewrap(&stripped));
        let keep = self.content_lines(&lines);
        let mut out = String::new();
        for (l, k) in lines.iter().zip(keep) {
            if !k {
                continue;
            }
            let t = collapse(&decode_entities(&l.text));
            if !t.is_empty() {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&t);
            }
        }
        out
    }
}

impl Algorithm for Cetr {
    fn name(&self) -> &'static str {
        match self.method {
            Method::KMeans2d => "cetr",
            Method::KMeans1d => "cetr-km",
            Method::Threshold(_) => "cetr-tm",
        }
    }

    fn run(&self, page: &Page<'_>) -> Selection {
        Selection {
            nodes: Vec::new(),
            scores: Vec::new(),
            text: Some(self.extract_source(page.source)),
            ..Selection::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_scripts_styles_comments() {
        let src =
            "a<script type=x>if (a<b) {}</SCRIPT >b<!-- c\n -->d<style>p{}</style>e<scripts>f";
        assert_eq!(strip_source(src), "abde<scripts>f");
        assert_eq!(strip_source("x<!-- never closed"), "x");
        assert_eq!(strip_source("x<script>never closed"), "x");
    }

    #[test]
    fn rewraps_long_lines_only() {
        let short = "<p>a</p>\n<p>b</p>";
        assert_eq!(rewrap(short), vec!["<p>a</p>", "<p>b</p>"]);
        assert_eq!(rewrap("a\r\nb\rc"), vec!["a", "b", "c"]);
        assert_eq!(rewrap("a\r\n\r\nb\n"), vec!["a", "", "b", ""]);
        // One 300-character line of 30 ten-character tags: a break after
        // the first `>` at ≥ 65 characters, i.e. after every 7th tag (70).
        let long = "<b>xxx</b>".repeat(30);
        let lines = rewrap(&long);
        assert_eq!(lines[0].len(), 70);
        assert_eq!(lines.len(), 5); // 70·4 = 280, then the last 20
        assert_eq!(lines.concat(), long);
    }

    #[test]
    fn tag_ratio_by_hand() {
        // Line 0: "<p>Hello <b>world</b></p>": 10 text chars, 4 tags → 2.5.
        // Line 1: "  plain text": 9 chars, no tag → 9.
        // Line 2: "<a href='x'" opens a tag that closes on line 3: 1 tag, 0
        // chars; line 3: "y'>z": 1 char ("z"), no tag → 1.
        let lines = line_ratios(&[
            "<p>Hello <b>world</b></p>",
            "  plain text",
            "<a href='x'",
            "y'>z",
        ]);
        let r: Vec<f64> = lines.iter().map(Line::ratio).collect();
        assert_eq!(r, vec![2.5, 9.0, 0.0, 1.0]);
        assert_eq!(collapse(&lines[0].text), "Hello world");
        assert_eq!(lines[3].text, "z");
        // "a < b" is text, not a tag.
        assert_eq!(line_ratios(&["a < b"])[0].tags, 0);
    }

    #[test]
    fn smoothing_by_hand() {
        // TR = [0, 0, 10, 0, 0], σ = 1, radius 3. Middle line:
        // 10·1 / (1 + 2·e^−0.5 + 2·e^−2) = 10 / (1 + 1.21306 + 0.27067) = 10 / 2.48373 = 4.02620.
        // First line: window 0..=3, 10·e^−2 / (1 + e^−0.5 + e^−2 + e^−4.5)
        //   = 1.35335 / (1 + 0.60653 + 0.13534 + 0.01111) = 1.35335 / 1.75298 = 0.77203.
        let s = gaussian_smooth(&[0.0, 0.0, 10.0, 0.0, 0.0], 1.0, 3);
        assert!((s[2] - 4.02620).abs() < 1e-5, "{}", s[2]);
        assert!((s[0] - 0.77203).abs() < 1e-5, "{}", s[0]);
        // Symmetric.
        assert!((s[0] - s[4]).abs() < 1e-12);
    }

    #[test]
    fn derivative_by_hand() {
        // xs = [1, 2, 3, 10]: G0 = |(2+3+10)/3 − 1| = 4, G1 = |6.5 − 2| = 4.5,
        // G2 = |10 − 3| = 7, G3 = 0.
        assert_eq!(
            derivative(&[1.0, 2.0, 3.0, 10.0], 3),
            vec![4.0, 4.5, 7.0, 0.0]
        );
    }

    #[test]
    fn kmeans_by_hand() {
        // Points 0.1, 0.2, 5, 6, 20, 21 on a line. Start: origin (pinned),
        // farthest = 21, mean = 52.3/6 = 8.717.
        // Round 1: 0.1, 0.2 → origin; 5 (|5−8.7| = 3.7 < 5), 6 → mean;
        //          20, 21 → 21 (|20−21| = 1).
        // Update: c1 = 20.5, c2 = 5.5; round 2 assigns the same: converged.
        let pts: Vec<[f64; 2]> = [0.1, 0.2, 5.0, 6.0, 20.0, 21.0]
            .iter()
            .map(|&x| [x, 0.0])
            .collect();
        assert_eq!(kmeans_pinned(&pts, 3), vec![0, 0, 2, 2, 1, 1]);
        // 2-D: (0,1) is nearer the origin than the mean (4,1.5) or (10,0).
        let pts2 = [[0.0, 1.0], [10.0, 0.0], [2.0, 3.5]];
        assert_eq!(kmeans_pinned(&pts2, 3)[0], 0);
        assert!(kmeans_pinned(&[], 3).is_empty());
    }

    #[test]
    fn entities() {
        assert_eq!(
            decode_entities("a&amp;b &lt;p&gt; &#233;&#xE9;&eacute; &#150; &bogus; & x&nbsp;y"),
            "a&b <p> ééé – &bogus; & x\u{a0}y"
        );
        assert_eq!(decode_entities("&#0;&#x110000;"), "\u{fffd}\u{fffd}");
    }

    #[test]
    fn extracts_the_text_lines() {
        let para = "This is a long sentence of article text that goes on and on. ".repeat(3);
        let mut src = String::from(
            "<html><head><title>T</title>\n<script>var x = '<p>no</p>';</script></head><body>\n",
        );
        for i in 0..10 {
            src.push_str(&format!("<div class=nav><a href=/{i}>L{i}</a></div>\n"));
        }
        for _ in 0..5 {
            src.push_str(&format!("<p>{para} &amp; more</p>\n"));
        }
        for i in 0..10 {
            src.push_str(&format!(
                "<div><a href=/{i}>F{i}</a> | <span>x</span></div>\n"
            ));
        }
        src.push_str("</body></html>\n");
        for method in [
            Method::KMeans2d,
            Method::KMeans1d,
            Method::Threshold(LAMBDA_TM),
        ] {
            let text = Cetr { method }.extract_source(&src);
            assert!(
                text.contains("article text that goes on and on. & more"),
                "{method:?}: {text}"
            );
            assert!(
                !text.contains("L1") && !text.contains("F9"),
                "{method:?}: {text}"
            );
            assert!(!text.contains("var x"), "{method:?}: {text}");
        }
    }
}
