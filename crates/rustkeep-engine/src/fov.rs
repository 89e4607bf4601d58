//! Field of view (docs/engine.md, "Field of view"): which tiles can be seen from a tile, by
//! symmetric shadowcasting, so that among tiles that do not block sight, A sees B exactly when B
//! sees A.
//!
//! The view is scanned in four quadrants (north, east, south, west), each row by row outwards
//! from the origin. A row is the span of tiles between two slopes; a wall in a row narrows the
//! span of the rows behind it, and a gap between walls starts a new span. A tile that blocks sight
//! is seen when any part of it is in the span; a tile that does not is seen only when its centre
//! is, which is what makes sight symmetric. Slopes are exact fractions of integers (no floating
//! point), and the scan keeps its own stack of rows, so nothing depends on the platform and deep
//! views cannot overflow the call stack. The origin is always seen; tiles outside the map block
//! sight and are never seen; only tiles within the radius (dx² + dy² ≤ r(r + 1), a round circle
//! on the grid) are seen.

use rustkeep_data::grid::Pos;

/// The player's sight radius on a floor map.
pub const RADIUS: i32 = 8;

/// The tiles seen from one origin, on a map of a given size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sight {
    width: i32,
    height: i32,
    seen: Vec<bool>,
}

impl Sight {
    /// Nothing seen, on a map of `width × height` tiles.
    pub fn new(width: i32, height: i32) -> Sight {
        Sight { width: width.max(0), height: height.max(0), seen: vec![false; (width.max(0) * height.max(0)) as usize] }
    }

    fn index(&self, p: Pos) -> Option<usize> {
        (p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height).then(|| (p.y * self.width + p.x) as usize)
    }

    /// Whether `p` is seen (never outside the map).
    pub fn contains(&self, p: Pos) -> bool {
        self.index(p).is_some_and(|i| self.seen[i])
    }

    /// The tiles seen, row by row.
    pub fn tiles(&self) -> impl Iterator<Item = Pos> + '_ {
        self.seen.iter().enumerate().filter(|(_, s)| **s).map(|(i, _)| Pos::new(i as i32 % self.width, i as i32 / self.width))
    }

    /// How many tiles are seen.
    pub fn count(&self) -> usize {
        self.seen.iter().filter(|s| **s).count()
    }

    /// One flag per tile, row by row: what a map of remembered tiles takes in.
    pub fn flags(&self) -> &[bool] {
        &self.seen
    }

    fn mark(&mut self, p: Pos) {
        if let Some(i) = self.index(p) {
            self.seen[i] = true;
        }
    }
}

/// A slope `num / den` (`den > 0`): a column offset per row of depth.
#[derive(Clone, Copy, Debug)]
struct Slope {
    num: i64,
    den: i64,
}

/// A row of a quadrant: the tiles at `depth` between the slopes `start` and `end`.
#[derive(Clone, Copy, Debug)]
struct Row {
    depth: i64,
    start: Slope,
    end: Slope,
}

impl Row {
    /// The first column: `depth × start` rounded to the nearest, halves up.
    fn first_col(&self) -> i64 {
        (2 * self.depth * self.start.num + self.start.den).div_euclid(2 * self.start.den)
    }

    /// The last column: `depth × end` rounded to the nearest, halves down.
    fn last_col(&self) -> i64 {
        -(-(2 * self.depth * self.end.num - self.end.den)).div_euclid(2 * self.end.den)
    }

    /// Whether the centre of the tile in column `col` lies within the row's slopes.
    fn centre_inside(&self, col: i64) -> bool {
        col * self.start.den >= self.depth * self.start.num && col * self.end.den <= self.depth * self.end.num
    }
}

/// The slope through the left edge of the tile at (`depth`, `col`), as seen from the origin.
fn edge(depth: i64, col: i64) -> Slope {
    Slope { num: 2 * col - 1, den: 2 * depth }
}

