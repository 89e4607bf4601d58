//! The dungeon of a played run (docs/engine.md, "The dungeon", "Floor maps" and "The map").
//!
//! Floors are visited in depth order (ties by ID). Entering a floor shuffles its prefabs with the
//! game's generator (Fisher–Yates over the listed order, from index n − 1 down to 1, with the
//! engine's unbiased bounded integers), moves the first of them that its `first_rooms` names to
//! the front (when it names any; no draw), lays them out as one map joined by corridors
//! (`crate::floor`), then draws the creatures of every room (rooms in shuffle order, `e` glyphs in
//! reading order, each one of the floor's creatures drawn uniformly). They wait in their room,
//! residents, until the player first steps into it: then `room_entered` (once per room per
//! floor), and they join the combat and pursue the player over the whole floor. An `l` is a pile
//! rolled when it is picked up (the prefab's `loot`, else the floor's); the i-th `n` is the
//! prefab's i-th NPC. The player starts on the first room's `@`; the last room's `@` is the stairs
//! down. Taking the stairs leaves the floor and everyone on it behind (a running combat ends as
//! fled); the stairs of the deepest floor win the run. Nothing is removed by walking away.

use rustkeep_data::grid::{Dir, Pos};
use rustkeep_data::model::Grid;
use rustkeep_data::vocab::{field, glyph, outcome, EventKind, Registry, MAX_LIVING_ENEMIES};
use serde::{Deserialize, Serialize};

use super::{CreatureRef, Game, ItemInstance, World};
use crate::effect::{Effect, Outcome, Reason};
use crate::floor::{self, FloorMap, LayoutError, STAIRS};
use crate::map::{Dropped, Map, MapRoom, NpcSpot, Pile, ROCK};
use crate::payload::Payload;

/// Where a played run is: the floors, the floor the player is on, and its map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Dungeon {
    /// Every floor's ID in the order they are visited.
    pub floors: Vec<String>,
    /// The floor the player is on (an index into `floors`).
    pub floor: usize,
    /// The room the player stands in (an index into the map's rooms); `None` in a corridor.
    pub room: Option<usize>,
    pub map: Map,
}

impl Dungeon {
    /// The prefabs of this floor's rooms, in the order its shuffle gave (its first room in front).
    pub fn rooms(&self) -> Vec<String> {
        self.map.rooms.iter().filter_map(|r| r.prefab.clone()).collect()
    }
}

/// The floors of the loaded data in the order a run visits them: by `depth`, ties by ID; floors
/// without a depth come last.
pub fn floor_order(w: &World) -> Vec<String> {
    let mut floors: Vec<(i64, String)> =
        w.ids(Registry::Floors).into_iter().map(|id| (w.entry(Registry::Floors, &id).and_then(|e| e.int(field::DEPTH)).unwrap_or(i64::MAX), id)).collect();
    floors.sort();
    floors.into_iter().map(|(_, id)| id).collect()
}

/// The map of a floor without rooms to lay out: one tile to stand on, the stairs beside it.
fn bare_floor() -> Map {
    let rows = ["####", &format!("#{}{STAIRS}#", glyph::FLOOR), "####"].iter().map(|r| r.to_string()).collect();
    let mut m = Map::of_rows(rows, Pos::new(1, 1));
    m.rooms.push(MapRoom { prefab: None, origin: Pos::new(1, 1), width: 1, height: 1, entered: false });
    m
}

/// A laid-out floor as the game's map: the tiles as text, the rooms with their prefabs.
fn map_of(layout: &FloorMap, prefabs: &[Option<String>]) -> Map {
    let rows = layout.rows().into_iter().map(|r| r.replace(floor::Tile::Rock.glyph(), &ROCK.to_string())).collect();
    let mut m = Map::of_rows(rows, layout.start);
    m.rooms = layout
        .rooms
        .iter()
        .zip(prefabs)
        .map(|(r, p)| MapRoom { prefab: p.clone(), origin: r.origin, width: r.width, height: r.height, entered: false })
        .collect();
    m
}

