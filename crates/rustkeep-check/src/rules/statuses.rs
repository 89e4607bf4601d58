//! `status-never-applied`: a creature gets a status only from an `apply_status` action (no field
//! of an item, affix or creature applies one), so a status that none names never takes hold.

use rustkeep_data::diag::Code;
use rustkeep_data::vocab::{field, Registry};

use super::absent::Sources;

/// The rule, for the batch check and the language server.
pub const RULE: super::Whole =
    super::Whole { name: "status-never-applied", absence: true, run: |project, db, out| SOURCES.run(project, db, out), view: |ff| SOURCES.view(ff) };

/// Warns on every status in force that no `apply_status` action names, but those of content packs.
const SOURCES: Sources = Sources::actions_only(Registry::Statuses, field::STATUS, Code::StatusNeverApplied, |id: &str| {
    format!(
        "no `apply_status` action names `{id}`, so nothing ever has this status and its modifiers and triggers never act: apply it with `{{ action = \"apply_status\", status = \"{id}\", target = \"target\" }}` in a trigger, an item's `use` or an `ai` rule"
    )
});
