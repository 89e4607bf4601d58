//! The data model of a loaded project: what every file defines ([`FileFacts`]), the registries in
//! force after load order and overrides ([`Resolved`]), and the facts derived from them that both
//! the validator and the engine read (the kind of every loot table).
//!
//! [`Database`] is computed next to resolve and validates nothing beyond what lowering reports on
//! the way; what resolve finds between two places it keeps as plain data
//! ([`crate::resolve::Finding`]) for the validator to report. The validator (`rustkeep-check`)
//! wraps it with its diagnostics, and hands it on as its validated model when it has no errors;
//! the engine (`rustkeep-engine`) runs on that, or shows a model with errors through its
//! best-effort door (see docs/engine.md).

use std::sync::Arc;

use rayon::prelude::*;

use crate::hash::FxHashMap;
use crate::lower::{lower_file, FileFacts};
use crate::model::{Entry, LootKind};
use crate::project::Project;
use crate::resolve::{resolve, EntryRef, Resolved};
use crate::source::{FileId, FileKind, SourceFile};
use crate::vocab::Registry;

/// Whether a loot table gives items or affixes (docs/loot.md: a table holds one or the other).
// It serializes as `as_str` names it (`rustkeep loot --format json`); a test keeps the two equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum TableKind {
    /// An item table: its entries give items (and nested item tables).
    Items,
    /// An affix table: its entries give affixes (and nested affix tables).
    Affixes,
}

impl TableKind {
    pub fn noun(self) -> &'static str {
        match self {
            TableKind::Items => "an item table",
            TableKind::Affixes => "an affix table",
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            TableKind::Items => "items",
            TableKind::Affixes => "affixes",
        }
    }
}

/// The kind a table's own entries give it: the kind of its first item or affix entry.
pub fn direct_kind(e: &Entry) -> Option<TableKind> {
    e.loot_entries().iter().find_map(|le| match le.kind {
        LootKind::Item(_) => Some(TableKind::Items),
        LootKind::Affix(_) => Some(TableKind::Affixes),
        _ => None,
    })
}

/// The model of a loaded project.
#[derive(Clone, Debug, Default)]
pub struct Database {
    /// Per-file facts, indexed by [`crate::source::FileId`] (`None` for manifests and workspace
    /// files).
    pub facts: Vec<Option<Arc<FileFacts>>>,
    pub resolved: Resolved,
    /// The inferred kind of every loot table in force.
    pub table_kinds: FxHashMap<String, TableKind>,
    /// ID → the files that write it in an entry of a top-level key that is no registry
    /// ([`crate::lower::Misfiled`]), for the note of a reference to it.
    pub misfiled: FxHashMap<String, Vec<FileId>>,
}

/// Lowers one file if it is a data file or a scenario (manifests and workspace files have no
/// entries).
pub fn lower_source(f: &SourceFile) -> Option<FileFacts> {
    match f.kind {
        FileKind::Data => Some(lower_file(f.id, &f.text, f.invalid_utf8_at)),
        FileKind::Scenario => Some(crate::lower::lower_scenario(f.id, &f.text, f.invalid_utf8_at)),
        FileKind::Manifest | FileKind::Workspace => None,
    }
}

impl Database {
    /// The model over already lowered files: resolves the registries and infers table kinds.
    pub fn new(project: &Project, facts: Vec<Option<Arc<FileFacts>>>) -> Database {
        let resolved = resolve(project, &facts);
        let table_kinds = infer_kinds(&facts, &resolved);
        let mut db = Database { facts, resolved, table_kinds, misfiled: FxHashMap::default() };
        for i in 0..db.facts.len() {
            db.file_misfiled(FileId(i as u32), true);
        }
        db
    }

    /// Adds (or, with `add` false, removes) the [`crate::lower::Misfiled`] IDs of one file to
    /// [`Database::misfiled`].
    pub fn file_misfiled(&mut self, file: FileId, add: bool) {
        let Some(ff) = self.facts.get(file.0 as usize).and_then(|f| f.as_ref()) else { return };
        for m in &ff.misfiled {
            let files = self.misfiled.entry(m.id.clone()).or_default();
            if add {
                if !files.contains(&file) {
                    files.push(file);
                }
            } else {
                files.retain(|f| *f != file);
                if files.is_empty() {
                    self.misfiled.remove(&m.id);
                }
            }
        }
    }

    /// Where `id` is written under a key that is no registry, if anywhere.
    pub fn misfiled(&self, id: &str) -> Option<(FileId, &crate::lower::Misfiled)> {
        let file = *self.misfiled.get(id)?.iter().min()?;
        let m = self.facts.get(file.0 as usize)?.as_ref()?.misfiled.iter().find(|m| m.id == id)?;
        Some((file, m))
    }

    /// Lowers every data file (spread over the available cores) and builds the model. Nothing
    /// here refuses data with errors: see the module documentation.
    pub fn load(project: &Project) -> Database {
        let facts = project.files.par_iter().map(|f| lower_source(f).map(Arc::new)).collect();
        Database::new(project, facts)
    }

    pub fn entry(&self, r: EntryRef) -> &Entry {
        crate::resolve::entry(&self.facts, r)
    }

