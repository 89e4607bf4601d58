//! `docs/diagnostics.md` is generated from the code catalogue; this test fails when it is stale.
//! `cargo xtask update` regenerates it (as does this test with `UPDATE_EXPECT=1`).

use rustkeep_testutil::{ensure_file_contents, repo_path};

#[test]
fn diagnostics_md_matches_the_catalogue() {
    let expected = rustkeep_check::explain::catalog_markdown();
    ensure_file_contents(&repo_path("docs/diagnostics.md"), &expected);
    for code in rustkeep_data::diag::Code::ALL {
        assert!(expected.contains(code.name()), "docs/diagnostics.md does not mention `{}`", code.name());
    }
}
