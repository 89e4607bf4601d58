//! Crash-safe saves in `rustkeep play` (docs/engine.md, "Saves": written atomically, a temporary
//! file, then a rename): a process that dies mid-save leaves the previous save intact, leftovers of such a
//! crash do not disturb later saves, and a corrupt or truncated save is refused with a clear error
//! and changes nothing — neither the running game nor the file.

use rustkeep_testutil::TempDir;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

struct Run {
    code: Option<i32>,
    out: String,
    err: String,
}

/// Runs `rustkeep play` with `script` on stdin, in an empty folder (no mod there: the bundled core
/// alone); `crash` sets the save's crash hook.
fn play(args: &[&str], script: &str, crash: Option<&str>) -> Run {
    // An empty folder to run in, removed only once the game is over.
    let empty = TempDir::new("play-saves-cwd");
    let mut c = Command::new(env!("CARGO_BIN_EXE_rustkeep"));
    c.current_dir(&empty).arg("play").args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    match crash {
        Some(mode) => c.env("RUSTKEEP_TEST_CRASH_BEFORE_RENAME", mode),
        None => c.env_remove("RUSTKEEP_TEST_CRASH_BEFORE_RENAME"),
    };
    let mut child = c.spawn().expect("spawn play");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("write script");
    let out = child.wait_with_output().expect("play output");
    Run { code: out.status.code(), out: String::from_utf8_lossy(&out.stdout).into_owned(), err: String::from_utf8_lossy(&out.stderr).into_owned() }
}

/// The two `status` blocks printed around the `error:` line of a failed load.
fn status_around_error(out: &str) -> (&str, &str) {
    let first = &out[out.find("health ").unwrap_or_else(|| panic!("a status in {out}"))..];
    let (before, after) = first.split_once("\nerror: ").unwrap_or_else(|| panic!("an error line in {out}"));
    let after = &after[after.find('\n').map(|n| n + 1).unwrap_or(after.len())..];
    // The console ends with the run's summary.
    let after = after.split_once("\nrun in progress: ").map_or(after, |(a, _)| a);
    (before.trim(), after.trim())
}

/// A game with a fight going on, saved to `save`: two rats spawned beside the player (enemy:5
/// and enemy:6, after the five residents of the first floor with seed 3), one of them attacked.
fn first_save(save: &Path) {
    let r = play(&["--seed", "3", "--option", "core:warrior"], &format!("spawn core:rat 2\nattack enemy:5\nsave {}\nquit\n", save.display()), None);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(r.out.contains("saved to"), "{}", r.out);
}

#[test]
fn a_crash_between_writing_and_renaming_leaves_the_previous_save_intact() {
    for mode in ["after-write", "partial"] {
        let dir = TempDir::new(&format!("crash-{mode}"));
        let save = dir.join("game.json");
        first_save(&save);
        let before = std::fs::read(&save).expect("the first save exists");

        // Load it, play on, save over it — and die before the rename.
        let r = play(&["--load", save.to_str().expect("UTF-8 path")], &format!("attack enemy:6\nsave {}\nquit\n", save.display()), Some(mode));
        assert_ne!(r.code, Some(0), "the hook killed the process: {}", r.out);
        assert!(!r.out.contains("saved to"), "{}", r.out);

        // The save is byte-for-byte the old one, and a temporary file is what the crash left.
        assert_eq!(std::fs::read(&save).expect("the save is still there"), before, "{mode}");
        let leftovers: Vec<PathBuf> =
            std::fs::read_dir(&dir).expect("readable").flatten().map(|e| e.path()).filter(|p| p.file_name() != save.file_name()).collect();
        assert_eq!(leftovers.len(), 1, "{leftovers:?}");
        let name = leftovers[0].file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        assert!(name.starts_with(".game.json.") && name.ends_with(".tmp"), "{leftovers:?}");

        // It loads, and the game goes on from before the crashed turn.
        let r = play(&["--load", save.to_str().expect("UTF-8 path")], "status\nquit\n", None);
        assert_eq!(r.code, Some(0), "{}", r.err);
        assert!(r.out.contains("enemy:6"), "both rats of the first save are there again: {}", r.out);

        // The leftover does not stop the next save.
        let r = play(&["--load", save.to_str().expect("UTF-8 path")], &format!("attack enemy:6\nsave {}\nquit\n", save.display()), None);
        assert_eq!(r.code, Some(0), "{}", r.err);
        assert_ne!(std::fs::read(&save).expect("saved"), before, "the new save replaced the old one");
    }
}

