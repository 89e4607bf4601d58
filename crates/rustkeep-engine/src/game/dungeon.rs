//! The dungeon of a played run (docs/engine.md, "The dungeon" and "The map").
//!
//! Floors are visited in depth order (ties by ID). A floor's rooms are its prefabs, each once, in
//! an order shuffled with the game's generator when the floor is entered (Fisher–Yates over the
//! listed order, from index n − 1 down to 1, with the engine's unbiased bounded integers).
//! Entering a room instantiates its grid in reading order: an `e` becomes one of the floor's
//! creatures (drawn uniformly), an `l` a pile rolled when it is picked up (the prefab's `loot`,
//! else the floor's), the i-th `n` the prefab's i-th NPC, and the player stands on `@` (else the
//! first floor tile); then `room_entered`. Every door on the room's border leads on: to the next
//! room of the floor, from the last room to the next floor, and out of the deepest floor to
//! victory; a door inside the room is an ordinary door, walked over like floor. Leaving a room
//! while its enemies live is a flight (`combat_ended` with `fled`); the room is never entered
//! again, so the enemies left in it are removed.

use rustkeep_data::grid::{Dir, Pos};
use rustkeep_data::model::Grid;
use rustkeep_data::vocab::{field, glyph, outcome, EventKind, Registry};
use serde::{Deserialize, Serialize};

use super::{CreatureRef, Game, ItemInstance, World};
use crate::effect::{Effect, Outcome, Reason};
use crate::map::{Dropped, NpcSpot, Pile, Room};
use crate::payload::Payload;

/// Where a played run is: the floors, the rooms of this floor, and the map of this room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Dungeon {
    /// Every floor's ID in the order they are visited.
    pub floors: Vec<String>,
    /// The floor the player is on (an index into `floors`).
    pub floor: usize,
    /// The prefabs of this floor in the order they are visited (shuffled on entering it).
    pub rooms: Vec<String>,
    /// The room the player is in (an index into `rooms`; 0 on a floor without prefabs).
    pub room: usize,
    pub map: Room,
}

/// The floors of the loaded data in the order a run visits them: by `depth`, ties by ID; floors
/// without a depth come last.
pub fn floor_order(w: &World) -> Vec<String> {
    let mut floors: Vec<(i64, String)> =
        w.ids(Registry::Floors).into_iter().map(|id| (w.entry(Registry::Floors, &id).and_then(|e| e.int(field::DEPTH)).unwrap_or(i64::MAX), id)).collect();
    floors.sort();
    floors.into_iter().map(|(_, id)| id).collect()
}

impl Game {
    /// The map of the room the player is in, if the run has one.
    pub fn map(&self) -> Option<&Room> {
        self.dungeon.as_ref().map(|d| &d.map)
    }

    fn map_mut(&mut self) -> Option<&mut Room> {
        self.dungeon.as_mut().map(|d| &mut d.map)
    }

