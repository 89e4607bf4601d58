//! In-process tests of `textDocument/formatting` and `textDocument/rangeFormatting`: the edits,
//! applied as a client applies them (in UTF-16 and in UTF-8 positions), give exactly the text of
//! `rustkeep fmt` (`rustkeep_fmt::format_document`, which the command line writes) — or, for a
//! range, exactly its entries.

mod common;

use common::*;
use rustkeep_data::text::{Encoding, LineCol, LineIndex};
use rustkeep_fmt::{format_document, format_range, FileKind, FormatOptions};
use rustkeep_lsp::handlers::{formatting, range_formatting};
use rustkeep_lsp::lsp::*;

/// Applies LSP text edits the way a client does (positions in `enc`, edits against the original).
fn apply(text: &str, edits: &[TextEdit], enc: Encoding) -> String {
    let idx = LineIndex::new(text);
    let off = |p: Position| idx.offset(text, LineCol { line: p.line, col: p.character }, enc);
    let mut spans: Vec<(usize, usize, &str)> = edits.iter().map(|e| (off(e.range.start), off(e.range.end), e.new_text.as_str())).collect();
    spans.sort_by_key(|s| s.0);
    let mut out = String::new();
    let mut at = 0;
    for (s, e, t) in spans {
        assert!(s >= at, "overlapping edits");
        out.push_str(&text[at..s]);
        out.push_str(t);
        at = e;
    }
    out.push_str(&text[at..]);
    out
}

/// Non-ASCII before the changes on their lines, so that UTF-16 and UTF-8 columns differ.
const UNFORMATTED: &str = "# 🔥 Ätherbrand — a blade\n[[items]]\nname = \"🔥 Ätherbrand\"    \nid = \"testmod:brand\"\ntags=[\"testmod:fire\",]\n\n\n\n[[items]]\nname = \"Ö\"\nid = \"testmod:o\" # 🔥 comment   \ntriggers = [ { actions = [ { action = \"heal\", amount = 1, target = \"self\" } ], on = \"attack_hit\", chance = 0.5 } ]\n";

fn fixture(enc: Encoding) -> Fixture {
    let mut f = Fixture::new(&[("items.toml", "")], enc);
    f.open("items.toml", UNFORMATTED);
    f
}

#[test]
fn formatting_gives_the_command_lines_text_in_both_encodings() {
    let expected = format_document(UNFORMATTED, &FormatOptions::default()).unwrap();
    assert_ne!(expected, UNFORMATTED);
    for enc in [Encoding::Utf16, Encoding::Utf8] {
        let f = fixture(enc);
        let edits = formatting::formatting(&f.state, &f.uri("items.toml")).expect("a project file");
        assert_eq!(edits.len(), 1, "one edit: the changed middle");
        assert_eq!(apply(UNFORMATTED, &edits, enc), expected, "{enc:?}");
    }
}

#[test]
fn a_formatted_document_gets_no_edits() {
    let formatted = format_document(UNFORMATTED, &FormatOptions::default()).unwrap();
    let mut f = Fixture::new(&[("items.toml", "")], Encoding::Utf16);
    f.open("items.toml", &formatted);
    assert_eq!(formatting::formatting(&f.state, &f.uri("items.toml")), Some(vec![]));
}

#[test]
fn a_small_change_is_a_small_edit_at_the_right_column() {
    // Only trailing spaces after an emoji: the edit starts where the emoji's line ends.
    let text = "[[items]]\nid = \"testmod:a\"\nname = \"🔥🔥\"   \n";
    for (enc, col) in [(Encoding::Utf16, 13), (Encoding::Utf8, 17)] {
        let mut f = Fixture::new(&[("items.toml", "")], enc);
        f.open("items.toml", text);
        let edits = formatting::formatting(&f.state, &f.uri("items.toml")).unwrap();
        assert_eq!(edits.len(), 1);
        assert_eq!(edits[0].range.start, Position { line: 2, character: col }, "{enc:?}");
        assert_eq!(edits[0].new_text, "");
        assert_eq!(apply(text, &edits, enc), "[[items]]\nid = \"testmod:a\"\nname = \"🔥🔥\"\n");
    }
}

