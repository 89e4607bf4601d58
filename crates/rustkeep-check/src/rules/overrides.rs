//! `override-drops-field`: an override replaces the whole entry it names, so a field that the
//! replaced entry sets and the override leaves out is gone, not inherited.

use rustkeep_data::db::Database;
use rustkeep_data::diag::{Code, Diagnostic, Loc};
use rustkeep_data::model::Entry;
use rustkeep_data::project::Project;
use rustkeep_data::resolve::{Def, EntryRef};
use rustkeep_data::suggest;
use rustkeep_data::vocab::Registry;

pub fn run(_project: &Project, db: &Database, out: &mut Vec<Diagnostic>) {
    for registry in Registry::ALL {
        for def in db.resolved.defs[registry.index()].values() {
            out.extend(of_def(&|r| db.entry(r), def).into_iter().map(|(_, d)| d));
        }
    }
}

/// The diagnostics of one ID's overrides, each with the override it is about: every override is
/// compared with the entry it replaced (the definition, or the override before it).
pub fn of_def<'a>(entry: &dyn Fn(EntryRef) -> &'a Entry, def: &Def) -> Vec<(EntryRef, Diagnostic)> {
    let Some(mut target) = def.defined else { return Vec::new() };
    let mut out = Vec::new();
    for &(r, _) in &def.overrides {
        out.extend(dropped(target, entry(target), r, entry(r)).map(|d| (r, d)));
        target = r;
    }
    out
}

/// `override-drops-field` for the override `ov` (at `r`) of the entry `target` (at `t`), if it
/// leaves out some of its fields.
fn dropped(t: EntryRef, target: &Entry, r: EntryRef, ov: &Entry) -> Option<Diagnostic> {
    let gone: Vec<_> = target.fields.iter().filter(|f| ov.field(f.def.name).is_none()).collect();
    if gone.is_empty() {
        return None;
    }
    let id = ov.overrides.as_ref().or(ov.key()).map(|k| k.value.as_str()).unwrap_or_default();
    let mut names = suggest::list(gone.iter().map(|f| f.def.name));
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
    for f in gone {
        d = d.with_related(Loc { file: t.file, span: f.key_span.clone() }, format!("`{}` as the replaced entry sets it", f.def.name));
    }
    Some(d)
}
