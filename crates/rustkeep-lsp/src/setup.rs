//! What the server decides at `initialize` from the client's parameters: the position encoding,
//! the workspace folders, and the capabilities it announces (docs/editors/lsp.md).

use std::path::PathBuf;

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

/// `rustkeep/loaded`, a notification of this server's own (docs/editors/lsp.md): once the client
/// is initialized, `{ "mods": N, "files": N }`, the mods (without the core) the workspace loaded
/// and their data files. An editor shows it in its status; a client that does not know the method
/// ignores it, as the protocol says.
pub struct Loaded;

impl Notification for Loaded {
    type Params = serde_json::Value;
    const METHOD: LspNotificationMethod<'static> = LspNotificationMethod::Custom("rustkeep/loaded");
    const MESSAGE_DIRECTION: MessageDirection = MessageDirection::ServerToClient;
}
