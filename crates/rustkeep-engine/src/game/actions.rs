//! The nine data actions, as [`Game::apply`] and the triggers run them.

use super::{round_half_away, Creature, CreatureRef, Enemy, Game, ItemInstance, QuestProgress, StatusInstance, World};
use crate::effect::{Effect, Outcome, Reason, Rejoined};
use crate::payload::{damage_type_name, Payload};
use rustkeep_data::model::{ActionData, Who};
use rustkeep_data::text::thousands;
use rustkeep_data::vocab::{attr, damage, field, outcome, resistance_of, EventKind, Registry, MAX_CARRIED, MAX_LIVING_ENEMIES};

impl Game {
    pub(super) fn apply_action(&mut self, w: &World, a: &ActionData, me: CreatureRef, other: Option<CreatureRef>) -> Outcome {
        let name = a.kind().name();
        let who = a.target().map(|t| match t {
            Who::SelfBearer => Some(me),
            Who::Target => other,
        });
        // Every action is named here, without a catch-all: a new action does not compile until
        // it has an effect. A targeted action whose target is absent is skipped, and so is one
        // whose target is dead at this moment (docs/engine.md, "Actions aimed at the dead"): a
        // status put on the creature the same blow killed, or a reward paid to a dead player,
        // would otherwise land on someone no longer in the fight.
        let queued = self.events.len();
        let target = who.flatten();
        let dead = target.is_some_and(|t| self.creature(t).is_some_and(|c| c.health <= 0));
        let target = if dead { None } else { target };
        let skipped = || if dead { Effect::TargetDead } else { Effect::NoTarget };
        let effect = match a {
            ActionData::Damage { amount, damage_type, .. } => target.map_or_else(skipped, |t| self.deal_damage(w, me, t, *amount, damage_type)),
            ActionData::Heal { amount, .. } => target.map_or_else(skipped, |t| self.heal(w, t, *amount)),
            ActionData::GiveItem { item, count, .. } => target.map_or_else(skipped, |t| self.give(w, t, &item.value, *count, Vec::new())),
            ActionData::TakeItem { item, count, .. } => target.map_or_else(skipped, |t| self.take(t, &item.value, *count)),
            ActionData::ApplyStatus { status, turns, .. } => target.map_or_else(skipped, |t| self.apply_status(w, t, &status.value, *turns)),
            ActionData::Spawn { creature, count } => self.spawn(w, &creature.value, *count, me),
            ActionData::StartQuest { quest } => self.start_quest(w, &quest.value),
            ActionData::Flee => self.flee(me),
            ActionData::OpenShop { shop } => {
                // `play` shows the trade screen (rolling the stock on the first opening); a dry
                // run only records the opening.
                self.open_shop = Some(shop.value.clone());
                self.note(|| Effect::ShopOpened(shop.value.clone()))
            }
        };
        // The trigger graph and `self-feeding-trigger` know what an action raises only from the
        // `emits` of its row: debug builds (every test) stop when the two disagree.
        debug_assert!(
            self.events.iter().skip(queued).all(|e| a.kind().def().emits.contains(&e.kind)),
            "`{name}` raised an event its row in vocab::ACTIONS does not list in `emits`"
        );
        Outcome { action: Some(a.kind()), target: who, effect, actions: None }
    }

