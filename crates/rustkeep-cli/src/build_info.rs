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

/// The build script itself, so that its fallbacks are tested (its `main` is not called here).
#[cfg(test)]
#[allow(dead_code)]
#[path = "../build.rs"]
mod build_script;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_published_crate_takes_its_commit_from_cargo_vcs_info() {
        let dir = rustkeep_testutil::TempDir::new("build-info");
        assert_eq!(build_script::from_vcs_info(&dir), None, "no file, no commit");
        let info = dir.join(".cargo_vcs_info.json");
        std::fs::write(&info, "{\n  \"git\": {\n    \"sha1\": \"35A9423BD38F0527DA52336EBE2CF7C32B7464D0\",\n    \"dirty\": true\n  },\n  \"path_in_vcs\": \"crates/rustkeep-cli\"\n}\n").unwrap();
        assert_eq!(build_script::from_vcs_info(&dir).as_deref(), Some("35a9423bd"));
        for broken in ["{}", "{\"git\": {\"sha1\": 7}}", "{\"git\": {\"sha1\": \"not a hash\"}}", "{\"git\": {\"sha1\": \"abc"] {
            std::fs::write(&info, broken).unwrap();
            assert_eq!(build_script::from_vcs_info(&dir), None, "{broken}");
        }
    }

    #[test]
    fn only_hashes_count_as_commits() {
        assert_eq!(build_script::short_hash(" 0123456789abcdef\n").as_deref(), Some("012345678"));
        assert_eq!(build_script::short_hash("abc1234").as_deref(), Some("abc1234"));
        assert_eq!(build_script::short_hash("abc12"), None, "too short");
        assert_eq!(build_script::short_hash("v0.1.0-3-gabc1234"), None);
        assert_eq!(build_script::short_hash(""), None);
    }

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
