//! Page metadata: title, authors, dates, description, site name, language,
//! canonical URL, categories, tags, preview image and licence, read from
//! the parsed page before cleaning.
//!
//! One linear pass over the node arena (document order, no recursion)
//! collects the candidates — `<meta>`, `<link>`, `<title>`, JSON-LD
//! scripts, `<html lang>`, the first `<h1>`, `<time datetime>`, `rel`
//! links (author, category, tag, license), Creative Commons links,
//! bylines and a breadcrumb trail; the body's elements are looked at only
//! up to [`BODY_LOOK`] candidates each and their classes only among the
//! first [`BODY_ELEMENTS`]. JSON-LD is parsed with `serde_json` (`@graph`,
//! arrays, nested `author` objects, a CDATA wrapper included); values
//! escaped twice in the source are decoded with `html-escape`.
//!
//! Which source wins, field by field (the first present):
//!
//! * **title**: JSON-LD `headline` of an article (its `name` instead when
//!   the `<h1>` repeats that and not the headline; none when `og:title`
//!   and the `<h1>` agree on another title), `og:title`, `twitter:title`,
//!   the first `<title>` with text anywhere in the tree (a wrapper
//!   element puts it in the body), the first `<h1>`. A leading or trailing
//!   part that names the site is cut (` | Site`, ` - Site`, also `–`, `—`,
//!   `·`, `•`, `::`, `»`; `Site-…` / `…_Site` without spaces when it is the
//!   site's exact name): a part names the site when it is the declared
//!   name or the host, holds it (at the end of the title), or at the end
//!   holds every label of the host, its initials or a distinctive word of
//!   it, or is a domain name; on a home page only a trailing part is cut
//!   (a home page's title is the site's own). Then the first `<h1>` when
//!   the title contains it ("The Go Blog" in "The Go Blog - The Go
//!   Programming Language"), except an `<h1>` that is the site's logo
//!   (its declared name or a piece of the host) or the `<title>`'s last
//!   part: that one is cut from the title instead.
//! * **author**: JSON-LD `author` names (all, joined by `; `), `meta
//!   name=author`, `article:author` (when not a URL), `meta name=byl` /
//!   `parsely-author` / `sailthru.author` / `dc.creator`, the text of the
//!   first `rel=author` link, the first element whose class or id says
//!   `byline` or `author` (not `authoring`; not in a comment or a
//!   customer review; at most [`BYLINE_CHARS`] of text; the name element
//!   inside it when it has one). Every candidate goes through
//!   `author::clean_author` (credits, dates, job titles and addresses cut;
//!   non-names dropped). The site's own name, an organisation or a domain
//!   name gives way to a person named by a later source.
//! * **published** / **modified**: JSON-LD `datePublished` (or
//!   `dateCreated`) / `dateModified` of an article or posting (also JSON-LD
//!   in a `<meta name="script:ld+json">`), `article:published_time` /
//!   `article:modified_time` (also `og:` and `itemprop` forms), `meta
//!   name=date` / `pubdate` / `dc.date*`, any other `<meta>` named
//!   `…publish…` / `…publication…` (modified: `…modified…` / `…updated…`);
//!   when JSON-LD and a meta give the same day, the one with the time.
//!   Then the body's `<time datetime>`s, those marked as the publication
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
//! * **site_name**: `og:site_name` as written (the page's own case and
//!   form; trailing separators cut; a value without letters is none), a
//!   JSON-LD `WebSite`'s name, `application-name`, the `<title>` part that
//!   names the host, JSON-LD `publisher.name`, the title's last part (the
//!   shorter one of `Site: Title` when there is no host), the host without
//!   `www.` (the page's URL, else its canonical URL).
//! * **language**: `<html lang>`, `meta http-equiv=content-language`,
//!   `og:locale`, then detection from the extracted text with `whatlang`
//!   (only when the page declares nothing: a declaration is the author's
//!   word, detection is a guess). Lower case, `_` → `-`.
//! * **canonical**: `link rel=canonical`, `og:url` (resolved).
//! * **categories**: `article:section` / `section` / `category` /
//!   `articleSection` metas, JSON-LD `articleSection`, the breadcrumb trail
//!   (JSON-LD `BreadcrumbList`, else the body's: microdata or an element
//!   whose class or id says breadcrumb, at most [`MAX_TRAIL_LINKS`] links)
//!   without its home entry and without the page itself, `rel=category`
//!   links (and `rel=tag` links to a `/category/` address).
//! * **tags**: `article:tag`, `keywords` (also `http-equiv`),
//!   `news_keywords`, JSON-LD `keywords`, `rel=tag` links; split into
//!   entries (`labels::split_keywords`), without the site's name or
//!   domain, copies of the title and `key:value` settings.
//! * **image**: `og:image` (`:url`, `:secure_url`), `twitter:image`,
//!   the article's JSON-LD `image`, `link rel=image_src`, `meta
//!   name=image`; made absolute.
//! * **license**: the first `rel=license` link (`CC BY-SA 4.0` for a
//!   Creative Commons address, else its text, else its address; none for
//!   a privacy or terms page), else the first link to a Creative Commons
//!   licence.
//!
//! Categories and tags are labels (`labels::is_label`), deduplicated
//! case-insensitively, in the order of the sources above. `page_type` is
//! not read yet.

use rustc_hash::FxHashSet;
use serde_json::Value;
use url::Url;

use crate::dom::{Dom, NodeId, NodeKind, Ns, Tag};

mod author;
mod labels;

use author::clean_author;

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
    /// The sections the site files the page under (article sections,
    /// the breadcrumb trail, category links).
    pub categories: Vec<String>,
    /// The page's keywords and tags.
    pub tags: Vec<String>,
    /// The page's preview image (absolute URL).
    pub image: Option<String>,
    /// The licence of the page's content (`CC BY-SA 4.0`, a licence
    /// link's text, or its URL).
    pub license: Option<String>,
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
    /// Bylines (element, name).
    bylines: Vec<(NodeId, String)>,
    /// The name in an element inside the first byline whose class or id
    /// also says `name` (`author-name` in an author box that also holds
    /// a heading and a job title).
    byline_name: Option<String>,
    lang: Option<String>,
    canonical: Option<String>,
    /// `<link rel=image_src>`.
    image_src: Option<String>,
    /// Texts of `rel=category` links (and of `rel=tag` links to a
    /// `/category/` address).
    rel_categories: Vec<String>,
    /// Texts of `rel=tag` links.
    rel_tags: Vec<String>,
    /// The breadcrumb trail in the body (an element whose class or id
    /// says breadcrumb, or a microdata `BreadcrumbList`): its element and
    /// its links (text, address).
    trail: Option<(NodeId, Vec<Crumb>)>,
    /// The first `rel=license` link's (address, text).
    license_link: Option<(Option<String>, String)>,
    /// The first link to a Creative Commons licence.
    cc_link: Option<String>,
    ld: Ld,
}

/// A breadcrumb entry: its name and address.
type Crumb = (String, Option<String>);

