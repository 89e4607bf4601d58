//! The exact analysis: per table and outcome, the probability that one evaluation yields at
//! least one of it, in closed form as a union of independent events, and the expected counts by
//! linearity.

use std::sync::Arc;

use rustkeep_data::db::TableKind;
use rustkeep_data::hash::{FxHashMap as HashMap, Interner};
use rustkeep_data::model::Range;

use super::{sort_affixes, sort_drops, AffixStat, DropStat, LootDb, LootError, LootReport, Outcome, TableRef};

/// Per-table exact statistics: for each outcome, the probability of at least one in one
/// evaluation and the expected count (`p` and `e`, aligned); pairs (item, affix) keyed as
/// `item << 32 | affix`. Plain lists: they are only ever walked, never looked up.
#[derive(Debug, Default)]
struct Stats {
    p: Vec<(u32, f64)>,
    e: Vec<f64>,
    pair: Vec<(u64, f64)>,
}

/// Two sums per outcome key, kept in the order the keys first appear, over a table of positions
/// by key: a table's statistics touch as many keys as it reaches, while a hash map per table and
/// per sum made the exact analysis of a long chain a hash-map workload. Reused from table to
/// table (clearing resets exactly the keys that were touched).
#[derive(Debug, Default)]
struct Sums {
    /// Position + 1 in `keys` by key, 0 where the key has no sum.
    pos: Vec<u32>,
    keys: Vec<u32>,
    vals: Vec<(f64, f64)>,
}

impl Sums {
    fn with_keys(n: usize) -> Sums {
        Sums { pos: vec![0; n], keys: Vec::new(), vals: Vec::new() }
    }

    fn slot(&mut self, k: u32) -> &mut (f64, f64) {
        let ki = k as usize;
        if ki >= self.pos.len() {
            self.pos.resize(ki + 1, 0);
        }
        let at = match self.pos[ki] {
            0 => {
                self.keys.push(k);
                self.vals.push((0.0, 0.0));
                self.pos[ki] = self.keys.len() as u32;
                self.keys.len() - 1
            }
            p => p as usize - 1,
        };
        &mut self.vals[at]
    }

    fn clear(&mut self) {
        for &k in &self.keys {
            self.pos[k as usize] = 0;
        }
        self.keys.clear();
        self.vals.clear();
    }
}

/// The sums one table's statistics need, reused across the tables of one analysis (the pair
/// maps too: cleared, they keep their room).
#[derive(Debug, Default)]
struct Scratch {
    /// Per outcome: the probability of at least one and the expected count.
    table: Sums,
    /// Per outcome, over the weighted entries: `d` (the chance that one roll yields it) and the
    /// expected count of one roll.
    roll: Sums,
    p_pair: HashMap<u64, f64>,
    d_pair: HashMap<u64, f64>,
    /// Whether the (item, affix) pairs are computed (see [`KeptStats::drops_only`]).
    pairs: bool,
}

impl Scratch {
    fn new(keys: usize, pairs: bool) -> Scratch {
        Scratch { table: Sums::with_keys(keys), roll: Sums::with_keys(keys), p_pair: HashMap::default(), d_pair: HashMap::default(), pairs }
    }
}

/// The statistics of each table of one analysis, by table number.
type Memo = Vec<Option<Arc<Stats>>>;

/// Item and affix numbers kept from one compilation to the next ([`LootDb::reaching`]).
#[derive(Debug, Default)]
pub(super) struct Numbering {
    pub(super) items: Interner,
    pub(super) affixes: Interner,
}

