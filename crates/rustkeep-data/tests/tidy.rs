//! Workspace hygiene that no compiler checks (docs/ARCHITECTURE.md, "Invariants"): every product
//! crate forbids unsafe code, no source file grows past what a reader can hold in mind, and the
//! sources are self-contained (they point at the project's own docs/, never at documents users do
//! not get).

use std::path::{Path, PathBuf};

/// The crates that ship in the `rustkeep` binary. The benchmark crate is a measuring tool and
/// calls `wait4` through `libc`, so it is not among them.
const PRODUCT_CRATES: &[&str] = &["rustkeep-data", "rustkeep-check", "rustkeep-engine", "rustkeep-fmt", "rustkeep-lsp", "rustkeep-cli"];

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
