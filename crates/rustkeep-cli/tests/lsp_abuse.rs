//! Protocol abuse against the real `rustkeep lsp` binary over stdio (Content-Length framing by
//! hand): invalid JSON, unknown methods, wrong parameter types, requests before `initialize`,
//! edits of documents never opened, positions past the end, cancellation, and a client that
//! disappears. The server answers with the proper JSON-RPC errors and keeps serving.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// Generous: only keeps a broken server from hanging the test suite.
const PATIENCE: Duration = Duration::from_secs(30);

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Value>,
}

fn temp_dir(tag: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("rustkeep-lsp-abuse-{}-{tag}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temp folder is writable");
    dir
}

fn file_uri(p: &Path) -> String {
    format!("file://{}", p.to_string_lossy().replace(' ', "%20"))
}

/// A workspace with one mod (a content pack: the tests read what a document says of itself, not
/// what the game never uses) and one data file.
fn workspace() -> PathBuf {
    let root = temp_dir("ws");
    std::fs::create_dir_all(root.join("m")).expect("folders can be created");
    std::fs::write(root.join("m/mod.toml"), "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\nlibrary = true\n").expect("writable");
    std::fs::write(root.join("m/items.toml"), "[[items]]\nid = \"m:a\"\nname = \"Ä 🐀\"\n").expect("writable");
    root
}

impl Client {
    fn start() -> Client {
        Client::start_with(Stdio::null())
    }