/// Per-table statistics kept from one exact analysis to the next, for a caller that analyses
/// again and again while the data changes a little (the language server's hover after an edit).
/// A table's statistics are reused when the table compiles to the same thing as when they were
/// computed and the statistics of the tables it nests are the very ones they were computed from
/// (each computation has a serial number); so an edit recomputes the tables above the edited
/// one, not the whole chain below them. Nothing has to be told what changed: reuse is
/// decided by comparing, so the result is always the same as a fresh analysis.
#[derive(Debug, Default)]
pub struct KeptStats {
    pub(super) numbering: Numbering,
    tables: HashMap<String, Kept>,
    p_extra: f64,
    /// Outcomes held, summed over the kept tables (for [`KEPT_MAX`]).
    size: usize,
    /// The serial of the last statistics computed.
    serial: u64,
    /// Reports without affix chances ([`KeptStats::drops_only`]).
    drops_only: bool,
    /// How many times the numbering started over ([`KeptStats::trim`]): a database compiled
    /// with an earlier numbering cannot use this one.
    pub(super) generation: u64,
}

/// Beyond this many outcomes (or names) kept, everything kept is dropped before the next
/// compilation, which starts over.
const KEPT_MAX: usize = 250_000;

impl KeptStats {
    /// Drops everything when too much is kept (see [`KEPT_MAX`]), and says whether it did: the
    /// numbering starts over then, and databases compiled before no longer match it.
    pub(super) fn trim(&mut self) -> bool {
        let over = self.size > KEPT_MAX || self.numbering.items.len() + self.numbering.affixes.len() > KEPT_MAX;
        if over {
            *self = KeptStats { drops_only: self.drops_only, generation: self.generation + 1, ..KeptStats::default() };
        }
        over
    }

    /// Statistics for reports of drop chances only: the chances of items carrying each affix
    /// (a report's `affixes` lists) are left out, and so is the third or so of the work that
    /// computes them — for a caller that shows the drops alone (the language server's hover).
    pub fn drops_only() -> KeptStats {
        KeptStats { drops_only: true, ..KeptStats::default() }
    }
}

#[derive(Debug)]
struct Kept {
    shape: Shape,
    stats: Arc<Stats>,
    /// Which computation made `stats` (unique within a [`KeptStats`]).
    serial: u64,
    /// The serials of the nested tables' statistics `stats` was computed from, in outcome order.
    children: Vec<u64>,
}

/// What a table's statistics are computed from, with nested tables named instead of numbered
/// (table numbers differ from one compilation to the next; item and affix numbers do not).
#[derive(Debug, PartialEq)]
struct Shape {
    kind: Option<TableKind>,
    rolls: Range,
    picker: bool,
    weights: Vec<u64>,
    outcomes: Vec<ShapeOutcome>,
}

#[derive(Debug, PartialEq)]
enum ShapeOutcome {
    Item {
        item: u32,
        count: Range,
        affixes: Option<String>,
    },
    Table(String),
    Affix(u32),
    Nothing,
    /// Where the guaranteed entries end and the weighted ones begin.
    Split,
}

/// Probability that a count drawn uniformly from `r` is at least 1.
fn p_count_positive(r: Range) -> f64 {
    if r.max == 0 {
        0.0
    } else if r.min >= 1 {
        1.0
    } else {
        // min = 0: every value but 0 of the max + 1 values.
        f64::from(r.max) / (f64::from(r.max) + 1.0)
    }
}

fn mean(r: Range) -> f64 {
    (f64::from(r.min) + f64::from(r.max)) / 2.0
}

/// `ln E_n[(1 − d)^n]` where `d` is the probability that one roll yields the outcome and `n` is
/// uniform on `rolls`, plus one with probability `p_extra`:
/// `E_n[x^n] = (1 − p_extra·d) · x^a · (1 − x^m) / (m · d)` with `x = 1 − d`, `m = b − a + 1`.
/// The geometric sum is evaluated through `ln_1p`/`exp_m1`, exact for tiny `d` and huge `m`.
/// [`RollChance`] uses it where the roll counts are too large for its sums.
fn ln_none_from_rolls(d: f64, rolls: Range, p_extra: f64) -> f64 {
    if d.is_nan() || d <= 0.0 {
        return 0.0;
    }
    let d = d.min(1.0);
    let a = f64::from(rolls.min);
    let m = f64::from(rolls.max.max(rolls.min) - rolls.min) + 1.0;
    // ln(1 − 0·d) is −0, which adds nothing.
    let extra = if p_extra == 0.0 { -0.0 } else { (-p_extra * d).ln_1p() };
    if d >= 1.0 {
        // x = 0: only n = 0 yields none, which needs a = 0 (probability 1/m) and no extra roll.
        return if rolls.min == 0 { extra - m.ln() } else { f64::NEG_INFINITY };
    }
    let ln_x = (-d).ln_1p();
    let head = if rolls.min == 0 { 0.0 } else { a * ln_x };
    let sum = if m == 1.0 { 0.0 } else { (-(m * ln_x).exp_m1()).ln() - (m * d).ln() };
    head + sum + extra
}

