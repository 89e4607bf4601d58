//! No comment is ever lost: every text the formatter formats keeps the comments of its input,
//! each as often (compared as the lexer of `toml_parser` finds them, not as the formatter does),
//! and a text it cannot format so is refused with [`FormatError::Comment`], never written with a
//! comment less. Checked on every TOML file of the repository and of the official TOML suite, and
//! on mutants: comments inserted at every token boundary (and on both sides of every comma) of the
//! core's and the examples' files and of the suite's valid files, and at every pair of token
//! boundaries of small array and table shapes (before and after the separating commas, between a
//! key and its `=`, before a closing bracket, at the end of the file, …). Each test counts what it
//! compared and asserts the count, so that it cannot pass by comparing nothing. The shapes tried
//! here are all ones the formatter keeps every comment of: a refusal fails the test too.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use rustkeep_fmt::{format_document, FileKind, FormatError, FormatOptions, TomlVersion};
use toml_parser::lexer::TokenKind;
use toml_parser::parser::{Event, EventKind};

/// The layouts every text is formatted in: the default, and a narrow width (nearly every array
/// opens) in TOML 1.0 and in TOML 1.1 (inline tables open too). The narrow ones keep the keys in
/// their order, so that every value keeps its place and comments can be checked to keep theirs.
fn layouts(kind: FileKind) -> [FormatOptions; 3] {
    let narrow = FormatOptions { kind, line_width: 20, reorder_keys: false, ..FormatOptions::default() };
    [FormatOptions { kind, ..FormatOptions::default() }, narrow, FormatOptions { toml_version: TomlVersion::V1_1, ..narrow }]
}

/// What the texts given to [`Tally::compare`] came to.
#[derive(Default)]
struct Tally {
    /// Texts formatted, whose comments were compared with the input's.
    compared: usize,
    /// Comments those texts held (each counted once per text).
    comments: usize,
    /// Texts the formatter refused with [`FormatError::Comment`], with the line it named.
    refused: Vec<String>,
    /// Texts that are not valid TOML (mutants that put a line break where TOML allows none).
    invalid: usize,
}

impl Tally {
    /// Formats `text` with `options`. A result must hold the input's comments, each as often, and
    /// when the keys keep their order, each between the same values; a refusal must name the line
    /// of a comment of the input. With `again`, the result must also format to itself.
    fn compare(&mut self, label: &str, text: &str, options: &FormatOptions, again: bool) {
        match format_document(text, options) {
            Ok(out) => {
                let (before, after) = (comment_multiset(text), comment_multiset(&out));
                assert!(before == after, "{label}: comments lost or added\n--- input\n{text}\n--- output\n{out}\n--- {before:?}\n--- {after:?}");
                if !options.reorder_keys {
                    let (before, after) = (placements(text), placements(&out));
                    assert!(before == after, "{label}: a comment moved across a value\n--- input\n{text}\n--- output\n{out}\n--- {before:?}\n--- {after:?}");
                }
                if again {
                    let twice = format_document(&out, options).unwrap_or_else(|e| panic!("{label}: the output does not format: {e}\n---\n{out}"));
                    assert!(twice == out, "{label}: not idempotent\n--- input\n{text}\n{}", rustkeep_fmt::diff::unified(label, &out, &twice));
                }
                self.compared += 1;
                self.comments += before.len();
            }
            Err(FormatError::Comment { line }) => {
                assert!(comment_lines(text).contains(&line), "{label}: refused for line {line}, which holds no comment\n---\n{text}");
                self.refused.push(format!("{label} (line {line}):\n{text}"));
            }
            // Only where `rustkeep check` calls the text invalid too: a refusal of a valid text
            // would hide from this test what formatting it does to its comments.
            Err(FormatError::Syntax(errors)) => {
                let body = text.strip_prefix('\u{feff}').unwrap_or(text);
                assert!(!rustkeep_fmt::syntax_errors(body).is_empty(), "{label}: a valid text refused as invalid: {errors:?}\n---\n{text}");
                self.invalid += 1;
            }
            Err(e @ FormatError::Meaning) => panic!("{label}: {e}\n---\n{text}"),
        }
    }

