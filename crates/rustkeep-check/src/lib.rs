//! Validation of a loaded project: every diagnostic of docs/diagnostics.md.
//!
//! It is the one validation layer: the engine, the game and the commands that run data refuse
//! invalid input through it, and validate nothing themselves; a world that runs takes a
//! [`ValidDatabase`], which only this crate makes. It must never play or roll anything (it does
//! not depend on the engine), and a fix it marks safe must never change what the data means.
//!
//! [`analyze`] is the one driver shared by the CLI and the language server: it lowers every file
//! (in parallel, or reusing cached per-file facts), resolves the registries, runs the cross-file
//! rules over the resolved data, then applies lint levels and suppression comments.

#![forbid(unsafe_code)]

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use rayon::prelude::*;
use rustkeep_data::db::Database;
use rustkeep_data::diag::{Code, Diagnostic, Severity};
use rustkeep_data::lower::FileFacts;
use rustkeep_data::manifest::Level;
use rustkeep_data::project::Project;
use rustkeep_data::source::{FileId, FileKind, SourceFile};

pub mod baseline;
pub mod explain;
pub mod fix;
pub mod incremental;
pub mod rules;
mod suppression;

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
    ///
    /// Errors in scenario files do not count here: the game does not run them (`rustkeep
    /// simulate` refuses a broken scenario itself, with [`Analysis::scenario_errors`]).
    pub fn into_valid(self, project: &Project) -> Result<ValidDatabase, String> {
        let data_error = |d: &&Diagnostic| d.severity == Severity::Error && project.file(d.loc.file).kind != FileKind::Scenario;
        let errors = self.diagnostics.iter().filter(data_error).count();
        if errors == 0 {
            return Ok(ValidDatabase { db: self.db });
        }
        let mut msg = format!("the mods have {errors} validation {}; run `rustkeep check` for details", if errors == 1 { "error" } else { "errors" });
        for d in self.diagnostics.iter().filter(data_error).take(5) {
            msg.push_str(&format!("\n  {}", located(project, d)));
        }
        Err(msg)
    }
}

/// A data model the validator found no errors in (warnings and scenario files aside, as
/// [`Analysis::into_valid`] counts them). Only this crate makes one, through
/// [`Analysis::into_valid`] or [`validate`], so an entry point that takes it (the engine's
/// `World::new`) runs validated data by its type: there is no other way to hold one.
#[derive(Clone, Debug)]
pub struct ValidDatabase {
    db: Database,
}

impl ValidDatabase {
    /// The validated model, to read.
    pub fn db(&self) -> &Database {
        &self.db
    }

    /// The validated model itself, for its new owner (what changes it then is the owner's).
    pub fn into_database(self) -> Database {
        self.db
    }
}

/// Checks a project and keeps its model if the data has no errors ([`Analysis::into_valid`]).
pub fn validate(project: &Project) -> Result<ValidDatabase, String> {
    analyze(project).into_valid(project)
}

impl Analysis {
    /// The errors of one scenario file, as `path:line: message [code]` lines (at most `max`), or
    /// `None` when it has none.
    pub fn scenario_errors(&self, project: &Project, file: rustkeep_data::source::FileId, max: usize) -> Option<String> {
        let errors: Vec<&Diagnostic> = self.diagnostics.iter().filter(|d| d.severity == Severity::Error && d.loc.file == file).collect();
        if errors.is_empty() {
            return None;
        }
        let f = project.file(file);
        let mut msg =
            format!("the scenario has {} {}; run `rustkeep check {}` for details", errors.len(), if errors.len() == 1 { "error" } else { "errors" }, f.path);
        for d in errors.iter().take(max) {
            msg.push_str(&format!("\n  {}", located(project, d)));
        }
        Some(msg)
    }
}

