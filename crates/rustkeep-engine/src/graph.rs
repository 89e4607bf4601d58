//! The trigger graph for `rustkeep graph` (docs/cli.md): nodes are the twelve events and every entry
//! that bears triggers; an edge "listens to" runs from an event to a bearer whose trigger is `on`
//! it, an edge "raises" from a bearer to each event its triggers' actions emit (the `emits` column
//! of the vocabulary; a quest also raises `quest_completed`). Strongly connected components with
//! more than one node, or a node with an edge to itself, are cycles: chains of triggers that can
//! feed each other until the event cap stops them.

use std::collections::{BTreeMap, BTreeSet};

use rustkeep_data::vocab::{EventKind, FieldType, Registry, REGISTRIES};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::Value as Json;

use crate::game::World;
use crate::place::Place;

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Node {
    /// `event:damage_taken`, or the bearer's entry ID.
    pub id: String,
    /// `event`, or the bearer's registry noun (`item`, `quest`, …).
    pub kind: String,
    /// Where the bearer's first trigger is written.
    pub at: Option<Place>,
}

impl Node {
    /// Whether the node is an event (else an entry bearing triggers).
    pub fn is_event(&self) -> bool {
        self.kind == EVENT_KIND
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub kind: EdgeKind,
}

/// What an edge means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    /// From an event to an entry with a trigger `on` it.
    Listens,
    /// From an entry to an event its triggers' actions can raise (a quest: `quest_completed`).
    Raises,
}

impl EdgeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Listens => "listens",
            EdgeKind::Raises => "raises",
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// Per node: on a cycle.
    pub in_cycle: Vec<bool>,
    /// Each cycle as its node indices (sorted by node ID).
    pub cycles: Vec<Vec<usize>>,
}

/// The `kind` of an event node.
const EVENT_KIND: &str = "event";

/// The output of `rustkeep graph --format json` (docs/cli.md).
#[derive(Serialize, JsonSchema)]
#[schemars(title = "rustkeep graph --format json", deny_unknown_fields)]
pub struct GraphReport<'a> {
    /// The events (`event:NAME`), then the entries in force that bear triggers.
    pub nodes: Vec<JsonNode<'a>>,
    /// Sorted by the indices of their ends, then kind.
    pub edges: Vec<JsonEdge<'a>>,
    /// Each cycle as its node IDs, sorted; the cycles sorted by their first ID.
    pub cycles: Vec<Vec<&'a str>>,
}

/// An event, or an entry bearing triggers.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonNode<'a> {
    /// `event:NAME` for an event; an entry's ID, prefixed with its registry (`items:…`) should it
    /// ever equal an event node's.
    pub id: &'a str,
    /// `event`, or the kind of entry (the registry's noun).
    #[schemars(schema_with = "node_kind_schema")]
    pub kind: &'a str,
    /// `FILE:LINE` of the entry's first trigger; `null` for events.
    #[schemars(with = "Option<String>")]
    pub at: Option<&'a Place>,
    /// On a cycle.
    pub cycle: bool,
}

/// An edge between an event and an entry.
#[derive(Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JsonEdge<'a> {
    /// The ID of the node it starts at.
    pub from: &'a str,
    /// The ID of the node it ends at.
    pub to: &'a str,
    pub kind: EdgeKind,
    /// Both ends lie on the same cycle.
    pub cycle: bool,
}

/// The kinds a node can have: `event`, and the noun of every registry whose entries can bear
/// triggers (a `triggers` field, or a quest's own `on`), from the vocabulary.
fn node_kind_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "type": "string", "enum": node_kinds() })
}

fn node_kinds() -> Vec<&'static str> {
    let bearers = REGISTRIES.iter().filter(|r| r.fields.iter().any(|f| matches!(f.ty, FieldType::Triggers | FieldType::Event)));
    std::iter::once(EVENT_KIND).chain(bearers.map(|r| r.noun)).collect()
}

fn event_id(e: EventKind) -> String {
    format!("event:{}", e.name())
}

