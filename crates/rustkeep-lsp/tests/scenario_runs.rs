//! Scenario runs in the editor (docs/editors/lsp.md, "Scenario runs"): a save of a scenario file
//! with `[[expect]]` runs it in the background and publishes each failed expectation on its
//! table's first line, merged with the file's checks; the `▶ run` code lens and its command
//! (`rustkeep.runScenario`) run the text in the editor and tell the result.
//!
//! The server is the real one (`rustkeep_lsp::server::serve`, the input sanitizer and the
//! Content-Length framing included) on its own runtime, as `rustkeep lsp` runs it, driven by a
//! client over in-memory pipes. Scenarios are seeded: every run gives the same answer.

mod common;

use std::path::PathBuf;

use common::client;
use common::*;
use rustkeep_data::text::Encoding;
use rustkeep_lsp::lsp::*;
use rustkeep_lsp::scenario_runs::{self, Outcome};
use serde_json::{json, Value};

/// A warrior against one rat (the core only): the first expectation holds (the warrior starts
/// with an iron sword), the second does not (nobody carries the boss's blade).
const SCENARIO: &str = r#"seed = 1

[player]
options = ["core:warrior"]

[[enemies]]
creature = "core:rat"

[[steps]]
attack = "enemy:0"

[[expect]]
has_item = "core:iron_sword"

[[expect]]
has_item = "core:boss_blade"
"#;

/// The same scenario with both expectations holding.
fn passing() -> String {
    SCENARIO.replace("core:boss_blade", "core:iron_sword")
}

/// The zero-based line of the last `[[expect]]` of `text`.
fn last_expect_line(text: &str) -> u32 {
    text.lines().enumerate().filter(|(_, l)| l.starts_with("[[expect]]")).last().unwrap().0 as u32
}

const FAILURE: &str = "expected at least 1, got 0 (core:boss_blade carried by player)";

/// A workspace with the mod `testmod` holding `scenarios/rats.toml` with `text` and a data file.
fn workspace(text: &str) -> (TempDir, PathBuf) {
    let ws = TempDir::with_files(
        "runs",
        &[
            ("testmod/mod.toml", "[mod]\nid = \"testmod\"\nname = \"Test\"\nversion = \"0.1.0\"\n"),
            ("testmod/items.toml", "[[items]]\nid = \"testmod:charm\"\nname = \"Charm\"\n"),
            ("testmod/scenarios/rats.toml", text),
        ],
    );
    let file = ws.join("testmod/scenarios/rats.toml");
    (ws, file)
}

fn test_diags(diags: &[Value]) -> Vec<&Value> {
    diags.iter().filter(|d| d["source"] == scenario_runs::SOURCE).collect()
}

#[test]
fn a_save_publishes_exactly_the_failed_expectation_on_its_line_and_a_passing_rerun_clears_it() {
    let (ws, file) = workspace(SCENARIO);
    let u = file_uri(&file);
    let mut c = client::start();
    let init = client::initialize(&mut c, &ws);
    assert_eq!(init["capabilities"]["textDocumentSync"]["save"], json!({ "includeText": false }), "saves are asked for");
    c.open(&u, SCENARIO, 1);
    let (_, first) = c.diagnostics(&u);
    assert!(first.is_empty(), "the scenario checks clean: {first:?}");

    c.save(&u);
    let (version, diags) = c.diagnostics(&u);
    assert_eq!(version, Some(1));
    assert_eq!(diags.len(), 1, "exactly the failed expectation: {diags:#?}");
    let d = &diags[0];
    let line = last_expect_line(SCENARIO);
    assert_eq!(d["range"], json!({ "start": { "line": line, "character": 0 }, "end": { "line": line, "character": 10 } }));
    assert_eq!((&d["severity"], &d["source"], &d["code"]), (&json!(1), &json!("rustkeep test"), &json!("expectation-failed")));
    assert_eq!(d["message"], FAILURE);
    client::lens_refresh(&mut c);
    assert_eq!(c.code_lenses(&u)[0]["command"]["title"], "▶ run · 1 failed");

    // The fix: the edit hides the result of the old text, the save's run passes and publishes
    // nothing; the lens says so.
    c.change(&u, &passing(), 2);
    let (version, diags) = c.diagnostics(&u);
    assert_eq!((version, diags.len()), (Some(2), 0), "{diags:#?}");
    c.save(&u);
    client::lens_refresh(&mut c);
    assert_eq!(c.code_lenses(&u)[0]["command"]["title"], "▶ run · 2 passed");
    let stray: Vec<&Value> = c.seen().iter().filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == u.as_str()).collect();
    assert!(stray.is_empty(), "nothing more to publish: {stray:#?}");
}

