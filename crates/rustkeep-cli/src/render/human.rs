//! `--format human`: codespan-reporting snippets, coloured on terminals.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::WriteColor};
use rustkeep_data::diag::{Diagnostic, Severity};
use rustkeep_data::echo::{inert, InertText};
use rustkeep_data::project::Project;

use super::Summary;

/// `hidden`: how many known findings a baseline hid, when one is in use.
pub fn render(project: &Project, diags: &[Diagnostic], hidden: Option<usize>, out: &mut dyn WriteColor) -> std::io::Result<()> {
    let mut files = SimpleFiles::new();
    let mut ids = std::collections::HashMap::new();
    // Source lines are shown with their control characters escaped (docs/reliability.md, "What
    // is echoed is inert"); a file that has any is shown as its escaped text, and the spans of
    // its labels are moved to match, so that they still underline what they name.
    let mut escaped = std::collections::HashMap::new();
    type Escaped = std::collections::HashMap<rustkeep_data::source::FileId, InertText>;
    let mut file_id = |fid: rustkeep_data::source::FileId, files: &mut SimpleFiles<String, std::sync::Arc<str>>, escaped: &mut Escaped| {
        *ids.entry(fid).or_insert_with(|| {
            let f = project.file(fid);
            let text = match InertText::of(&f.text) {
                Some(t) => {
                    let shown: std::sync::Arc<str> = t.text.as_str().into();
                    escaped.insert(fid, t);
                    shown
                }
                None => f.text.clone(),
            };
            files.add(inert(&f.path).into_owned(), text)
        })
    };
    let at = |escaped: &Escaped, fid, span: std::ops::Range<usize>| match escaped.get(&fid) {
        Some(t) => t.offset(span.start)..t.offset(span.end),
        None => span,
    };
    let config = term::Config::default();
    // Errors first: a warning is often the consequence of an error (a table unused because the
    // reference to it is misspelt), and the cause should be read first.
    let ordered = diags.iter().filter(|d| d.severity == Severity::Error).chain(diags.iter().filter(|d| d.severity != Severity::Error));
    for d in ordered {
        let primary = file_id(d.loc.file, &mut files, &mut escaped);
        let mut labels = vec![Label::primary(primary, at(&escaped, d.loc.file, clamp(project, d.loc.file, d.loc.span.clone())))];
        for r in &d.related {
            let fid = file_id(r.loc.file, &mut files, &mut escaped);
            labels.push(Label::secondary(fid, at(&escaped, r.loc.file, clamp(project, r.loc.file, r.loc.span.clone()))).with_message(r.message.clone()));
        }
        let sev = match d.severity {
            Severity::Error => CsSeverity::Error,
            Severity::Warning => CsSeverity::Warning,
        };
        let mut notes = Vec::new();
        if let Some(fix) = &d.fix {
            // The message names the replacement already ("replace with `x`").
            notes.push(super::fix_note(fix));
        }
        notes.push(format!("see `rustkeep explain {}`", d.code.name()));
        let cs = CsDiagnostic::new(sev).with_code(d.code.name()).with_message(d.message.clone()).with_labels(labels).with_notes(notes);
        if let Err(e) = term::emit_to_write_style(out, &config, &files, &cs) {
            writeln!(out, "{}: {e}", rustkeep_check::located(project, d))?;
        }
    }
    let s = Summary::of(project, diags);
    let known = match hidden {
        Some(n) => format!("; {n} known {} hidden by the baseline", if n == 1 { "finding" } else { "findings" }),
        None => String::new(),
    };
    writeln!(
        out,
        "{} {}, {} {} in {} {} of {} {} (and the core){known}",
        s.errors,
        if s.errors == 1 { "error" } else { "errors" },
        s.warnings,
        if s.warnings == 1 { "warning" } else { "warnings" },
        s.files,
        if s.files == 1 { "file" } else { "files" },
        s.mods,
        if s.mods == 1 { "mod" } else { "mods" },
    )?;
    Ok(())
}

/// Spans must lie on character boundaries inside the text for codespan.
fn clamp(project: &Project, fid: rustkeep_data::source::FileId, span: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let text = &project.file(fid).text;
    let fix = |mut i: usize| {
        i = i.min(text.len());
        while i > 0 && !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let s = fix(span.start);
    let e = fix(span.end).max(s);
    s..e
}