/// The tiles seen from `origin` within `radius` on a map of `size` (width, height), where
/// `opaque` says which tiles block sight (it is asked only about tiles on the map).
pub fn visible(opaque: impl Fn(Pos) -> bool, origin: Pos, radius: i32, size: (i32, i32)) -> Sight {
    let mut sight = Sight::new(size.0, size.1);
    if sight.index(origin).is_none() {
        return sight;
    }
    sight.mark(origin);
    let radius = i64::from(radius.max(0));
    let reach = radius * (radius + 1);
    let mut rows = Vec::new();
    for quadrant in 0..4 {
        // (depth, col) in the quadrant to a tile of the map: north, east, south, west.
        let at = |depth: i64, col: i64| -> Pos {
            let (d, c) = (depth as i32, col as i32);
            match quadrant {
                0 => Pos::new(origin.x + c, origin.y - d),
                1 => Pos::new(origin.x + d, origin.y + c),
                2 => Pos::new(origin.x + c, origin.y + d),
                _ => Pos::new(origin.x - d, origin.y + c),
            }
        };
        let blocks = |p: Pos| sight.index(p).is_none() || opaque(p);
        let mut shown = Vec::new();
        rows.push(Row { depth: 1, start: Slope { num: -1, den: 1 }, end: Slope { num: 1, den: 1 } });
        while let Some(mut row) = rows.pop() {
            if row.depth > radius {
                continue;
            }
            let mut previous: Option<bool> = None;
            for col in row.first_col()..=row.last_col() {
                let p = at(row.depth, col);
                let wall = blocks(p);
                if (wall || row.centre_inside(col)) && row.depth * row.depth + col * col <= reach {
                    shown.push(p);
                }
                if previous == Some(true) && !wall {
                    row.start = edge(row.depth, col);
                }
                if previous == Some(false) && wall {
                    rows.push(Row { depth: row.depth + 1, start: row.start, end: edge(row.depth, col) });
                }
                previous = Some(wall);
            }
            if previous == Some(false) {
                rows.push(Row { depth: row.depth + 1, ..row });
            }
        }
        for p in shown {
            sight.mark(p);
        }
    }
    sight
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A map from rows (`#` and `+` block sight) and the sight from its `@`.
    fn sight(rows: &[&str]) -> (Sight, Vec<Vec<u8>>) {
        let grid: Vec<Vec<u8>> = rows.iter().map(|r| r.bytes().collect()).collect();
        let (w, h) = (grid[0].len() as i32, grid.len() as i32);
        let origin = (0..h).flat_map(|y| (0..w).map(move |x| Pos::new(x, y))).find(|p| grid[p.y as usize][p.x as usize] == b'@').expect("an @");
        let s = visible(|p| matches!(grid[p.y as usize][p.x as usize], b'#' | b'+'), origin, RADIUS, (w, h));
        (s, grid)
    }

    /// The sight drawn over the map: seen tiles as they are, unseen as `?`.
    fn drawn(s: &Sight, grid: &[Vec<u8>]) -> Vec<String> {
        grid.iter()
            .enumerate()
            .map(|(y, row)| row.iter().enumerate().map(|(x, c)| if s.contains(Pos::new(x as i32, y as i32)) { *c as char } else { '?' }).collect())
            .collect()
    }

    #[test]
    fn a_pillar_casts_a_shadow_behind_it() {
        let open = ".........";
        let (s, g) = sight(&[open, open, "....@....", open, "....#....", open, open, open, open]);
        assert_eq!(
            drawn(&s, &g),
            [open, open, "....@....", open, "....#....", "....?....", "....?....", "...???...", "...???..."],
            "the tile straight behind the pillar is hidden; the shadow widens where the centres of the tiles beside it fall into it"
        );
    }

    #[test]
    fn a_wall_blocks_sight_and_a_door_too() {
        let (s, g) = sight(&["#######", "#..@..#", "###+###", "#.....#", "#######"]);
        assert_eq!(drawn(&s, &g), ["#######", "#..@..#", "###+###", "???????", "???????"]);
        let (s, _) = sight(&["#.#", "#@#", "#.#", "###", "#.#"]);
        assert!(s.contains(Pos::new(1, 3)), "the wall itself is seen");
        assert!(!s.contains(Pos::new(1, 4)), "what lies behind it is not");
    }

    #[test]
    fn the_origin_is_seen_and_sight_ends_at_the_radius() {
        let row = format!("@{}", ".".repeat(12));
        let (s, _) = sight(&[row.as_str()]);
        assert!(s.contains(Pos::new(0, 0)));
        assert!(s.contains(Pos::new(8, 0)) && !s.contains(Pos::new(9, 0)));
        let walled_in = visible(|p| p != Pos::new(2, 2), Pos::new(2, 2), RADIUS, (5, 5));
        let around: Vec<Pos> = (1..4).flat_map(|y| (1..4).map(move |x| Pos::new(x, y))).collect();
        assert_eq!(walled_in.tiles().collect::<Vec<_>>(), around, "walled in: the origin and the walls around it, nothing beyond");
        let blind = visible(|_| true, Pos::new(2, 2), RADIUS, (5, 5));
        assert!(blind.contains(Pos::new(2, 2)), "the origin is seen even when it blocks sight itself");
        assert_eq!(visible(|_| false, Pos::new(9, 9), RADIUS, (5, 5)).count(), 0, "an origin off the map sees nothing");
    }

    #[test]
    fn sight_between_open_tiles_is_symmetric_on_a_cluttered_map() {
        let rows = ["..#....#....", ".#...#...#..", "....#..#....", "#.#....#.#.#", "....##......", ".#.......#..", "...#.#.#...#", "#.....#....."];
        let opaque = |p: Pos| rows[p.y as usize].as_bytes()[p.x as usize] == b'#';
        let size = (12, 8);
        let open: Vec<Pos> = (0..8).flat_map(|y| (0..12).map(move |x| Pos::new(x, y))).filter(|p| !opaque(*p)).collect();
        let sights: Vec<Sight> = open.iter().map(|p| visible(opaque, *p, RADIUS, size)).collect();
        let mut pairs = 0;
        for (a, sa) in open.iter().zip(&sights) {
            for (b, sb) in open.iter().zip(&sights) {
                assert_eq!(sa.contains(*b), sb.contains(*a), "{a} and {b}");
                pairs += usize::from(sa.contains(*b) && a != b);
            }
        }
        assert!(pairs > 100, "the map has lines of sight to compare: {pairs}");
    }
}
