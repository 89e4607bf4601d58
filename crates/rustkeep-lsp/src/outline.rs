//! The outline of a file the editor does not show: what the cross-file features read of it, and
//! nothing else, so that a workspace of a hundred thousand entries fits in memory.
//!
//! The server keeps the full lowered facts of every open document. For every other file it keeps
//! its outline: the entries with their registry, spans, `id` and `overrides`, and of their fields
//! only `name`, `rolls`, loot entries, a floor's `prefabs` and a prefab's `grid` (which
//! `floor-without-exit` reads across files); its references, carried tags, started quests,
//! `[balance]` settings, allow comments and diagnostics. That is all resolve, the cross-file
//! rules, hover, completion, definitions, references, symbols and loot chances read. Triggers,
//! conditions, actions, modifiers and attributes are dropped once the per-file rules have run.
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
        e.fields.retain(|f| matches!(f.value, Value::LootEntries(_)) || f.def.name == field::NAME || f.def.name == field::ROLLS || Some(f.def.name) == world);
        e.fields.shrink_to_fit();
    }
    facts
}
