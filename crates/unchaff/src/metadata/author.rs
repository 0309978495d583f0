//! The clean-up every author candidate goes through ([`clean_author`]):
//! credit words cut ("Written by", "Author:", "Text by", "作者："), what
//! follows the name cut (dates, "wrote", a job title, a `»` or `|`),
//! e-mail and web addresses taken out, avatar initials dropped, and
//! candidates that are no name at all rejected (a lone "By" or "Author",
//! a weekday, an id of digits, a template placeholder, a phrase of
//! interface words such as "View more posts").

/// Most words a byline keeps: a name with a middle name, a particle and
/// a suffix ("Marna van der Merwe", "Jeff T. Kaufman Jr.") fits; a
/// sentence picked up by mistake does not.
const MAX_NAME_WORDS: usize = 8;

/// Most characters of one name (bylines of several names are cleaned one
/// name at a time).
const MAX_NAME_CHARS: usize = 80;

/// How many leading words a credit ("Article written by", "View all
/// posts by") can take before the name.
const MAX_CREDIT_WORDS: usize = 5;

/// Words that say "by" before a name, in the languages of the dev data.
const BY_WORDS: &[&str] = &["by", "from", "par", "por", "door", "przez", "von", "av"];

/// Words of credits, interface labels and roles that are never a name
/// by themselves: a candidate made only of these (with "by" words) is no
/// author, and a run of them before the name is a credit and is cut.
const NOT_NAME: &[&str] = &[
    "a",
    "about",
    "all",
    "and",
    "article",
    "articles",
    "author",
    "authors",
    "authored",
    "autor",
    "autore",
    "auteur",
    "blog",
    "comment",
    "comments",
    "contact",
    "content",
    "created",
    "edited",
    "editorial",
    "bio",
    "follow",
    "full",
    "guide",
    "in",
    "insights",
    "learn",
    "is",
    "log",
    "login",
    "more",
    "name",
    "our",
    "photo",
    "photos",
    "policies",
    "policy",
    "post",
    "posted",
    "posts",
    "profile",
    "read",
    "recipe",
    "reply",
    "review",
    "reviewed",
    "reviews",
    "search",
    "see",
    "share",
    "sign",
    "sponsored",
    "story",
    "text",
    "this",
    "topic",
    "up",
    "view",
    "visit",
    "words",
    "written",
    "store",
    "the",
    // Chinese: article(s), read(s), total reads, comments, more.
    "文章",
    "阅读",
    "总阅读",
    "评论",
    "更多",
];

/// Account names that are no person's: a site's default user.
const ACCOUNTS: &[&str] = &[
    "admin",
    "administrator",
    "webmaster",
    "undefined",
    "null",
    "none",
    "unknown",
    "n/a",
];

/// Words after which a byline says something else than the name: what
/// the person did ("wrote", "says"), their status on a forum.
const AFTER_NAME: &[&str] = &[
    "wrote",
    "writes",
    "says",
    "said",
    "replied",
    "posted",
    "updated",
    "published",
    "last",
    "on",
    "member",
    "posts",
];

/// A forum's online status beside the name: dropped.
const STATUS: &[&str] = &["offline", "online"];

/// Words that start a job title after a name ("Keith Barry Senior Autos
/// Reporter", "Rachel MacDonald Writer"); cut only after two words of
/// name, so a one-word handle stays whole.
const ROLE_WORDS: &[&str] = &[
    "writer",
    "reporter",
    "editor",
    "contributor",
    "contributing",
    "correspondent",
    "columnist",
    "founder",
    "co-founder",
    "cofounder",
    "moderator",
    "owner",
    "senior",
    "former",
    "head",
    "chief",
    "tech",
    "associate",
    "executive",
    "managing",
    "deputy",
    "lead",
    "staff",
    "guest",
    "freelance",
    "ceo",
    "cto",
    "director",
    "manager",
    "president",
];

