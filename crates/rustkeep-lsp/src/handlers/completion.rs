//! `textDocument/completion` (docs/editors/lsp.md): registry names after `[[`, the fields of the table being
//! written (missing ones only, required first), and values by the field's type: events, `when`
//! fields of the trigger's event, checks, `who`, attributes, damage types, actions (with a snippet
//! of their required fields), and IDs of the right registry and loot-table kind; in a `mod.toml`,
//! mods and version requirements in `depends` ([`super::depends`]).

use std::collections::BTreeSet;
use std::ops::Bound;
use std::sync::Arc;

use rustkeep_data::db::TableKind;
use rustkeep_data::source::FileId;
use rustkeep_data::text::Span;
use rustkeep_data::vocab::{self, FieldDef, FieldType, IdText, RefKind, Registry, WhenValue};

use crate::context::{self, Context, Pos, Scope};
use crate::lsp::*;
use crate::state::State;

/// At most this many IDs are offered at once. A big pack has tens of thousands of IDs of one
/// registry (the large benchmark pack: 20,000 item tables), and sending them all costs tens of
/// milliseconds per keystroke. Past the limit the IDs are taken from the sorted index by what is
/// typed in the string so far: those that start with it, and those whose name after the
/// namespace starts with it; IDs of the file's own mod first. The list is then marked
/// incomplete, so the client asks again as the user types.
pub const ID_LIMIT: usize = 200;

pub fn completion(state: &State, p: &TextDocumentPositionParams) -> Option<Vec<CompletionItem>> {
    completion_list(state, p).map(|l| l.items)
}

/// The completion list; `is_incomplete` when IDs were left out (see [`ID_LIMIT`]).
pub fn completion_list(state: &State, p: &TextDocumentPositionParams) -> Option<CompletionList> {
    let (fid, offset) = state.locate(p)?;
    let ctx = context::at_in(state.text(fid), offset, context::root_of(state.project.file(fid).kind));
    Some(complete_list(state, fid, offset, &ctx))
}

pub fn complete(state: &State, fid: FileId, offset: usize, ctx: &Context) -> Vec<CompletionItem> {
    complete_list(state, fid, offset, ctx).items
}

fn complete_list(state: &State, fid: FileId, offset: usize, ctx: &Context) -> CompletionList {
    let (items, is_incomplete) = match &ctx.pos {
        Pos::Header { double, prefix, .. } => match ctx.scopes.first() {
            Some(Scope::Fields(fields)) => (table_headers(fields, *double), false),
            // `rustkeep.toml` and `mod.toml` have tables, no lists of tables.
            Some(Scope::Config(keys)) if !*double => (keys.iter().map(config_item).collect(), false),
            Some(Scope::Config(_)) => (Vec::new(), false),
            _ => (headers(*double, prefix), false),
        },
        Pos::Key { .. } => (keys(ctx), false),
        Pos::Value { string, closed, .. } => values(state, fid, offset, ctx, string.clone(), *closed),
        Pos::Other => (Vec::new(), false),
    };
    CompletionList { is_incomplete, items, ..Default::default() }
}

fn headers(double: bool, prefix: &str) -> Vec<CompletionItem> {
    let mut out = Vec::new();
    if let Some((reg, _)) = prefix.split_once('.') {
        // `[[items.` → the list-of-tables fields of that registry.
        if let Some(r) = Registry::from_key(reg) {
            for f in r.def().fields.iter().filter(|f| matches!(f.ty, FieldType::Triggers | FieldType::Ai | FieldType::LootEntries)) {
                out.push(item(format!("{reg}.{}", f.name), CompletionItemKind::Field, f.ty.describe(), f.doc));
            }
        }
        return out;
    }
    for r in vocab::REGISTRIES {
        out.push(item(r.key.to_string(), CompletionItemKind::Class, format!("[[{}]] — {}", r.key, r.noun), r.doc));
    }
    if !double {
        let fields = vocab::BALANCE_FIELDS.iter().map(|f| format!("`{}`", f.name)).collect::<Vec<_>>().join(", ");
        let key = vocab::BALANCE_KEY;
        out.push(item(key.into(), CompletionItemKind::Class, format!("[{key}] — singleton"), &format!("Balance settings ({fields}).")));
    }
    out
}

/// `[[…]]` and `[…]` in a scenario file: its lists of tables and its tables.
fn table_headers(fields: &[FieldDef], double: bool) -> Vec<CompletionItem> {
    fields
        .iter()
        .filter(|f| if double { matches!(f.ty, FieldType::TableList(_)) } else { matches!(f.ty, FieldType::Table(_)) })
        .map(|f| item(f.name.to_string(), CompletionItemKind::Class, f.ty.describe(), f.doc))
        .collect()
}

