//! What happened in a turn, in plain words for the message log: "You hit the Rat for 5.",
//! "The Goblin Shaman heals 5.", "Quest completed: Rattenplage!". Read from the turn's causal
//! trace — its events, and the effects of the acts and actions that ran — with creatures and
//! entries called by their names. Every event and every effect is matched here by its type,
//! without a catch-all: a new one does not compile until it is told (or said to tell nothing).

use std::collections::BTreeMap;

use rustkeep_data::vocab::{damage, field, outcome, ActionKind, EventKind, IdText, Registry};
use rustkeep_engine::effect::{enemies_stay, Effect, Outcome};
use rustkeep_engine::game::{CreatureRef, World};
use rustkeep_engine::item::ItemInstance;
use rustkeep_engine::payload::Payload;
use rustkeep_engine::trace::{StepTrace, TraceEvent};

/// Who is who: the creature ID of every enemy the session has seen, by its N.
pub struct Names<'a> {
    pub w: &'a World,
    pub enemies: &'a BTreeMap<usize, String>,
}

/// An entry's `name`, else its ID. Entries of registries without names (prefabs) are called by
/// their ID in words: `core:rat_den` is "Rat Den".
pub fn entry_name(w: &World, registry: Registry, id: &str) -> String {
    if registry.field(field::NAME).is_none() {
        let local = IdText::of(id).name();
        return local.split('_').filter(|p| !p.is_empty()).map(capitalized).collect::<Vec<_>>().join(" ");
    }
    w.entry(registry, id).and_then(|e| e.str(field::NAME)).map(str::to_string).unwrap_or_else(|| id.to_string())
}

/// A creature's name with its article: `the Rat`, but `The Rat King` as it is named.
pub(crate) fn the(name: &str) -> String {
    if rustkeep_present::words::is_proper(name) || (name.len() > 4 && name[..4].eq_ignore_ascii_case("the ")) {
        name.to_string()
    } else {
        format!("the {name}")
    }
}

/// `1 turn`, `3 turns`.
pub fn turns(n: u32) -> String {
    format!("{n} turn{}", if n == 1 { "" } else { "s" })
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

impl Names<'_> {
    /// `you`, or `the Rat` (`enemy:N` when the session never saw that enemy).
    fn who(&self, r: CreatureRef) -> String {
        match r {
            CreatureRef::Player => "you".into(),
            CreatureRef::Enemy(n) => match self.enemies.get(&n) {
                Some(c) => the(&entry_name(self.w, Registry::Creatures, c)),
                None => r.to_string(),
            },
        }
    }

    /// `You` or `The Rat`, to start a sentence.
    fn subject(&self, r: CreatureRef) -> String {
        capitalized(&self.who(r))
    }

    fn name(&self, registry: Registry, id: &str) -> String {
        entry_name(self.w, registry, id)
    }

    fn item(&self, id: &str) -> String {
        self.name(Registry::Items, id)
    }

    /// ` (Flaming, Sharp)`, or nothing without affixes.
    fn affixes(&self, affixes: &[String]) -> String {
        if affixes.is_empty() {
            return String::new();
        }
        format!(" ({})", affixes.iter().map(|a| self.name(Registry::Affixes, a)).collect::<Vec<_>>().join(", "))
    }
}

/// A damage type in a sentence: nothing for physical damage.
fn kind(damage_type: &str) -> String {
    if damage_type == damage::PHYSICAL || damage_type.is_empty() {
        String::new()
    } else {
        format!(" {damage_type}")
    }
}

/// What a move into a wall says.
pub const BUMPED: &str = "A wall blocks the way.";

