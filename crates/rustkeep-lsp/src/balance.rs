//! Balance beside the data (docs/editors/lsp.md, "Balance lenses"): above every creature of an
//! open document, how often a new character of each option beats one of it in the arena
//! (`warrior 62 % · mage 40 % · … (1,000 fights)`); above every loot table, what one roll gives
//! (`per roll: 1.2 items · core:gold 40 %`); on a creature's hover, its matrix row with 95 %
//! intervals; and the full report for the command `rustkeep.showBalance`.
//!
//! How it stays out of the way of typing:
//! - **After the typing stops**: the scheduler (`balance_task.rs`) waits until no edit arrived
//!   for [`QUIET`], then asks the state thread for a [`Job`] (`state/balance.rs`: the targets of
//!   the open documents and the key of each figure — a hash of the text of every entry it reads).
//! - **In turns that give way**: the [`Worker`] lowers in full only the files those entries are
//!   in, builds small worlds of those entries alone (a few tables, or one creature's row) and runs
//!   the fights there — the same fights as `rustkeep arena --matrix --runs 1000`
//!   ([`rustkeep_engine::arena::cell`]), hence the same figures. It runs on the state thread, so
//!   that what it allocates reuses the analysis's memory instead of growing a heap of its own,
//!   in turns queued behind the other jobs: a turn stops as soon as another job is queued (it
//!   looks every 64 fights and between files), keeping what it finished, and the job goes on
//!   after that job. A keystroke's analysis waits a millisecond or so at most.
//! - **Cached by what they depend on**: a figure whose key did not change is never computed
//!   again; an edit of a creature reruns its row, an edit of an item the cells of the options
//!   that carry it.
//! - **Cancelled by newer edits**: every edit received makes the job under way stale; it stops
//!   within 64 fights, keeping the cells it finished (they are keyed, so still right for their
//!   inputs), and the next job starts once the typing stops again.
//! - **Shown when ready**: each finished row or set of tables asks the client for the lenses
//!   again (`workspace/codeLens/refresh`); until then a lens shows the figures it had, or
//!   `balance: computing…`.
//!
//! The budget: the open documents' creatures and tables only, at most [`OPTIONS_SHOWN`] options
//! per creature, [`FIGHTS`] fights per cell, and only the state thread's idle time.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rustkeep_data::db::Database;
use rustkeep_data::hash::FxHashMap as HashMap;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::number::{fixed, percent};
use rustkeep_data::project::Project;
use rustkeep_data::resolve::EntryRef;
use rustkeep_data::source::FileId;
use rustkeep_data::text::thousands;
use rustkeep_data::vocab::{IdText, Registry};
use rustkeep_engine::arena::{self, Report};
use rustkeep_engine::game::World;
use rustkeep_engine::loot::{one_in_text, KeptStats};
use rustkeep_engine::stats::{rate, wilson, Z_95};

/// Fights per option and creature: the lens's figures are `rustkeep arena --matrix --runs 1000`'s.
pub const FIGHTS: u64 = 1_000;
/// The arena's seed and round limit for the lenses (the command's defaults).
pub const SEED: u64 = 0;
pub const ROUNDS: u32 = arena::DEFAULT_ROUNDS;
/// Character options a creature's lens shows at most (see `state/balance.rs`).
pub const OPTIONS_SHOWN: usize = 8;
/// How long no edit must arrive before the figures are brought up to date.
pub const QUIET: Duration = Duration::from_millis(80);
/// The command that opens an entry's full balance report.
pub const SHOW_COMMAND: &str = "rustkeep.showBalance";
/// Tables whose figures one world computes at most.
const TABLES_PER_WORLD: usize = 4;
/// Entries the worker keeps lowered between worlds at most (beyond what the last world needed).
const ENTRIES_KEPT: usize = 2_000;
/// Drops a table's lens and report name at most.
const DROPS_KEPT: usize = 100;

/// What the worker is asked for: the figures of the open documents and the key of each.
pub struct Job {
    /// The state's revision the job was made at.
    pub revision: u64,
    /// The edits received when it was made ([`Balance::edits`]): once more arrived, it is stale.
    pub edits: u64,
    pub project: Project,
    /// The files that set `[balance]` keys.
    pub balance_files: Vec<FileId>,
    /// Per character option: the entries its side of a fight reads.
    pub options: HashMap<String, Vec<EntryRef>>,
    pub targets: Vec<Target>,
}

