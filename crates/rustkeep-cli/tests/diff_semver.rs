//! `rustkeep diff` and semantic versioning (docs/balance.md, "Versions"): four pairs of versions
//! of a small mod — a value changed, an item removed, an item renamed with `[renamed]`, an item
//! added — give their class, the version they need and the verdict in every format, and
//! `--check-semver` exits with 1 exactly when the new version is too small; what saves lose names
//! the removed item and not the renamed one. Then the rules around them: `0.x` versions, a slot,
//! dependencies, several mods, manifests without (valid) versions; and the GitLab recipe of
//! docs/ci.md, run as GitLab runs it. (The GitHub Action's `semver` input is tested with its other
//! steps, in fmt_cli.rs.)

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::{json, run, stdout};
use rustkeep_testutil::TempDir;

/// `rustkeep diff old new ARGS` in `t`, without the arena's fights (these tests are about
/// versions, not balance).
fn diff(t: &TempDir, args: &[&str]) -> Output {
    run(&t.0, &[&["diff", "old", "new", "--arena", "0"], args].concat())
}

const ITEMS: &str = r#"[[items]]
id = "cellar:cheese"
name = "Cheese"
price = 3
stackable = true

[[items]]
id = "cellar:lucky_charm"
name = "Lucky Charm"
price = 40
slot = "ring"
modifiers = [ { attribute = "luck", add = 1 } ]
"#;

fn manifest(version: Option<&str>, extra: &str) -> String {
    let version = version.map(|v| format!("version = \"{v}\"\n")).unwrap_or_default();
    format!("[mod]\nid = \"cellar\"\nname = \"The Cellar\"\n{version}depends = [\"core\"]\n{extra}")
}

/// `old/cellar` at 1.3.0 (or `old_version`) and `new/cellar` at `new_version`, its items edited
/// by `edit` and its manifest given `extra` lines.
fn pair(old_version: &str, new_version: &str, edit: impl Fn(&str) -> String, extra: &str) -> TempDir {
    let t = TempDir::new("diff-semver");
    t.write("old/cellar/mod.toml", manifest(Some(old_version), ""));
    t.write("old/cellar/items.toml", ITEMS);
    t.write("new/cellar/mod.toml", manifest(Some(new_version), extra));
    t.write("new/cellar/items.toml", edit(ITEMS));
    t
}

fn price_raised(s: &str) -> String {
    s.replace("price = 3\n", "price = 4\n")
}
fn cheese_removed(s: &str) -> String {
    let at = s.find("[[items]]\nid = \"cellar:lucky_charm\"").expect("the charm follows the cheese");
    s[at..].to_string()
}
fn cheese_renamed(s: &str) -> String {
    s.replace("cellar:cheese\"", "cellar:cheese_wedge\"")
}
fn bread_added(s: &str) -> String {
    format!("{s}\n[[items]]\nid = \"cellar:bread\"\nname = \"Bread\"\nprice = 2\n")
}
const RENAMED: &str = "\n[renamed]\n\"cellar:cheese\" = \"cellar:cheese_wedge\"\n";

/// One of the four pairs: how to make the new version, the class, what the old version 1.3.0
/// needs, and one reason of that class.
struct Case {
    name: &'static str,
    edit: fn(&str) -> String,
    extra: &'static str,
    class: &'static str,
    required: &'static str,
    reason: &'static str,
}

const CASES: [Case; 4] = [
    Case {
        name: "a value changed",
        edit: price_raised,
        extra: "",
        class: "change",
        required: "1.3.1",
        reason: "change: item `cellar:cheese` changed: `price`",
    },
    Case {
        name: "an item removed",
        edit: cheese_removed,
        extra: "",
        class: "breaking",
        required: "2.0.0",
        reason: "breaking: item `cellar:cheese` removed (a save or a mod that names it loses it)",
    },
    Case {
        name: "an item renamed with [renamed]",
        edit: cheese_renamed,
        extra: RENAMED,
        class: "addition",
        required: "1.4.0",
        reason: "addition: `[renamed]` adds `cellar:cheese` → `cellar:cheese_wedge`",
    },
    Case { name: "an item added", edit: bread_added, extra: "", class: "addition", required: "1.4.0", reason: "addition: item `cellar:bread` added" },
];

