//! The code action "override this entry in my mod": on an ID of another mod or of the core — a
//! reference in a mod's file, or an entry of the served core files — it writes a copy of the
//! entry in force into a new file of the mod, `overrides/<namespace>_<name>.toml`, with
//! `overrides = "ID"` instead of `id = "ID"`. Overrides replace whole entries, so the modder starts
//! from everything the entry has (docs/getting-started.md, "Change a core entry").

use std::path::{Path, PathBuf};

use rustkeep_data::source::FileId;

use crate::ids::{self, Sym};
use crate::lsp::*;
use crate::state::State;

/// The file a copy of `id` goes to in the mod folder `root`.
pub fn target_file(root: &Path, id: &str) -> PathBuf {
    let name: String = id.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    root.join("overrides").join(format!("{name}.toml"))
}

/// The actions for the ID under `offset`, one per mod it can be copied into.
pub fn actions(state: &State, fid: FileId, offset: usize) -> Vec<CodeAction> {
    let Some(o) = ids::at(state, fid, offset) else { return Vec::new() };
    let Sym::Id(registry) = o.sym else { return Vec::new() };
    let db = state.db();
    let Some(def) = db.resolved.get(registry, &o.name) else { return Vec::new() };
    // An old ID of `[renamed]` is overridden under the ID in force (the copy writes that one).
    let name = ids::target(state, o.sym, &o.name);
    let e = db.entry(def.current);
    let source = state.project.file(e.file);
    let line = source.index.line_of(e.span.start) + 1;
    // The mods to offer: the file's own mod, or — from the core or another mod's file — every mod
    // of the workspace; never the mod whose entry is already in force.
    let own = state.mod_of(fid).filter(|m| !m.is_core && m.root.is_some());
    let candidates: Vec<&rustkeep_data::project::ModInfo> = match own {
        Some(m) => vec![m],
        None => state.project.mods.iter().filter(|m| !m.is_core && m.root.is_some()).collect(),
    };
    let mut out = Vec::new();
    for m in candidates {
        let Some(root) = &m.root else { continue };
        if state.project.mods.get(def.mod_idx).is_some_and(|x| x.root.as_ref() == Some(root)) {
            continue;
        }
        let target = target_file(root, &name);
        if target.exists() || state.docs.contains_key(&target) {
            continue;
        }
        let mut text =
            format!("# Overrides `{}` ({}:{line}). An override replaces the whole entry: keep what you want to keep,\n# change the rest.\n", name, source.path);
        text.push_str(&rustkeep_data::copy::override_text(&source.text, &source.index, e));
        let uri = crate::uri::from_path(&target);
        let edit = serde_json::json!({
            "documentChanges": [
                { "kind": "create", "uri": uri.as_ref(), "options": { "ignoreIfExists": true } },
                { "textDocument": { "uri": uri.as_ref(), "version": null },
                  "edits": [ { "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 0 } }, "newText": text } ] },
            ]
        });
        let Ok(edit) = serde_json::from_value::<WorkspaceEdit>(edit) else { continue };
        let title = match own {
            Some(_) => {
                format!("Override `{}` in this mod (copy it to overrides/{})", name, target.file_name().map(|n| n.to_string_lossy()).unwrap_or_default())
            }
            None => {
                format!("Override `{}` in `{}` (copy it to overrides/{})", name, m.id, target.file_name().map(|n| n.to_string_lossy()).unwrap_or_default())
            }
        };
        out.push(CodeAction { title, kind: Some(CodeActionKind::RefactorRewrite), edit: Some(edit), ..Default::default() });
    }
    out
}
