//! Tests of the vocabulary's rows: counts, aliases, every typed name against its rows, the
//! ID grammar.

use super::*;

#[test]
fn twelve_events_four_checks_nine_actions() {
    assert_eq!(EVENTS.len(), 12);
    assert_eq!(CHECKS.len(), 4);
    assert_eq!(ACTIONS.len(), 9);
    assert_eq!(ATTRIBUTES.len(), 16);
    assert_eq!(DAMAGE_TYPES.len(), 5);
    assert_eq!(REGISTRIES.len(), Registry::ALL.len());
    for (i, r) in Registry::ALL.iter().enumerate() {
        assert_eq!(r.index(), i);
        assert_eq!(Registry::from_key(r.key()), Some(*r));
    }
}

/// Exactly one row per variant, and no row without a variant: a kind added to an enum fails here
/// until its row is written (and `def()` could not find it at run time).
/// Each of `all` has exactly one of `rows` (told by `key`), and there are no other rows.
fn one_row_each<K: PartialEq + std::fmt::Debug, R>(all: &[K], rows: &[R], key: impl Fn(&R) -> &K) {
    for k in all {
        assert_eq!(rows.iter().filter(|r| key(r) == k).count(), 1, "{k:?}");
    }
    assert_eq!(rows.len(), all.len());
}

#[test]
fn every_kind_has_exactly_one_row() {
    one_row_each(EventKind::ALL, EVENTS, |d| &d.event);
    one_row_each(WhenField::ALL, WHEN_FIELDS, |d| &d.field);
    one_row_each(CheckKind::ALL, CHECKS, |d| &d.kind);
    one_row_each(ActionKind::ALL, ACTIONS, |d| &d.kind);
    one_row_each(&Registry::ALL, REGISTRIES, |d| &d.registry);
}

#[test]
fn aliases_point_at_real_names() {
    for (_, to) in EVENT_ALIASES {
        assert!(EventKind::from_name(to).is_some(), "{to}");
    }
    for (_, to) in CHECK_ALIASES {
        assert!(CheckKind::from_name(to).is_some(), "{to}");
    }
    for (_, to) in ACTION_ALIASES {
        assert!(ActionKind::from_name(to).is_some(), "{to}");
    }
}

/// Every field row of every table: registries, `[balance]`, triggers, modifiers, `ai` rules,
/// loot entries, checks and actions.
fn all_field_rows() -> Vec<&'static FieldDef> {
    let mut out: Vec<&'static FieldDef> = Vec::new();
    for r in REGISTRIES {
        out.extend(r.fields);
    }
    for table in [
        BALANCE_FIELDS,
        TRIGGER_FIELDS,
        MODIFIER_FIELDS,
        AI_FIELDS,
        LOOT_ENTRY_FIELDS,
        SCENARIO_FIELDS,
        SCENARIO_PLAYER_FIELDS,
        SCENARIO_ITEM_FIELDS,
        SCENARIO_ENEMY_FIELDS,
        SCENARIO_STEP_FIELDS,
        SCENARIO_EXPECT_FIELDS,
        EXPECT_HEALTH_FIELDS,
        EXPECT_ARENA_FIELDS,
    ] {
        out.extend(table);
    }
    for c in CHECKS {
        out.extend(c.fields);
    }
    for a in ACTIONS {
        out.extend(a.fields);
    }
    out.extend([&CHECK_FIELD, &NOT_FIELD, &ACTION_FIELD]);
    out
}

fn assert_same_names(what: &str, typed: &[&str], rows: impl IntoIterator<Item = &'static str>) {
    let rows: Vec<&str> = rows.into_iter().collect();
    let mut seen = std::collections::BTreeSet::new();
    for t in typed {
        assert!(seen.insert(*t), "{what}: `{t}` is written twice among the typed names");
        assert!(rows.contains(t), "{what}: the typed name `{t}` has no row; remove the constant or restore the row");
    }
    for r in &rows {
        assert!(typed.contains(r), "{what}: the row `{r}` is not built from a typed name; add a constant to `vocab::names` and use it");
    }
}

#[test]
fn every_typed_name_has_a_row_and_every_row_a_typed_name() {
    assert_same_names("field", field::ALL, all_field_rows().into_iter().map(|f| f.name));
    assert_same_names("attribute", attr::ALL, ATTRIBUTES.iter().map(|a| a.0));
    assert_same_names("damage type", damage::ALL, DAMAGE_TYPES.iter().map(|d| d.0));
    assert_same_names("payload key", payload::ALL, EVENTS.iter().flat_map(|e| e.payload.iter().copied()));
    assert_same_names("payload key of a scenario", payload::ALL, PAYLOAD_FIELDS.iter().map(|f| f.name));
    assert_same_names("outcome", outcome::ALL, OUTCOMES.iter().copied());
    assert_same_names("slot", slot::ALL, ITEM_SLOTS.iter().copied());
    assert_same_names("who", who::ALL, WHO.iter().map(|w| w.0));
    let config = MANIFEST_TABLES.iter().chain(WORKSPACE_TABLES).flat_map(|t| std::iter::once(t).chain(t.keys));
    assert_same_names("key of mod.toml or rustkeep.toml", key::ALL, config.map(|k| k.name));
    // The typed lists keep the order of the rows (the docs and completion list them so).
    assert_eq!(attr::ALL, ATTRIBUTES.iter().map(|a| a.0).collect::<Vec<_>>());
    assert_eq!(damage::ALL, DAMAGE_TYPES.iter().map(|d| d.0).collect::<Vec<_>>());
    let glyphs = [glyph::WALL, glyph::FLOOR, glyph::DOOR, glyph::LOOT_PILE, glyph::ENEMY, glyph::NPC, glyph::ENTRY];
    assert_eq!(glyphs.to_vec(), GRID_GLYPHS.iter().map(|g| g.0).collect::<Vec<_>>());
}

