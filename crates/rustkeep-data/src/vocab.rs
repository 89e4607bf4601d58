//! The engine vocabulary and the shape of every registry, as data.
//!
//! This module is the single source of truth (architecture invariant 1): the loader walks entries
//! by these tables, the validator reads the event/check/action rows, the language server completes
//! and hovers from them, the JSON Schema and the reference docs are generated from them, and the
//! engine interprets the same names. Adding an event, a check, an action or a registry field is one
//! row here.

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

/// One of the twelve events of SPEC §3.5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Event {
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

/// A `when` filter field (SPEC §3.5).
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
    WhenFieldDef { field: WhenField::DamageType, name: "damage_type", value: WhenValue::DamageType, doc: "The damage type of the hit or of the damage taken." },
    WhenFieldDef { field: WhenField::Outcome, name: "outcome", value: WhenValue::Outcome, doc: "How the combat ended: `victory` or `fled`." },
    WhenFieldDef { field: WhenField::Item, name: "item", value: WhenValue::Id(Registry::Items), doc: "The item picked up or used (an item ID)." },
    WhenFieldDef { field: WhenField::Floor, name: "floor", value: WhenValue::Id(Registry::Floors), doc: "The floor entered (a floor ID)." },
    WhenFieldDef { field: WhenField::Prefab, name: "prefab", value: WhenValue::Id(Registry::Prefabs), doc: "The room prefab entered (a prefab ID)." },
    WhenFieldDef { field: WhenField::Npc, name: "npc", value: WhenValue::Id(Registry::Npcs), doc: "The NPC talked to (an NPC ID)." },
    WhenFieldDef { field: WhenField::Quest, name: "quest", value: WhenValue::Id(Registry::Quests), doc: "The quest completed (a quest ID)." },
];

pub const OUTCOMES: &[&str] = &["victory", "fled"];

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
    pub event: Event,
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
        event: Event::TurnStarted,
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
        event: Event::CombatStarted,
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
        event: Event::AttackHit,
        name: "attack_hit",
        source: "the attacker",
        target: "the victim",
        target_presence: TargetPresence::Always,
        source_maybe_not_player: true,
        payload: &["weapon", "damage_type"],
        when: &[WhenField::DamageType],
        doc: "An attack hits. Raised on the attacker: a flaming sword's trigger hangs here.",
    },
    EventDef {
        event: Event::DamageTaken,
        name: "damage_taken",
        source: "the victim",
        target: "the dealer",
        target_presence: TargetPresence::Always,
        source_maybe_not_player: true,
        payload: &["amount", "damage_type"],
        when: &[WhenField::DamageType],
        doc: "A creature takes damage (also when it is reduced to 0). Raised on the victim: thorn armour hangs here.",
    },
    EventDef {
        event: Event::CreatureDied,
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
        event: Event::CombatEnded,
        name: "combat_ended",
        source: "the player",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: false,
        payload: &["outcome"],
        when: &[WhenField::Outcome],
        doc: "A combat ended, with `outcome` = `victory` (no enemy left) or `fled`.",
    },
    EventDef {
        event: Event::ItemPickedUp,
        name: "item_picked_up",
        source: "the receiver",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: true,
        payload: &["item", "count", "affixes"],
        when: &[WhenField::Item],
        doc: "A creature received an item instance (pickup or `give_item`).",
    },
    EventDef {
        event: Event::ItemUsed,
        name: "item_used",
        source: "the user",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: true,
        payload: &["item"],
        when: &[WhenField::Item],
        doc: "An item was used; its `use` actions ran first.",
    },
    EventDef {
        event: Event::FloorEntered,
        name: "floor_entered",
        source: "the player",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: false,
        payload: &["floor", "depth"],
        when: &[WhenField::Floor],
        doc: "The player entered a floor. Floor triggers run on this event.",
    },
    EventDef {
        event: Event::RoomEntered,
        name: "room_entered",
        source: "the player",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: false,
        payload: &["prefab"],
        when: &[WhenField::Prefab],
        doc: "The player entered a room built from a prefab. Prefab triggers run on this event.",
    },
    EventDef {
        event: Event::NpcTalked,
        name: "npc_talked",
        source: "the player",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: false,
        payload: &["npc"],
        when: &[WhenField::Npc],
        doc: "The player talked to an NPC; its `on_talk` actions ran first.",
    },
    EventDef {
        event: Event::QuestCompleted,
        name: "quest_completed",
        source: "the player",
        target: "—",
        target_presence: TargetPresence::Never,
        source_maybe_not_player: false,
        payload: &["quest"],
        when: &[WhenField::Quest],
        doc: "A quest reached its count; its reward actions ran first.",
    },
];

