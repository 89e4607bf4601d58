//! `--format gitlab`: a GitLab Code Quality report (the JSON array a job publishes as
//! `artifacts:reports:codequality`), which GitLab shows in merge requests.
//!
//! Fields: `description`, `check_name` (the code), `fingerprint` (unique per finding and stable
//! when lines move), `severity` (`major` for errors, `minor` for warnings, on GitLab's scale of
//! info, minor, major, critical, blocker), `location.path` (relative to the repository, see
//! [`super::source_root`]) and `location.lines.begin`/`end`.

use std::path::Path;

use rustkeep_data::diag::{Diagnostic, Severity};
use rustkeep_data::project::Project;
use serde_json::{json, Value};

use super::{line_col, relative_to, source_root, unique_fingerprints};

pub fn render(project: &Project, diags: &[Diagnostic], cwd: &Path) -> String {
    let root = source_root(cwd);
    let fingerprints = unique_fingerprints(project, diags);
    let issues: Vec<Value> = diags
        .iter()
        .zip(fingerprints)
        .map(|(d, fp)| {
            let path = relative_to(project, d.loc.file, &root).unwrap_or_else(|| project.file(d.loc.file).path.clone());
            let (begin, _) = line_col(project, d.loc.file, d.loc.span.start);
            let (end, _) = line_col(project, d.loc.file, d.loc.span.end);
            json!({
                "description": format!("{} [{}]", d.message, d.code.name()),
                "check_name": d.code.name(),
                "fingerprint": fp,
                "severity": match d.severity { Severity::Error => "major", Severity::Warning => "minor" },
                "location": { "path": path, "lines": { "begin": begin, "end": end.max(begin) } },
            })
        })
        .collect();
    let mut out = serde_json::to_string_pretty(&issues).expect("JSON values serialize");
    out.push('\n');
    out
}
