//! Compiling the loot tables in force into [`LootDb`]: interned items and affixes, outcomes by
//! index, and a refusal for every table that cannot be evaluated.

use std::sync::Arc;

use rustkeep_data::db::{Database, TableKind};
use rustkeep_data::graph::{cycle_path, is_cycle, strongly_connected_components};
use rustkeep_data::hash::FxHashMap as HashMap;
use rustkeep_data::model::{Entry, LootEntry, LootKind, Range};
use rustkeep_data::vocab::{field, Registry};

use super::exact::{KeptStats, Numbering};
use super::{LootDb, LootError, Outcome, Table};
use crate::rng::Weights;

impl LootDb {
    /// Compiles the loot tables in force. Never fails: problems become per-table refusals.
    pub fn new(data: &Database) -> LootDb {
        let empty = Default::default();
        let table_defs = data.resolved.defs.get(Registry::LootTables.index()).unwrap_or(&empty);
        LootDb::compile(data, table_defs.keys().map(String::as_str).collect(), None)
    }

    /// Compiles only the tables `tables`, which must hold every table they nest (directly or
    /// through `affixes`): what the exact analysis of one table needs, without compiling the
    /// rest of a large workspace. Items and affixes are numbered with `kept`'s numbering, so
    /// that [`LootDb::analyze_kept`] can reuse statistics of earlier analyses (so its rolls list
    /// affixes by number, not in ID order). Names that are no loot table are left out.
    pub fn of_tables(data: &Database, tables: &[&str], kept: &mut KeptStats) -> LootDb {
        kept.trim();
        LootDb::compile(data, tables.to_vec(), Some(&mut kept.numbering))
    }

