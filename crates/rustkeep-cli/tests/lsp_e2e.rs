//! End to end: the real `rustkeep lsp` binary over stdio with Content-Length framing —
//! initialize (UTF-8 negotiated) → diagnostics pushed → didOpen → completion → definition into the
//! served core → shutdown/exit.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use serde_json::{json, Value};

struct Client {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: i64,
    /// Notifications seen while waiting for something else.
    seen: Vec<Value>,
}

fn file_uri(p: &Path) -> String {
    format!("file://{}", p.to_string_lossy().replace(' ', "%20"))
}

impl Client {
    fn start(cache: &Path) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rustkeep"))
            .arg("lsp")
            .env("XDG_CACHE_HOME", cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start rustkeep lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let rx = common::read_messages(stdout);
        Client { child, stdin, rx, next_id: 1, seen: Vec::new() }
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The next message matching `pred`, answering server requests on the way. The timeout only
    /// keeps a broken server from hanging the test suite.
    fn wait(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let msg = self.rx.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|_| panic!("no {what} from the server; seen {:?}", self.seen));
            if pred(&msg) {
                return msg;
            }
            if msg.get("method").is_some() && msg.get("id").is_some() {
                // A request from the server (client/registerCapability): accept it.
                let id = msg["id"].clone();
                self.send(json!({ "jsonrpc": "2.0", "id": id, "result": null }));
            }
            self.seen.push(msg);
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        let resp = self.wait(method, |m| m.get("id") == Some(&json!(id)) && m.get("method").is_none());
        assert!(resp.get("error").is_none(), "{method} failed: {resp}");
        resp["result"].clone()
    }

    fn diagnostics_for(&mut self, uri: &str) -> Vec<Value> {
        let uri = uri.to_string();
        let m = self.wait("publishDiagnostics", |m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == json!(uri));
        m["params"]["diagnostics"].as_array().unwrap().clone()
    }
}

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rustkeep-lsp-e2e-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn lsp_over_stdio() {
    let ws = temp("ws");
    let m = ws.join("rat_catcher");
    rustkeep_testutil::copy_dir(&rustkeep_testutil::repo_path("examples/rat_catcher"), &m);
    let cache = temp("cache");
    let mut c = Client::start(&cache);

    let init = c.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": file_uri(&ws),
            "workspaceFolders": [ { "uri": file_uri(&ws), "name": "ws" } ],
            "capabilities": { "general": { "positionEncodings": ["utf-8", "utf-16"] },
                              "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } }
        }),
    );
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    assert!(init["capabilities"]["completionProvider"].is_object());
    c.notify("initialized", json!({}));

    // The clean example gets an (empty) list.
    let quests = m.join("quests.toml");
    let quests_uri = file_uri(&quests);
    assert!(c.diagnostics_for(&quests_uri).is_empty());

    // Open it with a wrong event and an umlaut before it on the same line.
    let text = std::fs::read_to_string(&quests).unwrap();
    let broken = text.replacen("on = \"creature_died\"", "on = \"creature_dyed\" # ä", 1);
    let line = broken.lines().position(|l| l.contains("creature_dyed")).unwrap();
    c.notify("textDocument/didOpen", json!({ "textDocument": { "uri": quests_uri, "languageId": "toml", "version": 1, "text": broken } }));
    let diags = c.diagnostics_for(&quests_uri);
    let d = diags.iter().find(|d| d["code"] == "unknown-event").unwrap_or_else(|| panic!("{diags:?}"));
    assert_eq!(d["range"]["start"], json!({ "line": line, "character": 5 }));
    assert_eq!(d["source"], "rustkeep");
    assert_eq!(d["data"]["fix"]["replacement"], "\"creature_died\"");

    // Completion inside `on = "…"`.
    let items = c.request("textDocument/completion", json!({ "textDocument": { "uri": quests_uri }, "position": { "line": line, "character": 6 } }));
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert!(labels.contains(&"creature_died") && labels.len() == 12, "{labels:?}");

    // Definition of `core:gold` goes to the served core file.
    let gold_line = broken.lines().position(|l| l.contains("\"core:gold\"")).unwrap();
    let col = broken.lines().nth(gold_line).unwrap().find("core:gold").unwrap();
    let defs = c.request("textDocument/definition", json!({ "textDocument": { "uri": quests_uri }, "position": { "line": gold_line, "character": col + 2 } }));
    let uri = defs[0]["uri"].as_str().unwrap().to_string();
    assert!(uri.starts_with(&file_uri(&cache.join("rustkeep"))), "{uri}");
    assert!(uri.ends_with("/items.toml"), "{uri}");

    // A change to a document that was never opened is ignored, not a crash.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": file_uri(&m.join("nope.toml")), "version": 2 }, "contentChanges": [ { "text": "x" } ] }),
    );
    // Fix the event with an incremental edit (UTF-8 columns): the diagnostic goes away.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": quests_uri, "version": 2 },
                "contentChanges": [ { "range": { "start": { "line": line, "character": 15 }, "end": { "line": line, "character": 19 } }, "text": "died" } ] }),
    );
    let diags = c.diagnostics_for(&quests_uri);
    assert!(diags.is_empty(), "{diags:?}");

    c.request("shutdown", Value::Null);
    c.notify("exit", Value::Null);
    let status = c.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}
