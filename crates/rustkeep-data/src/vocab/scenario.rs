//! The shape of a scenario file (docs/engine.md, "Scenarios"), as data: the lowering of scenario
//! files, completion and hover in them, their JSON Schema and the reference read these rows, like
//! the registries' rows for data files.

use super::registries::{dflt, opt, req};
use super::{field, payload, FieldDef, FieldType, RefKind, Registry, OUTCOMES};

/// The top level of a scenario file.
pub const SCENARIO_FIELDS: &[FieldDef] = &[
    dflt(field::SEED, FieldType::Int { min: 0, max: i64::MAX }, "0", "The seed of the run's generator: the same seed, data and steps give the same trace."),
    dflt(field::ENEMIES_ACT, FieldType::Bool, "false", "After each step of the player, every living enemy takes its own turn (by its `ai`)."),
    dflt(
        field::REGEN,
        FieldType::Bool,
        "false",
        "Out of combat, the player regains health as in a played game (`[balance] regen_every`); without it, a scenario's player never regenerates.",
    ),
    opt(
        field::MODS,
        FieldType::Paths,
        "Mods to load besides the bundled core: folders relative to the scenario file, each read like a path given to `rustkeep check`.",
    ),
    opt(field::PLAYER, FieldType::Table(SCENARIO_PLAYER_FIELDS), "The player at the start."),
    opt(field::ENEMIES, FieldType::TableList(SCENARIO_ENEMY_FIELDS), "The enemies at the start, `enemy:0` first, in the order listed."),
    opt(field::STEPS, FieldType::TableList(SCENARIO_STEP_FIELDS), "The steps, one turn each; every step does exactly one thing."),
    opt(
        field::EXPECT,
        FieldType::TableList(SCENARIO_EXPECT_FIELDS),
        "What the run must do, one table each, checked after the last step (or after `after_step`): `rustkeep test` and `simulate` report each that fails.",
    ),
];

/// One `[[expect]]`: exactly one of the kinds ([`EXPECT_KINDS`]), the keys that kind takes
/// ([`EXPECT_WITH`]), and `after_step`.
pub const SCENARIO_EXPECT_FIELDS: &[FieldDef] = &[
    opt(field::QUEST, FieldType::Ref(RefKind::Registry(Registry::Quests)), "A quest: its `state` (default `done`) and/or its `count`."),
    opt(field::HAS_ITEM, FieldType::Ref(RefKind::Registry(Registry::Items)), "An item `who` carries: how many (`count`, default at least 1)."),
    opt(field::HEALTH, FieldType::Table(EXPECT_HEALTH_FIELDS), "A creature's health: `{ who, at_least, below }`."),
    opt(field::EVENT, FieldType::Event, "How often this event was handled over the run (or up to `after_step`): `count`, default at least 1."),
    opt(
        field::FIRED,
        FieldType::Str,
        "A trigger of this owner (an entry's ID) fired; `count` says how often, `never = true` (or `count = 0`) that it never did.",
    ),
    opt(field::OUTCOME, FieldType::Enum(EXPECT_OUTCOMES), "The outcome of the last `combat_ended`, or `none` when no combat ended."),
    opt(
        field::LOOT,
        FieldType::Ref(RefKind::ItemTable),
        "A loot table, analysed exactly (not rolled in this run): the `chance` or `expected` count of its `item`.",
    ),
    opt(
        field::ARENA,
        FieldType::Table(EXPECT_ARENA_FIELDS),
        "Fights of the player against this scenario's enemies, seeded from its `seed`: `{ option, runs }`, and their `win_rate`.",
    ),
    opt(field::STATE, FieldType::Enum(QUEST_STATES), "With `quest`: `done`, `started` (and not done) or `not_started`."),
    dflt(field::WHO, FieldType::Actor, "\"player\"", "With `has_item`: whose inventory."),
    opt(field::COUNT, FieldType::Bound { integer: true }, "How many: a whole number (exactly) or `{ at_least, below }`."),
    opt(field::NEVER, FieldType::True, "With `fired`: `true`, the owner's triggers never fired."),
    opt(field::ITEM, FieldType::Ref(RefKind::Registry(Registry::Items)), "With `loot`: the item."),
    opt(field::CHANCE, FieldType::Bound { integer: false }, "With `loot`: the exact chance that a roll gives at least one `item`."),
    opt(field::EXPECTED, FieldType::Bound { integer: false }, "With `loot`: the exact mean count of `item` per roll."),
    opt(field::WIN_RATE, FieldType::Bound { integer: false }, "With `arena`: the share of fights won, from 0 to 1."),
    opt(field::AFTER_STEP, FieldType::Int { min: 0, max: i64::MAX }, "Checked after this step (0-based, of `[[steps]]`) instead of after the last."),
];

