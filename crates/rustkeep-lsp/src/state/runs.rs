//! The scenario runs of the state ([`crate::scenario_runs`]): what a run needs, and the last run
//! of each scenario file, kept with the text it ran on. Its failed expectations join the file's
//! diagnostics (after the checks' own) for as long as the file has that text: an edit hides them
//! — they no longer describe the text — and a result that arrives after an edit is never shown.

use std::path::Path;
use std::sync::Arc;

use rustkeep_data::diag::Severity;
use rustkeep_data::source::{FileId, FileKind};

use super::State;
use crate::lsp;
use crate::scenario_runs::{self, Outcome, RunInput};

/// The last run of a scenario file.
#[derive(Clone, Debug)]
pub struct LastRun {
    /// The text it ran on.
    pub text: Arc<str>,
    pub outcome: Outcome,
    /// Its failed expectations, as diagnostics of that text.
    pub failures: Vec<lsp::Diagnostic>,
}

impl State {
    /// What a run of the scenario file `u` needs; why there is no run when it is not a scenario
    /// file of the project.
    pub fn run_input(&self, u: &lsp::Uri) -> Result<RunInput, String> {
        let fid = self.file_of(u).ok_or_else(|| format!("{} is not a file of the loaded mods", u.as_ref()))?;
        let f = self.project.file(fid);
        let path = f.disk_path.clone().filter(|_| f.kind == FileKind::Scenario).ok_or_else(|| format!("{} is not a scenario file", f.path))?;
        let overlay = self.docs.iter().map(|(p, d)| (p.clone(), Arc::from(d.analysed()))).collect();
        let cwd = self.roots.first().cloned().or_else(|| path.parent().map(Path::to_path_buf)).unwrap_or_default();
        Ok(RunInput { path, text: f.text.clone(), overlay, cwd })
    }

    /// Whether a save of `u` runs it: a scenario file with an `[[expect]]` and without errors of
    /// its own (its diagnostics already say why it would not run).
    pub fn runs_on_save(&self, u: &lsp::Uri) -> bool {
        let Some(fid) = self.file_of(u) else { return false };
        let f = self.project.file(fid);
        if f.kind != FileKind::Scenario || f.disk_path.is_none() {
            return false;
        }
        let expects =
            self.facts(fid).and_then(|x| x.scenario.as_ref()).is_some_and(|s| !s.expects.is_empty()) || rustkeep_data::scenario::writes_expectations(&f.text);
        expects && !self.diagnostics(fid).iter().any(|d| d.severity == Severity::Error)
    }

    /// Keeps the outcome of a run of the scenario file at `path` on `text`, unless the file no
    /// longer has that text (an edit came first: the result is dropped). One revision, as every
    /// change. Whether it was kept.
    pub fn record_run(&mut self, path: &Path, text: Arc<str>, outcome: Outcome) -> bool {
        self.revision += 1;
        if self.current_text(path) != Some(&*text) {
            return false;
        }
        let failures = scenario_runs::diagnostics(&text, &outcome, self.encoding);
        self.runs.insert(path.to_path_buf(), LastRun { text, outcome, failures });
        true
    }

    /// The last run of a file, if it ran on the file's text now.
    pub fn last_run(&self, fid: FileId) -> Option<&LastRun> {
        let path = self.project.files.get(fid.0 as usize)?.disk_path.as_ref()?;
        self.valid_run(path)
    }

    pub(super) fn valid_run(&self, path: &Path) -> Option<&LastRun> {
        self.runs.get(path).filter(|r| self.current_text(path) == Some(&*r.text))
    }

    /// A file's text now: the open document's, else the project's.
    fn current_text(&self, path: &Path) -> Option<&str> {
        match self.docs.get(path) {
            Some(d) => Some(&d.text),
            None => self.by_path.get(path).map(|f| &*self.project.file(*f).text),
        }
    }
}
