//! Scenario files against the data they run on (docs/engine.md, "Scenario files"): every ID a
//! scenario names must exist in the core or the mods it loads (`unknown-reference`, with "did you
//! mean"; `reference-kind-mismatch` for an ID of another registry), every `enemy:N` must name
//! an enemy that has appeared by its step, the player's `options` name at most one option of
//! each `group` (`option-group-conflict`), and the starting items marked `equipped` have a slot
//! each of their own. Lowering already reported the scenario's own keys, types and names.

use std::hash::Hash;

use rustkeep_data::db::Database;
use rustkeep_data::diag::{toml_string, Applicability, Code, Diagnostic, Loc};
use rustkeep_data::hash::FxHashMap;
use rustkeep_data::model::{Action, ActionData, Entry, Sp, Value};
use rustkeep_data::project::Project;
use rustkeep_data::resolve::{resolved_under, Def};
use rustkeep_data::scenario::{registries_for, Actor, ExpectKind, Scenario, StepAct};
use rustkeep_data::source::FileId;
use rustkeep_data::suggest;
use rustkeep_data::vocab::{field, IdText, Registry};

/// The rule, for the batch check and the language server. It reads a scenario file whole (any
/// change of one runs it again), and of a data file the ID each entry is resolved under, a
/// character option's `group`, an item's `slot` and whether the entry can spawn an enemy.
pub const RULE: super::Whole = super::Whole {
    name: "unknown-reference",
    absence: false,
    run,
    view: |ff| {
        super::view_hash(|h| {
            if let Some(sc) = &ff.scenario {
                format!("{sc:?}{:?}", ff.refs).hash(h);
                ff.has_syntax_errors.hash(h);
                return;
            }
            for e in &ff.entries {
                e.registry.index().hash(h);
                resolved_under(e).map(|k| k.value.as_str()).hash(h);
                (e.registry == Registry::CharacterOptions).then(|| e.str(field::GROUP)).hash(h);
                (e.registry == Registry::Items).then(|| e.str(field::SLOT)).hash(h);
                entry_spawns(e).hash(h);
            }
        })
    },
};

fn run(project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    if project.scenarios.is_empty() {
        return;
    }
    let mut mod_of: FxHashMap<FileId, usize> = FxHashMap::default();
    for (i, m) in project.mods.iter().enumerate() {
        for f in &m.data_files {
            mod_of.insert(*f, i);
        }
    }
    // Whether anything but a creature can spawn an enemy reads every entry the scenario sees:
    // asked once for each set of mods the scenarios load (most load the same).
    let mut outside: FxHashMap<&[usize], bool> = FxHashMap::default();
    for s in &project.scenarios {
        let Some(Some(facts)) = db.facts.get(s.file.0 as usize) else { continue };
        let Some(sc) = &facts.scenario else { continue };
        if facts.has_syntax_errors {
            continue;
        }
        let visible = |d: &Def| {
            let r = d.defined.unwrap_or(d.current);
            mod_of.get(&r.file).is_some_and(|m| project.mods[*m].is_core || s.mods.contains(m))
        };
        let spawns = *outside.entry(&s.mods).or_insert_with(|| spawns_outside_creatures(db, &visible));
        out.extend(check(s.file, &facts.refs, sc, db, &visible, spawns));
    }
}

