//! The committed JSON Schemas (`schemas/`, and the draft-07 copy shipped by the VS Code
//! extension in `editors/vscode/schemas/`) are what `rustkeep schema` prints today
//! (`cargo xtask update` rewrites them), and an independent validator (Python's `jsonschema`)
//! accepts the bundled core and the example mods with them.

use std::process::Command;

use rustkeep_testutil::{ensure_file_contents, repo_path, repo_root, tools};

fn generated(draft: &str) -> String {
    generated_with(&["schema", "--draft", draft])
}

fn generated_with(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rustkeep")).args(args).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn committed_schemas_are_current() {
    for (draft, file) in [("2020-12", "rustkeep.schema.json"), ("07", "rustkeep.draft-07.schema.json")] {
        ensure_file_contents(&repo_path("schemas").join(file), &generated(draft));
    }
    ensure_file_contents(&repo_path("schemas/rustkeep-scenario.schema.json"), &generated_with(&["schema", "--scenario"]));
    // VS Code's TOML extension reads the schema from the extension's own folder.
    ensure_file_contents(&repo_path("editors/vscode/schemas/rustkeep.draft-07.schema.json"), &generated("07"));
}

#[test]
fn core_and_examples_validate_against_the_schema() {
    if !(tools::jsonschema() && tools::python_module("tomli", "python3 -m pip install tomli (it reads the TOML 1.1 of the formatted data)")) {
        return;
    }
    for schema in ["schemas/rustkeep.schema.json", "schemas/rustkeep.draft-07.schema.json"] {
        let out = Command::new("python3")
            .current_dir(repo_root())
            .args(["scripts/validate_schema.py", schema, "crates/rustkeep-data/core", "examples/fire_and_thorns", "examples/rat_catcher"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{schema}:\n{text}{}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains(" 0 invalid"), "{text}");
    }
    // Every scenario of the examples and of the engine's golden traces fits the scenario schema.
    let out = Command::new("python3")
        .current_dir(repo_root())
        .args(["scripts/validate_schema.py", "schemas/rustkeep-scenario.schema.json", "examples/scenarios", "crates/rustkeep-engine/tests/scenarios"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "scenarios:\n{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(" 0 invalid"), "{text}");
}

#[test]
fn the_scenario_schema_sees_a_scenarios_mistakes() {
    if !(tools::jsonschema() && tools::python_module("tomli", "python3 -m pip install tomli (it reads the TOML 1.1 of the formatted data)")) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("rustkeep-scenario-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("unknown_key.toml", "sede = 1\n"),
        ("two_acts.toml", "[[steps]]\nattack = \"enemy:0\"\npickup = true\n"),
        ("bad_actor.toml", "[[steps]]\nattack = \"goblin\"\n"),
        ("bad_damage_type.toml", "[[steps]]\nevent = \"damage_taken\"\npayload = { damage_type = \"fyre\" }\n"),
        ("no_creature.toml", "[[enemies]]\ncount = 2\n"),
    ];
    for (name, text) in cases {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let out = Command::new("python3")
        .current_dir(repo_root())
        .args(["scripts/validate_schema.py", "schemas/rustkeep-scenario.schema.json", dir.to_str().unwrap(), "--expect-invalid"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "some mistake passed the schema:\n{text}");
    assert!(text.contains(&format!("0 valid, {} invalid", cases.len())), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn schema_sees_structural_mistakes() {
    if !(tools::jsonschema() && tools::python_module("tomli", "python3 -m pip install tomli (it reads the TOML 1.1 of the formatted data)")) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("rustkeep-schema-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("unknown_event.toml", "[[quests]]\nid = \"m:q\"\nname = \"Q\"\non = \"enemy_killed\"\n"),
        ("unknown_registry.toml", "[[quest]]\nid = \"m:q\"\n"),
        ("unknown_field.toml", "[[items]]\nid = \"m:a\"\nname = \"A\"\ntag = [\"m:x\"]\n"),
        ("bad_weight.toml", "[[loot_tables]]\nid = \"m:t\"\nentries = [ { item = \"m:a\", weight = -3 } ]\n"),
        ("bad_attribute.toml", "[[items]]\nid = \"m:a\"\nname = \"A\"\nmodifiers = [ { attribute = \"health\", add = 1 } ]\n"),
        ("bad_id.toml", "[[items]]\nid = \"m:Big\"\nname = \"A\"\n"),
        ("bad_range.toml", "[[loot_tables]]\nid = \"m:t\"\nrolls = \"2-\"\nentries = [ { nothing = true, weight = 1 } ]\n"),
    ];
    for (name, text) in cases {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let out = Command::new("python3")
        .current_dir(repo_root())
        .args(["scripts/validate_schema.py", "schemas/rustkeep.schema.json", dir.to_str().unwrap(), "--expect-invalid"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "some mistake passed the schema:\n{text}");
    assert!(text.contains(&format!("0 valid, {} invalid", cases.len())), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The broken example fails the schema where the schema can see the mistake (syntax, unknown
/// registries and fields, wrong types, weights); its cross-file mistakes (namespaces, overrides,
/// dependencies) are invisible to a schema, so those files pass it.
#[test]
fn the_broken_example_fails_the_schema_where_it_can_see_the_mistake() {
    if !(tools::jsonschema() && tools::python_module("tomli", "python3 -m pip install tomli (it reads the TOML 1.1 of the formatted data)")) {
        return;
    }
    let run = |files: &[&str], expect_invalid: bool| {
        let mut args = vec!["scripts/validate_schema.py", "schemas/rustkeep.schema.json"];
        args.extend_from_slice(files);
        if expect_invalid {
            args.push("--expect-invalid");
        }
        let out = Command::new("python3").current_dir(repo_root()).args(&args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{files:?} (expect invalid: {expect_invalid}):\n{text}");
        text
    };
    let text = run(&["examples/broken/smithy/broken.toml", "examples/broken/smithy/items.toml", "examples/broken/smithy/semantic.toml"], true);
    assert!(text.contains("0 valid, 3 invalid"), "{text}");
    let text = run(&["examples/broken/market/data.toml", "examples/broken/tavern/data.toml"], false);
    assert!(text.contains("2 valid, 0 invalid"), "{text}");
}