/// What JSON-LD said; `rank` 2 = an article, 1 = a web page.
#[derive(Default)]
struct Ld {
    rank: u8,
    headline: Option<(u8, String)>,
    /// The article's `name` (Wikipedia's `headline` is a description,
    /// its `name` the title).
    name: Option<(u8, String)>,
    /// Author names, each through [`clean_author`], with whether they
    /// are organisations.
    authors: Option<(u8, Vec<(bool, String)>)>,
    published: Option<(u8, String)>,
    modified: Option<(u8, String)>,
    description: Option<(u8, String)>,
    publisher: Option<String>,
    /// A `WebSite` object's name.
    website: Option<String>,
    keywords: Vec<String>,
    /// The article's `articleSection`s.
    sections: Vec<String>,
    image: Option<(u8, String)>,
    /// The first `BreadcrumbList`'s entries (name, address).
    crumbs: Vec<Crumb>,
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

/// Most entries of a JSON-LD `author` array read: a paper's author list
/// is long; a page's, a handful.
const MAX_LD_AUTHORS: usize = 16;

/// Most entries of a JSON-LD `image` array looked at for an address.
const MAX_LD_IMAGES: usize = 8;

/// The author names in a JSON-LD `author` value, each through
/// [`clean_author`], with whether it is an organisation's.
fn names_of(v: &Value, out: &mut Vec<(bool, String)>) {
    match v {
        Value::Array(a) => a.iter().take(MAX_LD_AUTHORS).for_each(|x| names_of(x, out)),
        Value::Object(o) => {
            let org = types_of(o).any(|t| t.ends_with("Organization"));
            if let Some(n) = o
                .get("name")
                .and_then(str_of)
                .and_then(|n| clean_author(&n))
            {
                out.push((org, n));
            }
        }
        Value::String(s) => {
            if let Some(n) = clean_author(&collapse(s)) {
                out.push((false, n));
            }
        }
        _ => {}
    }
}

/// The `@type`s of a JSON-LD object.
fn types_of(o: &serde_json::Map<String, Value>) -> impl Iterator<Item = &str> {
    let (one, many) = match o.get("@type") {
        Some(Value::String(s)) => (Some(s.as_str()), None),
        Some(Value::Array(a)) => (None, Some(a.iter().filter_map(Value::as_str))),
        _ => (None, None),
    };
    one.into_iter().chain(many.into_iter().flatten())
}

/// An image address in a JSON-LD `image` value: a string, the first of
/// an array, an `ImageObject`'s `url` or `contentUrl`; not a reference
/// to another object (`…#primaryimage`).
fn image_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => {
            let s = s.trim();
            (!s.is_empty() && !s.contains('#')).then(|| s.to_owned())
        }
        Value::Array(a) => a.iter().take(MAX_LD_IMAGES).find_map(image_of),
        Value::Object(o) => o
            .get("url")
            .or_else(|| o.get("contentUrl"))
            .and_then(image_of),
        _ => None,
    }
}

/// A `BreadcrumbList`'s entries in order of `position`: each entry's
/// name and address (`item` as a string, or its `@id`/`url`).
fn crumbs_of(list: &serde_json::Map<String, Value>) -> Vec<Crumb> {
    let Some(Value::Array(items)) = list.get("itemListElement") else {
        return Vec::new();
    };
    let mut out: Vec<(f64, String, Option<String>)> = Vec::new();
    for (i, it) in items.iter().take(labels::MAX_CATEGORIES).enumerate() {
        let Value::Object(it) = it else { continue };
        let item = it.get("item");
        let name = it
            .get("name")
            .and_then(str_of)
            .or_else(|| item.and_then(|x| x.get("name")).and_then(str_of));
        let href = match item {
            Some(Value::String(s)) => Some(s.trim().to_owned()),
            Some(Value::Object(o)) => o
                .get("@id")
                .or_else(|| o.get("url"))
                .and_then(Value::as_str)
                .map(|s| s.trim().to_owned()),
            _ => None,
        }
        .filter(|h| !h.is_empty());
        let pos = it
            .get("position")
            .and_then(|p| p.as_f64().or_else(|| p.as_str()?.trim().parse().ok()))
            .unwrap_or(i as f64);
        if let Some(name) = name {
            out.push((pos, name, href));
        }
    }
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out.into_iter().map(|(_, n, h)| (n, h)).collect()
}

fn type_rank(o: &serde_json::Map<String, Value>) -> u8 {
    types_of(o)
        .map(|t| {
            // `…Posting`: BlogPosting, DiscussionForumPosting (forum
            // threads), SocialMediaPosting.
            if t.ends_with("Article")
                || t.ends_with("Posting")
                || matches!(t, "Report" | "Review" | "Recipe")
            {
                2
            } else if t.ends_with("Page") {
                1
            } else {
                0
            }
        })
        .max()
        .unwrap_or(0)
}

