//! One discovery rule for every command and the language server (docs/data-language.md, "Which
//! mods a path loads"): from a standalone mod's folder, a workspace's folder and a folder inside
//! one of its members, `check`, `loot`, `graph`, `play`, `simulate` (with `--mods .`), `arena`
//! (`--matrix`, and a scenario with `--mods .`) and the language server load the same mods — the mod alone, or the whole workspace wherever in it the
//! command runs. A path that does not exist is exit 2 for every command.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::run_with_input;
use rustkeep_data::text::Encoding;
use rustkeep_data::vocab::IdText;
use rustkeep_testutil::TempDir;
use serde_json::Value;

/// A mod `id` whose every entry names it: a creature with a trigger (a node of the trigger graph),
/// a loot table nothing uses (a warning of `check`, and a table for `loot`).
fn write_mod(t: &TempDir, folder: &str, id: &str) {
    t.write(&format!("{folder}/mod.toml"), format!("[mod]\nid = \"{id}\"\nname = \"{id}\"\nversion = \"0.1.0\"\n"));
    t.write(
        &format!("{folder}/data.toml"),
        format!(
            "[[creatures]]\nid = \"{id}:imp\"\nname = \"Imp\"\nattributes = {{ max_health = 5 }}\ntriggers = [ {{ on = \"turn_started\", actions = [ {{ action = \"heal\", amount = 1, target = \"self\" }} ] }} ]\n\n[[loot_tables]]\nid = \"{id}:spare\"\nentries = [ {{ item = \"core:gold\", weight = 1 }} ]\n"
        ),
    );
}

const IDS: [&str; 3] = ["solo", "alpha", "beta"];

/// The mods of [`IDS`] whose imp `rustkeep COMMAND SCENARIO --mods . EXTRA`, run in `cwd`, can
/// fight: the scenario (written in `t`, then removed) sets the imp against the player, followed by
/// `steps`.
fn fights_that_run(t: &TempDir, cwd: &Path, command: &str, steps: &str, extra: &[&str]) -> BTreeSet<String> {
    let runs = |id: &str| {
        let scenario = t.0.join(format!("{id}.{command}.scenario.toml"));
        std::fs::write(&scenario, format!("[[enemies]]\ncreature = \"{id}:imp\"\n{steps}")).expect("write the scenario");
        let args = [&[command, scenario.to_str().expect("UTF-8"), "--mods", "."], extra].concat();
        let ok = run_with_input(cwd, &args, "").status.code() == Some(0);
        std::fs::remove_file(&scenario).expect("remove the scenario");
        ok
    };
    IDS.iter().filter(|id| runs(id)).map(|id| id.to_string()).collect()
}

