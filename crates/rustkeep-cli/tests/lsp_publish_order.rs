//! Stdio differential test of diagnostics publication: the real `rustkeep lsp` binary, driven as an
//! editor drives it, against `rustkeep check --format json` on the same texts.
//!
//! Each seeded run opens every data file of the two example mods, then plays rounds of bursts:
//! full-text `didChange` notifications to random files sent back to back (some while an analysis
//! runs, some after short waits), with requests (hover, completion, symbols) mixed in so that
//! analyses are also run by requests and handed to the publisher out of order. After each burst
//! (a quiet point) the last list the server published for every file must equal what `rustkeep
//! check` reports for the same texts (file, line, column, code, severity). On every
//! `publishDiagnostics` the client asserts that no file is ever sent an older document version
//! than one it was already sent.
//!
//! The server runs with a test hook that adds random delays before an analysis reaches the
//! publisher (`RUSTKEEP_LSP_TEST_JITTER_MS`), which makes the races certain rather than rare; the
//! second test switches the ordering guard off (`RUSTKEEP_LSP_TEST_UNGUARDED`) and expects this
//! harness to catch the stale publications that follow. `RUSTKEEP_LSP_RUNS` sets the number of
//! seeded runs (default 100); `RUSTKEEP_LSP_BIN` runs another build of the binary (to compare with
//! an older release).

mod common;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rustkeep_testutil::lsp::PATIENCE;
use rustkeep_testutil::modpack::Gen;
use rustkeep_testutil::{copy_dir, file_uri, repo_path, LspClient, TempDir};
use serde_json::{json, Value};

/// `(line, column, code, severity)`, 1-based, columns in Unicode scalar values.
type Diag = (u64, u64, String, String);
type Lists = BTreeMap<String, Vec<Diag>>;

fn binary() -> PathBuf {
    std::env::var_os("RUSTKEEP_LSP_BIN").map(PathBuf::from).unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_rustkeep")))
}

/// One text edit an editor could send: the new full text of a file.
fn mutate(g: &mut Gen, text: &str, original: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let at = g.below(lines.len() + 1);
    let with_line = |line: &str| {
        let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        v.insert(at.min(v.len()), line.to_string());
        v.join("\n") + "\n"
    };
    match g.below(10) {
        // Heal: back to the original text.
        0 | 1 => original.to_string(),
        // An ID that breaks the grammar (`invalid-id`), or an ID renamed away (dangling references).
        2 => text.replacen("id = \"", "id = \"Bad", 1),
        3 => {
            let ids: Vec<&str> = text.match_indices("id = \"").map(|(i, _)| &text[i + 6..]).filter_map(|r| r.split('"').next()).collect();
            match ids.get(g.below(ids.len())) {
                Some(id) => text.replacen(&format!("\"{id}\""), &format!("\"{id}_renamed\""), 1),
                None => text.to_string(),
            }
        }
        // Broken TOML (`toml-syntax`).
        4 => with_line("[[items"),
        // An unknown key after a header, an unknown event, a dangling reference.
        5 => text.replacen("]]\n", "]]\ncolour = 1\n", 1),
        6 => text.replacen("on = \"", "on = \"x", 1),
        7 => with_line("loot = \"core:no_such_table\""),
        // A line removed.
        8 if !lines.is_empty() => {
            let drop = g.below(lines.len());
            lines.iter().enumerate().filter(|(i, _)| *i != drop).map(|(_, l)| *l).collect::<Vec<_>>().join("\n") + "\n"
        }
        // Non-ASCII before a problem on the same line.
        _ => text.replacen("name = \"", "name = \"Ä🐀 ", 1).replacen("id = \"", "id = \"ü", 1),
    }
}

/// The client side of one server.
struct Session {
    client: LspClient,
    utf8: bool,
    /// The last list and version published per URI.
    last: HashMap<String, (Option<i64>, Vec<Value>)>,
    /// Versions going backwards, as seen.
    regressions: Vec<String>,
}

impl Session {
    fn start(ws: &Path, cache: &Path, utf8: bool, env: &[(&str, &str)]) -> Session {
        let mut command = common::lsp_command(binary(), cache);
        command.envs(env.iter().copied()).stderr(Stdio::null());
        let mut s = Session { client: LspClient::spawn(command), utf8, last: HashMap::new(), regressions: Vec::new() };
        let enc = if utf8 { json!(["utf-8", "utf-16"]) } else { json!(["utf-16"]) };
        let id = s
            .client
            .send_request("initialize", json!({ "processId": null, "rootUri": file_uri(ws), "capabilities": { "general": { "positionEncodings": enc } } }));
        s.wait_for(|m| m["id"] == json!(id));
        s.client.notify("initialized", json!({}));
        s
    }

