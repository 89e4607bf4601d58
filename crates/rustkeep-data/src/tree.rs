//! The document tree that lowering walks: one TOML file's tables, arrays and scalars with the byte
//! span of every key and value.
//!
//! [`read`] builds it in one of two ways. [`fast`] takes the tokens of the one reader's scanner
//! ([`crate::syntax::scan`]) straight into the tree, in the same single pass; the scanner knows the
//! common shapes of mod data (bare and quoted keys, headers and arrays of tables, dotted keys,
//! strings, decimal numbers, booleans, arrays, inline tables) and gives up on anything else — a
//! syntax error, a date, a hexadecimal number, an unusual escape, a very deep table — as the tree
//! does on a duplicate key or a very wide table. Whatever they give up on, and only that, is read
//! by the `toml` crate's recoverable reader, whose document is then converted; that path also
//! yields the syntax errors. Both paths give the same tree for every text the fast one accepts, spans
//! included (a test holds them together on the official TOML suite, every file of the repository
//! and mutations of them), so the diagnostics never depend on which one ran.
//!
//! Spans are kept as `u32` pairs; a text of 4 GiB or more always takes the `toml` path.

use std::borrow::Cow;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::text::Span;

mod fallback;
mod fast;
pub mod recover;

pub use fallback::{parse_toml, scalar_errors};

/// A key of a table: its name, decoded, and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Key<'i> {
    name: Cow<'i, str>,
    start: u32,
    end: u32,
}

impl<'i> Key<'i> {
    fn new(name: Cow<'i, str>, span: Span) -> Key<'i> {
        Key { name, start: span.start as u32, end: span.end as u32 }
    }

    pub fn get_ref(&self) -> &Cow<'i, str> {
        &self.name
    }

    pub fn span(&self) -> Span {
        self.start as usize..self.end as usize
    }
}

/// A value and where it is written: a scalar's token, an array's or inline table's brackets, a
/// header's brackets for the table (or array of tables) it opens, the key for a table that is only
/// named on the way to another.
#[derive(Clone, Debug, PartialEq)]
pub struct Node<'i> {
    start: u32,
    end: u32,
    val: Val<'i>,
}

impl<'i> Node<'i> {
    fn new(span: Span, val: Val<'i>) -> Node<'i> {
        Node { start: span.start as u32, end: span.end as u32, val }
    }

    pub fn get_ref(&self) -> &Val<'i> {
        &self.val
    }

    pub fn span(&self) -> Span {
        self.start as usize..self.end as usize
    }
}

/// An integer as read: its value when it fits in 64 bits, and as a float when it is still a
/// number beyond that (a syntax error the reader reports, but lowering still sees a number).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Int {
    pub value: Option<i64>,
    pub approx: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Val<'i> {
    String(Cow<'i, str>),
    Integer(Int),
    /// `None` for a float the reader refused.
    Float(Option<f64>),
    Boolean(bool),
    /// As written (no field of mod data is a date; only scenarios' payloads echo one).
    Datetime(String),
    Array(Array<'i>),
    Table(Table<'i>),
}

/// An array's elements; `of_tables` for one made by `[[…]]` headers.
#[derive(Clone, Debug, Default)]
pub struct Array<'i> {
    items: Vec<Node<'i>>,
    of_tables: bool,
}

/// Arrays compare by their elements, as tables do by their entries.
impl PartialEq for Array<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items
    }
}

impl<'i> std::ops::Deref for Array<'i> {
    type Target = [Node<'i>];
    fn deref(&self) -> &[Node<'i>] {
        &self.items
    }
}

/// A table's entries in the order they were first written. The flags are the reader's: a table
/// only named on the way to another (`implicit`), made by dotted keys (`dotted`), written inline
/// or made inside an inline table (`inline`).
#[derive(Clone, Debug, Default)]
pub struct Table<'i> {
    entries: Vec<(Key<'i>, Node<'i>)>,
    implicit: bool,
    dotted: bool,
    inline: bool,
}

