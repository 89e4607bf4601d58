//! Differential property tests: after a random (seeded, deterministic) sequence of edits through
//! the language server's state, the diagnostics it published equal those of a fresh
//! `rustkeep_check::analyze` of the same texts.
//!
//! - In one mod: inserts, deletes and replacements at arbitrary positions, inside multi-byte
//!   characters and past line ends included, with analyses interleaved; compared at the end.
//! - Across a generated workspace of 24 mods (`rustkeep_testutil::modpack`): definitions renamed,
//!   deleted and added, references pointed across mods, at nothing and back, loot tables nested
//!   into cycles and across kinds, tags, quests, `[balance]`, broken TOML; in open documents, in
//!   files changed on disk, in files opened with new text and closed again; and dependencies
//!   between mods broken and fixed in their manifests; slots, NPC placements, border doors and
//!   overridden fields taken away. Compared after every step, and so are the
//!   exact loot chances hover shows (kept between analyses) with the engine's over everything.
//!
//! The `lsp_edits` fuzz target (fuzz/) checks the same property on fuzzed edits.

mod common;

use std::collections::BTreeMap;

use common::*;
use rustkeep_check::analyze;
use rustkeep_data::project::{load, Overlay};
use rustkeep_data::text::{Encoding, LineIndex};
use rustkeep_engine::rng::Rng;
use rustkeep_lsp::lsp::*;
use rustkeep_lsp::uri;

const FILES: &[(&str, &str)] = &[
    (
        "items.toml",
        "# Waffen – Äxte und Schwerter 🗡\n[[items]]\nid = \"testmod:axe\"\nname = \"Äxt\"\nslot = \"weapon\"\n\n[[items]]\nid = \"testmod:sword\"\nname = \"Schwert 🔥\"\nslot = \"weapon\"\n",
    ),
    (
        "loot.toml",
        "[[loot_tables]]\r\nid = \"testmod:chest\"\r\nrolls = \"1-2\"\r\nentries = [\r\n  { item = \"testmod:axe\", weight = 3 },\r\n  { item = \"testmod:sword\", weight = 1 },\r\n  { nothing = true, weight = 4 },\r\n]\r\n\r\n[[creatures]]\r\nid = \"testmod:rat\"\r\nname = \"Ratte\"\r\nloot = \"testmod:chest\"\r\n",
    ),
    (
        "quests.toml",
        "[[quests]]\nid = \"testmod:hunt\"\nname = \"Jagd\"\non = \"creature_died\"\ncount = 3\nactions = [ { action = \"give_item\", item = \"testmod:sword\", target = \"self\" } ]\n\n[[npcs]]\nid = \"testmod:elder\"\nname = \"Älteste\"\non_talk = [ { action = \"start_quest\", quest = \"testmod:hunt\" } ]\n",
    ),
];

/// Text an edit may insert: valid fragments, typos, references that break or heal, and
/// characters that make positions hard.
const SNIPPETS: &[&str] = &[
    "testmod:axe",
    "testmod:axx",
    "testmod:chest",
    "core:gold",
    "\n[[items]]\nid = \"testmod:new\"\nname = \"Neu\"\n",
    "\n[[loot_tables]]\nid = \"testmod:other\"\nentries = [ { table = \"testmod:chest\", weight = 1 } ]\n",
    "weight = 0",
    "colour = 1\n",
    "on = \"creature_dyed\"",
    "ü",
    "🐀",
    "\r\n",
    "\r",
    "\n",
    "\"",
    "=",
    "[[",
    "# rustkeep: allow(unknown-reference)\n",
    "",
];

