//! The single-pass reader: bytes straight into the [`Table`] tree, with the `toml` crate's table
//! rules and spans, for the shapes mod data is written in. It gives up (`None`) on anything it
//! does not know for certain the `toml` reader would accept in exactly this way: any syntax or
//! table-rule error, dates and times, `inf` and `nan`, hexadecimal, octal and binary integers,
//! integers beyond 64 bits, escapes other than `\b \t \n \f \r \" \\ \u \U`, carriage returns
//! inside multi-line strings, nesting deeper than [`MAX_DEPTH`], dotted keys of more than
//! [`MAX_PATH`] parts and tables of more than [`MAX_KEYS`] keys (which keeps every key lookup a
//! short scan, whatever the input). The caller then reads the text with the `toml` crate.
//!
//! The table rules are the reader's (`toml`'s `de::parser::document` and `inline_table`): a
//! section's table is built apart and put in place when the next header comes; `[a]` may open a
//! table that was only named on the way to another (`[a.b]` before it), which then moves to the
//! end of its parent; dotted keys and headers never extend each other's tables; inline tables
//! are closed.

use std::borrow::Cow;

use super::lex::{self, is_bare, Cursor, Number};
use super::{Array, Int, Key, Node, Table, Val};
use crate::text::Span;

/// Arrays and inline tables nested deeper than this are left to the `toml` reader (its own limit
/// is 80).
pub const MAX_DEPTH: u32 = 64;
/// Keys of more parts than this are left to the `toml` reader.
pub const MAX_PATH: usize = 32;
/// Tables of more keys than this are left to the `toml` reader, so that finding a key is a scan
/// of at most this many names.
pub const MAX_KEYS: usize = 128;

pub(super) fn parse(text: &str) -> Option<Table<'_>> {
    if text.len() >= u32::MAX as usize || text.starts_with('\u{feff}') {
        return None;
    }
    Reader { text, b: text.as_bytes(), pos: 0, depth: 0 }.document()
}

struct Reader<'i> {
    text: &'i str,
    b: &'i [u8],
    pos: usize,
    depth: u32,
}

struct Header<'i> {
    path: Vec<Key<'i>>,
    key: Key<'i>,
    span: Span,
    array: bool,
}

impl Cursor for Reader<'_> {
    fn bytes(&self) -> &[u8] {
        self.b
    }
    fn pos(&self) -> usize {
        self.pos
    }
    fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }
}

