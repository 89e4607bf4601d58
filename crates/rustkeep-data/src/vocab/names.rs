//! Every name of the data language, written once. The vocabulary's rows are built from these
//! constants, and the lowering, the rules, the language server and the engine read fields,
//! attributes, damage types and payload keys through them, so a renamed row renames every reader
//! and a removed row breaks the build or a test (`vocab::tests`), never a silent `None`.

/// Defines a module of string constants plus `ALL`, every constant in the order written.
macro_rules! names {
    ($(#[$meta:meta])* pub mod $module:ident { $($(#[$cmeta:meta])* $name:ident = $value:literal,)* }) => {
        $(#[$meta])*
        pub mod $module {
            $($(#[$cmeta])* pub const $name: &str = $value;)*
            /// Every name of this module, in the order written.
            pub const ALL: &[&str] = &[$($name),*];
        }
    };
}

names! {
    /// Field keys: of registry entries, `[balance]`, triggers, modifiers, `ai` rules, loot
    /// entries, checks and actions, and of scenario files.
    pub mod field {
        ID = "id",
        OVERRIDES = "overrides",
        NAME = "name",
        GLYPH = "glyph",
        COLOR = "color",
        TAGS = "tags",
        PRICE = "price",
        STACKABLE = "stackable",
        SLOT = "slot",
        DAMAGE_TYPE = "damage_type",
        MODIFIERS = "modifiers",
        USE = "use",
        TRIGGERS = "triggers",
        PRICE_FACTOR = "price_factor",
        ATTRIBUTES = "attributes",
        LOOT = "loot",
        AI = "ai",
        ON_CREATE = "on_create",
        GROUP = "group",
        TURNS = "turns",
        ON = "on",
        WHEN = "when",
        CONDITION = "condition",
        CHANCE = "chance",
        ACTIONS = "actions",
        COUNT = "count",
        ROLLS = "rolls",
        ENTRIES = "entries",
        DEPTH = "depth",
        PREFABS = "prefabs",
        FIRST_ROOMS = "first_rooms",
        CREATURES = "creatures",
        GRID = "grid",
        NPCS = "npcs",
        ON_TALK = "on_talk",
        STOCK = "stock",
        LUCK_FACTOR = "luck_factor",
        HIT_PER_POINT = "hit_per_point",
        MIN_HIT = "min_hit",
        CRIT_MULTIPLIER = "crit_multiplier",
        REGEN_EVERY = "regen_every",
        ATTRIBUTE = "attribute",
        ADD = "add",
        MULTIPLY = "multiply",
        ITEM = "item",
        TABLE = "table",
        AFFIX = "affix",
        NOTHING = "nothing",
        WEIGHT = "weight",
        GUARANTEED = "guaranteed",
        AFFIXES = "affixes",
        CHECK = "check",
        NOT = "not",
        WHO = "who",
        VALUE = "value",
        AT_LEAST = "at_least",
        BELOW = "below",
        ACTION = "action",
        AMOUNT = "amount",
        TARGET = "target",
        STATUS = "status",
        CREATURE = "creature",
        QUEST = "quest",
        SHOP = "shop",
        SEED = "seed",
        ENEMIES_ACT = "enemies_act",
        REGEN = "regen",
        MODS = "mods",
        PLAYER = "player",
        ENEMIES = "enemies",
        STEPS = "steps",
        OPTIONS = "options",
        ITEMS = "items",
        QUESTS = "quests",
        EQUIPPED = "equipped",
        ATTACK = "attack",
        EVENT = "event",
        PAYLOAD = "payload",
        SOURCE = "source",
        PICKUP = "pickup",
        TALK = "talk",
        ENTER = "enter",
        EQUIP = "equip",
        START = "start",
        MOVE = "move",
        WAIT = "wait",
        EXPECT = "expect",
        AFTER_STEP = "after_step",
        STATE = "state",
        HAS_ITEM = "has_item",
        HEALTH = "health",
        FIRED = "fired",
        NEVER = "never",
        OUTCOME = "outcome",
        EXPECTED = "expected",
        ARENA = "arena",
        OPTION = "option",
        RUNS = "runs",
        WIN_RATE = "win_rate",
    }
}

names! {
    /// Attributes (the rows of [`super::ATTRIBUTES`]).
    pub mod attr {
        LEVEL = "level",
        MAX_HEALTH = "max_health",
        STRENGTH = "strength",
        DEXTERITY = "dexterity",
        INTELLIGENCE = "intelligence",
        ARMOR = "armor",
        ACCURACY = "accuracy",
        EVASION = "evasion",
        DAMAGE = "damage",
        CRIT_CHANCE = "crit_chance",
        SPEED = "speed",
        LUCK = "luck",
        FIRE_RESISTANCE = "fire_resistance",
        ICE_RESISTANCE = "ice_resistance",
        LIGHTNING_RESISTANCE = "lightning_resistance",
        POISON_RESISTANCE = "poison_resistance",
    }
}

names! {
    /// Damage types (the rows of [`super::DAMAGE_TYPES`]).
    pub mod damage {
        PHYSICAL = "physical",
        FIRE = "fire",
        ICE = "ice",
        LIGHTNING = "lightning",
        POISON = "poison",
    }
}

names! {
    /// Payload keys of events, as they appear in the engine's trace. The `when` fields are payload
    /// keys too: a filter compares the payload value under its own name.
    pub mod payload {
        WEAPON = "weapon",
        DAMAGE_TYPE = "damage_type",
        AMOUNT = "amount",
        OUTCOME = "outcome",
        ITEM = "item",
        COUNT = "count",
        AFFIXES = "affixes",
        FLOOR = "floor",
        DEPTH = "depth",
        PREFAB = "prefab",
        NPC = "npc",
        QUEST = "quest",
    }
}

names! {
    /// How a combat ends (the `outcome` of `combat_ended`).
    pub mod outcome {
        VICTORY = "victory",
        FLED = "fled",
    }
}

names! {
    /// Equipment slots of items.
    pub mod slot {
        WEAPON = "weapon",
        ARMOR = "armor",
        RING = "ring",
        AMULET = "amulet",
    }
}

names! {
    /// The sixteen terminal colours of `color` (the rows of [`super::COLORS`]): the ANSI names,
    /// the eight base colours and their bright variants.
    pub mod color {
        BLACK = "black",
        RED = "red",
        GREEN = "green",
        YELLOW = "yellow",
        BLUE = "blue",
        MAGENTA = "magenta",
        CYAN = "cyan",
        WHITE = "white",
        BRIGHT_BLACK = "bright_black",
        BRIGHT_RED = "bright_red",
        BRIGHT_GREEN = "bright_green",
        BRIGHT_YELLOW = "bright_yellow",
        BRIGHT_BLUE = "bright_blue",
        BRIGHT_MAGENTA = "bright_magenta",
        BRIGHT_CYAN = "bright_cyan",
        BRIGHT_WHITE = "bright_white",
    }
}

names! {
    /// The values of `who` (checks) and `target` (actions).
    pub mod who {
        SELF = "self",
        TARGET = "target",
    }
}

names! {
    /// The tables and keys of `mod.toml` and `rustkeep.toml` (the rows of
    /// [`super::MANIFEST_TABLES`] and [`super::WORKSPACE_TABLES`]): the manifest reader matches
    /// on these, the formatter orders by them, the reference documents them.
    pub mod key {
        MOD = "mod",
        ID = "id",
        NAME = "name",
        VERSION = "version",
        DEPENDS = "depends",
        LOAD_AFTER = "load_after",
        LIBRARY = "library",
        RENAMED = "renamed",
        WORKSPACE = "workspace",
        LINTS = "lints",
        FORMAT = "format",
        MODS = "mods",
        CORE = "core",
        LINE_WIDTH = "line_width",
        REORDER_KEYS = "reorder_keys",
        TOML_VERSION = "toml_version",
    }
}

/// Glyphs of a prefab grid (the rows of [`super::GRID_GLYPHS`]).
pub mod glyph {
    pub const WALL: char = '#';
    pub const FLOOR: char = '.';
    pub const DOOR: char = '+';
    pub const LOOT_PILE: char = 'l';
    pub const ENEMY: char = 'e';
    pub const NPC: char = 'n';
    pub const ENTRY: char = '@';
}
