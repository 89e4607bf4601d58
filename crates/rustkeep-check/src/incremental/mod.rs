//! Incremental checking, for the language server: the analysis of [`crate::analyze_with`] kept up
//! to date file by file, so that an edit costs what it can affect, not what the workspace holds.
//!
//! [`Incremental::update`] takes the new facts of the files that changed. Their old contribution
//! is taken out of the indexes and the new one put in ([`index`]), which tells which IDs an edit
//! touched. Then only these run again:
//! - **resolve**, per touched ID: its entries in load order, with `rustkeep_data::resolve`'s own
//!   [`resolve_entry`] (duplicates, namespaces, overrides), giving the ID's definition in force;
//! - **loot tables** ([`tables`]): the kinds of the tables whose shape changed and of the tables
//!   that take their kind from them, the nesting cycles reachable from changed edges, the entry
//!   checks of the tables that nest a table whose kind changed;
//! - **usage**: quests and tables whose definition or start/use count changed;
//! - **references**: every reference of a changed file, and elsewhere only the references naming an
//!   ID whose presence, kind or did-you-mean ([`suggest`]) changed.
//!
//! Every diagnostic sits in a slot of its file ([`slots`]); a file whose slots changed is finished
//! again (lint levels, allow comments, order) with the code of the batch check, so its list equals
//! what `rustkeep check` prints for the same texts. The language server's differential tests hold
//! it to that after random edit sequences.

mod index;
mod slots;
mod suggest;
mod tables;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustkeep_data::db::{Database, TableKind};
use rustkeep_data::diag::{Code, Diagnostic};
use rustkeep_data::hash::{FxHashMap, FxHashSet};
use rustkeep_data::lower::FileFacts;
use rustkeep_data::manifest::Level;
use rustkeep_data::project::Project;
use rustkeep_data::resolve::{entry, load_order, override_missing_target, resolve_balance, resolve_entry, Def, DefMap, EntryRef, Resolved};
use rustkeep_data::source::FileId;
use rustkeep_data::vocab::Registry;

use crate::rules::{loot, references, usage};
use index::{Index, Sym};
use slots::{Slot, Slots};
use suggest::{Missing, Suggestions};
use tables::{KindChange, Shape, TableInfo, Tables};

/// How long the parts of the last update took.
#[derive(Clone, Copy, Debug, Default)]
pub struct Timings {
    /// Indexing the changed files and resolving the IDs they touch.
    pub resolve: Duration,
    /// The cross-file rules.
    pub rules: Duration,
    /// Finishing the files whose diagnostics changed.
    pub finish: Duration,
    /// Files whose finished list changed.
    pub changed_files: usize,
}

/// What an update changed that exact loot chances depend on (see [`Incremental::loot_changes`]).
#[derive(Clone, Debug, Default)]
pub struct LootChanges {
    /// Everything (the first analysis).
    pub all: bool,
    /// Loot tables that appeared, disappeared, or whose kind, `rolls` or entries changed.
    pub tables: FxHashSet<Arc<str>>,
    /// Items and affixes that appeared or disappeared.
    pub named: FxHashSet<Arc<str>>,
    /// The `[balance]` luck factor changed.
    pub balance: bool,
}

/// The IDs of one registry whose definition appeared, disappeared, or moved in load order.
#[derive(Debug, Default)]
struct KeyChanges {
    added: Vec<Sym>,
    removed: Vec<Sym>,
    /// Still defined, but its first definition is another entry now.
    moved: Vec<Sym>,
}

impl KeyChanges {
    fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.moved.is_empty()
    }
}

/// What one update touches, collected phase by phase.
#[derive(Debug, Default)]
struct Work {
    /// Files whose facts changed, and a flag per file.
    files: Vec<FileId>,
    changed: Vec<bool>,
    chains: FxHashSet<(Registry, Sym)>,
    balance: bool,
    used_crossed: FxHashSet<Sym>,
    tags_crossed: FxHashSet<Sym>,
    started_crossed: FxHashSet<Sym>,
    keys: Vec<KeyChanges>,
    /// IDs that appeared in or left a registry.
    present: Vec<(Registry, Sym)>,
    /// Loot tables whose entries were resolved again.
    tables: FxHashSet<Sym>,
    /// Quests and loot tables whose `unused` diagnostic is due again.
    unused: FxHashSet<(Registry, Sym)>,
    missing_new: FxHashSet<EntryRef>,
    /// References naming these are checked again.
    ref_syms: FxHashSet<Sym>,
}

