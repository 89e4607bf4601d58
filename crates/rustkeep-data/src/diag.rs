//! Diagnostics are values (docs/ARCHITECTURE.md, invariant "Diagnostics are values"): a stable code, a severity, a primary span,
//! related spans and an optional fix. Renderers live at the edges (CLI, LSP).

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use crate::source::FileId;
use crate::text::Span;

/// How bad a diagnostic is; `[lints]` levels change it per code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Fails `rustkeep check` (exit code 1).
    Error,
    /// Reported; fails `rustkeep check` only with `--deny-warnings`.
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

macro_rules! codes {
    ($( $variant:ident = $name:literal, $sev:ident, $summary:literal; )*) => {
        /// Every diagnostic code (docs/diagnostics.md). The names are public interface.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $( $variant, )* }

        impl Code {
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];
            pub const fn name(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }
            pub fn default_severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$sev, )* }
            }
            /// One line: when the code is raised.
            pub fn summary(self) -> &'static str {
                match self { $( Code::$variant => $summary, )* }
            }
            pub fn from_name(name: &str) -> Option<Code> {
                match name { $( $name => Some(Code::$variant), )* _ => None }
            }
        }
    };
}

codes! {
    TomlSyntax = "toml-syntax", Error, "the file is not valid TOML";
    UnknownRegistry = "unknown-registry", Error, "a top-level key that is no registry";
    UnknownField = "unknown-field", Error, "a key the entry, condition, action or modifier does not have";
    MissingField = "missing-field", Error, "a required key is absent";
    WrongType = "wrong-type", Error, "a value of the wrong TOML type or out of its allowed range";
    InvalidId = "invalid-id", Error, "an ID or tag not matching the grammar";
    NamespaceMismatch = "namespace-mismatch", Error, "a mod defines an ID outside its namespace without `overrides`";
    DuplicateId = "duplicate-id", Error, "an ID defined twice without `overrides`";
    UnknownEvent = "unknown-event", Error, "`on` is not one of the twelve events";
    UnknownCheck = "unknown-check", Error, "`check` is not one of the four checks";
    MalformedCondition = "malformed-condition", Error, "a check whose keys are right but whose values do not fit";
    UnknownAction = "unknown-action", Error, "`action` is not one of the nine actions";
    MalformedAction = "malformed-action", Error, "an action whose keys are right but whose values do not fit";
    UnknownAttribute = "unknown-attribute", Error, "not in the attribute list";
    UnknownDamageType = "unknown-damage-type", Error, "not in the damage-type list";
    UnknownWhenField = "unknown-when-field", Error, "a `when` key no event carries";
    WhenFieldNotCarried = "when-field-not-carried", Error, "a `when` key this trigger's event does not carry";
    TargetNeverPresent = "target-never-present", Warning, "a check or action uses `target` where there is none";
    UnknownReference = "unknown-reference", Error, "an ID that names nothing in its registry";
    ReferenceKindMismatch = "reference-kind-mismatch", Error, "an item table where an affix table is required, or the reverse; an ID of the wrong registry";
    MalformedExpectation = "malformed-expectation", Error, "a scenario's `[[expect]]` with none or several kinds, keys of another kind, a bound that no value meets, or `after_step` past the last step";
    OptionGroupConflict = "option-group-conflict", Error, "a scenario's `options` names two character options of one `group`";
    LootTableCycle = "loot-table-cycle", Error, "nested loot tables form a cycle";
    InvalidRange = "invalid-range", Error, "a range that does not parse or has min > max";
    InvalidWeight = "invalid-weight", Error, "a weighted entry without weight ≥ 1, or a guaranteed entry with a weight";
    AmbiguousEntry = "ambiguous-entry", Error, "a loot entry with none or several of item / table / affix / nothing";
    OverrideMissingTarget = "override-missing-target", Error, "`overrides` names an ID that does not exist at that point of the load order";
    OverrideIdMismatch = "override-id-mismatch", Error, "`id` differs from `overrides`";
    OverrideConflict = "override-conflict", Warning, "two mods override the same ID (or set the same balance key)";
    UnknownDependency = "unknown-dependency", Error, "`depends` names a mod that is not there";
    DependencyCycle = "dependency-cycle", Error, "mods depend on each other in a cycle";
    DependencyVersion = "dependency-version", Error, "the loaded version of a mod fails the requirement a `depends` entry sets";
    IncompatibleMod = "incompatible-mod", Error, "a mod declared incompatible (`! id` in `depends`) is loaded too";
    InvalidVersionReq = "invalid-version-req", Error, "a `depends` entry whose version requirement does not parse";
    RenamedReference = "renamed-reference", Warning, "a reference to an old ID that its mod's `[renamed]` maps to a new one";
    RenameCycle = "rename-cycle", Error, "`[renamed]` entries that lead back to where they start";
    RenamedIdExists = "renamed-id-exists", Error, "`[renamed]` maps an old ID that is still defined";
    InvalidManifest = "invalid-manifest", Error, "`mod.toml` missing or malformed";
    QuestNeverStarted = "quest-never-started", Warning, "no `start_quest` anywhere names this quest";
    UnknownTag = "unknown-tag", Warning, "a `has_tag` check names a tag no entry carries";
    UnusedLootTable = "unused-loot-table", Warning, "a loot table nothing references";
    SelfFeedingTrigger = "self-feeding-trigger", Warning, "a trigger's actions raise the event it listens to";
    InvalidPrefabGrid = "invalid-prefab-grid", Error, "ragged rows or an unknown glyph in a prefab grid";
    PrefabNpcMismatch = "prefab-npc-mismatch", Warning, "a prefab has a different number of `n` glyphs than entries in `npcs`";
    UnreachablePrefabTile = "unreachable-prefab-tile", Warning, "a loot pile, enemy, NPC or door of a prefab cannot be reached from its entry point";
    FloorWithoutExit = "floor-without-exit", Warning, "a prefab used by a floor has no door on its border, so the run cannot go on from it";
    FirstRoomNotInPrefabs = "first-room-not-in-prefabs", Error, "a floor's `first_rooms` names a prefab that its `prefabs` does not list";
    NpcNeverPlaced = "npc-never-placed", Warning, "an NPC that no prefab's `npcs` names, so nobody can meet it";
    AiRuleUnreachable = "ai-rule-unreachable", Warning, "an `ai` rule after a rule that always holds, so it never runs";
    PrefabNeverUsed = "prefab-never-used", Warning, "a prefab that no floor's `prefabs` names, so the dungeon never holds it";
    ItemNeverObtainable = "item-never-obtainable", Warning, "an item that no loot table, shop, character option, `give_item` action or prefab pile can give";
    StatusNeverApplied = "status-never-applied", Warning, "a status that no `apply_status` action names";
    WhenNeverMatches = "when-never-matches", Warning, "a `when` value its event can never carry in the loaded mods";
    ConditionNeverHolds = "condition-never-holds", Warning, "two checks of one `condition` list that cannot both hold";
    CreatureNeverMet = "creature-never-met", Warning, "a creature that no floor's `creatures` and no `spawn` action names";
    ShopNeverOpened = "shop-never-opened", Warning, "a shop that no `open_shop` action names";
    TriggerNeverActive = "trigger-never-active", Warning, "triggers on an item without `slot`, or on an affix no table puts on an item with a slot";
    OverrideDropsField = "override-drops-field", Warning, "an override leaves out a field its target sets: that value is gone, not inherited";
    UnknownLint = "unknown-lint", Warning, "an allow comment names no diagnostic code";
    UnusedSuppression = "unused-suppression", Warning, "an allow comment or lint level that silences nothing";
    ValueOutOfRange = "value-out-of-range", Error, "a value over a limit that keeps every run bounded: a `spawn` count over 100, more than 1,000 enemies, more than 10,000 steps, an arena of more than 50,000 fights";
}

