//! `--format junit`: JUnit XML, which every CI shows as a test report: one test suite, one test
//! case per checked file (named by its path), and one `<failure>` per diagnostic in that file
//! (warnings included: `type` says which). A file without findings is a passing test case.

use rustkeep_data::diag::Diagnostic;
use rustkeep_data::project::Project;

use super::{line_col, xml};

pub fn render(project: &Project, diags: &[Diagnostic]) -> String {
    // Every user file checked, in path order, with its diagnostics.
    let mut files: Vec<(&str, Vec<&Diagnostic>)> = project
        .files
        .iter()
        .filter(|f| !f.bundled && f.disk_path.as_ref().is_none_or(|p| p.is_file()))
        .map(|f| (f.path.as_str(), diags.iter().filter(|d| d.loc.file == f.id).collect()))
        .collect();
    files.sort_by(|a, b| a.0.cmp(b.0));
    let tests = files.len();
    let failures = diags.len();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!("<testsuites name=\"rustkeep check\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n"));
    out.push_str(&format!("  <testsuite name=\"rustkeep check\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">\n"));
    for (path, ds) in files {
        if ds.is_empty() {
            out.push_str(&format!("    <testcase name=\"{}\" classname=\"rustkeep\" file=\"{}\"/>\n", xml(path), xml(path)));
            continue;
        }
        out.push_str(&format!("    <testcase name=\"{}\" classname=\"rustkeep\" file=\"{}\">\n", xml(path), xml(path)));
        for d in ds {
            let (line, col) = line_col(project, d.loc.file, d.loc.span.start);
            let msg = format!("{}:{line}:{col}: {} [{}]", path, d.message, d.code.name());
            out.push_str(&format!(
                "      <failure message=\"{}\" type=\"{}\">{} {}: {}</failure>\n",
                xml(&msg),
                d.severity.as_str(),
                d.severity.as_str(),
                d.code.name(),
                xml(&msg)
            ));
        }
        out.push_str("    </testcase>\n");
    }
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}
