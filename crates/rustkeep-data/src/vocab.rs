//! The engine vocabulary and the shape of every registry, as data.
//!
//! This module is the single source of truth (docs/ARCHITECTURE.md, invariant "One vocabulary"): the loader walks entries
//! by these tables, the validator reads the event/check/action rows, the language server completes
//! and hovers from them, the JSON Schema and the reference docs are generated from them, and the
//! engine interprets the same names. Adding an event, a check, an action or a registry field is one
//! row here. Every name is written once, in `vocab::names`: the rows below are built from those
//! constants, and code elsewhere reads fields, attributes and payload keys through them.

mod config;
mod display;
mod id;
mod ids;
mod names;
mod registries;
mod scenario;

pub use config::*;
pub use display::*;
pub use id::*;
pub use ids::*;
pub use names::{attr, color, damage, field, glyph, key, outcome, payload, slot, who};
pub use registries::*;
pub use scenario::*;

/// At most this many events are handled in one step (one turn); the rest are dropped with a
/// warning. Self-feeding triggers are cut off here.
pub const EVENT_CAP: usize = 100;

/// At most this many enemies live at once in a game: a scenario's `[[enemies]]` and every
/// `spawn` count. A run that would pass it stops (docs/engine.md, "Bounded work").
pub const MAX_LIVING_ENEMIES: usize = 1000;

/// The largest `count` of one `spawn` action.
pub const MAX_SPAWN_COUNT: i64 = 100;

/// The largest `count` of one `give_item` or `take_item` action and of a scenario's starting
/// item.
pub const MAX_ITEM_COUNT: i64 = 1_000_000;

/// At most this many separate items (a stack is one, an item that does not stack one each) a
/// creature carries: a gift that would pass it is not given and the run stops.
pub const MAX_CARRIED: usize = 10_000;

/// At most this many steps in a scenario.
pub const MAX_STEPS: usize = 10_000;

/// An `arena` expectation fights at most this many enemies in all: its `runs` times the
/// scenario's enemies (each fight lasts at most a hundred rounds).
pub const MAX_ARENA_ENEMY_FIGHTS: u64 = 50_000;

/// A scenario run that has handled this many events stops after the step that reached it: with
/// the limits above, a run ends within seconds and a few hundred MB whatever its data says.
pub const MAX_RUN_EVENTS: u64 = 100_000;

/// The item prices are paid in: shops sell for it and buy for it (docs/engine.md, "Shops").
pub const CURRENCY: &str = "core:gold";

/// The key of the singleton `[balance]` table of a data file (beside the registry arrays).
pub const BALANCE_KEY: &str = "balance";

/// The default of `[balance] luck_factor` (its row in [`BALANCE_FIELDS`] says the same; a test
/// keeps them equal).
pub const LUCK_FACTOR_DEFAULT: f64 = 0.05;

/// The default of `[balance] hit_per_point`: each point of accuracy over the defender's evasion
/// (or under it) moves the chance to hit by this much.
pub const HIT_PER_POINT_DEFAULT: f64 = 0.05;

/// The default of `[balance] min_hit`: the chance to hit never falls below this.
pub const MIN_HIT_DEFAULT: f64 = 0.05;

/// The default of `[balance] crit_multiplier`: a critical hit multiplies the attack's amount by this.
pub const CRIT_MULTIPLIER_DEFAULT: f64 = 1.5;

/// The default of `[balance] regen_every`: no regeneration (the core sets its own).
pub const REGEN_EVERY_DEFAULT: u32 = 0;

/// Declares a closed set of kinds and `ALL`, its variants in declaration order, from one list, so
/// that `vocab::tests` can demand exactly one row for every variant.
macro_rules! kinds {
    ($(#[$meta:meta])* pub enum $name:ident { $($variant:ident,)* }) => {
        $(#[$meta])*
        pub enum $name {
            $($variant,)*
        }
        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
        }
    };
}

/// Whether an event (or a place actions run in) has a `target` creature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetPresence {
    /// Never a target: `who = "target"` can never hold.
    Never,
    /// Sometimes a target (`creature_died` has a killer only if something killed it).
    Maybe,
    /// Always a target.
    Always,
}

