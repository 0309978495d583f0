//! Page metadata: title, authors, dates, description, site name, language,
//! canonical URL and tags, read from the parsed page before cleaning.
//!
//! One linear pass over the node arena (document order, no recursion)
//! collects the candidates — `<meta>`, `<link>`, `<title>`, JSON-LD
//! scripts, `<html lang>`, the first `<h1>`, `<time datetime>`, `rel=author`
//! links and bylines; the body's elements are looked at only up to
//! [`BODY_LOOK`] candidates each. JSON-LD is parsed with `serde_json`
//! (`@graph`, arrays and nested `author` objects included).
//!
//! Which source wins, field by field (the first present):
//!
//! * **title**: JSON-LD `headline` of an article, `og:title`,
//!   `twitter:title`, `<title>`, the first `<h1>`; a trailing or leading
//!   ` | Site` / ` - Site` (also `–`, `—`, `·`, `::`) is cut when it matches
//!   the site name or the URL's host, then whatever is chosen.
//! * **author**: JSON-LD `author` names (all, joined by `; `), `meta
//!   name=author`, `article:author` (when not a URL), `meta name=byl` /
//!   `parsely-author` / `sailthru.author`, the text of the first
//!   `rel=author` link, the first element whose class or id says `byline`
//!   or `author` (short text, a leading "By" cut).
//! * **published** / **modified**: JSON-LD `datePublished` (or
//!   `dateCreated`) / `dateModified` of an article or posting (also JSON-LD
//!   in a `<meta name="script:ld+json">`), `article:published_time` /
//!   `article:modified_time` (also `og:` and `itemprop` forms), `meta
//!   name=date` / `pubdate` / `dc.date*`, any other `<meta>` named
//!   `…publish…` / `…publication…` (modified: `…modified…` / `…updated…`);
//!   then the body's `<time datetime>`s, those marked as the publication
//!   (`pubdate`, `itemprop=datePublished`/`dateCreated`, a `publish` or
//!   `entry-date` class) before unmarked ones before those marked as the
//!   update; a `/YYYY/MM/DD/` or `YYYY-MM-DD` in the URL; a date in an
//!   element whose class or id says `date`/`publish`/`posted`; a short text
//!   node among the body's first [`BODY_TEXTS`] that reads as a date; last,
//!   the modification date. A timestamp one day off the URL's date is the
//!   same moment in UTC: the URL's (the author's) day is kept; likewise a
//!   `<time>`'s text over its `datetime`. Dates are read in ISO form,
//!   `YYYY/MM/DD`, `YYYYMMDD`, `DD.MM.YYYY`, unambiguous `DD/MM/YYYY` or
//!   `MM/DD/YYYY`, and with month names in English, German, French,
//!   Spanish, Italian, Portuguese and Dutch; normalised to `YYYY-MM-DD`,
//!   plus `THH:MM[:SS]` and the zone when the source has them.
//! * **description**: `og:description`, `meta name=description`, JSON-LD
//!   `description`.
//! * **site_name**: `og:site_name`, JSON-LD `publisher.name`,
//!   `application-name`.
//! * **language**: `<html lang>`, `meta http-equiv=content-language`,
//!   `og:locale`, then detection from the extracted text with `whatlang`
//!   (only when the page declares nothing: a declaration is the author's
//!   word, detection is a guess). Lower case, `_` → `-`.
//! * **canonical**: `link rel=canonical`, `og:url` (resolved).
//! * **tags**: `article:tag` and JSON-LD `keywords`, in order, deduplicated.

use rustc_hash::FxHashSet;
use serde_json::Value;
use url::Url;

use crate::dom::{Dom, NodeId, NodeKind, Ns, Tag};

/// How many body elements of each kind (`h1`, `time`, author links,
/// bylines) are looked at.
pub const BODY_LOOK: usize = 8;

/// How many of the body's text nodes are looked at for a written date
/// (the last resort for `published`, read only when nothing else gave
/// one): a dateline sits near the top, but below menus that can run to
/// hundreds of links. On wcxb-dev's 782 dated pages, 400 gave 668 right
/// dates, 1000 gave 675, 2000 and 5000 gave 676.
pub const BODY_TEXTS: usize = 2000;

/// How many body elements have their class and id read for bylines and
/// dates; bylines and datelines sit near the top of a page.
pub const BODY_ELEMENTS: usize = 2000;

/// `<meta>` names and properties that give an author, in order.
const AUTHOR_KEYS: [&str; 6] = [
    "author",
    "article:author",
    "byl",
    "parsely-author",
    "sailthru.author",
    "dc.creator",
];

/// `<meta>` names and properties that give the publication date, in order.
const DATE_KEYS: [&str; 12] = [
    "article:published_time",
    "og:published_time",
    "datepublished",
    "date",
    "pubdate",
    "publishdate",
    "publish-date",
    "dc.date.issued",
    "dc.date",
    "dcterms.date",
    "sailthru.date",
    "parsely-pub-date",
];

/// How much a `<time>` says it is the publication date: 2 when it or its
/// parent is marked so (`pubdate`, `itemprop=datePublished` or
/// `dateCreated`, a class with
/// `publish` or `entry-date`), 0 when marked as the update
/// (`itemprop=dateModified`, a class with `updated` or `modified` and not
/// `publish`), 1 otherwise. The first `<time>` is often the update line, a
/// comment's or a related article's.
fn time_rank(dom: &Dom, id: NodeId) -> u8 {
    let mut rank = 1;
    for n in std::iter::once(id).chain(dom.node(id).parent.some()) {
        if dom.attr(n, "pubdate").is_some() && n == id {
            return 2;
        }
        let prop = dom.attr(n, "itemprop").unwrap_or("");
        let class = dom.attr(n, "class").unwrap_or("").to_ascii_lowercase();
        if matches!(prop, "datePublished" | "dateCreated")
            || class.contains("publish")
            || class.contains("entry-date")
        {
            return 2;
        }
        if prop == "dateModified" || class.contains("updated") || class.contains("modified") {
            rank = 0;
        }
    }
    rank
}

