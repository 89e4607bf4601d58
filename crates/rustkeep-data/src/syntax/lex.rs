//! The lexical pieces of TOML that the single-pass scanner ([`super::scan`]) reads for every
//! reader of the crate — the data files' document builder and the event stream of the formatter
//! and the language server: bare-key bytes, strings of the four kinds and decimal numbers. Each
//! is strict in the same way: `None` for anything it does not know for certain the `toml` reader
//! accepts with this meaning, so that the caller gives up and lets that reader decide.

use std::borrow::Cow;

/// A byte of a bare key.
pub fn is_bare(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

/// A byte no string or comment may hold as it is: a control character other than tab, or DEL.
pub fn is_control(c: u8) -> bool {
    (c < 0x20 && c != b'\t') || c == 0x7f
}

/// What a [`Cursor`] reads between tokens, for readers that keep it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// A comment, from its `#` to the end of its line (not the line break).
    Comment,
    /// A line break: `\n` or `\r\n`.
    Newline,
}

/// A position in a TOML text, as both single-pass readers walk it: the layout between tokens
/// (spaces and tabs, comments, line breaks) is read the same way by both; what a reader keeps of
/// it is its own ([`Cursor::layout`]).
pub trait Cursor {
    fn bytes(&self) -> &[u8];
    fn pos(&self) -> usize;
    fn set_pos(&mut self, pos: usize);

    /// Called with each comment and line break read, from `start` to the current position.
    fn layout(&mut self, _what: Layout, _start: usize) {}

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.pos()).copied()
    }

    fn at(&self, s: &[u8]) -> bool {
        self.bytes()[self.pos()..].starts_with(s)
    }

    /// Spaces and tabs.
    fn ws(&mut self) {
        let mut at = self.pos();
        while matches!(self.bytes().get(at), Some(b' ' | b'\t')) {
            at += 1;
        }
        self.set_pos(at);
    }

    /// A comment from its `#` up to (not including) the end of its line.
    fn comment(&mut self) -> Option<()> {
        let start = self.pos();
        let b = self.bytes();
        let mut at = start + 1;
        while let Some(&c) = b.get(at) {
            match c {
                b'\n' => break,
                b'\r' if b.get(at + 1) == Some(&b'\n') => break,
                c if is_control(c) => return None,
                _ => at += 1,
            }
        }
        self.set_pos(at);
        self.layout(Layout::Comment, start);
        Some(())
    }

    /// A line break, if there is one here.
    fn newline(&mut self) -> bool {
        let start = self.pos();
        let len = match self.peek() {
            Some(b'\n') => 1,
            Some(b'\r') if self.bytes().get(start + 1) == Some(&b'\n') => 2,
            _ => return false,
        };
        self.set_pos(start + len);
        self.layout(Layout::Newline, start);
        true
    }

    /// The rest of a line after a key-value pair or a header.
    fn line_end(&mut self) -> Option<()> {
        self.ws();
        if self.peek() == Some(b'#') {
            self.comment()?;
        }
        (self.pos() == self.bytes().len() || self.newline()).then_some(())
    }

    /// Whitespace, comments and line breaks, as arrays and inline tables allow them.
    fn gap(&mut self) -> Option<()> {
        loop {
            self.ws();
            match self.peek() {
                Some(b'#') => self.comment()?,
                Some(b'\n' | b'\r') => {
                    if !self.newline() {
                        return None;
                    }
                }
                _ => return Some(()),
            }
        }
    }
}

/// A number's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

/// Where a token that starts like a number (at `pos`) ends: letters, digits and `_ + - . :` — a
/// date or a time included, which [`number`] then refuses.
pub fn token_end(b: &[u8], mut pos: usize) -> usize {
    while b.get(pos).is_some_and(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'-' | b'.' | b':')) {
        pos += 1;
    }
    pos
}

/// A decimal integer that fits in 64 bits, or a decimal float, as written in `tok`; `None` for
/// anything else (dates, times, other radixes, `inf`, `nan`, misplaced underscores or zeros).
pub fn number(tok: &str) -> Option<Number> {
    let b = tok.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let int_start = i;
    if !digits(b, &mut i) || (b[int_start] == b'0' && i - int_start > 1) {
        return None;
    }
    let mut float = false;
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(b, &mut i) {
            return None;
        }
        float = true;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(b, &mut i) {
            return None;
        }
        float = true;
    }
    if i != b.len() {
        return None;
    }
    let clean: Cow<'_, str> = if tok.contains('_') { Cow::Owned(tok.replace('_', "")) } else { Cow::Borrowed(tok) };
    if float {
        clean.parse::<f64>().ok().map(Number::Float)
    } else {
        clean.parse::<i64>().ok().map(Number::Int)
    }
}

/// `[0-9]` then more digits, each pair of them possibly joined by one `_`.
fn digits(b: &[u8], i: &mut usize) -> bool {
    if !b.get(*i).is_some_and(u8::is_ascii_digit) {
        return false;
    }
    *i += 1;
    loop {
        match b.get(*i) {
            Some(b'_') if b.get(*i + 1).is_some_and(u8::is_ascii_digit) => *i += 2,
            Some(b'_') => return false,
            Some(c) if c.is_ascii_digit() => *i += 1,
            _ => return true,
        }
    }
}

