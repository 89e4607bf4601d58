//! The site of the bundled core, rendered in memory: one section per entry, each at its ID's
//! anchor; every ID the pages show as a link leads to a section; the drawings carry their
//! descriptions.

use std::collections::BTreeSet;

use rustkeep_data::db::Database;
use rustkeep_data::project::Project;
use rustkeep_data::vocab::Registry;
use rustkeep_doc::Options;
use rustkeep_engine::game::World;

fn core_site() -> (World, Vec<(String, String)>) {
    let project = Project::with_bundled_core();
    // As `rustkeep doc` builds it: the site documents data with errors too.
    let db = Database::load(&project);
    let w = World::best_effort(project, db);
    let opts = Options { out: "unused".into(), source_url: None, arena_runs: Some(5), arena_seed: 1, luck: 3.0 };
    let files = rustkeep_doc::render(&w, &[], &opts);
    (w, files)
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> Vec<&'a str> {
    text.split(start).skip(1).filter_map(|s| s.split_once(end).map(|(a, _)| a)).collect()
}

#[test]
fn every_entry_of_the_core_has_one_section_at_its_anchor() {
    let (w, files) = core_site();
    let mut sections = BTreeSet::new();
    for (path, html) in &files {
        for id in between(html, "<section class=\"entry\" id=\"", "\"") {
            assert!(sections.insert(format!("{path}#{id}")), "{path}#{id} twice");
        }
    }
    for registry in Registry::ALL {
        for id in w.ids(registry) {
            let page = format!("mods/core/{}.html#{id}", registry.key());
            assert!(sections.contains(&page), "{page}");
        }
    }
    // Every link to an entry leads to a section.
    for (path, html) in &files {
        for href in between(html, "href=\"../../mods/", "\"") {
            if href.contains('#') {
                assert!(sections.contains(&format!("mods/{href}")), "{path} links mods/{href}");
            }
        }
    }
}

#[test]
fn every_drawing_is_described_for_a_screen_reader() {
    let (_, files) = core_site();
    let mut svgs = 0;
    for (path, html) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
        for svg in between(html, "<svg ", "</svg>") {
            svgs += 1;
            // A chart is an image; a graph, whose nodes are links, a group.
            let role = if svg.contains("<a href=") { "group" } else { "img" };
            assert!(svg.starts_with(&format!("role=\"{role}\" aria-labelledby=\"")), "{path}: {}", &svg[..svg.len().min(80)]);
            assert!(svg.contains("<title id=") && svg.contains("<desc id="), "{path}");
        }
    }
    assert!(svgs > 30, "charts and graphs: {svgs}");
    let overview = &files.iter().find(|(p, _)| p == "mods/core/index.html").unwrap().1;
    assert!(overview.contains("<table class=\"heat\">"), "the arena's heat map with --arena");
}
