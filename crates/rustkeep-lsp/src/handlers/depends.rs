//! `depends` and `load_after` in a `mod.toml` (docs/editors/lsp.md, "Versions and renames"):
//! completion of the mods of the workspace and `core` and, after a mod ID in a `depends` string,
//! of version requirements that the mod's loaded version meets; hover on an entry with the mod it
//! names, its loaded version and whether that meets the entry's requirement.
//!
//! The string is read as it is typed (the file need not parse) and split as the manifest reader
//! splits it: an optional `? ` or `! `, the mod ID, then the requirement, parsed with the `semver`
//! crate as the manifest reader parses it and judged by [`Dependency::allows`], as
//! `rustkeep check` judges it.

use std::ops::Range;

use rustkeep_data::manifest::{allows, split_dependency, DependencyKind};
use rustkeep_data::project::ModInfo;
use rustkeep_data::source::{FileId, FileKind};
use rustkeep_data::text::Span;
use rustkeep_data::vocab::key;

use crate::context::{Context, Scope};
use crate::lsp::*;
use crate::state::State;

/// The list of `[mod]` a value is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    Depends,
    LoadAfter,
}

/// The list of `[mod]` that the value under the cursor belongs to, in a `mod.toml`.
pub fn list_at(state: &State, fid: FileId, ctx: &Context) -> Option<List> {
    if state.project.file(fid).kind != FileKind::Manifest {
        return None;
    }
    let (Scope::Config(keys), name) = ctx.value_field()? else { return None };
    // `[mod]` is the one table of a manifest with these keys.
    if !keys.iter().any(|k| k.name == name) {
        return None;
    }
    match name {
        key::DEPENDS => Some(List::Depends),
        key::LOAD_AFTER => Some(List::LoadAfter),
        _ => None,
    }
}

/// The loaded mod with this ID (the first, where two share it, as the load order takes it).
fn loaded<'a>(state: &'a State, id: &str) -> Option<&'a ModInfo> {
    state.project.mods.iter().find(|m| m.id == id)
}

/// The completion items for the `depends` or `load_after` value under the cursor: `string` is
/// the content of the string under it; `replaced` the closed string right before it, if any.
pub fn complete(state: &State, fid: FileId, offset: usize, list: List, string: Option<Span>, replaced: Option<Span>) -> Vec<CompletionItem> {
    let text = state.text(fid);
    let Some(content) = string else {
        // No string yet: quoted mod IDs, in place of the string right before the cursor if any.
        let range = state.range(fid, &replaced.unwrap_or(offset..offset));
        return mod_items(state, fid, range, true);
    };
    let s = text.get(content.clone()).unwrap_or("");
    let rel = offset.saturating_sub(content.start).min(s.len());
    let parts = split_dependency(s);
    let at = |r: Range<usize>| content.start + r.start..content.start + r.end;
    if rel <= parts.id.end || parts.id.is_empty() || list == List::LoadAfter {
        return mod_items(state, fid, state.range(fid, &at(parts.id)), false);
    }
    // After the ID: requirements the loaded version meets, in place of the one written.
    let Some(m) = loaded(state, &s[parts.id.clone()]) else { return Vec::new() };
    let range = state.range(fid, &at(parts.req.start.min(rel)..s.len()));
    requirements(m)
        .into_iter()
        .enumerate()
        .map(|(i, (label, doc))| CompletionItem {
            label: label.clone(),
            kind: Some(CompletionItemKind::Value),
            detail: Some(match m.version() {
                Some(v) => format!("the loaded `{}` is {v}", m.id),
                None => format!("`{}` sets no `version`", m.id),
            }),
            documentation: Some(Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value: doc })),
            sort_text: Some(format!("{i:02}")),
            filter_text: Some(label.clone()),
            text_edit: Some(CompletionItemTextEdit::TextEdit(TextEdit { range, new_text: label })),
            ..Default::default()
        })
        .collect()
}

/// The mods of the workspace and the core but the manifest's own, as items writing `range`.
fn mod_items(state: &State, fid: FileId, range: crate::lsp::Range, quoted: bool) -> Vec<CompletionItem> {
    let mut out: Vec<CompletionItem> = Vec::new();
    for m in &state.project.mods {
        if m.manifest_file == Some(fid) || out.iter().any(|i| i.label == m.id) {
            continue;
        }
        let version = m.version().map_or_else(|| "no version".to_string(), |v| format!("version {v}"));
        let name = if m.is_core { Some("the base game") } else { m.manifest.name.as_deref() };
        let new_text = if quoted { format!("\"{}\"", m.id) } else { m.id.clone() };
        out.push(CompletionItem {
            label: m.id.clone(),
            kind: Some(CompletionItemKind::Module),
            detail: Some(match name {
                Some(n) => format!("{version} · {n}"),
                None => version,
            }),
            // The mods of the workspace first, then the core.
            sort_text: Some(format!("{}{}", u8::from(m.is_core), m.id)),
            filter_text: Some(new_text.clone()),
            text_edit: Some(CompletionItemTextEdit::TextEdit(TextEdit { range, new_text })),
            ..Default::default()
        });
    }
    out.sort_by(|a, b| a.sort_text.cmp(&b.sort_text));
    out
}

