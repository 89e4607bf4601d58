//! Load order and the resolved registries (docs/data-language.md): one map per registry from
//! ID to its winning entry, recording where it was first defined and every override after it.
//!
//! What is wrong between two places (two mods, two manifests, two entries, an entry and its
//! mod) is recorded as [`Finding`]s on the way and reported by the validator; this module raises
//! no diagnostic.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use rayon::prelude::*;

mod findings;
mod renames;
mod requirements;

pub use findings::{DependencyValue, Finding};
pub use renames::{renames, unread_ids, Rename};

use crate::diag::Applicability;
use crate::hash::{FxHashMap, FxHashSet};
use crate::lower::FileFacts;
use crate::manifest::DependencyKind;
use crate::model::{Entry, Sp};
use crate::project::Project;
use crate::source::FileId;
use crate::suggest;
use crate::vocab::{namespace_of, Registry, CORE_NAMESPACE};

/// An entry by file and position in that file's [`FileFacts::entries`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntryRef {
    pub file: FileId,
    pub index: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Def {
    /// The entry in force (the last override, or the definition).
    pub current: EntryRef,
    /// The mod (index into [`Project::mods`]) of the entry in force.
    pub mod_idx: usize,
    /// The original definition, if the ID was defined (not only overridden).
    pub defined: Option<EntryRef>,
    /// Every override in load order, with its mod.
    pub overrides: Vec<(EntryRef, usize)>,
}

#[derive(Clone, Debug)]
pub struct Balance {
    pub luck_factor: f64,
    /// Chance to hit per point of accuracy over evasion.
    pub hit_per_point: f64,
    /// The least chance to hit.
    pub min_hit: f64,
    /// What a critical hit multiplies the attack's amount by.
    pub crit_multiplier: f64,
    /// Out of combat, the player regains 1 health every this many of its turns (0: never).
    pub regen_every: u32,
}

impl Default for Balance {
    fn default() -> Self {
        use crate::vocab::{CRIT_MULTIPLIER_DEFAULT, HIT_PER_POINT_DEFAULT, LUCK_FACTOR_DEFAULT, MIN_HIT_DEFAULT, REGEN_EVERY_DEFAULT};
        Balance {
            luck_factor: LUCK_FACTOR_DEFAULT,
            hit_per_point: HIT_PER_POINT_DEFAULT,
            min_hit: MIN_HIT_DEFAULT,
            crit_multiplier: CRIT_MULTIPLIER_DEFAULT,
            regen_every: REGEN_EVERY_DEFAULT,
        }
    }
}