kinds! {
    /// One of the twelve events (docs/data-language.md, "Events").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum EventKind {
        TurnStarted,
        CombatStarted,
        AttackHit,
        DamageTaken,
        CreatureDied,
        CombatEnded,
        ItemPickedUp,
        ItemUsed,
        FloorEntered,
        RoomEntered,
        NpcTalked,
        QuestCompleted,
    }
}

kinds! {
    /// A `when` filter field: a payload key an event carries.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum WhenField {
        DamageType,
        Outcome,
        Item,
        Floor,
        Prefab,
        Npc,
        Quest,
    }
}

/// What the value of a `when` field must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenValue {
    DamageType,
    Outcome,
    Id(Registry),
}

pub struct WhenFieldDef {
    pub field: WhenField,
    pub name: &'static str,
    pub value: WhenValue,
    pub doc: &'static str,
}

pub const WHEN_FIELDS: &[WhenFieldDef] = &[
    WhenFieldDef {
        field: WhenField::DamageType,
        name: payload::DAMAGE_TYPE,
        value: WhenValue::DamageType,
        doc: "The damage type of the hit or of the damage taken.",
    },
    WhenFieldDef { field: WhenField::Outcome, name: payload::OUTCOME, value: WhenValue::Outcome, doc: "How the combat ended: `victory` or `fled`." },
    WhenFieldDef { field: WhenField::Item, name: payload::ITEM, value: WhenValue::Id(Registry::Items), doc: "The item picked up or used (an item ID)." },
    WhenFieldDef { field: WhenField::Floor, name: payload::FLOOR, value: WhenValue::Id(Registry::Floors), doc: "The floor entered (a floor ID)." },
    WhenFieldDef { field: WhenField::Prefab, name: payload::PREFAB, value: WhenValue::Id(Registry::Prefabs), doc: "The room prefab entered (a prefab ID)." },
    WhenFieldDef { field: WhenField::Npc, name: payload::NPC, value: WhenValue::Id(Registry::Npcs), doc: "The NPC talked to (an NPC ID)." },
    WhenFieldDef { field: WhenField::Quest, name: payload::QUEST, value: WhenValue::Id(Registry::Quests), doc: "The quest completed (a quest ID)." },
];

pub const OUTCOMES: &[&str] = outcome::ALL;

impl WhenField {
    pub fn def(self) -> &'static WhenFieldDef {
        WHEN_FIELDS.iter().find(|d| d.field == self).expect("every when field has a row")
    }
    pub fn name(self) -> &'static str {
        self.def().name
    }
    pub fn from_name(name: &str) -> Option<WhenField> {
        WHEN_FIELDS.iter().find(|d| d.name == name).map(|d| d.field)
    }
}

pub struct EventDef {
    pub event: EventKind,
    pub name: &'static str,
    pub source: &'static str,
    pub target: &'static str,
    pub target_presence: TargetPresence,
    /// Whether the source can be a creature other than the player.
    pub source_maybe_not_player: bool,
    /// Payload keys as they appear in the engine trace.
    pub payload: &'static [&'static str],
    pub when: &'static [WhenField],
    pub doc: &'static str,
}

