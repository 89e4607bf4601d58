//! Shared by the tests that drive `rustkeep lsp` over stdio (with `rustkeep_testutil::LspClient`).

use std::ffi::OsStr;
use std::path::Path;
use std::process::Command;

/// `PROGRAM lsp` (the binary under test, or another build of it), its core files cached below
/// `cache`.
pub fn lsp_command(program: impl AsRef<OsStr>, cache: &Path) -> Command {
    let mut command = Command::new(program);
    command.arg("lsp").env("XDG_CACHE_HOME", cache);
    command
}
