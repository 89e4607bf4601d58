//! The single-pass reader against the `toml` crate's: wherever the fast one accepts a text, the
//! `toml` reader accepts it too and the two trees are equal, every span included. Checked on
//! hand-picked table-rule cases, every TOML file of the repository, the official TOML suite
//! (beside the repository) and seeded mutations of all of them. The fast reader must also accept
//! the shapes mod data is written in, or `rustkeep check` would quietly lose its speed.

use rustkeep_data::tree::{events_and_read_fast, read_fast, read_with_toml};

/// Whether the fast reader accepted `text`; panics where it accepted something else than the
/// `toml` reader reads, or where one scan for the event stream and the fast reader's verdict
/// (what `fmt --check` asks) gives other events or another verdict than the two asked apart.
fn agree(what: &str, text: &str) -> bool {
    let fast = read_fast(text);
    let mut events = Vec::new();
    let (errors, read) = events_and_read_fast(text, &mut events);
    assert_eq!(read, fast.is_some(), "{what}: one scan for events and tree gives another verdict on:\n{text}");
    let apart = rustkeep_data::syntax::parse(text);
    assert!(events == apart.events && errors == apart.errors, "{what}: one scan for events and tree gives other events on:\n{text}");
    let Some(fast) = fast else { return false };
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

#[test]
fn every_file_of_the_repository_and_the_suite_reads_alike() {
    let mut accepted = 0;
    let mut data_files = 0;
    let files = rustkeep_testutil::toml_corpus();
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

/// Most mutations break a text in a way the fast reader leaves to the `toml` reader; only those
/// it accepts are compared. At least a tenth of them must be, or the test compares (almost)
/// nothing: 769 of the 6,000 default runs are with the official suite, whose files are mostly
/// invalid TOML, and 1,887 without it.
#[test]
fn mutated_files_read_alike() {
    let corpus = rustkeep_testutil::toml_corpus();
    rustkeep_testutil::compare_mutations(&corpus, 0x9e37_79b9_7f4a_7c15, "read by the fast reader and compared with the toml reader", 10, agree);
}