/// The one ID a chain of entries is resolved under, as [`resolve_entry`] sees its registry.
struct OneDef<'a> {
    key: &'a str,
    def: Option<Def>,
}

impl DefMap for OneDef<'_> {
    fn get(&self, id: &str) -> Option<&Def> {
        (id == self.key).then_some(self.def.as_ref()).flatten()
    }
    fn get_mut(&mut self, id: &str) -> Option<&mut Def> {
        (id == self.key).then_some(self.def.as_mut()).flatten()
    }
    fn insert(&mut self, id: &str, def: Def) {
        if id == self.key {
            self.def = Some(def);
        }
    }
    fn closest(&self, _word: &str) -> Option<&str> {
        // Needs the whole registry: found afterwards (see `Incremental::missing_targets`).
        None
    }
}

/// The analysis of a project, kept up to date file by file (see the module docs).
#[derive(Debug)]
pub struct Incremental {
    db: Database,
    ix: Index,
    slots: Slots,
    tables: Tables,
    sugg: Suggestions,
    /// The mod of every data file that is resolved.
    file_mod: Vec<Option<usize>>,
    /// Diagnostics of loading (per file): the project's, and the load order's.
    loading: Vec<Vec<Diagnostic>>,
    order_diags: Vec<Vec<Diagnostic>>,
    balance_files: Vec<FileId>,
    levels: HashMap<Code, Level>,
    /// Per registry, the IDs in force, sorted: built on first use (completion), then kept.
    ids: Vec<std::sync::OnceLock<BTreeSet<Arc<str>>>>,
    /// The tags some entry carries, sorted.
    tags: BTreeSet<Arc<str>>,
    /// Files whose finished list changed since [`Incremental::take_changed`].
    changed: Vec<FileId>,
    timings: Timings,
    loot_changes: LootChanges,
}

impl Incremental {
    /// The analysis of `project` over its lowered files (as [`crate::analyze_with`]).
    pub fn new(project: &Project, mut facts: Vec<Option<Arc<FileFacts>>>) -> Incremental {
        let n = project.files.len();
        facts.resize(n, None);
        let mut order_diags = Vec::new();
        let order = load_order(project, &mut order_diags);
        let mut rank = vec![None; n];
        let mut file_mod = vec![None; n];
        let mut ranked = Vec::new();
        for &mi in &order {
            for &fid in &project.mods[mi].data_files {
                if let Some(slot) = rank.get_mut(fid.0 as usize) {
                    *slot = Some(ranked.len() as u32);
                    file_mod[fid.0 as usize] = Some(mi);
                    ranked.push(fid);
                }
            }
        }
        let by_file = |diags: Vec<Diagnostic>| {
            let mut out: Vec<Vec<Diagnostic>> = vec![Vec::new(); n];
            for d in diags {
                if let Some(list) = out.get_mut(d.loc.file.0 as usize) {
                    list.push(d);
                }
            }
            out
        };
        let mut inc = Incremental {
            db: Database {
                facts: vec![None; n],
                resolved: Resolved { order, defs: vec![FxHashMap::default(); Registry::ALL.len()], ..Resolved::default() },
                table_kinds: FxHashMap::default(),
            },
            ix: Index { rank, ..Index::default() },
            slots: Slots::new(n),
            tables: Tables::default(),
            sugg: Suggestions::default(),
            file_mod,
            loading: by_file(project.diagnostics.clone()),
            order_diags: by_file(order_diags),
            balance_files: Vec::new(),
            levels: crate::lint_levels(project),
            ids: (0..Registry::ALL.len()).map(|_| std::sync::OnceLock::new()).collect(),
            tags: BTreeSet::new(),
            changed: Vec::new(),
            timings: Timings::default(),
            loot_changes: LootChanges::default(),
        };
        // Files in load order first: each resolve chain is then built by appending.
        let mut changes: Vec<(FileId, Option<Arc<FileFacts>>)> = ranked.iter().map(|f| (*f, facts[f.0 as usize].take())).collect();
        changes.extend(facts.into_iter().enumerate().filter(|(_, f)| f.is_some()).map(|(i, f)| (FileId(i as u32), f)));
        inc.apply(project, changes, true);
        inc.changed = (0..n).map(|i| FileId(i as u32)).collect();
        inc.loot_changes.all = true;
        inc
    }

