//! The site `rustkeep doc` writes, opened in a real browser: the bundled core with
//! `examples/fire_and_thorns` and `examples/rat_catcher` (and the arena's matrix, `--arena 20`)
//! is written to a temporary folder, and `tests/doc-browser/run.js` opens it from `file://` in
//! Debian's Chromium through puppeteer-core. The script proves that no page logs an error, throws,
//! or requests anything off the machine (the site works offline); that a sample of the internal
//! links reach their page and their `#fragment`; that `/` focuses the search box, that typing an ID
//! lists it and that Enter opens its entry, scrolled into view; that the drop chart of
//! `core:floor_3_table` is drawn with one bar per row of its table; that the colours follow the
//! reader's light or dark preference; and that axe-core finds no serious or critical
//! accessibility violation on the index, the diagnostics, a mod's overview, items and loot tables,
//! light and dark. It leaves screenshots at desktop and phone width in `target/doc-browser`.
//!
//! This test then proves that the figures the browser shows are the engine's: the rows of that
//! table, read from the page, are the `drops` of `rustkeep loot core:floor_3_table --format json`
//! with the same mods, in the same order, with bit-identical chances and expected counts, each
//! chance shown as `rustkeep loot` prints it.
//!
//! Skips (saying so) when Node, the script's `node_modules` (`npm ci` in `tests/doc-browser`, done
//! by `.ci/run`) or Chromium are missing, and fails then under `RUSTKEEP_REQUIRE_TOOLS=1`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use rustkeep_data::number::percent;
use rustkeep_testutil::{repo_root, require, tools, TempDir};
use serde_json::Value;

/// The mods of the site and of the `rustkeep loot` run it is compared with (with the bundled core).
const MODS: &[&str] = &["examples/fire_and_thorns", "examples/rat_catcher"];
const TABLE: &str = "core:floor_3_table";

fn rustkeep(args: &[&str], extra: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rustkeep"))
        .args(args)
        .args(extra)
        .current_dir(repo_root())
        .env("NO_COLOR", "1")
        .output()
        .expect("the rustkeep binary runs")
}

/// The workspace's target folder (CARGO_TARGET_DIR, relative to the root when relative), where
/// CI keeps the screenshots as artifacts.
fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => repo_root().join(dir),
        None => repo_root().join("target"),
    }
}