pub const EVENTS: &[EventDef] = &[
    EventDef {
        event: EventKind::TurnStarted,
        name: "turn_started",
        source: "the creature whose turn it is",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: true,
        payload: &[],
        when: &[],
        doc: "A creature's turn begins. Statuses count down after it is handled.",
    },
    EventDef {
        event: EventKind::CombatStarted,
        name: "combat_started",
        source: "the player",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: false,
        payload: &[],
        when: &[],
        doc: "A combat begins: the first step with living enemies, or a `spawn` into no combat.",
    },
    EventDef {
        event: EventKind::AttackHit,
        name: "attack_hit",
        source: "the attacker",
        target: "the victim",
        target_presence: TargetPresence::Always,
        source_maybe_not_player: true,
        payload: &[payload::WEAPON, payload::DAMAGE_TYPE],
        when: &[WhenField::DamageType],
        doc: "An attack hits. Raised on the attacker: a flaming sword's trigger hangs here.",
    },
    EventDef {
        event: EventKind::DamageTaken,
        name: "damage_taken",
        source: "the victim",
        target: "the dealer",
        target_presence: TargetPresence::Always,
        source_maybe_not_player: true,
        payload: &[payload::AMOUNT, payload::DAMAGE_TYPE],
        when: &[WhenField::DamageType],
        doc: "A creature takes damage (also when it is reduced to 0). Raised on the victim: thorn armour hangs here.",
    },
    EventDef {
        event: EventKind::CreatureDied,
        name: "creature_died",
        source: "the dead creature",
        target: "the killer (if any)",
        target_presence: TargetPresence::Maybe,
        source_maybe_not_player: true,
        payload: &[],
        when: &[],
        doc: "A creature's health reached 0. The player's death is this event with source = player.",
    },
    EventDef {
        event: EventKind::CombatEnded,
        name: "combat_ended",
        source: "the player",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: false,
        payload: &[payload::OUTCOME],
        when: &[WhenField::Outcome],
        doc: "A combat ended, with `outcome` = `victory` (no enemy left) or `fled`.",
    },
    EventDef {
        event: EventKind::ItemPickedUp,
        name: "item_picked_up",
        source: "the receiver",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: true,
        payload: &[payload::ITEM, payload::COUNT, payload::AFFIXES],
        when: &[WhenField::Item],
        doc: "A creature received an item instance (pickup or `give_item`).",
    },
    EventDef {
        event: EventKind::ItemUsed,
        name: "item_used",
        source: "the user",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: true,
        payload: &[payload::ITEM],
        when: &[WhenField::Item],
        doc: "An item was used; its `use` actions ran first.",
    },
    EventDef {
        event: EventKind::FloorEntered,
        name: "floor_entered",
        source: "the player",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: false,
        payload: &[payload::FLOOR, payload::DEPTH],
        when: &[WhenField::Floor],
        doc: "The player entered a floor. Floor triggers run on this event.",
    },
    EventDef {
        event: EventKind::RoomEntered,
        name: "room_entered",
        source: "the player",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: false,
        payload: &[payload::PREFAB],
        when: &[WhenField::Prefab],
        doc: "The player entered a room built from a prefab. Prefab triggers run on this event.",
    },
    EventDef {
        event: EventKind::NpcTalked,
        name: "npc_talked",
        source: "the player",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: false,
        payload: &[payload::NPC],
        when: &[WhenField::Npc],
        doc: "The player talked to an NPC; its `on_talk` actions ran first.",
    },
    EventDef {
        event: EventKind::QuestCompleted,
        name: "quest_completed",
        source: "the player",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: false,
        payload: &[payload::QUEST],
        when: &[WhenField::Quest],
        doc: "A quest reached its count; its reward actions ran first.",
    },
];

/// Names modders reach for that are not events, with the event they mean.
pub const EVENT_ALIASES: &[(&str, &str)] = &[
    ("enemy_killed", "creature_died"),
    ("player_died", "creature_died"),
    ("creature_killed", "creature_died"),
    ("killed", "creature_died"),
    ("death", "creature_died"),
    ("on_hit", "attack_hit"),
    ("hit", "attack_hit"),
    ("attack", "attack_hit"),
    ("item_pickup", "item_picked_up"),
    ("pickup", "item_picked_up"),
    ("room_enter", "room_entered"),
    ("floor_enter", "floor_entered"),
    ("talk", "npc_talked"),
    ("quest_done", "quest_completed"),
    ("combat_won", "combat_ended"),
    ("turn_start", "turn_started"),
];

impl EventKind {
    pub fn def(self) -> &'static EventDef {
        EVENTS.iter().find(|d| d.event == self).expect("every event has a row")
    }
    pub fn name(self) -> &'static str {
        self.def().name
    }
    pub fn from_name(name: &str) -> Option<EventKind> {
        EVENTS.iter().find(|d| d.name == name).map(|d| d.event)
    }
    pub fn carries(self, field: WhenField) -> bool {
        self.def().when.contains(&field)
    }
    pub fn all() -> impl Iterator<Item = EventKind> {
        EVENTS.iter().map(|d| d.event)
    }
}

/// The damage types.
pub const DAMAGE_TYPES: &[(&str, &str)] = &[
    (damage::PHYSICAL, "Weapons and claws; after resistance, the victim's `armor` is subtracted."),
    (damage::FIRE, "Reduced by `fire_resistance`."),
    (damage::ICE, "Reduced by `ice_resistance`."),
    (damage::LIGHTNING, "Reduced by `lightning_resistance`."),
    (damage::POISON, "Reduced by `poison_resistance`."),
];

