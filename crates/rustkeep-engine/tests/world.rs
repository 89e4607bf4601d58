//! Properties of the engine's world (docs/engine.md, "The dungeon", "The map"), over many seeded
//! random cases: enemies move only onto free floor and always closer when a way exists; a floor's
//! shuffle visits every prefab once, its first room is one of its `first_rooms` (and without the
//! field the shuffle alone decides); the same seed and inputs give the same run; shops price and
//! trade as documented, and every core item but gold sells for something; a character takes one
//! option of each group; old saves load into no room.

mod common;

use std::collections::BTreeMap;

use common::{core_world, world_with};
use rustkeep_data::grid::{Dir, Pos};
use rustkeep_data::vocab::{field, Registry, CURRENCY};
use rustkeep_engine::floor;
use rustkeep_engine::game::{buy_price, check_options, option_group, sell_price, Act, CreatureRef, Game, ItemInstance, Trade, World};
use rustkeep_engine::map::{Map, NpcSpot};
use rustkeep_engine::rng::Rng;
use rustkeep_engine::save;

/// A random room: walls inside a walled frame, the player, some enemies and an NPC.
fn random_room(rng: &mut Rng) -> Map {
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
    let mut m = Map::of_rows(rows, player);
    for (i, p) in enemies {
        m.place_enemy(i, p);
    }
    m.npcs = npcs;
    m
}

/// Steps from every tile to the nearest free tile next to the player over free tiles, by a plain
/// breadth-first search written here (the engine's own search stops early and steps over a padded
/// copy of the map; this one is the rule as written).
fn naive_distances(room: &Map, mover: usize) -> Vec<u32> {
    let (w, h) = (room.width(), room.height());
    let index = |p: Pos| (p.y * w + p.x) as usize;
    let free = |p: Pos| p.x >= 0 && p.y >= 0 && p.x < w && p.y < h && !room.is_wall(p) && !room.occupied(p, Some(mover));
    let mut dist = vec![u32::MAX; (w * h) as usize];
    let mut queue = std::collections::VecDeque::new();
    for d in Dir::ALL {
        let t = room.player.step(d);
        if free(t) && dist[index(t)] == u32::MAX {
            dist[index(t)] = 0;
            queue.push_back(t);
        }
    }
    while let Some(p) = queue.pop_front() {
        for d in Dir::ALL {
            let q = p.step(d);
            if free(q) && dist[index(q)] == u32::MAX {
                dist[index(q)] = dist[index(p)] + 1;
                queue.push_back(q);
            }
        }
    }
    dist
}

#[test]
fn enemies_never_step_into_walls_or_creatures_and_always_get_closer() {
    let mut rng = Rng::seeded(11);
    let mut moved = 0;
    let mut blocked = 0;
    for _ in 0..3000 {
        let room = random_room(&mut rng);
        for (&i, &from) in room.enemies() {
            let dist = naive_distances(&room, i);
            assert_eq!(room.distances_to_player(Some(i)), dist, "the engine's whole field is the plain search's");
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
                    // The first of the equal best steps, in direction order.
                    let first = Dir::ALL
                        .iter()
                        .map(|d| from.step(*d))
                        .find(|q| room.tile(*q).is_some() && !room.is_wall(*q) && !room.occupied(*q, Some(i)) && dist[index(*q)] == dist[index(to)]);
                    assert_eq!(first, Some(to), "ties broken N, NE, E, …");
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
            let d = g.dungeon().expect("a dungeon");
            let mut got = d.rooms();
            orders.insert(got.clone());
            got.sort();
            let mut want = listed.clone();
            want.sort();
            assert_eq!(got, want, "{floor}, seed {seed}: every prefab once");
            assert_eq!(g.room(), Some(d.rooms()[0].as_str()), "the first room of the order is entered");
            assert_eq!(d.room, Some(0), "the player starts in it");
        }
    }
    assert!(orders.len() > 100, "seeds give different orders: {}", orders.len());
}

/// A floor's prefabs (or another list field of it), as listed.
fn listed(w: &World, floor: &str, name: &str) -> Vec<String> {
    w.entry(Registry::Floors, floor).expect("the floor").ref_list(name).iter().map(|p| p.value.clone()).collect()
}

