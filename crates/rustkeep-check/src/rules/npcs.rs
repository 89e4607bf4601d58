//! `npc-never-placed`: an NPC stands in the dungeon only where a prefab's `npcs` names it, so one
//! that no prefab names can never be met.

use std::hash::Hash;

use rustkeep_data::db::Database;
use rustkeep_data::diag::{Code, Diagnostic};
use rustkeep_data::hash::FxHashSet;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::project::Project;
use rustkeep_data::vocab::{field, Registry};

/// The rule, for the batch check and the language server.
pub const RULE: super::Whole = super::Whole { name: "npc-never-placed", absence: true, run, view: |ff| super::view_hash(|h| view(ff).hash(h)) };

/// Every NPC in force that no prefab in force names in `npcs`, but those of content packs.
pub fn run(project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    if db.resolved.defs[Registry::Npcs.index()].is_empty() {
        return;
    }
    let resolved = &db.resolved;
    let mut placed: FxHashSet<&str> = FxHashSet::default();
    for def in resolved.defs[Registry::Prefabs.index()].values() {
        placed.extend(db.entry(def.current).ref_list(field::NPCS).iter().map(|r| r.value.as_str()));
    }
    // Every mod is asked to place its NPCs, also one without prefabs of its own: that is the
    // newcomer who wrote an NPC and forgot the room it stands in.
    let message = |id: &str| {
        format!("no prefab's `npcs` names `{id}`, so nobody can meet it in a game: name it in the `npcs` of a prefab that a floor uses, with an `n` in its grid where it stands")
    };
    super::absent::unnamed(project, db, Registry::Npcs, &placed, Code::NpcNeverPlaced, message, out);
}

/// One entry as this rule reads it: registry, `id`, `overrides`, a prefab's `npcs`.
type View<'a> = (Registry, Option<&'a str>, Option<&'a str>, Vec<&'a str>);

/// What this rule reads of one file: its NPCs (their IDs and what they override) and its prefabs
/// (IDs and the `npcs` they name).
fn view(ff: &FileFacts) -> Vec<View<'_>> {
    ff.entries
        .iter()
        .filter(|e| matches!(e.registry, Registry::Npcs | Registry::Prefabs))
        .map(|e| {
            let npcs = if e.registry == Registry::Prefabs { e.ref_list(field::NPCS).iter().map(|r| r.value.as_str()).collect() } else { Vec::new() };
            (e.registry, e.id.as_ref().map(|i| i.value.as_str()), e.overrides.as_ref().map(|o| o.value.as_str()), npcs)
        })
        .collect()
}
