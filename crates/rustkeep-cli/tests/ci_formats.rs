//! The CI report formats of `rustkeep check` on `examples/broken`: snapshots of each, and each
//! checked by an independent reader — the official SARIF validator (`Sarif.Multitool validate`
//! from npm), a JSON Schema of GitLab's Code Quality report written from GitLab's documentation,
//! Python's `junitparser`, and reviewdog's published rdjson JSON Schema — plus `--output-file` and
//! repeated `--format`.
//!
//! The readers are installed by `.ci/run` (npm in `tests/sarif-validator`, pip for `junitparser`
//! and `jsonschema`). Without them a test says so and passes, except under
//! `RUSTKEEP_REQUIRE_TOOLS=1` (CI), where a missing reader fails it.
//!
//! Snapshots live in `tests/snapshots/`; `cargo xtask update` regenerates them.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{run, stdout};
use serde_json::Value;

use rustkeep_testutil::{copy_dir, ensure_file_contents, repo_root, require, tools, TempDir};

fn tests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// A temporary folder holding a copy of `examples/broken` as `broken/` (outside any repository).
fn broken_copy(tag: &str) -> TempDir {
    let dir = TempDir::new(&format!("ci-formats-{tag}"));
    copy_dir(&repo_root().join("examples/broken"), &dir.join("broken"));
    dir
}

/// Compares with (or, under the update variable, rewrites) `tests/snapshots/NAME`.
fn assert_snapshot(name: &str, actual: &str) {
    ensure_file_contents(&tests_dir().join("snapshots").join(name), actual);
}

/// The output with the temporary folder and the version made stable.
fn normalized(text: &str, dir: &Path) -> String {
    text.replace(&dir.to_string_lossy().to_string(), "<tmp>").replace(&format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION")), "\"version\": \"<version>\"")
}

const FORMATS: &[(&str, &str)] = &[
    ("json-lines", "broken_json_lines.jsonl"),
    ("sarif", "broken_sarif.json"),
    ("gitlab", "broken_gitlab.json"),
    ("junit", "broken_junit.xml"),
    ("rdjson", "broken_rdjson.json"),
];

#[test]
fn snapshots_of_every_ci_format_on_the_broken_example() {
    let dir = broken_copy("snap");
    for (format, snap) in FORMATS {
        let o = run(&dir, &["check", "broken", "--format", format]);
        assert_eq!(o.status.code(), Some(1), "{format}: errors exit with 1");
        assert_snapshot(snap, &normalized(&stdout(&o), &dir));
    }
}

#[test]
fn json_lines_hold_the_json_diagnostics_one_per_line() {
    let dir = broken_copy("jsonl");
    let json: Value = serde_json::from_str(&stdout(&run(&dir, &["check", "broken", "--format", "json"]))).unwrap();
    let lines = stdout(&run(&dir, &["check", "broken", "--format", "json-lines"]));
    let parsed: Vec<Value> = lines.lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect();
    assert_eq!(&Value::Array(parsed), &json["diagnostics"]);
}

