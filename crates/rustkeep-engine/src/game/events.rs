//! The event queue: events are handled FIFO under the cap of [`EVENT_CAP`] per step; each is
//! offered to the source creature's triggers, then the floor's or prefab's, then the started
//! quests, and [`Game::trigger_fires`] answers whether a trigger fires.

use std::fmt::{self, Write as _};

use rustkeep_data::model::{Condition, Entry, Trigger};
use rustkeep_data::vocab::{payload, EventKind, Registry, EVENT_CAP};

use super::{describe_condition, CreatureRef, Event, Game, World};
use crate::payload::{Payload, Value};
use crate::place::Place;
use crate::trace::{TraceEvent, TraceTrigger};

impl Game {
    // ---------------------------------------------------------------------------------------
    // The one question: does this trigger fire on this event?
    // ---------------------------------------------------------------------------------------

    /// Answers for every bearer kind (creature, option, item, affix, status, floor, prefab, quest)
    /// whether `t` fires on `ev` with `me` as self and `other` as target: the event, the `when`
    /// filter against the payload, the conditions in order, and last the `chance`, drawn from the
    /// seeded generator only when everything else matched. `Err` says why it did not (its text is
    /// built only when a trace asks for it).
    pub fn trigger_fires<'t>(&mut self, w: &World, t: &'t Trigger, ev: &'t Event, me: CreatureRef, other: Option<CreatureRef>) -> Result<(), NotFired<'t>> {
        if t.broken {
            return Err(NotFired::Broken);
        }
        match &t.on {
            Some(on) if on.value == ev.kind => {}
            Some(on) => return Err(NotFired::OtherEvent(on.value, ev.kind)),
            None => return Err(NotFired::NoEvent),
        }
        for wf in &t.when {
            let key = wf.field.name();
            if ev.payload.str(key) != Some(wf.value.value.as_str()) {
                return Err(NotFired::When { key, payload: &ev.payload, wanted: &wf.value.value });
            }
        }
        for (i, c) in t.condition.iter().enumerate() {
            if !self.holds(w, c, me, other, 0) {
                return Err(NotFired::Condition(i, c));
            }
        }
        if t.chance < 1.0 && !self.rng.chance(t.chance) {
            return Err(NotFired::Chance(t.chance));
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------------------
    // Events
    // ---------------------------------------------------------------------------------------

    /// Works the queue off (FIFO) under the step's cap.
    pub fn work_off(&mut self, w: &World) {
        while let Some(ev) = self.events.pop_front() {
            if self.trace.handled >= EVENT_CAP {
                self.trace.dropped += 1 + self.events.len();
                self.events.clear();
                break;
            }
            self.trace.handled += 1;
            self.events_handled += 1;
            self.handle(w, ev);
        }
    }

    /// Handles one event in the order of docs/engine.md: the source creature's triggers, floor or prefab
    /// triggers, then started quests in start order.
    fn handle(&mut self, w: &World, ev: Event) {
        let idx = self.trace.events.len();
        if self.tracing {
            self.trace.events.push(TraceEvent {
                event: ev.kind,
                source: ev.source,
                target: ev.target,
                payload: ev.payload.clone(),
                cause: ev.cause,
                triggers: Vec::new(),
            });
        }
        let saved = self.trace.current.replace(idx);
        let died = std::mem::replace(&mut self.died, (ev.kind == EventKind::CreatureDied).then_some(ev.source));

        // The quests started before this event; one that its triggers start counts from the next
        // event on (quests are asked last, so this is taken first).
        let started = self.quests.len();
        // 1. The source creature's own triggers (it may be dead: its triggers still run).
        // Only bearers with a trigger on this event matter; most events concern none.
        let mut listening: [Option<&Entry>; 8] = [None; 8];
        let mut more: Vec<&Entry> = Vec::new();
        let mut n = 0;
        self.visit_bearers(w, ev.source, |e| {
            if e.triggers().iter().any(|t| t.on.as_ref().is_some_and(|o| o.value == ev.kind)) {
                if n < listening.len() {
                    listening[n] = Some(e);
                } else {
                    more.push(e);
                }
                n += 1;
            }
        });
        for entry in listening.into_iter().flatten().chain(more) {
            self.run_bearer(w, entry, &ev, ev.source, ev.target);
        }
        // 2. Floor or prefab triggers, self = the player.
        let place = match ev.kind {
            EventKind::FloorEntered => Some((Registry::Floors, ev.payload.str(payload::FLOOR).map(str::to_string).or_else(|| self.floor.clone()))),
            EventKind::RoomEntered => Some((Registry::Prefabs, ev.payload.str(payload::PREFAB).map(str::to_string).or_else(|| self.room.clone()))),
            _ => None,
        };
        if let Some(entry) = place.and_then(|(reg, id)| w.entry(reg, id.as_deref()?)) {
            self.run_bearer(w, entry, &ev, CreatureRef::Player, ev.target);
        }
        // 3. Started quests, in start order.
        let other = if ev.source == CreatureRef::Player { ev.target } else { Some(ev.source) };
        for qi in 0..started {
            if self.quests[qi].done {
                continue;
            }
            let Some(entry) = self.quest_entry(w, qi) else { continue };
            let Some(t) = entry.triggers().first() else { continue };
            if t.on.as_ref().map(|o| o.value) != Some(ev.kind) {
                continue;
            }
            let qid = entry.key().map(|k| k.value.as_str()).unwrap_or_default();
            // The hero's own death never advances a quest, whatever its condition says: the
            // other side of that event is the killer, so "kill five rats" would count being
            // killed by a rat and pay its reward to the dead. Nothing is checked or drawn.
            let verdict = if ev.kind == EventKind::CreatureDied && ev.source == CreatureRef::Player {
                Err(NotFired::PlayersDeath)
            } else {
                self.trigger_fires(w, t, &ev, CreatureRef::Player, other)
            };
            let need = w.quest_count(qid);
            let mut tt = self.trace_trigger(w, entry, qid, t, &verdict);
            if verdict.is_ok() {
                self.quests[qi].count += 1;
                let count = self.quests[qi].count;
                if self.tracing {
                    tt.progress = Some(format!("{count}/{need}"));
                }
                if count >= need {
                    for a in &t.actions {
                        let effect = self.apply_action(w, &a.data, CreatureRef::Player, other);
                        if self.tracing {
                            tt.actions.push(effect);
                        }
                    }
                    self.quests[qi].done = true;
                    self.push(EventKind::QuestCompleted, CreatureRef::Player, None, Payload::QuestCompleted { quest: qid.to_string() });
                }
            }
            if let Some(e) = self.trace.events.get_mut(idx) {
                e.triggers.push(tt);
            }
        }
        // Statuses count down at their bearer's turn_started, after it is handled.
        if ev.kind == EventKind::TurnStarted {
            if let Some(c) = self.creature_mut(ev.source) {
                for s in &mut c.statuses {
                    s.turns = s.turns.saturating_sub(1);
                }
                let before = c.statuses.len();
                c.statuses.retain(|s| s.turns > 0);
                if c.statuses.len() != before {
                    self.bearers_changed(ev.source);
                }
            }
        }
        self.trace.current = saved;
        self.died = died;
    }

    /// The entry of the started quest number `qi`, remembered between events (checked against
    /// the quest's ID every time, so the list of quests may change freely).
    fn quest_entry<'w>(&mut self, w: &'w World, qi: usize) -> Option<&'w Entry> {
        let id = &self.quests[qi].quest;
        if self.quest_entries.len() <= qi {
            self.quest_entries.resize(qi + 1, (String::new(), None));
        }
        let slot = &mut self.quest_entries[qi];
        if slot.0 != *id || slot.1.is_none() {
            *slot = (id.clone(), w.db.resolved.get(Registry::Quests, id).map(|d| d.current));
        }
        slot.1.map(|r| w.db.entry(r))
    }

