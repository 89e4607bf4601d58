//! What the disk looked like when the project was loaded, so that a rescan (a save or an open,
//! when the client cannot watch files) finds what changed outside the editor without reading and
//! analysing the whole workspace again.
//!
//! A [`Snapshot`] holds every `*.toml` file under the load paths with its stamp (length,
//! modification time and, on Unix, inode), found by discovery's walk and its rule for links
//! ([`rustkeep_data::files::Walk`]): a link to a folder is not entered, a link to a file is
//! stamped by its target only when the target lies inside the folders the load may read (the
//! [`Boundary`]), else by the link itself, so that a link out of the workspace is never followed. A rescan takes a new snapshot and compares: the same
//! files with the same stamps mean nothing changed; only data files with new stamps mean those
//! files are read again, as edits; anything else (a file added, removed or renamed, a manifest or
//! workspace file changed, different load paths) means a full reload. A snapshot is taken before
//! the files are read, so a change made while they are read shows up in the next comparison.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rustkeep_data::files::{Boundary, Walk};

/// More files than this under the load paths and no snapshot is kept: every rescan reloads
/// (walking such a tree on every save would cost more than it saves).
const MAX_FILES: usize = 200_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        let inode = std::os::unix::fs::MetadataExt::ino(meta);
        #[cfg(not(unix))]
        let inode = 0;
        Stamp { len: meta.len(), modified: meta.modified().ok(), inode }
    }
}

#[derive(Debug, PartialEq, Eq)]
pub struct Snapshot {
    paths: Vec<PathBuf>,
    files: HashMap<PathBuf, Stamp>,
}

/// What a rescan found.
#[derive(Debug, PartialEq, Eq)]
pub enum Rescan {
    /// The same files; these changed (their stamps differ).
    Changed(Vec<PathBuf>),
    /// Files were added, removed or renamed, or the load paths differ.
    Different,
}

impl Snapshot {
    /// Every `*.toml` file under `paths` (folders are walked as discovery walks them: hidden
    /// folders, `target` and `node_modules` skipped, links never entered); a link is stamped by
    /// its target only when `boundary` admits it (the folders the load reads, see
    /// [`rustkeep_data::project::boundary`]). `None` for a tree too large to keep.
    pub fn take(paths: &[PathBuf], boundary: &Boundary) -> Option<Snapshot> {
        let mut files = HashMap::new();
        let mut dirs = 0usize;
        for p in paths {
            match std::fs::metadata(p) {
                Ok(m) if m.is_dir() => {}
                Ok(m) => {
                    files.insert(p.clone(), Stamp::of(&m));
                    continue;
                }
                Err(_) => continue,
            }
            for e in Walk::new(p).flatten() {
                let kind = e.file_type();
                if kind.is_dir() {
                    dirs += 1;
                }
                if files.len() + dirs > MAX_FILES {
                    return None;
                }
                if e.depth() == 0 || kind.is_dir() || !e.file_name().to_string_lossy().ends_with(".toml") {
                    continue;
                }
                // A link is read through only inside the boundary, as the loader reads it.
                let meta =
                    if kind.is_symlink() && boundary.admits(e.path()).is_ok() { std::fs::metadata(e.path()) } else { std::fs::symlink_metadata(e.path()) };
                if let Ok(m) = meta {
                    files.insert(e.into_path(), Stamp::of(&m));
                }
            }
        }
        Some(Snapshot { paths: paths.to_vec(), files })
    }

    /// How `now` differs from this snapshot.
    pub fn compare(&self, now: &Snapshot) -> Rescan {
        if self.paths != now.paths || self.files.len() != now.files.len() {
            return Rescan::Different;
        }
        let mut changed = Vec::new();
        for (path, stamp) in &now.files {
            match self.files.get(path) {
                None => return Rescan::Different,
                Some(old) if old != stamp => changed.push(path.clone()),
                Some(_) => {}
            }
        }
        changed.sort();
        Rescan::Changed(changed)
    }

    /// Whether the snapshot holds `path`.
    pub fn contains(&self, path: &Path) -> bool {
        self.files.contains_key(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rescan_tells_changed_files_from_added_ones() {
        let dir = rustkeep_testutil::TempDir::new("disk-snapshot");
        let root = dir.path("");
        dir.write("m/mod.toml", "id = \"m\"\n");
        dir.write("m/items.toml", "[[items]]\nid = \"m:a\"\n");
        dir.write(".git/config.toml", "x = 1\n");
        let paths = vec![root.clone()];
        let take = |paths: &[PathBuf]| Snapshot::take(paths, &rustkeep_data::project::boundary(paths, &root));
        let before = take(&paths).expect("a small tree");
        assert_eq!(before.files.len(), 2, "hidden folders are skipped: {before:?}");
        assert_eq!(before.compare(&take(&paths).unwrap()), Rescan::Changed(vec![]));

        dir.write("m/items.toml", "[[items]]\nid = \"m:a\"\nname = \"A\"\n");
        assert_eq!(before.compare(&take(&paths).unwrap()), Rescan::Changed(vec![root.join("m/items.toml")]));

        dir.write("m/more.toml", "");
        assert_eq!(before.compare(&take(&paths).unwrap()), Rescan::Different);
        std::fs::remove_file(root.join("m/more.toml")).unwrap();
        std::fs::remove_file(root.join("m/items.toml")).unwrap();
        assert_eq!(before.compare(&take(&paths).unwrap()), Rescan::Different);
        assert_eq!(before.compare(&take(&[root.join("m")]).unwrap()), Rescan::Different, "other load paths");
    }

    /// A link is stamped by its target only inside the folders the load reads: a link out of the
    /// workspace is never followed, as discovery never reads through one.
    #[cfg(unix)]
    #[test]
    fn a_link_out_of_the_workspace_is_not_followed() {
        let outside = rustkeep_testutil::TempDir::new("disk-snapshot-outside");
        outside.write("secret.toml", "x = 1\n");
        let dir = rustkeep_testutil::TempDir::new("disk-snapshot-links");
        let root = dir.path("");
        dir.write("m/mod.toml", "id = \"m\"\n");
        dir.write("m/items.toml", "");
        std::os::unix::fs::symlink(outside.path("secret.toml"), root.join("m/out.toml")).unwrap();
        std::os::unix::fs::symlink(root.join("m/items.toml"), root.join("m/in.toml")).unwrap();
        let paths = vec![root.clone()];
        let snapshot = Snapshot::take(&paths, &rustkeep_data::project::boundary(&paths, &root)).expect("a small tree");
        let stamp = |p: &str| snapshot.files.get(&root.join(p)).copied();
        let link_of = |p: &Path| Stamp::of(&std::fs::symlink_metadata(p).unwrap());
        let target_of = |p: &Path| Stamp::of(&std::fs::metadata(p).unwrap());
        assert_eq!(stamp("m/out.toml"), Some(link_of(&root.join("m/out.toml"))), "the link itself");
        assert_eq!(stamp("m/in.toml"), Some(target_of(&root.join("m/items.toml"))), "the file it leads to");
    }
}
