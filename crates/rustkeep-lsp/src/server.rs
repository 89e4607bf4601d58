//! The tower-lsp-server glue: capabilities, text sync, the debounced publisher, and the panic
//! guard around every handler. No analysis happens here.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rustkeep_data::text::Encoding;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

use crate::handlers;
use crate::lsp::*;
use crate::state::State;
use crate::uri;

/// How long edits settle before the diagnostics of files that are not open in the editor are
/// pushed. Open files do not wait: see [`Backend::schedule`].
pub const DEBOUNCE: Duration = Duration::from_millis(50);

pub struct Backend {
    client: Client,
    state: Arc<Mutex<Option<State>>>,
    /// Where the core's files are written for go-to-definition; `None`: [`crate::core_files::cache_dir`].
    core_cache: Option<PathBuf>,
}

fn lock(m: &Mutex<Option<State>>) -> MutexGuard<'_, Option<State>> {
    // A handler that panicked while holding the lock leaves consistent data behind (every
    // mutation is a whole-value replacement), so a poisoned lock is simply taken over.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "unknown panic".into())
}

/// The encoding to use: UTF-8 if the client offers it, else UTF-16 (docs/editors/lsp.md).
pub fn negotiate(params: &InitializeParams) -> Encoding {
    let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_ref());
    if offered.is_some_and(|v| v.contains(&PositionEncodingKind::UTF8)) {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    }
}

/// The workspace folders (or the deprecated root URI).
#[allow(deprecated)]
pub fn roots(params: &InitializeParams) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(WorkspaceFolders::WorkspaceFolderList(list)) = &params.workspace_folders_initialize_params.workspace_folders {
        out.extend(list.iter().filter_map(|f| uri::to_path(&f.uri)));
    }
    if out.is_empty() {
        if let Some(u) = &params.root_uri {
            out.extend(uri::to_path(u));
        }
    }
    out
}

pub fn capabilities(enc: Encoding) -> ServerCapabilities {
    let legend = handlers::semantic_tokens::legend();
    serde_json::from_value(serde_json::json!({
        "positionEncoding": if enc == Encoding::Utf8 { "utf-8" } else { "utf-16" },
        "textDocumentSync": { "openClose": true, "change": 2 },
        "completionProvider": { "triggerCharacters": ["[", "\"", "=", " ", ",", "{", ":"] },
        "hoverProvider": true,
        "definitionProvider": true,
        "referencesProvider": true,
        "documentHighlightProvider": true,
        "renameProvider": { "prepareProvider": true },
        "codeActionProvider": { "codeActionKinds": ["quickfix"] },
        "documentSymbolProvider": true,
        "workspaceSymbolProvider": true,
        "inlayHintProvider": true,
        "semanticTokensProvider": { "legend": legend, "full": true },
    }))
    .expect("the capability literal matches the LSP schema")
}

impl Backend {
    fn new(client: Client) -> Backend {
        Backend { client, state: Arc::new(Mutex::new(None)), core_cache: None }
    }

    /// Runs `f` on the up-to-date state, turning a panic into an error response.
    fn request<T>(&self, method: &str, f: impl FnOnce(&State) -> Option<T>) -> Result<Option<T>> {
        let mut guard = lock(&self.state);
        let Some(state) = guard.as_mut() else { return Err(Error::invalid_request()) };
        match catch_unwind(AssertUnwindSafe(|| {
            state.refresh();
            f(state)
        })) {
            Ok(v) => Ok(v),
            Err(p) => {
                eprintln!("rustkeep-lsp: {method} panicked: {}", panic_message(&*p));
                Err(Error {
                    code: tower_lsp_server::jsonrpc::ErrorCode::InternalError,
                    message: format!("{method} failed: {}", panic_message(&*p)).into(),
                    data: None,
                })
            }
        }
    }

