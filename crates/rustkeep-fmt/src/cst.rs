//! The formatter's tree of a TOML document, built from the event stream of the one reader
//! ([`rustkeep_data::syntax`]).
//!
//! The tree keeps what layout needs and nothing more: every comment and where it sits (on a line
//! of its own, or trailing a key, a header, an element or an opening bracket), blank lines, the
//! raw text of keys and scalars (so quoting, number spellings and multi-line strings are copied
//! verbatim), the order of everything, and whether the author wrote a trailing comma. Whitespace
//! is dropped: the printer decides it. `toml_edit`'s document model is not used here because it
//! files a dotted key under its table (`a.b = 1`, `c = 2`, `a.d = 3` comes back with `a.d` moved
//! up) and keeps comments as decor of neighbouring nodes, which loses where a group ends.

use std::cell::RefCell;
use std::ops::Range;

use rustkeep_data::syntax::{self, Event, EventKind};

use crate::version::{self, Toml11Syntax, Toml11Use};

/// How deep arrays and inline tables may nest: the one reader's limit, the same as the `toml`
/// crate's, so a file `rustkeep check` accepts is never refused here and recursion stays shallow.
pub const MAX_DEPTH: u32 = syntax::MAX_DEPTH;

/// A line that holds no element: blank, or a comment on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trivia<'a> {
    Blank,
    Comment(&'a str),
}

/// A key as written: its dotted parts, each a bare key or a quoted one (raw text). Most keys have
/// one part, which is kept without an allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Key<'a> {
    first: &'a str,
    rest: Vec<&'a str>,
}

impl<'a> Key<'a> {
    pub fn new(first: &'a str) -> Key<'a> {
        Key { first, rest: Vec::new() }
    }

    pub fn push(&mut self, part: &'a str) {
        self.rest.push(part);
    }

    pub fn parts(&self) -> impl Iterator<Item = &'a str> + '_ {
        std::iter::once(self.first).chain(self.rest.iter().copied())
    }

    pub fn len(&self) -> usize {
        1 + self.rest.len()
    }

    /// The first part, unquoted when that is possible without decoding escapes.
    pub fn first_name(&self) -> Option<&'a str> {
        plain_name(self.first)
    }
}

/// The name a raw key part or string stands for, when it needs no decoding: a bare key, or a
/// quoted one without escapes.
pub fn plain_name(raw: &str) -> Option<&str> {
    if let Some(inner) = raw.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')) {
        return (!inner.starts_with("''")).then_some(inner);
    }
    if let Some(inner) = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        return (!inner.contains('\\') && !inner.starts_with("\"\"")).then_some(inner);
    }
    (!raw.is_empty() && raw.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')).then_some(raw)
}

#[derive(Clone, Debug)]
pub enum Value<'a> {
    /// A string, number, boolean or date-time, as written.
    Atom(&'a str),
    Array(Box<Container<'a, Value<'a>>>),
    Table(Box<Container<'a, KeyVal<'a>>>),
}

#[derive(Clone, Debug)]
pub struct KeyVal<'a> {
    pub key: Key<'a>,
    pub value: Value<'a>,
}

/// One element of a body or a container, with the lines before it and the comment after it.
#[derive(Clone, Debug)]
pub struct Elem<'a, T> {
    /// Blank lines and comment lines directly before the element.
    pub lead: Vec<Trivia<'a>>,
    pub node: T,
    /// A comment on the line where the element ends.
    pub comment: Option<&'a str>,
}

/// An array or an inline table.
#[derive(Clone, Debug)]
pub struct Container<'a, T> {
    /// A comment on the line of the opening bracket.
    pub open_comment: Option<&'a str>,
    pub elems: Vec<Elem<'a, T>>,
    /// Lines after the last element, before the closing bracket.
    pub tail: Vec<Trivia<'a>>,
    /// The author wrote a comma after the last element.
    pub trailing_comma: bool,
}

