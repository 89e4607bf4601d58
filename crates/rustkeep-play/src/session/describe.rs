//! What the player's screens describe in words: a tile under the look cursor, an item, the
//! character sheet with where each attribute comes from, the quest log. Read-only.

use rustkeep_data::grid::Pos;
use rustkeep_data::model::ModOp;
use rustkeep_data::vocab::{field, Registry, ATTRIBUTES};
use rustkeep_engine::floor::STAIRS;
use rustkeep_engine::game::{neutral_base, sell_price, shown, CreatureRef, ItemInstance};
use rustkeep_present::words;

use super::Session;
use crate::narrate::entry_name;

/// One attribute of the character sheet: its value, and each part of it with where it comes
/// from (`base 2`, `+3 Warrior (character option)`, `×0.85 Mage`, `+2 Grave Digger: only against
/// undead`).
#[derive(Clone, Debug, PartialEq)]
pub struct SheetRow {
    /// The attribute's name.
    pub attribute: &'static str,
    /// Its value now, without an opponent.
    pub value: f64,
    /// The base, then every modifier of it with its source.
    pub parts: Vec<String>,
    /// What the attribute does (from the vocabulary).
    pub doc: &'static str,
}

/// A quest in the log.
#[derive(Clone, Debug, PartialEq)]
pub struct QuestRow {
    /// The quest's ID.
    pub id: String,
    /// Its name.
    pub name: String,
    /// How often it has counted so far.
    pub count: u32,
    /// How often it must count.
    pub of: u32,
    /// Whether it is completed.
    pub done: bool,
    /// What it asks and what it gives, in words.
    pub about: String,
}

/// A registry's name in the sheet's sources.
fn kind(r: Registry) -> &'static str {
    match r {
        Registry::CharacterOptions => "character option",
        Registry::Items => "equipped",
        Registry::Affixes => "affix",
        Registry::Statuses => "status",
        Registry::Creatures => "creature",
        _ => r.noun(),
    }
}

impl Session {
    /// What the player knows of the tile at `p`, a line each, most important first.
    pub fn describe_tile(&self, p: Pos) -> Vec<String> {
        let Some(m) = self.g.map() else { return vec!["There is no map here.".into()] };
        if m.tile(p).is_none() {
            return vec!["Outside the floor.".into()];
        }
        if !m.remembered(p) {
            return vec!["You have not seen this place.".into()];
        }
        let ground = match m.tile(p) {
            Some('#') => "a wall",
            Some('+') => "a door",
            Some(STAIRS) => "the stairs down (walk onto them, or press >, to take them)",
            Some('.') => "floor",
            _ => "rock",
        };
        if !m.sight().contains(p) {
            return vec![format!("You remember {ground} here; you do not see it now.")];
        }
        let mut out = Vec::new();
        if m.player == p {
            out.push(format!("You ({} of {} health).", self.g.player().health, self.g.max_health(&self.w, CreatureRef::Player)));
        }
        if let Some(i) = m.enemy_at(p) {
            out.extend(self.describe_enemy(i));
        }
        if let Some(n) = m.npc_at(p) {
            out.push(format!("{} ({n}), someone to talk to: walk into them.", entry_name(&self.w, Registry::Npcs, n)));
        }
        if m.piles.iter().any(|x| x.pos == p) {
            out.push("A loot pile: step onto it to see what it holds.".into());
        }
        let items: Vec<String> = m.loot.iter().filter(|x| x.pos == p).map(|x| self.item_label(&x.item)).collect();
        if !items.is_empty() {
            out.push(format!("On the ground: {}.", items.join(", ")));
        }
        if let Some(r) = m.room_at(p).and_then(|r| m.rooms.get(r)) {
            let room = r.prefab.as_deref().map_or_else(|| "a bare room".to_string(), |id| entry_name(&self.w, Registry::Prefabs, id));
            out.push(format!("{} in {room}.", capital(ground)));
        } else {
            out.push(format!("{} in a corridor.", capital(ground)));
        }
        out
    }