/// Roll counts up to this bound are summed term by term ([`RollChance`]); larger ones go through
/// logarithms.
const SUMMED_ROLLS: u32 = 64;

/// The probability that a table's rolls yield an outcome at least once, as a function of `d`,
/// the probability that one roll yields it: `1 − E[x^n']` with `x = 1 − d` and `n'` the number
/// of rolls (uniform on `a..=b`, plus one with probability `p_extra`).
///
/// For up to [`SUMMED_ROLLS`] rolls it is the polynomial `d · Σ_i P(n' > i) · x^i` (from
/// `1 − x^j = d · Σ_{i<j} x^i`), whose coefficients — `1` below `a`, `(b − i + p_extra) / m`
/// from `a` to `b`, with `m = b − a + 1` — are computed once per table. Every term is
/// non-negative, so nothing cancels: it is exact to the last bits for tiny `d` as well as for
/// `d` near 1, with a few multiplications per outcome instead of four transcendental functions
/// (the exact analysis of a long chain spends most of its time here). Larger roll counts use
/// [`ln_none_from_rolls`].
// Made on the stack once per table and never moved: boxing the coefficients would allocate per
// table for nothing.
#[allow(clippy::large_enum_variant)]
enum RollChance {
    /// `P(n' > i)` for `i = 0, 1, …` (at most `SUMMED_ROLLS + 1` of them).
    Sum {
        tail: [f64; SUMMED_ROLLS as usize + 1],
        len: usize,
    },
    Logs {
        rolls: Range,
        p_extra: f64,
    },
}

impl RollChance {
    fn new(rolls: Range, p_extra: f64) -> RollChance {
        let (a, b) = (rolls.min, rolls.max.max(rolls.min));
        if b > SUMMED_ROLLS {
            return RollChance::Logs { rolls, p_extra };
        }
        let m = f64::from(b - a) + 1.0;
        let mut tail = [0.0; SUMMED_ROLLS as usize + 1];
        for (i, t) in (0..=b).zip(&mut tail) {
            *t = if i < a { 1.0 } else { (f64::from(b - i) + p_extra) / m };
        }
        // P(n' > b) is p_extra / m: a last term only when there is an extra roll.
        let len = if p_extra > 0.0 { b as usize + 1 } else { b as usize };
        RollChance::Sum { tail, len }
    }

    #[inline]
    fn p_some(&self, d: f64) -> f64 {
        if d.is_nan() || d <= 0.0 {
            return 0.0;
        }
        let d = d.min(1.0);
        match self {
            RollChance::Sum { tail, len } => {
                let x = 1.0 - d;
                let sum = tail[..*len].iter().rev().fold(0.0, |acc, &t| acc * x + t);
                (d * sum).clamp(0.0, 1.0)
            }
            RollChance::Logs { rolls, p_extra } => (-ln_none_from_rolls(d, *rolls, *p_extra).exp_m1()).clamp(0.0, 1.0),
        }
    }
}

/// The probability of either of two independent events of probabilities `p` and `q`:
/// `1 − (1 − p)(1 − q)`, as a sum of non-negative terms.
fn union(p: f64, q: f64) -> f64 {
    p + q * (1.0 - p)
}

/// Adds an independent chance `p` of the outcome `key` of a pair map.
fn add_union_pair(map: &mut HashMap<u64, f64>, key: u64, p: f64) {
    let acc = map.entry(key).or_insert(0.0);
    *acc = union(*acc, p.clamp(0.0, 1.0));
}

