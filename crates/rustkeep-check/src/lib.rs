//! Validation of a loaded project: every diagnostic of docs/diagnostics.md.
//!
//! [`analyze`] is the one driver shared by the CLI and the language server: it lowers every file
//! (in parallel, or reusing cached per-file facts), resolves the registries, runs the cross-file
//! rules over the resolved data, then applies lint levels and suppression comments.

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::sync::Arc;

use rustkeep_data::db::Database;
use rustkeep_data::diag::{Code, Diagnostic, Severity};
use rustkeep_data::lower::FileFacts;
use rustkeep_data::manifest::Level;
use rustkeep_data::project::Project;
use rustkeep_data::source::SourceFile;

pub mod baseline;
pub mod explain;
pub mod fix;
pub mod incremental;
pub mod rules;

/// The result of checking a project: the model and what is wrong with it.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// The data model the diagnostics are about (also what the engine runs on).
    pub db: Database,
    /// Diagnostics after lint levels and suppressions, sorted by file and position.
    pub diagnostics: Vec<Diagnostic>,
}

impl Analysis {
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Error).count()
    }
    pub fn warnings(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Warning).count()
    }

    /// The model, if the data has no errors; otherwise a refusal that names the first five.
    /// Whoever runs the data (the engine's callers) refuses broken data through this, because
    /// half-understood data would run only half.
    pub fn into_valid(self, project: &Project) -> Result<Database, String> {
        let errors = self.errors();
        if errors == 0 {
            return Ok(self.db);
        }
        let mut msg = format!("the mods have {errors} validation error(s); run `rustkeep check` for details");
        for d in self.diagnostics.iter().filter(|d| d.severity == Severity::Error).take(5) {
            let f = project.file(d.loc.file);
            let line = f.index.line_of(d.loc.span.start) + 1;
            msg.push_str(&format!("\n  {}:{line}: {} [{}]", f.path, d.message, d.code.name()));
        }
        Err(msg)
    }
}

/// Lowers one data file and runs the rules that need nothing but the file itself (the unit of
/// caching: the language server re-runs this for the edited file only).
pub fn lower_source(f: &SourceFile) -> Option<Arc<FileFacts>> {
    let mut facts = rustkeep_data::db::lower_source(f)?;
    rules::local(f.id, &mut facts);
    Some(Arc::new(facts))
}

/// Lowers every data file, spread over the available cores.
pub fn lower_all(project: &Project, threads: usize) -> Vec<Option<Arc<FileFacts>>> {
    rustkeep_data::par::par_map(&project.files, threads, lower_source)
}

/// The number of threads to use by default (see [`rustkeep_data::par::default_threads`]).
pub fn default_threads() -> usize {
    rustkeep_data::par::default_threads()
}

/// Checks a project from scratch.
pub fn analyze(project: &Project) -> Analysis {
    analyze_with(project, lower_all(project, default_threads()))
}

/// Checks a project with already lowered files (the language server's cache).
pub fn analyze_with(project: &Project, facts: Vec<Option<Arc<FileFacts>>>) -> Analysis {
    let db = Database::new(project, facts);
    let mut diags: Vec<Diagnostic> = project.diagnostics.clone();
    for f in db.facts.iter().flatten() {
        diags.extend(f.diagnostics.iter().cloned());
    }
    diags.extend(db.resolved.diagnostics.iter().cloned());
    let syntax_broken: Vec<bool> =
        project.files.iter().map(|f| db.facts.get(f.id.0 as usize).and_then(|x| x.as_ref()).is_some_and(|x| x.has_syntax_errors)).collect();
    let mut rule_diags = Vec::new();
    rules::run_all(project, &db, &mut rule_diags);
    // A file that does not parse shows only its syntax errors (see `lower_file`).
    rule_diags.retain(|d| !syntax_broken.get(d.loc.file.0 as usize).copied().unwrap_or(false));
    diags.extend(rule_diags);
    let diagnostics = finish(project, &db.facts, diags);
    Analysis { db, diagnostics }
}

