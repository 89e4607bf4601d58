//! One file per LSP method. Each handler is a plain function over [`crate::state::State`].

pub mod code_action;
pub mod code_lens;
pub mod completion;
pub mod definition;
pub mod depends;
pub mod document_highlight;
pub mod document_symbol;
pub mod formatting;
pub mod hover;
pub mod inlay_hint;
pub mod override_entry;
pub mod range_formatting;
pub mod references;
pub mod rename;
pub mod semantic_tokens;
pub mod workspace_symbol;
