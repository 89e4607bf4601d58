//! The workspace as the server sees it: the [`State`], its types, and what the handlers read.
//!
//! [`State`] is a plain synchronous model: text-sync calls ([`State::open`], [`State::change`], …)
//! record changes, [`State::refresh`] brings the analysis up to date, and the handlers read it.
//! The server keeps one `State` behind one mutex and decides who calls what when (see
//! `state_thread.rs`); in-process tests drive it directly.
//!
//! Every text-sync call advances [`State::revision`]; an analysis reflects the revision it was
//! computed at, and [`State::diagnostics_batch`] tags its lists with it, so that the publisher can
//! refuse to go backwards (see [`crate::publish`]).
//!
//! The methods of `State` live with their job:
//! - `state/documents.rs`: the open documents (text sync: open, change, close);
//! - `state/reload.rs`: the project on disk (the first load and reloads, changes made outside the
//!   editor, reported by a file watcher or found by a rescan);
//! - `state/analysis.rs`: bringing the incremental analysis up to date, and its diagnostics as
//!   batches for the publisher;
//! - `state/balance.rs`: what the balance figures of the open documents depend on, as a job for
//!   the balance worker ([`crate::balance`]);
//! - `state/runs.rs`: the scenario runs (`[[expect]]`): what a run needs, and the last run of each
//!   scenario file, whose failures join the file's diagnostics while it has the text they ran on;
//! - `state/to_proto.rs`: every conversion from the crate's types to LSP types (URIs, positions,
//!   ranges, locations, diagnostics); `state/from_proto.rs`: the conversions the other way.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustkeep_check::incremental::Incremental;
use rustkeep_data::db::Database;
use rustkeep_data::diag::Diagnostic;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::project::Project;
use rustkeep_data::source::FileId;
use rustkeep_data::text::Encoding;
use rustkeep_engine::loot::{LootError, LootReport};

use crate::disk::Snapshot;
use crate::loot_cache::LootCache;
use crate::lsp;
use crate::publish::Publisher;

mod analysis;
mod balance;
mod documents;
mod from_proto;
mod reload;
mod runs;
mod to_proto;

pub use from_proto::to_linecol;
pub use runs::LastRun;

/// An open buffer.
#[derive(Clone, Debug)]
pub struct Doc {
    pub text: String,
    pub version: i32,
}

/// The largest document the server analyses (docs/editors/lsp.md, "Large files"): a larger one
/// is kept in sync but checked as if it were empty, with one diagnostic saying why, so that every
/// request answers at once.
pub const MAX_DOCUMENT_BYTES: usize = 8_000_000;

impl Doc {
    /// Whether the document is too large to analyse.
    pub fn too_large(&self) -> bool {
        self.text.len() > MAX_DOCUMENT_BYTES
    }

    /// The text the analysis reads: the document's, or nothing for one too large to analyse.
    pub fn analysed(&self) -> &str {
        if self.too_large() {
            ""
        } else {
            &self.text
        }
    }
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
    /// The balance figures of the open documents, written by the balance worker
    /// ([`crate::balance`]); the lenses and hovers read them.
    pub balance: Arc<Mutex<crate::balance::Store>>,
    /// The last run of each scenario file that was run, by disk path (`state/runs.rs`).
    runs: HashMap<PathBuf, LastRun>,
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
            balance: Arc::default(),
            runs: HashMap::new(),
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

    pub fn is_dirty(&self) -> bool {
        self.dirty != Dirty::Clean
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

    fn is_core_path(&self, path: &Path) -> bool {
        self.core_dir.as_deref().is_some_and(|d| path.starts_with(d))
    }

    /// Whether a file is open in the editor.
    pub fn is_open(&self, fid: FileId) -> bool {
        self.project.files.get(fid.0 as usize).and_then(|f| f.disk_path.as_ref()).is_some_and(|p| self.docs.contains_key(p))
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
