//! `--watch` through the real binary (docs/testing.md, "Watching"): `rustkeep test --watch` on a
//! small mod with two scenarios reruns after an edit, and the rerun's output appears within
//! 500 ms of the write (the contract; the debounce is 100 ms of it); it reruns only the scenarios
//! a change touches; a syntax error is reported and watching goes on; `rustkeep check --watch`
//! reruns the check after an edit.
//!
//! The time until the first run is generous (a loaded machine, a cold binary); the 500 ms are
//! measured from the end of the write to the arrival of the line on the test's reader thread.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use common::rustkeep_in;
use rustkeep_testutil::{copy_dir, repo_path, TempDir};

/// The contract: a saved change's rerun shows within this.
const RERUN: Duration = Duration::from_millis(500);
/// How long the first run (and anything not measured) may take.
const PATIENCE: Duration = Duration::from_secs(60);

/// The watched mod, copied for each test (`tests/watched/`): a content pack with a coin, a
/// scenario that loads it (`scenarios/rats.toml`, which expects one coin) and one on the core
/// alone (`scenarios/core_only.toml`).
const FIXTURE: &str = "crates/rustkeep-cli/tests/watched";

/// A file of the watched mod as the repository holds it.
fn fixture(rel: &str) -> String {
    std::fs::read_to_string(repo_path(FIXTURE).join(rel)).expect("the watched mod's file")
}

/// The mod's scenario, expecting `count` coins.
fn rats(count: u32) -> String {
    fixture("scenarios/rats.toml").replace("count = 1\n", &format!("count = {count}\n"))
}

/// A fresh copy of the mod in the test's own temporary folder.
fn mod_dir(name: &str) -> (TempDir, PathBuf) {
    let tmp = TempDir::new(&format!("watch-{name}"));
    let dir = tmp.join("watched");
    copy_dir(&repo_path(FIXTURE), &dir);
    (tmp, dir)
}

/// A `rustkeep … --watch` running in a folder, its standard output read line by line, each
/// line with the time it arrived. Killed when dropped.
struct Watching {
    child: Child,
    lines: Receiver<(Instant, String)>,
    /// Everything read so far, for the failure messages.
    seen: Vec<String>,
}

