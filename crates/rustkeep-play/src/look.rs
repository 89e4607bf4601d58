//! How creatures, NPCs and items look on the map: their `glyph` and `color` (docs/play.md,
//! "The map"), else the defaults the vocabulary gives. Display only: nothing here changes a rule.

use rustkeep_data::vocab::{self, field, Registry};
use rustkeep_engine::game::World;

use crate::narrate::entry_name;

/// A glyph and the colour it is drawn in (a colour name of the vocabulary or `#rrggbb`); `None`
/// for an enemy without `color`, drawn by its health.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Look {
    /// The character on the map.
    pub glyph: char,
    /// The colour, as written in the data.
    pub color: Option<String>,
}

fn written(w: &World, registry: Registry, id: &str) -> (Option<char>, Option<String>) {
    let e = w.entry(registry, id);
    let glyph = e.and_then(|e| e.str(field::GLYPH)).and_then(vocab::glyph_of);
    let color = e.and_then(|e| e.str(field::COLOR)).filter(|c| vocab::is_color(c)).map(str::to_string);
    (glyph, color)
}

/// A creature: its `glyph`, else the lower-case first letter of its name; its `color`, else none.
pub fn creature(w: &World, id: &str) -> Look {
    let (glyph, color) = written(w, Registry::Creatures, id);
    Look { glyph: glyph.unwrap_or_else(|| vocab::default_creature_glyph(&entry_name(w, Registry::Creatures, id))), color }
}

/// An NPC: its `glyph`, else the upper-case first letter of its name; its `color`, else cyan.
pub fn npc(w: &World, id: &str) -> Look {
    let (glyph, color) = written(w, Registry::Npcs, id);
    Look {
        glyph: glyph.unwrap_or_else(|| vocab::default_npc_glyph(&entry_name(w, Registry::Npcs, id))),
        color: Some(color.unwrap_or_else(|| vocab::DEFAULT_NPC_COLOR.to_string())),
    }
}

/// An item lying on the ground: its `glyph`, else `%`; its `color`, else magenta.
pub fn item(w: &World, id: &str) -> Look {
    let (glyph, color) = written(w, Registry::Items, id);
    Look {
        glyph: glyph.or_else(|| vocab::DEFAULT_ITEM_GLYPH.chars().next()).unwrap_or('%'),
        color: Some(color.unwrap_or_else(|| vocab::DEFAULT_ITEM_COLOR.to_string())),
    }
}