impl Ld {
    fn read(&mut self, json: &str) {
        // Some pages wrap the JSON in a CDATA section (`<![CDATA[ … ]]>`,
        // also behind `//`), as for XHTML.
        let mut json = json.trim();
        for open in ["//<![CDATA[", "<![CDATA["] {
            if let Some(rest) = json.strip_prefix(open) {
                json = rest.trim_end();
                json = json.strip_suffix("]]>").unwrap_or(json).trim_end();
                json = json.strip_suffix("//").unwrap_or(json);
                break;
            }
        }
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
                    if self.website.is_none() && types_of(o).any(|t| t == "WebSite") {
                        self.website = o.get("name").and_then(str_of);
                    }
                    if self.crumbs.is_empty() && types_of(o).any(|t| t == "BreadcrumbList") {
                        self.crumbs = crumbs_of(o);
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
                    if rank == 2
                        && let Some(n) = o.get("name").and_then(str_of)
                    {
                        put(&mut self.name, rank, n);
                    }
                    if rank == 2
                        && let Some(i) = o
                            .get("image")
                            .or_else(|| o.get("thumbnailUrl"))
                            .and_then(image_of)
                    {
                        put(&mut self.image, rank, i);
                    }
                    if rank == 2 && self.sections.is_empty() {
                        match o.get("articleSection") {
                            Some(Value::Array(a)) => self
                                .sections
                                .extend(a.iter().take(labels::MAX_CATEGORIES).filter_map(str_of)),
                            Some(v) => self.sections.extend(str_of(v)),
                            None => {}
                        }
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
                            Some(Value::String(s)) => {
                                self.keywords.extend(labels::split_keywords(&collapse(s)))
                            }
                            Some(Value::Array(a)) => self
                                .keywords
                                .extend(a.iter().take(labels::MAX_TAGS).filter_map(str_of)),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// White space collapsed, and the character references of doubly
/// escaped values (`&amp;#8217;` in the source, common in meta tags and
/// JSON-LD: `&#8217;` once parsed) decoded with `html-escape`.
fn collapse(s: &str) -> String {
    let mut out = crate::text::collapse_whitespace(s);
    // Escaped twice or three times (`&amp;amp;#8230;` in JSON-LD).
    for _ in 0..MAX_UNESCAPES {
        if !out.contains('&') {
            break;
        }
        match html_escape::decode_html_entities(&out) {
            std::borrow::Cow::Owned(d) => out = d,
            std::borrow::Cow::Borrowed(_) => break,
        }
    }
    out
}

/// How many times a value's character references are decoded: sources
/// escape once too many, sometimes twice.
const MAX_UNESCAPES: usize = 3;

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
/// `publish…` metas. When JSON-LD and a meta give the same day, the one
/// with the time of day (`2024-03-05T09:30:00+01:00` over `2024-03-05`).
fn head_published(f: &Found) -> Option<String> {
    let from_meta = meta_value(&f.meta, &DATE_KEYS).and_then(|d| normalize_date(&d));
    match (f.ld.published.as_ref().map(|(_, d)| d.clone()), from_meta) {
        (Some(ld), Some(m)) if ld.get(..10) == m.get(..10) && m.len() > ld.len() => Some(m),
        (Some(ld), _) => Some(ld),
        (None, Some(m)) => Some(m),
        (None, None) => other_published_meta(&f.meta),
    }
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

/// How many of a breadcrumb trail's nodes are read for its links: a
/// trail is a handful of links; a container that is the whole page is
/// not read to its end.
pub const TRAIL_NODES: usize = 400;

/// How far up the tree a breadcrumb element found inside an earlier one
/// is recognised as inside it (an outer bar holding the trail and a
/// language menu, then the trail itself).
const TRAIL_DEPTH: usize = 32;

/// A part of a title or an author that is the site's name may be this
/// many characters longer than the name and still be it ("Reuters.com",
/// "The Verge", "Foo Blog"); longer, it says more than the name
/// ("Gymshark Arrival T-Shirt").
const SITE_AFFIX_CHARS: usize = 5;

/// Fewest characters of a part of the site's name that counts as naming
/// it ("WSJ" in "WSJ.com").
const SITE_PART_CHARS: usize = 3;

/// Most words of a site name read from a title ("… | Site Name").
const TITLE_SITE_WORDS: usize = 6;

/// Lower-cased letters and digits only: how names are compared.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The site's names a title part or an author is compared with: the
/// declared site name and the host (its name without the top-level
/// domain, and whole), squashed.
struct Site {
    name: Option<String>,
    host_label: Option<String>,
    host_full: Option<String>,
    /// The host's labels without `www` and the top-level domain
    /// (`forums`, `raspberrypi`).
    host_labels: Vec<String>,
    /// The host's distinctive words: its labels and their hyphenated
    /// parts, without the common ones (`docs`, `blog`, …) and shorter
    /// than [`HOST_WORD_CHARS`] (`flask` of flask.palletsprojects.com,
    /// `rust` of blog.rust-lang.org).
    host_words: Vec<String>,
}

/// Fewest characters of a host word that names the site in a title's
/// last part.
const HOST_WORD_CHARS: usize = 4;

/// Host labels that name a kind of site, not a site.
const COMMON_HOST_WORDS: &[&str] = &[
    "www",
    "docs",
    "doc",
    "blog",
    "blogs",
    "news",
    "forum",
    "forums",
    "community",
    "support",
    "help",
    "shop",
    "store",
    "home",
    "info",
    "about",
    "mail",
    "wiki",
    "learn",
    "online",
    "site",
    "official",
    "media",
    "service",
    "services",
    "search",
    "apps",
    "english",
];

impl Site {
    fn new(name: Option<&str>, host: Option<&str>) -> Site {
        let host = host.map(|h| h.trim_start_matches("www."));
        Site {
            name: name.map(squash).filter(|s| !s.is_empty()),
            host_label: host
                .map(|h| squash(h.rsplit_once('.').map_or(h, |(a, _)| a)))
                .filter(|s| !s.is_empty()),
            host_full: host.map(squash).filter(|s| !s.is_empty()),
            host_labels: host
                .and_then(|h| h.rsplit_once('.'))
                .map(|(a, _)| a.split('.').map(squash).filter(|l| !l.is_empty()).collect())
                .unwrap_or_default(),
            host_words: host
                .and_then(|h| h.rsplit_once('.'))
                .map(|(a, _)| {
                    a.split(['.', '-'])
                        .map(str::to_lowercase)
                        .filter(|w| {
                            w.chars().count() >= HOST_WORD_CHARS
                                && !COMMON_HOST_WORDS.contains(&w.as_str())
                        })
                        .collect()
                })
                .unwrap_or_default(),
        }
    }

    /// Whether `part` names the site: it is the name, a piece of it, or
    /// holds the name: at the end of a title ("… | Reuters.com", "… |
    /// Zoho People") with anything around it, at the start only with a
    /// short affix (see [`SITE_AFFIX_CHARS`]: "Gymshark Arrival T-Shirt -
    /// Black" does not start with the site's name alone).
    fn named_by(&self, part: &str, at_end: bool) -> bool {
        let p = squash(part);
        let like = |s: &String| {
            p == *s
                || (p.chars().count() >= SITE_PART_CHARS && s.contains(&p))
                || (p.contains(s.as_str()) && (at_end || p.len() <= s.len() + SITE_AFFIX_CHARS))
        };
        !p.is_empty()
            && (self.name.as_ref().is_some_and(like)
                || self.host_label.as_ref().is_some_and(like)
                || self.host_full.as_ref().is_some_and(|h| p == *h)
                || (at_end && self.named_at_end(part, &p)))
    }

    /// The ways a title's last part names the site without spelling its
    /// name or host as one word: every label of the host
    /// ("Raspberry Pi Forums" on forums.raspberrypi.com), the host's
    /// initials ("Occupational Safety and Health Administration" on
    /// osha.gov), a domain name of its own ("Newegg.com"), a distinctive
    /// word of the host ("Rust Blog" on blog.rust-lang.org).
    fn named_at_end(&self, part: &str, p: &str) -> bool {
        let labels = self.host_labels.len() >= 2
            && self
                .host_labels
                .iter()
                .all(|l| l.chars().count() >= SITE_PART_CHARS && p.contains(l.as_str()));
        let initials: String = part
            .split_whitespace()
            .filter(|w| {
                !matches!(
                    w.to_lowercase().as_str(),
                    "and" | "of" | "the" | "for" | "&"
                )
            })
            .filter_map(|w| w.chars().next())
            .flat_map(char::to_lowercase)
            .collect();
        let acronym = initials.chars().count() >= SITE_PART_CHARS
            && self.host_label.as_deref() == Some(initials.as_str());
        let domain = !part.trim().contains(' ')
            && part.trim().rsplit_once('.').is_some_and(|(name, tld)| {
                !name.is_empty()
                    && labels::TLD_CHARS.contains(&tld.len())
                    && tld.chars().all(|c| c.is_ascii_alphabetic())
            });
        // A distinctive word of the host as a word of the part ("Flask
        // Documentation (3.1.x)" on flask.palletsprojects.com).
        let word = part
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| self.host_words.iter().any(|h| w.to_lowercase() == *h));
        labels || acronym || domain || word
    }

    /// Whether `part` is exactly the site's name or host.
    fn is(&self, part: &str) -> bool {
        let p = squash(part);
        [&self.name, &self.host_label, &self.host_full]
            .into_iter()
            .any(|s| s.as_deref() == Some(p.as_str()))
    }

    /// Whether a page's `<h1>` is the site's logo: the declared name (or
    /// a piece of it), or a piece of the host other than its plain name
    /// ("virtualbox.org" on forums.virtualbox.org, "MyBB" on
    /// community.mybb.com; "Organic SEO Consultant" on
    /// organicseoconsultant.com is the company's own headline).
    fn logo(&self, h1: &str) -> bool {
        let p = squash(h1);
        p.chars().count() >= SITE_PART_CHARS
            && (self.name.as_ref().is_some_and(|s| s.contains(&p))
                || (self.host_label.as_deref() != Some(p.as_str())
                    && self.host_full.as_ref().is_some_and(|h| h.contains(&p))))
    }

    /// Whether an author candidate is the site itself: the declared
    /// name, or the name with more ("Help Net Security Sponsored"); not a
    /// piece of the name, nor the host (a person's own site is often named
    /// after them: "Myles Katherine Photography", myleskatherine.com).
    fn authored_by_site(&self, author: &str) -> bool {
        let p = squash(author);
        !p.is_empty()
            && self.name.as_ref().is_some_and(|s| {
                *s == p || (s.chars().count() > SITE_PART_CHARS && p.contains(s.as_str()))
            })
    }
}

/// Separators between a title and the site's name.
const SEPS: [&str; 9] = [
    " | ", " - ", " – ", " — ", " · ", " • ", " :: ", " » ", " ｜ ",
];

/// Separators written without spaces, between a site's name and a
/// title ("TFH Online Forum-What to look for…", "…_央广网").
const TIGHT_SEPS: [char; 6] = ['-', '|', '_', '｜', '–', '—'];

/// Cuts a ` | Site` / `Site | ` part that names the site (also `Site-…`
/// and `…_Site` without spaces when the part is the site's declared
/// name or host).
fn strip_site(title: &str, site: &Site, leading: bool) -> String {
    // "| Site" with nothing before it: no title at all.
    let bare_title = title.trim_start_matches(|c: char| {
        c.is_whitespace() || SEPS.iter().any(|s| s.trim().starts_with(c))
    });
    if bare_title.len() != title.len() && site.named_by(bare_title, true) {
        return String::new();
    }
    for sep in SEPS {
        if let Some((head, tail)) = title.rsplit_once(sep)
            && site.named_by(tail, true)
            && !head.trim().is_empty()
        {
            return head.trim().to_owned();
        }
        if leading
            && let Some((head, tail)) = title.split_once(sep)
            && site.named_by(head, false)
            && !tail.trim().is_empty()
        {
            return tail.trim().to_owned();
        }
    }
    // Without spaces, only the site's exact name ("AI-Powered" is no
    // separator).
    if let Some((head, tail)) = title.rsplit_once(TIGHT_SEPS)
        && !head.trim().is_empty()
        && site.is(tail)
    {
        return head.trim().to_owned();
    }
    if leading
        && let Some((head, tail)) = title.split_once(TIGHT_SEPS)
        && !tail.trim().is_empty()
        && site.is(head)
    {
        return tail.trim().to_owned();
    }
    title.to_owned()
}

/// A title without the straight quotes around it (`"What is Git?"`),
/// when it has no others (typographic quotes are the title's own: “New
/// Ways to Corrupt LLMs”).
fn unquote(t: &str) -> &str {
    match t.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) if !inner.contains('"') => inner.trim(),
        _ => t,
    }
}

/// The last part of a title (after its last separator), if it has parts.
fn last_part(title: &str) -> Option<&str> {
    SEPS.iter()
        .filter_map(|sep| title.rfind(sep).map(|i| (i, sep.len())))
        .max()
        .map(|(i, n)| title[i + n..].trim())
}

/// `title` without its trailing part (and with `leading`, its leading
/// part) equal to `part`: the page's `<h1>` when it is the site's name
/// ("What is Ownership? - The Rust Programming Language" with the `<h1>`
/// "The Rust Programming Language").
fn cut_part(title: &str, part: &str, leading: bool) -> Option<String> {
    let p = squash(part);
    for sep in SEPS {
        if let Some((head, tail)) = title.rsplit_once(sep)
            && squash(tail) == p
            && !head.trim().is_empty()
        {
            return Some(head.trim().to_owned());
        }
        if leading
            && let Some((head, tail)) = title.split_once(sep)
            && squash(head) == p
            && !tail.trim().is_empty()
        {
            return Some(tail.trim().to_owned());
        }
    }
    None
}

/// The site's name as a title gives it, for a page that declares none:
/// the part that names the host, else (a title of two or more parts) the
/// last part, or for `Site: Title` the shorter; at most
/// [`TITLE_SITE_WORDS`] words. With whether it came from a colon.
fn title_site(title: &str, site: &Site) -> Option<(String, bool)> {
    let cjk = title
        .chars()
        .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    let mut parts: Vec<&str> = Vec::new();
    let mut colon = false;
    for sep in SEPS {
        if title.contains(sep) {
            parts = title.split(sep).collect();
            break;
        }
    }
    if parts.is_empty() && cjk {
        parts = title.split(TIGHT_SEPS).collect();
    }
    if parts.is_empty() {
        for sep in [": ", " : "] {
            if let Some((a, b)) = title.split_once(sep) {
                parts = vec![a, b];
                colon = true;
                break;
            }
        }
    }
    let parts: Vec<&str> = parts
        .into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() < 2 {
        return None;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    let pick = if site.named_by(first, false) {
        first
    } else if site.named_by(last, true) || !colon {
        last
    } else if first.chars().count() <= last.chars().count() {
        first
    } else {
        last
    };
    (pick.split_whitespace().count() <= TITLE_SITE_WORDS).then(|| (pick.to_owned(), colon))
}

/// The words a class or id is searched for, in any ASCII case, by
/// [`ClassWords::of`]; their order is [`ClassWords`]' fields'.
const CLASS_WORDS: [&str; 6] = ["date", "publish", "posted", "byline", "author", "name"];

/// The search for [`CLASS_WORDS`], built once: one pass over a class or
/// id finds them all (a lower-cased copy searched six times cost a third
/// of the metadata pass).
static CLASS_SEARCH: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(CLASS_WORDS)
            .expect("six short literal words build a searcher")
    });

/// Which of [`CLASS_WORDS`] a class or id holds.
#[derive(Debug, Default, PartialEq)]
struct ClassWords {
    date: bool,
    publish: bool,
    posted: bool,
    byline: bool,
    /// `author` not followed by `i`: `post-author`, `authorName`; not
    /// `authoring`, `authority`, `authorized`.
    author: bool,
    name: bool,
}

impl ClassWords {
    /// The words of `v`, in any ASCII case.
    fn of(v: &str) -> Self {
        let mut w = Self::default();
        for m in CLASS_SEARCH.find_overlapping_iter(v) {
            match m.pattern().as_usize() {
                0 => w.date = true,
                1 => w.publish = true,
                2 => w.posted = true,
                3 => w.byline = true,
                4 => {
                    w.author |= !v
                        .as_bytes()
                        .get(m.end())
                        .is_some_and(|b| b.eq_ignore_ascii_case(&b'i'))
                }
                _ => w.name = true,
            }
        }
        w
    }

