//! What the checker's tests share.
#![allow(dead_code)]

pub mod hostile;

use std::sync::Arc;

use rustkeep_data::project::Project;
use rustkeep_data::source::{FileId, SourceFile};
use rustkeep_data::text::LineIndex;

/// Gives the file `fid` of `project` the text `text`, as an editor's change would.
pub fn set_text(project: &mut Project, fid: FileId, text: &str) {
    let f = &mut project.files[fid.0 as usize];
    let (t, bad) = SourceFile::decode(text.as_bytes());
    f.index = Arc::new(LineIndex::new(&t));
    f.text = t;
    f.invalid_utf8_at = bad;
}