    fn compile(data: &Database, mut ids: Vec<&str>, numbering: Option<&mut Numbering>) -> LootDb {
        let defs = &data.resolved.defs;
        // The map type is the resolver's; inferred so that its hasher stays its business.
        let empty = Default::default();
        let table_defs = defs.get(Registry::LootTables.index()).unwrap_or(&empty);
        let item_defs = defs.get(Registry::Items.index()).unwrap_or(&empty);
        let affix_defs = defs.get(Registry::Affixes.index()).unwrap_or(&empty);

        ids.sort_unstable();
        ids.dedup();
        // Each table's entry and loot entries, looked up once.
        let tabs: Vec<(&str, &Entry, &[LootEntry])> = ids
            .iter()
            .filter_map(|id| {
                let e = data.entry(table_defs.get(*id)?.current);
                Some((*id, e, e.loot_entries()))
            })
            .collect();
        let index: HashMap<String, u32> = tabs.iter().enumerate().map(|(i, (id, _, _))| ((*id).to_string(), i as u32)).collect();

        // Intern the items and affixes the tables name, in ID order, so indices sort like IDs.
        let mut item_names: Vec<&str> = Vec::new();
        let mut affix_names: Vec<&str> = Vec::new();
        for (_, _, les) in &tabs {
            for le in *les {
                match &le.kind {
                    LootKind::Item(s) if item_defs.contains_key(&s.value) => item_names.push(&s.value),
                    LootKind::Affix(s) if affix_defs.contains_key(&s.value) => affix_names.push(&s.value),
                    _ => {}
                }
            }
        }
        item_names.sort_unstable();
        item_names.dedup();
        affix_names.sort_unstable();
        affix_names.dedup();
        let (item_index, affix_index, items, affixes) = match numbering {
            // Numbers in ID order, so indices sort like IDs.
            None => (
                item_names.iter().enumerate().map(|(i, s)| (*s, i as u32)).collect::<HashMap<&str, u32>>(),
                affix_names.iter().enumerate().map(|(i, s)| (*s, i as u32)).collect::<HashMap<&str, u32>>(),
                item_names.iter().map(|s| Arc::from(*s)).collect(),
                affix_names.iter().map(|s| Arc::from(*s)).collect(),
            ),
            // Numbers kept from earlier compilations (new names get the next ones).
            Some(n) => (
                item_names.iter().map(|s| (*s, n.items.number(s))).collect(),
                affix_names.iter().map(|s| (*s, n.affixes.number(s))).collect(),
                n.items.names.clone(),
                n.affixes.names.clone(),
            ),
        };

        let kind_of = |id: &str| data.table_kinds.get(id).copied();
        let mut tables: Vec<Table> = Vec::with_capacity(tabs.len());
        let mut problems: Vec<Option<String>> = Vec::with_capacity(tabs.len());
        let mut edges: Vec<Vec<usize>> = Vec::with_capacity(tabs.len());
        for &(id, e, les) in &tabs {
            let kind = kind_of(id);
            let mut t = Table {
                id: id.to_string(),
                kind,
                rolls: e.range(field::ROLLS).unwrap_or(Range::ONE),
                guaranteed: Vec::new(),
                weighted: Vec::new(),
                weights: Vec::new(),
                picker: None,
                refusal: None,
            };
            let mut problem: Option<String> = None;
            let mut note = |p: String| {
                problem.get_or_insert(p);
            };
            let mut out_edges = Vec::new();
            for le in les {
                let outcome = match &le.kind {
                    LootKind::Item(s) => {
                        if kind == Some(TableKind::Affixes) {
                            note(format!("the affix table gives the item `{}`", s.value));
                        }
                        let affixes = match &le.affixes {
                            None => None,
                            Some(a) => match index.get(&a.value) {
                                None => {
                                    note(format!("`affixes = \"{}\"` names no loot table", a.value));
                                    None
                                }
                                Some(&j) => {
                                    if kind_of(&a.value) == Some(TableKind::Items) {
                                        note(format!("`affixes = \"{}\"` names an item table", a.value));
                                    }
                                    out_edges.push(j as usize);
                                    Some(j)
                                }
                            },
                        };
                        match item_index.get(s.value.as_str()) {
                            Some(&item) => Outcome::Item { item, count: le.count, affixes },
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
                        match affix_index.get(s.value.as_str()) {
                            Some(&a) => Outcome::Affix(a),
                            None => {
                                note(format!("`{}` is not an affix", s.value));
                                Outcome::Nothing
                            }
                        }
                    }
                    LootKind::Table(s) => match index.get(&s.value) {
                        Some(&j) => {
                            if let (Some(k), Some(own)) = (kind_of(&s.value), kind) {
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
            tables.push(t);
            problems.push(problem);
            edges.push(out_edges);
        }

        // Refusals, children before parents: a cycle refuses its members, a problem its table,
        // and either refuses every table above it.
        for comp in strongly_connected_components(&edges) {
            if is_cycle(&edges, &comp) {
                let start = *comp.iter().min().unwrap_or(&comp[0]);
                let path: Arc<[String]> = cycle_path(&edges, &comp, start).iter().map(|&i| tables[i].id.clone()).collect();
                for &v in &comp {
                    tables[v].refusal = Some(LootError::Cycle { table: tables[v].id.clone(), cycle: path.clone() });
                }
                continue;
            }
            let v = comp[0];
            let id = tables[v].id.clone();
            if let Some(reason) = problems[v].take() {
                tables[v].refusal = Some(LootError::Invalid { table: id.clone(), culprit: id, reason });
                continue;
            }
            let inherited = edges[v].iter().find_map(|&c| tables[c].refusal.as_ref()).map(|r| match r {
                LootError::Cycle { cycle, .. } => LootError::Cycle { table: id.clone(), cycle: cycle.clone() },
                LootError::Invalid { culprit, reason, .. } => LootError::Invalid { table: id.clone(), culprit: culprit.clone(), reason: reason.clone() },
                other => other.clone(),
            });
            tables[v].refusal = inherited;
        }

        LootDb { tables, index, items, affixes, luck_factor: data.resolved.balance.luck_factor }
    }
}