    /// Damage (docs/engine.md, "Combat"): resistance, then armour for physical damage.
    pub(super) fn deal_damage(&mut self, w: &World, dealer: CreatureRef, victim: CreatureRef, amount: u32, dtype: &str) -> Effect {
        match self.creature(victim) {
            None => return Effect::NoEffect(Reason::Gone(victim)),
            Some(c) if c.health <= 0 => return Effect::NoEffect(Reason::AlreadyDead(victim)),
            _ => {}
        }
        let res = resistance_of(dtype).map_or(0.0, |a| self.attribute(w, victim, a, Some(dealer)).clamp(0.0, 0.9));
        let armor = if dtype == damage::PHYSICAL { self.attribute(w, victim, attr::ARMOR, Some(dealer)) } else { 0.0 };
        let taken = round_half_away((round_half_away(amount as f64 * (1.0 - res)) - armor).max(0.0)) as i64;
        let c = self.creature_mut(victim).expect("checked above");
        c.health = (c.health - taken).max(0);
        let left = c.health;
        self.push(EventKind::DamageTaken, victim, Some(dealer), Payload::DamageTaken { amount: taken, damage_type: damage_type_name(dtype) });
        if left == 0 {
            self.dead_to_remove = true;
            let killer = (dealer != victim).then_some(dealer);
            if matches!(victim, CreatureRef::Enemy(_)) {
                self.kills += 1;
            }
            self.push(EventKind::CreatureDied, victim, killer, Payload::None);
            let loot = self
                .creature(victim)
                .and_then(|c| c.creature.clone())
                .and_then(|id| w.entry(Registry::Creatures, &id)?.reference(field::LOOT).map(|r| r.value.clone()));
            let mut shown = None;
            if let Some(table) = loot {
                let drops = self.roll(w, &table);
                if self.tracing {
                    shown = Some((table, drops.clone()));
                }
                self.drop_loot(victim, drops);
            }
            self.note(|| Effect::Died { victim, amount: taken, damage_type: dtype.to_string(), loot: shown })
        } else {
            self.note(|| Effect::Damaged { victim, amount: taken, damage_type: dtype.to_string(), left: Some(left) })
        }
    }

    /// Rolls a loot table with the player's luck.
    pub fn roll(&mut self, w: &World, table: &str) -> Vec<ItemInstance> {
        let luck = self.attribute(w, CreatureRef::Player, attr::LUCK, None);
        w.loot
            .roll(table, luck, &mut self.rng)
            .into_iter()
            .map(|d| ItemInstance { item: d.item, count: d.count, affixes: d.affixes, equipped: false })
            .filter(|i| i.count > 0)
            .collect()
    }

    fn heal(&mut self, w: &World, t: CreatureRef, amount: u32) -> Effect {
        let max = self.max_health(w, t);
        let Some(c) = self.creature_mut(t) else { return Effect::NoEffect(Reason::Gone(t)) };
        if c.health <= 0 {
            return Effect::NoEffect(Reason::Dead(t));
        }
        let before = c.health;
        c.health = (c.health + amount as i64).min(max.max(c.health));
        let (healed, now) = (c.health - before, c.health);
        self.note(|| Effect::Healed { who: t, amount: healed, now, max })
    }

    /// Gives items; one `item_picked_up` on the receiver.
    pub fn give(&mut self, w: &World, t: CreatureRef, item: &str, count: u32, affixes: Vec<String>) -> Effect {
        if count == 0 {
            return Effect::NothingGiven;
        }
        let entry = w.entry(Registry::Items, item);
        let stackable = w.stackable(item);
        // Character creation equips what the options give into empty slots (first come, first
        // equipped), without an event of its own.
        let equip_slot = if self.creating && t == CreatureRef::Player { entry.and_then(|e| e.str(field::SLOT)) } else { None };
        let equip = equip_slot.is_some_and(|slot| !self.slot_taken(w, t, slot));
        let Some(c) = self.creature_mut(t) else { return Effect::NoEffect(Reason::Gone(t)) };
        // Every item that does not stack is one more to carry: a gift past the bound would make
        // a run's memory whatever the data says.
        let more = if stackable { 1 } else { count as usize };
        if c.inventory.len().saturating_add(more) > MAX_CARRIED {
            let carried = c.inventory.len();
            self.stop(format!(
                "the run stops in step {}: {} more items would make {} carried by {t}, more than the {} one creature carries",
                self.step.saturating_sub(1),
                thousands(more as u64),
                thousands(carried.saturating_add(more) as u64),
                thousands(MAX_CARRIED as u64)
            ));
            return Effect::NoEffect(Reason::TooManyItems(count));
        }
        if stackable {
            if let Some(i) = c.inventory.iter_mut().find(|i| i.item == item && i.affixes == affixes && !i.equipped) {
                i.count = i.count.saturating_add(count);
            } else {
                c.inventory.push(ItemInstance { item: item.into(), count, affixes: affixes.clone(), equipped: false });
            }
        } else {
            for k in 0..count {
                c.inventory.push(ItemInstance { item: item.into(), count: 1, affixes: affixes.clone(), equipped: equip && k == 0 });
            }
        }
        if equip {
            self.bearers_changed(t);
        }
        let described = self.note(|| Effect::Received { who: t, item: item.to_string(), count, affixes: affixes.clone() });
        self.push(EventKind::ItemPickedUp, t, None, Payload::ItemPickedUp { item: item.to_string(), count, affixes });
        described
    }

