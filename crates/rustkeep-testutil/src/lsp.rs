//! [`LspClient`]: the one language-server client of the tests, driving a server as an editor
//! does — JSON-RPC messages with `Content-Length` framing — either the `rustkeep lsp` binary over
//! its stdio ([`LspClient::spawn`]) or a server on any pair of streams ([`LspClient::over`], the
//! in-process tests). And [`file_uri`], the `file://` URI of a path as a client writes it.

use std::any::Any;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde_json::{json, Value};

/// How long the client waits for anything (a message, the server's exit). Generous: it only
/// keeps a broken server from hanging the test suite, and is no timing assertion.
pub const PATIENCE: Duration = Duration::from_secs(120);

/// The `file://` URI of an absolute path, percent-encoded as RFC 3986 asks of a path (a
/// Windows drive path as `file:///C:/…`): unreserved characters, sub-delimiters, `:`, `@` and `/`
/// stay as they are.
pub fn file_uri(path: &Path) -> String {
    const fn keep(base: &AsciiSet, plain: &[u8]) -> AsciiSet {
        let mut set = base.remove(plain[0]);
        let mut i = 1;
        while i < plain.len() {
            set = set.remove(plain[i]);
            i += 1;
        }
        set
    }
    const PATH: &AsciiSet = &keep(NON_ALPHANUMERIC, b"-._~/:@!$&'()*+,;=");
    let s = path.to_string_lossy().replace('\\', "/");
    let root = if s.starts_with('/') { "file://" } else { "file:///" };
    format!("{root}{}", utf8_percent_encode(&s, PATH))
}

/// Reads `Content-Length`-framed JSON messages from `output` on a thread of its own; the receiver
/// yields them in order and closes when the stream ends or breaks its framing (a waiting client
/// then reports the server gone).
pub fn read_messages(output: impl Read + Send + 'static) -> Receiver<Value> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(output);
        loop {
            let mut len = None;
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap_or(0) == 0 {
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
            let Some(len) = len else { return };
            let mut buf = vec![0; len];
            if r.read_exact(&mut buf).is_err() {
                return;
            }
            let Ok(message) = serde_json::from_slice(&buf) else { return };
            if tx.send(message).is_err() {
                return;
            }
        }
    });
    rx
}

/// A client of one language server.
///
/// Every message the server sends is delivered once: [`LspClient::wait`] returns the first one
/// that matches and keeps the others (in [`LspClient::seen`]) for later waits;
/// [`LspClient::next`] takes them in order. Requests from the server
/// (`client/registerCapability`, `workspace/codeLens/refresh`) are answered with a `null` result
/// as they arrive. A wait gives up after [`PATIENCE`], failing the test with what was seen.
pub struct LspClient {
    input: Option<Box<dyn Write + Send>>,
    rx: Receiver<Value>,
    child: Option<Child>,
    next_id: i64,
    seen: Vec<Value>,
    /// Whatever must live as long as the client (the server's temporary folders).
    held: Vec<Box<dyn Any + Send>>,
}

impl LspClient {
    /// Starts `command` (a `rustkeep lsp` with its environment) with its stdin and stdout piped
    /// to the client; its stderr is what the command says (inherited unless set). The server is
    /// killed when the client is dropped.
    pub fn spawn(mut command: Command) -> LspClient {
        let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
        let input = child.stdin.take().expect("a piped stdin");
        let rx = read_messages(child.stdout.take().expect("a piped stdout"));
        LspClient { input: Some(Box::new(input)), rx, child: Some(child), next_id: 1, seen: Vec::new(), held: Vec::new() }
    }

    /// A client of a server that reads `input` and writes `output` (one running in the test's
    /// process).
    pub fn over(input: impl Write + Send + 'static, output: impl Read + Send + 'static) -> LspClient {
        LspClient { input: Some(Box::new(input)), rx: read_messages(output), child: None, next_id: 1, seen: Vec::new(), held: Vec::new() }
    }

    /// Keeps `thing` (a temporary folder the server uses) until the client is dropped.
    pub fn holding(mut self, thing: impl Any + Send) -> LspClient {
        self.held.push(Box::new(thing));
        self
    }

    /// Writes bytes to the server as they are, unframed (half a message, a client that breaks off).
    pub fn write_unframed(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("the server's input is open");
        input.write_all(bytes).and_then(|()| input.flush()).expect("the server reads its input");
    }