pub enum Target {
    /// A creature: per option shown, the key of its cell; how many options there are; the
    /// entries its side of a fight reads.
    Creature { id: String, cells: Vec<(String, u64)>, option_count: usize, entries: Vec<EntryRef> },
    /// A loot table, its key and the entries its analysis reads.
    Table { id: String, key: u64, entries: Vec<EntryRef> },
}

/// One cell of a creature's row: the arena's report of [`FIGHTS`] fights.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub runs: u64,
    pub wins: u64,
    pub escapes: u64,
    pub losses: u64,
    pub draws: u64,
    pub mean_rounds: f64,
}

impl Cell {
    fn of(r: &Report) -> Cell {
        Cell { runs: r.runs, wins: r.wins, escapes: r.escapes, losses: r.losses, draws: r.draws, mean_rounds: r.mean_rounds() }
    }
    pub fn win_rate(&self) -> f64 {
        rate(self.wins, self.runs)
    }
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.wins, self.runs, Z_95)
    }
}

/// A loot table's figures at luck 0: the expected items of one roll and its likeliest drops.
#[derive(Clone, Debug, PartialEq)]
pub enum Table {
    Figures {
        items: f64,
        drops: Vec<(String, f64, f64)>,
        drop_count: usize,
    },
    /// Why the table cannot be evaluated (a cycle, an unknown table).
    Error(String),
}

/// The figures computed so far and the keys the newest job wants. Shared by the worker (which
/// writes it) and the state (whose handlers read it).
#[derive(Debug, Default)]
pub struct Store {
    /// `(creature, option)` → the key it was computed for and the cell.
    cells: HashMap<(String, String), (u64, Cell)>,
    tables: HashMap<String, (u64, Table)>,
    /// The newest job's creatures: the options shown and their keys, and how many options exist.
    rows: HashMap<String, (Vec<(String, u64)>, usize)>,
    /// The newest job's tables and their keys.
    wanted_tables: HashMap<String, u64>,
    /// An edit arrived after the newest job was made: every figure may be out of date until the
    /// next job says which are not (shown as updating meanwhile).
    outdated: bool,
    /// Cells and tables computed, for the tests (what an edit reran).
    pub computed_cells: u64,
    pub computed_tables: u64,
}

/// A creature's row: per option shown, its cell when there is one.
pub type Row = Vec<(String, Option<(Cell, Freshness)>)>;

/// Where a figure stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freshness {
    /// Computed for the data as it is.
    Current,
    /// Computed for an earlier text; the new figure is on its way.
    Updating,
}

impl Store {
    /// The shown options of a creature's row, each with its cell when there is one.
    pub fn row(&self, creature: &str) -> Option<(Row, usize)> {
        let (options, count) = self.rows.get(creature)?;
        let cells = options
            .iter()
            .map(|(o, key)| {
                let c = self.cells.get(&(creature.to_string(), o.clone())).map(|(k, c)| (c.clone(), self.freshness(k == key)));
                (o.clone(), c)
            })
            .collect();
        Some((cells, *count))
    }

    pub fn table(&self, id: &str) -> Option<(Table, Freshness)> {
        let key = self.wanted_tables.get(id);
        self.tables.get(id).map(|(k, t)| (t.clone(), self.freshness(Some(k) == key)))
    }

    fn freshness(&self, same_key: bool) -> Freshness {
        if same_key && !self.outdated {
            Freshness::Current
        } else {
            Freshness::Updating
        }
    }

    /// An edit arrived: the figures are shown as updating until the next job.
    pub fn edited(&mut self) {
        self.outdated = true;
    }

    /// Whether every figure the newest job wants is computed for its key, and no edit arrived
    /// since that job was made.
    pub fn settled(&self) -> bool {
        !self.outdated
            && self.rows.iter().all(|(c, (options, _))| options.iter().all(|(o, k)| self.cells.get(&(c.clone(), o.clone())).is_some_and(|(key, _)| key == k)))
            && self.wanted_tables.iter().all(|(t, k)| self.tables.get(t).is_some_and(|(key, _)| key == k))
    }

    /// Takes the job's wants (`edits`: the edits received by now); forgets figures nothing wants
    /// when too many are kept.
    fn want(&mut self, job: &Job, edits: u64) {
        self.outdated = job.edits != edits;
        self.rows.clear();
        self.wanted_tables.clear();
        for t in &job.targets {
            match t {
                Target::Creature { id, cells, option_count, .. } => {
                    self.rows.insert(id.clone(), (cells.clone(), *option_count));
                }
                Target::Table { id, key, .. } => {
                    self.wanted_tables.insert(id.clone(), *key);
                }
            }
        }
        const KEPT: usize = 20_000;
        if self.cells.len() > KEPT {
            let rows = &self.rows;
            self.cells.retain(|(c, _), _| rows.contains_key(c));
        }
        if self.tables.len() > KEPT {
            let wanted = &self.wanted_tables;
            self.tables.retain(|t, _| wanted.contains_key(t));
        }
    }
}

