//! `check --fix`: applies suggested fixes as text edits on their spans, so the file's layout and
//! comments stay exactly as they were. Which fixes are applied is a property of each fix
//! ([`Applicability`], decided where the fix is built): the safe ones, and the unsafe ones only
//! when asked. A file whose result would not parse as TOML is left unchanged.
//!
//! One pass fixes what one analysis reports; a fix can uncover the next mistake (an action whose
//! name was wrong is checked field by field only once the name is right), so the command line
//! runs passes until nothing changes ([`MAX_PASSES`] at most).

use std::collections::BTreeMap;
use std::ops::Range;

use rustkeep_data::diag::{Applicability, Diagnostic};
use rustkeep_data::project::Project;
use rustkeep_data::source::FileId;
use rustkeep_data::tree::parse_toml;

/// More passes than any chain of fixes needs: each pass removes at least one mistake, and a
/// fix never introduces one, so this only stops a pair of fixes that would undo each other.
pub const MAX_PASSES: usize = 10;

/// Which fixes to apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// Only fixes marked [`Applicability::Safe`].
    Safe,
    /// Every fix (`--unsafe-fixes`).
    All,
}

impl Which {
    pub fn admits(self, a: Applicability) -> bool {
        self == Which::All || a == Applicability::Safe
    }
}

/// Whether a diagnostic carries a fix `--fix` applies without asking.
pub fn is_safe(d: &Diagnostic) -> bool {
    d.fix.as_ref().is_some_and(|f| f.applicability == Applicability::Safe)
}

/// One applied edit, for the list `--fix` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// Zero-based line of the edit's start, in the text the edit was applied to.
    pub line: usize,
    /// The text that was replaced.
    pub before: String,
    /// What replaced it.
    pub after: String,
    /// The fix's own words ("rename to `items`").
    pub message: String,
    pub applicability: Applicability,
}

/// The fixed text of one file.
#[derive(Clone, Debug)]
pub struct FileFix {
    pub file: FileId,
    pub text: String,
    /// The edits, in file order.
    pub changes: Vec<Change>,
}

/// The new text of every file with fixes to apply, one pass.
pub fn apply(project: &Project, diags: &[Diagnostic], which: Which) -> Vec<FileFix> {
    let mut by_file: BTreeMap<FileId, Vec<(Range<usize>, &Diagnostic)>> = BTreeMap::new();
    for d in diags {
        let Some(fix) = d.fix.as_ref().filter(|f| which.admits(f.applicability)) else { continue };
        by_file.entry(d.loc.file).or_default().push((fix.span.clone(), d));
    }
    let mut out = Vec::new();
    for (fid, mut edits) in by_file {
        let f = project.file(fid);
        // The bundled core is the toolkit's own data; files in memory (tests) are fixed like any
        // other, the caller decides where a text goes.
        if f.bundled {
            continue;
        }
        // Safe fixes first where two would touch the same text; then by position.
        edits.sort_by_key(|(s, d)| (s.start, s.end, d.fix.as_ref().map(|f| f.applicability != Applicability::Safe)));
        edits.dedup_by(|a, b| a.0 == b.0);
        // Keep non-overlapping edits only; apply back to front so spans stay valid.
        let mut kept: Vec<(Range<usize>, &Diagnostic)> = Vec::new();
        for e in edits {
            let fits = e.0.end <= f.text.len() && f.text.is_char_boundary(e.0.start) && f.text.is_char_boundary(e.0.end);
            if fits && kept.last().is_none_or(|k| k.0.end <= e.0.start) {
                kept.push(e);
            }
        }
        let mut text = f.text.to_string();
        let mut changes = Vec::with_capacity(kept.len());
        for (span, d) in kept.iter().rev() {
            let fix = d.fix.as_ref().expect("filtered above");
            changes.push(Change {
                line: f.index.line_of(span.start),
                before: f.text[span.clone()].to_string(),
                after: fix.replacement.clone(),
                message: fix.message.clone(),
                applicability: fix.applicability,
            });
            text.replace_range(span.clone(), &fix.replacement);
        }
        changes.reverse();
        let (_, errors) = parse_toml(&text);
        let had_errors = !parse_toml(&f.text).1.is_empty();
        if !changes.is_empty() && (errors.is_empty() || had_errors) {
            out.push(FileFix { file: fid, text, changes });
        }
    }
    out
}

/// How many fixes the diagnostics offer that [`Which::Safe`] leaves out.
pub fn unsafe_available(diags: &[Diagnostic]) -> usize {
    diags.iter().filter(|d| d.fix.as_ref().is_some_and(|f| f.applicability == Applicability::Unsafe)).count()
}
