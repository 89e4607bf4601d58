//! The two modes of the reader against each other: wherever the scanner answers, `toml_parser`
//! reads the text without an error and gives the same events (whitespace aside). Checked on hand-picked texts, every TOML file of
//! the repository, the official TOML suite (beside the repository) and seeded mutations of them;
//! the scanner must also answer for the game's own data, or `fmt --check` quietly slows down.

use super::{scan, tolerant, Event, Events};

/// The scanner's events of `text`, or `None` where it gives up.
fn scanned(text: &str) -> Option<Vec<Event>> {
    let mut out = Vec::new();
    scan::scan(text, &mut Events(&mut out)).then_some(out)
}

/// Whether the scanner answered for `text`; panics where it answered differently.
fn agree(what: &str, text: &str) -> bool {
    let Some(fast) = scanned(text) else { return false };
    let mut slow = Vec::new();
    let errors = tolerant(text, &mut slow);
    assert!(errors.is_empty(), "{what}: the scanner answered for a text toml_parser refuses ({errors:?}):\n{text}");
    assert_eq!(fast, slow, "{what}: the scanner and toml_parser disagree on:\n{text}");
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
    assert!(scanned(&deep).is_none());
}

#[test]
fn every_file_of_the_repository_and_the_suite_scans_alike() {
    let mut data_files = 0;
    for (name, text) in &rustkeep_testutil::toml_corpus() {
        let answered = agree(name, text);
        let is_data = (name.contains("/core/") || name.contains("/examples/")) && !text.contains('\r');
        if is_data && !name.contains("broken") {
            data_files += 1;
            assert!(answered, "{name}: mod data the scanner should read itself");
        }
    }
    assert!(data_files >= 20, "only {data_files} data files found");
}

/// Only the mutations the scanner answers for are compared (it leaves the others to
/// `toml_parser`). At least a fifth of them must be, or the test compares (almost) nothing: 1,488
/// of the 6,000 default runs are with the official suite, whose files are mostly invalid TOML,
/// and 3,079 without it.
#[test]
fn mutated_files_scan_alike() {
    let corpus = rustkeep_testutil::toml_corpus();
    rustkeep_testutil::compare_mutations(&corpus, 0x2545_f491_4f6c_dd1d, "scanned and compared with toml_parser", 5, agree);
}
