//! The worlds the engine's tests play in. The engine validates nothing: these are the checked
//! examples, the bundled core, and small mods written for one test.
#![allow(dead_code)]

use std::path::PathBuf;

use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_engine::game::{Game, World};
use rustkeep_engine::save;
use rustkeep_testutil::repo_root;

/// The manifest of the test mod `t`.
pub const MANIFEST: &str = "[mod]\nid = \"t\"\nname = \"T\"\nversion = \"0.1.0\"\n";

/// The world of `project`, whose data the validator must find no errors in.
pub fn world(project: Project) -> World {
    let valid = rustkeep_check::validate(&project).unwrap_or_else(|refusal| panic!("{refusal}"));
    World::new(project, valid)
}

/// `g` saved, the JSON of its state changed by `edit`, and loaded again: a state no step reaches
/// (a test's arrangement) comes in through the door every state comes in by, a save.
pub fn edited(g: &Game, w: &World, edit: impl FnOnce(&mut serde_json::Value)) -> Game {
    let mut json: serde_json::Value = serde_json::from_str(&save::to_json(g)).expect("a save is JSON");
    edit(&mut json["game"]);
    save::from_json(&json.to_string(), w).expect("the edited save loads").0
}

/// The bundled core alone.
pub fn core_world() -> World {
    world(Project::with_bundled_core())
}

/// The core plus a mod `t` holding `files` (its manifest added).
pub fn world_with(files: &[(&str, &str)]) -> World {
    let mut project = Project::with_bundled_core();
    let mut all = vec![("mod.toml", MANIFEST)];
    all.extend_from_slice(files);
    project.add_memory_mod("t", &all);
    world(project)
}

/// The core with the mods below the repository's `paths` (none: the bundled core alone).
pub fn world_of(paths: &[&str]) -> World {
    if paths.is_empty() {
        return core_world();
    }
    let root = repo_root();
    let paths: Vec<PathBuf> = paths.iter().map(|p| root.join(p)).collect();
    world(load(&paths, root, &Overlay::new()))
}
