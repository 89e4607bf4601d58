//! What a stranger's mod can put in front of a terminal or a CI log (docs/reliability.md, "What
//! is echoed is inert"): file names, folder names and source lines with escape sequences and
//! other control characters come out escaped (`\u{1b}`) in every human and CI format, and as
//! JSON escapes in JSON and SARIF; and a reader that goes away ends the output quietly.
#![cfg(unix)]

mod common;

use std::io::Read;
use std::process::{Command, Stdio};

use common::run;
use rustkeep_testutil::TempDir;

/// Retitles the terminal, clears the screen and rings the bell.
const ESC_TITLE: &str = "\u{1b}]0;owned\u{7}";
const CLEAR: &str = "\u{1b}[2J";

/// No byte of the output is a control character but tab and the line ends.
fn assert_inert(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for (i, c) in text.char_indices() {
        let line_end = c == '\n' || (c == '\r' && text[i + 1..].starts_with('\n'));
        assert!(!c.is_control() || c == '\t' || line_end, "{what}: a raw {:?} at byte {i} in\n{text}", c);
    }
}

/// A mod whose folder, file name and source line carry control characters, with one mistake
/// of each kind that echoes them: a syntax error on the line, and an unknown field.
fn hostile_mod(t: &TempDir) -> String {
    let folder = format!("m{CLEAR}");
    t.write(&format!("{folder}/mod.toml"), "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n");
    t.write(&format!("{folder}/items{ESC_TITLE}.toml"), "[[items]]\nid = \"m:a\"\nname = \"A\"\nwieght = 1\n");
    t.write(&format!("{folder}/broken.toml"), format!("[[items]]\nid = \"m:b\" # {ESC_TITLE} bell \u{7}\nname = \"B\n"));
    folder
}

#[test]
fn control_characters_in_names_and_lines_are_escaped_in_every_format() {
    let t = TempDir::new("echo");
    let folder = hostile_mod(&t);
    for format in ["human", "github", "gitlab", "junit", "json", "json-lines", "sarif", "rdjson"] {
        let o = run(&t.0, &["check", &folder, "--format", format]);
        assert_eq!(o.status.code(), Some(1), "{format}: {}", String::from_utf8_lossy(&o.stderr));
        assert_inert(&format!("check --format {format} (stdout)"), &o.stdout);
        assert_inert(&format!("check --format {format} (stderr)"), &o.stderr);
        let out = String::from_utf8_lossy(&o.stdout);
        match format {
            // JSON formats escape as JSON does, and their readers get the real names back.
            // SARIF names files by URI: percent-encoded, as a URI is.
            "sarif" => assert!(out.contains("%1B%5B2J") && out.contains("%1B%5D0%3Bowned%07"), "{format}: {out}"),
            "json" | "rdjson" | "gitlab" => {
                assert!(out.contains("\\u001b"), "{format}: {out}");
                let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
                assert!(v.to_string().contains("\\u001b]0;owned"), "{format} keeps the name");
            }
            "json-lines" => assert!(out.contains("\\u001b"), "{format}: {out}"),
            _ => assert!(out.contains("\\u{1b}]0;owned\\u{7}") && out.contains("\\u{1b}[2J"), "{format}: {out}"),
        }
        // A report written to a file is escaped as on a terminal.
        let report = t.path(&format!("report.{format}"));
        let o = run(&t.0, &["check", &folder, "--format", &format!("{format}:{}", report.display())]);
        assert_eq!(o.status.code(), Some(1));
        assert_inert(&format!("check --format {format}:FILE"), &std::fs::read(&report).expect("the report is written"));
    }
    // The snippet underlines the same characters with the line's controls escaped.
    let o = run(&t.0, &["check", &folder]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("# \\u{1b}]0;owned\\u{7} bell \\u{7}"), "{out}");

    // Messages of other commands: fmt names the files it reformats.
    let o = run(&t.0, &["fmt", "--check", &folder]);
    assert_inert("fmt --check", &o.stderr);
    assert_inert("fmt --check", &o.stdout);
}

#[test]
fn scenario_names_are_escaped_in_test_and_simulate() {
    let t = TempDir::new("echo-test");
    let name = format!("scenarios/raid{ESC_TITLE}.toml");
    t.write(&name, "[player]\noptions = [\"core:warrior\"]\n[[enemies]]\ncreature = \"core:rat\"\n[[steps]]\nattack = \"enemy:0\"\n[[expect]]\nevent = \"attack_hit\"\ncount = 7\n");
    for format in ["human", "github", "junit", "json"] {
        let o = run(&t.0, &["test", ".", "--format", format]);
        assert_eq!(o.status.code(), Some(1), "{format}: the expectation fails\n{}", String::from_utf8_lossy(&o.stdout));
        assert_inert(&format!("test --format {format}"), &o.stdout);
        assert_inert(&format!("test --format {format}"), &o.stderr);
    }
    let o = run(&t.0, &["simulate", &name]);
    assert_inert("simulate", &o.stdout);
    assert_inert("simulate", &o.stderr);
}

#[test]
fn a_reader_that_goes_away_ends_the_output_quietly() {
    // Far more output than a pipe holds, so that the writes after the reader left fail.
    let t = TempDir::with_files("pipe", &[("m/mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\n")]);
    let items: String = (0..3000).map(|i| format!("[[items]]\nid = \"m:i{i}\"\nname = \"I\"\nwieght = 1\n\n")).collect();
    t.write("m/items.toml", items);
    for format in ["human", "json-lines", "github"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rustkeep"))
            .args(["check", "m", "--format", format])
            .current_dir(&t.0)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the rustkeep binary runs");
        // `| head -c 10`: the reader takes a little and closes the pipe.
        let mut out = child.stdout.take().expect("stdout");
        let mut first = [0u8; 10];
        out.read_exact(&mut first).expect("some output");
        drop(out);
        let o = child.wait_with_output().expect("rustkeep ends");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.to_lowercase().contains("broken pipe") && !err.contains("os error"), "{format}: {err}");
        // The exit code is the check's own: the mod has errors.
        assert_eq!(o.status.code(), Some(1), "{format}: {err}");
    }
}
