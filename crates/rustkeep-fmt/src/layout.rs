//! The printer: writes a [`Doc`] in the canonical layout.
//!
//! - Keys and scalars are copied as written; `key = value` with one space on each side.
//! - An array or inline table is written on one line when it fits in the line width, it holds no
//!   comment and no blank line between elements, and its author wrote no trailing comma (the magic
//!   trailing comma); otherwise one element per line, indented two spaces more than its key, each
//!   followed by a comma. Arrays holding inline tables get a space inside their brackets
//!   (`[ { … } ]`), other arrays none (`["a", "b"]`); inline tables always do (`{ a = 1 }`).
//! - A multi-line string cannot be part of a one-line array or table, so it opens them.
//! - TOML 1.0 (the default, [`Version::V1_0`]): an inline table is never broken across lines,
//!   whatever its width — the line stays long — and what is inside it is relaxed alike (no magic
//!   trailing comma, no blank lines; an array in it opens only for the comments it holds, which
//!   TOML 1.0 allows in arrays). Only an inline table that holds comments itself, which its author
//!   wrote in TOML 1.1, stays open. Arrays of inline tables open as any array does, one table per
//!   line. With [`Version::V1_1`] inline tables open like arrays.
//! - Blank lines: at most one in a row, none at the start or end of the file or of a bracket, and
//!   one before every table header that follows something else.
//! - Comments keep their text (without trailing whitespace) and their attachment: on their own
//!   line before what they precede, re-indented; or after what they trail, one space away.
//!
//! The output is also cut into *units* (each key before the first header, each header with its
//! body, then the end of the file), in step with the source units, for range formatting.

use std::ops::Range;

use crate::cst::{Container, Doc, Elem, Key, KeyVal, Trivia, Value};

pub use rustkeep_data::manifest::TomlVersion as Version;

/// What [`print`] returns.
pub struct Printed {
    pub text: String,
    /// Byte ranges of the output units; they tile the text.
    pub units: Vec<Range<usize>>,
}

struct Printer<'n> {
    out: String,
    width: usize,
    nl: &'n str,
    /// TOML 1.0: inline tables stay on one line.
    v1_0: bool,
}

/// Width in columns (Unicode scalar values).
fn cols(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

fn key_width(k: &Key<'_>) -> usize {
    k.parts().map(cols).sum::<usize>() + k.len() - 1
}

/// Blank-line runs collapsed to one; blanks at the start and end dropped where asked.
fn tidy<'a>(trivia: &[Trivia<'a>], drop_leading: bool, drop_trailing: bool) -> Vec<Trivia<'a>> {
    let mut out: Vec<Trivia<'a>> = Vec::with_capacity(trivia.len());
    for t in trivia {
        match t {
            Trivia::Blank if out.is_empty() && drop_leading => {}
            Trivia::Blank if out.last() == Some(&Trivia::Blank) => {}
            _ => out.push(*t),
        }
    }
    if drop_trailing {
        while out.last() == Some(&Trivia::Blank) {
            out.pop();
        }
    }
    out
}

