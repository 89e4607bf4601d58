//! The shared pipelines on the examples: a scenario opened for a run (or refused with its
//! mistakes' places, or given up when the caller cancels), and a world opened only from data
//! that validates.

use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_testutil::{repo_root, TempDir};

#[test]
fn the_example_scenario_opens_with_its_mods_and_runs() {
    let root = repo_root();
    let path = root.join("examples/scenarios/rat_catcher.toml");
    let (world, sc) = rustkeep_ide::scenario::open(&path, &[], root, &Overlay::new(), &|| false).expect("not cancelled").expect("it validates");
    assert!(world.project.mods.iter().any(|m| m.id == "rat_catcher"));
    let report = rustkeep_engine::scenario::run(&world, &sc);
    assert!(!report.expectations.is_empty() && report.failed() == 0);
}

#[test]
fn a_scenario_with_mistakes_is_refused_with_their_places() {
    let t = TempDir::new("ide-scenario");
    let path = t.path("bad.toml");
    std::fs::write(&path, "seed = 1\n\n[player]\noptions = [\"core:warrior\"]\n\n[[steps]]\ntalk = \"core:nobody_at_all\"\n").unwrap();
    let refusal = rustkeep_ide::scenario::open(&path, &[], &t.path(""), &Overlay::new(), &|| false).expect("not cancelled").err().expect("refused");
    assert!(refusal.starts_with("the scenario has 1 error"), "{refusal}");
    assert!(refusal.contains("bad.toml:7:") && refusal.contains("[unknown-reference]"), "{refusal}");
}

#[test]
fn a_cancelled_open_gives_up_between_its_phases() {
    let root = repo_root();
    let path = root.join("examples/scenarios/rat_catcher.toml");
    assert!(rustkeep_ide::scenario::open(&path, &[], root, &Overlay::new(), &|| true).is_none());
}

#[test]
fn a_world_opens_only_from_data_that_validates() {
    let root = repo_root();
    assert!(rustkeep_ide::valid_world(Project::with_bundled_core()).is_ok());
    let broken = load(&[root.join("examples/broken")], root, &Overlay::new());
    let refusal = rustkeep_ide::valid_world(broken).err().expect("refused");
    assert!(refusal.contains("error"), "{refusal}");
}
