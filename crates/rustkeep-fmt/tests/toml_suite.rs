//! The official TOML test suite (`../shared/toml-test`, the TOML 1.1 file list, beside the
//! repository): every valid file formats, to a text with the same value that formats to itself;
//! every invalid file is refused untouched. In a clone without the suite the test says so and
//! checks nothing.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use rustkeep_fmt::{format_document, FileKind, FormatError, FormatOptions};

fn suite() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").join("shared/toml-test/tests");
    root.join("files-toml-1.1.0").is_file().then_some(root)
}

fn list(root: &Path) -> Vec<String> {
    let list = std::fs::read_to_string(root.join("files-toml-1.1.0")).expect("the file list");
    list.lines().map(str::trim).filter(|l| l.ends_with(".toml")).map(String::from).collect()
}

#[test]
fn every_valid_file_formats_to_the_same_value_and_stays_formatted() {
    let Some(root) = suite() else {
        eprintln!("SKIPPED: ../shared/toml-test is not next to this repository");
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
        eprintln!("SKIPPED: ../shared/toml-test is not next to this repository");
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
/// file of the suite and of the repository, valid or not.
#[test]
fn the_quick_validity_check_agrees_with_the_reader() {
    let mut texts: Vec<(String, String)> = Vec::new();
    if let Some(root) = suite() {
        for f in list(&root) {
            if let Ok(text) = std::fs::read_to_string(root.join(&f)) {
                texts.push((f, text));
            }
        }
    } else {
        eprintln!("SKIPPED (suite part): ../shared/toml-test is not next to this repository");
    }
    let repo = repo_root();
    for p in toml_files(&repo) {
        if let Ok(text) = std::fs::read_to_string(&p) {
            texts.push((p.display().to_string(), text));
        }
    }
    let mut invalid = 0;
    for (name, text) in &texts {
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        let reader = rustkeep_fmt::syntax_errors(body).is_empty();
        invalid += usize::from(!reader);
        assert_eq!(rustkeep_fmt::is_valid_toml(body), reader, "{name}: the quick check and the reader disagree");
    }
    assert!(invalid > 10, "the corpus holds invalid files too ({invalid})");
}
