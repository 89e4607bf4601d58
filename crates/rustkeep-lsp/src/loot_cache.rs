//! Exact loot reports for the hover, kept across analyses: each report keeps the tables compiled
//! for it, and an analysis that changes a name they depend on marks it stale instead of dropping
//! it; the next hover compiles again only the tables that changed
//! ([`LootDb::refresh`]), and the per-table statistics decide their own reuse ([`KeptStats`]).

use std::sync::Arc;

use rustkeep_check::incremental::LootChanges;
use rustkeep_data::db::Database;
use rustkeep_data::hash::{FxHashMap as HashMap, FxHashSet};
use rustkeep_engine::loot::{KeptStats, LootDb, LootError, LootReport};

/// Reports kept at most, and tables compiled for them at most; past either, stale reports go
/// first, then all.
const REPORTS_KEPT: usize = 256;
const TABLES_KEPT: usize = 100_000;

/// One table's report and the tables compiled for it.
#[derive(Debug)]
struct Entry {
    report: Arc<Result<LootReport, LootError>>,
    compiled: LootDb,
    /// When stale: every name changed since the report was made.
    changed: Option<FxHashSet<Arc<str>>>,
}

/// The loot reports by table, and the statistics behind them.
#[derive(Debug)]
pub struct LootCache {
    reports: HashMap<String, Entry>,
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
    /// on each item: kept, brought up to date, or computed.
    pub fn report(&mut self, db: &Database, id: &str) -> Arc<Result<LootReport, LootError>> {
        let kept = &mut self.kept;
        if let Some(e) = self.reports.get_mut(id) {
            let Some(changed) = e.changed.take() else { return e.report.clone() };
            if !e.compiled.refresh(db, kept, |name| changed.contains(name)) {
                e.compiled = LootDb::reaching(db, id, kept);
            }
            e.report = Arc::new(e.compiled.analyze_kept(id, 0.0, kept));
            return e.report.clone();
        }
        let compiled = LootDb::reaching(db, id, kept);
        let over = |reports: &HashMap<String, Entry>| {
            reports.len() >= REPORTS_KEPT || reports.values().map(|e| e.compiled.table_count()).sum::<usize>() + compiled.table_count() > TABLES_KEPT
        };
        if over(&self.reports) {
            self.reports.retain(|_, e| e.changed.is_none());
            if over(&self.reports) {
                self.reports.clear();
            }
        }
        let report = Arc::new(compiled.analyze_kept(id, 0.0, kept));
        self.reports.insert(id.to_string(), Entry { report: report.clone(), compiled, changed: None });
        report
    }

    /// Marks stale the reports an analysis with `changes` may have changed.
    pub fn forget(&mut self, changes: &LootChanges) {
        if changes.all || changes.balance {
            self.reports.clear();
            return;
        }
        if changes.tables.is_empty() && changes.named.is_empty() {
            return;
        }
        let names = || changes.tables.iter().chain(&changes.named).cloned();
        for e in self.reports.values_mut() {
            match &mut e.changed {
                Some(changed) => changed.extend(names()),
                None => {
                    if e.compiled.depends_on().any(|d| changes.tables.contains(d) || changes.named.contains(d)) {
                        e.changed = Some(names().collect());
                    }
                }
            }
        }
    }
}
