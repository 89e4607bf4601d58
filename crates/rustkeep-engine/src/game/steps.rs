//! Steps: one step is one turn (turn start, the act, dead enemies removed), character creation
//! before the first step, and the final state of a run.

use rustkeep_data::vocab::{field, outcome, ActionKind, EventKind, Registry, EVENT_CAP};
use serde_json::{json, Value as Json};

use super::{Act, CreatureRef, Game, ItemInstance, World};
use crate::payload::Payload;
use crate::trace::{StepTrace, Trace};

impl Game {
    // ---------------------------------------------------------------------------------------
    // Steps
    // ---------------------------------------------------------------------------------------

    /// One step = one turn (docs/engine.md, "Steps"): `turn_started` (+ `combat_started`), the act, then dead
    /// enemies removed (+ `combat_ended` victory); the queue worked off after each phase, under
    /// one cap of [`EVENT_CAP`] events.
    pub fn run_step(&mut self, w: &World, act: Act<'_>, source: CreatureRef, target: Option<CreatureRef>) -> StepTrace {
        let step = self.step;
        self.step += 1;
        self.turn(w, act, source, target, step)
    }

    /// One turn of `source`, recorded as belonging to step `step` (an enemy's turn belongs to the
    /// player's step it follows; [`Game::run_step`] counts the steps).
    pub(super) fn turn(&mut self, w: &World, act: Act<'_>, source: CreatureRef, target: Option<CreatureRef>, step: usize) -> StepTrace {
        let description = if self.tracing { act.describe(source, target) } else { String::new() };
        self.trace = Trace::default();
        let mut effects = Vec::new();
        if self.over {
            let why = if self.won { "the run is won" } else { "the player died" };
            self.warnings.push(format!("step {step}: the run is over ({why}); step skipped"));
            return StepTrace { step, source: None, act: description, effects, events: Vec::new() };
        }
        if self.creature(source).is_none() {
            self.warnings.push(format!("step {step}: {source} does not exist (or was removed); step skipped"));
            return StepTrace { step, source: None, act: description, effects, events: Vec::new() };
        }
        // (1)
        self.push(EventKind::TurnStarted, source, None, Payload::None);
        if !self.combat && self.living_enemies() > 0 {
            self.combat = true;
            self.push(EventKind::CombatStarted, CreatureRef::Player, None, Payload::None);
        }
        self.work_off(w);
        // (2)
        let effect = self.apply(w, act, source, target);
        if self.tracing {
            effects.push(effect);
        }
        self.work_off(w);
        // (3)
        self.end_of_step(w);
        if self.trace.dropped > 0 {
            self.warnings.push(format!("event cap ({EVENT_CAP}) reached in step {step}: {} events dropped", self.trace.dropped));
        }
        if self.player.health <= 0 && !self.over {
            self.over = true;
            self.warnings.push(format!("the player died in step {step}; the run ends"));
        }
        if self.won && self.warnings.last().is_none_or(|w| !w.starts_with("the player left the deepest floor")) {
            self.warnings.push(format!("the player left the deepest floor in step {step}; the run is won"));
        }
        let events = std::mem::take(&mut self.trace.events);
        StepTrace { step, source: None, act: description, effects, events }
    }

    fn end_of_step(&mut self, w: &World) {
        self.enemies.retain(|e| e.body.health > 0);
        self.forget_removed_enemies();
        if self.combat && self.enemies.is_empty() {
            self.combat = false;
            self.push(EventKind::CombatEnded, CreatureRef::Player, None, Payload::CombatEnded { outcome: outcome::VICTORY });
        }
        self.work_off(w);
        // Deaths raised in phase (3) (a trigger on combat_ended) are removed too, without a
        // second combat_ended.
        self.enemies.retain(|e| e.body.health > 0);
        self.forget_removed_enemies();
    }

    /// Character creation, before the first step: health to max, the options' `on_create`
    /// (self = the new character, no target), then `quests` started; the queue is worked off
    /// under its own cap. Returns the trace of this setup.
    pub fn setup(&mut self, w: &World, quests: &[String]) -> StepTrace {
        self.trace = Trace::default();
        // The starting kit was placed straight into the inventory.
        self.bearers_changed(CreatureRef::Player);
        self.heal_player_full(w);
        let mut effects = Vec::new();
        for o in self.player.options.clone() {
            if let Some(e) = w.entry(Registry::CharacterOptions, &o) {
                for a in e.actions(field::ON_CREATE) {
                    effects.push(self.apply_action(w, &a.data, CreatureRef::Player, None));
                }
            }
        }
        for q in quests {
            effects.push(json!({ "action": ActionKind::StartQuest.name(), "effect": self.start_quest(w, q) }));
        }
        self.work_off(w);
        if self.trace.dropped > 0 {
            self.warnings.push(format!("event cap ({EVENT_CAP}) reached in setup: {} events dropped", self.trace.dropped));
        }
        let events = std::mem::take(&mut self.trace.events);
        StepTrace { step: 0, source: None, act: "character creation".into(), effects, events }
    }

    /// Character creation of a new game (`play`, the arena's matrix): [`Game::setup`], during
    /// which every item the options give is equipped at once when it has a slot and that slot is
    /// empty (first come, first equipped), without an event; then health to the new maximum.
    pub fn create_character(&mut self, w: &World, quests: &[String]) -> StepTrace {
        self.creating = true;
        let t = self.setup(w, quests);
        self.creating = false;
        self.heal_player_full(w);
        t
    }

    /// The state as JSON (`final` of the scenario trace).
    pub fn final_json(&self, w: &World) -> Json {
        let statuses: Vec<Json> = self.player.statuses.iter().map(|s| json!({ "status": s.status, "turns": s.turns })).collect();
        let mut out = json!({
            "player": {
                "health": self.player.health,
                "max_health": self.max_health(w, CreatureRef::Player),
                "inventory": self.player.inventory.iter().map(ItemInstance::json).collect::<Vec<_>>(),
                "quests": self.quests.iter().map(|q| json!({ "quest": q.quest, "count": q.count, "done": q.done })).collect::<Vec<_>>(),
                "statuses": statuses,
            },
            "enemies": self.enemies.iter().filter(|e| e.body.health > 0).map(|e| json!({
                "ref": CreatureRef::Enemy(e.index).to_string(),
                "creature": e.body.creature,
                "health": e.body.health,
            })).collect::<Vec<_>>(),
            "floor_loot": self.floor_loot.iter().map(ItemInstance::json).collect::<Vec<_>>(),
            "floor": self.floor,
            "room": self.room,
            "combat": self.combat,
        });
        // A run in the dungeon also says where the player stands (dry runs without one keep
        // their shape).
        if let Some(d) = &self.dungeon {
            out["dungeon"] = json!({
                "floor": d.floors.get(d.floor),
                "rooms": d.rooms,
                "room": d.room,
                "position": { "x": d.map.player.x, "y": d.map.player.y },
                "enemies": d.map.enemies.iter().map(|(i, p)| json!({ "ref": CreatureRef::Enemy(*i).to_string(), "x": p.x, "y": p.y })).collect::<Vec<_>>(),
                "won": self.won,
            });
        }
        out
    }
}