#[test]
fn each_kind_of_change_needs_its_bump_in_every_format() {
    for case in &CASES {
        // Too small (the version unchanged), then exactly the version needed, then more.
        for (new, ok) in [("1.3.0", false), (case.required, true), ("3.0.0", true)] {
            let t = pair("1.3.0", new, case.edit, case.extra);
            let what = format!("{} at {new}", case.name);
            let json_out = diff(&t, &["--format", "json"]);
            assert_eq!(json_out.status.code(), Some(0), "{what}: without --check-semver, diff exits 0: {}", String::from_utf8_lossy(&json_out.stderr));
            let v = json(&json_out);
            let s = &v["semver"];
            assert_eq!(s.as_array().map(Vec::len), Some(1), "{what}: one mod, one verdict: {s}");
            let s = &s[0];
            assert_eq!(
                (s["mod"].as_str(), s["class"].as_str(), s["required"].as_str()),
                (Some("cellar"), Some(case.class), Some(case.required)),
                "{what}: {s}"
            );
            assert_eq!((s["old"].as_str(), s["new"].as_str(), s["ok"].as_bool()), (Some("1.3.0"), Some(new), Some(ok)), "{what}: {s}");
            let (class, reason) = case.reason.split_once(": ").unwrap();
            assert!(s["reasons"].as_array().unwrap().iter().any(|r| r["class"] == class && r["text"] == reason), "{what}: {s}");
            // The largest class leads the reasons.
            assert_eq!(s["reasons"][0]["class"], case.class, "{what}: {s}");

            let line = format!("semver: {} — needs {}, the manifest says {new}", case.class, case.required);
            let human = stdout(&diff(&t, &[]));
            assert_eq!(human.lines().next(), Some(line.as_str()), "{what}:\n{human}");
            assert!(human.contains(&format!("\n  {}\n", case.reason)), "{what}:\n{human}");
            let markdown = stdout(&diff(&t, &["--format", "markdown"]));
            assert_eq!(markdown.lines().next(), Some(line.as_str()), "{what}:\n{markdown}");
            assert!(markdown.contains(&format!("\n- {}\n", case.reason)), "{what}:\n{markdown}");
            assert!(markdown.contains("\n### rustkeep diff: `old` → `new`\n"), "{what}:\n{markdown}");

            // `--check-semver`: the same report, and 1 when the version is too small.
            for format in ["human", "json", "markdown"] {
                let o = diff(&t, &["--format", format, "--check-semver"]);
                assert_eq!(o.status.code(), Some(if ok { 0 } else { 1 }), "{what}, {format}: {}", String::from_utf8_lossy(&o.stderr));
                let expected = match format {
                    "human" => &human,
                    "markdown" => &markdown,
                    _ => &stdout(&json_out),
                };
                assert_eq!(&stdout(&o), expected, "{what}, {format}: --check-semver changes the exit code only");
            }
        }
    }
}

#[test]
fn saves_lose_the_removed_item_not_the_renamed_one() {
    let lost = |t: &TempDir| -> Vec<String> {
        let v = json(&diff(t, &["--format", "json"]));
        v["saves_lose"].as_array().unwrap().iter().map(|e| format!("{} {}", e["registry"].as_str().unwrap(), e["id"].as_str().unwrap())).collect()
    };
    let removed = pair("1.3.0", "2.0.0", cheese_removed, "");
    assert_eq!(lost(&removed), ["items cellar:cheese"]);
    let human = stdout(&diff(&removed, &[]));
    assert!(human.contains("\nSaves of the old version lose (the new version neither loads nor renames them):\n  items cellar:cheese\n"), "{human}");
    let markdown = stdout(&diff(&removed, &["--format", "markdown"]));
    assert!(
        markdown.contains("<details><summary>What saves of the old version lose (1)</summary>\n\n| registry | ID |\n|---|---|\n| items | `cellar:cheese` |\n"),
        "{markdown}"
    );

    // Renamed with `[renamed]`: the entry is still one removed and one added, but a save keeps it.
    let renamed = pair("1.3.0", "1.4.0", cheese_renamed, RENAMED);
    let v = json(&diff(&renamed, &["--format", "json"]));
    assert_eq!(v["entries"]["removed"][0]["id"], "cellar:cheese");
    assert!(lost(&renamed).is_empty());
    // A table that drops the cheese drops the same item under its new ID: no chance moved;
    // without the line, the old ID's chance falls and the new one's rises.
    let pantry = "\n[[loot_tables]]\nid = \"cellar:pantry\"\nentries = [ { item = \"cellar:cheese\", weight = 1 }, { nothing = true, weight = 1 } ]\n";
    for (extra, moves) in [(RENAMED, 0), ("", 2)] {
        let t = pair("1.3.0", "1.4.0", cheese_renamed, extra);
        t.write("old/cellar/loot.toml", pantry);
        t.write("new/cellar/loot.toml", cheese_renamed(pantry));
        let v = json(&diff(&t, &["--format", "json"]));
        assert_eq!(v["chances"].as_array().map(Vec::len), Some(moves), "{extra:?}: {v:#}");
    }
    let human = stdout(&diff(&renamed, &[]));
    assert!(!human.contains("Saves of the old version lose"), "{human}");
    assert!(!human.contains("breaking"), "{human}");

    // Renamed without `[renamed]`: a removal (breaking) and an addition, and saves lose the old ID.
    let bare = pair("1.3.0", "1.4.0", cheese_renamed, "");
    assert_eq!(lost(&bare), ["items cellar:cheese"]);
    let v = json(&diff(&bare, &["--format", "json"]));
    assert_eq!(
        (v["semver"][0]["class"].as_str(), v["semver"][0]["required"].as_str(), v["semver"][0]["ok"].as_bool()),
        (Some("breaking"), Some("2.0.0"), Some(false))
    );
    // A `[renamed]` line to an ID that does not exist saves nothing.
    let nowhere = pair("1.3.0", "1.4.0", cheese_renamed, "\n[renamed]\n\"cellar:cheese\" = \"cellar:cheddar\"\n");
    assert_eq!(lost(&nowhere), ["items cellar:cheese"]);
}