/// The keys that say what an expectation checks; an expectation has exactly one of them.
pub const EXPECT_KINDS: &[&str] = &[field::QUEST, field::HAS_ITEM, field::HEALTH, field::EVENT, field::FIRED, field::OUTCOME, field::LOOT, field::ARENA];

/// The keys each kind takes besides itself and `after_step`.
pub const EXPECT_WITH: &[(&str, &[&str])] = &[
    (field::QUEST, &[field::STATE, field::COUNT]),
    (field::HAS_ITEM, &[field::WHO, field::COUNT]),
    (field::HEALTH, &[]),
    (field::EVENT, &[field::COUNT]),
    (field::FIRED, &[field::COUNT, field::NEVER]),
    (field::OUTCOME, &[]),
    (field::LOOT, &[field::ITEM, field::CHANCE, field::EXPECTED]),
    (field::ARENA, &[field::WIN_RATE]),
];

/// A quest's states an expectation names.
pub const QUEST_STATES: &[&str] = &["done", "started", "not_started"];

/// The outcomes an `outcome` expectation names: a `combat_ended`'s, or `none`.
pub const EXPECT_OUTCOMES: &[&str] = &["victory", "fled", "none"];

/// `health = { … }` of an expectation.
pub const EXPECT_HEALTH_FIELDS: &[FieldDef] = &[
    dflt(field::WHO, FieldType::Actor, "\"player\"", "Whose health."),
    opt(field::AT_LEAST, FieldType::Number, "The health is at least this."),
    opt(field::BELOW, FieldType::Number, "The health is below this."),
];

/// `arena = { … }` of an expectation.
pub const EXPECT_ARENA_FIELDS: &[FieldDef] = &[
    opt(field::OPTION, FieldType::Ref(RefKind::Registry(Registry::CharacterOptions)), "The character option that fights (default: the scenario's `[player]`)."),
    dflt(field::RUNS, FieldType::Int { min: 1, max: i64::MAX }, "1000", "How many fights."),
];

/// `[player]`.
pub const SCENARIO_PLAYER_FIELDS: &[FieldDef] = &[
    opt(
        field::OPTIONS,
        FieldType::RefList(RefKind::Registry(Registry::CharacterOptions)),
        "Character options (classes, backgrounds), at most one of each `group`; their `on_create` actions run at the start.",
    ),
    opt(field::ITEMS, FieldType::TableList(SCENARIO_ITEM_FIELDS), "The starting kit, placed without events: `{ item, count, affixes, equipped }`."),
    opt(field::ATTRIBUTES, FieldType::AttributeTable, "Base attributes, before modifiers."),
    opt(field::QUESTS, FieldType::RefList(RefKind::Registry(Registry::Quests)), "Quests started at the beginning."),
];

/// One item of `[player] items`.
pub const SCENARIO_ITEM_FIELDS: &[FieldDef] = &[
    req(field::ITEM, FieldType::Ref(RefKind::Registry(Registry::Items)), "The item."),
    dflt(field::COUNT, FieldType::Int { min: 1, max: super::MAX_ITEM_COUNT }, "1", "How many."),
    opt(field::AFFIXES, FieldType::RefList(RefKind::Registry(Registry::Affixes)), "Affixes of the instance."),
    dflt(field::EQUIPPED, FieldType::Bool, "false", "Whether it starts equipped."),
];

/// One `[[enemies]]` group.
pub const SCENARIO_ENEMY_FIELDS: &[FieldDef] = &[
    req(field::CREATURE, FieldType::Ref(RefKind::Registry(Registry::Creatures)), "The creature."),
    dflt(
        field::COUNT,
        FieldType::Int { min: 1, max: super::MAX_LIVING_ENEMIES as i64 },
        "1",
        "How many of it (the groups together are bounded as one group is).",
    ),
];