impl Game {
    /// The map of the floor the player is on, if the run has one.
    pub fn map(&self) -> Option<&Map> {
        self.dungeon.as_ref().map(|d| &d.map)
    }

    pub(super) fn map_mut(&mut self) -> Option<&mut Map> {
        self.dungeon.as_mut().map(|d| &mut d.map)
    }

    /// Where a creature stands on the map.
    pub fn position(&self, r: CreatureRef) -> Option<Pos> {
        let m = self.map()?;
        match r {
            CreatureRef::Player => Some(m.player),
            CreatureRef::Enemy(i) => m.enemies().get(&i).copied(),
        }
    }

    /// Whether `a` can attack `b` this turn: next to it on a map; always without one.
    pub fn in_reach(&self, a: CreatureRef, b: CreatureRef) -> bool {
        match (self.position(a), self.position(b)) {
            (Some(p), Some(q)) => p.adjacent(q),
            _ => true,
        }
    }

    /// An enemy's move towards the player (the act of an enemy with no rule to follow and nobody
    /// in reach). An enemy that steps into a room belongs to it from then on.
    pub(super) fn move_towards_player(&mut self, me: CreatureRef) -> Effect {
        let CreatureRef::Enemy(index) = me else { return Effect::Waited(me) };
        let Some(from) = self.position(me) else { return Effect::Waited(me) };
        let to = self.map().and_then(|m| m.enemy_step(index, from));
        match (to, self.map_mut()) {
            (Some(to), Some(m)) => {
                m.place_enemy(index, to);
                if let Some(room) = m.room_at(to) {
                    m.homes.insert(index, room);
                }
                Effect::EnemyMoved { who: me, from, to }
            }
            _ => Effect::Stuck(me),
        }
    }

    /// The free tiles nearest to the tile of `spawner` (the player's when it has none, or is the
    /// player), at most `count`; the tiles of creatures that died count as free, so a creature
    /// that splits on `creature_died` splits where it stood. `None` without a map.
    pub(super) fn spawn_tiles(&self, spawner: CreatureRef, count: usize) -> Option<Vec<Pos>> {
        let from = self.position(spawner);
        let enemies = &self.enemies;
        let m = &self.dungeon.as_ref()?.map;
        let dead = |i: usize| !enemies.binary_search_by_key(&i, |e| e.index).is_ok_and(|at| enemies[at].body.health > 0);
        Some(m.free_tiles_near(from.unwrap_or(m.player), count, dead))
    }

    /// Puts new enemies on `tiles` ([`Game::spawn_tiles`]). They belong to the spawner's room: an
    /// enemy's home, else the room the player stands in.
    pub(super) fn place_on_map(&mut self, refs: &[CreatureRef], spawner: CreatureRef, tiles: Vec<Pos>) {
        let home = self.home_of(spawner);
        let Some(d) = self.dungeon.as_mut() else { return };
        let room = home.or(d.room);
        let m = &mut d.map;
        for (r, p) in refs.iter().zip(tiles) {
            if let CreatureRef::Enemy(i) = r {
                m.place_enemy(*i, p);
                if let Some(room) = room {
                    m.homes.insert(*i, room);
                }
            }
        }
    }

    /// Drops the map positions of enemies that are no longer in the game.
    pub(super) fn forget_removed_enemies(&mut self) {
        let Some(d) = self.dungeon.as_mut() else { return };
        let enemies = &self.enemies;
        let living = |i: &usize| enemies.binary_search_by_key(i, |e| e.index).is_ok_and(|at| enemies[at].body.health > 0);
        d.map.retain_enemies(|i, _| living(&i));
        d.map.homes.retain(|i, _| living(i));
    }

    /// The room an enemy on the map belongs to.
    pub(super) fn home_of(&self, r: CreatureRef) -> Option<usize> {
        let CreatureRef::Enemy(i) = r else { return None };
        self.map()?.homes.get(&i).copied()
    }