/// Tables compare by their entries: the flags only matter while a document is read.
impl PartialEq for Table<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl<'i> Table<'i> {
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Key<'i>, &Node<'i>)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Key<'i>> {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl ExactSizeIterator<Item = &Node<'i>> {
        self.entries.iter().map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn get(&self, name: &str) -> Option<&Node<'i>> {
        self.entries.iter().find(|(k, _)| k.name == name).map(|(_, v)| v)
    }

    fn position(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|(k, _)| k.name == name)
    }

    /// The same table, no longer borrowing the text (for a text made while recovering).
    fn into_owned(self) -> Table<'static> {
        let entries =
            self.entries.into_iter().map(|(k, v)| (Key { name: Cow::Owned(k.name.into_owned()), start: k.start, end: k.end }, v.into_owned())).collect();
        Table { entries, implicit: self.implicit, dotted: self.dotted, inline: self.inline }
    }
}

impl Node<'_> {
    /// Moves every span of the node by `by` bytes: a node read from a part of a text, put back
    /// where that part stands.
    fn shift(&mut self, by: u32) {
        let mut stack = vec![self];
        while let Some(n) = stack.pop() {
            n.start += by;
            n.end += by;
            match &mut n.val {
                Val::Array(a) => stack.extend(a.items.iter_mut()),
                Val::Table(t) => {
                    for (k, v) in &mut t.entries {
                        k.start += by;
                        k.end += by;
                        stack.push(v);
                    }
                }
                _ => {}
            }
        }
    }

    fn into_owned(self) -> Node<'static> {
        let val = match self.val {
            Val::String(s) => Val::String(Cow::Owned(s.into_owned())),
            Val::Integer(i) => Val::Integer(i),
            Val::Float(f) => Val::Float(f),
            Val::Boolean(b) => Val::Boolean(b),
            Val::Datetime(d) => Val::Datetime(d),
            Val::Array(a) => Val::Array(Array { items: a.items.into_iter().map(Node::into_owned).collect(), of_tables: a.of_tables }),
            Val::Table(t) => Val::Table(t.into_owned()),
        };
        Node { start: self.start, end: self.end, val }
    }
}

/// One file read: the root table, the syntax errors, and the parts that could not be read.
pub struct Read<'i> {
    pub root: Table<'i>,
    pub errors: Vec<SyntaxError>,
    /// The sections left out of `root` (see [`recover`]); empty when nothing was.
    pub unreadable: Vec<recover::Unreadable>,
}

/// A syntax error: where, what, and for an opening that is never closed, where reading gave up.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
    pub related: Option<(Span, String)>,
    /// What was meant, when that is certain and the text was read that way: the span to replace
    /// and its replacement. Only a `[name]` header in a text that writes `name` as an array of
    /// tables elsewhere has one (`[[name]]`, see [`recover::misheaders`]).
    pub meant: Option<(Span, String)>,
}

impl SyntaxError {
    /// Where reading gave up, as the related place of the error's diagnostic in `file`.
    pub fn related_in(&self, file: crate::source::FileId) -> Option<crate::diag::Related> {
        let (span, message) = self.related.as_ref()?;
        Some(crate::diag::Related { message: message.clone(), loc: crate::diag::Loc { file, span: span.clone() } })
    }
}

/// Reads `text` (after its byte-order mark, if any, was taken off): the fast reader when it
/// accepts the text, else the `toml` crate's recoverable one; when that finds syntax errors, the
/// sections that do not read are left out and reported one error each ([`recover`]).
pub fn read(text: &str) -> Read<'_> {
    if let Some(root) = fast::parse(text) {
        return Read { root, errors: Vec::new(), unreadable: Vec::new() };
    }
    let plain = read_with_toml(text);
    if plain.errors.is_empty() {
        return plain;
    }
    if let Some(meant) = read_as_meant(text) {
        return meant;
    }
    recovered(text, plain, &[])
}

