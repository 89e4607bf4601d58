//! Escaping, links and the frame every page shares: a skip link, the banner with the search box,
//! the navigation, the main content and the footer (the landmarks a screen reader jumps between).

use std::borrow::Cow;

use rustkeep_data::vocab::Registry;

use crate::site::Site;

pub use crate::site::SHOWN;

/// `s` cut to [`SHOWN`] characters, the cut marked with "…".
pub fn short(s: &str) -> Cow<'_, str> {
    cut(s, SHOWN)
}

/// `s` cut to `max` characters (the last of them "…"); `s` itself when it is short enough.
pub fn cut(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => Cow::Borrowed(s),
        Some(_) => {
            let end = s.char_indices().nth(max.saturating_sub(1)).map_or(s.len(), |(i, _)| i);
            Cow::Owned(format!("{}…", &s[..end]))
        }
    }
}

/// A path cut to its last `max` characters, the cut marked with "…" at the start (the end of a
/// path, the file's name, says the most).
pub fn cut_start(s: &str, max: usize) -> Cow<'_, str> {
    let n = s.chars().count();
    if n <= max {
        return Cow::Borrowed(s);
    }
    let start = s.char_indices().nth(n - max.saturating_sub(1)).map_or(s.len(), |(i, _)| i);
    Cow::Owned(format!("…{}", &s[start..]))
}

/// Text as HTML (also safe inside a double-quoted attribute).
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The way back to the site's root from a page at `path` (`mods/core/items.html` → `../../`).
pub fn root_of(path: &str) -> String {
    "../".repeat(path.matches('/').count())
}

/// An ID as code, linked; an ID longer than [`SHOWN`] is cut, and its link leads to the page of
/// its entry rather than to its anchor (which would repeat the whole ID).
pub fn id_link(site: &Site, root: &str, registry: Registry, id: &str) -> String {
    match site.short_link(registry, id) {
        Some(url) => format!("<a href=\"{root}{}\"><code>{}</code></a>", esc(url), esc(&short(id))),
        None => format!("<code>{}</code>", esc(&short(id))),
    }
}

/// One page: its path in the site, its title, where it sits (breadcrumbs), its side navigation
/// and its content.
pub struct Frame<'a> {
    pub path: &'a str,
    pub title: &'a str,
    /// From the index down to this page: label and, except for the last, its path in the site.
    pub crumbs: Vec<(String, Option<String>)>,
    /// The side navigation's HTML (links relative to the page), if any.
    pub nav: String,
    pub main: String,
}

pub fn page(site: &Site, f: Frame<'_>) -> String {
    let root = root_of(f.path);
    let mut out = String::with_capacity(f.main.len() + f.nav.len() + 2048);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"color-scheme\" content=\"light dark\">\n");
    out.push_str(&format!("<title>{} — rustkeep mods</title>\n", esc(f.title)));
    out.push_str(&format!("<link rel=\"stylesheet\" href=\"{root}static/style.css\">\n"));
    out.push_str(&format!("<script src=\"{root}static/search.js\" data-root=\"{root}\" data-shards=\"{}\" defer></script>\n", site.shards));
    out.push_str("</head>\n<body>\n<a class=\"skip\" href=\"#main\">Skip to the content</a>\n");
    out.push_str("<header class=\"banner\">\n");
    out.push_str(&format!("<a class=\"home\" href=\"{root}index.html\">rustkeep mods</a>\n"));
    out.push_str(concat!(
        "<form class=\"search\" role=\"search\" action=\"#\">\n",
        "<label for=\"search\">Search</label>\n",
        "<input id=\"search\" type=\"search\" autocomplete=\"off\" spellcheck=\"false\" placeholder=\"IDs and names (press /)\" ",
        "role=\"combobox\" aria-expanded=\"false\" aria-controls=\"search-results\" aria-autocomplete=\"list\">\n",
        "<ul id=\"search-results\" role=\"listbox\" aria-label=\"Search results\" hidden></ul>\n",
        "<p id=\"search-status\" class=\"visually-hidden\" role=\"status\" aria-live=\"polite\"></p>\n",
        "</form>\n</header>\n"
    ));
    if f.crumbs.len() > 1 {
        out.push_str("<nav class=\"crumbs\" aria-label=\"Breadcrumbs\"><ol>");
        for (label, href) in &f.crumbs {
            match href {
                Some(h) => out.push_str(&format!("<li><a href=\"{root}{}\">{}</a></li>", esc(h), esc(&short(label)))),
                None => out.push_str(&format!("<li aria-current=\"page\">{}</li>", esc(&short(label)))),
            }
        }
        out.push_str("</ol></nav>\n");
    }
    out.push_str("<div class=\"layout\">\n");
    if !f.nav.is_empty() {
        out.push_str("<nav class=\"side\" aria-label=\"This mod\">\n");
        out.push_str(&f.nav);
        out.push_str("</nav>\n");
    }
    out.push_str("<main id=\"main\" tabindex=\"-1\">\n");
    out.push_str(&f.main);
    out.push_str("</main>\n</div>\n");
    out.push_str(&format!(
        "<footer class=\"footer\"><p>Written by <code>rustkeep doc</code> {} from the mods' data: every figure is computed, none copied.</p></footer>\n",
        env!("CARGO_PKG_VERSION")
    ));
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_attributes_are_escaped() {
        assert_eq!(esc("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
        assert_eq!(esc("core:flaming"), "core:flaming");
    }

    #[test]
    fn long_texts_are_cut_and_short_ones_kept() {
        assert_eq!(cut("Rat", 3), "Rat");
        assert_eq!(cut("Rats", 3), "Ra…");
        assert_eq!(cut("Ötzi", 2), "Ö…");
        assert_eq!(cut_start("a/b/c.toml", 10), "a/b/c.toml");
        assert_eq!(cut_start("a/b/c.toml", 7), "…c.toml");
        assert!(matches!(short("core:flaming"), Cow::Borrowed(_)));
        assert_eq!(short(&"x".repeat(1000)).chars().count(), SHOWN);
    }

    #[test]
    fn the_way_back_to_the_root_follows_the_depth() {
        assert_eq!(root_of("index.html"), "");
        assert_eq!(root_of("mods/core/items-2.html"), "../../");
    }
}