/// A diagnostic in one line, as the refusals list them: `path:line: message [code]`.
pub fn located(project: &Project, d: &Diagnostic) -> String {
    let f = project.file(d.loc.file);
    let line = f.index.line_of(d.loc.span.start) + 1;
    format!("{}:{line}: {} [{}]", f.path, d.message, d.code.name())
}

/// Lowers one data file and runs the rules that need nothing but the file itself (the unit of
/// caching: the language server re-runs this for the edited file only).
pub fn lower_source(f: &SourceFile) -> Option<Arc<FileFacts>> {
    let mut facts = rustkeep_data::db::lower_source(f)?;
    rules::local(f.id, &mut facts);
    Some(Arc::new(facts))
}

/// Lowers every data file: on the calling thread when `threads` is 1 (the tests compare with
/// that), else spread over rayon's global pool, which the one thread setting sizes
/// ([`rustkeep_data::threads`]). The facts are the same either way, in file order.
pub fn lower_all(project: &Project, threads: usize) -> Vec<Option<Arc<FileFacts>>> {
    if threads <= 1 {
        project.files.iter().map(lower_source).collect()
    } else {
        project.files.par_iter().map(lower_source).collect()
    }
}

/// The threads of rayon's global pool, which every parallel loop runs on (sized by the one thread
/// setting, [`rustkeep_data::threads`]).
pub fn default_threads() -> usize {
    rayon::current_num_threads()
}

/// Checks a project from scratch.
pub fn analyze(project: &Project) -> Analysis {
    analyze_with(project, lower_all(project, default_threads()))
}

/// Whether `d` sits in a part of its file that could not be read.
pub(crate) fn unreadable_at(facts: &rustkeep_data::resolve::FactsTable, d: &Diagnostic) -> bool {
    facts.get(d.loc.file.0 as usize).and_then(|x| x.as_ref()).is_some_and(|x| rustkeep_data::lower::within(&x.unreadable, &d.loc.span))
}

/// Checks a project with already lowered files (the language server's cache).
pub fn analyze_with(project: &Project, facts: Vec<Option<Arc<FileFacts>>>) -> Analysis {
    let db = Database::new(project, facts);
    let mut diags: Vec<Diagnostic> = project.diagnostics.clone();
    for f in db.facts.iter().flatten() {
        diags.extend(f.diagnostics.iter().cloned());
    }
    rules::resolution::run(project, &db, &mut diags);
    let mut rule_diags = Vec::new();
    rules::run_all(project, &db, &mut rule_diags);
    // The parts of a file that could not be read show only their syntax errors (see `lower_file`).
    rule_diags.retain(|d| !unreadable_at(&db.facts, d));
    diags.extend(rule_diags);
    let diagnostics = finish(project, &db.facts, diags);
    Analysis { db, diagnostics }
}

/// Applies `# rustkeep: allow(...)` comments and lint levels, drops what lies in the bundled core
/// (its cleanliness is the toolkit's own test), reports allow comments that name no code or
/// silence nothing, dedupes and sorts. `toml-syntax` is never silenced: a file that does not parse
/// is not checked at all, and hiding that would hide everything in it. Each file is finished on
/// its own ([`finish_file`], which the incremental analysis calls file by file), so the two agree.
fn finish(project: &Project, facts: &[Option<Arc<FileFacts>>], diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let levels = lint_levels(project);
    let mut by_file: Vec<Vec<Diagnostic>> = vec![Vec::new(); project.files.len().max(facts.len())];
    for d in diags {
        let i = d.loc.file.0 as usize;
        if i >= by_file.len() {
            by_file.resize_with(i + 1, Vec::new);
        }
        by_file[i].push(d);
    }
    let mut out: Vec<Diagnostic> = Vec::new();
    for (i, list) in by_file.into_iter().enumerate() {
        let ff = facts.get(i).and_then(|f| f.as_deref());
        if list.is_empty() && ff.is_none_or(|f| f.allows.is_empty()) {
            continue;
        }
        out.extend(finish_file(project, &levels, FileId(i as u32), ff, list));
    }
    out.sort_by(|a, b| {
        let fa = &project.file(a.loc.file).path;
        let fb = &project.file(b.loc.file).path;
        (fa, a.loc.span.start, a.loc.span.end, a.code, &a.message).cmp(&(fb, b.loc.span.start, b.loc.span.end, b.code, &b.message))
    });
    out
}

