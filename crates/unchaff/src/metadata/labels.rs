//! Categories, tags and licences: splitting keyword lists, telling a
//! label from a machine value, reading a breadcrumb trail, and naming a
//! Creative Commons licence from its address.

use url::Url;

/// Longest category or tag kept (characters): labels are short; a
/// longer value is a sentence or a description put in the wrong field.
pub(super) const MAX_LABEL_CHARS: usize = 80;

/// Most categories kept: a breadcrumb trail and a few sections.
pub(super) const MAX_CATEGORIES: usize = 30;

/// Most tags kept: keyword lists run to 50 on news sites; more is a tag
/// cloud.
pub(super) const MAX_TAGS: usize = 100;

/// A keyword at least this long (characters) that the page's title
/// contains, and that covers at least [`TITLE_COPY_PERCENT`] of it, is the
/// title copied into the keywords, not a tag.
pub(super) const TITLE_COPY_CHARS: usize = 10;

/// See [`TITLE_COPY_CHARS`].
pub(super) const TITLE_COPY_PERCENT: usize = 40;

/// Lengths of a top-level domain's name (`io`, `com`, `museum`): what
/// tells `example.com` (a domain name) from `Ph.D` or `J.R.R`.
pub(super) const TLD_CHARS: std::ops::RangeInclusive<usize> = 2..=6;

/// Lengths of a language code (`en`, `chr`) and of its region or script
/// subtag (`us`, `hans`) in a language edition's path (`/en-us/`).
const LANG_CHARS: std::ops::RangeInclusive<usize> = 2..=3;

/// See [`LANG_CHARS`].
const SUBTAG_CHARS: std::ops::RangeInclusive<usize> = 2..=4;

/// Names of a site's home page, in the languages of the dev data: a
/// breadcrumb trail's first entry when it is one of these is no category.
const HOME_WORDS: &[&str] = &[
    "home",
    "homepage",
    "home page",
    "start",
    "startseite",
    "accueil",
    "inicio",
    "início",
    "página inicial",
    "pagina inicial",
    "forum",
    "forums",
    "board index",
    "index",
    "main",
    "首页",
    "首頁",
    "主页",
    "главная",
    "strona główna",
    "αρχική",
];

/// Values of section and category fields that name the kind of page,
/// not a section.
const PAGE_KINDS: &[&str] = &["article", "post", "page", "story"];

/// Words in a `rel="license"` link that say it is not a licence (sites
/// mark their privacy policy or terms so).
const NOT_LICENSE: &[&str] = &[
    "privacy",
    "cookie",
    "terms",
    "contact",
    "impressum",
    "datenschutz",
];

/// A list of keywords split into its entries: at commas (also the
/// ideographic `，` and `、`) and semicolons; a Chinese or Japanese list
/// without them at spaces (those languages write no spaces between
/// words). Entries are white-space collapsed; empty ones dropped.
pub(super) fn split_keywords(v: &str) -> Vec<String> {
    let seps = [',', '，', '、', ';', '；'];
    let cjk = v.chars().any(crate::text::is_cjk);
    let parts: Vec<&str> = if v.contains(seps) {
        v.split(seps).collect()
    } else if cjk {
        v.split_whitespace().collect()
    } else {
        vec![v]
    };
    parts
        .into_iter()
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect()
}

/// Whether a category or tag value is a label a reader would see: some
/// letters, not too long, not a path or address (`/world/middle_east`),
/// not an internal code (`@hp-top-stories`), not the name of the kind of
/// page (`Article`).
pub(super) fn is_label(v: &str) -> bool {
    let n = v.chars().count();
    n > 0
        && n <= MAX_LABEL_CHARS
        && v.chars().any(char::is_alphanumeric)
        && !v.starts_with(['/', '@', '#'])
        && !v.contains("://")
        && !PAGE_KINDS.iter().any(|k| k.eq_ignore_ascii_case(v))
}