/// The mods each command loads from `cwd`, as observed from its output.
fn loaded_by_every_command(t: &TempDir, cwd: &Path) -> Vec<(&'static str, BTreeSet<String>)> {
    let mut out = Vec::new();

    // check: the unused-loot-table warning of every loaded mod.
    let o = run_with_input(cwd, &["check", "--format", "json"], "");
    let v: Value = serde_json::from_slice(&o.stdout).expect("check prints JSON");
    let check: BTreeSet<String> = v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "unused-loot-table")
        .filter_map(|d| d["message"].as_str()?.split('`').nth(1).map(|id| IdText::of(id).namespace().unwrap_or(id).to_string()))
        .collect();
    out.push(("check", check));

    // loot: a mod's table can be asked about exactly when the mod is loaded.
    let loot = IDS.iter().filter(|id| run_with_input(cwd, &["loot", &format!("{id}:spare")], "").status.code() == Some(0)).map(|id| id.to_string()).collect();
    out.push(("loot", loot));

    // graph: the creatures' triggers are nodes.
    let o = run_with_input(cwd, &["graph", "--format", "json"], "");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("graph prints JSON ({e}): {}", String::from_utf8_lossy(&o.stderr)));
    let graph = v["nodes"].as_array().expect("nodes").iter().filter_map(|n| n["id"].as_str()?.strip_suffix(":imp").map(String::from)).collect();
    out.push(("graph", graph));

    // play: spawning a mod's creature works exactly when the mod is loaded.
    let script: String = IDS.iter().map(|id| format!("spawn {id}:imp\n")).chain(["quit\n".to_string()]).collect();
    let o = run_with_input(cwd, &["play"], &script);
    let text = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    let play = IDS.iter().filter(|id| !text.contains(&format!("`{id}:imp` is not"))).map(|id| id.to_string()).collect();
    out.push(("play", play));

    // simulate with `--mods .`: a scenario naming a mod's creature runs exactly when it is loaded.
    out.push(("simulate", fights_that_run(t, cwd, "simulate", "[[steps]]\nattack = \"enemy:0\"\n", &[])));

    // arena --matrix: every loaded creature is a row of the matrix.
    let o = run_with_input(cwd, &["arena", "--matrix", "--runs", "1", "--format", "json"], "");
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("arena prints JSON ({e}): {}", String::from_utf8_lossy(&o.stderr)));
    let arena = v["creatures"].as_array().expect("creatures").iter().filter_map(|c| c.as_str()?.strip_suffix(":imp").map(String::from)).collect();
    out.push(("arena --matrix", arena));

    // arena with a scenario and `--mods .`: the fight runs exactly when the creature is loaded.
    out.push(("arena", fights_that_run(t, cwd, "arena", "", &["--runs", "1"])));

    // The language server, opened on the folder.
    let state = rustkeep_lsp::state::State::new(vec![cwd.to_path_buf()], Encoding::Utf16, None);
    let lsp = state.project.mods.iter().filter(|m| !m.is_core).map(|m| m.id.clone()).collect();
    out.push(("language server", lsp));
    out
}

#[test]
fn every_command_and_the_language_server_load_the_same_mods_from_the_same_folder() {
    let t = TempDir::new("rule");
    write_mod(&t, "solo", "solo");
    t.write("ws/rustkeep.toml", "[workspace]\nmods = [\"mods/*\"]\n");
    write_mod(&t, "ws/mods/alpha", "alpha");
    write_mod(&t, "ws/mods/beta", "beta");
    t.write("ws/mods/alpha/deeper/notes.txt", "a folder inside a member\n");
    let set = |ids: &[&str]| ids.iter().map(|s| s.to_string()).collect::<BTreeSet<String>>();
    let cases = [
        ("a mod's folder", t.0.join("solo"), set(&["solo"])),
        ("a workspace's folder", t.0.join("ws"), set(&["alpha", "beta"])),
        ("a folder inside a workspace member", t.0.join("ws/mods/alpha/deeper"), set(&["alpha", "beta"])),
    ];
    for (what, cwd, expected) in cases {
        for (command, got) in loaded_by_every_command(&t, &cwd) {
            assert_eq!(got, expected, "{command} from {what}");
        }
    }
}

#[test]
fn a_path_that_does_not_exist_is_exit_2_for_every_command() {
    let t = TempDir::new("missing");
    write_mod(&t, "solo", "solo");
    let cwd = t.0.join("solo");
    for args in [
        vec!["check", "no/such"],
        vec!["check", "--mods", "no/such"],
        vec!["loot", "core:rat_loot", "--mods", "no/such"],
        vec!["graph", "--mods", "no/such"],
        vec!["play", "--mods", "no/such"],
        vec!["arena", "--matrix", "--mods", "no/such"],
        vec!["fmt", "no/such"],
    ] {
        let o = run_with_input(&cwd, &args, "quit\n");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stderr).contains("no/such"), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
    t.write("s.scenario.toml", "[[steps]]\npickup = true\n");
    let o = run_with_input(&cwd, &["simulate", t.0.join("s.scenario.toml").to_str().unwrap(), "--mods", "no/such"], "");
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The help of `--mods` says what is loaded without it.
#[test]
fn the_help_of_mods_states_the_default() {
    for command in ["loot", "graph", "play", "check", "arena"] {
        let o = run_with_input(Path::new("."), &[command, "--help"], "");
        let help = String::from_utf8_lossy(&o.stdout);
        assert!(help.contains("the nearest `rustkeep.toml` at or above it"), "{command}: {help}");
    }
}
