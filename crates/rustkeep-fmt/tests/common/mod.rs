//! Shared checks of the formatter's tests: the repository's paths, an independent reader of TOML
//! values (`rustkeep_testutil::toml_value` on `toml_edit`, not the `toml` reader the formatter
//! checks itself with), and the invariants every formatted text must meet.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use rustkeep_fmt::{format_document, toml_1_1_use, FormatOptions, Toml11Syntax, TomlVersion};
use toml_parser::lexer::TokenKind;

pub fn repo_root() -> PathBuf {
    rustkeep_testutil::repo_root().to_path_buf()
}

pub use rustkeep_testutil::toml_value::read;

/// Column width as the formatter counts it.
pub fn cols(s: &str) -> usize {
    s.chars().count()
}

/// Byte ranges of the multi-line strings of a valid TOML text: inside them nothing is the
/// formatter's to change.
pub fn multiline_strings(text: &str) -> Vec<std::ops::Range<usize>> {
    let source = toml_parser::Source::new(text);
    source
        .lex()
        .into_vec()
        .into_iter()
        .filter(|t| matches!(t.kind(), TokenKind::MlBasicString | TokenKind::MlLiteralString))
        .map(|t| t.span().start()..t.span().end())
        .collect()
}

/// Checks the line rules on a formatted text: no trailing whitespace, and no line longer than
/// `width` unless it holds no container that could have been opened (a single long string, a
/// long key, a comment, a header). With TOML 1.0 an inline table and what is inside it cannot be
/// opened.
pub fn check_lines(label: &str, out: &str, width: usize, version: TomlVersion) {
    let body = out.strip_prefix('\u{feff}').unwrap_or(out);
    let ml = multiline_strings(body);
    let source = toml_parser::Source::new(body);
    let tokens = source.lex().into_vec();
    let mut line_start = 0;
    for line in body.split_inclusive('\n') {
        let end = line_start + line.len();
        let content = line.trim_end_matches('\n').trim_end_matches('\r');
        let inside_ml = |at: usize| ml.iter().any(|r| r.start < at && at < r.end);
        if content != content.trim_end() && !inside_ml(line_start + content.len()) {
            panic!("{label}: trailing whitespace on line {content:?}\n---\n{out}");
        }
        // Trailing comments do not count: they cannot move.
        let comment_at =
            tokens.iter().find(|t| t.kind() == TokenKind::Comment && t.span().start() >= line_start && t.span().start() < end).map(|t| t.span().start());
        let code = comment_at.map_or(content, |c| body[line_start..c].trim_end());
        if cols(code) > width && !inside_ml(line_start) && !content.starts_with('[') {
            // Tokens on this line, without whitespace and comments.
            let on_line: Vec<TokenKind> = tokens
                .iter()
                .filter(|t| t.span().start() >= line_start && t.span().start() < end)
                .map(|t| t.kind())
                .filter(|k| !matches!(k, TokenKind::Whitespace | TokenKind::Comment | TokenKind::Newline))
                .collect();
            // After an opening bracket only its closing bracket may follow (an empty `[]` / `{}`):
            // anything else is a container the formatter should have opened.
            let mut open = false;
            // Whether each enclosing bracket on the line could be opened.
            let mut openable: Vec<bool> = Vec::new();
            for k in &on_line {
                match k {
                    TokenKind::LeftSquareBracket | TokenKind::LeftCurlyBracket => {
                        let fixed = version == TomlVersion::V1_0 && (*k == TokenKind::LeftCurlyBracket || openable.contains(&false));
                        openable.push(!fixed);
                        open = !fixed;
                    }
                    TokenKind::RightSquareBracket | TokenKind::RightCurlyBracket => {
                        openable.pop();
                        open = false;
                    }
                    _ if open => panic!("{label}: line over {width} columns with a container that could be opened: {content:?}\n---\n{out}"),
                    _ => {}
                }
            }
        }
        line_start = end;
    }
}

