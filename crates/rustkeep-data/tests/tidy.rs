//! Workspace hygiene that no compiler checks (docs/ARCHITECTURE.md, invariant "Hygiene"): every product
//! crate forbids unsafe code, no source file grows past what a reader can hold in mind, the
//! sources are self-contained (they point at the project's own docs/, never at documents users do
//! not get), and only `rustkeep_testutil::shared` reaches outside the repository, so that a clone
//! with nothing beside it passes its tests by skipping what needs the team's test data.

use std::path::{Path, PathBuf};

use rustkeep_testutil::files_below;

/// The crates that ship in the `rustkeep` binary. The benchmark crate is a measuring tool and
/// calls `wait4` through `libc`, so it is not among them.
const PRODUCT_CRATES: &[&str] = &["rustkeep-data", "rustkeep-check", "rustkeep-engine", "rustkeep-fmt", "rustkeep-play", "rustkeep-lsp", "rustkeep-cli"];

/// The most lines a source file may have before its unit tests (a trailing `#[cfg(test)]`).
const MAX_LINES: usize = 700;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `src/` file of every workspace crate.
fn all_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for krate in std::fs::read_dir(root().join("crates")).expect("crates/").flatten() {
        files.extend(files_below(&krate.path().join("src"), "rs"));
    }
    assert!(files.len() > 20, "found the sources");
    files
}