    /// Asserts that at least `texts` texts holding at least `comments` comments were compared, and
    /// that none was refused: each shape tried here is one the formatter keeps every comment of.
    #[track_caller]
    fn assert_compared(&self, what: &str, texts: usize, comments: usize) {
        eprintln!("{what}: {} texts compared ({} comments), {} refused, {} not valid TOML", self.compared, self.comments, self.refused.len(), self.invalid);
        assert!(self.compared >= texts && self.comments >= comments, "{what}: only {} texts with {} comments compared", self.compared, self.comments);
        assert!(
            self.refused.is_empty(),
            "{what}: {} texts refused for a comment they would lose; the first:\n{}",
            self.refused.len(),
            self.refused.first().map_or("", String::as_str)
        );
    }
}

/// The 1-based lines on which a comment of `text` starts.
fn comment_lines(text: &str) -> Vec<usize> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let source = toml_parser::Source::new(body);
    source.lex().into_vec().into_iter().filter(|t| t.kind() == TokenKind::Comment).map(|t| body[..t.span().start()].matches('\n').count() + 1).collect()
}

/// Where the comments of a valid TOML text are among its values: each comment's text (without
/// trailing whitespace) with the number of values (scalars, not keys) before it, sorted. Formatting
/// without reordering keys keeps every value in its place, so it must keep this list too: a
/// comment may move across brackets, commas and keys, never across a value.
fn placements(text: &str) -> Vec<(String, usize)> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let source = toml_parser::Source::new(body);
    let tokens = source.lex().into_vec();
    let mut events: Vec<Event> = Vec::new();
    let mut errors: Vec<toml_parser::ParseError> = Vec::new();
    toml_parser::parser::parse_document(&tokens, &mut events, &mut errors);
    assert!(errors.is_empty(), "a valid text parses: {errors:?}");
    let mut values = 0;
    let mut out = Vec::new();
    for e in events {
        match e.kind() {
            EventKind::Scalar => values += 1,
            EventKind::Comment => out.push((body[e.span().start()..e.span().end()].trim_end().to_string(), values)),
            _ => {}
        }
    }
    out.sort();
    out
}

/// The places in `text` where a comment can be inserted between two tokens: the start of every
/// token that does not follow whitespace (after whitespace is the same place as before it), and
/// the end of the text.
fn boundaries(text: &str) -> Vec<usize> {
    let source = toml_parser::Source::new(text);
    let mut out = Vec::new();
    let mut after_space = false;
    for t in source.lex().into_vec() {
        if !after_space {
            out.push(t.span().start());
        }
        after_space = t.kind() == TokenKind::Whitespace;
    }
    out.push(text.len());
    out.dedup();
    out
}

/// `text` with the comment `#c{n}` inserted at `at`: after a space, and followed by a line break
/// unless one (or the end of the text) already follows, so that the comment ends where it starts.
fn insert(text: &str, at: usize, n: usize) -> String {
    let rest = &text[at..];
    let nl = if rest.is_empty() || rest.starts_with('\n') || rest.starts_with("\r\n") { "" } else { "\n" };
    let space = if at == 0 { "" } else { " " };
    format!("{}{space}#c{n}{nl}{rest}", &text[..at])
}

/// `text` with comments inserted at `first` and at `second` (`first < second`).
fn insert_two(text: &str, first: usize, second: usize) -> String {
    insert(&insert(text, second, 2), first, 1)
}

/// Every valid, UTF-8 TOML file below `dir`, without its byte-order mark.
fn valid_files(dir: &Path) -> Vec<(PathBuf, String)> {
    toml_files(dir)
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text).to_string();
            read(&text).is_ok().then_some((p, text))
        })
        .collect()
}

#[test]
fn every_toml_file_of_the_repository_keeps_its_comments() {
    let root = repo_root();
    let mut tally = Tally::default();
    for (path, text) in valid_files(&root) {
        let label = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
        for options in layouts(FileKind::of_path(&path)) {
            tally.compare(&label, &text, &options, false);
        }
    }
    tally.assert_compared("the repository's files", 300, 1000);
}

/// The suite's `tests` folder, or `None` after a SKIPPED line (a failure in CI).
#[track_caller]
fn suite() -> Option<PathBuf> {
    rustkeep_testutil::shared_folder("toml-test").map(|dir| dir.join("tests"))
}

