//! Golden traces: every scenario file under `tests/scenarios/` and `examples/scenarios/` runs,
//! and its JSON trace must equal the committed snapshot of the same name in `tests/golden/` byte
//! for byte. A scenario without a golden trace fails, and so does a golden trace without a
//! scenario; `cargo xtask update` writes the missing ones, rewrites the stale ones and deletes the
//! orphans (then review the diff). Each scenario also has assertions on the semantics it exists
//! for, so a snapshot is never the only check (`every_scenario_has_its_own_assertions`).

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use common::run_file;
use rustkeep_data::project::Project;
use rustkeep_engine::game::World;
use rustkeep_engine::scenario::Report;
use rustkeep_testutil::{ensure_folder_contents, repo_path, repo_root};
use serde_json::Value;

/// The folders whose scenario files (`*.toml`) have golden traces.
const SCENARIO_DIRS: [&str; 2] = ["crates/rustkeep-engine/tests/scenarios", "examples/scenarios"];

/// The folder of the golden traces, one `NAME.json` per scenario `NAME.toml`.
const GOLDEN_DIR: &str = "crates/rustkeep-engine/tests/golden";

/// Every scenario file by name (its file stem). The golden trace is named after the scenario, so
/// a name may be used in only one of the folders.
fn scenarios() -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    for dir in SCENARIO_DIRS {
        let entries = std::fs::read_dir(repo_path(dir)).unwrap_or_else(|e| panic!("cannot list {dir}: {e}"));
        for path in entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "toml")) {
            let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_else(|| panic!("{} has no UTF-8 name", path.display())).to_string();
            if let Some(other) = found.insert(name.clone(), path.clone()) {
                panic!("two scenarios are named `{name}` ({} and {}); their golden traces would be one file, rename one", other.display(), path.display());
            }
        }
    }
    found
}

fn scenario_path(name: &str) -> PathBuf {
    scenarios().remove(name).unwrap_or_else(|| panic!("no scenario `{name}` in {SCENARIO_DIRS:?}"))
}

/// The engine validates nothing: the scenarios play on the bundled core and the checked examples
/// (`rustkeep simulate` refuses data with errors before it gets this far).
fn open(project: Project) -> Result<World, String> {
    let valid = rustkeep_check::validate(&project)?;
    Ok(World::new(project, valid))
}

/// Runs the scenario `name`: its report, and its trace as JSON.
fn run(name: &str) -> (Report, Value) {
    let report = run_file(&scenario_path(name), repo_root(), open).unwrap_or_else(|e| panic!("{name}: {e}"));
    let json: Value = serde_json::from_str(&report.json_text()).expect("json");
    (report, json)
}

/// The traces of every scenario, written by `trace`, are the files ending in `suffix` of the
/// golden folder (one per scenario, named after it).
fn ensure_golden_traces(suffix: &str, trace: impl Fn(&Report) -> String) {
    let traces: Vec<(String, String)> = scenarios()
        .iter()
        .map(|(name, path)| {
            let report = run_file(path, repo_root(), open).unwrap_or_else(|e| panic!("{name}: {e}"));
            (format!("{name}{suffix}"), trace(&report))
        })
        .collect();
    let source = format!("the scenario of the same name in {}/ or {}/", SCENARIO_DIRS[0], SCENARIO_DIRS[1]);
    ensure_folder_contents(&repo_path(GOLDEN_DIR), suffix, &traces, &source);
}

#[test]
fn every_scenario_has_a_current_golden_trace() {
    assert!(!scenarios().is_empty(), "no scenario files in {SCENARIO_DIRS:?}");
    ensure_golden_traces(".json", Report::json_text);
}

/// A golden trace alone only says that nothing changed; each scenario also needs a test here
/// that asserts what it exists to show.
#[test]
fn every_scenario_has_its_own_assertions() {
    let tests = include_str!("golden.rs");
    let missing: Vec<String> = scenarios().into_keys().filter(|name| !tests.contains(&format!("run(\"{name}\")"))).collect();
    assert!(missing.is_empty(), "scenarios without a test of their own in {}: {missing:?}", file!());
}

