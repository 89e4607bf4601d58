//! The single-pass reader against the `toml` crate's: wherever the fast one accepts a text, the
//! `toml` reader accepts it too and the two trees are equal, every span included. Checked on
//! hand-picked table-rule cases, every TOML file of the repository, the official TOML suite
//! (beside the repository) and seeded mutations of all of them. The fast reader must also accept
//! the shapes mod data is written in, or `rustkeep check` would quietly lose its speed.

use std::path::{Path, PathBuf};

use rustkeep_data::tree::{read_fast, read_with_toml};

/// Whether the fast reader accepted `text`; panics where it accepted something else than the
/// `toml` reader reads.
fn agree(what: &str, text: &str) -> bool {
    let Some(fast) = read_fast(text) else { return false };
    let slow = read_with_toml(text);
    assert!(slow.errors.is_empty(), "{what}: the fast reader accepted a text the toml reader refuses ({:?}):\n{text}", slow.errors);
    assert_eq!(fast, slow.root, "{what}: the two readers disagree on:\n{text}");
    true
}

#[test]
fn table_rules_and_spans_match_the_toml_reader() {
    let accepted = [
        "a = 1\nb = \"x\"\nc = 'y'\nd = true\ne = false\nf = -1.5e-3\ng = [1, 2,]\nh = { x = 1, y.z = 2 }\n",
        "[a.b]\nx = 1\n[a]\ny = 2\n[c]\n",
        "[a.b]\n[c]\n[a]\n",
        "[[items]]\nid = \"a\"\n[[items.triggers]]\non = \"x\"\n[[items.triggers]]\non = \"y\"\n[[items]]\nid = \"b\"\n",
        "a.b.c = 1\na.b.d = 2\na.e = 3\n[x]\ny.z = 1\n",
        "a.b.c = 1\n[a.b.d]\n",
        "  [ a . \"b.c\" . 'd' ]  # header\n  k = 1 # trailing\n",
        "s = \"tab\\there \\\"q\\\" \\\\ \\u00e9 \\U0001F600\"\nt = '\\no escapes'\n",
        "m = \"\"\"\nline one\nline \\\n   two \"\" \"\"\"\"\nl = '''\nraw ''\\n'''\n",
        "n = 1_000\nf = 1_0.0_1e1_0\nz = +0\nw = -0.0\nq = 0e0\n",
        "a = [[1, 2], [\"x\"], [{ b = 1 }], []]\nt = {}\n",
        "t = { a = 1,\n  # comment\n  b = [\n    1, # one\n  ],\n}\n",
        "\"\" = 1\n'q' = 2\n1 = 3\n-_- = 4\n",
        "a = 1\r\n[b]\r\nc = \"x\" # comment\r\n",
        "[[a]]\n[a.b]\nc = 1\n[[a]]\n[a.b]\nc = 2\n",
        "x = \"é ünïcödé\"\n# comment with ünïcödé\n",
    ];
    for text in accepted {
        assert!(agree(text, text), "the fast reader should accept:\n{text}");
    }
    // The `toml` reader refuses these, or reads them in a way the fast reader leaves to it.
    let given_up = [
        "a = 1\na = 2\n",
        "[a]\n[a]\n",
        "a.b = 1\n[a]\n",
        "[a]\nb.c = 1\n[a.b]\n",
        "a = {}\n[a.b]\n",
        "a = [1]\n[[a]]\n",
        "[[a]]\n[a]\n",
        "a = { b = 1 }\na.c = 2\n",
        "t = { a.b = 1, a = 2 }\n",
        "d = 1979-05-27\n",
        "h = 0xff\n",
        "i = inf\n",
        "n = 01\n",
        "n = 1__0\n",
        "n = 9223372036854775808\n",
        "f = 1.\n",
        "f = .5\n",
        "s = \"\\e\"\n",
        "s = \"a\nb\"\n",
        "s = \"\"\"a\r\nb\"\"\"\n",
        "a = 1 b = 2\n",
        "a = \n",
        "= 1\n",
        "[a\n",
        "[[a]\n",
        "a = [1 2]\n",
        "a = [,]\n",
        "a = 1\rb = 2\n",
        "# bad \u{7f} comment\n",
        "\u{feff}a = 1\n",
    ];
    for text in given_up {
        assert!(!agree(text, text), "the fast reader should leave this to the toml reader:\n{text}");
    }
}

