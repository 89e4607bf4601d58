//! Loot tables between updates: the shape of every table in force (its direct kind, the tables it
//! nests, the tables it evaluates), their kinds and the nesting cycles.
//! The kinds and the cycles are found by the batch check's own functions
//! (`rustkeep_data::db::settle_kinds`, [`crate::rules::loot::cycles_from`]); what is kept here is
//! where to ask them again: the kinds of the tables whose direct kind or nesting changed and of the
//! tables without a kind of their own above them, the cycles from the tables whose edges changed.

use rustkeep_data::db::{direct_kind, settle_kinds, Database, Nesting, TableKind};
use rustkeep_data::hash::{FxHashMap, FxHashSet};
use rustkeep_data::model::{Entry, LootKind};
use rustkeep_data::resolve::EntryRef;

use super::index::{Index, Sym};
use crate::rules::loot::{cycles_from, nesting_edges};

/// What the kinds and cycles of one table in force depend on.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Shape {
    pub direct: Option<TableKind>,
    /// The targets of its `table =` entries, in entry order.
    pub nested: Box<[Sym]>,
    /// Every table it evaluates (see [`nesting_edges`]), in entry order.
    pub edges: Box<[Sym]>,
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
        Shape { direct: direct_kind(e), nested, edges }
    }
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
    pub shapes: FxHashMap<Sym, Shape>,
    /// The tables with a kind: their nesting steps to a table with a kind of its own, and the kind.
    kinds: FxHashMap<Sym, (u32, TableKind)>,
    pub cycle_of: FxHashMap<Sym, u32>,
    pub cycles: FxHashMap<u32, Cycle>,
    next_cycle: u32,
}

impl Tables {
    /// The tables in force without a kind of their own that nest `t`.
    fn kindless_parents<'a>(&'a self, ix: &'a Index, t: Sym) -> impl Iterator<Item = Sym> + 'a {
        ix.mentioned_by(t).filter(move |p| self.shapes.get(p).is_some_and(|s| s.direct.is_none() && s.nested.contains(&t)))
    }

    /// Settles again the kinds of the `roots` (tables whose direct kind or nesting changed, or that
    /// came or went) and of the tables without a kind of their own that nest them, and puts them in
    /// `db`; returns the tables whose kind changed.
    pub fn settle_kinds(&mut self, db: &mut Database, ix: &Index, roots: &FxHashSet<Sym>) -> Vec<Sym> {
        let mut region: FxHashSet<Sym> = roots.clone();
        let mut stack: Vec<Sym> = roots.iter().copied().collect();
        while let Some(x) = stack.pop() {
            stack.extend(self.kindless_parents(ix, x).filter(|p| region.insert(*p)));
        }
        let before: Vec<(Sym, Option<TableKind>)> = region.iter().map(|s| (*s, self.kinds.remove(s).map(|(_, k)| k))).collect();
        let settled = settle_kinds(&Graph { tables: self, ix, region: &region }, region.iter().copied());
        self.kinds.extend(settled.into_iter().map(|(t, d, k)| (t, (d, k))));
        let mut changed = Vec::new();
        for (s, old) in before {
            let new = self.kinds.get(&s).map(|(_, k)| *k);
            if new != old {
                let name = ix.names.name(s);
                match new {
                    Some(k) => db.table_kinds.insert(name.to_string(), k),
                    None => db.table_kinds.remove(name),
                };
                changed.push(s);
            }
        }
        changed
    }

    /// Finds the nesting cycles again from the `changed` tables (whose edges or presence changed)
    /// and from the members of the cycles they were on. Returns the places of the cycles that were
    /// removed and the new cycles.
    pub fn update_cycles(&mut self, db: &Database, ix: &Index, changed: &FxHashSet<Sym>) -> (Vec<EntryRef>, Vec<u32>) {
        let mut dissolved: FxHashSet<u32> = changed.iter().filter_map(|s| self.cycle_of.get(s).copied()).collect();
        let mut start: Vec<Sym> = changed.iter().copied().collect();
        for c in &dissolved {
            start.extend(self.cycles[c].members.iter().copied());
        }
        let mut found: Vec<Vec<Sym>> = Vec::new();
        for cycle in cycles_from(db, start.iter().map(|s| ix.names.name(*s))) {
            let members: Vec<Sym> = cycle.into_iter().filter_map(|id| ix.sym(id)).collect();
            let Some(first) = members.first() else { continue };
            let same = self.cycle_of.get(first).filter(|c| !dissolved.contains(c)).is_some_and(|c| self.cycles[c].members == members);
            if same {
                continue;
            }
            dissolved.extend(members.iter().filter_map(|m| self.cycle_of.get(m)));
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

/// The tables in force as [`settle_kinds`] reads them, with the region being settled.
struct Graph<'a> {
    tables: &'a Tables,
    ix: &'a Index,
    region: &'a FxHashSet<Sym>,
}

impl Nesting for Graph<'_> {
    type Table = Sym;
    fn direct(&self, t: Sym) -> Option<TableKind> {
        self.tables.shapes.get(&t).and_then(|s| s.direct)
    }
    fn nested(&self, t: Sym) -> impl Iterator<Item = Sym> + '_ {
        self.tables.shapes.get(&t).into_iter().flat_map(|s| s.nested.iter().copied())
    }
    fn kindless_parents(&self, t: Sym) -> impl Iterator<Item = Sym> + '_ {
        self.tables.kindless_parents(self.ix, t)
    }
    fn in_region(&self, t: Sym) -> bool {
        self.region.contains(&t)
    }
    fn settled(&self, t: Sym) -> Option<(u32, TableKind)> {
        self.tables.kinds.get(&t).copied()
    }
}
