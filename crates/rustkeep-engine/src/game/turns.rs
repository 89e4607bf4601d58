//! Rounds (docs/engine.md, "Rounds"): after a turn of the player, every living enemy takes a turn
//! of its own, in ref order, each a step with the enemy as source and its own event cap. An
//! enemy's action is its first `ai` rule whose condition holds (self = the creature, target = the
//! player); when none holds it attacks the player if it is in reach, else it moves towards the
//! player (on a map; without one every enemy is in reach).

use rustkeep_data::vocab::Registry;
use serde_json::{json, Value as Json};

use super::{Act, CreatureRef, Game, World};
use crate::trace::StepTrace;

impl Game {
    /// The turns of every living enemy after the player's step number `step`, in ref order.
    /// An enemy that died or was removed before its turn takes none; when the player dies, the
    /// rest of the round is not played.
    pub fn enemy_turns(&mut self, w: &World, step: usize) -> Vec<StepTrace> {
        let order: Vec<usize> = self.enemies.iter().filter(|e| e.body.health > 0).map(|e| e.index).collect();
        let mut out = Vec::with_capacity(order.len());
        for index in order {
            if self.over || self.player.health <= 0 {
                break;
            }
            let me = CreatureRef::Enemy(index);
            if !self.alive(me) {
                continue;
            }
            let mut t = self.turn(w, Act::EnemyTurn, me, Some(CreatureRef::Player), step);
            t.source = Some(me.to_string());
            out.push(t);
        }
        out
    }

    /// What an enemy does on its turn (the act of [`Act::EnemyTurn`]).
    pub(super) fn enemy_act(&mut self, w: &World, me: CreatureRef) -> Json {
        let player = CreatureRef::Player;
        if !self.alive(me) {
            return json!({ "effect": format!("no effect: {me} is dead or gone") });
        }
        let id = self.creature(me).and_then(|c| c.creature.clone());
        if let Some(e) = id.as_deref().and_then(|id| w.entry(Registry::Creatures, id)) {
            for (i, rule) in e.ai().iter().enumerate() {
                // A rule with validation errors never runs (the engine runs only checked data,
                // but a broken rule must not run half of itself either).
                if rule.broken || !rule.condition.iter().all(|c| self.holds(w, c, me, Some(player), 0)) {
                    continue;
                }
                let mut actions = Vec::with_capacity(rule.actions.len());
                for a in &rule.actions {
                    actions.push(self.apply_action(w, &a.data, me, Some(player)));
                }
                let at = if self.tracing { w.at(e, rule.span.start) } else { String::new() };
                return json!({ "effect": format!("{me} follows ai rule {} of {} ({at})", i + 1, e.key().map(|k| k.value.as_str()).unwrap_or("?")), "actions": actions });
            }
        }
        if self.in_reach(me, player) {
            return self.attack(w, me, Some(player));
        }
        self.move_towards_player(me)
    }
}
