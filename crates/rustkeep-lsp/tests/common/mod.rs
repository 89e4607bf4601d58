//! Fixtures for the in-process tests: a temporary workspace on disk, a `State` over it, and files
//! with a `$0` cursor marker.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use rustkeep_data::text::Encoding;
use rustkeep_lsp::lsp::*;
use rustkeep_lsp::state::State;
use rustkeep_lsp::uri;

pub mod client;

pub const CURSOR: &str = "$0";

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh folder below the target directory's temp area.
pub fn temp_dir(tag: &str) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("rustkeep-lsp-test-{}-{tag}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[allow(unused_imports)]
pub use rustkeep_testutil::copy_dir;

pub fn examples() -> PathBuf {
    rustkeep_testutil::repo_path("examples")
}

/// A workspace with one mod `testmod` holding `files` (a `mod.toml` is added: a content pack, so
/// that a test of one file hears nothing of entries the rest of a real mod would give or place).
pub struct Fixture {
    pub root: PathBuf,
    pub state: State,
}

impl Fixture {
    pub fn new(files: &[(&str, &str)], enc: Encoding) -> Fixture {
        let root = temp_dir("ws");
        write(&root, "testmod/mod.toml", "[mod]\nid = \"testmod\"\nname = \"Test\"\nversion = \"0.1.0\"\nlibrary = true\n");
        for (rel, text) in files {
            write(&root, &format!("testmod/{rel}"), &text.replace(CURSOR, ""));
        }
        let core = rustkeep_lsp::core_files::materialize(&temp_dir("core")).unwrap();
        let state = State::new(vec![root.clone()], enc, Some(core));
        Fixture { root, state }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join("testmod").join(rel)
    }

    pub fn uri(&self, rel: &str) -> Uri {
        uri::from_path(&self.path(rel))
    }

    /// Opens `rel` with `text` (cursor marker removed) and returns the cursor's position params.
    pub fn open(&mut self, rel: &str, text: &str) -> TextDocumentPositionParams {
        let offset = text.find(CURSOR).unwrap_or(0);
        let clean = text.replace(CURSOR, "");
        self.state.open(self.path(rel), clean, 1);
        self.state.refresh();
        let fid = self.state.file_of(&self.uri(rel)).expect("the opened file is part of the project");
        TextDocumentPositionParams { text_document: TextDocumentIdentifier { uri: self.uri(rel) }, position: self.state.position(fid, offset) }
    }
}

pub fn labels(items: &[CompletionItem]) -> Vec<String> {
    items.iter().map(|i| i.label.clone()).collect()
}
