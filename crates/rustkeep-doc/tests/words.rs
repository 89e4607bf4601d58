//! What the pages say in words: registries by their own names ("NPCs"), how each entry refers to
//! another (the field, action, check or filter that names it), and loops of quests told apart from
//! the cycles the event cap has to stop.

use rustkeep_data::db::Database;
use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_data::vocab::Registry;
use rustkeep_doc::Options;
use rustkeep_engine::game::World;
use rustkeep_testutil::TempDir;

fn site_of(project: Project) -> Vec<(String, String)> {
    // As `rustkeep doc` builds it: the site documents data with errors too.
    let db = Database::load(&project);
    let w = World::best_effort(project, db);
    let opts = Options { out: "unused".into(), source_url: None, arena_runs: None, arena_seed: 1, luck: 0.0 };
    rustkeep_doc::render(&w, &[], &opts)
}

fn page<'a>(files: &'a [(String, String)], path: &str) -> &'a str {
    &files.iter().find(|(p, _)| p == path).unwrap_or_else(|| panic!("the site has {path}")).1
}

/// The section of an entry on its registry page.
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let at = html.find(&format!("<section class=\"entry\" id=\"{id}\"")).unwrap_or_else(|| panic!("a section for {id}"));
    let rest = &html[at..];
    &rest[..rest.find("</section>").expect("a closed section")]
}

const CRYPT: &str = include_str!("data/words/crypt.toml");

fn crypt_site() -> Vec<(String, String)> {
    let t =
        TempDir::with_files("doc-words", &[("crypt/mod.toml", "[mod]\nid = \"crypt\"\nname = \"Crypt\"\nversion = \"0.1.0\"\n"), ("crypt/crypt.toml", CRYPT)]);
    site_of(load(&[t.path("crypt")], &t.0, &Overlay::default()))
}

#[test]
fn registries_are_titled_as_their_nouns_are_spelt() {
    let project = Project::with_bundled_core();
    let files = site_of(project);
    let npcs = page(&files, "mods/core/npcs.html");
    assert!(npcs.contains("<h1>The Base Game: NPCs</h1>") || npcs.contains(": NPCs</h1>"), "{}", &npcs[..npcs.len().min(2000)]);
    for (path, html) in &files {
        assert!(!html.contains("Npcs"), "{path} spells a registry `Npcs`");
    }
    // Every registry page's title is its key in words, capitalised, with the noun's own spelling.
    for registry in Registry::ALL {
        let path = format!("mods/core/{}.html", registry.key());
        let Some((_, html)) = files.iter().find(|(p, _)| *p == path) else { continue };
        let h1 = html.split("<h1>").nth(1).and_then(|h| h.split("</h1>").next()).expect("a heading");
        let title = h1.rsplit(": ").next().unwrap_or(h1);
        assert_eq!(title.to_lowercase(), registry.key().replace('_', " "), "{path}");
        let noun = registry.noun();
        let spelt = if noun.chars().any(|c| c.is_uppercase()) { noun.to_string() } else { noun[..1].to_uppercase() + &noun[1..] };
        assert!(title.starts_with(&spelt), "{path}: `{title}` is spelt as `{noun}`");
    }
}

#[test]
fn referred_to_by_says_which_field_or_action_refers() {
    let files = crypt_site();
    let creatures = page(&files, "mods/crypt/creatures.html");
    let ghoul = section(creatures, "crypt:ghoul");
    assert!(
        ghoul.contains(
            "(creature: a <code>spawn</code> action of its <code>ai</code>; a <code>spawn</code> action of its trigger on <code>creature_died</code>)"
        ),
        "{ghoul}"
    );
    assert!(!ghoul.contains("(creature, "), "the old `(noun, key)` form is gone: {ghoul}");
    let tables = page(&files, "mods/crypt/loot_tables.html");
    assert!(section(tables, "crypt:bones").contains("(creature: its <code>loot</code>)"), "{}", section(tables, "crypt:bones"));
    let items = page(&files, "mods/crypt/items.html");
    let bell = section(items, "crypt:bell");
    assert!(bell.contains("(loot table: an item entry of its <code>entries</code>)"), "{bell}");
    let quests = page(&files, "mods/crypt/quests.html");
    let first = section(quests, "crypt:first");
    assert!(first.contains("(NPC: a <code>start_quest</code> action of its <code>on_talk</code>)"), "{first}");
    assert!(first.contains("(quest: a <code>start_quest</code> action of its reward; its <code>when</code> filter on <code>quest</code>)"), "{first}");
}

#[test]
fn a_loop_of_quests_is_no_red_cycle_and_says_it_is_harmless() {
    let files = crypt_site();
    let overview = page(&files, "mods/crypt/index.html");
    let graph = &overview[overview.find("id=\"triggers\"").expect("the trigger graph")..];
    let table = &graph[graph.find("<table class=\"triggers\">").expect("the table of the trigger graph")..];
    let row = |id: &str| -> &str {
        let at = table.find(&format!("#{id}\"")).unwrap_or_else(|| panic!("a row for {id}"));
        let rest = &table[at..];
        &rest[..rest.find("</tr>").unwrap()]
    };
    for quest in ["crypt:first", "crypt:second"] {
        let r = row(quest);
        assert!(r.contains("on a quest loop (harmless: each quest completes once)") && !r.contains("cycle-note"), "{r}");
    }
    // A cycle through an item is still one the event cap stops: red.
    assert!(row("crypt:bell").contains("<strong class=\"cycle-note\">on a cycle</strong>"), "{}", row("crypt:bell"));
    let drawing = &graph[..graph.find("<table").unwrap()];
    let node = |label: &str| -> &str {
        let at = drawing.find(&format!("<title>{label}</title><rect class=\"")).unwrap_or_else(|| panic!("a node {label}"));
        let class = &drawing[at + label.len() + "<title></title><rect class=\"".len()..];
        &class[..class.find('"').unwrap()]
    };
    assert_eq!((node("crypt:first"), node("crypt:second"), node("crypt:bell")), ("node quest-loop", "node quest-loop", "node cycle"));
    assert!(overview.contains("A loop through a quest is not"), "the legend says quest loops are not red");
    // The quest chains note the loop, and say it is fine.
    let chains = &overview[overview.find("id=\"quests\"").unwrap()..overview.find("id=\"triggers\"").unwrap()];
    assert!(chains.contains("start each other in a loop. A quest loop is fine: each quest completes once"), "{chains}");
}
