//! Whole entries in lines for players and documentation pages: a quest's objective and reward,
//! an item, a creature and its `ai`, a character option, a status, an affix.

use rustkeep_data::model::{ActionData, Condition, ConditionData, Trigger, Who};
use rustkeep_data::vocab::{attr, damage, field, outcome, slot, EventKind, Registry, WhenField, CURRENCY, RESISTANCES};

use super::english::{a, and_list, attribute_value, attribute_words, capitalized, counted, entry_name, numbered, percent, plural, times, turns};
use super::triggers::{a_name, actions_in, attack_of, conditions_in, modifier, tagged, trigger, uncarried, when_value, BROKEN};
use super::{Bearer, Mood, Party, Sides};
use rustkeep_engine::game::{shown, World};

// ---------------------------------------------------------------------------------------------
// Quests
// ---------------------------------------------------------------------------------------------

/// The other side of an event for a quest (docs/triggers.md, "Quests are triggers"): the event's
/// target when the player is its source, else its source.
fn quest_other(kind: EventKind) -> Party {
    match kind {
        EventKind::CreatureDied => Party::The("the dead creature"),
        EventKind::AttackHit | EventKind::DamageTaken => Party::The("the other side"),
        EventKind::TurnStarted => Party::The("the creature whose turn it is"),
        EventKind::ItemPickedUp | EventKind::ItemUsed => Party::The("the other side"),
        EventKind::CombatStarted
        | EventKind::CombatEnded
        | EventKind::FloorEntered
        | EventKind::RoomEntered
        | EventKind::NpcTalked
        | EventKind::QuestCompleted => Party::Absent,
    }
}

/// "Kill 5 creatures", "Pick up 3 items": `one` for a count of 1, else the count and `many`.
fn how_many(verb: &str, n: u32, one: &str, many: &str) -> String {
    if n <= 1 {
        format!("{verb} {one}")
    } else {
        format!("{verb} {n} {many}")
    }
}

/// The creatures that carry every tag the checks ask for (and none they forbid): "Giant Rat,
/// Plague Rat, Rat and The Rat King".
fn creatures_tagged(w: &World, cs: &[&Condition]) -> String {
    // The creatures of the first tag asked for, when there is one (the index); else all.
    let first = cs.iter().find_map(|c| match &c.data {
        ConditionData::HasTag { tag } if !c.not => Some(tag.value.as_str()),
        _ => None,
    });
    let all;
    let candidates: &[String] = match first {
        Some(tag) => w.creatures_tagged(tag),
        None => {
            all = w.ids(Registry::Creatures);
            &all
        }
    };
    let matching = candidates.iter().filter(|id| {
        let Some(e) = w.entry(Registry::Creatures, id) else { return false };
        cs.iter().all(|c| match &c.data {
            ConditionData::HasTag { tag } => e.tags().iter().any(|t| t.value == tag.value) != c.not,
            ConditionData::Attribute { .. } | ConditionData::HasItem { .. } | ConditionData::HealthBelow { .. } => true,
        })
    });
    // At most four names are ever shown: the others are only counted, not looked up (a quest of
    // a pack of thousands of tagged creatures would copy every name for each quest).
    let mut names: Vec<String> = Vec::new();
    let mut count = 0;
    for id in matching {
        if names.len() < 4 {
            names.push(entry_name(w, Registry::Creatures, id));
        }
        count += 1;
    }
    match count {
        0 => "there is no such creature".into(),
        1..=4 => and_list(&names),
        n => format!("{}, {} and {} more", names[0], names[1..3].join(", "), n - 3),
    }
}

