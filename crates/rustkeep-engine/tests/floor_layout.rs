//! Floor maps and field of view (docs/engine.md, "Floor maps", "Field of view"), over many seeds,
//! every floor of the bundled core and of the examples, and made-up floors (one room, a huge room,
//! many small rooms, random rooms): rooms never overlap, each prefab is placed once with all its
//! glyphs, every walkable tile can be reached from the start, every border door is joined, the same
//! seed gives the same map, impossible floors are errors, and sight is symmetric on built maps.

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;

use rustkeep_data::db::Database;
use rustkeep_data::grid::Pos;
use rustkeep_data::model::Grid;
use rustkeep_data::project::{load, Overlay, Project};
use rustkeep_data::vocab::{field, Registry};
use rustkeep_engine::floor::{self, FloorMap, LayoutError, Tile};
use rustkeep_engine::fov::{self, RADIUS};
use rustkeep_engine::rng::Rng;
use rustkeep_testutil::repo_root;

const SEEDS: u64 = 200;

fn grid(rows: &[&str]) -> Grid {
    Grid { rows: rows.iter().map(|r| r.to_string()).collect(), row_starts: Vec::new() }
}

/// The floors of a project: ID and the grids of its prefabs, in the listed order.
fn floors_of(project: &Project) -> Vec<(String, Vec<Grid>)> {
    let db = Database::load(project);
    let mut ids: Vec<&String> = db.resolved.defs[Registry::Floors.index()].keys().collect();
    ids.sort();
    ids.into_iter()
        .filter_map(|id| {
            let floor = db.get(Registry::Floors, id)?;
            let grids = floor.ref_list(field::PREFABS).iter().filter_map(|p| db.get(Registry::Prefabs, &p.value)?.grid().cloned()).collect();
            Some((id.clone(), grids))
        })
        .collect()
}

/// Every distinct floor of the core and of every project under `examples/`, by its grids.
fn real_floors() -> BTreeMap<Vec<Vec<String>>, (String, Vec<Grid>)> {
    let root = repo_root();
    let mut projects = vec![Project::with_bundled_core()];
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("examples")).expect("examples/").flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    projects.extend(dirs.iter().map(|d| load(std::slice::from_ref(d), root, &Overlay::new())));
    let mut out = BTreeMap::new();
    for p in &projects {
        for (id, grids) in floors_of(p) {
            out.entry(grids.iter().map(|g| g.rows.clone()).collect()).or_insert((id, grids));
        }
    }
    out
}

/// The floor built from `grids` with the dungeon's shuffle, as a game entering it would.
fn build(grids: &[Grid], seed: u64) -> Result<FloorMap, LayoutError> {
    let mut rng = Rng::seeded(seed);
    let mut order: Vec<&Grid> = grids.iter().collect();
    floor::shuffle(&mut order, &mut rng);
    floor::layout(&order, &mut rng)
}

/// The tiles of a grid with their glyphs, in reading order.
fn cells(g: &Grid) -> Vec<(Pos, u8)> {
    g.rows.iter().enumerate().flat_map(|(y, r)| r.bytes().enumerate().map(move |(x, b)| (Pos::new(x as i32, y as i32), b))).collect()
}

fn shifted(o: Pos, p: Pos) -> Pos {
    Pos::new(o.x + p.x, o.y + p.y)
}

/// Which walkable tiles can be reached from `from`, moving in the eight directions over walkable
/// tiles; and how many walkable tiles the map has.
fn reach(map: &FloorMap, from: Pos) -> (Vec<bool>, usize) {
    let w = map.width();
    let mut seen = vec![false; (w * map.height()) as usize];
    let mut queue = VecDeque::from([from]);
    seen[(from.y * w + from.x) as usize] = true;
    while let Some(p) = queue.pop_front() {
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::new(p.x + dx, p.y + dy);
                if map.tile(q).walkable() && !seen[(q.y * w + q.x) as usize] {
                    seen[(q.y * w + q.x) as usize] = true;
                    queue.push_back(q);
                }
            }
        }
    }
    (seen, map.tiles().iter().filter(|t| t.walkable()).count())
}