fn has_comment(trivia: &[Trivia<'_>]) -> bool {
    trivia.iter().any(|t| matches!(t, Trivia::Comment(_)))
}

/// Whether a container may be written on one line, whatever its width.
fn may_be_flat<T>(c: &Container<'_, T>) -> bool {
    c.open_comment.is_none()
        // The magic trailing comma (an empty container has none).
        && !c.trailing_comma
        && !has_comment(&c.tail)
        && c.elems.iter().enumerate().all(|(i, e)| e.comment.is_none() && if i == 0 { !has_comment(&e.lead) } else { e.lead.is_empty() })
}

/// Whether a container holds a comment of its own (not counting the containers inside it).
fn holds_comment<T>(c: &Container<'_, T>) -> bool {
    c.open_comment.is_some() || has_comment(&c.tail) || c.elems.iter().any(|e| e.comment.is_some() || has_comment(&e.lead))
}

fn padded(a: &Container<'_, Value<'_>>) -> bool {
    a.elems.iter().any(|e| matches!(e.node, Value::Table(_)))
}

/// The width of `v` written on one line, or `None` if it cannot be. `relaxed`: `v` is inside an
/// inline table of TOML 1.0 (`v1_0`), where trailing commas and blank lines do not keep anything
/// open; only comments and multi-line strings do.
fn flat_width(v: &Value<'_>, relaxed: bool, v1_0: bool) -> Option<usize> {
    match v {
        Value::Atom(a) => (!a.contains('\n')).then(|| cols(a)),
        Value::Array(a) => {
            if if relaxed { holds_comment(a) } else { !may_be_flat(a) } {
                return None;
            }
            let mut w = 2 + 2 * a.elems.len().saturating_sub(1) + if padded(a) { 2 } else { 0 };
            for e in &a.elems {
                w += flat_width(&e.node, relaxed, v1_0)?;
            }
            Some(w)
        }
        Value::Table(t) => {
            let relaxed = relaxed || v1_0;
            if if relaxed { holds_comment(t) } else { !may_be_flat(t) } {
                return None;
            }
            if t.elems.is_empty() {
                return Some(2);
            }
            let mut w = 4 + 2 * (t.elems.len() - 1);
            for e in &t.elems {
                w += key_width(&e.node.key) + 3 + flat_width(&e.node.value, relaxed, v1_0)?;
            }
            Some(w)
        }
    }
}

/// Whether TOML 1.0 can write an inline table on one line: no table in it, itself included, holds a
/// comment (arrays may: TOML 1.0 lets them span lines inside an inline table).
fn one_line_in_1_0(t: &Container<'_, KeyVal<'_>>) -> bool {
    fn value(v: &Value<'_>) -> bool {
        match v {
            Value::Atom(_) => true,
            Value::Array(a) => a.elems.iter().all(|e| value(&e.node)),
            Value::Table(t) => one_line_in_1_0(t),
        }
    }
    !holds_comment(t) && t.elems.iter().all(|e| value(&e.node.value))
}

/// A container with nothing in it, not even a comment: always `[]` / `{}`.
fn is_bare_empty<T>(c: &Container<'_, T>) -> bool {
    c.elems.is_empty() && c.open_comment.is_none() && !has_comment(&c.tail)
}

impl Printer<'_> {
    fn indent(&mut self, n: usize) {
        for _ in 0..n {
            self.out.push(' ');
        }
    }

    fn newline(&mut self) {
        self.out.push_str(self.nl);
    }

    fn comment(&mut self, c: &str) {
        self.out.push_str(c.trim_end());
    }

    fn trivia(&mut self, trivia: &[Trivia<'_>], ind: usize) {
        for t in trivia {
            if let Trivia::Comment(c) = t {
                self.indent(ind);
                self.comment(c);
            }
            self.newline();
        }
    }

    fn key(&mut self, k: &Key<'_>) {
        for (i, p) in k.parts().enumerate() {
            if i > 0 {
                self.out.push('.');
            }
            self.out.push_str(p);
        }
    }

    fn flat(&mut self, v: &Value<'_>) {
        match v {
            Value::Atom(a) => self.out.push_str(a),
            Value::Array(a) => {
                let pad = padded(a);
                self.out.push('[');
                if pad {
                    self.out.push(' ');
                }
                for (i, e) in a.elems.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.flat(&e.node);
                }
                if pad {
                    self.out.push(' ');
                }
                self.out.push(']');
            }
            Value::Table(t) if t.elems.is_empty() => self.out.push_str("{}"),
            Value::Table(t) => self.one_line_table(t, |p, v| p.flat(v)),
        }
    }

    /// `{ k = v, … }`, each value written by `value`.
    fn one_line_table(&mut self, t: &Container<'_, KeyVal<'_>>, mut value: impl FnMut(&mut Self, &Value<'_>)) {
        self.out.push_str("{ ");
        for (i, e) in t.elems.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.key(&e.node.key);
            self.out.push_str(" = ");
            value(self, &e.node.value);
        }
        self.out.push_str(" }");
    }

    /// Writes `v`, which starts at column `used` of a line indented by `ind`; `comma`: a comma
    /// follows it on the same line.
    fn value(&mut self, v: &Value<'_>, ind: usize, used: usize, comma: bool) {
        let fits = |w: usize| used + w + usize::from(comma) <= self.width;
        match v {
            Value::Atom(a) => self.out.push_str(a),
            Value::Array(a) if is_bare_empty(a) => self.out.push_str("[]"),
            Value::Table(t) if is_bare_empty(t) => self.out.push_str("{}"),
            _ if flat_width(v, false, self.v1_0).is_some_and(fits) => self.flat(v),
            Value::Table(t) if self.v1_0 => self.inline_table(t, ind),
            Value::Array(a) => self.expanded(a, ind, ('[', ']'), |p, e, ind| {
                p.value(e, ind, ind, true);
            }),
            Value::Table(t) => self.open_table(t, ind),
        }
    }

    /// An inline table one key per line.
    fn open_table(&mut self, t: &Container<'_, KeyVal<'_>>, ind: usize) {
        self.expanded(t, ind, ('{', '}'), |p, kv, ind| {
            p.key(&kv.key);
            p.out.push_str(" = ");
            p.value(&kv.value, ind, ind + key_width(&kv.key) + 3, true);
        })
    }

    /// TOML 1.0: an inline table on one line, however long, on a line indented by `ind`. One that
    /// holds comments, itself or in a table inside it, was written in TOML 1.1 and stays open (the
    /// comments keep their places); the tables inside it are again written on one line if they can.
    fn inline_table(&mut self, t: &Container<'_, KeyVal<'_>>, ind: usize) {
        if is_bare_empty(t) {
            self.out.push_str("{}");
        } else if !one_line_in_1_0(t) {
            self.open_table(t, ind);
        } else {
            self.one_line_table(t, |p, v| p.inline_value(v, ind));
        }
    }

    /// TOML 1.0: a value inside an inline table. An array opens only when it holds comments or
    /// something that cannot be on one line (TOML 1.0 allows line breaks in arrays, also inside
    /// inline tables); its elements are written the same way.
    fn inline_value(&mut self, v: &Value<'_>, ind: usize) {
        match v {
            Value::Atom(a) => self.out.push_str(a),
            Value::Table(t) => self.inline_table(t, ind),
            Value::Array(a) if is_bare_empty(a) => self.out.push_str("[]"),
            _ if flat_width(v, true, true).is_some() => self.flat(v),
            Value::Array(a) => self.expanded(a, ind, ('[', ']'), |p, e, ind| p.inline_value(e, ind)),
        }
    }

    /// One element per line.
    fn expanded<T>(&mut self, c: &Container<'_, T>, ind: usize, brackets: (char, char), mut elem: impl FnMut(&mut Self, &T, usize)) {
        self.out.push(brackets.0);
        if let Some(comment) = c.open_comment {
            self.out.push(' ');
            self.comment(comment);
        }
        self.newline();
        let inner = ind + 2;
        for (i, e) in c.elems.iter().enumerate() {
            self.trivia(&tidy(&e.lead, i == 0, false), inner);
            self.indent(inner);
            elem(self, &e.node, inner);
            self.out.push(',');
            self.trailing_comment(e);
            self.newline();
        }
        self.trivia(&tidy(&c.tail, c.elems.is_empty(), true), inner);
        self.indent(ind);
        self.out.push(brackets.1);
    }

    fn trailing_comment<T>(&mut self, e: &Elem<'_, T>) {
        if let Some(c) = e.comment {
            self.out.push(' ');
            self.comment(c);
        }
    }

    /// A key-value line of a table body (no indentation: bodies start at column 0).
    fn body_keyval(&mut self, e: &Elem<'_, KeyVal<'_>>) {
        self.key(&e.node.key);
        self.out.push_str(" = ");
        self.value(&e.node.value, 0, key_width(&e.node.key) + 3, false);
        self.trailing_comment(e);
        self.newline();
    }
}

