//! What a death does (docs/engine.md, "Combat", "Events and triggers" and "The map"): the hero's
//! own death advances no quest — checked for every quest of the bundled core and of the examples
//! against every creature its condition accepts; an action aimed at a creature that is dead does
//! nothing, while the trigger that ran it still fired and a creature's own `creature_died`
//! triggers still run; and creatures spawned by a death stand where the dead one stood.

mod common;

use std::collections::BTreeMap;

use common::{edited, world_of, world_with};
use rustkeep_data::grid::Pos;
use rustkeep_data::model::{ActionData, Sp};
use rustkeep_data::vocab::{EventKind, Registry};
use rustkeep_engine::game::{Act, CreatureRef, Dungeon, Game, ItemInstance, World};
use rustkeep_engine::map::{Map, MapRoom};
use rustkeep_engine::trace::{StepTrace, TraceEvent, TraceTrigger};

fn attributes(pairs: &[(&str, f64)]) -> BTreeMap<String, f64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// A player of 100 health and 5 damage.
fn hero() -> Game {
    Game::new(1, Vec::new(), &attributes(&[("max_health", 100.0), ("damage", 5.0)]))
}

/// [`hero`] against one `creature`, the game set up.
fn hero_against(w: &World, creature: &str) -> Game {
    let mut g = hero();
    g.add_enemies(w, creature, 1);
    g.setup(w, &[]);
    g
}

/// The trigger records of `owner` on the `creature_died` events of a step whose source is `who`.
fn on_death<'t>(t: &'t StepTrace, who: CreatureRef, owner: &str) -> Vec<&'t TraceTrigger> {
    deaths(&t.events, who).flat_map(|e| e.triggers.iter()).filter(|tt| tt.owner == owner).collect()
}

fn deaths(events: &[TraceEvent], who: CreatureRef) -> impl Iterator<Item = &TraceEvent> {
    events.iter().filter(move |e| e.event == EventKind::CreatureDied && e.source == who)
}

/// A game with `quest` started one count short of its reward, against one `creature`.
fn one_short(w: &World, quest: &str, creature: &str, player: &[(&str, f64)]) -> Game {
    let mut g = Game::new(1, Vec::new(), &attributes(player));
    g.add_enemies(w, creature, 1);
    g.setup(w, &[quest.to_string()]);
    assert_eq!(g.quests().len(), 1, "{quest} is started");
    edited(&g, w, |json| json["quests"][0]["count"] = (w.quest_count(quest) - 1).into())
}

/// Whether `quest` counts the death of `creature` at the player's hand: the creatures its
/// condition accepts. The blow is certain to hit and to kill, and the quest, one short, must then
/// be done — so a count of the player's own death would be seen as a paid reward.
fn counts_the_death_of(w: &World, quest: &str, creature: &str) -> bool {
    let mut g = one_short(w, quest, creature, &[("max_health", 1e9), ("damage", 1e9), ("accuracy", 1e6)]);
    let t = g.run_step(w, Act::Attack, CreatureRef::Player, Some(CreatureRef::Enemy(0)));
    assert_eq!(deaths(&t.events, CreatureRef::Enemy(0)).count(), 1, "{creature} dies of one blow");
    let counted = on_death(&t, CreatureRef::Enemy(0), quest).iter().any(|tt| tt.fired);
    assert!(!counted || g.quests()[0].done, "{quest} against {creature}: a count completes the quest one short");
    counted
}

