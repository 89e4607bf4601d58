//! A short real game ([`SHORT_GAME`]) and structured edits of the floor map a save holds, for the
//! fuzz targets (fuzz/) and the hostile tests of this crate. Each edit changes one part of the
//! map — a position, a tile, a room's rectangle, a resident's room, the remembered tiles, the room
//! the player is in — or turns the save into one of version 2, so that the reading of saves meets
//! maps that are wrong in one place rather than bytes that are not JSON. Built only for those two
//! (the `fuzzing` feature, and tests).

use serde_json::{json, Value};

/// A short game on the core as command lines, from a new game of `core:warrior` with seed 3: a
/// room with piles, an NPC and enemies, gold given, a trade, spawned rats, a fight, a move. Two
/// moves north bring the player from the elders' hall's `@` next to the elder, whom `talk` reaches
/// only there.
pub const SHORT_GAME: &[&str] = &[
    "enter core:elders_hall",
    "give core:gold 50",
    "move n",
    "move n",
    "talk core:elder",
    "buy 1",
    "leave",
    "spawn core:rat 2",
    "attack enemy:0",
    "wait",
    "move s",
];

/// The choices of an edit, read one byte at a time (0 once they run out).
struct Choices<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Choices<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn more(&self) -> bool {
        self.at < self.bytes.len()
    }

    /// A coordinate or size: mostly small (−2 to 61), sometimes at the ends of the range.
    fn coord(&mut self) -> i64 {
        match self.byte() {
            250 => i64::from(i32::MAX),
            251 => i64::from(i32::MIN),
            252 => -1,
            253 => 1 << 40,
            b => i64::from(b % 64) - 2,
        }
    }

    fn pick<'b, T>(&mut self, from: &'b [T]) -> &'b T {
        &from[self.byte() as usize % from.len()]
    }
}

/// The tiles an edit writes: the five of a map, and two that are none.
const TILES: [&str; 7] = [" ", "#", ".", "+", ">", "x", "é"];

fn pos(c: &mut Choices) -> Value {
    json!({ "x": c.coord(), "y": c.coord() })
}

/// Applies the edits `choices` describes to the map of a save (JSON text) and returns the edited
/// text; a save without a map is returned as it is.
pub fn edit_map(save: &str, choices: &[u8]) -> String {
    let Ok(mut v) = serde_json::from_str::<Value>(save) else { return save.to_string() };
    if v.pointer("/game/dungeon/map").is_none() {
        return save.to_string();
    }
    let mut c = Choices { bytes: choices, at: 0 };
    while c.more() {
        let kind = c.byte() % 14;
        let m = &mut v["game"]["dungeon"]["map"];
        match kind {
            0 => m["player"] = pos(&mut c),
            1 => {
                let k = (c.byte() % 6).to_string();
                m["enemies"][k] = pos(&mut c);
            }
            2 => {
                let k = (c.byte() % 6).to_string();
                m["homes"][k] = json!(c.coord());
            }
            3 | 4 => {
                let rows = m["rows"].as_array().map_or(0, Vec::len).max(1);
                let y = c.byte() as usize % rows;
                let x = c.byte() as usize;
                let tile = *c.pick(&TILES);
                if let Some(row) = m["rows"].get_mut(y).and_then(|r| r.as_str().map(str::to_string)) {
                    let mut chars: Vec<char> = row.chars().collect();
                    if kind == 3 && !chars.is_empty() {
                        let at = x % chars.len();
                        chars[at] = tile.chars().next().unwrap_or(' ');
                    } else if x.is_multiple_of(2) {
                        chars.truncate(x % (chars.len() + 1));
                    } else {
                        chars.push('#');
                    }
                    m["rows"][y] = json!(chars.into_iter().collect::<String>());
                }
            }
            5 => {
                let n = m["rooms"].as_array().map_or(0, Vec::len).max(1);
                let i = c.byte() as usize % n;
                let (field, value) = match c.byte() % 5 {
                    0 => ("origin", pos(&mut c)),
                    1 => ("width", json!(c.coord())),
                    2 => ("height", json!(c.coord())),
                    3 => ("entered", json!(c.byte().is_multiple_of(2))),
                    _ => ("prefab", json!(*c.pick(&["core:rat_den", "core:gone", ""]))),
                };
                if let Some(room) = m["rooms"].get_mut(i) {
                    room[field] = value;
                }
            }
            6 => {
                let runs: Vec<i64> = (0..c.byte() % 8).map(|_| c.coord().max(0)).collect();
                m["seen"] = json!(runs);
            }
            7 => v["game"]["dungeon"]["room"] = if c.byte().is_multiple_of(3) { Value::Null } else { json!(c.coord()) },
            8 => {
                let list = *c.pick(&["piles", "loot", "npcs"]);
                let i = c.byte() as usize % 4;
                if let Some(e) = m[list].get_mut(i) {
                    e["pos"] = pos(&mut c);
                }
            }
            9 => {
                if let Some(rooms) = m["rooms"].as_array_mut() {
                    if c.byte().is_multiple_of(2) {
                        rooms.pop();
                    } else if let Some(first) = rooms.first().cloned() {
                        rooms.push(first);
                    }
                }
            }
            10 => v["game"]["dungeon"]["floor"] = json!(c.coord()),
            11 => {
                // The same state as a save of version 2: the first room's rectangle of tiles,
                // everyone where they stood inside it.
                let m = m.clone();
                let d = &mut v["game"]["dungeon"];
                let room = m["rooms"][0].clone();
                let (ox, oy) = (room["origin"]["x"].as_i64().unwrap_or(0), room["origin"]["y"].as_i64().unwrap_or(0));
                let (w, h) = (room["width"].as_i64().unwrap_or(0).clamp(0, 64), room["height"].as_i64().unwrap_or(0).clamp(0, 64));
                let rows: Vec<String> = (0..h)
                    .map(|y| {
                        let row = m["rows"].get((oy + y).max(0) as usize).and_then(Value::as_str).unwrap_or("");
                        row.chars().skip(ox.max(0) as usize).take(w as usize).collect()
                    })
                    .collect();
                let shift = |p: &Value| json!({ "x": p["x"].as_i64().unwrap_or(0) - ox, "y": p["y"].as_i64().unwrap_or(0) - oy });
                let enemies: serde_json::Map<String, Value> =
                    m["enemies"].as_object().map(|e| e.iter().map(|(k, p)| (k.clone(), shift(p))).collect()).unwrap_or_default();
                let old = json!({
                    "floors": d["floors"].clone(),
                    "floor": d["floor"].clone(),
                    "rooms": [room["prefab"].clone()],
                    "room": 0,
                    "map": {
                        "prefab": room["prefab"].clone(),
                        "rows": rows,
                        "player": shift(&m["player"]),
                        "enemies": enemies,
                        "npcs": [],
                        "piles": [],
                        "loot": []
                    }
                });
                *d = old;
                v["version"] = json!(2);
            }
            12 => {
                if let Some(enemies) = v["game"]["enemies"].as_array_mut() {
                    enemies.pop();
                }
            }
            _ => {
                let i = c.byte() as usize % 4;
                if let Some(e) = v["game"]["enemies"].get_mut(i) {
                    let resident = e["resident"].as_bool().unwrap_or(false);
                    e["resident"] = json!(!resident);
                }
            }
        }
    }
    serde_json::to_string_pretty(&v).unwrap_or_default()
}
