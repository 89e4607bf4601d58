//! `override-drops-field`: an override replaces the whole entry it names, so a field that the
//! replaced entry sets and the override leaves out is gone, not inherited.

use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::resolve::{entry, Def, EntryRef, FactsTable};
use rustkeep_data::suggest;
use rustkeep_data::text::Span;
use rustkeep_data::vocab::{FieldDef, Registry};

/// `override-drops-field`, judged per ID: every override compared with the entry it replaced.
pub const RULE: super::PerId = super::PerId {
    name: "override-drops-field",
    registries: &Registry::ALL,
    reads: super::Reads::Own,
    absence: false,
    run: |cx, _registry, _id, def| of_def(&cx.db.facts, def),
};

/// The diagnostics of one ID's overrides, each with the override it is about: every override is
/// compared with the entry it replaced (the definition, or the override before it).
pub fn of_def(facts: &FactsTable, def: &Def) -> Vec<(EntryRef, Diagnostic)> {
    let Some(mut target) = def.defined else { return Vec::new() };
    let mut out = Vec::new();
    for &(r, _) in &def.overrides {
        out.extend(dropped(facts, target, r).map(|d| (r, d)));
        target = r;
    }
    out
}

/// The fields the entry at `r` sets, by definition and key span (an outlined entry's too).
fn sets(facts: &FactsTable, r: EntryRef) -> impl Iterator<Item = (&'static FieldDef, Span)> + '_ {
    facts[r.file.0 as usize].as_deref().into_iter().flat_map(move |f| f.sets(r.index as usize))
}

/// `override-drops-field` for the override at `r` of the entry at `t`, if it leaves out some of
/// the fields that entry sets.
fn dropped(facts: &FactsTable, t: EntryRef, r: EntryRef) -> Option<Diagnostic> {
    let ov = entry(facts, r);
    let gone: Vec<_> = sets(facts, t).filter(|(def, _)| !sets(facts, r).any(|(d, _)| d.name == def.name)).collect();
    if gone.is_empty() {
        return None;
    }
    let id = ov.overrides.as_ref().or(ov.key()).map(|k| k.value.as_str()).unwrap_or_default();
    let mut names = suggest::list(gone.iter().map(|(def, _)| def.name));
    // "`a`, `b` and `c`": the last comma of the list reads as "and".
    if let Some(i) = names.rfind(", ") {
        names.replace_range(i..i + 2, " and ");
    }
    let (them, they) = if gone.len() == 1 { ("it", "its value is") } else { ("them", "their values are") };
    let msg = format!(
        "this override of `{id}` leaves out {names}, which the entry it replaces sets: an override replaces the whole entry, so {they} gone, not inherited; write {them} here again (with the value you mean)"
    );
    let span = ov.key().map(|k| k.span.clone()).unwrap_or(ov.span.clone());
    let mut d = Diagnostic::new(Code::OverrideDropsField, Loc { file: r.file, span }, msg);
    for (def, key_span) in gone {
        d = d.with_related(Loc { file: t.file, span: key_span }, format!("`{}` as the replaced entry sets it", def.name));
    }
    Some(d)
}
