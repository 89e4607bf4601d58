//! Balance figures in the editor (docs/editors/lsp.md, "Balance lenses"): the lenses above
//! creatures and loot tables, the creature's hover, `rustkeep.showBalance`, and what an edit
//! computes again.
//!
//! In process, the state makes the jobs and a worker runs them on the test's thread, so that the
//! figures can be compared with the arena and the loot analysis of the whole workspace; then the
//! real server, driven over pipes as an editor drives it, shows them, refreshes them after an
//! edit, and answers the hover and the command.

mod common;

use std::path::Path;
use std::sync::Mutex;

use common::client;
use common::*;
use rustkeep_data::number::percent;
use rustkeep_data::text::Encoding;
use rustkeep_engine::arena;
use rustkeep_engine::game::World;
use rustkeep_lsp::balance::{self, Job, Store, Target, Worker};
use rustkeep_lsp::lsp::{TextDocumentContentChangeEvent, TextDocumentContentChangeWholeDocument};
use rustkeep_lsp::state::State;
use serde_json::{json, Value};

/// A state over the two example mods with `files` open: the state, the workspace and the folder
/// of the core.
fn examples_with_open(files: &[&str]) -> (State, TempDir, TempDir) {
    let ws = examples_workspace(&["rat_catcher", "fire_and_thorns"]);
    let (mut state, core) = state_with_core(&ws, Encoding::Utf16);
    for f in files {
        open(&mut state, &ws.join(f));
    }
    (state, ws, core)
}

fn open(state: &mut State, path: &Path) {
    let text = std::fs::read_to_string(path).unwrap();
    state.open(path.to_path_buf(), text, 1);
    state.refresh();
}

/// Edits an open document: `from` replaced by `to`.
fn edit(state: &mut State, path: &Path, from: &str, to: &str) {
    let text = state.docs[path].text.clone();
    assert!(text.contains(from), "`{from}` not in {}", path.display());
    let version = state.docs[path].version + 1;
    state.change(
        path,
        version,
        vec![TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(TextDocumentContentChangeWholeDocument {
            text: text.replacen(from, to, 1),
        })],
    );
    state.refresh();
}

/// The keys of a job, by `(creature, option)` or `(table, "")`.
fn keys(job: &Job) -> std::collections::BTreeMap<(String, String), u64> {
    let mut out = std::collections::BTreeMap::new();
    for t in &job.targets {
        match t {
            Target::Creature { id, cells, .. } => {
                for (o, k) in cells {
                    out.insert((id.clone(), o.clone()), *k);
                }
            }
            Target::Table { id, key, .. } => {
                out.insert((id.clone(), String::new()), *key);
            }
        }
    }
    out
}

/// Makes the state's job and runs it to its end; the job's keys.
fn bring_up_to_date(state: &State, worker: &mut Worker) -> std::collections::BTreeMap<(String, String), u64> {
    let job = state.balance_job(0, &|| false).expect("the open documents define creatures or tables");
    assert!(worker.run(&job, &|| {}), "nothing cancels the job");
    keys(&job)
}

fn counts(store: &Mutex<Store>) -> (u64, u64) {
    let s = store.lock().unwrap();
    (s.computed_cells, s.computed_tables)
}

