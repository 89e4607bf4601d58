//! The workspace as Cargo sees it, for the tests of its crate map (`rustkeep-data`'s
//! `tests/layering.rs`) and of its distribution (`rustkeep-cli`'s `tests/distribution.rs`).

use std::process::Command;

use crate::{files_below, repo_root};

/// The crates of the product, each after every workspace crate it may depend on: the order
/// `cargo publish` takes them in, with the command line last. The test helpers, the benchmark and
/// the tasks are no part of it.
pub const PRODUCT_CRATES: &[&str] = &[
    "rustkeep-data",
    "rustkeep-check",
    "rustkeep-engine",
    "rustkeep-fmt",
    "rustkeep-present",
    "rustkeep-ide",
    "rustkeep-play",
    "rustkeep-doc",
    "rustkeep-lsp",
    "rustkeep-cli",
];

/// `cargo metadata` of the workspace (no dependencies resolved: fast and offline), failing the
/// test with Cargo's message when it fails.
#[track_caller]
pub fn cargo_metadata() -> serde_json::Value {
    // Cargo names itself to the tests it runs; a test binary run by hand falls back to `cargo`.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(repo_root())
        .output()
        .expect("cargo metadata runs");
    assert!(out.status.success(), "cargo metadata failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

/// The product sources, each as its path relative to the repository root and its code: the text
/// before its unit tests (a trailing `#[cfg(test)]`), which may spell what the product may not.
/// The test helpers of this crate are no product.
pub fn product_code() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for krate in std::fs::read_dir(repo_root().join("crates")).expect("crates/").flatten() {
        if krate.file_name() != "rustkeep-testutil" {
            files.extend(files_below(&krate.path().join("src"), "rs"));
        }
    }
    assert!(files.len() > 20, "found the product sources");
    files.sort();
    let root = repo_root().canonicalize().expect("the root exists");
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).expect("readable source");
            let rel = f.canonicalize().expect("exists").strip_prefix(&root).expect("inside").to_string_lossy().replace('\\', "/");
            (rel, text.split("#[cfg(test)]").next().unwrap_or("").to_string())
        })
        .collect()
}
