//! `textDocument/codeAction`: quick fixes for the diagnostics under the cursor — the diagnostic's
//! own suggested fix ("did you mean"), "add missing required field", and "silence with
//! `# rustkeep: allow(code)`" — and, on an ID of another mod or the core, "override this entry in
//! my mod" ([`super::override_entry`]). Computed from the server's current diagnostics, so stale client
//! copies cannot produce wrong edits.

use std::collections::HashMap;

use rustkeep_data::diag::{Code, Diagnostic};
use rustkeep_data::source::FileId;
use rustkeep_data::vocab::{self, FieldDef, FieldType};

use crate::lsp::*;
use crate::state::State;

/// At most this many diagnostics of the range get their quick fixes in one answer.
const MAX_DIAGNOSTICS: usize = 1000;

pub fn code_actions(state: &State, u: &Uri, range: Range) -> Option<Vec<CodeActionResponse>> {
    let fid = state.file_of(u)?;
    let start = state.offset(fid, range.start);
    let end = state.offset(fid, range.end);
    let mut out = Vec::new();
    // The multi-line strings (prefab grids) of the file in the order of the text: found once, not
    // once per diagnostic.
    let grids: Vec<(std::ops::Range<usize>, usize)> = state
        .facts(fid)
        .into_iter()
        .flat_map(|ff| &ff.entries)
        .flat_map(|e| &e.fields)
        .filter(|f| f.def.ty == FieldType::Grid)
        .map(|f| (f.span.clone(), f.key_span.start))
        .collect();
    // A menu of more than a thousand diagnostics' fixes helps nobody, and building it for a range
    // over a whole generated file would keep every later request waiting (`rustkeep check --fix`
    // applies a file's safe fixes).
    let in_range = state.diagnostics(fid).iter().filter(|d| d.loc.span.start <= end && start <= d.loc.span.end);
    for d in in_range.take(MAX_DIAGNOSTICS) {
        out.extend(actions_for(state, fid, u, d, &grids).into_iter().map(CodeActionResponse::CodeAction));
    }
    out.extend(super::override_entry::actions(state, fid, start).into_iter().map(CodeActionResponse::CodeAction));
    Some(out)
}

fn edit(u: &Uri, edits: Vec<TextEdit>) -> WorkspaceEdit {
    WorkspaceEdit { changes: Some(HashMap::from([(u.clone(), edits)])), ..Default::default() }
}

fn action(title: String, d: &crate::lsp::Diagnostic, u: &Uri, edits: Vec<TextEdit>, preferred: bool) -> CodeAction {
    CodeAction {
        title,
        kind: Some(CodeActionKind::QuickFix),
        diagnostics: Some(vec![d.clone()]),
        is_preferred: preferred.then_some(true),
        edit: Some(edit(u, edits)),
        ..Default::default()
    }
}

/// The quick fixes of one diagnostic; `grids` are the spans of the file's multi-line strings with
/// the start of their keys.
fn actions_for(state: &State, fid: FileId, u: &Uri, d: &Diagnostic, grids: &[(std::ops::Range<usize>, usize)]) -> Vec<CodeAction> {
    let ld = state.to_lsp_diagnostic(d);
    let text = state.text(fid);
    let mut out = Vec::new();
    if let Some(fix) = &d.fix {
        // Every fix is offered here, the unsafe ones too (the author sees the edit before taking
        // it); only a safe one is the preferred action that editors apply with one key.
        let e = TextEdit { range: state.range(fid, &fix.span), new_text: fix.replacement.clone() };
        out.push(action(capitalize(&fix.message), &ld, u, vec![e], rustkeep_check::fix::is_safe(d)));
    }
    if d.code == Code::MissingField {
        if let Some(name) = d.message.split("required field `").nth(1).and_then(|r| r.split('`').next()) {
            if let Some(e) = add_field(state, fid, &d.loc.span, name) {
                out.push(action(format!("Add `{name}`"), &ld, u, vec![e], false));
            }
        }
    }
    // Silence: a comment on the line above the diagnostic (above the field's key when the
    // diagnostic sits inside a multi-line string such as a prefab grid), where one can.
    if !rustkeep_check::can_allow(state.facts(fid), d.code) {
        return out;
    }
    let mut anchor = d.loc.span.start;
    let at = grids.partition_point(|(span, _)| span.start <= anchor);
    if let Some((_, key)) = at.checked_sub(1).and_then(|i| grids.get(i)).filter(|(span, _)| anchor <= span.end) {
        anchor = *key;
    }
    let f = state.project.file(fid);
    let line = f.index.line_of(anchor);
    let lspan = f.index.line_span(text, line);
    let indent: String = text[lspan.clone()].chars().take_while(|c| *c == ' ' || *c == '\t').collect();
    let at = state.position(fid, lspan.start);
    let e = TextEdit { range: Range { start: at, end: at }, new_text: format!("{indent}# rustkeep: allow({})\n", d.code.name()) };
    out.push(action(format!("Silence `{}` here with `# rustkeep: allow({})`", d.code.name(), d.code.name()), &ld, u, vec![e], false));
    out
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A field definition by name, from any table of the schema.
fn field_def(name: &str) -> Option<&'static FieldDef> {
    let lists: Vec<&'static [FieldDef]> = vocab::REGISTRIES
        .iter()
        .map(|r| r.fields)
        .chain([vocab::TRIGGER_FIELDS, vocab::MODIFIER_FIELDS, vocab::AI_FIELDS, vocab::LOOT_ENTRY_FIELDS])
        .chain(vocab::CHECKS.iter().map(|c| c.fields))
        .chain(vocab::ACTIONS.iter().map(|a| a.fields))
        .collect();
    lists.into_iter().flat_map(|l| l.iter()).find(|f| f.name == name)
}

