//! The data reference for modders (`docs/reference.md`), generated from [`crate::vocab`].
//!
//! The page is a pure function of the vocabulary, so it cannot drift from what the validator, the
//! language server and the engine use: a test (`tests/reference_docs.rs`) fails when the committed
//! page differs from [`reference_markdown`], and `cargo xtask update` rewrites it.

use crate::vocab::{
    FieldDef, FieldType, TargetPresence, ACTIONS, ACTION_ALIASES, ACTION_FIELD, AI_FIELDS, ATTRIBUTES, BALANCE_FIELDS, CHECKS, CHECK_ALIASES, CHECK_FIELD,
    COLORS, DAMAGE_TYPES, EVENTS, EVENT_ALIASES, GRID_GLYPHS, ITEM_SLOTS, LOOT_ENTRY_FIELDS, MANIFEST_TABLES, MODIFIER_FIELDS, NOT_FIELD, OUTCOMES,
    PAYLOAD_FIELDS, REGISTRIES, RESERVED_GLYPHS, SCENARIO_ENEMY_FIELDS, SCENARIO_FIELDS, SCENARIO_ITEM_FIELDS, SCENARIO_PLAYER_FIELDS, SCENARIO_STEP_FIELDS,
    STEP_ACTS, TRIGGER_FIELDS, WHEN_FIELDS, WHO, WORKSPACE_TABLES,
};
use std::fmt::Write;

/// The command that regenerates the page; printed at its top.
pub const REGENERATE: &str = "cargo xtask update";

