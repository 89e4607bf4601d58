//! The cross-file rules, one module per family. Structural rules run while files are lowered
//! (`rustkeep_data::lower`); what resolving the registries finds between two places
//! (`rustkeep_data::resolve`'s findings) is worded by [`resolution`].

use std::sync::OnceLock;

use rayon::prelude::*;
use rustkeep_data::db::Database;
use rustkeep_data::diag::Diagnostic;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::model::{Action, Condition, Entry, Reference, Trigger, Value};
use rustkeep_data::project::Project;
use rustkeep_data::resolve::{Def, EntryRef};
use rustkeep_data::source::FileId;
use rustkeep_data::suggest::Rivals;
use rustkeep_data::vocab::{EventKind, IdText, Registry, TargetPresence};

pub mod absent;
pub mod active;
pub mod ai_reach;
pub mod contradictions;
pub mod creatures;
pub mod loot;
pub mod npcs;
pub mod obtainable;
pub mod overrides;
pub mod prefabs;
pub mod references;
pub mod renames;
pub mod resolution;
pub mod scenario;
pub mod shops;
pub mod statuses;
pub mod triggers;
pub mod usage;
pub mod whens;
pub mod world;

/// One cross-file rule: it reads the resolved data and adds what it finds.
type Rule = fn(&Project, &Database, &mut Vec<Diagnostic>);

/// A rule that judges one ID at a time, from the entries of that ID and what [`PerId::reads`]
/// names: the batch check runs it for every ID of its registries, the language server
/// ([`crate::incremental`]) for the IDs whose entries changed and those whose reads did. Such a
/// rule is one constant of this type, named in [`PER_ID`]; nothing else is wired for it.
pub struct PerId {
    /// The code it reports (the first, for a rule that reports several), which names it.
    pub name: &'static str,
    /// The registries whose IDs it judges.
    pub registries: &'static [Registry],
    pub reads: Reads,
    /// It claims an absence, which holds only over data that was read whole
    /// ([`absent::reads_whole`]): see [`Whole::absence`].
    pub absence: bool,
    pub run: IdRule,
}

/// The findings of a [`PerId`] rule about one ID (with its definition in force), each with the
/// entry it is on.
pub type IdRule = fn(&IdContext, Registry, &str, &Def) -> Vec<(EntryRef, Diagnostic)>;

/// What a [`PerId`] rule reads besides the entries of the ID it judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// Nothing else.
    Own,
    /// Whether some file counts the ID — or, for a use of a loot table or a gift of an item, its
    /// name without the namespace — as a start, a use or a gift ([`Counts::named`]).
    Count(usage::Count),
    /// The kinds of the loot tables its entries nest or that its overrides' `id` names
    /// (`Database::table_kinds`).
    NestedKinds,
}

/// Which names some file counts as a start of a quest, a use of a loot table or a gift of an item
/// ([`usage::counted`]): sets built once by the batch check ([`usage::Named`]), counts kept by the
/// language server.
pub trait Counts: Sync {
    fn named(&self, count: usage::Count, id: &str) -> bool;

    /// Whether some file counts `id` or its name without the namespace: a name written so (an
    /// `invalid-id`) means the entry of that name, one mistake, one diagnostic.
    fn named_or_bare(&self, count: usage::Count, id: &str) -> bool {
        self.named(count, id) || IdText::of(id).qualified_name().is_some_and(|name| self.named(count, name))
    }
}

/// What a [`PerId`] rule is given.
pub struct IdContext<'a> {
    pub db: &'a Database,
    /// See [`content_packs`].
    pub packs: rustkeep_data::hash::FxHashSet<&'a str>,
    pub counts: &'a dyn Counts,
}

/// The [`PerId`] rules.
pub const PER_ID: &[PerId] = &[usage::QUESTS, usage::TABLES, obtainable::RULE, loot::ENTRIES, overrides::RULE];

/// A [`PerId`] rule over every ID of its registries; `named` is built by the first rule that reads it.
fn run_per_id<'a>(project: &'a Project, db: &'a Database, rule: &PerId, named: &OnceLock<usage::Named<'a>>, out: &mut Vec<Diagnostic>) {
    let none = usage::Named::default();
    let counts: &dyn Counts = match rule.reads {
        Reads::Count(_) => named.get_or_init(|| usage::Named::of(db)),
        Reads::Own | Reads::NestedKinds => &none,
    };
    let cx = IdContext { db, packs: content_packs(project, db), counts };
    for &registry in rule.registries {
        for (id, def) in &db.resolved.defs[registry.index()] {
            out.extend((rule.run)(&cx, registry, id, def).into_iter().map(|(_, d)| d));
        }
    }
}

