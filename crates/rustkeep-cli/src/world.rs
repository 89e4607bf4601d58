//! The world the engine plays on. The engine validates nothing, so the commands that run data
//! (`simulate`, `play`, `graph`) refuse data with validation errors here, with the validator's
//! count and its first errors.

use std::path::PathBuf;

use rustkeep_data::project::{discover, Project, WhenNothing};
use rustkeep_engine::game::World;

/// The world of a loaded project, or the refusal when the validator finds errors.
pub fn open(project: Project) -> Result<World, String> {
    rustkeep_ide::valid_world(project)
}

/// Loads the bundled core plus the mods found by the one discovery rule from `mods` (none: from
/// the current folder; no mod there: the core alone) and opens its world.
pub fn load_mods(mods: &[PathBuf]) -> Result<World, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current folder: {e}"))?;
    open(discover(mods, &cwd, WhenNothing::CoreAlone)?)
}
