//! The one file layer of every command that writes, deletes or reads files a stranger may have
//! made: a mod repository on a pull request, a downloaded mod, a shared save (docs/reliability.md,
//! "Files and folders").
//!
//! - **A write never follows a symbolic link.** [`write_file`] refuses a link where the file
//!   goes and replaces a file through a temporary file beside it: the rename replaces the
//!   folder's entry, it never writes through it. The one exception is a link into something that
//!   is not a file, such as `/dev/stdout`: writing into a terminal or a pipe cannot overwrite
//!   anything.
//! - **An output folder holds no link.** [`OutDir::open`] refuses a folder that is a link or
//!   that holds one anywhere below it, before anything is written; [`OutDir::remove`] removes
//!   only regular files inside the folder.
//! - **Reads stay inside the workspace.** A [`Boundary`] is the set of folders a command may
//!   read: the paths it was given and the workspaces it found. A file reached through a link is
//!   read only when the link resolves inside the boundary, and only regular files are read (a
//!   named pipe would block a command forever).
//! - **One walk, one rule for links.** [`Walk`] is the one walk of a folder tree (discovery, the
//!   language server's snapshot of the disk, `--watch`, the output folder of `rustkeep doc`):
//!   a link is listed as itself and never followed, so a link to a folder is never entered (no
//!   loop, no way out of the workspace) and a link to a file is left to the reader, which reads it
//!   through a [`Boundary`]. The folders discovery skips ([`skipped_folder`]) are not entered.
//!
//! Links are judged when they are met; a process racing the command on the same disk is not what
//! these rules defend against (a stranger supplies files, not processes).

use std::fs;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};

/// Writes `bytes` to `path`, replacing the file whole (through a temporary file in its folder,
/// flushed, with the old file's permissions) or creating it. A symbolic link at `path` is
/// refused unless it leads to something that is not a file or a folder (a terminal, a pipe),
/// which is written into; so is such a thing itself. A read-only file is refused, as writing into
/// it would be. On any failure the old file is left as it was.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_file_then(path, bytes, |_| {})
}

/// [`write_file`], calling `before_rename` with the temporary file's path once it is written and
/// flushed, before it replaces the file (the crash-safety test of saves stops the process there).
pub fn write_file_then(path: &Path, bytes: &[u8], before_rename: impl FnOnce(&Path)) -> io::Result<()> {
    replace(path, bytes, true, before_rename)
}

