//! One entry's TOML as written, and a copy of it that a mod can paste to replace it: what
//! `rustkeep show ID` prints and what the editor's "override this entry in my mod" inserts.
//! Overrides replace whole entries (docs/data-language.md, "Overrides"), so a modder starts from
//! the entry in force, not from an empty table.

use crate::model::Entry;
use crate::text::LineIndex;

/// The entry as written in its file, as a piece of TOML that stands on its own: a `[[…]]` block
/// with the comment lines directly above it and its sub-tables, or an inline entry of an array
/// (`items = [ { … } ]`) wrapped in an array of its own.
pub fn entry_text(text: &str, index: &LineIndex, e: &Entry) -> String {
    let key = e.registry.key();
    let written = text.get(e.span.clone()).unwrap_or("");
    if !written.starts_with('[') {
        return format!("{key} = [\n  {},\n]\n", written.trim_end());
    }
    let first = index.line_of(e.span.start);
    // The comment lines directly above the header document the entry.
    let mut start = first;
    while start > 0 && text[index.line_span(text, start - 1)].trim_start().starts_with('#') {
        start -= 1;
    }
    // Up to the next header that is not one of this entry's sub-tables.
    let mut end = first + 1;
    while end < index.line_count() {
        let line = text[index.line_span(text, end)].trim();
        if line.starts_with('[') {
            let inner = line.trim_start_matches('[').split(']').next().unwrap_or("").trim();
            if !inner.strip_prefix(key).is_some_and(|rest| rest.trim_start().starts_with('.')) {
                break;
            }
        }
        end += 1;
    }
    // Blank lines and the comments of the next entry are not part of this one.
    while end > first + 1 {
        let line = text[index.line_span(text, end - 1)].trim();
        if line.is_empty() || line.starts_with('#') {
            end -= 1;
        } else {
            break;
        }
    }
    let from = index.line_span(text, start).start;
    let to = index.line_span(text, end - 1).end;
    let mut out = text[from..to].to_string();
    out.push('\n');
    out
}

