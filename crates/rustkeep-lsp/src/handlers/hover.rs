//! `textDocument/hover`: docs of the vocabulary (events with source, target, payload and `when`
//! fields; checks; actions; attributes; damage types; `who`), field docs on keys, and for an ID its
//! definition (registry, name, mod, file, overrides; for an old ID of `[renamed]`, the rename) — for
//! a loot table also its exact drop chances from the engine; for a creature of an open document its
//! arena row ([`crate::balance`]). In a `mod.toml`, a `depends` or `load_after` entry shows the mod
//! it names and its loaded version ([`super::depends`]).
//!
//! Drop chances come from the engine's exact analysis of the tables the hovered table reaches
//! (nested tables and affix tables, transitively): a table's chances depend on nothing else, so
//! compiling only those gives the same report as compiling the whole workspace, in a fraction of
//! the time. The report is kept per table with the tables compiled for it; after an analysis that
//! changes something it depends on, only the changed tables are compiled again
//! ([`State::loot_report`], [`crate::loot_cache`]); per-table statistics are reused for every
//! table that compiles the same as before with nothing changed below it, so an edit in a long
//! chain recomputes only the tables above the edit. The chances of each affix on each item are
//! not computed: the hover shows the drops.

use rustkeep_data::number::{fixed, percent};
use rustkeep_data::source::FileId;
use rustkeep_data::text::Span;
use rustkeep_data::vocab::{self, EventKind, FieldType, Registry};

use crate::context::{self, Pos, Scope};
use crate::ids::{self, Sym};
use crate::lsp::*;
use crate::state::State;

pub fn hover(state: &State, p: &TextDocumentPositionParams) -> Option<Hover> {
    let (fid, offset) = state.locate(p)?;
    let (md, span) = hover_at(state, fid, offset)?;
    Some(Hover { contents: Contents::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value: md }), range: Some(state.range(fid, &span)) })
}

/// The Markdown shown at a byte offset, and the span it describes.
pub fn hover_at(state: &State, fid: FileId, offset: usize) -> Option<(String, Span)> {
    if let Some(o) = ids::at(state, fid, offset) {
        return Some((id_doc(state, o.sym, &o.name), o.span));
    }
    let text = state.text(fid);
    // Look at the token under the cursor, not the position between tokens.
    let probe = if text[offset.min(text.len())..].chars().next().is_some_and(|c| !c.is_whitespace()) { offset + 1 } else { offset };
    let probe = (probe..=text.len()).find(|&i| text.is_char_boundary(i)).unwrap_or(text.len());
    let ctx = context::at_in(text, probe, context::root_of(state.project.file(fid).kind));
    match &ctx.pos {
        Pos::Value { key, token: Some(tok), .. } => {
            let value = text[ids::inner(text, tok)].to_string();
            if let Some(list) = super::depends::list_at(state, fid, &ctx) {
                return Some((super::depends::hover(state, list, &value)?, tok.clone()));
            }
            let (scope, _) = ctx.value_field()?;
            let md = value_doc(scope, key, &value)?;
            Some((md, tok.clone()))
        }
        Pos::Key { token: Some(tok) } => {
            let key = &text[tok.clone()];
            let scope = ctx.table_scope();
            let md = key_doc(scope, key)?;
            Some((md, tok.clone()))
        }
        _ => None,
    }
}

fn key_doc(scope: Scope, key: &str) -> Option<String> {
    match scope {
        Scope::Config(keys) => keys.iter().find(|k| k.name == key).map(|k| {
            let mut s = format!("**{}** — {}{}\n\n{}", k.name, if k.required { "required, " } else { "" }, k.value, k.doc);
            if let Some(d) = k.default {
                s.push_str(&format!("\n\nDefault: `{d}`"));
            }
            s
        }),
        Scope::Attributes => vocab::ATTRIBUTES.iter().find(|a| a.0 == key).map(|(n, d)| format!("**{n}** (attribute)\n\n{d}")),
        Scope::When(_) => vocab::WHEN_FIELDS.iter().find(|w| w.name == key).map(|w| {
            let events: Vec<String> = vocab::EVENTS.iter().filter(|e| e.when.contains(&w.field)).map(|e| format!("`{}`", e.name)).collect();
            format!("**when.{}**\n\n{}\n\nCarried by: {}", w.name, w.doc, events.join(", "))
        }),
        _ => {
            let f = context::fields(scope).into_iter().find(|f| f.name == key)?;
            let mut s = format!("**{}** — {}{}\n\n{}", f.name, if f.required { "required, " } else { "" }, f.ty.describe(), f.doc);
            if let Some(d) = f.default {
                s.push_str(&format!("\n\nDefault: `{d}`"));
            }
            Some(s)
        }
    }
}