    /// Whether the class or id names a byline or an author.
    fn byline(&self) -> bool {
        self.byline || self.author
    }
}

/// The byte search for a breadcrumb's class or id, built once.
static CRUMB: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"rumb"));

/// The byte search for a Creative Commons link, built once.
static CREATIVE_COMMONS: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"creativecommons.org"));

/// Most bytes of a byline's text.
pub const BYLINE_CHARS: usize = 120;

/// How far up the tree a byline is looked at for a comment around it.
const COMMENT_DEPTH: usize = 12;

/// Whether an element is in a comment or a customer review: its class
/// or id, or an ancestor's up to [`COMMENT_DEPTH`] levels below the body,
/// says `comment` or `reply`, or its own says `review`. The author of a
/// comment is not the page's.
fn in_comments(dom: &Dom, id: NodeId) -> bool {
    let mut n = id;
    for _ in 0..COMMENT_DEPTH {
        if n.is_none() || dom.is(n, Tag::BODY) || dom.is(n, Tag::HTML) {
            return false;
        }
        for name in ["class", "id"] {
            if let Some(v) = dom.attr(n, name) {
                let l = v.to_ascii_lowercase();
                if l.contains("comment") || l.contains("reply") || (n == id && l.contains("review"))
                {
                    return true;
                }
            }
        }
        n = dom.node(n).parent;
    }
    false
}

/// Whether `id` is inside `container` (looked up to [`TRAIL_DEPTH`]
/// levels).
fn inside(dom: &Dom, id: NodeId, container: NodeId) -> bool {
    let mut n = dom.node(id).parent;
    for _ in 0..TRAIL_DEPTH {
        if n.is_none() {
            return false;
        }
        if n == container {
            return true;
        }
        n = dom.node(n).parent;
    }
    false
}

/// The links of a breadcrumb trail (text, address), in order, repeats in
/// a row dropped.
fn trail_links(dom: &Dom, container: NodeId) -> Vec<Crumb> {
    let mut out: Vec<Crumb> = Vec::new();
    for n in dom.descendants(container).take(TRAIL_NODES) {
        if !dom
            .element(n)
            .is_some_and(|e| e.tag == Tag::A && e.ns == Ns::Html)
        {
            continue;
        }
        let t = short_text(dom, n, 100);
        if t.is_empty() || out.last().is_some_and(|(p, _)| *p == t) {
            continue;
        }
        out.push((t, dom.attr(n, "href").map(|h| h.trim().to_owned())));
        if out.len() > MAX_TRAIL_LINKS {
            // A menu or a share bar in an element named so, not a trail.
            return Vec::new();
        }
    }
    out
}

/// Most links of a breadcrumb trail (home, a few sections, a
/// sub-section); more is a menu.
pub const MAX_TRAIL_LINKS: usize = 8;

/// A web address from `c`: joined to `base` when relative; only http(s).
fn web_address(c: &str, base: Option<&Url>) -> Option<Url> {
    let u = match base {
        Some(b) => b.join(c.trim()).ok()?,
        None => Url::parse(c.trim()).ok()?,
    };
    matches!(u.scheme(), "http" | "https").then_some(u)
}

/// Whether two addresses are the same page (ignoring a trailing `/`, the
/// fragment and the scheme).
fn same_page(a: &Url, b: &Url) -> bool {
    let key = |u: &Url| {
        format!(
            "{}{}{}",
            u.host_str().unwrap_or("").trim_start_matches("www."),
            u.path().trim_end_matches('/'),
            u.query().map(|q| format!("?{q}")).unwrap_or_default()
        )
    };
    key(a) == key(b)
}

/// A host's last two labels (`reddit.com` of old.reddit.com).
fn registrable(host: &str) -> String {
    let labels: Vec<&str> = host.rsplitn(3, '.').collect();
    match labels.as_slice() {
        [tld, name, ..] => format!("{name}.{tld}"),
        _ => host.to_owned(),
    }
}

/// Appends `v` to `out` unless a case-insensitive repeat, up to `max`.
fn push_label(out: &mut Vec<String>, seen: &mut FxHashSet<String>, v: String, max: usize) {
    if out.len() < max && seen.insert(v.to_lowercase()) {
        out.push(v);
    }
}

/// The author the page's head gives (JSON-LD, then `<meta>`), cleaned,
/// with whether it is an organisation's name.
fn head_author(f: &Found) -> Option<(bool, String)> {
    if let Some((_, names)) = &f.ld.authors {
        let mut seen = FxHashSet::default();
        let kept: Vec<&(bool, String)> = names
            .iter()
            .filter(|(_, n)| seen.insert(n.to_lowercase()))
            .collect();
        if !kept.is_empty() {
            let org = kept.iter().all(|(o, _)| *o);
            let joined = kept
                .iter()
                .map(|(_, n)| n.as_str())
                .collect::<Vec<_>>()
                .join("; ");
            return Some((org, joined));
        }
    }
    AUTHOR_KEYS.iter().find_map(|k| {
        f.meta
            .iter()
            .filter(|(mk, v)| mk == k && !v.starts_with("http"))
            .find_map(|(_, v)| clean_author(v))
            .map(|a| (false, a))
    })
}