/// The message of a byte that is not UTF-8.
pub const NOT_UTF8: &str = "invalid UTF-8: TOML files must be UTF-8 encoded";

/// Reads a text whose bytes that were not UTF-8 were decoded as U+FFFD: the section of each such
/// byte is unreadable, reported at the byte, as a syntax error's section is ([`recover`]). A text
/// recovery cannot read comes back without a root and with the first byte as its one error.
pub fn read_not_utf8(text: &str) -> Read<'_> {
    let plain = read_with_toml(text);
    let bad: Vec<usize> = text.match_indices(char::REPLACEMENT_CHARACTER).map(|(at, _)| at).collect();
    let read = recovered(text, plain, &bad);
    if read.unreadable.is_empty() {
        let span = bad.first().map_or(0..0, |at| *at..at + 1);
        return Read {
            root: Table::default(),
            errors: vec![SyntaxError { span, message: NOT_UTF8.into(), related: None, meant: None }],
            unreadable: Vec::new(),
        };
    }
    read
}

/// `plain`, the text's reading with its errors, recovered from them ([`recover`]); `plain` itself
/// when recovery does not work out.
fn recovered<'t>(text: &'t str, plain: Read<'t>, not_utf8: &[usize]) -> Read<'t> {
    let errors: Vec<(Span, String)> = plain.errors.iter().map(|e| (e.span.clone(), e.message.clone())).collect();
    let Some(rec) = recover::recover(text, &errors, not_utf8) else { return plain };
    drop(plain);
    let again = read_with_toml(&rec.text);
    // The blanked text reads by construction; its scalar errors (an integer beyond 64 bits) are
    // still the text's own.
    let mut errors = rec.errors;
    errors.extend(again.errors);
    errors.sort_by_key(|e| (e.span.start, e.span.end));
    Read { root: again.root.into_owned(), errors, unreadable: rec.unreadable }
}

/// Reads a text that writes a key both as an array of tables (`[[items]]`) and with a table
/// header (`[items]`), which TOML refuses with a "duplicate key" at whichever of the two comes
/// second — often a correct line. The `[[items]]` headers say what the key is, so the `[items]`
/// header is the mistake: it is reported once, at its key, with `[[items]]` as what was meant,
/// and the entry under it (its sub-tables included) is read as that entry, in its place in the
/// array. The rest of the text is read as usual, recovery included. `None` when that does not
/// work out (the entry itself does not read, or the `[[items]]` headers are in an unreadable
/// part): the text is then read as any other with errors.
fn read_as_meant(text: &str) -> Option<Read<'static>> {
    let found = recover::misheaders(text);
    if found.is_empty() || u32::try_from(text.len()).is_err() {
        return None;
    }
    let mut rest = text.as_bytes().to_vec();
    for m in &found {
        rest[m.entry.clone()].iter_mut().filter(|b| **b != b'\n').for_each(|b| *b = b' ');
    }
    // Only whole lines and ASCII spaces were written.
    let rest = String::from_utf8(rest).ok()?;
    let read_rest = read(&rest);
    if !read_rest.errors.is_empty() && read_rest.unreadable.is_empty() {
        return None;
    }
    let mut root = read_rest.root.into_owned();
    let mut errors = read_rest.errors;
    let mut unreadable = read_rest.unreadable;
    // A part left unreadable above an entry read here ends where the entry starts (blanked, it
    // looked like more of that part). `found` is in the order of the text.
    for u in &mut unreadable {
        let next = found.partition_point(|m| m.entry.start <= u.span.start);
        if let Some(m) = found.get(next).filter(|m| m.entry.start < u.span.end) {
            u.span.end = m.entry.start;
        }
    }
    let newlines: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
    let mut grafted: Vec<usize> = Vec::new();
    for m in &found {
        // The entry alone, read from its own part of the text and moved back to its place.
        let read_alone = read_with_toml(&text[m.entry.clone()]);
        if !read_alone.errors.is_empty() {
            return None;
        }
        let mut alone_root = read_alone.root;
        let at = alone_root.position(&m.name)?;
        let (_, node) = alone_root.entries.swap_remove(at);
        if !matches!(node.val, Val::Table(_)) {
            return None;
        }
        let mut node = node.into_owned();
        node.shift(m.entry.start as u32);
        let i = root.position(&m.name)?;
        let Val::Array(array) = &mut root.entries[i].1.val else { return None };
        array.items.push(node);
        grafted.push(i);
        let name = &m.name;
        let line = newlines.partition_point(|&n| n < m.array.start) + 1;
        errors.push(SyntaxError {
            span: m.key.clone(),
            message: format!("`[{name}]` defines `{name}` as a table, but this file writes `{name}` as an array of tables (`[[{name}]]`, line {line}): a key is defined once"),
            related: Some((m.array.clone(), format!("`{name}` is an array of tables here"))),
            meant: Some((m.header.clone(), format!("[[{name}]]"))),
        });
    }
    // Each entry in its place among the others.
    grafted.sort_unstable();
    grafted.dedup();
    for i in grafted {
        if let Val::Array(array) = &mut root.entries[i].1.val {
            array.items.sort_by_key(|n| n.start);
        }
    }
    errors.sort_by_key(|e| (e.span.start, e.span.end));
    Some(Read { root, errors, unreadable })
}

