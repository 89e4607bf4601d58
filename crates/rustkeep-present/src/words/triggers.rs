//! Conditions, modifiers, actions, events and triggers in words, with `self` and `target` named
//! after the bearer and the event (see the parent module).

use rustkeep_data::model::{Action, ActionData, Condition, ConditionData, ModOp, Modifier, Trigger, When, Who};
use rustkeep_data::vocab::{field, outcome, EventKind, Registry, WhenField, WhenValue};

use super::english::{a, and_list, attribute_value, attribute_words, counted, entry_name, percent, plural, turns};
use super::{Bearer, Mood, Party, Sides};
use rustkeep_engine::game::{shown, World};

// ---------------------------------------------------------------------------------------------
// Conditions
// ---------------------------------------------------------------------------------------------

/// One check in words, with `self` the bearer and `target` "the target": "the target is not
/// tagged core:undead", "your health is below 25 %".
pub fn condition(w: &World, c: &Condition, bearer: Bearer) -> String {
    condition_in(w, c, Sides { me: bearer.party(), other: Party::The("the target") })
}

/// A list of checks, all of which must hold, joined with "and"; "always" for none.
pub fn conditions(w: &World, cs: &[Condition], bearer: Bearer) -> String {
    if cs.is_empty() {
        return "always".into();
    }
    conditions_in(w, &cs.iter().collect::<Vec<_>>(), Sides { me: bearer.party(), other: Party::The("the target") })
}

fn condition_in(w: &World, c: &Condition, s: Sides) -> String {
    let p = s.of(c.who);
    match &c.data {
        ConditionData::HasTag { tag } => format!("{} {} {}tagged {}", p.subject(), p.pick("are", "is"), if c.not { "not " } else { "" }, tag.value),
        ConditionData::Attribute { attribute, at_least, below } => {
            let v = |x: f64| attribute_value(attribute, x);
            let range = match (*at_least, *below, c.not) {
                (Some(lo), None, false) | (None, Some(lo), true) => format!("is at least {}", v(lo)),
                (None, Some(hi), false) | (Some(hi), None, true) => format!("is below {}", v(hi)),
                (Some(lo), Some(hi), false) => format!("is at least {} and below {}", v(lo), v(hi)),
                (Some(lo), Some(hi), true) => format!("is below {} or at least {}", v(lo), v(hi)),
                (None, None, false) => "has any value".into(),
                (None, None, true) => "has no value at all (this check never holds)".into(),
            };
            format!("{} {} {range}", p.possessive(), attribute_words(attribute))
        }
        ConditionData::HasItem { item, count } => {
            let have = p.pick("have", "has");
            let name = entry_name(w, Registry::Items, &item.value);
            match (c.not, *count) {
                (false, 0 | 1) => format!("{} {have} {}", p.subject(), a(&name)),
                (false, n) => format!("{} {have} at least {n} {}", p.subject(), plural(&name)),
                (true, 0 | 1) => format!("{} {have} no {}", p.subject(), plural(&name)),
                (true, n) => format!("{} {have} fewer than {n} {}", p.subject(), plural(&name)),
            }
        }
        ConditionData::HealthBelow { value } => {
            if *value >= 1.0 {
                format!("{} {} {}", p.subject(), p.pick("are", "is"), if c.not { "at full health" } else { "hurt" })
            } else {
                format!("{} health is {} {}", p.possessive(), if c.not { "at least" } else { "below" }, percent(*value))
            }
        }
    }
}

/// Checks joined with "and"; running `has_tag` checks on one creature share their subject ("the
/// target is tagged core:rat and core:boss").
pub(super) fn conditions_in(w: &World, cs: &[&Condition], s: Sides) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if let (ConditionData::HasTag { .. }, false) = (&c.data, c.not) {
            let mut tags = Vec::new();
            while let Some(ConditionData::HasTag { tag }) = cs.get(i).filter(|n| n.who == c.who && !n.not).map(|n| &n.data) {
                tags.push(tag.value.as_str());
                i += 1;
            }
            let p = s.of(c.who);
            parts.push(format!("{} {} tagged {}", p.subject(), p.pick("are", "is"), and_list(&tags)));
        } else {
            parts.push(condition_in(w, c, s));
            i += 1;
        }
    }
    and_list(&parts)
}

