//! A registry page of one mod: its entries, each with a stable anchor (its ID), in words, as
//! written (every ID linked), what it overrides and what that changes, what overrides it, what
//! refers to it; loot tables with their chances, items and affixes with where they come from.

use rustkeep_data::model::Entry;
use rustkeep_data::resolve::EntryRef;
use rustkeep_data::vocab::{field, Registry};
use rustkeep_present::words::{self, Bearer};

use crate::html::{self, esc, id_link, short, Frame};
use crate::site::{Page, Site};

use super::MAX_REFERRERS;

/// Entries written in at most this many bytes are shown open; longer ones fold.
const FOLD_AT: usize = 600;
/// A pager of more pages than this links the first, the last and the [`PAGER_NEAR`] on each side
/// of the current one: linking all of 1,500 pages from each of them would make the pagers alone
/// grow with the square of the entries.
const PAGER_ALL: usize = 15;
const PAGER_NEAR: usize = 3;
/// The words of an entry (its lines in plain English, escaped) take at most this many bytes plus
/// [`WORDS_PER_BYTE`] per byte of the entry in its file ([`Site::written_len`]). The words name
/// other entries, and a name may be a megabyte long: without the bound, a quest of a hundred
/// bytes naming it would take a megabyte on its page. The longest words of the core, the
/// examples and the benchmark's large pack (587 bytes, for an entry of 1,199) stay far below it.
const WORDS_BASE: usize = 512;
const WORDS_PER_BYTE: usize = 2;
/// A place (`path:line`) is shown with at most this many characters of its path.
const PLACE_SHOWN: usize = 120;

pub fn page(site: &Site, p: &Page) -> String {
    registry_page(site, p, |root| {
        let mut main = String::from("<nav class=\"toc\" aria-label=\"Entries on this page\"><ul>\n");
        for &r in &p.entries {
            let e = site.entry(r);
            let Some(key) = e.key() else { continue };
            main.push_str(&format!("<li><a href=\"#{}\">{}</a></li>\n", esc(&key.value), esc(&short(&display_name(e)))));
        }
        main.push_str("</ul></nav>\n");
        for &r in &p.entries {
            main.push_str(&entry(site, r, root));
        }
        main
    })
}

/// A registry page listing its entries in brief, one row each (its ID as anchor, its name and
/// where it is written), for when documenting them all in full would pass the site's size limit
/// ([`crate::budget`]): every link to an entry still leads to its row.
pub fn brief_page(site: &Site, p: &Page) -> String {
    registry_page(site, p, |_| {
        let mut main = format!(
            "<p class=\"broken\">These {} entries are listed in brief: documenting every entry in full would make the site larger than its limit, {} times the loaded files plus {} MB. <code>rustkeep show ID</code> prints an entry as written.</p>\n",
            p.entries.len(),
            crate::budget::PER_INPUT_BYTE,
            crate::budget::BASE / 1_000_000
        );
        main.push_str("<div class=\"wide\"><table class=\"brief\">\n<thead><tr><th scope=\"col\">ID</th><th scope=\"col\">Name</th><th scope=\"col\">Written in</th></tr></thead>\n<tbody>\n");
        for &r in &p.entries {
            let e = site.entry(r);
            let Some(key) = e.key() else { continue };
            let (file, line) = site.place(r);
            main.push_str(&format!(
                "<tr id=\"{}\"><th scope=\"row\"><code>{}</code></th><td>{}</td><td><code>{}:{line}</code></td></tr>\n",
                esc(&key.value),
                esc(&short(&key.value)),
                esc(&short(&display_name(e))),
                esc(&html::cut_start(&file, PLACE_SHOWN))
            ));
        }
        main.push_str("</tbody></table></div>\n");
        main
    })
}

