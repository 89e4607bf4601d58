//! `textDocument/documentSymbol`: the file's outline, entries grouped by registry.

use rustkeep_data::model::Entry;
use rustkeep_data::source::FileId;
use rustkeep_data::text::Span;
use rustkeep_data::vocab::Registry;

use crate::lsp::*;
use crate::state::State;

pub fn symbol_kind(r: Registry) -> SymbolKind {
    match r {
        Registry::Items => SymbolKind::Object,
        Registry::Affixes => SymbolKind::Property,
        Registry::Creatures => SymbolKind::Class,
        Registry::CharacterOptions => SymbolKind::Struct,
        Registry::Statuses => SymbolKind::EnumMember,
        Registry::Quests => SymbolKind::Event,
        Registry::LootTables => SymbolKind::Array,
        Registry::Floors => SymbolKind::Package,
        Registry::Prefabs => SymbolKind::Module,
        Registry::Npcs => SymbolKind::Interface,
        Registry::Shops => SymbolKind::Namespace,
    }
}

/// The whole extent of an entry: a `[[…]]` entry's span is its header only, so its fields extend it.
pub fn extent(e: &Entry) -> Span {
    let end = e.fields.iter().map(|f| f.span.end).chain([e.span.end]).max().unwrap_or(e.span.end);
    e.span.start..end
}

#[allow(deprecated)]
pub fn document_symbols(state: &State, u: &Uri) -> Option<Vec<DocumentSymbol>> {
    let fid = state.file_of(u)?;
    let facts = state.facts(fid)?;
    let mut groups: Vec<(Registry, Vec<DocumentSymbol>, Span)> = Vec::new();
    for e in &facts.entries {
        let Some(sym) = entry_symbol(state, fid, e) else { continue };
        let ext = extent(e);
        match groups.iter_mut().find(|g| g.0 == e.registry) {
            Some(g) => {
                g.1.push(sym);
                g.2 = g.2.start.min(ext.start)..g.2.end.max(ext.end);
            }
            None => groups.push((e.registry, vec![sym], ext)),
        }
    }
    Some(
        groups
            .into_iter()
            .map(|(r, children, span)| {
                let range = state.range(fid, &span);
                DocumentSymbol {
                    name: r.key().to_string(),
                    detail: Some(format!("{} entr{}", children.len(), if children.len() == 1 { "y" } else { "ies" })),
                    kind: SymbolKind::Namespace,
                    tags: None,
                    deprecated: None,
                    range,
                    selection_range: Range { start: range.start, end: range.start },
                    children: Some(children),
                }
            })
            .collect(),
    )
}

#[allow(deprecated)]
fn entry_symbol(state: &State, fid: FileId, e: &Entry) -> Option<DocumentSymbol> {
    let key = e.key()?;
    let ext = extent(e);
    let range = state.range(fid, &ext);
    let sel = if ext.start <= key.span.start && key.span.end <= ext.end { state.range(fid, &key.span) } else { Range { start: range.start, end: range.start } };
    Some(DocumentSymbol {
        name: key.value.clone(),
        detail: e.name().map(str::to_string),
        kind: symbol_kind(e.registry),
        tags: None,
        deprecated: None,
        range,
        selection_range: sel,
        children: None,
    })
}
