//! The schemas of the VS Code extension: `editors/vscode/schemas/` holds the draft-07 schema of
//! every kind of TOML file users write, and `contributes.tomlValidation` in
//! `editors/vscode/package.json` maps each file to its schema. This test owns both (`cargo xtask
//! update` rewrites them from [`KINDS`] and `rustkeep schema`).
//!
//! Even Better TOML hands the `regexMatch` patterns to Taplo, which compiles them with Rust's
//! `regex` crate: no look-around, so "every TOML file of a mod but its manifest" has to be spelled
//! out (see [`other_than`]). The test compiles them with the same crate and checks that each path
//! of a table of examples maps to exactly the schema it should, or to none. Then Taplo itself
//! (`@taplo/cli` in `tests/taplo`, installed by `.ci/run`) checks the example mods' manifests and
//! the workspace files of the fixtures with the schema the mapping gives them: silent on the
//! good ones, an error on a misspelled key (the same verdicts the toolkit's own reader gives).
//! The same is done with the `.taplo.toml` that docs/editors/README.md shows.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use regex::Regex;
use rustkeep_data::manifest::{read_manifest, read_workspace};
use rustkeep_data::source::FileId;
use rustkeep_data::vocab::{BALANCE_KEY, REGISTRIES};
use rustkeep_testutil::{copy_dir, ensure_file_contents, ensure_folder_contents, file_uri, files_below, repo_path, repo_root, Taplo, TempDir};
use serde_json::{json, Value};

/// A kind of TOML file and the schema editors give it: `stem` names the schema
/// (`schemas/STEM.draft-07.schema.json`), `patterns` the document URIs it is for.
struct FileKind {
    stem: &'static str,
    patterns: fn() -> Vec<String>,
}

/// Every kind of TOML file users write. A kind whose schema `rustkeep schema` does not list yet
/// (scenarios, until their schema is registered) is left out of the mapping; its files are kept
/// out of the data schema's patterns all the same.
const KINDS: &[FileKind] = &[
    FileKind { stem: "rustkeep", patterns: data_patterns },
    FileKind { stem: "mod", patterns: || vec![r"^.*/mod\.toml$".into()] },
    FileKind { stem: "workspace", patterns: || vec![r"^.*/rustkeep\.toml$".into()] },
    FileKind { stem: "scenario", patterns: scenario_patterns },
];

/// Names a data file conventionally has besides a registry's: `loot.toml` and `world.toml` (as
/// in the examples), and two older spellings.
const CONVENTIONAL_DATA_NAMES: &[&str] = &["loot", "world", "classes", "rooms"];

/// The start of a document URI: scheme and authority (`file://`, `vscode-remote://host`).
const URI_START: &str = "^[^/]*//[^/]*";

/// A regular expression, without look-around, for a non-empty text of characters outside
/// `excluded` (a character-class body) that is none of `words`. Built on the trie of the words:
/// at each prefix, a text may stop there (unless the prefix is a word), go on with a character
/// no word continues with, or follow a word one character further.
fn other_than(words: &[&str], excluded: &str) -> String {
    fn from(prefix: &str, words: &[&str], excluded: &str) -> String {
        let next: BTreeSet<char> = words.iter().filter_map(|w| w.strip_prefix(prefix)?.chars().next()).collect();
        let mut alternatives = Vec::new();
        if !prefix.is_empty() && !words.contains(&prefix) {
            alternatives.push(String::new());
        }
        let taken: String = next.iter().collect();
        alternatives.push(format!("[^{excluded}{taken}][^{excluded}]*"));
        for c in next {
            alternatives.push(format!("{}{}", regex::escape(&c.to_string()), from(&format!("{prefix}{c}"), words, excluded)));
        }
        format!("(?:{})", alternatives.join("|"))
    }
    from("", words, excluded)
}

/// A folder name other than `scenarios`.
fn folder() -> String {
    other_than(&["scenarios"], "/")
}

