//! `trigger-never-active`: an item's triggers (and those of the affixes on it) run only while the
//! item is equipped, so triggers on an item without `slot` never run, nor do those of an affix
//! that no loot table can put on an item with a slot.
//!
//! The item half needs nothing but the entry (it runs per file, in `rules::local`); the affix half
//! follows every item table's `affixes =` into the affix tables it names (across files).

use rustkeep_data::db::Database;
use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::hash::FxHashSet;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::model::{Entry, LootKind};
use rustkeep_data::project::Project;
use rustkeep_data::source::FileId;
use rustkeep_data::text::Span;
use rustkeep_data::vocab::{field, Registry};

/// The `triggers` field of an entry, when it holds at least one trigger.
fn triggers_field(e: &Entry) -> Option<&rustkeep_data::model::Field> {
    e.field(field::TRIGGERS).filter(|_| !e.triggers().is_empty())
}

/// The per-file half: an item with triggers and without `slot`.
pub fn run_entry(file: FileId, e: &Entry, out: &mut Vec<Diagnostic>) {
    if e.registry != Registry::Items || e.field(field::SLOT).is_some() {
        return;
    }
    let Some(t) = triggers_field(e) else { return };
    let id = e.key().map(|k| k.value.as_str()).unwrap_or("this item");
    let msg = format!(
        "`{id}` has no `slot`, so it is never equipped, and an item's triggers run only while it is equipped: these never run. Give it a `slot`, or make the effect a `use` action"
    );
    out.push(Diagnostic::new(Code::TriggerNeverActive, Loc { file, span: t.key_span.clone() }, msg));
}

/// The cross-file half: every affix in force with triggers that no loot table in force puts on an
/// item with a slot (through an item entry's `affixes =`, and the affix tables nested in it).
pub fn run(_project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    // While some text could not be read, the place or table that would answer may sit in it:
    // an absence is claimed only over data that was read whole (one mistake, one diagnostic).
    if db.facts.iter().flatten().any(|ff| !ff.unreadable.is_empty()) {
        return;
    }
    let resolved = &db.resolved;
    let affixes = &resolved.defs[Registry::Affixes.index()];
    let mut with_triggers: Vec<&String> = affixes.iter().filter(|(_, d)| triggers_field(db.entry(d.current)).is_some()).map(|(id, _)| id).collect();
    if with_triggers.is_empty() {
        return;
    }
    let tables = &resolved.defs[Registry::LootTables.index()];
    let slotted = |item: &str| resolved.get(Registry::Items, item).is_some_and(|d| db.entry(d.current).field(field::SLOT).is_some());
    // The affix tables that some item entry with a slotted item names, then the tables nested in
    // those (a visited set stops at cycles, which `loot-table-cycle` reports).
    let mut seen: FxHashSet<&str> = FxHashSet::default();
    let mut stack: Vec<&str> = Vec::new();
    for def in tables.values() {
        for le in db.entry(def.current).loot_entries() {
            if let (LootKind::Item(item), Some(t)) = (&le.kind, &le.affixes) {
                // An affix table already reached needs no second look at the item (the lookup
                // is most of this rule's time on a large pack).
                if !seen.contains(t.value.as_str()) && slotted(&item.value) {
                    seen.insert(t.value.as_str());
                    stack.push(t.value.as_str());
                }
            }
        }
    }
    let mut reached: FxHashSet<&str> = FxHashSet::default();
    while let Some(t) = stack.pop() {
        let Some(def) = tables.get(t) else { continue };
        for le in db.entry(def.current).loot_entries() {
            match &le.kind {
                LootKind::Affix(a) => {
                    reached.insert(a.value.as_str());
                }
                LootKind::Table(n) if seen.insert(n.value.as_str()) => stack.push(n.value.as_str()),
                _ => {}
            }
        }
    }
    with_triggers.retain(|id| !reached.contains(id.as_str()));
    with_triggers.sort();
    for id in with_triggers {
        let def = &affixes[id];
        let Some(t) = triggers_field(db.entry(def.current)) else { continue };
        let msg = format!(
            "no loot table puts `{id}` on an item with a slot, so it never sits on an equipped item, and an affix's triggers run only while its item is equipped: these never run. Name it in an affix table that an item entry with a slotted item names in `affixes =`"
        );
        out.push(Diagnostic::new(Code::TriggerNeverActive, Loc { file: def.current.file, span: t.key_span.clone() }, msg));
    }
}

/// One entry as the cross-file half reads it: registry, `id`, `overrides`, the span of an affix's
/// triggers (or `0..0` for an item's slot), and a loot table's entries (kind, ID, `affixes`).
pub type View<'a> = (Registry, Option<&'a str>, Option<&'a str>, Option<Span>, Vec<(u8, &'a str, Option<&'a str>)>);

/// What the cross-file half reads of one file: its affixes (with the span of their triggers, if
/// any), whether its items have a slot, and what its loot tables' entries name. The language
/// server runs the rule again only when this differs between two versions of a file.
pub fn view(ff: &FileFacts) -> Vec<View<'_>> {
    ff.entries
        .iter()
        .filter(|e| matches!(e.registry, Registry::Items | Registry::Affixes | Registry::LootTables))
        .map(|e| {
            let (mark, parts) = match e.registry {
                Registry::Affixes => (triggers_field(e).map(|t| t.key_span.clone()), Vec::new()),
                Registry::Items => (e.field(field::SLOT).map(|_| 0..0), Vec::new()),
                _ => {
                    let parts = e
                        .loot_entries()
                        .iter()
                        .map(|le| {
                            let affixes = le.affixes.as_ref().map(|a| a.value.as_str());
                            match &le.kind {
                                LootKind::Item(i) => (0, i.value.as_str(), affixes),
                                LootKind::Table(t) => (1, t.value.as_str(), affixes),
                                LootKind::Affix(a) => (2, a.value.as_str(), affixes),
                                LootKind::Nothing => (3, "", affixes),
                            }
                        })
                        .collect();
                    (None, parts)
                }
            };
            (e.registry, e.id.as_ref().map(|i| i.value.as_str()), e.overrides.as_ref().map(|o| o.value.as_str()), mark, parts)
        })
        .collect()
}
