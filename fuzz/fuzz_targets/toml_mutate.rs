//! (b) Structure-aware: one file of a real mod (the examples and clean fixtures, compiled in) is
//! parsed with `toml_edit` and mutated by edits that `arbitrary` picks — replace a value with one
//! of another type (integer limits, inf/nan, long or empty strings, IDs from the files, ranges up
//! to u32::MAX), delete a key, rename a key, duplicate an entry, swap two IDs everywhere — then
//! the mod is checked like `rustkeep check` would, loot tables included.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rustkeep_fuzz::{check_project, project_with};
use toml_edit::{Array, DocumentMut, InlineTable, Item, TableLike, Value};

/// The mods mutated: `(relative path, text)` per file, manifest included.
const MODS: &[&[(&str, &str)]] = &[
    &[
        ("mod.toml", include_str!("../../examples/fire_and_thorns/mod.toml")),
        ("affixes.toml", include_str!("../../examples/fire_and_thorns/affixes.toml")),
        ("creatures.toml", include_str!("../../examples/fire_and_thorns/creatures.toml")),
        ("floors.toml", include_str!("../../examples/fire_and_thorns/floors.toml")),
        ("items.toml", include_str!("../../examples/fire_and_thorns/items.toml")),
        ("loot.toml", include_str!("../../examples/fire_and_thorns/loot.toml")),
        ("statuses.toml", include_str!("../../examples/fire_and_thorns/statuses.toml")),
    ],
    &[
        ("mod.toml", include_str!("../../examples/rat_catcher/mod.toml")),
        ("creatures.toml", include_str!("../../examples/rat_catcher/creatures.toml")),
        ("items.toml", include_str!("../../examples/rat_catcher/items.toml")),
        ("loot.toml", include_str!("../../examples/rat_catcher/loot.toml")),
        ("npcs.toml", include_str!("../../examples/rat_catcher/npcs.toml")),
        ("quests.toml", include_str!("../../examples/rat_catcher/quests.toml")),
        ("statuses.toml", include_str!("../../examples/rat_catcher/statuses.toml")),
        ("world.toml", include_str!("../../examples/rat_catcher/world.toml")),
    ],
    &[
        ("mod.toml", include_str!("../../tests/fixtures/clean_everything/mod.toml")),
        ("items.toml", include_str!("../../tests/fixtures/clean_everything/items.toml")),
        ("loot.toml", include_str!("../../tests/fixtures/clean_everything/loot.toml")),
        ("more.toml", include_str!("../../tests/fixtures/clean_everything/more.toml")),
        ("quests.toml", include_str!("../../tests/fixtures/clean_everything/quests.toml")),
    ],
];

/// Keys and strings edits may introduce: fields, registries, vocabulary, ranges.
const WORDS: &[&str] = &[
    "id",
    "name",
    "overrides",
    "entries",
    "rolls",
    "weight",
    "guaranteed",
    "item",
    "table",
    "affix",
    "nothing",
    "count",
    "affixes",
    "loot",
    "stock",
    "triggers",
    "on",
    "when",
    "condition",
    "actions",
    "action",
    "check",
    "who",
    "target",
    "value",
    "attribute",
    "at_least",
    "below",
    "amount",
    "damage_type",
    "chance",
    "modifiers",
    "add",
    "multiply",
    "grid",
    "prefabs",
    "creatures",
    "depth",
    "items",
    "loot_tables",
    "quests",
    "floors",
    "balance",
    "luck_factor",
    "price",
    "slot",
    "tags",
    "self",
    "fire",
    "creature_died",
    "damage_taken",
    "start_quest",
    "give_item",
    "0-4294967295",
    "4294967295-0",
    "1-3",
    "-1",
    "",
    "core:gold",
    "core:",
    ":x",
    "a:b/c",
];

#[derive(Arbitrary, Debug)]
enum NewValue {
    Int(i64),
    IntMax,
    IntMin,
    U32Max,
    Float(f64),
    Inf,
    NegInf,
    Nan,
    Bool(bool),
    Str(String),
    Word(u8),
    /// An ID or string that occurs in the mod's files.
    Found(u16),
    Array(Vec<NewValue>),
    Table(Vec<(u8, NewValue)>),
    LongStr(u16),
}

