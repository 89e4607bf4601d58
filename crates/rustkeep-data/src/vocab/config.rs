//! The keys of `mod.toml` and `rustkeep.toml`, as data: the manifest reader, the formatter's key
//! order and the generated reference read them from here; the names are the constants of
//! [`super::key`].

use super::key;

/// One key of `mod.toml` or `rustkeep.toml`: what the manifest reader accepts, the reference
/// documents and the formatter orders by (these files are not registries, so the value is
/// described in words rather than by a [`super::FieldType`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfigKey {
    pub name: &'static str,
    /// What the value must be, for the reference.
    pub value: &'static str,
    pub required: bool,
    pub default: Option<&'static str>,
    pub doc: &'static str,
    /// For a table: its keys in reference order (empty when its keys are free, as in `[lints]`).
    pub keys: &'static [ConfigKey],
}

const fn config_key(name: &'static str, value: &'static str, default: Option<&'static str>, doc: &'static str) -> ConfigKey {
    ConfigKey { name, value, required: false, default, doc, keys: &[] }
}

/// A table whose keys are listed (a table whose keys are free is a [`config_key`] that says what
/// they are).
const fn config_table(name: &'static str, keys: &'static [ConfigKey], doc: &'static str) -> ConfigKey {
    ConfigKey { keys, ..config_key(name, "a table", None, doc) }
}

/// The tables of a `mod.toml`.
pub const MANIFEST_TABLES: &[ConfigKey] = &[
    ConfigKey { required: true, ..config_table(key::MOD, MOD_KEYS, "The mod's identity and its place in the load order.") },
    config_key(
        key::RENAMED,
        "old ID = new ID, both IDs of this mod (`\"rat_catcher:cheese\" = \"rat_catcher:cheese_wedge\"`)",
        None,
        "IDs this mod renamed: references from any mod to an old ID resolve to the new one (with the warning `renamed-reference` and a safe fix), and players' saves holding an old ID load with the new one.",
    ),
];

/// The keys of `[mod]`.
pub const MOD_KEYS: &[ConfigKey] = &[
    ConfigKey { required: true, ..config_key(key::ID, "a mod id `[a-z][a-z0-9_]*`", None, "The mod's namespace; `core` is reserved for the base game.") },
    config_key(key::NAME, "a string", None, "Display name."),
    config_key(key::VERSION, "a semantic version such as `\"0.1.0\"`", None, "The mod's version."),
    config_key(
        key::DEPENDS,
        "a list of `\"ID\"` or `\"ID REQ\"` strings, each optionally led by `? ` or `! `",
        Some("[]"),
        "Mods that must be present and load before this one (`core` is implied). `REQ` is a version requirement as Cargo writes it (`^1.2`, `~1.2.3`, `>= 1.2, < 2`, `=1.0.0`, `*`; a bare `1.2` means `^1.2`). `? ID` is optional: it orders the load and its requirement is checked only when that mod is loaded. `! ID` declares an incompatible mod: loading both is an error.",
    ),
    config_key(key::LOAD_AFTER, "a list of mod ids", Some("[]"), "Mods this one loads after when they are present, without depending on them."),
    config_key(
        key::LIBRARY,
        "a boolean",
        Some("false"),
        "A content pack: entries for other mods to use. Its own entries get none of the \"never\" warnings (`npc-never-placed`, `prefab-never-used`, `item-never-obtainable`, `status-never-applied`, `creature-never-met`, `shop-never-opened`, `quest-never-started`, `unused-loot-table`): the mods built on it place, give, apply, start, open and use them.",
    ),
];

/// The tables of a `rustkeep.toml`.
pub const WORKSPACE_TABLES: &[ConfigKey] = &[
    config_table(key::WORKSPACE, WORKSPACE_KEYS, "Where the mods and the core are."),
    config_key(
        key::LINTS,
        "any diagnostic code but `toml-syntax` (a file that does not parse is always an error), set to `\"allow\"`, `\"warn\"` or `\"deny\"`",
        None,
        "Lint levels for the whole workspace.",
    ),
    config_table(key::FORMAT, FORMAT_KEYS, "Options of `rustkeep fmt` and of formatting in the editor."),
];

/// The keys of `[workspace]`.
pub const WORKSPACE_KEYS: &[ConfigKey] = &[
    config_key(key::MODS, "a list of glob strings", None, "Globs of mod folders, relative to `rustkeep.toml`; default: every folder below with a `mod.toml`."),
    config_key(
        key::CORE,
        "`\"bundled\"` or a folder path",
        Some("\"bundled\""),
        "The base game's data: the copy inside the toolkit, or a folder inside the workspace.",
    ),
];

/// The keys of `[format]`.
pub const FORMAT_KEYS: &[ConfigKey] = &[
    config_key(key::LINE_WIDTH, "an integer from 20 to 1000", Some("100"), "Inline tables and arrays longer than this are written one element per line."),
    config_key(
        key::REORDER_KEYS,
        "a boolean",
        Some("true"),
        "Put the keys of entries, triggers, checks, actions, modifiers and loot entries in reference order (within comment and blank-line groups).",
    ),
    config_key(
        key::TOML_VERSION,
        "`\"1.0\"` or `\"1.1\"`",
        Some("\"1.0\""),
        "The TOML version written: with `\"1.0\"` an inline table always stays on one line, so that every TOML reader (Taplo, Even Better TOML, Python's `tomllib`) reads the file; `\"1.1\"` also writes inline tables that do not fit the line width one key per line.",
    ),
];

/// A semantic version as `[mod] version` accepts it: three numbers, then optionally `-pre` or
/// `+build` (anything after the sign), as an anchored regular expression.
pub const SEMVER_PATTERN: &str = r"^[0-9]+\.[0-9]+\.[0-9]+([-+][\s\S]*)?$";

/// One comparator of a version requirement (see [`DEPENDENCY_PATTERN`]).
macro_rules! dependency_comparator {
    () => {
        r"(=|>=?|<=?|~|\^)? *(0|[1-9][0-9]*|\*|x|X)(\.(0|[1-9][0-9]*|\*|x|X)(\.(0|[1-9][0-9]*|\*|x|X)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?)?)?"
    };
}

/// A `depends` entry as the schema checks it: an optional `? ` or `! `, a mod id, then optionally a
/// version requirement as Cargo writes one — comparators (`=`, `>`, `>=`, `<`, `<=`, `~`, `^` or
/// none, then a version whose parts may be `*`) joined by commas. The manifest reader parses the
/// requirement with the `semver` crate; this is the same grammar as a regular expression.
pub const DEPENDENCY_PATTERN: &str = concat!(r"^([?!] *)?[a-z][a-z0-9_]*( *", dependency_comparator!(), r"( *, *", dependency_comparator!(), r")* *)?$");

/// The bounds of `[format] line_width`.
pub const LINE_WIDTH_RANGE: std::ops::RangeInclusive<i64> = 20..=1000;

/// Names of a key table, for "did you mean" and messages.
pub fn config_key_names(keys: &[ConfigKey]) -> Vec<&'static str> {
    keys.iter().map(|k| k.name).collect()
}
