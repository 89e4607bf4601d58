//! What happened in a turn, in plain words for the message log: "You hit the Rat for 5.",
//! "The Goblin Shaman heals 5.", "Quest completed: Rattenplage!". Read from the turn's causal
//! trace — its events, and the effects of the actions that ran — with creatures and entries
//! called by their names.

use std::collections::BTreeMap;

use rustkeep_data::vocab::{field, Registry};
use rustkeep_engine::game::World;
use rustkeep_engine::trace::{StepTrace, TraceEvent};
use serde_json::Value as Json;

/// Who is who: the creature ID of every enemy the session has seen, by its N.
pub struct Names<'a> {
    pub w: &'a World,
    pub enemies: &'a BTreeMap<usize, String>,
}

/// An entry's `name`, else its ID. Entries of registries without names (prefabs) are called by
/// their ID in words: `core:rat_den` is "Rat Den".
pub fn entry_name(w: &World, registry: Registry, id: &str) -> String {
    if registry.field(field::NAME).is_none() {
        let local = id.rsplit_once(':').map_or(id, |(_, l)| l);
        return local.split('_').filter(|p| !p.is_empty()).map(capitalized).collect::<Vec<_>>().join(" ");
    }
    w.entry(registry, id).and_then(|e| e.str(field::NAME)).map(str::to_string).unwrap_or_else(|| id.to_string())
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

impl Names<'_> {
    /// `you`, or `the Rat` (`enemy:N` when the session never saw that enemy).
    fn who(&self, r: &str) -> String {
        if r == "player" {
            return "you".into();
        }
        match r.strip_prefix("enemy:").and_then(|n| n.parse::<usize>().ok()).and_then(|n| self.enemies.get(&n)) {
            Some(c) => format!("the {}", entry_name(self.w, Registry::Creatures, c)),
            None => r.to_string(),
        }
    }

    fn item(&self, id: &str) -> String {
        entry_name(self.w, Registry::Items, id)
    }

    /// An engine effect line with its refs and IDs in words.
    fn words(&self, effect: &str) -> String {
        let mut out = Vec::new();
        for word in effect.split(' ') {
            // Trailing punctuation stays as it is: `enemy:0:` or `core:rat,`.
            let core = word.trim_end_matches([',', ':', ';', ')', '.']);
            let tail = &word[core.len()..];
            let shown = if core == "player" || core.starts_with("enemy:") {
                self.who(core)
            } else if core.contains(':') {
                self.id_name(core)
            } else {
                core.to_string()
            };
            out.push(format!("{shown}{tail}"));
        }
        out.join(" ")
    }

    /// The name of an ID of any registry (the first that defines it).
    fn id_name(&self, id: &str) -> String {
        [Registry::Items, Registry::Statuses, Registry::Quests, Registry::Creatures, Registry::Npcs, Registry::Shops, Registry::Affixes]
            .into_iter()
            .find(|r| self.w.exists(*r, id))
            .map(|r| entry_name(self.w, r, id))
            .unwrap_or_else(|| id.to_string())
    }
}

fn payload<'e>(e: &'e TraceEvent, key: &str) -> Option<&'e Json> {
    e.payload.get(key)
}

fn payload_str<'e>(e: &'e TraceEvent, key: &str) -> &'e str {
    payload(e, key).and_then(Json::as_str).unwrap_or("")
}

/// Sentences for the actions that ran (from the effects of a step or of a fired trigger): the
/// ones whose result no event tells (heal, statuses, spawns, quests, flight, shops, items taken).
fn action_sentences(names: &Names<'_>, effect: &Json, out: &mut Vec<String>) {
    let action = effect.get("action").and_then(Json::as_str);
    let text = effect.get("effect").and_then(Json::as_str).unwrap_or("");
    if let (Some("spawn"), Some(rest)) = (action, text.strip_prefix("spawned ")) {
        // `spawned core:rat as enemy:0, enemy:1; …`: the creature once, then how many came.
        let creature = rest.split_whitespace().next().unwrap_or("");
        let name = entry_name(names.w, Registry::Creatures, creature);
        let n = rest.matches("enemy:").count();
        out.push(if n == 1 { format!("The {name} appears.") } else { format!("{n} × {name} appear.") });
    } else if let Some(a) = action {
        let told_by_an_event = matches!(a, "damage" | "give_item");
        if !told_by_an_event && !text.is_empty() && !text.starts_with("no effect") {
            out.push(capitalized(&names.words(text)) + ".");
        }
    }
    if let Some(Json::Array(sub)) = effect.get("actions") {
        for s in sub {
            action_sentences(names, s, out);
        }
    }
}

