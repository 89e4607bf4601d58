//! Protocol abuse against the real `rustkeep lsp` binary over stdio (broken frames and bodies
//! written as they are): invalid JSON, unknown methods, wrong parameter types, requests before `initialize`,
//! edits of documents never opened, positions past the end, cancellation, and a client that
//! disappears. The server answers with the proper JSON-RPC errors and keeps serving.

mod common;

use std::process::{Command, Stdio};

use rustkeep_testutil::{file_uri, LspClient, TempDir};
use serde_json::{json, Value};

/// A workspace with one mod (a content pack: the tests read what a document says of itself, not
/// what the game never uses) and one data file.
fn workspace() -> TempDir {
    TempDir::with_files(
        "lsp-abuse",
        &[
            ("m/mod.toml", "[mod]\nid = \"m\"\nname = \"M\"\nversion = \"0.1.0\"\nlibrary = true\n"),
            ("m/items.toml", "[[items]]\nid = \"m:a\"\nname = \"Ä 🐀\"\n"),
        ],
    )
}

/// `rustkeep lsp` with its standard error going to `stderr`, its core cached in a folder the
/// client holds.
fn start_with(stderr: Stdio) -> LspClient {
    let cache = TempDir::new("lsp-abuse-cache");
    let mut command = common::lsp_command(env!("CARGO_BIN_EXE_rustkeep"), &cache);
    command.stderr(stderr);
    LspClient::spawn(command).holding(cache)
}

fn start() -> LspClient {
    start_with(Stdio::null())
}

/// [`start`], then [`initialize`] on `root`.
fn initialized(root: &std::path::Path) -> LspClient {
    let mut c = start();
    initialize(&mut c, root);
    c
}

/// `initialize` with no capabilities on the one workspace folder `root`.
fn initialize(c: &mut LspClient, root: &std::path::Path) {
    c.initialize(json!({ "capabilities": {}, "workspaceFolders": [ { "uri": file_uri(root), "name": "ws" } ] }));
}

fn hover(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

#[test]
fn requests_before_initialize_are_refused_with_server_not_initialized() {
    let mut c = start();
    let id = c.send_request("textDocument/hover", hover("file:///nowhere.toml", 0, 0));
    assert_eq!(c.error_code(id), -32002);
    // Notifications before initialize are dropped, and initialize still works afterwards.
    c.notify("textDocument/didOpen", json!({ "textDocument": { "uri": "file:///x.toml", "languageId": "toml", "version": 1, "text": "" } }));
    let root = workspace();
    initialize(&mut c, &root);
    c.shutdown();
    assert!(c.exit_status().is_some(), "the server exits after `exit`");
}

#[test]
fn malformed_messages_get_json_rpc_errors_and_the_server_keeps_serving() {
    let root = workspace();
    let items = file_uri(&root.join("m/items.toml"));
    let mut c = initialized(&root);

    // Invalid JSON: a parse error with a null id.
    c.send_body("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": ");
    let r = c.wait("the parse error", |m| m.get("error").is_some() && m["id"].is_null());
    assert_eq!(r["error"]["code"], -32700, "{r}");

    // Unknown request: method not found. Unknown notifications are ignored silently.
    c.notify("rustkeep/noSuchNotification", json!({ "x": 1 }));
    let id = c.send_request("rustkeep/noSuchMethod", json!({}));
    assert_eq!(c.error_code(id), -32601);

    // Wrong parameter types: invalid params.
    let id = c.send_request("textDocument/hover", json!({ "textDocument": 5, "position": "here" }));
    assert_eq!(c.error_code(id), -32602);
    let id = c.send_request("textDocument/completion", json!([1, 2, 3]));
    assert_eq!(c.error_code(id), -32602);
    let id = c.send_request("textDocument/hover", Value::Null);
    assert_eq!(c.error_code(id), -32602);

    // A change to a document never opened is ignored; so is one with a bogus range.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": file_uri(&root.join("m/never.toml")), "version": 2 },
                "contentChanges": [ { "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } }, "text": "x" } ] }),
    );
    c.notify("textDocument/didChange", json!({ "textDocument": { "uri": items, "version": 2 }, "contentChanges": "not a list" }));

    // Positions past the end of a line and of the file, and edits there, on an open document.
    let text = "[[items]]\nid = \"m:a\"\nname = \"Ä 🐀\"\n";
    c.open(&items, text, 1);
    for (line, ch) in [(2, 9999), (9999, 0), (u32::MAX, u32::MAX), (2, 9)] {
        let id = c.send_request("textDocument/hover", hover(&items, line, ch));
        let r = c.response(id);
        assert!(r.get("error").is_none(), "hover at {line}:{ch}: {r}");
    }
    let id = c.send_request("textDocument/completion", hover(&items, 9999, 9999));
    assert!(c.response(id).get("error").is_none());
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
    let id = c.send_request("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": items } }));
    c.notify("$/cancelRequest", json!({ "id": id }));
    let r = c.response(id);
    assert!(r.get("result").is_some() || r["error"]["code"] == -32800, "{r}");

    // A response to nothing, and a batch: neither breaks the connection.
    c.send(&json!({ "jsonrpc": "2.0", "id": 999, "result": null }));
    c.send_body("[]");

    // Still serving.
    let id = c.send_request("textDocument/hover", hover(&items, 1, 7));
    let r = c.response(id);
    assert!(r["result"]["contents"].is_object(), "hover on the ID still works: {r}");

    c.request("shutdown", Value::Null);
    // After shutdown, requests are invalid.
    let id = c.send_request("textDocument/hover", hover(&items, 1, 7));
    assert_eq!(c.error_code(id), -32600);
    c.notify("exit", Value::Null);
    assert!(c.exit_status().is_some(), "the server exits after `exit`");
}

