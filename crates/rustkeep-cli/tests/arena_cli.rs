//! `rustkeep arena` end to end: the JSON keys, the same numbers on one thread and on all, the
//! matrix and its heat map, and the usage errors.

use std::path::Path;
use std::process::{Command, Output};

use rustkeep_testutil::TempDir;
use serde_json::Value;

fn arena(cwd: &Path, args: &[&str], threads: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rustkeep"));
    c.arg("arena").args(args).current_dir(cwd);
    if let Some(t) = threads {
        c.env("RAYON_NUM_THREADS", t);
    }
    c.output().expect("rustkeep runs")
}

const SCENARIO: &str = r#"seed = 1
[player]
options = ["core:warrior"]
items = [ { item = "core:iron_sword", equipped = true }, { item = "core:leather_armor", equipped = true } ]
[[enemies]]
creature = "core:rat"
count = 3
"#;

#[test]
fn the_json_report_has_the_documented_keys_and_the_same_numbers_at_any_thread_count() {
    let dir = TempDir::new("json");
    std::fs::write(dir.join("fight.toml"), SCENARIO).unwrap();
    let one = arena(&dir, &["fight.toml", "--runs", "3000", "--format", "json"], Some("1"));
    let all = arena(&dir, &["fight.toml", "--runs", "3000", "--format", "json"], None);
    assert_eq!(one.status.code(), Some(0), "{}", String::from_utf8_lossy(&one.stderr));
    assert_eq!(one.stdout, all.stdout, "one thread and every thread give the same report");
    let v: Value = serde_json::from_slice(&one.stdout).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["runs", "seed", "wins", "escapes", "losses", "draws", "win_rate", "win_rate_ci95", "rounds", "health_left", "loot"]);
    assert_eq!(v["runs"], 3000);
    assert_eq!(v["seed"], 1, "the scenario's seed");
    let count = |k: &str| v[k].as_u64().unwrap();
    assert_eq!(count("wins") + count("escapes") + count("losses") + count("draws"), 3000);
    let rk: Vec<&str> = v["rounds"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(rk, ["mean", "p50", "p90", "max"]);
    let hk: Vec<&str> = v["health_left"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(hk, ["mean", "p10"]);
    assert!(v["loot"].as_array().unwrap().iter().any(|l| l["item"] == "core:rat_tail" && l["mean_count"].as_f64().unwrap() > 0.0));
    // --seed and --rounds change what they say.
    let other = arena(&dir, &["fight.toml", "--runs", "50", "--seed", "9", "--rounds", "2", "--format", "json"], None);
    let o: Value = serde_json::from_slice(&other.stdout).unwrap();
    assert_eq!(o["seed"], 9);
    assert!(o["rounds"]["max"].as_u64().unwrap() <= 2);
    // Human: a short table.
    let human = arena(&dir, &["fight.toml", "--runs", "100"], None);
    let text = String::from_utf8(human.stdout).unwrap();
    assert!(text.starts_with("core:warrior against 3 × core:rat") && text.contains("win rate") && text.contains("95 % interval"), "{text}");
}

#[test]
fn the_matrix_as_a_table_json_and_heat_map() {
    let dir = TempDir::new("matrix");
    let json = arena(&dir, &["--matrix", "--runs", "20", "--format", "json"], None);
    assert_eq!(json.status.code(), Some(0), "{}", String::from_utf8_lossy(&json.stderr));
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), v["options"].as_array().unwrap().len() * v["creatures"].as_array().unwrap().len());
    assert!(cells.iter().all(|c| c["win_rate"].as_f64().is_some_and(|r| (0.0..=1.0).contains(&r))));
    let svg = arena(&dir, &["--matrix", "--runs", "5", "--format", "svg"], None);
    let svg = String::from_utf8(svg.stdout).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("core:warrior") && svg.contains("core:rat"));
    let table = String::from_utf8(arena(&dir, &["--matrix", "--runs", "5"], None).stdout).unwrap();
    assert!(table.contains("core:rat") && table.contains("core:warrior"));
}

#[test]
fn usage_errors_exit_with_2() {
    let dir = TempDir::new("usage");
    std::fs::write(dir.join("fight.toml"), SCENARIO).unwrap();
    for args in [vec![], vec!["fight.toml", "--format", "svg"], vec!["missing.toml"], vec!["fight.toml", "--runs", "0"]] {
        let o = arena(&dir, &args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
    std::fs::write(dir.join("nobody.toml"), "seed = 1\n").unwrap();
    let o = arena(&dir, &["nobody.toml"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no [[enemies]]"));
}

/// The heat map of the bundled game in docs/arena.md is what the command draws today.
/// `cargo xtask update` redraws it.
#[test]
fn the_documented_heat_map_is_current() {
    let dir = TempDir::new("docs-heat-map");
    let out = arena(&dir, &["--matrix", "--runs", "200", "--format", "svg"], None);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = String::from_utf8(out.stdout).expect("the heat map is UTF-8");
    rustkeep_testutil::ensure_file_contents(&rustkeep_testutil::repo_path("docs/images/arena_core.svg"), &svg);
}
