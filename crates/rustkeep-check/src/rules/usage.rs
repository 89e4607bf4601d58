//! What every file counts as a start of a quest, a use of a loot table and a gift of an item
//! ([`counted`]), and the rules that judge by it: `quest-never-started` and `unused-loot-table`
//! (`item-never-obtainable` is [`super::obtainable`]); `unknown-tag`, per `has_tag`.

use rustkeep_data::hash::FxHashSet;

use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::model::{Entry, LootKind, Reference};
use rustkeep_data::source::FileId;
use rustkeep_data::suggest;
use rustkeep_data::vocab::{RefKind, Registry};

use rustkeep_data::db::Database;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::resolve::{Def, EntryRef, Resolved};

/// Whether a reference counts as a use of a loot table (for `unused-loot-table`).
pub fn uses_table(r: &Reference) -> bool {
    matches!(r.kind, RefKind::ItemTable | RefKind::AffixTable | RefKind::NestedTable)
}

/// The items a data file gives: those its loot tables list and those its `give_item` actions
/// name. Every loot table counts, nested or not, used or not: whatever rolls it (a creature's
/// `loot`, a floor's or a prefab's piles, a shop's `stock`, another table) hands out its items, a
/// table nothing rolls is `unused-loot-table`'s finding, and one an override replaced is the
/// override's business; so does every `give_item`, as `start_quest` counts for
/// `quest-never-started` (an override that drops the action is `override-drops-field`'s
/// finding). A scenario gives nothing in a game.
pub fn given(ff: &FileFacts) -> impl Iterator<Item = &str> {
    let (entries, gifts): (&[Entry], &[String]) = if ff.scenario.is_none() { (&ff.entries, &ff.given_items) } else { (&[], &[]) };
    let listed = entries.iter().filter(|e| e.registry == Registry::LootTables).flat_map(Entry::loot_entries).filter_map(|le| match &le.kind {
        LootKind::Item(item) => Some(item.value.as_str()),
        _ => None,
    });
    listed.chain(gifts.iter().map(String::as_str))
}

/// `quest-never-started`, judged per quest.
pub const QUESTS: super::PerId =
    super::PerId { name: "quest-never-started", registries: &[Registry::Quests], reads: super::Reads::Count(Count::Started), absence: false, run: unused_id };

/// `unused-loot-table`, judged per loot table.
pub const TABLES: super::PerId =
    super::PerId { name: "unused-loot-table", registries: &[Registry::LootTables], reads: super::Reads::Count(Count::Used), absence: false, run: unused_id };

/// The names started as quests, used as loot tables and given as items, gathered from every file
/// (the batch check's [`super::Counts`]).
#[derive(Debug, Default)]
pub struct Named<'a> {
    /// By [`Count`].
    sets: [FxHashSet<&'a str>; Count::KINDS],
}

impl<'a> Named<'a> {
    pub fn of(db: &'a Database) -> Named<'a> {
        let mut named = Named::default();
        for ff in db.facts.iter().flatten() {
            for (count, id) in counted(&db.resolved, ff) {
                named.sets[count as usize].insert(id);
            }
        }
        named
    }
}

/// What a name given in a file counts as, for [`QUESTS`], [`TABLES`] and
/// [`super::obtainable::RULE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// A `start_quest` names the quest.
    Started = 0,
    /// A reference uses the loot table, or a part that could not be read names it (which may well
    /// be a use).
    Used = 1,
    /// A loot table of a data file lists the item, or a `give_item` of one names it
    /// ([`given`]).
    Given = 2,
}

impl Count {
    /// How many kinds of count there are: the size of what is kept per kind.
    pub const KINDS: usize = 3;
}
// The kinds are numbered from 0, the last one below KINDS.
const _: () = assert!(Count::Given as usize + 1 == Count::KINDS);