/// A code is written as its name (`unknown-event`) wherever it leaves the program: JSON output,
/// `[lints]` keys, suppression comments.
impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Code {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Code, D::Error> {
        let name = <Cow<'de, str>>::deserialize(d)?;
        Code::from_name(&name).ok_or_else(|| serde::de::Error::unknown_variant(&name, CODE_NAMES))
    }
}

/// The names of [`Code::ALL`], for serde's "expected one of" messages.
const CODE_NAMES: &[&str] = &{
    let mut names = [""; Code::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Code::ALL[i].name();
        i += 1;
    }
    names
};

/// The schema of a code: one of the names of [`Code::ALL`], so a new code reaches every schema
/// that mentions codes (`check --format json`, `[lints]`) without a second list.
impl JsonSchema for Code {
    fn schema_name() -> Cow<'static, str> {
        "Code".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A diagnostic code; every code is explained in docs/diagnostics.md and by `rustkeep explain CODE`.",
            "type": "string",
            "enum": CODE_NAMES,
        })
    }
}

/// A location: a file and a byte span in it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loc {
    pub file: FileId,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub message: String,
    pub loc: Loc,
}

/// Whether a fix may be applied without asking (docs/checking.md, "Safe and unsafe fixes"). Decided where
/// the fix is built, by what it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Applicability {
    /// Certainly what was meant, and the data means the same afterwards except that the mistake
    /// is gone: a name of a closed vocabulary with one close candidate, the case of an ID, the
    /// brackets of a registry header, a suppression that suppresses nothing. `check --fix`
    /// applies it.
    Safe,
    /// A guess, or a change of behaviour: another ID, a name several candidates are close to, an
    /// alias, `target` → `self`. Offered in the editor; `check --fix` applies it only with
    /// `--unsafe-fixes`.
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// A suggested fix: replace `span` (the diagnostic's primary span, unless the diagnostic was
/// moved onto an enclosing table afterwards or the fix names its own span) with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub message: String,
    pub replacement: String,
    pub span: Span,
    pub applicability: Applicability,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub message: String,
    pub loc: Loc,
    pub related: Vec<Related>,
    pub fix: Option<Fix>,
}

