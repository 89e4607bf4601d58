//! `--format sarif`: SARIF 2.1.0 for code scanning, one rule per diagnostic code.
//!
//! What the official validator (`Sarif.Multitool validate`) asks for, and code scanning needs:
//! - Artifact locations are URIs. A file below the source root (the repository, else the current
//!   folder; see [`super::source_root`]) is a relative, percent-encoded URI against the base
//!   `%SRCROOT%`, which `originalUriBaseIds` declares as a `file://` URI; a file elsewhere is an
//!   absolute `file://` URI. A file of the bundled core (only ever a related location) is relative
//!   to `RUSTKEEP_CORE`, declared without a URI: it has none on disk (`rustkeep lsp` serves it).
//! - A rule's `id` is the stable code (`unknown-event`); its `name` is the code in PascalCase
//!   (`UnknownEvent`), never equal to the id; `helpUri` points at the code's documentation.
//! - `partialFingerprints` hold the baseline's fingerprint, which does not depend on the line, so
//!   an alert keeps its identity when unrelated edits move it.

use std::path::Path;

use rustkeep_data::diag::{Code, Diagnostic, Loc, Severity};
use rustkeep_data::project::Project;
use serde_json::{json, Value};

use super::{file_uri, line_col, percent_encode_path, relative_to, source_root, unique_fingerprints};

const SRCROOT: &str = "%SRCROOT%";
const CORE_BASE: &str = "RUSTKEEP_CORE";

/// `unknown-event` → `UnknownEvent`.
pub fn rule_name(code: Code) -> String {
    code.name()
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

fn region(project: &Project, loc: &Loc) -> Value {
    let (sl, sc) = line_col(project, loc.file, loc.span.start);
    let (el, ec) = line_col(project, loc.file, loc.span.end);
    json!({ "startLine": sl, "startColumn": sc, "endLine": el, "endColumn": ec })
}

struct Paths<'a> {
    project: &'a Project,
    root: std::path::PathBuf,
}

impl Paths<'_> {
    fn artifact(&self, loc: &Loc) -> Value {
        let f = self.project.file(loc.file);
        if let Some(rel) = relative_to(self.project, loc.file, &self.root) {
            return json!({ "uri": percent_encode_path(&rel), "uriBaseId": SRCROOT });
        }
        if let Some(disk) = &f.disk_path {
            return json!({ "uri": file_uri(disk, false) });
        }
        // The bundled core: `<core>/items.toml` → `items.toml` against RUSTKEEP_CORE.
        let rel = f.path.split_once('/').map(|(_, r)| r).unwrap_or(&f.path);
        json!({ "uri": percent_encode_path(rel), "uriBaseId": CORE_BASE })
    }

    fn location(&self, loc: &Loc) -> Value {
        json!({ "physicalLocation": { "artifactLocation": self.artifact(loc), "region": region(self.project, loc) } })
    }
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

pub fn render(project: &Project, diags: &[Diagnostic], cwd: &Path) -> String {
    let paths = Paths { project, root: source_root(cwd) };
    let rules: Vec<Value> = Code::ALL
        .iter()
        .map(|c| {
            json!({
                "id": c.name(),
                "name": rule_name(*c),
                "shortDescription": { "text": c.summary() },
                "fullDescription": { "text": rustkeep_check::explain::doc(*c).meaning() },
                "help": { "text": rustkeep_check::explain::text(*c), "markdown": rustkeep_check::explain::markdown(*c) },
                "helpUri": super::docs_url(c.name()),
                "defaultConfiguration": { "level": level(c.default_severity()) },
            })
        })
        .collect();
    let fingerprints = unique_fingerprints(project, diags);
    let results: Vec<Value> = diags
        .iter()
        .zip(&fingerprints)
        .map(|(d, fp)| {
            let mut r = json!({
                "ruleId": d.code.name(),
                "ruleIndex": Code::ALL.iter().position(|c| *c == d.code).unwrap_or(0),
                "level": level(d.severity),
                "message": { "text": d.message },
                "locations": [paths.location(&d.loc)],
                "partialFingerprints": { "rustkeepFingerprint/v1": fp },
            });
            if !d.related.is_empty() {
                r["relatedLocations"] = d
                    .related
                    .iter()
                    .enumerate()
                    .map(|(i, rel)| {
                        let mut l = paths.location(&rel.loc);
                        l["id"] = json!(i);
                        l["message"] = json!({ "text": rel.message });
                        l
                    })
                    .collect();
            }
            if let Some(fix) = &d.fix {
                let at = Loc { file: d.loc.file, span: fix.span.clone() };
                r["fixes"] = json!([{
                    "description": { "text": fix.message },
                    // SARIF has no word for it: a property says whether `--fix` applies it.
                    "properties": { "applicability": fix.applicability.as_str() },
                    "artifactChanges": [{
                        "artifactLocation": paths.artifact(&d.loc),
                        "replacements": [{ "deletedRegion": region(project, &at), "insertedContent": { "text": fix.replacement } }],
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
                "informationUri": env!("CARGO_PKG_REPOSITORY"),
                "rules": rules,
            } },
            "originalUriBaseIds": {
                SRCROOT: { "uri": file_uri(&paths.root, true), "description": { "text": "The repository (or, outside one, the folder rustkeep ran in)." } },
                CORE_BASE: { "description": { "text": "The bundled base game; `rustkeep lsp` serves its files to editors." } },
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let mut out = serde_json::to_string_pretty(&doc).expect("JSON values serialize");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_names_are_pascal_case_and_never_the_id() {
        assert_eq!(rule_name(Code::UnknownEvent), "UnknownEvent");
        assert_eq!(rule_name(Code::TomlSyntax), "TomlSyntax");
        for c in Code::ALL {
            assert_ne!(rule_name(*c), c.name());
            assert!(rule_name(*c).chars().all(|ch| ch.is_ascii_alphanumeric()));
        }
    }

    #[test]
    fn paths_become_uris() {
        assert_eq!(percent_encode_path("mods/my mod/ä.toml"), "mods/my%20mod/%C3%A4.toml");
        assert_eq!(file_uri(Path::new("/home/ci/mods"), true), "file:///home/ci/mods/");
    }
}
