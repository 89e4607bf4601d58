//! The incremental analysis (what the language server keeps) against a fresh check.
//!
//! - On every fixture, the examples and the core: built at once, it reports exactly what
//!   `analyze` reports.
//! - On a generated workspace of 24 mods (`rustkeep_testutil::modpack`) with a scenario that
//!   names IDs of every mod, after every one of a seeded sequence of random edits (renamed,
//!   deleted and added definitions, references pointed elsewhere or at nothing and back, tables
//!   nested into cycles or across kinds, tags, quests, `[balance]`, broken TOML, allow comments,
//!   text spliced anywhere), applied one or several files at a time: its diagnostics, its
//!   registries in force and its loot-table kinds equal a fresh analysis of the same texts.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::set_text;
use rustkeep_check::incremental::Incremental;
use rustkeep_check::{analyze, lower_all, lower_source, Analysis};
use rustkeep_data::diag::Diagnostic;
use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_data::source::{FileId, FileKind};
use rustkeep_data::vocab::Registry;
use rustkeep_testutil::modpack::{defined_ids, edit_data, workspace, Gen};
use rustkeep_testutil::repo_root;

fn show(project: &Project, diags: &[Diagnostic]) -> Vec<String> {
    diags
        .iter()
        .map(|d| {
            let f = project.file(d.loc.file);
            let related: Vec<String> = d.related.iter().map(|r| format!("{}@{:?} {}", project.file(r.loc.file).path, r.loc.span, r.message)).collect();
            format!("{}@{:?} {} {:?} {} {related:?} {:?}", f.path, d.loc.span, d.code.name(), d.severity, d.message, d.fix)
        })
        .collect()
}

/// The registries in force and the table kinds, comparable.
fn model(a: &rustkeep_data::db::Database) -> (BTreeMap<(usize, String), String>, BTreeMap<String, String>) {
    let mut defs = BTreeMap::new();
    for r in Registry::ALL {
        for (id, d) in &a.resolved.defs[r.index()] {
            defs.insert((r.index(), id.clone()), format!("{d:?}"));
        }
    }
    let kinds = a.table_kinds.iter().map(|(k, v)| (k.clone(), v.as_str().to_string())).collect();
    (defs, kinds)
}

fn assert_same(project: &Project, inc: &Incremental, fresh: &Analysis, what: &str) {
    let got = show(project, &inc.all_diagnostics(project));
    let want = show(project, &fresh.diagnostics);
    if got != want {
        let missing: Vec<&String> = want.iter().filter(|d| !got.contains(d)).collect();
        let extra: Vec<&String> = got.iter().filter(|d| !want.contains(d)).collect();
        panic!("{what}: the incremental analysis disagrees with a fresh check\nmissing: {missing:#?}\nextra: {extra:#?}");
    }
    let (defs, kinds) = model(inc.db());
    let (fdefs, fkinds) = model(&fresh.db);
    assert!(defs == fdefs, "{what}: the registries in force differ");
    assert_eq!(kinds, fkinds, "{what}: the table kinds differ");
    assert_eq!(inc.db().resolved.balance.luck_factor, fresh.db.resolved.balance.luck_factor, "{what}: balance");
}

/// Gives the file `fid` of `project` the text `text`, as an editor would, and tells `inc`; `inc`
/// must then agree with a fresh analysis of the project, which is returned.
fn edit_and_compare(project: &mut Project, inc: &mut Incremental, fid: FileId, text: &str) -> Analysis {
    set_text(project, fid, text);
    inc.update(project, vec![(fid, lower_source(project.file(fid)))]);
    let fresh = analyze(project);
    assert_same(project, inc, &fresh, text);
    fresh
}

/// Each edit of `steps` in turn, `(file, text, want)`: the incremental analysis equals a fresh
/// check ([`edit_and_compare`]), and `measure` of the fresh diagnostics is `want`.
fn each_edit_measures<T: PartialEq + std::fmt::Debug>(
    project: &mut Project,
    inc: &mut Incremental,
    steps: Vec<(FileId, String, T)>,
    measure: impl Fn(&[Diagnostic]) -> T,
) {
    for (fid, text, want) in steps {
        let fresh = edit_and_compare(project, inc, fid, &text);
        assert_eq!(measure(&fresh.diagnostics), want, "{text}\n{:#?}", show(project, &fresh.diagnostics));
    }
}

fn folders_below(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir).map(|rd| rd.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect()).unwrap_or_default();
    out.sort();
    out
}

#[test]
fn built_at_once_it_reports_what_a_fresh_check_reports_on_every_fixture() {
    let root = repo_root();
    let mut dirs = folders_below(&root.join("tests/fixtures"));
    dirs.extend(folders_below(&root.join("examples")));
    dirs.push(root.join("examples"));
    for dir in dirs {
        let project = load(std::slice::from_ref(&dir), root, &Overlay::new());
        let fresh = analyze(&project);
        let inc = Incremental::new(&project, lower_all(&project, 1));
        assert_same(&project, &inc, &fresh, &dir.display().to_string());
    }
}

