//! `textDocument/formatting`: the document in the layout of `rustkeep fmt`, with the options of
//! the workspace's `[format]` table, as one edit (the changed middle of the text). The request's
//! own `tabSize` / `insertSpaces` are not used: the layout (two-space indentation inside brackets)
//! is the same in every editor and on the command line. A document that is not valid TOML gets no
//! edits (an empty list, not an error), and neither does a file of the read-only core, nor one the
//! formatter refuses because its result would change the meaning or lose a comment
//! (`FormatError::Meaning`, `FormatError::Comment`; the command line names the line): the text in
//! the editor stays exactly as the user wrote it.

use rustkeep_fmt::{Edit, FormatOptions};

use crate::lsp::*;
use crate::state::State;

/// The formatting options of a file of the project.
pub fn options(state: &State, fid: rustkeep_data::source::FileId) -> FormatOptions {
    FormatOptions::from_config(&state.project.config.format, state.project.file(fid).kind.into())
}

/// Edits in the byte offsets of `fid`'s text as LSP text edits.
pub fn to_text_edits(state: &State, fid: rustkeep_data::source::FileId, edits: Vec<Edit>) -> Vec<TextEdit> {
    edits.into_iter().map(|e| TextEdit { range: state.range(fid, &e.span), new_text: e.text }).collect()
}

pub fn formatting(state: &State, u: &Uri) -> Option<Vec<TextEdit>> {
    let fid = state.file_of(u)?;
    let f = state.project.file(fid);
    if f.bundled || f.invalid_utf8_at.is_some() {
        return Some(Vec::new());
    }
    let Ok(new) = rustkeep_fmt::format_document(&f.text, &options(state, fid)) else { return Some(Vec::new()) };
    Some(to_text_edits(state, fid, rustkeep_fmt::minimal_edit(&f.text, &new).into_iter().collect()))
}
