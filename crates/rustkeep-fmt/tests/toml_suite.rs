//! The official TOML test suite (the test data `toml-test` beside the repository, its TOML 1.1
//! file list): every valid file formats, to a text with the same value that formats to itself;
//! every invalid file is refused untouched. In a clone without the suite each test says SKIPPED
//! and checks nothing that needs it (`rustkeep_testutil::shared`).

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use rustkeep_fmt::{format_document, FileKind, FormatError, FormatOptions};

/// The suite's `tests` folder, or `None` after a SKIPPED line (a failure in CI).
#[track_caller]
fn suite() -> Option<PathBuf> {
    rustkeep_testutil::shared_folder("toml-test").map(|dir| dir.join("tests"))
}

fn list(root: &Path) -> Vec<String> {
    let list = std::fs::read_to_string(root.join("files-toml-1.1.0")).expect("the file list");
    list.lines().map(str::trim).filter(|l| l.ends_with(".toml")).map(String::from).collect()
}

#[test]
fn every_valid_file_formats_to_the_same_value_and_stays_formatted() {
    let Some(root) = suite() else {
        return;
    };
    let valid: Vec<String> = list(&root).into_iter().filter(|f| f.starts_with("valid/")).collect();
    assert_eq!(valid.len(), 220, "the TOML 1.1 list of valid files");
    // Both as plain TOML and as a mod data file (key orders in play where a name matches), and
    // with a narrow width so that wrapping is exercised on every file.
    let options = [
        FormatOptions { kind: FileKind::Plain, ..FormatOptions::default() },
        FormatOptions { kind: FileKind::Data, line_width: 20, ..FormatOptions::default() },
    ];
    let mut changed = 0;
    for f in &valid {
        let bytes = std::fs::read(root.join(f)).expect("a suite file");
        let text = String::from_utf8(bytes).expect("valid files are UTF-8");
        for o in &options {
            let out = check_invariants(f, &text, o);
            changed += usize::from(out != text);
        }
    }
    eprintln!("toml-test: {} valid files formatted ({changed} layouts changed)", valid.len());
}

#[test]
fn every_invalid_file_is_refused_untouched() {
    let Some(root) = suite() else {
        return;
    };
    let invalid: Vec<String> = list(&root).into_iter().filter(|f| f.starts_with("invalid/")).collect();
    assert_eq!(invalid.len(), 492);
    for f in &invalid {
        let bytes = std::fs::read(root.join(f)).expect("a suite file");
        // Files that are not UTF-8 never reach the formatter (the command line refuses them first).
        let Ok(text) = String::from_utf8(bytes) else { continue };
        match format_document(&text, &FormatOptions::default()) {
            Err(FormatError::Syntax(errors)) => assert!(!errors.is_empty(), "{f}"),
            other => panic!("{f}: an invalid file was not refused: {other:?}"),
        }
    }
}

/// The quick validity check of `fmt --check` agrees with the reader of `rustkeep check` on every
/// file of the suite and of the repository, valid or not. Without the suite only the repository's
/// part runs, and only it is asserted on.
#[test]
fn the_quick_validity_check_agrees_with_the_reader() {
    let repo = repo_root();
    let mut texts: Vec<(String, String)> = Vec::new();
    for p in toml_files(&repo) {
        if let Ok(text) = std::fs::read_to_string(&p) {
            texts.push((p.display().to_string(), text));
        }
    }
    let invalid = agree(&texts);
    // The repository's deliberately broken fixtures keep the invalid side of the check in play.
    assert!(invalid > 0, "the repository holds invalid TOML files too ({invalid} of {})", texts.len());
    let Some(root) = suite() else {
        return;
    };
    let files = list(&root);
    let mut suite_texts: Vec<(String, String)> = Vec::new();
    for f in &files {
        if let Ok(text) = std::fs::read_to_string(root.join(f)) {
            suite_texts.push((f.clone(), text));
        }
    }
    let invalid = agree(&suite_texts);
    let expected = suite_texts.iter().filter(|(f, _)| f.starts_with("invalid/")).count();
    assert_eq!(invalid, expected, "the reader refuses exactly the suite's invalid files (of {} read)", suite_texts.len());
    assert!(invalid > 400, "the suite's invalid files were read ({invalid})");
}

