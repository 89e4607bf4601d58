//! Key order, read from the vocabulary: what kind of table each table of a file is (an entry of
//! some registry, a trigger, a check, …) and the rank of each of its keys.
//!
//! Nothing here lists a field name: registry fields come from `REGISTRIES`, triggers from
//! `TRIGGER_FIELDS`, checks and actions from `CHECKS` / `ACTIONS` (picked by the table's own
//! `check` / `action` value), and so on. A key the vocabulary does not know ranks after every known
//! key, keeping its place among the unknown ones; a table of no known kind is never reordered.
//!
//! Reordering happens only inside a *group*: a run of keys with no blank line and no comment line
//! between them. A comment line directly above the first key of a group is that key's comment,
//! so that key stays first (its comment stays on top of it); the rest of the group is sorted.

use rustkeep_data::vocab::{
    self, ActionKind, CheckKind, ConfigKey, FieldDef, FieldType, Registry, ACTION_FIELD, AI_FIELDS, BALANCE_FIELDS, CHECK_FIELD, LOOT_ENTRY_FIELDS,
    MODIFIER_FIELDS, NOT_FIELD, TRIGGER_FIELDS, WHEN_FIELDS,
};

use crate::cst::{plain_name, Doc, Elem, Key, KeyVal, Trivia, Value};
use crate::FileKind;

/// What kind of table a table is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// Nothing known: keys keep their order, and so do the keys of every table inside.
    Opaque,
    /// The top level of a data file: registry arrays and `[balance]` (their order is the author's).
    DataRoot,
    /// The top level of a `mod.toml` or `rustkeep.toml`: its tables, in the author's order.
    ConfigRoot(&'static [ConfigKey]),
    /// An entry of a registry.
    Entry(Registry),
    /// A table with a fixed field list: a trigger, a modifier, an `ai` rule, a loot entry, `[balance]`.
    Fields(&'static [FieldDef]),
    /// A condition check: its fields depend on its `check` value.
    Check,
    /// An action: its fields depend on its `action` value.
    Action,
    /// A `when` filter.
    When,
    /// A table of `mod.toml` or `rustkeep.toml`.
    Config(&'static [ConfigKey]),
}

/// What kind of value a key holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueShape {
    Opaque,
    Table(Shape),
    /// An array whose elements are tables of this shape.
    ArrayOf(Shape),
}

impl Shape {
    pub fn root(kind: FileKind) -> Shape {
        match kind {
            FileKind::Data => Shape::DataRoot,
            FileKind::Manifest => Shape::ConfigRoot(vocab::MANIFEST_TABLES),
            FileKind::Workspace => Shape::ConfigRoot(vocab::WORKSPACE_TABLES),
            FileKind::Plain => Shape::Opaque,
        }
    }

    fn field(fields: &'static [FieldDef], name: &str) -> ValueShape {
        match fields.iter().find(|f| f.name == name).map(|f| f.ty) {
            Some(FieldType::Triggers) => ValueShape::ArrayOf(Shape::Fields(TRIGGER_FIELDS)),
            Some(FieldType::Conditions) => ValueShape::ArrayOf(Shape::Check),
            Some(FieldType::Actions) => ValueShape::ArrayOf(Shape::Action),
            Some(FieldType::Modifiers) => ValueShape::ArrayOf(Shape::Fields(MODIFIER_FIELDS)),
            Some(FieldType::Ai) => ValueShape::ArrayOf(Shape::Fields(AI_FIELDS)),
            Some(FieldType::LootEntries) => ValueShape::ArrayOf(Shape::Fields(LOOT_ENTRY_FIELDS)),
            Some(FieldType::When) => ValueShape::Table(Shape::When),
            _ => ValueShape::Opaque,
        }
    }

    /// The shape of the value under `name` in a table of this shape (`discriminator`: the table's
    /// `check` or `action` value, if it has one).
    pub fn child(self, name: Option<&str>, discriminator: Option<&str>) -> ValueShape {
        let Some(name) = name else { return ValueShape::Opaque };
        match self {
            Shape::DataRoot => match Registry::from_key(name) {
                Some(r) => ValueShape::ArrayOf(Shape::Entry(r)),
                None if name == vocab::BALANCE_KEY => ValueShape::Table(Shape::Fields(BALANCE_FIELDS)),
                None => ValueShape::Opaque,
            },
            Shape::ConfigRoot(tables) => match tables.iter().find(|t| t.name == name) {
                Some(t) if !t.keys.is_empty() => ValueShape::Table(Shape::Config(t.keys)),
                _ => ValueShape::Opaque,
            },
            Shape::Entry(r) => Shape::field(r.def().fields, name),
            Shape::Fields(fields) => Shape::field(fields, name),
            Shape::Check => match discriminator.and_then(CheckKind::from_name) {
                Some(kind) => Shape::field(kind.def().fields, name),
                None => ValueShape::Opaque,
            },
            Shape::Action => match discriminator.and_then(ActionKind::from_name) {
                Some(kind) => Shape::field(kind.def().fields, name),
                None => ValueShape::Opaque,
            },
            _ => ValueShape::Opaque,
        }
    }

    /// The rank of key `name` (lower comes first); `None`: this table is never reordered.
    pub fn rank(self, name: Option<&str>, discriminator: Option<&str>) -> Option<usize> {
        fn pos<T>(list: &[T], name: Option<&str>, of: impl Fn(&T) -> &'static str) -> usize {
            name.and_then(|n| list.iter().position(|x| of(x) == n)).unwrap_or(usize::MAX)
        }
        fn field_name(f: &FieldDef) -> &'static str {
            f.name
        }
        Some(match self {
            Shape::Opaque | Shape::DataRoot | Shape::ConfigRoot(_) => return None,
            Shape::Entry(r) => pos(r.def().fields, name, field_name),
            Shape::Fields(fields) => pos(fields, name, field_name),
            Shape::When => pos(WHEN_FIELDS, name, |w| w.name),
            Shape::Config(keys) => pos(keys, name, |k| k.name),
            // `check`, the check's own fields, then `not`.
            Shape::Check => {
                if name == Some(CHECK_FIELD.name) {
                    0
                } else if name == Some(NOT_FIELD.name) {
                    usize::MAX - 1
                } else {
                    match discriminator.and_then(CheckKind::from_name) {
                        Some(kind) => pos(kind.def().fields, name, field_name).saturating_add(1),
                        None => usize::MAX,
                    }
                }
            }
            // `action`, then the action's own fields.
            Shape::Action => {
                if name == Some(ACTION_FIELD.name) {
                    0
                } else {
                    match discriminator.and_then(ActionKind::from_name) {
                        Some(kind) => pos(kind.def().fields, name, field_name).saturating_add(1),
                        None => usize::MAX,
                    }
                }
            }
        })
    }

    /// The key whose value picks the field list (`check`, `action`).
    fn discriminator_key(self) -> Option<&'static str> {
        match self {
            Shape::Check => Some(CHECK_FIELD.name),
            Shape::Action => Some(ACTION_FIELD.name),
            _ => None,
        }
    }
}