#[test]
fn the_heros_death_advances_no_quest_of_the_core_or_the_examples() {
    let mut tried = 0;
    for mods in [&[][..], &["examples/rat_catcher"], &["examples/fire_and_thorns"]] {
        let w = world_of(mods);
        for quest in w.ids(Registry::Quests) {
            let listens_to_deaths = w.entry(Registry::Quests, &quest).and_then(|e| e.triggers().first()).and_then(|t| t.on.as_ref()).map(|o| o.value)
                == Some(EventKind::CreatureDied);
            let accepted: Vec<String> = w.ids(Registry::Creatures).into_iter().filter(|c| counts_the_death_of(&w, &quest, c)).collect();
            // A quest about other events accepts no death at all; one about deaths accepts some
            // creature of the data it ships with (else this test would prove nothing for it).
            assert_eq!(!accepted.is_empty(), listens_to_deaths, "{mods:?}: {quest} accepts the deaths of {accepted:?}");
            for creature in &accepted {
                let mut g = one_short(&w, &quest, creature, &[("max_health", 1.0)]);
                let before = g.quests()[0].clone();
                let mut traces = Vec::new();
                while !g.is_over() && traces.len() < 50 {
                    traces.push(g.run_step(&w, Act::Attack, CreatureRef::Enemy(0), Some(CreatureRef::Player)));
                }
                let last = traces.last().expect("a step ran");
                assert_eq!(deaths(&last.events, CreatureRef::Player).count(), 1, "{creature} kills the player");
                let verdicts = on_death(last, CreatureRef::Player, &quest);
                assert_eq!(verdicts.len(), 1, "{quest} is offered the player's death");
                assert!(!verdicts[0].fired, "{quest} counted the player's death by {creature}");
                assert_eq!(verdicts[0].reason.as_deref(), Some("the player's own death counts for no quest"));
                assert_eq!(g.quests()[0], before, "{quest}'s count did not move when {creature} killed the player");
                assert!(g.player().inventory.is_empty(), "{quest} paid {:?} to the dead", g.player().inventory);
                let completed = traces.iter().flat_map(|t| &t.events).any(|e| e.event == EventKind::QuestCompleted);
                assert!(!completed, "{quest} completed on the player's death by {creature}");
                tried += 1;
            }
        }
    }
    assert!(tried >= 20, "only {tried} deaths tried");
}

const MARKS: &str = include_str!("data/deaths/marks.toml");

/// What each action of the fired triggers of `owner` did, in the step's events.
fn effects_of(events: &[TraceEvent], owner: &str) -> Vec<String> {
    events.iter().flat_map(|e| &e.triggers).filter(|t| t.owner == owner && t.fired).flat_map(|t| &t.actions).map(|o| o.effect.to_string()).collect()
}

#[test]
fn a_status_put_by_the_blow_that_killed_is_not_applied_but_the_trigger_fired() {
    let w = world_with(&[("marks.toml", MARKS)]);
    let mut g = hero();
    g.carry([ItemInstance { item: "t:marking_blade".into(), count: 1, affixes: Vec::new(), equipped: true }]);
    g.add_enemies(&w, "t:dummy", 1);
    g.add_enemies(&w, "t:post", 1);
    g.setup(&w, &[]);
    // The blow that kills: the trigger fires, its status finds its target dead.
    g.apply(&w, Act::Attack, CreatureRef::Player, Some(CreatureRef::Enemy(0)));
    g.work_off(&w);
    let fired: Vec<&TraceTrigger> = g.trace().events.iter().flat_map(|e| &e.triggers).filter(|t| t.owner == "t:marking_blade").collect();
    assert_eq!(fired.len(), 1);
    assert!(fired[0].fired, "the trigger counts as fired");
    assert_eq!(fired[0].actions[0].target, Some(Some(CreatureRef::Enemy(0))), "aimed at the dead dummy");
    assert_eq!(fired[0].actions[0].effect.to_string(), "no target: dead");
    assert_eq!(g.enemies()[0].body.health, 0);
    assert!(g.enemies()[0].body.statuses.is_empty(), "no status on the dead: {:?}", g.enemies()[0].body.statuses);
    // A blow that does not kill marks as before.
    let t = g.run_step(&w, Act::Attack, CreatureRef::Player, Some(CreatureRef::Enemy(1)));
    assert_eq!(effects_of(&t.events, "t:marking_blade"), ["enemy:1: t:marked for 3 turns"]);
}