/// Asserts that the quick check and the reader agree on every text; returns how many the reader
/// refuses.
fn agree(texts: &[(String, String)]) -> usize {
    let mut invalid = 0;
    for (name, text) in texts {
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        let reader = rustkeep_fmt::syntax_errors(body).is_empty();
        invalid += usize::from(!reader);
        assert_eq!(rustkeep_fmt::is_valid_toml(body), reader, "{name}: the quick check and the reader disagree");
    }
    invalid
}

/// The valid files of both lists of the suite (TOML 1.0 and TOML 1.1), each once.
fn valid_files_of_both_lists(root: &Path) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for list in ["files-toml-1.0.0", "files-toml-1.1.0"] {
        let text = std::fs::read_to_string(root.join(list)).expect("a file list");
        files.extend(text.lines().map(str::trim).filter(|l| l.starts_with("valid/") && l.ends_with(".toml")).map(String::from));
    }
    files.sort();
    files.dedup();
    files
}

/// The layouts the TOML 1.0 test formats with: the default as plain TOML and as a mod data file,
/// and a narrow width, where nearly every inline table would open in TOML 1.1.
fn toml_1_0_options() -> [FormatOptions; 3] {
    [
        FormatOptions { kind: FileKind::Plain, ..FormatOptions::default() },
        FormatOptions::default(),
        FormatOptions { kind: FileKind::Data, line_width: 20, ..FormatOptions::default() },
    ]
}

/// Reads every `NNN.toml` of `dir` with Python's `tomllib` (TOML 1.0) and compares the value of
/// each formatted `NNN-K.toml` with it. Prints one JSON object: the inputs tomllib accepts, and
/// the outputs it refuses or reads as another value.
const TOMLLIB_CHECK: &str = r#"
import json, math, pathlib, sys, tomllib

def norm(v):
    # Values compared as data: NaN equals NaN, -0.0 differs from 0.0, dates by their text.
    if isinstance(v, float):
        return ("float", "nan" if math.isnan(v) else repr(v))
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, (str, bool, int)):
        return (type(v).__name__, v)
    return (type(v).__name__, v.isoformat())

def load(path):
    # tomllib takes the byte-order mark as text; the suite's BOM files are valid TOML.
    text = path.read_bytes().decode("utf-8")
    return tomllib.loads(text[1:] if text.startswith("\ufeff") else text)

root = pathlib.Path(sys.argv[1])
accepted, problems = [], []
for src in sorted(root.glob("[0-9][0-9][0-9].toml")):
    try:
        value = norm(load(src))
    except tomllib.TOMLDecodeError:
        continue
    accepted.append(src.stem)
    for out in sorted(root.glob(src.stem + "-*.toml")):
        try:
            if norm(load(out)) != value:
                problems.append(f"{out.name}: tomllib reads another value")
        except tomllib.TOMLDecodeError as e:
            problems.append(f"{out.name}: tomllib refuses it: {e}")
print(json.dumps({"accepted": accepted, "problems": problems}))
"#;

