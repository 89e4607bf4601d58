//! Rules about the dungeon that floors and prefabs make: `prefab-npc-mismatch` and
//! `unreachable-prefab-tile` need nothing but the prefab (they run per file, in `rules::local`);
//! `floor-without-exit` follows a floor's `prefabs` to their grids, and
//! `first-room-not-in-prefabs` a floor's `first_rooms` to the prefabs they name (across files):
//! one [`super::Whole`] rule, run again by the language server when what it reads of a changed
//! file ([`view`]) differs.

use std::hash::Hash;

use rustkeep_data::db::Database;
use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::lower::FileFacts;
use rustkeep_data::model::{Entry, Grid, Value};
use rustkeep_data::project::Project;
use rustkeep_data::source::FileId;
use rustkeep_data::vocab::{field, glyph, Registry};

/// What a glyph is, in messages.
fn what(g: u8) -> &'static str {
    match g as char {
        glyph::LOOT_PILE => "loot pile",
        glyph::ENEMY => "enemy",
        glyph::NPC => "NPC",
        glyph::DOOR => "door",
        _ => "tile",
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The per-file rules of one prefab entry.
pub fn run_entry(file: FileId, e: &Entry, out: &mut Vec<Diagnostic>) {
    if e.registry != Registry::Prefabs {
        return;
    }
    let (Some(grid), Some(grid_field)) = (e.grid(), e.field(field::GRID)) else { return };
    let loc = |span: std::ops::Range<usize>| Loc { file, span };

    // `prefab-npc-mismatch`: the i-th `n` is the i-th NPC.
    let glyphs = grid.positions_of(glyph::NPC as u8);
    let npcs_field = e.field(field::NPCS);
    let npcs = match npcs_field.map(|f| &f.value) {
        Some(Value::RefList(l)) => l.len(),
        _ => 0,
    };
    if glyphs.len() != npcs && (npcs_field.is_some() || !glyphs.is_empty()) {
        let msg = format!(
            "the grid has {} but `npcs` names {}: the i-th `n` in reading order is the i-th NPC, so {}",
            plural(glyphs.len(), "`n` glyph", "`n` glyphs"),
            plural(npcs, "NPC", "NPCs"),
            if glyphs.len() > npcs { "the extra `n` tiles stay empty" } else { "the extra NPCs never appear" }
        );
        let span = npcs_field.map(|f| f.span.clone()).unwrap_or(grid_field.span.clone());
        let mut d = Diagnostic::new(Code::PrefabNpcMismatch, loc(span), msg);
        for p in glyphs.iter().skip(npcs) {
            if let Some(s) = grid.glyph_span(*p) {
                d = d.with_related(loc(s), "an `n` without an NPC");
            }
        }
        out.push(d);
    }

    // `unreachable-prefab-tile`: walked from the entry point over everything but walls.
    let unreachable = grid.unreachable_features();
    if !unreachable.is_empty() {
        let listed: Vec<String> = unreachable.iter().map(|(p, g)| format!("the {} at {p}", what(*g))).collect();
        let from = if grid.positions_of(glyph::ENTRY as u8).is_empty() { "its first floor tile (it has no `@`)" } else { "its `@`" };
        let msg = format!(
            "{} of this room cannot be reached from {from} (walking in 8 directions over tiles that are not walls): {}",
            plural(unreachable.len(), "tile", "tiles"),
            listed.join(", ")
        );
        let mut d = Diagnostic::new(Code::UnreachablePrefabTile, loc(grid_field.span.clone()), msg);
        for (p, g) in &unreachable {
            if let Some(s) = grid.glyph_span(*p) {
                d = d.with_related(loc(s), format!("this {} cannot be reached", what(*g)));
            }
        }
        out.push(d);
    }
}

/// Whether a grid has a door on its border (first or last row, first or last column): only such a
/// door is where the floor's corridors join the room; a `+` inside is an ordinary door between two parts of it.
fn has_border_door(grid: &Grid) -> bool {
    // A row's own length marks its last column, so a ragged grid (reported on its own) is read as
    // its rows say.
    let last_col = |y: i32| grid.rows.get(y as usize).map_or(0, |r| r.len() as i32 - 1);
    grid.positions_of(glyph::DOOR as u8).iter().any(|p| p.x == 0 || p.y == 0 || p.y == grid.height() - 1 || p.x == last_col(p.y))
}

/// The cross-file rules, for the batch check and the language server.
pub const RULE: super::Whole = super::Whole { name: "floor-without-exit", absence: false, run, view: |ff| super::view_hash(|h| view(ff).hash(h)) };

/// `floor-without-exit`: every floor's `prefabs` entry whose prefab (the entry in force) has no
/// door on its border; `first-room-not-in-prefabs`: every entry of a floor's `first_rooms` that
/// names a prefab the floor's `prefabs` do not list.
pub fn run(_project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    let Some(floors) = db.resolved.defs.get(Registry::Floors.index()) else { return };
    let mut ids: Vec<&String> = floors.keys().collect();
    ids.sort();
    for id in ids {
        let def = &floors[id];
        let floor = db.entry(def.current);
        first_rooms(db, def.current.file, floor, out);
        for r in floor.ref_list(field::PREFABS) {
            let Some(pdef) = db.resolved.get(Registry::Prefabs, &r.value) else { continue };
            let prefab = db.entry(pdef.current);
            let Some(grid) = prefab.grid() else { continue };
            if has_border_door(grid) {
                continue;
            }
            let inner = !grid.positions_of(glyph::DOOR as u8).is_empty();
            let msg = format!(
                "the prefab `{}` has no door (`+`) on its border{}: a border door is the only way out of a room, so a run of the floor `{id}` that enters it cannot go on",
                r.value,
                if inner { " (its doors inside lead only between parts of the room)" } else { "" }
            );
            let mut d = Diagnostic::new(Code::FloorWithoutExit, Loc { file: def.current.file, span: r.span.clone() }, msg);
            if let Some(g) = prefab.field(field::GRID) {
                d = d.with_related(Loc { file: pdef.current.file, span: g.span.clone() }, "its grid, without a `+` on the border");
            }
            out.push(d);
        }
    }
}

/// `first-room-not-in-prefabs`: the first room of a floor is drawn from its `first_rooms` among
/// the rooms it is built from, so a prefab of `first_rooms` that its `prefabs` do not list is
/// never its first room. A name that is no prefab is left to the reference rules
/// (`unknown-reference`, `reference-kind-mismatch`): one mistake, one diagnostic.
fn first_rooms(db: &Database, file: FileId, floor: &Entry, out: &mut Vec<Diagnostic>) {
    let first = floor.ref_list(field::FIRST_ROOMS);
    if first.is_empty() {
        return;
    }
    let prefabs = floor.ref_list(field::PREFABS);
    let listed = floor.field(field::PREFABS);
    for r in first {
        if prefabs.iter().any(|p| p.value == r.value) || db.resolved.get(Registry::Prefabs, &r.value).is_none() {
            continue;
        }
        let has = if listed.is_some() { "" } else { " (it has none)" };
        let msg = format!(
            "the prefab `{}` is not in this floor's `prefabs`{has}: the first room is drawn from `first_rooms` among the rooms the floor is built from, so it is never the first room",
            r.value
        );
        let mut d = Diagnostic::new(Code::FirstRoomNotInPrefabs, Loc { file, span: r.span.clone() }, msg);
        if let Some(f) = listed {
            d = d.with_related(Loc { file, span: f.span.clone() }, "the rooms this floor is built from");
        }
        out.push(d);
    }
}

/// One entry as the cross-file rules read it: registry, `id`, `overrides`; a floor's `prefabs`
/// (whether it has the field) and `first_rooms`; a prefab's doors (on the border, inside).
type View<'a> = (Registry, Option<&'a str>, Option<&'a str>, Option<Vec<&'a str>>, Vec<&'a str>, Option<(bool, bool)>);

/// What the cross-file rules read of one file: its floors and prefabs.
fn view(ff: &FileFacts) -> Vec<View<'_>> {
    ff.entries
        .iter()
        .filter(|e| matches!(e.registry, Registry::Floors | Registry::Prefabs))
        .map(|e| {
            let (id, overrides) = (e.id.as_ref().map(|i| i.value.as_str()), e.overrides.as_ref().map(|o| o.value.as_str()));
            if e.registry == Registry::Floors {
                let prefabs = e.field(field::PREFABS).map(|_| names(e, field::PREFABS));
                (e.registry, id, overrides, prefabs, names(e, field::FIRST_ROOMS), None)
            } else {
                let doors = e.grid().map(|g| (has_border_door(g), !g.positions_of(glyph::DOOR as u8).is_empty()));
                (e.registry, id, overrides, None, Vec::new(), doors)
            }
        })
        .collect()
}

/// The IDs a list field of an entry names.
fn names<'a>(e: &'a Entry, f: &str) -> Vec<&'a str> {
    e.ref_list(f).iter().map(|r| r.value.as_str()).collect()
}
