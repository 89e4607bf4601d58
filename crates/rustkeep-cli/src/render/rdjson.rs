//! `--format rdjson`: reviewdog's Diagnostic Format (one `DiagnosticResult` object), so reviewdog
//! can comment on pull requests of any forge and offer fixes as suggestions.
//!
//! Positions follow the format: lines from 1, columns from 1 counted in UTF-8 bytes, end
//! exclusive. A diagnostic's safe fix becomes a suggestion replacing the fix's range.

use rustkeep_data::diag::{Applicability, Diagnostic, Loc, Severity};
use rustkeep_data::project::Project;
use rustkeep_data::text::Encoding;
use serde_json::{json, Value};

fn position(project: &Project, loc: &Loc, offset: usize) -> Value {
    let f = project.file(loc.file);
    let p = f.index.position(&f.text, offset, Encoding::Utf8);
    json!({ "line": p.line + 1, "column": p.col + 1 })
}

fn range(project: &Project, loc: &Loc) -> Value {
    json!({ "start": position(project, loc, loc.span.start), "end": position(project, loc, loc.span.end) })
}

fn location(project: &Project, loc: &Loc) -> Value {
    json!({ "path": project.file(loc.file).path, "range": range(project, loc) })
}

pub fn render(project: &Project, diags: &[Diagnostic]) -> String {
    let source = json!({ "name": "rustkeep", "url": env!("CARGO_PKG_REPOSITORY") });
    let list: Vec<Value> = diags
        .iter()
        .map(|d| {
            let mut v = json!({
                "message": d.message,
                "location": location(project, &d.loc),
                "severity": match d.severity { Severity::Error => "ERROR", Severity::Warning => "WARNING" },
                "source": source,
                "code": { "value": d.code.name(), "url": super::docs_url(d.code.name()) },
            });
            // A suggestion is committed with one click, or in a batch: only a safe fix is offered
            // that way; an unsafe one stays a "did you mean" in the message.
            if let Some(fix) = d.fix.as_ref().filter(|f| f.applicability == Applicability::Safe) {
                let at = Loc { file: d.loc.file, span: fix.span.clone() };
                v["suggestions"] = json!([{ "range": range(project, &at), "text": fix.replacement }]);
            }
            if !d.related.is_empty() {
                v["related_locations"] = d.related.iter().map(|r| json!({ "message": r.message, "location": location(project, &r.loc) })).collect();
            }
            v
        })
        .collect();
    let doc = json!({ "source": source, "diagnostics": list });
    let mut out = serde_json::to_string_pretty(&doc).expect("JSON values serialize");
    out.push('\n');
    out
}