#[test]
fn range_formatting_formats_the_entries_the_range_touches() {
    for enc in [Encoding::Utf16, Encoding::Utf8] {
        let f = fixture(enc);
        let uri = f.uri("items.toml");
        let fid = f.state.file_of(&uri).unwrap();
        // A range inside the second entry's `triggers` line.
        let at = UNFORMATTED.find("triggers").unwrap();
        let range = Range { start: f.state.position(fid, at + 3), end: f.state.position(fid, at + 20) };
        let edits = range_formatting::range_formatting(&f.state, &uri, range).unwrap();
        let got = apply(UNFORMATTED, &edits, enc);
        assert_eq!(got, format_range(UNFORMATTED, at + 3..at + 20, &FormatOptions::default()).unwrap(), "{enc:?}");
        // The first entry is untouched; the second is exactly as `rustkeep fmt` writes it.
        assert!(got.starts_with("# 🔥 Ätherbrand — a blade\n[[items]]\nname = \"🔥 Ätherbrand\"    \n"), "{got}");
        let full = format_document(UNFORMATTED, &FormatOptions::default()).unwrap();
        let second = &full[full.rfind("\n[[items]]").unwrap()..];
        assert!(got.ends_with(second), "{got}");
        // A range over the whole document is the whole formatting.
        let all = Range { start: Position { line: 0, character: 0 }, end: f.state.position(fid, UNFORMATTED.len()) };
        let edits = range_formatting::range_formatting(&f.state, &uri, all).unwrap();
        assert_eq!(apply(UNFORMATTED, &edits, enc), full);
    }
}

#[test]
fn a_document_with_a_syntax_error_gets_no_edits_not_an_error() {
    let mut f = Fixture::new(&[("items.toml", "")], Encoding::Utf16);
    f.open("items.toml", "[[items]]\nid = \"testmod:a\"\nname = \"A\"  price = 3\n");
    assert_eq!(formatting::formatting(&f.state, &f.uri("items.toml")), Some(vec![]));
    let range = Range { start: Position { line: 0, character: 0 }, end: Position { line: 1, character: 0 } };
    assert_eq!(range_formatting::range_formatting(&f.state, &f.uri("items.toml"), range), Some(vec![]));
}

#[test]
fn the_workspace_format_options_and_the_files_kind_apply() {
    let root = TempDir::with_files(
        "fmt-options",
        &[
            ("rustkeep.toml", "[workspace]\nmods = [\"testmod\"]\n\n[format]\nline_width = 30\nreorder_keys = false\n"),
            ("testmod/mod.toml", "[mod]\nversion = \"0.1.0\"\nid = \"testmod\"\nname = \"Test\"\n"),
        ],
    );
    let items = "[[items]]\nname = \"A\"\nid = \"testmod:a\"\ntags = [\"testmod:x\", \"testmod:y\"]\n";
    root.write("testmod/items.toml", items);
    let (state, _core) = state_with_core(&root, Encoding::Utf16);
    let uri = rustkeep_lsp::uri::from_path(&root.join("testmod/items.toml"));
    let edits = formatting::formatting(&state, &uri).unwrap();
    let options = FormatOptions { line_width: 30, reorder_keys: false, kind: FileKind::Data, ..FormatOptions::default() };
    assert_eq!(apply(items, &edits, Encoding::Utf16), format_document(items, &options).unwrap());
    assert!(apply(items, &edits, Encoding::Utf16).contains("name = \"A\"\nid = \"testmod:a\"\ntags = [\n"));
    // mod.toml has its own key order (here switched off by the workspace).
    let manifest = rustkeep_lsp::uri::from_path(&root.join("testmod/mod.toml"));
    assert_eq!(formatting::formatting(&state, &manifest), Some(vec![]));
}

#[test]
fn files_of_the_read_only_core_and_unknown_files_get_nothing() {
    let f = fixture(Encoding::Utf16);
    let core_items = f.state.project.files.iter().find(|x| x.bundled).map(|x| x.id).unwrap();
    let uri = f.state.file_uri(core_items).unwrap();
    assert_eq!(formatting::formatting(&f.state, &uri), Some(vec![]));
    let dir = TempDir::new("elsewhere");
    let elsewhere = rustkeep_lsp::uri::from_path(&dir.join("Cargo.toml"));
    assert_eq!(formatting::formatting(&f.state, &elsewhere), None);
}

#[test]
fn both_methods_are_advertised() {
    let caps = rustkeep_lsp::server::capabilities(Encoding::Utf16);
    assert!(matches!(caps.document_formatting_provider, Some(DocumentFormattingProvider::Bool(true))), "{:?}", caps.document_formatting_provider);
    assert!(
        matches!(caps.document_range_formatting_provider, Some(DocumentRangeFormattingProvider::Bool(true))),
        "{:?}",
        caps.document_range_formatting_provider
    );
}
