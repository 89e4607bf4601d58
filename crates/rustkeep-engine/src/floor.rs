//! A floor as one map (docs/engine.md, "Floor maps"): its rooms — prefab grids, in the order the
//! dungeon shuffled them, its first room in front — placed without overlap on one canvas and joined by corridors through
//! their border doors, so that every walkable tile can be reached from the start.
//!
//! Placement packs the rooms in rows ("shelves") of about three tiles across per tile down, at
//! least [`GAP`] tiles apart, each shifted by a small drawn amount, every other row right to left
//! so that consecutive rooms stay neighbours. Corridors are then routed door to door around the
//! rooms (`floor::route`). Nothing is retried: the only draws are two per room, so the time is
//! bounded by the size of the input, and an input that cannot be laid out is an error before any
//! draw. Positions are `(x, y)` on the whole floor; a room's glyphs are found at its origin plus
//! their position in the prefab.

mod route;

use std::fmt;

use rustkeep_data::grid::Pos;
use rustkeep_data::model::Grid;
use rustkeep_data::vocab::glyph;

use crate::rng::Rng;

/// The glyph of the stairs down: the last room's `@`.
pub const STAIRS: char = '>';
/// Free tiles around the whole map; its outermost ring stays rock, so corridors always have walls.
pub const MARGIN: i32 = 2;
/// The fewest free tiles between two rooms, across and down.
pub const GAP: i32 = 3;
/// The most extra tiles drawn before a room in its row, and above it.
const JITTER: u64 = 2;
/// Rows of rooms aim at this many tiles across per tile down (a terminal cell is about twice as
/// tall as it is wide).
const ACROSS_PER_DOWN: i64 = 3;
/// The widest and tallest prefab laid out (the checker refuses larger grids as
/// `invalid-prefab-grid`).
pub const MAX_SIDE: usize = rustkeep_data::vocab::MAX_GRID_SIDE;
/// The most tiles a floor map may have.
pub const MAX_TILES: u64 = 1 << 20;
/// The owner of a tile that belongs to no room (rock and corridors).
const NO_ROOM: u32 = u32::MAX;

/// A tile of a floor map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    /// Solid ground outside every room and corridor.
    Rock,
    Wall,
    /// The floor of a room (every glyph but `#` and `+`) or of a corridor.
    Floor,
    Door,
    Stairs,
}

impl Tile {
    /// How the map draws it: rock is blank.
    pub fn glyph(self) -> char {
        match self {
            Tile::Rock => ' ',
            Tile::Wall => glyph::WALL,
            Tile::Floor => glyph::FLOOR,
            Tile::Door => glyph::DOOR,
            Tile::Stairs => STAIRS,
        }
    }

    /// Whether a creature may stand on it.
    pub fn walkable(self) -> bool {
        matches!(self, Tile::Floor | Tile::Door | Tile::Stairs)
    }

    /// Whether it blocks sight: rock, walls and doors.
    pub fn opaque(self) -> bool {
        matches!(self, Tile::Rock | Tile::Wall | Tile::Door)
    }
}

/// Where a room of the floor landed: its prefab's origin on the floor, and every glyph of its grid
/// on the floor, each list in reading order of the grid (the order the game instantiates them in).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedRoom {
    /// The floor position of the grid's `(0, 0)`.
    pub origin: Pos,
    /// The grid's widest row and its number of rows.
    pub width: i32,
    pub height: i32,
    /// Every `@` (the first room's first one is the start, the last room's first one the stairs).
    pub entries: Vec<Pos>,
    pub enemies: Vec<Pos>,
    pub piles: Vec<Pos>,
    pub npcs: Vec<Pos>,
    /// The doors on the grid's border, each joined to the corridors.
    pub exits: Vec<Pos>,
}

/// A floor laid out: the tiles, which room each belongs to, and where the rooms landed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FloorMap {
    width: i32,
    height: i32,
    tiles: Vec<Tile>,
    /// The index (into `rooms`) of the room owning each tile, [`NO_ROOM`] for rock and corridors.
    owners: Vec<u32>,
    /// The rooms in the order given (the dungeon's shuffle).
    pub rooms: Vec<PlacedRoom>,
    /// Where the player arrives: the first room's entry point.
    pub start: Pos,
    /// The stairs down: the last room's `@` (see [`layout`] for the fallbacks).
    pub stairs: Pos,
}