    fn start_with(stderr: Stdio) -> Client {
        let cache = temp_dir("cache");
        let mut child = Command::new(env!("CARGO_BIN_EXE_rustkeep"))
            .arg("lsp")
            .env("XDG_CACHE_HOME", &cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start rustkeep lsp");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let rx = common::read_messages(stdout);
        Client { child, stdin, rx }
    }

    fn raw(&mut self, body: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("the server reads");
        stdin.flush().expect("the server reads");
    }

    fn send(&mut self, msg: Value) {
        self.raw(&msg.to_string());
    }

    fn request(&mut self, id: i64, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The next message matching `pred`; server-to-client requests are answered on the way.
    fn wait(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let msg = match self.rx.recv_timeout(left) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout) => panic!("no {what} from the server"),
                Err(RecvTimeoutError::Disconnected) => panic!("the server closed stdout while we waited for {what}"),
            };
            if pred(&msg) {
                return msg;
            }
            if msg.get("method").is_some() && msg.get("id").is_some() {
                let id = msg["id"].clone();
                self.send(json!({ "jsonrpc": "2.0", "id": id, "result": null }));
            }
        }
    }

    fn response(&mut self, id: i64) -> Value {
        self.wait(&format!("response {id}"), |m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
    }

    fn error_code(&mut self, id: i64) -> i64 {
        let r = self.response(id);
        r["error"]["code"].as_i64().unwrap_or_else(|| panic!("an error response, got {r}"))
    }

    fn initialize(&mut self, root: &Path) {
        self.request(1, "initialize", json!({ "capabilities": {}, "workspaceFolders": [ { "uri": file_uri(root), "name": "ws" } ] }));
        let r = self.response(1);
        assert!(r["result"]["capabilities"].is_object(), "{r}");
        self.notify("initialized", json!({}));
    }

    /// Exits within `PATIENCE` by itself; returns whether it did.
    fn exits_by_itself(&mut self) -> bool {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if self.child.try_wait().expect("the child can be polled").is_some() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn hover(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

#[test]
fn requests_before_initialize_are_refused_with_server_not_initialized() {
    let mut c = Client::start();
    c.request(7, "textDocument/hover", hover("file:///nowhere.toml", 0, 0));
    assert_eq!(c.error_code(7), -32002);
    // Notifications before initialize are dropped, and initialize still works afterwards.
    c.notify("textDocument/didOpen", json!({ "textDocument": { "uri": "file:///x.toml", "languageId": "toml", "version": 1, "text": "" } }));
    let root = workspace();
    c.initialize(&root);
    c.request(8, "shutdown", Value::Null);
    assert!(c.response(8).get("error").is_none());
    c.notify("exit", Value::Null);
    assert!(c.exits_by_itself(), "the server exits after `exit`");
}

#[test]
fn malformed_messages_get_json_rpc_errors_and_the_server_keeps_serving() {
    let root = workspace();
    let items = file_uri(&root.join("m/items.toml"));
    let mut c = Client::start();
    c.initialize(&root);

    // Invalid JSON: a parse error with a null id.
    c.raw("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": ");
    let r = c.wait("the parse error", |m| m.get("error").is_some() && m["id"].is_null());
    assert_eq!(r["error"]["code"], -32700, "{r}");

    // Unknown request: method not found. Unknown notifications are ignored silently.
    c.notify("rustkeep/noSuchNotification", json!({ "x": 1 }));
    c.request(3, "rustkeep/noSuchMethod", json!({}));
    assert_eq!(c.error_code(3), -32601);

    // Wrong parameter types: invalid params.
    c.request(4, "textDocument/hover", json!({ "textDocument": 5, "position": "here" }));
    assert_eq!(c.error_code(4), -32602);
    c.request(5, "textDocument/completion", json!([1, 2, 3]));
    assert_eq!(c.error_code(5), -32602);
    c.request(6, "textDocument/hover", Value::Null);
    assert_eq!(c.error_code(6), -32602);

    // A change to a document never opened is ignored; so is one with a bogus range.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": file_uri(&root.join("m/never.toml")), "version": 2 },
                "contentChanges": [ { "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } }, "text": "x" } ] }),
    );
    c.notify("textDocument/didChange", json!({ "textDocument": { "uri": items, "version": 2 }, "contentChanges": "not a list" }));

    // Positions past the end of a line and of the file, and edits there, on an open document.
    let text = "[[items]]\nid = \"m:a\"\nname = \"Ä 🐀\"\n";
    c.notify("textDocument/didOpen", json!({ "textDocument": { "uri": items, "languageId": "toml", "version": 1, "text": text } }));
    for (id, line, ch) in [(10, 2, 9999), (11, 9999, 0), (12, u32::MAX, u32::MAX), (13, 2, 9)] {
        c.request(id, "textDocument/hover", hover(&items, line, ch));
        let r = c.response(id);
        assert!(r.get("error").is_none(), "hover at {line}:{ch}: {r}");
    }
    c.request(14, "textDocument/completion", hover(&items, 9999, 9999));
    assert!(c.response(14).get("error").is_none());
    // Insert far past the end (clamped to the end of the file), then a mistake there.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": items, "version": 3 },
                "contentChanges": [ { "range": { "start": { "line": 999, "character": 999 }, "end": { "line": 999, "character": 999 } }, "text": "colour = 1\n" } ] }),
    );
    let d = c
        .wait("diagnostics after the edit", |m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == items && m["params"]["version"] == 3);
    let diags = d["params"]["diagnostics"].as_array().expect("a list").clone();
    assert_eq!(diags.len(), 1, "{d}");
    assert_eq!(diags[0]["code"], "unknown-field");
    assert_eq!(diags[0]["range"]["start"], json!({ "line": 3, "character": 0 }));

    // Cancellation: of an unknown request (ignored), and of one just sent (answered either way).
    c.notify("$/cancelRequest", json!({ "id": 424242 }));
    c.notify("$/cancelRequest", json!({ "id": "not even a number" }));
    c.request(15, "textDocument/semanticTokens/full", json!({ "textDocument": { "uri": items } }));
    c.notify("$/cancelRequest", json!({ "id": 15 }));
    let r = c.response(15);
    assert!(r.get("result").is_some() || r["error"]["code"] == -32800, "{r}");

    // A response to nothing, and a batch: neither breaks the connection.
    c.send(json!({ "jsonrpc": "2.0", "id": 999, "result": null }));
    c.raw("[]");

    // Still serving.
    c.request(16, "textDocument/hover", hover(&items, 1, 7));
    let r = c.response(16);
    assert!(r["result"]["contents"].is_object(), "hover on the ID still works: {r}");

    c.request(17, "shutdown", Value::Null);
    assert!(c.response(17).get("error").is_none());
    // After shutdown, requests are invalid.
    c.request(18, "textDocument/hover", hover(&items, 1, 7));
    assert_eq!(c.error_code(18), -32600);
    c.notify("exit", Value::Null);
    assert!(c.exits_by_itself(), "the server exits after `exit`");
}

#[test]
fn a_client_that_disappears_mid_request_leaves_no_server_behind() {
    let root = workspace();
    let mut c = Client::start();
    c.initialize(&root);
    c.request(2, "workspace/symbol", json!({ "query": "" }));
    // Half a message, then the pipe closes.
    let stdin = c.stdin.as_mut().expect("stdin is open");
    write!(stdin, "Content-Length: 500\r\n\r\n{{\"jsonrpc\":").expect("the server reads");
    stdin.flush().expect("the server reads");
    drop(c.stdin.take());
    assert!(c.exits_by_itself(), "the server exits when its client is gone");
}

#[test]
fn a_client_that_disappears_before_initialize_leaves_no_server_behind() {
    let mut c = Client::start();
    drop(c.stdin.take());
    assert!(c.exits_by_itself(), "the server exits when its client is gone");
}

/// The protocol's rule: `exit` after `shutdown` ends with 0, without it with 1.
#[test]
fn exit_without_shutdown_ends_with_code_1() {
    let root = workspace();
    let mut c = Client::start();
    c.initialize(&root);
    c.notify("exit", Value::Null);
    assert!(c.exits_by_itself(), "the server exits after `exit`");
    assert_eq!(c.child.wait().expect("an exit status").code(), Some(1));

    let mut c = Client::start();
    c.initialize(&root);
    c.request(2, "shutdown", Value::Null);
    c.response(2);
    c.notify("exit", Value::Null);
    assert!(c.exits_by_itself(), "the server exits after `exit`");
    assert_eq!(c.child.wait().expect("an exit status").code(), Some(0));
}

/// After `initialized` the server says what it loaded (`rustkeep/loaded`, the editors' status):
/// the mods without the core and the files, counted as `rustkeep check` counts them in "N files
/// of M mods" — data files, manifests and the scenario files beside the mods — so that the
/// editor's status and a check of the same folder agree. Here two mods (three data files, two
/// manifests) and a scenario.
#[test]
fn the_loaded_notification_counts_what_check_counts() {
    let root = workspace();
    std::fs::write(root.join("m/more.toml"), "[[items]]\nid = \"m:b\"\nname = \"B\"\n").expect("writable");
    std::fs::create_dir_all(root.join("n")).expect("folders can be created");
    std::fs::write(root.join("n/mod.toml"), "[mod]\nid = \"n\"\nname = \"N\"\nversion = \"0.1.0\"\n").expect("writable");
    std::fs::write(root.join("n/items.toml"), "[[items]]\nid = \"n:c\"\nname = \"C\"\n").expect("writable");
    std::fs::create_dir_all(root.join("scenarios")).expect("folders can be created");
    std::fs::write(root.join("scenarios/fight.toml"), "seed = 1\nmods = [\"../m\"]\n").expect("writable");
    let check = Command::new(env!("CARGO_BIN_EXE_rustkeep")).args(["check", "--format", "json"]).arg(&root).output().expect("rustkeep check runs");
    let check: Value = serde_json::from_slice(&check.stdout).expect("check prints JSON");
    let mut c = Client::start();
    c.initialize(&root);
    let loaded = c.wait("rustkeep/loaded", |m| m["method"] == "rustkeep/loaded");
    assert_eq!(loaded["params"], json!({ "mods": 2, "files": 6 }), "{loaded}");
    assert_eq!(loaded["params"]["files"], check["summary"]["files"], "{check}");
    assert_eq!(loaded["params"]["mods"], check["summary"]["mods"], "{check}");
}

/// A client without dynamic registration (Neovim 0.7) is not asked to watch files — it would
/// only log a warning — and files changed outside the editor are read again on save. The
/// startup line goes to the client's log as information, not to standard error (which clients
/// log as errors).
#[test]
fn without_dynamic_registration_saves_read_the_disk_again() {
    let root = workspace();
    let mut c = Client::start_with(Stdio::piped());
    c.initialize(&root);
    let started =
        c.wait("the startup line", |m| m["method"] == "window/logMessage" && m["params"]["message"].as_str().is_some_and(|t| t.contains("workspace folder")));
    assert_eq!(started["params"]["type"], 3, "information: {started}");
    // Read by people in the editor's log: plain paths, no Rust debug syntax.
    let line = started["params"]["message"].as_str().unwrap_or_default();
    assert!(line.contains(&format!("workspace folder {}", root.display())) && !line.contains("Some(") && !line.contains("[\""), "{line}");
    let items = root.join("m/items.toml");
    let uri = file_uri(&items);
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "toml", "version": 1, "text": std::fs::read_to_string(&items).unwrap() } }),
    );
    // Another file changes on disk, outside the editor; no watcher reports it. A save does.
    let more = root.join("m/more.toml");
    std::fs::write(&more, "[[items]]\nid = \"m:b\"\nname = \"B\"\nprise = 3\n").expect("writable");
    c.notify("textDocument/didSave", json!({ "textDocument": { "uri": uri } }));
    let more_uri = file_uri(&more);
    let published = c.wait("the diagnostics of the file changed on disk", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == more_uri.as_str()
            && !m["params"]["diagnostics"].as_array().is_some_and(Vec::is_empty)
    });
    assert_eq!(published["params"]["diagnostics"][0]["code"], "unknown-field", "{published}");
    c.request(3, "shutdown", Value::Null);
    c.response(3);
    c.notify("exit", Value::Null);
    assert!(c.exits_by_itself());
    let mut err = String::new();
    std::io::Read::read_to_string(&mut c.child.stderr.take().expect("piped stderr"), &mut err).expect("stderr is text");
    assert!(!err.contains("workspace folder"), "the startup line is not on stderr: {err}");
}