/// A page of one registry of a mod (one of its pages, when it has several): the heading, the
/// registry's description, the pager above and below `body` (given the path to the site's root),
/// the breadcrumbs and the mod's navigation.
fn registry_page(site: &Site, p: &Page, body: impl FnOnce(&str) -> String) -> String {
    let path = p.path(site);
    let root = html::root_of(&path);
    let m = &site.mods[p.module];
    let info = &site.w.project.mods[m.index];
    let mod_name = short(info.manifest.name.as_deref().unwrap_or(&info.id)).into_owned();
    let title = super::registry_title(p.registry);
    let numbered = if p.of > 1 { format!(" (page {} of {})", p.number, p.of) } else { String::new() };
    let mut main = format!("<h1>{}: {}{numbered}</h1>\n", esc(&mod_name), esc(&title));
    main.push_str(&format!("<p class=\"lead\">{}</p>\n", esc(p.registry.def().doc)));
    let pager = if p.of > 1 { pager(site, p, &root) } else { String::new() };
    main.push_str(&pager);
    main.push_str(&body(&root));
    main.push_str(&pager);
    let crumbs = vec![
        ("All mods".to_string(), Some("index.html".to_string())),
        (mod_name.clone(), Some(format!("mods/{}/index.html", m.dir))),
        (format!("{title}{numbered}"), None),
    ];
    let nav = super::mod_nav(site, p.module, &root, Some(p.registry));
    html::page(site, Frame { path: &path, title: &format!("{mod_name}: {title}{numbered}"), crumbs, nav, main })
}

/// The bytes of a page's entries in their files ([`Site::written_len`]).
pub fn written_bytes(site: &Site, p: &Page) -> usize {
    p.entries.iter().map(|&r| site.written_len(r)).sum()
}

fn pager(site: &Site, p: &Page, root: &str) -> String {
    let m = &site.mods[p.module];
    let mut out = String::from("<nav class=\"pager\" aria-label=\"Pages\"><ul>");
    let shown = |n: usize| p.of <= PAGER_ALL || n == 1 || n == p.of || n.abs_diff(p.number) <= PAGER_NEAR;
    for n in 1..=p.of {
        if !shown(n) {
            // One mark for each run of pages left out.
            if shown(n - 1) {
                out.push_str("<li>…</li>");
            }
            continue;
        }
        let path = crate::site::registry_page_path(&m.dir, p.registry, n);
        if n == p.number {
            out.push_str(&format!("<li><span aria-current=\"page\">{n}</span></li>"));
        } else {
            out.push_str(&format!("<li><a href=\"{root}{}\">{n}</a></li>", esc(&path)));
        }
    }
    out.push_str("</ul></nav>\n");
    out
}

/// An entry's name: its `name`, else its ID in words.
pub fn display_name(e: &Entry) -> String {
    match e.name() {
        Some(n) if !n.trim().is_empty() => n.to_string(),
        _ => words::id_in_words(e.key().map_or("", |k| k.value.as_str())),
    }
}

fn entry(site: &Site, r: EntryRef, root: &str) -> String {
    let e = site.entry(r);
    let Some(key) = e.key() else { return String::new() };
    let id = key.value.as_str();
    let in_force = site.in_force_key(r).is_some();
    let mut out = format!("<section class=\"entry\" id=\"{}\" aria-labelledby=\"h-{0}\">\n", esc(id));
    out.push_str(&format!(
        "<h2 id=\"h-{0}\"><a class=\"anchor\" href=\"#{0}\" aria-hidden=\"true\" tabindex=\"-1\">#</a>{1} <code class=\"id\">{0}</code></h2>\n",
        esc(id),
        esc(&display_name(e))
    ));
    out.push_str(&meta(site, r, e, root));
    let range = extent(site, r, e);
    if in_force {
        let lines = in_words(site, e, id);
        if !lines.is_empty() {
            out.push_str(&words_list(&lines, WORDS_BASE + WORDS_PER_BYTE * site.written_len(r), id));
        }
    }
    out.push_str(&written(site, r, root, range));
    if e.overrides.is_some() {
        out.push_str(&override_diff(site, r, e, root));
    }
    if in_force {
        match e.registry {
            Registry::LootTables => out.push_str(&super::loot::table_section(site, id, root)),
            Registry::Items | Registry::Affixes => out.push_str(&super::loot::sources_section(site, id, e.registry, root)),
            _ => {}
        }
        out.push_str(&referrers(site, e.registry, id, root));
    }
    out.push_str("</section>\n");
    out
}

