//! What a scenario step or a console command does besides the data actions: attack, pick up,
//! talk, enter a room or floor, use and equip an item.

use super::{round_half_away, CreatureRef, Game, World};
use crate::effect::{Effect, Outcome, Reason, Weapon};
use crate::payload::{damage_type_name, Payload};
use rustkeep_data::vocab::{attr, damage, field, glyph, slot, EventKind, Registry};

impl Game {
    /// An attack (docs/engine.md, "Combat"): the hit roll, then `attack_hit` and the damage at
    /// once (a critical hit multiplies the amount first); a miss raises nothing.
    pub(super) fn attack(&mut self, w: &World, attacker: CreatureRef, victim: Option<CreatureRef>) -> Effect {
        let Some(victim) = victim else { return Effect::NoEffect(Reason::NothingToAttack) };
        if !self.alive(attacker) {
            return Effect::NoEffect(Reason::AttackerDown(attacker));
        }
        if !self.alive(victim) {
            return Effect::NoEffect(Reason::DeadOrGone(victim));
        }
        // Attacking a resident enemy (one left alone after the player fled) wakes the room.
        let rejoined = if attacker == CreatureRef::Player { self.rejoin_residents(victim) } else { None };
        let balance = &w.db.resolved.balance;
        let p = hit_chance(
            self.attribute(w, attacker, attr::ACCURACY, Some(victim)),
            self.attribute(w, victim, attr::EVASION, Some(attacker)),
            balance.hit_per_point,
            balance.min_hit,
        );
        // Certain hits draw nothing, so fights without accuracy or evasion keep their rolls.
        if p < 1.0 && !self.rng.chance(p) {
            return self.note(|| Effect::Missed { rejoined, attacker, victim, chance: shown_chance(p) });
        }
        let (weapon, dtype) = self.weapon(w, attacker);
        let mut amount = round_half_away(self.attribute(w, attacker, attr::DAMAGE, Some(victim))).max(0.0) as u32;
        let crit = self.attribute(w, attacker, attr::CRIT_CHANCE, Some(victim));
        let crit = if crit.is_nan() { 0.0 } else { crit.clamp(0.0, 1.0) };
        let critical = (crit > 0.0).then(|| self.rng.chance(crit));
        if critical == Some(true) {
            let times = balance.crit_multiplier;
            amount = round_half_away(f64::from(amount) * if times.is_finite() { times.max(0.0) } else { 1.0 }).min(f64::from(u32::MAX)) as u32;
        }
        self.push(EventKind::AttackHit, attacker, Some(victim), Payload::AttackHit { weapon: weapon.clone(), damage_type: damage_type_name(&dtype), critical });
        let effect = if amount == 0 {
            // A zero-damage hit still lands: damage_taken { amount = 0 }.
            self.push(EventKind::DamageTaken, victim, Some(attacker), Payload::DamageTaken { amount: 0, damage_type: damage_type_name(&dtype) });
            self.note(|| Effect::Damaged { victim, amount: 0, damage_type: dtype.clone(), left: None })
        } else {
            self.deal_damage(w, attacker, victim, amount, &dtype)
        };
        if !self.tracing {
            return Effect::Untraced;
        }
        let weapon = match (weapon, attacker) {
            (Some(w), _) => Weapon::Item(w),
            (None, CreatureRef::Player) => Weapon::BareHands,
            (None, _) => Weapon::Own,
        };
        Effect::Hit { rejoined, attacker, victim, weapon, amount, critical: critical == Some(true), damage: Box::new(effect) }
    }

    /// The equipped weapon and the damage type of an attack: a creature's own `damage_type`, or
    /// the player's first equipped item in the weapon slot.
    pub fn weapon(&self, w: &World, r: CreatureRef) -> (Option<String>, String) {
        let Some(c) = self.creature(r) else { return (None, damage::PHYSICAL.into()) };
        let mut found: Option<(Option<String>, String)> = None;
        let is_creature = c.creature.is_some();
        self.visit_bearers(w, r, |e| {
            if found.is_some() {
                return;
            }
            let own = is_creature && e.registry == Registry::Creatures;
            let weapon = !is_creature && e.registry == Registry::Items && e.str(field::SLOT) == Some(slot::WEAPON);
            if own || weapon {
                let dt = e.str(field::DAMAGE_TYPE).unwrap_or(damage::PHYSICAL).to_string();
                found = Some((weapon.then(|| e.key().map(|k| k.value.clone())).flatten(), dt));
            }
        });
        found.unwrap_or_else(|| (None, damage::PHYSICAL.into()))
    }