/// A client that can register a watcher is asked to.
#[test]
fn with_dynamic_registration_the_file_watcher_is_registered() {
    let root = workspace();
    let mut c = Client::start();
    let caps = json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    c.request(1, "initialize", json!({ "capabilities": caps, "workspaceFolders": [ { "uri": file_uri(&root), "name": "ws" } ] }));
    c.response(1);
    c.notify("initialized", json!({}));
    let reg = c.wait("the watcher registration", |m| m["method"] == "client/registerCapability");
    assert_eq!(reg["params"]["registrations"][0]["method"], "workspace/didChangeWatchedFiles", "{reg}");
}

/// A document larger than the server analyses (docs/editors/lsp.md, "Large files") gets one
/// diagnostic on its first line saying how large it is, and every request on it answers; the
/// rest of the workspace is analysed as usual. (How fast is the benchmark's to say.)
#[test]
fn a_document_over_8_mb_is_not_analysed_and_says_why() {
    let root = workspace();
    let mut c = Client::start();
    c.initialize(&root);
    let big = root.join("m/big.toml");
    let entry = "[[items]]\nid = \"m:x\"\nname = \"X\"\nprise = 3\n\n";
    let text = entry.repeat(9_000_000 / entry.len() + 1);
    std::fs::write(&big, &text).expect("writable");
    let uri = file_uri(&big);
    c.notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "toml", "version": 1, "text": text } }));
    let published = c.wait("the large file's diagnostics", |m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str());
    let diags = published["params"]["diagnostics"].as_array().expect("a list");
    assert_eq!(diags.len(), 1, "{published}");
    assert_eq!(diags[0]["range"]["start"]["line"], 0);
    let message = diags[0]["message"].as_str().expect("a message");
    assert!(message.contains("9.0 MB") && message.contains("8.0 MB"), "{message}");
    // Requests on it answer (and find nothing: it is not analysed).
    c.request(2, "textDocument/hover", hover(&uri, 1, 8));
    assert!(c.response(2)["result"].is_null());
    c.request(3, "textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    assert!(c.response(3).get("error").is_none());
    // An edit that brings it under the limit makes it a checked file again.
    c.notify("textDocument/didChange", json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [ { "text": entry } ] }));
    let published = c.wait("the diagnostics after the edit", |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str() && m["params"]["version"] == 2
    });
    assert_eq!(published["params"]["diagnostics"][0]["code"], "unknown-field", "{published}");
}