/// The whole reference page as Markdown (GitHub flavour).
pub fn reference_markdown() -> String {
    let mut out = String::new();
    let o = &mut out;
    line(o, "# Data reference");
    line(o, "");
    line(o, "<!-- Generated from `rustkeep_data::vocab` by `rustkeep_data::reference`. Do not edit by hand;");
    line(o, &format!("     regenerate with `{REGENERATE}`. -->"));
    line(o, "");
    line(
        o,
        "Every registry and field, event, check, action, attribute and damage type of the rustkeep data \
         language, generated from the same tables the validator, the language server, the \
         JSON Schema and the engine read. Tutorials: [getting started](getting-started.md); how \
         triggers run: [triggers and the event queue](triggers.md); loot: [loot tables and luck](loot.md); \
         every diagnostic: [diagnostics](diagnostics.md).",
    );
    line(o, "");
    line(o, "Columns of the field tables: **type** is what the value must be; **required** fields must be present");
    line(o, "(`id` may be omitted when `overrides` is given); **default** is the value of an absent field.");
    line(o, "");
    line(o, "## Contents");
    line(o, "");
    line(o, "- [Registries](#registries)");
    for r in REGISTRIES {
        line(o, &format!("  - [`[[{}]]`](#{})", r.key, r.key));
    }
    line(o, "  - [`[balance]`](#balance)");
    line(o, "- [Triggers](#triggers), [modifiers](#modifiers), [`ai` rules](#ai-rules), [loot entries](#loot-entries)");
    line(o, "- [Events](#events) and their [`when` fields](#when-fields)");
    line(o, "- [Checks](#checks) (conditions)");
    line(o, "- [Actions](#actions)");
    line(o, "- [Attributes](#attributes), [damage types](#damage-types), [`who`](#who), [item slots](#item-slots), [colours](#colours), [map glyphs](#map-glyphs), [prefab glyphs](#prefab-glyphs)");
    line(o, "- [`mod.toml` and `rustkeep.toml`](#modtoml-and-rustkeeptoml)");
    line(o, "- [Scenario files](#scenario-files)");
    line(o, "- [Names that are not vocabulary](#names-that-are-not-vocabulary)");
    line(o, "");

    section(o, "## Registries", "A data file holds registry arrays (`[[items]]` blocks or `items = [ { … } ]`) and at most the table\n`[balance]`. Anything else at top level is `unknown-registry`; an unknown field is `unknown-field`.");
    for r in REGISTRIES {
        line(o, &format!("### `[[{}]]`", r.key));
        line(o, "");
        line(o, &format!("{} Diagnostics call an entry {} *{}*.", r.doc, article(r.noun), r.noun));
        line(o, "");
        field_table(o, r.fields);
    }
    field_section(
        o,
        "### `[balance]`",
        "A singleton table. The core's values are defaults a mod may set; two mods (other than the core)\nsetting one key is `override-conflict` on the later.",
        BALANCE_FIELDS,
    );

    field_section(o, "## Triggers", "`triggers = [ { … } ]` on items, affixes, creatures, character options, statuses, floors and prefabs;\nquests carry the same fields flattened into the entry. How they run: [triggers.md](triggers.md).", TRIGGER_FIELDS);
    field_section(o, "## Modifiers", "`modifiers = [ { … } ]`: exactly one of `add` / `multiply`. An attribute reads\n`(base + Σ add) × Π multiply` over the modifiers whose condition holds.", MODIFIER_FIELDS);
    field_section(o, "## `ai` rules", "`ai = [ { … } ]` on creatures.", AI_FIELDS);
    field_section(o, "## Loot entries", "`entries = [ { … } ]` of a loot table: exactly one of `item` / `table` / `affix` / `nothing` per entry;\nweighted entries need `weight`, guaranteed ones take none. Semantics: [loot.md](loot.md).", LOOT_ENTRY_FIELDS);

    section(o, "## Events", "The value of `on`. Every event has a `source` creature and an optional `target`. Triggers of a\ncreature run for the events whose source it is (`self` = source, `target` = the event's target).\nPayload keys are those of the `simulate --format json` trace; `when` may filter only the listed fields.");
    line(o, "| event | source | target | payload | `when` fields |");
    line(o, "|---|---|---|---|---|");
    for e in EVENTS {
        let target = match e.target_presence {
            TargetPresence::Never => "—".to_string(),
            TargetPresence::Maybe => format!("{} (may be absent)", cell(e.target).trim_end_matches(" (if any)")),
            TargetPresence::Always => cell(e.target),
        };
        line(
            o,
            &format!(
                "| [`{}`](#{}) | {} | {} | {} | {} |",
                e.name,
                e.name,
                cell(e.source),
                target,
                code_list(e.payload),
                code_list(&e.when.iter().map(|w| w.name()).collect::<Vec<_>>()),
            ),
        );
    }
    line(o, "");
    for e in EVENTS {
        line(o, &format!("### `{}`", e.name));
        line(o, "");
        line(o, e.doc);
        line(o, "");
        let raised_by: Vec<&str> = ACTIONS.iter().filter(|a| a.emits.contains(&e.event)).map(|a| a.name).collect();
        if !raised_by.is_empty() {
            let noun = if raised_by.len() == 1 { "action" } else { "actions" };
            line(o, &format!("Raised by the {noun} {}.", code_list(&raised_by)));
            line(o, "");
        }
    }
    section(o, "### `when` fields", "`when = { field = value, … }`: every field given must match the event's payload (implicit AND, no\nnegation). A field the trigger's event does not carry is `when-field-not-carried`.");
    line(o, "| field | value | carried by | description |");
    line(o, "|---|---|---|---|");
    for w in WHEN_FIELDS {
        let value = match w.value {
            crate::vocab::WhenValue::DamageType => "a damage type".to_string(),
            crate::vocab::WhenValue::Outcome => format!("one of {}", code_list(OUTCOMES)),
            crate::vocab::WhenValue::Id(r) => format!("{} {} ID", article(r.noun()), r.noun()),
        };
        let carried: Vec<&str> = EVENTS.iter().filter(|e| e.when.contains(&w.field)).map(|e| e.name).collect();
        line(o, &format!("| `{}` | {} | {} | {} |", w.name, value, code_list(&carried), cell(w.doc)));
    }
    line(o, "");

    section(o, "## Checks", "`condition = [ { check = \"…\", … } ]`: a list, all must hold (implicit AND; no OR, no nesting). A\ncheck with `who = \"target\"` where there is no target is false.");
    for c in CHECKS {
        line(o, &format!("### `{}`", c.name));
        line(o, "");
        line(o, c.doc);
        line(o, "");
        let mut fields = vec![CHECK_FIELD];
        fields.extend_from_slice(c.fields);
        fields.push(NOT_FIELD);
        field_table(o, &fields);
    }

    section(o, "## Actions", "`actions = [ { action = \"…\", … } ]` in triggers and quests, and `use`, `on_create`, `on_talk`, `ai`.\nEvents an action raises are appended to the event queue ([triggers.md](triggers.md)).");
    line(o, "| action | fields | emits |");
    line(o, "|---|---|---|");
    for a in ACTIONS {
        let fields: Vec<&str> = a.fields.iter().map(|f| f.name).collect();
        let emits: Vec<&str> = a.emits.iter().map(|e| e.name()).collect();
        let emits = if emits.is_empty() { "—".to_string() } else { code_list(&emits) };
        let fields = if fields.is_empty() { "—".to_string() } else { code_list(&fields) };
        line(o, &format!("| [`{}`](#{}) | {} | {} |", a.name, a.name, fields, emits));
    }
    line(o, "");
    for a in ACTIONS {
        line(o, &format!("### `{}`", a.name));
        line(o, "");
        line(o, a.doc);
        if !a.emits.is_empty() {
            let emits: Vec<&str> = a.emits.iter().map(|e| e.name()).collect();
            line(o, &format!("Emits {}.", code_list(&emits)));
        }
        line(o, "");
        let mut fields = vec![ACTION_FIELD];
        fields.extend_from_slice(a.fields);
        field_table(o, &fields);
    }

    name_section(o, "## Attributes", "Set in a creature's `attributes` table, changed by modifiers, read by `attribute` checks.", "attribute", ATTRIBUTES);
    name_section(o, "## Damage types", "The values of `damage_type` (items, creatures, `damage` actions, `when`).", "damage type", DAMAGE_TYPES);
    name_section(o, "## `who`", "The values of `who` in checks and `target` in actions.", "value", WHO);
    section(o, "## Item slots", &format!("`slot` of an item: {}; omitted = not equippable.", code_list(ITEM_SLOTS)));
    name_section(o, "## Colours", "The values of `color` (creatures, NPCs, items): one of these names, the ANSI terminal colours, or a hex colour `#rrggbb`. The terminal's palette decides the exact shade of a name.", "colour", COLORS);
    glyph_section(o, "## Map glyphs", "A `glyph` (creatures, NPCs, items) is exactly one character that takes one cell of the map: not white space, a control character or a combining mark, not two cells wide (an emoji, a CJK character), and none of the map's own glyphs:", "on the map", RESERVED_GLYPHS);
    glyph_section(o, "## Prefab glyphs", "The characters of a prefab's `grid`; rows must have equal width.", "meaning", GRID_GLYPHS);

    config_files(o);
    scenario_files(o);

    section(o, "## Names that are not vocabulary", "Names modders often reach for, and what `rustkeep check` suggests instead.");
    line(o, "| written | did you mean |");
    line(o, "|---|---|");
    for (kind, aliases) in [("event", EVENT_ALIASES), ("check", CHECK_ALIASES), ("action", ACTION_ALIASES)] {
        for (from, to) in aliases {
            line(o, &format!("| `{}` ({}) | `{}` |", from, kind, to));
        }
    }
    out
}

