//! Frequencies over many sampled evaluations (`rustkeep loot --samples`), shaped like the exact
//! report so the two can be compared line by line.

use rustkeep_data::db::TableKind;
use rustkeep_data::hash::FxHashMap as HashMap;

use super::exact::pair_key;
use super::{sort_affixes, sort_drops, AffixStat, DropStat, LootDb, LootError, SampleReport, Scratch};
use crate::rng::Rng;

impl LootDb {
    /// Frequencies over `n` sampled evaluations with generator seed `seed` (the `--samples` check
    /// of `rustkeep loot`): per outcome the share of evaluations with at least one and the mean
    /// count, per (item, affix) the share with at least one such instance.
    pub fn sample(&self, table: &str, luck: f64, n: u64, seed: u64) -> Result<SampleReport, LootError> {
        let t = self.table(table)?;
        let p_extra = self.p_extra(luck);
        let kind = self.kind(t);
        let mut rng = Rng::seeded(seed);
        let mut s = Scratch::default();
        let width = if kind == TableKind::Affixes { self.affixes.len() } else { self.items.len() };
        // Per outcome: evaluations with at least one, total count, last evaluation seen.
        let mut hits = vec![0u64; width];
        let mut totals = vec![0u64; width];
        let mut seen = vec![u64::MAX; width];
        let mut pair_hits: HashMap<u64, (u64, u64)> = HashMap::default();
        for i in 0..n {
            self.roll_raw(t, p_extra, &mut rng, &mut s)?;
            if kind == TableKind::Affixes {
                for &a in &s.affixes {
                    hits[a as usize] += 1;
                    totals[a as usize] += 1;
                }
                continue;
            }
            for d in &s.drops {
                let k = d.item as usize;
                totals[k] += u64::from(d.count);
                if seen[k] != i {
                    seen[k] = i;
                    hits[k] += 1;
                }
                for &a in s.affixes_of(d) {
                    let slot = pair_hits.entry(pair_key(d.item, a)).or_insert((0, u64::MAX));
                    if slot.1 != i {
                        slot.1 = i;
                        slot.0 += 1;
                    }
                }
            }
        }
        let denom = n.max(1) as f64;
        let mut pairs: HashMap<u32, Vec<AffixStat>> = HashMap::default();
        for (k, (h, _)) in pair_hits {
            let (item, affix) = ((k >> 32) as u32, k as u32);
            pairs.entry(item).or_default().push(AffixStat { id: self.affixes[affix as usize].clone(), p_any: h as f64 / denom });
        }
        let mut drops: Vec<DropStat> = (0..width)
            .filter(|&k| hits[k] > 0)
            .map(|k| {
                let name = if kind == TableKind::Affixes { &self.affixes[k] } else { &self.items[k] };
                let mut affixes = pairs.remove(&(k as u32)).unwrap_or_default();
                sort_affixes(&mut affixes);
                DropStat { id: name.clone(), p_any: hits[k] as f64 / denom, expected: totals[k] as f64 / denom, affixes }
            })
            .collect();
        sort_drops(&mut drops);
        Ok(SampleReport { n, seed, drops })
    }
}
