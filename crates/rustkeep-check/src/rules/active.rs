//! `trigger-never-active`: an item's triggers (and those of the affixes on it) run only while the
//! item is equipped, so triggers on an item without `slot` never run, nor do those of an affix
//! that no loot table can put on an item with a slot.
//!
//! The item half needs nothing but the entry (it runs per file, in `rules::local`); the affix half
//! follows the item entries' `affixes =` into the affix tables they name (across files), in load
//! order, stopping once every affix with triggers is reached. It is a [`super::Whole`] rule: the
//! language server runs it again only when what it reads of a changed file ([`view`]) differs.

use std::hash::Hash;

use rustkeep_data::db::Database;
use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::hash::FxHashSet;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::model::{Entry, LootKind};
use rustkeep_data::project::Project;
use rustkeep_data::resolve::EntryRef;
use rustkeep_data::source::FileId;
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

/// The cross-file half, for the batch check and the language server.
pub const RULE: super::Whole = super::Whole { name: "trigger-never-active", absence: true, run, view: |ff| super::view_hash(|h| view(ff).hash(h)) };

/// The cross-file half: every affix in force with triggers that no loot table in force puts on an
/// item with a slot (through an item entry's `affixes =`, and the affix tables nested in it).
///
/// The tables are read in load order and the search stops once every affix with triggers is
/// reached: a mod's affixes are put on items by its own tables or by those of the mods it builds
/// on, so on a clean workspace the scan ends early (in the core, for the core's affixes), and
/// only a workspace with an affix to report reads every table.
pub fn run(project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    let resolved = &db.resolved;
    let affixes = &resolved.defs[Registry::Affixes.index()];
    let with_triggers: Vec<&str> = affixes.iter().filter(|(_, d)| triggers_field(db.entry(d.current)).is_some()).map(|(id, _)| id.as_str()).collect();
    if with_triggers.is_empty() {
        return;
    }
    let wanted: FxHashSet<&str> = with_triggers.iter().copied().collect();
    let tables = &resolved.defs[Registry::LootTables.index()];
    let mut walk = Walk { db, seen: FxHashSet::default(), reached: FxHashSet::default(), wanted: &wanted, left: wanted.len() };
    'scan: for &mi in &resolved.order {
        let Some(m) = project.mods.get(mi) else { continue };
        for &fid in &m.data_files {
            let Some(ff) = db.facts.get(fid.0 as usize).and_then(|f| f.as_deref()) else { continue };
            for (index, e) in ff.entries.iter().enumerate() {
                if e.registry != Registry::LootTables {
                    continue;
                }
                // Only the entry in force of its ID counts (an override replaces the original).
                let here = EntryRef { file: fid, index: index as u32 };
                if ![&e.overrides, &e.id].into_iter().flatten().any(|k| tables.get(&k.value).is_some_and(|d| d.current == here)) {
                    continue;
                }
                for (t, item) in seed_pairs(e) {
                    // An affix table already reached needs no second look at the item (the
                    // lookup is most of this rule's time on a large pack).
                    if !walk.seen.contains(t) && slotted(db, item) {
                        walk.from(t);
                        if walk.left == 0 {
                            break 'scan;
                        }
                    }
                }
            }
        }
    }
    let mut unreached: Vec<&str> = with_triggers.into_iter().filter(|id| !walk.reached.contains(id)).collect();
    unreached.sort_unstable();
    for id in unreached {
        never_active(db, id, out);
    }
}

/// The forward search of [`run`]: the affix tables reached so far (a visited set, which also stops
/// at cycles, which `loot-table-cycle` reports), the affixes they name, and how many of the
/// wanted affixes are still to be reached.
struct Walk<'a> {
    db: &'a Database,
    seen: FxHashSet<&'a str>,
    reached: FxHashSet<&'a str>,
    wanted: &'a FxHashSet<&'a str>,
    left: usize,
}

impl<'a> Walk<'a> {
    /// Walks from the affix table `t` through the tables nested in it.
    fn from(&mut self, t: &'a str) {
        let tables = &self.db.resolved.defs[Registry::LootTables.index()];
        if !self.seen.insert(t) {
            return;
        }
        let mut stack = vec![t];
        while let Some(t) = stack.pop() {
            let Some(def) = tables.get(t) else { continue };
            for le in self.db.entry(def.current).loot_entries() {
                match &le.kind {
                    LootKind::Affix(a) => {
                        let a = a.value.as_str();
                        if self.wanted.contains(a) && self.reached.insert(a) {
                            self.left -= 1;
                        }
                    }
                    LootKind::Table(n) if self.seen.insert(n.value.as_str()) => stack.push(n.value.as_str()),
                    _ => {}
                }
            }
        }
    }
}

/// Whether the item `id` in force has a slot.
fn slotted(db: &Database, id: &str) -> bool {
    db.resolved.get(Registry::Items, id).is_some_and(|d| db.entry(d.current).field(field::SLOT).is_some())
}

/// The (affix table, item) pairs of a loot table's item entries with `affixes =`: where the rule's
/// search starts, once the item is known to have a slot.
fn seed_pairs(e: &Entry) -> impl Iterator<Item = (&str, &str)> {
    e.loot_entries().iter().filter_map(|le| match (&le.kind, &le.affixes) {
        (LootKind::Item(item), Some(t)) => Some((t.value.as_str(), item.value.as_str())),
        _ => None,
    })
}

/// The diagnostic of an affix in force whose triggers never run.
fn never_active(db: &Database, id: &str, out: &mut Vec<Diagnostic>) {
    let Some(def) = db.resolved.get(Registry::Affixes, id) else { return };
    let Some(t) = triggers_field(db.entry(def.current)) else { return };
    let msg = format!(
        "no loot table puts `{id}` on an item with a slot, so it never sits on an equipped item, and an affix's triggers run only while its item is equipped: these never run. Name it in an affix table that an item entry with a slotted item names in `affixes =`"
    );
    out.push(Diagnostic::new(Code::TriggerNeverActive, Loc { file: def.current.file, span: t.key_span.clone() }, msg));
}

/// One entry as the cross-file half reads it: registry, `id`, `overrides`, whether an affix has
/// triggers or an item a slot, and a loot table's entries (kind, ID, `affixes`).
type View<'a> = (Registry, Option<&'a str>, Option<&'a str>, bool, Vec<(u8, &'a str, Option<&'a str>)>);

/// What the cross-file half reads of one file: its affixes (whether they have triggers), whether
/// its items have a slot, and what its loot tables' entries name.
fn view(ff: &FileFacts) -> Vec<View<'_>> {
    ff.entries
        .iter()
        .filter(|e| matches!(e.registry, Registry::Items | Registry::Affixes | Registry::LootTables))
        .map(|e| {
            let (mark, parts) = match e.registry {
                Registry::Affixes => (triggers_field(e).is_some(), Vec::new()),
                Registry::Items => (e.field(field::SLOT).is_some(), Vec::new()),
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
                    (false, parts)
                }
            };
            (e.registry, e.id.as_ref().map(|i| i.value.as_str()), e.overrides.as_ref().map(|o| o.value.as_str()), mark, parts)
        })
        .collect()
}
