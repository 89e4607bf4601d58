//! `textDocument/codeLens`:
//! - `▶ run` above the first line of a scenario file (one scenario per file), which runs it
//!   (`rustkeep.runScenario`, [`crate::scenario_runs`]); after a run of the file's text its title
//!   shows the result: `▶ run · 11 passed`, `▶ run · 2 failed`;
//! - above every creature of a data file, its arena row (`warrior 62 % · mage 40 % · … (1,000
//!   fights)`), and above every loot table what one roll gives (`per roll: 1.2 items · core:gold
//!   40 %`), from the figures computed in the background ([`crate::balance`]); each opens the
//!   entry's full report (`rustkeep.showBalance`, [`show_balance`]).

use rustkeep_data::source::FileKind;
use rustkeep_data::vocab::Registry;
use serde_json::{json, Value};

use crate::balance::{self, SHOW_COMMAND};
use crate::lsp::*;
use crate::scenario_runs::{LENS, RUN_COMMAND};
use crate::state::State;

pub fn code_lenses(state: &State, u: &Uri) -> Option<Vec<CodeLens>> {
    let fid = state.file_of(u)?;
    let f = state.project.file(fid);
    if f.kind == FileKind::Scenario {
        if f.disk_path.is_none() {
            return Some(Vec::new());
        }
        let title = state.last_run(fid).map_or_else(|| LENS.to_string(), |r| r.outcome.lens_title());
        let top = Position { line: 0, character: 0 };
        let command = Command { title, command: RUN_COMMAND.into(), arguments: Some(vec![Value::String(u.as_ref().to_string())]), tooltip: None };
        return Some(vec![CodeLens { range: Range { start: top, end: top }, command: Some(command), data: None }]);
    }
    let Some(facts) = state.facts(fid) else { return Some(Vec::new()) };
    let store = state.balance.lock().unwrap_or_else(|e| e.into_inner());
    let mut lenses = Vec::new();
    for e in &facts.entries {
        let Some(key) = e.key() else { continue };
        let (title, tooltip) = match e.registry {
            Registry::Creatures => {
                (balance::creature_title(&store, &key.value), "Arena win rate of a new character of each option against one of this creature")
            }
            Registry::LootTables => (balance::table_title(&store, &key.value), "Expected items of one roll and the likeliest drop (luck 0, exact)"),
            _ => continue,
        };
        let range = state.range(fid, &e.span);
        let at = Range { start: range.start, end: range.start };
        let command = Command {
            title,
            command: SHOW_COMMAND.into(),
            arguments: Some(vec![Value::String(u.as_ref().to_string()), Value::String(key.value.clone())]),
            tooltip: Some(tooltip.into()),
        };
        lenses.push(CodeLens { range: at, command: Some(command), data: None });
    }
    Some(lenses)
}

/// `rustkeep.showBalance`: `[uri, id]` (a lens) or `[{ "uri", "position" }]` (the entry at the
/// cursor) → `{ "title", "markdown" }`, the entry's full report; a refusal names what is missing.
pub fn show_balance(state: &State, args: &[Value]) -> Result<Value, String> {
    let usage = || format!("`{SHOW_COMMAND}` takes a document URI and an ID, or {{ \"uri\", \"position\" }}");
    let (registry, id) = match args {
        [Value::String(_), Value::String(id)] => {
            let db = state.db();
            let registry = [Registry::Creatures, Registry::LootTables].into_iter().find(|r| db.resolved.get(*r, id).is_some());
            (registry.ok_or_else(|| format!("`{id}` is no creature or loot table of the loaded mods"))?, id.clone())
        }
        [Value::Object(o)] => {
            let uri = o.get("uri").and_then(Value::as_str).ok_or_else(usage)?;
            let position: Position = o.get("position").cloned().and_then(|p| serde_json::from_value(p).ok()).ok_or_else(usage)?;
            let p = TextDocumentPositionParams { text_document: TextDocumentIdentifier { uri: Uri::from(uri.to_string()) }, position };
            let (fid, offset) = state.locate(&p).ok_or_else(|| format!("{uri} is not a file of the loaded mods"))?;
            state.balance_target_at(fid, offset).ok_or("the cursor is on no creature or loot table")?
        }
        _ => return Err(usage()),
    };
    let store = state.balance.lock().unwrap_or_else(|e| e.into_inner());
    let (title, markdown) = balance::report(&store, registry, &id);
    Ok(json!({ "title": title, "markdown": markdown }))
}
