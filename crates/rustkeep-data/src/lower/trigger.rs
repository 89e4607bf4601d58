//! The behaviour of entries: triggers (and a quest's flattened trigger), `when` filters,
//! modifiers, `ai` rules, and the conditions and actions inside them.

use crate::tree::{Table, Val};

use super::{Ctx, Lower, Present, DV};
use crate::diag::{toml_string, Code};
use crate::model::*;
use crate::suggest;
use crate::text::Span;
use crate::vocab::*;
use std::sync::OnceLock;

impl Lower<'_> {
    pub(super) fn modifier(&mut self, table: &Table<'_>, span: Span) -> Option<Modifier> {
        let present = self.known_fields(table, MODIFIER_FIELDS, Code::UnknownField, &"a modifier");
        self.require(&present, MODIFIER_FIELDS, span.clone(), &"this modifier", &[]);
        let before = self.errors;
        let has_add = present.iter().any(|(d, _, _)| d.name == field::ADD);
        let has_mul = present.iter().any(|(d, _, _)| d.name == field::MULTIPLY);
        if !has_add && !has_mul {
            self.diag(Code::MissingField, span.clone(), "this modifier needs one of `add` or `multiply`");
        } else if has_add && has_mul {
            let key = present.iter().find(|(d, _, _)| d.name == field::MULTIPLY).map(|p| p.1.clone()).unwrap_or(span.clone());
            self.diag(Code::WrongType, key, "a modifier takes exactly one of `add` or `multiply`: split it into two modifiers");
        }
        let mut attribute = None;
        let mut op = None;
        let mut condition = Vec::new();
        for (def, _, v) in present {
            match (def.name, self.value(def, v, Ctx::Plain)) {
                (field::ATTRIBUTE, Some(Value::Str(s))) => attribute = Some(s),
                (field::ADD, Some(Value::Float(x))) => op = Some(ModOp::Add(x)),
                (field::MULTIPLY, Some(Value::Float(x))) => op = Some(ModOp::Multiply(x)),
                (field::CONDITION, Some(Value::Conditions(c))) => condition = c,
                _ => {}
            }
        }
        if self.errors > before {
            return None;
        }
        Some(Modifier { span, attribute: attribute?, op: op?, condition })
    }

    pub(super) fn trigger(&mut self, table: &Table<'_>, span: Span) -> Trigger {
        let before = self.errors;
        let present = self.known_fields(table, TRIGGER_FIELDS, Code::UnknownField, &"a trigger");
        self.require(&present, TRIGGER_FIELDS, span.clone(), &"this trigger", &[]);
        let mut fields = Vec::new();
        for (def, key_span, v) in present {
            if let Some(value) = self.value(def, v, Ctx::Plain) {
                fields.push(Field { def, key_span, span: v.span(), value });
            }
        }
        let mut t = trigger_from_fields(span, &fields);
        t.broken |= self.errors > before;
        t
    }

    pub(super) fn ai_rule(&mut self, table: &Table<'_>, span: Span) -> AiRule {
        let before = self.errors;
        let present = self.known_fields(table, AI_FIELDS, Code::UnknownField, &"an `ai` rule");
        let mut rule = AiRule { span, condition: Vec::new(), actions: Vec::new(), broken: false };
        for (def, _, v) in present {
            match self.value(def, v, Ctx::Plain) {
                Some(Value::Conditions(c)) => rule.condition = c,
                Some(Value::Actions(a)) => rule.actions = a,
                _ => {}
            }
        }
        rule.broken = self.errors > before;
        rule
    }

    pub(super) fn when(&mut self, v: &DV<'_>) -> Option<Vec<When>> {
        let Val::Table(t) = v.get_ref() else {
            self.wrong_type(field::WHEN, "a table of event filters, e.g. `{ damage_type = \"fire\" }`", v);
            return None;
        };
        let mut out = Vec::new();
        for (key, val) in t.iter() {
            let name = key.get_ref().as_ref();
            let Some(field) = WhenField::from_name(name) else {
                let judged = suggest::closest_judged(name, WHEN_FIELDS.iter().map(|w| w.name));
                let suggestion = judged.map(|j| j.0);
                let mut msg = format!("`{name}` is not a `when` field of any event");
                if let Some(s) = suggestion {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                if suggestion.is_none() {
                    msg.push('.');
                }
                msg.push_str(&format!(" `when` fields: {}", suggest::list(WHEN_FIELDS.iter().map(|w| w.name))));
                let d = self.diag(Code::UnknownWhenField, key.span(), msg);
                if let Some((s, safety)) = judged {
                    *d = d.clone().with_fix(format!("rename to `{s}`"), s, safety);
                }
                continue;
            };
            let Some(s) = self.string(name, val) else { continue };
            let ok = match field.def().value {
                WhenValue::DamageType => self.known_name(Code::UnknownDamageType, "damage type", s, val.span(), DAMAGE_TYPES),
                WhenValue::Outcome => {
                    if OUTCOMES.contains(&s) {
                        true
                    } else {
                        let msg = format!("`{name}` must be `{}` or `{}`, not {}", outcome::VICTORY, outcome::FLED, toml_string(s));
                        let d = self.diag(Code::WrongType, val.span(), msg);
                        if let Some((sug, safety)) = suggest::closest_judged(s, OUTCOMES.iter().copied()) {
                            *d = d.clone().with_fix(format!("replace with `{sug}`"), toml_string(sug), safety);
                        }
                        false
                    }
                }
                WhenValue::Id(r) => self.reference(RefKind::Registry(r), field.name(), val).is_some(),
            };
            if ok {
                out.push(When { field, key_span: key.span(), value: Sp::new(val.span(), s.to_string()) });
            }
        }
        Some(out)
    }

    /// The discriminator of a check or action: its name, or `None` if reported.
    fn discriminator<'a>(&mut self, table: &'a Table<'_>, key: &str, span: Span, what: &str) -> Option<(&'a str, Span)> {
        let Some((_, v)) = table.iter().find(|(k, _)| k.get_ref().as_ref() == key) else {
            // A misspelled discriminator (`acton`) hides every other key of the table: offer
            // the rename here, where the other keys cannot be checked yet.
            let known: Vec<&str> = if key == field::ACTION {
                ACTIONS.iter().flat_map(|a| a.fields.iter().map(|f| f.name)).chain([field::ACTION]).collect()
            } else {
                CHECKS.iter().flat_map(|c| c.fields.iter().map(|f| f.name)).chain([field::CHECK, field::NOT]).collect()
            };
            let typo =
                table.keys().find(|k| suggest::distance(&k.get_ref().to_lowercase(), key, 1).is_some() && known.iter().all(|n| *n != k.get_ref().as_ref()));
            let mut msg = format!("this {what} has no `{key}`: say which {what} it is");
            let fix = typo.map(|k| (k.span(), k.get_ref().to_string(), suggest::judge(k.get_ref(), key, known.iter().copied())));
            if let Some((_, name, _)) = &fix {
                msg.push_str(&format!("; did you mean `{key}` for `{name}`?"));
            }
            let d = self.diag(Code::MissingField, span, msg);
            if let Some((at, _, safety)) = fix {
                *d = d.clone().with_fix_at(at, format!("rename to `{key}`"), key, safety);
            }
            return None;
        };
        match v.get_ref() {
            Val::String(s) => Some((s.as_ref(), v.span())),
            _ => {
                self.wrong_type(key, "a string", v);
                None
            }
        }
    }

    /// The kind a check's or an action's table names (`check = "…"`, `action = "…"`) and the
    /// fields it has: a missing or unknown kind, unknown fields and missing required ones are
    /// reported; `None` without a kind. Adds no diagnostic before the fields' when it gives one.
    fn kind_table<'a, 'i, K: Kind>(&mut self, table: &'a Table<'i>, span: &Span) -> Option<(K, Present<'a, 'i>)> {
        let (name, name_span) = self.discriminator(table, K::KEY, span.clone(), K::NOUN)?;
        let Some(kind) = K::from_name(name) else {
            let present: Vec<&str> = table.keys().map(|k| k.get_ref().as_ref()).filter(|k| *k != K::KEY).collect();
            let fields_of = |n: &str| K::from_name(n).map(|k| k.fields().iter().map(|f| f.name).collect()).unwrap_or_default();
            self.unknown_name(K::UNKNOWN, K::NOUN, name, name_span, K::names(), K::ALIASES, Some((&present, &fields_of)));
            return None;
        };
        let defs = kind.fields();
        let present = self.known_fields(table, defs, Code::UnknownField, &format_args!("the {} `{}`", K::NOUN, kind.name()));
        self.require(&present, defs, span.clone(), &format_args!("this `{}` {}", kind.name(), K::NOUN), &[]);
        Some((kind, present))
    }

    pub(super) fn condition(&mut self, table: &Table<'_>, span: Span) -> Option<Condition> {
        let before = self.errors;
        let first_diag = self.diags.len();
        let (kind, present) = self.kind_table::<CheckKind>(table, &span)?;
        let mut who = None;
        let mut who_span = span.clone();
        let mut not = false;
        let mut tag = None;
        let mut attribute = None;
        let mut at_least = None;
        let mut below = None;
        let mut item = None;
        let mut count = 1u32;
        let mut fraction = None;
        for (def, _, v) in &present {
            let value = self.value(def, v, Ctx::Condition);
            match (def.name, value) {
                (field::WHO, Some(Value::Str(s))) => {
                    who = Some(who_of(&s));
                    who_span = v.span();
                }
                (field::NOT, Some(Value::Bool(b))) => not = b,
                (field::VALUE, Some(Value::Ref(r))) => tag = Some(r),
                (field::VALUE, Some(Value::Float(x))) => fraction = Some(x),
                (field::ATTRIBUTE, Some(Value::Str(s))) => attribute = Some(s),
                (field::AT_LEAST, Some(Value::Float(x))) => at_least = Some(x),
                (field::BELOW, Some(Value::Float(x))) => below = Some(x),
                (field::ITEM, Some(Value::Ref(r))) => item = Some(r),
                (field::COUNT, Some(Value::Int(n))) => count = n.min(u32::MAX as i64) as u32,
                _ => {}
            }
        }
        if kind == CheckKind::Attribute {
            let has = |n: &str| present.iter().any(|(d, _, _)| d.name == n);
            if !has(field::AT_LEAST) && !has(field::BELOW) {
                self.diag(Code::MalformedCondition, span.clone(), "an `attribute` check needs `at_least`, `below` or both");
            } else if let (Some(a), Some(b)) = (at_least, below) {
                if a >= b {
                    self.diag(Code::MalformedCondition, span.clone(), format!("`at_least` ({a}) must be below `below` ({b}): no value can satisfy both"));
                }
            }
        }
        self.retarget(first_diag, Code::MalformedCondition, &span);
        if self.errors > before {
            return None;
        }
        let data = match kind {
            CheckKind::HasTag => ConditionData::HasTag { tag: tag? },
            CheckKind::Attribute => ConditionData::Attribute { attribute: attribute?, at_least, below },
            CheckKind::HasItem => ConditionData::HasItem { item: item?, count },
            CheckKind::HealthBelow => ConditionData::HealthBelow { value: fraction? },
        };
        Some(Condition { span, kind, who: who?, who_span, not, data })
    }

    pub(super) fn action(&mut self, table: &Table<'_>, span: Span) -> Option<Action> {
        let before = self.errors;
        let first_diag = self.diags.len();
        let (kind, present) = self.kind_table::<ActionKind>(table, &span)?;
        let mut target = None;
        let mut target_span = None;
        let mut amount = 0u32;
        let mut count = 1u32;
        let mut turns = None;
        let mut damage_type = None;
        let mut id = None;
        for (def, _, v) in &present {
            let value = self.value(def, v, Ctx::Action);
            match (def.name, value) {
                (field::TARGET, Some(Value::Str(s))) => {
                    target = Some(who_of(&s));
                    target_span = Some(v.span());
                }
                (field::AMOUNT, Some(Value::Int(n))) => amount = n.min(u32::MAX as i64) as u32,
                (field::COUNT, Some(Value::Int(n))) => count = n.min(u32::MAX as i64) as u32,
                (field::TURNS, Some(Value::Int(n))) => turns = Some(n.min(u32::MAX as i64) as u32),
                (field::DAMAGE_TYPE, Some(Value::Str(s))) => damage_type = Some(s),
                (_, Some(Value::Ref(r))) => id = Some(r),
                _ => {}
            }
        }
        self.retarget(first_diag, Code::MalformedAction, &span);
        if self.errors > before {
            match (kind, id) {
                (ActionKind::GiveItem, Some(item)) => self.broken_given.push(item.value),
                (ActionKind::StartQuest, Some(quest)) => self.broken_started.push(quest.value),
                _ => {}
            }
            return None;
        }
        let data = match kind {
            ActionKind::Damage => ActionData::Damage { amount, damage_type: damage_type?, target: target? },
            ActionKind::Heal => ActionData::Heal { amount, target: target? },
            ActionKind::GiveItem => ActionData::GiveItem { item: id?, count, target: target? },
            ActionKind::TakeItem => ActionData::TakeItem { item: id?, count, target: target? },
            ActionKind::ApplyStatus => ActionData::ApplyStatus { status: id?, turns, target: target? },
            ActionKind::Spawn => ActionData::Spawn { creature: id?, count },
            ActionKind::StartQuest => ActionData::StartQuest { quest: id? },
            ActionKind::Flee => ActionData::Flee,
            ActionKind::OpenShop => ActionData::OpenShop { shop: id? },
        };
        Some(Action { span, kind, target_span, data })
    }
}

