//! The tower-lsp-server glue: capabilities, text sync, the publisher, and the panic guard around
//! every handler. No analysis happens here.
//!
//! The publication model (the invariant: what a client was last sent for a file always reflects
//! the newest texts, and never goes backwards):
//! - **Notifications** (`didOpen`, `didChange`, `didClose`, watched files) never wait for an
//!   analysis: each is queued as a [`Change`] in arrival order, counted in `received`, and wakes
//!   the publisher. Nothing else is done on the async workers.
//! - **The state** ([`State`], one mutex) is only touched on one thread of its own, the state
//!   thread, which runs the jobs the async side hands it (a request, the publisher's analysis) in
//!   the order they come. Whichever job comes first applies the queued changes in order — each
//!   advances the state's revision by one — and brings the analysis up to date. A request then
//!   runs its handler on it; an analysis a request had to run is handed to the publisher as a
//!   [`Batch`] tagged with its revision. (One thread, not a pool: the analysis's memory then stays
//!   in one allocator arena instead of spreading over every worker that ever held the state.)
//! - **One publisher task** owns publication. On a wake-up it has the newest revision analysed (on
//!   the state thread), then offers every batch it holds to its [`Publisher`], which drops a
//!   batch older than one already published and sends exactly the files whose lists changed,
//!   each tagged with the version of the document it was computed from. A batch older than the
//!   newest change received is not sent either: that change's own wake-up follows, so edits that
//!   arrive while an analysis runs coalesce into the next one.
//! - **Cancellation**: a reload (the first load, a manifest edit) gives up between its phases
//!   when a newer change arrives; what it lowered is kept, and the newer revision is analysed
//!   instead of one nobody will see. An edit of known files takes milliseconds and always runs to
//!   its end.
//! - **Profile**: with `RUSTKEEP_LSP_PROFILE=<ms>`, every request and every analysis that takes
//!   longer is logged to stderr with its phases (see [`crate::state::Phases`]).

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

pub use crate::setup::{capabilities, negotiate, roots, Loaded};

use crate::handlers;

use crate::lsp::*;
use crate::publish::{Batch, Publisher};
use crate::state::{Phases, Refreshed, State};
use crate::uri;

pub struct Backend {
    client: Client,
    shared: Arc<Shared>,
    /// Where the core's files are written for go-to-definition; `None`: [`crate::core_files::cache_dir`].
    core_cache: Option<PathBuf>,
    /// Whether the client may register capabilities dynamically (the file watcher needs it).
    dynamic_watch: AtomicBool,
    /// Whether the file watcher is registered; without it, saves and opens re-read the disk.
    watching: AtomicBool,
    /// Set by `shutdown`: an `exit` without it ends the process with code 1.
    shutdown: Arc<AtomicBool>,
    /// The startup line, sent to the client's log once it is initialized.
    started: Mutex<Option<String>>,
    /// What the first load found, sent as [`Loaded`] once the client is initialized.
    loaded: Mutex<Option<serde_json::Value>>,
}

/// A text-sync notification waiting to be applied; each becomes exactly one revision of the state.
enum Change {
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
}

impl Change {
    fn name(&self) -> &'static str {
        match self {
            Change::Open { .. } => "didOpen",
            Change::Edit { .. } => "didChange",
            Change::Close { .. } => "didClose",
            Change::Disk { .. } => "didChangeWatchedFiles",
            Change::Rescan => "didSave",
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
        }
    }
}

/// What the publisher task is told.
enum ToPublisher {
    /// A change was received: analyse the newest revision and publish.
    Wake,
    /// An analysis a request ran.
    Batch(Batch),
}