/// The JSON text with every number written as a string. Each is then read with Rust's exact
/// `f64` parsing: serde_json's default reader may miss the last bit of a 17-digit number, and
/// this test compares the bits.
fn numbers_as_strings(json: &str) -> String {
    let mut out = String::with_capacity(json.len() + 256);
    let (mut in_string, mut escaped) = (false, false);
    let mut chars = json.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '-' || c.is_ascii_digit() {
            out.push('"');
            out.push(c);
            while let Some(&d) = chars.peek() {
                if !(d.is_ascii_digit() || matches!(d, '.' | 'e' | 'E' | '+' | '-')) {
                    break;
                }
                out.push(d);
                chars.next();
            }
            out.push('"');
        } else {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

fn exact(v: &Value, what: &str) -> f64 {
    let text = v.as_str().unwrap_or_else(|| panic!("{what} is a number: {v}"));
    text.parse().unwrap_or_else(|e| panic!("{what} = {text:?} is a number: {e}"))
}

#[test]
fn the_site_in_chromium_works_offline_is_accessible_and_shows_the_engines_chances() {
    let script_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/doc-browser");
    if !tools::node_project(&script_dir, "puppeteer-core") || !tools::node_project(&script_dir, "axe-core") {
        return;
    }
    if !require("Chromium (`chromium`)", tools::runs("chromium", &["--version"]), "apt-get install chromium") {
        return;
    }

    let tmp = TempDir::new("doc-browser");
    let site = tmp.path("site");
    let mut doc_args = vec!["doc"];
    doc_args.extend(MODS);
    doc_args.extend(["--arena", "20", "--out"]);
    let o = rustkeep(&doc_args, &[&site]);
    assert!(o.status.success(), "rustkeep doc failed:\n{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));

    let shots = target_dir().join("doc-browser");
    let started = std::time::Instant::now();
    let o = tools::node(&script_dir, "run.js", &[Path::new("--site"), &site, Path::new("--out"), &shots]);
    let (stdout, stderr) = (&o.stdout, &o.stderr);
    let summary: Value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("run.js prints one JSON object ({e}):\n{stdout}\n{stderr}"));
    let failures: Vec<&str> = summary["failures"].as_array().expect("failures").iter().map(|f| f.as_str().expect("a failure is text")).collect();
    assert!(
        o.status.success() && failures.is_empty(),
        "the site failed in Chromium ({} failures; screenshots in {}):\n- {}\n\nthe script's log:\n{stderr}",
        failures.len(),
        shots.display(),
        failures.join("\n- ")
    );
    eprintln!(
        "doc-browser: {} pages visited in {:.1} s, {} screenshots in {}",
        summary["pages_visited"],
        started.elapsed().as_secs_f64(),
        summary["screenshots"].as_array().map_or(0, Vec::len),
        shots.display()
    );
    for note in summary["notes"].as_array().into_iter().flatten() {
        eprintln!("doc-browser: note: {}", note.as_str().unwrap_or_default());
    }

    // The rows the browser read against the engine's figures for the same mods.
    let mut loot_args = vec!["loot", TABLE, "--format", "json"];
    for m in MODS {
        loot_args.extend(["--mods", m]);
    }
    let o = rustkeep(&loot_args, &[]);
    assert!(o.status.success(), "rustkeep loot failed:\n{}", String::from_utf8_lossy(&o.stderr));
    let loot: Value = serde_json::from_str(&numbers_as_strings(&String::from_utf8_lossy(&o.stdout))).expect("rustkeep loot prints JSON");
    assert_eq!(loot["table"], TABLE);
    assert_eq!(exact(&loot["luck"], "luck"), 0.0, "the site's first column is luck 0, as `rustkeep loot` by default");
    let drops = loot["drops"].as_array().expect("drops");
    let rows = summary["floor_3_table"].as_array().expect("floor_3_table");
    assert!(!drops.is_empty(), "{TABLE} drops something");
    let ids = |list: &[Value]| list.iter().map(|r| r["id"].as_str().unwrap_or("?").to_string()).collect::<Vec<_>>();
    assert_eq!(ids(rows), ids(drops), "the rows of {TABLE} on the page are the drops of `rustkeep loot`, in order");
    for (row, drop) in rows.iter().zip(drops) {
        let id = drop["id"].as_str().expect("id");
        let p_any = exact(&row["p_any"], "data-p-any");
        let expected = exact(&row["expected"], "data-expected");
        assert_eq!(p_any.to_bits(), exact(&drop["p_any"], "p_any").to_bits(), "{id}: data-p-any {p_any} is the engine's p_any");
        assert_eq!(expected.to_bits(), exact(&drop["expected"], "expected").to_bits(), "{id}: data-expected {expected} is the engine's expected count");
        assert_eq!(row["shown"].as_str(), Some(percent(p_any).as_str()), "{id}: the chance shown is {p_any} as a percentage");
    }
}

#[test]
fn numbers_become_strings_outside_strings_only() {
    let text = r#"{"a": -1.5e-3, "b": "x 1 \"2\" -3", "c": [0, 12]}"#;
    assert_eq!(numbers_as_strings(text), r#"{"a": "-1.5e-3", "b": "x 1 \"2\" -3", "c": ["0", "12"]}"#);
    assert_eq!(percent(0.4813759413800122), "48.14 %");
    assert_eq!(percent(0.00022606860619269897), "0.0226 %");
    assert_eq!(percent(0.0), "0 %");
}