/// The sentence of one event, if it tells the player something (an `attack_hit` waits for its
/// `damage_taken`).
fn event_sentence<'e>(names: &Names<'_>, e: &'e TraceEvent, hit: &mut Option<(&'e str, &'e str)>, out: &mut Vec<String>) {
    let target = e.target.as_deref().unwrap_or("");
    match e.event.as_str() {
        "combat_started" => out.push("A fight begins!".into()),
        "combat_ended" => match payload_str(e, "outcome") {
            "victory" => out.push("The fight is won.".into()),
            _ => out.push("The fight is over: you fled.".into()),
        },
        "attack_hit" => *hit = Some((e.source.as_str(), target)),
        "damage_taken" => {
            let amount = payload(e, "amount").and_then(Json::as_i64).unwrap_or(0);
            let dtype = payload_str(e, "damage_type");
            let kind = if dtype == "physical" || dtype.is_empty() { String::new() } else { format!(" {dtype}") };
            let victim = e.source.as_str();
            if hit.is_some_and(|(a, v)| v == victim && a == target) {
                let attacker = names.who(target);
                let verb = if target == "player" { "hit" } else { "hits" };
                out.push(format!("{} {verb} {} for {amount}{kind}.", capitalized(&attacker), names.who(victim)));
                *hit = None;
            } else {
                let verb = if victim == "player" { "take" } else { "takes" };
                out.push(format!("{} {verb} {amount}{kind} damage.", capitalized(&names.who(victim))));
            }
        }
        "creature_died" => {
            let victim = e.source.as_str();
            out.push(if victim == "player" { "You die.".into() } else { format!("{} dies.", capitalized(&names.who(victim))) });
        }
        "item_picked_up" if e.source == "player" => {
            let count = payload(e, "count").and_then(Json::as_u64).unwrap_or(1);
            let affixes: Vec<String> = payload(e, "affixes")
                .and_then(Json::as_array)
                .map(|a| a.iter().filter_map(Json::as_str).map(|x| entry_name(names.w, Registry::Affixes, x)).collect())
                .unwrap_or_default();
            let what = names.item(payload_str(e, "item"));
            let with = if affixes.is_empty() { String::new() } else { format!(" ({})", affixes.join(", ")) };
            out.push(if count == 1 { format!("You pick up {what}{with}.") } else { format!("You pick up {count} × {what}{with}.") });
        }
        "item_used" if e.source == "player" => out.push(format!("You use {}.", names.item(payload_str(e, "item")))),
        "floor_entered" => {
            let floor = payload_str(e, "floor");
            let depth = payload(e, "depth").and_then(Json::as_i64).map(|d| format!(" (depth {d})")).unwrap_or_default();
            out.push(format!("You reach {}{depth}.", entry_name(names.w, Registry::Floors, floor)));
        }
        "room_entered" => out.push(format!("You enter {}.", entry_name(names.w, Registry::Prefabs, payload_str(e, "prefab")))),
        "npc_talked" => out.push(format!("You talk to {}.", entry_name(names.w, Registry::Npcs, payload_str(e, "npc")))),
        "quest_completed" => out.push(format!("Quest completed: {}!", entry_name(names.w, Registry::Quests, payload_str(e, "quest")))),
        _ => {}
    }
}

/// The plain-word sentences of the steps of one turn, in the order things happened.
pub fn sentences(names: &Names<'_>, steps: &[StepTrace]) -> Vec<String> {
    let mut out = Vec::new();
    for step in steps {
        for effect in &step.effects {
            let text = effect.get("effect").and_then(Json::as_str).unwrap_or("");
            if let Some(rest) = text.strip_prefix("no effect: ") {
                out.push(format!("Nothing happens: {}.", names.words(rest)));
            } else if text.contains("bumps into the wall") {
                out.push("A wall blocks the way.".into());
            } else if text.contains("waits: there is no way to the player") {
                // An enemy that cannot reach the player is not news every turn.
            } else if text.contains("the loot pile holds nothing") {
                out.push("The loot pile holds nothing and crumbles away.".into());
            } else if text.contains("fled, leaving") {
                out.push("You flee, leaving the enemies behind.".into());
            } else if text.contains("the run is won") {
                out.push("You leave the deepest floor: the run is won!".into());
            }
            action_sentences(names, effect, &mut out);
        }
        let mut hit: Option<(&str, &str)> = None; // (attacker, victim) of the last attack_hit
                                                  // In causal order, as the trace shows it: an event, what its triggers did, then the
                                                  // events it caused.
        let mut order = Vec::with_capacity(step.events.len());
        let mut stack: Vec<usize> = step.events.iter().enumerate().filter(|(_, e)| e.cause.is_none()).map(|(i, _)| i).rev().collect();
        while let Some(i) = stack.pop() {
            order.push(i);
            stack.extend(step.events.iter().enumerate().filter(|(_, c)| c.cause == Some(i)).map(|(j, _)| j).rev());
        }
        for e in order.into_iter().map(|i| &step.events[i]) {
            event_sentence(names, e, &mut hit, &mut out);
            for t in e.triggers.iter().filter(|t| t.fired) {
                for a in &t.actions {
                    action_sentences(names, a, &mut out);
                }
            }
        }
    }
    out
}
