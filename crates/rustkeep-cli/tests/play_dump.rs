//! The character dump of `rustkeep play` (docs/play.md, "The character dump"): written when the
//! run ends, to `--dump FILE` or to a new file in `rustkeep-play/dumps/` under the current
//! folder, and holding what a bug report needs — the seed, the options, the mods with their
//! versions, how the run ended and the last messages.

mod common;

use rustkeep_testutil::TempDir;

/// Plays the line console in `cwd` (no mod there: the bundled core alone): a warrior of seed 11
/// waits among three liches until it dies. Returns what it printed.
fn die_among_liches(cwd: &std::path::Path, extra: &[&str]) -> String {
    let mut script = String::from("trace off\nspawn core:lich 3\n");
    for _ in 0..300 {
        script.push_str("wait\n");
    }
    script.push_str("quit\n");
    let mut args = vec!["play", "--line", "--seed", "11", "--option", "core:warrior"];
    args.extend_from_slice(extra);
    let out = common::run_with_input(cwd, &args, &script);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_death_writes_the_dump_named_on_the_command_line() {
    let cwd = TempDir::new("play-dump-file");
    let file = cwd.join("morgue.txt");
    let out = die_among_liches(&cwd, &["--dump", file.to_str().expect("UTF-8 path")]);
    assert!(out.contains("You died"), "{out}");
    assert_eq!(out.matches("character dump written to").count(), 1, "written once, when the run ended: {out}");
    assert!(out.contains(&format!("character dump written to {}", file.display())), "{out}");
    let dump = std::fs::read_to_string(&file).expect("the dump was written");
    for part in [
        "Character: Warrior (core:warrior)",
        "Outcome:   died: ",
        "Seed:      11",
        &format!("core {}", env!("CARGO_PKG_VERSION")),
        "Testing:   testing commands used: spawn",
        "\nAttributes\n",
        "\nEquipment\n",
        "  weapon: Iron Sword",
        "\nInventory\n",
        "\nQuests\n",
        "Proven in Battle",
        "\nLast messages (up to 30)\n",
        "The run is over.",
        "\nTrace of the last turns (up to 20)\n",
        "  > spawn core:lich 3 (turn 2)",
        "   2. Leather Jerkin (equipped)",
        "   3. 2 × Health Potion",
    ] {
        assert!(dump.contains(part), "the dump lacks {part:?}:\n{dump}");
    }
    // The cause of death is the one the game gave.
    let cause = out.lines().find_map(|l| l.strip_prefix("You died: ")).and_then(|l| l.strip_suffix(". The run is over.")).expect("a cause");
    assert!(dump.contains(&format!("Outcome:   died: {cause}")), "{cause}\n{dump}");
    // Thirty messages at most, twenty turns of trace at most.
    let messages = dump.split("\nLast messages (up to 30)\n").nth(1).and_then(|r| r.split("\n\n").next()).expect("the messages");
    assert!((1..=30).contains(&messages.lines().count()), "{messages}");
    assert!(dump.matches("\n  > ").count() <= 20, "{dump}");
}

#[test]
fn without_a_file_the_dump_goes_to_a_new_file_under_the_current_folder() {
    let cwd = TempDir::new("play-dump-folder");
    let out = die_among_liches(&cwd, &[]);
    let dir = cwd.join("rustkeep-play").join("dumps");
    let first: Vec<_> = std::fs::read_dir(&dir).expect("the dumps folder").map(|e| e.expect("an entry").file_name()).collect();
    assert_eq!(first.len(), 1, "{first:?}");
    let name = first[0].to_string_lossy().into_owned();
    assert!(name.starts_with("seed-11-turn-") && name.ends_with(".txt"), "{name}");
    assert!(out.contains(&format!("character dump written to {}", std::path::Path::new("rustkeep-play/dumps").join(&name).display())), "{out}");
    // The same run again: a second file, the first one kept.
    die_among_liches(&cwd, &[]);
    let mut names: Vec<String> =
        std::fs::read_dir(&dir).expect("the dumps folder").map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let mut expected = [name.clone(), name.replace(".txt", "-2.txt")];
    expected.sort();
    assert_eq!(names, expected);
}
