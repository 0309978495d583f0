//! What kind of page it is: an article, a forum thread, a product, a
//! listing, documentation, or something else ([`PageType`]).
//!
//! **Unstable** ([`Signals`] and [`classify`]): public for the tools of
//! the unchaff workspace; [`PageType`] itself is stable.
//!
//! The type is read from what the page says of itself and how it is
//! built, never from a model of its words: its schema.org types (JSON-LD
//! `@type`, microdata `itemtype`), its Open Graph `og:type`, the words of
//! its URL's path and host, and a few counts over its tree (code blocks,
//! prices, buy buttons, posts with authors, repeated items with links).
//! [`classify`] weighs them in a fixed order, each rule with its reason
//! in a comment; `docs/RESULTS.md` has its accuracy per type on the
//! labelled pages (wcxb-dev's `page_type`; the rules were written
//! looking at pages of that folder, so the figures are not held out).

use serde::Serialize;

use crate::dom::{Dom, NodeId, Tag};

/// The kinds of page ([`crate::Extraction::page_type`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum PageType {
    /// A news story, a blog post, an essay, a recipe: one text by an
    /// author.
    Article,
    /// A discussion: a forum thread, a question with its answers.
    Forum,
    /// One product or offer for sale (a shop's product page, an app's
    /// store page).
    Product,
    /// Many items, each a link to its own page: a shop's category, search
    /// results, a blog's or a news section's front.
    Listing,
    /// Technical documentation: reference, guides, manuals.
    Documentation,
    /// Anything else (a company's service page, a home page, a form).
    #[default]
    Other,
}

impl PageType {
    /// Every type, in the order of [`PageType::name`]'s documentation.
    pub const ALL: [PageType; 6] = [
        PageType::Article,
        PageType::Forum,
        PageType::Product,
        PageType::Listing,
        PageType::Documentation,
        PageType::Other,
    ];

    /// The name written in outputs: `article`, `forum`, `product`,
    /// `listing`, `documentation`, `other`.
    pub fn name(self) -> &'static str {
        match self {
            PageType::Article => "article",
            PageType::Forum => "forum",
            PageType::Product => "product",
            PageType::Listing => "listing",
            PageType::Documentation => "documentation",
            PageType::Other => "other",
        }
    }
}

impl std::fmt::Display for PageType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Most JSON-LD values walked for `@type`s per script: a page's graph has
/// tens to a few hundred; a huge one is not read to its end.
const LD_VALUES: usize = 5_000;

/// Most `@type` / `itemtype` names kept.
const MAX_TYPES: usize = 32;

/// What [`classify`] reads of a page.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Signals {
    /// schema.org types the page declares (JSON-LD `@type`, microdata
    /// `itemtype`, last path segment), lower case, in order, each once.
    pub types: Vec<String>,
    /// `og:type`, lower case.
    pub og_type: Option<String>,
    /// The URL's path and host, lower case.
    pub path: String,
    /// The URL's host, lower case.
    pub host: String,
    /// `<pre>` elements and code blocks.
    pub code_blocks: u32,
    /// Money amounts in the page's text (a currency sign or code beside a
    /// number with a decimal part or thousands).
    pub prices: u32,
    /// Buttons and links to buy (add to cart, buy now, add to basket).
    pub buy_buttons: u32,
    /// Elements whose class or id names a forum post or its parts (post
    /// bodies, usernames, reply counts).
    pub post_marks: u32,
    /// `<article>` elements.
    pub articles: u32,
    /// `<time>` elements.
    pub times: u32,
    /// Characters of the page's text, and of it in links.
    pub chars: u32,
    /// See [`Signals::chars`].
    pub link_chars: u32,
    /// Characters of the extracted main content (0 before extraction).
    pub main_chars: u32,
    /// Characters of the main content in links.
    pub main_link_chars: u32,
}

/// Characters of main content from which a page that declares no type is
/// an article when that content is prose ([`ARTICLE_MAX_LINK_SHARE`]):
/// about two paragraphs. Held out, pages of news folders that declare
/// nothing (2010s news sites without schema.org or Open Graph) fell to
/// `other` without it.
pub const ARTICLE_MIN_CHARS: u32 = 1000;

/// The most of the main content's characters in links for it to be prose
/// (a listing's content is mostly its links).
pub const ARTICLE_MAX_LINK_SHARE: f32 = 0.2;

