//! Who acts: the player or an enemy, by the reference traces, scenarios and saves write
//! (`player`, `enemy:N`).

use std::fmt;

use rustkeep_data::scenario::Actor;
use serde::{Deserialize, Serialize};

/// `player` or `enemy:N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CreatureRef {
    Player,
    Enemy(usize),
}

impl fmt::Display for CreatureRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CreatureRef::Player => f.write_str("player"),
            CreatureRef::Enemy(n) => write!(f, "enemy:{n}"),
        }
    }
}

impl CreatureRef {
    /// `player` or `enemy:N`, read as scenarios read it.
    pub fn parse(s: &str) -> Option<CreatureRef> {
        Actor::parse(s).map(CreatureRef::from)
    }
}

impl From<Actor> for CreatureRef {
    fn from(a: Actor) -> CreatureRef {
        match a {
            Actor::Player => CreatureRef::Player,
            Actor::Enemy(n) => CreatureRef::Enemy(n as usize),
        }
    }
}

impl Serialize for CreatureRef {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for CreatureRef {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        CreatureRef::parse(&s).ok_or_else(|| serde::de::Error::custom(format!("`{s}` is not `player` or `enemy:N`")))
    }
}
