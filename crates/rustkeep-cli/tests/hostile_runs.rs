//! Runs a stranger's data can ask for (docs/engine.md, "Bounded work"): a value over a limit
//! is `value-out-of-range` before anything runs, a run that reaches a limit anyway stops with a
//! message saying which, and a recording replays in time linear in its length. The times these
//! take are the benchmark report's (`rustkeep-bench --only hostile`); here every run must simply
//! end, with what it says.

use std::process::{Command, Output};
use std::time::Duration;

use rustkeep_testutil::TempDir;
use serde_json::Value;

fn run(cwd: &std::path::Path, args: &[&str]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_rustkeep"))
        .args(args)
        .current_dir(cwd)
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the rustkeep binary runs");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    // A guard against a hang, not a measurement: far above what any of these takes.
    match rx.recv_timeout(Duration::from_secs(300)) {
        Ok(out) => out.expect("the output is read"),
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("`rustkeep {}` ran for five minutes", args.join(" "));
        }
    }
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

const WARRIOR: &str = "[player]\noptions = [\"core:warrior\"]\n";

#[test]
fn values_over_the_limits_are_value_out_of_range_and_nothing_runs() {
    let t = TempDir::with_files("limits", &[
        // The review's ten lines: four billion rats.
        ("scenarios/horde.toml", &format!("{WARRIOR}[[enemies]]\ncreature = \"core:rat\"\ncount = 4000000000\n[[steps]]\nattack = \"enemy:0\"\n[[expect]]\nevent = \"turn_started\"\n")),
    ]);
    // Fifty spawn actions of 100,000 rats.
    let spawns: String = (0..50).map(|_| "[[steps]]\naction = { action = \"spawn\", creature = \"core:rat\", count = 100000 }\n").collect();
    t.write("scenarios/spawns.toml", format!("{WARRIOR}{spawns}[[expect]]\nevent = \"turn_started\"\n"));
    // Groups that pass the limit only together, and one step too many.
    t.write("scenarios/groups.toml", format!("{WARRIOR}[[enemies]]\ncreature = \"core:rat\"\ncount = 600\n[[enemies]]\ncreature = \"core:rat\"\ncount = 600\n[[expect]]\nevent = \"turn_started\"\n"));
    let steps: String = (0..10_001).map(|_| "[[steps]]\nwait = true\n").collect();
    t.write("scenarios/long.toml", format!("{WARRIOR}{steps}[[expect]]\nevent = \"turn_started\"\n"));
    // A creature whose `ai` spawns too many at once.
    t.write("m/mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n");
    t.write(
        "m/creatures.toml",
        "[[creatures]]\nid = \"m:brood\"\nname = \"Brood\"\nai = [ { actions = [ { action = \"spawn\", creature = \"core:rat\", count = 500 } ] } ]\n",
    );
    let o = run(&t.0, &["check", ".", "--format", "json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("JSON ({e}): {}", text(&o)));
    let mut found: Vec<(String, u64)> = v["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .filter(|d| d["code"] == "value-out-of-range")
        .map(|d| (d["file"].as_str().unwrap_or_default().to_string(), d["range"]["start"]["line"].as_u64().unwrap_or_default()))
        .collect();
    found.sort();
    let spawn_lines: Vec<(String, u64)> = (0..50).map(|k| ("scenarios/spawns.toml".to_string(), 4 + 2 * k)).collect();
    let mut expected = vec![("m/creatures.toml".to_string(), 4), ("scenarios/groups.toml".to_string(), 6), ("scenarios/horde.toml".to_string(), 5)];
    expected.push(("scenarios/long.toml".to_string(), 3 + 2 * 10_000));
    expected.extend(spawn_lines);
    expected.sort();
    assert_eq!(found, expected, "{}", text(&o));
    // Nothing runs: `test` refuses each scenario and says why.
    let o = run(&t.0, &["test", "."]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("0 passed, 0 failed (4 scenarios, 4 not run)"), "{}", text(&o));
    for name in ["horde", "spawns", "groups", "long"] {
        assert!(text(&o).contains(&format!("scenarios/{name}.toml: not run")), "{name}: {}", text(&o));
    }
    assert!(text(&o).matches("[value-out-of-range]").count() >= 4, "{}", text(&o));
    let o = run(&t.0, &["simulate", "scenarios/horde.toml"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

/// `rustkeep simulate SCENARIO --format json` in `t`, which must succeed: its report and warnings.
fn simulated(t: &TempDir, scenario: &str) -> (Value, Vec<String>) {
    let o = run(&t.0, &["simulate", scenario, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let warnings = v["warnings"].as_array().expect("warnings").iter().filter_map(Value::as_str).map(String::from).collect();
    (v, warnings)
}

#[test]
fn a_run_that_reaches_a_limit_stops_and_says_which() {
    let t = TempDir::with_files("stops", &[
        // Every turn of every brood spawns a hundred more: within the limits per action, past the
        // number of living enemies within a few turns.
        ("m/mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n"),
        ("m/creatures.toml", "[[creatures]]\nid = \"m:brood\"\nname = \"Brood\"\nattributes = { max_health = 50 }\nai = [ { actions = [ { action = \"spawn\", creature = \"m:brood\", count = 100 } ] } ]\n"),
    ]);
    let waits: String = (0..200).map(|_| "[[steps]]\nwait = true\n").collect();
    t.write("scenarios/brood.toml", format!("mods = [\"../m\"]\nenemies_act = true\n{WARRIOR}[[enemies]]\ncreature = \"m:brood\"\n{waits}"));
    let (v, warnings) = simulated(&t, "scenarios/brood.toml");
    assert!(warnings.iter().any(|w| w.starts_with("the run stops") && w.contains("more than the 1,000")), "{warnings:?}");
    assert!(v["final"]["enemies"].as_array().expect("enemies").len() <= 1000);
    assert!(v["steps"].as_array().expect("steps").len() < 200 * 1001, "the run stopped early");

    // Enemies that act for 10,000 steps: the run stops at its budget of events.
    let waits: String = (0..10_000).map(|_| "[[steps]]\nwait = true\n").collect();
    t.write("scenarios/siege.toml", format!("enemies_act = true\n{WARRIOR}[[enemies]]\ncreature = \"core:rat\"\ncount = 1000\n{waits}"));
    let (_, warnings) = simulated(&t, "scenarios/siege.toml");
    assert!(warnings.iter().any(|w| w.starts_with("the run stops before step") && w.contains("a run handles at most 100,000")), "{warnings:?}");
}

#[test]
fn a_recording_of_spawns_fills_the_floor_and_no_more() {
    let t = TempDir::new("replay");
    // A real header (the core's hash), then the review's 11 KB of spawns.
    let o = Command::new(env!("CARGO_BIN_EXE_rustkeep"))
        .args(["play", "--line", "--option", "core:warrior", "--seed", "1", "--record", "game.jsonl"])
        .current_dir(&t.0)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("play runs");
    assert!(o.status.success(), "{}", text(&o));
    let header = t.read("game.jsonl");
    let enemies_after = |spawns: usize| {
        t.write("game.jsonl", format!("{header}{}", "{\"input\":\"spawn core:rat 100\"}\n".repeat(spawns)));
        let o = run(&t.0, &["play", "--replay", "game.jsonl", "--format", "json"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let v: Value = serde_json::from_slice(&o.stdout).expect("JSON");
        v["enemies"].as_array().expect("enemies").len()
    };
    // Every newcomer stands on a free tile of the floor: once none is left, a spawn brings
    // nobody, long before a thousand live at once.
    let full = enemies_after(580);
    assert!(std::fs::metadata(t.path("game.jsonl")).expect("written").len() > 11_000);
    assert!((100..1000).contains(&full), "{full}");
    assert_eq!(enemies_after(20), full, "the floor was full after a few spawns");
}

/// Items are bounded as enemies are: a `give_item` of more than a million is `value-out-of-range`
/// (a 2-line scenario of a hundred million swords took 5 GB in 20 s), a creature carries at most
/// 10,000 separate items (a gift past it stops the run, however often a trigger gives), and a
/// stack's count saturates instead of wrapping past four billion.
#[test]
fn items_are_bounded_as_enemies_are() {
    let t = TempDir::with_files("items", &[
        ("scenarios/armoury.toml", "[[steps]]\naction = { action = \"give_item\", item = \"core:iron_sword\", count = 100000000, target = \"self\" }\n"),
        ("m/mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n"),
        // Every turn, 5,000 more swords: within the limit per action, past what one carries soon.
        ("m/items.toml", "[[items]]\nid = \"m:horn\"\nname = \"Horn\"\nslot = \"ring\"\ntriggers = [ { on = \"turn_started\", actions = [ { action = \"give_item\", item = \"core:iron_sword\", count = 5000, target = \"self\" } ] } ]\n"),
    ]);
    let o = run(&t.0, &["check", "scenarios/armoury.toml"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("`count` is at most 1,000,000, not 100,000,000: the limit keeps every run bounded"), "{}", text(&o));

    let waits: String = (0..50).map(|_| "[[steps]]\nwait = true\n").collect();
    t.write("scenarios/horn.toml", format!("mods = [\"../m\"]\n[player]\nitems = [ {{ item = \"m:horn\", equipped = true }} ]\n{waits}"));
    let (v, warnings) = simulated(&t, "scenarios/horn.toml");
    assert!(warnings.iter().any(|w| w.starts_with("the run stops in step") && w.contains("more than the 10,000 one creature carries")), "{warnings:?}");
    assert!(v["final"]["player"]["inventory"].as_array().expect("inventory").len() <= 10_000);

    // Gold near the top of a stack: the count stays at its largest, not 0.
    t.write(
        "scenarios/gold.toml",
        "[player]\nitems = [ { item = \"core:gold\", count = 1000000 } ]\n[[steps]]\naction = { action = \"give_item\", item = \"core:gold\", count = 1000000, target = \"self\" }\n[[expect]]\nhas_item = \"core:gold\"\ncount = 2000000\n",
    );
    let o = run(&t.0, &["test", "scenarios/gold.toml"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// A limit's message names the value as written: `runs` of five million are five million (they
/// read one million), and a float that is no number is `nan`, not "a float".
#[test]
fn messages_name_the_value_as_written() {
    let t = TempDir::with_files(
        "written",
        &[
            (
                "runs.toml",
                "[[enemies]]\ncreature = \"core:rat\"\n[[expect]]\narena = { option = \"core:warrior\", runs = 5000000 }\nwin_rate = { at_least = 0.5 }\n",
            ),
            ("nan.toml", "[player]\nattributes = { damage = nan, accuracy = inf }\n"),
        ],
    );
    let o = run(&t.0, &["check", "runs.toml", "nan.toml"]);
    let out = text(&o);
    assert!(out.contains("this arena fights 5,000,000 times against 1 enemy"), "{out}");
    assert!(out.contains("`damage` must be a number, not `nan`") && out.contains("`accuracy` must be a number, not `inf`"), "{out}");
}
