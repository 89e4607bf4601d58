//! Fixtures for the in-process tests: a temporary workspace on disk, a `State` over it, and files
//! with a `$0` cursor marker.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use rustkeep_data::text::Encoding;
use rustkeep_lsp::lsp::*;
use rustkeep_lsp::state::State;
use rustkeep_lsp::uri;
#[allow(unused_imports)]
pub use rustkeep_testutil::{copy_dir, file_uri, LspClient, TempDir};

pub mod client;

pub const CURSOR: &str = "$0";

pub fn examples() -> PathBuf {
    rustkeep_testutil::repo_path("examples")
}

/// A fresh workspace holding copies of the example mods `mods`.
pub fn examples_workspace(mods: &[&str]) -> TempDir {
    let ws = TempDir::new("examples");
    for m in mods {
        copy_dir(&examples().join(m), &ws.join(m));
    }
    ws
}

/// A state over the workspace `root`, the bundled core served from memory.
pub fn state_over(root: &Path, enc: Encoding) -> State {
    State::new(vec![root.to_path_buf()], enc, None)
}

/// A copy of the rat-catcher example and a state over it (UTF-16), its first diagnostics taken.
pub fn rat_catcher_loaded() -> (TempDir, State) {
    let root = examples_workspace(&["rat_catcher"]);
    let mut state = state_over(&root, Encoding::Utf16);
    state.take_publish();
    (root, state)
}

/// A state over the workspace `root` with the bundled core written to a folder of its own, as the
/// server serves it; the folder lasts as long as the `TempDir` returned with the state.
pub fn state_with_core(root: &Path, enc: Encoding) -> (State, TempDir) {
    let core = TempDir::new("core");
    let core_dir = rustkeep_data::project::core_files::materialize(&core).expect("the core can be written");
    (State::new(vec![root.to_path_buf()], enc, Some(core_dir)), core)
}

/// A workspace with one mod `testmod` holding `files` (a `mod.toml` is added: a content pack, so
/// that a test of one file hears nothing of entries the rest of a real mod would give or place).
pub struct Fixture {
    pub root: TempDir,
    pub state: State,
    _core: TempDir,
}

impl Fixture {
    pub fn new(files: &[(&str, &str)], enc: Encoding) -> Fixture {
        let root = TempDir::with_files("ws", &[("testmod/mod.toml", "[mod]\nid = \"testmod\"\nname = \"Test\"\nversion = \"0.1.0\"\nlibrary = true\n")]);
        for (rel, text) in files {
            root.write(&format!("testmod/{rel}"), text.replace(CURSOR, ""));
        }
        let (state, _core) = state_with_core(&root, enc);
        Fixture { root, state, _core }
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
