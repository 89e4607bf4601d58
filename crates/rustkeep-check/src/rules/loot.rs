//! Loot-table rules (docs/loot.md): table kinds inferred through nesting and checked at every use
//! (`reference-kind-mismatch`), and nesting cycles (`loot-table-cycle`).

use rustkeep_data::hash::FxHashMap;
use std::collections::BTreeMap;

use rustkeep_data::db::{direct_kind, Database, TableKind};
use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::model::{LootKind, Sp};
use rustkeep_data::project::Project;
use rustkeep_data::source::FileId;
use rustkeep_data::vocab::{RefKind, Registry};

pub fn run(_project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    let kinds = &db.table_kinds;
    let kind_of = |id: &str| kinds.get(id).copied();

    // Uses of tables outside loot tables: `loot =` and `stock =` need item tables; `affixes =` is
    // checked below with the entries.
    for (i, ff) in db.facts.iter().enumerate() {
        let Some(ff) = ff else { continue };
        for r in &ff.refs {
            let want = match r.kind {
                RefKind::ItemTable => TableKind::Items,
                RefKind::AffixTable => TableKind::Affixes,
                _ => continue,
            };
            if let Some(k) = kind_of(&r.id) {
                if k != want {
                    let msg = format!("`{}` is {}, but `{}` needs {}", r.id, k.noun(), r.context, want.noun());
                    out.push(Diagnostic::new(Code::ReferenceKindMismatch, Loc { file: FileId(i as u32), span: r.span.clone() }, msg));
                }
            }
        }
    }

    // Entries inside tables: one kind per table; nested tables of the same kind.
    // Every loot table that was registered: the one in force and the ones it replaced.
    let defs = &db.resolved.defs[Registry::LootTables.index()];
    let registered = defs.values().flat_map(|d| d.defined.into_iter().chain(d.overrides.iter().map(|o| o.0)));
    for r in registered {
        let (file, e) = (r.file, db.entry(r));
        let own = e.key().and_then(|k| kind_of(&k.value)).or_else(|| direct_kind(e));
        let Some(own) = own else { continue };
        let loc = |s: &Sp<String>| Loc { file, span: s.span.clone() };
        for le in e.loot_entries() {
            match &le.kind {
                LootKind::Item(s) if own == TableKind::Affixes => {
                    out.push(Diagnostic::new(
                        Code::ReferenceKindMismatch,
                        loc(s),
                        format!("an affix table cannot give the item `{}`: a table holds items or affixes, never both", s.value),
                    ));
                }
                LootKind::Affix(s) if own == TableKind::Items => {
                    out.push(Diagnostic::new(
                        Code::ReferenceKindMismatch,
                        loc(s),
                        format!("an item table cannot give the affix `{}`: affixes belong in affix tables, named by an item entry's `affixes =`", s.value),
                    ));
                }
                LootKind::Table(s) => {
                    if let Some(k) = kind_of(&s.value) {
                        if k != own {
                            out.push(Diagnostic::new(
                                Code::ReferenceKindMismatch,
                                loc(s),
                                format!("`{}` is {}, but it is nested in {}: a nested table must be of the same kind", s.value, k.noun(), own.noun()),
                            ));
                        }
                    }
                }
                _ => {}
            }
        }
    }

    cycles(db, out);
}

/// Reports every nesting cycle once, on the first table in ID order (its `table = …` entry), with
/// related spans on the entries of the others. (See [`rustkeep_data::graph::cyclic_components`].)
fn cycles(db: &Database, out: &mut Vec<Diagnostic>) {
    let defs = &db.resolved.defs[Registry::LootTables.index()];
    // Components are found in map order; each cycle is then ordered by ID to find its first member.
    let ids: Vec<&String> = defs.keys().collect();
    let index_of: FxHashMap<&str, usize> = ids.iter().enumerate().map(|(i, id)| (id.as_str(), i)).collect();
    // Edges with the span of the entry that makes them.
    let edges: Vec<Vec<(usize, FileId, &Sp<String>)>> = ids
        .iter()
        .map(|id| {
            let def = &defs[*id];
            let e = db.entry(def.current);
            let mut v = Vec::new();
            for le in e.loot_entries() {
                let target = match &le.kind {
                    LootKind::Table(t) => Some(t),
                    _ => le.affixes.as_ref(),
                };
                if let LootKind::Item(_) = &le.kind {
                    if let Some(a) = &le.affixes {
                        if let Some(&j) = index_of.get(a.value.as_str()) {
                            v.push((j, def.current.file, a));
                        }
                    }
                    continue;
                }
                if let Some(t) = target {
                    if let Some(&j) = index_of.get(t.value.as_str()) {
                        v.push((j, def.current.file, t));
                    }
                }
            }
            v
        })
        .collect();

    let adj: Vec<Vec<usize>> = edges.iter().map(|es| es.iter().map(|(j, _, _)| *j).collect()).collect();
    let mut sccs = rustkeep_data::graph::cyclic_components(&adj);
    for comp in &mut sccs {
        comp.sort_by(|a, b| ids[*a].cmp(ids[*b]));
    }
    for comp in sccs {
        let members: BTreeMap<usize, ()> = comp.iter().map(|&i| (i, ())).collect();
        let first = comp[0];
        let edge_into = |v: usize| edges[v].iter().find(|(j, _, _)| members.contains_key(j));
        let Some((_, file, span)) = edge_into(first) else { continue };
        let names: Vec<String> = comp.iter().map(|&i| format!("`{}`", ids[i])).collect();
        let msg = if comp.len() == 1 {
            format!("the loot table `{}` nests itself: evaluating it would never end", ids[first])
        } else {
            format!("loot tables nest into a cycle: {} — evaluating any of them would never end", names.join(" → "))
        };
        let mut d = Diagnostic::new(Code::LootTableCycle, Loc { file: *file, span: span.span.clone() }, msg);
        for &v in &comp[1..] {
            if let Some((j, f, s)) = edge_into(v) {
                d = d.with_related(Loc { file: *f, span: s.span.clone() }, format!("`{}` nests `{}` here", ids[v], ids[*j]));
            }
        }
        out.push(d);
    }
}