    /// Takes in new facts for files whose text changed (`None` for a file that has none now).
    /// `project` must be the project the analysis was made for, with the new texts: the same
    /// files, mods and workspace settings (anything else needs [`Incremental::new`]).
    pub fn update(&mut self, project: &Project, changes: Vec<(FileId, Option<Arc<FileFacts>>)>) {
        self.apply(project, changes, false);
    }

    /// The data model: facts, the registries in force and the loot-table kinds. (Its
    /// `resolved.diagnostics` is empty: resolve problems are among [`Incremental::diagnostics`].)
    pub fn db(&self) -> &Database {
        &self.db
    }

    /// One file's diagnostics, as `rustkeep check` reports them.
    pub fn diagnostics(&self, file: FileId) -> &Arc<Vec<Diagnostic>> {
        static NONE: std::sync::OnceLock<Arc<Vec<Diagnostic>>> = std::sync::OnceLock::new();
        self.slots.files.get(file.0 as usize).map(|f| &f.finished).unwrap_or_else(|| NONE.get_or_init(Default::default))
    }

    /// Every diagnostic, in the order of [`crate::Analysis::diagnostics`].
    pub fn all_diagnostics(&self, project: &Project) -> Vec<Diagnostic> {
        let mut files: Vec<&rustkeep_data::source::SourceFile> = project.files.iter().collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files.into_iter().flat_map(|f| self.diagnostics(f.id).iter().cloned()).collect()
    }

    /// The files whose diagnostics changed since the last call (all of them the first time).
    pub fn take_changed(&mut self) -> Vec<FileId> {
        std::mem::take(&mut self.changed)
    }

    /// The IDs in force in a registry, sorted.
    pub fn ids(&self, registry: Registry) -> &BTreeSet<Arc<str>> {
        self.ids[registry.index()].get_or_init(|| {
            let mut ids: Vec<Arc<str>> =
                self.db.resolved.defs[registry.index()].keys().filter_map(|k| self.ix.sym(k)).map(|s| self.ix.names.shared(s).clone()).collect();
            ids.sort_unstable();
            ids.into_iter().collect()
        })
    }

    /// The tags some entry carries, sorted.
    pub fn tags(&self) -> &BTreeSet<Arc<str>> {
        &self.tags
    }

    /// How many `tags = […]` values carry a tag.
    pub fn carriers(&self, tag: &str) -> usize {
        self.ix.sym(tag).map_or(0, |s| self.ix.syms[s as usize].carried as usize)
    }

    /// The files whose references name `id` (an ID or a tag).
    pub fn files_naming(&self, id: &str) -> Vec<FileId> {
        self.ix.sym(id).map(|s| self.ix.syms[s as usize].referrers.as_slice().iter().map(|(f, _)| *f).collect()).unwrap_or_default()
    }

    /// How long the parts of the last update took.
    pub fn timings(&self) -> Timings {
        self.timings
    }

    /// What the last update changed that exact loot chances depend on: a loot report computed
    /// before it is still right if its table reaches none of these tables, names none of these
    /// items or affixes, and the luck factor stayed.
    pub fn loot_changes(&self) -> &LootChanges {
        &self.loot_changes
    }