/// The verdict of the single mod of a pair, as (class, required, ok), and its reasons.
fn verdict(t: &TempDir) -> ((String, Option<String>, bool), Vec<String>) {
    let o = diff(t, &["--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let v = json(&o);
    let s = &v["semver"][0];
    let reasons = s["reasons"].as_array().unwrap().iter().map(|r| format!("{}: {}", r["class"].as_str().unwrap(), r["text"].as_str().unwrap())).collect();
    ((s["class"].as_str().unwrap().to_string(), s["required"].as_str().map(String::from), s["ok"].as_bool().unwrap()), reasons)
}

fn c(class: &str, required: Option<&str>, ok: bool) -> (String, Option<String>, bool) {
    (class.to_string(), required.map(String::from), ok)
}

#[test]
fn while_the_major_version_is_0_each_class_needs_one_step_less() {
    assert_eq!(verdict(&pair("0.3.2", "0.3.2", cheese_removed, "")).0, c("breaking", Some("0.4.0"), false));
    assert_eq!(verdict(&pair("0.3.2", "0.4.0", cheese_removed, "")).0, c("breaking", Some("0.4.0"), true));
    assert_eq!(verdict(&pair("0.3.2", "0.3.3", bread_added, "")).0, c("addition", Some("0.3.3"), true));
    assert_eq!(verdict(&pair("0.3.2", "0.3.3", price_raised, "")).0, c("change", Some("0.3.3"), true));
    // Nothing changed: the old version fits; a lower one does not.
    assert_eq!(verdict(&pair("0.3.2", "0.3.2", |s| s.to_string(), "")).0, c("none", Some("0.3.2"), true));
    let ((class, _, ok), reasons) = verdict(&pair("0.3.2", "0.3.1", |s| s.to_string(), ""));
    assert_eq!((class.as_str(), ok, reasons.len()), ("none", false, 0));
}

#[test]
fn a_slot_changed_or_removed_is_breaking_and_one_added_is_a_change() {
    let (v, reasons) = verdict(&pair("1.3.0", "1.3.1", |s| s.replace("slot = \"ring\"", "slot = \"amulet\""), ""));
    assert_eq!(v, c("breaking", Some("2.0.0"), false));
    assert_eq!(reasons, ["breaking: item `cellar:lucky_charm`'s `slot` changed from `ring` to `amulet`"]);
    let (v, reasons) = verdict(&pair("1.3.0", "2.0.0", |s| s.replace("slot = \"ring\"\n", "").replace("price = 40", "price = 45"), ""));
    assert_eq!(v, c("breaking", Some("2.0.0"), true));
    assert_eq!(reasons, ["breaking: item `cellar:lucky_charm`'s `slot` removed (it was `ring`)", "change: item `cellar:lucky_charm` changed: `price`"]);
    let (v, reasons) = verdict(&pair("1.3.0", "1.3.1", |s| s.replace("stackable = true\n", "stackable = true\nslot = \"amulet\"\n"), ""));
    assert_eq!(v, c("change", Some("1.3.1"), true));
    assert_eq!(reasons, ["change: item `cellar:cheese` gets the `slot` `amulet`"]);
}

/// A workspace of `cellar` and `sewers` in both versions; `cellar`'s `depends` is `old_depends`
/// and then `new_depends`, and its version goes from 1.3.0 to `new`.
fn dependencies(old_depends: &str, new_depends: &str, new: &str) -> TempDir {
    let t = TempDir::new("diff-semver-deps");
    for (side, depends, version) in [("old", old_depends, "1.3.0"), ("new", new_depends, new)] {
        t.write(&format!("{side}/rustkeep.toml"), "[workspace]\nmods = [\"cellar\", \"sewers\"]\n");
        t.write(&format!("{side}/cellar/mod.toml"), format!("[mod]\nid = \"cellar\"\nname = \"The Cellar\"\nversion = \"{version}\"\ndepends = [{depends}]\n"));
        t.write(&format!("{side}/cellar/items.toml"), ITEMS);
        t.write(&format!("{side}/sewers/mod.toml"), "[mod]\nid = \"sewers\"\nname = \"Sewers\"\nversion = \"1.4.0\"\n");
    }
    t
}

fn cellar(t: &TempDir) -> ((String, Option<String>, bool), Vec<String>) {
    let o = diff(t, &["--format", "json"]);
    let v = json(&o);
    let mods: Vec<&str> = v["semver"].as_array().unwrap().iter().map(|s| s["mod"].as_str().unwrap()).collect();
    assert_eq!(mods, ["cellar", "sewers"], "one verdict per mod, by id");
    assert_eq!((v["semver"][1]["class"].as_str(), v["semver"][1]["ok"].as_bool()), (Some("none"), Some(true)));
    let s = &v["semver"][0];
    let reasons = s["reasons"].as_array().unwrap().iter().map(|r| format!("{}: {}", r["class"].as_str().unwrap(), r["text"].as_str().unwrap())).collect();
    ((s["class"].as_str().unwrap().to_string(), s["required"].as_str().map(String::from), s["ok"].as_bool().unwrap()), reasons)
}

#[test]
fn dependencies_added_narrowed_or_loosened_are_classified() {
    let core = "\"core\"";
    let (v, r) = cellar(&dependencies(core, "\"core\", \"sewers >= 1.2\"", "1.4.0"));
    assert_eq!((v, r), (c("breaking", Some("2.0.0"), false), vec!["breaking: required dependency `sewers >= 1.2` added".to_string()]));
    let (v, r) = cellar(&dependencies(core, "\"core\", \"? sewers ^1\"", "1.4.0"));
    assert_eq!((v, r), (c("addition", Some("1.4.0"), true), vec!["addition: optional dependency `sewers ^1` added".to_string()]));
    let (v, r) = cellar(&dependencies("\"sewers >= 1.2\"", "\"sewers >= 1.4\"", "1.3.1"));
    assert_eq!((v, r), (c("breaking", Some("2.0.0"), false), vec!["breaking: requirement on `sewers` narrowed from `>= 1.2` to `>= 1.4`".to_string()]));
    // The same versions written otherwise is no change; a wider requirement is one.
    let (v, r) = cellar(&dependencies("\"sewers ^1.2\"", "\"sewers >= 1.2, < 2\"", "1.3.0"));
    assert_eq!((v, r.len()), (c("none", Some("1.3.0"), true), 0));
    let (v, r) = cellar(&dependencies("\"sewers ^1.2\"", "\"sewers >= 1.0\"", "1.3.1"));
    assert_eq!((v, r), (c("change", Some("1.3.1"), true), vec!["change: requirement on `sewers` widened from `^1.2` to `>= 1.0`".to_string()]));
    let (v, r) = cellar(&dependencies("\"? sewers\"", "\"sewers\"", "1.4.0"));
    assert_eq!((v, r), (c("breaking", Some("2.0.0"), false), vec!["breaking: dependency `sewers` is now required (was `? sewers`)".to_string()]));
    let (v, r) = cellar(&dependencies("\"sewers\"", "\"? sewers\"", "1.3.1"));
    assert_eq!((v, r), (c("change", Some("1.3.1"), true), vec!["change: dependency `sewers` is now optional (was `sewers`)".to_string()]));
    let (v, r) = cellar(&dependencies("\"sewers\"", "", "1.3.1"));
    assert_eq!((v, r), (c("change", Some("1.3.1"), true), vec!["change: dependency `sewers` removed".to_string()]));
    // The core is always loaded: naming it asks nothing.
    let (v, r) = cellar(&dependencies("", core, "1.3.0"));
    assert_eq!((v, r.len()), (c("none", Some("1.3.0"), true), 0));

    // Several mods: the line counts them, and the mods that changed follow with their reasons.
    let t = dependencies(core, "\"core\", \"sewers >= 1.2\"", "1.4.0");
    let human = stdout(&diff(&t, &[]));
    assert!(human.starts_with("semver: 1 of 2 mods changed; 1 needs a bigger version\n  cellar: breaking — needs 2.0.0, the manifest says 1.4.0\n    breaking: required dependency `sewers >= 1.2` added\n\n"), "{human}");
    let markdown = stdout(&diff(&t, &["--format", "markdown"]));
    assert!(markdown.starts_with("semver: 1 of 2 mods changed; 1 needs a bigger version\n\n- `cellar`: breaking — needs 2.0.0, the manifest says 1.4.0\n  - breaking: required dependency `sewers >= 1.2` added\n\n### rustkeep diff"), "{markdown}");
    assert_eq!(diff(&t, &["--check-semver"]).status.code(), Some(1));
}

#[test]
fn manifests_without_a_valid_version_or_broken_ones_do_not_stop_the_diff() {
    // No old version: any new one is a first release.
    let t = pair("1.3.0", "0.1.0", price_raised, "");
    t.write("old/cellar/mod.toml", manifest(None, ""));
    assert_eq!(verdict(&t).0, c("change", None, true));
    let human = stdout(&diff(&t, &[]));
    assert!(human.starts_with("semver: change — the old manifest has no version, so any is a first release; the manifest says 0.1.0\n"), "{human}");
    // No new version, or one that is no semantic version: a change cannot be released.
    for new in [manifest(None, ""), manifest(Some("one point four"), "")] {
        t.write("old/cellar/mod.toml", manifest(Some("1.3.0"), ""));
        t.write("new/cellar/mod.toml", &new);
        assert_eq!(verdict(&t).0, c("change", Some("1.3.1"), false));
        let o = diff(&t, &["--check-semver"]);
        assert_eq!(o.status.code(), Some(1));
        assert!(stdout(&o).starts_with("semver: change — needs 1.3.1, the manifest has no version\n"), "{}", stdout(&o));
    }
    // Manifests that are not TOML, or lack `[mod]`, on either side: a report, never a crash.
    for broken in [
        "[mod\nid = ",
        "id = \"cellar\"\nversion = 3\n",
        "[renamed]\n\"cellar:a\" = 4\n[mod]\nid = \"cellar\"\ndepends = [\"? \", 7]\n",
        "\u{feff}[mod]\nversion = \"1.3.0\"\n[renamed]\nx = \"y\"\n",
    ] {
        for side in ["old", "new"] {
            let t = pair("1.3.0", "1.3.1", price_raised, "");
            t.write(&format!("{side}/cellar/mod.toml"), broken);
            for format in ["human", "json", "markdown"] {
                let o = diff(&t, &["--format", format, "--check-semver"]);
                let code = o.status.code();
                assert!(matches!(code, Some(0 | 1)), "{side} {broken:?} {format}: {code:?} {}", String::from_utf8_lossy(&o.stderr));
                assert!(stdout(&o).starts_with(if format == "json" { "{" } else { "semver: " }), "{side} {broken:?}: {}", stdout(&o));
            }
        }
    }
}

#[test]
fn a_diff_without_a_mod_in_both_versions_says_so_and_passes_the_check() {
    let t = TempDir::new("diff-semver-none");
    t.write("old/cellar/mod.toml", manifest(Some("1.3.0"), ""));
    t.write("old/cellar/items.toml", ITEMS);
    t.write("new/cellar/mod.toml", manifest(Some("1.3.0"), "").replace("id = \"cellar\"", "id = \"basement\""));
    t.write("new/cellar/items.toml", ITEMS.replace("cellar:", "basement:"));
    let o = diff(&t, &["--check-semver"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("semver: nothing to version (no mod is in both versions)\n"), "{}", stdout(&o));
    // Saves lose every ID of the mod that is gone, whichever mod it was.
    assert!(
        stdout(&o)
            .contains("Saves of the old version lose (the new version neither loads nor renames them):\n  items cellar:cheese\n  items cellar:lucky_charm\n"),
        "{}",
        stdout(&o)
    );
}

/// The GitLab recipe of docs/ci.md (the job `rustkeep-diff`) run as GitLab runs it — its script
/// lines in one shell, `rustkeep` built here instead of `cargo install`, a stand-in `curl` that
/// keeps the note — on a merge request into `main`: a version too small posts the note and then
/// fails the job with 1; a version bumped enough passes.
#[test]
fn the_gitlab_recipe_posts_the_note_then_fails_a_version_too_small() {
    if !rustkeep_testutil::tools::pyyaml() || !rustkeep_testutil::require("git", rustkeep_testutil::tools::runs("git", &["--version"]), "apt-get install git") {
        return;
    }
    const JOB: &str = r#"
import json, sys, yaml
page = open(sys.argv[1]).read()
for block in page.split("```yaml\n")[1:]:
    doc = yaml.safe_load(block.split("```")[0])
    if isinstance(doc, dict) and "rustkeep-diff" in doc:
        print(json.dumps(doc["rustkeep-diff"]["script"]))
        break
"#;
    let page = rustkeep_testutil::repo_path("docs/ci.md");
    let o = Command::new("python3").args(["-c", JOB]).arg(&page).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let script: Vec<String> = serde_json::from_slice(&o.stdout).expect("docs/ci.md has the GitLab job `rustkeep-diff`");
    assert!(script.iter().any(|l| l.contains("--check-semver")), "{script:?}");
    let script: Vec<&str> = script.iter().map(String::as_str).filter(|l| !l.starts_with("cargo install")).collect();
    let script = script.join("\n");

    let t = TempDir::new("diff-semver-gitlab");
    t.write("mods/cellar/mod.toml", manifest(Some("1.3.0"), ""));
    t.write("mods/cellar/items.toml", ITEMS);
    let git = |args: &[&str]| rustkeep_testutil::git(&t.0, args);
    git(&["init", "-q", "-b", "main"]);
    git(&["add", "mods"]);
    git(&["commit", "-q", "-m", "base"]);
    git(&["clone", "-q", "--bare", ".", "origin.git"]);
    git(&["remote", "add", "origin", "origin.git"]);
    t.write("bin/curl", "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in body@*) cp \"${a#body@}\" note.txt ;; esac; done\necho \"$*\" > curl.args\n");
    std::fs::set_permissions(t.path("bin/curl"), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let rustkeep_dir = Path::new(env!("CARGO_BIN_EXE_rustkeep")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}:{}", t.path("bin").display(), rustkeep_dir.display(), std::env::var("PATH").unwrap_or_default());
    let job = |version: &str| -> (Option<i32>, String) {
        t.write("mods/cellar/mod.toml", manifest(Some(version), ""));
        let _ = std::fs::remove_file(t.path("note.txt"));
        let o = Command::new("bash")
            .args(["-c", &script])
            .current_dir(&t.0)
            .env("PATH", &path)
            .env("CI_MERGE_REQUEST_TARGET_BRANCH_NAME", "main")
            .env("RUSTKEEP_NOTE_TOKEN", "token")
            .env("CI_API_V4_URL", "https://gitlab.invalid/api/v4")
            .env("CI_PROJECT_ID", "3")
            .env("CI_MERGE_REQUEST_IID", "5")
            .output()
            .unwrap();
        (o.status.code(), std::fs::read_to_string(t.path("note.txt")).unwrap_or_else(|_| panic!("a note is posted: {}", String::from_utf8_lossy(&o.stderr))))
    };
    t.write("mods/cellar/items.toml", bread_added(ITEMS));
    let (code, note) = job("1.3.1");
    assert_eq!(code, Some(1), "{note}");
    assert!(note.starts_with("semver: addition — needs 1.4.0, the manifest says 1.3.1\n\n- addition: item `cellar:bread` added\n"), "{note}");
    assert!(note.contains("### rustkeep diff: `origin/main` → `working tree`"), "{note}");
    assert!(t.read("curl.args").contains("https://gitlab.invalid/api/v4/projects/3/merge_requests/5/notes"));
    let (code, note) = job("1.4.0");
    assert_eq!(code, Some(0), "{note}");
    assert!(note.starts_with("semver: addition — needs 1.4.0, the manifest says 1.4.0\n"), "{note}");
}
