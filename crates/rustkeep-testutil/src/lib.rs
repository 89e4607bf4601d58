//! Helpers shared by the tests of every crate in the workspace (a dev-dependency only, never
//! part of the product).
//!
//! - [`repo_root`] and [`repo_path`]: where the repository is, for tests that read its files.
//! - [`ensure_file_contents`], [`ensure_folder_contents`] and [`ensure_block_contents`]: the one
//!   rule for committed generated files (JSON schemas, generated docs and generated blocks of
//!   hand-written pages, CLI snapshots, engine goldens). A stale or
//!   missing file fails the test with its first differences and how to regenerate it; with
//!   `UPDATE_EXPECT=1` the test rewrites the file instead and passes. `cargo xtask update` runs
//!   every such test that way.
//! - [`require`] and the probes in [`tools`]: a test that needs an external program (Neovim,
//!   Node, Graphviz, Python packages) says SKIPPED and returns when it is missing, but fails when
//!   `RUSTKEEP_REQUIRE_TOOLS=1` is set (`.ci/run` sets it), so that CI cannot pass a test that
//!   did not run.
//! - [`shared_folder`]: the same for the team's test data beside the repository (the one way a
//!   test reaches outside it; `RUSTKEEP_SHARED_DIR` moves it).
//! - [`TempDir`]: a fresh folder for one test, removed when dropped; every test's temporary
//!   folder.
//! - [`LspClient`] and [`file_uri`]: the one language-server client of the tests (the
//!   `rustkeep lsp` binary over stdio, or a server in the test's process), and the `file://` URI
//!   of a path.
//! - [`modpack`]: a generated multi-mod workspace and random edits of it, for the differential
//!   tests of incremental checking.
//! - [`files_below`]: the files of a tree with one extension, in a stable order.
//! - [`toml_corpus`], [`toml_mutations`] and [`compare_mutations`]: every TOML file of the
//!   repository and of the official suite, and seeded mutations of them (counting those compared),
//!   for the tests of the single-pass readers.
//! - [`PRODUCT_CRATES`] and [`cargo_metadata`]: the workspace's crates as its crate map and its
//!   distribution are checked against.
//! - [`Taplo`]: Taplo's command line, the independent TOML reader and schema checker of the
//!   editor and formatter tests.

#![forbid(unsafe_code)]

mod corpus;
pub mod lsp;
pub mod modpack;
pub mod nvim;
pub mod shared;
mod shell;
mod taplo;
mod temp;
pub mod toml_value;
mod workspace;

pub use corpus::{compare_mutations, toml_corpus, toml_mutations};
pub use lsp::{file_uri, LspClient};
pub use shared::{shared_folder, SHARED_DIR_VAR};
pub use shell::{shell_line, ShellLine};
pub use taplo::Taplo;
pub use temp::TempDir;
pub use workspace::{cargo_metadata, product_code, PRODUCT_CRATES};

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The environment variable that makes the checks of generated files rewrite them instead.
pub const UPDATE_VAR: &str = "UPDATE_EXPECT";

/// The environment variable that makes a missing external tool fail the test that needs it.
pub const REQUIRE_TOOLS_VAR: &str = "RUSTKEEP_REQUIRE_TOOLS";

/// The one command that regenerates every committed generated file.
pub const REGENERATE: &str = "cargo xtask update";

/// The root of the repository (the folder holding the workspace's `Cargo.toml`).
pub fn repo_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        // This crate lives in `crates/rustkeep-testutil`, two folders below the root.
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository root exists")
    })
}

/// A path inside the repository, from a `/`-separated path relative to its root.
pub fn repo_path(rel: &str) -> PathBuf {
    repo_root().join(rel)
}

