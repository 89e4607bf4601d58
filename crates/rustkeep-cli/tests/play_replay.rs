//! Recordings and replays of `rustkeep play`, through the real binary in line mode: a game played
//! with `--record` and replayed with `--replay … --save` gives a save byte-identical to the one
//! saved at the end of the game; a replay after the mod's data changed is refused with the
//! message that says so (and `--force` plays it anyway); broken or foreign recordings and saves
//! are refused with a clear error and change nothing.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rustkeep_testutil::{copy_dir, repo_root, TempDir};

struct Run {
    code: i32,
    out: String,
    err: String,
}

/// Runs `rustkeep play ARGS` with `script` on stdin, in an empty folder: without `--mods`, `play`
/// loads the mods it finds from its folder (the repository root would bring every example, the
/// broken ones too), so here only the core.
fn play(args: &[&str], script: &str) -> Run {
    let empty = TempDir::new("play-core-only");
    let mut child = Command::new(env!("CARGO_BIN_EXE_rustkeep"))
        .current_dir(&empty)
        .arg("play")
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rustkeep starts");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("the script is written");
    let out = child.wait_with_output().expect("rustkeep ends");
    Run {
        code: out.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&out.stdout).into_owned(),
        err: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// A game with a bit of everything that changes it: a room entered, gold given, a talk that opens
/// a shop, a purchase, a sale, leaving the shop, spawned rats, moves, waits, attacks, a descent.
/// Ends with `save SAVE`. (Commands that fail — an attack out of reach — are not recorded.)
fn busy_game(save: &Path) -> String {
    [
        "enter core:elders_hall",
        "give core:gold 80",
        // `talk` reaches only an NPC next to the player: two moves north from the hall's `@`,
        // and back after the trade.
        "move n",
        "move n",
        "talk core:elder",
        "buy 1",
        "sell core:health_potion",
        "leave",
        "move s",
        "move s",
        // The first floor's residents were enemy:0 to enemy:4 (seed 9): the rats are 5 and 6.
        "spawn core:rat 2",
        "attack enemy:5",
        "attack enemy:5",
        "attack enemy:6",
        "move n",
        "wait",
        "attack enemy:99",
        "use core:health_potion",
        "pickup",
        // Onto the hall's door: the stairs behind it come into sight, and `descend` takes them.
        "move s",
        "move s",
        "descend",
        "move s",
        "wait",
        &format!("save {}", save.display()),
        "quit",
    ]
    .join("\n")
        + "\n"
}

#[test]
fn a_replayed_recording_saves_the_same_bytes_as_the_game_it_recorded() {
    let dir = TempDir::new("identical");
    let (rec, played, replayed) = (dir.join("game.rkrec"), dir.join("played.json"), dir.join("replayed.json"));
    let r = play(&["--line", "--seed", "9", "--option", "core:warrior", "--record", s(&rec)], &busy_game(&played));
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("saved to") && r.out.contains("error: "), "one command failed and the rest ran: {}", r.out);
    let recording = std::fs::read_to_string(&rec).expect("the recording");
    let inputs: Vec<&str> = recording.lines().skip(1).collect();
    assert!(inputs.contains(&r#"{"input":"buy 1"}"#) && inputs.contains(&r#"{"input":"descend"}"#), "{recording}");
    assert!(!recording.contains("enemy:99") && !recording.contains("save "), "failed and non-game commands are not recorded: {recording}");

    let r = play(&["--replay", s(&rec), "--save", s(&replayed)], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.starts_with(&format!("replayed {} inputs of ", inputs.len())), "{}", r.out);
    let (a, b) = (std::fs::read(&played).expect("the played save"), std::fs::read(&replayed).expect("the replayed save"));
    assert!(a == b, "the saves differ:\n{}\n---\n{}", String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
    // The save is of a game that went somewhere: a shop visited, rats fought, a room left.
    let save: serde_json::Value = serde_json::from_slice(&a).expect("JSON");
    assert!(save["game"]["step"].as_u64().is_some_and(|n| n >= 8), "{}", save["game"]["step"]);
    assert!(save["game"]["shops"]["core:general_store"].is_array());

    // The same recording replays the same way every time, in both output formats.
    let again = play(&["--replay", s(&rec), "--format", "json"], "");
    let twice = play(&["--replay", s(&rec), "--format", "json"], "");
    assert_eq!((again.code, &again.out), (0, &twice.out));
}

#[test]
fn a_replay_after_the_mod_changed_is_refused_unless_forced() {
    let dir = TempDir::new("changed");
    let m = dir.join("rat_catcher");
    copy_dir(&repo_root().join("examples/rat_catcher"), &m);
    let (rec, out) = (dir.join("game.rkrec"), dir.join("out.json"));
    let r = play(
        &["--line", "--mods", s(&m), "--seed", "4", "--record", s(&rec)],
        "enter rat_catcher:mags_stall\ntalk rat_catcher:old_mags\nspawn core:rat\nwait\nquit\n",
    );
    assert_eq!(r.code, 0, "{}", r.err);
    let r = play(&["--mods", s(&m), "--replay", s(&rec), "--save", s(&out)], "");
    assert_eq!(r.code, 0, "the unchanged mod replays: {}", r.err);
    std::fs::remove_file(&out).expect("saved");

    // One changed byte of the mod's data: a name.
    let items = m.join("items.toml");
    let text = std::fs::read_to_string(&items).expect("items.toml");
    let at = text.find("name = \"").expect("a name") + "name = \"".len();
    std::fs::write(&items, format!("{}X{}", &text[..at], &text[at..])).expect("written");
    let r = play(&["--mods", s(&m), "--replay", s(&rec), "--save", s(&out)], "");
    assert_eq!(r.code, 2, "{}", r.out);
    assert!(r.err.starts_with(&format!("rustkeep: {}: the recording does not fit the loaded mods:\n", rec.display())), "{}", r.err);
    assert!(r.err.contains("the data of mod `rat_catcher` 0.1.0 changed since the recording (data hash fnv1a64:"), "{}", r.err);
    assert!(r.err.contains("it would not play the same game; load the mods it was made with, or replay it anyway with --force"), "{}", r.err);
    assert!(!out.exists() && r.out.is_empty(), "a refused replay writes nothing");

    // --force plays it anyway, with a warning.
    let r = play(&["--mods", s(&m), "--replay", s(&rec), "--save", s(&out), "--force"], "");
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.err.contains("warning: the data of mod `rat_catcher` 0.1.0 changed") && r.err.contains("(replaying anyway: --force)"), "{}", r.err);
    assert!(out.is_file());

    // Without the mod at all: it is not loaded.
    let r = play(&["--replay", s(&rec)], "");
    assert_eq!(r.code, 2);
    assert!(r.err.contains("mod `rat_catcher` 0.1.0 is not loaded"), "{}", r.err);
}

#[test]
fn a_replay_under_other_rules_is_refused_unless_forced() {
    let dir = TempDir::new("rules");
    let (rec, out) = (dir.join("game.rkrec"), dir.join("out.json"));
    let r = play(&["--line", "--seed", "4", "--record", s(&rec)], "wait\nwait\nquit\n");
    assert_eq!(r.code, 0, "{}", r.err);
    let text = std::fs::read_to_string(&rec).expect("the recording");
    let header = text.lines().next().expect("a header");
    let rules = format!("\"rules\":{}", rustkeep_engine::RULES);
    assert!(header.contains(&rules), "the header names the rules: {header}");
    for (name, edited, says) in [
        ("older", text.replacen(&format!("{rules},"), "", 1), "rules version 2 (it names none"),
        ("other", text.replacen(&rules, "\"rules\":7", 1), "rules version 7"),
    ] {
        std::fs::write(&rec, &edited).expect("written");
        let r = play(&["--replay", s(&rec), "--save", s(&out)], "");
        assert_eq!(r.code, 2, "{name}: {}", r.out);
        assert!(r.err.starts_with(&format!("rustkeep: {}: the recording was made under other rules: ", rec.display())), "{name}: {}", r.err);
        assert!(r.err.contains(says) && r.err.contains("(replay it anyway with --force)"), "{name}: {}", r.err);
        assert!(!out.exists(), "{name}: a refused replay writes nothing");
        let r = play(&["--replay", s(&rec), "--save", s(&out), "--force"], "");
        assert_eq!(r.code, 0, "{name}: {}", r.err);
        assert!(r.err.contains(says) && r.err.contains("(replaying anyway: --force)"), "{name}: {}", r.err);
        std::fs::remove_file(&out).expect("saved");
    }
}

/// A line-console game of seed 2 that plays `moves`, then saves and quits, recorded: the folder
/// (removed when dropped), the recording and the save.
fn recorded_and_saved(moves: &str) -> (TempDir, PathBuf, PathBuf) {
    let dir = TempDir::new("recorded");
    let (rec, save) = (dir.join("game.rkrec"), dir.join("game.json"));
    let r = play(&["--line", "--seed", "2", "--record", s(&rec)], &format!("{moves}save {}\nquit\n", save.display()));
    assert_eq!(r.code, 0, "{}", r.err);
    (dir, rec, save)
}

#[test]
fn broken_and_foreign_recordings_are_refused_and_change_nothing() {
    let (dir, rec, save) = recorded_and_saved("spawn core:rat\nwait\n");
    let good = std::fs::read_to_string(&rec).expect("the recording");
    let header = good.lines().next().expect("a header");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", Vec::new(), "not a recording: the file is empty"),
        ("binary", vec![0xff, 0xfe, 0x00, 0x80], "not a recording: invalid UTF-8 at byte 0"),
        ("save", std::fs::read(&save).expect("the save"), "line 1: not a recording"),
        ("foreign", br#"{"format":"rustkeep-save","version":1}"#.to_vec(), "line 1: not a recording: its format is `rustkeep-save`, not `rustkeep-recording`"),
        ("future", header.replace(r#""version":1"#, r#""version":9"#).into_bytes(), "line 1: recording version 9 is not supported"),
        ("truncated", format!("{header}\n{{\"input\":\"wa").into_bytes(), "line 2: not an input"),
        ("not_an_input", format!("{header}\n[\"wait\"]\n").into_bytes(), "line 2: an input line is {\"input\": \"COMMAND\"}"),
        ("unknown_command", format!("{header}\n{{\"input\":\"fly north\"}}\n").into_bytes(), "input 1 (line 2) `fly north`: unknown command `fly`"),
        ("a_look", format!("{header}\n{{\"input\":\"status\"}}\n").into_bytes(), "a recording holds only commands that change the game"),
        (
            "no_longer_plays",
            format!("{header}\n{{\"input\":\"attack enemy:5\"}}\n").into_bytes(),
            "input 1 (line 2) `attack enemy:5`: there is no enemy:5; the recording no longer plays as it was recorded",
        ),
        ("missing", Vec::new(), "cannot read the recording"),
    ];
    let out = dir.join("out.json");
    for (name, bytes, message) in cases {
        let path = dir.join(format!("{name}.rkrec"));
        if name != "missing" {
            std::fs::write(&path, &bytes).expect("written");
        }
        // A save from before is there; a refused replay leaves it as it was.
        std::fs::write(&out, b"the previous save").expect("written");
        let r = play(&["--replay", s(&path), "--save", s(&out)], "");
        assert_eq!(r.code, 2, "{name}: {}", r.out);
        assert!(r.err.starts_with("rustkeep: ") && r.err.contains(s(&path)) && r.err.contains(message), "{name}: {}", r.err);
        assert!(!r.err.contains("panicked"), "{name}: {}", r.err);
        assert_eq!(std::fs::read(&out).expect("still there"), b"the previous save", "{name}");
        assert!(r.out.is_empty(), "{name}: {}", r.out);
    }
}

#[test]
fn broken_and_foreign_saves_are_refused_and_change_nothing() {
    let (dir, rec, save) = recorded_and_saved("spawn core:rat\n");
    let text = std::fs::read_to_string(&save).expect("the save");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("recording", std::fs::read(&rec).expect("the recording"), "not a valid save"),
        ("truncated", text.as_bytes()[..text.len() / 2].to_vec(), "not a valid save"),
        ("binary", vec![0xc3, 0x28, 0xa0], "cannot read"),
        ("foreign", text.replacen("rustkeep-save", "another-game", 1).into_bytes(), "not a rustkeep save (format `another-game`)"),
        ("future", text.replacen("\"version\": 3,", "\"version\": 99,", 1).into_bytes(), "save version 99 is not supported"),
    ];
    for (name, bytes, message) in cases {
        let path = dir.join(format!("{name}.json"));
        assert_ne!(bytes, text.as_bytes(), "{name}: a broken save");
        std::fs::write(&path, &bytes).expect("written");
        // At start: refused with exit code 2.
        let r = play(&["--line", "--load", s(&path)], "status\nquit\n");
        assert_eq!(r.code, 2, "{name}: {}", r.out);
        assert!(r.err.contains(message) && r.err.contains(s(&path)), "{name}: {}", r.err);
        // During a game: an error, and the game goes on as it was; the file is untouched.
        let r = play(&["--line", "--seed", "2"], &format!("trace off\nspawn core:rat\nstatus\nload {}\nstatus\nquit\n", path.display()));
        assert_eq!(r.code, 0, "{name}: {}", r.err);
        let (before, after) = r.out.split_once("\nerror: ").unwrap_or_else(|| panic!("{name}: an error in {}", r.out));
        assert!(after.contains(message), "{name}: {after}");
        // The console ends with the run's summary.
        let after = after.split_once("\nrun in progress: ").map_or(after, |(a, _)| a);
        let status = |t: &str| t[t.rfind("health ").expect("a status")..].lines().take(4).collect::<Vec<_>>().join("\n");
        assert_eq!(status(before), status(after), "{name}: the game is unchanged");
        assert_eq!(std::fs::read(&path).expect("still there"), bytes, "{name}: the file is untouched");
    }
}