impl NewValue {
    fn build(&self, found: &[String], depth: usize) -> Value {
        match self {
            NewValue::Int(i) => Value::from(*i),
            NewValue::IntMax => Value::from(i64::MAX),
            NewValue::IntMin => Value::from(i64::MIN),
            NewValue::U32Max => Value::from(i64::from(u32::MAX)),
            NewValue::Float(f) => Value::from(*f),
            NewValue::Inf => Value::from(f64::INFINITY),
            NewValue::NegInf => Value::from(f64::NEG_INFINITY),
            NewValue::Nan => Value::from(f64::NAN),
            NewValue::Bool(b) => Value::from(*b),
            NewValue::Str(s) => Value::from(s.as_str()),
            NewValue::Word(i) => Value::from(WORDS[*i as usize % WORDS.len()]),
            NewValue::Found(i) if !found.is_empty() => Value::from(found[*i as usize % found.len()].as_str()),
            NewValue::Found(_) => Value::from("core:gold"),
            NewValue::LongStr(n) => Value::from("ü".repeat(*n as usize)),
            NewValue::Array(vs) => {
                let mut a = Array::new();
                if depth < 8 {
                    for v in vs.iter().take(16) {
                        a.push(v.build(found, depth + 1));
                    }
                }
                Value::Array(a)
            }
            NewValue::Table(kvs) => {
                let mut t = InlineTable::new();
                if depth < 8 {
                    for (k, v) in kvs.iter().take(16) {
                        t.insert(WORDS[*k as usize % WORDS.len()], v.build(found, depth + 1));
                    }
                }
                Value::InlineTable(t)
            }
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Op {
    Replace(NewValue),
    DeleteKey(u8),
    RenameKey(u8, u8),
    Duplicate(u8),
    AddKey(u8, NewValue),
}

/// Removes the key at `k` (modulo their number) of a table of either kind, or renames it to
/// `rename_to`; nothing for a table without keys.
fn edit_key(t: &mut dyn TableLike, k: u8, rename_to: Option<&str>) {
    let keys: Vec<String> = t.iter().map(|(k, _)| k.to_string()).collect();
    if keys.is_empty() {
        return;
    }
    if let (Some(old), Some(new)) = (t.remove(&keys[k as usize % keys.len()]), rename_to) {
        t.insert(new, old);
    }
}

#[derive(Arbitrary, Debug)]
enum Edit {
    /// Applies `Op` at the node with this pre-order number.
    At(u16, Op),
    /// Swaps two ID strings everywhere in the file.
    SwapIds(u16, u16),
}

#[derive(Arbitrary, Debug)]
struct Input {
    module: u8,
    file: u8,
    edits: Vec<Edit>,
    luck: f64,
}

/// Pre-order walk that applies `op` to node number `target`.
struct Walker<'a> {
    n: usize,
    target: usize,
    op: &'a Op,
    found: &'a [String],
}

impl Walker<'_> {
    fn hit(&mut self) -> bool {
        let hit = self.n == self.target;
        self.n += 1;
        hit
    }

    fn item(&mut self, item: &mut Item) {
        if self.hit() {
            match (self.op, &mut *item) {
                (Op::Replace(v), _) => *item = Item::Value(v.build(self.found, 0)),
                (Op::Duplicate(k), Item::ArrayOfTables(a)) if !a.is_empty() => {
                    let t = a.get(*k as usize % a.len()).cloned().unwrap_or_default();
                    a.push(t);
                }
                (Op::DeleteKey(k), Item::Table(t)) => edit_key(t, *k, None),
                (Op::RenameKey(k, w), Item::Table(t)) => edit_key(t, *k, Some(WORDS[*w as usize % WORDS.len()])),
                (Op::AddKey(w, v), Item::Table(t)) => {
                    t.insert(WORDS[*w as usize % WORDS.len()], Item::Value(v.build(self.found, 0)));
                }
                (_, Item::Value(v)) => self.apply_value(v),
                _ => {}
            }
            return;
        }
        match item {
            Item::Value(v) => self.value(v),
            Item::Table(t) => {
                for (_, it) in t.iter_mut() {
                    self.item(it);
                }
            }
            Item::ArrayOfTables(a) => {
                for t in a.iter_mut() {
                    for (_, it) in t.iter_mut() {
                        self.item(it);
                    }
                }
            }
            Item::None => {}
        }
    }

    fn apply_value(&mut self, v: &mut Value) {
        match (self.op, v) {
            (Op::Replace(n), v) => *v = n.build(self.found, 0),
            (Op::Duplicate(k), Value::Array(a)) if !a.is_empty() => {
                if let Some(x) = a.get(*k as usize % a.len()).cloned() {
                    a.push(x);
                }
            }
            (Op::DeleteKey(k), Value::InlineTable(t)) => edit_key(t, *k, None),
            (Op::RenameKey(k, w), Value::InlineTable(t)) => edit_key(t, *k, Some(WORDS[*w as usize % WORDS.len()])),
            (Op::AddKey(w, n), Value::InlineTable(t)) => {
                t.insert(WORDS[*w as usize % WORDS.len()], n.build(self.found, 0));
            }
            _ => {}
        }
    }

    fn value(&mut self, v: &mut Value) {
        if self.hit() {
            self.apply_value(v);
            return;
        }
        match v {
            Value::Array(a) => {
                for x in a.iter_mut() {
                    self.value(x);
                }
            }
            Value::InlineTable(t) => {
                for (_, x) in t.iter_mut() {
                    self.value(x);
                }
            }
            _ => {}
        }
    }
}

/// Every string value of the document (IDs, names, ranges).
fn strings(doc: &DocumentMut) -> Vec<String> {
    fn value(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(s.value().clone()),
            Value::Array(a) => a.iter().for_each(|x| value(x, out)),
            Value::InlineTable(t) => t.iter().for_each(|(_, x)| value(x, out)),
            _ => {}
        }
    }
    fn item(i: &Item, out: &mut Vec<String>) {
        match i {
            Item::Value(v) => value(v, out),
            Item::Table(t) => t.iter().for_each(|(_, x)| item(x, out)),
            Item::ArrayOfTables(a) => a.iter().for_each(|t| t.iter().for_each(|(_, x)| item(x, out))),
            Item::None => {}
        }
    }
    let mut out = Vec::new();
    item(doc.as_item(), &mut out);
    out.sort();
    out.dedup();
    out
}