/// Requirements that the loaded version of `m` meets, with what each allows: compatible
/// versions (`^1.2`), this one or later (`>= 1.2.0`), exactly this one (`=1.2.0`). A mod without
/// a `version` meets only `*`.
fn requirements(m: &ModInfo) -> Vec<(String, String)> {
    let Some(v) = m.version() else {
        return vec![("*".to_string(), format!("Any version: `{}` sets no `version`, and a mod without one meets only `*`.", m.id))];
    };
    let Ok(parsed) = semver::Version::parse(v) else { return Vec::new() };
    let candidates = [
        (
            format!("^{}.{}", parsed.major, parsed.minor),
            "The versions Cargo calls compatible with it: from this one on, until the first non-zero part of the version changes.",
        ),
        (format!(">= {v}"), "This version or any later one."),
        (format!("={v}"), "Exactly this version."),
    ];
    candidates
        .into_iter()
        // A requirement offered is one the loaded version meets (`^1.2` leaves out `1.2.0-beta`).
        .filter(|(req, _)| semver::VersionReq::parse(req).is_ok_and(|r| r.matches(&parsed)))
        .map(|(req, doc)| (req, format!("{doc} The loaded `{}` is {v}.", m.id)))
        .collect()
}

/// The hover of a `depends` or `load_after` entry whose string holds `value`.
pub fn hover(state: &State, list: List, value: &str) -> Option<String> {
    let parts = split_dependency(value);
    let id = &value[parts.id.clone()];
    if id.is_empty() {
        return None;
    }
    let kind = parts.kind;
    let req_text = (!parts.req.is_empty()).then(|| &value[parts.req.clone()]);
    let req = req_text.map(semver::VersionReq::parse);
    let m = loaded(state, id);
    let mut s = format!("**{id}**");
    match m.and_then(|m| if m.is_core { Some("the base game") } else { m.manifest.name.as_deref() }) {
        Some(n) => s.push_str(&format!(" — {n} (mod)\n\n")),
        None => s.push_str(" (mod)\n\n"),
    }
    // What the entry asks.
    let req_ok = match (&req, req_text) {
        (Some(Ok(_)), Some(t)) => Some(t),
        _ => None,
    };
    s.push_str(&match (list, kind, req_ok) {
        (List::LoadAfter, _, _) => "In `load_after`: when it is loaded, it loads before this mod; nothing else is asked of it.".to_string(),
        (List::Depends, DependencyKind::Required, Some(t)) => {
            format!("Required dependency: it must be loaded, in a version `{t}` allows, and it loads before this mod.")
        }
        (List::Depends, DependencyKind::Required, None) => "Required dependency: it must be loaded (any version), and it loads before this mod.".to_string(),
        (List::Depends, DependencyKind::Optional, Some(t)) => {
            format!("Optional dependency (`?`): this mod loads without it; when it is loaded, it loads before this mod, in a version `{t}` allows.")
        }
        (List::Depends, DependencyKind::Optional, None) => {
            "Optional dependency (`?`): this mod loads without it; when it is loaded, it loads before this mod.".to_string()
        }
        (List::Depends, DependencyKind::Incompatible, Some(t)) => format!("Incompatible (`!`): loading both is an error when it is in a version `{t}` allows."),
        (List::Depends, DependencyKind::Incompatible, None) => "Incompatible (`!`): loading both is an error.".to_string(),
    });
    if let (Some(Err(e)), Some(t)) = (&req, req_text) {
        s.push_str(&format!("\n\n`{t}` is not a version requirement ({e}): write one as Cargo does (`^1.2`, `~1.2.3`, `>= 1.2, < 2`, `=1.0.0`, `*`)."));
    }
    s.push_str("\n\n");
    // What is loaded, and what the checks make of it.
    let Some(m) = m else {
        s.push_str(&format!("Not loaded: no mod of the workspace has the ID `{id}`"));
        s.push_str(match (list, kind) {
            (List::Depends, DependencyKind::Required) => " — an error (`unknown-dependency`).",
            (List::Depends, DependencyKind::Incompatible) => ", as this entry wants.",
            _ => "; this mod loads without it.",
        });
        return Some(s);
    };
    let place = match m.manifest_file {
        Some(f) => state.project.file(f).path.clone(),
        None if m.is_core => "bundled with the toolkit".to_string(),
        None => m.root.as_ref().map_or_else(String::new, |r| r.display().to_string()),
    };
    let version = m.version();
    match version {
        Some(v) if m.is_core && m.manifest.version.is_none() => s.push_str(&format!("Loaded: version {v} ({place}; the base game's version is the toolkit's)")),
        Some(v) => s.push_str(&format!("Loaded: version {v} ({place})")),
        None => s.push_str(&format!("Loaded, without a `version` ({place})")),
    }
    let Some(Ok(r)) = req else {
        s.push_str(match (list, kind) {
            (List::Depends, DependencyKind::Incompatible) => " — both are loaded: an error (`incompatible-mod`).",
            _ => ".",
        });
        return Some(s);
    };
    let t = req_text.unwrap_or_default();
    let meets = allows(Some(&r), version.and_then(|v| semver::Version::parse(v).ok()).as_ref());
    s.push_str(&match (kind, meets) {
        (DependencyKind::Incompatible, true) => format!(" — `{t}` allows it and both are loaded: an error (`incompatible-mod`)."),
        (DependencyKind::Incompatible, false) => format!(" — `{t}` does not allow it: no conflict."),
        (_, true) => format!(" — meets `{t}`."),
        (_, false) if version.is_none() => format!(" — does not meet `{t}` (a mod without `version` meets only `*`): an error (`dependency-version`)."),
        (_, false) => format!(" — does not meet `{t}`: an error (`dependency-version`)."),
    });
    Some(s)
}
