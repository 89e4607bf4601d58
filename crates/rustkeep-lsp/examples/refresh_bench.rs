//! How long the server takes to bring diagnostics up to date: a cold load, a reload (manifest
//! edit), and an incremental edit of one data file. Not a test: run it and read the report.
//!
//! `cargo run --release -p rustkeep-lsp --example refresh_bench -- [WORKSPACE] [EDITS]`

use std::path::PathBuf;
use std::time::Instant;

use rustkeep_data::text::Encoding;
use rustkeep_lsp::lsp::*;
use rustkeep_lsp::state::State;

fn main() {
    let mut args = std::env::args().skip(1);
    let root = args.next().map(PathBuf::from).unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples")));
    let edits: u32 = args.next().and_then(|n| n.parse().ok()).unwrap_or(200);
    let root = std::fs::canonicalize(&root).expect("workspace folder");

    let t = Instant::now();
    let mut state = State::new(vec![root.clone()], Encoding::Utf16, None);
    let first = state.take_publish();
    let cold = t.elapsed();
    let files = state.project.files.len();

    let Some(target) = state.project.files.iter().find(|f| !f.bundled && f.kind == rustkeep_data::source::FileKind::Data).and_then(|f| f.disk_path.clone())
    else {
        eprintln!("no data file below {}", root.display());
        return;
    };
    let text = std::fs::read_to_string(&target).unwrap();
    state.open(target.clone(), text.clone(), 1);
    state.take_publish();

    let t = Instant::now();
    for i in 0..edits {
        let new = format!("{text}\n# edit {i}\n");
        let change = TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(TextDocumentContentChangeWholeDocument { text: new });
        state.change(&target, 2 + i as i32, vec![change]);
        state.take_publish();
    }
    let incremental = t.elapsed() / edits.max(1);

    let t = Instant::now();
    let reloads = edits.clamp(1, 20);
    for _ in 0..reloads {
        state.disk_changed(&[root.join("rustkeep.toml")]);
        state.take_publish();
    }
    let reload = t.elapsed() / reloads;

    println!("workspace: {} ({files} files, {} published at start)", root.display(), first.len());
    println!("cold load + analysis + publish: {cold:?}");
    println!("incremental edit of {} (re-lower 1 file + cross-file rules): {incremental:?} per edit", target.display());
    println!("reload from disk (cached facts reused): {reload:?} per reload");
}