/// What the player must do: "Kill 5 creatures tagged core:rat (…)", "Talk to Brakka the Smith".
pub(super) fn objective(w: &World, t: &Trigger, n: u32) -> String {
    let Some(on) = &t.on else { return format!("Nothing can complete it: it names no event{}", uncarried(w, None, &t.when)) };
    let kind = on.value;
    let s = Sides { me: Party::You, other: quest_other(kind) };
    let x = times(n);
    let mut rest: Vec<&Condition> = t.condition.iter().collect();
    let head = match kind {
        EventKind::CreatureDied => {
            let (tags, others): (Vec<&Condition>, Vec<&Condition>) =
                t.condition.iter().partition(|c| c.who == Who::Target && matches!(c.data, ConditionData::HasTag { .. }));
            rest = others;
            let mut head = how_many("Kill", n, "a creature", "creatures");
            if !tags.is_empty() {
                head.push_str(&format!(" {}", tagged(&tags)));
                if tags.iter().any(|c| !c.not) {
                    head.push_str(&format!(" ({})", creatures_tagged(w, &tags)));
                }
            }
            head
        }
        EventKind::AttackHit => format!("Hit with {}{x}", attack_of(when_value(&t.when, WhenField::DamageType))),
        EventKind::DamageTaken => match when_value(&t.when, WhenField::DamageType) {
            Some(d) => format!("Take {d} damage{x}"),
            None => format!("Take damage{x}"),
        },
        EventKind::TurnStarted => how_many("Let", n, "a turn pass", "turns pass"),
        EventKind::CombatStarted => how_many("Start", n, "a combat", "combats"),
        EventKind::CombatEnded => match when_value(&t.when, WhenField::Outcome) {
            Some(outcome::VICTORY) => how_many("Win", n, "a combat", "combats"),
            Some(outcome::FLED) => how_many("Flee from", n, "a combat", "combats"),
            Some(o) => format!("End a combat with the outcome {o}{x}"),
            None => how_many("End", n, "a combat", "combats"),
        },
        EventKind::ItemPickedUp => match when_value(&t.when, WhenField::Item) {
            Some(i) => {
                let stacks = w.stackable(i);
                let name = entry_name(w, Registry::Items, i);
                format!("Pick up {}{x}", if stacks { plural(&name) } else { a(&name) })
            }
            None => how_many("Pick up", n, "an item", "items"),
        },
        EventKind::ItemUsed => match when_value(&t.when, WhenField::Item) {
            Some(i) => format!("Use {}{x}", a_name(w, Registry::Items, i)),
            None => how_many("Use", n, "an item", "items"),
        },
        EventKind::FloorEntered => match when_value(&t.when, WhenField::Floor) {
            Some(f) => {
                let depth = w.entry(Registry::Floors, f).and_then(|e| e.int(field::DEPTH)).map(|d| format!(" (floor {d})")).unwrap_or_default();
                format!("Reach {}{depth}{x}", entry_name(w, Registry::Floors, f))
            }
            None => how_many("Enter", n, "a floor", "floors"),
        },
        EventKind::RoomEntered => match when_value(&t.when, WhenField::Prefab) {
            Some(p) => format!("Enter {}{x}", a_name(w, Registry::Prefabs, p)),
            None => how_many("Enter", n, "a room", "rooms"),
        },
        EventKind::NpcTalked => match when_value(&t.when, WhenField::Npc) {
            Some(p) => format!("Talk to {}{x}", entry_name(w, Registry::Npcs, p)),
            None => format!("Talk to someone{x}"),
        },
        EventKind::QuestCompleted => match when_value(&t.when, WhenField::Quest) {
            Some(q) => format!("Complete {}{x}", entry_name(w, Registry::Quests, q)),
            None => how_many("Complete", n, "a quest", "quests"),
        },
    };
    let mut out = format!("{head}{}", uncarried(w, Some(kind), &t.when));
    if !rest.is_empty() {
        out.push_str(&format!(" while {}", conditions_in(w, &rest, s)));
    }
    out
}

/// The reward of a quest: the items given to the player, then any other actions.
pub(super) fn reward(w: &World, t: &Trigger, other: Party) -> String {
    let mut items = Vec::new();
    let mut others = Vec::new();
    for a in &t.actions {
        match &a.data {
            ActionData::GiveItem { item, count, target: Who::SelfBearer } => items.push(counted(w, Registry::Items, &item.value, *count)),
            d => others.push(d),
        }
    }
    let mut parts = Vec::new();
    if !items.is_empty() {
        parts.push(format!("Reward: {}.", and_list(&items)));
    }
    if !others.is_empty() {
        parts.push(format!("On completion: {}.", actions_in(w, &others, Sides { me: Party::You, other }, Mood::Imperative)));
    }
    if parts.is_empty() {
        return "No reward.".into();
    }
    parts.join(" ")
}