    /// Like [`Self::request`] for handlers that may refuse (rename): a refusal becomes an
    /// `InvalidParams` error carrying the handler's message, which clients show to the user.
    fn request_or_refuse<T>(&self, method: &str, f: impl FnOnce(&State) -> std::result::Result<T, String>) -> Result<Option<T>> {
        let mut refusal = None;
        let r = self.request(method, |s| match f(s) {
            Ok(v) => Some(v),
            Err(msg) => {
                refusal = Some(msg);
                None
            }
        })?;
        match refusal {
            Some(msg) => Err(Error::invalid_params(msg)),
            None => Ok(r),
        }
    }

    /// Applies a notification's change to the state (synchronously, before any await, so
    /// notifications take effect in arrival order), then schedules a publish.
    fn notify(&self, what: &str, f: impl FnOnce(&mut State)) {
        let gen = {
            let mut guard = lock(&self.state);
            let Some(state) = guard.as_mut() else {
                eprintln!("rustkeep-lsp: {what} before initialize, ignored");
                return;
            };
            if let Err(p) = catch_unwind(AssertUnwindSafe(|| f(state))) {
                eprintln!("rustkeep-lsp: {what} panicked: {}", panic_message(&*p));
            }
            state.generation
        };
        self.schedule(gen);
    }

    /// Publishes in two steps unless a newer change arrived meanwhile: right away (after the
    /// change, and any already queued behind it, is applied) the project is re-validated and the
    /// lists of the files open in the editor are pushed — that is what the user is looking at, so
    /// keystroke → diagnostics costs only the re-validation. The lists of the other files follow
    /// [`DEBOUNCE`] after the last change, so that references elsewhere do not flicker while an
    /// ID is being typed. A burst of edits coalesces: a step that finds a newer generation does
    /// nothing, and the newest change's steps do the work.
    fn schedule(&self, gen: u64) {
        let state = self.state.clone();
        let client = self.client.clone();
        tokio::spawn(async move {
            tokio::task::yield_now().await;
            publish(&state, &client, Some(gen), true).await;
            tokio::time::sleep(DEBOUNCE).await;
            publish(&state, &client, Some(gen), false).await;
        });
    }
}

/// Pushes the diagnostics that changed: of the open files only, or of every file.
async fn publish(state: &Mutex<Option<State>>, client: &Client, only_gen: Option<u64>, open_only: bool) {
    let batch = {
        let mut guard = lock(state);
        let Some(s) = guard.as_mut() else { return };
        if only_gen.is_some_and(|g| g != s.generation) {
            return;
        }
        match catch_unwind(AssertUnwindSafe(|| if open_only { s.take_publish_open() } else { s.take_publish() })) {
            Ok(b) => b,
            Err(p) => {
                eprintln!("rustkeep-lsp: analysis panicked: {}", panic_message(&*p));
                return;
            }
        }
    };
    for (u, diags, version) in batch {
        client.publish_diagnostics(u, diags, version).await;
    }
}