    /// Loot of a creature that died: on its tile when it stood on the map, else on the floor.
    pub(super) fn drop_loot(&mut self, victim: CreatureRef, drops: Vec<ItemInstance>) {
        match (self.position(victim), victim) {
            (Some(pos), CreatureRef::Enemy(_)) => {
                let m = self.map_mut().expect("a position means a map");
                m.loot.extend(drops.into_iter().map(|item| Dropped { pos, item }));
            }
            _ => self.floor_loot.extend(drops),
        }
    }

    /// Whether a creature has an item equipped in `slot_name`.
    pub(super) fn slot_taken(&self, w: &World, r: CreatureRef, slot_name: &str) -> bool {
        self.creature(r).is_some_and(|c| {
            c.inventory.iter().filter(|i| i.equipped).any(|i| w.entry(Registry::Items, &i.item).and_then(|e| e.str(field::SLOT)) == Some(slot_name))
        })
    }

    // ---------------------------------------------------------------------------------------
    // Floors and rooms
    // ---------------------------------------------------------------------------------------

    /// The start of a played run: the first floor (or the floor `at`), `floor_entered`, then its
    /// first room.
    pub(super) fn start_dungeon(&mut self, w: &World, at: Option<&str>) -> Effect {
        let floors = floor_order(w);
        if floors.is_empty() {
            return Effect::NoFloors;
        }
        let first = match at {
            None => 0,
            Some(f) => match floors.iter().position(|x| x == f) {
                Some(i) => i,
                None => return Effect::NoEffect(Reason::NotA { id: f.to_string(), noun: "a floor" }),
            },
        };
        self.dungeon = Some(Dungeon { floors, floor: first, room: None, map: bare_floor() });
        self.enter_floor(w, first)
    }

    /// Enters floor `index` of the dungeon: `floor_entered`, its prefabs shuffled, its first room
    /// put in front, laid out, the creatures of every room drawn, then the player in the first
    /// room.
    fn enter_floor(&mut self, w: &World, index: usize) -> Effect {
        let Some(id) = self.dungeon.as_ref().and_then(|d| d.floors.get(index)).cloned() else { return Effect::NoSuchFloor };
        let entry = w.entry(Registry::Floors, &id);
        let ids = |name: &str| -> Vec<String> { entry.map(|e| e.ref_list(name).iter().map(|p| p.value.clone()).collect()).unwrap_or_default() };
        let mut prefabs = ids(field::PREFABS);
        let first_rooms = ids(field::FIRST_ROOMS);
        floor::shuffle(&mut prefabs, &mut self.rng);
        let depth = entry.and_then(|e| e.int(field::DEPTH));
        self.floor = Some(id.clone());
        self.push(EventKind::FloorEntered, CreatureRef::Player, None, Payload::FloorEntered { floor: id.clone(), depth });
        let map = self.build_floor(w, &id, &prefabs, &first_rooms, Arrival::Safe);
        let d = self.dungeon.as_mut().expect("a played run");
        d.floor = index;
        d.room = None;
        d.map = map;
        let room = self.arrive();
        self.note(|| Effect::EnteredFloor { floor: id, room: room.map(Box::new) })
    }

