//! What resolve found wrong between two places, as diagnostics: mods that share an id
//! (`invalid-manifest`), `unknown-dependency`, `dependency-version`, `incompatible-mod`,
//! `dependency-cycle`, `rename-cycle`, `override-conflict` (of entries and of `[balance]` keys),
//! `override-id-mismatch`, `override-missing-target`, `namespace-mismatch` and `duplicate-id`.
//!
//! `rustkeep_data::resolve` notes the facts while it resolves ([`Finding`]); [`diagnostic`] words
//! each one, for the batch check ([`run`]) and the incremental one alike.

use rustkeep_data::db::Database;
use rustkeep_data::diag::{toml_string, Applicability, Code, Diagnostic, Loc};
use rustkeep_data::manifest::DependencyKind;
use rustkeep_data::model::Sp;
use rustkeep_data::project::Project;
use rustkeep_data::resolve::{entry, EntryRef, FactsTable, Finding};
use rustkeep_data::source::FileId;
use rustkeep_data::suggest;

/// The diagnostics of resolve's findings, in the order resolve met them.
pub fn run(project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    out.extend(db.resolved.findings.iter().filter_map(|f| diagnostic(project, &db.facts, f)));
}

/// The diagnostic of one finding of resolve (`None` for a cycle of mods whose first step no
/// manifest writes).
pub fn diagnostic(project: &Project, facts: &FactsTable, finding: &Finding) -> Option<Diagnostic> {
    let mods = &project.mods;
    let key_span = |r: EntryRef| {
        let e = entry(facts, r);
        Loc { file: r.file, span: e.key().map(|k| k.span.clone()).unwrap_or(e.span.clone()) }
    };
    Some(match finding {
        Finding::SharedModId { mod_idx, first } => {
            let (m, f) = (&mods[*mod_idx], &mods[*first]);
            let (file, id) = (m.manifest_file?, m.manifest.id.as_ref()?);
            let mut d = Diagnostic::new(Code::InvalidManifest, Loc { file, span: id.span.clone() }, format!("two mods share the id `{}`", m.id));
            if let (Some(ff), Some(fid)) = (f.manifest_file, &f.manifest.id) {
                d = d.with_related(Loc { file: ff, span: fid.span.clone() }, "the other mod with this id");
            }
            d
        }
        Finding::UnknownDependency { mod_idx, dep } => unknown_dependency(project, *mod_idx, *dep)?,
        Finding::UnmetRequirement { mod_idx, dep, other } => unmet_requirement(project, *mod_idx, *dep, *other)?,
        Finding::DependencyCycle { members } => {
            let (_, Some((file, v))) = members.first()? else { return None };
            let names: Vec<&str> = members.iter().chain(&members[..1]).map(|(i, _)| mods[*i].id.as_str()).collect();
            let mut d = Diagnostic::new(
                Code::DependencyCycle,
                Loc { file: *file, span: v.span.clone() },
                format!("mods depend on each other in a cycle: {}", names.join(" → ")),
            );
            for (i, value) in &members[1..] {
                if let Some((f, v)) = value {
                    d = d.with_related(Loc { file: *f, span: v.span.clone() }, format!("`{}` depends on `{}` here", mods[*i].id, v.value));
                }
            }
            d
        }
        Finding::SelfRename { file, old } => {
            Diagnostic::new(Code::RenameCycle, Loc { file: *file, span: old.span.clone() }, format!("`{}` is renamed to itself: remove the line", old.value))
        }
        Finding::RenameCycle { ring } => {
            let (_, head) = ring.first()?;
            let shown: Vec<String> = ring.iter().chain(&ring[..1]).map(|(old, _)| format!("`{old}`")).collect();
            let msg = format!("`[renamed]` lines lead back to where they start: {}; no ID is in force at the end", shown.join(" → "));
            let mut d = Diagnostic::new(Code::RenameCycle, Loc { file: head.file, span: head.old_span.clone() }, msg);
            for (old, step) in &ring[1..] {
                d = d.with_related(Loc { file: step.file, span: step.old_span.clone() }, format!("`{old}` is renamed to `{}` here", step.next));
            }
            d
        }
        Finding::BalanceConflict { key, mod_idx, file, span, earlier_mod, earlier } => {
            let msg = format!(
                "`[balance] {key}` is also set by `{}`, and neither mod names the other in `depends` or `load_after`; `{}` loads later and wins",
                mods[*earlier_mod].id, mods[*mod_idx].id
            );
            Diagnostic::new(Code::OverrideConflict, Loc { file: *file, span: span.clone() }, msg)
                .with_related(Loc { file: earlier.0, span: earlier.1.clone() }, "the earlier setting, which loses")
        }
        Finding::OverrideIdMismatch { entry: r } => {
            let e = entry(facts, *r);
            let (id, ov) = (e.id.as_ref()?, e.overrides.as_ref()?);
            let loc = |span: &std::ops::Range<usize>| Loc { file: r.file, span: span.clone() };
            Diagnostic::new(
                Code::OverrideIdMismatch,
                loc(&id.span),
                format!("`id` is `{}` but `overrides` is `{}`: an override keeps the ID it replaces", id.value, ov.value),
            )
            .with_related(loc(&ov.span), "the ID being overridden")
            // The entry already stands for the ID it overrides: writing that ID changes nothing
            // but the mistake.
            .with_fix(format!("use `{}`", ov.value), toml_string(&ov.value), Applicability::Safe)
        }
        Finding::OverrideConflict { entry: r, mod_idx, prev, prev_mod } => {
            let ov = entry(facts, *r).overrides.as_ref()?;
            let prev_e = entry(facts, *prev);
            let prev_span = prev_e.overrides.as_ref().map(|o| o.span.clone()).unwrap_or(prev_e.span.clone());
            let (m, p) = (&mods[*mod_idx].id, &mods[*prev_mod].id);
            let msg = format!(
                "`{}` is overridden by both `{p}` and `{m}`, and neither names the other in `depends` or `load_after`; `{m}` loads later and wins, the other override has no effect. If that is intended, add `load_after = [\"{p}\"]` to `{m}`'s mod.toml",
                ov.value
            );
            Diagnostic::new(Code::OverrideConflict, Loc { file: r.file, span: ov.span.clone() }, msg)
                .with_related(Loc { file: prev.file, span: prev_span }, format!("the override in `{p}`, which loses"))
        }
        Finding::OverrideMissingTarget { entry: r, suggestion } => {
            let e = entry(facts, *r);
            override_missing_target(e.registry.noun(), e.overrides.as_ref()?, r.file, suggestion.as_ref().map(|(s, safety)| (s.as_str(), *safety)))
        }
        Finding::NamespaceMismatch { entry: r, mod_idx, existing } => {
            let id = entry(facts, *r).id.as_ref()?;
            let m = &mods[*mod_idx];
            let msg = format!(
                "`{}` is outside this mod's namespace `{}`: a mod defines new IDs only as `{}:…`, or replaces a foreign entry with `overrides`",
                id.value, m.id, m.id
            );
            let mut d = Diagnostic::new(Code::NamespaceMismatch, Loc { file: r.file, span: id.span.clone() }, msg);
            if let Some(existing) = existing {
                d = d.with_related(key_span(*existing), "the existing entry: add `overrides` to replace it");
            }
            d
        }
        Finding::DuplicateId { entry: r, first } => {
            let e = entry(facts, *r);
            let id = e.id.as_ref()?;
            let msg = format!("the {} `{}` is already defined; to replace it, add `overrides = \"{}\"`", e.registry.noun(), id.value, id.value);
            Diagnostic::new(Code::DuplicateId, Loc { file: r.file, span: id.span.clone() }, msg).with_related(key_span(*first), "first defined here")
        }
    })
}

