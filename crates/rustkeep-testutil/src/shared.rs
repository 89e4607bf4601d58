//! The one way a test reaches outside the repository: the team's test data (the diagnostics
//! corpus, the official TOML suite, the editor recipes) lives in a folder `shared` beside the
//! checkout, which a fresh clone does not have. Every test that reads it asks [`shared_folder`]
//! for its part, which skips the test with the reason (or fails it under
//! `RUSTKEEP_REQUIRE_TOOLS=1`) when the part is absent. A tidy test
//! (`crates/rustkeep-data/tests/tidy.rs`) keeps every other path out of the workspace's code.
//!
//! `RUSTKEEP_SHARED_DIR` names another folder to read it from; `.ci/run` points it at an empty
//! folder to prove that the tests pass by skipping on a clone without the data.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::{repo_root, require};

/// The environment variable that names the folder of the team's test data instead of the
/// `shared` folder beside the repository. A relative path is taken from the repository root
/// (Cargo runs each test in its own crate's folder, so the working folder would differ).
pub const SHARED_DIR_VAR: &str = "RUSTKEEP_SHARED_DIR";

/// Where the team's test data is looked for: `RUSTKEEP_SHARED_DIR` when set and not empty,
/// else the folder `shared` beside the repository.
fn shared_root() -> PathBuf {
    root_from(repo_root(), std::env::var_os(SHARED_DIR_VAR))
}

fn root_from(repo: &Path, var: Option<OsString>) -> PathBuf {
    match var.filter(|v| !v.is_empty()) {
        Some(dir) => repo.join(dir),
        None => repo.parent().unwrap_or(repo).join("shared"),
    }
}

/// The folder `name` of the team's test data (`toml-test`, `conformance`, `vscode-e2e`), when
/// it is there.
///
/// When it is not, the test must return without checking anything that needs it: with
/// `RUSTKEEP_REQUIRE_TOOLS=1` this fails the test instead, and otherwise a SKIPPED line says
/// which folder was looked for, where, and how to provide it.
#[must_use = "a test must return when its data is missing"]
#[track_caller]
pub fn shared_folder(name: &str) -> Option<PathBuf> {
    let from_var = std::env::var_os(SHARED_DIR_VAR).is_some_and(|v| !v.is_empty());
    let (dir, what) = describe(&shared_root(), name, from_var);
    require(&what, dir.is_some(), &format!("put the team's `shared` folder next to the repository checkout, or set {SHARED_DIR_VAR} to it"))
        .then_some(dir)
        .flatten()
}

/// The folder `name` below `root` if it exists (canonical), and how a missing one is named.
fn describe(root: &Path, name: &str, from_var: bool) -> (Option<PathBuf>, String) {
    let dir = root.join(name);
    let found = dir.canonicalize().ok().filter(|d| d.is_dir());
    let origin =
        if from_var { format!("below {SHARED_DIR_VAR}") } else { format!("in the `shared` folder beside the repository; {SHARED_DIR_VAR} overrides it") };
    (found, format!("the test data `{name}` (looked for {}, {origin})", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TempDir;

    #[test]
    fn the_data_is_beside_the_repository_unless_the_variable_names_a_folder() {
        let repo = Path::new("/src/modkit");
        assert_eq!(root_from(repo, None), Path::new("/src/shared"));
        assert_eq!(root_from(repo, Some(OsString::new())), Path::new("/src/shared"), "an empty value is no value");
        assert_eq!(root_from(repo, Some("/data/team".into())), Path::new("/data/team"));
        assert_eq!(root_from(repo, Some("target/empty".into())), Path::new("/src/modkit/target/empty"), "relative to the repository");
    }

    #[test]
    fn a_missing_folder_is_named_with_where_it_was_looked_for() {
        let root = TempDir::new("shared-root");
        std::fs::create_dir_all(root.path("toml-test/tests")).unwrap();
        std::fs::write(root.path("not-a-folder"), "").unwrap();
        let (found, _) = describe(&root.0, "toml-test", true);
        assert_eq!(found, Some(root.path("toml-test")));
        let (found, what) = describe(&root.0, "conformance", true);
        assert_eq!(found, None);
        assert_eq!(what, format!("the test data `conformance` (looked for {}, below RUSTKEEP_SHARED_DIR)", root.path("conformance").display()));
        let (found, what) = describe(&root.0, "not-a-folder", false);
        assert_eq!(found, None, "a file is not the folder");
        assert!(what.ends_with("in the `shared` folder beside the repository; RUSTKEEP_SHARED_DIR overrides it)"), "{what}");
    }
}