/// The site's name the page declares: `og:site_name` (as written, its
/// trailing separators cut; a value without letters is none), a JSON-LD
/// `WebSite`'s name, the publisher's, `application-name`.
fn declared_site(f: &Found) -> Option<String> {
    meta_value(&f.meta, &["og:site_name"])
        .map(|s| {
            s.trim_matches(|c: char| c.is_whitespace() || TIGHT_SEPS.contains(&c) || c == ':')
                .to_owned()
        })
        .filter(|s| s.chars().any(char::is_alphabetic))
        .or_else(|| f.ld.website.clone())
        .or_else(|| f.ld.publisher.clone())
        .or_else(|| meta_value(&f.meta, &["application-name"]))
}

/// Reads the metadata of a parsed page (before cleaning); `url` is the
/// page's URL, `text` the extracted text (for language detection only).
pub fn metadata(dom: &Dom, url: Option<&Url>, text: &str) -> Metadata {
    let mut f = Found::default();
    let mut in_body = false;
    let mut texts_seen = 0;
    let mut body_elements = 0;
    // Whether the head left author / date unsaid (or named the site as
    // the author): only then are the body's bylines and written dates
    // looked for.
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
                let host = url.and_then(Url::host_str);
                let site = Site::new(declared_site(&f).as_deref(), host);
                need_author = match head_author(&f) {
                    None => true,
                    Some((org, a)) => org || site.authored_by_site(&a),
                };
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
            // The first `<title>` anywhere, as a browser's
            // `document.title`: pages wrapped in another element have it
            // in the body.
            Tag::TITLE if f.title.is_none() => {
                // Decoded again, as metas are: `&#8230;` left in the
                // text was escaped twice in the source.
                let t = collapse(&short_text(dom, id, 1000));
                if !t.is_empty() {
                    f.title = Some(t);
                }
            }
            Tag::LINK => {
                let rel = attr("rel").unwrap_or("").to_ascii_lowercase();
                for r in rel.split_whitespace() {
                    match r {
                        "canonical" if f.canonical.is_none() => {
                            f.canonical = attr("href").map(str::to_owned)
                        }
                        "image_src" if f.image_src.is_none() => {
                            f.image_src = attr("href").map(str::to_owned)
                        }
                        "license" if f.license_link.is_none() => {
                            f.license_link = Some((attr("href").map(str::to_owned), String::new()))
                        }
                        _ => {}
                    }
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
            Tag::A => read_link(dom, id, &mut f),
            _ => {}
        }
        if !in_body
            || body_elements >= BODY_ELEMENTS
            || matches!(
                e.tag,
                Tag::META | Tag::LINK | Tag::SCRIPT | Tag::BODY | Tag::HTML | Tag::TIME
            )
        {
            continue;
        }
        body_elements += 1;
        // Class and id, searched once for the words of bylines and dates
        // when those are looked for; a breadcrumb is looked for on every
        // page, by a byte search that finds "crumb" in any case but the
        // upper ("breadcrumb", "breadCrumb").
        let (mut dateish, mut byline, mut named, mut crumb) = (false, false, false, false);
        for a in dom.attrs_of(id) {
            let v = &dom.attr_text[a.start as usize..a.end as usize];
            match &*a.name {
                "class" | "id" => {
                    if need_author || need_date {
                        let w = ClassWords::of(v);
                        dateish |= need_date && w.date || w.publish || w.posted;
                        if need_author {
                            byline |= w.byline();
                            named |= w.name;
                        }
                    }
                    // A link is one of a trail's entries, not the trail.
                    crumb |= e.tag != Tag::A && CRUMB.find(v.as_bytes()).is_some();
                }
                "itemprop" => {
                    byline |= need_author && v.trim() == "author";
                    named |= v.trim() == "name";
                }
                "itemtype" => crumb |= v.contains("BreadcrumbList"),
                _ => {}
            }
        }
        if crumb {
            // A list item's class names the trail's entries: the trail
            // is the list.
            let container = match e.tag {
                Tag::LI => dom.node(id).parent.some().unwrap_or(id),
                _ => id,
            };
            match &f.trail {
                None => {
                    let links = trail_links(dom, container);
                    if !links.is_empty() {
                        f.trail = Some((container, links));
                    }
                }
                // A trail inside the one found (an outer bar that also
                // holds a language menu): the inner one, if it has the
                // trail's links.
                Some((outer, _)) if container != *outer && inside(dom, container, *outer) => {
                    let links = trail_links(dom, container);
                    if links.len() >= 2 {
                        f.trail = Some((container, links));
                    }
                }
                Some(_) => {}
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
        if byline && f.bylines.len() < BODY_LOOK && !in_comments(dom, id) {
            let first = f.bylines.first().map(|(b, _)| *b);
            let text = short_text(dom, id, BYLINE_CHARS);
            // Longer, it is a box (an author bio, a whole article whose
            // class names its author), not a byline.
            if text.len() <= BYLINE_CHARS
                && let Some(t) = clean_author(&text)
            {
                match first {
                    Some(b) if named && f.byline_name.is_none() && inside(dom, id, b) => {
                        f.byline_name = Some(t)
                    }
                    Some(_) => {}
                    None => f.bylines.push((id, t)),
                }
            }
        }
    }
    finish(f, url, text)
}

/// Reads an `<a>`: `rel=author`, `rel=category`, `rel=tag`,
/// `rel=license` links, and links to a Creative Commons licence.
fn read_link(dom: &Dom, id: NodeId, f: &mut Found) {
    let (mut href, mut rel) = (None, None);
    for a in dom.attrs_of(id) {
        match &*a.name {
            "href" => href = Some(dom.attr_text[a.start as usize..a.end as usize].trim()),
            "rel" => rel = Some(&dom.attr_text[a.start as usize..a.end as usize]),
            _ => {}
        }
    }
    // Only an absolute address can lead to creativecommons.org.
    if f.cc_link.is_none()
        && let Some(h) = href
        && (h.starts_with("http") || h.starts_with("//"))
        && CREATIVE_COMMONS.find(h.as_bytes()).is_some()
    {
        f.cc_link = labels::creative_commons(h);
    }
    let Some(rel) = rel else {
        return;
    };
    let (mut author, mut category, mut tag, mut license) = (false, false, false, false);
    for r in rel.split_whitespace() {
        author |= r.eq_ignore_ascii_case("author");
        category |= r.eq_ignore_ascii_case("category");
        tag |= r.eq_ignore_ascii_case("tag");
        license |= r.eq_ignore_ascii_case("license");
    }
    if !(author || category || tag || license) {
        return;
    }
    let t = short_text(dom, id, 100);
    if author && f.rel_author.len() < BODY_LOOK && !t.is_empty() && t.len() < 100 {
        f.rel_author.push(t.clone());
    }
    // WordPress writes `rel="category tag"` on category links; a tag link
    // to a `/category/` address is one too.
    let to_category = href.is_some_and(|h| h.contains("/category/") || h.contains("/categories/"));
    if (category || (tag && to_category)) && f.rel_categories.len() < labels::MAX_CATEGORIES {
        f.rel_categories.push(t.clone());
    } else if tag && f.rel_tags.len() < labels::MAX_TAGS {
        f.rel_tags.push(t.clone());
    }
    if license && f.license_link.is_none() {
        f.license_link = Some((href.map(str::to_owned), t));
    }
}

/// The fields chosen from what the pass found.
fn finish(f: Found, url: Option<&Url>, text: &str) -> Metadata {
    let meta = |keys: &[&str]| meta_value(&f.meta, keys);
    // Only a web address is a canonical URL: `javascript:`, `data:` and
    // the like are not (and a page could plant them for whoever follows).
    let mut m = Metadata {
        canonical: f
            .canonical
            .as_deref()
            .and_then(|c| web_address(c, url))
            .or_else(|| meta(&["og:url"]).and_then(|c| web_address(&c, url)))
            .map(|u| u.to_string()),
        ..Metadata::default()
    };
    // Where relative addresses lead: the page's URL, else its canonical.
    let canonical_url = m.canonical.as_deref().and_then(|c| Url::parse(c).ok());
    let base = url.or(canonical_url.as_ref());
    let host = base
        .and_then(Url::host_str)
        .map(|h| h.trim_start_matches("www.").to_owned());
    let declared = declared_site(&f);
    let site = Site::new(declared.as_deref(), host.as_deref());
    let h1 = f.h1.first().filter(|h| h.chars().count() >= 4);
    // The article's own headline; Wikipedia's is a description and its
    // `name` the title, which the `<h1>` repeats.
    let headline =
        f.ld.headline
            .as_ref()
            .filter(|(r, _)| *r == 2)
            .map(|(_, hl)| match (&f.ld.name, h1) {
                (Some((_, n)), Some(h)) if squash(n) == squash(h) && squash(hl) != squash(h) => {
                    n.clone()
                }
                _ => hl.clone(),
            });
    // A headline that the page's `<h1>` does not repeat, when its
    // og:title does ("Sample menus" against "7 days of healthy meals on a
    // budget" twice), is a name for search engines.
    let og = meta(&["og:title"]);
    // (A forum's `<h1>` that adds a prefix label to the headline still
    // repeats it.)
    let headline = headline.filter(|hl| match (h1, &og) {
        (Some(h), Some(o)) => squash(h).contains(&squash(hl)) || squash(o) != squash(h),
        _ => true,
    });
    let candidates = [
        headline,
        og,
        meta(&["twitter:title"]),
        f.title.clone(),
        f.h1.first().cloned(),
    ];
    // A home page's title that starts with the site's name is the
    // site's own, name and all ("Alma — Simplifying Access to
    // Therapy"): only a trailing site name is cut, and an `<h1>` that
    // names the site is no logo to cut there.
    let home = url.is_some_and(|u| matches!(u.path(), "" | "/"));
    let raw_last = f.title.as_deref().and_then(last_part).map(squash);
    let candidates: Vec<String> = candidates.into_iter().flatten().collect();
    m.title = candidates
        .iter()
        .map(|t| strip_site(t, &site, !home))
        .map(|t| unquote(&t).to_owned())
        .find(|t| !t.is_empty())
        // A title that is nothing but the site's name (":: Site ::")
        // stays: the page has no other.
        .or_else(|| candidates.first().cloned())
        .map(|t| match h1 {
            // An `<h1>` that is the site's logo, or the `<title>`'s last
            // part (where titles put the site's name), is no headline:
            // it is cut from the title.
            Some(h) if !home && site.logo(h) => cut_part(&t, h, true).unwrap_or(t),
            Some(h) if !home && raw_last.as_deref() == Some(&squash(h)) => {
                cut_part(&t, h, false).unwrap_or(t)
            }
            // The page's own headline, when the title merely dresses it
            // up ("The Go Blog" in "The Go Blog - The Go Programming
            // Language"): see docs/history/metadata-2026-11-22.md.
            Some(h) if t.to_lowercase().contains(&h.to_lowercase()) => h.clone(),
            _ => t,
        });
    // The site's name: declared; else the title's part that names the
    // host ("… - Wikipedia", before the publisher "Wikimedia Foundation,
    // Inc."); the publisher; the title's last part (a `Site: Title` part
    // only when there is no host to fall back on); the host.
    let raw_title = f.title.clone().or_else(|| meta(&["og:title"]));
    let from_title = raw_title.as_deref().and_then(|t| title_site(t, &site));
    m.site_name = meta_value(&f.meta, &["og:site_name"])
        .and(declared.clone())
        .or_else(|| f.ld.website.clone())
        .or_else(|| meta(&["application-name"]))
        .or_else(|| {
            from_title
                .as_ref()
                .filter(|(t, _)| site.named_by(t, true))
                .map(|(t, _)| t.clone())
        })
        .or_else(|| f.ld.publisher.clone())
        .or_else(|| {
            from_title
                .filter(|(_, colon)| !colon || host.is_none())
                .map(|(t, _)| t)
        })
        .or_else(|| host.clone());
    // The author: the first candidate that is not the site itself (or an
    // organisation) when a person is named elsewhere; else the first.
    let site_named = Site::new(m.site_name.as_deref(), host.as_deref());
    let by_site = |a: &str| site.authored_by_site(a) || site_named.authored_by_site(a);
    let byline = f
        .byline_name
        .clone()
        .or_else(|| f.bylines.first().map(|(_, b)| b.clone()));
    let candidates: Vec<(bool, String)> = head_author(&f)
        .into_iter()
        .chain(
            f.rel_author
                .iter()
                .filter_map(|a| clean_author(a))
                .map(|a| (false, a)),
        )
        .chain(byline.map(|b| (false, b)))
        .collect();
    m.author = candidates
        .iter()
        .find(|(org, a)| !org && !by_site(a) && !author::is_domain(a))
        .or_else(|| candidates.first())
        .map(|(_, a)| a.clone());
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
    let declared_lang = f
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
    if let Some(l) = declared_lang {
        m.language = Some(l);
        m.language_source = Some("declared");
    } else {
        detect_language(&mut m, text);
    }
    m.image = meta(&[
        "og:image",
        "og:image:url",
        "og:image:secure_url",
        "twitter:image",
        "twitter:image:src",
    ])
    .or_else(|| f.ld.image.as_ref().map(|(_, i)| i.clone()))
    .or_else(|| f.image_src.clone())
    .or_else(|| meta(&["image", "thumbnail"]))
    .and_then(|i| web_address(&i, base))
    .map(|u| u.to_string());
    m.license = f
        .license_link
        .as_ref()
        .and_then(|(href, t)| labels::license_of(href.as_deref(), t, base))
        .or_else(|| f.cc_link.clone());
    m.categories = categories(&f, &m, base, canonical_url.as_ref());
    m.tags = tags(&f, &m);
    m
}

/// [`Metadata::categories`]: the `article:section` (also `section`,
/// `category`) metas, JSON-LD `articleSection`, the breadcrumb trail
/// (JSON-LD, else the body's) without its home entry and without the page
/// itself, `rel=category` links; labels only, the site's name left out,
/// case-insensitive repeats dropped.
fn categories(f: &Found, m: &Metadata, base: Option<&Url>, canonical: Option<&Url>) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = FxHashSet::default();
    let site = m.site_name.as_deref().map(squash);
    let title = m.title.as_deref().map(squash);
    let sections = f
        .meta
        .iter()
        .filter(|(k, _)| {
            matches!(
                k.as_str(),
                "article:section" | "section" | "category" | "articlesection"
            )
        })
        .map(|(_, v)| v.clone())
        .chain(f.ld.sections.iter().cloned());
    // JSON-LD's trail ends with the page itself, often without an
    // address; the body's holds links only (the page is plain text there).
    let from_ld = !f.ld.crumbs.is_empty();
    let trail: Vec<Crumb> = if from_ld {
        f.ld.crumbs.clone()
    } else {
        f.trail.as_ref().map(|(_, t)| t.clone()).unwrap_or_default()
    };
    let n = trail.len();
    let crumbs = trail
        .into_iter()
        .enumerate()
        .filter_map(|(i, (name, href))| {
            let href = href.as_deref().and_then(|h| web_address(h, base));
            let home = i == 0
                && (labels::is_home(&name, href.as_ref())
                    || site.as_deref() == Some(&squash(&name)));
            let itself = i + 1 == n
                && ((from_ld && href.is_none())
                    || href.as_ref().is_some_and(|h| {
                        base.is_some_and(|b| same_page(h, b))
                            || canonical.is_some_and(|c| same_page(h, c))
                    })
                    || title.as_deref() == Some(&squash(&name)));
            (!home && !itself).then_some(name)
        });
    for c in sections
        .chain(crumbs)
        .chain(f.rel_categories.iter().cloned())
    {
        if labels::is_label(&c) && site.as_deref() != Some(&squash(&c)) {
            push_label(&mut out, &mut seen, c, labels::MAX_CATEGORIES);
        }
    }
    out
}

/// [`Metadata::tags`]: `article:tag`, the keywords metas (`keywords`,
/// also as `http-equiv`, `news_keywords`), JSON-LD `keywords`, `rel=tag`
/// links; lists split into entries, labels only, the site's name and
/// copies of the title left out, case-insensitive repeats dropped.
fn tags(f: &Found, m: &Metadata) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = FxHashSet::default();
    let site = m.site_name.as_deref().map(squash);
    let title = f.title.as_deref().or(m.title.as_deref()).unwrap_or("");
    // A keywords value that is the title copied (split at spaces in
    // Chinese, its parts would no longer look so) is left out whole.
    let from_meta = |key: &'static str| {
        f.meta
            .iter()
            .filter(move |(k, v)| k == key && !labels::copies_title(v, title))
            .flat_map(|(_, v)| labels::split_keywords(v))
    };
    let all = from_meta("article:tag")
        .chain(from_meta("keywords"))
        .chain(from_meta("news_keywords"))
        .chain(f.ld.keywords.iter().cloned())
        .chain(f.rel_tags.iter().cloned());
    // The site's own name or domain ("reddit.com") is no tag.
    let domain = m
        .canonical
        .as_deref()
        .and_then(|c| Url::parse(c).ok())
        .and_then(|u| u.host_str().map(registrable))
        .map(|d| squash(&d));
    for t in all {
        let st = squash(&t);
        if labels::is_label(&t)
            && !labels::machine_value(&t)
            && site.as_deref() != Some(&st)
            && domain.as_deref() != Some(&st)
            && !labels::copies_title(&t, title)
        {
            push_label(&mut out, &mut seen, t, labels::MAX_TAGS);
        }
    }
    out
}

