//! Workspace hygiene that no compiler checks (docs/ARCHITECTURE.md, "Invariants"): every product
//! crate forbids unsafe code, no source file grows past what a reader can hold in mind, the
//! sources are self-contained (they point at the project's own docs/, never at documents users do
//! not get), and only `rustkeep_testutil::shared` reaches outside the repository, so that a clone
//! with nothing beside it passes its tests by skipping what needs the team's test data.

use std::path::{Path, PathBuf};

/// The crates that ship in the `rustkeep` binary. The benchmark crate is a measuring tool and
/// calls `wait4` through `libc`, so it is not among them.
const PRODUCT_CRATES: &[&str] = &["rustkeep-data", "rustkeep-check", "rustkeep-engine", "rustkeep-fmt", "rustkeep-play", "rustkeep-lsp", "rustkeep-cli"];

/// The most lines a source file may have before its unit tests (a trailing `#[cfg(test)]`).
const MAX_LINES: usize = 700;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rust_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every `src/` file of every workspace crate.
fn all_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for krate in std::fs::read_dir(root().join("crates")).expect("crates/").flatten() {
        rust_sources(&krate.path().join("src"), &mut files);
    }
    assert!(files.len() > 20, "found the sources");
    files
}

fn shown(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

#[test]
fn every_product_crate_root_forbids_unsafe_code() {
    let mut missing = Vec::new();
    for krate in PRODUCT_CRATES {
        let src = root().join("crates").join(krate).join("src");
        let mut roots: Vec<PathBuf> = ["lib.rs", "main.rs"].iter().map(|f| src.join(f)).filter(|p| p.is_file()).collect();
        rust_sources(&src.join("bin"), &mut roots);
        assert!(!roots.is_empty(), "{krate} has a crate root");
        for r in roots {
            let text = std::fs::read_to_string(&r).expect("readable crate root");
            if !text.lines().any(|l| l.trim() == "#![forbid(unsafe_code)]") {
                missing.push(shown(&r));
            }
        }
    }
    assert!(missing.is_empty(), "crate roots without `#![forbid(unsafe_code)]`:\n{}", missing.join("\n"));
}

#[test]
fn no_source_file_is_longer_than_a_reader_can_hold() {
    let mut long = Vec::new();
    for f in all_sources() {
        let text = std::fs::read_to_string(&f).expect("readable source");
        let lines = text.lines().take_while(|l| !l.starts_with("#[cfg(test)]")).count();
        if lines > MAX_LINES {
            long.push(format!("{}: {lines} lines (at most {MAX_LINES}); split it along its seams", shown(&f)));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn sources_point_at_the_projects_docs_not_at_documents_users_do_not_get() {
    let mut found = Vec::new();
    // The test helpers are no product: they locate the team's shared test corpora by design.
    let test_only = root().join("crates/rustkeep-testutil");
    for f in all_sources().into_iter().filter(|f| !f.starts_with(&test_only)) {
        let text = std::fs::read_to_string(&f).expect("readable source");
        for (i, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            if line.contains("SPEC") || lower.contains("seed ticket") || line.contains("../shared") {
                found.push(format!("{}:{}: {}", shown(&f), i + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "references to documents outside the project (point at docs/ instead):\n{}", found.join("\n"));
}

/// The one file that may name the folder of the team's test data: the helper every test asks for
/// it. This file names the patterns it looks for.
const OUTSIDE_ALLOWED: &[&str] = &["crates/rustkeep-testutil/src/shared.rs", "crates/rustkeep-data/tests/tidy.rs"];

/// The code and configuration of the repository: not its data (`tests/fixtures`, `examples`), not
/// its docs, and not `.ci/run`, which provisions CI and may install tools from anywhere.
const CODE_ROOTS: &[&str] = &["crates", "xtask", "fuzz", "scripts", "editors", ".github", ".cargo", "Cargo.toml", "action.yml", ".pre-commit-hooks.yaml"];
const CODE_EXTENSIONS: &[&str] = &["rs", "sh", "py", "js", "mjs", "cjs", "ts", "lua", "toml", "yml", "yaml", "json"];

fn code_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_file() {
        if path.extension().is_some_and(|x| CODE_EXTENSIONS.iter().any(|e| x == *e)) {
            out.push(path.to_path_buf());
        }
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else { return };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        // Build output, installed packages and fuzzing state are not the repository's code.
        if !["target", "node_modules", ".git", "out", "corpus", "artifacts"].contains(&name.as_ref()) {
            code_files(&e.path(), out);
        }
    }
}

/// How many folders up a Rust line's string literals climb: the most `..` parts of one literal
/// (`"../.."` is two), or those of the arguments of its `join` calls added up
/// (`.join("..").join("..")` is two too).
fn climbs(line: &str) -> usize {
    let ups = |lit: &str| lit.split(['/', '\\']).take_while(|part| *part == "..").count();
    // The odd pieces between double quotes are the literals (escaped quotes do not occur in paths).
    let longest = line.split('"').skip(1).step_by(2).map(ups).max().unwrap_or(0);
    let joined = line.split("join(\"").skip(1).map(|rest| ups(rest.split('"').next().unwrap_or(""))).sum();
    longest.max(joined)
}

/// Why `line` of a file `depth` folders below the repository root reaches outside the
/// repository, if it does: it names the team's folder, or (in Rust, where a path's starting point
/// shows) its `..` parts climb above the root from where they start: the file's folder, the
/// crate's folder (`crate_depth`) with `CARGO_MANIFEST_DIR`, the root with `repo_root`/`repo_path`.
/// A script's paths start wherever it changed folder to, so only the first test applies to it.
fn reaches_outside(line: &str, rust: bool, depth: usize, crate_depth: usize) -> Option<&'static str> {
    let named = ["../shared", "..\\shared", "\"shared/", "'shared/", "`shared/", "/shared/", "\"shared\"", "'shared'"];
    if named.iter().any(|n| line.contains(n)) {
        return Some("names the team's test data folder");
    }
    let base = if line.contains("repo_root") || line.contains("repo_path") {
        0
    } else if line.contains("CARGO_MANIFEST_DIR") {
        crate_depth
    } else {
        depth
    };
    (rust && climbs(line) > base).then_some("climbs above the repository root")
}

#[test]
fn only_the_shared_data_helper_reaches_outside_the_repository() {
    let mut files = Vec::new();
    for r in CODE_ROOTS {
        code_files(&root().join(r), &mut files);
    }
    assert!(files.len() > 100, "found the code ({} files)", files.len());
    let root = root().canonicalize().expect("the root exists");
    let mut found = Vec::new();
    for f in files {
        let f = f.canonicalize().expect("a listed file exists");
        let rel = f.strip_prefix(&root).expect("inside the repository").to_path_buf();
        if OUTSIDE_ALLOWED.iter().any(|a| rel == Path::new(a)) {
            continue;
        }
        let depth = rel.components().count() - 1;
        // The crate's folder is the nearest one above the file with a manifest.
        let crate_depth = rel.ancestors().skip(1).find(|a| root.join(a).join("Cargo.toml").is_file()).map_or(0, |a| a.components().count());
        let rust = rel.extension().is_some_and(|x| x == "rs");
        let Ok(text) = std::fs::read_to_string(&f) else { continue };
        for (i, line) in text.lines().enumerate() {
            if let Some(why) = reaches_outside(line, rust, depth, crate_depth) {
                found.push(format!("{}:{}: {why}: {}", rel.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "only `rustkeep_testutil::shared_folder` may reach outside the repository (it skips, or fails under \
         RUSTKEEP_REQUIRE_TOOLS=1, when the data is absent):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_outside_check_sees_the_ways_out() {
    // The way the formatter's suite test once found the TOML suite, from the crate's folder.
    let old = r#"let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").join("shared/toml-test/tests");"#;
    assert_eq!(reaches_outside(old, true, 3, 2), Some("names the team's test data folder"));
    assert_eq!(reaches_outside(r#"Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").join("data")"#, true, 3, 2), Some("climbs above the repository root"));
    assert_eq!(reaches_outside(r#"repo_root().join("..").join("data")"#, true, 3, 2), Some("climbs above the repository root"));
    assert!(reaches_outside(r#"let dir = "../shared/conformance";"#, true, 3, 2).is_some());
    assert!(reaches_outside("//! (`../shared/toml-test`, files of TOML 1.1)", true, 3, 2).is_some());
    assert!(reaches_outside(r#"root.join("shared").join("vscode-e2e")"#, true, 3, 2).is_some());
    assert!(reaches_outside(r#"bash "$ROOT/../shared/vscode-e2e/install-code-server.sh""#, false, 1, 0).is_some());
    // Paths that stay inside: the workspace root from a crate, a snapshot folder from a module
    // five folders down, and words that are no paths.
    assert_eq!(reaches_outside(r#"Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")"#, true, 3, 2), None);
    assert_eq!(reaches_outside(r#"settings.set_snapshot_path("../../../tests/snapshots/play");"#, true, 5, 2), None);
    assert_eq!(reaches_outside("/// The sorted IDs, shared by the console and the game.", true, 3, 2), None);
    assert_eq!(reaches_outside(r#"(cd editors/vscode && node x.js --out-dir ../../target/vscode)"#, false, 1, 0), None, "a script's own folder changes");
    assert_eq!(climbs(r#"a.join("..").join("../x")"#), 2);
    assert_eq!(climbs(r#"format!("{}/../..", "x/../y")"#), 0, "only leading parts climb");
}

/// `.ci/run` runs the tests that read the team's test data again with it hidden; it finds them by
/// the helpers they call, named in its `shared_users` pattern. Every public function of
/// rustkeep-testutil that reads the data must be among them, or its callers would escape that run.
#[test]
fn the_hidden_data_run_of_ci_knows_every_helper_that_reads_the_data() {
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run");
    let pattern = ci.lines().find_map(|l| l.strip_prefix("shared_users='")).expect("`.ci/run` sets shared_users='…'");
    let named: Vec<&str> = pattern.trim_end_matches('\'').split('|').collect();
    let mut helpers = vec!["shared_folder".to_string()];
    let mut files = Vec::new();
    rust_sources(&root().join("crates/rustkeep-testutil/src"), &mut files);
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable source");
        // Each public function up to the next one: enough to see whether it calls the helper.
        for item in text.split("pub fn ").skip(1) {
            let name: String = item.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let body = item.split("\nfn ").next().unwrap_or(item);
            if body.contains("shared_folder(") && !helpers.contains(&name) {
                helpers.push(name);
            }
        }
    }
    assert!(helpers.iter().any(|h| h == "toml_corpus"), "found the helpers: {helpers:?}");
    let missing: Vec<&String> = helpers.iter().filter(|h| !named.contains(&h.as_str())).collect();
    assert!(missing.is_empty(), "add {missing:?} to `shared_users` in .ci/run, so that the tests calling them run with the data hidden");
}
