//! Rounds (docs/engine.md, "Rounds"): after a turn of the player, every living enemy takes a turn
//! of its own, in ref order, each a step with the enemy as source and its own event cap. An
//! enemy's action is its first `ai` rule whose condition holds (self = the creature, target = the
//! player); when none holds it attacks the player if it is in reach, else it moves towards the
//! player (on a map; without one every enemy is in reach).

use rustkeep_data::vocab::{attr, Registry};

use super::{Act, CreatureRef, Game, World};
use crate::effect::{Effect, Outcome, Reason};
use crate::trace::StepTrace;

/// Energy counts as a whole turn from this close below 1 on, so that speeds like 1.1 added up
/// ten times are the eleven turns they mean, not ten.
const ENERGY_EPSILON: f64 = 1e-9;

/// The most turns an enemy earns per turn of the player, however fast it is against however slow a
/// player: speeds are data, and a round must end.
pub const MAX_TURNS_PER_PLAYER_TURN: f64 = 100.0;

/// A speed as the energy rule reads it: at most 0 (or no number) is 0.1.
pub fn effective_speed(s: f64) -> f64 {
    if s > 0.0 {
        s
    } else {
        0.1
    }
}

/// The energy an enemy of speed `enemy` gains per action of a player of speed `player`.
pub fn energy_gain(enemy: f64, player: f64) -> f64 {
    (effective_speed(enemy) / effective_speed(player)).min(MAX_TURNS_PER_PLAYER_TURN)
}

impl Game {
    /// The turns of the enemies in combat after the player's step number `step` (docs/engine.md,
    /// "Speed"): each gains `its speed ÷ the player's speed` energy and takes one turn per whole
    /// unit, in ref order, the order repeated while any has a unit left. With every speed 1 that is
    /// one turn each, in ref order. An enemy that died or was removed before its turn takes none;
    /// when the player dies, the rest of the round is not played.
    pub fn enemy_turns(&mut self, w: &World, step: usize) -> Vec<StepTrace> {
        let fighters: Vec<usize> = self.enemies.iter().filter(|e| e.body.health > 0 && !e.resident).map(|e| e.index).collect();
        for &index in &fighters {
            let me = CreatureRef::Enemy(index);
            let gain =
                energy_gain(self.attribute(w, me, attr::SPEED, Some(CreatureRef::Player)), self.attribute(w, CreatureRef::Player, attr::SPEED, Some(me)));
            if let Some(i) = self.enemy_slot(index) {
                self.enemies[i].energy += gain;
            }
        }
        let mut out = Vec::with_capacity(fighters.len());
        loop {
            let order: Vec<usize> =
                self.enemies.iter().filter(|e| e.body.health > 0 && !e.resident && e.energy >= 1.0 - ENERGY_EPSILON).map(|e| e.index).collect();
            if order.is_empty() {
                break;
            }
            for index in order {
                if self.over || self.player.health <= 0 {
                    return out;
                }
                let me = CreatureRef::Enemy(index);
                let Some(e) = self.enemy_slot(index).map(|i| &mut self.enemies[i]).filter(|e| e.body.health > 0 && !e.resident) else { continue };
                e.energy = (e.energy - 1.0).max(0.0);
                let mut t = self.turn(w, Act::EnemyTurn, me, Some(CreatureRef::Player), step);
                t.source = Some(me.to_string());
                out.push(t);
            }
        }
        out
    }

    /// What an enemy does on its turn (the act of [`Act::EnemyTurn`]).
    pub(super) fn enemy_act(&mut self, w: &World, me: CreatureRef) -> Outcome {
        let player = CreatureRef::Player;
        if !self.alive(me) {
            return Outcome::act(Effect::NoEffect(Reason::DeadOrGone(me)));
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
                let followed = self.note(|| Effect::FollowedRule {
                    who: me,
                    rule: i + 1,
                    creature: e.key().map(|k| k.value.clone()).unwrap_or_else(|| "?".into()),
                    at: w.place(e, rule.span.start),
                });
                return Outcome::with_actions(followed, actions);
            }
        }
        if self.in_reach(me, player) {
            return Outcome::act(self.attack(w, me, Some(player)));
        }
        Outcome::act(self.move_towards_player(me))
    }
}
