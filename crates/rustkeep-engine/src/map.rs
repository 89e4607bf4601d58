//! The map of the floor the player is on (docs/engine.md, "Floor maps" and "The map"): the tiles
//! the layout made of the floor's rooms and corridors, the rooms on it, where the player, every
//! enemy and every NPC stands, the loot piles not yet rolled, the loot lying on tiles, the tiles
//! the player remembers; and the one movement rule of enemies.
//!
//! Positions are `(x, y)` on the floor. Rock and walls block; so do living creatures and NPCs;
//! floor, doors and the stairs are walked on. Rock, walls and doors block sight.
//! An enemy that is not next to the player moves one tile along a shortest 8-connected path to
//! any tile next to the player, over walkable tiles not occupied by another creature or NPC;
//! among equal first steps it takes the first in the order N, NE, E, SE, S, SW, W, NW; with no
//! path it waits.

use std::collections::{BTreeMap, VecDeque};

use rustkeep_data::grid::{Dir, Pos};
use rustkeep_data::vocab::glyph;
use serde::{Deserialize, Serialize};

use crate::floor::STAIRS;
use crate::fov::{self, Sight};
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

/// Rock: no room, no corridor. Drawn blank.
pub const ROCK: char = ' ';

/// A room of the floor: a prefab's grid where the layout put it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct MapRoom {
    /// The prefab it was built from; `None` for the room of a floor without prefabs.
    pub prefab: Option<String>,
    /// The floor position of the grid's first tile, and the grid's size.
    pub origin: Pos,
    pub width: i32,
    pub height: i32,
    /// Whether the player has stepped into it on this floor (`room_entered` is raised once).
    #[serde(default)]
    pub entered: bool,
}

impl MapRoom {
    /// Whether `p` lies within the room's grid.
    pub fn contains(&self, p: Pos) -> bool {
        p.x >= self.origin.x && p.y >= self.origin.y && p.x < self.origin.x + self.width && p.y < self.origin.y + self.height
    }
}

/// The floor the player is on, as one map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Map {
    /// The tiles, one string per row: ` ` rock, `#` wall, `.` floor, `+` door, `>` the stairs.
    pub rows: Vec<String>,
    /// The rooms, in the order the floor's shuffle gave.
    #[serde(default)]
    pub rooms: Vec<MapRoom>,
    pub player: Pos,
    /// Where each enemy on the floor stands, by the N of `enemy:N`: read through
    /// [`Map::enemies`], changed through [`Map::place_enemy`] and [`Map::retain_enemies`], which
    /// keep [`Map::standing`] true.
    enemies: BTreeMap<usize, Pos>,
    /// The room each enemy belongs to, by the N of `enemy:N`: the room it was drawn for, then the
    /// last room it stood in. A resident waits there until the player enters that room.
    #[serde(default)]
    pub homes: BTreeMap<usize, usize>,
    pub npcs: Vec<NpcSpot>,
    pub piles: Vec<Pile>,
    pub loot: Vec<Dropped>,
    /// The tiles the player has seen on this floor, row by row, as run lengths: unseen, seen,
    /// unseen, … (the first run may be 0).
    #[serde(default, with = "runs")]
    #[schemars(with = "Vec<u32>")]
    pub seen: Vec<bool>,
    /// Which enemy stands on each tile, derived from `enemies`.
    #[serde(skip)]
    standing: Standing,
}

/// Which enemy stands on each tile (`y × width + x`; [`NOBODY`] where none does): derived from
/// [`Map::enemies`] when first asked and kept up to date by the moves, so that "who stands here"
/// costs the same with a thousand enemies as with one. Two maps with the same enemies are equal
/// whether or not either has built it.
#[derive(Clone, Debug, Default)]
struct Standing(std::sync::OnceLock<Vec<usize>>);

impl PartialEq for Standing {
    fn eq(&self, _: &Standing) -> bool {
        true
    }
}