/// The `[lints]` levels of the workspace, by code.
fn lint_levels(project: &Project) -> HashMap<Code, Level> {
    project.config.lints.iter().copied().collect()
}

/// A diagnostic at its level; `None` when the level is `allow`.
fn at_level(levels: &HashMap<Code, Level>, mut d: Diagnostic) -> Option<Diagnostic> {
    if let Some(level) = levels.get(&d.code) {
        match level {
            Level::Allow => return None,
            Level::Warn => d.severity = Severity::Warning,
            Level::Deny => d.severity = Severity::Error,
        }
    }
    Some(d)
}

/// [`finish`] for the diagnostics of one file (`file`, with its `facts`): the same filters, the
/// report of its allow comments, order and deduplication, so that a list finished file by file
/// equals that file's part of the whole list.
fn finish_file(project: &Project, levels: &HashMap<Code, Level>, file: FileId, facts: Option<&FileFacts>, diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let source = project.file(file);
    if source.bundled {
        return Vec::new();
    }
    let mut out: Vec<Diagnostic> = Vec::with_capacity(diags.len());
    // The (comment, code) pairs of allow comments that silenced something.
    let mut used: HashSet<(usize, usize)> = HashSet::new();
    for d in diags {
        if !can_allow(facts, d.code) {
            out.extend(if d.code == Code::TomlSyntax { Some(d) } else { at_level(levels, d) });
            continue;
        }
        if let Some(ff) = facts {
            if let Some(hit) = suppressed(source, ff, &d) {
                used.insert(hit);
                continue;
            }
        }
        out.extend(at_level(levels, d));
    }
    if let Some(ff) = facts {
        if !ff.has_syntax_errors && !ff.allows.is_empty() {
            out.extend(suppression::report(source, &ff.allows, &used).into_iter().filter_map(|d| at_level(levels, d)));
        }
    }
    out.sort_by(|a, b| (a.loc.span.start, a.loc.span.end, a.code, &a.message).cmp(&(b.loc.span.start, b.loc.span.end, b.code, &b.message)));
    out.dedup_by(|a, b| a.code == b.code && a.loc == b.loc && a.message == b.message);
    out
}

/// Whether a `# rustkeep: allow(code)` comment can silence a diagnostic of `code` in a file with
/// these facts: in a data or scenario file (a manifest's problems take a lint level), every code
/// but `toml-syntax` (the only sign of what was not checked) and the two about allow comments
/// themselves.
pub fn can_allow(facts: Option<&FileFacts>, code: Code) -> bool {
    facts.is_some() && !matches!(code, Code::TomlSyntax | Code::UnknownLint | Code::UnusedSuppression)
}

/// The allow comment (its index in `FileFacts::allows`) and the code in it that covers the
/// diagnostic: one in the block of comment lines directly above its own line, or above the
/// first line of any entry or sub-table that encloses it.
fn suppressed(file: &SourceFile, ff: &FileFacts, d: &Diagnostic) -> Option<(usize, usize)> {
    if ff.allows.is_empty() {
        return None;
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
    anchors.into_iter().find_map(|line| {
        let mut l = line;
        while l > 0 {
            l -= 1;
            let span = idx.line_span(text, l);
            let t = text[span].trim();
            if !t.starts_with('#') {
                break;
            }
            for (i, a) in ff.allows.iter().enumerate().filter(|(_, a)| a.line == l) {
                if let Some(c) = a.codes.iter().position(|c| c == name) {
                    return Some((i, c));
                }
            }
        }
        None
    })
}