/// Names modders reach for that are not events, with the event they mean (from the seed ticket).
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

impl Event {
    pub fn def(self) -> &'static EventDef {
        EVENTS.iter().find(|d| d.event == self).expect("every event has a row")
    }
    pub fn name(self) -> &'static str {
        self.def().name
    }
    pub fn from_name(name: &str) -> Option<Event> {
        EVENTS.iter().find(|d| d.name == name).map(|d| d.event)
    }
    pub fn carries(self, field: WhenField) -> bool {
        self.def().when.contains(&field)
    }
    pub fn all() -> impl Iterator<Item = Event> {
        EVENTS.iter().map(|d| d.event)
    }
}

/// The damage types of SPEC §2.1.
pub const DAMAGE_TYPES: &[(&str, &str)] = &[
    ("physical", "Weapons and claws; after resistance, the victim's `armor` is subtracted."),
    ("fire", "Reduced by `fire_resistance`."),
    ("ice", "Reduced by `ice_resistance`."),
    ("lightning", "Reduced by `lightning_resistance`."),
    ("poison", "Reduced by `poison_resistance`."),
];

/// The attributes of SPEC §2.1.
pub const ATTRIBUTES: &[(&str, &str)] = &[
    ("level", "The creature's level."),
    ("max_health", "Health at full; health itself is state, not an attribute."),
    ("strength", "Raw might."),
    ("dexterity", "Agility and finesse."),
    ("intelligence", "Wits and spellcraft."),
    ("armor", "Subtracted from physical damage taken (after resistance)."),
    ("accuracy", "Skill at hitting."),
    ("evasion", "Skill at not being hit."),
    ("damage", "The amount an attack deals, read against the victim."),
    ("crit_chance", "Chance of a critical hit."),
    ("speed", "How quickly the creature acts."),
    ("luck", "Each point adds `luck × balance.luck_factor` to the chance of one extra loot roll (at most 0.9)."),
    ("fire_resistance", "Fraction of fire damage prevented (clamped to 0–0.9)."),
    ("ice_resistance", "Fraction of ice damage prevented (clamped to 0–0.9)."),
    ("lightning_resistance", "Fraction of lightning damage prevented (clamped to 0–0.9)."),
    ("poison_resistance", "Fraction of poison damage prevented (clamped to 0–0.9)."),
];

pub fn is_attribute(name: &str) -> bool {
    ATTRIBUTES.iter().any(|(a, _)| *a == name)
}
pub fn is_damage_type(name: &str) -> bool {
    DAMAGE_TYPES.iter().any(|(a, _)| *a == name)
}

/// `who` / `target` values.
pub const WHO: &[(&str, &str)] = &[
    ("self", "The bearer of the trigger (the creature, the user, the player for quests)."),
    ("target", "The other side of the event (absent for events without target)."),
];

pub const ITEM_SLOTS: &[&str] = &["weapon", "armor", "ring", "amulet"];

/// The registries of SPEC §2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Registry {
    Items,
    Affixes,
    Creatures,
    CharacterOptions,
    Statuses,
    Quests,
    LootTables,
    Floors,
    Prefabs,
    Npcs,
    Shops,
}