    /// Where a creature stands on the map.
    pub fn position(&self, r: CreatureRef) -> Option<Pos> {
        let m = self.map()?;
        match r {
            CreatureRef::Player => Some(m.player),
            CreatureRef::Enemy(i) => m.enemies.get(&i).copied(),
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
    /// in reach).
    pub(super) fn move_towards_player(&mut self, me: CreatureRef) -> Effect {
        let CreatureRef::Enemy(index) = me else { return Effect::Waited(me) };
        let Some(from) = self.position(me) else { return Effect::Waited(me) };
        let to = self.map().and_then(|m| m.enemy_step(index, from));
        match (to, self.map_mut()) {
            (Some(to), Some(m)) => {
                m.enemies.insert(index, to);
                Effect::EnemyMoved { who: me, from, to }
            }
            _ => Effect::Stuck(me),
        }
    }

    /// Puts new enemies on the free tiles nearest to the player (a `spawn` into a room).
    pub(super) fn place_on_map(&mut self, refs: &[CreatureRef]) {
        let Some(m) = self.map_mut() else { return };
        let mut free = m.free_tiles_near_player().into_iter();
        for r in refs {
            if let (CreatureRef::Enemy(i), Some(p)) = (r, free.next()) {
                m.enemies.insert(*i, p);
            }
        }
    }

    /// Drops the map positions of enemies that are no longer in the game.
    pub(super) fn forget_removed_enemies(&mut self) {
        let Some(d) = self.dungeon.as_mut() else { return };
        let enemies = &self.enemies;
        d.map.enemies.retain(|i, _| enemies.iter().any(|e| e.index == *i && e.body.health > 0));
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
        let empty =
            Room { prefab: None, rows: Vec::new(), player: Pos::default(), enemies: Default::default(), npcs: Vec::new(), piles: Vec::new(), loot: Vec::new() };
        self.dungeon = Some(Dungeon { floors, floor: first, rooms: Vec::new(), room: 0, map: empty });
        self.enter_floor(w, first)
    }

    /// Enters floor `index` of the dungeon: `floor_entered`, the rooms shuffled, the first room.
    fn enter_floor(&mut self, w: &World, index: usize) -> Effect {
        let Some(id) = self.dungeon.as_ref().and_then(|d| d.floors.get(index)).cloned() else { return Effect::NoSuchFloor };
        let entry = w.entry(Registry::Floors, &id);
        let mut rooms: Vec<String> = entry.map(|e| e.ref_list(field::PREFABS).iter().map(|p| p.value.clone()).collect()).unwrap_or_default();
        for i in (1..rooms.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            rooms.swap(i, j);
        }
        let depth = entry.and_then(|e| e.int(field::DEPTH));
        self.floor = Some(id.clone());
        let d = self.dungeon.as_mut().expect("a played run");
        d.floor = index;
        d.rooms = rooms;
        self.push(EventKind::FloorEntered, CreatureRef::Player, None, Payload::FloorEntered { floor: id.clone(), depth });
        let room = self.enter_room(w, 0);
        self.note(|| Effect::EnteredFloor { floor: id, room: Some(Box::new(room)) })
    }

    /// Enters room `index` of this floor: its grid instantiated, then `room_entered`.
    fn enter_room(&mut self, w: &World, index: usize) -> Effect {
        let d = self.dungeon.as_ref().expect("a played run");
        let floor_id = d.floors[d.floor].clone();
        let prefab_id = d.rooms.get(index).cloned();
        let floor = w.entry(Registry::Floors, &floor_id);
        let prefab = prefab_id.as_deref().and_then(|p| w.entry(Registry::Prefabs, p));
        // A floor without prefabs is a single room with nothing in it but the player.
        let single = Grid { rows: vec![glyph::ENTRY.to_string()], row_starts: Vec::new() };
        let grid = prefab.and_then(|p| p.grid()).unwrap_or(&single);
        let table = prefab.and_then(|p| p.reference(field::LOOT)).or_else(|| floor.and_then(|f| f.reference(field::LOOT))).map(|r| r.value.clone());
        let fauna: Vec<String> = floor.map(|f| f.ref_list(field::CREATURES).iter().map(|c| c.value.clone()).collect()).unwrap_or_default();
        let npcs: Vec<String> = prefab.map(|p| p.ref_list(field::NPCS).iter().map(|n| n.value.clone()).collect()).unwrap_or_default();

        let mut room = Room {
            prefab: prefab_id.clone(),
            rows: Vec::with_capacity(grid.rows.len()),
            player: grid.entry().unwrap_or_default(),
            enemies: Default::default(),
            npcs: Vec::new(),
            piles: Vec::new(),
            loot: Vec::new(),
        };
        let mut appeared = Vec::new();
        let mut empty_e = 0;
        for (y, row) in grid.rows.iter().enumerate() {
            let mut tiles = String::with_capacity(row.len());
            for (x, g) in row.chars().enumerate() {
                let pos = Pos::new(x as i32, y as i32);
                match g {
                    glyph::ENEMY if !fauna.is_empty() => {
                        let c = fauna[self.rng.below(fauna.len() as u64) as usize].clone();
                        if let Some(CreatureRef::Enemy(i)) = self.add_enemies(w, &c, 1).first() {
                            room.enemies.insert(*i, pos);
                            appeared.push((CreatureRef::Enemy(*i), c));
                        }
                    }
                    glyph::ENEMY => empty_e += 1,
                    glyph::LOOT_PILE => room.piles.push(Pile { pos, table: table.clone() }),
                    glyph::NPC => {
                        if let Some(npc) = npcs.get(room.npcs.len()) {
                            room.npcs.push(NpcSpot { npc: npc.clone(), pos });
                        }
                    }
                    _ => {}
                }
                tiles.push(match g {
                    glyph::WALL | glyph::DOOR => g,
                    _ => glyph::FLOOR,
                });
            }
            room.rows.push(tiles);
        }
        let shown = prefab_id.clone().unwrap_or_else(|| "a room without prefab".into());
        if empty_e > 0 {
            self.warnings.push(format!("step {}: room {shown} has {empty_e} `e` glyph(s) but the floor {floor_id} has no creatures; none appear", self.step));
        }
        let d = self.dungeon.as_mut().expect("a played run");
        d.room = index;
        d.map = room;
        self.room = prefab_id.clone();
        if let Some(id) = prefab_id {
            self.push(EventKind::RoomEntered, CreatureRef::Player, None, Payload::RoomEntered { prefab: id });
        }
        self.note(|| Effect::EnteredRoom { room: shown, piles: None, appeared })
    }

    /// Leaves the room through a door: a flight if its enemies live, then the next room, the
    /// next floor, or victory out of the deepest floor.
    fn leave_room(&mut self, w: &World) -> Effect {
        let fled = self.flee_room();
        let d = self.dungeon.as_ref().expect("a played run");
        let (room, rooms, floor, floors) = (d.room, d.rooms.len(), d.floor, d.floors.len());
        let next = if room + 1 < rooms {
            self.enter_room(w, room + 1)
        } else if floor + 1 < floors {
            self.enter_floor(w, floor + 1)
        } else {
            self.won = true;
            self.over = true;
            Effect::Won
        };
        left_behind(fled, next)
    }

    /// Leaving a room while its enemies live is a flight: they are removed, and a running combat
    /// ends as fled. Returns how many enemies were left behind.
    fn flee_room(&mut self) -> usize {
        let living = self.living_enemies();
        if living > 0 {
            self.enemies.clear();
            self.forget_removed_enemies();
        }
        if self.combat {
            self.combat = false;
            self.push(EventKind::CombatEnded, CreatureRef::Player, None, Payload::CombatEnded { outcome: outcome::FLED });
        }
        living
    }

    /// `enter PREFAB` in a played run: the prefab takes the place of the room the player is in, as
    /// if a door had led into it (enemies left behind are a flight), its grid instantiated like
    /// any room's. The floor's later rooms stay as they were, so its doors lead on as before.
    pub(super) fn enter_prefab_in_dungeon(&mut self, w: &World, id: &str) -> Effect {
        let fled = self.flee_room();
        let d = self.dungeon.as_mut().expect("a played run");
        let index = d.room.min(d.rooms.len());
        if index < d.rooms.len() {
            d.rooms[index] = id.to_string();
        } else {
            d.rooms.push(id.to_string());
        }
        let room = self.enter_room(w, index);
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

    /// The player moves one tile: into an enemy it attacks, into an NPC it talks, onto a door it
    /// leaves the room, onto piles and dropped loot it picks them up.
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
        // Only a door on the border leads on; a door inside the room is walked through.
        let door = m.is_exit(to);
        self.map_mut().expect("checked").player = to;
        if door {
            let then = self.leave_room(w);
            return Outcome::act(self.note(|| Effect::Door { at: to, then: Box::new(then) }));
        }
        let found = self.pick_up_here(w);
        Outcome::act(self.note(|| Effect::PlayerMoved { to, found }))
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

/// What leaving a room did: the flight from the enemies left behind, if any, then what came next.
fn left_behind(enemies: usize, then: Effect) -> Effect {
    if enemies == 0 {
        return then;
    }
    Effect::LeftBehind { enemies, then: Box::new(then) }
}
