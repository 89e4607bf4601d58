//! `--format github`: GitHub Actions workflow commands, one annotation per diagnostic.

use rustkeep_data::diag::{Diagnostic, Severity};
use rustkeep_data::project::Project;
use rustkeep_data::text::Encoding;

/// Escapes data for a workflow command (`%`, CR, LF) and, in properties, `:` and `,`: the one
/// escaper of GitHub's workflow commands (`check` and `test` both write them). No crate speaks
/// this small language.
pub fn escape(s: &str, property: bool) -> String {
    let mut out = s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A");
    if property {
        out = out.replace(':', "%3A").replace(',', "%2C");
    }
    out
}

pub fn render(project: &Project, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let f = project.file(d.loc.file);
        let s = f.index.position(&f.text, d.loc.span.start, Encoding::Scalar);
        let e = f.index.position(&f.text, d.loc.span.end, Encoding::Scalar);
        let kind = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut props = format!("file={},line={},endLine={}", escape(&f.path, true), s.line + 1, e.line + 1);
        if s.line == e.line {
            props.push_str(&format!(",col={},endColumn={}", s.col + 1, e.col + 1));
        } else {
            props.push_str(&format!(",col={}", s.col + 1));
        }
        props.push_str(&format!(",title={}", escape(&format!("rustkeep {}", d.code.name()), true)));
        let mut message = d.message.clone();
        if let Some(fix) = &d.fix {
            message.push('\n');
            message.push_str(&super::fix_note(fix));
        }
        out.push_str(&format!("::{kind} {props}::{}\n", escape(&message, false)));
    }
    out
}
