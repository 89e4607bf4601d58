//! `--format json`: exactly the shape documented in docs/cli.md (`check --format json`).

use rustkeep_data::diag::Diagnostic;
use rustkeep_data::project::Project;
use serde_json::{json, Value};

use super::{range_json, Summary};

pub fn diagnostic(project: &Project, d: &Diagnostic) -> Value {
    let mut v = json!({
        "code": d.code.name(),
        "severity": d.severity.as_str(),
        "message": d.message,
        "file": project.file(d.loc.file).path,
        "range": range_json(project, &d.loc),
    });
    if !d.related.is_empty() {
        v["related"] =
            d.related.iter().map(|r| json!({ "message": r.message, "file": project.file(r.loc.file).path, "range": range_json(project, &r.loc) })).collect();
    }
    // §6.1: the replacement replaces the primary range, so only such fixes are shown here.
    if let Some(fix) = d.fix.as_ref().filter(|f| f.span == d.loc.span) {
        v["fix"] = json!({ "message": fix.message, "replacement": fix.replacement });
    }
    v
}

/// `hidden`: how many known findings a baseline hid, when one is in use (the summary then says
/// so in `baselined`).
pub fn render(project: &Project, diags: &[Diagnostic], hidden: Option<usize>) -> String {
    let s = Summary::of(project, diags);
    let mut doc = json!({
        "diagnostics": diags.iter().map(|d| diagnostic(project, d)).collect::<Vec<_>>(),
        "summary": { "errors": s.errors, "warnings": s.warnings, "files": s.files, "mods": s.mods },
    });
    if let Some(n) = hidden {
        doc["summary"]["baselined"] = json!(n);
    }
    let mut out = serde_json::to_string_pretty(&doc).expect("JSON values serialize");
    out.push('\n');
    out
}
