//! Saves for `rustkeep play` (docs/engine.md, "Saves"): the full state as JSON — the generator's state as hex,
//! quest progress, the floor map with its rooms, residents, unrolled piles and remembered tiles —
//! so that loading never re-rolls what was already rolled. Written atomically (a temporary file in the same folder, then a
//! rename), so a crash never leaves half a save behind.
//!
//! Loading checks the save against the data in force: progress for a quest ID that no longer
//! exists is dropped with a warning, and so is anything else whose ID vanished (an
//! item, affix, status, option or enemy), so a removed mod never breaks a save.

use std::collections::BTreeMap;
use std::path::Path;

use rustkeep_data::grid::Pos;
use rustkeep_data::vocab::{glyph, Registry, MAX_LIVING_ENEMIES};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::floor::{MARGIN, MAX_SIDE, MAX_TILES, STAIRS};
use crate::game::{Dungeon, Game, World};
use crate::map::{Dropped, Map, MapRoom, NpcSpot, Pile, ROCK};

const FORMAT: &str = "rustkeep-save";
/// Version 3 holds the floor as one map (tiles, rooms, residents, remembered tiles). Version 2
/// saves (one room at a time) load with their room as a one-room floor; version 1 saves (dry runs
/// without a map) load into no room.
pub const VERSION: u32 = 3;
const OLDEST: u32 = 1;

/// A save of `rustkeep play`: the whole state of a run between two turns.
#[derive(Serialize, Deserialize, schemars::JsonSchema)]
pub struct SaveFile {
    /// Always `rustkeep-save`.
    #[schemars(extend("const" = "rustkeep-save"))]
    format: String,
    /// The save format's version; older versions still load.
    version: u32,
    /// The state of the run.
    game: Game,
}

/// The save as JSON text.
pub fn to_json(g: &Game) -> String {
    let f = SaveFile { format: FORMAT.into(), version: VERSION, game: g.clone() };
    let mut s = serde_json::to_string_pretty(&f).unwrap_or_default();
    s.push('\n');
    s
}