#[test]
fn hostile_shapes_are_left_to_the_toml_reader() {
    let deep = format!("a = {}1{}\n", "[".repeat(70), "]".repeat(70));
    assert!(read_fast(&deep).is_none());
    let wide: String = (0..200).map(|i| format!("k{i} = {i}\n")).collect();
    assert!(read_fast(&wide).is_none());
    let long_key = format!("{} = 1\n", vec!["k"; 40].join("."));
    assert!(read_fast(&long_key).is_none());
    // Many entries in arrays of tables are the normal case and stay on the fast path.
    let many: String = (0..5000).map(|i| format!("[[items]]\nid = \"m:i{i}\"\n")).collect();
    assert!(agree("5,000 entries", &many));
}

fn repo_root() -> PathBuf {
    rustkeep_testutil::repo_root().to_path_buf()
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

/// The official suite's files of TOML 1.1, valid and invalid, when it is beside the repository
/// (required in CI).
fn suite_files() -> Vec<PathBuf> {
    let Some(suite) = rustkeep_testutil::tools::shared_folder("toml-test") else { return Vec::new() };
    let root = suite.join("tests");
    let list = std::fs::read_to_string(root.join("files-toml-1.1.0")).expect("the suite's list of TOML 1.1 files");
    list.lines().map(str::trim).filter(|l| l.ends_with(".toml")).map(|l| root.join(l)).collect()
}

fn corpus() -> Vec<(String, String)> {
    let mut paths = Vec::new();
    toml_files(&repo_root(), &mut paths);
    paths.extend(suite_files());
    paths.sort();
    paths.into_iter().filter_map(|p| Some((p.display().to_string(), String::from_utf8(std::fs::read(&p).ok()?).ok()?))).collect()
}

#[test]
fn every_file_of_the_repository_and_the_suite_reads_alike() {
    let mut accepted = 0;
    let mut data_files = 0;
    let files = corpus();
    for (name, text) in &files {
        let fast = agree(name, text);
        accepted += usize::from(fast);
        // The game's own data and the example mods are what the fast reader is for.
        let is_data = (name.contains("/core/") || name.contains("/examples/")) && !name.ends_with("mod.toml") && !name.ends_with("rustkeep.toml");
        if is_data && !name.contains("broken") && !text.contains('\r') {
            data_files += 1;
            assert!(fast, "{name}: mod data the fast reader should read itself");
        }
    }
    assert!(data_files >= 20, "only {data_files} data files found");
    eprintln!("{accepted} of {} files read by the fast reader", files.len());
}

/// A small deterministic generator (xorshift), so that a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const PIECES: &[&str] = &[
    "[",
    "]",
    "[[",
    "]]",
    "{",
    "}",
    "\"",
    "'",
    "\"\"\"",
    "'''",
    ".",
    "=",
    ",",
    "#",
    "\n",
    "\r",
    "\r\n",
    " ",
    "\t",
    "\\",
    "\\n",
    "\\u00",
    "_",
    "0",
    "1",
    "e",
    "-",
    "+",
    ":",
    "a",
    "é",
    "\u{7f}",
    "\u{1}",
    "x = 1\n",
    "[t]\n",
    "[[t]]\n",
    "a.b = 2\n",
    "true",
    "inf",
    "0x1",
];

#[test]
fn mutated_files_read_alike() {
    let files: Vec<(String, String)> = corpus().into_iter().filter(|(_, t)| t.len() < 6_000).collect();
    assert!(!files.is_empty());
    let runs: usize = std::env::var("RUSTKEEP_FAST_READER_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(6_000);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut accepted = 0;
    for run in 0..runs {
        let (name, text) = &files[rng.below(files.len())];
        let mut t = text.clone();
        for _ in 0..1 + rng.below(3) {
            let mut at = rng.below(t.len() + 1);
            while !t.is_char_boundary(at) {
                at -= 1;
            }
            match rng.below(3) {
                0 => t.insert_str(at, PIECES[rng.below(PIECES.len())]),
                1 => {
                    let mut end = (at + 1 + rng.below(4)).min(t.len());
                    while !t.is_char_boundary(end) {
                        end += 1;
                    }
                    t.replace_range(at..end, "");
                }
                _ => {
                    // Repeat the line the point is on, so that keys and headers come twice.
                    let start = t[..at].rfind('\n').map_or(0, |i| i + 1);
                    let end = t[at..].find('\n').map_or(t.len(), |i| at + i + 1);
                    let line = t[start..end].to_string();
                    t.insert_str(end, &line);
                }
            }
        }
        accepted += usize::from(agree(&format!("{name}, mutation {run}"), &t));
    }
    eprintln!("{accepted} of {runs} mutated files read by the fast reader");
}
