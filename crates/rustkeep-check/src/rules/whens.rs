//! `when-never-matches`: a `when` filter names an entry that exists, but the loaded mods never
//! raise its event with it: `item_used` with an item without `use` actions, `room_entered` with a
//! prefab that no floor's `prefabs` names, `npc_talked` with an NPC that no prefab's `npcs`
//! places, `quest_completed` with a quest that no `start_quest` starts. The trigger never fires.

use std::cell::OnceCell;
use std::hash::Hash;

use rustkeep_data::db::Database;
use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::hash::FxHashSet;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::project::Project;
use rustkeep_data::resolve::{Def, Resolved};
use rustkeep_data::source::FileId;
use rustkeep_data::vocab::{field, EventKind, IdText, Registry, WhenField};

/// The rule, for the batch check and the language server.
pub const RULE: super::Whole = super::Whole { name: "when-never-matches", absence: true, run, view: |ff| super::view_hash(|h| view(ff).hash(h)) };

/// The `when` filters this rule judges: the event, its filter field, and the registry the value
/// names.
const JUDGED: [(EventKind, WhenField, Registry); 4] = [
    (EventKind::ItemUsed, WhenField::Item, Registry::Items),
    (EventKind::RoomEntered, WhenField::Prefab, Registry::Prefabs),
    (EventKind::NpcTalked, WhenField::Npc, Registry::Npcs),
    (EventKind::QuestCompleted, WhenField::Quest, Registry::Quests),
];

/// IDs named somewhere, and the names of those written without their namespace (an
/// `invalid-id`, which means the entry of that name: one mistake, one diagnostic).
#[derive(Default)]
struct Named<'a> {
    ids: FxHashSet<&'a str>,
    bare: FxHashSet<&'a str>,
}

impl<'a> Named<'a> {
    /// A name as written, and the ID `[renamed]` leads it to.
    fn add(&mut self, id: &'a str, resolved: &'a Resolved) {
        if !IdText::of(id).is_bare() {
            self.ids.insert(id);
            self.ids.insert(resolved.canonical(id));
        } else {
            self.bare.insert(id);
        }
    }
    /// Whether `id` (a `when` value) or `to`, the ID in force it stands for, is named.
    fn has(&self, id: &str, to: &str) -> bool {
        [id, to].iter().any(|id| self.ids.contains(id) || IdText::of(id).qualified_name().is_some_and(|name| self.bare.contains(name)))
    }
}

