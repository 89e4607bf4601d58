//! `--format json-lines`: one diagnostic per line, each the object of `--format json`'s
//! `diagnostics` array, for streaming and `jq`; no summary line.

use rustkeep_data::diag::Diagnostic;
use rustkeep_data::project::Project;

pub fn render(project: &Project, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&serde_json::to_string(&super::json::diagnostic(project, d)).expect("JSON values serialize"));
        out.push('\n');
    }
    out
}