    /// An enemy as look mode tells it: name, health, statuses, what it carries, how it behaves.
    fn describe_enemy(&self, i: usize) -> Vec<String> {
        let r = CreatureRef::Enemy(i);
        let Some(c) = self.g.creature(r) else { return Vec::new() };
        let creature = self.enemy_kinds.get(&i).cloned();
        let mut out = vec![format!(
            "{} (enemy:{i}{}): {} of {} health{}.",
            self.enemy_name(i),
            creature.as_deref().map(|c| format!(", {c}")).unwrap_or_default(),
            c.health,
            self.g.max_health(&self.w, r),
            if self.g.enemies().iter().any(|e| e.index == i && e.resident) { ", waiting in its room" } else { "" }
        )];
        if !c.statuses.is_empty() {
            let st: Vec<String> =
                c.statuses.iter().map(|s| format!("{} ({})", entry_name(&self.w, Registry::Statuses, &s.status), crate::narrate::turns(s.turns))).collect();
            out.push(format!("Statuses: {}.", st.join(", ")));
        }
        let carried: Vec<String> = c.inventory.iter().map(|x| format!("{}{}", self.item_label(x), if x.equipped { " (equipped)" } else { "" })).collect();
        out.push(if carried.is_empty() { "It carries nothing.".into() } else { format!("It carries {}.", carried.join(", ")) });
        if let Some(ai) = creature.as_deref().and_then(|id| words::creature_ai(&self.w, id)) {
            out.push(ai);
        }
        out
    }

    /// An item the player carries, in words: what it is, its slot, modifiers, use and triggers,
    /// and what a shop pays for it.
    pub fn describe_item(&self, i: &ItemInstance) -> Vec<String> {
        let mut out = vec![format!("{} ({})", self.item_label(i), i.item)];
        out.extend(words::item(&self.w, &i.item));
        for a in &i.affixes {
            if let Some(e) = self.w.entry(Registry::Affixes, a) {
                for m in e.modifiers() {
                    out.push(format!("{}: {}", entry_name(&self.w, Registry::Affixes, a), words::modifier(&self.w, m, words::Bearer::Player)));
                }
            }
        }
        if i.item != rustkeep_data::vocab::CURRENCY {
            out.push(format!("A shop pays {} gold for one.", sell_price(&self.w, i)));
        }
        out
    }

    /// The character sheet with the sources of every attribute.
    pub fn sheet_rows(&self) -> Vec<SheetRow> {
        let me = CreatureRef::Player;
        let bearers = self.g.bearers(&self.w, me);
        ATTRIBUTES
            .iter()
            .map(|(attribute, doc)| {
                let value = self.g.attribute(&self.w, me, attribute, None);
                let base = self.g.player().base.get(*attribute).copied().unwrap_or_else(|| neutral_base(attribute));
                let mut parts = vec![format!("base {}", shown(base))];
                for e in &bearers {
                    let name = e.key().map_or_else(|| "?".to_string(), |k| entry_name(&self.w, e.registry, &k.value));
                    for m in e.modifiers().iter().filter(|m| m.attribute == *attribute) {
                        let op = match m.op {
                            ModOp::Add(a) => format!("{}{}", if a >= 0.0 { "+" } else { "" }, shown(a)),
                            ModOp::Multiply(x) => format!("×{}", shown(x)),
                        };
                        let when = if m.condition.is_empty() {
                            String::new()
                        } else {
                            let c: Vec<String> = m.condition.iter().map(|c| words::condition(&self.w, c, words::Bearer::Player)).collect();
                            format!(", only when {}", c.join(" and "))
                        };
                        parts.push(format!("{op} {name} ({}){when}", kind(e.registry)));
                    }
                }
                SheetRow { attribute, value, parts, doc }
            })
            .collect()
    }

    /// The quest log: started quests, open ones first, with what each asks.
    pub fn quest_rows(&self) -> Vec<QuestRow> {
        let mut rows: Vec<QuestRow> = self
            .g
            .quests()
            .iter()
            .map(|q| QuestRow {
                id: q.quest.clone(),
                name: entry_name(&self.w, Registry::Quests, &q.quest),
                count: q.count,
                of: self.w.quest_count(&q.quest),
                done: q.done,
                about: words::quest(&self.w, &q.quest).unwrap_or_default(),
            })
            .collect();
        rows.sort_by_key(|r| r.done);
        rows
    }

    /// An item's `slot`, if it has one.
    pub fn slot_of(&self, item: &str) -> Option<&str> {
        self.w.entry(Registry::Items, item).and_then(|e| e.str(field::SLOT))
    }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}