/// What the entry is, where it is written, what it overrides and what overrides it.
fn meta(site: &Site, r: EntryRef, e: &Entry, root: &str) -> String {
    let (path, line) = site.place(r);
    let place = format!("{}:{line}", html::cut_start(&path, PLACE_SHOWN));
    let bundled = site.w.project.file(r.file).bundled;
    let at = match &site.opts.source_url {
        Some(t) if !bundled => format!("<a href=\"{}\">{}</a>", esc(&t.replace("{path}", &path).replace("{line}", &line.to_string())), esc(&place)),
        _ => format!("<code>{}</code>", esc(&place)),
    };
    let mut parts = vec![esc(e.registry.noun()), format!("written in {at}")];
    let key = e.key().map(|k| k.value.as_str()).unwrap_or("");
    if let Some(def) = site.w.db.resolved.get(e.registry, key) {
        if let Some(before) = previous(site, r) {
            let by = mod_name_of(site, before);
            let link = match site.entry_url(before) {
                Some(u) => format!("<a href=\"{root}{}\">{}</a>", esc(&u), esc(&by)),
                None => esc(&by),
            };
            parts.push(format!("overrides the entry of {link}"));
        }
        let later: Vec<EntryRef> = def.overrides.iter().map(|o| o.0).skip_while(|o| *o != r).skip(1).collect();
        let later = if def.defined == Some(r) { def.overrides.iter().map(|o| o.0).collect() } else { later };
        if let Some(&last) = later.last() {
            let by = mod_name_of(site, last);
            let link = match site.entry_url(last) {
                Some(u) => format!("<a href=\"{root}{}\">{}</a>", esc(&u), esc(&by)),
                None => esc(&by),
            };
            parts.push(format!("<strong>overridden by {link}</strong>: the game uses that entry"));
        }
    }
    format!("<p class=\"meta\">{}</p>\n", parts.join(" · "))
}

/// The name of the mod an entry is written in, cut to [`html::SHOWN`] characters.
fn mod_name_of(site: &Site, r: EntryRef) -> String {
    match site.module_of(r.file) {
        Some(mi) => {
            let info = &site.w.project.mods[site.mods[mi].index];
            short(info.manifest.name.as_deref().unwrap_or(&info.id)).into_owned()
        }
        None => "another mod".into(),
    }
}

/// The entry an override replaces: the override before it, else the definition.
fn previous(site: &Site, r: EntryRef) -> Option<EntryRef> {
    let e = site.entry(r);
    e.overrides.as_ref()?;
    let def = site.w.db.resolved.get(e.registry, &e.key()?.value)?;
    let pos = def.overrides.iter().position(|o| o.0 == r)?;
    if pos > 0 {
        Some(def.overrides[pos - 1].0)
    } else {
        def.defined
    }
}

/// The entry in plain English, as the game's screens say it.
fn in_words(site: &Site, e: &Entry, id: &str) -> Vec<String> {
    let w = site.w;
    match e.registry {
        Registry::Items => words::item(w, id),
        Registry::Affixes => words::affix(w, id),
        Registry::Creatures => words::creature(w, id),
        Registry::CharacterOptions => words::character_option(w, id),
        Registry::Statuses => words::status(w, id, Bearer::Anyone),
        Registry::Quests => words::quest(w, id).into_iter().collect(),
        Registry::Npcs => {
            let talk = e.actions(field::ON_TALK);
            if talk.is_empty() {
                vec!["Talking to it does nothing.".into()]
            } else {
                vec![format!("When you talk to it: {}.", words::actions(w, talk, Bearer::Player))]
            }
        }
        Registry::LootTables | Registry::Floors | Registry::Prefabs | Registry::Shops => {
            e.triggers().iter().map(|t| words::trigger(w, t, Bearer::Player)).collect()
        }
    }
}

