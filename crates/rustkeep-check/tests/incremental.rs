//! The incremental analysis (what the language server keeps) against a fresh check.
//!
//! - On every fixture, the examples and the core: built at once, it reports exactly what
//!   `analyze` reports.
//! - On a generated workspace of 24 mods (`rustkeep_testutil::modpack`), after every one of a
//!   seeded sequence of random edits (renamed, deleted and added definitions, references pointed
//!   elsewhere or at nothing and back, tables nested into cycles or across kinds, tags, quests,
//!   `[balance]`, broken TOML, allow comments, text spliced anywhere), applied one or several
//!   files at a time: its diagnostics, its registries in force and its loot-table kinds equal a
//!   fresh analysis of the same texts.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustkeep_check::incremental::Incremental;
use rustkeep_check::{analyze, lower_all, lower_source, Analysis};
use rustkeep_data::diag::Diagnostic;
use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_data::source::{FileId, FileKind, SourceFile};
use rustkeep_data::text::LineIndex;
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

fn set_text(project: &mut Project, fid: FileId, text: &str) {
    let f = &mut project.files[fid.0 as usize];
    let (t, bad) = SourceFile::decode(text.as_bytes());
    f.index = Arc::new(LineIndex::new(&t));
    f.text = t;
    f.invalid_utf8_at = bad;
}

#[test]
fn after_every_random_edit_it_equals_a_fresh_check() {
    let files = workspace(24);
    let base = project_of(&files);
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
        }
        with_diagnostics += usize::from(!inc.all_diagnostics(&project).is_empty());
    }
    assert!(with_diagnostics as u64 * 2 >= runs, "the edits should leave diagnostics behind in most runs");
    for code in ["npc-never-placed", "trigger-never-active", "override-drops-field", "floor-without-exit", "unused-loot-table", "loot-table-cycle"] {
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
        set_text(&mut project, fid, &text);
        inc.update(&project, vec![(fid, lower_source(project.file(fid)))]);
        let fresh = analyze(&project);
        assert_same(&project, &inc, &fresh, &text);
        assert_eq!(fresh.diagnostics.iter().any(|d| d.code.name() == "unknown-reference"), unknown, "{:#?}", show(&project, &fresh.diagnostics));
        if unknown {
            noted(&project, &fresh.diagnostics);
        }
    }
}

/// `trigger-never-active` of an affix is found backward in the incremental analysis (from the
/// affix to the tables that name it, the tables that nest those, and the item entries that name
/// any of them in `affixes =`), forward in a fresh check: each link of the chain cut and restored
/// in turn gives both the same diagnostics, and the affix is reported exactly while a link is cut.
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
    for (fid, text, cut) in cuts {
        set_text(&mut project, fid, &text);
        inc.update(&project, vec![(fid, lower_source(project.file(fid)))]);
        let fresh = analyze(&project);
        assert_same(&project, &inc, &fresh, &text);
        assert_eq!(never_active(&fresh.diagnostics), cut, "{text}\n{:#?}", show(&project, &fresh.diagnostics));
    }
}
