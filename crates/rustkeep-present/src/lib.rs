//! Presentation: what the engine's data and results look like to a person. The engine
//! (`rustkeep-engine`) speaks in types — traces of effects and event kinds, matrices of numbers,
//! graphs of nodes and edges — and this crate turns them into words and pictures for the front
//! ends above it: the game (`rustkeep-play`), the documentation site (`rustkeep-doc`) and the
//! command line.
//!
//! - [`words`]: entries, triggers, conditions, actions, quests and `ai` rules in plain English.
//! - [`heat_map`]: the arena's matrix (every character option against every creature) as SVG.
//! - [`graph`]: the trigger graph as Graphviz DOT.
//! - [`report`]: a scenario's run, a step's causal trace, a batch of fights and the arena's
//!   matrix as text.

#![forbid(unsafe_code)]

pub mod graph;
pub mod heat_map;
pub mod report;
pub mod words;
