//! `item-never-obtainable`: an item reaches the player only through a loot table (a creature's
//! drops, a floor's or a prefab's `l` piles, a shop's `stock`, all of them item tables whose
//! entries name items, nested or not) or a `give_item` action (a trigger, a quest's reward, a
//! character option's `on_create`, an NPC's `on_talk`, an item's `use`, …). An item that no loot
//! table lists and no `give_item` names can never be had in a game.

use std::hash::Hash;

use rustkeep_data::db::Database;
use rustkeep_data::diag::{Code, Diagnostic};
use rustkeep_data::hash::FxHashSet;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::model::LootKind;
use rustkeep_data::project::Project;
use rustkeep_data::vocab::Registry;

/// The rule, for the batch check and the language server.
pub const RULE: super::Whole = super::Whole { name: "item-never-obtainable", run, view: |ff| super::view_hash(|h| view(ff).hash(h)) };

/// Every item in force that no loot table and no `give_item` of a data file names, but those of
/// content packs.
pub fn run(project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    if !super::absent::any_to_claim(db, Registry::Items) {
        return;
    }
    let mut given: FxHashSet<&str> = FxHashSet::default();
    // Every loot table counts, nested or not, used or not, wherever a data file writes it:
    // whatever rolls it (a creature's `loot`, a floor's or a prefab's piles, a shop's `stock`,
    // another table) hands out its items, a table nothing rolls is `unused-loot-table`'s finding,
    // and one an override replaced is the override's business.
    for ff in db.facts.iter().flatten().filter(|ff| ff.scenario.is_none()) {
        given.extend(listed(ff));
    }
    // `give_item` wherever a data file writes it, as `start_quest` counts for
    // `quest-never-started` (an override that drops the action is `override-drops-field`'s
    // finding); a scenario gives nothing in a game.
    for ff in db.facts.iter().flatten().filter(|ff| ff.scenario.is_none()) {
        given.extend(ff.given_items.iter().map(String::as_str));
    }
    let message = |id: &str| {
        format!(
            "no loot table lists `{id}` and no `give_item` action names it, so no player can ever get it: add it to the entries of a loot table (a creature's `loot`, a floor's or a prefab's piles, a shop's `stock`), or give it with `give_item` (a quest's reward, a character option's `on_create`, an NPC's `on_talk`)"
        )
    };
    super::absent::unnamed(project, db, Registry::Items, &given, Code::ItemNeverObtainable, message, out);
}

/// The items the loot tables of a file list.
fn listed(ff: &FileFacts) -> impl Iterator<Item = &str> {
    ff.entries.iter().filter(|e| e.registry == Registry::LootTables).flat_map(|e| e.loot_entries()).filter_map(|le| match &le.kind {
        LootKind::Item(item) => Some(item.value.as_str()),
        _ => None,
    })
}

/// An item as this rule reads it: its `id` and what it overrides.
type ItemView<'a> = (Option<&'a str>, Option<&'a str>);

/// What this rule reads of one file: its items' IDs and what they override, the items its loot
/// tables list, and the items its `give_item` actions name.
fn view(ff: &FileFacts) -> (Vec<ItemView<'_>>, Vec<&str>, &[String]) {
    let items = ff
        .entries
        .iter()
        .filter(|e| e.registry == Registry::Items)
        .map(|e| (e.id.as_ref().map(|i| i.value.as_str()), e.overrides.as_ref().map(|o| o.value.as_str())))
        .collect();
    (items, listed(ff).collect(), &ff.given_items)
}