/// Whether a keyword is a machine's `key:value` setting rather than a
/// label: `Lite:true`, `LayerCake:0`, `Source:LOCKED_NONE`, or one with
/// two such colons (`Section: News:World News`); a ticker such as
/// `NASDAQ:MSFT` is a label.
pub(super) fn machine_value(v: &str) -> bool {
    let tight = |(k, val): (&str, &str)| {
        !k.is_empty() && !k.ends_with(' ') && !val.is_empty() && !val.starts_with(' ')
    };
    let colons = v.matches(':').count();
    match v.split_once(':') {
        Some(kv) if colons >= 2 => tight(kv) || v.rsplit_once(':').is_some_and(tight),
        Some((k, val)) if tight((k, val)) => {
            matches!(val.to_ascii_lowercase().as_str(), "true" | "false")
                || val.chars().all(|c| c.is_ascii_digit() || c == '.')
                || val.contains('_')
        }
        _ => false,
    }
}

/// Whether a keyword is the page's title copied into the keywords
/// (see [`TITLE_COPY_CHARS`]).
pub(super) fn copies_title(keyword: &str, title: &str) -> bool {
    let k = keyword.chars().count();
    let t = title.chars().count();
    k >= TITLE_COPY_CHARS
        && k * 100 >= t * TITLE_COPY_PERCENT
        && title.to_lowercase().contains(&keyword.to_lowercase())
}

/// Whether a breadcrumb entry names the home page: a home word, or a
/// link to the site's root.
pub(super) fn is_home(name: &str, href: Option<&Url>) -> bool {
    HOME_WORDS.contains(&name.trim().to_lowercase().as_str())
        || href.is_some_and(|u| {
            u.query().is_none() && (matches!(u.path(), "" | "/") || language_root(u.path()))
        })
}

/// Whether a path is a language edition's root (`/cn/`, `/en-us/`).
fn language_root(path: &str) -> bool {
    let seg = path.trim_matches('/');
    let mut parts = seg.split(['-', '_']);
    let lang = parts.next().unwrap_or("");
    let alpha = |p: &str| p.chars().all(|c| c.is_ascii_alphabetic());
    !seg.contains('/')
        && LANG_CHARS.contains(&lang.len())
        && alpha(lang)
        && parts.all(|p| SUBTAG_CHARS.contains(&p.len()) && alpha(p))
}

