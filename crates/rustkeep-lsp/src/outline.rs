//! The outline of a file the editor does not show: what the cross-file features read of it, and
//! nothing else, so that a workspace of a hundred thousand entries fits in memory.
//!
//! The server keeps the full lowered facts of every open document. For every other file it keeps
//! its outline: the entries with their registry, spans, `id` and `overrides`; of their fields,
//! whole only `name`, `rolls`, loot entries, a floor's `prefabs`, `first_rooms` and
//! `creatures`, a character option's `group`, a prefab's `grid` and `npcs`, an item's `slot` and
//! an affix's `triggers` (its first trigger, emptied: which the cross-file rules read); of every
//! other field only its definition and key span ([`CutFields`]), so that `override-drops-field`
//! still sees which fields an entry sets; the file's references, carried tags, started quests,
//! given items, `when` filters, `[balance]` settings, allow comments and diagnostics. That is all
//! resolve, the cross-file rules, hover, completion, definitions, references, symbols and loot
//! chances read. A file with allow comments keeps everything (the comments cover whole entries and
//! fields), and a file is lowered again, in full, when it is opened.

use rustkeep_data::lower::{CutFields, FileFacts};
use rustkeep_data::model::{Field, Value};
use rustkeep_data::vocab::{field, Registry};

/// Whether a file's facts can be cut to an outline without changing any diagnostic: allow
/// comments need the spans of every field.
pub fn can_outline(facts: &FileFacts) -> bool {
    facts.allows.is_empty()
}

/// Whether an outline keeps a field whole: what the cross-file rules read of its value.
fn whole(registry: Registry, f: &Field) -> bool {
    matches!(f.value, Value::LootEntries(_))
        || f.def.name == field::NAME
        || f.def.name == field::ROLLS
        || matches!(
            (registry, f.def.name),
            (Registry::Floors, field::PREFABS | field::FIRST_ROOMS | field::CREATURES)
                | (Registry::CharacterOptions, field::GROUP)
                | (Registry::Prefabs, field::GRID | field::NPCS)
                | (Registry::Items, field::SLOT)
                | (Registry::Affixes, field::TRIGGERS)
        )
}

/// Cuts facts down to their outline (see the module docs).
pub fn outline(mut facts: FileFacts) -> FileFacts {
    if !can_outline(&facts) {
        return facts;
    }
    facts.cut = CutFields::cut(&mut facts.entries, whole);
    for e in &mut facts.entries {
        e.quest_trigger = None;
        // `trigger-never-active` asks only whether an affix has a trigger, and where its
        // `triggers` key is: the first trigger stays, as an empty shell.
        for f in &mut e.fields {
            if let Value::Triggers(list) = &mut f.value {
                list.truncate(1);
                list.shrink_to_fit();
                for t in list.iter_mut() {
                    (t.when, t.condition, t.actions) = (Vec::new(), Vec::new(), Vec::new());
                }
            }
        }
    }
    facts
}
