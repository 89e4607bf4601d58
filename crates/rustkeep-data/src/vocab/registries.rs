//! The registries and the shape of their entries: every field with its type, whether it is
//! required, its default and one line of docs; the fields of `[balance]`, triggers, modifiers,
//! `ai` rules and loot entries.

use super::{damage, field, DEFAULT_ITEM_COLOR, DEFAULT_ITEM_GLYPH, DEFAULT_NPC_COLOR, ITEM_SLOTS};

/// The registries of the data language (docs/reference.md).
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
    /// The row of one of this registry's fields.
    pub fn field(self, name: &str) -> Option<&'static FieldDef> {
        self.def().fields.iter().find(|f| f.name == name)
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
    /// An integer with a lower bound and an upper one (`i64::MAX` where only the type bounds it;
    /// a value above `max` is `value-out-of-range`).
    Int {
        min: i64,
        max: i64,
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
    /// One character drawn on the map (`vocab::glyph_problem` says what fits).
    Glyph,
    /// One of the sixteen terminal colour names ([`super::COLORS`]) or `#rrggbb`.
    Color,
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
    /// A list of folder paths (a scenario's `mods`, relative to the scenario file).
    Paths,
    /// A table with these fields (a scenario's `[player]`).
    Table(&'static [FieldDef]),
    /// A list of tables with these fields (a scenario's `[[enemies]]` and `[[steps]]`).
    TableList(&'static [FieldDef]),
    /// A creature of a scenario: `player` or `enemy:N`.
    Actor,
    /// An injected event's payload: the event's own payload keys.
    Payload,
    /// One action as an inline table (a scenario step's `action`).
    Action,
    /// Where a scenario's `start` step enters the dungeon: `true` (its first floor) or a floor ID.
    StartAt,
    /// A bound of an expectation: a number (exactly that) or `{ at_least, below }`; `integer`:
    /// counts, so the number must be whole.
    Bound {
        integer: bool,
    },
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
            FieldType::Int { min, max: i64::MAX } => format!("an integer ≥ {min}"),
            FieldType::Int { min, max } => format!("an integer from {min} to {max}"),
            FieldType::Float { min, exclusive: true } => format!("a number > {min}"),
            FieldType::Float { min, exclusive: false } => format!("a number ≥ {min}"),
            FieldType::Chance => "a probability in (0, 1]".into(),
            FieldType::Fraction => "a fraction in (0, 1]".into(),
            FieldType::Number => "a number".into(),
            FieldType::Enum(v) => format!("one of {}", v.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", ")),
            FieldType::Glyph => "one character".into(),
            FieldType::Color => "a colour: one of the 16 terminal colour names or `#rrggbb`".into(),
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
            FieldType::Paths => "a list of folder paths".into(),
            FieldType::Table(_) => "a table".into(),
            FieldType::TableList(_) => "a list of tables".into(),
            FieldType::Actor => "`player` or `enemy:N`".into(),
            FieldType::Payload => "a table of the event's payload keys".into(),
            FieldType::Action => "an action as an inline table".into(),
            FieldType::StartAt => "`true` (the first floor) or a floor ID".into(),
            FieldType::Bound { integer: true } => "a whole number (exactly) or `{ at_least, below }`".into(),
            FieldType::Bound { integer: false } => "a number (exactly) or `{ at_least, below }`".into(),
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

pub(super) const fn req(name: &'static str, ty: FieldType, doc: &'static str) -> FieldDef {
    FieldDef { name, ty, required: true, default: None, doc }
}
pub(super) const fn opt(name: &'static str, ty: FieldType, doc: &'static str) -> FieldDef {
    FieldDef { name, ty, required: false, default: None, doc }
}
pub(super) const fn dflt(name: &'static str, ty: FieldType, default: &'static str, doc: &'static str) -> FieldDef {
    FieldDef { name, ty, required: false, default: Some(default), doc }
}

const ID: FieldDef = req(field::ID, FieldType::Id, "The entry's ID, `namespace:name`; may be omitted when `overrides` is given.");
const OVERRIDES: FieldDef = opt(field::OVERRIDES, FieldType::Overrides, "Replace this existing entry of the same registry completely.");
const NAME: FieldDef = req(field::NAME, FieldType::Str, "Display name.");
const TAGS: FieldDef = opt(field::TAGS, FieldType::Tags, "Tags this entry carries, for `has_tag` checks.");
const MODIFIERS: FieldDef = opt(field::MODIFIERS, FieldType::Modifiers, "Attribute modifiers while the entry applies.");
const TRIGGERS: FieldDef = opt(field::TRIGGERS, FieldType::Triggers, "Triggers: `{ on, when, condition, chance, actions }`.");

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
            dflt(field::GLYPH, FieldType::Glyph, DEFAULT_ITEM_GLYPH, "The character drawn for it lying on the map."),
            dflt(field::COLOR, FieldType::Color, DEFAULT_ITEM_COLOR, "Its colour on the map: one of the 16 terminal colour names (`red`, `bright_red`, …) or `#rrggbb`."),
            TAGS,
            dflt(field::PRICE, FieldType::Int { min: 0, max: i64::MAX }, "0", "Base price in gold."),
            dflt(field::STACKABLE, FieldType::Bool, "false", "Whether copies stack in one inventory slot."),
            opt(field::SLOT, FieldType::Enum(ITEM_SLOTS), "Equipment slot; omitted = not equippable."),
            dflt(field::DAMAGE_TYPE, FieldType::DamageType, damage::PHYSICAL, "For weapons: the damage type of attacks made with it."),
            MODIFIERS,
            opt(field::USE, FieldType::Actions, "Actions run when the item is used (self = the user, no target); emits `item_used`."),
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
            dflt(field::PRICE_FACTOR, FieldType::Float { min: 0.0, exclusive: true }, "1.0", "Multiplies the item's price."),
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
            opt(field::GLYPH, FieldType::Glyph, "The character drawn for it on the map; omitted = the lower-case first letter of its name."),
            opt(field::COLOR, FieldType::Color, "Its colour on the map: one of the 16 terminal colour names (`red`, `bright_red`, …) or `#rrggbb`; omitted = green, yellow or red by its health."),
            TAGS,
            opt(field::ATTRIBUTES, FieldType::AttributeTable, "Base attributes, e.g. `{ max_health = 12, damage = 3 }`."),
            dflt(field::DAMAGE_TYPE, FieldType::DamageType, damage::PHYSICAL, "The damage type of its attacks."),
            opt(field::LOOT, FieldType::Ref(RefKind::ItemTable), "Item table rolled onto the floor when it dies."),
            opt(field::AI, FieldType::Ai, "Behaviour rules `{ condition, actions }` (self = the creature, target = the player)."),
            TRIGGERS,
        ],
    },
    RegistryDef {
        registry: Registry::CharacterOptions,
        key: "character_options",
        noun: "character option",
        doc: "Classes and backgrounds the player picks; at most one option of each `group`.",
        fields: &[
            ID,
            OVERRIDES,
            NAME,
            opt(
                field::GROUP,
                FieldType::Str,
                "The group it belongs to (`class`, `background`, …): a character takes at most one option of each group; omitted = no group.",
            ),
            MODIFIERS,
            opt(field::ON_CREATE, FieldType::Actions, "Actions run when a character is created with it (self = the new character, no target)."),
            TRIGGERS,
        ],
    },
    RegistryDef {
        registry: Registry::Statuses,
        key: "statuses",
        noun: "status",
        doc: "Temporary states such as `core:burning`, counting down at their bearer's `turn_started`.",
        fields: &[ID, OVERRIDES, NAME, opt(field::TURNS, FieldType::Int { min: 1, max: u32::MAX as i64 }, "Default duration in turns."), MODIFIERS, TRIGGERS],
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
            req(field::ON, FieldType::Event, "The event the quest counts."),
            opt(field::WHEN, FieldType::When, "Event filter: every field given must match."),
            opt(field::CONDITION, FieldType::Conditions, "Checks on creatures (self = the player, target = the other side)."),
            dflt(field::CHANCE, FieldType::Chance, "1", "Probability that a matching event counts."),
            opt(field::ACTIONS, FieldType::Actions, "The reward, run when the count is reached."),
            dflt(field::COUNT, FieldType::Int { min: 1, max: i64::MAX }, "1", "How many matching events complete the quest."),
        ],
    },
    RegistryDef {
        registry: Registry::LootTables,
        key: "loot_tables",
        noun: "loot table",
        doc: "Weighted tables of items (item tables) or affixes (affix tables); see docs/loot.md.",
        fields: &[
            ID,
            OVERRIDES,
            dflt(field::ROLLS, FieldType::Range, "1", "How many weighted picks one evaluation makes."),
            req(field::ENTRIES, FieldType::LootEntries, "The entries: exactly one of item / table / affix / nothing each."),
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
            opt(field::NAME, FieldType::Str, "Display name."),
            opt(field::DEPTH, FieldType::Int { min: 1, max: i64::MAX }, "Floor number."),
            opt(field::LOOT, FieldType::Ref(RefKind::ItemTable), "Item table for loot piles on this floor."),
            opt(field::PREFABS, FieldType::RefList(RefKind::Registry(Registry::Prefabs)), "Room prefabs this floor is built from."),
            opt(
                field::FIRST_ROOMS,
                FieldType::RefList(RefKind::Registry(Registry::Prefabs)),
                "The prefabs the player's first room on this floor is drawn from, each also in `prefabs`; omitted = any of `prefabs`.",
            ),
            opt(field::CREATURES, FieldType::RefList(RefKind::Registry(Registry::Creatures)), "Creatures an `e` glyph may spawn."),
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
            req(field::GRID, FieldType::Grid, "The room as rows of glyphs of equal width."),
            opt(field::LOOT, FieldType::Ref(RefKind::ItemTable), "Item table for this room's `l` piles (else the floor's)."),
            opt(
                field::NPCS,
                FieldType::RefList(RefKind::Registry(Registry::Npcs)),
                "The NPCs standing on the `n` glyphs: the i-th `n` in reading order is the i-th NPC.",
            ),
            TRIGGERS,
        ],
    },
    RegistryDef {
        registry: Registry::Npcs,
        key: "npcs",
        noun: "NPC",
        doc: "Characters the player talks to.",
        fields: &[
            ID,
            OVERRIDES,
            NAME,
            opt(field::GLYPH, FieldType::Glyph, "The character drawn for it on the map; omitted = the upper-case first letter of its name."),
            dflt(field::COLOR, FieldType::Color, DEFAULT_NPC_COLOR, "Its colour on the map: one of the 16 terminal colour names (`red`, `bright_red`, …) or `#rrggbb`."),
            opt(field::ON_TALK, FieldType::Actions, "Actions run when the player talks to it (self = the player, no target)."),
        ],
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
            opt(field::STOCK, FieldType::Ref(RefKind::ItemTable), "Item table rolled for the shop's stock."),
            dflt(field::PRICE_FACTOR, FieldType::Float { min: 0.0, exclusive: true }, "1.0", "Multiplies prices."),
        ],
    },
];

