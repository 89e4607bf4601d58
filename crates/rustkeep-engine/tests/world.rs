//! Properties of the engine's world (docs/engine.md, "The dungeon", "The map"), over many seeded
//! random cases: enemies move only onto free floor and always closer when a way exists; a floor's
//! shuffle visits every prefab once; the same seed and inputs give the same run; shops price and
//! trade as documented; old saves load into no room.

use std::collections::BTreeMap;

use rustkeep_data::db::Database;
use rustkeep_data::grid::{Dir, Pos};
use rustkeep_data::project::Project;
use rustkeep_engine::game::{buy_price, sell_price, Act, CreatureRef, Game, ItemInstance, Trade, World};
use rustkeep_engine::map::{NpcSpot, Room};
use rustkeep_engine::rng::Rng;
use rustkeep_engine::save;

fn core_world() -> World {
    let project = Project::with_bundled_core();
    let db = Database::load(&project);
    World::new(project, db)
}

fn world_with(files: &[(&str, &str)]) -> World {
    let mut project = Project::with_bundled_core();
    let mut all = vec![("mod.toml", "[mod]\nid = \"t\"\nname = \"T\"\nversion = \"0.1.0\"\n")];
    all.extend_from_slice(files);
    project.add_memory_mod("t", &all);
    let db = Database::load(&project);
    World::new(project, db)
}

/// A random room: walls inside a walled frame, the player, some enemies and an NPC.
fn random_room(rng: &mut Rng) -> Room {
    let (w, h) = (3 + rng.below(14) as i32, 3 + rng.below(10) as i32);
    let mut rows = Vec::new();
    for y in 0..h {
        let row: String = (0..w).map(|x| if x == 0 || y == 0 || x == w - 1 || y == h - 1 || rng.below(100) < 25 { '#' } else { '.' }).collect();
        rows.push(row);
    }
    let mut free: Vec<Pos> = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if rows[y as usize].as_bytes()[x as usize] == b'.' {
                free.push(Pos::new(x, y));
            }
        }
    }
    let mut take = |rng: &mut Rng| {
        if free.is_empty() {
            None
        } else {
            Some(free.swap_remove(rng.below(free.len() as u64) as usize))
        }
    };
    let player = take(rng).unwrap_or(Pos::new(1, 1));
    let mut enemies = BTreeMap::new();
    for i in 0..rng.below(8) as usize {
        if let Some(p) = take(rng) {
            enemies.insert(i, p);
        }
    }
    let mut npcs = Vec::new();
    if rng.below(2) == 0 {
        if let Some(p) = take(rng) {
            npcs.push(NpcSpot { npc: "core:elder".into(), pos: p });
        }
    }
    Room { prefab: None, rows, player, enemies, npcs, piles: Vec::new(), loot: Vec::new() }
}

#[test]
fn enemies_never_step_into_walls_or_creatures_and_always_get_closer() {
    let mut rng = Rng::seeded(11);
    let mut moved = 0;
    let mut blocked = 0;
    for _ in 0..3000 {
        let room = random_room(&mut rng);
        for (&i, &from) in &room.enemies {
            let dist = room.distances_to_player(Some(i));
            let index = |p: Pos| (p.y * room.width() + p.x) as usize;
            // How far the enemy is now: one more than its best neighbour, if any leads there.
            let here = Dir::ALL.iter().map(|d| from.step(*d)).filter(|q| room.tile(*q).is_some()).map(|q| dist[index(q)]).min().unwrap_or(u32::MAX);
            match room.enemy_step(i, from) {
                Some(to) => {
                    moved += 1;
                    assert!(from.adjacent(to), "one tile at a time");
                    assert!(!room.is_wall(to), "into a wall at {to}");
                    assert!(!room.occupied(to, Some(i)), "onto an occupied tile at {to}");
                    assert!(dist[index(to)] < u32::MAX && dist[index(to)] <= here, "not along a shortest way");
                    assert!(to.distance(room.player) >= 1, "never onto the player");
                }
                None => {
                    // Standing still means: next to the player already, or no free way at all.
                    let free_way = Dir::ALL.iter().map(|d| from.step(*d)).any(|q| !room.is_wall(q) && !room.occupied(q, Some(i)) && dist[index(q)] < u32::MAX);
                    assert!(from.adjacent(room.player) || !free_way, "an enemy with a way waited");
                    blocked += 1;
                }
            }
        }
    }
    assert!(moved > 1000 && blocked > 100, "the cases cover both: {moved} moves, {blocked} waits");
}