impl Balance {
    /// Sets the knob `key` (a `[balance]` field name); unknown keys change nothing.
    pub fn set(&mut self, key: &str, value: f64) {
        use crate::vocab::field;
        match key {
            field::LUCK_FACTOR => self.luck_factor = value,
            field::HIT_PER_POINT => self.hit_per_point = value,
            field::MIN_HIT => self.min_hit = value,
            field::CRIT_MULTIPLIER => self.crit_multiplier = value,
            // Lowering let only whole numbers from 0 to u32::MAX through.
            field::REGEN_EVERY => self.regen_every = value as u32,
            _ => {}
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Resolved {
    /// Mod indices in load order (the core first).
    pub order: Vec<usize>,
    /// Per registry (by [`Registry::index`]): ID → definition.
    pub defs: Vec<FxHashMap<String, Def>>,
    pub balance: Balance,
    /// What resolving found wrong between two places, for the validator to report.
    pub findings: Vec<Finding>,
    /// `[renamed]`: old ID → where its chain of renames ends ([`renames`]).
    pub renamed: FxHashMap<String, Rename>,
    /// The IDs spelled in the text of manifests that could not be read ([`unread_ids`]): each may
    /// be an old ID of `[renamed]`, so a reference to one is not called unknown.
    pub unread: FxHashSet<String>,
}

/// Per-file facts, indexed by [`FileId`]; `None` for manifests and workspace files.
pub type FactsTable = [Option<Arc<FileFacts>>];

pub fn entry(facts: &FactsTable, r: EntryRef) -> &Entry {
    &facts[r.file.0 as usize].as_ref().expect("entry refs point at data files").entries[r.index as usize]
}

impl Resolved {
    /// The definition in force for `id` in `registry`; an old ID of `[renamed]` gives the
    /// definition of the ID it was renamed to.
    pub fn get(&self, registry: Registry, id: &str) -> Option<&Def> {
        self.in_force(registry, id).map(|(_, def)| def)
    }
    /// The ID in force that `id` names in `registry` (itself, or the ID an old ID of `[renamed]`
    /// leads to), with its definition.
    pub fn in_force(&self, registry: Registry, id: &str) -> Option<(&str, &Def)> {
        let defs = self.defs.get(registry.index())?;
        let found = defs.get_key_value(id).or_else(|| if self.renamed.is_empty() { None } else { defs.get_key_value(self.renamed.get(id)?.to.as_str()) });
        found.map(|(id, def)| (id.as_str(), def))
    }
    /// The ID `id` stands for: itself, or for an old ID of `[renamed]` the end of its chain of
    /// renames (an old ID that is still defined is `renamed-id-exists`, an error).
    pub fn canonical<'a>(&'a self, id: &'a str) -> &'a str {
        self.renamed.get(id).map_or(id, |r| r.to.as_str())
    }
    /// The rename that makes `id` name something in `registry`: `id` is not defined there, and
    /// `[renamed]` leads it to an ID that is.
    pub fn renamed_in(&self, registry: Registry, id: &str) -> Option<&Rename> {
        let defs = self.defs.get(registry.index())?;
        let r = self.renamed.get(id)?;
        (!defs.contains_key(id) && defs.contains_key(r.to.as_str())).then_some(r)
    }
    /// Registries that define `id` (through `[renamed]` for an old ID).
    pub fn registries_of(&self, id: &str) -> Vec<Registry> {
        Registry::ALL.into_iter().filter(|r| self.get(*r, id).is_some()).collect()
    }
}

/// Computes the load order: the core first, then topologically by `depends` and `load_after`,
/// ties broken by mod id. Notes mods that share an id, unknown dependencies, unmet requirements
/// and cycles.
pub fn load_order(project: &Project, findings: &mut Vec<Finding>) -> Vec<usize> {
    let mods = &project.mods;
    let mut by_id: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, m) in mods.iter().enumerate() {
        if let Some(&first) = by_id.get(m.id.as_str()) {
            findings.push(Finding::SharedModId { mod_idx: i, first });
            continue;
        }
        by_id.insert(m.id.as_str(), i);
    }
    let core = mods.iter().position(|m| m.is_core);
    // Edges: dependency → dependent, with the manifest value that asked for it.
    let mut preds: Vec<Vec<Pred>> = vec![Vec::new(); mods.len()];
    for (i, m) in mods.iter().enumerate() {
        if m.is_core || by_id.get(m.id.as_str()) != Some(&i) {
            continue;
        }
        if let Some(c) = core {
            preds[i].push((c, None));
        }
        let depends = m
            .manifest
            .depends
            .iter()
            .enumerate()
            .filter(|(_, d)| d.kind != DependencyKind::Incompatible)
            .map(|(k, d)| (Some(k).filter(|_| d.kind == DependencyKind::Required), &d.id));
        for (required, dep) in depends.chain(m.manifest.load_after.iter().map(|l| (None, l))) {
            if dep.value == CORE_NAMESPACE {
                continue;
            }
            match by_id.get(dep.value.as_str()) {
                Some(&j) => preds[i].push((j, m.manifest_file.map(|f| (f, dep.clone())))),
                None => {
                    if let (Some(k), Some(_)) = (required, m.manifest_file) {
                        findings.push(Finding::UnknownDependency { mod_idx: i, dep: k });
                    }
                }
            }
        }
    }
    requirements::check(mods, &by_id, findings);
    let live: Vec<usize> = by_id.values().copied().collect();
    let mut indeg: HashMap<usize, usize> = live.iter().map(|&i| (i, 0)).collect();
    let mut succs: HashMap<usize, Vec<usize>> = HashMap::new();
    for &i in &live {
        for (j, _) in &preds[i] {
            if *j != i {
                *indeg.get_mut(&i).expect("live") += 1;
                succs.entry(*j).or_default().push(i);
            } else {
                *indeg.get_mut(&i).expect("live") += 1;
            }
        }
    }
    let key = |i: usize| (!mods[i].is_core, mods[i].id.clone());
    let mut ready: BTreeSet<(bool, String, usize)> = live.iter().filter(|i| indeg[i] == 0).map(|&i| (key(i).0, key(i).1, i)).collect();
    let mut order = Vec::with_capacity(live.len());
    while let Some(first) = ready.iter().next().cloned() {
        ready.remove(&first);
        let i = first.2;
        order.push(i);
        for &s in succs.get(&i).map(Vec::as_slice).unwrap_or(&[]) {
            let d = indeg.get_mut(&s).expect("live");
            *d -= 1;
            if *d == 0 {
                ready.insert((key(s).0, key(s).1, s));
            }
        }
    }
    if order.len() < live.len() {
        let mut rest: Vec<usize> = live.iter().copied().filter(|i| !order.contains(i)).collect();
        rest.sort_by_key(|&i| mods[i].id.clone());
        cycles(&preds, &rest, findings);
        // Keep checking: the mods on a cycle load after the others, by id.
        order.extend(rest);
    }
    order
}

/// A mod that must load before another: its index, and the `depends` value naming it (if any).
type Pred = (usize, Option<DependencyValue>);

fn cycles(preds: &[Vec<Pred>], rest: &[usize], findings: &mut Vec<Finding>) {
    // The dependency graph among the blocked mods (`rest` is sorted by id, so positions in it
    // order like ids). Each mod's dependencies are listed in id order, so the path reported for a
    // cycle is the same on every run.
    let pos: HashMap<usize, usize> = rest.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    let adj: Vec<Vec<usize>> = rest
        .iter()
        .map(|&i| {
            let mut deps: Vec<usize> = preds[i].iter().filter_map(|(j, _)| pos.get(j).copied()).collect();
            deps.sort_unstable();
            deps.dedup();
            deps
        })
        .collect();
    let mut comps = crate::graph::cyclic_components(&adj);
    for comp in &mut comps {
        comp.sort_unstable();
    }
    comps.sort();
    for comp in comps {
        // One cycle per component, through its first member in id order (where it is reported).
        let path = crate::graph::cycle_path(&adj, &comp, comp[0]);
        let cycle: Vec<usize> = path[..path.len() - 1].iter().map(|&k| rest[k]).collect();
        let value_of = |k: usize| {
            let from = cycle[k];
            let to = cycle[(k + 1) % cycle.len()];
            preds[from].iter().find(|(j, _)| *j == to).and_then(|(_, v)| v.clone())
        };
        let members = (0..cycle.len()).map(|k| (cycle[k], value_of(k))).collect();
        findings.push(Finding::DependencyCycle { members });
    }
}

/// Whether mod `later` declares that it loads after mod `earlier`: `earlier` is named in its
/// `depends` or `load_after`, or in those of a mod it names there, and so on. Asked only when two
/// mods touch the same entry or balance key, which is rare, so nothing is precomputed.
pub fn declared_after(project: &Project, later: usize, earlier: usize) -> bool {
    let mods = &project.mods;
    let Some(target) = mods.get(earlier).map(|m| m.id.as_str()) else { return false };
    let mut seen = vec![false; mods.len()];
    let mut stack = vec![later];
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        let m = &mods[i];
        for dep in m.manifest.loads_after() {
            if dep.value == target {
                return true;
            }
            stack.extend(mods.iter().position(|x| x.id == dep.value).filter(|j| !seen[*j]));
        }
    }
    false
}

/// Builds the registries in load order, noting namespace, duplicate and override problems.
pub fn resolve(project: &Project, facts: &FactsTable) -> Resolved {
    let mut findings = Vec::new();
    let order = load_order(project, &mut findings);
    // Entries bucketed by registry, each bucket in load order. Registries resolve independently
    // (an override names an ID of its own registry), so the buckets run in parallel.
    let mut buckets: Vec<Vec<(usize, EntryRef)>> = vec![Vec::new(); Registry::ALL.len()];
    for &mi in &order {
        for &fid in &project.mods[mi].data_files {
            let Some(ff) = facts[fid.0 as usize].as_ref() else { continue };
            for (idx, e) in ff.entries.iter().enumerate() {
                buckets[e.registry.index()].push((mi, EntryRef { file: fid, index: idx as u32 }));
            }
        }
    }
    let (balance, balance_findings) = resolve_balance(project, &order, facts);
    findings.extend(balance_findings);
    // The largest buckets go first, so that the cores finish together.
    let mut by_size: Vec<usize> = (0..buckets.len()).collect();
    by_size.sort_by_key(|&i| std::cmp::Reverse(buckets[i].len()));
    let resolved: Vec<(FxHashMap<String, Def>, Vec<Finding>)> = by_size
        .par_iter()
        .map(|&i| {
            let bucket = &buckets[i];
            let mut map: FxHashMap<String, Def> = FxHashMap::with_capacity_and_hasher(bucket.len(), Default::default());
            let mut out = Vec::new();
            for &(mi, r) in bucket {
                let e = entry(facts, r);
                let Some(key) = resolved_under(e) else { continue };
                let found = out.len();
                if let Some(def) = resolve_entry(project, mi, e, r, map.get_mut(&key.value), &mut out) {
                    map.insert(key.value.clone(), def);
                }
                // The IDs resolved so far are those defined before the entry in load order.
                for f in &mut out[found..] {
                    if let Finding::OverrideMissingTarget { suggestion, .. } = f {
                        *suggestion = missing_target_suggestion(&key.value, map.keys().map(String::as_str)).map(|(s, a)| (s.to_string(), a));
                    }
                }
            }
            (map, out)
        })
        .collect();
    let mut defs: Vec<FxHashMap<String, Def>> = (0..buckets.len()).map(|_| FxHashMap::default()).collect();
    let mut found: Vec<Vec<Finding>> = vec![Vec::new(); buckets.len()];
    for (&i, (map, f)) in by_size.iter().zip(resolved) {
        defs[i] = map;
        found[i] = f;
    }
    findings.extend(found.into_iter().flatten());
    let renamed = renames(project, &order, &mut findings);
    let unread = unread_ids(project, &order);
    Resolved { order, defs, balance, findings, renamed, unread }
}

/// The `[balance]` settings in force (the last mod in load order wins each key), and a
/// [`Finding::BalanceConflict`] for every key a mod sets again after another mod set it.
pub fn resolve_balance(project: &Project, order: &[usize], facts: &FactsTable) -> (Balance, Vec<Finding>) {
    let mut findings = Vec::new();
    let mut balance = Balance::default();
    let mut balance_set: HashMap<&str, (FileId, std::ops::Range<usize>, usize)> = HashMap::new();
    for &mi in order {
        let m = &project.mods[mi];
        for &fid in &m.data_files {
            let Some(ff) = facts[fid.0 as usize].as_ref() else { continue };
            for b in &ff.balance {
                balance.set(b.key, b.value);
                if !m.is_core {
                    if let Some((pf, ps, pm)) = balance_set.get(b.key).filter(|(_, _, pm)| !declared_after(project, mi, *pm)) {
                        findings.push(Finding::BalanceConflict {
                            key: b.key,
                            mod_idx: mi,
                            file: fid,
                            span: b.key_span.clone(),
                            earlier_mod: *pm,
                            earlier: (*pf, ps.clone()),
                        });
                    }
                    balance_set.insert(b.key, (fid, b.key_span.clone(), mi));
                }
            }
        }
    }
    (balance, findings)
}

/// The ID an entry is resolved under: the one it overrides, else its own.
pub fn resolved_under(e: &Entry) -> Option<&Sp<String>> {
    e.overrides.as_ref().or(e.id.as_ref())
}

/// The did-you-mean of an `overrides` naming `word`, no ID of its registry at that point of the
/// load order: the closest of the IDs defined before it (`earlier`), with whether replacing `word`
/// by it is safe among them.
pub fn missing_target_suggestion<'a, I>(word: &str, earlier: I) -> Option<(&'a str, Applicability)>
where
    I: Iterator<Item = &'a str> + Clone,
{
    suggest::closest_with_judgement(word, earlier)
}