impl Registry {
    pub const ALL: [Registry; 11] = [
        Registry::Items,
        Registry::Affixes,
        Registry::Creatures,
        Registry::CharacterOptions,
        Registry::Statuses,
        Registry::Quests,
        Registry::LootTables,
        Registry::Floors,
        Registry::Prefabs,
        Registry::Npcs,
        Registry::Shops,
    ];
    pub fn def(self) -> &'static RegistryDef {
        REGISTRIES.iter().find(|d| d.registry == self).expect("every registry has a row")
    }
    pub fn key(self) -> &'static str {
        self.def().key
    }
    /// The singular noun used in messages ("item", "loot table").
    pub fn noun(self) -> &'static str {
        self.def().noun
    }
    pub fn from_key(key: &str) -> Option<Registry> {
        REGISTRIES.iter().find(|d| d.key == key).map(|d| d.registry)
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What an ID-valued field must name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RefKind {
    /// Any entry of this registry.
    Registry(Registry),
    /// A loot table whose entries are items (`loot =`, `stock =`, item tables' `table =`).
    ItemTable,
    /// A loot table whose entries are affixes (`affixes =`, affix tables' `table =`).
    AffixTable,
    /// A nested `table =` entry: same kind as the table that holds it.
    NestedTable,
    /// A tag: free vocabulary, carried by items' and creatures' `tags`.
    Tag,
}

impl RefKind {
    pub fn registry(self) -> Option<Registry> {
        match self {
            RefKind::Registry(r) => Some(r),
            RefKind::ItemTable | RefKind::AffixTable | RefKind::NestedTable => Some(Registry::LootTables),
            RefKind::Tag => None,
        }
    }
    pub fn describe(self) -> &'static str {
        match self {
            RefKind::Registry(r) => r.noun(),
            RefKind::ItemTable => "item table",
            RefKind::AffixTable => "affix table",
            RefKind::NestedTable => "loot table",
            RefKind::Tag => "tag",
        }
    }
}

/// The value shape of a field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FieldType {
    /// The entry's own ID.
    Id,
    /// An ID of an existing entry of the same registry (`overrides`).
    Overrides,
    Str,
    /// Multi-line text: a prefab grid.
    Grid,
    Bool,
    /// An integer with a lower bound.
    Int {
        min: i64,
    },
    /// A float (integers accepted) above a bound; `exclusive` means strictly greater.
    Float {
        min: f64,
        exclusive: bool,
    },
    /// A probability in (0, 1].
    Chance,
    /// A fraction in (0, 1] (`health_below`).
    Fraction,
    /// Any number (attribute bounds, modifier amounts).
    Number,
    /// One of a fixed set of strings.
    Enum(&'static [&'static str]),
    DamageType,
    Attribute,
    Who,
    Ref(RefKind),
    RefList(RefKind),
    /// A list of tags (carried).
    Tags,
    /// An integer or a "min-max" string.
    Range,
    /// `attributes = { level = 3, … }`.
    AttributeTable,
    Modifiers,
    Triggers,
    Actions,
    Ai,
    Conditions,
    Event,
    When,
    LootEntries,
    /// `nothing = true`.
    True,
    /// The discriminator (`check = …`, `action = …`).
    Tag,
}