/// Enters `floor` in a new game of `seed`; returns the order the generator would have given by
/// the shuffle alone (drawn from a copy of the game's generator just before) and the game.
fn enter(w: &World, floor: &str, seed: u64) -> (Vec<String>, Game) {
    let mut g = Game::new(seed, Vec::new(), &BTreeMap::new());
    g.setup(w, &[]);
    let mut shuffled = listed(w, floor, field::PREFABS);
    floor::shuffle(&mut shuffled, &mut g.rng().clone());
    g.run_step(w, Act::StartRun(Some(floor)), CreatureRef::Player, None);
    (shuffled, g)
}

#[test]
fn a_floors_first_room_is_one_of_its_first_rooms() {
    let w = core_world();
    for floor in rustkeep_engine::game::floor_order(&w) {
        let first_rooms = listed(&w, &floor, field::FIRST_ROOMS);
        assert!(!first_rooms.is_empty(), "{floor}: every core floor names its first rooms");
        let mut firsts = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let (shuffled, g) = enter(&w, &floor, seed);
            let d = g.dungeon().expect("a dungeon");
            let rooms = d.rooms();
            assert_eq!(d.room, Some(0), "{floor}, seed {seed}: the player starts in the first room");
            assert!(first_rooms.contains(&rooms[0]), "{floor}, seed {seed}: the first room {} is not one of {first_rooms:?}", rooms[0]);
            // The first of the first rooms in the shuffled order moved to the front, the rest in
            // their shuffled order.
            let at = shuffled.iter().position(|p| first_rooms.contains(p)).expect("a first room among the prefabs");
            let mut want = shuffled.clone();
            want[..=at].rotate_right(1);
            assert_eq!(rooms, want, "{floor}, seed {seed}");
            firsts.insert(rooms[0].clone());
        }
        let mut every: Vec<String> = first_rooms.clone();
        every.sort();
        every.dedup();
        assert_eq!(firsts.into_iter().collect::<Vec<_>>(), every, "{floor}: over 200 seeds every first room comes first");
    }
    // The boss's throne of floor 2 never greets a new arrival.
    for seed in 0..200 {
        let (_, g) = enter(&w, "core:floor_2", seed);
        assert_ne!(g.room(), Some("core:rat_kings_throne"), "seed {seed}");
        assert!(listed(&w, "core:floor_2", field::PREFABS).contains(&"core:rat_kings_throne".to_string()));
    }
}

const FLOORS: &str = include_str!("data/world/floors.toml");

#[test]
fn without_first_rooms_the_shuffle_alone_orders_the_rooms() {
    let w = world_with(&[("floors.toml", FLOORS)]);
    let mut throne_first = 0;
    for seed in 0..200 {
        for floor in ["t:as_listed", "t:none_listed"] {
            let (shuffled, g) = enter(&w, floor, seed);
            let d = g.dungeon().expect("a dungeon");
            assert_eq!(d.rooms(), shuffled, "{floor}, seed {seed}: the rooms in the order of the shuffle");
            throne_first += usize::from(d.rooms()[0] == "core:rat_kings_throne");
        }
        // One first room: always first, and the same map as the other floor's but for the order.
        let (shuffled, g) = enter(&w, "t:throne_first", seed);
        let rooms = g.dungeon().expect("a dungeon").rooms();
        assert_eq!(rooms[0], "core:rat_kings_throne", "seed {seed}");
        let mut rest = shuffled.clone();
        rest.retain(|p| p != "core:rat_kings_throne");
        assert_eq!(rooms[1..], rest[..], "seed {seed}: the others keep their shuffled order");
    }
    assert!(throne_first > 0, "without first rooms the throne comes first now and then");
}