impl Watching {
    fn start(dir: &Path, args: &[&str]) -> Watching {
        let mut child = rustkeep_in(dir).args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().expect("rustkeep starts");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send((Instant::now(), line)).is_err() {
                    return;
                }
            }
        });
        Watching { child, lines, seen: Vec::new() }
    }

    /// Reads lines until one satisfies `wanted`, for at most `within`; the lines read on the
    /// way (that one included) and when that one arrived.
    fn until(&mut self, what: &str, within: Duration, wanted: impl Fn(&str) -> bool) -> (Instant, Vec<String>) {
        let deadline = Instant::now() + within;
        let mut read = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((at, line)) => {
                    self.seen.push(line.clone());
                    read.push(line.clone());
                    if wanted(&line) {
                        return (at, read);
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no {what} within {within:?}; the output so far:\n{}", self.seen.join("\n")),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("rustkeep ended ({:?}) before {what}; its output:\n{}", self.child.try_wait(), self.seen.join("\n"))
                }
            }
        }
    }

    /// Reads up to the status line that ends a run; the lines of the run.
    fn run_end(&mut self, within: Duration) -> Vec<String> {
        self.until("the end of a run", within, |l| l.contains(" --watch] exit ")).1
    }

    fn alive(&mut self) -> bool {
        self.child.try_wait().expect("the child's status").is_none()
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Writes `text` to `path` and returns when the write ended.
fn write(path: &Path, text: &str) -> Instant {
    std::fs::write(path, text).unwrap();
    Instant::now()
}

fn is_summary(line: &str) -> bool {
    line.contains(" passed, ") && line.contains(" failed (")
}

#[test]
fn test_watch_reruns_what_an_edit_touches_within_500_ms_and_survives_a_syntax_error() {
    let (_tmp, dir) = mod_dir("test");
    let mut w = Watching::start(&dir, &["test", "--watch"]);
    let (_, first) = w.until("the first run's summary", PATIENCE, is_summary);
    assert!(first[0].starts_with("[rustkeep test --watch] first run ("), "{first:?}");
    assert_eq!(first.last().map(String::as_str), Some("3 passed, 0 failed (2 scenarios)"), "{first:?}");
    w.run_end(PATIENCE);
    let mut latencies = Vec::new();

    // An expectation made to fail: the failure line within 500 ms of the write.
    let written = write(&dir.join("scenarios/rats.toml"), &rats(2));
    let (at, lines) = w.until("the failure of the edited expectation", PATIENCE, |l| l.starts_with("scenarios/rats.toml:") && l.contains("expected 2"));
    latencies.push(at - written);
    assert!(lines[0].starts_with("[rustkeep test --watch] change: scenarios/rats.toml ("), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("rerunning 1 of 2 scenarios: scenarios/rats.toml")), "only the edited scenario reruns: {lines:?}");
    let end = w.run_end(PATIENCE);
    assert!(end.iter().any(|l| l == "2 passed, 1 failed (2 scenarios)"), "the untouched scenario's results stand: {end:?}");
    assert!(end.last().is_some_and(|l| l.contains("exit 1: an expectation failed")), "{end:?}");

    // A syntax error: reported, and watching goes on.
    let broken = rats(2).replace("has_item = \"watched:lucky_coin\"", "has_item = \"watched:lucky_coin");
    let written = write(&dir.join("scenarios/rats.toml"), &broken);
    let (at, lines) = w.until("the syntax error", PATIENCE, |l| l.contains("[toml-syntax]"));
    latencies.push(at - written);
    assert!(lines.iter().any(|l| l.starts_with("scenarios/rats.toml: not run")), "{lines:?}");
    let end = w.run_end(PATIENCE);
    assert!(end.last().is_some_and(|l| l.contains("exit 2:")), "{end:?}");
    std::thread::sleep(Duration::from_millis(300));
    assert!(w.alive(), "a syntax error does not end watching");

    // Fixed: the rerun passes.
    let written = write(&dir.join("scenarios/rats.toml"), &rats(1));
    let (at, _) = w.until("the summary after the fix", PATIENCE, is_summary);
    latencies.push(at - written);
    assert_eq!(w.seen.last().map(String::as_str), Some("3 passed, 0 failed (2 scenarios)"));
    w.run_end(PATIENCE);

    // The other scenario changes: it alone reruns (a scenario beside another is no data of it).
    let written = write(&dir.join("scenarios/core_only.toml"), &format!("# edited\n{}", fixture("scenarios/core_only.toml")));
    let (at, lines) = w.until("the summary after the other scenario's edit", PATIENCE, is_summary);
    latencies.push(at - written);
    assert!(lines.iter().any(|l| l == "rerunning 1 of 2 scenarios: scenarios/core_only.toml (the others' results stand)"), "{lines:?}");
    w.run_end(PATIENCE);

    // The mod's data changes: the scenario that loads the mod reruns, the core-only one does not.
    let written = write(&dir.join("items.toml"), &fixture("items.toml").replace("price = 5", "price = 6"));
    let (at, lines) = w.until("the summary after a data change", PATIENCE, is_summary);
    latencies.push(at - written);
    assert!(lines[0].starts_with("[rustkeep test --watch] change: items.toml ("), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("rerunning 1 of 2 scenarios: scenarios/rats.toml")), "{lines:?}");
    w.run_end(PATIENCE);

    // A file no command reads is no change.
    std::fs::write(dir.join("notes.txt"), "not data\n").unwrap();
    std::thread::sleep(Duration::from_millis(400));
    assert!(w.lines.try_recv().is_err(), "a change of a file that is not `.toml` reruns nothing: {:?}", w.seen);
    assert!(w.alive());

    eprintln!("test --watch: from the write to the rerun's line: {latencies:?}");
    for l in &latencies {
        assert!(*l <= RERUN, "a rerun's output took {l:?} after the write (contract: {RERUN:?}); all: {latencies:?}");
    }
    drop(w);
}

#[test]
fn check_watch_reruns_the_check_after_an_edit() {
    let (_tmp, dir) = mod_dir("check");
    let mut w = Watching::start(&dir, &["check", "--watch"]);
    let (_, first) = w.until("the first check's summary", PATIENCE, |l| l.contains(" errors, ") || l.contains(" error, "));
    assert!(first[0].starts_with("[rustkeep check --watch] first run ("), "{first:?}");
    assert_eq!(first.last().map(String::as_str), Some("0 errors, 0 warnings in 4 files of 1 mod (and the core)"), "{first:?}");
    w.run_end(PATIENCE);

    // An error in the data: reported by the rerun, and watching goes on.
    let written = write(&dir.join("items.toml"), &fixture("items.toml").replace("price = 5", "price = \"five\""));
    let (at, lines) = w.until("the rerun's summary", PATIENCE, |l| l.contains(" error, ") || l.contains(" errors, "));
    let latency = at - written;
    assert!(lines[0].starts_with("[rustkeep check --watch] change: items.toml ("), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("error[wrong-type]")), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("1 error, 0 warnings in 4 files of 1 mod (and the core)"));
    let end = w.run_end(PATIENCE);
    assert!(end.last().is_some_and(|l| l.contains("exit 1:")), "{end:?}");
    assert!(w.alive());

    // Fixed again.
    let written = write(&dir.join("items.toml"), &fixture("items.toml"));
    let (at, _) = w.until("the summary after the fix", PATIENCE, |l| l.starts_with("0 errors, 0 warnings"));
    let latencies = [latency, at - written];
    eprintln!("check --watch: from the write to the rerun's summary: {latencies:?}");
    for l in latencies {
        assert!(l <= RERUN, "a rerun's output took {l:?} after the write (contract: {RERUN:?}); all: {latencies:?}");
    }
    drop(w);
}

#[test]
fn watch_refuses_a_format_that_is_not_for_people() {
    let (_tmp, dir) = mod_dir("formats");
    for args in [&["test", "--watch", "--format", "json"][..], &["check", "--watch", "--format", "json-lines"], &["check", "--watch", "--fix"]] {
        let o = rustkeep_in(&dir).args(args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
}