/// Weekday names and abbreviations (English): a dateline's first word,
/// never an author.
const WEEKDAYS: &[&str] = &[
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// Month names and abbreviations (English).
const MONTHS: &[&str] = &[
    "jan",
    "feb",
    "mar",
    "apr",
    "may",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "january",
    "february",
    "march",
    "april",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Labels that precede a name in Chinese bylines (author, reporter,
/// editor, writer, poster), cut with the colon after them.
const CJK_LABELS: &[&str] = &[
    "作者",
    "记者",
    "記者",
    "编辑",
    "編輯",
    "文",
    "撰文",
    "发帖人",
    "楼主",
];

/// Characters that decorate a byline around the name ("/ Name /",
/// "— Name", "✉ Name", `"Name"`, ", Publication").
fn decoration(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '/' | '|'
                | '-'
                | '–'
                | '—'
                | '·'
                | '•'
                | '✉'
                | '»'
                | '«'
                | ':'
                | '：'
                | ','
                | ';'
                | '*'
                | '&'
                | '"'
                | '\''
                | '“'
                | '”'
                | '‘'
                | '’'
                | '['
                | ']'
                | '@'
                | '§'
                | '#'
                | '='
                | '+'
                | '>'
                | '<'
                | '~'
        )
}

/// A word as compared with the word lists: lower case, without the
/// punctuation around it.
fn bare(w: &str) -> String {
    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-' && c != '/')
        .to_lowercase()
}

/// Whether a name is a domain name ("51offer.com", "Paperium.net"): a
/// site's, not a person's.
pub(super) fn is_domain(name: &str) -> bool {
    !name.contains(char::is_whitespace)
        && name.rsplit_once('.').is_some_and(|(head, tld)| {
            !head.is_empty()
                && super::labels::TLD_CHARS.contains(&tld.len())
                && tld.chars().all(|c| c.is_ascii_alphabetic())
        })
}

/// Whether a word is an e-mail or web address (or wraps one:
/// "(www.dw.com)").
fn address(w: &str) -> bool {
    let w = w.trim_matches(|c: char| matches!(c, '(' | ')' | '<' | '>' | '[' | ']' | ','));
    let l = w.to_ascii_lowercase();
    l.starts_with("http://")
        || l.starts_with("https://")
        || l.starts_with("www.")
        || l.contains("://")
        || (w.contains('@') && w.rsplit('@').next().is_some_and(|d| d.contains('.')))
}

/// Whether `w` contains the word "author" (or its forms) as a word of
/// its own: "Topic Author", "page.head.extra.author", "--reset-author",
/// "该作者文章" ("this author's articles"); not "Authority".
fn has_author_word(s: &str) -> bool {
    s.contains("作者")
        || s.split(|c: char| !c.is_alphanumeric()).any(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "author" | "authors" | "autor" | "auteur"
            )
        })
}

/// The name in an author candidate, or `None` when it holds none (see
/// the module docs). `raw` is one name, or a byline's text.
pub(super) fn clean_author(raw: &str) -> Option<String> {
    let raw = raw.trim();
    // A name that starts with a comma lost its first part (", USA TODAY"
    // from a template whose name field was empty); a template left
    // unfilled, a section heading (§) or a command-line flag is no name
    // either.
    if raw.starts_with(',')
        || raw.starts_with("--")
        || raw.contains('§')
        || raw.contains("{{")
        || raw.contains("${")
        || raw.contains("}}")
    {
        return None;
    }
    let mut s = raw;
    for label in CJK_LABELS {
        if let Some(rest) = s.strip_prefix(label)
            && let Some(rest) = rest
                .trim_start()
                .strip_prefix([':', '：', '/'])
                .or_else(|| rest.starts_with(char::is_whitespace).then_some(rest))
        {
            s = rest.trim_start();
            break;
        }
    }
    let mut words: Vec<&str> = s
        .split_whitespace()
        .filter(|w| !address(w) && !STATUS.contains(&bare(w).as_str()))
        .collect();
    // A credit before the name: a run of credit words, ending at a "by"
    // word when there is one ("Article written by", "View all posts by").
    let lead = words
        .iter()
        .take(MAX_CREDIT_WORDS)
        .take_while(|w| {
            let b = bare(w);
            b.is_empty() || NOT_NAME.contains(&b.as_str()) || BY_WORDS.contains(&b.as_str())
        })
        .count();
    // "The Investopedia Team", "Read more about The Upwork Team", "Our
    // Editors": a "The" or "Our" just before the name is part of it.
    let lead = if lead > 0 && matches!(bare(words[lead - 1]).as_str(), "the" | "our") {
        lead - 1
    } else {
        lead
    };
    words.drain(..lead.min(words.len()));
    // What follows the name.
    let mut end = words.len();
    let mut in_parens = false;
    for (i, w) in words.iter().enumerate() {
        let b = bare(w);
        let separator = matches!(*w, "»" | "|" | "•" | "·" | "—" | "–" | "-" | "/" | "--");
        // "on" ends a name only before a date ("Jane Roe on March 3"),
        // not inside one ("Audiophile On").
        let on_date = b == "on"
            && words.get(i + 1).is_some_and(|n| {
                let n = bare(n);
                n.starts_with(|c: char| c.is_ascii_digit())
                    || WEEKDAYS.contains(&n.as_str())
                    || MONTHS.contains(&n.as_str())
            });
        if i > 0
            && (separator
                || on_date
                || (b != "on" && AFTER_NAME.contains(&b.as_str()))
                || WEEKDAYS.contains(&b.as_str())
                || MONTHS.contains(&b.as_str())
                || w.starts_with(|c: char| c.is_ascii_digit())
                || w.contains([':', '：']))
        {
            end = i;
            break;
        }
        in_parens |= w.contains('(');
        // A job title after the name, not one in parentheses that is part
        // of how the site writes the name ("Lance Ryan (Content Manager)").
        if i >= 2 && !in_parens && ROLE_WORDS.contains(&b.as_str()) {
            end = i;
            break;
        }
        in_parens &= !w.contains(')');
    }
    words.truncate(end);
    // Avatar initials beside the name ("J JonB", "JosephF J") and a
    // forum's online status.
    let initial_of = |a: &str, b: &str| {
        let mut ca = a.chars();
        let (Some(x), None) = (ca.next(), ca.next()) else {
            return false;
        };
        x.is_alphabetic()
            && b.chars().count() > 1
            && b.chars()
                .next()
                .is_some_and(|y| y.to_lowercase().eq(x.to_lowercase()))
    };
    let mut kept: Vec<&str> = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        let prev = if i > 0 { words[i - 1] } else { "" };
        if initial_of(w, next) || initial_of(w, prev) {
            continue;
        }
        kept.push(w);
    }
    let name = kept.join(" ");
    let name = trim_decoration(&name).to_owned();
    if !plausible(&name) {
        return None;
    }
    Some(name)
}

