//! The page templates the generated content sits in, with their chrome:
//! a news site, a documentation site, an encyclopedia, a Q&A site and a
//! blog with comments. Nothing of the chrome is in the gold.

use rand::Rng;

use super::content::Prose;
use super::markup::esc;

/// A page template (one dataset folder each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    /// A news CMS: header navigation, byline, share links, related
    /// stories, most-read list, newsletter box, footer.
    News,
    /// A documentation site: sidebar navigation, breadcrumbs, "on this
    /// page" contents, previous/next links, footer.
    Docs,
    /// An encyclopedia article: infobox, contents box, `[edit]` links,
    /// references, navbox, sidebar.
    Encyclopedia,
    /// A Q&A page: the question and two answers with votes, tags and user
    /// cards, related questions in a sidebar.
    Qa,
    /// A blog post with a comment thread and a comment form, sidebar
    /// widgets.
    Blog,
}

impl Template {
    /// Every template.
    pub const ALL: [Template; 5] = [
        Template::News,
        Template::Docs,
        Template::Encyclopedia,
        Template::Qa,
        Template::Blog,
    ];

    /// The template's name (manifest `template`).
    pub fn name(self) -> &'static str {
        match self {
            Template::News => "news",
            Template::Docs => "docs",
            Template::Encyclopedia => "encyclopedia",
            Template::Qa => "qa",
            Template::Blog => "blog",
        }
    }

    /// The dataset folder of the template's pages.
    pub fn folder(self) -> String {
        format!("gen-{}", self.name())
    }

    /// The address of page `i` titled `title`.
    pub fn url(self, i: usize, title: &str) -> String {
        let slug = Prose::slug(title);
        match self {
            Template::News => format!(
                "https://news.example.com/2024/{:02}/{slug}-{i}.html",
                i % 12 + 1
            ),
            Template::Docs => format!("https://docs.example.org/guide/{slug}-{i}/"),
            Template::Encyclopedia => format!(
                "https://en.examplepedia.org/wiki/{}_{i}",
                title.replace(' ', "_")
            ),
            Template::Qa => format!("https://qa.example.net/questions/{}/{slug}", 70_000 + i),
            Template::Blog => format!("https://blog.example.io/2023/{:02}/{slug}-{i}/", i % 12 + 1),
        }
    }
}

/// What a template writes around the content.
pub struct Meta<'a> {
    /// The page's title (its `<h1>`).
    pub title: &'a str,
    /// Its address.
    pub url: &'a str,
    /// The author's name.
    pub author: &'a str,
}

/// A list of `n` links with made-up titles.
fn link_list(rng: &mut impl Rng, n: usize, prefix: &str, class: &str, ordered: bool) -> String {
    let items: String = (0..n)
        .map(|_| {
            let t = Prose::title(rng);
            format!(
                "<li><a href=\"{prefix}{}\">{}</a></li>",
                Prose::slug(&t),
                esc(&t)
            )
        })
        .collect();
    let tag = if ordered { "ol" } else { "ul" };
    format!("<{tag} class=\"{class}\">{items}</{tag}>")
}

/// A navigation bar of `labels`.
fn nav(labels: &[&str], class: &str) -> String {
    let items: String = labels
        .iter()
        .map(|l| {
            format!(
                "<li><a href=\"/{}\">{l}</a></li>",
                l.to_lowercase().replace(' ', "-")
            )
        })
        .collect();
    format!("<nav class=\"{class}\"><ul>{items}</ul></nav>")
}

/// The document around `body`.
fn document(meta: &Meta<'_>, site: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{} | {site}</title><link rel=\"canonical\" href=\"{}\"><meta property=\"og:title\" content=\"{}\"><meta name=\"author\" content=\"{}\"><link rel=\"stylesheet\" href=\"/static/site.css\"><script>window.dataLayer = window.dataLayer || []; function gtag(){{dataLayer.push(arguments);}}</script></head>\n<body>\n{body}\n<script src=\"/static/app.js\" defer></script></body></html>\n",
        esc(meta.title),
        esc(meta.url),
        esc(meta.title),
        esc(meta.author)
    )
}

