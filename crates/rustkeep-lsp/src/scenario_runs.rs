//! Runs of a scenario file's `[[expect]]` in the editor (docs/editors/lsp.md, "Scenario runs"):
//! what a run needs, the run itself — exactly `rustkeep test`'s for the same texts — and how its
//! result is told to the user (diagnostics, a message, the code lens's title).
//!
//! A run is heavy (it loads the scenario's mods and analyses them in full: the server keeps only
//! outlines of the files that are not open, which an engine cannot play on), so it never runs on
//! the state thread or for a keystroke: the state hands out a [`RunInput`] (the open texts), the
//! run task (`run_task.rs`) runs [`run`] on a blocking thread, and its [`Outcome`] comes back to
//! the state as a change of its own, tagged with the text it ran on. The state shows the failures
//! as diagnostics of the file only as long as the file still has that text.

use std::path::PathBuf;
use std::sync::Arc;

use rustkeep_data::project::Overlay;
use rustkeep_data::text::{Encoding, LineIndex, Span};
use rustkeep_engine::scenario::{self, expect::Checked};

use crate::lsp;

/// The command of the code lens (`workspace/executeCommand`, the scenario file's URI as argument).
pub const RUN_COMMAND: &str = "rustkeep.runScenario";
/// The `source` of a failed expectation's diagnostic (not `rustkeep`: it is no check of the data).
pub const SOURCE: &str = "rustkeep test";
/// The `code` of a failed expectation's diagnostic.
pub const CODE: &str = "expectation-failed";

/// What a run needs, taken from the state (cheaply: the texts of the open documents).
#[derive(Clone, Debug)]
pub struct RunInput {
    /// The scenario file on disk.
    pub path: PathBuf,
    /// Its text now (what the run plays).
    pub text: Arc<str>,
    /// The open documents, which shadow the disk as they do for the checks.
    pub overlay: Overlay,
    /// The folder paths are shown relative to.
    pub cwd: PathBuf,
}

/// How a run came out.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The scenario ran; its expectations in the order written.
    Ran(Vec<Checked>),
    /// It was not run: the scenario or the data it loads does not validate (the refusal of
    /// `rustkeep test`, whose details the file's own diagnostics give).
    NotRun(String),
}

impl Outcome {
    /// Expectations passed and failed.
    pub fn counts(&self) -> (usize, usize) {
        match self {
            Outcome::Ran(c) => {
                let failed = c.iter().filter(|c| !c.passed).count();
                (c.len() - failed, failed)
            }
            Outcome::NotRun(_) => (0, 0),
        }
    }

    /// The code lens's title after this run: `▶ run · 11 passed`, `▶ run · 2 failed`.
    pub fn lens_title(&self) -> String {
        match self {
            Outcome::Ran(c) if c.is_empty() => format!("{LENS} · no expectations"),
            Outcome::Ran(_) => match self.counts() {
                (passed, 0) => format!("{LENS} · {passed} passed"),
                (_, failed) => format!("{LENS} · {failed} failed"),
            },
            Outcome::NotRun(_) => format!("{LENS} · not run"),
        }
    }
}

/// The code lens's title before any run.
pub const LENS: &str = "▶ run";

/// Loads the scenario with its mods (the open documents shadowing the disk), analyses them and,
/// when neither the scenario nor the data has errors, runs it: `rustkeep test` on one file (the
/// same `rustkeep_ide::scenario::open`), with the editor's texts. `None` when `cancelled` says, between the phases,
/// that the result would not be wanted any more.
pub fn run(input: &RunInput, cancelled: &dyn Fn() -> bool) -> Option<Outcome> {
    let (world, sc) = match rustkeep_ide::scenario::open(&input.path, &[], &input.cwd, &input.overlay, cancelled)? {
        Ok(opened) => opened,
        Err(refusal) => return Some(Outcome::NotRun(refusal)),
    };
    if cancelled() {
        return None;
    }
    Some(Outcome::Ran(scenario::run(&world, &sc).expectations))
}

/// `expected done, got started (quest core:rattenplage)`, `… (… after step 0)`.
pub fn failure_message(c: &Checked) -> String {
    format!("{} ({})", c.outcome(), c.subject())
}