/// The name of a file before `.toml` that neither a manifest, a workspace file nor a scenario
/// has: not `mod`, not `rustkeep`, not ending in `.scenario`.
fn data_name() -> String {
    format!(r"(?:{}|[^/]*\.(?:|{}))", other_than(&["mod", "rustkeep"], "/."), other_than(&["scenario"], "/."))
}

/// Data files: a file named after a registry (or a conventional data name), and every other
/// TOML file below `mods/<mod>/` — outside `scenarios/` folders in both cases.
fn data_patterns() -> Vec<String> {
    let mut names: Vec<&str> = REGISTRIES.iter().map(|r| r.key).collect();
    names.push(BALANCE_KEY);
    names.extend_from_slice(CONVENTIONAL_DATA_NAMES);
    let dir = folder();
    vec![format!(r"{URI_START}(?:/{dir})*/(?:{})\.toml$", names.join("|")), format!(r"{URI_START}(?:/{dir})*/mods/{dir}(?:/{dir})*/{}\.toml$", data_name())]
}

/// Scenario files: `*.scenario.toml`, and the TOML files below a `scenarios/` folder.
fn scenario_patterns() -> Vec<String> {
    vec![r"^.*\.scenario\.toml$".into(), format!(r"^.*/scenarios/(?:[^/]+/)*{}\.toml$", data_name())]
}

fn rustkeep(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rustkeep")).args(args).output().unwrap();
    assert!(out.status.success(), "rustkeep {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The stems of the schemas `rustkeep schema --list` names.
fn registered() -> BTreeSet<String> {
    rustkeep(&["schema", "--list"])
        .lines()
        .map(|l| l.split_whitespace().nth(1).and_then(|f| f.strip_suffix(".schema.json")).expect("`NAME FILE ABOUT` lines").to_string())
        .collect()
}

fn target_of(stem: &str) -> String {
    rustkeep(&["schema", "--list"])
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(&format!("{stem}.schema.json")))
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string()
}

/// The kinds that the extension maps: those with a registered schema.
fn mapped() -> Vec<&'static FileKind> {
    let stems = registered();
    KINDS.iter().filter(|k| stems.contains(k.stem)).collect()
}

fn schema_file(stem: &str) -> String {
    format!("{stem}.draft-07.schema.json")
}

/// `contributes.tomlValidation` as the mapping says.
fn toml_validation() -> Value {
    mapped().iter().flat_map(|k| (k.patterns)().into_iter().map(|p| json!({ "regexMatch": p, "url": format!("./schemas/{}", schema_file(k.stem)) }))).collect()
}

#[test]
fn the_extension_maps_every_kind_of_file_to_its_schema() {
    let path = repo_path("editors/vscode/package.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut manifest: Value = serde_json::from_str(&text).unwrap();
    manifest["contributes"]["tomlValidation"] = toml_validation();
    let mut expected = serde_json::to_string_pretty(&manifest).unwrap();
    expected.push('\n');
    ensure_file_contents(&path, &expected);
}

#[test]
fn the_extension_ships_the_schemas_it_maps() {
    let files: Vec<(String, String)> =
        mapped().iter().map(|k| (schema_file(k.stem), rustkeep(&["schema", "--for", &target_of(k.stem), "--draft", "07"]))).collect();
    ensure_folder_contents(&repo_path("editors/vscode/schemas"), ".json", &files, "the schemas `contributes.tomlValidation` maps (`npm run sync-schema`)");
}

/// The rules of `kinds`, compiled as Taplo compiles them: (pattern, schema file) in order.
fn compiled<'a>(kinds: impl IntoIterator<Item = &'a FileKind>) -> Vec<(Regex, String)> {
    kinds
        .into_iter()
        .flat_map(|k| {
            (k.patterns)().into_iter().map(|p| {
                let re = Regex::new(&p).unwrap_or_else(|e| panic!("Taplo cannot compile `{p}`: {e}"));
                (re, format!("./schemas/{}", schema_file(k.stem)))
            })
        })
        .collect()
}