#[test]
fn a_client_that_disappears_mid_request_leaves_no_server_behind() {
    let root = workspace();
    let mut c = initialized(&root);
    c.send_request("workspace/symbol", json!({ "query": "" }));
    // Half a message, then the pipe closes.
    c.write_unframed(b"Content-Length: 500\r\n\r\n{\"jsonrpc\":");
    c.close_input();
    assert!(c.exit_status().is_some(), "the server exits when its client is gone");
}

#[test]
fn a_client_that_disappears_before_initialize_leaves_no_server_behind() {
    let mut c = start();
    c.close_input();
    assert!(c.exit_status().is_some(), "the server exits when its client is gone");
}

/// The protocol's rule: `exit` after `shutdown` ends with 0, without it with 1.
#[test]
fn exit_without_shutdown_ends_with_code_1() {
    let root = workspace();
    let mut c = initialized(&root);
    c.notify("exit", Value::Null);
    assert_eq!(c.exit_status().map(|s| s.code()), Some(Some(1)), "the server exits after `exit`, with 1");

    let mut c = initialized(&root);
    c.shutdown();
    assert_eq!(c.exit_status().map(|s| s.code()), Some(Some(0)), "the server exits after `exit`, with 0");
}

/// After `initialized` the server says what it loaded (`rustkeep/loaded`, the editors' status):
/// the mods without the core and the files, counted as `rustkeep check` counts them in "N files
/// of M mods" — data files, manifests and the scenario files beside the mods — so that the
/// editor's status and a check of the same folder agree. Here two mods (three data files, two
/// manifests) and a scenario.
#[test]
fn the_loaded_notification_counts_what_check_counts() {
    let root = workspace();
    root.write("m/more.toml", "[[items]]\nid = \"m:b\"\nname = \"B\"\n");
    root.write("n/mod.toml", "[mod]\nid = \"n\"\nname = \"N\"\nversion = \"0.1.0\"\n");
    root.write("n/items.toml", "[[items]]\nid = \"n:c\"\nname = \"C\"\n");
    root.write("scenarios/fight.toml", "seed = 1\nmods = [\"../m\"]\n");
    let check = Command::new(env!("CARGO_BIN_EXE_rustkeep")).args(["check", "--format", "json"]).arg(&root).output().expect("rustkeep check runs");
    let check: Value = serde_json::from_slice(&check.stdout).expect("check prints JSON");
    let mut c = initialized(&root);
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
    let mut c = start_with(Stdio::piped());
    initialize(&mut c, &root);
    let started =
        c.wait("the startup line", |m| m["method"] == "window/logMessage" && m["params"]["message"].as_str().is_some_and(|t| t.contains("workspace folder")));
    assert_eq!(started["params"]["type"], 3, "information: {started}");
    // Read by people in the editor's log: plain paths, no Rust debug syntax.
    let line = started["params"]["message"].as_str().unwrap_or_default();
    assert!(line.contains(&format!("workspace folder {}", root.display())) && !line.contains("Some(") && !line.contains("[\""), "{line}");
    let items = root.join("m/items.toml");
    let uri = file_uri(&items);
    c.open(&uri, &std::fs::read_to_string(&items).unwrap(), 1);
    // Another file changes on disk, outside the editor; no watcher reports it. A save does.
    let more = root.join("m/more.toml");
    std::fs::write(&more, "[[items]]\nid = \"m:b\"\nname = \"B\"\nprise = 3\n").expect("writable");
    c.save(&uri);
    let more_uri = file_uri(&more);
    let published = c.wait("the diagnostics of the file changed on disk", |m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == more_uri.as_str()
            && !m["params"]["diagnostics"].as_array().is_some_and(Vec::is_empty)
    });
    assert_eq!(published["params"]["diagnostics"][0]["code"], "unknown-field", "{published}");
    c.shutdown();
    assert!(c.exit_status().is_some());
    let mut err = String::new();
    std::io::Read::read_to_string(&mut c.process().stderr.take().expect("piped stderr"), &mut err).expect("stderr is text");
    assert!(!err.contains("workspace folder"), "the startup line is not on stderr: {err}");
}