/// A position anywhere in `text`, counted in `enc`: usually on an existing line, sometimes past
/// its end or past the last line; columns may land inside a multi-byte character.
fn random_position(rng: &mut Rng, text: &str, enc: Encoding) -> Position {
    let idx = LineIndex::new(text);
    let lines = idx.line_count() as u64;
    let line = if rng.below(20) == 0 { lines + rng.below(3) } else { rng.below(lines) };
    let len = if line < lines {
        let span = idx.line_span(text, line as usize);
        let s = &text[span];
        match enc {
            Encoding::Utf8 => s.len(),
            _ => s.encode_utf16().count(),
        }
    } else {
        0
    } as u64;
    let character = if rng.below(10) == 0 { len + 1 + rng.below(50) } else { rng.below(len + 1) };
    Position { line: line as u32, character: character as u32 }
}

type Published = BTreeMap<String, Vec<(String, String, String, Range)>>;

fn key(d: &Diagnostic) -> (String, String, String, Range) {
    let code = match &d.code {
        Some(Code::String(s)) => s.clone(),
        other => panic!("string codes expected, got {other:?}"),
    };
    let Message::String(message) = &d.message else { panic!("plain messages expected") };
    (code, format!("{:?}", d.severity), message.clone(), d.range)
}

/// Keeps the latest list the server published for each file.
fn record(batch: Vec<(Uri, Vec<Diagnostic>, Option<i32>)>, published: &mut Published) {
    for (u, diags, _) in batch {
        published.insert(u.as_ref().to_string(), diags.iter().map(key).collect());
    }
}

/// Runs one case; returns how many diagnostics the final state has.
fn run_case(seed: u64) -> usize {
    let mut rng = Rng::seeded(seed);
    let enc = if rng.below(2) == 0 { Encoding::Utf16 } else { Encoding::Utf8 };
    let mut fx = Fixture::new(FILES, enc);
    let mut published: Published = BTreeMap::new();
    record(fx.state.take_publish(), &mut published);

    // Open some of the files (the others stay on disk and are only analysed).
    let mut open: Vec<&str> = Vec::new();
    for (rel, text) in FILES {
        if rng.below(4) != 0 {
            fx.state.open(fx.path(rel), text.to_string(), 1);
            open.push(rel);
        }
    }
    if open.is_empty() {
        fx.state.open(fx.path(FILES[0].0), FILES[0].1.to_string(), 1);
        open.push(FILES[0].0);
    }

    let steps = 5 + rng.below(20);
    for step in 0..steps {
        let rel = open[rng.below(open.len() as u64) as usize];
        let path = fx.path(rel);
        let text = fx.state.docs[&path].text.clone();
        let start = random_position(&mut rng, &text, enc);
        let end = match rng.below(3) {
            0 => start,
            _ => random_position(&mut rng, &text, enc),
        };
        let (start, end) = if (start.line, start.character) <= (end.line, end.character) { (start, end) } else { (end, start) };
        let insert = SNIPPETS[rng.below(SNIPPETS.len() as u64) as usize].to_string();
        let change = TextDocumentContentChangeEvent::TextDocumentContentChangePartial(TextDocumentContentChangePartial {
            range: Range { start, end },
            #[allow(deprecated)]
            range_length: None,
            text: insert,
        });
        assert!(fx.state.change(&path, step as i32 + 2, vec![change]));
        if rng.below(3) == 0 {
            record(fx.state.take_publish(), &mut published);
        }
    }
    record(fx.state.take_publish(), &mut published);

    // A fresh check of the same texts: the open buffers over the files on disk.
    let (fresh, _) = fresh_lists(&fx.root, &fx.state, enc);
    let texts: Vec<String> = open.iter().map(|rel| fx.state.docs[&fx.path(rel)].text.clone()).collect();
    assert_eq!(published, fresh, "seed {seed} ({enc:?}): the server and a fresh check disagree; final texts: {texts:#?}");
    published.values().map(Vec::len).sum()
}

#[test]
fn published_diagnostics_equal_a_fresh_check_after_random_edits() {
    let mut with_diagnostics = 0;
    for seed in 0..50 {
        with_diagnostics += usize::from(run_case(seed) > 0);
    }
    // The edits break things often enough for the comparison to mean something.
    assert!(with_diagnostics >= 25, "only {with_diagnostics} of 50 cases ended with diagnostics");
}