    fn apply(&mut self, project: &Project, changes: Vec<(FileId, Option<Arc<FileFacts>>)>, bulk: bool) {
        let start = Instant::now();
        let n = self.db.facts.len();
        let mut w = Work { changed: vec![false; n], keys: (0..Registry::ALL.len()).map(|_| KeyChanges::default()).collect(), ..Work::default() };
        self.loot_changes = LootChanges::default();
        for (fid, new) in changes {
            let f = fid.0 as usize;
            if f >= n {
                continue;
            }
            let old = std::mem::replace(&mut self.db.facts[f], new.clone());
            if let Some(old) = &old {
                self.ix.file(fid, old, false, &mut w);
                self.sugg.missing.retain(|r, _| r.file != fid);
            }
            if let Some(new) = &new {
                self.ix.file(fid, new, true, &mut w);
            }
            self.slots.clear_file(fid);
            if !w.changed[f] {
                w.changed[f] = true;
                w.files.push(fid);
            }
        }
        self.resolve(project, &mut w);
        for &(reg, s) in &w.present {
            if matches!(reg, Registry::Items | Registry::Affixes) {
                self.loot_changes.named.insert(self.ix.names.shared(s).clone());
            }
        }
        if bulk {
            self.ix.syms.shrink_to_fit();
        }
        self.missing_targets(&w);
        let resolved = Instant::now();
        self.loot_tables(&mut w);
        self.usage(&w);
        self.references(&mut w);
        if w.balance {
            self.balance(project);
        }
        let ruled = Instant::now();
        let changed_files = self.finish(project);
        self.timings = Timings { resolve: resolved - start, rules: ruled - resolved, finish: ruled.elapsed(), changed_files };
    }

    /// Resolves every touched ID again from its entries in load order.
    fn resolve(&mut self, project: &Project, w: &mut Work) {
        let mut chains: Vec<(Registry, Sym)> = w.chains.drain().collect();
        chains.sort_unstable();
        for (reg, s) in chains {
            let name = self.ix.names.shared(s).clone();
            let entries: index::Few<EntryRef> = self.ix.chains.get_mut(&(reg, s)).map(std::mem::take).unwrap_or_default();
            let mut map = OneDef { key: &name, def: None };
            for &r in entries.as_slice() {
                let Some(mi) = self.file_mod[r.file.0 as usize] else { continue };
                let mut diags = Vec::new();
                resolve_entry(project, mi, entry(&self.db.facts, r), r, &mut map, &mut diags, &self.db.facts);
                if diags.iter().any(|d| d.code == Code::OverrideMissingTarget) {
                    self.sugg.missing.insert(r, Missing { registry: reg, word: s, suggestion: None });
                    w.missing_new.insert(r);
                } else {
                    self.sugg.missing.remove(&r);
                }
                self.slots.set(r.file, Slot::Resolve, r.index, diags);
                if matches!(reg, Registry::Quests | Registry::LootTables) {
                    self.slots.set(r.file, Slot::Unused, r.index, Vec::new());
                }
                if reg == Registry::LootTables {
                    self.slots.set(r.file, Slot::LootEntries, r.index, Vec::new());
                }
            }
            if let Some(chain) = self.ix.chains.get_mut(&(reg, s)) {
                *chain = entries;
            }
            let new = map.def;
            let defs = &mut self.db.resolved.defs[reg.index()];
            let keys = &mut w.keys[reg.index()];
            match (defs.get_mut(&*name), new) {
                (Some(old), Some(def)) => {
                    if old.defined != def.defined {
                        keys.moved.push(s);
                    }
                    if *old != def {
                        *old = def;
                    }
                }
                (None, Some(def)) => {
                    defs.insert(name.to_string(), def);
                    keys.added.push(s);
                    w.present.push((reg, s));
                    if let Some(ids) = self.ids[reg.index()].get_mut() {
                        ids.insert(name.clone());
                    }
                }
                (Some(_), None) => {
                    defs.remove(&*name);
                    keys.removed.push(s);
                    w.present.push((reg, s));
                    if let Some(ids) = self.ids[reg.index()].get_mut() {
                        ids.remove(&name);
                    }
                }
                (None, None) => {}
            }
            if matches!(reg, Registry::Quests | Registry::LootTables) {
                w.unused.insert((reg, s));
            }
            if reg == Registry::LootTables {
                w.tables.insert(s);
            }
        }
    }

