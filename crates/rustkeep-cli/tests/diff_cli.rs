//! End-to-end tests of `rustkeep diff` (docs/balance.md): two versions of the example mod
//! `rat_catcher` — a weight changed, an attribute raised, an entry renamed, an override added —
//! give the expected entries, drop chances equal to `rustkeep loot` of each version, arena moves
//! beyond their intervals and the diagnostic the override introduces; the markdown comment is
//! kept as a snapshot; a revision of a git repository compares with its working tree.

mod common;

use std::process::{Command, Output};

use common::run;
use rustkeep_testutil::{ensure_block_contents, ensure_file_contents, repo_path, repo_root, require, tools, TempDir};
use serde_json::Value;

fn ok(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "stdout:\n{}\nstderr:\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// `old/` and `new/`: the example mod, and the same with four changes.
fn two_versions() -> TempDir {
    let t = TempDir::new("diff");
    rustkeep_testutil::copy_dir(&repo_root().join("examples/rat_catcher"), &t.path("old"));
    rustkeep_testutil::copy_dir(&repo_root().join("examples/rat_catcher"), &t.path("new"));
    let edit = |file: &str, from: &str, to: &str| {
        let text = t.read(&format!("new/{file}"));
        assert!(text.contains(from), "{file} has {from}");
        t.write(&format!("new/{file}"), text.replace(from, to));
    };
    // A weight changed.
    edit("loot.toml", "{ item = \"rat_catcher:cheese_wedge\", weight = 2 }", "{ item = \"rat_catcher:cheese_wedge\", weight = 12 }");
    // An attribute raised: the sewer rat now hits as hard as a boss and takes as much.
    edit("creatures.toml", "level = 1, max_health = 6, damage = 2,", "level = 1, max_health = 60, damage = 12,");
    // An entry renamed, with every reference to it.
    for file in ["items.toml", "loot.toml", "quests.toml", "npcs.toml"] {
        let text = t.read(&format!("new/{file}"));
        t.write(&format!("new/{file}"), text.replace("rat_catcher:ratsbane_oil", "rat_catcher:ratsbane_tonic"));
    }
    // An override added.
    let items = t.read("new/items.toml");
    t.write(
        "new/items.toml",
        format!("{items}\n[[items]]\noverrides = \"core:health_potion\"\nname = \"Health Potion\"\nprice = 40\nstackable = true\nuse = [ {{ action = \"heal\", amount = 8, target = \"self\" }} ]\n"),
    );
    t
}

/// The drops `rustkeep loot TABLE --format json` prints for a version, read from the text with
/// Rust's float parser (serde_json's default may be one unit in the last place off).
fn loot(t: &TempDir, version: &str, table: &str) -> Vec<(String, f64)> {
    let text = ok(&run(&t.0, &["loot", table, "--format", "json", "--mods", version]));
    let drop = regex::Regex::new(r#""id": "([^"]+)",\s*"p_any": ([-+0-9.eE]+),\s*"expected""#).unwrap();
    drop.captures_iter(&text).map(|c| (c[1].to_string(), c[2].parse().unwrap())).collect()
}

/// The `"old"` and `"new"` numbers of each chance move, read from the text as [`loot`] reads.
fn moves(text: &str) -> Vec<(String, String, f64, f64)> {
    let re = regex::Regex::new(r#""table": "([^"]+)",\s*"item": "([^"]+)",\s*"old": ([-+0-9.eE]+),\s*"new": ([-+0-9.eE]+)"#).unwrap();
    re.captures_iter(text).map(|c| (c[1].to_string(), c[2].to_string(), c[3].parse().unwrap(), c[4].parse().unwrap())).collect()
}

#[test]
fn a_diff_of_two_versions_names_what_changed_in_meaning() {
    let t = two_versions();
    let text = ok(&run(&t.0, &["diff", "old", "new", "--format", "json", "--arena", "100"]));
    let v: Value = serde_json::from_str(&text).unwrap();
    let ids = |key: &str| -> Vec<String> {
        v["entries"]
            .get(key)
            .unwrap_or(&v[key])
            .as_array()
            .unwrap()
            .iter()
            .map(|e| format!("{} {}", e["registry"].as_str().unwrap(), e["id"].as_str().unwrap()))
            .collect()
    };
    assert_eq!(ids("added"), ["items rat_catcher:ratsbane_tonic"]);
    assert_eq!(ids("removed"), ["items rat_catcher:ratsbane_oil"]);
    // Renamed without `[renamed]`: saves of the old version lose the old ID, and the mod's
    // version (0.1.0 on both sides) is too small for a breaking change.
    assert_eq!(ids("saves_lose"), ["items rat_catcher:ratsbane_oil"]);
    let semver = &v["semver"][0];
    assert_eq!(
        (&semver["mod"], &semver["class"], &semver["required"], &semver["ok"]),
        (&"rat_catcher".into(), &"breaking".into(), &"0.2.0".into(), &false.into())
    );
    let reasons: Vec<&str> = semver["reasons"].as_array().unwrap().iter().map(|r| r["text"].as_str().unwrap()).collect();
    assert!(reasons.contains(&"item `rat_catcher:ratsbane_oil` removed (a save or a mod that names it loses it)"), "{reasons:?}");
    // The override of the core's potion is the mod's change.
    assert!(reasons.iter().any(|r| r.starts_with("item `core:health_potion` changed: ")), "{reasons:?}");
    let changed = ids("changed");
    for e in [
        "items core:health_potion",
        "creatures rat_catcher:sewer_rat",
        "loot_tables rat_catcher:sewer_rat_loot",
        "loot_tables rat_catcher:shop_stock",
        "quests rat_catcher:find_the_nest",
    ] {
        assert!(changed.contains(&e.to_string()), "{e} changed: {changed:?}");
    }
    // Each change names the key or element that changed, not the whole field that holds it.
    let fields = |id: &str| -> Vec<[String; 4]> {
        let entry = v["entries"]["changed"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap();
        let text = |x: &Value| x.as_str().unwrap_or("null").to_string();
        entry["fields"].as_array().unwrap().iter().map(|f| [text(&f["field"]), text(&f["path"]), text(&f["old"]), text(&f["new"])]).collect()
    };
    assert_eq!(fields("rat_catcher:sewer_rat"), [["attributes", "attributes.max_health", "6", "60"], ["attributes", "attributes.damage", "2", "12"]]);
    assert_eq!(fields("rat_catcher:sewer_rat_loot"), [["entries", "entries[2].weight", "2", "12"]]);
    assert_eq!(fields("rat_catcher:find_the_nest"), [["actions", "actions[0].item", "\"rat_catcher:ratsbane_oil\"", "\"rat_catcher:ratsbane_tonic\""]]);
    let potion = fields("core:health_potion");
    assert!(potion.contains(&["price", "price", "25", "40"].map(String::from)), "{potion:?}");
    assert!(potion.contains(&["use", "use[0].amount", "15", "8"].map(String::from)), "{potion:?}");
    // A field left out is the whole field.
    assert!(potion.contains(&["tags", "tags", "[\"core:potion\"]", "null"].map(String::from)), "{potion:?}");

    // Every chance move is the chance `rustkeep loot` prints for each version, exactly.
    let moved = moves(&text);
    assert!(moved.iter().any(|m| m.0 == "rat_catcher:sewer_rat_loot" && m.1 == "rat_catcher:cheese_wedge" && m.3 > m.2), "{moved:?}");
    for (table, item, old, new) in &moved {
        for (version, expected) in [("old", old), ("new", new)] {
            let got = loot(&t, version, table).into_iter().find(|d| &d.0 == item).map_or(0.0, |d| d.1);
            assert_eq!(got, *expected, "{item} from {table} in {version}");
        }
    }
    // The biggest moves first.
    let sizes: Vec<f64> = moved.iter().map(|m| (m.3 - m.2).abs()).collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");

    // The rat now beats a new rogue almost always: beyond both intervals.
    let arena = v["arena"].as_array().unwrap();
    let rogue = arena.iter().find(|a| a["option"] == "core:rogue" && a["creature"] == "rat_catcher:sewer_rat").unwrap_or_else(|| panic!("{arena:?}"));
    assert!(rogue["new"].as_f64() < rogue["old"].as_f64());
    assert!(rogue["new_interval"][1].as_f64() < rogue["old_interval"][0].as_f64());
    assert!(arena.iter().all(|a| a["runs"] == 100));

    // The override drops fields its target sets: a warning the old version did not have.
    let introduced = v["diagnostics"]["introduced"].as_array().unwrap();
    assert!(introduced.iter().any(|d| d["code"] == "override-drops-field" && d["path"] == "items.toml"), "{introduced:?}");
    assert!(v["diagnostics"]["fixed"].as_array().unwrap().is_empty());

    // The JSON follows its schema.
    if tools::jsonschema() {
        let schema = t.write("schema.json", ok(&run(&t.0, &["schema", "--for", "diff-json"])));
        let data = t.write("diff.json", &text);
        let o = Command::new("python3")
            .args(["-c", "import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))"])
            .arg(&schema)
            .arg(&data)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

#[test]
fn the_markdown_comment_is_the_snapshot() {
    let t = two_versions();
    let text = ok(&run(&t.0, &["diff", "old", "new", "--format", "markdown", "--arena", "100"]));
    assert!(text.starts_with("semver: breaking — needs 0.2.0, the manifest says 0.1.0\n\n- breaking: item `rat_catcher:ratsbane_oil` removed"), "{text}");
    assert!(text.contains("\n### rustkeep diff: `old` → `new`\n\n**7 entries (1 added, 1 removed, 5 changed) · "), "{text}");
    assert!(text.contains("<details><summary>Drop chances ("), "{text}");
    ensure_file_contents(&repo_path("crates/rustkeep-cli/tests/snapshots/diff.md"), &text);
    // docs/balance.md shows the same comment, a level of heading down.
    let shown = text.replacen("### ", "#### ", 1);
    ensure_block_contents(&repo_path("docs/balance.md"), "the diff of the test", "diff-comment", &shown);
    // The human format says the same in lines.
    let human = ok(&run(&t.0, &["diff", "old", "new", "--arena", "0"]));
    assert!(human.starts_with("semver: breaking — needs 0.2.0, the manifest says 0.1.0\n  breaking: "), "{human}");
    assert!(human.contains("\nSaves of the old version lose (the new version neither loads nor renames them):\n  items rat_catcher:ratsbane_oil\n"), "{human}");
    assert!(human.contains("+ items rat_catcher:ratsbane_tonic") && human.contains("- items rat_catcher:ratsbane_oil"), "{human}");
    assert!(human.contains("rat_catcher:cheese_wedge from rat_catcher:sewer_rat_loot: 11.11 % → 42.86 % (+31.75 pp)"), "{human}");
    assert!(human.contains("\n~ creatures rat_catcher:sewer_rat\n    attributes.max_health: 6 → 60\n    attributes.damage: 2 → 12\n"), "{human}");
    assert!(human.contains("\n    entries[2].weight: 2 → 12\n"), "{human}");
}

/// docs/ci.md's example: a change to the core itself, in a workspace whose `core = "core"` is a
/// copy of the bundled one — the rat's loot weight of rat tails lowered, the giant rat's health
/// and damage raised.
#[test]
fn a_change_to_the_core_is_the_documented_comment() {
    let t = TempDir::new("diff-core");
    for version in ["old", "new"] {
        rustkeep_testutil::copy_dir(&repo_root().join("crates/rustkeep-data/core"), &t.path(&format!("{version}/core")));
        t.write(&format!("{version}/rustkeep.toml"), "[workspace]\nmods = []\ncore = \"core\"\n");
    }
    let edit = |file: &str, from: &str, to: &str| {
        let text = t.read(&format!("new/core/{file}"));
        assert_eq!(text.matches(from).count(), 1, "{file} has {from} once");
        t.write(&format!("new/core/{file}"), text.replace(from, to));
    };
    edit("loot_tables.toml", "{ item = \"core:rat_tail\", weight = 6 },", "{ item = \"core:rat_tail\", weight = 2 },");
    edit("creatures.toml", "level = 2, max_health = 9, damage = 3,", "level = 2, max_health = 14, damage = 4,");
    let text = ok(&run(&t.0, &["diff", "old", "new", "--format", "markdown"]));
    // Only the core changed: no mod's version to weigh.
    assert!(
        text.starts_with(
            "semver: nothing to version (no mod is in both versions)\n\n### rustkeep diff: `old` → `new`\n\n**2 entries (0 added, 0 removed, 2 changed) · "
        ),
        "{text}"
    );
    // The chances are rustkeep loot's of each version, as the comment rounds them.
    for (version, table) in [("old", "core:rat_loot"), ("new", "core:rat_loot")] {
        let tail = loot(&t, version, table).into_iter().find(|(id, _)| id == "core:rat_tail").unwrap().1;
        assert!(text.contains(&rustkeep_data::number::percent(tail)), "{version}: {tail} in {text}");
    }
    assert!(text.contains("| `core:rat_tail` | `core:rat_loot` | 31.58 % | 13.33 % | −18.25 pp |"), "{text}");
    // The changes are the numbers that changed.
    assert!(text.contains("| changed | creatures | `core:giant_rat` | `attributes.max_health`: `9` → `14`<br>`attributes.damage`: `3` → `4` |"), "{text}");
    assert!(text.contains("| changed | loot_tables | `core:rat_loot` | `entries[0].weight`: `6` → `2` |"), "{text}");
    assert!(text.contains("| `core:giant_rat` |"), "the giant rat's arena row moved: {text}");
    ensure_block_contents(&repo_path("docs/ci.md"), "the diff of the test", "core-diff-comment", &text.replacen("### ", "#### ", 1));
}

#[test]
fn a_revision_compares_with_the_working_tree() {
    if !require("git", tools::runs("git", &["--version"]), "apt-get install git") {
        return;
    }
    let t = TempDir::new("diff-git");
    rustkeep_testutil::copy_dir(&repo_root().join("examples/rat_catcher"), &t.path("mods/rat_catcher"));
    let git = |args: &[&str]| rustkeep_testutil::git(&t.0, args);
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "the mod"]);
    let loot = t.read("mods/rat_catcher/loot.toml");
    t.write("mods/rat_catcher/loot.toml", loot.replace("{ item = \"core:rat_tail\", weight = 6 }", "{ item = \"core:rat_tail\", weight = 1 }"));
    // From the repository's root and from a folder below it: the same place at the revision.
    for cwd in [t.0.clone(), t.path("mods")] {
        let text = ok(&run(&cwd, &["diff", "HEAD", "--format", "json", "--arena", "0"]));
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["new"], "working tree");
        let changed: Vec<&str> = v["entries"]["changed"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
        assert_eq!(changed, ["rat_catcher:sewer_rat_loot"], "{text}");
        assert!(moves(&text).iter().any(|m| m.1 == "core:rat_tail" && m.3 < m.2), "{text}");
    }
    let o = run(&t.0, &["diff", "no-such-revision"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a revision"), "{}", String::from_utf8_lossy(&o.stderr));
}

/// A finding that names its own file — a data file linked from outside, not read — on both
/// sides is neither introduced nor fixed, and a revision's temporary checkout never shows.
#[cfg(unix)]
#[test]
fn the_same_finding_on_both_sides_is_neither_introduced_nor_fixed() {
    let t = two_versions();
    t.write("outside/secret.toml", "token = \"do-not-print\"\n");
    for side in ["old", "new"] {
        std::os::unix::fs::symlink(t.path("outside/secret.toml"), t.path(&format!("{side}/sec.toml"))).expect("links can be made");
    }
    let text = ok(&run(&t.0, &["diff", "old", "new", "--format", "json", "--arena", "0"]));
    let v: Value = serde_json::from_str(&text).unwrap();
    let messages = |k: &str| v["diagnostics"][k].as_array().unwrap().iter().map(|d| d["message"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    assert!(messages("introduced").iter().chain(&messages("fixed")).all(|m| !m.contains("sec.toml")), "{text}");

    if !require("git", tools::runs("git", &["--version"]), "apt-get install git") {
        return;
    }
    let git = |args: &[&str]| rustkeep_testutil::git(&t.0, args);
    git(&["init", "-q"]);
    git(&["add", "new"]);
    git(&["commit", "-q", "-m", "the mod"]);
    let o = run(&t.path("new"), &["diff", "HEAD", "--arena", "0"]);
    let out = ok(&o);
    assert!(out.contains("0 introduced, 0 fixed"), "{out}");
    assert!(!out.contains("rustkeep-diff-"), "the temporary checkout shows: {out}");
}

#[test]
fn show_diff_tells_what_an_override_changes_field_by_field() {
    let t = two_versions();
    let text = ok(&run(&t.0, &["show", "core:health_potion", "--diff", "--mods", "new"]));
    assert!(text.contains("# it overrides the entry of <core>/items.toml:"), "{text}");
    for line in ["~ price: 25 → 40\n", "~ use[0].amount: 15 → 8\n", "- tags: [\"core:potion\"] (left out: it is gone)\n", "# 2 other fields as before\n"] {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
    assert!(text.contains("- glyph: \"!\" (left out: its default, "), "{text}");
    let text = ok(&run(&t.0, &["show", "core:rat", "--diff", "--mods", "new"]));
    assert!(text.ends_with("# it is the definition: it overrides nothing\n"), "{text}");
}
