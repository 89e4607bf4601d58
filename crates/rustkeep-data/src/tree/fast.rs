//! The document mode of the one reader ([`crate::syntax::scan`]): the scanner's tokens straight
//! into the [`Table`] tree, with the `toml` crate's table rules and spans. Besides what the
//! scanner gives up on, it stops (`None`) at any table-rule error, at dotted keys of more than
//! [`MAX_PATH`] parts and at tables of more than [`MAX_KEYS`] keys (which keeps every key lookup a
//! short scan, whatever the input). The caller then reads the text with the `toml` crate.
//!
//! The table rules are the reader's (`toml`'s `de::parser::document` and `inline_table`): a
//! section's table is built apart and put in place when the next header comes; `[a]` may open a
//! table that was only named on the way to another (`[a.b]` before it), which then moves to the
//! end of its parent; dotted keys and headers never extend each other's tables; inline tables
//! are closed.

use std::borrow::Cow;

use super::{Array, Int, Key, Node, Table, Val};
use crate::syntax::lex::Number;
use crate::syntax::{self, scan, Encoding, Event, Scalar, Sink};
use crate::text::Span;

/// Keys of more parts than this are left to the `toml` reader.
pub const MAX_PATH: usize = 32;
/// Tables of more keys than this are left to the `toml` reader, so that finding a key is a scan
/// of at most this many names.
pub const MAX_KEYS: usize = 128;

pub(super) fn parse(text: &str) -> Option<Table<'_>> {
    let mut b = Build::default();
    scan::scan(text, &mut b).then_some(())?;
    b.end()
}

/// The event stream of `text` and, from the same scan, whether this mode reads it.
pub(super) fn events_and_parse(text: &str, events: &mut Vec<Event>) -> (Vec<syntax::Error>, bool) {
    let (errors, build) = syntax::parse_into_with(text, events, Build::default());
    (errors, build.is_some_and(|b| b.end().is_some()))
}

struct Header<'i> {
    path: Vec<Key<'i>>,
    key: Key<'i>,
    span: Span,
    array: bool,
}

/// An array or inline table being read: where it opens, and what it holds so far (an inline
/// table also the key of the pair being read in it).
enum Frame<'i> {
    Array(usize, Vec<Node<'i>>),
    Inline(usize, Table<'i>, Vec<Key<'i>>),
}

/// The tree as it is built: the root, the section being read, the key being read at the top
/// level (a header's or a pair's), the open arrays and inline tables, and the key buffers of
/// closed inline tables, kept for the next ones (a pack opens one inline table per loot entry,
/// trigger and attribute set).
#[derive(Default)]
struct Build<'i> {
    root: Table<'i>,
    section: Option<(Header<'i>, Table<'i>)>,
    keys: Vec<Key<'i>>,
    header: Option<usize>,
    frames: Vec<Frame<'i>>,
    spare_keys: Vec<Vec<Key<'i>>>,
}

impl<'i> Build<'i> {
    fn end(mut self) -> Option<Table<'i>> {
        if let Some((h, t)) = self.section.take() {
            finish(&mut self.root, h, t)?;
        }
        Some(self.root)
    }

    /// A value read whole: an element of the array it is in, or the value of the pair being read.
    fn value(&mut self, node: Node<'i>) -> Option<()> {
        match self.frames.last_mut() {
            Some(Frame::Array(_, items)) => {
                items.push(node);
                Some(())
            }
            Some(Frame::Inline(_, table, keys)) => {
                let (path, key) = split(keys)?;
                let parent = descend_inline(table, &path)?;
                if parent.dotted == path.is_empty() {
                    return None;
                }
                insert(parent, key, node)
            }
            None => {
                let (path, key) = split(&mut self.keys)?;
                let table = match self.section.as_mut() {
                    Some((_, t)) => t,
                    None => &mut self.root,
                };
                let dotted = !path.is_empty();
                let parent = descend(table, &path, dotted)?;
                if dotted && !parent.implicit {
                    return None;
                }
                insert(parent, key, node)
            }
        }
    }
}

/// A key read whole, taken from `keys`: the parts before the last one, and the last one. A key of
/// one part (most of them) leaves `keys` its buffer for the next one.
fn split<'i>(keys: &mut Vec<Key<'i>>) -> Option<(Vec<Key<'i>>, Key<'i>)> {
    let key = keys.pop()?;
    let path = if keys.is_empty() { Vec::new() } else { std::mem::take(keys) };
    Some((path, key))
}

