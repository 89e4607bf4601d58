//! The map of the room the player is in (docs/engine.md, "The map"): the tiles a prefab's grid
//! became, where the player, every living enemy and every NPC stands, the loot piles not yet
//! rolled and the loot lying on tiles; and the one movement rule of enemies.
//!
//! Positions are `(x, y)` in the trimmed grid. Walls block; so do living creatures and NPCs;
//! every other tile is floor once the room is instantiated (glyphs become `.`, doors stay `+`).
//! A door on the border of the room is its exit; a door inside is walked over like floor.
//! An enemy that is not next to the player moves one tile along a shortest 8-connected path to
//! any tile next to the player, over floor not occupied by another creature or NPC; among equal
//! first steps it takes the first in the order N, NE, E, SE, S, SW, W, NW; with no path it waits.

use std::collections::{BTreeMap, VecDeque};

use rustkeep_data::grid::{Dir, Pos};
use rustkeep_data::vocab::glyph;
use serde::{Deserialize, Serialize};

use crate::item::ItemInstance;

/// A loot pile (`l`): rolled from `table` when the player steps onto it, never re-rolled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Pile {
    pub pos: Pos,
    /// The prefab's loot table, else the floor's; `None`: neither has one (an empty pile).
    pub table: Option<String>,
}

/// An NPC standing on a tile (an `n` of the grid).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct NpcSpot {
    pub npc: String,
    pub pos: Pos,
}

/// Loot lying on a tile: dropped by a creature where it died.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Dropped {
    pub pos: Pos,
    pub item: ItemInstance,
}

/// The room the player is in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Room {
    /// The prefab it was built from; `None` for a floor without prefabs (a single tile).
    pub prefab: Option<String>,
    /// The tiles, one string per row: `#` wall, `.` floor, `+` door.
    pub rows: Vec<String>,
    pub player: Pos,
    /// Where each living enemy stands, by the N of `enemy:N`.
    pub enemies: BTreeMap<usize, Pos>,
    pub npcs: Vec<NpcSpot>,
    pub piles: Vec<Pile>,
    pub loot: Vec<Dropped>,
}

impl Room {
    pub fn width(&self) -> i32 {
        self.rows.first().map_or(0, |r| r.len() as i32)
    }

    pub fn height(&self) -> i32 {
        self.rows.len() as i32
    }

    /// The tile at `p` (`None` outside the room).
    pub fn tile(&self, p: Pos) -> Option<char> {
        if p.x < 0 || p.y < 0 {
            return None;
        }
        self.rows.get(p.y as usize)?.as_bytes().get(p.x as usize).map(|b| *b as char)
    }

    pub fn is_wall(&self, p: Pos) -> bool {
        self.tile(p).is_none_or(|t| t == glyph::WALL)
    }

    pub fn is_door(&self, p: Pos) -> bool {
        self.tile(p) == Some(glyph::DOOR)
    }

    /// Whether `p` is a door on the room's border, which leads out of the room: one of its four
    /// straight neighbours lies outside the grid. A door inside the room is an ordinary door, a
    /// tile to walk over.
    pub fn is_exit(&self, p: Pos) -> bool {
        self.is_door(p) && [Dir::N, Dir::E, Dir::S, Dir::W].into_iter().any(|d| self.tile(p.step(d)).is_none())
    }

    pub fn enemy_at(&self, p: Pos) -> Option<usize> {
        self.enemies.iter().find(|(_, q)| **q == p).map(|(i, _)| *i)
    }

    pub fn npc_at(&self, p: Pos) -> Option<&str> {
        self.npcs.iter().find(|n| n.pos == p).map(|n| n.npc.as_str())
    }

    /// Whether a creature or NPC stands on `p` (the enemy `except` not counted).
    pub fn occupied(&self, p: Pos, except: Option<usize>) -> bool {
        self.player == p || self.npcs.iter().any(|n| n.pos == p) || self.enemies.iter().any(|(i, q)| *q == p && Some(*i) != except)
    }

