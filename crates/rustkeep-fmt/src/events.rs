//! A single-pass scanner that produces, for the shapes mod data is written in, the event stream
//! `toml_parser` produces (every token, comment and line break, with its span and string
//! encoding; only the runs of spaces and tabs are left out, which [`crate::cst`] skips anyway),
//! without the lexer's token list and the event parser in between.
//!
//! It gives up (`None`) on anything it does not know for certain `toml_parser` reads without an
//! error and in exactly this way: a syntax error, a date or time, `inf` and `nan`, a number that
//! is not a decimal integer or float, a string escape other than `\b \t \n \f \r \" \\ \u \U`, a
//! control character or carriage return where it does not belong, a carriage return inside a
//! multi-line string, nesting deeper than [`MAX_DEPTH`]. [`crate::cst::parse`] then takes the
//! events from `toml_parser`. A test holds the two streams equal wherever the scanner answers, on
//! the official TOML suite, every file of the repository and mutations of them.
//!
//! Only the syntax is checked here; the table rules are [`crate::validate`]'s, as before.

use toml_parser::decoder::Encoding;
use toml_parser::parser::{Event, EventKind};
use toml_parser::Span;

/// Arrays and inline tables nested deeper than this are left to `toml_parser` (the formatter's
/// own limit is [`crate::cst::MAX_DEPTH`]).
pub const MAX_DEPTH: u32 = 64;

/// The events of `text` (without a byte-order mark) but whitespace, or `None` where the scanner
/// gives up.
#[cfg(test)]
pub fn scan(text: &str) -> Option<Vec<Event>> {
    let mut out = Vec::new();
    scan_into(text, &mut out).then_some(out)
}

/// [`scan`] into `out` (cleared first, so that one buffer serves file after file): whether the
/// scanner answered.
pub fn scan_into(text: &str, out: &mut Vec<Event>) -> bool {
    out.clear();
    if text.len() >= u32::MAX as usize || text.starts_with('\u{feff}') {
        return false;
    }
    let mut s = Scanner { text, b: text.as_bytes(), pos: 0, depth: 0, out };
    s.document().is_some()
}

struct Scanner<'i, 'o> {
    text: &'i str,
    b: &'i [u8],
    pos: usize,
    depth: u32,
    out: &'o mut Vec<Event>,
}

fn is_bare(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}

fn is_control(c: u8) -> bool {
    (c < 0x20 && c != b'\t') || c == 0x7f
}

