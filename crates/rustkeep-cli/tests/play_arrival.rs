//! A safe arrival (docs/engine.md, "The dungeon"): the room the player arrives in when a floor is
//! entered gets no residents, and the core calls no monsters to the stairs, so no run starts
//! with an enemy joining on its first turn — on the first floor and on the deeper ones.

mod common;

use rustkeep_testutil::TempDir;

/// The trace of a warrior's arrival on `floor` (the first floor when `None`) with `seed`, and of
/// one turn of waiting there.
fn first_turn(cwd: &std::path::Path, seed: u64, floor: Option<&str>) -> String {
    let seed = seed.to_string();
    let mut args = vec!["play", "--line", "--seed", &seed, "--option", "core:warrior"];
    if let Some(f) = floor {
        args.extend(["--floor", f]);
    }
    let out = common::run_with_input(cwd, &args, "wait\nquit\n");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn over_twelve_seeds_no_enemy_joins_on_the_first_turn_of_any_of_the_first_three_floors() {
    let cwd = TempDir::new("play-arrival");
    let mut rooms = std::collections::BTreeSet::new();
    for floor in [None, Some("core:floor_2"), Some("core:floor_3")] {
        for seed in 1..=12 {
            let out = first_turn(&cwd, seed, floor);
            let arrival = out.split("step 0: ").nth(1).unwrap_or_else(|| panic!("no arrival traced:\n{out}"));
            assert!(arrival.contains("step 1: player waits"), "the wait was played:\n{out}");
            for sign in ["enemies join", "enemies appear", "combat_started", "A fight begins"] {
                assert!(!arrival.contains(sign), "seed {seed} on {floor:?}: {sign:?} on the first turn:\n{arrival}");
            }
            let room = arrival.lines().find_map(|l| l.split("entered room ").nth(1)).unwrap_or_else(|| panic!("no room entered:\n{arrival}"));
            rooms.insert(room.to_string());
        }
    }
    // The seeds put the player in rooms that have `e` glyphs (which stayed empty), not only in
    // the empty ones: the check above is not passed by luck.
    for peopled in ["core:rat_den", "core:guard_post"] {
        assert!(rooms.contains(peopled), "no seed arrived in {peopled}: {rooms:?}");
    }
}