/// Replaces or creates the file at `path` by the rules of [`write_file`]; `durable`: flushed to
/// the disk before the rename and the rename after it (a site's pages are written again by the
/// next build, and a flush per page would cost a large site seconds).
fn replace(path: &Path, bytes: &[u8], durable: bool, before_rename: impl FnOnce(&Path)) -> io::Result<()> {
    let here = match fs::symlink_metadata(path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    if let Some(m) = &here {
        let is_link = m.file_type().is_symlink();
        let target = if is_link { fs::metadata(path).ok() } else { Some(m.clone()) };
        // A terminal, a pipe, `/dev/null` (or a link to one, `/dev/stdout`): written into, since
        // renaming over it would replace the device with a file.
        if target.as_ref().is_some_and(|t| !t.is_file() && !t.is_dir()) {
            return fs::OpenOptions::new().write(true).open(path)?.write_all(bytes);
        }
        if is_link {
            return Err(io::Error::other("it is a symbolic link, and files are never written through links"));
        }
        if m.is_dir() {
            return Err(io::Error::other("it is a folder"));
        }
        if m.permissions().readonly() {
            return Err(io::Error::new(io::ErrorKind::PermissionDenied, "the file is read-only"));
        }
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    // `.game.json.a1B2c3.tmp`: hidden, named after the file it will replace, never guessed.
    let name = path.file_name().map(|n| format!(".{}.", n.to_string_lossy())).unwrap_or_else(|| ".rustkeep.".into());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&name).suffix(".tmp");
    // A new file gets the permissions any new file gets (the umask decides), not the private
    // ones of a temporary file.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    if let Some(m) = &here {
        tmp.as_file().set_permissions(m.permissions())?;
    }
    if durable {
        tmp.as_file().sync_all()?;
    }
    before_rename(tmp.path());
    tmp.persist(path).map_err(|e| e.error)?;
    // The rename reaches the disk when the folder is flushed (where folders can be opened).
    if durable {
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Opens `path` for writing from its start (created, or emptied), for a file written as it goes
/// (a recording). A symbolic link is refused as [`write_file`] refuses it; a link to something
/// that is not a file (`/dev/stdout`) is written into.
pub fn create_file(path: &Path) -> io::Result<fs::File> {
    if let Ok(m) = fs::symlink_metadata(path) {
        if m.file_type().is_symlink() && fs::metadata(path).map_or(true, |t| t.is_file() || t.is_dir()) {
            return Err(io::Error::other("it is a symbolic link, and files are never written through links"));
        }
    }
    fs::OpenOptions::new().write(true).create(true).truncate(true).open(path)
}

/// Whether `rel` is a relative path that stays inside the folder it is joined to: no root, no
/// `..`, no empty part (as a previous build's list of files, which anyone can edit, may say).
pub fn is_inside_relative(rel: &str) -> bool {
    let p = Path::new(rel);
    !rel.is_empty()
        && !rel.split('/').any(|part| part.is_empty() || part == "..")
        && p.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// At most this many entries of an output folder are looked at for links: far more than any site
/// has, and a bound on the time a folder full of files can cost.
const MAX_ENTRIES: usize = 1_000_000;

/// How deep a [`Walk`] enters folders below its root (the entries of the deepest folder it enters
/// are listed); deeper trees are not mod layouts.
pub const MAX_DEPTH: usize = 32;

/// Folders a [`Walk`] never enters: hidden ones (`.git`), build output (`target`) and
/// `node_modules`.
pub fn skipped_folder(name: &str) -> bool {
    name.starts_with('.') || name == "target" || name == "node_modules"
}

/// The one walk of a folder tree (see the module documentation): every entry below the root and
/// the root itself (depth 0), each folder's entries in byte order of their names. A symbolic link
/// is an entry of its own ([`walkdir::DirEntry::file_type`] says so) and is never followed; the
/// root is read even when it is a link (the path given is what the user pointed at). Entries that
/// cannot be read come as errors, which most callers pass over.
pub struct Walk {
    inner: walkdir::IntoIter,
    /// Whether the folders of [`skipped_folder`] are passed over.
    skip: bool,
}

impl Walk {
    /// The tree below `root` as discovery sees it: folders entered down to [`MAX_DEPTH`], the
    /// folders of [`skipped_folder`] passed over.
    pub fn new(root: &Path) -> Walk {
        Walk::with(root, MAX_DEPTH + 1, true)
    }

    /// Every folder below `root`, hidden ones and build output too, entries down to `max_depth`
    /// below it (the `mods` globs of a workspace, an output folder).
    pub fn every_folder(root: &Path, max_depth: usize) -> Walk {
        Walk::with(root, max_depth, false)
    }

    fn with(root: &Path, max_depth: usize, skip: bool) -> Walk {
        Walk { inner: walkdir::WalkDir::new(root).follow_links(false).max_depth(max_depth).sort_by_file_name().into_iter(), skip }
    }

    /// Does not enter the folder last returned (a nested mod, a tree already watched).
    pub fn skip_current_dir(&mut self) {
        self.inner.skip_current_dir();
    }
}

impl Iterator for Walk {
    type Item = walkdir::Result<walkdir::DirEntry>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let item = self.inner.next()?;
            if let Ok(e) = &item {
                if self.skip && e.depth() > 0 && e.file_type().is_dir() && skipped_folder(&e.file_name().to_string_lossy()) {
                    self.inner.skip_current_dir();
                    continue;
                }
            }
            return Some(item);
        }
    }
}

/// Whether `path` is a folder with nothing in it; an error when it cannot be listed (it is a
/// file, it is not there, it may not be read).
pub fn is_empty_folder(path: &Path) -> io::Result<bool> {
    Ok(fs::read_dir(path)?.next().is_none())
}

/// A folder a command writes its output into (`rustkeep doc`'s site): no link in it is ever
/// followed.
#[derive(Debug)]
pub struct OutDir {
    root: PathBuf,
}

impl OutDir {
    /// Opens `root` as an output folder, creating it when absent. A folder that is a symbolic
    /// link, or that holds one anywhere below it, is refused with the link's path, and nothing is
    /// written.
    pub fn open(root: &Path) -> Result<OutDir, String> {
        match fs::symlink_metadata(root) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(format!("{} is a symbolic link: an output folder is written only where it really is; give its real path", root.display()))
            }
            Ok(m) if !m.is_dir() => return Err(format!("{} is not a folder", root.display())),
            Ok(_) => {
                let mut seen = 0usize;
                for entry in Walk::every_folder(root, usize::MAX).filter(|e| e.as_ref().map_or(true, |e| e.depth() > 0)) {
                    seen += 1;
                    if seen > MAX_ENTRIES {
                        return Err(format!("{} holds more than {MAX_ENTRIES} files and folders: choose another output folder", root.display()));
                    }
                    let entry = entry.map_err(|e| format!("cannot read {}: {e}", root.display()))?;
                    if entry.path_is_symlink() {
                        return Err(format!(
                            "{} is a symbolic link inside the output folder: nothing is written through links, so nothing was written; remove it, or choose another folder",
                            entry.path().display()
                        ));
                    }
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("cannot read {}: {e}", root.display())),
        }
        fs::create_dir_all(root).map_err(|e| format!("cannot create {}: {e}", root.display()))?;
        Ok(OutDir { root: root.to_path_buf() })
    }

    /// The folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Writes `bytes` to the file `rel` (a `/`-separated path inside the folder) unless it holds
    /// them already; returns whether it wrote. Folders on the way are created.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<bool, String> {
        if !is_inside_relative(rel) {
            return Err(format!("{rel} does not lie inside the output folder"));
        }
        let path = self.root.join(rel);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let here = fs::symlink_metadata(&path).ok();
        // The folder's files are the command's own: a named pipe or a device there would block
        // the write or send it elsewhere (a link is refused by `replace`).
        if here.as_ref().is_some_and(|m| !m.is_file() && !m.is_dir() && !m.file_type().is_symlink()) {
            return Err(format!("cannot write {}: it is not a regular file", path.display()));
        }
        let same = here.is_some_and(|m| m.is_file() && m.len() == bytes.len() as u64) && fs::read(&path).is_ok_and(|old| old == bytes);
        if same {
            return Ok(false);
        }
        replace(&path, bytes, false, |_| {}).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(true)
    }

    /// Removes the file `rel` when it is a regular file inside the folder; returns whether it did.
    pub fn remove(&self, rel: &str) -> bool {
        if !is_inside_relative(rel) {
            return false;
        }
        let path = self.root.join(rel);
        fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) && fs::remove_file(&path).is_ok()
    }
}

