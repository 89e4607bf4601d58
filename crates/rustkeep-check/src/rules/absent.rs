//! What the whole-set rules about entries the game never brings into play share
//! (`prefab-never-used`, `creature-never-met`, `shop-never-opened`, `status-never-applied`): the
//! names that count as a source, and the warning on every entry in force that none of them names.
//!
//! A source is a floor in force (its `prefabs`, `first_rooms` and `creatures`, kept whole in the
//! language server's outlines) or an action of any entry of a data file, read from the file's
//! references (always whole). A scenario is never a source: it tests the game, it is not the game.

use std::hash::Hash;

use rustkeep_data::db::Database;
use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::hash::FxHashSet;
use rustkeep_data::lower::FileFacts;
use rustkeep_data::model::Reference;
use rustkeep_data::project::Project;
use rustkeep_data::vocab::{IdText, RefKind, Registry};

/// Whether the rules that claim an absence may speak ([`super::Whole::absence`]): while some text
/// could not be read, the place or table that would answer may sit in it, so an absence is
/// claimed only over data that was read whole (one mistake, one diagnostic).
pub fn reads_whole(project: &Project, db: &Database) -> bool {
    !db.facts.iter().flatten().any(|ff| !ff.unreadable.is_empty()) && !project.mods.iter().any(|m| m.manifest.unreadable)
}

/// Where the names that bring entries of one registry into play are written.
pub struct Sources {
    /// The registry whose entries the rule asks about.
    pub registry: Registry,
    /// The fields of a floor that name them (`prefabs`, `creatures`), if a floor can.
    pub floor_fields: &'static [&'static str],
    /// The field of the action that names them (`creature` of `spawn`, `status` of
    /// `apply_status`, `shop` of `open_shop`), if an action can.
    pub action_field: Option<&'static str>,
    /// The warning on an entry none of them names.
    pub code: Code,
    /// Its message, for the entry's ID.
    pub message: fn(&str) -> String,
}

impl Sources {
    /// The sources of a registry whose entries only an action brings into play (`open_shop`'s
    /// `shop`, `apply_status`'s `status`): no floor names them.
    pub const fn actions_only(registry: Registry, action_field: &'static str, code: Code, message: fn(&str) -> String) -> Sources {
        Sources { registry, floor_fields: &[], action_field: Some(action_field), code, message }
    }

    /// Whether a reference of a data file is one of the actions that name an entry.
    fn action(&self, r: &Reference) -> bool {
        self.action_field.is_some_and(|f| r.context == f) && r.kind == RefKind::Registry(self.registry)
    }

    /// Every name the sources write: of the floors in force, and of the actions of every data
    /// file.
    fn names<'a>(&self, db: &'a Database) -> FxHashSet<&'a str> {
        let mut named: FxHashSet<&str> = FxHashSet::default();
        if !self.floor_fields.is_empty() {
            for def in db.resolved.defs[Registry::Floors.index()].values() {
                let floor = db.entry(def.current);
                for f in self.floor_fields {
                    named.extend(floor.ref_list(f).iter().map(|r| r.value.as_str()));
                }
            }
        }
        if self.action_field.is_some() {
            for ff in db.facts.iter().flatten().filter(|ff| ff.scenario.is_none()) {
                named.extend(ff.refs.iter().filter(|r| self.action(r)).map(|r| r.id.as_str()));
            }
        }
        named
    }

    /// The rule: warns on every entry in force of the registry that no source names, but those of
    /// content packs ([`unnamed`]).
    pub fn run(&self, project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
        let named = self.names(db);
        unnamed(project, db, self.registry, &named, self.code, self.message, out);
    }

    /// What the rule reads of one file, as a hash: the entries of its registry (ID and what they
    /// override), the floors (ID, what they override, the names of
    /// the floor fields) and the names its actions write, unless it is a scenario.
    pub fn view(&self, ff: &FileFacts) -> u64 {
        super::view_hash(|h| {
            for e in &ff.entries {
                let own = e.registry == self.registry;
                let floor = e.registry == Registry::Floors && !self.floor_fields.is_empty();
                if !own && !floor {
                    continue;
                }
                e.registry.hash(h);
                e.id.as_ref().map(|i| i.value.as_str()).hash(h);
                e.overrides.as_ref().map(|o| o.value.as_str()).hash(h);
                if floor {
                    for f in self.floor_fields {
                        for r in e.ref_list(f) {
                            r.value.hash(h);
                        }
                        u8::MAX.hash(h);
                    }
                }
            }
            if ff.scenario.is_none() {
                for r in ff.refs.iter().filter(|r| self.action(r)) {
                    r.id.hash(h);
                }
            }
        })
    }
}

/// Reports every entry in force of `registry` that `named` does not name, but those of content
/// packs, in the order of their IDs, on the entry's `id`; `message` words the warning for an ID.
/// The one report of every "never" warning about an entry nothing names.
pub fn unnamed(
    project: &Project,
    db: &Database,
    registry: Registry,
    named: &FxHashSet<&str>,
    code: Code,
    message: impl Fn(&str) -> String,
    out: &mut Vec<Diagnostic>,
) {
    let defs = &db.resolved.defs[registry.index()];
    // A name written without its namespace (`creature = "rat"`, an `invalid-id`) means the entry
    // of that name: one mistake, one diagnostic.
    let bare: FxHashSet<&str> = named.iter().copied().filter(|id| IdText::of(id).is_bare()).collect();
    // An old ID of `[renamed]` names the ID it was renamed to.
    let renamed: FxHashSet<&str> = named.iter().filter_map(|id| db.resolved.renamed.get(*id)).map(|r| r.to.as_str()).collect();
    // Every mod is asked, whatever it holds of its own; only a content pack (`library = true`)
    // is not: the mods built on it bring its entries into play.
    let packs = super::content_packs(project, db);
    let mut ids: Vec<&String> = defs
        .keys()
        .filter(|id| !super::in_pack(&packs, id))
        .filter(|id| !named.contains(id.as_str()) && !renamed.contains(id.as_str()) && !IdText::of(id).qualified_name().is_some_and(|name| bare.contains(name)))
        .collect();
    ids.sort();
    for id in ids {
        let def = &defs[id];
        let e = db.entry(def.current);
        let span = e.key().map(|k| k.span.clone()).unwrap_or(e.span.clone());
        out.push(Diagnostic::new(code, Loc { file: def.current.file, span }, message(id)));
    }
}