    /// The trace record of one trigger's verdict (empty when no trace is recorded).
    fn trace_trigger(&self, w: &World, entry: &Entry, owner: &str, t: &Trigger, verdict: &Result<(), NotFired<'_>>) -> TraceTrigger {
        if !self.tracing {
            return TraceTrigger { owner: String::new(), at: Place::default(), fired: verdict.is_ok(), reason: None, progress: None, actions: Vec::new() };
        }
        TraceTrigger {
            owner: owner.to_string(),
            at: w.place(entry, t.span.start),
            fired: verdict.is_ok(),
            // One allocation of the usual size instead of a string grown piece by piece: a turn
            // at the event cap writes thousands of these.
            reason: verdict.as_ref().err().map(|r| {
                let mut s = String::with_capacity(96);
                let _ = write!(s, "{r}");
                s
            }),
            progress: None,
            actions: Vec::new(),
        }
    }

    fn run_bearer(&mut self, w: &World, entry: &Entry, ev: &Event, me: CreatureRef, other: Option<CreatureRef>) {
        let idx = self.trace.current.unwrap_or(0);
        let id = entry.key().map(|k| k.value.as_str()).unwrap_or_default();
        for t in entry.triggers() {
            if t.on.as_ref().map(|o| o.value) != Some(ev.kind) {
                continue;
            }
            let verdict = self.trigger_fires(w, t, ev, me, other);
            let mut tt = self.trace_trigger(w, entry, id, t, &verdict);
            if verdict.is_ok() {
                for a in &t.actions {
                    let effect = self.apply_action(w, &a.data, me, other);
                    if self.tracing {
                        tt.actions.push(effect);
                    }
                }
            }
            if let Some(e) = self.trace.events.get_mut(idx) {
                e.triggers.push(tt);
            }
        }
    }
}