/// The folders a command may read: the paths it was given and the workspaces it found, each as
/// it really is on disk (links resolved).
#[derive(Clone, Debug, Default)]
pub struct Boundary {
    roots: Vec<PathBuf>,
}

/// Why a file is not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A symbolic link that leads outside the boundary.
    LinkOutside,
    /// Something that is not a regular file (a named pipe, a device, a folder).
    NotAFile,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refused::LinkOutside => "it is a symbolic link that leads outside the workspace, so it is not read",
            Refused::NotAFile => "it is not a regular file, so it is not read",
        })
    }
}

impl Boundary {
    /// Adds a folder (a file stands for nothing: add its folder).
    pub fn add(&mut self, dir: &Path) {
        let real = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        if !self.roots.iter().any(|r| real.starts_with(r)) {
            self.roots.retain(|r| !r.starts_with(&real));
            self.roots.push(real);
        }
    }

    /// Whether `path`, links resolved, lies inside one of the folders.
    pub fn contains(&self, path: &Path) -> bool {
        path.canonicalize().is_ok_and(|real| self.roots.iter().any(|r| real.starts_with(r)))
    }

    /// Whether the file at `path` may be read: a regular file, or a link to one inside the
    /// boundary. (A path that does not exist is left to the read, which says so.)
    pub fn admits(&self, path: &Path) -> Result<(), Refused> {
        let Ok(m) = fs::symlink_metadata(path) else { return Ok(()) };
        if m.file_type().is_symlink() {
            if !self.contains(path) {
                return Err(Refused::LinkOutside);
            }
            return if fs::metadata(path).is_ok_and(|t| t.is_file()) { Ok(()) } else { Err(Refused::NotAFile) };
        }
        if m.is_file() {
            Ok(())
        } else {
            Err(Refused::NotAFile)
        }
    }

    /// Reads the file at `path` if [`Boundary::admits`] it.
    pub fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        self.admits(path).map_err(|r| io::Error::new(io::ErrorKind::PermissionDenied, r.to_string()))?;
        fs::read(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_that_leave_the_folder_are_refused() {
        for ok in ["index.html", "mods/core/items.html", "./a"] {
            assert!(is_inside_relative(ok), "{ok}");
        }
        for bad in ["", "../x", "a/../../x", "/etc/passwd", "a//b", "a/"] {
            assert!(!is_inside_relative(bad), "{bad}");
        }
    }
}
