//! The real binary driven by a real client library: `tests/lsp-client/client.js` uses
//! `vscode-languageserver-protocol` (what VS Code's language client is built on) for initialize,
//! diagnostics, hover (an event; a loot table's exact chances), inlay hints, rename across files,
//! the "did you mean" code action, and symbols — once with UTF-16 and once with UTF-8 negotiated,
//! on a line with an umlaut and an emoji. The script asserts; this test prepares the workspace and
//! runs it. Skips (saying so) when `node` or the script's `node_modules` (`npm ci` in
//! `tests/lsp-client`, done by `.ci/run`) are missing, and fails then under
//! `RUSTKEEP_REQUIRE_TOOLS=1`.

use std::path::Path;

use rustkeep_testutil::{copy_dir, repo_path, tools, TempDir};

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} in {}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn vscode_languageserver_protocol_client_in_utf16_and_utf8() {
    let client_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lsp-client");
    if !tools::node_project(&client_dir, "vscode-languageserver-protocol") {
        return;
    }
    let examples = repo_path("examples");
    for encoding in ["utf-16", "utf-8"] {
        let ws = TempDir::new(encoding);
        for m in ["rat_catcher", "fire_and_thorns"] {
            copy_dir(&examples.join(m), &ws.join(m));
        }
        // The mistakes the script looks for.
        edit(&ws.join("rat_catcher/quests.toml"), "on = \"creature_died\"", "on = \"creature_dyed\"");
        edit(&ws.join("rat_catcher/loot.toml"), "{ item = \"core:rat_tail\", weight = 5", "{ item = \"core:rät_🐀tail\", weight = 5");
        let cache = TempDir::new(&format!("{encoding}-cache"));
        let args = [Path::new(env!("CARGO_BIN_EXE_rustkeep")), &*ws, Path::new(encoding), &*cache];
        let out = tools::node(&client_dir, "client.js", &args);
        let (stdout, stderr) = (&out.stdout, &out.stderr);
        assert!(out.status.success(), "the client's checks failed with {encoding}:\n{stderr}\n{stdout}");
        eprintln!("{stdout}");
        assert!(stdout.contains(&format!("\"encoding\": \"{encoding}\"")), "{stdout}");
    }
}