/// A `[balance]` number that scales a rule: at least 0, with its default.
const fn balance_factor(name: &'static str, default: &'static str, doc: &'static str) -> FieldDef {
    dflt(name, FieldType::Float { min: 0.0, exclusive: false }, default, doc)
}

/// The singleton `[balance]` table.
pub const BALANCE_FIELDS: &[FieldDef] = &[
    balance_factor(
        field::LUCK_FACTOR,
        "0.05",
        "Each point of luck adds this to the chance of one extra roll on every loot table (p_extra = clamp(luck × luck_factor, 0, 0.9)).",
    ),
    balance_factor(
        field::HIT_PER_POINT,
        "0.05",
        "Each point of the attacker's accuracy over the defender's evasion moves the chance to hit by this (p = clamp(1 + (accuracy − evasion) × hit_per_point, min_hit, 1)).",
    ),
    balance_factor(field::MIN_HIT, "0.05", "The least chance an attack has to hit, however evasive the defender (a value above 1 makes every attack hit)."),
    balance_factor(
        field::CRIT_MULTIPLIER,
        "1.5",
        "A critical hit multiplies the attack's amount by this (rounded half away from zero) before resistance and armour.",
    ),
    dflt(
        field::REGEN_EVERY,
        FieldType::Int { min: 0, max: u32::MAX as i64 },
        "0",
        "Out of combat, the player regains 1 health every this many of its turns, up to `max_health` (0: never). Played games regenerate; a scenario only with `regen = true`.",
    ),
];

