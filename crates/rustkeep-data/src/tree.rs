//! The document tree that lowering walks: one TOML file's tables, arrays and scalars with the byte
//! span of every key and value.
//!
//! [`read`] builds it in one of two ways. [`fast`] reads the text in a single pass straight into
//! the tree; it knows the common shapes of mod data (bare and quoted keys, headers and arrays of
//! tables, dotted keys, strings, decimal numbers, booleans, arrays, inline tables) and gives up on
//! anything else — a syntax error, a duplicate key, a date, a hexadecimal number, an unusual
//! escape, a very deep or very wide table. Whatever it gives up on, and only that, is read by the
//! `toml` crate's recoverable reader, whose document is then converted; that path also yields the
//! syntax errors. Both paths give the same tree for every text the fast one accepts, spans
//! included (a test holds them together on the official TOML suite, every file of the repository
//! and mutations of them), so the diagnostics never depend on which one ran.
//!
//! Spans are kept as `u32` pairs; a text of 4 GiB or more always takes the `toml` path.

use std::borrow::Cow;

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::text::Span;

mod fast;
pub mod lex;

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
}

/// One file read: the root table and the syntax errors, each with its span and message.
pub struct Read<'i> {
    pub root: Table<'i>,
    pub errors: Vec<(Span, String)>,
}

/// Reads `text` (after its byte-order mark, if any, was taken off): the fast reader when it
/// accepts the text, else the `toml` crate's recoverable one.
pub fn read(text: &str) -> Read<'_> {
    if let Some(root) = fast::parse(text) {
        return Read { root, errors: Vec::new() };
    }
    read_with_toml(text)
}

/// Reads `text` with the `toml` crate's recoverable reader only, whatever the fast one would do.
pub fn read_with_toml(text: &str) -> Read<'_> {
    let (root, errors) = crate::lower::parse_toml(text);
    let mut out: Vec<(Span, String)> = errors.iter().map(|e| (e.span().unwrap_or(0..0), e.message().trim().to_string())).collect();
    out.extend(crate::lower::scalar_errors(text, &root));
    Read { root: table_from_toml(root.into_inner()), errors: out }
}

/// Reads `text` with the fast reader only: `None` where it gives up.
pub fn read_fast(text: &str) -> Option<Table<'_>> {
    fast::parse(text)
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