/// Resolves one entry of mod `mi`, given the definition in force of the ID it is resolved under
/// ([`resolved_under`]) from the entries before it in load order, noting its problems; returns the
/// definition it makes when the ID had none. The batch resolves a registry in one pass, the
/// language server the entries of one ID again: both call this for every entry. The did-you-mean
/// of `override-missing-target` needs the whole registry: the caller fills it in
/// ([`missing_target_suggestion`]).
pub fn resolve_entry(project: &Project, mi: usize, e: &Entry, r: EntryRef, def: Option<&mut Def>, findings: &mut Vec<Finding>) -> Option<Def> {
    let m = &project.mods[mi];
    if let Some(ov) = &e.overrides {
        if e.id.as_ref().is_some_and(|id| id.value != ov.value) {
            findings.push(Finding::OverrideIdMismatch { entry: r });
        }
        match def {
            Some(def) => {
                // Two overrides are a conflict only when nothing orders the mods: a mod that names
                // the other in `depends` or `load_after` (directly or through other mods) layers
                // its change on top on purpose.
                if let Some(&(prev, prev_mod)) = def.overrides.last().filter(|(_, pm)| *pm != mi && !declared_after(project, mi, *pm)) {
                    findings.push(Finding::OverrideConflict { entry: r, mod_idx: mi, prev, prev_mod });
                }
                def.current = r;
                def.mod_idx = mi;
                def.overrides.push((r, mi));
            }
            None => findings.push(Finding::OverrideMissingTarget { entry: r, suggestion: None }),
        }
        return None;
    }
    let id = e.id.as_ref()?;
    let new = || Def { current: r, mod_idx: mi, defined: Some(r), overrides: Vec::new() };
    let ns = namespace_of(&id.value);
    // A mod whose `id` may sit in the text of its manifest that could not be read has no known
    // namespace to hold its entries to.
    let unknown = m.manifest.unreadable && m.manifest.id.is_none();
    if ns != m.id && !(m.is_core && ns == CORE_NAMESPACE) && !unknown {
        let existing = def.map(|d| d.current);
        findings.push(Finding::NamespaceMismatch { entry: r, mod_idx: mi, existing });
        return existing.is_none().then(new);
    }
    match def {
        Some(existing) => {
            findings.push(Finding::DuplicateId { entry: r, first: existing.defined.unwrap_or(existing.current) });
            None
        }
        None => Some(new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(mods: &[(&str, &str)]) -> Project {
        let mut p = Project::with_bundled_core();
        for (id, depends) in mods {
            let manifest = format!("[mod]\nid = \"{id}\"\nname = \"{id}\"\nversion = \"0.1.0\"\ndepends = [{depends}]\n");
            p.add_memory_mod(id, &[("mod.toml", &manifest)]);
        }
        p
    }

    fn cycles(p: &Project) -> Vec<String> {
        let mut findings = Vec::new();
        load_order(p, &mut findings);
        let name = |i: usize| p.mods[i].id.as_str();
        findings
            .into_iter()
            .filter_map(|f| match f {
                Finding::DependencyCycle { members } => Some(members.iter().map(|(i, _)| name(*i)).chain([name(members[0].0)]).collect::<Vec<_>>().join(" → ")),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn each_dependency_cycle_is_reported_once_from_its_first_mod() {
        // c → a → b → c, a dependent `d` outside the cycle, and a second cycle x ↔ y.
        let p = project(&[("a", "\"b\""), ("b", "\"c\""), ("c", "\"a\""), ("d", "\"a\""), ("x", "\"y\""), ("y", "\"x\"")]);
        let mut got = cycles(&p);
        got.sort();
        assert_eq!(got, ["a → b → c → a", "x → y → x"]);
        // A mod that depends on itself.
        assert_eq!(cycles(&project(&[("s", "\"s\"")])), ["s → s"]);
    }
}
