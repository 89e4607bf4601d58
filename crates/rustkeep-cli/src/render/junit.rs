//! JUnit XML, which every CI shows as a test report: the one writer of `check --format junit`
//! and `test --format junit`. A [`Report`] holds test suites of test cases, each passing or with a
//! `<failure>` or an `<error>`; the document is written with `quick-xml`'s writer (the
//! declaration, the elements, the indentation), its values through the one XML escaper
//! ([`rustkeep_data::echo::xml`]).
//!
//! `check`: one test suite, one test case per checked file (named by its path), and one
//! `<failure>` per diagnostic in that file (warnings included: `type` says which). A file
//! without findings is a passing test case.

use std::borrow::Cow;

use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
use quick_xml::name::QName;
use quick_xml::Writer;
use rustkeep_data::diag::Diagnostic;
use rustkeep_data::echo::xml;
use rustkeep_data::project::Project;

use super::line_col;

/// A whole report: `<testsuites>` with its counts.
pub struct Report {
    pub name: String,
    pub counts: Counts,
    pub suites: Vec<Suite>,
}

/// One `<testsuite>`; `skipped` is written when it is given.
pub struct Suite {
    pub name: String,
    pub counts: Counts,
    pub skipped: Option<usize>,
    pub cases: Vec<Case>,
}

/// The `tests`, `failures` and `errors` attributes of a report or a suite.
#[derive(Clone, Copy)]
pub struct Counts {
    pub tests: usize,
    pub failures: usize,
    pub errors: usize,
}

impl Counts {
    fn attributes(self) -> [(&'static str, String); 3] {
        [("tests", self.tests.to_string()), ("failures", self.failures.to_string()), ("errors", self.errors.to_string())]
    }
}

/// One `<testcase>`; `file` and `line` are written when they are given.
pub struct Case {
    pub name: String,
    pub classname: String,
    pub file: Option<String>,
    pub line: Option<usize>,
    /// What went wrong, if anything: a case without any passed.
    pub outcomes: Vec<Outcome>,
}

/// A `<failure>` (`error`: false) or an `<error>` of a test case, with its text.
pub struct Outcome {
    pub error: bool,
    pub message: String,
    /// The `type` attribute, when it is given.
    pub kind: Option<String>,
    pub text: String,
}

impl Report {
    /// The document, declaration first, indented by two spaces, ending with a line end.
    pub fn to_xml(&self) -> String {
        let mut w = Writer::new_with_indent(Vec::new(), b' ', 2);
        // Writing into memory cannot fail.
        let _ = self.write(&mut w);
        String::from_utf8(w.into_inner()).unwrap_or_default()
    }

    fn write(&self, w: &mut Writer<Vec<u8>>) -> std::io::Result<()> {
        w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
        let root = start("testsuites", &self.name, self.counts.attributes());
        w.write_event(Event::Start(root))?;
        for suite in &self.suites {
            let mut tag = start("testsuite", &suite.name, suite.counts.attributes());
            if let Some(skipped) = suite.skipped {
                push(&mut tag, "skipped", &skipped.to_string());
            }
            w.write_event(Event::Start(tag))?;
            for case in &suite.cases {
                let mut tag = start("testcase", &case.name, [("classname", case.classname.clone())]);
                if let Some(file) = &case.file {
                    push(&mut tag, "file", file);
                }
                if let Some(line) = case.line {
                    push(&mut tag, "line", &line.to_string());
                }
                if case.outcomes.is_empty() {
                    w.write_event(Event::Empty(tag))?;
                    continue;
                }
                w.write_event(Event::Start(tag))?;
                for o in &case.outcomes {
                    let name = if o.error { "error" } else { "failure" };
                    let mut tag = BytesStart::new(name);
                    push(&mut tag, "message", &o.message);
                    if let Some(kind) = &o.kind {
                        push(&mut tag, "type", kind);
                    }
                    w.write_event(Event::Start(tag))?;
                    w.write_event(Event::Text(BytesText::from_escaped(xml(&o.text))))?;
                    w.write_event(Event::End(BytesEnd::new(name)))?;
                }
                w.write_event(Event::End(BytesEnd::new("testcase")))?;
            }
            w.write_event(Event::End(BytesEnd::new("testsuite")))?;
        }
        w.write_event(Event::End(BytesEnd::new("testsuites")))?;
        w.write_indent()
    }
}

/// An element named `name` with its `name` attribute and then `rest`.
fn start<const N: usize>(tag: &'static str, name: &str, rest: [(&'static str, String); N]) -> BytesStart<'static> {
    let mut t = BytesStart::new(tag);
    push(&mut t, "name", name);
    for (k, v) in rest {
        push(&mut t, k, &v);
    }
    t
}

/// Adds an attribute, its value escaped by [`xml`] (line ends as character references, which
/// `quick-xml`'s own attribute escaping would leave to be read as spaces).
fn push(tag: &mut BytesStart<'_>, key: &'static str, value: &str) {
    tag.push_attribute(Attribute { key: QName(key.as_bytes()), value: Cow::Owned(xml(value).into_bytes()) });
}

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
    let cases = files
        .into_iter()
        .map(|(path, ds)| Case {
            name: path.to_string(),
            classname: "rustkeep".into(),
            file: Some(path.to_string()),
            line: None,
            outcomes: ds
                .into_iter()
                .map(|d| {
                    let (line, col) = line_col(project, d.loc.file, d.loc.span.start);
                    let msg = format!("{}:{line}:{col}: {} [{}]", path, d.message, d.code.name());
                    Outcome {
                        error: false,
                        kind: Some(d.severity.as_str().into()),
                        text: format!("{} {}: {msg}", d.severity.as_str(), d.code.name()),
                        message: msg,
                    }
                })
                .collect(),
        })
        .collect();
    let name = "rustkeep check".to_string();
    let counts = Counts { tests, failures, errors: 0 };
    let suite = Suite { name: name.clone(), counts, skipped: Some(0), cases };
    Report { name, counts, suites: vec![suite] }.to_xml()
}