/// Words of a class or id that mark a forum post or its parts.
const POST_WORDS: &[&str] = &[
    "postbody",
    "post-body",
    "post_body",
    "postcontent",
    "post-content",
    "message-body",
    "messagecontent",
    "bbwrapper",
    "username",
    "user-name",
    "topic-body",
    "reply-count",
    "forum",
    "thread",
    "answer",
    "question",
];

/// Texts of buttons and links that buy.
const BUY_WORDS: &[&str] = &[
    "add to cart",
    "add to basket",
    "add to bag",
    "buy now",
    "in den warenkorb",
    "ajouter au panier",
    "add to wishlist",
];

/// The signals of a page, read from its tree before cleaning (the head's
/// JSON-LD and `<meta>` are still there) and from its URL.
pub fn signals(dom: &Dom, url: Option<&str>) -> Signals {
    let mut s = Signals::default();
    if let Some(u) = url.and_then(|u| url::Url::parse(u).ok()) {
        s.host = u.host_str().unwrap_or("").to_ascii_lowercase();
        s.path = u.path().to_ascii_lowercase();
    }
    let mut in_link = 0u32;
    let mut link_end: Vec<NodeId> = Vec::new();
    for edge in dom.traverse(NodeId(0)) {
        let id = match edge {
            crate::dom::Edge::Leave(id) => {
                if link_end.last() == Some(&id) {
                    link_end.pop();
                    in_link -= 1;
                }
                continue;
            }
            crate::dom::Edge::Enter(id) => id,
        };
        if let Some(t) = dom.text_of(id) {
            let n = t.chars().filter(|c| !c.is_whitespace()).count() as u32;
            s.chars += n;
            if in_link > 0 {
                s.link_chars += n;
            }
            s.prices += prices_in(t);
            continue;
        }
        let Some(tag) = dom.tag(id) else { continue };
        let attr = |n: &str| dom.attr(id, n);
        if let Some(t) = attr("itemtype") {
            for w in t.split_ascii_whitespace() {
                add_type(&mut s.types, w);
            }
        }
        let names = [attr("class"), attr("id")];
        if names.iter().flatten().any(|v| {
            let v = v.to_ascii_lowercase();
            POST_WORDS.iter().any(|w| v.contains(w))
        }) {
            s.post_marks += 1;
        }
        match tag {
            Tag::A => {
                in_link += 1;
                link_end.push(id);
                if is_buy(dom, id) {
                    s.buy_buttons += 1;
                }
            }
            Tag::BUTTON | Tag::INPUT if is_buy(dom, id) => s.buy_buttons += 1,
            Tag::PRE => s.code_blocks += 1,
            Tag::ARTICLE => s.articles += 1,
            Tag::TIME => s.times += 1,
            Tag::META => {
                let key = attr("property").or_else(|| attr("name"));
                if key.is_some_and(|k| k.eq_ignore_ascii_case("og:type"))
                    && let Some(v) = attr("content")
                {
                    s.og_type = Some(v.trim().to_ascii_lowercase());
                }
            }
            Tag::SCRIPT
                if attr("type").is_some_and(|t| t.to_ascii_lowercase().contains("ld+json")) =>
            {
                let json: String = dom.children(id).filter_map(|c| dom.text_of(c)).collect();
                ld_types(&json, &mut s.types);
            }
            _ => {}
        }
    }
    s
}

/// Whether an element's own text (or its `value`, for an input) says it
/// buys ([`BUY_WORDS`]).
fn is_buy(dom: &Dom, id: NodeId) -> bool {
    const MAX_CHARS: usize = 40;
    let mut text = String::new();
    if let Some(v) = dom.attr(id, "value") {
        text.push_str(v);
    }
    for d in dom.descendants(id).skip(1) {
        if let Some(t) = dom.text_of(d) {
            text.push_str(t);
            if text.len() > MAX_CHARS {
                return false;
            }
        }
    }
    let t = text.trim().to_lowercase();
    BUY_WORDS.iter().any(|w| t.contains(w))
}

/// Adds a schema.org type (a URL or a bare name; its last segment, lower
/// case) unless it is there.
fn add_type(types: &mut Vec<String>, t: &str) {
    let name = t.trim().trim_end_matches('/');
    let name = name.rsplit(['/', '#', ':']).next().unwrap_or(name);
    let name = name.to_ascii_lowercase();
    if !name.is_empty() && types.len() < MAX_TYPES && !types.contains(&name) {
        types.push(name);
    }
}

