//! The workspace as the server sees it.
//!
//! [`State`] is a plain synchronous model: text-sync calls ([`State::open`], [`State::change`], …)
//! record changes, [`State::refresh`] brings the analysis up to date, and the handlers read it.
//! The server keeps one `State` behind one mutex and decides who calls what when (see
//! [`crate::server`]); in-process tests drive it directly.
//!
//! Every text-sync call advances [`State::revision`]; an analysis reflects the revision it was
//! computed at, and [`State::diagnostics_batch`] tags its lists with it, so that the publisher can
//! refuse to go backwards (see [`crate::publish`]).
//!
//! Incrementality: an edit to a data file that is already part of the project replaces that one
//! source and re-lowers only it (`rustkeep_check::lower_source`); the cross-file rules then run over
//! the cached facts of every other file (`analyze_with`). Edits to manifests, workspace files, or
//! files the project does not know yet, and watched-file events, reload the project from disk with
//! the open buffers as overlay; facts of files whose text did not change are reused.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rustkeep_check::{analyze_with, lower_source, Analysis};
use rustkeep_data::diag::{Diagnostic, Severity};
use rustkeep_data::lower::FileFacts;
use rustkeep_data::project::{load, Overlay, Project, CORE_PREFIX};
use rustkeep_data::source::{FileId, FileKind};
use rustkeep_data::text::{Encoding, LineCol, LineIndex, Span};
use rustkeep_engine::loot::LootDb;

use crate::lsp;
use crate::publish::{Batch, FileDiagnostics, Publication, Publisher};
use crate::uri;

/// An open buffer.
#[derive(Clone, Debug)]
pub struct Doc {
    pub text: String,
    pub version: i32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Dirty {
    Clean,
    Files(BTreeSet<FileId>),
    Reload,
}

pub struct State {
    /// Workspace folders given at `initialize`.
    pub roots: Vec<PathBuf>,
    pub encoding: Encoding,
    /// Open buffers by absolute path.
    pub docs: HashMap<PathBuf, Doc>,
    pub project: Project,
    pub analysis: Analysis,
    /// Where the bundled core is served from (see [`crate::core_files`]).
    pub core_dir: Option<PathBuf>,
    /// Lowered facts by display path: reused after a reload when the file id and text are unchanged.
    cache: HashMap<String, (FileId, Arc<str>, Arc<FileFacts>)>,
    dirty: Dirty,
    /// The loot tables of the current analysis, built on first use (hover, inlay hints).
    loot: OnceLock<LootDb>,
    /// Publication for in-process drivers ([`State::take_publish`]); the server has its own.
    publisher: Publisher,
    /// The number of text-sync calls applied so far (open, change, close, files changed on disk).
    pub revision: u64,
    /// How many files were lowered by the last refresh (for tests and logs).
    pub last_lowered: usize,
}

impl State {
    pub fn new(roots: Vec<PathBuf>, encoding: Encoding, core_dir: Option<PathBuf>) -> State {
        let mut s = State {
            roots,
            encoding,
            docs: HashMap::new(),
            project: Project::default(),
            analysis: Analysis::default(),
            core_dir,
            cache: HashMap::new(),
            dirty: Dirty::Reload,
            loot: OnceLock::new(),
            publisher: Publisher::default(),
            revision: 0,
            last_lowered: 0,
        };
        s.refresh();
        s
    }

    // ----- text sync -------------------------------------------------------------------------

    pub fn open(&mut self, path: PathBuf, text: String, version: i32) {
        self.revision += 1;
        self.docs.insert(path.clone(), Doc { text: text.clone(), version });
        self.source_changed(&path, text);
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
        let text = doc.text.clone();
        self.source_changed(path, text);
        true
    }

    pub fn close(&mut self, path: &Path) {
        self.revision += 1;
        if self.docs.remove(path).is_some() {
            // The disk content is in force again.
            self.dirty = Dirty::Reload;
        }
    }

    /// Reads every file that is not open from disk again (a save or an open, when the client
    /// cannot watch files: changes made outside the editor arrive this way).
    pub fn reload_from_disk(&mut self) {
        self.revision += 1;
        self.dirty = Dirty::Reload;
    }

    /// Files changed on disk (watched-file notifications). Open buffers keep shadowing them.
    pub fn disk_changed(&mut self, paths: &[PathBuf]) {
        self.revision += 1;
        if paths.iter().any(|p| !self.docs.contains_key(p)) {
            self.dirty = Dirty::Reload;
        }
    }