/// "tagged core:rat and core:boss and not tagged core:undead", from `has_tag` checks.
pub(super) fn tagged(cs: &[&Condition]) -> String {
    let mut yes = Vec::new();
    let mut parts = Vec::new();
    for c in cs {
        if let ConditionData::HasTag { tag } = &c.data {
            if c.not {
                parts.push(format!("not tagged {}", tag.value));
            } else {
                yes.push(tag.value.as_str());
            }
        }
    }
    if !yes.is_empty() {
        parts.insert(0, format!("tagged {}", and_list(&yes)));
    }
    and_list(&parts)
}

// ---------------------------------------------------------------------------------------------
// Modifiers
// ---------------------------------------------------------------------------------------------

/// A modifier in words: "+3 strength", "×0.85 max health", "+10 % crit chance", "+5 damage
/// against creatures tagged core:undead", "×1.25 damage while your intelligence is at least 8".
/// In its conditions `self` is the bearer and `target` the opponent of the read.
pub fn modifier(w: &World, m: &Modifier, bearer: Bearer) -> String {
    let amount = match m.op {
        ModOp::Add(v) => {
            let sign = if v >= 0.0 { "+" } else { "" };
            format!("{sign}{}", attribute_value(&m.attribute, v))
        }
        ModOp::Multiply(x) => format!("×{}", shown(x)),
    };
    let mut out = format!("{amount} {}", attribute_words(&m.attribute));
    let (against, rest): (Vec<&Condition>, Vec<&Condition>) =
        m.condition.iter().partition(|c| c.who == Who::Target && matches!(c.data, ConditionData::HasTag { .. }));
    if !against.is_empty() {
        out.push_str(&format!(" against creatures {}", tagged(&against)));
    }
    if !rest.is_empty() {
        out.push_str(&format!(" while {}", conditions_in(w, &rest, Sides { me: bearer.party(), other: Party::The("the opponent") })));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------

/// An action as a verb in both forms and what follows it.
struct Phrase {
    plain: &'static str,
    third: &'static str,
    rest: String,
}

impl Phrase {
    fn new(plain: &'static str, third: &'static str, rest: String) -> Phrase {
        Phrase { plain, third, rest }
    }
    fn text(&self, mood: Mood) -> String {
        let verb = match mood {
            Mood::Imperative => self.plain,
            Mood::Third => self.third,
        };
        format!("{verb}{}", self.rest)
    }
}

/// One action in words, as an order, with `self` the bearer and `target` "the target": "deal 3
/// fire damage to the target", "heal you for 5", "give you 2 Health Potions", "apply Bleeding to
/// the target for 3 turns", "start the quest Rattenplage", "spawn 2 Goblin Cutters".
pub fn action(w: &World, a: &Action, bearer: Bearer) -> String {
    phrase(w, &a.data, Sides { me: bearer.party(), other: Party::The("the target") }).text(Mood::Imperative)
}

/// Actions run one after the other, in words ("heal you for 6, then apply Poisoned to you for
/// 2 turns"); "nothing happens" for none.
pub fn actions(w: &World, list: &[Action], bearer: Bearer) -> String {
    actions_in(w, &list.iter().map(|a| &a.data).collect::<Vec<_>>(), Sides { me: bearer.party(), other: Party::The("the target") }, Mood::Imperative)
}

fn phrase(w: &World, a: &ActionData, s: Sides) -> Phrase {
    match a {
        ActionData::Damage { amount, damage_type, target } => {
            Phrase::new("deal", "deals", format!(" {amount} {damage_type} damage to {}", s.of(*target).object()))
        }
        ActionData::Heal { amount, target } => Phrase::new("heal", "heals", format!(" {} for {amount}", s.of(*target).object())),
        ActionData::GiveItem { item, count, target } => {
            Phrase::new("give", "gives", format!(" {} {}", s.of(*target).object(), counted(w, Registry::Items, &item.value, *count)))
        }
        ActionData::TakeItem { item, count, target } => {
            let what =
                if *count <= 1 { a_name(w, Registry::Items, &item.value) } else { format!("up to {}", counted(w, Registry::Items, &item.value, *count)) };
            Phrase::new("take", "takes", format!(" {what} from {}", s.of(*target).object()))
        }
        ActionData::ApplyStatus { status, turns: n, target } => {
            let default = w.entry(Registry::Statuses, &status.value).and_then(|e| e.int(field::TURNS)).map(|t| t.clamp(1, u32::MAX as i64) as u32);
            let duration = n.or(default).map(|t| format!(" for {}", turns(t))).unwrap_or_default();
            Phrase::new("apply", "applies", format!(" {} to {}{duration}", entry_name(w, Registry::Statuses, &status.value), s.of(*target).object()))
        }
        ActionData::Spawn { creature, count } => Phrase::new("spawn", "spawns", format!(" {}", counted(w, Registry::Creatures, &creature.value, *count))),
        ActionData::StartQuest { quest } => Phrase::new("start", "starts", format!(" the quest {}", entry_name(w, Registry::Quests, &quest.value))),
        ActionData::Flee => Phrase::new("flee", "flees", String::new()),
        ActionData::OpenShop { shop } => Phrase::new("open", "opens", format!(" the shop {}", entry_name(w, Registry::Shops, &shop.value))),
    }
}

pub(super) fn a_name(w: &World, registry: Registry, id: &str) -> String {
    a(&entry_name(w, registry, id))
}

/// Actions joined with ", then "; running `give_item`s to one creature share their verb ("give
/// you an Iron Sword, a Leather Jerkin and 2 Health Potions").
pub(super) fn actions_in(w: &World, list: &[&ActionData], s: Sides, mood: Mood) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < list.len() {
        if let ActionData::GiveItem { target, .. } = list[i] {
            let mut things = Vec::new();
            while let Some(ActionData::GiveItem { item, count, target: t }) = list.get(i) {
                if t != target {
                    break;
                }
                things.push(counted(w, Registry::Items, &item.value, *count));
                i += 1;
            }
            parts.push(Phrase::new("give", "gives", format!(" {} {}", s.of(*target).object(), and_list(&things))).text(mood));
        } else {
            parts.push(phrase(w, list[i], s).text(mood));
            i += 1;
        }
    }
    if parts.is_empty() {
        return match mood {
            Mood::Imperative => "nothing happens".into(),
            Mood::Third => "does nothing".into(),
        };
    }
    parts.join(", then ")
}

// ---------------------------------------------------------------------------------------------
// Events and triggers
// ---------------------------------------------------------------------------------------------

pub(super) fn when_value(when: &[When], f: WhenField) -> Option<&str> {
    when.iter().find(|x| x.field == f).map(|x| x.value.value.as_str())
}

fn when_field_words(f: WhenField) -> &'static str {
    match f {
        WhenField::DamageType => "damage type",
        WhenField::Outcome => "outcome",
        WhenField::Item => "item",
        WhenField::Floor => "floor",
        WhenField::Prefab => "room",
        WhenField::Npc => "NPC",
        WhenField::Quest => "quest",
    }
}