fn item(label: String, kind: CompletionItemKind, detail: String, doc: &str) -> CompletionItem {
    CompletionItem {
        label,
        kind: Some(kind),
        detail: Some(detail),
        documentation: (!doc.is_empty()).then(|| Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value: doc.to_string() })),
        ..Default::default()
    }
}

fn keys(ctx: &Context) -> Vec<CompletionItem> {
    let scope = ctx.table_scope();
    let present = &ctx.table().keys;
    let mut out = Vec::new();
    match scope {
        Scope::Attributes => {
            for (name, doc) in vocab::ATTRIBUTES.iter().filter(|(n, _)| !present.iter().any(|p| p == n)) {
                let mut it = item(name.to_string(), CompletionItemKind::Property, "attribute".into(), doc);
                it.insert_text = Some(format!("{name} = "));
                out.push(it);
            }
        }
        Scope::Config(keys) => {
            // The keys of a table of `rustkeep.toml` or `mod.toml`; the top level holds tables only,
            // which are offered as headers.
            let top = std::ptr::eq(keys, vocab::WORKSPACE_TABLES) || std::ptr::eq(keys, vocab::MANIFEST_TABLES);
            for (i, k) in keys.iter().enumerate().filter(|(_, k)| !top && !present.iter().any(|p| p == k.name)) {
                let mut it = config_item(k);
                it.insert_text = Some(format!("{} = ", k.name));
                it.sort_text = Some(format!("{}{i:02}", if k.required { 0 } else { 1 }));
                out.push(it);
            }
        }
        Scope::When(event) => {
            for w in vocab::WHEN_FIELDS {
                if present.iter().any(|p| p == w.name) || event.is_some_and(|e| !e.carries(w.field)) {
                    continue;
                }
                let mut it = item(w.name.to_string(), CompletionItemKind::Field, "when field".into(), w.doc);
                it.insert_text = Some(format!("{} = ", w.name));
                out.push(it);
            }
        }
        _ => {
            for (i, f) in context::fields(scope).into_iter().enumerate() {
                if present.iter().any(|p| p == f.name) {
                    continue;
                }
                let mut it = item(f.name.to_string(), CompletionItemKind::Field, field_detail(f), f.doc);
                it.insert_text = Some(format!("{} = ", f.name));
                // Required fields first, then in schema order.
                it.sort_text = Some(format!("{}{i:02}", if f.required { 0 } else { 1 }));
                out.push(it);
            }
        }
    }
    out
}

/// A key or table of `rustkeep.toml` or `mod.toml`, with what its value is and its default.
fn config_item(k: &vocab::ConfigKey) -> CompletionItem {
    let mut detail = format!("{}{}", if k.required { "required · " } else { "" }, k.value);
    if let Some(d) = k.default {
        detail.push_str(&format!(" · default {d}"));
    }
    let kind = if k.value == "a table" || !k.keys.is_empty() { CompletionItemKind::Class } else { CompletionItemKind::Field };
    item(k.name.to_string(), kind, detail, k.doc)
}

fn field_detail(f: &FieldDef) -> String {
    let mut s = format!("{}{}", if f.required { "required · " } else { "" }, f.ty.describe());
    if let Some(d) = f.default {
        s.push_str(&format!(" (default {d})"));
    }
    s
}

/// What values a field takes.
enum Want {
    Names(Vec<(&'static str, &'static str)>, CompletionItemKind),
    Ids(RefKind),
    Checks,
    Actions,
    Bool,
    /// `player` and the enemies of the scenario.
    Actors,
    Nothing,
}

