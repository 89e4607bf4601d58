//! The typed data model: what one data file defines, with a byte span for every value.
//!
//! Entries keep their fields in a schema-driven form ([`Field`] with a [`Value`]) so that adding a
//! registry field is one row in [`crate::vocab`]; the parts with rich structure (triggers, checks,
//! actions, modifiers, loot entries) are typed structs. Parts that failed validation are left out
//! of the model and the trigger or entry that held them is marked `broken`, so the engine never
//! runs half-understood data.

mod renamed;

use crate::source::FileId;
use crate::text::Span;
use crate::vocab::{field, who, ActionKind, CheckKind, EventKind, FieldDef, RefKind, Registry, WhenField};

/// A value with the byte span it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Sp<T> {
    pub span: Span,
    pub value: T,
}

impl<T> Sp<T> {
    pub fn new(span: Span, value: T) -> Sp<T> {
        Sp { span, value }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Who {
    SelfBearer,
    Target,
}

impl Who {
    pub fn as_str(self) -> &'static str {
        match self {
            Who::SelfBearer => who::SELF,
            Who::Target => who::TARGET,
        }
    }
}

/// An inclusive integer range `min-max` (docs/data-language.md, "Ranges").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub min: u32,
    pub max: u32,
}

impl Range {
    pub const ONE: Range = Range { min: 1, max: 1 };
}

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{}-{}", self.min, self.max)
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ConditionData {
    HasTag { tag: Sp<String> },
    Attribute { attribute: String, at_least: Option<f64>, below: Option<f64> },
    HasItem { item: Sp<String>, count: u32 },
    HealthBelow { value: f64 },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub span: Span,
    pub kind: CheckKind,
    pub who: Who,
    /// Span of the `who` value.
    pub who_span: Span,
    pub not: bool,
    pub data: ConditionData,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ActionData {
    Damage { amount: u32, damage_type: String, target: Who },
    Heal { amount: u32, target: Who },
    GiveItem { item: Sp<String>, count: u32, target: Who },
    TakeItem { item: Sp<String>, count: u32, target: Who },
    ApplyStatus { status: Sp<String>, turns: Option<u32>, target: Who },
    Spawn { creature: Sp<String>, count: u32 },
    StartQuest { quest: Sp<String> },
    Flee,
    OpenShop { shop: Sp<String> },
}

impl ActionData {
    /// The action's row in the vocabulary (its name is `kind().name()`).
    pub fn kind(&self) -> ActionKind {
        match self {
            ActionData::Damage { .. } => ActionKind::Damage,
            ActionData::Heal { .. } => ActionKind::Heal,
            ActionData::GiveItem { .. } => ActionKind::GiveItem,
            ActionData::TakeItem { .. } => ActionKind::TakeItem,
            ActionData::ApplyStatus { .. } => ActionKind::ApplyStatus,
            ActionData::Spawn { .. } => ActionKind::Spawn,
            ActionData::StartQuest { .. } => ActionKind::StartQuest,
            ActionData::Flee => ActionKind::Flee,
            ActionData::OpenShop { .. } => ActionKind::OpenShop,
        }
    }
    pub fn target(&self) -> Option<Who> {
        match self {
            ActionData::Damage { target, .. }
            | ActionData::Heal { target, .. }
            | ActionData::GiveItem { target, .. }
            | ActionData::TakeItem { target, .. }
            | ActionData::ApplyStatus { target, .. } => Some(*target),
            ActionData::Spawn { .. } | ActionData::StartQuest { .. } | ActionData::Flee | ActionData::OpenShop { .. } => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    pub span: Span,
    pub kind: ActionKind,
    /// Span of the `target` value, where the action has one.
    pub target_span: Option<Span>,
    pub data: ActionData,
}

#[derive(Clone, Debug, PartialEq)]
pub struct When {
    pub field: WhenField,
    pub key_span: Span,
    pub value: Sp<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Trigger {
    /// The trigger's table (for quests, the quest entry).
    pub span: Span,
    pub on: Option<Sp<EventKind>>,
    pub when: Vec<When>,
    pub condition: Vec<Condition>,
    pub chance: f64,
    pub actions: Vec<Action>,
    /// Some part failed validation; the engine does not run a broken trigger.
    pub broken: bool,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ModOp {
    Add(f64),
    Multiply(f64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Modifier {
    pub span: Span,
    pub attribute: String,
    pub op: ModOp,
    pub condition: Vec<Condition>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AiRule {
    pub span: Span,
    pub condition: Vec<Condition>,
    pub actions: Vec<Action>,
    pub broken: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LootKind {
    Item(Sp<String>),
    Table(Sp<String>),
    Affix(Sp<String>),
    Nothing,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LootEntry {
    pub span: Span,
    pub kind: LootKind,
    /// `None` for guaranteed entries.
    pub weight: Option<u64>,
    pub guaranteed: bool,
    pub count: Range,
    pub affixes: Option<Sp<String>>,
}

/// A prefab grid, rows without the leading and trailing empty lines.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    pub rows: Vec<String>,
    /// Where each row starts in the file (byte offsets), when the literal holds the rows verbatim
    /// (no escapes); empty otherwise. Diagnostics point at single glyphs through it.
    pub row_starts: Vec<usize>,
}

/// The value of a registry field, by its [`crate::vocab::FieldType`].
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Ref(Sp<String>),
    RefList(Vec<Sp<String>>),
    Tags(Vec<Sp<String>>),
    Range(Range),
    Attributes(Vec<(Sp<String>, f64)>),
    Modifiers(Vec<Modifier>),
    Triggers(Vec<Trigger>),
    Actions(Vec<Action>),
    Ai(Vec<AiRule>),
    Conditions(Vec<Condition>),
    Event(EventKind),
    When(Vec<When>),
    LootEntries(Vec<LootEntry>),
    Grid(Grid),
    /// A list of plain strings with their spans (a scenario's `mods`).
    Strs(Vec<Sp<String>>),
    /// A bound of an expectation.
    Bound(Bound),
}

/// A bound on a number, as an expectation writes it: `count = 5` (exactly 5) or
/// `{ at_least = 5, below = 10 }` (either side may be left out).
#[derive(Clone, Debug, PartialEq)]
pub struct Bound {
    pub span: Span,
    pub exact: Option<f64>,
    pub at_least: Option<f64>,
    pub below: Option<f64>,
}

impl Bound {
    /// At least `n`.
    pub fn at_least(span: Span, n: f64) -> Bound {
        Bound { span, exact: None, at_least: Some(n), below: None }
    }

    /// Whether `v` is within the bound.
    pub fn holds(&self, v: f64) -> bool {
        const EPS: f64 = 1e-9;
        if let Some(x) = self.exact {
            return crate::number::same(v, x);
        }
        self.at_least.is_none_or(|a| v >= a - EPS) && self.below.is_none_or(|b| v < b)
    }

    /// The numbers the bound names.
    pub fn numbers(&self) -> Vec<f64> {
        [self.exact, self.at_least, self.below].into_iter().flatten().collect()
    }

    /// A value got, written to be read against this bound ([`crate::number::against`]): never
    /// as one of its numbers that it is not.
    pub fn shown(&self, got: f64) -> String {
        crate::number::against(got, &self.numbers(), 2)
    }

    /// The bound in words: `5`, `at least 5`, `below 10`, `at least 5 and below 10`.
    pub fn describe(&self) -> String {
        let n = crate::number::plain;
        match (self.exact, self.at_least, self.below) {
            (Some(x), _, _) => n(x),
            (None, Some(a), Some(b)) => format!("at least {} and below {}", n(a), n(b)),
            (None, Some(a), None) => format!("at least {}", n(a)),
            (None, None, Some(b)) => format!("below {}", n(b)),
            (None, None, None) => "anything".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub def: &'static FieldDef,
    pub key_span: Span,
    pub span: Span,
    pub value: Value,
}

/// One table of a registry array.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub registry: Registry,
    pub file: FileId,
    /// The `[[…]]` header or the inline table.
    pub span: Span,
    /// The `id` value as written (grammar-checked), if any.
    pub id: Option<Sp<String>>,
    /// The `overrides` value, if any.
    pub overrides: Option<Sp<String>>,
    pub fields: Vec<Field>,
    /// For quests: the flattened trigger.
    /// Boxed: most entries are not quests, and entries are many.
    pub quest_trigger: Option<Box<Trigger>>,
}

impl Entry {
    /// The ID this entry defines: `id`, or `overrides` when `id` is omitted.
    pub fn key(&self) -> Option<&Sp<String>> {
        self.id.as_ref().or(self.overrides.as_ref())
    }
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.def.name == name)
    }
    /// The field a typed accessor reads. Asking for a field the registry does not have is a bug
    /// of the reader (a renamed or moved vocabulary row), never a property of the data: debug
    /// builds, and so every test, stop there instead of reading `None` forever after.
    fn typed(&self, name: &str) -> Option<&Field> {
        debug_assert!(self.registry.field(name).is_some(), "`{name}` is not a field of `[[{}]]` in the vocabulary", self.registry.key());
        self.field(name)
    }
    pub fn str(&self, name: &str) -> Option<&str> {
        match self.typed(name).map(|f| &f.value) {
            Some(Value::Str(s)) => Some(s),
            _ => None,
        }
    }
    pub fn int(&self, name: &str) -> Option<i64> {
        match self.typed(name).map(|f| &f.value) {
            Some(Value::Int(v)) => Some(*v),
            _ => None,
        }
    }
    pub fn float(&self, name: &str) -> Option<f64> {
        match self.typed(name).map(|f| &f.value) {
            Some(Value::Float(v)) => Some(*v),
            Some(Value::Int(v)) => Some(*v as f64),
            _ => None,
        }
    }
    pub fn bool(&self, name: &str) -> Option<bool> {
        match self.typed(name).map(|f| &f.value) {
            Some(Value::Bool(v)) => Some(*v),
            _ => None,
        }
    }
    pub fn reference(&self, name: &str) -> Option<&Sp<String>> {
        match self.typed(name).map(|f| &f.value) {
            Some(Value::Ref(r)) => Some(r),
            _ => None,
        }
    }
    pub fn ref_list(&self, name: &str) -> &[Sp<String>] {
        match self.typed(name).map(|f| &f.value) {
            Some(Value::RefList(r)) => r,
            _ => &[],
        }
    }
    // The accessors below find their field by its value's variant, which is unique per
    // registry: the cross-file rules call them for every entry after every keystroke.
    pub fn tags(&self) -> &[Sp<String>] {
        self.fields.iter().find_map(|f| if let Value::Tags(r) = &f.value { Some(r.as_slice()) } else { None }).unwrap_or(&[])
    }
    pub fn range(&self, name: &str) -> Option<Range> {
        match self.typed(name).map(|f| &f.value) {
            Some(Value::Range(r)) => Some(*r),
            _ => None,
        }
    }
    pub fn attributes(&self) -> &[(Sp<String>, f64)] {
        self.fields.iter().find_map(|f| if let Value::Attributes(a) = &f.value { Some(a.as_slice()) } else { None }).unwrap_or(&[])
    }
    pub fn modifiers(&self) -> &[Modifier] {
        self.fields.iter().find_map(|f| if let Value::Modifiers(m) = &f.value { Some(m.as_slice()) } else { None }).unwrap_or(&[])
    }
    /// `triggers = [...]`, or the quest's own flattened trigger.
    pub fn triggers(&self) -> &[Trigger] {
        if let Some(t) = &self.quest_trigger {
            return std::slice::from_ref(&**t);
        }
        self.fields.iter().find_map(|f| if let Value::Triggers(t) = &f.value { Some(t.as_slice()) } else { None }).unwrap_or(&[])
    }
    pub fn actions(&self, name: &str) -> &[Action] {
        debug_assert!(self.registry.field(name).is_some(), "`{name}` is not a field of `[[{}]]` in the vocabulary", self.registry.key());
        self.fields
            .iter()
            .find_map(|f| match &f.value {
                Value::Actions(a) if f.def.name == name => Some(a.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }
    pub fn ai(&self) -> &[AiRule] {
        self.fields.iter().find_map(|f| if let Value::Ai(a) = &f.value { Some(a.as_slice()) } else { None }).unwrap_or(&[])
    }
    pub fn loot_entries(&self) -> &[LootEntry] {
        self.fields.iter().find_map(|f| if let Value::LootEntries(e) = &f.value { Some(e.as_slice()) } else { None }).unwrap_or(&[])
    }
    pub fn grid(&self) -> Option<&Grid> {
        match self.typed(field::GRID).map(|f| &f.value) {
            Some(Value::Grid(g)) => Some(g),
            _ => None,
        }
    }
    /// The display name, for the registries that have one.
    pub fn name(&self) -> Option<&str> {
        match self.field(field::NAME).map(|f| &f.value) {
            Some(Value::Str(s)) => Some(s),
            _ => None,
        }
    }
}

/// A place that names an ID (or a tag).
#[derive(Clone, Debug, PartialEq)]
pub struct Reference {
    pub span: Span,
    pub id: String,
    pub kind: RefKind,
    /// The field or action it came from, for messages ("`loot`", "`give_item`").
    pub context: &'static str,
}

/// One `[balance]` key.
#[derive(Clone, Debug, PartialEq)]
pub struct BalanceSetting {
    pub key: &'static str,
    pub key_span: Span,
    pub value: f64,
}

/// A `# rustkeep: allow(code, …)` comment.
#[derive(Clone, Debug, PartialEq)]
pub struct AllowComment {
    /// Zero-based line of the comment.
    pub line: usize,
    pub codes: Vec<String>,
    /// Where each code is written (same order as `codes`).
    pub code_spans: Vec<Span>,
    /// The comment, from `#` to the end of its line (without the line break).
    pub span: Span,
}
