//! One renderer per output format (human, JSON, SARIF, GitHub annotations).

use rustkeep_data::diag::Loc;
use rustkeep_data::project::Project;
use rustkeep_data::text::Encoding;
use serde_json::{json, Value};

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;

/// 1-based line/column range in Unicode scalar values (docs/cli.md, `check --format json`).
pub fn range_json(project: &Project, loc: &Loc) -> Value {
    let f = project.file(loc.file);
    let s = f.index.position(&f.text, loc.span.start, Encoding::Scalar);
    let e = f.index.position(&f.text, loc.span.end, Encoding::Scalar);
    json!({
        "start": { "line": s.line + 1, "column": s.col + 1 },
        "end": { "line": e.line + 1, "column": e.col + 1 },
    })
}

/// Counts for the summary line / object.
pub struct Summary {
    pub errors: usize,
    pub warnings: usize,
    pub files: usize,
    pub mods: usize,
}

impl Summary {
    pub fn of(project: &Project, diags: &[rustkeep_data::diag::Diagnostic]) -> Summary {
        use rustkeep_data::diag::Severity;
        Summary {
            errors: diags.iter().filter(|d| d.severity == Severity::Error).count(),
            warnings: diags.iter().filter(|d| d.severity == Severity::Warning).count(),
            files: project.files.iter().filter(|f| !f.bundled && f.disk_path.as_ref().is_none_or(|p| p.is_file())).count(),
            mods: project.mods.iter().filter(|m| !m.is_core).count(),
        }
    }
}
