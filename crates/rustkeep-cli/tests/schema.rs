//! The committed JSON Schemas (`schemas/`, every schema `rustkeep schema --list` names, in both
//! dialects) are what `rustkeep schema` prints today (`cargo xtask update` rewrites them), so a
//! serde type that changed without its schema being regenerated fails here. An independent
//! validator (Python's `jsonschema`, run by `scripts/validate_schema.py`) then checks them against
//! what they describe, with both dialects: the bundled core and the example mods against the
//! data-file schema; every `mod.toml` and `rustkeep.toml` of the examples and fixtures against
//! theirs, valid exactly when the toolkit's own reader finds no problem in the file; and the JSON
//! of `check` (on the examples, `examples/broken` included), `loot` (every core table) and `graph`
//! against the schemas of those outputs.

use std::path::{Path, PathBuf};
use std::process::Command;

use rustkeep_data::db::Database;
use rustkeep_data::manifest::{read_manifest, read_workspace};
use rustkeep_data::project::{load, Overlay};
use rustkeep_data::source::FileId;
use rustkeep_testutil::{ensure_folder_contents, repo_path, repo_root, tools, walk_files, TempDir};

const DRAFTS: [&str; 2] = ["2020-12", "07"];

fn rustkeep_in(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rustkeep")).current_dir(dir).args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap())
}

fn rustkeep(args: &[&str]) -> String {
    let (code, out) = rustkeep_in(repo_root(), args);
    assert_eq!(code, 0, "rustkeep {args:?}");
    out
}

/// `(name, 2020-12 file name)` of every registered schema.
fn targets() -> Vec<(String, String)> {
    let list = rustkeep(&["schema", "--list"]);
    list.lines()
        .map(|l| {
            let mut cols = l.split_whitespace();
            (cols.next().unwrap().to_string(), cols.next().unwrap().to_string())
        })
        .collect()
}

/// The committed file of a schema in a dialect.
fn committed(file: &str, draft: &str) -> String {
    match draft {
        "07" => file.replace(".schema.json", ".draft-07.schema.json"),
        _ => file.to_string(),
    }
}

/// The committed path of the schema named `name`.
fn schema_path(name: &str, draft: &str) -> String {
    let (_, file) = targets().into_iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no schema `{name}`"));
    format!("schemas/{}", committed(&file, draft))
}

#[test]
fn committed_schemas_are_current() {
    let targets = targets();
    for wanted in ["data", "mod", "scenario", "workspace", "check-json", "loot-json", "graph-json", "simulate-json", "arena-json", "save", "recording"] {
        assert!(targets.iter().any(|(n, _)| n == wanted), "`rustkeep schema --list` lacks {wanted}");
    }
    let mut files = Vec::new();
    for (name, file) in &targets {
        for draft in DRAFTS {
            files.push((committed(file, draft), rustkeep(&["schema", "--for", name, "--draft", draft])));
        }
    }
    ensure_folder_contents(&repo_path("schemas"), ".json", &files, "`rustkeep schema --for NAME --draft DRAFT`");
    assert_eq!(rustkeep(&["schema"]), rustkeep(&["schema", "--for", "data", "--draft", "2020-12"]), "the default is the data-file schema");
}

fn have_validator() -> bool {
    // The data is TOML 1.0: Python's own `tomllib` (3.11 and later) reads it.
    tools::jsonschema() && tools::python_module("tomllib", "Python 3.11 or later (its `tomllib` reads the data)")
}