impl Diagnostic {
    pub fn new(code: Code, loc: Loc, message: impl Into<String>) -> Diagnostic {
        Diagnostic { code, severity: code.default_severity(), message: message.into(), loc, related: Vec::new(), fix: None }
    }
    pub fn with_related(mut self, loc: Loc, message: impl Into<String>) -> Diagnostic {
        self.related.push(Related { message: message.into(), loc });
        self
    }
    /// A fix that replaces the diagnostic's primary span.
    pub fn with_fix(mut self, message: impl Into<String>, replacement: impl Into<String>, applicability: Applicability) -> Diagnostic {
        self.fix = Some(Fix { message: message.into(), replacement: replacement.into(), span: self.loc.span.clone(), applicability });
        self
    }
    /// A fix that replaces another span of the same file (brackets around the primary span, a
    /// whole comment line).
    pub fn with_fix_at(mut self, span: Span, message: impl Into<String>, replacement: impl Into<String>, applicability: Applicability) -> Diagnostic {
        self.fix = Some(Fix { message: message.into(), replacement: replacement.into(), span, applicability });
        self
    }
}

/// A TOML basic string literal for `s`, for fixes that replace a string value.
pub fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// JSON output and `[lints]` spell codes and severities as their names.
    #[test]
    fn codes_and_severities_serialize_as_their_names() {
        for &c in Code::ALL {
            let v = serde_json::to_value(c).unwrap();
            assert_eq!(v, c.name());
            assert_eq!(serde_json::from_value::<Code>(v).unwrap(), c);
        }
        assert!(serde_json::from_value::<Code>("unknown-evnt".into()).is_err());
        for s in [Severity::Error, Severity::Warning] {
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
    }
}