    /// The did-you-mean of every `overrides` without a target that is new or whose registry's IDs
    /// changed.
    fn missing_targets(&mut self, w: &Work) {
        let refs: Vec<EntryRef> = self.sugg.missing.keys().copied().collect();
        for r in refs {
            let m = self.sugg.missing[&r].clone();
            let changes = &w.keys[m.registry.index()];
            let fresh = w.missing_new.contains(&r);
            if !fresh && changes.is_empty() {
                continue;
            }
            let word = self.ix.names.name(m.word).to_string();
            let defs = &self.db.resolved.defs[m.registry.index()];
            let pos = self.ix.pos(r);
            let sug = if fresh {
                suggest::missing_target(&self.ix, defs, r, &word)
            } else {
                let lost: Vec<Sym> = changes.removed.iter().chain(&changes.moved).copied().collect();
                let gained: Vec<Sym> = changes
                    .added
                    .iter()
                    .chain(&changes.moved)
                    .copied()
                    .filter(|s| defs.get(self.ix.names.name(*s)).and_then(|d| d.defined).is_some_and(|d| self.ix.pos(d) < pos))
                    .collect();
                suggest::revise(m.suggestion, &gained, &lost, &self.ix, &suggest::plain_rank(&word))
                    .unwrap_or_else(|()| suggest::missing_target(&self.ix, defs, r, &word))
            };
            if fresh || sug != m.suggestion {
                if let Some(mm) = self.sugg.missing.get_mut(&r) {
                    mm.suggestion = sug;
                }
                let e = entry(&self.db.facts, r);
                if let Some(ov) = &e.overrides {
                    let d = override_missing_target(m.registry.noun(), ov, r.file, sug.map(|s| self.ix.names.name(s)));
                    self.slots.replace(r.file, Slot::Resolve, r.index, d);
                }
            }
        }
    }

    /// Shapes, kinds, cycles and entry checks of the loot tables the update touched.
    fn loot_tables(&mut self, w: &mut Work) {
        let mut kind_roots: FxHashSet<Sym> = FxHashSet::default();
        let mut cycle_nodes: FxHashSet<Sym> = FxHashSet::default();
        let mut changes: Vec<KindChange> = Vec::new();
        let mut touched: Vec<Sym> = w.tables.iter().copied().collect();
        touched.sort_unstable();
        for &s in &touched {
            let current = self.db.resolved.defs[Registry::LootTables.index()].get(self.ix.names.name(s)).map(|d| d.current);
            let shape = current.map(|r| Shape::of(&mut self.ix, entry(&self.db.facts, r)));
            match (self.tables.info.get_mut(&s), shape) {
                (Some(info), Some(shape)) => {
                    if info.shape.direct != shape.direct || info.shape.nested != shape.nested {
                        kind_roots.insert(s);
                    }
                    if info.shape.content != shape.content || info.shape.edges != shape.edges {
                        self.loot_changes.tables.insert(self.ix.names.shared(s).clone());
                    }
                    if info.shape.edges != shape.edges {
                        cycle_nodes.insert(s);
                    }
                    info.shape = shape;
                }
                (None, Some(shape)) => {
                    self.loot_changes.tables.insert(self.ix.names.shared(s).clone());
                    self.tables.info.insert(s, TableInfo { shape, dist: u32::MAX, kind: None });
                    kind_roots.insert(s);
                    cycle_nodes.insert(s);
                    cycle_nodes.extend(self.ix.mentioned_by(s));
                }
                (Some(_), None) => {
                    self.loot_changes.tables.insert(self.ix.names.shared(s).clone());
                    if let Some(old) = self.tables.info.remove(&s) {
                        if old.kind.is_some() {
                            changes.push((s, old.kind, None));
                        }
                    }
                    kind_roots.insert(s);
                    cycle_nodes.insert(s);
                    cycle_nodes.extend(self.ix.mentioned_by(s));
                }
                (None, None) => {}
            }
        }
        changes.extend(self.tables.settle_kinds(&self.ix, &kind_roots));
        for &(s, _, kind) in &changes {
            self.loot_changes.tables.insert(self.ix.names.shared(s).clone());
            let name = self.ix.names.name(s);
            match kind {
                Some(k) => {
                    self.db.table_kinds.insert(name.to_string(), k);
                }
                None => {
                    self.db.table_kinds.remove(name);
                }
            }
            w.ref_syms.insert(s);
        }

        let names = &self.ix.names;
        let (removed, added) = self.tables.update_cycles(&cycle_nodes, &|s| names.name(s).to_string());
        for at in removed {
            self.slots.set(at.file, Slot::Cycle, at.index, Vec::new());
        }
        let mut rebuild: BTreeSet<u32> = added.into_iter().collect();
        for s in &touched {
            if let Some(c) = self.tables.cycle_of.get(s) {
                rebuild.insert(*c);
            }
        }
        for c in rebuild {
            self.cycle_diagnostic(c);
        }

        // Registered entries of the touched tables, of tables whose kind changed, and of the
        // tables that nest those.
        let mut recheck: BTreeSet<Sym> = touched.into_iter().collect();
        for &(s, _, _) in &changes {
            recheck.insert(s);
            recheck.extend(self.ix.mentioned_by(s));
        }
        let kinds = &self.db.table_kinds;
        let kind_of = |id: &str| kinds.get(id).copied();
        for s in recheck {
            let Some(def) = self.db.resolved.defs[Registry::LootTables.index()].get(self.ix.names.name(s)) else { continue };
            for r in def.defined.into_iter().chain(def.overrides.iter().map(|o| o.0)) {
                let mut out = Vec::new();
                loot::check_entries(&kind_of, r.file, entry(&self.db.facts, r), &mut out);
                self.slots.set(r.file, Slot::LootEntries, r.index, out);
            }
        }
    }

