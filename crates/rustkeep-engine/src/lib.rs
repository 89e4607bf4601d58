//! The rustkeep engine: seeded randomness, loot tables (exact analysis and sampled rolls),
//! and the game state that dry-runs triggers, the event queue and quests.
//!
//! It reads resolved data and must never validate it: a world that runs takes the validator's
//! `rustkeep_check::ValidDatabase`, which only `rustkeep-check` makes, and a world that only shows
//! data with errors is made with `World::best_effort`, where what cannot be evaluated is refused
//! as a typed value. It calls no rule of the validator. It must never draw randomness from anything but its seeded generator (same
//! seed and data, same run on every platform), and speaks in types: traces carry
//! [`effect::Effect`]s, event kinds and [`place::Place`]s, never English for a reader to parse.

#![forbid(unsafe_code)]

/// The version of the rules the engine plays by, named by every recording of a played game so
/// that a replay under other rules is refused (docs/engine.md, "Rules versions"): 1, dry runs
/// only; 2, the dungeon one room at a time, every door leading on; 3, a floor as one map of
/// rooms and corridors, residents that wait for the player, field of view and the stairs.
pub const RULES: u32 = 3;

/// The rules a recording that names none was made under: the last ones before recordings named
/// theirs.
pub const RULES_BEFORE_NAMED: u32 = 2;

pub mod actor;
pub mod arena;
pub mod effect;
pub mod floor;
pub mod fov;
pub mod game;
pub mod graph;
pub mod item;
pub mod loot;
pub mod map;
pub mod payload;
pub mod place;
pub mod rng;
pub mod save;
pub mod scenario;
pub mod stats;
pub mod trace;
