//! What the cross-file rules read of a file's actions and triggers, gathered once per version of
//! the file while it is lowered: the language server's outlines cut actions and triggers, and the
//! rules need not walk every action again after each keystroke.

use crate::model::{Action, ActionData, Entry, Value, When};
use crate::vocab::EventKind;

/// Calls `f` with every action of these entries: in triggers (a quest's reward included), `ai`
/// rules and the registries' own action lists.
fn each_action<'e>(entries: &'e [Entry], mut f: impl FnMut(&'e Action)) {
    for e in entries {
        for field in &e.fields {
            match &field.value {
                Value::Actions(a) => a.iter().for_each(&mut f),
                Value::Triggers(ts) => ts.iter().flat_map(|t| &t.actions).for_each(&mut f),
                Value::Ai(rs) => rs.iter().flat_map(|r| &r.actions).for_each(&mut f),
                _ => {}
            }
        }
    }
}

/// The quests that `start_quest` actions of these entries name, and the items that `give_item`
/// actions name, in one walk over the actions.
pub fn started_and_given(entries: &[Entry]) -> (Vec<String>, Vec<String>) {
    let (mut started, mut given) = (Vec::new(), Vec::new());
    each_action(entries, |a| match &a.data {
        ActionData::StartQuest { quest } => started.push(quest.value.clone()),
        ActionData::GiveItem { item, .. } => given.push(item.value.clone()),
        _ => {}
    });
    (started, given)
}

/// The `when` filters of these entries' triggers (a quest's own included) with their events;
/// none of a trigger that failed validation (its mistake is reported where it is).
pub fn whens(entries: &[Entry]) -> Vec<(EventKind, When)> {
    let mut out = Vec::new();
    for t in entries.iter().flat_map(|e| e.triggers()) {
        if let (Some(on), false) = (&t.on, t.broken) {
            out.extend(t.when.iter().map(|w| (on.value, w.clone())));
        }
    }
    out
}
