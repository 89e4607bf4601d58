//! The state thread: the one thread that owns the [`State`] and runs, in order, the jobs the
//! async side hands it (a request, the publisher's analysis), behind the panic guard.
//!
//! - **Changes.** Notifications (`didOpen`, `didChange`, `didClose`, watched files) never wait
//!   for an analysis: the protocol glue ([`crate::server`]) queues each as a [`Change`] in arrival
//!   order, counted in `received`, and wakes the publisher. Nothing else is done on the async
//!   workers.
//! - **The state** ([`State`], one mutex) is only touched here. Whichever job comes first applies
//!   the queued changes in order — each advances the state's revision by one — and brings the
//!   analysis up to date. A request then runs its handler on it; an analysis a request had to run
//!   is handed to the publisher ([`crate::publish`]) as a [`Batch`] tagged with its revision.
//!   (One thread, not a pool: the analysis's memory then stays in one allocator arena instead of
//!   spreading over every worker that ever held the state.)
//! - **Cancellation**: a reload (the first load, a manifest edit) gives up between its phases
//!   when a newer change arrives; what it lowered is kept, and the newer revision is analysed
//!   instead of one nobody will see. An edit of known files takes milliseconds and always runs to
//!   its end.
//! - **Scenario runs** (`run_task.rs`) do not run here: a run's outcome comes back as a change of
//!   its own ([`Change::Ran`]), in order with the edits. Every change of a file makes the runs of
//!   it under way stale (their generation, [`Shared::begin_run`]).
//! - **Balance figures** (`balance_task.rs`, [`crate::balance`]) are computed here too, in turns
//!   that give way to any other job within a millisecond or so; every change received makes the
//!   job under way stale, and the job that follows is made here, once the typing stopped.
//! - **Panics**: a change, an analysis or a handler that panics is caught; a request then gets an
//!   error response naming its method, and the state (which marks itself for a full reload while
//!   it works) rebuilds itself on the next job.
//! - **Profile**: with `RUSTKEEP_LSP_PROFILE=<ms>`, every request and every analysis that takes
//!   longer is logged to stderr with its phases (see [`crate::state::Phases`]).

use std::collections::{HashMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};

use crate::lsp::*;
use crate::publish::{Batch, ToPublisher};
use crate::scenario_runs::Outcome;
use crate::state::{Phases, Refreshed, State};
use crate::test_hooks::TestHooks;

/// A text-sync notification waiting to be applied; each becomes exactly one revision of the state.
pub(crate) enum Change {
    Open {
        path: PathBuf,
        text: String,
        version: i32,
    },
    Edit {
        uri: Uri,
        path: PathBuf,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    },
    Close {
        path: PathBuf,
    },
    Disk {
        paths: Vec<PathBuf>,
    },
    /// Re-read every file that is not open (a save or an open, when no file watcher reports
    /// changes made outside the editor).
    Rescan,
    /// A scenario run finished (`run_task.rs`): its outcome on the text it ran on.
    Ran {
        path: PathBuf,
        text: Arc<str>,
        outcome: Outcome,
    },
}

impl Change {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Change::Open { .. } => "didOpen",
            Change::Edit { .. } => "didChange",
            Change::Close { .. } => "didClose",
            Change::Disk { .. } => "didChangeWatchedFiles",
            Change::Rescan => "didSave",
            Change::Ran { .. } => "rustkeep test",
        }
    }

    fn apply(self, s: &mut State) {
        match self {
            Change::Open { path, text, version } => s.open(path, text, version),
            Change::Edit { uri, path, version, changes } => {
                if !s.change(&path, version, changes) {
                    log!("rustkeep-lsp: didChange for {} which was never opened, ignored", uri.as_ref());
                }
            }
            Change::Close { path } => s.close(&path),
            Change::Disk { paths } => s.disk_changed(&paths),
            Change::Rescan => s.reload_from_disk(),
            // A result that ended after an edit of its file is dropped: no failure (stderr is
            // for real failures only).
            Change::Ran { path, text, outcome } => {
                s.record_run(&path, text, outcome);
            }
        }
    }

    /// The files whose scenario runs under way this change makes stale.
    fn touches(&self) -> &[PathBuf] {
        match self {
            Change::Open { path, .. } | Change::Edit { path, .. } | Change::Close { path } => std::slice::from_ref(path),
            Change::Disk { paths } => paths,
            Change::Rescan | Change::Ran { .. } => &[],
        }
    }
}