fn want_of(ty: FieldType, key: &str, scope: Scope) -> Want {
    match ty {
        FieldType::Event => Want::Names(vocab::EVENTS.iter().map(|e| (e.name, e.doc)).collect(), CompletionItemKind::Event),
        FieldType::DamageType => Want::Names(vocab::DAMAGE_TYPES.to_vec(), CompletionItemKind::EnumMember),
        FieldType::Attribute => Want::Names(vocab::ATTRIBUTES.to_vec(), CompletionItemKind::EnumMember),
        FieldType::Who => Want::Names(vocab::WHO.to_vec(), CompletionItemKind::EnumMember),
        FieldType::Enum(v) => Want::Names(v.iter().map(|s| (*s, "")).collect(), CompletionItemKind::EnumMember),
        FieldType::Color => Want::Names(vocab::COLORS.to_vec(), CompletionItemKind::Color),
        FieldType::Ref(k) | FieldType::RefList(k) => Want::Ids(k),
        FieldType::StartAt => Want::Ids(RefKind::Registry(vocab::Registry::Floors)),
        FieldType::Bound { .. } => Want::Nothing,
        FieldType::Overrides => match scope {
            Scope::Entry(r) => Want::Ids(RefKind::Registry(r)),
            _ => Want::Nothing,
        },
        FieldType::Tag if key == vocab::field::CHECK => Want::Checks,
        FieldType::Tag if key == vocab::field::ACTION => Want::Actions,
        FieldType::Bool | FieldType::True => Want::Bool,
        FieldType::Actor => Want::Actors,
        _ => Want::Nothing,
    }
}

/// The values for the field under the cursor, and whether IDs were left out.
fn values(state: &State, fid: FileId, offset: usize, ctx: &Context, string: Option<Span>, closed: bool) -> (Vec<CompletionItem>, bool) {
    // The cursor right after a closed string: the string is replaced, quotes and all.
    let after_string = match &ctx.pos {
        Pos::Value { string: None, token: Some(t), .. } if t.end == offset && state.text(fid)[t.clone()].ends_with(['"', '\'']) => Some(t.clone()),
        _ => None,
    };
    if let Some(list) = super::depends::list_at(state, fid, ctx) {
        return (super::depends::complete(state, fid, offset, list, string, after_string), false);
    }
    let Some((scope, key)) = ctx.value_field() else { return (Vec::new(), false) };
    let want = match scope {
        Scope::When(_) => match vocab::WhenField::from_name(key).map(|w| w.def().value) {
            Some(WhenValue::DamageType) => want_of(FieldType::DamageType, key, scope),
            Some(WhenValue::Outcome) => Want::Names(vocab::OUTCOMES.iter().map(|s| (*s, "")).collect(), CompletionItemKind::EnumMember),
            Some(WhenValue::Id(r)) => Want::Ids(RefKind::Registry(r)),
            None => Want::Nothing,
        },
        Scope::Root if key == vocab::field::TAGS => Want::Nothing,
        _ => match context::fields(scope).into_iter().find(|f| f.name == key) {
            Some(f) => want_of(f.ty, key, scope),
            None => Want::Nothing,
        },
    };
    // Where the value goes: inside the string under the cursor, or a new quoted string.
    let text = state.text(fid);
    let edit_range = |quoted_tail: bool| -> (Span, bool) {
        match &string {
            Some(s) => {
                let end = if quoted_tail && closed { s.end + 1 } else { s.end };
                (s.start..end.min(text.len()), true)
            }
            None => (after_string.clone().unwrap_or(offset..offset), false),
        }
    };
    // Every item replaces the same range: compute it (and its LSP form) once.
    let plain_range = edit_range(false);
    let plain_lsp = state.range(fid, &plain_range.0);
    let mk = |label: &str, kind: CompletionItemKind, detail: String, doc: &str, snippet_tail: Option<String>| -> CompletionItem {
        let mut it = item(label.to_string(), kind, detail, doc);
        let (range, in_string) = if snippet_tail.is_some() { edit_range(true) } else { plain_range.clone() };
        let new_text = match (&snippet_tail, in_string) {
            (Some(tail), true) => format!("{label}\"{tail}"),
            (Some(tail), false) => format!("\"{label}\"{tail}"),
            (None, true) => label.to_string(),
            (None, false) => format!("\"{label}\""),
        };
        if snippet_tail.is_some() {
            it.insert_text_format = Some(InsertTextFormat::Snippet);
        }
        it.filter_text = Some(if in_string { label.to_string() } else { format!("\"{label}\"") });
        let range = if range == plain_range.0 { plain_lsp } else { state.range(fid, &range) };
        it.text_edit = Some(CompletionItemTextEdit::TextEdit(TextEdit { range, new_text }));
        it
    };
    let items = match want {
        Want::Ids(kind) => {
            let typed = string.as_ref().map_or("", |s| text.get(s.start..offset.max(s.start)).unwrap_or(""));
            let own_mod = state.mod_of(fid).map(|m| format!("{}:", m.id));
            let (ids, cut) = ids(state, ctx, kind, typed, own_mod.as_deref());
            return (ids.into_iter().map(|(id, detail)| mk(&id, CompletionItemKind::Reference, detail, "", None)).collect(), cut);
        }
        Want::Names(names, kind) => names.into_iter().map(|(n, d)| mk(n, kind, String::new(), d, None)).collect(),
        Want::Checks => vocab::CHECKS.iter().map(|c| mk(c.name, CompletionItemKind::Function, "check".into(), c.doc, Some(snippet(c.fields)))).collect(),
        Want::Actions => vocab::ACTIONS.iter().map(|a| mk(a.name, CompletionItemKind::Function, "action".into(), a.doc, Some(snippet(a.fields)))).collect(),
        Want::Actors => {
            let enemies = state.facts(fid).and_then(|f| f.scenario.as_ref()).map_or(0, |s| s.enemies.iter().map(|e| e.count as usize).sum::<usize>());
            let mut names = vec![("player".to_string(), "the player".to_string())];
            names.extend((0..enemies.min(ID_LIMIT)).map(|n| (format!("enemy:{n}"), format!("the {} enemy listed", ordinal(n + 1)))));
            names.into_iter().map(|(n, d)| mk(&n, CompletionItemKind::EnumMember, d, "", None)).collect()
        }
        Want::Bool => {
            ["true", "false"].iter().map(|b| CompletionItem { label: b.to_string(), kind: Some(CompletionItemKind::Value), ..Default::default() }).collect()
        }
        Want::Nothing => Vec::new(),
    };
    (items, false)
}

