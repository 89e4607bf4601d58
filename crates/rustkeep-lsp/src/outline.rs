//! The outline of a file the editor does not show: what the cross-file features read of it, and
//! nothing else, so that a workspace of a hundred thousand entries fits in memory.
//!
//! The server keeps the full lowered facts of every open document. For every other file it keeps
//! its outline: the entries with their registry, spans, `id` and `overrides`, and every field, whole
//! only for `name`, `rolls`, loot entries, a floor's `prefabs`, a prefab's `grid` and `npcs`, an
//! affix's triggers (which the cross-file rules read); the lists of the other fields are emptied,
//! so that `override-drops-field` still sees which fields an entry sets; its references, carried
//! tags, started quests, `[balance]` settings, allow comments and diagnostics. That is all resolve, the cross-file
//! rules, hover, completion, definitions, references, symbols and loot chances read. Triggers,
//! conditions, actions, modifiers and attributes are emptied once the per-file rules have run.
//! A file with allow comments keeps everything (the comments cover whole entries and fields), and
//! a file is lowered again, in full, when it is opened.

use rustkeep_data::lower::FileFacts;
use rustkeep_data::model::Value;
use rustkeep_data::vocab::{field, Registry};

/// Whether a file's facts can be cut to an outline without changing any diagnostic: allow
/// comments need the spans of every field.
pub fn can_outline(facts: &FileFacts) -> bool {
    facts.allows.is_empty()
}

/// Cuts facts down to their outline (see the module docs).
pub fn outline(mut facts: FileFacts) -> FileFacts {
    if !can_outline(&facts) {
        return facts;
    }
    for e in &mut facts.entries {
        e.quest_trigger = None;
        let world = match e.registry {
            Registry::Floors => Some(field::PREFABS),
            Registry::Prefabs => Some(field::GRID),
            _ => None,
        };
        let registry = e.registry;
        for f in &mut e.fields {
            let whole = matches!(f.value, Value::LootEntries(_))
                || f.def.name == field::NAME
                || f.def.name == field::ROLLS
                || Some(f.def.name) == world
                // `npc-never-placed` reads a prefab's `npcs`, `trigger-never-active` an affix's
                // triggers across files.
                || (registry == Registry::Prefabs && f.def.name == field::NPCS)
                || (registry == Registry::Affixes && f.def.name == field::TRIGGERS);
            if !whole {
                hollow(&mut f.value);
            }
        }
        e.fields.shrink_to_fit();
    }
    facts
}

/// Keeps a field that the cross-file rules read only for being there (`override-drops-field`
/// compares which fields an override and its target set; `trigger-never-active` asks whether an
/// item has a `slot`): small values stay, lists become empty.
fn hollow(value: &mut Value) {
    match value {
        Value::Attributes(v) => *v = Vec::new(),
        Value::Modifiers(v) => *v = Vec::new(),
        Value::Triggers(v) => *v = Vec::new(),
        Value::Actions(v) => *v = Vec::new(),
        Value::Ai(v) => *v = Vec::new(),
        Value::Conditions(v) => *v = Vec::new(),
        Value::When(v) => *v = Vec::new(),
        Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Ref(_) | Value::Range(_) | Value::Event(_) => {}
        Value::RefList(_) | Value::Tags(_) | Value::Strs(_) | Value::LootEntries(_) | Value::Grid(_) => {}
    }
}