    pub(super) fn pickup(&mut self, w: &World, who: CreatureRef) -> Effect {
        let piles = std::mem::take(&mut self.piles);
        let mut rolled = Vec::new();
        for table in piles {
            let drops = self.roll(w, &table);
            if self.tracing {
                rolled.push((table, drops.clone()));
            }
            self.floor_loot.extend(drops);
        }
        let items = std::mem::take(&mut self.floor_loot);
        // On a map: what lies on the player's own tile too.
        let mut got = if who == CreatureRef::Player { self.pick_up_here(w) } else { Vec::new() };
        for i in items {
            got.push(self.give(w, who, &i.item, i.count, i.affixes));
        }
        self.note(|| Effect::PickedUp { rolled, got })
    }

    pub(super) fn talk(&mut self, w: &World, who: CreatureRef, npc: &str) -> Outcome {
        let Some(e) = w.entry(Registry::Npcs, npc) else { return Outcome::act(Effect::NoEffect(Reason::NotA { id: npc.to_string(), noun: "an NPC" })) };
        let actions: Vec<_> = e.actions(field::ON_TALK).to_vec();
        let mut effects = Vec::new();
        for a in &actions {
            effects.push(self.apply_action(w, &a.data, who, None));
        }
        self.push(EventKind::NpcTalked, who, None, Payload::NpcTalked { npc: npc.to_string() });
        Outcome::with_actions(self.note(|| Effect::Talked { who, npc: npc.to_string() }), effects)
    }

    pub(super) fn enter(&mut self, w: &World, id: &str) -> Effect {
        if let Some(p) = w.entry(Registry::Prefabs, id) {
            // A played run has a map: the prefab becomes the room the player stands in.
            if self.dungeon.is_some() {
                return self.enter_prefab_in_dungeon(w, id);
            }
            let rows = p.grid().map(|g| g.rows.clone()).unwrap_or_default();
            let piles = rows.iter().map(|r| r.chars().filter(|c| *c == glyph::LOOT_PILE).count()).sum::<usize>();
            let foes = rows.iter().map(|r| r.chars().filter(|c| *c == glyph::ENEMY).count()).sum::<usize>();
            let floor = self.floor.as_deref().and_then(|f| w.entry(Registry::Floors, f));
            let table = p.reference(field::LOOT).or_else(|| floor.and_then(|f| f.reference(field::LOOT))).map(|r| r.value.clone());
            let fauna: Vec<String> = floor.map(|f| f.ref_list(field::CREATURES).iter().map(|c| c.value.clone()).collect()).unwrap_or_default();
            let mut shown_piles = None;
            let mut appeared = Vec::new();
            match (&table, piles) {
                (_, 0) => {}
                (Some(t), n) => {
                    self.piles.extend(std::iter::repeat_n(t.clone(), n));
                    shown_piles = Some((n, t.clone()));
                }
                (None, n) => self
                    .warnings
                    .push(format!("step {}: room {id} has {n} loot pile(s) but neither it nor the floor has a loot table; they stay empty", self.step)),
            }
            if foes > 0 {
                if fauna.is_empty() {
                    self.warnings.push(format!("step {}: room {id} has {foes} `e` glyph(s) but no floor creatures to draw from; none appear", self.step));
                } else {
                    for _ in 0..foes {
                        let c = fauna[self.rng.below(fauna.len() as u64) as usize].clone();
                        let r = self.add_enemies(w, &c, 1);
                        appeared.push((r[0], c));
                    }
                }
            }
            self.room = Some(id.into());
            self.push(EventKind::RoomEntered, CreatureRef::Player, None, Payload::RoomEntered { prefab: id.to_string() });
            return self.note(|| Effect::EnteredRoom { room: id.to_string(), piles: shown_piles, appeared });
        }
        if let Some(f) = w.entry(Registry::Floors, id) {
            // A played run has a map: the floor is laid out, as on the way down.
            if let Some(entered) = self.enter_floor_in_dungeon(w, id) {
                return entered;
            }
            let depth = f.int(field::DEPTH);
            self.floor = Some(id.into());
            self.room = None;
            self.push(EventKind::FloorEntered, CreatureRef::Player, None, Payload::FloorEntered { floor: id.to_string(), depth });
            return self.note(|| Effect::EnteredFloor { floor: id.to_string(), room: None });
        }
        Effect::NoEffect(Reason::NotARoom(id.to_string()))
    }