fn events(step: &Value) -> Vec<String> {
    step["events"].as_array().unwrap().iter().map(|e| e["event"].as_str().unwrap().to_string()).collect()
}

fn triggers<'a>(step: &'a Value, event: &str) -> Vec<&'a Value> {
    step["events"].as_array().unwrap().iter().filter(|e| e["event"] == event).flat_map(|e| e["triggers"].as_array().unwrap().iter()).collect()
}

#[test]
fn fifo_order_of_events_raised_while_handling_another() {
    let (_, j) = run("fifo");
    let s0 = &j["steps"][0];
    assert_eq!(events(s0), ["turn_started", "combat_started", "attack_hit", "damage_taken", "item_picked_up"]);
    // item_picked_up was raised by the tattler while attack_hit (#2) was handled.
    assert_eq!(s0["events"][4]["cause"], 2);
    assert_eq!(s0["events"][3]["cause"], Value::Null);
}

#[test]
fn event_cap_stops_two_brambles() {
    let (r, j) = run("event_cap");
    assert_eq!(j["steps"][0]["events"].as_array().unwrap().len(), 100);
    let cap: Vec<&String> = r.warnings.iter().filter(|w| w.starts_with("event cap (100) reached in step 0:")).collect();
    assert_eq!(cap.len(), 1, "one warning line for step 0: {:?}", r.warnings);
    assert!(cap[0].ends_with("events dropped"));
    // The next step starts with a fresh cap: the player's hit is answered once, nothing dropped.
    assert_eq!(events(&j["steps"][1]), ["turn_started", "attack_hit", "damage_taken", "damage_taken"]);
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn when_filter_reflects_fire_only() {
    let (_, j) = run("fire_and_thorns");
    let fire = triggers(&j["steps"][2], "damage_taken");
    let plate: Vec<_> = fire.iter().filter(|t| t["owner"] == "fire_and_thorns:thornplate").collect();
    assert_eq!(plate[0]["fired"], true, "{plate:?}");
    assert_eq!(plate[1]["reason"], "when mismatch: damage_type is fire, wanted physical");
    let phys = triggers(&j["steps"][3], "damage_taken");
    let plate: Vec<_> = phys.iter().filter(|t| t["owner"] == "fire_and_thorns:thornplate").collect();
    assert_eq!(plate[0]["fired"], false);
    assert_eq!(plate[0]["reason"], "when mismatch: damage_type is physical, wanted fire");
    // The cinder blade's +3 vs undead: 9 against the skeleton, 6 against the rat.
    let dmg = |s: usize| j["steps"][s]["events"].as_array().unwrap().iter().find(|e| e["event"] == "damage_taken").unwrap()["payload"]["amount"].clone();
    assert_eq!(dmg(0), 9);
    assert_eq!(dmg(1), 6);
}

#[test]
fn conditional_modifier_read_against_the_opponent() {
    let (_, j) = run("conditional_modifier");
    let amount =
        |s: usize| j["steps"][s]["events"].as_array().unwrap().iter().find(|e| e["event"] == "damage_taken").unwrap()["payload"]["amount"].as_i64().unwrap();
    // Silver mace: player 1 + mace; +5 only against the undead zombie; the troll has armour 2.
    assert_eq!(amount(0) - (amount(1) + 2), 5);
}

#[test]
fn quest_chain_starts_and_completes() {
    let (_, j) = run("quest_chain");
    let quests = j["final"]["player"]["quests"].as_array().unwrap();
    assert_eq!(quests.len(), 2);
    assert_eq!(quests[0]["quest"], "core:the_lost_key");
    assert_eq!(quests[1]["quest"], "core:the_sealed_vault");
    assert!(quests.iter().all(|q| q["done"] == true));
    // Started while item_picked_up was handled, the vault quest does not see that step's
    // quest_completed as its own.
    let completed = triggers(&j["steps"][0], "quest_completed");
    assert!(completed.iter().all(|t| t["owner"] != "core:the_sealed_vault" || t["fired"] == false));
    let inv = j["final"]["player"]["inventory"].as_array().unwrap();
    assert!(inv.iter().any(|i| i["item"] == "core:ring_of_fortune"));
}

#[test]
fn rattenplage_chain_and_victory() {
    let (_, j) = run("rattenplage");
    let quests = j["final"]["player"]["quests"].as_array().unwrap();
    let q = |id: &str| quests.iter().find(|q| q["quest"] == id).cloned().unwrap();
    assert_eq!(q("core:rattenplage")["count"], 5);
    assert_eq!(q("core:rattenplage")["done"], true);
    assert_eq!(q("core:word_of_the_rat_king")["done"], true);
    assert_eq!(q("core:rat_king_bounty")["done"], false);
    assert_eq!(q("core:proven_in_battle")["count"], 1);
    assert!(j["final"]["enemies"].as_array().unwrap().is_empty());
}

#[test]
fn combat_ended_victory_then_fled() {
    let (_, j) = run("victory_fled");
    let ended = |s: usize| {
        j["steps"][s]["events"].as_array().unwrap().iter().filter(|e| e["event"] == "combat_ended").map(|e| e["payload"]["outcome"].clone()).collect::<Vec<_>>()
    };
    assert_eq!(ended(0), ["victory"]);
    assert!(events(&j["steps"][1]).contains(&"combat_started".to_string()));
    assert_eq!(ended(2), ["fled"]);
    let pib = &j["final"]["player"]["quests"][0];
    assert_eq!(pib["count"], 1, "fleeing does not count as a victory");
    // The player's flight leaves the giant rats where they are, out of combat.
    let left: Vec<&Value> = j["final"]["enemies"].as_array().unwrap().iter().collect();
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(left.iter().all(|e| e["creature"] == "core:giant_rat"));
    assert_eq!(j["final"]["combat"], false);
}

#[test]
fn prefab_room_entered_triggers() {
    let (_, j) = run("prefab_trigger");
    let shrine = triggers(&j["steps"][0], "room_entered");
    assert!(shrine.iter().any(|t| t["owner"] == "core:shrine" && t["fired"] == true));
    let lava = &j["steps"][1];
    assert!(events(lava).contains(&"damage_taken".to_string()));
    // An injected room_entered runs the library's trigger (self = player) and the quest.
    let lib = triggers(&j["steps"][2], "room_entered");
    assert!(lib.iter().any(|t| t["owner"] == "core:library"));
    assert!(lib.iter().any(|t| t["owner"] == "core:forbidden_knowledge" && t["fired"] == true));
}

#[test]
fn player_death_is_creature_died_and_ends_the_run() {
    let (r, j) = run("player_death");
    let died: Vec<_> = j["steps"][0]["events"].as_array().unwrap().iter().filter(|e| e["event"] == "creature_died").collect();
    assert_eq!(died.len(), 1);
    assert_eq!(died[0]["source"], "player");
    assert_eq!(died[0]["target"], "enemy:0");
    assert_eq!(j["final"]["player"]["health"], 0);
    assert_eq!(j["steps"].as_array().unwrap().len(), 1, "no step after the player's death");
    assert!(r.warnings.iter().any(|w| w == "the player died in step 0; the run ends"));
}

#[test]
fn the_heros_death_advances_no_quest() {
    let (_, j) = run("hero_death_counts_no_quest");
    let died = &j["steps"][4]["events"].as_array().unwrap().iter().find(|e| e["event"] == "creature_died").unwrap().clone();
    assert_eq!((died["source"].as_str(), died["target"].as_str()), (Some("player"), Some("enemy:4")), "a rat killed the player");
    let quest = &died["triggers"][0];
    assert_eq!(quest["owner"], "core:rattenplage");
    assert_eq!(quest["fired"], false, "the rat's side of the player's death is no dead rat");
    assert_eq!(quest["reason"], "the player's own death counts for no quest");
    assert!(quest.get("progress").is_none());
    let q = &j["final"]["player"]["quests"][0];
    assert_eq!((q["count"].as_u64(), q["done"].as_bool()), (Some(4), Some(false)), "four rats, and the death not counted");
    assert!(j["final"]["player"]["inventory"].as_array().unwrap().is_empty(), "no reward was paid to the dead");
}

#[test]
fn a_slime_splits_where_it_died() {
    let (_, j) = run("slime_splits_where_it_died");
    let placed = |r: &str| {
        let e = j["final"]["dungeon"]["enemies"].as_array().unwrap().iter().find(|e| e["ref"] == r).unwrap_or_else(|| panic!("{r} is not on the map"));
        (e["x"].as_i64().unwrap(), e["y"].as_i64().unwrap())
    };
    let player = &j["final"]["dungeon"]["position"];
    let (px, py) = (player["x"].as_i64().unwrap(), player["y"].as_i64().unwrap());
    // The slime was spawned on the first free tile next to the player, east of it (north and
    // north-east are wall); its split halves stand on its tile and the next one east.
    assert_eq!(placed("enemy:2"), (px + 1, py), "the first slimeling on the slime's own tile");
    assert_eq!(placed("enemy:3"), (px + 2, py), "the second on the free tile nearest to it");
}

#[test]
fn rat_catcher_example() {
    let (_, j) = run("rat_catcher");
    assert!(events(&j["steps"][2]).contains(&"combat_started".to_string()));
    assert!(j["steps"][4]["events"].as_array().unwrap().iter().any(|e| e["event"] == "combat_ended" && e["payload"]["outcome"] == "fled"));
    // Fleeing ends the combat; the rats stay in the nest, and picking up the piles starts none.
    assert!(!j["final"]["enemies"].as_array().unwrap().is_empty());
    assert!(!events(&j["steps"][5]).contains(&"combat_started".to_string()));
    assert_eq!(j["final"]["combat"], false);
}

#[test]
fn same_scenario_same_seed_same_bytes() {
    for name in ["rattenplage", "rat_catcher", "fire_and_thorns"] {
        let a = run_file(&scenario_path(name), repo_root(), open).unwrap().json_text();
        let b = run_file(&scenario_path(name), repo_root(), open).unwrap().json_text();
        assert!(a == b, "{name} is not deterministic");
    }
}

#[test]
fn consumables_heal_and_take_item() {
    let (_, j) = run("consumables");
    let effect = |step: usize, path: &str| j["steps"][step].pointer(path).and_then(Value::as_str).unwrap_or_default().to_string();
    assert_eq!(effect(0, "/effects/0/effect"), "player took 8 physical damage (12 left)");
    // The potion's `use` heals what the damage took, and the potion is consumed.
    assert_eq!(effect(1, "/effects/0/actions/0/effect"), "player healed 8 (20 / 20)");
    assert_eq!(events(&j["steps"][1]), ["turn_started", "item_used"]);
    assert_eq!(effect(2, "/effects/0/effect"), "player lost 4 × core:gold");
    let inventory = j["final"]["player"]["inventory"].as_array().unwrap();
    let count = |item: &str| inventory.iter().filter(|i| i["item"] == item).map(|i| i["count"].as_u64().unwrap()).sum::<u64>();
    assert_eq!((count("core:health_potion"), count("core:gold")), (1, 6));
}

/// The entries of `steps` that are turns of enemies, and of the player.
fn turns(j: &Value) -> (Vec<&Value>, Vec<&Value>) {
    j["steps"].as_array().unwrap().iter().partition(|s| s.get("source").is_some())
}

fn effect(step: &Value) -> String {
    step["effects"][0]["effect"].as_str().unwrap_or_default().to_string()
}

#[test]
fn an_enemy_heals_itself_below_half_health_on_its_own_turn() {
    let (_, j) = run("enemy_ai_heal");
    let (enemy, player) = turns(&j);
    assert_eq!((enemy.len(), player.len()), (2, 2), "each player step is followed by the healer's turn");
    for (k, t) in enemy.iter().enumerate() {
        assert_eq!(t["source"], "enemy:0");
        assert_eq!(t["step"], k, "an enemy turn carries the number of the step it follows");
        assert_eq!(events(t)[0], "turn_started", "its events start with its own turn_started");
        assert_eq!(t["events"][0]["source"], "enemy:0");
        assert!(effect(t).contains("follows ai rule 1 of keep:healer"), "{}", effect(t));
        assert_eq!(t["effects"][0]["actions"][0]["action"], "heal");
    }
    // 10 − 6 = 4 (below half) → healed to 9; 9 − 6 = 3 → healed to 8.
    assert_eq!(j["final"]["enemies"][0]["health"], 8);
    assert_eq!(j["final"]["player"]["health"], 30, "a healing turn is no attack");
}

#[test]
fn the_first_ai_rule_that_holds_is_the_one_that_runs() {
    let (_, j) = run("enemy_ai_first_rule");
    let (enemy, _) = turns(&j);
    assert_eq!(enemy.len(), 3);
    for t in enemy {
        assert!(effect(t).contains("ai rule 1 of keep:drill_sergeant"), "{}", effect(t));
        assert_eq!(t["effects"][0]["actions"][0]["action"], "apply_status");
    }
    assert_eq!(j["final"]["enemies"][0]["health"], 9, "the second rule (heal) never ran");
}

#[test]
fn a_player_death_ends_the_round() {
    let (r, j) = run("enemy_death_mid_round");
    let (enemy, player) = turns(&j);
    assert_eq!(player.len(), 1);
    assert_eq!(enemy.len(), 1, "enemy:1 takes no turn after enemy:0 killed the player");
    assert_eq!(enemy[0]["source"], "enemy:0");
    assert_eq!(events(enemy[0]), ["turn_started", "attack_hit", "damage_taken", "creature_died"]);
    assert_eq!(j["final"]["player"]["health"], 0);
    assert!(r.warnings.iter().any(|w| w == "the player died in step 0; the run ends"), "{:?}", r.warnings);
}

#[test]
fn a_creature_in_a_sealed_pocket_never_appears() {
    let (r, j) = run("enemy_caged");
    let (enemy, player) = turns(&j);
    assert!(enemy.is_empty(), "no enemy takes a turn: {enemy:?}");
    assert_eq!(player.len(), 3);
    assert_eq!(j["final"]["enemies"], serde_json::json!([]), "the caged wolf's tile is sealed as wall");
    assert!(effect(player[2]).starts_with("player moves to"), "{}", effect(player[2]));
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn a_resident_waits_then_pursues_across_the_corridor_and_the_stairs_leave_it_behind() {
    let (r, j) = run("floor_pursuit");
    let steps = j["steps"].as_array().unwrap();
    let entered = |s: &Value, prefab: &str| s["events"].as_array().unwrap().iter().any(|e| e["event"] == "room_entered" && e["payload"]["prefab"] == prefab);
    assert!(entered(&steps[0], "keep:west_hall"), "the run starts in the west hall");
    // The rat waits in its hall: no turn of it until the player steps in.
    let woken = steps.iter().position(|s| entered(s, "keep:rat_hall")).expect("the rat's hall is entered");
    assert!(woken > 10, "after the waits and the walk round the corridor: step {woken}");
    assert!(steps[..woken].iter().all(|s| s.get("source").is_none()), "no enemy turn before its room is entered");
    assert!(effect(&steps[woken]).ends_with("entered room keep:rat_hall; enemies join: enemy:0 (keep:hall_rat)"), "{}", effect(&steps[woken]));
    // Then it pursues: out of its hall (its east door is at x = 17) along the corridor.
    let moves: Vec<String> = steps.iter().filter(|s| s["source"] == "enemy:0").map(effect).collect();
    assert!(moves.len() >= 8 && moves.iter().all(|m| m.starts_with("enemy:0 moves from")), "{moves:?}");
    assert!(moves.iter().any(|m| m.ends_with("to (20, 3)")), "into the corridor: {moves:?}");
    // The stairs: the combat ends as fled, the next floor is entered, the rat stays behind.
    let last = steps.last().unwrap();
    assert!(effect(last).starts_with("player takes the stairs at (26, 3): fled, leaving 1 enemy behind"), "{}", effect(last));
    assert_eq!(events(last), ["turn_started", "combat_ended", "floor_entered", "room_entered"]);
    assert_eq!(last["events"][1]["payload"]["outcome"], "fled");
    assert_eq!(j["final"]["dungeon"]["floor"], "keep:cage_floor");
    assert_eq!(j["final"]["enemies"], serde_json::json!([]));
    assert_eq!(j["final"]["player"]["health"], 20, "it never caught up");
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[test]
fn three_rooms_of_a_hand_made_floor_walked_to_victory() {
    let (r, j) = run("three_room_walk");
    let entered: Vec<String> = j["steps"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["events"].as_array().unwrap().iter())
        .filter(|e| e["event"] == "room_entered")
        .map(|e| e["payload"]["prefab"].as_str().unwrap().to_string())
        .collect();
    let mut sorted = entered.clone();
    sorted.sort();
    assert_eq!(sorted, ["keep:hall_a", "keep:hall_b", "keep:hall_c"], "each room once");
    assert_eq!(j["final"]["dungeon"]["rooms"], serde_json::json!(entered), "in the order the floor's shuffle gave");
    assert_eq!(j["final"]["dungeon"]["won"], true);
    assert!(r.warnings.iter().any(|w| w.contains("the run is won")), "{:?}", r.warnings);
    // The pile in hall_b was rolled when stepped on: 5 gold.
    let gold = j["final"]["player"]["inventory"].as_array().unwrap().iter().find(|i| i["item"] == "core:gold").unwrap()["count"].clone();
    assert_eq!(gold, 5);
}

/// Every attack of a step's trace: its `attack_hit` payload (absent for a miss) and the damage
/// it dealt.
fn hits(j: &Value) -> Vec<(Option<Value>, Option<i64>)> {
    j["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["act"].as_str().is_some_and(|a| a.contains("attacks")))
        .map(|s| {
            let ev = s["events"].as_array().unwrap();
            let hit = ev.iter().find(|e| e["event"] == "attack_hit").map(|e| e["payload"].clone());
            let dmg = ev.iter().find(|e| e["event"] == "damage_taken").and_then(|e| e["payload"]["amount"].as_i64());
            (hit, dmg)
        })
        .collect()
}

#[test]
fn a_miss_raises_no_hit_and_no_damage() {
    let (_, j) = run("hit_miss");
    let all = hits(&j);
    let misses: Vec<usize> = (0..all.len()).filter(|i| all[*i].0.is_none()).collect();
    assert!(!misses.is_empty(), "the seed gives at least one miss");
    for i in &misses {
        let s = &j["steps"][*i];
        assert_eq!(all[*i].1, None, "a miss deals no damage");
        assert_eq!(events(s), ["turn_started"], "a miss raises nothing");
        assert!(effect(s).ends_with("missed (p = 0.85)"), "{}", effect(s));
    }
    // Every other attack hits for the player's 2, and no hit is ever critical without crit_chance.
    for (hit, dmg) in all.iter().filter(|h| h.0.is_some()) {
        assert_eq!(*dmg, Some(2));
        assert!(hit.as_ref().unwrap().get("critical").is_none(), "no critical key without a chance of one");
    }
    let left = j["final"]["enemies"][0]["health"].as_i64().unwrap();
    assert_eq!(left, 40 - 2 * (all.len() - misses.len()) as i64);
}

#[test]
fn a_critical_hit_multiplies_the_amount_before_armour() {
    let (_, j) = run("critical_hit");
    let all = hits(&j);
    assert_eq!(all.len(), 4, "crit_chance alone never misses");
    let mut seen = (false, false);
    for (hit, dmg) in &all {
        let critical = hit.as_ref().expect("a hit")["critical"].as_bool().expect("attack_hit says whether it was critical");
        // 3 × 1.5 = 4.5, rounded half away from zero: 5.
        assert_eq!(*dmg, Some(if critical { 5 } else { 3 }));
        if critical {
            seen.0 = true;
        } else {
            seen.1 = true;
        }
    }
    assert_eq!(seen, (true, true), "the seed gives both kinds");
    assert!(j["steps"].as_array().unwrap().iter().any(|s| effect(s).contains("(critical)")));
}

#[test]
fn a_speed_two_enemy_takes_two_turns_after_each_player_turn() {
    let (_, j) = run("speed_two");
    let steps = j["steps"].as_array().unwrap();
    let sources: Vec<String> = steps.iter().map(|s| s.get("source").and_then(Value::as_str).unwrap_or("player").to_string()).collect();
    assert_eq!(sources, ["player", "enemy:0", "enemy:0", "player", "enemy:0", "enemy:0"]);
    for t in steps.iter().filter(|s| s.get("source").is_some()) {
        assert_eq!(events(t)[0], "turn_started", "each turn is a turn of its own");
    }
    assert_eq!(j["final"]["player"]["health"], 26, "four hits of 1");
}

#[test]
fn a_coward_escapes_alone_while_the_brute_stays() {
    let (_, j) = run("coward_escapes");
    let (enemy, _) = turns(&j);
    let coward = enemy.iter().find(|t| t["source"] == "enemy:0").expect("the coward's turn");
    assert_eq!(coward["effects"][0]["actions"][0]["effect"], "enemy:0 escaped");
    assert_eq!(events(coward), ["turn_started"], "no creature_died, no combat_ended");
    assert_eq!(enemy.iter().filter(|t| t["source"] == "enemy:0").count(), 1, "an escaped enemy takes no more turns");
    assert_eq!(enemy.iter().filter(|t| t["source"] == "enemy:1").count(), 2, "the brute fights on");
    let all: Vec<&Value> = j["steps"].as_array().unwrap().iter().flat_map(|s| s["events"].as_array().unwrap().iter()).collect();
    assert!(!all.iter().any(|e| e["event"] == "creature_died" || e["event"] == "combat_ended"));
    assert_eq!(j["final"]["enemies"], serde_json::json!([{ "ref": "enemy:1", "creature": "keep:brute", "health": 28 }]));
    assert_eq!(j["final"]["floor_loot"], serde_json::json!([]), "an escape drops no loot");
    assert_eq!(j["final"]["combat"], true);
}

#[test]
fn the_last_enemy_escaping_ends_the_combat_in_victory() {
    let (_, j) = run("last_escape_victory");
    let (enemy, _) = turns(&j);
    assert_eq!(enemy.len(), 1);
    assert_eq!(events(enemy[0]), ["turn_started", "combat_ended"]);
    assert_eq!(enemy[0]["events"][1]["payload"]["outcome"], "victory");
    assert!(j["final"]["enemies"].as_array().unwrap().is_empty());
    assert_eq!(j["final"]["floor_loot"], serde_json::json!([]), "the coward's loot table is never rolled");
    assert_eq!(events(&j["steps"][2]), ["turn_started"], "no combat starts again");
}

#[test]
fn a_burning_wearer_of_reflecting_armour_loses_exactly_the_tick() {
    let (r, j) = run("reflecting_armour");
    for s in [1, 2] {
        let step = &j["steps"][s];
        assert_eq!(events(step), ["turn_started", "damage_taken"], "the armour's answer raises nothing");
        let taken = &step["events"][1];
        assert_eq!(taken["target"], Value::Null, "self-inflicted damage has no target");
        let mail = triggers(step, "damage_taken");
        assert_eq!(mail[0]["owner"], "keep:ember_mail");
        assert_eq!(mail[0]["fired"], true);
        assert!(mail[0]["actions"][0]["effect"].as_str().unwrap().contains("no target"), "{}", mail[0]);
    }
    assert_eq!(j["final"]["player"]["health"], 18, "two ticks of 1");
    assert!(r.warnings.is_empty(), "no event cap: {:?}", r.warnings);
}

#[test]
fn a_door_inside_a_room_is_walked_through() {
    let (_, j) = run("inner_door");
    // Steps 1–5 walk east over the inner door (the hall's fourth tile) and through the border door,
    // all in the hall.
    let origin_x = j["final"]["dungeon"]["position"]["x"].as_i64().unwrap();
    for s in 1..=5 {
        assert_eq!(events(&j["steps"][s]), ["turn_started"], "step {s} stays in the room");
    }
    assert!(effect(&j["steps"][2]).starts_with("player moves to ("), "{}", effect(&j["steps"][2]));
    // Beyond the border door: the stairs, to the next floor (the halls, at the same depth).
    assert!(effect(&j["steps"][6]).starts_with("player takes the stairs"), "{}", effect(&j["steps"][6]));
    assert!(events(&j["steps"][6]).contains(&"floor_entered".to_string()));
    assert_eq!(j["final"]["dungeon"]["floor"], "keep:halls");
    assert!(origin_x > 0);
}