#[test]
fn a_floors_shuffle_visits_every_prefab_once() {
    let w = core_world();
    let mut orders = std::collections::BTreeSet::new();
    for floor in rustkeep_engine::game::floor_order(&w) {
        let listed: Vec<String> =
            w.entry(rustkeep_data::vocab::Registry::Floors, &floor).unwrap().ref_list("prefabs").iter().map(|p| p.value.clone()).collect();
        for seed in 0..50 {
            let mut g = Game::new(seed, Vec::new(), &BTreeMap::new());
            g.setup(&w, &[]);
            g.run_step(&w, Act::StartRun(Some(&floor)), CreatureRef::Player, None);
            let d = g.dungeon.as_ref().expect("a dungeon");
            let mut got = d.rooms.clone();
            orders.insert(got.clone());
            got.sort();
            let mut want = listed.clone();
            want.sort();
            assert_eq!(got, want, "{floor}, seed {seed}: every prefab once");
            assert_eq!(g.room.as_deref(), Some(d.rooms[0].as_str()), "the first room of the order is entered");
        }
    }
    assert!(orders.len() > 100, "seeds give different orders: {}", orders.len());
}

/// A seeded random walk through the core's dungeon: moves, waits and enemy turns.
fn random_run(w: &World, seed: u64, turns: usize) -> Game {
    let mut g = Game::new(seed, vec!["core:warrior".into()], &BTreeMap::new());
    g.create_character(w, &[]);
    g.run_step(w, Act::StartRun(None), CreatureRef::Player, None);
    let mut choice = Rng::seeded(seed ^ 0xABCD);
    for _ in 0..turns {
        if g.over {
            break;
        }
        let step = g.step;
        let dir = Dir::ALL[choice.below(8) as usize];
        let act = if choice.below(5) == 0 { Act::Wait } else { Act::Move(dir) };
        if matches!(act, Act::Move(d) if g.move_target(d).is_none()) {
            continue;
        }
        g.run_step(w, act, CreatureRef::Player, None);
        g.enemy_turns(w, step);
    }
    g
}

#[test]
fn the_same_seed_and_inputs_give_the_same_run() {
    let w = core_world();
    for seed in 0..20 {
        let a = save::to_json(&random_run(&w, seed, 200));
        let b = save::to_json(&random_run(&w, seed, 200));
        assert_eq!(a, b, "seed {seed}");
    }
    assert_ne!(save::to_json(&random_run(&w, 1, 200)), save::to_json(&random_run(&w, 2, 200)), "different seeds differ");
}

#[test]
fn a_played_run_saves_and_loads_without_rolling_again() {
    let w = core_world();
    let g = random_run(&w, 5, 60);
    let text = save::to_json(&g);
    let (loaded, warnings) = save::from_json(&text, &w).expect("loads");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(save::to_json(&loaded), text, "the map, rooms, piles and generator survive");
    assert!(loaded.dungeon.is_some());
}

#[test]
fn a_save_of_version_1_loads_into_no_room() {
    let w = core_world();
    let g = random_run(&w, 3, 5);
    let mut v: serde_json::Value = serde_json::from_str(&save::to_json(&g)).unwrap();
    v["version"] = serde_json::json!(1);
    for k in ["dungeon", "shops", "open_shop", "won"] {
        v["game"].as_object_mut().unwrap().remove(k);
    }
    let (loaded, _) = save::from_json(&v.to_string(), &w).expect("a version 1 save loads");
    assert!(loaded.dungeon.is_none() && loaded.map().is_none());
    assert_eq!(loaded.player.health, g.player.health);
}

const SHOP: &str = r#"
[[items]]
id = "t:lamp"
name = "Lamp"
price = 10

[[affixes]]
id = "t:gilded"
name = "gilded"
price_factor = 1.5

[[loot_tables]]
id = "t:stock"
entries = [ { item = "t:lamp", count = 2, guaranteed = true } ]

[[shops]]
id = "t:stall"
name = "Stall"
stock = "t:stock"
price_factor = 1.25
"#;