/// A client that can register a watcher is asked to.
#[test]
fn with_dynamic_registration_the_file_watcher_is_registered() {
    let root = workspace();
    let mut c = start();
    let caps = json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    c.initialize(json!({ "capabilities": caps, "workspaceFolders": [ { "uri": file_uri(&root), "name": "ws" } ] }));
    let reg = c.server_request("client/registerCapability");
    assert_eq!(reg["params"]["registrations"][0]["method"], "workspace/didChangeWatchedFiles", "{reg}");
}

/// A document larger than the server analyses (docs/editors/lsp.md, "Large files") gets one
/// diagnostic on its first line saying how large it is, and every request on it answers; the
/// rest of the workspace is analysed as usual. (How fast is the benchmark's to say.)
#[test]
fn a_document_over_8_mb_is_not_analysed_and_says_why() {
    let root = workspace();
    let mut c = initialized(&root);
    let big = root.join("m/big.toml");
    let entry = "[[items]]\nid = \"m:x\"\nname = \"X\"\nprise = 3\n\n";
    let text = entry.repeat(9_000_000 / entry.len() + 1);
    std::fs::write(&big, &text).expect("writable");
    let uri = file_uri(&big);
    c.open(&uri, &text, 1);
    let published = c.wait("the large file's diagnostics", |m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str());
    let diags = published["params"]["diagnostics"].as_array().expect("a list");
    assert_eq!(diags.len(), 1, "{published}");
    assert_eq!(diags[0]["range"]["start"]["line"], 0);
    let message = diags[0]["message"].as_str().expect("a message");
    assert!(message.contains("9.0 MB") && message.contains("8.0 MB"), "{message}");
    // Requests on it answer (and find nothing: it is not analysed).
    let id = c.send_request("textDocument/hover", hover(&uri, 1, 8));
    assert!(c.response(id)["result"].is_null());
    let id = c.send_request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    assert!(c.response(id).get("error").is_none());
    // An edit that brings it under the limit makes it a checked file again.
    c.change(&uri, entry, 2);
    let published = c.wait("the diagnostics after the edit", |m| {
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str() && m["params"]["version"] == 2
    });
    assert_eq!(published["params"]["diagnostics"][0]["code"], "unknown-field", "{published}");
}