    fn source_changed(&mut self, path: &Path, text: String) {
        if self.dirty == Dirty::Reload {
            return;
        }
        let fid = self.project.file_by_disk_path(path);
        match fid {
            Some(fid) if self.project.file(fid).kind == FileKind::Data => {
                let f = &mut self.project.files[fid.0 as usize];
                if *f.text == *text {
                    return;
                }
                let (t, bad) = rustkeep_data::source::SourceFile::decode(text.as_bytes());
                f.index = Arc::new(LineIndex::new(&t));
                f.text = t;
                f.invalid_utf8_at = bad;
                match &mut self.dirty {
                    Dirty::Files(set) => {
                        set.insert(fid);
                    }
                    d => *d = Dirty::Files(BTreeSet::from([fid])),
                }
            }
            _ => {
                // A manifest, a workspace file, or a file the project does not hold yet.
                if path.extension().is_some_and(|e| e == "toml") && !self.is_core_path(path) {
                    self.dirty = Dirty::Reload;
                }
            }
        }
    }

    pub fn is_dirty(&self) -> bool {
        self.dirty != Dirty::Clean
    }

    // ----- analysis --------------------------------------------------------------------------

    /// The paths the project is loaded from: the workspace folders, plus the mod folder of every
    /// open file that lies outside them (an editor opened on a single file still gets checking).
    fn load_paths(&self) -> Vec<PathBuf> {
        let mut paths = self.roots.clone();
        for p in self.docs.keys() {
            if self.roots.iter().any(|r| p.starts_with(r)) || self.is_core_path(p) {
                continue;
            }
            let mut dir = p.parent();
            while let Some(d) = dir {
                if d.join("mod.toml").is_file() {
                    if !paths.iter().any(|x| x == d) {
                        paths.push(d.to_path_buf());
                    }
                    break;
                }
                dir = d.parent();
            }
        }
        paths
    }

    /// Brings the analysis up to date. Cheap when nothing changed. Returns whether anything was
    /// recomputed.
    ///
    /// While it works the state is marked for a full reload, so that a panic caught around it
    /// (the server's guard) leaves a state that rebuilds itself on the next call instead of one
    /// whose facts were taken and never put back.
    pub fn refresh(&mut self) -> bool {
        let dirty = std::mem::replace(&mut self.dirty, Dirty::Reload);
        let facts = match dirty {
            Dirty::Clean => {
                self.dirty = Dirty::Clean;
                return false;
            }
            Dirty::Files(set) => {
                let mut facts = std::mem::take(&mut self.analysis.db.facts);
                facts.resize(self.project.files.len(), None);
                for fid in &set {
                    facts[fid.0 as usize] = lower_source(self.project.file(*fid));
                }
                self.last_lowered = set.len();
                facts
            }
            Dirty::Reload => {
                let overlay: Overlay = self.docs.iter().map(|(p, d)| (p.clone(), Arc::from(d.text.as_str()))).collect();
                let paths = self.load_paths();
                let cwd = self.roots.first().cloned().or_else(|| paths.first().cloned()).unwrap_or_else(|| std::env::current_dir().unwrap_or_default());
                self.project = if paths.is_empty() { Project::with_bundled_core() } else { load(&paths, &cwd, &overlay) };
                self.last_lowered = 0;
                let mut facts = Vec::with_capacity(self.project.files.len());
                for f in &self.project.files {
                    let cached = self.cache.get(&f.path).filter(|(id, t, _)| *id == f.id && **t == *f.text).map(|(_, _, ff)| ff.clone());
                    match cached {
                        Some(ff) => facts.push(Some(ff)),
                        None => {
                            let ff = lower_source(f);
                            self.last_lowered += usize::from(ff.is_some());
                            facts.push(ff);
                        }
                    }
                }
                facts
            }
        };
        self.cache.clear();
        for (f, ff) in self.project.files.iter().zip(&facts) {
            if let Some(ff) = ff {
                self.cache.insert(f.path.clone(), (f.id, f.text.clone(), ff.clone()));
            }
        }
        self.analysis = analyze_with(&self.project, facts);
        self.loot = OnceLock::new();
        self.dirty = Dirty::Clean;
        true
    }

    /// The loot tables of the current analysis (exact chances for hover and inlay hints), built
    /// once per analysis.
    pub fn loot_db(&self) -> &LootDb {
        self.loot.get_or_init(|| LootDb::new(&self.analysis.db))
    }

    /// The diagnostics to publish since the last call, for in-process drivers: `(uri,
    /// diagnostics, version)` for every user file whose list changed (all of them the first
    /// time; empty lists clear files that left the project or became clean).
    pub fn take_publish(&mut self) -> Vec<Publication> {
        let batch = self.diagnostics_batch();
        self.publisher.accept(batch)
    }

