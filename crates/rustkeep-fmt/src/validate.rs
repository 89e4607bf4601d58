//! A fast validity check over the syntax tree, for `rustkeep fmt --check`: whether the `toml`
//! reader (what `rustkeep check` uses) would accept the text, without building its document.
//!
//! The syntax itself was checked while the tree was built (the same lexer, event parser,
//! whitespace validation and nesting limit as the `toml` reader). What is left is checked here the
//! way the reader checks it: keys and scalars decode (escapes, numbers, dates, 64-bit integers),
//! and the table rules hold — no key defined twice, no table opened twice, dotted keys and headers
//! not mixed on one table, inline tables and plain arrays never extended. The rules mirror the
//! reader's own (`toml`'s `de::parser::document` and `inline_table`): one flag each for
//! *implicit* (only named on the way to another table), *dotted* (made by dotted keys) and
//! *inline*.
//!
//! A `false` here is always confirmed by the `toml` reader itself, which also gives the message;
//! a test keeps the two in agreement on the official TOML suite and every file of the repository.

use std::borrow::Cow;

use rustkeep_data::hash::FxHashMap;
use toml_parser::decoder::{Encoding, ScalarKind};
use toml_parser::{Raw, Span};

use crate::cst::{Container, Doc, Key, KeyVal, Value};

#[derive(Default)]
struct Table<'a> {
    implicit: bool,
    dotted: bool,
    inline: bool,
    entries: Entries<'a>,
}

/// A table's names in the order they came. Most tables have a handful, found by a short scan;
/// past [`Entries::SCAN`] names a hash index is kept as well, so a hostile table of a million
/// keys stays linear.
#[derive(Default)]
struct Entries<'a> {
    list: Vec<(Cow<'a, str>, Node<'a>)>,
    index: Option<FxHashMap<Cow<'a, str>, usize>>,
}

impl<'a> Entries<'a> {
    const SCAN: usize = 16;

    fn position(&self, name: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(name).copied(),
            None => self.list.iter().position(|(n, _)| n == name),
        }
    }

    fn push(&mut self, name: Cow<'a, str>, node: Node<'a>) -> &mut Node<'a> {
        let at = self.list.len();
        if let Some(index) = &mut self.index {
            index.insert(name.clone(), at);
        } else if at == Self::SCAN {
            let mut index: FxHashMap<Cow<'a, str>, usize> = self.list.iter().enumerate().map(|(i, (n, _))| (n.clone(), i)).collect();
            index.insert(name.clone(), at);
            self.index = Some(index);
        }
        self.list.push((name, node));
        &mut self.list[at].1
    }

    /// The node under `name`, made by `make` if there is none.
    fn get_or_insert_with(&mut self, name: &Cow<'a, str>, make: impl FnOnce() -> Node<'a>) -> &mut Node<'a> {
        match self.position(name) {
            Some(i) => &mut self.list[i].1,
            None => self.push(name.clone(), make()),
        }
    }

    /// Adds `node` under a new `name`; `None` if the name is taken.
    fn insert_new(&mut self, name: Cow<'a, str>, node: Node<'a>) -> Option<&mut Node<'a>> {
        if self.position(&name).is_some() {
            return None;
        }
        Some(self.push(name, node))
    }
}

enum Node<'a> {
    Table(Table<'a>),
    /// An array of tables: only its last element can still be reached.
    Tables(Table<'a>),
    /// A scalar or a plain array.
    Value,
}

fn encoding(raw: &str) -> Option<Encoding> {
    if raw.starts_with("\"\"\"") {
        Some(Encoding::MlBasicString)
    } else if raw.starts_with("'''") {
        Some(Encoding::MlLiteralString)
    } else if raw.starts_with('"') {
        Some(Encoding::BasicString)
    } else if raw.starts_with('\'') {
        Some(Encoding::LiteralString)
    } else {
        None
    }
}

fn raw(text: &str) -> Raw<'_> {
    Raw::new_unchecked(text, encoding(text), Span::new_unchecked(0, text.len()))
}

/// The name a key part stands for, if it decodes.
fn key_name(part: &str) -> Option<Cow<'_, str>> {
    let mut out: Cow<'_, str> = Cow::Borrowed("");
    let mut ok = true;
    raw(part).decode_key(&mut out, &mut |_| ok = false);
    ok.then_some(out)
}

/// The names of a key: those of the tables on its way (no allocation for a plain key) and its own.
fn key_names<'a>(key: &Key<'a>) -> Option<(Vec<Cow<'a, str>>, Cow<'a, str>)> {
    let n = key.len();
    let mut path = Vec::with_capacity(n - 1);
    let mut last = None;
    for (i, part) in key.parts().enumerate() {
        let name = key_name(part)?;
        if i + 1 == n {
            last = Some(name);
        } else {
            path.push(name);
        }
    }
    Some((path, last?))
}

