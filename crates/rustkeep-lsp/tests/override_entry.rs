//! "Override this entry in my mod": from a reference to a core entry, or from the entry in the
//! served core file, the action writes a copy of the entry as an override into a new file of the
//! mod — and the mod then checks clean with its override in force.

mod common;

use common::*;
use rustkeep_data::text::Encoding;
use rustkeep_data::vocab::Registry;
use rustkeep_lsp::handlers::code_action;
use rustkeep_lsp::lsp::*;

/// The moth, and the floor where it is met.
const CREATURES: &str = "[[creatures]]\nid = \"testmod:moth\"\nname = \"Moth\"\nloot = \"core:rat_loot\"\n\n\
                         [[floors]]\nid = \"testmod:attic\"\nname = \"Attic\"\ndepth = 9\nprefabs = [\"core:corridor\"]\ncreatures = [\"testmod:moth\"]\n";

fn override_action(f: &Fixture, uri: &Uri, position: Position) -> Option<CodeAction> {
    let actions = code_action::code_actions(&f.state, uri, Range { start: position, end: position })?;
    actions.into_iter().find_map(|a| match a {
        CodeActionResponse::CodeAction(a) if a.title.starts_with("Override") => Some(a),
        _ => None,
    })
}

/// Applies the action's edit the way a client does: create the file, insert the text.
fn apply(a: &CodeAction) -> (std::path::PathBuf, String) {
    let edit = serde_json::to_value(a.edit.as_ref().expect("an edit")).unwrap();
    let changes = edit["documentChanges"].as_array().expect("document changes");
    assert_eq!(changes[0]["kind"], "create", "{edit}");
    let uri: Uri = serde_json::from_value(changes[0]["uri"].clone()).unwrap();
    let path = rustkeep_lsp::uri::to_path(&uri).expect("a file URI");
    let text = changes[1]["edits"][0]["newText"].as_str().expect("the copy").to_string();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &text).unwrap();
    (path, text)
}

#[test]
fn a_reference_to_a_core_entry_offers_a_copy_as_override_that_checks_clean() {
    let mut f = Fixture::new(&[("creatures.toml", CREATURES)], Encoding::Utf16);
    let p = f.open("creatures.toml", &CREATURES.replace("core:rat_loot", "core:rat$0_loot"));
    let a = override_action(&f, &p.text_document.uri, p.position).expect("the action is offered on `core:rat_loot`");
    assert_eq!(a.title, "Override `core:rat_loot` in this mod (copy it to overrides/core_rat_loot.toml)");
    let (path, text) = apply(&a);
    assert_eq!(path, f.path("overrides/core_rat_loot.toml"));
    assert!(text.contains("overrides = \"core:rat_loot\""), "{text}");
    assert!(!text.contains("id = \"core:rat_loot\""), "{text}");
    assert!(text.starts_with("# Overrides `core:rat_loot` (<core>/loot_tables.toml:"), "{text}");

    // The mod loads the copy and is clean; the entry in force is the mod's.
    f.state.disk_changed(std::slice::from_ref(&path));
    f.state.refresh();
    assert_eq!(f.state.analysis().all_diagnostics(&f.state.project), vec![], "the copy checks clean");
    let def = f.state.db().resolved.get(Registry::LootTables, "core:rat_loot").expect("the table exists");
    assert_eq!(f.state.project.mods[def.mod_idx].id, "testmod");
    // Done once: no second copy is offered for the same entry.
    assert!(override_action(&f, &p.text_document.uri, p.position).is_none());
}

#[test]
fn the_served_core_file_offers_the_copy_too() {
    let f = Fixture::new(&[("creatures.toml", CREATURES)], Encoding::Utf16);
    let core = f.state.core_dir.clone().expect("the core is served");
    let uri = rustkeep_lsp::uri::from_path(&core.join("creatures.toml"));
    let fid = f.state.file_of(&uri).expect("the served file maps to the bundled core");
    let text = f.state.text(fid).to_string();
    let at = text.find("\"core:rat\"").expect("the core's rat") + 2;
    let a = override_action(&f, &uri, f.state.position(fid, at)).expect("offered on a core entry");
    assert_eq!(a.title, "Override `core:rat` in `testmod` (copy it to overrides/core_rat.toml)");
    let (_, copy) = apply(&a);
    assert!(copy.contains("overrides = \"core:rat\""), "{copy}");
    // Nothing is offered on the mod's own entries.
    let own = f.uri("creatures.toml");
    assert!(override_action(&f, &own, Position { line: 1, character: 8 }).is_none());
}