const NOBODY: usize = usize::MAX;

/// Remembered tiles as run lengths.
mod runs {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(seen: &[bool], s: S) -> Result<S::Ok, S::Error> {
        let mut out: Vec<u32> = Vec::new();
        let (mut state, mut n) = (false, 0u32);
        for &f in seen {
            if f != state {
                out.push(n);
                (state, n) = (f, 0);
            }
            n += 1;
        }
        if n > 0 {
            out.push(n);
        }
        s.collect_seq(out)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<bool>, D::Error> {
        let runs = Vec::<u32>::deserialize(d)?;
        let total: u64 = runs.iter().map(|r| u64::from(*r)).sum();
        if total > 1 << 24 {
            return Err(serde::de::Error::custom(format!("{total} remembered tiles, more than a map has")));
        }
        let mut seen = Vec::with_capacity(total as usize);
        for (i, r) in runs.iter().enumerate() {
            seen.extend(std::iter::repeat_n(i % 2 == 1, *r as usize));
        }
        Ok(seen)
    }
}

/// Not reached by a search yet.
const FAR: u32 = u32::MAX;
/// Occupied by a creature or NPC, or no tile to stand on: never entered by a search.
const TAKEN: u32 = u32::MAX - 1;
/// A free neighbour of the searching enemy, not reached yet.
const GOAL: u32 = u32::MAX - 2;

impl Map {
    /// A map of the given rows with nobody on it and no rooms.
    pub fn of_rows(rows: Vec<String>, player: Pos) -> Map {
        Map {
            rows,
            rooms: Vec::new(),
            player,
            enemies: BTreeMap::new(),
            homes: BTreeMap::new(),
            npcs: Vec::new(),
            piles: Vec::new(),
            loot: Vec::new(),
            seen: Vec::new(),
            standing: Standing::default(),
        }
    }

    /// Where each enemy on the floor stands, by the N of `enemy:N`.
    pub fn enemies(&self) -> &BTreeMap<usize, Pos> {
        &self.enemies
    }

    /// Puts the enemy `index` on `p` (a new enemy, or one that moves). No other living enemy
    /// stands on `p`: the engine places and moves enemies onto free tiles only, and a save with
    /// two on one tile is refused. A new enemy may stand where one died in the same step, until
    /// the dead are taken off the map at the end of the step.
    pub fn place_enemy(&mut self, index: usize, p: Pos) {
        let from = self.enemies.insert(index, p);
        let (from, to) = (from.and_then(|q| self.slot(q)), self.slot(p));
        if let Some(grid) = self.standing.0.get_mut() {
            if let Some(f) = from.filter(|f| grid[*f] == index) {
                grid[f] = NOBODY;
            }
            if let Some(t) = to {
                grid[t] = index;
            }
        }
    }

    /// Keeps the enemies `keep` says yes to and takes the others off the map.
    pub fn retain_enemies(&mut self, mut keep: impl FnMut(usize, Pos) -> bool) {
        self.enemies.retain(|i, p| keep(*i, *p));
        self.standing = Standing::default();
    }

    /// The enemy on each tile, built from `enemies` the first time it is asked for.
    fn standing(&self) -> &[usize] {
        self.standing.0.get_or_init(|| {
            let mut grid = vec![NOBODY; (self.width().max(0) as usize) * (self.height().max(0) as usize)];
            // Ref order, so that the highest ref wins a tile two stand on: within a step, that is
            // a creature spawned where one died, the dead one being older (otherwise only a
            // refused save could hold such a pair).
            for (i, p) in self.enemies.iter() {
                if let Some(at) = self.slot(*p) {
                    grid[at] = *i;
                }
            }
            grid
        })
    }

    /// The index of a tile inside the map in `y × width + x` order.
    fn slot(&self, p: Pos) -> Option<usize> {
        self.inside(p).then(|| self.index(p))
    }