/// Fields of a trigger table (`triggers = [ … ]`). Quests carry the same fields flattened.
pub const TRIGGER_FIELDS: &[FieldDef] = &[
    req(field::ON, FieldType::Event, "The event this trigger listens to."),
    opt(field::WHEN, FieldType::When, "Event filter: every field given must match the event's payload."),
    opt(field::CONDITION, FieldType::Conditions, "Checks on creatures; all must hold."),
    dflt(field::CHANCE, FieldType::Chance, "1", "Probability that the trigger fires when everything matches."),
    opt(field::ACTIONS, FieldType::Actions, "What happens."),
];

pub const MODIFIER_FIELDS: &[FieldDef] = &[
    req(field::ATTRIBUTE, FieldType::Attribute, "The attribute changed."),
    opt(field::ADD, FieldType::Number, "Added to the base value."),
    opt(field::MULTIPLY, FieldType::Number, "Multiplies (base + Σ add)."),
    opt(field::CONDITION, FieldType::Conditions, "Checks that must hold at the read (target = the opponent of the read)."),
];

pub const AI_FIELDS: &[FieldDef] = &[
    opt(field::CONDITION, FieldType::Conditions, "Checks (self = the creature, target = the player)."),
    opt(field::ACTIONS, FieldType::Actions, "What the creature does when the condition holds."),
];

pub const LOOT_ENTRY_FIELDS: &[FieldDef] = &[
    opt(field::ITEM, FieldType::Ref(RefKind::Registry(Registry::Items)), "An item to give."),
    opt(field::TABLE, FieldType::Ref(RefKind::NestedTable), "A nested table of the same kind, evaluated once per pick."),
    opt(field::AFFIX, FieldType::Ref(RefKind::Registry(Registry::Affixes)), "An affix (only in affix tables)."),
    opt(field::NOTHING, FieldType::True, "A blank."),
    opt(field::WEIGHT, FieldType::Int { min: 1, max: i64::MAX }, "Integer weight ≥ 1 (not on guaranteed entries)."),
    dflt(field::GUARANTEED, FieldType::Bool, "false", "Always given once per evaluation; takes no weight."),
    dflt(field::COUNT, FieldType::Range, "1", "For items: how many, drawn from this range."),
    opt(field::AFFIXES, FieldType::Ref(RefKind::AffixTable), "For items: an affix table evaluated once for the instance."),
];
