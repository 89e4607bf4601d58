//! Language-server figures: the real `rustkeep lsp` binary driven over stdio, as an editor does.
//!
//! Per workspace: initialize (UTF-16), wait until every file of the workspace has its first
//! diagnostics ("start → all diagnostics"), open one data file, then
//! - edits that alternately put a typo into an ID reference and take it out again, each timed from
//!   sending `didChange` to receiving `publishDiagnostics` for the edited file (every edit changes
//!   that file's list, so every edit is answered);
//! - on the large pack: edits that alternately delete the `id` line of a loot table and put it
//!   back, each timed from the `didChange` to the `publishDiagnostics` of the file of the next mod
//!   that nests the table (it gains or loses an `unknown-reference`);
//! - on the large pack: edits that alternately put a typo into the ID of an item's definition
//!   (in another file) and take it out, each timed to that file's `publishDiagnostics`: the
//!   rules that read which IDs a file defines run again;
//! - completion requests for an ID (`loot = "|`, which lists every item table of the pack) and for
//!   an event name (`on = "|`);
//! - on the large pack: hovers on an item ID, and hovers on the table at the top of the pack's
//!   200-deep nesting chain (its exact drop chances), each right after an edit elsewhere, so that
//!   no answer computed before the edit can be reused;
//! - on the large pack and the examples: the balance lenses — the time from the first code-lens
//!   request until every lens of the edited file shows its figures, then the keystrokes again,
//!   each after a pause longer than the server's wait for quiet (so that each lands on a
//!   computation of the figures under way) and followed by a code-lens request, as an editor
//!   sends;
//! - on the large pack: the server's peak resident memory (with the lenses' work done) (`VmHWM` of `/proc/<pid>/status`, Linux)
//!   against the size of the workspace's files.
//!
//! Workspaces: the large and the medium synthetic pack, and the example mods beside a generated
//! ~2,000-entry pack (the small size), where the edited file is an example mod's.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use rustkeep_testutil::file_uri;
use rustkeep_testutil::lsp::read_messages;
use serde_json::{json, Value};

use crate::{generate, ExtraFigure, LARGE, MEDIUM, SMALL};

/// Targets on the large pack (p95 where a latency), from the project's performance goals.
const KEYSTROKE_MS: f64 = 15.0;
const DEPENDENT_MS: f64 = 30.0;
const COMPLETION_MS: f64 = 10.0;
const HOVER_MS: f64 = 5.0;
const START_S: f64 = 1.5;
const RSS_RATIO: f64 = 8.0;
/// The target of the smaller workspaces (keystroke and completion p95).
const SMALL_TARGET_MS: f64 = 20.0;
const SAMPLES: usize = 200;
/// The pause before each keystroke while the lenses are on: longer than the server's wait for
/// quiet, so that every keystroke lands on a computation of the figures under way.
const LENS_PAUSE_MS: u64 = 150;

/// The figures of the language server `exe` (the `rustkeep` binary); `root` holds the generated
/// packs. The large pack is measured when the caller generated it (`--sizes` includes `large`).
pub fn lsp_figures(root: &Path, exe: &Path) -> Vec<ExtraFigure> {
    if !exe.is_file() {
        return vec![skipped("lsp", &format!("no `rustkeep` binary at {} (cargo build --release -p rustkeep-cli)", exe.display()))];
    }
    let cache = root.join("lsp-cache");
    let mut out = Vec::new();

    let large = root.join(LARGE.name);
    if large.join("rustkeep.toml").is_file() {
        let plan = Plan {
            label: "large",
            ws: large.clone(),
            edit: (large.join("mods/m100/content_00.toml"), "loot = \"m100:table_0\""),
            removal: Some(Removal {
                file: large.join("mods/m100/content_01.toml"),
                line: "id = \"m100:table_10\"\n",
                dependent: large.join("mods/m101/content_01.toml"),
            }),
            definition: Some((large.join("mods/m120/content_00.toml"), "id = \"m120:item_0\"")),
            hovers: vec![
                Hover { what: "an item ID", file: large.join("mods/m150/content_00.toml"), anchor: "item = \"m150:item_3\"", after: After::Nothing },
                Hover {
                    what: "the top of a 200-deep loot chain (exact chances), after an edit elsewhere",
                    file: large.join("mods/m199/content_00.toml"),
                    anchor: "id = \"m199:table_0\"",
                    after: After::Elsewhere,
                },
                Hover {
                    what: "the top of a 200-deep loot chain (exact chances), after an edit of a table in it",
                    file: large.join("mods/m199/content_00.toml"),
                    anchor: "id = \"m199:table_0\"",
                    after: After::InChain,
                },
            ],
            targets: Targets { keystroke: KEYSTROKE_MS, completion: COMPLETION_MS, start: Some(START_S), memory: true, lenses: true },
        };
        out.extend(figures_for(exe, &plan, &cache));
    }

    let medium = root.join(MEDIUM.name);
    if !medium.join("rustkeep.toml").is_file() {
        if let Err(e) = generate(&medium, MEDIUM) {
            out.push(skipped("lsp medium", &format!("cannot write the pack: {e}")));
            return out;
        }
    }
    let plan = Plan::keystrokes("medium", &medium, "mods/m000/content_00.toml", "loot = \"m000:table_0\"", false);
    out.extend(figures_for(exe, &plan, &cache));

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
    let edited = "mods/rat_catcher/creatures.toml";
    let plan = Plan::keystrokes("examples + 2,000-entry mod", &small, edited, "loot = \"rat_catcher:sewer_rat_loot\"", true);
    out.extend(figures_for(exe, &plan, &cache));
    out
}