/// The server's side of the balance figures: the worker, its store and the count of edits.
pub struct Balance {
    pub store: Arc<Mutex<Store>>,
    /// The worker; it runs on the state thread (see the module docs), one job at a time.
    pub(crate) worker: Mutex<Worker>,
    /// Edits received so far (the scheduler waits for it to stand still; a job compares it).
    pub edits: Arc<AtomicU64>,
    /// Called whenever figures were added.
    ready: Box<dyn Fn() + Send + Sync>,
}

/// How a job's turn on the state thread ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Every figure it wants is computed.
    Done,
    /// Other work was waiting: the job goes on after it.
    Yielded,
    /// A newer edit makes it stale.
    Stale,
}

impl Balance {
    /// `ready` is called whenever figures were added.
    pub fn new(store: Arc<Mutex<Store>>, ready: impl Fn() + Send + Sync + 'static) -> Balance {
        let edits = Arc::new(AtomicU64::new(0));
        let worker = Worker { store: store.clone(), edits: edits.clone(), lowered: HashMap::default() };
        Balance { store, worker: Mutex::new(worker), edits, ready: Box::new(ready) }
    }

    /// A turn of `job` on the calling thread (the state thread), given up as soon as `waiting`
    /// says other work is queued.
    pub fn turn(&self, job: &Job, waiting: &dyn Fn() -> bool) -> Turn {
        let mut worker = self.worker.lock().unwrap_or_else(|e| e.into_inner());
        match worker.run_until(job, &*self.ready, waiting) {
            true => Turn::Done,
            false if self.edits.load(Ordering::SeqCst) != job.edits => Turn::Stale,
            false => Turn::Yielded,
        }
    }

    /// Forgets the files lowered so far (after a turn that panicked).
    pub fn reset(&self) {
        self.worker.lock().unwrap_or_else(|e| e.into_inner()).lowered.clear();
    }

    /// An edit was received: the job under way is stale, and the figures shown are updating.
    pub fn edited(&self) {
        self.edits.fetch_add(1, Ordering::SeqCst);
        lock(&self.store).edited();
    }
}

/// The worker: it computes a job's figures, and keeps the files it lowered (cut to what the
/// figures read) while their text stays.
pub struct Worker {
    store: Arc<Mutex<Store>>,
    edits: Arc<AtomicU64>,
    lowered: HashMap<FileId, Lowered>,
}

fn lock(store: &Mutex<Store>) -> std::sync::MutexGuard<'_, Store> {
    store.lock().unwrap_or_else(|e| e.into_inner())
}

impl Worker {
    /// A worker for in-process use (tests): [`Worker::run`] computes on the calling thread.
    pub fn new(store: Arc<Mutex<Store>>) -> Worker {
        Worker { store, edits: Arc::new(AtomicU64::new(0)), lowered: HashMap::default() }
    }

    /// The count of edits this worker compares a job's with (a test moves it to cancel).
    pub fn edits(&self) -> Arc<AtomicU64> {
        self.edits.clone()
    }

    /// Brings the store up to date with `job`, calling `ready` after each batch of figures.
    /// Returns whether it ran to its end (not cancelled by a newer edit).
    pub fn run(&mut self, job: &Job, ready: &dyn Fn()) -> bool {
        self.run_until(job, ready, &|| false)
    }

