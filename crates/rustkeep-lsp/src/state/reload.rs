//! The project on disk: the first load and reloads, and the changes made outside the editor.
//!
//! A reload reads the project from disk with the open buffers as overlay, reusing the facts of
//! files whose text did not change. Watched-file notifications take changed data files like
//! edits. Without a file watcher, a rescan (a save or an open) compares the files on disk with
//! their stamps at the last load ([`crate::disk`]) and reloads only when files were added,
//! removed or renamed or a manifest or workspace file changed; changed data files are taken like
//! edits.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use rustkeep_check::incremental::Incremental;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_data::source::SourceFile;

use super::analysis::lower;
use super::{Cached, Dirty, Listed, State};
use crate::disk::{Rescan, Snapshot};
use crate::uri;

/// The files under the load paths with their stamps, links judged by the folders the load reads
/// (the load paths are absolute: no current folder is needed to place them).
fn snapshot(paths: &[PathBuf]) -> Option<Snapshot> {
    let cwd = paths.first().cloned().unwrap_or_default();
    Snapshot::take(paths, &rustkeep_data::project::boundary(paths, &cwd))
}

impl State {
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
        let (Some(before), Some(now)) = (&self.disk, snapshot(&paths)) else {
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

    /// Loads the project again and builds the analysis from scratch; `false` when given up.
    pub(super) fn reload(&mut self, stale: &dyn Fn() -> bool) -> bool {
        let start = Instant::now();
        let overlay: Overlay = self.docs.iter().map(|(p, d)| (p.clone(), Arc::from(d.analysed()))).collect();
        let paths = self.load_paths();
        let cwd = self.roots.first().cloned().or_else(|| paths.first().cloned()).unwrap_or_else(|| std::env::current_dir().unwrap_or_default());
        // The snapshot comes first: a file changed while the project is read shows up in the
        // next rescan's comparison.
        let snapshot = if paths.is_empty() { None } else { snapshot(&paths) };
        let project = if paths.is_empty() { Project::with_bundled_core() } else { load(&paths, &cwd, &overlay) };
        if stale() {
            return false;
        }
        let open: Vec<bool> = project.files.iter().map(|f| f.disk_path.as_ref().is_some_and(|p| self.docs.contains_key(p))).collect();
        let cache = &self.cache;
        let lowered: Vec<(Option<Arc<FileFacts>>, bool, bool)> = project
            .files
            .par_iter()
            .map(|f: &SourceFile| {
                let outline = !open[f.id.0 as usize];
                match cache.get(&f.path).filter(|c| c.id == f.id && *c.text == *f.text && (outline || !c.outlined)) {
                    Some(c) => (Some(c.facts.clone()), c.outlined, false),
                    None => {
                        let facts = lower(f, outline);
                        let outlined = outline && facts.as_ref().is_some_and(|x| crate::outline::can_outline(x));
                        (facts, outlined, true)
                    }
                }
            })
            .collect();
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
}
