//! The index (the mods in load order with their versions, dependencies and counts per registry;
//! the check's summary) and the page of every diagnostic.

use std::collections::BTreeMap;

use rustkeep_data::diag::{Diagnostic, Severity};
use rustkeep_data::vocab::Registry;

use crate::html::{self, cut, cut_start, esc, short, Frame};
use crate::site::Site;

/// At most this many diagnostics are listed on their page (the rest are counted).
const MAX_LISTED: usize = 2000;
/// A diagnostic's message is shown with at most this many characters, and its path with this
/// many (messages quote IDs and names, which may be very long; `rustkeep check` prints them
/// whole).
const MESSAGE_SHOWN: usize = 400;
const PATH_SHOWN: usize = 120;

pub fn page(site: &Site) -> String {
    let mut main = String::from("<h1>The loaded mods</h1>\n");
    main.push_str(&format!(
        "<p class=\"lead\">{} mods in load order, {} entries. Search with <kbd>/</kbd>; every ID links to its entry.</p>\n",
        site.mods.len(),
        site.entry_count()
    ));
    let brief = site.brief.iter().filter(|&&b| b).count();
    if brief > 0 {
        main.push_str(&format!(
            "<p class=\"broken\">{brief} of the {} registry pages list their entries in brief: documenting every entry in full would make the site larger than its limit, {} times the loaded files plus {} MB.</p>\n",
            site.pages.len(),
            crate::budget::PER_INPUT_BYTE,
            crate::budget::BASE / 1_000_000
        ));
    }
    main.push_str("<div class=\"wide\"><table class=\"mods\">\n<caption>Mods in load order, with the entries each writes</caption>\n<thead><tr><th scope=\"col\">#</th><th scope=\"col\">Mod</th><th scope=\"col\">Version</th><th scope=\"col\">Depends on</th>");
    let used: Vec<Registry> = Registry::ALL.into_iter().filter(|r| site.mods.iter().any(|m| m.counts[r.index()] > 0)).collect();
    for r in &used {
        main.push_str(&format!("<th scope=\"col\">{}</th>", esc(&super::registry_title(*r))));
    }
    main.push_str("</tr></thead>\n<tbody>\n");
    for (i, m) in site.mods.iter().enumerate() {
        let info = &site.w.project.mods[m.index];
        let name = info.manifest.name.as_deref().unwrap_or(&info.id);
        let badge = if info.is_core { " <span class=\"badge\">base game</span>" } else { "" };
        let depends = super::module::mod_links(site, &super::module::dependency_links(&info.manifest), "");
        main.push_str(&format!(
            "<tr><td>{}</td><th scope=\"row\"><a href=\"mods/{}/index.html\">{}</a> <code>{}</code>{badge}</th><td>{}</td><td>{}</td>",
            i + 1,
            esc(&m.dir),
            esc(&short(name)),
            esc(&short(&info.id)),
            esc(&short(info.manifest.version.as_deref().unwrap_or("—"))),
            depends.unwrap_or_else(|| "—".into())
        ));
        for r in &used {
            let n = m.counts[r.index()];
            if n == 0 {
                main.push_str("<td>0</td>");
            } else {
                main.push_str(&format!("<td><a href=\"{}\">{n}</a></td>", esc(&crate::site::registry_page_path(&m.dir, *r, 1))));
            }
        }
        main.push_str("</tr>\n");
    }
    main.push_str("</tbody></table></div>\n");
    main.push_str(&check_summary(site));
    html::page(site, Frame { path: "index.html", title: "The loaded mods", crumbs: vec![("All mods".into(), None)], nav: String::new(), main })
}

fn count(n: usize, one: &str) -> String {
    format!("{n} {one}{}", if n == 1 { "" } else { "s" })
}

fn check_summary(site: &Site) -> String {
    let d = site.diagnostics;
    let errors = d.iter().filter(|x| x.severity == Severity::Error).count();
    let warnings = d.iter().filter(|x| x.severity == Severity::Warning).count();
    let mut out = String::from("<h2 id=\"check\">The check</h2>\n");
    if errors > 0 {
        out.push_str(&format!(
            "<p class=\"broken\"><strong>The mods have {}.</strong> The pages show the data as far as it reads: an ID that names nothing is not linked, a loot table that cannot be evaluated says why, and there are no arena figures.</p>\n",
            count(errors, "error")
        ));
    }
    if d.is_empty() {
        out.push_str("<p class=\"ok\"><code>rustkeep check</code> finds nothing to report in these mods.</p>\n");
        return out;
    }
    out.push_str(&format!(
        "<p><code>rustkeep check</code> reports {}, {} and {} more (notes and hints). <a href=\"diagnostics.html\">Every diagnostic</a>.</p>\n",
        count(errors, "error"),
        count(warnings, "warning"),
        d.len() - errors - warnings
    ));
    let mut by_code: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for x in d {
        *by_code.entry((x.severity.as_str(), x.code.name())).or_default() += 1;
    }
    out.push_str(
        "<table class=\"codes\">\n<thead><tr><th scope=\"col\">Code</th><th scope=\"col\">Severity</th><th scope=\"col\">Count</th></tr></thead>\n<tbody>\n",
    );
    for ((sev, code), n) in by_code {
        out.push_str(&format!("<tr><th scope=\"row\"><code>{}</code></th><td>{}</td><td>{n}</td></tr>\n", esc(code), esc(sev)));
    }
    out.push_str("</tbody></table>\n");
    out
}

fn row(site: &Site, x: &Diagnostic) -> String {
    let f = site.w.project.file(x.loc.file);
    let line = f.index.line_of(x.loc.span.start) + 1;
    format!(
        "<tr class=\"{}\"><td><code>{}:{line}</code></td><td>{}</td><td><code>{}</code></td><td>{}</td></tr>\n",
        x.severity.as_str(),
        esc(&cut_start(&f.path, PATH_SHOWN)),
        esc(x.severity.as_str()),
        esc(x.code.name()),
        esc(&cut(&x.message, MESSAGE_SHOWN))
    )
}

pub fn diagnostics(site: &Site) -> String {
    let d = site.diagnostics;
    let mut main = String::from("<h1>Every diagnostic</h1>\n");
    if d.is_empty() {
        main.push_str("<p class=\"ok\"><code>rustkeep check</code> finds nothing to report in these mods.</p>\n");
    } else {
        main.push_str("<p>As <code>rustkeep check</code> reports them; <code>rustkeep explain CODE</code> tells what a code means and how to fix it.</p>\n");
        main.push_str("<div class=\"wide\"><table class=\"diagnostics\">\n<thead><tr><th scope=\"col\">Where</th><th scope=\"col\">Severity</th><th scope=\"col\">Code</th><th scope=\"col\">Message</th></tr></thead>\n<tbody>\n");
        for x in d.iter().take(MAX_LISTED) {
            main.push_str(&row(site, x));
        }
        main.push_str("</tbody></table></div>\n");
        if d.len() > MAX_LISTED {
            main.push_str(&format!("<p>And {} more: <code>rustkeep check</code> lists them all.</p>\n", d.len() - MAX_LISTED));
        }
    }
    let crumbs = vec![("All mods".into(), Some("index.html".into())), ("Every diagnostic".into(), None)];
    html::page(site, Frame { path: "diagnostics.html", title: "Every diagnostic", crumbs, nav: String::new(), main })
}