/// The sentences of an act's effect that no event tells: a wall, a pile, a flight, the end of
/// the run, nothing happening. (Hits, damage, deaths, pickups and rooms are told by their
/// events.)
fn effect_sentences(names: &Names<'_>, effect: &Effect, out: &mut Vec<String>) {
    match effect {
        // A miss is told here: no event tells it.
        Effect::Missed { attacker, victim, .. } => {
            let verb = if *attacker == CreatureRef::Player { "miss" } else { "misses" };
            out.push(format!("{} {verb} {}.", names.subject(*attacker), names.who(*victim)));
        }
        Effect::Bumped(_) => out.push(BUMPED.into()),
        Effect::Pile(drops) if drops.is_empty() => out.push("The loot pile holds nothing and crumbles away.".into()),
        Effect::LeftBehind { then, .. } => {
            out.push("You flee, leaving the enemies behind.".into());
            effect_sentences(names, then, out);
        }
        Effect::Won => out.push("You take the stairs out of the deepest floor: the run is won!".into()),
        Effect::Stairs { then, .. } => {
            out.push("You take the stairs down.".into());
            effect_sentences(names, then, out);
        }
        Effect::PlayerMoved { entered, found, .. } => {
            entered.iter().for_each(|e| effect_sentences(names, e, out));
            found.iter().for_each(|e| effect_sentences(names, e, out));
        }
        Effect::ReachedRoom { joined, .. } if !joined.is_empty() => {
            let who: Vec<String> = joined.iter().map(|(r, _)| names.who(*r)).collect();
            out.push(format!("{} {} you.", capitalized(&who.join(", ")), if who.len() == 1 { "notices" } else { "notice" }));
        }
        Effect::PickedUp { got, .. } => got.iter().for_each(|e| effect_sentences(names, e, out)),
        Effect::EnteredFloor { room: Some(room), .. } => effect_sentences(names, room, out),
        Effect::Hit { damage, .. } => effect_sentences(names, damage, out),
        // What the player did, told before what it caused (a potion's heal, the item received).
        Effect::Used { who: CreatureRef::Player, item } => out.push(format!("You use {}.", names.item(item))),
        Effect::Talked { who: CreatureRef::Player, npc } => out.push(format!("You talk to {}.", names.name(Registry::Npcs, npc))),
        Effect::Bought { item, price, .. } => out.push(format!("You buy {} for {price} gold.", names.item(item))),
        Effect::Sold { item, price } => out.push(format!("You sell {} for {price} gold.", names.item(item))),
        Effect::Equipped { who: CreatureRef::Player, item, off, .. } => {
            out.push(format!("You equip {}.", names.item(item)));
            for o in off {
                out.push(format!("You take off {}.", names.item(o)));
            }
        }
        Effect::Dropped { item, .. } => out.push(format!("You drop {}.", names.item(item))),
        Effect::CannotAfford { .. } => {}
        // Told by the events they raise, or not news (an enemy that cannot reach the player
        // waits every turn).
        // Engine bookkeeping (an act or action that found nothing to do) is the trace's to
        // tell, not the player's.
        Effect::Untraced
        | Effect::NoEffect(_)
        | Effect::NoTarget
        | Effect::TargetDead
        | Effect::Damaged { .. }
        | Effect::Died { .. }
        | Effect::Healed { .. }
        | Effect::NothingGiven
        | Effect::Received { .. }
        | Effect::Lost { .. }
        | Effect::Status { .. }
        | Effect::Spawned { .. }
        | Effect::QuestStarted(_)
        | Effect::QuestAlreadyStarted(_)
        | Effect::Escaped(_)
        | Effect::Fled { .. }
        | Effect::ShopOpened(_)
        | Effect::Talked { .. }
        | Effect::EnteredRoom { .. }
        | Effect::ReachedRoom { .. }
        | Effect::EnteredFloor { room: None, .. }
        | Effect::Used { .. }
        | Effect::Equipped { .. }
        | Effect::EnemyMoved { .. }
        | Effect::Pile(_)
        | Effect::Waited(_)
        | Effect::Stuck(_)
        | Effect::NoFloors
        | Effect::NoSuchFloor
        | Effect::FollowedRule { .. }
        | Effect::Injected(_) => {}
    }
}

