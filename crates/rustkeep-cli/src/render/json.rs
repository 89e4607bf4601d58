//! `--format json`: exactly the shape documented in docs/cli.md (`check --format json`), as serde
//! types whose doc comments are the descriptions of its JSON Schema (`rustkeep schema --for
//! check-json`, docs/json-schemas.md).

use rustkeep_data::diag::{Applicability, Code, Diagnostic, Loc, Severity};
use rustkeep_data::project::Project;
use rustkeep_data::text::Encoding;
use schemars::JsonSchema;
use serde::Serialize;

use super::Summary;

/// The output of `rustkeep check --format json`: every reported diagnostic and what was checked.
#[derive(Serialize, JsonSchema)]
#[schemars(title = "rustkeep check --format json", deny_unknown_fields)]
pub struct CheckReport<'a> {
    /// Sorted by file, then position.
    pub diagnostics: Vec<JsonDiagnostic<'a>>,
    pub summary: JsonSummary,
}

/// One diagnostic; `rustkeep check --format json-lines` prints one of these per line.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonDiagnostic<'a> {
    pub code: Code,
    /// After the `[lints]` levels of `rustkeep.toml`.
    pub severity: Severity,
    /// What is wrong, for people.
    pub message: &'a str,
    /// The file, relative to the current folder, with `/` between folders.
    pub file: &'a str,
    /// Where the diagnostic is (its primary range).
    pub range: JsonRange,
    /// Other places involved; present only when there are some.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<JsonRelated<'a>>,
    /// A suggested fix that replaces exactly `range`; present only when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "JsonFix")]
    pub fix: Option<JsonFix<'a>>,
}

/// Another place a diagnostic concerns, with what it has to do with it.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonRelated<'a> {
    /// What this place has to do with the diagnostic.
    pub message: &'a str,
    /// The file, relative to the current folder, with `/` between folders.
    pub file: &'a str,
    pub range: JsonRange,
}

/// A fix: write `replacement` in place of the diagnostic's `range`.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonFix<'a> {
    /// What the fix does, e.g. "rename to `name`".
    pub message: &'a str,
    /// The text to write there, TOML quotes included.
    pub replacement: &'a str,
    /// `safe`: the fix cannot change what the data means (a slip of case, separators or two
    /// swapped letters, with no other name as close), and `rustkeep check --fix` applies it.
    /// `unsafe`: a guess or a change of behaviour, applied only with `--fix --unsafe-fixes`.
    pub applicability: JsonApplicability,
}

/// Whether a fix may be applied without asking (docs/checking.md, "Safe and unsafe fixes").
#[derive(Serialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
pub enum JsonApplicability {
    Safe,
    Unsafe,
}

impl From<Applicability> for JsonApplicability {
    fn from(a: Applicability) -> JsonApplicability {
        match a {
            Applicability::Safe => JsonApplicability::Safe,
            Applicability::Unsafe => JsonApplicability::Unsafe,
        }
    }
}

/// A range of a file; `end` is exclusive, and `start` = `end` points between two characters.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonRange {
    pub start: JsonPosition,
    pub end: JsonPosition,
}

/// A position in a file, 1-based; columns count Unicode scalar values (characters).
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonPosition {
    /// 1-based line.
    #[schemars(range(min = 1))]
    pub line: u32,
    /// 1-based column, in Unicode scalar values (not bytes, not UTF-16 units).
    #[schemars(range(min = 1))]
    pub column: u32,
}

/// Counts of the reported diagnostics (after lint levels, allow comments and the baseline) and
/// of what was loaded besides the bundled core.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonSummary {
    /// Reported diagnostics of severity `error`.
    pub errors: usize,
    /// Reported diagnostics of severity `warning`.
    pub warnings: usize,
    /// Files loaded, manifests and `rustkeep.toml` included.
    pub files: usize,
    /// Mods loaded.
    pub mods: usize,
    /// How many known findings the baseline hid; only with `--baseline`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "usize")]
    pub baselined: Option<usize>,
}

/// 1-based line/column range in Unicode scalar values.
pub fn range(project: &Project, loc: &Loc) -> JsonRange {
    let f = project.file(loc.file);
    let at = |offset| {
        let p = f.index.position(&f.text, offset, Encoding::Scalar);
        JsonPosition { line: p.line + 1, column: p.col + 1 }
    };
    JsonRange { start: at(loc.span.start), end: at(loc.span.end) }
}

pub fn diagnostic<'a>(project: &'a Project, d: &'a Diagnostic) -> JsonDiagnostic<'a> {
    JsonDiagnostic {
        code: d.code,
        severity: d.severity,
        message: &d.message,
        file: &project.file(d.loc.file).path,
        range: range(project, &d.loc),
        related: d.related.iter().map(|r| JsonRelated { message: &r.message, file: &project.file(r.loc.file).path, range: range(project, &r.loc) }).collect(),
        // The replacement replaces the primary range, so only such fixes are shown here.
        fix: d.fix.as_ref().filter(|f| f.span == d.loc.span).map(|f| JsonFix {
            message: &f.message,
            replacement: &f.replacement,
            applicability: f.applicability.into(),
        }),
    }
}

/// `hidden`: how many known findings a baseline hid, when one is in use (the summary then says
/// so in `baselined`).
pub fn render(project: &Project, diags: &[Diagnostic], hidden: Option<usize>) -> String {
    let s = Summary::of(project, diags);
    let report = CheckReport {
        diagnostics: diags.iter().map(|d| diagnostic(project, d)).collect(),
        summary: JsonSummary { errors: s.errors, warnings: s.warnings, files: s.files, mods: s.mods, baselined: hidden },
    };
    let mut out = serde_json::to_string_pretty(&report).expect("the report serializes");
    out.push('\n');
    out
}
