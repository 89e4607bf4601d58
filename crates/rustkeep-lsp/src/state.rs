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
//! Incrementality: an edit to a data file that is already part of the project (typing, closing a
//! document, a change on disk) replaces that one source and re-lowers only it; the analysis
//! ([`rustkeep_check::incremental::Incremental`]) then runs again only what the file's facts can
//! affect, and only the files whose diagnostics changed are converted for the client. Edits to
//! manifests, workspace files, or files the project does not know yet reload the project from
//! disk with the open buffers as overlay; facts of files whose text did not change are reused.
//! A rescan (a save or an open, when the client cannot watch files) compares the files on disk
//! with their stamps at the last load and reloads only when files were added, removed or renamed
//! or a manifest or workspace file changed; changed data files are taken like edits.
//! Files that are not open keep only their outline ([`crate::outline`]).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rustkeep_check::incremental::Incremental;
use rustkeep_data::db::Database;
use rustkeep_data::diag::{Diagnostic, Severity};
use rustkeep_data::lower::FileFacts;
use rustkeep_data::project::{load, Overlay, Project, CORE_PREFIX};
use rustkeep_data::source::{FileId, FileKind, SourceFile};
use rustkeep_data::text::{Encoding, LineCol, LineIndex, Span};
use rustkeep_engine::loot::{LootError, LootReport};

use crate::disk::{Rescan, Snapshot};
use crate::loot_cache::LootCache;
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

/// How a refresh ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refreshed {
    /// Nothing had changed.
    Unchanged,
    /// The analysis is up to date.
    Done,
    /// Given up because a newer change arrived (see [`State::refresh_until`]); still dirty.
    Cancelled,
}

/// How long the phases of the last analysis took, for `RUSTKEEP_LSP_PROFILE`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Phases {
    /// Applying queued text changes (measured by the server).
    pub apply: Duration,
    /// Loading the project (a reload) and lowering the changed files.
    pub lower: Duration,
    /// Indexing the changed files and resolving what they touch.
    pub resolve: Duration,
    /// The cross-file rules and finishing the files whose lists changed.
    pub rules: Duration,
    /// Converting the changed lists for the client and building the batch (and, in the server,
    /// publishing it).
    pub publish: Duration,
    /// Files lowered and files whose diagnostics changed.
    pub lowered: usize,
    pub changed: usize,
}

impl std::fmt::Display for Phases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        write!(
            f,
            "apply {:.1} ms, lower {:.1} ms ({} files), resolve {:.1} ms, rules {:.1} ms, publish {:.1} ms ({} files changed)",
            ms(self.apply),
            ms(self.lower),
            self.lowered,
            ms(self.resolve),
            ms(self.rules),
            ms(self.publish),
            self.changed
        )
    }
}

/// A user file the client gets diagnostics for, and the list it gets now.
#[derive(Clone, Debug)]
struct Listed {
    path: PathBuf,
    uri: lsp::Uri,
    diagnostics: Arc<Vec<lsp::Diagnostic>>,
}

/// Lowered facts kept for the next reload, by display path.
#[derive(Clone, Debug)]
struct Cached {
    id: FileId,
    text: Arc<str>,
    facts: Arc<FileFacts>,
    outlined: bool,
}

pub struct State {
    /// Workspace folders given at `initialize`.
    pub roots: Vec<PathBuf>,
    pub encoding: Encoding,
    /// Open buffers by absolute path.
    pub docs: HashMap<PathBuf, Doc>,
    pub project: Project,
    /// Where the bundled core is served from (see [`crate::core_files`]).
    pub core_dir: Option<PathBuf>,
    analysis: Incremental,
    /// Project files by disk path.
    by_path: HashMap<PathBuf, FileId>,
    /// Per file: whether its facts are only its outline.
    outlined: Vec<bool>,
    cache: HashMap<String, Cached>,
    dirty: Dirty,
    /// Per file: the client's view of it, for user files on disk.
    listed: Vec<Option<Listed>>,
    /// Exact loot reports (hover).
    loot: Mutex<LootCache>,
    /// Publication for in-process drivers ([`State::take_publish`]); the server has its own.
    publisher: Publisher,
    /// The number of text-sync calls applied so far (open, change, close, files changed on disk).
    pub revision: u64,
    /// How many files were lowered by the last refresh (for tests and logs).
    pub last_lowered: usize,
    /// The phases of the last refresh.
    pub phases: Phases,
    /// How many times the project was loaded from disk as a whole (for tests and logs).
    pub loads: u64,
    /// The `*.toml` files under the load paths when the project was last loaded, for rescans.
    disk: Option<Snapshot>,
}