/// Quotation marks, as pairs of opening and closing forms.
const QUOTE_PAIRS: &[(char, char)] = &[('"', '"'), ('\'', '\''), ('“', '”'), ('‘', '’')];

/// `name` without the decoration around it ([`decoration`]), except a
/// quotation mark whose partner is still inside (`"Quoted" Name` keeps
/// its quotes: a nickname, not decoration).
fn trim_decoration(name: &str) -> &str {
    let mut t = name;
    loop {
        let before = t.len();
        t = t.trim_matches(|c: char| {
            decoration(c) && !QUOTE_PAIRS.iter().any(|&(o, e)| c == o || c == e)
        });
        for &(open, close) in QUOTE_PAIRS {
            let inner = t.strip_prefix(open).and_then(|r| r.strip_suffix(close));
            if let Some(inner) = inner.filter(|i| !i.contains(open) && !i.contains(close)) {
                t = inner;
            } else if let Some(rest) = t.strip_prefix(open).filter(|r| !r.contains(close)) {
                t = rest;
            } else if let Some(rest) = t.strip_suffix(close).filter(|r| !r.contains(open)) {
                t = rest;
            }
        }
        if t.len() == before {
            return t;
        }
    }
}

/// Whether a cleaned candidate can be a name.
fn plausible(name: &str) -> bool {
    let letters = name.chars().filter(|c| c.is_alphabetic()).count();
    let digits = name.chars().filter(|c| c.is_ascii_digit()).count();
    let words: Vec<String> = name.split_whitespace().map(bare).collect();
    // An id: digits only, or hexadecimal digits and dashes
    // ("3d23d65-ddc6-4ce5"); a handle with digits stays ("user3080392").
    let id = digits > 0 && name.chars().all(|c| c.is_ascii_hexdigit() || c == '-');
    if letters == 0
        || id
        || name.chars().count() > MAX_NAME_CHARS
        || words.len() > MAX_NAME_WORDS
        || has_author_word(name)
    {
        return false;
    }
    let lower = name.to_lowercase();
    if ACCOUNTS.contains(&lower.as_str()) {
        return false;
    }
    if let [w] = words.as_slice()
        && (WEEKDAYS.contains(&w.as_str()) || MONTHS.contains(&w.as_str()))
    {
        return false;
    }
    // More interface words than not: "Sign In", "Visit the GUSILOR
    // Store", "This review is" (a name may hold one: "Emily Post").
    let not_name = words
        .iter()
        .filter(|w| NOT_NAME.contains(&w.as_str()) || BY_WORDS.contains(&w.as_str()))
        .count();
    not_name * 2 <= words.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Option<String> {
        clean_author(s)
    }

    #[test]
    fn lone_credit_words_are_no_author() {
        for s in [
            "By",
            "by:",
            "Author",
            "Written By",
            "Article by:",
            "The Author",
            "Topic Author",
            "Follow the author",
            "View more posts",
            "Sign In",
            "Name *",
            "This review is",
            "Visit the GUSILOR Store",
            "Learn about our",
            "Full Bio",
            "■ 该作者文章",
            "中国新闻网 文章 总阅读",
        ] {
            assert_eq!(c(s), None, "{s}");
        }
    }

    #[test]
    fn dates_and_ids_are_no_author() {
        for s in [
            "Sat",
            "Sun",
            "Tuesday",
            "December",
            "Dec.",
            "262588213843476",
            "3d23d65-ddc6-4ce5",
        ] {
            assert_eq!(c(s), None, "{s}");
        }
    }

    #[test]
    fn headings_placeholders_and_fragments_are_no_author() {
        for s in [
            "§ Authoring applications",
            "--reset-author",
            "page.head.extra.author",
            "{{ author.name }}",
            ", USA TODAY",
            "undefined",
            "admin",
        ] {
            assert_eq!(c(s), None, "{s}");
        }
    }

    #[test]
    fn addresses_are_taken_out() {
        assert_eq!(c("tomashusner@hotmail.com"), None);
        assert_eq!(c("https://example.com/jane"), None);
        assert_eq!(
            c("Deutsche Welle (www.dw.com)").as_deref(),
            Some("Deutsche Welle")
        );
        assert_eq!(
            c("✉ Aditya Mahindru aditya.mahindru@gmail.com").as_deref(),
            Some("Aditya Mahindru")
        );
    }

    #[test]
    fn credits_before_the_name_are_cut() {
        for (s, want) in [
            ("Written By: Cazzy Magennis", "Cazzy Magennis"),
            ("Author Isaiah Shelton", "Isaiah Shelton"),
            ("Author: Michael Ansaldo", "Michael Ansaldo"),
            ("Text by Hunter Dukes", "Hunter Dukes"),
            ("Post by galitsyn »", "galitsyn"),
            ("View all posts by Ray Ansari", "Ray Ansari"),
            ("Read more about The Upwork Team", "The Upwork Team"),
            ("作者：放飞&心情", "放飞&心情"),
            ("作者： 放飞&心情 能力值:545803", "放飞&心情"),
        ] {
            assert_eq!(c(s).as_deref(), Some(want), "{s}");
        }
    }

    #[test]
    fn what_follows_the_name_is_cut() {
        for (s, want) in [
            ("Outer Armatonisdaristan » Tue", "Outer Armatonisdaristan"),
            ("J Offline JonB wrote", "JonB"),
            ("JosephF J", "JosephF"),
            ("Keith Barry Senior Autos Reporter", "Keith Barry"),
            ("Liz Kenny Former McKinsey Consultant", "Liz Kenny"),
            ("Rachel MacDonald Writer", "Rachel MacDonald"),
            ("Jiobal says:", "Jiobal"),
            ("David Jackson - FullStack Editorial Team", "David Jackson"),
            ("/ Jane Roe /", "Jane Roe"),
            ("\"David Kim\"", "David Kim"),
            ("Written By: Cazzy Magennis Last Updated:", "Cazzy Magennis"),
        ] {
            assert_eq!(c(s).as_deref(), Some(want), "{s}");
        }
    }

    #[test]
    fn names_stay_whole() {
        for s in [
            "Marna van der Merwe",
            "The Investopedia Team",
            "Our Editors",
            "Ursula von der Leyen",
            "Genevieve Carlton, Ph.D.",
            "Ralston18",
            "user3080392",
            "李楠",
            "Madonna",
            "Mod Sharon",
            "Emily Post",
            "\"Quoted\" Name",
            "Jane “JJ” Doe",
        ] {
            assert_eq!(c(s).as_deref(), Some(s), "{s}");
        }
    }

    #[test]
    fn quotes_around_the_name_go_a_nickname_s_stay() {
        assert_eq!(c("\"Jane Doe\"").as_deref(), Some("Jane Doe"));
        assert_eq!(c("“Jane Doe”").as_deref(), Some("Jane Doe"));
        assert_eq!(c("/ \"Jane Doe").as_deref(), Some("Jane Doe"));
        assert_eq!(
            c("\"Quoted\" Name \\ Slash").as_deref(),
            Some("\"Quoted\" Name \\ Slash")
        );
    }
}