/// A rule over the whole load set that reads little of each file: the batch check runs it once,
/// the language server ([`crate::incremental`]) again only when what it reads of a changed file
/// ([`Whole::view`]) differs between the file's two versions — and keeps its findings in the
/// files whose view did not change. Such a rule is one module with one constant of this type,
/// named in [`WHOLE`]; nothing else is wired for it.
pub struct Whole {
    /// The code it reports (the first, for a rule that reports several), which names it.
    pub name: &'static str,
    pub run: Rule,
    /// It claims an absence (an entry nothing names), which holds only over data that was read
    /// whole ([`absent::reads_whole`]): while some text could not be read, the place that would
    /// answer may sit in it (one mistake, one diagnostic). The rule itself does not ask: the batch
    /// check does not run it then, and the language server keeps its findings but shows none.
    pub absence: bool,
    /// What the rule reads of one file, as a hash: the same for two versions of a file exactly
    /// when the rule would find the same there and elsewhere — the same findings, maybe in other
    /// places of that file. So places are left out: the language server runs the rule again for
    /// a changed file that holds findings of it or places they point at (they may have moved).
    pub view: fn(&FileFacts) -> u64,
}

/// The [`Whole`] rules, in the order a fresh check gathers their findings.
pub const WHOLE: &[Whole] =
    &[world::RULE, active::RULE, npcs::RULE, whens::RULE, prefabs::RULE, creatures::RULE, shops::RULE, statuses::RULE, renames::RULE, scenario::RULE];

/// The hash of a rule's view of a file ([`Whole::view`]): what `write` feeds it.
pub fn view_hash(write: impl FnOnce(&mut std::collections::hash_map::DefaultHasher)) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    write(&mut h);
    h.finish()
}

/// The mods that say they are content packs (`library = true` under `[mod]`): the "never"
/// warnings (an entry nothing places, gives, applies, starts, opens or uses) are not given for
/// their own entries, which the mods built on them use. A mod whose `mod.toml` does not read whole
/// may say so where it could not be read, so it counts as one, under its ID and the namespaces its
/// data files define IDs in (its ID may be what could not be read): its syntax error is the one
/// diagnostic of that mistake.
pub fn content_packs<'a>(project: &'a Project, db: &'a Database) -> rustkeep_data::hash::FxHashSet<&'a str> {
    let mut packs: rustkeep_data::hash::FxHashSet<&str> = project.mods.iter().filter(|m| m.manifest.library).map(|m| m.id.as_str()).collect();
    for m in project.mods.iter().filter(|m| m.manifest.unreadable) {
        packs.insert(m.id.as_str());
        let entries = m.data_files.iter().filter_map(|f| db.facts.get(f.0 as usize)?.as_deref()).flat_map(|ff| &ff.entries);
        packs.extend(entries.filter_map(|e| IdText::of(&rustkeep_data::resolve::resolved_under(e)?.value).namespace()));
    }
    packs
}

/// Whether `id` belongs to one of `packs` (its namespace is the pack's mod ID).
pub fn in_pack(packs: &rustkeep_data::hash::FxHashSet<&str>, id: &str) -> bool {
    !packs.is_empty() && IdText::of(id).namespace().is_some_and(|ns| packs.contains(ns))
}

/// A rule that judges one reference at a time, from what is known of the name it gives (the
/// registries in force, the loot tables' kinds, [`Known`]): the batch check runs it on every
/// reference, the language server on the references of a changed file and on those naming a name
/// whose presence, kind or did-you-mean changed. Such a rule is one constant of this type, named in
/// [`PER_REF`]; nothing else is wired for it.
pub struct PerRef {
    /// The code it reports (the first, for a rule that reports several), which names it.
    pub name: &'static str,
    pub run: RefRule,
}

/// The finding of a [`PerRef`] rule about one reference of a file.
pub type RefRule = fn(&RefContext, FileId, &Reference) -> Option<Diagnostic>;

/// What a [`PerRef`] rule is given.
pub struct RefContext<'a> {
    pub db: &'a Database,
    pub known: &'a dyn Known,
    /// The reference is in a scenario file, which sees only the mods it loads (its own rule,
    /// [`scenario`], checks that its IDs exist there).
    pub scenario: bool,
}

