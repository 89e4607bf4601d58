//! A scenario's IDs and `enemy:N` references are checked by the analysis against the mods the
//! scenario loads (the engine runs only what passed): the messages name the line, the registry,
//! the closest ID and the code.

use rustkeep_data::project::{load_scenario, Overlay};
use rustkeep_testutil::TempDir;

/// The analysis's refusal of the scenario `text` on the bundled core, or `None` when it passes.
fn refusal(text: &str) -> Option<String> {
    let t = TempDir::new("scenario-refs");
    let path = t.write("bad.toml", text.as_bytes());
    let project = load_scenario(&path, &[], &t.0, &Overlay::new());
    let file = project.scenarios.first().expect("the scenario is loaded").file;
    rustkeep_check::analyze(&project).scenario_errors(&project, file, 5)
}

#[test]
fn unknown_ids_name_the_registry_and_the_closest_id() {
    let e = refusal("[player]\noptions = [\"core:warior\"]\n[[steps]]\ntalk = \"core:eldr\"\n").expect("refused");
    assert!(e.contains("the scenario has 2 errors"), "{e}");
    assert!(
        e.contains(
            "bad.toml:2: no character option named `core:warior` exists in the mods this scenario loads; did you mean `core:warrior`? [unknown-reference]"
        ),
        "{e}"
    );
    assert!(e.contains("bad.toml:4: no NPC named `core:eldr` exists") && e.contains("did you mean `core:elder`?"), "{e}");
}

#[test]
fn an_id_of_another_registry_is_a_kind_mismatch() {
    let e = refusal("[[steps]]\ntalk = \"core:rat\"\n").expect("refused");
    assert!(e.contains("bad.toml:2: `core:rat` is a creature, but `talk` needs an NPC [reference-kind-mismatch]"), "{e}");
}

#[test]
fn enemies_are_counted_step_by_step() {
    let e = refusal("[[enemies]]\ncreature = \"core:goblin\"\n[[steps]]\nattack = \"enemy:1\"\n").expect("refused");
    assert!(e.contains("bad.toml:4: `enemy:1` names no enemy: when this step runs, only `enemy:0` has appeared"), "{e}");
    assert_eq!(refusal("[[enemies]]\ncreature = \"core:goblin\"\n[[steps]]\nattack = \"enemy:0\"\n"), None);
}