/// Whether a boolean environment variable is on: set, and neither empty nor `0`.
fn flag(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Whether generated files are to be rewritten (`UPDATE_EXPECT=1`) rather than checked.
pub fn update_requested() -> bool {
    flag(UPDATE_VAR)
}

/// Whether a missing external tool fails the test (`RUSTKEEP_REQUIRE_TOOLS=1`) rather than
/// skipping it.
pub fn tools_required() -> bool {
    flag(REQUIRE_TOOLS_VAR)
}

/// A path as the failure messages show it: relative to the repository root when inside it.
fn shown(path: &Path) -> String {
    let abs = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    match abs.strip_prefix(repo_root()) {
        Ok(rel) => rel.display().to_string(),
        Err(_) => path.display().to_string(),
    }
}

/// The advice every failure about a generated file ends with.
fn how_to_regenerate() -> String {
    format!("Generated files are rewritten by `{REGENERATE}` (or by this test run again with {UPDATE_VAR}=1); review the diff afterwards.")
}

/// Checks one generated file; with `update` writes it instead. `Err` holds the failure message.
fn check_file(path: &Path, expected: &str, update: bool) -> Result<(), String> {
    // A checkout with CRLF line ends holds the same text.
    let committed = std::fs::read_to_string(path).map(|text| text.replace("\r\n", "\n"));
    if committed.as_deref().ok() == Some(expected) {
        return Ok(());
    }
    if update {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(path, expected).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        note(&format!("updated {}", shown(path)));
        return Ok(());
    }
    let what = match committed {
        Ok(old) => format!("is stale:\n{}", diff(&old, expected)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "does not exist.".to_string(),
        Err(e) => format!("cannot be read: {e}."),
    };
    Err(format!("{} {what}", shown(path)))
}

/// Compares the committed generated file `path` with the text it must hold.
///
/// Passes when they are equal. With `UPDATE_EXPECT=1` it (re)writes the file and passes.
/// Otherwise it panics with the first differing lines and how to regenerate the file.
#[track_caller]
pub fn ensure_file_contents(path: &Path, expected: &str) {
    if let Err(message) = check_file(path, expected, update_requested()) {
        panic!("{message}\n{}", how_to_regenerate());
    }
}

/// The markers around a generated block of a hand-written page. `source` says what the block is
/// generated from (`the vocabulary`, `the command-line definition`, `the codes table`); the
/// markers of `rustkeep_data::reference` are these with `the vocabulary`.
pub fn block_markers(source: &str, name: &str) -> (String, String) {
    (format!("<!-- generated from {source}: {name}; regenerate with `{REGENERATE}` -->"), format!("<!-- end of generated: {name} -->"))
}

/// Like [`ensure_file_contents`] for the generated block `name` of the page at `path`: the text
/// between its markers ([`block_markers`]) must be `content`, the rest of the page is the
/// author's. A page without the markers fails, saying where to put them.
#[track_caller]
pub fn ensure_block_contents(path: &Path, source: &str, name: &str, content: &str) {
    let page = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", shown(path))).replace("\r\n", "\n");
    let (begin, end) = block_markers(source, name);
    let spliced = page.find(&begin).map(|at| at + begin.len()).and_then(|from| page[from..].find(&end).map(|len| (from, from + len)));
    let Some((from, to)) = spliced else {
        panic!("{} lacks the generated block `{name}`: put\n{begin}\n{end}\nwhere it belongs", shown(path));
    };
    ensure_file_contents(path, &format!("{}\n{content}{}", &page[..from], &page[to..]));
}

/// Like [`ensure_file_contents`] for a whole folder of generated files: `expected` holds
/// `(file name, text)` pairs, and every file of `dir` whose name ends in `suffix` must be one of
/// them. A file without a source (an orphan) fails the check, and is deleted with
/// `UPDATE_EXPECT=1`; `source` says where each file comes from, for that message.
/// Every problem of the folder is reported at once.
#[track_caller]
pub fn ensure_folder_contents(dir: &Path, suffix: &str, expected: &[(String, String)], source: &str) {
    let problems = folder_problems(dir, suffix, expected, source, update_requested());
    if !problems.is_empty() {
        panic!("{}\n{}", problems.join("\n\n"), how_to_regenerate());
    }
}

/// The work of [`ensure_folder_contents`]: the failure messages, or none.
fn folder_problems(dir: &Path, suffix: &str, expected: &[(String, String)], source: &str, update: bool) -> Vec<String> {
    let mut problems: Vec<String> = expected.iter().filter_map(|(name, text)| check_file(&dir.join(name), text, update).err()).collect();
    let mut present: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.flatten().map(|e| e.path()).collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return vec![format!("cannot list {}: {e}", dir.display())],
    };
    present.sort();
    for path in present {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        if !name.ends_with(suffix) || expected.iter().any(|(n, _)| n == name) {
            continue;
        }
        if update {
            match std::fs::remove_file(&path) {
                Ok(()) => note(&format!("removed {}, which had no source", shown(&path))),
                Err(e) => problems.push(format!("cannot remove {}: {e}", shown(&path))),
            }
        } else {
            problems.push(format!("{} has no source: every file here comes from {source}. Delete it, or add its source.", shown(&path)));
        }
    }
    problems
}

/// Lines shown at most on each side of a difference.
const DIFF_LINES: usize = 12;

/// A short line diff: the region between the common first and last lines, as `-` (committed)
/// and `+` (expected) lines, with two lines of context before it. Enough to see what changed
/// without a diff library; the full picture is `git diff` after regenerating.
pub fn diff(committed: &str, expected: &str) -> String {
    let a: Vec<&str> = committed.lines().collect();
    let b: Vec<&str> = expected.lines().collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..].iter().rev().zip(b[prefix..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (old, new) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    if old.is_empty() && new.is_empty() {
        return "  (the lines are equal; the files differ in their line ends or final newline)".to_string();
    }
    let mut out = format!("  first difference at line {} (- committed, + expected):\n", prefix + 1);
    for line in &a[prefix.saturating_sub(2)..prefix] {
        out.push_str(&format!("    {line}\n"));
    }
    for (sign, lines) in [('-', old), ('+', new)] {
        for line in lines.iter().take(DIFF_LINES) {
            out.push_str(&format!("  {sign} {line}\n"));
        }
        if lines.len() > DIFF_LINES {
            out.push_str(&format!("  {sign} … {} more line(s)\n", lines.len() - DIFF_LINES));
        }
    }
    out
}

/// The folders a walk of the repository never enters: build output, installed packages, git's.
const NOT_WALKED: &[&str] = &["target", "node_modules", ".git"];

/// Every file below `dir` whose name ends in `.EXTENSION`, sorted by path (folders are not
/// entered into `target`, `node_modules` or `.git`); none when `dir` does not exist.
pub fn files_below(dir: &Path, extension: &str) -> Vec<PathBuf> {
    walk_files(dir, NOT_WALKED).into_iter().filter(|p| p.extension().is_some_and(|x| x == extension)).collect()
}

/// The one walk of the tests: every file below `dir` (or `dir` itself, if it is a file), sorted by
/// path, never entering a folder named in `skip` nor following a link to a folder (as
/// `rustkeep_data::files::Walk`); none when `dir` does not exist.
pub fn walk_files(dir: &Path, skip: &[&str]) -> Vec<PathBuf> {
    let walk = walkdir::WalkDir::new(dir).into_iter();
    let entries = walk.filter_entry(|e| e.depth() == 0 || !(e.file_type().is_dir() && skip.iter().any(|n| e.file_name() == *n))).flatten();
    let mut out: Vec<PathBuf> = entries.filter(|e| !e.file_type().is_dir()).map(|e| e.into_path()).collect();
    // `Path` orders by components: a folder's files come right after the folder's name.
    out.sort();
    out
}

/// Copies a folder tree (files and folders only).
pub fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap_or_else(|e| panic!("cannot list {}: {e}", from.display()));
        let target = to.join(entry.path().strip_prefix(from).expect("the walk stays below its root"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap_or_else(|e| panic!("cannot create {}: {e}", target.display()));
        } else {
            std::fs::copy(entry.path(), &target).unwrap_or_else(|e| panic!("cannot copy {}: {e}", entry.path().display()));
        }
    }
}

/// Runs `git` with `args` in `dir` under a fixed author and committer (a test repository needs
/// no user configuration), failing the test with git's message when it fails.
#[track_caller]
pub fn git(dir: &Path, args: &[&str]) {
    let o = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@t")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@t")
        .output()
        .unwrap_or_else(|e| panic!("git {args:?}: {e}"));
    assert!(o.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&o.stderr));
}

