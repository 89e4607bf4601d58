//! What resolving found wrong between two places — two mods, two manifests, two entries, an entry
//! and its mod — recorded as plain data. Resolving still needs an answer for each (a load order
//! when mods form a cycle, an entry in force when two define one ID), so it notes the facts where
//! it meets them; judging and wording them is the validator's (`rustkeep-check`'s
//! `rules/resolution.rs`), which reports each with its code, places and fix.

use crate::diag::Applicability;
use crate::model::Sp;
use crate::source::FileId;
use crate::text::Span;

use super::{EntryRef, Rename};

/// A value of `depends` or `load_after` that names a mod, with the manifest that holds it.
pub type DependencyValue = (FileId, Sp<String>);

/// One finding of resolve, in the order resolving meets them (mods by index, then `[balance]`,
/// entries registry by registry in load order, then `[renamed]`). Mods are indices into
/// [`crate::project::Project::mods`]; a `depends` entry is an index into its mod's
/// `manifest.depends`.
#[derive(Clone, Debug, PartialEq)]
pub enum Finding {
    /// Mod `mod_idx` has the id of the earlier mod `first`, and is left out of the load order.
    SharedModId { mod_idx: usize, first: usize },
    /// A required entry of `depends` names no loaded mod.
    UnknownDependency { mod_idx: usize, dep: usize },
    /// An entry of `depends` names the loaded mod `other`, and asks for what it is not: a version
    /// its requirement allows, or (`! id`) its absence.
    UnmetRequirement { mod_idx: usize, dep: usize, other: usize },
    /// Mods that depend on each other in a cycle, from its first mod in ID order: each mod of the
    /// cycle with the `depends` or `load_after` value that names the next one (the last names
    /// the first), when a manifest holds it.
    DependencyCycle { members: Vec<(usize, Option<DependencyValue>)> },
    /// A line of `[renamed]` that gives an ID itself as its new ID.
    SelfRename { file: FileId, old: Sp<String> },
    /// Lines of `[renamed]` that lead back to where they start, from the first old ID in ID order:
    /// each old ID with its line.
    RenameCycle { ring: Vec<(String, Rename)> },
    /// A `[balance]` key set by mod `mod_idx` (at `file`, `span`) after mod `earlier_mod` set it
    /// (at `earlier`), and neither mod names the other in `depends` or `load_after`.
    BalanceConflict { key: &'static str, mod_idx: usize, file: FileId, span: Span, earlier_mod: usize, earlier: (FileId, Span) },
    /// An override whose `id` differs from its `overrides`.
    OverrideIdMismatch { entry: EntryRef },
    /// An override of mod `mod_idx` after the override `prev` of mod `prev_mod`, and neither mod
    /// names the other in `depends` or `load_after`.
    OverrideConflict { entry: EntryRef, mod_idx: usize, prev: EntryRef, prev_mod: usize },
    /// An override whose target is not defined before it in load order, with the closest ID
    /// defined before it and whether replacing the word by it is safe among those IDs.
    OverrideMissingTarget { entry: EntryRef, suggestion: Option<(String, Applicability)> },
    /// An entry of mod `mod_idx` whose ID is outside the mod's namespace; `existing` is the entry in
    /// force under that ID before it, if any.
    NamespaceMismatch { entry: EntryRef, mod_idx: usize, existing: Option<EntryRef> },
    /// An entry whose ID an earlier entry (`first`, its first definition) already defines.
    DuplicateId { entry: EntryRef, first: EntryRef },
}
