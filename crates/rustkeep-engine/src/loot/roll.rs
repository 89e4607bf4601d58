//! Sampling: one evaluation of a table with the seeded generator, into reusable buffers.

use rustkeep_data::db::TableKind;
use rustkeep_data::model::Range;

use super::{ItemDrop, LootDb, LootError, Outcome, RawDrop, Scratch, TableRef, MAX_DRAWS};
use crate::rng::Rng;

impl LootDb {
    /// One evaluation of an item table (docs/loot.md, "One evaluation, step by step"). Refused or
    /// unknown tables give nothing; use [`LootDb::try_roll`] to learn why.
    pub fn roll(&self, table: &str, luck: f64, rng: &mut Rng) -> Vec<ItemDrop> {
        self.try_roll(table, luck, rng).unwrap_or_default()
    }

    pub fn try_roll(&self, table: &str, luck: f64, rng: &mut Rng) -> Result<Vec<ItemDrop>, LootError> {
        let t = self.table(table)?;
        if self.kind(t) != TableKind::Items {
            return Err(LootError::WrongKind { table: table.to_string(), kind: TableKind::Affixes });
        }
        let mut s = Scratch::default();
        self.roll_raw(t, self.p_extra(luck), rng, &mut s)?;
        Ok(s.drops
            .iter()
            .map(|d| ItemDrop {
                item: self.items[d.item as usize].to_string(),
                count: d.count,
                affixes: s.affixes_of(d).iter().map(|&a| self.affixes[a as usize].to_string()).collect(),
            })
            .collect())
    }

    /// One evaluation of an affix table: a set of affix IDs in ID order. Refused, unknown or item
    /// tables give nothing; use [`LootDb::try_roll_affixes`] to learn why.
    pub fn roll_affixes(&self, table: &str, luck: f64, rng: &mut Rng) -> Vec<String> {
        self.try_roll_affixes(table, luck, rng).unwrap_or_default()
    }

    pub fn try_roll_affixes(&self, table: &str, luck: f64, rng: &mut Rng) -> Result<Vec<String>, LootError> {
        let t = self.table(table)?;
        if self.tables[t.0 as usize].kind == Some(TableKind::Items) {
            return Err(LootError::WrongKind { table: table.to_string(), kind: TableKind::Items });
        }
        let mut s = Scratch::default();
        self.roll_raw(t, self.p_extra(luck), rng, &mut s)?;
        Ok(s.affixes.iter().map(|&a| self.affixes[a as usize].to_string()).collect())
    }

    /// One evaluation into reusable buffers: item tables fill `drops` (and their affixes), affix
    /// tables fill `affixes` with the evaluated set. Nested tables are evaluated after the table
    /// that names them (a work stack, not recursion); the order is fixed, so a seed repeats.
    pub fn roll_raw(&self, t: TableRef, p_extra: f64, rng: &mut Rng, s: &mut Scratch) -> Result<(), LootError> {
        s.drops.clear();
        s.affixes.clear();
        s.stack.clear();
        let mut work = 0u64;
        let done = if self.tables[t.0 as usize].kind == Some(TableKind::Affixes) {
            self.affix_set(t.0, p_extra, rng, s, &mut work)
        } else {
            self.item_eval(t.0, p_extra, rng, s, &mut work)
        };
        s.draws = work;
        done.map_err(|()| LootError::TooMuchWork { table: self.tables[t.0 as usize].id.clone() })
    }

    #[inline]
    fn roll_count(rolls: Range, p_extra: f64, rng: &mut Rng) -> u64 {
        let mut n = u64::from(rng.range_inclusive(rolls.min, rolls.max));
        if p_extra > 0.0 && rng.chance(p_extra) {
            n += 1;
        }
        n
    }

    fn item_eval(&self, root: u32, p_extra: f64, rng: &mut Rng, s: &mut Scratch, work: &mut u64) -> Result<(), ()> {
        s.stack.push(root);
        while let Some(ti) = s.stack.pop() {
            let tab = &self.tables[ti as usize];
            *work += tab.guaranteed.len() as u64;
            for o in &tab.guaranteed {
                self.give_item(*o, p_extra, rng, s, work)?;
            }
            let n = Self::roll_count(tab.rolls, p_extra, rng);
            let Some(w) = &tab.picker else { continue };
            *work += n;
            if *work > MAX_DRAWS {
                return Err(());
            }
            for _ in 0..n {
                let o = tab.weighted[rng.pick(w)];
                self.give_item(o, p_extra, rng, s, work)?;
            }
        }
        Ok(())
    }

    #[inline]
    fn give_item(&self, o: Outcome, p_extra: f64, rng: &mut Rng, s: &mut Scratch, work: &mut u64) -> Result<(), ()> {
        match o {
            Outcome::Item { item, count, affixes } => {
                let count = rng.range_inclusive(count.min, count.max);
                // Count 0 is no instance at all, so there is nothing to carry affixes either.
                if count == 0 {
                    return Ok(());
                }
                let start = s.affixes.len() as u32;
                if let Some(f) = affixes {
                    self.affix_set(f, p_extra, rng, s, work)?;
                }
                s.drops.push(RawDrop { item, count, affix_start: start, affix_end: s.affixes.len() as u32 });
            }
            Outcome::Table(u) => s.stack.push(u),
            Outcome::Affix(_) | Outcome::Nothing => {}
        }
        if *work > MAX_DRAWS {
            return Err(());
        }
        Ok(())
    }

    /// Evaluates an affix table, appending its set (sorted, each affix once) to `s.affixes`.
    fn affix_set(&self, root: u32, p_extra: f64, rng: &mut Rng, s: &mut Scratch, work: &mut u64) -> Result<(), ()> {
        let start = s.affixes.len();
        s.affix_stack.clear();
        s.affix_stack.push(root);
        while let Some(ti) = s.affix_stack.pop() {
            let tab = &self.tables[ti as usize];
            *work += tab.guaranteed.len() as u64;
            for o in &tab.guaranteed {
                match *o {
                    Outcome::Affix(a) => s.affixes.push(a),
                    Outcome::Table(u) => s.affix_stack.push(u),
                    _ => {}
                }
            }
            let n = Self::roll_count(tab.rolls, p_extra, rng);
            let Some(w) = &tab.picker else { continue };
            *work += n;
            if *work > MAX_DRAWS {
                return Err(());
            }
            for _ in 0..n {
                match tab.weighted[rng.pick(w)] {
                    Outcome::Affix(a) => s.affixes.push(a),
                    Outcome::Table(u) => s.affix_stack.push(u),
                    _ => {}
                }
            }
        }
        let tail = &mut s.affixes[start..];
        if tail.len() > 1 {
            tail.sort_unstable();
            let mut kept = 1;
            for i in 1..tail.len() {
                if tail[i] != tail[kept - 1] {
                    tail[kept] = tail[i];
                    kept += 1;
                }
            }
            s.affixes.truncate(start + kept);
        }
        Ok(())
    }
}
