//! `textDocument/documentHighlight`: the other places in this file naming the same ID or tag (an
//! entry's old IDs of `[renamed]` included, as for references).

use crate::ids::{self, Role};
use crate::lsp::*;
use crate::state::State;

pub fn document_highlight(state: &State, p: &TextDocumentPositionParams) -> Option<Vec<DocumentHighlight>> {
    let (fid, offset) = state.locate(p)?;
    let o = ids::at(state, fid, offset)?;
    let names = ids::aliases(state, o.sym, &o.name);
    let out = ids::in_file(state, fid)
        .into_iter()
        .filter(|x| x.sym == o.sym && names.contains(&x.name))
        .map(|x| DocumentHighlight {
            range: state.range(fid, &x.span),
            kind: Some(if matches!(x.role, Role::Definition | Role::Override) { DocumentHighlightKind::Write } else { DocumentHighlightKind::Read }),
        })
        .collect();
    Some(out)
}
