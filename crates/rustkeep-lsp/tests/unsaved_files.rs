//! A new file that exists only as an open buffer (not saved yet) is part of its mod: it is
//! checked, its IDs resolve from other files, and it takes its place in the mod's path order.

mod common;

use common::*;
use rustkeep_data::text::Encoding;
use rustkeep_lsp::handlers;
use rustkeep_lsp::lsp::*;
use rustkeep_lsp::state::State;
use rustkeep_lsp::uri;

const NEW_FILE: &str = "[[items]]\nid = \"rat_catcher:sewer_key\"\nname = \"Sewer Key\"\nprice = 3\nuse = [ { action = \"apply_status\", status = \"rat_catcher:ratsbaen\", target = \"self\" } ]\n";

fn rel_paths(state: &State, root: &std::path::Path) -> Vec<String> {
    let m = state.project.mods.iter().find(|m| m.id == "rat_catcher").expect("the mod is loaded");
    m.data_files
        .iter()
        .map(|f| state.project.file(*f).disk_path.as_ref().unwrap().strip_prefix(root.join("rat_catcher")).unwrap().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn an_unsaved_new_file_is_checked_and_resolves_in_path_order() {
    let (root, mut state) = rat_catcher_loaded();
    let before = rel_paths(&state, &root);

    let new = root.join("rat_catcher/a_keys.toml");
    assert!(!new.exists());
    state.open(new.clone(), NEW_FILE.into(), 1);
    let published = state.take_publish();

    // It is a data file of the mod, first in byte-wise path order.
    let after = rel_paths(&state, &root);
    assert_eq!(after[0], "a_keys.toml");
    assert_eq!(after[1..], before[..]);

    // Its mistake is reported to the editor under its own URI.
    let u = uri::from_path(&new);
    let (_, diags, version) = published.iter().find(|(x, _, _)| *x == u).expect("the unsaved file gets diagnostics");
    assert_eq!(*version, Some(1));
    let codes: Vec<_> = diags.iter().map(|d| d.code.clone()).collect();
    // (and that nothing gives its item yet).
    assert_eq!(codes, vec![Some(Code::String("item-never-obtainable".into())), Some(Code::String("unknown-reference".into()))], "{diags:?}");

    // Another file can name its item, and definition goes to the unsaved buffer.
    let quests = root.join("rat_catcher/quests.toml");
    let text = std::fs::read_to_string(&quests).unwrap()
        + "\n[[quests]]\nid = \"rat_catcher:lost_key\"\nname = \"Lost Key\"\non = \"item_picked_up\"\nwhen = { item = \"rat_catcher:sewer_key\" }\n";
    state.open(quests.clone(), text.clone(), 1);
    let published = state.take_publish();
    let q = uri::from_path(&quests);
    let unknown = |d: &Diagnostic| d.code == Some(Code::String("unknown-reference".into()));
    let (_, qd, _) = published.iter().find(|(x, _, _)| *x == q).expect("quests.toml is published");
    assert!(!qd.is_empty() && !qd.iter().any(unknown), "the reference resolves (the new quest is never started): {qd:?}");
    let offset = text.rfind("sewer_key").unwrap();
    let fid = state.file_of(&q).unwrap();
    let at = TextDocumentPositionParams { text_document: TextDocumentIdentifier { uri: q.clone() }, position: state.position(fid, offset) };
    let locs = handlers::definition::definition(&state, &at).expect("a definition");
    assert_eq!(locs.len(), 1);
    assert_eq!(locs[0].uri, u);
    assert_eq!(locs[0].range.start.line, 1);

    // Closing the unsaved buffer drops the file; its list is cleared and the reference breaks.
    state.close(&new);
    let published = state.take_publish();
    assert_eq!(rel_paths(&state, &root), before);
    assert!(published.iter().any(|(x, d, _)| *x == u && d.is_empty()), "{published:?}");
    let (_, qd, _) = published.iter().find(|(x, _, _)| *x == q).expect("quests.toml is republished");
    assert!(qd.iter().any(unknown), "{qd:?}");
}

#[test]
fn unsaved_buffers_outside_data_folders_are_not_data_files() {
    let root = examples_workspace(&["rat_catcher"]);
    root.write("rat_catcher/sub/mod.toml", "[mod]\nid = \"sub\"\nname = \"Sub\"\nversion = \"0.1.0\"\n");
    let mut state = state_over(&root, Encoding::Utf16);
    let before = rel_paths(&state, &root);
    // A hidden folder, build output, a file that is not TOML, and a file of the nested mod.
    for rel in [".hidden/x.toml", "target/x.toml", "notes.txt", "sub/new.toml"] {
        state.open(root.join("rat_catcher").join(rel), NEW_FILE.into(), 1);
    }
    state.refresh();
    assert_eq!(rel_paths(&state, &root), before);
    // None of them became a file of any mod.
    for rel in [".hidden/x.toml", "target/x.toml", "notes.txt", "sub/new.toml"] {
        assert_eq!(state.project.file_by_disk_path(&root.join("rat_catcher").join(rel)), None, "{rel}");
    }
}