/// One `[[steps]]` entry: exactly one of the acts ([`STEP_ACTS`]), and who acts.
pub const SCENARIO_STEP_FIELDS: &[FieldDef] = &[
    opt(field::ATTACK, FieldType::Actor, "The source attacks this creature."),
    opt(field::EVENT, FieldType::Event, "Injects this event (nothing else happens: an injected `npc_talked` does not run `on_talk`)."),
    opt(field::PAYLOAD, FieldType::Payload, "The injected event's payload: its own payload keys only."),
    opt(field::ACTION, FieldType::Action, "Runs one action: `{ action = \"damage\", … }`."),
    dflt(field::SOURCE, FieldType::Actor, "\"player\"", "Who acts (the source of the step's events)."),
    opt(field::TARGET, FieldType::Actor, "The target of an injected event or an action."),
    opt(field::PICKUP, FieldType::True, "`true`: picks up everything on the floor (room piles are rolled now)."),
    opt(field::TALK, FieldType::Ref(RefKind::Registry(Registry::Npcs)), "Talks to this NPC: its `on_talk` runs, then `npc_talked`."),
    opt(
        field::ENTER,
        FieldType::Ref(RefKind::Registry(Registry::Prefabs)),
        "Enters this prefab (or floor): its `l` piles and `e` enemies appear, then `room_entered`.",
    ),
    opt(field::USE, FieldType::Ref(RefKind::Registry(Registry::Items)), "Uses this item: its `use` actions run, then `item_used`."),
    opt(field::EQUIP, FieldType::Ref(RefKind::Registry(Registry::Items)), "Equips this item."),
    opt(
        field::START,
        FieldType::StartAt,
        "Enters the dungeon: `true` at its first floor, or a floor's ID to start there; the player stands at the entrance of the first room.",
    ),
    opt(
        field::MOVE,
        FieldType::Enum(DIRECTIONS),
        "Moves the player one tile on the floor's map (walking into an enemy attacks it, into an NPC talks to it, onto the stairs goes down).",
    ),
    opt(field::WAIT, FieldType::True, "`true`: the player lets a turn pass."),
];

/// The directions of a `move` step, north first and clockwise (`grid::Dir`).
pub const DIRECTIONS: &[&str] = &["n", "ne", "e", "se", "s", "sw", "w", "nw"];

/// The keys of a step that say what it does; a step has exactly one of them.
pub const STEP_ACTS: &[&str] =
    &[field::ATTACK, field::EVENT, field::ACTION, field::PICKUP, field::TALK, field::ENTER, field::USE, field::EQUIP, field::START, field::MOVE, field::WAIT];

/// The payload keys an injected event may carry, with what their values must be.
pub const PAYLOAD_FIELDS: &[FieldDef] = &[
    opt(payload::WEAPON, FieldType::Ref(RefKind::Registry(Registry::Items)), "The weapon of the hit (an item ID)."),
    opt(payload::DAMAGE_TYPE, FieldType::DamageType, "The damage type."),
    opt(payload::AMOUNT, FieldType::Int { min: 0, max: i64::MAX }, "The damage taken."),
    opt(payload::OUTCOME, FieldType::Enum(OUTCOMES), "How the combat ended."),
    opt(payload::ITEM, FieldType::Ref(RefKind::Registry(Registry::Items)), "The item picked up or used."),
    opt(payload::COUNT, FieldType::Int { min: 1, max: i64::MAX }, "How many were picked up."),
    opt(payload::AFFIXES, FieldType::RefList(RefKind::Registry(Registry::Affixes)), "The affixes of the item picked up."),
    opt(payload::FLOOR, FieldType::Ref(RefKind::Registry(Registry::Floors)), "The floor entered."),
    opt(payload::DEPTH, FieldType::Int { min: 1, max: i64::MAX }, "The depth of the floor entered."),
    opt(payload::PREFAB, FieldType::Ref(RefKind::Registry(Registry::Prefabs)), "The room prefab entered."),
    opt(payload::NPC, FieldType::Ref(RefKind::Registry(Registry::Npcs)), "The NPC talked to."),
    opt(payload::QUEST, FieldType::Ref(RefKind::Registry(Registry::Quests)), "The quest completed."),
];

/// Whether a file is a scenario by its path (relative to where it was found): a name ending in
/// `.scenario.toml`, or a `.toml` file directly in a folder named `scenarios`
/// (docs/engine.md, "Scenario files").
pub fn is_scenario_path(path: &std::path::Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    if !name.ends_with(".toml") {
        return false;
    }
    name.ends_with(".scenario.toml") || path.parent().and_then(|p| p.file_name()).is_some_and(|p| p == "scenarios")
}