impl FieldType {
    /// A short human description for messages and docs.
    pub fn describe(self) -> String {
        match self {
            FieldType::Id => "an ID `namespace:name`".into(),
            FieldType::Overrides => "the ID of the entry it replaces".into(),
            FieldType::Str => "a string".into(),
            FieldType::Grid => "a multi-line string of glyphs".into(),
            FieldType::Bool => "a boolean".into(),
            FieldType::Int { min } => format!("an integer ≥ {min}"),
            FieldType::Float { min, exclusive: true } => format!("a number > {min}"),
            FieldType::Float { min, exclusive: false } => format!("a number ≥ {min}"),
            FieldType::Chance => "a probability in (0, 1]".into(),
            FieldType::Fraction => "a fraction in (0, 1]".into(),
            FieldType::Number => "a number".into(),
            FieldType::Enum(v) => format!("one of {}", v.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")),
            FieldType::DamageType => "a damage type".into(),
            FieldType::Attribute => "an attribute".into(),
            FieldType::Who => "`self` or `target`".into(),
            FieldType::Ref(k) => format!("a {} ID", k.describe()),
            FieldType::RefList(k) => format!("a list of {} IDs", k.describe()),
            FieldType::Tags => "a list of tags".into(),
            FieldType::Range => "a range: an integer or a string \"min-max\"".into(),
            FieldType::AttributeTable => "a table attribute → number".into(),
            FieldType::Modifiers => "a list of modifiers".into(),
            FieldType::Triggers => "a list of triggers".into(),
            FieldType::Actions => "a list of actions".into(),
            FieldType::Ai => "a list of `{ condition, actions }` rules".into(),
            FieldType::Conditions => "a list of checks".into(),
            FieldType::Event => "an event name".into(),
            FieldType::When => "a table of event filters".into(),
            FieldType::LootEntries => "a list of loot entries".into(),
            FieldType::True => "`true`".into(),
            FieldType::Tag => "a name".into(),
        }
    }
}

/// One field of a registry entry, check, action, modifier, trigger or loot entry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FieldDef {
    pub name: &'static str,
    pub ty: FieldType,
    pub required: bool,
    pub default: Option<&'static str>,
    pub doc: &'static str,
}

const fn req(name: &'static str, ty: FieldType, doc: &'static str) -> FieldDef {
    FieldDef { name, ty, required: true, default: None, doc }
}
const fn opt(name: &'static str, ty: FieldType, doc: &'static str) -> FieldDef {
    FieldDef { name, ty, required: false, default: None, doc }
}
const fn dflt(name: &'static str, ty: FieldType, default: &'static str, doc: &'static str) -> FieldDef {
    FieldDef { name, ty, required: false, default: Some(default), doc }
}

const ID: FieldDef = req("id", FieldType::Id, "The entry's ID, `namespace:name`; may be omitted when `overrides` is given.");
const OVERRIDES: FieldDef = opt("overrides", FieldType::Overrides, "Replace this existing entry of the same registry completely.");
const NAME: FieldDef = req("name", FieldType::Str, "Display name.");
const TAGS: FieldDef = opt("tags", FieldType::Tags, "Tags this entry carries, for `has_tag` checks.");
const MODIFIERS: FieldDef = opt("modifiers", FieldType::Modifiers, "Attribute modifiers while the entry applies.");
const TRIGGERS: FieldDef = opt("triggers", FieldType::Triggers, "Triggers: `{ on, when, condition, chance, actions }`.");

pub struct RegistryDef {
    pub registry: Registry,
    pub key: &'static str,
    pub noun: &'static str,
    pub doc: &'static str,
    pub fields: &'static [FieldDef],
}

