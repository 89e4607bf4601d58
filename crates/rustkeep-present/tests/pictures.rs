//! The pictures: the arena's heat map as SVG and the trigger graph as DOT, from the engine's
//! results on the bundled core and a test mod whose bramble feeds itself.

use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_engine::arena;
use rustkeep_engine::game::World;
use rustkeep_engine::graph::Graph;
use rustkeep_present::{graph, heat_map};
use rustkeep_testutil::repo_root;

fn world(project: Project) -> World {
    let valid = rustkeep_check::validate(&project).unwrap_or_else(|refusal| panic!("{refusal}"));
    World::new(project, valid)
}

#[test]
fn the_heat_map_has_a_cell_per_option_and_creature_coloured_by_its_win_rate() {
    let w = world(Project::with_bundled_core());
    let m = arena::matrix_of(&w, vec!["core:rat".to_string(), "core:rat_king".to_string()], 20, 3, 30);
    let svg = heat_map::svg(&m);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    assert_eq!(svg.matches("<rect x=").count(), m.options.len() * m.creatures.len());
    for c in &m.creatures {
        assert!(svg.contains(&format!(">{c}</text>")), "{c}");
    }
    // A sure win is green, a sure loss red.
    let green = m.cells.iter().flatten().any(|(wr, _)| *wr == 1.0);
    assert!(!green || svg.contains("fill=\"rgb(50,230,90)\""), "{svg}");
}

#[test]
fn the_dot_graph_marks_the_bramble_cycle_red() {
    let root = repo_root();
    let w = world(load(&[root.join("crates/rustkeep-engine/tests/mods/thorns")], root, &Overlay::new()));
    let dot = graph::dot(&Graph::build(&w));
    assert!(dot.starts_with("digraph triggers {"));
    assert!(dot.contains("\"thorns:bramble\" -> \"event:damage_taken\" [label=\"raises\", style=solid, color=red"), "{dot}");
    assert!(dot.contains("\"event:damage_taken\" [shape=ellipse, label=\"damage_taken\", color=red, fontcolor=red];"), "{dot}");
    assert!(dot.contains("\"core:rattenplage\" [shape=box, label=\"core:rattenplage\\n(quest)\"];"), "{dot}");
}