/// Checks a scenario against the data it runs on: every ID it names exists in the loaded mods it
/// can see, and every `enemy:N` it names has appeared by the time its step runs. `visible` says
/// whether an ID's definition is in a mod the scenario loads (the core and its `mods`);
/// `spawns_outside`, whether something visible but a creature can spawn an enemy.
fn check(
    file: FileId,
    refs: &[rustkeep_data::model::Reference],
    sc: &Scenario,
    db: &Database,
    visible: &dyn Fn(&Def) -> bool,
    spawns_outside: bool,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let known = |r: Registry, id: &str| db.resolved.get(r, id).is_some_and(visible);
    for r in refs {
        let Some(registry) = r.kind.registry() else { continue };
        let regs = registries_for(r.context, registry);
        let loc = Loc { file, span: r.span.clone() };
        if regs.iter().any(|reg| known(*reg, &r.id)) {
            // An old ID of `[renamed]` runs as the new one, and is said to be old as in data.
            if let Some(rename) = regs.iter().find_map(|reg| db.resolved.renamed_in(*reg, &r.id)) {
                out.push(super::references::renamed(loc, &r.id, rename));
            }
            continue;
        }
        // An ID the text of a manifest that could not be read spells may be an old ID of `[renamed]`.
        if db.resolved.unread.contains(&r.id) {
            continue;
        }
        let nouns = regs.iter().map(|r| r.noun()).collect::<Vec<_>>().join(" or ");
        if IdText::of(&r.id).is_bare() {
            let ids = regs.iter().flat_map(|reg| db.resolved.defs[reg.index()].iter().filter(|(_, d)| visible(d)).map(|(id, _)| id.as_str()));
            let ids: Vec<&str> = ids.collect();
            let meant = suggest::closest_id(&r.id, ids.iter().copied());
            out.push(suggest::namespace_missing(loc, &r.id, &format!("{nouns} ID"), meant, ids.iter().copied()));
            continue;
        }
        if let Some(other) = Registry::ALL.into_iter().find(|reg| !regs.contains(reg) && known(*reg, &r.id)) {
            let msg = format!("`{}` is {} {}, but `{}` needs {} {nouns}", r.id, article(other.noun()), other.noun(), r.context, article(&nouns));
            out.push(Diagnostic::new(Code::ReferenceKindMismatch, loc, msg));
            continue;
        }
        let msg = format!("no {nouns} named `{}` exists in the mods this scenario loads", r.id);
        let elsewhere = !db.resolved.registries_of(&r.id).is_empty();
        let hint = elsewhere.then_some(": it is defined in a mod the scenario does not load; add that mod to `mods`");
        out.push(unseen(loc, &r.id, &visible_ids(db, regs, visible), msg, hint));
    }
    check_enemies(file, sc, db, visible, spawns_outside, &mut out);
    check_option_groups(file, sc, db, visible, &mut out);
    check_equipped(file, sc, db, visible, &mut out);
    check_expectations(file, sc, db, visible, &mut out);
    out
}

/// The player's starting items marked `equipped` keep the rules of equipping: an item without a
/// `slot` cannot be worn, and a slot holds one item (docs/engine.md, "Items").
fn check_equipped(file: FileId, sc: &Scenario, db: &Database, visible: &dyn Fn(&Def) -> bool, out: &mut Vec<Diagnostic>) {
    let mut worn: Vec<(&str, &Sp<String>)> = Vec::new();
    for i in sc.items.iter().filter(|i| i.equipped) {
        let Some(def) = db.resolved.get(Registry::Items, &i.item.value).filter(|d| visible(d)) else { continue };
        let loc = Loc { file, span: i.item.span.clone() };
        let Some(slot) = db.entry(def.current).str(field::SLOT) else {
            let msg = format!("`{}` has no `slot`, so it cannot be equipped: leave out `equipped = true`", i.item.value);
            out.push(Diagnostic::new(Code::WrongType, loc, msg));
            continue;
        };
        match worn.iter().find(|(s, _)| *s == slot) {
            Some((_, first)) => {
                let msg = format!("`{}` and `{}` are both equipped in the slot `{slot}`, which holds one item", first.value, i.item.value);
                out.push(Diagnostic::new(Code::WrongType, loc, msg).with_related(Loc { file, span: first.span.clone() }, format!("the item in `{slot}`")));
            }
            None => worn.push((slot, &i.item)),
        }
    }
}

