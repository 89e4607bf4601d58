//! `textDocument/inlayHint`: after each weighted loot entry, its share of the table's total weight
//! (`12.5%`) — the chance that one roll picks it.

use rustkeep_data::vocab::Registry;

use crate::lsp::*;
use crate::state::State;

/// `12.5%`, `20%`, `0.37%`.
pub fn share(weight: u64, total: u64) -> String {
    let v = weight as f64 * 100.0 / total as f64;
    let s = if v >= 1.0 { format!("{v:.1}") } else { format!("{v:.2}") };
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    format!("{s}%")
}

pub fn inlay_hints(state: &State, u: &Uri, range: Range) -> Option<Vec<InlayHint>> {
    let fid = state.file_of(u)?;
    let facts = state.facts(fid)?;
    let (from, to) = (state.offset(fid, range.start), state.offset(fid, range.end));
    let mut out = Vec::new();
    for e in facts.entries.iter().filter(|e| e.registry == Registry::LootTables) {
        let entries = e.loot_entries();
        let total: u64 = entries.iter().filter(|le| !le.guaranteed).filter_map(|le| le.weight).sum();
        if total == 0 {
            continue;
        }
        for le in entries {
            let (Some(w), false) = (le.weight, le.guaranteed) else { continue };
            if le.span.end < from || le.span.start > to {
                continue;
            }
            out.push(InlayHint {
                position: state.position(fid, le.span.end),
                label: Label::String(share(w, total)),
                kind: None,
                text_edits: None,
                tooltip: Some(Tooltip::String(format!("weight {w} of {total}: the chance that one roll picks this entry"))),
                padding_left: Some(true),
                padding_right: None,
                data: None,
            });
        }
    }
    Some(out)
}