/// A whole-set rule's diagnostic can point into a file other than its own: `renamed-id-exists`
/// sits on the manifest's `[renamed]` line and points at the entry that still defines the old ID,
/// `floor-without-exit` sits on the floor and points at the prefab's grid. Text added above that
/// entry moves it without changing what the rule reads there; the diagnostic follows it (the
/// incremental analysis agrees with a fresh check, related places included).
#[test]
fn a_related_place_in_another_file_follows_its_entry() {
    let manifest = "[mod]\nid = \"m\"\nversion = \"1.0.0\"\n\n[renamed]\n\"m:cheese\" = \"m:wedge\"\n";
    let wedge = "[[items]]\nid = \"m:wedge\"\nname = \"Wedge\"\n";
    let both = format!("{wedge}\n[[items]]\nid = \"m:cheese\"\nname = \"Cheese\"\n");
    let steps = vec![
        ("items.toml", both.clone(), 1),
        ("items.toml", format!("# the shop's wares\n\n{both}"), 1),
        ("items.toml", format!("# the shop's wares, and more\n\n\n{both}"), 1),
        ("items.toml", wedge.to_string(), 0),
    ];
    step_through(&[("m/mod.toml", manifest), ("m/items.toml", wedge)], "renamed-id-exists", &steps);

    let floors = "[[floors]]\nid = \"m:den\"\nname = \"Den\"\ndepth = 1\nprefabs = [\"m:closet\"]\n";
    let closet = |door: char| format!("[[prefabs]]\nid = \"m:closet\"\ngrid = \"\"\"\n#{door}#\n#@#\n###\n\"\"\"\n");
    let steps = vec![
        ("rooms.toml", closet('#'), 1),
        ("rooms.toml", format!("# a room with no way out\n{}", closet('#')), 1),
        ("rooms.toml", format!("# a room with no way out\n\n\n{}", closet('#')), 1),
        ("rooms.toml", closet('+'), 0),
    ];
    step_through(&[("m/mod.toml", manifest), ("m/items.toml", wedge), ("m/floors.toml", floors), ("m/rooms.toml", &closet('+'))], "floor-without-exit", &steps);
}

/// The generated workspace as an in-memory project.
fn project_of(files: &[(String, String)]) -> Project {
    let mut p = Project::with_bundled_core();
    let mut by_mod: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
    for (path, text) in files {
        let (m, rel) = path.split_once('/').expect("mod/file");
        by_mod.entry(m).or_default().push((rel, text.as_str()));
    }
    for (m, files) in by_mod {
        p.add_memory_mod(m, &files);
    }
    p
}