#[cfg(test)]
mod tests {

    #[test]
    fn class_words_are_found_in_any_case_and_authoring_is_no_author() {
        let w = ClassWords::of("post-AuthorName entry-Date");
        assert!(w.author && w.name && w.date && w.byline());
        assert!(!w.publish && !w.posted);
        for v in ["authoring-applications", "AUTHORITY", "authorized"] {
            assert!(!ClassWords::of(v).byline(), "{v}");
        }
        assert!(ClassWords::of("byline").byline());
        assert!(ClassWords::of("author").byline());
        assert_eq!(ClassWords::of("main-nav"), ClassWords::default());
        let w = ClassWords::of("PublishedOn postedAt");
        assert!(w.publish && w.posted && !w.date);
    }
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
        for (byline, name) in [
            ("By Team X September 4, 2025", "Team X"),
            ("Jane Roe | Updated Feb. 27", "Jane Roe"),
            ("Perseus Legend Member Oct 10, 2022", "Perseus Legend"),
        ] {
            assert_eq!(clean_author(byline).as_deref(), Some(name), "{byline}");
        }
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

    #[test]
    fn a_title_outside_the_head_is_found() {
        // A wrapper element before `<title>` puts it in the body.
        let m = meta_of("<div>intro</div><title>Late title</title><p>Body</p>", None);
        assert_eq!(m.title.as_deref(), Some("Late title"));
        let m = meta_of(
            "<text id=x><html><head><title>Wrapped | Site</title></head><body><p>x</p></body></html></text>",
            None,
        );
        assert_eq!(m.title.as_deref(), Some("Wrapped | Site"));
        // An empty first `<title>` gives way to the next; an SVG's
        // `<title>` is not the page's.
        let m = meta_of(
            "<head><title> </title></head><body><svg><title>icon</title></svg><title>Real</title>",
            None,
        );
        assert_eq!(m.title.as_deref(), Some("Real"));
    }