/// The mapping of `package.json`, compiled. It is built as [`toml_validation`] builds it, which
/// the committed file equals (the test above), so that these tests do not read the file while
/// `cargo xtask update` rewrites it.
fn mapping() -> Vec<(Regex, String)> {
    compiled(mapped())
}

/// The schema files the mapping gives a document URI (every matching rule's).
fn schemas_for(mapping: &[(Regex, String)], uri: &str) -> BTreeSet<String> {
    mapping.iter().filter(|(re, _)| re.is_match(uri)).map(|(_, url)| url.trim_start_matches("./schemas/").to_string()).collect()
}

/// Document URIs and the kind of file each is (its schema's stem), or none.
const CASES: &[(&str, Option<&str>)] = &[
    ("file:///w/mods/a/mod.toml", Some("mod")),
    ("file:///w/mods/a/items.toml", Some("rustkeep")),
    ("file:///w/mods/a/quests/rats.toml", Some("rustkeep")),
    ("file:///w/mods/a/data.toml", Some("rustkeep")),
    ("file:///w/mods/a/modx.toml", Some("rustkeep")),
    ("file:///w/mods/a/mo.toml", Some("rustkeep")),
    ("file:///w/mods/a/mod.old.toml", Some("rustkeep")),
    ("file:///w/mods/a/sub/scenariox/rustkeeper.toml", Some("rustkeep")),
    ("file:///w/mods/scenarios_of_old/a.toml", Some("rustkeep")),
    ("file:///c%3A/Users/me/mods/a/items.toml", Some("rustkeep")),
    ("vscode-remote://ssh-remote%2Bhost/w/mods/a/npcs.toml", Some("rustkeep")),
    ("file:///home/me/fire_and_thorns/items.toml", Some("rustkeep")),
    ("file:///home/me/rat_catcher/world.toml", Some("rustkeep")),
    ("file:///home/me/rat_catcher/mod.toml", Some("mod")),
    ("file:///w/rustkeep.toml", Some("workspace")),
    ("file:///w/mods/a/rustkeep.toml", Some("workspace")),
    ("file:///w/scenarios/rat_catcher.toml", Some("scenario")),
    ("file:///w/scenarios/items.toml", Some("scenario")),
    ("file:///w/examples/scenarios/deep/quests.toml", Some("scenario")),
    ("file:///w/fight.scenario.toml", Some("scenario")),
    ("file:///w/mods/a/fight.scenario.toml", Some("scenario")),
    ("file:///w/mods/a/scenarios/fight.toml", Some("scenario")),
    ("file:///w/Cargo.toml", None),
    ("file:///w/pyproject.toml", None),
    ("file:///w/notes/data.toml", None),
];

/// The paths of [`CASES`] whose schemas under `mapping` differ from the expected ones.
fn misses(mapping: &[(Regex, String)], registered: &BTreeSet<String>) -> Vec<String> {
    let mut wrong = Vec::new();
    for (uri, want) in CASES {
        let got = schemas_for(mapping, uri);
        let want: BTreeSet<String> = want.iter().filter(|s| registered.contains(**s)).map(|s| schema_file(s)).collect();
        if got != want {
            wrong.push(format!("{uri}: {got:?}, expected {want:?}"));
        }
    }
    wrong
}

#[test]
fn each_file_gets_exactly_its_schema() {
    // The extension's mapping: a kind without a registered schema (scenarios, until theirs is
    // registered) gets none, and no other kind's either.
    let wrong = misses(&mapping(), &registered());
    assert!(wrong.is_empty(), "the mapping of editors/vscode/package.json is off:\n{}", wrong.join("\n"));
    // The mapping once every kind has its schema: ready for scenarios.
    let all: BTreeSet<String> = KINDS.iter().map(|k| k.stem.to_string()).collect();
    let wrong = misses(&compiled(KINDS), &all);
    assert!(wrong.is_empty(), "the mapping of every kind is off:\n{}", wrong.join("\n"));
}

