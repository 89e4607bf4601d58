//! What arranges a game outside its steps: the starting kit of a scenario or an arena lineup,
//! the switches of a run (regeneration, traces), and what `rustkeep play` does besides playing
//! (leaving a shop, noting its testing commands, a tester's health and clean slate). Each keeps
//! the state whole: caches are forgotten and the map follows the enemies.

use rustkeep_data::grid::Pos;

use super::Game;
use crate::actor::CreatureRef;
use crate::item::ItemInstance;
use crate::map::Dropped;
use crate::rng::Rng;

impl Game {
    /// The player carries these instances as they are (equipped or not, unstacked): the starting
    /// kit of a scenario or an arena lineup, placed before the setup. No event is raised.
    pub fn carry(&mut self, items: impl IntoIterator<Item = ItemInstance>) {
        self.player.inventory.extend(items);
        self.bearers_changed(CreatureRef::Player);
    }

    /// Plays on with this generator (the arena's fights draw from one stream per run).
    pub(crate) fn use_rng(&mut self, rng: Rng) {
        self.rng = rng;
    }

    /// Adds an engine warning to the run's.
    pub(crate) fn warn(&mut self, warning: String) {
        self.warnings.push(warning);
    }

    /// Whether the player regains health out of combat (`[balance] regen_every`): on in played
    /// games, in a scenario only with `regen = true`.
    pub fn set_regen(&mut self, on: bool) {
        self.regen = on;
    }

    /// Whether steps record their causal trace (the arena and the benchmarks turn it off).
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
    }

    /// Leaves the open shop (`play`'s trade screen); the shop that was open.
    pub fn leave_shop(&mut self) -> Option<String> {
        self.open_shop.take()
    }

    /// Notes that the run used the testing command `word`, once (the engine never reads it).
    pub fn note_testing(&mut self, word: &str) {
        if !self.testing.iter().any(|t| t == word) {
            self.testing.push(word.to_string());
        }
    }

    /// Keeps of the noted testing commands those in `known`, each once (a loaded save is a
    /// stranger's file).
    pub fn keep_testing(&mut self, known: &[&str]) {
        let mut seen: Vec<String> = Vec::new();
        self.testing.retain(|t| {
            let keep = known.contains(&t.as_str()) && !seen.contains(t);
            if keep {
                seen.push(t.clone());
            }
            keep
        });
    }

    /// Sets a living creature's health, as a tester would, without an event; whether it did. A
    /// health below 1 is refused: a creature dies only by the engine's blows, with their events.
    pub fn set_health(&mut self, r: CreatureRef, health: i64) -> bool {
        if health < 1 || !self.alive(r) {
            return false;
        }
        let Some(c) = self.creature_mut(r) else { return false };
        c.health = health;
        true
    }

    /// A tester's clean slate: every enemy gone (from the map too) and the fight over, without
    /// deaths, kills or loot.
    pub fn remove_enemies(&mut self) {
        self.enemies.clear();
        self.combat = false;
        self.forget_removed_enemies();
    }

    /// Puts the player on a tile of the map that it could stand on (walkable and free) and looks
    /// around from there; whether it moved (never without a map).
    pub fn place_player(&mut self, p: Pos) -> bool {
        let Some(m) = self.map_mut() else { return false };
        if m.is_wall(p) || (p != m.player && m.occupied(p, None)) {
            return false;
        }
        m.player = p;
        m.look();
        true
    }

    /// Lays an item on a tile of the map that can be stood on, where a creature's loot would
    /// fall; whether it did (never without a map).
    pub fn drop_on_map(&mut self, pos: Pos, item: ItemInstance) -> bool {
        let Some(m) = self.map_mut() else { return false };
        if m.is_wall(pos) {
            return false;
        }
        m.loot.push(Dropped { pos, item });
        true
    }
}
