//! The single-pass scanner: the one place that reads TOML text fast. It walks the shapes mod data
//! is written in (bare and quoted keys, dotted keys, headers and arrays of tables, strings of the
//! four kinds, decimal numbers, booleans, arrays, inline tables, comments and line breaks) and
//! hands every token, with its span and its decoded value, to a [`Sink`]: one sink keeps the
//! event stream ([`super::Syntax`]), the other builds the document tree lowering walks
//! (`crate::tree`). Either may stop the scan.
//!
//! It gives up (`None`) on anything it does not know for certain `toml_parser` reads without an
//! error and in exactly this way: a syntax error, a date or time, `inf` and `nan`, a number that
//! is not a decimal integer or float (or an integer beyond 64 bits), a string escape other than
//! `\b \t \n \f \r \" \\ \u \U`, a control character or carriage return where it does not belong,
//! a carriage return inside a multi-line string, nesting deeper than [`MAX_DEPTH`]. The caller
//! then reads the text in the tolerant mode. A test holds the two modes' events equal wherever
//! the scanner answers, on the official TOML suite, every file of the repository and mutations of
//! them.

use std::borrow::Cow;

use toml_parser::decoder::Encoding;

use super::lex::{self, is_bare, Cursor, Layout, Number};
use crate::text::Span;

/// Arrays and inline tables nested deeper than this are left to the tolerant mode (the `toml`
/// reader's own limit is 80).
pub const MAX_DEPTH: u32 = 64;

/// A scalar value as read: a string decoded (borrowed unless it holds escapes), a number, a
/// boolean.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar<'i> {
    String(Cow<'i, str>),
    Number(Number),
    Boolean(bool),
}

/// What a scan hands its tokens to, in text order. Every method that returns an `Option` may
/// stop the scan with `None` (the tree's table rules do); the others only listen. Each method
/// ignores its token unless a sink says otherwise, so `()` takes every text. Runs of spaces and
/// tabs are not handed on: they lie between the spans of the tokens.
pub trait Sink<'i> {
    /// A comment (from its `#` to the end of its line) or a line break.
    fn layout(&mut self, _what: Layout, _span: Span) {}
    /// `[` or `[[` opening a header.
    fn header_open(&mut self, _array: bool, _span: Span) -> Option<()> {
        Some(())
    }
    /// `]` or `]]` closing it.
    fn header_close(&mut self, _array: bool, _span: Span) -> Option<()> {
        Some(())
    }
    /// One part of a key, decoded; `encoding` is `None` for a bare key.
    fn key(&mut self, _name: Cow<'i, str>, _encoding: Option<Encoding>, _span: Span) -> Option<()> {
        Some(())
    }
    /// The `.` between two parts of a key.
    fn key_sep(&mut self, _span: Span) {}
    /// The `=` of a key-value pair.
    fn keyval_sep(&mut self, _span: Span) {}
    /// A scalar value; `encoding` is `None` for a number or a boolean.
    fn scalar(&mut self, _value: Scalar<'i>, _encoding: Option<Encoding>, _span: Span) -> Option<()> {
        Some(())
    }
    /// `[` opening an array (`table` false) or `{` opening an inline table.
    fn open(&mut self, _table: bool, _span: Span) -> Option<()> {
        Some(())
    }
    /// The `,` between two values or pairs.
    fn value_sep(&mut self, _span: Span) {}
    /// `]` or `}` closing what [`Sink::open`] opened.
    fn close(&mut self, _table: bool, _span: Span) -> Option<()> {
        Some(())
    }
}

impl Sink<'_> for () {}

/// Two sinks fed by one scan, each token to the first and then to the second; the scan stops
/// where either stops it.
impl<'i, A: Sink<'i>, B: Sink<'i>> Sink<'i> for (A, B) {
    fn layout(&mut self, what: Layout, span: Span) {
        self.0.layout(what, span.clone());
        self.1.layout(what, span);
    }
    fn header_open(&mut self, array: bool, span: Span) -> Option<()> {
        self.0.header_open(array, span.clone())?;
        self.1.header_open(array, span)
    }
    fn header_close(&mut self, array: bool, span: Span) -> Option<()> {
        self.0.header_close(array, span.clone())?;
        self.1.header_close(array, span)
    }
    fn key(&mut self, name: Cow<'i, str>, encoding: Option<Encoding>, span: Span) -> Option<()> {
        self.0.key(name.clone(), encoding, span.clone())?;
        self.1.key(name, encoding, span)
    }
    fn key_sep(&mut self, span: Span) {
        self.0.key_sep(span.clone());
        self.1.key_sep(span);
    }
    fn keyval_sep(&mut self, span: Span) {
        self.0.keyval_sep(span.clone());
        self.1.keyval_sep(span);
    }
    fn scalar(&mut self, value: Scalar<'i>, encoding: Option<Encoding>, span: Span) -> Option<()> {
        self.0.scalar(value.clone(), encoding, span.clone())?;
        self.1.scalar(value, encoding, span)
    }
    fn open(&mut self, table: bool, span: Span) -> Option<()> {
        self.0.open(table, span.clone())?;
        self.1.open(table, span)
    }
    fn value_sep(&mut self, span: Span) {
        self.0.value_sep(span.clone());
        self.1.value_sep(span);
    }
    fn close(&mut self, table: bool, span: Span) -> Option<()> {
        self.0.close(table, span.clone())?;
        self.1.close(table, span)
    }
}