/// The IDs of `registries` that the scenario sees (`visible`).
fn visible_ids<'a>(db: &'a Database, registries: &[Registry], visible: &dyn Fn(&Def) -> bool) -> Vec<&'a str> {
    registries.iter().flat_map(|r| db.resolved.defs[r.index()].iter().filter(|(_, d)| visible(d)).map(|(id, _)| id.as_str())).collect()
}

/// `unknown-reference` for an ID the scenario does not see: `msg` says what is missing, followed
/// by the did-you-mean among the IDs it sees (`seen`) with its fix, or else by `hint`.
fn unseen(loc: Loc, id: &str, seen: &[&str], mut msg: String, hint: Option<&str>) -> Diagnostic {
    let found = suggest::closest_with_judgement(id, seen.iter().copied());
    match found {
        Some((s, _)) => msg.push_str(&format!("; did you mean `{s}`?")),
        None => msg.push_str(hint.unwrap_or_default()),
    }
    let d = Diagnostic::new(Code::UnknownReference, loc, msg);
    match found {
        Some((s, safety)) => d.with_fix(format!("replace with `{s}`"), toml_string(s), safety),
        None => d,
    }
}

/// What the lowering cannot know of `[[expect]]`: a `fired` owner must be an entry the scenario
/// loads (an entry of any registry can own triggers), and an `arena` expectation needs enemies
/// to fight.
fn check_expectations(file: FileId, sc: &Scenario, db: &Database, visible: &dyn Fn(&Def) -> bool, out: &mut Vec<Diagnostic>) {
    for e in &sc.expects {
        match &e.kind {
            ExpectKind::Fired { owner, .. } => {
                if Registry::ALL.iter().any(|r| db.resolved.get(*r, &owner.value).is_some_and(visible)) {
                    continue;
                }
                let msg = format!("no entry named `{}` exists in the mods this scenario loads, so no trigger of it can fire", owner.value);
                let loc = Loc { file, span: owner.span.clone() };
                out.push(unseen(loc, &owner.value, &visible_ids(db, &Registry::ALL, visible), msg, None));
            }
            ExpectKind::Arena { .. } if sc.enemies.is_empty() => {
                let msg = "an `arena` expectation fights the scenario's `[[enemies]]`, and this scenario has none";
                out.push(Diagnostic::new(Code::MalformedExpectation, Loc { file, span: e.span.clone() }, msg));
            }
            _ => {}
        }
    }
}

/// `option-group-conflict`: a character takes at most one option of each `group`, so the
/// player's `options` name at most one of each; the second of a group is the mistake. Options
/// the scenario cannot see were reported above.
fn check_option_groups(file: FileId, sc: &Scenario, db: &Database, visible: &dyn Fn(&Def) -> bool, out: &mut Vec<Diagnostic>) {
    let mut seen: Vec<(&str, &Sp<String>)> = Vec::new();
    for o in &sc.options {
        let Some(def) = db.resolved.get(Registry::CharacterOptions, &o.value).filter(|d| visible(d)) else { continue };
        let Some(group) = db.entry(def.current).str(field::GROUP) else { continue };
        let Some((_, first)) = seen.iter().find(|(g, _)| *g == group) else {
            seen.push((group, o));
            continue;
        };
        let both = if first.value == o.value {
            format!("`{}` is named twice, and it is of the group `{group}`", o.value)
        } else {
            format!("`{}` and `{}` are both of the group `{group}`", first.value, o.value)
        };
        let msg = format!("{both}; a character takes one of each group");
        let d = Diagnostic::new(Code::OptionGroupConflict, Loc { file, span: o.span.clone() }, msg)
            .with_related(Loc { file, span: first.span.clone() }, format!("the first option of the group `{group}`"));
        out.push(d);
    }
}

fn article(noun: &str) -> &'static str {
    if noun.starts_with(['a', 'e', 'i', 'o', 'u']) || noun.starts_with("NPC") {
        "an"
    } else {
        "a"
    }
}