    /// Whether `p` can be walked onto by the enemy `mover`: not a wall, nobody else on it.
    fn passable(&self, p: Pos, mover: Option<usize>) -> bool {
        !self.is_wall(p) && !self.occupied(p, mover)
    }

    fn index(&self, p: Pos) -> usize {
        (p.y * self.width() + p.x) as usize
    }

    /// Which tiles the enemy `mover` may walk onto (indexed like [`Room::distances_to_player`]):
    /// not walls, nobody else standing there. Built once per search, so that the search itself
    /// asks nothing but this table.
    fn walkable(&self, mover: Option<usize>) -> Vec<bool> {
        let (w, h) = (self.width().max(0), self.height().max(0));
        let mut ok = Vec::with_capacity((w * h) as usize);
        for row in &self.rows {
            ok.extend(row.bytes().map(|b| b != glyph::WALL as u8));
        }
        ok.resize((w * h) as usize, false);
        let mut block = |p: Pos| {
            if p.x >= 0 && p.y >= 0 && p.x < w && p.y < h {
                ok[(p.y * w + p.x) as usize] = false;
            }
        };
        block(self.player);
        for n in &self.npcs {
            block(n.pos);
        }
        for (i, p) in &self.enemies {
            if Some(*i) != mover {
                block(*p);
            }
        }
        ok
    }

    /// Steps from every tile to the nearest free tile next to the player, over free tiles
    /// (`u32::MAX`: no path); computed for the enemy `mover`, which does not block itself.
    pub fn distances_to_player(&self, mover: Option<usize>) -> Vec<u32> {
        let (w, h) = (self.width(), self.height());
        let ok = self.walkable(mover);
        let free = |p: Pos| p.x >= 0 && p.y >= 0 && p.x < w && p.y < h && ok[(p.y * w + p.x) as usize];
        let mut dist = vec![u32::MAX; ok.len()];
        let mut queue = VecDeque::new();
        for d in Dir::ALL {
            let t = self.player.step(d);
            if free(t) && dist[self.index(t)] == u32::MAX {
                dist[self.index(t)] = 0;
                queue.push_back(t);
            }
        }
        while let Some(p) = queue.pop_front() {
            let next = dist[self.index(p)] + 1;
            for d in Dir::ALL {
                let q = p.step(d);
                if free(q) && dist[self.index(q)] == u32::MAX {
                    dist[self.index(q)] = next;
                    queue.push_back(q);
                }
            }
        }
        dist
    }

    /// Where the enemy `index` standing on `from` moves this turn: the first step of a shortest
    /// path to a tile next to the player, ties broken N, NE, E, SE, S, SW, W, NW; `None` when it
    /// is already next to the player or there is no path.
    pub fn enemy_step(&self, index: usize, from: Pos) -> Option<Pos> {
        if from.adjacent(self.player) {
            return None;
        }
        let dist = self.distances_to_player(Some(index));
        let mut best: Option<(u32, Pos)> = None;
        for d in Dir::ALL {
            let q = from.step(d);
            if !self.passable(q, Some(index)) {
                continue;
            }
            let dq = dist[self.index(q)];
            if dq != u32::MAX && best.is_none_or(|(b, _)| dq < b) {
                best = Some((dq, q));
            }
        }
        best.map(|(_, q)| q)
    }