/// Writes `doc` with lines at most `width` columns wide where that is possible, ending lines with
/// `nl`, in the syntax of TOML `version`.
pub fn print(doc: &Doc<'_>, width: usize, nl: &str, version: Version) -> Printed {
    let mut p = Printer { out: String::new(), width, nl, v1_0: version == Version::V1_0 };
    let mut units = Vec::new();
    for (si, section) in doc.sections.iter().enumerate() {
        let start = p.out.len();
        if let Some(h) = &section.header {
            let mut lead = tidy(&section.lead, p.out.is_empty(), false);
            // One blank line before a header, unless the author put one among the lines above it
            // (then a comment directly above the header stays directly above it).
            if !p.out.is_empty() && !lead.contains(&Trivia::Blank) {
                lead.insert(0, Trivia::Blank);
            }
            p.trivia(&lead, 0);
            p.out.push_str(if h.array { "[[" } else { "[" });
            p.key(&h.key);
            p.out.push_str(if h.array { "]]" } else { "]" });
            if let Some(c) = h.comment {
                p.out.push(' ');
                p.comment(c);
            }
            p.newline();
        }
        for e in &section.body {
            let unit = p.out.len();
            p.trivia(&tidy(&e.lead, p.out.is_empty(), false), 0);
            p.body_keyval(e);
            // Keys before the first header are units of their own.
            if si == 0 {
                units.push(unit..p.out.len());
            }
        }
        if si > 0 {
            units.push(start..p.out.len());
        }
    }
    let start = p.out.len();
    p.trivia(&tidy(&doc.tail, p.out.is_empty(), true), 0);
    units.push(start..p.out.len());
    Printed { text: p.out, units }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tidy_collapses_and_trims_blank_lines() {
        use Trivia::*;
        let t = [Blank, Blank, Comment("# a"), Blank, Blank, Comment("# b"), Blank];
        assert_eq!(tidy(&t, true, true), vec![Comment("# a"), Blank, Comment("# b")]);
        assert_eq!(tidy(&t, false, false), vec![Blank, Comment("# a"), Blank, Comment("# b"), Blank]);
    }

    #[test]
    fn widths_count_characters_not_bytes() {
        assert_eq!(flat_width(&Value::Atom("\"Äther\""), false, true), Some(7));
        assert_eq!(flat_width(&Value::Atom("\"\"\"a\nb\"\"\""), true, true), None);
    }
}