/// `enemy:N` must name an enemy that has appeared by the time its step runs. The enemies listed
/// and those a step's own `spawn` action adds are counted; when anything else may add enemies
/// before a step (entering a room or the dungeon, moving into a room, or a `spawn` in a trigger, `ai` rule or action list of
/// something that can be in play), references beyond the count are not judged.
fn check_enemies(file: FileId, sc: &Scenario, db: &Database, visible: &dyn Fn(&Def) -> bool, spawns_outside: bool, out: &mut Vec<Diagnostic>) {
    let mut present: u64 = sc.enemies.iter().map(|e| u64::from(e.count)).sum();
    let mut in_play: Vec<&str> = sc.enemies.iter().map(|e| e.creature.value.as_str()).collect();
    let mut uncertain = spawns_outside;
    for step in &sc.steps {
        if let StepAct::Action(Action { data: ActionData::Spawn { creature, .. }, .. }) = &step.act {
            in_play.push(&creature.value);
        }
    }
    uncertain |= in_play.iter().any(|c| creature_spawns(db, c, visible));
    for step in &sc.steps {
        let refs = [
            match &step.act {
                StepAct::Attack(a) => Some(a),
                _ => None,
            },
            step.source.as_ref(),
            step.target.as_ref(),
        ];
        for a in refs.into_iter().flatten() {
            let Actor::Enemy(n) = a.value else { continue };
            if u64::from(n) < present || uncertain {
                continue;
            }
            let have = match present {
                0 => "no enemy has appeared".to_string(),
                1 => "only `enemy:0` has appeared".to_string(),
                k => format!("only `enemy:0` to `enemy:{}` have appeared", k - 1),
            };
            let msg = format!("`enemy:{n}` names no enemy: when this step runs, {have} (the enemies listed under `[[enemies]]`, then those spawned, in order)");
            let mut d = Diagnostic::new(Code::UnknownReference, Loc { file, span: a.span.clone() }, msg);
            if present > 0 {
                let last = format!("enemy:{}", present - 1);
                d = d.with_fix(format!("replace with `{last}`"), toml_string(&last), Applicability::Unsafe);
            }
            out.push(d);
        }
        match &step.act {
            StepAct::Action(Action { data: ActionData::Spawn { count, .. }, .. }) => present += u64::from(*count),
            // Rooms bring their enemies: entering one, the dungeon, or walking into the next.
            StepAct::Enter(_) | StepAct::Start(_) | StepAct::Move(_) => uncertain = true,
            _ => {}
        }
    }
}

/// Whether anything but a creature — an item, affix, character option, status, quest, NPC, floor
/// entered by a trigger — can spawn an enemy: a `spawn` in its triggers or action lists. Floors
/// and prefabs count only once entered, which only `enter` does.
fn spawns_outside_creatures(db: &Database, visible: &dyn Fn(&Def) -> bool) -> bool {
    let regs = [Registry::Items, Registry::Affixes, Registry::CharacterOptions, Registry::Statuses, Registry::Quests, Registry::Npcs];
    regs.iter().any(|r| db.resolved.defs[r.index()].values().filter(|d| visible(d)).any(|d| entry_spawns(db.entry(d.current))))
}

fn creature_spawns(db: &Database, creature: &str, visible: &dyn Fn(&Def) -> bool) -> bool {
    db.resolved.get(Registry::Creatures, creature).filter(|d| visible(d)).is_some_and(|d| entry_spawns(db.entry(d.current)))
}

fn entry_spawns(e: &Entry) -> bool {
    let spawns = |a: &[Action]| a.iter().any(|a| matches!(a.data, ActionData::Spawn { .. }));
    e.fields.iter().any(|f| match &f.value {
        Value::Actions(a) => spawns(a),
        Value::Triggers(ts) => ts.iter().any(|t| spawns(&t.actions)),
        Value::Ai(rs) => rs.iter().any(|r| spawns(&r.actions)),
        _ => false,
    }) || e.quest_trigger.as_ref().is_some_and(|t| spawns(&t.actions))
}