/// The markers around a block of a hand-written page that is generated from the vocabulary:
/// the text between them is replaced as a whole, the prose around it is left alone.
pub fn block_markers(name: &str) -> (String, String) {
    (format!("<!-- generated from the vocabulary: {name}; regenerate with `{REGENERATE}` -->"), format!("<!-- end of generated: {name} -->"))
}

/// `page` with the generated block `name` replaced by `content`; `None` if the page lacks the
/// block's markers.
pub fn splice_block(page: &str, name: &str, content: &str) -> Option<String> {
    let (begin, end) = block_markers(name);
    let from = page.find(&begin)? + begin.len();
    let to = from + page[from..].find(&end)?;
    Some(format!("{}\n{}{}", &page[..from], content, &page[to..]))
}

/// The generated blocks of hand-written pages: (page under `docs/`, block name, content).
pub fn generated_blocks() -> Vec<(&'static str, &'static str, String)> {
    vec![("triggers.md", "event sides", event_sides_table())]
}

/// Who is `self` and who is `target` for every event (`docs/triggers.md`).
pub fn event_sides_table() -> String {
    let mut out = String::new();
    let o = &mut out;
    line(o, "| event | source (= `self`) | target |");
    line(o, "|---|---|---|");
    for e in EVENTS {
        let target = match e.target_presence {
            TargetPresence::Never => "none".to_string(),
            _ => cell(e.target),
        };
        line(o, &format!("| [`{}`](reference.md#{}) | {} | {} |", e.name, e.name, cell(e.source), target));
    }
    out
}

