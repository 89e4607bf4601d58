//! The one reader of TOML text: every tool that looks at how a file is written — lowering, the
//! formatter, the language server's completion, hover and semantic tokens, suppression comments,
//! finding a scenario's expectations — reads it here, and nowhere else.
//!
//! The syntax of a text is its event stream ([`Syntax`]): every key part, separator, bracket,
//! scalar, comment and line break in text order, each with its span and, for keys and strings,
//! how it is written (`toml_parser`'s [`Event`], the stream that parser builds its tree from). It
//! is lossless — the runs of spaces and tabs are the bytes between two events' spans, and the
//! text is always at hand — and it never fails: a text with mistakes still has its events, with
//! the errors beside them.
//!
//! The stream comes in one of two modes. [`scan`] reads the shapes mod data is written in, in a
//! single pass, and hands each token straight to a [`scan::Sink`] (the event stream here, the
//! document tree in `crate::tree`); it gives up on anything else. Then `toml_parser`'s lexer and
//! event parser read the text: they accept every TOML 1.1 text, recover from every mistake, and
//! report the errors. A test holds the two modes equal wherever the scanner answers (the official
//! TOML suite, every file of the repository and mutations of them). [`tokens`] are the lexer's
//! tokens, for a text being typed, which is rarely TOML yet.

use toml_parser::parser::{RecursionGuard, ValidateWhitespace};
use toml_parser::Source;

pub use toml_parser::decoder::Encoding;
pub use toml_parser::lexer::TokenKind;
pub use toml_parser::parser::{Event, EventKind};

use crate::text::Span;

pub mod lex;
pub mod scan;

pub use scan::{Scalar, Sink};

/// How deep arrays and inline tables may nest in the tolerant mode: the same limit as the `toml`
/// crate's reader, so that no text `rustkeep check` accepts is refused here.
pub const MAX_DEPTH: u32 = 80;

/// A syntax error of the tolerant mode: where, and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub span: Span,
    pub message: String,
}

/// The syntax of one text: its events (spaces and tabs left out) and its errors.
#[derive(Clone, Debug, Default)]
pub struct Syntax {
    pub events: Vec<Event>,
    pub errors: Vec<Error>,
}

impl Syntax {
    /// The span of every comment, in text order.
    pub fn comments(&self) -> impl Iterator<Item = Span> + '_ {
        self.events.iter().filter(|e| e.kind() == EventKind::Comment).map(span)
    }
}

/// The span of an event.
pub fn span(e: &Event) -> Span {
    e.span().start()..e.span().end()
}

/// Reads `text` (without a byte-order mark).
pub fn parse(text: &str) -> Syntax {
    let mut s = Syntax::default();
    s.errors = parse_into(text, &mut s.events);
    s
}

/// Reads `text` into `events` (cleared first, so that one buffer serves file after file): the
/// scanner when it reads the whole text, else the tolerant mode; the errors, empty for a text
/// that is TOML.
pub fn parse_into(text: &str, events: &mut Vec<Event>) -> Vec<Error> {
    parse_into_with(text, events, ()).0
}

/// [`parse_into`] with a second sink, `also`, fed by the same scan: it comes back when the scanner
/// read the whole text and `also` took every token. Otherwise the events are the tolerant mode's
/// and `also` is dropped, having seen at most a beginning of the text.
pub fn parse_into_with<'i, S: Sink<'i>>(text: &'i str, events: &mut Vec<Event>, also: S) -> (Vec<Error>, Option<S>) {
    events.clear();
    let mut both = (Events(events), also);
    if scan::scan(text, &mut both) {
        return (Vec::new(), Some(both.1));
    }
    events.clear();
    (tolerant(text, events), None)
}

/// Reads `text` into `events` with `toml_parser` alone, whatever the scanner would do: its errors.
pub fn tolerant(text: &str, events: &mut Vec<Event>) -> Vec<Error> {
    let source = Source::new(text);
    let tokens = source.lex().into_vec();
    let mut errors: Vec<toml_parser::ParseError> = Vec::new();
    {
        let mut collect = |e: Event| {
            if e.kind() != EventKind::Whitespace {
                events.push(e);
            }
        };
        let mut validate = ValidateWhitespace::new(&mut collect, source);
        let mut guard = RecursionGuard::new(&mut validate, MAX_DEPTH);
        toml_parser::parser::parse_document(&tokens, &mut guard, &mut errors);
    }
    errors.iter().map(|e| Error { span: e.unexpected().map(|s| s.start()..s.end()).unwrap_or(0..0), message: e.description().to_string() }).collect()
}