#[test]
fn the_figures_are_the_arenas_and_the_loot_analysiss_of_the_whole_workspace() {
    let (state, _ws, _core) =
        examples_with_open(&["rat_catcher/creatures.toml", "fire_and_thorns/creatures.toml", "rat_catcher/loot.toml", "fire_and_thorns/loot.toml"]);
    let store = state.balance.clone();
    let mut worker = Worker::new(store.clone());
    let wanted = bring_up_to_date(&state, &mut worker);

    // The whole workspace, lowered in full, as `rustkeep arena --matrix --runs 1000` sees it.
    let valid = rustkeep_check::validate(&state.project).expect("the examples are valid");
    let world = World::new(state.project.clone(), valid);
    let creatures: Vec<String> =
        wanted.keys().filter(|(_, o)| !o.is_empty()).map(|(c, _)| c.clone()).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    assert_eq!(
        creatures,
        ["core:fire_imp", "fire_and_thorns:ember_hound", "rat_catcher:sewer_rat", "rat_catcher:warren_queen"],
        "every creature of the open files"
    );
    let matrix = arena::matrix_of(&world, creatures.clone(), balance::FIGHTS, balance::SEED, balance::ROUNDS);
    assert_eq!(matrix.options.len(), 5, "the core's five options are all shown");
    let s = store.lock().unwrap();
    for (ci, c) in creatures.iter().enumerate() {
        let row = balance::figures_of(&s, c);
        assert_eq!(row.len(), matrix.options.len(), "{c}: a cell per option");
        for (oi, o) in matrix.options.iter().enumerate() {
            let (rate, rounds) = matrix.cells[ci][oi];
            let cell = &row[o];
            assert_eq!(cell.runs, balance::FIGHTS);
            assert_eq!(cell.win_rate(), rate, "{c} × {o}: the lens's win rate is the matrix's");
            assert!((cell.mean_rounds - rounds).abs() < 1e-9, "{c} × {o}: mean rounds {} vs {rounds}", cell.mean_rounds);
        }
        // The lens names each option by its local name, with its win rate written as the hover
        // writes it (and as every chance is written: `rustkeep_data::number::percent`).
        let title = balance::creature_title(&s, c);
        let warrior = matrix.options.iter().position(|o| o == "core:warrior").unwrap();
        let shown = percent(matrix.cells[ci][warrior].0);
        assert!(title.contains(&format!("warrior {shown}")), "{title}");
        let hover = balance::creature_markdown(&s, c, false);
        assert!(hover.contains(&format!("| `core:warrior` | {shown}")), "{hover}");
        assert!(title.ends_with("(1,000 fights)"), "{title}");
    }
    // Tables: the expected items of a roll and the likeliest drop, from the exact analysis.
    let tables: Vec<&String> = wanted.keys().filter(|(_, o)| o.is_empty()).map(|(t, _)| t).collect();
    assert!(tables.len() >= 4, "{tables:?}");
    for t in tables {
        let title = balance::table_title(&s, t);
        match world.loot.analyze(t, 0.0) {
            Ok(r) => {
                let items: f64 = r.drops.iter().map(|d| d.expected).sum();
                assert!(title.starts_with("per roll: "), "{title}");
                let first = &r.drops[0];
                let chance = percent(first.p_any);
                assert!(title.contains(&format!(" · {} {chance}", first.id)), "{t}: {title} names the likeliest drop {}", first.id);
                let report = balance::table_markdown(&s, t);
                assert!(report.contains(&format!("| `{}` | {chance} |", first.id)), "{report}");
                assert!(items > 0.0);
            }
            Err(e) => assert!(title.contains("cannot be computed"), "{t}: {e}: {title}"),
        }
    }
}

#[test]
fn an_edit_computes_again_only_the_figures_it_changes() {
    let (mut state, ws, _core) = examples_with_open(&["rat_catcher/creatures.toml"]);
    let creatures = ws.join("rat_catcher/creatures.toml");
    let store = state.balance.clone();
    let mut worker = Worker::new(store.clone());
    let before = bring_up_to_date(&state, &mut worker);
    let (cells, tables) = counts(&store);
    assert_eq!(cells as usize, before.len() - tables as usize, "the first job computes every figure once");

    // Nothing changed: nothing is computed.
    bring_up_to_date(&state, &mut worker);
    assert_eq!(counts(&store), (cells, tables));

    // A creature's attribute: its row only.
    edit(&mut state, &creatures, "max_health = 6,", "max_health = 9,");
    let after = bring_up_to_date(&state, &mut worker);
    let changed: Vec<&(String, String)> = before.keys().filter(|k| before[k] != after[k]).collect();
    assert!(!changed.is_empty() && changed.iter().all(|(c, _)| c == "rat_catcher:sewer_rat" || c == "rat_catcher:warren_queen"), "{changed:?}");
    assert!(changed.iter().any(|(c, _)| c == "rat_catcher:sewer_rat"));
    assert_eq!(counts(&store).0, cells + changed.len() as u64, "exactly the changed cells ran");

    // An item a starting option gives, overridden by the mod: that option's cells, and the
    // figures are those of the whole workspace with the override.
    let items = ws.join("rat_catcher/items.toml");
    open(&mut state, &items);
    let (cells, _) = counts(&store);
    let before = bring_up_to_date(&state, &mut worker);
    assert_eq!(counts(&store).0, cells, "opening a file changes no figure");
    let text = state.docs[&items].text.clone();
    let sword = "\n[[items]]\noverrides = \"core:iron_sword\"\nname = \"Iron Sword\"\nglyph = \")\"\ncolor = \"white\"\ntags = [\"core:blade\"]\nprice = 30\nslot = \"weapon\"\nmodifiers = [ { attribute = \"damage\", add = 12 } ]\n";
    edit(&mut state, &items, &text, &format!("{text}{sword}"));
    let after = bring_up_to_date(&state, &mut worker);
    let changed: Vec<&(String, String)> = before.keys().filter(|k| after.get(*k) != Some(&before[*k])).collect();
    assert!(changed.iter().any(|(_, o)| o == "core:warrior"), "the warrior carries the sword: {changed:?}");
    assert!(
        !changed.iter().any(|(c, o)| o == "core:mage" && c == "rat_catcher:sewer_rat"),
        "the mage's cell against the rat does not read the sword: {changed:?}"
    );
    assert_eq!(counts(&store).0, cells + changed.len() as u64);
    let analysis = rustkeep_check::analyze(&state.project);
    assert!(analysis.diagnostics.iter().all(|d| d.severity != rustkeep_data::diag::Severity::Error), "{:?}", analysis.diagnostics);
    let world = World::new(state.project.clone(), analysis.into_valid(&state.project).expect("no errors"));
    let queen = "rat_catcher:warren_queen".to_string();
    let matrix = arena::matrix_of(&world, vec![queen.clone()], balance::FIGHTS, balance::SEED, balance::ROUNDS);
    let warrior = matrix.options.iter().position(|o| o == "core:warrior").unwrap();
    assert_eq!(balance::figures_of(&store.lock().unwrap(), &queen)["core:warrior"].win_rate(), matrix.cells[0][warrior].0);

    // An entry nothing shown reads: nothing.
    let (cells, tables) = counts(&store);
    let quests = ws.join("rat_catcher/quests.toml");
    open(&mut state, &quests);
    let text = state.docs[&quests].text.clone();
    edit(&mut state, &quests, &text, &format!("{text}\n# a note\n"));
    bring_up_to_date(&state, &mut worker);
    assert_eq!(counts(&store), (cells, tables));
}