fn when_value_words(w: &World, x: &When) -> String {
    match x.field.def().value {
        WhenValue::DamageType | WhenValue::Outcome => x.value.value.clone(),
        WhenValue::Id(r) => entry_name(w, r, &x.value.value),
    }
}

/// `when` filters the event does not carry (the validator refuses them; they never match).
pub(super) fn uncarried(w: &World, kind: Option<EventKind>, when: &[When]) -> String {
    when.iter()
        .filter(|x| !kind.is_some_and(|k| k.carries(x.field)))
        .map(|x| format!(" (only when its {} is {}, which this event never carries)", when_field_words(x.field), when_value_words(w, x)))
        .collect()
}

/// "an ice attack", "a fire attack".
pub(super) fn attack_of(damage_type: Option<&str>) -> String {
    match damage_type {
        Some(d) => a(&format!("{d} attack")),
        None => "an attack".into(),
    }
}

/// The other side of an event from its source's point of view: `target` in the triggers of
/// the creature the event is raised on.
pub(super) fn other_side(kind: EventKind) -> Party {
    match kind {
        EventKind::AttackHit => Party::The("the target"),
        EventKind::DamageTaken => Party::The("the attacker"),
        EventKind::CreatureDied => Party::The("the killer"),
        EventKind::TurnStarted
        | EventKind::CombatStarted
        | EventKind::CombatEnded
        | EventKind::ItemPickedUp
        | EventKind::ItemUsed
        | EventKind::FloorEntered
        | EventKind::RoomEntered
        | EventKind::NpcTalked
        | EventKind::QuestCompleted => Party::Absent,
    }
}