#[test]
fn a_creatures_own_death_triggers_still_run_but_never_reach_itself() {
    let w = world_with(&[("marks.toml", MARKS)]);
    let mut g = hero_against(&w, "t:martyr");
    g.apply(&w, Act::Attack, CreatureRef::Player, Some(CreatureRef::Enemy(0)));
    g.work_off(&w);
    let effects = effects_of(&g.trace().events, "t:martyr");
    assert_eq!(effects.len(), 3, "its creature_died trigger fired: {effects:?}");
    assert_eq!(effects[0], "player took 2 physical damage (98 left)", "its killer is alive and hurt");
    assert_eq!(effects[1], "no target: dead", "nothing is given to the dead");
    assert_eq!(effects[2], "spawned t:dummy as enemy:1; combat started", "a spawn is aimed at nobody");
    assert!(g.enemies()[0].body.inventory.is_empty());
    assert_eq!(g.player().health, 98);
}

const SPLITTERS: &str = include_str!("data/deaths/splitters.toml");

/// Two rooms joined by a door; the player stands at (3, 2) in the west one, room 0.
const ROOMS: [&str; 5] = ["#############", "#.....#.....#", "#.....+.....#", "#.....#.....#", "#############"];

/// A game on the two rooms with `enemies` standing where given, each belonging to the room of its
/// tile.
fn on_the_map(w: &World, enemies: &[(&str, Pos)]) -> Game {
    on_the_map_with_quests(w, enemies, &[])
}

/// [`on_the_map`], with `quests` started.
fn on_the_map_with_quests(w: &World, enemies: &[(&str, Pos)], quests: &[String]) -> Game {
    let mut g = hero();
    let mut map = Map::of_rows(ROOMS.iter().map(|r| r.to_string()).collect(), Pos::new(3, 2));
    map.rooms.push(MapRoom { prefab: None, origin: Pos::new(0, 0), width: 7, height: 5, entered: true });
    map.rooms.push(MapRoom { prefab: None, origin: Pos::new(7, 0), width: 6, height: 5, entered: false });
    for (creature, at) in enemies {
        for r in g.add_enemies(w, creature, 1) {
            let CreatureRef::Enemy(i) = r else { unreachable!("enemies are enemies") };
            map.place_enemy(i, *at);
            map.homes.insert(i, map.room_at(*at).expect("in a room"));
        }
    }
    let dungeon = Dungeon { floors: vec!["t:rooms".into()], floor: 0, room: Some(0), map };
    let mut g = edited(&g, w, |json| json["dungeon"] = serde_json::to_value(&dungeon).expect("a dungeon is JSON"));
    g.setup(w, quests);
    g
}

fn at(g: &Game, r: usize) -> Option<Pos> {
    g.position(CreatureRef::Enemy(r))
}

fn home(g: &Game, r: usize) -> Option<usize> {
    g.map().and_then(|m| m.homes.get(&r).copied())
}

#[test]
fn a_creature_split_on_its_death_stands_where_it_died() {
    let w = world_with(&[("splitters.toml", SPLITTERS)]);
    // In the east room's north-east corner: north, north-east, east and south-east are walls.
    let mut g = on_the_map(&w, &[("t:splitter", Pos::new(11, 1))]);
    g.run_step(&w, Act::Attack, CreatureRef::Player, Some(CreatureRef::Enemy(0)));
    assert_eq!(at(&g, 0), None, "the splitter is dead and gone");
    assert_eq!(at(&g, 1), Some(Pos::new(11, 1)), "the first half on the tile where it died");
    assert_eq!(at(&g, 2), Some(Pos::new(11, 2)), "the second on the first free tile in the order of the directions");
    assert_eq!((home(&g, 1), home(&g, 2)), (Some(1), Some(1)), "they belong to the dead one's room, not the player's");

    // A living creature south of it: the next free tile is south-west.
    let mut g = on_the_map(&w, &[("t:splitter", Pos::new(11, 1)), ("t:spawnling", Pos::new(11, 2))]);
    g.run_step(&w, Act::Attack, CreatureRef::Player, Some(CreatureRef::Enemy(0)));
    assert_eq!((at(&g, 2), at(&g, 3)), (Some(Pos::new(11, 1)), Some(Pos::new(10, 2))));
    assert_eq!(g.map().unwrap().enemy_at(Pos::new(11, 1)), Some(2), "the tile is the newcomer's once the dead one is removed");
}