/// The failures are merged with the file's checks, which stay.
#[test]
fn the_failures_join_the_files_check_diagnostics() {
    let text = SCENARIO.replacen("seed = 1\n", "seed = 1\n# rustkeep: allow(no-such-code)\n", 1);
    let (ws, file) = workspace(&text);
    let u = file_uri(&file);
    let mut c = client::start();
    client::initialize(&mut c, &ws);
    c.open(&u, &text, 1);
    let (_, first) = c.diagnostics(&u);
    assert_eq!(first.len(), 1, "{first:#?}");
    assert_eq!((&first[0]["code"], first[0]["severity"].as_i64()), (&json!("unknown-lint"), Some(2)), "a warning: the scenario still runs");
    c.save(&u);
    let (_, diags) = c.diagnostics(&u);
    let codes: Vec<&Value> = diags.iter().map(|d| &d["code"]).collect();
    assert_eq!(codes, [&json!("unknown-lint"), &json!("expectation-failed")]);
    assert_eq!(diags[1]["range"]["start"]["line"], last_expect_line(&text));
}

/// An edit that arrives while a run is under way: whatever the timing, a result is published
/// only with the version of the text it ran on, and the last list is the newest text's.
#[test]
fn a_newer_edit_before_the_run_ends_keeps_its_result_from_the_newer_text() {
    let (ws, file) = workspace(SCENARIO);
    let u = file_uri(&file);
    let mut c = client::start();
    client::initialize(&mut c, &ws);
    c.open(&u, SCENARIO, 1);
    c.diagnostics(&u);
    // A comment line moves the failing table one line down in version 2.
    let v2 = format!("# rats\n{SCENARIO}");
    let (old, new) = (last_expect_line(SCENARIO), last_expect_line(&v2));
    c.save(&u);
    c.change(&u, &v2, 2);
    c.save(&u);
    let mut published = Vec::new();
    loop {
        let (version, diags) = c.diagnostics(&u);
        let lines: Vec<i64> = test_diags(&diags).iter().map(|d| d["range"]["start"]["line"].as_i64().unwrap()).collect();
        published.push((version, lines.clone()));
        if version == Some(2) && lines == [new as i64] {
            break;
        }
    }
    for (version, lines) in &published {
        let want = if *version == Some(1) { old } else { new };
        assert!(lines.iter().all(|l| *l == want as i64), "a result published with a text it did not run on: {published:?}");
    }
    assert!(!published.windows(2).any(|w| w[0].0 > w[1].0), "versions go forward: {published:?}");
}

#[test]
fn the_lens_runs_the_text_in_the_editor_and_tells_the_result() {
    // On disk every expectation holds; the editor's unsaved text has the failing one.
    let (ws, file) = workspace(&passing());
    let u = file_uri(&file);
    let mut c = client::start();
    let init = client::initialize(&mut c, &ws);
    assert_eq!(init["capabilities"]["codeLensProvider"], json!({ "resolveProvider": false }));
    assert_eq!(init["capabilities"]["executeCommandProvider"]["commands"], json!(["rustkeep.runScenario"]));
    c.open(&u, SCENARIO, 1);
    c.diagnostics(&u);

    let lenses = c.code_lenses(&u);
    assert_eq!(lenses.len(), 1, "{lenses:#?}");
    assert_eq!(lenses[0]["range"]["start"], json!({ "line": 0, "character": 0 }));
    assert_eq!(lenses[0]["command"], json!({ "title": "▶ run", "command": "rustkeep.runScenario", "arguments": [u] }));
    // No lens on a data file.
    assert!(c.code_lenses(&file_uri(&ws.join("testmod/items.toml"))).is_empty());

    let cmd = lenses[0]["command"].clone();
    let result = c.request("workspace/executeCommand", json!({ "command": cmd["command"], "arguments": cmd["arguments"] }));
    let line = last_expect_line(SCENARIO) + 1;
    let message = format!("rustkeep test: 1 passed, 1 failed — line {line}: {FAILURE}");
    assert_eq!(result, json!({ "passed": 1, "failed": 1, "ran": true, "message": message }));
    let shown = c.wait("window/showMessage", |m| m["method"] == "window/showMessage");
    assert_eq!(shown["params"], json!({ "type": 1, "message": message }));
    let (version, diags) = c.diagnostics(&u);
    assert_eq!(version, Some(1));
    assert_eq!(test_diags(&diags).len(), 1);
    assert_eq!(diags[0]["message"], FAILURE);
    client::lens_refresh(&mut c);
    assert_eq!(c.code_lenses(&u)[0]["command"]["title"], "▶ run · 1 failed");

    // A file that is no scenario: told, not run.
    let other = file_uri(&ws.join("testmod/items.toml"));
    let result = c.request("workspace/executeCommand", json!({ "command": "rustkeep.runScenario", "arguments": [other] }));
    assert_eq!(result["ran"], false);
    assert!(result["message"].as_str().unwrap().contains("is not a scenario file"), "{result}");
}

