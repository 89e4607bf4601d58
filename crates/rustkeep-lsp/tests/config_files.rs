//! `rustkeep.toml` and `mod.toml` in the editor: completion and hover of their keys (among them
//! `[format] toml_version`), and formatting that follows `toml_version`.

mod common;

use common::*;
use rustkeep_data::text::Encoding;
use rustkeep_lsp::handlers::{completion, formatting, hover, range_formatting};
use rustkeep_lsp::lsp::*;
use rustkeep_lsp::state::State;

/// A workspace with `rustkeep.toml` (its text given) and one mod; the state over it.
fn workspace(config: &str, items: &str) -> (TempDir, State, TempDir) {
    let root = TempDir::with_files(
        "config-files",
        &[("rustkeep.toml", config), ("testmod/mod.toml", "[mod]\nid = \"testmod\"\nname = \"Test\"\nversion = \"0.1.0\"\n"), ("testmod/items.toml", items)],
    );
    let (state, core) = state_with_core(&root, Encoding::Utf16);
    (root, state, core)
}

/// Opens `path` with `text` and returns the position of the `$0` marker.
fn open(state: &mut State, path: &std::path::Path, text: &str) -> TextDocumentPositionParams {
    let offset = text.find(CURSOR).expect("a cursor");
    state.open(path.to_path_buf(), text.replace(CURSOR, ""), 2);
    state.refresh();
    let uri = rustkeep_lsp::uri::from_path(path);
    let fid = state.file_of(&uri).expect("a file of the project");
    TextDocumentPositionParams { text_document: TextDocumentIdentifier { uri }, position: state.position(fid, offset) }
}

fn hover_text(state: &State, p: &TextDocumentPositionParams) -> String {
    match hover::hover(state, p).expect("a hover").contents {
        Contents::MarkupContent(m) => m.value,
        other => panic!("markdown expected, got {other:?}"),
    }
}

#[test]
fn the_format_table_completes_and_explains_toml_version() {
    let (root, mut state, _core) = workspace("[workspace]\nmods = [\"testmod\"]\n", "");
    let p = open(&mut state, &root.join("rustkeep.toml"), "[workspace]\nmods = [\"testmod\"]\n\n[format]\nline_width = 90\n$0\n");
    let items = completion::completion(&state, &p).unwrap_or_default();
    // The keys not yet written, `line_width` being there already.
    assert_eq!(labels(&items), ["reorder_keys", "toml_version"]);
    let toml_version = items.iter().find(|i| i.label == "toml_version").unwrap();
    assert_eq!(toml_version.insert_text.as_deref(), Some("toml_version = "));
    let p = open(&mut state, &root.join("rustkeep.toml"), "[workspace]\nmods = [\"testmod\"]\n\n[format]\ntoml_$0version = \"1.1\"\n");
    let text = hover_text(&state, &p);
    assert!(text.starts_with("**toml_version** — `\"1.0\"` or `\"1.1\"`"), "{text}");
    assert!(text.contains("Python's `tomllib`") && text.contains("Default: `\"1.0\"`"), "{text}");
}

#[test]
fn the_mod_table_of_a_manifest_completes_and_explains_its_keys() {
    let (root, mut state, _core) = workspace("[workspace]\nmods = [\"testmod\"]\n", "");
    let manifest = root.join("testmod/mod.toml");
    let p = open(&mut state, &manifest, "[mod]\nid = \"testmod\"\n$0\n");
    let l = labels(&completion::completion(&state, &p).unwrap_or_default());
    assert!(l.contains(&"name".to_string()) && l.contains(&"version".to_string()) && l.contains(&"depends".to_string()), "{l:?}");
    assert!(!l.contains(&"id".to_string()), "`id` is written already: {l:?}");
    let p = open(&mut state, &manifest, "[mod]\nid = \"testmod\"\nname = \"Test\"\nver$0sion = \"0.1.0\"\n");
    let text = hover_text(&state, &p);
    assert!(text.starts_with("**version** — a semantic version such as `\"0.1.0\"`"), "{text}");
}

/// An inline table longer than the line width stays on one line by default (TOML 1.0 has no
/// multi-line inline tables); with `toml_version = "1.1"` it is written one key per line, in the
/// editor as on the command line.
#[test]
fn formatting_in_the_editor_follows_toml_version() {
    let long = "[[items]]\nid = \"testmod:a\"\nname = \"A\"\nslot = \"weapon\"\nmodifiers = [ { attribute = \"damage\", add = 5, condition = [ { check = \"health_below\", who = \"self\", value = 0.5 } ] } ]\n";
    for (config, multi_line) in [("", false), ("\n[format]\ntoml_version = \"1.0\"\n", false), ("\n[format]\ntoml_version = \"1.1\"\n", true)] {
        let (root, state, _core) = workspace(&format!("[workspace]\nmods = [\"testmod\"]\n{config}"), long);
        let uri = rustkeep_lsp::uri::from_path(&root.join("testmod/items.toml"));
        let fid = state.file_of(&uri).unwrap();
        let apply = |edits: Vec<TextEdit>| {
            let mut text = long.to_string();
            for e in edits.iter().rev() {
                let (s, t) = (state.offset(fid, e.range.start), state.offset(fid, e.range.end));
                text.replace_range(s..t, &e.new_text);
            }
            text
        };
        let text = apply(formatting::formatting(&state, &uri).expect("a project file"));
        let broken = text.lines().any(|l| l.trim_end().ends_with('{'));
        assert_eq!(broken, multi_line, "{config}:\n{text}");
        // A range over the `modifiers` line formats it the same way.
        let line = long.lines().position(|l| l.starts_with("modifiers")).unwrap() as u32;
        let range = Range { start: Position { line, character: 0 }, end: Position { line, character: 5 } };
        assert_eq!(apply(range_formatting::range_formatting(&state, &uri, range).expect("a project file")), text, "{config}");
    }
}
