//! `textDocument/semanticTokens/full`: IDs (definitions marked, core IDs as default library), tags,
//! event names, checks and actions, and the closed vocabulary (`who`, attributes, damage types).

use rustkeep_data::vocab::{self, field, EventKind};

use crate::context;
use crate::ids::{self, Role, Sym};
use crate::lsp::*;
use crate::state::State;

const TYPES: &[&str] = &["variable", "type", "event", "function", "enumMember"];
const MODIFIERS: &[&str] = &["declaration", "defaultLibrary"];

pub fn legend() -> serde_json::Value {
    serde_json::json!({ "tokenTypes": TYPES, "tokenModifiers": MODIFIERS })
}

pub fn full(state: &State, u: &Uri) -> Option<SemanticTokens> {
    let fid = state.file_of(u)?;
    let text = state.text(fid);
    // (start, end, type, modifiers)
    let mut toks: Vec<(usize, usize, u32, u32)> = Vec::new();
    for o in ids::in_file(state, fid) {
        let inner = ids::inner(text, &o.span);
        let ty = if o.sym == Sym::Tag { 1 } else { 0 };
        let mut m = 0;
        if matches!(o.role, Role::Definition | Role::Override) {
            m |= 1;
        }
        if vocab::namespace_of(&o.name) == vocab::CORE_NAMESPACE {
            m |= 2;
        }
        toks.push((inner.start, inner.end, ty, m));
    }
    for (key, span) in context::string_values(text) {
        let v = &text[span.clone()];
        let ty = match key.as_str() {
            field::ON if EventKind::from_name(v).is_some() => 2,
            field::CHECK if vocab::CheckKind::from_name(v).is_some() => 3,
            field::ACTION if vocab::ActionKind::from_name(v).is_some() => 3,
            field::WHO | field::TARGET if vocab::WHO.iter().any(|w| w.0 == v) => 4,
            field::DAMAGE_TYPE if vocab::is_damage_type(v) => 4,
            field::ATTRIBUTE if vocab::is_attribute(v) => 4,
            _ => continue,
        };
        toks.push((span.start, span.end, ty, 0));
    }
    toks.sort();
    toks.dedup_by(|a, b| a.0 < b.1 && b.0 < a.1);
    let mut data = Vec::with_capacity(toks.len());
    let (mut pl, mut pc) = (0u32, 0u32);
    for (s, e, ty, m) in toks {
        let a = state.position(fid, s);
        let b = state.position(fid, e);
        if a.line != b.line || b.character <= a.character {
            continue;
        }
        let delta_start = if a.line == pl { a.character - pc } else { a.character };
        data.push(SemanticToken { delta_line: a.line - pl, delta_start, length: b.character - a.character, token_type: ty, token_modifiers_bitset: m });
        pl = a.line;
        pc = a.character;
    }
    Some(SemanticTokens { result_id: None, data })
}
