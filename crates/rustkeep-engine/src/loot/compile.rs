//! Compiling the loot tables in force into [`LootDb`]: interned items and affixes, outcomes by
//! index, and a refusal for every table that cannot be evaluated — all tables, or those one
//! table reaches, brought up to date after a change by compiling again only what changed.

use std::sync::Arc;

use rustkeep_data::db::{Database, TableKind};
use rustkeep_data::graph::{cycle_path, is_cycle, strongly_connected_components};
use rustkeep_data::hash::FxHashMap as HashMap;
use rustkeep_data::model::{Entry, LootEntry, LootKind, Range};
use rustkeep_data::vocab::{field, Registry};

use super::exact::{KeptStats, Numbering};
use super::{LootDb, LootError, Outcome, Table};
use crate::rng::Weights;

/// Names numbered by their position in `names`: the index and the names by number.
fn in_order<'a>(names: &[&'a str]) -> (HashMap<&'a str, u32>, Vec<Arc<str>>) {
    (names.iter().enumerate().map(|(i, s)| (*s, i as u32)).collect(), names.iter().map(|s| Arc::from(*s)).collect())
}

/// A table to compile, looked up once: its ID, entry, loot entries and kind.
struct Source<'a> {
    id: &'a str,
    entry: &'a Entry,
    loot: &'a [LootEntry],
    kind: Option<TableKind>,
}

/// What one compilation of [`LootDb::reaching`] gathers for the refusals: each table's first
/// problem and the tables it nests.
#[derive(Debug, Default)]
struct Reach {
    problems: Vec<Option<String>>,
    edges: Vec<Vec<usize>>,
}

/// The maps of the whole database's compilation.
struct Maps<'a, 'm> {
    index: &'m HashMap<&'a str, u32>,
    tabs: &'m [Source<'a>],
    items: &'m HashMap<&'a str, u32>,
    affixes: &'m HashMap<&'a str, u32>,
}

impl Names for Maps<'_, '_> {
    fn table(&mut self, id: &str) -> Option<(u32, Option<TableKind>)> {
        self.index.get(id).map(|&j| (j, self.tabs[j as usize].kind))
    }
    fn item(&mut self, id: &str) -> Option<u32> {
        self.items.get(id).copied()
    }
    fn affix(&mut self, id: &str) -> Option<u32> {
        self.affixes.get(id).copied()
    }
}

/// The names of a compilation with a kept numbering ([`LootDb::reaching`]):
/// tables by the database's index, items and affixes by the definitions in force.
struct KeptNames<'a, 'm> {
    index: &'m HashMap<String, u32>,
    tables: &'m [Table],
    data: &'a Database,
    numbering: &'m mut Numbering,
}

impl Names for KeptNames<'_, '_> {
    fn table(&mut self, id: &str) -> Option<(u32, Option<TableKind>)> {
        self.index.get(id).map(|&j| (j, self.tables[j as usize].kind))
    }
    fn item(&mut self, id: &str) -> Option<u32> {
        self.data.resolved.get(Registry::Items, id).is_some().then(|| self.numbering.items.intern(id))
    }
    fn affix(&mut self, id: &str) -> Option<u32> {
        self.data.resolved.get(Registry::Affixes, id).is_some().then(|| self.numbering.affixes.intern(id))
    }
}

impl LootDb {
    /// Compiles the loot tables in force. Never fails: problems become per-table refusals.
    pub fn new(data: &Database) -> LootDb {
        let defs = &data.resolved.defs;
        let empty = Default::default();
        let table_defs = defs.get(Registry::LootTables.index()).unwrap_or(&empty);
        let item_defs = defs.get(Registry::Items.index()).unwrap_or(&empty);
        let affix_defs = defs.get(Registry::Affixes.index()).unwrap_or(&empty);

        let mut ids: Vec<&str> = table_defs.keys().map(String::as_str).collect();
        ids.sort_unstable();
        let tabs: Vec<Source> = ids
            .iter()
            .filter_map(|&id| {
                let entry = data.entry(table_defs.get(id)?.current);
                Some(Source { id, entry, loot: entry.loot_entries(), kind: data.table_kinds.get(id).copied() })
            })
            .collect();
        let index: HashMap<&str, u32> = tabs.iter().enumerate().map(|(i, t)| (t.id, i as u32)).collect();

        // Items and affixes numbered in ID order, so that numbers sort like IDs.
        let mut item_names: Vec<&str> = Vec::new();
        let mut affix_names: Vec<&str> = Vec::new();
        for le in tabs.iter().flat_map(|t| t.loot) {
            match &le.kind {
                LootKind::Item(s) if item_defs.contains_key(&s.value) => item_names.push(&s.value),
                LootKind::Affix(s) if affix_defs.contains_key(&s.value) => affix_names.push(&s.value),
                _ => {}
            }
        }
        for names in [&mut item_names, &mut affix_names] {
            names.sort_unstable();
            names.dedup();
        }
        let ((item_index, items), (affix_index, affixes)) = (in_order(&item_names), in_order(&affix_names));
        let mut maps = Maps { index: &index, tabs: &tabs, items: &item_index, affixes: &affix_index };
        let (mut tables, mut problems, mut edges) = (Vec::with_capacity(tabs.len()), Vec::with_capacity(tabs.len()), Vec::with_capacity(tabs.len()));
        for src in &tabs {
            let (t, problem, out) = compile_one(src, &mut maps);
            tables.push(t);
            problems.push(problem);
            edges.push(out);
        }
        refuse(&mut tables, &problems, &edges);
        let index = index.into_iter().map(|(id, i)| (id.to_string(), i)).collect();
        LootDb { tables, index, items, affixes, luck_factor: data.resolved.balance.luck_factor, generation: None }
    }

