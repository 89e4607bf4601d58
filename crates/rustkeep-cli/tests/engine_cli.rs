//! End-to-end tests of `simulate`, `graph` and `play` through the real binary.

use std::io::Write;
use std::process::{Command, Stdio};

use rustkeep_testutil::{ensure_folder_contents, repo_root, tools, TempDir};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rustkeep"));
    c.current_dir(repo_root());
    c
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = bin().args(args).output().expect("run rustkeep");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// `rustkeep play` in an empty folder, where the discovery rule finds no mod: the bundled core
/// alone, plus the `--mods` given (paths relative to the repository).
fn play(args: &[&str], script: &str) -> (i32, String, String) {
    // Removed only once the game is over.
    let empty = TempDir::new("play-cwd");
    let mut prev = "";
    let args: Vec<String> = args
        .iter()
        .map(|a| {
            let v = if prev == "--mods" { repo_root().join(a).to_string_lossy().into_owned() } else { a.to_string() };
            prev = a;
            v
        })
        .collect();
    let mut child =
        bin().current_dir(&empty).arg("play").args(&args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn play");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("write script");
    let out = child.wait_with_output().expect("play output");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The CLI prints the engine's trace: every golden trace of the engine (one per scenario, see
/// `crates/rustkeep-engine/tests/golden.rs`) is also what `rustkeep simulate` prints.
#[test]
fn simulate_json_matches_the_engine_golden_traces() {
    let goldens = repo_root().join("crates/rustkeep-engine/tests/golden");
    let mut names: Vec<String> = std::fs::read_dir(&goldens)
        .expect("the golden folder")
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_suffix(".json").map(String::from))
        .collect();
    names.sort();
    assert!(names.len() >= 3, "{names:?}");
    for name in names {
        let scenario = ["crates/rustkeep-engine/tests/scenarios", "examples/scenarios"]
            .iter()
            .map(|dir| format!("{dir}/{name}.toml"))
            .find(|rel| repo_root().join(rel).is_file())
            .unwrap_or_else(|| panic!("the golden trace {name}.json has no scenario (the engine's golden test says more)"));
        let (code, out, err) = run(&["simulate", &scenario, "--format", "json"]);
        assert_eq!(code, 0, "{scenario}: {err}");
        let golden = std::fs::read_to_string(goldens.join(format!("{name}.json"))).expect("golden");
        assert!(out == golden, "{scenario}: the CLI output differs from the engine's golden trace {name}.json");
    }
}

/// What `rustkeep simulate` prints without `--format` (the presentation crate's `report::run`) for
/// every scenario with a golden trace in the engine: the committed `NAME.txt` of
/// `tests/simulate/`, byte for byte (`cargo xtask update` rewrites them).
#[test]
fn simulate_human_matches_its_golden_trace() {
    let mut traces = Vec::new();
    for dir in ["crates/rustkeep-engine/tests/scenarios", "examples/scenarios"] {
        let mut found: Vec<_> = std::fs::read_dir(repo_root().join(dir)).expect("the scenario folder").flatten().map(|e| e.path()).collect();
        found.retain(|p| p.extension().is_some_and(|x| x == "toml"));
        for path in found {
            let name = path.file_stem().and_then(|s| s.to_str()).expect("a UTF-8 name").to_string();
            let rel = format!("{dir}/{name}.toml");
            let (code, out, err) = run(&["simulate", &rel]);
            assert_eq!(code, 0, "{rel}: {err}");
            traces.push((format!("{name}.txt"), out));
        }
    }
    assert!(traces.len() >= 3, "{traces:?}");
    let source = "the scenario of the same name in crates/rustkeep-engine/tests/scenarios/ or examples/scenarios/";
    ensure_folder_contents(&repo_root().join("crates/rustkeep-cli/tests/simulate"), ".txt", &traces, source);
}

#[test]
fn simulate_human_is_an_indented_trace() {
    let (code, out, err) = run(&["simulate", "examples/scenarios/rattenplage.toml"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("step 5: player attacks enemy:4\n"));
    assert!(out.contains("    fired core:rattenplage (<core>/quests.toml:23) progress 5/5\n"));
    // The chain sits below the event that raised it.
    assert!(out.contains("\n    #5 quest_completed player {quest: core:rattenplage}\n      fired core:word_of_the_rat_king"));
}

#[test]
fn simulate_unknown_ids_are_clear_errors() {
    let dir = TempDir::new("bad-scenario");
    let f = dir.write("bad.toml", "[[enemies]]\ncreature = \"core:ratt\"\n[[steps]]\nattack = \"enemy:0\"\n");
    let (code, out, err) = run(&["simulate", f.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("the scenario has 1 error"), "{err}");
    assert!(
        err.contains("bad.toml:2: no creature named `core:ratt` exists in the mods this scenario loads; did you mean `core:rat`? [unknown-reference]"),
        "{err}"
    );
    let (code, _, err) = run(&["simulate", dir.join("missing.toml").to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn graph_json_and_dot() {
    let (code, out, err) = run(&["graph", "--format", "json", "--mods", "crates/rustkeep-engine/tests/mods/thorns"]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(j["nodes"].as_array().unwrap().iter().any(|n| n["id"] == "thorns:bramble" && n["cycle"] == true));
    let (code, dot_text, err) = run(&["graph", "--mods", "crates/rustkeep-engine/tests/mods/thorns"]);
    assert_eq!(code, 0, "{err}");
    assert!(dot_text.starts_with("digraph triggers {") && dot_text.trim_end().ends_with('}'));
    if !tools::graphviz() {
        return;
    }
    let mut child = Command::new("dot").arg("-Tsvg").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("dot starts");
    child.stdin.take().unwrap().write_all(dot_text.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "dot rejected the graph: {}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("<svg"));
}

/// Everything printed after the marker line `saved to …` (or from the start of a loaded game).
fn after_save(out: &str) -> &str {
    let i = out.find("saved to ").expect("save line");
    let rest = &out[i..];
    &rest[rest.find('\n').map(|n| n + 1).unwrap_or(rest.len())..]
}

#[test]
fn play_save_and_load_continue_identically() {
    let dir = TempDir::new("play-save");
    let save = dir.join("game.json");
    // The first floor's residents are enemy:0 to enemy:4 (seed 5); the spawned rats come next.
    let tail = "attack enemy:6\nattack enemy:7\npickup\nenter core:library\nquests\ninventory\nstatus\n";
    // The elder stands two tiles north of the hall's `@`; `talk` reaches only an NPC next to you,
    // and she opens her shop, which no turn passes in: `leave`.
    let head = format!(
        "enter core:elders_hall\nmove n\nmove n\ntalk core:elder\nleave\nequip core:iron_sword\nspawn core:rat 3\nattack enemy:5\nsave {}\n",
        save.display()
    );
    let (code, straight, err) = play(&["--seed", "5", "--option", "core:warrior"], &format!("{head}{tail}quit\n"));
    assert_eq!(code, 0, "{err}");
    assert!(straight.contains("fired core:rattenplage"), "{straight}");
    let (code, resumed, err) = play(&["--load", save.to_str().unwrap()], &format!("{tail}quit\n"));
    assert_eq!(code, 0, "{err}");
    assert_eq!(after_save(&straight), resumed, "a loaded game continues exactly like the uninterrupted one");
    // The save file holds the generator state and quest progress.
    let text = std::fs::read_to_string(&save).unwrap();
    assert!(text.contains("\"rng\": \"chacha8:"));
    assert!(text.contains("\"quest\": \"core:rattenplage\""));
}

#[test]
fn play_corrupt_save_changes_nothing() {
    let dir = TempDir::new("play-corrupt");
    let bad = dir.write("bad.json", "{ \"format\": \"rustkeep-save\", \"version\": 1, \"game\": { \"player\": 3 } }");
    let script = format!("spawn core:rat\nstatus\nload {}\nstatus\nquit\n", bad.display());
    let (code, out, err) = play(&[], &script);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("error: ") && out.contains("not a valid save"), "{out}");
    let first = &out[out.find("\nhealth ").expect("first status")..];
    let (before, after) = first.split_once("\nerror: ").expect("error line");
    let after = &after[after.find('\n').expect("line end")..];
    // The console ends with the run's summary.
    let (after, summary) = after.split_once("\nrun in progress: ").expect("the summary ends the console");
    assert!(summary.contains("testing commands used: spawn"), "{summary}");
    assert_eq!(before.trim(), after.trim(), "the failed load left the game as it was");
}

#[test]
fn play_load_drops_quests_of_a_removed_mod() {
    let dir = TempDir::new("play-vanished");
    let save = dir.join("mags.json");
    let (code, _, err) =
        play(&["--mods", "examples/rat_catcher"], &format!("enter rat_catcher:mags_stall\ntalk rat_catcher:old_mags\nsave {}\nquit\n", save.display()));
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = play(&["--load", save.to_str().unwrap()], "quests\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("warning: quest rat_catcher:tails_for_coin no longer exists"), "{out}");
    assert!(out.contains("no quests started"), "{out}");
}

#[test]
fn play_rejects_bad_commands_without_acting() {
    let (code, out, _) = play(&[], "atack enemy:0\nattack enemy:9\nspawn core:ratt\nroll core:rat_loot\nroll core:rat_loot\nhelp\nquit\n");
    assert_eq!(code, 0);
    assert!(out.contains("error: unknown command `atack`; did you mean `attack`?"), "{out}");
    assert!(out.contains("error: there is no enemy:9"), "{out}");
    assert!(out.contains("did you mean `core:rat`?"), "{out}");
    // A roll preview does not advance the generator: twice the same answer.
    let rolls: Vec<&str> = out.lines().filter(|l| l.starts_with("core:rat_loot would give")).collect();
    assert_eq!(rolls.len(), 2);
    assert_eq!(rolls[0], rolls[1]);
    // Step 0 is the way into the dungeon; no command above took a turn after it.
    assert!(out.contains("step 0: player enters the dungeon") && !out.contains("step 1"), "{out}");
}

/// `use` spends the item; an item without `use` actions (a sword) is refused, not destroyed.
#[test]
fn play_refuses_to_use_an_item_without_use_actions() {
    let (code, out, err) = play(&["--option", "core:warrior"], "use core:iron_sword\ninventory\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("`core:iron_sword` has no `use` actions, so using it would only use it up; equip it instead (`equip core:iron_sword`)"), "{out}");
    assert!(out.trim_end().lines().any(|l| l.contains("core:iron_sword") && !l.contains("use")), "the sword is still carried: {out}");
}

/// The line console says why an auto-explore stopped, also while it prints traces (no trace
/// tells it).
#[test]
fn the_console_says_why_a_walk_stopped() {
    let (code, out, err) = play(&["--seed", "7", "--option", "core:warrior"], "explore\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("step 1: player moves"), "the trace is printed: {out}");
    assert!(out.contains("\nYou stop: an enemy comes into view.\n"), "{out}");
}

/// A move into a wall is a message of the game, not an error: the console prints it as the game
/// says it, and it costs no turn.
#[test]
fn the_console_tells_a_bump_as_a_message() {
    let script = "s\n".repeat(40) + "quit\n";
    let (code, out, err) = play(&["--seed", "7", "--option", "core:warrior"], &script);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("error: "), "{out}");
    let bumps = out.lines().filter(|l| *l == "A wall blocks the way.").count();
    // The way into the dungeon is the run's first turn; every `s` either moves or bumps.
    let turns = format!(", {} turns,", 1 + 40 - bumps);
    assert!(bumps > 0 && out.lines().last().is_some_and(|l| l.contains(&turns)), "{bumps} bumps, and a bump takes no turn:\n{out}");
}

/// The trade is a screen of its own: while it is open no turn passes, so nobody walks away and
/// trades with a merchant left behind; `leave` closes it.
#[test]
fn no_turn_passes_while_a_trade_is_open() {
    // North twice, then into Elder Hannelore, who opens her shop.
    let (code, out, err) = play(&["--seed", "7", "--option", "core:warrior"], "trace off\nn\nn\nn\ns\nleave\ns\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("error: you are trading at Hannelore's Provisions: `leave` first"), "{out}");
    assert!(out.contains("You leave Hannelore's Provisions."), "{out}");
    // The way in, two steps, the talk, and the step after `leave`: the refused step took none.
    assert!(out.lines().last().is_some_and(|l| l.contains(", 5 turns,")), "{out}");
}

/// A start on a floor the run has not reached bends the rules, as `enter` does: the summary says
/// so. A start on the first floor keeps them.
#[test]
fn a_start_on_a_later_floor_is_named_in_the_summary() {
    let (code, out, err) = play(&["--seed", "7", "--option", "core:warrior", "--floor", "core:floor_3"], "quit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.trim_end().ends_with("testing commands used: --floor"), "{out}");
    let (code, out, err) = play(&["--seed", "7", "--option", "core:warrior", "--floor", "core:floor_1"], "quit\n");
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("testing commands used"), "{out}");
}

/// A line of standard input that is not UTF-8 is one mistake: the console says so and plays on to
/// its summary.
#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    let empty = TempDir::new("play-cwd");
    let mut child = bin()
        .current_dir(&empty)
        .args(["play", "--seed", "7", "--option", "core:warrior"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn play");
    child.stdin.take().expect("stdin").write_all(b"trace off\nwa\xffit\nwait\nquit\n").expect("write script");
    let out = child.wait_with_output().expect("play output");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("error: this line is not UTF-8 text"), "{text}");
    assert!(text.lines().last().is_some_and(|l| l.contains(", 2 turns,")), "the `wait` after it was played: {text}");
}

/// `enter FLOOR` in a played run lays that floor out, as the stairs would: the player stands in
/// its first room, and the run is on that floor.
#[test]
fn entering_a_floor_lays_it_out() {
    let (code, out, err) = play(&["--seed", "7", "--option", "core:warrior"], "trace off\nenter core:floor_3\nstatus\nquit\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(test) You reach The Bandit Keep (depth 3)."), "{out}");
    assert!(out.lines().any(|l| l.starts_with("floor core:floor_3, room core:")), "the player stands in a room of the floor: {out}");
    assert!(out.contains(", floor 3 of 5,"), "{out}");
}