    /// Rewrites every old ID of `[renamed]` that an entry names to the ID it stands for (the
    /// end of its chain), so that the model names only IDs in force: what the engine runs. The
    /// files that name none are shared as they are; the references as written (`refs`) stay,
    /// for the places a front end shows.
    pub fn follow_renames(&mut self) {
        let renamed = &self.resolved.renamed;
        if renamed.is_empty() {
            return;
        }
        let to = |id: &str| renamed.get(id).map(|r| r.to.clone());
        for slot in self.facts.iter_mut() {
            let Some(ff) = slot else { continue };
            let names_old = ff.refs.iter().any(|r| renamed.contains_key(&r.id))
                || ff.given_items.iter().chain(&ff.started_quests).any(|id| renamed.contains_key(id))
                || ff.whens.iter().any(|(_, w)| renamed.contains_key(&w.value.value));
            if !names_old {
                continue;
            }
            let ff = Arc::make_mut(ff);
            for e in &mut ff.entries {
                e.ids_mut(&mut |id| {
                    if let Some(new) = to(&id.value) {
                        id.value = new;
                    }
                });
            }
            for id in ff.given_items.iter_mut().chain(&mut ff.started_quests) {
                if let Some(new) = to(id) {
                    *id = new;
                }
            }
            for (_, w) in &mut ff.whens {
                if let Some(new) = to(&w.value.value) {
                    w.value.value = new;
                }
            }
        }
    }

    /// The entry in force for an ID of a registry.
    pub fn get(&self, registry: Registry, id: &str) -> Option<&Entry> {
        self.resolved.get(registry, id).map(|d| self.entry(d.current))
    }
}

/// Infers the kind of every loot table in force: from its own entries (its direct kind), else from
/// the tables it nests: a table without a direct kind takes the kind of the nearest tables with one
/// (fewest nesting steps), and when those disagree, the kind of the first of its `table =` entries
/// that leads to them ([`settle_kinds`], over every table).
pub fn infer_kinds(facts: &[Option<Arc<FileFacts>>], resolved: &Resolved) -> FxHashMap<String, TableKind> {
    let Some(defs) = resolved.defs.get(Registry::LootTables.index()) else { return FxHashMap::default() };
    let tables: Vec<(&String, &crate::resolve::Def)> = defs.iter().collect();
    let index: FxHashMap<&str, usize> = tables.iter().enumerate().map(|(i, (id, _))| (id.as_str(), i)).collect();
    // Each table's own kind and the tables it nests, read on all cores (reading 30,000 entries is
    // most of the work).
    let read: Vec<(Option<TableKind>, Vec<usize>)> = tables
        .par_iter()
        .map(|(_, def)| {
            let e = crate::resolve::entry(facts, def.current);
            let nested = e.loot_entries().iter().filter_map(|le| if let LootKind::Table(t) = &le.kind { index.get(t.value.as_str()).copied() } else { None });
            (direct_kind(e), nested.collect())
        })
        .collect();
    let mut parents: Vec<Vec<usize>> = vec![Vec::new(); tables.len()];
    for (i, (direct, nested)) in read.iter().enumerate() {
        if direct.is_none() {
            for &c in nested {
                parents[c].push(i);
            }
        }
    }
    let all = AllTables { read, parents };
    settle_kinds(&all, 0..tables.len()).into_iter().map(|(i, _, k)| (tables[i].0.clone(), k)).collect()
}

/// The loot tables in force as [`infer_kinds`] reads them, by their place in a list.
struct AllTables {
    read: Vec<(Option<TableKind>, Vec<usize>)>,
    parents: Vec<Vec<usize>>,
}

impl Nesting for AllTables {
    type Table = usize;
    fn direct(&self, t: usize) -> Option<TableKind> {
        self.read[t].0
    }
    fn nested(&self, t: usize) -> impl Iterator<Item = usize> + '_ {
        self.read[t].1.iter().copied()
    }
    fn kindless_parents(&self, t: usize) -> impl Iterator<Item = usize> + '_ {
        self.parents[t].iter().copied()
    }
    fn in_region(&self, _: usize) -> bool {
        true
    }
    fn settled(&self, _: usize) -> Option<(u32, TableKind)> {
        None
    }
}

/// The nesting of loot tables as [`settle_kinds`] reads it: each table's direct kind, the tables
/// it nests, and which tables are being settled (the others keep what they were settled as).
pub trait Nesting {
    type Table: Copy + Eq + std::hash::Hash;
    /// The kind its own entries give it.
    fn direct(&self, t: Self::Table) -> Option<TableKind>;
    /// The tables its `table =` entries name, in entry order.
    fn nested(&self, t: Self::Table) -> impl Iterator<Item = Self::Table> + '_;
    /// The tables without a kind of their own that nest it.
    fn kindless_parents(&self, t: Self::Table) -> impl Iterator<Item = Self::Table> + '_;
    /// Whether the table is among those being settled.
    fn in_region(&self, t: Self::Table) -> bool;
    /// For a table outside the region: its nesting steps to a table with a kind of its own, and
    /// its kind (`None`: it has none).
    fn settled(&self, t: Self::Table) -> Option<(u32, TableKind)>;
}