/// Every file's list as a fresh check reports it, keyed like [`Published`]; and the fresh model's
/// loot-table kinds.
fn fresh_lists(root: &std::path::Path, state: &rustkeep_lsp::state::State, enc: Encoding) -> (Published, BTreeMap<String, String>) {
    let overlay: Overlay = state.docs.iter().map(|(p, d)| (p.clone(), std::sync::Arc::from(d.text.as_str()))).collect();
    let project = load(&[root.to_path_buf()], root, &overlay);
    let analysis = analyze(&project);
    let mut fresh: Published = BTreeMap::new();
    for f in project.files.iter().filter(|f| !f.bundled) {
        if let Some(p) = &f.disk_path {
            fresh.insert(uri::from_path(p).as_ref().to_string(), Vec::new());
        }
    }
    for d in &analysis.diagnostics {
        let f = project.file(d.loc.file);
        let Some(p) = &f.disk_path else { continue };
        let pos = |o| {
            let lc = f.index.position(&f.text, o, enc);
            Position { line: lc.line, character: lc.col }
        };
        let severity = match d.severity {
            rustkeep_data::diag::Severity::Error => Some(DiagnosticSeverity::Error),
            rustkeep_data::diag::Severity::Warning => Some(DiagnosticSeverity::Warning),
        };
        let entry = fresh.entry(uri::from_path(p).as_ref().to_string()).or_default();
        entry.push((d.code.name().to_string(), format!("{severity:?}"), d.message.clone(), Range { start: pos(d.loc.span.start), end: pos(d.loc.span.end) }));
    }
    (fresh, kinds(&analysis.db))
}

fn kinds(db: &rustkeep_data::db::Database) -> BTreeMap<String, String> {
    db.table_kinds.iter().map(|(k, v)| (k.clone(), v.as_str().to_string())).collect()
}

fn whole(text: String) -> Vec<TextDocumentContentChangeEvent> {
    vec![TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(TextDocumentContentChangeWholeDocument { text })]
}

