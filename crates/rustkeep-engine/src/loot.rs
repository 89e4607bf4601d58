//! Loot tables: sampled rolls and exact drop chances (SPEC §4).
//!
//! [`LootDb`] compiles the loot tables in force from a [`Database`] into a flat, index-based form.
//! Tables that cannot be evaluated — on or above a nesting cycle, or reaching a broken reference
//! or a kind mismatch — are refused with an error that names the culprit, so neither the sampler
//! nor the exact analyzer can loop forever, and neither ever runs half-understood data.
//!
//! Both evaluators are iterative: a chain of 10,000 nested tables uses heap, not stack.
//!
//! * Sampling ([`LootDb::roll`], [`LootDb::roll_raw`]) follows §4 steps 1–5 literally with the
//!   seeded [`Rng`]. One evaluation may draw at most [`MAX_DRAWS`] entries (huge `rolls` ranges
//!   nested in each other would otherwise run for hours); beyond that it is refused.
//! * The exact analyzer ([`LootDb::analyze`]) computes, per table and outcome, the probability `q`
//!   that one evaluation yields none of it, in closed form (see `ln_none_from_rolls`), and the
//!   expected counts by linearity. It works in log space so rare drops keep their relative
//!   precision, and never loops over the roll count, so `rolls = "0-4000000000"` costs the same as
//!   `rolls = 1`.

use rustkeep_data::hash::FxHashMap as HashMap;
use std::fmt;
use std::sync::Arc;

use rustkeep_data::db::{Database, TableKind};
use rustkeep_data::graph::{cycle_path, is_cycle, strongly_connected_components};
use rustkeep_data::model::{LootKind, Range};
use rustkeep_data::vocab::{field, Registry};

use crate::rng::{Rng, Weights};

/// The most weighted draws (plus guaranteed entries) one evaluation may make, nested tables and
/// affix tables included.
pub const MAX_DRAWS: u64 = 1 << 24;

/// One item instance from a roll: `count` copies sharing one set of affixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ItemDrop {
    pub item: String,
    pub count: u32,
    /// Affix IDs, each once, in ID order.
    pub affixes: Vec<String>,
}

/// Why a table cannot be rolled or analysed.
#[derive(Clone, Debug, PartialEq)]
pub enum LootError {
    /// No loot table has this ID.
    UnknownTable { id: String, suggestion: Option<String> },
    /// `table` lies on a nesting cycle or nests one (`loot-table-cycle`); `cycle` is the cycle as a
    /// path, its first table repeated at the end.
    Cycle { table: String, cycle: Arc<[String]> },
    /// `table` reaches `culprit` (possibly itself), whose data cannot be evaluated.
    Invalid { table: String, culprit: String, reason: String },
    /// An item table was asked for affixes, or an affix table for items.
    WrongKind { table: String, kind: TableKind },
    /// One evaluation would need more than [`MAX_DRAWS`] draws.
    TooMuchWork { table: String },
}

impl fmt::Display for LootError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LootError::UnknownTable { id, suggestion } => {
                write!(f, "`{id}` is not a loot table")?;
                if let Some(s) = suggestion {
                    write!(f, "; did you mean `{s}`?")?;
                }
                Ok(())
            }
            LootError::Cycle { table, cycle } => {
                let path = cycle.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(" → ");
                if cycle.iter().any(|t| t == table) {
                    write!(f, "loot-table-cycle: loot tables nest into a cycle: {path} — evaluating `{table}` would never end")
                } else {
                    write!(f, "loot-table-cycle: `{table}` nests the cycle {path} — evaluating it would never end")
                }
            }
            LootError::Invalid { table, culprit, reason } => {
                if table == culprit {
                    write!(f, "`{table}` cannot be evaluated: {reason}")
                } else {
                    write!(f, "`{table}` cannot be evaluated: it reaches `{culprit}`, where {reason}")
                }
            }
            LootError::WrongKind { table, kind } => write!(f, "`{table}` is {}", kind.noun()),
            LootError::TooMuchWork { table } => {
                write!(f, "one evaluation of `{table}` needs more than {MAX_DRAWS} draws; lower its `rolls` (or its nested tables')")
            }
        }
    }
}

impl std::error::Error for LootError {}