/// A publication date from a `<meta>` whose name is none of
/// [`DATE_KEYS`] but says so (`published`, `w-published-date`,
/// `citation_publication_date`, `publish_date`): the first whose name
/// contains `publish` or `publication` (and is not a `publisher`, a name)
/// and whose value reads as a date.
fn other_published_meta(meta: &[(String, String)]) -> Option<String> {
    meta.iter()
        .filter(|(k, _)| {
            (k.contains("publish") || k.contains("publication")) && !k.ends_with("publisher")
        })
        .find_map(|(_, v)| normalize_date(v))
}

/// Most characters of text handed to language detection: whatlang is
/// sure long before that, and it keeps the cost flat on big pages.
pub const DETECT_CHARS: usize = 2000;

/// A page's metadata (each field absent when the page does not say).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct Metadata {
    /// The article's title.
    pub title: Option<String>,
    /// Author name(s), `; ` between several.
    pub author: Option<String>,
    /// Publication date, ISO 8601 (`YYYY-MM-DD[THH:MM[:SS][zone]]`).
    pub published: Option<String>,
    /// Last modification date, same format.
    pub modified: Option<String>,
    /// The page's own summary.
    pub description: Option<String>,
    /// The site's name.
    pub site_name: Option<String>,
    /// Language tag (`en`, `pt-br`, or an ISO 639-3 code when detected and
    /// no two-letter code is known).
    pub language: Option<String>,
    /// Where the language came from: `"declared"` or `"detected"`.
    pub language_source: Option<&'static str>,
    /// The canonical URL.
    pub canonical: Option<String>,
    /// Tags and categories.
    pub tags: Vec<String>,
}

#[derive(Default)]
struct Found {
    meta: Vec<(String, String)>,
    title: Option<String>,
    h1: Vec<String>,
    /// The body's first `<time>` dates, with their [`time_rank`].
    times: Vec<(u8, String)>,
    text_dates: Vec<String>,
    text_date: Option<String>,
    rel_author: Vec<String>,
    bylines: Vec<String>,
    lang: Option<String>,
    canonical: Option<String>,
    ld: Ld,
}

/// What JSON-LD said; `rank` 2 = an article, 1 = a web page.
#[derive(Default)]
struct Ld {
    rank: u8,
    headline: Option<(u8, String)>,
    authors: Option<(u8, Vec<String>)>,
    published: Option<(u8, String)>,
    modified: Option<(u8, String)>,
    description: Option<(u8, String)>,
    publisher: Option<String>,
    keywords: Vec<String>,
}

/// Collapsed text of the text children of `id` and their descendants, up
/// to `max` bytes (a bounded walk).
fn short_text(dom: &Dom, id: NodeId, max: usize) -> String {
    let mut out = String::new();
    for n in dom.descendants(id).take(64) {
        if let Some(t) = dom.text_of(n) {
            for w in t.split_whitespace() {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(w);
            }
            if out.len() > max {
                break;
            }
        }
    }
    out
}

fn put<T>(slot: &mut Option<(u8, T)>, rank: u8, v: T) {
    if slot.as_ref().is_none_or(|(r, _)| rank > *r) {
        *slot = Some((rank, v));
    }
}

fn str_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => {
            let s = collapse(s);
            (!s.is_empty()).then_some(s)
        }
        Value::Array(a) => a.iter().find_map(str_of),
        Value::Object(o) => o.get("name").or_else(|| o.get("@value")).and_then(str_of),
        _ => None,
    }
}

fn names_of(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().take(16).for_each(|x| names_of(x, out)),
        Value::Object(o) => {
            if let Some(n) = o.get("name").and_then(str_of) {
                out.push(n);
            }
        }
        Value::String(s) => {
            let s = collapse(s);
            if !s.is_empty() && !s.starts_with("http") {
                out.push(s);
            }
        }
        _ => {}
    }
}

fn type_rank(o: &serde_json::Map<String, Value>) -> u8 {
    let mut rank = 0;
    let mut types = Vec::new();
    match o.get("@type") {
        Some(Value::String(s)) => types.push(s.as_str()),
        Some(Value::Array(a)) => types.extend(a.iter().filter_map(Value::as_str)),
        _ => {}
    }
    for t in types {
        // `…Posting`: BlogPosting, DiscussionForumPosting (forum threads),
        // SocialMediaPosting.
        let r = if t.ends_with("Article")
            || t.ends_with("Posting")
            || matches!(t, "Report" | "Review" | "Recipe")
        {
            2
        } else if t.ends_with("Page") {
            1
        } else {
            0
        };
        rank = rank.max(r);
    }
    rank
}