/// Runs one case on the generated workspace; returns how many steps ended with diagnostics, and
/// adds the codes published at some step to `seen`.
fn run_workspace_case(seed: u64, seen: &mut std::collections::BTreeSet<String>) -> usize {
    use rustkeep_testutil::modpack::{defined_ids, edit_data, edit_manifest, workspace, Gen};
    let mut g = Gen::new(seed);
    let enc = if g.chance(50) { Encoding::Utf16 } else { Encoding::Utf8 };
    let root = TempDir::new("modpack");
    let files = workspace(24);
    for (rel, text) in &files {
        root.write(rel, text);
    }
    let originals: BTreeMap<std::path::PathBuf, String> = files.iter().map(|(rel, text)| (root.join(rel), text.clone())).collect();
    let data: Vec<std::path::PathBuf> = originals.keys().filter(|p| !p.ends_with("mod.toml")).cloned().collect();
    let manifests: Vec<std::path::PathBuf> = originals.keys().filter(|p| p.ends_with("mod.toml")).cloned().collect();
    let (mut state, _core) = state_with_core(&root, enc);
    let mut published: Published = BTreeMap::new();
    record(state.take_publish(), &mut published);
    let mut version = 1;
    let mut with_diagnostics = 0;
    for step in 0..30 {
        // The current text of a file: the open buffer's, else what is on disk.
        let current = |state: &rustkeep_lsp::state::State, p: &std::path::Path| {
            state.docs.get(p).map(|d| d.text.clone()).unwrap_or_else(|| std::fs::read_to_string(p).unwrap())
        };
        version += 1;
        let what = g.below(20);
        if what < 2 {
            // A dependency between mods broken or fixed (the manifest is edited in the editor).
            let m = g.pick(&manifests).unwrap().clone();
            let new = edit_manifest(&mut g, &current(&state, &m), &originals[&m]);
            if state.docs.contains_key(&m) {
                assert!(state.change(&m, version, whole(new)));
            } else {
                state.open(m, new, version);
            }
        } else {
            let p = g.pick(&data).unwrap().clone();
            let texts: Vec<String> = data.iter().map(|d| current(&state, d)).collect();
            let ids = defined_ids(&texts.iter().map(String::as_str).collect::<Vec<_>>());
            let new = edit_data(&mut g, &current(&state, &p), &originals[&p], &ids);
            match (state.docs.contains_key(&p), what) {
                // Closed again: what is on disk is in force.
                (true, 2..=3) => state.close(&p),
                (true, _) => assert!(state.change(&p, version, whole(new))),
                // Changed on disk by another program.
                (false, 4..=7) => {
                    std::fs::write(&p, &new).unwrap();
                    state.disk_changed(std::slice::from_ref(&p));
                }
                (false, _) => state.open(p.clone(), new, version),
            }
        }
        record(state.take_publish(), &mut published);
        let (fresh, fresh_kinds) = fresh_lists(&root, &state, enc);
        assert_eq!(published, fresh, "seed {seed}, step {step} ({enc:?}): the server and a fresh check disagree");
        assert_eq!(kinds(state.db()), fresh_kinds, "seed {seed}, step {step}: the loot-table kinds differ");
        // Loot chances for hover, kept across analyses, equal the engine's over the whole workspace.
        let whole = rustkeep_engine::loot::LootDb::new(state.db());
        let mut tables: Vec<String> = state.db().resolved.defs[rustkeep_data::vocab::Registry::LootTables.index()].keys().cloned().collect();
        tables.sort();
        for id in tables.iter().filter(|t| t.starts_with('w')) {
            // The server's reports leave out the affix chances (its hover shows the drops).
            let want = whole.analyze(id, 0.0).map(|mut r| {
                r.drops.iter_mut().for_each(|d| d.affixes.clear());
                r
            });
            assert_eq!(*state.loot_report(id), want, "seed {seed}, step {step}: the loot chances of `{id}`");
        }
        with_diagnostics += usize::from(published.values().any(|l| !l.is_empty()));
        seen.extend(published.values().flatten().map(|(code, ..)| code.clone()));
    }
    with_diagnostics
}

