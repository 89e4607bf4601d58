//! The display data of creatures, NPCs and items (`glyph`, `color`): every bad value is one
//! `wrong-type` on the value itself, with a message that says what fits, and a wrong colour name
//! gets the fix of every enumerated name, safe only for a slip of the hand.

use rustkeep_check::analyze;
use rustkeep_data::diag::{Applicability, Code, Diagnostic};
use rustkeep_data::project::Project;

/// The diagnostics of one creature with `line` added, and the line's text.
fn check(registry: &str, line: &str) -> Vec<Diagnostic> {
    let text = format!("[[{registry}]]\nid = \"d:thing\"\nname = \"Thing\"\n{line}\n");
    let mut p = Project::with_bundled_core();
    // A content pack: an entry of it that nothing places or gives is not reported.
    p.add_memory_mod("d", &[("mod.toml", "[mod]\nid = \"d\"\nname = \"Display\"\nversion = \"0.1.0\"\nlibrary = true\n"), ("data.toml", &text)]);
    let a = analyze(&p);
    // An NPC no prefab places is reported as such; that is not about its display data.
    let diags: Vec<Diagnostic> = a.diagnostics.into_iter().filter(|d| d.code != Code::NpcNeverPlaced).collect();
    for d in &diags {
        let f = p.file(d.loc.file);
        let value = line.split_once(" = ").map_or("", |(_, v)| v);
        assert_eq!(&f.text[d.loc.span.clone()], value, "{d:?} sits on the value");
    }
    diags
}

/// The one diagnostic of a bad value.
fn one(registry: &str, line: &str) -> Diagnostic {
    let mut d = check(registry, line);
    assert_eq!(d.len(), 1, "{line}: {d:?}");
    let d = d.remove(0);
    assert_eq!(d.code, Code::WrongType, "{line}");
    d
}

#[test]
fn good_glyphs_and_colours_are_silent() {
    for registry in ["creatures", "npcs", "items"] {
        for line in ["glyph = \"r\"", "glyph = \"Ж\"", "glyph = \"!\"", "color = \"bright_black\"", "color = \"#8a7F70\""] {
            assert!(check(registry, line).is_empty(), "{registry}: {line}");
        }
    }
}

#[test]
fn a_glyph_is_one_character_that_takes_one_cell_and_is_not_reserved() {
    for registry in ["creatures", "npcs", "items"] {
        let d = one(registry, "glyph = \"rr\"");
        assert_eq!(d.message, "\"rr\" is not a valid `glyph`: it has 2 characters; a glyph is exactly one character");
        assert!(d.fix.is_none());
    }
    assert!(one("creatures", "glyph = \"\"").message.contains("it is empty"));
    assert!(one("creatures", "glyph = \" \"").message.contains("white space"));
    assert!(one("creatures", "glyph = \"🐀\"").message.contains("two cells"));
    // Wide and zero-width by the Unicode tables the map is drawn with: an emoji of a late block,
    // a CJK ideograph, a combining accent alone, a control character.
    for wide in ["🪓", "漢"] {
        assert!(one("items", &format!("glyph = \"{wide}\"")).message.contains("two cells"), "{wide}");
    }
    for none in ["\\u0301", "\\u0007"] {
        assert!(one("npcs", &format!("glyph = \"{none}\"")).message.contains("takes no cell"), "{none}");
    }
    assert_eq!(one("creatures", "glyph = \"@\"").message, "\"@\" is not a valid `glyph`: `@` is reserved for you, the player on the map");
    assert!(one("items", "glyph = \"#\"").message.contains("reserved for a wall"));
    assert!(one("items", "glyph = 7").message.contains("string"));
}

#[test]
fn a_colour_is_one_of_sixteen_names_or_six_hex_digits() {
    let d = one("creatures", "color = \"purple\"");
    assert!(d.message.starts_with("`purple` is not a valid `color`; expected one of `black`, `red`, "), "{}", d.message);
    assert!(d.message.ends_with("`bright_white` or `#rrggbb`"), "{}", d.message);
    assert!(d.fix.is_none(), "nothing is close to `purple`");
    for hex in ["\"#12345g\"", "\"#12345\"", "\"#1234567\""] {
        let d = one("items", &format!("color = {hex}"));
        assert!(d.message.ends_with("is not a valid `color`: a hex colour is `#` and six hex digits, `#rrggbb`"), "{}", d.message);
        assert!(d.fix.is_none());
    }
}

#[test]
fn a_wrong_colour_name_gets_a_fix_safe_only_for_a_slip() {
    let fix = |line: &str| one("npcs", line).fix.map(|f| (f.replacement, f.applicability));
    // Case and separators, and two neighbours swapped: what was meant is certain.
    assert_eq!(fix("color = \"Bright-Red\""), Some(("\"bright_red\"".into(), Applicability::Safe)));
    assert_eq!(fix("color = \"geren\""), Some(("\"green\"".into(), Applicability::Safe)));
    // A letter changed, dropped or added could make another colour: a guess.
    assert_eq!(fix("color = \"gren\""), Some(("\"green\"".into(), Applicability::Unsafe)));
    assert_eq!(fix("color = \"bright_blu\""), Some(("\"bright_blue\"".into(), Applicability::Unsafe)));
    // Neither the hex form nor a bare colour of another scheme is guessed at.
    assert_eq!(fix("color = \"#ff00zz\""), None);
}
