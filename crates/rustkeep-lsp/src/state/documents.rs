//! The open documents: text sync (`didOpen`, `didChange`, `didClose`), each call one revision.
//!
//! An edit to a data file that is already part of the project replaces that one source, to be
//! lowered again by the next refresh; an edit to a manifest, a workspace file or a file the
//! project does not know yet marks the project for a reload. The same rule takes the data files
//! changed on disk (see `state/reload.rs`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustkeep_data::source::{FileId, FileKind, SourceFile};
use rustkeep_data::text::LineIndex;

use super::{to_linecol, Dirty, Doc, State};
use crate::lsp;

impl State {
    pub fn open(&mut self, path: PathBuf, text: String, version: i32) {
        self.revision += 1;
        let doc = Doc { text, version };
        let analysed = doc.analysed().to_string();
        self.docs.insert(path.clone(), doc);
        self.source_changed(&path, analysed);
    }

    /// Applies content changes in order. Returns `false` (and changes nothing) for a document
    /// that was never opened.
    pub fn change(&mut self, path: &Path, version: i32, changes: Vec<lsp::TextDocumentContentChangeEvent>) -> bool {
        self.revision += 1;
        let enc = self.encoding;
        let Some(doc) = self.docs.get_mut(path) else { return false };
        for c in changes {
            match c {
                lsp::TextDocumentContentChangeEvent::TextDocumentContentChangeWholeDocument(w) => doc.text = w.text,
                lsp::TextDocumentContentChangeEvent::TextDocumentContentChangePartial(p) => {
                    let idx = LineIndex::new(&doc.text);
                    let start = idx.offset(&doc.text, to_linecol(p.range.start), enc);
                    let end = idx.offset(&doc.text, to_linecol(p.range.end), enc).max(start);
                    doc.text.replace_range(start..end, &p.text);
                }
            }
        }
        doc.version = version;
        let text = doc.analysed().to_string();
        self.source_changed(path, text);
        true
    }

    pub fn close(&mut self, path: &Path) {
        self.revision += 1;
        if self.docs.remove(path).is_none() {
            return;
        }
        // The disk content is in force again: a data file takes it like an edit (and goes back to
        // its outline); anything else, or a file that is not on disk, reloads.
        match (self.data_file(path), std::fs::read(path)) {
            (Some(_), Ok(bytes)) => self.source_changed(path, String::from_utf8_lossy(&bytes).into_owned()),
            _ => self.dirty = Dirty::Reload,
        }
    }

    /// The data file of the project at a disk path.
    pub(super) fn data_file(&self, path: &Path) -> Option<FileId> {
        self.by_path.get(path).copied().filter(|f| self.project.file(*f).kind == FileKind::Data)
    }

    pub(super) fn source_changed(&mut self, path: &Path, text: String) {
        if self.dirty == Dirty::Reload {
            return;
        }
        match self.data_file(path) {
            Some(fid) => {
                let open = self.docs.contains_key(path);
                let f = &mut self.project.files[fid.0 as usize];
                let (t, bad) = SourceFile::decode(text.as_bytes());
                if *f.text == *t {
                    // The same text; only the outline of a file just opened (or closed) changes.
                    if self.outlined.get(fid.0 as usize).copied() != Some(!open) {
                        self.mark(fid);
                    }
                    return;
                }
                f.index = Arc::new(LineIndex::new(&t));
                f.text = t;
                f.invalid_utf8_at = bad;
                self.mark(fid);
            }
            None => {
                // A manifest, a workspace file, or a file the project does not hold yet.
                if path.extension().is_some_and(|e| e == "toml") && !self.is_core_path(path) {
                    self.dirty = Dirty::Reload;
                }
            }
        }
    }

    fn mark(&mut self, fid: FileId) {
        match &mut self.dirty {
            Dirty::Files(set) => {
                set.insert(fid);
            }
            d => *d = Dirty::Files(BTreeSet::from([fid])),
        }
    }
}
