//! Did-you-mean between updates. A suggestion is the best candidate by a fixed order
//! (`rustkeep_data::suggest::closest`, which finds it first), so it can be kept and revised as
//! candidates come and go (`rustkeep_data::suggest::revise`, beside it): a new candidate replaces
//! it if it is better, and only losing the suggestion itself means looking through every
//! candidate again.
//!
//! Three kinds are kept: per registry and unknown ID (`unknown-reference`, same namespace first),
//! per tag nothing carries (`unknown-tag`), and per `overrides` without a target
//! (`override-missing-target`, among the IDs defined before it in load order).

use std::collections::BTreeSet;
use std::sync::Arc;

use rustkeep_data::hash::FxHashMap;
use rustkeep_data::resolve::{Def, EntryRef};
use rustkeep_data::suggest::{Closeness, Matcher};
use rustkeep_data::vocab::Registry;

use super::index::{Index, Sym};
use crate::rules::references;

/// Revises a kept suggestion after the candidates changed ([`rustkeep_data::suggest::revise`]
/// over interned names): `None` when it must be looked for again among all candidates.
pub(super) fn revise<R: Ord>(current: Option<Sym>, added: &[Sym], removed: &[Sym], ix: &Index, rank: impl Fn(&str) -> Option<R>) -> Option<Option<Sym>> {
    rustkeep_data::suggest::revise(current, added, removed, |s| ix.names.name(s), rank)
}

/// The rank of a candidate for an unknown reference (see `references::closeness`).
pub(super) fn reference_rank(word: &str) -> impl Fn(&str) -> Option<(bool, Closeness)> {
    let m = Matcher::new(word);
    let word = word.to_string();
    move |c| references::closeness(&m, &word, c)
}

/// The rank of a candidate in the plain did-you-mean.
pub(super) fn plain_rank(word: &str) -> impl Fn(&str) -> Option<Closeness> {
    let m = Matcher::new(word);
    move |c| m.closeness(c)
}

/// An `overrides` whose target did not exist at its point of the load order.
#[derive(Clone, Debug)]
pub(super) struct Missing {
    pub registry: Registry,
    pub word: Sym,
    pub suggestion: Option<Sym>,
}

#[derive(Debug, Default)]
pub(super) struct Suggestions {
    /// Per registry and ID that no registry has.
    pub refs: FxHashMap<(Registry, Sym), Option<Sym>>,
    /// Per tag nothing carries.
    pub tags: FxHashMap<Sym, Option<Sym>>,
    pub missing: FxHashMap<EntryRef, Missing>,
}

/// The suggestion for an ID that no registry has, among the IDs of a registry (`defs`; `sorted`,
/// its IDs sorted, if built): the batch check's [`references::suggestion`].
pub(super) fn unknown_reference(ix: &Index, sorted: Option<&BTreeSet<Arc<str>>>, defs: &FxHashMap<String, Def>, word: &str) -> Option<Sym> {
    references::suggestion(defs, sorted, word).and_then(|s| ix.sym(s))
}

/// The suggestion for a tag nothing carries, among the carried tags.
pub(super) fn unknown_tag(ix: &Index, carried: &BTreeSet<Arc<str>>, word: &str) -> Option<Sym> {
    rustkeep_data::suggest::closest(word, carried.iter().map(|t| &**t)).and_then(|s| ix.sym(s))
}