/// `RUSTKEEP_LSP_PROFILE=<ms>`: log requests and analyses slower than this (read at start).
fn profile_threshold() -> Option<Duration> {
    std::env::var("RUSTKEEP_LSP_PROFILE").ok().and_then(|v| v.trim().parse::<f64>().ok()).filter(|ms| *ms >= 0.0).map(|ms| Duration::from_secs_f64(ms / 1e3))
}

pub(crate) fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Work for the state thread.
type Job = Box<dyn FnOnce() + Send>;

/// Starts the state thread; it ends when every sender of jobs is gone.
fn state_thread() -> std::sync::mpsc::Sender<Job> {
    let (tx, rx) = std::sync::mpsc::channel::<Job>();
    let spawned = std::thread::Builder::new().name("rustkeep-state".into()).spawn(move || {
        while let Ok(job) = rx.recv() {
            // Jobs catch their own panics; this keeps the thread alive should one slip through.
            if let Err(p) = catch_unwind(AssertUnwindSafe(job)) {
                log!("rustkeep-lsp: a job of the state thread panicked: {}", panic_message(&*p));
            }
        }
    });
    if let Err(e) = spawned {
        log!("rustkeep-lsp: cannot start the state thread: {e}");
    }
    tx
}

/// What the async side shares with the state thread and the publisher task.
pub(crate) struct Shared {
    pub(crate) state: Mutex<Option<State>>,
    /// Set once `initialize` has put a state in place.
    pub(crate) initialized: AtomicBool,
    pending: Mutex<VecDeque<Change>>,
    /// How many changes were received (queued) so far; the newest revision there will be.
    received: AtomicU64,
    pub(crate) to_publisher: UnboundedSender<ToPublisher>,
    jobs: std::sync::mpsc::Sender<Job>,
    /// Jobs sent to the state thread and not begun: the balance figures give way to them.
    pub(crate) queued_jobs: AtomicU64,
    pub(crate) hooks: TestHooks,
    pub(crate) profile: Option<Duration>,
    /// Per scenario file that was run: the generation of its newest run, advanced by every run
    /// started and every change of the file, so that a run under way knows it is stale.
    runs: Mutex<HashMap<PathBuf, u64>>,
    /// The balance figures' worker (run on this thread in turns), its store and the count of
    /// edits ([`crate::balance`]).
    pub(crate) balance: crate::balance::Balance,
    /// Wakes the balance scheduler (`balance_task.rs`): an edit arrived, or lenses were asked for.
    pub(crate) balance_wake: tokio::sync::Notify,
    /// The worker's signal that figures were added: the lenses are asked for again.
    pub(crate) balance_ready: Mutex<Option<UnboundedReceiver<()>>>,
    /// Whether the client asked for code lenses: only then are figures computed.
    pub(crate) lenses_asked: AtomicBool,
    /// The count of edits the newest balance job was made at (`u64::MAX`: none yet).
    pub(crate) balance_planned: AtomicU64,
}

/// Runs `f` on the state thread and waits for its result (`None` if the thread is gone).
pub(crate) async fn on_state_thread<T: Send + 'static>(shared: &Arc<Shared>, f: impl FnOnce(&Shared) -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let s = shared.clone();
    let job: Job = Box::new(move || {
        s.queued_jobs.fetch_sub(1, Ordering::SeqCst);
        let _ = tx.send(f(&s));
    });
    shared.queued_jobs.fetch_add(1, Ordering::SeqCst);
    if shared.jobs.send(job).is_err() {
        shared.queued_jobs.fetch_sub(1, Ordering::SeqCst);
        return None;
    }
    rx.await.ok()
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A handler that panicked while holding the lock leaves consistent data behind (the state
    // marks itself for a full reload while it works; see `State::refresh`), so a poisoned lock is
    // simply taken over.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "unknown panic".into())
}