/// The `@type`s of a JSON-LD script, in document order (an explicit
/// stack: the JSON may nest deeply).
fn ld_types(json: &str, types: &mut Vec<String>) {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(json.trim().trim_end_matches(';')) else {
        return;
    };
    let mut stack = vec![&v];
    let mut seen = 0;
    while let Some(v) = stack.pop() {
        seen += 1;
        if seen > LD_VALUES {
            break;
        }
        match v {
            serde_json::Value::Array(a) => stack.extend(a.iter().rev()),
            serde_json::Value::Object(o) => {
                match o.get("@type") {
                    Some(serde_json::Value::String(t)) => add_type(types, t),
                    Some(serde_json::Value::Array(a)) => {
                        for t in a.iter().filter_map(|t| t.as_str()) {
                            add_type(types, t);
                        }
                    }
                    _ => {}
                }
                stack.extend(o.values().rev());
            }
            _ => {}
        }
    }
}

/// Currency signs and codes that mark a money amount.
const CURRENCY: &[&str] = &["$", "€", "£", "¥", "₹", "usd", "eur", "gbp", "chf", "kr"];

/// The money amounts in a text: a currency sign or code right before or
/// after a number that has a decimal part (`$12.99`, `12,99 €`) or
/// thousands (`$1,299`).
fn prices_in(t: &str) -> u32 {
    if !t.bytes().any(|b| b.is_ascii_digit()) {
        return 0;
    }
    let lower = t.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mut n = 0;
    for c in CURRENCY {
        let mut from = 0;
        while let Some(i) = lower[from..].find(c).map(|i| i + from) {
            let after = i + c.len();
            let is_word = c.bytes().all(|x| x.is_ascii_alphabetic());
            let bounded = !is_word
                || (i == 0 || !b[i - 1].is_ascii_alphabetic())
                    && b.get(after).is_none_or(|x| !x.is_ascii_alphabetic());
            if bounded && (amount_at(b, after) || amount_before(b, i)) {
                n += 1;
            }
            from = after;
        }
    }
    n
}

/// Whether an amount (digits with a `.`/`,` and more digits) starts at
/// `i` (after spaces).
fn amount_at(b: &[u8], mut i: usize) -> bool {
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    let start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i > start
        && matches!(b.get(i), Some(b'.' | b','))
        && b.get(i + 1).is_some_and(u8::is_ascii_digit)
}

/// Whether an amount ends right before `i` (before spaces).
fn amount_before(b: &[u8], mut i: usize) -> bool {
    while i > 0 && b[i - 1] == b' ' {
        i -= 1;
    }
    let end = i;
    while i > 0 && b[i - 1].is_ascii_digit() {
        i -= 1;
    }
    end > i && i >= 2 && matches!(b[i - 1], b'.' | b',') && b[i - 2].is_ascii_digit()
}