    pub fn width(&self) -> i32 {
        self.rows.first().map_or(0, |r| r.len() as i32)
    }

    pub fn height(&self) -> i32 {
        self.rows.len() as i32
    }

    fn inside(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width() && p.y < self.height()
    }

    /// The tile at `p` (`None` outside the map).
    pub fn tile(&self, p: Pos) -> Option<char> {
        if p.x < 0 || p.y < 0 {
            return None;
        }
        self.rows.get(p.y as usize)?.as_bytes().get(p.x as usize).map(|b| *b as char)
    }

    /// Whether nothing can stand on `p`: rock, a wall, or outside the map.
    pub fn is_wall(&self, p: Pos) -> bool {
        !self.tile(p).is_some_and(walkable)
    }

    pub fn is_door(&self, p: Pos) -> bool {
        self.tile(p) == Some(glyph::DOOR)
    }

    pub fn is_stairs(&self, p: Pos) -> bool {
        self.tile(p) == Some(STAIRS)
    }

    /// Whether `p` blocks sight: rock, walls, doors, and everything outside the map.
    pub fn opaque(&self, p: Pos) -> bool {
        !matches!(self.tile(p), Some(t) if t == glyph::FLOOR || t == STAIRS)
    }

    /// The room (an index into `rooms`) that `p` belongs to, its walls and doors included;
    /// `None` in corridors and rock.
    pub fn room_at(&self, p: Pos) -> Option<usize> {
        if self.tile(p).is_none_or(|t| t == ROCK) {
            return None;
        }
        self.rooms.iter().position(|r| r.contains(p))
    }

    pub fn enemy_at(&self, p: Pos) -> Option<usize> {
        let at = self.slot(p)?;
        Some(self.standing()[at]).filter(|i| *i != NOBODY)
    }

    pub fn npc_at(&self, p: Pos) -> Option<&str> {
        self.npcs.iter().find(|n| n.pos == p).map(|n| n.npc.as_str())
    }

    /// Whether a creature or NPC stands on `p` (the enemy `except` not counted).
    pub fn occupied(&self, p: Pos, except: Option<usize>) -> bool {
        self.player == p || self.npcs.iter().any(|n| n.pos == p) || self.enemy_at(p).is_some_and(|i| Some(i) != except)
    }

    fn index(&self, p: Pos) -> usize {
        (p.y * self.width() + p.x) as usize
    }

    /// A search field for the enemy `mover`: the map inside a ring of blocked tiles, [`FAR`] on
    /// every walkable tile, [`TAKEN`] on everything else and under the player, the NPCs and every
    /// enemy but `mover`. The ring lets a search step to all eight neighbours without a bounds
    /// check.
    fn field(&self, mover: Option<usize>) -> Field {
        let (w, h) = (self.width().max(0) as usize, self.height().max(0) as usize);
        let pw = w + 2;
        let mut dist = vec![TAKEN; pw * (h + 2)];
        for (y, row) in self.rows.iter().enumerate().take(h) {
            let base = (y + 1) * pw + 1;
            for (cell, b) in dist[base..base + w].iter_mut().zip(row.bytes()) {
                if walkable(b as char) {
                    *cell = FAR;
                }
            }
        }
        let mut f = Field { width: w as i32, height: h as i32, pw, dist };
        let others = self.enemies.iter().filter(|(i, _)| Some(**i) != mover).map(|(_, p)| *p);
        for p in std::iter::once(self.player).chain(self.npcs.iter().map(|n| n.pos)).chain(others) {
            if let Some(i) = f.at(p) {
                f.dist[i] = TAKEN;
            }
        }
        f
    }