/// When an event happens to a bearer, with its `when` filter: "When you take fire damage", "At
/// the start of its turn", "When you talk to Brakka the Smith".
pub fn event(w: &World, kind: EventKind, when: &[When], bearer: Bearer) -> String {
    event_clause(w, kind, when, bearer.party())
}

fn event_clause(w: &World, kind: EventKind, when: &[When], me: Party) -> String {
    let subject = me.subject();
    let head = match kind {
        EventKind::TurnStarted => format!("At the start of {} turn", me.possessive()),
        EventKind::CombatStarted => "When a combat starts".into(),
        EventKind::AttackHit => format!("When {subject} {} with {}", me.pick("hit", "hits"), attack_of(when_value(when, WhenField::DamageType))),
        EventKind::DamageTaken => match when_value(when, WhenField::DamageType) {
            Some(d) => format!("When {subject} {} {d} damage", me.pick("take", "takes")),
            None => format!("When {subject} {} damage", me.pick("take", "takes")),
        },
        EventKind::CreatureDied => format!("When {subject} {}", me.pick("die", "dies")),
        EventKind::CombatEnded => match when_value(when, WhenField::Outcome) {
            Some(outcome::VICTORY) => "When a combat ends in victory".into(),
            Some(outcome::FLED) => "When you flee from a combat".into(),
            Some(o) => format!("When a combat ends with the outcome {o}"),
            None => "When a combat ends".into(),
        },
        EventKind::ItemPickedUp => format!("When {subject} {} {}", me.pick("receive", "receives"), filtered(w, when, WhenField::Item, a_name, "an item")),
        EventKind::ItemUsed => format!("When {subject} {} {}", me.pick("use", "uses"), filtered(w, when, WhenField::Item, a_name, "an item")),
        EventKind::FloorEntered => format!("When you enter {}", filtered(w, when, WhenField::Floor, entry_name, "a floor")),
        EventKind::RoomEntered => format!("When you enter {}", filtered(w, when, WhenField::Prefab, a_name, "a room")),
        EventKind::NpcTalked => format!("When you talk to {}", filtered(w, when, WhenField::Npc, entry_name, "someone")),
        EventKind::QuestCompleted => format!("When you complete {}", filtered(w, when, WhenField::Quest, entry_name, "a quest")),
    };
    format!("{head}{}", uncarried(w, Some(kind), when))
}

/// The entry a `when` filter on an entry field names, as `name` words it ("a Healing Potion",
/// "Brakka the Smith"), or `anything` ("an item") when the filter names none.
fn filtered(w: &World, when: &[When], field: WhenField, name: fn(&World, Registry, &str) -> String, anything: &str) -> String {
    match (when_value(when, field), field.def().value) {
        (Some(id), WhenValue::Id(registry)) => name(w, registry, id),
        _ => anything.to_string(),
    }
}

pub(super) const BROKEN: &str = " (It has errors, so the game never runs it.)";

/// A trigger in words: its event with the `when` filter, its conditions, its chance and its
/// actions. "When you take physical damage: apply Bleeding to the attacker for 2 turns."
pub fn trigger(w: &World, t: &Trigger, bearer: Bearer) -> String {
    let me = bearer.party();
    let (mut out, other) = match &t.on {
        Some(on) => (event_clause(w, on.value, &t.when, me), other_side(on.value)),
        None => (format!("Never (it names no event){}", uncarried(w, None, &t.when)), Party::The("the target")),
    };
    let s = Sides { me, other };
    if !t.condition.is_empty() {
        out.push_str(&format!(", if {}", conditions_in(w, &t.condition.iter().collect::<Vec<_>>(), s)));
    }
    out.push_str(": ");
    if t.chance < 1.0 {
        out.push_str(&format!("{} of the time, ", percent(t.chance)));
    }
    out.push_str(&actions_in(w, &t.actions.iter().map(|a| &a.data).collect::<Vec<_>>(), s, Mood::Imperative));
    out.push('.');
    if t.broken {
        out.push_str(BROKEN);
    }
    out
}