    #[test]
    fn doubly_escaped_values_are_decoded() {
        let m = meta_of(
            r#"<meta property="og:title" content="Budget Traveler&amp;#8217;s Guide &amp;amp; More">"#,
            None,
        );
        assert_eq!(m.title.as_deref(), Some("Budget Traveler’s Guide & More"));
        let m = meta_of("<title>And finally&amp;#8230; trouble</title>", None);
        assert_eq!(m.title.as_deref(), Some("And finally… trouble"));
    }

    #[test]
    fn site_names_in_titles_and_logo_headings() {
        // An `<h1>` that is the site's name (a logo) is no headline, and
        // the site's name is cut from the title, also without spaces.
        let m = meta_of(
            r#"<meta property="og:site_name" content="Fish Forum">
               <meta property="og:title" content="Fish Forum-What to feed new fish">
               <body><h1>Fish Forum</h1><h1>What to feed new fish</h1>"#,
            Some("https://fish.example/t/1"),
        );
        assert_eq!(m.title.as_deref(), Some("What to feed new fish"));
        // A title's last part that the `<h1>` repeats is the site's name.
        let m = meta_of(
            "<title>What is Ownership? - The Rust Book</title><body><h1>The Rust Book</h1>",
            Some("https://doc.example.org/book/ch04.html"),
        );
        assert_eq!(m.title.as_deref(), Some("What is Ownership?"));
        // A title that starts with a product named like the site is not
        // the site's name ("Gymshark Arrival T-Shirt - Black").
        let m = meta_of(
            r#"<meta property="og:title" content="Acme Arrival T-Shirt - Black">"#,
            Some("https://www.acme.com/products/tee"),
        );
        assert_eq!(m.title.as_deref(), Some("Acme Arrival T-Shirt - Black"));
        // The host's words, initials and a domain name name the site.
        for (title, url) in [
            (
                "Quickstart — Flask Documentation (3.1.x)",
                "https://flask.palletsprojects.com/q",
            ),
            (
                "Electrical | Occupational Safety and Health Administration",
                "https://www.osha.gov/e",
            ),
            (
                "GAME CHANGER | Newegg.com",
                "https://promotions.newegg.com/z",
            ),
            (
                "Turning off LEDs - Raspberry Pi Forums",
                "https://forums.raspberrypi.com/v",
            ),
        ] {
            let html = format!("<title>{title}</title>");
            let m = meta_of(&html, Some(url));
            let want = title.split([' ']).collect::<Vec<_>>();
            assert!(
                !m.title
                    .as_deref()
                    .unwrap_or("")
                    .contains(want[want.len() - 1]),
                "{title}: {:?}",
                m.title
            );
        }
        // A home page keeps a leading site name: it is the page's name.
        let m = meta_of(
            "<title>Alma — Simplifying Access to Therapy</title>",
            Some("https://alma.example/"),
        );
        assert_eq!(
            m.title.as_deref(),
            Some("Alma — Simplifying Access to Therapy")
        );
        // A title that is only the site's name stays.
        let m = meta_of("<title>:: Nadwa ::</title>", Some("http://nadwa.example/"));
        assert_eq!(m.title.as_deref(), Some(":: Nadwa ::"));
    }

    #[test]
    fn a_headline_the_page_does_not_repeat_gives_way() {
        // og:title and `<h1>` agree; the JSON-LD headline is another.
        let m = meta_of(
            r#"<meta property="og:title" content="7 days of healthy meals">
               <script type="application/ld+json">{"@type":"Article","headline":"Sample menus"}</script>
               <body><h1>7 days of healthy meals</h1>"#,
            None,
        );
        assert_eq!(m.title.as_deref(), Some("7 days of healthy meals"));
        // Wikipedia: the headline is a description, the name the title.
        let m = meta_of(
            r#"<script type="application/ld+json"><![CDATA[ {"@type":"Article","name":"List of X","headline":"Wikimedia list article"} ]]></script>
               <body><h1>List of X</h1>"#,
            None,
        );
        assert_eq!(m.title.as_deref(), Some("List of X"));
    }

    #[test]
    fn the_site_is_no_author_when_a_person_is_named() {
        let m = meta_of(
            r#"<meta property="og:site_name" content="Glossy">
               <script type="application/ld+json">{"@type":"BlogPosting","author":{"@type":"Organization","name":"Glossy"}}</script>
               <body><div class="text__author">Shauna Mitchell</div>"#,
            None,
        );
        assert_eq!(m.author.as_deref(), Some("Shauna Mitchell"));
        let m = meta_of(
            r#"<meta property="og:site_name" content="Health Clinic"><meta name="author" content="Health Clinic">
               <body><p class="byline">By Holly Wilgus</p>"#,
            None,
        );
        assert_eq!(m.author.as_deref(), Some("Holly Wilgus"));
        // Nobody else named: the site stays.
        let m = meta_of(
            r#"<meta property="og:site_name" content="Health Clinic"><meta name="author" content="Health Clinic">"#,
            None,
        );
        assert_eq!(m.author.as_deref(), Some("Health Clinic"));
        // A person's own site is named after them: they stay the author.
        let m = meta_of(
            r#"<meta property="og:site_name" content="Myles Kay Photography"><meta name="author" content="Myles Kay">
               <body><article class="post author-myles-kay"><p>Top 10 cameras</p></article>"#,
            Some("https://myleskay.example/blog/top-10"),
        );
        assert_eq!(m.author.as_deref(), Some("Myles Kay"));
    }