/// The lines in words as a list, escaped, in at most `limit` bytes: a line reaching past it is
/// cut there, the lines after it left out, and the list says so.
fn words_list(lines: &[String], limit: usize, id: &str) -> String {
    let mut out = String::from("<ul class=\"words\">\n");
    let mut left = limit;
    for l in lines {
        let text = esc(l);
        if text.len() > left {
            // Cut at a character boundary that does not split an escape (`&amp;`).
            let mut end = left.min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            if let Some(amp) = text[..end].rfind('&').filter(|&a| !text[a..end].contains(';')) {
                end = amp;
            }
            out.push_str(&format!(
                "<li>{}…</li>\n<li>The rest is cut: <code>rustkeep show {}</code> prints the entry as written.</li>\n",
                &text[..end],
                esc(&short(id))
            ));
            break;
        }
        left -= text.len();
        out.push_str(&format!("<li>{text}</li>\n"));
    }
    out.push_str("</ul>\n");
    out
}

/// Where the entry is written in its file: an inline table as it stands, a `[[…]]` table with its
/// sub-tables, up to the next entry or the next table of something else.
fn extent(site: &Site, r: EntryRef, e: &Entry) -> std::ops::Range<usize> {
    let text: &str = &site.w.project.file(r.file).text;
    let start = e.span.start.min(text.len());
    let end = if text[start..].starts_with('{') {
        e.span.end.min(text.len())
    } else {
        let next =
            site.w.db.facts[r.file.0 as usize].as_ref().and_then(|f| f.entries.get(r.index as usize + 1)).map_or(text.len(), |n| n.span.start.min(text.len()));
        let next = next.max(start);
        // Stop at a table header that is not this entry's own sub-table (`[balance]`, …).
        let own = format!("[[{}.", e.registry.key());
        let mut cut = next;
        let mut at = start;
        for line in text[start..next].split_inclusive('\n') {
            let t = line.trim_start();
            if at > start && t.starts_with('[') && !t.starts_with(&own) && !t.starts_with(&own[1..]) {
                cut = at;
                break;
            }
            at += line.len();
        }
        cut
    };
    let raw = text[start..end].trim_end_matches(|c: char| c.is_whitespace() || c == ',');
    start..start + raw.len()
}

/// The entry as written (its [`extent`]), every ID in it a link.
fn written(site: &Site, r: EntryRef, root: &str, range: std::ops::Range<usize>) -> String {
    let text: &str = &site.w.project.file(r.file).text;
    let (start, end) = (range.start, range.end);
    let raw = &text[start..end];
    let mut body = String::with_capacity(raw.len() + 64);
    let mut at = start;
    if let Some(facts) = site.w.db.facts.get(r.file.0 as usize).and_then(|x| x.as_ref()) {
        let order = &site.refs_by_start[r.file.0 as usize];
        let first = order.partition_point(|&i| facts.refs[i as usize].span.start < start);
        for x in order[first..].iter().map(|&i| &facts.refs[i as usize]).take_while(|x| x.span.start < end) {
            if x.span.start < at || x.span.end > end {
                continue;
            }
            let Some(registry) = x.kind.registry() else { continue };
            let Some(url) = site.link(registry, &x.id) else { continue };
            body.push_str(&esc(&text[at..x.span.start]));
            body.push_str(&format!("<a href=\"{root}{}\">{}</a>", esc(url), esc(&text[x.span.start..x.span.end])));
            at = x.span.end;
        }
    }
    body.push_str(&esc(&text[at..end]));
    let open = if raw.len() <= FOLD_AT { " open" } else { "" };
    format!("<details class=\"written\"{open}><summary>As written</summary><pre><code>{body}</code></pre></details>\n")
}

