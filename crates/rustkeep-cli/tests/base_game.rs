//! The base game at hand from the command line: `rustkeep show ID` (the entry as written, with its
//! file, and `--override` as a copy to paste), `rustkeep core export DIR` and `show --core-dir`
//! (the bundled core as files), and `rustkeep new NAME` (a mod that checks clean, with a scenario
//! that runs) — as a modder starting out would use them.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{run, stderr, stdout};
use rustkeep_testutil::{ensure_file_contents, TempDir};

#[test]
fn show_prints_a_core_entry_as_written_with_its_file() {
    let t = TempDir::new("show");
    let o = run(&t.0, &["show", "core:flaming"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    ensure_file_contents(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/show_flaming.txt"), &stdout(&o));
    // A name without namespace finds the ID; a typo gets a suggestion and exit 2.
    assert_eq!(stdout(&run(&t.0, &["show", "flaming"])), stdout(&o));
    let o = run(&t.0, &["show", "core:flamng"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`core:flamng` names no entry of the loaded mods; did you mean `core:flaming`?"), "{}", stderr(&o));
}

#[test]
fn a_short_name_that_fits_several_ids_is_an_error_listing_them() {
    let t = TempDir::new("short");
    std::fs::write(t.0.join("mod.toml"), "[mod]\nid = \"deep\"\nname = \"Deep\"\nversion = \"0.1.0\"\n").unwrap();
    std::fs::write(t.0.join("loot.toml"), "[[loot_tables]]\nid = \"deep:floor_2_table\"\nrolls = 1\nentries = [ { item = \"core:gold\", weight = 1 } ]\n")
        .unwrap();
    for cmd in ["show", "loot"] {
        let o = run(&t.0, &[cmd, "floor_2_table"]);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {}{}", stdout(&o), stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("`floor_2_table` fits more than one") && err.contains("`core:floor_2_table`, `deep:floor_2_table`"), "{cmd}: {err}");
        assert!(stdout(&o).is_empty(), "{cmd} picked one: {}", stdout(&o));
    }
    // The whole ID, or a name only one mod has, still works.
    assert_eq!(run(&t.0, &["show", "deep:floor_2_table"]).status.code(), Some(0));
    assert_eq!(run(&t.0, &["loot", "floor_3_table"]).status.code(), Some(0));
    assert_eq!(stdout(&run(&t.0, &["loot", "floor_3_table"])), stdout(&run(&t.0, &["loot", "core:floor_3_table"])));
}

#[test]
fn the_override_copy_of_show_makes_a_mod_that_checks_clean() {
    let t = TempDir::new("override");
    std::fs::write(t.0.join("mod.toml"), "[mod]\nid = \"hot\"\nname = \"Hot\"\nversion = \"0.1.0\"\n").unwrap();
    let o = run(&t.0, &["show", "core:flaming", "--override"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let copy = stdout(&o);
    assert!(copy.contains("overrides = \"core:flaming\"") && !copy.contains("id = \"core:flaming\""), "{copy}");
    std::fs::write(t.0.join("affixes.toml"), copy.replace("price_factor = 1.5", "price_factor = 1.7")).unwrap();
    let o = run(&t.0, &["check", "--format", "json", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Now the mod's entry is the one in force, and `show` says where it is and what it replaces.
    let o = run(&t.0, &["show", "core:flaming"]);
    let shown = stdout(&o);
    assert!(shown.starts_with("# core:flaming: an affix of `hot`, affixes.toml:"), "{shown}");
    assert!(shown.contains("# it overrides the entry of <core>/affixes.toml:"), "{shown}");
    assert!(shown.contains("price_factor = 1.7"), "{shown}");
}

#[test]
fn core_export_writes_the_files_the_traces_name() {
    let t = TempDir::new("export");
    let dir = t.0.join("core");
    let o = run(&t.0, &["core", "export", "core"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for (name, text) in rustkeep_data::project::bundled::CORE_FILES {
        assert_eq!(std::fs::read_to_string(dir.join(name)).unwrap(), *text, "{name}");
    }
    // `<core>/affixes.toml:10` in a trace is line 10 of the exported affixes.toml.
    let shown = stdout(&run(&t.0, &["show", "core:flaming"]));
    let line: usize = shown.split("<core>/affixes.toml:").nth(1).and_then(|r| r.split(' ').next()).and_then(|n| n.parse().ok()).expect("a line");
    let exported = std::fs::read_to_string(dir.join("affixes.toml")).unwrap();
    // The core is written in TOML 1.0, so the inline table of the entry is one line.
    let entry = exported.lines().nth(line - 1).unwrap();
    assert!(entry.trim_start().starts_with('{') && entry.contains("id = \"core:flaming\""), "line {line} is the entry: {entry}");
    // Exporting again over the same files is fine; over changed ones only with --force.
    assert_eq!(run(&t.0, &["core", "export", "core"]).status.code(), Some(0));
    std::fs::write(dir.join("items.toml"), "# mine\n").unwrap();
    let o = run(&t.0, &["core", "export", "core"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(run(&t.0, &["core", "export", "core", "--force"]).status.code(), Some(0));
    // `show --core-dir` prints the folder the language server serves the same files from.
    let o = Command::new(env!("CARGO_BIN_EXE_rustkeep")).args(["show", "--core-dir"]).env("XDG_CACHE_HOME", t.0.join("cache")).output().unwrap();
    let served = PathBuf::from(stdout(&o).trim());
    assert!(served.starts_with(t.0.join("cache")), "{}", served.display());
    assert_eq!(std::fs::read_to_string(served.join("affixes.toml")).unwrap(), exported);
}

#[test]
fn new_creates_a_mod_that_checks_clean_and_a_scenario_whose_expectations_hold() {
    let t = TempDir::new("new");
    let o = run(&t.0, &["new", "lantern_guild"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let m = t.0.join("lantern_guild");
    let o = run(&m, &["check", "--deny-warnings"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).starts_with("0 errors, 0 warnings in 4 files of 1 mod"), "{}", stdout(&o));
    let o = run(&m, &["simulate", "scenarios/smoke.toml"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("lantern_guild:lucky_coin"), "{}", stdout(&o));
    // Its expectations hold.
    let o = run(&m, &["test"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "3 passed, 0 failed (1 scenario)\n"), "{}", stderr(&o));
    // The formatter has nothing to change in it.
    assert_eq!(run(&m, &["fmt", "--check"]).status.code(), Some(0));
    // A bad name, `core`, or a folder that is not empty: exit 2, nothing written.
    for args in [vec!["new", "Lantern-Guild"], vec!["new", "core"], vec!["new", "lantern_guild"]] {
        let o = run(&t.0, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
    assert!(!t.0.join("Lantern-Guild").exists());
}