/// A page of `template` around the content `chunks` (the main content in
/// one chunk; a Q&A page's question and answers in three).
pub fn page(template: Template, meta: &Meta<'_>, chunks: &[String], rng: &mut impl Rng) -> String {
    let title = esc(meta.title);
    let author = esc(meta.author);
    let all = chunks.concat();
    match template {
        Template::News => {
            let body = format!(
                "<header class=\"site-header\"><div class=\"logo\"><a href=\"/\">The Daily Example</a></div>{}<form class=\"search\" action=\"/search\"><input type=\"search\" name=\"q\" placeholder=\"Search\"><button>Search</button></form></header>\n\
                 <div class=\"ad-slot ad-leaderboard\"><span class=\"ad-label\">Advertisement</span></div>\n\
                 <main id=\"main\"><article class=\"story\"><header class=\"story-header\"><p class=\"kicker\"><a href=\"/technology\">Technology</a></p><h1 class=\"headline\">{title}</h1><p class=\"byline\">By <a href=\"/authors/{}\" rel=\"author\">{author}</a> · <time datetime=\"2024-05-{:02}T08:30:00Z\">May {}, 2024</time></p><div class=\"share\"><a href=\"#\" class=\"share-x\">Share on X</a> <a href=\"#\" class=\"share-fb\">Facebook</a> <a href=\"#\" class=\"share-mail\">Email</a></div></header>\n\
                 <div class=\"story-body\">{all}</div>\n\
                 <div class=\"story-tags\">Topics: <a href=\"/tag/software\">Software</a>, <a href=\"/tag/science\">Science</a></div></article>\n\
                 <aside class=\"related\"><h2>Related stories</h2>{}</aside></main>\n\
                 <aside class=\"most-read\"><h3>Most read</h3>{}</aside>\n\
                 <div class=\"newsletter\"><h3>Get the morning briefing</h3><p>The day's top stories, in your inbox every weekday.</p><form><input type=\"email\" placeholder=\"Your email\"><button>Sign up</button></form></div>\n\
                 <footer class=\"site-footer\">{}<p>© 2024 The Daily Example. All rights reserved.</p></footer>",
                nav(
                    &[
                        "World",
                        "Politics",
                        "Business",
                        "Technology",
                        "Science",
                        "Sport",
                        "Culture",
                        "Opinion"
                    ],
                    "main-nav"
                ),
                Prose::slug(meta.author),
                rng.gen_range(1..29),
                rng.gen_range(1..29),
                link_list(rng, 4, "/2024/05/", "related-list", false),
                link_list(rng, 5, "/2024/04/", "most-read-list", true),
                nav(
                    &[
                        "About us",
                        "Contact",
                        "Privacy",
                        "Terms",
                        "Advertise",
                        "Careers"
                    ],
                    "footer-nav"
                ),
            );
            document(meta, "The Daily Example", &body)
        }
        Template::Docs => {
            let sections: String = (0..3)
                .map(|_| {
                    format!(
                        "<li class=\"toctree-l1\"><a class=\"reference internal\" href=\"#\">{}</a>{}</li>",
                        esc(&Prose::topic(rng)),
                        link_list(rng, 3, "/guide/", "toctree-l2", false)
                    )
                })
                .collect();
            let body = format!(
                "<div class=\"wy-grid\"><nav class=\"sidebar\" aria-label=\"Main navigation\"><div class=\"sidebar-brand\"><a href=\"/\">Exampledoc 3.2</a></div><div role=\"search\"><input type=\"text\" placeholder=\"Search docs\"></div><ul class=\"toctree\">{sections}</ul></nav>\n\
                 <div class=\"content-wrap\"><div class=\"breadcrumbs\" role=\"navigation\"><a href=\"/\">Docs</a> » <a href=\"/guide/\">User guide</a> » {title} <a class=\"edit-link\" href=\"https://git.example.org/docs/edit/main/guide.md\">Edit this page</a></div>\n\
                 <div class=\"document\" role=\"main\"><section id=\"page\"><h1>{title}</h1>{all}</section></div>\n\
                 <div class=\"prev-next\"><a class=\"prev\" href=\"../previous/\" rel=\"prev\">« Previous</a><a class=\"next\" href=\"../next/\" rel=\"next\">Next »</a></div>\n\
                 <aside class=\"toc-right\"><p class=\"toc-title\">On this page</p>{}</aside></div></div>\n\
                 <footer><p>© Copyright 2024, the Exampledoc authors. Built with a documentation generator.</p><p>Was this page helpful? <button>Yes</button> <button>No</button></p></footer>",
                link_list(rng, 4, "#", "toc-list", false),
            );
            document(meta, "Exampledoc documentation", &body)
        }
        Template::Encyclopedia => {
            let body = format!(
                "<div class=\"mw-page-container\"><header class=\"vector-header\"><a class=\"mw-logo\" href=\"/wiki/Main_Page\">Examplepedia</a><div id=\"p-search\"><input type=\"search\" placeholder=\"Search Examplepedia\"></div></header>\n\
                 <nav id=\"mw-panel\" class=\"vector-main-menu\">{}{}</nav>\n\
                 <main id=\"content\" class=\"mw-body\"><h1 id=\"firstHeading\" class=\"firstHeading mw-first-heading\"><span class=\"mw-page-title-main\">{title}</span></h1>\n\
                 <div id=\"bodyContent\" class=\"vector-body\"><div id=\"siteSub\">From Examplepedia, the free encyclopedia</div><div id=\"mw-content-text\" class=\"mw-body-content\"><div class=\"mw-content-ltr mw-parser-output\" lang=\"en\" dir=\"ltr\">\n\
                 <table class=\"infobox vevent\"><tbody><tr><th colspan=\"2\" class=\"infobox-above\">{title}</th></tr><tr><th class=\"infobox-label\">Field</th><td class=\"infobox-data\">Computer science</td></tr><tr><th class=\"infobox-label\">Introduced</th><td class=\"infobox-data\">{}</td></tr><tr><th class=\"infobox-label\">Related</th><td class=\"infobox-data\">{}</td></tr></tbody></table>\n\
                 {all}\n\
                 <h2><span class=\"mw-headline\" id=\"References\">References</span></h2><div class=\"reflist\"><ol class=\"references\"><li id=\"cite_note-1\"><span class=\"mw-cite-backlink\"><b><a href=\"#cite_ref-1\">^</a></b></span> <span class=\"reference-text\">{}. <i>{}</i>. Example Press, 2019.</span></li><li id=\"cite_note-2\"><span class=\"mw-cite-backlink\"><b><a href=\"#cite_ref-2\">^</a></b></span> <span class=\"reference-text\">{}. <i>{}</i>. Journal of Examples 12 (3), 2021.</span></li></ol></div>\n\
                 <div role=\"navigation\" class=\"navbox\"><table class=\"nav-box-inner\"><tbody><tr><th class=\"navbox-title\" colspan=\"2\">Topics in computing</th></tr><tr><th class=\"navbox-group\">Theory</th><td class=\"navbox-list\">{}</td></tr><tr><th class=\"navbox-group\">Practice</th><td class=\"navbox-list\">{}</td></tr></tbody></table></div>\n\
                 </div></div><div id=\"catlinks\" class=\"catlinks\">Categories: <a href=\"/wiki/Category:Computing\">Computing</a> | <a href=\"/wiki/Category:Algorithms\">Algorithms</a></div></div></main>\n\
                 <footer id=\"footer\"><ul><li>This page was last edited on 3 March 2024, at 10:21.</li><li>Text is available under a free licence; additional terms may apply.</li></ul>{}</footer></div>",
                nav(
                    &[
                        "Main page",
                        "Contents",
                        "Current events",
                        "Random article",
                        "About",
                        "Contact us"
                    ],
                    "vector-menu"
                ),
                nav(
                    &[
                        "Help",
                        "Learn to edit",
                        "Community portal",
                        "Recent changes",
                        "Upload file"
                    ],
                    "vector-menu"
                ),
                rng.gen_range(1950..2015),
                esc(&Prose::title(rng)),
                esc(&Prose::name(rng)),
                esc(&Prose::title(rng)),
                esc(&Prose::name(rng)),
                esc(&Prose::title(rng)),
                link_list(rng, 6, "/wiki/", "hlist", false),
                link_list(rng, 6, "/wiki/", "hlist", false),
                nav(
                    &[
                        "Privacy policy",
                        "About Examplepedia",
                        "Disclaimers",
                        "Code of Conduct",
                        "Developers"
                    ],
                    "footer-places"
                ),
            );
            document(meta, "Examplepedia", &body)
        }
        Template::Qa => {
            const USERS: [&str; 6] = [
                "kernelpanic",
                "m_ortiz",
                "devnull42",
                "lisa.k",
                "quietcoder",
                "tbx",
            ];
            let post = |rng: &mut dyn rand::RngCore,
                        body: &str,
                        verb: &str,
                        accepted: bool|
             -> String {
                let v = rng.gen_range(0..400);
                let user = USERS[rng.gen_range(0..USERS.len())];
                let rep = rng.gen_range(100..90_000);
                let check = if accepted {
                    "<div class=\"js-accepted-answer-indicator\" title=\"Accepted answer\" aria-label=\"Accepted\">✓</div>"
                } else {
                    ""
                };
                format!(
                    "<div class=\"post-layout\"><div class=\"votecell post-layout--left\"><div class=\"js-voting-container\"><button class=\"js-vote-up-btn\" aria-label=\"Up vote\">▲</button><div class=\"js-vote-count\" itemprop=\"upvoteCount\" data-value=\"{v}\">{v}</div><button class=\"js-vote-down-btn\" aria-label=\"Down vote\">▼</button>{check}</div></div>\
                     <div class=\"postcell post-layout--right\"><div class=\"s-prose js-post-body\" itemprop=\"text\">{body}</div>\
                     <div class=\"post-signature\"><div class=\"user-info\"><div class=\"user-action-time\">{verb} <span class=\"relativetime\">Mar {}, 2023 at {}:{:02}</span></div><div class=\"user-details\"><a href=\"/users/{}/{user}\">{user}</a><div class=\"-flair\"><span class=\"reputation-score\">{rep}</span></div></div></div></div>\
                     <div class=\"comments\"><a class=\"js-add-link comments-link\" href=\"#\">Add a comment</a></div></div></div>",
                    rng.gen_range(1..29),
                    rng.gen_range(0..24),
                    rng.gen_range(0..60),
                    rng.gen_range(1000..99_999),
                )
            };
            let q = post(
                rng,
                chunks.first().map_or("", String::as_str),
                "asked",
                false,
            );
            let answers: String = chunks
                .iter()
                .skip(1)
                .enumerate()
                .map(|(i, c)| {
                    format!(
                        "<div id=\"answer-{}\" class=\"answer js-answer{}\" itemprop=\"{}\">{}</div>",
                        80_000 + i,
                        if i == 0 { " accepted-answer" } else { "" },
                        if i == 0 { "acceptedAnswer" } else { "suggestedAnswer" },
                        post(rng, c, "answered", i == 0)
                    )
                })
                .collect();
            let body = format!(
                "<header class=\"s-topbar\"><a class=\"s-topbar--logo\" href=\"/\">Example Q&amp;A</a>{}<form class=\"s-topbar--searchbar\"><input name=\"q\" type=\"text\" placeholder=\"Search…\"></form><a href=\"/users/login\">Log in</a> <a href=\"/users/signup\">Sign up</a></header>\n\
                 <div class=\"container\"><div id=\"left-sidebar\">{}</div>\n\
                 <div id=\"content\"><div id=\"question-header\"><h1 itemprop=\"name\"><a href=\"{}\" class=\"question-hyperlink\">{title}</a></h1><a href=\"/questions/ask\" class=\"s-btn\">Ask Question</a></div>\
                 <div class=\"question-stats\">Asked <time>1 year ago</time> Modified <time>3 months ago</time> Viewed {} times</div>\n\
                 <div id=\"mainbar\" role=\"main\"><div class=\"question js-question\" id=\"question\">{q}<div class=\"post-taglist\"><a class=\"post-tag\" href=\"/questions/tagged/performance\">performance</a> <a class=\"post-tag\" href=\"/questions/tagged/parsing\">parsing</a></div></div>\n\
                 <div id=\"answers\"><div id=\"answers-header\"><h2 class=\"mb0\">{} Answers</h2><label>Sorted by: <select><option>Highest score (default)</option><option>Date modified</option></select></label></div>{answers}</div>\n\
                 <h2 class=\"bottom-notice\">Not the answer you're looking for? Browse other questions tagged <a href=\"/questions/tagged/performance\">performance</a> or <a href=\"/questions/ask\">ask your own question</a>.</h2></div>\n\
                 <div id=\"sidebar\"><div class=\"s-sidebarwidget\"><div class=\"s-sidebarwidget--header\">Linked</div>{}</div><div class=\"s-sidebarwidget\"><div class=\"s-sidebarwidget--header\">Related</div>{}</div><div id=\"hot-network-questions\"><h4>Hot Network Questions</h4>{}</div></div></div></div>\n\
                 <footer class=\"site-footer\">{}<p>Site design / logo © 2024 Example Q&amp;A; user contributions licensed under CC BY-SA.</p></footer>",
                nav(
                    &["Questions", "Tags", "Users", "Companies", "Unanswered"],
                    "s-navigation"
                ),
                nav(
                    &[
                        "Home",
                        "Questions",
                        "Tags",
                        "Saves",
                        "Users",
                        "Companies",
                        "Collectives"
                    ],
                    "left-nav"
                ),
                esc(meta.url),
                rng.gen_range(100..50_000),
                chunks.len().saturating_sub(1),
                link_list(rng, 3, "/questions/", "linked", false),
                link_list(rng, 5, "/questions/", "related", false),
                link_list(rng, 5, "https://other.example.net/questions/", "hot", false),
                nav(
                    &[
                        "About",
                        "Press",
                        "Work Here",
                        "Legal",
                        "Privacy Policy",
                        "Contact Us"
                    ],
                    "footer-nav"
                ),
            );
            document(meta, "Example Q&A", &body)
        }
        Template::Blog => {
            let comments: String = (0..rng.gen_range(2..5))
                .map(|i| {
                    let name = Prose::name(rng);
                    format!(
                        "<li id=\"comment-{}\" class=\"comment\"><article class=\"comment-body\"><footer class=\"comment-meta\"><div class=\"comment-author vcard\"><b class=\"fn\">{}</b> <span class=\"says\">says:</span></div><div class=\"comment-metadata\"><a href=\"#comment-{}\"><time>June {}, 2023 at {}:{:02} pm</time></a></div></footer><div class=\"comment-content\"><p>{}</p></div><div class=\"reply\"><a class=\"comment-reply-link\" href=\"#respond\">Reply</a></div></article></li>",
                        100 + i,
                        esc(&name),
                        100 + i,
                        rng.gen_range(1..29),
                        rng.gen_range(1..12),
                        rng.gen_range(0..60),
                        esc(&Prose::sentences(rng, 2))
                    )
                })
                .collect();
            let body = format!(
                "<div id=\"page\" class=\"site\"><header id=\"masthead\" class=\"site-header\"><p class=\"site-title\"><a href=\"/\" rel=\"home\">Notes from the Workbench</a></p><p class=\"site-description\">Software, measurement and the occasional rant</p>{}</header>\n\
                 <div id=\"content\" class=\"site-content\"><main id=\"main\" class=\"site-main\"><article class=\"post type-post status-publish hentry\"><header class=\"entry-header\"><h1 class=\"entry-title\">{title}</h1><div class=\"entry-meta\"><span class=\"posted-on\">Posted on <time class=\"entry-date published\">June {}, 2023</time></span> <span class=\"byline\">by <span class=\"author vcard\"><a href=\"/author/{}\">{author}</a></span></span></div></header>\n\
                 <div class=\"entry-content\">{all}</div>\n\
                 <footer class=\"entry-footer\"><span class=\"cat-links\">Posted in <a href=\"/category/notes\">Notes</a></span> <span class=\"tags-links\">Tagged <a href=\"/tag/tools\">tools</a></span></footer></article>\n\
                 <div class=\"sharedaddy\"><h3 class=\"sd-title\">Share this:</h3><ul><li><a href=\"#\">Share on X</a></li><li><a href=\"#\">Share on Facebook</a></li></ul></div>\n\
                 <nav class=\"post-navigation\"><div class=\"nav-previous\"><a href=\"/older\">{}</a></div><div class=\"nav-next\"><a href=\"/newer\">{}</a></div></nav>\n\
                 <div id=\"comments\" class=\"comments-area\"><h2 class=\"comments-title\">Comments</h2><ol class=\"comment-list\">{comments}</ol>\
                 <div id=\"respond\" class=\"comment-respond\"><h3 id=\"reply-title\" class=\"comment-reply-title\">Leave a Reply</h3><form action=\"/wp-comments-post.php\" method=\"post\" id=\"commentform\"><p class=\"comment-notes\">Your email address will not be published. Required fields are marked *</p><p><label for=\"comment\">Comment</label><textarea id=\"comment\" name=\"comment\"></textarea></p><p><label for=\"author\">Name *</label><input id=\"author\" name=\"author\" type=\"text\"></p><p class=\"form-submit\"><input name=\"submit\" type=\"submit\" value=\"Post Comment\"></p></form></div></div></main>\n\
                 <aside id=\"secondary\" class=\"widget-area\"><section class=\"widget\"><h2 class=\"widget-title\">Recent Posts</h2>{}</section><section class=\"widget\"><h2 class=\"widget-title\">Archives</h2>{}</section></aside></div>\n\
                 <footer id=\"colophon\" class=\"site-footer\"><div class=\"site-info\">Proudly powered by a blogging engine. Theme by someone.</div></footer></div>",
                nav(
                    &["Home", "Archive", "About", "Projects", "Contact"],
                    "main-navigation"
                ),
                rng.gen_range(1..29),
                Prose::slug(meta.author),
                esc(&Prose::title(rng)),
                esc(&Prose::title(rng)),
                link_list(rng, 5, "/2023/", "recent-posts", false),
                nav(
                    &["June 2023", "May 2023", "April 2023", "March 2023"],
                    "archives"
                ),
            );
            document(meta, "Notes from the Workbench", &body)
        }
    }
}