/// The field-by-field difference between an override and the entry it replaces.
fn override_diff(site: &Site, r: EntryRef, e: &Entry, root: &str) -> String {
    let Some(before) = previous(site, r) else { return String::new() };
    let old = site.entry(before);
    let (old_text, new_text) = (&site.w.project.file(before.file).text, &site.w.project.file(r.file).text);
    let (changes, same) = rustkeep_data::copy::field_changes(old_text, old, new_text, e);
    // Each row is a key or element that changed (`attributes.max_health`), or a whole field.
    let rows: Vec<(&str, String, String, String)> = changes
        .into_iter()
        .map(|c| match (c.old, c.new) {
            (Some(was), Some(now)) => ("changed", c.path, was, now),
            (None, now) => ("added", c.path, String::new(), now.unwrap_or_default()),
            (Some(was), None) => {
                let whole = c.path == c.field;
                let default = e.registry.field(c.field).and_then(|d| d.default).filter(|_| whole).map(|d| format!("(default: {d})"));
                ("removed", c.path, was, default.unwrap_or_else(|| "(absent)".into()))
            }
        })
        .collect();
    let mut out = String::from("<div class=\"diff\">\n<h3>What this override changes</h3>\n");
    if rows.is_empty() {
        out.push_str("<p>Nothing: every field is written as before.</p>\n");
    } else {
        out.push_str("<table>\n<thead><tr><th scope=\"col\">Field</th><th scope=\"col\">Change</th><th scope=\"col\">Before</th><th scope=\"col\">Now</th></tr></thead>\n<tbody>\n");
        for (kind, name, was, now) in rows {
            out.push_str(&format!(
                "<tr class=\"{kind}\"><th scope=\"row\"><code>{}</code></th><td>{kind}</td><td><code>{}</code></td><td><code>{}</code></td></tr>\n",
                esc(&name),
                esc(&was),
                esc(&now)
            ));
        }
        out.push_str("</tbody></table>\n");
        if same > 0 {
            out.push_str(&format!("<p>{same} other field{} as before.</p>\n", if same == 1 { "" } else { "s" }));
        }
    }
    let _ = root;
    out.push_str("</div>\n");
    out
}

/// Every entry that names this one, each once, with how it names it: the field, or the action,
/// check or filter and where it sits ("a `spawn` action of its `ai`", "its `loot`").
fn referrers(site: &Site, registry: Registry, id: &str, root: &str) -> String {
    let Some(list) = site.referrers.get(&(registry, id.to_string())) else {
        return "<p class=\"refs\">Nothing refers to it.</p>\n".into();
    };
    // The list is sorted: an entry's references are next to each other.
    let mut holders: Vec<(Registry, &str, Vec<&str>)> = Vec::new();
    for x in list.iter().filter(|x| !(x.registry == registry && x.id == id)) {
        match holders.last_mut() {
            Some((r, who, hows)) if *r == x.registry && *who == x.id => {
                if !hows.contains(&x.how.as_str()) {
                    hows.push(&x.how);
                }
            }
            _ => holders.push((x.registry, &x.id, vec![&x.how])),
        }
    }
    let items: Vec<String> = holders
        .iter()
        .map(|(r, who, hows)| {
            let hows: Vec<String> = hows.iter().map(|h| code_spans(h)).collect();
            format!("{} <span class=\"noun\">({}: {})</span>", id_link(site, root, *r, who), esc(r.noun()), hows.join("; "))
        })
        .collect();
    if items.is_empty() {
        return "<p class=\"refs\">Nothing else refers to it.</p>\n".into();
    }
    let total = items.len();
    let mut out = format!("<div class=\"refs\"><h3>Referred to by ({total})</h3>\n<ul>\n");
    for i in items.iter().take(MAX_REFERRERS) {
        out.push_str(&format!("<li>{i}</li>\n"));
    }
    if total > MAX_REFERRERS {
        out.push_str(&format!("<li>and {} more</li>\n", total - MAX_REFERRERS));
    }
    out.push_str("</ul></div>\n");
    out
}

/// A text with names in backticks as HTML: escaped, each `name` in `<code>`.
fn code_spans(text: &str) -> String {
    text.split('`').enumerate().map(|(i, part)| if i % 2 == 1 { format!("<code>{}</code>", esc(part)) } else { esc(part) }).collect()
}