/// A compiled loot entry. Indices point into [`LootDb`]'s tables, items and affixes.
#[derive(Clone, Copy, Debug)]
enum Outcome {
    Item { item: u32, count: Range, affixes: Option<u32> },
    Table(u32),
    Affix(u32),
    Nothing,
}

#[derive(Debug)]
struct Table {
    id: String,
    /// `None` for a table whose entries name no item or affix anywhere (it draws nothing).
    kind: Option<TableKind>,
    rolls: Range,
    guaranteed: Vec<Outcome>,
    weighted: Vec<Outcome>,
    /// Weights of `weighted`, parallel to it.
    weights: Vec<u64>,
    /// `None` when no weighted entry exists: the rolls draw nothing.
    picker: Option<Weights>,
    refusal: Option<LootError>,
}

/// A loot table that can be evaluated (looked up and checked by [`LootDb::table`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableRef(u32);

/// One item instance of a raw roll: indices instead of strings, affixes as a range of
/// [`Scratch::affixes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawDrop {
    pub item: u32,
    pub count: u32,
    pub affix_start: u32,
    pub affix_end: u32,
}

/// Reusable buffers for [`LootDb::roll_raw`], so that sampling allocates nothing per evaluation.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// Item instances (item tables).
    pub drops: Vec<RawDrop>,
    /// The affixes of the instances, or the evaluated set (affix tables).
    pub affixes: Vec<u32>,
    /// Entries drawn or given by the last evaluation (weighted draws plus guaranteed entries,
    /// nested and affix tables included), the unit of [`MAX_DRAWS`].
    pub draws: u64,
    stack: Vec<u32>,
    affix_stack: Vec<u32>,
}

impl Scratch {
    pub fn affixes_of(&self, d: &RawDrop) -> &[u32] {
        &self.affixes[d.affix_start as usize..d.affix_end as usize]
    }
}

/// The loot tables in force, compiled for rolling and analysis.
#[derive(Debug)]
pub struct LootDb {
    tables: Vec<Table>,
    index: HashMap<String, u32>,
    /// Item IDs in ID order (index = item number).
    items: Vec<Arc<str>>,
    /// Affix IDs in ID order.
    affixes: Vec<Arc<str>>,
    luck_factor: f64,
}

/// Exact chances of one outcome of a table.
#[derive(Clone, Debug, PartialEq)]
pub struct DropStat {
    /// Shared with the database: reports of many tables name the same items (no copy each).
    pub id: Arc<str>,
    /// Probability that one evaluation yields at least one.
    pub p_any: f64,
    /// Expected total count per evaluation (equals `p_any` for an affix table).
    pub expected: f64,
    /// Per affix: probability of at least one instance of this item carrying it.
    pub affixes: Vec<AffixStat>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AffixStat {
    pub id: Arc<str>,
    pub p_any: f64,
}

/// The exact analysis of one table.
#[derive(Clone, Debug, PartialEq)]
pub struct LootReport {
    pub table: String,
    pub kind: TableKind,
    pub luck: f64,
    pub p_extra: f64,
    /// Sorted by `p_any` descending, then ID; affixes likewise.
    pub drops: Vec<DropStat>,
}

/// Frequencies from sampled evaluations, shaped like [`LootReport::drops`].
#[derive(Clone, Debug, PartialEq)]
pub struct SampleReport {
    pub n: u64,
    pub seed: u64,
    /// Outcomes seen at least once, sorted like the exact report.
    pub drops: Vec<DropStat>,
}

/// "1 in N": the mean number of evaluations per evaluation that yields at least one.
pub fn one_in(p_any: f64) -> Option<f64> {
    (p_any > 0.0).then(|| 1.0 / p_any)
}

/// Evaluations needed for a chance `c` of at least one: `ceil(ln(1 − c) / ln(1 − p_any))`.
/// `None` when `p_any` is 0 (never); 1 when `p_any` is 1.
pub fn evaluations_for(p_any: f64, c: f64) -> Option<u64> {
    if p_any.is_nan() || p_any <= 0.0 || !(0.0..1.0).contains(&c) {
        return None;
    }
    if p_any >= 1.0 {
        return Some(1);
    }
    let k = ((-c).ln_1p() / (-p_any).ln_1p()).ceil();
    // A rounding error must not turn "1.0000000001" into 2 for an exact quotient.
    Some(if k.is_finite() { (k as u64).max(1) } else { u64::MAX })
}

/// `p_extra = clamp(luck × luck_factor, 0, 0.9)` (§4 step 1); NaN counts as 0.
pub fn p_extra(luck: f64, luck_factor: f64) -> f64 {
    let x = luck * luck_factor;
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 0.9)
    }
}