/// The attributes of creatures.
pub const ATTRIBUTES: &[(&str, &str)] = &[
    (attr::LEVEL, "The creature's level. Feeds no hidden formula: conditions and modifiers read it."),
    (attr::MAX_HEALTH, "Health at full; health itself is state, not an attribute."),
    (attr::STRENGTH, "Raw might. Feeds no hidden formula: conditions and modifiers read it."),
    (attr::DEXTERITY, "Agility and finesse. Feeds no hidden formula: conditions and modifiers read it."),
    (attr::INTELLIGENCE, "Wits and spellcraft. Feeds no hidden formula: conditions and modifiers read it."),
    (attr::ARMOR, "Subtracted from physical damage taken (after resistance)."),
    (attr::ACCURACY, "Skill at hitting: an attack hits with `p = clamp(1 + (accuracy − evasion) × balance.hit_per_point, balance.min_hit, 1)` (attacker's accuracy, defender's evasion)."),
    (attr::EVASION, "Skill at not being hit: lowers the attacker's chance to hit by `balance.hit_per_point` per point."),
    (attr::DAMAGE, "The amount an attack deals, read against the victim."),
    (attr::CRIT_CHANCE, "Chance (clamped to 0–1) that a hit is critical: its amount × `balance.crit_multiplier`, before mitigation."),
    (attr::SPEED, "How quickly the creature acts: an enemy takes `speed ÷ player's speed` turns per player turn (absent = 1; at most 0 reads as 0.1)."),
    (attr::LUCK, "Each point adds `luck × balance.luck_factor` to the chance of one extra loot roll (at most 0.9)."),
    (attr::FIRE_RESISTANCE, "Fraction of fire damage prevented (clamped to 0–0.9)."),
    (attr::ICE_RESISTANCE, "Fraction of ice damage prevented (clamped to 0–0.9)."),
    (attr::LIGHTNING_RESISTANCE, "Fraction of lightning damage prevented (clamped to 0–0.9)."),
    (attr::POISON_RESISTANCE, "Fraction of poison damage prevented (clamped to 0–0.9)."),
];

pub fn is_attribute(name: &str) -> bool {
    ATTRIBUTES.iter().any(|(a, _)| *a == name)
}
pub fn is_damage_type(name: &str) -> bool {
    DAMAGE_TYPES.iter().any(|(a, _)| *a == name)
}

/// The attribute that reduces each damage type (physical damage has none: armour is subtracted
/// instead).
pub const RESISTANCES: &[(&str, &str)] = &[
    (damage::FIRE, attr::FIRE_RESISTANCE),
    (damage::ICE, attr::ICE_RESISTANCE),
    (damage::LIGHTNING, attr::LIGHTNING_RESISTANCE),
    (damage::POISON, attr::POISON_RESISTANCE),
];

/// The resistance attribute of a damage type, if it has one.
pub fn resistance_of(damage_type: &str) -> Option<&'static str> {
    RESISTANCES.iter().find(|(d, _)| *d == damage_type).map(|(_, a)| *a)
}

/// `who` / `target` values.
pub const WHO: &[(&str, &str)] = &[
    (who::SELF, "The bearer of the trigger (the creature, the user, the player for quests)."),
    (who::TARGET, "The other side of the event (absent for events without target)."),
];

pub const ITEM_SLOTS: &[&str] = slot::ALL;

kinds! {
    /// The kinds of check a condition makes; the three condition-bearing contexts (triggers,
    /// modifiers, `ai` rules) use one grammar (docs/data-language.md, "Conditions").
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum CheckKind {
        HasTag,
        Attribute,
        HasItem,
        HealthBelow,
    }
}

pub struct CheckDef {
    pub kind: CheckKind,
    pub name: &'static str,
    pub doc: &'static str,
    /// Fields besides `check` and `not`.
    pub fields: &'static [FieldDef],
}