/// Every start of a quest, use of a loot table and item given in one file, each counted for the
/// ID an old ID of `[renamed]` leads to (an item also for the name written): what the batch check
/// gathers ([`Named`]) and the language server counts per name.
pub fn counted<'a>(resolved: &'a Resolved, ff: &'a FileFacts) -> impl Iterator<Item = (Count, &'a str)> {
    let started = ff.started_quests.iter().map(|q| (Count::Started, resolved.canonical(q)));
    let used = ff.refs.iter().filter(|r| uses_table(r)).map(|r| (Count::Used, resolved.canonical(&r.id)));
    let mentioned = ff.mentions.iter().map(|m| (Count::Used, resolved.canonical(m)));
    // An item is given under the name written too, as the other absence rules count it
    // (`absent::unnamed`): an old ID still defined is `renamed-id-exists`'s finding alone.
    let given = given(ff).flat_map(|i| {
        let to = resolved.canonical(i);
        [Some((Count::Given, i)), (to != i).then_some((Count::Given, to))].into_iter().flatten()
    });
    started.chain(used).chain(mentioned).chain(given)
}

impl super::Counts for Named<'_> {
    fn named(&self, count: Count, id: &str) -> bool {
        self.sets[count as usize].contains(id)
    }
}

/// [`QUESTS`] and [`TABLES`]: the entry in force of a quest nothing starts or a table nothing
/// uses. A table named without its namespace (`loot = "moth_loot"`, an `invalid-id`) is the one
/// meant, not an unused one: one mistake, one diagnostic.
fn unused_id(cx: &super::IdContext, registry: Registry, id: &str, def: &Def) -> Vec<(EntryRef, Diagnostic)> {
    let unused = match registry {
        Registry::Quests => !cx.counts.named(Count::Started, id),
        _ => !cx.counts.named_or_bare(Count::Used, id),
    };
    // An ID the text of a manifest that could not be read spells may be named there through
    // `[renamed]`: as with a data file's unreadable part, it counts as named.
    if !unused || cx.db.resolved.unread.contains(id) {
        return Vec::new();
    }
    unused_entry(&cx.packs, registry, id, def.current.file, cx.db.entry(def.current)).map(|d| (def.current, d)).into_iter().collect()
}

/// `unknown-tag`, judged per `has_tag` reference: a tag nothing carries.
pub const TAG: super::PerRef = super::PerRef {
    name: "unknown-tag",
    run: |cx, file, r| {
        if r.kind != RefKind::Tag || cx.known.carried(&r.id) {
            return None;
        }
        Some(unknown_tag(file, r, cx.known.tag_suggestion(&r.id), cx.known.carried_tags()))
    },
};

/// `quest-never-started` (quests) or `unused-loot-table` (loot tables) for the entry in force of
/// an ID nothing starts or references; `None` for the other registries and for the entries of
/// content packs (`packs`, see [`super::content_packs`]).
fn unused_entry(packs: &FxHashSet<&str>, registry: Registry, id: &str, file: FileId, e: &Entry) -> Option<Diagnostic> {
    if super::in_pack(packs, id) {
        return None;
    }
    let loc = Loc { file, span: e.key().map(|k| k.span.clone()).unwrap_or(e.span.clone()) };
    match registry {
        Registry::Quests => Some(Diagnostic::new(Code::QuestNeverStarted, loc, format!(
            "no `start_quest` names `{id}`, so this quest can never run: start it from an NPC's `on_talk`, a character option's `on_create`, or another quest's reward"
        ))),
        Registry::LootTables => Some(Diagnostic::new(Code::UnusedLootTable, loc, format!(
            "nothing references the loot table `{id}`: name it in a creature's, floor's or prefab's `loot`, a shop's `stock`, a `table =` entry or an `affixes =`"
        ))),
        _ => None,
    }
}

/// `unknown-tag` for a `has_tag` reference to a tag nothing carries, with the did-you-mean among
/// the carried tags (`carried`), if any.
pub fn unknown_tag<'a>(file: FileId, r: &Reference, suggestion: Option<&str>, carried: impl IntoIterator<Item = &'a str>) -> Diagnostic {
    let mut msg = format!("no item or creature carries the tag `{}`, so this check is always false", r.id);
    if let Some(s) = suggestion {
        msg.push_str(&format!("; did you mean `{s}`?"));
    }
    let mut d = Diagnostic::new(Code::UnknownTag, Loc { file, span: r.span.clone() }, msg);
    if let Some(s) = suggestion {
        d = d.with_fix(format!("replace with `{s}`"), rustkeep_data::diag::toml_string(s), suggest::judge(&r.id, s, carried));
    }
    d
}