/// What to measure on one workspace.
struct Plan<'a> {
    label: &'a str,
    ws: PathBuf,
    /// The file edited by keystrokes and the ID reference whose last character is toggled.
    edit: (PathBuf, &'a str),
    removal: Option<Removal>,
    /// A file and the definition whose ID's last character is toggled: every rule that reads
    /// which IDs a file defines runs again.
    definition: Option<(PathBuf, &'static str)>,
    hovers: Vec<Hover>,
    targets: Targets,
}

impl<'a> Plan<'a> {
    /// Keystrokes and completion only, against the smaller workspaces' target: `reference` is
    /// toggled in the file `file` of the workspace `ws`; with or without the lenses on.
    fn keystrokes(label: &'a str, ws: &Path, file: &str, reference: &'a str, lenses: bool) -> Plan<'a> {
        Plan {
            label,
            ws: ws.to_path_buf(),
            edit: (ws.join(file), reference),
            removal: None,
            definition: None,
            hovers: Vec::new(),
            targets: Targets { keystroke: SMALL_TARGET_MS, completion: SMALL_TARGET_MS, start: None, memory: false, lenses },
        }
    }
}

/// A definition taken out and put back, and the file of another mod that depends on it.
struct Removal {
    file: PathBuf,
    /// The exact line (with its newline) that is deleted and restored.
    line: &'static str,
    dependent: PathBuf,
}

struct Hover {
    what: &'static str,
    file: PathBuf,
    /// Text whose quoted value is hovered (the middle of the value).
    anchor: &'static str,
    after: After,
}

/// What happens before each hover.
#[derive(Clone, Copy, PartialEq)]
enum After {
    Nothing,
    /// A keystroke in the keystroke file (and its diagnostics): nothing the hovered table
    /// depends on changes.
    Elsewhere,
    /// The weight of an entry of the keystroke file's first loot table (`table_0` of its mod),
    /// which the hovered table reaches, goes up or down by one (and its diagnostics arrive).
    InChain,
}

struct Targets {
    keystroke: f64,
    completion: f64,
    /// Start → all diagnostics, seconds.
    start: Option<f64>,
    memory: bool,
    /// Whether to measure keystrokes again while the balance lenses are computed.
    lenses: bool,
}

fn skipped(what: &str, why: &str) -> ExtraFigure {
    ExtraFigure {
        figure: format!("{what}: language server"), value: format!("skipped: {why}"), target: "—".into(), ok: None, json: json!({ "skipped": why })
    }
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    for e in rustkeep_data::files::Walk::every_folder(from, usize::MAX) {
        let e = e?;
        let dest = to.join(e.path().strip_prefix(from).unwrap_or(e.path()));
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest)?;
        } else {
            std::fs::copy(e.path(), dest)?;
        }
    }
    Ok(())
}

fn figures_for(exe: &Path, plan: &Plan, cache: &Path) -> Vec<ExtraFigure> {
    match measure(exe, plan, cache) {
        Ok(m) => m.figures(plan),
        Err(e) => vec![skipped(plan.label, &e)],
    }
}