    /// Lays out a floor of these prefabs (in this order, but the first of them that `first_rooms`
    /// names in front, when it names any) and puts the creatures, piles and NPCs of every room on
    /// it. A room that cannot be laid out (no door on its border, too large) is left out with a
    /// warning (the checker reports it as `floor-without-exit`), and the first room is found again
    /// among the rest; a floor left with no room is a single tile with the stairs beside it. On a
    /// safe arrival the first room gets no residents: its `e` glyphs stay floor and draw nothing.
    fn build_floor(&mut self, w: &World, floor_id: &str, prefabs: &[String], first_rooms: &[String], arrival: Arrival) -> Map {
        let mut rooms: Vec<(String, &Grid)> = Vec::new();
        for p in prefabs {
            match w.entry(Registry::Prefabs, p).and_then(|e| e.grid()) {
                Some(g) => rooms.push((p.clone(), g)),
                None => self.warnings.push(format!("step {}: the prefab {p} of floor {floor_id} has no grid; it is left out", self.step)),
            }
        }
        let put_first = |rooms: &mut Vec<(String, &Grid)>| floor::put_first(rooms, |(p, _)| first_rooms.contains(p));
        put_first(&mut rooms);
        let layout = loop {
            if rooms.is_empty() {
                break None;
            }
            let grids: Vec<&Grid> = rooms.iter().map(|(_, g)| *g).collect();
            match floor::layout(&grids, &mut self.rng) {
                Ok(m) => break Some(m),
                Err(e) => {
                    let out = match e {
                        LayoutError::NoBorderDoor { room } | LayoutError::TooLarge { room: Some(room), .. } | LayoutError::NoRoute { room, .. } => room,
                        LayoutError::TooLarge { room: None, .. } | LayoutError::NoRooms => rooms.len() - 1,
                    };
                    let (p, _) = rooms.remove(out);
                    put_first(&mut rooms);
                    self.warnings.push(format!("step {}: floor {floor_id} cannot be laid out ({e}); the room {p} is left out", self.step));
                }
            }
        };
        let Some(layout) = layout else { return bare_floor() };
        let names: Vec<Option<String>> = rooms.iter().map(|(p, _)| Some(p.clone())).collect();
        let mut map = map_of(&layout, &names);

        let floor = w.entry(Registry::Floors, floor_id);
        let fauna: Vec<String> = floor.map(|f| f.ref_list(field::CREATURES).iter().map(|c| c.value.clone()).collect()).unwrap_or_default();
        let floor_table = floor.and_then(|f| f.reference(field::LOOT)).map(|r| r.value.clone());
        for (at, (placed, (prefab_id, _))) in layout.rooms.iter().zip(&rooms).enumerate() {
            let prefab = w.entry(Registry::Prefabs, prefab_id);
            let table = prefab.and_then(|p| p.reference(field::LOOT)).map(|r| r.value.clone()).or_else(|| floor_table.clone());
            let npcs: Vec<String> = prefab.map(|p| p.ref_list(field::NPCS).iter().map(|n| n.value.clone()).collect()).unwrap_or_default();
            if fauna.is_empty() && !placed.enemies.is_empty() {
                self.warnings.push(format!(
                    "step {}: room {prefab_id} has {} `e` glyph(s) but the floor {floor_id} has no creatures; none appear",
                    self.step,
                    placed.enemies.len()
                ));
            }
            let peopled = at > 0 || arrival == Arrival::Peopled;
            for (k, pos) in placed.enemies.iter().enumerate().filter(|_| !fauna.is_empty() && peopled) {
                // At most so many enemies live at once: the floor's other `e` glyphs stay floor.
                if self.enemies.len() >= MAX_LIVING_ENEMIES {
                    self.warnings.push(format!(
                        "step {}: room {prefab_id}: {} of its `e` glyphs stay empty, since at most {MAX_LIVING_ENEMIES} enemies live at once",
                        self.step,
                        placed.enemies.len() - k
                    ));
                    break;
                }
                let c = fauna[self.rng.below(fauna.len() as u64) as usize].clone();
                for r in self.add_enemies(w, &c, 1) {
                    let CreatureRef::Enemy(i) = r else { continue };
                    if let Some(at) = self.enemy_slot(i) {
                        self.enemies[at].resident = true;
                    }
                    map.place_enemy(i, *pos);
                    map.homes.insert(i, at);
                }
            }
            map.piles.extend(placed.piles.iter().map(|pos| Pile { pos: *pos, table: table.clone() }));
            map.npcs.extend(placed.npcs.iter().zip(&npcs).map(|(pos, npc)| NpcSpot { npc: npc.clone(), pos: *pos }));
        }
        map
    }

