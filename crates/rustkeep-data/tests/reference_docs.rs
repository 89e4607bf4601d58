//! `docs/reference.md` is generated from the vocabulary; this test fails when the committed page is
//! stale (architecture invariant 1: adding an event is one row, and the docs follow or CI fails).
//! Regenerate it with `cargo xtask update` (or this test with `UPDATE_EXPECT=1`).

use rustkeep_data::reference::{reference_markdown, REGENERATE};
use rustkeep_data::vocab::{ACTIONS, ATTRIBUTES, CHECKS, DAMAGE_TYPES, EVENTS, REGISTRIES};
use rustkeep_testutil::{ensure_file_contents, repo_path};

#[test]
fn committed_reference_matches_the_vocabulary() {
    ensure_file_contents(&repo_path("docs/reference.md"), &reference_markdown());
}

/// The page tells its readers the same regeneration command as the failing tests do.
#[test]
fn the_page_names_the_one_regeneration_command() {
    assert_eq!(REGENERATE, rustkeep_testutil::REGENERATE);
    assert!(reference_markdown().contains(&format!("`{REGENERATE}`")));
}

#[test]
fn reference_names_every_piece_of_vocabulary() {
    let page = reference_markdown();
    for r in REGISTRIES {
        assert!(page.contains(&format!("### `[[{}]]`", r.key)), "registry {}", r.key);
        for f in r.fields {
            assert!(page.contains(&format!("| `{}` |", f.name)), "field {}.{}", r.key, f.name);
        }
    }
    for e in EVENTS {
        assert!(page.contains(&format!("### `{}`", e.name)), "event {}", e.name);
        for p in e.payload {
            assert!(page.contains(&format!("`{p}`")), "payload {p} of {}", e.name);
        }
    }
    for c in CHECKS {
        assert!(page.contains(&format!("### `{}`", c.name)), "check {}", c.name);
    }
    for a in ACTIONS {
        assert!(page.contains(&format!("### `{}`", a.name)), "action {}", a.name);
    }
    for (name, _) in ATTRIBUTES.iter().chain(DAMAGE_TYPES) {
        assert!(page.contains(&format!("| `{name}` |")), "{name}");
    }
    // Every table row has as many cells as its header: a `|` inside a doc string would break it.
    let mut columns = 0;
    for line in page.lines() {
        if !line.starts_with('|') {
            columns = 0;
            continue;
        }
        let cells = line.replace("\\|", "").matches('|').count();
        if columns == 0 {
            columns = cells;
        }
        assert_eq!(cells, columns, "ragged table row: {line}");
    }
}
