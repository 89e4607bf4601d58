//! The repository practises what it preaches: the bundled core, every `.toml` of `examples/` and
//! every ```` ```toml ```` snippet of `docs/` are formatted. A test fails when one is not;
//! `cargo xtask update` (this test with `UPDATE_EXPECT=1`) formats them in place — it runs this
//! test before the golden traces and snapshots, whose `file:line` quotes move with the lines.
//!
//! Left alone: files that are not valid TOML on purpose (`examples/broken`), snippets that are not
//! valid TOML (fragments with `…`), snippets whose info string says more than `toml` (the "before"
//! side of `docs/formatting.md`), and generated pages (their generators own their snippets).

mod common;

use std::path::PathBuf;

use common::*;
use rustkeep_fmt::{format_document, syntax_errors, FileKind, FormatOptions};
use rustkeep_testutil::files_below;

fn updating() -> bool {
    rustkeep_testutil::update_requested()
}

fn tomls() -> Vec<PathBuf> {
    let root = repo_root();
    let mut files = toml_files(&root.join("crates/rustkeep-data/core"));
    files.extend(toml_files(&root.join("examples")));
    files
}

#[test]
fn the_core_and_the_examples_are_formatted() {
    let root = repo_root();
    let mut stale = Vec::new();
    let mut checked = 0;
    for path in tomls() {
        let text = std::fs::read_to_string(&path).expect("a readable file");
        if !syntax_errors(text.strip_prefix('\u{feff}').unwrap_or(&text)).is_empty() {
            continue;
        }
        checked += 1;
        let options = FormatOptions { kind: FileKind::of_path(&path), ..FormatOptions::default() };
        let formatted = format_document(&text, &options).expect("valid TOML formats");
        if formatted != text {
            if updating() {
                std::fs::write(&path, &formatted).expect("writable");
            } else {
                stale.push(path.strip_prefix(&root).unwrap_or(&path).display().to_string());
            }
        }
    }
    assert!(checked > 30, "{checked} files");
    assert!(stale.is_empty(), "not formatted (run `cargo xtask update`): {stale:?}");
}

/// The kind of file a snippet shows: named on the line before it, else by its first table.
fn snippet_kind(before: &str, body: &str) -> FileKind {
    if before.contains("mod.toml") {
        return FileKind::Manifest;
    }
    if before.contains("rustkeep.toml") {
        return FileKind::Workspace;
    }
    match body.lines().map(str::trim).find(|l| l.starts_with('[')) {
        Some("[mod]") => FileKind::Manifest,
        Some("[workspace]" | "[lints]" | "[format]") => FileKind::Workspace,
        _ => FileKind::Data,
    }
}

/// Formats the checked snippets of a Markdown page; returns the page and the stale snippets' lines.
fn format_page(page: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(page.len());
    let mut stale = Vec::new();
    let mut lines = page.split_inclusive('\n').enumerate().peekable();
    let mut before = String::new();
    while let Some((n, line)) = lines.next() {
        out.push_str(line);
        if line.trim_end() != "```toml" {
            if !line.trim().is_empty() {
                before = line.to_string();
            }
            continue;
        }
        let mut body = String::new();
        let mut close = None;
        for (_, inner) in lines.by_ref() {
            if inner.trim_end() == "```" {
                close = Some(inner);
                break;
            }
            body.push_str(inner);
        }
        let formatted = match (syntax_errors(&body).is_empty() && !body.trim().is_empty(), close) {
            (true, Some(_)) => format_document(&body, &FormatOptions { kind: snippet_kind(&before, &body), ..FormatOptions::default() }).expect("formats"),
            _ => body.clone(),
        };
        if formatted != body {
            stale.push(n + 1);
        }
        out.push_str(&formatted);
        out.push_str(close.unwrap_or(""));
    }
    (out, stale)
}

#[test]
fn the_toml_snippets_of_the_docs_are_formatted() {
    let root = repo_root();
    let mut stale = Vec::new();
    for path in files_below(&root.join("docs"), "md") {
        let page = std::fs::read_to_string(&path).expect("a page");
        // Generated pages: their generators own their snippets.
        if page.lines().take(5).any(|l| l.contains("<!-- Generated")) {
            continue;
        }
        let (formatted, lines) = format_page(&page);
        if lines.is_empty() {
            continue;
        }
        if updating() {
            std::fs::write(&path, formatted).expect("writable");
        } else {
            let shown = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
            stale.extend(lines.into_iter().map(|l| format!("{shown}:{l}")));
        }
    }
    assert!(stale.is_empty(), "snippets not formatted (run `cargo xtask update`): {stale:?}");
}

#[test]
fn snippet_checks_can_fail() {
    let page = "Text.\n\n```toml\nname=\"x\"\nid = \"a:b\"\n```\n\n```toml before\nname=\"x\"\n```\n\n```toml\n[[items]] …\n```\n";
    let (formatted, stale) = format_page(page);
    assert_eq!(stale, vec![3]);
    assert_eq!(formatted, page.replacen("name=\"x\"\nid = \"a:b\"\n", "name = \"x\"\nid = \"a:b\"\n", 1));
    assert_eq!(snippet_kind("`mod.toml`:", "[mod]\n"), FileKind::Manifest);
    assert_eq!(snippet_kind("", "[lints]\nx = \"allow\"\n"), FileKind::Workspace);
}
