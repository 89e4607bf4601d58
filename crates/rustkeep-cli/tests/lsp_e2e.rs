//! End to end: the real `rustkeep lsp` binary over stdio with Content-Length framing —
//! initialize (UTF-8 negotiated) → diagnostics pushed → didOpen → completion → definition into the
//! served core → shutdown/exit.

mod common;

use rustkeep_testutil::{file_uri, LspClient, TempDir};
use serde_json::json;

#[test]
fn lsp_over_stdio() {
    let ws = TempDir::new("lsp-e2e");
    let m = ws.join("rat_catcher");
    rustkeep_testutil::copy_dir(&rustkeep_testutil::repo_path("examples/rat_catcher"), &m);
    let cache = TempDir::new("lsp-e2e-cache");
    let mut c = LspClient::spawn(common::lsp_command(env!("CARGO_BIN_EXE_rustkeep"), &cache));

    let init = c.initialize(json!({
        "processId": null,
        "rootUri": file_uri(&ws),
        "workspaceFolders": [ { "uri": file_uri(&ws), "name": "ws" } ],
        "capabilities": { "general": { "positionEncodings": ["utf-8", "utf-16"] },
                          "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } }
    }));
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    assert!(init["capabilities"]["completionProvider"].is_object());

    // The clean example gets an (empty) list.
    let quests = m.join("quests.toml");
    let quests_uri = file_uri(&quests);
    assert!(c.diagnostics(&quests_uri).1.is_empty());

    // Open it with a wrong event and an umlaut before it on the same line.
    let text = std::fs::read_to_string(&quests).unwrap();
    let broken = text.replacen("on = \"creature_died\"", "on = \"creature_dyed\" # ä", 1);
    let line = broken.lines().position(|l| l.contains("creature_dyed")).unwrap();
    c.open(&quests_uri, &broken, 1);
    let diags = c.diagnostics(&quests_uri).1;
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
    let diags = c.diagnostics(&quests_uri).1;
    assert!(diags.is_empty(), "{diags:?}");

    c.shutdown();
    let status = c.exit_status();
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}