#[test]
fn a_stale_temporary_file_with_the_same_name_is_overwritten_not_read() {
    let dir = TempDir::new("stale");
    let save = dir.join("game.json");
    first_save(&save);
    // Leftovers of earlier crashes, named as the temporary files of saves are.
    for tag in ["a1B2c3", "zzzzzz", "000000"] {
        std::fs::write(dir.join(format!(".game.json.{tag}.tmp")), "{ half a save").expect("writable");
    }
    let r = play(&["--load", save.to_str().expect("UTF-8 path")], &format!("status\nsave {}\nload {}\nquit\n", save.display(), save.display()), None);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert!(!r.out.contains("error:"), "{}", r.out);
}

#[test]
fn corrupt_or_truncated_saves_are_refused_clearly_and_change_nothing() {
    let dir = TempDir::new("corrupt");
    let save = dir.join("game.json");
    first_save(&save);
    let good = std::fs::read(&save).expect("the save exists");
    let text = String::from_utf8(good.clone()).expect("a save is UTF-8");

    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated", good[..good.len() / 2].to_vec(), "not a valid save"),
        ("one byte short", good[..good.len() - 3].to_vec(), "not a valid save"),
        ("empty", Vec::new(), "not a valid save"),
        ("binary", vec![0xFF, 0x00, 0xC3, 0x28], "cannot read"),
        ("other format", text.replacen("\"rustkeep-save\"", "\"other-save\"", 1).into_bytes(), "not a rustkeep save"),
        ("future version", text.replacen("\"version\": 3", "\"version\": 99", 1).into_bytes(), "version 99 is not supported"),
        ("bad generator", text.replacen("\"chacha8:", "\"chacha8:zz", 1).into_bytes(), "generator state"),
        ("negative health", text.replacen("\"health\": ", "\"health\": -", 1).into_bytes(), "not a valid save"),
    ];
    for (what, bytes, expect) in cases {
        let bad = dir.join(format!("{}.json", what.replace(' ', "_")));
        std::fs::write(&bad, &bytes).expect("writable");

        // At start-up: exit code 2 and a message naming the file and the problem.
        let r = play(&["--load", bad.to_str().expect("UTF-8 path")], "status\nquit\n", None);
        assert_eq!(r.code, Some(2), "{what}: {}", r.out);
        assert!(r.err.contains(bad.to_str().expect("UTF-8 path")) && r.err.contains(expect), "{what}: {}", r.err);

        // Inside a running game: an error line, and the game is as it was.
        let script = format!("spawn core:rat\nstatus\nload {}\nstatus\nquit\n", bad.display());
        let r = play(&["--seed", "9"], &script, None);
        assert_eq!(r.code, Some(0), "{what}: {}", r.err);
        assert!(r.out.contains("error: ") && r.out.contains(expect), "{what}: {}", r.out);
        let (before, after) = status_around_error(&r.out);
        assert!(before.contains("enemy:5"), "{what}: {}", r.out);
        assert_eq!(before, after, "{what}: the failed load left the game as it was");

        // Neither refusal touched the file.
        assert_eq!(std::fs::read(&bad).expect("still there"), bytes, "{what}");
    }
    // The good save was never touched either.
    assert_eq!(std::fs::read(&save).expect("still there"), good);
}

#[test]
fn a_save_that_cannot_be_written_says_why_and_leaves_nothing_behind() {
    let dir = TempDir::new("unwritable");
    let missing = dir.join("no/such/folder/game.json");
    let folder = dir.join("a_folder");
    std::fs::create_dir_all(&folder).expect("writable");
    let r = play(&[], &format!("save {}\nsave {}\nstatus\nquit\n", missing.display(), folder.display()), None);
    assert_eq!(r.code, Some(0), "{}", r.err);
    assert_eq!(r.out.matches("error: cannot write").count(), 2, "{}", r.out);
    assert!(r.out.contains("health "), "the game goes on: {}", r.out);
    // No temporary file was left next to the folder.
    let names: Vec<String> = std::fs::read_dir(&dir).expect("readable").flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, vec!["a_folder".to_string()]);
}
