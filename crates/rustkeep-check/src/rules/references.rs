//! `unknown-reference` and `reference-kind-mismatch` (wrong registry) for every ID-valued field.
//! Loot-table kinds (item vs affix tables) are checked in [`super::loot`].

use rustkeep_data::diag::{toml_string, Code, Diagnostic, Loc};
use rustkeep_data::project::Project;
use rustkeep_data::source::FileId;
use rustkeep_data::suggest;
use rustkeep_data::vocab::{namespace_of, RefKind};

use rustkeep_data::db::Database;

pub fn run(project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    let resolved = &db.resolved;
    for (i, ff) in db.facts.iter().enumerate() {
        let Some(ff) = ff else { continue };
        let file = FileId(i as u32);
        // A scenario sees only the mods it loads: `rules::scenario` checks its IDs.
        if ff.scenario.is_some() && project.files.get(i).is_some_and(|f| f.kind == rustkeep_data::source::FileKind::Scenario) {
            continue;
        }
        for r in &ff.refs {
            let Some(registry) = r.kind.registry() else { continue };
            if resolved.get(registry, &r.id).is_some() {
                continue;
            }
            let loc = Loc { file, span: r.span.clone() };
            if !r.id.contains(':') {
                let ids = resolved.defs[registry.index()].keys().map(String::as_str);
                out.push(suggest::namespace_missing(loc, &r.id, &format!("{} ID", describe(r.kind)), ids));
                continue;
            }
            let elsewhere = resolved.registries_of(&r.id);
            if let Some(other) = elsewhere.first() {
                let msg = format!(
                    "`{}` is {} {}, but `{}` needs {} {}",
                    r.id,
                    article(other.noun()),
                    other.noun(),
                    r.context,
                    article(r.kind.describe()),
                    r.kind.describe()
                );
                out.push(Diagnostic::new(Code::ReferenceKindMismatch, loc, msg));
                continue;
            }
            // A typo is most likely inside the name, not the namespace: look there first, which
            // also keeps did-you-mean cheap in packs with many mods.
            let ns = namespace_of(&r.id);
            let keys = &resolved.defs[registry.index()];
            let sug = suggest::closest(&r.id, keys.keys().map(String::as_str).filter(|k| namespace_of(k) == ns))
                .or_else(|| suggest::closest(&r.id, keys.keys().map(String::as_str)));
            let mut msg = format!("no {} named `{}` exists", describe(r.kind), r.id);
            if let Some(s) = sug {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            let mut d = Diagnostic::new(Code::UnknownReference, loc, msg);
            if let Some(s) = sug {
                d = d.with_fix(format!("replace with `{s}`"), toml_string(s), suggest::judge_id(&r.id, s));
            }
            out.push(d);
        }
    }
}

fn describe(kind: RefKind) -> &'static str {
    match kind {
        RefKind::ItemTable | RefKind::AffixTable | RefKind::NestedTable => "loot table",
        k => k.describe(),
    }
}

pub fn article(noun: &str) -> &'static str {
    // "an NPC": the abbreviation is read letter by letter.
    if noun.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) || noun.starts_with("NPC") {
        "an"
    } else {
        "a"
    }
}