    /// Sends `body` in one frame, whatever it holds (invalid JSON, a batch).
    pub fn send_body(&mut self, body: &str) {
        self.write_unframed(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    pub fn send(&mut self, msg: &Value) {
        self.send_body(&msg.to_string());
    }

    /// Closes the server's input, as a client that goes away does.
    pub fn close_input(&mut self) {
        self.input = None;
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request without waiting for its answer; its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        id
    }

    /// The whole response to the request `id` (its `result` or its `error`).
    pub fn response(&mut self, id: i64) -> Value {
        self.wait(&format!("the response to request {id}"), |m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
    }

    /// The code of the error the request `id` was answered with; fails on any other answer.
    pub fn error_code(&mut self, id: i64) -> i64 {
        let r = self.response(id);
        r["error"]["code"].as_i64().unwrap_or_else(|| panic!("an error response to request {id}, got {r}"))
    }

    /// Sends a request and returns its result; fails when the server answers with an error.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        let resp = self.response(id);
        assert!(resp.get("error").is_none(), "{method} failed: {resp}");
        resp["result"].clone()
    }

    /// `initialize` with `params`, then `initialized`; the server's result (its capabilities).
    pub fn initialize(&mut self, params: Value) -> Value {
        let init = self.request("initialize", params);
        assert!(init["capabilities"].is_object(), "initialize answers with the server's capabilities: {init}");
        self.notify("initialized", json!({}));
        init
    }

    /// `shutdown`, then `exit`: the end of a session as the protocol has it.
    pub fn shutdown(&mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
    }

    /// A message from the pipe, answering it when it is a request of the server. `Err` when none
    /// came within `within`; fails when the server closed its output.
    fn receive(&mut self, within: Duration, what: &str) -> Result<Value, RecvTimeoutError> {
        let msg = self.rx.recv_timeout(within);
        if let Err(RecvTimeoutError::Disconnected) = msg {
            panic!("the server closed its output while the test waited for {what}; seen {:#?}", self.seen);
        }
        let msg = msg?;
        if msg.get("method").is_some() && msg.get("id").is_some() {
            let id = msg["id"].clone();
            self.send(&json!({ "jsonrpc": "2.0", "id": id, "result": null }));
        }
        Ok(msg)
    }

    /// The next message not yet taken (one kept by an earlier wait first), or `None` when the
    /// server sends nothing within `within`.
    pub fn next(&mut self, within: Duration) -> Option<Value> {
        if !self.seen.is_empty() {
            return Some(self.seen.remove(0));
        }
        self.receive(within, "the next message").ok()
    }

    /// Every message that arrives within `within`, in order.
    pub fn drain(&mut self, within: Duration) -> Vec<Value> {
        let until = Instant::now() + within;
        std::iter::from_fn(|| self.next(until.saturating_duration_since(Instant::now()))).collect()
    }

    /// The first message not yet taken that matches `pred` (`what` names it when it does not
    /// come); the others are kept for later.
    pub fn wait(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.seen.iter().position(&pred) {
            return self.seen.remove(i);
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self.receive(deadline.saturating_duration_since(Instant::now()), what) {
                Ok(msg) if pred(&msg) => return msg,
                Ok(msg) => self.seen.push(msg),
                Err(_) => panic!("no {what} from the server within {PATIENCE:?}; seen {:#?}", self.seen),
            }
        }
    }

    /// The messages kept by waits for something else, not yet taken.
    pub fn seen(&self) -> &[Value] {
        &self.seen
    }

    /// The next `textDocument/publishDiagnostics` for `uri`: the document version it is for (if
    /// the server says) and the diagnostics.
    pub fn diagnostics(&mut self, uri: &str) -> (Option<i64>, Vec<Value>) {
        let m = self.wait(&format!("diagnostics for {uri}"), |m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri);
        (m["params"]["version"].as_i64(), m["params"]["diagnostics"].as_array().expect("a list of diagnostics").clone())
    }

    /// Waits for the server's request `method` (already answered).
    pub fn server_request(&mut self, method: &str) -> Value {
        self.wait(method, |m| m["method"] == method && m.get("id").is_some())
    }

    pub fn open(&mut self, uri: &str, text: &str, version: i64) {
        self.notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "toml", "version": version, "text": text } }));
    }

    /// A full-text change.
    pub fn change(&mut self, uri: &str, text: &str, version: i64) {
        self.notify("textDocument/didChange", json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [ { "text": text } ] }));
    }

    pub fn save(&mut self, uri: &str) {
        self.notify("textDocument/didSave", json!({ "textDocument": { "uri": uri } }));
    }

    /// The code lenses of `uri`.
    pub fn code_lenses(&mut self, uri: &str) -> Vec<Value> {
        self.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri } })).as_array().cloned().unwrap_or_default()
    }

    /// The server process ([`LspClient::spawn`] only).
    pub fn process(&mut self) -> &mut Child {
        self.child.as_mut().expect("a server started by LspClient::spawn")
    }

    /// How the server process ended, once it has ended by itself; `None` when it still runs after
    /// [`PATIENCE`].
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        let deadline = Instant::now() + PATIENCE;
        let child = self.process();
        loop {
            if let Some(status) = child.try_wait().expect("the server process can be polled") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for LspClient {
    fn drop(&mut self) {
        self.input = None;
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_are_percent_encoded() {
        assert_eq!(file_uri(Path::new("/tmp/mein mod/Ätherklinge#1.toml")), "file:///tmp/mein%20mod/%C3%84therklinge%231.toml");
        assert_eq!(file_uri(Path::new("/a/b-c_d.e~f/x+y=z@w")), "file:///a/b-c_d.e~f/x+y=z@w");
        assert_eq!(file_uri(Path::new("C:\\mods\\x.toml")), "file:///C:/mods/x.toml");
    }

    /// A server that answers each request with its method and each other message with what it
    /// heard; it asks the client one thing first and says something unasked before its first
    /// answer.
    fn echo_server() -> LspClient {
        let (server_in, client_out) = std::io::pipe().expect("a pipe");
        let (client_in, mut server_out) = std::io::pipe().expect("a pipe");
        std::thread::spawn(move || {
            let rx = read_messages(server_in);
            let mut send = |v: Value| {
                let body = v.to_string();
                let _ = write!(server_out, "Content-Length: {}\r\n\r\n{body}", body.len());
            };
            send(json!({ "jsonrpc": "2.0", "id": "s1", "method": "client/registerCapability", "params": {} }));
            for (n, m) in rx.iter().enumerate() {
                if m["method"] == "quiet" {
                    continue;
                }
                if n == 1 {
                    send(json!({ "jsonrpc": "2.0", "method": "window/logMessage", "params": { "message": "hello" } }));
                }
                if let Some(id) = m.get("id").filter(|_| m.get("method").is_some()) {
                    send(json!({ "jsonrpc": "2.0", "id": id, "result": m["method"] }));
                } else {
                    send(json!({ "jsonrpc": "2.0", "method": "heard", "params": { "n": n, "msg": m } }));
                }
            }
        });
        LspClient::over(client_out, client_in)
    }

    #[test]
    fn requests_notifications_and_what_the_server_asks() {
        let mut c = echo_server();
        // The server's own request is answered first; the server reports the answer.
        let heard = c.wait("the answer's echo", |m| m["method"] == "heard");
        assert_eq!(heard["params"]["msg"], json!({ "jsonrpc": "2.0", "id": "s1", "result": null }));
        assert_eq!(c.seen().len(), 1, "the server's request is kept for later waits: {:?}", c.seen());
        assert_eq!(c.server_request("client/registerCapability")["id"], "s1");
        assert_eq!(c.request("textDocument/hover", json!({})), "textDocument/hover");
        // The unasked message came before the answer and is kept.
        assert_eq!(c.seen().len(), 1);
        assert_eq!(c.next(Duration::from_secs(1)).expect("the kept message")["method"], "window/logMessage");
        let id = c.send_request("x", Value::Null);
        assert_eq!(c.response(id)["result"], "x");
        c.notify("quiet", Value::Null);
        assert!(c.drain(Duration::from_millis(50)).is_empty());
    }

    #[test]
    #[should_panic(expected = "the server closed its output while the test waited for nothing")]
    fn a_server_that_goes_away_fails_the_wait() {
        let (_, client_out) = std::io::pipe().expect("a pipe");
        let (client_in, server_out) = std::io::pipe().expect("a pipe");
        drop(server_out);
        LspClient::over(client_out, client_in).wait("nothing", |_| false);
    }
}
