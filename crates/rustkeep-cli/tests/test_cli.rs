//! `rustkeep test` and the expectations of `simulate`, through the real binary: golden outputs in
//! every format of a scenario with every kind of expectation, holding and failing
//! (`tests/expectations/scenarios/every_kind.toml`), the exit codes, the JUnit report read by
//! Python's `junitparser` (the reader of many CI tools), the JSON report against its own schema.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::stdout;
use rustkeep_testutil::{ensure_file_contents, TempDir};

fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn rustkeep(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rustkeep")).current_dir(cwd).args(args).env_remove("NO_COLOR").output().expect("rustkeep runs")
}

/// Runs `rustkeep test` in `tests/` on the expectations folder.
fn test(args: &[&str]) -> Output {
    let mut all = vec!["test"];
    all.extend_from_slice(args);
    rustkeep(&tests_dir(), &all)
}

#[test]
fn every_kind_of_expectation_in_every_format() {
    for (format, snap) in [("human", "test_human.txt"), ("json", "test_json.json"), ("junit", "test_junit.xml"), ("github", "test_github.txt")] {
        let o = test(&["expectations", "--format", format]);
        assert_eq!(o.status.code(), Some(1), "{format}: a failed expectation exits 1\n{}", String::from_utf8_lossy(&o.stderr));
        ensure_file_contents(&tests_dir().join("snapshots").join(snap), &stdout(&o));
    }
    let human = stdout(&test(&["expectations"]));
    // Each failure at the line of its `[[expect]]`, and the summary.
    assert!(human.contains("expectations/scenarios/every_kind.toml:") && human.ends_with("11 passed, 8 failed (2 scenarios)\n"), "{human}");
    assert!(human.contains("fragile: win rate of core:mage"), "{human}");
}

