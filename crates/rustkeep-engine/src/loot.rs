//! Loot tables: sampled rolls and exact drop chances (the semantics: docs/loot.md).
//!
//! [`LootDb`] compiles the loot tables in force from a [`Database`](rustkeep_data::db::Database)
//! into a flat, index-based form. Tables that cannot be evaluated — on or above a nesting cycle,
//! or reaching a broken reference or a kind mismatch — are refused with an error that names the
//! culprit, so neither the sampler nor the exact analyzer can loop forever, and neither ever runs
//! half-understood data.
//!
//! Both evaluators are iterative: a chain of 10,000 nested tables uses heap, not stack.
//!
//! * Sampling ([`LootDb::roll`], [`LootDb::roll_raw`]) follows the evaluation steps of
//!   docs/loot.md literally with the seeded [`Rng`](crate::rng::Rng). One evaluation may draw at
//!   most [`MAX_DRAWS`] entries (huge `rolls` ranges nested in each other would otherwise run for
//!   hours); beyond that it is refused.
//! * The exact analyzer ([`LootDb::analyze`]) computes, per table and outcome, the probability `q`
//!   that one evaluation yields none of it, in closed form (see `ln_none_from_rolls`), and the
//!   expected counts by linearity. It works in log space so rare drops keep their relative
//!   precision, and never loops over the roll count, so `rolls = "0-4000000000"` costs the same as
//!   `rolls = 1`.
//!
//! The parts: `compile` builds the database and its refusals, `roll` samples one evaluation,
//! `exact` computes the exact chances, `sample` measures frequencies over many rolls.

use rustkeep_data::hash::FxHashMap as HashMap;
use std::fmt;
use std::sync::Arc;

use rustkeep_data::db::TableKind;
use rustkeep_data::model::Range;

use crate::rng::Weights;

mod compile;
mod exact;
mod roll;
mod sample;

pub use exact::KeptStats;

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
    /// `table` lies on a nesting cycle or nests one (`loot-table-cycle`, an error of the validator:
    /// only data that has it gets here); `cycle` is the cycle as a path, its first table repeated
    /// at the end.
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
            // The validator's error, worded where the validator words it.
            LootError::Cycle { table, cycle } => f.write_str(&rustkeep_check::rules::loot::cycle_refusal(table, cycle)),
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

impl Table {
    /// A table with no entries (its number taken before it is compiled, or of a table gone).
    fn empty(id: String) -> Table {
        Table { id, kind: None, rolls: Range::ONE, guaranteed: Vec::new(), weighted: Vec::new(), weights: Vec::new(), picker: None, refusal: None }
    }
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
    /// Item IDs by item number: in ID order, or in a [`KeptStats`]'s numbering for a database
    /// compiled with one.
    items: Vec<Arc<str>>,
    /// Affix IDs by affix number, the same way.
    affixes: Vec<Arc<str>>,
    luck_factor: f64,
    /// The generation of the [`KeptStats`] numbering it was compiled with, if any.
    generation: Option<u64>,
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

/// "1 in N" as printed: one decimal below 1,000, whole numbers above, "never" for a chance of 0.
pub fn one_in_text(p: f64) -> String {
    match one_in(p) {
        None => "never".into(),
        Some(n) if n < 1000.0 => rustkeep_data::number::fixed(n, 1),
        Some(n) => rustkeep_data::number::fixed(n, 0),
    }
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

/// `p_extra = clamp(luck × luck_factor, 0, 0.9)` (docs/loot.md, step 1); NaN counts as 0.
pub fn p_extra(luck: f64, luck_factor: f64) -> f64 {
    let x = luck * luck_factor;
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 0.9)
    }
}

impl LootDb {
    pub fn luck_factor(&self) -> f64 {
        self.luck_factor
    }

    /// `p_extra` for `luck` with this project's `balance.luck_factor`.
    pub fn p_extra(&self, luck: f64) -> f64 {
        p_extra(luck, self.luck_factor)
    }

    /// Every loot table ID, sorted.
    /// How many tables it holds.
    pub fn table_count(&self) -> usize {
        self.tables.len()
    }

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
            // Among the tables compiled (a database of one table's reach holds those only).
            let suggestion = rustkeep_data::suggest::closest_id(id, self.index.keys().map(String::as_str)).map(String::from);
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
}

/// The order of drops and of affixes: by chance, highest first, then by ID.
fn sort_drops(d: &mut [DropStat]) {
    d.sort_by(|a, b| chance_key(b.p_any).cmp(&chance_key(a.p_any)).then_with(|| a.id.cmp(&b.id)));
}

fn sort_affixes(a: &mut [AffixStat]) {
    a.sort_by(|x, y| chance_key(y.p_any).cmp(&chance_key(x.p_any)).then_with(|| x.id.cmp(&y.id)));
}

/// A chance as it is ordered: rounded to 40 significant bits (about twelve decimal digits), so
/// that two chances equal in exact arithmetic but summed along different paths — which can
/// differ in their last bits — are ordered by ID, as equal chances are. A total order: the key
/// is an integer, monotonic in the chance (the bits of a non-negative float are).
fn chance_key(p: f64) -> u64 {
    const IGNORED: u32 = 12;
    let bits = if p > 0.0 { p.to_bits() } else { 0 };
    (bits + (1 << (IGNORED - 1))) >> IGNORED
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_equal_but_for_their_last_bits_are_ordered_by_id() {
        let drop = |id: &str, p_any: f64| DropStat { id: id.into(), p_any, expected: p_any, affixes: Vec::new() };
        let p = 0.044769753318307126_f64;
        let next = f64::from_bits(p.to_bits() - 3);
        let mut d = vec![drop("core:zeta", p), drop("core:alpha", next), drop("core:top", 0.5), drop("core:low", 1e-9), drop("core:none", 0.0)];
        sort_drops(&mut d);
        let ids: Vec<&str> = d.iter().map(|x| &*x.id).collect();
        assert_eq!(ids, ["core:top", "core:alpha", "core:zeta", "core:low", "core:none"]);
        // Chances apart by more than the rounding keep their order whatever the IDs.
        assert!(chance_key(0.1) > chance_key(0.1 * (1.0 - 1e-10)));
        assert!(chance_key(1e-300) > chance_key(0.0));
        assert_eq!(chance_key(-0.0), chance_key(0.0));
    }

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
    fn one_in_n_reads_as_printed() {
        assert_eq!(one_in_text(0.25), "4.0");
        // 1 in 12.25: a tie, rounded up.
        assert_eq!(one_in_text(4.0 / 49.0), "12.3");
        assert_eq!(one_in_text(0.0), "never");
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
}