/// The licence a link names: `CC BY-SA 4.0` for a Creative Commons
/// licence (`CC0 1.0`, `Public Domain Mark 1.0` for the public-domain
/// tools), read from its address; `None` for any other address.
pub(super) fn creative_commons(href: &str) -> Option<String> {
    let l = href.to_ascii_lowercase();
    let at = l.find("creativecommons.org/")? + "creativecommons.org/".len();
    let mut parts = l[at..].split(['/', '?', '#']).filter(|p| !p.is_empty());
    let kind = parts.next()?;
    let code = parts.next()?;
    let version = parts
        .next()
        .filter(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'));
    let name = match (kind, code) {
        ("licenses" | "licences", code)
            if code.starts_with("by")
                && code
                    .split('-')
                    .all(|p| matches!(p, "by" | "nc" | "nd" | "sa")) =>
        {
            format!("CC {}", code.to_ascii_uppercase())
        }
        ("publicdomain", "zero") => "CC0".to_owned(),
        ("publicdomain", "mark") => "Public Domain Mark".to_owned(),
        _ => return None,
    };
    Some(match version {
        Some(v) => format!("{name} {v}"),
        None => name,
    })
}

/// The licence of a `rel="license"` link: Creative Commons from its
/// address, else its text, else its address; `None` when its text or
/// address says it is a privacy policy or terms page (see
/// [`NOT_LICENSE`]).
pub(super) fn license_of(href: Option<&str>, text: &str, base: Option<&Url>) -> Option<String> {
    if let Some(cc) = href.and_then(creative_commons) {
        return Some(cc);
    }
    let both = format!("{} {}", text, href.unwrap_or("")).to_lowercase();
    if NOT_LICENSE.iter().any(|w| both.contains(w)) {
        return None;
    }
    if text.chars().any(char::is_alphanumeric) {
        return Some(text.to_owned());
    }
    let href = href?;
    let u = match base {
        Some(b) => b.join(href).ok()?,
        None => Url::parse(href).ok()?,
    };
    matches!(u.scheme(), "http" | "https").then(|| u.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_lists_split() {
        assert_eq!(split_keywords("a, b ,c,,"), vec!["a", "b", "c"]);
        assert_eq!(
            split_keywords("US;GLOBAL;Gold"),
            vec!["US", "GLOBAL", "Gold"]
        );
        assert_eq!(
            split_keywords("国际,法国报纸摘要"),
            vec!["国际", "法国报纸摘要"]
        );
        assert_eq!(
            split_keywords("宇航员 太空 国际空间站"),
            vec!["宇航员", "太空", "国际空间站"]
        );
        // A Latin keyword with spaces is one keyword.
        assert_eq!(
            split_keywords("north carolina   tar heels"),
            vec!["north carolina tar heels"]
        );
    }

    #[test]
    fn labels_and_machine_values() {
        assert!(is_label("Health & Mind"));
        assert!(is_label("国际"));
        for v in [
            "/world/middle_east",
            "@hp-top-stories",
            "Article",
            "",
            "https://x.org/",
        ] {
            assert!(!is_label(v), "{v}");
        }
        assert!(is_label("Articles"));
        for v in [
            "Lite:true",
            "LayerCake:0",
            "Source:LOCKED_NONE",
            "Section: News:World News",
        ] {
            assert!(machine_value(v), "{v}");
        }
        for v in [
            "NASDAQ:MSFT",
            "Personal Technology: Review",
            "Coronavirus: Economic impact",
        ] {
            assert!(!machine_value(v), "{v}");
        }
        assert!(!is_label(&"x".repeat(MAX_LABEL_CHARS + 1)));
    }

    #[test]
    fn title_copies() {
        let t = "How a Popular Medical Device Encodes Racial Bias | Boston Review";
        assert!(copies_title(
            "How a Popular Medical Device Encodes Racial Bias",
            t
        ));
        assert!(!copies_title("Racial Bias", t));
        assert!(!copies_title(
            "Kylie Jenner",
            "Beauty stock Coty could surge after 'Kylie Jenner' makeover"
        ));
    }

    #[test]
    fn creative_commons_names() {
        for (href, want) in [
            (
                "https://creativecommons.org/licenses/by-sa/3.0/",
                "CC BY-SA 3.0",
            ),
            (
                "//creativecommons.org/licenses/by-nc-sa/2.5/deed.zh",
                "CC BY-NC-SA 2.5",
            ),
            ("http://creativecommons.org/licenses/by/4.0", "CC BY 4.0"),
            (
                "https://creativecommons.org/publicdomain/zero/1.0/",
                "CC0 1.0",
            ),
            (
                "https://creativecommons.org/publicdomain/mark/1.0/",
                "Public Domain Mark 1.0",
            ),
            (
                "https://creativecommons.org/licenses/by-nd-nc/1.0/",
                "CC BY-ND-NC 1.0",
            ),
        ] {
            assert_eq!(creative_commons(href).as_deref(), Some(want), "{href}");
        }
        assert_eq!(creative_commons("https://creativecommons.org/about/"), None);
        assert_eq!(
            creative_commons("https://example.org/licenses/by/4.0"),
            None
        );
    }

    #[test]
    fn license_links() {
        let base = Url::parse("https://example.org/a/b").ok();
        assert_eq!(
            license_of(Some("/licensing"), "", base.as_ref()).as_deref(),
            Some("https://example.org/licensing")
        );
        assert_eq!(
            license_of(Some("/gpl"), "GNU GPL v3", base.as_ref()).as_deref(),
            Some("GNU GPL v3")
        );
        assert_eq!(
            license_of(Some("/privacy.html"), "Privacy Policy", base.as_ref()),
            None
        );
        assert_eq!(license_of(Some("javascript:x()"), "", base.as_ref()), None);
    }

    #[test]
    fn home_entries() {
        assert!(is_home("Home", None));
        assert!(is_home("首页", None));
        let root = Url::parse("https://example.org/").ok();
        assert!(is_home("Example News", root.as_ref()));
        let section = Url::parse("https://example.org/news/").ok();
        assert!(!is_home("News", section.as_ref()));
        let edition = Url::parse("https://example.org/cn/").ok();
        assert!(is_home("法广", edition.as_ref()));
        let news = Url::parse("https://example.org/news").ok();
        assert!(!is_home("News", news.as_ref()));
    }
}