pub(crate) fn internal_error(message: String) -> Error {
    Error { code: ErrorCode::InternalError, message: message.into(), data: None }
}

impl Shared {
    /// Starts the state thread; returns what it shares and the publisher's inbox.
    pub(crate) fn new() -> (Arc<Shared>, UnboundedReceiver<ToPublisher>) {
        let (tx, rx) = unbounded_channel();
        let (ready_tx, ready_rx) = unbounded_channel();
        let balance = crate::balance::Balance::new(Arc::default(), move || {
            let _ = ready_tx.send(());
        });
        let shared = Arc::new(Shared {
            state: Mutex::new(None),
            initialized: AtomicBool::new(false),
            pending: Mutex::new(VecDeque::new()),
            received: AtomicU64::new(0),
            to_publisher: tx,
            jobs: state_thread(),
            queued_jobs: AtomicU64::new(0),
            hooks: TestHooks::from_env(),
            profile: profile_threshold(),
            runs: Mutex::new(HashMap::new()),
            balance,
            balance_wake: tokio::sync::Notify::new(),
            balance_ready: Mutex::new(Some(ready_rx)),
            lenses_asked: AtomicBool::new(false),
            balance_planned: AtomicU64::new(u64::MAX),
        });
        (shared, rx)
    }

    pub(crate) fn received(&self) -> u64 {
        self.received.load(Ordering::SeqCst)
    }

    /// Queues a change (in arrival order) and wakes the publisher.
    pub(crate) fn queue(&self, change: Change) {
        self.make_runs_stale(change.touches());
        if !matches!(change, Change::Ran { .. }) {
            // The balance job under way is stale from here on; the scheduler waits for quiet.
            self.balance.edited();
            self.balance_wake.notify_one();
        }
        {
            let mut q = lock(&self.pending);
            q.push_back(change);
            self.received.fetch_add(1, Ordering::SeqCst);
        }
        let _ = self.to_publisher.send(ToPublisher::Wake);
    }

    /// Starts a run of the scenario file at `path`: its generation, which the run compares with
    /// [`Shared::run_is_current`] to know whether it is still wanted.
    pub(crate) fn begin_run(&self, path: &Path) -> u64 {
        let mut runs = lock(&self.runs);
        let g = runs.entry(path.to_path_buf()).or_insert(0);
        *g += 1;
        *g
    }

    /// Whether the run of `generation` is the newest of its file and no change of the file
    /// arrived since it began.
    pub(crate) fn run_is_current(&self, path: &Path, generation: u64) -> bool {
        lock(&self.runs).get(path) == Some(&generation)
    }

    /// A change of these files makes their runs under way stale (a map lookup per file: the
    /// keystroke path pays nothing more).
    fn make_runs_stale(&self, paths: &[PathBuf]) {
        if paths.is_empty() {
            return;
        }
        let mut runs = lock(&self.runs);
        for p in paths {
            if let Some(g) = runs.get_mut(p) {
                *g += 1;
            }
        }
    }

    /// Applies the queued changes to the state, in order; notes how long it took.
    fn apply_pending(&self, state: &mut State) {
        let start = Instant::now();
        let changes: Vec<Change> = lock(&self.pending).drain(..).collect();
        for c in changes {
            let what = c.name();
            if let Err(p) = catch_unwind(AssertUnwindSafe(|| c.apply(state))) {
                log!("rustkeep-lsp: {what} panicked: {}", panic_message(&*p));
            }
        }
        state.phases.apply = start.elapsed();
    }

    /// Applies the queued changes and brings the analysis up to date, starting over with the
    /// newer changes when a reload gives up for them (twice at most: someone typing faster than a
    /// reload must still get one). Whether anything was analysed.
    fn bring_up_to_date(&self, state: &mut State) -> bool {
        let mut analysed = false;
        for attempt in 0.. {
            self.apply_pending(state);
            let revision = state.revision;
            let stale = || attempt < 2 && self.received() > revision;
            match state.refresh_until(&stale) {
                Refreshed::Unchanged => return analysed,
                Refreshed::Done => return true,
                Refreshed::Cancelled => analysed = true,
            }
        }
        analysed
    }