#[test]
fn every_step_act_is_a_step_field_and_scenario_paths_are_recognised() {
    for a in STEP_ACTS {
        assert!(SCENARIO_STEP_FIELDS.iter().any(|f| f.name == *a), "{a}");
    }
    use std::path::Path;
    assert!(is_scenario_path(Path::new("scenarios/fight.toml")));
    assert!(is_scenario_path(Path::new("mods/pit/pit.scenario.toml")));
    assert!(!is_scenario_path(Path::new("scenarios/notes.md")));
    assert!(!is_scenario_path(Path::new("scenarios/deeper/fight.toml")));
    assert!(!is_scenario_path(Path::new("items.toml")));
}

#[test]
fn when_fields_are_payload_keys_of_the_events_that_carry_them() {
    for w in WHEN_FIELDS {
        assert!(payload::ALL.contains(&w.name), "the `when` field `{}` is no payload key", w.name);
    }
    for e in EVENTS {
        for w in e.when {
            assert!(e.payload.contains(&w.name()), "`{}` filters on `{}`, which its payload lacks", e.name, w.name());
        }
    }
}

#[test]
fn every_damage_type_but_physical_has_a_resistance_attribute() {
    for (d, doc) in DAMAGE_TYPES {
        match resistance_of(d) {
            Some(a) => {
                assert!(is_attribute(a), "{a}");
                assert!(doc.contains(a), "the doc of `{d}` names its resistance `{a}`");
            }
            None => assert_eq!(*d, damage::PHYSICAL, "`{d}` has no resistance"),
        }
    }
    assert_eq!(RESISTANCES.len(), DAMAGE_TYPES.len() - 1);
}

#[test]
fn the_luck_factor_default_is_the_row_default() {
    let row = BALANCE_FIELDS.iter().find(|f| f.name == field::LUCK_FACTOR).expect("the luck_factor row");
    assert_eq!(row.default.and_then(|d| d.parse::<f64>().ok()), Some(LUCK_FACTOR_DEFAULT));
    for (name, default) in [(field::HIT_PER_POINT, HIT_PER_POINT_DEFAULT), (field::MIN_HIT, MIN_HIT_DEFAULT), (field::CRIT_MULTIPLIER, CRIT_MULTIPLIER_DEFAULT)]
    {
        let row = BALANCE_FIELDS.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("the {name} row"));
        assert_eq!(row.default.and_then(|d| d.parse::<f64>().ok()), Some(default), "{name}");
    }
    let row = BALANCE_FIELDS.iter().find(|f| f.name == field::REGEN_EVERY).expect("the regen_every row");
    assert_eq!(row.default.and_then(|d| d.parse::<u32>().ok()), Some(REGEN_EVERY_DEFAULT));
}

#[test]
fn action_and_check_names_come_from_their_rows() {
    for a in ACTIONS {
        assert_eq!(a.kind.name(), a.name);
        assert_eq!(ActionKind::from_name(a.name), Some(a.kind));
    }
    for c in CHECKS {
        assert_eq!(c.kind.name(), c.name);
    }
}

#[test]
fn id_grammar() {
    assert_eq!(ID_PATTERN, "^[a-z][a-z0-9_]*:[a-z0-9_]+(/[a-z0-9_]+)*$");
    assert_eq!(ID_PATTERN, format!("^{ID_GRAMMAR}$"));
    assert!(is_valid_id("core:rat"));
    assert!(is_valid_id("core:floors/floor_3"));
    assert!(is_valid_id("m2:3x"));
    assert!(!is_valid_id("Core:rat"));
    assert!(!is_valid_id("core:Rat"));
    assert!(!is_valid_id("core:"));
    assert!(!is_valid_id("core:a//b"));
    assert!(!is_valid_id("core:a/"));
    assert!(!is_valid_id("1core:a"));
    assert!(!is_valid_id("rat"));
    assert!(!is_valid_id("core:rat:x"));
}

/// The one-pass reading of an ID against the grammar read piece by piece (a namespace, a `:`,
/// `/`-separated segments), on every string of up to six characters over an alphabet with one
/// character of each kind the grammar tells apart.
#[test]
fn id_reading_agrees_with_the_grammar_piece_by_piece() {
    fn by_pieces(s: &str) -> bool {
        let Some((ns, rest)) = s.split_once(':') else { return false };
        let segment = |seg: &str| !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        is_valid_namespace(ns) && rest.split('/').all(segment)
    }
    const ALPHABET: [char; 7] = ['a', '0', '_', ':', '/', 'Z', 'é'];
    let mut compared = 0;
    let mut valid = 0;
    let mut word = Vec::new();
    loop {
        let s: String = word.iter().map(|&i| ALPHABET[i]).collect();
        assert_eq!(is_valid_id(&s), by_pieces(&s), "{s:?}");
        compared += 1;
        valid += usize::from(by_pieces(&s));
        // The next word: count up in base 7, one character longer after the last of a length.
        match word.iter().rposition(|&i| i + 1 < ALPHABET.len()) {
            Some(at) => {
                word[at] += 1;
                word[at + 1..].fill(0);
            }
            None if word.len() < 6 => word = vec![0; word.len() + 1],
            None => break,
        }
    }
    assert_eq!(compared, 137_257);
    // IDs among them: a first letter `a`, then `a0_` and one `:` with segments between `/`s.
    assert_eq!(valid, 516);
}
