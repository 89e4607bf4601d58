//! The data of an entry in plain English: for players (the inventory, the character sheet and the
//! quest log of `rustkeep play`) and for generated documentation pages.
//!
//! Everything here reads the lowered model (triggers, conditions, actions, modifiers, quests,
//! `ai` rules) and the names of entries through a [`World`](rustkeep_engine::game::World); nothing is
//! parsed back from text. Every function is total: an unknown ID, a missing field or an empty
//! list gives a sentence that says so, never a panic. Every model enum is matched without a
//! catch-all, so a new event, check, action or `when` field fails to compile here until it has
//! words.
//!
//! `self` and `target` become words relative to the bearer (docs/data-language.md, "Where self
//! and target point"): `self` is "you" when the bearer is the player, "itself" for a creature,
//! "the bearer" when the text must fit either; `target` is named after the event's other side
//! ("the target" of a hit, "the attacker" of damage taken, "the killer" of a death).
//!
//! The parts, private modules whose public functions are re-exported here:
//! - `english`: names and numbers in English — articles, plurals, lists, proper names.
//! - `triggers`: conditions, modifiers, actions, events and triggers in words.
//! - `entries`: whole entries in lines — quests, items, creatures, character options, statuses,
//!   affixes.

use rustkeep_data::model::Who;

mod english;
mod entries;
mod triggers;

pub use english::{entry_name, id_in_words, is_proper};
pub use entries::{affix, character_option, creature, creature_ai, item, quest, status};
pub use triggers::{action, actions, condition, conditions, event, modifier, trigger};

/// Who bears a trigger, a modifier or a list of actions: who `self` is in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bearer {
    /// The player: character options, the player's items and statuses, quests, floors, prefabs,
    /// NPCs' `on_talk`. `self` is "you".
    Player,
    /// A creature other than the player: its creature entry's triggers and `ai`. `self` is "it"
    /// ("itself" as an object).
    Creature,
    /// Whoever bears it, player or creature (a status or an affix described on its own page).
    /// `self` is "the bearer".
    Anyone,
}

impl Bearer {
    fn party(self) -> Party {
        match self {
            Bearer::Player => Party::You,
            Bearer::Creature => Party::It,
            Bearer::Anyone => Party::The("the bearer"),
        }
    }
}

/// A creature a sentence names, with what English needs to know about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Party {
    /// The player.
    You,
    /// A creature that is the bearer ("it", "itself").
    It,
    /// A creature named by a noun phrase ("the target", "the attacker").
    The(&'static str),
    /// The target of an event that never has one: checks on it are false, actions do nothing.
    Absent,
}

const ABSENT: &str = "the absent target";

impl Party {
    fn subject(self) -> String {
        match self {
            Party::You => "you".into(),
            Party::It => "it".into(),
            Party::The(n) => n.into(),
            Party::Absent => ABSENT.into(),
        }
    }
    fn object(self) -> String {
        match self {
            Party::You => "you".into(),
            Party::It => "itself".into(),
            Party::The(n) => n.into(),
            Party::Absent => ABSENT.into(),
        }
    }
    fn possessive(self) -> String {
        match self {
            Party::You => "your".into(),
            Party::It => "its".into(),
            Party::The(n) => format!("{n}'s"),
            Party::Absent => format!("{ABSENT}'s"),
        }
    }
    /// The verb form agreeing with this party as the subject.
    fn pick(self, plain: &'static str, third: &'static str) -> &'static str {
        match self {
            Party::You => plain,
            Party::It | Party::The(_) | Party::Absent => third,
        }
    }
}

/// Who `self` and `target` are where a list of checks or actions is written.
#[derive(Clone, Copy, Debug)]
struct Sides {
    me: Party,
    other: Party,
}

impl Sides {
    fn of(self, who: Who) -> Party {
        match who {
            Who::SelfBearer => self.me,
            Who::Target => self.other,
        }
    }
}

/// Whether actions read as orders ("heal itself for 4", a trigger's actions) or as what a
/// creature does ("heals itself for 4", an `ai` rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mood {
    Imperative,
    Third,
}

#[cfg(test)]
mod tests;
