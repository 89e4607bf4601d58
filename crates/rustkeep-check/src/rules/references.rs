//! `unknown-reference`, `reference-kind-mismatch` (wrong registry) and `renamed-reference` (an
//! old ID of `[renamed]`) for every ID-valued field.
//! Loot-table kinds (item vs affix tables) are checked in [`super::loot`].

use std::collections::BTreeSet;
use std::ops::Bound;
use std::sync::Arc;

use rustkeep_data::db::Database;
use rustkeep_data::diag::{toml_string, Applicability, Code, Diagnostic, Loc};
use rustkeep_data::hash::FxHashMap;
use rustkeep_data::model::Reference;
use rustkeep_data::resolve::{Def, Resolved};
use rustkeep_data::source::FileId;
use rustkeep_data::suggest::{self as did_you_mean, Closeness, Matcher};
use rustkeep_data::vocab::{namespace_of, IdText, RefKind, Registry};

/// `unknown-reference`, `reference-kind-mismatch` (wrong registry) and `renamed-reference`, judged
/// per reference ([`check`], with [`note_misfiled`]). A scenario's references are its own rule's.
pub const RULE: super::PerRef = super::PerRef {
    name: "unknown-reference",
    run: |cx, file, r| {
        if cx.scenario {
            return None;
        }
        let d = check(&cx.db.resolved, file, r, |registry| cx.known.suggestion(registry, &r.id), |registry| cx.known.rivals(registry));
        note_misfiled(d, cx.db, r)
    },
};

/// The problem with one reference, if any. `suggest` gives the did-you-mean for an ID that no
/// registry has (see [`suggestion`]); it is not called otherwise.
///
/// `rivals` gives the IDs of a registry indexed for judging the did-you-mean's fix
/// ([`did_you_mean::Rivals`]): built once per registry and kept, as judging reads the registry.
pub fn check<'a, 'b>(
    resolved: &Resolved,
    file: FileId,
    r: &Reference,
    suggest: impl FnOnce(Registry) -> Option<&'a str>,
    rivals: impl FnOnce(Registry) -> &'b did_you_mean::Rivals,
) -> Option<Diagnostic> {
    let registry = r.kind.registry()?;
    let loc = Loc { file, span: r.span.clone() };
    if let Some(rename) = resolved.renamed_in(registry, &r.id) {
        return Some(renamed(loc, &r.id, rename));
    }
    // An ID the text of a manifest that could not be read spells may be an old ID of `[renamed]`.
    if resolved.get(registry, &r.id).is_some() || resolved.unread.contains(&r.id) {
        return None;
    }
    if IdText::of(&r.id).is_bare() {
        // A name without its namespace: the ID of that name is meant (`suggest` finds it).
        let ids = resolved.defs[registry.index()].keys().map(String::as_str);
        return Some(did_you_mean::namespace_missing(loc, &r.id, &format!("{} ID", describe(r.kind)), suggest(registry), ids));
    }
    if let Some(other) = Registry::ALL.into_iter().find(|o| resolved.get(*o, &r.id).is_some()) {
        let msg =
            format!("`{}` is {} {}, but `{}` needs {} {}", r.id, article(other.noun()), other.noun(), r.context, article(r.kind.describe()), r.kind.describe());
        return Some(Diagnostic::new(Code::ReferenceKindMismatch, loc, msg));
    }
    let sug = suggest(registry);
    let mut msg = format!("no {} named `{}` exists", describe(r.kind), r.id);
    if let Some(s) = sug {
        msg.push_str(&format!("; did you mean `{s}`?"));
    }
    let mut d = Diagnostic::new(Code::UnknownReference, loc, msg);
    if let Some(s) = sug {
        d = d.with_fix(format!("replace with `{s}`"), toml_string(s), rivals(registry).judge(&r.id, s));
    }
    Some(d)
}

/// `renamed-reference`: the reference names an old ID; it resolves to the new one, and the fix
/// writes that (safe: the reference means the same entry before and after).
pub fn renamed(loc: Loc, old: &str, rename: &rustkeep_data::resolve::Rename) -> Diagnostic {
    let msg = format!("`{old}` was renamed to `{}`: this reference still works, but write the new ID", rename.to);
    Diagnostic::new(Code::RenamedReference, loc, msg)
        .with_related(Loc { file: rename.file, span: rename.old_span.clone() }, format!("`{old}` is renamed to `{}` here", rename.next))
        .with_fix(format!("replace with `{}`", rename.to), toml_string(&rename.to), Applicability::Safe)
}

/// An `unknown-reference` to an ID that is written under a top-level key that is no registry
/// (`[[item]]`) says so, with the key and the `id` as related spans: the one mistake is there.
pub fn note_misfiled(d: Option<Diagnostic>, db: &Database, r: &Reference) -> Option<Diagnostic> {
    let mut d = d?;
    if d.code != Code::UnknownReference {
        return Some(d);
    }
    if let Some((file, m)) = db.misfiled(&r.id) {
        d = d
            .with_related(
                Loc { file, span: m.key_span.clone() },
                format!("`{}` is written under `{}`, which is not a registry, so it is not defined", r.id, m.key),
            )
            .with_related(Loc { file, span: m.span.clone() }, format!("`{}` is written here", r.id));
    }
    Some(d)
}

/// How good a did-you-mean `candidate` is for the unknown `id` (smaller is better): a typo is
/// most likely inside the name, not the namespace, so IDs of the same namespace come first.
pub fn closeness(m: &Matcher, id: &str, candidate: &str) -> Option<(bool, Closeness)> {
    if IdText::of(id).is_bare() {
        // A name without its namespace is compared with the candidates' names.
        return did_you_mean::name_closeness(m, id, candidate).map(|c| (false, c));
    }
    m.closeness(candidate).map(|c| (namespace_of(candidate) != namespace_of(id), c))
}

/// The did-you-mean for an ID that no registry has, among the IDs of a registry (`defs`): the
/// IDs of its namespace first, all of them only when none of those is close enough. With the
/// registry's IDs sorted (`sorted`, which the language server keeps), the namespace is a range of
/// them; else a pass over all.
pub fn suggestion<'a>(defs: &'a FxHashMap<String, Def>, sorted: Option<&'a BTreeSet<Arc<str>>>, id: &str) -> Option<&'a str> {
    let ns = namespace_of(id);
    let from = format!("{ns}:");
    let same: Box<dyn Iterator<Item = &str>> = match sorted {
        // Without a colon the namespace is empty, and the IDs that share it are not one range.
        Some(sorted) if !IdText::of(id).is_bare() => {
            Box::new(sorted.range::<str, _>((Bound::Included(from.as_str()), Bound::Unbounded)).take_while(|k| k.starts_with(&from)).map(|k| &**k))
        }
        _ => Box::new(defs.keys().map(String::as_str).filter(|k| namespace_of(k) == ns)),
    };
    best_of(id, same).or_else(|| best_of(id, defs.keys().map(String::as_str)))
}

/// The best did-you-mean for `id` among `candidates` by [`closeness`], ties broken by ID.
pub fn best_of<'a>(id: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let m = Matcher::new(id);
    let mut best: Option<((bool, Closeness), &str)> = None;
    for k in candidates {
        if let Some(c) = closeness(&m, id, k) {
            if best.is_none_or(|b| (c, k) < b) {
                best = Some((c, k));
            }
        }
    }
    best.map(|(_, k)| k)
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