/// [`entry_text`] turned into an override of the entry: its `id = "…"` becomes
/// `overrides = "…"` (an entry that is itself an override stays as it is).
pub fn override_text(text: &str, index: &LineIndex, e: &Entry) -> String {
    let out = entry_text(text, index, e);
    let (Some(id), None) = (&e.id, &e.overrides) else { return out };
    // Where the entry's text starts in the file, to find the `id` key inside the copy.
    let written = text.get(e.span.clone()).unwrap_or("");
    let base = if written.starts_with('[') {
        let mut start = index.line_of(e.span.start);
        while start > 0 && text[index.line_span(text, start - 1)].trim_start().starts_with('#') {
            start -= 1;
        }
        index.line_span(text, start).start
    } else {
        // `key = [\n  ` precedes the inline table in the copy.
        e.span.start.wrapping_sub(e.registry.key().len() + 7)
    };
    let value = id.span.start.wrapping_sub(base)..id.span.end.wrapping_sub(base);
    let Some(before) = out.get(..value.start) else { return out };
    let Some(eq) = before.rfind('=') else { return out };
    let Some(key_start) = before[..eq].trim_end().strip_suffix("id").map(str::len) else { return out };
    format!("{}overrides = {}{}", &out[..key_start], &out[value.start..value.end], &out[value.end..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::lower_file;
    use crate::source::FileId;

    fn first_entry(text: &str) -> (LineIndex, Entry) {
        let facts = lower_file(FileId(0), text, None);
        (LineIndex::new(text), facts.entries[0].clone())
    }

    #[test]
    fn a_header_entry_comes_with_its_comments_and_sub_tables_not_its_neighbours() {
        let text = "# a lamp\n[[items]]\nid = \"m:lamp\"\nname = \"Lamp\"\n\n[[items.triggers]]\non = \"item_used\"\nactions = []\n\n# the next one\n[[items]]\nid = \"m:oil\"\nname = \"Oil\"\n";
        let (index, e) = first_entry(text);
        assert_eq!(
            entry_text(text, &index, &e),
            "# a lamp\n[[items]]\nid = \"m:lamp\"\nname = \"Lamp\"\n\n[[items.triggers]]\non = \"item_used\"\nactions = []\n"
        );
        let copy = override_text(text, &index, &e);
        assert!(copy.contains("[[items]]\noverrides = \"m:lamp\"\nname = \"Lamp\""), "{copy}");
        assert!(!copy.contains("id = "), "{copy}");
    }

    #[test]
    fn an_inline_entry_is_wrapped_in_an_array_of_its_own() {
        let text = "items = [\n  {\n    id = \"m:lamp\",\n    name = \"Lamp\",\n  },\n]\n";
        let (index, e) = first_entry(text);
        let shown = entry_text(text, &index, &e);
        assert_eq!(shown, "items = [\n  {\n    id = \"m:lamp\",\n    name = \"Lamp\",\n  },\n]\n");
        let copy = override_text(text, &index, &e);
        assert_eq!(copy, "items = [\n  {\n    overrides = \"m:lamp\",\n    name = \"Lamp\",\n  },\n]\n");
        // Both parse and mean one entry.
        for t in [shown, copy] {
            let facts = lower_file(FileId(0), &t, None);
            assert!(facts.diagnostics.is_empty(), "{t}: {:?}", facts.diagnostics);
            assert_eq!(facts.entries.len(), 1);
        }
    }
}

/// One place two entries write differently: its text in each, whitespace collapsed; `None` where
/// the entry does not write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldChange {
    /// The entry's field the change is in.
    pub field: &'static str,
    /// Where in the field: its name, then `.key` for a key of a table and `[i]` for an element of
    /// an array (`attributes.max_health`, `entries[1].weight`); the name alone when the field as a
    /// whole is added, removed, or becomes a value of another kind. An element's index is its
    /// place in the new array, a removed element's its place in the old one.
    pub path: String,
    pub old: Option<String>,
    pub new: Option<String>,
}

/// What `new` (written in `new_text`) writes differently from `old` (in `old_text`), field by
/// field, `id` and `overrides` aside: first the fields `new` writes, in its order, then those only
/// `old` writes; and how many fields both write alike. Tables are compared key by key and arrays
/// element by element (an element inserted or removed shifts no others), so a one-number change
/// reads as `attributes.max_health: 55 → 30`, not as the whole table; the values compared are the
/// written texts with whitespace collapsed. `rustkeep show --diff`, `rustkeep diff` and the
/// documentation site's override tables read this one comparison.
pub fn field_changes(old_text: &str, old: &Entry, new_text: &str, new: &Entry) -> (Vec<FieldChange>, usize) {
    use crate::vocab::field;
    let mut names: Vec<&'static str> = Vec::new();
    for f in new.fields.iter().chain(&old.fields) {
        if f.def.name != field::ID && f.def.name != field::OVERRIDES && !names.contains(&f.def.name) {
            names.push(f.def.name);
        }
    }
    // Most fields are byte for byte the same value written in one piece: nothing to read.
    let plainly_same = |name: &str| {
        let (o, n) = (old.field(name), new.field(name));
        o.map(|f| written(old_text, f)) == n.map(|f| written(new_text, f)) && o.is_none_or(whole) && n.is_none_or(whole)
    };
    let needed = names.iter().any(|n| !plainly_same(n));
    // Each entry is read into a tree of its own only when a field needs more than its text.
    let (old_piece, new_piece) = if needed { (piece(old_text, old), piece(new_text, new)) } else { (None, None) };
    let old_tree = old_piece.as_ref().and_then(|(t, key)| EntryTree::read(t, key));
    let new_tree = new_piece.as_ref().and_then(|(t, key)| EntryTree::read(t, key));
    let mut changes = Vec::new();
    let mut same = 0;
    for name in names {
        if plainly_same(name) {
            same += 1;
            continue;
        }
        let before = changes.len();
        match (&old_tree, &new_tree) {
            (Some(ot), Some(nt)) => compare(name, name.to_string(), ot.field(name).map(|x| (x, ot.text)), nt.field(name).map(|x| (x, nt.text)), &mut changes),
            // A text the reader does not take in one piece is compared as written.
            _ => {
                let (ow, nw) = (old.field(name).map(|f| collapsed(written(old_text, f))), new.field(name).map(|f| collapsed(written(new_text, f))));
                if ow != nw {
                    changes.push(FieldChange { field: name, path: name.to_string(), old: ow, new: nw });
                }
            }
        }
        if changes.len() == before {
            same += 1;
        }
    }
    (changes, same)
}

fn written<'t>(text: &'t str, f: &crate::model::Field) -> &'t str {
    text.get(f.span.clone()).unwrap_or("")
}

