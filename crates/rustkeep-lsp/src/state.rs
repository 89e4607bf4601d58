//! The workspace as the server sees it.
//!
//! One [`State`] lives behind one mutex. Text-sync notifications mutate it in arrival order;
//! requests first bring the analysis up to date ([`State::refresh`]) and then read it.
//!
//! Incrementality: an edit to a data file that is already part of the project replaces that one
//! source and re-lowers only it (`rustkeep_check::lower_source`); the cross-file rules then run over
//! the cached facts of every other file (`analyze_with`). Edits to manifests, workspace files, or
//! files the project does not know yet, and watched-file events, reload the project from disk with
//! the open buffers as overlay; facts of files whose text did not change are reused.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustkeep_check::{analyze_with, lower_source, Analysis};
use rustkeep_data::diag::{Diagnostic, Severity};
use rustkeep_data::lower::FileFacts;
use rustkeep_data::project::{load, Overlay, Project, CORE_PREFIX};
use rustkeep_data::source::{FileId, FileKind};
use rustkeep_data::text::{Encoding, LineCol, LineIndex, Span};

use crate::lsp;
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
    /// What each URI was last sent, so that only changes are published.
    published: HashMap<String, Vec<lsp::Diagnostic>>,
    /// Bumped on every change; the debounced publisher only runs for the latest one.
    pub generation: u64,
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
            published: HashMap::new(),
            generation: 0,
            last_lowered: 0,
        };
        s.refresh();
        s
    }

    // ----- text sync -------------------------------------------------------------------------

    pub fn open(&mut self, path: PathBuf, text: String, version: i32) {
        self.docs.insert(path.clone(), Doc { text: text.clone(), version });
        self.source_changed(&path, text);
    }

    /// Applies content changes in order. Returns `false` (and changes nothing) for a document
    /// that was never opened.
    pub fn change(&mut self, path: &Path, version: i32, changes: Vec<lsp::TextDocumentContentChangeEvent>) -> bool {
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
        if self.docs.remove(path).is_some() {
            // The disk content is in force again.
            self.dirty = Dirty::Reload;
            self.generation += 1;
        }
    }

    /// Files changed on disk (watched-file notifications). Open buffers keep shadowing them.
    pub fn disk_changed(&mut self, paths: &[PathBuf]) {
        if paths.iter().any(|p| !self.docs.contains_key(p)) {
            self.dirty = Dirty::Reload;
            self.generation += 1;
        }
    }

    fn source_changed(&mut self, path: &Path, text: String) {
        self.generation += 1;
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

    /// Brings the analysis up to date. Cheap when nothing changed.
    pub fn refresh(&mut self) {
        let dirty = std::mem::replace(&mut self.dirty, Dirty::Clean);
        let facts = match dirty {
            Dirty::Clean => return,
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
    }

    /// The diagnostics to publish since the last call: `(uri, diagnostics, version)` for every
    /// user file whose list changed (all of them the first time; empty lists clear files that
    /// left the project or became clean).
    pub fn take_publish(&mut self) -> Vec<(lsp::Uri, Vec<lsp::Diagnostic>, Option<i32>)> {
        self.take_publish_where(false)
    }

    /// Like [`State::take_publish`], for the files open in the editor only; the others keep
    /// their pending changes for the next `take_publish`.
    pub fn take_publish_open(&mut self) -> Vec<(lsp::Uri, Vec<lsp::Diagnostic>, Option<i32>)> {
        self.take_publish_where(true)
    }

    fn take_publish_where(&mut self, open_only: bool) -> Vec<(lsp::Uri, Vec<lsp::Diagnostic>, Option<i32>)> {
        self.refresh();
        let mut now: HashMap<String, (lsp::Uri, Vec<lsp::Diagnostic>, Option<i32>)> = HashMap::new();
        let mut fids: HashMap<FileId, String> = HashMap::new();
        for f in &self.project.files {
            if f.bundled {
                continue;
            }
            let Some(p) = &f.disk_path else { continue };
            let version = self.docs.get(p).map(|d| d.version);
            if open_only && version.is_none() {
                continue;
            }
            let u = uri::from_path(p);
            let key = u.as_ref().to_string();
            fids.insert(f.id, key.clone());
            now.entry(key).or_insert((u, Vec::new(), version));
        }
        for d in &self.analysis.diagnostics {
            let Some(key) = fids.get(&d.loc.file) else { continue };
            if let Some(slot) = now.get_mut(key) {
                slot.1.push(self.to_lsp_diagnostic(d));
            }
        }
        let mut out = Vec::new();
        for (key, (u, diags, version)) in &now {
            if self.published.get(key) != Some(diags) {
                out.push((u.clone(), diags.clone(), *version));
            }
        }
        if open_only {
            self.published.extend(now.into_iter().map(|(k, (_, d, _))| (k, d)));
        } else {
            for key in self.published.keys() {
                if !now.contains_key(key) {
                    out.push((lsp::Uri::from(key.clone()), Vec::new(), None));
                }
            }
            self.published = now.into_iter().map(|(k, (_, d, _))| (k, d)).collect();
        }
        out.sort_by(|a, b| a.0.as_ref().cmp(b.0.as_ref()));
        out
    }

    /// The current diagnostics of one file, as LSP diagnostics.
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