#[test]
fn across_a_24_mod_workspace_published_diagnostics_equal_a_fresh_check_after_every_edit() {
    let runs: u64 = std::env::var("RUSTKEEP_DIFFERENTIAL_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(6);
    let mut with_diagnostics = 0;
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..runs {
        with_diagnostics += run_workspace_case(seed, &mut seen);
    }
    // The rules about things that never happen were exercised (their diagnostics came and went
    // with the edits, and every step was compared).
    for code in ["npc-never-placed", "trigger-never-active", "override-drops-field", "floor-without-exit", "item-never-obtainable"] {
        assert!(seen.contains(code), "no step published `{code}`; seen: {seen:?}");
    }
    // Most steps leave something to report, so the comparison means something.
    assert!(with_diagnostics as u64 >= runs * 15, "only {with_diagnostics} steps of {} ended with diagnostics", runs * 30);
}

/// Plays `steps` on the workspace `root` of the two data files `files`: each step edits one of
/// them in the editor while the other is closed (only its outline is kept). After every step the
/// published lists must equal a fresh check's, and `check` looks at them with the step's number
/// and what the step expects.
fn edit_one_with_the_other_closed<W>(
    root: &std::path::Path,
    files: [&std::path::PathBuf; 2],
    steps: Vec<(&std::path::Path, String, W)>,
    check: impl Fn(usize, &Published, W),
) {
    let (mut state, _core) = state_with_core(root, Encoding::Utf8);
    let mut published: Published = BTreeMap::new();
    record(state.take_publish(), &mut published);
    for (i, (path, text, want)) in steps.into_iter().enumerate() {
        let version = i as i32 + 2;
        for other in files {
            if other.as_path() != path && state.docs.contains_key(other.as_path()) {
                state.close(other);
            }
        }
        if state.docs.contains_key(path) {
            assert!(state.change(path, version, whole(text)));
        } else {
            state.open(path.to_path_buf(), text, version);
        }
        record(state.take_publish(), &mut published);
        let (fresh, _) = fresh_lists(root, &state, Encoding::Utf8);
        assert_eq!(published, fresh, "step {i}: the server and a fresh check disagree");
        check(i, &published, want);
    }
}

/// The whole-set rules read the files no editor shows from their outlines, which cut the fields
/// of entries: the `when` filters, the `give_item`s and the items' `use` of a closed file count as
/// they do in a fresh check, while the other file takes what they depend on away and back.
#[test]
fn the_filters_and_gifts_of_closed_files_count_as_in_a_fresh_check() {
    let root = TempDir::new("outlined");
    let heal = "actions = [ { action = \"heal\", amount = 1, target = \"self\" } ]";
    let items = format!(
        "[[items]]\nid = \"m:lamp\"\nname = \"Lamp\"\nuse = [ {{ action = \"heal\", amount = 1, target = \"self\" }} ]\n\n\
         [[items]]\nid = \"m:relic\"\nname = \"Relic\"\n\n\
         [[character_options]]\nid = \"m:pilgrim\"\nname = \"Pilgrim\"\non_create = [ {{ action = \"give_item\", item = \"m:lamp\", target = \"self\" }} ]\n\
         triggers = [ {{ on = \"item_used\", when = {{ item = \"m:lamp\" }}, {heal} }}, {{ on = \"room_entered\", when = {{ prefab = \"m:hall\" }}, {heal} }}, \
         {{ on = \"npc_talked\", when = {{ npc = \"m:sage\" }}, {heal} }}, {{ on = \"quest_completed\", when = {{ quest = \"m:rite\" }}, {heal} }} ]\n"
    );
    let world = "[[floors]]\nid = \"m:depths\"\nname = \"Depths\"\ndepth = 1\nprefabs = [\"m:hall\"]\n\n\
                 [[prefabs]]\nid = \"m:hall\"\nnpcs = [\"m:sage\"]\ngrid = \"\"\"\n#####\n#.n.#\n#.@.#\n##+##\n\"\"\"\n\n\
                 [[npcs]]\nid = \"m:sage\"\nname = \"Sage\"\non_talk = [ { action = \"start_quest\", quest = \"m:rite\" }, { action = \"give_item\", item = \"m:relic\", target = \"self\" } ]\n\n\
                 [[quests]]\nid = \"m:rite\"\nname = \"Rite\"\non = \"creature_died\"\n";
    root.write("m/mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n");
    root.write("m/items.toml", &items);
    root.write("m/world.toml", world);
    let (items_path, world_path) = (root.join("m/items.toml"), root.join("m/world.toml"));
    // Each step: the file edited in the editor (the other one is closed), its new text, and the
    // codes of the two rules then published.
    let steps: Vec<(&std::path::Path, String, &[&str])> = vec![
        (&items_path, items.clone(), &[]),
        (&items_path, items.replacen("use = [", "# use = [", 1), &["when-never-matches"]),
        (&items_path, items.clone(), &[]),
        (&world_path, world.replace("\"give_item\", item = \"m:relic\"", "\"take_item\", item = \"m:relic\""), &["item-never-obtainable"]),
        (&world_path, world.replace("prefabs = [\"m:hall\"]", "prefabs = []"), &["when-never-matches"]),
        (&world_path, world.replace("npcs = [\"m:sage\"]", "npcs = []").replace("#.n.#", "#...#"), &["when-never-matches"]),
        (&world_path, world.replace("quest = \"m:rite\"", "quest = \"m:nothing\""), &["when-never-matches"]),
        (&world_path, world.to_string(), &[]),
    ];
    edit_one_with_the_other_closed(&root, [&items_path, &world_path], steps, |i, published, want| {
        let got: Vec<&str> =
            published.values().flatten().map(|(code, ..)| code.as_str()).filter(|c| ["when-never-matches", "item-never-obtainable"].contains(c)).collect();
        assert_eq!(got, want, "step {i}: {published:#?}");
    });
}

/// The absences of rooms, creatures, shops and statuses read a closed file's floors (their
/// `prefabs` and `creatures`, which outlines keep) and its `spawn`, `open_shop` and
/// `apply_status` actions (from its references): they count as in a fresh check, while the open
/// file takes each of them away and gives it back.
#[test]
fn the_floors_and_actions_of_closed_files_bring_entries_into_play_as_in_a_fresh_check() {
    let root = TempDir::new("absences");
    let defs = "[[prefabs]]\nid = \"m:crypt\"\ngrid = \"\"\"\n#####\n#@.e#\n##+##\n\"\"\"\n\n\
                [[creatures]]\nid = \"m:ghoul\"\nname = \"Ghoul\"\n\n[[creatures]]\nid = \"m:imp\"\nname = \"Imp\"\n\n\
                [[shops]]\nid = \"m:stall\"\nname = \"Stall\"\n\n[[statuses]]\nid = \"m:hex\"\nname = \"Hexed\"\nturns = 2\n";
    let uses = "[[floors]]\nid = \"m:deep\"\nname = \"Deep\"\ndepth = 1\nprefabs = [\"m:crypt\"]\ncreatures = [\"m:ghoul\"]\n\n\
                [[character_options]]\nid = \"m:seer\"\nname = \"Seer\"\ntriggers = [ { on = \"attack_hit\", actions = [ \
                { action = \"spawn\", creature = \"m:imp\" }, { action = \"open_shop\", shop = \"m:stall\" }, \
                { action = \"apply_status\", status = \"m:hex\", target = \"target\" } ] } ]\n";
    root.write("m/mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n");
    root.write("m/defs.toml", defs);
    root.write("m/uses.toml", uses);
    let (defs_path, uses_path) = (root.join("m/defs.toml"), root.join("m/uses.toml"));
    const CODES: [&str; 4] = ["prefab-never-used", "creature-never-met", "shop-never-opened", "status-never-applied"];
    // Each step: the file edited in the editor (the other one stays closed), its new text, and
    // how many warnings of the four rules are then published.
    let steps: Vec<(&std::path::Path, String, usize)> = vec![
        (&defs_path, defs.to_string(), 0),
        (&defs_path, format!("{defs}\n[[statuses]]\nid = \"m:curse\"\nname = \"Cursed\"\n"), 1),
        (&defs_path, defs.to_string(), 0),
        (&uses_path, uses.replace("creatures = [\"m:ghoul\"]", "creatures = []"), 1),
        (&uses_path, uses.replace("prefabs = [\"m:crypt\"]", "prefabs = [\"core:corridor\"]"), 1),
        (&uses_path, uses.replace("\"m:imp\"", "\"m:ghoul\"").replace("\"m:stall\"", "\"m:nothing\""), 2),
        (&uses_path, uses.replace("apply_status", "heal\", amount = 1, what = \"x"), 1),
        (&uses_path, uses.to_string(), 0),
        (&defs_path, format!("{defs}\n[[shops]]\nid = \"m:kiosk\"\nname = \"Kiosk\"\n"), 1),
        (&defs_path, defs.to_string(), 0),
    ];
    edit_one_with_the_other_closed(&root, [&defs_path, &uses_path], steps, |i, published, warned| {
        let codes: Vec<&str> = published.values().flatten().map(|(code, ..)| code.as_str()).collect();
        let found = codes.iter().filter(|c| CODES.contains(c)).count();
        assert_eq!(found, warned, "step {i}: {codes:?}");
    });
}