impl Graph {
    pub fn build(w: &World) -> Graph {
        let mut g = Graph::default();
        let mut index: BTreeMap<String, usize> = BTreeMap::new();
        for e in EventKind::all() {
            index.insert(event_id(e), g.nodes.len());
            g.nodes.push(Node { id: event_id(e), kind: EVENT_KIND.into(), at: None });
        }
        let mut edges: BTreeSet<Edge> = BTreeSet::new();
        for reg in Registry::ALL {
            for id in w.ids(reg) {
                let Some(entry) = w.entry(reg, &id) else { continue };
                let triggers = entry.triggers();
                if triggers.is_empty() {
                    continue;
                }
                let key = if index.contains_key(&id) { format!("{}:{id}", reg.key()) } else { id.clone() };
                let n = g.nodes.len();
                index.insert(key.clone(), n);
                g.nodes.push(Node { id: key, kind: reg.noun().into(), at: Some(w.place(entry, triggers[0].span.start)) });
                for t in triggers {
                    let Some(on) = &t.on else { continue };
                    edges.insert(Edge { from: index[&event_id(on.value)], to: n, kind: EdgeKind::Listens });
                    for a in &t.actions {
                        for e in a.kind.def().emits {
                            edges.insert(Edge { from: n, to: index[&event_id(*e)], kind: EdgeKind::Raises });
                        }
                    }
                    if reg == Registry::Quests {
                        edges.insert(Edge { from: n, to: index[&event_id(EventKind::QuestCompleted)], kind: EdgeKind::Raises });
                    }
                }
            }
        }
        g.edges = edges.into_iter().collect();
        g.find_cycles();
        g
    }

    /// The cycles of the graph (cyclic strongly connected components), sorted by node ID.
    fn find_cycles(&mut self) {
        let n = self.nodes.len();
        let mut adj = vec![Vec::new(); n];
        for e in &self.edges {
            adj[e.from].push(e.to);
        }
        let comps = rustkeep_data::graph::cyclic_components(&adj);
        self.in_cycle = vec![false; n];
        for mut c in comps {
            for &x in &c {
                self.in_cycle[x] = true;
            }
            c.sort_by(|a, b| self.nodes[*a].id.cmp(&self.nodes[*b].id));
            self.cycles.push(c);
        }
        self.cycles.sort_by(|a, b| self.nodes[a[0]].id.cmp(&self.nodes[b[0]].id));
    }

    /// Whether an edge lies on a cycle (both ends in the same cyclic component).
    pub fn edge_in_cycle(&self, e: &Edge) -> bool {
        self.cycles.iter().any(|c| c.contains(&e.from) && c.contains(&e.to))
    }

    /// The graph as `rustkeep graph --format json` prints it.
    pub fn report(&self) -> GraphReport<'_> {
        GraphReport {
            nodes: self.nodes.iter().enumerate().map(|(i, n)| JsonNode { id: &n.id, kind: &n.kind, at: n.at.as_ref(), cycle: self.in_cycle[i] }).collect(),
            edges: self
                .edges
                .iter()
                .map(|e| JsonEdge { from: &self.nodes[e.from].id, to: &self.nodes[e.to].id, kind: e.kind, cycle: self.edge_in_cycle(e) })
                .collect(),
            cycles: self.cycles.iter().map(|c| c.iter().map(|i| self.nodes[*i].id.as_str()).collect()).collect(),
        }
    }

    /// [`Graph::report`] as a JSON value.
    pub fn json(&self) -> Json {
        serde_json::to_value(self.report()).expect("the graph serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind an entry of the vocabulary can bear triggers under is in the schema's list, and
    /// nothing else: the list is what the graph builder can produce.
    #[test]
    fn node_kinds_are_the_registries_that_bear_triggers() {
        let kinds = node_kinds();
        assert_eq!(kinds[0], "event");
        for r in Registry::ALL {
            let bears = r.def().fields.iter().any(|f| matches!(f.ty, FieldType::Triggers | FieldType::Event));
            assert_eq!(kinds.contains(&r.noun()), bears, "{}", r.key());
        }
        assert!(kinds.contains(&Registry::Quests.noun()) && kinds.contains(&Registry::Items.noun()));
    }

    #[test]
    fn edge_kinds_serialize_as_their_names() {
        for k in [EdgeKind::Listens, EdgeKind::Raises] {
            assert_eq!(serde_json::to_value(k).unwrap(), k.as_str());
        }
    }
}
