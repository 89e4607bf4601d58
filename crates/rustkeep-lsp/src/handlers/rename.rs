//! `textDocument/prepareRename` and `textDocument/rename`: an ID (or a tag) renamed everywhere in
//! the workspace as one `WorkspaceEdit`. Engine vocabulary is not renamable (it is not an ID), and
//! neither is anything the core defines or names: the core is read-only.
//!
//! Renames of a mod's IDs keep what names the old ID working (docs/editors/lsp.md, "Versions and
//! renames"):
//! - the places that write the ID are rewritten — entry, overrides, references, and the values of
//!   `[renamed]` lines that lead to it, so that their chains still end at the entry; references
//!   written with an older ID of the entry are left as they are: they still resolve;
//! - when the mod's manifest has a `version` (the mod is released: other mods and players' saves
//!   may hold the ID), the line `"old" = "new"` is added to its `[renamed]` table (which is
//!   created at the end of `mod.toml` if need be);
//! - renaming back to an old ID of the same entry takes that ID's line out of `[renamed]`; an old
//!   ID that leads to another entry is refused, as an ID its references would change meaning;
//! - an old ID itself is not renamed (it stands for the entry: rename the entry), and no entry is
//!   renamed onto an ID its registry defines already.

use std::collections::HashMap;

use rustkeep_data::diag::{toml_string, Code};
use rustkeep_data::manifest::read_manifest;
use rustkeep_data::source::FileId;
use rustkeep_data::text::Span;
use rustkeep_data::vocab::{self, Registry};

use crate::ids::{self, Occurrence, Role, Sym};
use crate::lsp::*;
use crate::renamed_table;
use crate::state::State;

fn target(state: &State, p: &TextDocumentPositionParams) -> Result<(Occurrence, Vec<Occurrence>), String> {
    let Some((fid, offset)) = state.locate(p) else { return Err("not a file of the workspace".into()) };
    let Some(o) = ids::at(state, fid, offset) else {
        return Err("only IDs and tags can be renamed; events, checks, actions, attributes and damage types are engine vocabulary".into());
    };
    if vocab::namespace_of(&o.name) == vocab::CORE_NAMESPACE && matches!(o.sym, Sym::Id(_)) {
        return Err(format!("`{}` belongs to the core, which is read-only; override it in your mod instead", o.name));
    }
    if let Sym::Id(reg) = o.sym {
        if let Some(r) = state.db().resolved.renamed_in(reg, &o.name) {
            return Err(format!(
                "`{}` is an old ID, kept by `[renamed]` so that what names it still works; it stands for `{}`: rename that entry (this reference's quick fix writes its ID)",
                o.name, r.to
            ));
        }
    }
    let all = ids::all(state, o.sym, &o.name);
    if all.iter().any(|x| state.project.file(x.file).bundled) {
        return Err(format!("`{}` is used by the core, which is read-only", o.name));
    }
    Ok((o, all))
}

pub fn prepare(state: &State, p: &TextDocumentPositionParams) -> Result<Range, String> {
    let (o, _) = target(state, p)?;
    Ok(state.range(o.file, &ids::inner(state.text(o.file), &o.span)))
}

pub fn rename(state: &State, p: &TextDocumentPositionParams, new_name: &str) -> Result<WorkspaceEdit, String> {
    let (o, all) = target(state, p)?;
    if !vocab::is_valid_id(new_name) {
        return Err(format!("`{new_name}` is not a valid {}: `namespace:name`, lower case", if o.sym == Sym::Tag { "tag" } else { "ID" }));
    }
    // An entry's ID keeps its mod's namespace: a mod defines IDs only in its own (another one's is
    // `namespace-mismatch`, and `[renamed]` maps IDs of one mod).
    let ns = vocab::namespace_of(&o.name);
    if matches!(o.sym, Sym::Id(_)) && vocab::namespace_of(new_name) != ns {
        return Err(format!("`{new_name}` is outside the namespace of `{}`: an ID of this entry keeps its namespace (`{ns}:…`)", o.name));
    }
    let resolved = &state.db().resolved;
    // Renaming onto an old ID: fine when it leads to this entry (its line goes), else refused.
    let back = match o.sym {
        Sym::Id(_) if new_name != o.name => resolved.renamed.get(new_name),
        _ => None,
    };
    if let Some(b) = back.filter(|b| b.to != o.name) {
        return Err(format!(
            "`{new_name}` is an old ID of `{}` (`[renamed]` in {}): references written with it mean that entry; choose another name",
            b.to,
            state.project.file(b.file).path
        ));
    }
    // Renaming onto an ID the registry defines would make two entries of one ID.
    if let Sym::Id(reg) = o.sym {
        if let Some(def) = resolved.defs.get(reg.index()).and_then(|d| d.get(new_name)).filter(|_| new_name != o.name) {
            let at = def.defined.unwrap_or(def.current);
            return Err(format!(
                "`{new_name}` is already defined (in {}): renaming `{}` onto it would define one ID twice; choose another name",
                state.project.file(at.file).path,
                o.name
            ));
        }
    }
    let mut edits: Vec<(FileId, Span, String)> = Vec::new();
    for x in all {
        match x.role {
            // Old IDs stay: they keep working, now leading to the new name.
            Role::RenamedFrom => {}
            Role::RenamedTo if back.is_some_and(|b| b.file == x.file && b.new_span == x.span) => {}
            _ => edits.push((x.file, x.span, toml_string(new_name))),
        }
    }
    if let Some(b) = back {
        let Some(line) = renamed_table::line_of(state.text(b.file), &b.old_span, &b.new_span) else {
            return Err(format!(
                "`{new_name}` is an old ID of this entry, and its `[renamed]` line in {} shares its line with other text: take it out first",
                state.project.file(b.file).path
            ));
        };
        edits.push((b.file, line, String::new()));
    }
    if let Sym::Id(reg) = o.sym {
        edits.extend(added_line(state, reg, &o.name, new_name));
    }
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for (fid, span, new_text) in edits {
        let Some(u) = state.file_uri(fid) else { continue };
        changes.entry(u).or_default().push(TextEdit { range: state.range(fid, &span), new_text });
    }
    Ok(WorkspaceEdit { changes: Some(changes), ..Default::default() })
}

/// The line `"old" = "new"` for the `[renamed]` table of the mod that defines `old`, when that
/// mod is released (its manifest has a `version`), `new` is of its namespace, `old` is no key of
/// the table yet, and the manifest parses — with the line as without it.
fn added_line(state: &State, reg: Registry, old: &str, new: &str) -> Option<(FileId, Span, String)> {
    let ns = vocab::namespace_of(old);
    if old == new || vocab::namespace_of(new) != ns {
        return None;
    }
    let m = state.project.mods.iter().find(|m| m.id == ns && !m.is_core)?;
    m.manifest.version.as_ref()?;
    let file = m.manifest_file?;
    // An ID the mod defines, not a reference to nothing.
    state.db().resolved.defs.get(reg.index())?.get(old)?.defined?;
    if m.manifest.renamed.iter().any(|(o, _)| o.value == old) {
        return None;
    }
    let text = state.text(file);
    let (at, add) = renamed_table::add_line(text, old, new)?;
    let mut after = text.to_string();
    after.insert_str(at, &add);
    let (read, diags) = read_manifest(file, &after, None);
    let parses = !diags.iter().any(|d| d.code == Code::TomlSyntax);
    (parses && read.renamed.iter().any(|(o, n)| o.value == old && n.value == new)).then_some((file, at..at, add))
}
