//! Every event of the vocabulary is raised, and every action has an effect, in some committed
//! golden trace (`tests/golden/`, checked against the engine by `tests/golden.rs`). A new event
//! or action fails here until the engine raises or runs it in a scenario (docs/ARCHITECTURE.md,
//! "How to …").

use std::collections::BTreeSet;
use std::path::Path;

use rustkeep_data::vocab::{ACTIONS, EVENTS};
use serde_json::Value;

/// Event names handled, and action names that had an effect (not skipped for want of a target).
fn seen() -> (BTreeSet<String>, BTreeSet<String>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let (mut events, mut actions) = (BTreeSet::new(), BTreeSet::new());
    let mut files = 0;
    for e in std::fs::read_dir(&dir).expect("tests/golden").flatten().filter(|e| e.path().extension().is_some_and(|x| x == "json")) {
        let text = std::fs::read_to_string(e.path()).expect("a readable golden trace");
        let json: Value = serde_json::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", e.path().display()));
        files += 1;
        let mut stack = vec![&json];
        while let Some(v) = stack.pop() {
            match v {
                Value::Object(m) => {
                    if let Some(Value::String(ev)) = m.get("event") {
                        events.insert(ev.clone());
                    }
                    if let (Some(Value::String(a)), Some(Value::String(effect))) = (m.get("action"), m.get("effect")) {
                        if !effect.starts_with("skipped") {
                            actions.insert(a.clone());
                        }
                    }
                    stack.extend(m.values());
                }
                Value::Array(a) => stack.extend(a),
                _ => {}
            }
        }
    }
    assert!(files > 5, "found the golden traces");
    (events, actions)
}

#[test]
fn every_event_is_raised_in_some_golden_trace() {
    let (events, _) = seen();
    let missing: Vec<&str> = EVENTS.iter().map(|e| e.name).filter(|e| !events.contains(*e)).collect();
    assert!(missing.is_empty(), "no golden trace handles {missing:?}: raise the event in the engine and add a scenario that shows it");
}

#[test]
fn every_action_has_an_effect_in_some_golden_trace() {
    let (_, actions) = seen();
    let missing: Vec<&str> = ACTIONS.iter().map(|a| a.name).filter(|a| !actions.contains(*a)).collect();
    assert!(missing.is_empty(), "no golden trace runs {missing:?}: give the action its effect in the engine and add a scenario that shows it");
}