    /// Builds the diagnostic of one cycle where it belongs now.
    fn cycle_diagnostic(&mut self, c: u32) {
        let Some(cycle) = self.tables.cycles.get(&c) else { return };
        let defs = &self.db.resolved.defs[Registry::LootTables.index()];
        let members: FxHashSet<Sym> = cycle.members.iter().copied().collect();
        let mut list = Vec::with_capacity(cycle.members.len());
        for &m in &cycle.members {
            let name = self.ix.names.name(m);
            let Some(def) = defs.get(name) else { return };
            let e = entry(&self.db.facts, def.current);
            let edge = loot::nesting_edges(e)
                .find(|t| self.ix.sym(&t.value).is_some_and(|ts| members.contains(&ts)))
                .map(|t| (t.value.as_str(), def.current.file, &t.span));
            list.push((name, edge));
        }
        let at = defs.get(self.ix.names.name(cycle.members[0])).map(|d| d.current);
        let d = loot::cycle_diagnostic(&list);
        let old = cycle.at;
        if let Some(old) = old.filter(|o| Some(*o) != at) {
            self.slots.set(old.file, Slot::Cycle, old.index, Vec::new());
        }
        if let Some(at) = at {
            self.slots.set(at.file, Slot::Cycle, at.index, d.into_iter().collect());
        }
        if let Some(cycle) = self.tables.cycles.get_mut(&c) {
            cycle.at = at;
        }
    }

    /// `quest-never-started` and `unused-loot-table` where a definition or a count changed.
    fn usage(&mut self, w: &Work) {
        let mut todo: BTreeSet<(Registry, Sym)> = w.unused.iter().copied().collect();
        todo.extend(w.started_crossed.iter().map(|s| (Registry::Quests, *s)));
        todo.extend(w.used_crossed.iter().map(|s| (Registry::LootTables, *s)));
        for (reg, s) in todo {
            let name = self.ix.names.name(s);
            let Some(def) = self.db.resolved.defs[reg.index()].get(name) else { continue };
            let info = &self.ix.syms[s as usize];
            let unused = match reg {
                Registry::Quests => info.started == 0,
                _ => info.used == 0,
            };
            let d = if unused { usage::unused_entry(reg, name, def.current.file, entry(&self.db.facts, def.current)) } else { None };
            self.slots.set(def.current.file, Slot::Unused, def.current.index, d.into_iter().collect());
        }
    }

