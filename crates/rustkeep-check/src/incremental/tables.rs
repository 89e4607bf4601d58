//! Loot tables between updates: the shape of every table in force (its direct kind, the tables it
//! nests, the tables it evaluates), the kinds inferred through nesting, and the nesting cycles.
//! An update settles again only the tables whose shape changed and the tables without a kind of
//! their own that nest them (kinds), and only the part of the nesting graph reachable from the
//! tables whose edges changed (cycles).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustkeep_data::db::{direct_kind, TableKind};
use rustkeep_data::graph::{is_cycle, strongly_connected_components};
use std::hash::{Hash, Hasher};

use rustkeep_data::hash::{FxHashMap, FxHashSet, FxHasher};
use rustkeep_data::model::{Entry, LootKind};
use rustkeep_data::resolve::EntryRef;
use rustkeep_data::vocab::field;

use super::index::{Index, Sym};
use crate::rules::loot::nesting_edges;

/// No nesting path to a table with a kind of its own.
const FAR: u32 = u32::MAX;

/// What the kinds and cycles of one table in force depend on.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Shape {
    pub direct: Option<TableKind>,
    /// The targets of its `table =` entries, in entry order.
    pub nested: Box<[Sym]>,
    /// Every table it evaluates (see [`nesting_edges`]), in entry order.
    pub edges: Box<[Sym]>,
    /// A hash of what one evaluation of it depends on besides other tables: `rolls` and its
    /// entries without their places in the text (so that typing elsewhere in the file does not
    /// count as a change).
    pub content: u64,
    /// Its item entries with `affixes =`, as (affix table, item), in entry order: where
    /// `trigger-never-active` starts its search (see [`crate::rules::active::seed_pairs`]).
    pub seeds: Box<[(Sym, Sym)]>,
    /// The affixes its `affix =` entries name, in entry order.
    pub affixes: Box<[Sym]>,
}

impl Shape {
    pub fn of(ix: &mut Index, e: &Entry) -> Shape {
        let nested = e
            .loot_entries()
            .iter()
            .filter_map(|le| match &le.kind {
                LootKind::Table(t) => Some(ix.intern(&t.value)),
                _ => None,
            })
            .collect();
        let edges = nesting_edges(e).map(|t| ix.intern(&t.value)).collect();
        let seeds = crate::rules::active::seed_pairs(e).map(|(t, item)| (ix.intern(t), ix.intern(item))).collect();
        let affixes = crate::rules::active::affix_entries(e).map(|a| ix.intern(a)).collect();
        Shape { direct: direct_kind(e), nested, edges, content: content(e), seeds, affixes }
    }
}

/// See [`Shape::content`].
fn content(e: &Entry) -> u64 {
    let mut h = FxHasher::default();
    e.range(field::ROLLS).map(|r| (r.min, r.max)).hash(&mut h);
    for le in e.loot_entries() {
        match &le.kind {
            LootKind::Item(s) => (0u8, s.value.as_str()).hash(&mut h),
            LootKind::Table(s) => (1u8, s.value.as_str()).hash(&mut h),
            LootKind::Affix(s) => (2u8, s.value.as_str()).hash(&mut h),
            LootKind::Nothing => 3u8.hash(&mut h),
        }
        (le.weight, le.guaranteed, le.count.min, le.count.max, le.affixes.as_ref().map(|a| a.value.as_str())).hash(&mut h);
    }
    h.finish()
}

#[derive(Clone, Debug)]
pub(super) struct TableInfo {
    pub shape: Shape,
    /// Nesting steps to the nearest table with a kind of its own ([`FAR`]: none).
    pub dist: u32,
    pub kind: Option<TableKind>,
}

/// One nesting cycle.
#[derive(Clone, Debug)]
pub(super) struct Cycle {
    /// Sorted by ID.
    pub members: Vec<Sym>,
    /// Where its diagnostic sits: the entry in force of its first member.
    pub at: Option<EntryRef>,
}

#[derive(Debug, Default)]
pub(super) struct Tables {
    pub info: FxHashMap<Sym, TableInfo>,
    pub cycle_of: FxHashMap<Sym, u32>,
    pub cycles: FxHashMap<u32, Cycle>,
    next_cycle: u32,
}

/// A table whose kind changed: (table, kind before, kind now).
pub(super) type KindChange = (Sym, Option<TableKind>, Option<TableKind>);

impl Tables {
    /// The tables whose kind may depend on `x`: those in force without a kind of their own that
    /// nest it.
    fn kindless_parents<'a>(&'a self, ix: &'a Index, x: Sym) -> impl Iterator<Item = Sym> + 'a {
        ix.mentioned_by(x).filter(move |p| self.info.get(p).is_some_and(|i| i.shape.direct.is_none() && i.shape.nested.contains(&x)))
    }