/// The page's type from its signals (see the module documentation).
pub fn classify(s: &Signals) -> PageType {
    let has = |names: &[&str]| s.types.iter().any(|t| names.contains(&t.as_str()));
    let path_has = |words: &[&str]| words.iter().any(|w| s.path.contains(w));
    let host_has = |words: &[&str]| words.iter().any(|w| s.host.contains(w));
    // What the page declares of its main entity comes first.
    if has(&["discussionforumposting", "qapage", "question"]) {
        return PageType::Forum;
    }
    if has(&[
        "product",
        "productgroup",
        "softwareapplication",
        "videogame",
    ]) || s.og_type.as_deref().is_some_and(|t| t.contains("product"))
    {
        return PageType::Product;
    }
    if has(&["techarticle", "apireference", "softwaresourcecode"]) {
        return PageType::Documentation;
    }
    if has(&[
        "collectionpage",
        "itemlist",
        "searchresultspage",
        "offercatalog",
    ]) {
        return PageType::Listing;
    }
    if host_has(&["docs.", "developer.", "readthedocs", "devdocs"])
        || path_has(&[
            "/docs/",
            "/doc/",
            "/documentation/",
            "/reference/",
            "/api/",
            "/manual/",
        ])
    {
        return PageType::Documentation;
    }
    if host_has(&[
        "forum",
        "community.",
        "discuss",
        "stackexchange",
        "stackoverflow",
    ]) || path_has(&[
        "/forum",
        "/thread",
        "/topic",
        "/questions/",
        "/t/",
        "/comments/",
    ]) {
        return PageType::Forum;
    }
    if s.buy_buttons > 0 && s.prices > 0 {
        return PageType::Product;
    }
    if path_has(&[
        "/category/",
        "/categories/",
        "/collections/",
        "/tag/",
        "/search",
        "/c/",
    ]) {
        return PageType::Listing;
    }
    if has(&[
        "newsarticle",
        "article",
        "blogposting",
        "report",
        "recipe",
        "reportagenewsarticle",
    ]) || s.og_type.as_deref() == Some("article")
    {
        return PageType::Article;
    }
    if s.code_blocks >= 3 {
        return PageType::Documentation;
    }
    if s.main_chars >= ARTICLE_MIN_CHARS
        && (s.main_link_chars as f32) <= ARTICLE_MAX_LINK_SHARE * s.main_chars as f32
    {
        return PageType::Article;
    }
    if s.chars > 0 && s.link_chars as f32 > 0.5 * s.chars as f32 {
        return PageType::Listing;
    }
    PageType::Other
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn type_of(html: &str, url: &str) -> PageType {
        classify(&signals(&parse(html), Some(url)))
    }

    #[test]
    fn prices_are_amounts_beside_a_currency() {
        assert_eq!(prices_in("Now $12.99, was 1,299 € and USD 5.00"), 3);
        assert_eq!(prices_in("$5 off, 12 kr, eurozone 3.5, 2024"), 0);
    }

    #[test]
    fn declared_types_decide() {
        let ld = |t: &str| {
            format!(
                r#"<script type="application/ld+json">{{"@context":"https://schema.org","@graph":[{{"@type":"WebSite"}},{{"@type":["{t}"]}}]}}</script><p>x</p>"#
            )
        };
        let u = "https://example.org/a";
        assert_eq!(type_of(&ld("Product"), u), PageType::Product);
        assert_eq!(type_of(&ld("DiscussionForumPosting"), u), PageType::Forum);
        assert_eq!(type_of(&ld("NewsArticle"), u), PageType::Article);
        assert_eq!(type_of(&ld("TechArticle"), u), PageType::Documentation);
        assert_eq!(type_of(&ld("CollectionPage"), u), PageType::Listing);
        let micro = "<div itemscope itemtype='http://schema.org/Product'><p>x</p></div>";
        assert_eq!(type_of(micro, u), PageType::Product);
        let og = "<meta property=og:type content=article><p>x</p>";
        assert_eq!(type_of(og, u), PageType::Article);
    }

    #[test]
    fn urls_and_counts_decide_otherwise() {
        let p = "<p>Some words of the page.</p>";
        assert_eq!(
            type_of(p, "https://docs.example.org/x"),
            PageType::Documentation
        );
        assert_eq!(type_of(p, "https://example.org/forum/t-1"), PageType::Forum);
        assert_eq!(type_of(p, "https://example.org/about"), PageType::Other);
        let shop = "<p>Trail pack</p><p>$129.99</p><button>Add to cart</button>";
        assert_eq!(type_of(shop, "https://example.org/p/1"), PageType::Product);
        let links: String = (0..20)
            .map(|i| format!("<li><a href=/{i}>Item {i}</a></li>"))
            .collect();
        assert_eq!(
            type_of(&format!("<ul>{links}</ul>"), "https://e.org/x"),
            PageType::Listing
        );
        let code = "<pre>a</pre><pre>b</pre><pre>c</pre>";
        assert_eq!(type_of(code, "https://e.org/x"), PageType::Documentation);
    }

    #[test]
    fn prose_main_content_is_an_article_when_nothing_is_declared() {
        // A news page of the 2010s: no schema.org, no Open Graph, a URL
        // without telling words. Its extracted prose decides.
        let mut s = signals(
            &parse("<p>x</p>"),
            Some("https://news.example/2011/05/0412"),
        );
        assert_eq!(classify(&s), PageType::Other);
        (s.main_chars, s.main_link_chars) = (3_000, 120);
        assert_eq!(classify(&s), PageType::Article);
        // Main content that is mostly links is no article; nor is a line.
        (s.main_chars, s.main_link_chars) = (3_000, 2_000);
        assert_ne!(classify(&s), PageType::Article);
        (s.main_chars, s.main_link_chars) = (300, 0);
        assert_eq!(classify(&s), PageType::Other);
    }
}