/// Every promise of a built floor, for rooms laid out in the order `order` of `grids`.
/// The tiles of a grid that a border door leads to (8 directions over tiles that are not walls);
/// the others are sealed.
fn open_tiles(g: &Grid) -> std::collections::BTreeSet<Pos> {
    let all: BTreeMap<Pos, u8> = cells(g).into_iter().collect();
    let border = |p: Pos| [(0, -1), (1, 0), (0, 1), (-1, 0)].iter().any(|(dx, dy)| !all.contains_key(&Pos::new(p.x + dx, p.y + dy)));
    let mut open: std::collections::BTreeSet<Pos> = all.iter().filter(|(p, b)| **b == b'+' && border(**p)).map(|(p, _)| *p).collect();
    let mut queue: VecDeque<Pos> = open.iter().copied().collect();
    while let Some(p) = queue.pop_front() {
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::new(p.x + dx, p.y + dy);
                if all.get(&q).is_some_and(|b| *b != b'#') && open.insert(q) {
                    queue.push_back(q);
                }
            }
        }
    }
    open
}

fn check_map(map: &FloorMap, placed: &[&Grid]) {
    let (w, h) = (map.width(), map.height());
    assert_eq!(map.tiles().len(), (w * h) as usize);
    assert_eq!(map.rooms.len(), placed.len(), "every prefab is placed once");
    let mut owner = vec![None; (w * h) as usize];
    for (i, (room, g)) in map.rooms.iter().zip(placed).enumerate() {
        let o = room.origin;
        let mut glyphs: BTreeMap<u8, Vec<Pos>> = BTreeMap::new();
        let open = open_tiles(g);
        for (p, b) in cells(g) {
            let at = shifted(o, p);
            assert!(map.contains(at), "room {i} lies on the map");
            let k = (at.y * w + at.x) as usize;
            assert_eq!(owner[k], None, "rooms {i} and {:?} overlap at {at}", owner[k]);
            owner[k] = Some(i);
            assert_eq!(map.room_at(at), Some(i));
            let want = match b {
                _ if !open.contains(&p) => Tile::Wall,
                b'#' => Tile::Wall,
                b'+' => Tile::Door,
                _ if at == map.stairs => Tile::Stairs,
                _ => Tile::Floor,
            };
            assert_eq!(map.tile(at), want, "room {i} at {p}: `{}`", b as char);
            if open.contains(&p) {
                glyphs.entry(b).or_default().push(at);
            }
        }
        let of = |b: u8| glyphs.get(&b).cloned().unwrap_or_default();
        assert_eq!(room.entries, of(b'@'), "room {i}: every `@`, in reading order");
        assert_eq!(room.enemies, of(b'e'), "room {i}: every `e`");
        assert_eq!(room.piles, of(b'l'), "room {i}: every `l`");
        assert_eq!(room.npcs, of(b'n'), "room {i}: every `n`");
        let border_doors: Vec<Pos> = cells(g)
            .into_iter()
            .filter(|(p, b)| {
                *b == b'+' && [(0, -1), (1, 0), (0, 1), (-1, 0)].iter().any(|(dx, dy)| !cells(g).iter().any(|(q, _)| *q == Pos::new(p.x + dx, p.y + dy)))
            })
            .map(|(p, _)| shifted(o, p))
            .collect();
        assert_eq!(room.exits, border_doors, "room {i}: its border doors");
        for d in &room.exits {
            let joined = [(0, -1), (1, 0), (0, 1), (-1, 0)]
                .iter()
                .any(|(dx, dy)| map.is_corridor(Pos::new(d.x + dx, d.y + dy)) || map.tile(Pos::new(d.x + dx, d.y + dy)) == Tile::Stairs);
            assert!(joined, "room {i}: the door {d} opens onto a corridor");
        }
    }
    // Nothing else belongs to a room; corridors and rock belong to none.
    for y in 0..h {
        for x in 0..w {
            let p = Pos::new(x, y);
            assert_eq!(map.room_at(p), owner[(y * w + x) as usize], "{p}");
        }
    }
    // The start and the stairs.
    let first = placed[0];
    let open = open_tiles(first);
    let entry = [b'@', b'.']
        .iter()
        .find_map(|g| cells(first).into_iter().find(|(p, b)| b == g && open.contains(p)))
        .or_else(|| cells(first).into_iter().find(|(p, b)| *b != b'#' && open.contains(p)))
        .map(|(p, _)| p)
        .expect("a room with a border door has an entry");
    assert_eq!(map.start, shifted(map.rooms[0].origin, entry));
    assert_eq!(map.tiles().iter().filter(|t| **t == Tile::Stairs).count(), 1, "one stairs down");
    assert_eq!(map.tile(map.stairs), Tile::Stairs);
    let last = map.rooms.last().unwrap();
    match (placed.len(), last.entries.first()) {
        (1, _) => assert_eq!(map.room_at(map.stairs), None, "one room: the stairs lie outside its first door"),
        (_, Some(at)) => assert_eq!(map.stairs, *at, "the last room's `@` is the stairs"),
        (n, None) => {
            // No `@`: its first plain floor tile, else the tile outside its first border door.
            let open = open_tiles(placed[n - 1]);
            let plain = cells(placed[n - 1]).into_iter().find(|(p, b)| *b == b'.' && open.contains(p)).map(|(p, _)| shifted(last.origin, p));
            match plain {
                Some(p) => assert_eq!(map.stairs, p),
                None => assert_eq!(map.room_at(map.stairs), None),
            }
        }
    }
    // Everything walkable is reached from the start.
    let (seen, walkable) = reach(map, map.start);
    let reached = seen.iter().filter(|s| **s).count();
    assert_eq!(reached, walkable, "every walkable tile is reached from the start:\n{}", map.picture().join("\n"));
    // The outermost ring is rock or wall, never walkable.
    for p in (0..w).flat_map(|x| [Pos::new(x, 0), Pos::new(x, h - 1)]).chain((0..h).flat_map(|y| [Pos::new(0, y), Pos::new(w - 1, y)])) {
        assert!(!map.tile(p).walkable(), "{p} on the edge");
    }
}

