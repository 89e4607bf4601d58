//! The parts of the state that are plain data: creature references, creatures, item and status
//! instances, quest progress and events; finding and counting creatures.

use std::collections::BTreeMap;

use rustkeep_data::vocab::EventKind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Dungeon, Game, World};
use crate::actor::CreatureRef;
use crate::item::ItemInstance;
use crate::payload::Payload;
use crate::rng::Rng;
use crate::trace::Trace;
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

/// Reading the state: what the fields of a [`Game`] hold, by reference or by copy. The state
/// changes only through the engine's operations ([`Game::apply`], the steps and the few
/// operations of a run's setup and of `play`'s testing commands).
impl Game {
    pub fn player(&self) -> &Creature {
        &self.player
    }

    /// The enemies in ref order, the dead among them until the end of the step that killed them.
    pub fn enemies(&self) -> &[Enemy] {
        &self.enemies
    }

    /// The N the next enemy gets.
    pub fn next_enemy(&self) -> usize {
        self.next_enemy
    }

    pub fn quests(&self) -> &[QuestProgress] {
        &self.quests
    }

    /// The random generator, to read its state (the engine alone draws from it).
    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    /// The floor entry the player is on.
    pub fn floor(&self) -> Option<&str> {
        self.floor.as_deref()
    }

    /// The prefab of the room the player is in.
    pub fn room(&self) -> Option<&str> {
        self.room.as_deref()
    }

    /// The items on the floor (without a map: the room's).
    pub fn floor_loot(&self) -> &[ItemInstance] {
        &self.floor_loot
    }

    /// The loot tables of room piles not yet rolled.
    pub fn piles(&self) -> &[String] {
        &self.piles
    }

    pub fn in_combat(&self) -> bool {
        self.combat
    }

    /// The number of the next step.
    pub fn step(&self) -> usize {
        self.step
    }

    /// Whether the run is over: the player died, won, or the run stopped at a limit.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The causal trace of the step being run (or the last one run).
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// Engine warnings of the run so far.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The dungeon of a played run; `None` in dry runs.
    pub fn dungeon(&self) -> Option<&Dungeon> {
        self.dungeon.as_ref()
    }

    /// Each opened shop's stock, by shop.
    pub fn shops(&self) -> &BTreeMap<String, Vec<ItemInstance>> {
        &self.shops
    }

    /// The shop the last `open_shop` opened, until the player leaves it.
    pub fn opened_shop(&self) -> Option<&str> {
        self.open_shop.as_deref()
    }

    /// Whether the player took the stairs of the deepest floor.
    pub fn won(&self) -> bool {
        self.won
    }

    /// Why the run stopped at a limit that keeps its work bounded.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// The seed the game was started with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// How many enemies died in the run.
    pub fn kills(&self) -> u64 {
        self.kills
    }

    /// How many enemies escaped by their own `flee`.
    pub fn escapes(&self) -> u64 {
        self.escapes
    }

    /// The testing commands of `rustkeep play` the run used, in the order first used.
    pub fn testing(&self) -> &[String] {
        &self.testing
    }

    /// Whether the player regains health out of combat.
    pub fn regen(&self) -> bool {
        self.regen
    }

    /// The player's turns out of combat since it last regained health.
    pub fn rested(&self) -> u64 {
        self.rested
    }

    /// How many events the game has handled since it was made or loaded.
    pub fn events_handled(&self) -> u64 {
        self.events_handled
    }

    /// Whether steps record their causal trace.
    pub fn tracing(&self) -> bool {
        self.tracing
    }
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
