//! The bundled core as files, for the editor and `rustkeep core export`.
//!
//! The core's data files are compiled into the binary, so they have no path an editor could open.
//! For go-to-definition into the core the language server writes them once to a cache folder and
//! points URIs there (`rustkeep show` names the same folder):
//! `$XDG_CACHE_HOME/rustkeep/core-<version>/` (else `$HOME/.cache/rustkeep/core-<version>/`, else
//! the OS temp folder). The files are marked read-only: edits belong in a mod's override, not in
//! the core. A file is rewritten only when its content differs (a development build of the same
//! version), so concurrent servers do not fight over it.

use std::path::{Path, PathBuf};

use super::bundled::CORE_FILES;

/// The folder the core files are served from.
pub fn cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("rustkeep").join(format!("core-{}", env!("CARGO_PKG_VERSION")))
}

/// Writes the core files below `dir` (creating it); returns `dir` on success.
pub fn materialize(dir: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in CORE_FILES {
        let path = dir.join(name);
        if std::fs::read(&path).ok().as_deref() == Some(text.as_bytes()) {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        // Never through a link: the cache folder may lie in a shared temporary folder.
        if let Some(meta) = std::fs::symlink_metadata(&path).ok().filter(|m| m.is_file()) {
            let mut perms = meta.permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perms.set_readonly(false);
            let _ = std::fs::set_permissions(&path, perms);
        }
        crate::files::write_file(&path, text.as_bytes())?;
        let mut perms = std::fs::metadata(&path)?.permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&path, perms)?;
    }
    Ok(dir.to_path_buf())
}
