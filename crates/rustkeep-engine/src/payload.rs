//! What an event carries (docs/engine.md, "Events and triggers"): typed for the events the engine
//! raises, so that the common ones (a hit, damage taken) cost no allocation, and raw for events a
//! scenario injects, which carry exactly what the scenario wrote. The trace shows both as JSON
//! with the keys in the payload's order.

use std::borrow::Cow;

use rustkeep_data::vocab::{damage, payload as key};
use serde_json::{json, Map, Value as Json};

/// A damage type as a payload carries it: one of the vocabulary's names without an allocation.
pub fn damage_type_name(s: &str) -> Cow<'static, str> {
    match damage::ALL.iter().find(|d| **d == s) {
        Some(d) => Cow::Borrowed(d),
        None => Cow::Owned(s.to_string()),
    }
}

/// The trace-only key of `attack_hit` that says whether the hit was critical. It is no `when`
/// field: a filter cannot ask for it.
pub const CRITICAL: &str = "critical";

#[derive(Clone, Debug, PartialEq)]
pub enum Payload {
    None,
    AttackHit {
        weapon: Option<String>,
        damage_type: Cow<'static, str>,
        /// Whether the hit is critical; `None` when the attacker had no chance of one (the
        /// trace then shows no `critical` key, as before critical hits existed).
        critical: Option<bool>,
    },
    DamageTaken {
        amount: i64,
        damage_type: Cow<'static, str>,
    },
    ItemPickedUp {
        item: String,
        count: u32,
        affixes: Vec<String>,
    },
    ItemUsed {
        item: String,
    },
    FloorEntered {
        floor: String,
        depth: Option<i64>,
    },
    RoomEntered {
        prefab: String,
    },
    NpcTalked {
        npc: String,
    },
    QuestCompleted {
        quest: String,
    },
    CombatEnded {
        outcome: &'static str,
    },
    /// An injected event's payload as written.
    Raw(Map<String, Json>),
}

/// A payload value as a `when` filter sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    Str(&'a str),
    /// Anything that is no string (a number, null, a list): never equal to a filter's value.
    Other(&'a Json),
    Int(i64),
    Null,
}

