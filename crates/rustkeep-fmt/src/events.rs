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

use rustkeep_data::tree::lex::{self, is_bare, Cursor, Layout};
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

/// The events of `text` (without a byte-order mark) but whitespace, into `out` (cleared first, so
/// that one buffer serves file after file): whether the scanner answered.
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

impl Cursor for Scanner<'_, '_> {
    fn bytes(&self) -> &[u8] {
        self.b
    }
    fn pos(&self) -> usize {
        self.pos
    }
    fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }
    /// Comments and line breaks are events; runs of spaces and tabs are not (the syntax tree
    /// skips them).
    fn layout(&mut self, what: Layout, start: usize) {
        let kind = match what {
            Layout::Comment => EventKind::Comment,
            Layout::Newline => EventKind::Newline,
        };
        self.emit(kind, None, start);
    }
}

impl Scanner<'_, '_> {
    fn emit(&mut self, kind: EventKind, encoding: Option<Encoding>, start: usize) {
        self.out.push(Event::new_unchecked(kind, encoding, Span::new_unchecked(start, self.pos)));
    }

    /// One byte as an event of its own.
    fn punct(&mut self, kind: EventKind, len: usize) {
        let start = self.pos;
        self.pos += len;
        self.emit(kind, None, start);
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
                self.string(lex::basic_string(self.text, self.pos))?;
                Some(Encoding::BasicString)
            }
            b'\'' if !self.at(b"'''") => {
                self.string(lex::literal_string(self.text, self.pos))?;
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
                self.string(lex::multiline_string(self.text, self.pos, b'"'))?;
                Some(Encoding::MlBasicString)
            }
            b'"' => {
                self.string(lex::basic_string(self.text, self.pos))?;
                Some(Encoding::BasicString)
            }
            b'\'' if self.at(b"'''") => {
                self.string(lex::multiline_string(self.text, self.pos, b'\''))?;
                Some(Encoding::MlLiteralString)
            }
            b'\'' => {
                self.string(lex::literal_string(self.text, self.pos))?;
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
        let end = lex::token_end(self.b, self.pos);
        let tok = &self.text[self.pos..end];
        if tok != "true" && tok != "false" {
            lex::number(tok)?;
        }
        self.pos = end;
        Some(())
    }

    /// Past a string that [`lex`] read from here.
    fn string(&mut self, read: Option<(std::borrow::Cow<'_, str>, usize)>) -> Option<()> {
        self.pos = read?.1;
        Some(())
    }
}

#[cfg(test)]
mod tests;
