//! `check --fix`: applies every safe suggested fix as a text edit on the fix's span, so the
//! file's layout and comments stay exactly as they were. A file whose result would not parse as
//! TOML is left unchanged.

use std::collections::BTreeMap;

use rustkeep_data::diag::{Code, Diagnostic};
use rustkeep_data::lower::parse_toml;
use rustkeep_data::project::Project;
use rustkeep_data::source::FileId;

/// Whether a fix may be applied without asking: it replaces a name or ID that cannot be right by
/// the one closest to it. Fixes that change behaviour (`target` → `self`) are offered in the
/// editor only.
pub fn is_safe(d: &Diagnostic) -> bool {
    d.fix.is_some() && !matches!(d.code, Code::TargetNeverPresent)
}

/// The new text of every file with safe fixes: `(file, new text, fixes applied)`.
pub fn apply(project: &Project, diags: &[Diagnostic]) -> Vec<(FileId, String, usize)> {
    let mut by_file: BTreeMap<FileId, Vec<(std::ops::Range<usize>, &str)>> = BTreeMap::new();
    for d in diags.iter().filter(|d| is_safe(d)) {
        let fix = d.fix.as_ref().expect("is_safe checks");
        by_file.entry(d.loc.file).or_default().push((fix.span.clone(), fix.replacement.as_str()));
    }
    let mut out = Vec::new();
    for (fid, mut edits) in by_file {
        let f = project.file(fid);
        if f.bundled || f.disk_path.is_none() {
            continue;
        }
        edits.sort_by_key(|(s, _)| (s.start, s.end));
        edits.dedup_by(|a, b| a.0 == b.0);
        // Keep non-overlapping edits only; apply back to front so spans stay valid.
        let mut kept: Vec<(std::ops::Range<usize>, &str)> = Vec::new();
        for e in edits {
            if kept.last().is_none_or(|k| k.0.end <= e.0.start) {
                kept.push(e);
            }
        }
        let mut text = f.text.to_string();
        for (span, rep) in kept.iter().rev() {
            if span.end <= text.len() && text.is_char_boundary(span.start) && text.is_char_boundary(span.end) {
                text.replace_range(span.clone(), rep);
            }
        }
        let (_, errors) = parse_toml(&text);
        let had_errors = !parse_toml(&f.text).1.is_empty();
        if errors.is_empty() || had_errors {
            out.push((fid, text, kept.len()));
        }
    }
    out
}
