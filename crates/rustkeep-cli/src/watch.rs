//! `--watch` of `rustkeep check`, `rustkeep test` and `rustkeep simulate` (docs/testing.md,
//! "Watching"): the first run at once, then a rerun after every saved change of a `.toml` file
//! the command reads, until Ctrl-C.
//!
//! - **What is watched**: the folders the command reads, found as the command finds them — the
//!   paths given (or the current folder), and the mods, the workspace and the scenario files
//!   discovery loads from them; for `simulate`, the scenario file and the mods it loads. Each
//!   folder is watched on its own, skipping what discovery skips (hidden folders such as `.git/`,
//!   `target/`, `node_modules/`) and symbolic links; a folder created inside a watched tree is
//!   watched from then on, and the set is read again after every run (a scenario's `mods` may
//!   name a new mod).
//! - **What counts as a change**: a `.toml` file written, created, renamed or removed (an editor's
//!   lock and swap files are not `.toml` files, or start with `.#`), a folder created in a watched
//!   tree once it holds a `.toml` file, and a watched folder removed; a file only opened (each run
//!   opens them all) is none. Changes are debounced: a burst of them (an editor's save is several
//!   events, a `git checkout` many) is one rerun, [`DEBOUNCE`] after the last (at most
//!   [`MAX_WAIT`] after the first).
//! - **What reruns**: `check` and `simulate` rerun whole, as a child process of this binary with
//!   the same arguments less `--watch`, so that the output is exactly the command's (colours
//!   included), and neither a panic nor the memory a check leaves to the operating system at its
//!   end stays behind in the watcher. A check is fast enough to rerun whole (the language server
//!   is the incremental one); a `simulate` reruns only on a change of its scenario or of a mod it
//!   loads. `test` reruns in this process only the scenarios a change touches — one whose own file
//!   changed, one that loads a mod or a workspace the changed file lies in (another scenario file
//!   there is no data of it), a new one — and prints
//!   the whole report: the others' results stand, since a scenario's run depends on nothing else.
//! - **Errors never end watching**: data errors, a syntax error, a scenario that does not
//!   validate, a path that does not exist, a run that panics — all are printed with the run's
//!   exit status, and watching goes on. Only Ctrl-C ends it (the default action of SIGINT: the
//!   shell sees status 130). Only `--format human` goes with `--watch` (`check` may still write
//!   other formats to files); a watch that cannot start (no file events) is exit 2.
//!
//! Before each run the screen is cleared when standard output is a terminal, and a header names
//! the change and the time (UTC): `[rustkeep test --watch] change: scenarios/rats.toml
//! (12:01:02 UTC)`; after it a line gives the exit status in words.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::{IsTerminal, Write};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use rayon::prelude::*;
use rustkeep_data::files::{skipped_folder, Walk, MAX_DEPTH};
use rustkeep_data::project::{discover, display_path, load_scenario, normalize, Overlay, Project, WhenNothing};
use rustkeep_data::vocab::is_scenario_path;

use crate::test::{Ran, TestFormat};
use crate::{check, simulate, test, Format};

/// How long the files must stay quiet before a rerun.
const DEBOUNCE: Duration = Duration::from_millis(100);

/// The longest a rerun waits for changes to settle (a tool that writes without pause).
const MAX_WAIT: Duration = Duration::from_secs(1);

/// How many changed paths a header names before it counts the rest.
const NAMED: usize = 3;

/// `rustkeep check --watch`.
pub fn check(args: check::Args) -> Result<u8, String> {
    let to_stdout = |o: &&check::Output| o.path.is_none() && args.output_file.is_none();
    if let Some(o) = args.format.iter().filter(to_stdout).find(|o| o.format != Format::Human) {
        return Err(human_only("check", o.format));
    }
    let cwd = current_dir()?;
    let mut paths = args.paths.clone();
    paths.extend(args.common.mods.iter().cloned());
    // The reports each run writes are no change (one named `*.toml` would start the next run).
    let written: BTreeSet<PathBuf> = args.format.iter().filter_map(|o| o.path.as_ref()).chain(&args.output_file).map(|p| normalize(&cwd.join(p))).collect();
    let reads = || {
        let mut deps = Deps::default();
        deps.add_given(&or_cwd(&paths), &cwd);
        if let Ok(project) = discover(&paths, &cwd, WhenNothing::Report) {
            deps.add_project(&project);
        }
        deps
    };
    rerun_on_change(&cwd, "check", reads, check_words, |p| written.contains(p))
}