#[test]
fn a_character_takes_one_option_of_each_group() {
    let w = core_world();
    let opts = |ids: &[&str]| ids.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for class in ["core:warrior", "core:rogue", "core:mage"] {
        assert_eq!(option_group(&w, class).as_deref(), Some("class"), "{class}");
    }
    for background in ["core:grave_digger", "core:merchants_heir"] {
        assert_eq!(option_group(&w, background).as_deref(), Some("background"), "{background}");
    }
    assert_eq!(option_group(&w, "core:rat"), None, "no option, no group");
    assert_eq!(check_options(&w, &opts(&[])), Ok(()));
    assert_eq!(check_options(&w, &opts(&["core:warrior", "core:grave_digger"])), Ok(()));
    assert_eq!(check_options(&w, &opts(&["core:merchants_heir", "core:mage"])), Ok(()));
    assert_eq!(
        check_options(&w, &opts(&["core:warrior", "core:mage"])),
        Err("core:warrior and core:mage are both of the group `class`; a character takes one of each group".to_string())
    );
    assert_eq!(
        check_options(&w, &opts(&["core:rogue", "core:grave_digger", "core:merchants_heir"])),
        Err("core:grave_digger and core:merchants_heir are both of the group `background`; a character takes one of each group".to_string())
    );
    let twice = check_options(&w, &opts(&["core:mage", "core:mage"])).expect_err("one class twice");
    assert!(twice.contains("core:mage") && twice.contains("`class`"), "{twice}");
    // Options without a group combine freely.
    let free = r#"
[[character_options]]
id = "t:lucky"
name = "Lucky"

[[character_options]]
id = "t:tall"
name = "Tall"
"#;
    let w = world_with(&[("options.toml", free)]);
    assert_eq!(check_options(&w, &opts(&["t:lucky", "t:tall", "core:warrior"])), Ok(()));
}

#[test]
fn every_core_item_but_gold_sells_for_at_least_one() {
    let w = core_world();
    let affixes = w.ids(Registry::Affixes);
    let items = w.ids(Registry::Items);
    assert!(items.len() > 40 && !affixes.is_empty());
    for item in items.iter().filter(|i| *i != CURRENCY) {
        let plain = ItemInstance { item: item.clone(), count: 1, affixes: Vec::new(), equipped: false };
        assert!(sell_price(&w, &plain) >= 1, "{item} sells for {}", sell_price(&w, &plain));
        for a in &affixes {
            let with = ItemInstance { affixes: vec![a.clone()], ..plain.clone() };
            assert!(sell_price(&w, &with) >= sell_price(&w, &plain), "{item} with {a} sells for less than without");
        }
    }
}