/// Why a trigger did not fire.
#[derive(Clone, Debug, PartialEq)]
pub enum NotFired<'t> {
    Broken,
    /// It listens to the first event, not the second.
    OtherEvent(EventKind, EventKind),
    NoEvent,
    /// A `when` field: the payload does not hold `wanted` under `key`.
    When {
        key: &'static str,
        payload: &'t Payload,
        wanted: &'t str,
    },
    /// The condition at this index (0-based) is false.
    Condition(usize, &'t Condition),
    Chance(f64),
    /// A quest on `creature_died` whose source is the player: the hero's own death counts for
    /// no quest.
    PlayersDeath,
}

impl fmt::Display for NotFired<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotFired::Broken => f.write_str("trigger has validation errors"),
            NotFired::OtherEvent(on, ev) => write!(f, "listens to {}, not {}", on.name(), ev.name()),
            NotFired::NoEvent => f.write_str("trigger has no event"),
            NotFired::When { key, payload, wanted } => {
                write!(f, "when mismatch: {key} is ")?;
                match payload.get(key) {
                    Some(Value::Str(s)) => f.write_str(s)?,
                    Some(Value::Int(i)) => write!(f, "{i}")?,
                    Some(Value::Null) if *key == rustkeep_data::vocab::payload::AFFIXES => f.write_str(&payload.shown(key).unwrap_or_default())?,
                    Some(Value::Null) => f.write_str("null")?,
                    Some(Value::Other(j)) => write!(f, "{j}")?,
                    None => f.write_str("absent")?,
                }
                write!(f, ", wanted {wanted}")
            }
            NotFired::Condition(i, c) => write!(f, "condition {} ({}) is false", i + 1, describe_condition(c)),
            NotFired::Chance(c) => write!(f, "chance {c} failed"),
            NotFired::PlayersDeath => f.write_str("the player's own death counts for no quest"),
        }
    }
}