/// The sentence of a data action that ran, when no event tells its result (heal, statuses,
/// spawns, quests, flight, shops, items taken; damage and items given are told by their events).
fn action_sentence(names: &Names<'_>, action: ActionKind, effect: &Effect) -> Option<String> {
    let sentence = match (action, effect) {
        (ActionKind::Damage | ActionKind::GiveItem, _) => return None,
        // Bookkeeping: the trace tells it.
        (_, Effect::Untraced | Effect::NoEffect(_) | Effect::NothingGiven | Effect::TargetDead | Effect::NoTarget) => return None,
        // Healing at full health: nothing happened.
        (_, Effect::Healed { amount: 0, .. }) => return None,
        (_, Effect::Healed { who, amount, now, max }) => format!("{} healed {amount} ({now} / {max})", names.subject(*who)),
        (_, Effect::Lost { who, item, count }) => format!("{} lost {count} × {}", names.subject(*who), names.item(item)),
        (_, Effect::Status { who, status, turns: n, refreshed }) => {
            let status = names.name(Registry::Statuses, status);
            if *refreshed {
                format!("{}: {status} refreshed to {}", names.subject(*who), turns(*n))
            } else {
                format!("{}: {status} for {}", names.subject(*who), turns(*n))
            }
        }
        (_, Effect::Spawned { creature, refs, .. }) => {
            let name = names.name(Registry::Creatures, creature);
            match refs.len() {
                1 => format!("{} appears", capitalized(&the(&name))),
                n => format!("{n} × {name} appear"),
            }
        }
        (_, Effect::QuestStarted(q)) => format!("Started {}", names.name(Registry::Quests, q)),
        (_, Effect::QuestAlreadyStarted(q)) => format!("{} already started", names.name(Registry::Quests, q)),
        (_, Effect::Escaped(who)) => format!("{} escaped", names.subject(*who)),
        (_, Effect::Fled { left, combat: true }) => format!("Fled; {} behind", enemies_stay(*left)),
        (_, Effect::Fled { left, combat: false }) => format!("Fled (no combat was running; {} behind)", enemies_stay(*left)),
        (_, Effect::ShopOpened(shop)) => format!("Opened shop {}", names.name(Registry::Shops, shop)),
        // What an act does is told by `effect_sentences`; an action never has these effects.
        (
            _,
            Effect::Missed { .. }
            | Effect::Hit { .. }
            | Effect::Damaged { .. }
            | Effect::Died { .. }
            | Effect::Received { .. }
            | Effect::PickedUp { .. }
            | Effect::Talked { .. }
            | Effect::EnteredRoom { .. }
            | Effect::ReachedRoom { .. }
            | Effect::EnteredFloor { .. }
            | Effect::Used { .. }
            | Effect::Equipped { .. }
            | Effect::EnemyMoved { .. }
            | Effect::PlayerMoved { .. }
            | Effect::Pile(_)
            | Effect::Waited(_)
            | Effect::Stuck(_)
            | Effect::NoFloors
            | Effect::Bumped(_)
            | Effect::Stairs { .. }
            | Effect::LeftBehind { .. }
            | Effect::Won
            | Effect::NoSuchFloor
            | Effect::Dropped { .. }
            | Effect::Bought { .. }
            | Effect::CannotAfford { .. }
            | Effect::Sold { .. }
            | Effect::FollowedRule { .. }
            | Effect::Injected(_),
        ) => return None,
    };
    Some(sentence + ".")
}

/// The sentences of an outcome's data action, and of the actions it ran in turn.
fn outcome_sentences(names: &Names<'_>, o: &Outcome, out: &mut Vec<String>) {
    if let Some(action) = o.action {
        out.extend(action_sentence(names, action, &o.effect));
    }
    for a in o.actions.iter().flatten() {
        outcome_sentences(names, a, out);
    }
}