fn path_of(u: &Uri) -> Option<PathBuf> {
    let p = uri::to_path(u);
    if p.is_none() {
        eprintln!("rustkeep-lsp: not a file URI, ignored: {}", u.as_ref());
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
                eprintln!("rustkeep-lsp: cannot write the core files for go-to-definition: {e}");
                None
            }
        };
        eprintln!("rustkeep-lsp: roots {roots:?}, encoding {enc:?}, core served from {core_dir:?}");
        let state = catch_unwind(AssertUnwindSafe(|| State::new(roots, enc, core_dir))).map_err(|p| {
            eprintln!("rustkeep-lsp: loading the workspace panicked: {}", panic_message(&*p));
            Error::internal_error()
        })?;
        *lock(&self.state) = Some(state);
        Ok(InitializeResult {
            capabilities: capabilities(enc),
            server_info: Some(ServerInfo { name: "rustkeep".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        // Watch data files so that edits outside the editor reload unopened files.
        let opts = serde_json::json!({ "watchers": [ { "globPattern": "**/*.toml" } ] });
        let reg = Registration { id: "rustkeep-watch".into(), method: "workspace/didChangeWatchedFiles".into(), register_options: Some(opts) };
        if let Err(e) = self.client.register_capability(vec![reg]).await {
            eprintln!("rustkeep-lsp: the client does not watch files for us: {e:?}");
        }
        publish(&self.state, &self.client, None, false).await;
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let d = params.text_document;
        let Some(path) = path_of(&d.uri) else { return };
        self.notify("didOpen", |s| s.open(path, d.text, d.version));
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let u = params.text_document.text_document_identifier.uri;
        let Some(path) = path_of(&u) else { return };
        let version = params.text_document.version;
        let changes = params.content_changes;
        self.notify("didChange", |s| {
            if !s.change(&path, version, changes) {
                eprintln!("rustkeep-lsp: didChange for {} which was never opened, ignored", u.as_ref());
            }
        });
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let Some(path) = path_of(&params.text_document.uri) else { return };
        self.notify("didClose", |s| s.close(&path));
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let paths: Vec<PathBuf> = params.changes.iter().filter_map(|c| uri::to_path(&c.uri)).collect();
        self.notify("didChangeWatchedFiles", |s| s.disk_changed(&paths));
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        self.request("completion", |s| {
            // A plain array unless IDs were left out, which only a list can say.
            handlers::completion::completion_list(s, &params.text_document_position_params).map(|l| {
                if l.is_incomplete {
                    CompletionResponse::CompletionList(l)
                } else {
                    CompletionResponse::CompletionItemList(l.items)
                }
            })
        })
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        self.request("hover", |s| {
            #[cfg(test)]
            tests::panic_on_magic_word(s, &params.text_document_position_params);
            handlers::hover::hover(s, &params.text_document_position_params)
        })
    }

    async fn goto_definition(&self, params: DefinitionParams) -> Result<Option<DefinitionResponse>> {
        self.request("definition", |s| {
            let locs = handlers::definition::definition(s, &params.text_document_position_params)?;
            Some(DefinitionResponse::Definition(Definition::LocationList(locs)))
        })
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        self.request("references", |s| handlers::references::references(s, &params.text_document_position_params, params.context.include_declaration))
    }

    async fn document_highlight(&self, params: DocumentHighlightParams) -> Result<Option<Vec<DocumentHighlight>>> {
        self.request("documentHighlight", |s| handlers::document_highlight::document_highlight(s, &params.text_document_position_params))
    }

    async fn prepare_rename(&self, params: TextDocumentPositionParams) -> Result<Option<PrepareRenameResult>> {
        self.request_or_refuse("prepareRename", |s| handlers::rename::prepare(s, &params).map(PrepareRenameResult::Range))
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        self.request_or_refuse("rename", |s| handlers::rename::rename(s, &params.text_document_position_params, &params.new_name))
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<Vec<CodeActionResponse>>> {
        self.request("codeAction", |s| handlers::code_action::code_actions(s, &params.text_document.uri, params.range))
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        self.request("documentSymbol", |s| {
            handlers::document_symbol::document_symbols(s, &params.text_document.uri).map(DocumentSymbolResponse::DocumentSymbolList)
        })
    }

    async fn symbol(&self, params: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
        self.request("workspaceSymbol", |s| {
            Some(WorkspaceSymbolResponse::SymbolInformationList(handlers::workspace_symbol::workspace_symbols(s, &params.query)))
        })
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        self.request("inlayHint", |s| handlers::inlay_hint::inlay_hints(s, &params.text_document.uri, params.range))
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokens>> {
        self.request("semanticTokens", |s| handlers::semantic_tokens::full(s, &params.text_document.uri))
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
/// JSON-RPC errors instead of ending the connection.
pub async fn serve_stdio() {
    let (service, socket) = LspService::build(Backend::new)
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
        _ = pump => eprintln!("rustkeep-lsp: the client is gone (`exit` or end of input) but work was pending; exiting"),
    }
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
        let (mut service, _socket) = LspService::new(|client| Backend { client, state: Arc::new(Mutex::new(None)), core_cache: Some(core_cache) });

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
