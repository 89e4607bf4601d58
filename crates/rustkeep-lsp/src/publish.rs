//! Publication of diagnostics: what goes out to the client, and in which order.
//!
//! Every analysis of the workspace, whoever ran it (the publisher's own worker or a request that
//! found the state out of date), becomes a [`Batch`]: the full diagnostic list of every user file,
//! tagged with the state revision it was computed from and, per file, the version of the open
//! document it belongs to. Batches may reach the publisher out of order (a request hands its
//! batch over after releasing the state). One [`Publisher`] owns publication and keeps it moving
//! forward only:
//! - a batch older than one already published is dropped, never sent (the ordering guard);
//! - only the files whose list differs from what the client was last sent are published, and that
//!   is every such file, not only the edited ones, so no file is left stale.
//!
//! The server runs one publisher task around one `Publisher` (`publish_task.rs`): it is woken by
//! every change received, has the newest revision analysed on the state thread
//! (`state_thread.rs`), then offers every batch it holds to its `Publisher`. A batch older
//! than the newest change received is not sent either: that change's own wake-up follows, so
//! edits that arrive while an analysis runs coalesce into the next one. In-process drivers (tests,
//! fuzzing, benches) use [`crate::state::State::take_publish`], which owns its own `Publisher`.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::lsp;

/// One file's diagnostics as computed by one analysis.
#[derive(Clone, Debug)]
pub struct FileDiagnostics {
    pub uri: lsp::Uri,
    /// The version of the open document the list belongs to (`None` for files not open).
    pub version: Option<i32>,
    pub diagnostics: Arc<Vec<lsp::Diagnostic>>,
}

/// The diagnostics of every user file after one analysis.
#[derive(Clone, Debug)]
pub struct Batch {
    /// The state revision the analysis was computed from: the number of text-sync changes applied.
    pub revision: u64,
    pub files: Vec<FileDiagnostics>,
}

/// One `textDocument/publishDiagnostics`.
pub type Publication = (lsp::Uri, Vec<lsp::Diagnostic>, Option<i32>);

/// What was last sent for a file.
#[derive(Clone, Debug)]
struct Sent {
    revision: u64,
    diagnostics: Arc<Vec<lsp::Diagnostic>>,
}

/// The single owner of publication; see the module docs.
#[derive(Debug)]
pub struct Publisher {
    sent: HashMap<String, Sent>,
    /// The revision of the newest batch accepted so far.
    last_revision: Option<u64>,
    /// Test hook: accept batches in whatever order they come (proves the guard is what keeps the
    /// stdio differential test green). Never set outside that test.
    unguarded: bool,
}

impl Default for Publisher {
    fn default() -> Self {
        Publisher::new(false)
    }
}

impl Publisher {
    pub fn new(unguarded: bool) -> Publisher {
        Publisher { sent: HashMap::new(), last_revision: None, unguarded }
    }

    /// The revision of the newest batch accepted so far.
    pub fn last_revision(&self) -> Option<u64> {
        self.last_revision
    }

    /// Whether a batch of this revision would be dropped as older than what was published.
    pub fn is_stale(&self, revision: u64) -> bool {
        !self.unguarded && self.last_revision.is_some_and(|r| revision < r)
    }

    /// Takes a batch and returns the publications it calls for, sorted by URI: every file whose
    /// list changed since it was last sent, and an empty list for every file that left the
    /// workspace. A batch older than one already accepted yields nothing.
    pub fn accept(&mut self, batch: Batch) -> Vec<Publication> {
        if self.is_stale(batch.revision) {
            return Vec::new();
        }
        self.last_revision = Some(self.last_revision.map_or(batch.revision, |r| r.max(batch.revision)));
        let mut out = Vec::new();
        let mut present: HashSet<&str> = HashSet::with_capacity(batch.files.len());
        for f in &batch.files {
            present.insert(f.uri.as_ref());
        }
        let gone: Vec<String> = self.sent.keys().filter(|k| !present.contains(k.as_str())).cloned().collect();
        for f in batch.files {
            let key: &str = f.uri.as_ref();
            let changed = match self.sent.get(key) {
                Some(prev) if !self.unguarded && prev.revision > batch.revision => false,
                // The state shares an unchanged file's list between batches: no need to compare.
                Some(prev) => !Arc::ptr_eq(&prev.diagnostics, &f.diagnostics) && prev.diagnostics != f.diagnostics,
                None => true,
            };
            if changed {
                self.sent.insert(key.to_string(), Sent { revision: batch.revision, diagnostics: f.diagnostics.clone() });
                out.push((f.uri, (*f.diagnostics).clone(), f.version));
            } else if let Some(prev) = self.sent.get_mut(key) {
                prev.revision = prev.revision.max(batch.revision);
            }
        }
        for key in gone {
            let prev = self.sent.remove(&key).expect("listed above");
            if !prev.diagnostics.is_empty() {
                out.push((lsp::Uri::from(key), Vec::new(), None));
            }
        }
        out.sort_by(|a, b| a.0.as_ref().cmp(b.0.as_ref()));
        out
    }
}