fn shown(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

#[test]
fn every_product_crate_root_forbids_unsafe_code() {
    let mut missing = Vec::new();
    for krate in PRODUCT_CRATES {
        let src = root().join("crates").join(krate).join("src");
        let mut roots: Vec<PathBuf> = ["lib.rs", "main.rs"].iter().map(|f| src.join(f)).filter(|p| p.is_file()).collect();
        roots.extend(files_below(&src.join("bin"), "rs"));
        assert!(!roots.is_empty(), "{krate} has a crate root");
        for r in roots {
            let text = std::fs::read_to_string(&r).expect("readable crate root");
            if !text.lines().any(|l| l.trim() == "#![forbid(unsafe_code)]") {
                missing.push(shown(&r));
            }
        }
    }
    assert!(missing.is_empty(), "crate roots without `#![forbid(unsafe_code)]`:\n{}", missing.join("\n"));
}

#[test]
fn no_source_file_is_longer_than_a_reader_can_hold() {
    let mut long = Vec::new();
    for f in all_sources() {
        let text = std::fs::read_to_string(&f).expect("readable source");
        let lines = text.lines().take_while(|l| !l.starts_with("#[cfg(test)]")).count();
        if lines > MAX_LINES {
            long.push(format!("{}: {lines} lines (at most {MAX_LINES}); split it along its seams", shown(&f)));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// The module that takes IDs apart (`rustkeep_data::vocab::IdText`, `Id`): the one place an
/// ID's `:` is split off.
const ID_MODULE: &str = "crates/rustkeep-data/src/vocab/id.rs";

/// Sources that split text at a `:` by hand, each with why that text is no ID (or cannot use the
/// ID module).
const NON_ID_SPLITS: &[(&str, &str)] = &[
    ("crates/rustkeep-lsp/src/stdio.rs", "a message header of the base protocol, `Name: value`"),
    ("crates/rustkeep-cli/src/check.rs", "`--format NAME:PATH`, a report format and its file"),
    ("crates/rustkeep-data/src/vocab/tests.rs", "the ID grammar read piece by piece, the reference the one-pass check is tested against"),
    (
        "crates/rustkeep-testutil/src/modpack.rs",
        "the test helpers sit below every workspace crate (the crate map), so the generator of test workspaces cannot use the ID module",
    ),
];

/// The ways of splitting text at a `:` by hand.
const COLON_SPLITS: &[&str] =
    &["split_once(':')", "rsplit_once(':')", "split(':')", "splitn(2, ':')", "rsplitn(2, ':')", "split_once(\":\")", "rsplit_once(\":\")", "split(\":\")"];

#[test]
fn ids_are_taken_apart_only_by_the_id_module() {
    let mut found = Vec::new();
    let mut splitting = std::collections::BTreeSet::new();
    for f in all_sources() {
        let rel = shown(&f).replace('\\', "/");
        let text = std::fs::read_to_string(&f).expect("readable source");
        for (i, line) in text.lines().enumerate() {
            if !COLON_SPLITS.iter().any(|p| line.contains(p)) {
                continue;
            }
            splitting.insert(rel.clone());
            if rel != ID_MODULE && !NON_ID_SPLITS.iter().any(|(file, _)| *file == rel) {
                found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "IDs are taken apart by `rustkeep_data::vocab::IdText` (or `Id`), not by splitting at `:` (text that is no ID goes into NON_ID_SPLITS with its reason):\n{}",
        found.join("\n")
    );
    let stale: Vec<&str> = NON_ID_SPLITS.iter().map(|(file, _)| *file).filter(|file| !splitting.contains(*file)).collect();
    assert!(stale.is_empty(), "NON_ID_SPLITS names files that split at no `:` any more: {stale:?}");
}

/// The data crate never runs a rule that spans files (docs/ARCHITECTURE.md, invariant "Layers"):
/// resolve notes what it finds between two places as plain data (`resolve::Finding`), and the
/// validator (`rustkeep-check`'s `rules/resolution.rs`) raises the diagnostics. So no source of
/// resolve names a code or makes a diagnostic.
#[test]
fn resolve_raises_no_diagnostic() {
    let src = root().join("crates/rustkeep-data/src");
    let mut files = vec![src.join("resolve.rs")];
    files.extend(files_below(&src.join("resolve"), "rs"));
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable source");
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim_start().starts_with("//")) {
            if let Some(what) = ["Code::", "Diagnostic"].into_iter().find(|w| line.contains(w)) {
                found.push(format!("{}:{}: `{what}`", shown(f), i + 1));
            }
        }
    }
    assert!(files.len() >= 3, "found resolve's sources: {files:?}");
    assert!(found.is_empty(), "resolve raises diagnostics (record a `Finding`; the validator words it):\n{}", found.join("\n"));
}

#[test]
fn sources_point_at_the_projects_docs_not_at_documents_users_do_not_get() {
    let mut found = Vec::new();
    // The test helpers are no product: they locate the team's shared test corpora by design.
    let test_only = root().join("crates/rustkeep-testutil");
    for f in all_sources().into_iter().filter(|f| !f.starts_with(&test_only)) {
        let text = std::fs::read_to_string(&f).expect("readable source");
        for (i, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            if line.contains("SPEC") || lower.contains("seed ticket") || line.contains("../shared") {
                found.push(format!("{}:{}: {}", shown(&f), i + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "references to documents outside the project (point at docs/ instead):\n{}", found.join("\n"));
}

/// The one file that may name the folder of the team's test data: the helper every test asks for
/// it. This file names the patterns it looks for.
const OUTSIDE_ALLOWED: &[&str] = &["crates/rustkeep-testutil/src/shared.rs", "crates/rustkeep-data/tests/tidy.rs"];

/// The code and configuration of the repository: not its data (`tests/fixtures`, `examples`), not
/// its docs, and not `.ci/run`, which provisions CI and may install tools from anywhere.
const CODE_ROOTS: &[&str] = &["crates", "xtask", "fuzz", "scripts", "editors", ".github", ".cargo", "Cargo.toml", "action.yml", ".pre-commit-hooks.yaml"];
const CODE_EXTENSIONS: &[&str] = &["rs", "sh", "py", "js", "mjs", "cjs", "ts", "lua", "toml", "yml", "yaml", "json"];

fn code_files(path: &Path, out: &mut Vec<PathBuf>) {
    // Build output, installed packages and fuzzing state are not the repository's code.
    let files = rustkeep_testutil::walk_files(path, NOT_OURS);
    out.extend(files.into_iter().filter(|p| p.extension().is_some_and(|x| CODE_EXTENSIONS.iter().any(|e| x == *e))));
}

/// How many folders up a Rust line's string literals climb: the most `..` parts of one literal
/// (`"../.."` is two), or those of the arguments of its `join` calls added up
/// (`.join("..").join("..")` is two too).
fn climbs(line: &str) -> usize {
    let ups = |lit: &str| lit.split(['/', '\\']).take_while(|part| *part == "..").count();
    // The odd pieces between double quotes are the literals (escaped quotes do not occur in paths).
    let longest = line.split('"').skip(1).step_by(2).map(ups).max().unwrap_or(0);
    let joined = line.split("join(\"").skip(1).map(|rest| ups(rest.split('"').next().unwrap_or(""))).sum();
    longest.max(joined)
}

/// Why `line` of a file `depth` folders below the repository root reaches outside the
/// repository, if it does: it names the team's folder, or (in Rust, where a path's starting point
/// shows) its `..` parts climb above the root from where they start: the file's folder, the
/// crate's folder (`crate_depth`) with `CARGO_MANIFEST_DIR`, the root with `repo_root`/`repo_path`.
/// A script's paths start wherever it changed folder to, so only the first test applies to it.
fn reaches_outside(line: &str, rust: bool, depth: usize, crate_depth: usize) -> Option<&'static str> {
    let named = ["../shared", "..\\shared", "\"shared/", "'shared/", "`shared/", "/shared/", "\"shared\"", "'shared'"];
    if named.iter().any(|n| line.contains(n)) {
        return Some("names the team's test data folder");
    }
    let base = if line.contains("repo_root") || line.contains("repo_path") {
        0
    } else if line.contains("CARGO_MANIFEST_DIR") {
        crate_depth
    } else {
        depth
    };
    (rust && climbs(line) > base).then_some("climbs above the repository root")
}

#[test]
fn only_the_shared_data_helper_reaches_outside_the_repository() {
    let mut files = Vec::new();
    for r in CODE_ROOTS {
        code_files(&root().join(r), &mut files);
    }
    assert!(files.len() > 100, "found the code ({} files)", files.len());
    let root = root().canonicalize().expect("the root exists");
    let mut found = Vec::new();
    for f in files {
        let f = f.canonicalize().expect("a listed file exists");
        let rel = f.strip_prefix(&root).expect("inside the repository").to_path_buf();
        if OUTSIDE_ALLOWED.iter().any(|a| rel == Path::new(a)) {
            continue;
        }
        let depth = rel.components().count() - 1;
        // The crate's folder is the nearest one above the file with a manifest.
        let crate_depth = rel.ancestors().skip(1).find(|a| root.join(a).join("Cargo.toml").is_file()).map_or(0, |a| a.components().count());
        let rust = rel.extension().is_some_and(|x| x == "rs");
        let Ok(text) = std::fs::read_to_string(&f) else { continue };
        for (i, line) in text.lines().enumerate() {
            if let Some(why) = reaches_outside(line, rust, depth, crate_depth) {
                found.push(format!("{}:{}: {why}: {}", rel.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "only `rustkeep_testutil::shared_folder` may reach outside the repository (it skips, or fails under \
         RUSTKEEP_REQUIRE_TOOLS=1, when the data is absent):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_outside_check_sees_the_ways_out() {
    // The way the formatter's suite test once found the TOML suite, from the crate's folder.
    let old = r#"let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").join("shared/toml-test/tests");"#;
    assert_eq!(reaches_outside(old, true, 3, 2), Some("names the team's test data folder"));
    assert_eq!(reaches_outside(r#"Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").join("data")"#, true, 3, 2), Some("climbs above the repository root"));
    assert_eq!(reaches_outside(r#"repo_root().join("..").join("data")"#, true, 3, 2), Some("climbs above the repository root"));
    assert!(reaches_outside(r#"let dir = "../shared/conformance";"#, true, 3, 2).is_some());
    assert!(reaches_outside("//! (`../shared/toml-test`, files of TOML 1.1)", true, 3, 2).is_some());
    assert!(reaches_outside(r#"root.join("shared").join("vscode-e2e")"#, true, 3, 2).is_some());
    assert!(reaches_outside(r#"bash "$ROOT/../shared/vscode-e2e/install-code-server.sh""#, false, 1, 0).is_some());
    // Paths that stay inside: the workspace root from a crate, a snapshot folder from a module
    // five folders down, and words that are no paths.
    assert_eq!(reaches_outside(r#"Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")"#, true, 3, 2), None);
    assert_eq!(reaches_outside(r#"settings.set_snapshot_path("../../../tests/snapshots/play");"#, true, 5, 2), None);
    assert_eq!(reaches_outside("/// The sorted IDs, shared by the console and the game.", true, 3, 2), None);
    assert_eq!(reaches_outside(r#"(cd editors/vscode && node x.js --out-dir ../../target/vscode)"#, false, 1, 0), None, "a script's own folder changes");
    assert_eq!(climbs(r#"a.join("..").join("../x")"#), 2);
    assert_eq!(climbs(r#"format!("{}/../..", "x/../y")"#), 0, "only leading parts climb");
}

/// `.ci/run` runs the tests that read the team's test data again with it hidden; it finds them by
/// the helpers they call, named in its `shared_users` pattern. Every public function of
/// rustkeep-testutil that reads the data must be among them, or its callers would escape that run.
#[test]
fn the_hidden_data_run_of_ci_knows_every_helper_that_reads_the_data() {
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run");
    let pattern = ci.lines().find_map(|l| l.strip_prefix("shared_users='")).expect("`.ci/run` sets shared_users='…'");
    let named: Vec<&str> = pattern.trim_end_matches('\'').split('|').collect();
    let mut helpers = vec!["shared_folder".to_string()];
    for f in files_below(&root().join("crates/rustkeep-testutil/src"), "rs") {
        let text = std::fs::read_to_string(&f).expect("readable source");
        // Each public function up to the next one: enough to see whether it calls the helper.
        for item in text.split("pub fn ").skip(1) {
            let name: String = item.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let body = item.split("\nfn ").next().unwrap_or(item);
            if body.contains("shared_folder(") && !helpers.contains(&name) {
                helpers.push(name);
            }
        }
    }
    assert!(helpers.iter().any(|h| h == "toml_corpus"), "found the helpers: {helpers:?}");
    let missing: Vec<&String> = helpers.iter().filter(|h| !named.contains(&h.as_str())).collect();
    assert!(missing.is_empty(), "add {missing:?} to `shared_users` in .ci/run, so that the tests calling them run with the data hidden");
}

// ---------------------------------------------------------------------------------------------
// Citations: the invariants of docs/ARCHITECTURE.md by name, and documents that exist.

/// Folders that hold no text of the repository's own (build output, installed packages, fuzzing
/// state).
const NOT_OURS: &[&str] = &["target", "node_modules", ".git", "out", "corpus", "artifacts"];
const TEXT_EXTENSIONS: &[&str] = &["rs", "md", "toml", "sh", "py", "js", "mjs", "cjs", "ts", "lua", "yml", "yaml", "json"];

fn text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let files = rustkeep_testutil::walk_files(dir, NOT_OURS);
    out.extend(files.into_iter().filter(|p| p.extension().is_some_and(|x| TEXT_EXTENSIONS.iter().any(|e| x == *e))));
}

/// The headings of a Markdown text (outside code blocks), its bold phrases, and the anchors
/// GitHub gives the headings.
struct Page {
    headings: Vec<String>,
    bold: Vec<String>,
    anchors: Vec<String>,
}

/// GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` dropped, spaces
/// as `-`.
fn slug(heading: &str) -> String {
    heading.trim().to_lowercase().chars().filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' ')).map(|c| if c == ' ' { '-' } else { c }).collect()
}

fn page(text: &str) -> Page {
    let mut headings = Vec::new();
    let mut in_code = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with('#') {
            headings.push(line.trim_start_matches('#').trim().to_string());
        }
    }
    let mut anchors: Vec<String> = Vec::new();
    for h in &headings {
        let s = slug(h);
        // A repeated heading gets `-1`, `-2`, … in order.
        let n = anchors.iter().filter(|a| **a == s || a.strip_prefix(&format!("{s}-")).is_some_and(|r| r.parse::<u32>().is_ok())).count();
        anchors.push(if n == 0 { s } else { format!("{s}-{n}") });
    }
    let bold = text.split("**").skip(1).step_by(2).map(|b| b.trim().trim_end_matches('.').to_string()).collect();
    Page { headings, bold, anchors }
}

/// Whether `section` is a heading of the page (before a `:` or a parenthesis, after a step
/// number, without backticks) or one of its bold phrases.
fn has_section(p: &Page, section: &str) -> bool {
    let bare = |h: &str| {
        let h = h.replace('`', "");
        h.trim_start_matches(|c: char| c.is_ascii_digit()).strip_prefix(". ").map(str::to_string).unwrap_or(h)
    };
    p.headings.iter().map(String::as_str).map(bare).any(|h| h == section || h.starts_with(&format!("{section}:")) || h.starts_with(&format!("{section} (")))
        || p.bold.iter().any(|b| b == section)
}

/// The names of the invariants: the `###` headings of the section "Invariants" of ARCHITECTURE.md.
fn invariant_names(architecture: &str) -> Vec<String> {
    let section = architecture.split("\n## Invariants\n").nth(1).expect("docs/ARCHITECTURE.md has a section `## Invariants`");
    let section = section.split("\n## ").next().unwrap_or(section);
    section.lines().filter_map(|l| l.strip_prefix("### ")).map(|n| n.trim().to_string()).collect()
}

/// Comment markers and blanks, which a citation may run across.
fn skip_layout(s: &str) -> &str {
    s.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '/' | '!' | '#' | '*' | '>'))
}

/// A quoted name that may run across comment lines, with its layout made single spaces.
fn joined(name: &str) -> String {
    name.lines().map(skip_layout).map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ")
}

/// The problems of the citations in `text`, a file at `rel` (relative to the repository root):
/// invariants cited by number, by a name that is not an invariant, or in a document other than
/// ARCHITECTURE.md; Markdown documents that are not there (`exists` says whether a path relative
/// to the root is a file), anchors and sections they do not have (`page_of` reads a document).
fn citation_problems(rel: &str, text: &str, invariants: &[String], exists: &dyn Fn(&str) -> bool, page_of: &dyn Fn(&str) -> Page) -> Vec<String> {
    let mut found = Vec::new();
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let lower = text.to_lowercase();
    for (at, _) in lower.match_indices("invariant") {
        let before = text[..at].trim_end();
        let word: String = before.chars().rev().take_while(|c| c.is_ascii_alphanumeric() || *c == '.').collect::<String>().chars().rev().collect();
        let after = text[at + "invariant".len()..].strip_prefix('s').unwrap_or(&text[at + "invariant".len()..]);
        let after = skip_layout(after);
        let document = word.trim_end_matches(".md");
        if document.len() >= 3 && document.chars().all(|c| c.is_ascii_uppercase()) && document != "ARCHITECTURE" {
            found.push(format!("{rel}:{}: cites an invariant of `{word}`, which is not a document of the repository", line_of(at)));
            continue;
        }
        if after.starts_with(|c: char| c.is_ascii_digit()) {
            found.push(format!("{rel}:{}: cites an invariant by number; cite it by its name (a heading of docs/ARCHITECTURE.md)", line_of(at)));
        } else if let Some(quoted) = after.strip_prefix('[').unwrap_or(after).strip_prefix('"') {
            let name = joined(quoted.split('"').next().unwrap_or(""));
            if !invariants.contains(&name) {
                found.push(format!("{rel}:{}: cites the invariant \"{name}\", which docs/ARCHITECTURE.md does not have (it has: {invariants:?})", line_of(at)));
            }
        }
    }
    let folder = rel.rsplit_once('/').map_or("", |(f, _)| f);
    let path_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    for (at, _) in text.match_indices(".md") {
        let rest = &text[at + 3..];
        if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let start = text[..at].rfind(|c: char| !path_char(c)).map_or(0, |i| i + 1);
        let path = &text[start..at + 3];
        let line = text[..at].rsplit('\n').next().unwrap_or("").to_string() + rest.split('\n').next().unwrap_or("");
        // Not a reference: a URL or a path built by code, the text of a link (its target is
        // checked), a file name under test.
        let preceded = text[..start].chars().next_back();
        if start == at
            || path.starts_with("//")
            || matches!(preceded, Some(':' | '}' | '$'))
            || rest.starts_with("](")
            || line.contains("Path::new(")
            || line.contains("PathBuf::from(")
        {
            continue;
        }
        let anchor: String =
            rest.strip_prefix('#').map(|a| a.chars().take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_')).collect()).unwrap_or_default();
        let after_anchor = &rest[if anchor.is_empty() { 0 } else { anchor.len() + 1 }..];
        let section = after_anchor.strip_prefix(",").map(skip_layout).and_then(|s| s.strip_prefix('"')).map(|s| joined(s.split('"').next().unwrap_or("")));
        let crate_folder = {
            let mut f = folder;
            while !f.is_empty() && !exists(&format!("{f}/Cargo.toml")) {
                f = f.rsplit_once('/').map_or("", |(up, _)| up);
            }
            f
        };
        let candidates =
            [normalize(&format!("{folder}/{path}")), normalize(path), normalize(&format!("docs/{path}")), normalize(&format!("{crate_folder}/{path}"))];
        let Some(doc) = candidates.into_iter().flatten().find(|c| exists(c)) else {
            found.push(format!("{rel}:{}: `{path}` is not a document of the repository", line_of(at)));
            continue;
        };
        if anchor.is_empty() && section.is_none() {
            continue;
        }
        let p = page_of(&doc);
        if !anchor.is_empty() && !p.anchors.contains(&anchor) {
            found.push(format!("{rel}:{}: {doc} has no heading with the anchor `#{anchor}`", line_of(at)));
        }
        if let Some(section) = section.filter(|s| !s.is_empty()) {
            if !has_section(&p, &section) {
                found.push(format!("{rel}:{}: {doc} has no section \"{section}\" (a heading, or a bold phrase)", line_of(at)));
            }
        }
    }
    if rel.ends_with(".md") {
        let own = page(text);
        for (at, _) in text.match_indices("](#") {
            let anchor: String = text[at + 3..].chars().take_while(|c| *c != ')').collect();
            if !own.anchors.contains(&anchor) {
                found.push(format!("{rel}:{}: the page has no heading with the anchor `#{anchor}`", line_of(at)));
            }
        }
    }
    found
}

/// `a/b/../c` as `a/c`, without a leading `/`; `None` when it climbs above the root.
fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// This file spells the mistakes it looks for.
const CITATIONS_OWN: &str = "crates/rustkeep-data/tests/tidy.rs";

/// Citations that name what is no longer there, in files that change in step with other work,
/// each with what it should say. An entry that no longer matches fails the test, so that it
/// leaves this list with the citation it excuses.
const CITATIONS_PENDING: &[(&str, &str, &str)] = &[];

#[test]
fn invariants_are_cited_by_name_and_cited_documents_exist() {
    let root = root().canonicalize().expect("the root exists");
    let architecture = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).expect("docs/ARCHITECTURE.md");
    let invariants = invariant_names(&architecture);
    assert!(invariants.len() >= 10 && invariants.iter().any(|n| n == "One vocabulary"), "found the invariants: {invariants:?}");
    let exists = |rel: &str| root.join(rel).is_file();
    let page_of = |rel: &str| page(&std::fs::read_to_string(root.join(rel)).unwrap_or_default());
    let mut files = Vec::new();
    text_files(&root, &mut files);
    assert!(files.len() > 300, "found the repository's text files ({})", files.len());
    let mut found = Vec::new();
    let mut pending_seen = vec![false; CITATIONS_PENDING.len()];
    for f in files {
        let rel = f.strip_prefix(&root).expect("inside").to_string_lossy().replace('\\', "/");
        let Ok(mut text) = std::fs::read_to_string(&f) else { continue };
        if rel == CITATIONS_OWN {
            continue;
        }
        for (i, (file, old, _)) in CITATIONS_PENDING.iter().enumerate() {
            if rel == *file && text.contains(old) {
                pending_seen[i] = true;
                text = text.replace(old, "");
            }
        }
        found.extend(citation_problems(&rel, &text, &invariants, &exists, &page_of));
    }
    for (seen, (file, old, new)) in pending_seen.iter().zip(CITATIONS_PENDING) {
        if !seen {
            found.push(format!("{file} no longer says `{old}`: remove it from CITATIONS_PENDING (it should say `{new}`)"));
        }
    }
    assert!(found.is_empty(), "citations of what is not there:\n{}", found.join("\n"));
}

#[test]
fn the_citation_check_sees_what_is_not_there() {
    let invariants = vec!["Hygiene".to_string(), "No panic on any input".to_string()];
    let exists = |rel: &str| ["docs/ARCHITECTURE.md", "docs/engine.md", "crates/x/Cargo.toml", "crates/x/README.md"].contains(&rel);
    let page_of = |_: &str| page("# Engine\n\n## Hygiene\n\n## Rounds: enemies act\n\n**Fleeing** is done …\n\n## 10. Change a core entry\n");
    let problems = |text: &str| citation_problems("crates/x/src/a.rs", text, &invariants, &exists, &page_of);
    // Good citations.
    assert_eq!(problems("//! Hostile (docs/ARCHITECTURE.md, invariant\n//! \"No panic on any input\")."), Vec::<String>::new());
    assert_eq!(problems("//! see [invariant \"Hygiene\"](ARCHITECTURE.md#hygiene)"), Vec::<String>::new());
    assert_eq!(problems("// (docs/engine.md, \"Rounds\"), (docs/engine.md, \"Fleeing\"), (engine.md, \"Change a core entry\")"), Vec::<String>::new());
    assert_eq!(problems("// the crate's README.md; https://example.org/x.md; format!(\"{}/docs/x.md\")"), Vec::<String>::new());
    // Bad ones, each found.
    let bad = [
        "//! (architecture invariant 6: no panic)",
        "//! (architecture invariant\n//! 6: no panic)",
        "//! (GUIDE invariant 7)",
        "//! (docs/ARCHITECTURE.md, invariant \"No panics\")",
        "//! see docs/GUIDE.md",
        "//! see docs/engine.md#speed",
        "//! (docs/engine.md, \"Steps\")",
    ];
    for text in bad {
        assert_eq!(problems(text).len(), 1, "{text}: {:?}", problems(text));
    }
    let md = citation_problems("docs/a.md", "# A\n\n## B c\n\n[b](#b-c), [d](#d)\n", &invariants, &exists, &page_of);
    assert_eq!(md.len(), 1, "{md:?}");
    assert_eq!(slug("`check --format json`"), "check---format-json");
    assert_eq!(page("# A\n## A\n```\n# no\n```\n").anchors, ["a", "a-1"]);
}

/// Each fuzz target is a row of the table in docs/reliability.md, so the page lists them all.
#[test]
fn every_fuzz_target_is_documented() {
    let page = std::fs::read_to_string(root().join("docs/reliability.md")).expect("docs/reliability.md");
    let mut targets = Vec::new();
    for e in std::fs::read_dir(root().join("fuzz/fuzz_targets")).expect("fuzz/fuzz_targets").flatten() {
        let name = e.file_name().to_string_lossy().trim_end_matches(".rs").to_string();
        targets.push(name);
    }
    assert!(targets.len() >= 8, "found the fuzz targets: {targets:?}");
    // The table of the targets and their inputs, to the first line that is no table row.
    let table: Vec<&str> = page.lines().skip_while(|l| !l.starts_with("| target | input |")).take_while(|l| l.starts_with('|')).collect();
    assert!(table.len() > 2, "docs/reliability.md, \"Fuzzing\", has the table `| target | input |`");
    let missing: Vec<&String> = targets.iter().filter(|t| !table.iter().any(|row| row.starts_with(&format!("| `{t}` |")))).collect();
    assert!(missing.is_empty(), "fuzz targets without a row in the table of docs/reliability.md, \"Fuzzing\": {missing:?}");
}