    #[test]
    fn bylines_skip_junk_comments_and_headings() {
        // "By" alone, then the name.
        let m = meta_of(
            r#"<body><p class="authors--byline">By</p><span class="authors--author">Sara Brown</span>"#,
            None,
        );
        assert_eq!(m.author.as_deref(), Some("Sara Brown"));
        // A heading whose id starts with "author…" is no byline.
        let m = meta_of(
            r#"<body><h2 id="authoring-applications">§ Authoring applications</h2>"#,
            None,
        );
        assert_eq!(m.author, None);
        // A comment's author is not the page's.
        let m = meta_of(
            r#"<body><ol class="comment-list"><li><span class="comment-author-name">Lori</span></li></ol>"#,
            None,
        );
        assert_eq!(m.author, None);
        // The name element inside an author box, not the box's heading
        // and job title.
        let m = meta_of(
            r#"<body><div class="post-author"><h4>Insights from</h4>
               <div class="post-author-name">Liza Burke</div><div class="post-author-position">Marketing Director</div></div>"#,
            None,
        );
        assert_eq!(m.author.as_deref(), Some("Liza Burke"));
        // A JSON-LD author that is a fragment gives way to the next one.
        let m = meta_of(
            r#"<script type="application/ld+json">[{"@type":"NewsArticle","author":{"@type":"Person","name":", USA TODAY"}},
               {"@type":"NewsArticle","author":[{"name":"Brian Truitt"}]}]</script>"#,
            None,
        );
        assert_eq!(m.author.as_deref(), Some("Brian Truitt"));
    }

    #[test]
    fn published_keeps_the_time_when_sources_agree_on_the_day() {
        let m = meta_of(
            r#"<meta property="article:published_time" content="2024-03-05T09:30:00+01:00">
               <script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-03-05"}</script>"#,
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2024-03-05T09:30:00+01:00"));
        // Another day: JSON-LD's, as before.
        let m = meta_of(
            r#"<meta property="article:published_time" content="2024-03-04T09:30:00+01:00">
               <script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2024-03-05"}</script>"#,
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2024-03-05"));
    }

    #[test]
    fn categories_from_sections_trails_and_links() {
        let html = r#"<meta property="article:section" content="Opinion">
            <script type="application/ld+json">{"@type":"BreadcrumbList","itemListElement":[
              {"@type":"ListItem","position":1,"name":"Home","item":"https://news.example/"},
              {"@type":"ListItem","position":2,"name":"Opinion","item":"https://news.example/opinion/"},
              {"@type":"ListItem","position":3,"name":"Commentary","item":"https://news.example/opinion/commentary/"},
              {"@type":"ListItem","position":4,"name":"The piece"}]}</script>
            <body><a rel="category tag" href="/category/ideas/">Ideas</a>
            <a rel="tag" href="/category/essays/">Essays</a><a rel="tag" href="/tag/bees/">bees</a>"#;
        let m = meta_of(html, Some("https://news.example/opinion/the-piece"));
        assert_eq!(
            m.categories,
            vec!["Opinion", "Commentary", "Ideas", "Essays"]
        );
        assert_eq!(m.tags, vec!["bees"]);
        // A breadcrumb in the body: its links, without home and the page.
        let html = r#"<title>Sudo</title><body><ol class="breadcrumbs">
            <li><a href="/">Home</a></li><li><a href="/docs/">Docs</a></li><li><a href="/docs/admin/">Admin</a></li>
            <li><a href="/docs/admin/sudo">Sudo</a></li></ol>"#;
        let m = meta_of(html, Some("https://wiki.example/docs/admin/sudo"));
        assert_eq!(m.categories, vec!["Docs", "Admin"]);
        // A menu named "breadcrumb" is no trail.
        let links: String = (0..20)
            .map(|i| format!("<a href=\"/s{i}\">S{i}</a>"))
            .collect();
        let html = format!(r#"<body><div class="breadcrumb-bar">{links}</div>"#);
        assert!(meta_of(&html, None).categories.is_empty());
    }

    #[test]
    fn tags_from_keywords() {
        let html = r#"<title>Bees in winter | Garden News</title>
            <meta property="og:site_name" content="Garden News">
            <meta name="keywords" content="bees, winter, Garden News">
            <meta name="news_keywords" content="pollinators; Bees">
            <meta http-equiv="keywords" content="hives">
            <meta property="article:tag" content="apiary">"#;
        let m = meta_of(html, Some("https://garden.example/bees"));
        assert_eq!(
            m.tags,
            vec!["apiary", "bees", "winter", "hives", "pollinators"]
        );
        // Keywords that copy the title are no tags; Chinese lists split
        // at spaces.
        let m = meta_of(
            r#"<title>民间资本路在何方-搜狐财经</title><meta name="keywords" content="民间资本路在何方-搜狐财经">"#,
            None,
        );
        assert!(m.tags.is_empty(), "{:?}", m.tags);
        let m = meta_of(
            r#"<meta name="keywords" content="宇航员 太空 国际空间站">"#,
            None,
        );
        assert_eq!(m.tags, vec!["宇航员", "太空", "国际空间站"]);
    }

    #[test]
    fn image_license_and_site_name() {
        let html = r#"<meta property="og:image" content="/img/a.jpg">
            <meta name="twitter:image" content="https://cdn.example/b.jpg">
            <link rel="license" href="https://creativecommons.org/licenses/by-sa/4.0/">"#;
        let m = meta_of(html, Some("https://site.example/post"));
        assert_eq!(m.image.as_deref(), Some("https://site.example/img/a.jpg"));
        assert_eq!(m.license.as_deref(), Some("CC BY-SA 4.0"));
        // No og:image: JSON-LD's; a reference to another object is none.
        let m = meta_of(
            r#"<script type="application/ld+json">{"@type":"Article","image":[{"@id":"https://x.example/#primaryimage"},{"url":"https://x.example/c.png"}]}</script>"#,
            None,
        );
        assert_eq!(m.image.as_deref(), Some("https://x.example/c.png"));
        // A licence link in the footer; a privacy policy marked so is none.
        let m = meta_of(
            r#"<body><footer><a href="http://creativecommons.org/licenses/by-nc-sa/2.0/">Some Rights Reserved</a></footer>"#,
            None,
        );
        assert_eq!(m.license.as_deref(), Some("CC BY-NC-SA 2.0"));
        let m = meta_of(
            r#"<body><a rel="license" href="/privacy.html">Privacy Policy</a>"#,
            None,
        );
        assert_eq!(m.license, None);
        // Site names: og:site_name as the page writes it, its trailing
        // separator cut; a value with no letters is none.
        let m = meta_of(
            r#"<meta property="og:site_name" content="Every Woman's Marathon -">"#,
            None,
        );
        assert_eq!(m.site_name.as_deref(), Some("Every Woman's Marathon"));
        let m = meta_of(
            r#"<meta property="og:site_name" content="/"><title>Tips</title>"#,
            Some("https://www.kasper.example/tips"),
        );
        assert_eq!(m.site_name.as_deref(), Some("kasper.example"));
        // Nothing names the site: the title's last part, else the host.
        let m = meta_of(
            "<title>Plan and audience | Quantum Book</title>",
            Some("https://qb.example/plan"),
        );
        assert_eq!(m.site_name.as_deref(), Some("Quantum Book"));
        let m = meta_of(
            "<title>Plain</title>",
            Some("https://www.bluecart.example/blog/x"),
        );
        assert_eq!(m.site_name.as_deref(), Some("bluecart.example"));
        // A title part that names the host before the publisher.
        let m = meta_of(
            r#"<title>Hermitian matrix - Wikipedia</title>
               <script type="application/ld+json">{"@type":"Article","publisher":{"name":"Wikimedia Foundation, Inc."}}</script>"#,
            Some("https://en.wikipedia.org/wiki/Hermitian_matrix"),
        );
        assert_eq!(m.site_name.as_deref(), Some("Wikipedia"));
    }
}