/// Whether a scalar decodes to a value the reader keeps.
fn scalar_ok(atom: &str) -> bool {
    let mut out: Cow<'_, str> = Cow::Borrowed("");
    let mut ok = true;
    let kind = raw(atom).decode_scalar(&mut out, &mut |_| ok = false);
    ok && match kind {
        ScalarKind::DateTime => out.parse::<toml::value::Datetime>().is_ok(),
        ScalarKind::Integer(radix) => i64::from_str_radix(&out, radix.value()).is_ok(),
        ScalarKind::Float => out.parse::<f64>().is_ok(),
        ScalarKind::String | ScalarKind::Boolean(_) => true,
    }
}

/// Follows `path` from `table` the way a header or a dotted key does, making implicit tables.
fn descend<'t, 'a>(mut table: &'t mut Table<'a>, path: &[Cow<'a, str>], dotted: bool) -> Option<&'t mut Table<'a>> {
    for name in path {
        let node = table.entries.get_or_insert_with(name, || Node::Table(Table { implicit: true, dotted, ..Table::default() }));
        table = match node {
            Node::Tables(last) => last,
            Node::Value => return None,
            Node::Table(t) => {
                if t.inline {
                    return None;
                }
                if dotted && t.implicit {
                    t.dotted = true;
                }
                if dotted && !t.implicit {
                    return None;
                }
                t
            }
        };
    }
    Some(table)
}

/// The same inside an inline table: only tables this inline table's own dotted keys made.
fn descend_inline<'t, 'a>(mut table: &'t mut Table<'a>, path: &[Cow<'a, str>]) -> Option<&'t mut Table<'a>> {
    for name in path {
        let node = table.entries.get_or_insert_with(name, || Node::Table(Table { implicit: true, dotted: true, inline: true, ..Table::default() }));
        table = match node {
            Node::Table(t) if t.implicit => t,
            _ => return None,
        };
    }
    Some(table)
}

fn value_node<'a>(v: &Value<'a>) -> Option<Node<'a>> {
    match v {
        Value::Atom(a) => scalar_ok(a).then_some(Node::Value),
        Value::Array(a) => {
            for e in &a.elems {
                value_node(&e.node)?;
            }
            Some(Node::Value)
        }
        Value::Table(t) => inline_table(t).map(Node::Table),
    }
}

fn inline_table<'a>(c: &Container<'a, KeyVal<'a>>) -> Option<Table<'a>> {
    let mut result = Table { inline: true, ..Table::default() };
    for e in &c.elems {
        let (names, last) = key_names(&e.node.key)?;
        let parent = descend_inline(&mut result, &names)?;
        if parent.dotted == names.is_empty() {
            return None;
        }
        let node = value_node(&e.node.value)?;
        parent.entries.insert_new(last, node)?;
    }
    Some(result)
}

fn keyval<'a>(table: &mut Table<'a>, kv: &KeyVal<'a>) -> Option<()> {
    let (names, last) = key_names(&kv.key)?;
    let dotted = !names.is_empty();
    let parent = descend(table, &names, dotted)?;
    if dotted && !parent.implicit {
        return None;
    }
    let node = value_node(&kv.value)?;
    parent.entries.insert_new(last, node).map(|_| ())
}

/// Opens the table a header names.
fn open<'t, 'a>(root: &'t mut Table<'a>, key: &Key<'a>, array: bool) -> Option<&'t mut Table<'a>> {
    let (names, last) = key_names(key)?;
    let parent = descend(root, &names, false)?;
    match parent.entries.position(&last) {
        None => match parent.entries.push(last, if array { Node::Tables(Table::default()) } else { Node::Table(Table::default()) }) {
            Node::Table(t) | Node::Tables(t) => Some(t),
            Node::Value => None,
        },
        Some(i) => match &mut parent.entries.list[i].1 {
            // Each `[[…]]` starts a new element.
            Node::Tables(t) if array => {
                *t = Table::default();
                Some(t)
            }
            // A table named before only on the way to another one may be opened once.
            Node::Table(t) if !array && t.implicit && !t.dotted => {
                t.implicit = false;
                Some(t)
            }
            _ => None,
        },
    }
}

/// Whether the `toml` reader accepts the text `doc` was parsed from (`text`, without its first
/// byte-order mark).
pub fn is_valid(text: &str, doc: &Doc<'_>) -> bool {
    // A second byte-order mark.
    if text.starts_with('\u{feff}') {
        return false;
    }
    let mut root = Table::default();
    for section in &doc.sections {
        let table = match &section.header {
            None => &mut root,
            Some(h) => match open(&mut root, &h.key, h.array) {
                Some(t) => t,
                None => return false,
            },
        };
        for e in &section.body {
            if keyval(table, &e.node).is_none() {
                return false;
            }
        }
    }
    true
}