/// `1st`, `2nd`, `3rd`, `4th`, … for completion details.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Up to [`ID_LIMIT`] names from a sorted set, for what is typed (see [`ID_LIMIT`]), sorted;
/// and whether some were left out. `keep` filters (loot tables of the wanted kind).
fn select<'a>(sorted: &'a BTreeSet<Arc<str>>, typed: &str, own_mod: Option<&str>, keep: &dyn Fn(&str) -> bool) -> (Vec<&'a str>, bool) {
    let from = |prefix: &str| -> Vec<&'a str> {
        sorted
            .range::<str, _>((Bound::Included(prefix), Bound::Unbounded))
            .take_while(|id| id.starts_with(prefix))
            .map(|id| &**id)
            .filter(|id| keep(id))
            .take(ID_LIMIT + 1)
            .collect()
    };
    // A small set goes out whole: the client filters it as the user types.
    let first: Vec<&str> = sorted.iter().map(|id| &**id).filter(|id| keep(id)).take(ID_LIMIT + 1).collect();
    let small = first.len() <= ID_LIMIT;
    let mut found: Vec<&str> = if small || typed.is_empty() {
        let mut v = if small { Vec::new() } else { own_mod.map(&from).unwrap_or_default() };
        v.extend(first);
        v
    } else {
        let mut v = from(typed);
        if IdText::of(typed).is_bare() {
            // The name after the namespace: one range per namespace, found by skipping from one
            // namespace to the next (`ns;` sorts right after every `ns:…`).
            let mut next = sorted.iter().next();
            while let Some(id) = next {
                let ns = IdText::of(id).namespace().unwrap_or(id);
                v.extend(from(&format!("{ns}:{typed}")));
                next = sorted.range::<str, _>((Bound::Included(format!("{ns};").as_str()), Bound::Unbounded)).next();
            }
        }
        v
    };
    found.sort_unstable();
    found.dedup();
    if small {
        return (found, false);
    }
    let is_own = |id: &str| own_mod.is_some_and(|m| id.starts_with(m));
    found.sort_by_key(|id| (!is_own(id), *id));
    found.truncate(ID_LIMIT);
    found.sort_unstable();
    (found, true)
}

/// `, amount = ${1:1}, damage_type = "${2|physical,…|}", target = "${3|self,target|}"` — the
/// required fields of a check or action, as snippet placeholders.
fn snippet(fields: &[FieldDef]) -> String {
    let mut out = String::new();
    for (i, f) in fields.iter().filter(|f| f.required).enumerate() {
        let n = i + 1;
        let choice = |names: Vec<&str>| format!("\"${{{n}|{}|}}\"", names.join(","));
        let v = match f.ty {
            FieldType::Who => choice(vocab::WHO.iter().map(|w| w.0).collect()),
            FieldType::DamageType => choice(vocab::DAMAGE_TYPES.iter().map(|w| w.0).collect()),
            FieldType::Attribute => choice(vocab::ATTRIBUTES.iter().map(|w| w.0).collect()),
            FieldType::Int { min, .. } => format!("${{{n}:{}}}", min.max(1)),
            FieldType::Fraction | FieldType::Chance => format!("${{{n}:0.5}}"),
            FieldType::Number => format!("${{{n}:0}}"),
            _ => format!("\"${n}\""),
        };
        out.push_str(&format!(", {} = {v}", f.name));
    }
    out
}