/// Reads `text` with the `toml` crate's recoverable reader only, whatever the fast one would do.
pub fn read_with_toml(text: &str) -> Read<'_> {
    let (root, errors) = parse_toml(text);
    let mut out: Vec<SyntaxError> =
        errors.iter().map(|e| SyntaxError { span: e.span().unwrap_or(0..0), message: e.message().trim().to_string(), related: None, meant: None }).collect();
    out.extend(scalar_errors(text, &root).into_iter().map(|(span, message)| SyntaxError { span, message, related: None, meant: None }));
    Read { root: table_from_toml(root.into_inner()), errors: out, unreadable: Vec::new() }
}

/// Reads `text` with the fast reader only: `None` where it gives up.
pub fn read_fast(text: &str) -> Option<Table<'_>> {
    fast::parse(text)
}

/// The event stream of `text`, as [`crate::syntax::parse_into`] gives it, and whether
/// [`read_fast`] reads the text, both from one scan. `true` says that the `toml` reader accepts
/// the text; `false` says nothing.
pub fn events_and_read_fast(text: &str, events: &mut Vec<crate::syntax::Event>) -> (Vec<crate::syntax::Error>, bool) {
    fast::events_and_parse(text, events)
}

fn table_from_toml(t: DeTable<'_>) -> Table<'_> {
    Table {
        entries: t.into_iter().map(|(k, v)| (Key::new(k.get_ref().clone(), k.span()), node_from_toml(v))).collect(),
        implicit: false,
        dotted: false,
        inline: false,
    }
}

fn node_from_toml(v: Spanned<DeValue<'_>>) -> Node<'_> {
    let span = v.span();
    let val = match v.into_inner() {
        DeValue::String(s) => Val::String(s),
        DeValue::Integer(i) => {
            let value = i64::from_str_radix(i.as_str(), i.radix()).ok();
            // Beyond i64: still a number, just a very large one.
            Val::Integer(Int { value, approx: value.map(|n| n as f64).or_else(|| i.as_str().parse::<f64>().ok()) })
        }
        DeValue::Float(f) => Val::Float(f.as_str().parse::<f64>().ok()),
        DeValue::Boolean(b) => Val::Boolean(b),
        DeValue::Datetime(d) => Val::Datetime(d.to_string()),
        DeValue::Array(a) => Val::Array(Array { items: a.into_iter().map(node_from_toml).collect(), of_tables: false }),
        DeValue::Table(t) => Val::Table(table_from_toml(t)),
    };
    Node::new(span, val)
}
