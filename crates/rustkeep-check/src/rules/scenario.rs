//! Scenario files against the data they run on (docs/engine.md, "Scenario files"): every ID a
//! scenario names must exist in the core or the mods it loads (`unknown-reference`, with "did you
//! mean"; `reference-kind-mismatch` for an ID of another registry), and every `enemy:N` must name
//! an enemy that has appeared by its step. Lowering already reported the scenario's own keys,
//! types and names.

use rustkeep_data::db::Database;
use rustkeep_data::diag::Diagnostic;
use rustkeep_data::hash::FxHashMap;
use rustkeep_data::project::Project;
use rustkeep_data::resolve::Def;
use rustkeep_data::source::FileId;

pub fn run(project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    if project.scenarios.is_empty() {
        return;
    }
    let mut mod_of: FxHashMap<FileId, usize> = FxHashMap::default();
    for (i, m) in project.mods.iter().enumerate() {
        for f in &m.data_files {
            mod_of.insert(*f, i);
        }
    }
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
        out.extend(rustkeep_data::scenario::check(s.file, &facts.refs, sc, db, &visible));
    }
}
