//! The tower-lsp-server glue: the [`LanguageServer`] methods, the custom methods of the input
//! sanitizer, and serving on stdin/stdout. No analysis happens here.
//!
//! A notification (`didOpen`, `didChange`, `didClose`, watched files, a save without a file
//! watcher) never waits for an analysis: it becomes a `Change` queued for the state thread
//! (`state_thread.rs`), and the publisher ([`crate::publish`]) is woken. A request becomes a
//! job on the state thread that runs its handler ([`crate::handlers`]) on the up-to-date state,
//! behind the panic guard, and its result is wrapped in the response type the protocol asks for.
//! A save of a scenario file and the code lens's command (`workspace/executeCommand`) start a
//! scenario run (`run_task.rs`), which runs off the state thread; a save does not wait for it.
//! The balance figures have a scheduler and a worker of their own (`balance_task.rs`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

pub use crate::setup::{capabilities, negotiate, roots, Loaded};

use crate::handlers;
use crate::{balance, balance_task};

use crate::lsp::*;
use crate::publish::ToPublisher;
use crate::publish_task::publish_loop;
use crate::run_task::{self, Trigger};
use crate::scenario_runs;
use crate::state::State;
use crate::state_thread::{internal_error, lock, ms, on_state_thread, panic_message, Change, Shared};
use crate::uri;

pub struct Backend {
    client: Client,
    shared: Arc<Shared>,
    /// Where the core's files are written for go-to-definition; `None`: [`rustkeep_data::project::core_files::cache_dir`].
    core_cache: Option<PathBuf>,
    /// Whether the client may register capabilities dynamically (the file watcher needs it).
    dynamic_watch: AtomicBool,
    /// Whether the file watcher is registered; without it, saves and opens re-read the disk.
    watching: AtomicBool,
    /// Whether the client asks for code lenses again when told (`workspace/codeLens/refresh`):
    /// the lens of a scenario file then shows its last run.
    lens_refresh: Arc<AtomicBool>,
    /// Set by `shutdown`: an `exit` without it ends the process with code 1.
    shutdown: Arc<AtomicBool>,
    /// The startup line, sent to the client's log once it is initialized.
    started: Mutex<Option<String>>,
    /// What the first load found, sent as [`Loaded`] once the client is initialized.
    loaded: Mutex<Option<serde_json::Value>>,
}

impl Backend {
    #[cfg(test)]
    fn new(client: Client, core_cache: Option<PathBuf>) -> Backend {
        Backend::with_shutdown_flag(client, core_cache, Arc::new(AtomicBool::new(false)))
    }

