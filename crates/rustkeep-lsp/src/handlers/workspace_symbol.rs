//! `workspace/symbol`: every entry of every mod and the core, by ID (or name), matching the query
//! as a case-insensitive subsequence.

use crate::handlers::document_symbol::symbol_kind;
use crate::lsp::*;
use crate::state::State;

fn matches(query: &str, s: &str) -> bool {
    let mut chars = s.chars().flat_map(char::to_lowercase);
    query.chars().flat_map(char::to_lowercase).all(|q| chars.any(|c| c == q))
}

pub fn workspace_symbols(state: &State, query: &str) -> Vec<SymbolInformation> {
    let mut out = Vec::new();
    for f in &state.project.files {
        let Some(facts) = state.facts(f.id) else { continue };
        for e in &facts.entries {
            let Some(key) = e.key() else { continue };
            if !matches(query, &key.value) && !e.name().is_some_and(|n| matches(query, n)) {
                continue;
            }
            let Some(location) = state.location(f.id, &key.span) else { continue };
            #[allow(deprecated)]
            out.push(SymbolInformation {
                deprecated: None,
                location,
                base_symbol_information: BaseSymbolInformation {
                    name: key.value.clone(),
                    kind: symbol_kind(e.registry),
                    tags: None,
                    container_name: Some(match e.name() {
                        Some(n) => format!("{} · {n}", e.registry.key()),
                        None => e.registry.key().to_string(),
                    }),
                },
            });
            if out.len() >= 500 {
                return out;
            }
        }
    }
    out
}
