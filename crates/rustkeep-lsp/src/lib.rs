//! The rustkeep language server (docs/editors/lsp.md): the checks of `rustkeep check`, hovers,
//! completion, navigation, renames and formatting in the editor, kept up to date as the user
//! types. The only crate that knows LSP types.
//!
//! What it must never do:
//! - **validate on its own**: every diagnostic comes from `rustkeep-check` (its incremental
//!   analysis) and every loot chance and failed expectation from `rustkeep-engine`, so that the
//!   editor and the command line say the same thing about the same texts;
//! - **block the protocol on an analysis**: notifications are queued, never analysed on the async
//!   workers; the analysis and the requests run on the one state thread;
//! - **panic on client input**: malformed messages get JSON-RPC errors, and a handler or an
//!   analysis that panics is caught (`catch_unwind`) and answered with an error;
//! - **go backwards**: edits are applied in arrival order, one task publishes, and a file is never
//!   sent an older analysis than one it was already sent;
//! - **write to standard output** anything but the protocol (logs go to standard error), or write
//!   the user's files (edits go to the client, which applies them).
//!
//! Layout, following rust-analyzer / ruff / Tombi, one job per file:
//! - [`server`]: the tower-lsp-server `LanguageServer` glue: notifications become queued changes,
//!   requests become jobs on the state thread. It does no analysis.
//! - `state_thread`: the one thread that owns the state: it applies the queued changes in order,
//!   brings the analysis up to date, and runs the requests' handlers behind the panic guard.
//! - [`publish`]: what is published when: batches tagged with revisions, never going backwards,
//!   and the one task that sends them.
//! - [`scenario_runs`]: running a scenario file's `[[expect]]` as `rustkeep test` does, after a
//!   save and for the code lens's command; `run_task`: the task that runs one off the state thread
//!   and hands its outcome back to the state as a change, which publication then takes along.
//! - `test_hooks`: switches for the tests of the real binary (jitter, the unguarded publisher) and,
//!   in test builds, the hook that makes a handler panic.
//! - [`setup`]: the encoding, roots and capabilities decided at `initialize`; [`stdio`]: the input
//!   sanitizer in front of the JSON-RPC framing.
//! - [`state`]: the workspace as the server sees it: the open documents, the project on disk,
//!   the incremental analysis, and the conversions to and from LSP types (`state/to_proto.rs`,
//!   `state/from_proto.rs`); [`outline`]: what is kept of the files that are not open; [`disk`]:
//!   the files on disk at the last load, so that a rescan without a file watcher reads only what
//!   changed; [`uri`]: `file://` URIs and paths (the bundled core is served from disk for
//!   go-to-definition by `rustkeep_data::project::core_files`); [`loot_cache`]: the exact loot reports kept for hovers.
//! - [`balance`]: the balance figures beside the data (lenses above creatures and loot tables, a
//!   creature's hover, `rustkeep.showBalance`), computed after the typing stops in turns on the
//!   state thread that give way to any other job; `balance_task`: the scheduler that makes the
//!   jobs and runs their turns, and asks the client for the lenses again when figures arrive.
//! - [`context`]: a tolerant scanner that tells what the cursor is on while the buffer is being typed.
//! - [`ids`]: every place that defines or names an ID or tag (definition, references, rename, tokens),
//!   the `[renamed]` lines of the manifests among them; `renamed_table`: the lines a rename adds
//!   to or takes from a `[renamed]` table, as text.
//! - [`handlers`]: one file per LSP method, each a plain function `(&State, params) -> result`, so
//!   that tests drive them in-process without a client.

#![forbid(unsafe_code)]

/// `eprintln!` that cannot panic: the client's log is standard error, and a client that closed
/// it must not bring a thread of the server down with a message.
macro_rules! log {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod balance;
mod balance_task;
pub mod context;
pub mod disk;
pub mod handlers;
pub mod ids;
pub mod loot_cache;
pub mod outline;
pub mod publish;
mod publish_task;
mod renamed_table;
mod run_task;
pub mod scenario_runs;
pub mod server;
pub mod setup;
pub mod state;
mod state_thread;
pub mod stdio;
mod test_hooks;
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
