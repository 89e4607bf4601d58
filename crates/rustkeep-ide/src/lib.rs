//! The pipelines the front ends share, one layer above the validator and the engine: the command
//! line and the language server ask here instead of each putting `rustkeep-check` and
//! `rustkeep-engine` together its own way.
//!
//! - [`valid_world`]: the world of a project, refused when its data has errors — the engine
//!   validates nothing, so this is the one door to it for data that comes from files.
//! - [`scenario`]: a scenario file opened for a run — loaded with its mods, its own mistakes and
//!   the data's refused with their places, its model read — as `rustkeep simulate`, `rustkeep
//!   test`, `rustkeep arena` and the editor's scenario runs need it.

#![forbid(unsafe_code)]

use rustkeep_data::project::Project;
use rustkeep_engine::game::World;

pub mod scenario;

/// The world of a loaded project, or the refusal when the validator finds errors (their count
/// and the first of them).
pub fn valid_world(project: Project) -> Result<World, String> {
    let valid = rustkeep_check::validate(&project)?;
    Ok(World::new(project, valid))
}