    /// Revises the did-you-mean of unknown references and tags, then checks again every
    /// reference of the changed files and the references naming what changed.
    fn references(&mut self, w: &mut Work) {
        for reg in Registry::ALL {
            let changes = &w.keys[reg.index()];
            if changes.added.is_empty() && changes.removed.is_empty() {
                continue;
            }
            let cached: Vec<(Sym, Option<Sym>)> = self.sugg.refs.iter().filter(|((r, _), _)| *r == reg).map(|((_, s), sug)| (*s, *sug)).collect();
            for (word, cur) in cached {
                if self.ix.syms[word as usize].referrers.is_empty() {
                    self.sugg.refs.remove(&(reg, word));
                    continue;
                }
                let name = self.ix.names.name(word);
                let defs = &self.db.resolved.defs[reg.index()];
                let new = suggest::revise(cur, &changes.added, &changes.removed, &self.ix, &suggest::reference_rank(name))
                    .unwrap_or_else(|()| suggest::unknown_reference(&self.ix, self.ids[reg.index()].get(), defs, name));
                if new != cur {
                    self.sugg.refs.insert((reg, word), new);
                    w.ref_syms.insert(word);
                }
            }
        }
        if !w.tags_crossed.is_empty() {
            let mut added = Vec::new();
            let mut removed = Vec::new();
            for &t in &w.tags_crossed {
                let name = self.ix.names.shared(t).clone();
                if self.ix.syms[t as usize].carried > 0 {
                    added.push(t);
                    self.tags.insert(name);
                } else {
                    removed.push(t);
                    self.tags.remove(&name);
                }
                w.ref_syms.insert(t);
            }
            let cached: Vec<(Sym, Option<Sym>)> = self.sugg.tags.iter().map(|(s, sug)| (*s, *sug)).collect();
            for (word, cur) in cached {
                if self.ix.syms[word as usize].referrers.is_empty() {
                    self.sugg.tags.remove(&word);
                    continue;
                }
                let name = self.ix.names.name(word);
                let new =
                    suggest::revise(cur, &added, &removed, &self.ix, &suggest::plain_rank(name)).unwrap_or_else(|()| suggest::unknown_tag(&self.ix, name));
                if new != cur {
                    self.sugg.tags.insert(word, new);
                    w.ref_syms.insert(word);
                }
            }
        }
        for &(_, s) in &w.present {
            w.ref_syms.insert(s);
        }
        let files = std::mem::take(&mut w.files);
        self.check_files(&files);
        w.files = files;
        let mut others: BTreeSet<FileId> = BTreeSet::new();
        for s in &w.ref_syms {
            for (f, _) in self.ix.syms[*s as usize].referrers.as_slice() {
                if !w.changed[f.0 as usize] {
                    others.insert(*f);
                }
            }
        }
        for fid in others {
            let hits: Vec<usize> = self.ix.ref_syms[fid.0 as usize].iter().enumerate().filter(|(_, s)| w.ref_syms.contains(s)).map(|(i, _)| i).collect();
            for i in hits {
                self.check_ref(fid, i);
            }
        }
    }

    /// The diagnostics of one reference under the three rules about it (table kind, registry,
    /// tag), or `Err(())` when a did-you-mean it needs is not known yet.
    fn ref_diagnostics(&self, fid: FileId, ff: &FileFacts, i: usize) -> Result<[Option<Diagnostic>; 3], ()> {
        let Some(r) = ff.refs.get(i) else { return Ok([None, None, None]) };
        let s = self.ix.ref_syms[fid.0 as usize][i];
        let kinds = &self.db.table_kinds;
        let kind_of = |id: &str| -> Option<TableKind> { kinds.get(id).copied() };
        let used = loot::check_use(&kind_of, fid, r);
        let names = &self.ix.names;
        let cache = &self.sugg.refs;
        let mut missing = false;
        let reference = references::check(&self.db.resolved, fid, r, |reg| match cache.get(&(reg, s)) {
            Some(sug) => sug.map(|x| names.name(x)),
            None => {
                missing = true;
                None
            }
        });
        let tag = if r.kind == rustkeep_data::vocab::RefKind::Tag && self.ix.syms[s as usize].carried == 0 {
            match self.sugg.tags.get(&s) {
                Some(sug) => Some(usage::unknown_tag(fid, r, sug.map(|x| self.ix.names.name(x)))),
                None => return Err(()),
            }
        } else {
            None
        };
        if missing {
            return Err(());
        }
        Ok([used, reference, tag])
    }

    /// Finds the did-you-means one reference needs.
    fn find_suggestions(&mut self, fid: FileId, ff: &FileFacts, i: usize) {
        let Some(r) = ff.refs.get(i) else { return };
        let s = self.ix.ref_syms[fid.0 as usize][i];
        if let Some(reg) = r.kind.registry() {
            if !self.sugg.refs.contains_key(&(reg, s)) {
                let resolved = &self.db.resolved;
                let sug = suggest::unknown_reference(&self.ix, self.ids[reg.index()].get(), &resolved.defs[reg.index()], &r.id);
                self.sugg.refs.insert((reg, s), sug);
            }
        }
        if r.kind == rustkeep_data::vocab::RefKind::Tag && !self.sugg.tags.contains_key(&s) {
            let sug = suggest::unknown_tag(&self.ix, &r.id);
            self.sugg.tags.insert(s, sug);
        }
    }

