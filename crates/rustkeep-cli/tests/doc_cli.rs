//! End-to-end tests of `rustkeep doc` (docs/doc.md): the real binary writing the site of the
//! bundled core and the example mods, and of a generated pack. Every chance on the pages is the
//! one `rustkeep loot --format json` prints; every link of the site leads to a file and an anchor
//! that exist, and none leaves the site; no page is heavy; a rebuild writes only what changed;
//! data with errors and folders the command did not write are refused.
//!
//! The site in a real browser (search, charts, dark mode, accessibility) is tests/doc_browser.rs.

mod common;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Output;

use common::run;
use rustkeep_data::number::percent;
use rustkeep_testutil::{repo_root, TempDir};
use serde_json::Value;

fn ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "stdout:\n{}\nstderr:\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
}

const EXAMPLES: [&str; 2] = ["examples/fire_and_thorns", "examples/rat_catcher"];

/// The site of the core and the examples, written into a new folder.
fn examples_site(tag: &str) -> TempDir {
    let t = TempDir::new(tag);
    let out = t.path("site");
    let o = run(repo_root(), &["doc", EXAMPLES[0], EXAMPLES[1], "--out", out.to_str().unwrap()]);
    ok(&o);
    t
}

/// Every file of a folder, by path relative to it (with `/`).
fn files(dir: &Path) -> BTreeMap<String, PathBuf> {
    let files = rustkeep_testutil::walk_files(dir, &[]);
    files.into_iter().map(|p| (p.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"), p)).collect()
}

/// The values of one attribute in a page, in order (the pages write attributes in double quotes).
fn attributes<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let needle = format!(" {name}=\"");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&needle) {
        rest = &rest[i + needle.len()..];
        let end = rest.find('"').expect("a closed attribute");
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    out
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

/// Every `href` and `src` of every page leads to a file of the site, and a `#fragment` to an
/// element with that ID there; nothing points outside the site. Returns the number of links.
fn check_links(site: &Path) -> usize {
    let all = files(site);
    let mut ids: HashMap<String, BTreeSet<String>> = HashMap::new();
    let mut ids_of = |rel: &str| -> BTreeSet<String> {
        ids.entry(rel.to_string())
            .or_insert_with(|| attributes(&std::fs::read_to_string(site.join(rel)).unwrap(), "id").into_iter().map(unescape).collect())
            .clone()
    };
    let mut broken = Vec::new();
    let mut count = 0;
    for (rel, path) in all.iter().filter(|(r, _)| r.ends_with(".html")) {
        let html = std::fs::read_to_string(path).unwrap();
        let base = Path::new(rel).parent().unwrap_or(Path::new(""));
        for link in attributes(&html, "href").into_iter().chain(attributes(&html, "src")) {
            let link = unescape(link);
            count += 1;
            assert!(!link.contains("://") && !link.starts_with("//"), "{rel} links outside the site: {link}");
            let (file, fragment) = link.split_once('#').map_or((link.as_str(), None), |(f, h)| (f, Some(h)));
            let target = if file.is_empty() {
                rel.clone()
            } else {
                let mut parts: Vec<String> = base.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                for part in file.split('/') {
                    match part {
                        ".." => {
                            parts.pop();
                        }
                        "." | "" => {}
                        p => parts.push(p.to_string()),
                    }
                }
                parts.join("/")
            };
            if !all.contains_key(&target) {
                broken.push(format!("{rel}: {link} (no file {target})"));
                continue;
            }
            if let Some(f) = fragment.filter(|f| !f.is_empty()) {
                if !ids_of(&target).contains(f) {
                    broken.push(format!("{rel}: {link} (no id {f} in {target})"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "{} broken links, the first:\n{}", broken.len(), broken.iter().take(20).cloned().collect::<Vec<_>>().join("\n"));
    count
}

#[test]
fn every_link_of_the_examples_site_leads_somewhere() {
    let t = examples_site("links");
    let links = check_links(&t.path("site"));
    assert!(links > 2000, "the site links its IDs: only {links} links");
}

#[test]
fn every_link_of_a_generated_pack_leads_somewhere_and_no_page_is_heavy() {
    let t = TempDir::new("pack");
    for (path, text) in rustkeep_testutil::modpack::workspace(12) {
        t.write(&format!("pack/{path}"), text);
    }
    let out = t.path("site");
    let o = run(&t.0, &["doc", "pack", "--out", out.to_str().unwrap(), "--arena", "10"]);
    ok(&o);
    check_links(&out);
    for (rel, path) in files(&out) {
        let size = std::fs::metadata(&path).unwrap().len();
        assert!(size < 2 * 1024 * 1024, "{rel} weighs {size} bytes");
    }
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    for k in 0..12 {
        assert!(index.contains(&format!("href=\"mods/w{k:02}/index.html\"")), "the index lists mod w{k:02}");
    }
    // The arena's heat map of a mod's creatures: one row per creature, one cell per option.
    let page = std::fs::read_to_string(out.join("mods/w03/index.html")).unwrap();
    assert!(page.contains("<table class=\"heat\">") && page.contains("data-win-rate=\""), "the arena's matrix on the mod's page");
}

/// The drops `rustkeep loot --format json` prints for a table of the examples' world: ID, chance
/// and expected count, in its order. The numbers are read from the text with Rust's parser:
/// serde_json's default float parsing may be one unit in the last place off, and the point here
/// is exact equality.
fn loot_drops(table: &str) -> Vec<(String, f64, f64)> {
    loot_drops_at(table, "0")
}

/// [`loot_drops`] at a luck.
fn loot_drops_at(table: &str, luck: &str) -> Vec<(String, f64, f64)> {
    let mut args = vec!["loot", table, "--format", "json", "--luck", luck];
    for e in EXAMPLES {
        args.extend(["--mods", e]);
    }
    let o = run(repo_root(), &args);
    ok(&o);
    let text = String::from_utf8(o.stdout).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let drop = regex::Regex::new(r#""id": "([^"]+)",\s*"p_any": ([-+0-9.eE]+),\s*"expected": ([-+0-9.eE]+)"#).unwrap();
    let drops: Vec<(String, f64, f64)> = drop.captures_iter(&text).map(|c| (c[1].to_string(), c[2].parse().unwrap(), c[3].parse().unwrap())).collect();
    assert_eq!(drops.len(), json["drops"].as_array().unwrap().len(), "every drop read from {text}");
    drops
}

#[test]
fn every_chance_on_the_pages_is_the_one_rustkeep_loot_prints() {
    let t = examples_site("chances");
    let site = t.path("site");
    let mut tables = 0;
    let mut sources: Vec<(String, String, f64, String)> = Vec::new();
    let mut loot: HashMap<String, Vec<(String, f64, f64)>> = HashMap::new();
    // The second column: the chance at luck 3 (the default of --luck).
    let mut lucky: HashMap<String, Vec<(String, f64, f64)>> = HashMap::new();
    let cells = |row: &str| -> Vec<String> { row.split("<td>").skip(1).map(|c| c[..c.find("</td>").unwrap()].to_string()).collect() };
    for (rel, path) in files(&site).into_iter().filter(|(r, _)| r.ends_with(".html")) {
        let html = std::fs::read_to_string(path).unwrap();
        // A table's section: `<table class="drops" data-table=…>` with a row per drop.
        for part in html.split("<table class=\"drops\" ").skip(1) {
            let part = &part[..part.find("</table>").unwrap()];
            let table = attributes(&format!(" {part}"), "data-table")[0].to_string();
            let drops = loot.entry(table.clone()).or_insert_with(|| loot_drops(&table)).clone();
            let rows: Vec<&str> = part.split("<tr data-id=").skip(1).collect();
            // The likeliest 20, and how many more there are.
            assert_eq!(rows.len(), drops.len().min(20), "{rel}: {table} shows its likeliest drops");
            if drops.len() > 20 {
                assert!(html.contains(&format!("<p>And {} more, each at most ", drops.len() - 20)), "{rel}: {table} counts the rest");
            }
            for (row, (id, p_any, expected)) in rows.iter().zip(&drops) {
                let row = format!(" data-id={row}");
                assert_eq!(attributes(&row, "data-id")[0], id, "{rel}: {table}, in the order of rustkeep loot");
                let p: f64 = attributes(&row, "data-p-any")[0].parse().unwrap();
                let e: f64 = attributes(&row, "data-expected")[0].parse().unwrap();
                assert_eq!(p, *p_any, "{rel}: {table}, {id}");
                assert_eq!(e, *expected, "{rel}: {table}, {id}");
                assert!(row.contains(&format!("<td>{}</td>", percent(p))), "{rel}: {table} shows {id} as {}", percent(p));
                let at_luck = lucky.entry(table.clone()).or_insert_with(|| loot_drops_at(&table, "3")).clone();
                let p3 = at_luck.iter().find(|d| &d.0 == id).unwrap().1;
                assert_eq!(cells(&row)[3], percent(p3), "{rel}: {table}, {id} at luck 3");
            }
            tables += 1;
        }
        // An item's "drops from": per table, the chance of at least one of the item.
        for part in html.split("<table class=\"drops-from\" ").skip(1) {
            let part = &part[..part.find("</table>").unwrap()];
            let item = attributes(&format!(" {part}"), "data-item")[0].to_string();
            for row in part.split("<tr data-table=").skip(1) {
                let row = format!(" data-table={row}");
                let shown_at_luck = cells(&row)[1].clone();
                sources.push((item.clone(), attributes(&row, "data-table")[0].to_string(), attributes(&row, "data-p-any")[0].parse().unwrap(), shown_at_luck));
            }
        }
    }
    assert!(tables >= 30, "every loot table in force has its chances: {tables}");
    assert!(sources.len() >= 40, "items say where they drop: {}", sources.len());
    for (item, table, p, shown_at_luck) in sources {
        let drops = loot.entry(table.clone()).or_insert_with(|| loot_drops(&table)).clone();
        let d = drops.iter().find(|d| d.0 == item).unwrap_or_else(|| panic!("{table} gives {item}"));
        assert_eq!(p, d.1, "{item} from {table}");
        let at_luck = lucky.entry(table.clone()).or_insert_with(|| loot_drops_at(&table, "3")).clone();
        assert_eq!(shown_at_luck, percent(at_luck.iter().find(|d| d.0 == item).unwrap().1), "{item} from {table} at luck 3");
    }
}

#[test]
fn entries_are_in_words_linked_and_say_what_refers_to_them() {
    let t = examples_site("entries");
    let site = t.path("site");
    let affixes = std::fs::read_to_string(site.join("mods/core/affixes.html")).unwrap();
    let flaming = &affixes[affixes.find("id=\"core:flaming\"").expect("an anchor per entry")..];
    let flaming = &flaming[..flaming.find("</section>").unwrap()];
    // The trigger as a sentence, the status it applies linked, the table that gives it.
    assert!(flaming.contains("When you hit"), "{flaming}");
    assert!(flaming.contains("href=\"../../mods/core/statuses.html#core:burning\""), "{flaming}");
    assert!(flaming.contains("href=\"../../mods/core/loot_tables.html#core:weapon_affixes\""), "{flaming}");
    // An override says what it replaces and what it changes, and the original says it is overridden.
    let overrides: Vec<(String, String)> = files(&site)
        .into_iter()
        .filter(|(r, _)| r.starts_with("mods/fire_and_thorns/") || r.starts_with("mods/rat_catcher/"))
        .map(|(r, p)| (r, std::fs::read_to_string(p).unwrap()))
        .filter(|(_, h)| h.contains("What this override changes"))
        .collect();
    assert!(!overrides.is_empty(), "the examples override core entries and their pages say so");
    for (rel, html) in &overrides {
        assert!(html.contains("overrides the entry of <a href=\"../../mods/core/"), "{rel} links the entry it overrides");
    }
    // Each row is the key or element that changed, not the whole field that holds it.
    let (_, imp) = overrides.iter().find(|(r, _)| r == "mods/fire_and_thorns/creatures.html").expect("the fire imp's override");
    for row in [
        "<tr class=\"changed\"><th scope=\"row\"><code>attributes.max_health</code></th><td>changed</td><td><code>12</code></td><td><code>14</code></td></tr>",
        "<tr class=\"added\"><th scope=\"row\"><code>tags[1]</code></th><td>added</td><td><code></code></td><td><code>&quot;core:fire&quot;</code></td></tr>",
    ] {
        assert!(imp.contains(row), "{row} in the fire imp's page");
    }
    let core_pages: String = files(&site).into_iter().filter(|(r, _)| r.starts_with("mods/core/")).map(|(_, p)| std::fs::read_to_string(p).unwrap()).collect();
    assert!(core_pages.contains("<strong>overridden by <a href=\"../../mods/"), "a core entry says which mod overrides it");
    // The index: the mods in load order, core marked as the base game, the check's summary.
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    let core = index.find("mods/core/index.html").unwrap();
    let fire = index.find("mods/fire_and_thorns/index.html").unwrap();
    assert!(core < fire && index.contains("base game") && index.contains("id=\"check\""), "{index}");
    // Quest chains and the trigger graph on a mod's page, drawn and listed.
    let core_index = std::fs::read_to_string(site.join("mods/core/index.html")).unwrap();
    assert!(core_index.contains("<title id=\"quest-chains-t\">") && core_index.contains(" starts <a href="), "quest chains");
    assert!(core_index.contains("<title id=\"trigger-graph-t\">") && core_index.contains("<table class=\"triggers\">"), "the trigger graph");
}

#[test]
fn the_search_index_finds_every_entry_at_its_anchor() {
    let t = examples_site("search");
    let site = t.path("site");
    let mut records = Vec::new();
    for (rel, path) in files(&site).into_iter().filter(|(r, _)| r.starts_with("static/search-")) {
        let text = std::fs::read_to_string(path).unwrap();
        let json = text.trim().strip_prefix("rkSearch.add(").and_then(|s| s.strip_suffix(");")).unwrap_or_else(|| panic!("{rel} is one call"));
        let list: Vec<[String; 4]> = serde_json::from_str(json).unwrap();
        records.extend(list);
    }
    let flaming = records.iter().find(|r| r[0] == "core:flaming").expect("core:flaming is found");
    assert_eq!(flaming[3], "mods/core/affixes.html#core:flaming");
    for r in &records {
        let (file, anchor) = r[3].split_once('#').unwrap_or((&r[3], ""));
        let html = std::fs::read_to_string(site.join(file)).unwrap_or_else(|_| panic!("{} leads to a page", r[0]));
        assert!(anchor.is_empty() || html.contains(&format!(" id=\"{anchor}\"")), "{} leads to its anchor", r[0]);
    }
    // Every page names the shards to load, and none carries the index itself.
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("data-shards=\"1\"") && !index.contains("rkSearch.add("));
}

#[test]
fn a_rebuild_writes_only_what_changed_and_removes_what_is_gone() {
    let t = TempDir::new("incremental");
    rustkeep_testutil::copy_dir(&repo_root().join(EXAMPLES[1]), &t.path("ws/rat_catcher"));
    rustkeep_testutil::copy_dir(&repo_root().join(EXAMPLES[0]), &t.path("ws/fire_and_thorns"));
    let build = |paths: &[&str]| -> String {
        let mut args = vec!["doc"];
        args.extend(paths);
        args.extend(["--out", "site"]);
        let o = run(&t.0, &args);
        ok(&o);
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let first = build(&["ws/rat_catcher", "ws/fire_and_thorns"]);
    assert!(first.contains(" 0 removed"), "{first}");
    let again = build(&["ws/rat_catcher", "ws/fire_and_thorns"]);
    assert!(again.contains(" 0 changed, 0 removed"), "nothing changed, nothing written: {again}");
    // One item renamed: its page, the pages that link it by name, and the search index.
    let items = t.read("ws/rat_catcher/items.toml");
    let renamed = items.replacen("name = \"", "name = \"Renamed ", 1);
    assert_ne!(items, renamed);
    t.write("ws/rat_catcher/items.toml", renamed);
    let edited = build(&["ws/rat_catcher", "ws/fire_and_thorns"]);
    let changed: usize = edited.split(" changed").next().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
    assert!((1..15).contains(&changed), "a rename rewrites a few files: {edited}");
    // A mod left out: its pages are removed, the rest is kept.
    let fewer = build(&["ws/rat_catcher"]);
    assert!(!t.path("site/mods/fire_and_thorns").join("index.html").exists(), "{fewer}");
    assert!(t.path("site/mods/rat_catcher/index.html").exists());
    assert!(!fewer.contains(" 0 removed"), "{fewer}");
}

#[test]
fn data_with_errors_is_documented_as_far_as_it_reads() {
    let t = TempDir::new("broken");
    let o = run(repo_root(), &["doc", "examples/broken", "--out", t.path("site").to_str().unwrap(), "--arena", "5"]);
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("note: the mods have "), "{}", String::from_utf8_lossy(&o.stderr));
    let site = t.path("site");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("<strong>The mods have ") && index.contains("<table class=\"codes\">"), "{index}");
    let diagnostics = std::fs::read_to_string(site.join("diagnostics.html")).unwrap();
    assert!(diagnostics.contains("<tr class=\"error\">"), "every error listed");
    // No link to what does not exist, and no fights on broken data.
    check_links(&site);
    let pages: String = files(&site).into_iter().filter(|(r, _)| r.ends_with("/index.html")).map(|(_, p)| std::fs::read_to_string(p).unwrap()).collect();
    assert!(pages.contains("No fights: the mods have errors") && !pages.contains("<table class=\"heat\">"));
}

#[test]
fn folders_it_did_not_write_are_refused() {
    let t = TempDir::with_files("refused", &[("mine/notes.txt", "my own notes")]);
    let o = run(&t.0, &["doc", "--out", "mine"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("did not write"), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(t.read("mine/notes.txt"), "my own notes");
    // Outside any mod: the bundled core alone.
    let o = run(&t.0, &["doc", "--out", "core-site"]);
    ok(&o);
    assert!(t.path("core-site/mods/core/items.html").exists());
}

#[test]
fn source_links_follow_the_template() {
    let t = TempDir::new("source");
    let o = run(repo_root(), &["doc", EXAMPLES[1], "--out", t.path("site").to_str().unwrap(), "--source-url", "https://example.org/blob/main/{path}#L{line}"]);
    ok(&o);
    let items = std::fs::read_to_string(t.path("site/mods/rat_catcher/items.html")).unwrap();
    assert!(items.contains("<a href=\"https://example.org/blob/main/examples/rat_catcher/items.toml#L"), "{items}");
    // The bundled core has no source to link.
    let core = std::fs::read_to_string(t.path("site/mods/core/items.html")).unwrap();
    assert!(!core.contains("https://example.org"));
}

/// A mod's overview says what its manifest says of versions: each dependency with its
/// requirement, optional and incompatible ones marked, and the IDs it renamed.
#[test]
fn a_mods_overview_shows_requirements_and_renames() {
    let t = TempDir::new("doc-versions");
    let out = t.path("site");
    let o = run(repo_root(), &["doc", "tests/fixtures/versions", "--out", out.to_str().unwrap()]);
    ok(&o);
    let page = |m: &str| std::fs::read_to_string(out.join(format!("mods/{m}/index.html"))).unwrap();
    let rat_catcher = page("rat_catcher");
    for shown in [
        "<code>sewers</code></a> &gt;= 1.2",
        "<code>bestiary</code></a> ^2 (optional)",
        "<code>old_rats</code></a> (incompatible)",
        "<code>lantern</code> ^1 (optional)",
    ] {
        assert!(rat_catcher.contains(shown), "{shown} in:\n{rat_catcher}");
    }
    let sewers = page("sewers");
    assert!(sewers.contains("<th scope=\"row\">Renamed</th><td><code>sewers:cheese</code> → <code>sewers:cheese_wedge</code>"), "{sewers}");
    assert!(!rat_catcher.contains(">Renamed<"), "a mod that renamed nothing has no such row");
}