    fn with_shutdown_flag(client: Client, core_cache: Option<PathBuf>, shutdown: Arc<AtomicBool>) -> Backend {
        let (shared, rx) = Shared::new();
        tokio::spawn(publish_loop(shared.clone(), client.clone(), rx));
        let lens_refresh = Arc::new(AtomicBool::new(false));
        tokio::spawn(balance_task::schedule_loop(shared.clone()));
        tokio::spawn(balance_task::refresh_loop(shared.clone(), client.clone(), lens_refresh.clone()));
        Backend {
            client,
            shared,
            core_cache,
            dynamic_watch: AtomicBool::new(false),
            watching: AtomicBool::new(false),
            lens_refresh,
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

    /// Runs the scenario file `u` in the background (a save: see `run_task.rs`); the
    /// notification does not wait for it.
    fn run_after_save(&self, u: Uri) {
        if !self.shared.initialized.load(Ordering::SeqCst) {
            return;
        }
        let (shared, client, refresh) = (self.shared.clone(), self.client.clone(), self.lens_refresh.clone());
        tokio::spawn(async move {
            if let Ok(Some(_)) = run_task::run_scenario(shared, u, Trigger::Save).await {
                refresh_lenses(&client, &refresh);
            }
        });
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
        let cache = self.core_cache.clone().unwrap_or_else(rustkeep_data::project::core_files::cache_dir);
        let core_dir = match rustkeep_data::project::core_files::materialize(&cache) {
            Ok(d) => Some(d),
            Err(e) => {
                log!("rustkeep-lsp: cannot write the core files for go-to-definition: {e}");
                None
            }
        };
        let dynamic =
            params.capabilities.workspace.as_ref().and_then(|w| w.did_change_watched_files.as_ref()).and_then(|d| d.dynamic_registration).unwrap_or(false);
        self.dynamic_watch.store(dynamic, Ordering::SeqCst);
        let refresh = params.capabilities.workspace.as_ref().and_then(|w| w.code_lens.as_ref()).and_then(|c| c.refresh_support).unwrap_or(false);
        self.lens_refresh.store(refresh, Ordering::SeqCst);
        // Clients log standard error as errors: what is merely informative goes to the client's
        // log as information, once the connection is up (`initialized`).
        let line = crate::setup::startup_line(env!("CARGO_PKG_VERSION"), &roots, enc, core_dir.as_deref());
        if let Ok(mut g) = self.started.lock() {
            *g = Some(line);
        }
        // The first load reads and analyses the whole workspace: the state thread's work.
        let started = Instant::now();
        let loaded =
            on_state_thread(&self.shared, move |_| catch_unwind(AssertUnwindSafe(|| State::new(roots, enc, core_dir))).map_err(|p| panic_message(&*p))).await;
        let state = match loaded {
            Some(Ok(mut s)) => {
                s.balance = self.shared.balance.store.clone();
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
        *lock(&self.loaded) = Some(crate::setup::loaded_counts(&state.project));
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

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        self.rescan_without_watcher();
        self.run_after_save(params.text_document.uri);
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
            panic_on_magic_word(s, &params.text_document_position_params);
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

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        balance_task::lenses_asked(&self.shared);
        self.request("codeLens", move |s| handlers::code_lens::code_lenses(s, &params.text_document.uri)).await
    }

    /// `rustkeep.runScenario URI`: runs the scenario (its text in the editor), publishes its
    /// failures as after a save, tells the user the result (`window/showMessage`) and answers
    /// `{ "passed": N, "failed": N, "ran": bool, "message": "…" }`.
    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LspAny>> {
        if params.command == balance::SHOW_COMMAND {
            let args = params.arguments.unwrap_or_default();
            return self.request_or_refuse("rustkeep.showBalance", move |s| handlers::code_lens::show_balance(s, &args)).await;
        }
        if params.command != scenario_runs::RUN_COMMAND {
            return Err(Error::invalid_params(format!("unknown command `{}`", params.command)));
        }
        let arg = params.arguments.unwrap_or_default().into_iter().next();
        let target = arg.as_ref().and_then(|a| a.as_str().or_else(|| a.get("uri").and_then(|u| u.as_str())));
        let Some(target) = target else {
            return Err(Error::invalid_params(format!("`{}` takes the URI of a scenario file", scenario_runs::RUN_COMMAND)));
        };
        let (kind, message, counts, ran) = match run_task::run_scenario(self.shared.clone(), Uri::from(target.to_string()), Trigger::Command).await {
            Ok(Some(f)) => {
                let (kind, message) = scenario_runs::message(&f.text, &f.outcome);
                (kind, message, f.outcome.counts(), matches!(f.outcome, scenario_runs::Outcome::Ran(_)))
            }
            Ok(None) => (MessageType::Warning, format!("{}: the run was given up", scenario_runs::SOURCE), (0, 0), false),
            Err(why) => (MessageType::Warning, format!("{}: not run: {why}", scenario_runs::SOURCE), (0, 0), false),
        };
        self.client.show_message(kind, &message).await;
        refresh_lenses(&self.client, &self.lens_refresh);
        Ok(Some(serde_json::json!({ "passed": counts.0, "failed": counts.1, "ran": ran, "message": message })))
    }
}

/// Asks the client for the code lenses again (their titles show the last run), where it can be
/// asked; not waited for: a client that never answers must not hold anything up.
fn refresh_lenses(client: &Client, supported: &AtomicBool) {
    if supported.load(Ordering::SeqCst) {
        let client = client.clone();
        tokio::spawn(async move {
            let _ = client.code_lens_refresh().await;
        });
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
    serve(tokio::io::stdin(), tokio::io::stdout(), None).await
}

/// [`serve_stdio`] on any pair of streams (the tests' in-process clients), the bundled core's
/// files written to `core_cache` (`None`: [`rustkeep_data::project::core_files::cache_dir`]).
pub async fn serve<I, O>(input: I, output: O, core_cache: Option<PathBuf>) -> bool
where
    I: tokio::io::AsyncRead + Unpin,
    O: tokio::io::AsyncWrite,
{
    let shutdown = Arc::new(AtomicBool::new(false));
    let flag = shutdown.clone();
    let (service, socket) = LspService::build(move |client| Backend::with_shutdown_flag(client, core_cache, flag))
        .custom_method(crate::stdio::PARSE_ERROR_METHOD, Backend::parse_error)
        .custom_method(crate::stdio::INVALID_REQUEST_METHOD, Backend::invalid_request)
        .finish();
    let (server_in, sanitized) = tokio::io::duplex(64 * 1024);
    let pump = async {
        crate::stdio::sanitize(input, sanitized).await;
        tokio::time::sleep(GRACE_AFTER_EOF).await;
    };
    tokio::select! {
        _ = Server::new(server_in, output, socket).serve(service) => {}
        _ = pump => log!("rustkeep-lsp: the client is gone (`exit` or end of input) but work was pending; exiting"),
    }
    shutdown.load(Ordering::SeqCst)
}

/// Panics when the hovered word is [`crate::test_hooks::PANIC_WORD`] (test builds only).
#[cfg(test)]
pub(crate) fn panic_on_magic_word(s: &crate::state::State, p: &crate::lsp::TextDocumentPositionParams) {
    let Some((fid, offset)) = s.locate(p) else { return };
    let text = s.text(fid);
    let start = text[..offset].rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |i| i + 1);
    if text[start..].starts_with(crate::test_hooks::PANIC_WORD) {
        panic!("the test hook was hovered");
    }
}

#[cfg(test)]
mod tests {
    //! The panic guard, through the real request path of the service (JSON-RPC in, JSON-RPC out).
    //! The panic is injected by a hook that exists only in test builds.

    use std::future::poll_fn;

    use rustkeep_testutil::{file_uri, TempDir};
    use serde_json::{json, Value};
    use tower_lsp_server::jsonrpc::{ErrorCode, Request, Response};
    use tower_service::Service;

    use super::*;
    use crate::test_hooks::PANIC_WORD;

    async fn call(service: &mut LspService<Backend>, id: i64, method: &'static str, params: Value) -> Option<Response> {
        poll_fn(|cx| service.poll_ready(cx)).await.expect("the service is ready");
        let mut req = Request::build(method).params(params);
        if id > 0 {
            req = req.id(id);
        }
        service.call(req.finish()).await.expect("the service answers")
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_with_an_error_and_the_server_keeps_serving() {
        let ws = TempDir::new("lsp-panic");
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
    }
}