impl FloorMap {
    pub fn width(&self) -> i32 {
        self.width
    }

    pub fn height(&self) -> i32 {
        self.height
    }

    pub fn contains(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    fn index(&self, p: Pos) -> Option<usize> {
        self.contains(p).then(|| (p.y * self.width + p.x) as usize)
    }

    /// The tile at `p`; rock outside the map.
    pub fn tile(&self, p: Pos) -> Tile {
        self.index(p).map_or(Tile::Rock, |i| self.tiles[i])
    }

    /// The tiles row by row, `width × height` of them.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The room (an index into `rooms`) a tile belongs to, walls and doors included; `None` for
    /// corridors, rock and outside the map.
    pub fn room_at(&self, p: Pos) -> Option<usize> {
        self.index(p).map(|i| self.owners[i]).filter(|o| *o != NO_ROOM).map(|o| o as usize)
    }

    /// Whether `p` is a corridor: floor that belongs to no room.
    pub fn is_corridor(&self, p: Pos) -> bool {
        self.tile(p) == Tile::Floor && self.room_at(p).is_none()
    }

    /// The tiles as text, one string per row.
    pub fn rows(&self) -> Vec<String> {
        self.tiles.chunks(self.width.max(1) as usize).map(|r| r.iter().map(|t| t.glyph()).collect()).collect()
    }

    /// The tiles as text with the rooms' glyphs drawn on them: `e`, `l`, `n` where they were in
    /// the prefabs, `@` on the start and `>` on the stairs.
    pub fn picture(&self) -> Vec<String> {
        let mut rows: Vec<Vec<char>> = self.rows().into_iter().map(|r| r.chars().collect()).collect();
        let mut put = |p: Pos, c: char| {
            if let Some(t) = rows.get_mut(p.y as usize).and_then(|r| r.get_mut(p.x as usize)) {
                *t = c;
            }
        };
        for room in &self.rooms {
            for (list, c) in [(&room.piles, glyph::LOOT_PILE), (&room.npcs, glyph::NPC), (&room.enemies, glyph::ENEMY)] {
                list.iter().for_each(|p| put(*p, c));
            }
        }
        put(self.stairs, STAIRS);
        put(self.start, glyph::ENTRY);
        rows.into_iter().map(|r| r.into_iter().collect()).collect()
    }
}

/// Why a floor cannot be laid out. Every one is found before anything is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// The floor has no room.
    NoRooms,
    /// Room `room` (an index into the rooms given) has no door on its border: nothing can lead in.
    NoBorderDoor { room: usize },
    /// Room `room` is wider or taller than [`MAX_SIDE`], or (`room` is `None`) the floor map would
    /// have `tiles` tiles, more than [`MAX_TILES`].
    TooLarge { room: Option<usize>, tiles: u64 },
    /// No corridor could reach the door `door` (on the floor) of room `room`. The placement leaves
    /// the space between rooms connected, so this reports a broken promise rather than panicking.
    NoRoute { room: usize, door: Pos },
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::NoRooms => f.write_str("the floor has no rooms"),
            LayoutError::NoBorderDoor { room } => write!(f, "room {room} has no door (`+`) on its border"),
            LayoutError::TooLarge { room: Some(room), tiles } => {
                write!(f, "room {room} is too large to lay out ({tiles} tiles, at most {MAX_SIDE} across and down)")
            }
            LayoutError::TooLarge { room: None, tiles } => write!(f, "the floor would have {tiles} tiles, more than {MAX_TILES}"),
            LayoutError::NoRoute { room, door } => write!(f, "no corridor reaches the door {door} of room {room}"),
        }
    }
}

impl std::error::Error for LayoutError {}

/// The dungeon's shuffle of a floor's prefabs: Fisher–Yates over the listed order, from index
/// n − 1 down to 1, swapping index i with an index drawn uniformly below i + 1.
pub fn shuffle<T>(list: &mut [T], rng: &mut Rng) {
    for i in (1..list.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        list.swap(i, j);
    }
}