    pub(super) fn take(&mut self, t: CreatureRef, item: &str, count: u32) -> Effect {
        let Some(c) = self.creature_mut(t) else { return Effect::NoEffect(Reason::Gone(t)) };
        let mut left = count;
        // Unequipped stacks go first; the last instances go first among equals.
        for pass in [false, true] {
            for i in c.inventory.iter_mut().rev().filter(|i| i.item == item && i.equipped == pass) {
                let n = left.min(i.count);
                i.count -= n;
                left -= n;
            }
        }
        c.inventory.retain(|i| i.count > 0);
        self.bearers_changed(t);
        self.note(|| Effect::Lost { who: t, item: item.to_string(), count: count - left })
    }

    fn apply_status(&mut self, w: &World, t: CreatureRef, status: &str, turns: Option<u32>) -> Effect {
        let dflt = w.entry(Registry::Statuses, status).and_then(|e| e.int(field::TURNS)).unwrap_or(1).clamp(1, u32::MAX as i64) as u32;
        let turns = turns.unwrap_or(dflt);
        let Some(c) = self.creature_mut(t) else { return Effect::NoEffect(Reason::Gone(t)) };
        let refreshed = if let Some(s) = c.statuses.iter_mut().find(|s| s.status == status) {
            s.turns = turns;
            true
        } else {
            c.statuses.push(StatusInstance { status: status.into(), turns });
            self.bearers_changed(t);
            false
        };
        self.note(|| Effect::Status { who: t, status: status.to_string(), turns, refreshed })
    }

    /// Adds enemies; returns their refs.
    /// Whether `count` more enemies may appear: at most [`MAX_LIVING_ENEMIES`] live at once. When
    /// not, the run stops (docs/engine.md, "Bounded work").
    pub fn room_for_enemies(&mut self, count: u32) -> bool {
        let living = self.enemies.len();
        if living.saturating_add(count as usize) <= MAX_LIVING_ENEMIES {
            return true;
        }
        self.stop(format!(
            "the run stops in step {}: {count} more enemies would make {} living at once, more than the {} a game holds",
            self.step.saturating_sub(1),
            thousands(living.saturating_add(count as usize) as u64),
            thousands(MAX_LIVING_ENEMIES as u64)
        ));
        false
    }

    /// Stops the run at a limit that keeps its work bounded: it is over, and the warnings say why.
    pub fn stop(&mut self, why: String) {
        self.over = true;
        self.stopped = Some(why.clone());
        self.warnings.push(why);
    }

    pub fn add_enemies(&mut self, w: &World, creature: &str, count: u32) -> Vec<CreatureRef> {
        let mut out = Vec::new();
        for _ in 0..count {
            let index = self.next_enemy;
            self.next_enemy += 1;
            // Its base attributes are read from its entry (docs/engine.md, "Attributes").
            let body = Creature { creature: Some(creature.into()), ..Creature::default() };
            self.enemies.push(Enemy { index, body, resident: false, energy: 0.0 });
            let r = CreatureRef::Enemy(index);
            let max = self.max_health(w, r);
            if let Some(c) = self.creature_mut(r) {
                c.health = max;
            }
            // A creature whose health is 0 is born dead.
            self.dead_to_remove |= max <= 0;
            out.push(r);
        }
        out
    }