    /// The player has moved (or arrived): when it stands in a room it was not in before, that
    /// room is entered — `room_entered` the first time, and the residents of the room join the
    /// combat. Looks around either way. Returns the room entered, for the trace.
    fn arrive(&mut self) -> Option<Effect> {
        let d = self.dungeon.as_mut()?;
        d.map.look();
        let now = d.map.room_at(d.map.player);
        if now == d.room {
            return None;
        }
        d.room = now;
        let r = now?;
        let room = &mut d.map.rooms[r];
        let first = !room.entered;
        room.entered = true;
        let prefab = room.prefab.clone();
        let homes = d.map.homes.clone();
        let mut joined = Vec::new();
        for e in self.enemies.iter_mut().filter(|e| e.resident && e.body.health > 0 && homes.get(&e.index) == Some(&r)) {
            e.resident = false;
            e.energy = 0.0;
            joined.push((CreatureRef::Enemy(e.index), e.body.creature.clone().unwrap_or_default()));
        }
        if prefab.is_some() {
            self.room = prefab.clone();
        }
        if let (true, Some(id)) = (first, prefab.clone()) {
            self.push(EventKind::RoomEntered, CreatureRef::Player, None, Payload::RoomEntered { prefab: id });
        }
        Some(self.note(|| Effect::ReachedRoom { room: prefab.unwrap_or_else(|| "a room without prefab".into()), first, joined }))
    }

    /// Takes the stairs down: the floor and everyone on it stay behind (a running combat ends as
    /// fled), then the next floor, or victory from the deepest one.
    fn take_stairs(&mut self, w: &World) -> Effect {
        let fled = self.leave_floor();
        let d = self.dungeon.as_ref().expect("a played run");
        let next = if d.floor + 1 < d.floors.len() {
            self.enter_floor(w, d.floor + 1)
        } else {
            self.won = true;
            self.over = true;
            Effect::Won
        };
        left_behind(fled, next)
    }

    /// Leaves the floor: its enemies stay on it, out of the game from now on; a running combat
    /// ends as fled. Returns how many enemies that fought were left behind.
    fn leave_floor(&mut self) -> usize {
        let fighting = self.fighting_enemies();
        if !self.enemies.is_empty() {
            self.enemies.clear();
            self.forget_removed_enemies();
        }
        if self.combat {
            self.combat = false;
            self.push(EventKind::CombatEnded, CreatureRef::Player, None, Payload::CombatEnded { outcome: outcome::FLED });
        }
        fighting
    }

    /// `enter FLOOR` in a played run: the floor is left (as by the stairs) for that floor of the
    /// dungeon, laid out as on the way down; its stairs lead on to the floor after it. `None` for
    /// a floor that is not one of the dungeon's.
    pub(super) fn enter_floor_in_dungeon(&mut self, w: &World, id: &str) -> Option<Effect> {
        let index = self.dungeon.as_ref()?.floors.iter().position(|f| f == id)?;
        let fled = self.leave_floor();
        let entered = self.enter_floor(w, index);
        Some(left_behind(fled, entered))
    }

    /// `enter PREFAB` in a played run: the floor is left (as by the stairs) for a floor of that
    /// one room, laid out like any floor, on the same depth; its stairs lead on as the floor's did.
    pub(super) fn enter_prefab_in_dungeon(&mut self, w: &World, id: &str) -> Effect {
        let fled = self.leave_floor();
        let floor_id = self.floor.clone().unwrap_or_default();
        let map = self.build_floor(w, &floor_id, &[id.to_string()], &[], Arrival::Peopled);
        let d = self.dungeon.as_mut().expect("a played run");
        d.room = None;
        d.map = map;
        let room = self.arrive().unwrap_or(Effect::NoEffect(Reason::NoMap));
        left_behind(fled, room)
    }

    // ---------------------------------------------------------------------------------------
    // The player on the map
    // ---------------------------------------------------------------------------------------

    /// What a move of the player in direction `dir` would do, without doing it: `None` when it
    /// would not take a turn (a wall, or no map).
    pub fn move_target(&self, dir: Dir) -> Option<Pos> {
        let m = self.map()?;
        let to = m.player.step(dir);
        (!m.is_wall(to)).then_some(to)
    }

