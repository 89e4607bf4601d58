//! [`Taplo`]: Taplo's command line (the engine of Even Better TOML), an independent TOML reader
//! and schema checker for the tests of the editor schemas (`rustkeep-cli`) and of the formatter's
//! TOML 1.0 output (`rustkeep-fmt`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{repo_path, tools};

/// The npm project that installs Taplo's command line.
const PROJECT: &str = "crates/rustkeep-cli/tests/taplo";

/// Taplo's command line, run by `node`.
pub struct Taplo {
    cli: PathBuf,
}

impl Taplo {
    /// Taplo's command line, installed in `crates/rustkeep-cli/tests/taplo` (`npm ci`, done by
    /// `.ci/run`). When it is missing the test must return: [`tools::node_project`] has said why
    /// (or failed the test under `RUSTKEEP_REQUIRE_TOOLS=1`).
    #[must_use = "a test must return when Taplo is missing"]
    #[track_caller]
    pub fn installed() -> Option<Taplo> {
        let dir = repo_path(PROJECT);
        tools::node_project(&dir, "@taplo/cli").then(|| Taplo { cli: dir.join("node_modules/@taplo/cli/dist/cli.js") })
    }

    /// Runs `taplo lint` in `dir` on `files` with `extra` options (`--schema URI`, `--config
    /// FILE`; none: syntax only); the files it found invalid (below `dir`, canonical), and what
    /// it printed. Files go in one run (Taplo takes seconds to start), and Taplo names every
    /// invalid file in a line `ERROR invalid file error=… path="…"`.
    #[track_caller]
    pub fn lint(&self, dir: &Path, files: &[PathBuf], extra: &[&str]) -> (BTreeSet<PathBuf>, String) {
        let out = Command::new("node")
            .arg(&self.cli)
            .args(["lint", "--no-auto-config", "--colors", "never"])
            .args(extra)
            .args(files)
            .current_dir(dir)
            .env("RUST_LOG", "warn")
            .output()
            .expect("node runs");
        let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        let invalid: BTreeSet<PathBuf> = said
            .lines()
            .filter(|l| l.contains("invalid file"))
            .filter_map(|l| l.split("path=\"").nth(1)?.strip_suffix('"'))
            .map(|p| dir.join(p))
            .map(|p| p.canonicalize().unwrap_or(p))
            .collect();
        assert_eq!(out.status.success(), invalid.is_empty(), "taplo's exit status and its list of invalid files disagree:\n{said}");
        (invalid, said)
    }
}
