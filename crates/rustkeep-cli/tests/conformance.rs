//! The two external yardsticks, run against the built binary: the team's diagnostics corpus (the
//! test data `conformance`, scored by its own runner) and the official TOML test suite (the test
//! data `toml-test`, files of TOML 1.1). Both live beside the repository
//! (`rustkeep_testutil::shared`); in a clone without them the tests say SKIPPED and return, or
//! fail under `RUSTKEEP_REQUIRE_TOOLS=1`.

use std::path::PathBuf;
use std::process::Command;

use rustkeep_testutil::tools;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rustkeep-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn shared_conformance_corpus() {
    let Some(corpus) = tools::shared_folder("conformance") else {
        return;
    };
    if !tools::python3() {
        return;
    }
    let out = Command::new("python3").arg(corpus.join("check_corpus.py")).arg(env!("CARGO_BIN_EXE_rustkeep")).output().expect("python3 runs the corpus scorer");
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the conformance corpus failed:\n{stdout}");
    assert!(stdout.contains(" 0 false positives, 0 crashes"), "{stdout}");
}

#[test]
fn official_toml_test_suite() {
    let Some(suite) = tools::shared_folder("toml-test") else {
        return;
    };
    let tests = suite.join("tests");
    let list = std::fs::read_to_string(tests.join("files-toml-1.1.0")).expect("file list");
    let files: Vec<&str> = list.lines().map(str::trim).filter(|l| l.ends_with(".toml")).collect();
    let work = temp_dir("toml-test");
    let m = work.join("m");
    std::fs::create_dir_all(&m).unwrap();
    std::fs::write(m.join("mod.toml"), "[mod]\nid = \"tomltest\"\nname = \"toml-test\"\nversion = \"1.0.0\"\n").unwrap();
    for f in &files {
        let dest = m.join(f);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(tests.join(f), &dest).expect("copy a toml-test file");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_rustkeep")).args(["check", "--format", "json", "m"]).current_dir(&work).output().expect("rustkeep runs");
    assert!(matches!(out.status.code(), Some(0 | 1)), "rustkeep crashed: {}", String::from_utf8_lossy(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("§6.1 JSON");
    let mut flagged = std::collections::HashSet::new();
    for d in doc["diagnostics"].as_array().expect("diagnostics array") {
        if d["code"] == "toml-syntax" {
            flagged.insert(d["file"].as_str().unwrap().trim_start_matches("m/").to_string());
        }
    }
    let invalid: Vec<&&str> = files.iter().filter(|f| f.starts_with("invalid/")).collect();
    let valid: Vec<&&str> = files.iter().filter(|f| f.starts_with("valid/")).collect();
    let missed: Vec<&&&str> = invalid.iter().filter(|f| !flagged.contains(***f)).collect();
    let wrong: Vec<&&&str> = valid.iter().filter(|f| flagged.contains(***f)).collect();
    eprintln!(
        "toml-test: {}/{} invalid files flagged, {}/{} valid files accepted",
        invalid.len() - missed.len(),
        invalid.len(),
        valid.len() - wrong.len(),
        valid.len()
    );
    assert!(missed.is_empty(), "invalid TOML files without a toml-syntax diagnostic: {missed:?}");
    assert!(wrong.is_empty(), "valid TOML files flagged with toml-syntax: {wrong:?}");
    assert_eq!(invalid.len(), 492);
    assert_eq!(valid.len(), 220);
    let _ = std::fs::remove_dir_all(&work);
}
