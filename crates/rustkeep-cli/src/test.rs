//! `rustkeep test [PATH…]`: runs the scenarios that state what a mod should do (docs/testing.md).
//! It finds scenario files as `check` does from the same paths, keeps those with an `[[expect]]`,
//! runs each (in parallel; a scenario's run is deterministic, its seed decides everything) and
//! prints every expectation that failed at its line, then `N passed, M failed`. Exit 1 when one
//! failed, 2 when a scenario does not validate (or the paths cannot be read).

use std::path::PathBuf;

use rayon::prelude::*;
use rustkeep_data::project::{discover, WhenNothing};
use rustkeep_engine::scenario::{self, expect::Checked};

use crate::render::junit::{Case, Counts, Outcome, Report, Suite};
use crate::simulate;

#[derive(clap::Args)]
pub struct Args {
    /// Where to look for scenarios, as `check` looks (default: the current folder).
    pub paths: Vec<PathBuf>,
    /// `human` (failures and a summary), `json` (every expectation), `junit` (a test case per
    /// expectation) or `github` (annotations on the expectations' lines).
    #[arg(long, value_enum, default_value = "human")]
    pub format: TestFormat,
    /// Run only the scenarios whose path contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    /// More mods to load besides each scenario's own `mods` (repeatable).
    #[arg(long = "mods", value_name = "PATH")]
    pub mods: Vec<PathBuf>,
    /// Run again on every saved change, only the scenarios the change touches, clearing the
    /// screen between runs, until Ctrl-C (docs/testing.md, "Watching").
    #[arg(long)]
    pub watch: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TestFormat {
    Human,
    Json,
    Junit,
    Github,
}

/// One scenario's run: its expectations with their lines, or why it did not run.
pub struct Ran {
    /// The scenario's path as shown.
    pub file: String,
    pub results: Vec<Checked>,
    /// The refusal of a scenario that does not validate.
    pub error: Option<String>,
}

/// The scenario files `check` finds from `paths` that hold an `[[expect]]`, as shown and on disk.
pub fn scenarios_with_expectations(paths: &[PathBuf]) -> Result<Vec<(String, PathBuf)>, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    let paths = if paths.is_empty() { vec![PathBuf::from(".")] } else { paths.to_vec() };
    let project = discover(&paths, &cwd, WhenNothing::Report)?;
    let mut out = Vec::new();
    for info in &project.scenarios {
        let f = project.file(info.file);
        let Some(disk) = f.disk_path.clone() else { continue };
        let lowered = rustkeep_data::lower::lower_scenario(f.id, &f.text, None);
        if lowered.scenario.is_some_and(|s| !s.expects.is_empty()) || rustkeep_data::scenario::writes_expectations(&f.text) {
            out.push((f.path.clone(), disk));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// Runs one scenario file.
pub fn run_one(shown: &str, path: &PathBuf, mods: &[PathBuf]) -> Ran {
    match simulate::open(path, mods) {
        Err(e) => Ran { file: shown.to_string(), results: Vec::new(), error: Some(e) },
        Ok((w, sc)) => {
            let report = scenario::run(&w, &sc);
            Ran { file: shown.to_string(), results: report.expectations, error: None }
        }
    }
}

pub fn run(args: Args) -> Result<u8, String> {
    let mut found = scenarios_with_expectations(&args.paths)?;
    if let Some(f) = &args.filter {
        found.retain(|(shown, _)| shown.contains(f.as_str()));
    }
    let ran: Vec<Ran> = found.par_iter().map(|(shown, path)| run_one(shown, path, &args.mods)).collect();
    let text = match args.format {
        TestFormat::Human => human(&ran),
        TestFormat::Json => {
            let mut t = serde_json::to_string_pretty(&json_of(&ran)).map_err(|e| e.to_string())?;
            t.push('\n');
            t
        }
        TestFormat::Junit => junit(&ran),
        TestFormat::Github => github(&ran),
    };
    crate::out::print(&text, args.format == TestFormat::Json)?;
    Ok(exit_code(&ran))
}

/// 2 when a scenario did not validate, 1 when an expectation failed, else 0.
pub fn exit_code(ran: &[Ran]) -> u8 {
    if ran.iter().any(|r| r.error.is_some()) {
        2
    } else if ran.iter().flat_map(|r| &r.results).any(|c| !c.passed) {
        1
    } else {
        0
    }
}

fn counts(ran: &[Ran]) -> (usize, usize) {
    let all: Vec<&Checked> = ran.iter().flat_map(|r| &r.results).collect();
    let failed = all.iter().filter(|c| !c.passed).count();
    (all.len() - failed, failed)
}

/// The human report: each failure at its line, fragile arena bounds, refused scenarios, the sum.
pub fn human(ran: &[Ran]) -> String {
    let mut out = String::new();
    for r in ran {
        if let Some(e) = &r.error {
            out.push_str(&format!("{}: not run: {e}\n", r.file));
        }
        for c in &r.results {
            let line = c.line;
            if !c.passed {
                out.push_str(&format!("{}:{line}: {}\n", r.file, c.failure()));
            }
            if c.fragile {
                out.push_str(&format!("{}:{line}: {}\n", r.file, c.fragility()));
            }
        }
    }
    let (passed, failed) = counts(ran);
    let refused = ran.iter().filter(|r| r.error.is_some()).count();
    let scenarios = format!("{} scenario{}", ran.len(), if ran.len() == 1 { "" } else { "s" });
    let refused = if refused > 0 { format!(", {refused} not run") } else { String::new() };
    out.push_str(&format!("{passed} passed, {failed} failed ({scenarios}{refused})\n"));
    out
}

/// The output of `rustkeep test --format json` (`rustkeep schema --for test-json`).
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct TestJson {
    /// Expectations that held.
    pub passed: usize,
    /// Expectations that failed.
    pub failed: usize,
    /// Every scenario run, in path order.
    pub scenarios: Vec<ScenarioJson>,
}

/// One scenario of [`TestJson`].
#[derive(serde::Serialize, schemars::JsonSchema)]
pub struct ScenarioJson {
    /// The scenario file, as `check` shows paths.
    pub file: String,
    /// Why it was not run (it does not validate), else null.
    pub error: Option<String>,
    /// Its expectations, in the order written, each with the line of its `[[expect]]`.
    pub expectations: Vec<Checked>,
}

/// The JSON report.
pub fn json_of(ran: &[Ran]) -> serde_json::Value {
    let (passed, failed) = counts(ran);
    let report = TestJson {
        passed,
        failed,
        scenarios: ran.iter().map(|r| ScenarioJson { file: r.file.clone(), error: r.error.clone(), expectations: r.results.clone() }).collect(),
    };
    serde_json::to_value(report).unwrap_or_default()
}

/// JUnit XML ([`crate::render::junit`]): a suite per scenario, a case per expectation
/// (`file:line what`); a scenario that does not validate is an `<error>`.
pub fn junit(ran: &[Ran]) -> String {
    let (passed, failed) = counts(ran);
    let errors = ran.iter().filter(|r| r.error.is_some()).count();
    let suites = ran
        .iter()
        .map(|r| {
            let err = usize::from(r.error.is_some());
            let mut cases: Vec<Case> = r
                .error
                .iter()
                .map(|e| Case {
                    name: r.file.clone(),
                    classname: r.file.clone(),
                    file: None,
                    line: None,
                    outcomes: vec![Outcome { error: true, message: "the scenario does not validate".into(), kind: None, text: e.clone() }],
                })
                .collect();
            cases.extend(r.results.iter().map(|c| Case {
                name: format!("line {}: {}", c.line, c.what),
                classname: r.file.clone(),
                file: Some(r.file.clone()),
                line: Some(c.line),
                outcomes: if c.passed {
                    Vec::new()
                } else {
                    vec![Outcome { error: false, message: c.outcome(), kind: None, text: format!("{}:{}: {}", r.file, c.line, c.failure()) }]
                },
            }));
            Suite {
                name: r.file.clone(),
                counts: Counts { tests: r.results.len().max(err), failures: r.results.iter().filter(|c| !c.passed).count(), errors: err },
                skipped: None,
                cases,
            }
        })
        .collect();
    let counts = Counts { tests: passed + failed, failures: failed, errors };
    Report { name: "rustkeep test".into(), counts, suites }.to_xml()
}

/// GitHub Actions workflow commands: an error on each failed expectation's line, a warning on a
/// fragile one, then the summary.
pub fn github(ran: &[Ran]) -> String {
    let esc = |s: &str| crate::render::github::escape(s, false);
    let prop = |s: &str| crate::render::github::escape(s, true);
    let mut out = String::new();
    for r in ran {
        if let Some(e) = &r.error {
            out.push_str(&format!("::error file={},title=rustkeep test::{}\n", prop(&r.file), esc(&format!("the scenario does not validate: {e}"))));
        }
        for c in &r.results {
            let line = c.line;
            if !c.passed {
                out.push_str(&format!("::error file={},line={line},title=rustkeep test::{}\n", prop(&r.file), esc(&c.failure())));
            } else if c.fragile {
                out.push_str(&format!("::warning file={},line={line},title=rustkeep test::{}\n", prop(&r.file), esc(&c.fragility())));
            }
        }
    }
    let (passed, failed) = counts(ran);
    out.push_str(&format!("{passed} passed, {failed} failed\n"));
    out
}