/// `RUSTKEEP_LSP_PROFILE=<ms>`: log requests and analyses slower than this (read at start).
fn profile_threshold() -> Option<Duration> {
    std::env::var("RUSTKEEP_LSP_PROFILE").ok().and_then(|v| v.trim().parse::<f64>().ok()).filter(|ms| *ms >= 0.0).map(|ms| Duration::from_secs_f64(ms / 1e3))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Switches for the stdio differential test (environment variables read at start; unset in
/// normal use).
#[derive(Clone, Copy, Debug, Default)]
struct TestHooks {
    /// `RUSTKEEP_LSP_TEST_JITTER_MS`: wait up to this long (pseudo-randomly) before handing an
    /// analysis to the publisher, so that races between analyses and edits become likely.
    jitter_ms: u64,
    /// `RUSTKEEP_LSP_TEST_UNGUARDED=1`: publish every analysis in the order it arrives, without
    /// the ordering guard (the test proves it then fails).
    unguarded: bool,
}

impl TestHooks {
    fn from_env() -> TestHooks {
        TestHooks {
            jitter_ms: std::env::var("RUSTKEEP_LSP_TEST_JITTER_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(0),
            unguarded: std::env::var("RUSTKEEP_LSP_TEST_UNGUARDED").is_ok_and(|v| v == "1"),
        }
    }

    fn jitter(&self) {
        if self.jitter_ms == 0 {
            return;
        }
        // Scheduling noise, not a statistic: the clock's low bits are random enough.
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos() as u64).unwrap_or(0);
        std::thread::sleep(Duration::from_micros((nanos / 7) % (self.jitter_ms * 1000 + 1)));
    }
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
struct Shared {
    state: Mutex<Option<State>>,
    /// Set once `initialize` has put a state in place.
    initialized: AtomicBool,
    pending: Mutex<VecDeque<Change>>,
    /// How many changes were received (queued) so far; the newest revision there will be.
    received: AtomicU64,
    to_publisher: UnboundedSender<ToPublisher>,
    jobs: std::sync::mpsc::Sender<Job>,
    hooks: TestHooks,
    profile: Option<Duration>,
}

/// Runs `f` on the state thread and waits for its result (`None` if the thread is gone).
async fn on_state_thread<T: Send + 'static>(shared: &Arc<Shared>, f: impl FnOnce(&Shared) -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let s = shared.clone();
    let job: Job = Box::new(move || {
        let _ = tx.send(f(&s));
    });
    shared.jobs.send(job).ok()?;
    rx.await.ok()
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A handler that panicked while holding the lock leaves consistent data behind (the state
    // marks itself for a full reload while it works; see `State::refresh`), so a poisoned lock is
    // simply taken over.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "unknown panic".into())
}

fn internal_error(message: String) -> Error {
    Error { code: ErrorCode::InternalError, message: message.into(), data: None }
}

impl Shared {
    fn received(&self) -> u64 {
        self.received.load(Ordering::SeqCst)
    }

    /// Queues a change (in arrival order) and wakes the publisher.
    fn queue(&self, change: Change) {
        {
            let mut q = lock(&self.pending);
            q.push_back(change);
            self.received.fetch_add(1, Ordering::SeqCst);
        }
        let _ = self.to_publisher.send(ToPublisher::Wake);
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
    fn run<T>(&self, method: &str, f: impl FnOnce(&State) -> Option<T>) -> Result<Option<T>> {
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
    fn analyze_for_publish(&self, last: Option<u64>) -> Option<(Batch, Phases)> {
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

/// The one task that sends `textDocument/publishDiagnostics` (see the module docs).
async fn publish_loop(shared: Arc<Shared>, client: Client, mut rx: UnboundedReceiver<ToPublisher>) {
    let mut publisher = Publisher::new(shared.hooks.unguarded);
    while let Some(first) = rx.recv().await {
        let mut wake = false;
        let mut batches = Vec::new();
        let mut take = |m: ToPublisher| match m {
            ToPublisher::Wake => wake = true,
            ToPublisher::Batch(b) => batches.push(b),
        };
        take(first);
        while let Ok(m) = rx.try_recv() {
            take(m);
        }
        let start = Instant::now();
        let mut phases = None;
        if wake {
            let s = shared.clone();
            let last = publisher.last_revision();
            match on_state_thread(&s, move |s| s.analyze_for_publish(last)).await {
                Some(Some((b, p))) => {
                    batches.push(b);
                    phases = Some(p);
                }
                Some(None) => {}
                None => log!("rustkeep-lsp: the state thread is gone"),
            }
        }
        let publishing = Instant::now();
        let mut sent = 0;
        for batch in batches {
            // A change newer than this batch was received: its own wake-up brings a newer batch.
            if !shared.hooks.unguarded && batch.revision < shared.received() {
                continue;
            }
            let revision = batch.revision;
            for (u, diags, version) in publisher.accept(batch) {
                client.publish_diagnostics(u, diags, version).await;
                sent += 1;
            }
            if let Some(p) = phases.as_mut().filter(|_| shared.profile.is_some_and(|t| start.elapsed() > t)) {
                p.publish += publishing.elapsed();
                log!("rustkeep-lsp: analysis of revision {revision} took {:.1} ms ({p}; {sent} lists sent)", ms(start.elapsed()));
            }
        }
    }
}

impl Backend {
    #[cfg(test)]
    fn new(client: Client, core_cache: Option<PathBuf>) -> Backend {
        Backend::with_shutdown_flag(client, core_cache, Arc::new(AtomicBool::new(false)))
    }

    fn with_shutdown_flag(client: Client, core_cache: Option<PathBuf>, shutdown: Arc<AtomicBool>) -> Backend {
        let (tx, rx) = unbounded_channel();
        let shared = Arc::new(Shared {
            state: Mutex::new(None),
            initialized: AtomicBool::new(false),
            pending: Mutex::new(VecDeque::new()),
            received: AtomicU64::new(0),
            to_publisher: tx,
            jobs: state_thread(),
            hooks: TestHooks::from_env(),
            profile: profile_threshold(),
        });
        tokio::spawn(publish_loop(shared.clone(), client.clone(), rx));
        Backend {
            client,
            shared,
            core_cache,
            dynamic_watch: AtomicBool::new(false),
            watching: AtomicBool::new(false),
            shutdown,
            started: Mutex::new(None),
            loaded: Mutex::new(None),
        }
    }

    /// Without a file watcher, changes made outside the editor (a `git checkout`, a generator)
    /// reach the server only when the disk is read again: on every save and open.
    fn rescan_without_watcher(&self) {
        if !self.watching.load(Ordering::SeqCst) {
            self.notify(Change::Rescan);
        }
    }

    /// Runs `f` on the up-to-date state on the state thread, turning a panic into an error.
    async fn request<T: Send + 'static>(&self, method: &'static str, f: impl FnOnce(&State) -> Option<T> + Send + 'static) -> Result<Option<T>> {
        let shared = self.shared.clone();
        match on_state_thread(&shared, move |s| s.run(method, f)).await {
            Some(r) => r,
            None => Err(internal_error(format!("{method} failed: the state thread is gone"))),
        }
    }

    /// Like [`Self::request`] for handlers that may refuse (rename): a refusal becomes an
    /// `InvalidParams` error carrying the handler's message, which clients show to the user.
    async fn request_or_refuse<T: Send + 'static>(
        &self,
        method: &'static str,
        f: impl FnOnce(&State) -> std::result::Result<T, String> + Send + 'static,
    ) -> Result<Option<T>> {
        let r = self.request(method, |s| Some(f(s))).await?;
        match r {
            Some(Ok(v)) => Ok(Some(v)),
            Some(Err(msg)) => Err(Error::invalid_params(msg)),
            None => Ok(None),
        }
    }

    /// Queues a text-sync change; see the module docs.
    fn notify(&self, change: Change) {
        if !self.shared.initialized.load(Ordering::SeqCst) {
            log!("rustkeep-lsp: {} before initialize, ignored", change.name());
            return;
        }
        self.shared.queue(change);
    }
}

fn path_of(u: &Uri) -> Option<PathBuf> {
    let p = uri::to_path(u);
    if p.is_none() {
        log!("rustkeep-lsp: not a file URI, ignored: {}", u.as_ref());
    }
    p
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let enc = negotiate(&params);
        let roots = roots(&params);
        let cache = self.core_cache.clone().unwrap_or_else(crate::core_files::cache_dir);
        let core_dir = match crate::core_files::materialize(&cache) {
            Ok(d) => Some(d),
            Err(e) => {
                log!("rustkeep-lsp: cannot write the core files for go-to-definition: {e}");
                None
            }
        };
        let dynamic =
            params.capabilities.workspace.as_ref().and_then(|w| w.did_change_watched_files.as_ref()).and_then(|d| d.dynamic_registration).unwrap_or(false);
        self.dynamic_watch.store(dynamic, Ordering::SeqCst);
        // Clients log standard error as errors: what is merely informative goes to the client's
        // log as information, once the connection is up (`initialized`).
        let line = format!("rustkeep {}: roots {roots:?}, encoding {enc:?}, core served from {core_dir:?}", env!("CARGO_PKG_VERSION"));
        if let Ok(mut g) = self.started.lock() {
            *g = Some(line);
        }
        // The first load reads and analyses the whole workspace: the state thread's work.
        let started = Instant::now();
        let loaded =
            on_state_thread(&self.shared, move |_| catch_unwind(AssertUnwindSafe(|| State::new(roots, enc, core_dir))).map_err(|p| panic_message(&*p))).await;
        let state = match loaded {
            Some(Ok(s)) => {
                if self.shared.profile.is_some_and(|t| started.elapsed() > t) {
                    log!("rustkeep-lsp: loading the workspace took {:.1} ms ({})", ms(started.elapsed()), s.phases);
                }
                s
            }
            Some(Err(msg)) => {
                log!("rustkeep-lsp: loading the workspace panicked: {msg}");
                return Err(Error::internal_error());
            }
            None => return Err(internal_error("loading the workspace failed: the state thread is gone".into())),
        };
        let mods = state.project.mods.iter().filter(|m| !m.is_core);
        let loaded = serde_json::json!({ "mods": mods.clone().count(), "files": mods.map(|m| m.data_files.len()).sum::<usize>() });
        *lock(&self.loaded) = Some(loaded);
        *lock(&self.shared.state) = Some(state);
        self.shared.initialized.store(true, Ordering::SeqCst);
        Ok(InitializeResult {
            capabilities: capabilities(enc),
            server_info: Some(ServerInfo { name: "rustkeep".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        let started = self.started.lock().ok().and_then(|mut g| g.take());
        if let Some(line) = started {
            self.client.log_message(MessageType::Info, line).await;
        }
        let loaded = lock(&self.loaded).take();
        if let Some(params) = loaded {
            self.client.send_notification::<Loaded>(params).await;
        }
        // Watch data files so that edits outside the editor reload unopened files — where the
        // client can register a watcher. Registering with one that cannot only makes it log a
        // warning (Neovim 0.7); saves and opens re-read the disk instead.
        if self.dynamic_watch.load(Ordering::SeqCst) {
            let opts = serde_json::json!({ "watchers": [ { "globPattern": "**/*.toml" } ] });
            let reg = Registration { id: "rustkeep-watch".into(), method: "workspace/didChangeWatchedFiles".into(), register_options: Some(opts) };
            match self.client.register_capability(vec![reg]).await {
                Ok(()) => self.watching.store(true, Ordering::SeqCst),
                Err(e) => {
                    let msg = format!(
                        "rustkeep: the client did not register the file watcher ({e:?}); files changed outside the editor are read again on save and open"
                    );
                    self.client.log_message(MessageType::Warning, msg).await;
                }
            }
        } else {
            let msg = "rustkeep: the client cannot register a file watcher; files changed outside the editor are read again on save and open";
            self.client.log_message(MessageType::Info, msg).await;
        }
        let _ = self.shared.to_publisher.send(ToPublisher::Wake);
    }

    async fn shutdown(&self) -> Result<()> {
        self.shutdown.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_save(&self, _: DidSaveTextDocumentParams) {
        self.rescan_without_watcher();
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let d = params.text_document;
        let Some(path) = path_of(&d.uri) else { return };
        self.notify(Change::Open { path, text: d.text, version: d.version });
        self.rescan_without_watcher();
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let u = params.text_document.text_document_identifier.uri;
        let Some(path) = path_of(&u) else { return };
        self.notify(Change::Edit { uri: u, path, version: params.text_document.version, changes: params.content_changes });
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let Some(path) = path_of(&params.text_document.uri) else { return };
        self.notify(Change::Close { path });
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let paths: Vec<PathBuf> = params.changes.iter().filter_map(|c| uri::to_path(&c.uri)).collect();
        self.notify(Change::Disk { paths });
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        self.request("completion", move |s| {
            // A plain array unless IDs were left out, which only a list can say.
            handlers::completion::completion_list(s, &params.text_document_position_params).map(|l| {
                if l.is_incomplete {
                    CompletionResponse::CompletionList(l)
                } else {
                    CompletionResponse::CompletionItemList(l.items)
                }
            })
        })
        .await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        self.request("hover", move |s| {
            #[cfg(test)]
            tests::panic_on_magic_word(s, &params.text_document_position_params);
            handlers::hover::hover(s, &params.text_document_position_params)
        })
        .await
    }

    async fn goto_definition(&self, params: DefinitionParams) -> Result<Option<DefinitionResponse>> {
        self.request("definition", move |s| {
            let locs = handlers::definition::definition(s, &params.text_document_position_params)?;
            Some(DefinitionResponse::Definition(Definition::LocationList(locs)))
        })
        .await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        self.request("references", move |s| handlers::references::references(s, &params.text_document_position_params, params.context.include_declaration))
            .await
    }

    async fn document_highlight(&self, params: DocumentHighlightParams) -> Result<Option<Vec<DocumentHighlight>>> {
        self.request("documentHighlight", move |s| handlers::document_highlight::document_highlight(s, &params.text_document_position_params)).await
    }

    async fn prepare_rename(&self, params: TextDocumentPositionParams) -> Result<Option<PrepareRenameResult>> {
        self.request_or_refuse("prepareRename", move |s| handlers::rename::prepare(s, &params).map(PrepareRenameResult::Range)).await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        self.request_or_refuse("rename", move |s| handlers::rename::rename(s, &params.text_document_position_params, &params.new_name)).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<Vec<CodeActionResponse>>> {
        self.request("codeAction", move |s| handlers::code_action::code_actions(s, &params.text_document.uri, params.range)).await
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        self.request("documentSymbol", move |s| {
            handlers::document_symbol::document_symbols(s, &params.text_document.uri).map(DocumentSymbolResponse::DocumentSymbolList)
        })
        .await
    }

    async fn symbol(&self, params: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
        self.request("workspaceSymbol", move |s| {
            Some(WorkspaceSymbolResponse::SymbolInformationList(handlers::workspace_symbol::workspace_symbols(s, &params.query)))
        })
        .await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.request("inlayHint", move |s| handlers::inlay_hint::inlay_hints(s, &params.text_document.uri, params.range)).await
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokens>> {
        self.request("semanticTokens", move |s| handlers::semantic_tokens::full(s, &params.text_document.uri)).await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.request("formatting", move |s| handlers::formatting::formatting(s, &params.text_document.uri)).await
    }

    async fn range_formatting(&self, params: DocumentRangeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        self.request("rangeFormatting", move |s| handlers::range_formatting::range_formatting(s, &params.text_document.uri, params.range)).await
    }
}

impl Backend {
    /// Stands in for a message that was not JSON (see [`crate::stdio`]).
    async fn parse_error(&self) -> Result<()> {
        Err(Error::parse_error())
    }

    /// Stands in for JSON that was no JSON-RPC message (see [`crate::stdio`]).
    async fn invalid_request(&self) -> Result<()> {
        Err(Error::invalid_request())
    }
}

/// How long the server may finish its work once the client sent `exit` or closed stdin.
pub const GRACE_AFTER_EOF: Duration = Duration::from_secs(2);

/// Serves on stdin/stdout until `exit` or until the client closes stdin (at most
/// [`GRACE_AFTER_EOF`] later: a request to the client that will never be answered must not keep
/// the process alive). Input goes through [`crate::stdio::sanitize`] so that malformed messages get
/// JSON-RPC errors instead of ending the connection. Returns whether `shutdown` came first (the
/// process then exits with 0, else with 1, as the protocol asks).
pub async fn serve_stdio() -> bool {
    let shutdown = Arc::new(AtomicBool::new(false));
    let flag = shutdown.clone();
    let (service, socket) = LspService::build(move |client| Backend::with_shutdown_flag(client, None, flag))
        .custom_method(crate::stdio::PARSE_ERROR_METHOD, Backend::parse_error)
        .custom_method(crate::stdio::INVALID_REQUEST_METHOD, Backend::invalid_request)
        .finish();
    let (server_in, sanitized) = tokio::io::duplex(64 * 1024);
    let pump = async {
        crate::stdio::sanitize(tokio::io::stdin(), sanitized).await;
        tokio::time::sleep(GRACE_AFTER_EOF).await;
    };
    tokio::select! {
        _ = Server::new(server_in, tokio::io::stdout(), socket).serve(service) => {}
        _ = pump => log!("rustkeep-lsp: the client is gone (`exit` or end of input) but work was pending; exiting"),
    }
    shutdown.load(Ordering::SeqCst)
}

#[cfg(test)]
mod tests {
    //! The panic guard, through the real request path of the service (JSON-RPC in, JSON-RPC out).
    //! The panic is injected by a hook that exists only in test builds.

    use std::future::poll_fn;
    use std::path::Path;

    use serde_json::{json, Value};
    use tower_lsp_server::jsonrpc::{ErrorCode, Request, Response};
    use tower_service::Service;

    use super::*;

    /// Hovering this word panics inside the handler (test builds only).
    pub const PANIC_WORD: &str = "rustkeep_test_panic";

    pub fn panic_on_magic_word(s: &State, p: &TextDocumentPositionParams) {
        let Some((fid, offset)) = s.locate(p) else { return };
        let text = s.text(fid);
        let start = text[..offset].rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
        if text[start..].starts_with(PANIC_WORD) {
            panic!("the test hook was hovered");
        }
    }

    async fn call(service: &mut LspService<Backend>, id: i64, method: &'static str, params: Value) -> Option<Response> {
        poll_fn(|cx| service.poll_ready(cx)).await.expect("the service is ready");
        let mut req = Request::build(method).params(params);
        if id > 0 {
            req = req.id(id);
        }
        service.call(req.finish()).await.expect("the service answers")
    }

    fn file_uri(p: &Path) -> String {
        crate::uri::from_path(p).as_ref().to_string()
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_with_an_error_and_the_server_keeps_serving() {
        let ws = std::env::temp_dir().join(format!("rustkeep-lsp-panic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&ws);
        let m = ws.join("testmod");
        std::fs::create_dir_all(&m).unwrap();
        std::fs::write(m.join("mod.toml"), "[mod]\nid = \"testmod\"\nname = \"Test\"\nversion = \"0.1.0\"\n").unwrap();
        let text = format!("# {PANIC_WORD}\n[[quests]]\nid = \"testmod:q\"\nname = \"Q\"\non = \"creature_died\"\n");
        std::fs::write(m.join("quests.toml"), &text).unwrap();
        let core_cache = ws.join("cache");
        let (mut service, _socket) = LspService::new(|client| Backend::new(client, Some(core_cache)));

        let init = call(&mut service, 1, "initialize", json!({ "processId": null, "rootUri": file_uri(&ws), "capabilities": {} })).await.unwrap();
        assert!(init.is_ok(), "{init:?}");
        let uri = file_uri(&m.join("quests.toml"));
        let opened =
            call(&mut service, 0, "textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "toml", "version": 1, "text": text } })).await;
        assert!(opened.is_none(), "a notification has no answer");

        let hover = |line: u32, character: u32| json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } });
        // The hook panics: the client gets an internal error naming the method, not a dead server.
        let r = call(&mut service, 2, "textDocument/hover", hover(0, 4)).await.unwrap();
        let err = r.error().expect("an error response");
        assert_eq!(err.code, ErrorCode::InternalError);
        assert!(err.message.contains("hover failed") && err.message.contains("test hook"), "{err:?}");

        // The same server, the same state (the lock was released and is taken over): the event still
        // hovers, and another method works too.
        let r = call(&mut service, 3, "textDocument/hover", hover(4, 8)).await.unwrap();
        let contents = r.result().expect("a result")["contents"].to_string();
        assert!(contents.contains("creature_died"), "{contents}");
        let r = call(&mut service, 4, "textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } })).await.unwrap();
        assert!(r.result().expect("a result").to_string().contains("testmod:q"), "{r:?}");
        let _ = std::fs::remove_dir_all(&ws);
    }
}
