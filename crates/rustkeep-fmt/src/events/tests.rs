//! The scanner against `toml_parser`: wherever the scanner answers, `toml_parser` reads the text
//! without an error and gives the same events (whitespace aside). Checked on hand-picked texts, every TOML file of
//! the repository, the official TOML suite (beside the repository) and seeded mutations of them;
//! the scanner must also answer for the game's own data, or `fmt --check` quietly slows down.

use std::path::{Path, PathBuf};

use toml_parser::parser::{Event, EventKind};

use super::scan;
use crate::cst::parser_events;

/// Whether the scanner answered for `text`; panics where it answered differently.
fn agree(what: &str, text: &str) -> bool {
    let Some(fast) = scan(text) else { return false };
    match parser_events(text) {
        Ok(slow) => {
            let slow: Vec<Event> = slow.into_iter().filter(|e| e.kind() != EventKind::Whitespace).collect();
            assert_eq!(fast, slow, "{what}: the scanner and toml_parser disagree on:\n{text}");
        }
        Err(e) => panic!("{what}: the scanner answered for a text toml_parser refuses ({e:?}):\n{text}"),
    }
    true
}

#[test]
fn hand_picked_texts() {
    let answered = [
        "# top\n[[items]] # c\nid = \"a\" \na . \"b\" = { x = 1, y = [ 1 ,2, ] , }\n\n[ t ]\nz = \"\"\"\nml\"\"\"\nw = true\n",
        "a = 1\r\nb = 'x' # c\r\n",
        "m = \"\"\"\\\n  x \\\"q\\\" \"\"\"\"\nl = '''a''b'''\n",
        "1.2 = 3\nn = -1_000.5e+3\n",
        "t = {\n  a = 1, # one\n  b = [\n  ],\n}\n",
        "x = 1#c\n",
        "s = \"é\\u00e9\\U0001F600\"\n",
    ];
    for t in answered {
        assert!(agree(t, t), "the scanner should answer for:\n{t}");
    }
    for t in ["d = 1979-05-27\n", "a = \n", "a = 1 2\n", "[a\n", "a = [1 2]\n", "s = \"\\e\"\n", "a = 1\rb = 2\n", "x = inf\n", "h = 0x1\n"] {
        assert!(!agree(t, t), "the scanner should leave this to toml_parser:\n{t}");
    }
    let deep = format!("a = {}1{}\n", "[".repeat(70), "]".repeat(70));
    assert!(scan(&deep).is_none());
}

fn toml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        let name = e.file_name();
        if p.is_dir() {
            if name != "target" && name != ".git" && name != "node_modules" {
                toml_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

fn corpus() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    toml_files(rustkeep_testutil::repo_root(), &mut paths);
    if let Some(suite) = rustkeep_testutil::tools::shared_folder("toml-test") {
        let root = suite.join("tests");
        let list = std::fs::read_to_string(root.join("files-toml-1.1.0")).expect("the suite's list of TOML 1.1 files");
        paths.extend(list.lines().map(str::trim).filter(|l| l.ends_with(".toml")).map(|l| root.join(l)));
    }
    paths.sort();
    paths.into_iter().filter_map(|p| Some((p.display().to_string(), String::from_utf8(std::fs::read(&p).ok()?).ok()?))).collect()
}

#[test]
fn every_file_of_the_repository_and_the_suite_scans_alike() {
    let mut data_files = 0;
    for (name, text) in &corpus() {
        let answered = agree(name, text);
        let is_data = (name.contains("/core/") || name.contains("/examples/")) && !text.contains('\r');
        if is_data && !name.contains("broken") {
            data_files += 1;
            assert!(answered, "{name}: mod data the scanner should read itself");
        }
    }
    assert!(data_files >= 20, "only {data_files} data files found");
}

#[test]
fn mutated_files_scan_alike() {
    const PIECES: &[&str] = &[
        "[", "]", "[[", "]]", "{", "}", "\"", "'", "\"\"\"", "'''", ".", "=", ",", "#", "\n", "\r", "\r\n", " ", "\t", "\\", "\\n", "\\u00", "_", "0", "1",
        "e", "-", "+", ":", "a", "é", "\u{7f}", "\u{1}", "x = 1\n", "[t]\n", "true", "inf", "0x1",
    ];
    let files: Vec<(String, String)> = corpus().into_iter().filter(|(_, t)| t.len() < 6_000).collect();
    let runs: usize = std::env::var("RUSTKEEP_FAST_READER_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(6_000);
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for run in 0..runs {
        let (name, text) = &files[below(files.len())];
        let mut t = text.clone();
        for _ in 0..1 + below(3) {
            let mut at = below(t.len() + 1);
            while !t.is_char_boundary(at) {
                at -= 1;
            }
            if below(2) == 0 {
                t.insert_str(at, PIECES[below(PIECES.len())]);
            } else {
                let mut end = (at + 1 + below(4)).min(t.len());
                while !t.is_char_boundary(end) {
                    end += 1;
                }
                t.replace_range(at..end, "");
            }
        }
        agree(&format!("{name}, mutation {run}"), &t);
    }
}