    /// Compiles `root` and the tables it reaches (those it nests, directly or through
    /// `affixes`, and theirs), and nothing else: what the exact analysis of one table needs,
    /// without compiling the rest of a large workspace. Items and affixes are numbered with
    /// `kept`'s numbering, so that [`LootDb::analyze_kept`] can reuse statistics of earlier
    /// analyses (so its rolls list affixes by number, not in ID order); tables are numbered in
    /// the order they are reached.
    pub fn reaching(data: &Database, root: &str, kept: &mut KeptStats) -> LootDb {
        kept.trim();
        let mut db = LootDb {
            tables: Vec::new(),
            index: HashMap::default(),
            items: Vec::new(),
            affixes: Vec::new(),
            luck_factor: data.resolved.balance.luck_factor,
            generation: Some(kept.generation),
        };
        db.compile_reached(data, root, &mut kept.numbering);
        db
    }

    /// A number for table `id`, compiled later; its kind is known at once.
    fn add_table(&mut self, reach: &mut Reach, data: &Database, id: &str) -> usize {
        let t = self.tables.len();
        self.index.insert(id.to_string(), t as u32);
        let mut table = Table::empty(id.to_string());
        table.kind = data.table_kinds.get(id).copied();
        self.tables.push(table);
        reach.problems.push(None);
        reach.edges.push(Vec::new());
        t
    }

    /// Compiles `root` and every table it reaches, then the refusals of all.
    fn compile_reached(&mut self, data: &Database, root: &str, numbering: &mut Numbering) {
        let table_defs = data.resolved.defs.get(Registry::LootTables.index());
        let mut reach = Reach::default();
        let mut stack: Vec<(String, Option<usize>)> = vec![(root.to_string(), None)];
        while let Some((id, slot)) = stack.pop() {
            if slot.is_none() && self.index.contains_key(&id) {
                continue;
            }
            let Some(def) = table_defs.and_then(|d| d.get(&id)) else { continue };
            let entry = data.entry(def.current);
            let loot = entry.loot_entries();
            let t = match slot {
                Some(t) => t,
                None => self.add_table(&mut reach, data, &id),
            };
            // Nested tables not compiled yet are numbered before this table reads them.
            for le in loot {
                let nested = match &le.kind {
                    LootKind::Table(s) => Some(&s.value),
                    _ => None,
                };
                for name in nested.into_iter().chain(le.affixes.as_ref().map(|a| &a.value)) {
                    if !self.index.contains_key(name) && data.resolved.get(Registry::LootTables, name).is_some() {
                        let u = self.add_table(&mut reach, data, name);
                        stack.push((name.clone(), Some(u)));
                    }
                }
            }
            let src = Source { id: &id, entry, loot, kind: self.tables[t].kind };
            let (table, problem, out) = compile_one(&src, &mut KeptNames { index: &self.index, tables: &self.tables, data, numbering });
            self.tables[t] = table;
            reach.problems[t] = problem;
            reach.edges[t] = out;
        }
        refuse(&mut self.tables, &reach.problems, &reach.edges);
        self.items = numbering.items.names().to_vec();
        self.affixes = numbering.affixes.names().to_vec();
    }
}

/// How [`compile_one`] finds the names a table's entries give: tables (number and kind), items
/// and affixes (numbers).
trait Names {
    fn table(&mut self, id: &str) -> Option<(u32, Option<TableKind>)>;
    fn item(&mut self, id: &str) -> Option<u32>;
    fn affix(&mut self, id: &str) -> Option<u32>;
}

