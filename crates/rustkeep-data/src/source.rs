//! Sources, not paths (docs/ARCHITECTURE.md, invariant "Sources, not paths"): the loader validates `(path, text)` pairs; the
//! CLI reads them from disk, the language server overlays its open buffers.

use std::sync::Arc;

use crate::text::LineIndex;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A data file of a mod.
    Data,
    /// A `mod.toml`.
    Manifest,
    /// A `rustkeep.toml`.
    Workspace,
    /// A scenario of `rustkeep simulate` (docs/engine.md, "Scenario files").
    Scenario,
}

#[derive(Clone, Debug)]
pub struct SourceFile {
    pub id: FileId,
    /// The path shown to users: relative to the current directory where possible, `/`-separated.
    /// Files of the bundled core read `<core>/name.toml`.
    pub path: String,
    /// The file's absolute path on disk, if it has one.
    pub disk_path: Option<std::path::PathBuf>,
    /// The text without a leading byte-order mark.
    pub text: Arc<str>,
    pub index: Arc<LineIndex>,
    pub kind: FileKind,
    /// Part of the bundled core (compiled into the binary).
    pub bundled: bool,
    /// Byte offset of the first byte that is not UTF-8, if the file had one.
    pub invalid_utf8_at: Option<usize>,
}

impl SourceFile {
    pub fn new(id: FileId, path: String, text: Arc<str>, kind: FileKind) -> SourceFile {
        let index = Arc::new(LineIndex::new(&text));
        SourceFile { id, path, disk_path: None, text, index, kind, bundled: false, invalid_utf8_at: None }
    }

    /// Decodes file bytes: skips a UTF-8 byte-order mark and records where invalid UTF-8 starts.
    pub fn decode(bytes: &[u8]) -> (Arc<str>, Option<usize>) {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        match std::str::from_utf8(bytes) {
            Ok(s) => (Arc::from(s), None),
            Err(e) => (Arc::from(String::from_utf8_lossy(bytes).as_ref()), Some(e.valid_up_to())),
        }
    }
}
