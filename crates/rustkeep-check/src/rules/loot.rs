//! Loot-table rules (docs/loot.md): table kinds inferred through nesting and checked at every use
//! (`reference-kind-mismatch`), and nesting cycles (`loot-table-cycle`).

use rustkeep_data::hash::FxHashMap;

use rustkeep_data::db::{direct_kind, Database, TableKind};
use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::model::{Entry, LootKind, Reference, Sp};
use rustkeep_data::project::Project;
use rustkeep_data::resolve::{Def, EntryRef};
use rustkeep_data::source::FileId;
use rustkeep_data::text::Span;
use rustkeep_data::vocab::{RefKind, Registry};

/// What the entries of every registered loot table of an ID hold (the one in force and the ones
/// it replaced), judged per table. The uses of tables elsewhere are checked file by file
/// ([`check_use`]) and the cycles are [`run_cycles`].
pub const ENTRIES: super::PerId = super::PerId {
    name: "reference-kind-mismatch",
    registries: &[Registry::LootTables],
    reads: super::Reads::NestedKinds,
    absence: false,
    run: |cx, _registry, _id, def| {
        let kind_of = |id: &str| cx.db.table_kinds.get(id).copied();
        let mut found = Vec::new();
        for r in def.defined.into_iter().chain(def.overrides.iter().map(|o| o.0)) {
            let mut out = Vec::new();
            check_entries(&kind_of, r.file, cx.db.entry(r), &mut out);
            found.extend(out.into_iter().map(|d| (r, d)));
        }
        found
    },
};

/// `reference-kind-mismatch` of a reference that needs a table of one kind and names one of the
/// other, judged per reference ([`check_use`]).
pub const USE: super::PerRef =
    super::PerRef { name: "reference-kind-mismatch", run: |cx, file, r| check_use(&|id: &str| cx.db.table_kinds.get(id).copied(), file, r) };

/// The nesting cycles (`loot-table-cycle`).
pub fn run_cycles(_project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    cycles(db, out);
}

/// `reference-kind-mismatch` for a reference that needs a table of one kind and names one of the
/// other (`kind_of` gives the kinds of the tables in force).
pub fn check_use(kind_of: &dyn Fn(&str) -> Option<TableKind>, file: FileId, r: &Reference) -> Option<Diagnostic> {
    let want = match r.kind {
        RefKind::ItemTable => TableKind::Items,
        RefKind::AffixTable => TableKind::Affixes,
        _ => return None,
    };
    let k = kind_of(&r.id)?;
    (k != want).then(|| {
        let msg = format!("`{}` is {}, but `{}` needs {}", r.id, k.noun(), r.context, want.noun());
        Diagnostic::new(Code::ReferenceKindMismatch, Loc { file, span: r.span.clone() }, msg)
    })
}

/// `reference-kind-mismatch` for the entries of one registered loot table `e` (in force or
/// overridden): items in an affix table, affixes in an item table, nested tables of the other
/// kind. The table's kind is the kind of its ID in force, else the kind of its own entries.
pub fn check_entries(kind_of: &dyn Fn(&str) -> Option<TableKind>, file: FileId, e: &Entry, out: &mut Vec<Diagnostic>) {
    let own = e.key().and_then(|k| kind_of(&k.value)).or_else(|| direct_kind(e));
    let Some(own) = own else { return };
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

/// The tables a loot table's entries make it evaluate, in entry order (whether they exist or
/// not): nested tables, and the affix tables of its item entries — the edges of nesting cycles.
pub fn nesting_edges(e: &Entry) -> impl Iterator<Item = &Sp<String>> {
    e.loot_entries().iter().filter_map(|le| match &le.kind {
        LootKind::Item(_) => le.affixes.as_ref(),
        LootKind::Table(t) => Some(t),
        _ => le.affixes.as_ref(),
    })
}

/// The tables whose kinds the entry checks of a registered table `e` ([`ENTRIES`]) read besides
/// its own ID's: the tables it evaluates and, for an override whose `id` differs from the ID it
/// overrides, that `id` (its kind is the override's own).
pub fn kinds_read(e: &Entry) -> impl Iterator<Item = &Sp<String>> {
    let own = match (&e.id, &e.overrides) {
        (Some(id), Some(ov)) if id.value != ov.value => Some(id),
        _ => None,
    };
    nesting_edges(e).chain(own)
}

/// What a nesting cycle is called in every message about it.
const NEST_INTO_A_CYCLE: &str = "loot tables nest into a cycle";

/// Loot table IDs as a path: `` `a` → `b` ``.
fn path<'a>(ids: impl Iterator<Item = &'a str>) -> String {
    ids.map(|id| format!("`{id}`")).collect::<Vec<_>>().join(" → ")
}

