//! Fixture mods with their expectations written next to the lines they concern.
//!
//! Every folder below `tests/fixtures/` (and `examples/broken/`) is a mod or a workspace of mods.
//! A trailing comment `# expect: code` (several: `# expect: code-a, code-b`) on a line says that a
//! diagnostic with that code has its primary range starting on that line. `code@warning` or
//! `code@error` also pins the severity (for `[lints]` levels). The harness loads each fixture the
//! way the CLI does and compares both directions: every expectation must be met, and no other
//! diagnostic (warnings included) may appear.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rustkeep_check::analyze;
use rustkeep_data::project::{load, Overlay};
use rustkeep_data::text::Encoding;
use rustkeep_testutil::repo_root;

/// `(file, line, code, severity)`; severity is `None` when the expectation does not pin it.
type Key = (String, u32, String);

/// Every `.toml` file below `dir`, sorted.
fn toml_files(dir: &Path) -> Vec<PathBuf> {
    rustkeep_testutil::files_below(dir, "toml")
}

fn rel(path: &Path, root: &Path) -> String {
    path.strip_prefix(root).unwrap_or(path).components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/")
}

/// The expectations of a fixture: key → list of pinned severities (`None` = any), one per
/// expected diagnostic.
fn expectations(dir: &Path) -> BTreeMap<Key, Vec<Option<String>>> {
    let mut out: BTreeMap<Key, Vec<Option<String>>> = BTreeMap::new();
    for path in toml_files(dir) {
        let bytes = std::fs::read(&path).expect("fixture files are readable");
        let text = String::from_utf8_lossy(&bytes);
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let (at, len, target) = if let Some(at) = line.find("# expect:") {
                (at, "# expect:".len(), i)
            } else if let Some(at) = line.find("# expect(string):") {
                (at, "# expect(string):".len(), string_start(&lines, i, &path))
            } else {
                continue;
            };
            for item in line[at + len..].split(',') {
                let item = item.trim();
                if item.is_empty() {
                    continue;
                }
                let (code, sev) = match item.split_once('@') {
                    Some((c, s)) => (c.trim(), Some(s.trim().to_string())),
                    None => (item, None),
                };
                assert!(
                    rustkeep_data::diag::Code::from_name(code).is_some(),
                    "{}:{}: `{code}` in an expect comment is not a diagnostic code",
                    rel(&path, dir),
                    i + 1
                );
                out.entry((rel(&path, dir), target as u32 + 1, code.to_string())).or_default().push(sev);
            }
        }
    }
    out
}

/// For `# expect(string):` on the closing line of a multi-line string: the line that opened it.
/// (A comment cannot sit on the opening line: it would be part of the string.)
fn string_start(lines: &[&str], closing: usize, path: &Path) -> usize {
    let quote = if lines[closing].trim_start().starts_with("'''") { "'''" } else { "\"\"\"" };
    (0..closing)
        .rev()
        .find(|&l| lines[l].contains(quote))
        .unwrap_or_else(|| panic!("{}:{}: `# expect(string):` without an opening {quote} above it", path.display(), closing + 1))
}

/// The diagnostics of a fixture: key → severities, one per diagnostic.
fn actual(dir: &Path) -> (BTreeMap<Key, Vec<String>>, Vec<String>) {
    let project = load(&[dir.to_path_buf()], dir, &Overlay::new());
    let analysis = analyze(&project);
    let mut out: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    let mut shown = Vec::new();
    for d in &analysis.diagnostics {
        let f = project.file(d.loc.file);
        let p = f.index.position(&f.text, d.loc.span.start, Encoding::Scalar);
        out.entry((f.path.clone(), p.line + 1, d.code.name().to_string())).or_default().push(d.severity.as_str().to_string());
        shown.push(format!("{}:{}:{}: {} {}: {}", f.path, p.line + 1, p.col + 1, d.severity.as_str(), d.code.name(), d.message));
    }
    (out, shown)
}

