//! Saves (round trip mid-scenario, vanished quests, corrupt files) and the trigger graph.

mod common;

use common::{core_world, world_of};
use rustkeep_engine::game::{Act, CreatureRef, Game, World};
use rustkeep_engine::graph::Graph;
use rustkeep_engine::save;
use rustkeep_engine::scenario::{run_step, Scenario};
use rustkeep_testutil::{repo_root, TempDir};

/// The example scenario of the rat-catcher mod.
fn rat_catcher_scenario() -> Scenario {
    let text = std::fs::read_to_string(repo_root().join("examples/scenarios/rat_catcher.toml")).unwrap();
    common::scenario(&text).unwrap()
}

#[test]
fn save_and_load_mid_scenario_continues_identically() {
    let sc = rat_catcher_scenario();
    let w = world_of(&["examples/rat_catcher"]);

    let (mut straight, _) = sc.start(&w);
    let all: Vec<String> = sc.steps.iter().map(|s| run_step(&mut straight, &w, s).json().to_string()).collect();

    let (mut first, _) = sc.start(&w);
    let mut resumed: Vec<String> = sc.steps[..3].iter().map(|s| run_step(&mut first, &w, s).json().to_string()).collect();
    let dir = TempDir::new("save-test");
    let file = dir.join("mid.json");
    save::write(&file, &first).unwrap();
    drop(first);
    let (mut second, warnings) = save::read(&file, &w).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    resumed.extend(sc.steps[3..].iter().map(|s| run_step(&mut second, &w, s).json().to_string()));
    assert_eq!(all, resumed);
    assert_eq!(straight.final_json(&w), second.final_json(&w));
    assert_eq!(straight.rng(), second.rng());
    // No temporary file is left next to the save.
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

#[test]
fn loading_drops_vanished_quests_with_a_warning() {
    let sc = rat_catcher_scenario();
    let with_mod = world_of(&["examples/rat_catcher"]);
    let (mut g, _) = sc.start(&with_mod);
    run_step(&mut g, &with_mod, &sc.steps[0]);
    assert!(g.quests().iter().any(|q| q.quest == "rat_catcher:tails_for_coin"));
    let json = save::to_json(&g);

    let core_only = core_world();
    let (loaded, warnings) = save::from_json(&json, &core_only).unwrap();
    assert!(loaded.quests().iter().all(|q| q.quest.starts_with("core:")));
    assert!(warnings.iter().any(|w| w.starts_with("quest rat_catcher:tails_for_coin no longer exists")), "{warnings:?}");
    // The mod's cheese wedge vanished from the inventory as well.
    assert!(loaded.player().inventory.iter().all(|i| i.item.starts_with("core:")));
}

#[test]
fn corrupt_saves_are_clear_errors() {
    let w = core_world();
    let e = save::from_json("{ not json", &w).err().unwrap();
    assert!(e.starts_with("not a valid save"), "{e}");
    let e = save::from_json(r#"{"format":"other","version":1,"game":{}}"#, &w).err().unwrap();
    assert!(e.contains("not a valid save") || e.contains("not a rustkeep save"), "{e}");
    let mut g = rustkeep_engine::game::Game::new(1, vec![], &Default::default());
    g.heal_player_full(&w);
    let good = save::to_json(&g);
    let bad_rng = good.replace("chacha8:", "chacha9:");
    let e = save::from_json(&bad_rng, &w).err().unwrap();
    assert!(e.contains("generator state"), "{e}");
}

/// A new game of the core on seed 3, its character created and its run started.
fn a_started_run(w: &World) -> Game {
    let mut g = Game::new(3, vec![], &Default::default());
    g.create_character(w, &[]);
    g.run_step(w, Act::StartRun(None), CreatureRef::Player, None);
    g
}

/// A save's map must be one the game could have made: found by the hostile-save tests of `rustkeep
/// play`, where a player outside the map made the way to the nearest door index past the room.
#[test]
fn a_save_with_someone_outside_its_map_is_refused() {
    let w = core_world();
    let g = a_started_run(&w);
    let good: serde_json::Value = serde_json::from_str(&save::to_json(&g)).unwrap();
    assert!(save::from_json(&good.to_string(), &w).is_ok());
    let refused = |edit: &dyn Fn(&mut serde_json::Value), why: &str| {
        let mut bad = good.clone();
        edit(&mut bad["game"]["dungeon"]);
        let e = save::from_json(&bad.to_string(), &w).err().unwrap_or_else(|| panic!("refused: {why}"));
        assert!(e.starts_with("not a valid save: ") && e.contains(why), "{e}");
    };
    refused(&|d| d["map"]["player"]["x"] = serde_json::json!(-1), "the player is at (-1, ");
    refused(&|d| d["map"]["player"]["y"] = serde_json::json!(99), "outside the map");
    refused(&|d| d["map"]["rows"][1] = serde_json::json!("#"), "row 1 of the map is 1 wide");
    refused(&|d| d["floor"] = serde_json::json!(99), "the dungeon is on floor 100 of");
    refused(&|d| d["room"] = serde_json::json!(99), "the dungeon is in room 100 of");
    refused(&|d| d["map"]["piles"] = serde_json::json!([{ "pos": { "x": 0, "y": 999 }, "table": null }]), "a loot pile is at (0, 999)");
}

/// An enemy's energy in a save is what a round left over: less than one turn. Found by the
/// hostile-save tests of `rustkeep play`, where `"energy": 4294967295` gave a rat that many turns
/// and the round ran until memory ran out.
#[test]
fn a_save_with_an_enemy_holding_whole_turns_is_refused() {
    let w = core_world();
    let g = a_started_run(&w);
    let mut v: serde_json::Value = serde_json::from_str(&save::to_json(&g)).unwrap();
    let rat = serde_json::json!({ "creature": "core:rat", "health": 5 });
    v["game"]["enemies"] = serde_json::json!([{ "index": 0, "body": rat }]);
    v["game"]["next_enemy"] = serde_json::json!(1);
    v["game"]["enemies"][0]["energy"] = serde_json::json!(0.5);
    assert!(save::from_json(&v.to_string(), &w).is_ok(), "half a turn is what a speed of 1.5 leaves");
    for bad in [serde_json::json!(1.0), serde_json::json!(4294967295u64), serde_json::json!(-0.5)] {
        v["game"]["enemies"][0]["energy"] = bad.clone();
        let e = save::from_json(&v.to_string(), &w).err().unwrap_or_else(|| panic!("energy {bad} is refused"));
        assert!(e.starts_with("not a valid save: enemy:") && e.contains("turns of energy"), "{e}");
    }
}

#[test]
fn graph_marks_the_bramble_cycle() {
    let w = world_of(&["crates/rustkeep-engine/tests/mods/thorns"]);
    let g = Graph::build(&w);
    let j = g.json();
    let node = |id: &str| j["nodes"].as_array().unwrap().iter().find(|n| n["id"] == id).cloned().unwrap();
    assert_eq!(node("thorns:bramble")["cycle"], true);
    assert_eq!(node("event:damage_taken")["cycle"], true);
    assert_eq!(node("core:rattenplage")["cycle"], false);
    let edge = |from: &str, to: &str| j["edges"].as_array().unwrap().iter().find(|e| e["from"] == from && e["to"] == to).cloned();
    assert_eq!(edge("event:damage_taken", "thorns:bramble").unwrap()["kind"], "listens");
    assert_eq!(edge("thorns:bramble", "event:damage_taken").unwrap()["cycle"], true);
    assert_eq!(edge("core:rattenplage", "event:item_picked_up").unwrap()["kind"], "raises");
    assert!(j["cycles"].as_array().unwrap().iter().any(|c| c.as_array().unwrap().iter().any(|n| n == "thorns:bramble")));
}

#[test]
fn graph_of_the_core_has_the_quest_chains() {
    let w = core_world();
    let g = Graph::build(&w);
    let j = g.json();
    let edges = j["edges"].as_array().unwrap();
    assert!(edges.iter().any(|e| e["from"] == "event:quest_completed" && e["to"] == "core:word_of_the_rat_king"));
    assert!(edges.iter().any(|e| e["from"] == "core:word_of_the_rat_king" && e["to"] == "event:quest_completed"));
    // Events and bearers are all there, deterministic across builds.
    assert_eq!(j, Graph::build(&w).json());
    assert_eq!(j["nodes"].as_array().unwrap().iter().filter(|n| n["kind"] == "event").count(), 12);
}

/// What the lowering refuses in a scenario before it reaches the engine: its shape, each mistake
/// with a clear message. Its IDs are the analysis's to check (`rustkeep-check`,
/// tests/scenario_refs.rs).
#[test]
fn bad_scenarios_are_clear_errors() {
    for (text, says) in [
        ("[[steps]]\nattack = \"enemy:0\"\npickup = true\n", "exactly one"),
        ("[[steps]]\nattack = \"goblin\"\n", "not `player` or `enemy:N`"),
        ("[[steps]]\nevent = \"room_entred\"\n", "did you mean `room_entered`"),
        ("[[steps]]\nevent = \"room_entered\"\npayload = { floor = \"core:floor_1\" }\n", "does not carry `floor`"),
        ("[[steps]]\naction = { action = \"damage\", amount = 0, damage_type = \"fire\", target = \"self\" }\n", "must be an integer ≥ 1, not 0"),
        ("sede = 1\n", "sede"),
    ] {
        let e = common::scenario(text).err().unwrap_or_else(|| panic!("refused: {text}"));
        assert!(e.contains(says), "{text}: {e}");
    }
}