impl Ld {
    fn read(&mut self, json: &str) {
        let Ok(v) = serde_json::from_str::<Value>(json.trim().trim_end_matches(';')) else {
            return;
        };
        // Objects to visit; depth-limited, no recursion.
        let mut stack = vec![(&v, 0u8)];
        while let Some((v, depth)) = stack.pop() {
            if depth > 6 {
                continue;
            }
            match v {
                Value::Array(a) => stack.extend(a.iter().rev().take(64).map(|x| (x, depth + 1))),
                Value::Object(o) => {
                    if let Some(g) = o.get("@graph") {
                        stack.push((g, depth + 1));
                    }
                    if let Some(m) = o.get("mainEntity").or_else(|| o.get("mainEntityOfPage"))
                        && m.is_object()
                    {
                        stack.push((m, depth + 1));
                    }
                    let rank = type_rank(o);
                    if rank == 0 {
                        continue;
                    }
                    self.rank = self.rank.max(rank);
                    let headline = o
                        .get("headline")
                        .or_else(|| (rank == 2).then(|| o.get("name")).flatten());
                    if let Some(h) = headline.and_then(str_of) {
                        put(&mut self.headline, rank, h);
                    }
                    if let Some(a) = o.get("author").or_else(|| o.get("creator")) {
                        let mut names = Vec::new();
                        names_of(a, &mut names);
                        if !names.is_empty() {
                            put(&mut self.authors, rank, names);
                        }
                    }
                    if let Some(d) = o
                        .get("datePublished")
                        .or_else(|| o.get("dateCreated"))
                        .and_then(str_of)
                        .and_then(|d| normalize_date(&d))
                    {
                        put(&mut self.published, rank, d);
                    }
                    if let Some(d) = o
                        .get("dateModified")
                        .and_then(str_of)
                        .and_then(|d| normalize_date(&d))
                    {
                        put(&mut self.modified, rank, d);
                    }
                    if let Some(d) = o.get("description").and_then(str_of) {
                        put(&mut self.description, rank, d);
                    }
                    if self.publisher.is_none() {
                        self.publisher = o.get("publisher").and_then(str_of);
                    }
                    if rank == 2 && self.keywords.is_empty() {
                        match o.get("keywords") {
                            Some(Value::String(s)) => self
                                .keywords
                                .extend(s.split(',').map(collapse).filter(|s| !s.is_empty())),
                            Some(Value::Array(a)) => {
                                self.keywords.extend(a.iter().filter_map(str_of))
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// White space collapsed, and the entities of doubly escaped values
/// (`&amp;amp;` in the source, common in meta tags and JSON-LD) decoded.
fn collapse(s: &str) -> String {
    let mut out = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if out.contains('&') {
        for (e, c) in [
            ("&quot;", "\""),
            ("&#39;", "'"),
            ("&#039;", "'"),
            ("&lt;", "<"),
            ("&gt;", ">"),
            ("&amp;", "&"),
        ] {
            out = out.replace(e, c);
        }
    }
    out
}

/// A byline's name: a leading "By" cut, and everything from the first
/// date-like word (a digit, a month, "Updated", "Published", …) on.
fn byline_name(t: &str) -> String {
    const STOP: [&str; 8] = [
        "updated",
        "published",
        "posted",
        "on",
        "member",
        "|",
        "•",
        "·",
    ];
    const MONTH_WORDS: [&str; 24] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
    ];
    let t = t.trim();
    let t = ["By ", "by ", "BY ", "Written by ", "Author: "]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(t);
    let mut words = Vec::new();
    for w in t.split_whitespace() {
        let l = w.to_lowercase();
        let bare = l.trim_end_matches(['.', ',']);
        let month = MONTH_WORDS.contains(&bare);
        if w.starts_with(|c: char| c.is_ascii_digit()) || month || STOP.contains(&l.as_str()) {
            break;
        }
        words.push(w);
    }
    words
        .join(" ")
        .trim_end_matches([',', '-', '–', '—', '|'])
        .trim()
        .to_owned()
}

/// `YYYY-MM-DD` (and the time and zone when given; `+0500` becomes
/// `+05:00`) from an ISO-like date, a `YYYY/MM/DD` or `YYYYMMDD` one, a
/// day-first numeric one (see `day_first_date`), or one with a month name
/// ("March 14, 2024", "14 March 2024", "4. März 2024", "5 de marzo de
/// 2024"; the languages of `FOREIGN_MONTHS`).
pub fn normalize_date(s: &str) -> Option<String> {
    let s = s.trim();
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = b.get(r)?;
        if part.iter().all(u8::is_ascii_digit) {
            std::str::from_utf8(part).ok()?.parse().ok()
        } else {
            None
        }
    };
    let ok = |y: u32, m: u32, d: u32| {
        (1990..2100).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d)
    };
    if let (Some(y), Some(m), Some(d)) = (digits(0..4), digits(5..7), digits(8..10))
        && matches!(b[4], b'-' | b'/' | b'.')
        && b[7] == b[4]
        && ok(y, m, d)
    {
        let mut out = format!("{y:04}-{m:02}-{d:02}");
        // A time: THH:MM[:SS][zone].
        if matches!(b.get(10), Some(b'T' | b' '))
            && let (Some(h), Some(mi)) = (digits(11..13), digits(14..16))
            && b.get(13) == Some(&b':')
            && h < 24
            && mi < 60
        {
            out.push_str(&format!("T{h:02}:{mi:02}"));
            let mut rest = 16;
            if b.get(16) == Some(&b':')
                && let Some(sec) = digits(17..19)
            {
                out.push_str(&format!(":{sec:02}"));
                rest = 19;
                if b.get(rest) == Some(&b'.') {
                    rest += 1;
                    while b.get(rest).is_some_and(u8::is_ascii_digit) {
                        rest += 1;
                    }
                }
            }
            match b.get(rest) {
                Some(b'Z') => out.push('Z'),
                Some(b'+' | b'-') => {
                    // `+05:00`, or the colon-less `+0500`.
                    let z = s.get(rest..).unwrap_or("");
                    let zb = z.as_bytes();
                    let two = |i: usize| {
                        zb.get(i..i + 2)
                            .is_some_and(|p| p.iter().all(u8::is_ascii_digit))
                    };
                    if two(1) && zb.get(3) == Some(&b':') && two(4) {
                        out.push_str(&z[..6]);
                    } else if two(1) && two(3) && zb.get(5).is_none_or(|c| !c.is_ascii_digit()) {
                        out.push_str(&format!("{}:{}", &z[..3], &z[3..5]));
                    }
                }
                _ => {}
            }
        }
        return Some(out);
    }
    if let (Some(y), Some(m), Some(d)) = (digits(0..4), digits(4..6), digits(6..8))
        && b.get(8).is_none_or(|c| !c.is_ascii_digit())
        && ok(y, m, d)
    {
        return Some(format!("{y:04}-{m:02}-{d:02}"));
    }
    if let Some(d) = day_first_date(s) {
        return Some(d);
    }
    // English month names.
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let words: Vec<String> = s
        .split(|c: char| c.is_whitespace() || c == ',' || c == '.')
        .filter(|w| !w.is_empty())
        .take(6)
        .map(str::to_lowercase)
        .collect();
    let month_of = |w: &str| -> Option<u32> {
        let english = (w.len() >= 3)
            .then(|| MONTHS.iter().position(|m| w.starts_with(m)))
            .flatten();
        english
            .or_else(|| FOREIGN_MONTHS.iter().position(|ms| ms.contains(&w)))
            .map(|i| i as u32 + 1)
    };
    let month = words.iter().position(|w| month_of(w).is_some())?;
    let m = month_of(&words[month])?;
    let num = |w: &String| {
        w.trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .parse::<u32>()
            .ok()
    };
    let year = words
        .iter()
        .filter_map(num)
        .find(|&y| (1990..2100).contains(&y))?;
    let day = words
        .iter()
        .filter_map(num)
        .find(|&d| (1..=31).contains(&d))?;
    ok(year, m, day).then(|| format!("{year:04}-{m:02}-{day:02}"))
}

/// Month names (and unambiguous abbreviations) of German, French,
/// Spanish, Italian, Portuguese and Dutch, January first, lower case,
/// matched as whole words; English names are matched by their first three
/// letters, which also covers the foreign names that start like them
/// (`januar`, `mars`, `marzo`, `noviembre`, …). Abbreviations that are also
/// common words (`ago`, `ene`) are left out.
const FOREIGN_MONTHS: [&[&str]; 12] = [
    &[
        "jänner", "janvier", "janv", "enero", "gennaio", "janeiro", "januari",
    ],
    &[
        "februar",
        "février",
        "fevrier",
        "févr",
        "febrero",
        "febbraio",
        "fevereiro",
        "februari",
    ],
    &["märz", "mär", "maart", "março"],
    &["avril", "avr", "abril", "aprile"],
    &["mai", "maggio", "maio", "mei"],
    &["juni", "juin", "junio", "giugno", "junho"],
    &["juli", "juillet", "juil", "julio", "luglio", "julho"],
    &["août", "aout", "agosto", "augustus"],
    &[
        "septembre",
        "septiembre",
        "setiembre",
        "settembre",
        "setembro",
    ],
    &["oktober", "okt", "octobre", "octubre", "ottobre", "outubro"],
    &["novembre", "noviembre", "novembro"],
    &[
        "dezember",
        "dez",
        "décembre",
        "déc",
        "decembre",
        "diciembre",
        "dicembre",
        "dezembro",
    ],
];

/// Days since 1970-01-01 of a `YYYY-MM-DD…` date (Howard Hinnant's
/// days-from-civil), for comparing two dates.
fn day_number(d: &str) -> Option<i64> {
    let y: i64 = d.get(0..4)?.parse().ok()?;
    let m: i64 = d.get(5..7)?.parse().ok()?;
    let day: i64 = d.get(8..10)?.parse().ok()?;
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// Whether two normalised dates fall on consecutive days: the same moment
/// written in two time zones (a UTC timestamp after the evening of the
/// author's day), not two different events.
fn one_day_apart(a: &str, b: &str) -> bool {
    day_number(a)
        .zip(day_number(b))
        .is_some_and(|(x, y)| (x - y).abs() == 1)
}

/// A numeric day-first date, `DD.MM.YYYY` (the European dotted form, also
/// `D.M.YYYY`), or `DD/MM/YYYY` / `MM/DD/YYYY` when the day is over 12 and
/// so says which is which (`03/04/2024` is ambiguous and not read).
fn day_first_date(s: &str) -> Option<String> {
    let mut parts = s.splitn(3, ['.', '/', '-']);
    let (a, b, rest) = (parts.next()?, parts.next()?, parts.next()?);
    let sep = s.as_bytes().get(a.len())?;
    let year: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let short = |p: &str| (1..=2).contains(&p.len()) && p.bytes().all(|c| c.is_ascii_digit());
    if !short(a)
        || !short(b)
        || year.len() != 4
        || s.as_bytes().get(a.len() + b.len() + 1) != Some(sep)
    {
        return None;
    }
    let (x, z, y): (u32, u32, u32) = (a.parse().ok()?, b.parse().ok()?, year.parse().ok()?);
    let (day, month) = match sep {
        b'.' => (x, z),
        b'/' | b'-' if x > 12 => (x, z),
        b'/' | b'-' if z > 12 => (z, x),
        _ => return None,
    };
    ((1990..2100).contains(&y) && (1..=12).contains(&month) && (1..=31).contains(&day))
        .then(|| format!("{y:04}-{month:02}-{day:02}"))
}

/// A date in a URL path: `/2024/03/14/` or `2024-03-14`.
fn url_date(url: &str) -> Option<String> {
    let b = url.as_bytes();
    for i in 0..b.len().saturating_sub(9) {
        if b[i].is_ascii_digit()
            && (i == 0 || !b[i - 1].is_ascii_digit())
            && matches!(b.get(i + 4), Some(b'/' | b'-'))
            && let Some(d) = normalize_date(&url[i..(i + 10).min(url.len())])
            && !b.get(i + 10).is_some_and(u8::is_ascii_digit)
        {
            return Some(d[..10].to_owned());
        }
    }
    None
}

/// Cuts a ` | Site` / `Site | ` part that names the site.
fn strip_site(title: &str, site: Option<&str>, host: Option<&str>) -> String {
    const SEPS: [&str; 7] = [" | ", " - ", " – ", " — ", " · ", " :: ", " » "];
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let site = site.map(squash).filter(|s| !s.is_empty());
    let host = host.map(|h| {
        let h = h.trim_start_matches("www.");
        squash(h.rsplit_once('.').map_or(h, |(a, _)| a))
    });
    let names_site = |part: &str| {
        let p = squash(part);
        !p.is_empty()
            && (site
                .as_deref()
                .is_some_and(|s| p == s || s.contains(&p) || p.contains(s))
                || host
                    .as_deref()
                    .is_some_and(|h| !h.is_empty() && (p == h || p.contains(h) || h.contains(&p))))
    };
    for sep in SEPS {
        if let Some((head, tail)) = title.rsplit_once(sep)
            && names_site(tail)
            && !head.trim().is_empty()
        {
            return head.trim().to_owned();
        }
        if let Some((head, tail)) = title.split_once(sep)
            && names_site(head)
            && !tail.trim().is_empty()
        {
            return tail.trim().to_owned();
        }
    }
    title.to_owned()
}

/// Two-letter codes for whatlang's languages (ISO 639-3 → 639-1).
fn iso639_1(code: &str) -> &str {
    const MAP: &[(&str, &str)] = &[
        ("eng", "en"),
        ("rus", "ru"),
        ("cmn", "zh"),
        ("spa", "es"),
        ("por", "pt"),
        ("ita", "it"),
        ("ben", "bn"),
        ("fra", "fr"),
        ("deu", "de"),
        ("ukr", "uk"),
        ("kat", "ka"),
        ("ara", "ar"),
        ("hin", "hi"),
        ("jpn", "ja"),
        ("heb", "he"),
        ("yid", "yi"),
        ("pol", "pl"),
        ("amh", "am"),
        ("jav", "jv"),
        ("kor", "ko"),
        ("nob", "nb"),
        ("dan", "da"),
        ("swe", "sv"),
        ("fin", "fi"),
        ("tur", "tr"),
        ("nld", "nl"),
        ("hun", "hu"),
        ("ces", "cs"),
        ("ell", "el"),
        ("bul", "bg"),
        ("bel", "be"),
        ("mar", "mr"),
        ("kan", "kn"),
        ("ron", "ro"),
        ("slv", "sl"),
        ("hrv", "hr"),
        ("srp", "sr"),
        ("mkd", "mk"),
        ("lit", "lt"),
        ("lav", "lv"),
        ("est", "et"),
        ("tam", "ta"),
        ("vie", "vi"),
        ("urd", "ur"),
        ("tha", "th"),
        ("guj", "gu"),
        ("uzb", "uz"),
        ("pan", "pa"),
        ("aze", "az"),
        ("ind", "id"),
        ("tel", "te"),
        ("pes", "fa"),
        ("mal", "ml"),
        ("ori", "or"),
        ("mya", "my"),
        ("nep", "ne"),
        ("sin", "si"),
        ("khm", "km"),
        ("tuk", "tk"),
        ("aka", "ak"),
        ("zul", "zu"),
        ("sna", "sn"),
        ("afr", "af"),
        ("lat", "la"),
        ("slk", "sk"),
        ("cat", "ca"),
        ("tgl", "tl"),
        ("hye", "hy"),
        ("epo", "eo"),
    ];
    MAP.iter()
        .find(|(a, _)| *a == code)
        .map_or(code, |(_, b)| b)
}

/// Sets the language from `text` (its first [`DETECT_CHARS`] bytes) when
/// the page declared none and whatlang is sure.
pub fn detect_language(m: &mut Metadata, text: &str) {
    if m.language.is_some() {
        return;
    }
    let mut end = text.len().min(DETECT_CHARS);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if let Some(info) = whatlang::detect(&text[..end]).filter(|i| i.is_reliable()) {
        m.language = Some(iso639_1(info.lang().code()).to_owned());
        m.language_source = Some("detected");
    }
}

/// The page's own summary in its head: `og:description`, else
/// `description`, else `twitter:description` (white space collapsed); what
/// [`Metadata::description`] holds when the page has no JSON-LD one. Read
/// from every `<meta>` of the tree, cleaned or not.
pub fn meta_description(dom: &Dom) -> Option<String> {
    let mut meta = Vec::new();
    for i in 0..dom.len() {
        let id = NodeId(i as u32);
        if !dom.is(id, Tag::META) {
            continue;
        }
        let attr = |n: &str| dom.attr(id, n).map(str::trim).filter(|v| !v.is_empty());
        if let (Some(k), Some(v)) = (attr("property").or_else(|| attr("name")), attr("content")) {
            meta.push((k.to_ascii_lowercase(), collapse(v)));
        }
    }
    meta_value(
        &meta,
        &["og:description", "description", "twitter:description"],
    )
}

/// The first value of the `<meta>` named by one of `keys` (in their order).
fn meta_value(meta: &[(String, String)], keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| {
        meta.iter()
            .find(|(mk, v)| mk == k && !v.is_empty())
            .map(|(_, v)| v.clone())
    })
}

/// The publication date the head gives: JSON-LD, [`DATE_KEYS`], other
/// `publish…` metas.
fn head_published(f: &Found) -> Option<String> {
    f.ld.published
        .as_ref()
        .map(|(_, d)| d.clone())
        .or_else(|| meta_value(&f.meta, &DATE_KEYS).and_then(|d| normalize_date(&d)))
        .or_else(|| other_published_meta(&f.meta))
}

/// The modification date the head gives: JSON-LD, then the usual metas.
fn head_modified(f: &Found) -> Option<String> {
    f.ld.modified.as_ref().map(|(_, d)| d.clone()).or_else(|| {
        meta_value(
            &f.meta,
            &[
                "article:modified_time",
                "og:updated_time",
                "datemodified",
                "last-modified",
            ],
        )
        .and_then(|d| normalize_date(&d))
        .or_else(|| {
            // `updated date`, `last_modified`, `updated_at`, …
            f.meta
                .iter()
                .filter(|(k, _)| k.contains("modified") || k.contains("updated"))
                .find_map(|(_, v)| normalize_date(v))
        })
    })
}

/// Reads the metadata of a parsed page (before cleaning); `url` is the
/// page's URL, `text` the extracted text (for language detection only).
pub fn metadata(dom: &Dom, url: Option<&Url>, text: &str) -> Metadata {
    let mut f = Found::default();
    let mut in_body = false;
    let mut texts_seen = 0;
    let mut body_elements = 0;
    let mut lower = String::new();
    // Whether the head left author / date unsaid: only then are the
    // body's bylines and written dates looked for.
    let (mut need_author, mut need_date) = (false, false);
    for i in 0..dom.len() {
        let id = NodeId(i as u32);
        let e = match &dom.node(id).kind {
            NodeKind::Element(e) => e,
            NodeKind::Text { start, end }
                if need_date && f.text_date.is_none() && texts_seen < BODY_TEXTS =>
            {
                texts_seen += 1;
                let t = &dom.text[*start as usize..*end as usize];
                if t.len() <= 60 && t.bytes().any(|b| b.is_ascii_digit()) {
                    // "Dec 26, 2025", "Updated: 2025-09-13", "Posted on …".
                    let words: Vec<&str> = t.split_whitespace().collect();
                    f.text_date =
                        (0..words.len().min(3)).find_map(|i| normalize_date(&words[i..].join(" ")));
                }
                continue;
            }
            _ => continue,
        };
        if e.ns != Ns::Html {
            continue;
        }
        let attr = |n: &str| dom.attr(id, n).map(str::trim).filter(|v| !v.is_empty());
        match e.tag {
            Tag::HTML if f.lang.is_none() => {
                f.lang = attr("lang").or_else(|| attr("xml:lang")).map(str::to_owned)
            }
            Tag::BODY if !in_body => {
                in_body = true;
                let has = |keys: &[&str]| f.meta.iter().any(|(k, _)| keys.contains(&k.as_str()));
                need_author = f.ld.authors.is_none() && !has(&AUTHOR_KEYS);
                need_date = f.ld.published.is_none()
                    && !has(&DATE_KEYS)
                    && other_published_meta(&f.meta).is_none()
                    && url.and_then(|u| url_date(u.path())).is_none();
            }
            Tag::META => {
                let key = attr("property")
                    .or_else(|| attr("name"))
                    .or_else(|| attr("itemprop"))
                    .or_else(|| attr("http-equiv"));
                if let (Some(k), Some(v)) = (key, attr("content")) {
                    // Some frameworks put the JSON-LD in a `<meta>`.
                    if k.eq_ignore_ascii_case("script:ld+json") {
                        f.ld.read(v);
                    } else {
                        f.meta.push((k.to_ascii_lowercase(), collapse(v)));
                    }
                }
            }
            Tag::TITLE if f.title.is_none() && !in_body => {
                let t = short_text(dom, id, 1000);
                if !t.is_empty() {
                    f.title = Some(t);
                }
            }
            Tag::LINK => {
                let rel = attr("rel").unwrap_or("").to_ascii_lowercase();
                if rel.split_whitespace().any(|r| r == "canonical") && f.canonical.is_none() {
                    f.canonical = attr("href").map(str::to_owned);
                }
            }
            Tag::SCRIPT
                if attr("type").is_some_and(|t| t.to_ascii_lowercase().contains("ld+json")) =>
            {
                let json: String = dom.children(id).filter_map(|c| dom.text_of(c)).collect();
                f.ld.read(&json);
            }
            Tag::H1 if in_body && f.h1.is_empty() => {
                let t = short_text(dom, id, 500);
                if !t.is_empty() {
                    f.h1.push(t);
                }
            }
            Tag::TIME if in_body && f.times.len() < BODY_LOOK => {
                let machine = attr("datetime").and_then(normalize_date);
                let shown = normalize_date(&short_text(dom, id, 60));
                // The text is the author's local day; a `datetime` in UTC
                // may already be on the next one.
                let d = match (machine, shown) {
                    (Some(m), Some(t)) if one_day_apart(&m, &t) => Some(t),
                    (m, t) => m.or(t),
                };
                if let Some(d) = d {
                    f.times.push((time_rank(dom, id), d));
                }
            }
            Tag::A
                if in_body
                    && f.rel_author.len() < BODY_LOOK
                    && attr("rel").is_some_and(|r| {
                        r.split_whitespace()
                            .any(|r| r.eq_ignore_ascii_case("author"))
                    }) =>
            {
                let t = short_text(dom, id, 100);
                if !t.is_empty() && t.len() < 100 {
                    f.rel_author.push(t);
                }
            }
            _ => {}
        }
        if !in_body
            || body_elements >= BODY_ELEMENTS
            || !(need_author || need_date)
            || matches!(
                e.tag,
                Tag::META | Tag::LINK | Tag::SCRIPT | Tag::BODY | Tag::HTML | Tag::TIME
            )
        {
            continue;
        }
        body_elements += 1;
        // Class and id, lower-cased once into a reused buffer.
        let (mut dateish, mut byline) = (false, false);
        for a in dom.attrs_of(id) {
            let v = &dom.attr_text[a.start as usize..a.end as usize];
            match &*a.name {
                "class" | "id" => {
                    lower.clear();
                    lower.extend(v.chars().map(|c| c.to_ascii_lowercase()));
                    dateish |= need_date && lower.contains("date")
                        || lower.contains("publish")
                        || lower.contains("posted");
                    byline |= need_author && (lower.contains("byline") || lower.contains("author"));
                }
                "itemprop" => byline |= need_author && v.trim() == "author",
                _ => {}
            }
        }
        if dateish && f.text_dates.len() < BODY_LOOK {
            let t = short_text(dom, id, 80);
            // The date is usually after a word or two ("Posted on …").
            let words: Vec<&str> = t.split_whitespace().collect();
            if let Some(d) =
                (0..words.len().min(4)).find_map(|i| normalize_date(&words[i..].join(" ")))
            {
                f.text_dates.push(d);
            }
        }
        if byline && f.bylines.len() < BODY_LOOK {
            let t = byline_name(&short_text(dom, id, 120));
            if !t.is_empty() && t.len() <= 80 && t.split_whitespace().count() <= 8 {
                f.bylines.push(t);
            }
        }
    }
    let meta = |keys: &[&str]| meta_value(&f.meta, keys);
    let mut m = Metadata {
        site_name: meta(&["og:site_name"])
            .or_else(|| f.ld.publisher.clone())
            .or_else(|| meta(&["application-name"])),
        ..Metadata::default()
    };
    let host = url.and_then(|u| u.host_str().map(str::to_owned));
    m.title = f
        .ld
        .headline
        .as_ref()
        .filter(|(r, _)| *r == 2)
        .map(|(_, h)| h.clone())
        .or_else(|| meta(&["og:title", "twitter:title"]))
        .or_else(|| f.title.clone())
        .or_else(|| f.h1.first().cloned())
        .map(|t| strip_site(&t, m.site_name.as_deref(), host.as_deref()))
        .map(|t| match f.h1.first() {
            // The page's own headline, when the title merely dresses it
            // up ("The Go Blog" in "The Go Blog - The Go Programming
            // Language"): +N titles on wcxb-dev, see docs/RESULTS.md.
            Some(h) if h.chars().count() >= 4 && t.to_lowercase().contains(&h.to_lowercase()) => {
                h.clone()
            }
            _ => t,
        });
    m.author =
        f.ld.authors
            .as_ref()
            .map(|(_, a)| {
                let mut seen = FxHashSet::default();
                a.iter()
                    .filter(|n| seen.insert(n.to_lowercase()))
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("; ")
            })
            .or_else(|| meta(&AUTHOR_KEYS).filter(|a| !a.starts_with("http")))
            .or_else(|| f.rel_author.first().cloned())
            .or_else(|| f.bylines.first().cloned());
    let from_url = url.and_then(|u| url_date(u.path()));
    m.published = head_published(&f)
        .or_else(|| {
            // The first of the best-ranked `<time>`s.
            let best = f.times.iter().map(|(r, _)| *r).max()?;
            f.times
                .iter()
                .find(|(r, _)| *r == best)
                .map(|(_, d)| d.clone())
        })
        .map(|d| match &from_url {
            // A timestamp the day before or after the URL's date is the
            // same moment in UTC: the URL keeps the author's own day.
            Some(u) if one_day_apart(&d, u) => u.clone(),
            _ => d,
        })
        .or_else(|| from_url.clone())
        .or_else(|| f.text_dates.first().cloned())
        .or_else(|| f.text_date.clone())
        // A page that only says when it was last changed.
        .or_else(|| head_modified(&f));
    m.modified = head_modified(&f);
    m.description = meta(&["og:description", "description"])
        .or_else(|| f.ld.description.as_ref().map(|(_, d)| d.clone()));
    let declared = f
        .lang
        .clone()
        .or_else(|| meta(&["content-language"]))
        .or_else(|| meta(&["og:locale"]))
        .map(|l| {
            l.split(',')
                .next()
                .unwrap_or("")
                .trim()
                .replace('_', "-")
                .to_ascii_lowercase()
        })
        .filter(|l| !l.is_empty());
    if let Some(l) = declared {
        m.language = Some(l);
        m.language_source = Some("declared");
    } else {
        detect_language(&mut m, text);
    }
    // Only a web address is a canonical URL: `javascript:`, `data:` and
    // the like are not (and a page could plant them for whoever follows).
    let web_url = |c: &str| {
        let u = match url {
            Some(u) => u.join(c).ok()?,
            None => Url::parse(c).ok()?,
        };
        matches!(u.scheme(), "http" | "https").then(|| u.to_string())
    };
    m.canonical = f
        .canonical
        .as_deref()
        .and_then(web_url)
        .or_else(|| meta(&["og:url"]).as_deref().and_then(web_url));
    let mut seen = FxHashSet::default();
    let tags = f
        .meta
        .iter()
        .filter(|(k, _)| k == "article:tag")
        .map(|(_, v)| v.clone())
        .chain(f.ld.keywords.iter().cloned());
    for t in tags {
        if seen.insert(t.to_lowercase()) {
            m.tags.push(t);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn meta_of(html: &str, url: Option<&str>) -> Metadata {
        let dom = parse(html);
        let u = url.and_then(|u| Url::parse(u).ok());
        metadata(&dom, u.as_ref(), "")
    }

    #[test]
    fn json_ld_graph_wins() {
        let html = r#"<html lang="en_US"><head><title>Old title | Example News</title>
            <meta property="og:site_name" content="Example News">
            <meta name="author" content="Meta Person">
            <meta property="article:tag" content="rust"><meta property="article:tag" content="HTML">
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
              {"@type":"WebPage","name":"Page name","datePublished":"2020-01-01"},
              {"@type":["NewsArticle"],"headline":"The headline","author":[{"@type":"Person","name":"Ann Lee"},{"name":"Bo Chan"}],
               "datePublished":"2024-03-14T09:30:00+01:00","dateModified":"2024-03-15","keywords":"rust, html",
               "publisher":{"@type":"Organization","name":"Example Org"}}]}</script>
            </head><body><h1>H1</h1></body></html>"#;
        let m = meta_of(html, Some("https://www.example.com/a"));
        assert_eq!(m.title.as_deref(), Some("The headline"));
        assert_eq!(m.author.as_deref(), Some("Ann Lee; Bo Chan"));
        assert_eq!(m.published.as_deref(), Some("2024-03-14T09:30:00+01:00"));
        assert_eq!(m.modified.as_deref(), Some("2024-03-15"));
        assert_eq!(m.site_name.as_deref(), Some("Example News"));
        assert_eq!(m.language.as_deref(), Some("en-us"));
        assert_eq!(m.tags, vec!["rust", "HTML"]);
    }

    #[test]
    fn fallbacks_title_suffix_byline_time_url() {
        let html = r#"<head><title>Why bees matter - Example</title><link rel=canonical href="/bees"></head>
            <body><div class="post-byline">By Jane Roe</div><time datetime="2023-07-04">July 4</time></body>"#;
        let m = meta_of(html, Some("https://example.org/2021/05/06/bees"));
        assert_eq!(m.title.as_deref(), Some("Why bees matter"));
        assert_eq!(m.author.as_deref(), Some("Jane Roe"));
        assert_eq!(m.published.as_deref(), Some("2023-07-04"));
        assert_eq!(m.canonical.as_deref(), Some("https://example.org/bees"));
        // Only http(s) addresses are canonical URLs: a script is not, and
        // og:url stands in for it.
        let bad = r#"<head><link rel=canonical href="javascript:alert(1)">
            <meta property="og:url" content="https://example.org/good"></head>"#;
        let m = meta_of(bad, Some("https://example.org/a"));
        assert_eq!(m.canonical.as_deref(), Some("https://example.org/good"));
        for href in ["JavaScript:alert(1)", "data:text/html,x", "vbscript:x"] {
            let html = format!("<head><link rel=canonical href=\"{href}\"></head>");
            assert_eq!(meta_of(&html, None).canonical, None, "{href}");
            assert_eq!(meta_of(&html, Some("https://example.org/")).canonical, None);
        }
        // Without the <time>, the URL's date.
        let m = meta_of("<p>x</p>", Some("https://example.org/2021/05/06/bees"));
        assert_eq!(m.published.as_deref(), Some("2021-05-06"));
        // A suffix that is not the site stays.
        let m = meta_of(
            "<title>Cats - the truth</title>",
            Some("https://example.org/"),
        );
        assert_eq!(m.title.as_deref(), Some("Cats - the truth"));
    }

    #[test]
    fn bylines_lose_dates() {
        assert_eq!(byline_name("By Team X September 4, 2025"), "Team X");
        assert_eq!(byline_name("Jane Roe | Updated Feb. 27"), "Jane Roe");
        assert_eq!(
            byline_name("Perseus Legend Member Oct 10, 2022"),
            "Perseus Legend"
        );
    }

    #[test]
    fn dates_normalise() {
        assert_eq!(normalize_date("2024/3/14"), None);
        assert_eq!(normalize_date("2024/03/14").as_deref(), Some("2024-03-14"));
        assert_eq!(normalize_date("20240314").as_deref(), Some("2024-03-14"));
        assert_eq!(
            normalize_date("2024-03-14T09:30Z").as_deref(),
            Some("2024-03-14T09:30Z")
        );
        assert_eq!(
            normalize_date("March 14, 2024").as_deref(),
            Some("2024-03-14")
        );
        assert_eq!(normalize_date("14 Mar 2024").as_deref(), Some("2024-03-14"));
        assert_eq!(normalize_date("yesterday"), None);
        assert_eq!(normalize_date("{bad json"), None);
    }

    #[test]
    fn language_is_detected_only_when_undeclared() {
        let dom = parse("<p>x</p>");
        let text = "Le chat est sur la table et il dort depuis ce matin, comme tous les jours de la semaine.";
        let m = metadata(&dom, None, text);
        assert_eq!(m.language.as_deref(), Some("fr"));
        assert_eq!(m.language_source, Some("detected"));
        let dom = parse("<html lang=de><p>x</p>");
        assert_eq!(metadata(&dom, None, text).language.as_deref(), Some("de"));
    }

    #[test]
    fn broken_json_ld_is_ignored() {
        let m = meta_of(
            r#"<script type="application/ld+json">{"@type":"Article","headline":</script><title>T</title>"#,
            None,
        );
        assert_eq!(m.title.as_deref(), Some("T"));
    }

    #[test]
    fn dates_in_other_languages_and_day_first() {
        for (text, want) in [
            ("4. März 2024", "2024-03-04"),
            ("12 février 2023", "2023-02-12"),
            ("5 de marzo de 2024", "2024-03-05"),
            ("3 maggio 2022", "2022-05-03"),
            ("1er août 2021", "2021-08-01"),
            ("17 oktober 2020", "2020-10-17"),
            ("9 dezembro 2019", "2019-12-09"),
            ("23.07.2025", "2025-07-23"),
            ("1.2.2024", "2024-02-01"),
            ("13/11/2025 09:21:40", "2025-11-13"),
            ("11/13/2025", "2025-11-13"),
            ("31-12-2023", "2023-12-31"),
        ] {
            assert_eq!(normalize_date(text).as_deref(), Some(want), "{text}");
        }
        // Day and month both 12 or under: which is which is unknown.
        assert_eq!(normalize_date("03/04/2024"), None);
        assert_eq!(normalize_date("23.07.25"), None);
        assert_eq!(normalize_date("mai"), None);
        // A colon-less zone is written with its colon.
        assert_eq!(
            normalize_date("2025-12-19T04:25:38+0500").as_deref(),
            Some("2025-12-19T04:25:38+05:00")
        );
        assert_eq!(day_number("1970-01-01"), Some(0));
        assert_eq!(day_number("2024-03-01"), Some(19_783));
        assert!(one_day_apart("2024-02-29T23:00Z", "2024-03-01"));
        assert!(one_day_apart("2024-12-31", "2025-01-01"));
        assert!(!one_day_apart("2024-03-01", "2024-03-03"));
    }

    #[test]
    fn utc_timestamps_keep_the_local_day() {
        // The head's UTC time is past midnight; the URL has the author's day.
        let head =
            r#"<meta property="article:published_time" content="2025-12-19T02:41:41+00:00">"#;
        let m = meta_of(head, Some("https://blog.example/2025/12/18/post"));
        assert_eq!(m.published.as_deref(), Some("2025-12-18"));
        // Two days apart is another date, not another zone: the head wins.
        let m = meta_of(head, Some("https://blog.example/2025/12/17/post"));
        assert_eq!(m.published.as_deref(), Some("2025-12-19T02:41:41+00:00"));
        // A <time> whose text is the day before its UTC datetime.
        let m = meta_of(
            r#"<body><time datetime="2026-02-24T04:13:00Z">February 23, 2026</time>"#,
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2026-02-23"));
    }

    #[test]
    fn publication_times_outrank_update_times() {
        let m = meta_of(
            r#"<body><p class="post-updated"><time datetime="2025-06-01">June 1</time></p>
               <time datetime="2025-09-09">Sep 9</time>
               <span itemprop="datePublished"><time datetime="2024-01-02">Jan 2</time></span>"#,
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2024-01-02"));
        // A question's dateCreated before its answers' datePublished.
        let m = meta_of(
            r#"<body><time itemprop="dateCreated" datetime="2014-02-04 13:27:40Z"></time>
               <time itemprop="datePublished">2019-01-21T21:40:59Z</time>"#,
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2014-02-04T13:27:40Z"));
        // Unmarked times: the first; an update-only time is still a date.
        let m = meta_of(
            r#"<body><time class="updated" datetime="2025-06-01"></time>"#,
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2025-06-01"));
    }

    #[test]
    fn forum_postings_and_json_ld_in_meta() {
        let m = meta_of(
            r#"<script type="application/ld+json">{"@type":"DiscussionForumPosting","headline":"Help",
               "author":{"@type":"Person","name":"Mod Sharon"},"datePublished":"2025-11-28T19:07:05.446Z"}</script>"#,
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2025-11-28T19:07:05Z"));
        assert_eq!(m.author.as_deref(), Some("Mod Sharon"));
        let m = meta_of(
            r#"<meta name="script:ld+json" content="{&quot;@type&quot;:&quot;Article&quot;,&quot;datePublished&quot;:&quot;2025-11-17T09:00:00-05:00&quot;}">"#,
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2025-11-17T09:00:00-05:00"));
    }

    #[test]
    fn other_publish_metas_and_the_modified_fallback() {
        let m = meta_of(
            r#"<meta property="article:publisher" content="2020-01-01"><meta name="w-published-date" content="2025-05-27T06:03:43.274Z">"#,
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2025-05-27T06:03:43Z"));
        let m = meta_of(r#"<meta name="published" content="July 17, 2025">"#, None);
        assert_eq!(m.published.as_deref(), Some("2025-07-17"));
        // Only a modification date: it is the page's date.
        let m = meta_of(
            r#"<meta property="article:modified_time" content="2023-06-12T10:39:42+00:00">"#,
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2023-06-12T10:39:42+00:00"));
        let m = meta_of(
            r#"<meta name="Updated Date" content="2025-07-02T14:13:01Z">"#,
            None,
        );
        assert_eq!(m.modified.as_deref(), Some("2025-07-02T14:13:01Z"));
        assert_eq!(m.published.as_deref(), Some("2025-07-02T14:13:01Z"));
        // A written date in the body comes before it.
        let m = meta_of(
            r#"<meta property="article:modified_time" content="2023-06-12"><body><p>Posted March 3, 2021</p>"#,
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2021-03-03"));
    }

    #[test]
    fn written_dates_below_a_long_menu() {
        let menu: String = (0..1500).map(|i| format!("<li>item {i}</li>")).collect();
        let html = format!("<body><ul>{menu}</ul><p>Published on Oct 21, 2025</p>");
        assert_eq!(
            meta_of(&html, None).published.as_deref(),
            Some("2025-10-21")
        );
    }
}