/// Whether a field's value is written in one piece after its key (`key = value`), rather than
/// spread over a `[table]` header and the lines below it, or made by dotted keys.
fn whole(f: &crate::model::Field) -> bool {
    f.key_span.end <= f.span.start
}

fn collapsed(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text an entry is read from on its own, and the key of its table there: its `[[…]]` block
/// under the registry's key, or an inline entry as `e = { … }`.
fn piece(text: &str, e: &Entry) -> Option<(String, &'static str)> {
    let written = text.get(e.span.clone())?;
    if written.starts_with('[') {
        Some((block(text, e)?.to_string(), e.registry.key()))
    } else {
        Some((format!("e = {written}\n"), "e"))
    }
}

/// An entry read into a tree of its own, and the text it was read from.
struct EntryTree<'t> {
    text: &'t str,
    root: crate::tree::Table<'t>,
    key: &'t str,
}

impl<'t> EntryTree<'t> {
    /// `None` when the text does not read without errors.
    fn read(text: &'t str, key: &'t str) -> Option<EntryTree<'t>> {
        let read = crate::tree::read(text);
        (read.errors.is_empty() && read.unreadable.is_empty()).then_some(EntryTree { text, root: read.root, key })
    }

    fn field(&self, name: &str) -> Option<&crate::tree::Node<'t>> {
        use crate::tree::Val;
        let entry = match self.root.get(self.key)?.get_ref() {
            Val::Table(t) => t,
            Val::Array(a) => match a.first()?.get_ref() {
                Val::Table(t) => t,
                _ => return None,
            },
            _ => return None,
        };
        entry.get(name)
    }
}

/// A `[[…]]` entry's own lines: its header and the lines below it up to the next header that is
/// not one of its sub-tables (as [`entry_text`] finds them).
fn block<'t>(text: &'t str, e: &Entry) -> Option<&'t str> {
    let key = e.registry.key();
    let rest = text.get(e.span.start..)?;
    let line_end = |from: usize| rest[from..].find('\n').map_or(rest.len(), |i| from + i + 1);
    let mut end = line_end(0);
    while end < rest.len() {
        let next = line_end(end);
        let line = rest[end..next].trim();
        if line.starts_with('[') {
            let inner = line.trim_start_matches('[').split(']').next().unwrap_or("").trim();
            if !inner.strip_prefix(key).is_some_and(|r| r.trim_start().starts_with('.')) {
                break;
            }
        }
        end = next;
    }
    Some(&rest[..end])
}

type At<'n, 't> = Option<(&'n crate::tree::Node<'t>, &'n str)>;

/// The changes between two values of a field at `path`, into `out`.
fn compare(field: &'static str, path: String, old: At<'_, '_>, new: At<'_, '_>, out: &mut Vec<FieldChange>) {
    use crate::tree::Val;
    match (old, new) {
        (Some((o, os)), Some((n, ns))) => match (o.get_ref(), n.get_ref()) {
            (Val::Table(a), Val::Table(b)) => {
                let mut keys: Vec<&str> = b.keys().map(|k| k.get_ref().as_ref()).collect();
                keys.extend(a.keys().map(|k| k.get_ref().as_ref()).filter(|k| b.get(k).is_none()));
                for k in keys {
                    compare(field, format!("{path}.{}", key_text(k)), a.get(k).map(|x| (x, os)), b.get(k).map(|x| (x, ns)), out);
                }
            }
            (Val::Array(a), Val::Array(b)) => {
                let (ta, tb): (Vec<String>, Vec<String>) = (a.iter().map(|x| shown(x, os)).collect(), b.iter().map(|x| shown(x, ns)).collect());
                for step in align(&ta, &tb) {
                    match step {
                        Step::Same => {}
                        Step::Changed(i, j) => compare(field, format!("{path}[{j}]"), Some((&a[i], os)), Some((&b[j], ns)), out),
                        Step::Removed(i) => out.push(FieldChange { field, path: format!("{path}[{i}]"), old: Some(ta[i].clone()), new: None }),
                        Step::Added(j) => out.push(FieldChange { field, path: format!("{path}[{j}]"), old: None, new: Some(tb[j].clone()) }),
                    }
                }
            }
            _ => {
                let (a, b) = (shown(o, os), shown(n, ns));
                if a != b {
                    out.push(FieldChange { field, path, old: Some(a), new: Some(b) });
                }
            }
        },
        (o, n) => {
            let (a, b) = (o.map(|(x, s)| shown(x, s)), n.map(|(x, s)| shown(x, s)));
            if a != b {
                out.push(FieldChange { field, path, old: a, new: b });
            }
        }
    }
}

/// A key as a path names it: bare when TOML would write it bare, else quoted.
fn key_text(k: &str) -> String {
    if !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        k.to_string()
    } else {
        format!("{k:?}")
    }
}