fn value_doc(scope: Scope, key: &str, value: &str) -> Option<String> {
    let ty = match scope {
        Scope::When(_) if key == vocab::payload::DAMAGE_TYPE => FieldType::DamageType,
        _ => context::fields(scope).into_iter().find(|f| f.name == key)?.ty,
    };
    match ty {
        FieldType::Event => EventKind::from_name(value).map(event_doc),
        FieldType::Tag if key == vocab::field::CHECK => vocab::CheckKind::from_name(value).map(|k| {
            let d = k.def();
            format!("**{}** (check)\n\n{}\n\nFields: {}, `not`", d.name, d.doc, field_list(d.fields))
        }),
        FieldType::Tag if key == vocab::field::ACTION => vocab::ActionKind::from_name(value).map(|k| {
            let d = k.def();
            let emits: Vec<String> = d.emits.iter().map(|e| format!("`{}`", e.name())).collect();
            format!(
                "**{}** (action)\n\n{}\n\nFields: {}\n\nEmits: {}",
                d.name,
                d.doc,
                if d.fields.is_empty() { "—".into() } else { field_list(d.fields) },
                if emits.is_empty() { "—".into() } else { emits.join(", ") }
            )
        }),
        FieldType::Attribute => vocab::ATTRIBUTES.iter().find(|a| a.0 == value).map(|(n, d)| format!("**{n}** (attribute)\n\n{d}")),
        FieldType::DamageType => vocab::DAMAGE_TYPES.iter().find(|a| a.0 == value).map(|(n, d)| format!("**{n}** (damage type)\n\n{d}")),
        FieldType::Color => vocab::COLORS.iter().find(|a| a.0 == value).map(|(n, d)| format!("**{n}** (colour)\n\n{d}")),
        FieldType::Who => vocab::WHO.iter().find(|a| a.0 == value).map(|(n, d)| format!("**{n}**\n\n{d}")),
        _ => None,
    }
}

fn field_list(fields: &[vocab::FieldDef]) -> String {
    fields
        .iter()
        .map(|f| match (f.required, f.default) {
            (true, _) => format!("`{}` ({})", f.name, f.ty.describe()),
            (false, Some(d)) => format!("`{}` (optional, default {d})", f.name),
            (false, None) => format!("`{}` (optional)", f.name),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn event_doc(e: EventKind) -> String {
    let d = e.def();
    let payload = if d.payload.is_empty() { "—".to_string() } else { d.payload.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ") };
    let when = if d.when.is_empty() { "—".to_string() } else { d.when.iter().map(|w| format!("`{}`", w.name())).collect::<Vec<_>>().join(", ") };
    format!("**{}** (event)\n\n{}\n\n- source: {}\n- target: {}\n- payload: {payload}\n- `when` fields: {when}", d.name, d.doc, d.source, d.target)
}

fn id_doc(state: &State, sym: Sym, name: &str) -> String {
    let a = state.db();
    let reg = match sym {
        Sym::Tag => {
            let carriers = state.analysis().carriers(name);
            return format!("**{name}** (tag)\n\nCarried by {carriers} entr{}.", if carriers == 1 { "y" } else { "ies" });
        }
        Sym::Id(r) => r,
    };
    let Some(def) = a.resolved.get(reg, name) else {
        return format!("**{name}** — no {} has this ID", reg.noun());
    };
    let e = a.entry(def.current);
    let mut s = format!("**{name}** ({})", reg.noun());
    if let Some(n) = e.name() {
        s.push_str(&format!(" — {n}"));
    }
    s.push('\n');
    if let Some(r) = a.resolved.renamed_in(reg, name) {
        let f = state.project.file(r.file);
        let line = f.index.line_of(r.old_span.start) + 1;
        let via = if r.next == r.to { String::new() } else { format!(" (through `{}`)", r.next) };
        s.push_str(&format!("\nAn old ID: renamed to `{}`{via} by `[renamed]` in {}:{line}; write the new ID\n", r.to, f.path));
    }
    let place = |r: rustkeep_data::resolve::EntryRef, m: usize| {
        let f = state.project.file(r.file);
        let line = f.index.line_of(a.entry(r).span.start) + 1;
        format!("mod `{}`, {}:{line}", state.project.mods.get(m).map(|m| m.id.as_str()).unwrap_or("?"), f.path)
    };
    if let Some(d) = def.defined {
        let m = state.project.mods.iter().position(|m| m.data_files.contains(&d.file)).unwrap_or(def.mod_idx);
        s.push_str(&format!("\nDefined in {}", place(d, m)));
    }
    for (r, m) in &def.overrides {
        s.push_str(&format!("\n\nOverridden by {}", place(*r, *m)));
    }
    if !def.overrides.is_empty() {
        s.push_str(&format!("\n\nIn force: the entry of mod `{}`", state.project.mods.get(def.mod_idx).map(|m| m.id.as_str()).unwrap_or("?")));
    }
    if reg == Registry::LootTables {
        s.push_str("\n\n");
        s.push_str(&loot_doc(state, name));
    }
    if reg == Registry::Creatures {
        // The arena row, once the balance figures of the open documents have it.
        let store = state.balance.lock().unwrap_or_else(|e| e.into_inner());
        if store.row(name).is_some() {
            s.push_str("\n\n");
            s.push_str(&crate::balance::creature_markdown(&store, name, false));
        }
    }
    s
}

/// The exact drop chances of a loot table (luck 0), kept per analysis.
fn loot_doc(state: &State, id: &str) -> String {
    match &*state.loot_report(id) {
        Ok(report) => {
            let mut s = format!(
                "Exact drop chances per evaluation ({} table, luck 0):\n\n| drop | P(at least one) | expected |\n|---|---|---|\n",
                report.kind.as_str()
            );
            for d in report.drops.iter().take(20) {
                s.push_str(&format!("| `{}` | {} | {} |\n", d.id, percent(d.p_any), fixed(d.expected, 4)));
            }
            if report.drops.len() > 20 {
                s.push_str(&format!("\n… and {} more (`rustkeep loot {id}`)", report.drops.len() - 20));
            }
            s
        }
        Err(e) => format!("Drop chances unavailable: {e}"),
    }
}
