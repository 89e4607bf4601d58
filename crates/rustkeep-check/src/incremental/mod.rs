//! Incremental checking, for the language server: the analysis of [`crate::analyze_with`] kept up
//! to date file by file, so that an edit costs what it can affect, not what the workspace holds.
//!
//! [`Incremental::update`] takes the new facts of the files that changed. Their old contribution
//! is taken out of the indexes and the new one put in ([`index`]), which tells which IDs an edit
//! touched. Then only these run again:
//! - **resolve**, per touched ID: its entries in load order, with `rustkeep_data::resolve`'s own
//!   [`resolve_entry`] (duplicates, namespaces, overrides), giving the ID's definition in force
//!   and its findings, worded by the batch check's own [`resolution::diagnostic`];
//! - **loot tables** ([`tables`]): the kinds of the tables whose shape changed and of the tables
//!   that take their kind from them, the nesting cycles reachable from changed edges;
//! - **the per-ID rules** of [`crate::rules::PER_ID`], for the touched IDs and the IDs whose reads
//!   ([`crate::rules::Reads`]) changed;
//! - **the per-reference rules** of [`crate::rules::PER_REF`], on every reference of a changed
//!   file, and elsewhere only on the references naming an ID whose presence, kind or did-you-mean
//!   ([`suggest`]) changed (for an old ID of `[renamed]`, the presence of the ID it leads to);
//! - **the whole-set rules** of [`crate::rules::WHOLE`]: each one again, over everything, when
//!   what it reads of a changed file ([`crate::rules::Whole::view`]) differs.
//!
//! A rule that claims an absence ([`crate::rules::Whole::absence`]) runs as over data read whole;
//! its findings are kept, and shown while the data reads whole.
//!
//! Every diagnostic sits in a slot of its file ([`slots`]); a file whose slots changed is finished
//! again (lint levels, allow comments, order) with the code of the batch check, so its list equals
//! what `rustkeep check` prints for the same texts. The language server's differential tests hold
//! it to that after random edit sequences.

mod index;
mod rules;
mod slots;
mod suggest;
mod tables;

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;
use rustkeep_data::db::Database;
use rustkeep_data::diag::{Code, Diagnostic};
use rustkeep_data::hash::{FxHashMap, FxHashSet};
use rustkeep_data::lower::FileFacts;
use rustkeep_data::manifest::Level;
use rustkeep_data::project::Project;
use rustkeep_data::resolve::{entry, load_order, missing_target_suggestion, resolve_entry, Def, EntryRef, Resolved};
use rustkeep_data::source::FileId;
use rustkeep_data::vocab::Registry;

use crate::rules::resolution;
use index::{Index, Sym};
use slots::{Slot, Slots};
use suggest::{Missing, Suggestions};
use tables::Tables;

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
    tags_crossed: FxHashSet<Sym>,
    /// Names whose count of starts or uses (by `rules::usage::Count`) crossed zero.
    crossed: [FxHashSet<Sym>; crate::rules::usage::Count::KINDS],
    keys: Vec<KeyChanges>,
    /// The IDs resolved again.
    resolved: Vec<(Registry, Sym)>,
    /// Loot tables whose kind changed.
    kinds: Vec<Sym>,
    missing_new: FxHashSet<EntryRef>,
    /// References naming these are checked again.
    ref_syms: FxHashSet<Sym>,
    /// Whether each [`crate::rules::WHOLE`] rule runs again (by index).
    whole: Vec<bool>,
}

/// One ID resolved: each of its entries with its diagnostics, and its definition in force.
type Resolution = (Vec<(EntryRef, Vec<Diagnostic>)>, Option<Def>);

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
    /// How many files (manifests too) have text that could not be read
    /// ([`crate::rules::absent::reads_whole`]):
    /// while there are some, the findings of the rules that claim an absence are not shown.
    unreadable_files: usize,
    /// Diagnostics of loading (per file): the project's, and the load order's.
    loading: Vec<Vec<Diagnostic>>,
    order_diags: Vec<Vec<Diagnostic>>,
    balance_files: Vec<FileId>,
    /// Files with findings of each [`crate::rules::WHOLE`] rule, or places their findings point at.
    whole_files: Vec<Vec<FileId>>,
    levels: HashMap<Code, Level>,
    /// Per registry, the IDs in force, sorted: built on first use (completion), then kept.
    ids: Vec<std::sync::OnceLock<BTreeSet<Arc<str>>>>,
    /// Per registry, the IDs in force indexed for judging fixes: built on first use (an unknown
    /// reference with a did-you-mean), then kept.
    rivals: Vec<std::sync::OnceLock<rustkeep_data::suggest::Rivals>>,
    /// The tags some entry carries, sorted.
    tags: BTreeSet<Arc<str>>,
    /// Files whose finished list changed since [`Incremental::take_changed`].
    changed: Vec<FileId>,
    timings: Timings,
}

