//! Every place that defines or names an ID or a tag, from the lowered facts and the `[renamed]`
//! tables of the manifests: what definition, references, highlights, rename and semantic tokens
//! work on.
//!
//! An old ID of `[renamed]` stands for the ID at the end of its chain of renames
//! ([`rustkeep_data::resolve::Resolved::renamed_in`]): [`aliases`] gives every name of one entry,
//! so that references and highlights find it however it is written.

use rustkeep_data::source::FileId;
use rustkeep_data::text::Span;
use rustkeep_data::vocab::{RefKind, Registry};

use crate::state::State;

/// What a name denotes: an entry of a registry, or a tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sym {
    Id(Registry),
    Tag,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `id = …` of an entry (or a tag in `tags = […]`, which is where a tag is "defined").
    Definition,
    /// `overrides = …`, or the `id` of an overriding entry.
    Override,
    Reference,
    /// A key of `[renamed]` in a `mod.toml`: an old ID, kept so that what names it still works.
    RenamedFrom,
    /// A value of `[renamed]`: the ID an old one was renamed to.
    RenamedTo,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Occurrence {
    pub file: FileId,
    /// The value span, quotes included.
    pub span: Span,
    pub name: String,
    pub sym: Sym,
    pub role: Role,
    /// For references: the kind of ID the place wants (a loot table of some kind, …).
    pub kind: Option<RefKind>,
}

/// Every occurrence in one file.
pub fn in_file(state: &State, fid: FileId) -> Vec<Occurrence> {
    let mut out = Vec::new();
    let Some(facts) = state.facts(fid) else {
        renamed_lines(state, fid, &mut out);
        return out;
    };
    for e in &facts.entries {
        let overriding = e.overrides.is_some();
        if let Some(id) = &e.id {
            let role = if overriding { Role::Override } else { Role::Definition };
            out.push(Occurrence { file: fid, span: id.span.clone(), name: id.value.clone(), sym: Sym::Id(e.registry), role, kind: None });
        }
        if let Some(o) = &e.overrides {
            out.push(Occurrence { file: fid, span: o.span.clone(), name: o.value.clone(), sym: Sym::Id(e.registry), role: Role::Override, kind: None });
        }
    }
    for r in &facts.refs {
        let sym = match r.kind.registry() {
            Some(reg) => Sym::Id(reg),
            None => Sym::Tag,
        };
        out.push(Occurrence { file: fid, span: r.span.clone(), name: r.id.clone(), sym, role: Role::Reference, kind: Some(r.kind) });
    }
    for t in &facts.tag_defs {
        out.push(Occurrence { file: fid, span: t.span.clone(), name: t.value.clone(), sym: Sym::Tag, role: Role::Definition, kind: None });
    }
    out.sort_by_key(|o| (o.span.start, o.span.end));
    out.dedup_by(|a, b| a.span == b.span && a.sym == b.sym);
    out
}

/// The lines of `[renamed]` when `fid` is a mod's manifest: each old ID (where it stands for an
/// entry) and each new ID (where it names one, itself or through further renames), in the
/// registries of that entry. The spans are those of the manifest as last loaded, which an edit
/// of it reloads.
fn renamed_lines(state: &State, fid: FileId, out: &mut Vec<Occurrence>) {
    let Some(m) = state.project.mods.iter().find(|m| m.manifest_file == Some(fid)) else { return };
    let resolved = &state.db().resolved;
    for (old, new) in &m.manifest.renamed {
        for reg in Registry::ALL {
            if resolved.renamed_in(reg, &old.value).is_some() {
                out.push(Occurrence { file: fid, span: old.span.clone(), name: old.value.clone(), sym: Sym::Id(reg), role: Role::RenamedFrom, kind: None });
            }
            if resolved.get(reg, &new.value).is_some() {
                out.push(Occurrence { file: fid, span: new.span.clone(), name: new.value.clone(), sym: Sym::Id(reg), role: Role::RenamedTo, kind: None });
            }
        }
    }
    out.sort_by_key(|o| (o.span.start, o.span.end));
}

/// The ID `name` stands for as `sym`: itself, or for an old ID of `[renamed]` the end of its
/// chain of renames (when that is defined and the old ID is not).
pub fn target(state: &State, sym: Sym, name: &str) -> String {
    match sym {
        Sym::Id(reg) => state.db().resolved.renamed_in(reg, name).map_or(name, |r| r.to.as_str()).to_string(),
        Sym::Tag => name.to_string(),
    }
}

/// Every name of what `name` stands for as `sym`: the ID in force first, then the old IDs that
/// `[renamed]` leads to it, in ID order. A tag has one name.
pub fn aliases(state: &State, sym: Sym, name: &str) -> Vec<String> {
    let to = target(state, sym, name);
    let mut out = Vec::new();
    if let Sym::Id(reg) = sym {
        let resolved = &state.db().resolved;
        out.extend(resolved.renamed.iter().filter(|(old, _)| resolved.renamed_in(reg, old).is_some_and(|r| r.to == to)).map(|(old, _)| old.clone()));
        out.sort_unstable();
    }
    out.insert(0, to);
    out
}

/// The occurrence under the cursor (the innermost, if spans nest).
pub fn at(state: &State, fid: FileId, offset: usize) -> Option<Occurrence> {
    in_file(state, fid).into_iter().filter(|o| o.span.start <= offset && offset <= o.span.end).min_by_key(|o| o.span.len())
}

/// Every occurrence of `name` as `sym` in the project, written so (an old ID of it is another
/// name: see [`all_of`]).
pub fn all(state: &State, sym: Sym, name: &str) -> Vec<Occurrence> {
    all_of(state, sym, std::slice::from_ref(&name.to_string()))
}

/// Every occurrence of any of `names` as `sym` in the project.
pub fn all_of(state: &State, sym: Sym, names: &[String]) -> Vec<Occurrence> {
    let mut out = Vec::new();
    for f in &state.project.files {
        out.extend(in_file(state, f.id).into_iter().filter(|o| o.sym == sym && names.contains(&o.name)));
    }
    out
}

/// The span inside the quotes of a string value span.
pub fn inner(text: &str, span: &Span) -> Span {
    let s = &text[span.clone()];
    let q = if s.starts_with("\"\"\"") || s.starts_with("'''") {
        3
    } else if s.starts_with('"') || s.starts_with('\'') {
        1
    } else {
        0
    };
    // An unterminated string (being typed) has no closing quote to strip; slicing one off blindly
    // could split the last character (found by the `lsp_edits` fuzz target: `"` + U+FEFF).
    let closed = s.len() >= 2 * q && s.ends_with(&s[..q]);
    if q > 0 && closed {
        span.start + q..span.end - q
    } else if q > 0 {
        span.start + q..span.end
    } else {
        span.clone()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn inner_keeps_to_character_boundaries_in_unterminated_strings() {
        for text in ["\"\u{feff}", "\"ab", "'''x", "\"\"", "\"ä\"", "\"🐀"] {
            let span = super::inner(text, &(0..text.len()));
            assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end) && span.start <= span.end, "{text:?}");
        }
        assert_eq!(super::inner("\"ab\"", &(0..4)), 1..3);
        assert_eq!(super::inner("\"ab", &(0..3)), 1..3);
    }
}
