//! Records the commit the binary is built from, for `rustkeep --version`.
//!
//! The commit comes from, in this order:
//! 1. the environment variable `RUSTKEEP_BUILD_COMMIT` (for packagers building from a tarball);
//! 2. `.cargo_vcs_info.json`, which `cargo package` writes into a published crate, so that
//!    `cargo install rustkeep-cli` from crates.io still knows its commit;
//! 3. `git rev-parse HEAD` when the crate sits in a git checkout of the repository.
//!
//! When none of them answers (a copy of the sources without git, no tool), the version simply
//! shows no commit: a build never fails for want of one.

use std::path::{Path, PathBuf};
use std::process::Command;

/// How many hex digits of the commit are shown (as `git log --oneline` would, with room to grow).
const SHORT: usize = 9;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTKEEP_BUILD_COMMIT");
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("Cargo sets CARGO_MANIFEST_DIR"));
    let commit = from_env().or_else(|| from_vcs_info(&manifest_dir)).or_else(|| from_git(&manifest_dir)).unwrap_or_default();
    println!("cargo:rustc-env=RUSTKEEP_COMMIT={commit}");
}

/// Keeps what looks like a commit hash, shortened; anything else is no commit.
pub(crate) fn short_hash(text: &str) -> Option<String> {
    let text = text.trim();
    (text.len() >= 7 && text.chars().all(|c| c.is_ascii_hexdigit())).then(|| text[..text.len().min(SHORT)].to_ascii_lowercase())
}

fn from_env() -> Option<String> {
    short_hash(&std::env::var("RUSTKEEP_BUILD_COMMIT").ok()?)
}

/// `"sha1": "<40 hex>"` of the file Cargo writes when packaging a crate from a git checkout.
pub(crate) fn from_vcs_info(dir: &Path) -> Option<String> {
    let path = dir.join(".cargo_vcs_info.json");
    // Only a file that exists is watched: Cargo reruns a build script on every build when a
    // watched file is missing.
    let text = std::fs::read_to_string(&path).ok()?;
    println!("cargo:rerun-if-changed={}", path.display());
    let after = &text[text.find("\"sha1\"")? + "\"sha1\"".len()..];
    let value = after.trim_start().strip_prefix(':')?.trim_start().strip_prefix('"')?;
    short_hash(&value[..value.find('"')?])
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).current_dir(dir).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn from_git(dir: &Path) -> Option<String> {
    // A crate unpacked inside some other repository (vendored sources) is not that repository's
    // commit: only a checkout where this very manifest is tracked counts.
    git(dir, &["ls-files", "--error-unmatch", "Cargo.toml"])?;
    let commit = short_hash(&git(dir, &["rev-parse", "HEAD"])?)?;
    // Build again when HEAD moves: HEAD itself (a checkout or a worktree's), the branch it
    // points at, and the packed refs where a branch may live instead.
    let mut watched = vec![git(dir, &["rev-parse", "--git-path", "HEAD"])];
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git(dir, &["rev-parse", "--git-path", &branch]));
    }
    watched.push(git(dir, &["rev-parse", "--git-path", "packed-refs"]));
    for path in watched.into_iter().flatten() {
        let path = dir.join(path);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    Some(commit)
}
