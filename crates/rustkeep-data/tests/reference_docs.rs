//! `docs/reference.md`, and the generated blocks of hand-written pages (the event table of
//! `docs/triggers.md`), come from the vocabulary; these tests fail when a committed page is stale
//! (docs/ARCHITECTURE.md, invariant "One vocabulary": adding an event is one row, and the docs
//! follow or CI fails).
//! Regenerate with `cargo xtask update` (or these tests with `UPDATE_EXPECT=1`).

use rustkeep_data::reference::{block_markers, generated_blocks, reference_markdown, splice_block, REGENERATE};
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
fn generated_blocks_of_hand_written_pages_match_the_vocabulary() {
    for (page, name, content) in generated_blocks() {
        let path = repo_path(&format!("docs/{page}"));
        let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("docs/{page}: {e}")).replace("\r\n", "\n");
        let (begin, end) = block_markers(name);
        let generated = splice_block(&committed, name, &content)
            .unwrap_or_else(|| panic!("docs/{page} lacks the generated block `{name}`: put `{begin}` and `{end}` where it belongs"));
        ensure_file_contents(&path, &generated);
    }
}

#[test]
fn the_event_table_of_triggers_md_has_every_event() {
    let (_, _, table) = generated_blocks().into_iter().find(|b| b.1 == "event sides").expect("the event sides block");
    for e in EVENTS {
        assert!(table.contains(&format!("[`{}`]", e.name)), "{}", e.name);
    }
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
