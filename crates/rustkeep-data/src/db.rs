//! The data model of a loaded project: what every file defines ([`FileFacts`]), the registries in
//! force after load order and overrides ([`Resolved`]), and the facts derived from them that both
//! the validator and the engine read (the kind of every loot table).
//!
//! [`Database`] is computed next to resolve and validates nothing beyond what lowering and
//! resolving report on the way. The validator (`rustkeep-check`) wraps it with its diagnostics;
//! the engine (`rustkeep-engine`) runs on it. Both are siblings above this crate, so whoever
//! hands data to the engine decides whether data with errors is refused (the command line does,
//! see docs/engine.md).

use std::collections::VecDeque;
use std::sync::Arc;

use crate::hash::FxHashMap;
use crate::lower::{lower_file, FileFacts};
use crate::model::{Entry, LootKind};
use crate::project::Project;
use crate::resolve::{resolve, EntryRef, Resolved};
use crate::source::{FileKind, SourceFile};
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
        Database { facts, resolved, table_kinds }
    }

    /// Lowers every data file (spread over the available cores) and builds the model. Nothing
    /// here refuses data with errors: see the module documentation.
    pub fn load(project: &Project) -> Database {
        let facts = crate::par::par_map(&project.files, crate::par::default_threads(), |f| lower_source(f).map(Arc::new));
        Database::new(project, facts)
    }

    pub fn entry(&self, r: EntryRef) -> &Entry {
        crate::resolve::entry(&self.facts, r)
    }

    /// The entry in force for an ID of a registry.
    pub fn get(&self, registry: Registry, id: &str) -> Option<&Entry> {
        self.resolved.get(registry, id).map(|d| self.entry(d.current))
    }
}

/// Infers the kind of every loot table in force: from its own entries, else from the tables it
/// nests. A worklist over reverse nesting edges settles every table in linear time, however long
/// the chains (a 10,000-table chain is a test).
pub fn infer_kinds(facts: &[Option<Arc<FileFacts>>], resolved: &Resolved) -> FxHashMap<String, TableKind> {
    let Some(defs) = resolved.defs.get(Registry::LootTables.index()) else { return FxHashMap::default() };
    // Map order is deterministic (a fixed hasher and the load order's insertions), so CLI and
    // language server agree without sorting thousands of IDs after every keystroke.
    let mut kinds: FxHashMap<String, TableKind> = FxHashMap::with_capacity_and_hasher(defs.len(), Default::default());
    // Nested table → the tables without a kind of their own that nest it.
    let mut parents: FxHashMap<&str, Vec<&str>> = FxHashMap::default();
    let mut queue: VecDeque<&str> = VecDeque::new();
    for (id, def) in defs {
        let e = crate::resolve::entry(facts, def.current);
        match direct_kind(e) {
            Some(k) => {
                kinds.insert(id.clone(), k);
                queue.push_back(id.as_str());
            }
            None => {
                for le in e.loot_entries() {
                    if let LootKind::Table(t) = &le.kind {
                        parents.entry(t.value.as_str()).or_default().push(id.as_str());
                    }
                }
            }
        }
    }
    while let Some(child) = queue.pop_front() {
        let Some(k) = kinds.get(child).copied() else { continue };
        for parent in parents.get(child).map(Vec::as_slice).unwrap_or(&[]) {
            if !kinds.contains_key(*parent) {
                kinds.insert((*parent).to_string(), k);
                queue.push_back(parent);
            }
        }
    }
    kinds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_kinds_serialize_as_their_names() {
        for k in [TableKind::Items, TableKind::Affixes] {
            assert_eq!(serde_json::to_value(k).unwrap(), k.as_str());
        }
    }
}