/// Runs the validator with `schema` on `inputs`; the summary line it prints.
fn validate(schema: &str, inputs: &[&str], expect_invalid: bool) -> String {
    let mut args = vec!["scripts/validate_schema.py", schema];
    args.extend_from_slice(inputs);
    if expect_invalid {
        args.push("--expect-invalid");
    }
    let out = Command::new("python3").current_dir(repo_root()).args(&args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{schema} on {inputs:?} (expect invalid: {expect_invalid}):\n{text}{}", String::from_utf8_lossy(&out.stderr));
    text
}

#[test]
fn core_and_examples_validate_against_the_schema() {
    if !have_validator() {
        return;
    }
    for draft in DRAFTS {
        let text = validate(&schema_path("data", draft), &["crates/rustkeep-data/core", "examples/fire_and_thorns", "examples/rat_catcher"], false);
        assert!(text.contains(" 0 invalid"), "{text}");
    }
    // Every scenario of the examples and of the engine's golden traces fits the scenario schema.
    for draft in DRAFTS {
        let text = validate(&schema_path("scenario", draft), &["examples/scenarios", "crates/rustkeep-engine/tests/scenarios"], false);
        assert!(text.contains(" 0 invalid"), "{text}");
    }
}

/// The files `cases` (name, text), each with a mistake, are all invalid under `schema`.
fn assert_all_invalid(schema: &str, cases: &[(&str, &str)]) {
    let dir = TempDir::with_files("schema-mistakes", cases);
    let text = validate(schema, &[dir.to_str().unwrap()], true);
    assert!(text.contains(&format!("0 valid, {} invalid", cases.len())), "{schema}: {text}");
}

#[test]
fn the_scenario_schema_sees_a_scenarios_mistakes() {
    if !have_validator() {
        return;
    }
    let cases = [
        ("unknown_key.toml", "sede = 1\n"),
        ("two_acts.toml", "[[steps]]\nattack = \"enemy:0\"\npickup = true\n"),
        ("bad_actor.toml", "[[steps]]\nattack = \"goblin\"\n"),
        ("bad_damage_type.toml", "[[steps]]\nevent = \"damage_taken\"\npayload = { damage_type = \"fyre\" }\n"),
        ("no_creature.toml", "[[enemies]]\ncount = 2\n"),
        ("bad_direction.toml", "[[steps]]\nmove = \"up\"\n"),
        ("wait_false.toml", "[[steps]]\nwait = false\n"),
        ("start_number.toml", "[[steps]]\nstart = 1\n"),
    ];
    for draft in DRAFTS {
        assert_all_invalid(&schema_path("scenario", draft), &cases);
    }
}

#[test]
fn schema_sees_structural_mistakes() {
    if !have_validator() {
        return;
    }
    let cases = [
        ("unknown_event.toml", "[[quests]]\nid = \"m:q\"\nname = \"Q\"\non = \"enemy_killed\"\n"),
        ("unknown_registry.toml", "[[quest]]\nid = \"m:q\"\n"),
        ("unknown_field.toml", "[[items]]\nid = \"m:a\"\nname = \"A\"\ntag = [\"m:x\"]\n"),
        ("bad_weight.toml", "[[loot_tables]]\nid = \"m:t\"\nentries = [ { item = \"m:a\", weight = -3 } ]\n"),
        ("bad_attribute.toml", "[[items]]\nid = \"m:a\"\nname = \"A\"\nmodifiers = [ { attribute = \"health\", add = 1 } ]\n"),
        ("bad_id.toml", "[[items]]\nid = \"m:Big\"\nname = \"A\"\n"),
        ("bad_range.toml", "[[loot_tables]]\nid = \"m:t\"\nrolls = \"2-\"\nentries = [ { nothing = true, weight = 1 } ]\n"),
    ];
    assert_all_invalid("schemas/rustkeep.schema.json", &cases);
}

/// The broken example fails the schema where the schema can see the mistake (syntax, unknown
/// registries and fields, wrong types, weights); its cross-file mistakes (namespaces, overrides,
/// dependencies) are invisible to a schema, so those files pass it.
#[test]
fn the_broken_example_fails_the_schema_where_it_can_see_the_mistake() {
    if !have_validator() {
        return;
    }
    let text = validate(
        "schemas/rustkeep.schema.json",
        &["examples/broken/smithy/broken.toml", "examples/broken/smithy/items.toml", "examples/broken/smithy/semantic.toml"],
        true,
    );
    assert!(text.contains("0 valid, 3 invalid"), "{text}");
    let text = validate("schemas/rustkeep.schema.json", &["examples/broken/market/data.toml", "examples/broken/tavern/data.toml"], false);
    assert!(text.contains("2 valid, 0 invalid"), "{text}");
}

/// Every `mod.toml` and `rustkeep.toml` of the examples and the fixtures, and a set of written
/// ones, passes its schema exactly when the toolkit's reader finds no problem in it: the schema
/// sees what the reader sees in one file (keys, types, the ID and version grammars, `core`
/// reserved, lint names and levels, the line width's bounds), and cross-file mistakes
/// (unknown dependencies, globs matching nothing) pass both.
#[test]
fn manifests_and_workspace_files_validate_as_the_reader_reads_them() {
    if !have_validator() {
        return;
    }
    let written = TempDir::new("manifests");
    let manifests = [
        "[mod]\nid = \"a\"\n",
        "[mod]\nid = \"a_1\"\nname = \"A\"\nversion = \"0.1.0-rc.1+build\"\ndepends = [\"core\", \"b\"]\nload_after = [\"c\"]\n",
        "[mod]\nid = \"a\"\nnmae = \"A\"\n",
        "[mod]\nid = \"core\"\n",
        "[mod]\nid = \"Big\"\n",
        "[mod]\nid = \"a\"\nversion = \"1.0\"\n",
        "[mod]\nid = \"a\"\ndepends = \"b\"\n",
        "[mod]\nid = \"a\"\nload_after = [\"B\"]\n",
        "[mod]\nname = \"no id\"\n",
        "[package]\nid = \"a\"\n",
        "[mod]\nid = 3\n",
    ];
    let workspaces = [
        "[workspace]\nmods = [\"mods/*\"]\ncore = \"core_data\"\n[format]\nline_width = 20\nreorder_keys = true\n",
        "[lints]\nunknown-tag = \"allow\"\nunused-loot-table = \"warn\"\nunknown-event = \"deny\"\n",
        "[workspace]\nmods = [\"a\", \"more/*\"]\n[lints]\nunused-suppression = \"allow\"\n",
        // A file that does not parse is always an error: `toml-syntax` takes no level.
        "[lints]\ntoml-syntax = \"deny\"\n",
        "[lints]\nunknown-tags = \"deny\"\n",
        "[lints]\nunknown-tag = \"off\"\n",
        "[format]\nline_width = 19\n",
        "[format]\nline_width = 1001\n",
        "[format]\nreorder_keys = \"yes\"\n",
        "[format]\nindent = 4\n",
        "[workspace]\nmods = \"mods/*\"\n",
        "[workspace]\nmod = [\"mods/*\"]\n",
        "[workspaces]\n",
        "lints = 3\n",
    ];
    for (name, texts) in [("mod.toml", &manifests[..]), ("rustkeep.toml", &workspaces[..])] {
        for (i, text) in texts.iter().enumerate() {
            let dir = written.join(format!("{}-{i}", &name[..3]));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(name), text).unwrap();
        }
    }
    for (target, name) in [("mod", "mod.toml"), ("workspace", "rustkeep.toml")] {
        let files: Vec<PathBuf> = [repo_path("examples"), repo_path("tests/fixtures"), written.to_path_buf()]
            .iter()
            .flat_map(|dir| walk_files(dir, &[]))
            .filter(|p| p.file_name().is_some_and(|n| n == name))
            .collect();
        let (mut good, mut bad) = (Vec::new(), Vec::new());
        for f in &files {
            let bytes = std::fs::read(f).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            let problems = match name {
                "mod.toml" => read_manifest(FileId(0), &text, None).1,
                _ => read_workspace(FileId(0), &text).1,
            };
            let path = f.to_str().unwrap().to_string();
            if problems.is_empty() {
                good.push(path);
            } else {
                bad.push(path);
            }
        }
        assert!(good.len() >= 4 && bad.len() >= 8, "{name}: {good:?} {bad:?}");
        for draft in DRAFTS {
            let schema = schema_path(target, draft);
            let good: Vec<&str> = good.iter().map(String::as_str).collect();
            let text = validate(&schema, &good, false);
            assert!(text.contains(&format!("{} valid, 0 invalid", good.len())), "{text}");
            let bad: Vec<&str> = bad.iter().map(String::as_str).collect();
            let text = validate(&schema, &bad, true);
            assert!(text.contains(&format!("0 valid, {} invalid", bad.len())), "{text}");
        }
    }
}