/// The value of a table's `check` / `action` key, from its key-value pairs.
fn discriminator<'a, 'b>(shape: Shape, kvs: impl Iterator<Item = &'b KeyVal<'a>>) -> Option<&'a str>
where
    'a: 'b,
{
    let key = shape.discriminator_key()?;
    for kv in kvs {
        if kv.key.len() == 1 && kv.key.first_name() == Some(key) {
            if let Value::Atom(raw) = &kv.value {
                return plain_name(raw).filter(|_| raw.starts_with(['"', '\'']));
            }
        }
    }
    None
}

/// The shape of the value of a (possibly dotted) key in a table of shape `shape`.
fn value_shape(shape: Shape, kv: &KeyVal<'_>, disc: Option<&str>) -> ValueShape {
    let mut current = ValueShape::Table(shape);
    for (i, part) in kv.key.parts().enumerate() {
        let ValueShape::Table(s) = current else { return ValueShape::Opaque };
        current = s.child(plain_name(part), if i == 0 { disc } else { None });
    }
    current
}

/// The shape of the table a header opens.
pub fn header_shape(root: Shape, key: &Key<'_>, array: bool) -> Shape {
    let mut shape = root;
    let n = key.len();
    for (i, part) in key.parts().enumerate() {
        let last = i + 1 == n;
        shape = match shape.child(plain_name(part), None) {
            ValueShape::Table(s) if !(last && array) => s,
            // A middle part naming an array of tables means its last element.
            ValueShape::ArrayOf(s) if array || !last => s,
            _ => return Shape::Opaque,
        };
    }
    shape
}