/// A value that parses and shows the modder what goes there.
fn placeholder(f: &FieldDef) -> String {
    match f.ty {
        FieldType::Int { min, .. } => min.max(1).to_string(),
        FieldType::Float { .. } => "1.0".into(),
        FieldType::Chance | FieldType::Fraction => "0.5".into(),
        FieldType::Number => "0".into(),
        FieldType::Bool => "false".into(),
        FieldType::True => "true".into(),
        FieldType::Range => "1".into(),
        FieldType::Event => format!("\"{}\"", vocab::EventKind::TurnStarted.name()),
        FieldType::DamageType => format!("\"{}\"", vocab::damage::PHYSICAL),
        FieldType::Attribute => format!("\"{}\"", vocab::attr::DAMAGE),
        FieldType::Who => format!("\"{}\"", vocab::who::SELF),
        FieldType::Enum(v) => format!("\"{}\"", v.first().copied().unwrap_or("")),
        FieldType::Color => format!("\"{}\"", vocab::color::WHITE),
        FieldType::Glyph => "\"?\"".into(),
        FieldType::Grid => "\"\"\"\n\"\"\"".into(),
        FieldType::Tags
        | FieldType::RefList(_)
        | FieldType::Modifiers
        | FieldType::Triggers
        | FieldType::Actions
        | FieldType::Ai
        | FieldType::Conditions
        | FieldType::LootEntries => "[]".into(),
        FieldType::AttributeTable | FieldType::When => "{}".into(),
        _ => "\"\"".into(),
    }
}

/// Inserts `name = placeholder` into the table at `span` (a `[[…]]` header or an inline table).
fn add_field(state: &State, fid: FileId, span: &std::ops::Range<usize>, name: &str) -> Option<TextEdit> {
    let text = state.text(fid);
    let value = placeholder(field_def(name)?);
    let table = text.get(span.clone())?;
    if table.starts_with('[') {
        // After the header line.
        let f = state.project.file(fid);
        let line = f.index.line_of(span.start);
        let lspan = f.index.line_span(text, line);
        let at = if lspan.end < text.len() { f.index.line_span(text, line + 1).start.max(lspan.end + 1).min(text.len()) } else { lspan.end };
        let prefix = if lspan.end >= text.len() { "\n" } else { "" };
        let pos = state.position(fid, at);
        return Some(TextEdit { range: Range { start: pos, end: pos }, new_text: format!("{prefix}{name} = {value}\n") });
    }
    if table.starts_with('{') && table.ends_with('}') {
        let inner = &table[1..table.len() - 1];
        let trimmed = inner.trim_end();
        let (at, new_text) = if inner.trim().is_empty() {
            (span.start + 1, format!(" {name} = {value} "))
        } else if trimmed.ends_with(',') {
            (span.start + 1 + trimmed.len(), format!(" {name} = {value}"))
        } else {
            (span.start + 1 + trimmed.len(), format!(", {name} = {value}"))
        };
        let pos = state.position(fid, at);
        return Some(TextEdit { range: Range { start: pos, end: pos }, new_text });
    }
    None
}
