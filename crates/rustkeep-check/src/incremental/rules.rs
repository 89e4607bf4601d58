//! The cross-file rules of an update, after resolve: loot tables (shapes, kinds, cycles, entry
//! checks), usage (`quest-never-started`, `unused-loot-table`), references (`unknown-reference`,
//! kinds, `unknown-tag`, with their did-you-means), overrides that drop fields, and `[balance]`;
//! each runs only where the update's [`Work`] says something it depends on changed.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use rustkeep_data::diag::Diagnostic;
use rustkeep_data::hash::FxHashSet;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::project::Project;
use rustkeep_data::resolve::{entry, resolve_balance};
use rustkeep_data::source::FileId;
use rustkeep_data::suggest::Rivals;
use rustkeep_data::vocab::{IdText, Registry};

use super::index::Sym;
use super::slots::Slot;
use super::suggest;
use super::tables::Shape;
use super::{Incremental, Work};
use crate::rules::{loot, IdContext, Known, Reads, RefContext, PER_ID, PER_REF};

/// A reference (by index) and its diagnostics under the [`PER_REF`] rules.
type RefDiagnostics = (usize, Vec<Option<Diagnostic>>);

impl Incremental {
    /// Shapes, kinds and cycles of the loot tables the update touched.
    pub(super) fn loot_tables(&mut self, w: &mut Work) {
        let mut kind_roots: FxHashSet<Sym> = FxHashSet::default();
        let mut cycle_nodes: FxHashSet<Sym> = FxHashSet::default();
        let touched: Vec<Sym> = w.resolved.iter().filter(|(reg, _)| *reg == Registry::LootTables).map(|(_, s)| *s).collect();
        for &s in &touched {
            let current = self.db.resolved.defs[Registry::LootTables.index()].get(self.ix.names.name(s)).map(|d| d.current);
            let shape = current.map(|r| Shape::of(&mut self.ix, entry(&self.db.facts, r)));
            let old = self.tables.shapes.get(&s);
            if old.map(|o| (o.direct, &o.nested)) != shape.as_ref().map(|n| (n.direct, &n.nested)) {
                kind_roots.insert(s);
            }
            if old.map(|o| &o.edges) != shape.as_ref().map(|n| &n.edges) {
                cycle_nodes.insert(s);
                // A table that came or went changes the edges of the tables that name it.
                if old.is_none() || shape.is_none() {
                    cycle_nodes.extend(self.ix.mentioned_by(s));
                }
            }
            match shape {
                Some(shape) => self.tables.shapes.insert(s, shape),
                None => self.tables.shapes.remove(&s),
            };
        }
        let changes = self.tables.settle_kinds(&mut self.db, &self.ix, &kind_roots);
        w.ref_syms.extend(changes.iter().copied());

        let (removed, added) = self.tables.update_cycles(&self.db, &self.ix, &cycle_nodes);
        for at in removed {
            self.slots.set(at.file, Slot::Cycle, at.index, Vec::new());
        }
        let mut rebuild: BTreeSet<u32> = added.into_iter().collect();
        rebuild.extend(touched.iter().filter_map(|s| self.tables.cycle_of.get(s)));
        for c in rebuild {
            self.cycle_diagnostic(c);
        }

        w.kinds = changes;
    }

    /// Builds the diagnostic of one cycle where it belongs now.
    fn cycle_diagnostic(&mut self, c: u32) {
        let Some(cycle) = self.tables.cycles.get(&c) else { return };
        let members: Vec<&str> = cycle.members.iter().map(|m| self.ix.names.name(*m)).collect();
        let at = members.first().and_then(|first| self.db.resolved.get(Registry::LootTables, first)).map(|d| d.current);
        let d = loot::cycle_report(&self.db, &members);
        if let Some(old) = cycle.at.filter(|o| Some(*o) != at) {
            self.slots.set(old.file, Slot::Cycle, old.index, Vec::new());
        }
        if let Some(at) = at {
            self.slots.set(at.file, Slot::Cycle, at.index, d.into_iter().collect());
        }
        if let Some(cycle) = self.tables.cycles.get_mut(&c) {
            cycle.at = at;
        }
    }