/// IDs (or tags) of the wanted kind for what is typed, with "noun · name — mod" as detail, and
/// whether some were left out (see [`ID_LIMIT`]). Read from the analysis's sorted indexes.
fn ids(state: &State, ctx: &Context, kind: RefKind, typed: &str, own_mod: Option<&str>) -> (Vec<(String, String)>, bool) {
    let a = state.db();
    let Some(reg) = kind.registry() else {
        // Tags: every tag some entry carries.
        let (tags, cut) = select(state.analysis().tags(), typed, None, &|_| true);
        return (tags.into_iter().map(|t| (t.to_string(), "tag".to_string())).collect(), cut);
    };
    let table_kind = match kind {
        RefKind::ItemTable => Some(TableKind::Items),
        RefKind::AffixTable => Some(TableKind::Affixes),
        // A nested table has the kind of the table being written.
        RefKind::NestedTable => context::header_string(ctx, vocab::field::ID).and_then(|id| a.table_kinds.get(&id).copied()),
        _ => None,
    };
    // A loot table does not name itself (that would be a cycle).
    let own = if reg == Registry::LootTables { context::header_string(ctx, vocab::field::ID) } else { None };
    let keep = |id: &str| {
        own.as_deref() != Some(id)
            && match table_kind {
                Some(k) => a.table_kinds.get(id).is_none_or(|tk| *tk == k),
                None => true,
            }
    };
    let (found, cut) = select(state.analysis().ids(reg), typed, own_mod, &keep);
    let out = found
        .into_iter()
        .filter_map(|id| {
            let def = a.resolved.get(reg, id)?;
            let e = a.entry(def.current);
            let modname = state.project.mods.get(def.mod_idx).map(|m| m.id.as_str()).unwrap_or("?");
            let mut detail = reg.noun().to_string();
            if let Some(k) = a.table_kinds.get(id).filter(|_| reg == Registry::LootTables) {
                detail = k.noun().trim_start_matches("an ").trim_start_matches("a ").to_string();
            }
            if let Some(n) = e.name() {
                detail.push_str(&format!(" · {n}"));
            }
            detail.push_str(&format!(" — {modname}"));
            Some((id.to_string(), detail))
        })
        .collect();
    (out, cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(n: usize, m: &str) -> BTreeSet<Arc<str>> {
        (0..n).map(|i| Arc::from(format!("{m}:table_{i:04}"))).collect()
    }

    #[test]
    fn long_id_lists_are_cut_by_prefix_own_mod_first_and_marked_incomplete() {
        let all = |_: &str| true;
        // Up to the limit: everything, complete, whatever is typed (the client filters).
        let small = set(ID_LIMIT, "a");
        let (kept, cut) = select(&small, "zz", None, &all);
        assert_eq!((kept.len(), cut), (ID_LIMIT, false));
        // Over it: the file's own mod first, cut to the limit, incomplete.
        let mut ids = set(ID_LIMIT, "a");
        ids.extend(set(50, "own"));
        let (kept, cut) = select(&ids, "", Some("own:"), &all);
        assert_eq!((kept.len(), cut), (ID_LIMIT, true));
        assert_eq!(kept.iter().filter(|id| id.starts_with("own:")).count(), 50);
        // What is typed selects by prefix, of the whole ID or of the name after the namespace.
        let (kept, cut) = select(&ids, "own:table_001", Some("own:"), &all);
        assert_eq!(kept, (10..20).map(|i| format!("own:table_{i:04}")).collect::<Vec<_>>());
        assert!(cut, "the client must ask again as the user types");
        let (kept, _) = select(&ids, "table_0049", None, &all);
        assert_eq!(kept, ["a:table_0049", "own:table_0049"]);
        // The filter applies (loot tables of the wanted kind), also to what counts as few.
        let (kept, cut) = select(&ids, "table_004", None, &|id: &str| id.starts_with("own"));
        assert_eq!((kept.len(), cut), (50, false));
        let mut more = set(300, "a");
        more.extend(set(50, "own"));
        let (kept, cut) = select(&more, "table_004", None, &|id: &str| id.starts_with("a:"));
        assert!(cut);
        assert_eq!(kept, (40..50).map(|i| format!("a:table_{i:04}")).collect::<Vec<_>>());
    }
}
