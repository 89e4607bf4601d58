//! Language-server figures: the real `rustkeep lsp` binary driven over stdio, as an editor does.
//!
//! Per workspace: initialize (UTF-16), wait for the first diagnostics of every file, open one data
//! file, then
//! - 200 edits, alternately putting a typo into an ID reference and taking it out again, each
//!   timed from sending `didChange` to receiving `publishDiagnostics` for the edited file (every
//!   edit changes that file's list, so every edit is answered);
//! - 200 completion requests for an ID (`loot = "|`, which lists every item table of the pack)
//!   and 200 for an event name (`on = "|`).
//!
//! Workspaces: the medium synthetic pack, and the example mods beside a generated ~2,000-entry
//! pack (the small size), where the edited file is an example mod's.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::{generate, ExtraFigure, MEDIUM, SMALL};

/// Keystroke → diagnostics and completion targets (p95).
const TARGET_MS: f64 = 20.0;
const SAMPLES: usize = 200;

/// The figures of the language server; `root` holds the generated packs.
pub fn lsp_figures(root: &Path) -> Vec<ExtraFigure> {
    let exe = std::env::current_exe().ok().map(|e| e.with_file_name("rustkeep")).filter(|p| p.is_file());
    let Some(exe) = exe else {
        return vec![skipped("lsp", "no `rustkeep` binary next to the bench binary (cargo build --release -p rustkeep-cli)")];
    };
    let mut out = Vec::new();

    let medium = root.join(MEDIUM.name);
    if !medium.join("rustkeep.toml").is_file() {
        if let Err(e) = generate(&medium, MEDIUM) {
            return vec![skipped("lsp medium", &format!("cannot write the pack: {e}"))];
        }
    }
    let target = medium.join("mods/m000/content_00.toml");
    out.extend(figures_for(&exe, "medium", &medium, &target, "loot = \"m000:table_0\"", root));

    // The example mods beside a generated ~2,000-entry pack; the edit is in an example mod.
    let small = root.join("lsp-examples-small");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let setup = generate(&small, SMALL).and_then(|_| {
        for m in ["rat_catcher", "fire_and_thorns"] {
            copy_dir(&examples.join(m), &small.join("mods").join(m))?;
        }
        Ok(())
    });
    if let Err(e) = setup {
        out.push(skipped("lsp examples + small", &format!("cannot write the workspace: {e}")));
        return out;
    }
    let target = small.join("mods/rat_catcher/creatures.toml");
    out.extend(figures_for(&exe, "examples + 2,000-entry mod", &small, &target, "loot = \"rat_catcher:sewer_rat_loot\"", root));
    out
}

fn skipped(what: &str, why: &str) -> ExtraFigure {
    ExtraFigure {
        figure: format!("{what}: language server"), value: format!("skipped: {why}"), target: "—".into(), ok: None, json: json!({ "skipped": why })
    }
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)?.flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()))?;
        } else {
            std::fs::copy(&p, to.join(e.file_name()))?;
        }
    }
    Ok(())
}

fn figures_for(exe: &Path, label: &str, ws: &Path, file: &Path, anchor: &str, root: &Path) -> Vec<ExtraFigure> {
    match measure(exe, ws, file, anchor, &root.join("lsp-cache")) {
        Ok(m) => m.figures(label),
        Err(e) => vec![skipped(label, &e)],
    }
}

struct Measured {
    files: usize,
    startup: f64,
    diagnostics: Vec<f64>,
    id_completion: Vec<f64>,
    event_completion: Vec<f64>,
    id_items: usize,
}

/// The `q`-quantile (0..=1) of the samples, in milliseconds.
fn quantile(samples: &[f64], q: f64) -> f64 {
    let mut v = samples.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        return f64::NAN;
    }
    let i = ((v.len() as f64 * q).ceil() as usize).clamp(1, v.len()) - 1;
    v[i] * 1e3
}

impl Measured {
    fn latency(&self, label: &str, what: &str, samples: &[f64], extra: Value) -> ExtraFigure {
        let (p50, p95) = (quantile(samples, 0.5), quantile(samples, 0.95));
        let mut j = json!({ "p50_ms": p50, "p95_ms": p95, "max_ms": quantile(samples, 1.0), "samples": samples.len(), "target_p95_ms": TARGET_MS });
        if let (Some(o), Value::Object(e)) = (j.as_object_mut(), extra) {
            o.extend(e);
        }
        ExtraFigure {
            figure: format!("{label}: LSP {what} (p50 / p95)"),
            value: format!("{p50:.1} ms / {p95:.1} ms"),
            target: format!("p95 ≤ {TARGET_MS:.0} ms"),
            ok: Some(p95 <= TARGET_MS),
            json: j,
        }
    }

    fn figures(&self, label: &str) -> Vec<ExtraFigure> {
        vec![
            ExtraFigure {
                figure: format!("{label}: LSP start → first diagnostics ({} files)", self.files),
                value: format!("{:.1} ms", self.startup * 1e3),
                target: "—".into(),
                ok: None,
                json: json!({ "ms": self.startup * 1e3, "files": self.files }),
            },
            self.latency(label, "keystroke → diagnostics", &self.diagnostics, json!({})),
            self.latency(label, &format!("completion of an ID ({} items)", self.id_items), &self.id_completion, json!({ "items": self.id_items })),
            self.latency(label, "completion of an event", &self.event_completion, json!({})),
        ]
    }
}