/// The rule of [`infer_kinds`] over the tables of `region`, which must hold every table without a
/// kind of its own that nests one of them: each table of the region that has a kind, with its
/// nesting steps to a table with a kind of its own. The batch check settles every table; the
/// language server only the tables an edit can reach, the others keeping their steps and kinds.
/// The rule depends on nothing but the tables themselves, not on the order they are visited in.
/// Tables are taken nearest first from one list per number of steps, so every table of a step is
/// settled before any of the next, and chains of any length settle in linear time (a
/// 10,000-table chain is a test).
pub fn settle_kinds<G: Nesting>(g: &G, region: impl Iterator<Item = G::Table>) -> Vec<(G::Table, u32, TableKind)> {
    let mut steps: FxHashMap<G::Table, u32> = FxHashMap::default();
    let mut by_steps: Vec<Vec<G::Table>> = Vec::new();
    let put = |by_steps: &mut Vec<Vec<G::Table>>, d: u32, t: G::Table| {
        let d = d as usize;
        if by_steps.len() <= d {
            by_steps.resize_with(d + 1, Vec::new);
        }
        by_steps[d].push(t);
    };
    for t in region {
        let d = match g.direct(t) {
            Some(_) => Some(0),
            None => g.nested(t).filter(|c| !g.in_region(*c)).filter_map(|c| g.settled(c)).map(|(d, _)| d + 1).min(),
        };
        if let Some(d) = d {
            steps.insert(t, d);
            put(&mut by_steps, d, t);
        }
    }
    let mut kinds: FxHashMap<G::Table, (u32, TableKind)> = FxHashMap::default();
    let mut out = Vec::new();
    let mut d = 0;
    while d < by_steps.len() {
        let here = std::mem::take(&mut by_steps[d]);
        let d32 = d as u32;
        for t in here {
            // A table listed again nearer was settled there.
            if steps.get(&t) != Some(&d32) {
                continue;
            }
            // Its kind is that of its first `table =` entry one step nearer.
            let kind = match d32 {
                0 => g.direct(t),
                _ => g.nested(t).find_map(|c| {
                    let settled = if g.in_region(c) { kinds.get(&c).copied() } else { g.settled(c) };
                    settled.filter(|(cd, _)| *cd + 1 == d32).map(|(_, k)| k)
                }),
            };
            if let Some(k) = kind {
                kinds.insert(t, (d32, k));
                out.push((t, d32, k));
            }
            for p in g.kindless_parents(t) {
                if g.in_region(p) && steps.get(&p).is_none_or(|&pd| d32 + 1 < pd) {
                    steps.insert(p, d32 + 1);
                    put(&mut by_steps, d32 + 1, p);
                }
            }
        }
        d += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::Project;

    fn kinds_of(tables: &str) -> Vec<(String, &'static str)> {
        let mut p = Project::with_bundled_core();
        p.add_memory_mod("m", &[("mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"1.0.0\"\n"), ("loot.toml", tables)]);
        let db = Database::load(&p);
        let mut out: Vec<(String, &'static str)> =
            db.table_kinds.iter().filter(|(id, _)| id.starts_with("m:")).map(|(id, k)| (id.clone(), k.as_str())).collect();
        out.sort();
        out
    }

    #[test]
    fn a_table_takes_the_kind_of_the_nearest_tables_and_on_a_tie_of_its_first_entry_that_leads_there() {
        let tables = r#"
[[loot_tables]]
id = "m:items"
entries = [ { item = "core:gold", weight = 1 } ]
[[loot_tables]]
id = "m:affixes"
entries = [ { affix = "core:sharp", weight = 1 } ]
[[loot_tables]]
id = "m:far_items"
entries = [ { table = "m:items", weight = 1 } ]
[[loot_tables]]
id = "m:near_affixes_first"
entries = [ { table = "m:far_items", weight = 1 }, { table = "m:affixes", weight = 1 } ]
[[loot_tables]]
id = "m:tie_affixes_first"
entries = [ { table = "m:affixes", weight = 1 }, { table = "m:items", weight = 1 } ]
[[loot_tables]]
id = "m:tie_items_first"
entries = [ { table = "m:items", weight = 1 }, { table = "m:affixes", weight = 1 } ]
[[loot_tables]]
id = "m:nothing"
entries = [ { nothing = true, weight = 1 }, { table = "m:missing", weight = 1 } ]
"#;
        assert_eq!(
            kinds_of(tables),
            [
                ("m:affixes".to_string(), "affixes"),
                ("m:far_items".to_string(), "items"),
                ("m:items".to_string(), "items"),
                ("m:near_affixes_first".to_string(), "affixes"),
                ("m:tie_affixes_first".to_string(), "affixes"),
                ("m:tie_items_first".to_string(), "items"),
            ]
        );
    }

    #[test]
    fn table_kinds_serialize_as_their_names() {
        for k in [TableKind::Items, TableKind::Affixes] {
            assert_eq!(serde_json::to_value(k).unwrap(), k.as_str());
        }
    }
}
