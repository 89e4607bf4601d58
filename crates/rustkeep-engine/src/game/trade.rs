//! Shops (docs/engine.md, "Shops"). `open_shop` records the shop it opens; `play` then shows its
//! trade screen. A shop's stock is rolled from its `stock` table the first time it opens in a run
//! and kept for the run. Buying one item costs `round(price × Π price_factor of its affixes × the
//! shop's price_factor)` gold, at least 1, and gives it (`item_picked_up`); selling one gives
//! `floor(price × Π price_factor of its affixes ÷ 2)` gold and puts it into the stock. Trading
//! takes no turn: a trade is a free action, worked off under a cap of its own.

use rustkeep_data::vocab::{field, Registry, CURRENCY, EVENT_CAP};

use super::{round_half_away, CreatureRef, Game, ItemInstance, World};
use crate::effect::{Effect, Outcome, Reason};
use crate::trace::{StepTrace, Trace};

/// What the player does at a shop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trade {
    /// Buy one of the stock entry at this index.
    Buy(usize),
    /// Sell one of the inventory entry at this index.
    Sell(usize),
}

/// Π price_factor of an instance's affixes (an affix without the field counts 1).
fn affix_factor(w: &World, inst: &ItemInstance) -> f64 {
    inst.affixes.iter().map(|a| w.entry(Registry::Affixes, a).and_then(|e| e.float(field::PRICE_FACTOR)).unwrap_or(1.0)).product()
}

fn base_price(w: &World, item: &str) -> f64 {
    w.entry(Registry::Items, item).and_then(|e| e.int(field::PRICE)).unwrap_or(0) as f64
}

/// What buying one of `inst` at `shop` costs.
pub fn buy_price(w: &World, shop: &str, inst: &ItemInstance) -> u64 {
    let shop_factor = w.entry(Registry::Shops, shop).and_then(|e| e.float(field::PRICE_FACTOR)).unwrap_or(1.0);
    (round_half_away(base_price(w, &inst.item) * affix_factor(w, inst) * shop_factor).max(1.0)) as u64
}

/// What selling one of `inst` brings.
pub fn sell_price(w: &World, inst: &ItemInstance) -> u64 {
    (base_price(w, &inst.item) * affix_factor(w, inst) / 2.0).floor().max(0.0) as u64
}

impl Game {
    /// The stock of a shop, rolled on its first opening in the run (play's trade screen calls
    /// this when a shop opens).
    pub fn open_stock(&mut self, w: &World, shop: &str) -> &[ItemInstance] {
        if !self.shops.contains_key(shop) {
            let table = w.entry(Registry::Shops, shop).and_then(|e| e.reference(field::STOCK)).map(|r| r.value.clone());
            let rolled = table.map(|t| self.roll(w, &t)).unwrap_or_default();
            // The same item with the same affixes is one line of stock, however many rolls gave it.
            let mut stock: Vec<ItemInstance> = Vec::with_capacity(rolled.len());
            for i in rolled {
                match stock.iter_mut().find(|s| s.item == i.item && s.affixes == i.affixes) {
                    Some(s) => s.count = s.count.saturating_add(i.count),
                    None => stock.push(i),
                }
            }
            self.shops.insert(shop.to_string(), stock);
        }
        &self.shops[shop]
    }

    /// The gold the player holds.
    pub fn gold(&self) -> u64 {
        self.item_count(CreatureRef::Player, CURRENCY)
    }

    /// One trade at `shop`, with its own trace (no turn passes).
    pub fn trade(&mut self, w: &World, shop: &str, t: Trade) -> StepTrace {
        self.trace = Trace::default();
        let effect = self.trade_effect(w, shop, t);
        self.work_off(w);
        if self.trace.dropped > 0 {
            self.warnings.push(format!("event cap ({EVENT_CAP}) reached in a trade: {} events dropped", self.trace.dropped));
        }
        let act = match t {
            Trade::Buy(i) => format!("player buys stock entry {i} at {shop}"),
            Trade::Sell(i) => format!("player sells inventory entry {i} at {shop}"),
        };
        let events = std::mem::take(&mut self.trace.events);
        StepTrace { step: self.step, source: None, act, effects: vec![effect], events, before_act: 0 }
    }

    fn trade_effect(&mut self, w: &World, shop: &str, t: Trade) -> Outcome {
        Outcome::act(self.trade_done(w, shop, t))
    }

    fn trade_done(&mut self, w: &World, shop: &str, t: Trade) -> Effect {
        self.open_stock(w, shop);
        match t {
            Trade::Buy(i) => {
                let Some(inst) = self.shops[shop].get(i).cloned() else { return Effect::NoEffect(Reason::NoStockEntry { shop: shop.to_string(), index: i }) };
                let price = buy_price(w, shop, &inst);
                let gold = self.gold();
                if gold < price {
                    return Effect::CannotAfford { item: inst.item, price, gold };
                }
                self.take(CreatureRef::Player, CURRENCY, price as u32);
                let stock = self.shops.get_mut(shop).expect("opened above");
                if stock[i].count > 1 {
                    stock[i].count -= 1;
                } else {
                    stock.remove(i);
                }
                let got = self.give(w, CreatureRef::Player, &inst.item, 1, inst.affixes.clone());
                Effect::Bought { item: inst.item, price, got: Box::new(got) }
            }
            Trade::Sell(i) => {
                let Some(inst) = self.player.inventory.get(i).cloned() else {
                    return Effect::NoEffect(Reason::NoInventoryEntry(i));
                };
                if inst.item == CURRENCY {
                    return Effect::NoEffect(Reason::Currency(CURRENCY));
                }
                let price = sell_price(w, &inst);
                let one = ItemInstance { count: 1, equipped: false, ..inst.clone() };
                let p = &mut self.player.inventory[i];
                if p.count > 1 {
                    p.count -= 1;
                } else {
                    self.player.inventory.remove(i);
                }
                self.bearers_changed(CreatureRef::Player);
                let stock = self.shops.get_mut(shop).expect("opened above");
                match stock.iter_mut().find(|s| s.item == one.item && s.affixes == one.affixes) {
                    Some(s) => s.count = s.count.saturating_add(1),
                    None => stock.push(one),
                }
                self.add_gold(w, price);
                Effect::Sold { item: inst.item, price }
            }
        }
    }

    /// Adds gold to the player's purse (selling raises no event: the player hands an item over).
    fn add_gold(&mut self, w: &World, amount: u64) {
        if amount == 0 {
            return;
        }
        let amount = amount.min(u32::MAX as u64) as u32;
        let stackable = w.entry(Registry::Items, CURRENCY).and_then(|e| e.bool(field::STACKABLE)).unwrap_or(true);
        let inv = &mut self.player.inventory;
        match inv.iter_mut().find(|i| i.item == CURRENCY && i.affixes.is_empty() && !i.equipped) {
            Some(i) if stackable => i.count = i.count.saturating_add(amount),
            _ => inv.push(ItemInstance { item: CURRENCY.into(), count: amount, affixes: Vec::new(), equipped: false }),
        }
    }
}