/// The tables and keys of `mod.toml` and `rustkeep.toml`.
fn config_files(o: &mut String) {
    section(o, "## `mod.toml` and `rustkeep.toml`", "A mod's manifest and a workspace's settings. An unknown key is `unknown-field`; `rustkeep fmt` writes the\nkeys of each table in the order below ([formatting](formatting.md)).");
    for (file, tables) in [("mod.toml", MANIFEST_TABLES), ("rustkeep.toml", WORKSPACE_TABLES)] {
        for t in tables {
            line(o, &format!("### `[{}]` in `{file}`", t.name));
            line(o, "");
            line(o, &format!("{}{}", t.doc, if t.required { " Required." } else { "" }));
            line(o, "");
            if t.keys.is_empty() {
                line(o, &format!("Keys: {}.", cell(t.value)));
                line(o, "");
                continue;
            }
            line(o, "| key | value | required | default | description |");
            line(o, "|---|---|---|---|---|");
            for k in t.keys {
                let default = match (k.default, k.required) {
                    (Some(d), _) => format!("`{d}`"),
                    (None, true) => "—".to_string(),
                    (None, false) => "absent".to_string(),
                };
                line(o, &format!("| `{}` | {} | {} | {} | {} |", k.name, cell(k.value), if k.required { "yes" } else { "no" }, default, cell(k.doc)));
            }
            line(o, "");
        }
    }
}

/// The keys of a scenario file, its `[player]`, its items, enemy groups, steps and payloads.
fn scenario_files(o: &mut String) {
    section(o, "## Scenario files", "The files of `rustkeep simulate` and `rustkeep arena`: a file whose name ends in `.scenario.toml`,\nor any `.toml` file directly in a folder named `scenarios` ([the engine](engine.md#scenario-files)).\n`rustkeep check` checks them like data files, against the core and the mods they name.");
    field_section(o, "### The top level", "", SCENARIO_FIELDS);
    field_section(o, "### `[player]`", "", SCENARIO_PLAYER_FIELDS);
    field_section(o, "### `[player] items`", "", SCENARIO_ITEM_FIELDS);
    field_section(o, "### `[[enemies]]`", "", SCENARIO_ENEMY_FIELDS);
    field_section(o, "### `[[steps]]`", &format!("A step does exactly one of {}; `source` and `target` say who.", code_list(STEP_ACTS)), SCENARIO_STEP_FIELDS);
    field_section(
        o,
        "### `payload`",
        "An injected event carries only its own payload keys ([events](#events)); each value is checked as below.",
        PAYLOAD_FIELDS,
    );
}

/// "a" or "an" before a noun (the registry nouns: item, affix, NPC, …).
fn article(noun: &str) -> &'static str {
    match noun.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'N') => "an",
        _ => "a",
    }
}