/// The suite's valid files of its TOML 1.1 list (which `rustkeep` reads).
fn suite_files(root: &Path) -> Vec<(String, String)> {
    let list = std::fs::read_to_string(root.join("files-toml-1.1.0")).expect("the file list");
    list.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("valid/") && l.ends_with(".toml"))
        .map(|f| (f.to_string(), String::from_utf8(std::fs::read(root.join(f)).expect("a suite file")).expect("valid files are UTF-8")))
        .collect()
}

#[test]
fn every_valid_file_of_the_toml_suite_keeps_its_comments() {
    let Some(root) = suite() else {
        return;
    };
    let files = suite_files(&root);
    assert_eq!(files.len(), 220, "the TOML 1.1 list of valid files");
    let mut tally = Tally::default();
    for (f, text) in &files {
        for options in layouts(FileKind::Plain) {
            tally.compare(f, text, &options, false);
        }
    }
    assert_eq!(tally.invalid, 0, "every valid file of the suite reads");
    tally.assert_compared("the toml-test suite", 660, 600);
}

/// The sections of a valid text: the lines before the first table header, then each header with
/// the lines up to the next one. A header is a `[` that starts a line outside every bracket (not
/// one inside a multi-line string or an array). Each section of a valid file is a valid text of its
/// own.
fn sections(text: &str) -> Vec<&str> {
    let source = toml_parser::Source::new(text);
    let mut starts = vec![0];
    let mut depth = 0usize;
    let mut line_start = true;
    for t in source.lex().into_vec() {
        match t.kind() {
            TokenKind::LeftSquareBracket | TokenKind::LeftCurlyBracket => {
                if depth == 0 && line_start && t.span().start() > 0 {
                    starts.push(t.span().start());
                }
                depth += 1;
            }
            TokenKind::RightSquareBracket | TokenKind::RightCurlyBracket => depth = depth.saturating_sub(1),
            _ => {}
        }
        line_start = match t.kind() {
            TokenKind::Newline => true,
            TokenKind::Whitespace => line_start,
            _ => false,
        };
    }
    starts.push(text.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).filter(|s| !s.trim().is_empty()).collect()
}

/// One comment at every token boundary of every section of the core's and the examples' files,
/// and two around every comma (one before it, one after it): every mutant that is valid TOML keeps
/// all its comments. The layouts take turns, to keep the run short; every pair of boundaries is
/// tried on the small shapes below.
#[test]
fn comments_inserted_at_every_token_boundary_of_the_repository_files_are_kept() {
    let root = repo_root();
    let mut files = valid_files(&root.join("crates/rustkeep-data/core"));
    files.extend(valid_files(&root.join("examples")));
    assert!(files.len() > 30, "{} files", files.len());
    let mut tally = Tally::default();
    let mut n = 0usize;
    for (path, text) in &files {
        let label = path.strip_prefix(&root).unwrap_or(path).display().to_string();
        let layouts = layouts(FileKind::of_path(path));
        for section in sections(text) {
            assert!(read(section).is_ok(), "{label}: a section is valid on its own:\n{section}");
            let at = boundaries(section);
            for (i, &b) in at.iter().enumerate() {
                n += 1;
                tally.compare(&format!("{label}, boundary {b} of a section"), &insert(section, b, 1), &layouts[n % 3], false);
                if let Some(&next) = at.get(i + 1).filter(|_| section[b..].starts_with(',')) {
                    tally.compare(&format!("{label}, boundaries {b} and {next} of a section"), &insert_two(section, b, next), &layouts[n % 3], false);
                }
            }
        }
    }
    tally.assert_compared("mutants of the repository's files", 12_000, 30_000);
}

/// One comment at every token boundary of every valid file of the TOML suite, and two at every pair
/// of neighbouring boundaries: the suite's odd corners (arrays of arrays, inline tables across
/// lines, comments in odd places, keys with dots and quotes) keep every comment too, and every
/// result formats to itself.
#[test]
fn comments_inserted_at_every_token_boundary_of_the_toml_suite_are_kept() {
    let Some(root) = suite() else {
        return;
    };
    let mut tally = Tally::default();
    let mut n = 0usize;
    let layouts = layouts(FileKind::Plain);
    for (f, text) in suite_files(&root) {
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let at = boundaries(text);
        for (i, &b) in at.iter().enumerate() {
            n += 1;
            tally.compare(&format!("{f}, boundary {b}"), &insert(text, b, 1), &layouts[n % 3], true);
            if let Some(&next) = at.get(i + 1) {
                tally.compare(&format!("{f}, boundaries {b} and {next}"), &insert_two(text, b, next), &layouts[n % 3], true);
            }
        }
    }
    tally.assert_compared("mutants of the toml-test suite", 5_000, 20_000);
}