    /// Steps from every tile to the nearest free tile next to the player, over free tiles
    /// (`u32::MAX`: no path; occupied tiles have none), indexed `y × width + x`; computed for the
    /// enemy `mover`, which does not block itself. The whole field: [`Map::enemy_step`] searches
    /// only as far as it needs.
    pub fn distances_to_player(&self, mover: Option<usize>) -> Vec<u32> {
        let mut f = self.field(mover);
        self.search(&mut f, None);
        let mut out = Vec::with_capacity((f.width.max(0) * f.height.max(0)) as usize);
        for y in 0..f.height {
            for x in 0..f.width {
                let d = f.dist[f.at(Pos::new(x, y)).expect("inside")];
                out.push(if d == TAKEN { FAR } else { d });
            }
        }
        out
    }

    /// Breadth first from the free tiles next to the player over free walkable tiles, writing
    /// steps into the field. With `stop_near`, it ends once every tile at the distance of the
    /// nearest neighbour of that tile is labelled (all a step rule needs).
    fn search(&self, f: &mut Field, stop_near: Option<Pos>) {
        let Some(start) = f.at(self.player) else { return };
        let pw = f.pw as isize;
        // N, NE, E, SE, S, SW, W, NW.
        let steps: [isize; 8] = [-pw, -pw + 1, 1, pw + 1, pw, pw - 1, -1, -pw - 1];
        let goal = stop_near.and_then(|p| f.at(p));
        let dist = &mut f.dist;
        // The free neighbours of `stop_near` are marked, so that reaching one is seen on the way.
        if let Some(c) = goal {
            for d in steps {
                let n = (c as isize + d) as usize;
                if dist[n] == FAR {
                    dist[n] = GOAL;
                }
            }
        }
        let mut best = FAR;
        let mut queue: Vec<u32> = Vec::with_capacity(dist.len() / 2);
        for d in steps {
            let t = (start as isize + d) as usize;
            if dist[t] == FAR || dist[t] == GOAL {
                if dist[t] == GOAL {
                    best = 0;
                }
                dist[t] = 0;
                queue.push(t as u32);
            }
        }
        let mut head = 0;
        while let Some(&p) = queue.get(head) {
            head += 1;
            let p = p as usize;
            let here = dist[p];
            if here >= best {
                break;
            }
            for d in steps {
                let q = (p as isize + d) as usize;
                let v = dist[q];
                if v == FAR || v == GOAL {
                    if v == GOAL && best == FAR {
                        best = here + 1;
                    }
                    dist[q] = here + 1;
                    queue.push(q as u32);
                }
            }
        }
        // Marks of neighbours the search stopped before are unreached tiles again.
        if let Some(c) = goal {
            for d in steps {
                let n = (c as isize + d) as usize;
                if dist[n] == GOAL {
                    dist[n] = FAR;
                }
            }
        }
    }

    /// Where the enemy `index` standing on `from` moves this turn: the first step of a shortest
    /// path to a tile next to the player, ties broken N, NE, E, SE, S, SW, W, NW; `None` when it
    /// is already next to the player or there is no path.
    ///
    /// The search starts at the player and stops at the distance of the enemy's nearest
    /// neighbour, so a pursuer close by costs little however large the floor.
    pub fn enemy_step(&self, index: usize, from: Pos) -> Option<Pos> {
        if from.adjacent(self.player) {
            return None;
        }
        // Without a free tile next to the player there is no path, and without a free tile next
        // to the enemy no first step: both are seen before a search field is made (a crowd
        // around the player costs little).
        let free = |q: Pos| !self.is_wall(q) && !self.occupied(q, Some(index));
        if !Dir::ALL.iter().any(|d| free(self.player.step(*d))) || !Dir::ALL.iter().any(|d| free(from.step(*d))) {
            return None;
        }
        let mut f = self.field(Some(index));
        self.search(&mut f, Some(from));
        let mut best: Option<(u32, Pos)> = None;
        for d in Dir::ALL {
            let q = from.step(d);
            let Some(i) = f.at(q) else { continue };
            let dq = f.dist[i];
            if dq < TAKEN && best.is_none_or(|(b, _)| dq < b) {
                best = Some((dq, q));
            }
        }
        best.map(|(_, q)| q)
    }