/// A value's text, whitespace collapsed: as written when it is written in one piece; a table or
/// array spread over headers or dotted keys is put together inline (`{ max_health = 5 }`).
fn shown(node: &crate::tree::Node<'_>, src: &str) -> String {
    use crate::tree::Val;
    let span = node.span();
    let inside = |c: &crate::tree::Node<'_>| span.start < c.span().start && c.span().end <= span.end;
    let own = || collapsed(src.get(span.clone()).unwrap_or(""));
    match node.get_ref() {
        Val::Table(t) if !t.values().all(inside) => {
            let parts: Vec<String> = t.iter().map(|(k, v)| format!("{} = {}", key_text(k.get_ref()), shown(v, src))).collect();
            if parts.is_empty() {
                "{}".into()
            } else {
                format!("{{ {} }}", parts.join(", "))
            }
        }
        Val::Array(a) if !a.iter().all(inside) => format!("[ {} ]", a.iter().map(|v| shown(v, src)).collect::<Vec<_>>().join(", ")),
        _ => own(),
    }
}

/// One step of aligning two arrays.
#[derive(Debug, PartialEq)]
enum Step {
    Same,
    /// The old element `.0` became the new element `.1`.
    Changed(usize, usize),
    Removed(usize),
    Added(usize),
}

/// Aligns two arrays by their elements' texts: the longest common subsequence stays, and between
/// two kept elements the old and new ones left over pair up in order as changes, the rest being
/// removed or added. Arrays too long for the quadratic table pair up by index.
fn align(a: &[String], b: &[String]) -> Vec<Step> {
    const MAX_CELLS: usize = 1 << 20;
    let mut steps = Vec::new();
    let gap = |steps: &mut Vec<Step>, olds: std::ops::Range<usize>, news: std::ops::Range<usize>| {
        let paired = olds.len().min(news.len());
        steps.extend(olds.clone().zip(news.clone()).map(|(i, j)| Step::Changed(i, j)));
        steps.extend(olds.skip(paired).map(Step::Removed));
        steps.extend(news.skip(paired).map(Step::Added));
    };
    if a.len().saturating_mul(b.len()) > MAX_CELLS {
        for (i, j) in (0..a.len()).zip(0..b.len()) {
            steps.push(if a[i] == b[j] { Step::Same } else { Step::Changed(i, j) });
        }
        gap(&mut steps, b.len().min(a.len())..a.len(), a.len().min(b.len())..b.len());
        return steps;
    }
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let w = b.len() + 1;
    let mut lcs = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i * w + j] = if a[i] == b[j] { lcs[(i + 1) * w + j + 1] + 1 } else { lcs[(i + 1) * w + j].max(lcs[i * w + j + 1]) };
        }
    }
    let (mut i, mut j, mut from) = (0, 0, (0, 0));
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            gap(&mut steps, from.0..i, from.1..j);
            steps.push(Step::Same);
            i += 1;
            j += 1;
            from = (i, j);
        } else if lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    gap(&mut steps, from.0..a.len(), from.1..b.len());
    steps
}
