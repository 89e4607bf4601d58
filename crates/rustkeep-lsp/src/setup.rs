//! What the server decides at `initialize` from the client's parameters: the position encoding,
//! the workspace folders, and the capabilities it announces (docs/editors/lsp.md).

use std::path::{Path, PathBuf};

use rustkeep_data::echo::inert;
use rustkeep_data::project::Project;
use rustkeep_data::text::Encoding;

use crate::handlers;
use crate::lsp::*;
use crate::uri;

/// The encoding to use: UTF-8 if the client offers it, else UTF-16 (docs/editors/lsp.md).
pub fn negotiate(params: &InitializeParams) -> Encoding {
    let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_ref());
    if offered.is_some_and(|v| v.contains(&PositionEncodingKind::UTF8)) {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    }
}

/// The workspace folders (or the deprecated root URI).
#[allow(deprecated)]
pub fn roots(params: &InitializeParams) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(WorkspaceFolders::WorkspaceFolderList(list)) = &params.workspace_folders_initialize_params.workspace_folders {
        out.extend(list.iter().filter_map(|f| uri::to_path(&f.uri)));
    }
    if out.is_empty() {
        if let Some(u) = &params.root_uri {
            out.extend(uri::to_path(u));
        }
    }
    out
}

pub fn capabilities(enc: Encoding) -> ServerCapabilities {
    let legend = handlers::semantic_tokens::legend();
    serde_json::from_value(serde_json::json!({
        "positionEncoding": if enc == Encoding::Utf8 { "utf-8" } else { "utf-16" },
        "textDocumentSync": { "openClose": true, "change": 2, "save": { "includeText": false } },
        "completionProvider": { "triggerCharacters": ["[", "\"", "=", " ", ",", "{", ":"] },
        "hoverProvider": true,
        "definitionProvider": true,
        "referencesProvider": true,
        "documentHighlightProvider": true,
        "renameProvider": { "prepareProvider": true },
        "codeActionProvider": { "codeActionKinds": ["quickfix", "refactor.rewrite"] },
        "codeLensProvider": { "resolveProvider": false },
        "executeCommandProvider": { "commands": [crate::scenario_runs::RUN_COMMAND] },
        "documentSymbolProvider": true,
        "workspaceSymbolProvider": true,
        "inlayHintProvider": true,
        "semanticTokensProvider": { "legend": legend, "full": true },
        "documentFormattingProvider": true,
        "documentRangeFormattingProvider": true,
    }))
    .expect("the capability literal matches the LSP schema")
}

/// The line the server starts with in the client's log (`window/logMessage`): the workspace
/// folders it loads, the position encoding, and where the core's files are. It is read by people
/// in an editor's output panel, so paths are written as paths, not as Rust values
/// (`Some("/…")`, `["/…"]`), with control characters escaped as everything echoed of a
/// stranger's files is.
pub fn startup_line(version: &str, roots: &[PathBuf], enc: Encoding, core_dir: Option<&Path>) -> String {
    let folders = match roots {
        [] => "no workspace folder".to_string(),
        [one] => format!("workspace folder {}", inert(&one.display().to_string())),
        many => format!("workspace folders {}", many.iter().map(|r| inert(&r.display().to_string()).into_owned()).collect::<Vec<_>>().join(", ")),
    };
    let positions = match enc {
        Encoding::Utf8 => "UTF-8",
        Encoding::Utf16 => "UTF-16",
        Encoding::Scalar => "Unicode scalar values",
    };
    let core = match core_dir {
        Some(d) => format!("the core's files served from {}", inert(&d.display().to_string())),
        None => "the core's files not written (go to definition cannot open them)".to_string(),
    };
    format!("rustkeep {version}: {folders}; positions in {positions}; {core}")
}

/// The params of `rustkeep/loaded`: the mods loaded besides the core, and the files loaded
/// besides the core's — data files, manifests, `rustkeep.toml` and scenario files, as
/// `rustkeep check` counts them in "N files of M mods" (`Summary::of` in rustkeep-cli), so that
/// an editor's status and a check of the same folder give the same numbers. At `initialize` no
/// buffer is open yet, so every file counted is one on disk.
pub fn loaded_counts(project: &Project) -> serde_json::Value {
    let mods = project.mods.iter().filter(|m| !m.is_core).count();
    let files = project.files.iter().filter(|f| !f.bundled).count();
    serde_json::json!({ "mods": mods, "files": files })
}

/// `rustkeep/loaded`, a notification of this server's own (docs/editors/lsp.md): once the client
/// is initialized, `{ "mods": N, "files": N }` ([`loaded_counts`]). An editor shows it in its status; a client that does not know the method
/// ignores it, as the protocol says.
pub struct Loaded;

impl Notification for Loaded {
    type Params = serde_json::Value;
    const METHOD: LspNotificationMethod<'static> = LspNotificationMethod::Custom("rustkeep/loaded");
    const MESSAGE_DIRECTION: MessageDirection = MessageDirection::ServerToClient;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The startup line is read in an editor's log: plain paths, never Rust's debug syntax.
    #[test]
    fn the_startup_line_writes_paths_not_rust_values() {
        let roots = [PathBuf::from("/w/examples")];
        let line = startup_line("0.1.0", &roots, Encoding::Utf16, Some(Path::new("/c/core-0.1.0")));
        assert_eq!(line, "rustkeep 0.1.0: workspace folder /w/examples; positions in UTF-16; the core's files served from /c/core-0.1.0");
        let two = [PathBuf::from("/a"), PathBuf::from("/b")];
        let line = startup_line("0.1.0", &two, Encoding::Utf8, None);
        assert_eq!(line, "rustkeep 0.1.0: workspace folders /a, /b; positions in UTF-8; the core's files not written (go to definition cannot open them)");
        assert!(startup_line("0.1.0", &[], Encoding::Utf16, None).contains("no workspace folder"));
        for l in [line, startup_line("0.1.0", &[PathBuf::from("/x\u{1b}]0;y")], Encoding::Utf16, None)] {
            assert!(!l.contains("Some(") && !l.contains("[\"") && !l.contains('\u{1b}'), "{l}");
        }
    }
}
