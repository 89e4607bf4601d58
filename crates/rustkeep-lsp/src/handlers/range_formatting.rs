//! `textDocument/rangeFormatting`: formats the entries the range touches — each table header with
//! its keys, and each key before the first header, counting the comments and blank lines above
//! it — exactly as `rustkeep fmt` writes them, and leaves the rest of the document alone. Like
//! `textDocument/formatting`, a document that is not valid TOML gets no edits, and neither does one
//! the formatter refuses (a comment or the meaning would be lost anywhere in it).

use crate::handlers::formatting::{options, to_text_edits};
use crate::lsp::*;
use crate::state::State;

pub fn range_formatting(state: &State, u: &Uri, range: Range) -> Option<Vec<TextEdit>> {
    let fid = state.file_of(u)?;
    let f = state.project.file(fid);
    if f.bundled || f.invalid_utf8_at.is_some() {
        return Some(Vec::new());
    }
    let (from, to) = (state.offset(fid, range.start), state.offset(fid, range.end));
    let Ok(edits) = rustkeep_fmt::range_edits(&f.text, from.min(to)..to.max(from), &options(state, fid)) else { return Some(Vec::new()) };
    Some(to_text_edits(state, fid, edits))
}
