//! A scenario opened for a run: one pipeline for `rustkeep simulate`, `rustkeep test`,
//! `rustkeep arena --scenario` and the editor's scenario runs, so that a run in the editor is
//! exactly the run of the command line on the same texts.

use std::path::{Path, PathBuf};

use rustkeep_data::project::{load_scenario, Overlay};
use rustkeep_engine::game::World;
use rustkeep_engine::scenario::Scenario;

/// Loads the scenario at `path` with its mods and `mods` (relative to `cwd`; `overlay`'s texts
/// shadow the disk), analyses them, and reads the scenario when neither it nor the data has
/// errors. `Err` is the refusal: a scenario that cannot be read, its first mistakes with their
/// places, or the data's errors. `None` when `cancelled` says, between the phases, that the
/// result is not wanted any more.
pub fn open(path: &Path, mods: &[PathBuf], cwd: &Path, overlay: &Overlay, cancelled: &dyn Fn() -> bool) -> Option<Result<(World, Scenario), String>> {
    let project = load_scenario(path, mods, cwd, overlay);
    if cancelled() {
        return None;
    }
    let not_read = || Err(format!("cannot read {}", path.display()));
    let scenarios = &project.scenarios;
    let Some(info) = scenarios.iter().find(|s| project.file(s.file).disk_path.as_deref() == Some(path)).or(scenarios.first()) else {
        return Some(not_read());
    };
    let file = info.file;
    let analysis = rustkeep_check::analyze(&project);
    if cancelled() {
        return None;
    }
    if let Some(refusal) = analysis.scenario_errors(&project, file, 5) {
        return Some(Err(refusal));
    }
    let Some(facts) = analysis.db.facts.get(file.0 as usize).cloned().flatten() else { return Some(not_read()) };
    let model = facts.scenario.clone().map(|b| *b).unwrap_or_default();
    let valid = match analysis.into_valid(&project) {
        Ok(valid) => valid,
        Err(refusal) => return Some(Err(refusal)),
    };
    let sc = Scenario::from_model(&model, &project.file(file).index);
    Some(Ok((World::new(project, valid), sc)))
}