// ----- the state, in-process -------------------------------------------------------------------

fn fixture(text: &str) -> Fixture {
    Fixture::new(&[("scenarios/rats.toml", text)], Encoding::Utf16)
}

/// A result that arrives after an edit of its file is dropped, deterministically.
#[test]
fn a_result_that_arrives_after_an_edit_is_dropped() {
    let mut f = fixture(SCENARIO);
    f.open("scenarios/rats.toml", SCENARIO);
    let u = f.uri("scenarios/rats.toml");
    f.state.take_publish();
    assert!(f.state.runs_on_save(&u));
    let input = f.state.run_input(&u).unwrap();
    let outcome = scenario_runs::run(&input, &|| false).expect("not cancelled");
    assert_eq!(outcome.counts(), (1, 1));
    // The edit comes first.
    f.state.change(
        &f.path("scenarios/rats.toml"),
        2,
        vec![TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(TextDocumentContentChangeWholeDocument { text: passing() })],
    );
    assert!(!f.state.record_run(&input.path, input.text.clone(), outcome.clone()), "stale");
    let fid = f.state.file_of(&u).unwrap();
    assert!(f.state.last_run(fid).is_none());
    assert!(f.state.take_publish().iter().all(|(_, d, _)| d.is_empty()));
    // Back to the text it ran on: the result describes it again.
    f.state.change(
        &f.path("scenarios/rats.toml"),
        3,
        vec![TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(TextDocumentContentChangeWholeDocument { text: SCENARIO.into() })],
    );
    assert!(f.state.record_run(&input.path, input.text.clone(), outcome));
    let published = f.state.take_publish();
    let (_, diags, version) = published.iter().find(|(p, _, _)| *p == u).expect("the scenario's list");
    assert_eq!((diags.len(), *version), (1, Some(3)));
    assert_eq!(diags[0].range.start.line, last_expect_line(SCENARIO));
}

#[test]
fn a_save_does_not_run_a_scenario_with_errors_or_without_expectations() {
    let mut f = fixture(SCENARIO);
    let u = f.uri("scenarios/rats.toml");
    f.open("scenarios/rats.toml", &SCENARIO.replace("core:boss_blade", "core:no_such_item"));
    assert!(!f.state.runs_on_save(&u), "an unknown-reference: not run");
    let no_expect = &SCENARIO[..SCENARIO.find("[[expect]]").unwrap()];
    f.open("scenarios/rats.toml", no_expect);
    assert!(!f.state.runs_on_save(&u), "nothing to check");
    // The command runs it anyway, and a scenario that does not validate is refused as
    // `rustkeep test` refuses it.
    f.open("scenarios/rats.toml", &SCENARIO.replace("core:boss_blade", "core:no_such_item"));
    let input = f.state.run_input(&u).unwrap();
    let Some(Outcome::NotRun(why)) = scenario_runs::run(&input, &|| false) else { panic!("refused") };
    assert!(why.contains("the scenario has 1 error"), "{why}");
    // A data file is no scenario.
    assert!(f.state.run_input(&f.uri("mod.toml")).is_err());
}