pub(super) fn pair_key(item: u32, affix: u32) -> u64 {
    (u64::from(item) << 32) | u64::from(affix)
}

impl LootDb {
    /// The exact chances of one evaluation of `table` with `luck` (`rustkeep loot`).
    pub fn analyze(&self, table: &str, luck: f64) -> Result<LootReport, LootError> {
        let t = self.table(table)?;
        Ok(self.root_report(t.0, luck, None))
    }

    /// The report of table `t`, from the statistics of every table below it.
    fn root_report(&self, t: u32, luck: f64, kept: Option<&mut KeptStats>) -> LootReport {
        let p_extra = self.p_extra(luck);
        let memo = self.exact_stats(t, p_extra, kept);
        let stats = memo[t as usize].as_ref().expect("the root's statistics are computed");
        self.report(t, stats, luck, p_extra)
    }

    /// [`LootDb::analyze`], reusing the statistics `kept` holds from earlier analyses where the
    /// tables did not change, and keeping the new ones. This database must have been compiled
    /// with `kept` ([`LootDb::reaching`]). The result equals [`LootDb::analyze`]'s, without
    /// the affix chances for [`KeptStats::drops_only`].
    pub fn analyze_kept(&self, table: &str, luck: f64, kept: &mut KeptStats) -> Result<LootReport, LootError> {
        let t = self.table(table)?;
        if self.generation != Some(kept.generation) {
            // Compiled with another numbering: nothing kept can be matched, nothing kept.
            let mut fresh = KeptStats { drops_only: kept.drops_only, ..KeptStats::default() };
            return Ok(self.root_report(t.0, luck, Some(&mut fresh)));
        }
        let p_extra = self.p_extra(luck);
        if kept.p_extra.to_bits() != p_extra.to_bits() {
            kept.tables.clear();
            kept.size = 0;
            kept.p_extra = p_extra;
        }
        Ok(self.root_report(t.0, luck, Some(kept)))
    }

    /// Whether table `t` compiled to `shape` ([`LootDb::shape`] without building one).
    fn has_shape(&self, t: u32, shape: &Shape) -> bool {
        let tab = &self.tables[t as usize];
        let name = |u: u32| self.tables[u as usize].id.as_str();
        let same = |o: &Outcome, s: &ShapeOutcome| match (*o, s) {
            (Outcome::Item { item, count, affixes }, ShapeOutcome::Item { item: i, count: c, affixes: a }) => {
                item == *i && count == *c && affixes.map(name) == a.as_deref()
            }
            (Outcome::Table(u), ShapeOutcome::Table(n)) => name(u) == n,
            (Outcome::Affix(a), ShapeOutcome::Affix(b)) => a == *b,
            (Outcome::Nothing, ShapeOutcome::Nothing) => true,
            _ => false,
        };
        let g = tab.guaranteed.len();
        tab.kind == shape.kind
            && tab.rolls == shape.rolls
            && tab.picker.is_some() == shape.picker
            && tab.weights == shape.weights
            && shape.outcomes.len() == g + 1 + tab.weighted.len()
            && shape.outcomes[g] == ShapeOutcome::Split
            && tab.guaranteed.iter().zip(&shape.outcomes[..g]).all(|(o, s)| same(o, s))
            && tab.weighted.iter().zip(&shape.outcomes[g + 1..]).all(|(o, s)| same(o, s))
    }

    /// What table `t`'s statistics are computed from (see [`Shape`]).
    fn shape(&self, t: u32) -> Shape {
        let tab = &self.tables[t as usize];
        let name = |u: u32| self.tables[u as usize].id.clone();
        let out = |o: &Outcome| match *o {
            Outcome::Item { item, count, affixes } => ShapeOutcome::Item { item, count, affixes: affixes.map(name) },
            Outcome::Table(u) => ShapeOutcome::Table(name(u)),
            Outcome::Affix(a) => ShapeOutcome::Affix(a),
            Outcome::Nothing => ShapeOutcome::Nothing,
        };
        let outcomes = tab.guaranteed.iter().map(out).chain(std::iter::once(ShapeOutcome::Split)).chain(tab.weighted.iter().map(out)).collect();
        Shape { kind: tab.kind, rolls: tab.rolls, picker: tab.picker.is_some(), weights: tab.weights.clone(), outcomes }
    }

