//! The causal trace of a run: per step, every handled event with every trigger that listened to
//! it (fired or not, and why not), and the renderers for JSON (keys stable, docs/cli.md) and for
//! humans (an indented tree: an event raised while handling another sits below it).

use std::sync::Arc;

use serde_json::{json, Map, Value as Json};

use crate::game::payload_value;

/// The trace being recorded in the running step.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub events: Vec<TraceEvent>,
    /// Events handled in this step (the cap counts these).
    pub handled: usize,
    /// Events dropped past the cap.
    pub dropped: usize,
    /// The event being handled (index into `events`): the cause of events raised now.
    pub current: Option<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TraceEvent {
    pub event: String,
    pub source: String,
    pub target: Option<String>,
    pub payload: Map<String, Json>,
    /// Index of the event whose trigger raised this one; `None` when the step itself did.
    pub cause: Option<usize>,
    pub triggers: Vec<TraceTrigger>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TraceTrigger {
    /// The entry ID of the trigger's bearer.
    pub owner: String,
    /// `file:line` of the trigger.
    pub at: Arc<str>,
    pub fired: bool,
    pub reason: Option<String>,
    /// For quests: `count/needed` after this event.
    pub progress: Option<String>,
    pub actions: Vec<Json>,
}

/// One step's record.
#[derive(Clone, Debug, PartialEq)]
pub struct StepTrace {
    pub step: usize,
    /// Whose turn it was, for the turns of enemies (`enemy:N`); a player step leaves it out, so
    /// traces without enemy turns keep their shape.
    pub source: Option<String>,
    /// What the step did, in words.
    pub act: String,
    /// What the act itself changed (before the queue was worked off).
    pub effects: Vec<Json>,
    pub events: Vec<TraceEvent>,
}

impl TraceTrigger {
    pub fn json(&self) -> Json {
        let mut m = Map::new();
        m.insert("owner".into(), json!(self.owner));
        m.insert("at".into(), json!(&*self.at));
        m.insert("fired".into(), json!(self.fired));
        if let Some(r) = &self.reason {
            m.insert("reason".into(), json!(r));
        }
        if let Some(p) = &self.progress {
            m.insert("progress".into(), json!(p));
        }
        m.insert("actions".into(), Json::Array(self.actions.clone()));
        Json::Object(m)
    }
}

impl TraceEvent {
    pub fn json(&self) -> Json {
        json!({
            "event": self.event,
            "source": self.source,
            "target": self.target,
            "payload": self.payload,
            "cause": self.cause,
            "triggers": self.triggers.iter().map(TraceTrigger::json).collect::<Vec<_>>(),
        })
    }

    /// `attack_hit player → enemy:0 {damage_type: physical, weapon: core:iron_sword}`
    pub fn headline(&self) -> String {
        let mut s = format!("{} {}", self.event, self.source);
        if let Some(t) = &self.target {
            s.push_str(&format!(" -> {t}"));
        }
        if !self.payload.is_empty() {
            let parts: Vec<String> = self.payload.iter().map(|(k, v)| format!("{k}: {}", payload_value(v))).collect();
            s.push_str(&format!(" {{{}}}", parts.join(", ")));
        }
        s
    }
}

impl StepTrace {
    pub fn json(&self) -> Json {
        let mut m = Map::new();
        m.insert("step".into(), json!(self.step));
        if let Some(s) = &self.source {
            m.insert("source".into(), json!(s));
        }
        m.insert("act".into(), json!(self.act));
        m.insert("effects".into(), Json::Array(self.effects.clone()));
        m.insert("events".into(), Json::Array(self.events.iter().map(TraceEvent::json).collect()));
        Json::Object(m)
    }

    /// The indented causal trace.
    pub fn human(&self, title: &str) -> String {
        let mut out = format!("{title}: {}\n", self.act);
        for e in &self.effects {
            effect_lines(e, 1, &mut out);
        }
        for (i, e) in self.events.iter().enumerate() {
            if e.cause.is_none() {
                self.event_tree(i, 1, &mut out);
            }
        }
        out
    }

    fn event_tree(&self, i: usize, depth: usize, out: &mut String) {
        let e = &self.events[i];
        let pad = "  ".repeat(depth);
        out.push_str(&format!("{pad}#{i} {}\n", e.headline()));
        for t in &e.triggers {
            let mark = if t.fired { "fired" } else { "skipped" };
            let mut line = format!("{pad}  {mark} {} ({})", t.owner, t.at);
            if let Some(p) = &t.progress {
                line.push_str(&format!(" progress {p}"));
            }
            if let Some(r) = &t.reason {
                line.push_str(&format!(": {r}"));
            }
            out.push_str(&line);
            out.push('\n');
            for a in &t.actions {
                effect_lines(a, depth + 2, out);
            }
        }
        for (j, c) in self.events.iter().enumerate() {
            if c.cause == Some(i) {
                self.event_tree(j, depth + 1, out);
            }
        }
    }
}

fn effect_lines(e: &Json, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    let name = e.get("action").and_then(Json::as_str);
    let effect = e.get("effect").and_then(Json::as_str).unwrap_or("");
    match name {
        Some(n) => out.push_str(&format!("{pad}{n}: {effect}\n")),
        None => out.push_str(&format!("{pad}{effect}\n")),
    }
    if let Some(Json::Array(sub)) = e.get("actions") {
        for s in sub {
            effect_lines(s, depth + 1, out);
        }
    }
}