#[derive(Default)]
struct Measured {
    files: usize,
    bytes: u64,
    startup: f64,
    diagnostics: Vec<f64>,
    dependent: Vec<f64>,
    definition: Vec<f64>,
    id_completion: Vec<f64>,
    event_completion: Vec<f64>,
    id_items: usize,
    hovers: Vec<(&'static str, Vec<f64>)>,
    /// The balance lenses: from the first request until every lens of the edited file shows its
    /// figures (seconds) and how many there are; keystrokes while they are computed.
    lens_settle: Option<(f64, usize)>,
    lens_keystrokes: Vec<f64>,
    /// The server's peak resident memory before the lenses were asked for, bytes.
    peak_before_lenses: Option<u64>,
    /// Peak and final resident memory of the server, bytes.
    peak_rss: Option<u64>,
    rss: Option<u64>,
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

fn latency(label: &str, what: &str, samples: &[f64], target_ms: f64, extra: Value) -> ExtraFigure {
    let (p50, p95) = (quantile(samples, 0.5), quantile(samples, 0.95));
    let mut j = json!({ "p50_ms": p50, "p95_ms": p95, "max_ms": quantile(samples, 1.0), "samples": samples.len(), "target_p95_ms": target_ms });
    if let (Some(o), Value::Object(e)) = (j.as_object_mut(), extra) {
        o.extend(e);
    }
    ExtraFigure {
        figure: format!("{label}: LSP {what} (p50 / p95)"),
        value: format!("{p50:.1} ms / {p95:.1} ms"),
        target: format!("p95 ≤ {target_ms:.0} ms"),
        ok: Some(p95 <= target_ms),
        json: j,
    }
}

impl Measured {
    fn figures(&self, plan: &Plan) -> Vec<ExtraFigure> {
        let label = plan.label;
        let t = &plan.targets;
        let mut out = vec![ExtraFigure {
            figure: format!("{label}: LSP start → all diagnostics ({} files)", self.files),
            value: format!("{:.1} ms", self.startup * 1e3),
            target: t.start.map_or("—".into(), |s| format!("≤ {s} s")),
            ok: t.start.map(|s| self.startup <= s),
            json: json!({ "ms": self.startup * 1e3, "files": self.files }),
        }];
        out.push(latency(label, "keystroke → diagnostics", &self.diagnostics, t.keystroke, json!({})));
        if !self.dependent.is_empty() {
            out.push(latency(label, "definition removed → dependent file's diagnostics", &self.dependent, DEPENDENT_MS, json!({})));
        }
        if !self.definition.is_empty() {
            out.push(latency(label, "keystroke in a definition's ID → diagnostics", &self.definition, t.keystroke, json!({})));
        }
        out.push(latency(
            label,
            &format!("completion of an ID ({} items)", self.id_items),
            &self.id_completion,
            t.completion,
            json!({ "items": self.id_items }),
        ));
        out.push(latency(label, "completion of an event", &self.event_completion, t.completion, json!({})));
        for (what, samples) in &self.hovers {
            out.push(latency(label, &format!("hover on {what}"), samples, HOVER_MS, json!({})));
        }
        if let Some((secs, n)) = self.lens_settle {
            out.push(ExtraFigure {
                figure: format!("{label}: LSP first code-lens request → the edited file's {n} balance lenses computed"),
                value: format!("{:.2} s", secs),
                target: "—".into(),
                ok: None,
                json: json!({ "seconds": secs, "lenses": n }),
            });
        }
        if !self.lens_keystrokes.is_empty() {
            let what = format!("keystroke → diagnostics while balance lenses are computed ({LENS_PAUSE_MS} ms pauses)");
            out.push(latency(label, &what, &self.lens_keystrokes, t.keystroke, json!({ "pause_ms": LENS_PAUSE_MS })));
        }
        if t.memory {
            match self.peak_rss {
                Some(peak) => {
                    let ratio = peak as f64 / self.bytes as f64;
                    out.push(ExtraFigure {
                        figure: format!("{label}: LSP peak memory ÷ input size"),
                        value: match self.peak_before_lenses {
                            Some(before) => format!(
                                "{ratio:.1} × ({:.0} MB of {:.1} MB; {:.0} MB before the lenses)",
                                peak as f64 / 1e6,
                                self.bytes as f64 / 1e6,
                                before as f64 / 1e6
                            ),
                            None => format!("{ratio:.1} × ({:.0} MB of {:.1} MB)", peak as f64 / 1e6, self.bytes as f64 / 1e6),
                        },
                        target: format!("≤ {RSS_RATIO:.0} ×"),
                        ok: Some(ratio <= RSS_RATIO),
                        json: json!({ "peak_rss_bytes": peak, "rss_bytes": self.rss, "input_bytes": self.bytes, "ratio": ratio, "peak_before_lenses_bytes": self.peak_before_lenses }),
                    });
                }
                None => out.push(skipped(&format!("{label} memory"), "no /proc/<pid>/status on this system")),
            }
        }
        out
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
        let rx = read_messages(stdout);
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

    /// Peak and current resident memory of the server (Linux).
    fn memory(&self) -> (Option<u64>, Option<u64>) {
        let Ok(status) = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())) else { return (None, None) };
        let kb = |key: &str| {
            status.lines().find(|l| l.starts_with(key)).and_then(|l| l[key.len()..].trim().trim_end_matches("kB").trim().parse::<u64>().ok()).map(|k| k * 1024)
        };
        (kb("VmHWM:"), kb("VmRSS:"))
    }

    fn stop(mut self) {
        let _ = self.request("shutdown", Value::Null);
        let _ = self.notify("exit", Value::Null);
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

/// Line and UTF-16 column of a byte offset.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let col = before.rsplit('\n').next().unwrap_or("").encode_utf16().count();
    json!({ "line": line, "character": col })
}

/// Every `*.toml` below `dir` (what the server publishes a list for), and their total size.
fn toml_files(dir: &Path) -> (usize, u64) {
    let paths = crate::toml_paths(dir);
    let bytes = paths.iter().map(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)).sum();
    (paths.len(), bytes)
}

fn canonical(p: &Path) -> Result<PathBuf, String> {
    p.canonicalize().map_err(|e| format!("{}: {e}", p.display()))
}

fn read(p: &Path) -> Result<String, String> {
    std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))
}