impl Payload {
    /// The value under `name`, if the payload has that key.
    pub fn get(&self, name: &str) -> Option<Value<'_>> {
        use Payload as P;
        match (self, name) {
            (P::AttackHit { weapon, .. }, key::WEAPON) => Some(weapon.as_deref().map_or(Value::Null, Value::Str)),
            (P::AttackHit { damage_type, .. } | P::DamageTaken { damage_type, .. }, key::DAMAGE_TYPE) => Some(Value::Str(damage_type)),
            (P::DamageTaken { amount, .. }, key::AMOUNT) => Some(Value::Int(*amount)),
            (P::ItemPickedUp { item, .. } | P::ItemUsed { item }, key::ITEM) => Some(Value::Str(item)),
            (P::ItemPickedUp { count, .. }, key::COUNT) => Some(Value::Int(i64::from(*count))),
            (P::ItemPickedUp { .. }, key::AFFIXES) => Some(Value::Null),
            (P::FloorEntered { floor, .. }, key::FLOOR) => Some(Value::Str(floor)),
            (P::FloorEntered { depth, .. }, key::DEPTH) => Some(depth.map_or(Value::Null, Value::Int)),
            (P::RoomEntered { prefab }, key::PREFAB) => Some(Value::Str(prefab)),
            (P::NpcTalked { npc }, key::NPC) => Some(Value::Str(npc)),
            (P::QuestCompleted { quest }, key::QUEST) => Some(Value::Str(quest)),
            (P::CombatEnded { outcome }, key::OUTCOME) => Some(Value::Str(outcome)),
            (P::Raw(m), _) => m.get(name).map(|v| match v {
                Json::String(s) => Value::Str(s),
                Json::Null => Value::Null,
                other => Value::Other(other),
            }),
            _ => None,
        }
    }

    /// The string under `name` (what a `when` filter compares with).
    pub fn str(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Some(Value::Str(s)) => Some(s),
            _ => None,
        }
    }

    /// The value under `name` as messages show it; `None` when the key is absent.
    pub fn shown(&self, name: &str) -> Option<String> {
        if let Payload::ItemPickedUp { affixes, .. } = self {
            if name == key::AFFIXES {
                return Some(json!(affixes).to_string());
            }
        }
        self.get(name).map(|v| match v {
            Value::Str(s) => s.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Null => "null".to_string(),
            Value::Other(j) => j.to_string(),
        })
    }

    /// As JSON, in the order the trace has always shown these keys.
    pub fn to_json(&self) -> Map<String, Json> {
        let mut m = Map::new();
        match self {
            Payload::None => {}
            Payload::AttackHit { weapon, damage_type, critical } => {
                m.insert(key::WEAPON.into(), weapon.clone().map(Json::String).unwrap_or(Json::Null));
                m.insert(key::DAMAGE_TYPE.into(), json!(damage_type));
                if let Some(c) = critical {
                    m.insert(CRITICAL.into(), json!(c));
                }
            }
            Payload::DamageTaken { amount, damage_type } => {
                m.insert(key::AMOUNT.into(), json!(amount));
                m.insert(key::DAMAGE_TYPE.into(), json!(damage_type));
            }
            Payload::ItemPickedUp { item, count, affixes } => {
                m.insert(key::ITEM.into(), json!(item));
                m.insert(key::COUNT.into(), json!(count));
                m.insert(key::AFFIXES.into(), json!(affixes));
            }
            Payload::ItemUsed { item } => {
                m.insert(key::ITEM.into(), json!(item));
            }
            Payload::FloorEntered { floor, depth } => {
                m.insert(key::FLOOR.into(), json!(floor));
                m.insert(key::DEPTH.into(), depth.map(|d| json!(d)).unwrap_or(Json::Null));
            }
            Payload::RoomEntered { prefab } => {
                m.insert(key::PREFAB.into(), json!(prefab));
            }
            Payload::NpcTalked { npc } => {
                m.insert(key::NPC.into(), json!(npc));
            }
            Payload::QuestCompleted { quest } => {
                m.insert(key::QUEST.into(), json!(quest));
            }
            Payload::CombatEnded { outcome } => {
                m.insert(key::OUTCOME.into(), json!(outcome));
            }
            Payload::Raw(raw) => return raw.clone(),
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_payloads_read_like_their_json() {
        let p = Payload::AttackHit { weapon: None, damage_type: damage_type_name("fire"), critical: None };
        assert_eq!(p.str(key::DAMAGE_TYPE), Some("fire"));
        assert_eq!(p.shown(key::WEAPON).as_deref(), Some("null"));
        assert_eq!(p.shown(key::ITEM), None);
        assert_eq!(serde_json::to_string(&p.to_json()).unwrap(), r#"{"weapon":null,"damage_type":"fire"}"#);
        let p = Payload::ItemPickedUp { item: "core:gold".into(), count: 3, affixes: vec!["core:flaming".into()] };
        assert_eq!(serde_json::to_string(&p.to_json()).unwrap(), r#"{"item":"core:gold","count":3,"affixes":["core:flaming"]}"#);
        assert_eq!(p.shown(key::AFFIXES).as_deref(), Some(r#"["core:flaming"]"#));
        assert!(matches!(damage_type_name("physical"), Cow::Borrowed(_)));
        let p = Payload::AttackHit { weapon: None, damage_type: damage_type_name("physical"), critical: Some(true) };
        assert_eq!(serde_json::to_string(&p.to_json()).unwrap(), r#"{"weapon":null,"damage_type":"physical","critical":true}"#);
        assert_eq!(p.str(CRITICAL), None, "critical is no when field");
    }

    #[test]
    fn raw_payloads_answer_as_written() {
        let mut m = Map::new();
        m.insert("prefab".into(), json!("core:library"));
        m.insert("depth".into(), json!(3));
        let p = Payload::Raw(m.clone());
        assert_eq!(p.str("prefab"), Some("core:library"));
        assert_eq!(p.str("depth"), None);
        assert_eq!(p.shown("depth").as_deref(), Some("3"));
        assert_eq!(p.to_json(), m);
    }
}