#[test]
fn exit_codes_and_the_filter() {
    let o = test(&["expectations", "--filter", "passing"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o), "2 passed, 0 failed (1 scenario)\n");
    // A scenario that does not validate is reported and not run: exit 2.
    let dir =
        TempDir::with_files("test-invalid", &[("scenarios/bad.toml", "seed = 1\n\n[[expect]]\nquest = \"core:rattenplage\"\nchance = { at_least = 0.5 }\n")]);
    let o = rustkeep(&dir, &["test"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stdout(&o).contains("scenarios/bad.toml: not run") && stdout(&o).contains("malformed-expectation"), "{}", stdout(&o));
    // Nothing to run: no scenario with expectations.
    std::fs::remove_file(dir.join("scenarios/bad.toml")).unwrap();
    let o = rustkeep(&dir, &["test"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "0 passed, 0 failed (0 scenarios)\n"));
}

#[test]
fn simulate_checks_expectations_and_exits_1_on_a_failure() {
    let o = rustkeep(&tests_dir(), &["simulate", "expectations/scenarios/every_kind.toml"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("expect quest core:rattenplage: done — passed"), "{out}");
    assert!(out.contains("expect the outcome of the last combat: FAILED: expected fled, got victory"), "{out}");
    let o = rustkeep(&tests_dir(), &["simulate", "expectations/scenarios/passing.toml", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["expectations"].as_array().map(Vec::len), Some(2), "{json}");
    // The examples' scenarios pass.
    let o = rustkeep(&tests_dir().join("../../.."), &["test", "examples"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// A value got is written with the precision that tells it from the numbers it is held against
/// (docs/testing.md, "How values are printed"): an exact chance of 0.07375 against
/// `at_least = 0.0738` reads 0.07375 — rounded to two decimals it read 0.07, rounded to the
/// bound's four it would read as the bound it misses — and a pass reads as the number it passed
/// with, in `test` and `simulate` alike.
#[test]
fn a_value_got_never_reads_as_the_bound_it_misses() {
    let dir = tests_dir().join("docs_outputs/close_chance");
    let o = rustkeep(&dir, &["test"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "scenarios/chances.toml:6: expect core:gold from lucky_dip:dip (exact, luck 0): expected chance at least 0.0738, got chance 0.07375\n1 passed, 1 failed (1 scenario)\n"
    );
    let tested: serde_json::Value = serde_json::from_str(&stdout(&rustkeep(&dir, &["test", "--format", "json"]))).unwrap();
    let got = |list: &serde_json::Value| -> Vec<String> { list.as_array().unwrap().iter().map(|e| e["got"].as_str().unwrap().to_string()).collect() };
    let tested = got(&tested["scenarios"][0]["expectations"]);
    assert_eq!(tested, ["chance 0.07375", "chance 0.07375, mean count 0.074"]);
    let simulated: serde_json::Value = serde_json::from_str(&stdout(&rustkeep(&dir, &["simulate", "scenarios/chances.toml", "--format", "json"]))).unwrap();
    assert_eq!(got(&simulated["expectations"]), tested);
}

/// `simulate --format json` names the line of each `[[expect]]`, as `test --format json` does:
/// the same lines, each that of an `[[expect]]` header of the file.
#[test]
fn simulate_json_names_the_line_of_each_expectation() {
    let file = "expectations/scenarios/every_kind.toml";
    let o = rustkeep(&tests_dir(), &["simulate", file, "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let simulated: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let lines = |list: &serde_json::Value| -> Vec<u64> { list.as_array().unwrap().iter().map(|e| e["line"].as_u64().expect("a line")).collect() };
    let simulated = lines(&simulated["expectations"]);
    let tested: serde_json::Value = serde_json::from_str(&stdout(&test(&["expectations", "--format", "json"]))).unwrap();
    let scenario = tested["scenarios"].as_array().unwrap().iter().find(|s| s["file"].as_str().unwrap().ends_with("every_kind.toml")).unwrap();
    assert_eq!(simulated, lines(&scenario["expectations"]));
    let text = std::fs::read_to_string(tests_dir().join(file)).unwrap();
    let headers: Vec<u64> = text.lines().enumerate().filter(|(_, l)| l.trim_start().starts_with("[[expect]]")).map(|(i, _)| i as u64 + 1).collect();
    assert_eq!(simulated, headers);
}

const JUNIT: &str = r#"
import sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1])
tests = failures = 0
for suite in xml:
    for case in suite:
        tests += 1
        failures += sum(1 for r in case.result if isinstance(r, Failure))
print(tests, failures, xml.tests, xml.failures)
"#;

const VALIDATE: &str = r#"
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1]))
Draft202012Validator.check_schema(schema)
errors = list(Draft202012Validator(schema).iter_errors(json.load(open(sys.argv[2]))))
for e in errors: print(e.message)
sys.exit(1 if errors else 0)
"#;

/// Runs a Python script, or `None` (a skip, refused under `RUSTKEEP_REQUIRE_TOOLS`) without the
/// module.
fn python(script: &str, args: &[&str], module: &str) -> Option<Output> {
    let has = Command::new("python3").args(["-c", &format!("import {module}")]).output().is_ok_and(|o| o.status.success());
    if !rustkeep_testutil::require(&format!("python3 with `{module}`"), has, &format!("pip install {module}")) {
        return None;
    }
    Some(Command::new("python3").arg("-c").arg(script).args(args).output().expect("python3 runs"))
}

#[test]
fn junit_is_read_by_junitparser_and_json_meets_its_schema() {
    let dir = TempDir::new("test-formats");
    let junit = dir.join("report.xml");
    std::fs::write(&junit, stdout(&test(&["expectations", "--format", "junit"]))).unwrap();
    if let Some(o) = python(JUNIT, &[&junit.to_string_lossy()], "junitparser") {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let counts: Vec<usize> = stdout(&o).split_whitespace().map(|n| n.parse().unwrap()).collect();
        assert_eq!(counts, [19, 8, 19, 8], "a test case per expectation, a failure per failed one");
    }
    let schema = dir.join("test-json.schema.json");
    std::fs::write(&schema, stdout(&rustkeep(&tests_dir(), &["schema", "--for", "test-json"]))).unwrap();
    let json = dir.join("report.json");
    std::fs::write(&json, stdout(&test(&["expectations", "--format", "json"]))).unwrap();
    if let Some(o) = python(VALIDATE, &[&schema.to_string_lossy(), &json.to_string_lossy()], "jsonschema") {
        assert!(o.status.success(), "{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
    }
}

/// `outcome` is the last `combat_ended`'s, an injected one's too: it is read from the event's
/// payload, as a `when` filter reads it.
#[test]
fn the_outcome_of_an_injected_combat_ended_counts() {
    let t = rustkeep_testutil::TempDir::with_files(
        "outcome",
        &[("injected.toml", "[[steps]]\nevent = \"combat_ended\"\npayload = { outcome = \"fled\" }\n[[expect]]\noutcome = \"fled\"\n")],
    );
    let o = rustkeep(&t.0, &["test", "injected.toml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// A quest that a trigger starts while an event is handled counts from the next event on, whoever
/// started it: a ring's `item_picked_up` trigger that starts a quest on `item_picked_up` does not
/// count the pickup that started it.
#[test]
fn a_quest_started_by_an_items_trigger_counts_from_the_next_event() {
    let t = rustkeep_testutil::TempDir::with_files("quest-start", &[
        ("q/mod.toml", "[mod]\nid = \"q\"\nname = \"Q\"\nversion = \"0.1.0\"\nlibrary = true\n"),
        (
            "q/data.toml",
            "[[items]]\nid = \"q:ring\"\nname = \"Ring\"\nslot = \"ring\"\ntriggers = [ { on = \"item_picked_up\", actions = [ { action = \"start_quest\", quest = \"q:gather\" } ] } ]\n\n[[quests]]\nid = \"q:gather\"\nname = \"Gather\"\non = \"item_picked_up\"\ncount = 3\n",
        ),
        (
            "gather.toml",
            "mods = [\"q\"]\n[player]\nitems = [ { item = \"q:ring\", equipped = true } ]\n[[steps]]\naction = { action = \"give_item\", item = \"core:gold\", target = \"self\" }\n[[steps]]\naction = { action = \"give_item\", item = \"core:gold\", target = \"self\" }\n[[expect]]\nquest = \"q:gather\"\nstate = \"started\"\ncount = 1\n",
        ),
    ]);
    let o = rustkeep(&t.0, &["test", "gather.toml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}