    /// Brings the state up to date and runs `f` on it (on the state thread), turning a panic into
    /// an error response. An analysis this had to run goes to the publisher.
    pub(crate) fn run<T>(&self, method: &str, f: impl FnOnce(&State) -> Option<T>) -> Result<Option<T>> {
        let start = Instant::now();
        let mut guard = lock(&self.state);
        let waited = start.elapsed();
        let Some(state) = guard.as_mut() else { return Err(Error::invalid_request()) };
        let refreshed = match catch_unwind(AssertUnwindSafe(|| self.bring_up_to_date(state))) {
            Ok(r) => r,
            Err(p) => {
                log!("rustkeep-lsp: analysis for {method} panicked: {}", panic_message(&*p));
                return Err(internal_error(format!("{method} failed: the analysis panicked: {}", panic_message(&*p))));
            }
        };
        let analysed = start.elapsed();
        let batch = if refreshed { catch_unwind(AssertUnwindSafe(|| state.batch())).ok() } else { None };
        let handler = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| f(state)));
        let handled = handler.elapsed();
        let phases = state.phases;
        drop(guard);
        if let Some(b) = batch {
            self.hooks.jitter();
            let _ = self.to_publisher.send(ToPublisher::Batch(b));
        }
        if self.profile.is_some_and(|t| start.elapsed() > t) {
            let analysis = if refreshed { format!("analysis ({phases})") } else { "no analysis".into() };
            log!(
                "rustkeep-lsp: {method} took {:.1} ms: waiting for the state {:.1} ms, {analysis} {:.1} ms, handler {:.1} ms",
                ms(start.elapsed()),
                ms(waited),
                ms(analysed - waited),
                ms(handled)
            );
        }
        result.map_err(|p| {
            log!("rustkeep-lsp: {method} panicked: {}", panic_message(&*p));
            internal_error(format!("{method} failed: {}", panic_message(&*p)))
        })
    }

    /// The publisher's analysis: the newest revision's diagnostics, or `None` when nothing
    /// changed since the revision `last` that was already accepted.
    pub(crate) fn analyze_for_publish(&self, last: Option<u64>) -> Option<(Batch, Phases)> {
        let batch = {
            let mut guard = lock(&self.state);
            let state = guard.as_mut()?;
            match catch_unwind(AssertUnwindSafe(|| {
                let refreshed = self.bring_up_to_date(state);
                (refreshed || last != Some(state.revision)).then(|| (state.batch(), state.phases))
            })) {
                Ok(b) => b,
                Err(p) => {
                    log!("rustkeep-lsp: analysis panicked: {}", panic_message(&*p));
                    None
                }
            }
        };
        if batch.is_some() {
            self.hooks.jitter();
        }
        batch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_of_the_file_or_a_newer_run_makes_a_run_stale() {
        let (shared, _rx) = Shared::new();
        let (a, b) = (PathBuf::from("/ws/m/scenarios/a.toml"), PathBuf::from("/ws/m/scenarios/b.toml"));
        let first = shared.begin_run(&a);
        assert!(shared.run_is_current(&a, first));
        // Another file's change, a rescan and a run's own outcome leave it alone.
        shared.queue(Change::Close { path: b.clone() });
        shared.queue(Change::Rescan);
        shared.queue(Change::Ran { path: a.clone(), text: Arc::from(""), outcome: Outcome::Ran(Vec::new()) });
        assert!(shared.run_is_current(&a, first));
        shared.queue(Change::Edit { uri: crate::uri::from_path(&a), path: a.clone(), version: 2, changes: Vec::new() });
        assert!(!shared.run_is_current(&a, first), "an edit of the file");
        let second = shared.begin_run(&a);
        assert!(shared.run_is_current(&a, second));
        let third = shared.begin_run(&a);
        assert!(!shared.run_is_current(&a, second) && shared.run_is_current(&a, third), "a newer run");
        shared.queue(Change::Disk { paths: vec![b, a.clone()] });
        assert!(!shared.run_is_current(&a, third), "a change on disk");
    }
}