    /// [`Worker::run`], giving up also as soon as `waiting` says (asked every 64 fights and
    /// between files) — what it finished is kept, so the next turn goes on from there.
    pub fn run_until(&mut self, job: &Job, ready: &dyn Fn(), waiting: &dyn Fn() -> bool) -> bool {
        let edits = self.edits.clone();
        let cancelled = move || edits.load(Ordering::SeqCst) != job.edits || waiting();
        let (tables, rows) = {
            let mut store = lock(&self.store);
            store.want(job, self.edits.load(Ordering::SeqCst));
            let tables: Vec<(&str, u64)> = job
                .targets
                .iter()
                .filter_map(|t| match t {
                    Target::Table { id, key, .. } if store.tables.get(id).is_none_or(|(k, _)| k != key) => Some((id.as_str(), *key)),
                    _ => None,
                })
                .collect();
            let rows: Vec<(&str, Vec<(&str, u64)>)> = job
                .targets
                .iter()
                .filter_map(|t| match t {
                    Target::Creature { id, cells, .. } => {
                        let todo: Vec<(&str, u64)> = cells
                            .iter()
                            .filter(|(o, key)| store.cells.get(&(id.clone(), o.clone())).is_none_or(|(k, _)| k != key))
                            .map(|(o, k)| (o.as_str(), *k))
                            .collect();
                        (!todo.is_empty()).then_some((id.as_str(), todo))
                    }
                    _ => None,
                })
                .collect();
            (tables, rows)
        };
        if tables.is_empty() && rows.is_empty() {
            ready();
            return true;
        }
        // Each world holds what its figures read, nothing else: a few tables, or one creature's
        // row (the creature and the options of its cells). Small worlds keep the worker's memory
        // small; the files lowered for one are kept for the next while their text stays.
        let files_of = |entries: &mut dyn Iterator<Item = &EntryRef>| -> Vec<(FileId, Vec<u32>)> {
            let mut needed: HashMap<FileId, Vec<u32>> = job.balance_files.iter().map(|f| (*f, Vec::new())).collect();
            for r in entries {
                needed.entry(r.file).or_default().push(r.index);
            }
            let mut files: Vec<(FileId, Vec<u32>)> = needed
                .into_iter()
                .map(|(f, mut v)| {
                    v.sort_unstable();
                    v.dedup();
                    (f, v)
                })
                .collect();
            files.sort_unstable();
            files
        };
        let entries_of = |id: &str| {
            job.targets.iter().find_map(|t| match t {
                Target::Table { id: t, entries, .. } | Target::Creature { id: t, entries, .. } if t == id => Some(entries.as_slice()),
                _ => None,
            })
        };
        for batch in tables.chunks(TABLES_PER_WORLD) {
            let files = files_of(&mut batch.iter().flat_map(|(id, _)| entries_of(id).unwrap_or(&[])));
            let Some(world) = self.world(&job.project, &files, &cancelled) else { return false };
            let mut kept = KeptStats::drops_only();
            let figures: Vec<(&str, u64, Table)> = batch.iter().map(|(id, key)| (*id, *key, table_figures(&world, id, &mut kept))).collect();
            drop(world);
            let mut store = lock(&self.store);
            for (id, key, t) in figures {
                store.tables.insert(id.to_string(), (key, t));
                store.computed_tables += 1;
            }
            drop(store);
            ready();
        }
        for (creature, todo) in rows {
            let options = todo.iter().flat_map(|(o, _)| job.options.get(*o).map_or(&[][..], Vec::as_slice));
            let files = files_of(&mut entries_of(creature).unwrap_or(&[]).iter().chain(options));
            let Some(world) = self.world(&job.project, &files, &cancelled) else { return false };
            for (option, key) in todo {
                let Some(report) = arena::cell(&world, option, creature, FIGHTS, SEED, ROUNDS, &cancelled) else { return false };
                let mut store = lock(&self.store);
                store.cells.insert((creature.to_string(), option.to_string()), (key, Cell::of(&report)));
                store.computed_cells += 1;
            }
            ready();
        }
        true
    }

    /// A world of the entries at `files`, alone: each file lowered in full and cut
    /// to those entries (and its `[balance]` keys), kept for the next job while its text stays
    /// and it holds what that job needs. `None` when cancelled.
    fn world(&mut self, project: &Project, files: &[(FileId, Vec<u32>)], cancelled: &dyn Fn() -> bool) -> Option<World> {
        let project = project.clone();
        let mut facts: Vec<Option<Arc<FileFacts>>> = vec![None; project.files.len()];
        let mut kept: HashMap<FileId, Lowered> = HashMap::default();
        for (fid, entries) in files {
            if cancelled() {
                return None;
            }
            let Some(f) = project.files.get(fid.0 as usize) else { continue };
            let same_text = |l: &Lowered| Arc::ptr_eq(&l.text, &f.text) || *l.text == *f.text;
            let lowered = match self.lowered.remove(fid) {
                Some(l) if same_text(&l) && entries.iter().all(|i| l.entries.binary_search(i).is_ok()) => Some(l),
                old => {
                    let mut wanted = entries.clone();
                    if let Some(l) = old.filter(|l| same_text(l)) {
                        wanted.extend(l.entries);
                        wanted.sort_unstable();
                        wanted.dedup();
                    }
                    rustkeep_check::lower_source(f).map(|full| Lowered { text: f.text.clone(), facts: Arc::new(cut(&full, &wanted)), entries: wanted })
                }
            };
            if let Some(l) = lowered {
                facts[fid.0 as usize] = Some(l.facts.clone());
                kept.insert(*fid, l);
            }
        }
        // Files this world did not need stay lowered as long as their text stays (the next world
        // may need them again), up to a bound: past it, the next world starts afresh.
        for (fid, l) in self.lowered.drain() {
            if !kept.contains_key(&fid) && project.files.get(fid.0 as usize).is_some_and(|f| Arc::ptr_eq(&l.text, &f.text)) {
                kept.insert(fid, l);
            }
        }
        let world_entries: usize = facts.iter().flatten().map(|f| f.entries.len()).sum();
        if kept.values().map(|l| l.entries.len()).sum::<usize>() > ENTRIES_KEPT.max(world_entries) {
            kept.retain(|fid, _| facts[fid.0 as usize].is_some());
        }
        self.lowered = kept;
        // The figures follow the user's typing, errors and all.
        let db = Database::new(&project, facts);
        Some(World::best_effort(project, db))
    }
}