/// Per-table exact statistics: for each outcome, `ln q` (q = probability of none of it in one
/// evaluation) and the expected count; pairs (item, affix) keyed as `item << 32 | affix`.
#[derive(Debug, Default)]
struct Stats {
    p: HashMap<u32, f64>,
    e: HashMap<u32, f64>,
    pair: HashMap<u64, f64>,
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
fn ln_none_from_rolls(d: f64, rolls: Range, p_extra: f64) -> f64 {
    if d.is_nan() || d <= 0.0 {
        return 0.0;
    }
    let d = d.min(1.0);
    let a = f64::from(rolls.min);
    let m = f64::from(rolls.max.max(rolls.min) - rolls.min) + 1.0;
    let extra = (-p_extra * d).ln_1p();
    if d >= 1.0 {
        // x = 0: only n = 0 yields none, which needs a = 0 (probability 1/m) and no extra roll.
        return if rolls.min == 0 { extra - m.ln() } else { f64::NEG_INFINITY };
    }
    let ln_x = (-d).ln_1p();
    let head = if rolls.min == 0 { 0.0 } else { a * ln_x };
    let sum = if m == 1.0 { 0.0 } else { (-(m * ln_x).exp_m1()).ln() - (m * d).ln() };
    head + sum + extra
}

/// Adds `ln(1 − p)` to `map[key]`.
fn add_ln_none(map: &mut HashMap<u32, f64>, key: u32, p: f64) {
    *map.entry(key).or_insert(0.0) += (-p.clamp(0.0, 1.0)).ln_1p();
}

fn add_ln_none_pair(map: &mut HashMap<u64, f64>, key: u64, p: f64) {
    *map.entry(key).or_insert(0.0) += (-p.clamp(0.0, 1.0)).ln_1p();
}

fn pair_key(item: u32, affix: u32) -> u64 {
    (u64::from(item) << 32) | u64::from(affix)
}

impl LootDb {
    /// Compiles the loot tables in force. Never fails: problems become per-table refusals.
    pub fn new(data: &Database) -> LootDb {
        let defs = &data.resolved.defs;
        // The map type is the resolver's; inferred so that its hasher stays its business.
        let empty = Default::default();
        let table_defs = defs.get(Registry::LootTables.index()).unwrap_or(&empty);
        let item_defs = defs.get(Registry::Items.index()).unwrap_or(&empty);
        let affix_defs = defs.get(Registry::Affixes.index()).unwrap_or(&empty);

        let mut ids: Vec<&String> = table_defs.keys().collect();
        ids.sort();
        let index: HashMap<String, u32> = ids.iter().enumerate().map(|(i, id)| ((*id).clone(), i as u32)).collect();

        // Intern the items and affixes the tables name, in ID order, so indices sort like IDs.
        let mut item_names: Vec<&str> = Vec::new();
        let mut affix_names: Vec<&str> = Vec::new();
        for id in &ids {
            for le in data.entry(table_defs[*id].current).loot_entries() {
                match &le.kind {
                    LootKind::Item(s) if item_defs.contains_key(&s.value) => item_names.push(&s.value),
                    LootKind::Affix(s) if affix_defs.contains_key(&s.value) => affix_names.push(&s.value),
                    _ => {}
                }
            }
        }
        item_names.sort_unstable();
        item_names.dedup();
        affix_names.sort_unstable();
        affix_names.dedup();
        let item_index: HashMap<&str, u32> = item_names.iter().enumerate().map(|(i, s)| (*s, i as u32)).collect();
        let affix_index: HashMap<&str, u32> = affix_names.iter().enumerate().map(|(i, s)| (*s, i as u32)).collect();

        let kind_of = |id: &str| data.table_kinds.get(id).copied();
        let mut tables: Vec<Table> = Vec::with_capacity(ids.len());
        let mut problems: Vec<Option<String>> = Vec::with_capacity(ids.len());
        let mut edges: Vec<Vec<usize>> = Vec::with_capacity(ids.len());
        for id in &ids {
            let e = data.entry(table_defs[*id].current);
            let kind = kind_of(id);
            let mut t = Table {
                id: (*id).clone(),
                kind,
                rolls: e.range(field::ROLLS).unwrap_or(Range::ONE),
                guaranteed: Vec::new(),
                weighted: Vec::new(),
                weights: Vec::new(),
                picker: None,
                refusal: None,
            };
            let mut problem: Option<String> = None;
            let mut note = |p: String| {
                problem.get_or_insert(p);
            };
            let mut out_edges = Vec::new();
            for le in e.loot_entries() {
                let outcome = match &le.kind {
                    LootKind::Item(s) => {
                        if kind == Some(TableKind::Affixes) {
                            note(format!("the affix table gives the item `{}`", s.value));
                        }
                        let affixes = match &le.affixes {
                            None => None,
                            Some(a) => match index.get(&a.value) {
                                None => {
                                    note(format!("`affixes = \"{}\"` names no loot table", a.value));
                                    None
                                }
                                Some(&j) => {
                                    if kind_of(&a.value) == Some(TableKind::Items) {
                                        note(format!("`affixes = \"{}\"` names an item table", a.value));
                                    }
                                    out_edges.push(j as usize);
                                    Some(j)
                                }
                            },
                        };
                        match item_index.get(s.value.as_str()) {
                            Some(&item) => Outcome::Item { item, count: le.count, affixes },
                            None => {
                                note(format!("`{}` is not an item", s.value));
                                Outcome::Nothing
                            }
                        }
                    }
                    LootKind::Affix(s) => {
                        if kind == Some(TableKind::Items) {
                            note(format!("the item table gives the affix `{}`", s.value));
                        }
                        match affix_index.get(s.value.as_str()) {
                            Some(&a) => Outcome::Affix(a),
                            None => {
                                note(format!("`{}` is not an affix", s.value));
                                Outcome::Nothing
                            }
                        }
                    }
                    LootKind::Table(s) => match index.get(&s.value) {
                        Some(&j) => {
                            if let (Some(k), Some(own)) = (kind_of(&s.value), kind) {
                                if k != own {
                                    note(format!("it nests `{}`, which is {}", s.value, k.noun()));
                                }
                            }
                            out_edges.push(j as usize);
                            Outcome::Table(j)
                        }
                        None => {
                            note(format!("`table = \"{}\"` names no loot table", s.value));
                            Outcome::Nothing
                        }
                    },
                    LootKind::Nothing => Outcome::Nothing,
                };
                if le.guaranteed {
                    t.guaranteed.push(outcome);
                } else {
                    match le.weight {
                        Some(w) if w >= 1 => {
                            t.weighted.push(outcome);
                            t.weights.push(w);
                        }
                        _ => note("a weighted entry has no valid `weight`".into()),
                    }
                }
            }
            if !t.weights.is_empty() {
                t.picker = Weights::new(&t.weights);
                if t.picker.is_none() {
                    note("its weights add up to more than 2^64".into());
                }
            }
            tables.push(t);
            problems.push(problem);
            edges.push(out_edges);
        }

        // Refusals, children before parents: a cycle refuses its members, a problem its table,
        // and either refuses every table above it.
        for comp in strongly_connected_components(&edges) {
            if is_cycle(&edges, &comp) {
                let start = *comp.iter().min().unwrap_or(&comp[0]);
                let path: Arc<[String]> = cycle_path(&edges, &comp, start).iter().map(|&i| tables[i].id.clone()).collect();
                for &v in &comp {
                    tables[v].refusal = Some(LootError::Cycle { table: tables[v].id.clone(), cycle: path.clone() });
                }
                continue;
            }
            let v = comp[0];
            let id = tables[v].id.clone();
            if let Some(reason) = problems[v].take() {
                tables[v].refusal = Some(LootError::Invalid { table: id.clone(), culprit: id, reason });
                continue;
            }
            let inherited = edges[v].iter().find_map(|&c| tables[c].refusal.as_ref()).map(|r| match r {
                LootError::Cycle { cycle, .. } => LootError::Cycle { table: id.clone(), cycle: cycle.clone() },
                LootError::Invalid { culprit, reason, .. } => LootError::Invalid { table: id.clone(), culprit: culprit.clone(), reason: reason.clone() },
                other => other.clone(),
            });
            tables[v].refusal = inherited;
        }

        LootDb {
            tables,
            index,
            items: item_names.into_iter().map(Arc::from).collect(),
            affixes: affix_names.into_iter().map(Arc::from).collect(),
            luck_factor: data.resolved.balance.luck_factor,
        }
    }