/// Builds a floor twice with one seed: the same map, tile for tile; then checks it.
fn build_and_check(grids: &[Grid], seed: u64) -> FloorMap {
    let map = build(grids, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let again = build(grids, seed).expect("as before");
    assert_eq!(map, again, "seed {seed}: same seed, same map");
    assert_eq!(map.picture().concat().into_bytes(), again.picture().concat().into_bytes());
    let mut rng = Rng::seeded(seed);
    let mut order: Vec<&Grid> = grids.iter().collect();
    floor::shuffle(&mut order, &mut rng);
    check_map(&map, &order);
    map
}

#[test]
fn every_floor_of_the_core_and_the_examples_lays_out_over_many_seeds() {
    let floors = real_floors();
    assert!(floors.len() >= 6, "the core's floors and the examples' own: {}", floors.len());
    let mut built = 0;
    for (id, grids) in floors.values() {
        if grids.is_empty() {
            assert_eq!(build(grids, 1), Err(LayoutError::NoRooms), "{id}");
            continue;
        }
        let mut maps = Vec::new();
        for seed in 0..SEEDS {
            maps.push(build_and_check(grids, seed).rows());
            built += 1;
        }
        maps.sort();
        maps.dedup();
        assert!(maps.len() > SEEDS as usize / 2, "{id}: seeds give different maps ({} of {SEEDS})", maps.len());
    }
    assert!(built >= 6 * SEEDS as usize);
}

#[test]
fn the_core_floors_fit_a_terminal_to_scroll_over() {
    for (_, (id, grids)) in real_floors() {
        for seed in 0..20 {
            let Ok(map) = build(&grids, seed) else { continue };
            assert!(map.width() <= 120 && map.height() <= 40, "{id}, seed {seed}: {} × {}", map.width(), map.height());
        }
    }
}

fn room(w: usize, h: usize, door: (usize, usize), inside: &[((usize, usize), char)]) -> Grid {
    let mut rows: Vec<Vec<u8>> = (0..h).map(|y| (0..w).map(|x| if x == 0 || y == 0 || x == w - 1 || y == h - 1 { b'#' } else { b'.' }).collect()).collect();
    rows[door.1][door.0] = b'+';
    for ((x, y), c) in inside {
        rows[*y][*x] = *c as u8;
    }
    Grid { rows: rows.into_iter().map(|r| String::from_utf8(r).unwrap()).collect(), row_starts: Vec::new() }
}

#[test]
fn one_room_a_huge_room_and_many_small_rooms_lay_out() {
    let one = vec![grid(&["#####", "#.@l#", "#e..+", "#####"])];
    let huge = room(60, 30, (30, 29), &[((5, 5), '@'), ((50, 20), 'e'), ((10, 25), 'l'), ((40, 3), 'n')]);
    let small: Vec<Grid> = (0..30)
        .map(|i| {
            let (w, h) = (5 + i % 4, 4 + i % 3);
            let door = [(w / 2, 0), (0, h / 2), (w - 1, h / 2), (w / 2, h - 1)][i % 4];
            room(w, h, door, &[((1 + i % 3, 1), ['@', 'e', 'l'][i % 3])])
        })
        .collect();
    let mut with_huge = small[..5].to_vec();
    with_huge.push(huge.clone());
    for seed in 0..SEEDS {
        let m = build_and_check(&one, seed);
        assert!(m.room_at(m.stairs).is_none(), "a lone room's stairs lie in its corridor");
        build_and_check(std::slice::from_ref(&huge), seed);
        build_and_check(&with_huge, seed);
        let many = build_and_check(&small, seed);
        assert!(many.width() * many.height() <= 120 * 60, "30 small rooms stay compact: {} × {}", many.width(), many.height());
    }
}

/// A random room: a walled rectangle with open inside, its glyphs scattered, and one to four doors
/// anywhere on its border (corners too).
fn random_room(rng: &mut Rng) -> Grid {
    let (w, h) = (3 + rng.below(12) as usize, 3 + rng.below(8) as usize);
    let mut rows: Vec<Vec<u8>> = (0..h).map(|y| (0..w).map(|x| if x == 0 || y == 0 || x == w - 1 || y == h - 1 { b'#' } else { b'.' }).collect()).collect();
    for _ in 0..1 + rng.below(4) {
        let (x, y) = match rng.below(4) {
            0 => (rng.below(w as u64) as usize, 0),
            1 => (rng.below(w as u64) as usize, h - 1),
            2 => (0, rng.below(h as u64) as usize),
            _ => (w - 1, rng.below(h as u64) as usize),
        };
        rows[y][x] = b'+';
    }
    for g in [b'@', b'e', b'l', b'n', b'@'] {
        if rng.chance(0.6) {
            rows[1 + rng.below(h as u64 - 2) as usize][1 + rng.below(w as u64 - 2) as usize] = g;
        }
    }
    Grid { rows: rows.into_iter().map(|r| String::from_utf8(r).unwrap()).collect(), row_starts: Vec::new() }
}

#[test]
fn random_floors_lay_out() {
    let mut rng = Rng::seeded(2024);
    for seed in 0..SEEDS {
        let n = 1 + rng.below(12) as usize;
        let grids: Vec<Grid> = (0..n).map(|_| random_room(&mut rng)).collect();
        build_and_check(&grids, seed);
    }
}

#[test]
fn a_short_row_ending_in_a_door_is_a_border_door() {
    let g = grid(&["#####", "#@.+", "#####"]);
    let other = grid(&["#+###", "#..e#", "#####"]);
    for seed in 0..20 {
        let m = build_and_check(&[g.clone(), other.clone()], seed);
        assert_eq!(m.rooms.iter().map(|r| r.exits.len()).sum::<usize>(), 2);
    }
}

#[test]
fn impossible_floors_are_errors_that_draw_nothing() {
    let fine = grid(&["###", "#@+", "###"]);
    let sealed = grid(&["#####", "#.+.#", "#####"]);
    let wide = room(600, 3, (0, 1), &[]);
    let big = room(60, 30, (0, 1), &[]);
    let cases: [(Vec<&Grid>, LayoutError); 4] = [
        (vec![], LayoutError::NoRooms),
        (vec![&fine, &wide], LayoutError::TooLarge { room: Some(1), tiles: 1800 }),
        (vec![&fine, &sealed], LayoutError::NoBorderDoor { room: 1 }),
        (vec![&sealed, &fine], LayoutError::NoBorderDoor { room: 0 }),
    ];
    for (rooms, want) in cases {
        let mut rng = Rng::seeded(5);
        assert_eq!(floor::layout(&rooms, &mut rng), Err(want.clone()));
        assert_eq!(rng, Rng::seeded(5), "{want}: nothing drawn");
        assert!(!want.to_string().is_empty());
    }
    // Each room fits, but not all of them together.
    let mut rng = Rng::seeded(5);
    let too_many = floor::layout(&vec![&big; 600], &mut rng);
    assert!(matches!(too_many, Err(LayoutError::TooLarge { room: None, tiles }) if tiles > floor::MAX_TILES), "{too_many:?}");
    assert_eq!(rng, Rng::seeded(5), "nothing drawn");
}

#[test]
fn sight_is_symmetric_on_built_floors() {
    let floors = real_floors();
    let mut compared = 0usize;
    for (_, (id, grids)) in floors.iter().filter(|(_, (_, g))| !g.is_empty()).take(3) {
        let map = build_and_check(grids, 7);
        let opaque = |p: Pos| map.tile(p).opaque();
        let size = (map.width(), map.height());
        let open: Vec<Pos> = (0..size.1).flat_map(|y| (0..size.0).map(move |x| Pos::new(x, y))).filter(|p| !opaque(*p)).collect();
        let sights: BTreeMap<Pos, fov::Sight> = open.iter().map(|p| (*p, fov::visible(opaque, *p, RADIUS, size))).collect();
        for a in &open {
            assert!(sights[a].contains(*a), "{id}: {a} sees itself");
            for b in sights[a].tiles() {
                assert!(b.distance(*a) <= RADIUS, "{id}: {a} sees {b} beyond the radius");
                if let Some(sb) = sights.get(&b) {
                    assert!(sb.contains(*a), "{id}: {a} sees {b} but not the other way");
                    compared += 1;
                }
            }
        }
        // From the start, no tile of another room is seen through the walls.
        for p in sights[&map.start].tiles() {
            assert!(map.room_at(p).is_none_or(|r| r == 0), "{id}: the start sees into room {:?} at {p}", map.room_at(p));
        }
    }
    assert!(compared > 10_000, "enough pairs compared: {compared}");
}

/// The picture of `core:floor_5` in docs/engine.md, "Floor maps", is a generated block of that
/// page: this test writes it with `UPDATE_EXPECT=1` (`cargo xtask update`).
#[test]
fn the_picture_in_the_docs_is_what_its_seed_builds() {
    // As the game enters it: the shuffle, the first room put in front, the layout.
    let db = Database::load(&Project::with_bundled_core());
    let floor = db.get(Registry::Floors, "core:floor_5").expect("core:floor_5");
    let first_rooms: Vec<&str> = floor.ref_list(field::FIRST_ROOMS).iter().map(|p| p.value.as_str()).collect();
    let mut rooms: Vec<(&str, &Grid)> = floor
        .ref_list(field::PREFABS)
        .iter()
        .map(|p| (p.value.as_str(), db.get(Registry::Prefabs, &p.value).and_then(|e| e.grid()).expect("a grid")))
        .collect();
    let mut rng = Rng::seeded(2);
    floor::shuffle(&mut rooms, &mut rng);
    floor::put_first(&mut rooms, |(p, _)| first_rooms.contains(p));
    let grids: Vec<&Grid> = rooms.iter().map(|(_, g)| *g).collect();
    let map = floor::layout(&grids, &mut rng).expect("core:floor_5 is laid out");
    let mut rows: Vec<String> = map.picture().into_iter().map(|r| r.trim_end().to_string()).collect();
    // The blank rows of the margin are left out of the picture.
    while rows.last().is_some_and(String::is_empty) {
        rows.pop();
    }
    let first = rows.iter().position(|r| !r.is_empty()).unwrap_or(0);
    let rows = &rows[first..];
    assert!(rows.len() > 10 && rows.iter().any(|r| r.contains('>')), "a floor with its stairs: {rows:?}");
    let picture = format!("```text\n{}\n```\n", rows.join("\n"));
    rustkeep_testutil::ensure_block_contents(&repo_root().join("docs/engine.md"), "the floor layout", "core:floor_5, seed 2", &picture);
}

/// A floor's first room: the first accepted room of the shuffled order moves to the front, the
/// rooms before it keep their order behind it, nothing else moves, nothing is drawn; over many
/// shuffles each accepted room comes first about equally often.
#[test]
fn the_first_room_is_the_first_accepted_one_of_the_shuffle() {
    let mut rooms = vec!["a", "b", "c", "d", "e"];
    floor::put_first(&mut rooms, |r| ["c", "e"].contains(r));
    assert_eq!(rooms, ["c", "a", "b", "d", "e"]);
    floor::put_first(&mut rooms, |r| ["c", "e"].contains(r));
    assert_eq!(rooms, ["c", "a", "b", "d", "e"], "already in front: nothing moves");
    floor::put_first(&mut rooms, |r| *r == "x");
    assert_eq!(rooms, ["c", "a", "b", "d", "e"], "none accepted: nothing moves");
    let mut counts: BTreeMap<&str, u32> = BTreeMap::new();
    let mut rng = Rng::seeded(11);
    for _ in 0..6000 {
        let mut order = vec!["a", "b", "c", "d", "e", "f"];
        floor::shuffle(&mut order, &mut rng);
        let before = rng.clone();
        floor::put_first(&mut order, |r| ["b", "d", "f"].contains(r));
        assert_eq!(rng, before, "nothing is drawn");
        *counts.entry(order[0]).or_default() += 1;
    }
    assert_eq!(counts.keys().copied().collect::<Vec<_>>(), ["b", "d", "f"]);
    assert!(counts.values().all(|n| (1800..=2200).contains(n)), "each about a third: {counts:?}");
}

/// Tiles of a prefab that no border door leads to are sealed: wall on the floor, their glyphs
/// not placed, and the start and the stairs on tiles that can be reached.
#[test]
fn sealed_pockets_become_wall() {
    let pocket = grid(&["#######", "#@e#.l#", "#..####", "#+#####"]);
    let sealed_start = grid(&["########", "#@.#...+", "########"]);
    for seed in 0..30 {
        let m = build_and_check(&[pocket.clone(), sealed_start.clone()], seed);
        let p = m.rooms.iter().find(|r| r.width == 7).expect("the pocket room");
        assert_eq!(m.tile(Pos::new(p.origin.x + 4, p.origin.y + 1)), Tile::Wall, "the sealed floor");
        assert!(p.piles.is_empty(), "the sealed pile is not placed");
        assert_eq!(p.enemies, [Pos::new(p.origin.x + 2, p.origin.y + 1)], "the open `e` is");
        let s = m.rooms.iter().find(|r| r.width == 8).expect("the other room");
        assert!(s.entries.is_empty(), "its `@` is sealed");
        assert_ne!(m.start, Pos::new(s.origin.x + 1, s.origin.y + 1));
    }
}

/// A hand-made floor of two rooms (a hall with a pile and a guard post with a creature and an
/// NPC), built with one seed: its picture is the committed golden, tile for tile.
#[test]
fn a_hand_made_two_room_floor_for_one_seed() {
    let hall = grid(&["#######", "#@..l.#", "#.....+", "###+###"]);
    let post = grid(&["+####", "#.e.#", "#n.@#", "#####"]);
    let map = build_and_check(&[hall, post], 3);
    let mut text = format!(
        "{} × {}, rooms at {} and {}, start {}, stairs {}\n",
        map.width(),
        map.height(),
        map.rooms[0].origin,
        map.rooms[1].origin,
        map.start,
        map.stairs
    );
    for row in map.picture() {
        text.push_str(row.trim_end());
        text.push('\n');
    }
    rustkeep_testutil::ensure_file_contents(&repo_root().join("crates/rustkeep-engine/tests/floors/two_room_floor.txt"), &text);
}