    /// The exact chances of every table, sharing nested tables' statistics: each table is
    /// computed once, children first, and a child's statistics are released as soon as every
    /// table nesting it is done — linear time and little memory for packs of long chains, where
    /// analysing tables one by one would redo each chain below every table.
    pub fn analyze_all(&self, luck: f64) -> Vec<(String, Result<LootReport, LootError>)> {
        let p_extra = self.p_extra(luck);
        let n = self.tables.len();
        let children = |t: usize| -> Vec<u32> {
            let tab = &self.tables[t];
            let mut c: Vec<u32> = tab
                .guaranteed
                .iter()
                .chain(&tab.weighted)
                .filter_map(|o| match *o {
                    Outcome::Table(u) | Outcome::Item { affixes: Some(u), .. } => Some(u),
                    _ => None,
                })
                .collect();
            c.sort_unstable();
            c.dedup();
            c
        };
        let evaluable = |t: usize| self.tables[t].refusal.is_none();
        let mut parents_left = vec![0u32; n];
        for t in (0..n).filter(|&t| evaluable(t)) {
            for c in children(t) {
                parents_left[c as usize] += 1;
            }
        }
        // Post-order over every evaluable table with an explicit stack (no recursion).
        let mut order = Vec::with_capacity(n);
        let mut state = vec![0u8; n]; // 0 new, 1 open, 2 done
        for root in (0..n).filter(|&t| evaluable(t)) {
            let mut stack = vec![(root as u32, false)];
            while let Some((t, closing)) = stack.pop() {
                let ti = t as usize;
                if closing {
                    state[ti] = 2;
                    order.push(t);
                    continue;
                }
                if state[ti] != 0 {
                    continue;
                }
                state[ti] = 1;
                stack.push((t, true));
                for c in children(ti) {
                    if state[c as usize] == 0 {
                        stack.push((c, false));
                    }
                }
            }
        }
        let mut reports: Vec<Option<Result<LootReport, LootError>>> = (0..n).map(|_| None).collect();
        let mut memo: Memo = vec![None; n];
        let mut scratch = Scratch::new(self.key_count(), true);
        for t in order {
            let stats = self.table_stats(t, p_extra, &memo, &mut scratch);
            reports[t as usize] = Some(Ok(self.report(t, &stats, luck, p_extra)));
            memo[t as usize] = Some(Arc::new(stats));
            for c in children(t as usize) {
                let left = &mut parents_left[c as usize];
                *left = left.saturating_sub(1);
                if *left == 0 {
                    memo[c as usize] = None;
                }
            }
            if parents_left[t as usize] == 0 {
                memo[t as usize] = None;
            }
        }
        self.tables
            .iter()
            .enumerate()
            .map(|(i, tab)| {
                let r = match &tab.refusal {
                    Some(e) => Err(e.clone()),
                    None => reports[i].take().unwrap_or_else(|| Err(LootError::UnknownTable { id: tab.id.clone(), suggestion: None })),
                };
                (tab.id.clone(), r)
            })
            .collect()
    }

    /// A report from a table's statistics.
    fn report(&self, t: u32, root: &Stats, luck: f64, p_extra: f64) -> LootReport {
        let kind = self.kind(TableRef(t));
        let mut pairs: HashMap<u32, Vec<AffixStat>> = HashMap::default();
        for &(k, p) in &root.pair {
            let (item, affix) = ((k >> 32) as u32, k as u32);
            pairs.entry(item).or_default().push(AffixStat { id: self.affixes[affix as usize].clone(), p_any: p });
        }
        let mut drops: Vec<DropStat> = root
            .p
            .iter()
            .zip(&root.e)
            .map(|(&(k, p), &expected)| {
                let name = if kind == TableKind::Affixes { &self.affixes[k as usize] } else { &self.items[k as usize] };
                let mut affixes = pairs.remove(&k).unwrap_or_default();
                sort_affixes(&mut affixes);
                DropStat { id: name.clone(), p_any: p, expected, affixes }
            })
            .collect();
        sort_drops(&mut drops);
        LootReport { table: self.tables[t as usize].id.clone(), kind, luck, p_extra, drops }
    }