impl Scanner<'_, '_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn at(&self, s: &[u8]) -> bool {
        self.b[self.pos..].starts_with(s)
    }

    fn emit(&mut self, kind: EventKind, encoding: Option<Encoding>, start: usize) {
        self.out.push(Event::new_unchecked(kind, encoding, Span::new_unchecked(start, self.pos)));
    }

    /// One byte as an event of its own.
    fn punct(&mut self, kind: EventKind, len: usize) {
        let start = self.pos;
        self.pos += len;
        self.emit(kind, None, start);
    }

    /// Spaces and tabs, which get no event: the syntax tree skips them.
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    fn comment(&mut self) -> Option<()> {
        let start = self.pos;
        self.pos += 1;
        while let Some(c) = self.peek() {
            match c {
                b'\n' => break,
                b'\r' if self.b.get(self.pos + 1) == Some(&b'\n') => break,
                c if is_control(c) => return None,
                _ => self.pos += 1,
            }
        }
        self.emit(EventKind::Comment, None, start);
        Some(())
    }

    fn newline(&mut self) -> bool {
        let start = self.pos;
        match self.peek() {
            Some(b'\n') => self.pos += 1,
            Some(b'\r') if self.b.get(self.pos + 1) == Some(&b'\n') => self.pos += 2,
            _ => return false,
        }
        self.emit(EventKind::Newline, None, start);
        true
    }

    fn line_end(&mut self) -> Option<()> {
        self.ws();
        if self.peek() == Some(b'#') {
            self.comment()?;
        }
        (self.pos == self.b.len() || self.newline()).then_some(())
    }

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

    fn document(&mut self) -> Option<()> {
        loop {
            self.ws();
            match self.peek() {
                None => return Some(()),
                Some(b'\n' | b'\r') => {
                    if !self.newline() {
                        return None;
                    }
                }
                Some(b'#') => self.comment()?,
                Some(b'[') => {
                    let array = self.at(b"[[");
                    let (open, close): (_, &[u8]) = if array { (EventKind::ArrayTableOpen, b"]]") } else { (EventKind::StdTableOpen, b"]") };
                    self.punct(open, close.len());
                    self.ws();
                    self.key()?;
                    self.ws();
                    if !self.at(close) {
                        return None;
                    }
                    self.punct(if array { EventKind::ArrayTableClose } else { EventKind::StdTableClose }, close.len());
                    self.line_end()?;
                }
                Some(_) => {
                    self.pair()?;
                    self.line_end()?;
                }
            }
        }
    }

    fn key(&mut self) -> Option<()> {
        self.key_part()?;
        loop {
            let before = (self.pos, self.out.len());
            self.ws();
            if self.peek() != Some(b'.') {
                self.pos = before.0;
                self.out.truncate(before.1);
                return Some(());
            }
            self.punct(EventKind::KeySep, 1);
            self.ws();
            self.key_part()?;
        }
    }

    fn key_part(&mut self) -> Option<()> {
        let start = self.pos;
        let encoding = match self.peek()? {
            b'"' if !self.at(b"\"\"\"") => {
                self.basic_string()?;
                Some(Encoding::BasicString)
            }
            b'\'' if !self.at(b"'''") => {
                self.literal_string()?;
                Some(Encoding::LiteralString)
            }
            c if is_bare(c) => {
                while self.peek().is_some_and(is_bare) {
                    self.pos += 1;
                }
                None
            }
            _ => return None,
        };
        self.emit(EventKind::SimpleKey, encoding, start);
        Some(())
    }

    fn pair(&mut self) -> Option<()> {
        self.key()?;
        self.ws();
        if self.peek() != Some(b'=') {
            return None;
        }
        self.punct(EventKind::KeyValSep, 1);
        self.ws();
        self.value()
    }

    fn value(&mut self) -> Option<()> {
        let start = self.pos;
        let encoding = match self.peek()? {
            b'"' if self.at(b"\"\"\"") => {
                self.multiline_string(b'"')?;
                Some(Encoding::MlBasicString)
            }
            b'"' => {
                self.basic_string()?;
                Some(Encoding::BasicString)
            }
            b'\'' if self.at(b"'''") => {
                self.multiline_string(b'\'')?;
                Some(Encoding::MlLiteralString)
            }
            b'\'' => {
                self.literal_string()?;
                Some(Encoding::LiteralString)
            }
            b'[' => return self.container(EventKind::ArrayOpen, b']', EventKind::ArrayClose),
            b'{' => return self.container(EventKind::InlineTableOpen, b'}', EventKind::InlineTableClose),
            _ => {
                self.atom()?;
                None
            }
        };
        self.emit(EventKind::Scalar, encoding, start);
        Some(())
    }

    /// An array's values or an inline table's pairs, from the opening bracket to the closing one.
    fn container(&mut self, open: EventKind, close: u8, close_kind: EventKind) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        self.punct(open, 1);
        loop {
            self.gap()?;
            if self.peek() == Some(close) {
                break;
            }
            if close == b']' {
                self.value()?;
            } else {
                self.pair()?;
            }
            self.gap()?;
            match self.peek() {
                Some(b',') => self.punct(EventKind::ValueSep, 1),
                Some(c) if c == close => break,
                _ => return None,
            }
        }
        self.punct(close_kind, 1);
        self.depth -= 1;
        Some(())
    }

    /// `true`, `false`, or a decimal integer or float.
    fn atom(&mut self) -> Option<()> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'-' | b'.' | b':')) {
            self.pos += 1;
        }
        let b = &self.b[start..self.pos];
        if b == b"true" || b == b"false" {
            return Some(());
        }
        let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
        let int_start = i;
        if !digits(b, &mut i) || (b[int_start] == b'0' && i - int_start > 1) {
            return None;
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            if !digits(b, &mut i) {
                return None;
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !digits(b, &mut i) {
                return None;
            }
        }
        (i == b.len()).then_some(())
    }

    fn basic_string(&mut self) -> Option<()> {
        self.pos += 1;
        loop {
            match *self.b.get(self.pos)? {
                b'"' => {
                    self.pos += 1;
                    return Some(());
                }
                b'\\' => self.escape()?,
                c if is_control(c) => return None,
                _ => self.pos += 1,
            }
        }
    }

    fn escape(&mut self) -> Option<()> {
        let c = *self.b.get(self.pos + 1)?;
        self.pos += 2;
        match c {
            b'b' | b't' | b'n' | b'f' | b'r' | b'"' | b'\\' => Some(()),
            b'u' | b'U' => {
                let n = if c == b'u' { 4 } else { 8 };
                let hex = self.text.get(self.pos..self.pos + n)?;
                if !hex.bytes().all(|h| h.is_ascii_hexdigit()) {
                    return None;
                }
                char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
                self.pos += n;
                Some(())
            }
            _ => None,
        }
    }

    fn literal_string(&mut self) -> Option<()> {
        self.pos += 1;
        loop {
            match *self.b.get(self.pos)? {
                b'\'' => {
                    self.pos += 1;
                    return Some(());
                }
                c if is_control(c) => return None,
                _ => self.pos += 1,
            }
        }
    }

    fn multiline_string(&mut self, quote: u8) -> Option<()> {
        self.pos += 3;
        loop {
            match *self.b.get(self.pos)? {
                c if c == quote => {
                    let run = self.b[self.pos..].iter().take_while(|&&q| q == quote).count();
                    if run > 5 {
                        return None;
                    }
                    self.pos += run;
                    if run >= 3 {
                        return Some(());
                    }
                }
                b'\\' if quote == b'"' => {
                    let mut j = self.pos + 1;
                    while matches!(self.b.get(j), Some(b' ' | b'\t')) {
                        j += 1;
                    }
                    if self.b.get(j) == Some(&b'\n') {
                        self.pos = j + 1;
                    } else {
                        self.escape()?;
                    }
                }
                b'\n' => self.pos += 1,
                c if is_control(c) => return None,
                _ => self.pos += 1,
            }
        }
    }
}

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

#[cfg(test)]
mod tests;