fn is_publication_for(m: &Value, uri: &str) -> bool {
    m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == json!(uri)
}

/// An open document and the version its next change gets.
struct Doc {
    uri: String,
    version: i64,
}

impl Doc {
    fn open(c: &mut Client, path: &Path, text: &str) -> Result<Doc, String> {
        let uri = file_uri(path);
        c.notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "toml", "version": 1, "text": text } }))?;
        // A request is answered only after the open is applied.
        c.request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }))?;
        Ok(Doc { uri, version: 1 })
    }

    fn change(&mut self, c: &mut Client, change: Value) -> Result<(), String> {
        self.version += 1;
        c.notify("textDocument/didChange", json!({ "textDocument": { "uri": self.uri, "version": self.version }, "contentChanges": [change] }))
    }
}

/// An edit toggled back and forth: `forth` then `back` (each a range and its new text), every
/// time waiting for the edited file's diagnostics (both directions change them).
struct Toggle {
    doc: Doc,
    forth: Value,
    back: Value,
    count: usize,
}

impl Toggle {
    /// The last character of an ID reference, toggled between a typo (`x`) and itself.
    fn typo(doc: Doc, text: &str, at: usize) -> Toggle {
        Toggle::of_character(doc, text, at, "x")
    }

    /// The character at `at` deleted and put back.
    fn deletion(doc: Doc, text: &str, at: usize) -> Toggle {
        Toggle::of_character(doc, text, at, "")
    }

    /// The character at `at` replaced by `with` and then written again in place of what `with`
    /// took.
    fn of_character(doc: Doc, text: &str, at: usize, with: &str) -> Toggle {
        let (start, end) = (position(text, at), position(text, at + 1));
        let back_end = if with.is_empty() { start.clone() } else { end.clone() };
        Toggle {
            doc,
            forth: json!({ "range": { "start": start, "end": end }, "text": with }),
            back: json!({ "range": { "start": start, "end": back_end }, "text": &text[at..at + 1] }),
            count: 0,
        }
    }

    /// Whether the last edit sent was `forth` (the next is `back`).
    fn is_back(&self) -> bool {
        self.count & 1 == 1
    }

