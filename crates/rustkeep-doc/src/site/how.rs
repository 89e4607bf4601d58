//! How an entry names an ID, in words, for an entry's "Referred to by": the field that holds the
//! reference, or the action, check or `when` filter holding it and where that sits in the entry
//! (its `ai`, a trigger, an action list, a loot entry). `(creature, creature)` said only which
//! key held the ID; "a `spawn` action of its `ai`" says what the entry does with it.

use rustkeep_data::model::{Action, Condition, Entry, LootEntry, LootKind, Trigger, Value, When};
use rustkeep_data::text::Span;
use rustkeep_data::vocab::{field, Registry};

/// How `e` names the ID whose reference starts at byte `at` of its file; `context` (the key
/// holding it, as lowering recorded it) when nothing more precise is known.
pub fn how(e: &Entry, at: usize, context: &str) -> String {
    if let Some(f) = e.fields.iter().find(|f| holds(&f.span, at)) {
        let name = f.def.name;
        let said = match &f.value {
            Value::Actions(list) => action(list, at).map(|a| {
                if e.registry == Registry::Quests && name == field::ACTIONS {
                    format!("{a} of its reward")
                } else {
                    format!("{a} of its `{name}`")
                }
            }),
            Value::Ai(rules) => at_of(rules, at, |r| &r.span)
                .and_then(|r| action(&r.actions, at).or_else(|| check(&r.condition, at)))
                .map(|part| format!("{part} of its `{name}`")),
            Value::Triggers(triggers) => at_of(triggers, at, |t| &t.span).and_then(|t| in_trigger(t, at)),
            Value::Modifiers(list) => at_of(list, at, |m| &m.span).and_then(|m| check(&m.condition, at)).map(|c| format!("{c} of its `{name}`")),
            Value::Conditions(list) => check(list, at).map(|c| format!("{c} of its `{name}`")),
            Value::When(list) => when(list, at).map(|w| format!("its `{name}` filter on `{w}`")),
            Value::LootEntries(list) => at_of(list, at, |le| &le.span).map(|le| loot_entry(le, at, name)),
            _ => None,
        };
        return said.unwrap_or_else(|| format!("its `{name}`"));
    }
    format!("its `{context}`")
}

/// Whether a span holds the byte `at`.
fn holds(span: &Span, at: usize) -> bool {
    span.start <= at && at < span.end
}

/// The element of `list` (in the order written, as lowering keeps them) whose span holds `at`:
/// found by binary search, so an entry with thousands of actions costs no more per reference.
fn at_of<T>(list: &[T], at: usize, span: impl Fn(&T) -> &Span) -> Option<&T> {
    let i = list.partition_point(|x| span(x).start <= at);
    list[..i].last().filter(|x| holds(span(x), at))
}

/// "a `spawn` action", for the action of `list` holding `at`.
fn action(list: &[Action], at: usize) -> Option<String> {
    at_of(list, at, |a| &a.span).map(|a| format!("a `{}` action", a.kind.name()))
}

/// "a `has_item` check", for the check of `list` holding `at`.
fn check(list: &[Condition], at: usize) -> Option<String> {
    at_of(list, at, |c| &c.span).map(|c| format!("a `{}` check", c.kind.name()))
}

/// The `when` key whose value holds `at`.
fn when(list: &[When], at: usize) -> Option<&'static str> {
    at_of(list, at, |w| &w.value.span).map(|w| w.field.name())
}

/// A part of a trigger of a `triggers` list: "a `start_quest` action of its trigger on `npc_talked`".
fn in_trigger(t: &Trigger, at: usize) -> Option<String> {
    let on = t.on.as_ref().map_or(String::new(), |on| format!(" on `{}`", on.value.name()));
    if let Some(key) = when(&t.when, at) {
        return Some(format!("the `{}` filter on `{key}` of its trigger{on}", field::WHEN));
    }
    let part = action(&t.actions, at).or_else(|| check(&t.condition, at))?;
    Some(format!("{part} of its trigger{on}"))
}

/// A loot table's entry: "an item entry of its `entries`", or its `affixes` table.
fn loot_entry(le: &LootEntry, at: usize, name: &str) -> String {
    if le.affixes.as_ref().is_some_and(|a| holds(&a.span, at)) {
        return format!("the `{}` table of an entry of its `{name}`", field::AFFIXES);
    }
    let kind = match le.kind {
        LootKind::Item(_) => "an item entry",
        LootKind::Table(_) => "a nested table entry",
        LootKind::Affix(_) => "an affix entry",
        LootKind::Nothing => "an entry",
    };
    format!("{kind} of its `{name}`")
}
