//! Reading attributes and conditions. Attributes are read, never cached: `(base + Σ add) ×
//! Π multiply` over the modifiers of the creature's entry, character options, equipped items and
//! their affixes, and active statuses whose condition holds against the read's opponent.

use rustkeep_data::model::{Condition, ConditionData, Entry, ModOp, Modifier, Who};
use rustkeep_data::vocab::{attr, Registry};

use super::{round_half_away, Creature, CreatureRef, Game, World};
use rustkeep_data::resolve::EntryRef;

/// Attribute reads nested deeper than this (a modifier whose condition reads an attribute whose
/// modifier's condition reads …) treat the inner condition as false instead of recursing forever.
const MAX_READ_DEPTH: u32 = 8;

impl Game {
    /// Calls `f` with every entry whose modifiers and triggers a creature bears, in the order of
    /// docs/engine.md: creature entry, character options, equipped items (each followed by its
    /// affixes), statuses. IDs without an entry in force are passed over.
    ///
    /// Attributes are read, never cached, but which entries a creature bears is looked up once and
    /// remembered ([`BearerCache`]) until its IDs change: a fight reads attributes hundreds of
    /// times, and finding an entry by its ID costs a hash lookup each time.
    pub fn visit_bearers<'w>(&self, w: &'w World, r: CreatureRef, mut f: impl FnMut(&'w Entry)) {
        let Some(c) = self.creature(r) else { return };
        // Copied out of the cache before `f` runs: `f` may read attributes, which come back here.
        let mut refs = [None; INLINE_BEARERS];
        let mut more: Vec<EntryRef> = Vec::new();
        let mut n = 0;
        self.bearer_cache.with(r, c, w, |cached| {
            for e in cached.iter().flatten() {
                if n < INLINE_BEARERS {
                    refs[n] = Some(*e);
                } else {
                    more.push(*e);
                }
                n += 1;
            }
        });
        for e in refs.iter().flatten().chain(more.iter()) {
            f(w.db.entry(*e));
        }
    }

    /// The bearers of [`Game::visit_bearers`], collected (the event queue needs them while it
    /// changes the state).
    pub fn bearers<'w>(&self, w: &'w World, r: CreatureRef) -> Vec<&'w Entry> {
        let mut out = Vec::with_capacity(8);
        self.visit_bearers(w, r, |e| out.push(e));
        out
    }

    /// `(base + Σ add) × Π multiply` (docs/engine.md, "Attributes"); `against` is the opponent of
    /// the read.
    pub fn attribute(&self, w: &World, who: CreatureRef, attr: &str, against: Option<CreatureRef>) -> f64 {
        self.attribute_at(w, who, attr, against, 0)
    }

    fn attribute_at(&self, w: &World, who: CreatureRef, attr: &str, against: Option<CreatureRef>, depth: u32) -> f64 {
        let Some(c) = self.creature(who) else { return 0.0 };
        // The base: the creature's own value (the player's, or one a save recorded), else its
        // creature entry's `attributes`, else 0.
        let mut base = c.base.get(attr).copied();
        let from_entry = base.is_none() && c.creature.is_some();
        let (mut add, mut mul) = (0.0, 1.0);
        self.visit_bearers(w, who, |e| {
            if from_entry && base.is_none() && e.registry == Registry::Creatures {
                base = e.attributes().iter().find(|(k, _)| k.value == attr).map(|(_, v)| *v);
            }
            for m in e.modifiers() {
                if m.attribute != attr || !self.modifier_holds(w, m, who, against, depth) {
                    continue;
                }
                match m.op {
                    ModOp::Add(a) => add += a,
                    ModOp::Multiply(x) => mul *= x,
                }
            }
        });
        (base.unwrap_or_else(|| neutral_base(attr)) + add) * mul
    }

    fn modifier_holds(&self, w: &World, m: &Modifier, who: CreatureRef, against: Option<CreatureRef>, depth: u32) -> bool {
        m.condition.iter().all(|c| self.holds(w, c, who, against, depth + 1))
    }

    /// Whether a creature carries a tag: its entry's or one of its equipped items'.
    pub fn has_tag(&self, w: &World, r: CreatureRef, tag: &str) -> bool {
        let Some(c) = self.creature(r) else { return false };
        let carries = |e: Option<&Entry>| e.is_some_and(|e| e.tags().iter().any(|t| t.value == tag));
        carries(c.creature.as_deref().and_then(|id| w.entry(Registry::Creatures, id)))
            || c.inventory.iter().filter(|i| i.equipped).any(|i| carries(w.entry(Registry::Items, &i.item)))
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
            ConditionData::HasTag { tag } => self.has_tag(w, who, &tag.value),
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

/// The base of an attribute that neither the creature nor its entry sets: the value that changes
/// nothing. Speed 1 is the pace of every creature; everything else starts at 0.
pub fn neutral_base(attribute: &str) -> f64 {
    if attribute == attr::SPEED {
        1.0
    } else {
        0.0
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

/// Bearers kept on the stack by [`Game::visit_bearers`] before it needs the heap.
const INLINE_BEARERS: usize = 12;

/// The IDs a creature's bearers come from, in their order.
fn bearer_ids(c: &Creature) -> impl Iterator<Item = (Registry, &str)> {
    c.creature
        .iter()
        .map(|id| (Registry::Creatures, id.as_str()))
        .chain(c.options.iter().map(|o| (Registry::CharacterOptions, o.as_str())))
        .chain(
            c.inventory
                .iter()
                .filter(|i| i.equipped)
                .flat_map(|i| std::iter::once((Registry::Items, i.item.as_str())).chain(i.affixes.iter().map(|a| (Registry::Affixes, a.as_str())))),
        )
        .chain(c.statuses.iter().map(|s| (Registry::Statuses, s.status.as_str())))
}

/// The entries each creature's bearer IDs resolved to, remembered until the creature changes.
/// Every change to a creature's options, equipped items (and their affixes) or statuses goes
/// through a [`Game`] method that calls [`Game::bearers_changed`]; debug builds (every test) check
/// each remembered list against a fresh lookup, so a forgotten call fails the tests instead of
/// reading stale entries. A game's own: not saved, and empty after loading (the data may differ).
#[derive(Clone, Debug, Default)]
pub struct BearerCache(std::cell::RefCell<rustkeep_data::hash::FxHashMap<CreatureRef, Vec<Option<EntryRef>>>>);

fn resolve_bearers(c: &Creature, w: &World) -> Vec<Option<EntryRef>> {
    bearer_ids(c).map(|(reg, id)| w.db.resolved.get(reg, id).map(|d| d.current)).collect()
}

impl BearerCache {
    fn with(&self, r: CreatureRef, c: &Creature, w: &World, f: impl FnOnce(&[Option<EntryRef>])) {
        let mut all = self.0.borrow_mut();
        let bearers = all.entry(r).or_insert_with(|| resolve_bearers(c, w));
        debug_assert_eq!(
            *bearers,
            resolve_bearers(c, w),
            "the remembered bearers of {r} are stale: whatever changed its options, equipped items or statuses must call Game::bearers_changed"
        );
        f(bearers);
    }

    fn forget(&self, r: CreatureRef) {
        self.0.borrow_mut().remove(&r);
    }
}

impl Game {
    /// Forgets which entries a creature bears: call it after changing its options, equipped
    /// items or statuses (the engine's own methods do).
    pub fn bearers_changed(&self, r: CreatureRef) {
        self.bearer_cache.forget(r);
    }
}