impl<'i> Reader<'i> {
    fn document(mut self) -> Option<Table<'i>> {
        let mut root = Table::default();
        let mut section: Option<(Header<'i>, Table<'i>)> = None;
        loop {
            self.ws();
            match self.peek() {
                None => break,
                Some(b'\n' | b'\r') => {
                    if !self.newline() {
                        return None;
                    }
                }
                Some(b'#') => self.comment()?,
                Some(b'[') => {
                    if let Some((h, t)) = section.take() {
                        finish(&mut root, h, t)?;
                    }
                    let h = self.header()?;
                    self.line_end()?;
                    let t = start(&mut root, &h)?;
                    section = Some((h, t));
                }
                Some(_) => {
                    let table = match section.as_mut() {
                        Some((_, t)) => t,
                        None => &mut root,
                    };
                    self.keyval(table)?;
                    self.line_end()?;
                }
            }
        }
        if let Some((h, t)) = section {
            finish(&mut root, h, t)?;
        }
        Some(root)
    }

    fn header(&mut self) -> Option<Header<'i>> {
        let open = self.pos;
        self.pos += 1;
        let array = self.peek() == Some(b'[');
        if array {
            self.pos += 1;
        }
        self.ws();
        let (path, key) = self.key()?;
        self.ws();
        let close: &[u8] = if array { b"]]" } else { b"]" };
        if !self.at(close) {
            return None;
        }
        self.pos += close.len();
        Some(Header { path, key, span: open..self.pos, array })
    }

    /// A key: the parts before the last one, and the last one.
    fn key(&mut self) -> Option<(Vec<Key<'i>>, Key<'i>)> {
        let mut last = self.key_part()?;
        let mut path = Vec::new();
        loop {
            let before = self.pos;
            self.ws();
            if self.peek() != Some(b'.') {
                self.pos = before;
                return Some((path, last));
            }
            self.pos += 1;
            self.ws();
            let next = self.key_part()?;
            path.push(std::mem::replace(&mut last, next));
            if path.len() >= MAX_PATH {
                return None;
            }
        }
    }

    fn key_part(&mut self) -> Option<Key<'i>> {
        let start = self.pos;
        let name = match self.peek()? {
            b'"' if !self.at(b"\"\"\"") => self.scalar(lex::basic_string(self.text, self.pos))?,
            b'\'' if !self.at(b"'''") => self.scalar(lex::literal_string(self.text, self.pos))?,
            c if is_bare(c) => {
                while self.peek().is_some_and(is_bare) {
                    self.pos += 1;
                }
                Cow::Borrowed(&self.text[start..self.pos])
            }
            _ => return None,
        };
        Some(Key::new(name, start..self.pos))
    }

    /// `key = value` in a section's table.
    fn keyval(&mut self, table: &mut Table<'i>) -> Option<()> {
        let (path, key, value) = self.pair()?;
        let dotted = !path.is_empty();
        let parent = descend(table, &path, dotted)?;
        if dotted && !parent.implicit {
            return None;
        }
        insert(parent, key, value)
    }

    fn pair(&mut self) -> Option<(Vec<Key<'i>>, Key<'i>, Node<'i>)> {
        let (path, key) = self.key()?;
        self.ws();
        if self.peek() != Some(b'=') {
            return None;
        }
        self.pos += 1;
        self.ws();
        let value = self.value()?;
        Some((path, key, value))
    }

    fn value(&mut self) -> Option<Node<'i>> {
        let start = self.pos;
        let val = match self.peek()? {
            b'"' if self.at(b"\"\"\"") => Val::String(self.scalar(lex::multiline_string(self.text, self.pos, b'"'))?),
            b'"' => Val::String(self.scalar(lex::basic_string(self.text, self.pos))?),
            b'\'' if self.at(b"'''") => Val::String(self.scalar(lex::multiline_string(self.text, self.pos, b'\''))?),
            b'\'' => Val::String(self.scalar(lex::literal_string(self.text, self.pos))?),
            b'[' => Val::Array(self.array()?),
            b'{' => Val::Table(self.inline_table()?),
            b't' if self.at(b"true") => {
                self.pos += 4;
                Val::Boolean(true)
            }
            b'f' if self.at(b"false") => {
                self.pos += 5;
                Val::Boolean(false)
            }
            b'0'..=b'9' | b'+' | b'-' => {
                let end = lex::token_end(self.b, self.pos);
                let n = lex::number(&self.text[self.pos..end])?;
                self.pos = end;
                match n {
                    Number::Int(n) => Val::Integer(Int { value: Some(n), approx: Some(n as f64) }),
                    Number::Float(x) => Val::Float(Some(x)),
                }
            }
            _ => return None,
        };
        Some(Node::new(start..self.pos, val))
    }

    /// A scalar that [`lex`] read from here: its value, with the position moved past it.
    fn scalar<T>(&mut self, read: Option<(T, usize)>) -> Option<T> {
        let (value, end) = read?;
        self.pos = end;
        Some(value)
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    fn array(&mut self) -> Option<Array<'i>> {
        self.enter()?;
        self.pos += 1;
        let mut items = Vec::new();
        loop {
            self.gap()?;
            if self.peek() == Some(b']') {
                self.pos += 1;
                break;
            }
            items.push(self.value()?);
            self.gap()?;
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    break;
                }
                _ => return None,
            }
        }
        self.depth -= 1;
        Some(Array { items, of_tables: false })
    }

    fn inline_table(&mut self) -> Option<Table<'i>> {
        self.enter()?;
        self.pos += 1;
        let mut table = Table { inline: true, ..Table::default() };
        loop {
            self.gap()?;
            if self.peek() == Some(b'}') {
                self.pos += 1;
                break;
            }
            let (path, key, value) = self.pair()?;
            let parent = descend_inline(&mut table, &path)?;
            if parent.dotted == path.is_empty() {
                return None;
            }
            insert(parent, key, value)?;
            self.gap()?;
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    break;
                }
                _ => return None,
            }
        }
        self.depth -= 1;
        Some(table)
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