/// An `attack_hit` told together with the `damage_taken` it causes.
#[derive(Clone, Copy)]
struct Blow {
    attacker: CreatureRef,
    victim: CreatureRef,
    critical: bool,
}

/// The sentence of one event, if it tells the player something (an `attack_hit` waits for its
/// `damage_taken`).
fn event_sentence(names: &Names<'_>, e: &TraceEvent, hit: &mut Option<Blow>, drops: &[(CreatureRef, &[ItemInstance])], out: &mut Vec<String>) {
    match (e.event, &e.payload) {
        (EventKind::CombatStarted, _) => out.push("A fight begins!".into()),
        (EventKind::CombatEnded, Payload::CombatEnded { outcome }) if *outcome == outcome::VICTORY => out.push("The fight is won.".into()),
        (EventKind::CombatEnded, _) => out.push("The fight is over: you fled.".into()),
        (EventKind::AttackHit, payload) => {
            let critical = matches!(payload, Payload::AttackHit { critical: Some(true), .. });
            *hit = e.target.map(|victim| Blow { attacker: e.source, victim, critical });
        }
        (EventKind::DamageTaken, payload) => {
            let (amount, dtype) = match payload {
                Payload::DamageTaken { amount, damage_type } => (*amount, kind(damage_type)),
                _ => (0, String::new()),
            };
            let victim = e.source;
            match (*hit, e.target) {
                (Some(Blow { attacker, victim: v, critical }), Some(by)) if v == victim && attacker == by => {
                    let verb = if attacker == CreatureRef::Player { "hit" } else { "hits" };
                    let hard = if critical { " hard" } else { "" };
                    out.push(format!("{} {verb} {}{hard} for {amount}{dtype}.", names.subject(attacker), names.who(victim)));
                    *hit = None;
                }
                _ => {
                    let verb = if victim == CreatureRef::Player { "take" } else { "takes" };
                    out.push(format!("{} {verb} {amount}{dtype} damage.", names.subject(victim)));
                }
            }
        }
        (EventKind::CreatureDied, _) => {
            out.push(if e.source == CreatureRef::Player { "You die.".into() } else { format!("{} dies.", names.subject(e.source)) });
            // Its loot falls where it stood: told after its death, before what the death causes.
            if let Some((_, drops)) = drops.iter().find(|(who, _)| *who == e.source) {
                let what: Vec<String> = drops
                    .iter()
                    .map(|d| {
                        let name = format!("{}{}", names.item(&d.item), names.affixes(&d.affixes));
                        if d.count == 1 {
                            name
                        } else {
                            format!("{} × {name}", d.count)
                        }
                    })
                    .collect();
                let verb = if e.source == CreatureRef::Player { "drop" } else { "drops" };
                out.push(format!("{} {verb} {}.", names.subject(e.source), what.join(", ")));
            }
        }
        (EventKind::ItemPickedUp, Payload::ItemPickedUp { item, count, affixes }) if e.source == CreatureRef::Player => {
            let what = names.item(item);
            let with = names.affixes(affixes);
            out.push(if *count == 1 { format!("You pick up {what}{with}.") } else { format!("You pick up {count} × {what}{with}.") });
        }
        (EventKind::FloorEntered, Payload::FloorEntered { floor, depth }) => {
            let depth = depth.map(|d| format!(" (depth {d})")).unwrap_or_default();
            out.push(format!("You reach {}{depth}.", names.name(Registry::Floors, floor)));
        }
        (EventKind::RoomEntered, Payload::RoomEntered { prefab }) => out.push(format!("You enter {}.", names.name(Registry::Prefabs, prefab))),
        (EventKind::QuestCompleted, Payload::QuestCompleted { quest }) => out.push(format!("Quest completed: {}!", names.name(Registry::Quests, quest))),
        // A turn starting is no news; using an item and talking are told by the act (before what
        // they do); an enemy picking something up is not seen; an event a scenario injected carries what it wrote, which tells nothing.
        (EventKind::TurnStarted, _)
        | (
            EventKind::ItemPickedUp | EventKind::ItemUsed | EventKind::FloorEntered | EventKind::RoomEntered | EventKind::NpcTalked | EventKind::QuestCompleted,
            _,
        ) => {}
    }
}