/// Small shapes of arrays, inline tables, tables and arrays of tables, each with comments already
/// in it or none: the places where comments hide.
const SHAPES: &[&str] = &[
    "a = [\"x\", \"y\"]\n",
    "a = [\"x\", \"y\",]\n",
    "a = [\n  \"x\" # A\n  , # B\n  \"y\",\n]\n",
    "a = [[1, 2], [3]]\n",
    "a = [[1, [2]], []]\n",
    "a = [ { b = 1, c = [2, 3] }, { d = \"e\" } ]\n",
    "t = { a = 1, b = { c = 2 } }\n",
    "t = { a.b = 1, c = [] }\n",
    "a = []\nt = {}\n",
    "[t]\na = 1\nb = [1]\n",
    "[[items]]\nid = \"m:a\"\ntags = [\"x\", \"y\"]\n\n[[items.triggers]]\non = \"attack_hit\"\nactions = [{ action = \"heal\", amount = 1 }]\n",
    "t = {\n  a = 1, # A\n  b = [\n    2,\n  ],\n}\n",
    "a = [\n  [1, # x\n    2],\n  [3]\n]\n",
    "[[a]] # h\n# k\nb.c = 1 # v\n\n[a.d]\ne = 'f'\n",
    "a = [\r\n  \"x\" # A\r\n  , # B\r\n  \"y\",\r\n]\r\n",
    "a = 1\n[t] # h\nb = 2",
];

/// A comment at every token boundary, and comments at every pair of token boundaries, of each of
/// [`SHAPES`], in every layout: every valid mutant keeps all its comments and formats to itself.
#[test]
fn comments_inserted_at_any_two_token_boundaries_of_small_shapes_are_kept() {
    let mut tally = Tally::default();
    for (s, shape) in SHAPES.iter().enumerate() {
        assert!(read(shape).is_ok(), "shape {s} is valid TOML");
        let at = boundaries(shape);
        for options in layouts(FileKind::Data) {
            let label = |what: String| format!("shape {s}, {what}, width {} TOML {:?}", options.line_width, options.toml_version);
            for (i, &b) in at.iter().enumerate() {
                tally.compare(&label(format!("boundary {b}")), &insert(shape, b, 1), &options, true);
                for &c in &at[i + 1..] {
                    tally.compare(&label(format!("boundaries {b} and {c}")), &insert_two(shape, b, c), &options, true);
                }
            }
        }
    }
    tally.assert_compared("mutants of small shapes", 5_000, 12_000);
}

/// The helpers above insert where they say: a comment that ends its line, before a separating
/// comma too.
#[test]
fn mutants_put_comments_between_tokens() {
    let text = "a = [\"x\", \"y\"]\n";
    let at = boundaries(text);
    assert_eq!(at, vec![0, 1, 3, 5, 8, 9, 13, 14, 15]);
    assert_eq!(insert(text, 8, 1), "a = [\"x\" #c1\n, \"y\"]\n");
    assert_eq!(insert(text, 14, 1), "a = [\"x\", \"y\"] #c1\n");
    assert_eq!(insert(text, 0, 1), "#c1\na = [\"x\", \"y\"]\n");
    assert_eq!(insert_two(text, 8, 9), "a = [\"x\" #c1\n, #c2\n \"y\"]\n");
    assert_eq!(comment_lines(&insert_two(text, 8, 9)), vec![1, 2]);
    assert_eq!(placements("a = [\"x\", # A\n  # B\n  \"y\"] # C\n"), vec![("# A".into(), 1), ("# B".into(), 1), ("# C".into(), 2)]);
    assert_eq!(sections("a = 1\n[t]\nb = '''\n[x]\n'''\n[[u]]\nc = [\n[1],\n]\n"), vec!["a = 1\n", "[t]\nb = '''\n[x]\n'''\n", "[[u]]\nc = [\n[1],\n]\n"]);
}
