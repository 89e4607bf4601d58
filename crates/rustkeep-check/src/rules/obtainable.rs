//! `item-never-obtainable`: an item reaches the player only through a loot table (a creature's
//! drops, a floor's or a prefab's `l` piles, a shop's `stock`, all of them item tables whose
//! entries name items, nested or not) or a `give_item` action (a trigger, a quest's reward, a
//! character option's `on_create`, an NPC's `on_talk`, an item's `use`, …). An item that no loot
//! table lists and no `give_item` names can never be had in a game.

use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::vocab::Registry;

use super::usage::Count;

/// The rule, judged per item, for the batch check and the language server.
pub const RULE: super::PerId = super::PerId {
    name: "item-never-obtainable",
    registries: &[Registry::Items],
    reads: super::Reads::Count(Count::Given),
    absence: true,
    run: |cx, _registry, id, def| {
        if cx.counts.named_or_bare(Count::Given, id) || super::in_pack(&cx.packs, id) {
            return Vec::new();
        }
        let e = cx.db.entry(def.current);
        let loc = Loc { file: def.current.file, span: e.key().map_or(e.span.clone(), |k| k.span.clone()) };
        let message = format!(
            "no loot table lists `{id}` and no `give_item` action names it, so no player can ever get it: add it to the entries of a loot table (a creature's `loot`, a floor's or a prefab's piles, a shop's `stock`), or give it with `give_item` (a quest's reward, a character option's `on_create`, an NPC's `on_talk`)"
        );
        vec![(def.current, Diagnostic::new(Code::ItemNeverObtainable, loc, message))]
    },
};