    /// Takes in one message: records publications, checking versions.
    fn handle(&mut self, m: &Value) {
        if m["method"] == "textDocument/publishDiagnostics" {
            let uri = m["params"]["uri"].as_str().unwrap().to_string();
            let version = m["params"]["version"].as_i64();
            let diags = m["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
            if let (Some(v), Some((Some(prev), _))) = (version, self.last.get(&uri)) {
                if v < *prev {
                    self.regressions.push(format!("{uri}: version {v} published after version {prev}"));
                }
            }
            self.last.insert(uri, (version, diags));
        }
    }

    /// Takes in messages up to the first that matches `pred`.
    fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.client.next(PATIENCE).expect("the server answers");
            self.handle(&m);
            if pred(&m) {
                return m;
            }
        }
    }

    /// Takes in what arrives within `d`.
    fn drain(&mut self, d: Duration) {
        for m in self.client.drain(d) {
            self.handle(&m);
        }
    }

    /// The last published lists, converted to check's positions with the current texts.
    fn lists(&self, ws: &Path, texts: &BTreeMap<String, String>) -> Lists {
        let mut out = Lists::new();
        for (uri, (_, diags)) in &self.last {
            if diags.is_empty() {
                continue;
            }
            let path = PathBuf::from(uri.strip_prefix("file://").unwrap().replace("%20", " "));
            let rel = path.strip_prefix(ws).unwrap().to_string_lossy().to_string();
            let text = texts.get(&rel).cloned().unwrap_or_else(|| std::fs::read_to_string(&path).unwrap_or_default());
            let mut v: Vec<Diag> = diags
                .iter()
                .map(|d| {
                    let line = d["range"]["start"]["line"].as_u64().unwrap();
                    let character = d["range"]["start"]["character"].as_u64().unwrap();
                    let col = scalar_column(&text, line as usize, character as usize, self.utf8);
                    let sev = if d["severity"] == 1 { "error" } else { "warning" };
                    (line + 1, col + 1, d["code"].as_str().unwrap().to_string(), sev.to_string())
                })
                .collect();
            v.sort();
            out.insert(rel, v);
        }
        out
    }

    fn stop(mut self) {
        let id = self.client.send_request("shutdown", Value::Null);
        self.wait_for(|m| m["id"] == json!(id));
        self.client.notify("exit", Value::Null);
        let _ = self.client.exit_status();
    }
}

/// A column in the client's encoding → the number of Unicode scalar values before it.
fn scalar_column(text: &str, line: usize, character: usize, utf8: bool) -> u64 {
    // Lines as the server counts them: LF, CRLF and a lone CR each end one.
    let mut rest = text;
    for _ in 0..line {
        match rest.find(['\n', '\r']) {
            Some(i) => {
                let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[i + skip..];
            }
            None => return 0,
        }
    }
    let line_text = &rest[..rest.find(['\n', '\r']).unwrap_or(rest.len())];
    let mut units = 0;
    let mut chars = 0;
    for c in line_text.chars() {
        if units >= character {
            break;
        }
        units += if utf8 { c.len_utf8() } else { c.len_utf16() };
        chars += 1;
    }
    chars
}

