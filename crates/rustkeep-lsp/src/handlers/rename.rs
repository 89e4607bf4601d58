//! `textDocument/prepareRename` and `textDocument/rename`: an ID (or a tag) renamed everywhere in
//! the workspace as one `WorkspaceEdit`. Engine vocabulary is not renamable (it is not an ID), and
//! neither is anything the core defines or names: the core is read-only.

use std::collections::HashMap;

use rustkeep_data::diag::toml_string;
use rustkeep_data::vocab;

use crate::ids::{self, Occurrence, Sym};
use crate::lsp::*;
use crate::state::State;

fn target(state: &State, p: &TextDocumentPositionParams) -> Result<(Occurrence, Vec<Occurrence>), String> {
    let Some((fid, offset)) = state.locate(p) else { return Err("not a file of the workspace".into()) };
    let Some(o) = ids::at(state, fid, offset) else {
        return Err("only IDs and tags can be renamed; events, checks, actions, attributes and damage types are engine vocabulary".into());
    };
    if vocab::namespace_of(&o.name) == vocab::CORE_NAMESPACE && matches!(o.sym, Sym::Id(_)) {
        return Err(format!("`{}` belongs to the core, which is read-only; override it in your mod instead", o.name));
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
    let mut changes: HashMap<Uri, Vec<TextEdit>> = HashMap::new();
    for x in all {
        let Some(u) = state.file_uri(x.file) else { continue };
        changes.entry(u).or_default().push(TextEdit { range: state.range(x.file, &x.span), new_text: toml_string(new_name) });
    }
    Ok(WorkspaceEdit { changes: Some(changes), ..Default::default() })
}
