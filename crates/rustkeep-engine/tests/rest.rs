//! Regeneration out of combat (docs/engine.md, "Rest"): with `Game::regen`, the player regains 1
//! health every `[balance] regen_every` of its own turns while no fight runs, up to its maximum;
//! a fight starts the count again; without `regen` (every scenario that does not ask for it)
//! nothing changes, so older scenarios run as before.

mod common;

use std::collections::BTreeMap;

use common::{core_world, world_with};
use rustkeep_engine::game::{Act, CreatureRef, Game, World};
use rustkeep_engine::scenario::run;

/// A player of 30 health at 10, the game set up.
fn wounded(w: &World, regen: bool) -> Game {
    let mut g = Game::new(1, Vec::new(), &BTreeMap::from([("max_health".to_string(), 30.0)]));
    g.setup(w, &[]);
    assert!(g.set_health(CreatureRef::Player, 10));
    g.set_regen(regen);
    g
}

fn wait(g: &mut Game, w: &World, turns: usize) {
    for _ in 0..turns {
        g.run_step(w, Act::Wait, CreatureRef::Player, None);
    }
}

#[test]
fn out_of_combat_the_player_regains_one_health_every_regen_every_turns() {
    let w = core_world();
    assert_eq!(w.db.resolved.balance.regen_every, 10, "the core's setting");
    let mut g = wounded(&w, true);
    wait(&mut g, &w, 9);
    assert_eq!(g.player().health, 10);
    wait(&mut g, &w, 1);
    assert_eq!(g.player().health, 11);
    wait(&mut g, &w, 190);
    assert_eq!(g.player().health, 30, "19 more, up to the maximum");
    wait(&mut g, &w, 50);
    assert_eq!(g.player().health, 30, "never above it");
}

#[test]
fn without_regen_or_with_regen_every_zero_nothing_changes() {
    let w = core_world();
    let mut g = wounded(&w, false);
    wait(&mut g, &w, 100);
    assert_eq!(g.player().health, 10);
    let w = world_with(&[("balance.toml", "[balance]\nregen_every = 0\n")]);
    assert_eq!(w.db.resolved.balance.regen_every, 0);
    let mut g = wounded(&w, true);
    wait(&mut g, &w, 100);
    assert_eq!(g.player().health, 10);
}

#[test]
fn a_fight_stops_regeneration_and_starts_the_count_again() {
    let w = core_world();
    let mut g = wounded(&w, true);
    wait(&mut g, &w, 9);
    g.add_enemies(&w, "core:rat", 1);
    // The rat is not fought back: the player waits while the fight runs.
    let health = g.player().health;
    wait(&mut g, &w, 20);
    assert!(g.in_combat());
    assert!(g.player().health <= health, "no health regained in a fight");
    assert_eq!(g.rested(), 0, "the count starts again");
}

#[test]
fn a_scenario_regenerates_only_with_regen_true() {
    let w = core_world();
    let text = |regen: &str| {
        let waits = "[[steps]]\nwait = true\n".repeat(21);
        format!("seed = 1\n{regen}\n[player]\nattributes = {{ max_health = 30 }}\n\n[[steps]]\naction = {{ action = \"damage\", amount = 20, damage_type = \"physical\", target = \"self\" }}\n\n{waits}")
    };
    let health = |regen: &str| {
        let sc = common::scenario(&text(regen)).expect("a scenario");
        let report = run(&w, &sc);
        report.final_state["player"]["health"].as_i64().expect("health")
    };
    assert_eq!(health(""), 10, "no regen without asking");
    assert_eq!(health("regen = false"), 10);
    // The damage step is the first of the player's turns out of combat: 22 turns, two tenths.
    assert_eq!(health("regen = true"), 12);
}