/// One table compiled (without its refusal, which depends on the tables below it), the first
/// problem found in it, and the tables it nests.
fn compile_one(src: &Source, names: &mut impl Names) -> (Table, Option<String>, Vec<usize>) {
    let kind = src.kind;
    let mut t = Table { kind, rolls: src.entry.range(field::ROLLS).unwrap_or(Range::ONE), ..Table::empty(src.id.to_string()) };
    let mut problem: Option<String> = None;
    let mut note = |p: String| {
        problem.get_or_insert(p);
    };
    let mut out_edges = Vec::new();
    for le in src.loot {
        let outcome = match &le.kind {
            LootKind::Item(s) => {
                if kind == Some(TableKind::Affixes) {
                    note(format!("the affix table gives the item `{}`", s.value));
                }
                let affixes = match &le.affixes {
                    None => None,
                    Some(a) => match names.table(&a.value) {
                        None => {
                            note(format!("`affixes = \"{}\"` names no loot table", a.value));
                            None
                        }
                        Some((j, k)) => {
                            if k == Some(TableKind::Items) {
                                note(format!("`affixes = \"{}\"` names an item table", a.value));
                            }
                            out_edges.push(j as usize);
                            Some(j)
                        }
                    },
                };
                match names.item(&s.value) {
                    Some(item) => Outcome::Item { item, count: le.count, affixes },
                    None => {
                        note(format!("`{}` is not an item", s.value));
                        Outcome::Nothing
                    }
                }
            }
            LootKind::Affix(s) => {
                if kind == Some(TableKind::Items) {
                    note(format!("the item table gives the affix `{}`", s.value));
                }
                match names.affix(&s.value) {
                    Some(a) => Outcome::Affix(a),
                    None => {
                        note(format!("`{}` is not an affix", s.value));
                        Outcome::Nothing
                    }
                }
            }
            LootKind::Table(s) => match names.table(&s.value) {
                Some((j, k)) => {
                    if let (Some(k), Some(own)) = (k, kind) {
                        if k != own {
                            note(format!("it nests `{}`, which is {}", s.value, k.noun()));
                        }
                    }
                    out_edges.push(j as usize);
                    Outcome::Table(j)
                }
                None => {
                    note(format!("`table = \"{}\"` names no loot table", s.value));
                    Outcome::Nothing
                }
            },
            LootKind::Nothing => Outcome::Nothing,
        };
        if le.guaranteed {
            t.guaranteed.push(outcome);
        } else {
            match le.weight {
                Some(w) if w >= 1 => {
                    t.weighted.push(outcome);
                    t.weights.push(w);
                }
                _ => note("a weighted entry has no valid `weight`".into()),
            }
        }
    }
    if !t.weights.is_empty() {
        t.picker = Weights::new(&t.weights);
        if t.picker.is_none() {
            note("its weights add up to more than 2^64".into());
        }
    }
    (t, problem, out_edges)
}

/// The refusals, children before parents: a cycle refuses its members, a problem its table, and
/// either refuses every table above it.
fn refuse(tables: &mut [Table], problems: &[Option<String>], edges: &[Vec<usize>]) {
    for t in tables.iter_mut() {
        t.refusal = None;
    }
    for comp in strongly_connected_components(edges) {
        if is_cycle(edges, &comp) {
            // The first member in ID order, whatever the tables' numbers.
            let start = *comp.iter().min_by(|&&a, &&b| tables[a].id.cmp(&tables[b].id)).unwrap_or(&comp[0]);
            let path: Arc<[String]> = cycle_path(edges, &comp, start).iter().map(|&i| tables[i].id.clone()).collect();
            for &v in &comp {
                tables[v].refusal = Some(LootError::Cycle { table: tables[v].id.clone(), cycle: path.clone() });
            }
            continue;
        }
        let v = comp[0];
        let id = tables[v].id.clone();
        if let Some(reason) = &problems[v] {
            tables[v].refusal = Some(LootError::Invalid { table: id.clone(), culprit: id, reason: reason.clone() });
            continue;
        }
        let inherited = edges[v].iter().find_map(|&c| tables[c].refusal.as_ref()).map(|r| match r {
            LootError::Cycle { cycle, .. } => LootError::Cycle { table: id.clone(), cycle: cycle.clone() },
            LootError::Invalid { culprit, reason, .. } => LootError::Invalid { table: id.clone(), culprit: culprit.clone(), reason: reason.clone() },
            other => other.clone(),
        });
        tables[v].refusal = inherited;
    }
}
