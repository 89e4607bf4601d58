//! Bringing the analysis up to date with the recorded changes, and its diagnostics as batches.
//!
//! Incrementality: a data file that changed (typed, closed, changed on disk) is lowered again on
//! its own; the analysis ([`rustkeep_check::incremental::Incremental`]) then runs again only what
//! the file's facts can affect, and only the files whose diagnostics changed are converted for
//! the client. A project marked for a reload is loaded again (`state/reload.rs`). Files that are
//! not open keep only their outline ([`crate::outline`]).

use std::sync::Arc;
use std::time::Instant;

use rustkeep_data::lower::FileFacts;
use rustkeep_data::source::SourceFile;

use super::{Cached, Dirty, Listed, Phases, Refreshed, State};
use crate::lsp;
use crate::publish::{Batch, FileDiagnostics, Publication};

impl State {
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

    /// Forgets the loot reports made before the last analysis.
    fn forget_stale_loot(&mut self) {
        self.loot.get_mut().unwrap_or_else(|e| e.into_inner()).forget();
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
    /// copied: a batch costs a pointer per file), followed by the failed expectations of the last
    /// run of a scenario file that still has the text it ran on (`state/runs.rs`).
    pub fn batch(&self) -> Batch {
        let files = self
            .listed
            .iter()
            .flatten()
            .map(|l| FileDiagnostics { uri: l.uri.clone(), version: self.docs.get(&l.path).map(|d| d.version), diagnostics: self.with_run(l) })
            .collect();
        Batch { revision: self.revision, files }
    }

    /// A file's diagnostics with the failures of its last valid run; for a document too large to
    /// analyse, the one diagnostic that says so.
    fn with_run(&self, l: &Listed) -> Arc<Vec<lsp::Diagnostic>> {
        if let Some(doc) = self.docs.get(&l.path).filter(|d| d.too_large()) {
            return Arc::new(vec![super::to_proto::too_large(doc.text.len())]);
        }
        if self.runs.is_empty() {
            return l.diagnostics.clone();
        }
        match self.valid_run(&l.path) {
            Some(run) if !run.failures.is_empty() => Arc::new(l.diagnostics.iter().chain(&run.failures).cloned().collect()),
            _ => l.diagnostics.clone(),
        }
    }
}

/// Lowers a data file (with its per-file rules), cut to its outline when `outline` is set.
pub(super) fn lower(f: &SourceFile, outline: bool) -> Option<Arc<FileFacts>> {
    let facts = rustkeep_check::lower_source(f)?;
    if !outline {
        return Some(facts);
    }
    let facts = Arc::try_unwrap(facts).unwrap_or_else(|shared| (*shared).clone());
    Some(Arc::new(crate::outline::outline(facts)))
}