/// The IDs of the bundled core's loot tables.
fn core_loot_tables() -> Vec<String> {
    let project = load(&[], repo_root(), &Overlay::new());
    let mut ids: Vec<String> = Database::load(&project).table_kinds.into_keys().collect();
    ids.sort();
    ids
}

/// Writes what `rustkeep ARGS` (run in `dir`) prints to `out/NAME.json`; the exit code must be
/// `code` (`None`: 0 or 1, as data with or without errors gives).
fn capture(out: &Path, name: &str, dir: &Path, args: &[&str], code: impl Into<Option<i32>>) -> String {
    let (got, text) = rustkeep_in(dir, args);
    match code.into() {
        Some(code) => assert_eq!(got, code, "rustkeep {args:?} in {}", dir.display()),
        None => assert!(got == 0 || got == 1, "rustkeep {args:?} in {}: exit code {got}", dir.display()),
    }
    let path = out.join(format!("{name}.json"));
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn command_outputs_validate_against_their_schemas() {
    if !have_validator() {
        return;
    }
    let out = TempDir::new("outputs");
    let root = repo_root();
    let broken = repo_path("examples/broken");
    let mut check = vec![
        capture(&out, "check-fire", root, &["check", "examples/fire_and_thorns", "--format", "json"], 0),
        capture(&out, "check-rat", root, &["check", "examples/rat_catcher", "--format", "json"], 0),
        capture(&out, "check-broken", &broken, &["check", "--format", "json"], 1),
    ];
    // Every fixture too: between them they raise every code.
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(repo_path("tests/fixtures")).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    fixtures.sort();
    for f in &fixtures {
        let name = f.file_name().unwrap().to_str().unwrap();
        check.push(capture(&out, &format!("check-{name}"), root, &["check", f.to_str().unwrap(), "--format", "json"], None));
    }
    let broken_report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&check[2]).unwrap()).unwrap();
    let diags = broken_report["diagnostics"].as_array().unwrap();
    assert!(
        diags.iter().any(|d| d.get("fix").is_some()) && diags.iter().any(|d| d.get("related").is_some()),
        "the broken example shows fixes and related spans"
    );

    // The core alone: from a folder with no mod in or below it (the repository's root would load
    // every example, the broken one too).
    let core_only = TempDir::new("core-only");
    let mut loot = Vec::new();
    let tables = core_loot_tables();
    assert!(tables.len() > 10, "{tables:?}");
    for (i, table) in tables.iter().enumerate() {
        loot.push(capture(&out, &format!("loot-{i}"), &core_only, &["loot", table, "--format", "json"], 0));
        loot.push(capture(
            &out,
            &format!("loot-{i}-lucky"),
            &core_only,
            &["loot", table, "--format", "json", "--luck", "7.5", "--samples", "300", "--seed", "3"],
            0,
        ));
    }
    loot.push(capture(&out, "loot-unlucky", &core_only, &["loot", "core:floor_3_table", "--format", "json", "--luck", "-2"], 0));

    let graph = vec![
        capture(&out, "graph-core", &core_only, &["graph", "--format", "json"], 0),
        capture(&out, "graph-examples", root, &["graph", "--format", "json", "--mods", "examples/fire_and_thorns", "--mods", "examples/rat_catcher"], 0),
        capture(&out, "graph-thorns", root, &["graph", "--format", "json", "--mods", "crates/rustkeep-engine/tests/mods/thorns"], 0),
    ];

    // Every scenario of the examples and of the engine's tests: between them every kind of step,
    // enemy turns, deaths, the dungeon and victory.
    let mut scenarios: Vec<PathBuf> = ["examples/scenarios", "crates/rustkeep-engine/tests/scenarios"]
        .iter()
        .flat_map(|d| std::fs::read_dir(repo_path(d)).unwrap().flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    scenarios.sort();
    assert!(scenarios.len() >= 10, "{scenarios:?}");
    let simulate: Vec<String> = scenarios
        .iter()
        .map(|sc| {
            let name = sc.file_stem().unwrap().to_str().unwrap();
            capture(&out, &format!("simulate-{name}"), root, &["simulate", sc.to_str().unwrap(), "--format", "json"], 0)
        })
        .collect();

    let arena = vec![
        capture(&out, "arena-rats", root, &["arena", "examples/scenarios/rattenplage.toml", "--runs", "40", "--format", "json"], 0),
        capture(&out, "arena-matrix", &core_only, &["arena", "--matrix", "--runs", "3", "--format", "json"], 0),
    ];

    // A played game: its recording (one schema per line) and its save.
    let rec = out.join("game.jsonl");
    let save = out.join("game-save.json");
    let played = Command::new(env!("CARGO_BIN_EXE_rustkeep"))
        .current_dir(&core_only)
        .args(["play", "--line", "--seed", "5", "--record", rec.to_str().unwrap()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            let script = format!("move e\nwait\nmove w\nsave {}\nquit\n", save.display());
            child.stdin.take().unwrap().write_all(script.as_bytes())?;
            child.wait()
        })
        .unwrap();
    assert!(played.success(), "rustkeep play --line");
    let lines = std::fs::read_to_string(&rec).unwrap();
    assert!(lines.lines().count() >= 2, "a header and inputs: {lines}");
    let recording: Vec<String> = lines
        .lines()
        .enumerate()
        .map(|(i, line)| {
            let path = out.join(format!("recording-line-{i}.json"));
            std::fs::write(&path, line).unwrap();
            path.to_str().unwrap().to_string()
        })
        .collect();
    let saves = vec![save.to_str().unwrap().to_string()];

    for draft in DRAFTS {
        for (target, files) in [
            ("check-json", &check),
            ("loot-json", &loot),
            ("graph-json", &graph),
            ("simulate-json", &simulate),
            ("arena-json", &arena),
            ("recording", &recording),
            ("save", &saves),
        ] {
            let files: Vec<&str> = files.iter().map(String::as_str).collect();
            let text = validate(&schema_path(target, draft), &files, false);
            assert!(text.contains(&format!("{} valid, 0 invalid", files.len())), "{target}: {text}");
        }
    }
}

