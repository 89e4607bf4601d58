//! The TOML corpus the single-pass readers are held to (`rustkeep_data::tree` against the `toml`
//! crate, `rustkeep-fmt`'s event scanner against `toml_parser`), and seeded mutations of it.

/// Every TOML file of the repository (not below `target/`, `.git/` or `node_modules/`) and the
/// official suite's TOML 1.1 files (the test data `toml-test`, see [`crate::shared`]; required in
/// CI), as (path, text) for those that are UTF-8, sorted by path. Without the suite it is the
/// repository's files alone, after a SKIPPED line: callers assert only on what those hold.
pub fn toml_corpus() -> Vec<(String, String)> {
    let mut paths = crate::files_below(crate::repo_root(), "toml");
    if let Some(suite) = crate::shared_folder("toml-test") {
        let root = suite.join("tests");
        let list = std::fs::read_to_string(root.join("files-toml-1.1.0")).expect("the suite's list of TOML 1.1 files");
        paths.extend(list.lines().map(str::trim).filter(|l| l.ends_with(".toml")).map(|l| root.join(l)));
    }
    paths.sort();
    paths.into_iter().filter_map(|p| Some((p.display().to_string(), String::from_utf8(std::fs::read(&p).ok()?).ok()?))).collect()
}

/// What a mutation inserts: TOML's punctuation, quotes, escapes, line ends of every kind, control
/// characters, and whole lines that define keys and tables.
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

/// `RUSTKEEP_FAST_READER_RUNS` (default 6,000) seeded mutations of the files of `corpus` shorter
/// than 6,000 bytes, as (what, text): one to three edits each — a piece inserted, one to four
/// characters deleted, or the line at a point repeated (so that keys and headers come twice).
pub fn toml_mutations(corpus: &[(String, String)], seed: u64) -> impl Iterator<Item = (String, String)> + '_ {
    let files: Vec<&(String, String)> = corpus.iter().filter(|(_, t)| t.len() < 6_000).collect();
    assert!(!files.is_empty(), "no files to mutate");
    let runs: usize = std::env::var("RUSTKEEP_FAST_READER_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(6_000);
    let mut state = seed | 1;
    let mut below = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    (0..runs).map(move |run| {
        let (name, text) = files[below(files.len())];
        let mut t = text.clone();
        for _ in 0..1 + below(3) {
            let mut at = below(t.len() + 1);
            while !t.is_char_boundary(at) {
                at -= 1;
            }
            match below(3) {
                0 => t.insert_str(at, PIECES[below(PIECES.len())]),
                1 => {
                    let mut end = (at + 1 + below(4)).min(t.len());
                    while !t.is_char_boundary(end) {
                        end += 1;
                    }
                    t.replace_range(at..end, "");
                }
                _ => {
                    let start = t[..at].rfind('\n').map_or(0, |i| i + 1);
                    let end = t[at..].find('\n').map_or(t.len(), |i| at + i + 1);
                    let line = t[start..end].to_string();
                    t.insert_str(end, &line);
                }
            }
        }
        (format!("{name}, mutation {run} of seed {seed:#x}"), t)
    })
}

/// Runs `compare` on every mutation of `corpus` ([`toml_mutations`] of `seed`); `compare` says
/// whether it compared the text with the reference reader (or left it to it). Prints how many
/// were compared (`what` names the comparison) and fails when fewer than one in
/// `at_least_one_in` were: a test that compares (almost) nothing proves nothing. Returns that
/// number.
#[track_caller]
pub fn compare_mutations(corpus: &[(String, String)], seed: u64, what: &str, at_least_one_in: usize, mut compare: impl FnMut(&str, &str) -> bool) -> usize {
    let (mut runs, mut compared) = (0, 0);
    for (name, text) in toml_mutations(corpus, seed) {
        runs += 1;
        compared += usize::from(compare(&name, &text));
    }
    crate::note(&format!("{compared} of {runs} mutated files {what}"));
    assert!(runs > 0 && compared * at_least_one_in >= runs, "only {compared} of {runs} mutated files {what} (at least one in {at_least_one_in} must be)");
    compared
}
