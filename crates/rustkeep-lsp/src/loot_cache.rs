//! Exact loot reports for the hover, kept until the analysis changes. A report asked for again
//! after a change compiles its table's reach anew and analyses it with the statistics kept from
//! before ([`KeptStats`]): a table's statistics are reused where it compiles to what they were
//! computed from, so an edit recomputes the tables above the edited one and nothing else, and
//! nothing has to be told what changed.

use std::sync::Arc;

use rustkeep_data::db::Database;
use rustkeep_data::hash::FxHashMap as HashMap;
use rustkeep_engine::loot::{KeptStats, LootDb, LootError, LootReport};

/// Reports kept at most between two changes of the analysis.
const REPORTS_KEPT: usize = 256;

/// The loot reports by table, and the statistics behind them.
#[derive(Debug)]
pub struct LootCache {
    reports: HashMap<String, Arc<Result<LootReport, LootError>>>,
    kept: KeptStats,
}

impl Default for LootCache {
    /// The hover shows drop chances, not the chances of each affix on each item.
    fn default() -> LootCache {
        LootCache { reports: HashMap::default(), kept: KeptStats::drops_only() }
    }
}

impl LootCache {
    /// The exact drop chances of table `id` (luck 0) in `db`, without the chances of each affix
    /// on each item: kept, or computed.
    pub fn report(&mut self, db: &Database, id: &str) -> Arc<Result<LootReport, LootError>> {
        if let Some(report) = self.reports.get(id) {
            return report.clone();
        }
        if self.reports.len() >= REPORTS_KEPT {
            self.reports.clear();
        }
        let report = Arc::new(LootDb::reaching(db, id, &mut self.kept).analyze_kept(id, 0.0, &mut self.kept));
        self.reports.insert(id.to_string(), report.clone());
        report
    }

    /// Forgets the reports: the analysis changed (the statistics behind them stay).
    pub fn forget(&mut self) {
        self.reports.clear();
    }
}