/// Applies lint levels and `# rustkeep: allow(...)` comments, drops what lies in the bundled core
/// (its cleanliness is the toolkit's own test), dedupes and sorts.
fn finish(project: &Project, facts: &[Option<Arc<FileFacts>>], diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let levels = lint_levels(project);
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diags.len());
    for d in diags {
        let ff = facts.get(d.loc.file.0 as usize).and_then(|f| f.as_deref());
        out.extend(finish_one(project, &levels, ff, d));
    }
    out.sort_by(|a, b| {
        let fa = &project.file(a.loc.file).path;
        let fb = &project.file(b.loc.file).path;
        (fa, a.loc.span.start, a.loc.span.end, a.code, &a.message).cmp(&(fb, b.loc.span.start, b.loc.span.end, b.code, &b.message))
    });
    out.dedup_by(|a, b| a.code == b.code && a.loc == b.loc && a.message == b.message);
    out
}

/// The `[lints]` levels of the workspace, by code.
fn lint_levels(project: &Project) -> HashMap<Code, Level> {
    project.config.lints.iter().copied().collect()
}

/// One diagnostic through the lint levels and the allow comments of its file (`facts`); `None`
/// when it is not shown.
fn finish_one(project: &Project, levels: &HashMap<Code, Level>, facts: Option<&FileFacts>, mut d: Diagnostic) -> Option<Diagnostic> {
    let file = project.file(d.loc.file);
    if file.bundled {
        return None;
    }
    if let Some(level) = levels.get(&d.code) {
        match level {
            Level::Allow => return None,
            Level::Warn => d.severity = Severity::Warning,
            Level::Deny => d.severity = Severity::Error,
        }
    }
    if let Some(ff) = facts {
        if suppressed(file, ff, &d) {
            return None;
        }
    }
    Some(d)
}

/// [`finish`] for the diagnostics of one file: the same filters, order and deduplication, so that
/// a list finished file by file equals that file's part of the whole list.
fn finish_file(project: &Project, levels: &HashMap<Code, Level>, facts: Option<&FileFacts>, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = diags.into_iter().filter_map(|d| finish_one(project, levels, facts, d)).collect();
    out.sort_by(|a, b| (a.loc.span.start, a.loc.span.end, a.code, &a.message).cmp(&(b.loc.span.start, b.loc.span.end, b.code, &b.message)));
    out.dedup_by(|a, b| a.code == b.code && a.loc == b.loc && a.message == b.message);
    out
}

/// Whether an allow comment covers the diagnostic: in the block of comment lines directly above
/// its own line, or above the first line of any entry or sub-table that encloses it.
fn suppressed(file: &SourceFile, ff: &FileFacts, d: &Diagnostic) -> bool {
    if ff.allows.is_empty() {
        return false;
    }
    let idx = &file.index;
    let text = &file.text;
    let mut anchors = vec![idx.line_of(d.loc.span.start)];
    for e in &ff.entries {
        if e.span.start <= d.loc.span.start && d.loc.span.start < e.span.end.max(e.span.start + 1) {
            anchors.push(idx.line_of(e.span.start));
        }
        // `id` and `overrides` are kept apart from `fields`, and whole-entry problems
        // (`quest-never-started`, `duplicate-id`, …) sit on them.
        let on_key = [e.id.as_ref(), e.overrides.as_ref()]
            .into_iter()
            .flatten()
            .any(|k| k.span.start <= d.loc.span.start && d.loc.span.start < k.span.end.max(k.span.start + 1));
        if on_key {
            anchors.push(idx.line_of(e.span.start));
        }
        // Entries from `[[…]]` headers span only their header: cover their fields too.
        for f in &e.fields {
            if f.key_span.start <= d.loc.span.start && d.loc.span.start < f.span.end {
                anchors.push(idx.line_of(f.key_span.start));
                anchors.push(idx.line_of(e.span.start));
            }
        }
    }
    let name = d.code.name();
    anchors.into_iter().any(|line| {
        let mut l = line;
        while l > 0 {
            l -= 1;
            let span = idx.line_span(text, l);
            let t = text[span].trim();
            if !t.starts_with('#') {
                break;
            }
            if ff.allows.iter().any(|a| a.line == l && a.codes.iter().any(|c| c == name)) {
                return true;
            }
        }
        false
    })
}