    /// Sends the next edit and waits for the edited file's diagnostics; returns the latency.
    fn step(&mut self, c: &mut Client) -> Result<f64, String> {
        let change = if self.is_back() { self.back.clone() } else { self.forth.clone() };
        self.count += 1;
        let t = Instant::now();
        self.doc.change(c, change)?;
        let uri = self.doc.uri.clone();
        c.wait("diagnostics after an edit", |m| is_publication_for(m, &uri))?;
        Ok(t.elapsed().as_secs_f64())
    }
}

fn measure(exe: &Path, plan: &Plan, cache: &Path) -> Result<Measured, String> {
    let ws = canonical(&plan.ws)?;
    let (expected_files, bytes) = toml_files(&ws);
    let file = canonical(&plan.edit.0)?;
    let anchor = plan.edit.1;
    let text = read(&file)?;
    let at = text.find(anchor).ok_or_else(|| format!("`{anchor}` not in {}", file.display()))?;
    // The reference's value: the typo replaces its last character.
    let value_end = at + anchor.len() - 1;
    let id_completion_at = position(&text, at + anchor.find('"').unwrap_or(0) + 1);
    let mut m = Measured { bytes, ..Measured::default() };

    let started = Instant::now();
    let mut c = Client::start(exe, cache)?;
    let ws_uri = file_uri(&ws);
    c.request(
        "initialize",
        json!({ "processId": std::process::id(), "rootUri": ws_uri, "workspaceFolders": [ { "uri": ws_uri, "name": "bench" } ],
                "capabilities": { "general": { "positionEncodings": ["utf-16"] }, "workspace": { "codeLens": { "refreshSupport": true } } } }),
    )?;
    c.notify("initialized", json!({}))?;
    // The first publication covers every file of the workspace.
    let mut seen = std::collections::HashSet::new();
    c.wait("first diagnostics", |msg| {
        if msg["method"] == "textDocument/publishDiagnostics" {
            seen.insert(msg["params"]["uri"].to_string());
        }
        seen.len() >= expected_files
    })?;
    m.startup = started.elapsed().as_secs_f64();
    m.files = seen.len();
    // Nothing else is pending; let the server settle before timing anything.
    std::thread::sleep(Duration::from_millis(300));
    while c.rx.try_recv().is_ok() {}

    let doc = Doc::open(&mut c, &file, &text)?;
    let mut keys = Toggle::typo(doc, &text, value_end - 1);
    for _ in 0..SAMPLES {
        let t = keys.step(&mut c)?;
        m.diagnostics.push(t);
    }
    // Leave the file as it was (an even number of toggles already does).
    if keys.is_back() {
        keys.step(&mut c)?;
    }

    if let Some(r) = &plan.removal {
        let def_file = canonical(&r.file)?;
        let def_text = read(&def_file)?;
        let line_at = def_text.find(r.line).ok_or_else(|| format!("`{}` not in {}", r.line.trim(), def_file.display()))?;
        let (from, to) = (position(&def_text, line_at), position(&def_text, line_at + r.line.len()));
        let after_removal = position(&def_text, line_at);
        let dependent = file_uri(&canonical(&r.dependent)?);
        let mut doc = Doc::open(&mut c, &def_file, &def_text)?;
        for i in 0..SAMPLES {
            let change = if i & 1 == 0 {
                json!({ "range": { "start": from, "end": to }, "text": "" })
            } else {
                json!({ "range": { "start": after_removal, "end": after_removal }, "text": r.line })
            };
            let t = Instant::now();
            doc.change(&mut c, change)?;
            c.wait("diagnostics of the dependent file", |msg| is_publication_for(msg, &dependent))?;
            m.dependent.push(t.elapsed().as_secs_f64());
        }
    }

    if let Some((path, anchor)) = &plan.definition {
        let def_file = canonical(path)?;
        let def_text = read(&def_file)?;
        let at = def_text.find(anchor).ok_or_else(|| format!("`{anchor}` not in {}", def_file.display()))?;
        let doc = Doc::open(&mut c, &def_file, &def_text)?;
        // The last character of the ID, before its closing quote.
        let mut ids = Toggle::typo(doc, &def_text, at + anchor.len() - 2);
        for _ in 0..SAMPLES {
            m.definition.push(ids.step(&mut c)?);
        }
        if ids.is_back() {
            ids.step(&mut c)?;
        }
    }

    let event_line = text.find("on = \"").ok_or("no `on = \"` in the edited file")?;
    let event_completion_at = position(&text, event_line + "on = \"".len());
    for (at, is_id) in [(&id_completion_at, true), (&event_completion_at, false)] {
        for _ in 0..SAMPLES {
            let t = Instant::now();
            let r = c.request("textDocument/completion", json!({ "textDocument": { "uri": keys.doc.uri }, "position": at }))?;
            let took = t.elapsed().as_secs_f64();
            let n = r["items"].as_array().or_else(|| r.as_array()).map_or(0, |a| a.len());
            if n == 0 {
                return Err(format!("completion at {at} offered nothing"));
            }
            if is_id {
                m.id_items = n;
                m.id_completion.push(took);
            } else {
                m.event_completion.push(took);
            }
        }
    }

    // The edit of a table in the chain: the `1` of `weight = 10` of the `nothing` entry of the
    // edited file's first loot table, deleted (`invalid-weight`) and put back.
    let weight_at = text
        .find("[[loot_tables]]\nid = \"")
        .and_then(|t| text[t..].find("{ nothing = true, weight = 10 }").map(|i| t + i + "{ nothing = true, weight = ".len()));
    let mut weight_count = 0;
    for h in &plan.hovers {
        let path = canonical(&h.file)?;
        let htext = read(&path)?;
        let at = htext.find(h.anchor).ok_or_else(|| format!("`{}` not in {}", h.anchor, path.display()))?;
        let quote = h.anchor.find('"').unwrap_or(0);
        let middle = at + quote + (h.anchor.len() - quote) / 2;
        let params = json!({ "textDocument": { "uri": file_uri(&path) }, "position": position(&htext, middle) });
        let samples = if h.after == After::Nothing { SAMPLES } else { SAMPLES / 2 };
        if keys.is_back() {
            keys.step(&mut c)?;
        }
        let mut times = Vec::with_capacity(samples);
        for _ in 0..samples {
            match h.after {
                After::Nothing => {}
                After::Elsewhere => {
                    keys.step(&mut c)?;
                }
                After::InChain => {
                    let Some(at) = weight_at else { return Err("no `{ nothing = true, weight = 10 }` in the edited file's loot tables".into()) };
                    // Both toggles edit one document; the typo is out (an even count), so the
                    // offsets of the original text hold.
                    let mut w = Toggle::deletion(Doc { uri: keys.doc.uri.clone(), version: keys.doc.version }, &text, at);
                    w.count = weight_count;
                    w.step(&mut c)?;
                    weight_count = w.count;
                    keys.doc.version = w.doc.version;
                }
            }
            let t = Instant::now();
            let r = c.request("textDocument/hover", params.clone())?;
            times.push(t.elapsed().as_secs_f64());
            if r.is_null() {
                return Err(format!("no hover on `{}`", h.anchor));
            }
        }
        m.hovers.push((h.what, times));
    }

    if plan.targets.lenses {
        m.peak_before_lenses = c.memory().0;
        if keys.is_back() {
            keys.step(&mut c)?;
        }
        let lens_params = json!({ "textDocument": { "uri": keys.doc.uri } });
        let settled = |lenses: &Value| {
            lenses.as_array().is_some_and(|a| a.iter().all(|l| l["command"]["title"].as_str().is_some_and(|t| !t.contains('…') && !t.contains('⟳'))))
        };
        let t = Instant::now();
        loop {
            let lenses = c.request("textDocument/codeLens", lens_params.clone())?;
            if settled(&lenses) {
                m.lens_settle = Some((t.elapsed().as_secs_f64(), lenses.as_array().map_or(0, Vec::len)));
                break;
            }
            let refresh = c.wait("a code-lens refresh", |msg| msg["method"] == "workspace/codeLens/refresh")?;
            c.send(&json!({ "jsonrpc": "2.0", "id": refresh["id"].clone(), "result": null }))?;
        }
        for _ in 0..SAMPLES {
            std::thread::sleep(Duration::from_millis(LENS_PAUSE_MS));
            m.lens_keystrokes.push(keys.step(&mut c)?);
            // As an editor does after an edit (not timed).
            c.request("textDocument/codeLens", lens_params.clone())?;
        }
        if keys.is_back() {
            keys.step(&mut c)?;
        }
    }

    (m.peak_rss, m.rss) = c.memory();
    c.stop();
    Ok(m)
}