/// What the per-reference rules ask beyond the registries: did-you-means and the tags entries
/// carry. The batch check finds them as they are asked for ([`Found`]); the language server keeps
/// them and revises them as IDs and tags come and go.
pub trait Known: Sync {
    /// The did-you-mean for `id`, which no registry has, among the IDs of `registry`
    /// ([`references::suggestion`]).
    fn suggestion(&self, registry: Registry, id: &str) -> Option<&str>;
    /// The IDs of `registry` indexed for judging a did-you-mean's fix.
    fn rivals(&self, registry: Registry) -> &Rivals;
    /// Whether some entry carries `tag`.
    fn carried(&self, tag: &str) -> bool;
    /// The did-you-mean for a tag nothing carries, among the carried tags.
    fn tag_suggestion(&self, tag: &str) -> Option<&str>;
    /// The carried tags (for judging a tag's fix).
    fn carried_tags(&self) -> Vec<&str>;
}

/// The [`PerRef`] rules.
pub const PER_REF: &[PerRef] = &[loot::USE, references::RULE, usage::TAG];

/// [`Known`] for one batch check: each did-you-mean found when asked, the rest built once.
struct Found<'a> {
    db: &'a Database,
    rivals: Vec<OnceLock<Rivals>>,
    carried: OnceLock<rustkeep_data::hash::FxHashSet<&'a str>>,
}

impl<'a> Found<'a> {
    fn carried_set(&self) -> &rustkeep_data::hash::FxHashSet<&'a str> {
        self.carried.get_or_init(|| self.db.facts.iter().flatten().flat_map(|ff| ff.tag_defs.iter().map(|t| t.value.as_str())).collect())
    }
}

impl Known for Found<'_> {
    fn suggestion(&self, registry: Registry, id: &str) -> Option<&str> {
        references::suggestion(&self.db.resolved.defs[registry.index()], None, id)
    }
    fn rivals(&self, registry: Registry) -> &Rivals {
        self.rivals[registry.index()].get_or_init(|| Rivals::new(self.db.resolved.defs[registry.index()].keys().map(String::as_str)))
    }
    fn carried(&self, tag: &str) -> bool {
        self.carried_set().contains(tag)
    }
    fn tag_suggestion(&self, tag: &str) -> Option<&str> {
        rustkeep_data::suggest::closest(tag, self.carried_set().iter().copied())
    }
    fn carried_tags(&self) -> Vec<&str> {
        self.carried_set().iter().copied().collect()
    }
}

