//! The event queue: events are handled FIFO under the cap of [`EVENT_CAP`] per step; each is
//! offered to the source creature's triggers, then the floor's or prefab's, then the started
//! quests, and [`Game::trigger_fires`] answers whether a trigger fires.

use rustkeep_data::model::Trigger;
use rustkeep_data::vocab::{payload, EventKind, Registry, EVENT_CAP};
use serde_json::{json, Map, Value as Json};

use super::{describe_condition, CreatureRef, Event, Game, World};
use crate::trace::{TraceEvent, TraceTrigger};

impl Game {
    // ---------------------------------------------------------------------------------------
    // The one question: does this trigger fire on this event?
    // ---------------------------------------------------------------------------------------

    /// Answers for every bearer kind (creature, option, item, affix, status, floor, prefab, quest)
    /// whether `t` fires on `ev` with `me` as self and `other` as target: the event, the `when`
    /// filter against the payload, the conditions in order, and last the `chance`, drawn from the
    /// seeded generator only when everything else matched. `Err` holds the reason it did not.
    pub fn trigger_fires(&mut self, w: &World, t: &Trigger, ev: &Event, me: CreatureRef, other: Option<CreatureRef>) -> Result<(), String> {
        if t.broken {
            return Err("trigger has validation errors".into());
        }
        match &t.on {
            Some(on) if on.value == ev.kind => {}
            Some(on) => return Err(format!("listens to {}, not {}", on.value.name(), ev.kind.name())),
            None => return Err("trigger has no event".into()),
        }
        for wf in &t.when {
            let key = wf.field.name();
            match ev.payload.get(key) {
                Some(Json::String(s)) if *s == wf.value.value => {}
                Some(v) => {
                    let shown = v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string());
                    return Err(format!("when mismatch: {key} is {shown}, wanted {}", wf.value.value));
                }
                None => return Err(format!("when mismatch: {key} is absent, wanted {}", wf.value.value)),
            }
        }
        for (i, c) in t.condition.iter().enumerate() {
            if !self.holds(w, c, me, other, 0) {
                return Err(format!("condition {} ({}) is false", i + 1, describe_condition(c)));
            }
        }
        if t.chance < 1.0 && !self.rng.chance(t.chance) {
            return Err(format!("chance {} failed", t.chance));
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
            self.handle(w, ev);
        }
    }

    /// Handles one event in the order of docs/engine.md: the source creature's triggers, floor or prefab
    /// triggers, then started quests in start order.
    fn handle(&mut self, w: &World, ev: Event) {
        let idx = self.trace.events.len();
        self.trace.events.push(TraceEvent {
            event: ev.kind.name().into(),
            source: ev.source.to_string(),
            target: ev.target.map(|t| t.to_string()),
            payload: ev.payload.clone(),
            cause: ev.cause,
            triggers: Vec::new(),
        });
        let saved = self.trace.current.replace(idx);

        // 1. The source creature's own triggers (it may be dead: its triggers still run).
        for (reg, id) in self.bearers(ev.source) {
            self.run_bearer(w, reg, &id, &ev, ev.source, ev.target);
        }
        // 2. Floor or prefab triggers, self = the player.
        let place = match ev.kind {
            EventKind::FloorEntered => {
                Some((Registry::Floors, ev.payload.get(payload::FLOOR).and_then(Json::as_str).map(str::to_string).or_else(|| self.floor.clone())))
            }
            EventKind::RoomEntered => {
                Some((Registry::Prefabs, ev.payload.get(payload::PREFAB).and_then(Json::as_str).map(str::to_string).or_else(|| self.room.clone())))
            }
            _ => None,
        };
        if let Some((reg, Some(id))) = place {
            self.run_bearer(w, reg, &id, &ev, CreatureRef::Player, ev.target);
        }
        // 3. Started quests, in start order; a quest started now counts from the next event on.
        let n = self.quests.len();
        let other = if ev.source == CreatureRef::Player { ev.target } else { Some(ev.source) };
        for qi in 0..n {
            if self.quests[qi].done {
                continue;
            }
            let qid = self.quests[qi].quest.clone();
            let Some(entry) = w.entry(Registry::Quests, &qid) else { continue };
            let Some(t) = entry.triggers().first() else { continue };
            if t.on.as_ref().map(|o| o.value) != Some(ev.kind) {
                continue;
            }
            let at = w.at(entry, t.span.start);
            let verdict = self.trigger_fires(w, t, &ev, CreatureRef::Player, other);
            let need = w.quest_count(&qid);
            let mut tt = TraceTrigger { owner: qid.clone(), at, fired: verdict.is_ok(), reason: verdict.clone().err(), progress: None, actions: Vec::new() };
            if verdict.is_ok() {
                self.quests[qi].count += 1;
                let count = self.quests[qi].count;
                tt.progress = Some(format!("{count}/{need}"));
                if count >= need {
                    for a in &t.actions {
                        tt.actions.push(self.apply_action(w, &a.data, CreatureRef::Player, other));
                    }
                    self.quests[qi].done = true;
                    let mut p = Map::new();
                    p.insert(payload::QUEST.into(), json!(qid));
                    self.push(EventKind::QuestCompleted, CreatureRef::Player, None, p);
                }
            }
            self.trace.events[idx].triggers.push(tt);
        }
        // Statuses count down at their bearer's turn_started, after it is handled.
        if ev.kind == EventKind::TurnStarted {
            if let Some(c) = self.creature_mut(ev.source) {
                for s in &mut c.statuses {
                    s.turns = s.turns.saturating_sub(1);
                }
                c.statuses.retain(|s| s.turns > 0);
            }
        }
        self.trace.current = saved;
    }

    fn run_bearer(&mut self, w: &World, reg: Registry, id: &str, ev: &Event, me: CreatureRef, other: Option<CreatureRef>) {
        let Some(entry) = w.entry(reg, id) else { return };
        let idx = self.trace.current.unwrap_or(0);
        for t in entry.triggers() {
            if t.on.as_ref().map(|o| o.value) != Some(ev.kind) {
                continue;
            }
            let at = w.at(entry, t.span.start);
            let verdict = self.trigger_fires(w, t, ev, me, other);
            let mut tt = TraceTrigger { owner: id.to_string(), at, fired: verdict.is_ok(), reason: verdict.clone().err(), progress: None, actions: Vec::new() };
            if verdict.is_ok() {
                for a in &t.actions {
                    tt.actions.push(self.apply_action(w, &a.data, me, other));
                }
            }
            if let Some(e) = self.trace.events.get_mut(idx) {
                e.triggers.push(tt);
            }
        }
    }
}