/// `override-missing-target` for an `overrides` value, with the did-you-mean, if any.
/// `suggestion` comes with its [`suggest::judge`]ment among the IDs defined before the entry.
pub fn override_missing_target(noun: &str, ov: &Sp<String>, file: FileId, suggestion: Option<(&str, Applicability)>) -> Diagnostic {
    let mut msg = format!("`overrides` names `{}`, but no {noun} with that ID exists at this point of the load order", ov.value);
    if let Some((s, _)) = suggestion {
        msg.push_str(&format!("; did you mean `{s}`?"));
    }
    let mut d = Diagnostic::new(Code::OverrideMissingTarget, Loc { file, span: ov.span.clone() }, msg);
    if let Some((s, safety)) = suggestion {
        d = d.with_fix(format!("replace with `{s}`"), toml_string(s), safety);
    }
    d
}

/// `unknown-dependency` for entry `dep` of mod `mod_idx`'s `depends`, with the closest loaded
/// mod id.
fn unknown_dependency(project: &Project, mod_idx: usize, dep: usize) -> Option<Diagnostic> {
    let m = &project.mods[mod_idx];
    let (file, entry) = (m.manifest_file?, m.manifest.depends.get(dep)?);
    let id = &entry.id;
    // Every loaded mod's id, once, sorted (the candidates in the order the load order knows them).
    let known: std::collections::BTreeSet<&str> = project.mods.iter().map(|m| m.id.as_str()).collect();
    let mut msg = format!("`{}` depends on `{}`, which is not among the loaded mods", m.id, id.value);
    let found = suggest::closest_with_judgement(&id.value, known.iter().copied());
    if let Some((s, _)) = found {
        msg.push_str(&format!("; did you mean `{s}`?"));
    }
    let mut d = Diagnostic::new(Code::UnknownDependency, Loc { file, span: id.span.clone() }, msg);
    if let Some((s, safety)) = found {
        // A bare ID is replaced whole (the string); in `"sewers >= 1.2"` only the ID is, where
        // the string holds it verbatim.
        if entry.is_bare() {
            d = d.with_fix(format!("replace with `{s}`"), toml_string(s), safety);
        } else if entry.exact {
            d = d.with_fix(format!("replace with `{s}`"), s, safety);
        }
    }
    Some(d)
}