impl<T> Default for Container<'_, T> {
    fn default() -> Self {
        Container { open_comment: None, elems: Vec::new(), tail: Vec::new(), trailing_comma: false }
    }
}

#[derive(Clone, Debug)]
pub struct Header<'a> {
    /// `[[…]]` rather than `[…]`.
    pub array: bool,
    pub key: Key<'a>,
    pub comment: Option<&'a str>,
}

/// A table header with its body, or (for the first section) the keys before any header.
#[derive(Clone, Debug)]
pub struct Section<'a> {
    /// The lines between the previous section's last element and the header.
    pub lead: Vec<Trivia<'a>>,
    pub header: Option<Header<'a>>,
    pub body: Vec<Elem<'a, KeyVal<'a>>>,
    /// Where each element of this section ends in the source, after its line end: the header
    /// first (if any), then each body element. Range formatting maps units through these.
    pub ends: Vec<usize>,
}

#[derive(Clone, Debug)]
pub struct Doc<'a> {
    /// The first section has no header and holds the keys before the first header.
    pub sections: Vec<Section<'a>>,
    /// Lines after the last element of the file.
    pub tail: Vec<Trivia<'a>>,
    /// The first place where the text uses syntax that only TOML 1.1 has.
    pub toml_1_1: Option<Toml11Use>,
    /// The span of every comment of the text, in text order, taken from the event stream before
    /// the tree is built: what [`crate::comments::first_difference`] holds the output to.
    pub comments: Vec<Range<usize>>,
}

/// Where the parser gave up; only reached for text the syntax check let through by mistake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFailure {
    pub span: Range<usize>,
    pub message: String,
}

/// Parses `text` (without a byte-order mark) into a [`Doc`], from the events of the one reader
/// ([`rustkeep_data::syntax`]).
pub fn parse(text: &str) -> Result<Doc<'_>, ParseFailure> {
    parse_with(text, |text, events| (syntax::parse_into(text, events), false)).0
}

/// [`parse`], and whether the data reader's fast mode reads the text, from the same scan
/// ([`rustkeep_data::tree::events_and_read_fast`]): a `true` says that the `toml` reader accepts
/// it, without reading it again.
pub fn parse_and_read(text: &str) -> (Result<Doc<'_>, ParseFailure>, bool) {
    parse_with(text, rustkeep_data::tree::events_and_read_fast)
}

fn parse_with<'a>(text: &'a str, read: impl FnOnce(&'a str, &mut Vec<Event>) -> (Vec<syntax::Error>, bool)) -> (Result<Doc<'a>, ParseFailure>, bool) {
    thread_local! {
        /// The reader's events, one buffer per thread for file after file: a fresh one for each
        /// file cost more in page faults than the scan itself.
        static EVENTS: RefCell<Vec<Event>> = const { RefCell::new(Vec::new()) };
    }
    EVENTS.with(|cell| {
        let mut events = cell.take();
        let (errors, read) = read(text, &mut events);
        let doc = match errors.into_iter().next() {
            Some(e) => Err(ParseFailure { span: e.span, message: e.message }),
            None => Parser::new(text, &events).document(),
        };
        // A huge file's buffer is not kept for the rest of the run.
        if events.capacity() <= 1 << 20 {
            cell.replace(events);
        }
        (doc, read)
    })
}

struct Parser<'a, 'e> {
    text: &'a str,
    events: &'e [Event],
    pos: usize,
    depth: u32,
    /// Comments found inside a key-value pair of an inline table (between the key and its `=`,
    /// or between the `=` and the value): they go on their own lines before that pair.
    stray: Vec<&'a str>,
    /// The first TOML 1.1-only syntax seen.
    toml_1_1: Option<Toml11Use>,
}

/// What a comment later on the current line trails.
#[derive(Clone, Copy)]
enum Anchor {
    Open,
    Elem(usize),
}