    /// The [`PER_ID`] rules, for the IDs resolved again and the IDs whose reads changed; each
    /// rule's slots on every entry of such an ID are written again. A rule that claims an absence
    /// runs as over data read whole: its findings are shown only then ([`Slot::absence`]).
    pub(super) fn per_id(&mut self, project: &Project, w: &Work) {
        let cx = IdContext { db: &self.db, packs: crate::rules::content_packs(project, &self.db), counts: &self.ix };
        let defs = &self.db.resolved.defs;
        for (i, rule) in PER_ID.iter().enumerate() {
            let mut due: Vec<(Registry, Sym)> = w.resolved.iter().filter(|(reg, _)| rule.registries.contains(reg)).copied().collect();
            let crossed = match rule.reads {
                Reads::Own => Vec::new(),
                Reads::Count(count) => {
                    let crossed = &w.crossed[count as usize];
                    // A name written without its namespace (`loot = "moth_loot"`) counts for
                    // every ID of that name (`Counts::named_or_bare`): when it crosses, so do they.
                    let mut v: Vec<Sym> = crossed.iter().copied().collect();
                    for bare in crossed.iter().map(|s| self.ix.names.name(*s)).filter(|n| IdText::of(n).is_bare()) {
                        for reg in rule.registries {
                            let same = defs[reg.index()].keys().filter(|id| IdText::of(id).qualified_name() == Some(bare));
                            v.extend(same.filter_map(|id| self.ix.sym(id)));
                        }
                    }
                    v
                }
                Reads::NestedKinds => w.kinds.iter().flat_map(|&s| std::iter::once(s).chain(self.ix.mentioned_by(s))).collect(),
            };
            for &reg in rule.registries {
                due.extend(crossed.iter().map(|s| (reg, *s)));
            }
            due.sort_unstable();
            due.dedup();
            for (reg, s) in due {
                let Some(entries) = self.ix.chains.get(&(reg, s)) else { continue };
                let name = self.ix.names.name(s);
                let found = cx.db.resolved.defs[reg.index()].get(name).map(|def| (rule.run)(&cx, reg, name, def)).unwrap_or_default();
                for &r in entries.as_slice() {
                    let list = found.iter().filter(|(at, _)| *at == r).map(|(_, d)| d.clone()).collect();
                    self.slots.set(r.file, Slot::PerId(i as u8), r.index, list);
                }
            }
        }
    }

    /// Revises the did-you-mean of unknown references and tags, then checks again every
    /// reference of the changed files and the references naming what changed.
    pub(super) fn references(&mut self, w: &mut Work) {
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
                let new = suggest::revise(cur, &changes.added, &changes.removed, &self.ix, suggest::reference_rank(name))
                    .unwrap_or_else(|| suggest::unknown_reference(&self.ix, self.ids[reg.index()].get(), defs, name));
                // A name without its namespace is checked again whenever the registry's IDs
                // change, and so is a reference whose suggestion is a slip of the hand: whether
                // that fix is safe depends on which other IDs are as close.
                if new != cur || IdText::of(name).is_bare() || is_slip(&self.ix, name, new) {
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
                let new = suggest::revise(cur, &added, &removed, &self.ix, suggest::plain_rank(name))
                    .unwrap_or_else(|| suggest::unknown_tag(&self.ix, &self.tags, name));
                if new != cur || is_slip(&self.ix, name, new) {
                    self.sugg.tags.insert(word, new);
                    w.ref_syms.insert(word);
                }
            }
        }
        // The IDs that appeared in or left a registry.
        let present: FxHashSet<Sym> = w.keys.iter().flat_map(|k| k.added.iter().chain(&k.removed)).copied().collect();
        w.ref_syms.extend(&present);
        // A reference to an old ID of `[renamed]` stands or falls with the ID it was renamed to.
        for (old, r) in &self.db.resolved.renamed {
            if let (Some(to), Some(o)) = (self.ix.sym(&r.to), self.ix.sym(old)) {
                if present.contains(&to) {
                    w.ref_syms.insert(o);
                }
            }
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

    /// The diagnostics of one reference under the [`PER_REF`] rules, or `Err(())` when a
    /// did-you-mean it needs is not known yet.
    fn ref_diagnostics(&self, fid: FileId, ff: &FileFacts, i: usize) -> Result<Vec<Option<Diagnostic>>, ()> {
        let Some(r) = ff.refs.get(i) else { return Ok(Vec::new()) };
        let known = Kept { inc: self, missing: AtomicBool::new(false) };
        let cx = RefContext { db: &self.db, known: &known, scenario: ff.scenario.is_some() };
        let found = PER_REF.iter().map(|rule| (rule.run)(&cx, fid, r)).collect();
        if known.missing.load(Ordering::Relaxed) {
            return Err(());
        }
        Ok(found)
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
            let sug = suggest::unknown_tag(&self.ix, &self.tags, &r.id);
            self.sugg.tags.insert(s, sug);
        }
    }