#[test]
fn after_every_random_edit_it_equals_a_fresh_check() {
    let mut files = workspace(24);
    // A scenario of the last mod, which sees every mod: its checks read the IDs, groups and spawns
    // the edits change.
    let every = |name: &str| (0..24).map(|k| format!("\"w{k:02}:{name}\"")).collect::<Vec<_>>();
    let items: Vec<String> = every("sword").into_iter().chain(every("potion")).map(|i| format!("{{ item = {i} }}")).collect();
    let mut scenario = format!("[player]\noptions = [\"core:warrior\"]\nitems = [ {} ]\nquests = [ {} ]\n", items.join(", "), every("hunt").join(", "));
    for rat in every("rat") {
        scenario.push_str(&format!("\n[[enemies]]\ncreature = {rat}\ncount = 1\n"));
    }
    scenario.push_str("\n[[steps]]\nattack = \"enemy:23\"\n");
    files.push(("w23/scenarios/hunt.toml".to_string(), scenario));
    let base = project_of(&files);
    let scenario_file = base.scenarios.first().expect("the scenario is loaded").file;
    let data: Vec<FileId> = base.files.iter().filter(|f| f.kind == FileKind::Data && !f.bundled).map(|f| f.id).collect();
    let originals: BTreeMap<FileId, String> = data.iter().map(|f| (*f, base.file(*f).text.to_string())).collect();
    // The untouched workspace: clean but for what the generator means to leave in.
    let fresh = analyze(&base);
    assert!(fresh.errors() == 0, "{:#?}", show(&base, &fresh.diagnostics));
    // What it leaves in: the overrides that leave out the replaced NPC's `on_talk` (every fifth
    // mod), and the last mod's quest, which no later mod starts.
    let left_in: std::collections::BTreeSet<&str> = fresh.diagnostics.iter().map(|d| d.code.name()).collect();
    assert_eq!(left_in, ["override-drops-field", "quest-never-started"].into_iter().collect(), "{:#?}", show(&base, &fresh.diagnostics));
    let mut with_diagnostics = 0;
    let mut scenario_steps = 0;
    // The codes of the rules that follow links across files, seen at some step: the edits must
    // make each of them appear, or the comparison would not cover it.
    let mut seen: std::collections::BTreeSet<&'static str> = std::collections::BTreeSet::new();
    let runs: u64 = std::env::var("RUSTKEEP_INCREMENTAL_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(12);
    for seed in 0..runs {
        let mut g = Gen::new(seed);
        let mut project = base.clone();
        let mut inc = Incremental::new(&project, lower_all(&project, 1));
        for step in 0..40 {
            let texts: Vec<&str> = data.iter().map(|f| &*project.file(*f).text).collect();
            let ids = defined_ids(&texts);
            // One file most of the time, sometimes several at once (a save of many files).
            let count = if g.chance(15) { 2 + g.below(3) } else { 1 };
            let mut changes = Vec::new();
            for _ in 0..count {
                let fid = *g.pick(&data).expect("data files");
                let new = edit_data(&mut g, &project.file(fid).text, &originals[&fid], &ids);
                set_text(&mut project, fid, &new);
                changes.push((fid, lower_source(project.file(fid))));
            }
            inc.update(&project, changes);
            let fresh = analyze(&project);
            assert_same(&project, &inc, &fresh, &format!("seed {seed}, step {step}"));
            seen.extend(fresh.diagnostics.iter().map(|d| d.code.name()));
            scenario_steps += usize::from(fresh.diagnostics.iter().any(|d| d.loc.file == scenario_file));
        }
        with_diagnostics += usize::from(!inc.all_diagnostics(&project).is_empty());
    }
    assert!(with_diagnostics as u64 * 2 >= runs, "the edits should leave diagnostics behind in most runs");
    assert!(scenario_steps > 0, "no edit gave the scenario a finding");
    for code in [
        "npc-never-placed",
        "trigger-never-active",
        "override-drops-field",
        "floor-without-exit",
        "unused-loot-table",
        "loot-table-cycle",
        "item-never-obtainable",
        "creature-never-met",
    ] {
        assert!(seen.contains(code), "no edit raised `{code}`; seen: {seen:?}");
    }
}

/// A reference to an ID written under a misspelt registry header (`[[item]]`) is told where it is
/// written; fixing the header defines it, and misspelling it again brings the note back, in the
/// incremental analysis as in a fresh check.
#[test]
fn a_reference_to_an_id_under_a_misspelt_registry_names_the_header() {
    let items = "[[item]]\nid = \"m:blade\"\nname = \"Blade\"\nslot = \"weapon\"\n";
    let loot = "[[loot_tables]]\nid = \"m:t\"\nentries = [ { item = \"m:blade\", weight = 1 } ]\n\n[[creatures]]\nid = \"m:x\"\nname = \"X\"\nloot = \"m:t\"\n";
    let mut project = project_of(&[("m/items.toml".into(), items.into()), ("m/loot.toml".into(), loot.into())]);
    let fid = project.files.iter().find(|f| f.path.ends_with("items.toml") && !f.bundled).map(|f| f.id).expect("items.toml");
    let mut inc = Incremental::new(&project, lower_all(&project, 1));
    let noted = |project: &Project, diags: &[Diagnostic]| {
        let d = diags.iter().find(|d| d.code.name() == "unknown-reference").expect("the reference is unknown");
        assert_eq!(d.related.len(), 2, "{:#?}", show(project, diags));
        assert_eq!(d.related[0].loc.file, fid);
        assert_eq!(&project.file(fid).text[d.related[0].loc.span.clone()], "item");
        assert!(d.related[0].message.contains("`m:blade` is written under `item`, which is not a registry"), "{}", d.related[0].message);
        assert_eq!(&project.file(fid).text[d.related[1].loc.span.clone()], "\"m:blade\"");
    };
    noted(&project, &analyze(&project).diagnostics);
    noted(&project, &inc.all_diagnostics(&project));
    for (text, unknown) in [(items.replace("[[item]]", "[[items]]"), false), (items.to_string(), true)] {
        let fresh = edit_and_compare(&mut project, &mut inc, fid, &text);
        assert_eq!(fresh.diagnostics.iter().any(|d| d.code.name() == "unknown-reference"), unknown, "{:#?}", show(&project, &fresh.diagnostics));
        if unknown {
            noted(&project, &fresh.diagnostics);
        }
    }
}

/// `trigger-never-active` of an affix follows a chain across files (the item entry that names an
/// affix table in `affixes =`, the tables nested in it, the table that names the affix): each link
/// of the chain cut and restored in turn gives the incremental analysis the diagnostics of a fresh
/// check, and the affix is reported exactly while a link is cut.
#[test]
fn an_affix_reached_through_a_nested_affix_table_is_followed_link_by_link() {
    let items = "[[items]]\nid = \"m:blade\"\nname = \"Blade\"\nslot = \"weapon\"\n\n[[affixes]]\nid = \"m:burning\"\nname = \"burning\"\n\
                 triggers = [ { on = \"attack_hit\", actions = [ { action = \"heal\", amount = 1, target = \"self\" } ] } ]\n";
    let loot = "[[loot_tables]]\nid = \"m:inner\"\nentries = [ { affix = \"m:burning\", weight = 1 } ]\n\n\
                [[loot_tables]]\nid = \"m:outer\"\nentries = [ { table = \"m:inner\", weight = 1 } ]\n\n\
                [[loot_tables]]\nid = \"m:drops\"\nentries = [ { item = \"m:blade\", weight = 1, affixes = \"m:outer\" } ]\n\n\
                [[creatures]]\nid = \"m:x\"\nname = \"X\"\nloot = \"m:drops\"\n";
    let mut project = project_of(&[("m/items.toml".into(), items.into()), ("m/loot.toml".into(), loot.into())]);
    let file = |project: &Project, name: &str| project.files.iter().find(|f| f.path.ends_with(name) && !f.bundled).map(|f| f.id).expect(name);
    let (items_id, loot_id) = (file(&project, "items.toml"), file(&project, "loot.toml"));
    let mut inc = Incremental::new(&project, lower_all(&project, 1));
    let never_active = |diags: &[Diagnostic]| diags.iter().any(|d| d.code.name() == "trigger-never-active");
    assert!(!never_active(&analyze(&project).diagnostics));
    assert!(!never_active(&inc.all_diagnostics(&project)));
    // Each cut: (file, text), whether the affix then never runs.
    let cuts: Vec<(FileId, String, bool)> = vec![
        (items_id, items.replace("slot = \"weapon\"\n", ""), true),
        (items_id, items.to_string(), false),
        (loot_id, loot.replace("{ table = \"m:inner\", weight = 1 }", "{ nothing = true, weight = 1 }"), true),
        (loot_id, loot.to_string(), false),
        (loot_id, loot.replace("id = \"m:outer\"", "id = \"m:other\""), true),
        (loot_id, loot.to_string(), false),
        (loot_id, loot.replace(", affixes = \"m:outer\"", ""), true),
        (loot_id, loot.replace("affixes = \"m:outer\"", "affixes = \"m:inner\""), false),
        (loot_id, loot.replace("{ affix = \"m:burning\", weight = 1 }", "{ nothing = true, weight = 1 }"), true),
        (loot_id, loot.to_string(), false),
        (items_id, items.replace("triggers = [", "# triggers = ["), false),
    ];
    each_edit_measures(&mut project, &mut inc, cuts, never_active);
}

/// `ai-rule-unreachable` and `condition-never-holds` need one entry only: each edit that makes
/// or breaks one of the traps shows in the incremental analysis as in a fresh check.
#[test]
fn the_traps_of_one_entry_come_and_go_with_each_edit() {
    let fallback = "{ actions = [ { action = \"heal\", amount = 1, target = \"self\" } ] }";
    let flee = "{ condition = [ { check = \"health_below\", who = \"self\", value = 0.25 } ], actions = [ { action = \"flee\" } ] }";
    let level = |a: &str, b: &str| {
        format!(
            "{{ condition = [ {{ check = \"attribute\", who = \"self\", attribute = \"level\", {a} }}, {{ check = \"attribute\", who = \"self\", attribute = \"level\", {b} }} ], \
             actions = [ {{ action = \"flee\" }} ] }}"
        )
    };
    let creature = |rules: &[&str]| format!("[[creatures]]\nid = \"m:wolf\"\nname = \"Wolf\"\nai = [\n  {},\n]\n", rules.join(",\n  "));
    let (disjoint, touching) = (level("at_least = 5", "below = 5"), level("at_least = 5", "below = 6"));
    let mut project = project_of(&[("m/creatures.toml".into(), creature(&[flee, fallback]))]);
    let fid = project.files.iter().find(|f| f.path.ends_with("creatures.toml") && !f.bundled).map(|f| f.id).expect("creatures.toml");
    let mut inc = Incremental::new(&project, lower_all(&project, 1));
    let count = |diags: &[Diagnostic], code: &str| diags.iter().filter(|d| d.code.name() == code).count();
    // Each text, with how many rules are unreachable and how many checks never hold with another.
    let steps = vec![
        (fid, creature(&[fallback, flee]), (1, 0)),
        (fid, creature(&[fallback, flee, &touching]), (2, 0)),
        (fid, creature(&[flee, &touching, fallback]), (0, 0)),
        (fid, creature(&[flee, &disjoint, fallback]), (0, 1)),
        (fid, creature(&[fallback, &disjoint]), (1, 1)),
        (fid, creature(&[&touching, fallback]), (0, 0)),
        (fid, creature(&[flee, fallback]), (0, 0)),
    ];
    each_edit_measures(&mut project, &mut inc, steps, |d| (count(d, "ai-rule-unreachable"), count(d, "condition-never-holds")));
}

/// Sets each text in turn (one file per step), compares the incremental analysis with a fresh
/// check after each, and checks how many `code` diagnostics the step leaves.
fn step_through(files: &[(&str, &str)], code: &str, steps: &[(&str, String, usize)]) {
    step_through_from(files, code, steps, 0);
}

/// [`step_through`] from files with `before` diagnostics of `code`.
fn step_through_from(files: &[(&str, &str)], code: &str, steps: &[(&str, String, usize)], before: usize) {
    let mut project = project_of(&files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect::<Vec<_>>());
    let file = |project: &Project, name: &str| project.files.iter().find(|f| f.path.ends_with(name) && !f.bundled).map(|f| f.id).expect(name);
    let mut inc = Incremental::new(&project, lower_all(&project, 1));
    let count = |diags: &[Diagnostic]| diags.iter().filter(|d| d.code.name() == code).count();
    assert_eq!(count(&analyze(&project).diagnostics), before, "{:#?}", show(&project, &analyze(&project).diagnostics));
    assert_eq!(count(&inc.all_diagnostics(&project)), before);
    for (name, text, want) in steps {
        let fid = file(&project, name);
        let fresh = edit_and_compare(&mut project, &mut inc, fid, text);
        assert_eq!(count(&fresh.diagnostics), *want, "{text}\n{:#?}", show(&project, &fresh.diagnostics));
    }
}

/// `item-never-obtainable` comes and goes with each way an item is given: a `give_item` taken
/// away and back (in an entry in force and in one an override replaced), a loot table entry
/// (nested) in its place, the item renamed; the incremental analysis agrees with a fresh check at
/// every step.
#[test]
fn an_item_nothing_gives_is_reported_as_its_sources_come_and_go() {
    let items = "[[items]]\nid = \"m:relic\"\nname = \"Relic\"\n\n[[items]]\nid = \"m:blade\"\nname = \"Blade\"\n";
    let loot = "[[loot_tables]]\nid = \"m:inner\"\nentries = [ { item = \"m:blade\", weight = 1 } ]\n\n\
                [[loot_tables]]\nid = \"m:drops\"\nentries = [ { table = \"m:inner\", weight = 1 } ]\n\n\
                [[creatures]]\nid = \"m:rat\"\nname = \"Rat\"\nloot = \"m:drops\"\n";
    let npcs = "[[npcs]]\nid = \"m:sage\"\nname = \"Sage\"\non_talk = [ { action = \"give_item\", item = \"m:relic\", target = \"self\" } ]\n";
    let over = "[[npcs]]\noverrides = \"m:sage\"\nname = \"Sage\"\non_talk = [ { action = \"give_item\", item = \"m:relic\", target = \"self\" } ]\n";
    let files = [("m/items.toml", items), ("m/loot.toml", loot), ("m/npcs.toml", npcs), ("n/over.toml", over)];
    let steps = vec![
        // The NPC that gives the relic is replaced by one that takes it: the gift written in the
        // replaced entry still counts, as a `start_quest` does (the dropped action is the
        // override's business).
        ("over.toml", over.replace("give_item", "take_item"), 0),
        ("npcs.toml", npcs.replace("give_item", "take_item"), 1),
        // While some text cannot be read, in any file, no absence is claimed.
        ("over.toml", format!("{}\n[[npcs]\nid = \"m:y\"\n", over.replace("give_item", "take_item")), 0),
        ("over.toml", over.replace("give_item", "take_item"), 1),
        // Lines above the finding move it; lines above nothing of the rule move nothing.
        ("items.toml", format!("# Two lines move the finding.\n\n{items}"), 1),
        ("loot.toml", format!("\n\n{loot}"), 1),
        ("items.toml", items.to_string(), 1),
        ("loot.toml", loot.to_string(), 1),
        ("loot.toml", loot.replace("{ table = \"m:inner\", weight = 1 }", "{ table = \"m:inner\", weight = 1 }, { item = \"m:relic\", weight = 1 }"), 0),
        ("items.toml", items.replace("\"m:relic\"", "\"m:relic2\""), 1),
        ("items.toml", items.to_string(), 0),
        ("loot.toml", loot.replace("item = \"m:blade\"", "item = \"m:relic\""), 1),
        ("loot.toml", loot.to_string(), 1),
        ("npcs.toml", npcs.to_string(), 0),
        ("over.toml", over.to_string(), 0),
    ];
    step_through(&files, "item-never-obtainable", &steps);
}

/// `when-never-matches` of filters in one file follows what other files say of the entries they
/// name: an item's `use`, a floor's `prefabs`, a prefab's `npcs`, a `start_quest`; each taken
/// away and given back, the incremental analysis agrees with a fresh check.
#[test]
fn a_when_filter_its_event_never_carries_follows_the_entries_it_names() {
    let items = "[[items]]\nid = \"m:lamp\"\nname = \"Lamp\"\nuse = [ { action = \"heal\", amount = 1, target = \"self\" } ]\n";
    let world = "[[floors]]\nid = \"m:depths\"\nname = \"Depths\"\ndepth = 1\nprefabs = [\"m:hall\"]\n\n\
                 [[prefabs]]\nid = \"m:hall\"\nnpcs = [\"m:sage\"]\ngrid = \"\"\"\n#####\n#.n.#\n#.@.#\n##+##\n\"\"\"\n\n\
                 [[npcs]]\nid = \"m:sage\"\nname = \"Sage\"\non_talk = [ { action = \"start_quest\", quest = \"m:rite\" } ]\n\n\
                 [[quests]]\nid = \"m:rite\"\nname = \"Rite\"\non = \"creature_died\"\n";
    let heal = "actions = [ { action = \"heal\", amount = 1, target = \"self\" } ]";
    let filters = format!(
        "[[quests]]\nid = \"m:watch\"\nname = \"Watch\"\non = \"item_used\"\nwhen = {{ item = \"m:lamp\" }}\n\n\
         [[quests]]\nid = \"m:visit\"\nname = \"Visit\"\non = \"room_entered\"\nwhen = {{ prefab = \"m:hall\" }}\n\n\
         [[character_options]]\nid = \"m:pilgrim\"\nname = \"Pilgrim\"\non_create = [ {{ action = \"start_quest\", quest = \"m:watch\" }}, {{ action = \"start_quest\", quest = \"m:visit\" }} ]\n\
         triggers = [ {{ on = \"npc_talked\", when = {{ npc = \"m:sage\" }}, {heal} }}, {{ on = \"quest_completed\", when = {{ quest = \"m:rite\" }}, {heal} }} ]\n"
    );
    let files = [("m/items.toml", items), ("m/world.toml", world), ("m/filters.toml", filters.as_str())];
    let steps = vec![
        ("items.toml", items.replace("use = [", "# use = ["), 1),
        ("items.toml", items.to_string(), 0),
        ("world.toml", world.replace("prefabs = [\"m:hall\"]", "prefabs = []"), 1),
        ("world.toml", world.replace("npcs = [\"m:sage\"]", "npcs = []").replace("#.n.#", "#...#"), 1),
        ("world.toml", world.replace("quest = \"m:rite\"", "quest = \"m:watch\""), 1),
        ("items.toml", items.replace("use = [", "# use = ["), 2),
        ("world.toml", world.to_string(), 1),
        ("items.toml", items.to_string(), 0),
        // A filter on nothing is `unknown-reference` alone.
        ("filters.toml", filters.replace("m:lamp", "m:nothing"), 0),
        ("filters.toml", filters.clone(), 0),
    ];
    step_through(&files, "when-never-matches", &steps);
}

/// The whole-set absences (`prefab-never-used`, `creature-never-met`, `shop-never-opened`,
/// `status-never-applied`): each edit of the file that names the entries makes or breaks the
/// traps in the file that defines them, in the incremental analysis as in a fresh check; an
/// override of the floor takes its names away, a name without its namespace is the one mistake
/// there, and a part that cannot be read silences them all.
#[test]
fn the_absences_come_and_go_with_each_edit() {
    let defs = "[[prefabs]]\nid = \"m:crypt\"\ngrid = \"\"\"\n#####\n#@.e#\n##+##\n\"\"\"\n\n\
                [[creatures]]\nid = \"m:ghoul\"\nname = \"Ghoul\"\n\n[[creatures]]\nid = \"m:imp\"\nname = \"Imp\"\n\n\
                [[shops]]\nid = \"m:stall\"\nname = \"Stall\"\n\n[[statuses]]\nid = \"m:hex\"\nname = \"Hexed\"\nturns = 2\n";
    // The floor names the crypt and the ghoul; the option's trigger spawns the imp, opens the
    // stall and applies the hex.
    let floor =
        |prefabs: &str, creatures: &str| format!("[[floors]]\nid = \"m:deep\"\nname = \"Deep\"\ndepth = 1\nprefabs = [{prefabs}]\ncreatures = [{creatures}]\n");
    let option = |actions: &[&str]| {
        format!("\n[[character_options]]\nid = \"m:seer\"\nname = \"Seer\"\ntriggers = [ {{ on = \"attack_hit\", actions = [ {} ] }} ]\n", actions.join(", "))
    };
    let (spawn, shop) = ("{ action = \"spawn\", creature = \"m:imp\" }", "{ action = \"open_shop\", shop = \"m:stall\" }");
    let hex = "{ action = \"apply_status\", status = \"m:hex\", target = \"target\" }";
    let (crypt, ghoul) = ("\"m:crypt\"", "\"m:ghoul\"");
    let all = format!("{}{}", floor(crypt, ghoul), option(&[spawn, shop, hex]));
    let mut project = project_of(&[("m/defs.toml".into(), defs.into()), ("m/uses.toml".into(), all.clone())]);
    let fid = project.files.iter().find(|f| f.path.ends_with("uses.toml") && !f.bundled).map(|f| f.id).expect("uses.toml");
    let mut inc = Incremental::new(&project, lower_all(&project, 1));
    const CODES: [&str; 4] = ["prefab-never-used", "creature-never-met", "shop-never-opened", "status-never-applied"];
    let found = |diags: &[Diagnostic]| -> Vec<usize> { CODES.iter().map(|c| diags.iter().filter(|d| d.code.name() == *c).count()).collect() };
    let overridden =
        format!("{all}\n[[floors]]\noverrides = \"m:deep\"\nname = \"Deeper\"\ndepth = 1\nprefabs = [\"core:corridor\"]\ncreatures = [\"core:rat\"]\n");
    // Each text of uses.toml, with how many of each code it leaves.
    let steps: Vec<(String, [usize; 4])> = vec![
        (all.clone(), [0, 0, 0, 0]),
        (format!("{}{}", floor("", ghoul), option(&[spawn, shop, hex])), [1, 0, 0, 0]),
        (format!("{}{}", floor(crypt, ""), option(&[spawn, shop, hex])), [0, 1, 0, 0]),
        (format!("{}{}", floor(crypt, ghoul), option(&[shop, hex])), [0, 1, 0, 0]),
        (format!("{}{}", floor(crypt, ghoul), option(&[spawn, hex])), [0, 0, 1, 0]),
        (format!("{}{}", floor(crypt, ghoul), option(&[spawn, shop])), [0, 0, 0, 1]),
        (all.clone(), [0, 0, 0, 0]),
        (overridden, [1, 1, 0, 0]),
        (all.replace(crypt, "\"crypt\"").replace("\"m:hex\"", "\"hex\""), [0, 0, 0, 0]),
        (format!("{}{}", floor("", ""), option(&[])), [1, 2, 1, 1]),
        (format!("{}{}\n[[floors\n", floor("", ""), option(&[])), [0, 0, 0, 0]),
        (all, [0, 0, 0, 0]),
    ];
    let steps = steps.into_iter().map(|(text, want)| (fid, text, want.to_vec())).collect();
    each_edit_measures(&mut project, &mut inc, steps, found);
}

/// `renamed-reference` follows the entries the renames lead to: a reference written with an old
/// ID of `[renamed]` (an item, a loot table), the new ID taken away (the reference is unknown) and
/// given back, the old ID defined again (`renamed-id-exists`: the reference names it directly);
/// the incremental analysis agrees with a fresh check at every step.
#[test]
fn references_to_renamed_ids_follow_the_ids_they_lead_to() {
    let manifest = "[mod]\nid = \"m\"\nversion = \"1.0.0\"\n\n[renamed]\n\"m:cheese\" = \"m:wedge\"\n\"m:old_drops\" = \"m:drops\"\n";
    let items = "[[items]]\nid = \"m:wedge\"\nname = \"Wedge\"\n";
    let loot = "[[loot_tables]]\nid = \"m:drops\"\nentries = [ { item = \"m:wedge\", weight = 1 } ]\n\n\
                [[creatures]]\nid = \"m:rat\"\nname = \"Rat\"\nloot = \"m:drops\"\n\n\
                [[floors]]\nid = \"m:den\"\nname = \"Den\"\ndepth = 1\ncreatures = [\"m:rat\"]\n";
    let files = [("m/mod.toml", manifest), ("m/items.toml", items), ("m/loot.toml", loot)];
    let old_item = loot.replace("item = \"m:wedge\"", "item = \"m:cheese\"");
    let both_old = old_item.replace("loot = \"m:drops\"", "loot = \"m:old_drops\"");
    let steps = vec![
        ("loot.toml", old_item.clone(), 1),
        ("loot.toml", both_old.clone(), 2),
        // The item the old ID leads to is gone: that reference is unknown, the table's is not.
        ("items.toml", items.replace("\"m:wedge\"", "\"m:wedge2\""), 1),
        ("items.toml", items.to_string(), 2),
        // The old ID is defined again: the reference names that entry.
        ("items.toml", format!("{items}\n[[items]]\nid = \"m:cheese\"\nname = \"Cheese\"\n"), 1),
        ("items.toml", items.to_string(), 2),
        ("loot.toml", loot.to_string(), 0),
    ];
    step_through(&files, "renamed-reference", &steps);
}

/// The per-ID rules (`rules::PER_ID`) follow what they read in other files: a quest's
/// `start_quest` taken away and given back, a table's only use (written without its namespace,
/// then gone), the kind of a table that a table in another file nests, the fields an override
/// leaves out; the incremental analysis agrees with a fresh check at every step, with no wiring
/// of its own for any of them.
#[test]
fn the_per_id_findings_follow_what_they_read_elsewhere() {
    let defs = "[[quests]]\nid = \"m:hunt\"\nname = \"Hunt\"\non = \"creature_died\"\n\n\
                [[items]]\nid = \"m:gem\"\nname = \"Gem\"\nprice = 5\n\n\
                [[loot_tables]]\nid = \"m:gems\"\nentries = [ { item = \"m:gem\", weight = 1 } ]\n\n\
                [[loot_tables]]\nid = \"m:drops\"\nentries = [ { table = \"m:top\", weight = 1 } ]\n";
    let uses = |start: bool, loot: &str| {
        let actions = if start { "{ action = \"start_quest\", quest = \"m:hunt\" }" } else { "" };
        format!(
            "[[character_options]]\nid = \"m:hunter\"\nname = \"Hunter\"\non_create = [ {actions} ]\n\n\
             [[creatures]]\nid = \"m:rat\"\nname = \"Rat\"\n{loot}\n\n\
             [[floors]]\nid = \"m:den\"\nname = \"Den\"\ndepth = 1\ncreatures = [\"m:rat\"]\n\n\
             [[loot_tables]]\nid = \"m:top\"\nentries = [ {{ table = \"m:gems\", weight = 1 }}, {{ item = \"m:gem\", weight = 1 }} ]\n"
        )
    };
    let all = uses(true, "loot = \"m:drops\"");
    let mut project = project_of(&[("m/defs.toml".into(), defs.into()), ("m/uses.toml".into(), all.clone())]);
    let file = |project: &Project, name: &str| project.files.iter().find(|f| f.path.ends_with(name) && !f.bundled).map(|f| f.id).expect(name);
    let (defs_id, uses_id) = (file(&project, "defs.toml"), file(&project, "uses.toml"));
    let mut inc = Incremental::new(&project, lower_all(&project, 1));
    const CODES: [&str; 4] = ["quest-never-started", "unused-loot-table", "reference-kind-mismatch", "override-drops-field"];
    let found = |diags: &[Diagnostic]| -> Vec<usize> { CODES.iter().map(|c| diags.iter().filter(|d| d.code.name() == *c).count()).collect() };
    let affix_gems = defs.replace("entries = [ { item = \"m:gem\", weight = 1 } ]", "entries = [ { affix = \"core:flaming\", weight = 1 } ]");
    let override_gem = format!("{all}\n[[items]]\noverrides = \"m:gem\"\nname = \"Cut gem\"\n");
    let steps: Vec<(FileId, String, Vec<usize>)> = vec![
        (uses_id, all.clone(), vec![0, 0, 0, 0]),
        (uses_id, uses(false, "loot = \"m:drops\""), vec![1, 0, 0, 0]),
        (uses_id, all.clone(), vec![0, 0, 0, 0]),
        // Named without its namespace, the table is the one meant (its mistake is `invalid-id`).
        (uses_id, uses(true, "loot = \"drops\""), vec![0, 0, 0, 0]),
        (uses_id, uses(true, ""), vec![0, 1, 0, 0]),
        (uses_id, all.clone(), vec![0, 0, 0, 0]),
        // `m:gems` becomes an affix table: `m:top`, in the other file, nests a table of the other
        // kind.
        (defs_id, affix_gems, vec![0, 0, 1, 0]),
        (defs_id, defs.to_string(), vec![0, 0, 0, 0]),
        // An override in the other file that leaves out `price`.
        (uses_id, override_gem.clone(), vec![0, 0, 0, 1]),
        (uses_id, override_gem.replace("name = \"Cut gem\"", "name = \"Cut gem\"\nprice = 6"), vec![0, 0, 0, 0]),
        (uses_id, all, vec![0, 0, 0, 0]),
    ];
    each_edit_measures(&mut project, &mut inc, steps, found);
}

/// The per-reference rules read a scenario file's references as a fresh check does: whether its
/// IDs exist is its own rule's (against the mods it loads), but the loot table an `[[expect]]`
/// analyses must be an item table like any other use of a table. An affix table there, an item
/// table, the affix table again: the incremental analysis agrees with a fresh check each time.
#[test]
fn a_scenario_file_s_table_is_judged_as_in_a_fresh_check() {
    let dir = rustkeep_testutil::TempDir::new("incremental-scenario");
    let text = |table: &str| format!("[[expect]]\nloot = \"{table}\"\nitem = \"core:boss_blade\"\nchance = {{ at_least = 0.0 }}\n");
    let path = dir.write("s.toml", text("core:weapon_affixes").as_bytes());
    let mut project = rustkeep_data::project::load_scenario(&path, &[], &dir.0, &Overlay::new());
    let fid = project.scenarios.first().expect("the scenario is loaded").file;
    let mut inc = Incremental::new(&project, lower_all(&project, 1));
    let mismatches = |diags: &[Diagnostic]| diags.iter().filter(|d| d.code.name() == "reference-kind-mismatch").count();
    assert_eq!(mismatches(&inc.all_diagnostics(&project)), 1, "{:#?}", show(&project, &inc.all_diagnostics(&project)));
    let steps = vec![(fid, text("core:floor_3_table"), 0), (fid, text("core:weapon_affixes"), 1)];
    each_edit_measures(&mut project, &mut inc, steps, mismatches);
}

/// The did-you-mean of an `overrides` without a target follows the IDs defined before it in load
/// order, as a fresh check finds it: a closer ID added takes its place, and gives it back when it
/// goes; an ID defined after the override (later in the same mod) is never offered; the target
/// defined at last ends the finding.
#[test]
fn an_override_s_did_you_mean_follows_the_ids_defined_before_it() {
    let items = "[[items]]\nid = \"m:blaze\"\nname = \"Blaze\"\n";
    let over = "[[items]]\noverrides = \"m:blades\"\nname = \"Blades\"\n";
    let later = "[[items]]\nid = \"n:stone\"\nname = \"Stone\"\n";
    let files = [("m/items.toml", items), ("n/over.toml", over), ("n/zz.toml", later)];
    let closer = format!("{items}\n[[items]]\nid = \"m:blade\"\nname = \"Blade\"\n");
    let steps = vec![
        ("zz.toml", format!("{later}\n[[items]]\nid = \"n:blades\"\nname = \"Blades\"\n"), 1),
        ("items.toml", closer.clone(), 1),
        ("items.toml", items.to_string(), 1),
        ("items.toml", closer.replace("\"m:blade\"", "\"m:blad\""), 1),
        ("zz.toml", later.to_string(), 1),
        ("items.toml", closer.replace("\"m:blade\"", "\"m:blades\""), 0),
        ("items.toml", items.to_string(), 1),
    ];
    let project = project_of(&files.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect::<Vec<_>>());
    let fresh = analyze(&project);
    let first = fresh.diagnostics.iter().find(|d| d.code.name() == "override-missing-target").expect("the override misses its target");
    assert!(first.message.contains("did you mean `m:blaze`?"), "{}", first.message);
    step_through_from(&files, "override-missing-target", &steps, 1);
}

/// A scenario's checks against the data it runs on (a rule of `rules::WHOLE`, run again only when
/// what it reads of a file changes) follow edits of that data, as a fresh check finds them: a rat
/// that can spawn rats makes `enemy:1` possible, a rat renamed away leaves `creature = "core:rat"`
/// unknown, and two options put into one group conflict. An edit the checks do not read (a name)
/// keeps them; an edit of the scenario itself runs them again.
#[test]
fn a_scenario_s_checks_follow_the_data_it_reads() {
    let dir = rustkeep_testutil::TempDir::new("incremental-scenario-data");
    let scenario =
        "[player]\noptions = [\"core:warrior\", \"core:grave_digger\"]\n\n[[enemies]]\ncreature = \"core:rat\"\ncount = 1\n\n[[steps]]\nattack = \"enemy:1\"\n";
    let path = dir.write("s.toml", scenario.as_bytes());
    let mut project = rustkeep_data::project::load_scenario(&path, &[], &dir.0, &Overlay::new());
    let sfid = project.scenarios.first().expect("the scenario is loaded").file;
    let core = |name: &str| project.files.iter().find(|f| f.path.ends_with(name)).map(|f| (f.id, f.text.to_string())).expect("a core file");
    let (creatures, creatures_text) = core("creatures.toml");
    let (options, options_text) = core("character_options.toml");
    let rat = "id = \"core:rat\"\nname = \"Rat\"\n";
    assert!(creatures_text.contains(rat) && options_text.contains("group = \"background\""));
    let mut inc = Incremental::new(&project, lower_all(&project, 1));
    let found = |diags: &[Diagnostic]| {
        let of = |code: &str| diags.iter().filter(|d| d.loc.file == sfid && d.code.name() == code).count();
        (of("unknown-reference"), of("option-group-conflict"))
    };
    assert_eq!(found(&inc.all_diagnostics(&project)), (1, 0), "{:#?}", show(&project, &inc.all_diagnostics(&project)));
    let spawning = creatures_text.replacen(rat, &format!("{rat}ai = [ {{ actions = [ {{ action = \"spawn\", creature = \"core:rat\" }} ] }} ]\n"), 1);
    let renamed = creatures_text.replacen(rat, "id = \"core:rat_x\"\nname = \"Rat\"\n", 1);
    let one_group = options_text.replacen("group = \"background\"", "group = \"class\"", 1);
    let steps = vec![
        (creatures, creatures_text.replacen(rat, "id = \"core:rat\"\nname = \"Brown rat\"\n", 1), (1, 0)),
        (creatures, spawning, (0, 0)),
        (creatures, creatures_text.clone(), (1, 0)),
        (creatures, renamed, (2, 0)),
        (creatures, creatures_text, (1, 0)),
        (options, one_group, (1, 1)),
        (options, options_text, (1, 0)),
        // The scenario itself: without a finding to run for, its own change runs the checks.
        (sfid, scenario.replace("enemy:1", "enemy:0"), (0, 0)),
        (sfid, scenario.to_string(), (1, 0)),
    ];
    each_edit_measures(&mut project, &mut inc, steps, found);
}