/// A file lowered for the worker: its text, the entries kept (sorted indices) and their facts.
struct Lowered {
    text: Arc<str>,
    entries: Vec<u32>,
    facts: Arc<FileFacts>,
}

/// A file's facts with only the entries at `keep` (sorted indices) and its `[balance]` keys:
/// what a world of them reads.
fn cut(full: &FileFacts, keep: &[u32]) -> FileFacts {
    let entries = full.entries.iter().enumerate().filter(|(i, _)| keep.binary_search(&(*i as u32)).is_ok()).map(|(_, e)| e.clone()).collect();
    FileFacts { entries, balance: full.balance.clone(), ..FileFacts::default() }
}

/// A table's figures from the world's exact analysis at luck 0, without the chance of each affix
/// on each item (the lens and the report show the drops, as the hover).
fn table_figures(world: &World, id: &str, kept: &mut KeptStats) -> Table {
    match world.loot.analyze_kept(id, 0.0, kept) {
        Ok(r) => {
            let items = r.drops.iter().map(|d| d.expected).sum();
            let drops = r.drops.iter().take(DROPS_KEPT).map(|d| (d.id.to_string(), d.p_any, d.expected)).collect();
            Table::Figures { items, drops, drop_count: r.drops.len() }
        }
        Err(e) => Table::Error(e.to_string()),
    }
}

