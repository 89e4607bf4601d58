//! The rustkeep engine: seeded randomness, loot tables (exact analysis and sampled rolls),
//! and the game state that dry-runs triggers, the event queue and quests.

#![forbid(unsafe_code)]

pub mod arena;
pub mod game;
pub mod graph;
pub mod loot;
pub mod map;
pub mod payload;
pub mod rng;
pub mod save;
pub mod scenario;
pub mod stats;
pub mod trace;