/// Writes a line to the real stderr. libtest captures `eprintln!` of passing tests, which hid
/// the skips this crate exists to make visible; a direct write is not captured.
fn note(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// The guard of every test that needs something outside the workspace.
///
/// `what` names the tool, `present` is the answer of its probe, and `install` says how to get
/// it. Returns true when the tool is there. When it is not: with `RUSTKEEP_REQUIRE_TOOLS=1` the
/// test fails with that message; without, a SKIPPED line goes to stderr and the caller returns.
#[must_use = "a test must return when its tool is missing"]
#[track_caller]
pub fn require(what: &str, present: bool, install: &str) -> bool {
    // libtest names each test's thread after the test.
    let test = std::thread::current().name().filter(|n| *n != "main").map(|n| format!("{n}: ")).unwrap_or_default();
    match verdict(&test, what, present, install, tools_required()) {
        Verdict::Present => true,
        Verdict::Skip(message) => {
            note(&message);
            false
        }
        Verdict::Fail(message) => panic!("{message}"),
    }
}

/// What [`require`] does about a tool.
#[derive(Debug, PartialEq)]
enum Verdict {
    Present,
    /// Skip the test, with this note.
    Skip(String),
    /// Fail the test, with this message.
    Fail(String),
}

fn verdict(test: &str, what: &str, present: bool, install: &str, strict: bool) -> Verdict {
    if present {
        Verdict::Present
    } else if strict {
        Verdict::Fail(format!("{test}{what} is missing, and {REQUIRE_TOOLS_VAR}=1 does not allow skipping this test. Install it: {install}"))
    } else {
        Verdict::Skip(format!("SKIPPED {test}{what} is missing (install: {install}); with {REQUIRE_TOOLS_VAR}=1 this is a failure"))
    }
}

/// Probes for the external tools the tests use, each behind [`require`] with its install hint.
pub mod tools {
    use super::*;

    /// Whether `program ARGS` starts and exits with 0 (its output is discarded).
    pub fn runs(program: &str, args: &[&str]) -> bool {
        Command::new(program).args(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
    }

    /// Python 3 itself, for the scripts the tests run.
    #[track_caller]
    pub fn python3() -> bool {
        require("Python 3 (`python3`)", runs("python3", &["--version"]), "apt-get install python3")
    }

    /// Neovim, which the editor test drives headless (0.7 is what Debian ships).
    #[track_caller]
    pub fn nvim() -> bool {
        require("Neovim (`nvim`, 0.7 or newer)", runs("nvim", &["--version"]), "apt-get install neovim")
    }

    /// Graphviz's `dot`, which renders `rustkeep graph` output.
    #[track_caller]
    pub fn graphviz() -> bool {
        require("Graphviz (`dot`)", runs("dot", &["-V"]), "apt-get install graphviz")
    }

    /// Python 3 with the module `module` importable.
    #[track_caller]
    pub fn python_module(module: &str, install: &str) -> bool {
        python3() && require(&format!("python3 with the `{module}` package"), runs("python3", &["-c", &format!("import {module}")]), install)
    }

    /// Python's `jsonschema`, the independent validator of the JSON schemas.
    #[track_caller]
    pub fn jsonschema() -> bool {
        python_module("jsonschema", "apt-get install python3-jsonschema (or python3 -m pip install jsonschema)")
    }

    /// PyYAML, which reads the CI integration files.
    #[track_caller]
    pub fn pyyaml() -> bool {
        python_module("yaml", "apt-get install python3-yaml (or python3 -m pip install pyyaml)")
    }

    /// Node with the packages of the npm project in `dir` installed (`npm ci` there).
    #[track_caller]
    pub fn node_project(dir: &Path, package: &str) -> bool {
        require("Node.js (`node`, 18 or newer)", runs("node", &["--version"]), "apt-get install nodejs npm")
            && require(
                &format!("the npm package `{package}` in {}", shown(dir)),
                dir.join("node_modules").join(package).is_dir(),
                &format!("(cd {} && npm ci)", shown(dir)),
            )
    }

    /// What a Node script printed: its exit status, its standard output and its standard error.
    pub struct NodeRun {
        pub status: std::process::ExitStatus,
        pub stdout: String,
        pub stderr: String,
    }

    /// Runs the script `script` of the npm project in `dir` (its folder the current one) with
    /// `args`; [`node_project`] has said that Node and the project's packages are there.
    #[track_caller]
    pub fn node<S: AsRef<std::ffi::OsStr>>(dir: &Path, script: &str, args: &[S]) -> NodeRun {
        let out = std::process::Command::new("node").arg(dir.join(script)).args(args).current_dir(dir).output().expect("node runs");
        NodeRun { status: out.status, stdout: String::from_utf8_lossy(&out.stdout).into(), stderr: String::from_utf8_lossy(&out.stderr).into() }
    }

    /// The team's test data is reached through [`crate::shared`] only; it is listed here with
    /// the other things a test may need.
    pub use crate::shared::shared_folder;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_shows_the_changed_region_with_context() {
        let d = diff("a\nb\nc\nd\ne\n", "a\nb\nc\nX\ne\n");
        assert!(d.contains("first difference at line 4"), "{d}");
        assert!(d.contains("    b\n    c\n  - d\n  + X\n"), "{d}");
        assert!(!d.contains("e\n"), "the common tail is left out: {d}");
    }

    #[test]
    fn diff_of_an_added_tail_and_of_a_final_newline() {
        let d = diff("a\n", "a\nb\nc\n");
        assert!(d.contains("  + b\n  + c\n") && !d.contains("  - "), "{d}");
        assert!(diff("a\nb", "a\nb\n").contains("final newline"));
    }

    #[test]
    fn long_differences_are_cut() {
        let old: String = (0..40).map(|i| format!("old {i}\n")).collect();
        let d = diff(&old, "new\n");
        assert!(d.contains(&format!("  - … {} more line(s)", 40 - DIFF_LINES)), "{d}");
    }

    #[test]
    fn files_below_walks_sorted_and_skips_build_folders() {
        let dir = TempDir::new("files-below");
        for f in ["b.rs", "a/z.rs", "a.rs", "a/x.txt", "target/t.rs", "c/node_modules/n.rs", "c/d/e.rs"] {
            dir.write(f, "");
        }
        let found: Vec<String> = files_below(&dir, "rs").iter().map(|p| p.strip_prefix(&dir).unwrap().display().to_string()).collect();
        assert_eq!(found, ["a/z.rs", "a.rs", "b.rs", "c/d/e.rs"]);
        assert!(files_below(&dir.join("nowhere"), "rs").is_empty());
    }

    #[test]
    fn the_repository_root_holds_the_workspace() {
        assert!(repo_path("Cargo.toml").is_file());
        assert!(repo_path("crates/rustkeep-testutil/src/lib.rs").is_file());
    }

    #[test]
    fn a_missing_tool_skips_or_fails() {
        assert_eq!(verdict("t: ", "a tool", true, "get it", true), Verdict::Present);
        assert_eq!(verdict("t: ", "a tool", true, "get it", false), Verdict::Present);
        let Verdict::Skip(note) = verdict("t: ", "a tool", false, "get it", false) else { panic!("a skip") };
        assert_eq!(note, "SKIPPED t: a tool is missing (install: get it); with RUSTKEEP_REQUIRE_TOOLS=1 this is a failure");
        let Verdict::Fail(message) = verdict("t: ", "Graphviz (`dot`)", false, "apt-get install graphviz", true) else { panic!("a failure") };
        assert!(message.starts_with("t: Graphviz (`dot`) is missing"), "{message}");
        assert!(message.contains("RUSTKEEP_REQUIRE_TOOLS=1") && message.ends_with("Install it: apt-get install graphviz"), "{message}");
    }

    #[test]
    fn a_generated_file_is_checked_or_rewritten() {
        let dir = TempDir::new("file");
        let file = dir.join("sub/out.txt");
        let missing = check_file(&file, "one\ntwo\n", false).unwrap_err();
        assert!(missing.ends_with("does not exist."), "{missing}");
        check_file(&file, "one\ntwo\n", true).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "one\ntwo\n");
        check_file(&file, "one\ntwo\n", false).unwrap();
        let stale = check_file(&file, "one\nthree\n", false).unwrap_err();
        assert!(stale.contains("is stale") && stale.contains("  - two\n  + three"), "{stale}");
        // CRLF line ends in a checkout hold the same text.
        std::fs::write(&file, "one\r\ntwo\r\n").unwrap();
        check_file(&file, "one\ntwo\n", false).unwrap();
    }

    #[test]
    fn a_generated_folder_has_no_missing_and_no_orphan_files() {
        let dir = TempDir::new("folder");
        let expected = vec![("a.json".to_string(), "A\n".to_string()), ("b.json".to_string(), "B\n".to_string())];
        std::fs::write(dir.join("a.json"), "A\n").unwrap();
        std::fs::write(dir.join("orphan.json"), "O\n").unwrap();
        std::fs::write(dir.join("notes.txt"), "not generated\n").unwrap();
        let problems = folder_problems(&dir, ".json", &expected, "the scenarios", false);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].ends_with("b.json does not exist."), "{problems:?}");
        assert!(problems[1].contains("orphan.json has no source: every file here comes from the scenarios"), "{problems:?}");
        assert!(folder_problems(&dir, ".json", &expected, "the scenarios", true).is_empty());
        assert!(!dir.join("orphan.json").exists() && dir.join("b.json").exists() && dir.join("notes.txt").exists());
        assert!(folder_problems(&dir, ".json", &expected, "the scenarios", false).is_empty());
    }
}