    /// `spawn` by `spawner`: the new enemies stand on the free tiles nearest to it, or in answer to
    /// a `creature_died` nearest to where the dead creature stood (docs/engine.md, "The map").
    fn spawn(&mut self, w: &World, creature: &str, count: u32, spawner: CreatureRef) -> Effect {
        let spawner = self.died.unwrap_or(spawner);
        // On a map each newcomer stands on a tile of its own: as many come as there are free tiles.
        let tiles = self.spawn_tiles(spawner, count as usize);
        let count = tiles.as_ref().map_or(count, |t| t.len() as u32);
        if count == 0 {
            return Effect::NoEffect(Reason::NoFreeTile);
        }
        if !self.room_for_enemies(count) {
            return Effect::NoEffect(Reason::TooManyEnemies(count));
        }
        let refs = self.add_enemies(w, creature, count);
        self.place_on_map(&refs, spawner, tiles.unwrap_or_default());
        let combat_started = !self.combat && !refs.is_empty();
        if combat_started {
            self.combat = true;
            self.push(EventKind::CombatStarted, CreatureRef::Player, None, Payload::None);
        }
        self.note(|| Effect::Spawned { creature: creature.to_string(), refs, combat_started })
    }

    pub fn start_quest(&mut self, w: &World, quest: &str) -> Effect {
        if self.quests.iter().any(|q| q.quest == quest) {
            return Effect::QuestAlreadyStarted(quest.to_string());
        }
        if !w.exists(Registry::Quests, quest) {
            return Effect::NoEffect(Reason::NotA { id: quest.to_string(), noun: "a quest" });
        }
        self.quests.push(QuestProgress { quest: quest.into(), count: 0, done: false });
        self.note(|| Effect::QuestStarted(quest.to_string()))
    }

    /// `flee`, done by its source: the player's ends the combat, an enemy's takes that enemy
    /// out of the game (docs/engine.md, "Fleeing").
    fn flee(&mut self, who: CreatureRef) -> Effect {
        let CreatureRef::Enemy(index) = who else { return self.player_flees() };
        let Some(at) = self.enemy_slot(index) else { return Effect::NoEffect(Reason::Gone(who)) };
        if self.enemies[at].body.health <= 0 {
            return Effect::NoEffect(Reason::Dead(who));
        }
        // It escapes: no creature_died, no loot, and its ref is never given again.
        self.enemies.remove(at);
        self.escapes += 1;
        self.bearers_changed(who);
        self.forget_removed_enemies();
        Effect::Escaped(who)
    }

    /// The player's flight: the combat ends as fled, and the enemies that fought stay where they
    /// are, left alone (residents) until the player attacks one of them or, on a map, enters the
    /// room they belong to (the last room each stood in).
    fn player_flees(&mut self) -> Effect {
        let mut left = 0;
        for e in self.enemies.iter_mut().filter(|e| e.body.health > 0 && !e.resident) {
            e.resident = true;
            e.energy = 0.0;
            left += 1;
        }
        let combat = self.combat;
        if combat {
            self.combat = false;
            self.push(EventKind::CombatEnded, CreatureRef::Player, None, Payload::CombatEnded { outcome: outcome::FLED });
        }
        Effect::Fled { left, combat }
    }

    /// When the player attacks a resident, the residents join the fight again (a combat starts
    /// if none is running): every resident without a map; on a map, those of the victim's room.
    /// Returns what happened, for the attack's effect.
    pub(super) fn rejoin_residents(&mut self, victim: CreatureRef) -> Option<Rejoined> {
        let CreatureRef::Enemy(index) = victim else { return None };
        if !self.enemy_slot(index).is_some_and(|at| self.enemies[at].resident) {
            return None;
        }
        let homes = self.map().map(|m| m.homes.clone());
        let room = self.home_of(victim);
        let mut woken = Vec::new();
        for e in self.enemies.iter_mut().filter(|e| e.resident) {
            let same_room = e.index == index || homes.as_ref().is_none_or(|h| room.is_some() && h.get(&e.index).copied() == room);
            if same_room {
                e.resident = false;
                e.energy = 0.0;
                woken.push(CreatureRef::Enemy(e.index));
            }
        }
        let combat_started = !self.combat;
        if combat_started {
            self.combat = true;
            self.push(EventKind::CombatStarted, CreatureRef::Player, None, Payload::None);
        }
        Some(Rejoined { woken, combat_started })
    }
}