    /// Up to `count` free tiles in order of distance from `from`, `from` itself first (breadth
    /// first, directions in their order), for creatures that appear by `spawn`. A free tile is
    /// floor that no creature or NPC stands on, nor a door nor the stairs; an enemy that
    /// `vacated` says yes to (one that has died) does not count as standing there.
    pub fn free_tiles_near(&self, from: Pos, count: usize, vacated: impl Fn(usize) -> bool) -> Vec<Pos> {
        let mut seen = vec![false; (self.width().max(0) * self.height().max(0)) as usize];
        let mut out = Vec::new();
        let free = |q: Pos| {
            let taken = self.player == q || self.npcs.iter().any(|n| n.pos == q) || self.enemy_at(q).is_some_and(|i| !vacated(i));
            !taken && !self.is_door(q) && !self.is_stairs(q)
        };
        if self.is_wall(from) {
            return out;
        }
        seen[self.index(from)] = true;
        if count > 0 && free(from) {
            out.push(from);
        }
        let mut queue = VecDeque::from([from]);
        while let Some(p) = queue.pop_front() {
            for d in Dir::ALL {
                if out.len() >= count {
                    return out;
                }
                let q = p.step(d);
                if self.is_wall(q) || seen[self.index(q)] {
                    continue;
                }
                seen[self.index(q)] = true;
                queue.push_back(q);
                if free(q) {
                    out.push(q);
                }
            }
        }
        out
    }

    /// What the player sees from where it stands (radius [`fov::RADIUS`]).
    pub fn sight(&self) -> Sight {
        fov::visible(|p| self.opaque(p), self.player, fov::RADIUS, (self.width(), self.height()))
    }

    /// Looks around: what the player sees joins the remembered tiles. Returns the sight.
    pub fn look(&mut self) -> Sight {
        let sight = self.sight();
        let n = (self.width().max(0) * self.height().max(0)) as usize;
        self.seen.resize(n, false);
        for (seen, now) in self.seen.iter_mut().zip(sight.flags()) {
            *seen |= *now;
        }
        sight
    }

    /// Whether the player has seen `p` on this floor.
    pub fn remembered(&self, p: Pos) -> bool {
        self.inside(p) && self.seen.get(self.index(p)).copied().unwrap_or(false)
    }
}

/// The tiles of a map for a search, with a ring of blocked tiles around them.
struct Field {
    width: i32,
    height: i32,
    /// The padded width: `width + 2`.
    pw: usize,
    /// Per padded tile: steps found so far, [`FAR`] (not reached yet) or [`TAKEN`] (never).
    dist: Vec<u32>,
}

impl Field {
    /// The padded index of a tile of the map; `None` outside it.
    fn at(&self, p: Pos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height).then(|| (p.y as usize + 1) * self.pw + p.x as usize + 1)
    }
}

