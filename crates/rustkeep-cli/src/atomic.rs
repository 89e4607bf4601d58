//! Writing a file so that nothing is ever lost: the new content goes to a temporary file in the
//! same folder (same file system, so the final rename is atomic), is flushed to disk, takes the
//! old file's permissions, and only then replaces the old file. Any failure removes the temporary
//! file and leaves the original exactly as it was. A read-only file is not replaced, and what is
//! not a file (a device such as `/dev/null`, a named pipe) is written into, not replaced.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh name next to `target`: hidden, and unique per process and call.
fn temp_path(dir: &Path, target: &Path) -> PathBuf {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "file".into());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    dir.join(format!(".{name}.rustkeep-{}-{n}.tmp", std::process::id()))
}

/// Replaces the content of `path` by `bytes` atomically, keeping its permissions. A symbolic link
/// is followed: the file it points at is replaced and the link stays a link.
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = match fs::canonicalize(path) {
        Ok(real) => real,
        // A file that does not exist yet (a new baseline) is written where it was asked for.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => path.to_path_buf(),
        Err(e) => return Err(e),
    };
    let dir = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let metadata = fs::metadata(&target).ok();
    // Something that is not a file (`/dev/null`, `/dev/stdout`, a named pipe) is written into:
    // renaming over it would replace the device or the pipe with a file.
    if metadata.as_ref().is_some_and(|m| !m.is_file() && !m.is_dir()) {
        return OpenOptions::new().write(true).open(&target)?.write_all(bytes);
    }
    let permissions = metadata.map(|m| m.permissions());
    // Replacing a file is allowed by the folder's permissions alone; a read-only file says that
    // it must not change, so it is refused as writing into it would be.
    if permissions.as_ref().is_some_and(|p| p.readonly()) {
        return Err(std::io::Error::new(std::io::ErrorKind::PermissionDenied, "the file is read-only"));
    }
    let tmp = temp_path(dir, &target);
    let result = (|| {
        let mut f = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(bytes)?;
        if let Some(p) = &permissions {
            f.set_permissions(p.clone())?;
        }
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, &target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
        return result;
    }
    // The rename itself reaches the disk when the folder is flushed (where folders can be opened).
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}