    pub fn luck_factor(&self) -> f64 {
        self.luck_factor
    }

    /// `p_extra` for `luck` with this project's `balance.luck_factor`.
    pub fn p_extra(&self, luck: f64) -> f64 {
        p_extra(luck, self.luck_factor)
    }

    /// Every loot table ID, sorted.
    pub fn table_ids(&self) -> impl Iterator<Item = &str> {
        self.tables.iter().map(|t| t.id.as_str())
    }

    /// The number of items the tables name (item numbers are `0..item_count()`).
    pub fn item_count(&self) -> usize {
        self.items.len()
    }

    /// The number of affixes the tables name.
    pub fn affix_count(&self) -> usize {
        self.affixes.len()
    }

    pub fn item_name(&self, item: u32) -> &str {
        &self.items[item as usize]
    }

    pub fn affix_name(&self, affix: u32) -> &str {
        &self.affixes[affix as usize]
    }

    /// Looks a table up and checks that it can be evaluated.
    pub fn table(&self, id: &str) -> Result<TableRef, LootError> {
        let Some(&i) = self.index.get(id) else {
            let suggestion = rustkeep_data::suggest::closest(id, self.tables.iter().map(|t| t.id.as_str())).map(String::from);
            return Err(LootError::UnknownTable { id: id.to_string(), suggestion });
        };
        match &self.tables[i as usize].refusal {
            Some(e) => Err(e.clone()),
            None => Ok(TableRef(i)),
        }
    }

