//! The top level of a data file: registries (arrays of tables), the `[balance]` table, and the
//! keys that are neither — a registry written as one table, or a key that is no registry, whose
//! entries' IDs are kept as [`Misfiled`] for the note of a reference to them.

use super::{Ctx, Lower, DV};
use crate::diag::Code;
use crate::model::{BalanceSetting, Value};
use crate::suggest;
use crate::text::Span;
use crate::tree::{Table, Val};
use crate::vocab::{field, Registry, BALANCE_FIELDS, BALANCE_KEY, REGISTRIES};

/// An `id` written in an entry of a top-level key that is no registry.
#[derive(Clone, Debug, PartialEq)]
pub struct Misfiled {
    pub id: String,
    /// The span of the `id` value.
    pub span: Span,
    /// The key that is no registry (`item`) and its span.
    pub key: String,
    pub key_span: Span,
}

impl Lower<'_> {
    pub(super) fn document(&mut self, root: &Table<'_>) {
        // One entry per table of a registry's array: reserved at once, not grown by doubling.
        let tables: usize = root.iter().map(|(_, v)| if let Val::Array(items) = v.get_ref() { items.len() } else { 0 }).sum();
        self.entries.reserve_exact(tables);
        for (key, value) in root.iter() {
            let name = key.get_ref().as_ref();
            if name == BALANCE_KEY {
                self.balance_table(value);
                continue;
            }
            let Some(registry) = Registry::from_key(name) else {
                let candidates = REGISTRIES.iter().map(|r| r.key).chain([BALANCE_KEY]);
                let judged = suggest::closest_judged(name, candidates);
                let suggestion = judged.map(|j| j.0);
                let mut msg = format!("`{name}` is not a registry");
                if let Some(s) = suggestion {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                msg.push_str(&format!(" Registries: {}, and the table `[balance]`", suggest::list(REGISTRIES.iter().map(|r| r.key))));
                let span = key.span();
                let d = self.diag(Code::UnknownRegistry, span.clone(), msg);
                if let Some((s, safety)) = judged {
                    *d = d.clone().with_fix(format!("rename to `{s}`"), s, safety);
                }
                self.misfiled_ids(name, span, value);
                continue;
            };
            match value.get_ref() {
                Val::Array(items) => {
                    for item in items.iter() {
                        match item.get_ref() {
                            Val::Table(t) => self.entry(registry, t, item.span()),
                            _ => self.wrong_type(name, "an array of tables", item),
                        }
                    }
                }
                Val::Table(t) => {
                    // The table is read as the entry the fix makes of it, when it is one (it has
                    // an `id` or `overrides`): what refers to it, and what it gives, still count.
                    let meant = self.registry_as_table(name, key.span(), value.span());
                    if meant && (t.get(field::ID).is_some() || t.get(field::OVERRIDES).is_some()) {
                        self.entry(registry, t, value.span());
                    }
                }
                _ => self.wrong_type(name, "an array of tables", value),
            }
        }
    }

    /// The `id`s of the entries under a key that is no registry, as [`Misfiled`].
    fn misfiled_ids(&mut self, key: &str, key_span: Span, value: &DV<'_>) {
        let tables: Vec<&DV<'_>> = match value.get_ref() {
            Val::Array(items) => items.iter().collect(),
            Val::Table(_) => vec![value],
            _ => Vec::new(),
        };
        for t in tables {
            let Val::Table(t) = t.get_ref() else { continue };
            if let Some(id) = t.get(field::ID) {
                if let Val::String(s) = id.get_ref() {
                    self.misfiled.push(Misfiled { id: s.to_string(), span: id.span(), key: key.to_string(), key_span: key_span.clone() });
                }
            }
        }
    }

    /// A registry written as one table instead of an array of tables: a `[items]` header, an
    /// inline `items = { … }`, or a `[[items.triggers]]` header with no `[[items]]` entry before
    /// it (TOML then makes `items` a table of its own). Each gets the fix that keeps what was
    /// written; the last has none, as the entry's own header is what is missing. Returns whether the
    /// table is the one entry the fix makes of it.
    fn registry_as_table(&mut self, name: &str, key: Span, value: Span) -> bool {
        let text = self.text;
        let before = text[..key.start].trim_end_matches([' ', '\t']);
        let after = text[key.end..].trim_start_matches([' ', '\t']);
        if before.ends_with('[') && !before.ends_with("[[") && after.starts_with(']') && !after.starts_with("]]") {
            let open = before.len() - 1;
            let close = text.len() - after.len() + 1;
            let header = &text[open..close];
            let msg = format!("`{name}` must be an array of tables: write `[[{name}]]`, not `{header}`");
            let fixed = format!("[{header}]");
            // On the whole header, which the fix replaces (so every output can carry the fix).
            let d = self.diag(Code::WrongType, open..close, msg);
            *d = d.clone().with_fix(format!("write `{fixed}`"), fixed, crate::diag::Applicability::Safe);
            true
        } else if before.ends_with("[[") && after.starts_with('.') {
            let sub = after[1..].split([']', ' ', '\t']).next().unwrap_or("");
            let msg = format!(
                "`[[{name}.{sub}]]` adds to the last `[[{name}]]` entry above it, but there is none: write the entry's `[[{name}]]` header first (or fix its spelling)"
            );
            self.diag(Code::WrongType, key, msg);
            false
        } else if text.get(value.clone()).is_some_and(|v| v.starts_with('{')) {
            let msg = format!("`{name}` must be an array of tables: write `{name} = [{{ … }}]`, not `{name} = {{ … }}`");
            let fixed = format!("[{}]", &text[value.clone()]);
            let d = self.diag(Code::WrongType, value.clone(), msg);
            *d = d.clone().with_fix("put the table in a list", fixed, crate::diag::Applicability::Safe);
            true
        } else {
            self.diag(Code::WrongType, key, format!("`{name}` must be an array of tables: write `[[{name}]]`, not `[{name}]`"));
            false
        }
    }

    fn balance_table(&mut self, value: &DV<'_>) {
        let Val::Table(t) = value.get_ref() else {
            self.wrong_type(BALANCE_KEY, "a table", value);
            return;
        };
        for (def, key_span, v) in self.known_fields(t, BALANCE_FIELDS, Code::UnknownField, &"`[balance]`") {
            match self.value(def, v, Ctx::Plain) {
                Some(Value::Float(x)) => self.balance.push(BalanceSetting { key: def.name, key_span, value: x }),
                Some(Value::Int(n)) => self.balance.push(BalanceSetting { key: def.name, key_span, value: n as f64 }),
                _ => {}
            }
        }
    }
}