/// The plain-word sentences of the steps of one turn, in the order things happened.
pub fn sentences(names: &Names<'_>, steps: &[StepTrace]) -> Vec<String> {
    let mut out = Vec::new();
    for step in steps {
        // What was bought is told by the purchase, not again as picked up.
        let bought = step.effects.iter().any(|o| matches!(o.effect, Effect::Bought { .. }));
        // The last attack_hit, waiting for its damage_taken.
        let mut hit: Option<Blow> = None;
        let drops = drops_of(step);
        // In causal order, as the trace shows it: an event, what its triggers did, then the
        // events it caused.
        let mut order = Vec::with_capacity(step.events.len());
        let mut stack: Vec<usize> = step.events.iter().enumerate().filter(|(_, e)| e.cause.is_none()).map(|(i, _)| i).rev().collect();
        while let Some(i) = stack.pop() {
            order.push(i);
            stack.extend(step.events.iter().enumerate().filter(|(_, c)| c.cause == Some(i)).map(|(j, _)| j).rev());
        }
        // What was handled before the act (the turn's start, a fight that begins with it) is
        // told first, then the act's own effects, then the events the act raised.
        let act_at = order.iter().position(|&i| i >= step.before_act).unwrap_or(order.len());
        let told_after_all = act_at == order.len();
        for (n, e) in order.into_iter().map(|i| &step.events[i]).enumerate() {
            if n == act_at {
                act_sentences(names, step, &mut out);
            }
            if !(bought && e.event == EventKind::ItemPickedUp && e.source == CreatureRef::Player) {
                event_sentence(names, e, &mut hit, &drops, &mut out);
            }
            for t in e.triggers.iter().filter(|t| t.fired) {
                for a in &t.actions {
                    outcome_sentences(names, a, &mut out);
                }
            }
        }
        if told_after_all {
            act_sentences(names, step, &mut out);
        }
    }
    out
}

/// What each creature that died in a step dropped (the loot of its death, in the trace).
fn drops_of(step: &StepTrace) -> Vec<(CreatureRef, &[ItemInstance])> {
    fn effect<'a>(e: &'a Effect, out: &mut Vec<(CreatureRef, &'a [ItemInstance])>) {
        match e {
            Effect::Died { victim, loot: Some((_, drops)), .. } if !drops.is_empty() => out.push((*victim, drops)),
            Effect::Hit { damage, .. } => effect(damage, out),
            _ => {}
        }
    }
    fn outcome<'a>(o: &'a Outcome, out: &mut Vec<(CreatureRef, &'a [ItemInstance])>) {
        effect(&o.effect, out);
        o.actions.iter().flatten().for_each(|a| outcome(a, out));
    }
    let mut out = Vec::new();
    step.effects.iter().for_each(|o| outcome(o, &mut out));
    for t in step.events.iter().flat_map(|e| &e.triggers) {
        t.actions.iter().for_each(|o| outcome(o, &mut out));
    }
    out
}

