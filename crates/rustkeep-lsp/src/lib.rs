//! The rustkeep language server (docs/editors/lsp.md): the only crate that knows LSP types.
//!
//! Layout, following rust-analyzer / ruff / Tombi:
//! - [`server`]: the tower-lsp-server glue (text-sync queue, the state thread for analyses and
//!   requests, the one publisher task, panic guard). It does no analysis.
//! - [`publish`]: what is published when: batches tagged with revisions, never going backwards.
//! - [`state`]: the workspace as the server sees it: open buffers, the loaded project, per-file
//!   cached facts, the incremental analysis, the negotiated position encoding, URIs ↔ files;
//!   [`outline`]: what is kept of the files that are not open; [`disk`]: the files on disk at
//!   the last load, so that a rescan without a file watcher reads only what changed.
//! - [`context`]: a tolerant scanner that tells what the cursor is on while the buffer is being typed.
//! - [`ids`]: every place that defines or names an ID or tag (definition, references, rename, tokens).
//! - [`handlers`]: one file per LSP method, each a plain function `(&State, params) -> result`, so
//!   that tests drive them in-process without a client.
//!
//! Invariants: handlers never panic the server (every call goes through `catch_unwind`); document
//! edits are applied in arrival order; no analysis runs on the async workers; one task publishes,
//! and a file is never sent an older analysis than one it was already sent; logs go to stderr only.

#![forbid(unsafe_code)]

/// `eprintln!` that cannot panic: the client's log is standard error, and a client that closed
/// it must not bring a thread of the server down with a message.
macro_rules! log {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod context;
pub mod core_files;
pub mod disk;
pub mod handlers;
pub mod ids;
pub mod loot_cache;
pub mod outline;
pub mod publish;
pub mod server;
pub mod setup;
pub mod state;
pub mod stdio;
pub mod uri;

pub use tower_lsp_server::gen_lsp_types as lsp;

/// Runs the language server on stdin/stdout until the client sends `exit`. Blocking. Returns the
/// process's exit code: 0 when `shutdown` came before `exit`, else 1 (the protocol's rule).
pub fn run() -> std::io::Result<u8> {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let shut_down = rt.block_on(server::serve_stdio());
    // A handler still running, or the thread blocked reading stdin, must not keep the process
    // alive once the client is gone.
    rt.shutdown_timeout(std::time::Duration::from_millis(500));
    Ok(if shut_down { 0 } else { 1 })
}