/// A floor's first room (`first_rooms`): the first of the rooms, in the shuffled order, that
/// `is_first` accepts moves to the front, the rooms before it keeping their order behind it.
/// Nothing is drawn: in a uniformly shuffled order, the first of the accepted rooms is each of
/// them equally often (each listing of a prefab counts). When none is accepted, nothing moves.
pub fn put_first<T>(rooms: &mut [T], is_first: impl Fn(&T) -> bool) {
    if let Some(i) = rooms.iter().position(is_first) {
        rooms[..=i].rotate_right(1);
    }
}

/// A prefab grid read for the layout: its size and its border doors.
struct Template<'a> {
    grid: &'a Grid,
    width: i32,
    height: i32,
    /// Each border door in reading order, with the direction it opens to (0 N, 1 E, 2 S, 3 W):
    /// the first of its four straight neighbours that lies outside the grid.
    exits: Vec<(Pos, usize)>,
    /// Per tile (`y × width + x`): whether a border door leads to it, moving in the eight
    /// directions over tiles that are not walls. A tile no door leads to is sealed: it becomes
    /// wall on the floor, and the glyphs on it are not placed.
    open: Vec<bool>,
}

/// The four straight directions, in the order N, E, S, W.
const STRAIGHT: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];

impl<'a> Template<'a> {
    fn read(room: usize, grid: &'a Grid) -> Result<Template<'a>, LayoutError> {
        let widest = grid.rows.iter().map(String::len).max().unwrap_or(0);
        if widest > MAX_SIDE || grid.rows.len() > MAX_SIDE {
            return Err(LayoutError::TooLarge { room: Some(room), tiles: widest as u64 * grid.rows.len() as u64 });
        }
        let mut t = Template { grid, width: widest as i32, height: grid.rows.len() as i32, exits: Vec::new(), open: Vec::new() };
        for (p, g) in t.cells() {
            if g != glyph::DOOR as u8 {
                continue;
            }
            if let Some(d) = STRAIGHT.iter().position(|(dx, dy)| t.glyph(Pos::new(p.x + dx, p.y + dy)).is_none()) {
                t.exits.push((p, d));
            }
        }
        if t.exits.is_empty() {
            return Err(LayoutError::NoBorderDoor { room });
        }
        t.open = t.reached_from_doors();
        Ok(t)
    }

    /// The glyph at `p`; `None` outside the grid (a short row ends where its text ends).
    fn glyph(&self, p: Pos) -> Option<u8> {
        if p.x < 0 || p.y < 0 {
            return None;
        }
        self.grid.rows.get(p.y as usize)?.as_bytes().get(p.x as usize).copied()
    }

    /// Every tile of the grid with its glyph, in reading order.
    fn cells(&self) -> impl Iterator<Item = (Pos, u8)> + 'a {
        self.grid.rows.iter().enumerate().flat_map(|(y, row)| row.bytes().enumerate().map(move |(x, g)| (Pos::new(x as i32, y as i32), g)))
    }

    /// Which tiles the border doors lead to, moving in the eight directions over tiles that are
    /// not walls.
    fn reached_from_doors(&self) -> Vec<bool> {
        let w = self.width as usize;
        let mut seen = vec![false; w * self.height as usize];
        let mut stack: Vec<Pos> = self.exits.iter().map(|(p, _)| *p).collect();
        for p in &stack {
            seen[p.y as usize * w + p.x as usize] = true;
        }
        while let Some(p) = stack.pop() {
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let q = Pos::new(p.x + dx, p.y + dy);
                    if self.glyph(q).is_some_and(|g| g != glyph::WALL as u8) && !seen[q.y as usize * w + q.x as usize] {
                        seen[q.y as usize * w + q.x as usize] = true;
                        stack.push(q);
                    }
                }
            }
        }
        seen
    }

    /// Whether a border door leads to `p`.
    fn is_open(&self, p: Pos) -> bool {
        self.open.get(p.y as usize * self.width as usize + p.x as usize).copied().unwrap_or(false)
    }

    /// Where the player arrives in the room ([`Grid::entry`] over the tiles a door leads to): its
    /// first `@`, else its first plain floor tile, else its first tile that is no wall (a border
    /// door, at the least).
    fn entry(&self) -> Pos {
        let open = |g: &dyn Fn(u8) -> bool| self.cells().find(|(p, b)| g(*b) && self.is_open(*p)).map(|(p, _)| p);
        open(&|b| b == glyph::ENTRY as u8)
            .or_else(|| open(&|b| b == glyph::FLOOR as u8))
            .or_else(|| open(&|b| b != glyph::WALL as u8))
            .unwrap_or(self.exits[0].0)
    }

    /// The positions of a glyph in reading order, on the tiles a door leads to.
    fn all(&self, g: char) -> Vec<Pos> {
        self.cells().filter(|(p, b)| *b == g as u8 && self.is_open(*p)).map(|(p, _)| p).collect()
    }
}