const WHO_FIELD: FieldDef = req(field::WHO, FieldType::Who, "`self` or `target`.");
pub const NOT_FIELD: FieldDef = dflt(field::NOT, FieldType::Bool, "false", "Negates the check.");
pub const CHECK_FIELD: FieldDef = req(field::CHECK, FieldType::Tag, "Which check.");
pub const ACTION_FIELD: FieldDef = req(field::ACTION, FieldType::Tag, "Which action.");

pub const CHECKS: &[CheckDef] = &[
    CheckDef {
        kind: CheckKind::HasTag,
        name: "has_tag",
        doc: "The creature carries the tag (its own `tags` or those of its equipped items).",
        fields: &[WHO_FIELD, req(field::VALUE, FieldType::Ref(RefKind::Tag), "The tag.")],
    },
    CheckDef {
        kind: CheckKind::Attribute,
        name: "attribute",
        doc: "The creature's attribute (read through modifiers) is ≥ `at_least` and/or < `below`.",
        fields: &[
            WHO_FIELD,
            req(field::ATTRIBUTE, FieldType::Attribute, "The attribute read."),
            opt(field::AT_LEAST, FieldType::Number, "Lower bound (inclusive)."),
            opt(field::BELOW, FieldType::Number, "Upper bound (exclusive)."),
        ],
    },
    CheckDef {
        kind: CheckKind::HasItem,
        name: "has_item",
        doc: "The creature holds at least `count` of the item.",
        fields: &[
            WHO_FIELD,
            req(field::ITEM, FieldType::Ref(RefKind::Registry(Registry::Items)), "The item."),
            dflt(field::COUNT, FieldType::Int { min: 1, max: i64::MAX }, "1", "At least this many."),
        ],
    },
    CheckDef {
        kind: CheckKind::HealthBelow,
        name: "health_below",
        doc: "Current health / max_health < value.",
        fields: &[WHO_FIELD, req(field::VALUE, FieldType::Fraction, "A fraction in (0, 1].")],
    },
];

pub const CHECK_ALIASES: &[(&str, &str)] =
    &[("has_tags", "has_tag"), ("tag", "has_tag"), ("has_items", "has_item"), ("health", "health_below"), ("attr", "attribute")];

impl CheckKind {
    pub fn def(self) -> &'static CheckDef {
        CHECKS.iter().find(|d| d.kind == self).expect("every check has a row")
    }
    pub fn name(self) -> &'static str {
        self.def().name
    }
    pub fn from_name(name: &str) -> Option<CheckKind> {
        CHECKS.iter().find(|d| d.name == name).map(|d| d.kind)
    }
}

kinds! {
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum ActionKind {
        Damage,
        Heal,
        GiveItem,
        TakeItem,
        ApplyStatus,
        Spawn,
        StartQuest,
        Flee,
        OpenShop,
    }
}

pub struct ActionDef {
    pub kind: ActionKind,
    pub name: &'static str,
    pub doc: &'static str,
    /// Fields besides `action`.
    pub fields: &'static [FieldDef],
    /// Events the action raises.
    pub emits: &'static [EventKind],
}

const TARGET_FIELD: FieldDef = req(field::TARGET, FieldType::Who, "Who is affected: `self` or `target`.");