/// A bare LSP client over the child's stdio (Content-Length framing), reading on a thread.
struct Client {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start(exe: &Path, cache: &Path) -> Result<Client, String> {
        let mut child = Command::new(exe)
            .arg("lsp")
            .env("XDG_CACHE_HOME", cache)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", exe.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
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
                let Ok(v) = serde_json::from_slice::<Value>(&buf) else { return };
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Ok(Client { child, stdin, rx, next_id: 1 })
    }

    fn send(&mut self, msg: &Value) -> Result<(), String> {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).and_then(|_| self.stdin.flush()).map_err(|e| format!("the server went away: {e}"))
    }

    fn notify(&mut self, method: &str, params: Value) -> Result<(), String> {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }))
    }

    /// The next message matching `pred`; requests from the server are answered on the way.
    fn wait(&mut self, what: &str, mut pred: impl FnMut(&Value) -> bool) -> Result<Value, String> {
        loop {
            let msg = self.rx.recv_timeout(Duration::from_secs(120)).map_err(|_| format!("no {what} from the server"))?;
            if pred(&msg) {
                return Ok(msg);
            }
            if msg.get("method").is_some() && msg.get("id").is_some() {
                self.send(&json!({ "jsonrpc": "2.0", "id": msg["id"].clone(), "result": null }))?;
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        let resp = self.wait(method, |m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())?;
        match resp.get("error") {
            Some(e) => Err(format!("{method} failed: {e}")),
            None => Ok(resp["result"].clone()),
        }
    }

    fn stop(mut self) {
        let _ = self.request("shutdown", Value::Null);
        let _ = self.notify("exit", Value::Null);
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

fn file_uri(p: &Path) -> String {
    let mut s = String::from("file://");
    for b in p.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => s.push(b as char),
            _ => s.push_str(&format!("%{b:02X}")),
        }
    }
    s
}

/// Line and UTF-16 column of a byte offset.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let col = before.rsplit('\n').next().unwrap_or("").encode_utf16().count();
    json!({ "line": line, "character": col })
}

fn measure(exe: &Path, ws: &Path, file: &Path, anchor: &str, cache: &Path) -> Result<Measured, String> {
    let ws: PathBuf = ws.canonicalize().map_err(|e| format!("{}: {e}", ws.display()))?;
    let file = file.canonicalize().map_err(|e| format!("{}: {e}", file.display()))?;
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let at = text.find(anchor).ok_or_else(|| format!("`{anchor}` not in {}", file.display()))?;
    // The reference's value: the typo replaces its last character.
    let value_end = at + anchor.len() - 1;
    let typo_at = position(&text, value_end - 1);
    let typo_end = position(&text, value_end);
    let original = &text[value_end - 1..value_end];
    let id_completion_at = position(&text, at + anchor.find('"').unwrap_or(0) + 1);
    let uri = file_uri(&file);

    let started = Instant::now();
    let mut c = Client::start(exe, cache)?;
    let ws_uri = file_uri(&ws);
    c.request(
        "initialize",
        json!({ "processId": std::process::id(), "rootUri": ws_uri, "workspaceFolders": [ { "uri": ws_uri, "name": "bench" } ],
                "capabilities": { "general": { "positionEncodings": ["utf-16"] } } }),
    )?;
    c.notify("initialized", json!({}))?;
    // The first batch is sorted by URI; every file is in it. Count them until the edited one.
    let mut files = 0;
    c.wait("first diagnostics", |m| {
        if m["method"] == "textDocument/publishDiagnostics" {
            files += 1;
        }
        m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == json!(uri)
    })?;
    let startup = started.elapsed().as_secs_f64();
    // Let the rest of the first batch arrive before timing anything.
    std::thread::sleep(Duration::from_millis(500));
    while let Ok(m) = c.rx.try_recv() {
        files += usize::from(m["method"] == "textDocument/publishDiagnostics");
    }

    c.notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "toml", "version": 1, "text": text } }))?;
    // A request is answered only after the open is applied.
    c.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }))?;

    let mut diagnostics = Vec::with_capacity(SAMPLES);
    for i in 0..SAMPLES {
        let new = if i % 2 == 0 { "x" } else { original };
        let change = json!({ "range": { "start": typo_at, "end": typo_end }, "text": new });
        let t = Instant::now();
        c.notify("textDocument/didChange", json!({ "textDocument": { "uri": uri, "version": i + 2 }, "contentChanges": [change] }))?;
        c.wait("diagnostics after an edit", |m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == json!(uri))?;
        diagnostics.push(t.elapsed().as_secs_f64());
    }

    let event_line = text.find("on = \"").ok_or("no `on = \"` in the edited file")?;
    let event_completion_at = position(&text, event_line + "on = \"".len());
    let mut id_completion = Vec::with_capacity(SAMPLES);
    let mut event_completion = Vec::with_capacity(SAMPLES);
    let mut id_items = 0;
    for (at, out) in [(&id_completion_at, &mut id_completion), (&event_completion_at, &mut event_completion)] {
        for _ in 0..SAMPLES {
            let t = Instant::now();
            let r = c.request("textDocument/completion", json!({ "textDocument": { "uri": uri }, "position": at }))?;
            out.push(t.elapsed().as_secs_f64());
            let n = r["items"].as_array().or_else(|| r.as_array()).map_or(0, |a| a.len());
            if n == 0 {
                return Err(format!("completion at {at} offered nothing"));
            }
            if std::ptr::eq(at, &id_completion_at) {
                id_items = n;
            }
        }
    }
    c.stop();
    Ok(Measured { files, startup, diagnostics, id_completion, event_completion, id_items })
}