/// `rustkeep simulate --watch`.
pub fn simulate(args: simulate::Args) -> Result<u8, String> {
    if args.format != simulate::TraceFormat::Human {
        return Err(human_only("simulate", args.format));
    }
    let cwd = current_dir()?;
    let reads = || {
        let mut deps = scenario_deps(&args.scenario, &args.mods, &cwd);
        deps.add_given(std::slice::from_ref(&args.scenario), &cwd);
        deps.add_given(&args.mods, &cwd);
        deps
    };
    rerun_on_change(&cwd, "simulate", reads, simulate_words, |_| false)
}

/// The loop of `check --watch` and `simulate --watch`: the whole command again (this binary
/// without `--watch`) after every change to what `reads` says it reads, files `ignored` names
/// aside (the reports a run writes).
fn rerun_on_change(
    cwd: &Path,
    command: &'static str,
    reads: impl Fn() -> Deps,
    words: fn(Option<i32>) -> &'static str,
    ignored: impl Fn(&Path) -> bool,
) -> Result<u8, String> {
    let mut w = Watch::start(cwd, command)?;
    let mut deps = reads();
    w.watch(&deps);
    let mut what = "first run".to_string();
    loop {
        w.begin(&what);
        let code = rerun_self()?;
        w.end(code, words(code));
        deps = reads();
        w.watch(&deps);
        let changed = w.next_change(|p| deps.touches(p) && !ignored(p))?;
        what = w.describe(&changed);
    }
}

/// `rustkeep test --watch`.
pub fn test(args: test::Args) -> Result<u8, String> {
    if args.format != TestFormat::Human {
        return Err(human_only("test", args.format));
    }
    let cwd = current_dir()?;
    let mut w = Watch::start(&cwd, "test")?;
    let mut tests = Tests { args, cwd, found: BTreeMap::new(), deps: HashMap::new(), discovery: Deps::default() };
    tests.discovery = tests.discovery_deps();
    w.watch(&tests.discovery);
    let mut changed: Option<Vec<PathBuf>> = None;
    loop {
        tests.run(&w, changed.as_deref());
        tests.discovery = tests.discovery_deps();
        w.watch(&tests.discovery);
        for d in tests.deps.values() {
            w.watch(d);
        }
        let next = w.next_change(|p| tests.discovery.touches(p) || tests.deps.values().any(|d| d.touches(p)))?;
        changed = Some(next);
    }
}

/// The state of `test --watch`: the last result of each scenario and what each one reads.
struct Tests {
    args: test::Args,
    cwd: PathBuf,
    /// By the scenario's path on disk: its last run.
    found: BTreeMap<PathBuf, Ran>,
    /// By the scenario's path on disk: what its run read.
    deps: HashMap<PathBuf, Deps>,
    /// What finding the scenarios reads: a change there may add or remove one.
    discovery: Deps,
}

impl Tests {
    fn discovery_deps(&self) -> Deps {
        let mut deps = Deps::default();
        deps.add_given(&or_cwd(&self.args.paths), &self.cwd);
        deps.add_given(&self.args.mods, &self.cwd);
        if let Ok(project) = discover(&self.args.paths, &self.cwd, WhenNothing::Report) {
            deps.add_project(&project);
        }
        deps
    }

