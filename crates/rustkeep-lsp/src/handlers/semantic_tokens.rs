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
    // Columns are counted on from the token before on the same line, not from the line's start
    // for each token: a line of 40,000 tags costs what it holds, not its square.
    let index = &state.project.file(fid).index;
    let mut counted: Option<(usize, u32, u32)> = None;
    for (s, e, ty, m) in toks {
        let line = index.line_of(s) as u32;
        if index.line_of(e) as u32 != line || e <= s || !text.is_char_boundary(s) || !text.is_char_boundary(e) {
            continue;
        }
        let col = match counted {
            Some((at, l, c)) if l == line && at <= s => c + state.encoding.width(&text[at..s]) as u32,
            _ => state.position(fid, s).character,
        };
        let length = state.encoding.width(&text[s..e]) as u32;
        counted = Some((s, line, col));
        let delta_start = if line == pl { col - pc } else { col };
        data.push(SemanticToken { delta_line: line - pl, delta_start, length, token_type: ty, token_modifiers_bitset: m });
        pl = line;
        pc = col;
    }
    Some(SemanticTokens { result_id: None, data })
}