/// The creature a `who` (of a check) or a `target` (of an action) names.
fn who_of(s: &str) -> Who {
    if s == who::SELF {
        Who::SelfBearer
    } else {
        Who::Target
    }
}

/// Assembles a trigger from lowered trigger fields (a trigger table or a quest's flattened fields).
pub(super) fn trigger_from_fields(span: Span, fields: &[Field]) -> Trigger {
    let mut t = Trigger { span, on: None, when: Vec::new(), condition: Vec::new(), chance: 1.0, actions: Vec::new(), broken: false };
    for f in fields {
        match (&f.value, f.def.name) {
            (Value::Event(e), _) => t.on = Some(Sp::new(f.span.clone(), *e)),
            (Value::When(w), _) => t.when = w.clone(),
            (Value::Conditions(c), _) => t.condition = c.clone(),
            (Value::Float(x), field::CHANCE) => t.chance = *x,
            (Value::Actions(a), field::ACTIONS) => t.actions = a.clone(),
            _ => {}
        }
    }
    t.broken = t.on.is_none();
    t
}

/// The kinds of checks and of actions, as the tables that name one are lowered.
trait Kind: Copy + 'static {
    /// The field that names the kind, and what it is called.
    const KEY: &'static str;
    const NOUN: &'static str;
    /// The diagnostic of a name that is no kind, and the names modders reach for instead.
    const UNKNOWN: Code;
    const ALIASES: &'static [(&'static str, &'static str)];
    fn from_name(name: &str) -> Option<Self>;
    fn name(self) -> &'static str;
    /// Every field the kind takes, the one that names it included.
    fn fields(self) -> &'static [FieldDef];
    fn names() -> impl Iterator<Item = &'static str> + Clone;
}

