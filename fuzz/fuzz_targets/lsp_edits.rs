//! (c) A sequence of LSP edits (insert, delete, replace at arbitrary positions — past the end of a
//! line or file, inside multi-byte characters and surrogate pairs — and whole-document
//! replacements) applied to the language server's document state in-process. After the edits:
//! diagnostics are computed, every published range lies inside the final text, they equal a fresh
//! `rustkeep check` of the same texts, and every request handler answers at a fuzzed position.
#![no_main]
// `range_length` is deprecated but part of the struct literal.
#![allow(deprecated)]

use std::path::PathBuf;
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rustkeep_data::project::{load, Overlay};
use rustkeep_data::text::{Encoding, LineCol, LineIndex};
use rustkeep_lsp::handlers;
use rustkeep_lsp::lsp::*;
use rustkeep_lsp::state::State;
use rustkeep_lsp::uri;

const START: &[&str] = &[
    include_str!("../../examples/fire_and_thorns/loot.toml"),
    include_str!("../../examples/rat_catcher/quests.toml"),
    include_str!("../../examples/fire_and_thorns/items.toml"),
    "# Umlaute Ä ö ü ß, emoji 🐀🔥\n[[items]]\nid = \"fz:ä\"\nname = \"Äxt 🪓\"\r\n\r\n[[loot_tables]]\nid = \"fz:t\"\nentries = [ { item = \"fz:ä\", weight = 1 } ]\n",
    "",
];

/// A workspace on disk with one mod `fz`: `data.toml` is the edited file, `other.toml` a file
/// it may reference or be referenced from.
fn workspace() -> &'static PathBuf {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("rustkeep-fuzz-lsp-{}", std::process::id()));
        let m = root.join("fz");
        std::fs::create_dir_all(&m).unwrap();
        std::fs::write(m.join("mod.toml"), rustkeep_fuzz::MANIFEST).unwrap();
        std::fs::write(m.join("data.toml"), "").unwrap();
        std::fs::write(m.join("other.toml"), "[[creatures]]\nid = \"fz:rat\"\nname = \"Rat\"\nloot = \"fz:t\"\n").unwrap();
        root
    })
}

#[derive(Arbitrary, Debug)]
enum Change {
    Edit {
        line: u16,
        col: u16,
        end_line: u16,
        end_col: u16,
        text: String,
    },
    /// Inserts a piece of text that is likely to matter.
    Snippet {
        line: u16,
        col: u16,
        which: u8,
    },
    Whole(String),
}

const SNIPPETS: &[&str] = &["ü", "🐀", "\r\n", "\n", "\"", "[[", "]]", "{", "}", "=", "fz:t", "core:gold", "\u{FEFF}", "\r", "'''", "#"];

#[derive(Arbitrary, Debug)]
struct Input {
    start: u8,
    utf8: bool,
    batches: Vec<Vec<Change>>,
    line: u16,
    col: u16,
}

fn pos(line: u16, col: u16) -> Position {
    // Small lines and columns are the interesting ones, with a few far past the end.
    let l = if line > 0xF000 { u32::from(line) * 1000 } else { u32::from(line % 64) };
    let c = if col > 0xF000 { u32::MAX - u32::from(col) } else { u32::from(col % 96) };
    Position { line: l, character: c }
}

fn valid(text: &str, idx: &LineIndex, p: Position, enc: Encoding) -> bool {
    if p.line as usize >= idx.line_count() {
        return false;
    }
    let span = idx.line_span(text, p.line as usize);
    let line = &text[span];
    let len = match enc {
        Encoding::Utf8 => line.len(),
        Encoding::Utf16 => line.chars().map(char::len_utf16).sum(),
        Encoding::Scalar => line.chars().count(),
    };
    p.character as usize <= len
}