/// What `rustkeep check --format json` reports for the workspace as it is on disk.
fn check_lists(ws: &Path) -> Lists {
    let out = Command::new(binary()).args(["check", ".", "--format", "json"]).current_dir(ws).output().expect("run rustkeep check");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("check printed no JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    let mut out = Lists::new();
    for d in v["diagnostics"].as_array().unwrap() {
        let file = d["file"].as_str().unwrap().trim_start_matches("./").to_string();
        let entry = (
            d["range"]["start"]["line"].as_u64().unwrap(),
            d["range"]["start"]["column"].as_u64().unwrap(),
            d["code"].as_str().unwrap().to_string(),
            d["severity"].as_str().unwrap().to_string(),
        );
        out.entry(file).or_default().push(entry);
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}

/// What one seeded run found wrong (empty: nothing).
fn run(seed: u64, env: &[(&str, &str)], rounds: usize) -> Vec<String> {
    let mut g = Gen::new(seed);
    let base = TempDir::new(&format!("lsp-order-{seed}"));
    let ws = base.join("ws");
    for m in ["fire_and_thorns", "rat_catcher"] {
        copy_dir(&repo_path("examples").join(m), &ws.join(m));
    }
    let mut originals: BTreeMap<String, String> = BTreeMap::new();
    for m in ["fire_and_thorns", "rat_catcher"] {
        for e in std::fs::read_dir(ws.join(m)).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if name.ends_with(".toml") && name != "mod.toml" {
                originals.insert(format!("{m}/{name}"), std::fs::read_to_string(e.path()).unwrap());
            }
        }
    }
    let files: Vec<String> = originals.keys().cloned().collect();
    let mut texts = originals.clone();
    let mut versions: BTreeMap<String, i64> = files.iter().map(|f| (f.clone(), 1)).collect();

    let utf8 = g.chance(50);
    let mut s = Session::start(&ws, &base.join("cache"), utf8, env);
    for f in &files {
        let uri = file_uri(&ws.join(f));
        s.client.open(&uri, &texts[f], 1);
    }
    let mut problems = Vec::new();
    for round in 0..rounds {
        let burst = 1 + g.below(8);
        for _ in 0..burst {
            let f = files[g.below(files.len())].clone();
            let new = mutate(&mut g, &texts[&f], &originals[&f]);
            texts.insert(f.clone(), new.clone());
            let v = versions.get_mut(&f).unwrap();
            *v += 1;
            let uri = file_uri(&ws.join(&f));
            s.client.change(&uri, &new, *v);
            if g.chance(30) {
                // A request: the analysis it runs reaches the publisher on its own path.
                let line = g.below(new.lines().count() + 1);
                let pos = json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": g.below(20) } });
                match g.below(3) {
                    0 => s.client.send_request("textDocument/hover", pos),
                    1 => s.client.send_request("textDocument/completion", pos),
                    _ => s.client.send_request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } })),
                };
            }
            if g.chance(25) {
                s.drain(Duration::from_millis(g.below(25) as u64));
            }
        }
        // Quiet point: the same texts on disk, checked by the CLI.
        for (f, t) in &texts {
            std::fs::write(ws.join(f), t).unwrap();
        }
        let expected = check_lists(&ws);
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut got = Lists::new();
        while Instant::now() < deadline {
            s.drain(Duration::from_millis(30));
            got = s.lists(&ws, &texts);
            if got == expected {
                // Stay a little: a stale list arriving late must be seen too.
                s.drain(Duration::from_millis(100));
                got = s.lists(&ws, &texts);
                break;
            }
        }
        if got != expected {
            problems.push(format!("seed {seed}, round {round}: published lists differ from `rustkeep check`\n  published: {got:?}\n  check:     {expected:?}"));
            break;
        }
    }
    problems.extend(s.regressions.iter().map(|r| format!("seed {seed}: {r}")));
    s.stop();
    problems
}

fn runs() -> u64 {
    std::env::var("RUSTKEEP_LSP_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(100)
}

/// Runs seeds `0..n` on two threads; returns every problem found.
fn run_all(n: u64, env: &'static [(&'static str, &'static str)], rounds: usize, stop_at_first: bool) -> Vec<String> {
    let found = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|sc| {
        for _ in 0..2 {
            sc.spawn(|| loop {
                let seed = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if seed >= n || (stop_at_first && !found.lock().unwrap().is_empty()) {
                    return;
                }
                let p = run(seed, env, rounds);
                found.lock().unwrap().extend(p);
            });
        }
    });
    found.into_inner().unwrap()
}

#[test]
fn published_diagnostics_match_check_after_every_burst() {
    let problems = run_all(runs(), &[("RUSTKEEP_LSP_TEST_JITTER_MS", "15")], 6, false);
    assert!(problems.is_empty(), "{} problem(s):\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_harness_catches_stale_publications_when_the_ordering_guard_is_off() {
    let problems = run_all(40, &[("RUSTKEEP_LSP_TEST_JITTER_MS", "40"), ("RUSTKEEP_LSP_TEST_UNGUARDED", "1")], 8, true);
    assert!(!problems.is_empty(), "without the ordering guard, stale lists were expected to be published and caught");
}
