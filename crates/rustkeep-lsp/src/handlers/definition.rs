//! `textDocument/definition`: an ID goes to the entry that defines it (from an `overrides`, to the
//! original definition), across mods and into the served core files; an old ID of `[renamed]` (a
//! reference written with it, or a line of `[renamed]`) goes to the entry of the ID at the end of
//! its chain of renames; a tag goes to every entry that carries it.

use crate::ids::{self, Role, Sym};
use crate::lsp::*;
use crate::state::State;

pub fn definition(state: &State, p: &TextDocumentPositionParams) -> Option<Vec<Location>> {
    let (fid, offset) = state.locate(p)?;
    let o = ids::at(state, fid, offset)?;
    let a = state.db();
    let locs: Vec<Location> = match o.sym {
        Sym::Id(reg) => {
            // `get` follows `[renamed]` from an old ID to the entry in force.
            let def = a.resolved.get(reg, &o.name)?;
            let target = def.defined.unwrap_or(def.current);
            let e = a.entry(target);
            let span = e.key().map(|k| k.span.clone()).unwrap_or(e.span.clone());
            vec![state.location(target.file, &span)?]
        }
        Sym::Tag => {
            ids::all(state, Sym::Tag, &o.name).into_iter().filter(|x| x.role == Role::Definition).filter_map(|x| state.location(x.file, &x.span)).collect()
        }
    };
    (!locs.is_empty()).then_some(locs)
}
