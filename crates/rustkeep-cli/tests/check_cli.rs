//! End-to-end tests of `rustkeep check` and `rustkeep explain`: the real binary on temporary
//! copies of the fixture mods.
//!
//! Snapshots live in `tests/snapshots/`. When an output changes on purpose, regenerate them with
//! `cargo xtask update` (or this test with `UPDATE_EXPECT=1`) and review the diff.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{json, run, stderr, stdout};
use rustkeep_testutil::{copy_dir, ensure_file_contents, repo_root, TempDir};
use serde_json::Value;

fn code(o: &Output) -> i32 {
    o.status.code().expect("rustkeep exits normally")
}

/// The report of `check --format json` in `dir`.
fn check_json(dir: &Path) -> Value {
    json(&run(dir, &["check", "--format", "json"]))
}

/// `check --fix --format json` in `dir`, which must leave it clean (exit 0, no diagnostic); what
/// it printed.
fn fix_cleanly(dir: &Path) -> Output {
    let o = run(dir, &["check", "--fix", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    assert_eq!(json(&o)["diagnostics"], serde_json::json!([]), "{}", stderr(&o));
    o
}

/// The codes and 1-based start lines of a `--format json` output.
fn codes_and_lines(v: &Value) -> Vec<(String, String, u64)> {
    v["diagnostics"]
        .as_array()
        .expect("`diagnostics` is an array")
        .iter()
        .map(|d| {
            (d["file"].as_str().unwrap_or("").to_string(), d["code"].as_str().unwrap_or("").to_string(), d["range"]["start"]["line"].as_u64().unwrap_or(0))
        })
        .collect()
}

/// A fresh folder holding the content pack (`library = true`) `id` named `name`, with one data
/// file `(name, text)`.
fn content_pack(id: &str, name: &str, file: (&str, &str)) -> TempDir {
    let manifest = format!("[mod]\nid = \"{id}\"\nname = \"{name}\"\nversion = \"0.1.0\"\nlibrary = true\n");
    TempDir::with_files(id, &[("mod.toml", &manifest), file])
}

/// Compares `actual` with the committed snapshot `tests/snapshots/NAME` (rewritten by
/// `cargo xtask update`).
fn assert_snapshot(name: &str, actual: &str) {
    ensure_file_contents(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(name), actual);
}

// ---------------------------------------------------------------------------------------------
// Exit codes

#[test]
fn exit_codes_follow_errors_warnings_and_usage() {
    let clean = TempDir::copy_of("tests/fixtures/clean_everything");
    let o = run(&clean.0, &["check"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(code(&run(&clean.0, &["check", "--deny-warnings"])), 0);

    let errors = TempDir::copy_of("tests/fixtures/cli_small");
    assert_eq!(code(&run(&errors.0, &["check", "."])), 1);

    // Only warnings: success, unless warnings are denied.
    let warn = TempDir::with_files("warnings", &[
        ("mod.toml", "[mod]\nid = \"warn\"\nname = \"Warn\"\nversion = \"0.1.0\"\n"),
        ("quests.toml", "[[quests]]\nid = \"warn:lonely\"\nname = \"Lonely\"\non = \"turn_started\"\nactions = [ { action = \"heal\", amount = 1, target = \"self\" } ]\n"),
    ]);
    let o = run(&warn.0, &["check", "--format", "json"]);
    assert_eq!(code(&o), 0);
    assert_eq!(json(&o)["summary"]["warnings"], 1);
    assert_eq!(code(&run(&warn.0, &["check", "--deny-warnings"])), 1);

    // Usage errors and unreadable inputs: 2.
    assert_eq!(code(&run(&clean.0, &["check", "--format", "yaml"])), 2);
    assert_eq!(code(&run(&clean.0, &["check", "--no-such-flag"])), 2);
    assert_eq!(code(&run(&clean.0, &["check", "--baseline", "does-not-exist.json"])), 2);
    assert_eq!(code(&run(&clean.0, &["explain", "no-such-code"])), 2);
}

// ---------------------------------------------------------------------------------------------
// The JSON contract of docs/cli.md, "check --format json"

#[test]
fn json_output_has_exactly_the_shape_of_the_spec() {
    let ws = TempDir::copy_of("tests/fixtures/overrides");
    let o = run(&ws.0, &["check", "--format", "json"]);
    assert_eq!(code(&o), 1);
    let v = json(&o);
    let top: Vec<&str> = v.as_object().expect("an object").keys().map(String::as_str).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    assert_eq!(top, ["diagnostics", "summary"]);
    let diags = v["diagnostics"].as_array().expect("an array");
    assert!(!diags.is_empty());
    let mut saw_related = false;
    for d in diags {
        let keys: Vec<&str> = d.as_object().expect("an object").keys().map(String::as_str).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
        for k in ["code", "severity", "message", "file", "range"] {
            assert!(keys.contains(&k), "missing `{k}` in {d}");
        }
        for k in &keys {
            assert!(["code", "severity", "message", "file", "range", "related", "fix"].contains(k), "unexpected key `{k}` in {d}");
        }
        assert!(["error", "warning"].contains(&d["severity"].as_str().expect("a string")));
        let file = d["file"].as_str().expect("a string");
        assert!(!file.starts_with('/') && !file.contains('\\') && !file.starts_with("./"), "`file` is relative to the cwd: {file}");
        assert!(ws.path(file).is_file(), "`file` names a file below the cwd: {file}");
        check_range(&d["range"]);
        if let Some(rel) = d.get("related") {
            saw_related = true;
            for r in rel.as_array().expect("an array") {
                let keys: Vec<&str> =
                    r.as_object().expect("an object").keys().map(String::as_str).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
                assert_eq!(keys, ["file", "message", "range"], "{r}");
                check_range(&r["range"]);
            }
        }
        if let Some(fix) = d.get("fix") {
            let keys: Vec<&str> =
                fix.as_object().expect("an object").keys().map(String::as_str).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
            assert_eq!(keys, ["applicability", "message", "replacement"]);
            assert!(["safe", "unsafe"].contains(&fix["applicability"].as_str().expect("a string")), "{fix}");
        }
    }
    assert!(saw_related, "duplicate-id and override-conflict carry related spans");
    let s = &v["summary"];
    let keys: Vec<&str> = s.as_object().expect("an object").keys().map(String::as_str).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    assert_eq!(keys, ["errors", "files", "mods", "warnings"]);
    let errors = diags.iter().filter(|d| d["severity"] == "error").count() as u64;
    let warnings = diags.iter().filter(|d| d["severity"] == "warning").count() as u64;
    assert_eq!((s["errors"].as_u64(), s["warnings"].as_u64()), (Some(errors), Some(warnings)));
    assert_eq!(s["mods"].as_u64(), Some(3));
    assert_eq!(s["files"].as_u64(), Some(6), "three manifests and three data files");

    // Paths given on the command line keep `file` relative to the cwd, not to the mod.
    let o = run(&ws.0, &["check", "--format", "json", "lanterns"]);
    let lines = codes_and_lines(&json(&o));
    assert!(lines.iter().any(|(f, c, l)| f == "lanterns/data.toml" && c == "namespace-mismatch" && *l == 2), "{lines:?}");
}

/// Keys are compared as sets (sorted): JSON objects are unordered.
fn check_range(r: &Value) {
    let keys: Vec<&str> = r.as_object().expect("an object").keys().map(String::as_str).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    assert_eq!(keys, ["end", "start"]);
    for p in [&r["start"], &r["end"]] {
        let keys: Vec<&str> = p.as_object().expect("an object").keys().map(String::as_str).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
        assert_eq!(keys, ["column", "line"]);
        assert!(p["line"].as_u64().expect("an integer") >= 1);
        assert!(p["column"].as_u64().expect("an integer") >= 1);
    }
    let (s, e) = (&r["start"], &r["end"]);
    assert!((s["line"].as_u64(), s["column"].as_u64()) <= (e["line"].as_u64(), e["column"].as_u64()), "end is not before start: {r}");
}

#[test]
fn json_columns_count_unicode_scalar_values() {
    let t = TempDir::with_files(
        "columns",
        &[
            // A content pack: only the tags' positions are asked about.
            ("mod.toml", "[mod]\nid = \"col\"\nname = \"Columns\"\nversion = \"0.1.0\"\nlibrary = true\n"),
            ("items.toml", "[[items]]\nid = \"col:x\"\nname = \"X\"\ntags = [\"col:äöü\", \"🔥\"]\n"),
        ],
    );
    let v = check_json(&t.0);
    // Both tags are invalid (non-ASCII letters, no namespace); the first one spans `"col:äöü"`.
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "invalid-id");
    assert_eq!(d["range"]["start"], serde_json::json!({ "line": 4, "column": 9 }));
    assert_eq!(d["range"]["end"], serde_json::json!({ "line": 4, "column": 18 }));
    let d = &v["diagnostics"][1];
    assert_eq!(d["code"], "invalid-id");
    // `tags = ["col:äöü", ` is 19 scalar values (22 bytes): `"🔥"` starts at column 20 and is
    // three scalar values long (six bytes, four UTF-16 units).
    assert_eq!(d["range"]["start"], serde_json::json!({ "line": 4, "column": 20 }));
    assert_eq!(d["range"]["end"], serde_json::json!({ "line": 4, "column": 23 }));
}

// ---------------------------------------------------------------------------------------------
// Snapshots of every output format

#[test]
fn snapshot_of_every_output_format() {
    let t = TempDir::copy_of("tests/fixtures/cli_small");
    let human = run(&t.0, &["check", "--no-color"]);
    assert_eq!(code(&human), 1);
    assert_snapshot("check_human.txt", &stdout(&human));
    let j = run(&t.0, &["check", "--format", "json"]);
    assert_snapshot("check_json.json", &stdout(&j));
    let s = run(&t.0, &["check", "--format", "sarif"]);
    let sarif = stdout(&s);
    let v: Value = serde_json::from_str(&sarif).expect("SARIF is JSON");
    assert_eq!(v["version"], "2.1.0");
    assert_eq!(v["runs"][0]["results"].as_array().map(Vec::len), Some(6));
    // The tool version would churn the snapshot on every release, the temporary folder (the
    // source root's URI) on every run.
    let sarif = sarif
        .replace(&format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION")), "\"version\": \"<version>\"")
        .replace(&t.0.to_string_lossy().to_string(), "<tmp>");
    assert_snapshot("check_sarif.json", &sarif);
    let g = run(&t.0, &["check", "--format", "github"]);
    assert_snapshot("check_github.txt", &stdout(&g));
    for o in [&j, &s, &g] {
        assert_eq!(code(o), 1);
    }
}

#[test]
fn explain_prints_the_meaning_an_example_and_the_fix() {
    let t = TempDir::new("explain");
    let o = run(&t.0, &["explain", "unknown-event"]);
    assert_eq!(code(&o), 0);
    let text = stdout(&o);
    assert!(text.contains("unknown-event"));
    assert!(text.contains("creature_died"), "the explanation names the real event:\n{text}");
    assert_snapshot("explain_unknown_event.txt", &text);

    let md = run(&t.0, &["explain", "--all", "--format", "markdown"]);
    assert_eq!(code(&md), 0);
    let committed = std::fs::read_to_string(repo_root().join("docs/diagnostics.md")).expect("docs/diagnostics.md exists").replace("\r\n", "\n");
    let printed = stdout(&md);
    assert!(
        printed == committed,
        "docs/diagnostics.md is not what `explain --all --format markdown` prints (`cargo xtask update` regenerates it):\n{}",
        rustkeep_testutil::diff(&committed, &printed)
    );
}

// ---------------------------------------------------------------------------------------------
// --fix

#[test]
fn fix_repairs_typos_in_place_and_keeps_the_layout() {
    let t = TempDir::with_files("fix", &[("mod.toml", "[mod]\nid = \"fixme\"\nname = \"Fix me\"\nversion = \"0.1.0\"\n")]);
    let before = "# Typos the fixer knows how to repair.\n\n[[npcs]]\nid = \"fixme:guide\"   # the guide\nname = \"Guide\"\non_talk = [ { action = \"start_quest\", quest = \"fixme:the_walk\" } ]\n\n[[quests]]\nid = \"fixme:the_walk\"\nname = \"The Walk\"\non    = \"room_enterde\"     # aligned on purpose\nwhen = { prefab = \"core:libary\" }\nactions = [ { action = \"heal\", amount = 2, target = \"self\" } ]\n";
    t.write("quests.toml", before);
    // The room the guide stands in and the floor that lays it out, so that only the typos are left.
    t.write(
        "rooms.toml",
        "[[prefabs]]\nid = \"fixme:porch\"\nnpcs = [\"fixme:guide\"]\ngrid = \"\"\"\n#####\n#n.@+\n#####\n\"\"\"\n\n[[floors]]\nid = \"fixme:yard\"\nname = \"Yard\"\ndepth = 1\nprefabs = [\"fixme:porch\"]\n",
    );
    let found = codes_and_lines(&check_json(&t.0));
    assert_eq!(found, [("quests.toml".to_string(), "unknown-event".to_string(), 11), ("quests.toml".into(), "unknown-reference".into(), 12)]);

    // The event has two letters swapped and no other event is as close: safe. The prefab is
    // another ID: only on request.
    let o = run(&t.0, &["check", "--fix", "--format", "json"]);
    assert_eq!(code(&o), 1, "the unknown prefab is left: {}", stdout(&o));
    assert_eq!(codes_and_lines(&json(&o)), [("quests.toml".to_string(), "unknown-reference".to_string(), 12)]);
    let err = stderr(&o);
    assert!(err.contains("quests.toml:11: `\"room_enterde\"` → `\"room_entered\"` (replace with `room_entered`)"), "{err}");
    assert!(err.contains("applied 1 fix in 1 file"), "{err}");
    assert!(err.contains("1 more fix is available with `--fix --unsafe-fixes`"), "{err}");
    assert_eq!(t.read("quests.toml"), before.replace("\"room_enterde\"", "\"room_entered\""));

    let o = run(&t.0, &["check", "--fix", "--unsafe-fixes", "--format", "json"]);
    assert_eq!(code(&o), 0, "after fixing, the mod is clean: {}", stdout(&o));
    assert!(json(&o)["diagnostics"].as_array().expect("an array").is_empty());
    assert!(stderr(&o).contains("quests.toml:12: `\"core:libary\"` → `\"core:library\"` (replace with `core:library`, unsafe)"), "{}", stderr(&o));
    let after = t.read("quests.toml");
    let expected = before.replace("\"room_enterde\"", "\"room_entered\"").replace("\"core:libary\"", "\"core:library\"");
    assert_eq!(after, expected, "only the two values changed; comments and alignment kept");
    let o = run(&t.0, &["check"]);
    assert_eq!(code(&o), 0);
    assert_eq!(code(&run(&t.0, &["check", "--unsafe-fixes"])), 2, "`--unsafe-fixes` goes with `--fix` or `--diff`");
}

/// A reference to an old ID of `[renamed]` works and is a warning; `--fix` (safe) writes the ID
/// it leads to — the end of a chain, too — and nothing else of the file changes.
#[test]
fn fix_writes_the_new_id_of_a_renamed_reference() {
    let t = TempDir::copy_of("tests/fixtures/versions");
    let before = t.read("rat_catcher/loot.toml");
    let renamed: Vec<u64> = codes_and_lines(&check_json(&t.0)).into_iter().filter(|(_, c, _)| c == "renamed-reference").map(|(_, _, l)| l).collect();
    assert_eq!(renamed, [4, 5]);
    run(&t.0, &["check", "--fix"]);
    let after = t.read("rat_catcher/loot.toml");
    assert_eq!(after, before.replace("\"sewers:cheese\"", "\"sewers:cheese_wedge\"").replace("\"sewers:rind\"", "\"sewers:cheese_wedge\""));
    let o = run(&t.0, &["check", "--format", "json"]);
    assert!(!codes_and_lines(&json(&o)).iter().any(|(_, c, _)| c == "renamed-reference"), "{}", stdout(&o));
}

/// The issue that made fixes safe: `core:sword` is no item, and the nearest ID by spelling
/// (`core:gold`) is an unrelated one. `--fix` must leave it for the author.
#[test]
fn fix_never_replaces_an_id_by_another_one() {
    let t = TempDir::with_files("fix_ids", &[("mod.toml", "[mod]\nid = \"lantern_guild\"\nname = \"Lantern Guild\"\nversion = \"0.1.0\"\n")]);
    let text = "[[items]]\nid = \"lantern_guild:docht\"\nname = \"Wick\"\n\n[[loot_tables]]\nid = \"lantern_guild:stash\"\nentries = [\n  { item = \"core:sword\", weight = 1 },\n  { item = \"lantern_guild:ol\", weight = 1 },\n  { item = \"lantern_guild:docht\", weight = 1 },\n]\n\n[[creatures]]\nid = \"lantern_guild:moth\"\nname = \"Moth\"\nloot = \"lantern_guild:stash\"\n";
    t.write("data.toml", text);
    let o = run(&t.0, &["check", "--fix"]);
    assert_eq!(code(&o), 1);
    assert_eq!(t.read("data.toml"), text, "nothing was changed");
    assert!(!stderr(&o).contains("applied"), "{}", stderr(&o));
    assert!(stderr(&o).contains("2 more fixes are available with `--fix --unsafe-fixes`"), "{}", stderr(&o));
    // The human report says which fixes are safe.
    assert!(stdout(&o).contains("(unsafe: only with `--fix --unsafe-fixes`, or in the editor)"), "{}", stdout(&o));
}

/// `examples/broken` holds mistakes whose fixes uncover each other's neighbours; one `--fix` run
/// settles them all and lists every change, and a second run has nothing left to do.
#[test]
fn fix_on_the_broken_example_settles_in_one_run_and_lists_every_change() {
    let t = TempDir::copy_of("examples/broken");
    let o = run(&t.0, &["check", "--fix", "--format", "json"]);
    assert_eq!(code(&o), 1, "the broken example keeps the mistakes no fix can repair");
    assert_snapshot("fix_broken_changes.txt", &stderr(&o));
    let again = run(&t.0, &["check", "--fix", "--format", "json"]);
    assert!(!stderr(&again).contains("applied"), "a second run changed something:\n{}", stderr(&again));
    assert_eq!(stdout(&again), stdout(&o), "the report after the first run is the final one");

    // `--diff` on a fresh copy shows the same changes and writes nothing.
    let fresh = TempDir::copy_of("examples/broken");
    let before = fresh.read("smithy/items.toml");
    let d = run(&fresh.0, &["check", "--diff"]);
    assert_eq!(code(&d), 1, "something would change");
    assert_eq!(fresh.read("smithy/items.toml"), before, "--diff writes nothing");
    assert!(stdout(&d).contains("--- a/smithy/items.toml\n+++ b/smithy/items.toml\n"), "{}", stdout(&d));
    assert!(stdout(&d).contains("-id = \"smithy:Ingot\" # expect: invalid-id\n+id = \"smithy:ingot\" # expect: invalid-id\n"), "{}", stdout(&d));
    // `[[item]]` is one letter from `[[items]]`: a guess, left for `--unsafe-fixes`.
    assert!(!stdout(&d).contains("+[[items]] # expect: unknown-registry"), "{}", stdout(&d));
    let listed: Vec<String> = stderr(&d).lines().filter(|l| l.contains(" → ")).map(String::from).collect();
    let applied: Vec<String> = stderr(&o).lines().filter(|l| l.contains(" → ")).map(String::from).collect();
    assert_eq!(listed, applied);
    // Nothing to fix: exit 0, empty diff.
    let clean = TempDir::copy_of("tests/fixtures/clean_everything");
    let d = run(&clean.0, &["check", "--diff"]);
    assert_eq!((code(&d), stdout(&d)), (0, String::new()));
}

/// Three mistakes in one action, each hidden behind the one before it, and a registry written as
/// one table followed by a sub-table header: one run fixes them all. Each is a slip of the hand
/// (two letters swapped), so every fix is safe.
#[test]
fn fix_repeats_until_nothing_changes() {
    let t = TempDir::with_files("fix_passes", &[
        ("mod.toml", "[mod]\nid = \"passes\"\nname = \"Passes\"\nversion = \"0.1.0\"\n"),
        ("data.toml", "[[npcs]]\nid = \"passes:guide\"\nname = \"Guide\"\non_talk = [ { action = \"strat_quest\", quest = \"passes:walk\" } ]\n\n[[quests]]\nid = \"passes:walk\"\nname = \"Walk\"\non = \"turn_strated\"\nactions = [ { actoin = \"heal\", amuont = 2, tagret = \"self\" } ]\n\n[[itmes]]\nid = \"passes:lamp\"\nname = \"Lamp\"\n\n[[items.triggers]]\non = \"item_used\"\nactions = [ { action = \"heal\", amount = 1, target = \"self\" } ]\n"),
    ]);
    let o = run(&t.0, &["check", "--fix"]);
    assert_eq!(code(&o), 0, "{}\n{}", stdout(&o), stderr(&o));
    let fixed = t.read("data.toml");
    assert!(fixed.contains("{ action = \"start_quest\", quest = \"passes:walk\" }"), "{fixed}");
    assert!(fixed.contains("on = \"turn_started\""), "{fixed}");
    assert!(fixed.contains("{ action = \"heal\", amount = 2, target = \"self\" }"), "{fixed}");
    assert!(fixed.contains("[[items]]\nid = \"passes:lamp\""), "{fixed}");
    assert_eq!(stderr(&o).lines().filter(|l| l.contains(" → ")).count(), 6, "{}", stderr(&o));
}

#[test]
fn a_registry_written_as_one_table_is_fixed_and_a_stray_sub_table_is_explained() {
    let t = TempDir::with_files(
        "fix_tables",
        &[
            ("mod.toml", "[mod]\nid = \"tables\"\nname = \"Tables\"\nversion = \"0.1.0\"\n"),
            ("a.toml", "[items]\nid = \"tables:lamp\"\nname = \"Lamp\"\n"),
            ("b.toml", "[[npcs]]\nid = \"tables:guide\"\nname = \"Guide\"\n\n[[items.triggers]]\non = \"item_used\"\n"),
        ],
    );
    let v = check_json(&t.0);
    let msgs: Vec<&str> = v["diagnostics"].as_array().unwrap().iter().map(|d| d["message"].as_str().unwrap()).collect();
    assert!(msgs.iter().any(|m| m.contains("write `[[items]]`, not `[items]`")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("`[[items.triggers]]` adds to the last `[[items]]` entry above it, but there is none")), "{msgs:?}");
    run(&t.0, &["check", "--fix"]);
    assert_eq!(t.read("a.toml"), "[[items]]\nid = \"tables:lamp\"\nname = \"Lamp\"\n");
}

/// `[items]` among `[[items]]` headers is not valid TOML, and the reader's "duplicate key" falls on
/// whichever header comes second. It is one mistake: one error on the `[items]` header, with the
/// safe fix, and the fixed file is clean.
#[test]
fn a_table_header_among_entries_is_one_error_on_it_and_fix_repairs_it() {
    let items = "[[items]]\nid = \"tables:lamp\"\nname = \"Lamp\"\n\n[items]\nid = \"tables:rope\"\nname = \"Rope\"\n\n[[items]]\nid = \"tables:wick\"\nname = \"Wick\"\n";
    // A content pack: its items are given by the mods built on it.
    let t = content_pack("tables", "Tables", ("items.toml", items));
    let v = check_json(&t.0);
    assert_eq!(codes_and_lines(&v), [("items.toml".to_string(), "wrong-type".to_string(), 5)], "{v:#}");
    let d = &v["diagnostics"][0];
    assert_eq!((d["range"]["start"]["column"].as_u64(), d["range"]["end"]["column"].as_u64()), (Some(1), Some(8)), "on the `[items]` header: {d:#}");
    assert!(d["message"].as_str().unwrap().contains("write `[[items]]`, not `[items]`"), "{d:#}");
    assert_eq!(d["fix"]["replacement"], "[[items]]", "{d:#}");
    assert_eq!(d["fix"]["applicability"], "safe", "{d:#}");
    fix_cleanly(&t.0);
    assert_eq!(t.read("items.toml"), items.replace("\n[items]\n", "\n[[items]]\n"));
}

/// Suppressions that cannot do what they say are reported, and `--fix` repairs them: a misspelt
/// code is corrected (then it silences what it meant to), a comment that silences nothing goes.
#[test]
fn fix_repairs_misspelt_and_left_over_allow_comments() {
    let t = TempDir::with_files("fix_allows", &[("mod.toml", "[mod]\nid = \"sup\"\nname = \"Suppressions\"\nversion = \"0.1.0\"\n")]);
    let text = "[[items]]\nid = \"sup:lamp\"\nname = \"Lamp\"\n\n# rustkeep: allow(unknown-tag) -- left over from an older version\n[[items]]\nid = \"sup:wick\"\nname = \"Wick\"\n\n# rustkeep: allow(quest-never-startde) -- started by the companion mod\n[[quests]]\nid = \"sup:rats\"\nname = \"Rats\"\non = \"creature_died\"\nactions = [ { action = \"give_item\", item = \"sup:lamp\", target = \"self\" }, { action = \"give_item\", item = \"sup:wick\", target = \"self\" } ]\n";
    t.write("data.toml", text);
    let found = codes_and_lines(&check_json(&t.0));
    assert_eq!(
        found,
        [
            ("data.toml".to_string(), "unused-suppression".to_string(), 5),
            ("data.toml".into(), "unknown-lint".into(), 10),
            ("data.toml".into(), "quest-never-started".into(), 12),
        ]
    );
    fix_cleanly(&t.0);
    let fixed = t.read("data.toml");
    assert!(!fixed.contains("left over"), "{fixed}");
    assert!(fixed.contains("\n\n[[items]]\nid = \"sup:wick\""), "the line went, not its neighbours: {fixed}");
    assert!(fixed.contains("# rustkeep: allow(quest-never-started) -- started by the companion mod"), "{fixed}");
}

/// A `#` inside a string starts no comment: a string that reads like an allow comment silences
/// nothing and is not reported, and a real allow comment after such a string is found where it
/// is, so the safe fix that removes it is applied by `--fix` (cut at the `#` in the string, the
/// file would no longer parse, and `--fix` would leave it as it was).
#[test]
fn a_hash_inside_a_string_is_no_allow_comment_and_fix_removes_the_real_one_after_it() {
    let text = "[[items]]\nid = \"sup:sign\"\nname = \"see # rustkeep: allow(unknown-field)\"\n\n[[items]]\nid = \"sup:lamp\"\nname = \"Lamp # 2\" # rustkeep: allow(unknown-tag)\n";
    // A content pack: its items are given by the mods built on it.
    let t = content_pack("sup", "Suppressions", ("data.toml", text));
    let v = check_json(&t.0);
    assert_eq!(codes_and_lines(&v), [("data.toml".to_string(), "unused-suppression".to_string(), 7)], "{v:#}");
    assert_eq!(v["diagnostics"][0]["range"]["start"]["column"].as_u64(), Some(37), "on the code in the real comment: {v:#}");
    let human = stdout(&run(&t.0, &["check"]));
    assert!(human.contains("= fix: remove the comment (safe: `rustkeep check --fix` applies it)"), "{human}");
    let o = fix_cleanly(&t.0);
    assert!(stderr(&o).contains("rustkeep: applied 1 fix in 1 file"), "{}", stderr(&o));
    assert_eq!(t.read("data.toml"), text.replace(" # rustkeep: allow(unknown-tag)", ""));
}

// ---------------------------------------------------------------------------------------------
// Baselines

#[test]
fn baseline_hides_known_problems_even_when_lines_move() {
    let t = TempDir::copy_of("tests/fixtures/cli_small");
    let o = run(&t.0, &["check", "--write-baseline", "baseline.json", "--format", "json"]);
    assert_eq!(code(&o), 0, "recording a baseline succeeds, whatever it records");
    assert_eq!((json(&o)["summary"]["errors"].as_u64(), json(&o)["summary"]["warnings"].as_u64()), (Some(3), Some(3)), "and still reports what it recorded");
    assert!(stderr(&o).contains("recorded 6 findings in the baseline baseline.json"), "{}", stderr(&o));
    assert!(t.path("baseline.json").is_file());

    let o = run(&t.0, &["check", "--baseline", "baseline.json", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(json(&o)["diagnostics"].as_array().expect("an array").is_empty());
    assert_eq!(json(&o)["summary"]["baselined"], 6, "the JSON says how many known findings were hidden");
    let human = run(&t.0, &["check", "--baseline", "baseline.json"]);
    assert!(stdout(&human).contains("0 errors, 0 warnings in 2 files of 1 mod (and the core); 6 known findings hidden by the baseline"), "{}", stdout(&human));

    // Blank lines above the old mistakes move them; one new mistake at the end.
    let old = t.read("items.toml");
    t.write("items.toml", format!("\n\n\n{old}\n[[items]]\nid = \"lamp:wick\"\nname = \"Wick\"\nprice = -1\n"));
    let o = run(&t.0, &["check", "--baseline", "baseline.json", "--format", "json"]);
    assert_eq!(code(&o), 1);
    let found = codes_and_lines(&json(&o));
    let total = old.lines().count() as u64 + 3 + 5;
    // The new item is a new finding twice: its price, and nothing gives it.
    assert_eq!(found, [("items.toml".to_string(), "item-never-obtainable".to_string(), total - 2), ("items.toml".into(), "wrong-type".into(), total)]);
}

/// A fingerprint keys each file by its path from the workspace root, so a baseline written in one
/// folder of a workspace hides the same findings in any other (docs/checking.md, "Baselines").
#[test]
fn a_baseline_hides_the_same_findings_from_any_folder_of_the_workspace() {
    let t = TempDir::new("baseline-workspace");
    copy_dir(&repo_root().join("tests/fixtures/cli_small"), &t.path("mods/lamp"));
    t.write("rustkeep.toml", "[workspace]\nmods = [\"mods/*\"]\n");
    let lamp = t.path("mods/lamp");
    let summary = check_json(&t.0)["summary"].clone();
    assert_eq!((summary["errors"].as_u64(), summary["warnings"].as_u64()), (Some(3), Some(3)), "{summary}");
    let baseline = t.path("baseline.json");
    let baseline = baseline.to_str().expect("a UTF-8 temporary path");
    // Written at the root, read in the mod's folder; written in the mod's folder, read at the root.
    for (write_in, check_in) in [(&t.0, &lamp), (&lamp, &t.0)] {
        assert_eq!(code(&run(write_in, &["check", "--write-baseline", baseline])), 0);
        let o = run(check_in, &["check", "--baseline", baseline, "--format", "json"]);
        assert_eq!(code(&o), 0, "{}", stdout(&o));
        assert_eq!(json(&o)["summary"]["baselined"], 6, "{}", stdout(&o));
    }
    // The records name the files from the workspace root, wherever the baseline was written.
    let records: Value = serde_json::from_str(&t.read("baseline.json")).unwrap();
    assert!(records["diagnostics"].as_array().unwrap().iter().all(|r| r["file"] == "mods/lamp/items.toml"), "{records}");
    // Without a workspace: from inside the mod and from the folder above it, and in a copy of the
    // mod under another folder name (a checkout in CI): the mod's ID names the files.
    std::fs::remove_file(t.path("rustkeep.toml")).unwrap();
    copy_dir(&lamp, &t.path("checkout/lamplighter-main"));
    for (write_in, check_in) in [(t.path("mods"), lamp.clone()), (lamp.clone(), t.path("mods")), (lamp.clone(), t.path("checkout/lamplighter-main"))] {
        assert_eq!(code(&run(&write_in, &["check", "--write-baseline", baseline])), 0);
        let o = run(&check_in, &["check", "--baseline", baseline, "--format", "json"]);
        assert_eq!(json(&o)["summary"]["baselined"], 6, "{}", stdout(&o));
    }
    let records: Value = serde_json::from_str(&t.read("baseline.json")).unwrap();
    assert!(records["diagnostics"].as_array().unwrap().iter().all(|r| r["file"] == "lamp/items.toml"), "{records}");
}

// ---------------------------------------------------------------------------------------------
// Clean inputs print no diagnostics

#[test]
fn the_bundled_core_alone_and_the_examples_are_clean() {
    let t = TempDir::with_files("empty_mod", &[("empty/mod.toml", "[mod]\nid = \"empty\"\nname = \"Empty\"\nversion = \"0.1.0\"\n")]);
    let o = run(&t.0, &["check", "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert_eq!(json(&o)["diagnostics"], serde_json::json!([]));
    assert_eq!(json(&o)["summary"]["mods"], 1);

    for ex in ["examples/fire_and_thorns", "examples/rat_catcher"] {
        let t = TempDir::copy_of(ex);
        let o = run(&t.0, &["check", "--format", "json", "--deny-warnings"]);
        assert_eq!(code(&o), 0, "{ex}: {}", stdout(&o));
        assert_eq!(json(&o)["diagnostics"], serde_json::json!([]), "{ex}");
        let human = run(&t.0, &["check", "--no-color"]);
        assert_eq!(code(&human), 0);
        assert!(stdout(&human).starts_with("0 errors, 0 warnings"), "{ex}: {}", stdout(&human));
    }
}

/// The bundled core's own diagnostics are never shown (it is the toolkit's data), so the core is
/// also checked as a folder given by path, where every diagnostic counts: not even a warning.
#[test]
fn the_core_checked_as_a_folder_has_no_diagnostic_at_all() {
    let t = TempDir::new("core_as_path");
    copy_dir(&repo_root().join("crates/rustkeep-data/core"), &t.path("core"));
    t.write("rustkeep.toml", "[workspace]\ncore = \"core\"\nmods = []\n");
    let o = run(&t.0, &["check", "--format", "json", "--deny-warnings"]);
    assert_eq!(json(&o)["diagnostics"], serde_json::json!([]), "{}", stdout(&o));
    assert_eq!(code(&o), 0);
    assert!(json(&o)["summary"]["files"].as_u64().unwrap() >= 11, "the core's files were checked: {}", stdout(&o));
}

/// A path that does not exist is an I/O failure: exit 2 and a message, not a diagnostic.
#[test]
fn a_missing_path_exits_with_2() {
    let ws = TempDir::copy_of("tests/fixtures/cli_small");
    let o = run(&ws.0, &["check", "--format", "json", "no/such/folder"]);
    assert_eq!(code(&o), 2);
    assert!(o.stdout.is_empty(), "nothing on stdout");
    assert!(String::from_utf8_lossy(&o.stderr).contains("no/such/folder"));
}

// ---------------------------------------------------------------------------------------------
// Messages that say what was meant

#[test]
fn messages_say_what_was_meant() {
    let t = TempDir::with_files(
        "messages",
        &[
            ("mod.toml", "[mod]\nid = \"lantern_guild\"\nname = \"Lantern Guild\"\nversion = \"0.1.0\"\n"),
            (
                "data.toml",
                "[[loot_tables]]\nid = \"lantern_guild:moth_loot\"\nrolls = \"1..2\"\nentries = [ { item = \"core:gold\", weight = 1 } ]\n\n\
         [[creatures]]\nid = \"lantern_guild:moth\"\nname = \"Moth\"\nloot = \"moth_loot\"\nattributes = { health = 3, dmg = 1 }\n\n\
         [[npcs]]\nid = \"lantern_guild:keeper\"\nname = \"Keeper\"\non_talk = [ { action = \"start_quest\", quest = \"lantern_guild:moths\" } ]\n\n\
         [[quests]]\nid = \"lantern_guild:moths\"\nname = \"Moths\"\non = \"turn_started\"\nwhen = { damage_type = \"fire\" }\n\
         condition = [ { check = \"has_tag\", who = \"player\", value = \"core:undead\" } ]\n",
            ),
        ],
    );
    let v = check_json(&t.0);
    let msgs: Vec<(String, String)> =
        v["diagnostics"].as_array().unwrap().iter().map(|d| (d["code"].as_str().unwrap().to_string(), d["message"].as_str().unwrap().to_string())).collect();
    let has = |code: &str, text: &str| msgs.iter().any(|(c, m)| c == code && m.contains(text));
    assert!(has("invalid-range", "write `\"1-2\"` (min-max, both included)"), "{msgs:#?}");
    assert!(has("invalid-id", "this one has no namespace; did you mean `lantern_guild:moth_loot`?"), "{msgs:#?}");
    assert!(has("unknown-attribute", "`health` is not an attribute; did you mean `max_health`?"), "{msgs:#?}");
    assert!(has("unknown-attribute", "`dmg` is not an attribute; did you mean `damage`?"), "{msgs:#?}");
    assert!(has("malformed-condition", "the player in a quest"), "{msgs:#?}");
    assert!(has("when-field-not-carried", "`turn_started` carries no `when` fields at all"), "{msgs:#?}");
    // The table named without its namespace is not also reported as unused: one mistake, one
    // diagnostic.
    assert!(!msgs.iter().any(|(c, _)| c == "unused-loot-table"), "{msgs:#?}");
    // The missing namespace is a guess, however few mods have that name: fixed on request only.
    let o = run(&t.0, &["check", "--fix", "--format", "json"]);
    assert!(t.read("data.toml").contains("loot = \"moth_loot\""), "{}", stderr(&o));
    let o = run(&t.0, &["check", "--fix", "--unsafe-fixes", "--format", "json"]);
    assert!(t.read("data.toml").contains("loot = \"lantern_guild:moth_loot\""), "{}", stderr(&o));
}

#[test]
fn a_manifest_without_its_header_is_one_mistake() {
    let t = TempDir::with_files(
        "headless",
        &[
            // A content pack, which the manifest says even without its header.
            ("mod.toml", "id = \"headless\"\nname = \"Headless\"\nversion = \"0.1.0\"\nlibrary = true\n"),
            ("items.toml", "[[items]]\nid = \"headless:cap\"\nname = \"Cap\"\n"),
        ],
    );
    let v = check_json(&t.0);
    let codes: Vec<&str> = v["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["invalid-manifest"], "{v}");
    run(&t.0, &["check", "--fix"]);
    assert!(t.read("mod.toml").starts_with("[mod]\nid = \"headless\""));
    assert_eq!(code(&run(&t.0, &["check"])), 0);
}

#[test]
fn the_human_report_lists_errors_before_the_warnings_they_may_cause() {
    let t = TempDir::with_files("order", &[
        ("mod.toml", "[mod]\nid = \"order\"\nname = \"Order\"\nversion = \"0.1.0\"\n"),
        ("data.toml", "[[loot_tables]]\nid = \"order:spare\"\nentries = [ { item = \"core:gold\", weight = 1 } ]\n\n[[creatures]]\nid = \"order:rat\"\nname = \"Rat\"\nlot = \"order:spare\"\n"),
    ]);
    let out = stdout(&run(&t.0, &["check", "--no-color"]));
    let error = out.find("error[unknown-field]").expect("the misspelt key");
    let warning = out.find("warning[unused-loot-table]").expect("its consequence");
    assert!(error < warning, "{out}");
    let met = out.find("warning[creature-never-met]").expect("the rat no floor names");
    assert!(error < met, "{out}");
    assert!(out.contains("1 error, 2 warnings"), "{out}");
}

#[test]
fn explain_without_a_code_lists_the_codes() {
    let t = TempDir::new("explain_list");
    let o = run(&t.0, &["explain"]);
    assert_eq!(code(&o), 0);
    let text = stdout(&o);
    for c in ["toml-syntax", "unknown-lint", "unused-suppression", "override-conflict"] {
        assert!(text.contains(&format!("  {c} ")), "{c}: {text}");
    }
    let o = run(&t.0, &["explain", "quest-never-startd"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("did you mean `quest-never-started`?"), "{}", stderr(&o));
}

/// A scenario with five kinds of mistakes — a value of the wrong type, an unknown ID, a misspelt
/// key, an enemy the scenario does not have, a damage type that does not exist — gets five
/// diagnostics from `rustkeep check`, each on its line; `simulate` refuses it with the same lines.
/// (The language server's side is `crates/rustkeep-lsp/tests/scenarios.rs`.)
#[test]
fn a_scenario_with_five_kinds_of_mistakes_gets_five_located_diagnostics() {
    let t = TempDir::with_files("scenario_mistakes", &[
        ("mod.toml", "[mod]\nid = \"testmod\"\nname = \"Test\"\nversion = \"0.1.0\"\n"),
        ("creatures.toml", "[[creatures]]\nid = \"testmod:brawler\"\nname = \"Brawler\"\nattributes = { max_health = 12, damage = 3 }\n"),
        ("scenarios/fight.toml", "seed = \"forty-two\"\nmods = [\"..\"]\n\n[player]\noptions = [\"core:warior\"]\n\n[[enemies]]\ncreature = \"testmod:brawler\"\ncount = 2\n\n[[steps]]\nattack = \"enemy:0\"\nsorce = \"player\"\n\n[[steps]]\nattack = \"enemy:5\"\n\n[[steps]]\nevent = \"damage_taken\"\npayload = { amount = 2, damage_type = \"fyre\" }\n"),
    ]);
    let o = run(&t.0, &["check", "--format", "json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let mut got: Vec<(String, u64)> =
        codes_and_lines(&json(&o)).into_iter().filter(|(file, _, _)| file.ends_with("scenarios/fight.toml")).map(|(_, code, line)| (code, line)).collect();
    got.sort_by_key(|(_, line)| *line);
    let expected = [("wrong-type", 1), ("unknown-reference", 5), ("unknown-field", 13), ("unknown-reference", 16), ("unknown-damage-type", 20)];
    assert_eq!(got, expected.map(|(c, l)| (c.to_string(), l)), "{}", stdout(&o));
    // The human report names each file:line, with a did-you-mean where there is one.
    let human = stdout(&run(&t.0, &["check"]));
    for needle in ["fight.toml:5:", "core:warrior", "fight.toml:13:", "`source`", "fight.toml:16:", "fight.toml:20:", "fight.toml:1:"] {
        assert!(human.contains(needle), "`{needle}` missing:\n{human}");
    }
    // `simulate` refuses the scenario, naming the lines.
    let s = run(&t.0, &["simulate", "scenarios/fight.toml"]);
    assert_eq!(code(&s), 2, "{}", stderr(&s));
    for line in [":1:", ":5:", ":13:", ":16:", ":20:"] {
        assert!(stderr(&s).contains(&format!("fight.toml{line}")), "line {line} missing:\n{}", stderr(&s));
    }
}

/// A standard output or error that cannot be written (a full disk here; a terminal that hung up
/// behaves the same) is a failure the exit code reports, never a panic (exit 101).
#[cfg(target_os = "linux")]
#[test]
fn an_output_that_cannot_be_written_is_an_exit_code_not_a_panic() {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let examples = repo_root().join("examples");
    let tmp = TempDir::new("full");
    let baseline = tmp.0.join("baseline.json");
    let baseline = baseline.to_str().expect("a UTF-8 temporary path");
    let cases: [(&[&str], bool); 4] = [
        // Messages on standard error: the summary of `fmt --check`, the baseline's note.
        (&["fmt", "--check", "rat_catcher"], false),
        (&["check", "rat_catcher", "--write-baseline", baseline], false),
        // The report on standard output.
        (&["check", "rat_catcher", "--format", "json"], true),
        (&["loot", "core:floor_3_table", "--format", "json"], true),
    ];
    for (args, on_stdout) in cases {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_rustkeep"));
        cmd.args(args).current_dir(&examples).env("NO_COLOR", "1");
        if on_stdout {
            cmd.stdout(full()).stderr(std::process::Stdio::null());
        } else {
            cmd.stderr(full()).stdout(std::process::Stdio::null());
        }
        let status = cmd.status().expect("the rustkeep binary runs");
        let code = status.code().expect("rustkeep exits normally");
        assert_ne!(code, 101, "`rustkeep {}` panicked", args.join(" "));
        if on_stdout {
            assert_eq!(code, 2, "`rustkeep {}`: an output that cannot be written is an I/O failure", args.join(" "));
        }
    }
}

/// A report or a baseline written to something that is not a file (a named pipe here; `/dev/null`
/// and `/dev/stdout` alike) goes into it: replacing it with a file, as a file is replaced, would
/// destroy the pipe or the device.
#[cfg(unix)]
#[test]
fn a_baseline_written_to_a_pipe_goes_into_the_pipe() {
    use std::os::unix::fs::FileTypeExt;
    let tmp = TempDir::new("fifo");
    let fifo = tmp.0.join("baseline.pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs").success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(&fifo).expect("the pipe is read"))
    };
    let o = run(&repo_root().join("examples"), &["check", "broken", "--write-baseline", fifo.to_str().expect("UTF-8")]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // Checked first: a reader of a pipe that was replaced would wait forever.
    assert!(std::fs::metadata(&fifo).expect("still there").file_type().is_fifo(), "the pipe is still a pipe");
    let text = reader.join().expect("the reader ends");
    assert!(serde_json::from_str::<Value>(&text).is_ok_and(|v| v.is_object()), "the baseline came through the pipe: {text}");
}
