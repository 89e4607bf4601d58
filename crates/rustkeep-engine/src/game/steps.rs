//! Steps: one step is one turn (turn start, the act, dead enemies removed), character creation
//! before the first step, and the final state of a run.

use rustkeep_data::vocab::{field, outcome, ActionKind, EventKind, Registry, EVENT_CAP};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value as Json;

use super::{Act, CreatureRef, Game, ItemInstance, QuestProgress, StatusInstance, World};
use crate::effect::Outcome;
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
        let trace = self.turn(w, act, source, target, step);
        if source == CreatureRef::Player {
            self.regenerate(w);
        }
        trace
    }

    /// The player's rest after one of its turns (`[balance] regen_every`, with [`Game::regen`]):
    /// out of combat, every `regen_every`-th turn gives back 1 health, up to the maximum; a fight
    /// starts the count again.
    fn regenerate(&mut self, w: &World) {
        let every = u64::from(w.db.resolved.balance.regen_every);
        if !self.regen || every == 0 || self.over {
            return;
        }
        if self.combat {
            self.rested = 0;
            return;
        }
        self.rested += 1;
        if self.rested >= every {
            self.rested = 0;
            if self.player.health < self.max_health(w, CreatureRef::Player) {
                self.player.health += 1;
            }
        }
    }

    /// One turn of `source`, recorded as belonging to step `step` (an enemy's turn belongs to the
    /// player's step it follows; [`Game::run_step`] counts the steps).
    pub(super) fn turn(&mut self, w: &World, act: Act<'_>, source: CreatureRef, target: Option<CreatureRef>, step: usize) -> StepTrace {
        let description = if self.tracing { act.describe(source, target) } else { String::new() };
        self.trace = Trace::default();
        let mut effects = Vec::new();
        if self.over {
            let why = if self.won {
                "the run is won"
            } else if self.stopped.is_some() {
                "it stopped at a limit"
            } else {
                "the player died"
            };
            self.warnings.push(format!("step {step}: the run is over ({why}); step skipped"));
            return StepTrace { step, source: None, act: description, effects, events: Vec::new(), before_act: 0 };
        }
        if self.creature(source).is_none() {
            self.warnings.push(format!("step {step}: {source} does not exist (or was removed); step skipped"));
            return StepTrace { step, source: None, act: description, effects, events: Vec::new(), before_act: 0 };
        }
        // (1)
        self.push(EventKind::TurnStarted, source, None, Payload::None);
        if !self.combat && self.any_fighting_enemy() {
            self.combat = true;
            self.push(EventKind::CombatStarted, CreatureRef::Player, None, Payload::None);
        }
        self.work_off(w);
        let before_act = self.trace.events.len();
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
        if self.won && self.warnings.last().is_none_or(|w| !w.starts_with("the player took the stairs of the deepest floor")) {
            self.warnings.push(format!("the player took the stairs of the deepest floor in step {step}; the run is won"));
        }
        let events = std::mem::take(&mut self.trace.events);
        StepTrace { step, source: None, act: description, effects, events, before_act }
    }

    fn end_of_step(&mut self, w: &World) {
        self.remove_dead_enemies();
        // The last enemy of the combat died or escaped (residents left by a flight do not fight).
        if self.combat && !self.any_fighting_enemy() {
            self.combat = false;
            self.push(EventKind::CombatEnded, CreatureRef::Player, None, Payload::CombatEnded { outcome: outcome::VICTORY });
        }
        self.work_off(w);
        // Deaths raised in phase (3) (a trigger on combat_ended) are removed too, without a
        // second combat_ended.
        self.remove_dead_enemies();
    }

    /// Takes the dead out of the game and off the map.
    fn remove_dead_enemies(&mut self) {
        if !std::mem::take(&mut self.dead_to_remove) {
            return;
        }
        let before = self.enemies.len();
        self.enemies.retain(|e| e.body.health > 0);
        if self.enemies.len() != before {
            self.forget_removed_enemies();
        }
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
            let effect = self.start_quest(w, q);
            effects.push(Outcome { action: Some(ActionKind::StartQuest), target: None, effect, actions: None });
        }
        self.work_off(w);
        if self.trace.dropped > 0 {
            self.warnings.push(format!("event cap ({EVENT_CAP}) reached in setup: {} events dropped", self.trace.dropped));
        }
        let events = std::mem::take(&mut self.trace.events);
        StepTrace { step: 0, source: None, act: "character creation".into(), effects, events, before_act: 0 }
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

    /// The state as the traces' `final` shows it.
    pub fn final_state(&self, w: &World) -> FinalState {
        let player = FinalPlayer {
            health: self.player.health,
            max_health: self.max_health(w, CreatureRef::Player),
            inventory: self.player.inventory.clone(),
            quests: self.quests.clone(),
            statuses: self.player.statuses.clone(),
        };
        let enemies = self
            .enemies
            .iter()
            .filter(|e| e.body.health > 0)
            .map(|e| FinalEnemy { r#ref: CreatureRef::Enemy(e.index).to_string(), creature: e.body.creature.clone(), health: e.body.health })
            .collect();
        // A run in the dungeon also says where the player stands (dry runs without one keep
        // their shape).
        let dungeon = self.dungeon.as_ref().map(|d| FinalDungeon {
            floor: d.floors.get(d.floor).cloned(),
            rooms: d.rooms(),
            room: d.room,
            position: d.map.player,
            enemies: d.map.enemies().iter().map(|(i, p)| PlacedEnemy { r#ref: CreatureRef::Enemy(*i).to_string(), x: p.x, y: p.y }).collect(),
            won: self.won,
        });
        FinalState { player, enemies, floor_loot: self.floor_loot.clone(), floor: self.floor.clone(), room: self.room.clone(), combat: self.combat, dungeon }
    }

    /// [`Game::final_state`] as JSON.
    pub fn final_json(&self, w: &World) -> Json {
        serde_json::to_value(self.final_state(w)).unwrap_or_default()
    }
}

/// The `group` of a character option (`class`, `background`, …), if it has one; `None` for an
/// option without a group or an ID that names no option.
pub fn option_group(w: &World, id: &str) -> Option<String> {
    w.entry(Registry::CharacterOptions, id).and_then(|e| e.str(field::GROUP)).map(str::to_string)
}

/// Whether a character may be created with `options`: at most one option of each `group`
/// (docs/engine.md, "Option groups"). Options without a group combine freely; IDs that name
/// no option are the caller's to refuse. The refusal names the two options and their group.
pub fn check_options(w: &World, options: &[String]) -> Result<(), String> {
    let mut seen: Vec<(String, &str)> = Vec::new();
    for o in options {
        let Some(group) = option_group(w, o) else { continue };
        match seen.iter().find(|(g, _)| *g == group) {
            Some((_, first)) if *first == o.as_str() => {
                return Err(format!("{o} is chosen twice, and it is of the group `{group}`; a character takes one of each group"));
            }
            Some((_, first)) => return Err(format!("{first} and {o} are both of the group `{group}`; a character takes one of each group")),
            None => seen.push((group, o)),
        }
    }
    Ok(())
}

/// The state at the end of a run (`final` of `rustkeep simulate --format json`, and what
/// `rustkeep play --replay` prints).
#[derive(Serialize, JsonSchema)]
pub struct FinalState {
    pub player: FinalPlayer,
    /// The living enemies.
    pub enemies: Vec<FinalEnemy>,
    /// Items lying on the floor of the room.
    pub floor_loot: Vec<ItemInstance>,
    /// The floor entered (`enter_floor`), if any.
    pub floor: Option<String>,
    /// The room entered (`enter_room`), if any.
    pub room: Option<String>,
    /// Whether a fight is going on.
    pub combat: bool,
    /// Where the player stands, in a run with a dungeon (absent in dry runs without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dungeon: Option<FinalDungeon>,
}

/// The player at the end of a run.
#[derive(Serialize, JsonSchema)]
pub struct FinalPlayer {
    pub health: i64,
    /// The maximum health with every modifier in force.
    pub max_health: i64,
    pub inventory: Vec<ItemInstance>,
    pub quests: Vec<QuestProgress>,
    /// Statuses with the turns they have left.
    pub statuses: Vec<StatusInstance>,
}

/// A living enemy at the end of a run.
#[derive(Serialize, JsonSchema)]
pub struct FinalEnemy {
    /// `enemy:N`.
    pub r#ref: String,
    /// The creature entry's ID.
    pub creature: Option<String>,
    pub health: i64,
}

/// The dungeon at the end of a run.
#[derive(Serialize, JsonSchema)]
pub struct FinalDungeon {
    /// The floor the player is on.
    pub floor: Option<String>,
    /// The rooms of that floor, in order.
    pub rooms: Vec<String>,
    /// The index of the player's room in `rooms`; `None` in a corridor.
    pub room: Option<usize>,
    /// The player's tile.
    pub position: rustkeep_data::grid::Pos,
    /// The enemies' tiles.
    pub enemies: Vec<PlacedEnemy>,
    /// Whether the player took the stairs of the deepest floor.
    pub won: bool,
}

/// An enemy on the map.
#[derive(Serialize, JsonSchema)]
pub struct PlacedEnemy {
    /// `enemy:N`.
    pub r#ref: String,
    pub x: i32,
    pub y: i32,
}