/// The sentences of a step's act: what it did, and the data actions it ran.
fn act_sentences(names: &Names<'_>, step: &StepTrace, out: &mut Vec<String>) {
    for o in &step.effects {
        effect_sentences(names, &o.effect, out);
        outcome_sentences(names, o, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustkeep_engine::effect::{Reason, Rejoined, Weapon};

    fn world() -> World {
        let project = rustkeep_data::project::Project::with_bundled_core();
        let valid = rustkeep_check::validate(&project).expect("the bundled core is valid");
        World::new(project, valid)
    }

    #[test]
    fn actions_are_told_with_names_and_what_events_tell_is_not_told_twice() {
        let w = world();
        let enemies = BTreeMap::from([(0, "core:rat".to_string())]);
        let names = Names { w: &w, enemies: &enemies };
        let rat = CreatureRef::Enemy(0);
        let said = |action, effect: Effect| action_sentence(&names, action, &effect);
        assert_eq!(
            said(ActionKind::Heal, Effect::Healed { who: CreatureRef::Player, amount: 5, now: 20, max: 30 }).as_deref(),
            Some("You healed 5 (20 / 30).")
        );
        assert_eq!(said(ActionKind::Heal, Effect::Healed { who: rat, amount: 2, now: 6, max: 6 }).as_deref(), Some("The Rat healed 2 (6 / 6)."));
        assert_eq!(
            said(ActionKind::Spawn, Effect::Spawned { creature: "core:rat".into(), refs: vec![rat, CreatureRef::Enemy(1)], combat_started: true }).as_deref(),
            Some("2 × Rat appear.")
        );
        assert_eq!(said(ActionKind::Flee, Effect::Escaped(rat)).as_deref(), Some("The Rat escaped."));
        assert_eq!(
            said(ActionKind::Damage, Effect::Damaged { victim: rat, amount: 3, damage_type: "fire".into(), left: Some(1) }),
            None,
            "told by damage_taken"
        );
        assert_eq!(said(ActionKind::Heal, Effect::NoEffect(Reason::Dead(rat))), None);
        assert_eq!(said(ActionKind::ApplyStatus, Effect::TargetDead), None, "a status on the dead is not news");
        let mut out = Vec::new();
        // Bookkeeping is the trace's: nothing for the log.
        effect_sentences(&names, &Effect::NoEffect(Reason::HoldsNo { who: CreatureRef::Player, item: "core:key".into() }), &mut out);
        assert_eq!(said(ActionKind::Heal, Effect::NoTarget), None);
        for (attacker, victim) in [(CreatureRef::Player, rat), (rat, CreatureRef::Player)] {
            effect_sentences(&names, &Effect::Missed { rejoined: None, attacker, victim, chance: "50 %".into() }, &mut out);
        }
        let hit = Effect::Hit {
            rejoined: Some(Rejoined { woken: vec![rat], combat_started: false }),
            attacker: CreatureRef::Player,
            victim: rat,
            weapon: Weapon::BareHands,
            amount: 1,
            critical: false,
            damage: Box::new(Effect::Damaged { victim: rat, amount: 1, damage_type: "physical".into(), left: Some(3) }),
        };
        effect_sentences(&names, &hit, &mut out);
        effect_sentences(
            &names,
            &Effect::Stairs { at: rustkeep_data::grid::Pos::new(1, 2), then: Box::new(Effect::LeftBehind { enemies: 2, then: Box::new(Effect::Won) }) },
            &mut out,
        );
        let woke = Effect::PlayerMoved {
            to: rustkeep_data::grid::Pos::new(3, 3),
            entered: Some(Box::new(Effect::ReachedRoom { room: "core:den".into(), first: true, joined: vec![(rat, "core:rat".into())] })),
            found: Vec::new(),
        };
        effect_sentences(&names, &woke, &mut out);
        // A critical hit is told as one, in the sentence of its damage.
        let event = |event, source, target, payload| TraceEvent { event, source, target: Some(target), payload, cause: None, triggers: Vec::new() };
        for critical in [Some(true), Some(false), None] {
            let step = StepTrace {
                step: 1,
                source: None,
                act: String::new(),
                effects: Vec::new(),
                before_act: 0,
                events: vec![
                    event(EventKind::AttackHit, CreatureRef::Player, rat, Payload::AttackHit { weapon: None, damage_type: "physical".into(), critical }),
                    event(EventKind::DamageTaken, rat, CreatureRef::Player, Payload::DamageTaken { amount: 9, damage_type: "physical".into() }),
                ],
            };
            let hard = if critical == Some(true) { " hard" } else { "" };
            assert_eq!(sentences(&names, &[step]), [format!("You hit the Rat{hard} for 9.")]);
        }
        // Causal order: what was handled before the act is told before it, the rest after.
        let fight = |before_act| StepTrace {
            step: 2,
            source: None,
            act: String::new(),
            effects: vec![Outcome::act(Effect::Missed { rejoined: None, attacker: CreatureRef::Player, victim: rat, chance: "50 %".into() })],
            events: vec![
                TraceEvent {
                    event: EventKind::TurnStarted,
                    source: CreatureRef::Player,
                    target: None,
                    payload: Payload::None,
                    cause: None,
                    triggers: Vec::new(),
                },
                TraceEvent {
                    event: EventKind::CombatStarted,
                    source: CreatureRef::Player,
                    target: None,
                    payload: Payload::None,
                    cause: None,
                    triggers: Vec::new(),
                },
            ],
            before_act,
        };
        // Talking is told before what the talk does; healing at full health is not told; the
        // loot of a death after the death.
        let step = |effects, events| StepTrace { step: 3, source: None, act: String::new(), effects, events, before_act: 0 };
        let started = Outcome { action: Some(ActionKind::StartQuest), target: None, effect: Effect::QuestStarted("core:rattenplage".into()), actions: None };
        let full = Outcome {
            action: Some(ActionKind::Heal),
            target: None,
            effect: Effect::Healed { who: CreatureRef::Player, amount: 0, now: 30, max: 30 },
            actions: None,
        };
        let talk = Outcome::with_actions(Effect::Talked { who: CreatureRef::Player, npc: "core:elder".into() }, vec![started, full]);
        let talked = event(EventKind::NpcTalked, CreatureRef::Player, rat, Payload::NpcTalked { npc: "core:elder".into() });
        assert_eq!(sentences(&names, &[step(vec![talk], vec![talked])]), ["You talk to Elder Hannelore.", "Started Rattenplage."]);
        let tails = rustkeep_engine::item::ItemInstance { item: "core:rat_tail".into(), count: 2, affixes: Vec::new(), equipped: false };
        let died = Effect::Died { victim: rat, amount: 9, damage_type: "physical".into(), loot: Some(("core:rat_loot".into(), vec![tails])) };
        let blow = Effect::Hit {
            rejoined: None,
            attacker: CreatureRef::Player,
            victim: rat,
            weapon: Weapon::BareHands,
            amount: 9,
            critical: false,
            damage: Box::new(died),
        };
        let events = vec![
            event(EventKind::AttackHit, CreatureRef::Player, rat, Payload::AttackHit { weapon: None, damage_type: "physical".into(), critical: None }),
            event(EventKind::DamageTaken, rat, CreatureRef::Player, Payload::DamageTaken { amount: 9, damage_type: "physical".into() }),
            event(EventKind::CreatureDied, rat, CreatureRef::Player, Payload::None),
        ];
        assert_eq!(sentences(&names, &[step(vec![Outcome::act(blow)], events)]), ["You hit the Rat for 9.", "The Rat dies.", "The Rat drops 2 × Rat Tail."]);
        assert_eq!(sentences(&names, &[fight(2)]), ["A fight begins!", "You miss the Rat."]);
        assert_eq!(sentences(&names, &[fight(1)]), ["You miss the Rat.", "A fight begins!"], "a fight the act began");
        assert_eq!(
            out,
            [
                "You miss the Rat.",
                "The Rat misses you.",
                "You take the stairs down.",
                "You flee, leaving the enemies behind.",
                "You take the stairs out of the deepest floor: the run is won!",
                "The Rat notices you."
            ]
        );
    }
}