    pub(super) fn use_item(&mut self, w: &World, who: CreatureRef, item: &str) -> Outcome {
        if self.item_count(who, item) == 0 {
            return Outcome::act(Effect::NoEffect(Reason::HoldsNo { who, item: item.to_string() }));
        }
        let Some(e) = w.entry(Registry::Items, item) else { return Outcome::act(Effect::NoEffect(Reason::NotA { id: item.to_string(), noun: "an item" })) };
        let actions: Vec<_> = e.actions(field::USE).to_vec();
        // Using consumes one (an item with `use` is a consumable).
        self.take(who, item, 1);
        let mut effects = Vec::new();
        for a in &actions {
            effects.push(self.apply_action(w, &a.data, who, None));
        }
        self.push(EventKind::ItemUsed, who, None, Payload::ItemUsed { item: item.to_string() });
        Outcome::with_actions(self.note(|| Effect::Used { who, item: item.to_string() }), effects)
    }

    pub(super) fn equip(&mut self, w: &World, who: CreatureRef, item: &str) -> Effect {
        let Some(slot) = w.entry(Registry::Items, item).and_then(|e| e.str(field::SLOT)).map(str::to_string) else {
            return Effect::NoEffect(Reason::NoSlot(item.to_string()));
        };
        let slots: Vec<Option<String>> = self
            .creature(who)
            .map(|c| c.inventory.iter().map(|i| w.entry(Registry::Items, &i.item).and_then(|e| e.str(field::SLOT)).map(str::to_string)).collect())
            .unwrap_or_default();
        let Some(c) = self.creature_mut(who) else { return Effect::NoEffect(Reason::Gone(who)) };
        let Some(pos) = c.inventory.iter().position(|i| i.item == item && !i.equipped) else {
            return Effect::NoEffect(Reason::HoldsNoUnequipped { who, item: item.to_string() });
        };
        let mut off = Vec::new();
        for (i, inst) in c.inventory.iter_mut().enumerate() {
            if inst.equipped && slots.get(i).cloned().flatten().as_deref() == Some(slot.as_str()) {
                inst.equipped = false;
                off.push(inst.item.clone());
            }
        }
        if c.inventory[pos].count > 1 {
            c.inventory[pos].count -= 1;
            let mut one = c.inventory[pos].clone();
            one.count = 1;
            one.equipped = true;
            c.inventory.push(one);
        } else {
            c.inventory[pos].equipped = true;
        }
        // A stackable item taken off joins an unequipped stack of its kind again.
        let mut i = 0;
        while i < c.inventory.len() {
            let inst = &c.inventory[i];
            let joins = !inst.equipped && w.stackable(&inst.item);
            match c.inventory[..i].iter().position(|o| joins && !o.equipped && o.item == inst.item && o.affixes == inst.affixes) {
                Some(into) => {
                    let n = c.inventory.remove(i).count;
                    c.inventory[into].count = c.inventory[into].count.saturating_add(n);
                }
                None => i += 1,
            }
        }
        self.bearers_changed(who);
        self.note(|| Effect::Equipped { who, item: item.to_string(), slot, off })
    }
}

/// The chance that an attack hits: `clamp(1 + (accuracy − evasion) × hit_per_point, min_hit, 1)`.
/// A `min_hit` above 1 makes every attack hit; values that are no numbers count as a sure hit
/// (the data cannot write them, and a sure hit draws nothing).
pub fn hit_chance(accuracy: f64, evasion: f64, hit_per_point: f64, min_hit: f64) -> f64 {
    let p = 1.0 + (accuracy - evasion) * hit_per_point;
    if p.is_nan() {
        return 1.0;
    }
    p.max(if min_hit.is_nan() { 0.0 } else { min_hit }).min(1.0)
}

/// A chance as traces show it: at most four decimals, without trailing zeros (`0.85`, not
/// `0.8500000000000001`).
pub fn shown_chance(p: f64) -> String {
    rustkeep_data::number::trimmed(p, 4)
}
