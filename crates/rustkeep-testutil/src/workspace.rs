//! The workspace as Cargo sees it, for the tests of its crate map (`rustkeep-data`'s
//! `tests/layering.rs`) and of its distribution (`rustkeep-cli`'s `tests/distribution.rs`).

use std::process::Command;

use crate::repo_root;

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
