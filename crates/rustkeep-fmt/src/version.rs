//! The syntax TOML 1.1 added, which TOML 1.0 readers (Taplo and Even Better TOML, Python's
//! `tomllib`) refuse: inline tables across lines, with comments or with a comma after their last
//! key, the escapes `\e` and `\xHH`, and times without seconds. The formatter finds the first such
//! place of a file while it builds the syntax tree ([`crate::cst`]), so that `rustkeep fmt` can say
//! that a file needs a TOML 1.1 reader at no extra cost for the files that do not.

/// One kind of TOML 1.1-only syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Toml11Syntax {
    /// A line break between the braces of an inline table (outside the values in it).
    InlineTableAcrossLines,
    /// A comment between the braces of an inline table (outside the arrays in it).
    CommentInInlineTable,
    /// A comma after the last key-value pair of an inline table.
    TrailingCommaInInlineTable,
    /// The escape `\e` in a basic string or quoted key.
    EscapeE,
    /// An escape `\xHH` in a basic string or quoted key.
    EscapeX,
    /// A time (or date-time) without seconds, such as `07:32`.
    TimeWithoutSeconds,
}

impl Toml11Syntax {
    /// What the syntax is, for messages ("needs a TOML 1.1 reader: …").
    pub fn describe(self) -> &'static str {
        match self {
            Toml11Syntax::InlineTableAcrossLines => "an inline table across several lines",
            Toml11Syntax::CommentInInlineTable => "a comment inside an inline table",
            Toml11Syntax::TrailingCommaInInlineTable => "a comma after the last key of an inline table",
            Toml11Syntax::EscapeE => "the escape `\\e`",
            Toml11Syntax::EscapeX => "an escape `\\xHH`",
            Toml11Syntax::TimeWithoutSeconds => "a time without seconds",
        }
    }
}

/// Where a text first uses TOML 1.1-only syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Toml11Use {
    /// Byte offset in the text given to the formatter (after a byte-order mark, if any).
    pub offset: usize,
    pub syntax: Toml11Syntax,
}

/// The TOML 1.1 escape in a raw basic string or quoted key (`"…"` or `"""…"""`), with its offset
/// in `raw`. Literal strings (`'…'`) have no escapes.
pub fn escape_in(raw: &str) -> Option<(usize, Toml11Syntax)> {
    if !raw.starts_with('"') || !raw.contains('\\') {
        return None;
    }
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            match b.get(i + 1) {
                Some(b'e') => return Some((i, Toml11Syntax::EscapeE)),
                Some(b'x') => return Some((i, Toml11Syntax::EscapeX)),
                // Any other escape (`\\` included) is two bytes; a line-ending backslash is followed
                // by whitespace, which is never `e` or `x`.
                _ => i += 2,
            }
        } else {
            i += 1;
        }
    }
    None
}

/// Whether a raw scalar is a time or date-time without seconds (`07:32`, `1979-05-27T07:32Z`).
pub fn time_without_seconds(raw: &str) -> bool {
    let b = raw.as_bytes();
    let digits = |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    let time = if digits(0..2) && b.get(2) == Some(&b':') {
        0
    } else if digits(0..4) && b.get(4) == Some(&b'-') && matches!(b.get(10), Some(b'T' | b't' | b' ')) {
        11
    } else {
        return false;
    };
    digits(time..time + 2) && b.get(time + 2) == Some(&b':') && digits(time + 3..time + 5) && b.get(time + 5) != Some(&b':')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_of_toml_1_1_are_found_and_others_are_not() {
        assert_eq!(escape_in(r#""a\eb""#), Some((2, Toml11Syntax::EscapeE)));
        assert_eq!(escape_in(r#""\x41""#), Some((1, Toml11Syntax::EscapeX)));
        assert_eq!(escape_in(r#""""a\e""""#), Some((4, Toml11Syntax::EscapeE)));
        for raw in [r#""a\\e""#, r#""\u0041\n\t""#, r"'\e'", r"'''\x41'''", "\"a \\\n  e\"", r#""plain""#, "bare_key"] {
            assert_eq!(escape_in(raw), None, "{raw}");
        }
    }

    #[test]
    fn times_without_seconds_are_found_and_others_are_not() {
        for raw in ["07:32", "1979-05-27T07:32", "1979-05-27 07:32Z", "1979-05-27t07:32-07:00"] {
            assert!(time_without_seconds(raw), "{raw}");
        }
        for raw in ["07:32:00", "1979-05-27T07:32:00Z", "1979-05-27 07:32:00.999-07:00", "1979-05-27", "1_000", "0x1F", "\"07:32\"", "1e10", "12"] {
            assert!(!time_without_seconds(raw), "{raw}");
        }
    }
}