/// A quest's description from its definition, for the quest log: what to do and the reward.
/// "Kill 5 creatures tagged core:rat (Giant Rat, Plague Rat, Rat and The Rat King). Reward: 50
/// Gold Coins." `None` for an ID that is no quest.
pub fn quest(w: &World, id: &str) -> Option<String> {
    let e = w.entry(Registry::Quests, id)?;
    let Some(t) = e.quest_trigger.as_deref() else { return Some("Nothing can complete it: it has no objective. No reward.".into()) };
    let mut out = format!("{}.", objective(w, t, w.quest_count(id)));
    if t.chance < 1.0 {
        out.push_str(&format!(" Each one counts only {} of the time.", percent(t.chance)));
    }
    let other = t.on.as_ref().map_or(Party::Absent, |on| quest_other(on.value));
    out.push(' ');
    out.push_str(&reward(w, t, other));
    if t.broken {
        out.push_str(BROKEN);
    }
    Some(out)
}

// ---------------------------------------------------------------------------------------------
// Entries
// ---------------------------------------------------------------------------------------------

fn missing(registry: Registry, id: &str) -> Vec<String> {
    vec![format!("There is no {} {id}.", registry.noun())]
}

/// Every line a player wants about an item: its slot, its modifiers, what using it does, its
/// triggers (which run while it is equipped) and its price. Sentences about the player as `you`.
pub fn item(w: &World, id: &str) -> Vec<String> {
    let Some(e) = w.entry(Registry::Items, id) else { return missing(Registry::Items, id) };
    let mut lines = Vec::new();
    let slot = e.str(field::SLOT);
    match slot {
        Some(slot::WEAPON) => lines.push(format!("Slot: weapon, dealing {} damage.", e.str(field::DAMAGE_TYPE).unwrap_or(damage::PHYSICAL))),
        Some(s) => lines.push(format!("Slot: {s}.")),
        None => {}
    }
    let unworn = if slot.is_none() { " (It has no slot, so this never applies.)" } else { "" };
    for m in e.modifiers() {
        lines.push(format!("{}.{unworn}", modifier(w, m, Bearer::Player)));
    }
    let uses = e.actions(field::USE);
    if !uses.is_empty() {
        let s = Sides { me: Party::You, other: Party::Absent };
        lines.push(format!("Use (consumes one): {}.", actions_in(w, &uses.iter().map(|a| &a.data).collect::<Vec<_>>(), s, Mood::Imperative)));
    }
    for t in e.triggers() {
        lines.push(format!("{}{unworn}", trigger(w, t, Bearer::Player)));
    }
    lines.push(format!("Price: {}.", numbered(w, Registry::Items, CURRENCY, e.int(field::PRICE).unwrap_or(0))));
    lines
}

/// A creature's `ai` rules in words: what it does on its turn (docs/engine.md, "What an enemy
/// does"): the first rule whose condition holds, else an attack or a step towards the player.
/// `None` for an ID that is no creature.
pub fn creature_ai(w: &World, id: &str) -> Option<String> {
    let e = w.entry(Registry::Creatures, id)?;
    let s = Sides { me: Party::It, other: Party::You };
    let mut sentences = Vec::new();
    for rule in e.ai().iter().filter(|r| !r.broken) {
        let acts = actions_in(w, &rule.actions.iter().map(|a| &a.data).collect::<Vec<_>>(), s, Mood::Third);
        let lead = if sentences.is_empty() { "" } else { "Otherwise, " };
        if rule.condition.is_empty() {
            let body = format!("it {acts}.");
            sentences.push(if lead.is_empty() { format!("On its turn, {body}") } else { format!("{lead}{body}") });
            // A rule without condition always holds: later rules and the default are never reached.
            return Some(sentences.join(" "));
        }
        let cond = conditions_in(w, &rule.condition.iter().collect::<Vec<_>>(), s);
        sentences.push(if lead.is_empty() { format!("If {cond}, it {acts}.") } else { format!("{lead}if {cond}, it {acts}.") });
    }
    let default = "it attacks you if you are in reach, or else moves towards you.";
    sentences.push(if sentences.is_empty() { format!("On its turn, {default}") } else { format!("Otherwise, {default}") });
    Some(sentences.join(" "))
}

