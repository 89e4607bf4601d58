//! A client of the real server over in-memory pipes, for the tests that drive it as an editor does.
#![allow(dead_code)]

use std::path::Path;
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream};

use super::temp_dir;

/// A client of the real server (`rustkeep_lsp::server::serve`, the input sanitizer and the
/// Content-Length framing included) on its own runtime, driven over in-memory pipes.
pub struct Client {
    pub rt: tokio::runtime::Runtime,
    pub to_server: DuplexStream,
    pub rx: Receiver<Value>,
    pub next_id: i64,
    /// Messages seen while waiting for something else.
    pub seen: Vec<Value>,
}

impl Client {
    pub fn start() -> Client {
        let (to_server, server_in) = tokio::io::duplex(1 << 20);
        let (server_out, from_server) = tokio::io::duplex(1 << 20);
        let cache = temp_dir("core-cache");
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
            rt.block_on(rustkeep_lsp::server::serve(server_in, server_out, Some(cache)));
        });
        let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let (tx, rx) = channel();
        rt.spawn(async move {
            let mut r = BufReader::new(from_server);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).await.unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        len = v.parse::<usize>().ok();
                    }
                }
                let mut buf = vec![0; len.expect("the server frames with Content-Length")];
                if r.read_exact(&mut buf).await.is_err() {
                    return;
                }
                if tx.send(serde_json::from_slice::<Value>(&buf).expect("the server sends JSON")).is_err() {
                    return;
                }
            }
        });
        Client { rt, to_server, rx, next_id: 1, seen: Vec::new() }
    }

    pub fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        let w = &mut self.to_server;
        self.rt.block_on(async { w.write_all(frame.as_bytes()).await.unwrap() });
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The next message matching `pred` — one seen while waiting for something else first —,
    /// answering the server's requests on the way (with `null`). The timeout only keeps a broken
    /// server from hanging the test suite.
    pub fn wait(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.seen.iter().position(&pred) {
            return self.seen.remove(i);
        }
        loop {
            let msg = self.rx.recv_timeout(Duration::from_secs(60)).unwrap_or_else(|_| panic!("no {what} from the server; seen {:#?}", self.seen));
            if msg.get("method").is_some() && msg.get("id").is_some() {
                let id = msg["id"].clone();
                self.send(json!({ "jsonrpc": "2.0", "id": id, "result": null }));
            }
            if pred(&msg) {
                return msg;
            }
            self.seen.push(msg);
        }
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        let resp = self.wait(method, |m| m.get("id") == Some(&json!(id)) && m.get("method").is_none());
        assert!(resp.get("error").is_none(), "{method} failed: {resp}");
        resp["result"].clone()
    }

    /// Initializes the server on the workspace `ws` (with code lens refreshes).
    pub fn initialize(&mut self, ws: &Path) -> Value {
        let root = uri(ws);
        let caps = json!({ "workspace": { "codeLens": { "refreshSupport": true } } });
        let init = self.request("initialize", json!({ "processId": null, "rootUri": root, "capabilities": caps }));
        self.notify("initialized", json!({}));
        init
    }

    /// The next `publishDiagnostics` for `u`: its version and diagnostics.
    pub fn diagnostics(&mut self, u: &str) -> (Option<i64>, Vec<Value>) {
        let m = self.wait("publishDiagnostics", |m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == u);
        (m["params"]["version"].as_i64(), m["params"]["diagnostics"].as_array().unwrap().clone())
    }

    /// Waits until the server asks for the code lenses again: a run was recorded.
    pub fn lens_refresh(&mut self) {
        self.wait("workspace/codeLens/refresh", |m| m["method"] == "workspace/codeLens/refresh");
    }

    pub fn open(&mut self, u: &str, text: &str, version: i32) {
        self.notify("textDocument/didOpen", json!({ "textDocument": { "uri": u, "languageId": "toml", "version": version, "text": text } }));
    }

    pub fn change(&mut self, u: &str, text: &str, version: i32) {
        self.notify("textDocument/didChange", json!({ "textDocument": { "uri": u, "version": version }, "contentChanges": [ { "text": text } ] }));
    }

    pub fn save(&mut self, u: &str) {
        self.notify("textDocument/didSave", json!({ "textDocument": { "uri": u } }));
    }

    pub fn lenses(&mut self, u: &str) -> Vec<Value> {
        self.request("textDocument/codeLens", json!({ "textDocument": { "uri": u } })).as_array().cloned().unwrap_or_default()
    }
}

pub fn uri(p: &Path) -> String {
    rustkeep_lsp::uri::from_path(p).as_ref().to_string()
}