impl<'i> Sink<'i> for Build<'i> {
    fn header_open(&mut self, _array: bool, span: Span) -> Option<()> {
        self.header = Some(span.start);
        Some(())
    }

    fn header_close(&mut self, array: bool, span: Span) -> Option<()> {
        let open = self.header.take()?;
        let (path, key) = split(&mut self.keys)?;
        if let Some((h, t)) = self.section.take() {
            finish(&mut self.root, h, t)?;
        }
        let h = Header { path, key, span: open..span.end, array };
        let t = start(&mut self.root, &h)?;
        self.section = Some((h, t));
        Some(())
    }

    fn key(&mut self, name: Cow<'i, str>, _encoding: Option<Encoding>, span: Span) -> Option<()> {
        let keys = match self.frames.last_mut() {
            Some(Frame::Inline(_, _, keys)) if self.header.is_none() => keys,
            Some(Frame::Array(..)) => return None,
            _ => &mut self.keys,
        };
        keys.push(Key::new(name, span));
        (keys.len() <= MAX_PATH).then_some(())
    }

    fn scalar(&mut self, value: Scalar<'i>, _encoding: Option<Encoding>, span: Span) -> Option<()> {
        let val = match value {
            Scalar::String(s) => Val::String(s),
            Scalar::Boolean(b) => Val::Boolean(b),
            Scalar::Number(Number::Int(n)) => Val::Integer(Int { value: Some(n), approx: Some(n as f64) }),
            Scalar::Number(Number::Float(x)) => Val::Float(Some(x)),
        };
        self.value(Node::new(span, val))
    }

    fn open(&mut self, table: bool, span: Span) -> Option<()> {
        self.frames.push(if table {
            Frame::Inline(span.start, Table { inline: true, ..Table::default() }, self.spare_keys.pop().unwrap_or_default())
        } else {
            Frame::Array(span.start, Vec::new())
        });
        Some(())
    }

    fn close(&mut self, _table: bool, span: Span) -> Option<()> {
        let node = match self.frames.pop()? {
            Frame::Array(start, items) => Node::new(start..span.end, Val::Array(Array { items, of_tables: false })),
            Frame::Inline(start, table, mut keys) => {
                keys.clear();
                self.spare_keys.push(keys);
                Node::new(start..span.end, Val::Table(table))
            }
        };
        self.value(node)
    }
}

fn insert<'i>(table: &mut Table<'i>, key: Key<'i>, value: Node<'i>) -> Option<()> {
    if table.entries.len() >= MAX_KEYS || table.position(&key.name).is_some() {
        return None;
    }
    table.entries.push((key, value));
    Some(())
}

/// The index of `key` in `table`, which gets a new implicit table under that name if it has none.
fn child<'i>(table: &mut Table<'i>, key: &Key<'i>, dotted: bool, inline: bool) -> Option<usize> {
    if let Some(i) = table.position(&key.name) {
        return Some(i);
    }
    if table.entries.len() >= MAX_KEYS {
        return None;
    }
    let made = Table { entries: Vec::new(), implicit: true, dotted, inline };
    table.entries.push((key.clone(), Node::new(key.span(), Val::Table(made))));
    Some(table.entries.len() - 1)
}

/// Follows `path` from `table` the way a header (`dotted` false) or a dotted key does.
fn descend<'t, 'i>(mut table: &'t mut Table<'i>, path: &[Key<'i>], dotted: bool) -> Option<&'t mut Table<'i>> {
    for key in path {
        let i = child(table, key, dotted, false)?;
        table = match &mut table.entries[i].1.val {
            Val::Array(a) if a.of_tables => match a.items.last_mut().map(|n| &mut n.val) {
                Some(Val::Table(t)) => t,
                _ => return None,
            },
            Val::Table(t) => {
                if t.inline || (dotted && !t.implicit) {
                    return None;
                }
                if dotted {
                    t.dotted = true;
                }
                t
            }
            _ => return None,
        };
    }
    Some(table)
}

/// The same inside an inline table: only through tables its own dotted keys made.
fn descend_inline<'t, 'i>(mut table: &'t mut Table<'i>, path: &[Key<'i>]) -> Option<&'t mut Table<'i>> {
    for key in path {
        let i = child(table, key, true, true)?;
        table = match &mut table.entries[i].1.val {
            Val::Table(t) if t.implicit => t,
            _ => return None,
        };
    }
    Some(table)
}

/// The table a header starts: empty, or the one `[a.b]` made on its way when `[a]` comes after.
fn start<'i>(root: &mut Table<'i>, h: &Header<'i>) -> Option<Table<'i>> {
    let mut table = Table::default();
    if !h.array {
        let parent = descend(root, &h.path, false)?;
        if let Some(i) = parent.position(&h.key.name) {
            match parent.entries.remove(i).1.val {
                Val::Table(t) if t.implicit && !t.dotted => table = t,
                _ => return None,
            }
        }
    }
    table.implicit = false;
    table.dotted = false;
    Some(table)
}

/// Puts a section's table where its header says, once the section ends.
fn finish<'i>(root: &mut Table<'i>, h: Header<'i>, table: Table<'i>) -> Option<()> {
    let node = Node::new(h.span.clone(), Val::Table(table));
    let parent = descend(root, &h.path, false)?;
    if !h.array {
        return insert(parent, h.key, node);
    }
    let i = match parent.position(&h.key.name) {
        Some(i) => i,
        None => {
            insert(parent, h.key, Node::new(h.span, Val::Array(Array { items: Vec::new(), of_tables: true })))?;
            parent.entries.len() - 1
        }
    };
    match &mut parent.entries[i].1.val {
        Val::Array(a) if a.of_tables => {
            a.items.push(node);
            Some(())
        }
        _ => None,
    }
}
