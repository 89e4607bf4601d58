//! What the disk looked like when the project was loaded, so that a rescan (a save or an open,
//! when the client cannot watch files) finds what changed outside the editor without reading and
//! analysing the whole workspace again.
//!
//! A [`Snapshot`] holds every `*.toml` file under the load paths with its stamp (length,
//! modification time and, on Unix, inode). A rescan takes a new snapshot and compares: the same
//! files with the same stamps mean nothing changed; only data files with new stamps mean those
//! files are read again, as edits; anything else (a file added, removed or renamed, a manifest or
//! workspace file changed, different load paths) means a full reload. A snapshot is taken before
//! the files are read, so a change made while they are read shows up in the next comparison.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

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
    /// Every `*.toml` file under `paths` (folders are walked; hidden folders, `target` and
    /// `node_modules` are skipped, as discovery skips them). `None` for a tree too large to keep.
    pub fn take(paths: &[PathBuf]) -> Option<Snapshot> {
        let mut files = HashMap::new();
        let mut dirs: Vec<PathBuf> = Vec::new();
        for p in paths {
            match std::fs::metadata(p) {
                Ok(m) if m.is_dir() => dirs.push(p.clone()),
                Ok(m) => {
                    files.insert(p.clone(), Stamp::of(&m));
                }
                Err(_) => {}
            }
        }
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else { continue };
            for e in entries.flatten() {
                let Ok(kind) = e.file_type() else { continue };
                let name = e.file_name();
                let name = name.to_string_lossy();
                if kind.is_dir() {
                    if !rustkeep_data::project::skipped_folder(&name) {
                        dirs.push(e.path());
                    }
                } else if name.ends_with(".toml") {
                    // Symbolic links are followed, as the loader reads through them.
                    if let Ok(m) = std::fs::metadata(e.path()) {
                        files.insert(e.path(), Stamp::of(&m));
                    }
                }
                if files.len() + dirs.len() > MAX_FILES {
                    return None;
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
        let before = Snapshot::take(&paths).expect("a small tree");
        assert_eq!(before.files.len(), 2, "hidden folders are skipped: {before:?}");
        assert_eq!(before.compare(&Snapshot::take(&paths).unwrap()), Rescan::Changed(vec![]));

        dir.write("m/items.toml", "[[items]]\nid = \"m:a\"\nname = \"A\"\n");
        assert_eq!(before.compare(&Snapshot::take(&paths).unwrap()), Rescan::Changed(vec![root.join("m/items.toml")]));

        dir.write("m/more.toml", "");
        assert_eq!(before.compare(&Snapshot::take(&paths).unwrap()), Rescan::Different);
        std::fs::remove_file(root.join("m/more.toml")).unwrap();
        std::fs::remove_file(root.join("m/items.toml")).unwrap();
        assert_eq!(before.compare(&Snapshot::take(&paths).unwrap()), Rescan::Different);
        assert_eq!(before.compare(&Snapshot::take(&[root.join("m")]).unwrap()), Rescan::Different, "other load paths");
    }
}