    /// The table's kind (a table naming no item or affix at all counts as an item table).
    pub fn kind(&self, t: TableRef) -> TableKind {
        self.tables[t.0 as usize].kind.unwrap_or(TableKind::Items)
    }

    /// One evaluation of an item table (§4). Refused or unknown tables give nothing; use
    /// [`LootDb::try_roll`] to learn why.
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

    /// The exact chances of one evaluation of `table` with `luck` (SPEC §6.2).
    pub fn analyze(&self, table: &str, luck: f64) -> Result<LootReport, LootError> {
        let t = self.table(table)?;
        let p_extra = self.p_extra(luck);
        let memo = self.exact_stats(t.0, p_extra);
        Ok(self.report(t.0, &memo[&t.0], luck, p_extra))
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
        let mut memo: HashMap<u32, Stats> = HashMap::default();
        for t in order {
            let stats = self.table_stats(t, p_extra, &memo);
            reports[t as usize] = Some(Ok(self.report(t, &stats, luck, p_extra)));
            memo.insert(t, stats);
            for c in children(t as usize) {
                let left = &mut parents_left[c as usize];
                *left = left.saturating_sub(1);
                if *left == 0 {
                    memo.remove(&c);
                }
            }
            if parents_left[t as usize] == 0 {
                memo.remove(&t);
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
        for (&k, &p) in &root.pair {
            let (item, affix) = ((k >> 32) as u32, k as u32);
            pairs.entry(item).or_default().push(AffixStat { id: self.affixes[affix as usize].clone(), p_any: p });
        }
        let mut drops: Vec<DropStat> = root
            .p
            .iter()
            .map(|(&k, &p)| {
                let name = if kind == TableKind::Affixes { &self.affixes[k as usize] } else { &self.items[k as usize] };
                let mut affixes = pairs.remove(&k).unwrap_or_default();
                sort_affixes(&mut affixes);
                DropStat { id: name.clone(), p_any: p, expected: root.e.get(&k).copied().unwrap_or(0.0), affixes }
            })
            .collect();
        sort_drops(&mut drops);
        LootReport { table: self.tables[t as usize].id.clone(), kind, luck, p_extra, drops }
    }

    /// Statistics of `root` and every table below it, children first (an explicit post-order,
    /// so depth costs heap, not stack). Each table is computed once.
    fn exact_stats(&self, root: u32, p_extra: f64) -> HashMap<u32, Stats> {
        let mut memo: HashMap<u32, Stats> = HashMap::default();
        let mut stack: Vec<(u32, bool)> = vec![(root, false)];
        while let Some((t, children_done)) = stack.pop() {
            if memo.contains_key(&t) {
                continue;
            }
            if !children_done {
                stack.push((t, true));
                let tab = &self.tables[t as usize];
                for o in tab.guaranteed.iter().chain(&tab.weighted) {
                    match *o {
                        Outcome::Table(u) | Outcome::Item { affixes: Some(u), .. } if !memo.contains_key(&u) => stack.push((u, false)),
                        _ => {}
                    }
                }
                continue;
            }
            let stats = self.table_stats(t, p_extra, &memo);
            memo.insert(t, stats);
        }
        memo
    }

    /// One table's statistics from its children's.
    ///
    /// For an outcome X let `p_o(X)` be the probability that one entry `o`, given once, yields X.
    /// Then `q(T) = Π_guaranteed (1 − p_g) × E_n[(1 − d)^n]` with `d = Σ_weighted (w/W)·p_o`, and
    /// the expected count is `Σ_g e_g + E[n]·Σ (w/W)·e_o` with `E[n] = (a+b)/2 + p_extra`.
    fn table_stats(&self, t: u32, p_extra: f64, memo: &HashMap<u32, Stats>) -> Stats {
        let tab = &self.tables[t as usize];
        let mut ln_q: HashMap<u32, f64> = HashMap::default();
        let mut e: HashMap<u32, f64> = HashMap::default();
        let mut ln_q_pair: HashMap<u64, f64> = HashMap::default();

        for &o in &tab.guaranteed {
            self.contributions(o, memo, |c| match c {
                Contribution::Key(k, p, x) => {
                    add_ln_none(&mut ln_q, k, p);
                    *e.entry(k).or_insert(0.0) += x;
                }
                Contribution::Pair(k, p) => add_ln_none_pair(&mut ln_q_pair, k, p),
            });
        }

        let total: f64 = tab.weights.iter().map(|&w| w as f64).sum();
        if tab.picker.is_some() && total > 0.0 {
            let mut d: HashMap<u32, f64> = HashMap::default();
            let mut ew: HashMap<u32, f64> = HashMap::default();
            let mut d_pair: HashMap<u64, f64> = HashMap::default();
            for (&o, &w) in tab.weighted.iter().zip(&tab.weights) {
                let share = w as f64 / total;
                self.contributions(o, memo, |c| match c {
                    Contribution::Key(k, p, x) => {
                        *d.entry(k).or_insert(0.0) += share * p;
                        *ew.entry(k).or_insert(0.0) += share * x;
                    }
                    Contribution::Pair(k, p) => *d_pair.entry(k).or_insert(0.0) += share * p,
                });
            }
            let mean_n = mean(tab.rolls) + p_extra;
            for (k, dk) in d {
                *ln_q.entry(k).or_insert(0.0) += ln_none_from_rolls(dk, tab.rolls, p_extra);
            }
            for (k, x) in ew {
                *e.entry(k).or_insert(0.0) += mean_n * x;
            }
            for (k, dk) in d_pair {
                *ln_q_pair.entry(k).or_insert(0.0) += ln_none_from_rolls(dk, tab.rolls, p_extra);
            }
        } else {
            // No weighted entries: the rolls draw nothing, but outcomes seen only there still
            // belong to the table (with chance 0) so reports list them.
            for &o in &tab.weighted {
                self.contributions(o, memo, |c| match c {
                    Contribution::Key(k, _, _) => {
                        ln_q.entry(k).or_insert(0.0);
                    }
                    Contribution::Pair(k, _) => {
                        ln_q_pair.entry(k).or_insert(0.0);
                    }
                });
            }
        }

        let to_p = |l: f64| (-l.exp_m1()).clamp(0.0, 1.0);
        let p: HashMap<u32, f64> = ln_q.into_iter().map(|(k, l)| (k, to_p(l))).collect();
        let e = if tab.kind == Some(TableKind::Affixes) {
            // An affix table's evaluation is a set: each affix is there once or not at all.
            p.clone()
        } else {
            p.keys().map(|k| (*k, e.get(k).copied().unwrap_or(0.0))).collect()
        };
        Stats { p, e, pair: ln_q_pair.into_iter().map(|(k, l)| (k, to_p(l))).collect() }
    }

    /// What one entry, given once, yields: per outcome (probability, expected count), and per
    /// (item, affix) the probability of an instance of the item carrying the affix.
    fn contributions(&self, o: Outcome, memo: &HashMap<u32, Stats>, mut f: impl FnMut(Contribution)) {
        match o {
            Outcome::Item { item, count, affixes } => {
                let c1 = p_count_positive(count);
                f(Contribution::Key(item, c1, mean(count)));
                if let Some(stats) = affixes.and_then(|a| memo.get(&a)) {
                    // The instance exists (count ≥ 1) and its one affix evaluation yields A;
                    // the count and the affix roll are independent.
                    for (&a, &pa) in &stats.p {
                        f(Contribution::Pair(pair_key(item, a), c1 * pa));
                    }
                }
            }
            Outcome::Table(u) => {
                if let Some(stats) = memo.get(&u) {
                    for (&k, &p) in &stats.p {
                        f(Contribution::Key(k, p, stats.e.get(&k).copied().unwrap_or(0.0)));
                    }
                    for (&k, &p) in &stats.pair {
                        f(Contribution::Pair(k, p));
                    }
                }
            }
            Outcome::Affix(a) => f(Contribution::Key(a, 1.0, 1.0)),
            Outcome::Nothing => {}
        }
    }

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

enum Contribution {
    /// Outcome key, probability of at least one, expected count.
    Key(u32, f64, f64),
    /// (item, affix) key, probability of at least one such instance.
    Pair(u64, f64),
}

fn sort_drops(d: &mut [DropStat]) {
    d.sort_by(|a, b| b.p_any.total_cmp(&a.p_any).then_with(|| a.id.cmp(&b.id)));
}

fn sort_affixes(a: &mut [AffixStat]) {
    a.sort_by(|x, y| y.p_any.total_cmp(&x.p_any).then_with(|| x.id.cmp(&y.id)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_for_matches_formula() {
        assert_eq!(evaluations_for(0.5, 0.5), Some(1));
        assert_eq!(evaluations_for(0.5, 0.9), Some(4)); // 0.5^4 = 0.0625 ≤ 0.1 < 0.125
        assert_eq!(evaluations_for(0.1, 0.99), Some(44)); // ln 0.01 / ln 0.9 = 43.7
        assert_eq!(evaluations_for(0.0, 0.5), None);
        assert_eq!(evaluations_for(1.0, 0.99), Some(1));
        assert_eq!(one_in(0.25), Some(4.0));
        assert_eq!(one_in(0.0), None);
    }

    #[test]
    fn p_extra_clamps() {
        assert_eq!(p_extra(0.0, 0.05), 0.0);
        assert!((p_extra(4.0, 0.05) - 0.2).abs() < 1e-15);
        assert_eq!(p_extra(100.0, 0.05), 0.9);
        assert_eq!(p_extra(-3.0, 0.05), 0.0);
        assert_eq!(p_extra(f64::NAN, 0.05), 0.0);
        assert_eq!(p_extra(f64::INFINITY, 0.0), 0.0);
    }

    #[test]
    fn rolls_closed_form_matches_direct_sum() {
        for &(min, max) in &[(0u32, 0u32), (1, 1), (0, 1), (1, 3), (2, 7), (0, 5)] {
            for &d in &[0.0, 1e-12, 0.013, 0.5, 0.999, 1.0] {
                for &pe in &[0.0, 0.3, 0.9] {
                    let mut direct = 0.0;
                    for n in min..=max {
                        let x: f64 = 1.0 - d;
                        direct += x.powi(n as i32) * (1.0 - pe + pe * x);
                    }
                    direct /= f64::from(max - min + 1);
                    let got = ln_none_from_rolls(d, Range { min, max }, pe).exp();
                    assert!((got - direct).abs() < 1e-13, "{min}-{max} d={d} pe={pe}: {got} vs {direct}");
                }
            }
        }
        // A huge range must neither loop nor lose precision: mean of x^n over 0..=m-1 ≈ 1/(m·d).
        let got = ln_none_from_rolls(1e-3, Range { min: 0, max: u32::MAX }, 0.0).exp();
        assert!((got - 1.0 / (f64::from(u32::MAX) + 1.0) / 1e-3).abs() < 1e-12, "{got}");
    }
}