    /// Free tiles in order of distance from the player (breadth first, directions in their
    /// order), for creatures that appear in the room by `spawn`.
    pub fn free_tiles_near_player(&self) -> Vec<Pos> {
        let mut seen = vec![false; (self.width().max(0) * self.height().max(0)) as usize];
        let mut out = Vec::new();
        let mut queue = VecDeque::from([self.player]);
        if !self.is_wall(self.player) {
            seen[self.index(self.player)] = true;
        }
        while let Some(p) = queue.pop_front() {
            for d in Dir::ALL {
                let q = p.step(d);
                if self.is_wall(q) || seen[self.index(q)] {
                    continue;
                }
                seen[self.index(q)] = true;
                queue.push_back(q);
                if !self.occupied(q, None) && !self.is_door(q) {
                    out.push(q);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A room from rows: `@` the player, digits enemies (their index), `n` an NPC.
    pub(crate) fn room(rows: &[&str]) -> Room {
        let mut r =
            Room { prefab: None, rows: Vec::new(), player: Pos::default(), enemies: BTreeMap::new(), npcs: Vec::new(), piles: Vec::new(), loot: Vec::new() };
        for (y, row) in rows.iter().enumerate() {
            let mut tiles = String::new();
            for (x, c) in row.chars().enumerate() {
                let p = Pos::new(x as i32, y as i32);
                match c {
                    '@' => r.player = p,
                    'n' => r.npcs.push(NpcSpot { npc: "t:n".into(), pos: p }),
                    d if d.is_ascii_digit() => {
                        r.enemies.insert(d.to_digit(10).unwrap() as usize, p);
                    }
                    _ => {}
                }
                tiles.push(if c == '#' || c == '+' { c } else { '.' });
            }
            r.rows.push(tiles);
        }
        r
    }

    #[test]
    fn an_enemy_takes_the_first_of_equal_steps_in_direction_order() {
        // Straight east or diagonally: both shorten the path equally; NE comes before E.
        let r = room(&["#######", "#.....#", "#0...@#", "#.....#", "#######"]);
        assert_eq!(r.enemy_step(0, Pos::new(1, 2)), Some(Pos::new(2, 1)));
        let r = room(&["#####", "#0..#", "#...#", "#..@#", "#####"]);
        assert_eq!(r.enemy_step(0, Pos::new(1, 1)), Some(Pos::new(2, 2)), "the diagonal is the only shortest first step");
    }

    #[test]
    fn an_enemy_next_to_the_player_or_without_a_path_does_not_move() {
        let r = room(&["#####", "#0@.#", "#####"]);
        assert_eq!(r.enemy_step(0, Pos::new(1, 1)), None);
        let r = room(&["#######", "#0#.@.#", "#######"]);
        assert_eq!(r.enemy_step(0, Pos::new(1, 1)), None);
    }

    #[test]
    fn enemies_and_npcs_block_and_the_enemy_walks_around() {
        // The corridor is blocked by another enemy; the only way round is through the bottom row.
        let r = room(&["########", "#0.1..@#", "#.####.#", "#......#", "########"]);
        assert_eq!(r.enemy_step(0, Pos::new(1, 1)), Some(Pos::new(1, 2)));
        let r = room(&["######", "#0n.@#", "######"]);
        assert_eq!(r.enemy_step(0, Pos::new(1, 1)), None, "an NPC blocks the only way");
    }

    #[test]
    fn only_doors_on_the_border_are_exits() {
        let r = room(&["##+##", "#.+.#", "+...#", "#####"]);
        assert!(r.is_exit(Pos::new(2, 0)), "a door in the top row");
        assert!(r.is_exit(Pos::new(0, 2)), "a door in the left column");
        assert!(r.is_door(Pos::new(2, 1)) && !r.is_exit(Pos::new(2, 1)), "a door inside is an ordinary door");
        assert!(!r.is_exit(Pos::new(1, 1)), "floor is no exit");
        // A short row leaves its last tile on the border.
        let r = room(&["#####", "#..+", "#####"]);
        assert!(r.is_exit(Pos::new(3, 1)));
    }

    #[test]
    fn spawns_go_to_the_nearest_free_tiles() {
        let r = room(&["#####", "#.@0#", "#...#", "#####"]);
        let free = r.free_tiles_near_player();
        // N and NE are walls, E is taken: SE is the first free neighbour, then S, SW, W.
        assert_eq!(&free[..4], &[Pos::new(3, 2), Pos::new(2, 2), Pos::new(1, 2), Pos::new(1, 1)]);
        assert!(!free.contains(&Pos::new(3, 1)) && !free.contains(&Pos::new(2, 1)));
    }
}