/// What the publisher task is told.
pub(crate) enum ToPublisher {
    /// A change was received: analyse the newest revision and publish.
    Wake,
    /// An analysis a request ran.
    Batch(Batch),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(msg: &str) -> lsp::Diagnostic {
        lsp::Diagnostic { message: lsp::Message::String(msg.into()), ..Default::default() }
    }

    fn file(name: &str, version: i32, msgs: &[&str]) -> FileDiagnostics {
        FileDiagnostics {
            uri: lsp::Uri::from(format!("file:///ws/{name}")),
            version: Some(version),
            diagnostics: Arc::new(msgs.iter().map(|m| diag(m)).collect()),
        }
    }

    fn names(p: &[Publication]) -> Vec<(String, usize, Option<i32>)> {
        p.iter().map(|(u, d, v)| (u.as_ref().rsplit('/').next().unwrap().to_string(), d.len(), *v)).collect()
    }

    #[test]
    fn an_older_batch_arriving_after_a_newer_one_is_dropped() {
        let mut p = Publisher::new(false);
        let first = p.accept(Batch { revision: 1, files: vec![file("a.toml", 1, &[]), file("b.toml", 1, &[])] });
        assert_eq!(names(&first), [("a.toml".into(), 0, Some(1)), ("b.toml".into(), 0, Some(1))]);
        let newer = p.accept(Batch { revision: 3, files: vec![file("a.toml", 2, &["invalid-id"]), file("b.toml", 1, &[])] });
        assert_eq!(names(&newer), [("a.toml".into(), 1, Some(2))]);
        // Computed from revision 2, it arrives late: sending it would take `a.toml` back to version 1.
        let late = p.accept(Batch { revision: 2, files: vec![file("a.toml", 1, &[]), file("b.toml", 1, &["toml-syntax"])] });
        assert!(late.is_empty(), "{late:?}");
        assert_eq!(p.last_revision(), Some(3));
    }

    #[test]
    fn without_the_guard_the_late_batch_goes_out() {
        let mut p = Publisher::new(true);
        p.accept(Batch { revision: 3, files: vec![file("a.toml", 2, &["invalid-id"])] });
        let late = p.accept(Batch { revision: 2, files: vec![file("a.toml", 1, &[])] });
        assert_eq!(names(&late), [("a.toml".into(), 0, Some(1))]);
    }

    #[test]
    fn every_changed_file_is_published_and_files_that_left_are_cleared() {
        let mut p = Publisher::new(false);
        p.accept(Batch { revision: 1, files: vec![file("a.toml", 1, &[]), file("b.toml", 1, &["x"]), file("c.toml", 1, &["y"])] });
        // Only `a.toml` was edited, but `b.toml`'s list changed too; `c.toml` left the workspace.
        let out = p.accept(Batch { revision: 2, files: vec![file("a.toml", 2, &["z"]), file("b.toml", 1, &[])] });
        assert_eq!(names(&out), [("a.toml".into(), 1, Some(2)), ("b.toml".into(), 0, Some(1)), ("c.toml".into(), 0, None)]);
        // The same lists again: nothing to send.
        assert!(p.accept(Batch { revision: 3, files: vec![file("a.toml", 2, &["z"]), file("b.toml", 1, &[])] }).is_empty());
    }

    #[test]
    fn a_batch_of_the_same_revision_is_accepted() {
        // A request and the publisher's worker may both analyse one revision.
        let mut p = Publisher::new(false);
        p.accept(Batch { revision: 4, files: vec![file("a.toml", 1, &[])] });
        assert!(!p.is_stale(4));
        assert!(p.accept(Batch { revision: 4, files: vec![file("a.toml", 1, &[])] }).is_empty());
    }
}