    fn set_ref(&mut self, fid: FileId, i: usize, found: Vec<Option<Diagnostic>>) {
        for (rule, d) in found.into_iter().enumerate() {
            self.slots.set(fid, Slot::PerRef(rule as u8), i as u32, d.into_iter().collect());
        }
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
        let one = |fid: &FileId| {
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
        };
        // A few files (an edit) are checked on this thread; many (the first analysis) on all cores.
        let results: Vec<(Vec<RefDiagnostics>, Vec<usize>)> =
            if files.len() > 8 { files.par_iter().map(one).collect() } else { files.iter().map(one).collect() };
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

    /// The [`crate::rules::WHOLE`] rule of index `i`, again over the whole load set.
    pub(super) fn whole(&mut self, project: &Project, i: usize) {
        let mut diags = Vec::new();
        (crate::rules::WHOLE[i].run)(project, &self.db, &mut diags);
        self.slots.set_all(Slot::Whole(i as u8), &mut self.whole_files[i], diags);
    }

    /// `[balance]` settings: few, so all of them again.
    pub(super) fn balance(&mut self, project: &Project) {
        let (balance, findings) = resolve_balance(project, &self.db.resolved.order, &self.db.facts);
        let diags = findings.iter().filter_map(|f| crate::rules::resolution::diagnostic(project, &self.db.facts, f)).collect();
        self.db.resolved.balance = balance;
        self.slots.set_all(Slot::Balance, &mut self.balance_files, diags);
    }
}

/// Whether `suggestion` differs from `word` by a slip of the hand alone, so that its fix may be
/// safe, and whether it is depends on the other candidates.
pub(super) fn is_slip(ix: &super::index::Index, word: &str, suggestion: Option<super::index::Sym>) -> bool {
    suggestion.is_some_and(|s| rustkeep_data::suggest::slip(word, ix.names.name(s)).is_some())
}

/// What the [`PER_REF`] rules ask beyond the registries, from what the analysis keeps; a
/// did-you-mean not kept yet is noted as missing (the reference is then checked again once it is
/// found, see [`Incremental::check_ref`]).
struct Kept<'a> {
    inc: &'a Incremental,
    missing: AtomicBool,
}

impl Known for Kept<'_> {
    fn suggestion(&self, registry: Registry, id: &str) -> Option<&str> {
        let ix = &self.inc.ix;
        match ix.sym(id).and_then(|s| self.inc.sugg.refs.get(&(registry, s))) {
            Some(sug) => sug.map(|x| ix.names.name(x)),
            None => {
                self.missing.store(true, Ordering::Relaxed);
                None
            }
        }
    }
    fn rivals(&self, registry: Registry) -> &Rivals {
        self.inc.rivals(registry)
    }
    fn carried(&self, tag: &str) -> bool {
        self.inc.carriers(tag) > 0
    }
    fn tag_suggestion(&self, tag: &str) -> Option<&str> {
        let ix = &self.inc.ix;
        match ix.sym(tag).and_then(|s| self.inc.sugg.tags.get(&s)) {
            Some(sug) => sug.map(|x| ix.names.name(x)),
            None => {
                self.missing.store(true, Ordering::Relaxed);
                None
            }
        }
    }
    fn carried_tags(&self) -> Vec<&str> {
        self.inc.tags.iter().map(|t| &**t).collect()
    }
}