    /// Statistics of `root` and every table below it, children first (an explicit post-order,
    /// so depth costs heap, not stack). Each table is computed once — or taken from `kept` when
    /// it is unchanged there and every table below it was taken too.
    fn exact_stats(&self, root: u32, p_extra: f64, mut kept: Option<&mut KeptStats>) -> Memo {
        let n = self.tables.len();
        let mut memo: Memo = vec![None; n];
        // Per table: the serial of its statistics in `kept` (kept mode only).
        let mut serial = vec![0u64; n];
        let mut scratch = Scratch::new(self.key_count(), kept.as_deref().is_none_or(|k| !k.drops_only));
        let mut stack: Vec<(u32, bool)> = vec![(root, false)];
        let children = |t: u32| {
            let tab = &self.tables[t as usize];
            tab.guaranteed.iter().chain(&tab.weighted).filter_map(|o| match *o {
                Outcome::Table(u) | Outcome::Item { affixes: Some(u), .. } => Some(u),
                _ => None,
            })
        };
        while let Some((t, children_done)) = stack.pop() {
            if memo[t as usize].is_some() {
                continue;
            }
            if !children_done {
                stack.push((t, true));
                stack.extend(children(t).filter(|&u| memo[u as usize].is_none()).map(|u| (u, false)));
                continue;
            }
            let Some(kept) = kept.as_deref_mut() else {
                memo[t as usize] = Some(Arc::new(self.table_stats(t, p_extra, &memo, &mut scratch)));
                continue;
            };
            let id = &self.tables[t as usize].id;
            let reuse = kept.tables.get(id).filter(|k| children(t).map(|u| serial[u as usize]).eq(k.children.iter().copied()) && self.has_shape(t, &k.shape));
            if let Some(k) = reuse {
                memo[t as usize] = Some(k.stats.clone());
                serial[t as usize] = k.serial;
                continue;
            }
            let stats = Arc::new(self.table_stats(t, p_extra, &memo, &mut scratch));
            kept.serial += 1;
            let k = Kept { shape: self.shape(t), stats: stats.clone(), serial: kept.serial, children: children(t).map(|u| serial[u as usize]).collect() };
            serial[t as usize] = kept.serial;
            kept.size += stats.p.len() + stats.pair.len();
            if let Some(old) = kept.tables.insert(id.clone(), k) {
                kept.size -= old.stats.p.len() + old.stats.pair.len();
            }
            memo[t as usize] = Some(stats);
        }
        memo
    }

    /// How many outcome keys there can be: item and affix numbers share the key space.
    fn key_count(&self) -> usize {
        self.items.len().max(self.affixes.len())
    }