    /// One run: every scenario the first time (`changed` is `None`), else those the change
    /// touches and the new ones; then the report of all of them.
    fn run(&mut self, w: &Watch, changed: Option<&[PathBuf]>) {
        w.begin(&changed.map_or_else(|| "first run".to_string(), |c| w.describe(c)));
        let found = match test::scenarios_with_expectations(&self.args.paths) {
            Ok(mut found) => {
                if let Some(f) = &self.args.filter {
                    found.retain(|(shown, _)| shown.contains(f.as_str()));
                }
                found
            }
            Err(e) => {
                say!("rustkeep: {e}");
                w.end(Some(2), test_words(2));
                return;
            }
        };
        let touched = |disk: &PathBuf| match changed {
            None => true,
            Some(c) => !self.found.contains_key(disk) || c.iter().any(|p| p == disk || self.deps.get(disk).is_some_and(|d| d.touches(p))),
        };
        let to_run: Vec<&(String, PathBuf)> = found.iter().filter(|(_, disk)| touched(disk)).collect();
        if changed.is_some() {
            let _ = writeln!(crate::out::stdout(), "{}", rerun_note(&to_run, found.len()));
        }
        let mods = &self.args.mods;
        let cwd = &self.cwd;
        let ran: Vec<(PathBuf, Ran, Deps)> = to_run
            .par_iter()
            .map(|(shown, disk)| {
                // A panic is a bug of the engine, not the end of watching: it is reported as the
                // scenario's refusal (the panic message itself is on standard error).
                let ran = std::panic::catch_unwind(AssertUnwindSafe(|| test::run_one(shown, disk, mods))).unwrap_or_else(|_| Ran {
                    file: shown.clone(),
                    results: Vec::new(),
                    error: Some("the run panicked: a bug of rustkeep; please report it".into()),
                });
                (disk.clone(), ran, scenario_deps(disk, mods, cwd))
            })
            .collect();
        let mut old = std::mem::take(&mut self.found);
        for (disk, ran, deps) in ran {
            old.insert(disk.clone(), ran);
            self.deps.insert(disk, deps);
        }
        self.deps.retain(|disk, _| found.iter().any(|(_, d)| d == disk));
        let mut report: Vec<Ran> = Vec::with_capacity(found.len());
        let mut disks = Vec::with_capacity(found.len());
        for (_, disk) in &found {
            if let Some(ran) = old.remove(disk) {
                report.push(ran);
                disks.push(disk.clone());
            }
        }
        let _ = crate::out::stdout().write_all(test::human(&report).as_bytes());
        let code = test::exit_code(&report);
        w.end(Some(code.into()), test_words(code.into()));
        self.found = disks.into_iter().zip(report).collect();
    }
}

/// `rerunning 1 of 3 scenarios: scenarios/rats.toml (the others' results stand)`.
fn rerun_note(to_run: &[&(String, PathBuf)], all: usize) -> String {
    if to_run.is_empty() {
        return format!("no scenario reads the change: nothing reran ({all} {})", plural(all, "scenario", "scenarios"));
    }
    let names: Vec<&str> = to_run.iter().take(NAMED).map(|(shown, _)| shown.as_str()).collect();
    let more = if to_run.len() > NAMED { format!(" and {} more", to_run.len() - NAMED) } else { String::new() };
    let rest = if to_run.len() < all { " (the others' results stand)" } else { "" };
    format!("rerunning {} of {all} {}: {}{more}{rest}", to_run.len(), plural(all, "scenario", "scenarios"), names.join(", "))
}

/// What a command reads, as far as a change is concerned: files, and folders every file below
/// which counts (a mod, a workspace, a folder given).
#[derive(Default)]
struct Deps {
    files: BTreeSet<PathBuf>,
    trees: BTreeSet<PathBuf>,
    /// The scenario of a scenario's run: the other scenario files beside it in its mods (they
    /// are no data) do not touch it.
    scenario: Option<PathBuf>,
}

impl Deps {
    /// The files a project read from disk, its mods' folders and its root (a workspace, or the
    /// folder its mods were found below: a new mod there joins the load).
    fn add_project(&mut self, project: &Project) {
        self.files.extend(project.files.iter().filter_map(|f| f.disk_path.as_deref()).map(normalize));
        self.trees.extend(project.mods.iter().filter_map(|m| m.root.as_deref()).map(normalize));
        self.trees.extend(project.root.as_deref().map(normalize));
    }

    /// The paths a command was given: a folder as a tree, a file (or what does not exist yet) as
    /// itself.
    fn add_given(&mut self, paths: &[PathBuf], cwd: &Path) {
        for p in paths {
            let abs = normalize(&cwd.join(p));
            if abs.is_dir() {
                self.trees.insert(abs);
            } else {
                self.files.insert(abs);
            }
        }
    }

    fn touches(&self, path: &Path) -> bool {
        if self.scenario.as_deref().is_some_and(|own| own != path && is_scenario_path(path)) {
            return false;
        }
        self.files.contains(path) || self.trees.iter().any(|t| path.starts_with(t))
    }
}

/// What one scenario's run reads: the scenario file and the project of its run (its `mods`
/// and `--mods`), as `simulate` loads it.
fn scenario_deps(scenario: &Path, mods: &[PathBuf], cwd: &Path) -> Deps {
    let own = normalize(&cwd.join(scenario));
    let mut deps = Deps { scenario: Some(own.clone()), ..Deps::default() };
    deps.files.insert(own);
    deps.add_project(&load_scenario(scenario, mods, cwd, &Overlay::new()));
    deps
}

