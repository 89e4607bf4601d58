//! Prefab grids as geometry, shared by the validator (reachability warnings) and the engine (the
//! room map): positions, the eight directions in their fixed order, glyph lookup in reading order,
//! the entry point, and which tiles can be walked to from it.
//!
//! Positions are `(x, y)`: `x` the column, `y` the row, 0-based, in the trimmed grid (leading and
//! trailing empty lines of the string removed, as the lowering stores it). Glyphs are ASCII (the
//! lowering rejects anything else), so a row's byte index is its column.

use crate::model::Grid;
use crate::vocab::glyph;

/// A tile position: column and row, 0-based. Saves write it as `{ "x": …, "y": … }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
}

impl Pos {
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    pub fn step(self, d: Dir) -> Pos {
        let (dx, dy) = d.delta();
        Pos { x: self.x + dx, y: self.y + dy }
    }

    /// Whether `other` is one of the eight neighbours.
    pub fn adjacent(self, other: Pos) -> bool {
        self != other && (self.x - other.x).abs() <= 1 && (self.y - other.y).abs() <= 1
    }

    /// Moves needed with 8-way movement (Chebyshev distance).
    pub fn distance(self, other: Pos) -> i32 {
        (self.x - other.x).abs().max((self.y - other.y).abs())
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The eight directions, in the order that breaks ties between equal moves: N, NE, E, SE, S, SW,
/// W, NW (N is y − 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 8] = [Dir::N, Dir::NE, Dir::E, Dir::SE, Dir::S, Dir::SW, Dir::W, Dir::NW];

    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (0, -1),
            Dir::NE => (1, -1),
            Dir::E => (1, 0),
            Dir::SE => (1, 1),
            Dir::S => (0, 1),
            Dir::SW => (-1, 1),
            Dir::W => (-1, 0),
            Dir::NW => (-1, -1),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::N => "n",
            Dir::NE => "ne",
            Dir::E => "e",
            Dir::SE => "se",
            Dir::S => "s",
            Dir::SW => "sw",
            Dir::W => "w",
            Dir::NW => "nw",
        }
    }

    pub fn from_name(s: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.name() == s.to_ascii_lowercase())
    }
}

impl Grid {
    pub fn height(&self) -> i32 {
        self.rows.len() as i32
    }

    pub fn width(&self) -> i32 {
        self.rows.first().map_or(0, |r| r.len() as i32)
    }

    pub fn contains(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.y < self.height() && p.x < self.width()
    }

    /// The glyph at a position (`None` outside the grid).
    pub fn glyph(&self, p: Pos) -> Option<u8> {
        // Glyphs are ASCII (the lowering rejects anything else): a byte is a glyph.
        if !self.contains(p) {
            return None;
        }
        self.rows[p.y as usize].as_bytes().get(p.x as usize).copied()
    }

    /// The byte span of the glyph at `p` in its file, where the grid's literal allows it.
    pub fn glyph_span(&self, p: Pos) -> Option<std::ops::Range<usize>> {
        self.glyph(p)?;
        let start = self.row_starts.get(p.y as usize)? + p.x as usize;
        Some(start..start + 1)
    }

    /// Every position holding `g`, in reading order (row by row, left to right).
    pub fn positions_of(&self, g: u8) -> Vec<Pos> {
        let mut out = Vec::new();
        for (y, row) in self.rows.iter().enumerate() {
            for (x, b) in row.bytes().enumerate() {
                if b == g {
                    out.push(Pos::new(x as i32, y as i32));
                }
            }
        }
        out
    }

    /// Where the player enters: the `@`, else the first plain floor tile in reading order (not a
    /// wall, door, pile, enemy or NPC), else the first tile that is no wall.
    pub fn entry(&self) -> Option<Pos> {
        if let Some(p) = self.positions_of(glyph::ENTRY as u8).first() {
            return Some(*p);
        }
        let first = |ok: &dyn Fn(u8) -> bool| self.rows.iter().enumerate().find_map(|(y, row)| row.bytes().position(ok).map(|x| Pos::new(x as i32, y as i32)));
        first(&|b| b == (glyph::FLOOR as u8)).or_else(|| first(&|b| b != (glyph::WALL as u8)))
    }

    /// Which tiles can be walked to from `from` over tiles that are not walls, moving in the eight
    /// directions; indexed `y * width + x`.
    pub fn reachable_from(&self, from: Pos) -> Vec<bool> {
        let (w, h) = (self.width(), self.height());
        let mut seen = vec![false; (w.max(0) * h.max(0)) as usize];
        if self.glyph(from).is_none_or(|g| g == (glyph::WALL as u8)) {
            return seen;
        }
        let mut queue = std::collections::VecDeque::from([from]);
        seen[(from.y * w + from.x) as usize] = true;
        while let Some(p) = queue.pop_front() {
            for d in Dir::ALL {
                let q = p.step(d);
                match self.glyph(q) {
                    Some(g) if g != (glyph::WALL as u8) && !seen[(q.y * w + q.x) as usize] => {
                        seen[(q.y * w + q.x) as usize] = true;
                        queue.push_back(q);
                    }
                    _ => {}
                }
            }
        }
        seen
    }

    /// The `l`, `e`, `n` and `+` glyphs that cannot be walked to from the entry point, in reading
    /// order (all of them when there is no entry point at all).
    pub fn unreachable_features(&self) -> Vec<(Pos, u8)> {
        let features = [(glyph::LOOT_PILE as u8), (glyph::ENEMY as u8), (glyph::NPC as u8), (glyph::DOOR as u8)];
        let seen = self.entry().map(|e| self.reachable_from(e)).unwrap_or_default();
        let w = self.width();
        let mut out = Vec::new();
        for (y, row) in self.rows.iter().enumerate() {
            for (x, b) in row.bytes().enumerate() {
                let i = y * w as usize + x;
                if features.contains(&b) && !seen.get(i).copied().unwrap_or(false) {
                    out.push((Pos::new(x as i32, y as i32), b));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(s: &str) -> Grid {
        Grid { rows: s.lines().map(str::to_string).collect(), row_starts: Vec::new() }
    }

    #[test]
    fn directions_break_ties_clockwise_from_north() {
        let names: Vec<&str> = Dir::ALL.iter().map(|d| d.name()).collect();
        assert_eq!(names, ["n", "ne", "e", "se", "s", "sw", "w", "nw"]);
        assert_eq!(Pos::new(3, 3).step(Dir::N), Pos::new(3, 2));
        assert_eq!(Pos::new(3, 3).step(Dir::SW), Pos::new(2, 4));
        assert_eq!(Dir::from_name("NE"), Some(Dir::NE));
    }

    #[test]
    fn entry_is_the_at_sign_else_the_first_floor_tile() {
        assert_eq!(grid("#####\n#.@.#\n#####").entry(), Some(Pos::new(2, 1)));
        assert_eq!(grid("#####\n#e..#\n#####").entry(), Some(Pos::new(2, 1)));
        assert_eq!(grid("#####\n#e+l#\n#####").entry(), Some(Pos::new(1, 1)));
        assert_eq!(grid("###\n###").entry(), None);
    }

    #[test]
    fn walls_cut_rooms_apart_but_diagonals_pass() {
        let g = grid("#######\n#@.#.e#\n#..#..#\n###.###\n#l#####");
        let unreachable: Vec<(Pos, char)> = g.unreachable_features().into_iter().map(|(p, b)| (p, b as char)).collect();
        // The `e` is reached through the diagonal gap at (3, 3); the pile below it is walled in.
        assert_eq!(unreachable, [(Pos::new(1, 4), 'l')]);
    }
}