/// The patterns say what they mean: the trie regular expression refuses exactly its words.
#[test]
fn other_than_refuses_exactly_its_words() {
    let re = Regex::new(&format!("^{}$", other_than(&["mod", "rustkeep", "mods"], "/."))).unwrap();
    for yes in ["m", "mo", "modx", "mod_", "rust", "rustkeeper", "a", "mods_", "xmod"] {
        assert!(re.is_match(yes), "{yes}");
    }
    for no in ["mod", "rustkeep", "mods", "", "a/b", "a.b"] {
        assert!(!re.is_match(no), "{no}");
    }
}

/// The manifests of the examples and the workspace files of the fixtures, each with whether the
/// toolkit's own reader finds a problem in it.
fn manifests_and_workspaces() -> Vec<(PathBuf, bool)> {
    ["examples", "tests/fixtures"]
        .into_iter()
        .flat_map(|dir| files_below(&repo_path(dir), "toml"))
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            let problems = match p.file_name()?.to_str()? {
                "mod.toml" => read_manifest(FileId(0), &text, None).1,
                "rustkeep.toml" => read_workspace(FileId(0), &text).1,
                _ => return None,
            };
            Some((p, problems.is_empty()))
        })
        .collect()
}

#[test]
fn taplo_with_the_extensions_mapping_passes_good_manifests_and_flags_a_misspelled_key() {
    let Some(taplo) = Taplo::installed() else { return };
    let mapping = mapping();
    // The extension's schemas, as the test above keeps them in editors/vscode/schemas/.
    let dir = TempDir::new("taplo");
    std::fs::create_dir_all(dir.join("schemas")).unwrap();
    for k in mapped() {
        std::fs::write(dir.join("schemas").join(schema_file(k.stem)), rustkeep(&["schema", "--for", &target_of(k.stem), "--draft", "07"])).unwrap();
    }
    let schema_of = |file: &Path| -> String {
        let uri = file_uri(file);
        let schemas = schemas_for(&mapping, &uri);
        assert_eq!(schemas.len(), 1, "{uri}: {schemas:?}");
        file_uri(&dir.join("schemas").join(schemas.first().unwrap()))
    };
    let files = manifests_and_workspaces();
    assert!(files.iter().filter(|(p, good)| *good && p.starts_with(repo_path("examples"))).count() >= 6, "{files:?}");
    // One run per schema the mapping gives.
    let mut by_schema: std::collections::BTreeMap<String, Vec<&(PathBuf, bool)>> = Default::default();
    for f in &files {
        by_schema.entry(schema_of(&f.0)).or_default().push(f);
    }
    assert_eq!(by_schema.len(), 2, "mod.toml and rustkeep.toml map to two schemas: {:?}", by_schema.keys());
    for (schema, group) in &by_schema {
        let paths: Vec<PathBuf> = group.iter().map(|(p, _)| p.clone()).collect();
        let (invalid, said) = taplo.lint(repo_root(), &paths, &["--schema", schema]);
        let expected: BTreeSet<PathBuf> = group.iter().filter(|(_, good)| !good).map(|(p, _)| p.clone()).collect();
        assert_eq!(invalid, expected, "{schema}: Taplo's verdicts (left) differ from the toolkit's reader's (right):\n{said}");
        // Taplo names the file of every message it prints: the good ones get none.
        for (p, _) in group.iter().filter(|(_, good)| *good) {
            assert!(!said.contains(p.to_str().unwrap()), "{}:\n{said}", p.display());
        }
    }

    let manifest = dir.join("rat_catcher/mod.toml");
    std::fs::create_dir_all(manifest.parent().unwrap()).unwrap();
    let text = std::fs::read_to_string(repo_path("examples/rat_catcher/mod.toml")).unwrap();
    std::fs::write(&manifest, text.replacen("name =", "nmae =", 1)).unwrap();
    let (invalid, said) = taplo.lint(&dir, std::slice::from_ref(&manifest), &["--schema", &schema_of(&manifest)]);
    assert!(invalid.contains(&manifest) && said.contains("'nmae' was unexpected"), "{said}");
}

