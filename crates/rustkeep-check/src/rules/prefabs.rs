//! `prefab-never-used`: a floor is built from the prefabs its `prefabs` names, so a prefab that no
//! floor in force names is a room the dungeon never holds. A floor's `first_rooms` only says which
//! of its rooms comes first; a prefab that only `first_rooms` names is `first-room-not-in-prefabs`
//! there (one mistake, one diagnostic), so it counts here.

use rustkeep_data::diag::Code;
use rustkeep_data::vocab::{field, Registry};

use super::absent::Sources;

/// The rule, for the batch check and the language server.
pub const RULE: super::Whole =
    super::Whole { name: "prefab-never-used", absence: true, run: |project, db, out| SOURCES.run(project, db, out), view: |ff| SOURCES.view(ff) };

/// Warns on every prefab in force that no floor in force names in `prefabs` (or `first_rooms`),
/// but those of content packs. Only a floor's `prefabs` lays a room out: no action does, and a
/// scenario's `enter` is a test.
const SOURCES: Sources = Sources {
    registry: Registry::Prefabs,
    floor_fields: &[field::PREFABS, field::FIRST_ROOMS],
    action_field: None,
    code: Code::PrefabNeverUsed,
    message: |id: &str| {
        format!("no floor's `prefabs` names `{id}`, so the dungeon never holds this room: name it in the `prefabs` of a floor where it belongs")
    },
};