impl State {
    pub fn new(roots: Vec<PathBuf>, encoding: Encoding, core_dir: Option<PathBuf>) -> State {
        let mut s = State {
            roots,
            encoding,
            docs: HashMap::new(),
            project: Project::default(),
            core_dir,
            analysis: Incremental::new(&Project::default(), Vec::new()),
            by_path: HashMap::new(),
            outlined: Vec::new(),
            cache: HashMap::new(),
            dirty: Dirty::Reload,
            listed: Vec::new(),
            loot: Mutex::new(LootCache::default()),
            publisher: Publisher::default(),
            revision: 0,
            last_lowered: 0,
            phases: Phases::default(),
            loads: 0,
            disk: None,
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

    /// Finds what changed on disk outside the editor (a save or an open, when the client cannot
    /// watch files: such changes arrive this way). The files under the load paths are compared
    /// with their stamps at the last load ([`crate::disk`]): data files that changed are read
    /// again as edits; files added, removed or renamed, or a changed manifest or workspace file,
    /// reload the project.
    pub fn reload_from_disk(&mut self) {
        self.revision += 1;
        if self.dirty == Dirty::Reload {
            return;
        }
        let paths = self.load_paths();
        let (Some(before), Some(now)) = (&self.disk, Snapshot::take(&paths)) else {
            self.dirty = Dirty::Reload;
            return;
        };
        let changed = match before.compare(&now) {
            Rescan::Changed(changed) => changed,
            Rescan::Different => {
                self.dirty = Dirty::Reload;
                return;
            }
        };
        self.disk = Some(now);
        let changed: Vec<PathBuf> = changed.into_iter().filter(|p| !self.docs.contains_key(p) && !self.is_core_path(p)).collect();
        self.disk_changed_quietly(&changed);
    }

    /// Files changed on disk (watched-file notifications). Open buffers keep shadowing them.
    pub fn disk_changed(&mut self, paths: &[PathBuf]) {
        self.revision += 1;
        self.disk_changed_quietly(paths);
    }

    /// [`State::disk_changed`] without a new revision.
    fn disk_changed_quietly(&mut self, paths: &[PathBuf]) {
        for p in paths {
            if self.docs.contains_key(p) || self.is_core_path(p) {
                continue;
            }
            match (self.data_file(p), std::fs::read(p)) {
                (Some(_), Ok(bytes)) => self.source_changed(p, String::from_utf8_lossy(&bytes).into_owned()),
                _ => self.dirty = Dirty::Reload,
            }
        }
    }

    /// The data file of the project at a disk path.
    fn data_file(&self, path: &Path) -> Option<FileId> {
        self.by_path.get(path).copied().filter(|f| self.project.file(*f).kind == FileKind::Data)
    }

    fn source_changed(&mut self, path: &Path, text: String) {
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
    pub fn refresh(&mut self) -> bool {
        self.refresh_until(&|| false) == Refreshed::Done
    }

    /// [`State::refresh`], giving up between the phases of a reload as soon as `stale` says a
    /// newer change arrived (what was lowered is kept for the next attempt). An edit of known
    /// files is never given up: it takes milliseconds.
    ///
    /// While it works the state is marked for a full reload, so that a panic caught around it
    /// (the server's guard) leaves a state that rebuilds itself on the next call instead of one
    /// half updated.
    pub fn refresh_until(&mut self, stale: &dyn Fn() -> bool) -> Refreshed {
        let dirty = std::mem::replace(&mut self.dirty, Dirty::Reload);
        let start = Instant::now();
        let apply = self.phases.apply;
        self.phases = Phases { apply, ..Phases::default() };
        match dirty {
            Dirty::Clean => {
                self.dirty = Dirty::Clean;
                return Refreshed::Unchanged;
            }
            Dirty::Files(set) => {
                let mut changes = Vec::with_capacity(set.len());
                for fid in &set {
                    let open = self.is_open(*fid);
                    let facts = lower(self.project.file(*fid), !open);
                    self.outlined[fid.0 as usize] = facts.as_ref().is_some_and(|f| !open && crate::outline::can_outline(f));
                    if let Some(ff) = &facts {
                        let f = self.project.file(*fid);
                        let c = Cached { id: f.id, text: f.text.clone(), facts: ff.clone(), outlined: self.outlined[fid.0 as usize] };
                        self.cache.insert(f.path.clone(), c);
                    }
                    changes.push((*fid, facts));
                }
                self.last_lowered = set.len();
                self.phases.lowered = set.len();
                self.phases.lower = start.elapsed();
                self.analysis.update(&self.project, changes);
            }
            Dirty::Reload => {
                if !self.reload(stale) {
                    self.dirty = Dirty::Reload;
                    return Refreshed::Cancelled;
                }
            }
        }
        let t = self.analysis.timings();
        self.phases.resolve = t.resolve;
        self.phases.rules = t.rules + t.finish;
        let publish = Instant::now();
        self.convert_changed();
        self.phases.publish = publish.elapsed();
        self.forget_stale_loot();
        self.dirty = Dirty::Clean;
        Refreshed::Done
    }

    /// Loads the project again and builds the analysis from scratch; `false` when given up.
    fn reload(&mut self, stale: &dyn Fn() -> bool) -> bool {
        let start = Instant::now();
        let overlay: Overlay = self.docs.iter().map(|(p, d)| (p.clone(), Arc::from(d.text.as_str()))).collect();
        let paths = self.load_paths();
        let cwd = self.roots.first().cloned().or_else(|| paths.first().cloned()).unwrap_or_else(|| std::env::current_dir().unwrap_or_default());
        // The snapshot comes first: a file changed while the project is read shows up in the
        // next rescan's comparison.
        let snapshot = if paths.is_empty() { None } else { Snapshot::take(&paths) };
        let project = if paths.is_empty() { Project::with_bundled_core() } else { load(&paths, &cwd, &overlay) };
        if stale() {
            return false;
        }
        let open: Vec<bool> = project.files.iter().map(|f| f.disk_path.as_ref().is_some_and(|p| self.docs.contains_key(p))).collect();
        let cache = &self.cache;
        let lowered: Vec<(Option<Arc<FileFacts>>, bool, bool)> =
            rustkeep_data::par::par_map(&project.files, rustkeep_check::default_threads(), |f: &SourceFile| {
                let outline = !open[f.id.0 as usize];
                match cache.get(&f.path).filter(|c| c.id == f.id && *c.text == *f.text && (outline || !c.outlined)) {
                    Some(c) => (Some(c.facts.clone()), c.outlined, false),
                    None => {
                        let facts = lower(f, outline);
                        let outlined = outline && facts.as_ref().is_some_and(|x| crate::outline::can_outline(x));
                        (facts, outlined, true)
                    }
                }
            });
        self.cache.clear();
        for (f, (facts, outlined, _)) in project.files.iter().zip(&lowered) {
            if let Some(facts) = facts {
                self.cache.insert(f.path.clone(), Cached { id: f.id, text: f.text.clone(), facts: facts.clone(), outlined: *outlined });
            }
        }
        self.last_lowered = lowered.iter().filter(|(f, _, fresh)| f.is_some() && *fresh).count();
        self.phases.lowered = self.last_lowered;
        self.phases.lower = start.elapsed();
        if stale() {
            return false;
        }
        self.outlined = lowered.iter().map(|(_, o, _)| *o).collect();
        let facts: Vec<Option<Arc<FileFacts>>> = lowered.into_iter().map(|(f, _, _)| f).collect();
        // The old analysis goes first: two of them at once would double the memory.
        self.analysis = Incremental::new(&Project::default(), Vec::new());
        self.project = project;
        self.analysis = Incremental::new(&self.project, facts);
        self.disk = snapshot;
        self.loads += 1;
        self.by_path = self.project.files.iter().filter_map(|f| Some((f.disk_path.clone()?, f.id))).collect();
        self.listed = self
            .project
            .files
            .iter()
            .map(|f| {
                let p = f.disk_path.as_ref().filter(|_| !f.bundled)?;
                Some(Listed { path: p.clone(), uri: uri::from_path(p), diagnostics: Arc::new(Vec::new()) })
            })
            .collect();
        true
    }

    /// Converts the lists that changed in the last analysis for the client.
    fn convert_changed(&mut self) {
        let changed = self.analysis.take_changed();
        self.phases.changed = changed.len();
        for fid in changed {
            if self.listed.get(fid.0 as usize).is_some_and(Option::is_some) {
                let list: Vec<lsp::Diagnostic> = self.analysis.diagnostics(fid).iter().map(|d| self.to_lsp_diagnostic(d)).collect();
                if let Some(Some(l)) = self.listed.get_mut(fid.0 as usize) {
                    l.diagnostics = Arc::new(list);
                }
            }
        }
    }

    /// The data model of the current analysis.
    pub fn db(&self) -> &Database {
        self.analysis.db()
    }

    /// The incremental analysis itself (its indexes serve completion and hover).
    pub fn analysis(&self) -> &Incremental {
        &self.analysis
    }

    /// The current diagnostics of one file, as `rustkeep check` reports them.
    pub fn diagnostics(&self, fid: FileId) -> &[Diagnostic] {
        self.analysis.diagnostics(fid)
    }

    /// The exact drop chances of a loot table (luck 0), from the engine, without the chances of
    /// each affix on each item (the hover does not show them); see [`LootCache`].
    pub fn loot_report(&self, id: &str) -> Arc<Result<LootReport, LootError>> {
        self.loot.lock().unwrap_or_else(|e| e.into_inner()).report(self.db(), id)
    }

    /// Marks stale the loot reports the last analysis may have changed.
    fn forget_stale_loot(&mut self) {
        let changes = self.analysis.loot_changes();
        self.loot.get_mut().unwrap_or_else(|e| e.into_inner()).forget(changes);
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
        self.batch()
    }

    /// The diagnostics of every user file as the current analysis has them (lists are shared, not
    /// copied: a batch costs a pointer per file).
    pub fn batch(&self) -> Batch {
        let files = self
            .listed
            .iter()
            .flatten()
            .map(|l| FileDiagnostics { uri: l.uri.clone(), version: self.docs.get(&l.path).map(|d| d.version), diagnostics: l.diagnostics.clone() })
            .collect();
        Batch { revision: self.revision, files }
    }

    /// The current diagnostics of one file, as LSP diagnostics (the fuzz target's differential
    /// check reads them).
    pub fn diagnostics_of(&self, fid: FileId) -> Vec<lsp::Diagnostic> {
        self.diagnostics(fid).iter().map(|d| self.to_lsp_diagnostic(d)).collect()
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

    /// Whether a file is open in the editor.
    pub fn is_open(&self, fid: FileId) -> bool {
        self.project.files.get(fid.0 as usize).and_then(|f| f.disk_path.as_ref()).is_some_and(|p| self.docs.contains_key(p))
    }

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

    /// The lowered facts of a file: in full for open documents, the outline for the others (see
    /// [`crate::outline`]).
    pub fn facts(&self, fid: FileId) -> Option<&FileFacts> {
        self.db().facts.get(fid.0 as usize)?.as_deref()
    }

    /// The mod a file belongs to.
    pub fn mod_of(&self, fid: FileId) -> Option<&rustkeep_data::project::ModInfo> {
        self.project.mods.iter().find(|m| m.data_files.contains(&fid) || m.manifest_file == Some(fid))
    }
}

/// Lowers a data file (with its per-file rules), cut to its outline when `outline` is set.
fn lower(f: &SourceFile, outline: bool) -> Option<Arc<FileFacts>> {
    let facts = rustkeep_check::lower_source(f)?;
    if !outline {
        return Some(facts);
    }
    let facts = Arc::try_unwrap(facts).unwrap_or_else(|shared| (*shared).clone());
    Some(Arc::new(crate::outline::outline(facts)))
}

pub fn to_linecol(p: lsp::Position) -> LineCol {
    LineCol { line: p.line, col: p.character }
}