/// A piece of the cross-file work: a rule over the whole load set, a [`PerId`] rule over every ID,
/// or the [`PerRef`] rules of a run of files.
enum Job {
    Whole(Rule),
    PerId(&'static PerId),
    Files(std::ops::Range<usize>),
}

/// The cross-file rules, run after every change over the cached per-file facts, spread over the
/// available cores. The whole-set rules go first, then the files in runs of about equal numbers
/// of references, which fill in around them (the order of what they find does not matter, as the
/// diagnostics are sorted when they are finished).
pub fn run_all(project: &Project, a: &Database, out: &mut Vec<Diagnostic>) {
    let threads = rayon::current_num_threads();
    // The search for loot-table cycles is the longest, so it goes first (the language server
    // follows the cycles table by table, in `incremental::tables`).
    let mut jobs: Vec<Job> = vec![Job::Whole(loot::run_cycles)];
    // The rules that claim an absence wait for data read whole (`Whole::absence`).
    let whole = absent::reads_whole(project, a);
    jobs.extend(PER_ID.iter().filter(|r| whole || !r.absence).map(Job::PerId));
    jobs.extend(WHOLE.iter().filter(|r| whole || !r.absence).map(|w| Job::Whole(w.run)));
    let refs: usize = a.facts.iter().flatten().map(|f| f.refs.len()).sum();
    let per_job = (refs / (threads * 16)).max(1024);
    let (mut start, mut run) = (0, 0);
    for (i, f) in a.facts.iter().enumerate() {
        run += f.as_ref().map_or(0, |f| f.refs.len());
        if run >= per_job {
            jobs.push(Job::Files(start..i + 1));
            (start, run) = (i + 1, 0);
        }
    }
    jobs.push(Job::Files(start..a.facts.len()));
    let known = Found { db: a, rivals: Registry::ALL.iter().map(|_| OnceLock::new()).collect(), carried: OnceLock::new() };
    let named = OnceLock::new();
    let found: Vec<Vec<Diagnostic>> = jobs
        .par_iter()
        .map(|job| {
            let mut o = Vec::new();
            match job {
                Job::Whole(rule) => rule(project, a, &mut o),
                Job::PerId(rule) => run_per_id(project, a, rule, &named, &mut o),
                Job::Files(range) => {
                    for i in range.clone() {
                        file_rules(a, FileId(i as u32), &known, &mut o);
                    }
                }
            }
            o
        })
        .collect();
    out.extend(found.into_iter().flatten());
}

/// The [`PerRef`] rules on each reference of one file.
fn file_rules(db: &Database, file: FileId, known: &dyn Known, out: &mut Vec<Diagnostic>) {
    let Some(ff) = db.facts.get(file.0 as usize).and_then(|f| f.as_ref()) else { return };
    // Only a scenario file is lowered with a scenario.
    let cx = RefContext { db, known, scenario: ff.scenario.is_some() };
    for r in &ff.refs {
        out.extend(PER_REF.iter().filter_map(|rule| (rule.run)(&cx, file, r)));
    }
}

/// The rules that need nothing but one file, run once per version of the file: the trigger
/// rules, the prefab rules, the triggers of items without a slot, the `ai` rules that are never
/// reached and the checks that contradict each other. The parts of a file that
/// could not be read show only their syntax errors.
pub fn local(file: FileId, facts: &mut rustkeep_data::lower::FileFacts) {
    let mut out = Vec::new();
    for e in &facts.entries {
        triggers::run_entry(file, e, &mut out);
        world::run_entry(file, e, &mut out);
        active::run_entry(file, e, &mut out);
        ai_reach::run_entry(file, e, &mut out);
        contradictions::run_entry(file, e, &mut out);
    }
    out.retain(|d| !rustkeep_data::lower::within(&facts.unreadable, &d.loc.span));
    facts.diagnostics.extend(out);
}

/// Where a list of actions or checks is evaluated, and so what `target` means there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A trigger of an item, affix, creature, option or status: target = the event's target.
    Trigger(EventKind),
    /// A floor or prefab trigger (self = the player): target = the event's target.
    WorldTrigger(EventKind),
    /// A quest: target = the other side of the event.
    Quest(EventKind),
    /// `use`, `on_create`, `on_talk`: no target.
    NoTarget(&'static str),
    /// `ai` (target = the player) or a modifier (target = the opponent of the read, if any).
    TargetMaybe,
}

impl Place {
    pub fn target(self) -> TargetPresence {
        match self {
            Place::Trigger(e) | Place::WorldTrigger(e) => e.def().target_presence,
            Place::Quest(e) => {
                let d = e.def();
                if d.target_presence == TargetPresence::Never && !d.source_maybe_not_player {
                    TargetPresence::Never
                } else {
                    TargetPresence::Maybe
                }
            }
            Place::NoTarget(_) => TargetPresence::Never,
            Place::TargetMaybe => TargetPresence::Maybe,
        }
    }
}

/// Visits every action list and condition list of an entry with the place it runs in.
pub fn visit_entry<'e>(e: &'e Entry, mut f: impl FnMut(Place, Option<&'e Trigger>, &'e [Condition], &'e [Action])) {
    let world = matches!(e.registry, Registry::Floors | Registry::Prefabs);
    for t in e.triggers() {
        let Some(on) = &t.on else {
            f(Place::TargetMaybe, Some(t), &t.condition, &t.actions);
            continue;
        };
        let place = if e.registry == Registry::Quests {
            Place::Quest(on.value)
        } else if world {
            Place::WorldTrigger(on.value)
        } else {
            Place::Trigger(on.value)
        };
        f(place, Some(t), &t.condition, &t.actions);
    }
    for m in e.modifiers() {
        f(Place::TargetMaybe, None, &m.condition, &[]);
    }
    for r in e.ai() {
        f(Place::TargetMaybe, None, &r.condition, &r.actions);
    }
    // The registries' own action lists (`use`, `on_create`, `on_talk`): every actions field of
    // an entry but a quest's, whose `actions` belong to its flattened trigger (visited above).
    if e.registry != Registry::Quests {
        for field in &e.fields {
            if let Value::Actions(actions) = &field.value {
                if !actions.is_empty() {
                    f(Place::NoTarget(field.def.name), None, &[], actions);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rustkeep_data::diag::Code;

    /// Every declared cross-file rule is named by a code it can report, and no two rules of a kind
    /// share one.
    #[test]
    fn every_declared_rule_is_named_by_a_code() {
        let kinds: [Vec<&str>; 3] =
            [super::WHOLE.iter().map(|r| r.name).collect(), super::PER_ID.iter().map(|r| r.name).collect(), super::PER_REF.iter().map(|r| r.name).collect()];
        for names in kinds {
            for n in &names {
                assert!(Code::from_name(n).is_some(), "`{n}` is no diagnostic code");
            }
            let mut unique = names.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), names.len(), "{names:?}");
        }
    }
}