/// Writes a save atomically (through a temporary file beside it), never through a symbolic link
/// (docs/reliability.md, "Files and folders").
pub fn write(path: &Path, g: &Game) -> Result<(), String> {
    let text = to_json(g);
    if path.file_name().is_none() {
        return Err(format!("{} is not a file path", path.display()));
    }
    rustkeep_data::files::write_file_then(path, text.as_bytes(), crash_hook).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Test hook for the crash-safety tests (`crates/rustkeep-cli/tests/play_saves.rs`): with
/// `RUSTKEEP_TEST_CRASH_BEFORE_RENAME` set, the process dies the way a power cut would, after the
/// temporary file is written (its first half only when the variable is `partial`) and before the
/// rename. Nothing else reads the variable, and only builds with the `test-hooks` feature (the
/// command line's tests) read it at all.
#[cfg(not(feature = "test-hooks"))]
fn crash_hook(_tmp: &Path) {}

#[cfg(feature = "test-hooks")]
fn crash_hook(tmp: &Path) {
    match std::env::var("RUSTKEEP_TEST_CRASH_BEFORE_RENAME").as_deref() {
        Ok("partial") => {
            if let Ok(bytes) = std::fs::read(tmp) {
                let _ = std::fs::write(tmp, &bytes[..bytes.len() / 2]);
            }
            std::process::abort();
        }
        Ok(_) => std::process::abort(),
        Err(_) => {}
    }
}

/// Reads a save; the game is returned only if the whole file is valid.
pub fn read(path: &Path, w: &World) -> Result<(Game, Vec<String>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    from_json(&text, w).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses a save and reconciles it with the data in force; returns the warnings.
pub fn from_json(text: &str, w: &World) -> Result<(Game, Vec<String>), String> {
    let mut json: Json = serde_json::from_str(text).map_err(|e| format!("not a valid save: {e}"))?;
    if json.get("version").and_then(Json::as_u64) == Some(2) {
        if let Some(d) = json.pointer_mut("/game/dungeon").filter(|d| !d.is_null()) {
            let old: DungeonV2 = serde_json::from_value(d.take()).map_err(|e| format!("not a valid save: {e}"))?;
            *d = serde_json::to_value(old.into_floor()).map_err(|e| format!("not a valid save: {e}"))?;
        }
    }
    let f: SaveFile = serde_json::from_value(json).map_err(|e| format!("not a valid save: {e}"))?;
    if f.format != FORMAT {
        return Err(format!("not a rustkeep save (format `{}`)", f.format));
    }
    if !(OLDEST..=VERSION).contains(&f.version) {
        return Err(format!("save version {} is not supported (this build reads versions {OLDEST} to {VERSION})", f.version));
    }
    let mut g = f.game;
    // Health never goes below 0: a save saying otherwise was edited or damaged.
    // (Found by the crash-safety tests of `play`, which loaded a player at -30 health.)
    if let Some((who, h)) = std::iter::once(("player".to_string(), g.player.health))
        .chain(g.enemies.iter().map(|e| (format!("enemy:{}", e.index), e.body.health)))
        .find(|(_, h)| *h < 0)
    {
        return Err(format!("not a valid save: {who} has health {h}, below 0"));
    }
    // A round ends when no enemy has a whole turn of energy left, so a save holds less than one;
    // more would let an edited save give an enemy billions of turns.
    if let Some(e) = g.enemies.iter().find(|e| !(0.0..1.0).contains(&e.energy)) {
        return Err(format!("not a valid save: enemy:{} has {} turns of energy, not between 0 and 1", e.index, e.energy));
    }
    if let Some(d) = &g.dungeon {
        check_dungeon(d).map_err(|e| format!("not a valid save: {e}"))?;
    }
    // The engine finds enemies by their ref in a list kept in ref order; refs are never reused,
    // so each is below the next one to be given.
    g.enemies.sort_by_key(|e| e.index);
    if let Some(pair) = g.enemies.windows(2).find(|p| p[0].index == p[1].index) {
        return Err(format!("not a valid save: enemy:{} appears twice", pair[0].index));
    }
    if let Some(e) = g.enemies.last().filter(|e| e.index >= g.next_enemy) {
        return Err(format!("not a valid save: enemy:{} is not below the next enemy's ref, enemy:{}", e.index, g.next_enemy));
    }
    if g.enemies.len() > MAX_LIVING_ENEMIES {
        return Err(format!("not a valid save: {} enemies, more than the {MAX_LIVING_ENEMIES} a game holds", g.enemies.len()));
    }
    let mut warnings = Vec::new();
    g.quests.retain_mut(|q| {
        if let Some(r) = w.db.resolved.renamed_in(Registry::Quests, &q.quest) {
            warnings.push(format!("quest {} was renamed to {}; its progress is kept under the new ID", q.quest, r.to));
            q.quest = r.to.clone();
        }
        let keep = w.exists(Registry::Quests, &q.quest);
        if !keep {
            warnings.push(format!("quest {} no longer exists; its progress ({} counted{}) is dropped", q.quest, q.count, if q.done { ", done" } else { "" }));
        }
        keep
    });
    let mut bodies: Vec<(String, &mut crate::game::Creature)> = vec![("player".into(), &mut g.player)];
    for e in g.enemies.iter_mut() {
        bodies.push((format!("enemy:{}", e.index), &mut e.body));
    }
    for (who, c) in bodies {
        c.options.retain_mut(|o| keep(w, Registry::CharacterOptions, o, &who, "character option", &mut warnings));
        c.statuses.retain_mut(|s| keep(w, Registry::Statuses, &mut s.status, &who, "status", &mut warnings));
        c.inventory.retain_mut(|i| keep(w, Registry::Items, &mut i.item, &who, "item", &mut warnings));
        for i in c.inventory.iter_mut() {
            i.affixes.retain_mut(|a| keep(w, Registry::Affixes, a, &who, "affix", &mut warnings));
        }
    }
    g.enemies.retain_mut(|e| {
        let who = format!("enemy:{}", e.index);
        let Some(c) = &mut e.body.creature else { return true };
        if renamed(w, Registry::Creatures, c, &who, "creature", &mut warnings) || w.exists(Registry::Creatures, c) {
            return true;
        }
        warnings.push(format!("creature {c} ({who}) no longer exists; it is removed"));
        false
    });
    g.floor_loot.retain_mut(|i| keep(w, Registry::Items, &mut i.item, "floor", "item", &mut warnings));
    g.piles.retain_mut(|t| keep(w, Registry::LootTables, t, "room", "loot table", &mut warnings));
    if let Some(mut f) = g.floor.take() {
        if keep(w, Registry::Floors, &mut f, "the game", "floor", &mut warnings) {
            g.floor = Some(f);
        }
    }
    if let Some(mut r) = g.room.take() {
        if keep(w, Registry::Prefabs, &mut r, "the game", "prefab", &mut warnings) {
            g.room = Some(r);
        }
    }
    // A shop's stock is kept under the shop's ID in force.
    for (mut shop, mut stock) in std::mem::take(&mut g.shops) {
        if !keep(w, Registry::Shops, &mut shop, "the game", "shop", &mut warnings) {
            continue;
        }
        stock.retain_mut(|i| keep(w, Registry::Items, &mut i.item, &shop, "item", &mut warnings));
        g.shops.entry(shop).or_default().extend(stock);
    }
    if let Some(shop) = &mut g.open_shop {
        if let Some(r) = w.db.resolved.renamed_in(Registry::Shops, shop) {
            *shop = r.to.clone();
        }
    }
    if let Some(d) = &mut g.dungeon {
        let where_ = "the floor";
        d.map.loot.retain_mut(|l| keep(w, Registry::Items, &mut l.item.item, where_, "item", &mut warnings));
        d.map.npcs.retain_mut(|n| keep(w, Registry::Npcs, &mut n.npc, where_, "NPC", &mut warnings));
        d.map.piles.retain_mut(|p| p.table.as_mut().is_none_or(|t| keep(w, Registry::LootTables, t, where_, "loot table", &mut warnings)));
        // In ref order: the enemies were sorted above.
        let alive: Vec<usize> = g.enemies.iter().map(|e| e.index).collect();
        d.map.retain_enemies(|i, _| alive.binary_search(&i).is_ok());
        d.map.homes.retain(|i, _| alive.binary_search(i).is_ok());
        // A room whose prefab vanished keeps its tiles (they are in the save) but no longer
        // raises `room_entered`.
        for r in d.map.rooms.iter_mut() {
            if r.prefab.as_mut().is_some_and(|p| !keep(w, Registry::Prefabs, p, where_, "prefab", &mut warnings)) {
                r.prefab = None;
            }
        }
        // Floors still to come: the ones that vanished are skipped.
        let floor = d.floor;
        let mut k = 0;
        d.floors.retain_mut(|f| {
            k += 1;
            if k - 1 <= floor {
                // Floors behind the player and the one it is on stay, under their IDs in force.
                renamed(w, Registry::Floors, f, "the dungeon", "floor", &mut warnings);
                return true;
            }
            keep(w, Registry::Floors, f, "the dungeon", "floor", &mut warnings)
        });
    }
    g.warnings.extend(warnings.iter().cloned());
    Ok((g, warnings))
}

/// The dungeon of a save must be one the game could have made: its floor among its floors, a
/// rectangular map of tiles, its rooms on it, and everyone on it inside it. (Found by the
/// hostile-save tests of `play`: a player outside the map made the way to the nearest door index
/// past the room.)
fn check_dungeon(d: &Dungeon) -> Result<(), String> {
    if d.floor >= d.floors.len() {
        return Err(format!("the dungeon is on floor {} of {}", d.floor.saturating_add(1), d.floors.len()));
    }
    let m = &d.map;
    if let Some(r) = d.room.filter(|r| *r >= m.rooms.len()) {
        return Err(format!("the dungeon is in room {} of {}", r.saturating_add(1), m.rooms.len()));
    }
    let (w, h) = (m.width(), m.height());
    if let Some(y) = m.rows.iter().position(|r| r.len() != m.rows[0].len()) {
        return Err(format!("row {y} of the map is {} wide, row 0 is {}", m.rows[y].len(), m.rows[0].len()));
    }
    let tile = |c: char| [ROCK, glyph::WALL, glyph::FLOOR, glyph::DOOR, STAIRS].contains(&c);
    if !m.rows.iter().all(|r| r.chars().all(tile)) || i64::from(w) * i64::from(h) > MAX_TILES as i64 {
        return Err("the map is not a grid of tiles".into());
    }
    if m.seen.len() > (w * h) as usize {
        return Err(format!("{} remembered tiles on a map of {w} × {h}", m.seen.len()));
    }
    let inside = |p: Pos| p.x >= 0 && p.y >= 0 && p.x < w && p.y < h;
    for (i, r) in m.rooms.iter().enumerate() {
        let fits = (0..=MAX_SIDE as i32).contains(&r.width) && (0..=MAX_SIDE as i32).contains(&r.height);
        if !fits || !inside(r.origin) || r.origin.x + r.width > w || r.origin.y + r.height > h {
            return Err(format!("room {i} ({} × {} at {}) does not lie on the map ({w} × {h})", r.width, r.height, r.origin));
        }
    }
    if let Some((i, r)) = m.homes.iter().find(|(_, r)| **r >= m.rooms.len()) {
        return Err(format!("enemy:{i} belongs to room {}, of {}", r.saturating_add(1), m.rooms.len()));
    }
    let mut spots: Vec<(String, Pos)> = vec![("the player".into(), m.player)];
    spots.extend(m.enemies().iter().map(|(i, p)| (format!("enemy:{i}"), *p)));
    let mut stood: Vec<(Pos, usize)> = m.enemies().iter().map(|(i, p)| (*p, *i)).collect();
    stood.sort_unstable_by_key(|(p, _)| (p.y, p.x));
    if let Some(pair) = stood.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!("enemy:{} and enemy:{} both stand at {}", pair[0].1, pair[1].1, pair[0].0));
    }
    spots.extend(m.npcs.iter().map(|n| (n.npc.clone(), n.pos)));
    spots.extend(m.piles.iter().map(|p| ("a loot pile".into(), p.pos)));
    spots.extend(m.loot.iter().map(|l| (l.item.item.clone(), l.pos)));
    match spots.into_iter().find(|(_, p)| !inside(*p)) {
        Some((who, p)) => Err(format!("{who} is at {p}, outside the map ({w} × {h})")),
        None => Ok(()),
    }
}