#[test]
fn shops_roll_their_stock_once_and_price_as_documented() {
    let w = world_with(&[("shop.toml", SHOP)]);
    let mut g = Game::new(1, Vec::new(), &BTreeMap::new());
    g.setup(&w, &[]);
    g.player.inventory.push(ItemInstance { item: "core:gold".into(), count: 40, affixes: Vec::new(), equipped: false });
    g.player.inventory.push(ItemInstance { item: "t:lamp".into(), count: 1, affixes: vec!["t:gilded".into()], equipped: false });
    assert_eq!(g.open_stock(&w, "t:stall").to_vec(), vec![ItemInstance { item: "t:lamp".into(), count: 2, affixes: Vec::new(), equipped: false }]);
    // round(10 × 1.25) = 13 (half away from zero: 12.5 → 13); a gilded lamp sells for floor(10 × 1.5 ÷ 2) = 7.
    let lamp = ItemInstance { item: "t:lamp".into(), count: 1, affixes: Vec::new(), equipped: false };
    assert_eq!(buy_price(&w, "t:stall", &lamp), 13);
    assert_eq!(sell_price(&w, &g.player.inventory[1]), 7);
    let t = g.trade(&w, "t:stall", Trade::Buy(0));
    assert_eq!(t.events.iter().map(|e| e.event.name()).collect::<Vec<_>>(), ["item_picked_up"], "buying raises item_picked_up");
    assert_eq!(g.gold(), 27);
    assert_eq!(g.shops["t:stall"][0].count, 1, "one of the two was sold");
    let sold = g.player.inventory.iter().position(|i| i.affixes == ["t:gilded"]).unwrap();
    let t = g.trade(&w, "t:stall", Trade::Sell(sold));
    assert!(t.events.is_empty(), "selling raises no event");
    assert_eq!(g.gold(), 34);
    assert!(g.shops["t:stall"].iter().any(|i| i.affixes == ["t:gilded"]), "the sold lamp joins the stock");
    // The stock is kept: opening again rolls nothing.
    let before = g.rng.clone();
    g.open_stock(&w, "t:stall");
    assert_eq!(g.rng, before);
    // Too little gold: nothing happens.
    g.player.inventory.retain(|i| i.item != "core:gold");
    let t = g.trade(&w, "t:stall", Trade::Buy(0));
    assert!(matches!(t.effects[0].effect, rustkeep_engine::effect::Effect::CannotAfford { .. }), "{:?}", t.effects[0]);
    assert!(t.effects[0].effect.to_string().starts_with("cannot buy"));
}

#[test]
fn character_creation_equips_the_starting_kit_into_empty_slots() {
    let w = core_world();
    let mut g = Game::new(1, vec!["core:warrior".into()], &BTreeMap::new());
    g.create_character(&w, &[]);
    let equipped: Vec<&str> = g.player.inventory.iter().filter(|i| i.equipped).map(|i| i.item.as_str()).collect();
    assert_eq!(equipped, ["core:iron_sword", "core:leather_armor"]);
    assert!(g.player.inventory.iter().any(|i| i.item == "core:health_potion" && !i.equipped));
    assert_eq!(g.player.health, g.max_health(&w, CreatureRef::Player), "full health with the kit on");
    // A scenario's player keeps its flags: plain setup equips nothing.
    let mut g = Game::new(1, vec!["core:warrior".into()], &BTreeMap::new());
    g.setup(&w, &[]);
    assert!(g.player.inventory.iter().all(|i| !i.equipped));
}

#[test]
fn the_sheet_shows_values_against_the_enemies_present() {
    let w = core_world();
    let mut g = Game::new(1, Vec::new(), &BTreeMap::new());
    g.player.inventory.push(ItemInstance { item: "core:iron_sword".into(), count: 1, affixes: Vec::new(), equipped: true });
    g.setup(&w, &[]);
    let plain = g.sheet(&w).into_iter().find(|l| l.attribute == "damage").unwrap();
    assert!(plain.against.is_empty());
    // The silver mace's +5 against the undead shows beside the plain value.
    let silver = "core:silver_mace".to_string();
    g.player.inventory.push(ItemInstance { item: silver.clone(), count: 1, affixes: Vec::new(), equipped: false });
    g.run_step(&w, Act::Equip(&silver), CreatureRef::Player, None);
    g.add_enemies(&w, "core:skeleton", 1);
    g.add_enemies(&w, "core:rat", 1);
    let line = g.sheet(&w).into_iter().find(|l| l.attribute == "damage").unwrap();
    assert!(line.against.iter().any(|(c, v)| c == "core:skeleton" && *v > line.value), "{line}");
    assert!(!line.against.iter().any(|(c, _)| c == "core:rat"), "no difference against the rat: {line}");
    assert!(line.to_string().contains("against core:skeleton"), "{line}");
}