/// The span of every comment of `text`, in text order; a `#` inside a string is never one, in a
/// text with mistakes too.
pub fn comments(text: &str) -> Vec<Span> {
    let mut found = Comments(Vec::new());
    if scan::scan(text, &mut found) {
        return found.0;
    }
    tokens(text).filter(|t| t.kind == TokenKind::Comment).map(|t| t.span).collect()
}

/// The comments alone as a [`Sink`]: their spans, nothing else kept.
struct Comments(Vec<Span>);

impl Sink<'_> for Comments {
    fn layout(&mut self, what: lex::Layout, span: Span) {
        if what == lex::Layout::Comment {
            self.0.push(span);
        }
    }
}

/// A token of the lexer: what it is and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

/// The tokens of `text`, every byte in one (the end-of-file token left out): the leaves of its
/// syntax, for a text as it is being typed. A string that is not closed ends at its line's end.
pub fn tokens(text: &str) -> impl Iterator<Item = Token> + '_ {
    Source::new(text).lex().filter(|t| t.kind() != TokenKind::Eof).map(|t| Token { kind: t.kind(), span: t.span().start()..t.span().end() })
}

/// Whether a string token (`raw`, quotes included, of one of the four kinds) is closed.
pub fn string_closed(kind: TokenKind, raw: &str) -> bool {
    let q = match kind {
        TokenKind::BasicString | TokenKind::LiteralString => 1,
        TokenKind::MlBasicString | TokenKind::MlLiteralString => 3,
        _ => return true,
    };
    let quote = if matches!(kind, TokenKind::BasicString | TokenKind::MlBasicString) { '"' } else { '\'' };
    if raw.len() < 2 * q || !raw.ends_with(quote) {
        return false;
    }
    if quote == '\'' {
        return true;
    }
    // A closing quote is not escaped: an even number of backslashes stands before it.
    let body = &raw[..raw.len() - q];
    body.len() >= q && (body.len() - body.trim_end_matches('\\').len()).is_multiple_of(2)
}

/// The event stream as a [`Sink`]: every token the scanner reads becomes `toml_parser`'s event.
struct Events<'o>(&'o mut Vec<Event>);

impl Events<'_> {
    fn push(&mut self, kind: EventKind, encoding: Option<Encoding>, span: Span) {
        self.0.push(Event::new_unchecked(kind, encoding, toml_parser::Span::new_unchecked(span.start, span.end)));
    }
}

impl<'i> Sink<'i> for Events<'_> {
    fn layout(&mut self, what: lex::Layout, span: Span) {
        let kind = match what {
            lex::Layout::Comment => EventKind::Comment,
            lex::Layout::Newline => EventKind::Newline,
        };
        self.push(kind, None, span);
    }
    fn header_open(&mut self, array: bool, span: Span) -> Option<()> {
        self.push(if array { EventKind::ArrayTableOpen } else { EventKind::StdTableOpen }, None, span);
        Some(())
    }
    fn header_close(&mut self, array: bool, span: Span) -> Option<()> {
        self.push(if array { EventKind::ArrayTableClose } else { EventKind::StdTableClose }, None, span);
        Some(())
    }
    fn key(&mut self, _name: std::borrow::Cow<'i, str>, encoding: Option<Encoding>, span: Span) -> Option<()> {
        self.push(EventKind::SimpleKey, encoding, span);
        Some(())
    }
    fn key_sep(&mut self, span: Span) {
        self.push(EventKind::KeySep, None, span);
    }
    fn keyval_sep(&mut self, span: Span) {
        self.push(EventKind::KeyValSep, None, span);
    }
    fn scalar(&mut self, _value: Scalar<'i>, encoding: Option<Encoding>, span: Span) -> Option<()> {
        self.push(EventKind::Scalar, encoding, span);
        Some(())
    }
    fn open(&mut self, table: bool, span: Span) -> Option<()> {
        self.push(if table { EventKind::InlineTableOpen } else { EventKind::ArrayOpen }, None, span);
        Some(())
    }
    fn value_sep(&mut self, span: Span) {
        self.push(EventKind::ValueSep, None, span);
    }
    fn close(&mut self, table: bool, span: Span) -> Option<()> {
        self.push(if table { EventKind::InlineTableClose } else { EventKind::ArrayClose }, None, span);
        Some(())
    }
}

#[cfg(test)]
mod tests;