/// The range of an `[[expect]]` table's first line in `text`.
pub fn first_line(text: &str, index: &LineIndex, span: &Span, enc: Encoding) -> lsp::Range {
    let start = span.start.min(text.len());
    let line = index.line_span(text, index.line_of(start));
    let end = line.end.min(span.end.max(start)).max(start);
    let pos = |o: usize| {
        let lc = index.position(text, o, enc);
        lsp::Position { line: lc.line, character: lc.col }
    };
    lsp::Range { start: pos(start), end: pos(end) }
}

/// The diagnostics of a run: one error per failed expectation, on its table's first line.
pub fn diagnostics(text: &str, outcome: &Outcome, enc: Encoding) -> Vec<lsp::Diagnostic> {
    let Outcome::Ran(checked) = outcome else { return Vec::new() };
    let index = LineIndex::new(text);
    checked
        .iter()
        .filter(|c| !c.passed)
        .map(|c| lsp::Diagnostic {
            range: first_line(text, &index, &c.span, enc),
            severity: Some(lsp::DiagnosticSeverity::Error),
            code: Some(lsp::Code::String(CODE.into())),
            source: Some(SOURCE.into()),
            message: lsp::Message::String(failure_message(c)),
            ..Default::default()
        })
        .collect()
}

/// How many failures the message after a run names.
const FAILURES_SHOWN: usize = 3;

/// The message after a run of the command (`window/showMessage`): `rustkeep test: 11 passed, 0
/// failed`, or the counts and the first failures with their lines, or why it was not run.
pub fn message(text: &str, outcome: &Outcome) -> (lsp::MessageType, String) {
    match outcome {
        Outcome::NotRun(why) => (lsp::MessageType::Warning, format!("{SOURCE}: not run: {why}")),
        Outcome::Ran(checked) => {
            let (passed, failed) = outcome.counts();
            let mut msg = format!("{SOURCE}: {passed} passed, {failed} failed");
            if checked.is_empty() {
                msg.push_str(" (the scenario ran; it has no [[expect]])");
            }
            if failed == 0 {
                return (lsp::MessageType::Info, msg);
            }
            let index = LineIndex::new(text);
            let shown: Vec<String> = checked
                .iter()
                .filter(|c| !c.passed)
                .take(FAILURES_SHOWN)
                .map(|c| format!("line {}: {}", index.line_of(c.span.start) + 1, failure_message(c)))
                .collect();
            msg.push_str(" — ");
            msg.push_str(&shown.join("; "));
            if failed > FAILURES_SHOWN {
                msg.push_str(&format!("; and {} more", failed - FAILURES_SHOWN));
            }
            (lsp::MessageType::Error, msg)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(span: Span, passed: bool) -> Checked {
        Checked {
            span,
            line: 1,
            what: "quest core:rattenplage".into(),
            expected: "done".into(),
            got: "started".into(),
            passed,
            after_step: None,
            interval: None,
            fragile: false,
        }
    }

    #[test]
    fn a_failure_is_an_error_on_its_tables_first_line() {
        let text = "seed = 1\n\n[[expect]]\nquest = \"core:rattenplage\"\n\n[[expect]]\noutcome = \"none\"\n";
        let first = text.find("[[expect]]").unwrap();
        let second = text.rfind("[[expect]]").unwrap();
        let outcome = Outcome::Ran(vec![checked(Span { start: first, end: second - 1 }, false), checked(Span { start: second, end: text.len() }, true)]);
        let d = diagnostics(text, &outcome, Encoding::Utf16);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].range, lsp::Range { start: lsp::Position { line: 2, character: 0 }, end: lsp::Position { line: 2, character: 10 } });
        assert_eq!(d[0].message, lsp::Message::String("expected done, got started (quest core:rattenplage)".into()));
        assert_eq!((outcome.counts(), outcome.lens_title()), ((1, 1), "▶ run · 1 failed".to_string()));
        let (kind, msg) = message(text, &outcome);
        assert_eq!(kind, lsp::MessageType::Error);
        assert_eq!(msg, "rustkeep test: 1 passed, 1 failed — line 3: expected done, got started (quest core:rattenplage)");
        assert_eq!(Outcome::Ran(vec![checked(Span { start: first, end: second }, true)]).lens_title(), "▶ run · 1 passed");
    }
}
