//! The engine validates nothing, so the commands that run data refuse data with validation errors
//! before it reaches the engine (docs/ARCHITECTURE.md, invariant "The engine runs what it is given"): `simulate`, `play` and
//! `graph` on `examples/broken` exit 2 with the validator's count and its first errors; a character
//! of two options of one group is refused by `play`, and a scenario naming them by `simulate` and
//! `arena`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use rustkeep_testutil::TempDir;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root")
}

fn rustkeep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rustkeep")).args(args).current_dir(root()).stdin(Stdio::null()).output().expect("run rustkeep")
}

/// The error count `rustkeep check` reports for `examples/broken`.
fn broken_errors() -> u64 {
    let out = rustkeep(&["check", "examples/broken", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("check prints JSON");
    json["summary"]["errors"].as_u64().expect("an error count")
}

/// Exit 2, the count of `rustkeep check`, then one `path:line: message [code]` line per error,
/// at most five, each naming a file of the broken example.
fn assert_refused(out: &Output, errors: u64, what: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{what}: {stderr}");
    assert!(out.stdout.is_empty(), "{what} printed nothing on stdout: {}", String::from_utf8_lossy(&out.stdout));
    let mut lines = stderr.lines();
    assert_eq!(
        lines.next(),
        Some(format!("rustkeep: the mods have {errors} validation errors; run `rustkeep check` for details").as_str()),
        "{what}: {stderr}"
    );
    let listed: Vec<&str> = lines.collect();
    assert_eq!(listed.len() as u64, errors.min(5), "{what}: {stderr}");
    for l in listed {
        assert!(l.starts_with("  examples/broken/") && l.ends_with(']'), "{what}: {l}");
    }
}

#[test]
fn simulate_play_and_graph_refuse_data_with_errors() {
    let errors = broken_errors();
    assert!(errors > 5, "examples/broken has errors to refuse");
    let dir = TempDir::new("refusal");
    let scenario = dir.join("broken.toml");
    // The mods come by `--mods`: a scenario's own `mods` may not leave the folders the command
    // was given (docs/reliability.md, "Files and folders").
    std::fs::write(&scenario, "seed = 1\n[[enemies]]\ncreature = \"core:rat\"\n[[steps]]\nattack = \"enemy:0\"\n").expect("write scenario");
    assert_refused(&rustkeep(&["simulate", &scenario.to_string_lossy(), "--mods", "examples/broken"]), errors, "simulate");
    assert_refused(&rustkeep(&["play", "--mods", "examples/broken"]), errors, "play");
    assert_refused(&rustkeep(&["graph", "--mods", "examples/broken"]), errors, "graph");
}

/// A character takes at most one option of each group: `play` refuses two classes before the game
/// starts, and a scenario naming two is refused by `simulate` and `arena` with its located error.
#[test]
fn play_simulate_and_arena_refuse_two_options_of_one_group() {
    let dir = TempDir::new("groups");
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_rustkeep")).args(args).current_dir(&dir).stdin(Stdio::null()).output().expect("run rustkeep");
    let out = run(&["play", "--option", "core:warrior", "--option", "core:mage"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end(), "rustkeep: core:warrior and core:mage are both of the group `class`; a character takes one of each group");
    let scenario = dir.join("two_classes.toml");
    std::fs::write(&scenario, "seed = 1\n\n[player]\noptions = [\"core:rogue\", \"core:grave_digger\", \"core:mage\"]\n\n[[enemies]]\ncreature = \"core:rat\"\n\n[[steps]]\nattack = \"enemy:0\"\n")
        .expect("write scenario");
    let path = scenario.to_string_lossy();
    for args in [vec!["simulate", &*path], vec!["arena", &*path, "--runs", "3"]] {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
        assert!(
            stderr.contains(
                "two_classes.toml:4: `core:rogue` and `core:mage` are both of the group `class`; a character takes one of each group [option-group-conflict]"
            ),
            "{args:?}: {stderr}"
        );
    }
    // A class and a background combine.
    std::fs::write(&scenario, "seed = 1\n\n[player]\noptions = [\"core:rogue\", \"core:grave_digger\"]\n\n[[enemies]]\ncreature = \"core:rat\"\n")
        .expect("write scenario");
    let out = run(&["simulate", &path]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}