impl Incremental {
    /// The analysis of `project` over its lowered files (as [`crate::analyze_with`]).
    pub fn new(project: &Project, mut facts: Vec<Option<Arc<FileFacts>>>) -> Incremental {
        let n = project.files.len();
        facts.resize(n, None);
        let mut order_findings = Vec::new();
        let order = load_order(project, &mut order_findings);
        let renamed = rustkeep_data::resolve::renames(project, &order, &mut order_findings);
        let unread = rustkeep_data::resolve::unread_ids(project, &order);
        let order_diags: Vec<Diagnostic> = order_findings.iter().filter_map(|f| resolution::diagnostic(project, &facts, f)).collect();
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
                resolved: Resolved { order, defs: vec![FxHashMap::default(); Registry::ALL.len()], renamed, unread, ..Resolved::default() },
                table_kinds: FxHashMap::default(),
                misfiled: FxHashMap::default(),
            },
            ix: Index { rank, ..Index::default() },
            slots: Slots::new(n),
            tables: Tables::default(),
            sugg: Suggestions::default(),
            file_mod,
            loading: by_file(project.diagnostics.clone()),
            order_diags: by_file(order_diags),
            // A manifest is read again with its project, which starts a new analysis.
            unreadable_files: project.mods.iter().filter(|m| m.manifest.unreadable).count(),
            balance_files: Vec::new(),
            whole_files: vec![Vec::new(); crate::rules::WHOLE.len()],
            levels: crate::lint_levels(project),
            ids: (0..Registry::ALL.len()).map(|_| std::sync::OnceLock::new()).collect(),
            rivals: (0..Registry::ALL.len()).map(|_| std::sync::OnceLock::new()).collect(),
            tags: BTreeSet::new(),
            changed: Vec::new(),
            timings: Timings::default(),
        };
        // Files in load order first: each resolve chain is then built by appending.
        let mut changes: Vec<(FileId, Option<Arc<FileFacts>>)> = ranked.iter().map(|f| (*f, facts[f.0 as usize].take())).collect();
        changes.extend(facts.into_iter().enumerate().filter(|(_, f)| f.is_some()).map(|(i, f)| (FileId(i as u32), f)));
        inc.apply(project, changes, true);
        inc.changed = (0..n).map(|i| FileId(i as u32)).collect();
        inc
    }

    /// Takes in new facts for files whose text changed (`None` for a file that has none now).
    /// `project` must be the project the analysis was made for, with the new texts: the same
    /// files, mods and workspace settings (anything else needs [`Incremental::new`]).
    pub fn update(&mut self, project: &Project, changes: Vec<(FileId, Option<Arc<FileFacts>>)>) {
        self.apply(project, changes, false);
    }

    /// The data model: facts, the registries in force and the loot-table kinds. (Its
    /// `resolved.findings` is empty: resolve problems are among [`Incremental::diagnostics`].)
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

    /// The IDs in force in a registry, indexed for judging fixes.
    pub(super) fn rivals(&self, registry: Registry) -> &rustkeep_data::suggest::Rivals {
        self.rivals[registry.index()].get_or_init(|| rustkeep_data::suggest::Rivals::new(self.db.resolved.defs[registry.index()].keys().map(String::as_str)))
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

    fn apply(&mut self, project: &Project, changes: Vec<(FileId, Option<Arc<FileFacts>>)>, bulk: bool) {
        let start = Instant::now();
        let read_whole = self.unreadable_files == 0;
        let n = self.db.facts.len();
        let mut w = Work {
            changed: vec![false; n],
            keys: (0..Registry::ALL.len()).map(|_| KeyChanges::default()).collect(),
            // The first analysis runs every rule once: no view to compare.
            whole: vec![bulk; crate::rules::WHOLE.len()],
            ..Work::default()
        };
        for (fid, new) in changes {
            let f = fid.0 as usize;
            if f >= n {
                continue;
            }
            // A reference to an ID written under a key that is no registry says where it is
            // written: those references are checked again when that changes.
            self.db.file_misfiled(fid, false);
            let old = std::mem::replace(&mut self.db.facts[f], new.clone());
            self.db.file_misfiled(fid, true);
            for m in [&old, &new].into_iter().flatten().flat_map(|ff| ff.misfiled.iter()) {
                if let Some(s) = self.ix.sym(&m.id) {
                    w.ref_syms.insert(s);
                }
            }
            let [had, has] = [&old, &new].map(|ff| ff.as_ref().is_some_and(|ff| !ff.unreadable.is_empty()));
            self.unreadable_files = self.unreadable_files + usize::from(has) - usize::from(had);
            let mut keep: Vec<Slot> = Vec::new();
            for (i, rule) in crate::rules::WHOLE.iter().enumerate().filter(|_| !bulk) {
                // A view leaves out places: a file holding findings, or places they point at,
                // runs the rule again, as they may have moved.
                let same = !self.whole_files[i].contains(&fid) && old.as_deref().map(rule.view) == new.as_deref().map(rule.view);
                if same {
                    keep.push(Slot::Whole(i as u8));
                } else {
                    w.whole[i] = true;
                }
            }
            if let Some(old) = &old {
                self.ix.file(fid, old, false, &self.db.resolved, &mut w);
                self.sugg.missing.retain(|r, _| r.file != fid);
            }
            if let Some(new) = &new {
                self.ix.file(fid, new, true, &self.db.resolved, &mut w);
            }
            self.slots.clear_file_keeping(fid, &keep);
            if !w.changed[f] {
                w.changed[f] = true;
                w.files.push(fid);
            }
        }
        if read_whole != (self.unreadable_files == 0) {
            // The findings of the rules that claim an absence are shown or hidden.
            self.slots.touch(Slot::absence);
        }
        self.resolve(project, &mut w);
        if bulk {
            self.ix.syms.shrink_to_fit();
        }
        self.missing_targets(&w);
        let resolved = Instant::now();
        self.loot_tables(&mut w);
        self.per_id(project, &w);
        self.references(&mut w);
        if w.balance {
            self.balance(project);
        }
        for i in 0..w.whole.len() {
            if w.whole[i] {
                self.whole(project, i);
            }
        }
        let ruled = Instant::now();
        let changed_files = self.finish(project);
        self.timings = Timings { resolve: resolved - start, rules: ruled - resolved, finish: ruled.elapsed(), changed_files };
    }

    /// Resolves every touched ID again from its entries in load order.
    fn resolve(&mut self, project: &Project, w: &mut Work) {
        let mut chains: Vec<(Registry, Sym)> = w.chains.drain().collect();
        chains.sort_unstable();
        // Each ID resolves on its own: a first analysis spreads them over the cores, a part at a
        // time, so that the results waiting to be taken in stay few.
        for part in chains.chunks(16_384) {
            let this = &*self;
            let one = |&(reg, s): &(Registry, Sym)| this.resolve_chain(project, reg, s);
            let results: Vec<_> = if part.len() > 4096 { part.par_iter().map(one).collect() } else { part.iter().map(one).collect() };
            self.take_resolved(part, results, w);
        }
        w.resolved = chains;
    }

    /// Takes in the entries' diagnostics and the definitions in force of resolved IDs.
    fn take_resolved(&mut self, chains: &[(Registry, Sym)], results: Vec<Resolution>, w: &mut Work) {
        for (&(reg, s), (per_entry, new)) in chains.iter().zip(results) {
            let name = self.ix.names.shared(s).clone();
            for (r, diags) in per_entry {
                if diags.iter().any(|d| d.code == Code::OverrideMissingTarget) {
                    self.sugg.missing.insert(r, Missing { registry: reg, word: s, suggestion: None });
                    w.missing_new.insert(r);
                } else {
                    self.sugg.missing.remove(&r);
                }
                self.slots.set(r.file, Slot::Resolve, r.index, diags);
            }
            let defs = &mut self.db.resolved.defs[reg.index()];
            let keys = &mut w.keys[reg.index()];
            let came = match (defs.get_mut(&*name), new) {
                (Some(old), Some(def)) => {
                    if old.defined != def.defined {
                        keys.moved.push(s);
                    }
                    if *old != def {
                        *old = def;
                    }
                    continue;
                }
                (None, Some(def)) => {
                    defs.insert(name.to_string(), def);
                    keys.added.push(s);
                    true
                }
                (Some(_), None) => {
                    defs.remove(&*name);
                    keys.removed.push(s);
                    false
                }
                (None, None) => continue,
            };
            // The registry's IDs as completion and the safety of fixes read them, if built.
            if let Some(ids) = self.ids[reg.index()].get_mut() {
                if came {
                    ids.insert(name.clone())
                } else {
                    ids.remove(&name)
                };
            }
            if let Some(rivals) = self.rivals[reg.index()].get_mut() {
                if came {
                    rivals.add(&name)
                } else {
                    rivals.remove(&name)
                }
            }
        }
    }

    /// Resolves the entries of one ID in load order: each entry's diagnostics, and the ID's
    /// definition in force (the one-ID view of `rustkeep_data::resolve::resolve`).
    fn resolve_chain(&self, project: &Project, reg: Registry, s: Sym) -> Resolution {
        let Some(entries) = self.ix.chains.get(&(reg, s)) else { return (Vec::new(), None) };
        let mut def = None;
        let mut out = Vec::with_capacity(entries.len());
        for &r in entries.as_slice() {
            let Some(mi) = self.file_mod[r.file.0 as usize] else { continue };
            let mut findings = Vec::new();
            if let Some(new) = resolve_entry(project, mi, entry(&self.db.facts, r), r, def.as_mut(), &mut findings) {
                def = Some(new);
            }
            out.push((r, findings.iter().filter_map(|f| resolution::diagnostic(project, &self.db.facts, f)).collect()));
        }
        (out, def)
    }

    /// The did-you-mean of every `overrides` without a target that is new or whose registry's IDs
    /// changed: a kept one is revised, and searched for again when it changed or may be a slip.
    fn missing_targets(&mut self, w: &Work) {
        let refs: Vec<EntryRef> = self.sugg.missing.keys().copied().collect();
        for r in refs {
            let m = self.sugg.missing[&r].clone();
            let changes = &w.keys[m.registry.index()];
            let fresh = w.missing_new.contains(&r);
            if !fresh && changes.is_empty() {
                continue;
            }
            let word = self.ix.names.name(m.word);
            let defs = &self.db.resolved.defs[m.registry.index()];
            let pos = self.ix.pos(r);
            let before = |d: &Def| d.defined.is_some_and(|at| self.ix.pos(at) < pos);
            if !fresh {
                let lost: Vec<Sym> = changes.removed.iter().chain(&changes.moved).copied().collect();
                let gained: Vec<Sym> =
                    changes.added.iter().chain(&changes.moved).copied().filter(|s| defs.get(self.ix.names.name(*s)).is_some_and(before)).collect();
                let revised = suggest::revise(m.suggestion, &gained, &lost, &self.ix, suggest::plain_rank(word));
                if revised.is_some_and(|sug| sug == m.suggestion && !rules::is_slip(&self.ix, word, sug)) {
                    continue;
                }
            }
            let found = missing_target_suggestion(word, defs.iter().filter(|(_, d)| before(d)).map(|(k, _)| k.as_str()));
            let e = entry(&self.db.facts, r);
            let d = e.overrides.as_ref().map(|ov| resolution::override_missing_target(m.registry.noun(), ov, r.file, found));
            let sug = found.and_then(|(s, _)| self.ix.sym(s));
            if let Some(mm) = self.sugg.missing.get_mut(&r) {
                mm.suggestion = sug;
            }
            if let Some(d) = d {
                self.slots.replace(r.file, Slot::Resolve, r.index, d);
            }
        }
    }

    /// Finishes the files whose slots changed; returns how many lists changed.
    fn finish(&mut self, project: &Project) -> usize {
        let mut n = 0;
        let read_whole = self.unreadable_files == 0;
        for (i, f) in self.slots.files.iter_mut().enumerate() {
            if !f.dirty {
                continue;
            }
            f.dirty = false;
            let facts = self.db.facts[i].as_deref();
            let mut diags: Vec<Diagnostic> = self.loading[i].clone();
            diags.extend(facts.into_iter().flat_map(|x| x.diagnostics.iter().cloned()));
            diags.extend(self.order_diags[i].iter().cloned());
            for ((slot, _), list) in f.slots.iter().filter(|((slot, _), _)| read_whole || !slot.absence()) {
                // The parts of the file that could not be read show only their syntax errors.
                diags.extend(list.iter().filter(|d| !slot.is_rule() || !crate::unreadable_at(&self.db.facts, d)).cloned());
            }
            let list = crate::finish_file(project, &self.levels, FileId(i as u32), facts, diags);
            if *f.finished != list {
                f.finished = Arc::new(list);
                self.changed.push(FileId(i as u32));
                n += 1;
            }
        }
        n
    }
}