/// Every valid file of the suite that a TOML 1.0 reader reads still reads after the default
/// `rustkeep fmt` — in Python's `tomllib`, as the same value, and in Taplo (the engine of Even
/// Better TOML) — and stays formatted. The formatter's own finder of TOML 1.1 syntax agrees with
/// tomllib on which inputs are TOML 1.0. Without the suite, Python 3.11 or Taplo's command line
/// (`crates/rustkeep-cli/tests/taplo`) the test skips, and fails under `RUSTKEEP_REQUIRE_TOOLS=1`.
#[test]
fn the_default_output_of_every_toml_1_0_file_reads_in_toml_1_0_readers() {
    let Some(shared) = rustkeep_testutil::tools::shared_folder("toml-test") else { return };
    let root = shared.join("tests");
    let files = valid_files_of_both_lists(&root);
    assert!(files.len() > 250, "the valid files of both lists ({})", files.len());
    let dir = rustkeep_testutil::TempDir::new("fmt-toml-1-0");
    let mut outputs = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let bytes = std::fs::read(root.join(f)).expect("a suite file");
        let text = String::from_utf8(bytes).expect("valid files are UTF-8");
        std::fs::write(dir.0.join(format!("{i:03}.toml")), &text).unwrap();
        for (k, o) in toml_1_0_options().iter().enumerate() {
            let out = check_invariants(f, &text, o);
            let path = dir.0.join(format!("{i:03}-{k}.toml"));
            std::fs::write(&path, &out).unwrap();
            outputs.push((i, path));
        }
    }

    if !rustkeep_testutil::tools::python_module("tomllib", "Python 3.11 or newer as `python3`") {
        return;
    }
    let run = Command::new("python3").arg("-c").arg(TOMLLIB_CHECK).arg(&dir.0).output().expect("python3 runs");
    assert!(run.status.success(), "the tomllib check failed:\n{}", String::from_utf8_lossy(&run.stderr));
    let report: serde_json::Value = serde_json::from_slice(&run.stdout).expect("the check prints JSON");
    let problems: Vec<&str> = report["problems"].as_array().unwrap().iter().filter_map(|p| p.as_str()).collect();
    let accepted: BTreeSet<usize> = report["accepted"].as_array().unwrap().iter().filter_map(|s| s.as_str()?.parse().ok()).collect();
    let shown = |p: &str| {
        let i: usize = p[..3].parse().unwrap_or(0);
        format!("{} ({p})", files.get(i).map_or("?", String::as_str))
    };
    assert!(
        problems.is_empty(),
        "formatted files a TOML 1.0 reader refuses or reads differently:\n{}",
        problems.iter().map(|p| shown(p)).collect::<Vec<_>>().join("\n")
    );
    assert!(accepted.len() > 200, "tomllib reads {} of the {} valid files", accepted.len(), files.len());
    for (i, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(dir.0.join(format!("{i:03}.toml"))).unwrap();
        let found = rustkeep_fmt::toml_1_1_use(&text);
        if accepted.contains(&i) {
            assert_eq!(found, None, "{f}: tomllib reads it, yet TOML 1.1 syntax is reported");
        }
    }

    let Some(taplo) = rustkeep_testutil::Taplo::installed() else { return };
    let inputs: Vec<PathBuf> = accepted.iter().map(|i| dir.0.join(format!("{i:03}.toml"))).collect();
    // No schema: Taplo reads the files as TOML and nothing more.
    let (taplo_refuses_input, _) = taplo.lint(&dir.0, &inputs, &[]);
    let checked: Vec<PathBuf> = outputs.iter().filter(|(i, _)| accepted.contains(i)).map(|(_, p)| p.clone()).collect();
    let (refused, _) = taplo.lint(&dir.0, &checked, &[]);
    // A file Taplo itself cannot read before formatting proves nothing about the formatter.
    let refused: Vec<String> = refused
        .into_iter()
        .filter(|p| {
            let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            !taplo_refuses_input.contains(&dir.0.join(format!("{}.toml", &stem[..3.min(stem.len())])))
        })
        .map(|p| shown(p.file_name().and_then(|n| n.to_str()).unwrap_or("?")))
        .collect();
    assert!(refused.is_empty(), "formatted files Taplo refuses:\n{}", refused.join("\n"));
    assert!(taplo_refuses_input.len() < 20, "Taplo refuses {} of the files tomllib reads", taplo_refuses_input.len());
    eprintln!(
        "toml-test: {} valid files, {} read by tomllib; their {} formatted texts read by tomllib and by Taplo (which refuses {} of the inputs itself)",
        files.len(),
        accepted.len(),
        checked.len(),
        taplo_refuses_input.len()
    );
}

/// TOML 1.1 files of the suite that a TOML 1.0 reader refuses: formatted with the default, they
/// gain no TOML 1.1 syntax (and the formatter finds the syntax that makes them TOML 1.1).
#[test]
fn toml_1_1_files_gain_no_toml_1_1_syntax_by_default() {
    // `suite()` says why it skips when the data is absent.
    let Some(root) = suite() else { return };
    let only_1_1 = [
        "valid/datetime/no-seconds.toml",
        "valid/inline-table/newline.toml",
        "valid/inline-table/newline-comment.toml",
        "valid/string/escape-esc.toml",
        "valid/string/hex-escape.toml",
    ];
    for f in only_1_1 {
        let Ok(text) = std::fs::read_to_string(root.join(f)) else { panic!("{f} is in the suite") };
        assert!(rustkeep_fmt::toml_1_1_use(&text).is_some(), "{f}: its TOML 1.1 syntax is not found");
        for o in toml_1_0_options() {
            check_invariants(f, &text, &o);
        }
    }
}