/// `incompatible-mod` or `dependency-version` for entry `dep` of mod `mod_idx`'s `depends`, which
/// the loaded mod `other` does not meet.
fn unmet_requirement(project: &Project, mod_idx: usize, dep: usize, other: usize) -> Option<Diagnostic> {
    let (m, o) = (&project.mods[mod_idx], &project.mods[other]);
    let (file, dep) = (m.manifest_file?, m.manifest.depends.get(dep)?);
    let version = o.version();
    let shown = version.map_or_else(|| "without a version".to_string(), |v| format!("version {v}"));
    if dep.kind == DependencyKind::Incompatible {
        let which = match &dep.req_text {
            Some(r) => format!("`{}` {r} ({shown} is loaded)", o.id),
            None => format!("`{}`", o.id),
        };
        let msg = format!("`{}` is incompatible with {which}, and both are loaded: remove one of them from the workspace", m.id);
        let mut d = Diagnostic::new(Code::IncompatibleMod, Loc { file, span: dep.span.clone() }, msg);
        if let (Some(of), Some(id)) = (o.manifest_file, &o.manifest.id) {
            d = d.with_related(Loc { file: of, span: id.span.clone() }, format!("`{}` is loaded from here", o.id));
        }
        return Some(d);
    }
    let (req, text) = (dep.req.as_ref()?, dep.req_text.as_ref()?);
    let optional = if dep.kind == DependencyKind::Optional { "optional " } else { "" };
    let mut msg = format!("`{}` requires its {optional}dependency `{}` {text}, but the loaded `{}` is {shown}", m.id, o.id, o.id);
    if version.is_none() {
        msg.push_str(" (a mod without `version` meets only the requirement `*`)");
    }
    let mut d = Diagnostic::new(Code::DependencyVersion, Loc { file, span: req.span.clone() }, msg);
    match (o.manifest_file, &o.manifest.version_span, &o.manifest.id) {
        (Some(of), Some(span), _) => d = d.with_related(Loc { file: of, span: span.clone() }, format!("`{}`'s version is set here", o.id)),
        (Some(of), None, Some(id)) => d = d.with_related(Loc { file: of, span: id.span.clone() }, format!("`{}` sets no `version`", o.id)),
        _ => {}
    }
    Some(d)
}