#[test]
fn a_quests_spawn_in_answer_to_a_death_stands_where_the_dead_one_stood() {
    let w = world_with(&[("splitters.toml", SPLITTERS)]);
    let mut g = on_the_map_with_quests(&w, &[("t:plain", Pos::new(11, 1))], &["t:haunting".to_string()]);
    g.run_step(&w, Act::Attack, CreatureRef::Player, Some(CreatureRef::Enemy(0)));
    assert_eq!(at(&g, 0), None, "the creature is dead and gone");
    assert_eq!(at(&g, 1), Some(Pos::new(11, 1)), "the quest's spawn rises where it died, not next to the player");
    assert_eq!(home(&g, 1), Some(1), "in the dead one's room");
}

#[test]
fn a_living_spawner_spawns_next_to_itself_and_the_player_next_to_the_player() {
    let w = world_with(&[("splitters.toml", SPLITTERS)]);
    let mut g = on_the_map(&w, &[("t:caller", Pos::new(9, 2))]);
    g.run_step(&w, Act::Attack, CreatureRef::Player, Some(CreatureRef::Enemy(0)));
    assert_eq!(at(&g, 0), Some(Pos::new(9, 2)), "the caller lives on its tile");
    assert_eq!(at(&g, 1), Some(Pos::new(9, 1)), "its help stands north of it");
    assert_eq!(home(&g, 1), Some(1));

    // The player's own spawn keeps the rule of before: next to the player, in the player's room.
    let spawn = ActionData::Spawn { creature: Sp::new(0..0, "t:spawnling".to_string()), count: 2 };
    g.run_step(&w, Act::Action(&spawn), CreatureRef::Player, None);
    assert_eq!((at(&g, 2), at(&g, 3)), (Some(Pos::new(3, 1)), Some(Pos::new(4, 1))), "north, then north-east of the player");
    assert_eq!((home(&g, 2), home(&g, 3)), (Some(0), Some(0)));
}

#[test]
fn a_spawn_brings_as_many_creatures_as_there_are_free_tiles() {
    let w = world_with(&[("splitters.toml", SPLITTERS)]);
    let mut g = on_the_map(&w, &[]);
    let spawn = ActionData::Spawn { creature: Sp::new(0..0, "t:spawnling".to_string()), count: 100 };
    g.run_step(&w, Act::Action(&spawn), CreatureRef::Player, None);
    let came = g.living_enemies();
    assert!(came > 0 && came < 100, "the two rooms hold fewer than 100: {came}");
    let tiles: std::collections::BTreeSet<Pos> = (0..came).map(|r| at(&g, r).unwrap_or_else(|| panic!("enemy:{r} stands somewhere"))).collect();
    assert_eq!(tiles.len(), came, "each on a tile of its own");
    // The floor is full: the next spawn brings nobody.
    g.run_step(&w, Act::Action(&spawn), CreatureRef::Player, None);
    assert_eq!(g.living_enemies(), came);
}

#[test]
fn without_a_map_a_split_creature_still_splits() {
    let w = world_with(&[("splitters.toml", SPLITTERS)]);
    let mut g = hero_against(&w, "t:splitter");
    g.run_step(&w, Act::Attack, CreatureRef::Player, Some(CreatureRef::Enemy(0)));
    assert_eq!(g.living_enemies(), 2);
    assert_eq!(at(&g, 1), None, "no map, no tiles");
}
