//! Without a file watcher, a save or an open re-reads the disk: changed data files are taken like
//! edits (only they are lowered again, and the project is not loaded again); files added or
//! removed, or a changed manifest, reload the project.

mod common;

use common::*;
use rustkeep_lsp::lsp::*;
use rustkeep_lsp::uri;

fn codes_of(published: &[(Uri, Vec<Diagnostic>, Option<i32>)], u: &Uri) -> Option<Vec<String>> {
    published.iter().find(|(x, _, _)| x == u).map(|(_, d, _)| {
        d.iter()
            .map(|d| match &d.code {
                Some(Code::String(s)) => s.clone(),
                other => format!("{other:?}"),
            })
            .collect()
    })
}

#[test]
fn a_data_file_changed_on_disk_is_read_again_without_a_reload() {
    let (root, mut state) = rat_catcher_loaded();
    assert_eq!(state.loads, 1);

    // Opening a file and rescanning with nothing changed on disk: no reload, nothing lowered.
    let items = root.join("rat_catcher/items.toml");
    let text = std::fs::read_to_string(&items).unwrap();
    state.open(items.clone(), text, 1);
    state.reload_from_disk();
    state.take_publish();
    assert_eq!(state.loads, 1, "nothing changed on disk");

    // Another file changes on disk, outside the editor: a rescan reads it, as an edit.
    let npcs = root.join("rat_catcher/npcs.toml");
    let changed = std::fs::read_to_string(&npcs).unwrap().replacen("name = ", "nmae = ", 1);
    std::fs::write(&npcs, changed).unwrap();
    state.reload_from_disk();
    let published = state.take_publish();
    assert_eq!(state.loads, 1, "a changed data file is an edit, not a reload");
    assert_eq!(state.last_lowered, 1, "only the changed file is lowered again");
    let codes = codes_of(&published, &uri::from_path(&npcs)).expect("the changed file's list is sent");
    assert!(codes.contains(&"unknown-field".to_string()), "{codes:?}");

    // Put back: its list is cleared the same way.
    let fixed = std::fs::read_to_string(&npcs).unwrap().replacen("nmae = ", "name = ", 1);
    std::fs::write(&npcs, fixed).unwrap();
    state.reload_from_disk();
    let published = state.take_publish();
    assert_eq!(codes_of(&published, &uri::from_path(&npcs)), Some(vec![]));
    assert_eq!(state.loads, 1);

    // The open buffer shadows its file: a change on disk under it is not read.
    std::fs::write(&items, "this is not TOML [").unwrap();
    state.reload_from_disk();
    let published = state.take_publish();
    assert_eq!(codes_of(&published, &uri::from_path(&items)), None, "the buffer is in force");
    assert_eq!(state.loads, 1);
}

#[test]
fn files_added_or_removed_or_a_changed_manifest_reload_the_project() {
    let (root, mut state) = rat_catcher_loaded();

    let more = root.join("rat_catcher/more.toml");
    std::fs::write(&more, "[[items]]\nid = \"rat_catcher:b\"\nname = \"B\"\nprise = 3\n").unwrap();
    state.reload_from_disk();
    let published = state.take_publish();
    assert_eq!(state.loads, 2, "a new file reloads");
    // The new item's misspelt key, and that nothing gives it.
    assert_eq!(codes_of(&published, &uri::from_path(&more)), Some(vec!["item-never-obtainable".to_string(), "unknown-field".to_string()]));

    std::fs::remove_file(&more).unwrap();
    state.reload_from_disk();
    let published = state.take_publish();
    assert_eq!(state.loads, 3, "a removed file reloads");
    assert_eq!(codes_of(&published, &uri::from_path(&more)), Some(vec![]), "its list is cleared");

    let manifest = root.join("rat_catcher/mod.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(&manifest, format!("{text}\n")).unwrap();
    state.reload_from_disk();
    state.take_publish();
    assert_eq!(state.loads, 4, "a changed manifest reloads");
}