/// Compares a fixture's diagnostics with its expectations; returns a readable diff when they differ.
fn compare(dir: &Path) -> Result<usize, String> {
    let expected = expectations(dir);
    let (got, shown) = actual(dir);
    let mut missing = Vec::new();
    let mut unexpected = Vec::new();
    for (key, sevs) in &expected {
        let have = got.get(key).cloned().unwrap_or_default();
        let mut pool = have.clone();
        for sev in sevs {
            let pos = match sev {
                Some(s) => pool.iter().position(|h| h == s),
                None => (!pool.is_empty()).then_some(0),
            };
            match pos {
                Some(i) => {
                    pool.remove(i);
                }
                None => missing.push(format!("  - {}:{}: {}{}", key.0, key.1, key.2, sev.as_ref().map(|s| format!("@{s}")).unwrap_or_default())),
            }
        }
        for s in pool {
            unexpected.push(format!("  + {}:{}: {}@{s}", key.0, key.1, key.2));
        }
    }
    for (key, sevs) in &got {
        if !expected.contains_key(key) {
            for s in sevs {
                unexpected.push(format!("  + {}:{}: {}@{s}", key.0, key.1, key.2));
            }
        }
    }
    if missing.is_empty() && unexpected.is_empty() {
        return Ok(expected.values().map(Vec::len).sum());
    }
    let mut msg = format!("fixture {}:\n", dir.display());
    if !missing.is_empty() {
        msg.push_str(" expected but not reported (-):\n");
        msg.push_str(&missing.join("\n"));
        msg.push('\n');
    }
    if !unexpected.is_empty() {
        msg.push_str(" reported but not expected (+):\n");
        msg.push_str(&unexpected.join("\n"));
        msg.push('\n');
    }
    msg.push_str(" all diagnostics of the fixture:\n");
    for s in shown {
        msg.push_str(&format!("    {s}\n"));
    }
    Err(msg)
}

fn fixture_dirs() -> Vec<PathBuf> {
    let root = repo_root().join("tests/fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root).expect("tests/fixtures exists").flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    dirs.push(repo_root().join("examples/broken"));
    dirs
}

#[test]
fn every_fixture_reports_exactly_its_expectations() {
    let mut failures = Vec::new();
    let mut total = 0;
    for dir in fixture_dirs() {
        match compare(&dir) {
            Ok(n) => total += n,
            Err(msg) => failures.push(msg),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(total > 0, "the fixtures hold expectations");
}

/// The clean fixture uses every registry and trigger place; it must stay silent.
#[test]
fn the_clean_fixture_has_no_expectations_and_no_diagnostics() {
    let dir = repo_root().join("tests/fixtures/clean_everything");
    assert!(expectations(&dir).is_empty(), "the clean fixture must not carry expect comments");
    let (got, shown) = actual(&dir);
    assert!(got.is_empty(), "the clean fixture reported:\n{}", shown.join("\n"));
}

/// Every diagnostic code is exercised by at least one fixture expectation.
#[test]
fn the_fixtures_cover_every_code() {
    let mut seen = std::collections::BTreeSet::new();
    for dir in fixture_dirs() {
        for (_, _, code) in expectations(&dir).into_keys() {
            seen.insert(code);
        }
    }
    let missing: Vec<&str> = rustkeep_data::diag::Code::ALL.iter().map(|c| c.name()).filter(|c| !seen.contains(*c)).collect();
    assert!(missing.is_empty(), "codes no fixture expects: {missing:?}");
    // The 36 codes of the data language (with two character options of one group), the four of
    // the dungeon (prefab NPCs, reachability, floors without an exit, first rooms the floor does
    // not lay out), the three of things that never happen (NPCs nobody places, triggers that
    // never run, overrides that drop fields), the two about suppressions and the one of a
    // scenario's expectations, the one of the limits that keep every run bounded, and the eight
    // lints for traps (unreachable `ai` rules, prefabs, items, statuses, creatures and shops
    // nothing brings into play, `when` values never carried, conditions that never hold), and
    // the six of mods that evolve (version requirements, incompatible mods, renames).
    assert_eq!(rustkeep_data::diag::Code::ALL.len(), 61);
}

/// The foundation codes are all demonstrated by `examples/broken`.
#[test]
fn the_broken_example_shows_every_foundation_code() {
    let found: std::collections::BTreeSet<String> = expectations(&repo_root().join("examples/broken")).into_keys().map(|k| k.2).collect();
    for code in [
        "toml-syntax",
        "unknown-registry",
        "unknown-field",
        "missing-field",
        "wrong-type",
        "invalid-id",
        "namespace-mismatch",
        "duplicate-id",
        "override-missing-target",
        "override-id-mismatch",
        "override-conflict",
        "unknown-dependency",
        "dependency-cycle",
        "invalid-manifest",
    ] {
        assert!(found.contains(code), "examples/broken does not show `{code}`");
    }
}
