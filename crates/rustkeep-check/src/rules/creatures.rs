//! `creature-never-met`: a creature enters a game where a floor's `creatures` names it (its
//! rooms' `e` glyphs draw from them) or a `spawn` action calls it up; one that neither names is
//! never met. A scenario's `[[enemies]]` puts it in a test, not in the game.

use rustkeep_data::diag::Code;
use rustkeep_data::vocab::{field, Registry};

use super::absent::Sources;

/// The rule, for the batch check and the language server.
pub const RULE: super::Whole =
    super::Whole { name: "creature-never-met", absence: true, run: |project, db, out| SOURCES.run(project, db, out), view: |ff| SOURCES.view(ff) };

/// Warns on every creature in force that no floor in force names in `creatures` and no `spawn`
/// action names, but those of content packs.
const SOURCES: Sources = Sources {
    registry: Registry::Creatures,
    floor_fields: &[field::CREATURES],
    action_field: Some(field::CREATURE),
    code: Code::CreatureNeverMet,
    message: |id: &str| {
        format!(
            "no floor's `creatures` and no `spawn` action names `{id}`, so nobody can meet it in a game: name it in the `creatures` of a floor whose rooms have `e` glyphs, or spawn it with `{{ action = \"spawn\", creature = \"{id}\" }}`"
        )
    },
};
