//! Reading attributes and conditions. Attributes are read, never cached: `(base + Σ add) ×
//! Π multiply` over the modifiers of the creature's entry, character options, equipped items and
//! their affixes, and active statuses whose condition holds against the read's opponent.

use std::collections::BTreeMap;

use rustkeep_data::model::{Condition, ConditionData, ModOp, Modifier, Who};
use rustkeep_data::vocab::{attr, Registry};

use super::{round_half_away, CreatureRef, Game, World};

/// Attribute reads nested deeper than this (a modifier whose condition reads an attribute whose
/// modifier's condition reads …) treat the inner condition as false instead of recursing forever.
const MAX_READ_DEPTH: u32 = 8;

impl Game {
    /// The entries whose modifiers and triggers a creature bears, in the order of docs/engine.md:
    /// creature entry, character options, equipped items (each followed by its affixes), statuses.
    pub fn bearers(&self, r: CreatureRef) -> Vec<(Registry, String)> {
        let Some(c) = self.creature(r) else { return Vec::new() };
        let mut out = Vec::new();
        if let Some(id) = &c.creature {
            out.push((Registry::Creatures, id.clone()));
        }
        for o in &c.options {
            out.push((Registry::CharacterOptions, o.clone()));
        }
        for i in c.inventory.iter().filter(|i| i.equipped) {
            out.push((Registry::Items, i.item.clone()));
            for a in &i.affixes {
                out.push((Registry::Affixes, a.clone()));
            }
        }
        for s in &c.statuses {
            out.push((Registry::Statuses, s.status.clone()));
        }
        out
    }

    /// `(base + Σ add) × Π multiply` (docs/engine.md, "Attributes"); `against` is the opponent of
    /// the read.
    pub fn attribute(&self, w: &World, who: CreatureRef, attr: &str, against: Option<CreatureRef>) -> f64 {
        self.attribute_at(w, who, attr, against, 0)
    }

    fn attribute_at(&self, w: &World, who: CreatureRef, attr: &str, against: Option<CreatureRef>, depth: u32) -> f64 {
        let Some(c) = self.creature(who) else { return 0.0 };
        let base = c.base.get(attr).copied().unwrap_or(0.0);
        let (mut add, mut mul) = (0.0, 1.0);
        for (reg, id) in self.bearers(who) {
            let Some(e) = w.entry(reg, &id) else { continue };
            for m in e.modifiers() {
                if m.attribute != attr || !self.modifier_holds(w, m, who, against, depth) {
                    continue;
                }
                match m.op {
                    ModOp::Add(a) => add += a,
                    ModOp::Multiply(x) => mul *= x,
                }
            }
        }
        (base + add) * mul
    }

    fn modifier_holds(&self, w: &World, m: &Modifier, who: CreatureRef, against: Option<CreatureRef>, depth: u32) -> bool {
        m.condition.iter().all(|c| self.holds(w, c, who, against, depth + 1))
    }

    /// The base attributes of a creature entry.
    pub fn creature_base(w: &World, id: &str) -> BTreeMap<String, f64> {
        w.entry(Registry::Creatures, id).map(|e| e.attributes().iter().map(|(k, v)| (k.value.clone(), *v)).collect()).unwrap_or_default()
    }

    /// Tags of a creature: its entry's and those of its equipped items.
    pub fn tags(&self, w: &World, r: CreatureRef) -> Vec<String> {
        let Some(c) = self.creature(r) else { return Vec::new() };
        let mut out = Vec::new();
        if let Some(e) = c.creature.as_deref().and_then(|id| w.entry(Registry::Creatures, id)) {
            out.extend(e.tags().iter().map(|t| t.value.clone()));
        }
        for i in c.inventory.iter().filter(|i| i.equipped) {
            if let Some(e) = w.entry(Registry::Items, &i.item) {
                out.extend(e.tags().iter().map(|t| t.value.clone()));
            }
        }
        out
    }

    pub fn item_count(&self, r: CreatureRef, item: &str) -> u64 {
        self.creature(r).map(|c| c.inventory.iter().filter(|i| i.item == item).map(|i| i.count as u64).sum()).unwrap_or(0)
    }

    /// Whether one condition holds (docs/data-language.md, "Conditions") with `me` as self and `other` as target. A check about an absent
    /// creature (no target; a removed enemy) is false, `not` or not.
    pub fn holds(&self, w: &World, c: &Condition, me: CreatureRef, other: Option<CreatureRef>, depth: u32) -> bool {
        if depth > MAX_READ_DEPTH {
            return false;
        }
        let (who, opp) = match c.who {
            Who::SelfBearer => (Some(me), other),
            Who::Target => (other, Some(me)),
        };
        let Some(who) = who else { return false };
        if self.creature(who).is_none() {
            return false;
        }
        let holds = match &c.data {
            ConditionData::HasTag { tag } => self.tags(w, who).contains(&tag.value),
            ConditionData::Attribute { attribute, at_least, below } => {
                let v = self.attribute_at(w, who, attribute, opp, depth);
                at_least.is_none_or(|a| v >= a) && below.is_none_or(|b| v < b)
            }
            ConditionData::HasItem { item, count } => self.item_count(who, &item.value) >= *count as u64,
            ConditionData::HealthBelow { value } => {
                let max = round_half_away(self.attribute_at(w, who, attr::MAX_HEALTH, None, depth)) as i64;
                let h = self.creature(who).map(|c| c.health).unwrap_or(0);
                max > 0 && (h as f64) / (max as f64) < *value
            }
        };
        holds != c.not
    }
}

/// `has_tag target core:rat`, `not attribute self level ≥ 3`, …
pub fn describe_condition(c: &Condition) -> String {
    let who = c.who.as_str();
    let body = match &c.data {
        ConditionData::HasTag { tag } => format!("has_tag {who} {}", tag.value),
        ConditionData::Attribute { attribute, at_least, below } => {
            let mut s = format!("attribute {who} {attribute}");
            if let Some(a) = at_least {
                s.push_str(&format!(" >= {a}"));
            }
            if let Some(b) = below {
                s.push_str(&format!(" < {b}"));
            }
            s
        }
        ConditionData::HasItem { item, count } => format!("has_item {who} {} x{count}", item.value),
        ConditionData::HealthBelow { value } => format!("health_below {who} {value}"),
    };
    if c.not {
        format!("not {body}")
    } else {
        body
    }
}
