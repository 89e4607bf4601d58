//! `--format sarif`: SARIF 2.1.0 for code scanning, one rule per diagnostic code.

use rustkeep_data::diag::{Code, Diagnostic, Severity};
use rustkeep_data::project::Project;
use rustkeep_data::text::Encoding;
use serde_json::{json, Value};

fn region(project: &Project, loc: &rustkeep_data::diag::Loc) -> Value {
    let f = project.file(loc.file);
    let s = f.index.position(&f.text, loc.span.start, Encoding::Scalar);
    let e = f.index.position(&f.text, loc.span.end, Encoding::Scalar);
    json!({ "startLine": s.line + 1, "startColumn": s.col + 1, "endLine": e.line + 1, "endColumn": e.col + 1 })
}

fn location(project: &Project, loc: &rustkeep_data::diag::Loc) -> Value {
    json!({ "physicalLocation": { "artifactLocation": { "uri": project.file(loc.file).path }, "region": region(project, loc) } })
}

pub fn render(project: &Project, diags: &[Diagnostic]) -> String {
    let rules: Vec<Value> = Code::ALL
        .iter()
        .map(|c| {
            json!({
                "id": c.name(),
                "name": c.name(),
                "shortDescription": { "text": c.summary() },
                "fullDescription": { "text": rustkeep_check::explain::doc(*c).meaning },
                "help": { "text": rustkeep_check::explain::text(*c), "markdown": rustkeep_check::explain::markdown(*c) },
                "helpUri": format!("https://rustkeep.invalid/docs/diagnostics#{}", c.name()),
                "defaultConfiguration": { "level": match c.default_severity() { Severity::Error => "error", Severity::Warning => "warning" } },
            })
        })
        .collect();
    let results: Vec<Value> = diags
        .iter()
        .map(|d| {
            let mut r = json!({
                "ruleId": d.code.name(),
                "ruleIndex": Code::ALL.iter().position(|c| *c == d.code).unwrap_or(0),
                "level": match d.severity { Severity::Error => "error", Severity::Warning => "warning" },
                "message": { "text": d.message },
                "locations": [location(project, &d.loc)],
                "partialFingerprints": { "rustkeepFingerprint/v1": rustkeep_check::baseline::fingerprint(project, d) },
            });
            if !d.related.is_empty() {
                r["relatedLocations"] = d
                    .related
                    .iter()
                    .enumerate()
                    .map(|(i, rel)| {
                        let mut l = location(project, &rel.loc);
                        l["id"] = json!(i);
                        l["message"] = json!({ "text": rel.message });
                        l
                    })
                    .collect();
            }
            if let Some(fix) = &d.fix {
                r["fixes"] = json!([{
                    "description": { "text": fix.message },
                    "artifactChanges": [{
                        "artifactLocation": { "uri": project.file(d.loc.file).path },
                        "replacements": [{ "deletedRegion": region(project, &rustkeep_data::diag::Loc { file: d.loc.file, span: fix.span.clone() }), "insertedContent": { "text": fix.replacement } }],
                    }],
                }]);
            }
            r
        })
        .collect();
    let doc = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "rustkeep",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://rustkeep.invalid/modkit",
                "rules": rules,
            } },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let mut out = serde_json::to_string_pretty(&doc).expect("JSON values serialize");
    out.push('\n');
    out
}