impl<'a, 'e> Parser<'a, 'e> {
    fn new(text: &'a str, events: &'e [Event]) -> Parser<'a, 'e> {
        Parser { text, events, pos: 0, depth: 0, stray: Vec::new(), toml_1_1: None }
    }

    /// Notes TOML 1.1-only syntax at `offset` (the first place is kept).
    fn toml_1_1(&mut self, offset: usize, syntax: Toml11Syntax) {
        if self.toml_1_1.is_none() {
            self.toml_1_1 = Some(Toml11Use { offset, syntax });
        }
    }

    /// Notes a TOML 1.1 escape in a raw string or quoted key starting at `start`.
    fn check_escapes(&mut self, raw: &str, start: usize) {
        if let Some((at, syntax)) = version::escape_in(raw) {
            self.toml_1_1(start + at, syntax);
        }
    }

    fn raw(&self, e: &Event) -> &'a str {
        let s = e.span();
        &self.text[s.start()..s.end()]
    }

    /// A key part; the event parser leaves a missing key as an empty one.
    fn key_part(&mut self, e: &Event) -> Result<&'a str, ParseFailure> {
        if e.span().is_empty() {
            return self.fail(Some(e), "`=`: a key is missing");
        }
        let raw = self.raw(e);
        self.check_escapes(raw, e.span().start());
        Ok(raw)
    }

    fn fail<T>(&self, e: Option<&Event>, what: &str) -> Result<T, ParseFailure> {
        let span = e.map(|e| e.span().start()..e.span().end()).unwrap_or(self.text.len()..self.text.len());
        Err(ParseFailure { span, message: format!("unexpected {what}") })
    }

    /// The next event that is not whitespace.
    fn next_solid(&mut self) -> Option<Event> {
        while let Some(e) = self.events.get(self.pos).copied() {
            self.pos += 1;
            if e.kind() != EventKind::Whitespace {
                return Some(e);
            }
        }
        None
    }

    /// The end of the current line: after the newline that ends it, or the end of the text.
    fn line_end_after(&self, mut i: usize) -> usize {
        while let Some(e) = self.events.get(i) {
            match e.kind() {
                EventKind::Newline => return e.span().end(),
                EventKind::Whitespace | EventKind::Comment => i += 1,
                _ => return e.span().start(),
            }
        }
        self.text.len()
    }

    fn document(mut self) -> Result<Doc<'a>, ParseFailure> {
        let mut sections = vec![Section { lead: Vec::new(), header: None, body: Vec::new(), ends: Vec::new() }];
        let mut pending: Vec<Trivia<'a>> = Vec::new();
        let mut line_has_content = false;
        // The element a comment later on this line trails: the header (None) or a body element.
        let mut anchor: Option<Option<usize>> = None;
        while let Some(e) = self.next_solid() {
            match e.kind() {
                EventKind::Newline => {
                    if !line_has_content {
                        pending.push(Trivia::Blank);
                    }
                    line_has_content = false;
                    anchor = None;
                }
                EventKind::Comment => {
                    let c = self.raw(&e);
                    let sec = sections.last_mut().expect("there is always a section");
                    match anchor {
                        Some(None) => {
                            if let Some(h) = sec.header.as_mut() {
                                h.comment = Some(c);
                            }
                        }
                        Some(Some(i)) => sec.body[i].comment = Some(c),
                        None => pending.push(Trivia::Comment(c)),
                    }
                    line_has_content = true;
                    anchor = None;
                }
                EventKind::StdTableOpen | EventKind::ArrayTableOpen => {
                    let array = e.kind() == EventKind::ArrayTableOpen;
                    let key = self.header_key(array)?;
                    let end = self.line_end_after(self.pos);
                    sections.push(Section {
                        lead: std::mem::take(&mut pending),
                        header: Some(Header { array, key, comment: None }),
                        body: Vec::new(),
                        ends: vec![end],
                    });
                    line_has_content = true;
                    anchor = Some(None);
                }
                EventKind::SimpleKey => {
                    let kv = self.keyval(e, false)?;
                    let end = self.line_end_after(self.pos);
                    let sec = sections.last_mut().expect("there is always a section");
                    sec.body.push(Elem { lead: std::mem::take(&mut pending), node: kv, comment: None });
                    sec.ends.push(end);
                    line_has_content = true;
                    anchor = Some(Some(sec.body.len() - 1));
                }
                _ => return self.fail(Some(&e), e.kind().description()),
            }
        }
        let comments = self.events.iter().filter(|e| e.kind() == EventKind::Comment).map(|e| e.span().start()..e.span().end()).collect();
        Ok(Doc { sections, tail: pending, toml_1_1: self.toml_1_1, comments })
    }

    fn header_key(&mut self, array: bool) -> Result<Key<'a>, ParseFailure> {
        let close = if array { EventKind::ArrayTableClose } else { EventKind::StdTableClose };
        let mut key: Option<Key<'a>> = None;
        loop {
            let e = self.next_solid();
            match e.map(|e| e.kind()) {
                Some(EventKind::SimpleKey) => {
                    let part = self.key_part(e.as_ref().expect("matched"))?;
                    match key.as_mut() {
                        Some(k) => k.push(part),
                        None => key = Some(Key::new(part)),
                    }
                }
                Some(EventKind::KeySep) => {}
                Some(k) if k == close => break,
                _ => return self.fail(e.as_ref(), "token in a table header"),
            }
        }
        match key {
            Some(k) => Ok(k),
            None => self.fail(None, "empty table header"),
        }
    }

    /// A key (its first part already read) up to and including the `=`. Inside an inline table
    /// the reader also takes line breaks and comments between the key and the `=` (not inside a
    /// dotted key); such comments are kept in [`Parser::stray`].
    fn key(&mut self, first: Event, inline: bool) -> Result<Key<'a>, ParseFailure> {
        let mut key = Key::new(self.key_part(&first)?);
        let mut broken = false;
        let mut after_dot = false;
        loop {
            let e = self.next_solid();
            match e.map(|e| e.kind()) {
                Some(EventKind::KeySep) if !broken => after_dot = true,
                Some(EventKind::SimpleKey) if !broken => {
                    key.push(self.key_part(e.as_ref().expect("matched"))?);
                    after_dot = false;
                }
                Some(EventKind::KeyValSep) if !after_dot => return Ok(key),
                Some(EventKind::Newline) if inline && !after_dot => {
                    self.toml_1_1(e.as_ref().expect("matched").span().start(), Toml11Syntax::InlineTableAcrossLines);
                    broken = true;
                }
                Some(EventKind::Comment) if inline && !after_dot => {
                    let e = e.as_ref().expect("matched");
                    self.toml_1_1(e.span().start(), Toml11Syntax::CommentInInlineTable);
                    self.stray.push(self.raw(e));
                    broken = true;
                }
                _ => return self.fail(e.as_ref(), "token in a key"),
            }
        }
    }

    fn keyval(&mut self, first: Event, inline: bool) -> Result<KeyVal<'a>, ParseFailure> {
        let key = self.key(first, inline)?;
        loop {
            let e = self.next_solid();
            match e {
                None => return self.fail(None, "end of input: a value is missing"),
                // Inside an inline table, the value may start on a later line.
                Some(e) if inline && e.kind() == EventKind::Newline => self.toml_1_1(e.span().start(), Toml11Syntax::InlineTableAcrossLines),
                Some(e) if inline && e.kind() == EventKind::Comment => {
                    self.toml_1_1(e.span().start(), Toml11Syntax::CommentInInlineTable);
                    let c = self.raw(&e);
                    self.stray.push(c);
                }
                Some(e) => {
                    let value = self.value(e)?;
                    return Ok(KeyVal { key, value });
                }
            }
        }
    }

    fn value(&mut self, e: Event) -> Result<Value<'a>, ParseFailure> {
        match e.kind() {
            // The event parser leaves a missing value as an empty scalar for the decoder to refuse.
            EventKind::Scalar if e.span().is_empty() => self.fail(Some(&e), "end of line: a value is missing"),
            EventKind::Scalar => {
                let raw = self.raw(&e);
                self.check_escapes(raw, e.span().start());
                if version::time_without_seconds(raw) {
                    self.toml_1_1(e.span().start(), Toml11Syntax::TimeWithoutSeconds);
                }
                Ok(Value::Atom(raw))
            }
            EventKind::ArrayOpen => {
                self.enter(&e)?;
                let c = self.container(EventKind::ArrayClose, |p, e| p.value(e))?;
                self.depth -= 1;
                Ok(Value::Array(Box::new(c)))
            }
            EventKind::InlineTableOpen => {
                self.enter(&e)?;
                let c = self.container(EventKind::InlineTableClose, |p, e| {
                    if e.kind() != EventKind::SimpleKey {
                        return p.fail(Some(&e), e.kind().description());
                    }
                    let kv = p.keyval(e, true)?;
                    Ok(kv)
                })?;
                self.depth -= 1;
                Ok(Value::Table(Box::new(c)))
            }
            _ => self.fail(Some(&e), e.kind().description()),
        }
    }

    fn enter(&mut self, e: &Event) -> Result<(), ParseFailure> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ParseFailure { span: e.span().start()..e.span().end(), message: format!("nested deeper than {MAX_DEPTH} levels") });
        }
        Ok(())
    }

    /// The elements of an array or inline table, after its opening bracket, up to and including
    /// the closing one.
    fn container<T>(&mut self, close: EventKind, mut elem: impl FnMut(&mut Self, Event) -> Result<T, ParseFailure>) -> Result<Container<'a, T>, ParseFailure> {
        let mut c: Container<'a, T> = Container::default();
        let mut pending: Vec<Trivia<'a>> = Vec::new();
        let mut line_has_content = true;
        let mut anchor = Some(Anchor::Open);
        let table = close == EventKind::InlineTableClose;
        loop {
            let Some(e) = self.next_solid() else { return self.fail(None, "end of input inside an array or inline table") };
            match e.kind() {
                k if k == close => {
                    if table && c.trailing_comma {
                        self.toml_1_1(e.span().start(), Toml11Syntax::TrailingCommaInInlineTable);
                    }
                    c.tail = pending;
                    return Ok(c);
                }
                EventKind::Newline => {
                    if table {
                        self.toml_1_1(e.span().start(), Toml11Syntax::InlineTableAcrossLines);
                    }
                    if !line_has_content {
                        pending.push(Trivia::Blank);
                    }
                    line_has_content = false;
                    anchor = None;
                }
                EventKind::Comment => {
                    if table {
                        self.toml_1_1(e.span().start(), Toml11Syntax::CommentInInlineTable);
                    }
                    let text = self.raw(&e);
                    match anchor {
                        Some(Anchor::Open) => c.open_comment = Some(text),
                        Some(Anchor::Elem(i)) => c.elems[i].comment = Some(text),
                        None => pending.push(Trivia::Comment(text)),
                    }
                    line_has_content = true;
                    anchor = None;
                }
                EventKind::ValueSep => {
                    if c.elems.is_empty() {
                        return self.fail(Some(&e), "comma before the first element");
                    }
                    c.trailing_comma = true;
                    line_has_content = true;
                    // A comment after the comma trails the element before it, unless the comma
                    // is on a later line and something already follows the element: its own
                    // trailing comment (written before the comma) or lines of comments or blanks.
                    // Then that comment goes on its own line after them, before the next element
                    // (or the closing bracket), so that no comment replaces another and the
                    // comments keep their order.
                    let last = c.elems.len() - 1;
                    anchor = (c.elems[last].comment.is_none() && pending.is_empty()).then_some(Anchor::Elem(last));
                }
                _ => {
                    // Comments of this element only: a nested table keeps its own.
                    let mark = self.stray.len();
                    let node = elem(self, e)?;
                    pending.extend(self.stray.drain(mark..).map(Trivia::Comment));
                    c.elems.push(Elem { lead: std::mem::take(&mut pending), node, comment: None });
                    c.trailing_comma = false;
                    line_has_content = true;
                    anchor = Some(Anchor::Elem(c.elems.len() - 1));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_attach_to_what_they_trail_or_precede() {
        let doc = parse("# top\n\n[a] # h\n# about x\nx = [ # open\n  1, # one\n  # before two\n  2,\n  # tail\n] # after\n").unwrap();
        assert_eq!(doc.sections.len(), 2);
        let s = &doc.sections[1];
        assert_eq!(s.lead, vec![Trivia::Comment("# top"), Trivia::Blank]);
        assert_eq!(s.header.as_ref().unwrap().comment, Some("# h"));
        let x = &s.body[0];
        assert_eq!(x.lead, vec![Trivia::Comment("# about x")]);
        assert_eq!(x.comment, Some("# after"));
        let Value::Array(a) = &x.node.value else { panic!() };
        assert_eq!(a.open_comment, Some("# open"));
        assert_eq!(a.elems[0].comment, Some("# one"));
        assert_eq!(a.elems[1].lead, vec![Trivia::Comment("# before two")]);
        assert_eq!(a.tail, vec![Trivia::Comment("# tail")]);
        assert!(a.trailing_comma);
    }

    #[test]
    fn a_comment_after_a_comma_on_a_later_line_replaces_no_other() {
        let doc = parse("x = [\n  1 # one\n  # between\n  , # comma\n  2\n  , # last\n]\n").unwrap();
        let Value::Array(a) = &doc.sections[0].body[0].node.value else { panic!() };
        assert_eq!(a.elems[0].comment, Some("# one"));
        assert_eq!(a.elems[1].lead, vec![Trivia::Comment("# between"), Trivia::Comment("# comma")]);
        // With nothing after the element but the line break, the comma's comment trails it.
        assert_eq!(a.elems[1].comment, Some("# last"));
        assert!(a.tail.is_empty());
        // A comment before the last comma, another after it: the second goes before `]`.
        let doc = parse("x = [\n  1 # one\n  , # last\n]\n").unwrap();
        let Value::Array(a) = &doc.sections[0].body[0].node.value else { panic!() };
        assert_eq!(a.elems[0].comment, Some("# one"));
        assert_eq!(a.tail, vec![Trivia::Comment("# last")]);
        assert!(a.trailing_comma);
    }

    #[test]
    fn keys_keep_their_raw_parts_and_scalars_their_spelling() {
        let doc = parse("a . \"b.c\" = 0x1F\nd = 1979-05-27 07:32:00Z\n").unwrap();
        let body = &doc.sections[0].body;
        assert_eq!(body[0].node.key.parts().collect::<Vec<_>>(), vec!["a", "\"b.c\""]);
        assert!(matches!(body[0].node.value, Value::Atom("0x1F")));
        assert!(matches!(body[1].node.value, Value::Atom("1979-05-27 07:32:00Z")));
    }

    #[test]
    fn plain_names_need_no_decoding() {
        assert_eq!(plain_name("id"), Some("id"));
        assert_eq!(plain_name("\"id\""), Some("id"));
        assert_eq!(plain_name("'id'"), Some("id"));
        assert_eq!(plain_name("\"i\\u0064\""), None);
        assert_eq!(plain_name("\"\"\"x\"\"\""), None);
    }

    #[test]
    fn broken_text_is_a_failure_not_a_panic() {
        for bad in ["a = ", "[a", "a = [1,", "a = {", "= 1", "a = [,]", "[[a]] x"] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
