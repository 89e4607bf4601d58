//! The worlds the engine's tests play in. The engine validates nothing: these are the checked
//! examples, the bundled core, and small mods written for one test.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use rustkeep_data::diag::Severity;
use rustkeep_data::lower::lower_scenario;
use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_data::source::FileId;
use rustkeep_data::text::LineIndex;
use rustkeep_engine::game::{Game, World};
use rustkeep_engine::save;
use rustkeep_engine::scenario::{run, Report, Scenario};
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

/// A scenario's text read with the validator's lowering, or the messages of its errors, one per
/// line (the front ends refuse such a scenario before it reaches the engine).
pub fn scenario(text: &str) -> Result<Scenario, String> {
    let facts = lower_scenario(FileId(0), text, None);
    let errors: Vec<&str> = facts.diagnostics.iter().filter(|d| d.severity == Severity::Error).map(|d| d.message.as_str()).collect();
    if !errors.is_empty() {
        return Err(format!("the scenario is not valid:\n{}", errors.join("\n")));
    }
    Ok(Scenario::from_model(&facts.scenario.map(|b| *b).unwrap_or_default(), &LineIndex::new(text)))
}

/// Reads and runs a scenario file on the bundled core and the mods it names (relative to its
/// folder; paths in the trace relative to `cwd`); `open` makes the world of the loaded project.
pub fn run_file(path: &Path, cwd: &Path, open: impl FnOnce(Project) -> Result<World, String>) -> Result<Report, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let sc = scenario(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let project = if sc.mods.is_empty() {
        Project::with_bundled_core()
    } else {
        let base = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let base = if base.is_absolute() { base.to_path_buf() } else { cwd.join(base) };
        load(&sc.mods.iter().map(|m| base.join(m)).collect::<Vec<_>>(), cwd, &Overlay::new())
    };
    Ok(run(&open(project)?, &sc))
}
