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

/// One field two entries write differently: its text in each, whitespace collapsed; `None` where
/// the entry does not write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldChange {
    pub field: &'static str,
    pub old: Option<String>,
    pub new: Option<String>,
}

/// What `new` (written in `new_text`) writes differently from `old` (in `old_text`), field by
/// field by the written text with whitespace collapsed, `id` and `overrides` aside: first the
/// fields `new` writes, in its order, then those only `old` writes; and how many fields both
/// write alike. `rustkeep show --diff`, `rustkeep diff` and the documentation site's override
/// tables read this one comparison.
pub fn field_changes(old_text: &str, old: &Entry, new_text: &str, new: &Entry) -> (Vec<FieldChange>, usize) {
    use crate::vocab::field;
    fn written<'t>(text: &'t str, e: &Entry, name: &str) -> Option<&'t str> {
        e.field(name).map(|f| text.get(f.span.start..f.span.end).unwrap_or(""))
    }
    let collapsed = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut names: Vec<&'static str> = Vec::new();
    for f in new.fields.iter().chain(&old.fields) {
        if f.def.name != field::ID && f.def.name != field::OVERRIDES && !names.contains(&f.def.name) {
            names.push(f.def.name);
        }
    }
    let mut changes = Vec::new();
    let mut same = 0;
    for name in names {
        let (o, n) = (written(old_text, old, name), written(new_text, new, name));
        // Most fields are byte for byte the same: only the others are normalised.
        if o == n {
            same += 1;
            continue;
        }
        let (o, n) = (o.map(collapsed), n.map(collapsed));
        if o == n {
            same += 1;
        } else {
            changes.push(FieldChange { field: name, old: o, new: n });
        }
    }
    (changes, same)
}
