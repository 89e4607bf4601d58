//! [`TempDir`]: a fresh folder under the system's temporary folder for one test, removed when
//! the test is done with it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::{copy_dir, repo_root};

/// A fresh, empty folder (its canonical path in `.0`), removed on drop. Its name holds the tag,
/// the process and a counter, so tests running side by side never share one. It stands for its
/// path (`dir.join("x")`, `&dir` where a `&Path` is wanted); it must outlive whatever uses the
/// folder, so bind it to a name (`let dir = TempDir::new("x");`) rather than passing a temporary.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("rustkeep-test-{}-{tag}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the temp folder is writable");
        TempDir(dir.canonicalize().expect("the temp folder exists"))
    }

    /// A fresh folder holding `files`: (path relative to it, text).
    pub fn with_files(tag: &str, files: &[(&str, &str)]) -> TempDir {
        let t = TempDir::new(tag);
        for (rel, text) in files {
            t.write(rel, text);
        }
        t
    }

    /// A temporary copy of a folder of the repository (`tests/fixtures/x`, `examples/x`).
    pub fn copy_of(rel: &str) -> TempDir {
        let t = TempDir::new(&rel.replace('/', "_"));
        copy_dir(&repo_root().join(rel), &t.0);
        t
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.0.join(rel)
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).expect("the file exists")
    }

    /// Writes `rel` (with its folders): text, or any bytes (hostile encodings); its path.
    pub fn write(&self, rel: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().expect("files have a parent")).expect("folders can be created");
        std::fs::write(&p, contents).expect("files can be written");
        p
    }

    /// Every file name in the tree, sorted (to find stray temporary files).
    pub fn names(&self) -> Vec<String> {
        let mut out: Vec<String> = crate::walk_files(&self.0, &[]).iter().filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned())).collect();
        out.sort();
        out
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
