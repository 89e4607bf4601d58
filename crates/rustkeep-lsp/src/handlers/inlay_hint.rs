//! `textDocument/inlayHint`: after each weighted loot entry, its share of the table's total weight
//! (`12.50 %`) — the chance that one roll picks it.

use rustkeep_data::vocab::Registry;

use crate::lsp::*;
use crate::state::State;

/// `12.50 %`, `33.33 %`: the chance one roll picks the entry, written as every chance is
/// ([`rustkeep_data::number::percent`]).
pub fn share(weight: u64, total: u64) -> String {
    rustkeep_data::number::percent(weight as f64 / total as f64)
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