/// Lays out one floor from its rooms' grids, in the order given (the dungeon's shuffle).
///
/// Draws two integers per room (its extra space across, then down), nothing else; an error draws
/// nothing. Tiles of a room that none of its border doors leads to are sealed: they become wall,
/// and their glyphs are not placed. The start is the first room's entry point (its `@`, else its
/// first plain floor tile, else its first tile that is no wall, all among the tiles a door leads
/// to). The stairs are the last room's first `@`, else its first
/// plain floor tile, else the corridor tile outside its first border door; on a floor of one room,
/// always that corridor tile. Every other `@` is floor.
pub fn layout(rooms: &[&Grid], rng: &mut Rng) -> Result<FloorMap, LayoutError> {
    if rooms.is_empty() {
        return Err(LayoutError::NoRooms);
    }
    let templates = rooms.iter().enumerate().map(|(i, g)| Template::read(i, g)).collect::<Result<Vec<_>, _>>()?;
    // The draws are kept only when the map can be built, so that an error draws nothing.
    let mut drawn = rng.clone();
    let (origins, width, height) = place(&templates, &mut drawn)?;

    let mut map = FloorMap {
        width,
        height,
        tiles: vec![Tile::Rock; (width * height) as usize],
        owners: vec![NO_ROOM; (width * height) as usize],
        rooms: Vec::with_capacity(templates.len()),
        start: Pos::default(),
        stairs: Pos::default(),
    };
    for (i, (t, o)) in templates.iter().zip(&origins).enumerate() {
        for (p, g) in t.cells() {
            let at = (o.y + p.y) as usize * width as usize + (o.x + p.x) as usize;
            map.tiles[at] = match g as char {
                _ if !t.is_open(p) => Tile::Wall,
                glyph::WALL => Tile::Wall,
                glyph::DOOR => Tile::Door,
                _ => Tile::Floor,
            };
            map.owners[at] = i as u32;
        }
        let moved = |list: Vec<Pos>| list.into_iter().map(|p| Pos::new(o.x + p.x, o.y + p.y)).collect::<Vec<_>>();
        map.rooms.push(PlacedRoom {
            origin: *o,
            width: t.width,
            height: t.height,
            entries: moved(t.all(glyph::ENTRY)),
            enemies: moved(t.all(glyph::ENEMY)),
            piles: moved(t.all(glyph::LOOT_PILE)),
            npcs: moved(t.all(glyph::NPC)),
            exits: moved(t.exits.iter().map(|(p, _)| *p).collect()),
        });
    }
    let mouths: Vec<Vec<(Pos, usize)>> = templates
        .iter()
        .zip(&origins)
        .map(|(t, o)| t.exits.iter().map(|(p, d)| (Pos::new(o.x + p.x + STRAIGHT[*d].0, o.y + p.y + STRAIGHT[*d].1), *d)).collect())
        .collect();
    join_doors(&mut map, &mouths)?;
    *rng = drawn;

    let first = &templates[0];
    map.start = offset(origins[0], first.entry());
    let last = templates.len() - 1;
    let t = &templates[last];
    let inside = if last == 0 { None } else { t.all(glyph::ENTRY).into_iter().chain(t.all(glyph::FLOOR)).next() };
    map.stairs = inside.map_or(mouths[last][0].0, |p| offset(origins[last], p));
    if let Some(at) = map.index(map.stairs) {
        map.tiles[at] = Tile::Stairs;
    }
    Ok(map)
}