/// Whether a tile can be stood on: floor, doors and the stairs.
fn walkable(t: char) -> bool {
    t == glyph::FLOOR || t == glyph::DOOR || t == STAIRS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A map from rows: `@` the player, digits enemies (their index), `n` an NPC.
    pub(crate) fn room(rows: &[&str]) -> Map {
        let mut r = Map::of_rows(Vec::new(), Pos::default());
        for (y, row) in rows.iter().enumerate() {
            let mut tiles = String::new();
            for (x, c) in row.chars().enumerate() {
                let p = Pos::new(x as i32, y as i32);
                match c {
                    '@' => r.player = p,
                    'n' => r.npcs.push(NpcSpot { npc: "t:n".into(), pos: p }),
                    d if d.is_ascii_digit() => {
                        r.place_enemy(d.to_digit(10).unwrap() as usize, p);
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
    fn rock_walls_and_doors_block_sight_and_rooms_own_their_tiles() {
        let mut m = room(&["#####   ", "#@..+...", "#####   "]);
        m.rows[0] = "#####   ".into();
        m.rows[2] = "#####   ".into();
        m.rooms.push(MapRoom { prefab: Some("t:r".into()), origin: Pos::new(0, 0), width: 5, height: 3, entered: false });
        assert_eq!(m.room_at(Pos::new(2, 1)), Some(0));
        assert_eq!(m.room_at(Pos::new(4, 1)), Some(0), "its door");
        assert_eq!(m.room_at(Pos::new(5, 1)), None, "the corridor");
        assert_eq!(m.room_at(Pos::new(6, 0)), None, "rock");
        assert!(m.is_wall(Pos::new(6, 0)) && m.opaque(Pos::new(6, 0)), "rock blocks");
        assert!(!m.is_wall(Pos::new(4, 1)) && m.opaque(Pos::new(4, 1)), "a door is walked through but not seen through");
        let sight = m.look();
        assert!(sight.contains(Pos::new(4, 1)) && !sight.contains(Pos::new(5, 1)), "the door is seen, not what is behind it");
        assert!(m.remembered(Pos::new(3, 1)) && !m.remembered(Pos::new(6, 1)));
    }

    #[test]
    fn remembered_tiles_are_saved_as_run_lengths() {
        let mut m = room(&["#####", "#@..#", "#####"]);
        m.look();
        let json = serde_json::to_value(&m).unwrap();
        assert!(json["seen"].as_array().unwrap().iter().all(|n| n.is_u64()));
        let back: Map = serde_json::from_value(json).unwrap();
        assert_eq!(back.seen, m.seen);
        assert_eq!(back, m);
    }

    #[test]
    fn the_step_search_stops_early_but_agrees_with_the_whole_field() {
        let r = room(&["##########", "#0.......#", "#.######.#", "#........#", "#1..#...@#", "##########"]);
        for (i, from) in [(0, Pos::new(1, 1)), (1, Pos::new(1, 4))] {
            let dist = r.distances_to_player(Some(i));
            let best = Dir::ALL.iter().map(|d| from.step(*d)).filter(|q| !r.is_wall(*q) && !r.occupied(*q, Some(i))).min_by_key(|q| dist[r.index(*q)]);
            assert_eq!(r.enemy_step(i, from), best, "enemy {i}");
        }
    }

    #[test]
    fn spawns_go_to_the_nearest_free_tiles() {
        let r = room(&["#####", "#.@0#", "#...#", "#####"]);
        let free = r.free_tiles_near(r.player, 10, |_| false);
        // N and NE are walls, E is taken: SE is the first free neighbour, then S, SW, W.
        assert_eq!(&free[..4], &[Pos::new(3, 2), Pos::new(2, 2), Pos::new(1, 2), Pos::new(1, 1)]);
        assert!(!free.contains(&Pos::new(3, 1)) && !free.contains(&Pos::new(2, 1)));
        // From an enemy's tile: its own tile first once it is dead.
        assert_eq!(r.free_tiles_near(Pos::new(3, 1), 2, |i| i == 0), [Pos::new(3, 1), Pos::new(3, 2)]);
        assert_eq!(r.free_tiles_near(Pos::new(3, 1), 1, |_| false), [Pos::new(3, 2)], "a living enemy keeps its tile");
    }

    #[test]
    fn a_newcomer_on_the_tile_of_the_dead_is_the_one_standing_there() {
        let mut r = room(&["#####", "#0.@#", "#####"]);
        // Enemy 1 was spawned where enemy 0 died; then the index of who stands where is built
        // again from the positions (as when another enemy leaves the game in the same step).
        r.place_enemy(1, Pos::new(1, 1));
        r.retain_enemies(|_, _| true);
        assert_eq!(r.enemy_at(Pos::new(1, 1)), Some(1));
        assert_eq!(r.free_tiles_near(Pos::new(1, 1), 2, |i| i == 0), [Pos::new(2, 1)], "the newcomer's tile is taken");
    }
}
