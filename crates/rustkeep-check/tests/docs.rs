//! `docs/diagnostics.md` is generated from the code catalogue; this test fails when it is stale.
//!
//! Regenerate it with
//! `cargo run -p rustkeep-cli -- explain --all --format markdown > docs/diagnostics.md`
//! (or run this test with `UPDATE_DOCS=1`).

use std::path::Path;

#[test]
fn diagnostics_md_matches_the_catalogue() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md");
    let expected = rustkeep_check::explain::catalog_markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &expected).expect("docs/diagnostics.md is writable");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default().replace("\r\n", "\n");
    assert!(
        committed == expected,
        "docs/diagnostics.md is stale: regenerate it with\n  cargo run -p rustkeep-cli -- explain --all --format markdown > docs/diagnostics.md\nor `UPDATE_DOCS=1 cargo test -p rustkeep-check --test docs`"
    );
    for code in rustkeep_data::diag::Code::ALL {
        assert!(committed.contains(code.name()), "docs/diagnostics.md does not mention `{}`", code.name());
    }
}