/// A heading, a blank line, and its introduction (if any; its lines apart by `\n`) followed by a
/// blank line.
fn section(out: &mut String, heading: &str, intro: &str) {
    line(out, heading);
    line(out, "");
    if !intro.is_empty() {
        line(out, intro);
        line(out, "");
    }
}

/// A [`section`] and its table of fields.
fn field_section(out: &mut String, heading: &str, intro: &str, fields: &[FieldDef]) {
    section(out, heading, intro);
    field_table(out, fields);
}

fn line(out: &mut String, text: &str) {
    out.push_str(text);
    out.push('\n');
}

/// Text for a table cell: pipes escaped, line breaks flattened.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn code_list(names: &[&str]) -> String {
    if names.is_empty() {
        return "—".to_string();
    }
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

fn field_table(out: &mut String, fields: &[FieldDef]) {
    line(out, "| field | type | required | default | description |");
    line(out, "|---|---|---|---|---|");
    for f in fields {
        let default = match (f.default, f.required) {
            (Some(d), _) => format!("`{d}`"),
            (None, true) => "—".to_string(),
            (None, false) => "absent".to_string(),
        };
        let mut row = String::new();
        let _ = write!(row, "| `{}` | {} | {} | {} | {} |", f.name, cell(&type_text(f.ty)), if f.required { "yes" } else { "no" }, default, cell(f.doc));
        line(out, &row);
    }
    line(out, "");
}

/// The type column, with links where a kind has its own section.
fn type_text(ty: FieldType) -> String {
    match ty {
        FieldType::Event => "an [event](#events) name".into(),
        FieldType::When => "a table of [`when` fields](#when-fields)".into(),
        FieldType::Conditions => "a list of [checks](#checks)".into(),
        FieldType::Actions => "a list of [actions](#actions)".into(),
        FieldType::Triggers => "a list of [triggers](#triggers)".into(),
        FieldType::Modifiers => "a list of [modifiers](#modifiers)".into(),
        FieldType::Ai => "a list of [`ai` rules](#ai-rules)".into(),
        FieldType::LootEntries => "a list of [loot entries](#loot-entries)".into(),
        FieldType::Attribute => "an [attribute](#attributes)".into(),
        FieldType::DamageType => "a [damage type](#damage-types)".into(),
        FieldType::Color => "a [colour name](#colours) or `#rrggbb`".into(),
        FieldType::Glyph => "one character (a [map glyph](#map-glyphs))".into(),
        FieldType::AttributeTable => "a table [attribute](#attributes) → number".into(),
        FieldType::Who => "[`self` or `target`](#who)".into(),
        FieldType::Ref(crate::vocab::RefKind::Tag) => "a tag (same grammar as an ID; free vocabulary)".into(),
        FieldType::Tag => "the name in the heading".into(),
        FieldType::Action => "an [action](#actions) as an inline table".into(),
        FieldType::Payload => "a table of [payload](#payload) keys".into(),
        FieldType::Ref(k) => format!("{} {} ID", article(k.describe()), k.describe()),
        other => other.describe(),
    }
}

/// A [`section`] and its table of glyphs and what each means, under the heading `meaning`.
fn glyph_section(out: &mut String, heading: &str, intro: &str, meaning: &str, rows: &[(char, &str)]) {
    section(out, heading, intro);
    line(out, &format!("| glyph | {meaning} |"));
    line(out, "|---|---|");
    for (glyph, text) in rows {
        line(out, &format!("| `{glyph}` | {text} |"));
    }
    line(out, "");
}

/// A [`section`] and its table of names and what each is, under the heading `header`.
fn name_section(out: &mut String, heading: &str, intro: &str, header: &str, rows: &[(&str, &str)]) {
    section(out, heading, intro);
    line(out, &format!("| {header} | description |"));
    line(out, "|---|---|");
    for (name, doc) in rows {
        line(out, &format!("| `{}` | {} |", name, cell(doc)));
    }
    line(out, "");
}