/// The output schemas are strict enough to fail outputs that are not theirs: a check report
/// with an unknown code, a loot report of a table of no kind, a graph with a node of no kind.
#[test]
fn output_schemas_refuse_what_the_commands_never_print() {
    if !have_validator() {
        return;
    }
    let dir = TempDir::new("refused");
    let cases = [
        (
            "check-json",
            r#"{"diagnostics":[{"code":"no-such-code","severity":"error","message":"m","file":"a.toml","range":{"start":{"line":1,"column":1},"end":{"line":1,"column":2}}}],"summary":{"errors":1,"warnings":0,"files":1,"mods":1}}"#,
        ),
        ("check-json", r#"{"diagnostics":[],"summary":{"errors":0,"warnings":0,"files":1}}"#),
        (
            "check-json",
            r#"{"diagnostics":[{"code":"unknown-tag","severity":"hint","message":"m","file":"a.toml","range":{"start":{"line":0,"column":1},"end":{"line":1,"column":2}}}],"summary":{"errors":0,"warnings":1,"files":1,"mods":1}}"#,
        ),
        ("loot-json", r#"{"table":"core:t","kind":"gold","luck":0.0,"p_extra":0.0,"drops":[]}"#),
        ("loot-json", r#"{"table":"core:t","kind":"items","luck":0.0,"p_extra":0.0,"drops":[{"id":"core:a","p_any":1.5,"expected":1.0,"affixes":[]}]}"#),
        ("graph-json", r#"{"nodes":[{"id":"x","kind":"loot table","at":null,"cycle":false}],"edges":[],"cycles":[]}"#),
        ("graph-json", r#"{"nodes":[],"edges":[{"from":"a","to":"b","kind":"calls","cycle":false}],"cycles":[]}"#),
        ("recording", r#"{"format":"rustkeep-recording","version":1,"seed":1,"options":[],"mods":[{"id":"core","version":"1.0.0","hash":"md5:00"}]}"#),
        ("recording", r#"{"input":"move e","at":3}"#),
        ("save", r#"{"format":"rustkeep-save","version":2}"#),
        ("arena-json", r#"{"runs":1,"seed":1,"wins":1}"#),
        ("simulate-json", r#"{"seed":1,"setup":{"step":0,"act":"x","effects":[],"events":[]},"steps":[],"final":{},"warnings":[]}"#),
    ];
    for draft in DRAFTS {
        for (i, (target, json)) in cases.iter().enumerate() {
            let file = dir.join(format!("{i}.json"));
            std::fs::write(&file, json).unwrap();
            let text = validate(&schema_path(target, draft), &[file.to_str().unwrap()], true);
            assert!(text.contains("0 valid, 1 invalid"), "{target} case {i}: {text}");
        }
    }
}

/// The schema's pattern for a `depends` entry accepts exactly the entries the manifest reader
/// reads without a problem (the requirement grammar is the `semver` crate's, as Cargo's).
#[test]
fn the_dependency_pattern_reads_entries_as_the_reader_does() {
    let pattern = regex::Regex::new(rustkeep_data::vocab::DEPENDENCY_PATTERN).unwrap();
    let entries = [
        "core",
        "sewers >= 1.2",
        "? bestiary ^2",
        "! old_rats",
        "!old_rats < 2",
        "?lantern",
        "b>=1,<2",
        "b >= 1, < 2",
        "c 1.2",
        "c =1.0.0",
        "c ~1.2.3",
        "c *",
        "c 1.*",
        "c ^0.1.0-rc.1",
        "c >=1.0.0+build.5",
        "c 1.x",
        "sewers >= one",
        "Sewers",
        "",
        "? ",
        "c >= 01.2",
        "c 1.2.3.4",
        "c ^",
        "c 1.2 3",
        "c ==1",
        "c >=1 <2",
        "a b",
    ];
    for e in entries {
        let text = format!("[mod]\nid = \"a\"\ndepends = [{}]\n", rustkeep_data::diag::toml_string(e));
        let reader = read_manifest(FileId(0), &text, None).1.is_empty();
        assert_eq!(pattern.is_match(e), reader, "{e:?}: the schema says {}, the reader {}", pattern.is_match(e), reader);
    }
}
