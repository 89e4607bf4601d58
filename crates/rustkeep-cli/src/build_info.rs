//! What `rustkeep --version` says: the version of the toolkit, the commit it was built from (found
//! by `build.rs`; absent when the sources came without one), and the version of the data language
//! it reads.

use std::sync::OnceLock;

/// The text after `rustkeep ` in `rustkeep --version`, e.g.
/// `0.1.0 (commit 39cfffe4a, data language v1.1)`.
pub fn long_version() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| describe(env!("CARGO_PKG_VERSION"), env!("RUSTKEEP_COMMIT"), rustkeep_data::vocab::LANGUAGE_VERSION))
}

fn describe(version: &str, commit: &str, language: &str) -> String {
    if commit.is_empty() {
        format!("{version} (data language v{language})")
    } else {
        format!("{version} (commit {commit}, data language v{language})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_and_without_a_commit() {
        assert_eq!(describe("0.1.0", "39cfffe4a", "1.1"), "0.1.0 (commit 39cfffe4a, data language v1.1)");
        assert_eq!(describe("0.1.0", "", "1.1"), "0.1.0 (data language v1.1)");
    }

    #[test]
    fn the_version_starts_with_the_package_version() {
        assert!(long_version().starts_with(concat!(env!("CARGO_PKG_VERSION"), " (")), "{}", long_version());
        assert!(long_version().ends_with(&format!("data language v{})", rustkeep_data::vocab::LANGUAGE_VERSION)), "{}", long_version());
    }
}