/// The room a version 2 save was in (one room at a time, its border doors leading on).
#[derive(Deserialize)]
struct RoomV2 {
    prefab: Option<String>,
    rows: Vec<String>,
    player: Pos,
    enemies: BTreeMap<usize, Pos>,
    npcs: Vec<NpcSpot>,
    piles: Vec<Pile>,
    loot: Vec<Dropped>,
}

/// The dungeon of a version 2 save.
#[derive(Deserialize)]
struct DungeonV2 {
    floors: Vec<String>,
    floor: usize,
    map: RoomV2,
}

impl DungeonV2 {
    /// The room as a one-room floor: its tiles inside a margin of rock, everyone where they
    /// stood, the stairs on the tile outside its first border door (in reading order), where the
    /// door led on.
    fn into_floor(self) -> Dungeon {
        let r = self.map;
        let width = r.rows.iter().map(String::len).max().unwrap_or(0);
        let shift = |p: Pos| Pos::new(p.x + MARGIN, p.y + MARGIN);
        let blank = ROCK.to_string().repeat(width + 2 * MARGIN as usize);
        let mut rows: Vec<String> = vec![blank.clone(); MARGIN as usize];
        for row in &r.rows {
            let pad = ROCK.to_string().repeat(MARGIN as usize);
            rows.push(format!("{pad}{row:<width$}{pad}").replace(|c: char| !c.is_ascii(), "#"));
        }
        rows.extend(std::iter::repeat_n(blank, MARGIN as usize));
        let glyph_at = |p: Pos| if p.x < 0 || p.y < 0 { None } else { r.rows.get(p.y as usize)?.as_bytes().get(p.x as usize).copied() };
        let mouth = r.rows.iter().enumerate().find_map(|(y, row)| {
            row.bytes().enumerate().filter(|(_, b)| *b == glyph::DOOR as u8).find_map(|(x, _)| {
                let p = Pos::new(x as i32, y as i32);
                [(0, -1), (1, 0), (0, 1), (-1, 0)].iter().map(|(dx, dy)| Pos::new(p.x + dx, p.y + dy)).find(|q| glyph_at(*q).is_none())
            })
        });
        if let Some(s) = mouth.map(shift) {
            if let Some(row) = rows.get_mut(s.y as usize) {
                row.replace_range(s.x as usize..s.x as usize + 1, &STAIRS.to_string());
            }
        }
        let mut map = Map::of_rows(rows, shift(r.player));
        map.rooms.push(MapRoom { prefab: r.prefab, origin: Pos::new(MARGIN, MARGIN), width: width as i32, height: r.rows.len() as i32, entered: true });
        for (i, p) in r.enemies {
            map.place_enemy(i, shift(p));
        }
        map.homes = map.enemies().keys().map(|i| (*i, 0)).collect();
        map.npcs = r.npcs.into_iter().map(|n| NpcSpot { pos: shift(n.pos), ..n }).collect();
        map.piles = r.piles.into_iter().map(|p| Pile { pos: shift(p.pos), ..p }).collect();
        map.loot = r.loot.into_iter().map(|l| Dropped { pos: shift(l.pos), ..l }).collect();
        map.look();
        let room = map.room_at(map.player);
        Dungeon { floors: self.floors, floor: self.floor, room, map }
    }
}

/// Rewrites the save's `id`, when it is an old ID of `[renamed]`, to the ID it stands for, and
/// says so in `warnings`; whether it did.
fn renamed(w: &World, reg: Registry, id: &mut String, who: &str, noun: &str, warnings: &mut Vec<String>) -> bool {
    let Some(r) = w.db.resolved.renamed_in(reg, id) else { return false };
    warnings.push(format!("{noun} {id} ({who}) was renamed to {}; it is kept under the new ID", r.to));
    *id = r.to.clone();
    true
}

/// Whether the save's `id` is still in force; an old ID of `[renamed]` is rewritten to the ID it
/// stands for (and kept). Both what is renamed and what is dropped are said in `warnings`.
fn keep(w: &World, reg: Registry, id: &mut String, who: &str, noun: &str, warnings: &mut Vec<String>) -> bool {
    if renamed(w, reg, id, who, noun, warnings) {
        return true;
    }
    let ok = w.exists(reg, id);
    if !ok {
        warnings.push(format!("{noun} {id} ({who}) no longer exists; it is dropped"));
    }
    ok
}