fuzz_target!(|input: Input| {
    let root = workspace();
    let path = root.join("fz/data.toml");
    let enc = if input.utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
    let mut state = State::new(vec![root.clone()], enc, None);
    let start = START[input.start as usize % START.len()];
    state.open(path.clone(), start.to_string(), 1);
    let u = uri::from_path(&path);
    for (v, batch) in input.batches.iter().take(16).enumerate() {
        let changes = batch
            .iter()
            .take(16)
            .map(|c| match c {
                Change::Edit { line, col, end_line, end_col, text } => {
                    TextDocumentContentChangeEvent::TextDocumentContentChangePartial(TextDocumentContentChangePartial {
                        range: Range { start: pos(*line, *col), end: pos(*end_line, *end_col) },
                        range_length: None,
                        text: text.clone(),
                    })
                }
                Change::Snippet { line, col, which } => {
                    let p = pos(*line, *col);
                    TextDocumentContentChangeEvent::TextDocumentContentChangePartial(TextDocumentContentChangePartial {
                        range: Range { start: p, end: p },
                        range_length: None,
                        text: SNIPPETS[*which as usize % SNIPPETS.len()].to_string(),
                    })
                }
                Change::Whole(t) => {
                    TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(TextDocumentContentChangeWholeDocument { text: t.clone() })
                }
            })
            .collect();
        assert!(state.change(&path, v as i32 + 2, changes));
        // Interleave analyses with edits, as the debounced publisher does.
        if v % 3 == 0 {
            let _ = state.take_publish();
        }
    }
    let published = state.take_publish();
    let text = state.docs[&path].text.clone();

    // The published ranges lie inside the final text (as the project holds it).
    let fid = state.file_of(&u).expect("the edited file is part of the project");
    let ptext = state.text(fid).to_string();
    let pidx = LineIndex::new(&ptext);
    let mine = state.diagnostics_of(fid);
    for d in &mine {
        assert!(valid(&ptext, &pidx, d.range.start, enc) && valid(&ptext, &pidx, d.range.end, enc), "range {:?} of {d:?} outside the text {ptext:?}", d.range);
        assert!((d.range.start.line, d.range.start.character) <= (d.range.end.line, d.range.end.character));
    }
    if let Some((_, list, _)) = published.iter().find(|(x, _, _)| x == &u) {
        assert_eq!(list, &mine);
    }

    // Differential: the same as a fresh check of the final texts.
    let overlay: Overlay = [(path.clone(), std::sync::Arc::from(text.as_str()))].into_iter().collect();
    let project = load(std::slice::from_ref(root), root, &overlay);
    let fresh = rustkeep_check::analyze(&project);
    let ffid = project.file_by_disk_path(&path).expect("the file is found on disk");
    let f = project.file(ffid);
    let expect: Vec<(String, String, LineCol, LineCol)> = fresh
        .diagnostics
        .iter()
        .filter(|d| d.loc.file == ffid)
        .map(|d| {
            (d.code.name().to_string(), d.message.clone(), f.index.position(&f.text, d.loc.span.start, enc), f.index.position(&f.text, d.loc.span.end, enc))
        })
        .collect();
    let got: Vec<(String, String, LineCol, LineCol)> = mine
        .iter()
        .map(|d| {
            let Some(Code::String(code)) = &d.code else { panic!("string code expected") };
            let Message::String(msg) = &d.message else { panic!("plain message expected") };
            (
                code.clone(),
                msg.clone(),
                LineCol { line: d.range.start.line, col: d.range.start.character },
                LineCol { line: d.range.end.line, col: d.range.end.character },
            )
        })
        .collect();
    assert_eq!(got, expect, "the language server and a fresh check disagree on {text:?}");

    // Every handler answers at a fuzzed position.
    let tdp = TextDocumentPositionParams { text_document: TextDocumentIdentifier { uri: u.clone() }, position: pos(input.line, input.col) };
    let _ = handlers::completion::completion(&state, &tdp);
    let _ = handlers::hover::hover(&state, &tdp);
    let _ = handlers::definition::definition(&state, &tdp);
    let _ = handlers::references::references(&state, &tdp, true);
    let _ = handlers::document_highlight::document_highlight(&state, &tdp);
    let _ = handlers::rename::prepare(&state, &tdp);
    let _ = handlers::rename::rename(&state, &tdp, "fz:renamed");
    let whole = Range { start: Position { line: 0, character: 0 }, end: pos(input.line, input.col) };
    let _ = handlers::code_action::code_actions(&state, &u, whole);
    let _ = handlers::document_symbol::document_symbols(&state, &u);
    let _ = handlers::inlay_hint::inlay_hints(&state, &u, whole);
    let _ = handlers::semantic_tokens::full(&state, &u);
    let _ = handlers::workspace_symbol::workspace_symbols(&state, "fz");
});
