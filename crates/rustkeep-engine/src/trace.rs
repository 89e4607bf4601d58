//! The causal trace of a run: per step, every handled event with every trigger that listened to
//! it (fired or not, and why not), and the renderers for JSON (keys stable, docs/cli.md) and for
//! humans (an indented tree: an event raised while handling another sits below it).

use rustkeep_data::vocab::EventKind;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::actor::CreatureRef;
use crate::effect::Outcome;
use crate::payload::Payload;
use crate::place::Place;

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

/// One handled event with every trigger that listened to it.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct TraceEvent {
    /// The event's name.
    #[serde(serialize_with = "event_name")]
    #[schemars(with = "String")]
    pub event: EventKind,
    /// `player` or `enemy:N`.
    #[schemars(with = "String")]
    pub source: CreatureRef,
    /// `player`, `enemy:N` or `null`.
    #[schemars(with = "Option<String>")]
    pub target: Option<CreatureRef>,
    /// The event's payload fields.
    #[serde(serialize_with = "payload_fields")]
    #[schemars(with = "Map<String, Json>")]
    pub payload: Payload,
    /// Index of the event whose trigger raised this one; `None` when the step itself did.
    pub cause: Option<usize>,
    pub triggers: Vec<TraceTrigger>,
}

/// A trigger that listened to an event: fired, or why not.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct TraceTrigger {
    /// The entry ID of the trigger's bearer.
    pub owner: String,
    /// `file:line` of the trigger.
    #[schemars(with = "String")]
    pub at: Place,
    /// Whether its actions ran.
    pub fired: bool,
    /// Why it did not fire (a `when` field that did not match, a condition, the chance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For quests: `count/needed` after this event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<String>,
    /// What each action did, one object per action (`action` names it; the other keys are its
    /// effect).
    #[schemars(with = "Vec<Json>")]
    pub actions: Vec<Outcome>,
}

/// One step's record.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct StepTrace {
    /// The step's number (0 is the setup).
    pub step: usize,
    /// Whose turn it was, for the turns of enemies (`enemy:N`); a player step leaves it out, so
    /// traces without enemy turns keep their shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// What the step did, in words.
    pub act: String,
    /// What the act itself changed (before the queue was worked off), one object per change.
    #[schemars(with = "Vec<Json>")]
    pub effects: Vec<Outcome>,
    /// Every event handled in the step, in order; `cause` is the index of the event whose
    /// trigger raised it.
    pub events: Vec<TraceEvent>,
    /// How many of `events` were handled before the act (the turn's start, a fight that began
    /// with it, and what they caused): the act's effects happened after them. Not part of the
    /// trace's JSON, whose events tell it by their order.
    #[serde(skip)]
    pub before_act: usize,
}

impl TraceTrigger {
    pub fn json(&self) -> Json {
        serde_json::to_value(self).unwrap_or_default()
    }
}

impl TraceEvent {
    pub fn json(&self) -> Json {
        serde_json::to_value(self).unwrap_or_default()
    }

    /// `attack_hit player → enemy:0 {damage_type: physical, weapon: core:iron_sword}`
    pub fn headline(&self) -> String {
        let mut s = format!("{} {}", self.event.name(), self.source);
        if let Some(t) = &self.target {
            s.push_str(&format!(" -> {t}"));
        }
        let payload = self.payload.to_json();
        if !payload.is_empty() {
            let parts: Vec<String> = payload.iter().map(|(k, v)| format!("{k}: {}", payload_value(v))).collect();
            s.push_str(&format!(" {{{}}}", parts.join(", ")));
        }
        s
    }
}

impl StepTrace {
    pub fn json(&self) -> Json {
        serde_json::to_value(self).unwrap_or_default()
    }
}

fn event_name<S: serde::Serializer>(kind: &EventKind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.name())
}

fn payload_fields<S: serde::Serializer>(payload: &Payload, s: S) -> Result<S::Ok, S::Error> {
    payload.to_json().serialize(s)
}

/// A payload value as the human trace shows it: a string bare, anything else as JSON.
fn payload_value(v: &Json) -> String {
    v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string())
}