/// Implements [`Kind`] for a kind from its rows (each with a `kind`, a `name` and its own
/// `fields`): `key` is the field that names the kind and comes first among its fields, `tail` the
/// fields every table of the kind takes after its own.
macro_rules! impl_kind {
    ($kind:ty, $rows:expr, key: $key:expr, noun: $noun:literal, unknown: $unknown:expr, aliases: $aliases:expr, tail: $tail:expr) => {
        impl Kind for $kind {
            const KEY: &'static str = $key.name;
            const NOUN: &'static str = $noun;
            const UNKNOWN: Code = $unknown;
            const ALIASES: &'static [(&'static str, &'static str)] = $aliases;
            fn from_name(name: &str) -> Option<Self> {
                <$kind>::from_name(name)
            }
            fn name(self) -> &'static str {
                self.def().name
            }
            fn fields(self) -> &'static [FieldDef] {
                static CACHE: OnceLock<Vec<Vec<FieldDef>>> = OnceLock::new();
                let all = CACHE.get_or_init(|| $rows.iter().map(|r| [$key].iter().chain(r.fields).chain($tail).copied().collect()).collect());
                let i = $rows.iter().position(|r| r.kind == self).expect(concat!($noun, " row"));
                &all[i]
            }
            fn names() -> impl Iterator<Item = &'static str> + Clone {
                $rows.iter().map(|r| r.name)
            }
        }
    };
}

impl_kind!(CheckKind, CHECKS, key: CHECK_FIELD, noun: "check", unknown: Code::UnknownCheck, aliases: CHECK_ALIASES, tail: &[NOT_FIELD]);
impl_kind!(ActionKind, ACTIONS, key: ACTION_FIELD, noun: "action", unknown: Code::UnknownAction, aliases: ACTION_ALIASES, tail: &[]);
