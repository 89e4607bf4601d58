//! Display data: the `glyph` and `color` of creatures, NPCs and items, how the game draws them on
//! the map. They change no rule of the engine.

use unicode_width::UnicodeWidthChar;

use super::color;

const NO_CELL: &str = "it takes no cell on the map: a control character or a combining mark cannot be drawn alone";

/// The sixteen colour names of `color`, the ANSI terminal colours (SGR 30–37 and 90–97). The
/// game draws them with ratatui's colours of the same place: `white` is ratatui's `Gray`,
/// `bright_black` its `DarkGray`, `bright_white` its `White`, `bright_red` its `LightRed`, and so
/// on. The terminal's palette decides the exact shade.
pub const COLORS: &[(&str, &str)] = &[
    (color::BLACK, "ANSI 30 (ratatui `Black`)."),
    (color::RED, "ANSI 31 (ratatui `Red`)."),
    (color::GREEN, "ANSI 32 (ratatui `Green`)."),
    (color::YELLOW, "ANSI 33 (ratatui `Yellow`)."),
    (color::BLUE, "ANSI 34 (ratatui `Blue`)."),
    (color::MAGENTA, "ANSI 35 (ratatui `Magenta`)."),
    (color::CYAN, "ANSI 36 (ratatui `Cyan`)."),
    (color::WHITE, "ANSI 37, a light grey on most terminals (ratatui `Gray`)."),
    (color::BRIGHT_BLACK, "ANSI 90, a dark grey (ratatui `DarkGray`)."),
    (color::BRIGHT_RED, "ANSI 91 (ratatui `LightRed`)."),
    (color::BRIGHT_GREEN, "ANSI 92 (ratatui `LightGreen`)."),
    (color::BRIGHT_YELLOW, "ANSI 93 (ratatui `LightYellow`)."),
    (color::BRIGHT_BLUE, "ANSI 94 (ratatui `LightBlue`)."),
    (color::BRIGHT_MAGENTA, "ANSI 95 (ratatui `LightMagenta`)."),
    (color::BRIGHT_CYAN, "ANSI 96 (ratatui `LightCyan`)."),
    (color::BRIGHT_WHITE, "ANSI 97, pure white (ratatui `White`)."),
];

/// A `color` written as a hex triple, `#rrggbb`, as a regular expression (the JSON Schema's).
pub const HEX_COLOR_PATTERN: &str = "^#[0-9a-fA-F]{6}$";

/// Whether a string is one of the sixteen colour names.
pub fn is_color_name(s: &str) -> bool {
    COLORS.iter().any(|(c, _)| *c == s)
}

/// The red, green and blue of a `#rrggbb` colour (either case of hex digits).
pub fn hex_color(s: &str) -> Option<(u8, u8, u8)> {
    let hex = s.strip_prefix('#')?;
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let part = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some((part(0)?, part(2)?, part(4)?))
}

/// Whether a string is a valid `color`: a colour name or `#rrggbb`.
pub fn is_color(s: &str) -> bool {
    is_color_name(s) || hex_color(s).is_some()
}

/// The glyphs of the drawn map that no creature, NPC or item may take: the player and the tiles
/// a room is made of. A creature drawn as `#` would look like a wall.
pub const RESERVED_GLYPHS: &[(char, &str)] =
    &[('@', "you, the player"), ('#', "a wall"), ('.', "floor"), ('+', "a door"), ('*', "a loot pile not yet rolled"), ('>', "the stairs down")];

/// What an item lying on the ground looks like when it has no `glyph`.
pub const DEFAULT_ITEM_GLYPH: &str = "%";
/// The colour of an item on the ground without `color`.
pub const DEFAULT_ITEM_COLOR: &str = color::MAGENTA;
/// The colour of an NPC without `color`.
pub const DEFAULT_NPC_COLOR: &str = color::CYAN;

/// Why a string is not a valid `glyph`, or `None` when it is: exactly one character (one Unicode
/// scalar value) that takes one cell of the map — printable, not white space, no combining mark,
/// not wide like an emoji — and not one of the [`RESERVED_GLYPHS`].
pub fn glyph_problem(s: &str) -> Option<String> {
    let mut chars = s.chars();
    let Some(c) = chars.next() else { return Some("it is empty; a glyph is exactly one character".into()) };
    if chars.next().is_some() {
        return Some(format!("it has {} characters; a glyph is exactly one character", s.chars().count()));
    }
    if c.is_whitespace() {
        return Some("white space cannot be seen on the map".into());
    }
    // The cells a terminal gives the character, by the Unicode tables (East Asian Width, emoji
    // presentation, zero-width marks) that ratatui draws the map with.
    let cells = if c.is_control() { None } else { c.width() };
    match cells {
        None | Some(0) => return Some(NO_CELL.into()),
        Some(1) => {}
        Some(_) => return Some("it takes two cells on the map (a wide character or an emoji); a glyph takes one".into()),
    }
    if let Some((_, what)) = RESERVED_GLYPHS.iter().find(|(g, _)| *g == c) {
        return Some(format!("`{c}` is reserved for {what} on the map"));
    }
    None
}

/// A glyph's character, when it is valid.
pub fn glyph_of(s: &str) -> Option<char> {
    glyph_problem(s).is_none().then(|| s.chars().next()).flatten()
}

/// The glyph of a creature without `glyph`: the lower-case first letter of its name (`e` when the
/// name has no letter).
pub fn default_creature_glyph(name: &str) -> char {
    name.chars().find(|c| c.is_alphabetic()).and_then(|c| c.to_lowercase().next()).unwrap_or('e')
}

/// The glyph of an NPC without `glyph`: the upper-case first letter of its name (`N` when the
/// name has no letter).
pub fn default_npc_glyph(name: &str) -> char {
    name.chars().find(|c| c.is_alphabetic()).and_then(|c| c.to_uppercase().next()).unwrap_or('N')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_colours_one_row_each() {
        assert_eq!(COLORS.len(), 16);
        assert_eq!(COLORS.iter().map(|c| c.0).collect::<Vec<_>>(), color::ALL);
    }

    #[test]
    fn hex_colours_are_six_hex_digits() {
        assert_eq!(hex_color("#8a7F70"), Some((0x8a, 0x7f, 0x70)));
        for bad in ["#8a7f7", "#8a7f700", "8a7f70", "#8a7f7g", "#", "#ééé"] {
            assert_eq!(hex_color(bad), None, "{bad}");
        }
        assert!(is_color("bright_red") && is_color("#000000") && !is_color("Red") && !is_color("orange"));
    }

    #[test]
    fn a_glyph_is_one_visible_unreserved_character() {
        for ok in ["r", "R", "!", "é", "ж", "☠"] {
            assert_eq!(glyph_problem(ok), None, "{ok}");
        }
        for bad in ["", "rr", " ", "\t", "\u{7}", "\u{301}", "🐀", "龍", "@", "#", ".", "+", "*", "e\u{301}"] {
            assert!(glyph_problem(bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn defaults_are_the_first_letter_of_the_name() {
        assert_eq!(default_creature_glyph("The Rat King"), 't');
        assert_eq!(default_creature_glyph("42"), 'e');
        assert_eq!(default_npc_glyph("elder Hannelore"), 'E');
        assert_eq!(default_npc_glyph("—"), 'N');
    }
}