/// The file watcher and the folders it watches.
///
/// Debounced here rather than by a debouncer crate: `notify-debouncer-mini` drops the kind of an
/// event, and the file opens of each run (inotify reports them) would then start the next run,
/// without end; waiting for a pause in the events that count is a few lines.
struct Watch {
    watcher: RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
    /// Every folder watched (each on its own), and whether the folders created below it join.
    watched: BTreeMap<PathBuf, bool>,
    cwd: PathBuf,
    /// The command, for the header: `check`.
    command: &'static str,
}

impl Watch {
    fn start(cwd: &Path, command: &'static str) -> Result<Watch, String> {
        let (tx, events) = channel();
        let watcher = notify::recommended_watcher(tx).map_err(|e| format!("cannot watch files: {e}"))?;
        Ok(Watch { watcher, events, watched: BTreeMap::new(), cwd: cwd.to_path_buf(), command })
    }

    /// Watches what `deps` names: each tree with the folders below it, the folder of each file.
    fn watch(&mut self, deps: &Deps) {
        for t in &deps.trees {
            self.watch_tree(t, true);
        }
        for f in &deps.files {
            if let Some(dir) = f.parent() {
                self.watch_tree(dir, false);
            }
        }
    }

    /// Watches `dir` and, when `below`, the folders below it as discovery walks them
    /// ([`Walk`]: no link entered, hidden folders and build output skipped, [`MAX_DEPTH`] deep).
    fn watch_tree(&mut self, dir: &Path, below: bool) {
        if !self.watch_dir(dir, below) || !below {
            return;
        }
        let mut walk = Walk::new(dir);
        while let Some(e) = walk.next() {
            let Ok(e) = e else { continue };
            if e.depth() == 0 || !e.file_type().is_dir() || e.depth() > MAX_DEPTH {
                continue;
            }
            if !self.watch_dir(e.path(), true) {
                walk.skip_current_dir();
            }
        }
    }

    /// Watches one folder (`below`: the folders created in it join); `false` when it is watched
    /// with its tree already or cannot be watched, so that what is below it is passed over.
    fn watch_dir(&mut self, dir: &Path, below: bool) -> bool {
        match self.watched.get(dir) {
            Some(true) => return false,
            Some(false) if !below => return false,
            Some(false) => {}
            None => {
                if !dir.is_dir() {
                    return false;
                }
                if let Err(e) = self.watcher.watch(dir, RecursiveMode::NonRecursive) {
                    say!("rustkeep: cannot watch {}: {e}", display_path(dir, &self.cwd));
                    return false;
                }
            }
        }
        self.watched.insert(dir.to_path_buf(), below);
        true
    }