pub const REGISTRIES: &[RegistryDef] = &[
    RegistryDef {
        registry: Registry::Items,
        key: "items",
        noun: "item",
        doc: "Things a creature can carry, equip or use. `core:gold` is an item.",
        fields: &[
            ID,
            OVERRIDES,
            NAME,
            TAGS,
            dflt("price", FieldType::Int { min: 0 }, "0", "Base price in gold."),
            dflt("stackable", FieldType::Bool, "false", "Whether copies stack in one inventory slot."),
            opt("slot", FieldType::Enum(ITEM_SLOTS), "Equipment slot; omitted = not equippable."),
            dflt("damage_type", FieldType::DamageType, "physical", "For weapons: the damage type of attacks made with it."),
            MODIFIERS,
            opt("use", FieldType::Actions, "Actions run when the item is used (self = the user, no target); emits `item_used`."),
            TRIGGERS,
        ],
    },
    RegistryDef {
        registry: Registry::Affixes,
        key: "affixes",
        noun: "affix",
        doc: "Properties an item instance can carry. Tiers are separate entries (`core:flaming`, `core:greater_flaming`).",
        fields: &[
            ID,
            OVERRIDES,
            NAME,
            dflt("price_factor", FieldType::Float { min: 0.0, exclusive: true }, "1.0", "Multiplies the item's price."),
            MODIFIERS,
            TRIGGERS,
        ],
    },
    RegistryDef {
        registry: Registry::Creatures,
        key: "creatures",
        noun: "creature",
        doc: "Monsters and other creatures.",
        fields: &[
            ID,
            OVERRIDES,
            NAME,
            TAGS,
            opt("attributes", FieldType::AttributeTable, "Base attributes, e.g. `{ max_health = 12, damage = 3 }`."),
            dflt("damage_type", FieldType::DamageType, "physical", "The damage type of its attacks."),
            opt("loot", FieldType::Ref(RefKind::ItemTable), "Item table rolled onto the floor when it dies."),
            opt("ai", FieldType::Ai, "Behaviour rules `{ condition, actions }` (self = the creature, target = the player)."),
            TRIGGERS,
        ],
    },
    RegistryDef {
        registry: Registry::CharacterOptions,
        key: "character_options",
        noun: "character option",
        doc: "Classes and backgrounds the player picks.",
        fields: &[
            ID,
            OVERRIDES,
            NAME,
            MODIFIERS,
            opt("on_create", FieldType::Actions, "Actions run when a character is created with it (self = the new character, no target)."),
            TRIGGERS,
        ],
    },
    RegistryDef {
        registry: Registry::Statuses,
        key: "statuses",
        noun: "status",
        doc: "Temporary states such as `core:burning`, counting down at their bearer's `turn_started`.",
        fields: &[ID, OVERRIDES, NAME, opt("turns", FieldType::Int { min: 1 }, "Default duration in turns."), MODIFIERS, TRIGGERS],
    },
    RegistryDef {
        registry: Registry::Quests,
        key: "quests",
        noun: "quest",
        doc: "A quest is a trigger with a fixed bearer (the player) and a count; the actions are the reward.",
        fields: &[
            ID,
            OVERRIDES,
            NAME,
            req("on", FieldType::Event, "The event the quest counts."),
            opt("when", FieldType::When, "Event filter: every field given must match."),
            opt("condition", FieldType::Conditions, "Checks on creatures (self = the player, target = the other side)."),
            dflt("chance", FieldType::Chance, "1", "Probability that a matching event counts."),
            opt("actions", FieldType::Actions, "The reward, run when the count is reached."),
            dflt("count", FieldType::Int { min: 1 }, "1", "How many matching events complete the quest."),
        ],
    },
    RegistryDef {
        registry: Registry::LootTables,
        key: "loot_tables",
        noun: "loot table",
        doc: "Weighted tables of items (item tables) or affixes (affix tables); see SPEC §4.",
        fields: &[
            ID,
            OVERRIDES,
            dflt("rolls", FieldType::Range, "1", "How many weighted picks one evaluation makes."),
            req("entries", FieldType::LootEntries, "The entries: exactly one of item / table / affix / nothing each."),
        ],
    },
    RegistryDef {
        registry: Registry::Floors,
        key: "floors",
        noun: "floor",
        doc: "Dungeon floors.",
        fields: &[
            ID,
            OVERRIDES,
            opt("name", FieldType::Str, "Display name."),
            opt("depth", FieldType::Int { min: 1 }, "Floor number."),
            opt("loot", FieldType::Ref(RefKind::ItemTable), "Item table for loot piles on this floor."),
            opt("prefabs", FieldType::RefList(RefKind::Registry(Registry::Prefabs)), "Room prefabs this floor is built from."),
            opt("creatures", FieldType::RefList(RefKind::Registry(Registry::Creatures)), "Creatures an `e` glyph may spawn."),
            TRIGGERS,
        ],
    },
    RegistryDef {
        registry: Registry::Prefabs,
        key: "prefabs",
        noun: "prefab",
        doc: "Room layouts: `#` wall, `.` floor, `+` door, `l` loot pile, `e` enemy, `n` NPC, `@` entry point.",
        fields: &[
            ID,
            OVERRIDES,
            req("grid", FieldType::Grid, "The room as rows of glyphs of equal width."),
            opt("loot", FieldType::Ref(RefKind::ItemTable), "Item table for this room's `l` piles (else the floor's)."),
            TRIGGERS,
        ],
    },
    RegistryDef {
        registry: Registry::Npcs,
        key: "npcs",
        noun: "NPC",
        doc: "Characters the player talks to.",
        fields: &[ID, OVERRIDES, NAME, opt("on_talk", FieldType::Actions, "Actions run when the player talks to it (self = the player, no target).")],
    },
    RegistryDef {
        registry: Registry::Shops,
        key: "shops",
        noun: "shop",
        doc: "Shops opened by `open_shop`.",
        fields: &[
            ID,
            OVERRIDES,
            NAME,
            opt("stock", FieldType::Ref(RefKind::ItemTable), "Item table rolled for the shop's stock."),
            dflt("price_factor", FieldType::Float { min: 0.0, exclusive: true }, "1.0", "Multiplies prices."),
        ],
    },
];