#[test]
fn a_newer_edit_cancels_the_job_under_way_and_keeps_what_it_finished() {
    let (state, _ws, _core) = examples_with_open(&["rat_catcher/creatures.toml"]);
    let store = state.balance.clone();
    let mut worker = Worker::new(store.clone());
    let job = state.balance_job(0, &|| false).unwrap();
    // The edits counter moves past the job's: it gives up before its first fight.
    worker.edits().fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    assert!(!worker.run(&job, &|| {}), "a stale job stops");
    assert_eq!(counts(&store).0, 0);
    assert!(balance::creature_title(&store.lock().unwrap(), "rat_catcher:sewer_rat").starts_with("balance: computing"));
    let job = state.balance_job(1, &|| false).unwrap();
    assert!(worker.run(&job, &|| {}));
    assert!(store.lock().unwrap().settled());
}

#[test]
fn a_turn_gives_way_to_waiting_work_and_the_next_goes_on() {
    let (mut state, ws, _core) = examples_with_open(&["rat_catcher/creatures.toml"]);
    let store = state.balance.clone();
    let balance = balance::Balance::new(store.clone(), || {});
    let job = state.balance_job(0, &|| false).unwrap();
    assert_eq!(balance.turn(&job, &|| true), balance::Turn::Yielded, "other work waits: the turn ends at once");
    assert_eq!(counts(&store).0, 0);
    // Waiting work that shows up after some fights: the cells finished so far are kept.
    let asked = std::sync::atomic::AtomicU64::new(0);
    let turn = balance.turn(&job, &|| asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst) > 40);
    assert_eq!(turn, balance::Turn::Yielded);
    let after_first = counts(&store).0;
    assert_eq!(balance.turn(&job, &|| false), balance::Turn::Done);
    let total = counts(&store).0;
    assert!(after_first < total && total == 10, "{after_first} then {total}: two creatures × five options, each cell once");
    // A job made before a newer edit is stale: it computes nothing.
    let creatures = ws.join("rat_catcher/creatures.toml");
    edit(&mut state, &creatures, "max_health = 6,", "max_health = 9,");
    let job = state.balance_job(0, &|| false).unwrap();
    balance.edited();
    assert_eq!(balance.turn(&job, &|| false), balance::Turn::Stale);
    assert_eq!(counts(&store).0, total);
    let job = state.balance_job(1, &|| false).unwrap();
    assert_eq!(balance.turn(&job, &|| false), balance::Turn::Done);
    assert_eq!(counts(&store).0, total + 10, "the sewer rat's row, and the queen's: she spawns sewer rats");
}

#[test]
fn broken_data_gives_figures_or_a_reason_never_a_panic() {
    let ws = TempDir::with_files("balance-broken", &[("m/mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n")]);
    let data = "[[creatures]]\nid = \"m:ghost\"\nname = \"Ghost\"\nattributes = { max_health = \"many\" }\nloot = \"m:nowhere\"\n\n\
                [[loot_tables]]\nid = \"m:loop_a\"\nrolls = 1\nentries = [ { table = \"m:loop_b\", weight = 1 } ]\n\n\
                [[loot_tables]]\nid = \"m:loop_b\"\nrolls = 1\nentries = [ { table = \"m:loop_a\", weight = 1 } ]\n\n[[creatures]\nid = \"m:half\"\n";
    ws.write("m/data.toml", data);
    let (mut state, _core) = state_with_core(&ws, Encoding::Utf16);
    open(&mut state, &ws.join("m/data.toml"));
    let store = state.balance.clone();
    let mut worker = Worker::new(store.clone());
    bring_up_to_date(&state, &mut worker);
    let s = store.lock().unwrap();
    let ghost = balance::creature_title(&s, "m:ghost");
    assert!(ghost.ends_with("(1,000 fights)"), "{ghost}");
    let lop = balance::table_title(&s, "m:loop_a");
    assert!(lop.contains("cannot be computed"), "{lop}");
}

