//! The pages: the index, a mod's overview, the registry pages with their entries, the
//! diagnostics; and the files every page uses (the style sheet, the search script and index).
//!
//! Pages are independent of each other once the [`Site`] is made, and are rendered in parallel.

use rayon::prelude::*;
use rustkeep_data::vocab::Registry;

use crate::site::Site;

/// At most this many referrers are listed per entry (the rest are counted).
pub const MAX_REFERRERS: usize = 40;

mod entries;
mod index;
mod loot;
mod module;

/// The style sheet of every page: light and dark (prefers-color-scheme), readable on a phone.
const STYLE: &str = include_str!("../../assets/style.css");
/// The search box: loads the index's shards on first use, ranks IDs and names, keyboard-driven.
const SEARCH: &str = include_str!("../../assets/search.js");

/// One file of the site to make.
#[derive(Clone, Copy)]
pub enum Job {
    /// A registry page (index into `Site::pages`).
    Registry(usize),
    /// A mod's overview (index into `Site::mods`).
    Module(usize),
    Index,
    Diagnostics,
    Style,
    Search,
    /// A shard of the search index.
    Shard(usize),
}

/// Every file of the site, the heaviest first (so that a parallel build does not end on one).
pub fn jobs(site: &Site) -> Vec<Job> {
    let mut jobs: Vec<Job> = (0..site.pages.len()).map(Job::Registry).collect();
    jobs.extend((0..site.mods.len()).map(Job::Module));
    jobs.extend([Job::Index, Job::Diagnostics, Job::Style, Job::Search]);
    jobs.extend((0..site.shards).map(Job::Shard));
    jobs
}

/// One file: its path in the site and its content.
pub fn make(site: &Site, job: Job) -> (String, String) {
    match job {
        Job::Registry(p) if site.brief[p] => (site.pages[p].path(site), entries::brief_page(site, &site.pages[p])),
        Job::Registry(p) => (site.pages[p].path(site), entries::page(site, &site.pages[p])),
        Job::Module(m) => module::page(site, m),
        Job::Index => ("index.html".into(), index::page(site)),
        Job::Diagnostics => ("diagnostics.html".into(), index::diagnostics(site)),
        Job::Style => ("static/style.css".into(), STYLE.into()),
        Job::Search => ("static/search.js".into(), SEARCH.into()),
        Job::Shard(i) => crate::search::shard(site, i),
    }
}

/// A registry page listing its entries in brief, whatever the site's plan: its size is what
/// the page would take if the size limit made it brief ([`crate::budget`]).
pub fn brief(site: &Site, page: usize) -> String {
    entries::brief_page(site, &site.pages[page])
}

/// The bytes of the entries of a registry page as written (what the page documents).
pub fn written_bytes(site: &Site, page: usize) -> usize {
    entries::written_bytes(site, &site.pages[page])
}

/// Every file of the site: its path in the site and its content, sorted by path.
pub fn render(site: &Site) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = jobs(site).par_iter().map(|&j| make(site, j)).collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

/// A registry's title: its key in words, spelt as its noun is and capitalised —
/// `character_options` → "Character options", `npcs` → "NPCs" (not "Npcs").
pub fn registry_title(r: Registry) -> String {
    let words = r.key().replace('_', " ");
    let noun = r.noun();
    // The key is the noun's plural ("loot tables", "statuses"): the noun's own spelling, then the
    // plural's ending.
    let words = match words.get(..noun.len()) {
        Some(head) if head.eq_ignore_ascii_case(noun) => format!("{noun}{}", &words[noun.len()..]),
        _ => words,
    };
    let mut c = words.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => words,
    }
}

/// The side navigation of a mod's pages: its overview and each registry it writes entries in;
/// `current` is the registry of the page showing it (`None`: the overview).
pub fn mod_nav(site: &Site, module: usize, root: &str, current: Option<Registry>) -> String {
    let m = &site.mods[module];
    let info = &site.w.project.mods[m.index];
    let mut out = format!("<h2 class=\"nav-title\">{}</h2>\n<ul>\n", crate::html::esc(&crate::html::short(info.manifest.name.as_deref().unwrap_or(&info.id))));
    let overview = format!("mods/{}/index.html", m.dir);
    out.push_str(&nav_item(root, &overview, "Overview", current.is_none()));
    for r in Registry::ALL {
        let n = m.counts[r.index()];
        if n == 0 {
            continue;
        }
        let path = crate::site::registry_page_path(&m.dir, r, 1);
        out.push_str(&nav_item(root, &path, &format!("{} ({n})", registry_title(r)), current == Some(r)));
    }
    out.push_str("</ul>\n");
    out
}

fn nav_item(root: &str, path: &str, label: &str, here: bool) -> String {
    let here = if here { " aria-current=\"page\"" } else { "" };
    format!("<li><a href=\"{root}{}\"{here}>{}</a></li>\n", crate::html::esc(path), crate::html::esc(label))
}