#[test]
fn formats_combine_and_go_to_files() {
    let dir = broken_copy("combine");
    // Human on standard output, SARIF and JUnit into files, in one run.
    let o = run(&dir, &["check", "broken", "--format", "sarif:out/report.sarif"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(dir.join("out/report.sarif").is_file(), "the report's folder is created");
    let o = run(&dir, &["check", "broken", "--format", "human", "--format", "sarif:report.sarif", "--format", "junit:report.xml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("error[dependency-cycle]"), "{}", stdout(&o));
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("report.sarif")).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert!(std::fs::read_to_string(dir.join("report.xml")).unwrap().starts_with("<?xml"));
    // --output-file takes the output of a format without a file of its own.
    let o = run(&dir, &["check", "broken", "--format", "json", "--output-file", "report.json"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
    let v: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert!(v["summary"]["errors"].as_u64().unwrap() > 0);
    // Two formats on standard output is a usage error; so is an unknown format.
    let o = run(&dir, &["check", "broken", "--format", "json", "--format", "sarif"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("standard output"));
    let o = run(&dir, &["check", "broken", "--format", "yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("json-lines"), "the error lists the formats");
}

/// The SARIF validator of the SARIF SDK, installed by `.ci/run` with npm.
fn sarif_validator() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("RUSTKEEP_SARIF_MULTITOOL") {
        return Some(PathBuf::from(p));
    }
    let p = tests_dir().join("sarif-validator/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");
    if !p.is_file() {
        return None;
    }
    // npm does not always keep the executable bit of the package's binary.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755));
    }
    Some(p)
}

/// Errors and warnings the validator reports for one SARIF file.
fn validate_sarif(tool: &Path, sarif: &str, work: &Path, name: &str) -> Vec<String> {
    let input = work.join(format!("{name}.sarif"));
    let output = work.join(format!("{name}.validation.sarif"));
    std::fs::write(&input, sarif).unwrap();
    let _ = std::fs::remove_file(&output);
    let o = Command::new(tool).arg("validate").arg(&input).arg("-o").arg(&output).output().expect("the SARIF validator runs");
    assert!(output.is_file(), "the validator wrote no log: {}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let log: Value = serde_json::from_str(&std::fs::read_to_string(&output).unwrap()).unwrap();
    let mut found = Vec::new();
    for run in log["runs"].as_array().into_iter().flatten() {
        for r in run["results"].as_array().into_iter().flatten() {
            let level = r["level"].as_str().unwrap_or("warning");
            if level == "error" || level == "warning" {
                found.push(format!("{level} {}: {}", r["ruleId"], r["message"]));
            }
        }
    }
    found
}

#[test]
fn sarif_passes_the_official_validator_for_every_path_form() {
    let tool = sarif_validator();
    if !require("the SARIF validator (Sarif.Multitool)", tool.is_some(), "(cd crates/rustkeep-cli/tests/sarif-validator && npm ci)") {
        return;
    }
    let tool = tool.expect("required above");
    let dir = broken_copy("sarif");
    let abs = dir.join("broken").to_string_lossy().to_string();
    let outside = std::env::temp_dir();
    let cases: Vec<(&str, PathBuf, Vec<String>)> = vec![
        ("relative", dir.to_path_buf(), vec!["broken".into()]),
        ("absolute", dir.to_path_buf(), vec![abs.clone()]),
        ("absolute-outside", outside.clone(), vec![abs]),
        ("inside-a-mod", dir.join("broken/tavern"), vec![]),
    ];
    for (name, cwd, paths) in cases {
        let mut args = vec!["check".to_string()];
        args.extend(paths);
        args.extend(["--format".into(), "sarif".into()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let sarif = stdout(&run(&cwd, &args));
        let v: Value = serde_json::from_str(&sarif).unwrap();
        assert!(!v["runs"][0]["results"].as_array().unwrap().is_empty(), "{name}: results expected");
        for r in v["runs"][0]["results"].as_array().unwrap() {
            let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
            assert!(!uri.starts_with('/'), "{name}: {uri} is a file-system path, not a URI");
        }
        let problems = validate_sarif(&tool, &sarif, &dir, name);
        assert!(problems.is_empty(), "{name}: the validator found:\n{}", problems.join("\n"));
    }
}

/// Runs a Python snippet with `args`; `None` when Python or a module is missing.
fn python(script: &str, args: &[&str], module: &str) -> Option<Output> {
    if !tools::python_module(module, &format!("python3 -m pip install {module}")) {
        return None;
    }
    Some(Command::new("python3").arg("-c").arg(script).args(args).output().expect("python3 runs"))
}

const VALIDATE: &str = r#"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
jsonschema.validators.validator_for(schema)(schema).validate(doc)
print("valid")
"#;

#[test]
fn gitlab_report_matches_the_code_quality_schema() {
    let dir = broken_copy("gitlab");
    let report = stdout(&run(&dir, &["check", "broken", "--format", "gitlab"]));
    let v: Value = serde_json::from_str(&report).unwrap();
    let issues = v.as_array().unwrap();
    let fps: std::collections::HashSet<&str> = issues.iter().map(|i| i["fingerprint"].as_str().unwrap()).collect();
    assert_eq!(fps.len(), issues.len(), "every finding has its own fingerprint");
    assert!(issues.iter().all(|i| i["location"]["path"].as_str().unwrap().starts_with("broken/")), "paths are relative");
    let file = dir.join("gl.json");
    std::fs::write(&file, &report).unwrap();
    let schema = tests_dir().join("schemas/gitlab-code-quality.schema.json");
    if let Some(o) = python(VALIDATE, &[&schema.to_string_lossy(), &file.to_string_lossy()], "jsonschema") {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

#[test]
fn rdjson_matches_reviewdogs_schema() {
    let dir = broken_copy("rdjson");
    let report = stdout(&run(&dir, &["check", "broken", "--format", "rdjson"]));
    let v: Value = serde_json::from_str(&report).unwrap();
    assert!(v["diagnostics"].as_array().unwrap().iter().any(|d| d.get("suggestions").is_some()), "fixes become suggestions");
    let file = dir.join("rd.json");
    std::fs::write(&file, &report).unwrap();
    let schema = tests_dir().join("schemas/reviewdog-DiagnosticResult.json");
    if let Some(o) = python(VALIDATE, &[&schema.to_string_lossy(), &file.to_string_lossy()], "jsonschema") {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

const JUNIT: &str = r#"
import sys
from junitparser import JUnitXml, Failure
xml = JUnitXml.fromfile(sys.argv[1])
tests = failures = 0
names = []
for suite in xml:
    for case in suite:
        tests += 1
        names.append(case.name)
        failures += sum(1 for r in case.result if isinstance(r, Failure))
print(tests, failures, xml.tests, xml.failures)
"#;

#[test]
fn junit_parses_with_the_expected_counts() {
    let dir = broken_copy("junit");
    let report = stdout(&run(&dir, &["check", "broken", "--format", "junit"]));
    let json: Value = serde_json::from_str(&stdout(&run(&dir, &["check", "broken", "--format", "json"]))).unwrap();
    let diagnostics = json["diagnostics"].as_array().unwrap().len();
    let files = json["summary"]["files"].as_u64().unwrap() as usize;
    let file = dir.join("junit.xml");
    std::fs::write(&file, &report).unwrap();
    if let Some(o) = python(JUNIT, &[&file.to_string_lossy()], "junitparser") {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let counts: Vec<usize> = String::from_utf8_lossy(&o.stdout).split_whitespace().map(|n| n.parse().unwrap()).collect();
        assert_eq!(counts, [files, diagnostics, files, diagnostics], "test cases = files, failures = diagnostics");
    }
}

const TEMPLATE_COMMANDS: &str = r#"
import json, sys, yaml
page = open(sys.argv[1]).read()
found = []
def walk(v):
    if isinstance(v, str):
        found.extend(l.strip() for l in v.splitlines() if l.strip().startswith("rustkeep check"))
        if v.strip().startswith("rustkeep check") and "\n" not in v.strip():
            pass
    elif isinstance(v, dict):
        for x in v.values(): walk(x)
    elif isinstance(v, list):
        for x in v: walk(x)
for block in page.split("```yaml\n")[1:]:
    walk(yaml.safe_load(block.split("```")[0]))
for block in page.split("```sh\n")[1:]:
    found.extend(l.strip() for l in block.split("```")[0].splitlines() if l.strip().startswith("rustkeep check"))
print(json.dumps(found))
"#;

/// Every `rustkeep check` command of the CI templates in `docs/ci.md` runs on a broken workspace
/// (standing in for `mods`) and writes the report files it names.
#[test]
fn the_ci_templates_commands_run_and_write_their_reports() {
    let page = repo_root().join("docs/ci.md");
    let Some(o) = python(TEMPLATE_COMMANDS, &[&page.to_string_lossy()], "yaml") else { return };
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let commands: Vec<String> = serde_json::from_slice(&o.stdout).unwrap();
    assert!(commands.len() >= 6, "the templates run rustkeep check: {commands:?}");
    let dir = broken_copy("templates");
    std::fs::rename(dir.join("broken"), dir.join("mods")).unwrap();
    // The templates check the folder `mods`; the other commands of the page (baselines) are about
    // the current folder and are run by `docs_commands.rs`.
    for cmd in commands.iter().filter(|c| c.split_whitespace().any(|w| w == "mods")) {
        // What runs: the rustkeep part of a pipe, without a trailing comment, with Azure's
        // staging folder variable resolved.
        let cmd = cmd.split(" | ").next().unwrap().split(" # ").next().unwrap().replace("$(Build.ArtifactStagingDirectory)", "staging");
        let words: Vec<&str> = cmd.split_whitespace().skip(1).collect();
        let o = run(&dir, &words);
        let code = o.status.code();
        assert!(code == Some(1), "`{cmd}` exits with 1 on the broken mods, got {code:?}: {}", String::from_utf8_lossy(&o.stderr));
        for w in words.windows(2).filter(|w| w[0] == "--format") {
            if let Some((_, file)) = w[1].split_once(':') {
                let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|_| panic!("`{cmd}` writes {file}"));
                assert!(text.len() > 100, "{file} holds a report");
            }
        }
    }
}