/// The singleton `[balance]` table.
pub const BALANCE_FIELDS: &[FieldDef] = &[dflt(
    "luck_factor",
    FieldType::Float { min: 0.0, exclusive: false },
    "0.05",
    "Each point of luck adds this to the chance of one extra roll on every loot table (p_extra = clamp(luck × luck_factor, 0, 0.9)).",
)];

/// Fields of a trigger table (`triggers = [ … ]`). Quests carry the same fields flattened.
pub const TRIGGER_FIELDS: &[FieldDef] = &[
    req("on", FieldType::Event, "The event this trigger listens to."),
    opt("when", FieldType::When, "Event filter: every field given must match the event's payload."),
    opt("condition", FieldType::Conditions, "Checks on creatures; all must hold."),
    dflt("chance", FieldType::Chance, "1", "Probability that the trigger fires when everything matches."),
    opt("actions", FieldType::Actions, "What happens."),
];

pub const MODIFIER_FIELDS: &[FieldDef] = &[
    req("attribute", FieldType::Attribute, "The attribute changed."),
    opt("add", FieldType::Number, "Added to the base value."),
    opt("multiply", FieldType::Number, "Multiplies (base + Σ add)."),
    opt("condition", FieldType::Conditions, "Checks that must hold at the read (target = the opponent of the read)."),
];

pub const AI_FIELDS: &[FieldDef] = &[
    opt("condition", FieldType::Conditions, "Checks (self = the creature, target = the player)."),
    opt("actions", FieldType::Actions, "What the creature does when the condition holds."),
];

pub const LOOT_ENTRY_FIELDS: &[FieldDef] = &[
    opt("item", FieldType::Ref(RefKind::Registry(Registry::Items)), "An item to give."),
    opt("table", FieldType::Ref(RefKind::NestedTable), "A nested table of the same kind, evaluated once per pick."),
    opt("affix", FieldType::Ref(RefKind::Registry(Registry::Affixes)), "An affix (only in affix tables)."),
    opt("nothing", FieldType::True, "A blank."),
    opt("weight", FieldType::Int { min: 1 }, "Integer weight ≥ 1 (not on guaranteed entries)."),
    dflt("guaranteed", FieldType::Bool, "false", "Always given once per evaluation; takes no weight."),
    dflt("count", FieldType::Range, "1", "For items: how many, drawn from this range."),
    opt("affixes", FieldType::Ref(RefKind::AffixTable), "For items: an affix table evaluated once for the instance."),
];

/// The three condition-bearing contexts use one grammar (SPEC §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckKind {
    HasTag,
    Attribute,
    HasItem,
    HealthBelow,
}

pub struct CheckDef {
    pub kind: CheckKind,
    pub name: &'static str,
    pub doc: &'static str,
    /// Fields besides `check` and `not`.
    pub fields: &'static [FieldDef],
}