/// A seeded random walk through the core's dungeon: moves, waits and enemy turns.
fn random_run(w: &World, seed: u64, turns: usize) -> Game {
    let mut g = Game::new(seed, vec!["core:warrior".into()], &BTreeMap::new());
    g.create_character(w, &[]);
    g.run_step(w, Act::StartRun(None), CreatureRef::Player, None);
    let mut choice = Rng::seeded(seed ^ 0xABCD);
    for _ in 0..turns {
        if g.is_over() {
            break;
        }
        let step = g.step();
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
    assert!(loaded.dungeon().is_some());
}

/// A game of the core after some random steps, and its save marked as of `version`.
fn an_old_save(version: u32) -> (World, Game, serde_json::Value) {
    let w = core_world();
    let g = random_run(&w, 3, 5);
    let mut v: serde_json::Value = serde_json::from_str(&save::to_json(&g)).unwrap();
    v["version"] = serde_json::json!(version);
    (w, g, v)
}

#[test]
fn a_save_of_version_1_loads_into_no_room() {
    let (w, g, mut v) = an_old_save(1);
    for k in ["dungeon", "shops", "open_shop", "won"] {
        v["game"].as_object_mut().unwrap().remove(k);
    }
    let (loaded, _) = save::from_json(&v.to_string(), &w).expect("a version 1 save loads");
    assert!(loaded.dungeon().is_none() && loaded.map().is_none());
    assert_eq!(loaded.player().health, g.player().health);
}

#[test]
fn a_save_of_version_2_loads_its_room_as_a_one_room_floor() {
    let (w, _, mut v) = an_old_save(2);
    let floors = v["game"]["dungeon"]["floors"].clone();
    // A version 2 save stood in one room at a time: the rat den, a rat in it, a pile, the player
    // on its `@`, the door on the bottom border leading on.
    v["game"]["dungeon"] = serde_json::json!({
        "floors": floors,
        "floor": 0,
        "rooms": ["core:rat_den", "core:library"],
        "room": 0,
        "map": {
            "prefab": "core:rat_den",
            "rows": ["#####", "#...#", "#...#", "##+##"],
            "player": { "x": 2, "y": 1 },
            "enemies": { "0": { "x": 3, "y": 2 } },
            "npcs": [],
            "piles": [{ "pos": { "x": 1, "y": 2 }, "table": null }],
            "loot": []
        }
    });
    v["game"]["enemies"] = serde_json::json!([{ "index": 0, "body": { "creature": "core:rat", "health": 3 } }]);
    let (loaded, warnings) = save::from_json(&v.to_string(), &w).expect("a version 2 save loads");
    assert!(warnings.is_empty(), "{warnings:?}");
    let d = loaded.dungeon().expect("a dungeon");
    let m = &d.map;
    assert_eq!(d.rooms(), ["core:rat_den"], "the room it stood in, alone");
    assert_eq!(d.room, Some(0));
    let o = m.rooms[0].origin;
    assert_eq!((m.rooms[0].width, m.rooms[0].height), (5, 4));
    assert_eq!(m.player, Pos::new(o.x + 2, o.y + 1));
    assert_eq!(m.enemies().get(&0), Some(&Pos::new(o.x + 3, o.y + 2)));
    assert_eq!(m.piles[0].pos, Pos::new(o.x + 1, o.y + 2));
    assert!(m.is_stairs(Pos::new(o.x + 2, o.y + 4)), "the stairs where the door led on:\n{}", m.rows.join("\n"));
    assert!(m.remembered(m.player), "what the player sees is remembered");
    // And it plays on: down through the door and the stairs to the next floor.
    let mut g = loaded;
    for d in [Dir::S, Dir::S, Dir::S] {
        if g.map().is_some_and(|m| m.enemy_at(m.player.step(d)).is_none()) {
            g.run_step(&w, Act::Move(d), CreatureRef::Player, None);
        }
    }
    assert_eq!(g.dungeon().unwrap().floor, 1, "{:?}", g.map().map(|m| m.player));
    // Saved again, it is a save of this version.
    let again: serde_json::Value = serde_json::from_str(&save::to_json(&g)).unwrap();
    assert_eq!(again["version"], save::VERSION);
}

const SHOP: &str = include_str!("data/world/shop.toml");

#[test]
fn shops_roll_their_stock_once_and_price_as_documented() {
    let w = world_with(&[("shop.toml", SHOP)]);
    let mut g = Game::new(1, Vec::new(), &BTreeMap::new());
    g.setup(&w, &[]);
    g.carry([
        ItemInstance { item: "core:gold".into(), count: 40, affixes: Vec::new(), equipped: false },
        ItemInstance { item: "t:lamp".into(), count: 1, affixes: vec!["t:gilded".into()], equipped: false },
    ]);
    assert_eq!(g.open_stock(&w, "t:stall").to_vec(), vec![ItemInstance { item: "t:lamp".into(), count: 2, affixes: Vec::new(), equipped: false }]);
    // round(10 × 1.25) = 13 (half away from zero: 12.5 → 13); a gilded lamp sells for floor(10 × 1.5 ÷ 2) = 7.
    let lamp = ItemInstance { item: "t:lamp".into(), count: 1, affixes: Vec::new(), equipped: false };
    assert_eq!(buy_price(&w, "t:stall", &lamp), 13);
    assert_eq!(sell_price(&w, &g.player().inventory[1]), 7);
    let t = g.trade(&w, "t:stall", Trade::Buy(0));
    assert_eq!(t.events.iter().map(|e| e.event.name()).collect::<Vec<_>>(), ["item_picked_up"], "buying raises item_picked_up");
    assert_eq!(g.gold(), 27);
    assert_eq!(g.shops()["t:stall"][0].count, 1, "one of the two was sold");
    let sold = g.player().inventory.iter().position(|i| i.affixes == ["t:gilded"]).unwrap();
    let t = g.trade(&w, "t:stall", Trade::Sell(sold));
    assert!(t.events.is_empty(), "selling raises no event");
    assert_eq!(g.gold(), 34);
    assert!(g.shops()["t:stall"].iter().any(|i| i.affixes == ["t:gilded"]), "the sold lamp joins the stock");
    // The stock is kept: opening again rolls nothing.
    let before = g.rng().clone();
    g.open_stock(&w, "t:stall");
    assert_eq!(g.rng(), &before);
    // Too little gold: nothing happens.
    let mut poor = Game::new(1, Vec::new(), &BTreeMap::new());
    poor.setup(&w, &[]);
    poor.open_stock(&w, "t:stall");
    let t = poor.trade(&w, "t:stall", Trade::Buy(0));
    assert!(matches!(t.effects[0].effect, rustkeep_engine::effect::Effect::CannotAfford { .. }), "{:?}", t.effects[0]);
    assert!(t.effects[0].effect.to_string().starts_with("cannot buy"));
}

#[test]
fn character_creation_equips_the_starting_kit_into_empty_slots() {
    let w = core_world();
    let mut g = Game::new(1, vec!["core:warrior".into()], &BTreeMap::new());
    g.create_character(&w, &[]);
    let equipped: Vec<&str> = g.player().inventory.iter().filter(|i| i.equipped).map(|i| i.item.as_str()).collect();
    assert_eq!(equipped, ["core:iron_sword", "core:leather_armor"]);
    assert!(g.player().inventory.iter().any(|i| i.item == "core:health_potion" && !i.equipped));
    assert_eq!(g.player().health, g.max_health(&w, CreatureRef::Player), "full health with the kit on");
    // A scenario's player keeps its flags: plain setup equips nothing.
    let mut g = Game::new(1, vec!["core:warrior".into()], &BTreeMap::new());
    g.setup(&w, &[]);
    assert!(g.player().inventory.iter().all(|i| !i.equipped));
}

#[test]
fn the_sheet_shows_values_against_the_enemies_present() {
    let w = core_world();
    let mut g = Game::new(1, Vec::new(), &BTreeMap::new());
    g.carry([ItemInstance { item: "core:iron_sword".into(), count: 1, affixes: Vec::new(), equipped: true }]);
    g.setup(&w, &[]);
    let plain = g.sheet(&w).into_iter().find(|l| l.attribute == "damage").unwrap();
    assert!(plain.against.is_empty());
    // The silver mace's +5 against the undead shows beside the plain value.
    let silver = "core:silver_mace".to_string();
    g.carry([ItemInstance { item: silver.clone(), count: 1, affixes: Vec::new(), equipped: false }]);
    g.run_step(&w, Act::Equip(&silver), CreatureRef::Player, None);
    g.add_enemies(&w, "core:skeleton", 1);
    g.add_enemies(&w, "core:rat", 1);
    let line = g.sheet(&w).into_iter().find(|l| l.attribute == "damage").unwrap();
    assert!(line.against.iter().any(|(c, v)| c == "core:skeleton" && *v > line.value), "{line}");
    assert!(!line.against.iter().any(|(c, _)| c == "core:rat"), "no difference against the rat: {line}");
    assert!(line.to_string().contains("against core:skeleton"), "{line}");
}

/// The first step of a shortest way from the player to the stairs over walkable tiles.
fn toward_stairs(m: &Map) -> Option<Dir> {
    let mut first: std::collections::HashMap<Pos, Dir> = std::collections::HashMap::new();
    let mut queue = std::collections::VecDeque::new();
    for d in Dir::ALL {
        let p = m.player.step(d);
        if !m.is_wall(p) && !first.contains_key(&p) {
            first.insert(p, d);
            queue.push_back(p);
        }
    }
    while let Some(p) = queue.pop_front() {
        if m.is_stairs(p) {
            return first.get(&p).copied();
        }
        for d in Dir::ALL {
            let q = p.step(d);
            if !m.is_wall(q) && q != m.player && !first.contains_key(&q) {
                let via = first[&p];
                first.insert(q, via);
                queue.push_back(q);
            }
        }
    }
    None
}

/// Seeded random walks through the core's dungeon, checked after every turn: everyone stands on
/// a walkable tile of the map and no two on the same one; a resident never moves before its room
/// is entered; `room_entered` is raised at most once per room of a floor, and only for the room
/// the player stands in; every enemy belongs to a room of the floor.
#[test]
fn random_walks_keep_the_rules_of_the_floor_map() {
    use std::collections::{BTreeSet, HashMap};
    let w = core_world();
    let (mut entered_rooms, mut floors_seen, mut woke) = (0, BTreeSet::new(), 0);
    for seed in 0..40 {
        let mut g = Game::new(seed, vec!["core:warrior".into()], &BTreeMap::new());
        g.create_character(&w, &[]);
        let mut steps = vec![g.run_step(&w, Act::StartRun(None), CreatureRef::Player, None)];
        let mut choice = Rng::seeded(seed ^ 0x5151);
        let mut entered: BTreeSet<(String, String)> = BTreeSet::new();
        let mut resting: HashMap<usize, Pos> = HashMap::new();
        for _ in 0..300 {
            let floor = g.floor().unwrap_or_default().to_string();
            let d = g.dungeon().expect("a dungeon");
            let m = &d.map;
            floors_seen.insert(floor.clone());
            // Everyone on a walkable tile, no two on one.
            let mut taken = BTreeSet::from([m.player]);
            assert!(!m.is_wall(m.player), "seed {seed}: the player on a wall");
            for (i, p) in m.enemies() {
                assert!(!m.is_wall(*p), "seed {seed}: enemy:{i} on a wall at {p}");
                assert!(taken.insert(*p), "seed {seed}: two on {p}");
                assert!(m.homes.get(i).is_some_and(|r| *r < m.rooms.len()), "seed {seed}: enemy:{i} belongs to no room");
            }
            // Residents stay where they were while they rest.
            for e in g.enemies() {
                let at = m.enemies().get(&e.index).copied();
                match (e.resident, at) {
                    (true, Some(p)) => {
                        let first = *resting.entry(e.index).or_insert(p);
                        assert_eq!(first, p, "seed {seed}: resident enemy:{} moved", e.index);
                    }
                    _ => {
                        woke += usize::from(resting.remove(&e.index).is_some());
                    }
                }
            }
            // `room_entered` once per room of a floor, for the room the player stands in.
            for st in &steps {
                for ev in st.events.iter().filter(|e| e.event == rustkeep_data::vocab::EventKind::RoomEntered) {
                    let prefab = ev.payload.str("prefab").expect("a prefab").to_string();
                    assert!(entered.insert((floor.clone(), prefab.clone())), "seed {seed}: {prefab} entered twice on {floor}");
                    entered_rooms += 1;
                }
            }
            if let Some(r) = d.room {
                assert!(m.rooms[r].entered, "seed {seed}: the player stands in a room never entered");
            }
            if g.is_over() {
                break;
            }
            let step = g.step();
            // Half the moves head for the stairs, so that walks reach deeper floors.
            let dir = match choice.below(2) {
                0 => toward_stairs(&g.dungeon().expect("a dungeon").map).unwrap_or(Dir::N),
                _ => Dir::ALL[choice.below(8) as usize],
            };
            if g.move_target(dir).is_none() {
                steps.clear();
                continue;
            }
            let floor_before = g.dungeon().map(|d| d.floor);
            steps = vec![g.run_step(&w, Act::Move(dir), CreatureRef::Player, None)];
            steps.extend(g.enemy_turns(&w, step));
            if g.dungeon().map(|d| d.floor) != floor_before {
                resting.clear();
            }
        }
    }
    assert!(entered_rooms > 120 && woke > 20 && floors_seen.len() >= 2, "{entered_rooms} rooms entered, {woke} residents woke, floors {floors_seen:?}");
}

/// A stackable item taken off (by equipping another in its slot) joins its unequipped stack
/// again, so that three identical charms read "3 ×", not "2 ×" beside a lone one.
#[test]
fn a_stackable_item_taken_off_stacks_again() {
    let items = "[[items]]\nid = \"t:charm\"\nname = \"Charm\"\nstackable = true\nslot = \"amulet\"\n\n[[items]]\nid = \"t:pendant\"\nname = \"Pendant\"\nslot = \"amulet\"\n";
    let w = world_with(&[("items.toml", items)]);
    let mut g = Game::new(1, Vec::new(), &BTreeMap::new());
    g.carry([
        ItemInstance { item: "t:charm".into(), count: 3, affixes: Vec::new(), equipped: false },
        ItemInstance { item: "t:pendant".into(), count: 1, affixes: Vec::new(), equipped: false },
    ]);
    g.setup(&w, &[]);
    let charm = "t:charm".to_string();
    g.run_step(&w, Act::Equip(&charm), CreatureRef::Player, None);
    let held = |g: &Game| g.player().inventory.iter().map(|i| (i.item.clone(), i.count, i.equipped)).collect::<Vec<_>>();
    assert_eq!(held(&g), [("t:charm".into(), 2, false), ("t:pendant".into(), 1, false), ("t:charm".into(), 1, true)]);
    let pendant = "t:pendant".to_string();
    g.run_step(&w, Act::Equip(&pendant), CreatureRef::Player, None);
    assert_eq!(held(&g), [("t:charm".into(), 3, false), ("t:pendant".into(), 1, true)]);
}