/// Every judged `when` value (of every trigger read whole, in every data file) that names an
/// entry in force its event never carries.
pub fn run(_project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    if !db.facts.iter().flatten().any(|ff| ff.whens.iter().any(|(on, w)| judged(*on, w.field).is_some())) {
        return;
    }
    let resolved = &db.resolved;
    // Whether the item in force has `use` actions: only such an item can be used (`use = []` gives
    // none). An outline that cut the field is taken at its word that it has some. Asked of the
    // items the filters name only.
    let usable = |def: &Def| {
        let Some(ff) = db.facts.get(def.current.file.0 as usize).and_then(|f| f.as_deref()) else { return false };
        let index = def.current.index as usize;
        let Some(e) = ff.entries.get(index) else { return false };
        !e.actions(field::USE).is_empty() || (e.field(field::USE).is_none() && ff.sets(index).any(|(d, _)| d.name == field::USE))
    };
    // What names prefabs, NPCs and quests is gathered once, when a filter first asks: each name as
    // written and the ID it stands for (an old ID of `[renamed]` names the ID it leads to).
    let named_by = |registry: Registry, list: &'static str| {
        let mut named = Named::default();
        for def in resolved.defs[registry.index()].values() {
            db.entry(def.current).ref_list(list).iter().for_each(|r| named.add(&r.value, resolved));
        }
        named
    };
    let (rooms, placed, started) = (OnceCell::new(), OnceCell::new(), OnceCell::new());
    let rooms = || rooms.get_or_init(|| named_by(Registry::Floors, field::PREFABS));
    let placed = || placed.get_or_init(|| named_by(Registry::Prefabs, field::NPCS));
    let started = || {
        started.get_or_init(|| {
            let mut started = Named::default();
            db.facts.iter().flatten().flat_map(|ff| &ff.started_quests).for_each(|q| started.add(q, resolved));
            started
        })
    };
    for (f, ff) in db.facts.iter().enumerate() {
        let Some(ff) = ff else { continue };
        for (on, w) in &ff.whens {
            let Some(registry) = judged(*on, w.field) else { continue };
            let id = w.value.value.as_str();
            // A value that names nothing is `unknown-reference`'s finding; `to` is the ID in force
            // it stands for.
            let Some((to, def)) = resolved.in_force(registry, id) else { continue };
            let msg = match registry {
                Registry::Items if !usable(def) => format!(
                    "`{id}` has no `use` actions, so it can never be used and no `item_used` carries it: this trigger never fires. Give `{id}` a `use` list with an action, or filter on an item that has one"
                ),
                Registry::Prefabs if !rooms().has(id, to) => format!(
                    "no floor's `prefabs` names `{id}`, so the dungeon never holds that room and no `room_entered` carries it: this trigger never fires. Name it in the `prefabs` of a floor, or filter on a prefab a floor uses"
                ),
                Registry::Npcs if !placed().has(id, to) => format!(
                    "no prefab's `npcs` places `{id}`, so nobody can talk to it and no `npc_talked` carries it: this trigger never fires. Name it in the `npcs` of a prefab, or filter on an NPC a prefab places"
                ),
                Registry::Quests if !started().has(id, to) => format!(
                    "no `start_quest` action names `{id}`, so it never completes and no `quest_completed` carries it: this trigger never fires. Start it with a `start_quest` action, or filter on a quest that is started"
                ),
                _ => continue,
            };
            out.push(Diagnostic::new(Code::WhenNeverMatches, Loc { file: FileId(f as u32), span: w.value.span.clone() }, msg));
        }
    }
}

/// The registry a `when` value names, for the filters this rule judges (the event carries the
/// field).
fn judged(on: EventKind, field: WhenField) -> Option<Registry> {
    JUDGED.iter().find(|(e, f, _)| *e == on && *f == field).map(|(_, _, r)| *r)
}

/// One entry as this rule reads it: registry, `id`, `overrides`, whether an item sets `use`, a
/// floor's `prefabs` or a prefab's `npcs`.
type View<'a> = (Registry, Option<&'a str>, Option<&'a str>, bool, Vec<&'a str>);

/// One judged `when` value: the registry it names and the value.
type WhenView<'a> = (Registry, &'a str);

/// What this rule reads of one file: the items, floors, prefabs, NPCs and quests (their IDs, an
/// item's `use`, a floor's `prefabs`, a prefab's `npcs`), the quests it starts, and the judged
/// `when` values of its triggers.
fn view(ff: &FileFacts) -> (Vec<View<'_>>, &[String], Vec<WhenView<'_>>) {
    let entries = ff
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.registry, Registry::Items | Registry::Floors | Registry::Prefabs | Registry::Npcs | Registry::Quests))
        .map(|(i, e)| {
            let uses = e.registry == Registry::Items && ff.sets(i).any(|(d, _)| d.name == field::USE);
            let names = match e.registry {
                Registry::Floors => e.ref_list(field::PREFABS).iter().map(|r| r.value.as_str()).collect(),
                Registry::Prefabs => e.ref_list(field::NPCS).iter().map(|r| r.value.as_str()).collect(),
                _ => Vec::new(),
            };
            (e.registry, e.id.as_ref().map(|i| i.value.as_str()), e.overrides.as_ref().map(|o| o.value.as_str()), uses, names)
        })
        .collect();
    let whens = ff.whens.iter().filter_map(|(on, w)| Some((judged(*on, w.field)?, w.value.value.as_str()))).collect();
    (entries, &ff.started_quests, whens)
}