/// Formats `input` and checks every invariant: same value (read independently), idempotent, the
/// line rules, the final newline, the line ending kept. Returns the formatted text.
pub fn check_invariants(label: &str, input: &str, options: &FormatOptions) -> String {
    let out = format_document(input, options).unwrap_or_else(|e| panic!("{label}: not formatted: {e:?}"));
    let before = read(input).unwrap_or_else(|e| panic!("{label}: the input does not read: {e}"));
    let after = read(&out).unwrap_or_else(|e| panic!("{label}: the output does not read: {e}\n---\n{out}"));
    assert!(before == after, "{label}: the value changed\n--- input\n{input}\n--- output\n{out}");
    let again = format_document(&out, options).unwrap_or_else(|e| panic!("{label}: the output does not format: {e:?}"));
    assert!(again == out, "{label}: not idempotent\n{}", rustkeep_fmt::diff::unified(label, &out, &again));
    check_lines(label, &out, options.line_width, options.toml_version);
    if options.toml_version == TomlVersion::V1_0 {
        check_toml_1_0(label, input, &out);
    }
    let body = out.strip_prefix('\u{feff}').unwrap_or(&out);
    assert!(body.is_empty() || (body.ends_with('\n') && !body.ends_with("\n\n") && !body.ends_with("\n\r\n")), "{label}: not one final newline: {out:?}");
    assert_eq!(input.starts_with('\u{feff}'), out.starts_with('\u{feff}'), "{label}: the byte-order mark");
    let in_body = input.strip_prefix('\u{feff}').unwrap_or(input);
    if let Some(i) = in_body.find('\n') {
        let crlf = i > 0 && in_body.as_bytes()[i - 1] == b'\r';
        if let Some(j) = body.find('\n') {
            assert_eq!(crlf, j > 0 && body.as_bytes()[j - 1] == b'\r', "{label}: the line ending of the first line");
        }
    }
    out
}

/// TOML 1.0 output adds no TOML 1.1 syntax: none when the input had none, and never a comma after
/// the last key of an inline table, nor an inline table across lines that holds no comment.
pub fn check_toml_1_0(label: &str, input: &str, out: &str) {
    let found = toml_1_1_use(out);
    if toml_1_1_use(input).is_none() {
        assert_eq!(found, None, "{label}: TOML 1.0 in, TOML 1.1 out\n---\n{out}");
    }
    assert!(found.is_none_or(|u| u.syntax != Toml11Syntax::TrailingCommaInInlineTable), "{label}: a trailing comma in an inline table\n---\n{out}");
    // Every inline table of the output that spans lines holds a comment of its own.
    let body = out.strip_prefix('\u{feff}').unwrap_or(out);
    let source = toml_parser::Source::new(body);
    // For each open bracket: is it an inline table, did it span lines, did it hold a comment.
    let mut stack: Vec<(bool, bool, bool)> = Vec::new();
    for t in source.lex().into_vec() {
        match t.kind() {
            TokenKind::LeftCurlyBracket => stack.push((true, false, false)),
            TokenKind::LeftSquareBracket if !stack.is_empty() => stack.push((false, false, false)),
            TokenKind::RightSquareBracket if stack.last().is_some_and(|s| !s.0) => {
                stack.pop();
            }
            TokenKind::RightCurlyBracket => {
                if let Some((_, lines, comment)) = stack.pop() {
                    assert!(!lines || comment, "{label}: an inline table across lines without a comment\n---\n{out}");
                }
            }
            TokenKind::Newline => {
                if let Some(s) = stack.last_mut().filter(|s| s.0) {
                    s.1 = true;
                }
            }
            TokenKind::Comment => {
                if let Some(s) = stack.last_mut().filter(|s| s.0) {
                    s.2 = true;
                }
            }
            _ => {}
        }
    }
}

/// Every `*.toml` below `dir`, skipping build output and hidden folders.
pub fn toml_files(dir: &Path) -> Vec<PathBuf> {
    // In a hidden folder: a component of the path below `dir` but its file name starts with `.`.
    let hidden =
        |p: &Path| p.strip_prefix(dir).is_ok_and(|rel| rel.parent().is_some_and(|d| d.components().any(|c| c.as_os_str().to_string_lossy().starts_with('.'))));
    rustkeep_testutil::files_below(dir, "toml").into_iter().filter(|p| !hidden(p)).collect()
}

/// The comments of a valid TOML text (a leading byte-order mark skipped) as a sorted list of their
/// texts without trailing whitespace (the only change the formatter makes to a comment): equal
/// lists mean the same comments, each as often. Found by `toml_parser`'s lexer, not by the
/// formatter.
pub fn comment_multiset(text: &str) -> Vec<String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let source = toml_parser::Source::new(text);
    let mut out: Vec<String> = source
        .lex()
        .into_vec()
        .into_iter()
        .filter(|t| t.kind() == TokenKind::Comment)
        .map(|t| text[t.span().start()..t.span().end()].trim_end().to_string())
        .collect();
    out.sort();
    out
}