/// Every line worth knowing about a creature: level and health, its attack, its other
/// attributes, its resistances, its tags, what it does on its turn, its triggers and its loot.
pub fn creature(w: &World, id: &str) -> Vec<String> {
    let Some(e) = w.entry(Registry::Creatures, id) else { return missing(Registry::Creatures, id) };
    let attrs = e.attributes();
    let get = |name: &str| attrs.iter().find(|(k, _)| k.value == name).map(|(_, v)| *v);
    let mut lines = Vec::new();
    match (get(attr::LEVEL), get(attr::MAX_HEALTH)) {
        (Some(l), Some(h)) => lines.push(format!("Level {}, {} health.", shown(l), shown(h))),
        (Some(l), None) => lines.push(format!("Level {}.", shown(l))),
        (None, Some(h)) => lines.push(format!("{} health.", shown(h))),
        (None, None) => {}
    }
    let damage_type = e.str(field::DAMAGE_TYPE).unwrap_or(damage::PHYSICAL);
    lines.push(match get(attr::DAMAGE) {
        Some(d) => format!("Its attacks deal {} {damage_type} damage.", shown(d)),
        None => format!("Its attacks deal {damage_type} damage."),
    });
    let resistance = |a: &str| RESISTANCES.iter().any(|(_, r)| *r == a);
    let others: Vec<String> = attrs
        .iter()
        .filter(|(k, _)| ![attr::LEVEL, attr::MAX_HEALTH, attr::DAMAGE].contains(&k.value.as_str()) && !resistance(&k.value))
        .map(|(k, v)| format!("{} {}", attribute_words(&k.value), attribute_value(&k.value, *v)))
        .collect();
    if !others.is_empty() {
        lines.push(format!("{}.", capitalized(&others.join(", "))));
    }
    let resists: Vec<String> = RESISTANCES.iter().filter_map(|(d, r)| get(r).map(|v| format!("{d} {}", percent(v)))).collect();
    if !resists.is_empty() {
        lines.push(format!("Resists {}.", resists.join(", ")));
    }
    let tags: Vec<&str> = e.tags().iter().map(|t| t.value.as_str()).collect();
    if !tags.is_empty() {
        lines.push(format!("Tags: {}.", tags.join(", ")));
    }
    lines.extend(creature_ai(w, id));
    for t in e.triggers() {
        lines.push(trigger(w, t, Bearer::Creature));
    }
    if let Some(loot) = e.reference(field::LOOT) {
        lines.push(format!("When it dies, it drops loot from {}.", entry_name(w, Registry::LootTables, &loot.value)));
    }
    lines
}

/// A character option in lines: its modifiers, what it gives at creation, its triggers.
pub fn character_option(w: &World, id: &str) -> Vec<String> {
    let Some(e) = w.entry(Registry::CharacterOptions, id) else { return missing(Registry::CharacterOptions, id) };
    let mut lines: Vec<String> = e.modifiers().iter().map(|m| format!("{}.", modifier(w, m, Bearer::Player))).collect();
    let create = e.actions(field::ON_CREATE);
    if !create.is_empty() {
        let s = Sides { me: Party::You, other: Party::Absent };
        lines.push(format!("On creation: {}.", actions_in(w, &create.iter().map(|a| &a.data).collect::<Vec<_>>(), s, Mood::Imperative)));
    }
    lines.extend(e.triggers().iter().map(|t| trigger(w, t, Bearer::Player)));
    if lines.is_empty() {
        lines.push("It changes nothing.".into());
    }
    lines
}

/// A status in lines, for its bearer: how long it lasts, its modifiers, its triggers.
pub fn status(w: &World, id: &str, bearer: Bearer) -> Vec<String> {
    let Some(e) = w.entry(Registry::Statuses, id) else { return missing(Registry::Statuses, id) };
    let mut lines = Vec::new();
    match e.int(field::TURNS) {
        Some(n) => lines.push(format!("Lasts {}.", turns(n.clamp(1, u32::MAX as i64) as u32))),
        None => lines.push("Lasts as long as the action applying it says.".into()),
    }
    lines.extend(e.modifiers().iter().map(|m| format!("{}.", modifier(w, m, bearer))));
    lines.extend(e.triggers().iter().map(|t| trigger(w, t, bearer)));
    lines
}

/// An affix in lines, for the player bearing the item: its price factor, modifiers, triggers.
pub fn affix(w: &World, id: &str) -> Vec<String> {
    let Some(e) = w.entry(Registry::Affixes, id) else { return missing(Registry::Affixes, id) };
    let mut lines = vec![format!("Price ×{}.", shown(e.float(field::PRICE_FACTOR).unwrap_or(1.0)))];
    lines.extend(e.modifiers().iter().map(|m| format!("{}.", modifier(w, m, Bearer::Player))));
    lines.extend(e.triggers().iter().map(|t| trigger(w, t, Bearer::Player)));
    lines
}