    /// The player moves one tile: into an enemy it attacks, into an NPC it talks, onto the stairs
    /// it leaves the floor, into a room it enters it, onto piles and dropped loot it picks them up.
    pub(super) fn player_move(&mut self, w: &World, dir: Dir) -> Outcome {
        let Some(m) = self.map() else { return Outcome::act(Effect::NoEffect(Reason::NoMap)) };
        let to = m.player.step(dir);
        if let Some(i) = m.enemy_at(to) {
            return Outcome::act(self.attack(w, CreatureRef::Player, Some(CreatureRef::Enemy(i))));
        }
        if let Some(npc) = m.npc_at(to).map(str::to_string) {
            return self.talk(w, CreatureRef::Player, &npc);
        }
        if m.is_wall(to) {
            return Outcome::act(Effect::Bumped(to));
        }
        let stairs = m.is_stairs(to);
        self.map_mut().expect("checked").player = to;
        if stairs {
            let then = self.take_stairs(w);
            return Outcome::act(self.note(|| Effect::Stairs { at: to, then: Box::new(then) }));
        }
        let entered = self.arrive().map(Box::new);
        let found = self.pick_up_here(w);
        Outcome::act(self.note(|| Effect::PlayerMoved { to, entered, found }))
    }

    /// The player drops one of inventory entry `index` where it stands: onto its tile on a map,
    /// else onto the floor. Dropping an equipped item takes it off.
    pub(super) fn drop_item(&mut self, index: usize) -> Effect {
        let Some(inst) = self.player.inventory.get(index).cloned() else {
            return Effect::NoEffect(Reason::NoInventoryEntry(index));
        };
        let one = ItemInstance { count: 1, equipped: false, ..inst.clone() };
        if inst.count > 1 {
            self.player.inventory[index].count -= 1;
        } else {
            self.player.inventory.remove(index);
        }
        if inst.equipped {
            self.bearers_changed(CreatureRef::Player);
        }
        let item = one.item.clone();
        match self.map_mut() {
            Some(m) => {
                let pos = m.player;
                m.loot.push(Dropped { pos, item: one });
                Effect::Dropped { item, at: Some(pos) }
            }
            None => {
                self.floor_loot.push(one);
                Effect::Dropped { item, at: None }
            }
        }
    }

    /// Rolls the piles and takes the loot on the player's tile: one `item_picked_up` per instance.
    pub(super) fn pick_up_here(&mut self, w: &World) -> Vec<Effect> {
        let Some(m) = self.map_mut() else { return Vec::new() };
        let here = m.player;
        let piles: Vec<Pile> = m.piles.iter().filter(|p| p.pos == here).cloned().collect();
        m.piles.retain(|p| p.pos != here);
        let mut items: Vec<ItemInstance> = m.loot.iter().filter(|l| l.pos == here).map(|l| l.item.clone()).collect();
        m.loot.retain(|l| l.pos != here);
        let mut out = Vec::new();
        for pile in piles {
            let drops = match &pile.table {
                Some(t) => self.roll(w, t),
                None => Vec::new(),
            };
            if self.tracing {
                out.push(Effect::Pile(drops.clone()));
            }
            items.extend(drops);
        }
        for i in items {
            out.push(self.give(w, CreatureRef::Player, &i.item, i.count, i.affixes));
        }
        out
    }
}

/// Whether the room the player arrives in gets its residents: not when a floor is entered (a safe
/// arrival; an ambush puts its monsters one room further), but when `enter PREFAB` lays out a
/// floor of that one room to test it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arrival {
    Safe,
    Peopled,
}

/// What leaving a floor did: the flight from the enemies left behind, if any, then what came next.
fn left_behind(enemies: usize, then: Effect) -> Effect {
    if enemies == 0 {
        return then;
    }
    Effect::LeftBehind { enemies, then: Box::new(then) }
}