/// Scans `text` (without a byte-order mark) into `sink`: whether the scanner read all of it.
pub fn scan<'i>(text: &'i str, sink: &mut impl Sink<'i>) -> bool {
    if text.len() >= u32::MAX as usize || text.starts_with('\u{feff}') {
        return false;
    }
    Scanner { text, b: text.as_bytes(), pos: 0, depth: 0, sink }.document().is_some()
}

struct Scanner<'i, 's, S> {
    text: &'i str,
    b: &'i [u8],
    pos: usize,
    depth: u32,
    sink: &'s mut S,
}

impl<'i, S: Sink<'i>> Cursor for Scanner<'i, '_, S> {
    fn bytes(&self) -> &[u8] {
        self.b
    }
    fn pos(&self) -> usize {
        self.pos
    }
    fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }
    fn layout(&mut self, what: Layout, start: usize) {
        self.sink.layout(what, start..self.pos);
    }
}

impl<'i, S: Sink<'i>> Scanner<'i, '_, S> {
    /// The span of `len` bytes from here, moved past.
    fn punct(&mut self, len: usize) -> Span {
        let start = self.pos;
        self.pos += len;
        start..self.pos
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
                    let close: &[u8] = if array { b"]]" } else { b"]" };
                    let open = self.punct(close.len());
                    self.sink.header_open(array, open)?;
                    self.ws();
                    self.key()?;
                    self.ws();
                    if !self.at(close) {
                        return None;
                    }
                    let span = self.punct(close.len());
                    self.sink.header_close(array, span)?;
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
            let before = self.pos;
            self.ws();
            if self.peek() != Some(b'.') {
                self.pos = before;
                return Some(());
            }
            let dot = self.punct(1);
            self.sink.key_sep(dot);
            self.ws();
            self.key_part()?;
        }
    }

    fn key_part(&mut self) -> Option<()> {
        let start = self.pos;
        let (name, encoding) = match self.peek()? {
            b'"' if !self.at(b"\"\"\"") => (self.string(lex::basic_string(self.text, self.pos))?, Some(Encoding::BasicString)),
            b'\'' if !self.at(b"'''") => (self.string(lex::literal_string(self.text, self.pos))?, Some(Encoding::LiteralString)),
            c if is_bare(c) => {
                while self.peek().is_some_and(is_bare) {
                    self.pos += 1;
                }
                (Cow::Borrowed(&self.text[start..self.pos]), None)
            }
            _ => return None,
        };
        self.sink.key(name, encoding, start..self.pos)
    }

    fn pair(&mut self) -> Option<()> {
        self.key()?;
        self.ws();
        if self.peek() != Some(b'=') {
            return None;
        }
        let eq = self.punct(1);
        self.sink.keyval_sep(eq);
        self.ws();
        self.value()
    }

    fn value(&mut self) -> Option<()> {
        let start = self.pos;
        let (value, encoding) = match self.peek()? {
            b'"' if self.at(b"\"\"\"") => (self.string(lex::multiline_string(self.text, self.pos, b'"'))?, Some(Encoding::MlBasicString)),
            b'"' => (self.string(lex::basic_string(self.text, self.pos))?, Some(Encoding::BasicString)),
            b'\'' if self.at(b"'''") => (self.string(lex::multiline_string(self.text, self.pos, b'\''))?, Some(Encoding::MlLiteralString)),
            b'\'' => (self.string(lex::literal_string(self.text, self.pos))?, Some(Encoding::LiteralString)),
            b'[' => return self.container(false, b']'),
            b'{' => return self.container(true, b'}'),
            _ => {
                let end = lex::token_end(self.b, self.pos);
                let value = match &self.text[self.pos..end] {
                    "true" => Scalar::Boolean(true),
                    "false" => Scalar::Boolean(false),
                    tok => Scalar::Number(lex::number(tok)?),
                };
                self.pos = end;
                return self.sink.scalar(value, None, start..end);
            }
        };
        self.sink.scalar(Scalar::String(value), encoding, start..self.pos)
    }

    /// An array's values or an inline table's pairs, from the opening bracket to the closing one.
    fn container(&mut self, table: bool, close: u8) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let open = self.punct(1);
        self.sink.open(table, open)?;
        loop {
            self.gap()?;
            if self.peek() == Some(close) {
                break;
            }
            if table {
                self.pair()?;
            } else {
                self.value()?;
            }
            self.gap()?;
            match self.peek() {
                Some(b',') => {
                    let comma = self.punct(1);
                    self.sink.value_sep(comma);
                }
                Some(c) if c == close => break,
                _ => return None,
            }
        }
        let span = self.punct(1);
        self.depth -= 1;
        self.sink.close(table, span)
    }

    /// A string that [`lex`] read from here: its value, with the position moved past it.
    fn string(&mut self, read: Option<(Cow<'i, str>, usize)>) -> Option<Cow<'i, str>> {
        let (value, end) = read?;
        self.pos = end;
        Some(value)
    }
}