/// `1.2`, `0.35`, `12`: the expected items of a roll.
fn items_text(n: f64) -> String {
    let s = if n >= 10.0 {
        format!("{n:.0}")
    } else if n >= 1.0 {
        format!("{n:.1}")
    } else {
        format!("{n:.2}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Option IDs as a lens names them: without their mod where that stays unambiguous.
fn short_names(ids: &[String]) -> Vec<String> {
    let local = |id: &str| IdText::of(id).name().to_string();
    ids.iter().map(|id| if ids.iter().filter(|o| local(o) == local(id)).count() == 1 { local(id) } else { id.clone() }).collect()
}

/// The lens above a creature: `warrior 62 % · mage 40 % · rogue 55 % (1,000 fights)`.
pub fn creature_title(store: &Store, creature: &str) -> String {
    let Some((row, count)) = store.row(creature) else { return "balance: computing…".into() };
    if row.iter().all(|(_, c)| c.is_none()) {
        return if count == 0 { "balance: no character options".into() } else { "balance: computing…".into() };
    }
    let ids: Vec<String> = row.iter().map(|(o, _)| o.clone()).collect();
    let names = short_names(&ids);
    let parts: Vec<String> = row
        .iter()
        .zip(names)
        .map(|((_, c), name)| match c {
            Some((cell, _)) => format!("{name} {}", percent(cell.win_rate())),
            None => format!("{name} …"),
        })
        .collect();
    let more = if count > row.len() { format!(" · {} more options", count - row.len()) } else { String::new() };
    let updating = if row.iter().any(|(_, c)| !matches!(c, Some((_, Freshness::Current)))) { " ⟳" } else { "" };
    format!("{}{more} ({} fights){updating}", parts.join(" · "), thousands(FIGHTS))
}

/// The lens above a loot table: `per roll: 1.2 items · core:gold 40 %`.
pub fn table_title(store: &Store, table: &str) -> String {
    let Some((t, fresh)) = store.table(table) else { return "per roll: computing…".into() };
    let updating = if fresh == Freshness::Current { "" } else { " ⟳" };
    match t {
        Table::Figures { items, drops, .. } => match drops.first() {
            Some((id, p, _)) => {
                format!("per roll: {} item{} · {id} {}{updating}", items_text(items), if items_text(items) == "1" { "" } else { "s" }, percent(*p))
            }
            None => format!("per roll: nothing{updating}"),
        },
        Table::Error(why) => format!("per roll: cannot be computed ({why})"),
    }
}

/// The matrix row of a creature as Markdown (its hover and its report): each option's win rate
/// with its 95 % interval and the mean rounds.
pub fn creature_markdown(store: &Store, creature: &str, full: bool) -> String {
    let mut s = format!(
        "**Arena**: a new character of each option against one `{creature}`, {} fights each (seed {SEED}, at most {ROUNDS} rounds: the cells of `rustkeep arena --matrix --runs {FIGHTS}`)\n\n",
        thousands(FIGHTS)
    );
    let Some((row, count)) = store.row(creature) else {
        s.push_str("_Computing…_");
        return s;
    };
    if full {
        s.push_str("| option | win rate | 95 % interval | losses | draws | escapes | mean rounds |\n|---|--:|--:|--:|--:|--:|--:|\n");
    } else {
        s.push_str("| option | win rate | 95 % interval | mean rounds |\n|---|--:|--:|--:|\n");
    }
    for (o, c) in &row {
        match c {
            Some((c, fresh)) => {
                let (lo, hi) = c.interval();
                let mark = if *fresh == Freshness::Current { "" } else { " ⟳" };
                if full {
                    s.push_str(&format!(
                        "| `{o}` | {}{mark} | {}–{} | {} | {} | {} | {} |\n",
                        percent(c.win_rate()),
                        percent(lo),
                        percent(hi),
                        c.losses,
                        c.draws,
                        c.escapes,
                        fixed(c.mean_rounds, 1)
                    ));
                } else {
                    s.push_str(&format!("| `{o}` | {}{mark} | {}–{} | {} |\n", percent(c.win_rate()), percent(lo), percent(hi), fixed(c.mean_rounds, 1)));
                }
            }
            None if full => s.push_str(&format!("| `{o}` | … | | | | | |\n")),
            None => s.push_str(&format!("| `{o}` | … | | |\n")),
        }
    }
    if count > row.len() {
        s.push_str(&format!("\n{} more options: `rustkeep arena --matrix`.\n", count - row.len()));
    }
    if row.iter().any(|(_, c)| !matches!(c, Some((_, Freshness::Current)))) {
        s.push_str("\n⟳ being computed for the text as it is now.\n");
    }
    s
}

/// A loot table's report as Markdown: each drop's exact chance per roll at luck 0.
pub fn table_markdown(store: &Store, table: &str) -> String {
    let mut s = format!("**Loot**: one roll of `{table}` at luck 0 (exact, as `rustkeep loot {table}`)\n\n");
    match store.table(table) {
        None => s.push_str("_Computing…_"),
        Some((Table::Error(why), _)) => s.push_str(&format!("It cannot be computed: {why}.")),
        Some((Table::Figures { items, drops, drop_count }, _)) => {
            s.push_str(&format!("Expected items per roll: {}\n\n| drop | chance | 1 in | expected count |\n|---|--:|--:|--:|\n", items_text(items)));
            for (id, p, e) in &drops {
                s.push_str(&format!("| `{id}` | {} | {} | {} |\n", percent(*p), one_in_text(*p), fixed(*e, 4)));
            }
            if drop_count > drops.len() {
                s.push_str(&format!("\n{} more drops: `rustkeep loot {table}`.\n", drop_count - drops.len()));
            }
        }
    }
    s
}

/// The report `rustkeep.showBalance` opens for a creature or a table.
pub fn report(store: &Store, registry: Registry, id: &str) -> (String, String) {
    let title = format!("Balance of {id}");
    let body = match registry {
        Registry::Creatures => creature_markdown(store, id, true),
        _ => table_markdown(store, id),
    };
    (title.clone(), format!("# {title}\n\n{body}"))
}

/// How many fights each cell of a report was: for the tests.
pub fn figures_of(store: &Store, creature: &str) -> BTreeMap<String, Cell> {
    store.row(creature).map(|(row, _)| row.into_iter().filter_map(|(o, c)| c.map(|(c, _)| (o, c))).collect()).unwrap_or_default()
}