    /// Settles the kinds of the tables that `roots` (tables whose shape or presence changed) can
    /// influence, with the rule of `rustkeep_data::db::infer_kinds`. Returns the kinds that
    /// changed, besides those of `gone` (tables no longer in force, with their last kind).
    pub fn settle_kinds(&mut self, ix: &Index, roots: &FxHashSet<Sym>) -> Vec<KindChange> {
        let mut region: FxHashSet<Sym> = roots.clone();
        let mut stack: Vec<Sym> = roots.iter().copied().collect();
        while let Some(x) = stack.pop() {
            let parents: Vec<Sym> = self.kindless_parents(ix, x).filter(|p| !region.contains(p)).collect();
            for p in parents {
                if region.insert(p) {
                    stack.push(p);
                }
            }
        }
        let before: Vec<(Sym, Option<TableKind>)> = region.iter().filter_map(|s| self.info.get(s).map(|i| (*s, i.kind))).collect();
        for s in &region {
            if let Some(i) = self.info.get_mut(s) {
                i.dist = FAR;
                i.kind = None;
            }
        }
        // Distances: from tables with a kind of their own, and from settled tables outside the
        // region, shortest first.
        let mut heap = BinaryHeap::new();
        for s in &region {
            let Some(i) = self.info.get(s) else { continue };
            let d = if i.shape.direct.is_some() {
                0
            } else {
                i.shape
                    .nested
                    .iter()
                    .filter(|c| !region.contains(c))
                    .filter_map(|c| self.info.get(c))
                    .map(|c| c.dist)
                    .filter(|d| *d != FAR)
                    .min()
                    .map_or(FAR, |d| d + 1)
            };
            if d != FAR {
                if let Some(i) = self.info.get_mut(s) {
                    i.dist = d;
                }
                heap.push(Reverse((d, *s)));
            }
        }
        while let Some(Reverse((d, x))) = heap.pop() {
            if self.info.get(&x).map(|i| i.dist) != Some(d) {
                continue;
            }
            let parents: Vec<Sym> = self.kindless_parents(ix, x).filter(|p| region.contains(p)).collect();
            for p in parents {
                if let Some(pi) = self.info.get_mut(&p) {
                    if d + 1 < pi.dist {
                        pi.dist = d + 1;
                        heap.push(Reverse((d + 1, p)));
                    }
                }
            }
        }
        // Kinds, nearest first: from the first `table =` entry one step nearer.
        let mut order: Vec<(u32, Sym)> = region.iter().filter_map(|s| self.info.get(s).filter(|i| i.dist != FAR).map(|i| (i.dist, *s))).collect();
        order.sort_unstable();
        for (d, s) in order {
            let kind = {
                let i = &self.info[&s];
                if d == 0 {
                    i.shape.direct
                } else {
                    i.shape.nested.iter().find_map(|c| self.info.get(c).filter(|ci| ci.dist == d - 1).and_then(|ci| ci.kind))
                }
            };
            if let Some(i) = self.info.get_mut(&s) {
                i.kind = kind;
            }
        }
        before.into_iter().filter_map(|(s, old)| self.info.get(&s).map(|i| i.kind).filter(|k| *k != old).map(|k| (s, old, k))).collect()
    }

    /// Finds the nesting cycles again where the edges of `changed` tables (or their presence)
    /// changed. Returns the cycles that were removed (their diagnostic's place) and the new ones.
    pub fn update_cycles(&mut self, changed: &FxHashSet<Sym>, name: &dyn Fn(Sym) -> String) -> (Vec<EntryRef>, Vec<u32>) {
        let mut dissolved: FxHashSet<u32> = changed.iter().filter_map(|s| self.cycle_of.get(s).copied()).collect();
        let mut start: Vec<Sym> = changed.iter().copied().collect();
        for c in &dissolved {
            start.extend(self.cycles[c].members.iter().copied());
        }
        // Every table reachable from the starts: a cycle through a changed edge lies in there.
        let mut local: FxHashMap<Sym, usize> = FxHashMap::default();
        let mut nodes: Vec<Sym> = Vec::new();
        let mut stack: Vec<Sym> = start.into_iter().filter(|s| self.info.contains_key(s)).collect();
        while let Some(s) = stack.pop() {
            if local.contains_key(&s) {
                continue;
            }
            local.insert(s, nodes.len());
            nodes.push(s);
            for t in &self.info[&s].shape.edges {
                if self.info.contains_key(t) && !local.contains_key(t) {
                    stack.push(*t);
                }
            }
        }
        let adj: Vec<Vec<usize>> = nodes.iter().map(|s| self.info[s].shape.edges.iter().filter_map(|t| local.get(t).copied()).collect()).collect();
        let mut found: Vec<Vec<Sym>> = Vec::new();
        for comp in strongly_connected_components(&adj) {
            if !is_cycle(&adj, &comp) {
                continue;
            }
            let mut members: Vec<(String, Sym)> = comp.iter().map(|&v| (name(nodes[v]), nodes[v])).collect();
            members.sort();
            let members: Vec<Sym> = members.into_iter().map(|(_, s)| s).collect();
            let same = self.cycle_of.get(&members[0]).filter(|c| !dissolved.contains(c)).is_some_and(|c| self.cycles[c].members == members);
            if same {
                continue;
            }
            for m in &members {
                if let Some(c) = self.cycle_of.get(m) {
                    dissolved.insert(*c);
                }
            }
            found.push(members);
        }
        let mut removed = Vec::new();
        for c in dissolved {
            if let Some(cycle) = self.cycles.remove(&c) {
                for m in &cycle.members {
                    if self.cycle_of.get(m) == Some(&c) {
                        self.cycle_of.remove(m);
                    }
                }
                removed.extend(cycle.at);
            }
        }
        let mut added = Vec::new();
        for members in found {
            let c = self.next_cycle;
            self.next_cycle += 1;
            for m in &members {
                self.cycle_of.insert(*m, c);
            }
            self.cycles.insert(c, Cycle { members, at: None });
            added.push(c);
        }
        (removed, added)
    }
}
