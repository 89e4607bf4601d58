//! The conversions from LSP types to the crate's: URIs to project files (a served core file maps
//! to its bundled source) and positions to byte offsets in the negotiated encoding.

use rustkeep_data::project::CORE_PREFIX;
use rustkeep_data::source::FileId;
use rustkeep_data::text::LineCol;

use super::State;
use crate::lsp;
use crate::uri;

impl State {
    /// The project file a URI names (a served core file maps to its bundled source).
    pub fn file_of(&self, u: &lsp::Uri) -> Option<FileId> {
        let path = uri::to_path(u)?;
        if let Some(fid) = self.by_path.get(&path) {
            return Some(*fid);
        }
        let rel = path.strip_prefix(self.core_dir.as_deref()?).ok()?;
        let shown = format!("{CORE_PREFIX}/{}", rel.to_string_lossy().replace('\\', "/"));
        self.project.files.iter().find(|f| f.bundled && f.path == shown).map(|f| f.id)
    }

    pub fn offset(&self, fid: FileId, pos: lsp::Position) -> usize {
        let f = self.project.file(fid);
        f.index.offset(&f.text, to_linecol(pos), self.encoding)
    }

    /// The file and byte offset of a text-document position.
    pub fn locate(&self, p: &lsp::TextDocumentPositionParams) -> Option<(FileId, usize)> {
        let fid = self.file_of(&p.text_document.uri)?;
        Some((fid, self.offset(fid, p.position)))
    }
}

pub fn to_linecol(p: lsp::Position) -> LineCol {
    LineCol { line: p.line, col: p.character }
}
