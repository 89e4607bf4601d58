//! The official TOML test suite (the test data `toml-test` beside the repository, its TOML 1.1
//! file list): every valid file formats, to a text with the same value that formats to itself;
//! every invalid file is refused untouched. In a clone without the suite each test says SKIPPED
//! and checks nothing that needs it (`rustkeep_testutil::shared`).

mod common;

use std::path::{Path, PathBuf};

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