    /// One table's statistics from its children's.
    ///
    /// For an outcome X let `p_o(X)` be the probability that one entry `o`, given once, yields X.
    /// Then `q(T) = Π_guaranteed (1 − p_g) × E_n[(1 − d)^n]` with `d = Σ_weighted (w/W)·p_o`, and
    /// the expected count is `Σ_g e_g + E[n]·Σ (w/W)·e_o` with `E[n] = (a+b)/2 + p_extra`. The
    /// product is taken as a union (`1 − q` factor by factor, [`union`]), never through `q`.
    fn table_stats(&self, t: u32, p_extra: f64, memo: &Memo, sc: &mut Scratch) -> Stats {
        let tab = &self.tables[t as usize];
        let Scratch { table, roll, p_pair, d_pair, pairs } = sc;
        let pairs = *pairs;
        table.clear();
        p_pair.clear();

        for &o in &tab.guaranteed {
            self.contributions(o, memo, pairs, |c| match c {
                Contribution::Key(k, p, x) => {
                    let (p_any, e) = table.slot(k);
                    *p_any = union(*p_any, p.clamp(0.0, 1.0));
                    *e += x;
                }
                Contribution::Pair(k, p) => add_union_pair(p_pair, k, p),
            });
        }

        let total: f64 = tab.weights.iter().map(|&w| w as f64).sum();
        if tab.picker.is_some() && total > 0.0 {
            roll.clear();
            d_pair.clear();
            for (&o, &w) in tab.weighted.iter().zip(&tab.weights) {
                let share = w as f64 / total;
                self.contributions(o, memo, pairs, |c| match c {
                    Contribution::Key(k, p, x) => {
                        let (d, ew) = roll.slot(k);
                        *d += share * p;
                        *ew += share * x;
                    }
                    Contribution::Pair(k, p) => *d_pair.entry(k).or_insert(0.0) += share * p,
                });
            }
            let mean_n = mean(tab.rolls) + p_extra;
            let chance = RollChance::new(tab.rolls, p_extra);
            for (&k, &(dk, ew)) in roll.keys.iter().zip(&roll.vals) {
                let (p_any, e) = table.slot(k);
                *p_any = union(*p_any, chance.p_some(dk));
                *e += mean_n * ew;
            }
            roll.clear();
            for (k, dk) in d_pair.drain() {
                add_union_pair(p_pair, k, chance.p_some(dk));
            }
        } else {
            // No weighted entries: the rolls draw nothing, but outcomes seen only there still
            // belong to the table (with chance 0) so reports list them.
            for &o in &tab.weighted {
                self.contributions(o, memo, pairs, |c| match c {
                    Contribution::Key(k, _, _) => {
                        table.slot(k);
                    }
                    Contribution::Pair(k, _) => {
                        p_pair.entry(k).or_insert(0.0);
                    }
                });
            }
        }

        let p: Vec<(u32, f64)> = table.keys.iter().zip(&table.vals).map(|(&k, &(p, _))| (k, p.clamp(0.0, 1.0))).collect();
        let expected: Vec<f64> = if tab.kind == Some(TableKind::Affixes) {
            // An affix table's evaluation is a set: each affix is there once or not at all.
            p.iter().map(|&(_, pk)| pk).collect()
        } else {
            table.vals.iter().map(|&(_, e)| e).collect()
        };
        table.clear();
        Stats { p, e: expected, pair: p_pair.drain().map(|(k, p)| (k, p.clamp(0.0, 1.0))).collect() }
    }

    /// What one entry, given once, yields: per outcome (probability, expected count), and per
    /// (item, affix) the probability of an instance of the item carrying the affix.
    fn contributions(&self, o: Outcome, memo: &Memo, pairs: bool, mut f: impl FnMut(Contribution)) {
        match o {
            Outcome::Item { item, count, affixes } => {
                let c1 = p_count_positive(count);
                f(Contribution::Key(item, c1, mean(count)));
                if let Some(stats) = affixes.filter(|_| pairs).and_then(|a| memo[a as usize].as_deref()) {
                    // The instance exists (count ≥ 1) and its one affix evaluation yields A;
                    // the count and the affix roll are independent.
                    for &(a, pa) in &stats.p {
                        f(Contribution::Pair(pair_key(item, a), c1 * pa));
                    }
                }
            }
            Outcome::Table(u) => {
                if let Some(stats) = memo[u as usize].as_deref() {
                    for (&(k, p), &x) in stats.p.iter().zip(&stats.e) {
                        f(Contribution::Key(k, p, x));
                    }
                    for &(k, p) in &stats.pair {
                        f(Contribution::Pair(k, p));
                    }
                }
            }
            Outcome::Affix(a) => f(Contribution::Key(a, 1.0, 1.0)),
            Outcome::Nothing => {}
        }
    }
}

enum Contribution {
    /// Outcome key, probability of at least one, expected count.
    Key(u32, f64, f64),
    /// (item, affix) key, probability of at least one such instance.
    Pair(u64, f64),
}

#[cfg(test)]
mod tests;