fn offset(origin: Pos, p: Pos) -> Pos {
    Pos::new(origin.x + p.x, origin.y + p.y)
}

/// Where each room's grid goes, and the size of the canvas: rooms in rows left to right, a new
/// row when the next room would pass the target width, every other row mirrored.
fn place(templates: &[Template], rng: &mut Rng) -> Result<(Vec<Pos>, i32, i32), LayoutError> {
    let spaced = |n: i32| i64::from(n) + i64::from(GAP) + JITTER as i64;
    let area: i64 = templates.iter().map(|t| spaced(t.width) * spaced(t.height)).sum();
    let widest = templates.iter().map(|t| t.width).max().unwrap_or(0);
    let target = i64::from(widest).max((area * ACROSS_PER_DOWN).isqrt());
    let mut at = Vec::with_capacity(templates.len());
    let mut row_of = Vec::with_capacity(templates.len());
    let (mut x, mut y, mut row_height, mut row) = (0i64, 0i64, 0i64, 0usize);
    for t in templates {
        let across = rng.below(JITTER + 1) as i64;
        let down = rng.below(JITTER + 1) as i64;
        let mut gap = if x == 0 { 0 } else { i64::from(GAP) };
        if x > 0 && x + gap + across + i64::from(t.width) > target {
            y += row_height + i64::from(GAP);
            (x, row_height, gap) = (0, 0, 0);
            row += 1;
        }
        let left = x + gap + across;
        at.push((left, y + down));
        row_of.push(row);
        x = left + i64::from(t.width);
        row_height = row_height.max(down + i64::from(t.height));
    }
    let width = templates.iter().zip(&at).map(|(t, (left, _))| left + i64::from(t.width)).max().unwrap_or(0);
    let height = y + row_height;
    let (canvas_w, canvas_h) = (width + 2 * i64::from(MARGIN), height + 2 * i64::from(MARGIN));
    let tiles = (canvas_w * canvas_h) as u64;
    if tiles > MAX_TILES {
        return Err(LayoutError::TooLarge { room: None, tiles });
    }
    let origins = templates
        .iter()
        .zip(at.iter().zip(&row_of))
        .map(|(t, ((left, top), row))| {
            let left = if row % 2 == 1 { width - left - i64::from(t.width) } else { *left };
            Pos::new((left + i64::from(MARGIN)) as i32, (top + i64::from(MARGIN)) as i32)
        })
        .collect();
    Ok((origins, canvas_w as i32, canvas_h as i32))
}

/// Digs the corridors: the first room's first border door starts them; each later room's first
/// border door is joined to them, in order; then every other border door; last, the rock beside
/// a corridor becomes wall.
fn join_doors(map: &mut FloorMap, mouths: &[Vec<(Pos, usize)>]) -> Result<(), LayoutError> {
    let mut router = route::Router::new(map.width, map.height, &map.owners);
    let order = mouths
        .iter()
        .enumerate()
        .map(|(room, m)| (room, 0, m[0]))
        .chain(mouths.iter().enumerate().flat_map(|(room, m)| m.iter().enumerate().skip(1).map(move |(door, mouth)| (room, door, *mouth))));
    for (n, (room, door, (mouth, dir))) in order.enumerate() {
        let (tiles, owners) = (&map.tiles, &map.owners);
        let path = if n == 0 { map.index(mouth).map(|i| vec![i]) } else { router.route(mouth, dir, |i| tiles[i] == Tile::Floor && owners[i] == NO_ROOM) };
        for i in path.ok_or(LayoutError::NoRoute { room, door: map.rooms[room].exits[door] })? {
            map.tiles[i] = Tile::Floor;
        }
    }
    for y in 0..map.height {
        for x in 0..map.width {
            if !map.is_corridor(Pos::new(x, y)) {
                continue;
            }
            for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                if let Some(j) = map.index(Pos::new(x + dx, y + dy)).filter(|j| map.tiles[*j] == Tile::Rock) {
                    map.tiles[j] = Tile::Wall;
                }
            }
        }
    }
    Ok(())
}