/// The `.taplo.toml` of docs/editors/README.md, in a workspace laid out as it says and Taplo run
/// in its folder (Taplo's command line reads the paths of the configuration from there): quiet on the
/// examples' manifests, data files and a workspace file, loud on a misspelled key of a manifest
/// and on data keys in a manifest (the data schema stays off `mod.toml`).
#[test]
fn the_documented_taplo_configuration_works() {
    let Some(taplo) = Taplo::installed() else { return };
    let docs = std::fs::read_to_string(repo_path("docs/editors/README.md")).unwrap();
    let config = docs
        .split("```toml\n")
        .skip(1)
        .find(|b| b.starts_with("# .taplo.toml"))
        .and_then(|b| b.split("```").next())
        .expect("a ```toml block starting with `# .taplo.toml`");
    let ws = TempDir::new("taplo-docs");
    std::fs::create_dir_all(ws.join("schemas")).unwrap();
    std::fs::write(ws.join(".taplo.toml"), config).unwrap();
    for k in mapped() {
        std::fs::write(ws.join("schemas").join(schema_file(k.stem)), rustkeep(&["schema", "--for", &target_of(k.stem), "--draft", "07"])).unwrap();
    }
    for m in ["rat_catcher", "fire_and_thorns"] {
        copy_dir(&repo_path("examples").join(m), &ws.join("mods").join(m));
    }
    // The lints fixture without its deliberate mistake (`toml-syntax` takes no level).
    let workspace = std::fs::read_to_string(repo_path("tests/fixtures/lints/rustkeep.toml")).unwrap();
    let workspace: String = workspace.lines().filter(|l| !l.starts_with("toml-syntax")).map(|l| format!("{l}\n")).collect();
    assert!(workspace.contains("[lints]"), "{workspace}");
    std::fs::write(ws.join("rustkeep.toml"), workspace).unwrap();
    let config_arg = ws.join(".taplo.toml");
    let config_arg = config_arg.to_str().unwrap();
    // Data files that Taplo, a TOML 1.0 reader, can parse: no inline table over several lines.
    let good = [
        ws.join("rustkeep.toml"),
        ws.join("mods/rat_catcher/mod.toml"),
        ws.join("mods/fire_and_thorns/mod.toml"),
        ws.join("mods/fire_and_thorns/loot.toml"),
        ws.join("mods/rat_catcher/quests.toml"),
        ws.join("mods/rat_catcher/npcs.toml"),
    ];
    let (invalid, said) = taplo.lint(&ws, &good, &["--config", config_arg]);
    assert!(invalid.is_empty(), "{said}");

    let misspelled = ws.join("mods/rat_catcher/mod.toml");
    let text = std::fs::read_to_string(&misspelled).unwrap();
    std::fs::write(&misspelled, text.replacen("version =", "verison =", 1)).unwrap();
    let data_keys = ws.join("mods/fire_and_thorns/mod.toml");
    std::fs::write(&data_keys, "[[items]]\nid = \"fire_and_thorns:x\"\nname = \"X\"\n").unwrap();
    let (invalid, said) = taplo.lint(&ws, &[misspelled.clone(), data_keys.clone()], &["--config", config_arg]);
    assert_eq!(invalid, BTreeSet::from([misspelled, data_keys]), "{said}");
    assert!(said.contains("'verison' was unexpected") && said.contains("'items' was unexpected"), "{said}");
}