pub const ACTIONS: &[ActionDef] = &[
    ActionDef {
        kind: ActionKind::Damage,
        name: "damage",
        doc: "Deals damage, reduced by the victim's resistance (and armour, for physical).",
        fields: &[
            req(field::AMOUNT, FieldType::Int { min: 1, max: u32::MAX as i64 }, "Damage before reduction."),
            req(field::DAMAGE_TYPE, FieldType::DamageType, "The damage type."),
            TARGET_FIELD,
        ],
        emits: &[EventKind::DamageTaken, EventKind::CreatureDied],
    },
    ActionDef {
        kind: ActionKind::Heal,
        name: "heal",
        doc: "Restores health, up to max_health.",
        fields: &[req(field::AMOUNT, FieldType::Int { min: 1, max: u32::MAX as i64 }, "Health restored."), TARGET_FIELD],
        emits: &[],
    },
    ActionDef {
        kind: ActionKind::GiveItem,
        name: "give_item",
        doc: "Gives item instances to a creature.",
        fields: &[
            req(field::ITEM, FieldType::Ref(RefKind::Registry(Registry::Items)), "The item."),
            dflt(field::COUNT, FieldType::Int { min: 1, max: MAX_ITEM_COUNT }, "1", "How many."),
            TARGET_FIELD,
        ],
        emits: &[EventKind::ItemPickedUp],
    },
    ActionDef {
        kind: ActionKind::TakeItem,
        name: "take_item",
        doc: "Removes items from a creature's inventory.",
        fields: &[
            req(field::ITEM, FieldType::Ref(RefKind::Registry(Registry::Items)), "The item."),
            dflt(field::COUNT, FieldType::Int { min: 1, max: MAX_ITEM_COUNT }, "1", "How many."),
            TARGET_FIELD,
        ],
        emits: &[],
    },
    ActionDef {
        kind: ActionKind::ApplyStatus,
        name: "apply_status",
        doc: "Applies a status for its default `turns` or the given number.",
        fields: &[
            req(field::STATUS, FieldType::Ref(RefKind::Registry(Registry::Statuses)), "The status."),
            opt(field::TURNS, FieldType::Int { min: 1, max: u32::MAX as i64 }, "Overrides the status's duration."),
            TARGET_FIELD,
        ],
        emits: &[],
    },
    ActionDef {
        kind: ActionKind::Spawn,
        name: "spawn",
        doc: "Spawns enemies; starts a combat if none is running.",
        fields: &[
            req(field::CREATURE, FieldType::Ref(RefKind::Registry(Registry::Creatures)), "The creature."),
            dflt(field::COUNT, FieldType::Int { min: 1, max: MAX_SPAWN_COUNT }, "1", "How many."),
        ],
        emits: &[EventKind::CombatStarted],
    },
    ActionDef {
        kind: ActionKind::StartQuest,
        name: "start_quest",
        doc: "Starts a quest (does nothing if it is already started or done). It counts from the next event on.",
        fields: &[req(field::QUEST, FieldType::Ref(RefKind::Registry(Registry::Quests)), "The quest.")],
        emits: &[],
    },
    ActionDef {
        kind: ActionKind::Flee,
        name: "flee",
        doc: "Leaves every enemy behind and ends the combat as fled.",
        fields: &[],
        emits: &[EventKind::CombatEnded],
    },
    ActionDef {
        kind: ActionKind::OpenShop,
        name: "open_shop",
        doc: "Opens a shop for the player.",
        fields: &[req(field::SHOP, FieldType::Ref(RefKind::Registry(Registry::Shops)), "The shop.")],
        emits: &[],
    },
];

pub const ACTION_ALIASES: &[(&str, &str)] = &[
    ("deal_damage", "damage"),
    ("hurt", "damage"),
    ("add_item", "give_item"),
    ("give", "give_item"),
    ("remove_item", "take_item"),
    ("add_status", "apply_status"),
    ("status", "apply_status"),
    ("summon", "spawn"),
    ("quest", "start_quest"),
    ("run", "flee"),
    ("shop", "open_shop"),
];

impl ActionKind {
    pub fn def(self) -> &'static ActionDef {
        ACTIONS.iter().find(|d| d.kind == self).expect("every action has a row")
    }
    pub fn name(self) -> &'static str {
        self.def().name
    }
    pub fn from_name(name: &str) -> Option<ActionKind> {
        ACTIONS.iter().find(|d| d.name == name).map(|d| d.kind)
    }
}

/// The widest and tallest prefab grid: a floor lays out prefabs of at most this many tiles across
/// and down (`invalid-prefab-grid` beyond).
pub const MAX_GRID_SIDE: usize = 512;

/// Glyphs of a prefab grid.
pub const GRID_GLYPHS: &[(char, &str)] = &[
    (glyph::WALL, "wall"),
    (glyph::FLOOR, "floor"),
    (glyph::DOOR, "door"),
    (glyph::LOOT_PILE, "loot pile"),
    (glyph::ENEMY, "enemy"),
    (glyph::NPC, "NPC"),
    (glyph::ENTRY, "entry point"),
];

/// The version of the data language these tables describe (what `rustkeep --version` reports).
/// A new event, check, action or field raises the minor number; a change that makes valid data
/// invalid, or valid data mean something else, raises the major one.
pub const LANGUAGE_VERSION: &str = "1.3";

#[cfg(test)]
mod tests;