    /// Brings the analysis up to date and lists the diagnostics of every user file, tagged with
    /// the revision they were computed from and the version of each open document.
    pub fn diagnostics_batch(&mut self) -> Batch {
        self.refresh();
        let mut lists: HashMap<FileId, Vec<lsp::Diagnostic>> = HashMap::new();
        for d in &self.analysis.diagnostics {
            lists.entry(d.loc.file).or_default().push(self.to_lsp_diagnostic(d));
        }
        let mut files = Vec::new();
        for f in &self.project.files {
            if f.bundled {
                continue;
            }
            let Some(p) = &f.disk_path else { continue };
            let version = self.docs.get(p).map(|d| d.version);
            let diagnostics = Arc::new(lists.remove(&f.id).unwrap_or_default());
            files.push(FileDiagnostics { uri: uri::from_path(p), version, diagnostics });
        }
        Batch { revision: self.revision, files }
    }

    /// The current diagnostics of one file, as LSP diagnostics (the fuzz target's differential
    /// check reads them).
    pub fn diagnostics_of(&self, fid: FileId) -> Vec<lsp::Diagnostic> {
        self.analysis.diagnostics.iter().filter(|d| d.loc.file == fid).map(|d| self.to_lsp_diagnostic(d)).collect()
    }

    pub fn to_lsp_diagnostic(&self, d: &Diagnostic) -> lsp::Diagnostic {
        let related: Vec<lsp::DiagnosticRelatedInformation> = d
            .related
            .iter()
            .filter_map(|r| Some(lsp::DiagnosticRelatedInformation { location: self.location(r.loc.file, &r.loc.span)?, message: r.message.clone() }))
            .collect();
        let data = d.fix.as_ref().map(|f| serde_json::json!({ "fix": { "message": f.message, "replacement": f.replacement } }));
        lsp::Diagnostic {
            range: self.range(d.loc.file, &d.loc.span),
            severity: Some(match d.severity {
                Severity::Error => lsp::DiagnosticSeverity::Error,
                Severity::Warning => lsp::DiagnosticSeverity::Warning,
            }),
            code: Some(lsp::Code::String(d.code.name().to_string())),
            source: Some("rustkeep".into()),
            message: lsp::Message::String(d.message.clone()),
            related_information: (!related.is_empty()).then_some(related),
            data,
            ..Default::default()
        }
    }

    // ----- files, URIs, positions ------------------------------------------------------------

    fn is_core_path(&self, path: &Path) -> bool {
        self.core_dir.as_deref().is_some_and(|d| path.starts_with(d))
    }

    /// The project file a URI names (a served core file maps to its bundled source).
    pub fn file_of(&self, u: &lsp::Uri) -> Option<FileId> {
        let path = uri::to_path(u)?;
        if let Some(fid) = self.project.file_by_disk_path(&path) {
            return Some(fid);
        }
        let rel = path.strip_prefix(self.core_dir.as_deref()?).ok()?;
        let shown = format!("{CORE_PREFIX}/{}", rel.to_string_lossy().replace('\\', "/"));
        self.project.files.iter().find(|f| f.bundled && f.path == shown).map(|f| f.id)
    }

    pub fn file_uri(&self, fid: FileId) -> Option<lsp::Uri> {
        let f = self.project.files.get(fid.0 as usize)?;
        if let Some(p) = &f.disk_path {
            return Some(uri::from_path(p));
        }
        if f.bundled {
            let name = f.path.strip_prefix(CORE_PREFIX)?.trim_start_matches('/');
            return Some(uri::from_path(&self.core_dir.as_ref()?.join(name)));
        }
        None
    }

    pub fn position(&self, fid: FileId, offset: usize) -> lsp::Position {
        let f = self.project.file(fid);
        let lc = f.index.position(&f.text, offset, self.encoding);
        lsp::Position { line: lc.line, character: lc.col }
    }

    pub fn range(&self, fid: FileId, span: &Span) -> lsp::Range {
        lsp::Range { start: self.position(fid, span.start), end: self.position(fid, span.end) }
    }

    pub fn location(&self, fid: FileId, span: &Span) -> Option<lsp::Location> {
        Some(lsp::Location { uri: self.file_uri(fid)?, range: self.range(fid, span) })
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

    pub fn text(&self, fid: FileId) -> &str {
        &self.project.file(fid).text
    }

    pub fn facts(&self, fid: FileId) -> Option<&FileFacts> {
        self.analysis.db.facts.get(fid.0 as usize)?.as_deref()
    }

    /// The mod a file belongs to.
    pub fn mod_of(&self, fid: FileId) -> Option<&rustkeep_data::project::ModInfo> {
        self.project.mods.iter().find(|m| m.data_files.contains(&fid) || m.manifest_file == Some(fid))
    }
}

pub fn to_linecol(p: lsp::Position) -> LineCol {
    LineCol { line: p.line, col: p.character }
}