    fn set_ref(&mut self, fid: FileId, i: usize, [used, reference, tag]: [Option<Diagnostic>; 3]) {
        let i = i as u32;
        self.slots.set(fid, Slot::LootUse, i, used.into_iter().collect());
        self.slots.set(fid, Slot::Reference, i, reference.into_iter().collect());
        self.slots.set(fid, Slot::Tag, i, tag.into_iter().collect());
    }

    /// Checks one reference again.
    fn check_ref(&mut self, fid: FileId, i: usize) {
        let Some(ff) = self.db.facts[fid.0 as usize].clone() else { return };
        let diags = match self.ref_diagnostics(fid, &ff, i) {
            Ok(d) => d,
            Err(()) => {
                self.find_suggestions(fid, &ff, i);
                self.ref_diagnostics(fid, &ff, i).unwrap_or_default()
            }
        };
        self.set_ref(fid, i, diags);
    }

    /// Checks every reference of some files again, the files spread over the cores (the first
    /// analysis checks them all).
    fn check_files(&mut self, files: &[FileId]) {
        let this = &*self;
        let results: Vec<(Vec<(usize, [Option<Diagnostic>; 3])>, Vec<usize>)> =
            rustkeep_data::par::par_map(files, if files.len() > 8 { crate::default_threads() } else { 1 }, |fid| {
                let mut found = Vec::new();
                let mut later = Vec::new();
                if let Some(ff) = this.db.facts[fid.0 as usize].as_deref() {
                    for i in 0..ff.refs.len() {
                        match this.ref_diagnostics(*fid, ff, i) {
                            Ok(d) if d.iter().all(Option::is_none) => {}
                            Ok(d) => found.push((i, d)),
                            Err(()) => later.push(i),
                        }
                    }
                }
                (found, later)
            });
        for (fid, (found, later)) in files.iter().zip(results) {
            // The file's slots were emptied with its facts: only what is found goes in.
            for (i, d) in found {
                self.set_ref(*fid, i, d);
            }
            for i in later {
                self.check_ref(*fid, i);
            }
        }
    }

    /// `[balance]` settings: few, so all of them again.
    fn balance(&mut self, project: &Project) {
        let (balance, diags) = resolve_balance(project, &self.db.resolved.order, &self.db.facts);
        self.loot_changes.balance = balance.luck_factor.to_bits() != self.db.resolved.balance.luck_factor.to_bits();
        self.db.resolved.balance = balance;
        for f in std::mem::take(&mut self.balance_files) {
            self.slots.set(f, Slot::Balance, 0, Vec::new());
        }
        let mut by_file: FxHashMap<FileId, Vec<Diagnostic>> = FxHashMap::default();
        for d in diags {
            by_file.entry(d.loc.file).or_default().push(d);
        }
        for (f, list) in by_file {
            self.balance_files.push(f);
            self.slots.set(f, Slot::Balance, 0, list);
        }
    }

    /// Finishes the files whose slots changed; returns how many lists changed.
    fn finish(&mut self, project: &Project) -> usize {
        let mut n = 0;
        for (i, f) in self.slots.files.iter_mut().enumerate() {
            if !f.dirty {
                continue;
            }
            f.dirty = false;
            let facts = self.db.facts[i].as_deref();
            let broken = facts.is_some_and(|x| x.has_syntax_errors);
            let mut diags: Vec<Diagnostic> = self.loading[i].clone();
            diags.extend(facts.into_iter().flat_map(|x| x.diagnostics.iter().cloned()));
            diags.extend(self.order_diags[i].iter().cloned());
            for ((slot, _), list) in &f.slots {
                if !(broken && slot.is_rule()) {
                    diags.extend(list.iter().cloned());
                }
            }
            let list = crate::finish_file(project, &self.levels, facts, diags);
            if *f.finished != list {
                f.finished = Arc::new(list);
                self.changed.push(FileId(i as u32));
                n += 1;
            }
        }
        n
    }
}