const WHO_FIELD: FieldDef = req("who", FieldType::Who, "`self` or `target`.");
pub const NOT_FIELD: FieldDef = dflt("not", FieldType::Bool, "false", "Negates the check.");
pub const CHECK_FIELD: FieldDef = req("check", FieldType::Tag, "Which check.");
pub const ACTION_FIELD: FieldDef = req("action", FieldType::Tag, "Which action.");

pub const CHECKS: &[CheckDef] = &[
    CheckDef {
        kind: CheckKind::HasTag,
        name: "has_tag",
        doc: "The creature carries the tag (its own `tags` or those of its equipped items).",
        fields: &[WHO_FIELD, req("value", FieldType::Ref(RefKind::Tag), "The tag.")],
    },
    CheckDef {
        kind: CheckKind::Attribute,
        name: "attribute",
        doc: "The creature's attribute (read through modifiers) is ≥ `at_least` and/or < `below`.",
        fields: &[
            WHO_FIELD,
            req("attribute", FieldType::Attribute, "The attribute read."),
            opt("at_least", FieldType::Number, "Lower bound (inclusive)."),
            opt("below", FieldType::Number, "Upper bound (exclusive)."),
        ],
    },
    CheckDef {
        kind: CheckKind::HasItem,
        name: "has_item",
        doc: "The creature holds at least `count` of the item.",
        fields: &[
            WHO_FIELD,
            req("item", FieldType::Ref(RefKind::Registry(Registry::Items)), "The item."),
            dflt("count", FieldType::Int { min: 1 }, "1", "At least this many."),
        ],
    },
    CheckDef {
        kind: CheckKind::HealthBelow,
        name: "health_below",
        doc: "Current health / max_health < value.",
        fields: &[WHO_FIELD, req("value", FieldType::Fraction, "A fraction in (0, 1].")],
    },
];

pub const CHECK_ALIASES: &[(&str, &str)] =
    &[("has_tags", "has_tag"), ("tag", "has_tag"), ("has_items", "has_item"), ("health", "health_below"), ("attr", "attribute")];

impl CheckKind {
    pub fn def(self) -> &'static CheckDef {
        CHECKS.iter().find(|d| d.kind == self).expect("every check has a row")
    }
    pub fn from_name(name: &str) -> Option<CheckKind> {
        CHECKS.iter().find(|d| d.name == name).map(|d| d.kind)
    }
}

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

pub struct ActionDef {
    pub kind: ActionKind,
    pub name: &'static str,
    pub doc: &'static str,
    /// Fields besides `action`.
    pub fields: &'static [FieldDef],
    /// Events the action raises.
    pub emits: &'static [Event],
}

const TARGET_FIELD: FieldDef = req("target", FieldType::Who, "Who is affected: `self` or `target`.");

