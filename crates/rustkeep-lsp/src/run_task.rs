//! The task that runs a scenario file's `[[expect]]` ([`crate::scenario_runs`]) after a save or
//! for the code lens's command, off the state thread:
//!
//! 1. on the state thread, behind the panic guard, the up-to-date state hands out what the run
//!    needs (a save runs only a scenario with expectations and without errors of its own);
//! 2. the run — loading, analysing and playing the scenario, tens of milliseconds to seconds for
//!    an arena — goes to a blocking thread, so that requests and keystrokes never wait for it;
//! 3. its outcome is queued as a change ([`Change::Ran`]) with the text it ran on: the state keeps
//!    it only if the file still has that text, and the publisher, woken like by any change, sends
//!    the file's list with the failures added.
//!
//! A run begun after a save is given up (between its phases, and its outcome dropped) as soon as
//! the file changes again or a newer run of it begins; one the user asked for runs to its end
//! unless the request is cancelled. Either way a run is bounded: the engine stops a scenario run
//! at its limits (docs/engine.md, "Bounded work").

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::lsp;
use crate::scenario_runs::{self, Outcome};
use crate::state_thread::{on_state_thread, Change, Shared};
use crate::uri;

/// What started a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// `textDocument/didSave`: quietly, only a valid scenario with expectations, given up when
    /// the file changes.
    Save,
    /// `workspace/executeCommand` (the code lens): any scenario file, to its end.
    Command,
}

/// A finished run: the text it ran on and how it came out.
#[derive(Clone, Debug)]
pub(crate) struct Finished {
    pub(crate) text: Arc<str>,
    pub(crate) outcome: Outcome,
}

/// Runs the scenario file `u` (see the module docs). `Ok(None)`: nothing was run or the run was
/// given up (a save); `Err`: why it could not run at all (the command tells the user).
pub(crate) async fn run_scenario(shared: Arc<Shared>, u: lsp::Uri, trigger: Trigger) -> Result<Option<Finished>, String> {
    let Some(path) = uri::to_path(&u) else { return Err(format!("{} is not a file", u.as_ref())) };
    // Begun before the state is read: a change of the file from here on makes this run stale.
    let generation = shared.begin_run(&path);
    let input = on_state_thread(&shared, move |s| {
        s.run("rustkeep test", move |state| match trigger {
            Trigger::Save => state.runs_on_save(&u).then(|| state.run_input(&u).ok()).flatten().map(Ok),
            Trigger::Command => Some(state.run_input(&u)),
        })
    })
    .await;
    let input = match input {
        Some(Ok(Some(Ok(input)))) => input,
        Some(Ok(Some(Err(why)))) => return Err(why),
        Some(Ok(None)) => return Ok(None),
        Some(Err(e)) => return Err(e.message.to_string()),
        None => return Err("the server's state thread is gone".into()),
    };
    // A request the client cancels (`$/cancelRequest`) drops this future; the guard's drop
    // tells the run, which gives up at its next phase.
    let cancelled = Arc::new(AtomicBool::new(false));
    let _guard = CancelOnDrop(cancelled.clone());
    let stale = {
        let shared = shared.clone();
        let path: PathBuf = path.clone();
        move || cancelled.load(Ordering::Relaxed) || (trigger == Trigger::Save && !shared.run_is_current(&path, generation))
    };
    let text = input.text.clone();
    let ran = tokio::task::spawn_blocking(move || scenario_runs::run(&input, &stale)).await;
    let outcome = match ran {
        Ok(Some(outcome)) => outcome,
        Ok(None) => return Ok(None),
        Err(e) => {
            log!("rustkeep-lsp: the run of {} failed: {e}", path.display());
            return Err(format!("the run failed: {e}"));
        }
    };
    if trigger == Trigger::Save && !shared.run_is_current(&path, generation) {
        return Ok(None);
    }
    shared.queue(Change::Ran { path, text: text.clone(), outcome: outcome.clone() });
    Ok(Some(Finished { text, outcome }))
}

/// Sets its flag when dropped: the run future was dropped, so its request was cancelled.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