/// A `"…"` string from its opening quote at `pos`: its value (borrowed unless it holds escapes)
/// and where it ends.
pub fn basic_string(text: &str, pos: usize) -> Option<(Cow<'_, str>, usize)> {
    let b = text.as_bytes();
    let start = pos + 1;
    let stop = |c: u8| c == b'"' || c == b'\\';
    let mut at = plain_run_end(b, start, stop)?;
    match b[at] {
        b'"' => return Some((Cow::Borrowed(&text[start..at]), at + 1)),
        b'\\' => {}
        _ => return None,
    }
    // Escapes: the value is built.
    let mut out = String::from(&text[start..at]);
    loop {
        match b[at] {
            b'"' => return Some((Cow::Owned(out), at + 1)),
            b'\\' => at = escape(text, at, &mut out)?,
            _ => return None,
        }
        let run = at;
        at = plain_run_end(b, run, stop)?;
        out.push_str(&text[run..at]);
    }
}

/// Where the run of plain characters of a one-line string that starts at `at` ends: at the first
/// byte that `stop`s it (its closing quote, and a backslash in a basic string) or control
/// character; `None` when the text ends first. Inlined with its `stop` for each kind of string:
/// every string of a pack is read through it.
#[inline(always)]
fn plain_run_end(b: &[u8], mut at: usize, stop: impl Fn(u8) -> bool) -> Option<usize> {
    loop {
        let c = *b.get(at)?;
        if stop(c) || is_control(c) {
            return Some(at);
        }
        at += 1;
    }
}

/// One escape, from its backslash at `pos`, onto `out`: where it ends.
fn escape(text: &str, pos: usize, out: &mut String) -> Option<usize> {
    let c = *text.as_bytes().get(pos + 1)?;
    let at = pos + 2;
    match c {
        b'b' => out.push('\u{8}'),
        b't' => out.push('\t'),
        b'n' => out.push('\n'),
        b'f' => out.push('\u{c}'),
        b'r' => out.push('\r'),
        b'"' => out.push('"'),
        b'\\' => out.push('\\'),
        b'u' | b'U' => {
            let n = if c == b'u' { 4 } else { 8 };
            let hex = text.get(at..at + n)?;
            if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                return None;
            }
            out.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
            return Some(at + n);
        }
        _ => return None,
    }
    Some(at)
}

/// A `'…'` string from its opening quote at `pos`: its value and where it ends.
pub fn literal_string(text: &str, pos: usize) -> Option<(Cow<'_, str>, usize)> {
    let b = text.as_bytes();
    let start = pos + 1;
    let end = plain_run_end(b, start, |c| c == b'\'')?;
    (b[end] == b'\'').then(|| (Cow::Borrowed(&text[start..end]), end + 1))
}

/// A `"""…"""` or `'''…'''` string (`quote` says which) from its opening quotes at `pos`: its
/// value (the line break right after the opening quotes left out, line-ending backslashes
/// applied) and where it ends. A carriage return anywhere inside is given up on.
pub fn multiline_string(text: &str, pos: usize, quote: u8) -> Option<(Cow<'_, str>, usize)> {
    let b = text.as_bytes();
    let mut at = pos + 3;
    if b.get(at) == Some(&b'\n') {
        at += 1;
    }
    let mut segment = at;
    let mut out: Option<String> = None;
    loop {
        match *b.get(at)? {
            c if c == quote => {
                let run = b[at..].iter().take_while(|&&q| q == quote).count();
                if run < 3 {
                    at += run;
                    continue;
                }
                if run > 5 {
                    return None;
                }
                let last = &text[segment..at + run - 3];
                let value = match out {
                    None => Cow::Borrowed(last),
                    Some(mut s) => {
                        s.push_str(last);
                        Cow::Owned(s)
                    }
                };
                return Some((value, at + run));
            }
            b'\\' if quote == b'"' => {
                let s = out.get_or_insert_with(String::new);
                s.push_str(&text[segment..at]);
                let mut j = at + 1;
                while matches!(b.get(j), Some(b' ' | b'\t')) {
                    j += 1;
                }
                if b.get(j) == Some(&b'\n') {
                    // A line-ending backslash: the break and the blanks after it go.
                    while matches!(b.get(j), Some(b' ' | b'\t' | b'\n')) {
                        j += 1;
                    }
                    at = j;
                } else {
                    at = escape(text, at, s)?;
                }
                segment = at;
            }
            b'\n' => at += 1,
            c if is_control(c) => return None,
            _ => at += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_decimal_and_strict() {
        assert_eq!(number("1_000"), Some(Number::Int(1000)));
        assert_eq!(number("-0.5e+3"), Some(Number::Float(-500.0)));
        assert_eq!(number("+0"), Some(Number::Int(0)));
        for bad in ["01", "1__0", "1_", "1.", ".5", "1e", "0x10", "inf", "1979-05-27", "9223372036854775808", "12:30:00"] {
            assert_eq!(number(bad), None, "{bad}");
        }
    }

    #[test]
    fn strings_decode_or_borrow() {
        assert_eq!(basic_string(r#""a\tb" x"#, 0), Some((Cow::Owned("a\tb".to_string()), 6)));
        assert!(matches!(basic_string(r#""plain""#, 0), Some((Cow::Borrowed("plain"), 7))));
        assert_eq!(basic_string(r#""\e""#, 0), None);
        assert_eq!(literal_string("'a\\b'", 0), Some((Cow::Borrowed("a\\b"), 5)));
        assert_eq!(multiline_string("\"\"\"\nx \\\n   y\"\"\"\"", 0, b'"'), Some((Cow::Owned("x y\"".to_string()), 16)));
        assert_eq!(multiline_string("'''a\r\nb'''", 0, b'\''), None);
    }
}