pub const ACTIONS: &[ActionDef] = &[
    ActionDef {
        kind: ActionKind::Damage,
        name: "damage",
        doc: "Deals damage, reduced by the victim's resistance (and armour, for physical).",
        fields: &[
            req("amount", FieldType::Int { min: 1 }, "Damage before reduction."),
            req("damage_type", FieldType::DamageType, "The damage type."),
            TARGET_FIELD,
        ],
        emits: &[Event::DamageTaken, Event::CreatureDied],
    },
    ActionDef {
        kind: ActionKind::Heal,
        name: "heal",
        doc: "Restores health, up to max_health.",
        fields: &[req("amount", FieldType::Int { min: 1 }, "Health restored."), TARGET_FIELD],
        emits: &[],
    },
    ActionDef {
        kind: ActionKind::GiveItem,
        name: "give_item",
        doc: "Gives item instances to a creature.",
        fields: &[
            req("item", FieldType::Ref(RefKind::Registry(Registry::Items)), "The item."),
            dflt("count", FieldType::Int { min: 1 }, "1", "How many."),
            TARGET_FIELD,
        ],
        emits: &[Event::ItemPickedUp],
    },
    ActionDef {
        kind: ActionKind::TakeItem,
        name: "take_item",
        doc: "Removes items from a creature's inventory.",
        fields: &[
            req("item", FieldType::Ref(RefKind::Registry(Registry::Items)), "The item."),
            dflt("count", FieldType::Int { min: 1 }, "1", "How many."),
            TARGET_FIELD,
        ],
        emits: &[],
    },
    ActionDef {
        kind: ActionKind::ApplyStatus,
        name: "apply_status",
        doc: "Applies a status for its default `turns` or the given number.",
        fields: &[
            req("status", FieldType::Ref(RefKind::Registry(Registry::Statuses)), "The status."),
            opt("turns", FieldType::Int { min: 1 }, "Overrides the status's duration."),
            TARGET_FIELD,
        ],
        emits: &[],
    },
    ActionDef {
        kind: ActionKind::Spawn,
        name: "spawn",
        doc: "Spawns enemies; starts a combat if none is running.",
        fields: &[
            req("creature", FieldType::Ref(RefKind::Registry(Registry::Creatures)), "The creature."),
            dflt("count", FieldType::Int { min: 1 }, "1", "How many."),
        ],
        emits: &[Event::CombatStarted],
    },
    ActionDef {
        kind: ActionKind::StartQuest,
        name: "start_quest",
        doc: "Starts a quest (does nothing if it is already started or done). It counts from the next event on.",
        fields: &[req("quest", FieldType::Ref(RefKind::Registry(Registry::Quests)), "The quest.")],
        emits: &[],
    },
    ActionDef {
        kind: ActionKind::Flee,
        name: "flee",
        doc: "Leaves every enemy behind and ends the combat as fled.",
        fields: &[],
        emits: &[Event::CombatEnded],
    },
    ActionDef {
        kind: ActionKind::OpenShop,
        name: "open_shop",
        doc: "Opens a shop for the player.",
        fields: &[req("shop", FieldType::Ref(RefKind::Registry(Registry::Shops)), "The shop.")],
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
    pub fn from_name(name: &str) -> Option<ActionKind> {
        ACTIONS.iter().find(|d| d.name == name).map(|d| d.kind)
    }
}

/// Glyphs of a prefab grid.
pub const GRID_GLYPHS: &[(char, &str)] =
    &[('#', "wall"), ('.', "floor"), ('+', "door"), ('l', "loot pile"), ('e', "enemy"), ('n', "NPC"), ('@', "entry point")];

/// The ID grammar of SPEC §1.4: `^[a-z][a-z0-9_]*:[a-z0-9_]+(/[a-z0-9_]+)*$`.
pub fn is_valid_id(s: &str) -> bool {
    let Some((ns, rest)) = s.split_once(':') else { return false };
    is_valid_namespace(ns)
        && !rest.is_empty()
        && rest.split('/').all(|seg| !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'))
}

/// A mod id / namespace: `[a-z][a-z0-9_]*`.
pub fn is_valid_namespace(s: &str) -> bool {
    let mut b = s.bytes();
    matches!(b.next(), Some(c) if c.is_ascii_lowercase()) && b.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
}

pub fn namespace_of(id: &str) -> &str {
    // A byte scan: this runs for every entry and reference of a pack.
    match id.bytes().position(|b| b == b':') {
        Some(i) => &id[..i],
        None => "",
    }
}

/// The version of the data language these tables describe (what `rustkeep --version` reports).
/// A new event, check, action or field raises the minor number; a change that makes valid data
/// invalid, or valid data mean something else, raises the major one.
pub const LANGUAGE_VERSION: &str = "1.1";

#[cfg(test)]
mod tests {
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

    #[test]
    fn aliases_point_at_real_names() {
        for (_, to) in EVENT_ALIASES {
            assert!(Event::from_name(to).is_some(), "{to}");
        }
        for (_, to) in CHECK_ALIASES {
            assert!(CheckKind::from_name(to).is_some(), "{to}");
        }
        for (_, to) in ACTION_ALIASES {
            assert!(ActionKind::from_name(to).is_some(), "{to}");
        }
    }

    #[test]
    fn id_grammar() {
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
}
