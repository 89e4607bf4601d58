//! `textDocument/codeLens`: `▶ run` above the first line of a scenario file (one scenario per
//! file), which runs it (`rustkeep.runScenario`, [`crate::scenario_runs`]); after a run of the
//! file's text its title shows the result: `▶ run · 11 passed`, `▶ run · 2 failed`.

use rustkeep_data::source::FileKind;

use crate::lsp::*;
use crate::scenario_runs::{LENS, RUN_COMMAND};
use crate::state::State;

pub fn code_lenses(state: &State, u: &Uri) -> Option<Vec<CodeLens>> {
    let fid = state.file_of(u)?;
    let f = state.project.file(fid);
    if f.kind != FileKind::Scenario || f.disk_path.is_none() {
        return Some(Vec::new());
    }
    let title = state.last_run(fid).map_or_else(|| LENS.to_string(), |r| r.outcome.lens_title());
    let top = Position { line: 0, character: 0 };
    let command = Command { title, command: RUN_COMMAND.into(), arguments: Some(vec![serde_json::Value::String(u.as_ref().to_string())]), tooltip: None };
    Some(vec![CodeLens { range: Range { start: top, end: top }, command: Some(command), data: None }])
}