/// Sorts every group of `elems` by `ranks` (one per element; stable), keeping each group's
/// leading lines on top and a commented first key first.
fn sort_groups<T>(elems: &mut Vec<Elem<'_, T>>, ranks: &[usize]) {
    let mut groups = Vec::new();
    let mut start = 0;
    while start < elems.len() {
        let mut end = start + 1;
        while end < elems.len() && elems[end].lead.is_empty() {
            end += 1;
        }
        let pinned = matches!(elems[start].lead.last(), Some(Trivia::Comment(_)));
        let from = if pinned { start + 1 } else { start };
        if end > from + 1 && ranks[from..end].windows(2).any(|w| w[0] > w[1]) {
            groups.push(from..end);
        }
        start = end;
    }
    if groups.is_empty() {
        return;
    }
    let mut ranked: Vec<(usize, Elem<'_, T>)> = ranks.iter().copied().zip(elems.drain(..)).collect();
    for g in groups {
        let lead = std::mem::take(&mut ranked[g.start].1.lead);
        ranked[g.clone()].sort_by_key(|(r, _)| *r);
        ranked[g.start].1.lead = lead;
    }
    elems.extend(ranked.into_iter().map(|(_, e)| e));
}

/// Puts the keys of every table of known shape in vocabulary order, in place.
pub fn arrange(doc: &mut Doc<'_>, kind: FileKind) {
    let root = Shape::root(kind);
    for section in &mut doc.sections {
        let shape = match &section.header {
            None => root,
            Some(h) => header_shape(root, &h.key, h.array),
        };
        arrange_body(&mut section.body, shape);
    }
}

fn arrange_body<'a>(body: &mut Vec<Elem<'a, KeyVal<'a>>>, shape: Shape) {
    // Nothing inside a table of unknown kind is of a known kind either.
    if shape == Shape::Opaque {
        return;
    }
    let disc = discriminator(shape, body.iter().map(|e| &e.node));
    for e in body.iter_mut() {
        if !matches!(e.node.value, Value::Atom(_)) {
            let vs = value_shape(shape, &e.node, disc);
            arrange_value(&mut e.node.value, vs);
        }
    }
    if shape.rank(None, None).is_some() && body.len() > 1 {
        let ranks: Vec<usize> = body.iter().map(|e| shape.rank(e.node.key.first_name(), disc).unwrap_or(usize::MAX)).collect();
        sort_groups(body, &ranks);
    }
}

fn arrange_value(value: &mut Value<'_>, shape: ValueShape) {
    match value {
        Value::Atom(_) => {}
        Value::Array(a) => {
            let inner = match shape {
                ValueShape::ArrayOf(s) => ValueShape::Table(s),
                _ => ValueShape::Opaque,
            };
            for e in &mut a.elems {
                arrange_value(&mut e.node, inner);
            }
        }
        Value::Table(t) => {
            let s = match shape {
                ValueShape::Table(s) => s,
                _ => Shape::Opaque,
            };
            arrange_body(&mut t.elems, s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_follow_the_vocabulary() {
        let root = Shape::root(FileKind::Data);
        let key = |parts: &[&'static str]| {
            let mut k = Key::new(parts[0]);
            for p in &parts[1..] {
                k.push(p);
            }
            k
        };
        assert_eq!(header_shape(root, &key(&["items"]), true), Shape::Entry(Registry::Items));
        assert_eq!(header_shape(root, &key(&["items", "triggers"]), true), Shape::Fields(TRIGGER_FIELDS));
        assert_eq!(header_shape(root, &key(&["balance"]), false), Shape::Fields(BALANCE_FIELDS));
        assert_eq!(header_shape(root, &key(&["items"]), false), Shape::Opaque, "`[items]` is not an entry");
        assert_eq!(header_shape(root, &key(&["creatures", "attributes"]), false), Shape::Opaque);
        assert_eq!(Shape::Entry(Registry::Creatures).child(Some("ai"), None), ValueShape::ArrayOf(Shape::Fields(AI_FIELDS)));
        assert_eq!(Shape::Fields(TRIGGER_FIELDS).child(Some("condition"), None), ValueShape::ArrayOf(Shape::Check));
    }

    #[test]
    fn ranks_put_id_first_and_unknown_keys_last() {
        let item = Shape::Entry(Registry::Items);
        let r = |k| item.rank(Some(k), None).unwrap();
        assert!(r("id") < r("overrides") && r("overrides") < r("name") && r("name") < r("price"));
        assert_eq!(r("no_such_field"), usize::MAX);
        let check = Shape::Check;
        let c = |k| check.rank(Some(k), Some("attribute")).unwrap();
        assert!(c("check") < c("who") && c("who") < c("attribute") && c("attribute") < c("at_least") && c("at_least") < c("not"));
        let action = Shape::Action;
        let a = |k| action.rank(Some(k), Some("damage")).unwrap();
        assert!(a("action") < a("amount") && a("amount") < a("damage_type") && a("damage_type") < a("target"));
        assert_eq!(Shape::DataRoot.rank(Some("items"), None), None, "the top level keeps the author's order");
    }
}