/// The refusal to evaluate `table` because of a nesting cycle (`loot-table-cycle`), as the engine
/// gives it for data that has this error (`rustkeep loot`, the editor's hover): `cycle` is the
/// cycle as a path, its first table repeated at the end; `table` is on it or nests it.
pub fn cycle_refusal(table: &str, cycle: &[String]) -> String {
    let code = Code::LootTableCycle.name();
    let shown = path(cycle.iter().map(String::as_str));
    if cycle.iter().any(|t| t == table) {
        format!("{code}: {NEST_INTO_A_CYCLE}: {shown} — evaluating `{table}` would never end")
    } else {
        format!("{code}: `{table}` nests the cycle {shown} — evaluating it would never end")
    }
}

/// One member of a nesting cycle: its ID, and its first edge into the cycle (the ID it nests,
/// the file and span of the entry that nests it).
type CycleMember<'a> = (&'a str, Option<(&'a str, FileId, &'a Span)>);

/// The `loot-table-cycle` of one cycle, given its members sorted by ID: on the first member's
/// edge, with related spans on the edges of the others. `None` if the first has no edge into the
/// cycle (then it is no cycle).
fn cycle_diagnostic(members: &[CycleMember<'_>]) -> Option<Diagnostic> {
    let (first, edge) = members.first()?;
    let (_, file, span) = (*edge)?;
    let msg = if members.len() == 1 {
        format!("the loot table `{first}` nests itself: evaluating it would never end")
    } else {
        format!("{NEST_INTO_A_CYCLE}: {} — evaluating any of them would never end", path(members.iter().map(|(id, _)| *id)))
    };
    let mut d = Diagnostic::new(Code::LootTableCycle, Loc { file, span: span.clone() }, msg);
    for (id, edge) in &members[1..] {
        if let Some((target, f, s)) = edge {
            d = d.with_related(Loc { file: *f, span: (*s).clone() }, format!("`{id}` nests `{target}` here"));
        }
    }
    Some(d)
}

/// Reports every nesting cycle once, on the first table in ID order (its `table = …` entry), with
/// related spans on the entries of the others.
fn cycles(db: &Database, out: &mut Vec<Diagnostic>) {
    let defs = &db.resolved.defs[Registry::LootTables.index()];
    for cycle in cycles_from(db, defs.keys().map(String::as_str)) {
        out.extend(cycle_report(db, &cycle));
    }
}

/// The nesting cycles among the tables in force that `starts` reach (every cycle, when `starts`
/// are all the tables; the language server passes the tables whose edges changed), each one's
/// members sorted by ID. (See [`rustkeep_data::graph::cyclic_components`].)
pub fn cycles_from<'a>(db: &'a Database, starts: impl Iterator<Item = &'a str>) -> Vec<Vec<&'a str>> {
    let defs = &db.resolved.defs[Registry::LootTables.index()];
    // The tables reached, numbered as they are found, with their entries in force.
    let mut index_of: FxHashMap<&str, usize> = FxHashMap::default();
    let mut reached: Vec<(&str, EntryRef)> = Vec::new();
    fn reach<'a>(
        defs: &'a FxHashMap<String, Def>,
        id: &str,
        index_of: &mut FxHashMap<&'a str, usize>,
        reached: &mut Vec<(&'a str, EntryRef)>,
    ) -> Option<usize> {
        if let Some(&i) = index_of.get(id) {
            return Some(i);
        }
        let (key, def) = defs.get_key_value(id)?;
        index_of.insert(key.as_str(), reached.len());
        reached.push((key.as_str(), def.current));
        Some(reached.len() - 1)
    }
    for id in starts {
        reach(defs, id, &mut index_of, &mut reached);
    }
    // Each table's edges, which may reach more tables.
    let mut adj: Vec<Vec<usize>> = Vec::new();
    while let Some(&(_, at)) = reached.get(adj.len()) {
        let next = nesting_edges(db.entry(at)).filter_map(|t| reach(defs, &t.value, &mut index_of, &mut reached)).collect();
        adj.push(next);
    }
    let mut found: Vec<Vec<&str>> = rustkeep_data::graph::cyclic_components(&adj).into_iter().map(|c| c.into_iter().map(|v| reached[v].0).collect()).collect();
    for cycle in &mut found {
        cycle.sort_unstable();
    }
    found
}

/// The `loot-table-cycle` of one cycle (its members sorted by ID): on the first member's edge into
/// the cycle, with related spans on the edges of the others.
pub fn cycle_report(db: &Database, members: &[&str]) -> Option<Diagnostic> {
    let defs = &db.resolved.defs[Registry::LootTables.index()];
    let on_cycle: rustkeep_data::hash::FxHashSet<&str> = members.iter().copied().collect();
    let mut list: Vec<CycleMember<'_>> = Vec::with_capacity(members.len());
    for &m in members {
        let def = defs.get(m)?;
        let edge = nesting_edges(db.entry(def.current)).find(|t| on_cycle.contains(t.value.as_str())).map(|t| (t.value.as_str(), def.current.file, &t.span));
        list.push((m, edge));
    }
    cycle_diagnostic(&list)
}
