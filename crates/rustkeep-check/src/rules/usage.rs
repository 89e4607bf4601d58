//! Whole-load-set rules: `quest-never-started`, `unknown-tag`, `unused-loot-table`.

use rustkeep_data::hash::FxHashSet;

use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::project::Project;
use rustkeep_data::source::FileId;
use rustkeep_data::suggest;
use rustkeep_data::vocab::{RefKind, Registry};

use rustkeep_data::db::Database;

pub fn run(_project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    let mut started: FxHashSet<&str> = FxHashSet::default();
    for ff in db.facts.iter().flatten() {
        started.extend(ff.started_quests.iter().map(String::as_str));
    }
    let mut carried: FxHashSet<&str> = FxHashSet::default();
    let mut used_tables: FxHashSet<&str> = FxHashSet::default();
    for ff in db.facts.iter().flatten() {
        carried.extend(ff.tag_defs.iter().map(|t| t.value.as_str()));
        for r in &ff.refs {
            if matches!(r.kind, RefKind::ItemTable | RefKind::AffixTable | RefKind::NestedTable) {
                used_tables.insert(r.id.as_str());
            }
        }
    }

    let resolved = &db.resolved;
    // A table named without its namespace (`loot = "moth_loot"`, an `invalid-id`) is the one
    // meant, not an unused one: one mistake, one diagnostic.
    let bare: Vec<&str> = used_tables.iter().copied().filter(|id| !id.contains(':')).collect();
    if !bare.is_empty() {
        for id in resolved.defs[Registry::LootTables.index()].keys() {
            if id.split_once(':').is_some_and(|(_, name)| bare.contains(&name)) {
                used_tables.insert(id.as_str());
            }
        }
    }
    let mut report_entries = |registry: Registry, unused: &dyn Fn(&str) -> bool, code: Code, msg: &dyn Fn(&str) -> String| {
        let mut ids: Vec<&String> = resolved.defs[registry.index()].keys().filter(|id| unused(id)).collect();
        ids.sort();
        for id in ids {
            let def = &resolved.defs[registry.index()][id];
            let e = db.entry(def.current);
            let span = e.key().map(|k| k.span.clone()).unwrap_or(e.span.clone());
            out.push(Diagnostic::new(code, Loc { file: def.current.file, span }, msg(id)));
        }
    };
    report_entries(Registry::Quests, &|id| !started.contains(id), Code::QuestNeverStarted, &|id| {
        format!("no `start_quest` names `{id}`, so this quest can never run: start it from an NPC's `on_talk`, a character option's `on_create`, or another quest's reward")
    });
    report_entries(Registry::LootTables, &|id| !used_tables.contains(id), Code::UnusedLootTable, &|id| {
        format!("nothing references the loot table `{id}`: name it in a creature's, floor's or prefab's `loot`, a shop's `stock`, a `table =` entry or an `affixes =`")
    });

    for (i, ff) in db.facts.iter().enumerate() {
        let Some(ff) = ff else { continue };
        for r in &ff.refs {
            if r.kind != RefKind::Tag || carried.contains(r.id.as_str()) {
                continue;
            }
            let sug = suggest::closest(&r.id, carried.iter().copied());
            let mut msg = format!("no item or creature carries the tag `{}`, so this check is always false", r.id);
            if let Some(s) = sug {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            let mut d = Diagnostic::new(Code::UnknownTag, Loc { file: FileId(i as u32), span: r.span.clone() }, msg);
            if let Some(s) = sug {
                d = d.with_fix(format!("replace with `{s}`"), rustkeep_data::diag::toml_string(s), suggest::judge_id(&r.id, s));
            }
            out.push(d);
        }
    }
}
