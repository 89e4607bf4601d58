//! `textDocument/references`: every place naming the ID or tag under the cursor, in every mod and
//! the core — under any of its names: an entry's references include those written with one of
//! its old IDs, and the `[renamed]` lines that lead there (both their old and their new ID).
//! From an old ID, the references are those of the entry it stands for.

use crate::ids::{self, Role};
use crate::lsp::*;
use crate::state::State;

pub fn references(state: &State, p: &TextDocumentPositionParams, include_declaration: bool) -> Option<Vec<Location>> {
    let (fid, offset) = state.locate(p)?;
    let o = ids::at(state, fid, offset)?;
    let out: Vec<Location> = ids::all_of(state, o.sym, &ids::aliases(state, o.sym, &o.name))
        .into_iter()
        .filter(|x| include_declaration || x.role != Role::Definition)
        .filter_map(|x| state.location(x.file, &x.span))
        .collect();
    Some(out)
}