/// Replaces the string `a` by `b` and `b` by `a` everywhere.
fn swap(doc: &mut DocumentMut, a: &str, b: &str) {
    fn value(v: &mut Value, a: &str, b: &str) {
        match v {
            Value::String(s) if s.value() == a => *v = Value::from(b),
            Value::String(s) if s.value() == b => *v = Value::from(a),
            Value::Array(arr) => arr.iter_mut().for_each(|x| value(x, a, b)),
            Value::InlineTable(t) => t.iter_mut().for_each(|(_, x)| value(x, a, b)),
            _ => {}
        }
    }
    fn item(i: &mut Item, a: &str, b: &str) {
        match i {
            Item::Value(v) => value(v, a, b),
            Item::Table(t) => t.iter_mut().for_each(|(_, x)| item(x, a, b)),
            Item::ArrayOfTables(arr) => arr.iter_mut().for_each(|t| t.iter_mut().for_each(|(_, x)| item(x, a, b))),
            Item::None => {}
        }
    }
    item(doc.as_item_mut(), a, b);
}

fuzz_target!(|input: Input| {
    let files = MODS[input.module as usize % MODS.len()];
    let (target, text) = files[input.file as usize % files.len()];
    let Ok(mut doc) = text.parse::<DocumentMut>() else { return };
    for edit in input.edits.iter().take(32) {
        let found = strings(&doc);
        match edit {
            // The root stays a table (toml_edit requires it).
            Edit::At(0, Op::Replace(_)) => {}
            Edit::At(n, op) => {
                let mut w = Walker { n: 0, target: *n as usize, op, found: &found };
                w.item(doc.as_item_mut());
            }
            Edit::SwapIds(a, b) if !found.is_empty() => {
                let a = found[*a as usize % found.len()].clone();
                let b = found[*b as usize % found.len()].clone();
                swap(&mut doc, &a, &b);
            }
            Edit::SwapIds(..) => {}
        }
    }
    let mutated = doc.to_string();
    let owned: Vec<(&str, &[u8])> = files.iter().map(|(rel, t)| if *rel == target { (*rel, mutated.as_bytes()) } else { (*rel, t.as_bytes()) }).collect();
    let p = project_with(&owned);
    check_project(&p, input.luck);
});
