//! `textDocument/documentHighlight`: the other places in this file naming the same ID or tag.

use crate::ids::{self, Role};
use crate::lsp::*;
use crate::state::State;

pub fn document_highlight(state: &State, p: &TextDocumentPositionParams) -> Option<Vec<DocumentHighlight>> {
    let (fid, offset) = state.locate(p)?;
    let o = ids::at(state, fid, offset)?;
    let out = ids::in_file(state, fid)
        .into_iter()
        .filter(|x| x.sym == o.sym && x.name == o.name)
        .map(|x| DocumentHighlight {
            range: state.range(fid, &x.span),
            kind: Some(if x.role == Role::Reference { DocumentHighlightKind::Read } else { DocumentHighlightKind::Write }),
        })
        .collect();
    Some(out)
}