    /// Waits for the next change that `counts`, then until the changes pause for [`DEBOUNCE`]
    /// (at most [`MAX_WAIT`]), and returns the changed paths. A file only read (opened, as each
    /// run opens them) is no change, and a file the command does not read is passed over.
    fn next_change(&mut self, counts: impl Fn(&Path) -> bool) -> Result<Vec<PathBuf>, String> {
        let mut changed: BTreeSet<PathBuf> = BTreeSet::new();
        // Once a change came: when the changes count as settled, and the latest that may be.
        let mut settled: Option<(Instant, Instant)> = None;
        loop {
            let event = match settled {
                None => self.events.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some((quiet, latest)) => match quiet.min(latest).checked_duration_since(Instant::now()) {
                    Some(wait) if !wait.is_zero() => self.events.recv_timeout(wait),
                    _ => Err(RecvTimeoutError::Timeout),
                },
            };
            let event = match event {
                Ok(Ok(e)) => e,
                Ok(Err(e)) => {
                    say!("rustkeep: watching files: {e}");
                    continue;
                }
                Err(RecvTimeoutError::Timeout) => {
                    // A new folder is a change once it holds a `.toml` file (it may have been
                    // filled before its own watch began).
                    changed.retain(|p| !p.is_dir() || holds_toml(p));
                    if !changed.is_empty() {
                        return Ok(std::mem::take(&mut changed).into_iter().collect());
                    }
                    settled = None;
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return Err("the file watcher stopped".into()),
            };
            if matches!(event.kind, EventKind::Access(_)) {
                continue;
            }
            let mut these = BTreeSet::new();
            for path in event.paths {
                self.note(normalize(&path), &mut these);
            }
            these.retain(|p| counts(p));
            if !these.is_empty() {
                let now = Instant::now();
                settled = Some((now + DEBOUNCE, settled.map_or(now + MAX_WAIT, |(_, latest)| latest)));
                changed.extend(these);
            }
        }
    }

    /// Notes one changed path: a `.toml` file; a folder created in a watched tree (watched from
    /// now on) or a watched folder removed.
    fn note(&mut self, path: PathBuf, changed: &mut BTreeSet<PathBuf>) {
        if path.is_dir() {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let in_tree = path.parent().is_some_and(|p| self.watched.get(p) == Some(&true));
            if in_tree && !self.watched.contains_key(&path) && !skipped_folder(&name) {
                self.watch_tree(&path, true);
                changed.insert(path);
            }
        } else if self.watched.contains_key(&path) {
            self.watched.retain(|d, _| !d.starts_with(&path));
            changed.insert(path);
        } else if is_toml(&path) {
            changed.insert(path);
        }
    }

    /// `change: a.toml` or `changes: a.toml, b.toml and 3 more`.
    fn describe(&self, changed: &[PathBuf]) -> String {
        let names: Vec<String> = changed.iter().take(NAMED).map(|p| display_path(p, &self.cwd)).collect();
        let more = if changed.len() > NAMED { format!(" and {} more", changed.len() - NAMED) } else { String::new() };
        format!("{}: {}{more}", plural(changed.len(), "change", "changes"), names.join(", "))
    }

    /// Clears the screen (at a terminal) and prints the header of a run.
    fn begin(&self, what: &str) {
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        if stdout.is_terminal() {
            let _ = out.write_all(b"\x1b[2J\x1b[H");
        }
        let _ = writeln!(out, "[rustkeep {} --watch] {what} ({})", self.command, clock());
        let _ = out.flush();
    }

    /// The run's exit status in words, and that watching goes on.
    fn end(&self, code: Option<i32>, words: &str) {
        let status = code.map_or_else(|| "no exit code".to_string(), |c| format!("exit {c}"));
        let mut out = crate::out::stdout();
        let _ = writeln!(out, "[rustkeep {} --watch] {status}: {words}; watching for changes (Ctrl-C ends)", self.command);
        let _ = out.flush();
    }
}

fn is_toml(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    name.ends_with(".toml") && !name.starts_with(".#")
}

/// Whether a folder (a new one) holds a `.toml` file (or a link named so, which discovery lists
/// too), at any depth discovery reads.
fn holds_toml(dir: &Path) -> bool {
    Walk::new(dir).flatten().any(|e| e.depth() > 0 && (e.file_type().is_file() || e.file_type().is_symlink()) && is_toml(e.path()))
}

/// Runs this binary again with the same arguments less `--watch` (the ones before a `--`),
/// its output going where this one's goes; its exit code (`None`: ended by a signal).
fn rerun_self() -> Result<Option<i32>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find the rustkeep binary to rerun: {e}"))?;
    let mut args = Vec::new();
    let mut options = true;
    for a in std::env::args_os().skip(1) {
        options &= a != "--";
        if !(options && a == "--watch") {
            args.push(a);
        }
    }
    let status = Command::new(&exe).args(args).status().map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    Ok(status.code())
}

fn check_words(code: Option<i32>) -> &'static str {
    match code {
        Some(0) => "no errors",
        Some(1) => "the check failed (errors, or warnings with --deny-warnings)",
        Some(2) => "the check could not run (see above)",
        _ => "the check crashed (see above)",
    }
}

fn simulate_words(code: Option<i32>) -> &'static str {
    match code {
        Some(0) => "the scenario ran",
        Some(1) => "an expectation failed",
        Some(2) => "the scenario was not run: it, or the mods it loads, has errors, or it cannot be read",
        _ => "the run crashed (see above)",
    }
}

fn test_words(code: i32) -> &'static str {
    match code {
        0 => "every expectation held",
        1 => "an expectation failed",
        _ => "a scenario was not run (it does not validate) or the paths cannot be read",
    }
}

fn human_only(command: &str, format: impl clap::ValueEnum) -> String {
    let name = format.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
    format!("`{command} --watch` prints for a person and goes only with `--format human`, not `{name}`")
}

/// The paths given, or the current folder when none is: where a command reads from.
fn or_cwd(paths: &[PathBuf]) -> Vec<PathBuf> {
    if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    }
}

fn current_dir() -> Result<PathBuf, String> {
    std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))
}

/// The time of day, `12:01:02 UTC` (the standard library knows no time zone).
fn clock() -> String {
    let s = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()) % 86_400;
    format!("{:02}:{:02}:{:02} UTC", s / 3600, s / 60 % 60, s % 60)
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}