#[test]
fn the_server_shows_the_lenses_refreshes_them_after_an_edit_and_answers_hover_and_command() {
    let ws = examples_workspace(&["rat_catcher", "fire_and_thorns"]);
    let file = ws.join("rat_catcher/creatures.toml");
    let u = file_uri(&file);
    let text = std::fs::read_to_string(&file).unwrap();
    let mut c = client::start();
    client::initialize(&mut c, &ws);
    c.open(&u, &text, 1);
    c.diagnostics(&u);

    let rat_title = |lenses: &[Value]| -> Option<String> {
        lenses.iter().find(|l| l["command"]["arguments"][1] == "rat_catcher:sewer_rat").and_then(|l| l["command"]["title"].as_str().map(str::to_string))
    };
    // The first request starts the figures; they arrive with a refresh request.
    let first = c.code_lenses(&u);
    assert!(rat_title(&first).is_some(), "a lens above the creature: {first:#?}");
    let settled = |c: &mut LspClient| -> Vec<Value> {
        for _ in 0..200 {
            let lenses = c.code_lenses(&u);
            let done = lenses.iter().all(|l| {
                let t = l["command"]["title"].as_str().unwrap_or("");
                !t.contains('…') && !t.contains('⟳')
            });
            if done {
                return lenses;
            }
            client::lens_refresh(c);
        }
        panic!("the lenses never settled");
    };
    let lenses = settled(&mut c);
    let before = rat_title(&lenses).unwrap();
    assert!(before.contains("warrior ") && before.ends_with("(1,000 fights)"), "{before}");
    for l in &lenses {
        assert_eq!(l["command"]["command"], balance::SHOW_COMMAND);
    }
    let loot = ws.join("rat_catcher/loot.toml");
    let loot_uri = file_uri(&loot);
    c.open(&loot_uri, &std::fs::read_to_string(&loot).unwrap(), 1);
    let tables = loop {
        let l = c.code_lenses(&loot_uri);
        if !l.is_empty() && l.iter().all(|x| x["command"]["title"].as_str().is_some_and(|t| t.starts_with("per roll: ") && !t.contains('…'))) {
            break l;
        }
        client::lens_refresh(&mut c);
    };
    assert!(tables.iter().any(|t| t["command"]["title"].as_str().unwrap().contains(" item")), "{tables:#?}");

    // The rat gets much stronger: its lens changes once the new figures are in.
    let stronger = text.replacen("max_health = 6, damage = 2", "max_health = 60, damage = 9", 1);
    assert_ne!(stronger, text);
    c.change(&u, &stronger, 2);
    // Until the figures of the new text are known, the old ones are shown as updating.
    let pending = rat_title(&c.code_lenses(&u)).unwrap();
    assert_eq!(pending, format!("{before} ⟳"), "right after the edit");
    client::lens_refresh(&mut c);
    let after = rat_title(&settled(&mut c)).unwrap();
    assert_ne!(before, after, "the row of the edited creature is computed again");

    // The hover on the creature's ID shows its matrix row with intervals.
    let at = stronger.find("rat_catcher:sewer_rat").unwrap() + 3;
    let line = stronger[..at].matches('\n').count();
    let character = at - stronger[..at].rfind('\n').map_or(0, |i| i + 1);
    let hover = c.request("textDocument/hover", json!({ "textDocument": { "uri": u }, "position": { "line": line, "character": character } }));
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(md.contains("95 % interval") && md.contains("| `core:warrior` |"), "{md}");

    // The command opens the full report, by ID or at the cursor.
    let by_id = c.request("workspace/executeCommand", json!({ "command": balance::SHOW_COMMAND, "arguments": [u, "rat_catcher:sewer_rat"] }));
    assert_eq!(by_id["title"], "Balance of rat_catcher:sewer_rat");
    let report = by_id["markdown"].as_str().unwrap();
    assert!(report.contains("losses") && report.contains("| `core:mage` |"), "{report}");
    let at_cursor = c.request(
        "workspace/executeCommand",
        json!({ "command": balance::SHOW_COMMAND, "arguments": [ { "uri": u, "position": { "line": line + 2, "character": 0 } } ] }),
    );
    assert_eq!(at_cursor["title"], "Balance of rat_catcher:sewer_rat", "{at_cursor}");
}
