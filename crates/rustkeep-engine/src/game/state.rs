//! The parts of the state that are plain data: creature references, creatures, item and status
//! instances, quest progress and events; finding and counting creatures.

use std::collections::BTreeMap;

use rustkeep_data::vocab::EventKind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Game, World};
use crate::actor::CreatureRef;
use crate::item::ItemInstance;
use crate::payload::Payload;
use rustkeep_data::vocab::attr;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StatusInstance {
    pub status: String,
    pub turns: u32,
}

/// The player or an enemy.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Creature {
    /// The creature entry (enemies); `None` for the player.
    #[serde(default)]
    pub creature: Option<String>,
    /// Character options (the player).
    #[serde(default)]
    pub options: Vec<String>,
    /// Base attributes before modifiers.
    #[serde(default)]
    pub base: BTreeMap<String, f64>,
    pub health: i64,
    #[serde(default)]
    pub inventory: Vec<ItemInstance>,
    #[serde(default)]
    pub statuses: Vec<StatusInstance>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Enemy {
    /// The N of `enemy:N`: the order of appearance, never reused.
    pub index: usize,
    pub body: Creature,
    /// Left alone by the player's flight: it takes no turns and starts no combat until the
    /// player attacks it (docs/engine.md, "Fleeing").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub resident: bool,
    /// Turns it has earned and not yet taken, in units of one turn (docs/engine.md, "Speed").
    #[serde(default, skip_serializing_if = "is_zero")]
    pub energy: f64,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct QuestProgress {
    pub quest: String,
    pub count: u32,
    pub done: bool,
}

/// One event as the queue holds it (docs/engine.md, "Events and triggers").
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub kind: EventKind,
    pub source: CreatureRef,
    pub target: Option<CreatureRef>,
    pub payload: Payload,
    /// The handled event (index in the step's trace) whose trigger raised this one.
    pub cause: Option<usize>,
}

/// Rounds half away from zero, after snapping away binary noise (5 × 0.7 is 3.4999…96 in floats,
/// and a modder who writes 0.3 resistance means 3.5 → 4).
pub fn round_half_away(v: f64) -> f64 {
    ((v * 1e9).round() / 1e9).round()
}

impl Game {
    pub fn heal_player_full(&mut self, w: &World) {
        self.player.health = self.max_health(w, CreatureRef::Player);
    }

    pub fn creature(&self, r: CreatureRef) -> Option<&Creature> {
        match r {
            CreatureRef::Player => Some(&self.player),
            CreatureRef::Enemy(n) => self.enemy_slot(n).map(|i| &self.enemies[i].body),
        }
    }

    /// Where `enemy:n` is in `enemies`, which is kept in ref order (refs are given in increasing
    /// order and never reused; a save is read in that order).
    pub(super) fn enemy_slot(&self, n: usize) -> Option<usize> {
        self.enemies.binary_search_by_key(&n, |e| e.index).ok()
    }

    pub(super) fn creature_mut(&mut self, r: CreatureRef) -> Option<&mut Creature> {
        match r {
            CreatureRef::Player => Some(&mut self.player),
            CreatureRef::Enemy(n) => self.enemy_slot(n).map(|i| &mut self.enemies[i].body),
        }
    }

    pub fn alive(&self, r: CreatureRef) -> bool {
        self.creature(r).is_some_and(|c| c.health > 0)
    }

    pub fn living_enemies(&self) -> usize {
        self.enemies.iter().filter(|e| e.body.health > 0).count()
    }

    /// The living enemies that fight: every living one but the residents a flight left alone.
    pub fn fighting_enemies(&self) -> usize {
        self.enemies.iter().filter(|e| e.body.health > 0 && !e.resident).count()
    }

    /// Whether any enemy fights (see [`Game::fighting_enemies`]), without counting them all.
    pub fn any_fighting_enemy(&self) -> bool {
        self.enemies.iter().any(|e| e.body.health > 0 && !e.resident)
    }

    pub fn max_health(&self, w: &World, r: CreatureRef) -> i64 {
        round_half_away(self.attribute(w, r, attr::MAX_HEALTH, None)).max(0.0) as i64
    }
}
